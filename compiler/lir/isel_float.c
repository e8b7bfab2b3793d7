/* isel_float.c — selection of SQRT, FLOOR CEIL FTRUNC NEAREST, FABS FCOPYSIGN and
 * FMIN FMAX (isel.h), each through the target's forms table: the one instruction
 * where the target has it (ARM64 fsqrt, frint*, fabs, fmin/fmax; x86-64 sqrtss/sd),
 * else a sequence of the forms every target has:
 *   - a rounding of |x| >= 2^52 (f32: 2^23), an infinity or a NaN is x itself; below,
 *     FTRUNC/FLOOR/CEIL convert to an integer and back (FLOOR subtracting 1 when that
 *     came out above x, CEIL adding 1 when below), NEAREST adds and subtracts 2^52
 *     (2^23) to |x|, which rounds to nearest even; the result takes x's sign, so
 *     -0.5 rounds to -0;
 *   - FABS and FCOPYSIGN mask the sign bit (and, or with constant masks) where the
 *     target has no instruction for them (ARM64: fabs, and bfxil in integer registers);
 *   - FMIN is minsd(a, b) | minsd(b, a) and FMAX maxsd(a, b) & maxsd(b, a): x86's
 *     minsd/maxsd give their second operand for two zeros or a NaN, so the or/and
 *     of both orders makes min(-0, +0) = -0 and max(-0, +0) = +0; a NaN operand then
 *     gives the canonical NaN by a conditional move on (a uno b).
 * NaN results are made canonical (isel_canonicalize) unless no user sees them; FABS
 * and FCOPYSIGN keep payloads (docs/semantics.md §2.3.1). */
#include "isel.h"

static bool is_f64(Type t) { return t == TY_F64; }
static LirOp by_type(Type t, LirOp f32, LirOp f64) { return is_f64(t) ? f64 : f32; }
static uint64_t sign_mask(Type t) { return is_f64(t) ? 1ull << 63 : 1ull << 31; }
static LirOp fmove_op(Type t) { return by_type(t, LIR_MoveFloat, LIR_MoveDouble); }

void isel_nan_if_unordered(Lower *l, Type ty, Arg a, Arg b, Arg t)
{
    bool d = is_f64(ty);
    Arg bits = isel_fresh(l, BANK_GP);
    lower_emit2(l, d ? LIR_MoveDoubleTo64 : LIR_MoveFloatTo32, t, bits);
    Arg nan = isel_gp_const(l, canonical_nan(ty));
    lower_emit5(l, d ? LIR_MoveConditionallyDouble : LIR_MoveConditionallyFloat, arg_doublecond(DBL_uno), a, b,
                nan, bits);
    lower_emit2(l, d ? LIR_Move64ToDouble : LIR_Move32ToFloat, bits, t);
}

/* dst := src op mask (And/Or of the bits) with mask a constant */
static void mask_bits(Lower *l, Type ty, LirOp f32, LirOp f64, uint64_t mask, Arg src, Arg dst)
{
    Arg m = isel_fp_const(l, ty, mask);
    isel_alu(l, fmove_op(ty), by_type(ty, f32, f64), src, m, dst, NO_GATE);
}

/* ---- SQRT, FABS, FCOPYSIGN ------------------------------------------------------------ */
static bool sel_sqrt(Lower *l, GateId g, Type ty)
{
    Arg dst = isel_t(l, g);
    lower_emit2(l, by_type(ty, LIR_SqrtFloat, LIR_SqrtDouble), isel_t(l, isel_in(l, g, 0)), dst);
    isel_canonicalize(l, g, ty, dst);
    return true;
}

static bool sel_fabs(Lower *l, GateId g, Type ty)
{
    Arg src = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    LirOp abs = by_type(ty, LIR_AbsFloat, LIR_AbsDouble);
    if (isel_valid(l, abs, 2, (Arg[]){src, dst}))
        lower_emit2(l, abs, src, dst);
    else
        mask_bits(l, ty, LIR_AndFloat, LIR_AndDouble, sign_mask(ty) - 1, src, dst);
    return true;
}

static bool sel_copysign(Lower *l, GateId g, Type ty)
{
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1)), dst = isel_t(l, g);
    LirOp direct = by_type(ty, LIR_CopySignFloat, LIR_CopySignDouble);
    if (isel_valid(l, direct, 3, (Arg[]){a, b, dst})) {
        lower_emit3(l, direct, a, b, dst);
        return true;
    }
    Arg sign = isel_fresh(l, BANK_FP);
    uint64_t s = sign_mask(ty);
    mask_bits(l, ty, LIR_AndFloat, LIR_AndDouble, s, b, sign);
    mask_bits(l, ty, LIR_AndFloat, LIR_AndDouble, s - 1, a, dst);
    lower_emit2(l, by_type(ty, LIR_OrFloat, LIR_OrDouble), sign, dst);
    return true;
}

/* ---- FMIN, FMAX ------------------------------------------------------------------------- */
static bool sel_min_max(Lower *l, GateId g, Type ty)
{
    bool max = isel_g(l, g)->op == OP_FMAX;
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1)), dst = isel_t(l, g);
    LirOp ieee = max ? by_type(ty, LIR_MaximumFloat, LIR_MaximumDouble) : by_type(ty, LIR_MinimumFloat, LIR_MinimumDouble);
    if (isel_valid(l, ieee, 3, (Arg[]){a, b, dst})) {
        lower_emit3(l, ieee, a, b, dst);
        isel_canonicalize(l, g, ty, dst);
        return true;
    }
    LirOp x86 = max ? by_type(ty, LIR_MaxFloat, LIR_MaxDouble) : by_type(ty, LIR_MinFloat, LIR_MinDouble);
    Arg other = isel_fresh(l, BANK_FP);
    isel_alu(l, fmove_op(ty), x86, a, b, other, NO_GATE); /* a < b ? a : b, else b */
    isel_alu(l, fmove_op(ty), x86, b, a, dst, NO_GATE);   /* b < a ? b : a, else a */
    lower_emit2(l, max ? by_type(ty, LIR_AndFloat, LIR_AndDouble) : by_type(ty, LIR_OrFloat, LIR_OrDouble), other,
                dst);
    isel_nan_if_unordered(l, ty, a, b, dst);
    return true;
}

/* ---- FLOOR, CEIL, FTRUNC, NEAREST --------------------------------------------------------- */
static LirOp round_op(int op, Type ty)
{
    switch (op) {
    case OP_FLOOR: return by_type(ty, LIR_FloorFloat, LIR_FloorDouble);
    case OP_CEIL: return by_type(ty, LIR_CeilFloat, LIR_CeilDouble);
    case OP_FTRUNC: return by_type(ty, LIR_TruncFloat, LIR_TruncDouble);
    default: return by_type(ty, LIR_NearestFloat, LIR_NearestDouble);
    }
}

/* a float compare (Branch*, 3 args, or Compare*, 4 args) of a and b by condition c,
 * commuted where the target tests only the mirrored condition */
static void compare_by(Lower *l, LirOp op, unsigned n, DoubleCond c, Arg a, Arg b, Arg dst)
{
    Arg args[4] = {arg_doublecond(c), a, b, dst};
    if (!isel_valid(l, op, n, args)) {
        args[0] = arg_doublecond(doublecond_commute(c));
        args[1] = b, args[2] = a;
    }
    lower_emit(l, op, n, args);
}

/* dst := x rounded toward zero, minus 1 if that is above x (FLOOR) or plus 1 if
 * below (CEIL), for |x| below 2^52 (2^23), through an integer */
static void round_by_integer(Lower *l, int op, Type ty, Arg x, Arg dst)
{
    bool d = is_f64(ty);
    Arg i = isel_fresh(l, BANK_GP);
    lower_emit2(l, d ? LIR_TruncateDoubleToInt64 : LIR_TruncateFloatToInt32, x, i);
    lower_emit2(l, d ? LIR_ConvertInt64ToDouble : LIR_ConvertInt32ToFloat, i, dst);
    if (op == OP_FTRUNC)
        return;
    Arg off = isel_fresh(l, BANK_GP);
    compare_by(l, by_type(ty, LIR_CompareFloat, LIR_CompareDouble), 4, op == OP_FLOOR ? DBL_ogt : DBL_olt, dst, x, off);
    isel_alu(l, LIR_Move, op == OP_FLOOR ? LIR_Sub64 : LIR_Add64, i, off, i, NO_GATE);
    lower_emit2(l, d ? LIR_ConvertInt64ToDouble : LIR_ConvertInt32ToFloat, i, dst);
}

/* the SSE2 way: x itself when |x| >= 2^52 (2^23) or NaN, else the integral value
 * computed below with x's sign */
static void round_by_sequence(Lower *l, int op, Type ty, Arg x, Arg dst)
{
    bool d = is_f64(ty);
    Arg mag = isel_fresh(l, BANK_FP), big = isel_fp_const(l, ty, d ? 0x4330000000000000ull : 0x4b000000u);
    mask_bits(l, ty, LIR_AndFloat, LIR_AndDouble, sign_mask(ty) - 1, x, mag);
    lower_emit2(l, fmove_op(ty), x, dst);
    LirBlock *small = lower_new_block(l, false), *join = lower_new_block(l, false);
    compare_by(l, by_type(ty, LIR_BranchFloat, LIR_BranchDouble), 3, DBL_uge, mag, big, arg_none());
    lir_add_succ(l->code, l->cur, join->index);
    lir_add_succ(l->code, l->cur, small->index);
    l->cur = small;
    Arg r = isel_fresh(l, BANK_FP);
    if (op == OP_NEAREST) {
        isel_alu(l, fmove_op(ty), by_type(ty, LIR_AddFloat, LIR_AddDouble), mag, big, r, NO_GATE);
        lower_emit2(l, by_type(ty, LIR_SubFloat, LIR_SubDouble), big, r);
    } else {
        round_by_integer(l, op, ty, x, r);
    }
    mask_bits(l, ty, LIR_AndFloat, LIR_AndDouble, sign_mask(ty), x, dst);
    lower_emit2(l, by_type(ty, LIR_OrFloat, LIR_OrDouble), r, dst);
    lower_jump(l, join->index);
    l->cur = join;
}

/* the one place that chooses how to round: the target's instruction when its forms
 * table has one (ARM64 frint*; an x86-64 level with SSE4.1 roundss/roundsd), else
 * the SSE2 sequence */
static bool sel_round(Lower *l, GateId g, Type ty)
{
    int op = isel_g(l, g)->op;
    Arg x = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    LirOp direct = round_op(op, ty);
    if (isel_valid(l, direct, 2, (Arg[]){x, dst}))
        lower_emit2(l, direct, x, dst);
    else
        round_by_sequence(l, op, ty, x, dst);
    isel_canonicalize(l, g, ty, dst);
    return true;
}

bool isel_float_ops(Lower *l, GateId g)
{
    Type ty = isel_type(l, g);
    switch ((Opcode)isel_g(l, g)->op) {
    case OP_SQRT: return sel_sqrt(l, g, ty);
    case OP_FABS: return sel_fabs(l, g, ty);
    case OP_FCOPYSIGN: return sel_copysign(l, g, ty);
    case OP_FMIN: case OP_FMAX: return sel_min_max(l, g, ty);
    default: return sel_round(l, g, ty);
    }
}
