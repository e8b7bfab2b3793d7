/* x64_encode.c — encoder round trip: every form of the x86-64 forms table is encoded
 * with every register in each register position, a spread of immediates and every
 * addressing mode, decoded by Capstone, and compared structurally (mnemonic, operand
 * registers, immediates, memory base/index/scale/disp, operand sizes) with what this
 * file expects the LIR instruction to mean.  Branches, jumps and calls go through
 * x64_emit so their targets are checked after layout; lea rip of a symbol and a
 * helper's call rel32 must leave their relocations, divisions and ud2 their trap sites.  Stops at the first
 * disagreement with the form, operands, bytes and Capstone's text. */
#include "compiler/x64/x64.h"

#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- Capstone register ids --------------------------------------------------------- */
static const x86_reg gp64[16] = {
    X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX, X86_REG_RSP, X86_REG_RBP, X86_REG_RSI,
    X86_REG_RDI, X86_REG_R8, X86_REG_R9, X86_REG_R10, X86_REG_R11, X86_REG_R12, X86_REG_R13,
    X86_REG_R14, X86_REG_R15 };
static const x86_reg gp32[16] = {
    X86_REG_EAX, X86_REG_ECX, X86_REG_EDX, X86_REG_EBX, X86_REG_ESP, X86_REG_EBP, X86_REG_ESI,
    X86_REG_EDI, X86_REG_R8D, X86_REG_R9D, X86_REG_R10D, X86_REG_R11D, X86_REG_R12D,
    X86_REG_R13D, X86_REG_R14D, X86_REG_R15D };
static const x86_reg gp16[16] = {
    X86_REG_AX, X86_REG_CX, X86_REG_DX, X86_REG_BX, X86_REG_SP, X86_REG_BP, X86_REG_SI,
    X86_REG_DI, X86_REG_R8W, X86_REG_R9W, X86_REG_R10W, X86_REG_R11W, X86_REG_R12W,
    X86_REG_R13W, X86_REG_R14W, X86_REG_R15W };
static const x86_reg gp8[16] = {
    X86_REG_AL, X86_REG_CL, X86_REG_DL, X86_REG_BL, X86_REG_SPL, X86_REG_BPL, X86_REG_SIL,
    X86_REG_DIL, X86_REG_R8B, X86_REG_R9B, X86_REG_R10B, X86_REG_R11B, X86_REG_R12B,
    X86_REG_R13B, X86_REG_R14B, X86_REG_R15B };

static x86_reg cs_reg(Tmp t, unsigned width)
{
    unsigned n = tmp_reg_number(t);
    if (tmp_bank(t) == BANK_FP)
        return (x86_reg)(X86_REG_XMM0 + n);
    return width == 64 ? gp64[n] : width == 32 ? gp32[n] : width == 16 ? gp16[n] : gp8[n];
}

/* ---- what an instruction should decode to ---------------------------------------- */
typedef struct {
    x86_op_type type;
    x86_reg reg;
    int64_t imm;
    unsigned imm_bits;  /* compare immediates modulo 2^imm_bits */
    x86_op_mem mem;
    uint8_t size;       /* operand size in bytes, 0: not checked */
} ExpOp;

typedef struct {
    char mnem[16];
    ExpOp ops[4];
    int nops;
    bool target_is_block2; /* jcc/jmp: the immediate is the third instruction's successor */
} ExpInsn;

typedef struct {
    ExpInsn insn[4];
    int n;
} Expect;

enum { FRAME_SLOT_OFFSET = -48 };

static ExpOp exp_arg(const Arg *a, unsigned width)
{
    ExpOp e = { .type = X86_OP_INVALID };
    switch ((ArgKind)a->kind) {
    case ARG_TMP:
        e.type = X86_OP_REG;
        e.reg = cs_reg(a->base, width);
        break;
    case ARG_SYMBOL: /* lea [rip + disp32], the disp32 left 0 for the relocation */
        e.type = X86_OP_MEM;
        e.size = (uint8_t)(width / 8);
        e.mem.base = X86_REG_RIP;
        e.mem.index = X86_REG_INVALID;
        break;
    case ARG_IMM: case ARG_BIGIMM:
        e.type = X86_OP_IMM;
        e.imm = a->value;
        e.imm_bits = width;
        e.size = (uint8_t)(width / 8);
        break;
    case ARG_ADDR: case ARG_INDEX: case ARG_STACK: case ARG_CALLARG:
        e.type = X86_OP_MEM;
        e.size = (uint8_t)(width / 8);
        e.mem.scale = 1;
        e.mem.disp = arg_offset(a);
        if (a->kind == ARG_STACK) {
            e.mem.base = X86_REG_RBP;
            e.mem.disp += FRAME_SLOT_OFFSET;
        } else if (a->kind == ARG_CALLARG) {
            e.mem.base = X86_REG_RSP;
        } else {
            e.mem.base = cs_reg(a->base, 64);
        }
        if (a->kind == ARG_INDEX) {
            e.mem.index = cs_reg(a->index, 64);
            e.mem.scale = a->scale;
        }
        break;
    default:
        break;
    }
    return e;
}

static const char *cc_suffix(const Arg *c, bool invert)
{
    static const char *const rel[REL_COUNT] = { "e", "ne", "a", "ae", "b", "be", "g", "ge", "l", "le" };
    static const char *const res[RES_COUNT] = { "e", "ne", "s", "ns", "o", "no" };
    static const char *const dbl[DBL_COUNT] = {
        [DBL_one] = "ne", [DBL_ogt] = "a", [DBL_oge] = "ae", [DBL_ueq] = "e", [DBL_ult] = "b",
        [DBL_ule] = "be", [DBL_ord] = "np", [DBL_uno] = "p" };
    Arg inv = *c;
    if (invert && c->kind == ARG_RELCOND)
        inv.cond = (uint8_t)relcond_invert((RelCond)c->cond);
    else if (invert && c->kind == ARG_RESCOND)
        inv.cond = (uint8_t)rescond_invert((ResCond)c->cond);
    else if (invert)
        inv.cond = (uint8_t)doublecond_invert((DoubleCond)c->cond);
    const char *s = inv.kind == ARG_RELCOND ? rel[inv.cond] : inv.kind == ARG_RESCOND ? res[inv.cond]
                                                                                    : dbl[inv.cond];
    return s ? s : "?";
}

/* the mnemonic of each opcode (the whole instruction, or the compare of a fused form) */
typedef enum { SH_RV2, SH_ONE, SH_LAST, SH_NONE, SH_IMUL3, SH_CMPSET, SH_CMOV, SH_BRANCH,
               SH_JUMP, SH_CALL, SH_CHECKED, SH_ROUND } Shape;
typedef struct { LirOp op; const char *mnem; Shape shape; } OpExpect;

static const OpExpect op_expect[] = {
    { LIR_Move, "mov", SH_RV2 }, { LIR_Move32, "mov", SH_RV2 }, { LIR_Store16, "mov", SH_RV2 },
    { LIR_Store8, "mov", SH_RV2 }, { LIR_ZeroExtend8To32, "movzx", SH_RV2 },
    { LIR_SignExtend8To32, "movsx", SH_RV2 }, { LIR_ZeroExtend16To32, "movzx", SH_RV2 },
    { LIR_SignExtend16To32, "movsx", SH_RV2 }, { LIR_SignExtend8To64, "movsx", SH_RV2 },
    { LIR_SignExtend16To64, "movsx", SH_RV2 }, { LIR_SignExtend32To64, "movsxd", SH_RV2 },
    { LIR_Lea32, "lea", SH_RV2 }, { LIR_Lea64, "lea", SH_RV2 }, { LIR_Swap32, "xchg", SH_RV2 },
    { LIR_Swap64, "xchg", SH_RV2 }, { LIR_Push, "push", SH_ONE },
    { LIR_Pop, "pop", SH_ONE },
    { LIR_Add8, "add", SH_RV2 }, { LIR_Add16, "add", SH_RV2 }, { LIR_Add32, "add", SH_RV2 },
    { LIR_Add64, "add", SH_RV2 }, { LIR_Sub8, "sub", SH_RV2 }, { LIR_Sub16, "sub", SH_RV2 },
    { LIR_Sub32, "sub", SH_RV2 }, { LIR_Sub64, "sub", SH_RV2 }, { LIR_And8, "and", SH_RV2 },
    { LIR_And16, "and", SH_RV2 }, { LIR_And32, "and", SH_RV2 }, { LIR_And64, "and", SH_RV2 },
    { LIR_Or8, "or", SH_RV2 }, { LIR_Or16, "or", SH_RV2 }, { LIR_Or32, "or", SH_RV2 },
    { LIR_Or64, "or", SH_RV2 }, { LIR_Xor8, "xor", SH_RV2 }, { LIR_Xor16, "xor", SH_RV2 },
    { LIR_Xor32, "xor", SH_RV2 }, { LIR_Xor64, "xor", SH_RV2 },
    { LIR_Neg8, "neg", SH_ONE }, { LIR_Neg16, "neg", SH_ONE }, { LIR_Neg32, "neg", SH_ONE },
    { LIR_Neg64, "neg", SH_ONE }, { LIR_Not8, "not", SH_ONE }, { LIR_Not16, "not", SH_ONE },
    { LIR_Not32, "not", SH_ONE }, { LIR_Not64, "not", SH_ONE },
    { LIR_Mul16, "imul", SH_RV2 }, { LIR_Mul32, "imul", SH_RV2 }, { LIR_Mul64, "imul", SH_RV2 },
    { LIR_Lshift8, "shl", SH_RV2 }, { LIR_Lshift16, "shl", SH_RV2 }, { LIR_Lshift32, "shl", SH_RV2 },
    { LIR_Lshift64, "shl", SH_RV2 }, { LIR_Rshift8, "sar", SH_RV2 }, { LIR_Rshift16, "sar", SH_RV2 },
    { LIR_Rshift32, "sar", SH_RV2 }, { LIR_Rshift64, "sar", SH_RV2 },
    { LIR_Urshift8, "shr", SH_RV2 }, { LIR_Urshift16, "shr", SH_RV2 },
    { LIR_Urshift32, "shr", SH_RV2 }, { LIR_Urshift64, "shr", SH_RV2 },
    { LIR_RotateLeft32, "rol", SH_RV2 }, { LIR_RotateLeft64, "rol", SH_RV2 },
    { LIR_RotateRight32, "ror", SH_RV2 }, { LIR_RotateRight64, "ror", SH_RV2 },
    { LIR_CountLeadingZeros32, "lzcnt", SH_RV2 }, { LIR_CountLeadingZeros64, "lzcnt", SH_RV2 },
    { LIR_CountTrailingZeros32, "tzcnt", SH_RV2 }, { LIR_CountTrailingZeros64, "tzcnt", SH_RV2 },
    { LIR_PopCount32, "popcnt", SH_RV2 }, { LIR_PopCount64, "popcnt", SH_RV2 },
    { LIR_X86BitScanForward64, "bsf", SH_RV2 }, { LIR_X86BitScanReverse64, "bsr", SH_RV2 },
    { LIR_ByteSwap32, "bswap", SH_ONE }, { LIR_ByteSwap64, "bswap", SH_ONE },
    { LIR_CheckedAdd32, "add", SH_CHECKED }, { LIR_CheckedAdd64, "add", SH_CHECKED },
    { LIR_CheckedSub32, "sub", SH_CHECKED }, { LIR_CheckedSub64, "sub", SH_CHECKED },
    { LIR_CheckedMul32, "imul", SH_CHECKED }, { LIR_CheckedMul64, "imul", SH_CHECKED },
    { LIR_X86Div8, "div", SH_LAST }, { LIR_X86IDiv8, "idiv", SH_LAST },
    { LIR_X86Div16, "div", SH_LAST }, { LIR_X86IDiv16, "idiv", SH_LAST },
    { LIR_X86Div32, "div", SH_LAST }, { LIR_X86IDiv32, "idiv", SH_LAST },
    { LIR_X86Div64, "div", SH_LAST }, { LIR_X86IDiv64, "idiv", SH_LAST },
    { LIR_X86UMulWide64, "mul", SH_LAST }, { LIR_X86IMulWide64, "imul", SH_LAST },
    { LIR_X86ConvertToWord8, "cbw", SH_NONE }, { LIR_X86ConvertToDoubleWord16, "cwd", SH_NONE },
    { LIR_X86ConvertToDoubleWord32, "cdq", SH_NONE }, { LIR_X86ConvertToQuadWord64, "cqo", SH_NONE },
    { LIR_Compare8, "cmp", SH_CMPSET }, { LIR_Compare16, "cmp", SH_CMPSET },
    { LIR_Compare32, "cmp", SH_CMPSET }, { LIR_Compare64, "cmp", SH_CMPSET },
    { LIR_Test32, "test", SH_CMPSET }, { LIR_Test64, "test", SH_CMPSET },
    { LIR_CompareFloat, "ucomiss", SH_CMPSET }, { LIR_CompareDouble, "ucomisd", SH_CMPSET },
    { LIR_MoveConditionally32, "cmp", SH_CMOV }, { LIR_MoveConditionally64, "cmp", SH_CMOV },
    { LIR_MoveConditionallyTest32, "test", SH_CMOV }, { LIR_MoveConditionallyTest64, "test", SH_CMOV },
    { LIR_MoveConditionallyFloat, "ucomiss", SH_CMOV },
    { LIR_MoveConditionallyDouble, "ucomisd", SH_CMOV },
    { LIR_Branch8, "cmp", SH_BRANCH }, { LIR_Branch16, "cmp", SH_BRANCH },
    { LIR_Branch32, "cmp", SH_BRANCH }, { LIR_Branch64, "cmp", SH_BRANCH },
    { LIR_BranchTest32, "test", SH_BRANCH }, { LIR_BranchTest64, "test", SH_BRANCH },
    { LIR_BranchFloat, "ucomiss", SH_BRANCH }, { LIR_BranchDouble, "ucomisd", SH_BRANCH },
    { LIR_Jump, "jmp", SH_JUMP }, { LIR_RetVoid, "ret", SH_NONE }, { LIR_Ret32, "ret", SH_NONE },
    { LIR_Ret64, "ret", SH_NONE }, { LIR_RetFloat, "ret", SH_NONE }, { LIR_RetDouble, "ret", SH_NONE },
    { LIR_Call, "call", SH_CALL }, { LIR_Ud2, "ud2", SH_NONE }, { LIR_Nop, "nop", SH_NONE },
    { LIR_MoveFloat, "movss", SH_RV2 }, { LIR_MoveDouble, "movsd", SH_RV2 },
    { LIR_AddFloat, "addss", SH_RV2 }, { LIR_AddDouble, "addsd", SH_RV2 },
    { LIR_SubFloat, "subss", SH_RV2 }, { LIR_SubDouble, "subsd", SH_RV2 },
    { LIR_MulFloat, "mulss", SH_RV2 }, { LIR_MulDouble, "mulsd", SH_RV2 },
    { LIR_DivFloat, "divss", SH_RV2 }, { LIR_DivDouble, "divsd", SH_RV2 },
    { LIR_MaxFloat, "maxss", SH_RV2 }, { LIR_MaxDouble, "maxsd", SH_RV2 },
    { LIR_MinFloat, "minss", SH_RV2 }, { LIR_MinDouble, "minsd", SH_RV2 },
    { LIR_SqrtFloat, "sqrtss", SH_RV2 }, { LIR_SqrtDouble, "sqrtsd", SH_RV2 },
    { LIR_FloorFloat, "roundss", SH_ROUND }, { LIR_FloorDouble, "roundsd", SH_ROUND },
    { LIR_CeilFloat, "roundss", SH_ROUND }, { LIR_CeilDouble, "roundsd", SH_ROUND },
    { LIR_TruncFloat, "roundss", SH_ROUND }, { LIR_TruncDouble, "roundsd", SH_ROUND },
    { LIR_NearestFloat, "roundss", SH_ROUND }, { LIR_NearestDouble, "roundsd", SH_ROUND },
    { LIR_AndFloat, "andps", SH_RV2 }, { LIR_AndDouble, "andpd", SH_RV2 },
    { LIR_OrFloat, "orps", SH_RV2 }, { LIR_OrDouble, "orpd", SH_RV2 },
    { LIR_XorFloat, "xorps", SH_RV2 }, { LIR_XorDouble, "xorpd", SH_RV2 },
    { LIR_ConvertInt32ToFloat, "cvtsi2ss", SH_RV2 }, { LIR_ConvertInt64ToFloat, "cvtsi2ss", SH_RV2 },
    { LIR_ConvertInt32ToDouble, "cvtsi2sd", SH_RV2 }, { LIR_ConvertInt64ToDouble, "cvtsi2sd", SH_RV2 },
    { LIR_TruncateFloatToInt32, "cvttss2si", SH_RV2 }, { LIR_TruncateFloatToInt64, "cvttss2si", SH_RV2 },
    { LIR_TruncateDoubleToInt32, "cvttsd2si", SH_RV2 }, { LIR_TruncateDoubleToInt64, "cvttsd2si", SH_RV2 },
    { LIR_ConvertFloatToDouble, "cvtss2sd", SH_RV2 }, { LIR_ConvertDoubleToFloat, "cvtsd2ss", SH_RV2 },
    { LIR_Move32ToFloat, "movd", SH_RV2 }, { LIR_MoveFloatTo32, "movd", SH_RV2 },
    { LIR_Move64ToDouble, "movq", SH_RV2 }, { LIR_MoveDoubleTo64, "movq", SH_RV2 },
};

static const OpExpect *find_expect(LirOp op)
{
    for (size_t i = 0; i < sizeof op_expect / sizeof op_expect[0]; i++)
        if (op_expect[i].op == op)
            return &op_expect[i];
    return NULL;
}

static ExpInsn *push_insn(Expect *e, const char *mnem)
{
    ExpInsn *x = &e->insn[e->n++];
    memset(x, 0, sizeof *x);
    snprintf(x->mnem, sizeof x->mnem, "%s", mnem);
    return x;
}

static void push_op(ExpInsn *x, ExpOp op) { x->ops[x->nops++] = op; }

static unsigned sig_width(const LirOverload *o, unsigned i) { return o->args[i].width; }

/* cmp/test/ucomis left, right: the first instruction of a fused form */
static void expect_compare(Expect *e, const char *mnem, const Inst *in, const LirOverload *o)
{
    ExpInsn *x = push_insn(e, mnem);
    push_op(x, exp_arg(&in->args[1], sig_width(o, 1)));
    ExpOp r = exp_arg(&in->args[2], sig_width(o, 2));
    if (r.type == X86_OP_REG && tmp_bank(in->args[2].base) == BANK_FP)
        r.size = 0;
    push_op(x, r);
}

static void expect_rv2(Expect *e, const OpExpect *oe, const Inst *in, const LirOverload *o)
{
    const Arg *src = &in->args[in->nargs == 3 ? 1 : 0], *dst = &in->args[in->nargs - 1];
    const char *mnem = oe->mnem;
    if (in->op == LIR_Move && src->kind == ARG_BIGIMM)
        mnem = "movabs";
    if (in->op == LIR_Move && src->kind == ARG_SYMBOL)
        mnem = "lea";
    if ((in->op == LIR_MoveFloat || in->op == LIR_MoveDouble) && src->kind == ARG_TMP &&
        dst->kind == ARG_TMP)
        mnem = "movaps";
    ExpInsn *x = push_insn(e, mnem);
    unsigned sw = sig_width(o, in->nargs == 3 ? 1 : 0), dw = sig_width(o, in->nargs - 1);
    push_op(x, exp_arg(dst, dw));
    ExpOp s = exp_arg(src, sw);
    if (o->args[0].role == ROLE_USE_ADDR)
        s.size = (uint8_t)(dw / 8);         /* lea: Capstone sizes the address as the dest */
    if (src->kind == ARG_IMM && (in->op >= LIR_Lshift8 && in->op <= LIR_RotateRight64))
        s.size = 1;                         /* shift and rotate counts are imm8 */
    push_op(x, s);
    if (in->nargs == 3) {                   /* imul dst, src, imm */
        ExpOp imm = exp_arg(&in->args[0], sig_width(o, 0));
        push_op(x, imm);
    }
}

/* BMI2's three-operand shifts (src, count, dst): shlx/sarx/shrx dst, src, count, the
 * count register at the operation's width */
static bool expect_shiftx(Expect *e, const OpExpect *oe, const Inst *in, const LirOverload *o)
{
    if (in->nargs != 3 || in->op < LIR_Lshift8 || in->op > LIR_Urshift64)
        return false;
    char m[8];
    snprintf(m, sizeof m, "%sx", !strcmp(oe->mnem, "shl") ? "shl" : !strcmp(oe->mnem, "sar") ? "sar" : "shr");
    ExpInsn *x = push_insn(e, m);
    unsigned w = sig_width(o, 2);
    push_op(x, exp_arg(&in->args[2], w));
    push_op(x, exp_arg(&in->args[0], w));
    push_op(x, exp_arg(&in->args[1], w));
    return true;
}

static bool build_expect(const Inst *in, const LirOverload *o, bool taken_is_next, Expect *e)
{
    const OpExpect *oe = find_expect((LirOp)in->op);
    if (!oe)
        return false;
    e->n = 0;
    if (expect_shiftx(e, oe, in, o))
        return true;
    ExpInsn *x;
    switch (oe->shape) {
    case SH_RV2: expect_rv2(e, oe, in, o); break;
    case SH_ONE: push_op(push_insn(e, oe->mnem), exp_arg(&in->args[0], sig_width(o, 0))); break;
    case SH_LAST:
        push_op(push_insn(e, oe->mnem), exp_arg(&in->args[in->nargs - 1], sig_width(o, in->nargs - 1)));
        break;
    case SH_NONE: push_insn(e, oe->mnem); break;
    case SH_IMUL3: break;
    case SH_CHECKED: /* the operation; jno over the ud2 (its target set once encoded) */
        expect_rv2(e, oe, in, o);
        push_op(push_insn(e, "jno"), (ExpOp){ .type = X86_OP_IMM });
        push_insn(e, "ud2");
        break;
    case SH_ROUND: { /* the rounding immediate: nearest 8, down 9, up 10, toward zero 11 */
        expect_rv2(e, oe, in, o);
        bool flo = in->op == LIR_FloorFloat || in->op == LIR_FloorDouble;
        bool cei = in->op == LIR_CeilFloat || in->op == LIR_CeilDouble;
        bool tru = in->op == LIR_TruncFloat || in->op == LIR_TruncDouble;
        push_op(&e->insn[0], (ExpOp){ .type = X86_OP_IMM, .imm = flo ? 9 : cei ? 10 : tru ? 11 : 8,
                                      .imm_bits = 8, .size = 1 });
        e->insn[0].ops[1].size = 0; /* Capstone sizes a register source as the whole xmm */
        break;
    }
    case SH_CMPSET: {
        char m[16];
        expect_compare(e, oe->mnem, in, o);
        snprintf(m, sizeof m, "set%s", cc_suffix(&in->args[0], false));
        push_op(push_insn(e, m), exp_arg(&in->args[3], 8));
        x = push_insn(e, "movzx");
        push_op(x, exp_arg(&in->args[3], 32));
        push_op(x, exp_arg(&in->args[3], 8));
        break;
    }
    case SH_CMOV: {
        char m[16];
        expect_compare(e, oe->mnem, in, o);
        snprintf(m, sizeof m, "cmov%s", cc_suffix(&in->args[0], false));
        x = push_insn(e, m);
        push_op(x, exp_arg(&in->args[4], 64));
        push_op(x, exp_arg(&in->args[3], 64));
        break;
    }
    case SH_BRANCH: {
        char m[16];
        expect_compare(e, oe->mnem, in, o);
        snprintf(m, sizeof m, "j%s", cc_suffix(&in->args[0], taken_is_next));
        x = push_insn(e, m);
        x->target_is_block2 = true;
        push_op(x, (ExpOp){ .type = X86_OP_IMM });
        break;
    }
    case SH_JUMP:
        x = push_insn(e, "jmp");
        x->target_is_block2 = true;
        push_op(x, (ExpOp){ .type = X86_OP_IMM });
        break;
    case SH_CALL:
        x = push_insn(e, "call");
        if (in->args[0].kind == ARG_SYMBOL && in->args[0].sym_kind == TARGET_HELPER) {
            push_op(x, (ExpOp){ .type = X86_OP_IMM, .imm = 5 }); /* rel32 0, decoded at 0 */
        } else if (in->args[0].kind == ARG_SYMBOL) {
            x->target_is_block2 = true;    /* the entry of function 1 */
            push_op(x, (ExpOp){ .type = X86_OP_IMM });
        } else {
            push_op(x, exp_arg(&in->args[0], 64));
        }
        break;
    }
    return true;
}

/* ---- comparing with Capstone --------------------------------------------------------- */
typedef struct {
    csh cs;
    Arena *arena;
    Code *code;          /* one block, frame base rbp, one assigned slot */
    LirAsm as;
    uint64_t checked;
    char why[256];
} Checker;

static bool op_matches(const ExpOp *e, const cs_x86_op *o, uint64_t block2, char *why, size_t n)
{
    if (o->type != e->type)
        return snprintf(why, n, "operand type %d, expected %d", o->type, e->type), false;
    if (e->type == X86_OP_REG && o->reg != e->reg)
        return snprintf(why, n, "register %d, expected %d", o->reg, e->reg), false;
    if (e->type == X86_OP_IMM) {
        uint64_t mask = e->imm_bits >= 64 || e->imm_bits == 0 ? ~0ull : (1ull << e->imm_bits) - 1;
        uint64_t want = block2 != UINT64_MAX ? block2 : (uint64_t)e->imm;
        if (((uint64_t)o->imm & mask) != (want & mask))
            return snprintf(why, n, "immediate 0x%" PRIx64 ", expected 0x%" PRIx64,
                            (uint64_t)o->imm & mask, want & mask), false;
    }
    if (e->type == X86_OP_MEM) {
        const x86_op_mem *m = &o->mem, *w = &e->mem;
        if (m->base != w->base || m->index != w->index || m->disp != w->disp ||
            (m->index != X86_REG_INVALID && m->scale != w->scale) || m->segment != X86_REG_INVALID)
            return snprintf(why, n, "memory base %d index %d scale %d disp %" PRId64
                            ", expected base %d index %d scale %d disp %" PRId64,
                            m->base, m->index, m->scale, m->disp, w->base, w->index, w->scale,
                            w->disp), false;
    }
    if (e->size && o->size != e->size)
        return snprintf(why, n, "operand size %u, expected %u", o->size, e->size), false;
    return true;
}

static bool insn_matches(const ExpInsn *e, const cs_insn *ci, uint64_t block2, char *why, size_t n)
{
    if (strcmp(ci->mnemonic, e->mnem) != 0)
        return snprintf(why, n, "mnemonic %s, expected %s", ci->mnemonic, e->mnem), false;
    const cs_x86 *x = &ci->detail->x86;
    if (x->op_count != e->nops)
        return snprintf(why, n, "%d operands, expected %d", x->op_count, e->nops), false;
    for (int k = 0; k < e->nops; k++)
        if (!op_matches(&e->ops[k], &x->operands[k], e->target_is_block2 ? block2 : UINT64_MAX, why, n))
            return false;
    return true;
}

static void report(const LirForm *f, const Code *code, const Inst *in, const uint8_t *bytes,
                   size_t size, cs_insn *insn, size_t ninsn, const char *why)
{
    fprintf(stderr, "FAIL: form %s/%u (", lir_op_name((LirOp)f->op), f->nargs);
    for (unsigned i = 0; i < f->nargs; i++) {
        fputs(i ? ", " : "", stderr);
        for (unsigned k = 0, first = 1; k < ARG_KIND_COUNT; k++)
            if (f->args[i].kinds >> k & 1) {
                fprintf(stderr, "%s%s", first ? "" : "|", arg_kind_name((ArgKind)k));
                first = 0;
            }
        if (f->args[i].fixed)
            fprintf(stderr, "=r%u", f->args[i].fixed - 1u);
    }
    fprintf(stderr, ")\n  instruction: ");
    lir_print_inst(stderr, code, in);
    fprintf(stderr, "\n  bytes:");
    for (size_t i = 0; i < size; i++)
        fprintf(stderr, " %02x", bytes[i]);
    fprintf(stderr, "\n  capstone:");
    for (size_t i = 0; i < ninsn; i++)
        fprintf(stderr, " [%s %s]", insn[i].mnemonic, insn[i].op_str);
    fprintf(stderr, "\n  %s\n", why);
}

/* decode bytes and compare the first e->n instructions; block2 is the address the
 * jump-like instruction should reach (UINT64_MAX: found as the address of insn
 * `block2_insn`) */
static bool compare_code(Checker *k, const LirForm *f, const Inst *in, const uint8_t *bytes,
                         size_t size, const Expect *e, int total, uint64_t block2)
{
    cs_insn *insn = NULL;
    size_t n = cs_disasm(k->cs, bytes, size, 0, 0, &insn);
    bool ok = true;
    k->why[0] = 0;
    if ((int)n != total) {
        snprintf(k->why, sizeof k->why, "decoded %zu instructions, expected %d", n, total);
        ok = false;
    }
    size_t decoded = 0;
    for (size_t i = 0; i < n; i++)
        decoded += insn[i].size;
    if (ok && decoded != size) {
        snprintf(k->why, sizeof k->why, "decoded %zu of %zu bytes", decoded, size);
        ok = false;
    }
    for (int i = 0; ok && i < e->n; i++)
        ok = insn_matches(&e->insn[i], &insn[i], block2, k->why, sizeof k->why);
    if (!ok)
        report(f, k->code, in, bytes, size, insn, n, k->why);
    cs_free(insn, n);
    k->checked++;
    return ok;
}

/* ---- one instruction ------------------------------------------------------------------ */
static bool check_traps_relocs(Checker *k, const LirForm *f, const Inst *in)
{
    LirAsm *as = &k->as;
    bool traps = (lir_op_flags((LirOp)in->op) & LF_TRAP) != 0;
    if (traps) {
        bool checked = find_expect((LirOp)in->op)->shape == SH_CHECKED; /* the trap is its ud2 */
        uint8_t want = in->trap          ? in->trap
                       : in->op == LIR_Ud2 ? TRAP_ILLEGAL
                       : checked           ? TRAP_OVERFLOW
                                           : TRAP_DIV0;
        uint32_t at = checked ? as->size - 2 : 0;
        if (as->ntraps != 1 || as->traps[0].offset != at || as->traps[0].kind != want) {
            snprintf(k->why, sizeof k->why, "trap table: %u sites, expected one at %u of kind %u",
                     as->ntraps, at, want);
            goto bad;
        }
    } else if (as->ntraps) {
        snprintf(k->why, sizeof k->why, "trap site for a non-trapping instruction");
        goto bad;
    }
    if (in->nargs && in->args[0].kind == ARG_SYMBOL) { /* lea's disp32 at 3, call's rel32 at 1 */
        const Reloc *r = as->relocs;
        bool call = in->op == LIR_Call;
        if (as->nrelocs != 1 || r->offset != (call ? 1u : 3u) || r->kind != (call ? RELOC_BRANCH : RELOC_PC32) ||
            r->target != in->args[0].sym_kind || r->index != in->args[0].slot ||
            r->addend != in->args[0].value) {
            snprintf(k->why, sizeof k->why, "relocation missing or wrong (%u relocs)", as->nrelocs);
            goto bad;
        }
    } else if (as->nrelocs) {
        snprintf(k->why, sizeof k->why, "unexpected relocation");
        goto bad;
    }
    return true;
bad:
    report(f, k->code, in, as->code, as->size, NULL, 0, k->why);
    return false;
}

static bool check_straight(Checker *k, const LirForm *f, Inst *in)
{
    const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
    Expect e;
    if (!build_expect(in, o, false, &e)) {
        fprintf(stderr, "FAIL: no expectation for %s\n", lir_op_name((LirOp)in->op));
        return false;
    }
    k->as.size = k->as.nrelocs = k->as.ntraps = k->as.nfixups = 0;
    if (!x64_encode_inst(&k->as, k->code, k->code->blocks[0], in)) {
        report(f, k->code, in, NULL, 0, NULL, 0, k->as.err);
        return false;
    }
    if (find_expect((LirOp)in->op)->shape == SH_CHECKED)
        e.insn[1].ops[0].imm = k->as.size; /* jno: to the end, decoded at 0 */
    return compare_code(k, f, in, k->as.code, k->as.size, &e, e.n, UINT64_MAX) &&
           check_traps_relocs(k, f, in);
}

/* control flow through x64_emit: function 0 = [in] -> blocks 1, 2 = [ret], [ret] */
static bool check_control(Checker *k, const LirForm *f, Inst *in, bool taken_is_next)
{
    Arena *a = arena_new();
    Code *c0 = lir_code_new(a, x64_target(), "f", 0), *c1 = lir_code_new(a, x64_target(), "g", 1);
    c0->frame_base = tmp_gp(X64_RBP);
    lir_add_slot(c0, 8, 8, false);
    c0->slots[0].assigned = true;
    c0->slots[0].offset = FRAME_SLOT_OFFSET;
    LirBlock *b0 = lir_add_block(c0, 1), *b1 = lir_add_block(c0, 1), *b2 = lir_add_block(c0, 1);
    lir_insert(c0, b0, 0, in);
    bool is_call = in->op == LIR_Call;
    if (in->op == LIR_Jump) {
        lir_add_succ(c0, b0, 2);
    } else if (!is_call) {
        lir_add_succ(c0, b0, taken_is_next ? 1 : 2);
        lir_add_succ(c0, b0, taken_is_next ? 2 : 1);
    } else {
        lir_append(c0, b0, LIR_RetVoid, 0, NULL);
    }
    lir_append(c0, b1, LIR_RetVoid, 0, NULL);
    lir_append(c0, b2, LIR_RetVoid, 0, NULL);
    lir_append(c1, lir_add_block(c1, 1), LIR_RetVoid, 0, NULL);
    Code *funcs[2] = { c0, c1 };
    CodeBlob blob;
    char err[256];
    bool ok = x64_emit(a, funcs, is_call ? 2 : 1, &blob, err, sizeof err);
    if (!ok) {
        report(f, c0, in, NULL, 0, NULL, 0, err);
    } else {
        Expect e;
        const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
        build_expect(in, o, taken_is_next, &e);
        /* branch/jump: [cmp] jcc ret ret (block 2 = the last ret); call: call ret, pad, ret */
        uint64_t target = is_call ? blob.entry[1] : blob.size - 1;
        uint32_t size = is_call ? blob.entry[1] + 1 : blob.size;
        int total = e.n + (is_call ? 1 + (int)(blob.entry[1] - blob.entry[0] - 6) + 1 : 2);
        ok = compare_code(k, f, in, blob.code, size, &e, total, target);
    }
    arena_free(a);
    return ok;
}

/* ---- candidate arguments ---------------------------------------------------------------- */
enum { MAXCAND = 600 };
typedef struct {
    Arg v[MAXCAND];
    unsigned n;
} Cands;

static const int64_t imm_spread[] = {
    0, 1, -1, 2, 5, 31, 63, 64, 127, 128, -128, -129, 255, 256, 32767, -32768, 32768, 65535,
    0x12345678, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, UINT32_MAX, (int64_t)INT32_MIN - 1,
    INT64_MAX, INT64_MIN, 0x123456789abcdef0ll,
};
static const int64_t disp_spread[] = { 0, 1, -1, 127, 128, -128, -129, INT32_MAX, INT32_MIN };

static void add(Cands *c, Arg a)
{
    if (c->n < MAXCAND)
        c->v[c->n++] = a;
}

static void memory_cands(Cands *c)
{
    for (unsigned b = 0; b < 16; b++)
        for (size_t d = 0; d < sizeof disp_spread / sizeof disp_spread[0]; d++)
            add(c, arg_addr(tmp_gp(b), disp_spread[d]));
    unsigned k = 0;
    for (unsigned b = 0; b < 16; b++)
        for (unsigned x = 0; x < 16; x++, k++)
            if (x != X64_RSP)
                add(c, arg_index(tmp_gp(b), tmp_gp(x), 1u << (k % 4), disp_spread[k % 9]));
    static const unsigned special_base[] = { X64_RSP, X64_RBP, X64_R12, X64_R13 };
    static const unsigned some_index[] = { X64_RAX, X64_R8, X64_R12, X64_R13 };
    for (unsigned b = 0; b < 4; b++)
        for (unsigned x = 0; x < 4; x++)
            for (unsigned s = 0; s < 4; s++)
                add(c, arg_index(tmp_gp(special_base[b]), tmp_gp(some_index[x]), 1u << s, 0));
    add(c, arg_stack(0, 0));
    add(c, arg_stack(0, 8));
    add(c, arg_stack(0, -200));
    add(c, arg_callarg(0));
    add(c, arg_callarg(8));
    add(c, arg_callarg(1000));
}

static void cands_for(const LirForm *f, unsigned i, const LirOverload *o, Cands *c)
{
    const FormArg *fa = &f->args[i];
    Bank bank = (Bank)o->args[i].bank;
    c->n = 0;
    if (fa->kinds & FK_TMP) {
        if (fa->fixed)
            add(c, arg_tmp(tmp_reg(bank, fa->fixed - 1u)));
        else
            for (unsigned r = 0; r < 16; r++)
                add(c, arg_tmp(tmp_reg(bank, r)));
    }
    if (fa->kinds & (FK_IMM | FK_BIGIMM))
        for (size_t k = 0; k < sizeof imm_spread / sizeof imm_spread[0]; k++)
            add(c, (fa->kinds & FK_IMM) ? arg_imm(imm_spread[k]) : arg_bigimm(imm_spread[k]));
    if (fa->kinds & FK_MEM)
        memory_cands(c);
    if (fa->kinds & FK_SYMBOL) {
        add(c, arg_symbol(TARGET_FUNC, 1, 0));
        add(c, arg_symbol(TARGET_HELPER, HELPER_FMOD_F64, 0));
        add(c, arg_symbol(TARGET_FUNC, 1, 16));
    }
    for (unsigned v = 0; v < REL_COUNT && (fa->kinds & FK_RELCOND); v++)
        add(c, arg_relcond((RelCond)v));
    for (unsigned v = 0; v < RES_COUNT && (fa->kinds & FK_RESCOND); v++)
        add(c, arg_rescond((ResCond)v));
    for (unsigned v = 0; v < DBL_COUNT && (fa->kinds & FK_DOUBLECOND); v++)
        add(c, arg_doublecond((DoubleCond)v));
    /* keep what the target accepts in this position (immediate ranges, conditions) */
    unsigned kept = 0;
    for (unsigned k = 0; k < c->n; k++)
        if (x64_target()->arg_ok(f, i, &c->v[k]))
            c->v[kept++] = c->v[k];
    c->n = kept;
}

/* ---- enumerating one form --------------------------------------------------------------- */
typedef struct {
    Checker *k;
    const LirForm *f;
    Cands *cands;
    unsigned long combos;
} FormRun;

static bool is_control(LirOp op)
{
    return (lir_op_flags(op) & LF_BRANCH) || op == LIR_Jump || op == LIR_Call;
}

static bool check_combo(FormRun *r, const unsigned *pick)
{
    Arg args[LIR_MAX_ARGS];
    for (unsigned i = 0; i < r->f->nargs; i++)
        args[i] = r->cands[i].v[pick[i]];
    Inst in = lir_inst((LirOp)r->f->op, r->f->nargs, args);
    in.trap = (r->combos % 3 == 1 && (lir_op_flags((LirOp)in.op) & LF_TRAP)) ? TRAP_OVERFLOW : 0;
    const LirForm *found = lir_find_form(r->k->code->target, &in);
    if (found != r->f) {
        fprintf(stderr, "FAIL: form %s/%u does not accept its own candidate: ",
                lir_op_name((LirOp)r->f->op), r->f->nargs);
        lir_print_inst(stderr, r->k->code, &in);
        fputc('\n', stderr);
        return false;
    }
    r->combos++;
    bool symbol_call = in.op == LIR_Call && in.args[0].kind == ARG_SYMBOL && in.args[0].sym_kind == TARGET_FUNC;
    if (is_control((LirOp)in.op) && (in.op != LIR_Call || symbol_call))
        return check_control(r->k, r->f, &in, r->combos % 2 == 0);
    return check_straight(r->k, r->f, &in);
}

/* every candidate of each position (the others rotating), every pair of register
 * positions in full, or everything when that is small */
static bool enumerate(FormRun *r)
{
    unsigned n = r->f->nargs, pick[LIR_MAX_ARGS] = { 0 };
    unsigned long product = 1;
    for (unsigned i = 0; i < n; i++)
        product *= r->cands[i].n;
    if (product <= 4096) {
        for (unsigned long c = 0; c < product; c++) {
            unsigned long rest = c;
            for (unsigned i = 0; i < n; i++, rest /= r->cands[i - 1].n)
                pick[i] = (unsigned)(rest % r->cands[i].n);
            if (!check_combo(r, pick))
                return false;
        }
        return true;
    }
    unsigned long spin = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned v = 0; v < r->cands[i].n; v++, spin++) {
            for (unsigned j = 0; j < n; j++)
                pick[j] = j == i ? v : (unsigned)((spin * 7 + j * 3) % r->cands[j].n);
            if (!check_combo(r, pick))
                return false;
        }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++) {
            if (r->cands[i].n > 16 || r->cands[j].n > 16 || r->cands[i].n < 2 || r->cands[j].n < 2)
                continue;
            for (unsigned a = 0; a < r->cands[i].n; a++)
                for (unsigned b = 0; b < r->cands[j].n; b++, spin++) {
                    for (unsigned m = 0; m < n; m++)
                        pick[m] = (unsigned)((spin * 5 + m) % r->cands[m].n);
                    pick[i] = a;
                    pick[j] = b;
                    if (!check_combo(r, pick))
                        return false;
                }
        }
    return true;
}

static bool check_form(Checker *k, const LirForm *f)
{
    const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
    if (!o) {
        fprintf(stderr, "FAIL: form %s/%u has no overload\n", lir_op_name((LirOp)f->op), f->nargs);
        return false;
    }
    Cands cands[LIR_MAX_ARGS];
    for (unsigned i = 0; i < f->nargs; i++) {
        cands_for(f, i, o, &cands[i]);
        if (!cands[i].n) {
            fprintf(stderr, "FAIL: form %s/%u: no candidate for argument %u\n",
                    lir_op_name((LirOp)f->op), f->nargs, i);
            return false;
        }
    }
    FormRun r = { k, f, cands, 0 };
    if (f->nargs == 0)
        return check_combo(&r, (unsigned[1]){ 0 });
    return enumerate(&r);
}

int main(void)
{
    Checker k = { 0 };
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &k.cs) != CS_ERR_OK) {
        fprintf(stderr, "FAIL: cs_open\n");
        return 1;
    }
    cs_option(k.cs, CS_OPT_DETAIL, CS_OPT_ON);
    k.arena = arena_new();
    const Target *t = x64_target()->levels[x64_target()->nlevels - 1]; /* every form: the top level */
    k.code = lir_code_new(k.arena, t, "t", 0);
    k.code->frame_base = tmp_gp(X64_RBP);
    lir_add_slot(k.code, 8, 8, false);
    k.code->slots[0].assigned = true;
    k.code->slots[0].offset = FRAME_SLOT_OFFSET;
    lir_add_block(k.code, 1);
    lir_asm_init(&k.as);
    bool ok = true;
    for (uint32_t i = 0; ok && i < t->nforms; i++)
        ok = check_form(&k, &t->forms[i]);
    printf("x86-64 encoder: %" PRIu64 " encodings of %u forms checked against Capstone\n",
           k.checked, t->nforms);
    printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    lir_asm_free(&k.as);
    arena_free(k.arena);
    cs_close(&k.cs);
    return ok ? 0 : 1;
}
