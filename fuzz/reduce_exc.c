/* reduce_exc.c — the reducer's strategies on exceptions: turn an INVOKE into a CALL
 * (its IF_SUCCESS becomes an ORDINARY_BLOCK on the INVOKE's state, its handler is cut
 * off and the cleanup removes it), and drop a handler (its IF_EXCEPTION rethrows what
 * it caught, or returns a constant; the old handler is cut off likewise).  A region is
 * cut off by moving its entry onto a block that nothing reaches, then deleted with
 * what only it demands (the MERGEs it joined are pruned), so the candidate verifies. */
#include "fuzz/reduce_internal.h"
#include "compiler/opt/optutil.h"

#include <stdlib.h>

/* a state gate no path reaches: an ORDINARY_BLOCK that is its own input */
static GateId unreachable_block(Circuit *c)
{
    GateId b = circ_add(c, OP_ORDINARY_BLOCK, TY_NONE, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    GateId self = b;
    circ_set_inputs(c, b, &self, 1, NULL, 0, NULL, 0);
    return b;
}

/* the state user of g with opcode op (IF_SUCCESS, IF_EXCEPTION, or any with op -1), or NO_GATE */
static GateId state_user(const Circuit *c, GateId g, int op)
{
    const Gate *gt = &c->gates[g];
    for (uint32_t i = 0; i < gt->nuses; i++) {
        const Gate *u = &c->gates[gt->uses[i].user];
        if (!u->dead && op_has(u->op, F_STATE) && gt->uses[i].index < u->nstate && (op < 0 || u->op == op))
            return gt->uses[i].user;
    }
    return NO_GATE;
}

static void gate_units(const Module *m, UnitList *out, int op)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (!c->gates[g].dead && c->gates[g].op == op)
                units_push(out, f, g, 0);
    }
}

void reduce_invoke_units(const Module *m, UnitList *out) { gate_units(m, out, OP_INVOKE); }
void reduce_handler_units(const Module *m, UnitList *out) { gate_units(m, out, OP_IF_EXCEPTION); }

/* INVOKE inv becomes a CALL on its dependency and operands */
static bool invoke_as_call(Circuit *c, GateId inv)
{
    GateId ok = state_user(c, inv, OP_IF_SUCCESS), ex = state_user(c, inv, OP_IF_EXCEPTION);
    if (ok == NO_GATE || ex == NO_GATE)
        return false;
    const Gate *it = &c->gates[inv];
    GateId s0 = it->in[0];
    GateId call = circ_add(c, OP_CALL, (Type)it->type, 0, 0, NULL, 0, it->in + it->nstate, it->ndep,
                           it->in + it->nstate + it->ndep, it->ndata);
    GateId block = circ_add(c, OP_ORDINARY_BLOCK, TY_NONE, 0, 0, &s0, 1, NULL, 0, NULL, 0);
    circ_set_input(c, ex, 0, unreachable_block(c));
    circ_replace_uses(c, ok, block);
    circ_kill(c, ok);
    circ_replace_uses(c, inv, call);
    circ_kill(c, inv);
    return true;
}

/* IF_EXCEPTION ex ends at once: v 0 rethrows the caught bits, v 1 returns 0 */
static bool drop_handler(Circuit *c, const Func *f, GateId ex, uint32_t v)
{
    GateId next = state_user(c, ex, -1), inv = c->gates[ex].in[0];
    if (next == NO_GATE || inv == NO_GATE || c->gates[inv].op != OP_INVOKE)
        return false;
    for (uint32_t i = 0; i < c->gates[next].nstate; i++)
        if (c->gates[next].in[i] == ex)
            circ_set_input(c, next, i, unreachable_block(c));
    GateId d = circ_add(c, OP_DEPEND_RELAY, TY_NONE, 0, 0, &ex, 1, &inv, 1, NULL, 0);
    if (v == 0) {
        GateId e = circ_add(c, OP_GET_EXCEPTION, TY_I64, 0, 0, &ex, 1, NULL, 0, NULL, 0);
        circ_add(c, OP_THROW, TY_NONE, 0, 0, &ex, 1, &d, 1, &e, 1);
    } else {
        GateId k = f->ret == TY_NONE ? NO_GATE : circ_const(c, f->ret, 0);
        circ_add(c, OP_RETURN, TY_NONE, 0, 0, &ex, 1, &d, 1, &k, k == NO_GATE ? 0 : 1);
    }
    return true;
}

/* the edit on every unit (v: drop_handler's variant; invoke_as_call has one) */
static Module *apply_each(const Module *m, const Unit *u, uint32_t n, uint32_t v, bool invoke)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Func *f = r->funcs[u[i].func];
        Circuit *c = f->circ;
        if (!reduce_gate_live(c, u[i].gate))
            continue;
        if (invoke ? invoke_as_call(c, u[i].gate) : drop_handler(c, f, u[i].gate, v)) {
            remove_unreachable(c, false);
            changed = true;
        }
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

Module *reduce_invoke_as_call(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    return apply_each(m, u, n, 0, true);
}

Module *reduce_drop_handler(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    return apply_each(m, u, n, v, false);
}

Module *reduce_invokes_as_calls(const Module *m)
{
    UnitList l = {0};
    reduce_invoke_units(m, &l);
    Module *r = l.n ? reduce_invoke_as_call(m, l.v, l.n, 0) : NULL;
    free(l.v);
    return r;
}
