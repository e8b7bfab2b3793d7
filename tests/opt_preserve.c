/* opt_preserve.c — outcome preservation of the optimizer: for every valid .circ file
 * under the given files or directories, each registered pass alone, -O1 and -O2 must
 * leave a circuit that verifies, prints and re-parses, and gives the same outcome
 * (outcome_equal: value, trap kind, heap bytes) as the original on every run line.
 * Runs whose original outcome is invalid or a timeout are not compared.
 *
 *   opt_preserve PATH...                        exit 0 if every pipeline preserves
 *   opt_preserve --gen SEED COUNT SIZE [--swarm]  the same on COUNT generated programs
 *       (fuzz/gen.h) of about SIZE gates, seeds SEED..SEED+COUNT-1, plus three random
 *       pass orders per program; a failing
 *       program is written to opt_gen_SEED.circ
 *   opt_preserve --wrong-pass PATH...           installs the deliberately wrong pass
 *       `swap-sub` (SUB x, y -> SUB y, x) through pass_register and exits 0 only if
 *       the check catches it on some file (the check itself is tested). */
#include "compiler/opt/opt.h"
#include "swap_sub_pass.h"
#include "oracle/interp.h"
#ifdef OPT_HAVE_GEN
#include "fuzz/gen.h"
#endif

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    int files, skipped, pipelines, runs, compared, failures;
    bool wrong_pass;
} Stats;

static Module *reparse(const Module *m, const char *file)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    print_module(mem, m);
    fclose(mem);
    Diag d;
    diag_init(&d, file, stderr);
    Module *r = parse_module(file, buf, len, &d);
    free(buf);
    return r;
}

/* the original's outcome of every run line, computed once per module */
static Outcome *original_outcomes(const Module *m, Stats *st)
{
    Outcome *o = calloc(m->nruns ? m->nruns : 1, sizeof *o);
    for (uint32_t i = 0; i < m->nruns; i++) {
        uint64_t args[64] = {0};
        if (m->runs[i].nargs > 64) {
            o[i].kind = OUT_INVALID;
            continue;
        }
        runline_args(&m->runs[i], args);
        interp_run(m, m->runs[i].func, args, NULL, &o[i]);
        st->runs++;
    }
    return o;
}

/* run every run line on the optimized module; number of differences */
static int compare_runs(const Module *orig, const Outcome *before, const Module *opt, const char *file,
                        const char *what, Stats *st)
{
    int diffs = 0;
    Outcome *b = malloc(sizeof *b);
    for (uint32_t i = 0; i < orig->nruns; i++) {
        const RunLine *r = &orig->runs[i];
        const Outcome *a = &before[i];
        if (a->kind == OUT_INVALID || a->kind == OUT_TIMEOUT)
            continue;
        uint64_t args[64] = {0};
        runline_args(r, args);
        interp_run(opt, r->func, args, NULL, b);
        st->compared++;
        char why[300], fa[300], fb[300];
        if (!outcome_equal(a, b, why, sizeof why)) {
            outcome_format(fa, sizeof fa, a);
            outcome_format(fb, sizeof fb, b);
            if (!st->wrong_pass)
                fprintf(stderr, "%s:%u: %s changes the outcome: %s before, %s after (%s)\n", file, r->line, what,
                        fa, fb, why);
            diffs++;
        }
    }
    free(b);
    return diffs;
}

/* one pipeline on a copy of m; number of problems found */
static int check_pipeline(const Module *m, const Outcome *before, const char *file, const char *what, int level,
                          const char *passes, Stats *st)
{
    Module *copy = module_clone(m);
    PassOptions po = {.verify_each = true, .bisect_limit = -1};
    PassManager *pm = pm_new(&po);
    pass_register(pm, &swap_sub_info);
    char err[200];
    int problems = 0;
    if (passes)
        pm_set_passes(pm, passes, err, sizeof err);
    else
        pm_set_level(pm, level);
    st->pipelines++;
    if (pm_run(pm, copy)) {
        fprintf(stderr, "%s: %s leaves an invalid circuit\n", file, what);
        problems++;
    } else {
        Module *again = reparse(copy, file);
        if (!again) {
            fprintf(stderr, "%s: the text printed after %s does not parse\n", file, what);
            problems++;
        } else {
            problems += compare_runs(m, before, again, file, what, st);
            module_free(again);
        }
    }
    pm_free(pm);
    module_free(copy);
    return problems;
}

static const char *const single_passes[] = {"fold", "gvn", "dce", "simplify-cfg", "lse", "inline"};

static int check_module(const Module *m, const char *path, Stats *st)
{
    int problems = 0;
    Outcome *before = original_outcomes(m, st);
    if (st->wrong_pass) {
        problems += check_pipeline(m, before, path, "swap-sub", 0, "swap-sub", st);
    } else {
        for (size_t i = 0; i < sizeof single_passes / sizeof *single_passes; i++)
            problems += check_pipeline(m, before, path, single_passes[i], 0, single_passes[i], st);
        problems += check_pipeline(m, before, path, "-O1", 1, NULL, st);
        problems += check_pipeline(m, before, path, "-O2", 2, NULL, st);
    }
    free(before);
    return problems;
}

#ifdef OPT_HAVE_GEN
/* a pass order drawn from the seed: ten passes, repeats allowed */
static void random_order(uint64_t seed, char *buf, size_t n)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < 10; i++) {
        x ^= x >> 31, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 27;
        const char *p = single_passes[x % (sizeof single_passes / sizeof *single_passes)];
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "", p);
        if (k >= n)
            break;
    }
}

static int check_generated(uint64_t seed, uint64_t count, uint32_t size, bool swarm, Stats *st)
{
    GenOptions go = {.size = size, .swarm = swarm};
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    int problems = 0;
    for (uint64_t s = seed; s < seed + count; s++) {
        gen_seed_bytes(s, bytes, len);
        Module *m = generate(bytes, len, &go);
        gen_add_runlines(m, bytes, len, 4, NULL, NULL);
        char name[64];
        snprintf(name, sizeof name, "opt_gen_%llu.circ", (unsigned long long)s);
        st->files++;
        int p = check_module(m, name, st);
        Outcome *before = original_outcomes(m, st);
        for (uint64_t k = 0; k < 3; k++) { /* three random pass orders per program */
            char order[200];
            random_order(s * 3 + k, order, sizeof order);
            p += check_pipeline(m, before, name, order, 0, order, st);
        }
        free(before);
        if (p) {
            FILE *f = fopen(name, "w");
            if (f) {
                print_module(f, m);
                fclose(f);
            }
        }
        problems += p;
        module_free(m);
    }
    free(bytes);
    return problems;
}
#endif

static int check_file(const char *path, Stats *st)
{
    Diag d;
    FILE *sink = fopen("/dev/null", "w");
    diag_init(&d, path, sink);
    Module *m = parse_file(path, &d);
    if (!m || verify_module(m, &d)) {
        module_free(m);
        fclose(sink);
        st->skipped++;
        return 0;
    }
    fclose(sink);
    st->files++;
    int problems = check_module(m, path, st);
    module_free(m);
    return problems;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcmp(s + n - k, suf);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int walk(const char *path, Stats *st)
{
    struct stat sb;
    if (stat(path, &sb))
        return 0;
    if (!S_ISDIR(sb.st_mode))
        return has_suffix(path, ".circ") ? check_file(path, st) : 0;
    DIR *dir = opendir(path);
    if (!dir)
        return 0;
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
        sprintf(names[n++], "%s/%s", path, e->d_name);
    }
    closedir(dir);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    int problems = 0;
    for (size_t i = 0; i < n; i++) {
        problems += walk(names[i], st);
        free(names[i]);
    }
    free(names);
    return problems;
}

int main(int argc, char **argv)
{
    Stats st = {0};
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "--wrong-pass")) {
        st.wrong_pass = true;
        first = 2;
    }
    int problems = 0;
    if ((argc == 5 || argc == 6) && !strcmp(argv[1], "--gen")) {
#ifdef OPT_HAVE_GEN
        problems = check_generated(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10),
                                   (uint32_t)strtoul(argv[4], NULL, 10), argc == 6 && !strcmp(argv[5], "--swarm"),
                                   &st);
        first = argc;
#else
        fprintf(stderr, "opt_preserve: built without the generator\n");
        return 2;
#endif
    }
    for (int i = first; i < argc; i++)
        problems += walk(argv[i], &st);
    printf("%d files (%d skipped: invalid), %d pipelines, %d runs, %d compared, %d differences\n", st.files,
           st.skipped, st.pipelines, st.runs, st.compared, problems);
    if (st.wrong_pass) {
        printf(problems ? "the wrong pass was caught\n" : "the wrong pass was NOT caught\n");
        return problems ? 0 : 1;
    }
    return problems ? 1 : 0;
}
