/* gen_locality.c — small byte changes give small program changes: flipping one bit of
 * a generator input keeps most of the program.  For each of N seeds one bit among the
 * first 1200 bytes is flipped; among the flips that change the module, the share of
 * gates (compared as a multiset of opcode, type, condition, literal and function) that
 * survive must be at least 0.7 in the worst decile and 0.95 in the median (statement
 * records and per-function byte regions; reading one stream would give about 0.4
 * and 0.9).
 * usage: test_gen_locality [N]   (default 1000) */
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* one sorted key per gate */
static uint64_t *gate_keys(const Module *m, size_t *n)
{
    size_t total = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        total += m->funcs[f]->circ->ngates;
    uint64_t *k = malloc((total + 1) * sizeof *k);
    *n = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId i = NUM_ROOTS; i < c->ngates; i++) {
            const Gate *g = &c->gates[i];
            uint64_t h = ((uint64_t)g->op << 56) ^ ((uint64_t)g->type << 48) ^ ((uint64_t)g->cond << 40);
            h ^= (g->lit * 0x9e3779b97f4a7c15ull) >> 16;
            k[(*n)++] = h ^ f;
        }
    }
    qsort(k, *n, sizeof *k, cmp_u64);
    return k;
}

/* common gates / gates of the larger module */
static double similarity(const Module *a, const Module *b)
{
    size_t na, nb, i = 0, j = 0, common = 0;
    uint64_t *ka = gate_keys(a, &na), *kb = gate_keys(b, &nb);
    while (i < na && j < nb) {
        if (ka[i] == kb[j])
            common++, i++, j++;
        else if (ka[i] < kb[j])
            i++;
        else
            j++;
    }
    free(ka);
    free(kb);
    size_t most = na > nb ? na : nb;
    return most ? (double)common / (double)most : 1.0;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double *sims = malloc((size_t)(n > 0 ? n : 1) * sizeof *sims);
    long changed = 0;
    uint64_t x = 2024;
    enum { LEN = 1500, SPAN = 1200 };
    uint8_t *bytes = malloc(LEN);
    GenOptions o = {0};
    for (long s = 0; s < n; s++) {
        gen_seed_bytes((uint64_t)s, bytes, LEN);
        Module *a = generate(bytes, LEN, &o);
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        bytes[(x >> 33) % SPAN] ^= (uint8_t)(1u << ((x >> 20) & 7));
        Module *b = generate(bytes, LEN, &o);
        double sim = similarity(a, b);
        if (sim < 1.0)
            sims[changed++] = sim;
        module_free(a);
        module_free(b);
    }
    free(bytes);
    qsort(sims, (size_t)changed, sizeof *sims, cmp_double);
    double p10 = changed ? sims[changed / 10] : 1.0, median = changed ? sims[changed / 2] : 1.0;
    printf("gen_locality: %ld flips, %ld changed the module; kept gates: worst decile %.2f, median %.2f\n",
           n, changed, p10, median);
    free(sims);
    return p10 >= 0.7 && median >= 0.95 ? 0 : 1;
}
