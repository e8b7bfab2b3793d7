/* forms.c — reading instructions through the overload table (lir_for_each_arg,
 * lir_for_each_tmp) and checking them against a target's forms table
 * (lir_is_valid_form).  Needs only opcodes.def and the target's LirForm rows. */
#include "lir.h"

/* ---- argument iteration ------------------------------------------------------------ */
static void each_call_arg(Inst *inst, LirArgFn fn, void *ctx)
{
    CallInfo *ci = inst->call;
    if (!ci)
        return;
    for (uint32_t i = 0; i < ci->nuses; i++) {
        Arg *a = &ci->uses[i];
        Width w = ci->use_widths ? ci->use_widths[i] : 64;
        fn(ctx, a, ROLE_USE, a->kind == ARG_TMP ? tmp_bank(a->base) : BANK_GP, w);
    }
    for (uint32_t i = 0; i < ci->ndefs; i++) {
        Arg *a = &ci->defs[i];
        Width w = ci->def_widths ? ci->def_widths[i] : 64;
        fn(ctx, a, ROLE_DEF, a->kind == ARG_TMP ? tmp_bank(a->base) : BANK_GP, w);
    }
}

bool lir_for_each_arg(Inst *inst, LirArgFn fn, void *ctx)
{
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    if (!o)
        return false;
    for (unsigned i = 0; i < o->nargs; i++)
        fn(ctx, &inst->args[i], (Role)o->args[i].role, (Bank)o->args[i].bank, o->args[i].width);
    if (o->flags & LF_CALL)
        each_call_arg(inst, fn, ctx);
    return true;
}

void lir_for_each_call_tmp(Inst *inst, LirTmpFn fn, void *ctx)
{
    CallInfo *ci = inst->call;
    for (uint32_t i = 0; ci && i < ci->nuses; i++) {
        Arg *a = &ci->uses[i];
        lir_arg_tmps(a, ROLE_USE, a->kind == ARG_TMP ? tmp_bank(a->base) : BANK_GP,
                     ci->use_widths ? ci->use_widths[i] : 64, fn, ctx);
    }
    for (uint32_t i = 0; ci && i < ci->ndefs; i++) {
        Arg *a = &ci->defs[i];
        lir_arg_tmps(a, ROLE_DEF, a->kind == ARG_TMP ? tmp_bank(a->base) : BANK_GP,
                     ci->def_widths ? ci->def_widths[i] : 64, fn, ctx);
    }
}

/* ---- forms ------------------------------------------------------------------------- */
const LirForm *lir_target_forms(const Target *t, LirOp op, uint32_t *n)
{
    /* binary search for the first row of op: rows are in opcode order */
    uint32_t lo = 0, hi = t->nforms;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->forms[mid].op < op)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t end = lo;
    while (end < t->nforms && t->forms[end].op == op)
        end++;
    *n = end - lo;
    return &t->forms[lo];
}

static bool address_fits(const Arg *a)
{
    if (a->base == TMP_NONE || tmp_bank(a->base) != BANK_GP)
        return false;
    if (a->kind != ARG_INDEX)
        return true;
    return a->index != TMP_NONE && tmp_bank(a->index) == BANK_GP &&
           (a->scale == 1 || a->scale == 2 || a->scale == 4 || a->scale == 8);
}

/* the checks of an argument that no form changes: a known kind, a Tmp of the bank
 * its overload says, a well-formed address, a condition in range, a symbol kind */
static bool arg_sane(const Arg *a, const ArgSig *sig)
{
    switch ((ArgKind)a->kind) {
    case ARG_TMP: return a->base != TMP_NONE && tmp_bank(a->base) == sig->bank;
    case ARG_ADDR: case ARG_INDEX: return address_fits(a);
    case ARG_RELCOND: return a->cond < REL_COUNT;
    case ARG_RESCOND: return a->cond < RES_COUNT;
    case ARG_DOUBLECOND: return a->cond < DBL_COUNT;
    case ARG_SYMBOL: return a->sym_kind == TARGET_FUNC || a->sym_kind == TARGET_HELPER;
    case ARG_KIND_COUNT: return false;
    default: return a->kind < ARG_KIND_COUNT;
    }
}

/* every argument of inst (whose overload is o) sane; kind_bits[i] := 1 << its kind */
static bool args_sane(const Inst *inst, const LirOverload *o, uint16_t *kind_bits)
{
    for (unsigned i = 0; i < inst->nargs; i++) {
        if (!arg_sane(&inst->args[i], &o->args[i]))
            return false;
        kind_bits[i] = (uint16_t)(1u << inst->args[i].kind);
    }
    return true;
}

/* f accepts inst, whose arguments are sane and of the kinds kind_bits: the kinds
 * first (the cheap test that rejects most forms), then fixed registers, then the
 * target's value rules */
static bool form_takes(const Target *t, const LirForm *f, const Inst *inst, const uint16_t *kind_bits)
{
    if (f->op != inst->op || f->nargs != inst->nargs)
        return false;
    for (unsigned i = 0; i < inst->nargs; i++)
        if (!(f->args[i].kinds & kind_bits[i]))
            return false;
    for (unsigned i = 0; i < inst->nargs; i++) {
        const Arg *a = &inst->args[i];
        unsigned fixed = f->args[i].fixed;
        if (fixed && a->kind == ARG_TMP && !(tmp_is_reg(a->base) && tmp_reg_number(a->base) == fixed - 1u))
            return false;
    }
    if (t->arg_ok)
        for (unsigned i = 0; i < inst->nargs; i++)
            if (!t->arg_ok(f, i, &inst->args[i]))
                return false;
    return true;
}

/* is the form one of the target's CPU level (its needs within the level's features)? */
static bool form_in_level(const Target *t, const LirForm *f) { return (f->needs & ~t->features) == 0; }

bool lir_form_accepts(const Target *t, const LirForm *f, const Inst *inst)
{
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    uint16_t kind_bits[LIR_MAX_ARGS];
    return o && form_in_level(t, f) && args_sane(inst, o, kind_bits) && form_takes(t, f, inst, kind_bits);
}

static const LirForm *first_accepting(const Target *t, const LirForm *forms, uint32_t n, const Inst *inst)
{
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    uint16_t kind_bits[LIR_MAX_ARGS];
    if (!o || !args_sane(inst, o, kind_bits))
        return NULL;
    for (uint32_t k = 0; k < n; k++)
        if (form_in_level(t, &forms[k]) && form_takes(t, &forms[k], inst, kind_bits))
            return &forms[k];
    return NULL;
}

const LirForm *lir_find_form(const Target *t, const Inst *inst)
{
    if (!t || inst->op >= LIR_OP_COUNT)
        return NULL;
    uint32_t n;
    const LirForm *forms = lir_target_forms(t, (LirOp)inst->op, &n);
    return first_accepting(t, forms, n, inst);
}

const LirForm *lir_code_find_form(const Code *code, const Inst *inst)
{
    const Target *t = code->target;
    if (!t || code->indexed != t || !code->form_spans)
        return lir_find_form(t, inst);
    if (inst->op >= LIR_OP_COUNT)
        return NULL;
    FormSpan *span = &code->form_spans[inst->op];
    if (!span->first) {
        uint32_t n;
        const LirForm *rows = lir_target_forms(t, (LirOp)inst->op, &n);
        *span = (FormSpan){(uint16_t)(rows - t->forms + 1), (uint16_t)n};
    }
    return first_accepting(t, &t->forms[span->first - 1], span->n, inst);
}

bool lir_is_valid_form(const Target *t, const Inst *inst) { return lir_find_form(t, inst) != NULL; }

bool lir_is_valid_args(const Target *t, LirOp op, unsigned nargs, const Arg *args)
{
    if (nargs > LIR_MAX_ARGS)
        return false;
    Inst in = lir_inst(op, nargs, args);
    return lir_is_valid_form(t, &in);
}

bool lir_is_pure(const Inst *in)
{
    if (lir_op_flags((LirOp)in->op) & (LF_TERM | LF_CALL | LF_EFFECT | LF_TRAP) || in->call || in->trap)
        return false;
    const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
    if (!o)
        return false;
    for (unsigned i = 0; i < o->nargs; i++) {
        const Arg *a = &in->args[i];
        if (role_is_def((Role)o->args[i].role) && (a->kind != ARG_TMP || !tmp_is_virtual(a->base)))
            return false;
    }
    return true;
}

bool lir_is_move(const Inst *inst)
{
    return (lir_op_flags((LirOp)inst->op) & LF_MOVE) && inst->nargs == 2 &&
           inst->args[0].kind == ARG_TMP && inst->args[1].kind == ARG_TMP &&
           tmp_bank(inst->args[0].base) == tmp_bank(inst->args[1].base);
}

/* inst with arg i (a Tmp) replaced by a stack slot; false if arg i is no Tmp */
static bool with_stack_arg(const Inst *inst, unsigned i, Inst *copy)
{
    if (i >= inst->nargs || inst->args[i].kind != ARG_TMP)
        return false;
    *copy = *inst;
    copy->args[i] = arg_stack(0, 0);
    return true;
}

bool lir_admits_stack(const Target *t, const Inst *inst, unsigned i)
{
    Inst copy;
    return with_stack_arg(inst, i, &copy) && lir_is_valid_form(t, &copy);
}

bool lir_code_admits_stack(const Code *code, const Inst *inst, unsigned i)
{
    Inst copy;
    return with_stack_arg(inst, i, &copy) && lir_code_find_form(code, &copy) != NULL;
}

uint64_t lir_inst_clobbers(const Inst *inst, Bank b)
{
    return inst->call && (lir_op_flags((LirOp)inst->op) & LF_CALL) ? inst->call->clobbers[b] : 0;
}
