/* abi.c — calling conventions from a target's AbiDesc table (isel.h): parameters
 * (integers in the GP argument registers, floats in FP registers 0.., the rest in
 * 8-byte stack slots above the frame base), calls between module functions and to
 * the runtime helpers, returns (with the threw flag where the module may throw:
 * isel_exc.c), THROW, and the zeroing of ALLOCA memory on entry. */
#include "isel.h"

/* where argument i of a signature goes: a register (is_reg) or a stack slot index */
typedef struct { bool is_reg; Tmp reg; uint32_t stack_index; } ArgPlace;

static void place_args(const AbiDesc *abi, const Type *types, uint32_t n, ArgPlace *out)
{
    uint32_t ngp = 0, nfp = 0, nstack = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ty_is_float(types[i]) && nfp < abi->nfp_args)
            out[i] = (ArgPlace){true, tmp_fp(nfp++), 0};
        else if (!ty_is_float(types[i]) && ngp < abi->ngp_args)
            out[i] = (ArgPlace){true, tmp_gp(abi->gp_args[ngp++]), 0};
        else
            out[i] = (ArgPlace){false, TMP_NONE, nstack++};
    }
}

/* copy an incoming value of type t from src into the tmp dst, zero-extending
 * narrow integers (the caller leaves the bits above them unspecified) */
static void take_value(Lower *l, Type t, Arg src, Arg dst)
{
    switch (t) {
    case TY_F32: lower_emit2(l, LIR_MoveFloat, src, dst); break;
    case TY_F64: lower_emit2(l, LIR_MoveDouble, src, dst); break;
    case TY_I1:
        if (src.kind != ARG_TMP) {
            lower_emit2(l, l->isel->abi->i1_stack_load, src, dst);
            src = dst;
        }
        isel_alu(l, LIR_Move32, LIR_And32, src, arg_imm(1), dst, NO_GATE);
        break;
    case TY_I8: lower_emit2(l, LIR_ZeroExtend8To32, src, dst); break;
    case TY_I16: lower_emit2(l, LIR_ZeroExtend16To32, src, dst); break;
    case TY_I32: lower_emit2(l, LIR_Move32, src, dst); break;
    default: lower_emit2(l, LIR_Move, src, dst); break;
    }
}

/* ---- ALLOCA memory is zero on entry to every activation ------------------------------- */
enum { ZERO_UNROLLED_BYTES = 128, ZERO_LOOP_BYTES = 64 };

/* the address off bytes into slot s, or past the register p when p is a tmp */
static Arg zero_at(uint32_t s, Arg p, uint32_t off)
{
    return p.kind == ARG_TMP ? arg_addr(p.base, off) : arg_stack(s, off);
}

/* zero stores over [from, to) of slot s (or past p): pairs of zero registers where the
 * target stores pairs, then quadwords */
static void zero_stores(Lower *l, uint32_t s, Arg p, uint32_t from, uint32_t to)
{
    uint32_t off = from;
    bool pairs = isel_valid(l, LIR_StorePair64, 3, (Arg[]){arg_imm(0), arg_imm(0), zero_at(s, p, off)});
    for (; pairs && off + 16 <= to; off += 16)
        lower_emit3(l, LIR_StorePair64, arg_imm(0), arg_imm(0), zero_at(s, p, off));
    for (; off < to; off += 8)
        lower_emit2(l, LIR_Move, arg_imm(0), zero_at(s, p, off));
}

/* a loop zeroing [slot, slot + size), ZERO_LOOP_BYTES an iteration (size a multiple of
 * them): a few branches and little code for a large object */
static void zero_slot_loop(Lower *l, uint32_t slot, uint32_t size)
{
    Arg p = isel_fresh(l, BANK_GP), end = isel_fresh(l, BANK_GP);
    lower_emit2(l, LIR_Lea64, arg_stack(slot, 0), p);
    lower_emit2(l, LIR_Lea64, arg_stack(slot, size), end);
    LirBlock *loop = lower_new_block(l, false), *after = lower_new_block(l, false);
    lower_jump(l, loop->index);
    l->cur = loop;
    zero_stores(l, slot, p, 0, ZERO_LOOP_BYTES);
    isel_alu(l, LIR_Move, LIR_Add64, p, arg_imm(ZERO_LOOP_BYTES), p, NO_GATE);
    lower_emit3(l, LIR_Branch64, arg_relcond(REL_ne), p, end);
    lir_add_succ(l->code, loop, loop->index);
    lir_add_succ(l->code, loop, after->index);
    l->cur = after;
}

/* slot s of size bytes (a multiple of 8): straight-line stores up to
 * ZERO_UNROLLED_BYTES, else a loop and the tail's stores */
static void zero_slot(Lower *l, uint32_t s, uint32_t size)
{
    uint32_t looped = size > ZERO_UNROLLED_BYTES ? size - size % ZERO_LOOP_BYTES : 0;
    if (looped)
        zero_slot_loop(l, s, looped);
    zero_stores(l, s, arg_none(), looped, size);
}

bool isel_entry(Lower *l)
{
    const Func *f = l->func;
    const AbiDesc *abi = l->isel->abi;
    ArgPlace *place = arena_alloc(l->arena, (f->nparams + 1) * sizeof *place);
    place_args(abi, f->params, f->nparams, place);
    for (uint32_t i = 0; i < f->nparams; i++) {
        Arg src = place[i].is_reg ? arg_tmp(place[i].reg)
                                  : arg_addr(tmp_gp(abi->frame_base),
                                             abi->stack_args_at + 8 * (int64_t)place[i].stack_index);
        take_value(l, f->params[i], src, arg_tmp(lower_param_tmp(l, i)));
    }
    for (uint32_t s = 0; s < l->code->nslots; s++)
        if (l->code->slots[s].locked)
            zero_slot(l, s, l->code->slots[s].size);
    return true;
}

/* ---- calls ------------------------------------------------------------------------------ */
void isel_emit_call(Lower *l, Arg target, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs)
{
    const AbiDesc *abi = l->isel->abi;
    CallInfo *ci = lower_call_info(l, uses, nuses, defs, ndefs, abi->clobbers[BANK_GP], abi->clobbers[BANK_FP]);
    if (!isel_valid(l, LIR_Call, 1, &target)) { /* x86: a helper's address in a register */
        Arg t = isel_fresh(l, BANK_GP);
        lower_emit2(l, LIR_Move, target, t);
        target = t;
    }
    lower_emit1(l, LIR_Call, target)->call = ci;
}

static LirOp store_op(Type t)
{
    return t == TY_F64 ? LIR_MoveDouble : t == TY_F32 ? LIR_MoveFloat : LIR_Move;
}

/* the arguments of call gate g into their registers and callArg slots; the
 * registers into uses, returning how many */
static uint32_t pass_args(Lower *l, const Gate *gate, Arg *uses)
{
    uint32_t nargs = gate->ndata - 1, nuses = 0;
    Type *types = arena_alloc(l->arena, (nargs + 1) * sizeof *types);
    ArgPlace *place = arena_alloc(l->arena, (nargs + 1) * sizeof *place);
    for (uint32_t i = 0; i < nargs; i++)
        types[i] = isel_type(l, gate_data(gate, i + 1));
    place_args(l->isel->abi, types, nargs, place);
    for (uint32_t i = 0; i < nargs; i++) {
        Arg v = isel_t(l, gate_data(gate, i + 1));
        if (place[i].is_reg) {
            lower_emit2(l, store_op(types[i]) == LIR_Move ? LIR_Move : LIR_MoveDouble, v, arg_tmp(place[i].reg));
            uses[nuses++] = arg_tmp(place[i].reg);
        } else {
            lower_emit2(l, store_op(types[i]), v, arg_callarg(8 * (int64_t)place[i].stack_index));
        }
    }
    return nuses;
}

/* the register a value of type t is returned in */
static Arg result_reg(const Lower *l, Type t)
{
    const AbiDesc *abi = l->isel->abi;
    return arg_tmp(ty_is_float(t) ? tmp_fp(abi->fp_ret) : tmp_gp(abi->gp_ret));
}

Arg isel_flag_reg(const Lower *l) { return arg_tmp(tmp_gp(l->isel->abi->gp_flag)); }
Arg isel_bits_reg(const Lower *l) { return arg_tmp(tmp_gp(l->isel->abi->gp_ret)); }

void isel_call_gate(Lower *l, GateId g)
{
    const Gate *gate = isel_g(l, g);
    Arg *uses = arena_alloc(l->arena, gate->ndata * sizeof *uses);
    uint32_t nuses = pass_args(l, gate, uses);
    GateId callee = gate_data(gate, 0);
    const Gate *cg = isel_g(l, callee);
    Arg target = cg->op == OP_SYMBOL ? isel_symbol(l, cg->lit) : isel_t(l, callee);
    Type rt = (Type)gate->type;
    Arg defs[3] = {result_reg(l, rt)};
    uint32_t ndefs = rt == TY_NONE ? 0 : 1;
    if (l->may_throw && (rt == TY_NONE || ty_is_float(rt)))
        defs[ndefs++] = isel_bits_reg(l);
    if (l->may_throw)
        defs[ndefs++] = isel_flag_reg(l);
    isel_emit_call(l, target, uses, nuses, defs, ndefs);
    if (rt != TY_NONE)
        take_value(l, rt, defs[0], isel_t(l, g));
}

bool isel_call(Lower *l, GateId g)
{
    isel_call_gate(l, g);
    if (l->may_throw)
        isel_exc_propagate(l, g);
    return true;
}

/* where the module may throw, a return says it did not: flag 0 (one more use) */
bool isel_return(Lower *l, const Block *b)
{
    const Gate *ret = isel_g(l, b->term_gate);
    Arg args[2] = {isel_flag_reg(l), isel_flag_reg(l)};
    unsigned flag = l->may_throw ? 1 : 0;
    LirOp op = LIR_RetVoid;
    if (ret->ndata) {
        GateId v = gate_data(ret, 0);
        Type t = isel_type(l, v);
        args[0] = result_reg(l, t);
        lower_emit2(l, ty_is_float(t) ? LIR_MoveDouble : LIR_Move, isel_t(l, v), args[0]);
        op = t == TY_F64 ? LIR_RetDouble : t == TY_F32 ? LIR_RetFloat : LIR_Ret64;
    }
    if (flag)
        lower_emit2(l, LIR_Move32, arg_imm(0), isel_flag_reg(l));
    lower_emit(l, op, (ret->ndata ? 1 : 0) + flag, ret->ndata ? args : args + 1);
    return true;
}

/* THROW v: return with the bits of v (zero-extended) and the flag 1 + its type */
bool isel_throw(Lower *l, const Block *b)
{
    GateId v = gate_data(isel_g(l, b->term_gate), 0);
    Type t = isel_type(l, v);
    Arg bits = isel_bits_reg(l), flag = isel_flag_reg(l);
    Arg val = isel_t(l, v);
    if (t == TY_F64)
        lower_emit2(l, LIR_MoveDoubleTo64, val, bits);
    else if (t == TY_F32)
        lower_emit2(l, LIR_MoveFloatTo32, val, bits);
    else
        lower_emit2(l, LIR_Move, val, bits);
    lower_emit2(l, LIR_Move32, arg_imm(1 + (int64_t)t), flag);
    lower_emit2(l, LIR_Ret64, bits, flag);
    return true;
}
