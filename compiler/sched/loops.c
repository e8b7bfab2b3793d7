/* loops.c — the loop nesting forest: one natural loop per header (a block that
 * dominates the source of an edge into it: LOOP_BACK -> LOOP_BEGIN), its body, its
 * latches, its parent, and per block the innermost loop and the loop depth.
 * Needs: dominators (dom.c).  A retreating edge to a block that does not dominate
 * its source (irreducible control flow) is reported as an error. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

bool sched_loop_contains(const Schedule *s, int32_t l, BlockId b)
{
    if (l < 0)
        return true; /* the function body */
    const Loop *lp = &s->loops[l];
    if (lp->nbody && lp->body[lp->nbody - 1] - lp->header + 1 == lp->nbody) /* contiguous: constant time */
        return b >= lp->header && b <= lp->body[lp->nbody - 1];
    for (int32_t k = s->blocks[b].loop; k >= 0; k = s->loops[k].parent)
        if (k == l)
            return true;
    return false;
}

/* mark the natural loop of header h: h plus every block reaching a latch without h */
static void mark_body(const Schedule *s, BlockId h, uint8_t *in, BlockId *stack)
{
    memset(in, 0, s->nblocks);
    in[h] = 1;
    uint32_t sp = 0;
    const Block *hb = &s->blocks[h];
    for (uint32_t k = 0; k < hb->npreds; k++) {
        BlockId p = hb->preds[k];
        if (sched_dominates(s, h, p) && !in[p]) {
            in[p] = 1;
            stack[sp++] = p;
        }
    }
    while (sp) {
        const Block *b = &s->blocks[stack[--sp]];
        for (uint32_t k = 0; k < b->npreds; k++)
            if (!in[b->preds[k]]) {
                in[b->preds[k]] = 1;
                stack[sp++] = b->preds[k];
            }
    }
}

static void fill_loop(Schedule *s, Loop *lp, BlockId h, const uint8_t *in, int32_t *inner, int32_t id)
{
    const Block *hb = &s->blocks[h];
    lp->header = h;
    lp->parent = inner[h];
    lp->depth = lp->parent < 0 ? 1 : s->loops[lp->parent].depth + 1;
    for (BlockId b = 0; b < s->nblocks; b++)
        lp->nbody += in[b];
    lp->body = arena_alloc(s->arena, lp->nbody * sizeof(BlockId));
    lp->nbody = 0;
    for (BlockId b = 0; b < s->nblocks; b++)
        if (in[b]) {
            lp->body[lp->nbody++] = b;
            inner[b] = id;
        }
    lp->latches = arena_alloc(s->arena, hb->npreds * sizeof(BlockId));
    for (uint32_t k = 0; k < hb->npreds; k++)
        if (in[hb->preds[k]] && sched_dominates(s, h, hb->preds[k]))
            lp->latches[lp->nlatches++] = hb->preds[k];
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

bool sched_find_loops(Schedule *s, Diag *d)
{
    if (!check_reducible(s, d))
        return false;
    uint32_t n = s->nblocks, nheaders = 0;
    uint8_t *is_header = calloc(n, 1);
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
    uint8_t *in = malloc(n);
    BlockId *stack = malloc(n * sizeof *stack);
    int32_t *inner = malloc(n * sizeof *inner);
    for (BlockId b = 0; b < n; b++)
        inner[b] = -1;
    for (BlockId h = 0; h < n; h++) /* headers in block order: outer loops first */
        if (is_header[h]) {
            mark_body(s, h, in, stack);
            int32_t id = (int32_t)s->nloops++;
            fill_loop(s, &s->loops[id], h, in, inner, id);
        }
    for (BlockId b = 0; b < n; b++) {
        s->blocks[b].loop = inner[b];
        s->blocks[b].loop_depth = inner[b] < 0 ? 0 : s->loops[inner[b]].depth;
    }
    free(is_header);
    free(in);
    free(stack);
    free(inner);
    return true;
}
