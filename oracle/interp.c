/* interp.c — the reference interpreter (see interp.h, docs/semantics.md).
 *
 * Control follows the state gates from STATE_ENTRY.  Computation gates are evaluated
 * on demand (branch conditions, RETURN/THROW operands, the inputs of live selectors
 * taken on a transition) with an explicit stack, so deep graphs do not recurse in C.
 * Each gate's value is cached per activation; re-taking a selector, passing a relay's
 * state gate or starting a new iteration of a loop invalidates the cached gates that
 * (transitively) depend on it.  Effects run when first demanded, once per instance;
 * memory, provenance and races are checked by oracle/mem.c.
 *
 * Exceptions: a THROW (interp_throw) ends every activation up to the nearest INVOKE
 * (invoke_catch), which takes its IF_EXCEPTION with the thrown bits; GET_EXCEPTION
 * gates on that IF_EXCEPTION take them when control arrives there, like relays. */
#include "oracle/interp.h"

#include "compiler/ir/eval.h"
#include "oracle/mem.h"
#include "oracle/runtime.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-function analysis --------------------------------------------------- */
typedef struct { uint32_t *start; GateId *items; } Lists; /* items of owner g: start[g]..start[g+1] */

typedef struct {
    const Func *f;
    const Circuit *c;
    uint32_t n;
    GateId *succ;      /* control successor (IF_TRUE for IF_BRANCH), NO_GATE if none */
    uint32_t *succ_in; /* the state input of succ that control enters through */
    GateId *alt;       /* IF_FALSE of an IF_BRANCH, IF_EXCEPTION of an INVOKE */
    Lists sels;        /* live selectors of a join */
    Lists relays;      /* DEPEND_RELAYs and GET_EXCEPTIONs of a state gate */
    Lists resets;      /* of a LOOP_BEGIN: selectors and relays owned strictly inside its loop */
    uint8_t *plain;    /* 1: a computation gate demand may simply push (not a selector, a
                          relay, dead, a state gate or a root) */
} FuncInfo;

typedef struct { GateId owner, item; } Pair;
/* what building analyses needs for a while (kept by the interpreter for all of them):
 * pairs to sort into lists, and words */
typedef struct { Pair *p; uint32_t n, cap; uint32_t *words; uint32_t capwords; } Pairs;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();
    return p;
}

static void pairs_add(Pairs *ps, GateId owner, GateId item)
{
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 64;
        ps->p = xrealloc(ps->p, ps->cap * sizeof *ps->p);
    }
    ps->p[ps->n++] = (Pair){owner, item};
}

/* 2 * n scratch words of ps, the first n of them zero */
static uint32_t *scratch_words(Pairs *ps, uint32_t n)
{
    if (2 * n > ps->capwords) {
        ps->capwords = 2 * n;
        ps->words = xrealloc(ps->words, ps->capwords * sizeof *ps->words);
    }
    memset(ps->words, 0, n * sizeof *ps->words);
    return ps->words;
}

/* counting sort of the pairs into per-owner lists (keeps the order of addition) */
static Lists lists_build(Pairs *ps, uint32_t n)
{
    Lists l = {xcalloc(n + 1, sizeof(uint32_t)), NULL};
    if (!ps->n)
        return l; /* every list empty: the zeroed starts say so */
    l.items = xrealloc(NULL, ps->n * sizeof *l.items);
    for (uint32_t i = 0; i < ps->n; i++)
        l.start[ps->p[i].owner]++;
    for (uint32_t g = 1; g <= n; g++) /* start[g]: the end of g's items */
        l.start[g] += l.start[g - 1];
    for (uint32_t i = ps->n; i-- > 0;) /* backwards, so each start comes down to its first item */
        l.items[--l.start[ps->p[i].owner]] = ps->p[i].item;
    ps->n = 0;
    return l;
}

static void lists_free(Lists *l)
{
    free(l->start);
    free(l->items);
}

static bool is_selector(const Gate *g) { return g->op == OP_VALUE_SELECTOR || g->op == OP_DEPEND_SELECTOR; }
/* a computation gate that takes effect when control passes its state input */
static bool is_pinned(const Gate *g) { return g->op == OP_DEPEND_RELAY || g->op == OP_GET_EXCEPTION; }
static bool in_range(const FuncInfo *fi, GateId g) { return g < fi->n; }

/* the control successor of state gate g (and IF_FALSE of an IF_BRANCH) */
static void find_successor(FuncInfo *fi, GateId g, const Gate *G)
{
    const Circuit *c = fi->c;
    for (uint32_t k = 0; k < G->nuses; k++) {
        const Use *u = &G->uses[k];
        const Gate *U = circ_gate(c, u->user);
        if (U->dead || !op_has(U->op, F_STATE) || u->index >= U->nstate)
            continue;
        if ((G->op == OP_IF_BRANCH && U->op == OP_IF_FALSE) || (G->op == OP_INVOKE && U->op == OP_IF_EXCEPTION)) {
            fi->alt[g] = u->user;
        } else if (fi->succ[g] == NO_GATE || U->op == OP_IF_SUCCESS) {
            fi->succ[g] = u->user;
            fi->succ_in[g] = u->index;
        }
    }
}

/* one pass over the gates: which are plain, the successors of state gates, the relays
 * of each state gate (as pairs into ps), the state gates as the roots of liveness
 * (marked in live, pushed on work: their count returned), and whether any gate is a
 * LOOP_BEGIN */
static uint32_t scan_gates(FuncInfo *fi, Pairs *ps, uint32_t *live, GateId *work, bool *loops)
{
    uint32_t nw = 0;
    for (GateId g = 0; g < fi->n; g++) {
        const Gate *G = circ_gate(fi->c, g);
        fi->succ[g] = fi->alt[g] = NO_GATE;
        fi->plain[g] = !is_selector(G) && !G->dead && !op_has(G->op, F_STATE | F_ROOT) && !is_pinned(G);
        if (G->dead)
            continue;
        if (is_pinned(G) && G->nstate == 1 && in_range(fi, G->in[0]))
            pairs_add(ps, G->in[0], g);
        *loops |= G->op == OP_LOOP_BEGIN;
        if (!op_has(G->op, F_STATE))
            continue;
        find_successor(fi, g, G);
        live[g] = 1;
        work[nw++] = g;
    }
    return nw;
}

/* a selector is live if a state gate's data or dependency input reaches it backwards:
 * mark what the nw gates on work reach */
static void mark_live(const FuncInfo *fi, uint32_t *live, GateId *work, uint32_t nw)
{
    while (nw) {
        const Gate *G = circ_gate(fi->c, work[--nw]);
        for (uint32_t i = G->nstate; i < gate_nin(G); i++) {
            GateId x = G->in[i];
            if (in_range(fi, x) && !live[x]) {
                live[x] = 1;
                work[nw++] = x;
            }
        }
    }
}

static void find_sels(FuncInfo *fi, Pairs *ps, const uint32_t *live)
{
    for (GateId g = 0; g < fi->n; g++) {
        const Gate *G = circ_gate(fi->c, g);
        if (!G->dead && is_selector(G) && live[g] && G->nstate == 1 && in_range(fi, G->in[0]))
            pairs_add(ps, G->in[0], g);
    }
    fi->sels = lists_build(ps, fi->n);
}

static void add_owned_by(const FuncInfo *fi, Pairs *ps, GateId head, GateId s)
{
    for (uint32_t k = fi->sels.start[s]; k < fi->sels.start[s + 1]; k++)
        pairs_add(ps, head, fi->sels.items[k]);
    for (uint32_t k = fi->relays.start[s]; k < fi->relays.start[s + 1]; k++)
        pairs_add(ps, head, fi->relays.items[k]);
}

/* the body of each loop: state gates that reach its LOOP_BACK without passing its LOOP_BEGIN */
static void find_loops(FuncInfo *fi, Pairs *ps)
{
    const Circuit *c = fi->c;
    uint32_t *mark = scratch_words(ps, fi->n);
    GateId *work = mark + fi->n;
    for (GateId h = 0; h < fi->n; h++) {
        const Gate *H = circ_gate(c, h);
        if (H->dead || H->op != OP_LOOP_BEGIN || H->nstate < 2 || !in_range(fi, H->in[1]))
            continue;
        uint32_t nw = 0;
        mark[h] = h + 1;
        mark[H->in[1]] = h + 1;
        work[nw++] = H->in[1];
        while (nw) {
            GateId s = work[--nw];
            add_owned_by(fi, ps, h, s);
            const Gate *S = circ_gate(c, s);
            for (uint32_t i = 0; i < S->nstate; i++) {
                GateId p = S->in[i];
                if (in_range(fi, p) && mark[p] != h + 1) {
                    mark[p] = h + 1;
                    work[nw++] = p;
                }
            }
        }
    }
    fi->resets = lists_build(ps, fi->n);
}

/* the analysis of f; ps: the interpreter's scratch */
static FuncInfo *funcinfo_new(const Func *f, Pairs *ps)
{
    FuncInfo *fi = xcalloc(1, sizeof *fi);
    fi->f = f;
    fi->c = f->circ;
    fi->n = f->circ->ngates;
    /* one block: succ, succ_in, alt, then plain */
    fi->succ = xrealloc(NULL, fi->n * (3 * sizeof(GateId) + 1));
    fi->succ_in = fi->succ + fi->n;
    fi->alt = fi->succ_in + fi->n;
    fi->plain = (uint8_t *)(fi->alt + fi->n);
    uint32_t *live = scratch_words(ps, fi->n); /* until the selectors are found */
    bool loops = false;
    uint32_t nw = scan_gates(fi, ps, live, live + fi->n, &loops);
    fi->relays = lists_build(ps, fi->n);
    mark_live(fi, live, live + fi->n, nw);
    find_sels(fi, ps, live);
    if (loops)
        find_loops(fi, ps);
    else
        fi->resets = lists_build(ps, fi->n); /* no pairs: empty */
    return fi;
}

static void funcinfo_free(FuncInfo *fi)
{
    if (!fi)
        return;
    free(fi->succ);
    lists_free(&fi->sels);
    lists_free(&fi->relays);
    lists_free(&fi->resets);
    free(fi);
}

/* ---- interpreter state ------------------------------------------------------- */
typedef struct {
    uint64_t bits;
    uint32_t prov;  /* provenance of the value (mem.h) */
    uint32_t tok;   /* dependency output: the effect instance it stands for */
    uint32_t stamp; /* == frame epoch: the cached value is current */
    uint32_t busy;  /* == frame epoch: on the demand stack */
    uint32_t pass;  /* DEPEND_RELAY: == frame epoch once control passed its state gate */
} Slot;

typedef struct {
    const FuncInfo *fi;
    Slot *slots;
    uint32_t capslots;
    Val *args;
    uint32_t nargs, capargs;
    uint32_t epoch;
    uint32_t call_inst; /* the CALL instance this activation runs for (0 at top level) */
    uint64_t caught;    /* the bits an INVOKE of this activation caught last */
} Frame;

/* a gate on the demand stack: its inputs, the next one to look at (its dependency and
 * data inputs are in[nstate..nin)) */
typedef struct { const GateId *in; GateId g; uint32_t next, nin; } Demand;

struct Interp {
    const Module *m;
    uint64_t max_steps;
    uint32_t max_depth;
    FuncInfo **info;
    Pairs build;   /* scratch of funcinfo_new */
    Mem *mem;
    bool own_mem;  /* else borrowed: InterpOptions.memory */
    Frame **frames; /* one per call depth reached so far (< max_depth) */
    uint32_t nframes, capframes;
    uint32_t depth;
    uint32_t epoch;
    Demand *stack;
    uint32_t sp, capstack;
    GateId *work;
    uint32_t capwork;
    Val *scratch;
    uint32_t nscratch, capscratch;
    uint64_t steps;
    Outcome *out;
};

Interp *interp_new(const Module *m, const InterpOptions *opt)
{
    Interp *in = xcalloc(1, sizeof *in);
    in->m = m;
    in->max_steps = opt && opt->max_steps ? opt->max_steps : 10000000;
    if (in->max_steps > 0x7fffffffu)
        in->max_steps = 0x7fffffffu; /* keeps activation epochs within 32 bits */
    in->max_depth = opt && opt->max_depth ? opt->max_depth : 256;
    if (in->max_depth > 4096)
        in->max_depth = 4096; /* each level of calls is a few C frames deep */
    in->info = xcalloc(m->nfuncs, sizeof *in->info);
    in->own_mem = !(opt && opt->memory);
    in->mem = in->own_mem ? mem_new(m) : mem_rebind(opt->memory, m);
    return in;
}

void interp_free(Interp *in)
{
    if (!in)
        return;
    for (uint32_t i = 0; i < in->m->nfuncs; i++)
        funcinfo_free(in->info[i]);
    for (uint32_t i = 0; i < in->nframes; i++) {
        free(in->frames[i]->slots);
        free(in->frames[i]->args);
        free(in->frames[i]);
    }
    free(in->info);
    free(in->frames);
    free(in->stack);
    free(in->work);
    free(in->scratch);
    free(in->build.p);
    free(in->build.words);
    if (in->own_mem)
        mem_free(in->mem);
    free(in);
}

/* the frame of call depth d (< max_depth), allocated on first use; never moves */
static Frame *frame_at(Interp *in, uint32_t d)
{
    if (d >= in->capframes) {
        in->capframes = d + 1 > 2 * in->capframes ? d + 1 : 2 * in->capframes;
        in->frames = xrealloc(in->frames, in->capframes * sizeof *in->frames);
    }
    while (in->nframes <= d)
        in->frames[in->nframes++] = xcalloc(1, sizeof(Frame));
    return in->frames[d];
}

/* ---- failures ---------------------------------------------------------------- */
__attribute__((format(printf, 3, 4))) static bool fail(Interp *in, int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    in->out->kind = (uint8_t)kind;
    vsnprintf(in->out->reason, sizeof in->out->reason, fmt, ap);
    va_end(ap);
    return false;
}

static const char *label(const Frame *fr, GateId g, char *buf, size_t n)
{
    return gate_label(fr->fi->f, g, buf, n);
}

/* "STORE %s"; an unnamed RETURN/THROW's label names its opcode already */
static const char *describe(const Frame *fr, GateId g, char *buf, size_t n)
{
    const Gate *G = circ_gate(fr->fi->c, g);
    char l[64];
    label(fr, g, l, sizeof l);
    if (G->name || !op_has(G->op, F_TERM))
        snprintf(buf, n, "%s %s", op_info[G->op].name, l);
    else
        snprintf(buf, n, "%s", l);
    return buf;
}

static bool fail_gate(Interp *in, const Frame *fr, GateId g, const char *what)
{
    char l[100];
    return fail(in, OUT_INVALID, "in @%s: %s: %s", fr->fi->f->name, describe(fr, g, l, sizeof l), what);
}

static bool fail_escape(Interp *in, const Frame *fr, uint32_t prov, GateId user)
{
    char d[100], l[100];
    mem_describe(in->mem, prov, d, sizeof d);
    return fail(in, OUT_INVALID, "in @%s: address of %s escapes into %s", fr->fi->f->name, d,
                describe(fr, user, l, sizeof l));
}

static bool step(Interp *in)
{
    if (++in->steps <= in->max_steps)
        return true;
    return fail(in, OUT_TIMEOUT, "step budget of %llu exhausted", (unsigned long long)in->max_steps);
}

/* ---- invalidation ------------------------------------------------------------ */
static inline bool current(const Frame *fr, GateId g) { return fr->slots[g].stamp == fr->epoch; }

/* does y read x through a data or dependency wire (use u of x), as a gate whose value
 * is cached (not a selector, a state gate or a root)? */
static bool caches_use(const Circuit *c, const Use *u)
{
    const Gate *Y = circ_gate(c, u->user);
    return !Y->dead && !is_selector(Y) && !op_has(Y->op, F_STATE | F_ROOT) && u->index >= Y->nstate;
}

/* every cached gate downstream of g is stale (a valid gate's inputs are all valid, so
 * the walk stops at gates already stale); the circuit's use lists say who reads what */
static void invalidate_users(Interp *in, Frame *fr, GateId g)
{
    const Circuit *c = fr->fi->c;
    uint32_t nw = 0;
    GateId x = g;
    for (;;) {
        const Gate *X = circ_gate(c, x);
        for (uint32_t k = 0; k < X->nuses; k++) {
            const Use *u = &X->uses[k];
            GateId y = u->user;
            if (!in_range(fr->fi, y) || !current(fr, y) || !caches_use(c, u))
                continue;
            fr->slots[y].stamp = 0;
            if (nw == in->capwork) {
                in->capwork = in->capwork ? 2 * in->capwork : 256;
                in->work = xrealloc(in->work, in->capwork * sizeof *in->work);
            }
            in->work[nw++] = y;
        }
        if (!nw)
            return;
        x = in->work[--nw];
    }
}

/* ---- demand-driven evaluation ------------------------------------------------ */
static bool compute(Interp *in, Frame *fr, GateId g);

static inline __attribute__((always_inline)) void push_gate(Interp *in, Frame *fr, GateId x)
{
    const Gate *X = circ_gate(fr->fi->c, x);
    if (in->sp == in->capstack) {
        in->capstack = in->capstack ? 2 * in->capstack : 256;
        in->stack = xrealloc(in->stack, in->capstack * sizeof *in->stack);
    }
    fr->slots[x].busy = fr->epoch;
    in->stack[in->sp++] = (Demand){X->in, x, X->nstate, gate_nin(X)};
}

/* push x unless it cannot be demanded (the reason reported) */
static bool push_checked(Interp *in, Frame *fr, GateId x, GateId user)
{
    const FuncInfo *fi = fr->fi;
    char l[64];
    if (!in_range(fi, x))
        return fail_gate(in, fr, user, "has a missing input");
    const Gate *X = circ_gate(fi->c, x);
    Slot *s = &fr->slots[x];
    if (is_selector(X)) {
        GateId j = X->nstate ? X->in[0] : NO_GATE;
        const Gate *J = in_range(fi, j) ? circ_gate(fi->c, j) : X;
        return fail(in, OUT_INVALID, "in @%s: selector %s demanded before its %s %s was entered",
                    fi->f->name, label(fr, x, l, sizeof l), op_info[J->op].name,
                    gate_label(fi->f, j, (char[64]){0}, 64));
    }
    if (X->dead || op_has(X->op, F_STATE | F_ROOT))
        return fail_gate(in, fr, user, "reads a gate that has no value");
    if (s->busy == fr->epoch)
        return fail_gate(in, fr, x, "depends on itself");
    if (X->op == OP_DEPEND_RELAY && s->pass != fr->epoch)
        return fail(in, OUT_INVALID, "in @%s: dependency relay %s demanded off its path", fi->f->name,
                    label(fr, x, l, sizeof l));
    if (X->op == OP_GET_EXCEPTION)
        return fail(in, OUT_INVALID, "in @%s: GET_EXCEPTION %s demanded off its path", fi->f->name,
                    label(fr, x, l, sizeof l));
    push_gate(in, fr, x);
    return true;
}

/* a plain gate not on the stack is pushed at once; anything else is checked */
static inline bool push(Interp *in, Frame *fr, GateId x, GateId user)
{
    if (x >= fr->fi->n || !fr->fi->plain[x] || fr->slots[x].busy == fr->epoch)
        return push_checked(in, fr, x, user);
    push_gate(in, fr, x);
    return true;
}

/* evaluate g (and, first, whatever it needs) unless its cached value is current */
static bool demand(Interp *in, Frame *fr, GateId g, GateId user)
{
    const uint32_t n = fr->fi->n, epoch = fr->epoch;
    Slot *slots = fr->slots; /* a frame's slots stay put while it runs */
    if (g < n && slots[g].stamp == epoch)
        return true;
    uint32_t base = in->sp;
    if (!push(in, fr, g, user))
        return false;
    while (in->sp > base) {
        Demand *d = &in->stack[in->sp - 1];
        uint32_t i = d->next;
        while (i < d->nin && d->in[i] < n && slots[d->in[i]].stamp == epoch)
            i++;
        if (i < d->nin) {
            d->next = i + 1;
            if (!push(in, fr, d->in[i], d->g))
                return false;
            continue;
        }
        GateId x = d->g;
        in->sp--;
        slots[x].busy = 0;
        if (!compute(in, fr, x))
            return false;
        slots[x].stamp = epoch;
    }
    return true;
}

static Val value_of(const Frame *fr, GateId g) { return (Val){fr->slots[g].bits, fr->slots[g].prov}; }

static bool compute_pure(Interp *in, Frame *fr, GateId g, const Gate *G)
{
    Val v[3] = {{0, 0}, {0, 0}, {0, 0}}, r;
    uint32_t bad = 0;
    if (G->ndata < 1 || G->ndata > 3)
        return fail_gate(in, fr, g, "has the wrong number of operands");
    for (uint32_t i = 0; i < G->ndata; i++)
        v[i] = value_of(fr, gate_data(G, i));
    Type in_ty = (Type)circ_gate(fr->fi->c, gate_data(G, 0))->type;
    int st = val_pure_hot(G->op, (Type)G->type, G->cond, in_ty, v, G->ndata, &r, &bad);
    switch (st) {
    case EVAL_OK:
        fr->slots[g].bits = r.bits;
        fr->slots[g].prov = r.prov;
        return true;
    case EVAL_TRAP_DIV0:
        in->out->trap = TRAP_DIV0;
        return fail(in, OUT_TRAP, "in @%s: division by zero", fr->fi->f->name);
    case EVAL_TRAP_OVERFLOW:
        in->out->trap = TRAP_OVERFLOW;
        return fail(in, OUT_TRAP, "in @%s: signed division overflow", fr->fi->f->name);
    case VAL_ESCAPES:
        return fail_escape(in, fr, v[bad].prov, g);
    default:
        return fail_gate(in, fr, g, "cannot be evaluated");
    }
}

static uint32_t access_size(const Gate *G) { return (uint32_t)ty_bits((Type)G->type) / 8; }

static bool compute_load(Interp *in, Frame *fr, GateId g, const Gate *G)
{
    uint32_t size = access_size(G);
    if (size == 0 || G->ndep != 1 || G->ndata != 1)
        return fail_gate(in, fr, g, "is malformed");
    uint32_t inst = mem_instance(in->mem, fr->slots[gate_dep(G, 0)].tok, fr->call_inst, fr->fi->f->index, g);
    char why[160];
    uint64_t bits;
    if (!mem_load(in->mem, value_of(fr, gate_data(G, 0)), size, inst, &bits, why, sizeof why))
        return fail_gate(in, fr, g, why);
    fr->slots[g] = (Slot){bits & ty_mask((Type)G->type), 0, inst, 0, 0, 0};
    return true;
}

static bool compute_store(Interp *in, Frame *fr, GateId g, const Gate *G)
{
    if (G->ndep != 1 || G->ndata != 2)
        return fail_gate(in, fr, g, "is malformed");
    const Gate *V = circ_gate(fr->fi->c, gate_data(G, 0));
    uint32_t size = access_size(V);
    Val v = value_of(fr, gate_data(G, 0));
    if (v.prov)
        return fail_escape(in, fr, v.prov, g);
    if (size == 0)
        return fail_gate(in, fr, g, "stores a value of no size");
    uint32_t inst = mem_instance(in->mem, fr->slots[gate_dep(G, 0)].tok, fr->call_inst, fr->fi->f->index, g);
    char why[160];
    if (!mem_store(in->mem, value_of(fr, gate_data(G, 1)), size, v.bits, inst, why, sizeof why))
        return fail_gate(in, fr, g, why);
    fr->slots[g].tok = inst;
    fr->slots[g].bits = 0;
    fr->slots[g].prov = 0;
    return true;
}

static bool run_activation(Interp *in, uint32_t func, uint32_t entry_tok, uint32_t call_inst, Val *ret);

/* do the callee's signature and the call site agree? */
static bool call_matches(const Frame *fr, const Gate *G, const Func *callee)
{
    if (G->ndata - 1 != callee->nparams || G->type != callee->ret)
        return false;
    for (uint32_t i = 0; i < callee->nparams; i++)
        if (circ_gate(fr->fi->c, gate_data(G, i + 1))->type != callee->params[i])
            return false;
    return true;
}

/* the frame a call of cf runs in, with room for its arguments (the caller sets them),
 * or NULL (a timeout reported) beyond the call depth limit */
static Frame *callee_frame(Interp *in, const Func *cf)
{
    if (in->depth >= in->max_depth)
        return fail(in, OUT_TIMEOUT, "call depth beyond %u", in->max_depth), NULL;
    Frame *cfr = frame_at(in, in->depth);
    if (cf->nparams > cfr->capargs) {
        cfr->capargs = cf->nparams;
        cfr->args = xrealloc(cfr->args, cfr->capargs * sizeof *cfr->args);
    }
    cfr->nargs = cf->nparams;
    return cfr;
}

/* ---- runtime calls (oracle/runtime.h) ---- */
typedef struct { Interp *in; Frame *fr; GateId g; uint32_t inst; } RtCall;

static bool rt_invalid(void *ctx, const char *why)
{
    RtCall *rc = ctx;
    return fail_gate(rc->in, rc->fr, rc->g, why);
}

static bool rt_run(void *ctx, uint32_t func, uint64_t x, uint64_t *ret)
{
    RtCall *rc = ctx;
    Frame *cfr = callee_frame(rc->in, rc->in->m->funcs[func]);
    Val r = {0, 0};
    if (!cfr)
        return false;
    cfr->args[0] = (Val){x, 0};
    if (!run_activation(rc->in, func, rc->inst, rc->inst, &r))
        return false;
    *ret = r.bits;
    return true;
}

static bool rt_thrown(void *ctx, uint64_t bits)
{
    RtCall *rc = ctx;
    return interp_throw(rc->in, TY_I64, bits, rc->fr->fi->f->name);
}

/* runtime function fn called by CALL or INVOKE g: as call_gate */
static bool compute_runtime_call(Interp *in, Frame *fr, GateId g, const Gate *G, RuntimeFn fn, uint32_t *inst_out,
                                 Val *res)
{
    Type types[3];
    RtCall rc = {in, fr, g, 0};
    RtInterp ri = {in->mem, in->m, {{0, 0}}, 0, &rc, rt_invalid, rt_run, rt_thrown};
    for (uint32_t i = 0; i < G->ndata - 1 && i < 3; i++) {
        ri.args[i] = value_of(fr, gate_data(G, i + 1));
        types[i] = (Type)circ_gate(fr->fi->c, gate_data(G, i + 1))->type;
    }
    if (!rt_call_matches(fn, types, G->ndata - 1, (Type)G->type))
        return fail_gate(in, fr, g, "arguments or result do not match the runtime function's signature");
    rc.inst = ri.inst = mem_instance(in->mem, fr->slots[gate_dep(G, 0)].tok, fr->call_inst, fr->fi->f->index, g);
    *inst_out = rc.inst;
    uint64_t r = 0;
    if (!rt_interp_call(fn, &ri, &r))
        return false;
    *res = (Val){r, 0};
    return true;
}

/* the call of CALL or INVOKE g: *inst gets its effect instance as soon as it is known
 * (before the callee runs), *r the result */
static bool call_gate(Interp *in, Frame *fr, GateId g, const Gate *G, uint32_t *inst_out, Val *r)
{
    if (G->ndep != 1 || G->ndata < 1)
        return fail_gate(in, fr, g, "is malformed");
    Val callee = value_of(fr, gate_data(G, 0));
    int rt = mem_callee_runtime(in->mem, callee);
    if (rt >= 0)
        return compute_runtime_call(in, fr, g, G, (RuntimeFn)rt, inst_out, r);
    int fidx = mem_callee(in->mem, callee);
    if (fidx < 0)
        return fail_gate(in, fr, g, "calls a value that is not the address of a function of the module");
    const Func *cf = in->m->funcs[fidx];
    if (!call_matches(fr, G, cf)) {
        char why[128];
        snprintf(why, sizeof why, "arguments or result do not match the signature of @%s", cf->name);
        return fail_gate(in, fr, g, why);
    }
    Frame *cfr = callee_frame(in, cf);
    if (!cfr)
        return false;
    uint32_t inst = mem_instance(in->mem, fr->slots[gate_dep(G, 0)].tok, fr->call_inst, fr->fi->f->index, g);
    *inst_out = inst;
    for (uint32_t i = 0; i < cf->nparams; i++)
        cfr->args[i] = value_of(fr, gate_data(G, i + 1));
    return run_activation(in, (uint32_t)fidx, inst, inst, r);
}

static bool compute_call(Interp *in, Frame *fr, GateId g, const Gate *G)
{
    Val r = {0, 0};
    uint32_t inst = 0;
    if (!call_gate(in, fr, g, G, &inst, &r))
        return false;
    fr->slots[g] = (Slot){r.bits, 0, inst, 0, 0, 0};
    return true;
}

/* DEPEND_AND: the instance after all of its inputs' */
static bool compute_and(Interp *in, Frame *fr, GateId g, const Gate *G)
{
    uint32_t preds[16], *p = G->ndep <= 16 ? preds : xcalloc(G->ndep, sizeof *p);
    for (uint32_t i = 0; i < G->ndep; i++)
        p[i] = fr->slots[gate_dep(G, i)].tok;
    fr->slots[g].tok = mem_join(in->mem, p, G->ndep, fr->call_inst, fr->fi->f->index, g);
    if (p != preds)
        free(p);
    return true;
}

static bool compute(Interp *in, Frame *fr, GateId g)
{
    if (!step(in))
        return false;
    const Gate *G = circ_gate(fr->fi->c, g);
    Slot *s = &fr->slots[g];
    switch (G->op) {
    case OP_CONSTANT:
        s->bits = G->lit;
        s->prov = 0;
        return true;
    case OP_ARG:
        if (G->lit >= fr->nargs)
            return fail_gate(in, fr, g, "names a parameter the function does not have");
        s->bits = fr->args[G->lit].bits & ty_mask((Type)G->type);
        s->prov = fr->args[G->lit].prov;
        return true;
    case OP_ALLOCA: {
        Val v;
        MemAllocaResult r = mem_alloca(in->mem, G->lit, fr->fi->f->index, g, &v);
        if (r == MEM_STACK_EXHAUSTED)
            return fail(in, OUT_TIMEOUT, "stack beyond %u bytes of ALLOCA", STACK_LIMIT);
        if (r != MEM_ALLOCA_OK)
            return fail_gate(in, fr, g, "allocates more than the interpreter supports");
        s->bits = v.bits;
        s->prov = v.prov;
        return true;
    }
    case OP_SYMBOL: {
        if (G->lit >= in->m->nfuncs && module_symbol_runtime(in->m, G->lit) < 0)
            return fail_gate(in, fr, g, "names no function");
        Val v = mem_symbol(in->mem, (uint32_t)G->lit);
        s->bits = v.bits;
        s->prov = v.prov;
        return true;
    }
    case OP_DEPEND_RELAY:
        s->tok = fr->slots[gate_dep(G, 0)].tok;
        return true;
    case OP_DEPEND_AND:
        return compute_and(in, fr, g, G);
    case OP_LOAD:
        return compute_load(in, fr, g, G);
    case OP_STORE:
        return compute_store(in, fr, g, G);
    case OP_CALL:
        return compute_call(in, fr, g, G);
    default:
        if (op_has(G->op, F_PURE))
            return compute_pure(in, fr, g, G);
        return fail_gate(in, fr, g, "cannot be evaluated");
    }
}

/* ---- control ----------------------------------------------------------------- */
/* control arrives at state gate s: its relays start a new instance */
static bool visit(Interp *in, Frame *fr, GateId s)
{
    if (!step(in))
        return false;
    const Lists *r = &fr->fi->relays;
    for (uint32_t k = r->start[s]; k < r->start[s + 1]; k++) {
        GateId x = r->items[k];
        bool exc = circ_gate(fr->fi->c, x)->op == OP_GET_EXCEPTION;
        fr->slots[x].stamp = exc ? fr->epoch : 0;
        fr->slots[x].bits = exc ? fr->caught : 0;
        fr->slots[x].prov = 0;
        fr->slots[x].pass = fr->epoch;
        invalidate_users(in, fr, x);
    }
    return true;
}

static bool take_selector_input(Interp *in, Frame *fr, GateId sel, uint32_t j, Val *v)
{
    const Gate *S = circ_gate(fr->fi->c, sel);
    bool value = S->op == OP_VALUE_SELECTOR;
    if (j >= (value ? S->ndata : S->ndep))
        return fail_gate(in, fr, sel, "has no input for the state input control entered through");
    GateId x = value ? gate_data(S, j) : gate_dep(S, j);
    if (!demand(in, fr, x, sel))
        return false;
    *v = value ? value_of(fr, x) : (Val){fr->slots[x].tok, 0};
    return true;
}

/* enter MERGE/LOOP_BEGIN j through state input idx: live selectors read input idx
 * (all of them, before any changes), a new loop iteration forgets the path inside it,
 * then every selector takes its new value */
static bool enter_join(Interp *in, Frame *fr, GateId j, uint32_t idx)
{
    const FuncInfo *fi = fr->fi;
    uint32_t first = fi->sels.start[j], nsel = fi->sels.start[j + 1] - first;
    uint32_t base = in->nscratch;
    if (base + nsel > in->capscratch) {
        in->capscratch = 2 * (base + nsel) + 16;
        in->scratch = xrealloc(in->scratch, in->capscratch * sizeof *in->scratch);
    }
    in->nscratch = base + nsel;
    for (uint32_t k = 0; k < nsel; k++) {
        Val v;
        if (!take_selector_input(in, fr, fi->sels.items[first + k], idx, &v))
            return false;
        in->scratch[base + k] = v;
    }
    if (circ_gate(fi->c, j)->op == OP_LOOP_BEGIN)
        for (uint32_t k = fi->resets.start[j]; k < fi->resets.start[j + 1]; k++) {
            GateId x = fi->resets.items[k];
            fr->slots[x].stamp = 0;
            fr->slots[x].pass = 0;
            invalidate_users(in, fr, x);
        }
    for (uint32_t k = 0; k < nsel; k++) {
        GateId sel = fi->sels.items[first + k];
        Slot *s = &fr->slots[sel];
        Val v = in->scratch[base + k];
        if (circ_gate(fi->c, sel)->op == OP_VALUE_SELECTOR) {
            s->bits = v.bits;
            s->prov = v.prov;
        } else {
            s->tok = (uint32_t)v.bits;
        }
        s->stamp = fr->epoch;
        invalidate_users(in, fr, sel);
    }
    in->nscratch = base;
    return true;
}

static bool go(Interp *in, Frame *fr, GateId next, uint32_t idx)
{
    const Gate *N = circ_gate(fr->fi->c, next);
    if ((N->op == OP_MERGE || N->op == OP_LOOP_BEGIN) && !enter_join(in, fr, next, idx))
        return false;
    return visit(in, fr, next);
}

static bool branch_value(Interp *in, Frame *fr, GateId s, uint64_t *bits)
{
    const Gate *S = circ_gate(fr->fi->c, s);
    if (S->ndata != 1)
        return fail_gate(in, fr, s, "is malformed");
    GateId x = gate_data(S, 0);
    if (!demand(in, fr, x, s))
        return false;
    if (fr->slots[x].prov)
        return fail_escape(in, fr, fr->slots[x].prov, s);
    *bits = fr->slots[x].bits;
    return true;
}

static GateId switch_target(const FuncInfo *fi, GateId s, uint64_t v)
{
    const Gate *S = circ_gate(fi->c, s);
    uint64_t mask = ty_mask((Type)circ_gate(fi->c, gate_data(S, 0))->type);
    GateId dflt = NO_GATE;
    for (uint32_t k = 0; k < S->nuses; k++) {
        const Gate *U = circ_gate(fi->c, S->uses[k].user);
        if (U->dead || S->uses[k].index >= U->nstate)
            continue;
        if (U->op == OP_SWITCH_CASE && (U->lit & mask) == (v & mask))
            return S->uses[k].user;
        if (U->op == OP_DEFAULT_CASE)
            dflt = S->uses[k].user;
    }
    return dflt;
}

/* RETURN / THROW: demand the dependencies, then the value */
static bool finish(Interp *in, Frame *fr, GateId t, Val *ret)
{
    const Gate *T = circ_gate(fr->fi->c, t);
    for (uint32_t i = 0; i < T->ndep; i++)
        if (!demand(in, fr, gate_dep(T, i), t))
            return false;
    Val v = {0, 0};
    Type ty = TY_NONE;
    if (T->ndata) {
        if (!demand(in, fr, gate_data(T, 0), t))
            return false;
        v = value_of(fr, gate_data(T, 0));
        ty = (Type)circ_gate(fr->fi->c, gate_data(T, 0))->type;
        if (v.prov)
            return fail_escape(in, fr, v.prov, t);
    }
    if (T->op == OP_THROW)
        return interp_throw(in, ty, v.bits, fr->fi->f->name);
    if (ty != fr->fi->f->ret)
        return fail_gate(in, fr, t, "returns a value that does not match the function's result type");
    *ret = (Val){v.bits & ty_mask(ty), 0};
    return true;
}

/* ---- exceptions ------------------------------------------------------------- */
bool interp_throw(Interp *in, Type ty, uint64_t bits, const char *from)
{
    in->out->type = (uint8_t)ty;
    in->out->bits = bits & ty_mask(ty);
    return fail(in, OUT_THROW, "thrown from @%s", from);
}

/* after a call that failed: true (the run resumes, the bits in *bits) if it failed by
 * a throw, which the caller catches; the demand stack and the scratch go back to
 * where they were when the call started */
static bool invoke_catch(Interp *in, uint32_t sp, uint32_t nscratch, uint64_t *bits)
{
    if (in->out->kind != OUT_THROW)
        return false;
    *bits = in->out->bits;
    in->out->caught++;
    in->out->kind = OUT_RETURN;
    in->out->type = TY_NONE;
    in->out->bits = 0;
    in->out->reason[0] = 0;
    in->sp = sp;
    in->nscratch = nscratch;
    return true;
}

/* INVOKE s: demand its dependency and operands, call; *threw: it caught an exception
 * (its value is then not available, its dependency is) */
static bool run_invoke(Interp *in, Frame *fr, GateId s, bool *threw)
{
    const Gate *S = circ_gate(fr->fi->c, s);
    for (uint32_t i = S->nstate; i < gate_nin(S); i++)
        if (!demand(in, fr, S->in[i], s))
            return false;
    uint32_t sp = in->sp, nscratch = in->nscratch, inst = 0;
    Val r = {0, 0};
    *threw = !call_gate(in, fr, s, S, &inst, &r);
    if (*threw && !invoke_catch(in, sp, nscratch, &fr->caught))
        return false;
    fr->slots[s] = (Slot){*threw ? 0 : r.bits, 0, inst, fr->epoch, 0, 0};
    invalidate_users(in, fr, s);
    return true;
}

static bool run_states(Interp *in, Frame *fr, Val *ret)
{
    const FuncInfo *fi = fr->fi;
    GateId cur = ROOT_STATE_ENTRY;
    if (!visit(in, fr, cur))
        return false;
    for (;;) {
        const Gate *G = circ_gate(fi->c, cur);
        GateId next = fi->succ[cur];
        uint32_t idx = fi->succ_in[cur];
        uint64_t v;
        if (G->op == OP_RETURN || G->op == OP_THROW)
            return finish(in, fr, cur, ret);
        if (G->op == OP_IF_BRANCH) {
            if (!branch_value(in, fr, cur, &v))
                return false;
            next = v & 1 ? fi->succ[cur] : fi->alt[cur];
            idx = 0;
        } else if (G->op == OP_SWITCH_BRANCH) {
            if (!branch_value(in, fr, cur, &v))
                return false;
            next = switch_target(fi, cur, v);
            idx = 0;
        } else if (G->op == OP_INVOKE) {
            bool threw;
            if (!run_invoke(in, fr, cur, &threw))
                return false;
            next = threw ? fi->alt[cur] : next;
            idx = 0;
        }
        if (next == NO_GATE)
            return fail_gate(in, fr, cur, "control reaches it and it has no successor for this path");
        if (!go(in, fr, next, idx))
            return false;
        cur = next;
    }
}

static void frame_prepare(Interp *in, Frame *fr, const FuncInfo *fi, uint32_t call_inst)
{
    if (fi->n > fr->capslots) {
        fr->slots = xrealloc(fr->slots, fi->n * sizeof *fr->slots);
        memset(fr->slots + fr->capslots, 0, (fi->n - fr->capslots) * sizeof *fr->slots);
        fr->capslots = fi->n;
    }
    fr->fi = fi;
    fr->epoch = ++in->epoch;
    fr->call_inst = call_inst;
}

static bool run_activation(Interp *in, uint32_t func, uint32_t entry_tok, uint32_t call_inst, Val *ret)
{
    if (in->depth >= in->max_depth)
        return fail(in, OUT_TIMEOUT, "call depth beyond %u", in->max_depth);
    const Func *f = in->m->funcs[func];
    if (in->info[func] && in->info[func]->n != f->circ->ngates) { /* the circuit grew */
        funcinfo_free(in->info[func]);
        in->info[func] = NULL;
    }
    if (!in->info[func])
        in->info[func] = funcinfo_new(f, &in->build);
    Frame *fr = frame_at(in, in->depth);
    frame_prepare(in, fr, in->info[func], call_inst);
    Slot *entry = &fr->slots[ROOT_DEPEND_ENTRY];
    entry->stamp = fr->epoch;
    entry->tok = entry_tok;
    in->depth++;
    uint32_t mark = mem_mark(in->mem);
    bool ok = run_states(in, fr, ret);
    mem_release(in->mem, mark);
    in->depth--;
    return ok;
}

/* ---- entry points ------------------------------------------------------------ */
static void reset_epochs(Interp *in)
{
    for (uint32_t i = 0; i < in->nframes; i++)
        if (in->frames[i]->slots)
            memset(in->frames[i]->slots, 0, in->frames[i]->capslots * sizeof(Slot));
    in->epoch = 0;
}

void interp_call(Interp *in, uint32_t func, const uint64_t *args, Outcome *out)
{
    out->kind = OUT_RETURN;
    out->trap = TRAP_NONE;
    out->type = TY_NONE;
    out->bits = 0;
    out->caught = 0;
    out->reason[0] = 0;
    in->out = out;
    in->steps = 0;
    in->depth = 0;
    in->sp = 0;
    in->nscratch = 0;
    if (in->epoch > 0xffffffffu - in->max_steps - 2)
        reset_epochs(in);
    mem_reset(in->mem);
    if (func >= in->m->nfuncs) {
        fail(in, OUT_INVALID, "no function number %u", func);
    } else {
        const Func *f = in->m->funcs[func];
        Frame *fr = frame_at(in, 0);
        if (f->nparams > fr->capargs) {
            fr->capargs = f->nparams;
            fr->args = xrealloc(fr->args, fr->capargs * sizeof *fr->args);
        }
        fr->nargs = f->nparams;
        for (uint32_t i = 0; i < f->nparams; i++)
            fr->args[i] = mem_arg_value(in->mem, args[i] & ty_mask(f->params[i]));
        Val r;
        if (run_activation(in, func, 0, 0, &r)) {
            out->kind = OUT_RETURN;
            out->type = (uint8_t)f->ret;
            out->bits = r.bits;
        }
    }
    out->steps = in->steps;
    out->alloca_bytes = mem_alloca_total(in->mem);
    memcpy(out->heap, mem_heap(in->mem), HEAP_SIZE);
}

void interp_run(const Module *m, uint32_t func, const uint64_t *args, const InterpOptions *opt, Outcome *out)
{
    Interp *in = interp_new(m, opt);
    interp_call(in, func, args, out);
    interp_free(in);
}
