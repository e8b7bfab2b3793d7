/* mcov.c — machine-level coverage counters (mcov.h): a form and its condition per
 * encoded instruction, the idioms' names, condition kinds of forms, sums. */
#include "compiler/lir/mcov.h"

static const char *const idiom_names[MCOV_IDIOM_COUNT] = {
#define X(id, name) name,
    MCOV_IDIOMS(X)
#undef X
};

const char *mcov_idiom_name(McovIdiom i) { return (unsigned)i < MCOV_IDIOM_COUNT ? idiom_names[i] : "?"; }

/* the kind of the form's condition argument and its position; ARG_NONE if none */
static ArgKind cond_kind(const LirForm *form, unsigned *at)
{
    for (unsigned i = 0; i < form->nargs; i++) {
        uint16_t k = form->args[i].kinds;
        *at = i;
        if (k & FK_RELCOND)
            return ARG_RELCOND;
        if (k & FK_RESCOND)
            return ARG_RESCOND;
        if (k & FK_DOUBLECOND)
            return ARG_DOUBLECOND;
    }
    return ARG_NONE;
}

unsigned mcov_form_conds(const LirForm *form)
{
    unsigned at;
    switch (cond_kind(form, &at)) {
    case ARG_RELCOND: return REL_COUNT;
    case ARG_RESCOND: return RES_COUNT;
    case ARG_DOUBLECOND: return DBL_COUNT;
    default: return 0;
    }
}

const char *mcov_cond_name(const LirForm *form, unsigned i)
{
    unsigned at;
    return lir_cond_name(cond_kind(form, &at), i);
}

void mcov_inst(MachCov *cov, const Target *t, const LirForm *form, const Inst *inst)
{
    if (!cov || form < t->forms || form >= t->forms + t->nforms)
        return;
    size_t row = (size_t)(form - t->forms);
    if (row >= MCOV_MAX_FORMS)
        return;
    cov->forms[row]++;
    unsigned at;
    if (cond_kind(form, &at) != ARG_NONE && at < inst->nargs && inst->args[at].cond < MCOV_CONDS)
        cov->conds[row][inst->args[at].cond]++;
}

void mcov_add(MachCov *into, const MachCov *from)
{
    for (unsigned i = 0; i < MCOV_MAX_FORMS; i++) {
        into->forms[i] += from->forms[i];
        for (unsigned c = 0; c < MCOV_CONDS; c++)
            into->conds[i][c] += from->conds[i][c];
    }
    for (unsigned i = 0; i < MCOV_MAX_ITEMS; i++)
        into->items[i] += from->items[i];
    for (unsigned i = 0; i < MCOV_IDIOM_COUNT; i++)
        into->idioms[i] += from->idioms[i];
}
