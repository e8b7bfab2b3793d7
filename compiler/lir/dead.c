/* dead.c — removing the instructions selection leaves whose results nobody reads
 * (lir_remove_dead in regalloc.h), before register allocation. */
#include "ra_internal.h"

#include <string.h>

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

LirLiveness *lir_remove_dead(Arena *arena, Code *code)
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
