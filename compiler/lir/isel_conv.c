/* isel_conv.c — selection of conversions, float arithmetic and memory accesses
 * (isel.h): LOAD/STORE addresses fold ALLOCA + constant into a stack slot operand
 * and base + constant into base+offset; UITOFP of a u64 without a direct form
 * halves and rounds when the top bit is set; FMOD/FEXP call the runtime helpers. */
#include "isel.h"

static bool is_f64(Type t) { return t == TY_F64; }
static void move64(Lower *l, Arg src, Arg dst) { lower_emit2(l, LIR_Move, src, dst); }
static LirOp fmove_op(Type t) { return is_f64(t) ? LIR_MoveDouble : LIR_MoveFloat; }
static void fmove(Lower *l, Type t, Arg src, Arg dst) { lower_emit2(l, fmove_op(t), src, dst); }

void isel_canonicalize(Lower *l, GateId g, Type ty, Arg t)
{
    if (!lower_nan_unseen(l, g))
        isel_nan_if_unordered(l, ty, t, t, t);
}

/* ---- conversions -------------------------------------------------------------------- */
static bool sel_ext_trunc(Lower *l, GateId g, Type from, Type to, Arg src, Arg dst)
{
    int op = isel_g(l, g)->op;
    if (op == OP_SEXT) {
        switch (ty_bits(from)) {
        case 1: move64(l, src, dst); lower_emit1(l, LIR_Neg64, dst); break;
        case 8: lower_emit2(l, LIR_SignExtend8To64, src, dst); break;
        case 16: lower_emit2(l, LIR_SignExtend16To64, src, dst); break;
        default: lower_emit2(l, LIR_SignExtend32To64, src, dst); break;
        }
    } else {
        move64(l, src, dst);
    }
    if (op != OP_ZEXT)
        isel_zero_above(l, dst, ty_bits(to));
    return true;
}

static bool sel_bitcast(Lower *l, Type from, Type to, Arg src, Arg dst)
{
    if (ty_is_int(from) && ty_is_int(to))
        move64(l, src, dst);
    else if (ty_is_float(from) && ty_is_float(to))
        fmove(l, to, src, dst);
    else if (ty_is_int(from))
        lower_emit2(l, is_f64(to) ? LIR_Move64ToDouble : LIR_Move32ToFloat, src, dst);
    else
        lower_emit2(l, is_f64(from) ? LIR_MoveDoubleTo64 : LIR_MoveFloatTo32, src, dst);
    return true;
}

static LirOp cvt_from_int(Type to, bool from64)
{
    if (is_f64(to))
        return from64 ? LIR_ConvertInt64ToDouble : LIR_ConvertInt32ToDouble;
    return from64 ? LIR_ConvertInt64ToFloat : LIR_ConvertInt32ToFloat;
}

static bool sel_sitofp(Lower *l, Type from, Type to, Arg src, Arg dst)
{
    int w = ty_bits(from);
    if (w < 32) {
        Arg t = isel_fresh(l, BANK_GP);
        lower_emit2(l, w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32, src, t);
        src = t;
    }
    lower_emit2(l, cvt_from_int(to, w == 64), src, dst);
    return true;
}

/* a u64 with its top bit set: convert (x >> 1) | (x & 1), keeping the rounding
 * bit, and double; else the signed conversion */
static void uitofp_halving(Lower *l, Type to, Arg src, Arg dst)
{
    LirBlock *big = lower_new_block(l, false), *small = lower_new_block(l, false);
    LirBlock *join = lower_new_block(l, false);
    lower_emit3(l, LIR_BranchTest64, arg_rescond(RES_signed), src, src);
    lir_add_succ(l->code, l->cur, big->index);
    lir_add_succ(l->code, l->cur, small->index);
    l->cur = small;
    lower_emit2(l, cvt_from_int(to, true), src, dst);
    lower_jump(l, join->index);
    l->cur = big;
    Arg half = isel_fresh(l, BANK_GP), low = isel_fresh(l, BANK_GP);
    move64(l, src, half);
    lower_emit2(l, LIR_Urshift64, arg_imm(1), half);
    move64(l, src, low);
    lower_emit2(l, LIR_And64, arg_imm(1), low);
    lower_emit2(l, LIR_Or64, low, half);
    lower_emit2(l, cvt_from_int(to, true), half, dst);
    lower_emit2(l, is_f64(to) ? LIR_AddDouble : LIR_AddFloat, dst, dst);
    lower_jump(l, join->index);
    l->cur = join;
}

static bool sel_uitofp(Lower *l, Type from, Type to, Arg src, Arg dst)
{
    LirOp u64 = is_f64(to) ? LIR_ConvertUInt64ToDouble : LIR_ConvertUInt64ToFloat;
    if (ty_bits(from) < 64) /* zero-extended: exact as a signed 64-bit number */
        lower_emit2(l, cvt_from_int(to, true), src, dst);
    else if (isel_valid(l, u64, 2, (Arg[]){src, dst}))
        lower_emit2(l, u64, src, dst);
    else
        uitofp_halving(l, to, src, dst);
    return true;
}

bool isel_convert(Lower *l, GateId g)
{
    Type from = isel_type(l, isel_in(l, g, 0)), to = isel_type(l, g);
    Arg src = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    switch ((Opcode)isel_g(l, g)->op) {
    case OP_BITCAST: return sel_bitcast(l, from, to, src, dst);
    case OP_SITOFP: return sel_sitofp(l, from, to, src, dst);
    case OP_UITOFP: return sel_uitofp(l, from, to, src, dst);
    case OP_FPEXT: case OP_FPTRUNC:
        lower_emit2(l, is_f64(to) ? LIR_ConvertFloatToDouble : LIR_ConvertDoubleToFloat, src, dst);
        isel_canonicalize(l, g, to, dst);
        return true;
    default: return sel_ext_trunc(l, g, from, to, src, dst);
    }
}

/* ---- floats --------------------------------------------------------------------------- */
static bool sel_float_binary(Lower *l, GateId g, Type ty)
{
    bool d = is_f64(ty);
    LirOp op;
    switch (isel_g(l, g)->op) {
    case OP_FADD: op = d ? LIR_AddDouble : LIR_AddFloat; break;
    case OP_FSUB: op = d ? LIR_SubDouble : LIR_SubFloat; break;
    case OP_FMUL: op = d ? LIR_MulDouble : LIR_MulFloat; break;
    default: op = d ? LIR_DivDouble : LIR_DivFloat; break;
    }
    Arg dst = isel_t(l, g);
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1));
    isel_alu(l, fmove_op(ty), op, a, b, dst, NO_GATE);
    isel_canonicalize(l, g, ty, dst);
    return true;
}

static bool sel_fneg(Lower *l, GateId g, Type ty)
{
    Arg sign = isel_fp_const(l, ty, is_f64(ty) ? 1ull << 63 : 1ull << 31);
    Arg dst = isel_t(l, g);
    fmove(l, ty, isel_t(l, isel_in(l, g, 0)), dst);
    lower_emit2(l, is_f64(ty) ? LIR_XorDouble : LIR_XorFloat, sign, dst);
    return true;
}

/* FMOD/FEXP: a call of the runtime helper, arguments and result in FP registers
 * 0 and 1 (both conventions' first float argument and result registers) */
static bool sel_float_helper(Lower *l, GateId g, Type ty)
{
    Helper h = isel_g(l, g)->op == OP_FMOD ? (is_f64(ty) ? HELPER_FMOD_F64 : HELPER_FMOD_F32)
                                          : (is_f64(ty) ? HELPER_FEXP_F64 : HELPER_FEXP_F32);
    Arg x0 = arg_tmp(tmp_fp(0)), x1 = arg_tmp(tmp_fp(1));
    fmove(l, ty, isel_t(l, isel_in(l, g, 0)), x0);
    fmove(l, ty, isel_t(l, isel_in(l, g, 1)), x1);
    Arg uses[2] = {x0, x1}, defs[1] = {x0};
    isel_emit_call(l, arg_symbol(TARGET_HELPER, h, 0), uses, 2, defs, 1);
    fmove(l, ty, x0, isel_t(l, g));
    return true;
}

bool isel_float(Lower *l, GateId g)
{
    Type ty = isel_type(l, g);
    switch ((Opcode)isel_g(l, g)->op) {
    case OP_FNEG: return sel_fneg(l, g, ty);
    case OP_FMOD: case OP_FEXP: return sel_float_helper(l, g, ty);
    default: return sel_float_binary(l, g, ty);
    }
}

/* ---- memory ---------------------------------------------------------------------------- */
/* the memory operand for address gate a */
/* SHL i64 (i, k) with k a constant 0..3 (or MUL by 1, 2, 4, 8): i, and the scale */
static bool scaled_index(Lower *l, GateId x, GateId *i, unsigned *scale)
{
    const Gate *g = isel_g(l, x);
    if ((g->op != OP_SHL && g->op != OP_MUL) || g->type != TY_I64)
        return false;
    for (uint32_t k = 0; k < (g->op == OP_MUL ? 2u : 1u); k++) {
        GateId c = gate_data(g, 1 - k);
        uint64_t v = isel_is_const(l, c) ? isel_g(l, c)->lit : 64;
        unsigned s = g->op == OP_SHL ? (v < 4 ? 1u << v : 0) : (v == 1 || v == 2 || v == 4 || v == 8 ? (unsigned)v : 0);
        if (s) {
            *i = gate_data(g, k);
            *scale = s;
            return true;
        }
    }
    return false;
}

/* ADD i64 (base, i << k) either way round: base + index * scale */
static bool index_address(Lower *l, const Gate *gate, Arg *mem)
{
    for (uint32_t k = 0; gate->op == OP_ADD && gate->type == TY_I64 && k < 2; k++) {
        GateId i;
        unsigned scale;
        if (!scaled_index(l, gate_data(gate, 1 - k), &i, &scale))
            continue;
        *mem = arg_index(lower_tmp(l, gate_data(gate, k)), lower_tmp(l, i), scale, 0);
        mcov_idiom(l->code->cov, MCOV_ADDR_INDEX);
        return true;
    }
    return false;
}

static Arg address(Lower *l, GateId a)
{
    const Gate *gate = isel_g(l, a);
    Arg mem;
    if (index_address(l, gate, &mem))
        return mem;
    if (gate->op == OP_ALLOCA && l->alloca_slot[a] != UINT32_MAX) {
        mcov_idiom(l->code->cov, MCOV_ADDR_SLOT);
        return arg_stack(l->alloca_slot[a], 0);
    }
    if (gate->op == OP_ADD && gate->type == TY_I64) {
        for (uint32_t i = 0; i < 2; i++) {
            GateId base = gate_data(gate, i), off = gate_data(gate, 1 - i);
            if (!isel_is_const(l, off))
                continue;
            int64_t v = (int64_t)isel_g(l, off)->lit;
            if (v < INT32_MIN / 2 || v > INT32_MAX / 2)
                continue;
            if (v >= 4096 || v <= -4096)
                mcov_idiom(l->code->cov, MCOV_ADDR_LARGE_OFFSET);
            bool slot = isel_g(l, base)->op == OP_ALLOCA && l->alloca_slot[base] != UINT32_MAX;
            mcov_idiom(l->code->cov, slot ? MCOV_ADDR_SLOT_OFFSET : MCOV_ADDR_BASE_OFFSET);
            if (slot)
                return arg_stack(l->alloca_slot[base], v);
            return arg_addr(lower_tmp(l, base), v);
        }
    }
    return arg_addr(lower_tmp(l, a), 0);
}

/* the load (store: for 8/16 bits, the store) of a value of type ty, or LIR_OP_COUNT */
static LirOp access_op(Type ty, bool store)
{
    switch (ty) {
    case TY_I8: return store ? LIR_Store8 : LIR_ZeroExtend8To32;
    case TY_I16: return store ? LIR_Store16 : LIR_ZeroExtend16To32;
    case TY_I32: return LIR_Move32;
    case TY_I64: return LIR_Move;
    case TY_F32: return LIR_MoveFloat;
    case TY_F64: return LIR_MoveDouble;
    default: return LIR_OP_COUNT;
    }
}

bool isel_memory(Lower *l, GateId g)
{
    bool store = isel_g(l, g)->op == OP_STORE;
    GateId v = store ? isel_in(l, g, 0) : g;
    Type ty = isel_type(l, v);
    LirOp op = access_op(ty, store);
    if (op == LIR_OP_COUNT) {
        diag_gate(l->diag, l->func, g, "cannot %s a value of type %s", store ? "store" : "load", ty_name(ty));
        return false;
    }
    Arg mem = address(l, isel_in(l, g, store ? 1 : 0));
    if (ty == TY_I8 || ty == TY_I16)
        mcov_idiom(l->code->cov, store ? MCOV_STORE_NARROW : MCOV_LOAD_EXTEND);
    if (store && ty_is_int(ty) && isel_is_const(l, v))
        mcov_idiom(l->code->cov, MCOV_STORE_IMM);
    if (!store) {
        lower_emit2(l, op, mem, isel_t(l, g));
        return true;
    }
    Arg args[2] = {ty_is_int(ty) ? isel_operand(l, v, ty_bits(ty)) : isel_t(l, v), mem};
    isel_emit_imm(l, op, 2, args, 0, v);
    return true;
}
