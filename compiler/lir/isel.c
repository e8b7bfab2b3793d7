/* isel.c — the target-independent instruction selector (isel.h): the shared
 * helpers (constants, immediates, two- or three-operand ALU forms), integer
 * arithmetic, EXP, and the dispatch of every gate and terminator. */
#include "isel.h"

/* ---- helpers -------------------------------------------------------------------------- */
static void move64(Lower *l, Arg src, Arg dst) { lower_emit2(l, LIR_Move, src, dst); }

static bool same_tmp(Arg a, Arg b) { return a.kind == ARG_TMP && b.kind == ARG_TMP && a.base == b.base; }

Arg isel_gp_const(Lower *l, uint64_t bits)
{
    Arg t = isel_fresh(l, BANK_GP);
    Arg imm = arg_imm((int64_t)bits);
    if (isel_valid(l, LIR_Move, 2, (Arg[]){imm, t}))
        move64(l, imm, t);
    else if (bits <= 0xffffffffu)
        lower_emit2(l, LIR_Move32, imm, t);
    else
        move64(l, arg_bigimm((int64_t)bits), t);
    return t;
}

Arg isel_fp_const(Lower *l, Type t, uint64_t bits)
{
    Arg f = isel_fresh(l, BANK_FP);
    Arg g = isel_gp_const(l, bits);
    lower_emit2(l, t == TY_F64 ? LIR_Move64ToDouble : LIR_Move32ToFloat, g, f);
    return f;
}

void isel_zero_above(Lower *l, Arg t, int w)
{
    if (w == 8 || w == 16)
        mcov_idiom(l->code->cov, MCOV_NARROW_WRAP);
    switch (w) {
    case 1: lower_emit2(l, LIR_And32, arg_imm(1), t); break;
    case 8: lower_emit2(l, LIR_ZeroExtend8To32, t, t); break;
    case 16: lower_emit2(l, LIR_ZeroExtend16To32, t, t); break;
    case 32: lower_emit2(l, LIR_Move32, t, t); break;
    default: break;
    }
}

void isel_sign_extend_pair(Lower *l, int w, Arg *a, Arg *b)
{
    if (w >= 32)
        return;
    Arg a32 = isel_fresh(l, BANK_GP), b32 = isel_fresh(l, BANK_GP);
    LirOp ext = w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32;
    lower_emit2(l, ext, *a, a32);
    lower_emit2(l, ext, *b, b32);
    *a = a32;
    *b = b32;
}

Arg isel_operand(Lower *l, GateId g, int w)
{
    if (isel_is_const(l, g)) {
        uint64_t bits = isel_g(l, g)->lit & (w == 64 ? ~0ull : (1ull << w) - 1);
        return arg_imm((int64_t)bits);
    }
    return isel_t(l, g);
}

Inst *isel_emit_imm(Lower *l, LirOp op, unsigned n, Arg *args, unsigned imm_at, GateId g)
{
    if (args[imm_at].kind == ARG_IMM && !isel_valid(l, op, n, args))
        args[imm_at] = g == NO_GATE ? isel_gp_const(l, (uint64_t)args[imm_at].value) : isel_t(l, g);
    return lower_emit(l, op, n, args);
}

void isel_alu(Lower *l, LirOp mov, LirOp op, Arg a, Arg b, Arg dst, GateId g)
{
    if (isel_valid(l, op, 3, (Arg[]){a, a, dst})) {
        Arg args[3] = {a, b, dst};
        isel_emit_imm(l, op, 3, args, 1, g);
        return;
    }
    if (!same_tmp(a, dst))
        lower_emit2(l, mov, a, dst);
    Arg args[2] = {b, dst};
    isel_emit_imm(l, op, 2, args, 0, g);
}

LirOp isel_compare_op(int w)
{
    return w == 64 ? LIR_Compare64 : w == 32 ? LIR_Compare32 : w == 16 ? LIR_Compare16 : LIR_Compare8;
}

LirOp isel_branch_op(int w)
{
    return w == 64 ? LIR_Branch64 : w == 32 ? LIR_Branch32 : w == 16 ? LIR_Branch16 : LIR_Branch8;
}

void isel_branch_or_continue(Lower *l, uint32_t taken)
{
    LirBlock *next = lower_new_block(l, false);
    lir_add_succ(l->code, l->cur, taken);
    lir_add_succ(l->code, l->cur, next->index);
    l->cur = next;
}

void isel_unary(Lower *l, LirOp op, Arg x, Arg dst)
{
    if (isel_valid(l, op, 2, (Arg[]){x, dst})) {
        lower_emit2(l, op, x, dst);
        return;
    }
    lower_emit2(l, LIR_Move, x, dst);
    lower_emit1(l, op, dst);
}

/* ---- integer arithmetic ------------------------------------------------------------ */
/* XOR g of 32 or 64 bits with all ones as the target's NOT; false, nothing emitted,
 * for another XOR */
static bool sel_not(Lower *l, GateId g, int w)
{
    GateId a = isel_in(l, g, 0), b = isel_in(l, g, 1);
    if (isel_is_const(l, a)) {
        a = b;
        b = isel_in(l, g, 0);
    }
    if ((w != 32 && w != 64) || isel_is_const(l, a) || !isel_is_const(l, b) ||
        (isel_g(l, b)->lit & ty_mask(isel_type(l, g))) != ty_mask(isel_type(l, g)))
        return false;
    mcov_idiom(l->code->cov, MCOV_XOR_ONES_NOT);
    isel_unary(l, isel_pick(w, LIR_Not32, LIR_Not64), isel_t(l, a), isel_t(l, g));
    return true;
}

static bool sel_binary(Lower *l, GateId g, LirOp op32, LirOp op64, bool may_widen)
{
    int w = ty_bits(isel_type(l, g));
    if (op32 == LIR_Xor32 && sel_not(l, g, w))
        return true;
    Arg dst = isel_t(l, g), a = isel_t(l, isel_in(l, g, 0));
    isel_alu(l, LIR_Move, isel_pick(w, op32, op64), a, isel_operand(l, isel_in(l, g, 1), w), dst,
             isel_in(l, g, 1));
    if (may_widen && w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

/* dst := x * 2^k of width w by a left shift (no immediate multiply form); false,
 * nothing emitted, when the bits u are not a power of two above 1 */
static bool mul_by_shift(Lower *l, int w, uint64_t u, Arg x, Arg dst)
{
    if (!u || (u & (u - 1)) || u == 1)
        return false;
    mcov_idiom(l->code->cov, MCOV_MUL_POW2);
    isel_alu(l, LIR_Move, isel_pick(w, LIR_Lshift32, LIR_Lshift64), x, arg_imm(__builtin_ctzll(u)), dst, NO_GATE);
    if (w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

/* the immediate form (imul r, r/m, imm) where the target has it, with a constant
 * operand moved right; else the register forms, a two-operand form keeping the
 * variable operand in the destination */
static bool sel_mul(Lower *l, GateId g)
{
    int w = ty_bits(isel_type(l, g));
    LirOp op = isel_pick(w, LIR_Mul32, LIR_Mul64);
    Arg dst = isel_t(l, g);
    GateId a = isel_in(l, g, 0), b = isel_in(l, g, 1);
    if (isel_is_const(l, a) && !isel_is_const(l, b)) {
        GateId t = a;
        a = b;
        b = t;
    }
    Arg imm = isel_operand(l, b, w);
    if (imm.kind == ARG_IMM) {
        int64_t v = w == 64 ? imm.value : (int64_t)(int32_t)(uint32_t)imm.value;
        Arg args[3] = {arg_imm(v), isel_t(l, a), dst};
        if (isel_valid(l, op, 3, args)) {
            uint64_t u = (uint64_t)v;
            mcov_idiom(l->code->cov, u && !(u & (u - 1)) ? MCOV_MUL_POW2 : MCOV_MUL_IMM);
            lower_emit(l, op, 3, args);
            if (w < 32)
                isel_zero_above(l, dst, w);
            return true;
        }
    }
    if (imm.kind == ARG_IMM && mul_by_shift(l, w, (uint64_t)imm.value, isel_t(l, a), dst))
        return true;
    isel_alu(l, LIR_Move, op, isel_t(l, a), isel_t(l, b), dst, NO_GATE);
    if (w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

static LirOp shift_op(int op, int w)
{
    switch (op) {
    case OP_SHL: return isel_pick(w, LIR_Lshift32, LIR_Lshift64);
    case OP_LSHR: return isel_pick(w, LIR_Urshift32, LIR_Urshift64);
    default: return isel_pick(w, LIR_Rshift32, LIR_Rshift64);
    }
}

/* the count of a shift by a register: in the target's count register if it has
 * one and no three-operand form takes any register (three); masked to the width for
 * 8/16 bits (LIR shifts those modulo 32) */
static Arg shift_count(Lower *l, GateId amount, int w, bool three)
{
    Arg a = isel_t(l, amount);
    Tmp fixed = three ? TMP_NONE : l->isel->shift_count;
    if (fixed != TMP_NONE) {
        move64(l, a, arg_tmp(fixed));
        a = arg_tmp(fixed);
    }
    if (w < 32) {
        Arg m = fixed != TMP_NONE ? a : isel_fresh(l, BANK_GP);
        isel_alu(l, LIR_Move, LIR_And32, a, arg_imm(w - 1), m, NO_GATE);
        a = m;
    }
    return a;
}

static bool sel_shift(Lower *l, GateId g)
{
    const Gate *gate = isel_g(l, g);
    int w = ty_bits((Type)gate->type);
    LirOp op = shift_op(gate->op, w);
    Arg dst = isel_t(l, g), src = isel_t(l, isel_in(l, g, 0));
    bool three = isel_valid(l, op, 3, (Arg[]){src, src, dst});
    if (gate->op == OP_ASHR && w < 32) { /* sign-extended first */
        Arg s = three ? isel_fresh(l, BANK_GP) : dst;
        lower_emit2(l, w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32, src, s);
        src = s;
    } else if (!three) {
        move64(l, src, dst);
        src = dst;
    }
    GateId amount = isel_in(l, g, 1);
    Arg count = isel_is_const(l, amount) ? arg_imm((int64_t)(isel_g(l, amount)->lit & (uint64_t)(w - 1)))
                                         : shift_count(l, amount, w, three);
    isel_alu(l, LIR_Move, op, src, count, dst, NO_GATE);
    if (w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

void isel_branch_nonzero(Lower *l, int w, Arg x)
{
    if (l->isel->test_by_compare)
        lower_emit3(l, isel_branch_op(w), arg_relcond(REL_ne), x, arg_imm(0));
    else
        lower_emit3(l, isel_pick(w, LIR_BranchTest32, LIR_BranchTest64), arg_rescond(RES_nonzero), x, x);
}

/* x^y mod 2^w, y unsigned, by square-and-multiply over the exponent's bits, four
 * bits per loop iteration (one block each: at most w / 4 iterations, 17 blocks for
 * i64, and no loop at all for i1):
 *   r = 1; do { 4 times: { if (y & 1) r *= x; x *= x; y >>= 1; } } while (y); */
enum { EXP_BITS_PER_ITERATION = 4 };

static void exp_bit(Lower *l, Arg r, Arg base, Arg e, Arg prod)
{
    isel_alu(l, LIR_Move, LIR_Mul64, r, base, prod, NO_GATE);
    lower_emit5(l, LIR_MoveConditionallyTest64, arg_rescond(RES_nonzero), e, arg_imm(1), prod, r);
    isel_alu(l, LIR_Move, LIR_Mul64, base, base, base, NO_GATE);
    isel_alu(l, LIR_Move, LIR_Urshift64, e, arg_imm(1), e, NO_GATE);
}

static bool sel_exp(Lower *l, GateId g)
{
    int w = ty_bits(isel_type(l, g));
    Arg dst = isel_t(l, g), base = isel_fresh(l, BANK_GP), e = isel_fresh(l, BANK_GP);
    Arg prod = isel_fresh(l, BANK_GP);
    move64(l, arg_imm(1), dst);
    move64(l, isel_t(l, isel_in(l, g, 0)), base);
    move64(l, isel_t(l, isel_in(l, g, 1)), e);
    if (w <= EXP_BITS_PER_ITERATION) {
        for (int i = 0; i < w; i++)
            exp_bit(l, dst, base, e, prod);
        isel_zero_above(l, dst, w);
        return true;
    }
    LirBlock *body = lower_new_block(l, false), *done = lower_new_block(l, false);
    lower_jump(l, body->index);
    l->cur = body;
    for (int i = 0; i < EXP_BITS_PER_ITERATION; i++)
        exp_bit(l, dst, base, e, prod);
    isel_branch_nonzero(l, 64, e);
    lir_add_succ(l->code, body, body->index);
    lir_add_succ(l->code, body, done->index);
    l->cur = done;
    isel_zero_above(l, dst, w);
    return true;
}

/* ---- leaves ----------------------------------------------------------------------------- */
static bool sel_constant(Lower *l, GateId g)
{
    const Gate *gate = isel_g(l, g);
    Type ty = (Type)gate->type;
    Arg dst = isel_t(l, g);
    if (ty_is_float(ty)) {
        Arg bits = isel_gp_const(l, gate->lit);
        lower_emit2(l, ty == TY_F64 ? LIR_Move64ToDouble : LIR_Move32ToFloat, bits, dst);
        return true;
    }
    uint64_t bits = gate->lit & ty_mask(ty);
    if (bits <= 0xffffffffu)
        lower_emit2(l, LIR_Move32, arg_imm((int64_t)bits), dst);
    else if ((int64_t)bits >= INT32_MIN && (int64_t)bits <= INT32_MAX)
        move64(l, arg_imm((int64_t)bits), dst);
    else
        move64(l, arg_bigimm((int64_t)bits), dst);
    return true;
}

static bool sel_integer(Lower *l, GateId g)
{
    switch ((Opcode)isel_g(l, g)->op) {
    case OP_ADD: return sel_binary(l, g, LIR_Add32, LIR_Add64, true);
    case OP_SUB: return sel_binary(l, g, LIR_Sub32, LIR_Sub64, true);
    case OP_AND: return isel_bitfield(l, g) || sel_binary(l, g, LIR_And32, LIR_And64, false);
    case OP_OR: return sel_binary(l, g, LIR_Or32, LIR_Or64, false);
    case OP_XOR: return sel_binary(l, g, LIR_Xor32, LIR_Xor64, false);
    case OP_MUL: return sel_mul(l, g);
    case OP_SHL: case OP_LSHR: case OP_ASHR: return sel_shift(l, g);
    case OP_SDIV: case OP_SREM: case OP_UDIV: case OP_UREM: return l->isel->divide(l, g);
    default: return sel_exp(l, g);
    }
}

bool isel_gate(Lower *l, GateId g)
{
    const Gate *gate = isel_g(l, g);
    switch ((Opcode)gate->op) {
    case OP_ARG: return true; /* the parameter's tmp, set in the entry block */
    case OP_GET_EXCEPTION: return true; /* its tmp, set in its INVOKE's landing block */
    case OP_CONSTANT: return sel_constant(l, g);
    case OP_ALLOCA: lower_emit2(l, LIR_Lea64, arg_stack(l->alloca_slot[g], 0), isel_t(l, g)); return true;
    case OP_SYMBOL: move64(l, isel_symbol(l, gate->lit), isel_t(l, g)); return true;
    case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_MUL: case OP_SHL:
    case OP_LSHR: case OP_ASHR: case OP_SDIV: case OP_SREM: case OP_UDIV: case OP_UREM:
    case OP_EXP: return sel_integer(l, g);
    case OP_SELECT: case OP_ROTL: case OP_ROTR: case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX:
    case OP_SMULHI: case OP_UMULHI: case OP_CHECKED_ADD: case OP_CHECKED_SUB: case OP_CHECKED_MUL:
    case OP_CLZ: case OP_CTZ: case OP_POPCNT: case OP_BSWAP: case OP_ABS: return isel_bits(l, g);
    case OP_ICMP: return isel_icmp(l, g);
    case OP_FCMP: return isel_fcmp(l, g);
    case OP_TRUNC: case OP_ZEXT: case OP_SEXT: case OP_BITCAST: case OP_SITOFP: case OP_UITOFP:
    case OP_FPEXT: case OP_FPTRUNC: return isel_convert(l, g);
    case OP_FPTOSI: case OP_FPTOUI: return l->isel->fptoi(l, g);
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: case OP_FNEG: case OP_FMOD:
    case OP_FEXP: return isel_float(l, g);
    case OP_SQRT: case OP_FLOOR: case OP_CEIL: case OP_FTRUNC: case OP_NEAREST: case OP_FABS:
    case OP_FMIN: case OP_FMAX: case OP_FCOPYSIGN: return isel_float_ops(l, g);
    case OP_LOAD: case OP_STORE: return isel_memory(l, g);
    case OP_CALL: return isel_call(l, g);
    default:
        diag_gate(l->diag, l->func, g, "%s: no instruction selection for %s", l->code->target->name,
                  op_info[gate->op].name);
        return false;
    }
}

bool isel_term(Lower *l, const Block *b)
{
    switch (b->term) {
    case TERM_IF: return isel_if(l, b);
    case TERM_SWITCH: return isel_switch(l, b);
    case TERM_INVOKE: return isel_invoke(l, b);
    case TERM_RETURN: return isel_return(l, b);
    case TERM_THROW: return isel_throw(l, b);
    default:
        diag_gate(l->diag, l->func, b->term_gate, "%s: unexpected terminator", l->code->target->name);
        return false;
    }
}
