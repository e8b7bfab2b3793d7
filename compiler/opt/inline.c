/* inline.c — inlining of small straight-line leaf callees at direct CALLs (and, through
 * inline_invoke.c, of small acyclic leaf callees at INVOKEs).
 * Needs: the module (ctx->module) for callees; optutil's demand points and cone checks. */
#include "compiler/opt/inline.h"

#include <stdlib.h>

/* A callee qualifies when its body is straight-line (one RETURN on entry, no other
 * state gate, no THROW, selector, relay or CALL), it has at most 40 gates and is not
 * the caller.  Its gates are cloned into the caller: ARGs become the call's
 * arguments, DEPEND_ENTRY the call's dependency input, ALLOCAs caller ALLOCAs
 * (re-zeroed by stores when the caller has a loop, since ALLOCA memory is zero once
 * per activation), the RETURN's value and dependency replace the call's.  The call
 * runs wherever its value or its dependency is demanded; after inlining those are
 * separate, so it is inlined only if each demand point still gets the whole callee
 * and every argument that could trap or has effects (a CALL runs its arguments). */

/* the callee's single RETURN if its body can be inlined, else NO_GATE */
static GateId straight_line_return(const Func *callee)
{
    const Circuit *cc = callee->circ;
    GateId ret = NO_GATE;
    uint32_t count = 0;
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (gt->dead)
            continue;
        if (++count > MAX_CALLEE_GATES || gate_nin(gt) > 64)
            return NO_GATE;
        if (gt->op == OP_RETURN && ret == NO_GATE && gt->in[0] == ROOT_STATE_ENTRY)
            ret = g;
        else if (op_has(gt->op, F_STATE) || op_is_selector(gt->op) || gt->op == OP_DEPEND_RELAY ||
                 gt->op == OP_CALL || (gt->op == OP_ALLOCA && gt->lit > MAX_ZEROED_ALLOCA))
            return NO_GATE;
    }
    return ret;
}

const Func *inline_direct_callee(const Module *m, const Func *caller, GateId call)
{
    const Circuit *c = caller->circ;
    const Gate *gt = &c->gates[call];
    if (gt->ndep != 1 || gt->ndata < 1 || !gate_live(c, gate_data(gt, 0)))
        return NULL;
    const Gate *sym = &c->gates[gate_data(gt, 0)];
    if (sym->op != OP_SYMBOL || sym->lit >= m->nfuncs)
        return NULL;
    const Func *callee = m->funcs[sym->lit];
    if (callee == caller || callee->nparams != gt->ndata - 1 || callee->ret != gt->type)
        return NULL;
    for (uint32_t i = 0; i < callee->nparams; i++) {
        GateId a = gate_data(gt, i + 1);
        if (!gate_live(c, a) || c->gates[a].type != callee->params[i])
            return NULL;
    }
    return callee;
}

/* mark the callee gates a start gate's cone holds (data and dependency inputs) */
void inline_mark_cone(const Circuit *cc, GateId start, uint8_t *mark)
{
    uint32_t edges = 2;
    for (GateId g = 0; g < cc->ngates; g++)
        edges += gate_nin(&cc->gates[g]);
    GateId *stack = opt_calloc(edges, sizeof(GateId));
    uint32_t sp = 0;
    stack[sp++] = start;
    while (sp) {
        GateId x = stack[--sp];
        if (!gate_is_computation(cc, x) || mark[x])
            continue;
        mark[x] = 1;
        for (uint32_t i = 0; i < gate_nin(&cc->gates[x]); i++)
            stack[sp++] = cc->gates[x].in[i];
    }
    free(stack);
}

typedef struct {
    uint8_t *chain; /* what the RETURN's dependency demands */
    uint8_t *value; /* what the RETURN's value demands */
} CalleeCones;

static CalleeCones callee_cones(const Circuit *cc, GateId ret)
{
    const Gate *rt = &cc->gates[ret];
    CalleeCones k = {opt_calloc(cc->ngates, 1), opt_calloc(cc->ngates, 1)};
    inline_mark_cone(cc, gate_dep(rt, 0), k.chain);
    if (rt->ndata)
        inline_mark_cone(cc, gate_data(rt, 0), k.value);
    return k;
}

/* the value cone has no trap and no effect outside what the chain demands anyway */
static bool value_covered_by_chain(const Circuit *cc, const CalleeCones *k)
{
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++)
        if (k->value[g] && !k->chain[g] && (!op_has(cc->gates[g].op, F_PURE) || op_has(cc->gates[g].op, F_TRAPS)))
            return false;
    return true;
}

/* with effects in the callee, the order in which a demand point reads the inlined
 * value and the inlined chain must not matter: the value may not trap on its own
 * (no division, no call; loads and stores are ordered by their dependencies, and
 * their only failure is an invalid access) */
static bool value_cannot_trap(const Circuit *cc, const CalleeCones *k)
{
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (k->value[g] && (gt->op == OP_CALL || (op_has(gt->op, F_TRAPS) && !op_has(gt->op, F_EFFECT))))
            return false;
    }
    return true;
}

/* the effects the call's dependency input d0 is ordered after (d0 included) */
uint8_t *inline_chain_ancestors(const Circuit *c, GateId d0)
{
    uint8_t *anc = opt_calloc(c->ngates, 1);
    GateId *stack = opt_calloc(c->ngates + 1, sizeof(GateId));
    uint32_t sp = 0;
    if (gate_is_computation(c, d0)) {
        anc[d0] = 1;
        stack[sp++] = d0;
    }
    while (sp) {
        const Gate *gt = &c->gates[stack[--sp]];
        for (uint32_t i = 0; i < gt->ndep; i++) {
            GateId d = gate_dep(gt, i);
            if (gate_is_computation(c, d) && !anc[d]) {
                anc[d] = 1;
                stack[sp++] = d;
            }
        }
    }
    free(stack);
    return anc;
}

/* an argument whose cone may only hold quiet gates and loads that ran before the
 * call (ancestors of its dependency input): reading it later reads a fixed value */
bool inline_arg_settled(const Circuit *c, GateId arg, const uint8_t *anc)
{
    uint8_t *seen = opt_calloc(c->ngates, 1);
    GateId *stack = opt_calloc(c->ngates + 1, sizeof(GateId));
    uint32_t sp = 0;
    bool ok = true;
    stack[sp++] = arg;
    while (sp && ok) {
        GateId x = stack[--sp];
        if (!gate_live(c, x) || seen[x])
            continue;
        seen[x] = 1;
        const Gate *gt = &c->gates[x];
        if (gt->op == OP_LOAD && anc[x])
            continue;
        ok = gate_is_computation(c, x) && op_has(gt->op, F_PURE) && !op_has(gt->op, F_TRAPS);
        for (uint32_t i = 0; i < gt->ndata && ok; i++)
            if (!seen[gate_data(gt, i)])
                stack[sp++] = gate_data(gt, i);
    }
    free(seen);
    free(stack);
    return ok;
}

/* where the inlined body reads ARG i: 1 chain, 2 value (bits) */
static int arg_reads(const Circuit *cc, const CalleeCones *k, uint64_t i)
{
    int r = 0;
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++)
        if (!cc->gates[g].dead && cc->gates[g].op == OP_ARG && cc->gates[g].lit == i)
            r |= (k->chain[g] ? 1 : 0) | (k->value[g] ? 2 : 0);
    return r;
}

/* is anything ordered after the call through its dependency output? */
static bool has_dependency_users(const Circuit *c, GateId call)
{
    const Gate *gt = &c->gates[call];
    for (uint32_t i = 0; i < gt->nuses; i++) {
        const Gate *u = &c->gates[gt->uses[i].user];
        uint32_t at = gt->uses[i].index;
        if (!u->dead && at >= u->nstate && at < (uint32_t)u->nstate + u->ndep)
            return true;
    }
    return false;
}

/* every demand point of the call still demands everything the call did: the
 * callee's effects and traps, the call's dependency input and its arguments */
static bool demands_kept(const Circuit *c, GateId call, const Circuit *cc, GateId ret)
{
    CalleeCones k = callee_cones(cc, ret);
    /* a trap in the returned value happens when the call runs, before every effect
     * ordered after the call; inlined, it would wait for the value's first reader,
     * which may come after those effects (a LOAD reads its dependency first) */
    if (!value_cannot_trap(cc, &k) && has_dependency_users(c, call)) {
        free(k.chain);
        free(k.value);
        return false;
    }
    bool effects = gate_dep(&cc->gates[ret], 0) != ROOT_DEPEND_ENTRY;
    GateId d0 = gate_dep(&c->gates[call], 0);
    Points dv = {0}, dd = {0}, other = {0}, dv_need = {0}, dd_need = {0};
    demand_points(c, call, USE_VALUE, NO_GATE, false, &dv);
    demand_points(c, call, USE_DEP, NO_GATE, false, &dd);
    demand_points(c, call, USE_VALUE, NO_GATE, true, &dv_need);
    demand_points(c, call, USE_DEP, NO_GATE, true, &dd_need);
    bool v_in_d = points_cover(c, &dv_need, &dd, NULL), d_in_v = points_cover(c, &dd_need, &dv, NULL);
    bool ok = value_covered_by_chain(cc, &k) || d_in_v;
    if (ok && effects) {
        /* a CALL runs its arguments before the callee's effects: inlined, an
         * argument could be computed after some of them (a trap would then see
         * their writes), so each must already be settled when the call runs */
        ok = v_in_d && value_cannot_trap(cc, &k);
        uint8_t *anc = ok ? inline_chain_ancestors(c, d0) : NULL;
        for (uint32_t i = 1; i < c->gates[call].ndata && ok; i++)
            ok = inline_arg_settled(c, gate_data(&c->gates[call], i), anc);
        free(anc);
    } else if (ok && d0 != ROOT_DEPEND_ENTRY) {
        demand_points(c, d0, USE_ANY, call, false, &other);
        ok = points_cover(c, &dv_need, &dd, &other);
    }
    if (ok && !effects && !value_cannot_trap(cc, &k)) {
        /* the callee's own trap must not overtake one in an argument */
        uint8_t *anc = inline_chain_ancestors(c, d0);
        for (uint32_t i = 1; i < c->gates[call].ndata && ok; i++)
            ok = inline_arg_settled(c, gate_data(&c->gates[call], i), anc);
        free(anc);
    }
    const Gate *ct = &c->gates[call];
    uint8_t *anc = has_dependency_users(c, call) ? inline_chain_ancestors(c, d0) : NULL;
    for (uint32_t i = 1; i < ct->ndata && ok; i++) {
        if (cone_quiet(c, gate_data(ct, i), true))
            continue;
        /* an argument that may trap or has effects runs when the call does, before
         * every effect ordered after the call: read only by the inlined value, it
         * would wait for the value's first reader (as a trap in the value would)
         * unless it is settled before the call's dependency input */
        int reads = arg_reads(cc, &k, i - 1);
        ok = ((reads & 1) && v_in_d) ||
             ((reads & 2) && d_in_v && (!anc || inline_arg_settled(c, gate_data(ct, i), anc)));
    }
    free(anc);
    points_free(&dv);
    points_free(&dd);
    points_free(&other);
    points_free(&dv_need);
    points_free(&dd_need);
    free(k.chain);
    free(k.value);
    return ok;
}

bool inline_has_loop(const Circuit *c)
{
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (gate_live(c, g) && c->gates[g].op == OP_LOOP_BEGIN)
            return true;
    return false;
}

/* zero an inlined ALLOCA with stores chained after dep; returns the last store */
GateId inline_zero_fill(Circuit *c, GateId alloca, uint64_t size, GateId dep)
{
    for (uint64_t off = 0; off < size;) {
        Type t = size - off >= 8 ? TY_I64 : TY_I8;
        GateId addr = off ? circ_binop(c, OP_ADD, TY_I64, alloca, opt_const(c, TY_I64, off)) : alloca;
        GateId data[2] = {opt_const(c, t, 0), addr};
        dep = circ_add(c, OP_STORE, TY_NONE, 0, 0, NULL, 0, &dep, 1, data, 2);
        off += (uint64_t)ty_bits(t) / 8;
    }
    return dep;
}

/* mark what the RETURN demands in the callee */
static uint8_t *demanded_in_callee(const Circuit *cc, GateId ret)
{
    uint8_t *mark = opt_calloc(cc->ngates, 1);
    GateId *stack = opt_calloc(cc->ngates, sizeof(GateId));
    uint32_t sp = 0;
    stack[sp++] = ret;
    while (sp) {
        const Gate *gt = &cc->gates[stack[--sp]];
        for (uint32_t i = gt->nstate; i < gate_nin(gt); i++)
            if (gate_is_computation(cc, gt->in[i]) && !mark[gt->in[i]]) {
                mark[gt->in[i]] = 1;
                stack[sp++] = gt->in[i];
            }
    }
    free(stack);
    return mark;
}

static GateId clone_gate(Circuit *c, const Circuit *cc, GateId x, const GateId *map)
{
    const Gate *gt = &cc->gates[x];
    uint32_t n = gate_nin(gt);
    GateId *in = opt_calloc(n + 1, sizeof *in); /* a call may have any number of arguments */
    for (uint32_t i = 0; i < n; i++)
        in[i] = map[gt->in[i]];
    GateId g = circ_add(c, (Opcode)gt->op, (Type)gt->type, gt->cond, gt->lit, NULL, 0, in, gt->ndep,
                        in + gt->ndep, gt->ndata);
    free(in);
    return g;
}

static uint32_t inline_call(Circuit *c, GateId call, const Func *callee, GateId ret, bool rezero)
{
    const Circuit *cc = callee->circ;
    GateId *map = opt_calloc(cc->ngates, sizeof(GateId));
    uint8_t *mark = demanded_in_callee(cc, ret);
    GateId entry_dep = gate_dep(&c->gates[call], 0);
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++)
        if (mark[g] && cc->gates[g].op == OP_ALLOCA) {
            map[g] = circ_add(c, OP_ALLOCA, TY_I64, 0, cc->gates[g].lit, NULL, 0, NULL, 0, NULL, 0);
            if (rezero)
                entry_dep = inline_zero_fill(c, map[g], cc->gates[g].lit, entry_dep);
        }
    map[ROOT_DEPEND_ENTRY] = entry_dep;
    uint32_t n, cloned = 0;
    GateId *order = computation_postorder(cc, &n);
    for (uint32_t i = 0; i < n; i++) {
        GateId x = order[i];
        if (!mark[x] || cc->gates[x].op == OP_ALLOCA)
            continue;
        map[x] = cc->gates[x].op == OP_ARG ? gate_data(&c->gates[call], 1 + (uint32_t)cc->gates[x].lit)
                                           : clone_gate(c, cc, x, map);
        cloned++;
    }
    const Gate *rt = &cc->gates[ret];
    GateId dep_out = map[gate_dep(rt, 0)], value_out = rt->ndata ? map[gate_data(rt, 0)] : NO_GATE;
    for (uint32_t i = c->gates[call].nuses; i-- > 0;) {
        Use u = c->gates[call].uses[i];
        circ_set_input(c, u.user, u.index, slot_kind(&c->gates[u.user], u.index) == 1 ? dep_out : value_out);
    }
    opt_kill_unused(c, call);
    free(order);
    free(mark);
    free(map);
    return cloned;
}

bool opt_inline(PassContext *ctx, Func *f)
{
    Circuit *c = f->circ;
    const Module *m = ctx->module;
    bool rezero = inline_has_loop(c), changed = false;
    uint32_t n = c->ngates;
    for (GateId g = NUM_ROOTS; g < n; g++) {
        if (!gate_live(c, g))
            continue;
        uint32_t added;
        if (c->gates[g].op == OP_INVOKE && inline_invoke(c, m, f, g, rezero, ctx->inline_budget, &added)) {
            ctx->inline_budget -= added < ctx->inline_budget ? added : ctx->inline_budget;
            changed = true;
        }
        if (c->gates[g].op != OP_CALL)
            continue;
        const Func *callee = inline_direct_callee(m, f, g);
        GateId ret = callee ? straight_line_return(callee) : NO_GATE;
        if (ret == NO_GATE || ctx->inline_budget < MAX_CALLEE_GATES || !demands_kept(c, g, callee->circ, ret))
            continue;
        ctx->inline_budget -= inline_call(c, g, callee, ret, rezero);
        changed = true;
    }
    return changed;
}
