/* ra_union.h — the live-interval union of one register during linear scan: the
 * ranges of every interval that holds the register (active or waiting in a hole), in
 * one balanced search tree (a treap by range start, each node also keeping the
 * largest range end below it), so "where does this interval first meet the
 * register's holders" costs a few searches per range of the interval, however many
 * holders wait.  Owned by the scan (regalloc.c); no state outside the struct. */
#ifndef CIRC_RA_UNION_H
#define CIRC_RA_UNION_H

#include "ra_internal.h"

typedef struct {
    uint32_t from, to;      /* one range of owner */
    uint32_t max_to;        /* the largest `to` in this node's subtree */
    uint32_t prio;          /* heap order of the treap */
    const Interval *owner;  /* the interval the range is of (ties of `from` by it) */
    int32_t left, right;    /* node indices, -1 for none; `left` links the free list */
} RaUnionNode;

typedef struct {
    RaUnionNode *v;         /* the nodes of every register's tree */
    uint32_t n, cap;
    int32_t free_list;      /* released nodes, -1 if none */
    uint32_t seed;          /* priorities: a fixed sequence, so compiles repeat */
    int32_t root[LIR_MAX_REGS];
} RaUnion;

void ra_union_init(RaUnion *u);
void ra_union_free(RaUnion *u);
/* ranges[first..nranges) of iv join (leave) register iv->reg's union; leaving needs
 * the same ranges' starts as when they joined */
void ra_union_add(RaUnion *u, const Interval *iv, uint32_t first);
void ra_union_remove(RaUnion *u, const Interval *iv, uint32_t first);
/* the first position where cur meets a range of register reg's union (as
 * iv_intersection over its holders), UINT32_MAX if none */
uint32_t ra_union_first_meet(const RaUnion *u, int reg, const Interval *cur);

#endif
