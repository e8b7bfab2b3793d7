/* encode.c — ARM64 machine code for one LIR instruction, chosen by its form
 * (forms.def) and built from the instruction words of insn.h.  Large immediates go through
 * a64_mov_imm, memory offsets that fit neither the scaled nor the unscaled form
 * through x17, a symbol's address through adrp + add (RELOC_PAGE21, RELOC_LO12: the
 * code is position-independent), a helper's call through bl (RELOC_BRANCH).
 * Branches to blocks and calls of the module's functions become
 * fixups (the module layout resolves them; a conditional branch marked long becomes an
 * inverted branch over a b).  Ud2 is brk with a trap-table entry.  Needs every Tmp
 * to be a register and every stack slot assigned. */
#include "a64.h"
#include "cov.h"

#include <stdlib.h>
#include <string.h>

/* ---- the buffer (compiler/lir/asm.h) ------------------------------------------ */
/* an encoder's word: A64_BAD means the operands were not encodable */
static bool word(LirAsm *as, uint32_t w)
{
    if (w == A64_BAD)
        return lir_asm_fail(as, "operands not encodable");
    lir_asm_word(as, w);
    return !as->failed;
}

/* the symbol's address into rd, position-independent: adrp rd, sym (RELOC_PAGE21);
 * add rd, rd, :lo12:sym (RELOC_LO12) */
static bool load_symbol(LirAsm *as, int rd, const Arg *sym)
{
    mcov_item(as->cov, A64COV_ADRP_ADD);
    lir_asm_reloc(as, sym, RELOC_PAGE21);
    word(as, a64_adrp(rd, 0));
    lir_asm_reloc(as, sym, RELOC_LO12);
    return word(as, a64_add_imm(1, rd, rd, 0, 0));
}

static bool mov_imm(LirAsm *as, int sf, int rd, uint64_t v)
{
    uint32_t w[A64_MOV_IMM_MAX];
    int n = a64_mov_imm(sf, rd, v, w);
    if (n == 0)
        return lir_asm_fail(as, "cannot build a constant in register %d", rd);
    if (as->cov)
        mcov_item(as->cov, n > 1 ? A64COV_MOV_2 + (unsigned)(n - 2)
                           : (w[0] & 0x7f800000u) == 0x52800000u ? A64COV_MOVZ
                           : (w[0] & 0x7f800000u) == 0x12800000u ? A64COV_MOVN : A64COV_MOV_ORR);
    for (int i = 0; i < n; i++)
        word(as, w[i]);
    return !as->failed;
}

/* ---- operands -------------------------------------------------------------------- */
typedef LirEncode Ctx;

static const Arg *arg(const Ctx *c, unsigned i) { return &c->inst->args[i]; }
static int sf_of(const Ctx *c) { return c->form->width == 64; }

static bool reg_num(LirAsm *as, Tmp t, int *r)
{
    *r = 0;
    if (!tmp_is_reg(t) || tmp_reg_number(t) >= A64_LIR_NREGS)
        return lir_asm_fail(as, "operand is not an ARM64 register (unallocated tmp?)");
    *r = (int)tmp_reg_number(t);
    return true;
}

static int reg(const Ctx *c, unsigned i)
{
    int r;
    reg_num(c->as, arg(c, i)->base, &r);
    return r;
}

/* a memory operand: base (31 = sp) + (index << shift) + offset */
typedef struct {
    int base, index;   /* index -1 if none */
    unsigned shift;
    int64_t offset;
} Mem;

static unsigned log2_of(unsigned s) { return s == 8 ? 3 : s == 4 ? 2 : s == 2 ? 1 : 0; }

static bool mem_of(const Ctx *c, const Arg *a, Mem *m)
{
    memset(m, 0, sizeof *m);
    m->index = -1;
    m->offset = arg_offset(a);
    switch ((ArgKind)a->kind) {
    case ARG_ADDR:
        return reg_num(c->as, a->base, &m->base);
    case ARG_INDEX:
        m->shift = log2_of(a->scale);
        return reg_num(c->as, a->base, &m->base) && reg_num(c->as, a->index, &m->index);
    case ARG_STACK:
        if (a->slot >= c->code->nslots || !c->code->slots[a->slot].assigned)
            return lir_asm_fail(c->as, "stack slot %u has no frame offset", a->slot);
        m->offset += c->code->slots[a->slot].offset;
        return reg_num(c->as, c->code->frame_base, &m->base);
    case ARG_CALLARG:
        m->base = A64_SP;
        return true;
    default:
        return lir_asm_fail(c->as, "a %s argument is not a memory operand", arg_kind_name((ArgKind)a->kind));
    }
}

/* rd := rn + (rm << shift); rn may be sp (then the extended form) */
static bool add_shifted(LirAsm *as, int rd, int rn, int rm, unsigned shift)
{
    if (rn == A64_SP || rd == A64_SP)
        mcov_item(as->cov, A64COV_ADDSUB_EXT_SP);
    if (rn == A64_SP || rd == A64_SP)
        return word(as, a64_add_ext(1, rd, rn, rm, A64_UXTX, (int)shift));
    return word(as, a64_add_reg(1, rd, rn, rm, A64_LSL, (int)shift));
}

/* rd := base + offset (large offsets through x17) */
static bool add_offset(LirAsm *as, int rd, int base, int64_t off)
{
    if (a64_addsub_imm_ok((uint64_t)off)) {
        mcov_item(as->cov, off >= 4096 ? A64COV_ADDSUB_IMM12_LSL12 : A64COV_ADDSUB_IMM12);
        return word(as, a64_add_imm(1, rd, base, (uint32_t)(off >= 4096 ? off >> 12 : off), off >= 4096));
    }
    if (off < 0 && a64_addsub_imm_ok(-(uint64_t)off)) {
        uint64_t n = -(uint64_t)off;
        mcov_item(as->cov, A64COV_ADDSUB_NEGATED);
        return word(as, a64_sub_imm(1, rd, base, (uint32_t)(n >= 4096 ? n >> 12 : n), n >= 4096));
    }
    mcov_item(as->cov, A64COV_ADD_OFFSET_X17);
    return mov_imm(as, 1, A64_SCRATCH1, (uint64_t)off) && add_shifted(as, rd, base, A64_SCRATCH1, 0);
}

/* rd := the address of m (uses x17 for large offsets with an index) */
static bool address(LirAsm *as, int rd, const Mem *m)
{
    if (m->index < 0)
        return add_offset(as, rd, m->base, m->offset);
    if (m->offset == 0)
        return add_shifted(as, rd, m->base, m->index, m->shift);
    return mov_imm(as, 1, A64_SCRATCH1, (uint64_t)m->offset) &&
           add_shifted(as, A64_SCRATCH1, m->base, A64_SCRATCH1, 0) &&
           add_shifted(as, rd, A64_SCRATCH1, m->index, m->shift);
}

/* one load or store of rt at m */
static bool ldst(LirAsm *as, A64LdSt kind, int rt, const Mem *m)
{
    int size = a64_ldst_size(kind);
    if (m->index < 0) {
        bool scaled = m->offset >= 0 && m->offset % size == 0 && m->offset / size < 4096;
        if (a64_ldst_offset_ok(kind, m->offset)) {
            mcov_item(as->cov, scaled ? A64COV_LDST_SCALED : A64COV_LDST_UNSCALED);
            return word(as, a64_ldst_offset(kind, rt, m->base, m->offset));
        }
        mcov_item(as->cov, A64COV_LDST_X17_OFFSET);
        return mov_imm(as, 1, A64_SCRATCH1, (uint64_t)m->offset) &&
               word(as, a64_ldst_reg(kind, rt, m->base, A64_SCRATCH1, A64_UXTX, 0));
    }
    if (m->offset == 0 && (m->shift == 0 || (1 << m->shift) == size)) {
        mcov_item(as->cov, m->shift ? A64COV_LDST_REG_SCALED : A64COV_LDST_REG);
        return word(as, a64_ldst_reg(kind, rt, m->base, m->index, A64_UXTX, m->shift != 0));
    }
    mcov_item(as->cov, A64COV_LDST_ADDR_X17);
    return address(as, A64_SCRATCH1, m) && word(as, a64_ldst_uimm(kind, rt, A64_SCRATCH1, 0));
}

static bool ldst_arg(const Ctx *c, A64LdSt kind, int rt, const Arg *a)
{
    Mem m;
    return mem_of(c, a, &m) && ldst(c->as, kind, rt, &m);
}

/* ---- moves ----------------------------------------------------------------------- */
static A64LdSt store_kind(unsigned w)
{
    return w == 64 ? A64_STR_X : w == 32 ? A64_STR_W : w == 16 ? A64_STRH : A64_STRB;
}

static bool enc_mov(const Ctx *c)
{
    const Arg *src = arg(c, 0), *dst = arg(c, 1);
    int sf = sf_of(c);
    uint64_t mask = c->form->width == 64 ? ~0ull : (1ull << c->form->width) - 1;
    if (arg_is_memory(dst)) {
        int rt = A64_ZR;
        if (src->kind != ARG_TMP && ((uint64_t)src->value & mask) == 0)
            mcov_item(c->as->cov, A64COV_STORE_ZR);
        if (src->kind == ARG_TMP)
            rt = reg(c, 0);
        else if (((uint64_t)src->value & mask) != 0) {
            rt = A64_SCRATCH0;
            if (!mov_imm(c->as, sf, rt, (uint64_t)src->value & mask))
                return false;
        }
        return ldst_arg(c, store_kind(c->form->width), rt, dst);
    }
    int rd = reg(c, 1);
    switch ((ArgKind)src->kind) {
    case ARG_TMP:
        if (rd == A64_LIR_SP || reg(c, 0) == A64_LIR_SP)
            return word(c->as, a64_mov_sp(sf, rd, reg(c, 0)));
        return word(c->as, a64_mov_reg(sf, rd, reg(c, 0)));
    case ARG_IMM: case ARG_BIGIMM:
        return mov_imm(c->as, sf, rd, (uint64_t)src->value & mask);
    case ARG_SYMBOL:
        return load_symbol(c->as, rd, src);
    default:
        return ldst_arg(c, sf ? A64_LDR_X : A64_LDR_W, rd, src);
    }
}

static bool enc_ext(const Ctx *c)
{
    static const A64LdSt load[] = {
        [A64_EXT_Z8_32] = A64_LDRB, [A64_EXT_S8_32] = A64_LDRSB_W, [A64_EXT_Z16_32] = A64_LDRH,
        [A64_EXT_S16_32] = A64_LDRSH_W, [A64_EXT_S8_64] = A64_LDRSB_X,
        [A64_EXT_S16_64] = A64_LDRSH_X, [A64_EXT_S32_64] = A64_LDRSW,
    };
    int rd = reg(c, 1);
    if (arg(c, 0)->kind != ARG_TMP)
        return ldst_arg(c, load[c->form->param], rd, arg(c, 0));
    int rn = reg(c, 0);
    switch ((A64ExtKind)c->form->param) {
    case A64_EXT_Z8_32: return word(c->as, a64_uxtb(rd, rn));
    case A64_EXT_S8_32: return word(c->as, a64_sxtb(0, rd, rn));
    case A64_EXT_Z16_32: return word(c->as, a64_uxth(rd, rn));
    case A64_EXT_S16_32: return word(c->as, a64_sxth(0, rd, rn));
    case A64_EXT_S8_64: return word(c->as, a64_sxtb(1, rd, rn));
    case A64_EXT_S16_64: return word(c->as, a64_sxth(1, rd, rn));
    default: return word(c->as, a64_sxtw(rd, rn));
    }
}

static bool enc_lea(const Ctx *c)
{
    Mem m;
    int rd = reg(c, 1);
    if (!mem_of(c, arg(c, 0), &m) || !address(c->as, rd, &m))
        return false;
    return c->form->width == 64 || word(c->as, a64_mov_reg(0, rd, rd));
}

static bool enc_swap(const Ctx *c)
{
    int sf = sf_of(c), a = reg(c, 0), b = reg(c, 1);
    return word(c->as, a64_mov_reg(sf, A64_SCRATCH0, a)) && word(c->as, a64_mov_reg(sf, a, b)) &&
           word(c->as, a64_mov_reg(sf, b, A64_SCRATCH0));
}

static bool enc_push_pop(const Ctx *c, bool push)
{
    int r = reg(c, 0);
    if (push)
        return word(c->as, a64_ldst_pre(A64_STR_X, r, A64_SP, -16));
    return word(c->as, a64_ldst_post(A64_LDR_X, r, A64_SP, 16));
}

/* PushPair a, b: stp a, b, [sp, #-16]!; PopPair a, b: ldp a, b, [sp], #16 (into one
 * register twice: the second value, by ldr and add) */
static bool enc_push_pop_pair(const Ctx *c, bool push)
{
    int a = reg(c, 0), b = reg(c, 1);
    if (push)
        return word(c->as, a64_ldstp(A64_STP_X, A64_PAIR_PRE, a, b, A64_SP, -16));
    if (a == b)
        return word(c->as, a64_ldst_offset(A64_LDR_X, b, A64_SP, 8)) &&
               word(c->as, a64_add_imm(1, A64_SP, A64_SP, 16, 0));
    return word(c->as, a64_ldstp(A64_LDP_X, A64_PAIR_POST, a, b, A64_SP, 16));
}

/* StorePair64 (a, b, mem) / LoadPair64 (mem, a, b): a at mem, b at mem + 8 (an
 * immediate is xzr; a load reads the address before writing either register, and
 * into one register twice keeps the second); stp/ldp at the operand, or at x17
 * holding its address where stp/ldp cannot encode it */
static bool enc_pair(const Ctx *c)
{
    bool load = c->form->param == A64_LDP_X;
    int rt[2];
    for (unsigned k = 0; k < 2; k++) {
        unsigned i = load ? k + 1 : k;
        rt[k] = arg(c, i)->kind == ARG_TMP ? reg(c, i) : A64_ZR;
    }
    Mem m;
    if (!mem_of(c, arg(c, load ? 0 : 2), &m))
        return false;
    if (load && rt[0] == rt[1]) {
        Mem hi = m;
        hi.offset += 8;
        return ldst(c->as, A64_LDR_X, rt[1], &hi);
    }
    A64Pair kind = (A64Pair)c->form->param;
    if (m.index < 0) {
        uint32_t w = a64_ldstp(kind, A64_PAIR_OFFSET, rt[0], rt[1], m.base, m.offset);
        mcov_item(c->as->cov, w != A64_BAD ? A64COV_PAIR_OFFSET : A64COV_PAIR_ADDR_X17);
        if (w != A64_BAD)
            return word(c->as, w);
    }
    return address(c->as, A64_SCRATCH1, &m) &&
           word(c->as, a64_ldstp(kind, A64_PAIR_OFFSET, rt[0], rt[1], A64_SCRATCH1, 0));
}

/* ---- integer arithmetic ------------------------------------------------------------ */
/* rd := rn op rm (register forms); sp in rd/rn of add/sub takes the extended form */
static uint32_t alu_reg(A64AluOp op, int sf, int rd, int rn, int rm)
{
    bool sp = rd == A64_LIR_SP || rn == A64_LIR_SP;
    A64Extend ext = sf ? A64_UXTX : A64_UXTW;
    switch (op) {
    case A64_ALU_ADD: return sp ? a64_add_ext(sf, rd, rn, rm, ext, 0) : a64_add_reg(sf, rd, rn, rm, A64_LSL, 0);
    case A64_ALU_SUB: return sp ? a64_sub_ext(sf, rd, rn, rm, ext, 0) : a64_sub_reg(sf, rd, rn, rm, A64_LSL, 0);
    case A64_ALU_AND: return a64_and_reg(sf, rd, rn, rm, A64_LSL, 0);
    case A64_ALU_OR: return a64_orr_reg(sf, rd, rn, rm, A64_LSL, 0);
    case A64_ALU_XOR: return a64_eor_reg(sf, rd, rn, rm, A64_LSL, 0);
    default: return a64_mul(sf, rd, rn, rm);
    }
}

/* the immediate of width sf as the instruction sees it */
static uint64_t imm_bits(int sf, int64_t v) { return sf ? (uint64_t)v : (uint32_t)v; }

static uint32_t addsub_imm(bool sub, int sf, int rd, int rn, int64_t value)
{
    uint64_t v = imm_bits(sf, value), neg = imm_bits(sf, (int64_t)(0 - (uint64_t)value));
    if (!a64_addsub_imm_ok(v)) {
        sub = !sub;
        v = neg;
    }
    uint32_t imm = (uint32_t)(v >= 4096 ? v >> 12 : v);
    return sub ? a64_sub_imm(sf, rd, rn, imm, v >= 4096) : a64_add_imm(sf, rd, rn, imm, v >= 4096);
}

static uint32_t alu_imm(A64AluOp op, int sf, int rd, int rn, int64_t value)
{
    switch (op) {
    case A64_ALU_ADD: return addsub_imm(false, sf, rd, rn, value);
    case A64_ALU_SUB: return addsub_imm(true, sf, rd, rn, value);
    case A64_ALU_AND: return a64_and_imm(sf, rd, rn, imm_bits(sf, value));
    case A64_ALU_OR: return a64_orr_imm(sf, rd, rn, imm_bits(sf, value));
    case A64_ALU_XOR: return a64_eor_imm(sf, rd, rn, imm_bits(sf, value));
    default: return A64_BAD;
    }
}

/* the coverage item of an add/sub/cmp immediate: plain imm12, imm12 lsl 12, or the
 * negated value with the opposite operation */
static unsigned addsub_item(int sf, int64_t value, unsigned plain, unsigned lsl12, unsigned negated)
{
    uint64_t v = imm_bits(sf, value);
    return !a64_addsub_imm_ok(v) ? negated : v >= 4096 ? lsl12 : plain;
}

/* two-operand (src, srcdst): dst op= src; three-operand (left, right, dst) */
static bool enc_alu(const Ctx *c)
{
    unsigned li = c->inst->nargs == 3 ? 0 : 1, ri = c->inst->nargs == 3 ? 1 : 0;
    int sf = sf_of(c), rd = reg(c, c->inst->nargs - 1u), rn = reg(c, li);
    A64AluOp op = (A64AluOp)c->form->param;
    if (arg(c, ri)->kind == ARG_IMM && c->as->cov)
        mcov_item(c->as->cov, op != A64_ALU_ADD && op != A64_ALU_SUB ? A64COV_LOGICAL_IMM
                              : addsub_item(sf, arg(c, ri)->value, A64COV_ADDSUB_IMM12,
                                            A64COV_ADDSUB_IMM12_LSL12, A64COV_ADDSUB_NEGATED));
    if (arg(c, ri)->kind == ARG_IMM)
        return word(c->as, alu_imm(op, sf, rd, rn, arg(c, ri)->value));
    return word(c->as, alu_reg(op, sf, rd, rn, reg(c, ri)));
}

static bool enc_unary(const Ctx *c)
{
    int sf = sf_of(c), rn = reg(c, 0), rd = reg(c, c->inst->nargs - 1u);
    if (c->form->param == 0)
        return word(c->as, a64_neg(sf, rd, rn, A64_LSL, 0));
    return word(c->as, a64_mvn(sf, rd, rn, A64_LSL, 0));
}

/* (amount, srcdst) or (src, amount, dst) */
static bool enc_shift(const Ctx *c)
{
    unsigned ai = c->inst->nargs == 3 ? 1 : 0;
    int sf = sf_of(c), rd = reg(c, c->inst->nargs - 1u);
    int rn = reg(c, c->inst->nargs == 3 ? 0 : 1);
    A64Shift sh = (A64Shift)c->form->param;
    mcov_item(c->as->cov, arg(c, ai)->kind == ARG_IMM ? A64COV_SHIFT_IMM : A64COV_SHIFT_REG);
    if (arg(c, ai)->kind == ARG_IMM) {
        int amount = (int)(arg(c, ai)->value & (sf ? 63 : 31));
        if (sh == A64_ROR)
            return word(c->as, a64_extr(sf, rd, rn, rn, amount));
        if (sh == A64_LSL)
            return word(c->as, a64_lsl_imm(sf, rd, rn, amount));
        return word(c->as, sh == A64_LSR ? a64_lsr_imm(sf, rd, rn, amount) : a64_asr_imm(sf, rd, rn, amount));
    }
    int rm = reg(c, ai);
    if (sh == A64_ROR)
        return word(c->as, a64_rorv(sf, rd, rn, rm));
    if (sh == A64_LSL)
        return word(c->as, a64_lslv(sf, rd, rn, rm));
    return word(c->as, sh == A64_LSR ? a64_lsrv(sf, rd, rn, rm) : a64_asrv(sf, rd, rn, rm));
}

static bool enc_div(const Ctx *c)
{
    int sf = sf_of(c);
    if (c->form->param == 0)
        return word(c->as, a64_sdiv(sf, reg(c, 2), reg(c, 0), reg(c, 1)));
    return word(c->as, a64_udiv(sf, reg(c, 2), reg(c, 0), reg(c, 1)));
}

static bool enc_msub(const Ctx *c)
{
    return word(c->as, a64_msub(sf_of(c), reg(c, 3), reg(c, 0), reg(c, 1), reg(c, 2)));
}

/* ---- compares, conditional selects, branches -------------------------------------- */
static bool signed_cond(const Arg *cond)
{
    return cond->kind == ARG_RELCOND && (cond->cond == REL_sgt || cond->cond == REL_sge ||
                                         cond->cond == REL_slt || cond->cond == REL_sle);
}

/* 8/16-bit compares: both sides extended to 32 bits in x16/x17 as the condition reads them */
static bool compare_narrow(const Ctx *c, int rn, int rm)
{
    bool s = signed_cond(arg(c, 0)), byte = c->form->width == 8;
    uint32_t a = byte ? (s ? a64_sxtb(0, A64_SCRATCH0, rn) : a64_uxtb(A64_SCRATCH0, rn))
                      : (s ? a64_sxth(0, A64_SCRATCH0, rn) : a64_uxth(A64_SCRATCH0, rn));
    uint32_t b = byte ? (s ? a64_sxtb(0, A64_SCRATCH1, rm) : a64_uxtb(A64_SCRATCH1, rm))
                      : (s ? a64_sxth(0, A64_SCRATCH1, rm) : a64_uxth(A64_SCRATCH1, rm));
    return word(c->as, a) && word(c->as, b) &&
           word(c->as, a64_cmp_reg(0, A64_SCRATCH0, A64_SCRATCH1, A64_LSL, 0));
}

static uint32_t cmp_imm(int sf, int rn, int64_t value)
{
    uint64_t v = imm_bits(sf, value);
    bool cmn = !a64_addsub_imm_ok(v);
    if (cmn)
        v = imm_bits(sf, (int64_t)(0 - (uint64_t)value));
    uint32_t imm = (uint32_t)(v >= 4096 ? v >> 12 : v);
    return cmn ? a64_cmn_imm(sf, rn, imm, v >= 4096) : a64_cmp_imm(sf, rn, imm, v >= 4096);
}

/* set the flags for args 1 and 2 (left, right) */
static bool emit_compare(const Ctx *c)
{
    int sf = sf_of(c), rn = reg(c, 1);
    const Arg *r = arg(c, 2);
    switch ((A64CompareKind)c->form->param) {
    case A64_FCMP:
        if (arg_is_memory(r))
            return ldst_arg(c, sf ? A64_LDR_D : A64_LDR_S, A64_FP_SCRATCH, r) &&
                   word(c->as, a64_fcmp(sf, rn, A64_FP_SCRATCH));
        return word(c->as, a64_fcmp(sf, rn, reg(c, 2)));
    case A64_TEST:
        if (r->kind == ARG_IMM)
            mcov_item(c->as->cov, A64COV_TST_IMM);
        if (r->kind == ARG_IMM)
            return word(c->as, a64_tst_imm(sf, rn, imm_bits(sf, r->value)));
        return word(c->as, a64_tst_reg(sf, rn, reg(c, 2), A64_LSL, 0));
    default:
        if (c->form->width < 32)
            mcov_item(c->as->cov, A64COV_CMP_NARROW);
        if (c->form->width < 32)
            return compare_narrow(c, rn, reg(c, 2));
        if (r->kind == ARG_IMM)
            mcov_item(c->as->cov, addsub_item(sf, r->value, A64COV_CMP_IMM12, A64COV_CMP_IMM12_LSL12,
                                              A64COV_CMN_IMM));
        if (r->kind == ARG_IMM)
            return word(c->as, cmp_imm(sf, rn, r->value));
        return word(c->as, a64_cmp_reg(sf, rn, reg(c, 2), A64_LSL, 0));
    }
}

static bool conds(const Ctx *c, A64Cond *c1, A64Cond *c2)
{
    if (!a64_cond_codes(arg(c, 0), c1, c2))
        return lir_asm_fail(c->as, "not a condition");
    return true;
}

static bool enc_cmpset(const Ctx *c)
{
    A64Cond c1, c2;
    int rd = reg(c, 3);
    if (!conds(c, &c1, &c2) || !emit_compare(c) || !word(c->as, a64_cset(0, rd, c1)))
        return false;
    return c2 == A64_AL || word(c->as, a64_csinc(0, rd, rd, A64_ZR, a64_invert_cond(c2)));
}

static bool enc_csel(const Ctx *c)
{
    A64Cond c1, c2;
    int rs = reg(c, 3), rd = reg(c, 4);
    if (!conds(c, &c1, &c2) || !emit_compare(c) || !word(c->as, a64_csel(1, rd, rs, rd, c1)))
        return false;
    return c2 == A64_AL || word(c->as, a64_csel(1, rd, rs, rd, c2));
}

/* a conditional branch word to block target (offset patched later); a long one
 * becomes its inversion over a b */
static bool cond_branch(LirAsm *as, uint32_t w, uint32_t inverted, uint32_t target)
{
    if (lir_asm_next_is_long(as)) {
        mcov_item(as->cov, A64COV_B_COND_LONG);
        if (!word(as, inverted))
            return false;
        lir_asm_fixup(as, target, LIR_FIX_JUMP);
        return word(as, a64_b(0));
    }
    lir_asm_fixup(as, target, LIR_FIX_COND);
    return word(as, w);
}

static bool jump(LirAsm *as, uint32_t target)
{
    mcov_item(as->cov, A64COV_B);
    lir_asm_fixup(as, target, LIR_FIX_JUMP);
    return word(as, a64_b(0));
}

/* a power of two immediate: its bit number, else -1 */
static int single_bit(int sf, int64_t v)
{
    uint64_t u = imm_bits(sf, v);
    if (u == 0 || (u & (u - 1)) != 0)
        return -1;
    return __builtin_ctzll(u);
}

/* cbz/cbnz or tbz/tbnz when the compare has that shape; *done says whether it did */
static bool short_form(const Ctx *c, A64Cond cc, uint32_t target, bool *done)
{
    const Arg *r = arg(c, 2);
    int sf = sf_of(c), rt = reg(c, 1);
    bool z = cc == A64_EQ, nz = cc == A64_NE;
    *done = false;
    if ((!z && !nz) || c->form->width < 32 || c->form->param == A64_FCMP)
        return true;
    if (c->form->param == A64_CMP && r->kind == ARG_IMM && imm_bits(sf, r->value) == 0) {
        *done = true;
        mcov_item(c->as->cov, z ? A64COV_CBZ : A64COV_CBNZ);
        return cond_branch(c->as, z ? a64_cbz(sf, rt, 0) : a64_cbnz(sf, rt, 0),
                           z ? a64_cbnz(sf, rt, 8) : a64_cbz(sf, rt, 8), target);
    }
    if (c->form->param == A64_TEST && r->kind == ARG_IMM && single_bit(sf, r->value) >= 0) {
        int bit = single_bit(sf, r->value);
        *done = true;
        mcov_item(c->as->cov, z ? A64COV_TBZ : A64COV_TBNZ);
        return cond_branch(c->as, z ? a64_tbz(rt, bit, 0) : a64_tbnz(rt, bit, 0),
                           z ? a64_tbnz(rt, bit, 8) : a64_tbz(rt, bit, 8), target);
    }
    return true;
}

static bool branch_to(const Ctx *c, A64Cond c1, A64Cond c2, uint32_t target)
{
    bool done;
    if (c2 == A64_AL && !short_form(c, c1, target, &done))
        return false;
    if (c2 == A64_AL && done)
        return true;
    if (!emit_compare(c))
        return false;
    mcov_item(c->as->cov, c2 == A64_AL ? A64COV_B_COND : A64COV_B_COND_TWO);
    if (!cond_branch(c->as, a64_b_cond(c1, 0), a64_b_cond(a64_invert_cond(c1), 8), target))
        return false;
    return c2 == A64_AL ||
           cond_branch(c->as, a64_b_cond(c2, 0), a64_b_cond(a64_invert_cond(c2), 8), target);
}

static bool enc_branch(const Ctx *c)
{
    A64Cond c1, c2;
    const LirBlock *b = c->block;
    if (!b || b->nsuccs != 2)
        return lir_asm_fail(c->as, "a branch needs a block with two successors");
    if (!conds(c, &c1, &c2))
        return false;
    uint32_t next = b->index + 1, taken = b->succs[0], not_taken = b->succs[1];
    if (taken == next && c2 == A64_AL)
        mcov_item(c->as->cov, A64COV_BRANCH_INVERTED);
    if (taken == next && c2 == A64_AL)
        return branch_to(c, a64_invert_cond(c1), A64_AL, not_taken);
    if (not_taken != next)
        mcov_item(c->as->cov, A64COV_BRANCH_THEN_B);
    if (!branch_to(c, c1, c2, taken))
        return false;
    return not_taken == next || jump(c->as, not_taken);
}

static bool enc_jump(const Ctx *c)
{
    const LirBlock *b = c->block;
    if (!b || b->nsuccs != 1)
        return lir_asm_fail(c->as, "a jump needs a block with one successor");
    if (b->succs[0] == b->index + 1)
        mcov_item(c->as->cov, A64COV_JUMP_ELIDED);
    return b->succs[0] == b->index + 1 || jump(c->as, b->succs[0]);
}

static bool enc_call(const Ctx *c)
{
    const Arg *t = arg(c, 0);
    bool direct = t->kind == ARG_SYMBOL && t->value == 0 &&
                  (t->sym_kind == TARGET_FUNC || t->sym_kind == TARGET_HELPER);
    mcov_item(c->as->cov, !direct ? A64COV_BLR : t->sym_kind == TARGET_FUNC ? A64COV_BL_FUNCTION
                                                                             : A64COV_BL_HELPER);
    if (t->kind == ARG_SYMBOL && t->sym_kind == TARGET_FUNC && t->value == 0) {
        lir_asm_fixup(c->as, t->slot, LIR_FIX_CALL);
        return word(c->as, a64_bl(0));
    }
    if (t->kind == ARG_SYMBOL && t->sym_kind == TARGET_HELPER && t->value == 0) {
        lir_asm_reloc(c->as, t, RELOC_BRANCH); /* bl to the helper */
        return word(c->as, a64_bl(0));
    }
    if (t->kind == ARG_SYMBOL) {
        if (!load_symbol(c->as, A64_SCRATCH0, t))
            return false;
    } else if (t->kind == ARG_TMP) {
        return word(c->as, a64_blr(reg(c, 0)));
    } else if (!ldst_arg(c, A64_LDR_X, A64_SCRATCH0, t)) {
        return false;
    }
    return word(c->as, a64_blr(A64_SCRATCH0));
}

static bool enc_brk(const Ctx *c)
{
    uint8_t kind = c->inst->trap ? c->inst->trap : TRAP_ILLEGAL;
    lir_asm_trap(c->as, c->as->size, kind);
    return word(c->as, a64_brk(kind));
}

/* ---- floating point ------------------------------------------------------------------ */
static bool enc_fmov(const Ctx *c)
{
    int dbl = sf_of(c);
    if (arg(c, 1)->kind != ARG_TMP)
        return ldst_arg(c, dbl ? A64_STR_D : A64_STR_S, reg(c, 0), arg(c, 1));
    if (arg(c, 0)->kind != ARG_TMP)
        return ldst_arg(c, dbl ? A64_LDR_D : A64_LDR_S, reg(c, 1), arg(c, 0));
    return word(c->as, a64_fmov(dbl, reg(c, 1), reg(c, 0)));
}

/* an FP source operand: its register, or v31 loaded from its memory */
static int fp_source(const Ctx *c, unsigned i)
{
    const Arg *a = arg(c, i);
    if (!arg_is_memory(a))
        return reg(c, i);
    ldst_arg(c, sf_of(c) ? A64_LDR_D : A64_LDR_S, A64_FP_SCRATCH, a);
    return A64_FP_SCRATCH;
}

static bool enc_falu(const Ctx *c)
{
    int dbl = sf_of(c), rd = reg(c, c->inst->nargs - 1u);
    int rn = fp_source(c, c->inst->nargs == 3 ? 0 : 1), rm = fp_source(c, c->inst->nargs == 3 ? 1 : 0);
    switch ((A64FaluOp)c->form->param) {
    case A64_FALU_ADD: return word(c->as, a64_fadd(dbl, rd, rn, rm));
    case A64_FALU_SUB: return word(c->as, a64_fsub(dbl, rd, rn, rm));
    case A64_FALU_MUL: return word(c->as, a64_fmul(dbl, rd, rn, rm));
    case A64_FALU_MIN: return word(c->as, a64_fmin(dbl, rd, rn, rm));
    case A64_FALU_MAX: return word(c->as, a64_fmax(dbl, rd, rn, rm));
    default: return word(c->as, a64_fdiv(dbl, rd, rn, rm));
    }
}

static bool enc_funary(const Ctx *c)
{
    int dbl = sf_of(c), rd = reg(c, 1), rn = fp_source(c, 0);
    switch ((A64FunaryOp)c->form->param) {
    case A64_FUN_SQRT: return word(c->as, a64_fsqrt(dbl, rd, rn));
    case A64_FUN_ABS: return word(c->as, a64_fabs(dbl, rd, rn));
    case A64_FUN_FRINTM: return word(c->as, a64_frintm(dbl, rd, rn));
    case A64_FUN_FRINTP: return word(c->as, a64_frintp(dbl, rd, rn));
    case A64_FUN_FRINTZ: return word(c->as, a64_frintz(dbl, rd, rn));
    default: return word(c->as, a64_frintn(dbl, rd, rn));
    }
}

/* dst := the magnitude bits of arg 0 under the sign bit of arg 1, through x16, x17 */
static bool enc_fcopysign(const Ctx *c)
{
    int dbl = sf_of(c), mag = reg(c, 0), sign = reg(c, 1), rd = reg(c, 2);
    return word(c->as, a64_fmov_to_gpr(dbl, A64_SCRATCH0, sign)) &&
           word(c->as, a64_fmov_to_gpr(dbl, A64_SCRATCH1, mag)) &&
           word(c->as, a64_bfxil(dbl, A64_SCRATCH0, A64_SCRATCH1, 0, dbl ? 63 : 31)) &&
           word(c->as, a64_fmov_from_gpr(dbl, rd, A64_SCRATCH0));
}

/* dst := dst op src on the bits, through x16 and x17 */
static bool enc_flogic(const Ctx *c)
{
    int dbl = sf_of(c), rs = reg(c, 0), rd = reg(c, 1);
    return word(c->as, a64_fmov_to_gpr(dbl, A64_SCRATCH0, rs)) &&
           word(c->as, a64_fmov_to_gpr(dbl, A64_SCRATCH1, rd)) &&
           word(c->as, alu_reg((A64AluOp)c->form->param, dbl, A64_SCRATCH1, A64_SCRATCH1, A64_SCRATCH0)) &&
           word(c->as, a64_fmov_from_gpr(dbl, rd, A64_SCRATCH1));
}

static bool enc_cvt(const Ctx *c)
{
    int rd = reg(c, 1), rn = reg(c, 0);
    switch ((A64CvtKind)c->form->param) {
    case A64_CVT_I32_F: return word(c->as, a64_scvtf(0, 0, rd, rn));
    case A64_CVT_I64_F: return word(c->as, a64_scvtf(1, 0, rd, rn));
    case A64_CVT_I32_D: return word(c->as, a64_scvtf(0, 1, rd, rn));
    case A64_CVT_I64_D: return word(c->as, a64_scvtf(1, 1, rd, rn));
    case A64_CVT_F_I32: return word(c->as, a64_fcvtzs(0, 0, rd, rn));
    case A64_CVT_F_I64: return word(c->as, a64_fcvtzs(1, 0, rd, rn));
    case A64_CVT_D_I32: return word(c->as, a64_fcvtzs(0, 1, rd, rn));
    case A64_CVT_D_I64: return word(c->as, a64_fcvtzs(1, 1, rd, rn));
    case A64_CVT_F_U32: return word(c->as, a64_fcvtzu(0, 0, rd, rn));
    case A64_CVT_F_U64: return word(c->as, a64_fcvtzu(1, 0, rd, rn));
    case A64_CVT_D_U32: return word(c->as, a64_fcvtzu(0, 1, rd, rn));
    case A64_CVT_D_U64: return word(c->as, a64_fcvtzu(1, 1, rd, rn));
    case A64_CVT_U64_F: return word(c->as, a64_ucvtf(1, 0, rd, rn));
    case A64_CVT_U64_D: return word(c->as, a64_ucvtf(1, 1, rd, rn));
    case A64_CVT_F_D: return word(c->as, a64_fcvt(1, rd, rn));
    case A64_CVT_D_F: return word(c->as, a64_fcvt(0, rd, rn));
    case A64_CVT_W_F: return word(c->as, a64_fmov_from_gpr(0, rd, rn));
    case A64_CVT_F_W: return word(c->as, a64_fmov_to_gpr(0, rd, rn));
    case A64_CVT_X_D: return word(c->as, a64_fmov_from_gpr(1, rd, rn));
    default: return word(c->as, a64_fmov_to_gpr(1, rd, rn));
    }
}

/* ---- bit counts, byte swaps, overflow checks, high multiplies ----------------------------- */
static bool enc_bits(const Ctx *c)
{
    int sf = sf_of(c), rn = reg(c, 0), rd = reg(c, 1);
    switch ((A64BitOp)c->form->param) {
    case A64_BITS_CLZ: return word(c->as, a64_clz(sf, rd, rn));
    case A64_BITS_CTZ: return word(c->as, a64_rbit(sf, rd, rn)) && word(c->as, a64_clz(sf, rd, rd));
    default: return word(c->as, a64_rev(sf, rd, rn));
    }
}

/* adds/subs dst, left, right; b.vc over the brk that traps with the instruction's kind */
/* ubfx rd, rn, #lsb, #width: a field reaching past the register's top has only the
 * bits below it (the ones above read as zero) */
static bool enc_bitfield(const Ctx *c)
{
    int64_t lsb = arg(c, 0)->value, width = arg(c, 1)->value, top = c->form->width;
    if (lsb >= 0 && lsb < top && width > top - lsb)
        width = top - lsb;
    mcov_item(c->as->cov, width == 1 ? A64COV_UBFX_BIT : A64COV_UBFX);
    return word(c->as, a64_ubfx(sf_of(c), reg(c, 3), reg(c, 2), (int)lsb, (int)width));
}

static bool enc_checked(const Ctx *c)
{
    int sf = sf_of(c), rn = reg(c, 0), rm = reg(c, 1), rd = reg(c, 2);
    uint32_t op = c->form->param == 0 ? a64_adds_reg(sf, rd, rn, rm, A64_LSL, 0)
                                      : a64_subs_reg(sf, rd, rn, rm, A64_LSL, 0);
    uint8_t kind = c->inst->trap ? c->inst->trap : TRAP_OVERFLOW;
    if (!word(c->as, op) || !word(c->as, a64_b_cond(A64_VC, 8)))
        return false;
    lir_asm_trap(c->as, c->as->size, kind);
    return word(c->as, a64_brk(kind));
}

static bool enc_mulh(const Ctx *c)
{
    int rn = reg(c, 0), rm = reg(c, 1), rd = reg(c, 2);
    return word(c->as, c->form->param == 0 ? a64_smulh(rd, rn, rm) : a64_umulh(rd, rn, rm));
}

static bool dispatch(const Ctx *c)
{
    switch ((A64Encoding)c->form->enc) {
    case A64E_MOV: return enc_mov(c);
    case A64E_EXT: return enc_ext(c);
    case A64E_LEA: return enc_lea(c);
    case A64E_SWAP: return enc_swap(c);
    case A64E_PUSH: return enc_push_pop(c, true);
    case A64E_POP: return enc_push_pop(c, false);
    case A64E_PUSHPAIR: return enc_push_pop_pair(c, true);
    case A64E_POPPAIR: return enc_push_pop_pair(c, false);
    case A64E_PAIR: return enc_pair(c);
    case A64E_ALU: return enc_alu(c);
    case A64E_UNARY: return enc_unary(c);
    case A64E_SHIFT: return enc_shift(c);
    case A64E_DIV: return enc_div(c);
    case A64E_MSUB: return enc_msub(c);
    case A64E_CMPSET: return enc_cmpset(c);
    case A64E_CSEL: return enc_csel(c);
    case A64E_BRANCH: return enc_branch(c);
    case A64E_JUMP: return enc_jump(c);
    case A64E_RET: return word(c->as, a64_ret(A64_LR));
    case A64E_CALL: return enc_call(c);
    case A64E_BRK: return enc_brk(c);
    case A64E_NOP: return word(c->as, a64_nop());
    case A64E_FMOV: return enc_fmov(c);
    case A64E_FALU: return enc_falu(c);
    case A64E_FUNARY: return enc_funary(c);
    case A64E_FCOPYSIGN: return enc_fcopysign(c);
    case A64E_FLOGIC: return enc_flogic(c);
    case A64E_CVT: return enc_cvt(c);
    case A64E_BITS: return enc_bits(c);
    case A64E_BITFIELD: return enc_bitfield(c);
    case A64E_CHECKED: return enc_checked(c);
    case A64E_MULH: return enc_mulh(c);
    default: return lir_asm_fail(c->as, "unknown encoding %u", c->form->enc);
    }
}

bool a64_encode_inst(LirAsm *as, const Code *code, const LirBlock *block, const Inst *inst)
{
    const LirForm *form = code->target && code->target->isa == ISA_A64 ? lir_code_find_form(code, inst) : NULL;
    if (!form)
        form = lir_find_form(a64_target(), inst);
    if (!form)
        return lir_asm_fail(as, "%s with these arguments has no ARM64 form", lir_op_name((LirOp)inst->op));
    uint32_t size = as->size, nfixups = as->nfixups, nrelocs = as->nrelocs, ntraps = as->ntraps;
    as->failed = false;
    if (as->cov)
        mcov_inst(as->cov, code->target && code->target->isa == ISA_A64 ? code->target : a64_target(), form, inst);
    Ctx c = { as, code, block, inst, form };
    if (!dispatch(&c) || as->failed) {
        as->size = size;
        as->nfixups = nfixups;
        as->nrelocs = nrelocs;
        as->ntraps = ntraps;
        as->failed = true;
        return false;
    }
    return true;
}
