/* isel_hooks.c — what x86-64 instruction selection does its own way (the generic
 * selector is compiler/lir/isel.h) and the SysV calling convention table, which
 * the x86-64 Target (target.c) points to:
 *   - a zero divisor faults (#DE) at the div itself, a trap site of kind div0;
 *     signed divisions check INT_MIN / -1 first and branch to a Ud2 of kind
 *     overflow; the dividend goes in rdx:rax;
 *   - a shift by a register takes its count in %cl;
 *   - FPTOSI/FPTOUI clamp with minss/maxss where the range's ends are exact in the
 *     float type, else saturate with compares and cmovs (the high end by one float
 *     compare with 2^w or 2^(w-1));
 *   - SysV: integers in rdi rsi rdx rcx r8 r9, floats in xmm0-7, the rest in 8-byte
 *     stack slots above the return address; a call clobbers rax rcx rdx rsi rdi
 *     r8-r11 and every xmm register. */
#include "x64.h"
#include "x64_internal.h"

#include "compiler/lir/isel.h"

#include <string.h>

static Arg R(unsigned reg) { return arg_tmp(tmp_gp(reg)); }
static void move64(Lower *l, Arg src, Arg dst) { lower_emit2(l, LIR_Move, src, dst); }
static bool is_f64(Type t) { return t == TY_F64; }

/* ---- division ------------------------------------------------------------------------- */
/* signed: INT_MIN / -1 overflows: checked on the -1 path only */
static void check_overflow(Lower *l, int w, Arg a, Arg b)
{
    LirBlock *minus_one = lower_new_block(l, false);
    lower_emit3(l, isel_branch_op(w), arg_relcond(REL_eq), b, arg_imm(-1));
    LirBlock *divide = lower_new_block(l, false);
    lir_add_succ(l->code, l->cur, minus_one->index);
    lir_add_succ(l->code, l->cur, divide->index);
    l->cur = minus_one;
    uint64_t min = 1ull << (w - 1);
    Arg kmin = w == 64 ? isel_gp_const(l, min) : arg_imm((int64_t)min);
    lower_emit3(l, isel_branch_op(w), arg_relcond(REL_eq), a, kmin);
    lir_add_succ(l->code, l->cur, lower_trap_block(l, TRAP_OVERFLOW));
    lir_add_succ(l->code, l->cur, divide->index);
    l->cur = divide;
}

static bool x64_divide(Lower *l, GateId g)
{
    int op = isel_g(l, g)->op, w = ty_bits(isel_type(l, g));
    bool is_signed = op == OP_SDIV || op == OP_SREM, want_rem = op == OP_SREM || op == OP_UREM;
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1));
    if (is_signed)
        check_overflow(l, w, a, b);
    if (is_signed)
        isel_sign_extend_pair(l, w, &a, &b);
    move64(l, a, R(X64_RAX));
    if (is_signed)
        lower_emit2(l, w == 64 ? LIR_X86ConvertToQuadWord64 : LIR_X86ConvertToDoubleWord32, R(X64_RAX), R(X64_RDX));
    else
        lower_emit2(l, LIR_Move32, arg_imm(0), R(X64_RDX));
    LirOp div = w == 64 ? (is_signed ? LIR_X86IDiv64 : LIR_X86Div64) : (is_signed ? LIR_X86IDiv32 : LIR_X86Div32);
    lower_emit3(l, div, R(X64_RAX), R(X64_RDX), b)->trap = TRAP_DIV0; /* #DE on a zero divisor */
    Arg dst = isel_t(l, g);
    move64(l, want_rem ? R(X64_RDX) : R(X64_RAX), dst);
    if (w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- float to integer ------------------------------------------------------------------ */
static uint64_t fbits(Type t, double v)
{
    if (t == TY_F64) {
        uint64_t b;
        memcpy(&b, &v, 8);
        return b;
    }
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static void cmov_f(Lower *l, Type ft, DoubleCond c, Arg a, Arg b, Arg src, Arg dst)
{
    lower_emit5(l, is_f64(ft) ? LIR_MoveConditionallyDouble : LIR_MoveConditionallyFloat,
                arg_doublecond(c), a, b, src, dst);
}

static Arg truncate64(Lower *l, Type ft, Arg x)
{
    Arg r = isel_fresh(l, BANK_GP);
    lower_emit2(l, is_f64(ft) ? LIR_TruncateDoubleToInt64 : LIR_TruncateFloatToInt64, x, r);
    return r;
}

/* is the integer v exact in float type t? */
static bool exact_in(Type t, uint64_t v)
{
    return t == TY_F64 ? (uint64_t)(double)v == v : (uint64_t)(float)v == v;
}

/* to w < 64 bits when the range's ends lo..hi are exact in float type ft:
 * minss/maxss clamp before the truncation.  Min first keeps a NaN; unsigned,
 * max(v, 0) then gives 0 for it; signed, max(lo, v) keeps it, and a NaN truncates to
 * INT64_MIN, below every clamped value, so one compare makes it 0 */
static Arg fptoi_clamped(Lower *l, bool is_signed, Type ft, Arg x, int64_t lo, uint64_t hi)
{
    bool d = is_f64(ft);
    Arg v = isel_fp_const(l, ft, fbits(ft, (double)hi));
    lower_emit2(l, d ? LIR_MinDouble : LIR_MinFloat, x, v);
    Arg low = isel_fp_const(l, ft, fbits(ft, (double)lo));
    if (!is_signed) { /* v := max(v, 0) */
        lower_emit2(l, d ? LIR_MaxDouble : LIR_MaxFloat, low, v);
        return truncate64(l, ft, v);
    }
    lower_emit2(l, d ? LIR_MaxDouble : LIR_MaxFloat, v, low); /* low := max(low, v) */
    Arg r = truncate64(l, ft, low);
    lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, arg_imm(lo), isel_gp_const(l, 0), r);
    return r;
}

/* u64: x - 2^63 converted (its top bit set back) from 2^63 on, all ones from 2^64 */
static Arg fptoui64(Lower *l, Type ft, Arg x, Arg zero)
{
    Arg two63 = isel_fp_const(l, ft, fbits(ft, 9223372036854775808.0));
    Arg r = truncate64(l, ft, x);
    lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, arg_imm(0), zero, r);
    Arg t = isel_fresh(l, BANK_FP);
    lower_emit2(l, is_f64(ft) ? LIR_MoveDouble : LIR_MoveFloat, x, t);
    lower_emit2(l, is_f64(ft) ? LIR_SubDouble : LIR_SubFloat, two63, t);
    Arg top = truncate64(l, ft, t);
    lower_emit2(l, LIR_Xor64, isel_gp_const(l, 1ull << 63), top);
    cmov_f(l, ft, DBL_oge, x, two63, top, r);
    Arg two64 = isel_fp_const(l, ft, fbits(ft, 18446744073709551616.0));
    cmov_f(l, ft, DBL_oge, x, two64, isel_gp_const(l, ~0ull), r);
    return r;
}

/* below the first value past the range's top (2^w unsigned, 2^(w-1) signed: exact
 * in either float type) the 64-bit truncation is at most the top, so one float
 * compare saturates the high end and one integer compare the low end */
static Arg fptoi_saturated(Lower *l, bool is_signed, Type ft, Arg x, int w, int64_t lo, uint64_t hi)
{
    Arg zero = isel_gp_const(l, 0), r;
    if (!is_signed && w == 64) {
        r = fptoui64(l, ft, x, zero);
    } else {
        Arg past = isel_fp_const(l, ft, fbits(ft, (double)(hi + 1)));
        r = truncate64(l, ft, x);
        if (w < 64)
            lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, arg_imm(lo),
                        is_signed ? isel_gp_const(l, (uint64_t)lo) : zero, r);
        cmov_f(l, ft, DBL_oge, x, past, isel_gp_const(l, hi), r);
    }
    cmov_f(l, ft, DBL_uno, x, x, zero, r);
    return r;
}

/* FPTOSI/FPTOUI: truncate, saturate to the range, NaN -> 0 */
static bool x64_fptoi(Lower *l, GateId g)
{
    bool is_signed = isel_g(l, g)->op == OP_FPTOSI;
    Type ft = isel_type(l, isel_in(l, g, 0));
    int w = ty_bits(isel_type(l, g));
    Arg x = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    int64_t lo = is_signed ? (w == 64 ? INT64_MIN : -(1ll << (w - 1))) : 0;
    uint64_t hi = w == 64 ? (is_signed ? (uint64_t)INT64_MAX : ~0ull)
                          : is_signed ? (1ull << (w - 1)) - 1 : (1ull << w) - 1;
    Arg r = w < 64 && exact_in(ft, hi) ? fptoi_clamped(l, is_signed, ft, x, lo, hi)
                                       : fptoi_saturated(l, is_signed, ft, x, w, lo, hi);
    move64(l, r, dst);
    if (is_signed) /* an unsigned result is in 0..max: already zero-extended */
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- tables ---------------------------------------------------------------------------- */
#define BIT(r) (1ull << (r))
static const AbiDesc sysv = {
    .gp_args = {X64_RDI, X64_RSI, X64_RDX, X64_RCX, X64_R8, X64_R9},
    .ngp_args = 6,
    .nfp_args = 8,
    .gp_ret = X64_RAX,
    .fp_ret = 0,
    .gp_flag = X64_RDX,
    .frame_base = X64_RBP,
    .stack_args_at = 16, /* [rbp+16]: above the saved rbp and the return address */
    .clobbers = {BIT(X64_RAX) | BIT(X64_RCX) | BIT(X64_RDX) | BIT(X64_RSI) | BIT(X64_RDI) | BIT(X64_R8) |
                     BIT(X64_R9) | BIT(X64_R10) | BIT(X64_R11),
                 0xffffull},
    .i1_stack_load = LIR_Move32,
};

const IselHooks x64_isel_hooks = {
    .abi = &sysv,
    .shift_count = 1 + X64_RCX, /* tmp_gp(X64_RCX) */
    /* 8/16-bit compares at their width; a nonzero test is `test x, x` */
    .divide = x64_divide,
    .fptoi = x64_fptoi,
};
