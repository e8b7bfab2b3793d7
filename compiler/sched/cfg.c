/* cfg.c — the blocks of a function's state graph and their order.
 * sched_build_blocks walks the state gates reachable from STATE_ENTRY and cuts them
 * into blocks (see sched.h); sched_order_blocks renumbers the blocks in a reverse
 * postorder that keeps every loop body contiguous (it needs the loops of loops.c; with
 * no loops known yet it gives a plain reverse postorder). */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

static bool is_block_head(int op)
{
    switch (op) {
    case OP_STATE_ENTRY: case OP_MERGE: case OP_LOOP_BEGIN: case OP_IF_TRUE: case OP_IF_FALSE:
    case OP_SWITCH_CASE: case OP_DEFAULT_CASE: case OP_IF_SUCCESS: case OP_IF_EXCEPTION:
        return true;
    default:
        return false;
    }
}

/* the state gates that take g as a state input, sorted by gate id; *index gets the
 * input index of each; returns the count (at most cap) */
static uint32_t state_users(const Circuit *c, GateId g, GateId *users, uint32_t *index, uint32_t cap)
{
    const Gate *gt = &c->gates[g];
    uint32_t n = 0;
    for (uint32_t i = 0; i < gt->nuses; i++) {
        const Use *u = &gt->uses[i];
        const Gate *ug = &c->gates[u->user];
        if (ug->dead || !op_has(ug->op, F_STATE) || u->index >= ug->nstate)
            continue;
        uint32_t k = n < cap ? n++ : cap; /* overflow: reported by the caller via n == cap */
        if (k == cap)
            return cap + 1;
        users[k] = u->user;
        index[k] = u->index;
        for (; k > 0 && users[k - 1] > users[k]; k--) {
            GateId t = users[k]; users[k] = users[k - 1]; users[k - 1] = t;
            uint32_t ti = index[k]; index[k] = index[k - 1]; index[k - 1] = ti;
        }
    }
    return n;
}

typedef struct {
    Schedule *s;
    Diag *d;
    const Circuit *c;
    GateId *heads;       /* discovered block heads, in discovery order */
    uint32_t nheads, capheads;
    uint32_t capstates;  /* capacity of the states of the block being walked */
    BlockId *head_block; /* per gate: block id of a head */
} Builder;

static BlockId block_of_head(Builder *b, GateId head)
{
    if (b->head_block[head] != NO_BLOCK)
        return b->head_block[head];
    if (b->nheads == b->capheads) {
        b->capheads = b->capheads ? 2 * b->capheads : 16;
        b->heads = realloc(b->heads, b->capheads * sizeof *b->heads);
    }
    b->heads[b->nheads] = head;
    return b->head_block[head] = b->nheads++;
}

/* room for n successors of blk (before the first add_succ) */
static void reserve_succs(Builder *b, Block *blk, uint32_t n)
{
    blk->succs = arena_alloc(b->s->arena, (n ? n : 1) * sizeof(Edge));
}

static Edge *add_succ(Builder *b, Block *blk, GateId head, uint32_t join_input)
{
    Edge *e = &blk->succs[blk->nsuccs++];
    e->to = block_of_head(b, head);
    e->join_input = join_input;
    return e;
}

static bool fail(Builder *b, GateId g, const char *msg)
{
    diag_gate(b->d, b->c->func, g, "%s", msg);
    return false;
}

/* IF_BRANCH: successors [IF_TRUE, IF_FALSE]; INVOKE: [IF_SUCCESS, IF_EXCEPTION] */
static bool end_with_pair(Builder *b, Block *blk, GateId br)
{
    bool invoke = b->c->gates[br].op == OP_INVOKE;
    int first = invoke ? OP_IF_SUCCESS : OP_IF_TRUE, second = invoke ? OP_IF_EXCEPTION : OP_IF_FALSE;
    const char *msg = invoke ? "INVOKE must have exactly one IF_SUCCESS and one IF_EXCEPTION successor"
                             : "IF_BRANCH must have exactly one IF_TRUE and one IF_FALSE successor";
    GateId users[4];
    uint32_t idx[4];
    uint32_t n = state_users(b->c, br, users, idx, 4);
    GateId t = NO_GATE, f = NO_GATE;
    for (uint32_t i = 0; i < n && i < 4; i++) {
        int op = b->c->gates[users[i]].op;
        if (op == first && t == NO_GATE)
            t = users[i];
        else if (op == second && f == NO_GATE)
            f = users[i];
        else
            return fail(b, br, msg);
    }
    if (t == NO_GATE || f == NO_GATE)
        return fail(b, br, msg);
    blk->term = invoke ? TERM_INVOKE : TERM_IF;
    reserve_succs(b, blk, 2);
    add_succ(b, blk, t, UINT32_MAX);
    add_succ(b, blk, f, UINT32_MAX);
    return true;
}

/* SWITCH_BRANCH: successors [case..., default], cases in gate-id order */
static bool end_with_switch(Builder *b, Block *blk, GateId br)
{
    const Gate *g = &b->c->gates[br];
    uint32_t cap = g->nuses + 1;
    GateId *users = malloc(cap * sizeof *users);
    uint32_t *idx = malloc(cap * sizeof *idx);
    uint32_t n = state_users(b->c, br, users, idx, cap);
    GateId dflt = NO_GATE;
    bool ok = true;
    blk->term = TERM_SWITCH;
    blk->case_values = arena_alloc(b->s->arena, (n ? n : 1) * sizeof(uint64_t));
    reserve_succs(b, blk, n);
    for (uint32_t i = 0; i < n && ok; i++) {
        const Gate *u = &b->c->gates[users[i]];
        if (u->op == OP_DEFAULT_CASE && dflt == NO_GATE)
            dflt = users[i];
        else if (u->op == OP_SWITCH_CASE) {
            blk->case_values[blk->nsuccs] = u->lit;
            add_succ(b, blk, users[i], UINT32_MAX);
        } else
            ok = fail(b, br, "SWITCH_BRANCH successors must be SWITCH_CASEs and one DEFAULT_CASE");
    }
    if (ok && dflt == NO_GATE)
        ok = fail(b, br, "SWITCH_BRANCH has no DEFAULT_CASE");
    if (ok)
        add_succ(b, blk, dflt, UINT32_MAX);
    free(users);
    free(idx);
    return ok;
}

/* append g to the states of blk, the block being walked (capacity doubles) */
static void add_state(Builder *b, Block *blk, GateId g)
{
    if (blk->nstates == b->capstates) {
        uint32_t cap = b->capstates ? 2 * b->capstates : 4;
        blk->states = arena_grow_raw(b->s->arena, blk->states, b->capstates * sizeof(GateId),
                                     cap * sizeof(GateId));
        b->capstates = cap;
    }
    blk->states[blk->nstates++] = g;
    b->s->state_block[g] = blk->id;
}

/* follow the state chain from a block head to the block's terminator */
static bool walk_block(Builder *b, Block *blk)
{
    const Circuit *c = b->c;
    GateId cur = blk->head;
    b->capstates = 0;
    add_state(b, blk, cur);
    for (uint32_t guard = 0; guard <= c->ngates; guard++) {
        int op = c->gates[cur].op;
        blk->term_gate = cur;
        if (op == OP_IF_BRANCH || op == OP_INVOKE)
            return end_with_pair(b, blk, cur);
        if (op == OP_SWITCH_BRANCH)
            return end_with_switch(b, blk, cur);
        if (op == OP_RETURN || op == OP_THROW) {
            blk->term = op == OP_RETURN ? TERM_RETURN : TERM_THROW;
            b->s->state_block[cur] = blk->id;
            return true;
        }
        GateId users[2];
        uint32_t idx[2];
        uint32_t n = state_users(c, cur, users, idx, 2);
        if (n != 1)
            return fail(b, cur, n == 0 ? "state gate has no successor state"
                                       : "state gate has more than one successor state");
        GateId next = users[0];
        int nop = c->gates[next].op;
        if (nop == OP_MERGE || nop == OP_LOOP_BEGIN) {
            blk->term = TERM_GOTO;
            reserve_succs(b, blk, 1);
            add_succ(b, blk, next, idx[0]);
            return true;
        }
        if (is_block_head(nop))
            return fail(b, next, "branch successor state follows a state that is not a branch");
        if (nop == OP_ORDINARY_BLOCK || nop == OP_LOOP_BACK)
            add_state(b, blk, next);
        else if (nop == OP_IF_BRANCH || nop == OP_SWITCH_BRANCH || nop == OP_INVOKE)
            b->s->state_block[next] = blk->id;
        cur = next;
    }
    return fail(b, blk->head, "state chain does not end");
}

/* predecessors of blocks that are not joins: one per edge into them; counts them in
 * npreds (fill false), or lists them in arrays sized by the count */
static void add_edge_preds(Builder *b, bool fill)
{
    Schedule *s = b->s;
    for (BlockId i = 0; i < s->nblocks; i++) {
        const Block *blk = &s->blocks[i];
        for (uint32_t k = 0; k < blk->nsuccs; k++) {
            Block *to = &s->blocks[blk->succs[k].to];
            if (op_has(b->c->gates[to->head].op, F_JOIN))
                continue;
            if (fill)
                to->preds[to->npreds] = i;
            to->npreds++;
        }
    }
}

/* predecessors: for a join, in the order of its state inputs */
static bool link_preds(Builder *b)
{
    Schedule *s = b->s;
    add_edge_preds(b, false);
    for (BlockId i = 0; i < s->nblocks; i++) {
        Block *blk = &s->blocks[i];
        const Gate *h = &b->c->gates[blk->head];
        bool join = op_has(h->op, F_JOIN);
        uint32_t n = join ? h->nstate : blk->npreds;
        blk->preds = arena_alloc(s->arena, (n ? n : 1) * sizeof(BlockId));
        blk->npreds = 0;
        for (uint32_t j = 0; join && j < h->nstate; j++) {
            BlockId p = h->in[j] < b->c->ngates ? s->state_block[h->in[j]] : NO_BLOCK;
            if (p == NO_BLOCK)
                return fail(b, blk->head, "a state input of the join is not reachable from entry");
            blk->preds[blk->npreds++] = p;
        }
    }
    add_edge_preds(b, true);
    return true;
}

bool sched_build_blocks(Schedule *s, Diag *d)
{
    const Circuit *c = s->func->circ;
    Builder b = {.s = s, .d = d, .c = c};
    b.head_block = malloc(c->ngates * sizeof *b.head_block);
    for (uint32_t i = 0; i < c->ngates; i++)
        b.head_block[i] = s->state_block[i] = NO_BLOCK;
    block_of_head(&b, ROOT_STATE_ENTRY);
    bool ok = true;
    uint32_t capblocks = 0;
    for (uint32_t i = 0; ok && i < b.nheads; i++) {
        if (i == capblocks) {
            uint32_t cap = capblocks ? 2 * capblocks : 16;
            s->blocks = arena_grow(s->arena, s->blocks, capblocks * sizeof(Block), cap * sizeof(Block));
            capblocks = cap;
        }
        Block *blk = &s->blocks[i];
        blk->id = i;
        blk->head = b.heads[i];
        blk->loop = -1;
        blk->idom = NO_BLOCK;
        s->nblocks = i + 1;
        ok = walk_block(&b, blk);
    }
    if (ok)
        ok = link_preds(&b);
    free(b.heads);
    free(b.head_block);
    return ok;
}

/* ---- block order ------------------------------------------------------------- */

/* depth of the innermost loop containing both a and b (0 if none) */
static uint32_t common_loop_depth(const Schedule *s, BlockId a, BlockId b)
{
    for (int32_t l = s->blocks[a].loop; l >= 0; l = s->loops[l].parent)
        if (sched_loop_contains(s, l, b))
            return s->loops[l].depth;
    return 0;
}

typedef struct {
    uint32_t key;   /* loop depth shared with the successor */
    uint32_t order; /* visiting position before sorting */
} VisitKey;

static int cmp_visit_key(const void *pa, const void *pb)
{
    const VisitKey *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->order > b->order ? -1 : a->order < b->order; /* equals: the last successor first */
}

/* successor visiting order for the DFS: successors leaving more loops first (they end
 * up after the loop body in reverse postorder), and among equals the last successor
 * first (so the first successor is laid out first); keys has room for nsuccs */
static void visit_order(const Schedule *s, BlockId b, uint32_t *order, VisitKey *keys)
{
    const Block *blk = &s->blocks[b];
    uint32_t n = blk->nsuccs;
    for (uint32_t i = 0; i < n; i++) {
        keys[i].order = n - 1 - i;
        keys[i].key = common_loop_depth(s, b, blk->succs[n - 1 - i].to);
    }
    qsort(keys, n, sizeof *keys, cmp_visit_key);
    for (uint32_t i = 0; i < n; i++)
        order[i] = keys[i].order;
}

/* DFS state: per block, where its visiting order starts in `order` (the blocks'
 * successor counts laid end to end) and the next successor to visit */
typedef struct {
    const Schedule *s;
    size_t *first;
    uint32_t *order, *next;
    VisitKey *keys;
} Dfs;

static bool dfs_init(Dfs *d, const Schedule *s)
{
    uint32_t n = s->nblocks, maxs = 1;
    size_t total = 0;
    d->s = s;
    d->first = malloc(((size_t)n + 1) * sizeof *d->first);
    for (BlockId i = 0; i < n; i++) {
        d->first[i] = total;
        total += s->blocks[i].nsuccs;
        if (s->blocks[i].nsuccs > maxs)
            maxs = s->blocks[i].nsuccs;
    }
    d->order = malloc((total ? total : 1) * sizeof *d->order);
    d->next = malloc(((size_t)n + 1) * sizeof *d->next);
    d->keys = malloc(maxs * sizeof *d->keys);
    return d->first && d->order && d->next && d->keys;
}

static void dfs_free(Dfs *d)
{
    free(d->first);
    free(d->order);
    free(d->next);
    free(d->keys);
}

static void dfs_enter(Dfs *d, BlockId b)
{
    d->next[b] = 0;
    visit_order(d->s, b, d->order + d->first[b], d->keys);
}

/* reverse postorder from the entry; returns the number of blocks reached */
static uint32_t reverse_postorder(const Schedule *s, BlockId *rpo)
{
    uint32_t n = s->nblocks;
    Dfs d;
    uint8_t *seen = calloc(n, 1);
    BlockId *stack = malloc(n * sizeof *stack);
    if (!dfs_init(&d, s) || !seen || !stack) {
        fputs("circ: out of memory\n", stderr);
        abort();
    }
    uint32_t sp = 0, post = n;
    stack[sp++] = 0;
    seen[0] = 1;
    dfs_enter(&d, 0);
    while (sp) {
        BlockId b = stack[sp - 1];
        const Block *blk = &s->blocks[b];
        if (d.next[b] < blk->nsuccs) {
            BlockId t = blk->succs[d.order[d.first[b] + d.next[b]++]].to;
            if (!seen[t]) {
                seen[t] = 1;
                dfs_enter(&d, t);
                stack[sp++] = t;
            }
        } else {
            rpo[--post] = b;
            sp--;
        }
    }
    /* blocks are all reachable (built from the entry): post == 0 */
    uint32_t reached = n - post;
    if (post)
        memmove(rpo, rpo + post, reached * sizeof *rpo);
    free(seen);
    free(stack);
    dfs_free(&d);
    return reached;
}

static void remap(BlockId *b, const BlockId *newid)
{
    if (*b != NO_BLOCK && *b != MULTI_BLOCK)
        *b = newid[*b];
}

/* renumber blocks so that blocks[i] is the i-th of rpo */
static void renumber(Schedule *s, const BlockId *rpo)
{
    uint32_t n = s->nblocks;
    BlockId *newid = malloc(n * sizeof *newid);
    Block *nb = arena_alloc(s->arena, n * sizeof *nb);
    for (uint32_t i = 0; i < n; i++) {
        newid[rpo[i]] = i;
        nb[i] = s->blocks[rpo[i]];
    }
    for (uint32_t i = 0; i < n; i++) {
        Block *b = &nb[i];
        b->id = i;
        for (uint32_t k = 0; k < b->nsuccs; k++)
            remap(&b->succs[k].to, newid);
        for (uint32_t k = 0; k < b->npreds; k++)
            remap(&b->preds[k], newid);
        b->idom = NO_BLOCK;
        b->loop = -1;
        b->loop_depth = 0;
    }
    for (uint32_t g = 0; g < s->ngates; g++) {
        remap(&s->state_block[g], newid);
        remap(&s->gate_block[g], newid);
    }
    s->blocks = nb;
    s->nloops = 0;
    s->loops = NULL;
    free(newid);
}

bool sched_order_blocks(Schedule *s)
{
    BlockId *rpo = malloc(s->nblocks * sizeof *rpo);
    uint32_t n = reverse_postorder(s, rpo);
    bool ok = n == s->nblocks;
    if (ok)
        renumber(s, rpo);
    free(rpo);
    return ok;
}
