/* eval_float.c — SQRT FLOOR CEIL FTRUNC NEAREST FABS FMIN FMAX FCOPYSIGN on bit
 * patterns (eval_float.h).  The roundings and SQRT use the C library's double
 * functions (correctly rounded; the default rounding mode makes nearbyint round ties
 * to even); the sign operations and the ordering of FMIN/FMAX work on the bits. */
#include "compiler/ir/eval_float.h"

#include <math.h>
#include <string.h>

static uint64_t sign_bit(Type t) { return t == TY_F32 ? 0x80000000u : 0x8000000000000000ull; }

static bool is_nan_bits(Type t, uint64_t x)
{
    uint64_t mag = x & ~sign_bit(t);
    return t == TY_F32 ? mag > 0x7f800000u : mag > 0x7ff0000000000000ull;
}

/* the value of float bits of type t, exactly, as a double */
static double value_of(Type t, uint64_t bits)
{
    if (t == TY_F32) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* the bits of d as type t (d is exact in t, or an f32 square root: see below); a NaN
 * is the canonical one */
static uint64_t bits_of(Type t, double d)
{
    if (isnan(d))
        return canonical_nan(t);
    if (t == TY_F32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

bool eval_float_has(int op)
{
    switch (op) {
    case OP_SQRT: case OP_FLOOR: case OP_CEIL: case OP_FTRUNC: case OP_NEAREST: case OP_FABS:
    case OP_FMIN: case OP_FMAX: case OP_FCOPYSIGN:
        return true;
    default:
        return false;
    }
}

/* in double for both types: a rounding of an f32 is exact there, and the f32 square
 * root through the double one rounds correctly (53 >= 2 * 24 + 2 bits) */
static EvalStatus unary_value(int op, double x, double *r)
{
    switch (op) {
    case OP_SQRT: *r = sqrt(x); break;
    case OP_FLOOR: *r = floor(x); break;
    case OP_CEIL: *r = ceil(x); break;
    case OP_FTRUNC: *r = trunc(x); break;
    case OP_NEAREST: *r = nearbyint(x); break;
    default: return EVAL_NOT_PURE;
    }
    return EVAL_OK;
}

EvalStatus eval_float_unary(int op, Type ty, uint64_t x, uint64_t *out)
{
    if (ty != TY_F32 && ty != TY_F64)
        return EVAL_NOT_PURE;
    if (op == OP_FABS) {
        *out = x & ~sign_bit(ty);
        return EVAL_OK;
    }
    double r;
    EvalStatus st = unary_value(op, value_of(ty, x), &r);
    if (st == EVAL_OK)
        *out = bits_of(ty, r);
    return st;
}

/* a < b as numbers, neither NaN, -0 < +0 */
static bool ordered_less(Type ty, uint64_t a, uint64_t b)
{
    double x = value_of(ty, a), y = value_of(ty, b);
    if (x == y) /* equal numbers: only the zeros differ in bits */
        return (a & sign_bit(ty)) && !(b & sign_bit(ty));
    return x < y;
}

EvalStatus eval_float_binary(int op, Type ty, uint64_t a, uint64_t b, uint64_t *out)
{
    uint64_t sign = sign_bit(ty);
    if ((ty != TY_F32 && ty != TY_F64) || (op != OP_FMIN && op != OP_FMAX && op != OP_FCOPYSIGN))
        return EVAL_NOT_PURE;
    if (op == OP_FCOPYSIGN)
        *out = (a & ~sign) | (b & sign);
    else if (is_nan_bits(ty, a) || is_nan_bits(ty, b))
        *out = canonical_nan(ty);
    else
        *out = ordered_less(ty, a, b) == (op == OP_FMIN) ? a : b;
    return EVAL_OK;
}
