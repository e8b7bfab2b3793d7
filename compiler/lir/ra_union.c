/* ra_union.c — the live-interval union of each register during linear scan (see
 * ra_union.h): a treap per register keyed by (range start, owner), with the largest
 * range end of each subtree, for the first meeting point of an interval with the
 * register's holders. */
#include "ra_union.h"
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void ra_union_init(RaUnion *u)
{
    *u = (RaUnion){.free_list = -1, .seed = 0x9e3779b9u};
    for (unsigned r = 0; r < LIR_MAX_REGS; r++)
        u->root[r] = -1;
}

void ra_union_free(RaUnion *u)
{
    free(u->v);
    u->v = NULL;
}

static uint32_t next_prio(RaUnion *u)
{
    uint32_t x = u->seed; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return u->seed = x;
}

static int32_t new_node(RaUnion *u, uint32_t from, uint32_t to, const Interval *owner)
{
    int32_t i = u->free_list;
    if (i >= 0) {
        u->free_list = u->v[i].left;
    } else {
        if (!lir_grow_array((void **)&u->v, &u->cap, u->n + 1, sizeof *u->v))
            abort();
        i = (int32_t)u->n++;
    }
    u->v[i] = (RaUnionNode){from, to, to, next_prio(u), owner, -1, -1};
    return i;
}

/* does (from, owner) order before node x's key */
static bool key_less(const RaUnion *u, uint32_t from, const Interval *owner, int32_t x)
{
    const RaUnionNode *n = &u->v[x];
    return from != n->from ? from < n->from : (uintptr_t)owner < (uintptr_t)n->owner;
}

static void pull(RaUnion *u, int32_t x)
{
    RaUnionNode *n = &u->v[x];
    n->max_to = n->to;
    if (n->left >= 0 && u->v[n->left].max_to > n->max_to)
        n->max_to = u->v[n->left].max_to;
    if (n->right >= 0 && u->v[n->right].max_to > n->max_to)
        n->max_to = u->v[n->right].max_to;
}

static bool same_key(const RaUnion *u, uint32_t from, const Interval *owner, int32_t x)
{
    return u->v[x].from == from && u->v[x].owner == owner;
}

/* the treap below x cut into the keys before (from, owner) and the rest */
static void split(RaUnion *u, int32_t x, uint32_t from, const Interval *owner, int32_t *l, int32_t *r)
{
    if (x < 0) {
        *l = *r = -1;
        return;
    }
    if (key_less(u, from, owner, x)) {
        split(u, u->v[x].left, from, owner, l, &u->v[x].left);
        *r = x;
    } else {
        split(u, u->v[x].right, from, owner, &u->v[x].right, r);
        *l = x;
    }
    pull(u, x);
}

/* two treaps, every key of a before every key of b, as one */
static int32_t merge(RaUnion *u, int32_t a, int32_t b)
{
    if (a < 0 || b < 0)
        return a < 0 ? b : a;
    if (u->v[a].prio > u->v[b].prio) {
        u->v[a].right = merge(u, u->v[a].right, b);
        pull(u, a);
        return a;
    }
    u->v[b].left = merge(u, a, u->v[b].left);
    pull(u, b);
    return b;
}

/* the treap below x with node k inserted */
static int32_t insert(RaUnion *u, int32_t x, int32_t k)
{
    if (x < 0)
        return k;
    if (u->v[k].prio > u->v[x].prio) {
        split(u, x, u->v[k].from, u->v[k].owner, &u->v[k].left, &u->v[k].right);
        pull(u, k);
        return k;
    }
    if (key_less(u, u->v[k].from, u->v[k].owner, x))
        u->v[x].left = insert(u, u->v[x].left, k);
    else
        u->v[x].right = insert(u, u->v[x].right, k);
    pull(u, x);
    return x;
}

/* the treap below x without the node of key (from, owner) */
static int32_t erase(RaUnion *u, int32_t x, uint32_t from, const Interval *owner)
{
    if (x < 0)
        return -1;
    if (same_key(u, from, owner, x)) {
        int32_t rest = merge(u, u->v[x].left, u->v[x].right);
        u->v[x].left = u->free_list;
        u->free_list = x;
        return rest;
    }
    if (key_less(u, from, owner, x))
        u->v[x].left = erase(u, u->v[x].left, from, owner);
    else
        u->v[x].right = erase(u, u->v[x].right, from, owner);
    pull(u, x);
    return x;
}

void ra_union_add(RaUnion *u, const Interval *iv, uint32_t first)
{
    for (uint32_t i = first; i < iv->nranges; i++) {
        int32_t k = new_node(u, iv->ranges[i].from, iv->ranges[i].to, iv);
        u->root[iv->reg] = insert(u, u->root[iv->reg], k);
    }
}

void ra_union_remove(RaUnion *u, const Interval *iv, uint32_t first)
{
    for (uint32_t i = first; i < iv->nranges; i++)
        u->root[iv->reg] = erase(u, u->root[iv->reg], iv->ranges[i].from, iv);
}

/* the largest range end among the ranges below x that start at or before f (0 if none) */
static uint32_t max_to_upto(const RaUnion *u, int32_t x, uint32_t f)
{
    uint32_t best = 0;
    while (x >= 0) {
        const RaUnionNode *n = &u->v[x];
        if (n->from > f) {
            x = n->left;
            continue;
        }
        best = n->to > best ? n->to : best;
        if (n->left >= 0 && u->v[n->left].max_to > best)
            best = u->v[n->left].max_to;
        x = n->right;
    }
    return best;
}

/* the first range start below x after f, UINT32_MAX if none */
static uint32_t first_from_after(const RaUnion *u, int32_t x, uint32_t f)
{
    uint32_t best = UINT32_MAX;
    while (x >= 0) {
        if (u->v[x].from > f) {
            best = u->v[x].from;
            x = u->v[x].left;
        } else {
            x = u->v[x].right;
        }
    }
    return best;
}

/* the first of cur's ranges from lo on that ends after p (cur->nranges if none) */
static uint32_t first_ending_after(const Interval *cur, uint32_t lo, uint32_t p)
{
    uint32_t hi = cur->nranges;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cur->ranges[mid].to > p)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* cur's ranges in order: the first that a holder's range covers the start of, or
 * that a holder's range starts inside, gives the answer.  After a range that meets
 * none, no holder's range starts before the next start b, and those that started
 * before end by the range's start: so the ranges of cur that end by b meet none
 * (skipped by a binary search), and the next one meets at b if it starts before */
uint32_t ra_union_first_meet(const RaUnion *u, int reg, const Interval *cur)
{
    int32_t root = u->root[reg];
    uint32_t i = 0;
    while (root >= 0 && i < cur->nranges) {
        uint32_t f = cur->ranges[i].from, t = cur->ranges[i].to;
        if (max_to_upto(u, root, f) > f)
            return f;
        uint32_t b = first_from_after(u, root, f);
        if (b < t)
            return b;
        if (b == UINT32_MAX)
            break;
        i = first_ending_after(cur, i + 1, b);
        if (i < cur->nranges && cur->ranges[i].from < b)
            return b;
    }
    return UINT32_MAX;
}
