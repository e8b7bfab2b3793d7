/* reduce_edits.c — the reducer's strategies on gates: replace a value by a constant
 * (0, 1, -1 of its type), by one of its own operands (which collapses a selector to
 * one input), by an argument, by another gate of its type or by a conversion of one;
 * make a branch or switch take one successor (a loop's exit branch taken makes the
 * loop run once, and the control-flow cleanup removes it); collapse a MERGE to one
 * predecessor; split a RETURN or THROW at a MERGE into one per predecessor (the merge
 * and its selectors go away); turn a branch on an eq/ne compare against a constant
 * into a switch (the compare goes away); let an effect's users take its dependency
 * input (drops stores, loads and calls from the chain); shrink constants toward 0, 1,
 * -1 and small powers of two; narrow integer types and return types; move a data
 * input to a later gate or a constant together with a folded branch (steps that cut
 * loops); run the inliner and the control-flow simplifier.  Function-level strategies
 * are in reduce_module_edits.c, those on INVOKEs and handlers in reduce_exc.c; the table of all, in the order they are tried, is at
 * the end. */
#include "fuzz/reduce_internal.h"
#include "compiler/opt/opt.h"

#include <string.h>

bool reduce_gate_live(const Circuit *c, GateId g)
{
    return g != NO_GATE && g < c->ngates && !c->gates[g].dead;
}

uint64_t reduce_small_const(Type t, uint32_t variant)
{
    if (t == TY_F32) {
        static const float f[3] = {0.0f, 1.0f, -1.0f};
        uint32_t u;
        memcpy(&u, &f[variant % 3], 4);
        return u;
    }
    if (t == TY_F64) {
        static const double d[3] = {0.0, 1.0, -1.0};
        uint64_t u;
        memcpy(&u, &d[variant % 3], 8);
        return u;
    }
    static const uint64_t i[3] = {0, 1, ~0ull};
    return i[variant % 3] & ty_mask(t);
}

static bool is_op(const Gate *gt, int op) { return !gt->dead && gt->op == op; }

/* ---- replace a value ------------------------------------------------------------ */
static bool replaceable_value(const Gate *gt)
{
    if (gt->dead || gt->type == TY_NONE || !op_has(gt->op, F_VALUE))
        return false;
    return gt->op != OP_CONSTANT && gt->op != OP_ARG && gt->op != OP_ALLOCA && gt->op != OP_SYMBOL;
}

static void value_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (replaceable_value(&c->gates[g]))
                units_push(out, f, g, 0);
    }
}

static GateId first_arg_of_type(const Circuit *c, Type t, GateId not)
{
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (g != not && is_op(&c->gates[g], OP_ARG) && c->gates[g].type == t)
            return g;
    return NO_GATE;
}

/* variants: 0 -> 0, 1 -> operand 0, 2 -> operand 1, 3 -> 1, 4 -> -1, 5 -> an
 * argument, 6.. -> operand 2.. (selectors with more inputs) */
static GateId value_replacement(Circuit *c, GateId g, uint32_t v)
{
    const Gate *gt = &c->gates[g];
    Type t = gt->type;
    if (v == 0 || v == 3 || v == 4)
        return circ_const(c, t, reduce_small_const(t, v == 0 ? 0 : v == 3 ? 1 : 2));
    if (v == 5)
        return first_arg_of_type(c, t, g);
    uint32_t k = v == 1 ? 0 : v == 2 ? 1 : v - 4;
    if (k >= gt->ndata)
        return NO_GATE;
    GateId in = gate_data(gt, k);
    if (!reduce_gate_live(c, in) || c->gates[in].type != t || in == g)
        return NO_GATE;
    return in;
}

static Module *apply_replace_value(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        if (!reduce_gate_live(c, u[i].gate) || !replaceable_value(&c->gates[u[i].gate]))
            continue;
        GateId repl = value_replacement(c, u[i].gate, v);
        if (repl == NO_GATE)
            continue;
        /* only the value output moves; a LOAD or CALL keeps its dependency users */
        Gate *gt = &c->gates[u[i].gate];
        for (uint32_t k = gt->nuses; k-- > 0;) {
            Use use = gt->uses[k];
            const Gate *user = &c->gates[use.user];
            if (use.index >= (uint32_t)user->nstate + user->ndep) {
                circ_set_input(c, use.user, use.index, repl);
                changed = true;
            }
        }
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* any value gate (constants and arguments too) by the v-th other live gate of its
 * type, earlier ones first */
static void any_value_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (!c->gates[g].dead && c->gates[g].type != TY_NONE && op_has(c->gates[g].op, F_VALUE))
                units_push(out, f, g, 0);
    }
}

static GateId nth_other_of_type(const Circuit *c, GateId g, uint32_t v)
{
    for (GateId h = NUM_ROOTS; h < c->ngates; h++) {
        const Gate *ht = &c->gates[h];
        if (h != g && !ht->dead && ht->type == c->gates[g].type && op_has(ht->op, F_VALUE) && v-- == 0)
            return h;
    }
    return NO_GATE;
}

static Module *apply_other_value(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    if (n != 1 || !reduce_gate_live(m->funcs[u->func]->circ, u->gate))
        return NULL;
    GateId repl = nth_other_of_type(m->funcs[u->func]->circ, u->gate, v);
    if (repl == NO_GATE)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    Gate *gt = &c->gates[u->gate];
    bool changed = false;
    for (uint32_t k = gt->nuses; k-- > 0;) {
        Use use = gt->uses[k];
        const Gate *user = &c->gates[use.user];
        if (use.index >= (uint32_t)user->nstate + user->ndep) {
            circ_set_input(c, use.user, use.index, repl);
            changed = true;
        }
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* a conversion from h's type to t (NO_GATE if none fits the verifier's rules) */
static GateId convert_to(Circuit *c, GateId h, Type t)
{
    Type from = c->gates[h].type;
    Opcode op;
    if (ty_is_int(from) && ty_is_int(t))
        op = ty_bits(t) < ty_bits(from) ? OP_TRUNC : from == TY_I1 ? OP_ZEXT : OP_SEXT;
    else if (ty_is_int(from) && ty_is_float(t) && from != TY_I1)
        op = OP_SITOFP;
    else if (ty_is_float(from) && ty_is_int(t) && t != TY_I1)
        op = OP_FPTOSI;
    else if (from == TY_F32 && t == TY_F64)
        op = OP_FPEXT;
    else if (from == TY_F64 && t == TY_F32)
        op = OP_FPTRUNC;
    else
        return NO_GATE;
    return circ_unop(c, op, t, h);
}

/* a value gate's value users take a conversion of the v-th live value of another type */
static Module *apply_convert_other(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    const Circuit *mc = m->funcs[u->func]->circ;
    if (n != 1 || !reduce_gate_live(mc, u->gate) || mc->gates[u->gate].op == OP_CONSTANT)
        return NULL;
    Type t = mc->gates[u->gate].type;
    GateId h = NO_GATE;
    for (GateId k = NUM_ROOTS; k < mc->ngates && h == NO_GATE; k++) {
        const Gate *kt = &mc->gates[k];
        if (!kt->dead && kt->type != TY_NONE && kt->type != t && op_has(kt->op, F_VALUE) && kt->op != OP_CONSTANT &&
            v-- == 0)
            h = k;
    }
    if (h == NO_GATE)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    GateId conv = convert_to(c, h, t);
    if (conv == NO_GATE) {
        module_free(r);
        return NULL;
    }
    Gate *gt = &c->gates[u->gate];
    for (uint32_t k = gt->nuses; k-- > 0;) {
        Use use = gt->uses[k];
        const Gate *user = &c->gates[use.user];
        if (use.index >= (uint32_t)user->nstate + user->ndep && use.user != conv)
            circ_set_input(c, use.user, use.index, conv);
    }
    return r;
}

/* one data input of a gate moves to a later gate of its type (a step that removes
 * nothing itself but lets later steps cut a loop or a chain; the measure's last
 * component, the sum of data input ids, grows, so such steps cannot cycle) */
static void edge_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
            const Gate *gt = &c->gates[g];
            if (!gt->dead)
                for (uint32_t k = 0; k < gt->ndata; k++)
                    units_push(out, f, g, k);
        }
    }
}

/* the b-th IF_BRANCH of c made constant (side 0: true, 1: false); false if none */
static bool fold_nth_branch(Circuit *c, uint32_t b, uint32_t side)
{
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        const Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_IF_BRANCH || b-- != 0)
            continue;
        circ_set_input(c, g, gt->nstate, circ_const(c, TY_I1, side == 0));
        return true;
    }
    return false;
}

/* variant v: the (v % 8)-th later gate of the input's type; v / 8 = 0: nothing else,
 * else also branch (v/8 - 1) / 2 made constant on side (v/8 - 1) % 2 (a rewired value
 * often shows the difference only once its loop is cut) */
static Module *apply_rewire(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    uint32_t fold = v / 8;
    v %= 8;
    const Circuit *mc = m->funcs[u->func]->circ;
    if (n != 1 || !reduce_gate_live(mc, u->gate) || u->aux >= mc->gates[u->gate].ndata)
        return NULL;
    GateId in = gate_data(&mc->gates[u->gate], u->aux);
    if (!reduce_gate_live(mc, in))
        return NULL;
    GateId to = NO_GATE;
    for (GateId k = in + 1; k < mc->ngates && to == NO_GATE; k++) {
        const Gate *kt = &mc->gates[k];
        if (k != u->gate && !kt->dead && kt->type == mc->gates[in].type && op_has(kt->op, F_VALUE) && v-- == 0)
            to = k;
    }
    if (to == NO_GATE)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    circ_set_input(c, u->gate, c->gates[u->gate].nstate + c->gates[u->gate].ndep + u->aux, to);
    if (fold && !fold_nth_branch(c, (fold - 1) / 2, (fold - 1) % 2)) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* one data input becomes a new constant (v % 3: 0, 1, -1) while branch (v / 3) / 2
 * is made constant on side (v / 3) % 2: a loop whose exit test the input feeds is
 * cut at the same time */
static Module *apply_const_input_fold(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    const Circuit *mc = m->funcs[u->func]->circ;
    if (n != 1 || !reduce_gate_live(mc, u->gate) || u->aux >= mc->gates[u->gate].ndata)
        return NULL;
    GateId in = gate_data(&mc->gates[u->gate], u->aux);
    Type t = reduce_gate_live(mc, in) ? (Type)mc->gates[in].type : TY_NONE;
    if (t == TY_NONE)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    GateId k = circ_const(c, t, reduce_small_const(t, v % 3));
    circ_set_input(c, u->gate, c->gates[u->gate].nstate + c->gates[u->gate].ndep + u->aux, k);
    if (!fold_nth_branch(c, (v / 3) / 2, (v / 3) % 2)) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* ---- return types ----------------------------------------------------------------- */
static void return_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (m->funcs[f]->ret != TY_NONE)
            units_push(out, f, NO_GATE, 0);
}

static bool func_is_called(const Module *m, uint32_t f)
{
    for (uint32_t h = 0; h < m->nfuncs; h++) {
        const Circuit *c = m->funcs[h]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (!c->gates[g].dead && c->gates[g].op == OP_SYMBOL && c->gates[g].lit == f)
                return true;
    }
    return false;
}

/* a function nothing calls whose every RETURN returns a conversion of a value of one
 * type returns that value instead (run-line expectations are recomputed) */
static Module *apply_return_type(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    if (n != 1 || u->func >= m->nfuncs || func_is_called(m, u->func))
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    Type to = TY_NONE;
    bool ok = true;
    for (GateId g = NUM_ROOTS; g < c->ngates && ok; g++) {
        const Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_RETURN || gt->ndata != 1)
            continue;
        const Gate *val = &c->gates[gate_data(gt, 0)];
        /* a conversion: not FNEG, FABS, SQRT or a rounding, which keep the type */
        ok = op_has(val->op, F_PURE) && val->ndata == 1 && op_info[val->op].rule != TR_FLOAT1;
        if (!ok)
            break;
        Type t = c->gates[gate_data(val, 0)].type;
        ok = (to == TY_NONE || to == t) && t != TY_I1;
        to = t;
        if (ok)
            circ_set_input(c, g, gt->nstate + gt->ndep, gate_data(val, 0));
    }
    if (!ok || to == TY_NONE) {
        module_free(r);
        return NULL;
    }
    r->funcs[u->func]->ret = to;
    return r;
}

/* ---- branches ------------------------------------------------------------------- */
static void branch_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (is_op(&c->gates[g], OP_IF_BRANCH) || is_op(&c->gates[g], OP_SWITCH_BRANCH))
                units_push(out, f, g, 0);
    }
}

/* the selector value that sends a switch to its v-th successor (in use order); the
 * default case is reached by a value no case names */
static bool switch_value(const Circuit *c, GateId sw, uint32_t v, uint64_t *val)
{
    const Gate *gt = &c->gates[sw];
    if (v >= gt->nuses)
        return false;
    const Gate *succ = &c->gates[gt->uses[v].user];
    if (succ->op == OP_SWITCH_CASE) {
        *val = succ->lit;
        return true;
    }
    for (uint64_t cand = 0;; cand++) {
        bool taken = false;
        for (uint32_t k = 0; k < gt->nuses; k++) {
            const Gate *s = &c->gates[gt->uses[k].user];
            taken |= s->op == OP_SWITCH_CASE && s->lit == cand;
        }
        if (!taken) {
            *val = cand;
            return true;
        }
    }
}

/* variant 0: the true side / first successor, 1: false / second, 2..: further cases */
static Module *apply_fold_branch(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        GateId b = u[i].gate;
        if (!reduce_gate_live(c, b))
            continue;
        const Gate *gt = &c->gates[b];
        GateId cond = gate_data(gt, 0);
        Type t = reduce_gate_live(c, cond) ? (Type)c->gates[cond].type : TY_NONE;
        uint64_t val;
        if (gt->op == OP_IF_BRANCH) {
            if (v > 1)
                continue;
            val = v == 0;
        } else if (!switch_value(c, b, v, &val)) {
            continue;
        }
        if (t == TY_NONE)
            continue;
        GateId k = circ_const(c, t, val);
        circ_set_input(c, b, c->gates[b].nstate, k);
        changed = true;
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* ---- merges ----------------------------------------------------------------------- */
static void merge_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (is_op(&c->gates[g], OP_MERGE))
                units_push(out, f, g, 0);
    }
}

/* the users of a selector on a collapsed merge take its input j */
static void collapse_selector(Circuit *c, GateId sel, uint32_t j)
{
    const Gate *st = &c->gates[sel];
    GateId to = st->op == OP_VALUE_SELECTOR ? gate_data(st, j) : gate_dep(st, j);
    if (to != sel)
        circ_replace_uses(c, sel, to);
    circ_kill(c, sel);
}

/* MERGE collapsed to predecessor v: its selectors take input v, its users the
 * predecessor; the other predecessors are left for the cleanup (the verifier rejects
 * what does not end well) */
static Module *apply_collapse_merge(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        GateId g = u[i].gate;
        if (!reduce_gate_live(c, g) || v >= c->gates[g].nstate)
            continue;
        for (bool again = true; again;) {
            again = false;
            for (uint32_t k = 0; k < c->gates[g].nuses && !again; k++) {
                GateId user = c->gates[g].uses[k].user;
                int op = c->gates[user].op;
                if ((op == OP_VALUE_SELECTOR || op == OP_DEPEND_SELECTOR) && v < gate_nin(&c->gates[user]) - 1) {
                    collapse_selector(c, user, v);
                    again = true;
                }
            }
        }
        GateId pred = gate_state(&c->gates[g], v);
        circ_replace_uses(c, g, pred);
        circ_kill(c, g);
        changed = true;
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* ---- returns and throws split at a merge ------------------------------------------ */
/* the predecessor-i input of x if x is a selector on merge, else x itself */
static GateId selected_input(const Circuit *c, GateId x, GateId merge, uint32_t i)
{
    const Gate *xt = &c->gates[x];
    if (xt->op == OP_VALUE_SELECTOR && gate_state(xt, 0) == merge)
        return gate_data(xt, i);
    if (xt->op == OP_DEPEND_SELECTOR && gate_state(xt, 0) == merge)
        return gate_dep(xt, i);
    return x;
}

/* merge is used only by ret and by selectors only ret uses */
static bool merge_only_feeds(const Circuit *c, GateId merge, GateId ret)
{
    const Gate *mt = &c->gates[merge];
    for (uint32_t k = 0; k < mt->nuses; k++) {
        GateId user = mt->uses[k].user;
        const Gate *ut = &c->gates[user];
        if (user == ret)
            continue;
        if (ut->op != OP_VALUE_SELECTOR && ut->op != OP_DEPEND_SELECTOR)
            return false;
        for (uint32_t j = 0; j < ut->nuses; j++)
            if (ut->uses[j].user != ret)
                return false;
    }
    return true;
}

static void split_return_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if ((is_op(&c->gates[g], OP_RETURN) || is_op(&c->gates[g], OP_THROW)) &&
                is_op(&c->gates[gate_state(&c->gates[g], 0)], OP_MERGE))
                units_push(out, f, g, 0);
    }
}

/* RETURN [MERGE] {d} (v) -> one RETURN per predecessor i, each taking input i of d
 * and v where they are selectors on the merge (tail duplication: the merge and its
 * selectors go away, a two-way merge saves a gate per selector); THROW alike */
static Module *apply_split_return(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    if (n != 1)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    GateId ret = u->gate, merge = gate_state(&c->gates[ret], 0);
    Opcode op = (Opcode)c->gates[ret].op;
    if (!merge_only_feeds(c, merge, ret) || c->gates[ret].ndep != 1 || c->gates[ret].ndata > 1) {
        module_free(r);
        return NULL;
    }
    GateId dep = gate_dep(&c->gates[ret], 0);
    GateId val = c->gates[ret].ndata ? gate_data(&c->gates[ret], 0) : NO_GATE;
    uint32_t npred = c->gates[merge].nstate;
    for (uint32_t i = 0; i < npred; i++) {
        GateId pred = gate_state(&c->gates[merge], i), d = selected_input(c, dep, merge, i);
        GateId x = val == NO_GATE ? NO_GATE : selected_input(c, val, merge, i);
        circ_add(c, op, TY_NONE, 0, 0, &pred, 1, &d, 1, &x, x != NO_GATE);
    }
    circ_kill(c, ret);
    while (c->gates[merge].nuses)
        circ_kill(c, c->gates[merge].uses[0].user);
    circ_kill(c, merge);
    return r;
}

/* ---- compare branches as switches -------------------------------------------------- */
/* the integer operand of an eq/ne compare against a constant (its index in *k), or
 * NO_GATE */
static GateId compared_with_const(const Circuit *c, GateId cmp, uint32_t *k)
{
    const Gate *ct = &c->gates[cmp];
    if (ct->dead || ct->op != OP_ICMP || (ct->cond != ICMP_eq && ct->cond != ICMP_ne))
        return NO_GATE;
    for (uint32_t i = 0; i < 2; i++) {
        GateId x = gate_data(ct, 1 - i);
        Type t = c->gates[x].type;
        if (c->gates[gate_data(ct, i)].op == OP_CONSTANT && ty_is_int(t) && t != TY_I1) {
            *k = i;
            return x;
        }
    }
    return NO_GATE;
}

static void compare_branch_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        uint32_t k;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (is_op(&c->gates[g], OP_IF_BRANCH) && compared_with_const(c, gate_data(&c->gates[g], 0), &k) != NO_GATE)
                units_push(out, f, g, 0);
    }
}

/* IF_BRANCH (ICMP eq/ne (x, K)) -> SWITCH_BRANCH (x) with a SWITCH_CASE K for the
 * side x == K takes and the DEFAULT_CASE for the other (the compare goes away) */
static Module *apply_compare_branch(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    if (n != 1)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    GateId br = u->gate, cmp = gate_data(&c->gates[br], 0), side[2] = {NO_GATE, NO_GATE};
    uint32_t k;
    GateId x = compared_with_const(c, cmp, &k);
    for (uint32_t i = 0; i < c->gates[br].nuses; i++) {
        GateId s = c->gates[br].uses[i].user;
        side[c->gates[s].op == OP_IF_FALSE] = s;
    }
    if (x == NO_GATE || c->gates[br].nuses != 2 || side[0] == NO_GATE || side[1] == NO_GATE) {
        module_free(r);
        return NULL;
    }
    bool eq = c->gates[cmp].cond == ICMP_eq;
    uint64_t lit = c->gates[gate_data(&c->gates[cmp], k)].lit & ty_mask(c->gates[x].type);
    GateId state = gate_state(&c->gates[br], 0);
    GateId sw = circ_add(c, OP_SWITCH_BRANCH, TY_NONE, 0, 0, &state, 1, NULL, 0, &x, 1);
    GateId hit = circ_add(c, OP_SWITCH_CASE, TY_NONE, 0, lit, &sw, 1, NULL, 0, NULL, 0);
    GateId miss = circ_add(c, OP_DEFAULT_CASE, TY_NONE, 0, 0, &sw, 1, NULL, 0, NULL, 0);
    circ_replace_uses(c, side[0], eq ? hit : miss);
    circ_replace_uses(c, side[1], eq ? miss : hit);
    circ_kill(c, side[0]);
    circ_kill(c, side[1]);
    circ_kill(c, br);
    return r;
}

/* ---- dependency chains ---------------------------------------------------------- */
static void effect_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
            const Gate *gt = &c->gates[g];
            if (!gt->dead && op_has(gt->op, F_DEPOUT) && !op_has(gt->op, F_ROOT) && gt->ndep)
                units_push(out, f, g, 0);
        }
    }
}

/* the dependency users of g take g's dependency input v */
static Module *apply_bypass_effect(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        GateId g = u[i].gate;
        if (!reduce_gate_live(c, g) || v >= c->gates[g].ndep)
            continue;
        GateId dep = gate_dep(&c->gates[g], v);
        for (uint32_t k = c->gates[g].nuses; k-- > 0;) {
            Use use = c->gates[g].uses[k];
            const Gate *user = &c->gates[use.user];
            if (use.index >= user->nstate && use.index < (uint32_t)user->nstate + user->ndep) {
                circ_set_input(c, use.user, use.index, dep);
                changed = true;
            }
        }
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* ---- constants ------------------------------------------------------------------ */
static void const_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (is_op(&c->gates[g], OP_CONSTANT))
                units_push(out, f, g, 0);
    }
}

/* variants: 0, 1, -1, half the value (toward 0), 2, 4, 8, 16 */
static bool shrunk_value(Type t, uint64_t bits, uint32_t v, uint64_t *out)
{
    if (v < 3) {
        *out = reduce_small_const(t, v);
        return true;
    }
    if (!ty_is_int(t))
        return false;
    if (v == 3) {
        *out = (uint64_t)(ty_sext(t, bits) / 2) & ty_mask(t);
        return true;
    }
    *out = ((uint64_t)1 << (v - 3)) & ty_mask(t);
    return true;
}

static Module *apply_shrink_const(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        if (!reduce_gate_live(c, u[i].gate))
            continue;
        Gate *gt = &c->gates[u[i].gate];
        uint64_t val;
        if (shrunk_value(gt->type, gt->lit, v, &val) && val != gt->lit) {
            gt->lit = val;
            changed = true;
        }
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* ---- narrower integer types ----------------------------------------------------- */
/* an integer computation whose inputs and users all share its type: a chunk of them
 * is retyped together; the verifier rejects what does not fit */
static void narrow_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
            const Gate *gt = &c->gates[g];
            if (!gt->dead && ty_is_int(gt->type) && ty_bits(gt->type) > 8 &&
                (gt->op == OP_CONSTANT || (op_has(gt->op, F_PURE) && gt->ndata == 2) ||
                 gt->op == OP_VALUE_SELECTOR))
                units_push(out, f, g, 0);
        }
    }
}

static Module *apply_narrow(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    static const Type narrower[2] = {TY_I8, TY_I32};
    Type to = narrower[v % 2];
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        Circuit *c = r->funcs[u[i].func]->circ;
        if (!reduce_gate_live(c, u[i].gate))
            continue;
        Gate *gt = &c->gates[u[i].gate];
        if (ty_bits(gt->type) <= ty_bits(to))
            continue;
        gt->type = (uint8_t)to;
        if (gt->op == OP_CONSTANT)
            gt->lit = (uint64_t)ty_sext(to, gt->lit) & ty_mask(to);
        changed = true;
    }
    if (!changed) {
        module_free(r);
        return NULL;
    }
    return r;
}

/* ---- whole-module passes ---------------------------------------------------------- */
static void module_unit(const Module *m, UnitList *out)
{
    (void)m;
    units_push(out, 0, NO_GATE, 0);
}

static Module *with_passes(const Module *m, const char *passes)
{
    Module *r = module_clone(m);
    PassOptions po = {.bisect_limit = -1};
    PassManager *pm = pm_new(&po);
    char err[120];
    bool ok = pm_set_passes(pm, passes, err, sizeof err) && pm_run(pm, r) == 0 && pm_changes(pm) > 0;
    pm_free(pm);
    if (!ok) {
        module_free(r);
        return NULL;
    }
    return r;
}

static Module *apply_inline(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)u, (void)n, (void)v;
    return with_passes(m, "inline");
}

static Module *apply_simplify_cfg(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)u, (void)n, (void)v;
    return with_passes(m, "simplify-cfg");
}

/* from reduce_module_edits.c */
void reduce_func_units(const Module *m, UnitList *out);
Module *reduce_remove_funcs(const Module *m, const Unit *u, uint32_t n, uint32_t v);
void reduce_run_units(const Module *m, UnitList *out);
Module *reduce_drop_runs(const Module *m, const Unit *u, uint32_t n, uint32_t v);
void reduce_param_units(const Module *m, UnitList *out);
Module *reduce_drop_param(const Module *m, const Unit *u, uint32_t n, uint32_t v);
void reduce_run_arg_units(const Module *m, UnitList *out);
Module *reduce_shrink_run_args(const Module *m, const Unit *u, uint32_t n, uint32_t v);
Module *reduce_retarget_runs(const Module *m, const Unit *u, uint32_t n, uint32_t v);
void reduce_arg_computation_units(const Module *m, UnitList *out);
Module *reduce_fold_arg_computation(const Module *m, const Unit *u, uint32_t n, uint32_t v);
/* from reduce_join.c */
void reduce_join_units(const Module *m, UnitList *out);
Module *reduce_split_joins(const Module *m, const Unit *u, uint32_t n, uint32_t v);
void reduce_invoke_units(const Module *m, UnitList *out);      /* reduce_exc.c */
Module *reduce_invoke_as_call(const Module *m, const Unit *u, uint32_t n, uint32_t v);
void reduce_handler_units(const Module *m, UnitList *out);
Module *reduce_drop_handler(const Module *m, const Unit *u, uint32_t n, uint32_t v);

const Strategy reduce_strategies[] = {
    {"drop run lines", 0, 1, true, false, CLEAN_NONE, reduce_run_units, reduce_drop_runs, false},
    {"remove functions", 0, 1, true, false, CLEAN_DCE, reduce_func_units, reduce_remove_funcs, false},
    {"fold branches", 0, 2, true, false, CLEAN_CFG, branch_units, apply_fold_branch, false},
    {"replace values", 0, 6, true, false, CLEAN_DCE, value_units, apply_replace_value, false},
    {"collapse merges", 0, 4, true, false, CLEAN_CFG, merge_units, apply_collapse_merge, false},
    {"shorten dependency chains", 0, 2, true, false, CLEAN_DCE, effect_units, apply_bypass_effect, false},
    {"split dependency joins", 0, 4, true, false, CLEAN_DCE, reduce_join_units, reduce_split_joins, false},
    {"inline calls", 0, 1, false, false, CLEAN_DCE, module_unit, apply_inline, false},
    {"INVOKEs as calls", 0, 1, true, false, CLEAN_DCE, reduce_invoke_units, reduce_invoke_as_call, false},
    {"drop handlers", 0, 2, true, false, CLEAN_DCE, reduce_handler_units, reduce_drop_handler, false},
    {"split returns at merges", 0, 1, false, false, CLEAN_DCE, split_return_units, apply_split_return, false},
    {"compare branches as switches", 0, 1, false, false, CLEAN_DCE, compare_branch_units, apply_compare_branch, false},
    {"simplify control flow", 0, 1, false, false, CLEAN_DCE, module_unit, apply_simplify_cfg, false},
    {"switch cases", 2, 8, false, false, CLEAN_CFG, branch_units, apply_fold_branch, false},
    {"selector inputs", 6, 10, false, false, CLEAN_DCE, value_units, apply_replace_value, false},
    {"run another function", 0, 2, false, false, CLEAN_DCE, reduce_func_units, reduce_retarget_runs, false},
    {"drop parameters", 0, 1, false, false, CLEAN_DCE, reduce_param_units, reduce_drop_param, false},
    {"argument computations into run lines", 0, 1, false, true, CLEAN_DCE, reduce_arg_computation_units,
     reduce_fold_arg_computation, false},
    {"shrink constants", 0, 9, true, false, CLEAN_NONE, const_units, apply_shrink_const, false},
    {"narrow types", 0, 2, true, false, CLEAN_NONE, narrow_units, apply_narrow, false},
    {"shrink run arguments", 0, 4, true, false, CLEAN_NONE, reduce_run_arg_units, reduce_shrink_run_args, false},
    {"other values", 0, 16, false, true, CLEAN_DCE, any_value_units, apply_other_value, false},
    {"converted values", 0, 16, false, true, CLEAN_DCE, value_units, apply_convert_other, false},
    {"return types", 0, 1, false, false, CLEAN_DCE, return_units, apply_return_type, false},
    {"rewire inputs", 0, 56, false, true, CLEAN_CFG, edge_units, apply_rewire, true},
    {"constant inputs past a branch", 0, 18, false, true, CLEAN_CFG, edge_units, apply_const_input_fold, false},
};
const uint32_t reduce_nstrategies = sizeof reduce_strategies / sizeof reduce_strategies[0];
