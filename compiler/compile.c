/* compile.c — compile_module: passes, then per function schedule, lower, remove
 * dead instructions, allocate, frame, then the target's emit (compile.h). */
#include "compiler/compile.h"
#include "compiler/opt/opt.h"
#include "compiler/target.h"

#include <stdlib.h>
#include <string.h>

bool compile_run_passes(Module *m, const CompileOptions *opt, Diag *d)
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

static uint64_t count_insts(const Code *c)
{
    uint64_t n = 0;
    for (uint32_t b = 0; b < c->nblocks; b++)
        n += c->blocks[b]->ninsts;
    return n;
}

SchedOptions compile_sched_options(bool no_motion)
{
    SchedOptions so = {.no_motion = no_motion};
    for (unsigned i = 0; i < target_count(); i++)
        for (int bank = 0; bank < 2; bank++) {
            uint8_t n = target_at(i)->nalloc_order[bank == 0 ? BANK_GP : BANK_FP];
            if (!so.regs[bank] || n < so.regs[bank])
                so.regs[bank] = n;
        }
    return so;
}

/* registers and stack of one lowered function, per opt's allocator */
static bool allocate(Code *code, const CompileOptions *opt, char *err, size_t errlen)
{
    if (opt->allocator == ALLOC_LOCAL) {
        if (opt->dump_lir)
            lir_print(opt->dump_lir, code);
        return lir_allocate_local(code, &opt->regalloc, err, errlen);
    }
    Arena *scratch = arena_new();
    LirLiveness *live = lir_remove_dead(scratch, code);
    if (!live) { /* it would fail the same way in the allocator */
        snprintf(err, errlen, "%s", LIR_NO_LIVENESS);
        arena_free(scratch);
        return false;
    }
    if (opt->dump_lir)
        lir_print(opt->dump_lir, code);
    /* the shape of the lowering and of the result is verified there; their forms
     * when the target emits the code */
    bool allocated = lir_allocate_compiled(code, &opt->regalloc, live, err, errlen);
    arena_free(scratch);
    return allocated;
}

/* schedule, lower, allocate and frame one function */
static Code *compile_func(const Func *f, const Schedule *given, const Target *t, const CompileOptions *opt,
                          Arena *arena, CompileStats *stats, Diag *d)
{
    SchedOptions so = compile_sched_options(opt->no_motion || (opt->opt_level == 0 && !opt->passes));
    for (int bank = 0; bank < 2; bank++) {
        uint8_t limit = opt->regalloc.max_regs[bank == 0 ? BANK_GP : BANK_FP];
        so.regs[bank] = opt->unbounded_hoisting ? 0 : limit && limit < so.regs[bank] ? limit : so.regs[bank];
    }
    Schedule *own = given ? NULL : schedule_func(f, &so, d);
    const Schedule *s = given ? given : own;
    if (!s)
        return NULL;
    Code *code = lower_func_counted(s, t, t->isel, NULL, opt->cov, arena, d);
    schedule_free(own);
    if (!code)
        return NULL;
    code->frame_base = t->frame_base;
    code->stack_pointer = t->stack_pointer;
    code->branch_reach = opt->branch_reach;
    char err[512];
    if (!allocate(code, opt, err, sizeof err)) {
        diag_error(d, f->line, f->col, "in @%s: register allocation failed: %s", f->name, err);
        lir_verify(code, d->out); /* the problems, if that is why */
        return NULL;
    }
    if (!t->finish_frame(code, err, sizeof err)) {
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

bool compile_module_stats(const Module *m, const Target *t, const CompileOptions *opt, Arena *arena,
                          CodeBlob *out, Module **compiled, CompileStats *stats, Diag *d)
{
    static const CompileOptions defaults;
    if (!opt)
        opt = &defaults;
    if (compiled)
        *compiled = NULL;
    if (stats)
        memset(stats, 0, sizeof *stats);
    /* the passes work on a copy; a prepared module, or one no pass runs on, is
     * compiled in place (scheduling and lowering only read it) */
    bool no_passes = opt->prepared || (opt->opt_level == 0 && !opt->passes);
    bool copy = !no_passes || compiled;
    Module *work = copy ? module_clone(m) : (Module *)m;
    if (!work) {
        diag_error(d, 0, 0, "out of memory");
        return false;
    }
    bool ok = no_passes || compile_run_passes(work, opt, d);
    Schedule *const *given = opt->prepared ? opt->schedules : NULL;
    Code **codes = arena_alloc(arena, (work->nfuncs + 1) * sizeof *codes);
    for (uint32_t i = 0; ok && i < work->nfuncs; i++)
        ok = (codes[i] = compile_func(work->funcs[i], given ? given[i] : NULL, t, opt, arena, stats, d)) != NULL;
    if (ok) {
        char err[512];
        memset(out, 0, sizeof *out);
        if (!t->emit(arena, codes, work->nfuncs, out, err, sizeof err)) {
            diag_error(d, 0, 0, "%s: %s", t->name, err);
            ok = false;
        }
        out->threw_flag = lower_module_may_throw(work);
    }
    if (ok && compiled)
        *compiled = work;
    else if (copy)
        module_free(work);
    return ok;
}

bool compile_module(const Module *m, const Target *t, const CompileOptions *opt, Arena *arena,
                    CodeBlob *out, Module **compiled, Diag *d)
{
    return compile_module_stats(m, t, opt, arena, out, compiled, NULL, d);
}
