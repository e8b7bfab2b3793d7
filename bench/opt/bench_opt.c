/* bench_opt.c — optimizer throughput: input gates per second through the -O2
 * pipeline, median over repetitions.  Inputs are generated programs (fuzz/gen.h) or
 * .circ files replicated.  See README.md for the command and recorded numbers.
 *
 *   bench_opt [--gen COUNT] [--size S] [--seed N] [--reps R] [FILE...] [--copies K] */
#include "compiler/opt/opt.h"
#ifdef OPT_HAVE_GEN
#include "fuzz/gen.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    Module **mods;
    uint32_t n, cap;
    uint64_t gates; /* live gates over all modules */
} Inputs;

static void add_module(Inputs *in, Module *m)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 64;
        in->mods = realloc(in->mods, in->cap * sizeof *in->mods);
    }
    in->mods[in->n++] = m;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        in->gates += circ_live_count(m->funcs[f]->circ);
}

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* one repetition: -O2 over fresh copies of every input; seconds spent in the passes
 * (wall clock; *cpu gets the process CPU time, which a loaded machine distorts less) */
static double one_rep(const Inputs *in, uint64_t *gates_after, double *cpu)
{
    Module **copies = malloc(in->n * sizeof *copies);
    for (uint32_t i = 0; i < in->n; i++)
        copies[i] = module_clone(in->mods[i]);
    PassManager *pm = pm_new(NULL);
    pm_set_level(pm, 2);
    double t0 = clock_of(CLOCK_MONOTONIC), c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    for (uint32_t i = 0; i < in->n; i++)
        pm_run(pm, copies[i]);
    double t = clock_of(CLOCK_MONOTONIC) - t0;
    *cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID) - c0;
    *gates_after = 0;
    for (uint32_t i = 0; i < in->n; i++) {
        for (uint32_t f = 0; f < copies[i]->nfuncs; f++)
            *gates_after += circ_live_count(copies[i]->funcs[f]->circ);
        module_free(copies[i]);
    }
    pm_free(pm);
    free(copies);
    return t;
}

int main(int argc, char **argv)
{
    uint32_t gen = 0, size = 500, reps = 5, copies = 1;
    uint64_t seed = 1;
    Inputs in = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gen") && i + 1 < argc)
            gen = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--copies") && i + 1 < argc)
            copies = (uint32_t)strtoul(argv[++i], NULL, 10);
        else {
            Diag d;
            diag_init(&d, argv[i], stderr);
            Module *m = parse_file(argv[i], &d);
            if (!m || verify_module(m, &d)) {
                fprintf(stderr, "bench_opt: skipping %s (invalid)\n", argv[i]);
                module_free(m);
                continue;
            }
            for (uint32_t k = 1; k < copies; k++)
                add_module(&in, module_clone(m));
            add_module(&in, m);
        }
    }
#ifdef OPT_HAVE_GEN
    if (gen) {
        GenOptions go = {.size = size};
        size_t len = gen_bytes_for_size(size);
        uint8_t *bytes = malloc(len);
        for (uint64_t s = seed; s < seed + gen; s++) {
            gen_seed_bytes(s, bytes, len);
            add_module(&in, generate(bytes, len, &go));
        }
        free(bytes);
    }
#else
    if (gen) {
        fprintf(stderr, "bench_opt: built without the generator\n");
        return 2;
    }
#endif
    if (!in.n || !reps) {
        fprintf(stderr, "usage: bench_opt [--gen COUNT] [--size S] [--seed N] [--reps R] [FILE...] [--copies K]\n");
        return 2;
    }
    double *rate = malloc(reps * sizeof *rate), *cpu_rate = malloc(reps * sizeof *cpu_rate);
    uint64_t after = 0;
    for (uint32_t r = 0; r < reps; r++) {
        double cpu, t = one_rep(&in, &after, &cpu);
        rate[r] = (double)in.gates / (t > 0 ? t : 1e-9);
        cpu_rate[r] = (double)in.gates / (cpu > 0 ? cpu : 1e-9);
        printf("rep %u: %.3f ms wall, %.3f ms cpu, %.0f gates/s wall, %.0f gates/s cpu\n", r + 1, t * 1e3,
               cpu * 1e3, rate[r], cpu_rate[r]);
    }
    qsort(rate, reps, sizeof *rate, cmp_double);
    qsort(cpu_rate, reps, sizeof *cpu_rate, cmp_double);
    printf("modules %u, input gates %llu, after -O2 %llu (%.1f%%)\n", in.n, (unsigned long long)in.gates,
           (unsigned long long)after, in.gates ? 100.0 * (double)after / (double)in.gates : 0.0);
    printf("median: %.0f gates/s (wall), %.0f gates/s (cpu) at -O2 over %u repetitions\n", rate[reps / 2],
           cpu_rate[reps / 2], reps);
    for (uint32_t i = 0; i < in.n; i++)
        module_free(in.mods[i]);
    free(in.mods);
    free(rate);
    free(cpu_rate);
    return 0;
}
