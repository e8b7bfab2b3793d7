/* dead.c — removing the instructions selection leaves whose results nobody reads
 * (lir_remove_dead in regalloc.h), before register allocation. */
#include "ra_internal.h"

#include "grow.h"

#include <stdlib.h>

/* ---- dead instructions ---------------------------------------------------------
 * Selection leaves values nobody reads (a constant folded into an immediate, an
 * address folded into its load, a compare fused into its branch).  An instruction
 * without effects (no terminator, call, trap, effect flag, memory or physical
 * register def) whose defs are all virtual tmps dead after it is removed; a few
 * rounds catch chains across blocks. */
typedef struct {
    const Code *code;
    uint64_t *live;      /* bitset over lir_tmp_index */
    uint32_t *touched;   /* every index set in live since it was last empty */
    uint32_t ntouched, captouched;
} DeadScan;

static void live_add(DeadScan *d, uint32_t i)
{
    if (bit_get(d->live, i))
        return;
    bit_set(d->live, i);
    if (d->ntouched == d->captouched &&
        !lir_grow_array((void **)&d->touched, &d->captouched, d->ntouched + 1, sizeof *d->touched))
        abort();
    d->touched[d->ntouched++] = i;
}

/* live emptied; the number of tmps that were in it */
static uint32_t live_clear(DeadScan *d)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < d->ntouched; k++)
        if (bit_get(d->live, d->touched[k])) {
            bit_clear(d->live, d->touched[k]);
            n++;
        }
    d->ntouched = 0;
    return n;
}

/* live emptied; true if it held exactly the n tmps of set */
static bool live_clear_equals(DeadScan *d, const uint32_t *set, uint32_t n)
{
    bool same = true;
    for (uint32_t k = 0; k < n && same; k++)
        same = bit_get(d->live, set[k]);
    return live_clear(d) == n && same;
}

static bool removable(const DeadScan *d, const Inst *in)
{
    if (!lir_is_pure(in))
        return false;
    const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
    for (unsigned i = 0; i < o->nargs; i++)
        if (role_is_def((Role)o->args[i].role) && bit_get(d->live, ra_tmp_index(d->code, in->args[i].base)))
            return false;
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
            live_add(d, ops.ops[i].index);
}

/* the block without its Nops (the instructions removed) */
static void compact_block(Code *code, LirBlock *blk)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < blk->ninsts; i++)
        if (blk->insts[i].op != LIR_Nop)
            blk->insts[n++] = blk->insts[i];
    blk->ninsts = n;
    lir_fit_block(code, blk);
}

/* one backward pass over every block, from the code's liveness live; true if
 * another round may remove more: an instruction went and the live-in set of its
 * block shrank (liveness elsewhere depends on nothing else).  changed[b]: an
 * instruction of block b went */
static bool remove_dead_round(DeadScan *d, Code *code, LirLiveness *live, bool *changed)
{
    bool again = false;
    for (uint32_t b = 0; b < code->nblocks; b++) {
        LirBlock *blk = code->blocks[b];
        const uint32_t *set;
        for (uint32_t k = 0, n = lir_live_out_list(live, b, &set); k < n; k++)
            live_add(d, set[k]);
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
        if (!removed) {
            live_clear(d);
            continue;
        }
        uint32_t nin = lir_live_in_list(live, b, &set);
        again |= !live_clear_equals(d, set, nin);
        compact_block(code, blk); /* the liveness refresh redoes this block's operands */
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

/* ---- unread instructions -------------------------------------------------------
 * Most of what selection leaves is never read at all, and a count of each virtual
 * tmp's readers finds that without the liveness: one walk from the last instruction
 * to the first removes each pure instruction whose defs have no reader but itself,
 * and its operands lose a reader (a chain whose reader comes later in the layout goes
 * at once).  The liveness rounds then seldom find more, and seldom make the
 * liveness twice. */
typedef struct {
    const Code *code;
    uint32_t *reads;   /* per lir_tmp_index: the readers of a virtual tmp */
    int delta;         /* +1 counting readers, -1 removing them */
} ReaderScan;

static void count_reader(void *ctx, Tmp *t, Role role, Bank bank, Width width)
{
    (void)bank, (void)width;
    ReaderScan *r = ctx;
    if (tmp_is_virtual(*t) && role_is_use(role) && role != ROLE_SCRATCH)
        r->reads[ra_tmp_index(r->code, *t)] += (uint32_t)r->delta;
}

/* does another instruction read a def of in (pure: its defs are virtual tmps)? */
static bool defs_read(const ReaderScan *r, const Inst *in)
{
    const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
    for (unsigned i = 0; i < o->nargs; i++) {
        Role role = (Role)o->args[i].role;
        if (role_is_def(role) && r->reads[ra_tmp_index(r->code, in->args[i].base)] > (role_is_use(role) ? 1u : 0u))
            return true;
    }
    return false;
}

/* block blk walked back: its pure instructions whose defs nobody else reads made
 * Nops (their operands lose a reader); true if any */
static bool drop_unread(ReaderScan *r, LirBlock *blk)
{
    bool dropped = false;
    for (uint32_t i = blk->ninsts; i-- > 0;) {
        Inst *in = &blk->insts[i];
        if (!lir_is_pure(in) || defs_read(r, in))
            continue;
        lir_for_each_tmp(in, count_reader, r);
        in->op = LIR_Nop, in->nargs = 0;
        dropped = true;
    }
    return dropped;
}

static void remove_unread(Code *code)
{
    ReaderScan r = {code, calloc((size_t)lir_tmp_count(code) + 1, sizeof *r.reads), +1};
    if (!r.reads)
        abort();
    for (uint32_t b = 0; b < code->nblocks; b++)
        for (uint32_t i = 0; i < code->blocks[b]->ninsts; i++)
            lir_for_each_tmp(&code->blocks[b]->insts[i], count_reader, &r);
    r.delta = -1;
    for (uint32_t b = code->nblocks; b-- > 0;)
        if (drop_unread(&r, code->blocks[b]))
            compact_block(code, code->blocks[b]);
    free(r.reads);
}

LirLiveness *lir_remove_dead(Arena *arena, Code *code)
{
    remove_unread(code);
    LirLiveness *live = lir_liveness(arena, code);
    bool *changed = arena_alloc(arena, code->nblocks + 1);
    DeadScan d = {code, arena_alloc(arena, (lir_tmp_count(code) / 64 + 1) * 8), NULL, 0, 0};
    for (int round = 0; round < 4 && live; round++) {
        bool again = remove_dead_round(&d, code, live, changed);
        if (!any(changed, code->nblocks))
            break;
        if (!lir_liveness_refresh(live, changed))
            live = NULL;
        if (!again)
            break;
    }
    free(d.touched);
    return live;
}
