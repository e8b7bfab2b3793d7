/* a64_bitmask.c — reference bitmask-immediate decoding for the a64 encoder tests,
 * written from the Arm ARM pseudocode (DecodeBitMasks), not from the encoder. */
#include "a64_bitmask.h"

#include <stdlib.h>

static uint64_t ones(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

bool a64_ref_decode_bitmask(int sf, unsigned n, unsigned immr, unsigned imms, uint64_t *value)
{
    if (n > 1 || immr > 63 || imms > 63 || (!sf && n))
        return false;
    unsigned combined = n << 6 | (~imms & 0x3f), len = 0;
    if (combined == 0)
        return false;
    for (unsigned b = 6; b > 0; b--)
        if (combined >> b & 1) {
            len = b;
            break;
        }
    if (len < 1)
        return false;
    unsigned levels = (unsigned)ones(len), esize = 1u << len;
    if ((imms & levels) == levels)
        return false;
    unsigned s = imms & levels, r = immr & levels;
    uint64_t welem = ones(s + 1), elem = welem;
    for (unsigned i = 0; i < r; i++)    /* rotate right by one within esize bits */
        elem = (elem >> 1) | (elem & 1) << (esize - 1);
    uint64_t v = 0;
    for (unsigned pos = 0; pos < 64; pos += esize)
        v |= elem << pos;
    *value = sf ? v : v & 0xffffffffu;
    return true;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int a64_ref_bitmask_values(int sf, uint64_t *out, int cap)
{
    int count = 0;
    for (unsigned n = 0; n <= 1; n++)
        for (unsigned immr = 0; immr < 64; immr++)
            for (unsigned imms = 0; imms < 64; imms++) {
                uint64_t v;
                if (a64_ref_decode_bitmask(sf, n, immr, imms, &v) && count < cap)
                    out[count++] = v;
            }
    qsort(out, (size_t)count, sizeof *out, cmp_u64);
    int unique = 0;                     /* immr beyond the element size repeats values */
    for (int i = 0; i < count; i++)
        if (unique == 0 || out[unique - 1] != out[i])
            out[unique++] = out[i];
    return unique;
}

bool a64_ref_is_bitmask(const uint64_t *sorted, int count, uint64_t value)
{
    return bsearch(&value, sorted, (size_t)count, sizeof *sorted, cmp_u64) != NULL;
}

/* brute force over the definition: some element size e dividing the register width
 * whose replication is the value, and whose element is a rotation of 2^k - 1, 0 < k < e */
bool a64_ref_is_bitmask_value(int sf, uint64_t v)
{
    unsigned regw = sf ? 64 : 32;
    if (!sf && v >> 32)
        return false;
    for (unsigned e = 2; e <= regw; e *= 2) {
        uint64_t elt = v & ones(e);
        bool replicated = true;
        for (unsigned pos = e; pos < regw; pos += e)
            replicated &= ((v >> pos) & ones(e)) == elt;
        for (unsigned r = 0; replicated && r < e; r++) {
            uint64_t rot = r ? ((elt >> r) | (elt << (e - r))) & ones(e) : elt;
            if (rot != 0 && rot != ones(e) && (rot & (rot + 1)) == 0)
                return true;
        }
    }
    return false;
}
