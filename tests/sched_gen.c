/* sched_gen.c — differential test of the scheduler on generated programs: for each
 * seed, generate a module (fuzz/gen), schedule it with global code motion and with
 * the naive schedule, and check that the interpreter of the scheduled form gives the
 * graph interpreter's outcome on every generated run, also after the -O2 pipeline of
 * the middle end (other circuit shapes); then rewire a few inputs of a
 * copy at random and schedule that too (refused or scheduled, never a crash).
 * usage: sched_gen [FIRST_SEED [COUNT [SIZE [traps]]]]  (defaults 1 300 120; `traps`
 * weights the generator towards trapping divisions, stores, calls and exits, where the
 * order of traps and effects is easiest to get wrong) */
#include "compiler/opt/opt.h"
#include "fuzz/gen.h"
#include "oracle/interp_cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS = 4 };

/* refusals: valid mutants the scheduler refuses cleanly ("cannot schedule %x without
 * speculation": an effect the program demands once but in places that reach each
 * other); NULL for generated programs, which must always schedule */
static int check_module(const Module *m, uint64_t seed, bool naive, unsigned *compared, unsigned *refusals)
{
    Diag d;
    diag_init(&d, m->file, stderr);
    SchedOptions so = {.no_motion = naive};
    if (refusals) {
        FILE *sink = fopen("/dev/null", "w");
        Diag quiet;
        diag_init(&quiet, m->file, sink);
        bool ok = true;
        for (uint32_t i = 0; i < m->nfuncs && ok; i++) {
            Schedule *s = schedule_func(m->funcs[i], &so, &quiet);
            ok = s != NULL;
            schedule_free(s);
        }
        fclose(sink);
        if (!ok) {
            (*refusals)++;
            return 0;
        }
    }
    CfgInterp *ci = cfg_interp_new(m, NULL, &so, &d);
    if (!ci) {
        fprintf(stderr, "seed %llu: cannot schedule%s\n", (unsigned long long)seed, naive ? " (naive)" : "");
        print_module(stderr, m);
        return 1;
    }
    Interp *gi = interp_new(m, NULL);
    int bad = 0;
    Outcome *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    for (uint32_t r = 0; r < m->nruns && !bad; r++) {
        uint64_t args[64] = {0};
        if (m->runs[r].nargs > 64)
            continue;
        runline_args(&m->runs[r], args);
        interp_call(gi, m->runs[r].func, args, a);
        cfg_interp_call(ci, m->runs[r].func, args, b);
        char why[300];
        if (!outcome_equal(a, b, why, sizeof why)) {
            char fa[256], fb[256];
            outcome_format(fa, sizeof fa, a);
            outcome_format(fb, sizeof fb, b);
            fprintf(stderr, "seed %llu%s: graph %s, scheduled %s (%s)\n", (unsigned long long)seed,
                    naive ? " (naive)" : "", fa, fb, why);
            print_module(stderr, m);
            bad = 1;
        }
        (*compared)++;
    }
    free(a);
    free(b);
    interp_free(gi);
    cfg_interp_free(ci);
    return bad;
}

/* rewire a few inputs at random (a malformed or differently shaped circuit): the
 * scheduler must refuse or schedule it without crashing; when the result still
 * verifies, both interpreters must agree on it too */
static int check_mutant(const Module *orig, uint64_t seed, unsigned *compared, unsigned *mutants_valid,
                        unsigned *refusals)
{
    Module *m = module_clone(orig);
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (int k = 0; k < 3; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        Func *f = m->funcs[x % m->nfuncs];
        Circuit *c = f->circ;
        GateId g = NUM_ROOTS + (GateId)((x >> 8) % (c->ngates - NUM_ROOTS + 1));
        if (g >= c->ngates || !gate_nin(&c->gates[g]))
            continue;
        uint32_t idx = (uint32_t)((x >> 24) % gate_nin(&c->gates[g]));
        circ_set_input(c, g, idx, (GateId)((x >> 40) % c->ngates));
    }
    FILE *sink = fopen("/dev/null", "w");
    Diag d;
    diag_init(&d, "mutant", sink);
    int bad = 0;
    if (verify_module(m, &d) == 0) {
        (*mutants_valid)++;
        bad = check_module(m, seed, false, compared, refusals);
    } else
        for (uint32_t i = 0; i < m->nfuncs; i++)
            schedule_free(schedule_func(m->funcs[i], NULL, &d));
    fclose(sink);
    module_free(m);
    return bad;
}

/* the same after the middle end's -O2 pipeline (graph and scheduled form of the
 * optimized module must agree; whether optimizing kept the meaning is opt's test) */
static int check_optimized(const Module *orig, uint64_t seed, PassManager *pm, unsigned *compared)
{
    Module *m = module_clone(orig);
    FILE *sink = fopen("/dev/null", "w");
    Diag d;
    diag_init(&d, "optimized", sink);
    int bad = 0;
    if (pm_run(pm, m) == 0 && verify_module(m, &d) == 0)
        bad = check_module(m, seed, false, compared, NULL);
    fclose(sink);
    module_free(m);
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t first = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    uint64_t count = argc > 2 ? strtoull(argv[2], NULL, 0) : 300;
    uint32_t size = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 120;
    GenOptions go = {.size = size, .swarm = true};
    if (argc > 4 && !strcmp(argv[4], "traps")) {
        go.has_weights = true;
        gen_default_weights(go.weight);
        go.weight[GF_DIV0] = 12;
        go.weight[GF_DIV] = 10;
        go.weight[GF_STORE] = 14;
        go.weight[GF_CALL] = 10;
        go.weight[GF_EXIT] = 6;
    }
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    unsigned failures = 0, compared = 0, mutants_valid = 0, refusals = 0;
    FILE *optlog = fopen("/dev/null", "w");
    PassOptions po = {.bisect_limit = -1, .log = optlog};
    PassManager *pm = pm_new(&po);
    pm_set_level(pm, 2);
    for (uint64_t seed = first; seed < first + count; seed++) {
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, &go);
        gen_add_runlines(m, bytes, len, RUNS, NULL, NULL);
        failures += check_module(m, seed, false, &compared, NULL);
        failures += check_module(m, seed, true, &compared, NULL);
        failures += check_optimized(m, seed, pm, &compared);
        failures += check_mutant(m, seed, &compared, &mutants_valid, &refusals);
        module_free(m);
    }
    free(bytes);
    pm_free(pm);
    fclose(optlog);
    printf("%llu programs (+%u valid mutants, %u refused), %u runs compared, %u failures\n",
           (unsigned long long)count, mutants_valid, refusals, compared, failures);
    return failures ? 1 : 0;
}
