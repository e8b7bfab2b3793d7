/* gen_seeds.c — generated programs are valid and meaningful: over a fixed set of seeds
 * (default size, size 500, swarm mode) every module verifies, every run through the
 * interpreter ends in return, trap or throw (never invalid; no timeout), the printed
 * file parses back and its run lines pass, and together the programs contain every
 * opcode with every type it accepts, every condition code and merge widths 2..6, with
 * a median of at least one loop and one memory effect per program (default size);
 * and a checksum of the decoded modules of fixed seeds is the same in every build.
 * usage: test_gen_seeds [SEEDS]   (default 300) */
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    long modules, runs, lines, failures;
} Totals;

static int fail(Totals *t, uint64_t seed, const char *what, const Module *m)
{
    fprintf(stderr, "gen_seeds: seed %llu: %s\n", (unsigned long long)seed, what);
    if (m && t->failures < 2)
        print_module(stderr, m);
    t->failures++;
    return 1;
}

/* print, parse back, and run every run line of the parsed module */
static void check_runlines(Totals *t, uint64_t seed, const Module *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    print_module(f, m);
    fclose(f);
    Diag d;
    diag_init(&d, "<printed>", stderr);
    Module *back = parse_module("<printed>", text, len, &d);
    if (!back || verify_module(back, &d)) {
        fail(t, seed, "printed module does not parse back or verify", m);
        module_free(back);
        free(text);
        return;
    }
    Interp *in = interp_new(back, NULL);
    Outcome *o = malloc(sizeof *o);
    for (uint32_t i = 0; i < back->nruns; i++) {
        const RunLine *r = &back->runs[i];
        uint64_t *args = calloc(r->nargs + 1, sizeof *args); /* extremes: up to 255 */
        runline_args(r, args);
        interp_call(in, r->func, args, o);
        free(args);
        t->lines++;
        if (!outcome_matches(o, &r->expect))
            fail(t, seed, "a run line of the printed file fails", back);
    }
    free(o);
    interp_free(in);
    module_free(back);
    free(text);
}

static void one_seed(Totals *t, GenStats *st, uint64_t seed, const GenOptions *opt)
{
    size_t len = gen_bytes_for_size(opt->size);
    uint8_t *bytes = malloc(len);
    gen_seed_bytes(seed, bytes, len);
    Module *m = generate(bytes, len, opt);
    uint64_t before = st->verify_failures;
    gen_stats_add(st, m);
    if (st->verify_failures != before)
        fail(t, seed, "module does not verify", m);
    Outcome outs[3];
    uint32_t n = gen_add_runlines(m, bytes, len, 3, NULL, outs);
    for (uint32_t i = 0; i < n; i++) {
        gen_stats_outcome(st, &outs[i]);
        t->runs++;
        if (outs[i].kind == OUT_INVALID || outs[i].kind == OUT_TIMEOUT) {
            char buf[300];
            outcome_format(buf, sizeof buf, &outs[i]);
            fail(t, seed, buf, m);
        }
    }
    check_runlines(t, seed, m);
    t->modules++;
    module_free(m);
    free(bytes);
}

/* FNV-1a over the structure of a module (signatures, gates, wires): what the decoder
 * produced, independent of the printer */
static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
    return h;
}

static uint64_t module_hash(uint64_t h, const Module *m)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Func *fn = m->funcs[f];
        h = fnv(h, fn->ret);
        for (uint32_t p = 0; p < fn->nparams; p++)
            h = fnv(h, fn->params[p]);
        const Circuit *c = fn->circ;
        for (GateId i = NUM_ROOTS; i < c->ngates; i++) {
            const Gate *g = &c->gates[i];
            h = fnv(h, (uint64_t)g->op | (uint64_t)g->type << 16 | (uint64_t)g->cond << 24);
            h = fnv(h, g->lit);
            for (uint32_t k = 0; k < gate_nin(g); k++)
                h = fnv(h, g->in[k]);
        }
    }
    return h;
}

/* The same bytes give the same module in every build (gcc or clang, optimized or
 * sanitized): a checksum over fixed seeds.  When the decoding changes on purpose,
 * put the new value printed on failure here. */
#define GOLDEN_HASH 0x3900572036ce609full

static bool golden(void)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t seed = 0; seed < 40; seed++) {
        GenOptions o = {.size = 150, .swarm = seed & 1};
        size_t len = gen_bytes_for_size(o.size);
        uint8_t *bytes = malloc(len);
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, &o);
        h = module_hash(h, m);
        module_free(m);
        free(bytes);
    }
    if (h != GOLDEN_HASH)
        fprintf(stderr, "gen_seeds: decoding checksum 0x%016llx, expected 0x%016llx\n",
                (unsigned long long)h, (unsigned long long)GOLDEN_HASH);
    return h == GOLDEN_HASH;
}

int main(int argc, char **argv)
{
    long seeds = argc > 1 ? atol(argv[1]) : 300;
    Totals t = {0};
    GenStats def, all;
    gen_stats_init(&def);
    gen_stats_init(&all);
    GenOptions o = {0};
    for (long s = 0; s < seeds; s++)
        one_seed(&t, &def, (uint64_t)s, &o);
    o.size = 500;
    for (long s = 0; s < seeds / 10; s++)
        one_seed(&t, &all, 1000000 + (uint64_t)s, &o);
    o.size = 100;
    o.swarm = true;
    for (long s = 0; s < seeds / 3; s++)
        one_seed(&t, &all, 2000000 + (uint64_t)s, &o);

    int missing = gen_stats_missing(&def, stderr);
    if (missing)
        fprintf(stderr, "gen_seeds: %d opcode/type/condition combinations never generated\n", missing);
    uint64_t loops = gen_stats_median(def.loops, def.programs);
    uint64_t effects = gen_stats_median(def.effects, def.programs);
    if (loops < 1 || effects < 1)
        fprintf(stderr, "gen_seeds: median loops %llu, memory effects %llu per program (want >= 1)\n",
                (unsigned long long)loops, (unsigned long long)effects);
    uint64_t traps = def.outcomes[OUT_TRAP];
    if (traps * 10 >= def.runs)
        fprintf(stderr, "gen_seeds: %llu of %llu runs trap (want under 10%%)\n",
                (unsigned long long)traps, (unsigned long long)def.runs);
    printf("gen_seeds: %ld modules, %ld runs, %ld run lines rechecked, %ld failures, "
           "%d missing, median loops %llu, memory effects %llu, traps %llu\n",
           t.modules, t.runs, t.lines, t.failures, missing, (unsigned long long)loops,
           (unsigned long long)effects, (unsigned long long)traps);
    bool ok = !t.failures && !missing && loops >= 1 && effects >= 1 && traps * 10 < def.runs;
    ok &= golden();
    gen_stats_free(&def);
    gen_stats_free(&all);
    return ok ? 0 : 1;
}
