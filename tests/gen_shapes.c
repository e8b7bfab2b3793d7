/* gen_shapes.c — at default settings the generator reaches what it aims at: over a
 * fixed set of seeds every boundary-constant class and every shape of gen.h's
 * GenShape (bit-test branches, compares with zero, narrowed stores, large offsets,
 * stack addresses passed to callees plain, offset, through selectors and from loop
 * counters, call and load dependencies joined before effects, small callees that
 * store / trap / throw, blocks of many live values with and without a call) appears
 * in at least the share of programs given below, and every module verifies and runs
 * valid.  usage: test_gen_shapes [SEEDS]   (default 1000) */
#include "fuzz/gen.h"

#include <stdlib.h>

/* the least share of programs (per mille) each shape must appear in; measured
 * shares at default settings are 2-3 times these or more, but for stack addresses
 * handed on with an offset (28) or in a loop (2), which exceptions, runtime calls and
 * the newer operations made rarer by sharing the statement budget */
static const unsigned shape_min_permille[GEN_SHAPE_COUNT] = {
    [GEN_SHAPE_BIT_TEST] = 40,       [GEN_SHAPE_CMP_ZERO] = 300,
    [GEN_SHAPE_NARROW_STORE] = 100,  [GEN_SHAPE_BIG_OFFSET] = 100,
    [GEN_SHAPE_STACK_ARG] = 50,      [GEN_SHAPE_STACK_ARG_OFF] = 20,
    [GEN_SHAPE_STACK_ARG_SEL] = 2,   [GEN_SHAPE_STACK_ARG_LOOP] = 1,
    [GEN_SHAPE_DEP_JOIN_CALL] = 60,  [GEN_SHAPE_DEP_JOIN_LOAD] = 150,
    [GEN_SHAPE_SMALL_STORE] = 200,   [GEN_SHAPE_SMALL_TRAP] = 80,
    [GEN_SHAPE_SMALL_THROW] = 25,    [GEN_SHAPE_INVOKE_LEAF] = 150,
    [GEN_SHAPE_PRESSURE] = 15,
    [GEN_SHAPE_PRESSURE_CALL] = 1,
};

static const unsigned const_min_permille[GEN_CONST_COUNT] = {
    [GEN_CONST_IMM12] = 150, [GEN_CONST_IMM16] = 100, [GEN_CONST_IMM8] = 250,
    [GEN_CONST_INT32] = 15,  [GEN_CONST_INT64] = 100, [GEN_CONST_BIT] = 300,
    [GEN_CONST_LOGICAL] = 40,
};

static int check(const char *what, const char *name, uint64_t programs, uint64_t n, unsigned min)
{
    bool ok = n * 1000 >= (uint64_t)min * programs;
    printf("%-8s %-20s %5.1f%% of programs (at least %.1f%%)%s\n", what, name,
           100.0 * (double)n / (double)programs, min / 10.0, ok ? "" : "  <- too rare");
    return !ok;
}

int main(int argc, char **argv)
{
    uint64_t seeds = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
    GenStats s;
    gen_stats_init(&s);
    Outcome outs[3];
    for (uint64_t seed = 0; seed < seeds; seed++) {
        size_t len = gen_bytes_for_size(100);
        uint8_t *bytes = malloc(len);
        if (!bytes)
            abort();
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, NULL);
        gen_stats_add(&s, m);
        uint32_t n = gen_add_runlines(m, bytes, len, 3, NULL, outs);
        for (uint32_t r = 0; r < n; r++)
            gen_stats_outcome(&s, &outs[r]);
        module_free(m);
        free(bytes);
    }
    int bad = 0;
    for (int k = 0; k < GEN_SHAPE_COUNT; k++)
        bad += check("shape", gen_shape_name((GenShape)k), s.programs, s.shape_programs[k], shape_min_permille[k]);
    for (int k = 0; k < GEN_CONST_COUNT; k++)
        bad += check("constant", gen_const_class_name((GenConstClass)k), s.programs, s.const_programs[k],
                     const_min_permille[k]);
    if (s.verify_failures || s.outcomes[OUT_INVALID] || s.outcomes[OUT_TIMEOUT]) {
        fprintf(stderr, "gen_shapes: %llu verify failures, %llu invalid runs, %llu timeouts\n",
                (unsigned long long)s.verify_failures, (unsigned long long)s.outcomes[OUT_INVALID],
                (unsigned long long)s.outcomes[OUT_TIMEOUT]);
        bad++;
    }
    printf("gen_shapes: %llu programs, %d failures\n", (unsigned long long)s.programs, bad);
    gen_stats_free(&s);
    return bad ? 1 : 0;
}
