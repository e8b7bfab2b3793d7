/* resolve.c — after the linear scan: spill slots for spilled tmps (shared between
 * tmps whose lifetimes do not overlap), rewriting every operand to its register or
 * slot, moves where a split interval changes location inside a block, and
 * resolution: parallel moves on control-flow edges where a tmp's location at the
 * end of the predecessor differs from the one at the start of the successor
 * (critical edges get a block of their own).  Needs the intervals of regalloc.c. */
#include "grow.h"
#include "parmove.h"
#include "ra_internal.h"
#include "compiler/lir/mcov.h"

#include <stdlib.h>
#include <string.h>

#define SCRATCH_PLACEHOLDER0 (UINT32_MAX - 1)
#define SCRATCH_PLACEHOLDER1 (UINT32_MAX - 2)

/* ---- spill slots ---------------------------------------------------------------------- */
static bool needs_slot(const Interval *parent)
{
    for (uint32_t k = 0; k < parent->nchildren; k++)
        if (parent->children[k]->spilled)
            return true;
    return false;
}

static int by_start(const void *a, const void *b)
{
    const Interval *x = *(Interval *const *)a, *y = *(Interval *const *)b;
    uint32_t sx = iv_start(x), sy = iv_start(y);
    return sx < sy ? -1 : sx > sy ? 1 : (x->tmp > y->tmp) - (x->tmp < y->tmp);
}

static uint32_t lifetime_end(const Interval *parent)
{
    return iv_end(parent->children[parent->nchildren - 1]);
}

bool ra_assign_spill_slots(RaCtx *c)
{
    Interval **spilled = malloc((c->ntmps + 1) * sizeof *spilled);
    uint32_t *busy_until = malloc((c->ntmps + 1) * sizeof *busy_until);
    int32_t *slot_of = malloc((c->ntmps + 1) * sizeof *slot_of);
    if (!spilled || !busy_until || !slot_of)
        abort();
    uint32_t n = 0, nshared = 0;
    for (uint32_t t = 2 * LIR_MAX_REGS; t < c->ntmps; t++)
        if (c->ivs[t] && c->ivs[t]->nranges && needs_slot(c->ivs[t]))
            spilled[n++] = c->ivs[t];
    qsort(spilled, n, sizeof *spilled, by_start);
    for (uint32_t i = 0; i < n; i++) {
        Interval *p = spilled[i];
        uint32_t k = 0;
        if (!c->opt->no_share_slots)
            while (k < nshared && busy_until[k] > iv_start(p))
                k++;
        else
            k = nshared;
        if (k == nshared) {
            slot_of[nshared] = (int32_t)lir_add_slot(c->code, 8, 8, false);
            nshared++;
        }
        busy_until[k] = lifetime_end(p);
        p->slot = slot_of[k];
    }
    free(spilled);
    free(busy_until);
    free(slot_of);
    return true;
}

/* ---- locations -------------------------------------------------------------------------- */
static LirLoc loc_of(const Interval *piece)
{
    if (piece->spilled)
        return (LirLoc){ 1, BANK_GP, (uint32_t)piece->parent->slot };
    return (LirLoc){ 0, piece->bank, (uint32_t)piece->reg };
}

static bool same_loc(LirLoc a, LirLoc b)
{
    return a.is_slot == b.is_slot && a.index == b.index && (a.is_slot || a.bank == b.bank);
}

/* ---- move groups -------------------------------------------------------------------------- */
typedef struct {
    LirMove *v;
    uint32_t n, cap;
} MoveList;

static void move_push(MoveList *l, LirMove m)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? 2 * l->cap : 8;
        LirMove *p = realloc(l->v, ncap * sizeof *p);
        if (!p)
            abort();
        l->v = p;
        l->cap = ncap;
    }
    l->v[l->n++] = m;
}

typedef struct {
    Inst *v;
    uint32_t n, cap;
} InstList;

static void inst_push(InstList *l, Inst in)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? 2 * l->cap : 32;
        Inst *p = realloc(l->v, ncap * sizeof *p);
        if (!p)
            abort();
        l->v = p;
        l->cap = ncap;
    }
    l->v[l->n++] = in;
}

/* Which register is free at a gap: the ranges of every piece holding each register
 * (fixed intervals included), sorted by start, with the running maximum of their
 * ends, so that "does some range cover p" is one binary search. */
typedef struct RegSpans {
    LiveRange *v;     /* by from */
    uint32_t *max_to; /* max_to[i]: the largest end among v[0..i] */
    uint32_t n;
} RegSpans;

static RegSpans *spans_of(RegSpans *all, Bank b, int reg)
{
    return reg >= 0 && reg < LIR_MAX_REGS ? &all[(unsigned)b * LIR_MAX_REGS + (unsigned)reg] : NULL;
}

/* count (fill false) or add (fill true) the ranges of every piece holding a register */
static void spans_walk(RaCtx *c, RegSpans *all, bool fill)
{
    for (uint32_t t = 0; t < c->ntmps; t++) {
        Interval *iv = c->ivs[t];
        uint32_t npieces = !iv ? 0 : iv->fixed ? 1 : iv->nchildren;
        for (uint32_t k = 0; k < npieces; k++) {
            Interval *piece = iv->fixed ? iv : iv->children[k];
            RegSpans *sp = spans_of(all, (Bank)iv->bank, piece->reg);
            for (uint32_t i = 0; sp && i < piece->nranges; i++) {
                if (fill)
                    sp->v[sp->n] = piece->ranges[i];
                sp->n++;
            }
        }
    }
}

static int by_from(const void *a, const void *b)
{
    const LiveRange *x = a, *y = b;
    return x->from != y->from ? (x->from < y->from ? -1 : 1) : (x->to > y->to) - (x->to < y->to);
}

static void build_spans(RaCtx *c)
{
    RegSpans *all = arena_alloc(c->arena, BANK_COUNT * LIR_MAX_REGS * sizeof *all);
    spans_walk(c, all, false);
    for (unsigned i = 0; i < BANK_COUNT * LIR_MAX_REGS; i++) {
        all[i].v = arena_alloc_raw(c->arena, (all[i].n + 1) * sizeof *all[i].v);
        all[i].max_to = arena_alloc_raw(c->arena, (all[i].n + 1) * sizeof *all[i].max_to);
        all[i].n = 0;
    }
    spans_walk(c, all, true);
    for (unsigned i = 0; i < BANK_COUNT * LIR_MAX_REGS; i++) {
        RegSpans *sp = &all[i];
        if (sp->n > 1)
            qsort(sp->v, sp->n, sizeof *sp->v, by_from);
        for (uint32_t k = 0; k < sp->n; k++)
            sp->max_to[k] = k && sp->max_to[k - 1] > sp->v[k].to ? sp->max_to[k - 1] : sp->v[k].to;
    }
    c->busy = all;
}

/* does a range of sp cover p: the last range starting at or before p, and the
 * largest end up to it */
static bool spans_cover(const RegSpans *sp, uint32_t p)
{
    uint32_t lo = 0, hi = sp->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sp->v[mid].from <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && sp->max_to[lo - 1] > p;
}

/* is register r of bank b held by any interval at p1 or p2 */
static bool reg_busy(RaCtx *c, Bank b, unsigned r, uint32_t p1, uint32_t p2)
{
    if (!c->busy)
        build_spans(c);
    const RegSpans *sp = spans_of(c->busy, b, (int)r);
    return sp && (spans_cover(sp, p1) || spans_cover(sp, p2));
}

static bool named_by_moves(const MoveList *m, Bank b, unsigned r)
{
    LirLoc loc = { 0, (uint8_t)b, r };
    for (uint32_t i = 0; i < m->n; i++)
        if (same_loc(m->v[i].src, loc) || same_loc(m->v[i].dst, loc))
            return true;
    return false;
}

static int free_reg_at(RaCtx *c, const MoveList *m, Bank b, uint32_t p1, uint32_t p2)
{
    for (unsigned k = 0; k < c->norder[b]; k++) {
        unsigned r = c->order[b][k];
        if (!named_by_moves(m, b, r) && !reg_busy(c, b, r, p1, p2))
            return (int)r;
    }
    return -1;
}

/* a cycle that is not all GP registers, or a slot-to-slot move, needs a temporary */
static bool may_need_temp(const MoveList *m)
{
    for (uint32_t i = 0; i < m->n; i++)
        if (m->v[i].src.bank == BANK_FP || m->v[i].dst.bank == BANK_FP ||
            (m->v[i].src.is_slot && m->v[i].dst.is_slot))
            return true;
    return false;
}

static bool is_scratch(LirLoc l)
{
    return l.is_slot && (l.index == SCRATCH_PLACEHOLDER0 || l.index == SCRATCH_PLACEHOLDER1);
}

static bool uses_scratch_slot(const ParMoveStep *steps, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (is_scratch(steps[i].a) || is_scratch(steps[i].b))
            return true;
    return false;
}

static uint32_t scratch_slot(RaCtx *c, uint32_t placeholder)
{
    int which = placeholder == SCRATCH_PLACEHOLDER0 ? 0 : 1;
    if (c->scratch_slot[which] < 0)
        c->scratch_slot[which] = (int32_t)lir_add_slot(c->code, 8, 8, false);
    return (uint32_t)c->scratch_slot[which];
}

static Arg loc_arg(RaCtx *c, LirLoc l)
{
    if (!l.is_slot)
        return arg_tmp(tmp_reg((Bank)l.bank, l.index));
    uint32_t s = l.index;
    if (s == SCRATCH_PLACEHOLDER0 || s == SCRATCH_PLACEHOLDER1)
        s = scratch_slot(c, s);
    return arg_stack(s, 0);
}

static Inst step_inst(RaCtx *c, const ParMoveStep *st)
{
    Arg args[2] = { loc_arg(c, st->a), loc_arg(c, st->b) };
    if (st->op == PM_SWAP)
        return lir_inst(LIR_Swap64, 2, args);
    Bank b = !st->a.is_slot ? (Bank)st->a.bank : !st->b.is_slot ? (Bank)st->b.bank : BANK_GP;
    return lir_inst(b == BANK_FP ? LIR_MoveDouble : LIR_Move, 2, args);
}

/* the parallel copy m as instructions appended to out; p1, p2: the positions on
 * either side of the point where it happens */
static void emit_parallel(RaCtx *c, MoveList *m, uint32_t p1, uint32_t p2, InstList *out)
{
    if (!m->n)
        return;
    ParMoveScratch sc = { { -1, -1 }, { SCRATCH_PLACEHOLDER0, SCRATCH_PLACEHOLDER1 }, 0 };
    sc.borrow_gp = c->norder[BANK_GP] ? c->order[BANK_GP][0] : 0;
    ParMoveStep *steps = malloc(LIR_PARMOVE_MAX_STEPS(m->n) * sizeof *steps);
    if (!steps)
        abort();
    uint32_t n = lir_parallel_moves(m->v, m->n, &sc, steps);
    /* a temporary was needed: a free register, if any, saves the memory traffic
     * (looked for only then: it takes a walk over every interval) */
    if (may_need_temp(m) && uses_scratch_slot(steps, n)) {
        sc.free_reg[BANK_GP] = free_reg_at(c, m, BANK_GP, p1, p2);
        sc.free_reg[BANK_FP] = free_reg_at(c, m, BANK_FP, p1, p2);
        n = lir_parallel_moves(m->v, m->n, &sc, steps);
        mcov_idiom(c->code->cov, uses_scratch_slot(steps, n) ? MCOV_PARMOVE_SLOT : MCOV_PARMOVE_FREE_REG);
    }
    for (uint32_t i = 0; i < n; i++)
        inst_push(out, step_inst(c, &steps[i]));
    free(steps);
    m->n = 0;
}

/* ---- rewriting operands ------------------------------------------------------------------ */
static uint32_t operand_pos(const Operand *o, uint32_t n)
{
    return o->timing & (RT_EARLY_USE | RT_EARLY_DEF) ? pos_early(n) : pos_late(n);
}

static bool rewrite_inst(RaCtx *c, Inst *inst, uint32_t n)
{
    /* the instruction is as it was when the intervals were built: its operands
     * are the liveness's (made again if a large store was given back), and its fold
     * candidate (only a spilled piece needs one) is found on it before any operand
     * is rewritten */
    int fold = c->spilled_any ? ra_fold_arg(c, inst, n) : -1;
    OperandList ops = ra_operands_of(c->live, inst, n, &c->again, &c->cap_again);
    int fold_slot = -1;
    for (uint32_t i = 0; i < ops.n; i++) {
        const Operand *o = &ops.ops[i];
        Tmp *t = ra_operand_tmp(inst, o);
        if (!tmp_is_virtual(*t))
            continue;
        Interval *piece = ra_child_at(c->ivs[o->index], operand_pos(o, n));
        if (piece->reg >= 0)
            *t = tmp_reg((Bank)piece->bank, (unsigned)piece->reg);
        else if (piece->spilled && o->arg >= 0 && o->arg == fold)
            fold_slot = piece->parent->slot;
        else
            return ra_fail(c, "instruction %u: an operand was left without a location", n);
    }
    if (fold_slot >= 0)
        inst->args[fold] = arg_stack((uint32_t)fold_slot, 0);
    return true;
}

static bool is_self_move(const Inst *in)
{
    if (in->op != LIR_Move && in->op != LIR_MoveDouble && in->op != LIR_MoveFloat)
        return false;
    return in->nargs == 2 && in->args[0].kind == ARG_TMP && in->args[1].kind == ARG_TMP &&
           in->args[0].base == in->args[1].base;
}

/* ---- where locations change ----------------------------------------------------------------- */
typedef struct {
    uint32_t n;     /* the moves go before global instruction n */
    bool second;    /* stores for pieces ending after n's early uses: a second
                       parallel copy after the gap's first (they read its results) */
    LirMove move;
} GapMove;

typedef struct {
    GapMove *v;
    uint32_t n, cap;
} GapList;

static void gap_push(GapList *l, GapMove g)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? 2 * l->cap : 32;
        GapMove *p = realloc(l->v, ncap * sizeof *p);
        if (!p)
            abort();
        l->v = p;
        l->cap = ncap;
    }
    l->v[l->n++] = g;
}

static int by_gap(const void *a, const void *b)
{
    const GapMove *x = a, *y = b;
    if (x->n != y->n)
        return (x->n > y->n) - (x->n < y->n);
    return (x->second > y->second) - (x->second < y->second);
}

static bool is_block_start(const RaCtx *c, uint32_t n)
{
    return c->live->first_inst[c->block_of[n]] == n;
}

static void collect_split_moves(RaCtx *c, GapList *gaps)
{
    for (uint32_t t = 2 * LIR_MAX_REGS; t < c->ntmps; t++) {
        Interval *p = c->ivs[t];
        if (!p)
            continue;
        for (uint32_t k = 1; k < p->nchildren; k++) {
            Interval *a = p->children[k - 1], *b = p->children[k];
            uint32_t at = iv_start(b);
            /* at a gap (block starts: the edges' moves), or right after the early
             * uses of an instruction: a store in the gap before it */
            if (iv_end(a) != at || (at & 3) == 1 || (at & 3) == 3 || (!(at & 3) && is_block_start(c, at / 4)))
                continue;
            LirMove m = { loc_of(a), loc_of(b) };
            if (!same_loc(m.src, m.dst))
                gap_push(gaps, (GapMove){ at / 4, (at & 3) == 2, m });
        }
    }
    if (gaps->n)
        qsort(gaps->v, gaps->n, sizeof *gaps->v, by_gap);
}

static uint32_t block_end_pos(const RaCtx *c, uint32_t b) { return 4 * c->live->first_inst[b + 1] - 1; }
static uint32_t block_start_pos(const RaCtx *c, uint32_t b) { return 4 * c->live->first_inst[b]; }

/* the move of tmp t on edge b -> s, if its location changes there */
static void tmp_edge_move(RaCtx *c, uint32_t t, uint32_t b, uint32_t s, MoveList *out)
{
    if (c->ivs[t]->nchildren <= 1)
        return; /* one piece: one location everywhere */
    LirLoc from = loc_of(ra_child_at(c->ivs[t], block_end_pos(c, b)));
    LirLoc to = loc_of(ra_child_at(c->ivs[t], block_start_pos(c, s)));
    if (!same_loc(from, to))
        move_push(out, (LirMove){ from, to });
}

/* the moves of edge b -> s, in tmp order */
static void edge_moves(RaCtx *c, uint32_t b, uint32_t s, MoveList *out)
{
    const LiveSets *in = &c->live->in;
    for (uint32_t k = in->at[s]; k < in->at[s + 1]; k++) {
        uint32_t t = in->tmps[k];
        if (t >= 2 * LIR_MAX_REGS && t < c->ntmps && c->ivs[t] && c->ivs[t]->nranges) /* virtual tmps only */
            tmp_edge_move(c, t, b, s, out);
    }
}

/* ---- rebuilding the blocks ------------------------------------------------------------------- */
typedef struct {
    MoveList *out_moves;   /* per block: its only outgoing edge's moves, before the terminator */
    uint32_t *out_succ;
    MoveList *in_moves;    /* per block: its only incoming edge's moves, at its start */
    uint32_t *in_pred;
} EdgePlan;

static void copy_moves(MoveList *dst, const MoveList *src)
{
    for (uint32_t i = 0; i < src->n; i++)
        move_push(dst, src->v[i]);
}

/* does block b stay as it is: no moves go into it and it has no self-move to drop */
static bool block_unchanged(const RaCtx *c, uint32_t b, const GapList *gaps, uint32_t gi, const EdgePlan *plan)
{
    const LirBlock *blk = c->code->blocks[b];
    if (plan->in_moves[b].n || plan->out_moves[b].n ||
        (gi < gaps->n && gaps->v[gi].n < c->live->first_inst[b] + blk->ninsts))
        return false;
    for (uint32_t i = 0; i < blk->ninsts; i++)
        if (is_self_move(&blk->insts[i]))
            return false;
    return true;
}

/* A large block is rewritten in its own array: the output (its instructions with
 * the moves between them) is written from the front; an input instruction not yet
 * read whose slot is written over waits in a queue, so the memory needed beyond the
 * array is the moves written so far, not a second copy of the block.  A small block
 * is written to a list and copied back into its array when it fits, else into a new
 * one of its exact size (an arena array that is not the last allocation cannot
 * shrink). */
typedef struct {
    Code *code;
    LirBlock *blk;
    uint32_t nin;     /* input instructions */
    uint32_t moved;   /* inputs [0, moved) have left the array (read, or queued) */
    uint32_t w;       /* next output slot */
    InstList queue;   /* the queued inputs not read yet, from queue_head */
    uint32_t queue_head;
    InstList out;     /* a small block's output */
    bool in_place;
} InPlace;

enum { IN_PLACE_BYTES = 64 << 10 }; /* from this size an arena array can shrink */

static void in_place_put(InPlace *p, Inst in)
{
    if (!p->in_place) {
        inst_push(&p->out, in);
        return;
    }
    if (p->w == p->moved && p->moved < p->nin)
        inst_push(&p->queue, p->blk->insts[p->moved++]);
    if (p->w == p->blk->capinsts)
        p->blk->insts = lir_arena_resize_array(p->code->arena, p->blk->insts, &p->blk->capinsts, p->w + 1,
                                               sizeof *p->blk->insts);
    p->blk->insts[p->w++] = in;
}

/* input instruction i (read in order) */
static Inst in_place_take(InPlace *p, uint32_t i)
{
    if (!p->in_place)
        return p->blk->insts[i];
    if (i < p->moved) {
        Inst in = p->queue.v[p->queue_head++];
        if (p->queue_head == p->queue.n)
            p->queue.n = p->queue_head = 0;
        return in;
    }
    p->moved = i + 1;
    return p->blk->insts[i];
}

/* the parallel copy m written out (emit_parallel) */
static void in_place_moves(RaCtx *c, InPlace *p, MoveList *m, uint32_t p1, uint32_t p2, InstList *tmp)
{
    tmp->n = 0;
    emit_parallel(c, m, p1, p2, tmp);
    for (uint32_t k = 0; k < tmp->n; k++)
        in_place_put(p, tmp->v[k]);
}

static void rebuild_block(RaCtx *c, uint32_t b, const GapList *gaps, uint32_t *gi, EdgePlan *plan)
{
    if (block_unchanged(c, b, gaps, *gi, plan))
        return;
    LirBlock *blk = c->code->blocks[b];
    uint32_t first = c->live->first_inst[b];
    InPlace p = { c->code, blk, blk->ninsts, 0, 0, { 0 }, 0, { 0 }, blk->capinsts * sizeof(Inst) >= IN_PLACE_BYTES };
    InstList tmp = { 0 };
    MoveList m = { 0 };
    if (plan->in_moves[b].n) {
        copy_moves(&m, &plan->in_moves[b]);
        in_place_moves(c, &p, &m, block_end_pos(c, plan->in_pred[b]), block_start_pos(c, b), &tmp);
    }
    for (uint32_t i = 0; i < p.nin; i++) {
        uint32_t n = first + i;
        for (int second = 0; second < 2; second++) {
            while (*gi < gaps->n && gaps->v[*gi].n == n && gaps->v[*gi].second == second)
                move_push(&m, gaps->v[(*gi)++].move);
            in_place_moves(c, &p, &m, 4 * n - 1, 4 * n, &tmp);
        }
        if (i + 1 == p.nin && plan->out_moves[b].n) {
            copy_moves(&m, &plan->out_moves[b]);
            in_place_moves(c, &p, &m, block_end_pos(c, b), block_start_pos(c, plan->out_succ[b]), &tmp);
        }
        Inst in = in_place_take(&p, i);
        if (!is_self_move(&in))
            in_place_put(&p, in);
    }
    if (p.in_place) {
        blk->ninsts = p.w;
        lir_fit_block(c->code, blk);
    } else if (p.out.n <= blk->capinsts) {
        memcpy(blk->insts, p.out.v, p.out.n * sizeof *p.out.v);
        blk->ninsts = p.out.n;
    } else {
        arena_release(c->code->arena, blk->insts, (size_t)blk->capinsts * sizeof *blk->insts);
        blk->insts = arena_memdup(c->code->arena, p.out.v, p.out.n * sizeof *p.out.v);
        blk->ninsts = blk->capinsts = p.out.n;
    }
    free(p.out.v);
    free(p.queue.v);
    free(tmp.v);
    free(m.v);
}

/* a new block on the critical edge b -> succs[k] holding the moves */
static void split_edge(RaCtx *c, uint32_t b, uint32_t k, MoveList *m)
{
    LirBlock *pred = c->code->blocks[b];
    uint32_t s = pred->succs[k];
    InstList out = { 0 };
    emit_parallel(c, m, block_end_pos(c, b), block_start_pos(c, s), &out);
    inst_push(&out, lir_inst(LIR_Jump, 0, NULL));
    double freq = pred->frequency / (pred->nsuccs ? pred->nsuccs : 1);
    LirBlock *nb = lir_add_block(c->code, freq);
    for (uint32_t i = 0; i < out.n; i++)
        lir_append(c->code, nb, (LirOp)out.v[i].op, out.v[i].nargs, out.v[i].args);
    lir_add_succ(c->code, nb, s);
    c->code->blocks[b]->succs[k] = nb->index;
    free(out.v);
}

static void plan_edges(RaCtx *c, EdgePlan *plan, MoveList *critical)
{
    uint32_t nb = c->live->nblocks;
    for (uint32_t b = 0; b < nb; b++) {
        LirBlock *blk = c->code->blocks[b];
        for (uint32_t k = 0; k < blk->nsuccs; k++) {
            uint32_t s = blk->succs[k];
            MoveList m = { 0 };
            edge_moves(c, b, s, &m);
            if (!m.n) {
                free(m.v);
                continue;
            }
            if (blk->nsuccs == 1) {
                plan->out_moves[b] = m;
                plan->out_succ[b] = s;
            } else if (s != 0 && c->code->blocks[s]->npreds == 1) {
                plan->in_moves[s] = m;
                plan->in_pred[s] = b;
            } else {
                critical[b * 2 + k] = m;
            }
        }
    }
}

bool ra_resolve_and_rewrite(RaCtx *c)
{
    uint32_t nb = c->live->nblocks;
    EdgePlan plan = {
        calloc(nb + 1, sizeof(MoveList)), calloc(nb + 1, sizeof(uint32_t)),
        calloc(nb + 1, sizeof(MoveList)), calloc(nb + 1, sizeof(uint32_t)),
    };
    MoveList *critical = calloc(2 * nb + 1, sizeof *critical);
    GapList gaps = { 0 };
    if (!plan.out_moves || !plan.out_succ || !plan.in_moves || !plan.in_pred || !critical)
        abort();
    collect_split_moves(c, &gaps);
    plan_edges(c, &plan, critical);
    ra_release_live_sets(c->live);
    for (uint32_t b = 0; b < nb && !c->failed; b++)
        for (uint32_t i = 0; i < c->code->blocks[b]->ninsts && !c->failed; i++)
            rewrite_inst(c, &c->code->blocks[b]->insts[i], c->live->first_inst[b] + i);
    ra_release_operands(c->live);
    uint32_t gi = 0;
    for (uint32_t b = 0; b < nb && !c->failed; b++)
        rebuild_block(c, b, &gaps, &gi, &plan);
    for (uint32_t e = 0; e < 2 * nb && !c->failed; e++)
        if (critical[e].n)
            split_edge(c, e / 2, e % 2, &critical[e]);
    for (uint32_t b = 0; b < nb; b++) {
        free(plan.out_moves[b].v);
        free(plan.in_moves[b].v);
        free(critical[2 * b].v);
        free(critical[2 * b + 1].v);
    }
    free(plan.out_moves);
    free(plan.out_succ);
    free(plan.in_moves);
    free(plan.in_pred);
    free(critical);
    free(gaps.v);
    lir_compute_preds(c->code);
    return !c->failed;
}
