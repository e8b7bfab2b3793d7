/* a64.h — the ARM64 target: register numbering as LIR sees it, the forms table's
 * encoder kinds, the target description (forms, register names, value rules,
 * register file) and the emitter that turns register-allocated LIR into a
 * CodeBlob.  The instruction words come from insn.h.
 *
 * LIR register numbers (GP bank): 0..30 are x0..x30, 31 is sp.  The zero register
 * has no number: the emitter uses it for immediates 0 and in aliases.  x16 and x17
 * (IP0/IP1) are the emitter's scratch registers (large immediates and offsets,
 * literal loads of symbols, swaps) and no LIR argument may name them; x18 is the
 * platform register, x29 the frame pointer, x30 the link register.  FP bank: v0..v30
 * used as s or d registers; v31 is the emitter's FP scratch (memory operands of FP
 * operations) and no LIR argument may name it. */
#ifndef CIRC_A64_H
#define CIRC_A64_H

#include "compiler/a64/insn.h"
#include "compiler/lir/asm.h"

enum {
    A64_LIR_SP = 31,       /* sp as a LIR register number */
    A64_SCRATCH0 = A64_X16, /* value scratch */
    A64_SCRATCH1 = A64_X17, /* address scratch */
    A64_FP_SCRATCH = 31,    /* v31: memory operands of FP operations */
    A64_LIR_NREGS = 32,
};

/* how a form is encoded (LirForm.enc); LirForm.param and .width refine it */
typedef enum {
    A64E_MOV,     /* Move/Move32/Store16/Store8: Tmp,Tmp Imm,Tmp BigImm,Tmp Symbol,Tmp Mem,Tmp Tmp,Mem Imm,Mem */
    A64E_EXT,     /* extensions: param A64ExtKind; Tmp,Tmp or Mem,Tmp */
    A64E_LEA,
    A64E_SWAP,
    A64E_PUSH,    /* str x, [sp, #-16]! */
    A64E_POP,     /* ldr x, [sp], #16 */
    A64E_PUSHPAIR,/* stp a, b, [sp, #-16]! */
    A64E_POPPAIR, /* ldp a, b, [sp], #16 */
    A64E_PAIR,    /* stp/ldp at a memory operand, param A64Pair (str/ldr twice where
                     stp/ldp cannot encode the operand) */
    A64E_ALU,     /* param A64AluOp; (src, srcdst) or (left, right, dst) */
    A64E_UNARY,   /* param 0 neg, 1 not (mvn); (srcdst) or (src, dst) */
    A64E_SHIFT,   /* param A64Shift (LSL, LSR, ASR); (amount, srcdst) or (src, amount, dst) */
    A64E_DIV,     /* param 0 sdiv, 1 udiv */
    A64E_MSUB,
    A64E_CMPSET,  /* compare, cset: param A64CompareKind */
    A64E_CSEL,    /* compare, csel */
    A64E_BRANCH,  /* compare, b.cond / cbz / tbz (and b) */
    A64E_JUMP,
    A64E_RET,
    A64E_CALL,    /* bl (function symbol), blr (register, memory or helper symbol) */
    A64E_BRK,     /* brk #trap kind, with a trap-table entry */
    A64E_NOP,
    A64E_FMOV,    /* fmov reg-reg, ldr/str s/d */
    A64E_FALU,    /* param A64FaluOp */
    A64E_FUNARY,  /* one FP source: param A64FunaryOp; (src, dst) */
    A64E_FCOPYSIGN, /* (magnitude, sign, dst) through x16 and x17: bfxil of the magnitude bits */
    A64E_FLOGIC,  /* bitwise ops of FP registers through x16/x17: param A64AluOp */
    A64E_CVT,     /* param A64CvtKind */
    A64E_BITS,    /* (src, dst): param A64BitOp */
    A64E_BITFIELD,/* ubfx: (lsb, width, src, dst) */
    A64E_CHECKED, /* adds/subs (left, right, dst), b.vc over a brk: param 0 adds, 1 subs */
    A64E_MULH,    /* (left, right, dst): param 0 smulh, 1 umulh */
    A64E_COUNT
} A64Encoding;

typedef enum { A64_ALU_ADD, A64_ALU_SUB, A64_ALU_AND, A64_ALU_OR, A64_ALU_XOR, A64_ALU_MUL } A64AluOp;
typedef enum { A64_FALU_ADD, A64_FALU_SUB, A64_FALU_MUL, A64_FALU_DIV, A64_FALU_MIN, A64_FALU_MAX } A64FaluOp;
typedef enum { A64_FUN_SQRT, A64_FUN_ABS, A64_FUN_FRINTM, A64_FUN_FRINTP, A64_FUN_FRINTZ, A64_FUN_FRINTN } A64FunaryOp;
typedef enum { A64_CMP, A64_TEST, A64_FCMP } A64CompareKind;
typedef enum { A64_BITS_CLZ, A64_BITS_CTZ /* rbit, clz */, A64_BITS_REV } A64BitOp;
typedef enum {
    A64_EXT_Z8_32, A64_EXT_S8_32, A64_EXT_Z16_32, A64_EXT_S16_32,
    A64_EXT_S8_64, A64_EXT_S16_64, A64_EXT_S32_64,
} A64ExtKind;
typedef enum {
    A64_CVT_I32_F, A64_CVT_I64_F, A64_CVT_I32_D, A64_CVT_I64_D,
    A64_CVT_F_I32, A64_CVT_F_I64, A64_CVT_D_I32, A64_CVT_D_I64,
    A64_CVT_F_U32, A64_CVT_F_U64, A64_CVT_D_U32, A64_CVT_D_U64, A64_CVT_U64_F, A64_CVT_U64_D,
    A64_CVT_F_D, A64_CVT_D_F, A64_CVT_W_F, A64_CVT_F_W, A64_CVT_X_D, A64_CVT_D_X,
} A64CvtKind;

/* the ARM64 target: forms table (forms.def), register names, value rules, emit */
const Target *a64_target(void);
/* its ELF machine and relocation types (obj.c) */
extern const struct ObjFormat a64_obj_format;

/* the register file for allocation: bit n = LIR register n of bank b */
uint64_t a64_allocatable_regs(Bank b);   /* GP: x0-x15, x19-x28; FP: v0-v30 */
uint64_t a64_callee_saved_regs(Bank b);  /* GP: x19-x28 (x29, x30 by the frame); FP: v8-v15 (low 64 bits) */
uint64_t a64_caller_saved_regs(Bank b);  /* what a call clobbers among the allocatable ones */

/* the condition(s) deciding a condition arg on ARM64: *second is A64_AL unless
 * the condition holds when either of two conditions does (FP one, ueq);
 * false if the arg is not a condition */
bool a64_cond_codes(const Arg *cond, A64Cond *first, A64Cond *second);

/* Target.emit of ARM64 (lir.h): the module's code, literal words after each function */
bool a64_emit(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out,
              char *err, size_t errlen);

/* Target.listing of ARM64 (lir.h), literal words shown as data */
bool a64_listing(FILE *out, const CodeBlob *blob, const char *const *func_names,
                 GateNameFn gate_name, void *ctx);
/* the (bank, number) of a register Capstone names ("x3", "w3", "fp", "lr"; "sp",
 * "wsp", "xzr", "wzr" are number 31; "b0" .. "q31", "v0" .. "v31" are FP), false
 * for NULL or any other name (Target.disasm.reg) */
bool a64_cs_reg(const char *name, Bank *bank, unsigned *num);

/* ---- the encoder underneath (exposed for tests and tools) ----------------------- */
/* append the code of one instruction of block (its successors and the block after
 * it in layout decide branch targets; branches to blocks become fixups): false with
 * as->err set if the instruction is not encodable (and nothing appended) */
bool a64_encode_inst(LirAsm *as, const Code *code, const LirBlock *block, const Inst *inst);
#endif
