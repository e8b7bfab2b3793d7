/* tv_ops.c — the pure integer gates as Z3 bit-vector terms, exactly as
 * docs/semantics.md §2 (and compiler/ir/eval.c) define them: wrapping arithmetic,
 * EXP by square-and-multiply over every exponent bit, shift amounts modulo the width,
 * division traps as conditions, ICMP, TRUNC/ZEXT/SEXT and BITCAST (the same bits);
 * the float gates are in tv_float.c. */
#include "fuzz/tv_internal.h"

#include <stdio.h>

Z3_ast tv_define(TvCtx *t, Z3_ast value)
{
    char name[32];
    snprintf(name, sizeof name, "def%u", t->nfresh++);
    Z3_ast c = Z3_mk_const(t->z, Z3_mk_string_symbol(t->z, name), Z3_get_sort(t->z, value));
    t->defs = Z3_mk_and(t->z, 2, (Z3_ast[]){t->defs, Z3_mk_eq(t->z, c, value)});
    return c;
}

Z3_ast tv_bv(TvCtx *t, uint64_t bits, unsigned width)
{
    uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    return Z3_mk_unsigned_int64(t->z, bits & mask, Z3_mk_bv_sort(t->z, width));
}

bool tv_pure_supported(int op)
{
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_EXP: case OP_SDIV: case OP_SREM:
    case OP_UDIV: case OP_UREM: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_LSHR: case OP_ASHR: case OP_ICMP: case OP_TRUNC: case OP_ZEXT: case OP_SEXT:
        return true;
    default:
        return tv_bits_supported(op) || tv_float_supported(op);
    }
}

/* x^y mod 2^w with y read unsigned: one conditional multiply per exponent bit, each
 * product a defined constant; the same (simplified) operands reuse one encoding */
static Z3_ast encode_exp(TvCtx *t, Z3_ast x, Z3_ast y, unsigned w)
{
    Z3_context z = t->z;
    x = tv_simplify(t, x);
    y = tv_simplify(t, y);
    for (uint32_t k = 0; k < t->nexps; k++)
        if (Z3_is_eq_ast(z, t->exps[k][0], x) && Z3_is_eq_ast(z, t->exps[k][1], y))
            return t->exps[k][2];
    Z3_ast result = tv_bv(t, 1, w), base = x, one = tv_bv(t, 1, 1);
    for (unsigned i = 0; i < w; i++) {
        Z3_ast bit = Z3_mk_eq(z, Z3_mk_extract(z, i, i, y), one);
        result = tv_define(t, Z3_mk_bvmul(z, result, Z3_mk_ite(z, bit, base, tv_bv(t, 1, w))));
        if (i + 1 < w)
            base = tv_define(t, Z3_mk_bvmul(z, base, base));
    }
    if (t->nexps < sizeof t->exps / sizeof t->exps[0]) {
        t->exps[t->nexps][0] = x;
        t->exps[t->nexps][1] = y;
        t->exps[t->nexps++][2] = result;
    }
    return result;
}

static Z3_ast encode_icmp(TvCtx *t, int cond, Z3_ast a, Z3_ast b)
{
    Z3_context z = t->z;
    Z3_ast r;
    switch (cond) {
    case ICMP_eq: r = Z3_mk_eq(z, a, b); break;
    case ICMP_ne: r = Z3_mk_not(z, Z3_mk_eq(z, a, b)); break;
    case ICMP_ugt: r = Z3_mk_bvugt(z, a, b); break;
    case ICMP_uge: r = Z3_mk_bvuge(z, a, b); break;
    case ICMP_ult: r = Z3_mk_bvult(z, a, b); break;
    case ICMP_ule: r = Z3_mk_bvule(z, a, b); break;
    case ICMP_sgt: r = Z3_mk_bvsgt(z, a, b); break;
    case ICMP_sge: r = Z3_mk_bvsge(z, a, b); break;
    case ICMP_slt: r = Z3_mk_bvslt(z, a, b); break;
    default: r = Z3_mk_bvsle(z, a, b); break;
    }
    return Z3_mk_ite(z, r, tv_bv(t, 1, 1), tv_bv(t, 0, 1));
}

/* SDIV SREM UDIV UREM and their trap conditions */
static Z3_ast encode_div(TvCtx *t, int op, Z3_ast a, Z3_ast b, unsigned w, Z3_ast *div0, Z3_ast *ovf)
{
    Z3_context z = t->z;
    *div0 = Z3_mk_eq(z, b, tv_bv(t, 0, w));
    if (op == OP_UDIV)
        return Z3_mk_bvudiv(z, a, b);
    if (op == OP_UREM)
        return Z3_mk_bvurem(z, a, b);
    Z3_ast min = tv_bv(t, 1ull << (w - 1), w), minus1 = tv_bv(t, ty_mask(TY_I64), w);
    *ovf = Z3_mk_and(z, 2, (Z3_ast[]){Z3_mk_eq(z, a, min), Z3_mk_eq(z, b, minus1)});
    return op == OP_SDIV ? Z3_mk_bvsdiv(z, a, b) : Z3_mk_bvsrem(z, a, b);
}

/* shifts: the amount is u(y) mod w (w is a power of two) */
static Z3_ast encode_shift(TvCtx *t, int op, Z3_ast a, Z3_ast b, unsigned w)
{
    Z3_context z = t->z;
    Z3_ast amount = Z3_mk_bvand(z, b, tv_bv(t, w - 1, w));
    if (op == OP_SHL)
        return Z3_mk_bvshl(z, a, amount);
    return op == OP_LSHR ? Z3_mk_bvlshr(z, a, amount) : Z3_mk_bvashr(z, a, amount);
}

static Z3_ast encode_convert(TvCtx *t, const Gate *G, Type in_ty, Z3_ast a)
{
    Z3_context z = t->z;
    unsigned to = (unsigned)ty_bits((Type)G->type), from = (unsigned)ty_bits(in_ty);
    switch (G->op) {
    case OP_TRUNC: return Z3_mk_extract(z, to - 1, 0, a);
    case OP_ZEXT: return Z3_mk_zero_ext(z, to - from, a);
    case OP_SEXT: return Z3_mk_sign_ext(z, to - from, a);
    default: return a; /* BITCAST between integers of one width */
    }
}

Z3_ast tv_pure(TvCtx *t, const Gate *G, Type in_ty, Z3_ast a, Z3_ast b, Z3_ast *div0, Z3_ast *ovf)
{
    Z3_context z = t->z;
    unsigned w = (unsigned)ty_bits(in_ty);
    *div0 = *ovf = NULL;
    if (G->op != OP_BITCAST && tv_float_supported(G->op))
        return tv_float(t, G, in_ty, a, b);
    if (tv_bits_supported(G->op))
        return tv_bits(t, G->op, w, a, b, ovf);
    switch (G->op) {
    case OP_ADD: return Z3_mk_bvadd(z, a, b);
    case OP_SUB: return Z3_mk_bvsub(z, a, b);
    case OP_MUL: return Z3_mk_bvmul(z, a, b);
    case OP_EXP: return encode_exp(t, a, b, w);
    case OP_AND: return Z3_mk_bvand(z, a, b);
    case OP_OR: return Z3_mk_bvor(z, a, b);
    case OP_XOR: return Z3_mk_bvxor(z, a, b);
    case OP_SDIV: case OP_SREM: case OP_UDIV: case OP_UREM:
        return encode_div(t, G->op, a, b, w, div0, ovf);
    case OP_SHL: case OP_LSHR: case OP_ASHR:
        return encode_shift(t, G->op, a, b, w);
    case OP_ICMP:
        return encode_icmp(t, G->cond, a, b);
    default:
        return encode_convert(t, G, in_ty, a);
    }
}
