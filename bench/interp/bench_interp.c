/* bench_interp.c — interpreter throughput.
 *   loop:  a loop-heavy program (nested loops, a merge per iteration, loads and stores
 *          on an ALLOCA carried by DEPEND_SELECTORs); reports interpreted steps (gate
 *          evaluations + state transitions) per second, median of RUNS runs.
 *   small: a ~60-gate program with a short loop run as the fuzzer does (fresh Interp
 *          per program); reports programs per second, median of RUNS runs.
 * usage: bench_interp [RUNS]   (default 7) */
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char loop_src[] =
    "func @work(i64, i64) -> i64 {\n"
    "  %n = ARG i64 0\n  %m = ARG i64 1\n  %buf = ALLOCA 64\n"
    "  %zero = CONSTANT i64 0\n  %one = CONSTANT i64 1\n  %c3 = CONSTANT i64 3\n  %c7 = CONSTANT i64 7\n"
    "  %c8 = CONSTANT i64 8\n"
    "  %outer = LOOP_BEGIN [entry, %oback]\n"
    "  %i = VALUE_SELECTOR i64 [%outer] (%zero, %i1)\n"
    "  %acc = VALUE_SELECTOR i64 [%outer] (%zero, %acc3)\n"
    "  %mem = DEPEND_SELECTOR [%outer] {entry, %st}\n"
    "  %inner = LOOP_BEGIN [%outer, %iback]\n"
    "  %j = VALUE_SELECTOR i64 [%inner] (%zero, %j1)\n"
    "  %acc1 = VALUE_SELECTOR i64 [%inner] (%acc, %acc3)\n"
    "  %mem1 = DEPEND_SELECTOR [%inner] {%mem, %st}\n"
    "  %slot = AND i64 (%j, %c7)\n  %off = MUL i64 (%slot, %c8)\n  %addr = ADD i64 (%buf, %off)\n"
    "  %old = LOAD i64 {%mem1} (%addr)\n"
    "  %ij = XOR i64 (%i, %j)\n  %odd = AND i64 (%ij, %one)\n  %isodd = ICMP ne (%odd, %zero)\n"
    "  %br = IF_BRANCH [%inner] (%isodd)\n  %t = IF_TRUE [%br]\n  %f = IF_FALSE [%br]\n"
    "  %x3 = MUL i64 (%old, %c3)\n  %x31 = ADD i64 (%x3, %ij)\n  %half = LSHR i64 (%old, %one)\n"
    "  %mg = MERGE [%t, %f]\n  %nv = VALUE_SELECTOR i64 [%mg] (%x31, %half)\n"
    "  %st = STORE {%old} (%nv, %addr)\n"
    "  %acc3 = ADD i64 (%acc1, %nv)\n"
    "  %j1 = ADD i64 (%j, %one)\n  %jmore = ICMP ult (%j1, %m)\n"
    "  %jbr = IF_BRANCH [%mg] (%jmore)\n  %jt = IF_TRUE [%jbr]\n  %iback = LOOP_BACK [%jt]\n"
    "  %jf = IF_FALSE [%jbr]\n"
    "  %i1 = ADD i64 (%i, %one)\n  %imore = ICMP ult (%i1, %n)\n"
    "  %ibr = IF_BRANCH [%jf] (%imore)\n  %it = IF_TRUE [%ibr]\n  %oback = LOOP_BACK [%it]\n"
    "  %if = IF_FALSE [%ibr]\n"
    "  RETURN [%if] {%st} (%acc3)\n}\n";

static const char small_src[] =
    "func @sq(i64) -> i64 {\n  %x = ARG i64 0\n  %y = MUL i64 (%x, %x)\n  RETURN [entry] {entry} (%y)\n}\n"
    "func @f(i64, i64) -> i64 {\n"
    "  %a = ARG i64 0\n  %h = ARG i64 1\n  %zero = CONSTANT i64 0\n  %one = CONSTANT i64 1\n"
    "  %k5 = CONSTANT i64 5\n  %k8 = CONSTANT i64 8\n  %sq = SYMBOL @sq\n"
    "  %loop = LOOP_BEGIN [entry, %back]\n"
    "  %i = VALUE_SELECTOR i64 [%loop] (%zero, %i1)\n"
    "  %acc = VALUE_SELECTOR i64 [%loop] (%a, %acc2)\n"
    "  %mem = DEPEND_SELECTOR [%loop] {entry, %st}\n"
    "  %off = MUL i64 (%i, %k8)\n  %p = ADD i64 (%h, %off)\n"
    "  %old = LOAD i64 {%mem} (%p)\n"
    "  %c = CALL i64 {%old} (%sq, %i)\n"
    "  %acc1 = ADD i64 (%acc, %c)\n  %acc2 = XOR i64 (%acc1, %old)\n"
    "  %st = STORE {%c} (%acc2, %p)\n"
    "  %i1 = ADD i64 (%i, %one)\n  %more = ICMP ult (%i1, %k5)\n"
    "  %br = IF_BRANCH [%loop] (%more)\n  %t = IF_TRUE [%br]\n  %back = LOOP_BACK [%t]\n"
    "  %e = IF_FALSE [%br]\n"
    "  %d = SDIV i64 (%acc2, %k5)\n  %r = SREM i64 (%d, %k8)\n"
    "  %neg = ICMP slt (%r, %zero)\n  %b2 = IF_BRANCH [%e] (%neg)\n"
    "  %n1 = IF_TRUE [%b2]\n  %n2 = IF_FALSE [%b2]\n  %nr = SUB i64 (%zero, %r)\n"
    "  %m = MERGE [%n1, %n2]\n  %v = VALUE_SELECTOR i64 [%m] (%nr, %r)\n"
    "  RETURN [%m] {%st} (%v)\n}\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: robust to a busy machine */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static Module *parse(const char *src)
{
    Diag d;
    diag_init(&d, "<bench>", stderr);
    Module *m = parse_module("<bench>", src, strlen(src), &d);
    if (!m || verify_module(m, &d)) {
        fprintf(stderr, "bench program does not verify\n");
        exit(1);
    }
    return m;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1 || runs > 100)
        runs = 7;
    Outcome *o = malloc(sizeof *o);
    double rate[100];

    Module *m = parse(loop_src);
    Interp *in = interp_new(m, &(InterpOptions){1000000000, 0});
    uint64_t args[2] = {1000, 1000}, steps = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        interp_call(in, 0, args, o);
        double t = now() - t0;
        if (o->kind != OUT_RETURN) {
            char buf[300];
            outcome_format(buf, sizeof buf, o);
            fprintf(stderr, "loop program: %s\n", buf);
            return 1;
        }
        steps = o->steps;
        rate[r] = (double)o->steps / t;
    }
    qsort(rate, (size_t)runs, sizeof rate[0], cmp_double);
    printf("loop:  %.1f M steps/s (median of %d runs, %llu steps per run)\n", rate[runs / 2] / 1e6, runs,
           (unsigned long long)steps);
    interp_free(in);
    module_free(m);

    m = parse(small_src);
    const int per_run = 20000;
    uint64_t sargs[2] = {7, HEAP_ADDR};
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        for (int k = 0; k < per_run; k++) {
            sargs[0] = (uint64_t)k;
            interp_run(m, 1, sargs, NULL, o); /* fresh Interp per program, as the fuzzer */
        }
        rate[r] = per_run / (now() - t0);
    }
    qsort(rate, (size_t)runs, sizeof rate[0], cmp_double);
    printf("small: %.0f programs/s (median of %d runs, fresh interpreter per program, %llu steps each)\n",
           rate[runs / 2], runs, (unsigned long long)o->steps);
    module_free(m);
    free(o);
    return 0;
}
