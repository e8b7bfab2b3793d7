/* abi.c — the AAPCS64 calling convention for compiled functions: parameters
 * (integers in x0-x7, floats in v0-v7, the rest in 8-byte stack slots at the
 * caller's sp, found above the saved x29/x30 pair), calls between module functions
 * (bl) and to the runtime helpers (blr through a literal), returns and THROW (a
 * call of HELPER_THROW).  A call clobbers x0-x18, x30 and v0-v7, v16-v31 (v8-v15
 * keep their low 64 bits, all a value uses). */
#include "a64.h"
#include "a64_internal.h"

enum { GP_ARG_REGS = 8, FP_ARG_REGS = 8 };

static const uint64_t gp_clobbers = 0x7ffffull | 1ull << A64_LR;
static const uint64_t fp_clobbers = 0xffff00ffull;

/* where argument i of a signature goes: a register (is_reg) or a stack slot index */
typedef struct { bool is_reg; Tmp reg; uint32_t stack_index; } ArgPlace;

static void place_args(const Type *types, uint32_t n, ArgPlace *out)
{
    uint32_t ngp = 0, nfp = 0, nstack = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ty_is_float(types[i]) && nfp < FP_ARG_REGS)
            out[i] = (ArgPlace){true, tmp_fp(nfp++), 0};
        else if (!ty_is_float(types[i]) && ngp < GP_ARG_REGS)
            out[i] = (ArgPlace){true, tmp_gp(ngp++), 0};
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
            lower_emit2(l, LIR_ZeroExtend8To32, src, dst);
            src = dst;
        }
        lower_emit3(l, LIR_And32, src, arg_imm(1), dst);
        break;
    case TY_I8: lower_emit2(l, LIR_ZeroExtend8To32, src, dst); break;
    case TY_I16: lower_emit2(l, LIR_ZeroExtend16To32, src, dst); break;
    case TY_I32: lower_emit2(l, LIR_Move32, src, dst); break;
    default: lower_emit2(l, LIR_Move, src, dst); break;
    }
}

/* ALLOCA memory is zero on entry to every activation */
static void zero_slots(Lower *l)
{
    for (uint32_t s = 0; s < l->code->nslots; s++) {
        if (!l->code->slots[s].locked)
            continue;
        uint32_t off = 0, size = l->code->slots[s].size;
        for (; off + 16 <= size; off += 16)
            lower_emit3(l, LIR_StorePair64, arg_imm(0), arg_imm(0), arg_stack(s, off));
        if (off < size)
            lower_emit2(l, LIR_Move, arg_imm(0), arg_stack(s, off));
    }
}

bool a64_sel_entry(Lower *l)
{
    const Func *f = l->func;
    ArgPlace *place = arena_alloc(l->arena, (f->nparams + 1) * sizeof *place);
    place_args(f->params, f->nparams, place);
    for (uint32_t i = 0; i < f->nparams; i++) {
        Arg src = place[i].is_reg ? arg_tmp(place[i].reg)
                                  : arg_addr(tmp_gp(A64_FP), A64_STACK_ARGS_AT + 8 * (int64_t)place[i].stack_index);
        take_value(l, f->params[i], src, arg_tmp(lower_param_tmp(l, i)));
    }
    zero_slots(l);
    return true;
}

void a64_emit_call(Lower *l, Arg target, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs)
{
    CallInfo *ci = lower_call_info(l, uses, nuses, defs, ndefs, gp_clobbers, fp_clobbers);
    lower_emit1(l, LIR_Call, target)->call = ci;
}

static LirOp store_op(Type t)
{
    return t == TY_F64 ? LIR_MoveDouble : t == TY_F32 ? LIR_MoveFloat : LIR_Move;
}

bool a64_sel_call(Lower *l, GateId g)
{
    const Gate *gate = circ_gate(l->circ, g);
    uint32_t nargs = gate->ndata - 1;
    Type *types = arena_alloc(l->arena, (nargs + 1) * sizeof *types);
    ArgPlace *place = arena_alloc(l->arena, (nargs + 1) * sizeof *place);
    Arg *uses = arena_alloc(l->arena, (nargs + 1) * sizeof *uses);
    uint32_t nuses = 0;
    for (uint32_t i = 0; i < nargs; i++)
        types[i] = (Type)circ_gate(l->circ, gate_data(gate, i + 1))->type;
    place_args(types, nargs, place);
    for (uint32_t i = 0; i < nargs; i++) {
        Arg v = arg_tmp(lower_tmp(l, gate_data(gate, i + 1)));
        if (place[i].is_reg) {
            lower_emit2(l, store_op(types[i]) == LIR_Move ? LIR_Move : LIR_MoveDouble, v, arg_tmp(place[i].reg));
            uses[nuses++] = arg_tmp(place[i].reg);
        } else {
            lower_emit2(l, store_op(types[i]), v, arg_callarg(8 * (int64_t)place[i].stack_index));
        }
    }
    GateId callee = gate_data(gate, 0);
    const Gate *cg = circ_gate(l->circ, callee);
    Arg target = cg->op == OP_SYMBOL ? arg_symbol(TARGET_FUNC, (uint32_t)cg->lit, 0)
                                     : arg_tmp(lower_tmp(l, callee));
    Type rt = (Type)gate->type;
    Arg defs[1] = {arg_tmp(ty_is_float(rt) ? tmp_fp(0) : tmp_gp(0))};
    a64_emit_call(l, target, uses, nuses, defs, rt == TY_NONE ? 0 : 1);
    if (rt != TY_NONE)
        take_value(l, rt, defs[0], arg_tmp(lower_tmp(l, g)));
    return true;
}

bool a64_sel_return(Lower *l, const Block *b)
{
    const Gate *ret = circ_gate(l->circ, b->term_gate);
    if (!ret->ndata) {
        lower_emit0(l, LIR_RetVoid);
        return true;
    }
    GateId v = gate_data(ret, 0);
    Type t = (Type)circ_gate(l->circ, v)->type;
    if (ty_is_float(t)) {
        lower_emit2(l, LIR_MoveDouble, arg_tmp(lower_tmp(l, v)), arg_tmp(tmp_fp(0)));
        lower_emit1(l, t == TY_F64 ? LIR_RetDouble : LIR_RetFloat, arg_tmp(tmp_fp(0)));
    } else {
        lower_emit2(l, LIR_Move, arg_tmp(lower_tmp(l, v)), arg_tmp(tmp_gp(0)));
        lower_emit1(l, LIR_Ret64, arg_tmp(tmp_gp(0)));
    }
    return true;
}

bool a64_sel_throw(Lower *l, const Block *b)
{
    const Gate *thr = circ_gate(l->circ, b->term_gate);
    GateId v = gate_data(thr, 0);
    Type t = (Type)circ_gate(l->circ, v)->type;
    Arg x0 = arg_tmp(tmp_gp(0)), x1 = arg_tmp(tmp_gp(1));
    Arg val = arg_tmp(lower_tmp(l, v));
    if (t == TY_F64)
        lower_emit2(l, LIR_MoveDoubleTo64, val, x0);
    else if (t == TY_F32)
        lower_emit2(l, LIR_MoveFloatTo32, val, x0);
    else
        lower_emit2(l, LIR_Move, val, x0);
    lower_emit2(l, LIR_Move32, arg_imm(t), x1);
    Arg uses[2] = {x0, x1};
    a64_emit_call(l, arg_symbol(TARGET_HELPER, HELPER_THROW, 0), uses, 2, NULL, 0);
    lower_emit0(l, LIR_Ud2)->trap = TRAP_ILLEGAL;
    return true;
}
