/* isel.c — ARM64 instruction selection: the IselHooks that turn each scheduled gate
 * and terminator into LIR with ARM64 forms (compiler/lir/lower.h walks the schedule
 * and calls them).
 *
 * Values follow lower.h's invariant: an integer narrower than 64 bits is kept
 * zero-extended in its register (i1 is 0 or 1), so 8- and 16-bit arithmetic is
 * done at 32 bits and re-zero-extended where the upper bits could change.
 * Selection choices:
 *   - three-operand forms; an immediate operand where the form can encode it
 *     (add/sub imm12, bitmask immediates), else the constant's tmp;
 *   - ICMP/FCMP used only by the IF_BRANCH of their block fuse into one branch
 *     (every FCMP code is a branch on ARM64: one and ueq take two b.cond); 8/16-bit
 *     ICMP and SWITCH with an equality or unsigned condition compare at 32 bits;
 *   - LOAD/STORE addresses fold ALLOCA + constant into a stack slot operand and
 *     base + constant into base+offset;
 *   - sdiv/udiv never trap on ARM64: the divisor is checked against 0 (div0) and,
 *     signed, INT_MIN / -1 (overflow) with branches to a brk of that kind; the
 *     remainder is msub; 8/16-bit signed operands are sign-extended first;
 *   - shifts by a register mask the amount for 8/16 bits (lslv masks by 32/64);
 *     arithmetic right shifts of 8/16 bits sign-extend first;
 *   - every float arithmetic or conversion result that may be NaN is replaced by
 *     the canonical NaN (fcmp + csel on the bits): ARM64 propagates payloads;
 *     not when every user is NaN-blind (lower_nan_unseen);
 *   - FPTOSI/FPTOUI are fcvtzs/fcvtzu, whose saturation (NaN -> 0) is the rule
 *     at 32 and 64 bits; narrower widths clamp; UITOFP of a u64 is ucvtf;
 *   - EXP is an inline square-and-multiply loop, four exponent bits per iteration;
 *   - ALLOCA memory is zeroed with stp xzr, xzr (StorePair64) per 16 bytes;
 *   - FMOD/FEXP/THROW call the runtime helpers (blob.h) with AAPCS64 arguments;
 *   - calls pass arguments per AAPCS64 (abi.c). */
#include "a64.h"
#include "a64_internal.h"

#include <string.h>

/* ---- small helpers ---------------------------------------------------------------- */
static const Gate *G(const Lower *l, GateId g) { return circ_gate(l->circ, g); }
static GateId in(const Lower *l, GateId g, uint32_t i) { return gate_data(G(l, g), i); }
static Arg T(Lower *l, GateId g) { return arg_tmp(lower_tmp(l, g)); }
static Arg X(unsigned reg) { return arg_tmp(tmp_fp(reg)); }
static Arg fresh(Lower *l, Bank b) { return arg_tmp(lower_new_tmp(l, b)); }
static int bits_of(Type t) { return ty_bits(t); }
static bool is_f64(Type t) { return t == TY_F64; }

static bool is_const(const Lower *l, GateId g) { return G(l, g)->op == OP_CONSTANT; }

/* gate g as an immediate for an operation of width w (the value's bits), or as
 * its tmp; whether the form takes the immediate is asked when emitting */
static Arg operand(Lower *l, GateId g, int w)
{
    if (is_const(l, g)) {
        uint64_t bits = G(l, g)->lit & (w == 64 ? ~0ull : (1ull << w) - 1);
        return arg_imm((int64_t)bits);
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
    move64(l, arg_imm((int64_t)bits), t);
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

/* a new block in the current group; the current one must have been ended */
static void continue_in(Lower *l, LirBlock *b) { l->cur = b; }

/* end the current block with a two-way branch; taken -> `taken`, else a new block
 * that becomes current */
static void branch_or_continue(Lower *l, Inst *br, uint32_t taken)
{
    (void)br;
    LirBlock *next = lower_new_block(l, false);
    lir_add_succ(l->code, l->cur, taken);
    lir_add_succ(l->code, l->cur, next->index);
    continue_in(l, next);
}

/* ---- integer arithmetic ------------------------------------------------------------ */
static LirOp branch_op(int w);
static LirOp pick(int w, LirOp op32, LirOp op64) { return w == 64 ? op64 : op32; }

static bool sel_binary(Lower *l, GateId g, LirOp op32, LirOp op64, bool may_widen)
{
    Type ty = (Type)G(l, g)->type;
    int w = bits_of(ty);
    Arg dst = T(l, g);
    Arg args[3] = {T(l, in(l, g, 0)), operand(l, in(l, g, 1), w), dst};
    emit_try_imm(l, pick(w, op32, op64), 3, args, 1, in(l, g, 1));
    if (may_widen && w < 32)
        zero_above(l, dst, w);
    return true;
}

static bool sel_mul(Lower *l, GateId g)
{
    int w = bits_of((Type)G(l, g)->type);
    Arg dst = T(l, g);
    lower_emit3(l, pick(w, LIR_Mul32, LIR_Mul64), T(l, in(l, g, 0)), T(l, in(l, g, 1)), dst);
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
    Arg src = T(l, in(l, g, 0));
    if (gate->op == OP_ASHR && w < 32) {
        Arg s = fresh(l, BANK_GP);
        lower_emit2(l, w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32, src, s);
        src = s;
    }
    if (is_const(l, amount)) {
        lower_emit3(l, op, src, arg_imm((int64_t)(G(l, amount)->lit & (uint64_t)(w - 1))), dst);
    } else if (w < 32) {
        Arg a = fresh(l, BANK_GP);
        lower_emit3(l, LIR_And32, T(l, amount), arg_imm(w - 1), a);
        lower_emit3(l, op, src, a, dst);
    } else {
        lower_emit3(l, op, src, T(l, amount), dst);
    }
    if (w < 32)
        zero_above(l, dst, w);
    return true;
}

/* a branch to the trap block of kind when tmp a equals the constant bits (a zero-
 * extended value of width w: compared at 32 or 64 bits) */
static void check_trap(Lower *l, int w, Arg a, uint64_t bits, TrapKind kind)
{
    LirOp op = w == 64 ? LIR_Branch64 : LIR_Branch32;
    Arg b = arg_imm((int64_t)bits);
    if (!lir_is_valid_args(l->code->target, op, 3, (Arg[]){arg_relcond(REL_eq), a, b}))
        b = gp_const(l, bits);
    Inst *br = lower_emit3(l, op, arg_relcond(REL_eq), a, b);
    branch_or_continue(l, br, lower_trap_block(l, kind));
}

static bool sel_divide(Lower *l, GateId g)
{
    const Gate *gate = G(l, g);
    int w = bits_of((Type)gate->type);
    bool is_signed = gate->op == OP_SDIV || gate->op == OP_SREM;
    bool want_rem = gate->op == OP_SREM || gate->op == OP_UREM;
    Arg a = T(l, in(l, g, 0)), b = T(l, in(l, g, 1));
    check_trap(l, w, b, 0, TRAP_DIV0);
    if (is_signed) {
        /* INT_MIN / -1 overflows: checked on the -1 path only */
        LirBlock *minus_one = lower_new_block(l, false);
        uint64_t all = w == 64 ? ~0ull : (1ull << w) - 1;
        LirOp op = w == 64 ? LIR_Branch64 : LIR_Branch32;
        Arg m1 = arg_imm((int64_t)all);
        if (!lir_is_valid_args(l->code->target, op, 3, (Arg[]){arg_relcond(REL_eq), b, m1}))
            m1 = gp_const(l, all);
        lower_emit3(l, op, arg_relcond(REL_eq), b, m1);
        LirBlock *divide = lower_new_block(l, false);
        lir_add_succ(l->code, l->cur, minus_one->index);
        lir_add_succ(l->code, l->cur, divide->index);
        l->cur = minus_one;
        check_trap(l, w, a, 1ull << (w - 1), TRAP_OVERFLOW);
        lower_jump(l, divide->index);
        l->cur = divide;
    }
    Arg a32 = a, b32 = b;
    if (is_signed && w < 32) {
        a32 = fresh(l, BANK_GP);
        b32 = fresh(l, BANK_GP);
        LirOp ext = w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32;
        lower_emit2(l, ext, a, a32);
        lower_emit2(l, ext, b, b32);
    }
    bool d64 = w == 64;
    LirOp div = d64 ? (is_signed ? LIR_Div64 : LIR_UDiv64) : (is_signed ? LIR_Div32 : LIR_UDiv32);
    Arg dst = T(l, g);
    if (want_rem) {
        Arg q = fresh(l, BANK_GP);
        lower_emit3(l, div, a32, b32, q);
        lower_emit4(l, d64 ? LIR_MultiplySub64 : LIR_MultiplySub32, q, b32, a32, dst);
    } else {
        lower_emit3(l, div, a32, b32, dst);
    }
    if (w < 32)
        zero_above(l, dst, w);
    return true;
}

/* x^y mod 2^w, y unsigned, by square-and-multiply over the exponent's bits, four
 * bits per loop iteration (one block each: at most w / 4 iterations, and no loop
 * at all for i1; 17 emulated blocks at most, which the emulator budget allows):
 *   r = 1; do { 4 times: { if (y & 1) r *= x; x *= x; y >>= 1; } } while (y); */
enum { EXP_BITS_PER_ITERATION = 4 };

static void exp_bit(Lower *l, Arg r, Arg base, Arg e, Arg prod)
{
    lower_emit3(l, LIR_Mul64, r, base, prod);
    lower_emit5(l, LIR_MoveConditionallyTest64, arg_rescond(RES_nonzero), e, arg_imm(1), prod, r);
    lower_emit3(l, LIR_Mul64, base, base, base);
    lower_emit3(l, LIR_Urshift64, e, arg_imm(1), e);
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
    lower_emit3(l, LIR_Branch64, arg_relcond(REL_ne), e, arg_imm(0));
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

/* a value narrower than 32 bits is kept zero-extended in its register, so an
 * equality or unsigned comparison of it is the 32-bit one (no extension first) */
static int rel_width(int w, RelCond c)
{
    return w < 32 && c < REL_sgt ? 32 : w;
}

static LirOp compare_op(int w)
{
    return w == 64 ? LIR_Compare64 : w == 32 ? LIR_Compare32 : w == 16 ? LIR_Compare16 : LIR_Compare8;
}

static LirOp branch_op(int w)
{
    return w == 64 ? LIR_Branch64 : w == 32 ? LIR_Branch32 : w == 16 ? LIR_Branch16 : LIR_Branch8;
}

/* ICMP's operands and condition, constants on the right when possible; *right is
 * the gate of args[2] (its tmp replaces an immediate the form cannot take) */
static void icmp_args(Lower *l, GateId g, int *w, Arg args[3], GateId *right)
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
    *w = rel_width(*w, c);
    args[0] = arg_relcond(c);
    args[1] = T(l, a);
    args[2] = operand(l, b, *w);
    *right = b;
}

/* FCMP condition as a DoubleCond (every code but false/true is one on ARM64) */
static bool fcmp_single(int fcmp, DoubleCond *c, bool *swap)
{
    static const struct { int ir; DoubleCond dc; } map[] = {
        {FCMP_oeq, DBL_oeq}, {FCMP_ogt, DBL_ogt}, {FCMP_oge, DBL_oge}, {FCMP_olt, DBL_olt},
        {FCMP_ole, DBL_ole}, {FCMP_one, DBL_one}, {FCMP_ord, DBL_ord}, {FCMP_uno, DBL_uno},
        {FCMP_ueq, DBL_ueq}, {FCMP_ugt, DBL_ugt}, {FCMP_uge, DBL_uge}, {FCMP_ult, DBL_ult},
        {FCMP_ule, DBL_ule}, {FCMP_une, DBL_une},
    };
    *swap = false;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].ir == fcmp) {
            *c = map[i].dc;
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
    GateId right;
    icmp_args(l, g, &w, args, &right);
    args[3] = T(l, g);
    emit_try_imm(l, compare_op(w), 4, args, 2, right);
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
    if (bits_of(from) < 64) /* zero-extended: exact as a signed 64-bit number */
        lower_emit2(l, cvt_from_int(to, true), src, dst);
    else
        lower_emit2(l, to == TY_F64 ? LIR_ConvertUInt64ToDouble : LIR_ConvertUInt64ToFloat, src, dst);
    return true;
}

/* FPTOSI/FPTOUI: fcvtzs/fcvtzu saturate to their destination's range (32 or 64 bits)
 * and give 0 for NaN, which is the whole rule at those widths; narrower widths clamp
 * the 64-bit signed (or 32-bit unsigned) conversion */
static bool sel_fptoi(Lower *l, GateId g)
{
    bool is_signed = G(l, g)->op == OP_FPTOSI;
    Type ft = (Type)G(l, in(l, g, 0))->type, it = (Type)G(l, g)->type;
    int w = bits_of(it);
    Arg x = T(l, in(l, g, 0)), dst = T(l, g);
    static const LirOp cvt[2][2][2] = { /* [signed][double][64-bit] */
        {{LIR_TruncateFloatToUInt32, LIR_TruncateFloatToUInt64},
         {LIR_TruncateDoubleToUInt32, LIR_TruncateDoubleToUInt64}},
        {{LIR_TruncateFloatToInt32, LIR_TruncateFloatToInt64},
         {LIR_TruncateDoubleToInt32, LIR_TruncateDoubleToInt64}},
    };
    if (w == 32 || w == 64) { /* a 32-bit result is written zero-extended */
        lower_emit2(l, cvt[is_signed][is_f64(ft)][w == 64], x, dst);
        return true;
    }
    Arg r = fresh(l, BANK_GP);
    lower_emit2(l, cvt[is_signed][is_f64(ft)][is_signed], x, r);
    if (is_signed) {
        Arg lo = gp_const(l, (uint64_t)-(1ll << (w - 1)));
        lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_slt), r, lo, lo, r);
    }
    uint64_t hi = is_signed ? (1ull << (w - 1)) - 1 : (1ull << w) - 1;
    Arg max = gp_const(l, hi);
    lower_emit5(l, LIR_MoveConditionally64, arg_relcond(REL_sgt), r, max, max, r);
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
    lower_emit3(l, op, T(l, in(l, g, 0)), T(l, in(l, g, 1)), dst);
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
    a64_emit_call(l, arg_symbol(TARGET_HELPER, h, 0), uses, 2, defs, 1);
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
    case OP_CALL: return a64_sel_call(l, g);
    default:
        diag_gate(l->diag, l->func, g, "arm64: no instruction selection for %s", op_info[gate->op].name);
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
        GateId right;
        icmp_args(l, c, &w, args, &right);
        GateId saved = l->origin;
        l->origin = c;
        emit_try_imm(l, branch_op(w), 3, args, 2, right);
        l->origin = saved;
    } else if (l->fused[c]) {
        DoubleCond dc = DBL_ord;
        bool swap = false;
        fcmp_single(G(l, c)->cond, &dc, &swap);
        Arg a = T(l, in(l, c, 0)), bb = T(l, in(l, c, 1));
        bool d = is_f64((Type)G(l, in(l, c, 0))->type);
        lower_emit3(l, d ? LIR_BranchDouble : LIR_BranchFloat, arg_doublecond(dc), swap ? bb : a, swap ? a : bb);
    } else {
        lower_emit3(l, LIR_Branch32, arg_relcond(REL_ne), T(l, c), arg_imm(0));
    }
    lir_add_succ(l->code, l->cur, yes);
    lir_add_succ(l->code, l->cur, no);
    return true;
}

static bool sel_switch(Lower *l, const Block *b)
{
    GateId v = in(l, b->term_gate, 0);
    int w = rel_width(cmp_width((Type)G(l, v)->type), REL_eq);
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
    case TERM_RETURN: return a64_sel_return(l, b);
    case TERM_THROW: return a64_sel_throw(l, b);
    default:
        diag_gate(l->diag, l->func, b->term_gate, "arm64: unexpected terminator");
        return false;
    }
}

const IselHooks a64_isel_hooks = {
    .entry = a64_sel_entry,
    .gate = sel_gate,
    .term = sel_term,
};
