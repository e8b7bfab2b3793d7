/* pipeline.c — compile_module: passes, then per function schedule, lower, allocate,
 * frame, then the target's emit (pipeline.h). */
#include "pipeline.h"
#include "compiler/opt/opt.h"
#include "ra_internal.h"

#include <stdlib.h>
#include <string.h>

/* run the middle end on m per opt; false (reported) if the pipeline fails */
static bool run_passes(Module *m, const CompileOptions *opt, Diag *d)
{
    PassOptions po = {.bisect_limit = -1};
    PassManager *pm = pm_new(&po);
    if (!pm) {
        diag_error(d, 0, 0, "out of memory");
        return false;
    }
    bool ok = true;
    if (opt->passes) {
        char err[256];
        if (!pm_set_passes(pm, opt->passes, err, sizeof err)) {
            diag_error(d, 0, 0, "%s", err);
            ok = false;
        }
    } else {
        pm_set_level(pm, opt->opt_level);
    }
    if (ok && pm_run(pm, m) != 0) {
        diag_error(d, 0, 0, "the optimization pipeline produced an invalid module");
        ok = false;
    }
    pm_free(pm);
    return ok;
}

/* ---- dead instructions ---------------------------------------------------------
 * Selection leaves values nobody reads (a constant folded into an immediate, an
 * address folded into its load, a compare fused into its branch).  An instruction
 * without effects (no terminator, call, trap, effect flag, memory or physical
 * register def) whose defs are all virtual tmps dead after it is removed; a few
 * rounds catch chains across blocks. */
typedef struct {
    const Code *code;
    uint64_t *live;      /* bitset over lir_tmp_index */
} DeadScan;

static bool removable(const DeadScan *d, const Inst *in)
{
    if (lir_op_flags((LirOp)in->op) & (LF_TERM | LF_CALL | LF_EFFECT | LF_TRAP) || in->call)
        return false;
    const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
    if (!o)
        return false;
    for (unsigned i = 0; i < o->nargs; i++) {
        const Arg *a = &in->args[i];
        if (role_is_def((Role)o->args[i].role) &&
            (a->kind != ARG_TMP || !tmp_is_virtual(a->base) || bit_get(d->live, ra_tmp_index(d->code, a->base))))
            return false;
    }
    return true;
}

/* live before an instruction from live after it, given its operands as the
 * liveness found them: its pure defs die, its uses come alive */
static void step_back(DeadScan *d, OperandList ops)
{
    for (uint32_t i = 0; i < ops.n; i++) {
        unsigned t = ops.ops[i].timing;
        if ((t & (RT_EARLY_DEF | RT_LATE_DEF)) && !(t & (RT_EARLY_USE | RT_LATE_USE)))
            bit_clear(d->live, ops.ops[i].index);
    }
    for (uint32_t i = 0; i < ops.n; i++)
        if (ops.ops[i].timing & (RT_EARLY_USE | RT_LATE_USE))
            bit_set(d->live, ops.ops[i].index);
}

/* one backward pass over every block, from the code's liveness live; true if
 * another round may remove more: an instruction went and the live-in set of its
 * block shrank (liveness elsewhere depends on nothing else).  changed[b]: an
 * instruction of block b went */
static bool remove_dead_round(DeadScan *d, Code *code, const LirLiveness *live, bool *changed)
{
    uint32_t words = (lir_tmp_count(code) + 63) / 64;
    bool again = false;
    for (uint32_t b = 0; b < code->nblocks; b++) {
        LirBlock *blk = code->blocks[b];
        memcpy(d->live, lir_live_out_set(live, b), words * 8);
        bool removed = false;
        for (uint32_t i = blk->ninsts; i-- > 0;) {
            Inst *in = &blk->insts[i];
            if (removable(d, in)) {
                in->op = LIR_Nop;
                in->nargs = 0;
                removed = true;
                continue;
            }
            /* the block is compacted only after this walk, so the liveness's
             * numbering of its instructions still holds */
            step_back(d, ra_inst_operands(live, live->first_inst[b] + i));
        }
        changed[b] = removed;
        if (!removed)
            continue;
        again |= memcmp(d->live, lir_live_in_set(live, b), words * 8) != 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < blk->ninsts; i++)
            if (blk->insts[i].op != LIR_Nop)
                blk->insts[n++] = blk->insts[i];
        blk->ninsts = n;
    }
    return again;
}

static bool any(const bool *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i])
            return true;
    return false;
}

/* remove the instructions whose results nobody reads, in up to four rounds; the
 * liveness of the code that is left (in arena; after a round that removed
 * something, made again for the blocks it changed), NULL if an instruction has no
 * overload */
static LirLiveness *remove_dead_insts(Arena *arena, Code *code)
{
    LirLiveness *live = lir_liveness(arena, code);
    bool *changed = arena_alloc(arena, code->nblocks + 1);
    DeadScan d = {code, arena_alloc(arena, (lir_tmp_count(code) / 64 + 1) * 8)};
    for (int round = 0; round < 4 && live; round++) {
        bool again = remove_dead_round(&d, code, live, changed);
        if (!any(changed, code->nblocks))
            break;
        if (!lir_liveness_refresh(live, changed))
            live = NULL;
        if (!again)
            break;
    }
    return live;
}

static uint64_t count_insts(const Code *c)
{
    uint64_t n = 0;
    for (uint32_t b = 0; b < c->nblocks; b++)
        n += c->blocks[b]->ninsts;
    return n;
}

/* schedule, lower, allocate and frame one function */
static Code *compile_func(const Func *f, const Schedule *given, const Backend *be, const CompileOptions *opt,
                          Arena *arena, CompileStats *stats, Diag *d)
{
    SchedOptions so = {.no_motion = opt->no_motion || (opt->opt_level == 0 && !opt->passes)};
    Schedule *own = given ? NULL : schedule_func(f, &so, d);
    const Schedule *s = given ? given : own;
    if (!s)
        return NULL;
    Code *code = lower_func(s, be->target(), be->isel, NULL, arena, d);
    schedule_free(own);
    if (!code)
        return NULL;
    code->frame_base = be->frame_base;
    code->stack_pointer = be->stack_pointer;
    Arena *scratch = arena_new();
    LirLiveness *live = remove_dead_insts(scratch, code);
    if (opt->dump_lir)
        lir_print(opt->dump_lir, code);
    char err[512];
    /* the shape of the lowering and of the result is verified there; their forms
     * when the target emits the code */
    bool allocated = lir_allocate_compiled(code, &opt->regalloc, live, err, sizeof err);
    arena_free(scratch);
    if (!allocated) {
        diag_error(d, f->line, f->col, "in @%s: register allocation failed: %s", f->name, err);
        lir_verify(code, d->out); /* the problems, if that is why */
        return NULL;
    }
    if (!be->finish_frame(code, err, sizeof err)) {
        diag_error(d, f->line, f->col, "in @%s: %s", f->name, err);
        return NULL;
    }
    if (opt->dump_alloc)
        lir_print(opt->dump_alloc, code);
    if (stats) {
        stats->gates += circ_live_count(f->circ);
        stats->insts += count_insts(code);
    }
    return code;
}

bool compile_module_stats(const Module *m, const Backend *be, const CompileOptions *opt, Arena *arena,
                          CodeBlob *out, Module **compiled, CompileStats *stats, Diag *d)
{
    static const CompileOptions defaults;
    if (!opt)
        opt = &defaults;
    if (compiled)
        *compiled = NULL;
    if (stats)
        memset(stats, 0, sizeof *stats);
    /* the passes work on a copy; a prepared module is compiled in place */
    bool copy = !opt->prepared || compiled;
    Module *work = copy ? module_clone(m) : (Module *)m;
    if (!work) {
        diag_error(d, 0, 0, "out of memory");
        return false;
    }
    bool ok = opt->prepared || (opt->opt_level == 0 && !opt->passes) || run_passes(work, opt, d);
    Schedule *const *given = opt->prepared ? opt->schedules : NULL;
    Code **codes = arena_alloc(arena, (work->nfuncs + 1) * sizeof *codes);
    for (uint32_t i = 0; ok && i < work->nfuncs; i++)
        ok = (codes[i] = compile_func(work->funcs[i], given ? given[i] : NULL, be, opt, arena, stats, d)) != NULL;
    if (ok) {
        char err[512];
        memset(out, 0, sizeof *out);
        if (!be->target()->emit(arena, codes, work->nfuncs, out, err, sizeof err)) {
            diag_error(d, 0, 0, "%s: %s", be->name, err);
            ok = false;
        }
    }
    if (ok && compiled)
        *compiled = work;
    else if (copy)
        module_free(work);
    return ok;
}

bool compile_module(const Module *m, const Backend *be, const CompileOptions *opt, Arena *arena,
                    CodeBlob *out, Module **compiled, Diag *d)
{
    return compile_module_stats(m, be, opt, arena, out, compiled, NULL, d);
}
