/* sched_dom_unit.c — sched_dominators (compiler/sched/dom.c) against the definition:
 * on random control-flow graphs (loops, irreducible edges, self loops, switches),
 * numbered in reverse postorder as the scheduler numbers its blocks, each block's
 * immediate dominator is the dominator nearest to it among the blocks that dominate
 * it by the iterative set equations (dom(b) = {b} + the intersection of its
 * predecessors' sets), and sched_dominates agrees with those sets; a nest of 20,000
 * loops (a depth-first tree as deep as the graph) gets its chain of headers. */
#include "compiler/sched/sched.h"

#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

enum { MAXN = 96, WORDS = MAXN / 64 + 1, GRAPHS = 400 };

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

typedef struct {
    uint32_t n, nsucc[MAXN], succ[MAXN][4];
} Graph;

/* a random graph on n blocks: a spine 0 -> 1 -> ... so that every block is reached,
 * and up to three more edges a block, forward and backward */
static void random_graph(Graph *g, uint64_t *s)
{
    g->n = 2 + rnd(s) % (MAXN - 2);
    for (uint32_t b = 0; b < g->n; b++) {
        g->nsucc[b] = 0;
        if (b + 1 < g->n && rnd(s) % 8)
            g->succ[b][g->nsucc[b]++] = b + 1;
        for (uint32_t k = rnd(s) % 4; k > 0 && g->nsucc[b] < 4; k--)
            g->succ[b][g->nsucc[b]++] = rnd(s) % g->n;
    }
    for (uint32_t b = 0; b + 1 < g->n; b++) /* keep the spine's reach */
        if (g->nsucc[b] == 0)
            g->succ[b][g->nsucc[b]++] = b + 1;
}

/* reverse postorder of the blocks reached from 0: order[i] is the block numbered i */
static uint32_t reverse_postorder(const Graph *g, uint32_t *order)
{
    uint32_t post[MAXN], np = 0, stack[MAXN], next[MAXN], sp = 0;
    bool seen[MAXN] = { false };
    seen[0] = true, next[0] = 0, stack[sp++] = 0;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next[v] == g->nsucc[v]) {
            post[np++] = v, sp--;
            continue;
        }
        uint32_t w = g->succ[v][next[v]++];
        if (!seen[w])
            seen[w] = true, next[w] = 0, stack[sp++] = w;
    }
    for (uint32_t i = 0; i < np; i++)
        order[i] = post[np - 1 - i];
    return np;
}

/* a Schedule of the reached blocks under their reverse-postorder numbers */
static Schedule *schedule_of(const Graph *g, Arena *a)
{
    uint32_t order[MAXN], num[MAXN], n = reverse_postorder(g, order);
    for (uint32_t i = 0; i < MAXN; i++)
        num[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++)
        num[order[i]] = i;
    Schedule *s = arena_alloc(a, sizeof *s);
    s->nblocks = n;
    s->blocks = arena_alloc(a, n * sizeof *s->blocks);
    for (uint32_t i = 0; i < n; i++) {
        Block *b = &s->blocks[i];
        b->id = i;
        b->succs = arena_alloc(a, 4 * sizeof *b->succs);
        b->preds = arena_alloc(a, (size_t)MAXN * 4 * sizeof *b->preds);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < g->nsucc[order[i]]; k++) {
            uint32_t to = num[g->succ[order[i]][k]];
            s->blocks[i].succs[s->blocks[i].nsuccs++].to = to;
            s->blocks[to].preds[s->blocks[to].npreds++] = i;
        }
    return s;
}

/* dom[b]: the blocks that dominate b, by the set equations iterated to the fixpoint */
static void dominator_sets(const Schedule *s, uint64_t dom[][WORDS])
{
    uint32_t n = s->nblocks;
    for (uint32_t b = 0; b < n; b++)
        memset(dom[b], b ? 0xff : 0, sizeof dom[b]);
    dom[0][0] = 1;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 1; b < n; b++) {
            uint64_t next[WORDS];
            memset(next, 0xff, sizeof next);
            for (uint32_t k = 0; k < s->blocks[b].npreds; k++)
                for (int w = 0; w < WORDS; w++)
                    next[w] &= dom[s->blocks[b].preds[k]][w];
            next[b / 64] |= 1ull << (b % 64);
            changed |= memcmp(next, dom[b], sizeof next) != 0;
            memcpy(dom[b], next, sizeof next);
        }
    }
}

static bool has(const uint64_t *set, uint32_t i) { return (set[i / 64] >> (i % 64)) & 1; }

static uint32_t count(const uint64_t *set)
{
    uint32_t c = 0;
    for (int w = 0; w < WORDS; w++)
        c += (uint32_t)__builtin_popcountll(set[w]);
    return c;
}

/* the strict dominator of b dominated by all of b's other strict dominators */
static uint32_t nearest_dominator(uint64_t dom[][WORDS], uint32_t b)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t d = 0; d < MAXN; d++)
        if (d != b && has(dom[b], d) && count(dom[d]) == count(dom[b]) - 1)
            best = d;
    return best;
}

static void check_graph(const Graph *g, int round)
{
    Arena *a = arena_new();
    Schedule *s = schedule_of(g, a);
    static uint64_t dom[MAXN][WORDS];
    dominator_sets(s, dom);
    sched_dominators(s);
    bool idoms = s->blocks[0].idom == NO_BLOCK, dominates = true;
    for (uint32_t b = 1; b < s->nblocks; b++)
        idoms &= s->blocks[b].idom == nearest_dominator(dom, b) &&
                 s->blocks[b].dom_depth == count(dom[b]) - 1;
    for (uint32_t x = 0; x < s->nblocks; x++)
        for (uint32_t y = 0; y < s->nblocks; y++)
            dominates &= sched_dominates(s, x, y) == has(dom[y], x);
    CHECK(idoms, "graph %d (%u blocks): immediate dominators or depths differ from the sets'", round,
          s->nblocks);
    CHECK(dominates, "graph %d: sched_dominates differs from the sets", round);
    arena_free(a);
}

/* n nested loops: header i -> header i + 1 (or the latch chain when innermost),
 * latch i -> header i (back edge) and latch i -> latch i - 1; the exit after latch 0 */
static void check_deep_nest(uint32_t n)
{
    Arena *a = arena_new();
    Schedule *s = arena_alloc(a, sizeof *s);
    s->nblocks = 2 * n + 1; /* headers 0..n-1, latches n..2n-1 (innermost first), exit */
    s->blocks = arena_alloc(a, s->nblocks * sizeof *s->blocks);
    for (uint32_t i = 0; i < s->nblocks; i++) {
        s->blocks[i].id = i;
        s->blocks[i].succs = arena_alloc(a, 2 * sizeof *s->blocks[i].succs);
        s->blocks[i].preds = arena_alloc(a, 2 * sizeof *s->blocks[i].preds);
    }
#define EDGE(f, t) (s->blocks[f].succs[s->blocks[f].nsuccs++].to = (t), \
                    s->blocks[t].preds[s->blocks[t].npreds++] = (f))
    for (uint32_t i = 0; i + 1 < n; i++)
        EDGE(i, i + 1);
    EDGE(n - 1, n); /* innermost header to innermost latch */
    for (uint32_t k = 0; k < n; k++) {  /* latch n + k closes loop n - 1 - k */
        uint32_t latch = n + k, header = n - 1 - k;
        EDGE(latch, header);
        EDGE(latch, latch + 1 < 2 * n ? latch + 1 : 2 * n);
    }
#undef EDGE
    sched_dominators(s);
    bool ok = true;
    for (uint32_t i = 1; i < n; i++)
        ok &= s->blocks[i].idom == i - 1 && s->blocks[i].dom_depth == i;
    for (uint32_t k = 0; k < n; k++)
        ok &= s->blocks[n + k].idom == (k ? n + k - 1 : n - 1);
    ok &= s->blocks[2 * n].idom == 2 * n - 1;
    CHECK(ok, "a nest of %u loops: the headers and latches form one chain", n);
    arena_free(a);
}

int main(void)
{
    uint64_t seed = 3;
    for (int round = 0; round < GRAPHS; round++) {
        Graph g;
        random_graph(&g, &seed);
        check_graph(&g, round);
    }
    check_deep_nest(20000);
    printf("sched_dom_unit: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
