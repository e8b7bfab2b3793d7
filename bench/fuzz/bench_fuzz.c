/* bench_fuzz.c — differential-check throughput: a campaign of one worker (the same
 * code path as `circ fuzz --jobs 1`) over a fixed number of generated programs of a
 * given size, and where the time goes (generate, run lines, and the check's phases:
 * oracle, optimize, interp, schedule, compile, emulate).
 *
 *   bench_fuzz SIZE PROGRAMS [SEED [--plain] [--no-native] [--no-c] [--no-pressure] [--no-local]
 *              [--pressure-every N] [--stage-cost [ROUNDS]]]
 *
 * --plain: the generator without exceptions, dependency joins and runtime calls
 * (GenOptions.no_exceptions, no_joins_runtime), for an A/B of their cost;
 * --no-native: without the stages on the host's CPU and under qemu;
 * --no-c: without the C stages (their one program in 2048 costs about 0.2 s);
 * --no-pressure, --no-local: without the register-pressure or local-allocator stages;
 * --pressure-every N: each ISA's pressure stage on one program in N (circ fuzz's flag);
 * --stage-cost: instead, the CPU cost per program of each machine-code stage
 * (stage_cost.c), ROUNDS times in turn (default 1), medians.
 *
 * Prints programs/s and execs/s per core in wall-clock time of the worker (run it on
 * an otherwise idle core) and its CPU time.  An exec is one call of a program in
 * one stage, the oracle included. */
#include "bench/fuzz/stage_cost.h"
#include "fuzz/campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    CampaignOptions o;
    campaign_options_default(&o);
    o.gen.size = argc > 1 ? (uint32_t)atoi(argv[1]) : 100;
    o.max_programs = argc > 2 ? strtoull(argv[2], NULL, 0) : 2000;
    o.seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
    int stage_rounds = 0;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "--plain")) /* the generator without exceptions, joins, runtime calls */
            o.gen.no_exceptions = o.gen.no_joins_runtime = true;
        else if (!strcmp(argv[i], "--no-native")) /* no stage on the host's CPU or under qemu */
            o.check.no_native = true;
        else if (!strcmp(argv[i], "--no-c")) /* no C stage (one program in 1024 costs seconds) */
            o.check.no_c = true;
        else if (!strcmp(argv[i], "--no-pressure")) /* no register-pressure stage (TARGET-O2-regs) */
            o.check.no_pressure = true;
        else if (!strcmp(argv[i], "--no-local")) /* no local-allocator stage (TARGET-O0-local) */
            o.check.no_local = true;
        else if (!strcmp(argv[i], "--pressure-every") && i + 1 < argc) /* as circ fuzz */
            o.check.pressure_every = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stage-cost")) /* each machine-code stage's cost per program */
            stage_rounds = i + 1 < argc && argv[i + 1][0] != '-' ? atoi(argv[++i]) : 1;
    }
    o.jobs = 1;
    o.seconds = 0;
    o.status_mode = STATUS_NONE;
    if (o.gen.size == 0 || o.max_programs == 0) {
        fprintf(stderr, "usage: bench_fuzz SIZE PROGRAMS [SEED [--plain] [--no-native] [--no-c] [--no-pressure] [--no-local]\n"
                        "                 [--pressure-every N] [--stage-cost [ROUNDS]]]\n");
        return 2;
    }
    if (stage_rounds)
        return stage_cost_run(&o, (uint32_t)stage_rounds);
    CampaignStats st;
    double cpu0 = bench_children_cpu(), t0 = wall_now();
    if (campaign_run(&o, &st, NULL) != 0)
        return 1;
    double wall = wall_now() - t0, cpu = bench_children_cpu() - cpu0;
    printf("size %u, %llu programs, %llu mismatches\n", o.gen.size, (unsigned long long)st.programs,
           (unsigned long long)st.mismatches);
    printf("one core: %.0f programs/s, %.0f execs/s (wall); %.0f programs/s, %.0f execs/s (CPU)\n",
           (double)st.programs / wall, (double)st.execs / wall, (double)st.programs / cpu,
           (double)st.execs / cpu);
    double work = st.worker_seconds[0] + st.worker_seconds[1] + st.worker_seconds[2];
    double check = 0;
    for (int k = 0; k < PHASE_COUNT; k++)
        check += st.check_phases[k];
    printf("time: generate %.1f%%, run lines %.1f%%", 100 * st.worker_seconds[0] / work,
           100 * st.worker_seconds[1] / work);
    for (int k = 0; k < PHASE_COUNT && check > 0; k++) /* the check's share split by phase */
        printf(", %s %.1f%%", check_phase_names[k], 100 * st.worker_seconds[2] / work * st.check_phases[k] / check);
    printf("\n");
    return st.mismatches != 0;
}
