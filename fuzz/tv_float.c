/* tv_float.c — the float gates in Z3's floating-point theory.  Values stay bit-vectors
 * (IEEE bits) everywhere; an arithmetic gate converts its operands to FP terms, and its
 * result back to bits with the canonical-NaN rule (docs/semantics.md §2.3): a NaN
 * result is the canonical quiet NaN of its type, so the result bits are fully
 * determined.  FNEG flips the sign bit, FABS clears it, FCOPYSIGN copies it; SQRT and
 * the roundings are fp.sqrt and fp.roundToIntegral; FMIN/FMAX work on the bits (NaN,
 * -0 < +0: IEEE 754-2019 minimum/maximum).  FCMP follows the ordered/unordered table;
 * FPTOSI/FPTOUI truncate and saturate (NaN -> 0) exactly as compiler/ir/eval.c.
 * FMOD is C fmod, exact: the IEEE remainder moved by |y| toward x's sign.  FEXP
 * (C pow) has no encoding in the theory: of constant operands it is computed as the
 * interpreter computes it (eval_pure), pow(x, ±0) and pow(1, y) are 1 (C99 F.9.4.4),
 * and otherwise it is an uninterpreted function of its operands' bits
 * (t->abstracted is set; a counterexample that the interpreter does not confirm
 * then means the abstraction was too coarse, not an encoding bug). */
#include "compiler/ir/eval.h"
#include "fuzz/tv_internal.h"

#include <math.h>

static Z3_sort fp_sort(TvCtx *t, Type ty)
{
    return ty == TY_F32 ? Z3_mk_fpa_sort_32(t->z) : Z3_mk_fpa_sort_64(t->z);
}

static Z3_ast to_fp(TvCtx *t, Z3_ast bits, Type ty) { return Z3_mk_fpa_to_fp_bv(t->z, bits, fp_sort(t, ty)); }

static Z3_ast rne(TvCtx *t) { return Z3_mk_fpa_rne(t->z); }

/* the IEEE bits of r, a NaN made the canonical one */
static Z3_ast to_bits(TvCtx *t, Z3_ast r, Type ty)
{
    Z3_ast canon = tv_bv(t, canonical_nan(ty), (unsigned)ty_bits(ty));
    return Z3_mk_ite(t->z, Z3_mk_fpa_is_nan(t->z, r), canon, Z3_mk_fpa_to_ieee_bv(t->z, r));
}

bool tv_float_supported(int op)
{
    switch (op) {
    case OP_FNEG: case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: case OP_FCMP:
    case OP_FMOD: case OP_FEXP:
    case OP_SITOFP: case OP_UITOFP: case OP_FPTOSI: case OP_FPTOUI: case OP_FPEXT: case OP_FPTRUNC:
    case OP_BITCAST:
    case OP_SQRT: case OP_FLOOR: case OP_CEIL: case OP_FTRUNC: case OP_NEAREST: case OP_FABS:
    case OP_FMIN: case OP_FMAX: case OP_FCOPYSIGN:
        return true;
    default:
        return false;
    }
}

static Z3_ast fcmp(TvCtx *t, int cond, Z3_ast a, Z3_ast b)
{
    Z3_context z = t->z;
    Z3_ast uno = Z3_mk_or(z, 2, (Z3_ast[]){Z3_mk_fpa_is_nan(z, a), Z3_mk_fpa_is_nan(z, b)});
    Z3_ast rel;
    switch (cond & 7) {
    case 0: rel = Z3_mk_false(z); break;
    case 1: rel = Z3_mk_fpa_eq(z, a, b); break;
    case 2: rel = Z3_mk_fpa_gt(z, a, b); break;
    case 3: rel = Z3_mk_fpa_geq(z, a, b); break;
    case 4: rel = Z3_mk_fpa_lt(z, a, b); break;
    case 5: rel = Z3_mk_fpa_leq(z, a, b); break;
    case 6: rel = Z3_mk_not(z, Z3_mk_fpa_eq(z, a, b)); break;
    default: rel = Z3_mk_true(z); break; /* ord / true: the NaN test decides */
    }
    /* codes 0-7 are ordered (false when either is NaN), 8-15 unordered (true then) */
    Z3_ast r = cond < 8 ? Z3_mk_and(z, 2, (Z3_ast[]){Z3_mk_not(z, uno), rel}) : Z3_mk_or(z, 2, (Z3_ast[]){uno, rel});
    return Z3_mk_ite(z, r, tv_bv(t, 1, 1), tv_bv(t, 0, 1));
}

/* truncate toward zero, saturate to the range of the w-bit result; NaN -> 0 */
static Z3_ast fp_to_int(TvCtx *t, bool is_signed, Z3_ast x, Type in_ty, unsigned w)
{
    Z3_context z = t->z;
    Z3_sort s = fp_sort(t, in_ty);
    Z3_ast rtz = Z3_mk_fpa_rtz(z);
    Z3_ast lim = Z3_mk_fpa_numeral_double(z, is_signed ? ldexp(1.0, (int)w - 1) : ldexp(1.0, (int)w), s);
    Z3_ast hi = tv_bv(t, is_signed ? (1ull << (w - 1)) - 1 : ~0ull, w);
    Z3_ast lo = tv_bv(t, is_signed ? 1ull << (w - 1) : 0, w);
    Z3_ast low_edge = is_signed ? Z3_mk_fpa_leq(z, x, Z3_mk_fpa_neg(z, lim))
                                : Z3_mk_fpa_leq(z, x, Z3_mk_fpa_numeral_double(z, 0.0, s));
    Z3_ast conv = is_signed ? Z3_mk_fpa_to_sbv(z, rtz, x, w) : Z3_mk_fpa_to_ubv(z, rtz, x, w);
    Z3_ast r = Z3_mk_ite(z, low_edge, lo, conv);
    r = Z3_mk_ite(z, Z3_mk_fpa_geq(z, x, lim), hi, r);
    return Z3_mk_ite(z, Z3_mk_fpa_is_nan(z, x), tv_bv(t, 0, w), r);
}

static Z3_ast fp_convert(TvCtx *t, const Gate *G, Type in_ty, Z3_ast a)
{
    Z3_context z = t->z;
    Type ty = (Type)G->type;
    switch (G->op) {
    case OP_SITOFP: return to_bits(t, Z3_mk_fpa_to_fp_signed(z, rne(t), a, fp_sort(t, ty)), ty);
    case OP_UITOFP: return to_bits(t, Z3_mk_fpa_to_fp_unsigned(z, rne(t), a, fp_sort(t, ty)), ty);
    case OP_FPTOSI: case OP_FPTOUI:
        return fp_to_int(t, G->op == OP_FPTOSI, to_fp(t, a, in_ty), in_ty, (unsigned)ty_bits(ty));
    case OP_FPEXT: case OP_FPTRUNC:
        return to_bits(t, Z3_mk_fpa_to_fp_float(z, rne(t), to_fp(t, a, in_ty), fp_sort(t, ty)), ty);
    default: return a; /* BITCAST: the same bits */
    }
}

/* fmod(x, y) = x - trunc(x / y) * y, exact: the IEEE remainder (x - round(x / y) * y)
 * when it is zero or has x's sign, else that remainder plus |y| with x's sign (exact:
 * the result is representable) */
static Z3_ast fp_fmod(TvCtx *t, Z3_ast x, Z3_ast y)
{
    Z3_context z = t->z;
    Z3_ast r = Z3_mk_fpa_rem(z, x, y);
    Z3_ast ay = Z3_mk_fpa_abs(z, y);
    Z3_ast step = Z3_mk_ite(z, Z3_mk_fpa_is_negative(z, x), Z3_mk_fpa_neg(z, ay), ay);
    Z3_ast wrong_sign = Z3_mk_and(z, 2, (Z3_ast[]){Z3_mk_not(z, Z3_mk_fpa_is_zero(z, r)),
                                                   Z3_mk_not(z, Z3_mk_eq(z, Z3_mk_fpa_is_negative(z, r),
                                                                         Z3_mk_fpa_is_negative(z, x)))});
    return Z3_mk_ite(z, wrong_sign, Z3_mk_fpa_add(z, rne(t), r, step), r);
}

/* the bits of a term that simplifies to a constant */
static bool constant_bits(TvCtx *t, Z3_ast a, uint64_t *bits)
{
    Z3_ast s = tv_simplify(t, a);
    return Z3_is_numeral_ast(t->z, s) && Z3_get_numeral_uint64(t->z, s, bits);
}

/* pow where its value is known exactly: both operands constant (eval_pure, the
 * interpreter's pow), a zero exponent or a base of one (1 for every other operand,
 * NaN included); NULL otherwise */
static Z3_ast pow_known(TvCtx *t, Z3_ast a, Z3_ast b, Type ty)
{
    uint64_t in[2], out, sign = 1ull << (ty_bits(ty) - 1);
    uint64_t one = ty == TY_F32 ? 0x3f800000u : 0x3ff0000000000000ull;
    bool ca = constant_bits(t, a, &in[0]), cb = constant_bits(t, b, &in[1]);
    if ((cb && (in[1] & ~sign) == 0) || (ca && in[0] == one))
        return tv_bv(t, one, (unsigned)ty_bits(ty));
    if (!ca || !cb || eval_pure(OP_FEXP, ty, 0, ty, in, 2, &out) != EVAL_OK)
        return NULL;
    return tv_bv(t, out, (unsigned)ty_bits(ty));
}

/* pow as an uninterpreted function of the operands' bits (one per type) */
static Z3_ast fp_pow(TvCtx *t, Z3_ast a, Z3_ast b, Type ty)
{
    Z3_context z = t->z;
    Z3_sort bv = Z3_mk_bv_sort(z, (unsigned)ty_bits(ty));
    Z3_func_decl pow = Z3_mk_func_decl(z, Z3_mk_string_symbol(z, ty == TY_F32 ? "powf" : "pow"), 2,
                                       (Z3_sort[]){bv, bv}, bv);
    t->abstracted = true;
    return to_fp(t, Z3_mk_app(z, pow, 2, (Z3_ast[]){a, b}), ty);
}

/* SQRT and the roundings (fp.sqrt, fp.roundToIntegral in RNE/RTN/RTP/RTZ), their NaN
 * the canonical one; FABS and FCOPYSIGN on the sign bit */
static Z3_ast fp_unary(TvCtx *t, int op, Type ty, Z3_ast a)
{
    Z3_context z = t->z;
    unsigned w = (unsigned)ty_bits(ty);
    Z3_ast x = to_fp(t, a, ty), mode;
    switch (op) {
    case OP_FABS: return Z3_mk_bvand(z, a, tv_bv(t, (1ull << (w - 1)) - 1, w));
    case OP_SQRT: return to_bits(t, Z3_mk_fpa_sqrt(z, rne(t), x), ty);
    case OP_FLOOR: mode = Z3_mk_fpa_rtn(z); break;
    case OP_CEIL: mode = Z3_mk_fpa_rtp(z); break;
    case OP_FTRUNC: mode = Z3_mk_fpa_rtz(z); break;
    default: mode = rne(t); break;
    }
    return to_bits(t, Z3_mk_fpa_round_to_integral(z, mode, x), ty);
}

/* FMIN/FMAX on the bits (fp.min/fp.max leave the order of -0 and +0 open): the
 * canonical NaN if either is NaN; for equal values (the zeros among them) the or
 * (FMIN: -0 wins) or the and (FMAX: +0 wins) of the bits; else the smaller or larger.
 * FCOPYSIGN: a's magnitude bits, b's sign bit */
static Z3_ast fp_binary_bits(TvCtx *t, int op, Type ty, Z3_ast a, Z3_ast b)
{
    Z3_context z = t->z;
    unsigned w = (unsigned)ty_bits(ty);
    Z3_ast sign = tv_bv(t, 1ull << (w - 1), w);
    if (op == OP_FCOPYSIGN)
        return Z3_mk_bvor(z, Z3_mk_bvand(z, a, Z3_mk_bvnot(z, sign)), Z3_mk_bvand(z, b, sign));
    Z3_ast x = to_fp(t, a, ty), y = to_fp(t, b, ty);
    bool max = op == OP_FMAX;
    Z3_ast tie = max ? Z3_mk_bvand(z, a, b) : Z3_mk_bvor(z, a, b);
    Z3_ast pick = Z3_mk_ite(z, Z3_mk_fpa_lt(z, x, y), max ? b : a, max ? a : b);
    Z3_ast r = Z3_mk_ite(z, Z3_mk_fpa_eq(z, x, y), tie, pick);
    Z3_ast uno = Z3_mk_or(z, 2, (Z3_ast[]){Z3_mk_fpa_is_nan(z, x), Z3_mk_fpa_is_nan(z, y)});
    return Z3_mk_ite(z, uno, tv_bv(t, canonical_nan(ty), w), r);
}

Z3_ast tv_float(TvCtx *t, const Gate *G, Type in_ty, Z3_ast a, Z3_ast b)
{
    Z3_context z = t->z;
    unsigned w = (unsigned)ty_bits(in_ty);
    if (G->op == OP_FNEG)
        return Z3_mk_bvxor(z, a, tv_bv(t, 1ull << (w - 1), w));
    if (G->op == OP_FCMP)
        return fcmp(t, G->cond, to_fp(t, a, in_ty), to_fp(t, b, in_ty));
    if (op_info[G->op].rule == TR_FLOAT1)
        return fp_unary(t, G->op, in_ty, a);
    if (G->op == OP_FMIN || G->op == OP_FMAX || G->op == OP_FCOPYSIGN)
        return fp_binary_bits(t, G->op, in_ty, a, b);
    if (!b)
        return fp_convert(t, G, in_ty, a);
    Z3_ast known = G->op == OP_FEXP ? pow_known(t, a, b, in_ty) : NULL;
    if (known)
        return known;
    Z3_ast x = to_fp(t, a, in_ty), y = to_fp(t, b, in_ty), r;
    switch (G->op) {
    case OP_FADD: r = Z3_mk_fpa_add(z, rne(t), x, y); break;
    case OP_FSUB: r = Z3_mk_fpa_sub(z, rne(t), x, y); break;
    case OP_FMUL: r = Z3_mk_fpa_mul(z, rne(t), x, y); break;
    case OP_FDIV: r = Z3_mk_fpa_div(z, rne(t), x, y); break;
    case OP_FMOD: r = fp_fmod(t, x, y); break;
    default: r = fp_pow(t, a, b, in_ty); break;
    }
    return to_bits(t, r, in_ty);
}
