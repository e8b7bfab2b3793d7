/* dom.c — the dominator tree of the blocks (Semi-NCA: Georgiadis, Tarjan, Werneck,
 * "Finding Dominators in Practice"), dominator-tree depths and preorder numbers,
 * dominance (constant time) and LCA queries.
 * Needs: blocks numbered in reverse postorder (sched_order_blocks), preds filled. */
#include "sched.h"

#include <stdlib.h>

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

/* Semi-NCA's state, per block (indexed by block id): its depth-first preorder
 * number, DFS parent, semidominator (a preorder number), and the path-compressed
 * forest of the blocks processed so far (ancestor, and the block of least
 * semidominator on the compressed path, label).  Everything is iterative: a nest of
 * loops makes the depth-first tree as deep as the function. */
typedef struct {
    uint32_t *pre, *vertex, *parent, *semi, *label, *ancestor, *stack, *next;
    uint32_t n;
} Snca;

enum { UNSEEN = UINT32_MAX };

/* preorder numbers from the entry along the successors; the count reached */
static uint32_t dfs(const Schedule *s, Snca *d)
{
    uint32_t cnt = 0, sp = 0;
    d->pre[0] = cnt, d->vertex[cnt++] = 0, d->next[0] = 0, d->stack[sp++] = 0;
    while (sp) {
        BlockId v = d->stack[sp - 1];
        if (d->next[v] == s->blocks[v].nsuccs) {
            sp--;
            continue;
        }
        BlockId w = s->blocks[v].succs[d->next[v]++].to;
        if (w < d->n && d->pre[w] == UNSEEN) {
            d->pre[w] = cnt, d->vertex[cnt++] = w, d->parent[w] = v, d->next[w] = 0;
            d->stack[sp++] = w;
        }
    }
    return cnt;
}

/* the block of least semidominator on v's path to its forest root (v itself if v
 * is a root), compressing the path on the way */
static uint32_t eval(Snca *d, uint32_t v)
{
    if (d->ancestor[v] == UNSEEN)
        return v;
    uint32_t sp = 0;
    for (uint32_t x = v; d->ancestor[d->ancestor[x]] != UNSEEN; x = d->ancestor[x])
        d->stack[sp++] = x;
    while (sp) {
        uint32_t y = d->stack[--sp], a = d->ancestor[y];
        if (d->semi[d->label[a]] < d->semi[d->label[y]])
            d->label[y] = d->label[a];
        d->ancestor[y] = d->ancestor[a];
    }
    return d->label[v];
}

/* every reached block's semidominator, in reverse preorder */
static void semidominators(const Schedule *s, Snca *d, uint32_t cnt)
{
    for (uint32_t i = cnt; i-- > 1;) {
        uint32_t w = d->vertex[i];
        for (uint32_t k = 0; k < s->blocks[w].npreds; k++) {
            BlockId v = s->blocks[w].preds[k];
            if (v >= d->n || d->pre[v] == UNSEEN)
                continue;
            uint32_t u = eval(d, v);
            if (d->semi[u] < d->semi[w])
                d->semi[w] = d->semi[u];
        }
        d->ancestor[w] = d->parent[w];
    }
}

static uint32_t *column(uint32_t n, uint32_t fill)
{
    uint32_t *v = malloc(((size_t)n + 1) * sizeof *v);
    if (!v)
        abort();
    for (uint32_t i = 0; i <= n; i++)
        v[i] = fill;
    return v;
}

/* idom of every block reached from the entry: the nearest ancestor of its DFS
 * parent numbered at most its semidominator */
static void immediate_dominators(Schedule *s)
{
    uint32_t n = s->nblocks;
    Snca d = { column(n, UNSEEN), column(n, 0), column(n, 0), NULL, column(n, 0), column(n, UNSEEN),
               column(n, 0), column(n, 0), n };
    uint32_t cnt = dfs(s, &d);
    d.semi = column(n, 0);
    for (uint32_t v = 0; v < n; v++)
        d.semi[v] = d.pre[v], d.label[v] = v;
    semidominators(s, &d, cnt);
    Block *bl = s->blocks;
    for (uint32_t i = 1; i < cnt; i++) {
        uint32_t w = d.vertex[i], x = d.parent[w];
        while (d.pre[x] > d.semi[w])
            x = bl[x].idom;
        bl[w].idom = x;
    }
    uint32_t *cols[] = { d.pre, d.vertex, d.parent, d.semi, d.label, d.ancestor, d.stack, d.next };
    for (unsigned k = 0; k < sizeof cols / sizeof cols[0]; k++)
        free(cols[k]);
}

void sched_dominators(Schedule *s)
{
    Block *bl = s->blocks;
    for (BlockId i = 0; i < s->nblocks; i++)
        bl[i].idom = NO_BLOCK;
    if (!s->nblocks)
        return;
    immediate_dominators(s);
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
