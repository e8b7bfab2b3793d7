/* eval.c — the meaning of every pure computation gate on bit patterns (see eval.h and
 * docs/semantics.md).  Integers wrap at their width, shift amounts are taken modulo
 * the width, divisions report div0/overflow traps, f32 arithmetic is done in float
 * (correctly rounded), NaN results become the canonical quiet NaN, float-to-int
 * conversions truncate and saturate (NaN -> 0). */
#include "compiler/ir/eval.h"
#include "compiler/ir/eval_float.h"
#include "compiler/ir/eval_bits.h"

#include <math.h>
#include <string.h>

/* ---- type facts (the types are checked on entry, so these index directly) ----- */
static const uint64_t type_mask[TY_COUNT] = {0, 0x1, 0xff, 0xffff, 0xffffffff, ~(uint64_t)0, 0xffffffff, ~(uint64_t)0};
static const uint8_t type_width[TY_COUNT] = {0, 1, 8, 16, 32, 64, 32, 64};

/* as ty_sext: sign-extend the low bits of an int type */
static int64_t sext(Type t, uint64_t bits)
{
    unsigned b = type_width[t];
    if (b == 0 || b >= 64)
        return (int64_t)bits;
    uint64_t m = (uint64_t)1 << (b - 1);
    bits &= type_mask[t];
    return (int64_t)((bits ^ m) - m);
}

/* ---- float bit helpers ------------------------------------------------------- */
static float f32_of(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double f64_of(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static uint64_t bits_f32(float f)
{
    if (isnan(f))
        return canonical_nan(TY_F32);
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t bits_f64(double d)
{
    if (isnan(d))
        return canonical_nan(TY_F64);
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* the value of a float operand, exactly, as a double */
static double float_value(Type t, uint64_t bits)
{
    return t == TY_F32 ? (double)f32_of(bits) : f64_of(bits);
}

/* ---- integer arithmetic ------------------------------------------------------ */
static uint64_t int_power(uint64_t x, uint64_t y)
{
    uint64_t r = 1;
    while (y) {
        if (y & 1)
            r *= x;
        x *= x;
        y >>= 1;
    }
    return r;
}

static EvalStatus int_divide(int op, Type t, uint64_t a, uint64_t b, uint64_t *out)
{
    if (b == 0)
        return EVAL_TRAP_DIV0;
    if (op == OP_UDIV || op == OP_UREM) {
        *out = op == OP_UDIV ? a / b : a % b;
        return EVAL_OK;
    }
    int64_t sa = sext(t, a), sb = sext(t, b);
    int64_t min = sext(t, (uint64_t)1 << (type_width[t] - 1));
    if (sa == min && sb == -1)
        return EVAL_TRAP_OVERFLOW;
    *out = (uint64_t)(op == OP_SDIV ? sa / sb : sa % sb);
    return EVAL_OK;
}

static uint64_t int_shift(int op, Type t, uint64_t a, uint64_t b)
{
    unsigned w = (unsigned)type_width[t];
    unsigned s = (unsigned)(b % w);
    switch (op) {
    case OP_SHL: return a << s;
    case OP_LSHR: return a >> s;
    default: { /* ASHR: sign-fill from the width's top bit */
        int64_t v = sext(t, a);
        return v < 0 ? ~(~(uint64_t)v >> s) : (uint64_t)v >> s;
    }
    }
}

static EvalStatus int_binary(int op, Type t, uint64_t a, uint64_t b, uint64_t *out)
{
    switch (op) {
    case OP_ADD: *out = a + b; return EVAL_OK;
    case OP_SUB: *out = a - b; return EVAL_OK;
    case OP_MUL: *out = a * b; return EVAL_OK;
    case OP_EXP: *out = int_power(a, b); return EVAL_OK;
    case OP_AND: *out = a & b; return EVAL_OK;
    case OP_OR: *out = a | b; return EVAL_OK;
    case OP_XOR: *out = a ^ b; return EVAL_OK;
    case OP_SHL: case OP_LSHR: case OP_ASHR:
        *out = int_shift(op, t, a, b);
        return EVAL_OK;
    case OP_SDIV: case OP_SREM: case OP_UDIV: case OP_UREM:
        return int_divide(op, t, a, b, out);
    default:
        return eval_bits_binary(op, t, a, b, out);
    }
}

static bool int_compare(int cond, Type t, uint64_t a, uint64_t b)
{
    switch (cond) {
    case ICMP_eq: return a == b;
    case ICMP_ne: return a != b;
    case ICMP_ugt: return a > b;
    case ICMP_uge: return a >= b;
    case ICMP_ult: return a < b;
    case ICMP_ule: return a <= b;
    case ICMP_sgt: return sext(t, a) > sext(t, b);
    case ICMP_sge: return sext(t, a) >= sext(t, b);
    case ICMP_slt: return sext(t, a) < sext(t, b);
    case ICMP_sle: return sext(t, a) <= sext(t, b);
    default: return false;
    }
}

/* ---- float arithmetic -------------------------------------------------------- */
static EvalStatus f32_binary(int op, float a, float b, uint64_t *out)
{
    float r;
    switch (op) {
    case OP_FADD: r = a + b; break;
    case OP_FSUB: r = a - b; break;
    case OP_FMUL: r = a * b; break;
    case OP_FDIV: r = a / b; break;
    case OP_FMOD: r = fmodf(a, b); break;
    case OP_FEXP: r = powf(a, b); break;
    default: return EVAL_NOT_PURE;
    }
    *out = bits_f32(r);
    return EVAL_OK;
}

static EvalStatus f64_binary(int op, double a, double b, uint64_t *out)
{
    double r;
    switch (op) {
    case OP_FADD: r = a + b; break;
    case OP_FSUB: r = a - b; break;
    case OP_FMUL: r = a * b; break;
    case OP_FDIV: r = a / b; break;
    case OP_FMOD: r = fmod(a, b); break;
    case OP_FEXP: r = pow(a, b); break;
    default: return EVAL_NOT_PURE;
    }
    *out = bits_f64(r);
    return EVAL_OK;
}

static bool float_compare(int cond, double a, double b)
{
    bool uno = isnan(a) || isnan(b);
    switch (cond) {
    case FCMP_false: return false;
    case FCMP_oeq: return !uno && a == b;
    case FCMP_ogt: return !uno && a > b;
    case FCMP_oge: return !uno && a >= b;
    case FCMP_olt: return !uno && a < b;
    case FCMP_ole: return !uno && a <= b;
    case FCMP_one: return !uno && a != b;
    case FCMP_ord: return !uno;
    case FCMP_uno: return uno;
    case FCMP_ueq: return uno || a == b;
    case FCMP_ugt: return uno || a > b;
    case FCMP_uge: return uno || a >= b;
    case FCMP_ult: return uno || a < b;
    case FCMP_ule: return uno || a <= b;
    case FCMP_une: return uno || a != b;
    case FCMP_true: return true;
    default: return false;
    }
}

/* ---- conversions ------------------------------------------------------------- */
/* truncate toward zero and saturate to the signed range of t; NaN -> 0 */
static uint64_t float_to_signed(Type t, double d)
{
    int w = type_width[t];
    if (isnan(d))
        return 0;
    double lim = ldexp(1.0, w - 1); /* 2^(w-1), exact */
    if (d >= lim)
        return ((uint64_t)1 << (w - 1)) - 1;
    if (d <= -lim)
        return (uint64_t)1 << (w - 1); /* masked: the most negative value */
    return (uint64_t)(int64_t)d;
}

/* truncate toward zero and saturate to the unsigned range of t; NaN and negatives -> 0 */
static uint64_t float_to_unsigned(Type t, double d)
{
    int w = type_width[t];
    if (isnan(d) || d <= 0.0)
        return 0;
    double lim = ldexp(1.0, w); /* 2^w, exact */
    if (d >= lim)
        return type_mask[t];
    return (uint64_t)d;
}

static uint64_t int_to_float(Type to, bool is_signed, Type from, uint64_t x)
{
    if (is_signed) {
        int64_t v = sext(from, x);
        return to == TY_F32 ? bits_f32((float)v) : bits_f64((double)v);
    }
    return to == TY_F32 ? bits_f32((float)x) : bits_f64((double)x);
}

static EvalStatus convert(int op, Type ty, Type in_ty, uint64_t x, uint64_t *out)
{
    switch (op) {
    case OP_TRUNC: case OP_ZEXT: case OP_BITCAST:
        *out = x;
        return EVAL_OK;
    case OP_SEXT:
        *out = (uint64_t)sext(in_ty, x);
        return EVAL_OK;
    case OP_SITOFP: case OP_UITOFP:
        *out = int_to_float(ty, op == OP_SITOFP, in_ty, x);
        return EVAL_OK;
    case OP_FPTOSI:
        *out = float_to_signed(ty, float_value(in_ty, x));
        return EVAL_OK;
    case OP_FPTOUI:
        *out = float_to_unsigned(ty, float_value(in_ty, x));
        return EVAL_OK;
    case OP_FPEXT:
        *out = bits_f64((double)f32_of(x));
        return EVAL_OK;
    case OP_FPTRUNC:
        *out = bits_f32((float)f64_of(x));
        return EVAL_OK;
    case OP_FNEG:
        *out = x ^ (ty == TY_F32 ? 0x80000000u : 0x8000000000000000ull);
        return EVAL_OK;
    default:
        if (ty_is_int(ty))
            return ty == in_ty ? eval_bits_unary(op, ty, x, out) : EVAL_NOT_PURE;
        return eval_float_unary(op, ty, x, out);
    }
}

/* ---- entry point ------------------------------------------------------------- */
static EvalStatus binary(int op, Type ty, int cond, Type in_ty, uint64_t a, uint64_t b, uint64_t *out)
{
    if (op == OP_ICMP) {
        *out = int_compare(cond, in_ty, a, b);
        return EVAL_OK;
    }
    if (op == OP_FCMP) {
        *out = float_compare(cond, float_value(in_ty, a), float_value(in_ty, b));
        return EVAL_OK;
    }
    if (eval_float_has(op))
        return eval_float_binary(op, ty, a, b, out);
    if (ty == TY_F32)
        return f32_binary(op, f32_of(a), f32_of(b), out);
    if (ty == TY_F64)
        return f64_binary(op, f64_of(a), f64_of(b), out);
    return int_binary(op, ty, a, b, out); /* ty is an int type: checked on entry */
}

EvalStatus eval_pure(int op, Type ty, int cond, Type in_ty, const uint64_t *in, uint32_t nin, uint64_t *out)
{
    if (op < 0 || op >= OP_COUNT || !op_has(op, F_PURE) || ty <= TY_NONE || ty >= TY_COUNT ||
        in_ty <= TY_NONE || in_ty >= TY_COUNT)
        return EVAL_NOT_PURE;
    uint64_t inmask = type_mask[in_ty];
    uint64_t r = 0;
    EvalStatus st;
    if (nin == 2 && op_info[op].vmin == 2)
        st = binary(op, ty, cond, in_ty, in[0] & inmask, in[1] & inmask, &r);
    else if (nin == 1 && op_info[op].vmin == 1)
        st = convert(op, ty, in_ty, in[0] & inmask, &r);
    else if (nin == 3 && op == OP_SELECT)
        st = eval_select(ty, in, &r);
    else
        st = EVAL_NOT_PURE;
    if (st == EVAL_OK)
        *out = r & type_mask[ty];
    return st;
}
