/* bench_compile.c — compile time per gate for every target of the registry at -O0 and -O2 (median
 * over generated programs, CPU time) and emulated run time of the compiled code beside
 * the interpreter's (median per run line).  With --invoke: the generated programs that
 * have an INVOKE next to the same programs with every INVOKE a CALL, at -O2 on every
 * target (or with the passes --passes lists): code size, and the blocks, instructions
 * and CPU time of the run lines that throw nothing.
 * With --kernels FILE...: each file's code at -O2 in three variants, per target: without
 * ifconvert and with unbounded hoisting / with ifconvert / with ifconvert and the
 * scheduler's register budget (today's -O2): machine instructions and conditional
 * branches (Capstone), stack-slot operands after allocation (spill traffic: the
 * kernels have no ALLOCA), and the instructions and translated blocks the run lines
 * execute under Unicorn (bench/kernels/README.md).
 * --gp-regs N before --kernels allocates with at most N general registers.
 * usage: bench_compile [--count N] [--size S] [--invoke [--passes LIST]] [--gp-regs N]
 *                      [--kernels FILE...]
 *        (defaults 300 programs of size 200) */
#include "compiler/compile.h"
#include "compiler/opt/opt.h"
#include "compiler/target.h"
#include "fuzz/gen.h"
#include "fuzz/reduce.h"
#include "oracle/emu.h"
#include "oracle/interp.h"

#include <capstone/capstone.h>
#include <stddef.h>
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

static void measure(const Module *m, const Target *t, int level, CompileAllocator alloc, Emu *emu, Interp *in,
                    Series *s, Outcome *o)
{
    Arena *arena = arena_new();
    CompileOptions opt = {.opt_level = level, .allocator = level ? ALLOC_LINEAR_SCAN : alloc};
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

/* ---- --invoke: INVOKE next to CALL ------------------------------------------------ */
typedef struct {
    double bytes[2], blocks[2], insns[2], us[2]; /* totals: [0] with INVOKE, [1] with CALL */
    uint64_t programs, runs, failures;
} InvokeTotals;

/* per version ([0] INVOKE, [1] CALL): an engine timed, and one counting instructions;
 * the passes (NULL: -O2's) */
typedef struct { Emu *timed[2], *counted[2]; const char *passes; } InvokeEmus;

/* m's every INVOKE a CALL, the handlers gone (NULL if m has no INVOKE) */
static Module *as_calls(const Module *m)
{
    Module *b = reduce_invokes_as_calls(m);
    PassManager *pm = b ? pm_new(NULL) : NULL;
    char err[128];
    if (pm && (!pm_set_passes(pm, "dce", err, sizeof err) || pm_run(pm, b) != 0)) {
        module_free(b);
        b = NULL;
    }
    pm_free(pm);
    return b;
}

/* compile m at -O2 for t and load it into both engines: its code size, or -1 */
static double load_o2(const Module *m, const Target *t, Emu *timed, Emu *counted, const char *passes,
                      Arena *arena)
{
    CompileOptions opt = {.opt_level = 2, .passes = passes};
    Diag d;
    diag_init(&d, "<gen>", stderr);
    CodeBlob blob;
    if (!compile_module(m, t, &opt, arena, &blob, NULL, &d) || !emu_load(timed, &blob) ||
        !emu_load(counted, &blob))
        return -1;
    return blob.size;
}

/* the run lines of a on which no INVOKE caught anything, run in a and in b */
static void invoke_runs(const Module *a, const Module *b, const InvokeEmus *e, Interp *in, InvokeTotals *t)
{
    Outcome *o = malloc(sizeof *o);
    Emu *const *emus = e->timed;
    const Module *ms[2] = {a, b};
    for (uint32_t r = 0; r < a->nruns; r++) {
        uint64_t args[256] = {0};
        runline_args(&a->runs[r], args);
        interp_call(in, a->runs[r].func, args, o);
        if (o->caught)
            continue;
        for (int k = 0; k < 2; k++) {
            double t0 = cpu_ns();
            emu_call_func(emus[k], ms[k]->funcs[a->runs[r].func], args, 0, o);
            t->us[k] += (cpu_ns() - t0) / 1e3;
            t->blocks[k] += (double)o->steps;
            emu_call_func(e->counted[k], ms[k]->funcs[a->runs[r].func], args, 0, o);
            t->insns[k] += (double)emu_last_insns(e->counted[k]);
        }
        t->runs++;
    }
    free(o);
}

/* calls and INVOKEs in m */
static uint64_t count_calls(const Module *m)
{
    uint64_t n = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (GateId g = NUM_ROOTS; g < m->funcs[f]->circ->ngates; g++) {
            const Gate *gt = &m->funcs[f]->circ->gates[g];
            n += !gt->dead && (gt->op == OP_CALL || gt->op == OP_INVOKE);
        }
    return n;
}

/* programs whose CALL version still makes every call (a CALL nothing demands is
 * dropped, an INVOKE always runs: that would compare different work) */
static void invoke_program(const Module *a, const Target *t, const InvokeEmus *e, InvokeTotals *tot)
{
    Module *b = as_calls(a);
    if (!b)
        return;
    if (count_calls(b) != count_calls(a)) {
        module_free(b);
        return;
    }
    Arena *arena = arena_new();
    double sa = load_o2(a, t, e->timed[0], e->counted[0], e->passes, arena);
    double sb = sa < 0 ? -1 : load_o2(b, t, e->timed[1], e->counted[1], e->passes, arena);
    if (sa < 0 || sb < 0) {
        tot->failures++;
    } else {
        Interp *in = interp_new(a, NULL);
        tot->bytes[0] += sa;
        tot->bytes[1] += sb;
        tot->programs++;
        invoke_runs(a, b, e, in, tot);
        interp_free(in);
    }
    arena_free(arena);
    module_free(b);
}

static void invoke_report(const char *target, const InvokeTotals *t)
{
    printf("%-7s %9llu %6llu %12.0f %12.0f %14.0f %14.0f %13.0f %13.0f %11.0f %11.0f %9llu\n", target,
           (unsigned long long)t->programs, (unsigned long long)t->runs, t->bytes[0], t->bytes[1], t->blocks[0],
           t->blocks[1], t->insns[0], t->insns[1], t->us[0], t->us[1], (unsigned long long)t->failures);
}

static int bench_invoke(uint32_t count, uint32_t size, const char *passes)
{
    const Target *targets[TARGET_MAX];
    unsigned ntargets = target_list(targets, TARGET_MAX);
    GenOptions gopt = {.size = size};
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    printf("%-7s %9s %6s %12s %12s %14s %14s %13s %13s %11s %11s %9s\n", "target", "programs", "runs",
           "bytes INVOKE", "bytes CALL", "blocks INVOKE", "blocks CALL", "insns INVOKE", "insns CALL", "us INVOKE",
           "us CALL", "failures");
    for (unsigned k = 0; k < ntargets; k++) {
        InvokeEmus e = {.passes = passes};
        for (int v = 0; v < 2; v++) {
            e.timed[v] = emu_new(targets[k]->isa);
            e.counted[v] = emu_new(targets[k]->isa);
            if (!e.timed[v] || !e.counted[v] || !emu_set_count_insns(e.counted[v], true))
                return 1;
        }
        InvokeTotals tot = {0};
        for (uint32_t seed = 1; seed <= count; seed++) {
            gen_seed_bytes(seed, bytes, len);
            Module *m = generate(bytes, len, &gopt);
            gen_add_runlines(m, bytes, len, 3, NULL, NULL);
            invoke_program(m, targets[k], &e, &tot);
            module_free(m);
        }
        invoke_report(targets[k]->name, &tot);
        for (int v = 0; v < 2; v++) {
            emu_free(e.timed[v]);
            emu_free(e.counted[v]);
        }
    }
    free(bytes);
    return 0;
}

/* ---- --kernels: -O2 without ifconvert and pressure-aware hoisting, with ifconvert,
 * with both (the -O2 of today) --------------------------------------------------- */

typedef struct {
    uint64_t insns, branches, stack_refs, blocks, run_insns, bad_runs;
    bool ok;
} KernelFigures;

typedef struct {
    bool ifconvert;            /* the -O2 pipeline with ifconvert (else without) */
    bool pressure;             /* the scheduler's register budget (else unbounded hoisting) */
} KernelVariant;

enum { KERNEL_VARIANTS = 3 };
static const KernelVariant kernel_variants[KERNEL_VARIANTS] = {{false, false}, {true, false}, {true, true}};

/* m after the -O2 pipeline, or after the same pipeline without ifconvert */
static Module *o2_copy(const Module *m, bool ifconvert)
{
    Module *c = module_clone(m);
    PassManager *pm = pm_new(NULL);
    char err[200];
    if (ifconvert)
        pm_set_level(pm, 2);
    else if (pm_set_passes(pm, "fold,gvn,lse,inline,simplify-cfg,dce", err, sizeof err))
        pm_set_iterate(pm, true);
    pm_run(pm, c);
    pm_free(pm);
    return c;
}

static bool is_cond_branch(const char *mn, Isa isa)
{
    if (isa == ISA_X64)
        return mn[0] == 'j' && strcmp(mn, "jmp");
    return !strncmp(mn, "b.", 2) || !strcmp(mn, "cbz") || !strcmp(mn, "cbnz") || !strcmp(mn, "tbz") ||
           !strcmp(mn, "tbnz");
}

static void count_machine(const Target *t, const CodeBlob *blob, KernelFigures *k)
{
    csh cs;
    if (cs_open((cs_arch)t->disasm.cs_arch, (cs_mode)t->disasm.cs_mode, &cs) != CS_ERR_OK)
        return;
    cs_insn *insn;
    size_t n = cs_disasm(cs, blob->code, blob->size, 0, 0, &insn);
    k->insns = n;
    for (size_t i = 0; i < n; i++)
        k->branches += is_cond_branch(insn[i].mnemonic, t->isa);
    if (n)
        cs_free(insn, n);
    cs_close(&cs);
}

/* instructions of the allocated LIR that name a stack slot */
static uint64_t stack_refs(const char *lir)
{
    uint64_t n = 0;
    for (const char *p = lir; (p = strstr(p, "(stack")); p++)
        n++;
    return n;
}

static void kernel_runs(const Module *m, const Module *opt, Emu *emu, Interp *in, KernelFigures *k)
{
    Outcome *o = malloc(sizeof *o), *want = malloc(sizeof *want);
    for (uint32_t r = 0; r < m->nruns; r++) {
        uint64_t args[256] = {0};
        runline_args(&m->runs[r], args);
        interp_call(in, m->runs[r].func, args, want);
        emu_call_func(emu, opt->funcs[m->runs[r].func], args, 0, o);
        k->blocks += o->steps;
        k->run_insns += emu_last_insns(emu);
        k->bad_runs += !outcome_equal(want, o, NULL, 0);
    }
    free(o);
    free(want);
}

static KernelFigures kernel_measure(const Module *m, const Target *t, KernelVariant v, uint8_t gp_regs, Emu *emu,
                                    Interp *in)
{
    KernelFigures k = {0};
    Module *opt = o2_copy(m, v.ifconvert);
    Arena *arena = arena_new();
    char *lir = NULL;
    size_t lirlen = 0;
    FILE *dump = open_memstream(&lir, &lirlen);
    CompileOptions co = {.opt_level = 2, .prepared = true, .dump_alloc = dump, .unbounded_hoisting = !v.pressure};
    co.regalloc.max_regs[BANK_GP] = gp_regs;
    Diag d;
    diag_init(&d, "<kernel>", stderr);
    CodeBlob blob;
    k.ok = compile_module(opt, t, &co, arena, &blob, NULL, &d) && emu_load(emu, &blob);
    fclose(dump);
    if (k.ok) {
        count_machine(t, &blob, &k);
        k.stack_refs = stack_refs(lir);
        kernel_runs(m, opt, emu, in, &k);
    }
    free(lir);
    arena_free(arena);
    module_free(opt);
    return k;
}

/* one column: the variants' figures as "a / b / c" */
static void kernel_cell(const KernelFigures *k, size_t field)
{
    printf(" |");
    for (int v = 0; v < KERNEL_VARIANTS; v++)
        printf("%s%llu", v ? " / " : " ", (unsigned long long)*(const uint64_t *)((const char *)&k[v] + field));
}

static bool kernel_ok(const KernelFigures *k)
{
    bool ok = true;
    for (int v = 0; v < KERNEL_VARIANTS; v++)
        ok &= k[v].ok && !k[v].bad_runs;
    return ok;
}

static void kernel_row(const char *file, const Target *t, const KernelFigures *k)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    printf("| %s | %s", base, t->name);
    static const size_t fields[] = {offsetof(KernelFigures, insns), offsetof(KernelFigures, branches),
                                    offsetof(KernelFigures, stack_refs), offsetof(KernelFigures, run_insns),
                                    offsetof(KernelFigures, blocks)};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        kernel_cell(k, fields[i]);
    printf(" |%s\n", kernel_ok(k) ? "" : " FAILED");
}

/* gp_regs: allocate with at most that many general registers (0: all of them) */
static int bench_kernels(char **files, int nfiles, uint8_t gp_regs)
{
    const Target *targets[TARGET_MAX];
    unsigned ntargets = target_list(targets, TARGET_MAX);
    int status = 0;
    printf("| kernel | target | instructions | cond. branches | stack-slot operands | instructions run | blocks run |\n");
    printf("|---|---|---:|---:|---:|---:|---:|\n");
    for (int f = 0; f < nfiles; f++) {
        Diag d;
        diag_init(&d, files[f], stderr);
        Module *m = parse_file(files[f], &d);
        if (!m || verify_module(m, &d)) {
            status = 1;
            module_free(m);
            continue;
        }
        Interp *in = interp_new(m, NULL);
        for (unsigned t = 0; t < ntargets; t++) {
            Emu *emu = emu_new(targets[t]->isa);
            emu_set_count_insns(emu, true);
            KernelFigures k[KERNEL_VARIANTS];
            for (int v = 0; v < KERNEL_VARIANTS; v++)
                k[v] = kernel_measure(m, targets[t], kernel_variants[v], gp_regs, emu, in);
            kernel_row(files[f], targets[t], k);
            status |= !kernel_ok(k);
            emu_free(emu);
        }
        interp_free(in);
        module_free(m);
    }
    return status;
}

/* the compile that insns.sh counts (valgrind --toggle-collect=bench_counted_compile):
 * a whole compile_module, nothing else */
__attribute__((noinline)) bool bench_counted_compile(const Module *m, const Target *t, const CompileOptions *opt,
                                                     Arena *arena, CodeBlob *blob, Diag *d);
__attribute__((noinline)) bool bench_counted_compile(const Module *m, const Target *t, const CompileOptions *opt,
                                                     Arena *arena, CodeBlob *blob, Diag *d)
{
    return compile_module(m, t, opt, arena, blob, NULL, d);
}

/* --insns TARGET LEVEL [--local]: compile programs 1..count for one target at one
 * level (with the local allocator) and print the gates compiled (insns.sh divides
 * callgrind's count by them) */
static int bench_insns(uint32_t count, uint32_t size, const char *target, int level, CompileAllocator alloc)
{
    const Target *t = target_find(target);
    if (!t)
        return 2;
    GenOptions gopt = {.size = size};
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    uint64_t gates = 0, failures = 0;
    for (uint32_t seed = 1; seed <= count; seed++) {
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, &gopt);
        Arena *arena = arena_new();
        CompileOptions opt = {.opt_level = level, .allocator = alloc};
        Diag d;
        diag_init(&d, "<gen>", stderr);
        CodeBlob blob;
        gates += module_gates(m);
        failures += !bench_counted_compile(m, t, &opt, arena, &blob, &d);
        arena_free(arena);
        module_free(m);
    }
    free(bytes);
    printf("gates %llu failures %llu\n", (unsigned long long)gates, (unsigned long long)failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    uint32_t count = 300, size = 200;
    bool invoke = false;
    const char *passes = NULL, *insns_target = NULL;
    int insns_level = 0;
    CompileAllocator alloc = ALLOC_LINEAR_SCAN;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--invoke"))
            invoke = true;
        else if (!strcmp(argv[i], "--kernels"))
            return bench_kernels(argv + i + 1, argc - i - 1, 0);
        else if (i + 2 < argc && !strcmp(argv[i], "--gp-regs") && !strcmp(argv[i + 2], "--kernels"))
            return bench_kernels(argv + i + 3, argc - i - 3, (uint8_t)strtoul(argv[i + 1], NULL, 0));
        else if (i + 2 < argc && !strcmp(argv[i], "--insns"))
            insns_target = argv[++i], insns_level = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--local"))
            alloc = ALLOC_LOCAL;
        else if (i + 1 < argc && !strcmp(argv[i], "--passes"))
            passes = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--count"))
            count = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (i + 1 < argc && !strcmp(argv[i], "--size"))
            size = (uint32_t)strtoul(argv[++i], NULL, 0);
    }
    if (invoke)
        return bench_invoke(count, size, passes);
    if (insns_target)
        return bench_insns(count, size, insns_target, insns_level, alloc);
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
            measure(m, targets[k / 2], k % 2 ? 2 : 0, alloc, emus[k / 2], in, &s[k], o);
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
