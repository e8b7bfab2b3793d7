/* reduce_join.c — the reducer's strategy that splits dependency joins: one input of a
 * DEPEND_AND leaves it (the chain it brought goes unless something else demands it). */
#include "fuzz/reduce_internal.h"

#include <stdlib.h>

void reduce_join_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (!c->gates[g].dead && c->gates[g].op == OP_DEPEND_AND && c->gates[g].ndep >= 2)
                units_push(out, f, g, 0);
    }
}

/* DEPEND_AND g without its input v: the rest, or the one input left */
static bool drop_join_input(Circuit *c, GateId g, uint32_t v)
{
    const Gate *gt = &c->gates[g];
    uint32_t n = gt->ndep;
    if (v >= n || n < 2)
        return false;
    if (n == 2) {
        circ_replace_uses(c, g, gate_dep(gt, 1 - v));
        return true;
    }
    GateId *keep = malloc((n - 1) * sizeof *keep);
    if (!keep)
        abort();
    for (uint32_t i = 0, k = 0; i < n; i++)
        if (i != v)
            keep[k++] = gate_dep(gt, i);
    circ_set_inputs(c, g, NULL, 0, keep, n - 1, NULL, 0);
    free(keep);
    return true;
}

Module *reduce_split_joins(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        if (reduce_gate_live(c, u[i].gate) && c->gates[u[i].gate].op == OP_DEPEND_AND)
            changed |= drop_join_input(c, u[i].gate, v);
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}
