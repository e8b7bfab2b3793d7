/* isel_hooks.c — what ARM64 instruction selection does its own way (the generic
 * selector is compiler/lir/isel.h) and the AAPCS64 calling convention table, which
 * the ARM64 Target (target.c) points to:
 *   - sdiv/udiv never trap: the divisor is checked against 0 (div0) and, signed,
 *     INT_MIN / -1 (overflow) with branches to a brk of that kind; the remainder
 *     is msub; 8/16-bit signed operands are sign-extended first;
 *   - FPTOSI/FPTOUI are fcvtzs/fcvtzu, whose saturation (NaN -> 0) is the rule at
 *     32 and 64 bits; narrower widths clamp;
 *   - 8/16-bit equality and unsigned compares are done at 32 bits (the values are
 *     zero-extended), and a nonzero test is a compare with 0 (cbnz);
 *   - AAPCS64: integers in x0-x7, floats in v0-v7, the rest in 8-byte stack slots
 *     at the caller's sp, found above the saved x29/x30 pair; a call clobbers
 *     x0-x18, x30 and v0-v7, v16-v31 (v8-v15 keep their low 64 bits, all a value
 *     uses). */
#include "a64.h"
#include "a64_internal.h"

#include "compiler/lir/isel.h"

/* ---- division ------------------------------------------------------------------------- */
/* a branch to the trap block of kind when tmp a equals the constant bits (a zero-
 * extended value of width w: compared at 32 or 64 bits); taken: to_block, or the
 * trap block when to_block is UINT32_MAX */
static void branch_if_equal(Lower *l, int w, Arg a, uint64_t bits, uint32_t to_block)
{
    LirOp op = w == 64 ? LIR_Branch64 : LIR_Branch32;
    Arg args[3] = {arg_relcond(REL_eq), a, arg_imm((int64_t)bits)};
    if (!isel_valid(l, op, 3, args))
        args[2] = isel_gp_const(l, bits);
    lower_emit(l, op, 3, args);
    isel_branch_or_continue(l, to_block);
}

/* the zero and (signed) INT_MIN / -1 checks; the latter on the -1 path only */
static void check_traps(Lower *l, int w, bool is_signed, Arg a, Arg b)
{
    branch_if_equal(l, w, b, 0, lower_trap_block(l, TRAP_DIV0));
    if (!is_signed)
        return;
    LirBlock *minus_one = lower_new_block(l, false);
    branch_if_equal(l, w, b, w == 64 ? ~0ull : (1ull << w) - 1, minus_one->index);
    LirBlock *divide = l->cur;
    l->cur = minus_one;
    branch_if_equal(l, w, a, 1ull << (w - 1), lower_trap_block(l, TRAP_OVERFLOW));
    lower_jump(l, divide->index);
    l->cur = divide;
}

static bool a64_divide(Lower *l, GateId g)
{
    int op = isel_g(l, g)->op, w = ty_bits(isel_type(l, g));
    bool is_signed = op == OP_SDIV || op == OP_SREM, want_rem = op == OP_SREM || op == OP_UREM;
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1));
    check_traps(l, w, is_signed, a, b);
    if (is_signed)
        isel_sign_extend_pair(l, w, &a, &b);
    LirOp div = w == 64 ? (is_signed ? LIR_Div64 : LIR_UDiv64) : (is_signed ? LIR_Div32 : LIR_UDiv32);
    Arg dst = isel_t(l, g);
    if (want_rem) {
        Arg q = isel_fresh(l, BANK_GP);
        lower_emit3(l, div, a, b, q);
        lower_emit4(l, w == 64 ? LIR_MultiplySub64 : LIR_MultiplySub32, q, b, a, dst);
    } else {
        lower_emit3(l, div, a, b, dst);
    }
    if (w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- float to integer ------------------------------------------------------------------ */
/* fcvtzs/fcvtzu saturate to their destination's range (32 or 64 bits) and give 0 for
 * NaN, which is the whole rule at those widths; narrower widths clamp the 64-bit
 * signed (or 32-bit unsigned) conversion */
static bool a64_fptoi(Lower *l, GateId g)
{
    bool is_signed = isel_g(l, g)->op == OP_FPTOSI;
    bool d = isel_type(l, isel_in(l, g, 0)) == TY_F64;
    int w = ty_bits(isel_type(l, g));
    Arg x = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    static const LirOp cvt[2][2][2] = { /* [signed][double][64-bit] */
        {{LIR_TruncateFloatToUInt32, LIR_TruncateFloatToUInt64},
         {LIR_TruncateDoubleToUInt32, LIR_TruncateDoubleToUInt64}},
        {{LIR_TruncateFloatToInt32, LIR_TruncateFloatToInt64},
         {LIR_TruncateDoubleToInt32, LIR_TruncateDoubleToInt64}},
    };
    if (w == 32 || w == 64) { /* a 32-bit result is written zero-extended */
        lower_emit2(l, cvt[is_signed][d][w == 64], x, dst);
        return true;
    }
    Arg r = isel_fresh(l, BANK_GP);
    lower_emit2(l, cvt[is_signed][d][is_signed], x, r);
    if (is_signed) {
        Arg lo = isel_gp_const(l, (uint64_t)-(1ll << (w - 1)));
        lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, lo, lo, r);
    }
    Arg max = isel_gp_const(l, is_signed ? (1ull << (w - 1)) - 1 : (1ull << w) - 1);
    lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_sgt), r, max, max, r);
    lower_emit2(l, LIR_Move, r, dst);
    if (is_signed) /* an unsigned result is in 0..max: already zero-extended */
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- tables ---------------------------------------------------------------------------- */
static const AbiDesc aapcs64 = {
    .gp_args = {0, 1, 2, 3, 4, 5, 6, 7},
    .ngp_args = 8,
    .nfp_args = 8,
    .gp_ret = 0,
    .fp_ret = 0,
    .gp_flag = 1, /* x1 */
    .frame_base = A64_FP,
    .stack_args_at = A64_STACK_ARGS_AT,
    .clobbers = {0x7ffffull | 1ull << A64_LR, 0xffff00ffull},
    .i1_stack_load = LIR_ZeroExtend8To32,
};

const IselHooks a64_isel_hooks = {
    .abi = &aapcs64,
    .shift_count = TMP_NONE,
    .narrow_compare_at_32 = true,
    .test_by_compare = true,
    .divide = a64_divide,
    .fptoi = a64_fptoi,
};
