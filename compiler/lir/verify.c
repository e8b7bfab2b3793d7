/* verify.c — structural checks of a Code (lir_verify): terminators and successors,
 * overloads and target forms, tmps and stack slots that exist.  Needs nothing but the
 * Code; what it accepts, the encoders can lay out. */
#include "lir.h"

#include <stdarg.h>
#include <string.h>

typedef struct {
    const Code *code;
    FILE *out;             /* problems as lines "in @f: BB#b: inst i: ...", or NULL */
    Diag *d;               /* or located diagnostics, at positions from pos */
    const LirCodePos *pos;
    bool forms;            /* check each instruction against the target's forms */
    int problems;
    uint32_t block, inst;  /* UINT32_MAX: not inside one */
} Verifier;

/* where the current block or instruction was written (the code's line if unknown) */
static LirPos current_pos(const Verifier *v)
{
    const LirCodePos *p = v->pos;
    if (!p || v->block == UINT32_MAX || v->block >= p->nblocks)
        return p ? p->code_at : (LirPos){1, 1};
    uint32_t end = v->block + 1 < p->nblocks ? p->first_inst[v->block + 1] : p->ninsts;
    if (v->inst != UINT32_MAX && p->first_inst[v->block] + v->inst < end)
        return p->inst_at[p->first_inst[v->block] + v->inst];
    return p->block_at[v->block];
}

static void problem(Verifier *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(Verifier *v, const char *fmt, ...)
{
    v->problems++;
    if (!v->out && !v->d)
        return;
    char where[64] = "", msg[256];
    if (v->block != UINT32_MAX)
        snprintf(where, sizeof where, "BB#%u: ", v->block);
    if (v->inst != UINT32_MAX)
        snprintf(where + strlen(where), sizeof where - strlen(where), "inst %u: ", v->inst);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    LirPos at = current_pos(v);
    if (v->d)
        diag_error(v->d, at.line, at.col, "in @%s: %s%s", v->code->name, where, msg);
    else
        fprintf(v->out, "in @%s: %s%s\n", v->code->name, where, msg);
}

static void check_tmp(Verifier *v, Tmp t)
{
    const Code *c = v->code;
    if (t == TMP_NONE)
        problem(v, "missing tmp");
    else if (tmp_is_virtual(t) && tmp_virtual_index(t) >= c->ntmps[tmp_bank(t)])
        problem(v, "tmp %u of bank %s was never created", tmp_virtual_index(t), bank_name(tmp_bank(t)));
    else if (tmp_is_reg(t) && c->target && tmp_reg_number(t) >= c->target->nregs[tmp_bank(t)])
        problem(v, "register %u does not exist on %s", tmp_reg_number(t), c->target->name);
}

static void check_arg(Verifier *v, const Arg *a)
{
    switch ((ArgKind)a->kind) {
    case ARG_TMP: case ARG_ADDR: check_tmp(v, a->base); break;
    case ARG_INDEX: check_tmp(v, a->base); check_tmp(v, a->index); break;
    case ARG_STACK:
        if (a->slot >= v->code->nslots)
            problem(v, "stack slot %u does not exist", a->slot);
        break;
    case ARG_NONE: case ARG_KIND_COUNT: problem(v, "missing argument"); break;
    default: break;
    }
}

static void check_inst(Verifier *v, const Inst *in, bool last)
{
    const LirOverload *o = lir_overload((LirOp)in->op, in->nargs);
    if (!o) {
        problem(v, "%s has no %u-argument overload", lir_op_name((LirOp)in->op), in->nargs);
        return;
    }
    for (unsigned i = 0; i < in->nargs; i++)
        check_arg(v, &in->args[i]);
    if (in->call)
        for (uint32_t i = 0; i < in->call->nuses + in->call->ndefs; i++) {
            const Arg *a = i < in->call->nuses ? &in->call->uses[i] : &in->call->defs[i - in->call->nuses];
            if (a->kind != ARG_TMP || !tmp_is_reg(a->base))
                problem(v, "call arguments and results are registers");
        }
    if (v->forms && v->code->target && !lir_code_find_form(v->code, in))
        problem(v, "%s: no %s form takes these arguments", lir_op_name((LirOp)in->op),
                v->code->target->name);
    if ((o->flags & LF_TERM) && !last)
        problem(v, "%s ends a block but is not last", lir_op_name((LirOp)in->op));
    if (!(o->flags & LF_TERM) && last)
        problem(v, "the block does not end with a terminator");
}

static void check_block(Verifier *v, const LirBlock *b)
{
    if (!b->ninsts) {
        problem(v, "empty block");
        return;
    }
    for (v->inst = 0; v->inst < b->ninsts; v->inst++)
        check_inst(v, &b->insts[v->inst], v->inst + 1 == b->ninsts);
    v->inst = UINT32_MAX;
    unsigned flags = lir_op_flags((LirOp)b->insts[b->ninsts - 1].op);
    uint32_t want = (flags & LF_BRANCH) ? 2 : (flags & LF_JUMP) ? 1 : 0;
    if ((flags & LF_TERM) && b->nsuccs != want)
        problem(v, "%u successors, its terminator has %u", b->nsuccs, want);
    for (uint32_t s = 0; s < b->nsuccs; s++)
        if (b->succs[s] >= v->code->nblocks)
            problem(v, "successor #%u does not exist", b->succs[s]);
}

static int verify(const Code *c, FILE *out, Diag *d, const LirCodePos *pos, bool forms)
{
    Verifier v = { c, out, d, pos, forms, 0, UINT32_MAX, UINT32_MAX };
    if (!c->nblocks)
        problem(&v, "no blocks");
    for (v.block = 0; v.block < c->nblocks; v.block++) {
        if (c->blocks[v.block]->index != v.block)
            problem(&v, "block index %u out of place", c->blocks[v.block]->index);
        check_block(&v, c->blocks[v.block]);
    }
    v.block = UINT32_MAX;
    if (c->frame_base != TMP_NONE && !tmp_is_reg(c->frame_base))
        problem(&v, "the frame base is not a register");
    return v.problems;
}

int lir_verify(const Code *c, FILE *out) { return verify(c, out, NULL, NULL, true); }

int lir_verify_shape(const Code *c, FILE *out) { return verify(c, out, NULL, NULL, false); }

int lir_verify_located(const Code *c, const LirCodePos *pos, Diag *d) { return verify(c, NULL, d, pos, true); }
