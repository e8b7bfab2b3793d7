/* cmd_opt.c — `circ opt`: run the optimization pipeline over a file and print the
 * result (run lines kept). */
#include "api/api_internal.h"
#include "driver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char opt_usage[] =
    "usage: circ opt FILE [-O0|-O1|-O2|--passes=LIST] [--verify-each]\n"
    "                [--print-after=PASS|all] [--print-after-all] [--opt-bisect-limit=N]\n"
    "                [--load-pass-plugin=PATH.so]...\n"
    "       circ opt --list-passes [--load-pass-plugin=PATH.so]...\n"
    "Optimize every function of FILE and print the module in canonical text form.\n"
    "  -O0                 no passes\n"
    "  -O1                 fold, dce, simplify-cfg\n"
    "  -O2                 fold, gvn, lse, inline, simplify-cfg, dce, repeated until\n"
    "                      nothing changes (at most 8 rounds); the default\n"
    "  --passes=a,b,c      exactly these passes, once, in this order\n"
    "  --verify-each       verify after every pass; stop naming the pass that broke it\n"
    "  --print-after=PASS  dump the module to stderr after each run of PASS ('all': every pass)\n"
    "  --opt-bisect-limit=N  run only the first N pass applications, logging each to stderr\n"
    "  --load-pass-plugin=PATH.so  load a pass plugin (docs/api.md): its passes can be\n"
    "                      named in --passes and --print-after\n"
    "Exit 0 on success, 1 if the input is invalid or a pass broke the circuit, 2 on usage or I/O errors.\n";

typedef struct {
    const char *file;
    int level;
    const char *passes;
    PassOptions opt;
    bool list;
    circ_pass_registry *plugins;
} OptArgs;

static bool parse_limit(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *s == '\0' || *end != '\0' || v < 0)
        return false;
    *out = v;
    return true;
}

static bool parse_args(int argc, char **argv, OptArgs *a)
{
    *a = (OptArgs){.level = 2, .opt = {.bisect_limit = -1}};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int plugin = plugin_option(argc, argv, &i, &a->plugins, "opt");
        if (plugin < 0)
            return false;
        if (plugin)
            continue;
        if (!strcmp(s, "-O0") || !strcmp(s, "-O1") || !strcmp(s, "-O2"))
            a->level = s[2] - '0', a->passes = NULL;
        else if (!strncmp(s, "--passes=", 9))
            a->passes = s + 9;
        else if (!strcmp(s, "--verify-each"))
            a->opt.verify_each = true;
        else if (!strncmp(s, "--print-after=", 14) && s[14])
            a->opt.print_after = s + 14;
        else if (!strcmp(s, "--print-after-all"))
            a->opt.print_after = "all";
        else if (!strncmp(s, "--opt-bisect-limit=", 19)) {
            if (!parse_limit(s + 19, &a->opt.bisect_limit)) {
                fprintf(stderr, "circ opt: --opt-bisect-limit needs a count, not '%s'\n", s + 19);
                return false;
            }
        } else if (!strcmp(s, "--list-passes"))
            a->list = true;
        else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "circ opt: unknown option '%s'\n%s", s, opt_usage);
            return false;
        } else if (a->file) {
            fprintf(stderr, "circ opt: one FILE only\n%s", opt_usage);
            return false;
        } else
            a->file = s;
    }
    if (!a->file && !a->list) {
        fputs(opt_usage, stderr);
        return false;
    }
    return true;
}

static bool configure(PassManager *pm, const OptArgs *a)
{
    char err[200];
    if (a->opt.print_after && strcmp(a->opt.print_after, "all") &&
        !pass_find(pm, a->opt.print_after, strlen(a->opt.print_after))) {
        fprintf(stderr, "circ opt: --print-after names unknown pass '%s'\n", a->opt.print_after);
        return false;
    }
    if (a->passes && !pm_set_passes(pm, a->passes, err, sizeof err)) {
        fprintf(stderr, "circ opt: %s\n", err);
        return false;
    }
    if (!a->passes)
        pm_set_level(pm, a->level);
    return true;
}

static int run_opt(const OptArgs *a)
{
    PassManager *pm = pm_new(&a->opt);
    if (pm)
        api_register_passes(pm, a->plugins);
    if (!pm || !configure(pm, a)) {
        pm_free(pm);
        return EXIT_USAGE;
    }
    if (a->list) {
        fputs("passes:\n", stdout);
        pm_list_passes(pm, stdout);
        pm_free(pm);
        return EXIT_OK;
    }
    int status = EXIT_OK;
    Module *m = load_module(a->file, true, &status);
    if (!m) {
        pm_free(pm);
        return status;
    }
    if (pm_run(pm, m))
        status = EXIT_FAIL;
    else
        print_module(stdout, m);
    module_free(m);
    pm_free(pm);
    return status;
}

int cmd_opt(int argc, char **argv)
{
    if (wants_help(argc, argv, opt_usage))
        return EXIT_OK;
    OptArgs a;
    int status = parse_args(argc, argv, &a) ? run_opt(&a) : EXIT_USAGE;
    circ_pass_registry_free(a.plugins);
    return status;
}
