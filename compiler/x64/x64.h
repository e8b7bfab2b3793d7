/* x64.h — the x86-64 target: register numbers, the forms table's encoder kinds,
 * the target description (forms, register names, value rules) and the encoder that
 * turns register-allocated LIR into a CodeBlob. */
#ifndef CIRC_X64_H
#define CIRC_X64_H

#include "compiler/lir/asm.h"

/* hardware register numbers (GP bank; the FP bank is xmm0..xmm15) */
enum {
    X64_RAX, X64_RCX, X64_RDX, X64_RBX, X64_RSP, X64_RBP, X64_RSI, X64_RDI,
    X64_R8, X64_R9, X64_R10, X64_R11, X64_R12, X64_R13, X64_R14, X64_R15,
    X64_NREGS
};

/* how a form is encoded (LirForm.enc); LirForm.param and .width refine it */
typedef enum {
    X64E_MOV,     /* mov/movabs (lea rip of a Symbol): Tmp,Tmp  Imm,Tmp  BigImm,Tmp  Symbol,Tmp  Mem,Tmp  Tmp,Mem  Imm,Mem */
    X64E_ALU,     /* param: group (0 add, 1 or, 4 and, 5 sub, 6 xor, 7 cmp) */
    X64E_EXT,     /* movzx/movsx/movsxd: param opcode (0x0fb6 ...), width: dest */
    X64E_LEA,
    X64E_XCHG,    /* xchg r/m, r */
    X64E_PUSH,
    X64E_POP,
    X64E_UNARY,   /* param: /digit (2 not, 3 neg) */
    X64E_IMUL,    /* imul r, r/m  and  imul r, r/m, imm */
    X64E_SHIFT,   /* param: /digit (4 shl, 5 shr, 7 sar); amount in cl or imm8 */
    X64E_DIV,     /* param: /digit (6 div, 7 idiv); the divisor is the last arg */
    X64E_BYTES,   /* fixed bytes: param = b0 | b1 << 8 | b2 << 16 | length << 24 */
    X64E_CMPSET,  /* compare, setcc, movzx: param CompareKind */
    X64E_CMOV,    /* compare, cmovcc */
    X64E_BRANCH,  /* compare, jcc (and jmp) */
    X64E_JUMP,
    X64E_RET,
    X64E_CALL,    /* call rel32 (Symbol: a function fixup, a helper RELOC_BRANCH), call r/m64 */
    X64E_SSE,     /* param: opcode | prefix << 8 | X64_SSE_W | X64_SSE_STORE */
    X64E_FMOV,    /* movaps reg-reg, movss/movsd load/store: param prefix 0xf3/0xf2 */
    X64E_BITOP,   /* lzcnt tzcnt popcnt bsf bsr r, r/m: param opcode | prefix << 16 */
    X64E_BSWAP,   /* bswap r */
    X64E_CHECKED, /* add/sub/imul, jno over a ud2 with a trap site: param ALU group, 8 imul */
    X64E_MULWIDE, /* mul/imul r/m (rdx:rax := rax * r/m): param /digit (4 mul, 5 imul) */
    X64E_ROUND,   /* roundss/roundsd: param opcode byte | imm8 << 8 */
    X64E_SHIFTX,  /* shlx/sarx/shrx dst, src, count (VEX 0F38 F7): param its prefix byte */
    X64E_COUNT
} X64Encoding;

enum { X64_SSE_W = 1 << 16, X64_SSE_STORE = 1 << 17 };
/* CPU features of x86-64 levels (Target.features, LirForm.needs) */
enum { X64F_SSE41 = 1, X64F_POPCNT = 2, X64F_LZCNT = 4, X64F_BMI1 = 8, X64F_BMI2 = 16 };
typedef enum { X64_CMP, X64_TEST, X64_UCOMISS, X64_UCOMISD } X64CompareKind;

/* the x86-64 target: forms table (forms.def), register names, value rules, emit */
const Target *x64_target(void);
/* its ELF machine and relocation types (obj.c) */
extern const struct ObjFormat x64_obj_format;

/* the condition-code nibble of a condition arg on x86-64 (-1 if it needs two tests) */
int x64_cond_code(const Arg *cond);

/* Target.emit of x86-64 (lir.h): funcs[i] is function index i, every Tmp a register */
bool x64_emit(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out,
              char *err, size_t errlen);

/* Target.listing of x86-64 (lir.h); a mark's gate without a name is "gate N" */
bool x64_listing(FILE *out, const CodeBlob *blob, const char *const *func_names,
                 GateNameFn gate_name, void *ctx);
/* the (bank, number) of a register Capstone names ("rax", "r8d", "sil", "xmm3"),
 * false for NULL or any other name (Target.disasm.reg) */
bool x64_cs_reg(const char *name, Bank *bank, unsigned *num);

/* ---- the encoder underneath (exposed for tests and tools) ----------------------- */
/* append the code of one instruction of block (its successors and the block after
 * it in layout decide branch targets; jumps to blocks become fixups): false with
 * as->err set if the instruction is not encodable */
bool x64_encode_inst(LirAsm *as, const Code *code, const LirBlock *block, const Inst *inst);

#endif
