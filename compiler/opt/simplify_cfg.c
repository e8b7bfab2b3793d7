/* simplify_cfg.c — branch elimination: constant branches, one-input merges, trivial selectors.
 * Needs: optutil's reachability, state removal, cone checks and join_terminator. */
#include "compiler/opt/optutil.h"

#include <stdlib.h>

/* An IF_BRANCH or SWITCH_BRANCH on a constant becomes its taken arm (an
 * ORDINARY_BLOCK, so relays on it stay valid) and the other arms are deleted with
 * everything only they reach (MERGE and selector inputs dropped; a LOOP_BEGIN whose
 * back edge dies becomes a MERGE); a MERGE with one input, a selector whose inputs
 * are all one value (or itself), an ORDINARY_BLOCK without relays, and a branch
 * whose two arms meet at once in a MERGE without selectors disappear; a relay on the
 * block that entry leads to is its dependency; a DEPEND_AND drops DEPEND_ENTRY and
 * repeated inputs (with one left it is that input); a selector of 1 and 0 on a diamond is
 * its branch condition.  A live selector runs its input when
 * its join is entered, so it is replaced by that input only when the input's cone is
 * quiet (delaying it loses no trap or effect). */

static GateId arm_with_op(const Circuit *c, GateId br, uint16_t op, bool match_lit, uint64_t lit, Type ty)
{
    const Gate *gt = &c->gates[br];
    for (uint32_t i = 0; i < gt->nuses; i++) {
        const Gate *u = &c->gates[gt->uses[i].user];
        if (!u->dead && u->op == op && (!match_lit || (u->lit & ty_mask(ty)) == (lit & ty_mask(ty))))
            return gt->uses[i].user;
    }
    return NO_GATE;
}

/* the arm a branch on a constant takes, or NO_GATE */
static GateId taken_arm(const Circuit *c, GateId br)
{
    const Gate *gt = &c->gates[br];
    uint64_t v;
    if ((gt->op != OP_IF_BRANCH && gt->op != OP_SWITCH_BRANCH) || gt->ndata != 1 ||
        !gate_const(c, gate_data(gt, 0), &v))
        return NO_GATE;
    if (gt->op == OP_IF_BRANCH)
        return arm_with_op(c, br, (v & 1) ? OP_IF_TRUE : OP_IF_FALSE, false, 0, TY_NONE);
    Type ty = (Type)c->gates[gate_data(gt, 0)].type;
    GateId taken = arm_with_op(c, br, OP_SWITCH_CASE, true, v, ty);
    return taken != NO_GATE ? taken : arm_with_op(c, br, OP_DEFAULT_CASE, false, 0, TY_NONE);
}

/* mark the arms of br other than taken, and list them in cut */
static void block_other_arms(const Circuit *c, GateId br, GateId taken, uint8_t *blocked, GateId *cut, uint32_t *ncut)
{
    const Gate *gt = &c->gates[br];
    for (uint32_t i = 0; i < gt->nuses; i++) {
        Use u = gt->uses[i];
        if (!c->gates[u.user].dead && gate_is_state(c, u.user) && u.user != taken && !blocked[u.user]) {
            blocked[u.user] = 1;
            cut[(*ncut)++] = u.user;
        }
    }
}

static uint32_t count_uses(const Circuit *c, const GateId *brs, uint32_t n)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += c->gates[brs[i]].nuses;
    return total;
}

/* br becomes its arm `taken` (an ORDINARY_BLOCK); the other arms lose their input */
static void rewire_to_arm(Circuit *c, GateId br, GateId taken)
{
    GateId from = c->gates[br].in[0], cond = gate_data(&c->gates[br], 0);
    Gate *t = &c->gates[taken];
    t->op = OP_ORDINARY_BLOCK;
    t->lit = 0;
    circ_set_input(c, taken, 0, from);
    while (c->gates[br].nuses) {
        Use u = c->gates[br].uses[c->gates[br].nuses - 1];
        circ_set_input(c, u.user, u.index, NO_GATE);
    }
    circ_kill(c, br);
    opt_kill_unused(c, cond);
}

/* fold the branches listed (each with its taken arm) at once if deleting all the
 * arms they no longer take is sound */
static bool fold_branches(Circuit *c, const GateId *brs, const GateId *taken, uint32_t n, const StateList *states)
{
    uint8_t *blocked = opt_calloc(c->ngates, 1);
    GateId *cut = opt_calloc(count_uses(c, brs, n) + 1, sizeof(GateId));
    uint32_t ncut = 0;
    for (uint32_t i = 0; i < n; i++)
        block_other_arms(c, brs[i], taken[i], blocked, cut, &ncut);
    uint8_t *reach = reach_states(c, blocked);
    bool ok = unreachable_removal_ok_in(c, reach, states, cut, ncut);
    free(reach);
    free(blocked);
    if (ok) {
        for (uint32_t i = 0; i < n; i++)
            rewire_to_arm(c, brs[i], taken[i]);
        /* the arms just cut off are what reach excluded */
        remove_unreachable_in(c, false, states, cut, ncut);
    }
    free(cut);
    return ok;
}

/* every branch on a constant folded in one step (one reachability analysis); false
 * if there are none or folding them all together is not sound */
static bool fold_all_branches(Circuit *c, const StateList *states)
{
    GateId *brs = opt_calloc(c->ngates, sizeof(GateId)), *taken = opt_calloc(c->ngates, sizeof(GateId));
    uint32_t n = 0;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (gate_live(c, g) && (taken[n] = taken_arm(c, g)) != NO_GATE)
            brs[n++] = g;
    bool ok = n > 1 && fold_branches(c, brs, taken, n, states);
    free(brs);
    free(taken);
    return ok;
}

static bool fold_branch(Circuit *c, GateId br, const StateList *states)
{
    GateId taken = taken_arm(c, br);
    return taken != NO_GATE && fold_branches(c, &br, &taken, 1, states);
}

/* the selectors sitting on join j */
static uint32_t selectors_of(const Circuit *c, GateId j, GateId *out, uint32_t max)
{
    const Gate *gt = &c->gates[j];
    uint32_t n = 0;
    for (uint32_t i = 0; i < gt->nuses; i++) {
        Use u = gt->uses[i];
        if (!c->gates[u.user].dead && op_is_selector(c->gates[u.user].op) && u.index == 0 && n < max)
            out[n++] = u.user;
    }
    return n;
}

static GateId selector_input(const Gate *s, uint32_t i)
{
    return s->op == OP_VALUE_SELECTOR ? gate_data(s, i) : gate_dep(s, i);
}

static uint32_t selector_count(const Gate *s) { return s->op == OP_VALUE_SELECTOR ? s->ndata : s->ndep; }

/* a MERGE with one state input: its selectors become their inputs, it its input.
 * A selector whose input may trap or has effects is replaced only when the merge
 * leads straight to a terminator that demands it (at most one such selector, so the
 * order of two possible traps cannot change). */
static bool fold_merge(Circuit *c, GateId m)
{
    const Gate *mt = &c->gates[m];
    if (mt->nstate != 1 || !gate_live(c, mt->in[0]))
        return false;
    uint32_t cap = mt->nuses + 1;
    GateId *sels = opt_calloc(cap, sizeof(GateId));
    uint32_t n = selectors_of(c, m, sels, cap);
    bool ok = true;
    uint32_t eager = 0; /* selectors whose input must keep running when the merge is passed */
    for (uint32_t i = 0; i < n && ok; i++) {
        const Gate *s = &c->gates[sels[i]];
        ok = selector_count(s) == 1;
        if (ok && s->nuses && !cone_quiet(c, selector_input(s, 0), false)) {
            /* still fine if the merge leads straight to a terminator that reads it */
            ok = join_terminator(c, sels[i]) != NO_GATE && ++eager <= 1;
        }
    }
    if (ok) {
        for (uint32_t i = 0; i < n; i++)
            opt_replace(c, sels[i], selector_input(&c->gates[sels[i]], 0));
        circ_replace_uses(c, m, c->gates[m].in[0]);
        circ_kill(c, m);
    }
    free(sels);
    return ok;
}

/* the only gate using state s (nothing else: no relay, no second successor) */
static GateId sole_user(const Circuit *c, GateId s)
{
    const Gate *st = &c->gates[s];
    GateId user = NO_GATE;
    for (uint32_t i = 0; i < st->nuses; i++) {
        if (c->gates[st->uses[i].user].dead)
            continue;
        if (user != NO_GATE)
            return NO_GATE;
        user = st->uses[i].user;
    }
    return user;
}

/* IF_BRANCH -> IF_TRUE, IF_FALSE -> MERGE with no selectors and nothing else on the
 * arms: control goes from the branch's input straight on (the condition, no longer
 * evaluated, must be quiet) */
static bool fold_empty_diamond(Circuit *c, GateId m)
{
    const Gate *mt = &c->gates[m];
    if (mt->nstate != 2 || !gate_live(c, mt->in[0]) || !gate_live(c, mt->in[1]))
        return false;
    GateId a = mt->in[0], b = mt->in[1];
    const Gate *at = &c->gates[a], *bt = &c->gates[b];
    if (!((at->op == OP_IF_TRUE && bt->op == OP_IF_FALSE) || (at->op == OP_IF_FALSE && bt->op == OP_IF_TRUE)) ||
        at->in[0] != bt->in[0] || sole_user(c, a) != m || sole_user(c, b) != m)
        return false;
    GateId br = at->in[0];
    for (uint32_t i = 0; i < mt->nuses; i++)
        if (!c->gates[mt->uses[i].user].dead && op_is_selector(c->gates[mt->uses[i].user].op))
            return false;
    GateId cond = gate_data(&c->gates[br], 0), from = c->gates[br].in[0];
    if (!cone_quiet(c, cond, true))
        return false;
    circ_replace_uses(c, m, from);
    circ_kill(c, m);
    circ_kill(c, a);
    circ_kill(c, b);
    circ_kill(c, br);
    opt_kill_unused(c, cond);
    return true;
}

/* a MERGE entered straight from the two arms of one IF_BRANCH: the branch, and in
 * *true_input which of the merge's inputs is the IF_TRUE arm; else NO_GATE */
static GateId diamond_branch(const Circuit *c, GateId m, uint32_t *true_input)
{
    const Gate *mt = &c->gates[m];
    if (mt->op != OP_MERGE || mt->nstate != 2 || !gate_live(c, mt->in[0]) || !gate_live(c, mt->in[1]))
        return NO_GATE;
    const Gate *a = &c->gates[mt->in[0]], *b = &c->gates[mt->in[1]];
    if (a->in[0] != b->in[0] || !((a->op == OP_IF_TRUE && b->op == OP_IF_FALSE) ||
                                  (a->op == OP_IF_FALSE && b->op == OP_IF_TRUE)))
        return NO_GATE;
    *true_input = a->op == OP_IF_TRUE ? 0 : 1;
    return a->in[0];
}

/* on such a merge, a selector of the constants 1 and 0 (or 0 and 1, or -1 and 0) is
 * the branch condition (inverted, extended): the condition was evaluated when the
 * branch was taken, just before, so reading it again runs nothing new */
static bool fold_condition_selector(Circuit *c, GateId s)
{
    const Gate *st = &c->gates[s];
    uint32_t t;
    GateId br = st->op == OP_VALUE_SELECTOR && st->ndata == 2 ? diamond_branch(c, st->in[0], &t) : NO_GATE;
    uint64_t on_true, on_false;
    Type ty = (Type)st->type;
    if (br == NO_GATE || !ty_is_int(ty) || !gate_const(c, gate_data(st, t), &on_true) ||
        !gate_const(c, gate_data(st, 1 - t), &on_false))
        return false;
    GateId cond = gate_data(&c->gates[br], 0), v;
    uint64_t ones = ty_mask(ty);
    if (on_false == 0 && (on_true == 1 || on_true == ones))
        v = cond;
    else if (on_true == 0 && (on_false == 1 || on_false == ones))
        v = circ_binop(c, OP_XOR, TY_I1, cond, opt_const(c, TY_I1, 1));
    else
        return false;
    if (ty != TY_I1)
        v = circ_unop(c, (on_true | on_false) == 1 ? OP_ZEXT : OP_SEXT, ty, v);
    opt_replace(c, s, v);
    return true;
}

/* a selector whose inputs are one value v (or itself, around a loop) is v */
static bool fold_selector(Circuit *c, GateId s)
{
    const Gate *st = &c->gates[s];
    uint32_t n = selector_count(st);
    if (st->nstate != 1 || n == 0)
        return false;
    GateId v = NO_GATE;
    for (uint32_t i = 0; i < n; i++) {
        GateId in = selector_input(st, i);
        if (in == s)
            continue;
        if (v != NO_GATE && in != v)
            return false;
        v = in;
    }
    if (v == NO_GATE || !gate_live(c, v) || !cone_quiet(c, v, false))
        return false;
    opt_replace(c, s, v);
    return true;
}

/* an ORDINARY_BLOCK goes when its relays can move to its input (or it has none) */
static bool fold_block(Circuit *c, GateId b)
{
    const Gate *bt = &c->gates[b];
    GateId from = bt->in[0];
    if (!gate_live(c, from) && from != ROOT_STATE_ENTRY)
        return false;
    bool relayable = from != ROOT_STATE_ENTRY && op_has(c->gates[from].op, F_RELAYABLE);
    for (uint32_t i = 0; i < bt->nuses && !relayable; i++)
        if (c->gates[bt->uses[i].user].op == OP_DEPEND_RELAY && !c->gates[bt->uses[i].user].dead)
            return false;
    circ_replace_uses(c, b, from);
    circ_kill(c, b);
    return true;
}

/* a relay on the block entry leads to: control passes it once, before anything can
 * demand the relay, so the relay is its dependency */
static bool fold_relay(Circuit *c, GateId r)
{
    const Gate *rt = &c->gates[r];
    if (rt->nstate != 1 || rt->ndep != 1 || !gate_live(c, rt->in[0]))
        return false;
    const Gate *st = &c->gates[rt->in[0]];
    if (st->op != OP_ORDINARY_BLOCK || st->nstate != 1 || st->in[0] != ROOT_STATE_ENTRY)
        return false;
    opt_replace(c, r, gate_dep(rt, 0));
    return true;
}

/* a DEPEND_AND needs each input once, and never DEPEND_ENTRY (everything is after
 * it); one input left is the join itself, none is DEPEND_ENTRY */
static bool fold_and(Circuit *c, GateId a)
{
    const Gate *at = &c->gates[a];
    uint32_t n = at->ndep, kept = 0;
    GateId *in = opt_calloc(n, sizeof *in);
    for (uint32_t i = 0; i < n; i++) {
        GateId d = gate_dep(at, i);
        bool seen = d == ROOT_DEPEND_ENTRY;
        for (uint32_t k = 0; k < kept && !seen; k++)
            seen = in[k] == d;
        if (!seen)
            in[kept++] = d;
    }
    if (kept >= 2 && kept < n)
        circ_set_inputs(c, a, NULL, 0, in, kept, NULL, 0);
    else if (kept < 2)
        opt_replace(c, a, kept ? in[0] : ROOT_DEPEND_ENTRY);
    free(in);
    return kept < n;
}

static bool simplify_gate(Circuit *c, GateId g, const StateList *states)
{
    switch (c->gates[g].op) {
    case OP_IF_BRANCH: case OP_SWITCH_BRANCH: return fold_branch(c, g, states);
    case OP_MERGE: return fold_merge(c, g) || fold_empty_diamond(c, g);
    case OP_ORDINARY_BLOCK: return fold_block(c, g);
    case OP_VALUE_SELECTOR: case OP_DEPEND_SELECTOR: return fold_selector(c, g) || fold_condition_selector(c, g);
    case OP_DEPEND_RELAY: return fold_relay(c, g);
    case OP_DEPEND_AND: return fold_and(c, g);
    default: return false;
    }
}

bool opt_simplify_cfg(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    bool changed = false;
    StateList states; /* no rewrite here makes a computation a state gate, or cuts a
                         state off without removing it */
    state_list_init(&states, c);
    for (int round = 0; round < 8; round++) {
        bool any = fold_all_branches(c, &states);
        uint32_t n = c->ngates;
        for (GateId g = NUM_ROOTS; g < n; g++)
            if (gate_live(c, g))
                any |= simplify_gate(c, g, &states);
        changed |= any;
        if (!any)
            break;
    }
    state_list_free(&states);
    return changed;
}
