/* a64_logical_imm.c — the bitmask-immediate encoder against the Arm ARM's decoder.
 *
 * Every (N, immr, imms) pattern of both widths is decoded by the reference decoder;
 * the encoder must accept each decodable value, give its canonical encoding (immr
 * within the element) and round-trip.  It must reject everything else: checked on
 * every value with a 2..16-bit element replicated, on every decodable value with one
 * bit flipped, and on a million pseudo-random values, each also compared with a
 * brute-force predicate over element sizes and rotations. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "a64_bitmask.h"
#include "compiler/a64/insn.h"

typedef struct {
    uint64_t *table[2];
    int count[2];
    long checked, failed;
} Ctx;

static void fail(Ctx *c, const char *what, int sf, uint64_t v, uint32_t bits)
{
    if (c->failed++ < 20)
        fprintf(stderr, "FAIL a64_logical_imm(0x%016" PRIx64 ", sf=%d): %s (N:immr:imms 0x%04x)\n", v, sf, what, bits);
}

/* the encoder's answer for v agrees with the table and the brute-force predicate */
static void check_value(Ctx *c, int sf, uint64_t v)
{
    uint32_t bits = 0;
    bool enc = a64_logical_imm(v, sf, &bits);
    bool in_table = a64_ref_is_bitmask(c->table[sf], c->count[sf], v);
    bool brute = a64_ref_is_bitmask_value(sf, v);
    c->checked++;
    if (in_table != brute)
        fail(c, "reference decoder and brute force disagree", sf, v, bits);
    else if (enc != in_table)
        fail(c, enc ? "accepted a value no pattern decodes to" : "rejected a decodable value", sf, v, bits);
}

/* each pattern: decodable ones round-trip through the encoder */
static void check_patterns(Ctx *c, int sf)
{
    for (unsigned n = 0; n <= 1; n++)
        for (unsigned immr = 0; immr < 64; immr++)
            for (unsigned imms = 0; imms < 64; imms++) {
                uint64_t v, back;
                uint32_t bits;
                if (!a64_ref_decode_bitmask(sf, n, immr, imms, &v))
                    continue;
                c->checked++;
                if (!a64_logical_imm(v, sf, &bits)) {
                    fail(c, "rejected a decodable value", sf, v, n << 12 | immr << 6 | imms);
                    continue;
                }
                unsigned bn = bits >> 12, br = bits >> 6 & 63, bs = bits & 63;
                if (!a64_ref_decode_bitmask(sf, bn, br, bs, &back) || back != v)
                    fail(c, "encoding does not decode to the value", sf, v, bits);
                /* canonical: the same pattern when immr lies within the element */
                unsigned esize = n ? 64 : 1u << (31 - __builtin_clz(~imms & 0x3f));
                if (immr < esize && bits != (n << 12 | immr << 6 | imms))
                    fail(c, "not the canonical encoding", sf, v, bits);
            }
}

static uint64_t replicate(uint64_t elt, unsigned e)
{
    uint64_t v = 0;
    for (unsigned pos = 0; pos < 64; pos += e)
        v |= elt << pos;
    return v;
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void check_rejections(Ctx *c, int sf)
{
    for (unsigned e = 2; e <= 16; e *= 2)           /* every small element, replicated */
        for (uint64_t elt = 0; elt < (1ull << e); elt++) {
            uint64_t v = replicate(elt, e);
            check_value(c, sf, sf ? v : v & 0xffffffffu);
        }
    for (int i = 0; i < c->count[sf]; i++)          /* one bit away from a valid value */
        for (unsigned b = 0; b < 64; b++)
            check_value(c, sf, c->table[sf][i] ^ (1ull << b));
    uint64_t s = 0x9e3779b97f4a7c15ull + (uint64_t)sf;
    for (int i = 0; i < 1000000; i++) {
        uint64_t v = next_random(&s);
        check_value(c, sf, sf ? v : v & 0xffffffffu);
    }
    check_value(c, sf, 0);
    check_value(c, sf, sf ? ~0ull : 0xffffffffu);
}

int main(void)
{
    Ctx c = {{NULL, NULL}, {0, 0}, 0, 0};
    static const int expected[2] = {1302, 5334};   /* distinct bitmask immediates per width */
    for (int sf = 0; sf <= 1; sf++) {
        c.table[sf] = malloc(8192 * sizeof(uint64_t));
        c.count[sf] = a64_ref_bitmask_values(sf, c.table[sf], 8192);
        if (c.count[sf] != expected[sf]) {
            fprintf(stderr, "FAIL reference decoder: %d values for sf=%d, expected %d\n", c.count[sf], sf, expected[sf]);
            c.failed++;
        }
        check_patterns(&c, sf);
        check_rejections(&c, sf);
    }
    printf("a64 logical immediates: %d (32-bit) + %d (64-bit) encodable values, %ld checks, %ld failed\n",
           c.count[0], c.count[1], c.checked, c.failed);
    free(c.table[0]);
    free(c.table[1]);
    return c.failed ? 1 : 0;
}
