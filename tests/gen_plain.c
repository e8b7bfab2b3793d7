/* gen_plain.c — GenOptions.no_exceptions and no_joins_runtime (bench_fuzz --plain)
 * switch off what they name: over a fixed set of seeds no program has an INVOKE, a
 * THROW-catching chain, a DEPEND_AND or a runtime call, while the default options
 * give each of them in some program, and programs with them are at most 10% larger
 * (in gates) than programs without.  usage: test_gen_plain [SEEDS]   (default 300) */
#include "fuzz/gen.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct { uint64_t invoke, join, runtime, gates, funcs; } Count;

static void count(const Module *m, Count *k)
{
    k->runtime += m->nexterns > 0;
    bool inv = false, join = false;
    k->funcs += m->nfuncs;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (GateId g = NUM_ROOTS; g < m->funcs[f]->circ->ngates; g++) {
            const Gate *gt = &m->funcs[f]->circ->gates[g];
            k->gates += !gt->dead;
            inv |= !gt->dead && gt->op == OP_INVOKE;
            join |= !gt->dead && gt->op == OP_DEPEND_AND;
        }
    k->invoke += inv;
    k->join += join;
}

static Count run(uint32_t seeds, bool plain)
{
    GenOptions opt = {.size = 100, .no_exceptions = plain, .no_joins_runtime = plain};
    size_t len = gen_bytes_for_size(opt.size);
    uint8_t *bytes = malloc(len);
    Count k = {0};
    for (uint32_t s = 1; s <= seeds && bytes; s++) {
        gen_seed_bytes(s, bytes, len);
        Module *m = generate(bytes, len, &opt);
        count(m, &k);
        module_free(m);
    }
    free(bytes);
    return k;
}

int main(int argc, char **argv)
{
    uint32_t seeds = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 300;
    Count on = run(seeds, false), off = run(seeds, true);
    printf("default: INVOKE in %llu, DEPEND_AND in %llu, runtime in %llu of %u programs\n",
           (unsigned long long)on.invoke, (unsigned long long)on.join, (unsigned long long)on.runtime, seeds);
    printf("plain:   INVOKE in %llu, DEPEND_AND in %llu, runtime in %llu\n", (unsigned long long)off.invoke,
           (unsigned long long)off.join, (unsigned long long)off.runtime);
    printf("gates per program: default %.1f, plain %.1f; functions: default %.2f, plain %.2f\n",
           (double)on.gates / seeds, (double)off.gates / seeds, (double)on.funcs / seeds, (double)off.funcs / seeds);
    /* the features take their gates out of the size: at most 10% more than without */
    bool sized = on.gates * 10 <= off.gates * 11;
    bool ok = on.invoke && on.join && on.runtime && !off.invoke && !off.join && !off.runtime && sized;
    puts(ok ? "plain generator ok" : "FAIL");
    return ok ? 0 : 1;
}
