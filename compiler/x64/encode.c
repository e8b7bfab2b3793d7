/* encode.c — x86-64 machine code for one LIR instruction: REX prefixes, ModRM/SIB,
 * disp8/disp32, imm8/16/32/64, the 0x66 operand-size prefix and the SSE mandatory
 * prefixes, chosen by the instruction's form (forms.def).  Jumps and calls leave
 * rel32 fixups, a symbol's address is lea [rip + disp32] (RELOC_PC32) and a call of a
 * helper call rel32 (RELOC_BRANCH), so the code is position-independent; trapping
 * instructions leave trap sites.  Needs every Tmp to be a register and every stack
 * slot assigned. */
#include "x64.h"
#include "cov.h"

#include <stdlib.h>
#include <string.h>

/* ---- the byte buffer (compiler/lir/asm.h) ------------------------------------- */
static void put8(LirAsm *as, unsigned b) { lir_asm_byte(as, b); }
static void put16(LirAsm *as, uint64_t v) { put8(as, v & 0xff); put8(as, (v >> 8) & 0xff); }
static void put32(LirAsm *as, uint64_t v) { put16(as, v & 0xffff); put16(as, (v >> 16) & 0xffff); }
static void put64(LirAsm *as, uint64_t v) { put32(as, v & 0xffffffffu); put32(as, v >> 32); }

/* a rel32 field the layout patches: to a block (jumps) or a function (calls) */
static void add_fixup(LirAsm *as, uint32_t target, bool is_call)
{
    lir_asm_fixup(as, target, is_call ? LIR_FIX_CALL : LIR_FIX_JUMP);
    put32(as, 0);
}

/* ---- operands ---------------------------------------------------------------------- */
typedef struct {
    bool mem;
    unsigned reg;          /* !mem */
    unsigned base, index;  /* mem */
    bool has_index;
    unsigned scale_log;
    int32_t disp;
} Rm;

static bool reg_of(LirAsm *as, Tmp t, unsigned *reg)
{
    *reg = 0;
    if (!tmp_is_reg(t) || tmp_reg_number(t) >= X64_NREGS)
        return lir_asm_fail(as, "operand is not an x86-64 register (unallocated tmp?)");
    *reg = tmp_reg_number(t);
    return true;
}

static bool set_disp(LirAsm *as, Rm *rm, int64_t disp)
{
    if (disp < INT32_MIN || disp > INT32_MAX)
        return lir_asm_fail(as, "displacement %lld does not fit 32 bits", (long long)disp);
    rm->disp = (int32_t)disp;
    return true;
}

static bool stack_rm(LirAsm *as, const Code *code, const Arg *a, Rm *rm)
{
    if (a->slot >= code->nslots || !code->slots[a->slot].assigned)
        return lir_asm_fail(as, "stack slot %u has no frame offset", a->slot);
    if (!reg_of(as, code->frame_base, &rm->base))
        return false;
    return set_disp(as, rm, (int64_t)code->slots[a->slot].offset + a->value);
}

static unsigned scale_log(unsigned s) { return s == 8 ? 3 : s == 4 ? 2 : s == 2 ? 1 : 0; }

/* an argument as the r/m operand (register or memory) */
static bool rm_of(LirAsm *as, const Code *code, const Arg *a, Rm *rm)
{
    memset(rm, 0, sizeof *rm);
    switch ((ArgKind)a->kind) {
    case ARG_TMP:
        return reg_of(as, a->base, &rm->reg);
    case ARG_ADDR:
        rm->mem = true;
        return reg_of(as, a->base, &rm->base) && set_disp(as, rm, a->value);
    case ARG_INDEX:
        rm->mem = rm->has_index = true;
        rm->scale_log = scale_log(a->scale);
        if (!reg_of(as, a->base, &rm->base) || !reg_of(as, a->index, &rm->index))
            return false;
        if (rm->index == X64_RSP)
            return lir_asm_fail(as, "rsp cannot be an index register");
        return set_disp(as, rm, a->disp);
    case ARG_STACK:
        rm->mem = true;
        return stack_rm(as, code, a, rm);
    case ARG_CALLARG:
        rm->mem = true;
        rm->base = X64_RSP;
        return set_disp(as, rm, a->value);
    default:
        return lir_asm_fail(as, "a %s argument is not a register or memory operand",
                    arg_kind_name((ArgKind)a->kind));
    }
}

/* ---- instruction shapes ------------------------------------------------------------ */
typedef struct {
    uint8_t prefix;    /* 0, or 0x66 / 0xf2 / 0xf3 */
    bool w;            /* REX.W */
    bool byte_reg;     /* the ModRM reg field names an 8-bit register */
    bool byte_rm;      /* a register r/m operand is 8-bit */
    uint32_t opcode;   /* 1 to 3 bytes, first byte most significant */
} Op;

static Op op_sized(unsigned width, uint32_t opcode)
{
    Op op = { .opcode = opcode };
    op.prefix = width == 16 ? 0x66 : 0;
    op.w = width == 64;
    op.byte_reg = op.byte_rm = width == 8;
    return op;
}

static void put_opcode(LirAsm *as, uint32_t opcode)
{
    if (opcode > 0xffff)
        put8(as, opcode >> 16);
    if (opcode > 0xff)
        put8(as, (opcode >> 8) & 0xff);
    put8(as, opcode & 0xff);
}

static void count_rex(MachCov *cov, unsigned rex, bool force)
{
    static const uint8_t bits[4] = { X64COV_REX_B, X64COV_REX_X, X64COV_REX_R, X64COV_REX_W };
    for (unsigned i = 0; i < 4; i++)
        if (rex & 1u << i)
            mcov_item(cov, bits[i]);
    if (!rex && force)
        mcov_item(cov, X64COV_REX_BYTE_REG);
}

static void put_rex(LirAsm *as, const Op *op, unsigned reg, const Rm *rm)
{
    unsigned rex = (op->w ? 8 : 0) | ((reg >> 3) & 1) << 2;
    if (rm->mem)
        rex |= (rm->has_index ? ((rm->index >> 3) & 1) << 1 : 0) | ((rm->base >> 3) & 1);
    else
        rex |= (rm->reg >> 3) & 1;
    bool force = (op->byte_reg && reg >= 4 && reg < 8) ||
                 (op->byte_rm && !rm->mem && rm->reg >= 4 && rm->reg < 8);
    if (as->cov)
        count_rex(as->cov, rex, force);
    if (rex || force)
        put8(as, 0x40 | rex);
}

static void count_modrm(MachCov *cov, const Rm *rm, unsigned mod)
{
    static const uint8_t mods[3] = { X64COV_MODRM_BASE, X64COV_MODRM_DISP8, X64COV_MODRM_DISP32 };
    mcov_item(cov, mods[mod]);
    if (mod == 1 && rm->disp == 0)
        mcov_item(cov, X64COV_MODRM_RBP_R13_DISP0);
    if (rm->has_index)
        mcov_item(cov, X64COV_SIB_INDEX_S1 + rm->scale_log);
    else if ((rm->base & 7) == 4)
        mcov_item(cov, X64COV_SIB_RSP_R12_BASE);
}

static void put_modrm(LirAsm *as, unsigned reg, const Rm *rm)
{
    if (!rm->mem) {
        mcov_item(as->cov, X64COV_MODRM_REG);
        put8(as, 0xc0 | (reg & 7) << 3 | (rm->reg & 7));
        return;
    }
    unsigned base = rm->base & 7;
    unsigned mod = (rm->disp == 0 && base != 5) ? 0 : (rm->disp >= -128 && rm->disp <= 127) ? 1 : 2;
    bool sib = rm->has_index || base == 4;
    if (as->cov)
        count_modrm(as->cov, rm, mod);
    put8(as, mod << 6 | (reg & 7) << 3 | (sib ? 4 : base));
    if (sib)
        put8(as, rm->scale_log << 6 | (rm->has_index ? rm->index & 7 : 4) << 3 | base);
    if (mod == 1)
        put8(as, (uint8_t)rm->disp);
    else if (mod == 2)
        put32(as, (uint32_t)rm->disp);
}

/* prefix, REX, opcode, ModRM, SIB, displacement: reg is a register or a /digit */
static void emit_rm(LirAsm *as, Op op, unsigned reg, const Rm *rm)
{
    if (op.prefix)
        put8(as, op.prefix);
    if (op.prefix == 0x66)
        mcov_item(as->cov, X64COV_PREFIX_66);
    put_rex(as, &op, reg, rm);
    put_opcode(as, op.opcode);
    put_modrm(as, reg, rm);
}

/* the immediate class of an operation of width with an immediate of `bytes` */
static void count_imm(LirAsm *as, unsigned width, unsigned bytes)
{
    mcov_item(as->cov, width == 8 ? X64COV_IMM8_OP8 : bytes == 1 ? X64COV_IMM8_SEXT
                       : bytes == 2 ? X64COV_IMM16 : X64COV_IMM32);
}

static void put_imm(LirAsm *as, unsigned bytes, int64_t v)
{
    if (bytes == 1)
        put8(as, (uint64_t)v & 0xff);
    else if (bytes == 2)
        put16(as, (uint64_t)v);
    else
        put32(as, (uint64_t)v);
}

static bool fits8(int64_t v) { return v >= -128 && v <= 127; }

/* an operation with a register or memory operand and an immediate: group opcodes
 * 0x80/0x81/0x83 style (op8, opfull, opimm8 0 if none) */
static void emit_rm_imm(LirAsm *as, unsigned width, uint32_t op8, uint32_t opfull,
                        uint32_t opimm8, unsigned digit, const Rm *rm, int64_t imm)
{
    if (width == 8) {
        emit_rm(as, op_sized(8, op8), digit, rm);
        count_imm(as, 8, 1);
        put_imm(as, 1, imm);
    } else if (opimm8 && fits8(imm)) {
        emit_rm(as, op_sized(width, opimm8), digit, rm);
        count_imm(as, width, 1);
        put_imm(as, 1, imm);
    } else {
        emit_rm(as, op_sized(width, opfull), digit, rm);
        count_imm(as, width, width == 16 ? 2 : 4);
        put_imm(as, width == 16 ? 2 : 4, imm);
    }
}

/* ---- per-encoding emitters ------------------------------------------------------------ */
typedef LirEncode Ctx;

static const Arg *arg(const Ctx *c, unsigned i) { return &c->inst->args[i]; }
static bool is_imm(const Arg *a) { return a->kind == ARG_IMM; }

/* the register number of arg i (a Tmp) */
static bool reg_arg(const Ctx *c, unsigned i, unsigned *reg)
{
    *reg = 0;
    if (arg(c, i)->kind != ARG_TMP)
        return lir_asm_fail(c->as, "argument %u is not a register", i);
    return reg_of(c->as, arg(c, i)->base, reg);
}

/* lea dst, [rip + disp32]: the symbol's address, position-independent (REX.W 8D
 * with ModRM mod 00 r/m 101; the disp32 is the last field, a RELOC_PC32) */
static void enc_lea_symbol(LirAsm *as, const Arg *sym, unsigned dst)
{
    put8(as, 0x48 | ((dst >> 3) & 1) << 2);
    put8(as, 0x8d);
    put8(as, (dst & 7) << 3 | 5);
    lir_asm_reloc(as, sym, RELOC_PC32);
    put32(as, 0);
}

static bool enc_mov_to_reg(const Ctx *c, unsigned w, const Arg *src, unsigned dst)
{
    LirAsm *as = c->as;
    Rm rd = { .reg = dst };
    if (src->kind == ARG_SYMBOL) {
        mcov_item(as->cov, X64COV_LEA_RIP_SYMBOL);
        enc_lea_symbol(as, src, dst);
    } else if (src->kind == ARG_BIGIMM) {
        mcov_item(as->cov, X64COV_MOVABS);
        Op op = { .w = true, .opcode = 0xb8 + (dst & 7) };
        put_rex(as, &op, 0, &rd);
        put_opcode(as, op.opcode);
        put64(as, (uint64_t)src->value);
    } else if (is_imm(src) && w == 32) {
        mcov_item(as->cov, X64COV_MOV_R32_IMM32);
        Op op = { .opcode = 0xb8 + (dst & 7) };
        put_rex(as, &op, 0, &rd);
        put_opcode(as, op.opcode);
        put32(as, (uint64_t)src->value);
    } else if (is_imm(src)) {
        mcov_item(as->cov, X64COV_MOV_R64_SIMM32);
        emit_rm(as, op_sized(w, 0xc7), 0, &rd);
        put32(as, (uint64_t)src->value);
    } else {
        Rm rs;
        if (!rm_of(as, c->code, src, &rs))
            return false;
        emit_rm(as, op_sized(w, rs.mem ? 0x8b : 0x89), rs.mem ? dst : rs.reg, rs.mem ? &rs : &rd);
    }
    return true;
}

static bool enc_mov(const Ctx *c)
{
    unsigned w = c->form->width, reg;
    const Arg *src = arg(c, 0), *dst = arg(c, 1);
    if (dst->kind == ARG_TMP)
        return reg_arg(c, 1, &reg) && enc_mov_to_reg(c, w, src, reg);
    Rm rm;
    if (!rm_of(c->as, c->code, dst, &rm))
        return false;
    if (is_imm(src)) {
        emit_rm(c->as, op_sized(w, w == 8 ? 0xc6 : 0xc7), 0, &rm);
        count_imm(c->as, w, w == 8 ? 1 : w == 16 ? 2 : 4);
        put_imm(c->as, w == 8 ? 1 : w == 16 ? 2 : 4, src->value);
        return true;
    }
    if (!reg_arg(c, 0, &reg))
        return false;
    emit_rm(c->as, op_sized(w, w == 8 ? 0x88 : 0x89), reg, &rm);
    return true;
}

/* op r/m, reg (base opcode) or op reg, r/m (base + 2) for the classic ALU group */
static bool emit_alu(const Ctx *c, unsigned group, unsigned w, const Arg *src, const Arg *dst)
{
    Rm rm;
    unsigned reg;
    if (is_imm(src)) {
        if (!rm_of(c->as, c->code, dst, &rm))
            return false;
        emit_rm_imm(c->as, w, 0x80, 0x81, 0x83, group, &rm, src->value);
        return true;
    }
    uint32_t base = group * 8 + (w == 8 ? 0 : 1);
    if (src->kind == ARG_TMP) {   /* op r/m, reg */
        if (!rm_of(c->as, c->code, dst, &rm) || !reg_of(c->as, src->base, &reg))
            return false;
        emit_rm(c->as, op_sized(w, base), reg, &rm);
        return true;
    }
    if (!rm_of(c->as, c->code, src, &rm) || dst->kind != ARG_TMP || !reg_of(c->as, dst->base, &reg))
        return lir_asm_fail(c->as, "ALU operation needs a register operand");
    emit_rm(c->as, op_sized(w, base + 2), reg, &rm);
    return true;
}

static bool enc_alu(const Ctx *c) { return emit_alu(c, c->form->param, c->form->width, arg(c, 0), arg(c, 1)); }

static bool enc_ext(const Ctx *c)
{
    Rm rm;
    unsigned dst;
    if (!rm_of(c->as, c->code, arg(c, 0), &rm) || !reg_arg(c, 1, &dst))
        return false;
    Op op = op_sized(c->form->width, c->form->param);
    op.byte_reg = false;
    op.byte_rm = c->form->param == 0x0fb6 || c->form->param == 0x0fbe;
    emit_rm(c->as, op, dst, &rm);
    return true;
}

static bool enc_lea(const Ctx *c)
{
    Rm rm;
    unsigned dst;
    if (!rm_of(c->as, c->code, arg(c, 0), &rm) || !reg_arg(c, 1, &dst))
        return false;
    if (!rm.mem)
        return lir_asm_fail(c->as, "lea needs a memory operand");
    emit_rm(c->as, op_sized(c->form->width, 0x8d), dst, &rm);
    return true;
}

static bool enc_xchg(const Ctx *c)
{
    unsigned a, b;
    if (!reg_arg(c, 0, &a) || !reg_arg(c, 1, &b))
        return false;
    Rm rm = { .reg = b };
    emit_rm(c->as, op_sized(c->form->width, 0x87), a, &rm);
    return true;
}

static bool enc_push_pop(const Ctx *c, unsigned base)
{
    unsigned reg;
    if (!reg_arg(c, 0, &reg))
        return false;
    if (reg >= 8)
        put8(c->as, 0x41);
    put8(c->as, base + (reg & 7));
    return true;
}

static bool enc_unary(const Ctx *c)
{
    Rm rm;
    unsigned w = c->form->width;
    if (!rm_of(c->as, c->code, arg(c, 0), &rm))
        return false;
    emit_rm(c->as, op_sized(w, w == 8 ? 0xf6 : 0xf7), c->form->param, &rm);
    return true;
}

static bool enc_imul(const Ctx *c)
{
    Rm rm;
    unsigned dst, w = c->form->width;
    bool three = c->inst->nargs == 3;
    if (!rm_of(c->as, c->code, arg(c, three ? 1 : 0), &rm) || !reg_arg(c, three ? 2 : 1, &dst))
        return false;
    if (!three) {
        emit_rm(c->as, op_sized(w, 0x0faf), dst, &rm);
        return true;
    }
    int64_t imm = arg(c, 0)->value;
    emit_rm(c->as, op_sized(w, fits8(imm) ? 0x6b : 0x69), dst, &rm);
    count_imm(c->as, w, fits8(imm) ? 1 : w == 16 ? 2 : 4);
    put_imm(c->as, fits8(imm) ? 1 : w == 16 ? 2 : 4, imm);
    return true;
}

static bool enc_shift(const Ctx *c)
{
    Rm rm;
    unsigned w = c->form->width;
    if (!rm_of(c->as, c->code, arg(c, 1), &rm))
        return false;
    mcov_item(c->as->cov, is_imm(arg(c, 0)) ? X64COV_SHIFT_IMM : X64COV_SHIFT_CL);
    if (is_imm(arg(c, 0))) {
        emit_rm(c->as, op_sized(w, w == 8 ? 0xc0 : 0xc1), c->form->param, &rm);
        put8(c->as, (uint64_t)arg(c, 0)->value & 0xff);
    } else {
        emit_rm(c->as, op_sized(w, w == 8 ? 0xd2 : 0xd3), c->form->param, &rm);
    }
    return true;
}

static bool enc_div(const Ctx *c)
{
    Rm rm;
    unsigned w = c->form->width;
    if (!rm_of(c->as, c->code, arg(c, c->inst->nargs - 1), &rm))
        return false;
    lir_asm_trap(c->as, c->as->size, c->inst->trap ? c->inst->trap : TRAP_DIV0);
    emit_rm(c->as, op_sized(w, w == 8 ? 0xf6 : 0xf7), c->form->param, &rm);
    return true;
}

static bool enc_bytes(const Ctx *c)
{
    uint32_t p = c->form->param;
    if (c->inst->op == LIR_Ud2)
        lir_asm_trap(c->as, c->as->size, c->inst->trap ? c->inst->trap : TRAP_ILLEGAL);
    for (unsigned i = 0; i < (p >> 24); i++)
        put8(c->as, (p >> (8 * i)) & 0xff);
    return true;
}

/* flags from comparing left with right (cmp, test, ucomiss, ucomisd) */
static bool emit_compare(const Ctx *c, const Arg *l, const Arg *r)
{
    unsigned w = c->form->width, reg;
    Rm rm;
    switch ((X64CompareKind)c->form->param) {
    case X64_CMP:
        if (is_imm(r) || r->kind == ARG_TMP || l->kind != ARG_TMP)
            return emit_alu(c, 7, w, r, l);           /* cmp l, r */
        if (!rm_of(c->as, c->code, r, &rm) || !reg_of(c->as, l->base, &reg))
            return false;
        emit_rm(c->as, op_sized(w, w == 8 ? 0x3a : 0x3b), reg, &rm);
        return true;
    case X64_TEST:
        if (!rm_of(c->as, c->code, l, &rm))
            return false;
        if (is_imm(r)) {
            emit_rm_imm(c->as, w, 0xf6, 0xf7, 0, 0, &rm, r->value);
            return true;
        }
        if (r->kind != ARG_TMP || !reg_of(c->as, r->base, &reg))
            return lir_asm_fail(c->as, "test needs a register or immediate right operand");
        emit_rm(c->as, op_sized(w, w == 8 ? 0x84 : 0x85), reg, &rm);
        return true;
    case X64_UCOMISS: case X64_UCOMISD:
        if (l->kind != ARG_TMP || !reg_of(c->as, l->base, &reg) || !rm_of(c->as, c->code, r, &rm))
            return lir_asm_fail(c->as, "ucomis needs a register left operand");
        emit_rm(c->as, (Op){ .prefix = c->form->param == X64_UCOMISD ? 0x66 : 0, .opcode = 0x0f2e },
                reg, &rm);
        return true;
    }
    return lir_asm_fail(c->as, "unknown compare kind");
}

static bool cond_of(const Ctx *c, int *cc)
{
    *cc = x64_cond_code(arg(c, 0));
    return *cc >= 0 || lir_asm_fail(c->as, "condition has no single x86-64 condition code");
}

static bool enc_cmpset(const Ctx *c)
{
    int cc;
    unsigned dst;
    if (!cond_of(c, &cc) || !reg_arg(c, 3, &dst) || !emit_compare(c, arg(c, 1), arg(c, 2)))
        return false;
    Rm rd = { .reg = dst };
    emit_rm(c->as, (Op){ .byte_rm = true, .opcode = 0x0f90 + (unsigned)cc }, 0, &rd);
    emit_rm(c->as, (Op){ .byte_rm = true, .opcode = 0x0fb6 }, dst, &rd);
    return true;
}

static bool enc_cmov(const Ctx *c)
{
    int cc;
    unsigned dst;
    Rm rm;
    if (!cond_of(c, &cc) || !reg_arg(c, 4, &dst) || !rm_of(c->as, c->code, arg(c, 3), &rm) ||
        !emit_compare(c, arg(c, 1), arg(c, 2)))
        return false;
    emit_rm(c->as, (Op){ .w = true, .opcode = 0x0f40 + (unsigned)cc }, dst, &rm);
    return true;
}

static void emit_jcc(LirAsm *as, unsigned cc, uint32_t block)
{
    put8(as, 0x0f);
    put8(as, 0x80 + cc);
    add_fixup(as, block, false);
}

static void emit_jmp(LirAsm *as, uint32_t block)
{
    mcov_item(as->cov, X64COV_JMP);
    put8(as, 0xe9);
    add_fixup(as, block, false);
}

static bool enc_branch(const Ctx *c)
{
    int cc;
    const LirBlock *b = c->block;
    if (!b || b->nsuccs != 2)
        return lir_asm_fail(c->as, "a branch needs a block with two successors");
    if (!cond_of(c, &cc) || !emit_compare(c, arg(c, 1), arg(c, 2)))
        return false;
    uint32_t next = b->index + 1, taken = b->succs[0], not_taken = b->succs[1];
    if (taken == next) {
        mcov_item(c->as->cov, X64COV_JCC_INVERTED);
        emit_jcc(c->as, (unsigned)cc ^ 1, not_taken);
        return true;
    }
    emit_jcc(c->as, (unsigned)cc, taken);
    mcov_item(c->as->cov, not_taken == next ? X64COV_JCC_FALLTHROUGH : X64COV_JCC_JMP);
    if (not_taken != next)
        emit_jmp(c->as, not_taken);
    return true;
}

static bool enc_jump(const Ctx *c)
{
    const LirBlock *b = c->block;
    if (!b || b->nsuccs != 1)
        return lir_asm_fail(c->as, "a jump needs a block with one successor");
    if (b->succs[0] != b->index + 1)
        emit_jmp(c->as, b->succs[0]);
    else
        mcov_item(c->as->cov, X64COV_JUMP_ELIDED);
    return true;
}

static bool enc_call(const Ctx *c)
{
    const Arg *t = arg(c, 0);
    mcov_item(c->as->cov, t->kind != ARG_SYMBOL ? X64COV_CALL_INDIRECT
                          : t->sym_kind == TARGET_HELPER ? X64COV_CALL_HELPER : X64COV_CALL_FUNCTION);
    if (t->kind == ARG_SYMBOL && t->sym_kind == TARGET_HELPER) {
        put8(c->as, 0xe8);          /* call rel32 to the helper: a RELOC_BRANCH */
        lir_asm_reloc(c->as, t, RELOC_BRANCH);
        put32(c->as, 0);
        return true;
    }
    if (t->kind == ARG_SYMBOL) {
        put8(c->as, 0xe8);
        add_fixup(c->as, t->slot, true);
        return true;
    }
    Rm rm;
    if (!rm_of(c->as, c->code, t, &rm))
        return false;
    emit_rm(c->as, (Op){ .opcode = 0xff }, 2, &rm);
    return true;
}

static bool enc_sse(const Ctx *c)
{
    uint32_t p = c->form->param;
    Op op = { .prefix = (p >> 8) & 0xff, .w = (p & X64_SSE_W) != 0, .opcode = 0x0f00 | (p & 0xff) };
    bool store = (p & X64_SSE_STORE) != 0;
    Rm rm;
    unsigned reg;
    if (!rm_of(c->as, c->code, arg(c, store ? 1 : 0), &rm) || !reg_arg(c, store ? 0 : 1, &reg))
        return false;
    emit_rm(c->as, op, reg, &rm);
    return true;
}

static bool enc_fmov(const Ctx *c)
{
    const Arg *src = arg(c, 0), *dst = arg(c, 1);
    Rm rm;
    unsigned reg;
    if (src->kind == ARG_TMP && dst->kind == ARG_TMP) {
        if (!rm_of(c->as, c->code, src, &rm) || !reg_arg(c, 1, &reg))
            return false;
        emit_rm(c->as, (Op){ .opcode = 0x0f28 }, reg, &rm);   /* movaps: the whole register */
        return true;
    }
    bool store = dst->kind != ARG_TMP;
    if (!rm_of(c->as, c->code, store ? dst : src, &rm) || !reg_arg(c, store ? 0 : 1, &reg))
        return false;
    emit_rm(c->as, (Op){ .prefix = (uint8_t)c->form->param, .opcode = store ? 0x0f11 : 0x0f10 }, reg, &rm);
    return true;
}

/* ---- bit counts, byte swaps, overflow checks, wide multiplies, rounding ------------------ */
/* op r, r/m (src, dst) with a mandatory prefix (lzcnt tzcnt popcnt bsf bsr) */
static bool enc_bitop(const Ctx *c)
{
    uint32_t p = c->form->param;
    Op op = op_sized(c->form->width, p & 0xffff);
    op.prefix = (uint8_t)(p >> 16);
    Rm rm;
    unsigned dst;
    if (!rm_of(c->as, c->code, arg(c, 0), &rm) || !reg_arg(c, 1, &dst))
        return false;
    emit_rm(c->as, op, dst, &rm);
    return true;
}

static bool enc_bswap(const Ctx *c)
{
    unsigned reg;
    if (!reg_arg(c, 0, &reg))
        return false;
    if (c->form->width == 64 || reg >= 8)
        put8(c->as, 0x40 | (c->form->width == 64 ? 8 : 0) | (reg >> 3));
    put8(c->as, 0x0f);
    put8(c->as, 0xc8 + (reg & 7));
    return true;
}

/* add/sub/imul src, dst; jno over the ud2 that traps with the instruction's kind */
static bool enc_checked(const Ctx *c)
{
    unsigned w = c->form->width, dst;
    Rm rm;
    if (c->form->param != 8) {
        if (!emit_alu(c, c->form->param, w, arg(c, 0), arg(c, 1)))
            return false;
    } else {
        if (!rm_of(c->as, c->code, arg(c, 0), &rm) || !reg_arg(c, 1, &dst))
            return false;
        emit_rm(c->as, op_sized(w, 0x0faf), dst, &rm);
    }
    put8(c->as, 0x71); /* jno +2 */
    put8(c->as, 0x02);
    lir_asm_trap(c->as, c->as->size, c->inst->trap ? c->inst->trap : TRAP_OVERFLOW);
    put8(c->as, 0x0f); /* ud2 */
    put8(c->as, 0x0b);
    return true;
}

/* mul/imul r/m: the source is the last argument, rax and rdx are implied */
static bool enc_mulwide(const Ctx *c)
{
    Rm rm;
    if (!rm_of(c->as, c->code, arg(c, c->inst->nargs - 1), &rm))
        return false;
    emit_rm(c->as, op_sized(c->form->width, 0xf7), c->form->param, &rm);
    return true;
}

static bool enc_round(const Ctx *c)
{
    uint32_t p = c->form->param;
    Rm rm;
    unsigned dst;
    if (!rm_of(c->as, c->code, arg(c, 0), &rm) || !reg_arg(c, 1, &dst))
        return false;
    emit_rm(c->as, (Op){ .prefix = 0x66, .opcode = 0x0f3a00 | (p & 0xff) }, dst, &rm);
    put8(c->as, (p >> 8) & 0xff);
    return true;
}

/* shlx/sarx/shrx (src, count, dst): VEX.LZ.pp.0F38.W F7 /r, the count in VEX.vvvv */
static bool enc_shiftx(const Ctx *c)
{
    unsigned src, count, dst, p = c->form->param;
    if (!reg_arg(c, 0, &src) || !reg_arg(c, 1, &count) || !reg_arg(c, 2, &dst))
        return false;
    unsigned pp = p == 0x66 ? 1 : p == 0xf3 ? 2 : 3;
    put8(c->as, 0xc4);
    put8(c->as, (~dst >> 3 & 1) << 7 | 1 << 6 | (~src >> 3 & 1) << 5 | 0x02);
    put8(c->as, (c->form->width == 64 ? 0x80 : 0) | (~count & 15) << 3 | pp);
    put8(c->as, 0xf7);
    put8(c->as, 0xc0 | (dst & 7) << 3 | (src & 7));
    return true;
}

static bool dispatch(const Ctx *c)
{
    switch ((X64Encoding)c->form->enc) {
    case X64E_MOV: return enc_mov(c);
    case X64E_ALU: return enc_alu(c);
    case X64E_EXT: return enc_ext(c);
    case X64E_LEA: return enc_lea(c);
    case X64E_XCHG: return enc_xchg(c);
    case X64E_PUSH: return enc_push_pop(c, 0x50);
    case X64E_POP: return enc_push_pop(c, 0x58);
    case X64E_UNARY: return enc_unary(c);
    case X64E_IMUL: return enc_imul(c);
    case X64E_SHIFT: return enc_shift(c);
    case X64E_DIV: return enc_div(c);
    case X64E_BYTES: return enc_bytes(c);
    case X64E_CMPSET: return enc_cmpset(c);
    case X64E_CMOV: return enc_cmov(c);
    case X64E_BRANCH: return enc_branch(c);
    case X64E_JUMP: return enc_jump(c);
    case X64E_RET: put8(c->as, 0xc3); return true;
    case X64E_CALL: return enc_call(c);
    case X64E_SSE: return enc_sse(c);
    case X64E_FMOV: return enc_fmov(c);
    case X64E_BITOP: return enc_bitop(c);
    case X64E_BSWAP: return enc_bswap(c);
    case X64E_CHECKED: return enc_checked(c);
    case X64E_MULWIDE: return enc_mulwide(c);
    case X64E_ROUND: return enc_round(c);
    case X64E_SHIFTX: return enc_shiftx(c);
    case X64E_COUNT: break;
    }
    return lir_asm_fail(c->as, "form has no encoder");
}

bool x64_encode_inst(LirAsm *as, const Code *code, const LirBlock *block, const Inst *inst)
{
    if (as->failed)
        return false;
    const LirForm *form = code && code->target && code->target->isa == ISA_X64 ? lir_code_find_form(code, inst)
                                                                 : lir_find_form(x64_target(), inst);
    if (!form)
        return lir_asm_fail(as, "%s: no x86-64 form takes these arguments",
                    lir_op_name((LirOp)inst->op));
    Ctx c = { as, code, block, inst, form };
    uint32_t size = as->size, nfixups = as->nfixups, nrelocs = as->nrelocs, ntraps = as->ntraps;
    if (as->cov)
        mcov_inst(as->cov, code && code->target ? code->target : x64_target(), form, inst);
    if (!dispatch(&c) || as->failed) {   /* leave nothing of a refused instruction */
        as->size = size;
        as->nfixups = nfixups;
        as->nrelocs = nrelocs;
        as->ntraps = ntraps;
        return false;
    }
    return true;
}
