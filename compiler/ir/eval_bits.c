/* eval_bits.c — the meaning of circ's added integer operations (docs/semantics.md §2.6):
 * SELECT, rotates, signed/unsigned min and max, high halves of products, the
 * overflow-checked signed ADD/SUB/MUL, bit counts, byte swap and ABS.  Operands are
 * bit patterns masked to their width, as eval_pure passes them. */
#include "compiler/ir/eval_bits.h"

static uint64_t width_mask(unsigned w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }

/* the signed reading of the low w bits */
static int64_t signed_of(unsigned w, uint64_t x)
{
    if (w >= 64)
        return (int64_t)x;
    uint64_t m = (uint64_t)1 << (w - 1);
    x &= width_mask(w);
    return (int64_t)((x ^ m) - m);
}

static uint64_t rotate_left(unsigned w, uint64_t x, uint64_t amount)
{
    unsigned s = (unsigned)(amount % w);
    if (s == 0)
        return x;
    return ((x << s) | (x >> (w - s))) & width_mask(w);
}

/* the high 64 bits of the 128-bit unsigned product, from 32-bit halves */
static uint64_t umulhi64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* the high w bits of the 2w-bit product, signed or unsigned */
static uint64_t mul_high(unsigned w, bool is_signed, uint64_t a, uint64_t b)
{
    if (w < 64) {
        if (!is_signed)
            return (a * b) >> w;
        int64_t p = signed_of(w, a) * signed_of(w, b); /* |p| <= 2^62: exact */
        return ((uint64_t)p >> w) & width_mask(w);
    }
    uint64_t h = umulhi64(a, b);
    if (is_signed) { /* hi_s = hi_u - (a < 0 ? b : 0) - (b < 0 ? a : 0) */
        h -= (int64_t)a < 0 ? b : 0;
        h -= (int64_t)b < 0 ? a : 0;
    }
    return h;
}

/* signed a op b, or EVAL_TRAP_OVERFLOW when it does not fit in w bits */
static EvalStatus checked(int op, unsigned w, uint64_t a, uint64_t b, uint64_t *out)
{
    int64_t x = signed_of(w, a), y = signed_of(w, b), r;
    bool ovf;
    switch (op) {
    case OP_CHECKED_ADD: ovf = __builtin_add_overflow(x, y, &r); break;
    case OP_CHECKED_SUB: ovf = __builtin_sub_overflow(x, y, &r); break;
    default: ovf = __builtin_mul_overflow(x, y, &r); break;
    }
    if (w < 64 && !ovf)
        ovf = r != signed_of(w, (uint64_t)r);
    if (ovf)
        return EVAL_TRAP_OVERFLOW;
    *out = (uint64_t)r & width_mask(w);
    return EVAL_OK;
}

static uint64_t min_max(int op, unsigned w, uint64_t a, uint64_t b)
{
    bool a_less = op == OP_SMIN || op == OP_SMAX ? signed_of(w, a) < signed_of(w, b) : a < b;
    bool want_min = op == OP_SMIN || op == OP_UMIN;
    return a_less == want_min ? a : b;
}

EvalStatus eval_bits_binary(int op, Type t, uint64_t a, uint64_t b, uint64_t *out)
{
    unsigned w = (unsigned)ty_bits(t);
    switch (op) {
    case OP_ROTL: *out = rotate_left(w, a, b); return EVAL_OK;
    case OP_ROTR: *out = rotate_left(w, a, w - (unsigned)(b % w)); return EVAL_OK;
    case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX: *out = min_max(op, w, a, b); return EVAL_OK;
    case OP_SMULHI: *out = mul_high(w, true, a, b); return EVAL_OK;
    case OP_UMULHI: *out = mul_high(w, false, a, b); return EVAL_OK;
    case OP_CHECKED_ADD: case OP_CHECKED_SUB: case OP_CHECKED_MUL: return checked(op, w, a, b, out);
    default: return EVAL_NOT_PURE;
    }
}

static uint64_t byte_swap(unsigned w, uint64_t x)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < w / 8; i++)
        r = (r << 8) | ((x >> (8 * i)) & 0xff);
    return r;
}

EvalStatus eval_bits_unary(int op, Type t, uint64_t x, uint64_t *out)
{
    unsigned w = (unsigned)ty_bits(t);
    switch (op) {
    case OP_CLZ: *out = x ? (uint64_t)(__builtin_clzll(x) - (64 - (int)w)) : w; return EVAL_OK;
    case OP_CTZ: *out = x ? (uint64_t)__builtin_ctzll(x) : w; return EVAL_OK;
    case OP_POPCNT: *out = (uint64_t)__builtin_popcountll(x); return EVAL_OK;
    case OP_BSWAP: *out = byte_swap(w, x); return EVAL_OK;
    case OP_ABS: *out = signed_of(w, x) < 0 ? (0 - x) & width_mask(w) : x; return EVAL_OK;
    default: return EVAL_NOT_PURE;
    }
}

EvalStatus eval_select(Type t, const uint64_t *in, uint64_t *out)
{
    *out = (in[0] & 1 ? in[1] : in[2]) & ty_mask(t);
    return EVAL_OK;
}
