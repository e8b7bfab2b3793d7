/* loops.c — the loop nesting forest: one natural loop per header (a block that
 * dominates the source of an edge into it: LOOP_BACK -> LOOP_BEGIN), its size and
 * last block, its latches, its parent, and per block the innermost loop and the loop depth.
 * Needs: dominators (dom.c).  A retreating edge to a block that does not dominate
 * its source (irreducible control flow) is reported as an error. */
#include "sched.h"

#include <stdlib.h>

bool sched_loop_contains(const Schedule *s, int32_t l, BlockId b)
{
    if (l < 0)
        return true; /* the function body */
    const Loop *lp = &s->loops[l];
    if (lp->nbody && lp->last - lp->header + 1 == lp->nbody) /* contiguous: constant time */
        return b >= lp->header && b <= lp->last;
    for (int32_t k = s->blocks[b].loop; k >= 0; k = s->loops[k].parent)
        if (k == l)
            return true;
    return false;
}

/* Loops are found innermost first (headers in reverse block order), each by a walk
 * backwards from its latches that steps over an inner loop already found in one
 * step, from the outermost loop found so far around the block (a union-find over
 * loops, path-halving): every block and edge is walked about once in all, however
 * deep the nest. */
typedef struct {
    Schedule *s;
    int32_t *inner;   /* per block: innermost loop found so far, -1 */
    int32_t *outer;   /* per loop: union-find link towards the outermost loop found around it */
    BlockId *stack;
} LoopWalk;

static int32_t outermost(LoopWalk *w, int32_t l)
{
    while (w->outer[l] != l) {
        w->outer[l] = w->outer[w->outer[l]];
        l = w->outer[l];
    }
    return l;
}

/* b reaches a latch of loop id without passing its header: b, or the inner loop
 * around b, joins it (b pushed to be walked from) */
static void claim(LoopWalk *w, int32_t id, BlockId b, uint32_t *sp)
{
    Loop *lp = &w->s->loops[id];
    if (w->inner[b] < 0) {
        w->inner[b] = id;
        lp->nbody++;
        lp->last = b > lp->last ? b : lp->last;
        w->stack[(*sp)++] = b;
        return;
    }
    int32_t in = outermost(w, w->inner[b]);
    if (in == id)
        return;
    Loop *ip = &w->s->loops[in];
    ip->parent = id;
    w->outer[in] = id;
    lp->nbody += ip->nbody;
    lp->last = ip->last > lp->last ? ip->last : lp->last;
    w->stack[(*sp)++] = ip->header; /* walk on from the inner loop's entries */
}

static void find_body(LoopWalk *w, int32_t id)
{
    Schedule *s = w->s;
    Loop *lp = &s->loops[id];
    BlockId h = lp->header;
    const Block *hb = &s->blocks[h];
    w->inner[h] = id;
    lp->nbody = 1;
    lp->last = h;
    uint32_t sp = 0;
    lp->latches = arena_alloc(s->arena, hb->npreds * sizeof(BlockId));
    for (uint32_t k = 0; k < hb->npreds; k++)
        if (sched_dominates(s, h, hb->preds[k])) {
            lp->latches[lp->nlatches++] = hb->preds[k];
            claim(w, id, hb->preds[k], &sp);
        }
    while (sp) { /* preds of an inner loop's header include its latches: claimed already */
        const Block *b = &s->blocks[w->stack[--sp]];
        for (uint32_t k = 0; k < b->npreds; k++)
            if (b->preds[k] != h)
                claim(w, id, b->preds[k], &sp);
    }
}

static bool check_reducible(const Schedule *s, Diag *d)
{
    for (BlockId b = 0; b < s->nblocks; b++) {
        const Block *blk = &s->blocks[b];
        for (uint32_t k = 0; k < blk->nsuccs; k++) {
            BlockId t = blk->succs[k].to;
            if (t <= b && !sched_dominates(s, t, b)) {
                diag_gate(d, s->func, s->blocks[t].head,
                          "irreducible control flow: a cycle enters this state other than through its loop header");
                return false;
            }
        }
    }
    return true;
}

/* the loop headers (targets of edges from blocks they dominate) as loops in block
 * order: outer loops first */
static void list_headers(Schedule *s)
{
    uint32_t n = s->nblocks, nheaders = 0;
    uint8_t *is_header = calloc(n ? n : 1, 1);
    if (!is_header)
        abort();
    for (BlockId b = 0; b < n; b++)
        for (uint32_t k = 0; k < s->blocks[b].nsuccs; k++) {
            BlockId t = s->blocks[b].succs[k].to;
            if (sched_dominates(s, t, b) && !is_header[t]) {
                is_header[t] = 1;
                nheaders++;
            }
        }
    s->loops = arena_alloc(s->arena, (nheaders ? nheaders : 1) * sizeof(Loop));
    s->nloops = 0;
    for (BlockId h = 0; h < n; h++)
        if (is_header[h])
            s->loops[s->nloops++] = (Loop){.header = h, .parent = -1};
    free(is_header);
}

bool sched_find_loops(Schedule *s, Diag *d)
{
    if (!check_reducible(s, d))
        return false;
    list_headers(s);
    uint32_t n = s->nblocks;
    LoopWalk w = {s, malloc((n ? n : 1) * sizeof(int32_t)), malloc((s->nloops ? s->nloops : 1) * sizeof(int32_t)),
                  malloc((n ? n : 1) * sizeof(BlockId))};
    if (!w.inner || !w.outer || !w.stack)
        abort();
    for (BlockId b = 0; b < n; b++)
        w.inner[b] = -1;
    for (uint32_t l = 0; l < s->nloops; l++)
        w.outer[l] = (int32_t)l;
    for (uint32_t l = s->nloops; l-- > 0;) /* innermost first */
        find_body(&w, (int32_t)l);
    for (uint32_t l = 0; l < s->nloops; l++) { /* a parent's header comes first */
        Loop *lp = &s->loops[l];
        lp->depth = lp->parent < 0 ? 1 : s->loops[lp->parent].depth + 1;
    }
    for (BlockId b = 0; b < n; b++) {
        s->blocks[b].loop = w.inner[b];
        s->blocks[b].loop_depth = w.inner[b] < 0 ? 0 : s->loops[w.inner[b]].depth;
    }
    free(w.inner);
    free(w.outer);
    free(w.stack);
    return true;
}
