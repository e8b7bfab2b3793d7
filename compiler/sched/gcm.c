/* gcm.c — global code motion (Click 1995) of a function's computation gates onto the
 * blocks of its state graph, and the order of the gates inside each block.
 * Needs: blocks, dominators and loops (cfg.c, dom.c, loops.c).
 *
 * Which gates: those demanded on some path (live): reachable backwards from a
 * reachable state gate's data/dependency inputs through data and dependency wires;
 * a selector reached this way is live and demands its inputs.
 *
 * Where (DESIGN.md §3, docs/semantics.md):
 *   - selectors sit on their join's block (block parameters);
 *   - a demand point of gate g: the block of a state gate using g (branch condition,
 *     RETURN/THROW operand), the end of predecessor j of a join whose live selector
 *     takes g as input j, or the block(s) of a scheduled gate using g;
 *   - early(g): the deepest block (in the dominator tree) among its inputs' early
 *     blocks (a relay: also its state's block); late(g): the LCA of its demand points;
 *   - a pure gate that cannot trap goes to the block of least loop depth on the
 *     dominator path from late up to early (the lowest one among equals), but leaves
 *     a loop only while that loop's register budget allows (below);
 *   - a gate that may trap (SDIV SREM UDIV UREM LOAD; not a division by a constant
 *     other than 0 and signed -1), an effect (LOAD STORE CALL), a DEPEND_RELAY, and
 *     a gate reading one of these ("guarded") is never speculated, and runs where the
 *     reference interpreter first demands it, so that traps and effects happen in the
 *     same order (the heap at a trap is part of the outcome): at late if late is a
 *     demand block; else a copy in each block of first demand (demand blocks that no
 *     other demand block reaches before the gate's inputs change, i.e. before a back
 *     edge of a loop containing early), if those cover every path to the others.
 *     Failing that, a pure gate is copied into every demand block (re-running it is
 *     harmless), and an effect goes to late if it is anticipated there (demanded on
 *     every path from it before its inputs change), else the function cannot be
 *     scheduled without speculation (an error naming the gate).  An effect never
 *     sits in a loop that does not contain early (it would run again for the same
 *     instance): it first moves up out of such loops.
 * Register pressure (SchedOptions.regs): a value hoisted out of a loop is live
 * throughout it.  Per loop and register bank the budget is the bank's registers less
 * what is live throughout the loop anyway, counted as the loop header's selectors
 * (loop-carried values) of that bank, and less LOOP_WORK_REGS for the loop's own work;
 * each hoist out of the loop takes one.  Gates are placed users first (schedule_late),
 * so the hoists that come first are those nearest the loop's uses.  A gate that would
 * leave a loop without budget stays in it, at the least-depth block inside it: it is
 * recomputed each iteration instead of spilled (the lowest-cost block that dominates
 * its uses, late, is where a gate placed in a branch sinks to anyway).
 * Order inside a block: a depth-first postorder over inputs (dependencies before data,
 * as the reference interpreter demands them): first the guarded part of what the
 * terminator demands (RETURN/THROW: dependency then value; a branch: its condition;
 * a goto into a join: the live selectors' inputs for that edge, in selector order),
 * then the gates placed here for later blocks (effects first, then by gate id), then
 * the rest of the terminator's operands (a compare right before its branch).  Unless
 * no_motion, interleave.c then list-schedules all but that last part so independent
 * chains interleave. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    BlockId *v;
    uint32_t n, cap;
} BlockList;

typedef struct {
    Schedule *s;
    const Circuit *c;
    Diag *d;
    const SchedOptions *opt;
    uint8_t *live;      /* per gate */
    uint8_t *guarded;   /* per gate: may trap, is an effect or a relay, or (transitively)
                           reads one: never placed where it is not demanded */
    BlockId *early;     /* per gate */
    BlockList *copies;  /* per gate placed in several blocks */
    GateId *topo;       /* live non-selector computation gates, inputs before users */
    uint32_t ntopo;
    uint8_t *ant;       /* per block scratch */
    uint8_t *demand;    /* per block scratch */
    BlockId *queue;     /* per block scratch */
    uint32_t *list_mark; /* per block: the list_gen of the list that holds it */
    uint32_t list_gen;  /* the list being built (one at a time) */
    uint32_t *reached;  /* per block: reach_gen if the current walk reached it */
    uint32_t *first;    /* per block: reach_gen if a first demand of the current gate */
    uint32_t reach_gen; /* the current walk's generation: a walk starts in constant time */
    int32_t *budget[2]; /* per loop and bank: values that may still be hoisted out of it
                           (SchedOptions.regs; NULL: no limit) */
    BlockId *shallower; /* per block: its nearest dominator of a smaller loop depth, or
                           NO_BLOCK (least_depth_block's steps) */
    Arena *scratch;     /* every array above and every list; freed at the end */
} Gcm;

/* a list of distinct blocks is built from empty, one list at a time: list_start,
 * then list_add_unique (constant time); lists grow in the scratch arena */
static void list_start(Gcm *g, BlockList *l)
{
    l->n = 0;
    g->list_gen++;
}

static void list_add_unique(Gcm *g, BlockList *l, BlockId b)
{
    if (g->list_mark[b] == g->list_gen)
        return;
    g->list_mark[b] = g->list_gen;
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 4;
        l->v = arena_grow_raw(g->scratch, l->v, l->cap * sizeof *l->v, cap * sizeof *l->v);
        l->cap = cap;
    }
    l->v[l->n++] = b;
}

static void *scratch_zeroed(const Gcm *g, size_t n, size_t size) { return arena_alloc(g->scratch, (n ? n : 1) * size); }
static void *scratch_raw(const Gcm *g, size_t n, size_t size) { return arena_alloc_raw(g->scratch, (n ? n : 1) * size); }

static const Gate *gate(const Gcm *g, GateId id) { return &g->c->gates[id]; }
static bool is_selector(int op) { return op == OP_VALUE_SELECTOR || op == OP_DEPEND_SELECTOR; }

static bool fail(Gcm *g, GateId id, const char *msg)
{
    char buf[64];
    diag_gate(g->d, g->c->func, id, msg, gate_label(g->c->func, id, buf, sizeof buf));
    return false;
}

/* ---- liveness ---------------------------------------------------------------- */

static void demand_inputs(Gcm *g, GateId id, GateId *work, uint32_t *nwork)
{
    const Gate *gt = gate(g, id);
    for (uint32_t i = gt->nstate; i < gate_nin(gt); i++) {
        GateId in = gt->in[i];
        if (in >= g->c->ngates || g->live[in] || op_has(gate(g, in)->op, F_STATE | F_ROOT))
            continue;
        g->live[in] = 1;
        work[(*nwork)++] = in;
    }
}

/* a selector sits on a join (the head of its block) with one input per predecessor */
static bool selector_fits(const Gcm *g, const Gate *sel)
{
    const Block *b = &g->s->blocks[g->s->state_block[sel->in[0]]];
    return b->head == sel->in[0] && op_has(gate(g, b->head)->op, F_JOIN) && gate_nin(sel) - sel->nstate == b->npreds;
}

static bool compute_liveness(Gcm *g)
{
    uint32_t n = g->c->ngates, nwork = 0;
    GateId *work = scratch_raw(g, n, sizeof *work);
    for (GateId id = NUM_ROOTS; id < n; id++)
        if (!gate(g, id)->dead && g->s->state_block[id] != NO_BLOCK)
            demand_inputs(g, id, work, &nwork);
    bool ok = true;
    while (nwork && ok) {
        GateId id = work[--nwork];
        const Gate *gt = gate(g, id);
        if ((is_selector(gt->op) || gt->op == OP_DEPEND_RELAY || gt->op == OP_GET_EXCEPTION) &&
            (gt->nstate < 1 || gt->in[0] >= n || g->s->state_block[gt->in[0]] == NO_BLOCK))
            ok = fail(g, id, "%s is demanded but its state is not reachable from entry");
        else if (is_selector(gt->op) && !selector_fits(g, gt))
            ok = fail(g, id, "cannot schedule %s: a selector needs one input per state input of its join");
        demand_inputs(g, id, work, &nwork);
    }
    return ok;
}

/* ---- schedule early ---------------------------------------------------------- */

/* the block an input is available in, before late placement: roots at entry, states
 * in their block, an INVOKE's outputs in its IF_SUCCESS's block (the dependency, for a
 * relay on its IF_EXCEPTION: its own block), other gates at their early block */
static BlockId input_block(const Gcm *g, GateId in, const Gate *user)
{
    const Gate *gt = gate(g, in);
    if (op_has(gt->op, F_ROOT))
        return 0;
    BlockId b = op_has(gt->op, F_STATE) ? g->s->state_block[in] : g->early[in];
    if (gt->op == OP_INVOKE && user->op != OP_DEPEND_RELAY && b != NO_BLOCK)
        return g->s->blocks[b].succs[0].to;
    return b;
}

static bool set_early(Gcm *g, GateId id)
{
    const Gate *gt = gate(g, id);
    if (is_selector(gt->op)) {
        g->early[id] = g->s->state_block[gt->in[0]];
        return true;
    }
    BlockId best = 0;
    uint32_t first = gt->op == OP_DEPEND_RELAY || gt->op == OP_GET_EXCEPTION ? 0 : gt->nstate;
    for (uint32_t i = first; i < gate_nin(gt); i++) {
        BlockId b = gt->in[i] < g->c->ngates ? input_block(g, gt->in[i], gt) : NO_BLOCK;
        if (b == NO_BLOCK)
            return fail(g, id, "cannot schedule %s: an input is not reachable from entry");
        if (g->s->blocks[b].dom_depth > g->s->blocks[best].dom_depth)
            best = b;
    }
    for (uint32_t i = first; i < gate_nin(gt); i++)
        if (!sched_dominates(g->s, input_block(g, gt->in[i], gt), best))
            return fail(g, id, "cannot schedule %s: no block is dominated by all of its inputs");
    g->early[id] = best;
    return true;
}

/* a division by a constant that is neither 0 nor (signed) -1 cannot trap (the
 * checked arithmetic may trap whatever its constant) */
static bool division_cannot_trap(const Gcm *g, const Gate *gt)
{
    bool division = gt->op == OP_SDIV || gt->op == OP_SREM || gt->op == OP_UDIV || gt->op == OP_UREM;
    if (!division || gt->ndata != 2 || gate_data(gt, 1) >= g->c->ngates)
        return false;
    const Gate *d = gate(g, gate_data(gt, 1));
    if (d->op != OP_CONSTANT || !ty_is_int((Type)d->type))
        return false;
    uint64_t v = d->lit & ty_mask((Type)d->type);
    bool is_signed = gt->op == OP_SDIV || gt->op == OP_SREM;
    return v != 0 && !(is_signed && v == ty_mask((Type)d->type));
}

static bool is_guarded_gate(const Gcm *g, const Gate *gt)
{
    if (op_has(gt->op, F_EFFECT) || gt->op == OP_DEPEND_RELAY || gt->op == OP_GET_EXCEPTION)
        return true;
    return op_has(gt->op, F_TRAPS) && !division_cannot_trap(g, gt);
}

/* after the inputs of id: does it carry the demand of a gate that must not be speculated? */
static void set_guarded(Gcm *g, GateId id)
{
    const Gate *gt = gate(g, id);
    bool guarded = is_guarded_gate(g, gt);
    for (uint32_t i = gt->nstate; i < gate_nin(gt) && !guarded; i++) {
        GateId in = gt->in[i];
        guarded = in < g->c->ngates && g->live[in] && !is_selector(gate(g, in)->op) && g->guarded[in];
    }
    g->guarded[id] = guarded;
}

/* iterative depth-first postorder over data and dependency inputs; selectors are
 * leaves (their inputs come around loops) */
static bool schedule_early(Gcm *g)
{
    uint32_t n = g->c->ngates;
    uint8_t *mark = scratch_zeroed(g, n, 1); /* 1 on the stack, 2 done */
    GateId *stack = scratch_raw(g, n, sizeof *stack);
    uint32_t *next = scratch_raw(g, n, sizeof *next);
    bool ok = true;
    for (GateId root = 0; root < n && ok; root++) {
        if (!g->live[root] || mark[root])
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        mark[root] = 1;
        next[root] = gate(g, root)->nstate;
        while (sp && ok) {
            GateId id = stack[sp - 1];
            const Gate *gt = gate(g, id);
            if (!is_selector(gt->op) && next[id] < gate_nin(gt)) {
                GateId in = gt->in[next[id]++];
                if (!g->live[in])
                    continue;
                if (mark[in] == 1)
                    ok = fail(g, in, "cannot schedule %s: it is part of a data or dependency cycle");
                else if (!mark[in]) {
                    mark[in] = 1;
                    next[in] = gate(g, in)->nstate;
                    stack[sp++] = in;
                }
                continue;
            }
            sp--;
            mark[id] = 2;
            ok = set_early(g, id);
            if (!is_selector(gt->op)) {
                set_guarded(g, id);
                g->topo[g->ntopo++] = id;
            }
        }
    }
    return ok;
}

/* ---- demand points ----------------------------------------------------------- */

static void add_placement(Gcm *g, GateId user, BlockList *out)
{
    BlockId b = g->s->gate_block[user];
    if (b == MULTI_BLOCK) {
        for (uint32_t i = 0; i < g->copies[user].n; i++)
            list_add_unique(g, out, g->copies[user].v[i]);
    } else if (b != NO_BLOCK)
        list_add_unique(g, out, b);
}

static void demand_points(Gcm *g, GateId id, BlockList *out)
{
    const Gate *gt = gate(g, id);
    list_start(g, out);
    for (uint32_t i = 0; i < gt->nuses; i++) {
        GateId u = gt->uses[i].user;
        const Gate *ug = gate(g, u);
        if (ug->dead || gt->uses[i].index < ug->nstate)
            continue;
        if (op_has(ug->op, F_STATE)) {
            if (g->s->state_block[u] != NO_BLOCK)
                list_add_unique(g, out, g->s->state_block[u]);
        } else if (!g->live[u]) {
            continue;
        } else if (is_selector(ug->op)) {
            const Block *join = &g->s->blocks[g->s->state_block[ug->in[0]]];
            uint32_t k = gt->uses[i].index - ug->nstate;
            if (k < join->npreds)
                list_add_unique(g, out, join->preds[k]);
        } else
            add_placement(g, u, out);
    }
}

/* ---- placement ---------------------------------------------------------------- */

/* each block's nearest dominator of a smaller loop depth: its idom if shallower,
 * else found along the idom's own such steps (idoms precede their blocks) */
static void find_shallower(Gcm *g)
{
    const Block *bl = g->s->blocks;
    g->shallower = scratch_raw(g, g->s->nblocks, sizeof *g->shallower);
    for (BlockId b = 0; b < g->s->nblocks; b++) {
        BlockId up = bl[b].idom;
        while (up != NO_BLOCK && bl[up].loop_depth >= bl[b].loop_depth)
            up = g->shallower[up];
        g->shallower[b] = up;
    }
}

/* Click: least loop depth on the dominator path from late up to early, lowest first
 * (the walk stops at depth 0: nothing above is better), not leaving loop `inside`
 * (-1: any loop may be left).  The blocks between the best so far and the next
 * shallower dominator are no better, so the walk steps from one to the next; a loop
 * once left along the path is not entered again (its header dominates its blocks),
 * so the step's block alone says whether the walk left `inside` */
static BlockId least_depth_block(const Gcm *g, BlockId late, BlockId early, int32_t inside)
{
    const Block *bl = g->s->blocks;
    BlockId best = late;
    while (best != early && bl[best].loop_depth > 0) {
        BlockId up = g->shallower[best];
        if (up == NO_BLOCK || bl[up].dom_depth < bl[early].dom_depth ||
            (inside >= 0 && !sched_loop_contains(g->s, inside, up)))
            break;
        best = up;
    }
    return best;
}

/* the innermost loop containing late but not `to` whose budget for bank is spent,
 * or -1 if every loop left on the way from late to `to` has room */
static int32_t loop_without_room(const Gcm *g, BlockId late, BlockId to, int bank)
{
    for (int32_t l = g->s->blocks[late].loop; l >= 0 && !sched_loop_contains(g->s, l, to); l = g->s->loops[l].parent)
        if (g->budget[bank][l] <= 0)
            return l;
    return -1;
}

/* the least-depth block whose hoist the loops' budgets allow, charged to them */
static BlockId best_block(Gcm *g, GateId id, BlockId late, BlockId early)
{
    BlockId best = least_depth_block(g, late, early, -1);
    if (!g->budget[0] || gate(g, id)->op == OP_ARG) /* an argument is live from the entry anyway */
        return best;
    int bank = ty_is_float(gate(g, id)->type);
    int32_t full = loop_without_room(g, late, best, bank);
    if (full >= 0)
        best = least_depth_block(g, late, early, full);
    for (int32_t l = g->s->blocks[late].loop; l >= 0 && !sched_loop_contains(g->s, l, best); l = g->s->loops[l].parent)
        g->budget[bank][l]--;
    return best;
}

enum { LOOP_WORK_REGS = 4 }; /* registers a loop's own computations are assumed to need */

/* each loop's budget per bank: the bank's registers less the header's selectors of
 * that bank and LOOP_WORK_REGS (no budgets without SchedOptions.regs) */
static void init_budgets(Gcm *g)
{
    const Schedule *s = g->s;
    if (!g->opt->regs[0] || !g->opt->regs[1] || !s->nloops)
        return;
    for (int bank = 0; bank < 2; bank++) {
        g->budget[bank] = scratch_raw(g, s->nloops, sizeof *g->budget[bank]);
        for (uint32_t l = 0; l < s->nloops; l++)
            g->budget[bank][l] = (int32_t)g->opt->regs[bank] - LOOP_WORK_REGS;
    }
    for (uint32_t l = 0; l < s->nloops; l++) {
        const Block *h = &s->blocks[s->loops[l].header];
        for (uint32_t i = 0; i < h->nparams; i++)
            if (gate(g, h->params[i])->op == OP_VALUE_SELECTOR)
                g->budget[ty_is_float(gate(g, h->params[i])->type)][l]--;
    }
}

/* an edge that leaves the current instance of a gate whose early block is `early`:
 * a back edge of a loop containing early */
static bool edge_cut(const Schedule *s, BlockId from, BlockId to, BlockId early)
{
    return to <= from && sched_dominates(s, to, from) && sched_loop_contains(s, s->blocks[to].loop, early);
}

/* is the gate demanded on every path from the start of block b (greatest fixpoint) */
static bool anticipated(Gcm *g, const BlockList *dem, BlockId b, BlockId early)
{
    const Schedule *s = g->s;
    memset(g->demand, 0, s->nblocks);
    for (uint32_t i = 0; i < dem->n; i++)
        g->demand[dem->v[i]] = 1;
    memset(g->ant, 1, s->nblocks);
    for (bool changed = true; changed;) {
        changed = false;
        for (BlockId x = s->nblocks; x-- > 0;) {
            const Block *blk = &s->blocks[x];
            if (g->demand[x] || !g->ant[x])
                continue;
            bool all = blk->nsuccs > 0;
            for (uint32_t k = 0; k < blk->nsuccs && all; k++)
                all = !edge_cut(s, x, blk->succs[k].to, early) && g->ant[blk->succs[k].to];
            if (!all) {
                g->ant[x] = 0;
                changed = true;
            }
        }
    }
    return g->ant[b];
}

/* A walk only asks whether it reaches demand blocks, all at or before block `last`.
 * Blocks are numbered in reverse postorder, so a path from a block after `last` back
 * to it takes a back edge to a loop header at or before `last`; the walk keeps that
 * edge only if the loop does not contain early.  Loops containing early enclose one
 * another, so such a loop exists iff the outermost loop of b without early starts at
 * or before `last`.  Without it, the walk stops at b: its cost is bounded by the
 * blocks up to the demands, not by the rest of the function. */
static bool may_come_back(const Gcm *g, BlockId b, BlockId last, BlockId early)
{
    const Schedule *s = g->s;
    bool back = false;
    for (int32_t l = s->blocks[b].loop; l >= 0 && !sched_loop_contains(s, l, early); l = s->loops[l].parent)
        back = s->loops[l].header <= last;
    return back;
}

static void reach(Gcm *g, BlockId t, uint32_t *qn)
{
    if (g->reached[t] == g->reach_gen)
        return;
    g->reached[t] = g->reach_gen;
    g->queue[(*qn)++] = t;
}

static void reach_succs(Gcm *g, BlockId b, BlockId early, uint32_t *qn)
{
    const Block *blk = &g->s->blocks[b];
    for (uint32_t k = 0; k < blk->nsuccs; k++)
        if (!edge_cut(g->s, b, blk->succs[k].to, early))
            reach(g, blk->succs[k].to, qn);
}

/* breadth-first walk over the edges that stay in the instance, from the successors of
 * the blocks in `from` (or, with start_itself, from those blocks), not leaving first
 * demands (with stop_at_first) nor blocks after `last` that cannot lead back to it;
 * marks what it reaches in g->reached (a new generation) */
static void walk(Gcm *g, const BlockId *from, uint32_t n, bool start_itself, bool stop_at_first, BlockId last,
                 BlockId early)
{
    uint32_t qn = 0;
    g->reach_gen++;
    for (uint32_t i = 0; i < n; i++) {
        if (start_itself)
            reach(g, from[i], &qn);
        else
            reach_succs(g, from[i], early, &qn);
    }
    while (qn) {
        BlockId b = g->queue[--qn];
        if ((stop_at_first && g->first[b] == g->reach_gen - 1) ||
            (b > last && !may_come_back(g, b, last, early)))
            continue;
        reach_succs(g, b, early, &qn);
    }
}

/* The first demands: the demand blocks no demand block reaches within the instance.
 * Copies there run the gate exactly where the reference interpreter first demands it
 * if every path from `from` to a demand block passes one of them (they cover the
 * rest); false if not, or if an effect would sit in a loop its instance does not
 * vary in (it would run again).  first gets the blocks. */
static bool first_demands(Gcm *g, const BlockList *dem, BlockId from, BlockId early, bool effect, BlockList *first)
{
    const Schedule *s = g->s;
    BlockId last = 0;
    for (uint32_t i = 0; i < dem->n; i++)
        last = dem->v[i] > last ? dem->v[i] : last;
    walk(g, dem->v, dem->n, false, false, last, early);
    uint32_t after = g->reach_gen; /* g->first is marked with it: the next walk stops there */
    list_start(g, first);
    for (uint32_t i = 0; i < dem->n; i++) {
        BlockId d = dem->v[i];
        if (g->reached[d] == after)
            continue;
        if (effect && !sched_loop_contains(s, s->blocks[d].loop, early))
            return false;
        g->first[d] = after;
        list_add_unique(g, first, d);
    }
    walk(g, &from, 1, true, true, last, early);
    for (uint32_t i = 0; i < dem->n; i++)
        if (g->reached[dem->v[i]] == g->reach_gen && g->first[dem->v[i]] != after)
            return false;
    return first->n > 0;
}

static void place_copies(Gcm *g, GateId id, const BlockList *blocks)
{
    BlockList *l = &g->copies[id];
    list_start(g, l);
    for (uint32_t i = 0; i < blocks->n; i++)
        list_add_unique(g, l, blocks->v[i]);
    if (l->n == 1) {
        g->s->gate_block[id] = l->v[0];
        l->n = 0;
    } else
        g->s->gate_block[id] = MULTI_BLOCK;
}

/* a gate that may trap, an effect, a relay, or a gate reading one: never speculated.
 * Preferred: the LCA when it demands the gate itself, else a copy in each block of
 * first demand (the gate then runs where the reference interpreter first demands it,
 * in the same order with respect to other traps and effects).  Failing that, a pure
 * gate is copied into every demand block (running it again further down a path is
 * harmless: same value, and it did not trap the first time), and an effect, which
 * runs at most once per instance, goes to the LCA if it is anticipated there (it may
 * then run before an unrelated trap the interpreter would meet first); else the
 * function cannot be scheduled. */
static bool place_exact(Gcm *g, GateId id, const BlockList *dem, BlockId late)
{
    const Schedule *s = g->s;
    BlockId early = g->early[id];
    bool effect = op_has(gate(g, id)->op, F_EFFECT);
    BlockId b = late;
    while (effect && b != early && !sched_loop_contains(s, s->blocks[b].loop, early))
        b = s->blocks[b].idom;
    bool demanded_here = false;
    for (uint32_t i = 0; i < dem->n; i++)
        demanded_here |= dem->v[i] == b;
    if (demanded_here) {
        g->s->gate_block[id] = b;
        return true;
    }
    BlockList first = {0};
    bool ok = true;
    if (first_demands(g, dem, b, early, effect, &first))
        place_copies(g, id, &first);
    else if (!effect)
        place_copies(g, id, dem);
    else if (anticipated(g, dem, b, early))
        g->s->gate_block[id] = b;
    else
        ok = fail(g, id, "cannot schedule %s without speculation");
    return ok;
}

static bool place_gate(Gcm *g, GateId id, BlockList *dem)
{
    demand_points(g, id, dem);
    if (!dem->n)
        return fail(g, id, "internal error: %s is live but has no demand point");
    BlockId late = dem->v[0];
    for (uint32_t i = 1; i < dem->n; i++)
        late = sched_lca(g->s, late, dem->v[i]);
    BlockId early = g->early[id];
    if (!sched_dominates(g->s, early, late))
        return fail(g, id, "cannot schedule %s: it is used where its inputs are not available");
    if (gate(g, id)->op == OP_GET_EXCEPTION) { /* reads what the INVOKE caught: at once */
        g->s->gate_block[id] = early;
        return true;
    }
    if (g->guarded[id])
        return place_exact(g, id, dem, late);
    g->s->gate_block[id] = g->opt->no_motion ? late : best_block(g, id, late, early);
    return true;
}

static bool schedule_late(Gcm *g)
{
    BlockList dem = {0};
    bool ok = true;
    for (uint32_t i = g->ntopo; i-- > 0 && ok;)
        ok = place_gate(g, g->topo[i], &dem);
    return ok;
}

/* ---- block contents ----------------------------------------------------------- */

static void fill_params_and_copies(Gcm *g)
{
    Schedule *s = g->s;
    for (int fill = 0; fill < 2; fill++) { /* count, then fill arrays of the exact size */
        for (BlockId i = 0; fill && i < s->nblocks; i++) {
            Block *b = &s->blocks[i];
            b->params = b->nparams ? arena_alloc_raw(s->arena, b->nparams * sizeof(GateId)) : NULL;
            b->nparams = 0;
        }
        for (GateId id = NUM_ROOTS; id < g->c->ngates; id++) {
            const Gate *gt = gate(g, id);
            if (!g->live[id] || !is_selector(gt->op))
                continue;
            Block *b = &s->blocks[s->state_block[gt->in[0]]];
            s->gate_block[id] = b->id;
            if (fill)
                b->params[b->nparams] = id;
            b->nparams++;
        }
    }
    for (BlockId i = 0; i < s->nblocks; i++) {
        Block *b = &s->blocks[i];
        for (uint32_t k = 0; k < b->nsuccs; k++) {
            Edge *e = &b->succs[k];
            const Block *to = &s->blocks[e->to];
            if (e->join_input == UINT32_MAX || !to->nparams)
                continue;
            e->copies = arena_alloc(s->arena, to->nparams * sizeof(EdgeCopy));
            for (uint32_t p = 0; p < to->nparams; p++) {
                const Gate *sel = gate(g, to->params[p]);
                e->copies[e->ncopies++] = (EdgeCopy){to->params[p], sel->in[sel->nstate + e->join_input]};
            }
        }
    }
}

typedef struct {
    Gcm *g;
    BlockId b;
    uint32_t *stamp;   /* per gate: block id + 1 if the gate is placed in b */
    uint8_t *state;    /* per gate: 0 new, 1 reserved by the terminator, 2 emitted */
    GateId *stack;
    uint32_t *next;
    GateId *out;
    uint32_t nout;
    GateId *reserved;  /* the terminator's operands and what they need, in postorder */
    uint32_t nreserved;
    uint32_t *slot, *slot_mark, slot_gen; /* scratch of sched_interleave */
} Orderer;

static bool in_block(const Orderer *o, GateId id)
{
    return id < o->g->c->ngates && o->stamp[id] == o->b + 1;
}

/* depth-first postorder from root over inputs placed in this block: with
 * reserve_only, marks the gates (state 1) and lists them in o->reserved; else emits
 * them (state 2) into o->out */
static void emit_from(Orderer *o, GateId root, bool reserve_only)
{
    if (!in_block(o, root) || o->state[root] == 2 || (reserve_only && o->state[root] == 1))
        return;
    const Circuit *c = o->g->c;
    uint32_t sp = 0;
    o->stack[sp++] = root;
    o->next[root] = c->gates[root].nstate;
    uint8_t done = reserve_only ? 1 : 2;
    o->state[root] = done + 8; /* on stack */
    while (sp) {
        GateId id = o->stack[sp - 1];
        const Gate *gt = &c->gates[id];
        if (o->next[id] < gate_nin(gt)) {
            GateId in = gt->in[o->next[id]++];
            if (in_block(o, in) && o->state[in] < done) {
                o->state[in] = done + 8;
                o->next[in] = c->gates[in].nstate;
                o->stack[sp++] = in;
            }
            continue;
        }
        sp--;
        o->state[id] = done;
        if (reserve_only)
            o->reserved[o->nreserved++] = id;
        else
            o->out[o->nout++] = id;
    }
}

/* the gates the terminator demands, in the order it demands them */
static uint32_t terminator_roots(const Orderer *o, const Block *b, GateId *roots)
{
    const Gcm *g = o->g;
    const Gate *t = gate(g, b->term_gate);
    uint32_t n = 0;
    if (b->term == TERM_GOTO) {
        if (b->nsuccs == 1)
            for (uint32_t k = 0; k < b->succs[0].ncopies; k++)
                roots[n++] = b->succs[0].copies[k].value;
    } else
        for (uint32_t i = t->nstate; i < gate_nin(t); i++)
            roots[n++] = t->in[i];
    return n;
}

/* GET_EXCEPTION first (it reads what the INVOKE caught), then effects, then the rest */
static unsigned root_class(const Circuit *c, GateId id)
{
    return c->gates[id].op == OP_GET_EXCEPTION ? 0 : op_has(c->gates[id].op, F_EFFECT) ? 1 : 2;
}

/* v (a block's members, in id order: add_member lists them so) stably partitioned by
 * root_class, so by class and then by id, in linear time; scratch holds n ids */
static void sort_roots(GateId *v, uint32_t n, const Circuit *c, GateId *scratch)
{
    uint32_t k = 0;
    for (unsigned cls = 0; cls < 3; cls++)
        for (uint32_t i = 0; i < n; i++)
            if (root_class(c, v[i]) == cls)
                scratch[k++] = v[i];
    memcpy(v, scratch, n * sizeof *v);
}

/* the terminator's demands come first where they can trap or touch memory (the
 * reference interpreter demands them at the terminator, before anything a successor
 * demands), then the gates placed here for later blocks, then the rest of the
 * terminator's operands (a compare right before its branch) */
static void order_block(Orderer *o, Block *b, GateId *members, uint32_t nmembers)
{
    Gcm *g = o->g;
    o->b = b->id;
    o->nout = o->nreserved = 0;
    for (uint32_t i = 0; i < nmembers; i++) {
        o->stamp[members[i]] = b->id + 1;
        o->state[members[i]] = 0;
    }
    const Gate *t = gate(g, b->term_gate);
    uint32_t ncopies = b->term == TERM_GOTO && b->nsuccs == 1 ? b->succs[0].ncopies : 0;
    GateId *roots = scratch_raw(g, gate_nin(t) + ncopies + 1, sizeof *roots);
    uint32_t nroots = terminator_roots(o, b, roots);
    for (uint32_t i = 0; i < nmembers; i++)
        if (gate(g, members[i])->op == OP_GET_EXCEPTION)
            emit_from(o, members[i], false);
    for (uint32_t i = 0; i < nroots; i++)
        emit_from(o, roots[i], true);
    for (uint32_t i = 0; i < o->nreserved; i++)
        if (g->guarded[o->reserved[i]])
            emit_from(o, o->reserved[i], false);
    sort_roots(members, nmembers, g->c, scratch_raw(g, nmembers, sizeof *members));
    for (uint32_t i = 0; i < nmembers; i++)
        if (o->state[members[i]] == 0)
            emit_from(o, members[i], false);
    uint32_t tail = o->nout;
    for (uint32_t i = 0; i < nroots; i++)
        emit_from(o, roots[i], false);
    if (!g->opt->no_motion) /* interleave independent chains; the compare stays by its branch */
        sched_interleave(g->c, o->out, tail, o->slot, o->slot_mark, ++o->slot_gen);
    b->ngates = o->nout;
    b->gates = arena_alloc(g->s->arena, (o->nout ? o->nout : 1) * sizeof(GateId));
    memcpy(b->gates, o->out, o->nout * sizeof(GateId));
}

/* gate id in its block's member list (each copy in its block's); with fill false,
 * only count them in cap.  Every gate is visited once and its copies are distinct
 * blocks, so the lists need no duplicate check. */
static void add_member(const Gcm *g, BlockList *members, GateId id, bool fill)
{
    BlockId b = g->s->gate_block[id];
    uint32_t ncopies = b == MULTI_BLOCK ? g->copies[id].n : b != NO_BLOCK;
    for (uint32_t i = 0; i < ncopies; i++) {
        BlockList *m = &members[b == MULTI_BLOCK ? g->copies[id].v[i] : b];
        if (fill)
            m->v[m->n++] = id;
        else
            m->cap++;
    }
}

static void order_blocks(Gcm *g)
{
    Schedule *s = g->s;
    uint32_t n = g->c->ngates;
    BlockList *members = scratch_zeroed(g, s->nblocks, sizeof *members);
    for (int fill = 0; fill < 2; fill++) { /* count, then fill arrays of the exact size */
        for (BlockId b = 0; fill && b < s->nblocks; b++) {
            members[b].v = scratch_raw(g, members[b].cap, sizeof *members[b].v);
            members[b].n = 0;
        }
        for (GateId id = NUM_ROOTS; id < n; id++)
            if (g->live[id] && !is_selector(gate(g, id)->op))
                add_member(g, members, id, fill);
    }
    Orderer o = {.g = g};
    o.stamp = scratch_zeroed(g, n, sizeof *o.stamp);
    o.state = scratch_zeroed(g, n, 1);
    o.stack = scratch_raw(g, n, sizeof *o.stack);
    o.next = scratch_raw(g, n, sizeof *o.next);
    o.out = scratch_raw(g, n, sizeof *o.out);
    o.reserved = scratch_raw(g, n, sizeof *o.reserved);
    o.slot = scratch_raw(g, n, sizeof *o.slot);
    o.slot_mark = scratch_zeroed(g, n, sizeof *o.slot_mark);
    for (BlockId b = 0; b < s->nblocks; b++)
        order_block(&o, &s->blocks[b], members[b].v, members[b].n);
}

bool sched_place_gates(Schedule *s, const SchedOptions *opt, Diag *d)
{
    static const SchedOptions defaults = {0};
    uint32_t n = s->func->circ->ngates;
    Gcm g = {.s = s, .c = s->func->circ, .d = d, .opt = opt ? opt : &defaults, .scratch = arena_new()};
    g.live = scratch_zeroed(&g, n, 1);
    g.guarded = scratch_zeroed(&g, n, 1);
    g.early = scratch_zeroed(&g, n, sizeof *g.early);
    g.copies = scratch_zeroed(&g, n, sizeof *g.copies);
    g.topo = scratch_raw(&g, n, sizeof *g.topo);
    g.ant = scratch_raw(&g, s->nblocks, 1);
    g.demand = scratch_raw(&g, s->nblocks, 1);
    g.queue = scratch_raw(&g, s->nblocks, sizeof *g.queue);
    g.list_mark = scratch_zeroed(&g, s->nblocks, sizeof *g.list_mark);
    g.reached = scratch_zeroed(&g, s->nblocks, sizeof *g.reached);
    g.first = scratch_zeroed(&g, s->nblocks, sizeof *g.first);
    for (GateId i = 0; i < n; i++)
        s->gate_block[i] = NO_BLOCK;
    bool ok = compute_liveness(&g) && schedule_early(&g);
    if (ok) {
        fill_params_and_copies(&g); /* selectors are pinned: placed before the rest */
        init_budgets(&g);
        find_shallower(&g);
        ok = schedule_late(&g);
    }
    if (ok)
        order_blocks(&g);
    arena_free(g.scratch);
    return ok;
}
