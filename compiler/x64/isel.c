/* isel.c — x86-64 instruction selection: the IselHooks that turn each scheduled gate
 * and terminator into LIR with x86-64 forms (compiler/lir/lower.h walks the
 * schedule and calls them).
 *
 * Values follow lower.h's invariant: an integer narrower than 64 bits is kept
 * zero-extended in its register (i1 is 0 or 1), so 8- and 16-bit arithmetic is
 * done at 32 bits and re-zero-extended where the upper bits could change.
 * Selection choices:
 *   - ICMP/FCMP used only by the IF_BRANCH of their block fuse into one branch;
 *   - LOAD/STORE addresses fold ALLOCA + constant into a stack slot operand and
 *     base + constant into base+disp;
 *   - a zero divisor faults (#DE) at the div, a trap site of kind div0; signed
 *     divisions check INT_MIN / -1 first and branch to a Ud2 of kind overflow;
 *   - EXP is an inline square-and-multiply loop, four exponent bits an iteration;
 *   - every float arithmetic or conversion result that may be NaN is replaced by
 *     the canonical NaN (ucomis + cmov on the bits), unless every user is
 *     NaN-blind (lower_nan_unseen);
 *   - FPTOSI/FPTOUI clamp with minss/maxss where the range's ends are exact in
 *     the float type, else saturate with compares and cmovs (the high end by one
 *     float compare with 2^w or 2^(w-1)); UITOFP of a u64 halves and rounds when
 *     the top bit is set;
 *   - FMOD/FEXP/THROW call the runtime helpers (blob.h) with SysV arguments;
 *   - calls pass arguments per SysV (abi.c). */
#include "x64.h"
#include "x64_internal.h"

#include <string.h>

/* ---- small helpers ---------------------------------------------------------------- */
static const Gate *G(const Lower *l, GateId g) { return circ_gate(l->circ, g); }
static GateId in(const Lower *l, GateId g, uint32_t i) { return gate_data(G(l, g), i); }
static Arg T(Lower *l, GateId g) { return arg_tmp(lower_tmp(l, g)); }
static Arg R(unsigned reg) { return arg_tmp(tmp_gp(reg)); }
static Arg X(unsigned reg) { return arg_tmp(tmp_fp(reg)); }
static Arg fresh(Lower *l, Bank b) { return arg_tmp(lower_new_tmp(l, b)); }
static int bits_of(Type t) { return ty_bits(t); }
static bool is_f64(Type t) { return t == TY_F64; }

static bool is_const(const Lower *l, GateId g) { return G(l, g)->op == OP_CONSTANT; }

/* gate g as an immediate for an operation of width w (<= 32: the value's bits;
 * 64: a sign-extended imm32), or as its tmp */
static Arg operand(Lower *l, GateId g, int w)
{
    if (is_const(l, g)) {
        uint64_t bits = G(l, g)->lit;
        if (w <= 32 && bits <= 0xffffffffu)
            return arg_imm((int64_t)bits);
        int64_t v = (int64_t)bits;
        if (w == 64 && v >= INT32_MIN && v <= INT32_MAX)
            return arg_imm(v);
    }
    return T(l, g);
}

/* emit op with args, trying an immediate operand first and the tmp if the target
 * has no such form */
static Inst *emit_try_imm(Lower *l, LirOp op, unsigned n, Arg *args, unsigned imm_at, GateId g)
{
    if (args[imm_at].kind == ARG_IMM && !lir_is_valid_args(l->code->target, op, n, args))
        args[imm_at] = T(l, g);
    return lower_emit(l, op, n, args);
}

static void move64(Lower *l, Arg src, Arg dst) { lower_emit2(l, LIR_Move, src, dst); }
static void fmove(Lower *l, Type t, Arg src, Arg dst)
{
    lower_emit2(l, is_f64(t) ? LIR_MoveDouble : LIR_MoveFloat, src, dst);
}

/* a 64-bit integer constant into a fresh GP tmp */
static Arg gp_const(Lower *l, uint64_t bits)
{
    Arg t = fresh(l, BANK_GP);
    if (bits <= 0x7fffffffu || ((int64_t)bits >= INT32_MIN && (int64_t)bits < 0))
        move64(l, arg_imm((int64_t)bits), t);
    else if (bits <= 0xffffffffu)
        lower_emit2(l, LIR_Move32, arg_imm((int64_t)bits), t);
    else
        move64(l, arg_bigimm((int64_t)bits), t);
    return t;
}

/* float constant bits of type t into dst */
static void fp_const_into(Lower *l, Type t, uint64_t bits, Arg dst)
{
    Arg g = gp_const(l, bits);
    lower_emit2(l, is_f64(t) ? LIR_Move64ToDouble : LIR_Move32ToFloat, g, dst);
}

static Arg fp_const(Lower *l, Type t, uint64_t bits)
{
    Arg f = fresh(l, BANK_FP);
    fp_const_into(l, t, bits, f);
    return f;
}

/* zero the bits of tmp t above width w (lower.h's invariant) */
static void zero_above(Lower *l, Arg t, int w)
{
    switch (w) {
    case 1: lower_emit2(l, LIR_And32, arg_imm(1), t); break;
    case 8: lower_emit2(l, LIR_ZeroExtend8To32, t, t); break;
    case 16: lower_emit2(l, LIR_ZeroExtend16To32, t, t); break;
    case 32: lower_emit2(l, LIR_Move32, t, t); break;
    default: break;
    }
}

/* a NaN in FP tmp t, gate g's result of type ty, becomes the canonical NaN, unless
 * no user of g can see its payload */
static void canonicalize(Lower *l, GateId g, Type ty, Arg t)
{
    if (lower_nan_unseen(l, g))
        return;
    bool d = is_f64(ty);
    Arg bits = fresh(l, BANK_GP);
    lower_emit2(l, d ? LIR_MoveDoubleTo64 : LIR_MoveFloatTo32, t, bits);
    Arg nan = gp_const(l, canonical_nan(ty));
    lower_emit5(l, d ? LIR_MoveConditionallyDouble : LIR_MoveConditionallyFloat,
                arg_doublecond(DBL_uno), t, t, nan, bits);
    lower_emit2(l, d ? LIR_Move64ToDouble : LIR_Move32ToFloat, bits, t);
}

/* ---- integer arithmetic ------------------------------------------------------------ */
static LirOp branch_op(int w);
static LirOp pick(int w, LirOp op32, LirOp op64) { return w == 64 ? op64 : op32; }

static bool sel_binary(Lower *l, GateId g, LirOp op32, LirOp op64, bool may_widen)
{
    Type ty = (Type)G(l, g)->type;
    int w = bits_of(ty);
    Arg dst = T(l, g);
    move64(l, T(l, in(l, g, 0)), dst);
    Arg args[2] = {operand(l, in(l, g, 1), w), dst};
    emit_try_imm(l, pick(w, op32, op64), 2, args, 0, in(l, g, 1));
    if (may_widen && w < 32)
        zero_above(l, dst, w);
    return true;
}

static bool sel_mul(Lower *l, GateId g)
{
    int w = bits_of((Type)G(l, g)->type);
    Arg dst = T(l, g);
    GateId a = in(l, g, 0), b = in(l, g, 1);
    if (is_const(l, a) && !is_const(l, b)) {
        GateId t = a;
        a = b;
        b = t;
    }
    Arg imm = operand(l, b, w);
    if (imm.kind == ARG_IMM) {
        int64_t v = w == 64 ? imm.value : (int64_t)(int32_t)(uint32_t)imm.value;
        Arg args[3] = {arg_imm(v), T(l, a), dst};
        if (lir_is_valid_args(l->code->target, pick(w, LIR_Mul32, LIR_Mul64), 3, args)) {
            lower_emit(l, pick(w, LIR_Mul32, LIR_Mul64), 3, args);
            if (w < 32)
                zero_above(l, dst, w);
            return true;
        }
    }
    move64(l, T(l, a), dst);
    lower_emit2(l, pick(w, LIR_Mul32, LIR_Mul64), T(l, b), dst);
    if (w < 32)
        zero_above(l, dst, w);
    return true;
}

static bool sel_shift(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    int w = bits_of((Type)gate->type);
    Arg dst = T(l, g);
    LirOp op;
    switch (gate->op) {
    case OP_SHL: op = pick(w, LIR_Lshift32, LIR_Lshift64); break;
    case OP_LSHR: op = pick(w, LIR_Urshift32, LIR_Urshift64); break;
    default: op = pick(w, LIR_Rshift32, LIR_Rshift64); break;
    }
    GateId amount = in(l, g, 1);
    if (gate->op == OP_ASHR && w == 8)
        lower_emit2(l, LIR_SignExtend8To32, T(l, in(l, g, 0)), dst);
    else if (gate->op == OP_ASHR && w == 16)
        lower_emit2(l, LIR_SignExtend16To32, T(l, in(l, g, 0)), dst);
    else
        move64(l, T(l, in(l, g, 0)), dst);
    if (is_const(l, amount)) {
        lower_emit2(l, op, arg_imm((int64_t)(G(l, amount)->lit & (uint64_t)(w - 1))), dst);
    } else {
        move64(l, T(l, amount), R(X64_RCX));
        if (w < 32)
            lower_emit2(l, LIR_And32, arg_imm(w - 1), R(X64_RCX));
        lower_emit2(l, op, R(X64_RCX), dst);
    }
    if (w < 32)
        zero_above(l, dst, w);
    return true;
}

static bool sel_divide(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    int w = bits_of((Type)gate->type);
    bool is_signed = gate->op == OP_SDIV || gate->op == OP_SREM;
    bool want_rem = gate->op == OP_SREM || gate->op == OP_UREM;
    Arg a = T(l, in(l, g, 0)), b = T(l, in(l, g, 1));
    /* a zero divisor faults (#DE) at the div itself, a trap site of kind div0 */
    if (is_signed) {
        /* INT_MIN / -1 overflows: checked on the -1 path only */
        LirBlock *minus_one = lower_new_block(l, false);
        lower_emit3(l, branch_op(w), arg_relcond(REL_eq), b, arg_imm(-1));
        LirBlock *divide = lower_new_block(l, false);
        lir_add_succ(l->code, l->cur, minus_one->index);
        lir_add_succ(l->code, l->cur, divide->index);
        l->cur = minus_one;
        uint64_t min = 1ull << (w - 1);
        Arg kmin = w == 64 ? gp_const(l, min) : arg_imm((int64_t)min);
        lower_emit3(l, branch_op(w), arg_relcond(REL_eq), a, kmin);
        lir_add_succ(l->code, l->cur, lower_trap_block(l, TRAP_OVERFLOW));
        lir_add_succ(l->code, l->cur, divide->index);
        l->cur = divide;
    }
    int dw = w == 64 ? 64 : 32;
    Arg a32 = a, b32 = b;
    if (is_signed && w < 32) {
        a32 = fresh(l, BANK_GP);
        b32 = fresh(l, BANK_GP);
        LirOp ext = w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32;
        lower_emit2(l, ext, a, a32);
        lower_emit2(l, ext, b, b32);
    }
    move64(l, a32, R(X64_RAX));
    if (is_signed)
        lower_emit2(l, dw == 64 ? LIR_X86ConvertToQuadWord64 : LIR_X86ConvertToDoubleWord32, R(X64_RAX), R(X64_RDX));
    else
        lower_emit2(l, LIR_Move32, arg_imm(0), R(X64_RDX));
    LirOp div = dw == 64 ? (is_signed ? LIR_X86IDiv64 : LIR_X86Div64) : (is_signed ? LIR_X86IDiv32 : LIR_X86Div32);
    lower_emit3(l, div, R(X64_RAX), R(X64_RDX), b32)->trap = TRAP_DIV0;
    Arg dst = T(l, g);
    move64(l, want_rem ? R(X64_RDX) : R(X64_RAX), dst);
    if (w < 32)
        zero_above(l, dst, w);
    return true;
}

/* x^y mod 2^w, y unsigned, by square-and-multiply over the exponent's bits, four
 * bits per loop iteration (one block each: at most w / 4 iterations, and no loop
 * at all for i1):
 *   r = 1; do { 4 times: { if (y & 1) r *= x; x *= x; y >>= 1; } } while (y); */
enum { EXP_BITS_PER_ITERATION = 4 };

static void exp_bit(Lower *l, Arg r, Arg base, Arg e, Arg prod)
{
    move64(l, r, prod);
    lower_emit2(l, LIR_Mul64, base, prod);
    lower_emit5(l, LIR_MoveConditionallyTest64, arg_rescond(RES_nonzero), e, arg_imm(1), prod, r);
    lower_emit2(l, LIR_Mul64, base, base);
    lower_emit2(l, LIR_Urshift64, arg_imm(1), e);
}

static bool sel_exp(Lower *l, GateId g)
{
    int w = bits_of((Type)G(l, g)->type);
    Arg dst = T(l, g), base = fresh(l, BANK_GP), e = fresh(l, BANK_GP), prod = fresh(l, BANK_GP);
    move64(l, arg_imm(1), dst);
    move64(l, T(l, in(l, g, 0)), base);
    move64(l, T(l, in(l, g, 1)), e);
    if (w <= EXP_BITS_PER_ITERATION) {
        for (int i = 0; i < w; i++)
            exp_bit(l, dst, base, e, prod);
        zero_above(l, dst, w);
        return true;
    }
    LirBlock *body = lower_new_block(l, false), *done = lower_new_block(l, false);
    lower_jump(l, body->index);
    l->cur = body;
    for (int i = 0; i < EXP_BITS_PER_ITERATION; i++)
        exp_bit(l, dst, base, e, prod);
    lower_emit3(l, LIR_BranchTest64, arg_rescond(RES_nonzero), e, e);
    lir_add_succ(l->code, body, body->index);
    lir_add_succ(l->code, body, done->index);
    l->cur = done;
    zero_above(l, dst, w);
    return true;
}

/* ---- compares ------------------------------------------------------------------------ */
static RelCond relcond_of(int icmp, Type operand_type)
{
    RelCond c;
    switch (icmp) {
    case ICMP_eq: c = REL_eq; break;
    case ICMP_ne: c = REL_ne; break;
    case ICMP_ugt: c = REL_ugt; break;
    case ICMP_uge: c = REL_uge; break;
    case ICMP_ult: c = REL_ult; break;
    case ICMP_ule: c = REL_ule; break;
    case ICMP_sgt: c = REL_sgt; break;
    case ICMP_sge: c = REL_sge; break;
    case ICMP_slt: c = REL_slt; break;
    default: c = REL_sle; break;
    }
    if (operand_type == TY_I1) {
        /* as signed numbers 1 is -1: the unsigned order reversed */
        switch (c) {
        case REL_sgt: return REL_ult;
        case REL_sge: return REL_ule;
        case REL_slt: return REL_ugt;
        case REL_sle: return REL_uge;
        default: return c;
        }
    }
    return c;
}

static int cmp_width(Type t)
{
    int w = bits_of(t);
    return w < 8 ? 32 : w;
}

static LirOp compare_op(int w)
{
    return w == 64 ? LIR_Compare64 : w == 32 ? LIR_Compare32 : w == 16 ? LIR_Compare16 : LIR_Compare8;
}

static LirOp branch_op(int w)
{
    return w == 64 ? LIR_Branch64 : w == 32 ? LIR_Branch32 : w == 16 ? LIR_Branch16 : LIR_Branch8;
}

/* ICMP's operands and condition, constants on the right when possible */
static void icmp_args(Lower *l, GateId g, int *w, Arg args[3])
{
    const Gate *gate = G(l, g);
    Type ot = (Type)G(l, in(l, g, 0))->type;
    *w = cmp_width(ot);
    RelCond c = relcond_of(gate->cond, ot);
    GateId a = in(l, g, 0), b = in(l, g, 1);
    if (is_const(l, a) && !is_const(l, b)) {
        GateId t = a;
        a = b;
        b = t;
        c = relcond_commute(c);
    }
    args[0] = arg_relcond(c);
    args[1] = T(l, a);
    args[2] = operand(l, b, *w);
}

/* FCMP condition: DBL code usable with one flag test (operands possibly swapped);
 * false for oeq/une/false/true */
static bool fcmp_single(int fcmp, DoubleCond *c, bool *swap)
{
    static const struct { int ir; DoubleCond dc; bool swap; } map[] = {
        {FCMP_ogt, DBL_ogt, false}, {FCMP_oge, DBL_oge, false}, {FCMP_olt, DBL_ogt, true},
        {FCMP_ole, DBL_oge, true}, {FCMP_one, DBL_one, false}, {FCMP_ord, DBL_ord, false},
        {FCMP_uno, DBL_uno, false}, {FCMP_ueq, DBL_ueq, false}, {FCMP_ugt, DBL_ult, true},
        {FCMP_uge, DBL_ule, true}, {FCMP_ult, DBL_ult, false}, {FCMP_ule, DBL_ule, false},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].ir == fcmp) {
            *c = map[i].dc;
            *swap = map[i].swap;
            return true;
        }
    return false;
}

static bool sel_icmp(Lower *l, GateId g)
{
    if (lower_only_user_is_term(l, g, l->block) && G(l, l->block->term_gate)->op == OP_IF_BRANCH) {
        l->fused[g] = true;
        return true;
    }
    int w;
    Arg args[4];
    icmp_args(l, g, &w, args);
    args[3] = T(l, g);
    emit_try_imm(l, compare_op(w), 4, args, 2, in(l, g, 1));
    return true;
}

static bool sel_fcmp(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    DoubleCond c;
    bool swap;
    bool single = fcmp_single(gate->cond, &c, &swap);
    if (single && lower_only_user_is_term(l, g, l->block) && G(l, l->block->term_gate)->op == OP_IF_BRANCH) {
        l->fused[g] = true;
        return true;
    }
    Arg dst = T(l, g);
    bool d = is_f64((Type)G(l, in(l, g, 0))->type);
    LirOp op = d ? LIR_CompareDouble : LIR_CompareFloat;
    Arg a = T(l, in(l, g, 0)), b = T(l, in(l, g, 1));
    if (gate->cond == FCMP_false || gate->cond == FCMP_true) {
        lower_emit2(l, LIR_Move32, arg_imm(gate->cond == FCMP_true), dst);
    } else if (single) {
        lower_emit4(l, op, arg_doublecond(c), swap ? b : a, swap ? a : b, dst);
    } else {
        /* oeq = ueq and ord; une = one or uno */
        bool eq = gate->cond == FCMP_oeq;
        Arg other = fresh(l, BANK_GP);
        lower_emit4(l, op, arg_doublecond(eq ? DBL_ueq : DBL_one), a, b, dst);
        lower_emit4(l, op, arg_doublecond(eq ? DBL_ord : DBL_uno), a, b, other);
        lower_emit2(l, eq ? LIR_And32 : LIR_Or32, other, dst);
    }
    return true;
}

/* ---- conversions -------------------------------------------------------------------- */
static bool sel_ext_trunc(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    Type from = (Type)G(l, in(l, g, 0))->type, to = (Type)gate->type;
    Arg src = T(l, in(l, g, 0)), dst = T(l, g);
    if (gate->op == OP_SEXT) {
        switch (bits_of(from)) {
        case 1: move64(l, src, dst); lower_emit1(l, LIR_Neg64, dst); break;
        case 8: lower_emit2(l, LIR_SignExtend8To64, src, dst); break;
        case 16: lower_emit2(l, LIR_SignExtend16To64, src, dst); break;
        default: lower_emit2(l, LIR_SignExtend32To64, src, dst); break;
        }
    } else {
        move64(l, src, dst);
    }
    if (gate->op != OP_ZEXT)
        zero_above(l, dst, bits_of(to));
    return true;
}

static bool sel_bitcast(Lower *l, GateId g)
{
    Type from = (Type)G(l, in(l, g, 0))->type, to = (Type)G(l, g)->type;
    Arg src = T(l, in(l, g, 0)), dst = T(l, g);
    if (ty_is_int(from) && ty_is_int(to))
        move64(l, src, dst);
    else if (ty_is_float(from) && ty_is_float(to))
        fmove(l, to, src, dst);
    else if (ty_is_int(from))
        lower_emit2(l, to == TY_F64 ? LIR_Move64ToDouble : LIR_Move32ToFloat, src, dst);
    else
        lower_emit2(l, from == TY_F64 ? LIR_MoveDoubleTo64 : LIR_MoveFloatTo32, src, dst);
    return true;
}

static LirOp cvt_from_int(Type to, bool from64)
{
    if (to == TY_F64)
        return from64 ? LIR_ConvertInt64ToDouble : LIR_ConvertInt32ToDouble;
    return from64 ? LIR_ConvertInt64ToFloat : LIR_ConvertInt32ToFloat;
}

static bool sel_sitofp(Lower *l, GateId g)
{
    Type from = (Type)G(l, in(l, g, 0))->type, to = (Type)G(l, g)->type;
    Arg src = T(l, in(l, g, 0)), dst = T(l, g);
    int w = bits_of(from);
    if (w < 32) {
        Arg t = fresh(l, BANK_GP);
        lower_emit2(l, w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32, src, t);
        src = t;
    }
    lower_emit2(l, cvt_from_int(to, w == 64), src, dst);
    return true;
}

static bool sel_uitofp(Lower *l, GateId g)
{
    Type from = (Type)G(l, in(l, g, 0))->type, to = (Type)G(l, g)->type;
    Arg src = T(l, in(l, g, 0)), dst = T(l, g);
    if (bits_of(from) < 64) { /* zero-extended: exact as a signed 64-bit number */
        lower_emit2(l, cvt_from_int(to, true), src, dst);
        return true;
    }
    LirBlock *big = lower_new_block(l, false), *small = lower_new_block(l, false);
    LirBlock *join = lower_new_block(l, false);
    lower_emit3(l, LIR_BranchTest64, arg_rescond(RES_signed), src, src);
    lir_add_succ(l->code, l->cur, big->index);
    lir_add_succ(l->code, l->cur, small->index);
    l->cur = small;
    lower_emit2(l, cvt_from_int(to, true), src, dst);
    lower_jump(l, join->index);
    /* top bit set: convert (x >> 1) | (x & 1), keeping the rounding bit, and double */
    l->cur = big;
    Arg half = fresh(l, BANK_GP), low = fresh(l, BANK_GP);
    move64(l, src, half);
    lower_emit2(l, LIR_Urshift64, arg_imm(1), half);
    move64(l, src, low);
    lower_emit2(l, LIR_And64, arg_imm(1), low);
    lower_emit2(l, LIR_Or64, low, half);
    lower_emit2(l, cvt_from_int(to, true), half, dst);
    lower_emit2(l, to == TY_F64 ? LIR_AddDouble : LIR_AddFloat, dst, dst);
    lower_jump(l, join->index);
    l->cur = join;
    return true;
}

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
    Arg r = fresh(l, BANK_GP);
    lower_emit2(l, is_f64(ft) ? LIR_TruncateDoubleToInt64 : LIR_TruncateFloatToInt64, x, r);
    return r;
}

/* is the integer v exact in float type t? */
static bool exact_in(Type t, uint64_t v)
{
    return t == TY_F64 ? (uint64_t)(double)v == v : (uint64_t)(float)v == v;
}

/* FPTOSI/FPTOUI to w < 64 bits when the range's ends lo..hi are exact in float type
 * ft: minss/maxss clamp before the truncation.  Min first keeps a NaN; unsigned,
 * max(v, 0) then gives 0 for it; signed, max(lo, v) keeps it, and a NaN truncates to
 * INT64_MIN, below every clamped value, so one compare makes it 0 */
static Arg fptoi_clamped(Lower *l, bool is_signed, Type ft, Arg x, int64_t lo, uint64_t hi)
{
    bool d = is_f64(ft);
    Arg v = fp_const(l, ft, fbits(ft, (double)hi));
    lower_emit2(l, d ? LIR_MinDouble : LIR_MinFloat, x, v);
    Arg low = fp_const(l, ft, fbits(ft, (double)lo));
    if (!is_signed) { /* v := max(v, 0) */
        lower_emit2(l, d ? LIR_MaxDouble : LIR_MaxFloat, low, v);
        return truncate64(l, ft, v);
    }
    lower_emit2(l, d ? LIR_MaxDouble : LIR_MaxFloat, v, low); /* low := max(low, v) */
    Arg r = truncate64(l, ft, low);
    lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, arg_imm(lo), gp_const(l, 0), r);
    return r;
}

/* FPTOSI/FPTOUI: truncate, saturate to the range, NaN -> 0: clamped in the float
 * type where the range's ends are exact in it (fptoi_clamped); else, below the first
 * value past the range's top (2^w unsigned, 2^(w-1) signed: exact in either float
 * type) the 64-bit truncation is at most the top, so one float compare saturates the
 * high end and one integer compare the low end; u64 converts x - 2^63 from 2^63 on */
static bool sel_fptoi(Lower *l, GateId g)
{
    bool is_signed = G(l, g)->op == OP_FPTOSI;
    Type ft = (Type)G(l, in(l, g, 0))->type, it = (Type)G(l, g)->type;
    int w = bits_of(it);
    Arg x = T(l, in(l, g, 0)), dst = T(l, g);
    int64_t lo = is_signed ? (w == 64 ? INT64_MIN : -(1ll << (w - 1))) : 0;
    uint64_t hi = w == 64 ? (is_signed ? (uint64_t)INT64_MAX : ~0ull)
                          : is_signed ? (1ull << (w - 1)) - 1 : (1ull << w) - 1;
    Arg r;
    if (w < 64 && exact_in(ft, hi)) {
        r = fptoi_clamped(l, is_signed, ft, x, lo, hi);
    } else {
        Arg zero = gp_const(l, 0);
        if (!is_signed && w == 64) {
            Arg two63 = fp_const(l, ft, fbits(ft, 9223372036854775808.0));
            r = truncate64(l, ft, x);
            lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, arg_imm(0), zero, r);
            Arg t = fresh(l, BANK_FP);
            fmove(l, ft, x, t);
            lower_emit2(l, is_f64(ft) ? LIR_SubDouble : LIR_SubFloat, two63, t);
            Arg top = truncate64(l, ft, t);
            lower_emit2(l, LIR_Xor64, gp_const(l, 1ull << 63), top);
            cmov_f(l, ft, DBL_oge, x, two63, top, r);
            Arg two64 = fp_const(l, ft, fbits(ft, 18446744073709551616.0));
            cmov_f(l, ft, DBL_oge, x, two64, gp_const(l, ~0ull), r);
        } else {
            Arg past = fp_const(l, ft, fbits(ft, (double)(hi + 1)));
            r = truncate64(l, ft, x);
            if (w < 64)
                lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, arg_imm(lo),
                            is_signed ? gp_const(l, (uint64_t)lo) : zero, r);
            cmov_f(l, ft, DBL_oge, x, past, gp_const(l, hi), r);
        }
        cmov_f(l, ft, DBL_uno, x, x, zero, r);
    }
    move64(l, r, dst);
    if (is_signed) /* an unsigned result is in 0..max: already zero-extended */
        zero_above(l, dst, w);
    return true;
}

static bool sel_fpconv(Lower *l, GateId g)
{
    Type to = (Type)G(l, g)->type;
    lower_emit2(l, to == TY_F64 ? LIR_ConvertFloatToDouble : LIR_ConvertDoubleToFloat, T(l, in(l, g, 0)), T(l, g));
    canonicalize(l, g, to, T(l, g));
    return true;
}

/* ---- floats --------------------------------------------------------------------------- */
static bool sel_float_binary(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    Type ty = (Type)gate->type;
    bool d = is_f64(ty);
    LirOp op;
    switch (gate->op) {
    case OP_FADD: op = d ? LIR_AddDouble : LIR_AddFloat; break;
    case OP_FSUB: op = d ? LIR_SubDouble : LIR_SubFloat; break;
    case OP_FMUL: op = d ? LIR_MulDouble : LIR_MulFloat; break;
    default: op = d ? LIR_DivDouble : LIR_DivFloat; break;
    }
    Arg dst = T(l, g);
    Arg a = T(l, in(l, g, 0)), b = T(l, in(l, g, 1));
    fmove(l, ty, a, dst);
    lower_emit2(l, op, b, dst);
    canonicalize(l, g, ty, dst);
    return true;
}

static bool sel_fneg(Lower *l, GateId g)
{
    Type ty = (Type)G(l, g)->type;
    Arg sign = fp_const(l, ty, is_f64(ty) ? 1ull << 63 : 1ull << 31);
    Arg dst = T(l, g);
    fmove(l, ty, T(l, in(l, g, 0)), dst);
    lower_emit2(l, is_f64(ty) ? LIR_XorDouble : LIR_XorFloat, sign, dst);
    return true;
}

static bool sel_float_helper(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    Type ty = (Type)gate->type;
    Helper h = gate->op == OP_FMOD ? (is_f64(ty) ? HELPER_FMOD_F64 : HELPER_FMOD_F32)
                                   : (is_f64(ty) ? HELPER_FEXP_F64 : HELPER_FEXP_F32);
    fmove(l, ty, T(l, in(l, g, 0)), X(0));
    fmove(l, ty, T(l, in(l, g, 1)), X(1));
    Arg uses[2] = {X(0), X(1)}, defs[1] = {X(0)};
    x64_emit_call(l, arg_symbol(TARGET_HELPER, h, 0), uses, 2, defs, 1);
    fmove(l, ty, X(0), T(l, g));
    return true;
}

/* ---- memory ---------------------------------------------------------------------------- */
/* the memory operand for address gate a */
static Arg address(Lower *l, GateId a)
{
    const Gate *gate = G(l, a);
    if (gate->op == OP_ALLOCA && l->alloca_slot[a] != UINT32_MAX)
        return arg_stack(l->alloca_slot[a], 0);
    if (gate->op == OP_ADD && gate->type == TY_I64) {
        for (int i = 0; i < 2; i++) {
            GateId base = gate_data(gate, (uint32_t)i), off = gate_data(gate, (uint32_t)(1 - i));
            if (!is_const(l, off))
                continue;
            int64_t v = (int64_t)G(l, off)->lit;
            if (v < INT32_MIN / 2 || v > INT32_MAX / 2)
                continue;
            if (G(l, base)->op == OP_ALLOCA && l->alloca_slot[base] != UINT32_MAX)
                return arg_stack(l->alloca_slot[base], v);
            return arg_addr(lower_tmp(l, base), v);
        }
    }
    return arg_addr(lower_tmp(l, a), 0);
}

static bool sel_load(Lower *l, GateId g)
{
    Type ty = (Type)G(l, g)->type;
    Arg mem = address(l, in(l, g, 0)), dst = T(l, g);
    switch (ty) {
    case TY_I8: lower_emit2(l, LIR_ZeroExtend8To32, mem, dst); break;
    case TY_I16: lower_emit2(l, LIR_ZeroExtend16To32, mem, dst); break;
    case TY_I32: lower_emit2(l, LIR_Move32, mem, dst); break;
    case TY_I64: lower_emit2(l, LIR_Move, mem, dst); break;
    case TY_F32: lower_emit2(l, LIR_MoveFloat, mem, dst); break;
    case TY_F64: lower_emit2(l, LIR_MoveDouble, mem, dst); break;
    default:
        diag_gate(l->diag, l->func, g, "cannot load a value of type %s", ty_name(ty));
        return false;
    }
    return true;
}

static bool sel_store(Lower *l, GateId g)
{
    GateId v = in(l, g, 0);
    Type ty = (Type)G(l, v)->type;
    Arg mem = address(l, in(l, g, 1));
    LirOp op;
    switch (ty) {
    case TY_I8: op = LIR_Store8; break;
    case TY_I16: op = LIR_Store16; break;
    case TY_I32: op = LIR_Move32; break;
    case TY_I64: op = LIR_Move; break;
    case TY_F32: op = LIR_MoveFloat; break;
    case TY_F64: op = LIR_MoveDouble; break;
    default:
        diag_gate(l->diag, l->func, g, "cannot store a value of type %s", ty_name(ty));
        return false;
    }
    Arg args[2] = {ty_is_int(ty) ? operand(l, v, bits_of(ty)) : T(l, v), mem};
    emit_try_imm(l, op, 2, args, 0, v);
    return true;
}

/* ---- leaves ----------------------------------------------------------------------------- */
static bool sel_constant(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    Type ty = (Type)gate->type;
    if (ty_is_float(ty)) {
        fp_const_into(l, ty, gate->lit, T(l, g));
        return true;
    }
    uint64_t bits = gate->lit & ty_mask(ty);
    Arg dst = T(l, g);
    if (bits <= 0xffffffffu)
        lower_emit2(l, LIR_Move32, arg_imm((int64_t)bits), dst);
    else if ((int64_t)bits >= INT32_MIN && (int64_t)bits <= INT32_MAX)
        move64(l, arg_imm((int64_t)bits), dst);
    else
        move64(l, arg_bigimm((int64_t)bits), dst);
    return true;
}

static bool sel_gate(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    switch ((Opcode)gate->op) {
    case OP_ARG: return true; /* the parameter's tmp, set in the entry block */
    case OP_CONSTANT: return sel_constant(l, g);
    case OP_ALLOCA: lower_emit2(l, LIR_Lea64, arg_stack(l->alloca_slot[g], 0), T(l, g)); return true;
    case OP_SYMBOL: move64(l, arg_symbol(TARGET_FUNC, (uint32_t)gate->lit, 0), T(l, g)); return true;
    case OP_ADD: return sel_binary(l, g, LIR_Add32, LIR_Add64, true);
    case OP_SUB: return sel_binary(l, g, LIR_Sub32, LIR_Sub64, true);
    case OP_AND: return sel_binary(l, g, LIR_And32, LIR_And64, false);
    case OP_OR: return sel_binary(l, g, LIR_Or32, LIR_Or64, false);
    case OP_XOR: return sel_binary(l, g, LIR_Xor32, LIR_Xor64, false);
    case OP_MUL: return sel_mul(l, g);
    case OP_SHL: case OP_LSHR: case OP_ASHR: return sel_shift(l, g);
    case OP_SDIV: case OP_SREM: case OP_UDIV: case OP_UREM: return sel_divide(l, g);
    case OP_EXP: return sel_exp(l, g);
    case OP_ICMP: return sel_icmp(l, g);
    case OP_FCMP: return sel_fcmp(l, g);
    case OP_TRUNC: case OP_ZEXT: case OP_SEXT: return sel_ext_trunc(l, g);
    case OP_BITCAST: return sel_bitcast(l, g);
    case OP_SITOFP: return sel_sitofp(l, g);
    case OP_UITOFP: return sel_uitofp(l, g);
    case OP_FPTOSI: case OP_FPTOUI: return sel_fptoi(l, g);
    case OP_FPEXT: case OP_FPTRUNC: return sel_fpconv(l, g);
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: return sel_float_binary(l, g);
    case OP_FNEG: return sel_fneg(l, g);
    case OP_FMOD: case OP_FEXP: return sel_float_helper(l, g);
    case OP_LOAD: return sel_load(l, g);
    case OP_STORE: return sel_store(l, g);
    case OP_CALL: return x64_sel_call(l, g);
    default:
        diag_gate(l->diag, l->func, g, "x86-64: no instruction selection for %s", op_info[gate->op].name);
        return false;
    }
}

/* ---- terminators ------------------------------------------------------------------------- */
static bool sel_if(Lower *l, const Block *b)
{
    GateId c = in(l, b->term_gate, 0);
    uint32_t yes = lower_edge_block(l, b, 0), no = lower_edge_block(l, b, 1);
    if (l->fused[c] && G(l, c)->op == OP_ICMP) {
        int w;
        Arg args[3];
        icmp_args(l, c, &w, args);
        GateId saved = l->origin;
        l->origin = c;
        emit_try_imm(l, branch_op(w), 3, args, 2, in(l, c, 1));
        l->origin = saved;
    } else if (l->fused[c]) {
        DoubleCond dc = DBL_ord;
        bool swap = false;
        fcmp_single(G(l, c)->cond, &dc, &swap);
        Arg a = T(l, in(l, c, 0)), bb = T(l, in(l, c, 1));
        bool d = is_f64((Type)G(l, in(l, c, 0))->type);
        lower_emit3(l, d ? LIR_BranchDouble : LIR_BranchFloat, arg_doublecond(dc), swap ? bb : a, swap ? a : bb);
    } else {
        lower_emit3(l, LIR_BranchTest32, arg_rescond(RES_nonzero), T(l, c), T(l, c));
    }
    lir_add_succ(l->code, l->cur, yes);
    lir_add_succ(l->code, l->cur, no);
    return true;
}

static bool sel_switch(Lower *l, const Block *b)
{
    GateId v = in(l, b->term_gate, 0);
    int w = cmp_width((Type)G(l, v)->type);
    uint32_t ncases = b->nsuccs - 1;
    for (uint32_t i = 0; i < ncases; i++) {
        uint32_t target = lower_edge_block(l, b, i);
        uint64_t cv = b->case_values[i] & ty_mask((Type)G(l, v)->type);
        Arg k = w < 64 || (int64_t)cv == (int32_t)(int64_t)cv ? arg_imm(w < 64 ? (int64_t)cv : (int64_t)cv)
                                                                : gp_const(l, cv);
        if (k.kind == ARG_IMM && !lir_is_valid_args(l->code->target, branch_op(w), 3,
                                                   (Arg[]){arg_relcond(REL_eq), T(l, v), k}))
            k = gp_const(l, cv);
        lower_emit3(l, branch_op(w), arg_relcond(REL_eq), T(l, v), k);
        LirBlock *next = lower_new_block(l, false);
        lir_add_succ(l->code, l->cur, target);
        lir_add_succ(l->code, l->cur, next->index);
        l->cur = next;
    }
    lower_jump(l, lower_edge_block(l, b, b->nsuccs - 1));
    return true;
}

static bool sel_term(Lower *l, const Block *b)
{
    switch (b->term) {
    case TERM_IF: return sel_if(l, b);
    case TERM_SWITCH: return sel_switch(l, b);
    case TERM_RETURN: return x64_sel_return(l, b);
    case TERM_THROW: return x64_sel_throw(l, b);
    default:
        diag_gate(l->diag, l->func, b->term_gate, "x86-64: unexpected terminator");
        return false;
    }
}

const IselHooks x64_isel_hooks = {
    .entry = x64_sel_entry,
    .gate = sel_gate,
    .term = sel_term,
};
