/* dom.c — the dominator tree of the blocks (Cooper, Harvey, Kennedy: "A Simple, Fast
 * Dominance Algorithm"), dominator-tree depths, dominance and LCA queries.
 * Needs: blocks numbered in reverse postorder (sched_order_blocks), preds filled. */
#include "sched.h"

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
}

bool sched_dominates(const Schedule *s, BlockId a, BlockId b)
{
    while (b != NO_BLOCK && s->blocks[b].dom_depth > s->blocks[a].dom_depth)
        b = s->blocks[b].idom;
    return b == a;
}

BlockId sched_lca(const Schedule *s, BlockId a, BlockId b)
{
    if (a == NO_BLOCK)
        return b;
    if (b == NO_BLOCK)
        return a;
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
