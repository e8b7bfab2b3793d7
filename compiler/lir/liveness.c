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
    Bank b = tmp_bank(t);
    if (tmp_is_reg(t))
        return (uint32_t)b * LIR_MAX_REGS + tmp_reg_number(t);
    uint32_t base = 2 * LIR_MAX_REGS + (b == BANK_FP ? c->ntmps[BANK_GP] : 0);
    return base + tmp_virtual_index(t);
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
static void push_operand(OperandList *l, Operand op)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? 2 * l->cap : 16;
        Operand *p = realloc(l->ops, ncap * sizeof *p);
        if (!p)
            abort();
        l->ops = p;
        l->cap = ncap;
    }
    l->ops[l->n++] = op;
}

typedef struct {
    OperandList *list;
    Inst *inst;
} OperandWalk;

static void operand_of_arg(void *ctx, Arg *a, Role role, Bank bank, Width width)
{
    OperandWalk *w = ctx;
    bool own = a >= w->inst->args && a < w->inst->args + LIR_MAX_ARGS;
    int8_t idx = own ? (int8_t)(a - w->inst->args) : -1;
    switch ((ArgKind)a->kind) {
    case ARG_TMP:
        if (a->base != TMP_NONE)
            push_operand(w->list, (Operand){ &a->base, (uint8_t)role, (uint8_t)bank, width, idx });
        break;
    case ARG_INDEX:
        if (a->index != TMP_NONE)
            push_operand(w->list, (Operand){ &a->index, ROLE_USE, BANK_GP, 64, -1 });
        /* fall through */
    case ARG_ADDR:
        if (a->base != TMP_NONE)
            push_operand(w->list, (Operand){ &a->base, ROLE_USE, BANK_GP, 64, -1 });
        break;
    default:
        break;
    }
}

bool ra_operands(Inst *inst, OperandList *list)
{
    list->n = 0;
    OperandWalk w = { list, inst };
    return lir_for_each_arg(inst, operand_of_arg, &w);
}

/* ---- dataflow ------------------------------------------------------------------- */
typedef struct {
    uint64_t *gen, *kill;
} BlockSets;

static void note_use(const BlockSets *s, uint32_t t)
{
    if (!bit_get(s->kill, t))
        bit_set(s->gen, t);
}

static void gen_kill_inst(const Code *c, Inst *inst, OperandList *ops, const BlockSets *s)
{
    for (int phase = 0; phase < 4; phase++) {
        for (uint32_t i = 0; i < ops->n; i++) {
            Role r = (Role)ops->ops[i].role;
            uint32_t t = lir_tmp_index(c, *ops->ops[i].tmp);
            if ((phase == 0 && role_is_early_use(r)) || (phase == 2 && role_is_late_use(r)))
                note_use(s, t);
            if ((phase == 1 && role_is_early_def(r)) || (phase == 3 && role_is_late_def(r)))
                bit_set(s->kill, t);
        }
        if (phase == 3)
            for (unsigned b = 0; b < BANK_COUNT; b++) {
                uint64_t clobbers = lir_inst_clobbers(inst, (Bank)b);
                for (unsigned reg = 0; reg < LIR_MAX_REGS && clobbers >> reg; reg++)
                    if ((clobbers >> reg) & 1)
                        bit_set(s->kill, b * LIR_MAX_REGS + reg);
            }
    }
}

static bool block_gen_kill(Code *c, LirBlock *b, OperandList *ops, const BlockSets *s)
{
    for (uint32_t i = 0; i < b->ninsts; i++) {
        if (!ra_operands(&b->insts[i], ops))
            return false;
        gen_kill_inst(c, &b->insts[i], ops, s);
    }
    return true;
}

/* out = union of successors' in; in = gen | (out & ~kill); true if in changed */
static bool transfer(LirLiveness *l, uint32_t b, const uint64_t *gen, const uint64_t *kill)
{
    const LirBlock *blk = l->code->blocks[b];
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
    uint64_t *gen = arena_alloc(arena, nbits * 8), *kill = arena_alloc(arena, nbits * 8);
    OperandList ops = { 0 };
    bool ok = true;
    for (uint32_t b = 0; ok && b < l->nblocks; b++) {
        l->first_inst[b] = l->ninsts;
        l->ninsts += c->blocks[b]->ninsts;
        BlockSets s = { gen + (size_t)b * l->words, kill + (size_t)b * l->words };
        ok = block_gen_kill(c, c->blocks[b], &ops, &s);
    }
    free(ops.ops);
    if (!ok)
        return NULL;
    l->first_inst[l->nblocks] = l->ninsts;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = l->nblocks; b-- > 0;)
            changed |= transfer(l, b, gen + (size_t)b * l->words, kill + (size_t)b * l->words);
    }
    return l;
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
