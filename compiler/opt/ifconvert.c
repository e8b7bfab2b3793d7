/* ifconvert.c — if-conversion: a two-armed diamond whose arms are small, pure and
 * non-trapping becomes SELECTs of its value selectors, and its branch goes.
 *
 * Shape.  IF_BRANCH [s] (c) -> IF_TRUE / IF_FALSE, each followed by zero or more
 * ORDINARY_BLOCKs, meeting in one MERGE with two state inputs; no state gate on the
 * arms has any user but the next one and relays that only the merge's dependency
 * selectors use (so no effect is tied to an arm: a relay that passes a dependency
 * through to the merge unchanged goes with the arm).  A triangle (one arm computes
 * nothing: its selector input is computed before the branch) is the same shape with a
 * zero cost on that arm.
 *
 * What an arm runs.  Pure gates have no place, so an arm's gates are the data cone of
 * the selector inputs of that arm, minus what the branch condition already demands
 * (the condition's cone, evaluated before either arm).  After conversion both arms'
 * gates run unconditionally, so they must be harmless to speculate: pure, no
 * division, no CHECKED_* op, no LOAD, no effect, and no selector of the merge itself
 * (it would read its own new value).  The walk ends at other selectors: their values
 * are fixed when their joins are entered.
 *
 * The condition.  The branch demanded its condition; after conversion only the SELECTs
 * do, later or never.  So its cone may not trap or have an effect that matters: pure
 * non-trapping gates and LOADs (a load has no effect and a valid program's load never
 * traps; delaying or dropping it changes nothing while its dependency cone, up to
 * selectors, holds no STORE or CALL).  At least one value selector of the merge must
 * be live through something the pass never deletes (reached from an input of a state
 * gate other than an IF_BRANCH), so that everything the condition read stays live: a
 * selector the condition reads keeps evaluating its inputs at its join.
 *
 * Dependency selectors.  The merge's DEPEND_SELECTORs must have one input on both arms,
 * seen through the arms' relays (nothing on an arm is ordered differently), whose cone
 * up to selectors is quiet, or (for one of them) that the terminator the merge leads
 * straight to demands anyway (optutil's join_terminator, as simplify-cfg's one-input
 * merges); each becomes that input.
 *
 * Cost rule.  At most ARM_MAX_GATES gates per arm (the arms' cones counted as above,
 * constants and arguments free), at most MAX_SELECTS value selectors per merge (and a
 * condition cone of at most COND_MAX_GATES gates, which bounds the pass's time): after
 * conversion both arms' gates plus one SELECT (cmov/csel) per value selector run on
 * every pass through the diamond.  That is cheaper than a branch that mispredicts
 * even a few percent of the time (15-20 cycles each on current cores), and it never
 * adds registers beyond the arms' values, which both paths held anyway at the merge.
 *
 * The merge becomes the branch's input state (an ORDINARY_BLOCK if relays hang on it).
 * Needs: optutil's cone checks and replacement. */
#include "compiler/opt/optutil.h"

#include <stdlib.h>

enum { ARM_MAX_GATES = 4, MAX_SELECTS = 4, COND_MAX_GATES = 1024 };

/* a set of gates, emptied in O(1) by moving to a new epoch */
typedef struct {
    uint32_t *stamp;
    uint32_t epoch, cap;
} GateSet;

static void set_clear(GateSet *s) { s->epoch++; }
static bool set_has(const GateSet *s, GateId g) { return g < s->cap && s->stamp[g] == s->epoch; }
static void set_add(GateSet *s, GateId g)
{
    if (g < s->cap)
        s->stamp[g] = s->epoch;
}

/* what one run of the pass keeps: liveness and the sets each candidate reuses */
typedef struct {
    Circuit *c;
    uint8_t *live;        /* reached from a non-IF_BRANCH state gate's input (ids before the run) */
    uint32_t nlive;
    GateSet in_cond;      /* the condition's cone, up to selectors */
    GateSet arm_seen[2];  /* each arm's cone */
    GateSet on_arm;       /* the state gates of the arms */
} IfConv;

typedef struct {
    IfConv *ic;
    Circuit *c;
    GateId m, br, cond;
    uint32_t true_input;  /* which state input of m comes from IF_TRUE */
} Diamond;

/* a relay whose every user is a dependency selector on m */
static bool relay_into(const Circuit *c, GateId r, GateId m)
{
    const Gate *rt = &c->gates[r];
    if (rt->op != OP_DEPEND_RELAY)
        return false;
    for (uint32_t i = 0; i < rt->nuses; i++) {
        const Gate *u = &c->gates[rt->uses[i].user];
        if (!u->dead && (u->op != OP_DEPEND_SELECTOR || u->in[0] != m))
            return false;
    }
    return true;
}

/* state gate s of an arm leads only to next: its other users are relays into m */
static bool leads_only_to(const Circuit *c, GateId s, GateId next, GateId m)
{
    bool found = false;
    for (uint32_t i = 0; i < c->gates[s].nuses; i++) {
        GateId u = c->gates[s].uses[i].user;
        if (c->gates[u].dead)
            continue;
        if (u == next)
            found = true;
        else if (!relay_into(c, u, m))
            return false;
    }
    return found;
}

/* the IF_TRUE / IF_FALSE heading the arm that enters m through state input i (past
 * ORDINARY_BLOCKs), each of its states marked on_arm; NO_GATE if it is not one */
static GateId arm_head(IfConv *ic, GateId m, uint32_t i)
{
    const Circuit *c = ic->c;
    GateId next = m, s = c->gates[m].in[i];
    while (gate_live(c, s) && leads_only_to(c, s, next, m)) {
        int op = c->gates[s].op;
        set_add(&ic->on_arm, s);
        if (op == OP_IF_TRUE || op == OP_IF_FALSE)
            return s;
        if (op != OP_ORDINARY_BLOCK)
            return NO_GATE;
        next = s;
        s = c->gates[s].in[0];
    }
    return NO_GATE;
}

/* fill d for a diamond closing at m; false if m closes none */
static bool find_diamond(IfConv *ic, GateId m, Diamond *d)
{
    Circuit *c = ic->c;
    const Gate *mt = &c->gates[m];
    if (mt->op != OP_MERGE || mt->nstate != 2)
        return false;
    set_clear(&ic->on_arm);
    GateId a = arm_head(ic, m, 0), b = arm_head(ic, m, 1);
    if (a == NO_GATE || b == NO_GATE || c->gates[a].op == c->gates[b].op ||
        c->gates[a].in[0] != c->gates[b].in[0])
        return false;
    *d = (Diamond){.ic = ic, .c = c, .m = m, .br = c->gates[a].in[0]};
    d->cond = gate_data(&c->gates[d->br], 0);
    d->true_input = c->gates[a].op == OP_IF_TRUE ? 0 : 1;
    return true;
}

/* ---- cone walks ---- */

typedef enum { WALK_LEAF, WALK_IN, WALK_BAD } Step;

/* one gate of the condition's cone: LOADs allowed */
static Step cond_step(const Diamond *d, GateId g)
{
    const Gate *gt = &d->c->gates[g];
    if (op_is_selector(gt->op))
        return gt->in[0] == d->m ? WALK_BAD : WALK_LEAF;
    if (g == ROOT_DEPEND_ENTRY)
        return WALK_LEAF;
    if (gt->op == OP_LOAD || gt->op == OP_DEPEND_RELAY || gt->op == OP_DEPEND_AND)
        return WALK_IN;
    if (op_has(gt->op, F_ROOT | F_STATE | F_EFFECT | F_TRAPS) || !op_has(gt->op, F_PURE))
        return WALK_BAD;
    return WALK_IN;
}

/* one gate of an arm's cone: gates the condition demands are already run */
static Step arm_step(const Diamond *d, GateId g)
{
    const Gate *gt = &d->c->gates[g];
    if (set_has(&d->ic->in_cond, g))
        return WALK_LEAF;
    if (op_is_selector(gt->op))
        return gt->in[0] == d->m ? WALK_BAD : WALK_LEAF;
    if (op_has(gt->op, F_ROOT | F_STATE | F_EFFECT | F_TRAPS) || !op_has(gt->op, F_PURE))
        return WALK_BAD;
    return WALK_IN;
}

/* a stack of gates that grows */
typedef struct { GateId *v; uint32_t n, cap; } GateStack;

static void stack_push(GateStack *s, GateId g)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v)
            abort();
    }
    s->v[s->n++] = g;
}

/* walk the cone of g (data and dependency inputs) with step, adding what it visits
 * to seen; *count gets the visited gates that have inputs.  false if a gate is BAD,
 * is newer than the sets, or the count passes limit. */
static bool walk(const Diamond *d, GateId g, Step (*step)(const Diamond *, GateId), GateSet *seen,
                 uint32_t *count, uint32_t limit)
{
    const Circuit *c = d->c;
    GateStack s = {0};
    bool ok = true;
    stack_push(&s, g);
    while (s.n && ok) {
        GateId x = s.v[--s.n];
        if ((!gate_live(c, x) && x != ROOT_DEPEND_ENTRY) || x >= seen->cap)
            ok = false;
        else if (!set_has(seen, x)) {
            set_add(seen, x);
            Step st = step(d, x);
            ok = st != WALK_BAD;
            const Gate *gt = &c->gates[x];
            if (st == WALK_IN && gate_nin(gt) > gt->nstate)
                ok = ++*count <= limit;
            for (uint32_t i = gt->nstate; st == WALK_IN && i < gate_nin(gt) && ok; i++)
                stack_push(&s, gt->in[i]);
        }
    }
    free(s.v);
    return ok;
}

/* ---- liveness: gates reached backwards from the inputs of state gates other than
 * IF_BRANCHes (the pass may delete those: a selector kept live only by a condition
 * that a conversion hands to SELECTs could end up live through nothing) ---- */

static void mark_from(const Circuit *c, GateId g, uint8_t *live, GateStack *s)
{
    stack_push(s, g);
    while (s->n) {
        GateId x = s->v[--s->n];
        if (x == NO_GATE || live[x])
            continue;
        live[x] = 1;
        const Gate *gt = &c->gates[x];
        for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
            stack_push(s, gt->in[i]);
    }
}

static uint8_t *live_gates(const Circuit *c)
{
    uint8_t *live = opt_calloc(c->ngates + 1, 1);
    GateStack s = {0};
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        const Gate *st = &c->gates[g];
        if (gate_live(c, g) && op_has(st->op, F_STATE) && st->op != OP_IF_BRANCH)
            for (uint32_t i = st->nstate; i < gate_nin(st); i++)
                mark_from(c, st->in[i], live, &s);
    }
    free(s.v);
    return live;
}

/* ---- the checks ---- */

static bool listed(const GateId *v, uint32_t n, GateId g)
{
    for (uint32_t k = 0; k < n; k++)
        if (v[k] == g)
            return true;
    return false;
}

/* the selectors on m; false if there are too many value selectors or none is live */
static bool collect_selectors(const Diamond *d, GateId *sel, uint32_t *nsel)
{
    const Gate *mt = &d->c->gates[d->m];
    uint32_t nval = 0;
    bool any_live = false;
    *nsel = 0;
    for (uint32_t i = 0; i < mt->nuses; i++) {
        Use u = mt->uses[i];
        const Gate *s = &d->c->gates[u.user];
        if (s->dead || !op_is_selector(s->op) || u.index != 0 || listed(sel, *nsel, u.user))
            continue;
        if (s->op == OP_VALUE_SELECTOR) {
            nval++;
            any_live |= u.user < d->ic->nlive && d->ic->live[u.user];
        }
        sel[(*nsel)++] = u.user;
    }
    return nval <= MAX_SELECTS && any_live;
}

/* dependency input i of selector s, seen through relays on the diamond's arms */
static GateId dep_past_arm(const Diamond *d, const Gate *s, uint32_t i)
{
    GateId x = gate_dep(s, i);
    while (gate_live(d->c, x) && d->c->gates[x].op == OP_DEPEND_RELAY && set_has(&d->ic->on_arm, d->c->gates[x].in[0]))
        x = gate_dep(&d->c->gates[x], 0);
    return x;
}

/* a dependency selector may become its input: the same on both arms (past the arms'
 * relays), with a quiet cone, or demanded anyway by the terminator the merge leads
 * straight to (at most one such selector per merge, counted in *eager) */
static bool dep_selector_ok(const Diamond *d, GateId s, uint32_t *eager)
{
    const Gate *st = &d->c->gates[s];
    GateId in = dep_past_arm(d, st, 0);
    if (st->ndep != 2 || in != dep_past_arm(d, st, 1))
        return false;
    return cone_quiet(d->c, in, false) || (join_terminator(d->c, s) != NO_GATE && ++*eager <= 1);
}

/* every value selector's arms are harmless and within the cost rule */
static bool arms_ok(const Diamond *d, const GateId *sel, uint32_t nsel)
{
    uint32_t cost[2] = {0, 0}, eager = 0;
    set_clear(&d->ic->arm_seen[0]);
    set_clear(&d->ic->arm_seen[1]);
    bool ok = true;
    for (uint32_t i = 0; i < nsel && ok; i++) {
        const Gate *st = &d->c->gates[sel[i]];
        if (st->op == OP_DEPEND_SELECTOR) {
            ok = dep_selector_ok(d, sel[i], &eager);
            continue;
        }
        for (uint32_t arm = 0; arm < 2 && ok; arm++)
            ok = st->ndata == 2 &&
                 walk(d, gate_data(st, arm), arm_step, &d->ic->arm_seen[arm], &cost[arm], ARM_MAX_GATES);
    }
    return ok;
}

static bool convertible(const Diamond *d, GateId *sel, uint32_t *nsel)
{
    uint32_t cost = 0;
    if (!collect_selectors(d, sel, nsel))
        return false;
    set_clear(&d->ic->in_cond);
    return walk(d, d->cond, cond_step, &d->ic->in_cond, &cost, COND_MAX_GATES) && arms_ok(d, sel, *nsel);
}

/* ---- the rewrite ---- */

static void replace_selectors(const Diamond *d, const GateId *sel, uint32_t nsel)
{
    Circuit *c = d->c;
    for (uint32_t i = 0; i < nsel; i++) {
        const Gate *st = &c->gates[sel[i]];
        if (st->op == OP_DEPEND_SELECTOR) {
            opt_replace(c, sel[i], dep_past_arm(d, st, 0));
            continue;
        }
        GateId in[3] = {d->cond, gate_data(st, d->true_input), gate_data(st, 1 - d->true_input)};
        GateId s = circ_add(c, OP_SELECT, (Type)st->type, 0, 0, NULL, 0, NULL, 0, in, 3);
        opt_replace(c, sel[i], s);
    }
}

static bool has_user_op(const Circuit *c, GateId g, int op)
{
    for (uint32_t i = 0; i < c->gates[g].nuses; i++)
        if (!c->gates[c->gates[g].uses[i].user].dead && c->gates[c->gates[g].uses[i].user].op == op)
            return true;
    return false;
}

/* delete the arm whose last state is s, its relays (now unused) included */
static void kill_arm(Circuit *c, GateId s)
{
    while (s != NO_GATE) {
        for (uint32_t i = c->gates[s].nuses; i-- > 0;) {
            GateId u = c->gates[s].uses[i].user;
            if (c->gates[u].op == OP_DEPEND_RELAY && !c->gates[u].nuses)
                circ_kill(c, u);
        }
        GateId up = c->gates[s].op == OP_ORDINARY_BLOCK ? c->gates[s].in[0] : NO_GATE;
        circ_kill(c, s);
        s = up;
    }
}

/* control goes from the branch's input straight to the merge's successor */
static void remove_branch(const Diamond *d)
{
    Circuit *c = d->c;
    GateId from = c->gates[d->br].in[0], arms[2] = {c->gates[d->m].in[0], c->gates[d->m].in[1]};
    circ_set_inputs(c, d->m, &from, 1, NULL, 0, NULL, 0);
    kill_arm(c, arms[0]);
    kill_arm(c, arms[1]);
    circ_kill(c, d->br);
    if (has_user_op(c, d->m, OP_DEPEND_RELAY)) {
        c->gates[d->m].op = OP_ORDINARY_BLOCK;
        return;
    }
    circ_replace_uses(c, d->m, from);
    circ_kill(c, d->m);
}

static bool convert(IfConv *ic, GateId m)
{
    Diamond d;
    if (!find_diamond(ic, m, &d))
        return false;
    uint32_t nsel;
    GateId *sel = opt_calloc(ic->c->gates[m].nuses + 1, sizeof *sel);
    bool ok = convertible(&d, sel, &nsel);
    if (ok) {
        replace_selectors(&d, sel, nsel);
        remove_branch(&d);
    }
    free(sel);
    return ok;
}

static void set_alloc(GateSet *s, uint32_t cap)
{
    s->stamp = opt_calloc(cap, sizeof *s->stamp);
    s->cap = cap;
    s->epoch = 1;
}

bool opt_ifconvert(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    uint32_t n = c->ngates, merges = 0;
    for (GateId g = NUM_ROOTS; g < n; g++)
        merges += gate_live(c, g) && c->gates[g].op == OP_MERGE;
    if (!merges)
        return false;
    /* conversions add only SELECTs, at most MAX_SELECTS per merge */
    uint32_t cap = n + MAX_SELECTS * merges + 1;
    IfConv ic = {.c = c, .live = live_gates(c), .nlive = n};
    GateSet *sets[] = {&ic.in_cond, &ic.arm_seen[0], &ic.arm_seen[1], &ic.on_arm};
    for (unsigned k = 0; k < 4; k++)
        set_alloc(sets[k], cap);
    bool changed = false;
    for (GateId g = NUM_ROOTS; g < n; g++)
        if (gate_live(c, g) && c->gates[g].op == OP_MERGE)
            changed |= convert(&ic, g);
    for (unsigned k = 0; k < 4; k++)
        free(sets[k]->stamp);
    free(ic.live);
    return changed;
}
