/* reduce_swap.c — the reducer on generated miscompiles.  A deliberately wrong pass
 * (`swap-sub`: SUB x, y -> SUB y, x) is registered through the pass manager's plugin
 * hook; the interestingness is "some run line's outcome after the wrong pass differs
 * from the interpreter's on the unchanged module, and the first such difference has
 * the original's outcome kinds" (the signature).  Generated programs of the given size
 * that the wrong pass miscompiles are reduced; the test checks for each:
 *   - the reduction takes less than --max-seconds (default 30) and ends with at most
 *     --max-gates gates (default 10), still showing the same signature; the median
 *     final size is at most --median-gates (default 10);
 *   - the result is 1-minimal: removing any one gate (its value users take a constant
 *     0/1/-1 or another gate of its type, its dependency users its dependency input, a
 *     branch takes one side), then dead-gate cleanup, loses the mismatch or does not
 *     make the module smaller or valid (this removal is written here independently
 *     of the reducer's strategies);
 *   - the same case reduced with --jobs 2 gives the same text (determinism);
 *   - with a per-candidate timeout nothing can meet, the input is not interesting.
 * With --check the reducer uses the default interestingness instead (check_module
 * keeps the signature, the wrong pass installed through CheckOptions.extra_passes);
 * the checks above stay the same, and the campaign's hook (reduce_campaign_file)
 * must rewrite the first case's file with a smaller module keeping the signature.
 * Usage: reduce_swap [--cases N] [--size S] [--max-gates G] [--median-gates G] [--max-seconds T]
 *                    [--jobs-check K] [--check] [--print] [--verbose]
 * Prints one line per case and the median final size; exit 0 if every check holds. */
#include "fuzz/gen.h"
#include "fuzz/reduce.h"
#include "compiler/opt/opt.h"
#include "swap_sub_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint8_t want_kind[2]; /* the signature: oracle kind, kind after the wrong pass */
    uint64_t steps;
} SwapTest;


/* the first run line whose outcome the wrong pass changes: its kinds, false if none */
static bool first_difference(const Module *m, uint64_t steps, uint8_t kinds[2])
{
    Module *wrong = module_clone(m);
    PassManager *pm = pm_new(NULL);
    pass_register(pm, &swap_sub_info);
    char err[100];
    pm_set_passes(pm, "swap-sub", err, sizeof err);
    pm_run(pm, wrong);
    pm_free(pm);
    InterpOptions io = {.max_steps = steps};
    Outcome *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    bool found = false;
    for (uint32_t i = 0; i < m->nruns && !found; i++) {
        uint64_t args[64] = {0};
        if (m->runs[i].nargs > 64)
            continue;
        runline_args(&m->runs[i], args);
        interp_run(m, m->runs[i].func, args, &io, a);
        if (a->kind == OUT_INVALID || a->kind == OUT_TIMEOUT)
            continue;
        interp_run(wrong, m->runs[i].func, args, &io, b);
        if (!outcome_equal(a, b, NULL, 0)) {
            kinds[0] = a->kind;
            kinds[1] = b->kind;
            found = true;
        }
    }
    free(a);
    free(b);
    module_free(wrong);
    return found;
}

static bool swap_interesting(void *ctx, const Module *m)
{
    SwapTest *t = ctx;
    uint8_t k[2];
    return first_difference(m, t->steps, k) && k[0] == t->want_kind[0] && k[1] == t->want_kind[1];
}

/* ---- 1-minimality, checked independently of the reducer ------------------------ */
static bool still_smaller_and_interesting(Module *cand, uint32_t before, SwapTest *t, const char *cleanup)
{
    Diag d;
    FILE *null = fopen("/dev/null", "w");
    diag_init(&d, "<removal>", null);
    bool ok = verify_module(cand, &d) == 0;
    if (ok) {
        PassManager *pm = pm_new(NULL);
        char err[100];
        pm_set_passes(pm, cleanup, err, sizeof err);
        ok = pm_run(pm, cand) == 0 && verify_module(cand, &d) == 0;
        pm_free(pm);
    }
    fclose(null);
    if (!ok || reduce_gate_count(cand) >= before)
        return false;
    reduce_refresh_runs(cand, t->steps);
    return swap_interesting(t, cand);
}

static void move_value_uses(Circuit *c, GateId g, GateId repl)
{
    for (uint32_t k = c->gates[g].nuses; k-- > 0;) {
        Use u = c->gates[g].uses[k];
        const Gate *user = &c->gates[u.user];
        if (u.index >= (uint32_t)user->nstate + user->ndep)
            circ_set_input(c, u.user, u.index, repl);
    }
}

static void move_dep_uses(Circuit *c, GateId g, GateId repl)
{
    for (uint32_t k = c->gates[g].nuses; k-- > 0;) {
        Use u = c->gates[g].uses[k];
        const Gate *user = &c->gates[u.user];
        if (u.index >= user->nstate && u.index < (uint32_t)user->nstate + user->ndep)
            circ_set_input(c, u.user, u.index, repl);
    }
}

/* removal variants of gate g: 0..2 constants, 3.. other gates of its type, then the
 * dependency bypass, then a branch made constant; false when v is past the last */
static bool remove_variant(Module *m, uint32_t f, GateId g, uint32_t v, const char **cleanup)
{
    Circuit *c = m->funcs[f]->circ;
    const Gate *gt = &c->gates[g];
    *cleanup = "dce";
    uint32_t nothers = 0;
    for (GateId h = NUM_ROOTS; h < c->ngates; h++)
        nothers += h != g && !c->gates[h].dead && gt->type != TY_NONE && c->gates[h].type == gt->type &&
                   op_has(c->gates[h].op, F_VALUE);
    bool value = gt->type != TY_NONE && op_has(gt->op, F_VALUE);
    if (v < 3)
        return value ? (move_value_uses(c, g, circ_const(c, gt->type, reduce_small_const(gt->type, v))), true)
                     : true;
    v -= 3;
    if (v < nothers) {
        for (GateId h = NUM_ROOTS; h < c->ngates; h++)
            if (h != g && !c->gates[h].dead && c->gates[h].type == gt->type && op_has(c->gates[h].op, F_VALUE) &&
                v-- == 0) {
                move_value_uses(c, g, h);
                break;
            }
        return true;
    }
    v -= nothers;
    if (v < gt->ndep) {
        move_dep_uses(c, g, gate_dep(gt, v));
        return true;
    }
    v -= gt->ndep;
    if (gt->op == OP_IF_BRANCH && v < 2) {
        GateId cond = gate_data(gt, 0);
        circ_set_input(c, g, gt->nstate, circ_const(c, c->gates[cond].type, v == 0));
        *cleanup = "simplify-cfg,dce";
        return true;
    }
    return false;
}

/* number of one-gate removals that keep the mismatch (0 for a 1-minimal module) */
static int count_removable(const Module *m, SwapTest *t, bool print)
{
    int bad = 0;
    uint32_t before = reduce_gate_count(m);
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (GateId g = NUM_ROOTS; g < m->funcs[f]->circ->ngates; g++) {
            if (m->funcs[f]->circ->gates[g].dead)
                continue;
            for (uint32_t v = 0;; v++) {
                Module *cand = module_clone(m);
                const char *cleanup;
                bool more = remove_variant(cand, f, g, v, &cleanup);
                bool hit = more && still_smaller_and_interesting(cand, before, t, cleanup);
                if (hit) {
                    bad++;
                    if (print) {
                        printf("  removable gate %u (variant %u):\n", g, v);
                        print_module(stdout, cand);
                    }
                }
                module_free(cand);
                if (!more || hit)
                    break;
            }
        }
    return bad;
}

/* ---- driver --------------------------------------------------------------------- */
typedef struct {
    uint32_t cases, size, max_gates, median_gates, jobs_check;
    double max_seconds;
    bool print, verbose, check;
} Args;

static char *module_text(const Module *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    print_module(out, m);
    fclose(out);
    return buf;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* the most interpreter steps a run line of m takes */
static uint64_t max_steps(const Module *m)
{
    uint64_t most = 0;
    Outcome *o = malloc(sizeof *o);
    for (uint32_t i = 0; i < m->nruns; i++) {
        uint64_t args[64] = {0};
        if (m->runs[i].nargs > 64)
            continue;
        runline_args(&m->runs[i], args);
        interp_run(m, m->runs[i].func, args, NULL, o);
        most = o->steps > most ? o->steps : most;
    }
    free(o);
    return most;
}

/* the next generated module (from seed *seed on) that the wrong pass miscompiles */
static Module *next_case(const Args *a, uint64_t *seed, SwapTest *t)
{
    for (;; (*seed)++) {
        size_t n = gen_bytes_for_size(a->size);
        uint8_t *bytes = malloc(n);
        gen_seed_bytes(*seed, bytes, n);
        GenOptions go = {.size = a->size, .no_exceptions = true}; /* the 11-gate bound predates INVOKEs (exc_reduce) */
        Module *m = generate(bytes, n, &go);
        gen_add_runlines(m, bytes, n, 8, NULL, NULL);
        free(bytes);
        t->steps = 10000000;
        if (m->nruns && first_difference(m, t->steps, t->want_kind)) {
            (*seed)++;
            t->steps = 4 * max_steps(m) + 100000; /* a candidate that loops gives up early */
            return m;
        }
        module_free(m);
    }
}

/* the campaign's hook rewrites a saved finding with a smaller one, same signature */
static bool campaign_hook_reduces(const Module *m, const ReduceCheck *rc)
{
    char path[] = "/tmp/reduce-swap-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    close(fd);
    bool ok = reduce_write_file(path, m) && reduce_campaign_file(path, rc->signature, &rc->check, NULL);
    Diag d;
    diag_init(&d, path, stderr);
    Module *r = ok ? parse_file(path, &d) : NULL;
    ok = r && reduce_gate_count(r) < reduce_gate_count(m) && reduce_check_interesting((void *)rc, r);
    module_free(r);
    remove(path);
    return ok;
}

static const char *kind_name(int k)
{
    static const char *const names[] = {"return", "trap", "throw", "timeout", "invalid"};
    return k >= 0 && k < 5 ? names[k] : "?";
}

static bool run_case(const Args *a, uint32_t idx, uint64_t seed, Module *m, SwapTest *t, uint32_t *final,
                     double *secs)
{
    ReduceOptions ro = {.interesting = swap_interesting, .ctx = t, .progress = a->verbose ? stderr : NULL,
                        .interp_steps = t->steps};
    ReduceCheck rc;
    if (a->check) {
        /* the default interestingness: check_module keeps the signature, with the wrong
           pass installed through the check's plugin hook */
        check_options_default(&rc.check);
        rc.check.extra_passes = &swap_sub_info;
        rc.check.nextra_passes = 1;
        rc.check.targets = "pass-swap-sub";
        rc.check.interp.max_steps = t->steps;
        CheckResult *res = malloc(sizeof *res);
        bool found = !check_module(m, &rc.check, res);
        snprintf(rc.signature, sizeof rc.signature, "%s", found ? res->signature : "");
        free(res);
        if (!found) {
            printf("case %2u seed %llu: check_module finds no mismatch FAIL\n", idx, (unsigned long long)seed);
            return false;
        }
        ro.interesting = reduce_check_interesting;
        ro.ctx = &rc;
        if (idx == 0 && !campaign_hook_reduces(m, &rc)) {
            printf("case 0: reduce_campaign_file did not reduce the finding in place\n");
            return false;
        }
    }
    ReduceStats st;
    Module *r = reduce_module(m, &ro, &st);
    bool ok = st.input_interesting;
    uint8_t kinds[2];
    bool same = first_difference(r, t->steps, kinds) && kinds[0] == t->want_kind[0] && kinds[1] == t->want_kind[1];
    int removable = count_removable(r, t, a->print);
    bool deterministic = true;
    if (idx < a->jobs_check) {
        ReduceOptions par = ro;
        par.jobs = 2;
        Module *r2 = reduce_module(m, &par, NULL);
        char *x = module_text(r), *y = module_text(r2);
        deterministic = !strcmp(x, y);
        free(x);
        free(y);
        module_free(r2);
    }
    if (idx == 0) {
        /* a per-candidate timeout kills the worker: nothing passes a microsecond */
        ReduceOptions quick = ro;
        quick.timeout = 1e-6;
        ReduceStats qs;
        module_free(reduce_module(m, &quick, &qs));
        if (qs.input_interesting) {
            printf("case 0: a test past --timeout still counted as interesting\n");
            ok = false;
        }
    }
    *final = st.gates_after;
    *secs = st.seconds;
    bool pass = ok && same && !removable && deterministic && st.gates_after <= a->max_gates &&
                st.seconds < a->max_seconds;
    printf("case %2u seed %-4llu %s -> %s: %u -> %u gates, %llu candidates, %.2fs%s%s%s%s\n", idx,
           (unsigned long long)seed, kind_name(t->want_kind[0]), kind_name(t->want_kind[1]),
           st.gates_before, st.gates_after, (unsigned long long)st.tried, st.seconds, same ? "" : " SIGNATURE LOST",
           removable ? " NOT 1-MINIMAL" : "", deterministic ? "" : " JOBS CHANGE THE RESULT",
           pass ? "" : " FAIL");
    if (a->print || !pass)
        print_module(stdout, r);
    module_free(r);
    return pass;
}

static bool parse_args(int argc, char **argv, Args *a)
{
    *a = (Args){.cases = 20, .size = 200, .max_gates = 10, .median_gates = 10, .max_seconds = 30, .jobs_check = 2};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--print"))
            a->print = true;
        else if (!strcmp(argv[i], "--check"))
            a->check = true;
        else if (!strcmp(argv[i], "--verbose"))
            a->verbose = true;
        else if (v && !strcmp(argv[i], "--cases"))
            a->cases = (uint32_t)atoi(argv[++i]);
        else if (v && !strcmp(argv[i], "--size"))
            a->size = (uint32_t)atoi(argv[++i]);
        else if (v && !strcmp(argv[i], "--max-gates"))
            a->max_gates = (uint32_t)atoi(argv[++i]);
        else if (v && !strcmp(argv[i], "--median-gates"))
            a->median_gates = (uint32_t)atoi(argv[++i]);
        else if (v && !strcmp(argv[i], "--max-seconds"))
            a->max_seconds = atof(argv[++i]);
        else if (v && !strcmp(argv[i], "--jobs-check"))
            a->jobs_check = (uint32_t)atoi(argv[++i]);
        else
            return false;
    }
    return a->cases > 0;
}

int main(int argc, char **argv)
{
    Args a;
    if (!parse_args(argc, argv, &a)) {
        fprintf(stderr, "usage: reduce_swap [--cases N] [--size S] [--max-gates G] [--median-gates G] [--max-seconds T] "
                        "[--jobs-check K] [--check] [--print] [--verbose]\n");
        return 2;
    }
    uint32_t *sizes = calloc(a.cases, sizeof *sizes);
    double total = 0, worst = 0;
    int failures = 0;
    uint64_t seed = 1;
    for (uint32_t i = 0; i < a.cases; i++) {
        SwapTest t;
        uint64_t s = seed;
        Module *m = next_case(&a, &seed, &t);
        s = seed - 1;
        double secs = 0;
        failures += !run_case(&a, i, s, m, &t, &sizes[i], &secs);
        total += secs;
        worst = secs > worst ? secs : worst;
        module_free(m);
    }
    qsort(sizes, a.cases, sizeof *sizes, cmp_u32);
    printf("%u cases of size %u: median %u gates, largest %u; %.2fs in all, slowest %.2fs; %d failed\n", a.cases,
           a.size, sizes[a.cases / 2], sizes[a.cases - 1], total, worst, failures);
    bool median_ok = sizes[a.cases / 2] <= a.median_gates;
    if (!median_ok)
        printf("FAIL: the median is above %u gates\n", a.median_gates);
    free(sizes);
    return failures || !median_ok ? 1 : 0;
}
