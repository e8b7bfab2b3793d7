/* liveness.c — dense tmp numbering, the tmp operands of an instruction with their
 * roles (made once per instruction and kept with the liveness for interval
 * building and rewriting), and live-in/live-out sets of every block by backward
 * dataflow at fence posts: early uses read before early defs write, late uses
 * read before late defs (and call clobbers) write.  Needs instructions with
 * overloads. */
#include "ra_internal.h"

#include <stdlib.h>
#include <string.h>

uint32_t lir_tmp_count(const Code *c)
{
    return 2 * LIR_MAX_REGS + c->ntmps[BANK_GP] + c->ntmps[BANK_FP];
}

uint32_t lir_tmp_index(const Code *c, Tmp t)
{
    return ra_tmp_index(c, t);
}

Tmp lir_tmp_of_index(const Code *c, uint32_t i)
{
    if (i < 2 * LIR_MAX_REGS)
        return tmp_reg(i < LIR_MAX_REGS ? BANK_GP : BANK_FP, i % LIR_MAX_REGS);
    i -= 2 * LIR_MAX_REGS;
    if (i < c->ntmps[BANK_GP])
        return tmp_virtual(BANK_GP, i);
    return tmp_virtual(BANK_FP, i - c->ntmps[BANK_GP]);
}

/* ---- operands ------------------------------------------------------------------ */
/* room for need operands in *ops (capacity *cap, first growth to at least initial) */
static void reserve_operands(Operand **ops, uint32_t *cap, uint32_t need, uint32_t initial)
{
    if (need <= *cap && *ops)
        return;
    uint32_t ncap = *cap ? 2 * *cap : initial;
    while (ncap < need)
        ncap *= 2;
    Operand *p = realloc(*ops, ncap * sizeof *p);
    if (!p)
        abort();
    *ops = p;
    *cap = ncap;
}

/* the most operands an instruction of overload o can have */
static uint32_t max_operands(const Inst *inst, const LirOverload *o)
{
    const CallInfo *ci = (o->flags & LF_CALL) ? inst->call : NULL;
    return 2 * (LIR_MAX_ARGS + (ci ? ci->nuses + ci->ndefs : 0));
}

static inline void push_operand(const Code *c, OperandList *l, Tmp *t, Role role, Bank bank, Width width,
                                int arg)
{
    uint8_t timing = role_timing(role);
    l->ops[l->n++] = (Operand){ t, ra_tmp_index(c, *t), (uint8_t)role, timing, (uint8_t)bank, width, (int8_t)arg };
    l->timing |= timing;
}

/* the tmps of one argument as lir_for_each_tmp reports them */
static inline void operands_of_arg(const Code *c, OperandList *l, Arg *a, Role role, Bank bank, Width width,
                                   int arg)
{
    switch ((ArgKind)a->kind) {
    case ARG_TMP:
        if (a->base != TMP_NONE)
            push_operand(c, l, &a->base, role, bank, width, arg);
        break;
    case ARG_INDEX:
        if (a->index != TMP_NONE)
            push_operand(c, l, &a->index, ROLE_USE, BANK_GP, 64, -1);
        /* fall through */
    case ARG_ADDR:
        if (a->base != TMP_NONE)
            push_operand(c, l, &a->base, ROLE_USE, BANK_GP, 64, -1);
        break;
    default:
        break;
    }
}

static Bank call_arg_bank(const Arg *a) { return a->kind == ARG_TMP ? tmp_bank(a->base) : BANK_GP; }

static void call_operands(const Code *c, CallInfo *ci, OperandList *list)
{
    for (uint32_t i = 0; i < ci->nuses; i++)
        operands_of_arg(c, list, &ci->uses[i], ROLE_USE, call_arg_bank(&ci->uses[i]),
                        ci->use_widths ? ci->use_widths[i] : 64, -1);
    for (uint32_t i = 0; i < ci->ndefs; i++)
        operands_of_arg(c, list, &ci->defs[i], ROLE_DEF, call_arg_bank(&ci->defs[i]),
                        ci->def_widths ? ci->def_widths[i] : 64, -1);
}

/* the operands of inst (overload o) appended to list, which has room for them */
static void append_operands(const Code *c, Inst *inst, const LirOverload *o, OperandList *list)
{
    for (unsigned i = 0; i < o->nargs; i++)
        operands_of_arg(c, list, &inst->args[i], (Role)o->args[i].role, (Bank)o->args[i].bank,
                        o->args[i].width, (int)i);
    if ((o->flags & LF_CALL) && inst->call)
        call_operands(c, inst->call, list);
}

bool ra_operands(const Code *c, Inst *inst, OperandList *list)
{
    list->n = 0;
    list->timing = 0;
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    if (!o)
        return false;
    reserve_operands(&list->ops, &list->cap, max_operands(inst, o), 16);
    append_operands(c, inst, o, list);
    return true;
}

OperandList ra_inst_operands(const LirLiveness *l, uint32_t n)
{
    OperandList list = { l->ops + l->ops_at[n], l->ops_at[n + 1] - l->ops_at[n], 0, 0 };
    list.cap = list.n;
    for (uint32_t i = 0; i < list.n; i++)
        list.timing |= list.ops[i].timing;
    return list;
}

/* ---- dataflow ------------------------------------------------------------------- */
typedef struct {
    uint64_t *gen, *kill;
} BlockSets;

/* the operands used at one fence post (RT_EARLY_USE or RT_LATE_USE): generated
 * unless defined before in the block */
static void note_uses(const OperandList *ops, unsigned when, const BlockSets *s)
{
    for (uint32_t i = 0; i < ops->n; i++)
        if ((ops->ops[i].timing & when) && !bit_get(s->kill, ops->ops[i].index))
            bit_set(s->gen, ops->ops[i].index);
}

static void note_defs(const OperandList *ops, unsigned when, const BlockSets *s)
{
    for (uint32_t i = 0; i < ops->n; i++)
        if (ops->ops[i].timing & when)
            bit_set(s->kill, ops->ops[i].index);
}

static void gen_kill_inst(const Inst *inst, const OperandList *ops, const BlockSets *s)
{
    if (ops->timing & RT_EARLY_USE)
        note_uses(ops, RT_EARLY_USE, s);
    if (ops->timing & RT_EARLY_DEF)
        note_defs(ops, RT_EARLY_DEF, s);
    if (ops->timing & RT_LATE_USE)
        note_uses(ops, RT_LATE_USE, s);
    if (ops->timing & RT_LATE_DEF)
        note_defs(ops, RT_LATE_DEF, s);
    if (!inst->call)
        return;
    for (unsigned b = 0; b < BANK_COUNT; b++) {
        uint64_t clobbers = lir_inst_clobbers(inst, (Bank)b);
        for (; clobbers; clobbers &= clobbers - 1)
            bit_set(s->kill, b * LIR_MAX_REGS + (uint32_t)__builtin_ctzll(clobbers));
    }
}

/* room for need operands in the store (arena memory, grown uncleared) */
static void reserve_store(LirLiveness *l, uint32_t need)
{
    if (need <= l->capops)
        return;
    uint32_t ncap = l->capops ? 2 * l->capops : 64;
    while (ncap < need)
        ncap *= 2;
    l->ops = arena_grow_raw(l->arena, l->ops, (size_t)l->capops * sizeof *l->ops, (size_t)ncap * sizeof *l->ops);
    l->capops = ncap;
}

/* the operands of block b's instructions (the first is global instruction first)
 * added to the store, and the block's gen/kill sets from them; false if an
 * instruction has no overload */
static bool block_gen_kill(LirLiveness *l, LirBlock *b, uint32_t first, const BlockSets *s)
{
    for (uint32_t i = 0; i < b->ninsts; i++) {
        Inst *inst = &b->insts[i];
        const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
        if (!o)
            return false;
        reserve_store(l, l->nops + max_operands(inst, o));
        OperandList ops = { l->ops + l->nops, 0, l->capops - l->nops, 0 };
        append_operands(l->code, inst, o, &ops);
        l->ops_at[first + i] = l->nops;
        l->nops += ops.n;
        gen_kill_inst(inst, &ops, s);
    }
    return true;
}

/* the operands of a block the refresh keeps (ninsts instructions, first global
 * number old_first before, first now) copied from the store before it; they
 * still point into the block's instructions, which did not move */
static void keep_block_operands(LirLiveness *l, const Operand *old_ops, const uint32_t *old_at,
                                uint32_t old_first, uint32_t first, uint32_t ninsts)
{
    uint32_t from = old_at[old_first], n = old_at[old_first + ninsts] - from;
    reserve_store(l, l->nops + n);
    if (n)
        memcpy(l->ops + l->nops, old_ops + from, n * sizeof *l->ops);
    for (uint32_t i = 0; i < ninsts; i++)
        l->ops_at[first + i] = old_at[old_first + i] - from + l->nops;
    l->nops += n;
}

/* out = union of successors' in; in = gen | (out & ~kill); true if in changed */
static bool transfer(LirLiveness *l, uint32_t b)
{
    const LirBlock *blk = l->code->blocks[b];
    const uint64_t *gen = l->gen + (size_t)b * l->words, *kill = l->kill + (size_t)b * l->words;
    uint64_t *out = l->live_out + (size_t)b * l->words;
    uint64_t *in = l->live_in + (size_t)b * l->words;
    for (uint32_t k = 0; k < blk->nsuccs; k++) {
        if (blk->succs[k] >= l->nblocks)
            continue;
        const uint64_t *sin = l->live_in + (size_t)blk->succs[k] * l->words;
        for (uint32_t w = 0; w < l->words; w++)
            out[w] |= sin[w];
    }
    bool changed = false;
    for (uint32_t w = 0; w < l->words; w++) {
        uint64_t v = gen[w] | (out[w] & ~kill[w]);
        changed |= v != in[w];
        in[w] = v;
    }
    return changed;
}

/* a new, empty operand store for ninsts instructions */
static void new_store(LirLiveness *l, uint32_t ninsts)
{
    l->ops = NULL;
    l->nops = l->capops = 0;
    l->ops_at = arena_alloc_raw(l->arena, ((size_t)ninsts + 1) * sizeof *l->ops_at);
    reserve_store(l, 4 * ninsts + 16);
}

static uint32_t count_insts(const Code *c)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < c->nblocks; b++)
        n += c->blocks[b]->ninsts;
    return n;
}

/* operands and gen/kill of the blocks marked in redo (all, on cleared sets, if
 * NULL; the others' operands kept), block positions, then the live sets from
 * empty to the fixpoint; false if an instruction has no overload */
static bool solve(LirLiveness *l, const bool *redo)
{
    Code *c = l->code;
    const Operand *old_ops = l->ops;
    const uint32_t *old_at = l->ops_at;
    new_store(l, count_insts(c));
    bool ok = true;
    l->ninsts = 0;
    for (uint32_t b = 0; ok && b < l->nblocks; b++) {
        uint32_t old_first = l->first_inst[b], ninsts = c->blocks[b]->ninsts;
        l->first_inst[b] = l->ninsts;
        l->ninsts += ninsts;
        if (redo && !redo[b]) {
            keep_block_operands(l, old_ops, old_at, old_first, l->first_inst[b], ninsts);
            continue;
        }
        BlockSets s = { l->gen + (size_t)b * l->words, l->kill + (size_t)b * l->words };
        if (redo) {
            memset(s.gen, 0, l->words * 8);
            memset(s.kill, 0, l->words * 8);
        }
        ok = block_gen_kill(l, c->blocks[b], l->first_inst[b], &s);
    }
    if (!ok)
        return false;
    l->first_inst[l->nblocks] = l->ninsts;
    l->ops_at[l->ninsts] = l->nops;
    if (redo) {
        memset(l->live_in, 0, (size_t)l->nblocks * l->words * 8);
        memset(l->live_out, 0, (size_t)l->nblocks * l->words * 8);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = l->nblocks; b-- > 0;)
            changed |= transfer(l, b);
    }
    return true;
}

LirLiveness *lir_liveness(Arena *arena, Code *c)
{
    LirLiveness *l = arena_alloc(arena, sizeof *l);
    l->code = c;
    l->arena = arena;
    l->ntmps = lir_tmp_count(c);
    l->words = (l->ntmps + 63) / 64;
    l->nblocks = c->nblocks;
    size_t nbits = (size_t)l->nblocks * l->words + 1;
    l->live_in = arena_alloc(arena, nbits * 8);
    l->live_out = arena_alloc(arena, nbits * 8);
    l->first_inst = arena_alloc(arena, (l->nblocks + 1) * sizeof *l->first_inst);
    l->gen = arena_alloc(arena, nbits * 8);
    l->kill = arena_alloc(arena, nbits * 8);
    return solve(l, NULL) ? l : NULL;
}

bool lir_liveness_refresh(LirLiveness *l, const bool *changed)
{
    return l->code->nblocks == l->nblocks && lir_tmp_count(l->code) == l->ntmps && solve(l, changed);
}

bool lir_live_in(const LirLiveness *l, uint32_t block, Tmp t)
{
    uint32_t i = lir_tmp_index(l->code, t);
    return block < l->nblocks && i < l->ntmps && bit_get(l->live_in + (size_t)block * l->words, i);
}

bool lir_live_out(const LirLiveness *l, uint32_t block, Tmp t)
{
    uint32_t i = lir_tmp_index(l->code, t);
    return block < l->nblocks && i < l->ntmps && bit_get(l->live_out + (size_t)block * l->words, i);
}

const uint64_t *lir_live_in_set(const LirLiveness *l, uint32_t block)
{
    return l->live_in + (size_t)block * l->words;
}

const uint64_t *lir_live_out_set(const LirLiveness *l, uint32_t block)
{
    return l->live_out + (size_t)block * l->words;
}
