/* bench_gen.c — generator throughput: programs per second and gates per second at
 * given sizes, for generate() alone and for generate() plus three interpreted run
 * lines (what `circ gen` and the fuzzer do per program), by wall clock and by CPU
 * time (the machine may be shared).  Each measurement is repeated; the medians are
 * reported.
 * usage: bench_gen [--count N] [--reps R] [SIZE...]   (default 2000 programs, 5 reps, 50 500) */
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_secs(clockid_t id)
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

/* one pass over count seeds; returns wall seconds and CPU seconds in *cpu, adds the
 * gates made to *gates */
static double one_pass(uint32_t size, long count, bool runs, uint64_t *gates, double *cpu)
{
    GenOptions o = {.size = size};
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    double t0 = clock_secs(CLOCK_MONOTONIC), c0 = clock_secs(CLOCK_PROCESS_CPUTIME_ID);
    for (long s = 0; s < count; s++) {
        gen_seed_bytes((uint64_t)s, bytes, len);
        Module *m = generate(bytes, len, &o);
        for (uint32_t f = 0; f < m->nfuncs; f++)
            *gates += circ_live_count(m->funcs[f]->circ);
        if (runs)
            gen_add_runlines(m, bytes, len, 3, NULL, NULL);
        module_free(m);
    }
    double t = clock_secs(CLOCK_MONOTONIC) - t0;
    *cpu = clock_secs(CLOCK_PROCESS_CPUTIME_ID) - c0;
    free(bytes);
    return t;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static void measure(uint32_t size, long count, int reps, bool runs)
{
    double *wall = calloc((size_t)reps, sizeof *wall), *cpu = calloc((size_t)reps, sizeof *cpu);
    uint64_t gates = 0;
    for (int r = 0; r < reps; r++) {
        gates = 0;
        wall[r] = one_pass(size, count, runs, &gates, &cpu[r]);
    }
    double w = median(wall, reps), c = median(cpu, reps);
    printf("size %4u %-16s wall: %8.0f programs/s %10.0f gates/s   cpu: %8.0f programs/s %10.0f gates/s"
           "  (%ld programs, %.1f gates each, median of %d)\n",
           size, runs ? "generate+3 runs" : "generate", (double)count / w, (double)gates / w,
           (double)count / c, (double)gates / c, count, (double)gates / (double)count, reps);
    free(wall);
    free(cpu);
}

int main(int argc, char **argv)
{
    long count = 2000;
    int reps = 5;
    uint32_t sizes[16];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count") && i + 1 < argc)
            count = atol(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (nsizes < 16 && atoi(argv[i]) > 0)
            sizes[nsizes++] = (uint32_t)atoi(argv[i]);
        else {
            fprintf(stderr, "usage: bench_gen [--count N] [--reps R] [SIZE...]\n");
            return 2;
        }
    }
    if (!nsizes) {
        sizes[nsizes++] = 50;
        sizes[nsizes++] = 500;
    }
    if (count < 1 || reps < 1)
        return 2;
    for (int i = 0; i < nsizes; i++) {
        measure(sizes[i], count, reps, false);
        measure(sizes[i], count, reps, true);
    }
    return 0;
}
