/* bench_compile.c — compile time per gate for every target of the registry at -O0 and -O2 (median
 * over generated programs, CPU time) and emulated run time of the compiled code beside
 * the interpreter's (median per run line).
 * usage: bench_compile [--count N] [--size S]   (defaults 300 programs of size 200) */
#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/gen.h"
#include "oracle/emu.h"
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t module_gates(const Module *m)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        n += circ_live_count(m->funcs[i]->circ);
    return n;
}

typedef struct {
    double *per_gate, *run_emu, *run_interp, *bytes_per_gate;
    size_t nprog, nruns;
    uint64_t failures;
} Series;

static void measure(const Module *m, const Target *t, int level, Emu *emu, Interp *in, Series *s, Outcome *o)
{
    Arena *arena = arena_new();
    CompileOptions opt = {.opt_level = level};
    Diag d;
    diag_init(&d, "<gen>", stderr);
    CodeBlob blob;
    double t0 = cpu_ns();
    bool ok = compile_module(m, t, &opt, arena, &blob, NULL, &d);
    double t1 = cpu_ns();
    uint64_t gates = module_gates(m);
    if (!ok || !emu_load(emu, &blob)) {
        s->failures++;
        arena_free(arena);
        return;
    }
    s->per_gate[s->nprog] = (t1 - t0) / (double)(gates ? gates : 1);
    s->bytes_per_gate[s->nprog++] = (double)blob.size / (double)(gates ? gates : 1);
    for (uint32_t r = 0; r < m->nruns; r++) {
        uint64_t args[256] = {0};
        runline_args(&m->runs[r], args);
        double a = cpu_ns();
        emu_call_func(emu, m->funcs[m->runs[r].func], args, 0, o);
        double b = cpu_ns();
        interp_call(in, m->runs[r].func, args, o);
        double c = cpu_ns();
        s->run_emu[s->nruns] = (b - a) / 1e3;
        s->run_interp[s->nruns++] = (c - b) / 1e3;
    }
    arena_free(arena);
}

static void series_alloc(Series *s, uint32_t count)
{
    *s = (Series){0};
    s->per_gate = calloc(count + 1, sizeof(double));
    s->bytes_per_gate = calloc(count + 1, sizeof(double));
    s->run_emu = calloc(4 * (count + 1), sizeof(double));
    s->run_interp = calloc(4 * (count + 1), sizeof(double));
}

static void series_report(const Series *s, const char *target, int level)
{
    printf("%-7s -O%-2d %16.0f %14.1f %16.1f %18.1f %9llu\n", target, level, median(s->per_gate, s->nprog),
           median(s->bytes_per_gate, s->nprog), median(s->run_emu, s->nruns), median(s->run_interp, s->nruns),
           (unsigned long long)s->failures);
    free(s->per_gate);
    free(s->bytes_per_gate);
    free(s->run_emu);
    free(s->run_interp);
}

int main(int argc, char **argv)
{
    uint32_t count = 300, size = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--count"))
            count = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--size"))
            size = (uint32_t)strtoul(argv[i + 1], NULL, 0);
    }
    /* series k: target k / 2 of the registry, level 0 or 2 */
    const Target *targets[TARGET_MAX];
    unsigned ntargets = target_list(targets, TARGET_MAX), nseries = 2 * ntargets;
    Emu *emus[TARGET_MAX];
    Series s[2 * TARGET_MAX];
    for (unsigned t = 0; t < ntargets; t++)
        emus[t] = emu_new(targets[t]->isa);
    for (unsigned k = 0; k < nseries; k++)
        series_alloc(&s[k], count);
    Outcome *o = malloc(sizeof *o);
    GenOptions gopt = {.size = size};
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    double gates_total = 0;
    for (uint32_t seed = 1; seed <= count; seed++) {
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, &gopt);
        gen_add_runlines(m, bytes, len, 3, NULL, NULL);
        gates_total += (double)module_gates(m);
        Interp *in = interp_new(m, NULL);
        for (unsigned k = 0; k < nseries; k++)
            measure(m, targets[k / 2], k % 2 ? 2 : 0, emus[k / 2], in, &s[k], o);
        interp_free(in);
        module_free(m);
    }
    printf("%u programs of size %u (%.1f gates each on average)\n", count, size, gates_total / count);
    printf("%-7s %-4s %16s %14s %16s %18s %9s\n", "target", "", "compile ns/gate", "bytes/gate", "run us (emu)",
           "run us (interp)", "failures");
    for (unsigned k = 0; k < nseries; k++)
        series_report(&s[k], targets[k / 2]->name, k % 2 ? 2 : 0);
    for (unsigned t = 0; t < ntargets; t++)
        emu_free(emus[t]);
    free(bytes);
    free(o);
    return 0;
}
