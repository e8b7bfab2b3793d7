/* sched_files.c — the scheduler over every example and every .circ under tests/:
 *   - a file that verifies schedules without error (global code motion and naive), its
 *     dump (sched_print) parses back to the same circuit (the same canonical lines),
 *     and every run line gives the same outcome on the scheduled form as in the graph
 *     interpreter, for both schedules;
 *   - a file that parses but does not verify is scheduled anyway: refused or
 *     scheduled, never a crash (the sanitized build checks this).
 * usage: sched_files DIR...  (searched recursively for *.circ) */
#include "oracle/interp_cfg.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned files, valid, unverified, runs, failures;
} Totals;

static Totals t;
static FILE *devnull;

static void failf(const char *file, const char *fmt, const char *detail)
{
    t.failures++;
    printf("FAIL %s: %s%s%s\n", file, fmt, detail ? ": " : "", detail ? detail : "");
}

/* the canonical text of a module as sorted lines */
static char *canonical_sorted(const Module *m, size_t *nlines, char ***lines)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    print_module(out, m);
    fclose(out);
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        v[n++] = l;
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: small modules */
        for (size_t k = i; k > 0 && strcmp(v[k - 1], v[k]) > 0; k--) {
            char *x = v[k]; v[k] = v[k - 1]; v[k - 1] = x;
        }
    *nlines = n;
    *lines = v;
    return buf;
}

/* the dump of every function, run lines included, parses to the same circuit */
static void check_dump(const char *path, const Module *m, Schedule **scheds)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    print_externs(out, m);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        sched_print(out, scheds[i]);
        for (uint32_t k = 0; k < m->nruns; k++)
            if (m->runs[k].func == i)
                print_runline(out, m, &m->runs[k]);
    }
    fclose(out);
    Diag d;
    diag_init(&d, path, stdout);
    Module *back = parse_module(path, text, len, &d);
    if (!back) {
        failf(path, "the dump does not parse", NULL);
    } else {
        size_t na, nb;
        char **la, **lb;
        char *ba = canonical_sorted(m, &na, &la), *bb = canonical_sorted(back, &nb, &lb);
        bool same = na == nb;
        for (size_t i = 0; same && i < na; i++)
            same = !strcmp(la[i], lb[i]);
        if (!same)
            failf(path, "the dump parses to a different circuit", NULL);
        free(la);
        free(lb);
        free(ba);
        free(bb);
        module_free(back);
    }
    free(text);
}

static void compare_runs(const char *path, const Module *m, const SchedOptions *so)
{
    Diag d;
    diag_init(&d, path, stdout);
    CfgInterp *ci = cfg_interp_new(m, NULL, so, &d);
    if (!ci) {
        failf(path, "cannot run the scheduled form", NULL);
        return;
    }
    Interp *gi = interp_new(m, NULL);
    Outcome *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    for (uint32_t k = 0; k < m->nruns; k++) {
        uint64_t args[64] = {0};
        if (m->runs[k].nargs > 64)
            continue;
        runline_args(&m->runs[k], args);
        interp_call(gi, m->runs[k].func, args, a);
        cfg_interp_call(ci, m->runs[k].func, args, b);
        char why[300], line[400];
        t.runs++;
        if (!outcome_equal(a, b, why, sizeof why)) {
            snprintf(line, sizeof line, "line %u, %s schedule: %s", m->runs[k].line,
                     so->no_motion ? "naive" : "gcm", why);
            failf(path, "the scheduled form differs from the graph interpreter", line);
        }
    }
    free(a);
    free(b);
    interp_free(gi);
    cfg_interp_free(ci);
}

static void check_valid(const char *path, const Module *m)
{
    t.valid++;
    for (int naive = 0; naive < 2; naive++) {
        SchedOptions so = {.no_motion = naive};
        Schedule **scheds = calloc(m->nfuncs + 1, sizeof *scheds);
        bool all = true;
        Diag d;
        diag_init(&d, path, stdout);
        for (uint32_t i = 0; i < m->nfuncs; i++)
            all &= (scheds[i] = schedule_func(m->funcs[i], &so, &d)) != NULL;
        if (!all)
            failf(path, naive ? "does not schedule (naive)" : "does not schedule", NULL);
        else if (!naive)
            check_dump(path, m, scheds);
        for (uint32_t i = 0; i < m->nfuncs; i++)
            schedule_free(scheds[i]);
        free(scheds);
        if (all)
            compare_runs(path, m, &so);
    }
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".circ"))
        return 0;
    t.files++;
    Diag d;
    diag_init(&d, path, devnull);
    Module *m = parse_file(path, &d);
    if (!m)
        return 0;
    if (verify_module(m, &d) == 0) {
        check_valid(path, m);
    } else {
        t.unverified++;
        for (uint32_t i = 0; i < m->nfuncs; i++)
            schedule_free(schedule_func(m->funcs[i], NULL, &d));
    }
    module_free(m);
    return 0;
}

int main(int argc, char **argv)
{
    devnull = fopen("/dev/null", "w");
    for (int i = 1; i < argc; i++)
        if (nftw(argv[i], visit, 16, FTW_PHYS) != 0) {
            fprintf(stderr, "sched_files: cannot walk %s\n", argv[i]);
            return 2;
        }
    fclose(devnull);
    printf("%u files: %u valid scheduled, %u unverified scheduled or refused; %u run lines compared "
           "(both schedules); %u failures\n",
           t.files, t.valid, t.unverified, t.runs, t.failures);
    return t.failures || t.valid == 0 ? 1 : 0;
}
