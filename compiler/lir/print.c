/* print.c — LIR dumps in Air's syntax: `Add32 %tmp1, %tmp2`,
 * `Move 8(%rax,%rcx,8), %tmp3`, `Branch32 slt, %tmp0, $0`, blocks with successors. */
#include "lir.h"

#include <inttypes.h>

static const char *const relcond_names[] = {
#define X(n) #n,
    LIR_RELCONDS(X)
#undef X
};
static const char *const rescond_names[] = {
#define X(n) #n,
    LIR_RESCONDS(X)
#undef X
};
static const char *const doublecond_names[] = {
#define X(n) #n,
    LIR_DOUBLECONDS(X)
#undef X
};

static const char *const helper_names[HELPER_COUNT] = {
    "fmod_f32", "fmod_f64", "fexp_f32", "fexp_f64", "throw",
#define RT(name, ...) #name,
#include "compiler/ir/runtime.def"
#undef RT
};

static const char *const trap_names[] = { "none", "div0", "overflow", "fault", "illegal" };

const char *lir_trap_name(unsigned kind)
{
    return kind < sizeof trap_names / sizeof trap_names[0] ? trap_names[kind] : "?";
}

const char *lir_helper_name(unsigned helper) { return helper < HELPER_COUNT ? helper_names[helper] : "?"; }

const char *lir_cond_name(ArgKind kind, unsigned cond)
{
    if (kind == ARG_RELCOND && cond < REL_COUNT)
        return relcond_names[cond];
    if (kind == ARG_RESCOND && cond < RES_COUNT)
        return rescond_names[cond];
    if (kind == ARG_DOUBLECOND && cond < DBL_COUNT)
        return doublecond_names[cond];
    return NULL;
}

const char *lir_tmp_name(const Code *c, Tmp t, char *buf, size_t n)
{
    Bank b = tmp_bank(t);
    if (t == TMP_NONE)
        snprintf(buf, n, "%%none");
    else if (tmp_is_virtual(t))
        snprintf(buf, n, "%%%stmp%" PRIu32, b == BANK_FP ? "f" : "", tmp_virtual_index(t));
    else if (c && c->target && tmp_reg_number(t) < c->target->nregs[b])
        snprintf(buf, n, "%%%s", c->target->reg_names[b][tmp_reg_number(t)]);
    else
        snprintf(buf, n, "%%%c%u", b == BANK_FP ? 'f' : 'r', tmp_reg_number(t));
    return buf;
}

static void print_offset(FILE *out, int64_t v)
{
    if (v)
        fprintf(out, "%" PRId64, v);
}

static void print_cond(FILE *out, const Arg *a)
{
    const char *name = lir_cond_name((ArgKind)a->kind, a->cond);
    fputs(name ? name : "?", out);
}

static void print_symbol(FILE *out, const Arg *a)
{
    if (a->sym_kind == TARGET_HELPER)
        fprintf(out, "$helper.%s", lir_helper_name(a->slot));
    else
        fprintf(out, "$func%" PRIu32, a->slot);
    if (a->value)
        fprintf(out, "%+" PRId64, a->value);
}

void lir_print_arg(FILE *out, const Code *c, const Arg *a)
{
    char b1[32], b2[32];
    switch ((ArgKind)a->kind) {
    case ARG_NONE: fputs("<none>", out); break;
    case ARG_TMP: fputs(lir_tmp_name(c, a->base, b1, sizeof b1), out); break;
    case ARG_IMM: fprintf(out, "$%" PRId64, a->value); break;
    case ARG_BIGIMM: fprintf(out, "$0x%" PRIx64, (uint64_t)a->value); break;
    case ARG_ADDR:
        print_offset(out, a->value);
        fprintf(out, "(%s)", lir_tmp_name(c, a->base, b1, sizeof b1));
        break;
    case ARG_INDEX:
        print_offset(out, a->disp);
        fprintf(out, "(%s,%s,%u)", lir_tmp_name(c, a->base, b1, sizeof b1),
                lir_tmp_name(c, a->index, b2, sizeof b2), a->scale);
        break;
    case ARG_STACK:
        print_offset(out, a->value);
        fprintf(out, "(stack%" PRIu32 ")", a->slot);
        break;
    case ARG_CALLARG:
        print_offset(out, a->value);
        fputs("(callArg)", out);
        break;
    case ARG_RELCOND: case ARG_RESCOND: case ARG_DOUBLECOND: print_cond(out, a); break;
    case ARG_SYMBOL: print_symbol(out, a); break;
    case ARG_SPECIAL: fputs("<special>", out); break;
    case ARG_KIND_COUNT: fputs("<?>", out); break;
    }
}

/* one "uses"/"defs" group of a CallInfo: "NAME %a:32, %b" (width when not 64) */
static void print_call_group(FILE *out, const Code *c, const char *name, const Arg *args,
                             const Width *widths, uint32_t n, bool *first)
{
    if (!n)
        return;
    fprintf(out, "%s%s", *first ? "" : "; ", name);
    for (uint32_t i = 0; i < n; i++) {
        fputs(i ? ", " : " ", out);
        lir_print_arg(out, c, &args[i]);
        if (widths && widths[i] != 64)
            fprintf(out, ":%u", widths[i]);
    }
    *first = false;
}

static void print_clobbers(FILE *out, const Code *c, const CallInfo *ci, bool *first)
{
    char buf[32];
    for (int b = 0; b < BANK_COUNT; b++)
        for (unsigned r = 0; r < LIR_MAX_REGS; r++)
            if (ci->clobbers[b] >> r & 1) {
                fprintf(out, "%s%s", *first ? "clobbers " : ", ", lir_tmp_name(c, tmp_reg((Bank)b, r), buf, sizeof buf));
                *first = false;
            }
}

static void print_call_info(FILE *out, const Code *c, const CallInfo *ci)
{
    bool first = true;
    fputs(" {", out);
    print_call_group(out, c, "uses", ci->uses, ci->use_widths, ci->nuses, &first);
    print_call_group(out, c, "defs", ci->defs, ci->def_widths, ci->ndefs, &first);
    if (ci->clobbers[BANK_GP] | ci->clobbers[BANK_FP]) {
        bool none_yet = true;
        if (!first)
            fputs("; ", out);
        print_clobbers(out, c, ci, &none_yet);
    }
    fputs("}", out);
}

void lir_print_inst(FILE *out, const Code *c, const Inst *inst)
{
    fputs(lir_op_name((LirOp)inst->op), out);
    for (unsigned i = 0; i < inst->nargs; i++) {
        fputs(i ? ", " : " ", out);
        lir_print_arg(out, c, &inst->args[i]);
    }
    if (inst->call && (inst->call->nuses || inst->call->ndefs || inst->call->clobbers[BANK_GP] ||
                       inst->call->clobbers[BANK_FP]))
        print_call_info(out, c, inst->call);
    if (inst->trap)
        fprintf(out, " !trap %s", lir_trap_name(inst->trap));
    if (inst->origin != NO_GATE)
        fprintf(out, " ; gate %" PRIu32, inst->origin);
}

static void print_block(FILE *out, const Code *c, const LirBlock *b)
{
    fprintf(out, "BB#%" PRIu32 ": ; frequency = %g\n", b->index, b->frequency);
    if (b->npreds) {
        fputs("  Predecessors:", out);
        for (uint32_t i = 0; i < b->npreds; i++)
            fprintf(out, " #%" PRIu32, b->preds[i]);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < b->ninsts; i++) {
        fputs("    ", out);
        lir_print_inst(out, c, &b->insts[i]);
        fputc('\n', out);
    }
    if (b->nsuccs) {
        fputs("  Successors:", out);
        for (uint32_t i = 0; i < b->nsuccs; i++)
            fprintf(out, " #%" PRIu32, b->succs[i]);
        fputc('\n', out);
    }
}

void lir_print(FILE *out, const Code *c)
{
    char buf[32];
    fprintf(out, "code @%s ; %s\n", c->name, c->target ? c->target->name : "no target");
    if (c->frame_base != TMP_NONE)
        fprintf(out, "  frame %s\n", lir_tmp_name(c, c->frame_base, buf, sizeof buf));
    for (uint32_t i = 0; i < c->nslots; i++) {
        const StackSlot *s = &c->slots[i];
        fprintf(out, "  stack%" PRIu32 ": size %" PRIu32 ", align %" PRIu32 "%s", i, s->size,
                s->align, s->locked ? ", locked" : "");
        if (s->assigned)
            fprintf(out, ", offset %" PRId32, s->offset);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < c->nblocks; i++)
        print_block(out, c, c->blocks[i]);
}
