/* check_machine.c — the machine-code stages of the differential check: compile the
 * module for a target of the registry (compiler/target.h) at an -O level
 * (compiler/compile.h: instruction selection,
 * register allocation, encoding of the optimized module and schedules the check made
 * once for the scheduled-form stages) and run each call under the Unicorn runner
 * (oracle/emu.h).  Each CPU level of a target is a stage of its own (x86-64-O2-v3,
 * at -O2; the baseline's stages keep the plain names), run on the emulated CPU
 * model of that level.  Engines are kept in a CheckEngines, one per ISA and level,
 * for the whole check or, when the caller passes one, for many checks.
 *
 * The emulator's block budget comes from the oracle's step count for the same call
 * (a compiled call runs at most a few translated blocks per gate the interpreter
 * evaluates; EXP's loop, up to 17 blocks, is the most), plus a block per 8 bytes of
 * ALLOCA the oracle's run allocated (compiled code zero-fills them in loops), so
 * runaway compiled code ends as a timeout quickly. */
#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/check_stage.h"
#include "fuzz/mcov_table.h"
#include "oracle/emu.h"

#include <stdlib.h>
#include <string.h>

enum { BUDGET_PER_STEP = 8 };
#define EMU_WALL_US 10000000ull

enum { LEVELS_MAX = 4, MEMO_MAX = 8 };

struct CheckEngines {
    Emu *emu[ISA_COUNT][LEVELS_MAX];
    bool failed[ISA_COUNT][LEVELS_MAX];
    NativeZygote *native;   /* the native stage's fork server (check_native.c) */
    bool (*memo_probe[MEMO_MAX])(void); /* check_engines_memo: probes asked, */
    bool memo_answer[MEMO_MAX];         /* their answers */
};

typedef struct {
    Arena *arena;
    CodeBlob blob;
    Emu *emu;
} MachineRun;

CheckEngines *check_engines_new(void)
{
    CheckEngines *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    e->native = native_zygote_new();
    return e;
}

NativeZygote *check_engines_native(CheckEngines *e) { return e->native; }

bool check_engines_memo(CheckEngines *e, bool (*probe)(void))
{
    for (int i = 0; e && i < MEMO_MAX && e->memo_probe[i]; i++)
        if (e->memo_probe[i] == probe)
            return e->memo_answer[i];
    bool answer = probe();
    for (int i = 0; e && i < MEMO_MAX; i++)
        if (!e->memo_probe[i]) {
            e->memo_probe[i] = probe;
            e->memo_answer[i] = answer;
            break;
        }
    return answer;
}

void check_engines_free(CheckEngines *e)
{
    if (!e)
        return;
    for (int i = 0; i < ISA_COUNT; i++)
        for (int k = 0; k < LEVELS_MAX; k++)
            emu_free(e->emu[i][k]);
    native_zygote_free(e->native);
    free(e);
}

/* the engine of target's ISA on the CPU model of its level */
static Emu *engine(CheckEngines *e, const Target *t)
{
    Isa isa = t->isa;
    unsigned k = t->level < LEVELS_MAX ? t->level : 0;
    if (!e->emu[isa][k] && !e->failed[isa][k]) {
        e->emu[isa][k] = emu_new_cpu(isa, t->cpu);
        e->failed[isa][k] = e->emu[isa][k] == NULL;
        if (e->emu[isa][k])
            emu_set_wall_timeout(e->emu[isa][k], EMU_WALL_US, false);
    }
    return e->emu[isa][k];
}

/* target at -O(opt): the baseline at every level asked for, the other CPU levels at
 * -O2 only (selection does not depend on the passes) */
static void add_target_stages(StageList *l, const CheckOptions *o, const Target *base, int opt)
{
    for (unsigned v = 0; v < base->nlevels; v++) {
        const Target *target = base->levels[v];
        if (v > 0 && opt != 2)
            continue;
        CheckStage s = {.kind = STAGE_MACHINE, .level = opt, .target = target};
        if (v == 0)
            snprintf(s.name, sizeof s.name, "%s-O%d", target->name, opt);
        else
            snprintf(s.name, sizeof s.name, "%s-O%d-%s", target->name, opt, target->cpu);
        check_add_stage(l, o, &s);
        if (v == 0 && opt == 0 && !o->no_local) {
            CheckStage local = s;
            local.local = true; /* the local allocator: compiled on its own */
            snprintf(local.name, sizeof local.name, "%s-O0-local", target->name);
            check_add_stage(l, o, &local);
        }
        if (v > 0 || opt != 2 || o->no_pressure)
            continue;
        s.pressure = true; /* check_pressure.c */
        snprintf(s.name, sizeof s.name, "%s-O%d-regs", target->name, opt);
        check_add_stage(l, o, &s);
    }
}

static void add_machine_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    uint32_t isas = o->isa_mask ? o->isa_mask : (1u << ISA_COUNT) - 1;
    static const int order[] = {0, 2};
    for (int k = 0; k < 2; k++) {
        if (!(levels & (1u << order[k])))
            continue;
        for (unsigned t = 0; t < target_count(); t++)
            if (isas & (1u << target_at(t)->isa))
                add_target_stages(l, o, target_at(t), order[k]);
    }
}

bool check_compile(CheckCtx *c, const CheckStage *s, Arena *arena, CodeBlob *blob, StageRun *r)
{
    /* the passes and schedules the scheduled-form stages use, compiled per ISA */
    Schedule *const *sched = check_schedules(c, s->level, r->detail, sizeof r->detail, &r->fail_kind);
    if (!sched)
        return false;
    const Module *m = check_prepared(c, s->level, r->detail, sizeof r->detail);
    char first[400];
    Diag d;
    diag_init(&d, m->file, NULL);
    diag_keep_first(&d, first, sizeof first);
    CompileOptions co = {.opt_level = s->level, .prepared = true, .schedules = sched,
                         .regalloc = s->pressure ? check_pressure_options(c->m)
                                     : s->local  ? check_local_options(c->m)
                                                 : c->opt->regalloc,
                         .allocator = s->local ? ALLOC_LOCAL : ALLOC_LINEAR_SCAN,
                         .branch_reach = s->pressure || s->local ? check_branch_reach(c->m) : 0,
                         .cov = mcov_table_slot(c->opt->mcov, s->target, s->level,
                                                s->pressure ? "regs" : s->local ? "local" : NULL)};
    if (!compile_module(m, s->pressure ? check_pressure_level(c->m, s->target) : s->target, &co, arena, blob, NULL,
                        &d)) {
        snprintf(r->detail, sizeof r->detail, "compile failed: %s", first);
        r->fail_kind = "compile";
        return false;
    }
    return true;
}

static bool open_machine(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    if (!c->machine)
        c->machine = c->opt->engines ? c->opt->engines : check_engines_new();
    MachineRun *mr = calloc(1, sizeof *mr);
    if (!mr)
        abort();
    r->machine = mr;
    mr->arena = arena_new();
    bool own = s->pressure || s->local; /* compiled on its own, on sampled programs */
    uint32_t every = s->local ? c->opt->local_every : c->opt->pressure_every;
    if (own && !check_stage_sampled(c->m, every, s->target->isa, s->local)) {
        r->unchanged = true; /* not this program's turn: the oracle's outcomes stand */
        return true;
    }
    const CodeBlob *blob = own ? (check_compile(c, s, mr->arena, &mr->blob, r) ? &mr->blob : NULL)
                               : check_compile_shared(c, s, r);
    if (!blob)
        return false;
    if (!own && check_same_as_baseline(c, s, blob)) {
        r->unchanged = true; /* the baseline level's stage ran these very bytes */
        return true;
    }
    mr->blob = *blob;
    /* the code goes to the emulator as an ELF object through the harness's loader,
     * so every check runs the object writer and the loader too */
    ElfImage img;
    CodeBlob object;
    if (!check_load_object(check_prepared(c, s->level, r->detail, sizeof r->detail), s->target, &mr->blob,
                           EMU_CODE_ADDR, elf_resolve_emu_stub, NULL, mr->arena, &img, &object, r))
        return false;
    double t = check_now();
    /* the pressure stage's CPU level: its engine runs that level's instructions */
    mr->emu = engine(c->machine, s->pressure ? check_pressure_level(c->m, s->target) : s->target);
    bool loaded = mr->emu && emu_load(mr->emu, &object);
    elf_image_free(&img);
    double loading = check_now() - t; /* emulation, not compilation */
    c->seconds[PHASE_EMULATE] += loading;
    c->seconds[PHASE_COMPILE] -= loading;
    if (!loaded) {
        snprintf(r->detail, sizeof r->detail, "the emulator cannot load the code: %s",
                 mr->emu ? emu_error(mr->emu) : "no engine");
        r->fail_kind = "load";
        return false;
    }
    return true;
}

static void run_machine(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func,
                       const uint64_t *args, Outcome *out)
{
    (void)s;
    MachineRun *mr = r->machine;
    emu_call_func(mr->emu, c->m->funcs[func], args, emu_budget_from(c->oracle_run, BUDGET_PER_STEP), out);
}

static void close_machine(StageRun *r)
{
    MachineRun *mr = r->machine;
    if (mr) {
        arena_free(mr->arena);
        free(mr);
    }
    r->machine = NULL;
}

static void free_machine(CheckCtx *c)
{
    if (c->machine && c->machine != c->opt->engines)
        check_engines_free(c->machine);
    c->machine = NULL;
    check_blobs_free(c);
}

const StageOps check_machine_stages = {add_machine_stages, open_machine, run_machine, close_machine, free_machine,
                                       PHASE_COMPILE, PHASE_EMULATE};
