/* interleave.c — list scheduling of the gates inside a block, so that independent
 * effect chains interleave: the loads of one chain (and the addresses they need) are
 * issued while another chain's loads are in flight, instead of one chain after the
 * other as the depth-first order of gcm.c leaves them.
 *
 * Priority: the number of loads on the longest path from a gate to the end of the
 * block (a load's latency is what there is to hide), the earlier gate of the
 * depth-first order among equals, so a block without loads keeps its order.  While
 * PRESSURE_LIMIT values wait for their users, the depth-first order is taken instead.
 *
 * Kept: every input placed in the block comes before its user; GET_EXCEPTION comes
 * first (it reads what the INVOKE caught); and, because the heap at a trap is part of
 * the outcome and a load may be valid only when an earlier trap did not happen, no
 * effect (LOAD, STORE, CALL) moves across a gate that may trap (a division, a checked
 * operation, a CALL), and those keep their order.  Effects not ordered by dependency
 * wires may swap: a valid program has no race (docs/semantics.md section 6), so they
 * touch disjoint bytes or only read. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_LIST_BLOCK = 512, PRESSURE_LIMIT = 8 };

typedef struct {
    const Circuit *c;
    const GateId *gates;
    uint32_t n;
    uint32_t *npred;     /* per slot: in-block inputs not emitted yet (per wire) */
    uint32_t *users;     /* per slot: in-block users not emitted yet (per wire) */
    uint32_t *height;    /* per slot: loads on the longest path to the block's end */
    uint32_t *seg;       /* per slot: gates that may trap before it */
    uint32_t *seg_left;  /* per segment k: effects before the k-th trapping gate not emitted */
    uint32_t *trap_slot; /* per segment k: the slot of the k-th trapping gate, or n */
    uint32_t *succ_off, *succ; /* in-block users of each slot (compressed rows) */
    uint8_t *ready, *done;
    uint32_t cur_seg, live;
    const uint32_t *slot_of, *mark; /* per gate: its slot, valid where mark == gen */
    uint32_t gen;
} Lister;

static bool traps(const Gate *g) { return g->op == OP_CALL || (op_has(g->op, F_TRAPS) && !op_has(g->op, F_EFFECT)); }
static bool is_effect(const Gate *g) { return op_has(g->op, F_EFFECT) && !traps(g); }

/* the slot of in-block input k of slot i (placed before it), or UINT32_MAX */
static uint32_t input_slot(const Lister *l, uint32_t i, uint32_t k)
{
    GateId in = l->c->gates[l->gates[i]].in[k];
    uint32_t p = in < l->c->ngates && l->mark[in] == l->gen ? l->slot_of[in] : UINT32_MAX;
    return p < i ? p : UINT32_MAX;
}

static void build_edges(Lister *l)
{
    for (uint32_t pass = 0; pass < 2; pass++) { /* count, then fill */
        uint32_t *fill = pass ? calloc(l->n + 1, sizeof *fill) : NULL;
        if (pass && !fill)
            abort();
        for (uint32_t i = 0; i < l->n; i++) {
            const Gate *gt = &l->c->gates[l->gates[i]];
            for (uint32_t k = gt->nstate; k < gate_nin(gt); k++) {
                uint32_t p = input_slot(l, i, k);
                if (p == UINT32_MAX)
                    continue;
                if (!pass) {
                    l->succ_off[p + 1]++;
                    l->npred[i]++;
                } else {
                    l->succ[l->succ_off[p] + fill[p]++] = i;
                }
            }
        }
        for (uint32_t i = 0; !pass && i < l->n; i++)
            l->succ_off[i + 1] += l->succ_off[i];
        if (!pass && !(l->succ = malloc((l->succ_off[l->n] + 1) * sizeof *l->succ)))
            abort();
        free(fill);
    }
}

static void compute_priorities(Lister *l)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        const Gate *gt = &l->c->gates[l->gates[i]];
        l->seg[i] = k;
        l->users[i] = l->succ_off[i + 1] - l->succ_off[i];
        if (traps(gt))
            l->trap_slot[k++] = i;
        else if (is_effect(gt))
            l->seg_left[k]++;
    }
    l->trap_slot[k] = l->n;
    for (uint32_t i = l->n; i-- > 0;) {
        uint32_t h = 0;
        for (uint32_t e = l->succ_off[i]; e < l->succ_off[i + 1]; e++)
            h = l->height[l->succ[e]] > h ? l->height[l->succ[e]] : h;
        l->height[i] = h + (l->c->gates[l->gates[i]].op == OP_LOAD);
    }
}

/* may slot i go now as far as traps and effects are concerned? */
static bool order_ready(const Lister *l, uint32_t i)
{
    const Gate *gt = &l->c->gates[l->gates[i]];
    if (traps(gt))
        return l->seg[i] == l->cur_seg && !l->seg_left[l->cur_seg];
    return !is_effect(gt) || l->seg[i] == l->cur_seg;
}

static void try_ready(Lister *l, uint32_t i)
{
    if (i < l->n && !l->done[i] && !l->npred[i] && order_ready(l, i))
        l->ready[i] = 1;
}

/* the next slot: the highest priority among the ready ones (the first of the
 * depth-first order under pressure or among equals) */
static uint32_t pick(const Lister *l)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < l->n; i++) {
        if (!l->ready[i])
            continue;
        if (best == UINT32_MAX)
            best = i;
        if (l->live >= PRESSURE_LIMIT)
            break;
        if (l->height[i] > l->height[best])
            best = i;
    }
    return best;
}

static void emit(Lister *l, uint32_t i)
{
    const Gate *gt = &l->c->gates[l->gates[i]];
    l->ready[i] = 0;
    l->done[i] = 1;
    l->live += l->users[i] > 0;
    for (uint32_t k = gt->nstate; k < gate_nin(gt); k++) { /* values it was the last user of */
        uint32_t p = input_slot(l, i, k);
        if (p != UINT32_MAX && !--l->users[p])
            l->live--;
    }
    for (uint32_t e = l->succ_off[i]; e < l->succ_off[i + 1]; e++)
        if (!--l->npred[l->succ[e]])
            try_ready(l, l->succ[e]);
    if (traps(gt)) { /* the next segment opens: its effects, then its trapping gate */
        l->cur_seg++;
        for (uint32_t k = i + 1; k < l->trap_slot[l->cur_seg] && k < l->n; k++)
            try_ready(l, k);
        try_ready(l, l->trap_slot[l->cur_seg]);
    } else if (is_effect(gt) && !--l->seg_left[l->seg[i]]) {
        try_ready(l, l->trap_slot[l->seg[i]]);
    }
}

static void run_list(Lister *l, GateId *out)
{
    GateId *order = malloc(l->n * sizeof *order);
    if (!order)
        abort();
    for (uint32_t i = 0; i < l->n; i++)
        try_ready(l, i);
    for (uint32_t k = 0; k < l->n; k++) {
        uint32_t i = pick(l); /* never none: the first gate not emitted in the depth-first order is ready */
        order[k] = l->gates[i];
        emit(l, i);
    }
    memcpy(out, order, l->n * sizeof *order);
    free(order);
}

/* Reorder gates[0..n) of one block; slot_of and mark are per-gate scratch arrays of
 * the circuit's size, gen a value mark holds for no gate yet. */
void sched_interleave(const Circuit *c, GateId *gates, uint32_t n, uint32_t *slot_of, uint32_t *mark, uint32_t gen)
{
    uint32_t first = 0;
    while (first < n && c->gates[gates[first]].op == OP_GET_EXCEPTION)
        first++;
    if (n - first < 3 || n - first > MAX_LIST_BLOCK)
        return;
    Lister l = {.c = c, .gates = gates + first, .n = n - first, .slot_of = slot_of, .mark = mark, .gen = gen};
    for (uint32_t i = 0; i < l.n; i++) {
        mark[l.gates[i]] = gen;
        slot_of[l.gates[i]] = i;
    }
    uint32_t *words = calloc(9 * (size_t)l.n + 4, sizeof *words);
    uint8_t *flags = calloc(2 * (size_t)l.n, 1);
    if (!words || !flags)
        abort();
    l.npred = words;
    l.users = l.npred + l.n;
    l.height = l.users + l.n;
    l.seg = l.height + l.n;
    l.seg_left = l.seg + l.n;      /* n + 1 segments at most */
    l.trap_slot = l.seg_left + l.n + 1;
    l.succ_off = l.trap_slot + l.n + 1;
    l.ready = flags;
    l.done = flags + l.n;
    build_edges(&l);
    compute_priorities(&l);
    run_list(&l, gates + first);
    free(l.succ);
    free(words);
    free(flags);
}
