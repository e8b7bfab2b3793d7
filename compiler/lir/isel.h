/* isel.h — the target-independent instruction selector (isel*.c, abi.c): turns each
 * scheduled gate and terminator into LIR, asking the target's forms table which
 * forms exist (a three-operand or a two-operand form, an immediate or a register)
 * and the target's IselHooks only about what a forms table cannot say.
 *
 * How selection picks (B3's way):
 *   - an ALU operation a op b -> dst is the three-operand form when the target has
 *     one, else `Move a, dst; op b, dst` (isel_alu); a constant operand is an
 *     immediate when the form takes it, else the constant's tmp;
 *   - a constant is `Move $imm` when the target takes it, else `Move32 $imm` (a
 *     32-bit value zero-extended), else `Move $bigimm`;
 *   - a float compare uses the DoubleCond itself, else the commuted one with the
 *     operands swapped, else (oeq, une) two compares combined;
 *   - a compare is fused into the branch or the SELECT that reads it: `(x & m)
 *     ==|!= 0` and the sign tests `x < 0`, `x >= 0`, `(x & m) < 0` become a test
 *     (BranchTest*, MoveConditionallyTest*, or Test* for a compare that is a value),
 *     other compares a compare-and-branch or a conditional move on the compare
 *     (MoveConditionally32/64, MoveConditionallyFloat/Double);
 *   - XOR with all ones is Not; a multiply by 2^k is the immediate multiply where
 *     the target has one, else a shift; CHECKED_* of a constant takes the immediate
 *     form where the target has one;
 *   - u64 -> float, ALLOCA zeroing and helper calls use the target's direct form
 *     when it has one (ConvertUInt64To*, StorePair64, Call $helper), else a
 *     sequence of simpler instructions;
 *   - calls, parameters, returns and THROW follow the target's AbiDesc (abi.c).
 * What stays per target (IselHooks): divisions with their trap checks, FPTOSI /
 * FPTOUI with their saturation, the fixed shift-count register, two condition
 * quirks, and the calling convention table.
 *
 * Values follow lower.h's invariant: an integer narrower than 64 bits is kept
 * zero-extended in its register (i1 is 0 or 1); every float arithmetic or
 * conversion result that may be NaN is made the canonical NaN unless no user can
 * see its payload (lower_nan_unseen). */
#ifndef CIRC_LIR_ISEL_H
#define CIRC_LIR_ISEL_H

#include "compiler/lir/lower.h"
#include "compiler/lir/mcov.h"

/* a calling convention: where arguments and results go and what a call clobbers */
typedef struct AbiDesc {
    uint8_t gp_args[8];        /* integer argument registers, in order */
    uint8_t ngp_args;
    uint8_t nfp_args;          /* float arguments: FP registers 0 .. nfp_args - 1 */
    uint8_t gp_ret, fp_ret;    /* the result register of each bank */
    uint8_t gp_flag;           /* exceptions: a return's threw flag (0, or 1 + the thrown
                                  Type, the bits then in gp_ret); docs/architecture.md */
    uint8_t frame_base;        /* GP register incoming stack arguments are read from, */
    int32_t stack_args_at;     /* at this offset, 8 bytes each (outgoing: callArg) */
    uint64_t clobbers[2];      /* per bank: the caller-saved registers a call clobbers */
    LirOp i1_stack_load;       /* reads an i1 argument passed on the stack */
} AbiDesc;

/* a target's part of instruction selection */
struct IselHooks {
    const AbiDesc *abi;
    Tmp shift_count;           /* a shift by a register takes its count there (x86: %cl),
                                  or TMP_NONE */
    bool narrow_compare_at_32; /* 8/16-bit equality and unsigned compares at 32 bits */
    bool test_by_compare;      /* nonzero test: `Branch32 ne x, $0`, not BranchTest */
    /* SDIV SREM UDIV UREM, their trap checks included */
    bool (*divide)(Lower *l, GateId g);
    /* FPTOSI FPTOUI: saturating, NaN -> 0 */
    bool (*fptoi)(Lower *l, GateId g);
};

/* ---- lower.c's entry points --------------------------------------------------------- */
bool isel_entry(Lower *l);                  /* parameters into tmps, ALLOCA zeroing */
bool isel_gate(Lower *l, GateId g);         /* one computation gate */
bool isel_term(Lower *l, const Block *b);   /* one terminator (not a goto) */

/* ---- for the selector and the hooks --------------------------------------------------- */
static inline const Gate *isel_g(const Lower *l, GateId g) { return circ_gate(l->circ, g); }
static inline GateId isel_in(const Lower *l, GateId g, uint32_t i) { return gate_data(isel_g(l, g), i); }
static inline Type isel_type(const Lower *l, GateId g) { return (Type)isel_g(l, g)->type; }
static inline Arg isel_t(Lower *l, GateId g) { return arg_tmp(lower_tmp(l, g)); }
static inline Arg isel_fresh(Lower *l, Bank b) { return arg_tmp(lower_new_tmp(l, b)); }
static inline bool isel_is_const(const Lower *l, GateId g) { return isel_g(l, g)->op == OP_CONSTANT; }
static inline LirOp isel_pick(int w, LirOp op32, LirOp op64) { return w == 64 ? op64 : op32; }
/* does the target have a form taking op with these n args? (lir_is_valid_args,
 * through the Code's index of the forms table) */
static inline bool isel_valid(const Lower *l, LirOp op, unsigned n, const Arg *args)
{
    Inst in = lir_inst(op, n, args);
    return lir_code_find_form(l->code, &in) != NULL;
}

/* the address SYMBOL literal lit names: a module function, or an extern's runtime
 * function (a helper the executor provides) */
static inline Arg isel_symbol(const Lower *l, uint64_t lit)
{
    int rt = module_symbol_runtime(l->circ->func->module, lit);
    return rt >= 0 ? arg_symbol(TARGET_HELPER, (uint32_t)(HELPER_RUNTIME + rt), 0)
                   : arg_symbol(TARGET_FUNC, (uint32_t)lit, 0);
}

/* a 64-bit integer constant in a fresh GP tmp */
Arg isel_gp_const(Lower *l, uint64_t bits);
/* float constant bits of type t in a fresh FP tmp */
Arg isel_fp_const(Lower *l, Type t, uint64_t bits);
/* zero the bits of tmp t above width w (lower.h's invariant) */
void isel_zero_above(Lower *l, Arg t, int w);
/* the operands *a and *b of a signed operation of width w below 32 sign-extended to
 * 32 bits, each into a fresh tmp (they replace *a and *b); nothing at 32 and 64 */
void isel_sign_extend_pair(Lower *l, int w, Arg *a, Arg *b);
/* gate g as an immediate of an operation of width w (its bits), or its tmp */
Arg isel_operand(Lower *l, GateId g, int w);
/* op with args, the immediate args[imm_at] replaced by gate g's tmp (or, for
 * NO_GATE, the constant in a tmp) when no form takes it */
Inst *isel_emit_imm(Lower *l, LirOp op, unsigned n, Arg *args, unsigned imm_at, GateId g);
/* dst := a op b: the three-operand form if the target has one, else mov a -> dst
 * (with `mov`, unless a is dst) and the two-operand form; b is an immediate or a
 * tmp, g as for isel_emit_imm */
void isel_alu(Lower *l, LirOp mov, LirOp op, Arg a, Arg b, Arg dst, GateId g);
/* dst := op x (a one-operand op such as Neg or Not): the two-operand form where
 * the target has it, else a move to dst and the one-operand form */
void isel_unary(Lower *l, LirOp op, Arg x, Arg dst);
/* Branch8/16/32/64 and Compare8/16/32/64 */
LirOp isel_branch_op(int w);
LirOp isel_compare_op(int w);
/* end l->cur with a two-way branch already emitted: taken, else a new block that
 * becomes l->cur */
void isel_branch_or_continue(Lower *l, uint32_t taken);
/* end l->cur with a branch on x (of width 32 or 64) being nonzero, the target's way
 * (successors still to add) */
void isel_branch_nonzero(Lower *l, int w, Arg x);

/* abi.c: a call of target (a function or helper Symbol or a Tmp) reading uses and
 * writing defs (physical registers), clobbering the convention's caller-saved ones */
void isel_emit_call(Lower *l, Arg target, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs);
bool isel_call(Lower *l, GateId g);
/* the call of CALL or INVOKE g, its result taken (abi.c); where the module may throw
 * the call also defines the bits and flag registers */
void isel_call_gate(Lower *l, GateId g);
Arg isel_flag_reg(const Lower *l); /* AbiDesc.gp_flag */
Arg isel_bits_reg(const Lower *l); /* AbiDesc.gp_ret: the bits of a throw */
/* ---- exceptions (isel_exc.c, docs/architecture.md) ---- */
/* after CALL g's isel_call_gate: a throw returns at once with its flag and bits */
void isel_exc_propagate(Lower *l, GateId g);
/* INVOKE b->term_gate: the call, then IF_SUCCESS's block or, on a throw, a landing
 * block giving the GET_EXCEPTIONs of its IF_EXCEPTION their bits, then that block */
bool isel_invoke(Lower *l, const Block *b);
bool isel_return(Lower *l, const Block *b);
bool isel_throw(Lower *l, const Block *b);

/* isel_cmp.c */
bool isel_icmp(Lower *l, GateId g);
bool isel_fcmp(Lower *l, GateId g);
bool isel_if(Lower *l, const Block *b);
bool isel_switch(Lower *l, const Block *b);
/* dst := src when the compare c (a SELECT's condition) holds, the compare fused into
 * the conditional move (its own instruction, unread then, left to dead-code removal);
 * false, nothing emitted, when c is not an ICMP or an FCMP of one test */
bool isel_cmov_on(Lower *l, GateId c, Arg src, Arg dst);
/* isel_bits.c: SELECT ROTL ROTR SMIN SMAX UMIN UMAX SMULHI UMULHI CHECKED_* CLZ CTZ
 * POPCNT BSWAP ABS */
bool isel_bits(Lower *l, GateId g);
/* AND (LSHR x, k), 2^w - 1 (32/64 bits, k >= 1, k + w within the width) as one field
 * extract where the target has ExtractUnsigned*; false, nothing emitted, otherwise */
bool isel_bitfield(Lower *l, GateId g);
/* isel_conv.c */
bool isel_convert(Lower *l, GateId g);      /* TRUNC ZEXT SEXT BITCAST *TOFP FPEXT FPTRUNC */
bool isel_float(Lower *l, GateId g);        /* FADD FSUB FMUL FDIV FNEG FMOD FEXP */
bool isel_memory(Lower *l, GateId g);       /* LOAD STORE */
void isel_canonicalize(Lower *l, GateId g, Type ty, Arg t);
/* isel_float.c: SQRT FLOOR CEIL FTRUNC NEAREST FABS FMIN FMAX FCOPYSIGN */
bool isel_float_ops(Lower *l, GateId g);
/* t := the canonical NaN of ty if a or b is NaN (float tmps of type ty) */
void isel_nan_if_unordered(Lower *l, Type ty, Arg a, Arg b, Arg t);

#endif
