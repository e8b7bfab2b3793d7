/* liveness.c — dense tmp numbering, the tmp operands of an instruction with their
 * roles (made once per instruction and kept with the liveness for interval
 * building and rewriting), and live-in/live-out sets of every block by backward
 * dataflow at fence posts: early uses read before early defs write, late uses
 * read before late defs (and call clobbers) write.  Needs instructions with
 * overloads. */
#include "ra_internal.h"
#include "grow.h"

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
/* the most operands an instruction of overload o can have */
static uint32_t max_operands(const Inst *inst, const LirOverload *o)
{
    const CallInfo *ci = (o->flags & LF_CALL) ? inst->call : NULL;
    return 2 * (LIR_MAX_ARGS + (ci ? ci->nuses + ci->ndefs : 0));
}

static inline void push_operand(const Code *c, OperandList *l, Tmp t, unsigned at, Role role, Bank bank,
                                Width width, int arg)
{
    uint8_t timing = role_timing(role);
    l->ops[l->n++] = (Operand){ ra_tmp_index(c, t), (uint8_t)role, timing, (uint8_t)bank, width, (int8_t)arg,
                                (uint16_t)at };
    l->timing |= timing;
}

/* the tmps of one argument (in slot: ra_operand_tmp) as lir_for_each_tmp reports them */
static inline void operands_of_arg(const Code *c, OperandList *l, const Arg *a, unsigned slot, Role role,
                                   Bank bank, Width width, int arg)
{
    switch ((ArgKind)a->kind) {
    case ARG_TMP:
        if (a->base != TMP_NONE)
            push_operand(c, l, a->base, 2 * slot, role, bank, width, arg);
        break;
    case ARG_INDEX:
        if (a->index != TMP_NONE)
            push_operand(c, l, a->index, 2 * slot + 1, ROLE_USE, BANK_GP, 64, -1);
        /* fall through */
    case ARG_ADDR:
        if (a->base != TMP_NONE)
            push_operand(c, l, a->base, 2 * slot, ROLE_USE, BANK_GP, 64, -1);
        break;
    default:
        break;
    }
}

static Bank call_arg_bank(const Arg *a) { return a->kind == ARG_TMP ? tmp_bank(a->base) : BANK_GP; }

static void call_operands(const Code *c, const CallInfo *ci, OperandList *list)
{
    if (ci->nuses + ci->ndefs > OPERAND_MAX_CALL_ARGS)
        abort(); /* a call reads and writes registers only: a few dozen at most */
    for (uint32_t i = 0; i < ci->nuses; i++)
        operands_of_arg(c, list, &ci->uses[i], OPERAND_CALL_SLOT + i, ROLE_USE, call_arg_bank(&ci->uses[i]),
                        ci->use_widths ? ci->use_widths[i] : 64, -1);
    for (uint32_t i = 0; i < ci->ndefs; i++)
        operands_of_arg(c, list, &ci->defs[i], OPERAND_CALL_SLOT + ci->nuses + i, ROLE_DEF,
                        call_arg_bank(&ci->defs[i]), ci->def_widths ? ci->def_widths[i] : 64, -1);
}

/* the operands of inst (overload o) appended to list, which has room for them */
static inline void append_operands(const Code *c, const Inst *inst, const LirOverload *o, OperandList *list)
{
    for (unsigned i = 0; i < o->nargs; i++)
        operands_of_arg(c, list, &inst->args[i], i, (Role)o->args[i].role, (Bank)o->args[i].bank,
                        o->args[i].width, (int)i);
    if ((o->flags & LF_CALL) && inst->call)
        call_operands(c, inst->call, list);
}

OperandList ra_inst_operands(const LirLiveness *l, uint32_t n)
{
    OperandList list = { l->ops + l->ops_at[n], l->ops_at[n + 1] - l->ops_at[n], 0, 0 };
    list.cap = list.n;
    for (uint32_t i = 0; i < list.n; i++)
        list.timing |= list.ops[i].timing;
    return list;
}

void ra_release_operands(LirLiveness *l)
{
    arena_release(l->arena, l->ops, (size_t)l->capops * sizeof *l->ops);
    arena_release(l->arena, l->ops_at, ((size_t)l->ninsts + 1) * sizeof *l->ops_at);
    l->ops = NULL;
    l->ops_at = NULL;
    l->nops = l->capops = 0;
}

OperandList ra_operands_again(const Code *c, const Inst *inst, Operand **buf, uint32_t *cap)
{
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    uint32_t need = o ? max_operands(inst, o) : 0;
    if (need > *cap && !lir_grow_array((void **)buf, cap, need, sizeof **buf))
        abort();
    OperandList list = { *buf, 0, *cap, 0 };
    if (o)
        append_operands(c, inst, o, &list);
    return list;
}

OperandList ra_operands_of(const LirLiveness *l, const Inst *inst, uint32_t n, Operand **buf, uint32_t *cap)
{
    return l->ops ? ra_inst_operands(l, n) : ra_operands_again(l->code, inst, buf, cap);
}

uint64_t ra_operand_store_bytes(const LirLiveness *l) { return (uint64_t)l->capops * sizeof *l->ops; }

/* ---- operand store -------------------------------------------------------------- */
/* room for need operands in the store (arena memory, grown uncleared) */
static void reserve_store(LirLiveness *l, uint32_t need)
{
    if (need <= l->capops)
        return;
    uint32_t ncap = l->capops ? 2 * l->capops : 64;
    while (ncap < need)
        ncap *= 2;
    l->ops = arena_resize(l->arena, l->ops, (size_t)l->capops * sizeof *l->ops, (size_t)ncap * sizeof *l->ops);
    l->capops = ncap;
}

/* the operands of block b's instructions (the first is global instruction first)
 * added to the store; false if an instruction has no overload */
static bool block_operands(LirLiveness *l, LirBlock *b, uint32_t first)
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
    }
    return true;
}

/* the operands of a block the refresh keeps (ninsts instructions, first global
 * number old_first before, first now) copied from the store before it */
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

/* a new, empty operand store for ninsts instructions */
static void new_store(LirLiveness *l, uint32_t ninsts)
{
    l->ops = NULL;
    l->nops = l->capops = 0;
    l->ops_at = arena_alloc_raw(l->arena, ((size_t)ninsts + 1) * sizeof *l->ops_at);
    reserve_store(l, 4 * ninsts + 16);
}

/* the store's room cut to the operands it holds (a large store gives the rest back) */
static void fit_store(LirLiveness *l)
{
    l->ops = arena_resize(l->arena, l->ops, (size_t)l->capops * sizeof *l->ops, (size_t)l->nops * sizeof *l->ops);
    l->capops = l->nops;
}

static uint32_t count_insts(const Code *c)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < c->nblocks; b++)
        n += c->blocks[b]->ninsts;
    return n;
}

/* the operand store made again for the blocks marked in redo (all if NULL; the
 * others' operands kept), and block positions; false if an instruction has no
 * overload */
static bool make_store(LirLiveness *l, const bool *redo)
{
    Code *c = l->code;
    Operand *old_ops = l->ops;
    uint32_t *old_at = l->ops_at;
    size_t old_bytes = (size_t)l->capops * sizeof *l->ops, old_at_bytes = ((size_t)l->ninsts + 1) * sizeof *l->ops_at;
    new_store(l, count_insts(c));
    l->ninsts = 0;
    for (uint32_t b = 0; b < l->nblocks; b++) {
        uint32_t old_first = l->first_inst[b], ninsts = c->blocks[b]->ninsts;
        l->first_inst[b] = l->ninsts;
        l->ninsts += ninsts;
        if (redo && !redo[b])
            keep_block_operands(l, old_ops, old_at, old_first, l->first_inst[b], ninsts);
        else if (!block_operands(l, c->blocks[b], l->first_inst[b]))
            return false;
    }
    l->first_inst[l->nblocks] = l->ninsts;
    l->ops_at[l->ninsts] = l->nops;
    fit_store(l);
    arena_release(l->arena, old_ops, old_bytes);
    arena_release(l->arena, old_at, old_at_bytes);
    return true;
}

/* ---- dataflow -------------------------------------------------------------------
 * Sparse: per tmp, the blocks that read it before writing it (gen) and the blocks
 * that write it (kill); then, tmp by tmp, the blocks it is live into and out of,
 * found by walking predecessors backwards from its gen blocks (path exploration).
 * The sets are the least fixpoint of out = union of successors' in, in = gen | (out
 * & ~kill), the same as the iterative solution; time and memory are linear in the
 * operands plus the size of the sets. */
typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} PairVec; /* (key, value) pairs, flat */

static void pair_push(PairVec *p, uint32_t key, uint32_t value)
{
    if (p->n + 2 > p->cap && !lir_grow_array((void **)&p->v, &p->cap, p->n + 2, sizeof *p->v))
        abort();
    p->v[p->n++] = key;
    p->v[p->n++] = value;
}

/* counts at[0..n) made into offsets, room for the entries from arena; false (and
 * nothing allocated) if there are more than max entries */
static bool counts_to_offsets(Arena *arena, LiveSets *s, uint32_t n, uint64_t max)
{
    uint64_t total = 0;
    for (uint32_t b = 0; b < n; b++)
        total += s->at[b];
    if (total > max)
        return false;
    total = 0;
    for (uint32_t b = 0; b < n; b++) {
        uint32_t c = s->at[b];
        s->at[b] = (uint32_t)total;
        total += c;
    }
    s->at[n] = (uint32_t)total;
    s->tmps = arena_alloc_raw(arena, ((size_t)total + 1) * sizeof *s->tmps);
    return true;
}

/* after filling, at[b] is the end of block b: shift back to starts */
static void ends_to_starts(LiveSets *s, uint32_t n)
{
    for (uint32_t b = n; b > 0; b--)
        s->at[b] = s->at[b - 1];
    s->at[0] = 0;
}

/* the values of pairs grouped by key (< nkeys): group k is tmps[at[k] .. at[k + 1]),
 * in the pairs' order; at and tmps from arena */
static LiveSets group_pairs(Arena *arena, const PairVec *p, uint32_t nkeys)
{
    LiveSets s = { arena_alloc(arena, ((size_t)nkeys + 1) * sizeof *s.at), NULL };
    for (uint32_t i = 0; i < p->n; i += 2)
        s.at[p->v[i]]++;
    counts_to_offsets(arena, &s, nkeys, UINT32_MAX - 1); /* pairs held in memory: fits */
    for (uint32_t i = 0; i < p->n; i += 2)
        s.tmps[s.at[p->v[i]]++] = p->v[i + 1];
    ends_to_starts(&s, nkeys);
    return s;
}

typedef struct {
    PairVec gen, kill;          /* (tmp, block) */
    uint32_t *gen_mark, *kill_mark; /* per tmp: block + 1 that last generated / killed it */
    uint32_t block;
} GenKill;

static void note_uses(GenKill *g, const OperandList *ops, unsigned when)
{
    for (uint32_t i = 0; i < ops->n; i++) {
        uint32_t t = ops->ops[i].index;
        if ((ops->ops[i].timing & when) && g->kill_mark[t] != g->block + 1 && g->gen_mark[t] != g->block + 1) {
            g->gen_mark[t] = g->block + 1;
            pair_push(&g->gen, t, g->block);
        }
    }
}

static void note_kill(GenKill *g, uint32_t t)
{
    if (g->kill_mark[t] == g->block + 1)
        return;
    g->kill_mark[t] = g->block + 1;
    pair_push(&g->kill, t, g->block);
}

static void note_defs(GenKill *g, const OperandList *ops, unsigned when)
{
    for (uint32_t i = 0; i < ops->n; i++)
        if (ops->ops[i].timing & when)
            note_kill(g, ops->ops[i].index);
}

/* the gen and kill pairs of an instruction's operands, and of a call's clobbers
 * (inst NULL: its operands only) */
static void gen_kill_inst(GenKill *g, const Inst *inst, const OperandList *ops)
{
    if (ops->timing & RT_EARLY_USE)
        note_uses(g, ops, RT_EARLY_USE);
    if (ops->timing & RT_EARLY_DEF)
        note_defs(g, ops, RT_EARLY_DEF);
    if (ops->timing & RT_LATE_USE)
        note_uses(g, ops, RT_LATE_USE);
    if (ops->timing & RT_LATE_DEF)
        note_defs(g, ops, RT_LATE_DEF);
    if (!inst || !inst->call)
        return;
    for (unsigned b = 0; b < BANK_COUNT; b++) {
        uint64_t clobbers = lir_inst_clobbers(inst, (Bank)b);
        for (; clobbers; clobbers &= clobbers - 1)
            note_kill(g, b * LIR_MAX_REGS + (uint32_t)__builtin_ctzll(clobbers));
    }
}

/* the per-tmp marks of a gen and kill walk (freed by the walk) */
static void gen_kill_marks(const LirLiveness *l, GenKill *g)
{
    g->gen_mark = calloc((size_t)l->ntmps + 1, sizeof *g->gen_mark);
    g->kill_mark = calloc((size_t)l->ntmps + 1, sizeof *g->kill_mark);
    if (!g->gen_mark || !g->kill_mark)
        abort();
}

/* the gen and kill pairs of every block, from the operand store */
static void gen_kill(const LirLiveness *l, GenKill *g)
{
    gen_kill_marks(l, g);
    for (g->block = 0; g->block < l->nblocks; g->block++) {
        const LirBlock *blk = l->code->blocks[g->block];
        for (uint32_t i = 0; i < blk->ninsts; i++) {
            OperandList ops = ra_inst_operands(l, l->first_inst[g->block] + i);
            gen_kill_inst(g, &blk->insts[i], &ops);
        }
    }
    free(g->gen_mark);
    free(g->kill_mark);
}

/* The walk runs twice: first counting each block's sets (the at arrays hold the
 * counts), then, with at made into offsets, writing them in place (at[b] is the next
 * free entry of block b and ends as the start of block b + 1).  Marks hold
 * mark_base + tmp + 1, mark_base new for each run. */
typedef struct {
    LiveSets gen, kill, preds;  /* per tmp: gen and kill blocks; per block: predecessors */
    uint32_t *in_mark, *out_mark, *kill_mark; /* per block: the mark of the last tmp */
    uint32_t mark_base;
    LiveSets in;                /* the result: counting (tmps NULL), then filling */
    uint32_t *stack;
    const uint8_t *only;        /* the tmps to explore (NULL: all) */
} Flow;

/* block b gets tmp t in set s (counted while s->tmps is NULL) */
static inline void set_add(LiveSets *s, uint32_t b, uint32_t t)
{
    if (s->tmps)
        s->tmps[s->at[b]++] = t;
    else
        s->at[b]++;
}

/* the predecessors of every block (edges to blocks out of range ignored) */
static LiveSets predecessors(Arena *arena, const LirLiveness *l)
{
    PairVec p = { 0 };
    for (uint32_t b = 0; b < l->nblocks; b++) {
        const LirBlock *blk = l->code->blocks[b];
        for (uint32_t k = 0; k < blk->nsuccs; k++)
            if (blk->succs[k] < l->nblocks)
                pair_push(&p, blk->succs[k], b);
    }
    LiveSets s = group_pairs(arena, &p, l->nblocks);
    free(p.v);
    return s;
}

/* tmp t (mark m) live into block b (pushed to be walked from) unless known */
static void mark_in(Flow *f, uint32_t b, uint32_t t, uint32_t m, uint32_t *sp)
{
    if (f->in_mark[b] == m)
        return;
    f->in_mark[b] = m;
    set_add(&f->in, b, t);
    f->stack[(*sp)++] = b;
}

/* the blocks tmp t is live into and out of */
static void explore(Flow *f, uint32_t t)
{
    uint32_t m = f->mark_base + t + 1, sp = 0;
    for (uint32_t k = f->kill.at[t]; k < f->kill.at[t + 1]; k++)
        f->kill_mark[f->kill.tmps[k]] = m;
    for (uint32_t k = f->gen.at[t]; k < f->gen.at[t + 1]; k++)
        mark_in(f, f->gen.tmps[k], t, m, &sp);
    while (sp) {
        uint32_t b = f->stack[--sp];
        for (uint32_t k = f->preds.at[b]; k < f->preds.at[b + 1]; k++) {
            uint32_t p = f->preds.tmps[k];
            if (f->out_mark[p] == m)
                continue;
            f->out_mark[p] = m;
            if (f->kill_mark[p] != m)
                mark_in(f, p, t, m, &sp);
        }
    }
}

static void explore_all(Flow *f, uint32_t ntmps)
{
    for (uint32_t t = 0; t < ntmps; t++)
        if (f->gen.at[t] < f->gen.at[t + 1] && (!f->only || f->only[t]))
            explore(f, t);
}

void ra_release_live_sets(LirLiveness *l)
{
    if (!l->in.at)
        return;
    arena_release(l->arena, l->in.tmps, ((size_t)l->in.at[l->nblocks] + 1) * sizeof *l->in.tmps);
    memset(l->in.at, 0, ((size_t)l->nblocks + 1) * sizeof *l->in.at); /* every set empty */
    l->in.tmps = NULL;
}

/* the live-in sets of the tmps marked in only (all if NULL) from the operand store,
 * in sets from sets_arena (the scratch arena holds the rest); false if they hold
 * more than l->max_pairs (tmp, block) pairs */
static bool flow_sets(const LirLiveness *l, const uint8_t *only, Arena *scratch, Arena *sets_arena, LiveSets *out)
{
    GenKill g = { 0 };
    gen_kill(l, &g);
    size_t nb = (size_t)l->nblocks + 1;
    Flow f = { group_pairs(scratch, &g.gen, l->ntmps), group_pairs(scratch, &g.kill, l->ntmps),
               predecessors(scratch, l), arena_alloc(scratch, nb * 4), arena_alloc(scratch, nb * 4),
               arena_alloc(scratch, nb * 4), 0, { arena_alloc(sets_arena, nb * 4), NULL },
               arena_alloc_raw(scratch, nb * 4), only };
    free(g.gen.v);
    free(g.kill.v);
    explore_all(&f, l->ntmps);
    if (!counts_to_offsets(sets_arena, &f.in, l->nblocks, l->max_pairs))
        return false;
    f.mark_base = l->ntmps;
    explore_all(&f, l->ntmps);
    ends_to_starts(&f.in, l->nblocks);
    *out = f.in;
    return true;
}

/* l's live-in sets replaced by sets (allocated in l->arena) */
static void replace_sets(LirLiveness *l, LiveSets sets)
{
    if (l->in.at) {
        arena_release(l->arena, l->in.tmps, ((size_t)l->in.at[l->nblocks] + 1) * sizeof *l->in.tmps);
        arena_release(l->arena, l->in.at, ((size_t)l->nblocks + 1) * sizeof *l->in.at);
    }
    l->in = sets;
}

/* the live-in sets from the operand store (the live-out sets are their unions over
 * successors: lir_live_out_list); the sets of a refresh replace the old ones; false
 * if they hold more than l->max_pairs (tmp, block) pairs */
static bool solve_sets(LirLiveness *l)
{
    Arena *scratch = arena_new();
    LiveSets sets;
    bool ok = flow_sets(l, NULL, scratch, l->arena, &sets);
    if (ok)
        replace_sets(l, sets);
    arena_free(scratch);
    return ok;
}

/* operands of the blocks marked in redo (all if NULL; the others' kept), block
 * positions, then the live sets; false if an instruction has no overload */
static bool solve(LirLiveness *l, const bool *redo)
{
    return make_store(l, redo) && solve_sets(l);
}

LirLiveness *lir_liveness(Arena *arena, Code *c) { return lir_liveness_within(arena, c, LIR_LIVE_PAIRS_MAX); }

LirLiveness *lir_liveness_within(Arena *arena, Code *c, uint64_t max_pairs)
{
    LirLiveness *l = arena_alloc(arena, sizeof *l);
    l->code = c;
    l->max_pairs = max_pairs < LIR_LIVE_PAIRS_MAX ? max_pairs : LIR_LIVE_PAIRS_MAX;
    l->whole_below = RA_REFRESH_WHOLE_BELOW;
    l->arena = arena;
    l->ntmps = lir_tmp_count(c);
    l->nblocks = c->nblocks;
    l->first_inst = arena_alloc(arena, (l->nblocks + 1) * sizeof *l->first_inst);
    return solve(l, NULL) ? l : NULL;
}

/* ---- a refresh after some blocks changed ---------------------------------------
 * A tmp's live blocks follow from its gen and kill blocks and the edges alone, and a
 * refresh keeps the edges.  So it explores again only the tmps whose gen or kill
 * blocks changed (they are compared in each changed block before and after; the
 * physical registers always count as changed, for the calls' clobbers) and keeps every other tmp's
 * blocks: the same sets as a full solve, for the changed tmps' walks and one merge
 * of the sets.  Sets of fewer than l->whole_below pairs are solved whole. */
typedef struct {
    GenKill before, after;  /* the changed blocks' gen and kill pairs, block by block */
    uint32_t *stamp;        /* per tmp: which block and list last marked it */
    uint8_t *affected;      /* per tmp: its gen or kill blocks changed */
} Refresh;

/* the gen and kill pairs of the blocks marked in changed, from their operands alone
 * (their instructions may have changed since the store was made) */
static void changed_gen_kill(const LirLiveness *l, const bool *changed, GenKill *g)
{
    gen_kill_marks(l, g);
    for (g->block = 0; g->block < l->nblocks; g->block++) {
        if (!changed[g->block])
            continue;
        for (uint32_t i = l->first_inst[g->block]; i < l->first_inst[g->block + 1]; i++) {
            OperandList ops = ra_inst_operands(l, i);
            gen_kill_inst(g, NULL, &ops);
        }
    }
    free(g->gen_mark);
    free(g->kill_mark);
}

/* the pairs of block `block` from *ia in a (before) and *ib in b (after), pairs being
 * (tmp, block) block by block: a tmp in one but not the other is marked affected;
 * stamps s and s + 1 are this block's and this list's */
static void compare_block(Refresh *r, const PairVec *a, uint32_t *ia, const PairVec *b, uint32_t *ib,
                          uint32_t block, uint32_t s)
{
    uint32_t a0 = *ia;
    for (; *ia < a->n && a->v[*ia + 1] == block; *ia += 2)
        r->stamp[a->v[*ia]] = s;
    for (; *ib < b->n && b->v[*ib + 1] == block; *ib += 2) {
        uint32_t t = b->v[*ib];
        if (r->stamp[t] == s)
            r->stamp[t] = s + 1;
        else
            r->affected[t] = 1;
    }
    for (uint32_t k = a0; k < *ia; k += 2)
        if (r->stamp[a->v[k]] == s)
            r->affected[a->v[k]] = 1;
}

/* every physical register marked affected: a call's clobbers are kills the operand
 * pairs leave out, and a call that changed or went took its old ones along */
static void mark_registers(Refresh *r)
{
    memset(r->affected, 1, BANK_COUNT * LIR_MAX_REGS);
}

/* r->affected from the changed blocks' pairs before and after */
static void find_affected(const LirLiveness *l, const bool *changed, Refresh *r)
{
    uint32_t ga = 0, gb = 0, ka = 0, kb = 0;
    for (uint32_t b = 0; b < l->nblocks; b++) {
        if (!changed[b])
            continue;
        compare_block(r, &r->before.gen, &ga, &r->after.gen, &gb, b, 4 * b + 1);
        compare_block(r, &r->before.kill, &ka, &r->after.kill, &kb, b, 4 * b + 3);
    }
    mark_registers(r);
}

/* the new sets: each block's old set without the affected tmps, merged with the
 * affected tmps' new set (both ascending); false if over l->max_pairs */
static bool merge_sets_kept(LirLiveness *l, const LiveSets *fresh, const uint8_t *affected)
{
    size_t nb = (size_t)l->nblocks + 1;
    LiveSets out = { arena_alloc(l->arena, nb * sizeof *out.at), NULL };
    for (uint32_t b = 0; b < l->nblocks; b++) {
        uint32_t n = fresh->at[b + 1] - fresh->at[b];
        for (uint32_t k = l->in.at[b]; k < l->in.at[b + 1]; k++)
            n += !affected[l->in.tmps[k]];
        out.at[b] = n;
    }
    if (!counts_to_offsets(l->arena, &out, l->nblocks, l->max_pairs)) {
        arena_release(l->arena, out.at, nb * sizeof *out.at);
        return false;
    }
    for (uint32_t b = 0; b < l->nblocks; b++) {
        uint32_t i = l->in.at[b], j = fresh->at[b], w = out.at[b];
        while (i < l->in.at[b + 1] || j < fresh->at[b + 1]) {
            if (i < l->in.at[b + 1] && affected[l->in.tmps[i]]) {
                i++;
                continue;
            }
            bool old = j == fresh->at[b + 1] || (i < l->in.at[b + 1] && l->in.tmps[i] < fresh->tmps[j]);
            out.tmps[w++] = old ? l->in.tmps[i++] : fresh->tmps[j++];
        }
    }
    replace_sets(l, out);
    return true;
}

/* the sets again for the tmps whose gen or kill changed in the changed blocks */
static bool refresh_changed(LirLiveness *l, const bool *changed)
{
    Arena *scratch = arena_new();
    Refresh r = { .stamp = arena_alloc(scratch, ((size_t)l->ntmps + 1) * sizeof *r.stamp),
                  .affected = arena_alloc(scratch, (size_t)l->ntmps + 1) };
    changed_gen_kill(l, changed, &r.before);
    bool ok = make_store(l, changed);
    LiveSets fresh;
    if (ok) {
        changed_gen_kill(l, changed, &r.after);
        find_affected(l, changed, &r);
        ok = flow_sets(l, r.affected, scratch, scratch, &fresh) && merge_sets_kept(l, &fresh, r.affected);
    }
    free(r.before.gen.v), free(r.before.kill.v), free(r.after.gen.v), free(r.after.kill.v);
    arena_free(scratch);
    return ok;
}

bool lir_liveness_refresh(LirLiveness *l, const bool *changed)
{
    if (l->code->nblocks != l->nblocks || lir_tmp_count(l->code) != l->ntmps)
        return false;
    bool by_tmp = changed && l->in.tmps && l->in.at[l->nblocks] >= l->whole_below;
    return by_tmp ? refresh_changed(l, changed) : solve(l, changed);
}

/* is dense index i in block b's set of s (sorted) */
static bool set_has(const LiveSets *s, uint32_t b, uint32_t i)
{
    uint32_t lo = s->at[b], hi = s->at[b + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->tmps[mid] == i)
            return true;
        if (s->tmps[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

bool lir_live_in(const LirLiveness *l, uint32_t block, Tmp t)
{
    uint32_t i = lir_tmp_index(l->code, t);
    return block < l->nblocks && i < l->ntmps && set_has(&l->in, block, i);
}

bool lir_live_out(const LirLiveness *l, uint32_t block, Tmp t)
{
    uint32_t i = lir_tmp_index(l->code, t);
    if (block >= l->nblocks || i >= l->ntmps)
        return false;
    const LirBlock *b = l->code->blocks[block];
    for (uint32_t k = 0; k < b->nsuccs; k++)
        if (b->succs[k] < l->nblocks && set_has(&l->in, b->succs[k], i))
            return true;
    return false;
}

uint32_t lir_live_in_list(const LirLiveness *l, uint32_t block, const uint32_t **tmps)
{
    static const uint32_t none[1];
    if (!l->in.tmps) { /* given back */
        *tmps = none;
        return 0;
    }
    *tmps = l->in.tmps + l->in.at[block];
    return l->in.at[block + 1] - l->in.at[block];
}

/* the sorted union of a and b (na, nb entries) into out */
static uint32_t merge_sets(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb, uint32_t *out)
{
    uint32_t i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
        uint32_t x = j == nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
        i += i < na && a[i] == x;
        j += j < nb && b[j] == x;
        out[n++] = x;
    }
    return n;
}

/* room for n entries in l's live-out buffer (which may move) */
static uint32_t *out_buffer(LirLiveness *l, uint32_t n)
{
    if (n > l->capout) {
        uint32_t cap = l->capout ? l->capout : 64;
        while (cap < n)
            cap *= 2;
        l->outbuf = arena_resize(l->arena, l->outbuf, (size_t)l->capout * sizeof *l->outbuf,
                                 (size_t)cap * sizeof *l->outbuf);
        l->capout = cap;
    }
    return l->outbuf;
}

/* The live-out set of a block is the union of its successors' live-in sets: the one
 * set itself for a block with one successor (or one that is not empty), else merged
 * in the buffer, each merge written after the one before it. */
uint32_t lir_live_out_list(LirLiveness *l, uint32_t block, const uint32_t **tmps)
{
    static const uint32_t none[1];
    const LirBlock *b = l->code->blocks[block];
    const uint32_t *cur = none;
    uint32_t n = 0, at = 0; /* cur: n entries, in the buffer from at if merged */
    bool merged = false;
    for (uint32_t k = 0; k < b->nsuccs; k++) {
        const uint32_t *set;
        uint32_t nset = b->succs[k] < l->nblocks ? lir_live_in_list(l, b->succs[k], &set) : 0;
        if (!nset)
            continue;
        if (!n) {
            cur = set, n = nset;
            continue;
        }
        uint32_t to = merged ? at + n : 0;
        uint32_t *buf = out_buffer(l, to + n + nset);
        if (merged)
            cur = buf + at;
        n = merge_sets(cur, n, set, nset, buf + to);
        cur = buf + to, at = to, merged = true;
    }
    *tmps = cur;
    return n;
}
