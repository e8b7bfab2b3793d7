/* oracle_invalid.c — programs the interpreter must report as `invalid`.
 * Each FILE given has a line `; invalid: @f ARG... ~ TEXT`: running @f on those
 * arguments must give `invalid` with TEXT in the reason.  The file is parsed but not
 * verified (some of these, like a relay demanded off its path, the verifier rejects
 * statically; the interpreter must still catch them).  Run lines in the file, if any,
 * must pass: they show the same program is fine on another path. */
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static bool parse_arg(const char *s, size_t n, Type t, uint64_t *bits)
{
    if (n == 4 && !memcmp(s, "heap", 4)) {
        *bits = HEAP_ADDR;
        return true;
    }
    if (ty_is_float(t))
        return lit_parse_float(s, n, t, bits);
    return lit_parse_int(s, n, bits);
}

/* run the `; invalid:` line; 0 if the outcome is as stated */
static int check_invalid(const char *path, const Module *m, const char *line)
{
    const char *p = line + strlen("; invalid:");
    while (*p == ' ')
        p++;
    const char *name = p + 1;
    while (*p && *p != ' ' && *p != '\n')
        p++;
    const Func *f = *name ? module_find(m, name, (size_t)(p - name)) : NULL;
    if (!f) {
        fprintf(stderr, "%s: invalid line names no function\n", path);
        return 1;
    }
    uint64_t args[64] = {0};
    uint32_t na = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == '~' || !*p || *p == '\n')
            break;
        const char *a = p;
        while (*p && *p != ' ' && *p != '\n')
            p++;
        if (na >= f->nparams || !parse_arg(a, (size_t)(p - a), f->params[na], &args[na])) {
            fprintf(stderr, "%s: bad argument '%.*s'\n", path, (int)(p - a), a);
            return 1;
        }
        args[na] &= ty_mask(f->params[na]);
        na++;
    }
    if (*p != '~' || na != f->nparams) {
        fprintf(stderr, "%s: malformed invalid line\n", path);
        return 1;
    }
    p++;
    while (*p == ' ')
        p++;
    const char *end = strchr(p, '\n');
    size_t tn = end ? (size_t)(end - p) : strlen(p);
    char want[256];
    snprintf(want, sizeof want, "%.*s", (int)tn, p);
    Outcome *o = malloc(sizeof *o);
    interp_run(m, f->index, args, NULL, o);
    char got[300];
    outcome_format(got, sizeof got, o);
    int bad = o->kind != OUT_INVALID || !strstr(o->reason, want);
    if (bad)
        fprintf(stderr, "%s: expected invalid (%s), got %s\n", path, want, got);
    else
        printf("%s: %s\n", path, got);
    free(o);
    return bad;
}

static int check_runs(const char *path, const Module *m)
{
    int bad = 0;
    Outcome *o = malloc(sizeof *o);
    for (uint32_t i = 0; i < m->nruns; i++) {
        uint64_t args[256] = {0};
        runline_args(&m->runs[i], args);
        interp_run(m, m->runs[i].func, args, NULL, o);
        if (!outcome_matches(o, &m->runs[i].expect)) {
            char got[300];
            outcome_format(got, sizeof got, o);
            fprintf(stderr, "%s:%u: run line failed: got %s\n", path, m->runs[i].line, got);
            bad++;
        }
    }
    free(o);
    return bad;
}

int main(int argc, char **argv)
{
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        char *src = read_all(argv[i]);
        Diag d;
        diag_init(&d, argv[i], stderr);
        Module *m = src ? parse_module(argv[i], src, strlen(src), &d) : NULL;
        const char *line = src ? strstr(src, "; invalid:") : NULL;
        if (!m || !line) {
            fprintf(stderr, "%s: cannot read, parse, or find '; invalid:'\n", argv[i]);
            failures++;
        } else {
            failures += check_invalid(argv[i], m, line);
            failures += check_runs(argv[i], m);
        }
        module_free(m);
        free(src);
    }
    printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
