/* optutil.c — analyses and rewrites shared by the passes (see optutil.h).
 * Needs: the IR core's use lists (compiler/ir/ir.h). */
#include "compiler/opt/optutil.h"
#include "compiler/opt/gateset.h"

#include <stdlib.h>
#include <string.h>

void *opt_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fputs("circ: out of memory\n", stderr);
        abort();
    }
    return p;
}

bool gate_const(const Circuit *c, GateId g, uint64_t *bits)
{
    if (!gate_live(c, g) || c->gates[g].op != OP_CONSTANT)
        return false;
    if (bits)
        *bits = c->gates[g].lit;
    return true;
}

GateId opt_const(Circuit *c, Type t, uint64_t bits)
{
    return circ_const(c, t, ty_is_int(t) ? bits & ty_mask(t) : bits);
}

void opt_replace(Circuit *c, GateId old, GateId repl)
{
    circ_replace_uses(c, old, repl);
    Gate *o = &c->gates[old], *r = &c->gates[repl];
    if (o->name && !r->name && repl >= NUM_ROOTS) {
        r->name = o->name;
        o->name = NULL;
    }
    opt_kill_unused(c, old);
}

/* a growable stack of gate ids: on the heap (v NULL or malloc'ed), or starting in a
 * caller's buffer (borrowed) and moving to the heap when that fills */
typedef struct { GateId *v; uint32_t n, cap; bool borrowed; } Stack;

static void push(Stack *s, GateId g)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        GateId *v = realloc(s->borrowed ? NULL : s->v, s->cap * sizeof *v);
        if (!v) {
            fputs("circ: out of memory\n", stderr);
            abort();
        }
        if (s->borrowed && s->n)
            memcpy(v, s->v, s->n * sizeof *v);
        s->v = v;
        s->borrowed = false;
    }
    s->v[s->n++] = g;
}

void opt_kill_unused(Circuit *c, GateId g)
{
    GateId buf[32];
    Stack s = {buf, 0, 32, true};
    push(&s, g);
    while (s.n) {
        GateId x = s.v[--s.n];
        if (!gate_is_computation(c, x) || c->gates[x].nuses)
            continue;
        Gate *gt = &c->gates[x];
        for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
            push(&s, gt->in[i]);
        circ_kill(c, x);
    }
    if (!s.borrowed)
        free(s.v);
}

/* ---- cone checks ---- */

typedef enum { CONE_OK, CONE_STOP, CONE_WALK, CONE_BAD } ConeStep;

static ConeStep quiet_step(const Gate *g, bool through_selectors)
{
    if (op_has(g->op, F_ROOT))
        return g->op == OP_DEPEND_ENTRY ? CONE_OK : CONE_BAD;
    if (op_is_selector(g->op))
        return through_selectors ? CONE_WALK : CONE_STOP;
    if (g->op == OP_DEPEND_RELAY || g->op == OP_DEPEND_AND)
        return CONE_WALK;
    if (op_has(g->op, F_STATE | F_EFFECT | F_TRAPS) || !op_has(g->op, F_PURE))
        return CONE_BAD;
    return CONE_WALK;
}

static ConeStep speculate_step(const Gate *g, bool unused)
{
    (void)unused;
    if (g->op == OP_LOAD || op_is_selector(g->op))
        return CONE_STOP;
    if (op_has(g->op, F_ROOT | F_STATE) || g->op == OP_CALL || op_has(g->op, F_TRAPS) || !op_has(g->op, F_PURE))
        return CONE_BAD;
    return CONE_WALK;
}

static bool walk_cone(const Circuit *c, GateId g, ConeStep (*step)(const Gate *, bool), bool flag)
{
    GateSet seen;
    gateset_init(&seen);
    Stack s = {0};
    push(&s, g);
    bool ok = true;
    while (s.n && ok) {
        GateId x = s.v[--s.n];
        if (x == NO_GATE || x >= c->ngates || c->gates[x].dead) {
            ok = false;
            break;
        }
        if (!gateset_add(&seen, x))
            continue;
        const Gate *gt = &c->gates[x];
        ConeStep st = step(gt, flag);
        if (st == CONE_BAD)
            ok = false;
        else if (st == CONE_WALK)
            for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
                push(&s, gt->in[i]);
    }
    gateset_free(&seen);
    free(s.v);
    return ok;
}

bool cone_quiet(const Circuit *c, GateId g, bool through_selectors)
{
    return walk_cone(c, g, quiet_step, through_selectors);
}

bool cone_speculatable(const Circuit *c, GateId g)
{
    return walk_cone(c, g, speculate_step, false);
}

/* could evaluating input i of g trap (a division or a call in its cone, up to
 * selectors)?  Loads and stores only fail on invalid accesses. */
static bool input_may_trap(const Circuit *c, GateId g, uint32_t i)
{
    GateSet seen;
    gateset_init(&seen);
    Stack s = {0};
    push(&s, c->gates[g].in[i]);
    bool trap = false;
    while (s.n && !trap) {
        GateId x = s.v[--s.n];
        if (!gate_is_computation(c, x) || !gateset_add(&seen, x))
            continue;
        const Gate *xg = &c->gates[x];
        trap = xg->op == OP_CALL || (op_has(xg->op, F_TRAPS) && !op_has(xg->op, F_EFFECT));
        if (!op_is_selector(xg->op))
            for (uint32_t k = xg->nstate; k < gate_nin(xg); k++)
                push(&s, xg->in[k]);
    }
    gateset_free(&seen);
    free(s.v);
    return trap;
}

static bool inputs_may_trap(const Circuit *c, GateId g)
{
    for (uint32_t i = c->gates[g].nstate; i < gate_nin(&c->gates[g]); i++)
        if (input_may_trap(c, g, i))
            return true;
    return false;
}

/* ---- demand points ---- */

static void points_add(Points *p, uint64_t key)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        uint64_t *v = realloc(p->v, p->cap * sizeof *v);
        if (!v) {
            fputs("circ: out of memory\n", stderr);
            abort();
        }
        p->v = v;
    }
    p->v[p->n++] = key;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* does state gate t demand sel (through computation gates, not other selectors)? */
static bool state_demands(const Circuit *c, GateId t, GateId sel)
{
    GateSet seen;
    gateset_init(&seen);
    Stack s = {0};
    bool found = false;
    const Gate *tg = &c->gates[t];
    for (uint32_t i = tg->nstate; i < gate_nin(tg); i++)
        push(&s, tg->in[i]);
    while (s.n && !found) {
        GateId x = s.v[--s.n];
        if (!gate_is_computation(c, x) || !gateset_add(&seen, x))
            continue;
        found = x == sel;
        const Gate *xg = &c->gates[x];
        if (!op_is_selector(xg->op))
            for (uint32_t i = xg->nstate; i < gate_nin(xg); i++)
                push(&s, xg->in[i]);
    }
    gateset_free(&seen);
    free(s.v);
    return found;
}

/* the one state gate control goes to from s, or NO_GATE */
static GateId only_successor(const Circuit *c, GateId s)
{
    const Gate *jg = &c->gates[s];
    GateId next = NO_GATE;
    for (uint32_t i = 0; i < jg->nuses; i++) {
        Use u = jg->uses[i];
        const Gate *ug = &c->gates[u.user];
        if (ug->dead || !op_has(ug->op, F_STATE) || u.index >= ug->nstate)
            continue;
        if (next != NO_GATE)
            return NO_GATE;
        next = u.user;
    }
    return next;
}

/* nothing that runs on entering join j or at terminator t can trap, so moving an
 * effect from j's entry to t changes no outcome */
static bool quiet_passage(const Circuit *c, GateId j, GateId t)
{
    if (inputs_may_trap(c, t))
        return false;
    const Gate *jg = &c->gates[j];
    for (uint32_t i = 0; i < jg->nuses; i++) {
        Use u = jg->uses[i];
        if (!c->gates[u.user].dead && op_is_selector(c->gates[u.user].op) && u.index == 0 &&
            inputs_may_trap(c, u.user))
            return false;
    }
    return true;
}

GateId join_terminator(const Circuit *c, GateId sel)
{
    const Gate *sg = &c->gates[sel];
    if (!op_is_selector(sg->op) || sg->nstate != 1 || !gate_live(c, sg->in[0]))
        return NO_GATE;
    GateId next = only_successor(c, sg->in[0]);
    /* ORDINARY_BLOCKs between change nothing: they demand nothing and cannot branch */
    for (int steps = 0; next != NO_GATE && c->gates[next].op == OP_ORDINARY_BLOCK && steps < 64; steps++)
        next = only_successor(c, next);
    if (next == NO_GATE || !op_has(c->gates[next].op, F_TERM) || !state_demands(c, next, sel) ||
        !quiet_passage(c, sg->in[0], next))
        return NO_GATE;
    return next;
}

static void follow_use(const Circuit *c, Use u, bool need, GateSet *seen, Stack *s, Points *out)
{
    const Gate *ug = &c->gates[u.user];
    if (ug->dead || slot_kind(ug, u.index) == 0)
        return;
    GateId term = need && op_is_selector(ug->op) ? join_terminator(c, u.user) : NO_GATE;
    if (op_has(ug->op, F_STATE))
        points_add(out, (uint64_t)u.user << 32 | (!need && slot_kind(ug, u.index) == 1 ? VIA_DEP : 0));
    else if (term != NO_GATE) /* entering the join leads straight to term, which reads the selector */
        points_add(out, (uint64_t)term << 32);
    else if (op_is_selector(ug->op))
        points_add(out, (uint64_t)u.user << 32 | (u.index + 1));
    else if (gateset_add(seen, u.user))
        push(s, u.user);
}

void demand_points(const Circuit *c, GateId g, int which, GateId skip_user, bool need, Points *out)
{
    GateSet seen;
    gateset_init(&seen);
    Stack s = {0};
    const Gate *gt = &c->gates[g];
    for (uint32_t i = 0; i < gt->nuses; i++) {
        Use u = gt->uses[i];
        int kind = slot_kind(&c->gates[u.user], u.index);
        if (u.user == skip_user || (kind == 1 && !(which & USE_DEP)) || (kind == 2 && !(which & USE_VALUE)))
            continue;
        follow_use(c, u, need, &seen, &s, out);
    }
    while (s.n) {
        const Gate *x = &c->gates[s.v[--s.n]];
        for (uint32_t i = 0; i < x->nuses; i++)
            follow_use(c, x->uses[i], need, &seen, &s, out);
    }
    gateset_free(&seen);
    free(s.v);
    if (out->n)
        qsort(out->v, out->n, sizeof *out->v, cmp_u64);
    uint32_t k = 0;
    for (uint32_t i = 0; i < out->n; i++)
        if (k == 0 || out->v[k - 1] != out->v[i])
            out->v[k++] = out->v[i];
    out->n = k;
}

static bool points_has(const Points *p, uint64_t key)
{
    uint32_t lo = 0, hi = p->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (p->v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n && p->v[lo] == key;
}

/* is the requirement `key` met by a guarantee in have?  A state gate evaluates its
 * dependency inputs before its data: a guarantee through a dependency input runs the
 * effects no later than the requirement did; through a data input only when nothing
 * the gate evaluates can trap (then the order does not matter).  A selector input
 * likewise needs the same input and nothing there that can trap. */
static bool point_covered(const Circuit *c, uint64_t key, const Points *have)
{
    if (!have)
        return false;
    GateId g = (GateId)(key >> 32);
    uint32_t low = (uint32_t)key;
    if (low == 0)
        return points_has(have, key | VIA_DEP) || (points_has(have, key) && !inputs_may_trap(c, g));
    return points_has(have, key) && !input_may_trap(c, g, low - 1);
}

bool points_cover(const Circuit *c, const Points *need, const Points *have1, const Points *have2)
{
    for (uint32_t i = 0; i < need->n; i++)
        if (!point_covered(c, need->v[i], have1) && !point_covered(c, need->v[i], have2))
            return false;
    return true;
}

bool points_subset(const Points *a, const Points *b)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        while (j < b->n && b->v[j] < a->v[i])
            j++;
        if (j == b->n || b->v[j] != a->v[i])
            return false;
    }
    return true;
}

void points_free(Points *p)
{
    free(p->v);
    p->v = NULL;
    p->n = p->cap = 0;
}

/* ---- state reachability and removal ---- */

uint8_t *reach_states(const Circuit *c, const uint8_t *blocked)
{
    uint8_t *r = opt_calloc(c->ngates, 1);
    Stack s = {0};
    r[ROOT_STATE_ENTRY] = 1;
    push(&s, ROOT_STATE_ENTRY);
    while (s.n) {
        const Gate *x = &c->gates[s.v[--s.n]];
        for (uint32_t i = 0; i < x->nuses; i++) {
            Use u = x->uses[i];
            const Gate *ug = &c->gates[u.user];
            if (ug->dead || !op_has(ug->op, F_STATE) || u.index >= ug->nstate || r[u.user] ||
                (blocked && blocked[u.user]))
                continue;
            r[u.user] = 1;
            push(&s, u.user);
        }
    }
    free(s.v);
    return r;
}

/* the join state input a selector's input slot corresponds to, or -1 */
static int64_t selector_arm(const Gate *sel, uint32_t index)
{
    uint32_t first = sel->op == OP_VALUE_SELECTOR ? (uint32_t)sel->nstate + sel->ndep : sel->nstate;
    uint32_t count = sel->op == OP_VALUE_SELECTOR ? sel->ndata : sel->ndep;
    return index >= first && index < first + count ? (int64_t)(index - first) : -1;
}

/* does input `index` of user u go away because its join loses that state input? */
static bool input_dropped(const Circuit *c, const uint8_t *reach, GateId u, uint32_t index)
{
    const Gate *ug = &c->gates[u];
    if (!op_is_selector(ug->op) || ug->nstate < 1 || !gate_live(c, ug->in[0]) || !reach[ug->in[0]])
        return false;
    const Gate *join = &c->gates[ug->in[0]];
    int64_t arm = selector_arm(ug, index);
    return arm >= 0 && arm < join->nstate && (!gate_live(c, join->in[arm]) || !reach[join->in[arm]]);
}

/* a computation on an unreachable state, or reading an unreachable INVOKE's value or
 * dependency (a state gate with outputs) */
static bool on_dead_state(const Circuit *c, const uint8_t *reach, GateId g)
{
    const Gate *gt = &c->gates[g];
    if (!gate_is_computation(c, g))
        return false;
    if (gt->nstate && gate_live(c, gt->in[0]) && !reach[gt->in[0]])
        return true;
    for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
        if (gate_live(c, gt->in[i]) && gate_is_state(c, gt->in[i]) && !reach[gt->in[i]])
            return true;
    return false;
}

/* What reach leaves out, found by one scan: the live state gates it does not reach
 * (ascending), and the reached gates with a state input that is not a live state
 * gate (ascending; such a join drops that input as it drops an unreached one).  The
 * analyses below start from these and walk only the region they touch. */
typedef struct {
    Stack unreached;
    Stack odd_joins;
} Unreached;

static void unreached_free(Unreached *u)
{
    free(u->unreached.v);
    free(u->odd_joins.v);
}

static int by_gate_id(const void *a, const void *b)
{
    GateId x = *(const GateId *)a, y = *(const GateId *)b;
    return (x > y) - (x < y);
}

static void sort_gates(Stack *s)
{
    if (s->n > 1)
        qsort(s->v, s->n, sizeof *s->v, by_gate_id);
}

static bool bad_state_input(const Circuit *c, const Gate *gt)
{
    for (uint32_t i = 0; i < gt->nstate; i++)
        if (!gate_live(c, gt->in[i]) || !gate_is_state(c, gt->in[i]))
            return true;
    return false;
}

static void classify_state(const Circuit *c, const uint8_t *reach, GateId g, Unreached *u)
{
    if (!gate_live(c, g) || !gate_is_state(c, g))
        return;
    if (!reach[g])
        push(&u->unreached, g);
    else if (bad_state_input(c, &c->gates[g]))
        push(&u->odd_joins, g);
}

/* the unreached states reachable from cut through unreached states, ascending */
static void unreached_from(const Circuit *c, const uint8_t *reach, const GateId *cut, uint32_t ncut, Unreached *u)
{
    GateSet seen;
    gateset_init(&seen);
    Stack s = {0};
    for (uint32_t k = 0; k < ncut; k++)
        if (gate_live(c, cut[k]) && gate_is_state(c, cut[k]) && !reach[cut[k]] && gateset_add(&seen, cut[k]))
            push(&s, cut[k]);
    while (s.n) {
        GateId x = s.v[--s.n];
        push(&u->unreached, x);
        const Gate *gt = &c->gates[x];
        for (uint32_t i = 0; i < gt->nuses; i++) {
            Use e = gt->uses[i];
            if (gate_live(c, e.user) && gate_is_state(c, e.user) && e.index < c->gates[e.user].nstate &&
                !reach[e.user] && gateset_add(&seen, e.user))
                push(&s, e.user);
        }
    }
    sort_gates(&u->unreached);
    free(s.v);
    gateset_free(&seen);
}

/* states NULL: every gate is looked at; a clean list: only what cut leads to */
static void find_unreached(const Circuit *c, const uint8_t *reach, const StateList *states, const GateId *cut,
                           uint32_t ncut, Unreached *u)
{
    if (states && states->clean) {
        unreached_from(c, reach, cut, ncut, u);
        return;
    }
    GateId from = NUM_ROOTS;
    if (states) {
        for (uint32_t k = 0; k < states->n; k++)
            classify_state(c, reach, states->v[k], u);
        from = states->end > NUM_ROOTS ? states->end : NUM_ROOTS;
    }
    for (GateId g = from; g < c->ngates; g++)
        classify_state(c, reach, g, u);
}

void state_list_init(StateList *s, const Circuit *c)
{
    s->v = opt_calloc(c->ngates + 1, sizeof *s->v);
    s->n = 0;
    s->end = c->ngates;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (gate_is_state(c, g))
            s->v[s->n++] = g;
    s->clean = false;
    uint8_t *reach = reach_states(c, NULL);
    Unreached un = {{0}, {0}};
    find_unreached(c, reach, s, NULL, 0, &un);
    s->clean = !un.unreached.n && !un.odd_joins.n;
    unreached_free(&un);
    free(reach);
}

void state_list_free(StateList *s)
{
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

/* the gates on_dead_state holds for (each uses an unreached state), ascending,
 * marked in dead */
static void dead_seeds(const Circuit *c, const uint8_t *reach, const Unreached *u, uint8_t *dead, Stack *out)
{
    for (uint32_t k = 0; k < u->unreached.n; k++) {
        const Gate *x = &c->gates[u->unreached.v[k]];
        for (uint32_t i = 0; i < x->nuses; i++) {
            GateId user = x->uses[i].user;
            if (!dead[user] && on_dead_state(c, reach, user)) {
                dead[user] = 1;
                push(out, user);
            }
        }
    }
    sort_gates(out);
}

/* computation gates that depend on the dead region: selectors and relays on
 * unreachable states and everything using them; false if a reachable state does */
static bool dead_closure(const Circuit *c, const uint8_t *reach, const Unreached *un, uint8_t *dead, Stack *out)
{
    Stack s = {0};
    dead_seeds(c, reach, un, dead, &s);
    bool ok = true;
    while (s.n && ok) {
        GateId x = s.v[--s.n];
        push(out, x);
        const Gate *gt = &c->gates[x];
        for (uint32_t i = 0; i < gt->nuses && ok; i++) {
            Use u = gt->uses[i];
            const Gate *ug = &c->gates[u.user];
            if (ug->dead || dead[u.user] || input_dropped(c, reach, u.user, u.index))
                continue;
            if (op_has(ug->op, F_STATE)) {
                ok = !reach[u.user];
                continue;
            }
            dead[u.user] = 1;
            push(&s, u.user);
        }
    }
    free(s.v);
    return ok;
}

/* mark what the states selected by `want_reached` use, through computation gates;
 * for the unreachable side also what the selector inputs that go away used */
static void mark_and_push(const Circuit *c, GateId in, uint8_t *mark, Stack *s, Stack *selectors_met)
{
    if (!gate_is_computation(c, in) || mark[in])
        return;
    mark[in] = 1;
    push(s, in);
    if (selectors_met && op_is_selector(c->gates[in].op))
        push(selectors_met, in);
}

/* the joins that may drop an input: reached users of unreached states, and the odd
 * joins (in no particular order, possibly repeated) */
static void dropping_joins(const Circuit *c, const uint8_t *reach, const Unreached *u, Stack *out)
{
    for (uint32_t k = 0; k < u->unreached.n; k++) {
        const Gate *x = &c->gates[u->unreached.v[k]];
        for (uint32_t i = 0; i < x->nuses; i++) {
            GateId user = x->uses[i].user;
            if (gate_live(c, user) && gate_is_state(c, user) && reach[user] && x->uses[i].index < c->gates[user].nstate)
                push(out, user);
        }
    }
    for (uint32_t k = 0; k < u->odd_joins.n; k++)
        push(out, u->odd_joins.v[k]);
}

/* the computations the unreachable states use, and those the selector inputs that
 * go away used (only selectors on a join that drops an input lose any), marked in
 * lost; the selectors among them pushed on met */
static void mark_used_by_unreached(const Circuit *c, const uint8_t *reach, const Unreached *un, uint8_t *lost,
                                   Stack *met)
{
    Stack s = {0}, joins = {0};
    for (uint32_t k = 0; k < un->unreached.n; k++)
        push(&s, un->unreached.v[k]);
    dropping_joins(c, reach, un, &joins);
    for (uint32_t k = 0; k < joins.n; k++) {
        const Gate *j = &c->gates[joins.v[k]];
        for (uint32_t i = 0; i < j->nuses; i++) {
            GateId g = j->uses[i].user;
            if (j->uses[i].index || !gate_is_computation(c, g) || !op_is_selector(c->gates[g].op))
                continue;
            const Gate *gt = &c->gates[g]; /* a selector input that goes away is demanded no more */
            for (uint32_t in = gt->nstate; in < gate_nin(gt); in++)
                if (input_dropped(c, reach, g, in))
                    mark_and_push(c, gt->in[in], lost, &s, met);
        }
    }
    while (s.n) {
        GateId x = s.v[--s.n];
        const Gate *gt = &c->gates[x];
        for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
            if (!input_dropped(c, reach, x, i))
                mark_and_push(c, gt->in[i], lost, &s, met);
    }
    free(s.v);
    free(joins.v);
}

/* does a reachable state use computation g through data and dependency inputs that
 * stay (inputs of computations only)?  A depth-first walk up g's uses; memo keeps
 * what walks found (KEPT: every gate on the path to a reachable state; NOT_KEPT:
 * every gate a walk that found none saw), so walks of one analysis share work. */
enum { MEMO_UNKNOWN, MEMO_KEPT, MEMO_NOT_KEPT };
typedef struct {
    GateId g;
    uint32_t next; /* the next of g's uses to follow */
} UpFrame;
typedef struct {
    UpFrame *v;
    uint32_t n, cap;
} UpPath;

static void up_push(UpPath *p, GateId g)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->v = realloc(p->v, p->cap * sizeof *p->v);
        if (!p->v) {
            fputs("circ: out of memory\n", stderr);
            abort();
        }
    }
    p->v[p->n++] = (UpFrame){g, 0};
}

/* the next step up from the path's last gate: 1 found a reachable state, 0 went on */
static int up_step(const Circuit *c, const uint8_t *reach, uint8_t *memo, UpPath *p, GateSet *seen)
{
    UpFrame *f = &p->v[p->n - 1];
    const Gate *x = &c->gates[f->g];
    if (f->next == x->nuses) {
        p->n--;
        return 0;
    }
    Use u = x->uses[f->next++];
    if (u.index < c->gates[u.user].nstate || input_dropped(c, reach, u.user, u.index))
        return 0;
    if (gate_live(c, u.user) && gate_is_state(c, u.user))
        return reach[u.user] != 0;
    if (!gate_is_computation(c, u.user) || memo[u.user] == MEMO_NOT_KEPT)
        return 0;
    if (memo[u.user] == MEMO_KEPT)
        return 1;
    if (gateset_add(seen, u.user))
        up_push(p, u.user);
    return 0;
}

static bool used_by_reached(const Circuit *c, const uint8_t *reach, GateId g, uint8_t *memo)
{
    if (memo[g] != MEMO_UNKNOWN)
        return memo[g] == MEMO_KEPT;
    GateSet seen;
    gateset_init(&seen);
    gateset_add(&seen, g);
    UpPath path = {0};
    up_push(&path, g);
    bool found = false;
    while (path.n && !found)
        found = up_step(c, reach, memo, &path, &seen);
    if (found)
        for (uint32_t i = 0; i < path.n; i++)
            memo[path.v[i].g] = MEMO_KEPT;
    else
        for (uint32_t i = 0; i < seen.cap; i++)
            if (seen.slot[i] != NO_GATE)
                memo[seen.slot[i]] = MEMO_NOT_KEPT;
    free(path.v);
    gateset_free(&seen);
    return found;
}

static bool selector_inputs_quiet(const Circuit *c, const uint8_t *reach, GateId sel)
{
    const Gate *gt = &c->gates[sel];
    for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
        if (!input_dropped(c, reach, sel, i) && !cone_quiet(c, gt->in[i], false))
            return false;
    return true;
}

/* unreachable_removal_ok with what reach leaves out found */
static bool removal_ok(const Circuit *c, const uint8_t *reach, const Unreached *un)
{
    uint8_t *dead = opt_calloc(c->ngates, 1);
    Stack closure = {0};
    bool ok = dead_closure(c, reach, un, dead, &closure);
    free(dead);
    free(closure.v);
    if (!ok)
        return false;
    uint8_t *lost = opt_calloc(c->ngates, 1), *memo = opt_calloc(c->ngates, 1);
    Stack met = {0};
    mark_used_by_unreached(c, reach, un, lost, &met);
    for (uint32_t i = 0; i < met.n && ok; i++) {
        GateId sel = met.v[i];
        GateId join = c->gates[sel].in[0];
        if (gate_live(c, join) && reach[join] && !used_by_reached(c, reach, sel, memo) &&
            !selector_inputs_quiet(c, reach, sel))
            ok = false;
    }
    free(lost);
    free(memo);
    free(met.v);
    return ok;
}

bool unreachable_removal_ok(const Circuit *c, const uint8_t *reach)
{
    return unreachable_removal_ok_in(c, reach, NULL, NULL, 0);
}

bool unreachable_removal_ok_in(const Circuit *c, const uint8_t *reach, const StateList *states, const GateId *cut,
                               uint32_t ncut)
{
    Unreached un = {{0}, {0}};
    find_unreached(c, reach, states, cut, ncut, &un);
    bool ok = removal_ok(c, reach, &un);
    unreached_free(&un);
    return ok;
}

/* drop the unreachable state inputs of a reachable join and the matching selector inputs */
static void prune_join(Circuit *c, const uint8_t *reach, GateId j)
{
    Gate *jt = &c->gates[j];
    uint32_t n = jt->nstate, k = 0;
    GateId *keep_states = opt_calloc(n, sizeof(GateId));
    uint8_t *keep = opt_calloc(n, 1);
    for (uint32_t i = 0; i < n; i++)
        if (gate_live(c, jt->in[i]) && reach[jt->in[i]]) {
            keep[i] = 1;
            keep_states[k++] = jt->in[i];
        }
    if (k == n) {
        free(keep_states);
        free(keep);
        return;
    }
    Stack sels = {0};
    for (uint32_t i = 0; i < jt->nuses; i++) {
        Use u = jt->uses[i];
        if (!c->gates[u.user].dead && op_is_selector(c->gates[u.user].op) && u.index == 0)
            push(&sels, u.user);
    }
    GateId *buf = opt_calloc(n, sizeof(GateId));
    for (uint32_t s = 0; s < sels.n; s++) {
        Gate *sg = &c->gates[sels.v[s]];
        bool value = sg->op == OP_VALUE_SELECTOR;
        uint32_t first = value ? (uint32_t)sg->nstate + sg->ndep : sg->nstate, m = 0;
        for (uint32_t i = 0; i < n && first + i < gate_nin(sg); i++)
            if (keep[i])
                buf[m++] = sg->in[first + i];
        GateId st = sg->in[0];
        if (value)
            circ_set_inputs(c, sels.v[s], &st, 1, NULL, 0, buf, m);
        else
            circ_set_inputs(c, sels.v[s], &st, 1, buf, m, NULL, 0);
    }
    if (c->gates[j].op == OP_LOOP_BEGIN && !keep[1])
        c->gates[j].op = OP_MERGE;
    circ_set_inputs(c, j, keep_states, k, NULL, 0, NULL, 0);
    free(buf);
    free(sels.v);
    free(keep_states);
    free(keep);
}

bool remove_unreachable_states(Circuit *c) { return remove_unreachable(c, true); }

/* the joins that drop an input, ascending, once each */
static void joins_to_prune(const Circuit *c, const uint8_t *reach, const Unreached *un, Stack *out)
{
    Stack all = {0};
    dropping_joins(c, reach, un, &all);
    sort_gates(&all);
    for (uint32_t k = 0; k < all.n; k++) {
        GateId j = all.v[k];
        if ((k == 0 || all.v[k - 1] != j) && (c->gates[j].op == OP_MERGE || c->gates[j].op == OP_LOOP_BEGIN))
            push(out, j);
    }
    free(all.v);
}

bool remove_unreachable(Circuit *c, bool check) { return remove_unreachable_in(c, check, NULL, NULL, 0); }

bool remove_unreachable_in(Circuit *c, bool check, const StateList *states, const GateId *cut, uint32_t ncut)
{
    uint8_t *reach = reach_states(c, NULL);
    Unreached un = {{0}, {0}};
    find_unreached(c, reach, states, cut, ncut, &un);
    if (!un.unreached.n || (check && !removal_ok(c, reach, &un))) {
        free(reach);
        unreached_free(&un);
        return false;
    }
    uint8_t *dead = opt_calloc(c->ngates, 1);
    Stack doomed = {0}, inputs = {0}, joins = {0};
    dead_closure(c, reach, &un, dead, &doomed);
    for (uint32_t k = 0; k < un.unreached.n; k++)
        push(&doomed, un.unreached.v[k]);
    joins_to_prune(c, reach, &un, &joins);
    for (uint32_t k = 0; k < joins.n; k++)
        prune_join(c, reach, joins.v[k]);
    for (uint32_t i = 0; i < doomed.n; i++) {
        Gate *gt = &c->gates[doomed.v[i]];
        for (uint32_t k = 0; k < gate_nin(gt); k++)
            push(&inputs, gt->in[k]);
    }
    for (uint32_t i = 0; i < doomed.n; i++)
        if (!c->gates[doomed.v[i]].dead)
            circ_kill(c, doomed.v[i]);
    for (uint32_t i = 0; i < inputs.n; i++)
        if (inputs.v[i] != NO_GATE && inputs.v[i] < c->ngates)
            opt_kill_unused(c, inputs.v[i]);
    free(reach);
    free(dead);
    free(doomed.v);
    free(inputs.v);
    free(joins.v);
    unreached_free(&un);
    return true;
}

/* ---- ordering ---- */

GateId *computation_postorder(const Circuit *c, uint32_t *n)
{
    /* one block: the order (returned; freeing it frees the rest), then the walk's
     * stack (each gate enters it once), next input per gate, and state per gate */
    uint32_t ng = c->ngates;
    GateId *order = opt_calloc(ng, 3 * sizeof(GateId) + 1);
    GateId *stack = order + ng;
    uint32_t *next = stack + ng;
    uint8_t *state = (uint8_t *)(next + ng); /* 0 new, 1 open, 2 done */
    uint32_t k = 0, sp = 0;
    for (GateId r = NUM_ROOTS; r < ng; r++) {
        if (!gate_is_computation(c, r) || state[r])
            continue;
        state[r] = 1;
        stack[sp++] = r;
        while (sp) {
            GateId g = stack[sp - 1];
            const Gate *gt = &c->gates[g];
            if (next[g] < gate_nin(gt)) {
                uint32_t i = next[g]++;
                GateId in = gt->in[i];
                if (i >= gt->nstate && gate_is_computation(c, in) && !state[in]) {
                    state[in] = 1;
                    stack[sp++] = in;
                }
                continue;
            }
            state[g] = 2;
            order[k++] = g;
            sp--;
        }
    }
    *n = k;
    return order;
}
