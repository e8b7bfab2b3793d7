/* lse.c — load-store elimination along dependency chains (forwarding, redundant loads, dead stores).
 * Needs: optutil's demand points (where effects are forced) and cone checks. */
#include "compiler/opt/optutil.h"

#include <stdlib.h>

/* From each LOAD, walk up its dependency chain past loads and past stores that
 * provably touch other bytes (same base with disjoint constant offsets, distinct
 * ALLOCAs, an ALLOCA and an argument pointer), stopping at calls, selectors and
 * relays (at a DEPEND_AND it follows the one input whose chain can have written the
 * bytes, when the others' chains provably write none of them); the load then takes the value of a store to its bytes (bitcast or
 * truncated and shifted as needed), of an earlier load of them, or zero from an
 * untouched ALLOCA at DEPEND_ENTRY.  Two loads of one address on one dependency
 * become one.  Stores into an ALLOCA that no load can read go, and so does a store
 * overwritten by a later store on its chain with only (quiet) stores between; a load
 * whose value nobody reads leaves the chain.  Users of a removed load's dependency
 * output move to the load's own dependency input.  A load may skip a store only if
 * every place that demanded the load still demands that store, no later. */

enum { MAX_WALK = 64 };

typedef struct {
    GateId base;
    int64_t off;
} Addr;

/* base + constant offset, looking through ADD/SUB of constants */
static Addr decompose(const Circuit *c, GateId a)
{
    Addr r = {a, 0};
    for (int depth = 0; depth < 16 && gate_live(c, r.base); depth++) {
        const Gate *g = &c->gates[r.base];
        uint64_t k;
        if ((g->op != OP_ADD && g->op != OP_SUB) || g->ndata != 2)
            break;
        if (gate_const(c, gate_data(g, 1), &k)) {
            r.off += g->op == OP_ADD ? (int64_t)k : -(int64_t)k;
            r.base = gate_data(g, 0);
        } else if (g->op == OP_ADD && gate_const(c, gate_data(g, 0), &k)) {
            r.off += (int64_t)k;
            r.base = gate_data(g, 1);
        } else {
            break;
        }
    }
    return r;
}

static bool is_op(const Circuit *c, GateId g, int op) { return gate_live(c, g) && c->gates[g].op == op; }

/* two accesses surely touch no common byte */
static bool disjoint(const Circuit *c, Addr a, int64_t aw, Addr b, int64_t bw)
{
    if (a.base == b.base)
        return a.off + aw <= b.off || b.off + bw <= a.off;
    bool aa = is_op(c, a.base, OP_ALLOCA), ba = is_op(c, b.base, OP_ALLOCA);
    return (aa && ba) || (aa && is_op(c, b.base, OP_ARG)) || (ba && is_op(c, a.base, OP_ARG));
}

static int64_t width(Type t) { return ty_bits(t) / 8; }

typedef struct {
    Circuit *c;
    GateId load;
    Type ty;
    Addr addr;
    bool passed_store; /* a store lies between the load and its new value */
} Walk;

/* the value a load of ty at a gets from a store of v (bytes [soff, soff+sw)), or NO_GATE */
static GateId value_from_store(Walk *w, GateId v, Addr s)
{
    Circuit *c = w->c;
    Type vt = (Type)c->gates[v].type;
    int64_t lw = width(w->ty), sw = width(vt);
    if (s.off == w->addr.off && lw == sw)
        return vt == w->ty ? v : circ_unop(c, OP_BITCAST, w->ty, v);
    if (!ty_is_int(vt) || !ty_is_int(w->ty) || w->addr.off < s.off || w->addr.off + lw > s.off + sw)
        return NO_GATE;
    GateId shifted = v;
    if (w->addr.off > s.off)
        shifted = circ_binop(c, OP_LSHR, vt, v, opt_const(c, vt, (uint64_t)(w->addr.off - s.off) * 8));
    return circ_unop(c, OP_TRUNC, w->ty, shifted);
}

/* zero from an ALLOCA no effect has touched yet */
static GateId value_at_entry(Walk *w)
{
    const Circuit *c = w->c;
    if (!is_op(c, w->addr.base, OP_ALLOCA) || w->addr.off < 0 ||
        (uint64_t)(w->addr.off + width(w->ty)) > c->gates[w->addr.base].lit)
        return NO_GATE;
    return opt_const(w->c, w->ty, 0);
}

/* the dependencies on the chain above d (d first), through loads and stores, and the
 * gate the walk stops at; their number */
static uint32_t chain_above(const Circuit *c, GateId d, GateId *anc)
{
    uint32_t n = 0;
    while (n + 1 < MAX_WALK && gate_live(c, d) && (c->gates[d].op == OP_LOAD || c->gates[d].op == OP_STORE)) {
        anc[n++] = d;
        d = gate_dep(&c->gates[d], 0);
    }
    anc[n++] = d;
    return n;
}

/* the chain above d writes none of the load's bytes before it meets one of the n
 * dependencies in anc (or DEPEND_ENTRY): only loads and disjoint stores */
static bool chain_clean(Walk *w, GateId d, const GateId *anc, uint32_t n)
{
    const Circuit *c = w->c;
    for (int steps = 0; steps < MAX_WALK; steps++) {
        for (uint32_t i = 0; i < n; i++)
            if (anc[i] == d)
                return true;
        if (d == ROOT_DEPEND_ENTRY)
            return true;
        if (!gate_live(c, d))
            return false;
        const Gate *g = &c->gates[d];
        if (g->op == OP_STORE) {
            w->passed_store = true;
            int64_t sw = width((Type)c->gates[gate_data(g, 0)].type);
            if (!disjoint(c, w->addr, width(w->ty), decompose(c, gate_data(g, 1)), sw))
                return false;
        } else if (g->op != OP_LOAD) {
            return false;
        }
        d = gate_dep(g, 0);
    }
    return false;
}

/* at DEPEND_AND j: the input whose chain alone can have written the load's bytes
 * (every other input's chain writes none of them since it left that one's: in a
 * race-free program the bytes are then that chain's), or NO_GATE */
static GateId and_source(Walk *w, GateId j)
{
    const Gate *jt = &w->c->gates[j];
    GateId anc[MAX_WALK];
    for (uint32_t k = 0; k < jt->ndep; k++) {
        uint32_t n = chain_above(w->c, gate_dep(jt, k), anc);
        bool clean = true;
        for (uint32_t i = 0; i < jt->ndep && clean; i++)
            clean = i == k || chain_clean(w, gate_dep(jt, i), anc, n);
        if (clean)
            return gate_dep(jt, k);
    }
    return NO_GATE;
}

/* walk the chain above the load; the replacement value or NO_GATE */
static GateId find_value(Walk *w)
{
    Circuit *c = w->c;
    GateId cur = gate_dep(&c->gates[w->load], 0);
    int64_t lw = width(w->ty);
    for (int steps = 0; steps < MAX_WALK; steps++) {
        if (cur == ROOT_DEPEND_ENTRY)
            return value_at_entry(w);
        if (!gate_live(c, cur))
            return NO_GATE;
        const Gate *g = &c->gates[cur];
        if (g->op == OP_STORE) {
            GateId v = gate_data(g, 0);
            Addr s = decompose(c, gate_data(g, 1));
            int64_t sw = width((Type)c->gates[v].type);
            w->passed_store = true;
            if (s.base == w->addr.base && !disjoint(c, w->addr, lw, s, sw))
                return cone_speculatable(c, v) ? value_from_store(w, v, s) : NO_GATE;
            if (!disjoint(c, w->addr, lw, s, sw))
                return NO_GATE;
        } else if (g->op == OP_LOAD) {
            Addr s = decompose(c, gate_data(g, 0));
            if (s.base == w->addr.base && s.off == w->addr.off && width((Type)g->type) == lw)
                return g->type == w->ty ? cur : circ_unop(c, OP_BITCAST, w->ty, cur);
        } else if (g->op == OP_DEPEND_AND) {
            cur = and_source(w, cur);
            if (cur == NO_GATE)
                return NO_GATE;
            continue;
        } else {
            return NO_GATE;
        }
        cur = gate_dep(g, 0);
    }
    return NO_GATE;
}

/* do the places that demand the load's value still demand its dependency input
 * once the load is gone? */
static bool chain_still_demanded(const Circuit *c, GateId load)
{
    GateId dep = gate_dep(&c->gates[load], 0);
    if (dep == ROOT_DEPEND_ENTRY)
        return true;
    Points need = {0}, via_dep = {0}, via_out = {0};
    demand_points(c, load, USE_VALUE, NO_GATE, true, &need);
    demand_points(c, dep, USE_ANY, load, false, &via_dep);
    demand_points(c, load, USE_DEP, NO_GATE, false, &via_out);
    bool ok = points_cover(c, &need, &via_dep, &via_out);
    points_free(&need);
    points_free(&via_dep);
    points_free(&via_out);
    return ok;
}

static void remove_load(Circuit *c, GateId load, GateId value)
{
    GateId dep = gate_dep(&c->gates[load], 0);
    Gate *lt = &c->gates[load];
    for (uint32_t i = lt->nuses; i-- > 0;) {
        Use u = lt->uses[i];
        circ_set_input(c, u.user, u.index, slot_kind(&c->gates[u.user], u.index) == 1 ? dep : value);
        lt = &c->gates[load];
    }
    opt_kill_unused(c, load);
}

/* another load of the same bytes and type on the same dependency input */
static GateId twin_load(const Circuit *c, GateId load)
{
    const Gate *lt = &c->gates[load];
    GateId dep = gate_dep(lt, 0), addr = gate_data(lt, 0);
    const Gate *dt = &c->gates[dep];
    for (uint32_t i = 0; i < dt->nuses; i++) {
        GateId o = dt->uses[i].user;
        const Gate *ot = &c->gates[o];
        if (o != load && !ot->dead && ot->op == OP_LOAD && ot->type == lt->type && gate_dep(ot, 0) == dep &&
            gate_data(ot, 0) == addr && o < load)
            return o;
    }
    return NO_GATE;
}

static bool eliminate(Circuit *c, GateId load)
{
    GateId twin = twin_load(c, load);
    if (twin != NO_GATE) {
        circ_replace_uses(c, load, twin);
        opt_kill_unused(c, load);
        return true;
    }
    const Gate *lt = &c->gates[load];
    Walk w = {.c = c, .load = load, .ty = (Type)lt->type, .addr = decompose(c, gate_data(lt, 0))};
    uint32_t before = c->ngates;
    GateId v = find_value(&w);
    if (v == NO_GATE)
        return false;
    if (w.passed_store && !chain_still_demanded(c, load)) {
        for (GateId g = before; g < c->ngates; g++)
            opt_kill_unused(c, g);
        return false;
    }
    remove_load(c, load, v);
    return true;
}

/* ---- stores nothing can read ---- */

/* every use of address a (an ALLOCA, or it plus a constant) is the address of a
 * STORE; no LOAD, CALL or escape can see the memory */
static bool only_stored_to(const Circuit *c, GateId a, int depth)
{
    const Gate *g = &c->gates[a];
    for (uint32_t i = 0; i < g->nuses; i++) {
        Use u = g->uses[i];
        const Gate *ug = &c->gates[u.user];
        if (ug->dead)
            continue;
        if (ug->op == OP_STORE && u.index == (uint32_t)ug->ndep + 1)
            continue;
        uint64_t k;
        bool offset = (ug->op == OP_ADD || ug->op == OP_SUB) && ug->ndata == 2 && u.index == ug->ndep &&
                      gate_const(c, gate_data(ug, 1), &k);
        if (!offset || depth > 8 || !only_stored_to(c, u.user, depth + 1))
            return false;
    }
    return true;
}

/* drop the stores into an ALLOCA that is never read: their dependency users move to
 * the store's own dependency input; the stored value must be quiet (it is no longer
 * demanded) */
static bool drop_unread_stores(Circuit *c)
{
    bool changed = false;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        const Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_STORE || gt->ndep != 1 || gt->ndata != 2)
            continue;
        Addr a = decompose(c, gate_data(gt, 1));
        if (!is_op(c, a.base, OP_ALLOCA) || !only_stored_to(c, a.base, 0) || !cone_quiet(c, gate_data(gt, 0), true))
            continue;
        circ_replace_uses(c, g, gate_dep(gt, 0));
        opt_kill_unused(c, g);
        changed = true;
    }
    return changed;
}

/* ---- loads nobody reads ---- */

/* a LOAD whose value is unused only orders effects: its dependency users can take
 * its dependency input (its address must be quiet: it is no longer computed) */
static bool drop_unused_loads(Circuit *c)
{
    bool changed = false;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        const Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_LOAD || gt->ndep != 1 || gt->ndata != 1 ||
            !cone_quiet(c, gate_data(gt, 0), true))
            continue;
        bool value_used = false;
        for (uint32_t i = 0; i < gt->nuses && !value_used; i++) {
            const Gate *user = &c->gates[gt->uses[i].user];
            value_used = !user->dead && slot_kind(user, gt->uses[i].index) == 2;
        }
        if (value_used)
            continue;
        circ_replace_uses(c, g, gate_dep(gt, 0));
        opt_kill_unused(c, g);
        changed = true;
    }
    return changed;
}

/* ---- stores overwritten before anything reads them ---- */

/* the single gate using g's dependency output, or NO_GATE */
static GateId only_dep_user(const Circuit *c, GateId g)
{
    const Gate *gt = &c->gates[g];
    GateId user = NO_GATE;
    for (uint32_t i = 0; i < gt->nuses; i++) {
        Use u = gt->uses[i];
        if (c->gates[u.user].dead)
            continue;
        if (user != NO_GATE || slot_kind(&c->gates[u.user], u.index) != 1)
            return NO_GATE;
        user = u.user;
    }
    return user;
}

static bool store_quiet(const Circuit *c, GateId st)
{
    const Gate *gt = &c->gates[st];
    return cone_quiet(c, gate_data(gt, 0), true) && cone_quiet(c, gate_data(gt, 1), true);
}

/* st is followed, along a chain of stores each demanded only by the next, by a store
 * that writes all of its bytes; nothing can read st's bytes in between, and no trap
 * can happen there (every store on the way is quiet) */
static bool overwritten(const Circuit *c, GateId st)
{
    const Gate *gt = &c->gates[st];
    Addr a = decompose(c, gate_data(gt, 1));
    int64_t w = width((Type)c->gates[gate_data(gt, 0)].type);
    GateId cur = st;
    for (int steps = 0; steps < MAX_WALK; steps++) {
        cur = only_dep_user(c, cur);
        if (cur == NO_GATE || c->gates[cur].op != OP_STORE || !store_quiet(c, cur))
            return false;
        const Gate *nt = &c->gates[cur];
        Addr b = decompose(c, gate_data(nt, 1));
        int64_t bw = width((Type)c->gates[gate_data(nt, 0)].type);
        if (b.base == a.base && b.off <= a.off && a.off + w <= b.off + bw)
            return true;
    }
    return false;
}

static bool drop_overwritten_stores(Circuit *c)
{
    bool changed = false;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        const Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_STORE || gt->ndep != 1 || gt->ndata != 2 || !store_quiet(c, g) ||
            !overwritten(c, g))
            continue;
        circ_replace_uses(c, g, gate_dep(gt, 0));
        opt_kill_unused(c, g);
        changed = true;
    }
    return changed;
}

bool opt_lse(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    bool changed = false;
    for (int round = 0; round < 4; round++) {
        bool any = false;
        uint32_t n = c->ngates;
        for (GateId g = NUM_ROOTS; g < n; g++)
            if (gate_live(c, g) && c->gates[g].op == OP_LOAD && c->gates[g].ndep == 1 && c->gates[g].ndata == 1)
                any |= eliminate(c, g);
        any |= drop_unread_stores(c);
        any |= drop_overwritten_stores(c);
        any |= drop_unused_loads(c);
        changed |= any;
        if (!any)
            break;
    }
    return changed;
}
