/* bench_compile.c — compile time per gate for x86-64 and ARM64 at -O0 and -O2 (median
 * over generated programs, CPU time) and emulated run time of the compiled code beside
 * the interpreter's (median per run line).
 * usage: bench_compile [--count N] [--size S]   (defaults 300 programs of size 200) */
#include "compiler/a64/backend.h"
#include "compiler/x64/backend.h"
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

static void measure(const Module *m, const Backend *be, int level, Emu *emu, Interp *in, Series *s, Outcome *o)
{
    Arena *arena = arena_new();
    CompileOptions opt = {.opt_level = level};
    Diag d;
    diag_init(&d, "<gen>", stderr);
    CodeBlob blob;
    double t0 = cpu_ns();
    bool ok = compile_module(m, be, &opt, arena, &blob, NULL, &d);
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

int main(int argc, char **argv)
{
    uint32_t count = 300, size = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--count"))
            count = (uint32_t)strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--size"))
            size = (uint32_t)strtoul(argv[i + 1], NULL, 0);
    }
    /* series k: target k / 2 (x86-64, arm64), level 0 or 2 */
    const Backend *backends[2] = {x64_backend(), a64_backend()};
    const char *names[2] = {"x86-64", "arm64"};
    Emu *emus[2] = {emu_new(ISA_X64), emu_new(ISA_A64)};
    Outcome *o = malloc(sizeof *o);
    Series s[4];
    for (int k = 0; k < 4; k++) {
        s[k] = (Series){0};
        s[k].per_gate = calloc(count + 1, sizeof(double));
        s[k].bytes_per_gate = calloc(count + 1, sizeof(double));
        s[k].run_emu = calloc(4 * (count + 1), sizeof(double));
        s[k].run_interp = calloc(4 * (count + 1), sizeof(double));
    }
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
        for (int k = 0; k < 4; k++)
            measure(m, backends[k / 2], k % 2 ? 2 : 0, emus[k / 2], in, &s[k], o);
        interp_free(in);
        module_free(m);
    }
    printf("%u programs of size %u (%.1f gates each on average)\n", count, size, gates_total / count);
    printf("%-7s %-4s %16s %14s %16s %18s %9s\n", "target", "", "compile ns/gate", "bytes/gate", "run us (emu)",
           "run us (interp)", "failures");
    for (int k = 0; k < 4; k++) {
        printf("%-7s -O%-2d %16.0f %14.1f %16.1f %18.1f %9llu\n", names[k / 2], k % 2 ? 2 : 0,
               median(s[k].per_gate, s[k].nprog), median(s[k].bytes_per_gate, s[k].nprog),
               median(s[k].run_emu, s[k].nruns), median(s[k].run_interp, s[k].nruns),
               (unsigned long long)s[k].failures);
        free(s[k].per_gate);
        free(s[k].bytes_per_gate);
        free(s[k].run_emu);
        free(s[k].run_interp);
    }
    free(bytes);
    free(o);
    emu_free(emus[0]);
    emu_free(emus[1]);
    return 0;
}
