/* dom.c — the dominator tree of the blocks (Cooper, Harvey, Kennedy: "A Simple, Fast
 * Dominance Algorithm"), dominator-tree depths and preorder numbers, dominance
 * (constant time) and LCA queries.
 * Needs: blocks numbered in reverse postorder (sched_order_blocks), preds filled. */
#include "sched.h"

#include <stdlib.h>

static BlockId intersect(const Block *blocks, BlockId a, BlockId b)
{
    while (a != b) {
        while (a > b)
            a = blocks[a].idom;
        while (b > a)
            b = blocks[b].idom;
    }
    return a;
}

/* preorder numbers and subtree sizes of the dominator tree (every idom precedes its
 * block, so sizes add up backwards and numbers are handed out forwards) */
static void number_dom_tree(Schedule *s)
{
    Block *bl = s->blocks;
    uint32_t *next = malloc(s->nblocks * sizeof *next); /* per block: its next child's number */
    if (!next)
        abort();
    for (BlockId b = 0; b < s->nblocks; b++)
        bl[b].dom_size = 1;
    for (BlockId b = s->nblocks; b-- > 1;)
        bl[bl[b].idom].dom_size += bl[b].dom_size;
    bl[0].dom_pre = 0;
    next[0] = 1;
    for (BlockId b = 1; b < s->nblocks; b++) {
        bl[b].dom_pre = next[bl[b].idom];
        next[bl[b].idom] += bl[b].dom_size;
        next[b] = bl[b].dom_pre + 1;
    }
    free(next);
}

void sched_dominators(Schedule *s)
{
    Block *bl = s->blocks;
    for (BlockId i = 0; i < s->nblocks; i++)
        bl[i].idom = NO_BLOCK;
    if (!s->nblocks)
        return;
    bl[0].idom = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (BlockId b = 1; b < s->nblocks; b++) {
            BlockId nd = NO_BLOCK;
            for (uint32_t k = 0; k < bl[b].npreds; k++) {
                BlockId p = bl[b].preds[k];
                if (bl[p].idom == NO_BLOCK)
                    continue;
                nd = nd == NO_BLOCK ? p : intersect(bl, p, nd);
            }
            if (nd != bl[b].idom) {
                bl[b].idom = nd;
                changed = true;
            }
        }
    }
    bl[0].idom = NO_BLOCK;
    bl[0].dom_depth = 0;
    for (BlockId b = 1; b < s->nblocks; b++) /* idom precedes b in reverse postorder */
        bl[b].dom_depth = bl[bl[b].idom].dom_depth + 1;
    number_dom_tree(s);
}

bool sched_dominates(const Schedule *s, BlockId a, BlockId b)
{
    if (a >= s->nblocks || b >= s->nblocks)
        return a == b;
    const Block *x = &s->blocks[a], *y = &s->blocks[b];
    return x->dom_pre <= y->dom_pre && y->dom_pre < x->dom_pre + x->dom_size;
}

BlockId sched_lca(const Schedule *s, BlockId a, BlockId b)
{
    if (a == NO_BLOCK)
        return b;
    if (b == NO_BLOCK)
        return a;
    if (sched_dominates(s, a, b))
        return a; /* the common case of a growing set's LCA: constant time */
    if (sched_dominates(s, b, a))
        return b;
    const Block *bl = s->blocks;
    while (bl[a].dom_depth > bl[b].dom_depth)
        a = bl[a].idom;
    while (bl[b].dom_depth > bl[a].dom_depth)
        b = bl[b].idom;
    while (a != b) {
        a = bl[a].idom;
        b = bl[b].idom;
    }
    return a;
}
