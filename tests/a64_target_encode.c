/* a64_target_encode.c — the ARM64 forms table against Capstone: every form of the
 * table is encoded with every register in each register position (the others
 * rotating), a spread of immediates (those a64_arg_ok accepts) and of addresses
 * (scaled, unscaled and out-of-range offsets, every index scale, stack slots, the
 * outgoing argument area), decoded by Capstone 4 and compared as text with what
 * this file expects the LIR instruction to become: the instruction(s), operand
 * order, register widths, conditions.  Constants and large offsets may be built
 * by any mov/movk/orr/add/sub sequence into the one register named (x17 for
 * addresses, x16 for stored values, the destination for moves of constants): their
 * values are checked by running them (a64_target_exec.c).  Branches, jumps and
 * calls go through a64_emit so their targets are checked after layout; symbols
 * must leave their relocation on an aligned literal word, brk its trap site.
 * Stops at the first disagreement, printing the LIR, the expectation and the
 * decoded text. */
#include "compiler/a64/a64.h"

#include <capstone/capstone.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { FRAME_BASE = A64_FP, SLOT_OFFSET = -48, MAXL = 12 };

/* ---- the expectation ------------------------------------------------------------- */
typedef struct {
    char line[MAXL][80];
    int n;
    uint64_t prefix;   /* GP registers (bit n) that leading constant-building lines may write */
} Expect;

static void line(Expect *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Expect *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (e->n < MAXL)
        vsnprintf(e->line[e->n++], sizeof e->line[0], fmt, ap);
    va_end(ap);
}

/* Capstone 4's immediates: decimal up to 9, hex beyond */
static const char *imm(char *buf, int64_t v)
{
    if (v > 9)
        snprintf(buf, 24, "#0x%" PRIx64, (uint64_t)v);
    else if (v < -9)
        snprintf(buf, 24, "#-0x%" PRIx64, -(uint64_t)v);
    else
        snprintf(buf, 24, "#%" PRId64, v);
    return buf;
}

/* bitmask immediates print unsigned */
static const char *uimm(char *buf, uint64_t v)
{
    if (v > 9)
        snprintf(buf, 24, "#0x%" PRIx64, v);
    else
        snprintf(buf, 24, "#%" PRIu64, v);
    return buf;
}

/* names: rotating buffers so several fit in one line */
typedef struct { char b[8][16]; int k; } Names;
static const char *gp(Names *nm, int r, int sf)
{
    char *s = nm->b[nm->k++ & 7];
    if (r == 31)
        snprintf(s, 16, "%s", sf ? "sp" : "wsp");
    else
        snprintf(s, 16, "%c%d", sf ? 'x' : 'w', r);
    return s;
}
static const char *fpn(Names *nm, int r, int dbl)
{
    char *s = nm->b[nm->k++ & 7];
    snprintf(s, 16, "%c%d", dbl ? 'd' : 's', r);
    return s;
}
static int rn(const Arg *a) { return (int)tmp_reg_number(a->base); }

static const char *cc_name(A64Cond c)
{
    static const char *const n[16] = { "eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc",
                                       "hi", "ls", "ge", "lt", "gt", "le", "al", "nv" };
    return n[c & 15];
}

/* ---- memory ------------------------------------------------------------------------ */
typedef struct { const char *scaled, *unscaled; int size; bool x, fp; } LdSt;

static void expect_mem(Expect *e, const Code *code, const LdSt *k, int rt, const Arg *a)
{
    Names nm = { .k = 0 };
    char ib[24];
    const char *rtn = k->fp ? fpn(&nm, rt, k->size == 8) : rt == 31 ? (k->x ? "xzr" : "wzr") : gp(&nm, rt, k->x);
    int base = a->kind == ARG_STACK ? FRAME_BASE : a->kind == ARG_CALLARG ? 31 : rn(a);
    int64_t off = arg_offset(a) + (a->kind == ARG_STACK ? code->slots[a->slot].offset : 0);
    const char *bn = gp(&nm, base, 1);
    if (a->kind != ARG_INDEX) {
        if (off % k->size == 0 && off >= 0 && off <= 4095 * k->size) {
            if (off == 0)
                line(e, "%s %s, [%s]", k->scaled, rtn, bn);
            else
                line(e, "%s %s, [%s, %s]", k->scaled, rtn, bn, imm(ib, off));
        } else if (off >= -256 && off <= 255) {
            line(e, "%s %s, [%s, %s]", k->unscaled, rtn, bn, imm(ib, off));
        } else {
            e->prefix |= 1u << A64_X17;
            line(e, "%s %s, [%s, x17]", k->scaled, rtn, bn);
        }
        return;
    }
    int shift = a->scale == 8 ? 3 : a->scale == 4 ? 2 : a->scale == 2 ? 1 : 0;
    const char *in = gp(&nm, (int)tmp_reg_number(a->index), 1);
    if (off == 0 && shift == 0)
        line(e, "%s %s, [%s, %s]", k->scaled, rtn, bn, in);
    else if (off == 0 && (1 << shift) == k->size)
        line(e, "%s %s, [%s, %s, lsl #%d]", k->scaled, rtn, bn, in, shift);
    else {
        e->prefix |= 1u << A64_X17;
        const char *from = off ? "x17" : bn;
        if (shift)
            line(e, "add x17, %s, %s, lsl #%d", from, in, shift);
        else
            line(e, "add x17, %s, %s", from, in);
        line(e, "%s %s, [x17]", k->scaled, rtn);
    }
}

static const LdSt LD_X = { "ldr", "ldur", 8, true, false }, ST_X = { "str", "stur", 8, true, false };
static const LdSt LD_W = { "ldr", "ldur", 4, false, false }, ST_W = { "str", "stur", 4, false, false };
static const LdSt ST_H = { "strh", "sturh", 2, false, false }, ST_B = { "strb", "sturb", 1, false, false };

/* ---- expectations per encoding -------------------------------------------------------- */
static void expect_mov(Expect *e, const Code *code, const LirForm *f, const Inst *in)
{
    Names nm = { .k = 0 };
    const Arg *s = &in->args[0], *d = &in->args[1];
    int sf = f->width == 64;
    if (arg_is_memory(d)) {
        const LdSt *k = f->width == 64 ? &ST_X : f->width == 32 ? &ST_W : f->width == 16 ? &ST_H : &ST_B;
        uint64_t mask = f->width == 64 ? ~0ull : (1ull << f->width) - 1;
        int rt = s->kind == ARG_TMP ? rn(s) : ((uint64_t)s->value & mask) ? A64_X16 : 31;
        if (rt == A64_X16)
            e->prefix |= 1u << A64_X16;
        expect_mem(e, code, k, rt, d);
    } else if (s->kind == ARG_TMP) {
        line(e, "mov %s, %s", gp(&nm, rn(d), sf), gp(&nm, rn(s), sf));
    } else if (s->kind == ARG_IMM || s->kind == ARG_BIGIMM) {
        e->prefix |= 1ull << rn(d);
    } else if (s->kind == ARG_SYMBOL) { /* adrp + add, their fields 0 for the relocations */
        line(e, "adrp %s, #0", gp(&nm, rn(d), 1));
        line(e, "add %s, %s, #0", gp(&nm, rn(d), 1), gp(&nm, rn(d), 1));
    } else {
        expect_mem(e, code, sf ? &LD_X : &LD_W, rn(d), s);
    }
}

static void expect_ext(Expect *e, const Code *code, const LirForm *f, const Inst *in)
{
    static const char *const reg_mn[] = { "uxtb", "sxtb", "uxth", "sxth", "sxtb", "sxth", "sxtw" };
    static const LdSt load[] = {
        { "ldrb", "ldurb", 1, false, false }, { "ldrsb", "ldursb", 1, false, false },
        { "ldrh", "ldurh", 2, false, false }, { "ldrsh", "ldursh", 2, false, false },
        { "ldrsb", "ldursb", 1, true, false }, { "ldrsh", "ldursh", 2, true, false },
        { "ldrsw", "ldursw", 4, true, false },
    };
    Names nm = { .k = 0 };
    const Arg *s = &in->args[0];
    int d = rn(&in->args[1]);
    if (s->kind == ARG_TMP)
        line(e, "%s %s, %s", reg_mn[f->param], gp(&nm, d, f->width == 64), gp(&nm, rn(s), 0));
    else
        expect_mem(e, code, &load[f->param], d, s);
}

static void expect_addr_calc(Expect *e, const Code *code, const Inst *in, int rd)
{
    Names nm = { .k = 0 };
    char ib[24];
    const Arg *a = &in->args[0];
    int base = a->kind == ARG_STACK ? FRAME_BASE : a->kind == ARG_CALLARG ? 31 : rn(a);
    int64_t off = arg_offset(a) + (a->kind == ARG_STACK ? code->slots[a->slot].offset : 0);
    const char *d = gp(&nm, rd, 1), *b = gp(&nm, base, 1);
    if (a->kind == ARG_INDEX) {
        int shift = a->scale == 8 ? 3 : a->scale == 4 ? 2 : a->scale == 2 ? 1 : 0;
        const char *x = gp(&nm, (int)tmp_reg_number(a->index), 1);
        const char *from = b;
        if (off != 0) {
            e->prefix |= 1u << A64_X17;
            from = "x17";
        }
        if (shift)
            line(e, "add %s, %s, %s, lsl #%d", d, from, x, shift);
        else
            line(e, "add %s, %s, %s", d, from, x);
        return;
    }
    if (off == 0 && base == 31)
        line(e, "mov %s, sp", d);
    else if (a64_addsub_imm_ok((uint64_t)off))
        line(e, off >= 4096 ? "add %s, %s, %s, lsl #12" : "add %s, %s, %s", d, b,
             imm(ib, off >= 4096 ? off >> 12 : off));
    else if (off < 0 && a64_addsub_imm_ok(-(uint64_t)off))
        line(e, -off >= 4096 ? "sub %s, %s, %s, lsl #12" : "sub %s, %s, %s", d, b,
             imm(ib, -off >= 4096 ? (-off) >> 12 : -off));
    else {
        e->prefix |= 1u << A64_X17;
        line(e, "add %s, %s, x17", d, b);
    }
}

static const char *alu_mn(unsigned op)
{
    static const char *const n[] = { "add", "sub", "and", "orr", "eor", "mul" };
    return n[op];
}

static uint64_t bits(int sf, int64_t v) { return sf ? (uint64_t)v : (uint32_t)v; }

/* add/sub (or cmp/cmn) immediate text: the operation flips for a negated value */
static void addsub_text(char *out, size_t n, const char *pos, const char *neg, int sf, int64_t v)
{
    char ib[24];
    uint64_t u = bits(sf, v);
    const char *mn = pos;
    if (!a64_addsub_imm_ok(u)) {
        u = bits(sf, (int64_t)(0 - (uint64_t)v));
        mn = neg;
    }
    if (u >= 4096)
        snprintf(n ? out : out, n, "%s|%s, lsl #12", mn, imm(ib, (int64_t)(u >> 12)));
    else
        snprintf(out, n, "%s|%s", mn, imm(ib, (int64_t)u));
}

static void expect_alu(Expect *e, const LirForm *f, const Inst *in)
{
    Names nm = { .k = 0 };
    char ib[24], t[64];
    int sf = f->width == 64, three = in->nargs == 3;
    const Arg *l = &in->args[three ? 0 : 1], *r = &in->args[three ? 1 : 0];
    const char *d = gp(&nm, rn(&in->args[in->nargs - 1]), sf), *n = gp(&nm, rn(l), sf);
    if (r->kind == ARG_TMP) {
        line(e, "%s %s, %s, %s", alu_mn(f->param), d, n, gp(&nm, rn(r), sf));
        return;
    }
    if (f->param == A64_ALU_ADD || f->param == A64_ALU_SUB) {
        bool sub = f->param == A64_ALU_SUB;
        addsub_text(t, sizeof t, sub ? "sub" : "add", sub ? "add" : "sub", sf, r->value);
        char *bar = strchr(t, '|');
        *bar = 0;
        if (strcmp(t, "add") == 0 && strcmp(bar + 1, "#0") == 0 && (rn(l) == 31 || rn(&in->args[in->nargs - 1]) == 31))
            line(e, "mov %s, %s", d, n);
        else
            line(e, "%s %s, %s, %s", t, d, n, bar + 1);
        return;
    }
    line(e, "%s %s, %s, %s", alu_mn(f->param), d, n, uimm(ib, bits(sf, r->value)));
}

static void expect_shift(Expect *e, const LirForm *f, const Inst *in)
{
    static const char *const n[] = { "lsl", "lsr", "asr", "ror" };
    Names nm = { .k = 0 };
    char ib[24];
    int sf = f->width == 64, three = in->nargs == 3;
    const Arg *src = &in->args[three ? 0 : 1], *amt = &in->args[three ? 1 : 0];
    const char *d = gp(&nm, rn(&in->args[in->nargs - 1]), sf), *s = gp(&nm, rn(src), sf);
    if (amt->kind == ARG_TMP) {
        line(e, "%s %s, %s, %s", n[f->param], d, s, gp(&nm, rn(amt), sf));
        return;
    }
    int64_t a = amt->value & (sf ? 63 : 31);
    /* lsl #0 is ubfm #0, #w-1, which Capstone prints as lsr #0 */
    line(e, "%s %s, %s, %s", f->param == A64_LSL && a == 0 ? "lsr" : n[f->param], d, s, imm(ib, a));
}

static bool signed_rel(const Arg *c)
{
    return c->kind == ARG_RELCOND && (c->cond == REL_sgt || c->cond == REL_sge ||
                                      c->cond == REL_slt || c->cond == REL_sle);
}

/* an FP source: its name, or d31/s31 loaded from its memory first */
static const char *fp_source(Expect *e, Names *nm, const Code *code, const Arg *a, int dbl)
{
    if (a->kind == ARG_TMP)
        return fpn(nm, rn(a), dbl);
    LdSt k = { "ldr", "ldur", dbl ? 8 : 4, false, true };
    expect_mem(e, code, &k, 31, a);
    return dbl ? "d31" : "s31";
}

static void expect_compare(Expect *e, const Code *code, const LirForm *f, const Inst *in)
{
    Names nm = { .k = 0 };
    char ib[24], t[64];
    int sf = f->width == 64;
    const Arg *l = &in->args[1], *r = &in->args[2];
    if (f->param == A64_FCMP) {
        const char *rs = fp_source(e, &nm, code, r, sf);
        line(e, "fcmp %s, %s", fpn(&nm, rn(l), sf), rs);
    } else if (f->param == A64_TEST) {
        if (r->kind == ARG_IMM)
            line(e, "tst %s, %s", gp(&nm, rn(l), sf), uimm(ib, bits(sf, r->value)));
        else
            line(e, "tst %s, %s", gp(&nm, rn(l), sf), gp(&nm, rn(r), sf));
    } else if (f->width < 32) {
        const char *x = f->width == 8 ? (signed_rel(&in->args[0]) ? "sxtb" : "uxtb")
                                      : (signed_rel(&in->args[0]) ? "sxth" : "uxth");
        line(e, "%s w16, %s", x, gp(&nm, rn(l), 0));
        line(e, "%s w17, %s", x, gp(&nm, rn(r), 0));
        line(e, "cmp w16, w17");
    } else if (r->kind == ARG_IMM) {
        addsub_text(t, sizeof t, "cmp", "cmn", sf, r->value);
        char *bar = strchr(t, '|');
        *bar = 0;
        line(e, "%s %s, %s", t, gp(&nm, rn(l), sf), bar + 1);
    } else {
        line(e, "cmp %s, %s", gp(&nm, rn(l), sf), gp(&nm, rn(r), sf));
    }
}

static void expect_falu(Expect *e, const Code *code, const LirForm *f, const Inst *in)
{
    static const char *const n[] = { "fadd", "fsub", "fmul", "fdiv", "fmin", "fmax" };
    Names nm = { .k = 0 };
    int dbl = f->width == 64, three = in->nargs == 3;
    const char *a = fp_source(e, &nm, code, &in->args[three ? 0 : 1], dbl);
    const char *b = fp_source(e, &nm, code, &in->args[three ? 1 : 0], dbl);
    line(e, "%s %s, %s, %s", n[f->param], fpn(&nm, rn(&in->args[in->nargs - 1]), dbl), a, b);
}

static void expect_cvt(Expect *e, const LirForm *f, const Inst *in)
{
    /* mnemonic, destination is FP?, its width 64?, source is FP?, its width 64? */
    static const struct { const char *mn; bool dfp, d64, sfp, s64; } k[] = {
        [A64_CVT_I32_F] = { "scvtf", true, false, false, false },
        [A64_CVT_I64_F] = { "scvtf", true, false, false, true },
        [A64_CVT_I32_D] = { "scvtf", true, true, false, false },
        [A64_CVT_I64_D] = { "scvtf", true, true, false, true },
        [A64_CVT_F_I32] = { "fcvtzs", false, false, true, false },
        [A64_CVT_F_I64] = { "fcvtzs", false, true, true, false },
        [A64_CVT_D_I32] = { "fcvtzs", false, false, true, true },
        [A64_CVT_D_I64] = { "fcvtzs", false, true, true, true },
        [A64_CVT_F_U32] = { "fcvtzu", false, false, true, false },
        [A64_CVT_F_U64] = { "fcvtzu", false, true, true, false },
        [A64_CVT_D_U32] = { "fcvtzu", false, false, true, true },
        [A64_CVT_D_U64] = { "fcvtzu", false, true, true, true },
        [A64_CVT_U64_F] = { "ucvtf", true, false, false, true },
        [A64_CVT_U64_D] = { "ucvtf", true, true, false, true },
        [A64_CVT_F_D] = { "fcvt", true, true, true, false },
        [A64_CVT_D_F] = { "fcvt", true, false, true, true },
        [A64_CVT_W_F] = { "fmov", true, false, false, false },
        [A64_CVT_F_W] = { "fmov", false, false, true, false },
        [A64_CVT_X_D] = { "fmov", true, true, false, true },
        [A64_CVT_D_X] = { "fmov", false, true, true, true },
    };
    Names nm = { .k = 0 };
    int d = rn(&in->args[1]), s = rn(&in->args[0]);
    const char *dn = k[f->param].dfp ? fpn(&nm, d, k[f->param].d64) : gp(&nm, d, k[f->param].d64);
    const char *sn = k[f->param].sfp ? fpn(&nm, s, k[f->param].s64) : gp(&nm, s, k[f->param].s64);
    line(e, "%s %s, %s", k[f->param].mn, dn, sn);
}

/* StorePair64 / LoadPair64: stp/ldp at the operand where it encodes, else at x17 */
static void expect_pair(Expect *e, const Code *code, const LirForm *f, const Inst *in)
{
    Names nm = { .k = 0 };
    char ib[24];
    bool load = f->param == A64_LDP_X;
    const Arg *ma = &in->args[load ? 0 : 2];
    int rt[2];
    const char *n[2];
    for (int k = 0; k < 2; k++) {
        const Arg *a = &in->args[load ? k + 1 : k];
        rt[k] = a->kind == ARG_TMP ? rn(a) : 31;
        n[k] = rt[k] == 31 ? "xzr" : gp(&nm, rt[k], 1);
    }
    if (load && rt[0] == rt[1]) {
        Arg hi = *ma;
        if (hi.kind == ARG_INDEX)
            hi.disp += 8;
        else
            hi.value += 8;
        expect_mem(e, code, &LD_X, rt[1], &hi);
        return;
    }
    const char *mn = load ? "ldp" : "stp";
    int base = ma->kind == ARG_STACK ? FRAME_BASE : ma->kind == ARG_CALLARG ? 31 : rn(ma);
    int64_t off = arg_offset(ma) + (ma->kind == ARG_STACK ? code->slots[ma->slot].offset : 0);
    if (ma->kind != ARG_INDEX && a64_pair_offset_ok((A64Pair)f->param, off)) {
        if (off == 0)
            line(e, "%s %s, %s, [%s]", mn, n[0], n[1], gp(&nm, base, 1));
        else
            line(e, "%s %s, %s, [%s, %s]", mn, n[0], n[1], gp(&nm, base, 1), imm(ib, off));
        return;
    }
    Inst at = *in;
    at.args[0] = *ma;
    expect_addr_calc(e, code, &at, A64_X17);
    line(e, "%s %s, %s, [x17]", mn, n[0], n[1]);
}

/* expectation of a straight-line form; false if it is a control form */
/* clz, rbit then clz in place, rev */
static void expect_bits(Expect *e, const LirForm *f, const Inst *in)
{
    Names nm = { .k = 0 };
    int sf = f->width == 64, d = rn(&in->args[1]), s = rn(&in->args[0]);
    switch ((A64BitOp)f->param) {
    case A64_BITS_CLZ: line(e, "clz %s, %s", gp(&nm, d, sf), gp(&nm, s, sf)); break;
    case A64_BITS_CTZ:
        line(e, "rbit %s, %s", gp(&nm, d, sf), gp(&nm, s, sf));
        line(e, "clz %s, %s", gp(&nm, d, sf), gp(&nm, d, sf));
        break;
    default: line(e, "rev %s, %s", gp(&nm, d, sf), gp(&nm, s, sf)); break;
    }
}

static bool build_expect(const Code *code, const LirForm *f, const Inst *in, Expect *e)
{
    Names nm = { .k = 0 };
    int sf = f->width == 64;
    A64Cond c1, c2;
    switch ((A64Encoding)f->enc) {
    case A64E_MOV: expect_mov(e, code, f, in); return true;
    case A64E_EXT: expect_ext(e, code, f, in); return true;
    case A64E_LEA:
        expect_addr_calc(e, code, in, rn(&in->args[1]));
        if (!sf)
            line(e, "mov %s, %s", gp(&nm, rn(&in->args[1]), 0), gp(&nm, rn(&in->args[1]), 0));
        return true;
    case A64E_SWAP:
        line(e, "mov %s, %s", sf ? "x16" : "w16", gp(&nm, rn(&in->args[0]), sf));
        line(e, "mov %s, %s", gp(&nm, rn(&in->args[0]), sf), gp(&nm, rn(&in->args[1]), sf));
        line(e, "mov %s, %s", gp(&nm, rn(&in->args[1]), sf), sf ? "x16" : "w16");
        return true;
    case A64E_PUSH: line(e, "str %s, [sp, #-0x10]!", gp(&nm, rn(&in->args[0]), 1)); return true;
    case A64E_POP: line(e, "ldr %s, [sp], #0x10", gp(&nm, rn(&in->args[0]), 1)); return true;
    case A64E_PUSHPAIR:
        line(e, "stp %s, %s, [sp, #-0x10]!", gp(&nm, rn(&in->args[0]), 1), gp(&nm, rn(&in->args[1]), 1));
        return true;
    case A64E_POPPAIR:
        if (rn(&in->args[0]) == rn(&in->args[1])) {
            line(e, "ldr %s, [sp, #8]", gp(&nm, rn(&in->args[1]), 1));
            line(e, "add sp, sp, #0x10");
        } else {
            line(e, "ldp %s, %s, [sp], #0x10", gp(&nm, rn(&in->args[0]), 1), gp(&nm, rn(&in->args[1]), 1));
        }
        return true;
    case A64E_PAIR: expect_pair(e, code, f, in); return true;
    case A64E_ALU: expect_alu(e, f, in); return true;
    case A64E_UNARY:
        line(e, "%s %s, %s", f->param ? "mvn" : "neg", gp(&nm, rn(&in->args[in->nargs - 1]), sf),
             gp(&nm, rn(&in->args[0]), sf));
        return true;
    case A64E_SHIFT: expect_shift(e, f, in); return true;
    case A64E_DIV:
        line(e, "%s %s, %s, %s", f->param ? "udiv" : "sdiv", gp(&nm, rn(&in->args[2]), sf),
             gp(&nm, rn(&in->args[0]), sf), gp(&nm, rn(&in->args[1]), sf));
        return true;
    case A64E_MSUB:
        line(e, "msub %s, %s, %s, %s", gp(&nm, rn(&in->args[3]), sf), gp(&nm, rn(&in->args[0]), sf),
             gp(&nm, rn(&in->args[1]), sf), gp(&nm, rn(&in->args[2]), sf));
        return true;
    case A64E_CMPSET:
        a64_cond_codes(&in->args[0], &c1, &c2);
        expect_compare(e, code, f, in);
        line(e, "cset %s, %s", gp(&nm, rn(&in->args[3]), 0), cc_name(c1));
        if (c2 != A64_AL)
            line(e, "csinc %s, %s, wzr, %s", gp(&nm, rn(&in->args[3]), 0), gp(&nm, rn(&in->args[3]), 0),
                 cc_name(a64_invert_cond(c2)));
        return true;
    case A64E_CSEL:
        a64_cond_codes(&in->args[0], &c1, &c2);
        expect_compare(e, code, f, in);
        line(e, "csel %s, %s, %s, %s", gp(&nm, rn(&in->args[4]), 1), gp(&nm, rn(&in->args[3]), 1),
             gp(&nm, rn(&in->args[4]), 1), cc_name(c1));
        if (c2 != A64_AL)
            line(e, "csel %s, %s, %s, %s", gp(&nm, rn(&in->args[4]), 1), gp(&nm, rn(&in->args[3]), 1),
                 gp(&nm, rn(&in->args[4]), 1), cc_name(c2));
        return true;
    case A64E_NOP: line(e, "nop"); return true;
    case A64E_FMOV:
        if (in->args[1].kind != ARG_TMP) {
            LdSt k = { "str", "stur", sf ? 8 : 4, false, true };
            expect_mem(e, code, &k, rn(&in->args[0]), &in->args[1]);
        } else if (in->args[0].kind != ARG_TMP) {
            LdSt k = { "ldr", "ldur", sf ? 8 : 4, false, true };
            expect_mem(e, code, &k, rn(&in->args[1]), &in->args[0]);
        } else {
            line(e, "fmov %s, %s", fpn(&nm, rn(&in->args[1]), sf), fpn(&nm, rn(&in->args[0]), sf));
        }
        return true;
    case A64E_FALU: expect_falu(e, code, f, in); return true;
    case A64E_FLOGIC: {
        const char *a = sf ? "x16" : "w16", *b = sf ? "x17" : "w17";
        line(e, "fmov %s, %s", a, fpn(&nm, rn(&in->args[0]), sf));
        line(e, "fmov %s, %s", b, fpn(&nm, rn(&in->args[1]), sf));
        line(e, "%s %s, %s, %s", alu_mn(f->param), b, b, a);
        line(e, "fmov %s, %s", fpn(&nm, rn(&in->args[1]), sf), b);
        return true;
    }
    case A64E_CVT: expect_cvt(e, f, in); return true;
    case A64E_BITS: expect_bits(e, f, in); return true;
    case A64E_BITFIELD: {
        char b1[24], b2[24]; /* a field up to the top is the alias lsr */
        int64_t lsb = in->args[0].value, width = in->args[1].value, top = sf ? 64 : 32;
        const char *d = gp(&nm, rn(&in->args[3]), sf), *s = gp(&nm, rn(&in->args[2]), sf);
        if (width >= top - lsb)
            line(e, "lsr %s, %s, %s", d, s, imm(b1, lsb));
        else
            line(e, "ubfx %s, %s, %s, %s", d, s, imm(b1, lsb), imm(b2, width));
        return true;
    }
    case A64E_CHECKED: {
        char b[24];
        line(e, "%s %s, %s, %s", f->param ? "subs" : "adds", gp(&nm, rn(&in->args[2]), sf),
             gp(&nm, rn(&in->args[0]), sf), gp(&nm, rn(&in->args[1]), sf));
        line(e, "b.vc %s", imm(b, 12)); /* decoded at 0: over the brk */
        line(e, "brk #0x%x", (unsigned)(in->trap ? in->trap : TRAP_OVERFLOW)); /* brk: always hex */
        return true;
    }
    case A64E_MULH:
        line(e, "%s %s, %s, %s", f->param ? "umulh" : "smulh", gp(&nm, rn(&in->args[2]), 1),
             gp(&nm, rn(&in->args[0]), 1), gp(&nm, rn(&in->args[1]), 1));
        return true;
    case A64E_FCOPYSIGN: {
        const char *a = sf ? "x16" : "w16", *b = sf ? "x17" : "w17";
        line(e, "fmov %s, %s", a, fpn(&nm, rn(&in->args[1]), sf));
        line(e, "fmov %s, %s", b, fpn(&nm, rn(&in->args[0]), sf));
        line(e, "bfxil %s, %s, #0, #%s", a, b, sf ? "0x3f" : "0x1f");
        line(e, "fmov %s, %s", fpn(&nm, rn(&in->args[2]), sf), a);
        return true;
    }
    case A64E_FUNARY: {
        static const char *const mn[] = { "fsqrt", "fabs", "frintm", "frintp", "frintz", "frintn" };
        const char *src = fp_source(e, &nm, code, &in->args[0], sf);
        line(e, "%s %s, %s", mn[f->param], fpn(&nm, rn(&in->args[1]), sf), src);
        return true;
    }
    default: return false;
    }
}

/* ---- decoding and comparing ----------------------------------------------------------- */
typedef struct {
    csh cs;
    Arena *arena;
    Code *code;
    unsigned checked, rejected;
    char lir[256];
} Checker;

typedef struct { char text[64][80]; int n; } Decoded;

static bool decode(Checker *k, const uint8_t *code, uint32_t size, uint64_t addr, const Reloc *relocs,
                   uint32_t nrelocs, Decoded *d)
{
    d->n = 0;
    for (uint32_t at = 0; at + 4 <= size && d->n < 64;) {
        bool lit = false;
        for (uint32_t r = 0; r < nrelocs; r++)
            lit |= relocs[r].offset == at + addr && relocs[r].kind == RELOC_ABS64;
        if (lit) {
            snprintf(d->text[d->n++], 80, ".quad");
            at += 8;
            continue;
        }
        cs_insn *insn;
        if (cs_disasm(k->cs, code + at, 4, addr + at, 1, &insn) != 1) {
            snprintf(d->text[d->n++], 80, "<undecodable %02x%02x%02x%02x>", code[at + 3], code[at + 2],
                     code[at + 1], code[at]);
            return false;
        }
        snprintf(d->text[d->n++], 80, "%.15s%s%.60s", insn->mnemonic, insn->op_str[0] ? " " : "", insn->op_str);
        cs_free(insn, 1);
        at += 4;
    }
    return true;
}

/* the register a constant-building line writes, -1 if it is not one */
static int prefix_reg(const char *text)
{
    static const char *const mns[] = { "mov ", "movk ", "movn ", "movz ", "orr ", "add ", "sub " };
    bool ok = false;
    for (unsigned i = 0; i < sizeof mns / sizeof mns[0]; i++)
        ok |= strncmp(text, mns[i], strlen(mns[i])) == 0;
    const char *sp = strchr(text, ' ');
    if (!ok || !sp || (sp[1] != 'x' && sp[1] != 'w'))
        return -1;
    return atoi(sp + 2);
}

static void report(const Checker *k, const LirForm *f, const Expect *e, const Decoded *d, const char *why)
{
    fprintf(stderr, "a64_target_encode: %s form #%u: %s\n  LIR: %s\n  expected:", lir_op_name((LirOp)f->op),
            (unsigned)(f - a64_target()->forms), why, k->lir);
    if (e->prefix)
        fprintf(stderr, " [constants into 0x%" PRIx64 "]", e->prefix);
    for (int i = 0; i < e->n; i++)
        fprintf(stderr, "\n    %s", e->line[i]);
    fprintf(stderr, "\n  decoded:");
    for (int i = 0; i < d->n; i++)
        fprintf(stderr, "\n    %s", d->text[i]);
    fputc('\n', stderr);
}

static bool matches(const Checker *k, const LirForm *f, const Expect *e, const Decoded *d, int from, int to)
{
    int i = from;
    while (e->prefix && i < to && prefix_reg(d->text[i]) >= 0 && (e->prefix >> prefix_reg(d->text[i]) & 1) &&
           (to - i > e->n))
        i++;
    if (e->prefix && e->n == 0 && i == from) {
        report(k, f, e, d, "no constant built");
        return false;
    }
    if (to - i != e->n) {
        report(k, f, e, d, "instruction count");
        return false;
    }
    for (int j = 0; j < e->n; j++)
        if (strcmp(d->text[i + j], e->line[j]) != 0) {
            report(k, f, e, d, "text");
            return false;
        }
    return true;
}

static void describe(Checker *k, const Inst *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
        lir_print_inst(m, k->code, in);
        fclose(m);
        snprintf(k->lir, sizeof k->lir, "%s", buf);
        char *nl = strchr(k->lir, '\n');
        if (nl)
            *nl = 0;
    }
    free(buf);
}

static bool check_straight(Checker *k, const LirForm *f, Inst *in)
{
    LirAsm as;
    Expect e = { .n = 0 };
    Decoded d;
    lir_asm_init(&as);
    describe(k, in);
    bool ok = a64_encode_inst(&as, k->code, NULL, in);
    if (!ok) {
        fprintf(stderr, "a64_target_encode: %s refused: %s\n  LIR: %s\n", lir_op_name((LirOp)f->op), as.err, k->lir);
        lir_asm_free(&as);
        return false;
    }
    build_expect(k->code, f, in, &e);
    ok = decode(k, as.code, as.size, 0, as.relocs, as.nrelocs, &d);
    if (!ok)
        report(k, f, &e, &d, "undecodable word");
    ok = ok && matches(k, f, &e, &d, 0, d.n);
    if (ok && in->args[0].kind == ARG_SYMBOL && f->enc == A64E_MOV) {
        ok = as.nrelocs == 2;
        for (uint32_t r = 0; ok && r < 2; r++)
            ok = as.relocs[r].offset == 4 * r && as.relocs[r].kind == (r ? RELOC_LO12 : RELOC_PAGE21) &&
                 as.relocs[r].index == in->args[0].slot && as.relocs[r].addend == in->args[0].value &&
                 as.relocs[r].target == in->args[0].sym_kind;
        if (!ok)
            report(k, f, &e, &d, "relocation");
    }
    lir_asm_free(&as);
    k->checked++;
    return ok;
}

/* frame base x29 and slot 0 at SLOT_OFFSET */
static void give_frame(Code *c)
{
    c->frame_base = tmp_gp(FRAME_BASE);
    uint32_t slot = lir_add_slot(c, 16, 8, false);
    c->slots[slot].offset = SLOT_OFFSET;
    c->slots[slot].assigned = true;
}

/* ---- control forms through a64_emit ---------------------------------------------------- */
/* function 0: block 0 = [in] with successors (s0, s1), blocks 1 and 2 = [RetVoid];
 * function 1: [RetVoid] (a call target) */
static bool emit_module(Checker *k, const Inst *in, uint32_t s0, uint32_t s1, unsigned nsuccs, CodeBlob *blob,
                        char *err, size_t errlen)
{
    Code *f0 = lir_code_new(k->arena, a64_target(), "f", 0), *f1 = lir_code_new(k->arena, a64_target(), "g", 1);
    give_frame(f0);
    LirBlock *b0 = lir_add_block(f0, 1);
    lir_append(f0, b0, (LirOp)in->op, in->nargs, in->args)->trap = in->trap;
    b0->insts[0].call = in->call;
    for (int i = 0; i < 2; i++)
        lir_append(f0, lir_add_block(f0, 1), LIR_RetVoid, 0, NULL);
    if (nsuccs >= 1)
        lir_add_succ(f0, b0, s0);
    if (nsuccs == 2)
        lir_add_succ(f0, b0, s1);
    if (!(lir_op_flags((LirOp)in->op) & LF_TERM))
        lir_append(f0, b0, LIR_RetVoid, 0, NULL);
    lir_append(f1, lir_add_block(f1, 1), LIR_RetVoid, 0, NULL);
    Code *funcs[2] = { f0, f1 };
    return a64_emit(k->arena, funcs, 2, blob, err, errlen);
}

/* the lines of a branch to block address t (cbz/tbz shapes, or compare + b.cond) */
static void expect_branch_to(Expect *e, const Code *code, const LirForm *f, const Inst *in, A64Cond c1, A64Cond c2, uint32_t t)
{
    Names nm = { .k = 0 };
    char ib[24];
    int sf = f->width == 64;
    const Arg *r = &in->args[2];
    bool z = c1 == A64_EQ, nz = c1 == A64_NE;
    if (c2 == A64_AL && (z || nz) && f->width >= 32 && f->param == A64_CMP && r->kind == ARG_IMM &&
        bits(sf, r->value) == 0) {
        line(e, "%s %s, %s", z ? "cbz" : "cbnz", gp(&nm, rn(&in->args[1]), sf), imm(ib, t));
        return;
    }
    uint64_t u = r->kind == ARG_IMM ? bits(sf, r->value) : 0;
    if (c2 == A64_AL && (z || nz) && f->width >= 32 && f->param == A64_TEST && r->kind == ARG_IMM && u &&
        !(u & (u - 1))) {
        int bit = __builtin_ctzll(u);
        char bb[24];
        line(e, "%s %s, %s, %s", z ? "tbz" : "tbnz", gp(&nm, rn(&in->args[1]), bit >= 32), imm(bb, bit), imm(ib, t));
        return;
    }
    expect_compare(e, code, f, in);
    line(e, "b.%s %s", cc_name(c1), imm(ib, t));
    if (c2 != A64_AL)
        line(e, "b.%s %s", cc_name(c2), imm(ib, t));
}

static bool check_control(Checker *k, const LirForm *f, Inst *in)
{
    describe(k, in);
    for (int layout = 0; layout < 2; layout++) {
        CodeBlob blob;
        char err[256];
        Expect e = { .n = 0 };
        Decoded d;
        char ib[24];
        uint32_t s0 = layout ? 2 : 1, s1 = layout ? 1 : 2;
        unsigned nsuccs = f->enc == A64E_BRANCH ? 2 : f->enc == A64E_JUMP ? 1 : 0;
        if (f->enc == A64E_JUMP)
            s0 = layout ? 2 : 1;
        if (!emit_module(k, in, s0, s1, nsuccs, &blob, err, sizeof err)) {
            fprintf(stderr, "a64_target_encode: %s refused: %s\n  LIR: %s\n", lir_op_name((LirOp)f->op), err, k->lir);
            return false;
        }
        uint32_t end0 = blob.entry[1];
        while (end0 >= 4 && blob.code[end0 - 4] == 0x1f && blob.code[end0 - 1] == 0xd5)
            end0 -= 4;   /* the nop padding before function 1 */
        if (!decode(k, blob.code, end0, 0, blob.relocs, blob.nrelocs, &d)) {
            report(k, f, &e, &d, "undecodable word");
            return false;
        }
        /* the two RetVoid blocks are the last two words of function 0 */
        uint32_t b1 = end0 - 8, b2 = end0 - 4;
        int body = d.n - 2;
        A64Cond c1, c2;
        switch ((A64Encoding)f->enc) {
        case A64E_BRANCH:
            a64_cond_codes(&in->args[0], &c1, &c2);
            if (s0 == 1 && c2 == A64_AL)
                expect_branch_to(&e, k->code, f, in, a64_invert_cond(c1), A64_AL, b2);
            else {
                expect_branch_to(&e, k->code, f, in, c1, c2, s0 == 1 ? b1 : b2);
                if (s1 != 1)
                    line(&e, "b %s", imm(ib, b2));
            }
            break;
        case A64E_JUMP:
            if (s0 != 1)
                line(&e, "b %s", imm(ib, b2));
            break;
        case A64E_RET:
            line(&e, "ret");
            body = d.n - 2;
            break;
        case A64E_CALL:
            if (in->args[0].kind == ARG_SYMBOL && in->args[0].sym_kind == TARGET_FUNC && !in->args[0].value)
                line(&e, "bl %s", imm(ib, blob.entry[1]));
            else if (in->args[0].kind == ARG_SYMBOL && in->args[0].sym_kind == TARGET_HELPER && !in->args[0].value)
                line(&e, "bl %s", imm(ib, blob.nrelocs ? blob.relocs[0].offset : 0)); /* imm26 0 */
            else if (in->args[0].kind == ARG_SYMBOL) {
                line(&e, "adrp x16, #0");
                line(&e, "add x16, x16, #0");
                line(&e, "blr x16");
            } else if (in->args[0].kind == ARG_TMP) {
                line(&e, "blr x%d", rn(&in->args[0]));
            } else {
                expect_mem(&e, k->code, &LD_X, A64_X16, &in->args[0]);
                line(&e, "blr x16");
            }
            body = d.n - 3;   /* the call block's own RetVoid too */
            break;
        case A64E_BRK:
            line(&e, "brk #0x%x", in->trap ? in->trap : TRAP_ILLEGAL);
            break;
        default:
            return false;
        }
        if (!matches(k, f, &e, &d, 0, body))
            return false;
        if (f->enc == A64E_BRK) {
            unsigned want = in->trap ? in->trap : TRAP_ILLEGAL;
            if (blob.ntraps != 1 || blob.traps[0].offset != 0 || blob.traps[0].kind != want) {
                report(k, f, &e, &d, "trap table");
                return false;
            }
        }
        bool helper_call = f->enc == A64E_CALL && in->args[0].kind == ARG_SYMBOL &&
                           in->args[0].sym_kind == TARGET_HELPER;
        bool bl = helper_call && !in->args[0].value;
        if (helper_call && (blob.nrelocs != (bl ? 1u : 2u) || blob.relocs[0].index != in->args[0].slot ||
                            blob.relocs[0].kind != (bl ? RELOC_BRANCH : RELOC_PAGE21))) {
            report(k, f, &e, &d, "helper relocation");
            return false;
        }
        k->checked++;
        if (f->enc != A64E_BRANCH && f->enc != A64E_JUMP)
            break;
    }
    return true;
}

/* ---- candidate arguments ---------------------------------------------------------------- */
typedef struct { Arg a[160]; unsigned n; } Cands;

static void add(Cands *c, Arg a)
{
    if (c->n < sizeof c->a / sizeof c->a[0])
        c->a[c->n++] = a;
}

static const int64_t imm_spread[] = {
    0, 1, -1, 5, 9, 10, 31, 32, 63, 64, 255, 4095, 4096, -4096, 0x5000, 0xfff000, 0x1000000, 0xff, 0xff00,
    0xfffffffe, 0x55555555, INT32_MAX, INT32_MIN, UINT32_MAX, -4095, 0x123456789, 0x5555555555555555,
    INT64_MIN, INT64_MAX, -256,
};
static const int64_t off_spread[] = {
    0, 1, 3, 8, -8, 255, -256, 256, 257, 4095, 4096, 8190, 16380, 32760, 32768, -257, 1 << 20, -100000,
};

static void memory_cands(Cands *c)
{
    for (unsigned i = 0; i < sizeof off_spread / sizeof off_spread[0]; i++)
        add(c, arg_addr(tmp_gp((i * 7 + 1) % 31 == 16 ? 3 : (i * 7 + 1) % 31), off_spread[i]));
    add(c, arg_addr(tmp_gp(A64_LIR_SP), 16));
    add(c, arg_addr(tmp_gp(A64_LIR_SP), -24));
    for (unsigned s = 1; s <= 8; s *= 2) {
        add(c, arg_index(tmp_gp(2), tmp_gp(5), s, 0));
        add(c, arg_index(tmp_gp(A64_LIR_SP), tmp_gp(28), s, 0));
        add(c, arg_index(tmp_gp(30), tmp_gp(0), s, 16));
        add(c, arg_index(tmp_gp(7), tmp_gp(9), s, -70000));
    }
    add(c, arg_stack(0, 0));
    add(c, arg_stack(0, 8));
    add(c, arg_stack(0, 4));
    add(c, arg_callarg(0));
    add(c, arg_callarg(24));
    add(c, arg_callarg(100000));
}

static void cands_for(const LirForm *f, unsigned i, const LirOverload *o, Cands *c)
{
    const FormArg *fa = &f->args[i];
    c->n = 0;
    if (fa->kinds & FK_TMP) {
        if (fa->fixed)
            add(c, arg_tmp(tmp_reg((Bank)o->args[i].bank, fa->fixed - 1u)));
        else
            for (unsigned r = 0; r < 32; r++)
                add(c, arg_tmp(tmp_reg((Bank)o->args[i].bank, r)));
    }
    if (fa->kinds & (FK_IMM | FK_BIGIMM))
        for (unsigned k = 0; k < sizeof imm_spread / sizeof imm_spread[0]; k++)
            add(c, (fa->kinds & FK_IMM) ? arg_imm(imm_spread[k]) : arg_bigimm(imm_spread[k]));
    if (fa->kinds & FK_MEM)
        memory_cands(c);
    if (fa->kinds & FK_RELCOND)
        for (unsigned k = 0; k < REL_COUNT; k++)
            add(c, arg_relcond((RelCond)k));
    if (fa->kinds & FK_RESCOND)
        for (unsigned k = 0; k < RES_COUNT; k++)
            add(c, arg_rescond((ResCond)k));
    if (fa->kinds & FK_DOUBLECOND)
        for (unsigned k = 0; k < DBL_COUNT; k++)
            add(c, arg_doublecond((DoubleCond)k));
    if (fa->kinds & FK_SYMBOL) {
        add(c, arg_symbol(TARGET_FUNC, 1, 0));
        add(c, arg_symbol(TARGET_HELPER, HELPER_FMOD_F64, 0));
        add(c, arg_symbol(TARGET_HELPER, HELPER_THROW, 16));
    }
}

static bool is_control(const LirForm *f)
{
    return f->enc == A64E_BRANCH || f->enc == A64E_JUMP || f->enc == A64E_RET || f->enc == A64E_CALL ||
           f->enc == A64E_BRK;
}

static bool check_inst(Checker *k, const LirForm *f, Inst *in)
{
    if (!lir_form_accepts(a64_target(), f, in)) {
        k->rejected++;
        return true;
    }
    if (lir_find_form(a64_target(), in) != f)
        return true;   /* an earlier form takes it: checked there */
    static CallInfo none;
    in->call = &none;
    return is_control(f) ? check_control(k, f, in) : check_straight(k, f, in);
}

/* every candidate in each position, the other positions rotating through theirs */
static bool check_form(Checker *k, const LirForm *f)
{
    const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
    Cands c[LIR_MAX_ARGS];
    for (unsigned i = 0; i < f->nargs; i++)
        cands_for(f, i, o, &c[i]);
    unsigned before = k->checked;
    if (f->nargs == 0) {
        Inst in = lir_inst((LirOp)f->op, 0, NULL);
        if (!check_inst(k, f, &in))
            return false;
        in.trap = TRAP_DIV0;
        if (f->enc == A64E_BRK && !check_inst(k, f, &in))
            return false;
    }
    for (unsigned i = 0; i < f->nargs; i++)
        for (unsigned j = 0; j < c[i].n; j++)
            for (unsigned rot = 0; rot < 3; rot++) {
                Arg args[LIR_MAX_ARGS];
                for (unsigned p = 0; p < f->nargs; p++)
                    args[p] = p == i ? c[i].a[j] : c[p].a[(j * 5 + p * 3 + rot * 11) % c[p].n];
                Inst in = lir_inst((LirOp)f->op, f->nargs, args);
                if (!check_inst(k, f, &in))
                    return false;
            }
    if (k->checked == before) {
        fprintf(stderr, "a64_target_encode: form #%u of %s accepted no candidate\n",
                (unsigned)(f - a64_target()->forms), lir_op_name((LirOp)f->op));
        return false;
    }
    return true;
}

/* value rules: what the table must refuse */
static bool check_refusals(void)
{
    const Target *t = a64_target();
    struct { LirOp op; unsigned n; Arg a[3]; } bad[] = {
        { LIR_Add64, 3, { arg_tmp(tmp_gp(1)), arg_imm(4097), arg_tmp(tmp_gp(2)) } },
        { LIR_And32, 3, { arg_tmp(tmp_gp(1)), arg_imm(0), arg_tmp(tmp_gp(2)) } },
        { LIR_And64, 3, { arg_tmp(tmp_gp(1)), arg_imm(-1), arg_tmp(tmp_gp(2)) } },
        { LIR_Or32, 3, { arg_tmp(tmp_gp(1)), arg_imm(0x100000000), arg_tmp(tmp_gp(2)) } },
        { LIR_Add64, 3, { arg_tmp(tmp_gp(16)), arg_tmp(tmp_gp(1)), arg_tmp(tmp_gp(2)) } },
        { LIR_Add64, 3, { arg_tmp(tmp_gp(1)), arg_tmp(tmp_gp(A64_LIR_SP)), arg_tmp(tmp_gp(2)) } },
        { LIR_Xor64, 3, { arg_tmp(tmp_gp(A64_LIR_SP)), arg_tmp(tmp_gp(1)), arg_tmp(tmp_gp(2)) } },
        { LIR_Move, 2, { arg_addr(tmp_gp(17), 0), arg_tmp(tmp_gp(1)) } },
        { LIR_Move, 2, { arg_index(tmp_gp(1), tmp_gp(A64_LIR_SP), 1, 0), arg_tmp(tmp_gp(1)) } },
        { LIR_Move32, 2, { arg_imm(0x100000000), arg_tmp(tmp_gp(1)) } },
        { LIR_Lshift32, 2, { arg_imm(256), arg_tmp(tmp_gp(1)) } },
        { LIR_Move, 2, { arg_addr(tmp_gp(1), 1ll << 32), arg_tmp(tmp_gp(1)) } },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (lir_is_valid_args(t, bad[i].op, bad[i].n, bad[i].a)) {
            fprintf(stderr, "a64_target_encode: refusal %u (%s) accepted\n", i, lir_op_name(bad[i].op));
            return false;
        }
    return true;
}

int main(void)
{
    Checker k = { .checked = 0 };
    if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &k.cs) != CS_ERR_OK)
        return 1;
    k.arena = arena_new();
    k.code = lir_code_new(k.arena, a64_target(), "t", 0);
    give_frame(k.code);
    const Target *t = a64_target();
    bool ok = check_refusals();
    for (uint32_t i = 0; ok && i < t->nforms; i++)
        ok = check_form(&k, &t->forms[i]);
    printf("a64_target_encode: %u forms, %u instructions checked, %u candidate combinations refused: %s\n",
           t->nforms, k.checked, k.rejected, ok ? "ok" : "FAILED");
    arena_free(k.arena);
    cs_close(&k.cs);
    return ok ? 0 : 1;
}
