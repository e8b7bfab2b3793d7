/* tv_bits.c — the added integer operations as Z3 bit-vector terms, exactly as
 * docs/semantics.md §2.7 defines them: rotates by u(y) mod w, min/max by compares,
 * high halves from the double-width product, checked arithmetic computed at double
 * width with its overflow as a trap condition, bit counts as sums and chains of the
 * bits, BSWAP as the bytes concatenated in reverse, ABS wrapping.  SELECT is not
 * encoded (tv_pure takes at most two operands). */
#include "fuzz/tv_internal.h"

bool tv_bits_supported(int op)
{
    switch (op) {
    case OP_ROTL: case OP_ROTR: case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX:
    case OP_SMULHI: case OP_UMULHI: case OP_CHECKED_ADD: case OP_CHECKED_SUB: case OP_CHECKED_MUL:
    case OP_CLZ: case OP_CTZ: case OP_POPCNT: case OP_BSWAP: case OP_ABS: case OP_SELECT:
        return true;
    default:
        return false;
    }
}

static Z3_ast pick(TvCtx *t, Z3_ast cond, Z3_ast a, Z3_ast b) { return Z3_mk_ite(t->z, cond, a, b); }

static Z3_ast min_max(TvCtx *t, int op, Z3_ast a, Z3_ast b)
{
    Z3_context z = t->z;
    switch (op) {
    case OP_SMIN: return pick(t, Z3_mk_bvslt(z, a, b), a, b);
    case OP_SMAX: return pick(t, Z3_mk_bvsgt(z, a, b), a, b);
    case OP_UMIN: return pick(t, Z3_mk_bvult(z, a, b), a, b);
    default: return pick(t, Z3_mk_bvugt(z, a, b), a, b);
    }
}

/* the 2w-bit product (or sum, difference) of the extended operands */
static Z3_ast wide(TvCtx *t, int op, Z3_ast a, Z3_ast b, unsigned w, bool is_signed)
{
    Z3_context z = t->z;
    Z3_ast x = is_signed ? Z3_mk_sign_ext(z, w, a) : Z3_mk_zero_ext(z, w, a);
    Z3_ast y = is_signed ? Z3_mk_sign_ext(z, w, b) : Z3_mk_zero_ext(z, w, b);
    if (op == OP_CHECKED_ADD)
        return Z3_mk_bvadd(z, x, y);
    if (op == OP_CHECKED_SUB)
        return Z3_mk_bvsub(z, x, y);
    return Z3_mk_bvmul(z, x, y);
}

static Z3_ast checked(TvCtx *t, int op, Z3_ast a, Z3_ast b, unsigned w, Z3_ast *ovf)
{
    Z3_context z = t->z;
    Z3_ast r2 = tv_define(t, wide(t, op, a, b, w, true));
    Z3_ast low = Z3_mk_extract(z, w - 1, 0, r2);
    *ovf = Z3_mk_not(z, Z3_mk_eq(z, r2, Z3_mk_sign_ext(z, w, low)));
    return low;
}

static Z3_ast bit_is_set(TvCtx *t, Z3_ast x, unsigned i)
{
    return Z3_mk_eq(t->z, Z3_mk_extract(t->z, i, i, x), tv_bv(t, 1, 1));
}

static Z3_ast count(TvCtx *t, int op, Z3_ast x, unsigned w)
{
    Z3_context z = t->z;
    Z3_ast r = op == OP_POPCNT ? tv_bv(t, 0, w) : tv_bv(t, w, w);
    for (unsigned k = 0; k < w; k++) {
        unsigned i = op == OP_CTZ ? w - 1 - k : k; /* the last test made decides */
        if (op == OP_POPCNT)
            r = Z3_mk_bvadd(z, r, Z3_mk_zero_ext(z, w - 1, Z3_mk_extract(z, i, i, x)));
        else
            r = pick(t, bit_is_set(t, x, i), tv_bv(t, op == OP_CLZ ? w - 1 - i : i, w), r);
    }
    return r;
}

static Z3_ast byte_swap(TvCtx *t, Z3_ast x, unsigned w)
{
    Z3_ast r = Z3_mk_extract(t->z, 7, 0, x);
    for (unsigned i = 1; i < w / 8; i++)
        r = Z3_mk_concat(t->z, r, Z3_mk_extract(t->z, 8 * i + 7, 8 * i, x));
    return r;
}

Z3_ast tv_bits(TvCtx *t, int op, unsigned w, Z3_ast a, Z3_ast b, Z3_ast *ovf)
{
    Z3_context z = t->z;
    switch (op) {
    case OP_ROTL: return Z3_mk_ext_rotate_left(z, a, Z3_mk_bvurem(z, b, tv_bv(t, w, w)));
    case OP_ROTR: return Z3_mk_ext_rotate_right(z, a, Z3_mk_bvurem(z, b, tv_bv(t, w, w)));
    case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX: return min_max(t, op, a, b);
    case OP_SMULHI: case OP_UMULHI:
        return Z3_mk_extract(z, 2 * w - 1, w, wide(t, OP_CHECKED_MUL, a, b, w, op == OP_SMULHI));
    case OP_CHECKED_ADD: case OP_CHECKED_SUB: case OP_CHECKED_MUL: return checked(t, op, a, b, w, ovf);
    case OP_CLZ: case OP_CTZ: case OP_POPCNT: return count(t, op, a, w);
    case OP_BSWAP: return byte_swap(t, a, w);
    default: return pick(t, Z3_mk_bvslt(z, a, tv_bv(t, 0, w)), Z3_mk_bvneg(z, a), a);
    }
}
