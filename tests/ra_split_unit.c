/* ra_split_unit.c — splitting a live interval (ra_split, compiler/lir/intervals.c):
 * an interval of many ranges and uses split again and again at random positions,
 * in any piece, keeps exactly its ranges (the one a split falls in cut in two) and
 * its uses, divided among the pieces in order; the pieces' arrays never overlap
 * (a split copies the smaller side and leaves the other in place), and writing
 * one piece's ranges leaves every other piece as it was. */
#include "compiler/lir/ra_internal.h"

#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

enum { NRANGES = 200, NUSES = 300, SPLITS = 150, ROUNDS = 40 };

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* a parent interval of NRANGES ascending ranges with holes and NUSES uses inside them */
static Interval *make_parent(RaCtx *c, uint64_t *s)
{
    Interval *iv = arena_alloc(c->arena, sizeof *iv);
    iv->ranges = arena_alloc(c->arena, NRANGES * sizeof *iv->ranges);
    iv->uses = arena_alloc(c->arena, NUSES * sizeof *iv->uses);
    uint32_t pos = 4;
    for (uint32_t i = 0; i < NRANGES; i++) {
        uint32_t from = pos + rnd(s) % 8, to = from + 4 + rnd(s) % 40;
        iv->ranges[i] = (LiveRange){ from, to };
        pos = to + 1 + rnd(s) % 8;
    }
    for (uint32_t i = 0; i < NUSES; i++) {
        const LiveRange *r = &iv->ranges[(uint64_t)i * NRANGES / NUSES];
        iv->uses[i] = (UsePos){ r->from + (uint32_t)(i % 2) * (r->to - r->from - 1), -1 };
    }
    iv->nranges = iv->capranges = NRANGES;
    iv->nuses = iv->capuses = NUSES;
    iv->reg = -1;
    iv->slot = -1;
    iv->parent = iv;
    iv->children = arena_alloc(c->arena, 4 * sizeof *iv->children);
    iv->capchildren = 4;
    iv->children[iv->nchildren++] = iv;
    return iv;
}

/* the positions covered by the pieces, in order, equal those of the original
 * ranges; the uses concatenated equal the original uses */
static void check_pieces(const Interval *p, const LiveRange *r0, const UsePos *u0, int round)
{
    uint32_t ri = 0, ui = 0, at = r0[0].from;
    bool ok = true;
    for (uint32_t k = 0; k < p->nchildren && ok; k++) {
        const Interval *piece = p->children[k];
        for (uint32_t i = 0; i < piece->nranges && ok; i++) {
            ok = ri < NRANGES && piece->ranges[i].from == at && piece->ranges[i].to <= r0[ri].to;
            at = piece->ranges[i].to;
            if (ok && at == r0[ri].to && ++ri < NRANGES)
                at = r0[ri].from;
        }
        for (uint32_t i = 0; i < piece->nuses && ok; i++)
            ok = ui < NUSES && piece->uses[i].pos == u0[ui++].pos;
    }
    CHECK(ok && ri == NRANGES && ui == NUSES, "round %d: the pieces keep the ranges and uses, in order", round);
}

static bool overlaps(const void *a, size_t na, const void *b, size_t nb)
{
    const char *x = a, *y = b;
    return na && nb && x < y + nb && y < x + na;
}

/* no two pieces share memory for their ranges or their uses */
static void check_disjoint(const Interval *p, int round)
{
    bool ok = true;
    for (uint32_t i = 0; i < p->nchildren; i++)
        for (uint32_t j = i + 1; j < p->nchildren; j++) {
            const Interval *a = p->children[i], *b = p->children[j];
            ok &= !overlaps(a->ranges, a->nranges * sizeof *a->ranges, b->ranges, b->nranges * sizeof *b->ranges);
            ok &= !overlaps(a->uses, a->nuses * sizeof *a->uses, b->uses, b->nuses * sizeof *b->uses);
            ok &= a->capranges >= a->nranges && a->capuses >= a->nuses;
        }
    CHECK(ok, "round %d: the pieces' arrays are their own", round);
}

/* split a random piece of more than one position somewhere strictly inside it */
static void split_some_piece(RaCtx *c, Interval *p, uint64_t *s)
{
    for (int tries = 0; tries < 20; tries++) {
        Interval *piece = p->children[rnd(s) % p->nchildren];
        uint32_t from = iv_start(piece), to = iv_end(piece);
        if (to - from < 2)
            continue;
        ra_split(c, piece, from + 1 + rnd(s) % (to - from - 1));
        return;
    }
}

int main(void)
{
    uint64_t s = 11;
    for (int round = 0; round < ROUNDS; round++) {
        RaCtx c = { 0 };
        c.arena = arena_new();
        Interval *p = make_parent(&c, &s);
        LiveRange r0[NRANGES];
        UsePos u0[NUSES];
        memcpy(r0, p->ranges, sizeof r0);
        memcpy(u0, p->uses, sizeof u0);
        for (int k = 0; k < SPLITS; k++)
            split_some_piece(&c, p, &s);
        CHECK(p->nchildren > SPLITS / 2, "round %d: %u pieces", round, p->nchildren);
        check_pieces(p, r0, u0, round);
        check_disjoint(p, round);
        /* a piece written over leaves the others as they were */
        Interval *victim = p->children[rnd(&s) % p->nchildren];
        for (uint32_t i = 0; i < victim->nranges; i++)
            victim->ranges[i] = (LiveRange){ 0, 0 };
        uint32_t moved = 0;
        for (uint32_t k = 0; k < p->nchildren; k++)
            if (p->children[k] != victim)
                for (uint32_t i = 0; i < p->children[k]->nranges; i++)
                    moved += p->children[k]->ranges[i].to == 0;
        CHECK(moved == 0, "round %d: writing one piece changed %u ranges of others", round, moved);
        arena_free(c.arena);
    }
    printf("ra_split_unit: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
