/* tv_exec.c — symbolic execution of one function into a term of its outcome: the
 * state machine, demand-driven evaluation, selectors, relays and loop iterations of
 * docs/semantics.md §3-6 (the reference interpreter oracle/interp.c, step for step),
 * with values as Z3 terms.  Every path is run from the start under a vector of branch
 * decisions (no state is copied); the paths partition the inputs, so the outcome is an
 * if-then-else over their path conditions.  Traps and invalid accesses do not fork:
 * they are exits ordered along the path.  Loops stop after `unroll` iterations per
 * entry with outcome "bound". */
#include "fuzz/tv_internal.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DECISIONS = 4096, MAX_STEPS = 200000, MAX_EXITS = 4096 };

typedef struct { Z3_ast cond; int kind; Z3_ast mem; } Exit;

/* the analysis of a function, shared by all its paths */
typedef struct {
    const Func *f;
    const Circuit *c;
    uint32_t n;
    GateId *succ, *alt;
    uint32_t *succ_in;
    uint8_t *live;   /* selectors a state gate's operand reaches */
    uint8_t **body;  /* per LOOP_BEGIN: its loop's state gates (NULL otherwise) */
} Shape;

typedef struct {
    TvCtx *t;
    const Shape *s;
    Z3_ast *val;
    GateId *prov;     /* per value: 0, or the ALLOCA it points into (then val is the offset) */
    Z3_ast *objects;  /* per ALLOCA: its bytes (array offset -> byte) */
    uint8_t *cur, *busy, *passed;
    uint32_t *iters;
    Z3_ast mem, pc;
    uint8_t *dec, *arity; /* decisions to follow; arities seen */
    uint32_t ndec, pos, steps;
    Exit exits[MAX_EXITS];
    uint32_t nexits;
    bool ended;
    TvOut end;
} Path;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();
    return p;
}

static bool is_selector(const Gate *g) { return g->op == OP_VALUE_SELECTOR || g->op == OP_DEPEND_SELECTOR; }

/* ---- the shape ---------------------------------------------------------------- */
static void find_successor(Shape *s, GateId g)
{
    const Gate *G = circ_gate(s->c, g);
    for (uint32_t k = 0; k < G->nuses; k++) {
        const Use *u = &G->uses[k];
        const Gate *U = circ_gate(s->c, u->user);
        if (U->dead || !op_has(U->op, F_STATE) || u->index >= U->nstate)
            continue;
        if (G->op == OP_IF_BRANCH && U->op == OP_IF_FALSE) {
            s->alt[g] = u->user;
        } else if (s->succ[g] == NO_GATE || U->op == OP_IF_SUCCESS) {
            s->succ[g] = u->user;
            s->succ_in[g] = u->index;
        }
    }
}

static void mark_live(Shape *s)
{
    GateId *work = xcalloc(s->n, sizeof *work);
    uint32_t nw = 0;
    for (GateId g = 0; g < s->n; g++)
        if (!circ_gate(s->c, g)->dead && op_has(circ_gate(s->c, g)->op, F_STATE))
            s->live[g] = 1, work[nw++] = g;
    while (nw) {
        const Gate *G = circ_gate(s->c, work[--nw]);
        for (uint32_t i = G->nstate; i < gate_nin(G); i++)
            if (G->in[i] < s->n && !s->live[G->in[i]])
                s->live[G->in[i]] = 1, work[nw++] = G->in[i];
    }
    free(work);
}

/* the state gates that reach h's LOOP_BACK without passing h */
static void find_body(Shape *s, GateId h)
{
    const Gate *H = circ_gate(s->c, h);
    if (H->nstate < 2 || H->in[1] >= s->n)
        return;
    uint8_t *body = s->body[h] = xcalloc(s->n, 1);
    GateId *work = xcalloc(s->n, sizeof *work);
    uint32_t nw = 0;
    body[H->in[1]] = 1;
    work[nw++] = H->in[1];
    while (nw) {
        const Gate *S = circ_gate(s->c, work[--nw]);
        for (uint32_t i = 0; i < S->nstate; i++)
            if (S->in[i] < s->n && S->in[i] != h && !body[S->in[i]])
                body[S->in[i]] = 1, work[nw++] = S->in[i];
    }
    free(work);
}

static void shape_init(Shape *s, const Func *f)
{
    s->f = f;
    s->c = f->circ;
    s->n = f->circ->ngates;
    s->succ = xcalloc(s->n, sizeof *s->succ);
    s->alt = xcalloc(s->n, sizeof *s->alt);
    s->succ_in = xcalloc(s->n, sizeof *s->succ_in);
    s->live = xcalloc(s->n, 1);
    s->body = xcalloc(s->n, sizeof *s->body);
    for (GateId g = 0; g < s->n; g++) {
        s->succ[g] = s->alt[g] = NO_GATE;
        const Gate *G = circ_gate(s->c, g);
        if (!G->dead && op_has(G->op, F_STATE))
            find_successor(s, g);
    }
    mark_live(s);
    for (GateId g = 0; g < s->n; g++)
        if (!circ_gate(s->c, g)->dead && circ_gate(s->c, g)->op == OP_LOOP_BEGIN)
            find_body(s, g);
}

static void shape_free(Shape *s)
{
    for (GateId g = 0; g < s->n; g++)
        free(s->body[g]);
    free(s->body);
    free(s->succ);
    free(s->alt);
    free(s->succ_in);
    free(s->live);
}

/* ---- path bookkeeping ---------------------------------------------------------- */
static Z3_ast kind_term(TvCtx *t, int kind) { return tv_bv(t, (uint64_t)kind, 8); }

/* the path ends here with kind (no value) */
static bool end_path(Path *p, int kind)
{
    TvCtx *t = p->t;
    p->ended = true;
    p->end = (TvOut){kind_term(t, kind), tv_bv(t, 0, 64), tv_bv(t, 0, 8), p->mem};
    t->hit_bound |= kind == TVK_BOUND;
    return false;
}

/* where cond holds, the run ends here with kind */
static bool exit_if(Path *p, Z3_ast cond, int kind)
{
    Z3_ast c = Z3_simplify(p->t->z, cond);
    if (Z3_get_bool_value(p->t->z, c) == Z3_L_FALSE)
        return true;
    if (Z3_get_bool_value(p->t->z, c) == Z3_L_TRUE || p->nexits == MAX_EXITS)
        return end_path(p, p->nexits == MAX_EXITS ? TVK_BOUND : kind);
    p->exits[p->nexits++] = (Exit){c, kind, p->mem};
    return true;
}

static bool step(Path *p) { return ++p->steps <= MAX_STEPS || end_path(p, TVK_BOUND); }

/* every cached gate downstream of g is stale (as the interpreter's invalidate_users) */
static void invalidate_users(Path *p, GateId g)
{
    const Gate *X = circ_gate(p->s->c, g);
    for (uint32_t k = 0; k < X->nuses; k++) {
        const Use *u = &X->uses[k];
        const Gate *Y = circ_gate(p->s->c, u->user);
        if (u->user >= p->s->n || !p->cur[u->user] || Y->dead || is_selector(Y) ||
            op_has(Y->op, F_STATE | F_ROOT) || u->index < Y->nstate)
            continue;
        p->cur[u->user] = 0;
        invalidate_users(p, u->user);
    }
}

/* ---- demand-driven evaluation ----------------------------------------------------- */
static bool demand(Path *p, GateId g);

static Z3_ast load_bytes(Path *p, Z3_ast mem, Z3_ast addr, unsigned size)
{
    Z3_context z = p->t->z;
    Z3_ast v = NULL;
    for (unsigned i = size; i-- > 0;) {
        Z3_ast b = Z3_mk_select(z, mem, Z3_mk_bvadd(z, addr, tv_bv(p->t, i, 64)));
        v = v ? Z3_mk_concat(z, v, b) : b;
    }
    return v;
}

/* the access of size bytes at addr lies inside the harness buffer */
static Z3_ast access_ok(Path *p, Z3_ast addr, unsigned size)
{
    Z3_context z = p->t->z;
    Z3_ast off = Z3_mk_bvsub(z, addr, tv_bv(p->t, HEAP_ADDR, 64));
    return Z3_mk_bvule(z, off, tv_bv(p->t, HEAP_SIZE - size, 64));
}

/* the access of size bytes at offset off lies inside ALLOCA a */
static Z3_ast object_access_ok(Path *p, GateId a, Z3_ast off, unsigned size)
{
    uint64_t n = circ_gate(p->s->c, a)->lit;
    if (n < size)
        return Z3_mk_false(p->t->z);
    return Z3_mk_bvule(p->t->z, off, tv_bv(p->t, n - size, 64));
}

/* LOAD (addr), STORE (value, addr): through the harness buffer or an ALLOCA object */
static bool compute_memory(Path *p, const Gate *G, GateId g)
{
    Z3_context z = p->t->z;
    GateId at = gate_data(G, G->op == OP_LOAD ? 0 : 1), obj = p->prov[at];
    Z3_ast addr = p->val[at];
    Type ty = G->op == OP_LOAD ? (Type)G->type : (Type)circ_gate(p->s->c, gate_data(G, 0))->type;
    unsigned size = (unsigned)ty_bits(ty) / 8;
    if (G->op == OP_STORE && p->prov[gate_data(G, 0)])
        return end_path(p, TVK_INVALID); /* an address stored as a value escapes */
    Z3_ast ok = obj ? object_access_ok(p, obj, addr, size) : access_ok(p, addr, size);
    if (!exit_if(p, Z3_mk_not(z, ok), TVK_INVALID))
        return false;
    Z3_ast *mem = obj ? &p->objects[obj] : &p->mem;
    if (G->op == OP_LOAD) {
        p->prov[g] = 0;
        p->val[g] = load_bytes(p, *mem, addr, size);
        return true;
    }
    Z3_ast v = p->val[gate_data(G, 0)];
    for (unsigned i = 0; i < size; i++)
        *mem = Z3_mk_store(z, *mem, Z3_mk_bvadd(z, addr, tv_bv(p->t, i, 64)), Z3_mk_extract(z, 8 * i + 7, 8 * i, v));
    return true;
}

/* provenance (docs/semantics.md §6.3, oracle/mem.c address_rule): an address may be
 * offset by a plain integer, and two addresses into one object may be subtracted or
 * compared; anything else makes the run invalid.  Addresses are offsets into their
 * object; a compare sees them from one base (the interpreter's first ALLOCA base). */
static bool address_rule(Path *p, const Gate *G, Z3_ast *a, Z3_ast *b, GateId *prov)
{
    GateId pa = p->prov[gate_data(G, 0)], pb = G->ndata > 1 ? p->prov[gate_data(G, 1)] : 0;
    *prov = 0;
    if (!pa && !pb)
        return true;
    if (G->ndata == 2 && ((G->op == OP_ADD && (!pa || !pb)) || (G->op == OP_SUB && !pb))) {
        *prov = pa ? pa : pb;
        return true;
    }
    if (G->ndata == 2 && G->op == OP_ICMP && pa == pb) {
        Z3_ast base = tv_bv(p->t, 0x00007f0001000000ull, 64);
        *a = Z3_mk_bvadd(p->t->z, *a, base);
        *b = Z3_mk_bvadd(p->t->z, *b, base);
    }
    return (G->op == OP_SUB || G->op == OP_ICMP) && pa == pb ? true : end_path(p, TVK_INVALID);
}

static bool compute_pure(Path *p, const Gate *G, GateId g)
{
    Z3_ast a = p->val[gate_data(G, 0)], b = G->ndata > 1 ? p->val[gate_data(G, 1)] : NULL;
    Type in_ty = (Type)circ_gate(p->s->c, gate_data(G, 0))->type;
    Z3_ast div0, ovf;
    if (!address_rule(p, G, &a, &b, &p->prov[g]))
        return false;
    p->val[g] = tv_pure(p->t, G, in_ty, a, b, &div0, &ovf);
    if (div0 && !exit_if(p, div0, TVK_DIV0))
        return false;
    return !ovf || exit_if(p, ovf, TVK_OVERFLOW);
}

static bool compute(Path *p, GateId g)
{
    const Gate *G = circ_gate(p->s->c, g);
    if (!step(p))
        return false;
    switch (G->op) {
    case OP_CONSTANT:
        p->val[g] = tv_bv(p->t, G->lit, (unsigned)ty_bits((Type)G->type));
        p->prov[g] = 0;
        return true;
    case OP_ARG:
        if (G->lit >= p->t->nargs)
            return end_path(p, TVK_INVALID);
        p->val[g] = p->t->args[G->lit];
        p->prov[g] = 0;
        return true;
    case OP_ALLOCA: /* offset 0 into a fresh zero-filled object */
        p->val[g] = tv_bv(p->t, 0, 64);
        p->prov[g] = g;
        p->objects[g] = Z3_mk_const_array(p->t->z, p->t->addr, tv_bv(p->t, 0, 8));
        return true;
    case OP_DEPEND_RELAY:
        return true;
    case OP_LOAD: case OP_STORE:
        return compute_memory(p, G, g);
    default:
        return compute_pure(p, G, g);
    }
}

/* can x be demanded at all now (the interpreter's push_checked)? */
static bool demandable(Path *p, GateId x)
{
    const Gate *X = circ_gate(p->s->c, x);
    if (is_selector(X) || X->dead || op_has(X->op, F_STATE | F_ROOT) || p->busy[x])
        return false;
    return X->op != OP_DEPEND_RELAY || p->passed[x];
}

static bool demand(Path *p, GateId g)
{
    if (g >= p->s->n)
        return end_path(p, TVK_INVALID);
    if (p->cur[g])
        return true;
    if (!demandable(p, g))
        return end_path(p, TVK_INVALID);
    const Gate *G = circ_gate(p->s->c, g);
    p->busy[g] = 1;
    for (uint32_t i = G->nstate; i < gate_nin(G); i++)
        if (!demand(p, G->in[i]))
            return false;
    p->busy[g] = 0;
    if (!compute(p, g))
        return false;
    p->cur[g] = 1;
    return true;
}

/* ---- control ------------------------------------------------------------------- */
static void reset_gate(Path *p, GateId x)
{
    p->cur[x] = 0;
    p->passed[x] = 0;
    invalidate_users(p, x);
}

/* control arrives at state gate s: its relays start a new instance */
static bool visit(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->s->c, s);
    for (uint32_t k = 0; k < S->nuses; k++) {
        GateId x = S->uses[k].user;
        if (circ_gate(p->s->c, x)->op == OP_DEPEND_RELAY && !circ_gate(p->s->c, x)->dead) {
            reset_gate(p, x);
            p->passed[x] = 1;
        }
    }
    return step(p);
}

/* the live selectors and relays of state gate s are what a new iteration forgets */
static void forget_owned(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->s->c, s);
    for (uint32_t k = 0; k < S->nuses; k++) {
        GateId x = S->uses[k].user;
        const Gate *X = circ_gate(p->s->c, x);
        if (!X->dead && S->uses[k].index == 0 &&
            ((is_selector(X) && p->s->live[x]) || X->op == OP_DEPEND_RELAY))
            reset_gate(p, x);
    }
}

static bool is_live_selector_of(const Path *p, const Use *u)
{
    const Gate *X = circ_gate(p->s->c, u->user);
    return !X->dead && is_selector(X) && u->index == 0 && p->s->live[u->user];
}

/* enter join j through state input idx (the interpreter's enter_join) */
static bool enter_join(Path *p, GateId j, uint32_t idx)
{
    const Gate *J = circ_gate(p->s->c, j);
    Z3_ast *taken = xcalloc(J->nuses, sizeof *taken);
    GateId *taken_prov = xcalloc(J->nuses, sizeof *taken_prov);
    bool ok = true;
    for (uint32_t k = 0; k < J->nuses && ok; k++) {
        if (!is_live_selector_of(p, &J->uses[k]))
            continue;
        const Gate *S = circ_gate(p->s->c, J->uses[k].user);
        bool value = S->op == OP_VALUE_SELECTOR;
        if (idx >= (value ? S->ndata : S->ndep))
            ok = end_path(p, TVK_INVALID);
        else
            ok = demand(p, value ? gate_data(S, idx) : gate_dep(S, idx));
        taken[k] = ok && value ? p->val[gate_data(S, idx)] : NULL;
        taken_prov[k] = ok && value ? p->prov[gate_data(S, idx)] : 0;
    }
    if (ok && J->op == OP_LOOP_BEGIN && p->s->body[j])
        for (GateId s = 0; s < p->s->n; s++)
            if (p->s->body[j][s])
                forget_owned(p, s);
    for (uint32_t k = 0; k < J->nuses && ok; k++) {
        if (!is_live_selector_of(p, &J->uses[k]))
            continue;
        GateId sel = J->uses[k].user;
        p->val[sel] = taken[k];
        p->prov[sel] = taken_prov[k];
        p->cur[sel] = 1;
        invalidate_users(p, sel);
    }
    free(taken);
    free(taken_prov);
    return ok;
}

static bool go(Path *p, GateId next, uint32_t idx)
{
    const Gate *N = circ_gate(p->s->c, next);
    if (N->op == OP_LOOP_BEGIN) {
        p->iters[next] = idx == 1 ? p->iters[next] + 1 : 0;
        if (p->iters[next] > p->t->opt.unroll)
            return end_path(p, TVK_BOUND);
    }
    if ((N->op == OP_MERGE || N->op == OP_LOOP_BEGIN) && !enter_join(p, next, idx))
        return false;
    return visit(p, next);
}

/* choose among n options whose conditions partition the inputs: an option whose
 * condition simplifies to false is never taken; a fork follows p->dec or takes the
 * first and records the arity */
static int decide(Path *p, Z3_ast *conds, int n)
{
    Z3_context z = p->t->z;
    int open[256], nopen = 0;
    for (int i = 0; i < n && nopen < 256; i++) {
        conds[i] = Z3_simplify(z, conds[i]);
        if (Z3_get_bool_value(z, conds[i]) != Z3_L_FALSE)
            open[nopen++] = i;
    }
    if (nopen <= 1)
        return nopen ? open[0] : -1;
    if (p->pos == MAX_DECISIONS)
        return end_path(p, TVK_BOUND), -1;
    int choice = p->pos < p->ndec ? p->dec[p->pos] : 0;
    p->arity[p->pos++] = (uint8_t)nopen;
    p->pc = Z3_mk_and(z, 2, (Z3_ast[]){p->pc, conds[open[choice]]});
    return open[choice];
}

static GateId branch(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->s->c, s);
    Z3_context z = p->t->z;
    if (!demand(p, gate_data(S, 0)))
        return NO_GATE;
    if (p->prov[gate_data(S, 0)])
        return end_path(p, TVK_INVALID), NO_GATE;
    Z3_ast bit = Z3_mk_extract(z, 0, 0, p->val[gate_data(S, 0)]);
    Z3_ast conds[2] = {Z3_mk_eq(z, bit, tv_bv(p->t, 1, 1)), Z3_mk_eq(z, bit, tv_bv(p->t, 0, 1))};
    int c = decide(p, conds, 2);
    return c < 0 ? NO_GATE : c == 0 ? p->s->succ[s] : p->s->alt[s];
}

/* SWITCH_BRANCH: the first case whose value matches (in use order), else the default
 * (or invalid when there is none) */
static GateId switch_branch(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->s->c, s);
    Z3_context z = p->t->z;
    if (!demand(p, gate_data(S, 0)))
        return NO_GATE;
    if (p->prov[gate_data(S, 0)])
        return end_path(p, TVK_INVALID), NO_GATE;
    Z3_ast v = p->val[gate_data(S, 0)], none = Z3_mk_true(z);
    unsigned w = (unsigned)ty_bits((Type)circ_gate(p->s->c, gate_data(S, 0))->type);
    Z3_ast conds[256];
    GateId targets[256], dflt = NO_GATE;
    int n = 0;
    for (uint32_t k = 0; k < S->nuses && n < 255; k++) {
        const Gate *U = circ_gate(p->s->c, S->uses[k].user);
        if (U->dead || S->uses[k].index >= U->nstate)
            continue;
        if (U->op == OP_DEFAULT_CASE)
            dflt = S->uses[k].user;
        if (U->op != OP_SWITCH_CASE)
            continue;
        Z3_ast eq = Z3_mk_eq(z, v, tv_bv(p->t, U->lit, w));
        conds[n] = Z3_mk_and(z, 2, (Z3_ast[]){none, eq});
        targets[n++] = S->uses[k].user;
        none = Z3_mk_and(z, 2, (Z3_ast[]){none, Z3_mk_not(z, eq)});
    }
    conds[n] = none;
    targets[n++] = dflt;
    int c = decide(p, conds, n);
    if (c >= 0 && targets[c] == NO_GATE)
        end_path(p, TVK_INVALID);
    return c < 0 ? NO_GATE : targets[c];
}

/* RETURN / THROW: dependencies, then the value */
static bool finish(Path *p, GateId t)
{
    const Gate *T = circ_gate(p->s->c, t);
    TvCtx *tc = p->t;
    for (uint32_t i = 0; i < T->ndep; i++)
        if (!demand(p, gate_dep(T, i)))
            return false;
    Z3_ast v = tv_bv(tc, 0, 64);
    Type ty = TY_NONE;
    if (T->ndata) {
        if (!demand(p, gate_data(T, 0)))
            return false;
        if (p->prov[gate_data(T, 0)])
            return end_path(p, TVK_INVALID); /* an address escapes */
        ty = (Type)circ_gate(p->s->c, gate_data(T, 0))->type;
        v = ty_bits(ty) < 64 ? Z3_mk_zero_ext(tc->z, 64 - (unsigned)ty_bits(ty), p->val[gate_data(T, 0)])
                             : p->val[gate_data(T, 0)];
    }
    if (T->op == OP_RETURN && ty != p->s->f->ret)
        return end_path(p, TVK_INVALID);
    p->ended = true;
    p->end = (TvOut){kind_term(tc, T->op == OP_THROW ? TVK_THROW : TVK_RETURN), v, tv_bv(tc, ty, 8), p->mem};
    return true;
}

static void run_states(Path *p)
{
    GateId cur = ROOT_STATE_ENTRY;
    if (!visit(p, cur))
        return;
    for (;;) {
        const Gate *G = circ_gate(p->s->c, cur);
        GateId next = p->s->succ[cur];
        uint32_t idx = p->s->succ_in[cur];
        if (G->op == OP_RETURN || G->op == OP_THROW) {
            finish(p, cur);
            return;
        }
        if (G->op == OP_IF_BRANCH || G->op == OP_SWITCH_BRANCH) {
            next = G->op == OP_IF_BRANCH ? branch(p, cur) : switch_branch(p, cur);
            idx = 0;
        }
        if (p->ended)
            return;
        if (next == NO_GATE) {
            end_path(p, TVK_INVALID);
            return;
        }
        if (!go(p, next, idx))
            return;
        cur = next;
    }
}

/* ---- paths into one term --------------------------------------------------------- */
static TvOut out_ite(TvCtx *t, Z3_ast c, TvOut a, TvOut b)
{
    Z3_context z = t->z;
    return (TvOut){Z3_mk_ite(z, c, a.kind, b.kind), Z3_mk_ite(z, c, a.val, b.val),
                   Z3_mk_ite(z, c, a.ty, b.ty), Z3_mk_ite(z, c, a.mem, b.mem)};
}

/* the path's outcome: its exits in order, then its end */
static TvOut path_outcome(Path *p)
{
    TvCtx *t = p->t;
    TvOut o = p->end;
    for (uint32_t i = p->nexits; i-- > 0;) {
        const Exit *e = &p->exits[i];
        TvOut x = {kind_term(t, e->kind), tv_bv(t, 0, 64), tv_bv(t, 0, 8), e->mem};
        o = out_ite(t, e->cond, x, o);
    }
    return o;
}

static void path_reset(Path *p, uint32_t n)
{
    memset(p->cur, 0, n);
    memset(p->busy, 0, n);
    memset(p->passed, 0, n);
    memset(p->iters, 0, n * sizeof *p->iters);
    p->cur[ROOT_DEPEND_ENTRY] = 1;
    p->mem = p->t->init_mem;
    p->pc = Z3_mk_true(p->t->z);
    p->pos = p->steps = p->nexits = 0;
    p->ended = false;
}

/* the next decision vector after a path that made p->pos decisions; false when all
 * paths are done */
static bool next_decisions(Path *p)
{
    for (uint32_t i = p->pos; i-- > 0;) {
        uint8_t d = i < p->ndec ? p->dec[i] : 0;
        if (d + 1 < p->arity[i]) {
            for (uint32_t k = p->ndec; k < i; k++)
                p->dec[k] = 0;
            p->dec[i] = d + 1;
            p->ndec = i + 1;
            return true;
        }
    }
    return false;
}

static const char *unsupported(const Func *f)
{
    const Circuit *c = f->circ;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        const Gate *G = circ_gate(c, g);
        if (G->dead)
            continue;
        if (G->op == OP_CALL || G->op == OP_SYMBOL)
            return "CALL (calls are neither inlined nor abstracted yet)";
        if (G->op == OP_FMOD || G->op == OP_FEXP)
            return G->op == OP_FMOD ? "FMOD (C fmod has no exact encoding here)" : "FEXP (C pow has no exact encoding here)";
        if (op_has(G->op, F_PURE) && G->op != OP_CONSTANT && G->op != OP_ARG && G->op != OP_ALLOCA &&
            !tv_pure_supported(G->op))
            return op_info[G->op].name;
    }
    return NULL;
}

static bool run_paths(Path *p, uint32_t n, TvOut *out)
{
    TvCtx *t = p->t;
    Z3_ast conds[4096];
    TvOut outs[4096];
    uint32_t npaths = 0, limit = t->opt.max_paths < 4096 ? t->opt.max_paths : 4096;
    do {
        if (npaths == limit) {
            snprintf(t->reason, sizeof t->reason, "more than %u paths in @%s", limit, p->s->f->name);
            return false;
        }
        path_reset(p, n);
        run_states(p);
        conds[npaths] = p->pc;
        outs[npaths++] = path_outcome(p);
    } while (next_decisions(p));
    *out = outs[npaths - 1];
    for (uint32_t i = npaths - 1; i-- > 0;)
        *out = out_ite(t, conds[i], outs[i], *out);
    return true;
}

bool tv_encode_func(TvCtx *t, const Func *f, TvOut *out)
{
    const char *why = unsupported(f);
    if (why) {
        snprintf(t->reason, sizeof t->reason, "unsupported construct in @%s: %s", f->name, why);
        return false;
    }
    Shape s;
    shape_init(&s, f);
    uint32_t n = s.n;
    Path *p = xcalloc(1, sizeof *p);
    *p = (Path){.t = t, .s = &s};
    p->val = xcalloc(n, sizeof *p->val);
    p->prov = xcalloc(n, sizeof *p->prov);
    p->objects = xcalloc(n, sizeof *p->objects);
    p->cur = xcalloc(n, 1);
    p->busy = xcalloc(n, 1);
    p->passed = xcalloc(n, 1);
    p->iters = xcalloc(n, sizeof *p->iters);
    p->dec = xcalloc(MAX_DECISIONS, 1);
    p->arity = xcalloc(MAX_DECISIONS, 1);
    bool ok = run_paths(p, n, out);
    free(p->val), free(p->prov), free(p->objects), free(p->cur), free(p->busy), free(p->passed), free(p->iters);
    free(p->dec), free(p->arity), free(p);
    shape_free(&s);
    return ok;
}
