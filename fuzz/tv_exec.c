/* tv_exec.c — symbolic execution of one function into a term of its outcome: the
 * state machine, demand-driven evaluation, selectors, relays and loop iterations of
 * docs/semantics.md §3-6 (the reference interpreter oracle/interp.c, step for step),
 * with values as Z3 terms.  Every path is run from the start under a vector of branch
 * decisions (no state is copied); the paths partition the inputs, so the outcome is an
 * if-then-else over their path conditions.  Traps and invalid accesses do not fork:
 * they are exits ordered along the path.  Loops stop after `unroll` iterations per
 * entry, and calls nest at most INLINE_DEPTH deep, with outcome "bound". */
#include "fuzz/tv_path.h"
#include "oracle/runtime.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_DECISIONS = 4096, MAX_STEPS = 200000 };

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
        if ((G->op == OP_IF_BRANCH && U->op == OP_IF_FALSE) || (G->op == OP_INVOKE && U->op == OP_IF_EXCEPTION)) {
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

/* the path ends here with kind and value v64 (bv64, zero-extended) of type ty */
static bool end_valued(Path *p, int kind, Z3_ast v64, Type ty)
{
    TvCtx *t = p->t;
    p->ended = true;
    p->end = (TvOut){kind_term(t, kind), v64, tv_bv(t, ty, 8), p->mem};
    t->hit_bound |= kind == TVK_BOUND;
    return false;
}

/* the path ends here with kind (no value) */
bool tv_end_path(Path *p, int kind) { return end_valued(p, kind, tv_bv(p->t, 0, 64), TY_NONE); }

/* where cond holds, the run ends here with kind and value v64 (NULL: none) of type ty */
static bool exit_valued(Path *p, Z3_ast cond, int kind, Z3_ast v64, Type ty)
{
    Z3_ast c = tv_simplify(p->t, cond);
    Z3_lbool known = Z3_get_bool_value(p->t->z, c);
    if (known == Z3_L_FALSE)
        return true;
    if (known == Z3_L_TRUE)
        return v64 ? end_valued(p, kind, v64, ty) : tv_end_path(p, kind);
    if (p->nexits == MAX_EXITS)
        return tv_end_path(p, TVK_BOUND);
    p->exits[p->nexits++] = (Exit){c, kind, p->mem, v64, v64 ? tv_bv(p->t, ty, 8) : NULL};
    return true;
}

bool tv_exit_if(Path *p, Z3_ast cond, int kind) { return exit_valued(p, cond, kind, NULL, TY_NONE); }

bool tv_throw_if(Path *p, Z3_ast cond, Z3_ast bits, Type ty)
{
    if (!p->invokes)
        return exit_valued(p, cond, TVK_THROW, bits, ty);
    Z3_ast conds[2] = {Z3_mk_not(p->t->z, cond), cond};
    int c = tv_decide(p, conds, 2);
    if (c == 1) {
        p->unwinding = true;
        p->exc = bits;
    }
    return c == 0 || (c < 0 && !p->ended && tv_end_path(p, TVK_BOUND));
}

static bool step(Path *p) { return ++p->steps <= MAX_STEPS || tv_end_path(p, TVK_BOUND); }

/* every cached gate downstream of g is stale (as the interpreter's invalidate_users) */
static void invalidate_users(Path *p, GateId g)
{
    const Gate *X = circ_gate(p->fr->s->c, g);
    for (uint32_t k = 0; k < X->nuses; k++) {
        const Use *u = &X->uses[k];
        const Gate *Y = circ_gate(p->fr->s->c, u->user);
        if (u->user >= p->fr->s->n || !p->fr->cur[u->user] || Y->dead || is_selector(Y) ||
            op_has(Y->op, F_STATE | F_ROOT) || u->index < Y->nstate)
            continue;
        p->fr->cur[u->user] = 0;
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
Z3_ast tv_heap_access_ok(Path *p, Z3_ast addr, unsigned size)
{
    Z3_context z = p->t->z;
    Z3_ast off = Z3_mk_bvsub(z, addr, tv_bv(p->t, HEAP_ADDR, 64));
    return Z3_mk_bvule(z, off, tv_bv(p->t, HEAP_SIZE - size, 64));
}

/* the access of size bytes at offset off lies inside ALLOCA object o (never a function) */
static Z3_ast object_access_ok(Path *p, const Object *o, Z3_ast off, unsigned size)
{
    uint64_t n = o->size;
    if (o->func >= 0 || n < size)
        return Z3_mk_false(p->t->z);
    return Z3_mk_bvule(p->t->z, off, tv_bv(p->t, n - size, 64));
}

/* LOAD (addr), STORE (value, addr): through the harness buffer or an ALLOCA object */
static bool compute_memory(Path *p, const Gate *G, GateId g)
{
    Z3_context z = p->t->z;
    GateId at = gate_data(G, G->op == OP_LOAD ? 0 : 1);
    uint32_t obj = p->fr->prov[at];
    Z3_ast addr = p->fr->val[at];
    Type ty = G->op == OP_LOAD ? (Type)G->type : (Type)circ_gate(p->fr->s->c, gate_data(G, 0))->type;
    unsigned size = (unsigned)ty_bits(ty) / 8;
    if (G->op == OP_STORE && p->fr->prov[gate_data(G, 0)])
        return tv_end_path(p, TVK_INVALID); /* an address stored as a value escapes */
    Z3_ast ok = obj ? object_access_ok(p, &p->objects[obj - 1], addr, size) : tv_heap_access_ok(p, addr, size);
    if (!tv_exit_if(p, Z3_mk_not(z, ok), TVK_INVALID))
        return false;
    Z3_ast *mem = obj ? &p->objects[obj - 1].bytes : &p->mem;
    if (G->op == OP_LOAD) {
        p->fr->prov[g] = 0;
        p->fr->val[g] = load_bytes(p, *mem, addr, size);
        return true;
    }
    Z3_ast v = p->fr->val[gate_data(G, 0)];
    for (unsigned i = 0; i < size; i++)
        *mem = Z3_mk_store(z, *mem, Z3_mk_bvadd(z, addr, tv_bv(p->t, i, 64)), Z3_mk_extract(z, 8 * i + 7, 8 * i, v));
    return true;
}

/* provenance (docs/semantics.md §6.3, oracle/mem.c address_rule): an address may be
 * offset by a plain integer, and two addresses into one object may be subtracted or
 * compared; anything else makes the run invalid.  Addresses are offsets into their
 * object; a compare sees them from one base (the interpreter's first ALLOCA base). */
static bool address_rule(Path *p, const Gate *G, Z3_ast *a, Z3_ast *b, uint32_t *prov)
{
    uint32_t pa = p->fr->prov[gate_data(G, 0)], pb = G->ndata > 1 ? p->fr->prov[gate_data(G, 1)] : 0;
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
    return (G->op == OP_SUB || G->op == OP_ICMP) && pa == pb ? true : tv_end_path(p, TVK_INVALID);
}


/* SELECT (c, a, b): an if-then-else; the operands' provenance must agree (a pick
 * between two objects has none one term can say: beyond the encoding) */
static bool compute_select(Path *p, const Gate *G, GateId g)
{
    const uint32_t *prov = p->fr->prov;
    if (prov[gate_data(G, 1)] != prov[gate_data(G, 2)])
        return tv_give_up(p, "%s", "a SELECT between two objects");
    Z3_ast c = p->fr->val[gate_data(G, 0)], one = tv_bv(p->t, 1, 1);
    p->fr->prov[g] = prov[gate_data(G, 1)];
    p->fr->val[g] = Z3_mk_ite(p->t->z, Z3_mk_eq(p->t->z, c, one), p->fr->val[gate_data(G, 1)],
                              p->fr->val[gate_data(G, 2)]);
    return true;
}

static bool compute_pure(Path *p, const Gate *G, GateId g)
{
    if (G->op == OP_SELECT)
        return compute_select(p, G, g);
    Z3_ast a = p->fr->val[gate_data(G, 0)], b = G->ndata > 1 ? p->fr->val[gate_data(G, 1)] : NULL;
    Type in_ty = (Type)circ_gate(p->fr->s->c, gate_data(G, 0))->type;
    Z3_ast div0, ovf;
    if (!address_rule(p, G, &a, &b, &p->fr->prov[g]))
        return false;
    p->fr->val[g] = tv_pure(p->t, G, in_ty, a, b, &div0, &ovf);
    if (div0 && !tv_exit_if(p, div0, TVK_DIV0))
        return false;
    return !ovf || tv_exit_if(p, ovf, TVK_OVERFLOW);
}

/* ALLOCA: offset 0 into a fresh zero-filled object; SYMBOL: offset 0 into its
 * function's object (one per function) */
static bool compute_object(Path *p, const Gate *G, GateId g)
{
    int32_t func = G->op != OP_SYMBOL ? TVO_ALLOCA
                   : sym_is_extern(G->lit) ? TVO_RUNTIME - module_symbol_runtime(p->m, G->lit)
                                           : (int32_t)G->lit;
    if (G->op == OP_SYMBOL && (func == TVO_RUNTIME + 1 || (func >= 0 && (uint32_t)func >= p->m->nfuncs)))
        return tv_end_path(p, TVK_INVALID); /* names no function */
    uint32_t k = 0;
    while (func != TVO_ALLOCA && k < p->nobjects && p->objects[k].func != func)
        k++;
    if (k == p->nobjects || func == TVO_ALLOCA) {
        if (p->nobjects == MAX_OBJECTS)
            return tv_end_path(p, TVK_BOUND);
        k = p->nobjects++;
        p->objects[k] = (Object){G->lit, func, Z3_mk_const_array(p->t->z, p->t->addr, tv_bv(p->t, 0, 8))};
    }
    p->fr->val[g] = tv_bv(p->t, 0, 64);
    p->fr->prov[g] = k + 1;
    return true;
}

static bool compute_call(Path *p, const Gate *G, GateId g);
static bool run_invoke(Path *p, GateId s, GateId *next);

static bool compute(Path *p, GateId g)
{
    const Gate *G = circ_gate(p->fr->s->c, g);
    if (!step(p))
        return false;
    switch (G->op) {
    case OP_CONSTANT:
        p->fr->val[g] = tv_bv(p->t, G->lit, (unsigned)ty_bits((Type)G->type));
        p->fr->prov[g] = 0;
        return true;
    case OP_ARG:
        if (G->lit >= p->fr->nargs)
            return tv_end_path(p, TVK_INVALID);
        p->fr->val[g] = p->fr->args[G->lit];
        p->fr->prov[g] = p->fr->argprov[G->lit];
        return true;
    case OP_ALLOCA: case OP_SYMBOL:
        return compute_object(p, G, g);
    case OP_CALL:
        return compute_call(p, G, g);
    case OP_DEPEND_RELAY: case OP_DEPEND_AND: /* its inputs ran first: nothing more */
        return true;
    case OP_LOAD: case OP_STORE:
        return compute_memory(p, G, g);
    default:
        return compute_pure(p, G, g);
    }
}

/* can x be demanded at all now (the interpreter's push_checked)?  A GET_EXCEPTION has
 * a value only once control passed its IF_EXCEPTION (visit) */
static bool demandable(Path *p, GateId x)
{
    const Gate *X = circ_gate(p->fr->s->c, x);
    if (is_selector(X) || X->dead || op_has(X->op, F_STATE | F_ROOT) || p->fr->busy[x] || X->op == OP_GET_EXCEPTION)
        return false;
    return X->op != OP_DEPEND_RELAY || p->fr->passed[x];
}

static bool demand(Path *p, GateId g)
{
    if (g >= p->fr->s->n)
        return tv_end_path(p, TVK_INVALID);
    if (p->fr->cur[g])
        return true;
    if (!demandable(p, g))
        return tv_end_path(p, TVK_INVALID);
    const Gate *G = circ_gate(p->fr->s->c, g);
    p->fr->busy[g] = 1;
    for (uint32_t i = G->nstate; i < gate_nin(G); i++)
        if (!demand(p, G->in[i]))
            return false;
    p->fr->busy[g] = 0;
    if (!compute(p, g))
        return false;
    p->fr->cur[g] = 1;
    return true;
}

/* ---- control ------------------------------------------------------------------- */
static void reset_gate(Path *p, GateId x)
{
    p->fr->cur[x] = 0;
    p->fr->passed[x] = 0;
    invalidate_users(p, x);
}

/* a gate that takes effect when control passes its state gate (use u of it): a
 * DEPEND_RELAY or a GET_EXCEPTION (the interpreter's pinned gates) */
static bool is_pinned_use(const Path *p, const Use *u)
{
    const Gate *X = circ_gate(p->fr->s->c, u->user);
    return !X->dead && u->index == 0 && (X->op == OP_DEPEND_RELAY || X->op == OP_GET_EXCEPTION);
}

/* control arrives at state gate s: its relays start a new instance, its GET_EXCEPTIONs
 * take the bits the activation caught last */
static bool visit(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->fr->s->c, s);
    for (uint32_t k = 0; k < S->nuses; k++) {
        GateId x = S->uses[k].user;
        if (!is_pinned_use(p, &S->uses[k]))
            continue;
        reset_gate(p, x);
        p->fr->passed[x] = 1;
        if (circ_gate(p->fr->s->c, x)->op == OP_GET_EXCEPTION) {
            p->fr->val[x] = p->fr->caught ? p->fr->caught : tv_bv(p->t, 0, 64);
            p->fr->prov[x] = 0;
            p->fr->cur[x] = 1;
        }
    }
    return step(p);
}

/* the live selectors and relays of state gate s are what a new iteration forgets */
static void forget_owned(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->fr->s->c, s);
    for (uint32_t k = 0; k < S->nuses; k++) {
        GateId x = S->uses[k].user;
        const Gate *X = circ_gate(p->fr->s->c, x);
        if (!X->dead && S->uses[k].index == 0 && ((is_selector(X) && p->fr->s->live[x]) || is_pinned_use(p, &S->uses[k])))
            reset_gate(p, x);
    }
}

static bool is_live_selector_of(const Path *p, const Use *u)
{
    const Gate *X = circ_gate(p->fr->s->c, u->user);
    return !X->dead && is_selector(X) && u->index == 0 && p->fr->s->live[u->user];
}

/* every live selector of J reads its input idx (all before any changes): its value
 * and provenance into taken[k], taken_prov[k] for use k of J */
static bool take_inputs(Path *p, const Gate *J, uint32_t idx, Z3_ast *taken, uint32_t *taken_prov)
{
    for (uint32_t k = 0; k < J->nuses; k++) {
        if (!is_live_selector_of(p, &J->uses[k]))
            continue;
        const Gate *S = circ_gate(p->fr->s->c, J->uses[k].user);
        bool value = S->op == OP_VALUE_SELECTOR;
        if (idx >= (value ? S->ndata : S->ndep))
            return tv_end_path(p, TVK_INVALID);
        if (!demand(p, value ? gate_data(S, idx) : gate_dep(S, idx)))
            return false;
        taken[k] = value ? p->fr->val[gate_data(S, idx)] : NULL;
        taken_prov[k] = value ? p->fr->prov[gate_data(S, idx)] : 0;
    }
    return true;
}

/* enter join j through state input idx (the interpreter's enter_join): inputs taken,
 * a new loop iteration forgets the loop body's selectors and relays, then every
 * selector takes its new value */
static bool enter_join(Path *p, GateId j, uint32_t idx)
{
    const Gate *J = circ_gate(p->fr->s->c, j);
    Z3_ast *taken = xcalloc(J->nuses, sizeof *taken);
    uint32_t *taken_prov = xcalloc(J->nuses, sizeof *taken_prov);
    bool ok = take_inputs(p, J, idx, taken, taken_prov);
    if (ok && J->op == OP_LOOP_BEGIN && p->fr->s->body[j])
        for (GateId s = 0; s < p->fr->s->n; s++)
            if (p->fr->s->body[j][s])
                forget_owned(p, s);
    for (uint32_t k = 0; k < J->nuses && ok; k++) {
        if (!is_live_selector_of(p, &J->uses[k]))
            continue;
        GateId sel = J->uses[k].user;
        p->fr->val[sel] = taken[k];
        p->fr->prov[sel] = taken_prov[k];
        p->fr->cur[sel] = 1;
        invalidate_users(p, sel);
    }
    free(taken);
    free(taken_prov);
    return ok;
}

static bool go(Path *p, GateId next, uint32_t idx)
{
    const Gate *N = circ_gate(p->fr->s->c, next);
    if (N->op == OP_LOOP_BEGIN) {
        p->fr->iters[next] = idx == 1 ? p->fr->iters[next] + 1 : 0;
        if (p->fr->iters[next] > p->t->opt.unroll)
            return tv_end_path(p, TVK_BOUND);
    }
    if ((N->op == OP_MERGE || N->op == OP_LOOP_BEGIN) && !enter_join(p, next, idx))
        return false;
    return visit(p, next);
}

/* choose among n options whose conditions partition the inputs: an option whose
 * condition simplifies to false is never taken; a fork follows p->dec or takes the
 * first and records the arity */
int tv_decide(Path *p, Z3_ast *conds, int n)
{
    Z3_context z = p->t->z;
    int open[MAX_WAYS], nopen = 0; /* n <= MAX_WAYS */
    for (int i = 0; i < n; i++) {
        conds[i] = tv_simplify(p->t, conds[i]);
        if (Z3_get_bool_value(z, conds[i]) != Z3_L_FALSE)
            open[nopen++] = i;
    }
    if (nopen <= 1)
        return nopen ? open[0] : -1;
    if (p->pos == MAX_DECISIONS)
        return tv_end_path(p, TVK_BOUND), -1;
    int choice = p->pos < p->ndec ? p->dec[p->pos] : 0;
    p->arity[p->pos++] = (uint8_t)nopen;
    p->pc = Z3_mk_and(z, 2, (Z3_ast[]){p->pc, conds[open[choice]]});
    return open[choice];
}

static GateId branch(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->fr->s->c, s);
    Z3_context z = p->t->z;
    if (!demand(p, gate_data(S, 0)))
        return NO_GATE;
    if (p->fr->prov[gate_data(S, 0)])
        return tv_end_path(p, TVK_INVALID), NO_GATE;
    Z3_ast bit = Z3_mk_extract(z, 0, 0, p->fr->val[gate_data(S, 0)]);
    Z3_ast conds[2] = {Z3_mk_eq(z, bit, tv_bv(p->t, 1, 1)), Z3_mk_eq(z, bit, tv_bv(p->t, 0, 1))};
    int c = tv_decide(p, conds, 2);
    return c < 0 ? NO_GATE : c == 0 ? p->fr->s->succ[s] : p->fr->s->alt[s];
}


/* SWITCH_BRANCH: the first case whose value matches (in use order), else the default
 * (or invalid when there is none) */
static GateId switch_branch(Path *p, GateId s)
{
    const Gate *S = circ_gate(p->fr->s->c, s);
    Z3_context z = p->t->z;
    if (!demand(p, gate_data(S, 0)))
        return NO_GATE;
    if (p->fr->prov[gate_data(S, 0)])
        return tv_end_path(p, TVK_INVALID), NO_GATE;
    Z3_ast v = p->fr->val[gate_data(S, 0)], none = Z3_mk_true(z);
    unsigned w = (unsigned)ty_bits((Type)circ_gate(p->fr->s->c, gate_data(S, 0))->type);
    /* a decision records its arity in a byte: 255 ways, the default included */
    Z3_ast conds[MAX_WAYS];
    GateId targets[MAX_WAYS], dflt = NO_GATE;
    int n = 0;
    for (uint32_t k = 0; k < S->nuses; k++) {
        const Gate *U = circ_gate(p->fr->s->c, S->uses[k].user);
        if (U->dead || S->uses[k].index >= U->nstate)
            continue;
        if (U->op == OP_DEFAULT_CASE)
            dflt = S->uses[k].user;
        if (U->op != OP_SWITCH_CASE)
            continue;
        if (n == MAX_WAYS - 1)
            return tv_give_up(p, "%s", "a SWITCH of more than 254 cases"), NO_GATE;
        Z3_ast eq = Z3_mk_eq(z, v, tv_bv(p->t, U->lit, w));
        conds[n] = Z3_mk_and(z, 2, (Z3_ast[]){none, eq});
        targets[n++] = S->uses[k].user;
        none = Z3_mk_and(z, 2, (Z3_ast[]){none, Z3_mk_not(z, eq)});
    }
    conds[n] = none;
    targets[n++] = dflt;
    int c = tv_decide(p, conds, n);
    if (c >= 0 && targets[c] == NO_GATE)
        tv_end_path(p, TVK_INVALID);
    return c < 0 ? NO_GATE : targets[c];
}

/* RETURN / THROW: dependencies, then the value.  The called function's RETURN ends
 * the path, a callee's leaves its value in p->ret; THROW goes to the nearest INVOKE
 * (tv_throw_if) or ends the path */
static bool finish(Path *p, GateId t)
{
    const Gate *T = circ_gate(p->fr->s->c, t);
    TvCtx *tc = p->t;
    for (uint32_t i = 0; i < T->ndep; i++)
        if (!demand(p, gate_dep(T, i)))
            return false;
    Z3_ast v = NULL;
    Type ty = TY_NONE;
    if (T->ndata) {
        if (!demand(p, gate_data(T, 0)))
            return false;
        if (p->fr->prov[gate_data(T, 0)])
            return tv_end_path(p, TVK_INVALID); /* an address escapes */
        ty = (Type)circ_gate(p->fr->s->c, gate_data(T, 0))->type;
        v = p->fr->val[gate_data(T, 0)];
    }
    if (T->op == OP_RETURN && ty != p->fr->s->f->ret)
        return tv_end_path(p, TVK_INVALID);
    if (T->op == OP_RETURN && p->depth > 0) {
        p->ret = v;
        return true;
    }
    Z3_ast v64 = !v ? tv_bv(tc, 0, 64) : ty_bits(ty) < 64 ? Z3_mk_zero_ext(tc->z, 64 - (unsigned)ty_bits(ty), v) : v;
    if (T->op == OP_THROW)
        return tv_throw_if(p, Z3_mk_true(tc->z), v64, ty);
    return end_valued(p, TVK_RETURN, v64, ty);
}

/* run the current activation; true when it returned to a caller (value in p->ret) */
static bool run_states(Path *p)
{
    GateId cur = ROOT_STATE_ENTRY;
    if (!visit(p, cur))
        return false;
    for (;;) {
        const Gate *G = circ_gate(p->fr->s->c, cur);
        GateId next = p->fr->s->succ[cur];
        uint32_t idx = p->fr->s->succ_in[cur];
        if (G->op == OP_RETURN || G->op == OP_THROW)
            return finish(p, cur);
        if (G->op == OP_IF_BRANCH || G->op == OP_SWITCH_BRANCH) {
            next = G->op == OP_IF_BRANCH ? branch(p, cur) : switch_branch(p, cur);
            idx = 0;
        }
        if (G->op == OP_INVOKE && !run_invoke(p, cur, &next))
            return false;
        if (p->ended || p->unwinding)
            return false;
        if (next == NO_GATE)
            return tv_end_path(p, TVK_INVALID);
        if (!go(p, next, idx))
            return false;
        cur = next;
    }
}

/* ---- activations and calls --------------------------------------------------------- */
static void frame_init(Frame *fr, const Shape *s)
{
    uint32_t n = s->n;
    memset(fr, 0, sizeof *fr);
    fr->s = s;
    fr->val = xcalloc(n, sizeof *fr->val);
    fr->prov = xcalloc(n, sizeof *fr->prov);
    fr->cur = xcalloc(n, 1);
    fr->busy = xcalloc(n, 1);
    fr->passed = xcalloc(n, 1);
    fr->iters = xcalloc(n, sizeof *fr->iters);
    fr->cur[ROOT_DEPEND_ENTRY] = 1;
}

static void frame_clear(Frame *fr)
{
    uint32_t n = fr->s->n;
    memset(fr->cur, 0, n);
    memset(fr->busy, 0, n);
    memset(fr->passed, 0, n);
    memset(fr->iters, 0, n * sizeof *fr->iters);
    fr->cur[ROOT_DEPEND_ENTRY] = 1;
    fr->caught = NULL;
}

static void frame_free(Frame *fr)
{
    free(fr->val), free(fr->prov), free(fr->cur), free(fr->busy), free(fr->passed), free(fr->iters);
}

static const Shape *shape_of(Path *p, uint32_t func)
{
    if (!p->shapes[func]) {
        p->shapes[func] = xcalloc(1, sizeof(Shape));
        shape_init(p->shapes[func], p->m->funcs[func]);
    }
    return p->shapes[func];
}

static const char *unsupported(const Func *f);

/* the whole function is beyond the encoding: stop every path */
bool tv_give_up(Path *p, const char *fmt, const char *name)
{
    p->unsupported = true;
    p->t->why = TVR_UNSUPPORTED;
    snprintf(p->t->reason, sizeof p->t->reason, fmt, name);
    return tv_end_path(p, TVK_BOUND);
}

/* do the callee's signature and the call site agree? */
static bool call_matches(const Path *p, const Gate *G, const Func *callee)
{
    if (G->ndata - 1 != callee->nparams || G->type != callee->ret || callee->nparams > 64)
        return false;
    for (uint32_t i = 0; i < callee->nparams; i++)
        if (circ_gate(p->fr->s->c, gate_data(G, i + 1))->type != callee->params[i])
            return false;
    return true;
}

bool tv_run_callee(Path *p, const Func *cf, const Z3_ast *args, const uint32_t *prov)
{
    if (p->depth == INLINE_DEPTH)
        return tv_end_path(p, TVK_BOUND);
    const char *why = unsupported(cf);
    if (why)
        return tv_give_up(p, "%s in a callee", why);
    Frame *caller = p->fr, callee;
    frame_init(&callee, shape_of(p, cf->index));
    callee.nargs = cf->nparams;
    memcpy(callee.args, args, cf->nparams * sizeof *args);
    memcpy(callee.argprov, prov, cf->nparams * sizeof *prov);
    p->fr = &callee;
    p->depth++;
    bool returned = run_states(p);
    p->depth--;
    p->fr = caller;
    frame_free(&callee);
    return returned;
}

/* the call of CALL or INVOKE G: the callee (a SYMBOL's address, offset 0) is a
 * runtime function or a module function inlined in a fresh activation; *r its result */
static bool call_gate(Path *p, const Gate *G, Z3_ast *r)
{
    uint32_t cp = p->fr->prov[gate_data(G, 0)];
    if (!cp || p->objects[cp - 1].func == TVO_ALLOCA)
        return tv_end_path(p, TVK_INVALID);
    Z3_ast off = p->fr->val[gate_data(G, 0)];
    if (!tv_exit_if(p, Z3_mk_not(p->t->z, Z3_mk_eq(p->t->z, off, tv_bv(p->t, 0, 64))), TVK_INVALID))
        return false;
    int32_t func = p->objects[cp - 1].func;
    if (func <= TVO_RUNTIME)
        return tv_runtime_call(p, G, (RuntimeFn)(TVO_RUNTIME - func), r);
    const Func *cf = p->m->funcs[func];
    if (!call_matches(p, G, cf))
        return tv_end_path(p, TVK_INVALID);
    Z3_ast args[FUNC_MAX_PARAMS];
    uint32_t prov[FUNC_MAX_PARAMS];
    for (uint32_t i = 0; i < cf->nparams; i++) {
        args[i] = p->fr->val[gate_data(G, i + 1)];
        prov[i] = p->fr->prov[gate_data(G, i + 1)];
    }
    if (!tv_run_callee(p, cf, args, prov))
        return false;
    *r = p->ret;
    return true;
}

static bool compute_call(Path *p, const Gate *G, GateId g)
{
    Z3_ast r = NULL;
    if (!call_gate(p, G, &r))
        return false;
    p->fr->val[g] = r;
    p->fr->prov[g] = 0;
    return true;
}

/* INVOKE s (the interpreter's run_invoke): its dependency and operands demanded, then
 * the call; a throw below it (p->unwinding) is caught: *next becomes its IF_EXCEPTION
 * and the activation keeps the bits for GET_EXCEPTION.  Its value (none after a throw)
 * and dependency are current from here on */
static bool run_invoke(Path *p, GateId s, GateId *next)
{
    const Gate *S = circ_gate(p->fr->s->c, s);
    for (uint32_t i = S->nstate; i < gate_nin(S); i++)
        if (!demand(p, S->in[i]))
            return false;
    Frame *fr = p->fr;
    Z3_ast r = NULL;
    p->invokes++;
    bool returned = call_gate(p, S, &r);
    p->invokes--;
    if (!returned && !p->unwinding)
        return false;
    if (!returned) {
        p->unwinding = false;
        fr->caught = p->exc;
        *next = fr->s->alt[s];
    }
    fr->val[s] = returned && r ? r : tv_bv(p->t, 0, S->type == TY_NONE ? 64 : (unsigned)ty_bits((Type)S->type));
    fr->prov[s] = 0;
    fr->cur[s] = 1;
    invalidate_users(p, s);
    return true;
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
        TvOut x = {kind_term(t, e->kind), e->val ? e->val : tv_bv(t, 0, 64), e->ty ? e->ty : tv_bv(t, 0, 8), e->mem};
        o = out_ite(t, e->cond, x, o);
    }
    return o;
}

static void path_reset(Path *p)
{
    frame_clear(p->fr);
    p->mem = p->t->init_mem;
    p->pc = Z3_mk_true(p->t->z);
    p->pos = p->steps = p->nexits = p->nobjects = p->depth = p->invokes = 0;
    p->ended = p->unwinding = false;
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
        if (op_has(G->op, F_PURE) && G->op != OP_CONSTANT && G->op != OP_ARG && G->op != OP_ALLOCA &&
            G->op != OP_SYMBOL && !tv_pure_supported(G->op))
            return "unsupported construct: an opcode without encoding";
    }
    return NULL;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the symbolic execution of one function may take ENCODE_TIMEOUTS query timeouts:
 * hundreds of long paths, each run from the start, once took a minute */
enum { ENCODE_TIMEOUTS = 4 };

static bool run_paths(Path *p, TvOut *out)
{
    TvCtx *t = p->t;
    double deadline = now_seconds() + ENCODE_TIMEOUTS * 1e-3 * t->opt.timeout_ms;
    Z3_ast conds[4096];
    TvOut outs[4096];
    uint32_t npaths = 0, limit = t->opt.max_paths < 4096 ? t->opt.max_paths : 4096;
    do {
        if (npaths == limit) {
            t->why = TVR_PATHS;
            snprintf(t->reason, sizeof t->reason, "more than %u paths in @%s", limit, p->fr->s->f->name);
            return false;
        }
        if (npaths && now_seconds() > deadline) {
            t->why = TVR_TIMEOUT;
            snprintf(t->reason, sizeof t->reason, "the paths of @%s took more than %u ms to run", p->fr->s->f->name,
                     ENCODE_TIMEOUTS * t->opt.timeout_ms);
            return false;
        }
        path_reset(p);
        run_states(p);
        if (p->unsupported)
            return false;
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
        t->why = TVR_UNSUPPORTED;
        snprintf(t->reason, sizeof t->reason, "%s in @%s", why, f->name);
        return false;
    }
    Path *p = xcalloc(1, sizeof *p);
    Frame top;
    *p = (Path){.t = t, .m = f->module};
    p->shapes = xcalloc(f->module->nfuncs, sizeof *p->shapes);
    frame_init(&top, shape_of(p, f->index));
    top.nargs = t->nargs;
    memcpy(top.args, t->args, sizeof top.args);
    p->fr = &top;
    p->dec = xcalloc(MAX_DECISIONS, 1);
    p->arity = xcalloc(MAX_DECISIONS, 1);
    bool ok = run_paths(p, out);
    frame_free(&top);
    for (uint32_t i = 0; i < f->module->nfuncs; i++)
        if (p->shapes[i])
            shape_free(p->shapes[i]), free(p->shapes[i]);
    free(p->shapes), free(p->dec), free(p->arity), free(p);
    return ok;
}
