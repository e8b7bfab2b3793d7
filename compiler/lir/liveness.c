/* liveness.c — dense tmp numbering, the tmp operands of an instruction with their
 * roles, and live-in/live-out sets of every block by backward dataflow at
 * fence posts: early uses read before early defs write, late uses read before
 * late defs (and call clobbers) write.  Needs instructions with overloads. */
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
void ra_reserve_operands(Operand **ops, uint32_t *cap, uint32_t need, uint32_t initial)
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

/* room for every operand of an instruction with ncall call uses and defs */
static void reserve_operands(OperandList *l, uint32_t ncall)
{
    uint32_t need = 2 * (LIR_MAX_ARGS + ncall);
    if (need > l->cap)
        ra_reserve_operands(&l->ops, &l->cap, need, 16);
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

bool ra_operands(const Code *c, Inst *inst, OperandList *list)
{
    list->n = 0;
    list->timing = 0;
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    if (!o)
        return false;
    CallInfo *ci = (o->flags & LF_CALL) ? inst->call : NULL;
    reserve_operands(list, ci ? ci->nuses + ci->ndefs : 0);
    for (unsigned i = 0; i < o->nargs; i++)
        operands_of_arg(c, list, &inst->args[i], (Role)o->args[i].role, (Bank)o->args[i].bank,
                        o->args[i].width, (int)i);
    if (ci)
        call_operands(c, ci, list);
    return true;
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

static bool block_gen_kill(Code *c, LirBlock *b, OperandList *ops, const BlockSets *s)
{
    for (uint32_t i = 0; i < b->ninsts; i++) {
        if (!ra_operands(c, &b->insts[i], ops))
            return false;
        gen_kill_inst(&b->insts[i], ops, s);
    }
    return true;
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

/* gen/kill of the blocks marked in redo (all, on cleared sets, if NULL), block
 * positions, then the live sets from empty to the fixpoint; false if an
 * instruction has no overload */
static bool solve(LirLiveness *l, const bool *redo)
{
    Code *c = l->code;
    OperandList ops = { 0 };
    bool ok = true;
    l->ninsts = 0;
    for (uint32_t b = 0; ok && b < l->nblocks; b++) {
        l->first_inst[b] = l->ninsts;
        l->ninsts += c->blocks[b]->ninsts;
        if (redo && !redo[b])
            continue;
        BlockSets s = { l->gen + (size_t)b * l->words, l->kill + (size_t)b * l->words };
        if (redo) {
            memset(s.gen, 0, l->words * 8);
            memset(s.kill, 0, l->words * 8);
        }
        ok = block_gen_kill(c, c->blocks[b], &ops, &s);
    }
    free(ops.ops);
    if (!ok)
        return false;
    l->first_inst[l->nblocks] = l->ninsts;
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
