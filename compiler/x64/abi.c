/* abi.c — the SysV x86-64 calling convention for compiled functions: parameters
 * (integers in rdi rsi rdx rcx r8 r9, floats in xmm0-7, the rest in 8-byte stack
 * slots above the return address), calls between module functions and to the
 * runtime helpers, returns and THROW (a call of HELPER_THROW).  The caller-saved
 * registers a call clobbers: rax rcx rdx rsi rdi r8-r11 and every xmm register. */
#include "x64.h"
#include "x64_internal.h"

static const uint8_t gp_arg_regs[6] = {X64_RDI, X64_RSI, X64_RDX, X64_RCX, X64_R8, X64_R9};
enum { FP_ARG_REGS = 8, STACK_ARGS_AT = 16 /* [rbp+16]: above saved rbp and return address */ };

#define BIT(r) (1ull << (r))
static const uint64_t gp_clobbers = BIT(X64_RAX) | BIT(X64_RCX) | BIT(X64_RDX) | BIT(X64_RSI) |
                                    BIT(X64_RDI) | BIT(X64_R8) | BIT(X64_R9) | BIT(X64_R10) | BIT(X64_R11);

/* where argument i of a signature goes: a register (is_reg) or a stack slot index */
typedef struct { bool is_reg; Tmp reg; uint32_t stack_index; } ArgPlace;

static void place_args(const Type *types, uint32_t n, ArgPlace *out)
{
    uint32_t ngp = 0, nfp = 0, nstack = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ty_is_float(types[i]) && nfp < FP_ARG_REGS)
            out[i] = (ArgPlace){true, tmp_fp(nfp++), 0};
        else if (!ty_is_float(types[i]) && ngp < 6)
            out[i] = (ArgPlace){true, tmp_gp(gp_arg_regs[ngp++]), 0};
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
        lower_emit2(l, LIR_Move32, src, dst);
        lower_emit2(l, LIR_And32, arg_imm(1), dst);
        break;
    case TY_I8: lower_emit2(l, LIR_ZeroExtend8To32, src, dst); break;
    case TY_I16: lower_emit2(l, LIR_ZeroExtend16To32, src, dst); break;
    case TY_I32: lower_emit2(l, LIR_Move32, src, dst); break;
    default: lower_emit2(l, LIR_Move, src, dst); break;
    }
}

enum { ZERO_UNROLLED_BYTES = 128 };

/* a loop storing zero quadwords over [slot, slot + size) */
static void zero_slot_loop(Lower *l, uint32_t slot, uint32_t size)
{
    Arg p = arg_tmp(lower_new_tmp(l, BANK_GP)), end = arg_tmp(lower_new_tmp(l, BANK_GP));
    lower_emit2(l, LIR_Lea64, arg_stack(slot, 0), p);
    lower_emit2(l, LIR_Lea64, arg_stack(slot, size), end);
    LirBlock *loop = lower_new_block(l, false), *after = lower_new_block(l, false);
    lower_jump(l, loop->index);
    l->cur = loop;
    lower_emit2(l, LIR_Move, arg_imm(0), arg_addr(p.base, 0));
    lower_emit2(l, LIR_Add64, arg_imm(8), p);
    lower_emit3(l, LIR_Branch64, arg_relcond(REL_ne), p, end);
    lir_add_succ(l->code, loop, loop->index);
    lir_add_succ(l->code, loop, after->index);
    l->cur = after;
}

/* ALLOCA memory is zero on entry to every activation (slot sizes are multiples
 * of 8): small slots by unrolled stores, big ones by a loop */
static void zero_slots(Lower *l)
{
    for (uint32_t s = 0; s < l->code->nslots; s++) {
        uint32_t size = l->code->slots[s].size;
        if (!l->code->slots[s].locked)
            continue;
        if (size > ZERO_UNROLLED_BYTES) {
            zero_slot_loop(l, s, size);
            continue;
        }
        for (uint32_t off = 0; off < size; off += 8)
            lower_emit2(l, LIR_Move, arg_imm(0), arg_stack(s, off));
    }
}

bool x64_sel_entry(Lower *l)
{
    const Func *f = l->func;
    ArgPlace *place = arena_alloc(l->arena, (f->nparams + 1) * sizeof *place);
    place_args(f->params, f->nparams, place);
    for (uint32_t i = 0; i < f->nparams; i++) {
        Arg src = place[i].is_reg ? arg_tmp(place[i].reg)
                                  : arg_addr(tmp_gp(X64_RBP), STACK_ARGS_AT + 8 * (int64_t)place[i].stack_index);
        take_value(l, f->params[i], src, arg_tmp(lower_param_tmp(l, i)));
    }
    zero_slots(l);
    return true;
}

void x64_emit_call(Lower *l, Arg target, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs)
{
    CallInfo *ci = lower_call_info(l, uses, nuses, defs, ndefs, gp_clobbers, 0xffffull);
    if (target.kind == ARG_SYMBOL && target.sym_kind == TARGET_HELPER) {
        Arg t = arg_tmp(lower_new_tmp(l, BANK_GP));
        lower_emit2(l, LIR_Move, target, t);
        target = t;
    }
    lower_emit1(l, LIR_Call, target)->call = ci;
}

static LirOp store_op(Type t)
{
    return t == TY_F64 ? LIR_MoveDouble : t == TY_F32 ? LIR_MoveFloat : LIR_Move;
}

bool x64_sel_call(Lower *l, GateId g)
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
    Arg defs[1] = {arg_tmp(ty_is_float(rt) ? tmp_fp(0) : tmp_gp(X64_RAX))};
    x64_emit_call(l, target, uses, nuses, defs, rt == TY_NONE ? 0 : 1);
    if (rt != TY_NONE)
        take_value(l, rt, defs[0], arg_tmp(lower_tmp(l, g)));
    return true;
}

bool x64_sel_return(Lower *l, const Block *b)
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
        lower_emit2(l, LIR_Move, arg_tmp(lower_tmp(l, v)), arg_tmp(tmp_gp(X64_RAX)));
        lower_emit1(l, LIR_Ret64, arg_tmp(tmp_gp(X64_RAX)));
    }
    return true;
}

bool x64_sel_throw(Lower *l, const Block *b)
{
    const Gate *thr = circ_gate(l->circ, b->term_gate);
    GateId v = gate_data(thr, 0);
    Type t = (Type)circ_gate(l->circ, v)->type;
    Arg rdi = arg_tmp(tmp_gp(X64_RDI)), rsi = arg_tmp(tmp_gp(X64_RSI));
    Arg val = arg_tmp(lower_tmp(l, v));
    if (t == TY_F64)
        lower_emit2(l, LIR_MoveDoubleTo64, val, rdi);
    else if (t == TY_F32)
        lower_emit2(l, LIR_MoveFloatTo32, val, rdi);
    else
        lower_emit2(l, LIR_Move, val, rdi);
    lower_emit2(l, LIR_Move32, arg_imm(t), rsi);
    Arg uses[2] = {rdi, rsi};
    x64_emit_call(l, arg_symbol(TARGET_HELPER, HELPER_THROW, 0), uses, 2, NULL, 0);
    lower_emit0(l, LIR_Ud2)->trap = TRAP_ILLEGAL;
    return true;
}
