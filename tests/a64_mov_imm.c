/* a64_mov_imm.c — the constant builder, executed.
 *
 * For edge values, every bitmask immediate and its one-halfword variants, halfword
 * mixes of 0/ffff/other, and a few thousand pseudo-random values, at both widths and
 * for every destination register: a small interpreter of MOVZ/MOVN/MOVK/ORR-immediate
 * (decoding the words itself, starting from a garbage register) must compute the value,
 * and the number of instructions must be the minimum over the strategies, computed
 * here independently: one MOVZ/MOVN plus a MOVK per other halfword, the same in a W
 * register when the value fits 32 bits, one ORR of a bitmask immediate, or an ORR
 * followed by one MOVK (searched over every bitmask immediate). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "a64_bitmask.h"
#include "compiler/a64/insn.h"

typedef struct {
    uint64_t *table[2];
    int count[2];
    long checked, failed, instructions;
} Ctx;

/* ---- the interpreter ----------------------------------------------------------------- */
/* executes one word on register rd; false if it is not a constant-building instruction
 * writing rd (or reads rd before any write) */
static bool execute(uint32_t w, int rd, bool *written, uint64_t *x)
{
    int sf = (int)(w >> 31), opc = (int)(w >> 29 & 3);
    if ((int)(w & 31) != rd)
        return false;
    uint64_t v;
    if ((w & 0x1F800000u) == 0x12800000u) {                     /* move wide */
        int hw = (int)(w >> 21 & 3);
        uint64_t imm = (uint64_t)(w >> 5 & 0xffff) << 16 * hw;
        if (opc == 1 || (!sf && hw > 1) || (opc == 3 && !*written))
            return false;
        v = opc == 0 ? ~imm : opc == 2 ? imm : (*x & ~(0xffffull << 16 * hw)) | imm;
    } else if ((w & 0x1F800000u) == 0x12000000u) {              /* logical immediate */
        if (opc != 1 || (w >> 5 & 31) != 31 ||
            !a64_ref_decode_bitmask(sf, w >> 22 & 1, w >> 16 & 63, w >> 10 & 63, &v))
            return false;                                       /* only ORR from ZR */
    } else {
        return false;
    }
    *x = sf ? v : v & 0xffffffffu;                              /* a W write zeroes the top */
    *written = true;
    return true;
}

/* ---- the independent minimum -------------------------------------------------------- */
static int halfwords_not(uint64_t v, int n, uint32_t background)
{
    int count = 0;
    for (int hw = 0; hw < n; hw++)
        count += (uint32_t)(v >> 16 * hw & 0xffff) != background;
    return count;
}
static int move_wide_count(uint64_t v, int n)
{
    int z = halfwords_not(v, n, 0), o = halfwords_not(v, n, 0xffff);
    int best = z < o ? z : o;
    return best ? best : 1;
}
/* some bitmask immediate differs from v in at most one halfword */
static bool orr_movk_reaches(const Ctx *c, uint64_t v)
{
    for (int i = 0; i < c->count[1]; i++)
        if (halfwords_not(c->table[1][i] ^ v, 4, 0) <= 1)
            return true;
    return false;
}
static int minimum(const Ctx *c, int sf, uint64_t v)
{
    int best = sf ? move_wide_count(v, 4) : 4;
    if (v >> 32 == 0) {
        int w = move_wide_count(v, 2);
        best = w < best ? w : best;
        if (a64_ref_is_bitmask(c->table[0], c->count[0], v))
            best = 1;
    }
    if (sf && a64_ref_is_bitmask(c->table[1], c->count[1], v))
        best = 1;
    if (sf && best > 2 && orr_movk_reaches(c, v))
        best = 2;
    return best;
}

/* ---- checks ---------------------------------------------------------------------------- */
static void fail(Ctx *c, int sf, int rd, uint64_t v, const char *why, const uint32_t *w, int n)
{
    if (c->failed++ >= 20)
        return;
    fprintf(stderr, "FAIL a64_mov_imm(sf=%d, rd=%d, 0x%016" PRIx64 "): %s; words", sf, rd, v, why);
    for (int i = 0; i < n; i++)
        fprintf(stderr, " %08x", w[i]);
    fprintf(stderr, "\n");
}

static void check_value(Ctx *c, int sf, int rd, uint64_t value, int min)
{
    uint32_t w[A64_MOV_IMM_MAX];
    int n = a64_mov_imm(sf, rd, value, w);
    uint64_t want = sf ? value : value & 0xffffffffu, x = 0xdeadbeefcafebabeull;
    bool written = false;
    c->checked++;
    c->instructions += n;
    if (n < 1 || n > A64_MOV_IMM_MAX) {
        fail(c, sf, rd, value, "no sequence", w, 0);
        return;
    }
    for (int i = 0; i < n; i++)
        if (!execute(w[i], rd, &written, &x)) {
            fail(c, sf, rd, value, "a word is not ORR/MOVZ/MOVN/MOVK on rd (or MOVK first)", w, n);
            return;
        }
    if (x != want)
        fail(c, sf, rd, value, "the sequence computes another value", w, n);
    else if (n != min)
        fail(c, sf, rd, value, min < n ? "longer than the shortest strategy" : "shorter than possible", w, n);
}

static void check_both_widths(Ctx *c, uint64_t v, int rd)
{
    for (int sf = 0; sf <= 1; sf++)
        check_value(c, sf, rd, v, minimum(c, sf, sf ? v : v & 0xffffffffu));
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* a value whose halfwords are drawn from 0, ffff and random, so short forms occur */
static uint64_t mixed_halfwords(uint64_t *s)
{
    uint64_t v = 0, r = next_random(s);
    for (int hw = 0; hw < 4; hw++) {
        uint64_t pick = r >> (2 * hw) & 3, h = pick == 0 ? 0 : pick == 1 ? 0xffff : next_random(s) & 0xffff;
        v |= h << 16 * hw;
    }
    return v;
}

static void check_values(Ctx *c)
{
    static const uint64_t edges[] = {0, 1, 2, 0xffff, 0x10000, 0x12345678, 0x7fffffff, 0x80000000, 0xffffffff,
        0x100000000ull, 0xffffffff00000000ull, 0x0000ffff0000ffffull, 0x8000000000000000ull,
        0x7fffffffffffffffull, ~0ull, ~1ull, 0xfffffffffffffffeull, 0x1234000000000000ull,
        0xffff1234ffffffffull, 0x00000000ffff1234ull, 0x5555555555555555ull, 0x5555555555551234ull,
        0x123456789abcdef0ull, 0xfedcba9876543210ull};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        for (int rd = 0; rd <= 30; rd++)
            check_both_widths(c, edges[i], rd);
    for (int i = 0; i < c->count[1]; i++)        /* bitmasks, and one halfword away */
        for (int hw = 0; hw < 4; hw++)
            check_both_widths(c, c->table[1][i] ^ (0x1234ull << 16 * hw), i % 31);
    uint64_t s = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < 4000; i++) {
        check_both_widths(c, next_random(&s), i % 31);
        check_both_widths(c, mixed_halfwords(&s), i % 31);
    }
}

static void check_rejections(Ctx *c)
{
    uint32_t w[A64_MOV_IMM_MAX];
    static const int bad[][2] = {{1, 31}, {1, -1}, {1, 32}, {0, 31}, {2, 0}, {-1, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        c->checked++;
        if (a64_mov_imm(bad[i][0], bad[i][1], 0x1234, w) != 0)
            fail(c, bad[i][0], bad[i][1], 0x1234, "accepted a bad width or register", w, 0);
    }
}

int main(void)
{
    Ctx c = {{NULL, NULL}, {0, 0}, 0, 0, 0};
    for (int sf = 0; sf <= 1; sf++) {
        c.table[sf] = malloc(8192 * sizeof(uint64_t));
        c.count[sf] = a64_ref_bitmask_values(sf, c.table[sf], 8192);
    }
    check_values(&c);
    check_rejections(&c);
    printf("a64 mov_imm: %ld sequences executed (%.2f instructions on average), all minimal: %s; %ld failed\n",
           c.checked, c.checked ? (double)c.instructions / (double)c.checked : 0.0, c.failed ? "no" : "yes", c.failed);
    free(c.table[0]);
    free(c.table[1]);
    return c.failed ? 1 : 0;
}
