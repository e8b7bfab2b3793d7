/* quality.c — bench/quality: the code quality of circ against gcc and clang on the
 * same programs.  For every module given and each ISA: circ -O2 and -O0 code, and
 * the C backend's output (circ compile --target c -O0) built by gcc -O2, clang -O2
 * and gcc -O0 (fuzz/check_c.c's build), each run under Unicorn on every run line
 * whose oracle outcome they all reproduce; the translated blocks executed (the
 * emulator's block count: a dynamic measure of executed code) summed per program.
 * Prints the per-program table and the geometric means of circ/gcc, circ/clang (-O2)
 * and circ -O0 / gcc -O0, per ISA.
 *   quality FILE... */
#include "compiler/c/cemit.h"
#include "compiler/target.h"
#include "fuzz/check.h"
#include "oracle/emu.h"
#include "oracle/interp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { COLS = 5 }; /* circ -O2, gcc -O2, clang -O2, circ -O0, gcc -O0 */
static const char *const col_names[COLS] = {"circ-O2", "gcc-O2", "clang-O2", "circ-O0", "gcc-O0"};

typedef struct {
    double log_sum[ISA_COUNT][3]; /* log of circ/gcc, circ/clang (-O2), circ/gcc (-O0) */
    unsigned n[ISA_COUNT];
} Totals;

/* circ's own code for isa at level into *emu */
static bool load_circ(const Module *m, Isa isa, int level, Emu **emu)
{
    Arena *arena = arena_new();
    Diag d;
    diag_init(&d, m->file, stderr);
    CodeBlob blob;
    CompileOptions co = {.opt_level = level};
    bool ok = compile_module(m, target_for_isa(isa), &co, arena, &blob, NULL, &d);
    if (ok && !*emu)
        *emu = emu_new(isa);
    ok = ok && *emu && emu_load(*emu, &blob);
    arena_free(arena);
    return ok;
}

/* the C built by cc at opt into *emu (dir holds m.c) */
static bool load_c(const Module *m, Isa isa, const char *dir, const char *cc, const char *opt, Emu **emu)
{
    char obj[128], err[256];
    if (*check_c_compile(dir, cc, isa, opt, obj, sizeof obj))
        return false;
    return check_c_load(m, isa, obj, emu, err, sizeof err);
}

static bool load_col(const Module *m, Isa isa, const char *dir, int col, Emu **emu)
{
    switch (col) {
    case 0: return load_circ(m, isa, 2, emu);
    case 1: return load_c(m, isa, dir, "gcc", "-O2", emu);
    case 2: return load_c(m, isa, dir, "clang", "-O2", emu);
    case 3: return load_circ(m, isa, 0, emu);
    default: return load_c(m, isa, dir, "gcc", "-O0", emu);
    }
}

/* blocks per column summed over the run lines every column got right; false if a
 * column could not be built or no run line counted */
static bool measure(const Module *m, Isa isa, const char *dir, const Outcome *want, uint64_t blocks[COLS])
{
    Emu *emu[COLS] = {0};
    bool ok = true;
    for (int c = 0; ok && c < COLS; c++)
        ok = load_col(m, isa, dir, c, &emu[c]);
    unsigned counted = 0;
    Outcome *got = malloc(sizeof *got);
    memset(blocks, 0, COLS * sizeof blocks[0]);
    for (uint32_t i = 0; ok && got && i < m->nruns; i++) {
        uint64_t args[FUNC_MAX_PARAMS] = {0}, b[COLS];
        runline_args(&m->runs[i], args);
        bool all = want[i].kind == OUT_RETURN || want[i].kind == OUT_THROW || want[i].kind == OUT_TRAP;
        for (int c = 0; all && c < COLS; c++) {
            emu_call_func(emu[c], m->funcs[m->runs[i].func], args, 0, got);
            all = outcome_equal(&want[i], got, NULL, 0);
            b[c] = got->steps;
        }
        for (int c = 0; all && c < COLS; c++)
            blocks[c] += b[c];
        counted += all;
    }
    free(got);
    for (int c = 0; c < COLS; c++)
        emu_free(emu[c]);
    return ok && counted;
}

static void one_file(const char *file, const char *dir, Totals *t)
{
    Diag d;
    diag_init(&d, file, stderr);
    Module *m = parse_file(file, &d);
    if (!m || verify_module(m, &d) || !m->nruns) {
        module_free(m);
        return;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/m.c", dir);
    FILE *f = fopen(path, "w");
    bool ok = f && c_compile_module(m, &(CompileOptions){.opt_level = 0}, &(CEmitOptions){0}, f, &d);
    if (f && fclose(f))
        ok = false;
    Outcome *want = calloc(m->nruns + 1, sizeof *want);
    for (uint32_t i = 0; ok && want && i < m->nruns; i++) {
        uint64_t args[FUNC_MAX_PARAMS] = {0};
        runline_args(&m->runs[i], args);
        interp_run(m, m->runs[i].func, args, NULL, &want[i]);
    }
    for (int isa = 0; ok && want && isa < ISA_COUNT; isa++) {
        uint64_t b[COLS];
        if (!measure(m, (Isa)isa, dir, want, b)) {
            printf("%-40s %-6s (not measured: a build failed or no run line agreed)\n", file, emu_isa_name((Isa)isa));
            continue;
        }
        printf("%-40s %-6s", file, emu_isa_name((Isa)isa));
        for (int c = 0; c < COLS; c++)
            printf(" %10llu", (unsigned long long)b[c]);
        printf("  %5.2f %5.2f %5.2f\n", (double)b[0] / b[1], (double)b[0] / b[2], (double)b[3] / b[4]);
        t->log_sum[isa][0] += log((double)b[0] / b[1]);
        t->log_sum[isa][1] += log((double)b[0] / b[2]);
        t->log_sum[isa][2] += log((double)b[3] / b[4]);
        t->n[isa]++;
    }
    free(want);
    module_free(m);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: quality FILE...\n");
        return 2;
    }
    char dir[] = "/tmp/circ_quality_XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    printf("%-40s %-6s", "program", "isa");
    for (int c = 0; c < COLS; c++)
        printf(" %10s", col_names[c]);
    printf("  c/gcc c/clg O0/O0\n");
    Totals t = {0};
    for (int i = 1; i < argc; i++)
        one_file(argv[i], dir, &t);
    for (int isa = 0; isa < ISA_COUNT; isa++)
        if (t.n[isa])
            printf("geomean %s over %u programs: circ-O2/gcc-O2 %.3f, circ-O2/clang-O2 %.3f, circ-O0/gcc-O0 %.3f\n",
                   emu_isa_name((Isa)isa), t.n[isa], exp(t.log_sum[isa][0] / t.n[isa]),
                   exp(t.log_sum[isa][1] / t.n[isa]), exp(t.log_sum[isa][2] / t.n[isa]));
    static const char *const files[] = {"m.c", "mO2.o", "mO0.o", "cc.log"};
    for (unsigned i = 0; i < 4; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
    return 0;
}
