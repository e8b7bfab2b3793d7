/* status_option.c — the driver's --status-interval S option of the long commands
 * (check, reduce, tv, gen --stats): seconds between plain progress lines when
 * stderr is no terminal (fuzz/progress.h). */
#include "driver.h"

#include <stdlib.h>
#include <string.h>

int status_interval_option(int argc, char **argv, int *i, double *seconds, const char *cmd)
{
    if (strcmp(argv[*i], "--status-interval"))
        return 0;
    const char *s = *i + 1 < argc ? argv[++*i] : NULL;
    char *end;
    double x = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || !(x > 0) || x > 1e9) {
        fprintf(stderr, "circ %s: --status-interval needs seconds (more than 0)\n", cmd);
        return -1;
    }
    *seconds = x;
    return 1;
}
