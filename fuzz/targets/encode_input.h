/* encode_input.h — for fuzz_encode: turn fuzzer bytes into one LIR instruction
 * that a form of a target's forms table accepts (form,
 * then each argument from the kinds the form allows, values from the bytes), and
 * compare what the encoder made with Capstone's decoding of it (the target's
 * Target.disasm binding: architecture, mode, register names): every byte decodes
 * (but the literal data of a symbol load),
 * and every register the instruction names (register arguments, address bases and
 * indexes) is read or written by the decoded instructions.  Straight-line forms only
 * (branches, jumps and calls need a layout). */
#ifndef CIRC_FUZZ_ENCODE_INPUT_H
#define CIRC_FUZZ_ENCODE_INPUT_H

#include "compiler/lir/lir.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *p;
    size_t n, pos;
} ByteSrc;

static inline uint8_t src_u8(ByteSrc *s) { return s->pos < s->n ? s->p[s->pos++] : 0; }

static inline uint64_t src_u64(ByteSrc *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)src_u8(s) << (8 * i);
    return v;
}

/* an interesting immediate: small, a boundary, or any 64-bit value */
static inline int64_t src_imm(ByteSrc *s)
{
    static const int64_t edge[] = {0, 1, -1, 127, 128, -128, -129, 255, 4095, 4096, 65535, 0x7fffffff,
                                   -0x80000000ll, 0xffffffffll, INT64_MAX, INT64_MIN};
    uint8_t k = src_u8(s);
    if (k < 96)
        return (int8_t)src_u8(s);
    if (k < 192)
        return edge[k % 16];
    return (int64_t)src_u64(s);
}

static inline Tmp src_reg(ByteSrc *s, Bank b, unsigned nregs) { return tmp_reg(b, src_u8(s) % nregs); }

/* one argument of a kind the form accepts in position i */
static inline Arg src_arg(ByteSrc *s, const Target *t, const FormArg *fa, Bank bank)
{
    unsigned kinds[ARG_KIND_COUNT], nk = 0;
    for (unsigned k = 0; k < ARG_KIND_COUNT; k++)
        if (fa->kinds >> k & 1)
            kinds[nk++] = k;
    if (!nk)
        return arg_none();
    unsigned nregs = t->nregs[BANK_GP] < 32 ? t->nregs[BANK_GP] : 32;
    switch ((ArgKind)kinds[src_u8(s) % nk]) {
    case ARG_TMP: return arg_tmp(fa->fixed ? tmp_reg(bank, fa->fixed - 1u) : src_reg(s, bank, t->nregs[bank]));
    case ARG_IMM: return arg_imm(src_imm(s));
    case ARG_BIGIMM: return arg_bigimm(src_imm(s));
    case ARG_ADDR: return arg_addr(src_reg(s, BANK_GP, nregs), src_imm(s));
    case ARG_INDEX: {
        Tmp base = src_reg(s, BANK_GP, nregs), index = src_reg(s, BANK_GP, nregs);
        return arg_index(base, index, 1u << (src_u8(s) % 4), src_imm(s));
    }
    case ARG_STACK: return arg_stack(0, (int8_t)src_u8(s));
    case ARG_CALLARG: return arg_callarg((src_u8(s) % 32) * 8);
    case ARG_RELCOND: return arg_relcond((RelCond)(src_u8(s) % REL_COUNT));
    case ARG_RESCOND: return arg_rescond((ResCond)(src_u8(s) % RES_COUNT));
    case ARG_DOUBLECOND: return arg_doublecond((DoubleCond)(src_u8(s) % DBL_COUNT));
    case ARG_SYMBOL: return arg_symbol(src_u8(s) & 1 ? TARGET_HELPER : TARGET_FUNC, src_u8(s) % 4, 0);
    default: return arg_none();
    }
}

static inline bool is_straight(LirOp op)
{
    unsigned f = lir_op_flags(op);
    return !(f & (LF_BRANCH | LF_JUMP | LF_CALL | LF_TERM));
}

/* an instruction of a straight-line form chosen by the bytes, accepted by that very
 * form; false if the bytes do not make one */
static inline bool src_inst(ByteSrc *s, const Target *t, Inst *in, const LirForm **form)
{
    uint32_t k = (uint32_t)(src_u8(s) | src_u8(s) << 8) % t->nforms;
    const LirForm *f = &t->forms[k];
    const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
    if (!o || !is_straight((LirOp)f->op))
        return false;
    Arg args[LIR_MAX_ARGS];
    for (unsigned i = 0; i < f->nargs; i++)
        args[i] = src_arg(s, t, &f->args[i], (Bank)o->args[i].bank);
    *in = lir_inst((LirOp)f->op, f->nargs, args);
    if (lir_op_flags((LirOp)f->op) & LF_TRAP)
        in->trap = (uint8_t)(1 + src_u8(s) % 2);
    *form = f;
    return lir_find_form(t, in) != NULL;
}

/* the registers an instruction names, as (bank, number) pairs */
typedef struct {
    uint8_t bank[3 * LIR_MAX_ARGS], num[3 * LIR_MAX_ARGS];
    unsigned n;
} NamedRegs;

static inline void named_regs(const Inst *in, NamedRegs *r)
{
    r->n = 0;
    for (unsigned i = 0; i < in->nargs; i++) {
        const Arg *a = &in->args[i];
        Tmp ts[2] = {TMP_NONE, TMP_NONE};
        if (a->kind == ARG_TMP || a->kind == ARG_ADDR || a->kind == ARG_INDEX)
            ts[0] = a->base;
        if (a->kind == ARG_INDEX)
            ts[1] = a->index;
        for (int k = 0; k < 2; k++)
            if (ts[k] != TMP_NONE && tmp_is_reg(ts[k])) {
                r->bank[r->n] = (uint8_t)tmp_bank(ts[k]);
                r->num[r->n++] = (uint8_t)tmp_reg_number(ts[k]);
            }
    }
}

/* decode the encoder's bytes and compare; on a disagreement print a report and abort */
static inline void compare_with_capstone(csh cs, const Target *t, const Inst *in,
                                         const uint8_t *code, size_t size)
{
    cs_insn *insn = NULL;
    size_t n = cs_disasm(cs, code, size, 0, 0, &insn);
    size_t decoded = 0;
    bool seen[BANK_COUNT][LIR_MAX_REGS] = {{false}};
    for (size_t i = 0; i < n; i++) {
        decoded += insn[i].size;
        cs_regs rd, wr;
        uint8_t nrd = 0, nwr = 0;
        if (cs_regs_access(cs, &insn[i], rd, &nrd, wr, &nwr) != CS_ERR_OK)
            nrd = nwr = 0;
        for (unsigned k = 0; k < (unsigned)nrd + nwr; k++) {
            Bank b;
            unsigned num;
            if (t->disasm.reg(cs_reg_name(cs, k < nrd ? rd[k] : wr[k - nrd]), &b, &num) && num < LIR_MAX_REGS)
                seen[b][num] = true;
        }
    }
    const char *why = NULL;
    char buf[160];
    NamedRegs r;
    named_regs(in, &r);
    bool has_literal = false; /* a symbol may be loaded from data placed in the code */
    for (unsigned i = 0; i < in->nargs; i++)
        has_literal |= in->args[i].kind == ARG_SYMBOL;
    if (has_literal ? n == 0 : decoded != size) {
        snprintf(buf, sizeof buf, "Capstone decoded %zu of %zu bytes", decoded, size);
        why = buf;
    }
    for (unsigned i = 0; !why && i < r.n; i++)
        if (!seen[r.bank[i]][r.num[i]]) {
            snprintf(buf, sizeof buf, "register %s%u is not used by the decoded code",
                     r.bank[i] == BANK_FP ? "fp" : "gp", r.num[i]);
            why = buf;
        }
    if (why) {
        Arena *a = arena_new();
        Code *c = lir_code_new(a, t, "f", 0);
        fprintf(stderr, "%s encoder disagrees with Capstone: %s\n  instruction: ", t->name, why);
        lir_print_inst(stderr, c, in);
        fprintf(stderr, "\n  bytes:");
        for (size_t i = 0; i < size; i++)
            fprintf(stderr, " %02x", code[i]);
        fprintf(stderr, "\n  capstone:");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " [%s %s]", insn[i].mnemonic, insn[i].op_str);
        fputc('\n', stderr);
        arena_free(a);
        abort();
    }
    cs_free(insn, n);
}

#endif
