/* cmd_run.c — `circ run` (interpret one call, print its outcome) and `circ test` (run
 * every `; run:` line of some files on a target and report failures).
 *
 * An executor turns (module, function, arguments) into an Outcome: open (per module
 * and -O level: optimize, compile...), run (one call), close.  The interpreters are
 * rows of a table; every target of the registry (compiler/target.h) is one more,
 * its code run under Unicorn.  -O1/-O2 run the middle end's pipeline on a copy of
 * the module first. */
#include "driver.h"
#include "compiler/opt/opt.h"
#include "oracle/interp.h"
#include "oracle/interp_cfg.h"
#include "compiler/compile.h"
#include "compiler/target.h"
#include "oracle/emu.h"
#include "oracle/mem.h"

#include <stdlib.h>
#include <string.h>

/* ---- executors ----------------------------------------------------------------- */
typedef struct {
    const char *name;
    const char *summary;
    /* NULL on failure (reported on stderr); machine: the compiler target, if any */
    void *(*open)(const Module *m, int opt_level, const Target *machine);
    void (*run)(void *ctx, uint32_t func, const uint64_t *args, Outcome *out);
    void (*close)(void *ctx);
    const Target *machine;
} Executor;

/* what every target starts from: the module as written (-O0) or optimized by the
 * middle end's -O1/-O2 pipeline (a copy; the run lines stay with the original) */
typedef struct {
    Module *optimized; /* NULL at -O0 */
    const Module *m;
    void *engine;
} TargetCtx;

static TargetCtx *prepare(const Module *m, int opt_level)
{
    TargetCtx *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->m = m;
    if (opt_level == 0)
        return t;
    t->optimized = module_clone(m);
    PassOptions po = {.verify_each = true, .bisect_limit = -1};
    PassManager *pm = pm_new(&po);
    pm_set_level(pm, opt_level);
    int errors = pm_run(pm, t->optimized);
    pm_free(pm);
    if (errors) {
        fprintf(stderr, "%s: the -O%d pipeline produced an invalid module\n", m->file, opt_level);
        module_free(t->optimized);
        free(t);
        return NULL;
    }
    t->m = t->optimized;
    return t;
}

static void release(TargetCtx *t)
{
    module_free(t->optimized);
    free(t);
}

static void *interp_open(const Module *m, int opt_level, const Target *machine)
{
    (void)machine;
    TargetCtx *t = prepare(m, opt_level);
    if (t)
        t->engine = interp_new(t->m, NULL);
    return t;
}

static void interp_target_run(void *ctx, uint32_t func, const uint64_t *args, Outcome *out)
{
    interp_call(((TargetCtx *)ctx)->engine, func, args, out);
}

static void interp_close(void *ctx)
{
    interp_free(((TargetCtx *)ctx)->engine);
    release(ctx);
}

static void *sched_open(const Module *m, int opt_level, const Target *machine)
{
    (void)machine;
    TargetCtx *t = prepare(m, opt_level);
    if (!t)
        return NULL;
    Diag d;
    diag_init(&d, m->file, stderr);
    if (!(t->engine = cfg_interp_new(t->m, NULL, NULL, &d))) {
        release(t);
        return NULL;
    }
    return t;
}

static void sched_target_run(void *ctx, uint32_t func, const uint64_t *args, Outcome *out)
{
    cfg_interp_call(((TargetCtx *)ctx)->engine, func, args, out);
}

static void sched_close(void *ctx)
{
    cfg_interp_free(((TargetCtx *)ctx)->engine);
    release(ctx);
}

/* compiled code under Unicorn: the module through the whole pipeline at -O0
 * (naive schedule) or the -O level (compiler/compile.h) */
typedef struct { const Module *m; Emu *emu; } EmuCtx;

static void *compiled_open(const Module *m, int opt_level, const Target *machine)
{
    EmuCtx *t = calloc(1, sizeof *t);
    Arena *arena = arena_new();
    Diag d;
    diag_init(&d, m->file, stderr);
    CodeBlob blob;
    CompileOptions opt = {.opt_level = opt_level};
    bool ok = t && compile_module(m, machine, &opt, arena, &blob, NULL, &d) &&
              (t->emu = emu_new_cpu(machine->isa, machine->cpu)) && emu_load(t->emu, &blob);
    if (t && t->emu && !ok)
        fprintf(stderr, "%s: %s\n", m->file, emu_error(t->emu));
    arena_free(arena);
    if (!ok) {
        if (t)
            emu_free(t->emu);
        free(t);
        return NULL;
    }
    t->m = m;
    return t;
}

static void compiled_run(void *ctx, uint32_t func, const uint64_t *args, Outcome *out)
{
    EmuCtx *t = ctx;
    emu_call_func(t->emu, t->m->funcs[func], args, 0, out);
}

static void compiled_close(void *ctx)
{
    emu_free(((EmuCtx *)ctx)->emu);
    free(ctx);
}

static const Executor interpreters[] = {
    {"interp", "the reference interpreter on the circuit", interp_open, interp_target_run, interp_close, NULL},
    {"sched", "the interpreter of the scheduled form (global code motion)", sched_open, sched_target_run,
     sched_close, NULL},
};
enum { NINTERPRETERS = sizeof interpreters / sizeof interpreters[0] };

/* the executor named name into *e: an interpreter or a target of the registry */
static bool find_executor(const char *name, Executor *e)
{
    for (size_t i = 0; i < NINTERPRETERS; i++)
        if (!strcmp(interpreters[i].name, name)) {
            *e = interpreters[i];
            return true;
        }
    const Target *t = target_find(name);
    if (t)
        *e = (Executor){t->name, "code from the compile pipeline, run under Unicorn", compiled_open,
                        compiled_run, compiled_close, t};
    return t != NULL;
}

static void list_executors(FILE *out)
{
    for (size_t i = 0; i < NINTERPRETERS; i++)
        fprintf(out, "  %-8s %s\n", interpreters[i].name, interpreters[i].summary);
    for (unsigned i = 0; i < target_count(); i++)
        fprintf(out, "  %-8s %s code from the compile pipeline, run under Unicorn\n", target_at(i)->name,
                target_at(i)->name);
}

/* ---- formatting -------------------------------------------------------------- */
static void format_args(char *buf, size_t n, const Module *m, const RunLine *r)
{
    const Func *f = m->funcs[r->func];
    size_t k = (size_t)snprintf(buf, n, "@%s(", f->name);
    for (uint32_t i = 0; i < r->nargs && k < n; i++) {
        char v[64];
        if (r->args[i].kind == RA_HEAP)
            snprintf(v, sizeof v, "heap");
        else if (r->args[i].kind == RA_FUNC && r->args[i].bits < m->nfuncs)
            snprintf(v, sizeof v, "@%s", m->funcs[r->args[i].bits]->name);
        else
            lit_format(v, sizeof v, f->params[i], r->args[i].bits);
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", v);
    }
    if (k < n)
        snprintf(buf + k, n - k, ")");
}

static void format_expect(char *buf, size_t n, const Func *f, const RunExpect *e)
{
    char v[64];
    switch (e->kind) {
    case EX_VALUE: lit_format(v, sizeof v, f->ret, e->bits); snprintf(buf, n, "return %s", v); break;
    case EX_NAN: snprintf(buf, n, "return nan"); break;
    case EX_VOID: snprintf(buf, n, "return void"); break;
    case EX_TRAP: snprintf(buf, n, "trap"); break;
    case EX_TRAP_DIV0: snprintf(buf, n, "trap div0"); break;
    case EX_TRAP_OVERFLOW: snprintf(buf, n, "trap overflow"); break;
    default:
        if (e->is_float)
            lit_format(v, sizeof v, TY_F64, e->bits);
        else
            snprintf(v, sizeof v, "%lld", (long long)e->bits);
        snprintf(buf, n, "throw %s", v);
        break;
    }
}

static void print_heap_changes(const Outcome *o)
{
    uint8_t before[HEAP_SIZE];
    heap_fill_pattern(before);
    for (uint32_t i = 0; i < HEAP_SIZE; i++)
        if (before[i] != o->heap[i])
            printf("heap+0x%03x: %02x -> %02x\n", i, before[i], o->heap[i]);
}

/* ---- circ run ---------------------------------------------------------------- */
static const char run_usage[] =
    "usage: circ run FILE @FUNC ARG... [--heap] [--steps N] [--target T [--cpu LEVEL]]\n"
    "Verify FILE, interpret one call of @FUNC with the given arguments and print the\n"
    "outcome: `return V`, `trap KIND`, `throw V`, `timeout` or `invalid: REASON`.\n"
    "With --target T ({TARGETS}) the call runs the code compiled for T (-O0) under\n"
    "Unicorn instead, on the emulated CPU model of --cpu LEVEL (default baseline).\n"
    "Arguments are run-line literals (integers, floats, `heap` for the harness buffer,\n"
    "`@name` for the address of a function of FILE).\n"
    "  --heap     also list the harness buffer bytes the call changed (offset: old -> new)\n"
    "  --steps N  step budget (gate evaluations and state transitions; default 10000000)\n"
    "Exit 0 for return/trap/throw, 1 for invalid or timeout, 2 for usage or I/O errors.\n";

static bool parse_arg(const Module *m, const char *s, Type t, uint64_t *bits)
{
    size_t n = strlen(s);
    if (!strcmp(s, "heap")) {
        *bits = HEAP_ADDR;
        return t == TY_ARCH;
    }
    if (*s == '@') { /* a function's address: what a run line's @name passes */
        const Func *f = module_find(m, s + 1, n - 1);
        *bits = f ? RUNARG_FUNC_ADDR(f->index) : 0;
        return f && t == TY_ARCH;
    }
    if (ty_is_float(t))
        return lit_parse_float(s, n, t, bits);
    if (!lit_parse_int(s, n, bits))
        return false;
    *bits &= ty_mask(t);
    return true;
}

/* --cpu LEVEL applied to the executor's machine target (usage error: false) */
static bool apply_cpu(const char *cmd, Executor *e, const char *cpu)
{
    if (!cpu)
        return true;
    const Target *level = driver_cpu_level(cmd, e->machine, cpu);
    if (level)
        e->machine = level;
    return level != NULL;
}

typedef struct {
    uint64_t steps;
    bool heap;
    const Executor *machine; /* --target: compiled code under Unicorn; NULL: interpret */
} RunOpts;

/* the call on the machine target's code: false if it does not compile or load */
static bool run_compiled(const Module *m, const Func *f, const uint64_t *args, const Executor *e, Outcome *o)
{
    void *ctx = e->open(m, 0, e->machine);
    if (ctx) {
        e->run(ctx, f->index, args, o);
        e->close(ctx);
    }
    return ctx != NULL;
}

static int run_call(const Module *m, const Func *f, uint64_t *args, const RunOpts *ro)
{
    InterpOptions opt = {.max_steps = ro->steps};
    Outcome *o = malloc(sizeof *o);
    if (!o)
        return EXIT_USAGE;
    if (!ro->machine)
        interp_run(m, f->index, args, &opt, o);
    else if (!run_compiled(m, f, args, ro->machine, o)) {
        free(o);
        return EXIT_FAIL;
    }
    char buf[300];
    outcome_format(buf, sizeof buf, o);
    printf("%s\n", buf);
    if (ro->heap)
        print_heap_changes(o);
    int rc = o->kind == OUT_INVALID || o->kind == OUT_TIMEOUT ? EXIT_FAIL : EXIT_OK;
    free(o);
    return rc;
}

/* the call's arguments parsed in the parameter types of f into args; false (after
 * saying why) if their number or a literal does not fit */
static bool parse_call_args(const char *fname, const Func *f, char **pos, int npos, uint64_t *args)
{
    if ((uint32_t)npos != f->nparams) {
        fprintf(stderr, "circ run: %s takes %u argument%s, %d given\n", fname, f->nparams,
                f->nparams == 1 ? "" : "s", npos);
        return false;
    }
    for (int i = 0; i < npos; i++)
        if (!parse_arg(f->module, pos[i], f->params[i], &args[i])) {
            fprintf(stderr, "circ run: '%s' is not a %s argument\n", pos[i], ty_name(f->params[i]));
            return false;
        }
    return true;
}

/* load file and run fname with the npos literals of pos */
static int run_file(const char *file, const char *fname, char **pos, int npos, const RunOpts *ro)
{
    int status = EXIT_OK;
    Module *m = load_module(file, true, &status);
    if (!m)
        return status;
    const Func *f = module_find(m, fname + 1, strlen(fname + 1));
    int rc = EXIT_USAGE;
    uint64_t *args = calloc((size_t)npos + 1, sizeof *args);
    if (!f)
        fprintf(stderr, "circ run: no function %s in %s\n", fname, file);
    else if (args && parse_call_args(fname, f, pos, npos, args))
        rc = run_call(m, f, args, ro);
    free(args);
    module_free(m);
    return rc;
}

/* --target T and --cpu LEVEL into ro->machine (through *e); false after a message */
static bool run_machine(const char *target, const char *cpu, Executor *e, RunOpts *ro)
{
    if (!target)
        return !cpu || driver_cpu_level("run", NULL, cpu);
    const Target *t = target_find(target);
    if (!t) {
        char names[128];
        fprintf(stderr, "circ run: unknown target '%s' (%s)\n", target, target_names(names, sizeof names, ", ", ", "));
        return false;
    }
    *e = (Executor){t->name, "", compiled_open, compiled_run, compiled_close, t};
    ro->machine = e;
    return apply_cpu("run", e, cpu);
}

int cmd_run(int argc, char **argv)
{
    char usage[2048];
    usage_text(run_usage, usage, sizeof usage);
    if (wants_help(argc, argv, usage))
        return EXIT_OK;
    const char *file = NULL, *fname = NULL, *target = NULL, *cpu = NULL;
    char **pos = malloc((size_t)argc * sizeof *pos); /* the positional arguments after @FUNC */
    int npos = 0, rc = EXIT_USAGE;
    bool bad = !pos;
    RunOpts ro = {0, false, NULL};
    Executor machine;
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--heap"))
            ro.heap = true;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc && lit_parse_int(argv[i + 1], strlen(argv[i + 1]), &ro.steps))
            i++;
        else if (!strcmp(argv[i], "--target") && i + 1 < argc)
            target = argv[++i];
        else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
            cpu = argv[++i];
        else if (!strncmp(argv[i], "--", 2)) {
            fprintf(stderr, "circ run: bad option '%s'\n", argv[i]);
            bad = true;
        } else if (!file)
            file = argv[i];
        else if (!fname)
            fname = argv[i];
        else
            pos[npos++] = argv[i];
    }
    if (bad || !file || !fname || fname[0] != '@')
        fputs(usage, stderr);
    else if (run_machine(target, cpu, &machine, &ro))
        rc = run_file(file, fname, pos, npos, &ro);
    free(pos);
    return rc;
}

/* ---- circ test --------------------------------------------------------------- */
static const char test_usage[] =
    "usage: circ test FILE... [--target T] [--cpu LEVEL] [-O0|-O1|-O2]\n"
    "Run every `; run: @f(ARGS) == EXPECTED` line of each file on target T (default\n"
    "interp, the reference interpreter) and print one line per failure:\n"
    "  FILE:LINE: @f(args): expected X, got Y\n"
    "then `N passed, M failed`.  Floats compare bits exactly (`nan`: any NaN).\n"
    "-O1/-O2 optimize the module with the middle end's pipeline first (default -O0).\n"
    "Targets: interp (the reference interpreter on the circuit), sched (the interpreter\n"
    "of the scheduled form: global code motion), and {TARGETS} (code from the\n"
    "compile pipeline, run under Unicorn).\n"
    "--cpu LEVEL compiles for that CPU level of the target and runs the code on the\n"
    "emulated CPU model of the level (x86-64: baseline, v3; docs/porting.md).\n"
    "Exit 0 if every run line passed, 1 if any failed or a file is invalid, 2 on usage\n"
    "or I/O errors.\n";

typedef struct { uint32_t passed, failed; int status; } TestTally;

static void test_file(const char *path, const Executor *t, int opt_level, Outcome *o, TestTally *tally)
{
    int status = EXIT_OK;
    Module *m = load_module(path, true, &status);
    if (!m) {
        tally->failed++;
        if (status > tally->status)
            tally->status = status;
        return;
    }
    void *ctx = t->open(m, opt_level, t->machine);
    if (!ctx) {
        printf("%s: cannot run on target %s at -O%d\n", path, t->name, opt_level);
        tally->failed += m->nruns ? m->nruns : 1;
        module_free(m);
        return;
    }
    for (uint32_t i = 0; i < m->nruns; i++) {
        const RunLine *r = &m->runs[i];
        uint64_t *args = calloc(r->nargs + 1, sizeof *args);
        if (!args)
            abort();
        runline_args(r, args);
        t->run(ctx, r->func, args, o);
        free(args);
        if (outcome_matches(o, &r->expect)) {
            tally->passed++;
            continue;
        }
        tally->failed++;
        char call[512], want[128], got[300];
        format_args(call, sizeof call, m, r);
        format_expect(want, sizeof want, m->funcs[r->func], &r->expect);
        outcome_format(got, sizeof got, o);
        printf("%s:%u: %s: expected %s, got %s\n", path, r->line, call, want, got);
    }
    t->close(ctx);
    module_free(m);
}

int cmd_test(int argc, char **argv)
{
    char usage[2048];
    usage_text(test_usage, usage, sizeof usage);
    if (wants_help(argc, argv, usage))
        return EXIT_OK;
    Executor exec = interpreters[0];
    const Executor *t = &exec;
    int opt_level = 0, nfiles = 0;
    const char *cpu = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            if (!find_executor(argv[++i], &exec)) {
                fprintf(stderr, "circ test: unknown target '%s'; available:\n", argv[i]);
                list_executors(stderr);
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
            cpu = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == 'O' && argv[i][2] >= '0' && argv[i][2] <= '2' && !argv[i][3]) {
            opt_level = argv[i][2] - '0';
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "circ test: unknown option '%s'\n%s", argv[i], usage);
            return EXIT_USAGE;
        } else {
            nfiles++;
        }
    }
    if (!nfiles) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    if (!apply_cpu("test", &exec, cpu))
        return EXIT_USAGE;
    Outcome *o = malloc(sizeof *o);
    if (!o)
        return EXIT_USAGE;
    TestTally tally = {0, 0, EXIT_OK};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target") || !strcmp(argv[i], "--cpu"))
            i++;
        else if (argv[i][0] != '-')
            test_file(argv[i], t, opt_level, o, &tally);
    }
    free(o);
    printf("%u passed, %u failed\n", tally.passed, tally.failed);
    if (tally.status == EXIT_USAGE)
        return EXIT_USAGE;
    return tally.failed ? EXIT_FAIL : EXIT_OK;
}
