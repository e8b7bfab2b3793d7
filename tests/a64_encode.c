/* a64_encode.c — round-trips every AArch64 encoder through Capstone.
 *
 * Each instruction family sweeps every register operand over 0..31 (and two bad
 * numbers) for every combination of its other operands (widths, immediates including
 * boundaries and boundary+1, every condition, shift and extend).  A model of the
 * architecture, written here independently of the encoder, predicts for each operand
 * tuple either "rejected" (the encoder must return A64_BAD) or the instruction
 * Capstone 4 must decode: mnemonic (its canonical alias where it prints one),
 * registers (SP vs ZR per position), immediates, shift, extend, memory
 * base/index/displacement, condition and writeback, compared structurally through
 * cs_detail. */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/a64/insn.h"
#include "a64_bitmask.h"

/* ---- expectations ------------------------------------------------------------------ */
enum { OP_REG = ARM64_OP_REG, OP_IMM = ARM64_OP_IMM, OP_MEM = ARM64_OP_MEM, OP_FP = ARM64_OP_FP,
       OP_MRS = ARM64_OP_REG_MRS, OP_MSR = ARM64_OP_REG_MSR };

typedef struct {
    int type;
    int reg;              /* OP_REG, OP_MRS, OP_MSR */
    int64_t imm;          /* OP_IMM */
    int base, index;      /* OP_MEM */
    int32_t disp;
    int sh, shv;          /* shift type (arm64_shifter) and amount */
    int ext;              /* arm64_extender */
} ExpOp;

typedef struct {
    bool bad;             /* the encoder must reject the operands */
    char mn[16];
    int n;
    ExpOp op[6];
    int cc;               /* arm64_cc: 0 none, else cond + 1 */
    bool wb;
} Expect;

static void mn(Expect *e, const char *m) { snprintf(e->mn, sizeof e->mn, "%s", m); }
static ExpOp *op_new(Expect *e, int type)
{
    ExpOp *o = &e->op[e->n++];
    memset(o, 0, sizeof *o);
    o->type = type;
    return o;
}
static ExpOp *e_reg(Expect *e, int r) { ExpOp *o = op_new(e, OP_REG); o->reg = r; return o; }
static ExpOp *e_imm(Expect *e, int64_t v) { ExpOp *o = op_new(e, OP_IMM); o->imm = v; return o; }
static void shifted(ExpOp *o, int sh, int amount) { o->sh = sh; o->shv = amount; }
static ExpOp *e_mem(Expect *e, int base, int index, int32_t disp)
{
    ExpOp *o = op_new(e, OP_MEM);
    o->base = base, o->index = index, o->disp = disp;
    return o;
}

/* Capstone register ids; 31 is the zero register unless the position takes SP */
static int X(int n) { return n == 31 ? ARM64_REG_XZR : n == 29 ? ARM64_REG_X29 : n == 30 ? ARM64_REG_X30 : ARM64_REG_X0 + n; }
static int XSP(int n) { return n == 31 ? ARM64_REG_SP : X(n); }
static int W(int n) { return n == 31 ? ARM64_REG_WZR : ARM64_REG_W0 + n; }
static int WSP(int n) { return n == 31 ? ARM64_REG_WSP : W(n); }
static int R(int sf, int n) { return sf ? X(n) : W(n); }
static int RSP(int sf, int n) { return sf ? XSP(n) : WSP(n); }
static int F(int dbl, int n) { return (dbl ? ARM64_REG_D0 : ARM64_REG_S0) + n; }

static bool reg_ok(int64_t r) { return r >= 0 && r <= 31; }
static bool bit_ok(int64_t b) { return b == 0 || b == 1; }
static int width(int sf) { return sf ? 64 : 32; }
static int cc_of(int64_t cond) { return (int)cond + 1; }
static const char *const cond_names[16] = {"eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc",
                                           "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
static const int cs_shift[4] = {ARM64_SFT_LSL, ARM64_SFT_LSR, ARM64_SFT_ASR, ARM64_SFT_ROR};
static const int cs_ext[8] = {ARM64_EXT_UXTB, ARM64_EXT_UXTH, ARM64_EXT_UXTW, ARM64_EXT_UXTX,
                              ARM64_EXT_SXTB, ARM64_EXT_SXTH, ARM64_EXT_SXTW, ARM64_EXT_SXTX};

/* ---- the checker --------------------------------------------------------------------- */
enum { BASE_ADDR = 0x100000, MAX_SHOWN = 25 };

typedef struct {
    csh cs;
    long checked, failed;
    long decoded, rejected;   /* of the checked: words compared with Capstone, operand sets refused */
    long queries;             /* offset patching and predicate checks */
} Ctx;

static void describe(const Expect *e, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%s", e->bad ? "<rejected>" : e->mn);
    for (int i = 0; i < e->n && k < n; i++) {
        const ExpOp *o = &e->op[i];
        if (o->type == OP_MEM)
            k += (size_t)snprintf(buf + k, n - k, " [mem b%d x%d d%d", o->base, o->index, o->disp);
        else if (o->type == OP_IMM)
            k += (size_t)snprintf(buf + k, n - k, " [imm %" PRId64, o->imm);
        else
            k += (size_t)snprintf(buf + k, n - k, " [t%d r%d", o->type, o->reg);
        if (k < n)
            k += (size_t)snprintf(buf + k, n - k, " sh%d/%d ext%d]", o->sh, o->shv, o->ext);
    }
    if (k < n && e->cc)
        snprintf(buf + k, n - k, " cc%d", e->cc);
}

static const char *op_mismatch(const cs_arm64_op *g, const ExpOp *o)
{
    if ((int)g->type != o->type)
        return "operand kind";
    if ((o->type == OP_REG || o->type == OP_MRS || o->type == OP_MSR) && (int)g->reg != o->reg)
        return "register";
    if (o->type == OP_IMM && g->imm != o->imm)
        return "immediate";
    if (o->type == OP_FP && g->fp != 0.0)
        return "fp immediate";
    if (o->type == OP_MEM && ((int)g->mem.base != o->base || (int)g->mem.index != o->index ||
                              g->mem.disp != o->disp))
        return "memory operand";
    if ((int)g->shift.type != o->sh || (o->sh && (int)g->shift.value != o->shv))
        return "shift";
    if ((int)g->ext != o->ext)
        return "extend";
    return NULL;
}

/* NULL if the decoded instruction is the expected one, else what differs */
static const char *mismatch(const cs_insn *in, const Expect *e)
{
    const cs_arm64 *d = &in->detail->arm64;
    if (strcmp(in->mnemonic, e->mn) != 0)
        return "mnemonic";
    if (d->op_count != e->n)
        return "operand count";
    for (int i = 0; i < e->n; i++) {
        const char *why = op_mismatch(&d->operands[i], &e->op[i]);
        if (why)
            return why;
    }
    if ((int)d->cc != e->cc)
        return "condition";
    if (d->writeback != e->wb)
        return "writeback";
    return NULL;
}

/* what was encoded: the encoder's name and its operands, formatted only on failure */
typedef struct {
    const char *enc;
    const int64_t *args;
    int nargs;
} Site;

static void fail(Ctx *c, const Site *at, uint32_t w, const cs_insn *in, const char *why, const Expect *e)
{
    if (c->failed++ >= MAX_SHOWN)
        return;
    char want[512], args[200] = "", text[200] = "-";
    describe(e, want, sizeof want);
    for (size_t i = 0, k = 0; i < (size_t)at->nargs && k < sizeof args; i++)
        k += (size_t)snprintf(args + k, sizeof args - k, "%s%" PRId64, i ? ", " : "", at->args[i]);
    cs_insn *own = NULL;
    uint8_t bytes[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    if (!in && w != A64_BAD && cs_disasm(c->cs, bytes, 4, BASE_ADDR, 1, &own) == 1)
        in = own;                      /* show what a wrongly accepted word decodes to */
    if (in)
        snprintf(text, sizeof text, "%s %s", in->mnemonic, in->op_str);
    if (own)
        cs_free(own, 1);
    fprintf(stderr, "FAIL a64_%s(%s): word 0x%08x, capstone \"%s\": %s differs; expected %s\n",
            at->enc, args, w, text, why, want);
}

static void check(Ctx *c, const Site *at, uint32_t w, const Expect *e)
{
    c->checked++;
    if (e->bad || w == A64_BAD) {
        c->rejected += e->bad && w == A64_BAD;
        if (e->bad != (w == A64_BAD))
            fail(c, at, w, NULL, e->bad ? "acceptance (should be rejected)" : "acceptance (rejected)", e);
        return;
    }
    cs_insn *in;
    uint8_t bytes[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    if (cs_disasm(c->cs, bytes, 4, BASE_ADDR, 1, &in) != 1) {
        fail(c, at, w, NULL, "decoding", e);
        return;
    }
    c->decoded++;
    const char *why = mismatch(in, e);
    if (why)
        fail(c, at, w, in, why, e);
    cs_free(in, 1);
}

/* ---- families: an encoder, its operand kinds and values, and the model ------------------- */
enum { MAXARGS = 7 };
typedef int64_t Args[MAXARGS];
typedef uint32_t (*EncodeFn)(const int64_t *a);
typedef void (*ModelFn)(const int64_t *a, Expect *e);

typedef struct {
    const int64_t *v;
    int n;
} ValList;
#define VALS(...) {(const int64_t[]){__VA_ARGS__}, sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)}
#define REG {NULL, 0}   /* a register operand: swept over 0..31 */

typedef struct {
    const char *name;
    int nargs;
    ValList args[MAXARGS];
    EncodeFn encode;
    ModelFn model;
} Family;

static const int64_t reg_defaults[MAXARGS] = {1, 2, 3, 4, 5, 6, 7};
static const int64_t bad_regs[] = {-1, 32};

static void check_args(Ctx *c, const Family *f, const int64_t *a)
{
    Expect e;
    memset(&e, 0, sizeof e);
    f->model(a, &e);
    Site at = {f->name, a, f->nargs};
    check(c, &at, f->encode(a), &e);
}

/* every register position over 0..31 and the bad numbers, the others at defaults */
static void sweep_registers(Ctx *c, const Family *f, int64_t *a)
{
    bool any_register = false;
    for (int p = 0; p < f->nargs; p++)
        any_register |= !f->args[p].v;
    if (!any_register)
        check_args(c, f, a);
    for (int p = 0; p < f->nargs; p++) {
        if (f->args[p].v)
            continue;
        for (int64_t r = -2; r < 32; r++) {
            int64_t saved = a[p];
            a[p] = r < 0 ? bad_regs[r + 2] : r;
            check_args(c, f, a);
            a[p] = saved;
        }
    }
}

/* the cartesian product of the value lists; registers swept at each point */
/* the registers not swept are first 1, 2, 3, ... (all distinct), then all 31 (SP or
 * ZR everywhere, where most aliases and SP/ZR confusions show) */
static void sweep_values(Ctx *c, const Family *f, int64_t *a, int pos)
{
    if (pos == f->nargs) {
        sweep_registers(c, f, a);
        bool any_register = false;
        for (int p = 0; p < f->nargs; p++)
            if (!f->args[p].v)
                a[p] = 31, any_register = true;
        if (any_register)
            sweep_registers(c, f, a);
        for (int p = 0; p < f->nargs; p++)
            if (!f->args[p].v)
                a[p] = reg_defaults[p];
        return;
    }
    if (!f->args[pos].v) {
        a[pos] = reg_defaults[pos];
        sweep_values(c, f, a, pos + 1);
        return;
    }
    for (int i = 0; i < f->args[pos].n; i++) {
        a[pos] = f->args[pos].v[i];
        sweep_values(c, f, a, pos + 1);
    }
}

static void run_family(Ctx *c, const Family *f)
{
    Args a = {0};
    sweep_values(c, f, a, 0);
}

/* value lists shared by many families */
#define SF VALS(0, 1, 2, -1)
#define COND VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, -1)

#define A(i) ((int)a[i])
static bool in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

/* ---- add / subtract ------------------------------------------------------------------- */
static void m_addsub_imm(int op, int s, int64_t sf, int64_t rd, int64_t rn, int64_t imm12, int64_t lsl, Expect *e)
{
    if (!bit_ok(sf) || !reg_ok(rd) || !reg_ok(rn) || !in_range(imm12, 0, 4095) || !bit_ok(lsl)) {
        e->bad = true;
        return;
    }
    if (!op && !s && imm12 == 0 && !lsl && (rd == 31 || rn == 31)) {
        mn(e, "mov");
        e_reg(e, RSP(sf, rd));
        e_reg(e, RSP(sf, rn));
        return;
    }
    if (s && rd == 31) {
        mn(e, op ? "cmp" : "cmn");
    } else {
        mn(e, op ? (s ? "subs" : "sub") : (s ? "adds" : "add"));
        e_reg(e, s ? R(sf, rd) : RSP(sf, rd));
    }
    e_reg(e, RSP(sf, rn));
    ExpOp *o = e_imm(e, imm12);
    if (lsl)
        shifted(o, ARM64_SFT_LSL, 12);
}
static void m_add_imm(const int64_t *a, Expect *e) { m_addsub_imm(0, 0, a[0], a[1], a[2], a[3], a[4], e); }
static void m_adds_imm(const int64_t *a, Expect *e) { m_addsub_imm(0, 1, a[0], a[1], a[2], a[3], a[4], e); }
static void m_sub_imm(const int64_t *a, Expect *e) { m_addsub_imm(1, 0, a[0], a[1], a[2], a[3], a[4], e); }
static void m_subs_imm(const int64_t *a, Expect *e) { m_addsub_imm(1, 1, a[0], a[1], a[2], a[3], a[4], e); }
static void m_cmp_imm(const int64_t *a, Expect *e) { m_addsub_imm(1, 1, a[0], 31, a[1], a[2], a[3], e); }
static void m_cmn_imm(const int64_t *a, Expect *e) { m_addsub_imm(0, 1, a[0], 31, a[1], a[2], a[3], e); }
static void m_mov_sp(const int64_t *a, Expect *e) { m_addsub_imm(0, 0, a[0], a[1], a[2], 0, 0, e); }
static uint32_t e_add_imm(const int64_t *a) { return a64_add_imm(A(0), A(1), A(2), (uint32_t)a[3], A(4)); }
static uint32_t e_adds_imm(const int64_t *a) { return a64_adds_imm(A(0), A(1), A(2), (uint32_t)a[3], A(4)); }
static uint32_t e_sub_imm(const int64_t *a) { return a64_sub_imm(A(0), A(1), A(2), (uint32_t)a[3], A(4)); }
static uint32_t e_subs_imm(const int64_t *a) { return a64_subs_imm(A(0), A(1), A(2), (uint32_t)a[3], A(4)); }
static uint32_t e_cmp_imm(const int64_t *a) { return a64_cmp_imm(A(0), A(1), (uint32_t)a[2], A(3)); }
static uint32_t e_cmn_imm(const int64_t *a) { return a64_cmn_imm(A(0), A(1), (uint32_t)a[2], A(3)); }
static uint32_t e_mov_sp(const int64_t *a) { return a64_mov_sp(A(0), A(1), A(2)); }

static bool shift_ok(int64_t sf, int64_t shift, int64_t amount, bool ror)
{
    return bit_ok(sf) && in_range(shift, 0, ror ? 3 : 2) && in_range(amount, 0, width((int)sf) - 1);
}
/* the shifted operand: LSL #0 is not printed */
static void shifted_reg(Expect *e, int r, int64_t shift, int64_t amount)
{
    ExpOp *o = e_reg(e, r);
    if (shift != 0 || amount != 0)
        shifted(o, cs_shift[shift], (int)amount);
}

static void m_addsub_reg(int op, int s, const int64_t *a, Expect *e)
{
    int64_t sf = a[0], rd = a[1], rn = a[2], rm = a[3];
    if (!reg_ok(rd) || !reg_ok(rn) || !reg_ok(rm) || !shift_ok(sf, a[4], a[5], false)) {
        e->bad = true;
        return;
    }
    if (s && rd == 31) {
        mn(e, op ? "cmp" : "cmn");
        e_reg(e, R(sf, rn));
    } else if (op && rn == 31) {
        mn(e, s ? "negs" : "neg");
        e_reg(e, R(sf, rd));
    } else {
        mn(e, op ? (s ? "subs" : "sub") : (s ? "adds" : "add"));
        e_reg(e, R(sf, rd));
        e_reg(e, R(sf, rn));
    }
    shifted_reg(e, R(sf, rm), a[4], a[5]);
}
static void m_add_reg(const int64_t *a, Expect *e) { m_addsub_reg(0, 0, a, e); }
static void m_adds_reg(const int64_t *a, Expect *e) { m_addsub_reg(0, 1, a, e); }
static void m_sub_reg(const int64_t *a, Expect *e) { m_addsub_reg(1, 0, a, e); }
static void m_subs_reg(const int64_t *a, Expect *e) { m_addsub_reg(1, 1, a, e); }
/* aliases: the implied register is 31 (the zero register) */
static void m_cmp_reg(const int64_t *a, Expect *e) { Args b = {a[0], 31, a[1], a[2], a[3], a[4]}; m_addsub_reg(1, 1, b, e); }
static void m_cmn_reg(const int64_t *a, Expect *e) { Args b = {a[0], 31, a[1], a[2], a[3], a[4]}; m_addsub_reg(0, 1, b, e); }
static void m_neg(const int64_t *a, Expect *e) { Args b = {a[0], a[1], 31, a[2], a[3], a[4]}; m_addsub_reg(1, 0, b, e); }
static void m_negs(const int64_t *a, Expect *e) { Args b = {a[0], a[1], 31, a[2], a[3], a[4]}; m_addsub_reg(1, 1, b, e); }
#define ENC_SHIFTED(fn) \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3), (A64Shift)a[4], A(5)); }
#define ENC_SHIFTED2(fn) \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), (A64Shift)a[3], A(4)); }
ENC_SHIFTED(add_reg) ENC_SHIFTED(adds_reg) ENC_SHIFTED(sub_reg) ENC_SHIFTED(subs_reg)
ENC_SHIFTED2(cmp_reg) ENC_SHIFTED2(cmn_reg) ENC_SHIFTED2(neg) ENC_SHIFTED2(negs)

static void m_addsub_ext(int op, int s, const int64_t *a, Expect *e)
{
    int64_t sf = a[0], rd = a[1], rn = a[2], rm = a[3], ext = a[4], amount = a[5];
    if (!bit_ok(sf) || !reg_ok(rd) || !reg_ok(rn) || !reg_ok(rm) || !in_range(ext, 0, 7) ||
        !in_range(amount, 0, 4)) {
        e->bad = true;
        return;
    }
    if (s && rd == 31) {
        mn(e, op ? "cmp" : "cmn");
    } else {
        mn(e, op ? (s ? "subs" : "sub") : (s ? "adds" : "add"));
        e_reg(e, s ? R(sf, rd) : RSP(sf, rd));
    }
    e_reg(e, RSP(sf, rn));
    bool x_index = sf && (ext == A64_UXTX || ext == A64_SXTX);
    ExpOp *o = e_reg(e, x_index ? X(rm) : W(rm));
    /* with SP as destination or first source, UXTX (UXTW for W) is printed as LSL */
    bool lsl_form = ext == (sf ? A64_UXTX : A64_UXTW) && ((!s && rd == 31) || rn == 31);
    if (!lsl_form)
        o->ext = cs_ext[ext];
    if (amount)
        shifted(o, ARM64_SFT_LSL, (int)amount);
}
static void m_add_ext(const int64_t *a, Expect *e) { m_addsub_ext(0, 0, a, e); }
static void m_adds_ext(const int64_t *a, Expect *e) { m_addsub_ext(0, 1, a, e); }
static void m_sub_ext(const int64_t *a, Expect *e) { m_addsub_ext(1, 0, a, e); }
static void m_subs_ext(const int64_t *a, Expect *e) { m_addsub_ext(1, 1, a, e); }
static void m_cmp_ext(const int64_t *a, Expect *e) { Args b = {a[0], 31, a[1], a[2], a[3], a[4]}; m_addsub_ext(1, 1, b, e); }
static void m_cmn_ext(const int64_t *a, Expect *e) { Args b = {a[0], 31, a[1], a[2], a[3], a[4]}; m_addsub_ext(0, 1, b, e); }
#define ENC_EXT(fn) \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3), (A64Extend)a[4], A(5)); }
#define ENC_EXT2(fn) \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), (A64Extend)a[3], A(4)); }
ENC_EXT(add_ext) ENC_EXT(adds_ext) ENC_EXT(sub_ext) ENC_EXT(subs_ext) ENC_EXT2(cmp_ext) ENC_EXT2(cmn_ext)

/* ---- logical ------------------------------------------------------------------------ */
static void m_logical_reg(int opc, int n, const int64_t *a, Expect *e)
{
    static const char *const names[4][2] = {{"and", "bic"}, {"orr", "orn"}, {"eor", "eon"}, {"ands", "bics"}};
    int64_t sf = a[0], rd = a[1], rn = a[2], rm = a[3];
    if (!reg_ok(rd) || !reg_ok(rn) || !reg_ok(rm) || !shift_ok(sf, a[4], a[5], true)) {
        e->bad = true;
        return;
    }
    if (opc == 3 && !n && rd == 31) {
        mn(e, "tst");
        e_reg(e, R(sf, rn));
    } else if (opc == 1 && !n && rn == 31 && a[4] == A64_LSL && a[5] == 0) {
        mn(e, "mov");
        e_reg(e, R(sf, rd));
    } else if (opc == 1 && n && rn == 31) {
        mn(e, "mvn");
        e_reg(e, R(sf, rd));
    } else {
        mn(e, names[opc][n]);
        e_reg(e, R(sf, rd));
        e_reg(e, R(sf, rn));
    }
    shifted_reg(e, R(sf, rm), a[4], a[5]);
}
static void m_and_reg(const int64_t *a, Expect *e) { m_logical_reg(0, 0, a, e); }
static void m_bic_reg(const int64_t *a, Expect *e) { m_logical_reg(0, 1, a, e); }
static void m_orr_reg(const int64_t *a, Expect *e) { m_logical_reg(1, 0, a, e); }
static void m_orn_reg(const int64_t *a, Expect *e) { m_logical_reg(1, 1, a, e); }
static void m_eor_reg(const int64_t *a, Expect *e) { m_logical_reg(2, 0, a, e); }
static void m_eon_reg(const int64_t *a, Expect *e) { m_logical_reg(2, 1, a, e); }
static void m_ands_reg(const int64_t *a, Expect *e) { m_logical_reg(3, 0, a, e); }
static void m_bics_reg(const int64_t *a, Expect *e) { m_logical_reg(3, 1, a, e); }
static void m_tst_reg(const int64_t *a, Expect *e) { Args b = {a[0], 31, a[1], a[2], a[3], a[4]}; m_logical_reg(3, 0, b, e); }
static void m_mvn(const int64_t *a, Expect *e) { Args b = {a[0], a[1], 31, a[2], a[3], a[4]}; m_logical_reg(1, 1, b, e); }
static void m_mov_reg(const int64_t *a, Expect *e) { Args b = {a[0], a[1], 31, a[2], 0, 0}; m_logical_reg(1, 0, b, e); }
ENC_SHIFTED(and_reg) ENC_SHIFTED(bic_reg) ENC_SHIFTED(orr_reg) ENC_SHIFTED(orn_reg)
ENC_SHIFTED(eor_reg) ENC_SHIFTED(eon_reg) ENC_SHIFTED(ands_reg) ENC_SHIFTED(bics_reg)
ENC_SHIFTED2(tst_reg) ENC_SHIFTED2(mvn)
static uint32_t e_mov_reg(const int64_t *a) { return a64_mov_reg(A(0), A(1), A(2)); }

/* Capstone shows a W-operation's bitmask zero-extended, an X-operation's as int64 */
static int64_t bitmask_shown(int64_t sf, uint64_t v) { return sf ? (int64_t)v : (int64_t)(v & 0xffffffffu); }

static void m_logical_imm(int opc, const int64_t *a, Expect *e)
{
    static const char *const names[4] = {"and", "orr", "eor", "ands"};
    int64_t sf = a[0], rd = a[1], rn = a[2];
    uint64_t v = (uint64_t)a[3];
    if (!bit_ok(sf) || !reg_ok(rd) || !reg_ok(rn) || !a64_ref_is_bitmask_value((int)sf, v)) {
        e->bad = true;
        return;
    }
    if (opc == 3 && rd == 31) {
        mn(e, "tst");
    } else {
        mn(e, names[opc]);
        e_reg(e, opc == 3 ? R(sf, rd) : RSP(sf, rd));
    }
    e_reg(e, R(sf, rn));
    e_imm(e, bitmask_shown(sf, v));
}
static void m_and_imm(const int64_t *a, Expect *e) { m_logical_imm(0, a, e); }
static void m_orr_imm(const int64_t *a, Expect *e) { m_logical_imm(1, a, e); }
static void m_eor_imm(const int64_t *a, Expect *e) { m_logical_imm(2, a, e); }
static void m_ands_imm(const int64_t *a, Expect *e) { m_logical_imm(3, a, e); }
static void m_tst_imm(const int64_t *a, Expect *e) { Args b = {a[0], 31, a[1], a[2]}; m_logical_imm(3, b, e); }
#define ENC_LOGIMM(fn) \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), (uint64_t)a[3]); }
ENC_LOGIMM(and_imm) ENC_LOGIMM(orr_imm) ENC_LOGIMM(eor_imm) ENC_LOGIMM(ands_imm)
static uint32_t e_tst_imm(const int64_t *a) { return a64_tst_imm(A(0), A(1), (uint64_t)a[2]); }
#define LOGIMM_VALUES VALS(1, 0xff, 0xff00, 0x80000000, 0xfffffffe, 0x7ffffffe, 0x55555555, 0x5555555555555555, \
                           0x100000000, 0x7ffffffffffffffe, -2, (int64_t)0x8000000000000001ull, 0, -1,     \
                           0xffffffff, 0x1234, 5, 0x1ffffffff)

/* ---- move wide ---------------------------------------------------------------------- */
static void m_move_wide(const char *name, const int64_t *a, Expect *e)
{
    int64_t sf = a[0], rd = a[1], imm16 = a[2], hw = a[3];
    if (!bit_ok(sf) || !reg_ok(rd) || !in_range(imm16, 0, 0xffff) || !in_range(hw, 0, sf ? 3 : 1)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_reg(e, R(sf, rd));
    ExpOp *o = e_imm(e, imm16);
    if (hw)
        shifted(o, ARM64_SFT_LSL, (int)(16 * hw));
}
static void m_movz(const int64_t *a, Expect *e) { m_move_wide("movz", a, e); }
static void m_movn(const int64_t *a, Expect *e) { m_move_wide("movn", a, e); }
static void m_movk(const int64_t *a, Expect *e) { m_move_wide("movk", a, e); }
#define ENC_MOVW(fn) static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), (uint32_t)a[2], A(3)); }
ENC_MOVW(movz) ENC_MOVW(movn) ENC_MOVW(movk)

/* ---- multiply, divide, variable shifts, bit counts ------------------------------------ */
static bool regs_ok(const int64_t *a, int from, int to)
{
    for (int i = from; i <= to; i++)
        if (!reg_ok(a[i]))
            return false;
    return true;
}

/* MADD/MSUB: sf rd rn rm ra; MUL/MNEG when ra is the zero register */
static void m_madd_like(const char *name, const char *alias, const int64_t *a, Expect *e)
{
    int64_t sf = a[0];
    if (!bit_ok(sf) || !regs_ok(a, 1, 4)) {
        e->bad = true;
        return;
    }
    mn(e, a[4] == 31 ? alias : name);
    for (int i = 1; i <= (a[4] == 31 ? 3 : 4); i++)
        e_reg(e, R(sf, a[i]));
}
static void m_madd(const int64_t *a, Expect *e) { m_madd_like("madd", "mul", a, e); }
static void m_msub(const int64_t *a, Expect *e) { m_madd_like("msub", "mneg", a, e); }
static void m_mul(const int64_t *a, Expect *e) { Args b = {a[0], a[1], a[2], a[3], 31}; m_madd_like("madd", "mul", b, e); }
static void m_mneg(const int64_t *a, Expect *e) { Args b = {a[0], a[1], a[2], a[3], 31}; m_madd_like("msub", "mneg", b, e); }
static uint32_t e_madd(const int64_t *a) { return a64_madd(A(0), A(1), A(2), A(3), A(4)); }
static uint32_t e_msub(const int64_t *a) { return a64_msub(A(0), A(1), A(2), A(3), A(4)); }
static uint32_t e_mul(const int64_t *a) { return a64_mul(A(0), A(1), A(2), A(3)); }
static uint32_t e_mneg(const int64_t *a) { return a64_mneg(A(0), A(1), A(2), A(3)); }

/* widening multiply-add: Xd = Xa + Wn * Wm */
static void m_maddl(const char *name, const char *alias, const int64_t *a, Expect *e)
{
    if (!regs_ok(a, 0, 3)) {
        e->bad = true;
        return;
    }
    mn(e, a[3] == 31 ? alias : name);
    e_reg(e, X(a[0]));
    e_reg(e, W(a[1]));
    e_reg(e, W(a[2]));
    if (a[3] != 31)
        e_reg(e, X(a[3]));
}
static void m_smaddl(const int64_t *a, Expect *e) { m_maddl("smaddl", "smull", a, e); }
static void m_umaddl(const int64_t *a, Expect *e) { m_maddl("umaddl", "umull", a, e); }
static void m_smull(const int64_t *a, Expect *e) { Args b = {a[0], a[1], a[2], 31}; m_maddl("smaddl", "smull", b, e); }
static void m_umull(const int64_t *a, Expect *e) { Args b = {a[0], a[1], a[2], 31}; m_maddl("umaddl", "umull", b, e); }
static uint32_t e_smaddl(const int64_t *a) { return a64_smaddl(A(0), A(1), A(2), A(3)); }
static uint32_t e_umaddl(const int64_t *a) { return a64_umaddl(A(0), A(1), A(2), A(3)); }
static uint32_t e_smull(const int64_t *a) { return a64_smull(A(0), A(1), A(2)); }
static uint32_t e_umull(const int64_t *a) { return a64_umull(A(0), A(1), A(2)); }

/* rd rn rm (X only) */
static void m_mulh(const char *name, const int64_t *a, Expect *e)
{
    if (!regs_ok(a, 0, 2)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    for (int i = 0; i < 3; i++)
        e_reg(e, X(a[i]));
}
static void m_smulh(const int64_t *a, Expect *e) { m_mulh("smulh", a, e); }
static void m_umulh(const int64_t *a, Expect *e) { m_mulh("umulh", a, e); }
static uint32_t e_smulh(const int64_t *a) { return a64_smulh(A(0), A(1), A(2)); }
static uint32_t e_umulh(const int64_t *a) { return a64_umulh(A(0), A(1), A(2)); }

/* sf then nregs general registers of that width */
static void m_plain(const char *name, int nregs, const int64_t *a, Expect *e)
{
    if (!bit_ok(a[0]) || !regs_ok(a, 1, nregs)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    for (int i = 1; i <= nregs; i++)
        e_reg(e, R(a[0], a[i]));
}
#define PLAIN3(fn, name) \
    static void m_##fn(const int64_t *a, Expect *e) { m_plain(name, 3, a, e); } \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3)); }
#define PLAIN2(fn, name) \
    static void m_##fn(const int64_t *a, Expect *e) { m_plain(name, 2, a, e); } \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2)); }
PLAIN3(sdiv, "sdiv") PLAIN3(udiv, "udiv") PLAIN3(lslv, "lsl") PLAIN3(lsrv, "lsr") PLAIN3(asrv, "asr")
PLAIN3(rorv, "ror") PLAIN2(clz, "clz") PLAIN2(cls, "cls") PLAIN2(rbit, "rbit") PLAIN2(rev, "rev")

/* ---- bitfield moves: Capstone's preferred alias for each immr/imms ---------------------------- */
static void bf_regs_imms(Expect *e, const char *name, int64_t sf, int64_t rd, int64_t rn, int nimm, int64_t i1, int64_t i2)
{
    mn(e, name);
    e_reg(e, R(sf, rd));
    e_reg(e, R(sf, rn));
    e_imm(e, i1);
    if (nimm == 2)
        e_imm(e, i2);
}

static void bf_extend(Expect *e, const char *name, int64_t sf, int64_t rd, int64_t rn)
{
    mn(e, name);
    e_reg(e, R(sf, rd));
    e_reg(e, W(rn));
}

/* opc: 0 SBFM, 1 BFM, 2 UBFM */
static void m_bitfield(int opc, const int64_t *a, Expect *e)
{
    int64_t sf = a[0], rd = a[1], rn = a[2], immr = a[3], imms = a[4];
    int w = bit_ok(sf) ? width((int)sf) : 0;
    if (!w || !reg_ok(rd) || !reg_ok(rn) || !in_range(immr, 0, w - 1) || !in_range(imms, 0, w - 1)) {
        e->bad = true;
        return;
    }
    int64_t ins_lsb = (w - immr) % w, ins_width = imms + 1, ext_width = imms - immr + 1;
    static const char *const ins[3] = {"sbfiz", "bfi", "ubfiz"}, *const ext[3] = {"sbfx", "bfxil", "ubfx"};
    if (opc == 0 && imms == w - 1)
        bf_regs_imms(e, "asr", sf, rd, rn, 1, immr, 0);
    else if (opc == 2 && imms == w - 1)
        bf_regs_imms(e, "lsr", sf, rd, rn, 1, immr, 0);
    else if (opc == 2 && imms + 1 == immr)
        bf_regs_imms(e, "lsl", sf, rd, rn, 1, w - 1 - imms, 0);
    else if (opc == 0 && immr == 0 && (imms == 7 || imms == 15 || imms == 31))
        bf_extend(e, imms == 7 ? "sxtb" : imms == 15 ? "sxth" : "sxtw", sf, rd, rn);
    else if (opc == 2 && !sf && immr == 0 && (imms == 7 || imms == 15))
        bf_extend(e, imms == 7 ? "uxtb" : "uxth", sf, rd, rn);
    else if (imms < immr)
        bf_regs_imms(e, ins[opc], sf, rd, rn, 2, ins_lsb, ins_width);
    else
        bf_regs_imms(e, ext[opc], sf, rd, rn, 2, immr, ext_width);
}
static void m_sbfm(const int64_t *a, Expect *e) { m_bitfield(0, a, e); }
static void m_bfm(const int64_t *a, Expect *e) { m_bitfield(1, a, e); }
static void m_ubfm(const int64_t *a, Expect *e) { m_bitfield(2, a, e); }
#define ENC_BF(fn) static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3), A(4)); }
ENC_BF(sbfm) ENC_BF(bfm) ENC_BF(ubfm)
#define BF_IMMS VALS(0, 1, 7, 8, 15, 16, 30, 31, 32, 62, 63, 64, -1)

/* the shift aliases, by their architectural definition in terms of the bitfield moves */
static bool amount_ok(const int64_t *a) { return bit_ok(a[0]) && in_range(a[3], 0, width(A(0)) - 1); }
static void m_lsl_imm(const int64_t *a, Expect *e)
{
    int w = bit_ok(a[0]) ? width(A(0)) : 64;
    Args b = {a[0], a[1], a[2], (w - a[3]) % w, w - 1 - a[3]};
    if (!amount_ok(a))
        e->bad = true;
    else
        m_bitfield(2, b, e);
}
static void m_lsr_imm(const int64_t *a, Expect *e)
{
    Args b = {a[0], a[1], a[2], a[3], width(A(0)) - 1};
    if (!amount_ok(a))
        e->bad = true;
    else
        m_bitfield(2, b, e);
}
static void m_asr_imm(const int64_t *a, Expect *e)
{
    Args b = {a[0], a[1], a[2], a[3], width(A(0)) - 1};
    if (!amount_ok(a))
        e->bad = true;
    else
        m_bitfield(0, b, e);
}
static void m_extr(const int64_t *a, Expect *e)
{
    int64_t sf = a[0], lsb = a[4];
    if (!bit_ok(sf) || !regs_ok(a, 1, 3) || !in_range(lsb, 0, width((int)sf) - 1)) {
        e->bad = true;
        return;
    }
    mn(e, a[2] == a[3] ? "ror" : "extr");
    e_reg(e, R(sf, a[1]));
    e_reg(e, R(sf, a[2]));
    if (a[2] != a[3])
        e_reg(e, R(sf, a[3]));
    e_imm(e, lsb);
}
static void m_ror_imm(const int64_t *a, Expect *e) { Args b = {a[0], a[1], a[2], a[2], a[3]}; m_extr(b, e); }
static uint32_t e_lsl_imm(const int64_t *a) { return a64_lsl_imm(A(0), A(1), A(2), A(3)); }
static uint32_t e_lsr_imm(const int64_t *a) { return a64_lsr_imm(A(0), A(1), A(2), A(3)); }
static uint32_t e_asr_imm(const int64_t *a) { return a64_asr_imm(A(0), A(1), A(2), A(3)); }
static uint32_t e_ror_imm(const int64_t *a) { return a64_ror_imm(A(0), A(1), A(2), A(3)); }
static uint32_t e_extr(const int64_t *a) { return a64_extr(A(0), A(1), A(2), A(3), A(4)); }

/* field aliases: extract (immr = lsb, imms = lsb+width-1), insert (immr = -lsb mod w,
 * imms = width-1) */
static bool field_ok(const int64_t *a)
{
    return bit_ok(a[0]) && in_range(a[3], 0, width(A(0)) - 1) && in_range(a[4], 1, width(A(0)) - a[3]);
}
static void m_field(int opc, bool insert, const int64_t *a, Expect *e)
{
    if (!field_ok(a)) {
        e->bad = true;
        return;
    }
    int w = width(A(0));
    Args b = {a[0], a[1], a[2], insert ? (w - a[3]) % w : a[3], insert ? a[4] - 1 : a[3] + a[4] - 1};
    m_bitfield(opc, b, e);
}
static void m_sbfx(const int64_t *a, Expect *e) { m_field(0, false, a, e); }
static void m_bfxil(const int64_t *a, Expect *e) { m_field(1, false, a, e); }
static void m_ubfx(const int64_t *a, Expect *e) { m_field(2, false, a, e); }
static void m_sbfiz(const int64_t *a, Expect *e) { m_field(0, true, a, e); }
static void m_bfi(const int64_t *a, Expect *e) { m_field(1, true, a, e); }
static void m_ubfiz(const int64_t *a, Expect *e) { m_field(2, true, a, e); }
ENC_BF(sbfx) ENC_BF(bfxil) ENC_BF(ubfx) ENC_BF(sbfiz) ENC_BF(bfi) ENC_BF(ubfiz)

/* extensions, stated directly */
static void m_extend(const char *name, int64_t sf, const int64_t *r, Expect *e)
{
    if (!bit_ok(sf) || !reg_ok(r[0]) || !reg_ok(r[1])) {
        e->bad = true;
        return;
    }
    bf_extend(e, name, sf, r[0], r[1]);
}
static void m_uxtb(const int64_t *a, Expect *e) { m_extend("uxtb", 0, a, e); }
static void m_uxth(const int64_t *a, Expect *e) { m_extend("uxth", 0, a, e); }
static void m_sxtw(const int64_t *a, Expect *e) { m_extend("sxtw", 1, a, e); }
static void m_sxtb(const int64_t *a, Expect *e) { m_extend("sxtb", a[0], a + 1, e); }
static void m_sxth(const int64_t *a, Expect *e) { m_extend("sxth", a[0], a + 1, e); }
static uint32_t e_uxtb(const int64_t *a) { return a64_uxtb(A(0), A(1)); }
static uint32_t e_uxth(const int64_t *a) { return a64_uxth(A(0), A(1)); }
static uint32_t e_sxtw(const int64_t *a) { return a64_sxtw(A(0), A(1)); }
static uint32_t e_sxtb(const int64_t *a) { return a64_sxtb(A(0), A(1), A(2)); }
static uint32_t e_sxth(const int64_t *a) { return a64_sxth(A(0), A(1), A(2)); }

/* ---- conditional select and compare ------------------------------------------------------ */
/* op: 0 CSEL, 1 CSINC, 2 CSINV, 3 CSNEG.  Capstone 4 prints the alias whenever rn == rm
 * and cond is not NV — also for AL, which the architecture excludes (it then shows the
 * inverted condition, nv). */
static void m_cond_select(int op, const int64_t *a, Expect *e)
{
    static const char *const names[4] = {"csel", "csinc", "csinv", "csneg"};
    static const char *const set_alias[4] = {NULL, "cset", "csetm", NULL};
    static const char *const reg_alias[4] = {NULL, "cinc", "cinv", "cneg"};
    int64_t sf = a[0], rd = a[1], rn = a[2], rm = a[3], cond = a[4];
    if (!bit_ok(sf) || !regs_ok(a, 1, 3) || !in_range(cond, 0, 15)) {
        e->bad = true;
        return;
    }
    bool alias = op != 0 && rn == rm && cond != A64_NV;
    if (alias && rn == 31 && set_alias[op]) {
        mn(e, set_alias[op]);
        e_reg(e, R(sf, rd));
    } else if (alias) {
        mn(e, reg_alias[op]);
        e_reg(e, R(sf, rd));
        e_reg(e, R(sf, rn));
    } else {
        mn(e, names[op]);
        e_reg(e, R(sf, rd));
        e_reg(e, R(sf, rn));
        e_reg(e, R(sf, rm));
    }
    e->cc = cc_of(alias ? cond ^ 1 : cond);
}
static void m_csel(const int64_t *a, Expect *e) { m_cond_select(0, a, e); }
static void m_csinc(const int64_t *a, Expect *e) { m_cond_select(1, a, e); }
static void m_csinv(const int64_t *a, Expect *e) { m_cond_select(2, a, e); }
static void m_csneg(const int64_t *a, Expect *e) { m_cond_select(3, a, e); }
#define ENC_CSEL(fn) static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3), (A64Cond)a[4]); }
ENC_CSEL(csel) ENC_CSEL(csinc) ENC_CSEL(csinv) ENC_CSEL(csneg)

/* the aliases, stated directly: sf rd [rn] cond, cond not AL/NV */
static void m_cset_like(const char *name, bool has_rn, const int64_t *a, Expect *e)
{
    int64_t cond = a[has_rn ? 3 : 2];
    if (!bit_ok(a[0]) || !regs_ok(a, 1, has_rn ? 2 : 1) || !in_range(cond, 0, 13)) {
        e->bad = true;
        return;
    }
    bool to_cset = has_rn && a[2] == 31 && strcmp(name, "cinc") == 0;
    mn(e, to_cset ? "cset" : name);
    e_reg(e, R(a[0], a[1]));
    if (has_rn && !to_cset)
        e_reg(e, R(a[0], a[2]));
    e->cc = cc_of(cond);
}
static void m_cset(const int64_t *a, Expect *e) { m_cset_like("cset", false, a, e); }
static void m_csetm(const int64_t *a, Expect *e) { m_cset_like("csetm", false, a, e); }
static void m_cinc(const int64_t *a, Expect *e) { m_cset_like("cinc", true, a, e); }
static void m_cneg(const int64_t *a, Expect *e) { m_cset_like("cneg", true, a, e); }
static uint32_t e_cset(const int64_t *a) { return a64_cset(A(0), A(1), (A64Cond)a[2]); }
static uint32_t e_csetm(const int64_t *a) { return a64_csetm(A(0), A(1), (A64Cond)a[2]); }
static uint32_t e_cinc(const int64_t *a) { return a64_cinc(A(0), A(1), A(2), (A64Cond)a[3]); }
static uint32_t e_cneg(const int64_t *a) { return a64_cneg(A(0), A(1), A(2), (A64Cond)a[3]); }

/* sf rn rm|imm5 nzcv cond */
static void m_cond_compare(const char *name, bool is_imm, const int64_t *a, Expect *e)
{
    int64_t sf = a[0], rn = a[1], second = a[2], nzcv = a[3], cond = a[4];
    if (!bit_ok(sf) || !reg_ok(rn) || !in_range(second, 0, 31) || !in_range(nzcv, 0, 15) ||
        !in_range(cond, 0, 15)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_reg(e, R(sf, rn));
    if (is_imm)
        e_imm(e, second);
    else
        e_reg(e, R(sf, second));
    e_imm(e, nzcv);
    e->cc = cc_of(cond);
}
static void m_ccmp_reg(const int64_t *a, Expect *e) { m_cond_compare("ccmp", false, a, e); }
static void m_ccmn_reg(const int64_t *a, Expect *e) { m_cond_compare("ccmn", false, a, e); }
static void m_ccmp_imm(const int64_t *a, Expect *e) { m_cond_compare("ccmp", true, a, e); }
static void m_ccmn_imm(const int64_t *a, Expect *e) { m_cond_compare("ccmn", true, a, e); }
#define ENC_CCMP(fn) static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3), (A64Cond)a[4]); }
ENC_CCMP(ccmp_reg) ENC_CCMP(ccmn_reg) ENC_CCMP(ccmp_imm) ENC_CCMP(ccmn_imm)

/* ---- loads and stores ------------------------------------------------------------------ */
typedef struct {
    const char *name, *unscaled;
    int size;
    char file;        /* register of the transfer: 'w', 'x', 's', 'd' */
} LdStInfo;

static const LdStInfo ldst_info[A64_LDST_COUNT] = {
    [A64_STRB] = {"strb", "sturb", 1, 'w'},    [A64_LDRB] = {"ldrb", "ldurb", 1, 'w'},
    [A64_LDRSB_X] = {"ldrsb", "ldursb", 1, 'x'}, [A64_LDRSB_W] = {"ldrsb", "ldursb", 1, 'w'},
    [A64_STRH] = {"strh", "sturh", 2, 'w'},    [A64_LDRH] = {"ldrh", "ldurh", 2, 'w'},
    [A64_LDRSH_X] = {"ldrsh", "ldursh", 2, 'x'}, [A64_LDRSH_W] = {"ldrsh", "ldursh", 2, 'w'},
    [A64_STR_W] = {"str", "stur", 4, 'w'},     [A64_LDR_W] = {"ldr", "ldur", 4, 'w'},
    [A64_LDRSW] = {"ldrsw", "ldursw", 4, 'x'},
    [A64_STR_X] = {"str", "stur", 8, 'x'},     [A64_LDR_X] = {"ldr", "ldur", 8, 'x'},
    [A64_STR_S] = {"str", "stur", 4, 's'},     [A64_LDR_S] = {"ldr", "ldur", 4, 's'},
    [A64_STR_D] = {"str", "stur", 8, 'd'},     [A64_LDR_D] = {"ldr", "ldur", 8, 'd'},
};

static int file_reg(char file, int64_t n)
{
    switch (file) {
    case 'w': return W(n);
    case 'x': return X(n);
    case 's': return F(0, n);
    default: return F(1, n);
    }
}
static bool kind_ok(int64_t k) { return in_range(k, 0, A64_LDST_COUNT - 1); }
static bool fp_file(char file) { return file == 's' || file == 'd'; }

static bool uimm_ok(int64_t k, int64_t off)
{
    int size = ldst_info[k].size;
    return off >= 0 && off % size == 0 && off / size <= 4095;
}

/* kind rt rn offset */
static void m_ldst_uimm(const int64_t *a, Expect *e)
{
    if (!kind_ok(a[0]) || !regs_ok(a, 1, 2) || !uimm_ok(a[0], a[3])) {
        e->bad = true;
        return;
    }
    const LdStInfo *in = &ldst_info[a[0]];
    mn(e, in->name);
    e_reg(e, file_reg(in->file, a[1]));
    e_mem(e, XSP(a[2]), 0, (int32_t)a[3]);
}

/* mode: 0 unscaled, 1 post-index, 3 pre-index */
static void m_ldst_imm9(int mode, const int64_t *a, Expect *e)
{
    if (!kind_ok(a[0]) || !regs_ok(a, 1, 2) || !in_range(a[3], -256, 255)) {
        e->bad = true;
        return;
    }
    const LdStInfo *in = &ldst_info[a[0]];
    if (mode && !fp_file(in->file) && a[1] == a[2] && a[2] != 31) {
        e->bad = true;           /* writeback into the transfer register is unpredictable */
        return;
    }
    mn(e, mode ? in->name : in->unscaled);
    e_reg(e, file_reg(in->file, a[1]));
    e_mem(e, XSP(a[2]), 0, mode == 1 ? 0 : (int32_t)a[3]);
    if (mode == 1)
        e_imm(e, a[3]);
    e->wb = mode != 0;
}
static void m_ldst_unscaled(const int64_t *a, Expect *e) { m_ldst_imm9(0, a, e); }
static void m_ldst_post(const int64_t *a, Expect *e) { m_ldst_imm9(1, a, e); }
static void m_ldst_pre(const int64_t *a, Expect *e) { m_ldst_imm9(3, a, e); }
static void m_ldst_offset(const int64_t *a, Expect *e)
{
    if (kind_ok(a[0]) && uimm_ok(a[0], a[3]))
        m_ldst_uimm(a, e);
    else
        m_ldst_unscaled(a, e);
}
#define ENC_LDST(fn) static uint32_t e_##fn(const int64_t *a) { return a64_##fn((A64LdSt)a[0], A(1), A(2), a[3]); }
ENC_LDST(ldst_uimm) ENC_LDST(ldst_unscaled) ENC_LDST(ldst_post) ENC_LDST(ldst_pre) ENC_LDST(ldst_offset)
#define LDST_KINDS VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, -1)
#define LDST_OFFSETS VALS(0, 1, 2, 3, 4, 6, 8, 12, 255, 256, -1, -4, -8, -256, -257, 4095, 4096, \
                          8190, 8192, 16380, 16384, 32760, 32768, -9999)

/* kind rt rn rm ext shifted */
static void m_ldst_reg(const int64_t *a, Expect *e)
{
    int64_t ext = a[4];
    bool ext_ok = ext == A64_UXTW || ext == A64_UXTX || ext == A64_SXTW || ext == A64_SXTX;
    if (!kind_ok(a[0]) || !regs_ok(a, 1, 3) || !ext_ok || !bit_ok(a[5])) {
        e->bad = true;
        return;
    }
    const LdStInfo *in = &ldst_info[a[0]];
    mn(e, in->name);
    e_reg(e, file_reg(in->file, a[1]));
    bool w_index = ext == A64_UXTW || ext == A64_SXTW;
    ExpOp *o = e_mem(e, XSP(a[2]), w_index ? W(a[3]) : X(a[3]), 0);
    if (ext != A64_UXTX)
        o->ext = cs_ext[ext];
    if (a[5])
        shifted(o, ARM64_SFT_LSL, __builtin_ctz((unsigned)in->size));
}
static uint32_t e_ldst_reg(const int64_t *a) { return a64_ldst_reg((A64LdSt)a[0], A(1), A(2), A(3), (A64Extend)a[4], A(5)); }

/* kind rt offset */
static void m_ldr_literal(const int64_t *a, Expect *e)
{
    int64_t k = a[0], off = a[2];
    bool kind = k == A64_LDR_W || k == A64_LDR_X || k == A64_LDRSW || k == A64_LDR_S || k == A64_LDR_D;
    if (!kind || !reg_ok(a[1]) || off % 4 != 0 || !in_range(off, -(1 << 20), (1 << 20) - 4)) {
        e->bad = true;
        return;
    }
    mn(e, ldst_info[k].name);
    e_reg(e, file_reg(ldst_info[k].file, a[1]));
    e_imm(e, BASE_ADDR + off);
}
static uint32_t e_ldr_literal(const int64_t *a) { return a64_ldr_literal((A64LdSt)a[0], A(1), a[2]); }

/* pairs: kind mode rt rt2 rn offset */
typedef struct {
    const char *name;
    int size;
    char file;
    bool load;
} PairInfo;
static const PairInfo pair_info[A64_PAIR_COUNT] = {
    [A64_STP_W] = {"stp", 4, 'w', false}, [A64_LDP_W] = {"ldp", 4, 'w', true},
    [A64_LDPSW] = {"ldpsw", 4, 'x', true}, [A64_STP_X] = {"stp", 8, 'x', false},
    [A64_LDP_X] = {"ldp", 8, 'x', true},  [A64_STP_S] = {"stp", 4, 's', false},
    [A64_LDP_S] = {"ldp", 4, 's', true},  [A64_STP_D] = {"stp", 8, 'd', false},
    [A64_LDP_D] = {"ldp", 8, 'd', true},
};

static bool pair_ok(const int64_t *a)
{
    if (!in_range(a[0], 0, A64_PAIR_COUNT - 1) || !in_range(a[1], 0, 2) || !regs_ok(a, 2, 4))
        return false;
    const PairInfo *p = &pair_info[a[0]];
    int64_t rt = a[2], rt2 = a[3], rn = a[4], off = a[5];
    if (off % p->size != 0 || !in_range(off / p->size, -64, 63) || (p->load && rt == rt2))
        return false;
    bool writeback = a[1] != A64_PAIR_OFFSET;
    return !(writeback && !fp_file(p->file) && rn != 31 && (rt == rn || rt2 == rn));
}
static void m_ldstp(const int64_t *a, Expect *e)
{
    if (!pair_ok(a)) {
        e->bad = true;
        return;
    }
    const PairInfo *p = &pair_info[a[0]];
    bool post = a[1] == A64_PAIR_POST;
    mn(e, p->name);
    e_reg(e, file_reg(p->file, a[2]));
    e_reg(e, file_reg(p->file, a[3]));
    e_mem(e, XSP(a[4]), 0, post ? 0 : (int32_t)a[5]);
    if (post)
        e_imm(e, a[5]);
    e->wb = a[1] != A64_PAIR_OFFSET;
}
static uint32_t e_ldstp(const int64_t *a) { return a64_ldstp((A64Pair)a[0], (A64PairMode)a[1], A(2), A(3), A(4), a[5]); }

/* ---- branches ----------------------------------------------------------------------- */
static bool branch_ok(int64_t off, int bits)
{
    int64_t lim = (int64_t)4 << (bits - 1);
    return off % 4 == 0 && off >= -lim && off < lim;
}
static void m_b_like(const char *name, const int64_t *a, Expect *e)
{
    if (!branch_ok(a[0], 26)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_imm(e, BASE_ADDR + a[0]);
}
static void m_b(const int64_t *a, Expect *e) { m_b_like("b", a, e); }
static void m_bl(const int64_t *a, Expect *e) { m_b_like("bl", a, e); }
static uint32_t e_b(const int64_t *a) { return a64_b(a[0]); }
static uint32_t e_bl(const int64_t *a) { return a64_bl(a[0]); }
#define B26_OFFSETS VALS(0, 4, -4, 8, 0x7fffffc, -0x8000000, 0x8000000, -0x8000004, 2, (int64_t)1 << 40)
#define B19_OFFSETS VALS(0, 4, -4, 0xffffc, -0x100000, 0x100000, -0x100004, 6)
#define B14_OFFSETS VALS(0, 4, -4, 0x7ffc, -0x8000, 0x8000, -0x8004, 2)

static void m_b_cond(const int64_t *a, Expect *e)
{
    if (!in_range(a[0], 0, 15) || !branch_ok(a[1], 19)) {
        e->bad = true;
        return;
    }
    char name[8];
    snprintf(name, sizeof name, "b.%s", cond_names[a[0]]);
    mn(e, name);
    e_imm(e, BASE_ADDR + a[1]);
    e->cc = cc_of(a[0]);
}
static uint32_t e_b_cond(const int64_t *a) { return a64_b_cond((A64Cond)a[0], a[1]); }

/* sf rt offset */
static void m_cb(const char *name, const int64_t *a, Expect *e)
{
    if (!bit_ok(a[0]) || !reg_ok(a[1]) || !branch_ok(a[2], 19)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_reg(e, R(a[0], a[1]));
    e_imm(e, BASE_ADDR + a[2]);
}
static void m_cbz(const int64_t *a, Expect *e) { m_cb("cbz", a, e); }
static void m_cbnz(const int64_t *a, Expect *e) { m_cb("cbnz", a, e); }
static uint32_t e_cbz(const int64_t *a) { return a64_cbz(A(0), A(1), a[2]); }
static uint32_t e_cbnz(const int64_t *a) { return a64_cbnz(A(0), A(1), a[2]); }

/* rt bit offset: bits below 32 name the W register */
static void m_tb(const char *name, const int64_t *a, Expect *e)
{
    if (!reg_ok(a[0]) || !in_range(a[1], 0, 63) || !branch_ok(a[2], 14)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_reg(e, a[1] < 32 ? W(a[0]) : X(a[0]));
    e_imm(e, a[1]);
    e_imm(e, BASE_ADDR + a[2]);
}
static void m_tbz(const int64_t *a, Expect *e) { m_tb("tbz", a, e); }
static void m_tbnz(const int64_t *a, Expect *e) { m_tb("tbnz", a, e); }
static uint32_t e_tbz(const int64_t *a) { return a64_tbz(A(0), A(1), a[2]); }
static uint32_t e_tbnz(const int64_t *a) { return a64_tbnz(A(0), A(1), a[2]); }

static void m_branch_reg(const char *name, const int64_t *a, Expect *e)
{
    if (!reg_ok(a[0])) {
        e->bad = true;
        return;
    }
    mn(e, name);
    if (strcmp(name, "ret") != 0 || a[0] != 30)   /* RET names X30 implicitly */
        e_reg(e, X(a[0]));
}
static void m_br(const int64_t *a, Expect *e) { m_branch_reg("br", a, e); }
static void m_blr(const int64_t *a, Expect *e) { m_branch_reg("blr", a, e); }
static void m_ret(const int64_t *a, Expect *e) { m_branch_reg("ret", a, e); }
static uint32_t e_br(const int64_t *a) { return a64_br(A(0)); }
static uint32_t e_blr(const int64_t *a) { return a64_blr(A(0)); }
static uint32_t e_ret(const int64_t *a) { return a64_ret(A(0)); }

/* rd offset */
static void m_adr(const int64_t *a, Expect *e)
{
    if (!reg_ok(a[0]) || !in_range(a[1], -(1 << 20), (1 << 20) - 1)) {
        e->bad = true;
        return;
    }
    mn(e, "adr");
    e_reg(e, X(a[0]));
    e_imm(e, BASE_ADDR + a[1]);
}
static void m_adrp(const int64_t *a, Expect *e)
{
    int64_t lim = (int64_t)1 << 32;
    if (!reg_ok(a[0]) || a[1] % 4096 != 0 || !in_range(a[1], -lim, lim - 4096)) {
        e->bad = true;
        return;
    }
    mn(e, "adrp");
    e_reg(e, X(a[0]));
    e_imm(e, (BASE_ADDR & ~0xfff) + a[1]);
}
static uint32_t e_adr(const int64_t *a) { return a64_adr(A(0), a[1]); }
static uint32_t e_adrp(const int64_t *a) { return a64_adrp(A(0), a[1]); }

static void m_exception(const char *name, const int64_t *a, Expect *e)
{
    if (!in_range(a[0], 0, 0xffff)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_imm(e, a[0]);
}
static void m_brk(const int64_t *a, Expect *e) { m_exception("brk", a, e); }
static void m_hlt(const int64_t *a, Expect *e) { m_exception("hlt", a, e); }
static uint32_t e_brk(const int64_t *a) { return a64_brk((uint32_t)a[0]); }
static uint32_t e_hlt(const int64_t *a) { return a64_hlt((uint32_t)a[0]); }
static void m_nop(const int64_t *a, Expect *e) { (void)a; mn(e, "nop"); }
static uint32_t e_nop(const int64_t *a) { (void)a; return a64_nop(); }

/* ---- floating point ------------------------------------------------------------------- */
/* dbl then nregs FP registers of that precision */
static void m_fp(const char *name, int nregs, const int64_t *a, Expect *e)
{
    if (!bit_ok(a[0]) || !regs_ok(a, 1, nregs)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    for (int i = 1; i <= nregs; i++)
        e_reg(e, F(A(0), a[i]));
}
#define FP3(fn) \
    static void m_##fn(const int64_t *a, Expect *e) { m_fp(#fn, 3, a, e); } \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3)); }
#define FP2(fn) \
    static void m_##fn(const int64_t *a, Expect *e) { m_fp(#fn, 2, a, e); } \
    static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2)); }
FP3(fadd) FP3(fsub) FP3(fmul) FP3(fdiv) FP3(fmax) FP3(fmin) FP3(fmaxnm) FP3(fminnm) FP3(fnmul)
FP2(fneg) FP2(fabs) FP2(fsqrt) FP2(frintn) FP2(frintp) FP2(frintm) FP2(frintz) FP2(fmov) FP2(fcmp) FP2(fcmpe)

static void m_fcmp_zero_like(const char *name, const int64_t *a, Expect *e)
{
    if (!bit_ok(a[0]) || !reg_ok(a[1])) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_reg(e, F(A(0), a[1]));
    op_new(e, OP_FP);
}
static void m_fcmp_zero(const int64_t *a, Expect *e) { m_fcmp_zero_like("fcmp", a, e); }
static void m_fcmpe_zero(const int64_t *a, Expect *e) { m_fcmp_zero_like("fcmpe", a, e); }
static uint32_t e_fcmp_zero(const int64_t *a) { return a64_fcmp_zero(A(0), A(1)); }
static uint32_t e_fcmpe_zero(const int64_t *a) { return a64_fcmpe_zero(A(0), A(1)); }

static void m_fcsel(const int64_t *a, Expect *e)
{
    m_fp("fcsel", 3, a, e);
    if (!in_range(a[4], 0, 15))
        e->bad = true;
    e->cc = cc_of(a[4]);
}
static uint32_t e_fcsel(const int64_t *a) { return a64_fcsel(A(0), A(1), A(2), A(3), (A64Cond)a[4]); }

static void m_fcvt(const int64_t *a, Expect *e)
{
    if (!bit_ok(a[0]) || !regs_ok(a, 1, 2)) {
        e->bad = true;
        return;
    }
    mn(e, "fcvt");
    e_reg(e, F(A(0), a[1]));
    e_reg(e, F(!a[0], a[2]));
}
static uint32_t e_fcvt(const int64_t *a) { return a64_fcvt(A(0), A(1), A(2)); }

/* sf dbl rd rn; to_fp: rd is FP and rn general, else the reverse */
static void m_fp_int(const char *name, bool to_fp, const int64_t *a, Expect *e)
{
    if (!bit_ok(a[0]) || !bit_ok(a[1]) || !regs_ok(a, 2, 3)) {
        e->bad = true;
        return;
    }
    mn(e, name);
    e_reg(e, to_fp ? F(A(1), a[2]) : R(a[0], a[2]));
    e_reg(e, to_fp ? R(a[0], a[3]) : F(A(1), a[3]));
}
static void m_scvtf(const int64_t *a, Expect *e) { m_fp_int("scvtf", true, a, e); }
static void m_ucvtf(const int64_t *a, Expect *e) { m_fp_int("ucvtf", true, a, e); }
static void m_fcvtzs(const int64_t *a, Expect *e) { m_fp_int("fcvtzs", false, a, e); }
static void m_fcvtzu(const int64_t *a, Expect *e) { m_fp_int("fcvtzu", false, a, e); }
#define ENC_FPINT(fn) static uint32_t e_##fn(const int64_t *a) { return a64_##fn(A(0), A(1), A(2), A(3)); }
ENC_FPINT(scvtf) ENC_FPINT(ucvtf) ENC_FPINT(fcvtzs) ENC_FPINT(fcvtzu)
/* FMOV between files: dbl names both widths (W<->S, X<->D) */
static void m_fmov_to_gpr(const int64_t *a, Expect *e) { Args b = {a[0], a[0], a[1], a[2]}; m_fp_int("fmov", false, b, e); }
static void m_fmov_from_gpr(const int64_t *a, Expect *e) { Args b = {a[0], a[0], a[1], a[2]}; m_fp_int("fmov", true, b, e); }
static uint32_t e_fmov_to_gpr(const int64_t *a) { return a64_fmov_to_gpr(A(0), A(1), A(2)); }
static uint32_t e_fmov_from_gpr(const int64_t *a) { return a64_fmov_from_gpr(A(0), A(1), A(2)); }

/* ---- system registers: Capstone's id is op0:op1:CRn:CRm:op2 ------------------------------- */
static int sysreg_id(int64_t reg)
{
    static const int crm_op2[A64_SYS_COUNT][2] = {[A64_SYS_NZCV] = {2, 0}, [A64_SYS_FPCR] = {4, 0}, [A64_SYS_FPSR] = {4, 1}};
    return 3 << 14 | 3 << 11 | 4 << 7 | crm_op2[reg][0] << 3 | crm_op2[reg][1];
}
static void m_mrs(const int64_t *a, Expect *e)
{
    if (!reg_ok(a[0]) || !in_range(a[1], 0, A64_SYS_COUNT - 1)) {
        e->bad = true;
        return;
    }
    mn(e, "mrs");
    e_reg(e, X(a[0]));
    op_new(e, OP_MRS)->reg = sysreg_id(a[1]);
}
static void m_msr(const int64_t *a, Expect *e)
{
    if (!reg_ok(a[1]) || !in_range(a[0], 0, A64_SYS_COUNT - 1)) {
        e->bad = true;
        return;
    }
    mn(e, "msr");
    op_new(e, OP_MSR)->reg = sysreg_id(a[0]);
    e_reg(e, X(a[1]));
}
static uint32_t e_mrs(const int64_t *a) { return a64_mrs(A(0), (A64SysReg)a[1]); }
static uint32_t e_msr(const int64_t *a) { return a64_msr((A64SysReg)a[0], A(1)); }

/* ---- the family table ---------------------------------------------------------------- */
#define IMM12 VALS(0, 1, 2, 0x555, 0xfff, 0x1000, -1)
#define LSL12 VALS(0, 1, 2)
#define SHIFT VALS(0, 1, 2, 3, 4)
#define AMOUNT VALS(0, 1, 5, 31, 32, 63, 64, -1)
#define EXT VALS(0, 1, 2, 3, 4, 5, 6, 7, 8)
#define EXT_AMOUNT VALS(0, 1, 4, 5, -1)
#define F_(fn, n, ...) {#fn, n, {__VA_ARGS__}, e_##fn, m_##fn}

static const Family families[] = {
    F_(add_imm, 5, SF, REG, REG, IMM12, LSL12), F_(adds_imm, 5, SF, REG, REG, IMM12, LSL12),
    F_(sub_imm, 5, SF, REG, REG, IMM12, LSL12), F_(subs_imm, 5, SF, REG, REG, IMM12, LSL12),
    F_(cmp_imm, 4, SF, REG, IMM12, LSL12), F_(cmn_imm, 4, SF, REG, IMM12, LSL12),
    F_(mov_sp, 3, SF, REG, REG),
    F_(add_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT), F_(adds_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT),
    F_(sub_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT), F_(subs_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT),
    F_(cmp_reg, 5, SF, REG, REG, SHIFT, AMOUNT), F_(cmn_reg, 5, SF, REG, REG, SHIFT, AMOUNT),
    F_(neg, 5, SF, REG, REG, SHIFT, AMOUNT), F_(negs, 5, SF, REG, REG, SHIFT, AMOUNT),
    F_(add_ext, 6, SF, REG, REG, REG, EXT, EXT_AMOUNT), F_(adds_ext, 6, SF, REG, REG, REG, EXT, EXT_AMOUNT),
    F_(sub_ext, 6, SF, REG, REG, REG, EXT, EXT_AMOUNT), F_(subs_ext, 6, SF, REG, REG, REG, EXT, EXT_AMOUNT),
    F_(cmp_ext, 5, SF, REG, REG, EXT, EXT_AMOUNT), F_(cmn_ext, 5, SF, REG, REG, EXT, EXT_AMOUNT),
    F_(and_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT), F_(bic_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT),
    F_(orr_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT), F_(orn_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT),
    F_(eor_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT), F_(eon_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT),
    F_(ands_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT), F_(bics_reg, 6, SF, REG, REG, REG, SHIFT, AMOUNT),
    F_(tst_reg, 5, SF, REG, REG, SHIFT, AMOUNT), F_(mvn, 5, SF, REG, REG, SHIFT, AMOUNT),
    F_(mov_reg, 3, SF, REG, REG),
    F_(and_imm, 4, SF, REG, REG, LOGIMM_VALUES), F_(orr_imm, 4, SF, REG, REG, LOGIMM_VALUES),
    F_(eor_imm, 4, SF, REG, REG, LOGIMM_VALUES), F_(ands_imm, 4, SF, REG, REG, LOGIMM_VALUES),
    F_(tst_imm, 3, SF, REG, LOGIMM_VALUES),
    F_(movz, 4, SF, REG, VALS(0, 1, 0x1234, 0xffff, 0x10000, -1), VALS(0, 1, 2, 3, 4, -1)),
    F_(movn, 4, SF, REG, VALS(0, 1, 0x1234, 0xffff, 0x10000, -1), VALS(0, 1, 2, 3, 4, -1)),
    F_(movk, 4, SF, REG, VALS(0, 1, 0x1234, 0xffff, 0x10000, -1), VALS(0, 1, 2, 3, 4, -1)),
    F_(madd, 5, SF, REG, REG, REG, REG), F_(msub, 5, SF, REG, REG, REG, REG),
    F_(mul, 4, SF, REG, REG, REG), F_(mneg, 4, SF, REG, REG, REG),
    F_(smaddl, 4, REG, REG, REG, REG), F_(umaddl, 4, REG, REG, REG, REG),
    F_(smull, 3, REG, REG, REG), F_(umull, 3, REG, REG, REG),
    F_(smulh, 3, REG, REG, REG), F_(umulh, 3, REG, REG, REG),
    F_(sdiv, 4, SF, REG, REG, REG), F_(udiv, 4, SF, REG, REG, REG),
    F_(lslv, 4, SF, REG, REG, REG), F_(lsrv, 4, SF, REG, REG, REG),
    F_(asrv, 4, SF, REG, REG, REG), F_(rorv, 4, SF, REG, REG, REG),
    F_(clz, 3, SF, REG, REG), F_(cls, 3, SF, REG, REG), F_(rbit, 3, SF, REG, REG), F_(rev, 3, SF, REG, REG),
    F_(sbfm, 5, SF, REG, REG, BF_IMMS, BF_IMMS), F_(bfm, 5, SF, REG, REG, BF_IMMS, BF_IMMS),
    F_(ubfm, 5, SF, REG, REG, BF_IMMS, BF_IMMS),
    F_(extr, 5, SF, REG, REG, REG, VALS(0, 1, 31, 32, 63, 64, -1)),
    F_(lsl_imm, 4, SF, REG, REG, AMOUNT), F_(lsr_imm, 4, SF, REG, REG, AMOUNT),
    F_(asr_imm, 4, SF, REG, REG, AMOUNT), F_(ror_imm, 4, SF, REG, REG, AMOUNT),
    F_(sbfx, 5, SF, REG, REG, BF_IMMS, BF_IMMS), F_(ubfx, 5, SF, REG, REG, BF_IMMS, BF_IMMS),
    F_(bfxil, 5, SF, REG, REG, BF_IMMS, BF_IMMS), F_(sbfiz, 5, SF, REG, REG, BF_IMMS, BF_IMMS),
    F_(ubfiz, 5, SF, REG, REG, BF_IMMS, BF_IMMS), F_(bfi, 5, SF, REG, REG, BF_IMMS, BF_IMMS),
    F_(uxtb, 2, REG, REG), F_(uxth, 2, REG, REG), F_(sxtw, 2, REG, REG),
    F_(sxtb, 3, SF, REG, REG), F_(sxth, 3, SF, REG, REG),
    F_(csel, 5, SF, REG, REG, REG, COND), F_(csinc, 5, SF, REG, REG, REG, COND),
    F_(csinv, 5, SF, REG, REG, REG, COND), F_(csneg, 5, SF, REG, REG, REG, COND),
    F_(cset, 3, SF, REG, COND), F_(csetm, 3, SF, REG, COND),
    F_(cinc, 4, SF, REG, REG, COND), F_(cneg, 4, SF, REG, REG, COND),
    F_(ccmp_reg, 5, SF, REG, REG, VALS(0, 1, 15, 16, -1), COND),
    F_(ccmn_reg, 5, SF, REG, REG, VALS(0, 1, 15, 16, -1), COND),
    F_(ccmp_imm, 5, SF, REG, VALS(0, 1, 15, 31, 32, -1), VALS(0, 1, 15, 16, -1), COND),
    F_(ccmn_imm, 5, SF, REG, VALS(0, 1, 15, 31, 32, -1), VALS(0, 1, 15, 16, -1), COND),
    F_(ldst_uimm, 4, LDST_KINDS, REG, REG, LDST_OFFSETS),
    F_(ldst_unscaled, 4, LDST_KINDS, REG, REG, LDST_OFFSETS),
    F_(ldst_pre, 4, LDST_KINDS, REG, REG, LDST_OFFSETS),
    F_(ldst_post, 4, LDST_KINDS, REG, REG, LDST_OFFSETS),
    F_(ldst_offset, 4, LDST_KINDS, REG, REG, LDST_OFFSETS),
    F_(ldst_reg, 6, LDST_KINDS, REG, REG, REG, VALS(0, 1, 2, 3, 4, 5, 6, 7, 8), VALS(0, 1, 2)),
    F_(ldr_literal, 3, LDST_KINDS, REG, VALS(0, 4, -4, 8, 2, 0xffffc, -0x100000, 0x100000, -0x100004)),
    F_(ldstp, 6, VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1), VALS(0, 1, 2, 3), REG, REG, REG,
       VALS(0, 4, 8, -4, -8, 252, 256, -256, -260, 504, 512, -512, -520, 2, 6)),
    F_(b, 1, B26_OFFSETS), F_(bl, 1, B26_OFFSETS), F_(b_cond, 2, COND, B19_OFFSETS),
    F_(cbz, 3, SF, REG, B19_OFFSETS), F_(cbnz, 3, SF, REG, B19_OFFSETS),
    F_(tbz, 3, REG, VALS(0, 1, 31, 32, 63, 64, -1), B14_OFFSETS),
    F_(tbnz, 3, REG, VALS(0, 1, 31, 32, 63, 64, -1), B14_OFFSETS),
    F_(br, 1, REG), F_(blr, 1, REG), F_(ret, 1, REG),
    F_(adr, 2, REG, VALS(0, 1, -1, 0xfffff, -0x100000, 0x100000, -0x100001)),
    F_(adrp, 2, REG, VALS(0, 4096, -4096, ((int64_t)1 << 32) - 4096, -((int64_t)1 << 32), (int64_t)1 << 32, 100)),
    F_(brk, 1, VALS(0, 1, 0xffff, 0x10000, -1)), F_(hlt, 1, VALS(0, 1, 0xffff, 0x10000, -1)),
    F_(nop, 0, REG),
    F_(fadd, 4, SF, REG, REG, REG), F_(fsub, 4, SF, REG, REG, REG), F_(fmul, 4, SF, REG, REG, REG),
    F_(fdiv, 4, SF, REG, REG, REG), F_(fmax, 4, SF, REG, REG, REG), F_(fmin, 4, SF, REG, REG, REG),
    F_(fmaxnm, 4, SF, REG, REG, REG), F_(fminnm, 4, SF, REG, REG, REG), F_(fnmul, 4, SF, REG, REG, REG),
    F_(fneg, 3, SF, REG, REG), F_(fabs, 3, SF, REG, REG), F_(fsqrt, 3, SF, REG, REG), F_(fmov, 3, SF, REG, REG),
    F_(frintn, 3, SF, REG, REG), F_(frintp, 3, SF, REG, REG), F_(frintm, 3, SF, REG, REG),
    F_(frintz, 3, SF, REG, REG),
    F_(fmov_to_gpr, 3, SF, REG, REG), F_(fmov_from_gpr, 3, SF, REG, REG),
    F_(fcmp, 3, SF, REG, REG), F_(fcmpe, 3, SF, REG, REG),
    F_(fcmp_zero, 2, SF, REG), F_(fcmpe_zero, 2, SF, REG),
    F_(fcsel, 5, SF, REG, REG, REG, COND), F_(fcvt, 3, SF, REG, REG),
    F_(scvtf, 4, SF, SF, REG, REG), F_(ucvtf, 4, SF, SF, REG, REG),
    F_(fcvtzs, 4, SF, SF, REG, REG), F_(fcvtzu, 4, SF, SF, REG, REG),
    F_(mrs, 2, REG, VALS(0, 1, 2, 3, -1)), F_(msr, 2, VALS(0, 1, 2, 3, -1), REG),
};

/* ---- extra sweeps: every bitmask immediate, and offset patching ------------------------ */
/* every encodable value of both widths through the four logical-immediate encoders */
static void check_all_bitmasks(Ctx *c)
{
    static const struct { const char *name; int opc; } ops[] = {{"and_imm", 0}, {"orr_imm", 1}, {"eor_imm", 2}, {"ands_imm", 3}};
    uint64_t *vals = malloc(8192 * sizeof *vals);
    for (int sf = 0; sf <= 1; sf++) {
        int n = a64_ref_bitmask_values(sf, vals, 8192);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) {
                Args a = {sf, 7, 8, (int64_t)vals[i]};
                Expect e;
                memset(&e, 0, sizeof e);
                m_logical_imm(ops[k].opc, a, &e);
                uint32_t (*const enc[4])(int, int, int, uint64_t) = {a64_and_imm, a64_orr_imm, a64_eor_imm, a64_ands_imm};
                Site at = {ops[k].name, a, 4};
                check(c, &at, enc[k](sf, 7, 8, vals[i]), &e);
            }
    }
    free(vals);
}

/* re-targeting a branch equals encoding it with the new offset */
static void check_patch(Ctx *c, const char *what, uint32_t orig, uint32_t direct, int64_t offset)
{
    uint32_t w = orig;
    bool ok = a64_patch_offset(&w, offset);
    c->checked++, c->queries++;
    bool good = direct == A64_BAD ? (!ok && w == orig) : (ok && w == direct);
    if (!good && c->failed++ < MAX_SHOWN)
        fprintf(stderr, "FAIL a64_patch_offset(%s 0x%08x, %" PRId64 "): got %d 0x%08x, want 0x%08x\n",
                what, orig, offset, ok, w, direct);
}

/* from each original offset (few and many field bits set) to each new one */
static void check_patching(Ctx *c)
{
    static const int64_t offs[] = {0, 4, -4, 0x7ffc, -0x8000, 0x8000, 0xffffc, -0x100000, 0x100000,
                                   0x7fffffc, -0x8000000, 0x8000000, 6, 1, -1, 0xfffff, 4096, -4096,
                                   0xfffff000, -0x100000000, 0x100000000};
    static const int64_t origs[] = {8, -4, -4096};
    for (size_t j = 0; j < sizeof origs / sizeof *origs; j++)
        for (size_t i = 0; i < sizeof offs / sizeof *offs; i++) {
            int64_t o = offs[i], f = origs[j];
            check_patch(c, "b", a64_b(f), a64_b(o), o);
            check_patch(c, "bl", a64_bl(f), a64_bl(o), o);
            check_patch(c, "b.cond", a64_b_cond(A64_GT, f), a64_b_cond(A64_GT, o), o);
            check_patch(c, "cbz", a64_cbz(1, 5, f), a64_cbz(1, 5, o), o);
            check_patch(c, "cbnz", a64_cbnz(0, 31, f), a64_cbnz(0, 31, o), o);
            check_patch(c, "tbz", a64_tbz(3, 40, f), a64_tbz(3, 40, o), o);
            check_patch(c, "tbnz", a64_tbnz(3, 2, f), a64_tbnz(3, 2, o), o);
            check_patch(c, "adr", a64_adr(9, f + 3), a64_adr(9, o), o);
            check_patch(c, "adrp", a64_adrp(30, f * 4096), a64_adrp(30, o), o);
            check_patch(c, "ldr literal", a64_ldr_literal(A64_LDR_D, 4, f), a64_ldr_literal(A64_LDR_D, 4, o), o);
            check_patch(c, "ldrsw literal", a64_ldr_literal(A64_LDRSW, 4, f), a64_ldr_literal(A64_LDRSW, 4, o), o);
        }
    for (size_t i = 0; i < sizeof offs / sizeof *offs; i++) {
        int64_t o = offs[i];
        check_patch(c, "add (not a branch)", a64_add_imm(1, 1, 2, 3, 0), A64_BAD, o);
        check_patch(c, "br (no offset)", a64_br(3), A64_BAD, o);
        check_patch(c, "ldr imm (no offset)", a64_ldst_uimm(A64_LDR_X, 1, 2, 8), A64_BAD, o);
        check_patch(c, "ldr unscaled (no offset)", a64_ldst_unscaled(A64_LDR_X, 1, 2, -1), A64_BAD, o);
        check_patch(c, "movz (no offset)", a64_movz(1, 1, 0xffff, 3), A64_BAD, o);
    }
}

/* the predicates and size queries the backend uses to pick a form */
static void expect_true(Ctx *c, bool cond, const char *what, int64_t arg)
{
    c->checked++, c->queries++;
    if (!cond && c->failed++ < MAX_SHOWN)
        fprintf(stderr, "FAIL %s (argument %" PRId64 ")\n", what, arg);
}

static void check_queries(Ctx *c)
{
    static const int64_t imms[] = {0, 1, 4095, 4096, 4097, 8192, 0xfff000, 0xfff001, 0x1000000, -1, -4096};
    for (size_t i = 0; i < sizeof imms / sizeof *imms; i++) {
        int64_t v = imms[i];
        bool want = in_range(v, 0, 4095) || (v % 4096 == 0 && in_range(v >> 12, 0, 4095));
        expect_true(c, a64_addsub_imm_ok((uint64_t)v) == want, "a64_addsub_imm_ok", v);
    }
    for (int k = -1; k <= A64_LDST_COUNT; k++) {
        bool valid = kind_ok(k);
        const char *name = valid ? ldst_info[k].name : "";
        expect_true(c, a64_ldst_size((A64LdSt)k) == (valid ? ldst_info[k].size : 0), "a64_ldst_size", k);
        expect_true(c, a64_ldst_is_load((A64LdSt)k) == (valid && name[0] == 'l'), "a64_ldst_is_load", k);
        expect_true(c, a64_ldst_is_fp((A64LdSt)k) == (valid && fp_file(ldst_info[k].file)), "a64_ldst_is_fp", k);
    }
    static const int64_t offsets[] = {0, 1, 2, 4, 8, 12, 255, 256, 252, 504, 512, -1, -4, -8, -256, -257,
                                      -512, -520, 4095, 4096, 8190, 16380, 32760, 32768, -9999};
    for (int k = -1; k <= A64_LDST_COUNT; k++)
        for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
            Args a = {k, 0, 1, offsets[i]};
            Expect e;
            memset(&e, 0, sizeof e);
            m_ldst_offset(a, &e);
            expect_true(c, a64_ldst_offset_ok((A64LdSt)k, offsets[i]) == !e.bad, "a64_ldst_offset_ok", offsets[i]);
        }
    for (int k = -1; k <= A64_PAIR_COUNT; k++)
        for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
            Args a = {k, A64_PAIR_OFFSET, 0, 1, 2, offsets[i]};
            expect_true(c, a64_pair_offset_ok((A64Pair)k, offsets[i]) == pair_ok(a), "a64_pair_offset_ok", offsets[i]);
        }
    for (int k = -1; k <= A64_PAIR_COUNT; k++) {
        bool valid = in_range(k, 0, A64_PAIR_COUNT - 1);
        expect_true(c, a64_pair_size((A64Pair)k) == (valid ? pair_info[k].size : 0), "a64_pair_size", k);
    }
    for (int cond = 0; cond < 16; cond++)
        expect_true(c, a64_invert_cond((A64Cond)cond) == (A64Cond)(cond ^ 1), "a64_invert_cond", cond);
}

int main(void)
{
    Ctx c = {0};
    if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &c.cs) != CS_ERR_OK) {
        fprintf(stderr, "a64_encode: cannot open Capstone for ARM64\n");
        return 2;
    }
    cs_option(c.cs, CS_OPT_DETAIL, CS_OPT_ON);
    size_t nfam = sizeof families / sizeof *families;
    for (size_t i = 0; i < nfam; i++)
        run_family(&c, &families[i]);
    check_all_bitmasks(&c);
    check_patching(&c);
    check_queries(&c);
    cs_close(&c.cs);
    printf("a64 encoder: %zu encoders; %ld checks: %ld words decoded by Capstone, %ld bad operand sets "
           "rejected as expected, %ld patch/query checks; %ld failed\n",
           nfam, c.checked, c.decoded, c.rejected, c.queries, c.failed);
    return c.failed ? 1 : 0;
}
