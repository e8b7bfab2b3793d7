/* bench_fuzz.c — differential-check throughput: programs and execs per CPU second
 * (one core) for generated programs of a given size, and where the time goes:
 * generate (the generator), oracle (run lines: the interpreter), interp stages (each
 * pass alone, -O1, -O2, scheduled forms), compile (compile_module for x86-64 and
 * ARM64 at -O0 and -O2) and emulate (loading and running the code under Unicorn).
 * An exec is one call of a program in one stage, the oracle included, as in
 * `circ fuzz`.  Usage: bench_fuzz [SIZE [PROGRAMS [SEED]]] (defaults 100, 300, 1). */
#include "compiler/a64/backend.h"
#include "compiler/x64/backend.h"
#include "fuzz/campaign.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { T_GEN, T_ORACLE, T_INTERP, T_COMPILE, T_MACHINE, T_COUNT };

/* compile the module for both ISAs at -O0 and -O2 (what the machine stages do first) */
static void compile_all(const Module *m)
{
    const Backend *backends[2] = {x64_backend(), a64_backend()};
    for (int b = 0; b < 2; b++)
        for (int level = 0; level <= 2; level += 2) {
            Arena *a = arena_new();
            Diag d;
            diag_init(&d, m->file, NULL);
            CompileOptions co = {.opt_level = level};
            CodeBlob blob;
            compile_module(m, backends[b], &co, a, &blob, NULL, &d);
            arena_free(a);
        }
}

int main(int argc, char **argv)
{
    uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 100;
    uint64_t programs = argc > 2 ? strtoull(argv[2], NULL, 0) : 300;
    CampaignOptions o;
    campaign_options_default(&o);
    o.gen.size = size;
    o.seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
    CheckOptions interp_only = o.check, machine_only = o.check, all = o.check;
    interp_only.targets = "pass,O,sched";
    machine_only.targets = "x86-64,arm64";
    CheckEngines *engines = check_engines_new();
    machine_only.engines = all.engines = engines;
    CheckResult *res = malloc(sizeof *res);
    double t[T_COUNT] = {0}, all_time = 0;
    uint64_t execs = 0, mismatches = 0;
    for (uint64_t k = 0; k < programs; k++) {
        size_t len = gen_bytes_for_size(size);
        uint8_t *b = malloc(len);
        gen_seed_bytes(campaign_program_seed(o.seed, 0, k), b, len);
        double t0 = cpu_now();
        Module *m = generate(b, len, &o.gen);
        double t1 = cpu_now();
        uint32_t made = gen_add_runlines(m, b, len, 3, NULL, NULL);
        double t2 = cpu_now();
        check_module(m, &interp_only, res);
        double t3 = cpu_now();
        compile_all(m);
        double t4 = cpu_now();
        check_module(m, &machine_only, res);
        double t5 = cpu_now();
        mismatches += !check_module(m, &all, res);
        double t6 = cpu_now();
        execs += res->execs + made;
        t[T_GEN] += t1 - t0;
        t[T_ORACLE] += t2 - t1;
        t[T_INTERP] += t3 - t2;
        t[T_COMPILE] += t4 - t3;
        t[T_MACHINE] += t5 - t4;
        all_time += (t1 - t0) + (t2 - t1) + (t6 - t5);
        module_free(m);
        free(b);
    }
    /* the machine stages' time less their compiles is emulation (load + run) */
    double emulate = t[T_MACHINE] - t[T_COMPILE];
    double parts = t[T_GEN] + t[T_ORACLE] + t[T_INTERP] + t[T_COMPILE] + (emulate > 0 ? emulate : 0);
    printf("size %u, %llu programs, %llu mismatches\n", size, (unsigned long long)programs,
           (unsigned long long)mismatches);
    printf("one core: %.0f programs/s, %.0f execs/s (CPU time of generate + run lines + full check)\n",
           (double)programs / all_time, (double)execs / all_time);
    printf("time: generate %.1f%%, oracle (run lines) %.1f%%, interpreting stages %.1f%%, "
           "compile %.1f%%, emulate %.1f%%\n",
           100 * t[T_GEN] / parts, 100 * t[T_ORACLE] / parts, 100 * t[T_INTERP] / parts,
           100 * t[T_COMPILE] / parts, 100 * (emulate > 0 ? emulate : 0) / parts);
    free(res);
    check_engines_free(engines);
    return 0;
}
