/* plugins.c — the driver's --load-pass-plugin=PATH option (opt, check, fuzz, reduce,
 * tv): the plugins' passes (include/circ/pass.h) go into one registry per command,
 * which the command hands to its pass managers (api/api_internal.h).  A campaign's
 * and a reducer's workers are forked, so they have the plugins loaded too. */
#include "api/api_internal.h"
#include "driver.h"

#include <string.h>

int plugin_option(int argc, char **argv, int *i, struct circ_pass_registry **reg, const char *cmd)
{
    static const char opt[] = "--load-pass-plugin";
    const char *a = argv[*i], *path;
    size_t n = sizeof opt - 1;
    if (strncmp(a, opt, n) || (a[n] && a[n] != '='))
        return 0;
    path = a[n] == '=' ? a + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
    if (!path || !*path) {
        fprintf(stderr, "circ %s: %s needs the path of a plugin (PATH.so)\n", cmd, opt);
        return -1;
    }
    if (!*reg && !(*reg = circ_pass_registry_new())) {
        fprintf(stderr, "circ %s: out of memory\n", cmd);
        return -1;
    }
    char err[1024];
    if (circ_pass_registry_load(*reg, path, err, sizeof err)) {
        fprintf(stderr, "circ %s: %s\n", cmd, err);
        return -1;
    }
    return 1;
}

void plugin_reproduce_args(int argc, char **argv, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 1; i < argc && k < n; i++)
        if (!strncmp(argv[i], "--load-pass-plugin=", 19))
            k += (size_t)snprintf(buf + k, n - k, " %s", argv[i]);
        else if (!strcmp(argv[i], "--load-pass-plugin") && i + 1 < argc)
            k += (size_t)snprintf(buf + k, n - k, " --load-pass-plugin=%s", argv[++i]);
}
