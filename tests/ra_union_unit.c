/* ra_union_unit.c — the live-interval union of linear scan (compiler/lir/ra_union.h)
 * against the definition it replaces: over random intervals with holes joining and
 * leaving registers (whole, or from a range on, as a split does), the first meeting
 * point of a random interval with each register's union equals the smallest
 * iv_intersection with the register's members, overlapping members included; and
 * likewise for sparse unions met by intervals of many short ranges. */
#include "compiler/lir/ra_union.h"

#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

enum { NIV = 300, MAXR = 12, ROUNDS = 4000 };

typedef struct {
    Interval iv;
    LiveRange r[MAXR];
    bool member;
} TestIv;

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* ascending disjoint ranges from somewhere in [0, 20000) */
static void make_interval(TestIv *t, uint64_t *s, int reg)
{
    memset(t, 0, sizeof *t);
    uint32_t pos = rnd(s) % 20000, n = 1 + rnd(s) % MAXR;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t from = pos + rnd(s) % 300, to = from + 1 + rnd(s) % 400;
        t->r[i] = (LiveRange){from, to};
        pos = to + (rnd(s) % 3 == 0 ? 0 : 1);
    }
    t->iv.ranges = t->r;
    t->iv.nranges = t->iv.capranges = n;
    t->iv.reg = reg;
}

static uint32_t brute_first_meet(TestIv *ivs, int reg, const Interval *cur)
{
    uint32_t best = UINT32_MAX;
    for (int i = 0; i < NIV; i++)
        if (ivs[i].member && ivs[i].iv.reg == reg) {
            uint32_t x = iv_intersection(&ivs[i].iv, cur);
            best = x < best ? x : best;
        }
    return best;
}

/* a member keeps its ranges before range k, and range k cut short or not at all, as
 * spill_from does */
static void cut(RaUnion *u, TestIv *t, uint64_t *s)
{
    uint32_t k = rnd(s) % t->iv.nranges;
    ra_union_remove(u, &t->iv, k);
    LiveRange *r = &t->r[k];
    if (r->to - r->from > 1 && rnd(s) % 2) {
        r->to = r->from + 1 + rnd(s) % (r->to - r->from - 1);
        t->iv.nranges = k + 1;
        ra_union_add(u, &t->iv, k);
    } else if (k) {
        t->iv.nranges = k;
    } else { /* nothing left: it leaves the register */
        t->member = false;
    }
}

static void step(RaUnion *u, TestIv *ivs, uint64_t *s)
{
    TestIv *t = &ivs[rnd(s) % NIV];
    if (!t->member) {
        make_interval(t, s, (int)(rnd(s) % 4));
        t->member = true;
        ra_union_add(u, &t->iv, 0);
    } else if (rnd(s) % 3) {
        ra_union_remove(u, &t->iv, 0);
        t->member = false;
    } else {
        cut(u, t, s);
    }
}

/* a sparse union (two intervals a register) met by intervals of many short ranges:
 * most of their ranges fall between two holders' ranges, where the meeting point
 * search skips them */
static void sparse_unions(uint64_t *s)
{
    enum { NFEW = 8, NCUR = 64 };
    TestIv few[NFEW];
    RaUnion u;
    ra_union_init(&u);
    for (int k = 0; k < NFEW; k++) {
        make_interval(&few[k], s, k % 4);
        ra_union_add(&u, &few[k].iv, 0);
    }
    LiveRange r[NCUR];
    Interval cur = { .ranges = r, .nranges = NCUR, .capranges = NCUR, .reg = -1 };
    for (int round = 0; round < 2000; round++) {
        uint32_t pos = rnd(s) % 20000;
        for (int i = 0; i < NCUR; i++) {
            r[i].from = pos + 1 + rnd(s) % 200;
            r[i].to = r[i].from + 1 + rnd(s) % 20;
            pos = r[i].to;
        }
        for (int reg = 0; reg < 4; reg++) {
            uint32_t want = UINT32_MAX;
            for (int k = reg; k < NFEW; k += 4) {
                uint32_t x = iv_intersection(&few[k].iv, &cur);
                want = x < want ? x : want;
            }
            uint32_t got = ra_union_first_meet(&u, reg, &cur);
            CHECK(got == want, "sparse round %d reg %d: union says %u, the members' intersections %u", round, reg,
                  got, want);
        }
    }
    ra_union_free(&u);
}

int main(void)
{
    uint64_t s = 7;
    TestIv *ivs = calloc(NIV, sizeof *ivs);
    RaUnion u;
    ra_union_init(&u);
    for (int round = 0; round < ROUNDS; round++) {
        step(&u, ivs, &s);
        TestIv cur;
        make_interval(&cur, &s, -1);
        for (int reg = 0; reg < 4; reg++) {
            uint32_t want = brute_first_meet(ivs, reg, &cur.iv), got = ra_union_first_meet(&u, reg, &cur.iv);
            CHECK(got == want, "round %d reg %d: union says %u, the members' intersections %u", round, reg, got,
                  want);
        }
    }
    ra_union_free(&u);
    free(ivs);
    sparse_unions(&s);
    printf("ra_union_unit: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
