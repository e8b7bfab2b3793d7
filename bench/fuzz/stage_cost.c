/* stage_cost.c — bench_fuzz --stage-cost: what each machine-code stage costs per
 * program.  The same programs are checked by a campaign of one worker (the code
 * path of `circ fuzz --jobs 1`) with the oracle alone (CheckOptions.no_stages) and
 * with one stage alone (CheckOptions.targets "x86-64-O2$": a whole stage name), and
 * a stage's cost is the difference in CPU time per program, children included (the
 * worker, the native stage's fork server and runner, qemu-aarch64: each is reaped
 * before its campaign returns).  A native stage alone compiles its own module; after
 * the Unicorn stage of its ISA it takes that stage's blob, and the difference between
 * the pair and the Unicorn stage alone is what it adds to a campaign.  qemu-aarch64
 * (a process per program) runs on every program of a smaller set, measured against
 * the oracle alone on that set. */
#include "bench/fuzz/stage_cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { QEMU_PROGRAMS_MAX = 200, ROUNDS_MAX = 15 };

typedef struct {
    const char *name;       /* what the row measures */
    const char *targets;    /* NULL: the oracle alone */
    int after;              /* the row whose cost to subtract beyond the oracle's (-1: none) */
    bool qemu;              /* every program, on the smaller set */
} CostRow;

enum { ROW_ORACLE, ROW_X64, ROW_X64_NATIVE, ROW_X64_PAIR, ROW_A64, ROW_A64_NATIVE, ROW_A64_PAIR,
       ROW_ORACLE_QEMU, ROW_QEMU, NROWS };

static const CostRow rows[NROWS] = {
    [ROW_ORACLE] = {"oracle alone (the base)", NULL, -1, false},
    [ROW_X64] = {"x86-64-O2 (Unicorn)", "x86-64-O2$", -1, false},
    [ROW_X64_NATIVE] = {"x86-64-O2-native alone (compiles)", "x86-64-O2-native", -1, false},
    [ROW_X64_PAIR] = {"x86-64-O2-native after x86-64-O2", "x86-64-O2$,x86-64-O2-native", ROW_X64, false},
    [ROW_A64] = {"arm64-O2 (Unicorn)", "arm64-O2$", -1, false},
    [ROW_A64_NATIVE] = {"arm64-O2-native alone (compiles)", "arm64-O2-native", -1, false},
    [ROW_A64_PAIR] = {"arm64-O2-native after arm64-O2", "arm64-O2$,arm64-O2-native", ROW_A64, false},
    [ROW_ORACLE_QEMU] = {"oracle alone, qemu's programs", NULL, -1, true},
    [ROW_QEMU] = {"arm64-O2-qemu (every program)", "arm64-O2-qemu", -1, true},
};

double bench_children_cpu(void)
{
    struct rusage r;
    getrusage(RUSAGE_CHILDREN, &r);
    return (double)r.ru_utime.tv_sec + r.ru_utime.tv_usec * 1e-6 + (double)r.ru_stime.tv_sec +
           r.ru_stime.tv_usec * 1e-6;
}

/* the campaign options of a row; false if its stages do not exist here */
static bool row_options(const CampaignOptions *base, const CostRow *row, CampaignOptions *o)
{
    *o = *base;
    o->check.targets = row->targets;
    o->check.no_stages = row->targets == NULL;
    o->check.no_native = false;
    o->check.qemu_every = 1;
    if (row->qemu && o->max_programs > QEMU_PROGRAMS_MAX)
        o->max_programs = QEMU_PROGRAMS_MAX;
    char err[1024];
    return check_options_validate(&o->check, err, sizeof err);
}

/* microseconds of CPU per program of one campaign; < 0 if it failed */
static double row_cost(const CampaignOptions *o)
{
    CampaignStats st;
    double cpu0 = bench_children_cpu();
    if (campaign_run(o, &st, NULL) != 0 || st.mismatches || !st.programs)
        return -1;
    return (bench_children_cpu() - cpu0) * 1e6 / (double)st.programs;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the cost of a row beyond the oracle's (or beyond the row it comes after) */
static double row_extra(const double *med, int i)
{
    int base = rows[i].qemu ? ROW_ORACLE_QEMU : ROW_ORACLE;
    return rows[i].after >= 0 ? med[i] - med[rows[i].after] : med[i] - med[base];
}

static void print_rows(const bool *here, const double *med, uint32_t rounds)
{
    for (int i = 0; i < NROWS; i++) {
        if (!here[i])
            printf("  %-40s not available here\n", rows[i].name);
        else if (i == ROW_ORACLE || i == ROW_ORACLE_QEMU)
            printf("  %-40s %8.0f us/program\n", rows[i].name, med[i]);
        else
            printf("  %-40s %8.0f us/program more%s\n", rows[i].name, row_extra(med, i),
                   rows[i].after >= 0 ? " than the Unicorn stage alone" : "");
    }
    for (int i = ROW_X64; i <= ROW_A64; i += ROW_A64 - ROW_X64)
        if (here[i] && here[i + 1] && here[i + 2])
            printf("native against Unicorn, %s: %.0f us (alone) and %.0f us (after it) against %.0f us per program "
                   "(%.2f and %.2f), median of %u rounds\n",
                   rows[i].targets, row_extra(med, i + 1), row_extra(med, i + 2), row_extra(med, i),
                   row_extra(med, i + 1) / row_extra(med, i), row_extra(med, i + 2) / row_extra(med, i), rounds);
}

int stage_cost_run(const CampaignOptions *base, uint32_t rounds)
{
    if (rounds == 0 || rounds > ROUNDS_MAX)
        rounds = rounds ? ROUNDS_MAX : 1;
    double cost[NROWS][ROUNDS_MAX];
    double med[NROWS] = {0};
    bool here[NROWS];
    CampaignOptions o[NROWS];
    for (int i = 0; i < NROWS; i++)
        here[i] = row_options(base, &rows[i], &o[i]);
    here[ROW_ORACLE_QEMU] = here[ROW_QEMU];
    for (uint32_t r = 0; r < rounds; r++) /* the rows in turn, so a drift hits each alike */
        for (int i = 0; i < NROWS; i++)
            if (here[i] && (cost[i][r] = row_cost(&o[i])) < 0) {
                fprintf(stderr, "stage cost: the campaign of %s failed or found a mismatch\n", rows[i].name);
                return 1;
            }
    for (int i = 0; i < NROWS; i++)
        med[i] = here[i] ? median(cost[i], rounds) : 0;
    printf("stage cost: size %u, %llu programs (qemu: %llu), CPU time per program with children\n", base->gen.size,
           (unsigned long long)o[ROW_ORACLE].max_programs, (unsigned long long)o[ROW_ORACLE_QEMU].max_programs);
    print_rows(here, med, rounds);
    return 0;
}
