/* inline_invoke.c — inlining at INVOKE sites: the callee's state graph is spliced in
 * where the INVOKE was; its RETURNs continue at the IF_SUCCESS and its THROWs at the
 * IF_EXCEPTION.  Needs: inline.c's callee lookup and cones, optutil's state removal.
 *
 * A callee qualifies when it is a small leaf without loops (no CALL, INVOKE or
 * LOOP_BEGIN; at most MAX_INVOKE_CALLEE_GATES gates) with at least one exit, and no
 * exit's value can trap or writes memory its dependency does not (so the value may be
 * computed later, or never).  Its gates are cloned: STATE_ENTRY becomes the INVOKE's
 * state input, DEPEND_ENTRY its dependency input, ARGs its arguments, ALLOCAs caller
 * ALLOCAs (zeroed by stores when the caller has a loop).  One RETURN's state, value
 * and dependency replace the IF_SUCCESS's input, the INVOKE's value and dependency;
 * several meet in a MERGE with selectors.  The THROWs likewise replace the
 * IF_EXCEPTION's input, GET_EXCEPTION (the thrown value's bits, zero-extended) and
 * the dependency the handler's relays take.  IF_SUCCESS and IF_EXCEPTION become
 * ORDINARY_BLOCKs (relays on them stay valid); a path the callee cannot take (no
 * RETURN, or no THROW) is deleted.
 *
 * Timing.  An INVOKE runs, when control reaches it, its dependency input, its
 * arguments and the whole callee.  Inlined, the callee's branches still run there,
 * but its effects (and the pending effects of the dependency input) run where the
 * continuation demands the INVOKE's dependency.  So: the arguments must be settled
 * (quiet, or loads the dependency input orders before the call); when the dependency
 * input has effects still to run, no callee branch may trap; and when anything is
 * pending (effects of the dependency input or stores of the callee), every path from
 * the IF_SUCCESS (and from the IF_EXCEPTION, if the callee throws) must demand the
 * INVOKE's dependency before anything that could trap and before any terminator,
 * INVOKE or loop entry (the pin walk below).  Loads and stores that are not ordered
 * with the INVOKE's effects commute with them: the program is race-free. */
#include "compiler/opt/inline.h"

#include <stdlib.h>

enum { MAX_INVOKE_CALLEE_GATES = 64, MAX_PIN_STATES = 256 };

typedef struct {
    GateId exits[2][MAX_INVOKE_CALLEE_GATES]; /* [0] the RETURNs, [1] the THROWs */
    uint32_t n[2];
    uint32_t gates;
    bool writes;     /* the callee stores */
    bool conds_trap; /* a branch condition of the callee may trap */
} CalleeFacts;

static bool may_trap(const Gate *g)
{
    return g->op == OP_CALL || (op_has(g->op, F_TRAPS) && !op_has(g->op, F_EFFECT));
}

/* the exit's value may be computed late or never: no trap, no store its chain lacks */
static bool exit_value_ok(const Circuit *cc, GateId exit)
{
    const Gate *t = &cc->gates[exit];
    if (!t->ndata)
        return true;
    uint8_t *value = opt_calloc(cc->ngates, 1), *chain = opt_calloc(cc->ngates, 1);
    inline_mark_cone(cc, gate_data(t, 0), value);
    inline_mark_cone(cc, gate_dep(t, 0), chain);
    bool ok = true;
    for (GateId g = NUM_ROOTS; g < cc->ngates && ok; g++)
        ok = !value[g] || (!may_trap(&cc->gates[g]) && (cc->gates[g].op != OP_STORE || chain[g]));
    free(value);
    free(chain);
    return ok;
}

/* could a branch of the callee (a state gate other than an exit) trap? */
static bool conditions_may_trap(const Circuit *cc)
{
    uint8_t *mark = opt_calloc(cc->ngates, 1);
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (gate_live(cc, g) && op_has(gt->op, F_STATE) && !op_has(gt->op, F_TERM))
            for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
                inline_mark_cone(cc, gt->in[i], mark);
    }
    bool trap = false;
    for (GateId g = NUM_ROOTS; g < cc->ngates && !trap; g++)
        trap = mark[g] && may_trap(&cc->gates[g]);
    free(mark);
    return trap;
}

static bool callee_gate_fits(const Gate *gt)
{
    return gate_nin(gt) <= 64 && gt->op != OP_CALL && gt->op != OP_INVOKE && gt->op != OP_LOOP_BEGIN &&
           gt->op != OP_LOOP_BACK && (gt->op != OP_ALLOCA || gt->lit <= MAX_ZEROED_ALLOCA);
}

static bool callee_facts(const Func *callee, CalleeFacts *k)
{
    const Circuit *cc = callee->circ;
    *k = (CalleeFacts){.gates = 0};
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (gt->dead)
            continue;
        if (++k->gates > MAX_INVOKE_CALLEE_GATES || !callee_gate_fits(gt))
            return false;
        if (op_has(gt->op, F_TERM)) {
            int kind = gt->op == OP_THROW;
            k->exits[kind][k->n[kind]++] = g;
        }
        k->writes |= gt->op == OP_STORE;
    }
    if (!k->n[0] && !k->n[1])
        return false;
    for (int kind = 0; kind < 2; kind++)
        for (uint32_t i = 0; i < k->n[kind]; i++)
            if (!exit_value_ok(cc, k->exits[kind][i]))
                return false;
    k->conds_trap = conditions_may_trap(cc);
    return true;
}

/* ---- the pin walk: does every path from a successor demand the INVOKE's dependency
 * before anything observable happens? -------------------------------------------- */

typedef enum { EV_NONE, EV_FOUND, EV_TRAP } Eval;

typedef struct {
    const Circuit *c;
    GateId inv;
    uint32_t *seen, stamp;  /* gates evaluated in the current simulation */
    GateId *frame_gate;     /* the simulation's depth-first stack */
    uint32_t *frame_next;
    uint8_t *walked;        /* states the walk has passed */
    uint8_t *live_sel;      /* selectors some state gate reads (semantics section 4) */
    GateId *todo_state;     /* states to walk, each with the input it is entered by */
    uint32_t *todo_arm, ntodo, nwalked;
} Pin;

/* mark the selectors that are live: reached backwards from a state gate's inputs */
static uint8_t *live_selectors(const Circuit *c, GateId *stack)
{
    uint8_t *mark = opt_calloc(c->ngates, 1);
    uint32_t sp = 0;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        if (!gate_live(c, g) || !gate_is_state(c, g))
            continue;
        for (uint32_t i = c->gates[g].nstate; i < gate_nin(&c->gates[g]); i++) {
            GateId x = c->gates[g].in[i];
            if (gate_is_computation(c, x) && !mark[x]) {
                mark[x] = 1;
                stack[sp++] = x;
            }
        }
        while (sp) {
            const Gate *xg = &c->gates[stack[--sp]];
            for (uint32_t i = xg->nstate; i < gate_nin(xg); i++)
                if (gate_is_computation(c, xg->in[i]) && !mark[xg->in[i]]) {
                    mark[xg->in[i]] = 1;
                    stack[sp++] = xg->in[i];
                }
        }
    }
    return mark;
}

/* would this input reach the INVOKE's dependency output (a dependency slot)?
 * 1 found, 0 not the INVOKE, -1 the INVOKE's value or a gate not to enter */
static int touches_invoke(const Pin *p, const Gate *user, uint32_t index)
{
    GateId x = user->in[index];
    if (x == p->inv)
        return slot_kind(user, index) == 1 ? 1 : -1;
    const Circuit *c = p->c;
    return gate_is_computation(c, x) && !op_is_selector(c->gates[x].op) && p->seen[x] != p->stamp ? 0 : -1;
}

/* evaluate input `index` of user as demand does (inputs in order, depth first, a
 * selector's value already fixed): what comes first, the INVOKE's dependency or a
 * gate that may trap? */
static Eval eval_input(Pin *p, GateId user, uint32_t index)
{
    const Circuit *c = p->c;
    int t = touches_invoke(p, &c->gates[user], index);
    if (t)
        return t > 0 ? EV_FOUND : EV_NONE;
    uint32_t sp = 0;
    GateId g = c->gates[user].in[index];
    p->seen[g] = p->stamp;
    p->frame_gate[sp] = g;
    p->frame_next[sp++] = c->gates[g].nstate;
    while (sp) {
        const Gate *gt = &c->gates[p->frame_gate[sp - 1]];
        if (p->frame_next[sp - 1] == gate_nin(gt)) {
            sp--;
            if (may_trap(gt))
                return EV_TRAP;
            continue;
        }
        uint32_t k = p->frame_next[sp - 1]++;
        t = touches_invoke(p, gt, k);
        if (t > 0)
            return EV_FOUND;
        if (t == 0) {
            p->seen[gt->in[k]] = p->stamp;
            p->frame_gate[sp] = gt->in[k];
            p->frame_next[sp++] = c->gates[gt->in[k]].nstate;
        }
    }
    return EV_NONE;
}

/* a state gate (not a join) evaluates its inputs in order */
static Eval eval_state(Pin *p, GateId s)
{
    p->stamp++;
    for (uint32_t k = p->c->gates[s].nstate; k < gate_nin(&p->c->gates[s]); k++) {
        Eval e = eval_input(p, s, k);
        if (e != EV_NONE)
            return e;
    }
    return EV_NONE;
}

/* entering join j by state input `arm`, every live selector evaluates its input
 * `arm` (in no fixed order: any trap among them counts first) */
static Eval eval_join(Pin *p, GateId j, uint32_t arm)
{
    const Circuit *c = p->c;
    Eval found = EV_NONE;
    p->stamp++;
    for (uint32_t i = 0; i < c->gates[j].nuses; i++) {
        Use u = c->gates[j].uses[i];
        const Gate *sg = &c->gates[u.user];
        if (sg->dead || !op_is_selector(sg->op) || u.index != 0 || !p->live_sel[u.user])
            continue;
        uint32_t first = sg->op == OP_VALUE_SELECTOR ? (uint32_t)sg->nstate + sg->ndep : sg->nstate;
        if (first + arm >= gate_nin(sg))
            continue;
        Eval e = eval_input(p, u.user, first + arm);
        if (e == EV_TRAP)
            return EV_TRAP;
        if (e == EV_FOUND)
            found = EV_FOUND;
    }
    return found;
}

static void push_successors(Pin *p, GateId s)
{
    const Gate *st = &p->c->gates[s];
    for (uint32_t i = 0; i < st->nuses; i++) {
        Use u = st->uses[i];
        const Gate *ug = &p->c->gates[u.user];
        if (!ug->dead && op_has(ug->op, F_STATE) && u.index < ug->nstate) {
            p->todo_state[p->ntodo] = u.user;
            p->todo_arm[p->ntodo++] = u.index;
        }
    }
}

/* one state of the walk: true if its path is settled here or may go on */
static bool walk_step(Pin *p, GateId s, uint32_t arm, bool *settled)
{
    const Gate *st = &p->c->gates[s];
    *settled = false;
    if (op_has(st->op, F_JOIN)) {
        Eval e = eval_join(p, s, arm);
        *settled = e == EV_FOUND;
        if (*settled || e == EV_TRAP || st->op == OP_LOOP_BEGIN)
            return *settled;
    }
    if (p->walked[s]) {
        *settled = true; /* its paths are walked already */
        return true;
    }
    p->walked[s] = 1;
    if (++p->nwalked > MAX_PIN_STATES)
        return false;
    if (!op_has(st->op, F_JOIN)) {
        Eval e = eval_state(p, s);
        *settled = e == EV_FOUND;
        if (*settled || e == EV_TRAP || op_has(st->op, F_TERM) || st->op == OP_INVOKE)
            return *settled;
    }
    return true;
}

/* every path from start demands the INVOKE's dependency in time */
static bool pin_walk(Pin *p, GateId start)
{
    p->ntodo = 0;
    p->todo_state[p->ntodo] = start;
    p->todo_arm[p->ntodo++] = 0;
    while (p->ntodo) {
        p->ntodo--;
        GateId s = p->todo_state[p->ntodo];
        bool settled;
        if (!walk_step(p, s, p->todo_arm[p->ntodo], &settled))
            return false;
        if (!settled)
            push_successors(p, s);
    }
    return true;
}

static bool pinned(const Circuit *c, GateId inv, GateId ok, GateId ex, const CalleeFacts *k)
{
    uint32_t n = c->ngates, edges = 1;
    for (GateId g = 0; g < n; g++)
        edges += c->gates[g].nuses;
    Pin p = {.c = c, .inv = inv};
    p.seen = opt_calloc(n, sizeof *p.seen);
    p.frame_gate = opt_calloc(n, sizeof *p.frame_gate);
    p.frame_next = opt_calloc(n, sizeof *p.frame_next);
    p.walked = opt_calloc(n, 1);
    p.live_sel = live_selectors(c, p.frame_gate);
    p.todo_state = opt_calloc(edges, sizeof *p.todo_state);
    p.todo_arm = opt_calloc(edges, sizeof *p.todo_arm);
    bool ok_paths = (!k->n[0] || pin_walk(&p, ok)) && (!k->n[1] || pin_walk(&p, ex));
    free(p.seen);
    free(p.frame_gate);
    free(p.frame_next);
    free(p.walked);
    free(p.live_sel);
    free(p.todo_state);
    free(p.todo_arm);
    return ok_paths;
}

/* ---- the site ------------------------------------------------------------------------ */

/* the INVOKE's IF_SUCCESS (kind 0) or IF_EXCEPTION (kind 1) */
static GateId successor_of(const Circuit *c, GateId inv, int kind)
{
    const Gate *it = &c->gates[inv];
    for (uint32_t i = 0; i < it->nuses; i++) {
        const Gate *u = &c->gates[it->uses[i].user];
        if (!u->dead && u->op == (kind ? OP_IF_EXCEPTION : OP_IF_SUCCESS))
            return it->uses[i].user;
    }
    return NO_GATE;
}

/* deleting the path(s) the callee cannot take is sound */
static bool cut_ok(const Circuit *c, GateId ok, GateId ex, const CalleeFacts *k)
{
    if (k->n[0] && k->n[1])
        return true;
    uint8_t *blocked = opt_calloc(c->ngates, 1);
    blocked[k->n[0] ? ex : ok] = 1;
    uint8_t *reach = reach_states(c, blocked);
    bool fine = unreachable_removal_ok(c, reach);
    free(reach);
    free(blocked);
    return fine;
}

static bool site_ok(const Circuit *c, GateId inv, GateId ok, GateId ex, const CalleeFacts *k)
{
    const Gate *it = &c->gates[inv];
    GateId d = gate_dep(it, 0);
    bool d_quiet = cone_quiet(c, d, false);
    if (!d_quiet && k->conds_trap)
        return false;
    uint8_t *anc = inline_chain_ancestors(c, d);
    bool settled = true;
    for (uint32_t i = 1; i < it->ndata && settled; i++)
        settled = inline_arg_settled(c, gate_data(it, i), anc);
    free(anc);
    if (!settled || !cut_ok(c, ok, ex, k))
        return false;
    return (d_quiet && !k->writes) || pinned(c, inv, ok, ex, k);
}

/* ---- the splice ---------------------------------------------------------------------- */

static GateId *new_map(uint32_t n)
{
    GateId *map = opt_calloc(n, sizeof *map);
    for (uint32_t i = 0; i < n; i++)
        map[i] = NO_GATE;
    return map;
}

static bool cloned_here(const Gate *gt)
{
    return !gt->dead && !op_has(gt->op, F_ROOT | F_TERM) && gt->op != OP_ARG && gt->op != OP_ALLOCA;
}

/* the callee's gates copied into c; map sends each callee gate to its copy */
static GateId *clone_callee(Circuit *c, const Circuit *cc, GateId inv, bool rezero)
{
    GateId *map = new_map(cc->ngates);
    GateId dep = gate_dep(&c->gates[inv], 0);
    map[ROOT_STATE_ENTRY] = c->gates[inv].in[0];
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (!gt->dead && gt->op == OP_ARG)
            map[g] = gate_data(&c->gates[inv], 1 + (uint32_t)gt->lit);
        if (!gt->dead && gt->op == OP_ALLOCA) {
            map[g] = circ_add(c, OP_ALLOCA, TY_I64, 0, gt->lit, NULL, 0, NULL, 0, NULL, 0);
            if (rezero)
                dep = inline_zero_fill(c, map[g], gt->lit, dep);
        }
    }
    map[ROOT_DEPEND_ENTRY] = dep;
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) /* first the gates, then their wires */
        if (cloned_here(&cc->gates[g]))
            map[g] = circ_add(c, (Opcode)cc->gates[g].op, (Type)cc->gates[g].type, cc->gates[g].cond,
                              cc->gates[g].lit, NULL, 0, NULL, 0, NULL, 0);
    GateId in[64];
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (!cloned_here(gt))
            continue;
        for (uint32_t i = 0; i < gate_nin(gt); i++)
            in[i] = map[gt->in[i]];
        circ_set_inputs(c, map[g], in, gt->nstate, in + gt->nstate, gt->ndep, in + gt->nstate + gt->ndep,
                        gt->ndata);
    }
    return map;
}

/* a thrown value's bits, zero-extended to i64 (GET_EXCEPTION) */
static GateId exception_bits(Circuit *c, GateId v)
{
    Type t = (Type)c->gates[v].type;
    if (t == TY_F32 || t == TY_F64)
        v = circ_add(c, OP_BITCAST, t == TY_F32 ? TY_I32 : TY_I64, 0, 0, NULL, 0, NULL, 0, &v, 1);
    if (t == TY_I64 || t == TY_F64)
        return v;
    return circ_add(c, OP_ZEXT, TY_I64, 0, 0, NULL, 0, NULL, 0, &v, 1);
}

typedef struct { GateId state, dep, value; } ExitJoin;

/* the copies of the callee's exits of one kind: one exit's state, dependency and
 * value, or a MERGE of them with a dependency and a value selector */
static ExitJoin join_exits(Circuit *c, const Circuit *cc, const GateId *exits, uint32_t n, const GateId *map,
                           bool bits)
{
    GateId st[MAX_INVOKE_CALLEE_GATES], dp[MAX_INVOKE_CALLEE_GATES], vl[MAX_INVOKE_CALLEE_GATES];
    for (uint32_t i = 0; i < n; i++) {
        const Gate *t = &cc->gates[exits[i]];
        st[i] = map[t->in[0]];
        dp[i] = map[gate_dep(t, 0)];
        vl[i] = t->ndata ? map[gate_data(t, 0)] : NO_GATE;
        if (bits)
            vl[i] = exception_bits(c, vl[i]);
    }
    if (n == 1)
        return (ExitJoin){st[0], dp[0], vl[0]};
    GateId m = circ_add(c, OP_MERGE, TY_NONE, 0, 0, st, n, NULL, 0, NULL, 0);
    ExitJoin j = {m, circ_add(c, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, dp, n, NULL, 0), NO_GATE};
    if (vl[0] != NO_GATE)
        j.value = circ_add(c, OP_VALUE_SELECTOR, (Type)c->gates[vl[0]].type, 0, 0, &m, 1, NULL, 0, vl, n);
    return j;
}

/* succ/thr state NO_GATE: that path is cut */
typedef struct { GateId inv, ok, ex; ExitJoin succ, thr; } Splice;

static bool relay_on(const Circuit *c, GateId user, GateId state)
{
    return c->gates[user].op == OP_DEPEND_RELAY && c->gates[user].nstate && c->gates[user].in[0] == state;
}

/* the INVOKE's value and dependency users take the callee's */
static void rewire_outputs(Circuit *c, const Splice *s)
{
    GateId d = gate_dep(&c->gates[s->inv], 0);
    Type ty = (Type)c->gates[s->inv].type;
    for (uint32_t i = c->gates[s->inv].nuses; i-- > 0;) {
        Use u = c->gates[s->inv].uses[i];
        int kind = slot_kind(&c->gates[u.user], u.index);
        GateId to;
        if (kind == 0)
            continue;
        if (kind == 2)
            to = s->succ.state != NO_GATE ? s->succ.value : opt_const(c, ty, 0);
        else if (relay_on(c, u.user, s->ex))
            to = s->thr.state != NO_GATE ? s->thr.dep : d;
        else
            to = s->succ.state != NO_GATE ? s->succ.dep : d;
        circ_set_input(c, u.user, u.index, to);
    }
}

static void replace_get_exception(Circuit *c, const Splice *s)
{
    const Gate *e = &c->gates[s->ex];
    GateId *gets = opt_calloc(e->nuses, sizeof *gets);
    uint32_t n = 0;
    for (uint32_t i = 0; i < e->nuses; i++)
        if (!c->gates[e->uses[i].user].dead && c->gates[e->uses[i].user].op == OP_GET_EXCEPTION)
            gets[n++] = e->uses[i].user;
    for (uint32_t i = 0; i < n; i++)
        opt_replace(c, gets[i], s->thr.state != NO_GATE ? s->thr.value : opt_const(c, TY_I64, 0));
    free(gets);
}

static void become_block(Circuit *c, GateId s, GateId from)
{
    c->gates[s].op = OP_ORDINARY_BLOCK;
    circ_set_input(c, s, 0, from);
}

static void splice(Circuit *c, const Splice *s)
{
    rewire_outputs(c, s);
    replace_get_exception(c, s);
    become_block(c, s->ok, s->succ.state);
    become_block(c, s->ex, s->thr.state);
    const Gate *it = &c->gates[s->inv];
    uint32_t nin = gate_nin(it);
    GateId *ins = opt_calloc(nin, sizeof *ins);
    for (uint32_t i = 0; i < nin; i++)
        ins[i] = it->in[i];
    circ_kill(c, s->inv);
    for (uint32_t i = 1; i < nin; i++)
        opt_kill_unused(c, ins[i]);
    free(ins);
    if (s->succ.state == NO_GATE || s->thr.state == NO_GATE)
        remove_unreachable(c, false); /* cut_ok checked it */
}

bool inline_invoke(Circuit *c, const Module *m, const Func *f, GateId inv, bool rezero, uint32_t budget,
                   uint32_t *added)
{
    const Func *callee = inline_direct_callee(m, f, inv);
    CalleeFacts k;
    GateId ok = successor_of(c, inv, 0), ex = successor_of(c, inv, 1);
    *added = 0;
    if (!callee || ok == NO_GATE || ex == NO_GATE || !callee_facts(callee, &k) || k.gates > budget ||
        !site_ok(c, inv, ok, ex, &k))
        return false;
    const Circuit *cc = callee->circ;
    uint32_t before = c->ngates;
    GateId *map = clone_callee(c, cc, inv, rezero);
    ExitJoin none = {NO_GATE, NO_GATE, NO_GATE};
    Splice s = {inv, ok, ex, none, none};
    if (k.n[0])
        s.succ = join_exits(c, cc, k.exits[0], k.n[0], map, false);
    if (k.n[1])
        s.thr = join_exits(c, cc, k.exits[1], k.n[1], map, true);
    splice(c, &s);
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++)
        if (map[g] != NO_GATE && map[g] >= before)
            opt_kill_unused(c, map[g]); /* what no exit demands */
    free(map);
    *added = c->ngates - before;
    return true;
}
