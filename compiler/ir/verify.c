/* verify.c — the Circuit IR verifier.  For every live gate of a function it checks:
 *   1. wire counts per kind (op_info smin..smax, dmin..dmax, vmin..vmax);
 *   2. state inputs: state gates with a state output, GENERAL_STATE where the spec
 *      says so, IF_TRUE/IF_FALSE on an IF_BRANCH, cases on a SWITCH_BRANCH, LOOP_BEGIN
 *      input 1 a LOOP_BACK, IF_SUCCESS/IF_EXCEPTION on an INVOKE, GET_EXCEPTION on an
 *      IF_EXCEPTION;
 *   3. dependency inputs from DEPEND_ENTRY or a dependency output, data inputs from
 *      values (not void calls, state gates or roots);
 *   4. successors: one IF_TRUE and one IF_FALSE per IF_BRANCH, one DEFAULT_CASE and
 *      distinct, fitting case values per SWITCH_BRANCH, one IF_SUCCESS and one
 *      IF_EXCEPTION per INVOKE, one control successor for
 *      every other state gate, a LOOP_BACK feeding input 1 of a LOOP_BEGIN;
 *   5. selectors on a MERGE/LOOP_BEGIN with one input per state input; relays on a
 *      relayable state;
 *   6. the type rule of opcodes.def (TR_*), ARG/SYMBOL/ALLOCA literals, direct-call
 *      signatures;
 *   7. the state graph: reachable from entry, every path can end in RETURN/THROW,
 *      acyclic without LOOP_BACK->LOOP_BEGIN edges, natural loops (header dominates
 *      its LOOP_BACK);
 *   8. data/dependency cycles only through input 1 of a selector on a LOOP_BEGIN;
 *   9. schedulability: each gate is available below the deepest selector or relay it
 *      depends on (they must lie on one dominator-tree path), and each use — a state
 *      gate's inputs, selector input j at the join's predecessor j, a relay's input at
 *      its state — lies below that point.  An INVOKE's value and dependency are
 *      available below its IF_SUCCESS (and the dependency to a DEPEND_RELAY on its
 *      IF_EXCEPTION), GET_EXCEPTION's value below its IF_EXCEPTION;
 *  10. the root lists register exactly the live RETURN, THROW, CONSTANT, ALLOCA and
 *      ARG gates (verify_lists.c).
 * Every error is reported through diag_gate and counted; dead gates are skipped; any
 * circuit the parser or the builder can produce is accepted without crashing.  Time is
 * near-linear: dominators by Cooper-Harvey-Kennedy, cycles by Tarjan, both iterative. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

#define UNSEEN 0xffffffffu
_Static_assert(UNSEEN == NO_GATE, "one fill marks both");

/* state edges in compressed rows: for each gate, the state gates that use it as a
 * state input, with the input index */
typedef struct {
    uint32_t *start, *count; /* per gate: first edge of its row, number of edges */
    Use *edge;
} StateEdges;

typedef struct {
    const Func *f;
    const Circuit *c;
    Diag *d;
    int errors;
    uint32_t n;
    StateEdges succ;
    uint32_t *rpo_num;   /* per gate: position in reverse postorder, UNSEEN if unreachable */
    GateId *rpo;         /* reachable state gates in reverse postorder */
    uint32_t nrpo;
    GateId *idom;        /* per gate */
    uint32_t *dom_pre, *dom_post; /* dominator-tree interval numbers */
    GateId *early;       /* per computation gate: the state below which it is available */
    GateId *early_src;   /* the selector or relay that sets early (NO_GATE: entry) */
    uint32_t *flags;     /* per gate: its opcode's F_* flags (none for an unknown opcode), plus K_* */
    GateId *states;      /* live state gates, ascending; those from states_nonroot on are not roots' slots */
    uint32_t nstates, states_nonroot;
    GateId *computations; /* live computation gates from NUM_ROOTS on, ascending */
    uint32_t ncomputations;
    GateId *sched_users; /* live selectors, relays and state gates from NUM_ROOTS on, ascending */
    uint32_t nsched_users;
    Arena *scratch;     /* every array of the check; freed at its end */
} Verifier;

/* facts of a gate kept with its opcode flags in Verifier.flags (above every F_*) */
enum {
    K_LIVE = 1u << 31,        /* not removed */
    K_SOURCE = 1u << 30,      /* live, a state gate with a state output */
    K_COMPUTATION = 1u << 29, /* live, neither a state gate nor a root */
};

#define ERR(v, g, ...) ((v)->errors++, diag_gate((v)->d, (v)->f, (g), __VA_ARGS__))

/* ---- small helpers ---------------------------------------------------------- */

static const Gate *gate_of(const Verifier *v, GateId g) { return &v->c->gates[g]; }
static const char *opname(const Verifier *v, GateId g)
{
    return gate_of(v, g)->op < OP_COUNT ? op_info[gate_of(v, g)->op].name : "?";
}

/* g < n and every bit of `all` set in its flags */
static bool flagged(const Verifier *v, GateId g, uint32_t all)
{
    return g < v->n && (v->flags[g] & all) == all;
}

static bool live(const Verifier *v, GateId g) { return flagged(v, g, K_LIVE); }

/* g < n: its opcode has flag */
static bool has(const Verifier *v, GateId g, uint32_t flag) { return (v->flags[g] & flag) != 0; }

/* a state gate that can be the source of a state wire */
static bool state_source(const Verifier *v, GateId g) { return flagged(v, g, K_SOURCE); }

static bool is_computation(const Verifier *v, GateId g) { return flagged(v, g, K_COMPUTATION); }

static bool is_state_gate(const Verifier *v, GateId g) { return flagged(v, g, K_LIVE | F_STATE); }

static void check_gate(Verifier *v, GateId g);

/* the gate lists of Verifier, filled from the flags, and rules 1-3, 5, 6 checked on
 * each live gate that is not a root, in ascending order */
static void list_and_check_gates(Verifier *v)
{
    size_t bytes = (v->n ? v->n : 1) * sizeof(GateId);
    v->states = arena_alloc_raw(v->scratch, bytes);
    v->computations = arena_alloc_raw(v->scratch, bytes);
    v->sched_users = arena_alloc_raw(v->scratch, bytes);
    for (GateId g = 0; g < v->n; g++) {
        uint32_t f = v->flags[g];
        if (g == NUM_ROOTS)
            v->states_nonroot = v->nstates;
        if ((f & (K_LIVE | F_STATE)) == (K_LIVE | F_STATE))
            v->states[v->nstates++] = g;
        if (g < NUM_ROOTS || !(f & K_LIVE))
            continue;
        uint16_t op = v->c->gates[g].op;
        if (f & K_COMPUTATION)
            v->computations[v->ncomputations++] = g;
        if ((f & F_STATE) || op == OP_VALUE_SELECTOR || op == OP_DEPEND_SELECTOR || op == OP_DEPEND_RELAY)
            v->sched_users[v->nsched_users++] = g;
        check_gate(v, g);
    }
    if (v->n <= NUM_ROOTS)
        v->states_nonroot = v->nstates;
}

/* NO_GATE is never below n: a circuit has fewer gates */
static void compute_flags(Verifier *v)
{
    v->flags = arena_alloc_raw(v->scratch, (v->n ? v->n : 1) * sizeof *v->flags);
    for (GateId g = 0; g < v->n; g++) {
        const Gate *gt = gate_of(v, g);
        uint32_t f = gt->op < OP_COUNT ? op_info[gt->op].flags : 0;
        if (!gt->dead) {
            f |= K_LIVE;
            if ((f & (F_STATE | F_STATEOUT)) == (F_STATE | F_STATEOUT))
                f |= K_SOURCE;
            if (!(f & (F_STATE | F_ROOT)))
                f |= K_COMPUTATION;
        }
        v->flags[g] = f;
    }
}

static bool is_selector(const Verifier *v, GateId g)
{
    uint16_t op = gate_of(v, g)->op;
    return op == OP_VALUE_SELECTOR || op == OP_DEPEND_SELECTOR;
}

static const char *label(const Verifier *v, GateId g, char *buf, size_t n)
{
    return gate_label(v->f, g, buf, n);
}

static Type type_of(const Verifier *v, GateId g)
{
    Type t = (Type)gate_of(v, g)->type;
    return t < TY_COUNT ? t : TY_NONE;
}

static void *zalloc(const Verifier *v, size_t n, size_t size) { return arena_alloc(v->scratch, (n ? n : 1) * size); }

/* n 32-bit words, every one UNSEEN (== NO_GATE) */
static uint32_t *alloc_unseen(const Verifier *v, size_t n)
{
    uint32_t *p = arena_alloc_raw(v->scratch, (n ? n : 1) * sizeof *p);
    memset(p, 0xff, (n ? n : 1) * sizeof *p);
    return p;
}

/* ---- rule 1: wire counts ---------------------------------------------------- */

static bool count_fits(uint32_t n, uint16_t lo, uint16_t hi) { return n >= lo && (hi == VAR || n <= hi); }

static void check_count(Verifier *v, GateId g, const char *kind, uint32_t n, uint16_t lo, uint16_t hi)
{
    if (count_fits(n, lo, hi))
        return;
    if (hi == VAR)
        ERR(v, g, "%s takes at least %u %s input(s), has %u", opname(v, g), lo, kind, n);
    else if (lo == hi)
        ERR(v, g, "%s takes %u %s input(s), has %u", opname(v, g), lo, kind, n);
    else
        ERR(v, g, "%s takes %u..%u %s input(s), has %u", opname(v, g), lo, hi, kind, n);
}

static void check_counts(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    const OpInfo *oi = &op_info[gt->op];
    if (count_fits(gt->nstate, oi->smin, oi->smax) && count_fits(gt->ndep, oi->dmin, oi->dmax) &&
        count_fits(gt->ndata, oi->vmin, oi->vmax))
        return;
    check_count(v, g, "state", gt->nstate, oi->smin, oi->smax);
    check_count(v, g, "dependency", gt->ndep, oi->dmin, oi->dmax);
    check_count(v, g, "data", gt->ndata, oi->vmin, oi->vmax);
}

/* ---- rules 2, 3, 5: the kind of gate each wire comes from -------------------- */

/* false (after reporting) if input `in` at position i of group `kind` is missing or a
 * root that may not appear there */
static bool input_present(Verifier *v, GateId g, const char *kind, uint32_t i, GateId in, GateId allowed_root)
{
    if (!live(v, in)) {
        ERR(v, g, "%s input %u is missing or names a removed gate", kind, i);
        return false;
    }
    if (has(v, in, F_ROOT) && in != allowed_root) {
        ERR(v, g, "%s input %u is the root %s, which is never an input there", kind, i, opname(v, in));
        return false;
    }
    return true;
}

/* the state gate kind required at state input i of g: 0 none beyond a state output */
static uint16_t required_state_op(const Gate *gt, uint32_t i)
{
    switch (gt->op) {
    case OP_IF_TRUE: case OP_IF_FALSE: return OP_IF_BRANCH;
    case OP_SWITCH_CASE: case OP_DEFAULT_CASE: return OP_SWITCH_BRANCH;
    case OP_LOOP_BEGIN: return i == 1 ? OP_LOOP_BACK : 0;
    case OP_IF_SUCCESS: case OP_IF_EXCEPTION: return OP_INVOKE;
    case OP_GET_EXCEPTION: return OP_IF_EXCEPTION;
    default: return 0;
    }
}

static bool needs_general_state(const Gate *gt, uint32_t i)
{
    switch (gt->op) {
    case OP_RETURN: case OP_THROW: case OP_ORDINARY_BLOCK: case OP_IF_BRANCH:
    case OP_SWITCH_BRANCH: case OP_MERGE: case OP_LOOP_BACK: case OP_INVOKE:
        return true;
    case OP_LOOP_BEGIN:
        return i == 0;
    default:
        return false;
    }
}

static void check_state_input_kind(Verifier *v, GateId g, uint32_t i, GateId in)
{
    const Gate *gt = gate_of(v, g);
    char b[160];
    uint16_t want = required_state_op(gt, i);
    if (gt->op == OP_VALUE_SELECTOR || gt->op == OP_DEPEND_SELECTOR) {
        if (!has(v, in, F_JOIN))
            ERR(v, g, "a selector sits on a MERGE or LOOP_BEGIN, not on %s (%s)", label(v, in, b, sizeof b), opname(v, in));
    } else if (gt->op == OP_DEPEND_RELAY) {
        if (!has(v, in, F_RELAYABLE))
            ERR(v, g, "DEPEND_RELAY's state input %s (%s) cannot be relayed (IF_TRUE, IF_FALSE, SWITCH_CASE, "
                      "DEFAULT_CASE, IF_SUCCESS, IF_EXCEPTION or ORDINARY_BLOCK)",
                label(v, in, b, sizeof b), opname(v, in));
    } else if (!state_source(v, in)) {
        ERR(v, g, "state input %u, %s (%s), is not a state gate with a state output", i, label(v, in, b, sizeof b),
            opname(v, in));
    } else if (want && gate_of(v, in)->op != want) {
        ERR(v, g, "%s's state input %u must be %s, not %s (%s)", opname(v, g), i, op_info[want].name,
            label(v, in, b, sizeof b), opname(v, in));
    } else if (needs_general_state(gt, i) && !has(v, in, F_GENERAL)) {
        ERR(v, g, "state input %u, %s (%s), is not a GENERAL_STATE gate", i, label(v, in, b, sizeof b), opname(v, in));
    }
}

static void check_state_inputs(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    for (uint32_t i = 0; i < gt->nstate; i++) {
        GateId in = gate_state(gt, i);
        if (input_present(v, g, "state", i, in, ROOT_STATE_ENTRY))
            check_state_input_kind(v, g, i, in);
    }
}

static void check_dep_inputs(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    char b[160];
    for (uint32_t i = 0; i < gt->ndep; i++) {
        GateId in = gate_dep(gt, i);
        if (!input_present(v, g, "dependency", i, in, ROOT_DEPEND_ENTRY) || in == ROOT_DEPEND_ENTRY)
            continue;
        if (has(v, in, F_STATE) && !has(v, in, F_DEPOUT))
            ERR(v, g, "dependency input %u, %s (%s), is a state gate; a DEPEND_RELAY turns a state into a dependency",
                i, label(v, in, b, sizeof b), opname(v, in));
        else if (!has(v, in, F_DEPOUT))
            ERR(v, g, "dependency input %u, %s (%s), has no dependency output", i, label(v, in, b, sizeof b),
                opname(v, in));
    }
}

static void check_data_inputs(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    char b[160];
    for (uint32_t i = 0; i < gt->ndata; i++) {
        GateId in = gate_data(gt, i);
        if (!input_present(v, g, "data", i, in, NO_GATE))
            continue;
        if (has(v, in, F_STATE) && !has(v, in, F_VALUE))
            ERR(v, g, "data input %u, %s (%s), is a state gate, not a value", i, label(v, in, b, sizeof b),
                opname(v, in));
        else if (!has(v, in, F_VALUE) || type_of(v, in) == TY_NONE)
            ERR(v, g, "data input %u, %s (%s%s), has no value", i, label(v, in, b, sizeof b),
                op_info[gate_of(v, in)->op].rule == TR_CALL ? "void " : "", opname(v, in));
    }
}

/* a selector has one input of its kind per state input of its MERGE/LOOP_BEGIN */
static void check_selector_arity(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    if (gt->nstate < 1 || !live(v, gate_state(gt, 0)) || !has(v, gate_state(gt, 0), F_JOIN))
        return;
    const Gate *join = gate_of(v, gate_state(gt, 0));
    bool value = gt->op == OP_VALUE_SELECTOR;
    uint32_t n = value ? gt->ndata : gt->ndep;
    char b[160];
    if (n != join->nstate)
        ERR(v, g, "%s has %u %s input(s), but its %s %s has %u state input(s)", opname(v, g), n,
            value ? "data" : "dependency", op_info[join->op].name, label(v, gate_state(gt, 0), b, sizeof b),
            join->nstate);
}

/* ---- rule 6: types ---------------------------------------------------------- */

enum {
    M_I1 = 1 << TY_I1, M_I8 = 1 << TY_I8, M_I16 = 1 << TY_I16, M_I32 = 1 << TY_I32, M_I64 = 1 << TY_I64,
    M_F32 = 1 << TY_F32, M_F64 = 1 << TY_F64,
    M_INT = M_I1 | M_I8 | M_I16 | M_I32 | M_I64,
    M_WIDE = M_I8 | M_I16 | M_I32 | M_I64,
    M_NARROW = M_I1 | M_I8 | M_I16 | M_I32,
    M_FLOAT = M_F32 | M_F64,
    M_VALUE = M_INT | M_FLOAT,
    M_NOT_I1 = M_VALUE & ~M_I1,
};

static bool in_mask(Type t, unsigned mask) { return t < TY_COUNT && (mask & (1u << t)) != 0; }

/* type of data input i, or TY_NONE when it is absent or not a value (reported elsewhere) */
static Type data_type(const Verifier *v, GateId g, uint32_t i)
{
    const Gate *gt = gate_of(v, g);
    if (i >= gt->ndata)
        return TY_NONE;
    GateId in = gate_data(gt, i);
    if (!live(v, in) || !has(v, in, F_VALUE))
        return TY_NONE;
    return type_of(v, in);
}

static bool result_in(Verifier *v, GateId g, unsigned mask, const char *what)
{
    Type t = type_of(v, g);
    if (in_mask(t, mask))
        return true;
    ERR(v, g, "%s result must be %s, not %s", opname(v, g), what, ty_name(t));
    return false;
}

static bool input_in(Verifier *v, GateId g, uint32_t i, unsigned mask, const char *what)
{
    Type t = data_type(v, g, i);
    if (t == TY_NONE)
        return false;
    if (in_mask(t, mask))
        return true;
    ERR(v, g, "%s data input %u must be %s, not %s", opname(v, g), i, what, ty_name(t));
    return false;
}

static void input_is(Verifier *v, GateId g, uint32_t i, Type want)
{
    Type t = data_type(v, g, i);
    if (t != TY_NONE && t != want)
        ERR(v, g, "%s data input %u is %s, expected %s", opname(v, g), i, ty_name(t), ty_name(want));
}

/* every data input has the gate's own type (binary arithmetic, selectors) */
static void inputs_match_result(Verifier *v, GateId g)
{
    for (uint32_t i = 0; i < gate_of(v, g)->ndata; i++)
        input_is(v, g, i, type_of(v, g));
}

static void check_binary(Verifier *v, GateId g, unsigned mask, const char *what)
{
    if (result_in(v, g, mask, what))
        inputs_match_result(v, g);
}

/* SELECT (c, a, b): c is i1, a and b have the gate's type */
static void check_choose(Verifier *v, GateId g)
{
    if (!result_in(v, g, M_VALUE, "a value type"))
        return;
    input_is(v, g, 0, TY_I1);
    input_is(v, g, 1, type_of(v, g));
    input_is(v, g, 2, type_of(v, g));
}

static void check_compare(Verifier *v, GateId g, unsigned mask, const char *what, CondKind k)
{
    const Gate *gt = gate_of(v, g);
    if (!cond_name(k, gt->cond))
        ERR(v, g, "condition code %u is not a valid %s condition", gt->cond, opname(v, g));
    if (type_of(v, g) != TY_I1)
        ERR(v, g, "%s result must be i1, not %s", opname(v, g), ty_name(type_of(v, g)));
    if (input_in(v, g, 0, mask, what))
        input_is(v, g, 1, data_type(v, g, 0));
    else
        input_in(v, g, 1, mask, what);
}

/* one input, one result: each in its class; cmp < 0: result narrower, > 0: wider,
 * 0 equal width, 2: no width relation */
static void check_convert(Verifier *v, GateId g, unsigned rmask, const char *rwhat, unsigned imask,
                          const char *iwhat, int cmp)
{
    bool r = result_in(v, g, rmask, rwhat);
    bool i = input_in(v, g, 0, imask, iwhat);
    if (!r || !i || cmp == 2)
        return;
    int rb = ty_bits(type_of(v, g)), ib = ty_bits(data_type(v, g, 0));
    if (cmp < 0 && rb >= ib)
        ERR(v, g, "%s result %s must be narrower than its input %s", opname(v, g), ty_name(type_of(v, g)),
            ty_name(data_type(v, g, 0)));
    if (cmp > 0 && rb <= ib)
        ERR(v, g, "%s result %s must be wider than its input %s", opname(v, g), ty_name(type_of(v, g)),
            ty_name(data_type(v, g, 0)));
    if (cmp == 0 && rb != ib)
        ERR(v, g, "%s result %s and input %s differ in width", opname(v, g), ty_name(type_of(v, g)),
            ty_name(data_type(v, g, 0)));
}

static void check_return_type(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    Type ret = v->f->ret;
    if (ret == TY_NONE && gt->ndata)
        ERR(v, g, "@%s returns void: RETURN takes no data input", v->f->name);
    else if (ret != TY_NONE && !gt->ndata)
        ERR(v, g, "@%s returns %s: RETURN needs a data input", v->f->name, ty_name(ret));
    else if (ret != TY_NONE && data_type(v, g, 0) != TY_NONE && data_type(v, g, 0) != ret)
        ERR(v, g, "RETURN of %s, but @%s returns %s", ty_name(data_type(v, g, 0)), v->f->name, ty_name(ret));
}

/* a direct call (callee is a SYMBOL: a function or an extern) must match the callee's signature */
static void check_call_signature(Verifier *v, GateId g, const char *name, const Type *params, uint32_t nparams,
                                 Type ret)
{
    const Gate *gt = gate_of(v, g);
    uint32_t nargs = gt->ndata - 1;
    if (nargs != nparams)
        ERR(v, g, "%s passes %u argument(s), but @%s takes %u", opname(v, g), nargs, name, nparams);
    for (uint32_t i = 0; i < nargs && i < nparams; i++) {
        Type t = data_type(v, g, i + 1);
        if (t != TY_NONE && t != params[i])
            ERR(v, g, "%s argument %u is %s, but parameter %u of @%s is %s", opname(v, g), i, ty_name(t), i, name,
                ty_name(params[i]));
    }
    if (type_of(v, g) != ret)
        ERR(v, g, "%s result type %s does not match @%s's return type %s", opname(v, g), ty_name(type_of(v, g)),
            name, ty_name(ret));
}

static void check_call(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    if (type_of(v, g) != TY_NONE)
        result_in(v, g, M_VALUE, "a value type or void");
    if (gt->ndata < 1)
        return;
    input_is(v, g, 0, TY_ARCH);
    GateId callee = gate_data(gt, 0);
    const Module *m = v->f->module;
    if (!live(v, callee) || gate_of(v, callee)->op != OP_SYMBOL || !m)
        return;
    uint64_t lit = gate_of(v, callee)->lit;
    int rt = module_symbol_runtime(m, lit);
    if (lit < m->nfuncs)
        check_call_signature(v, g, m->funcs[lit]->name, m->funcs[lit]->params, m->funcs[lit]->nparams,
                             m->funcs[lit]->ret);
    else if (rt >= 0)
        check_call_signature(v, g, runtime_info[rt].name, runtime_info[rt].params, runtime_info[rt].nparams,
                             runtime_info[rt].ret);
}

static void check_arch_value(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    result_in(v, g, M_I64, "i64");
    const Module *m = v->f->module;
    if (gt->op == OP_ALLOCA && (gt->lit < 1 || gt->lit > 1048576))
        ERR(v, g, "ALLOCA size %llu must be between 1 and 1048576 bytes", (unsigned long long)gt->lit);
    if (gt->op == OP_SYMBOL && (!m || (gt->lit >= m->nfuncs && module_symbol_runtime(m, gt->lit) < 0)))
        ERR(v, g, "SYMBOL names function #%llu, but the module has %u function(s) and %u extern(s)",
            (unsigned long long)gt->lit, m ? m->nfuncs : 0, m ? m->nexterns : 0);
}

static void check_arg(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    if (gt->lit >= v->f->nparams) {
        ERR(v, g, "ARG index %llu out of range: @%s has %u parameter(s)", (unsigned long long)gt->lit, v->f->name,
            v->f->nparams);
        return;
    }
    Type want = v->f->params[gt->lit];
    if (type_of(v, g) != want)
        ERR(v, g, "ARG %llu is %s, but parameter %llu of @%s is %s", (unsigned long long)gt->lit,
            ty_name(type_of(v, g)), (unsigned long long)gt->lit, v->f->name, ty_name(want));
}

static void check_constant(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    if (!result_in(v, g, M_VALUE, "a value type"))
        return;
    if (gt->op == OP_CONSTANT && (gt->lit & ~ty_mask(type_of(v, g))))
        ERR(v, g, "CONSTANT bits 0x%llx do not fit in %s", (unsigned long long)gt->lit, ty_name(type_of(v, g)));
}

static void check_memory(Verifier *v, GateId g)
{
    if (gate_of(v, g)->op == OP_LOAD) {
        result_in(v, g, M_NOT_I1, "a value type other than i1");
        input_is(v, g, 0, TY_ARCH);
    } else {
        input_in(v, g, 0, M_NOT_I1, "a value type other than i1");
        input_is(v, g, 1, TY_ARCH);
    }
}

static void check_no_value(Verifier *v, GateId g)
{
    if (type_of(v, g) != TY_NONE)
        ERR(v, g, "%s produces no value but has type %s", opname(v, g), ty_name(type_of(v, g)));
}

static void check_types(Verifier *v, GateId g)
{
    const Gate *gt = gate_of(v, g);
    if (gt->type >= TY_COUNT)
        ERR(v, g, "invalid type code %u", gt->type);
    switch (op_info[gt->op].rule) {
    case TR_NONE: check_no_value(v, g); break;
    case TR_RETURN: check_no_value(v, g); check_return_type(v, g); break;
    case TR_THROW: check_no_value(v, g); input_in(v, g, 0, M_VALUE, "a value type"); break;
    case TR_COND: check_no_value(v, g); input_is(v, g, 0, TY_I1); break;
    case TR_SWITCH: check_no_value(v, g); input_in(v, g, 0, M_WIDE, "an integer type i8..i64"); break;
    case TR_SELECT: check_binary(v, g, M_VALUE, "a value type"); break;
    case TR_CHOOSE: check_choose(v, g); break;
    case TR_CALL: check_call(v, g); break;
    case TR_FLOAT1: case TR_FLOAT2: check_binary(v, g, M_FLOAT, "f32 or f64"); break;
    case TR_INT2: case TR_INT1: check_binary(v, g, M_WIDE, "an integer type i8..i64"); break;
    case TR_BSWAP: check_binary(v, g, M_WIDE & ~M_I8, "an integer type i16..i64"); break;
    case TR_LOGIC2: check_binary(v, g, M_INT, "an integer type i1..i64"); break;
    case TR_ICMP: check_compare(v, g, M_INT, "an integer type i1..i64", CC_ICMP); break;
    case TR_FCMP: check_compare(v, g, M_FLOAT, "f32 or f64", CC_FCMP); break;
    case TR_TRUNC: check_convert(v, g, M_INT, "an integer type", M_INT, "an integer type", -1); break;
    case TR_EXTEND: check_convert(v, g, M_WIDE, "an integer type i8..i64", M_NARROW, "an integer type i1..i32", 1); break;
    case TR_ITOF: check_convert(v, g, M_FLOAT, "f32 or f64", M_WIDE, "an integer type i8..i64", 2); break;
    case TR_FTOI: check_convert(v, g, M_WIDE, "an integer type i8..i64", M_FLOAT, "f32 or f64", 2); break;
    case TR_BITCAST: check_convert(v, g, M_NOT_I1, "a value type other than i1", M_NOT_I1, "a value type other than i1", 0); break;
    case TR_FPEXT: check_convert(v, g, M_F64, "f64", M_F32, "f32", 2); break;
    case TR_FPTRUNC: check_convert(v, g, M_F32, "f32", M_F64, "f64", 2); break;
    case TR_LOAD: case TR_STORE: check_memory(v, g); break;
    case TR_ARCH: check_arch_value(v, g); break;
    case TR_ARG: check_arg(v, g); break;
    case TR_ANY: check_constant(v, g); break;
    default: break;
    }
}

static void check_gate(Verifier *v, GateId g)
{
    if (gate_of(v, g)->op >= OP_COUNT || has(v, g, F_ROOT)) {
        ERR(v, g, "opcode %u is not a gate that can be written", gate_of(v, g)->op);
        return;
    }
    check_counts(v, g);
    check_state_inputs(v, g);
    check_dep_inputs(v, g);
    check_data_inputs(v, g);
    if (is_selector(v, g))
        check_selector_arity(v, g);
    check_types(v, g);
}

/* ---- the state graph -------------------------------------------------------- */

/* state edge into state input i of g (g a live state gate) */
static bool is_state_edge(const Verifier *v, GateId g, uint32_t i)
{
    return is_state_gate(v, g) && i < gate_of(v, g)->nstate && state_source(v, gate_state(gate_of(v, g), i));
}

/* the rows are laid out over the state gates only (every source is one); each row is
 * filled from its end, walking users and inputs backwards, so it keeps ascending order */
static void build_successors(Verifier *v)
{
    StateEdges *s = &v->succ;
    s->start = zalloc(v, v->n, sizeof *s->start);
    s->count = zalloc(v, v->n, sizeof *s->count);
    uint32_t total = 0;
    for (uint32_t s_i = 0; s_i < v->nstates; s_i++) {
        const Gate *gt = gate_of(v, v->states[s_i]);
        for (uint32_t i = 0; i < gt->nstate; i++)
            if (state_source(v, gate_state(gt, i)))
                s->count[gate_state(gt, i)]++;
    }
    for (uint32_t s_i = 0; s_i < v->nstates; s_i++) {
        GateId g = v->states[s_i];
        total += s->count[g];
        s->start[g] = total; /* the row's end until it is filled */
    }
    s->edge = zalloc(v, total, sizeof *s->edge);
    for (uint32_t s_i = v->nstates; s_i-- > 0;) {
        GateId g = v->states[s_i];
        const Gate *gt = gate_of(v, g);
        for (uint32_t i = gt->nstate; i-- > 0;) {
            GateId from = gate_state(gt, i);
            if (state_source(v, from))
                s->edge[--s->start[from]] = (Use){g, i};
        }
    }
}

static uint32_t nsucc(const Verifier *v, GateId g) { return v->succ.count[g]; }
static const Use *succ_of(const Verifier *v, GateId g) { return &v->succ.edge[v->succ.start[g]]; }
/* iterative depth-first search from STATE_ENTRY: reverse postorder numbers */
static void number_reachable(Verifier *v)
{
    v->rpo_num = alloc_unseen(v, v->n);
    v->rpo = zalloc(v, v->n, sizeof *v->rpo);
    GateId *stack = zalloc(v, v->n, sizeof *stack);
    uint32_t *next = zalloc(v, v->n, sizeof *next);
    uint8_t *seen = zalloc(v, v->n, 1);
    uint32_t sp = 0, post = 0;
    stack[sp++] = ROOT_STATE_ENTRY;
    seen[ROOT_STATE_ENTRY] = 1;
    while (sp) {
        GateId g = stack[sp - 1];
        if (next[g] < nsucc(v, g)) {
            GateId u = succ_of(v, g)[next[g]++].user;
            if (!seen[u]) {
                seen[u] = 1;
                stack[sp++] = u;
            }
            continue;
        }
        sp--;
        v->rpo[post++] = g;
    }
    v->nrpo = post;
    for (uint32_t i = 0; i < post / 2; i++) {
        GateId t = v->rpo[i];
        v->rpo[i] = v->rpo[post - 1 - i];
        v->rpo[post - 1 - i] = t;
    }
    for (uint32_t i = 0; i < post; i++)
        v->rpo_num[v->rpo[i]] = i;
}

static bool reachable(const Verifier *v, GateId g) { return g < v->n && v->rpo_num[g] != UNSEEN; }

static GateId intersect(const Verifier *v, GateId a, GateId b)
{
    while (a != b) {
        while (v->rpo_num[a] > v->rpo_num[b])
            a = v->idom[a];
        while (v->rpo_num[b] > v->rpo_num[a])
            b = v->idom[b];
    }
    return a;
}

/* Cooper, Harvey and Kennedy: iterate to a fixed point in reverse postorder */
static void compute_idoms(Verifier *v)
{
    v->idom = alloc_unseen(v, v->n);
    v->idom[ROOT_STATE_ENTRY] = ROOT_STATE_ENTRY;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = 1; k < v->nrpo; k++) {
            GateId g = v->rpo[k], nd = NO_GATE;
            const Gate *gt = gate_of(v, g);
            for (uint32_t i = 0; i < gt->nstate; i++) {
                GateId p = gate_state(gt, i);
                if (!is_state_edge(v, g, i) || v->idom[p] == NO_GATE)
                    continue;
                nd = nd == NO_GATE ? p : intersect(v, p, nd);
            }
            if (nd != v->idom[g]) {
                v->idom[g] = nd;
                changed = true;
            }
        }
    }
}

/* children of each reachable state gate in the dominator tree, in compressed rows
 * indexed by reverse-postorder number */
static void dominator_children(const Verifier *v, uint32_t **start_out, GateId **kids_out)
{
    uint32_t *start = zalloc(v, v->nrpo + 1, sizeof *start);
    GateId *kids = zalloc(v, v->nrpo, sizeof *kids);
    for (uint32_t k = 1; k < v->nrpo; k++)
        start[v->rpo_num[v->idom[v->rpo[k]]] + 1]++;
    for (uint32_t k = 0; k < v->nrpo; k++)
        start[k + 1] += start[k];
    uint32_t *fill = zalloc(v, v->nrpo, sizeof *fill);
    for (uint32_t k = 1; k < v->nrpo; k++) {
        uint32_t p = v->rpo_num[v->idom[v->rpo[k]]];
        kids[start[p] + fill[p]++] = v->rpo[k];
    }
    *start_out = start;
    *kids_out = kids;
}

/* pre/post intervals on the dominator tree: a dominates b iff b's interval is inside a's */
static void number_dominator_tree(Verifier *v)
{
    uint32_t *start, *next = zalloc(v, v->nrpo, sizeof *next);
    GateId *kids, *stack = zalloc(v, v->nrpo + 1, sizeof *stack);
    dominator_children(v, &start, &kids);
    v->dom_pre = zalloc(v, v->n, sizeof *v->dom_pre);
    v->dom_post = zalloc(v, v->n, sizeof *v->dom_post);
    uint32_t sp = 0, clock = 0;
    stack[sp++] = ROOT_STATE_ENTRY;
    v->dom_pre[ROOT_STATE_ENTRY] = clock++;
    while (sp) {
        GateId g = stack[sp - 1];
        uint32_t r = v->rpo_num[g];
        if (next[r] < start[r + 1] - start[r]) {
            GateId k = kids[start[r] + next[r]++];
            v->dom_pre[k] = clock++;
            stack[sp++] = k;
        } else {
            v->dom_post[g] = clock++;
            sp--;
        }
    }
}

static bool dominates(const Verifier *v, GateId a, GateId b)
{
    if (!reachable(v, a) || !reachable(v, b))
        return false;
    return v->dom_pre[a] <= v->dom_pre[b] && v->dom_post[b] <= v->dom_post[a];
}

/* ---- rule 4: successors ----------------------------------------------------- */

typedef struct { uint64_t value; GateId gate; } CaseValue;

static int cmp_case(const void *a, const void *b)
{
    const CaseValue *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->gate < y->gate ? -1 : x->gate > y->gate;
}

static bool case_fits(Type t, uint64_t lit)
{
    int bits = ty_bits(t);
    int64_t sv = (int64_t)lit;
    return bits >= 64 || lit <= ty_mask(t) || (sv < 0 && sv >= -((int64_t)1 << (bits - 1)));
}

static void count_users(const Verifier *v, GateId g, uint16_t op, uint32_t *n)
{
    *n = 0;
    for (uint32_t i = 0; i < nsucc(v, g); i++)
        *n += gate_of(v, succ_of(v, g)[i].user)->op == op;
}

/* IF_BRANCH: one IF_TRUE and one IF_FALSE; INVOKE: one IF_SUCCESS and one IF_EXCEPTION */
static void check_pair_successors(Verifier *v, GateId g, uint16_t first, uint16_t second)
{
    uint32_t n1, n2;
    count_users(v, g, first, &n1);
    count_users(v, g, second, &n2);
    if (n1 != 1)
        ERR(v, g, "%s needs exactly one %s, has %u", opname(v, g), op_info[first].name, n1);
    if (n2 != 1)
        ERR(v, g, "%s needs exactly one %s, has %u", opname(v, g), op_info[second].name, n2);
}

static void check_case_values(Verifier *v, GateId g, Type t)
{
    CaseValue *cases = zalloc(v, nsucc(v, g), sizeof *cases);
    uint32_t n = 0;
    char b[160];
    for (uint32_t i = 0; i < nsucc(v, g); i++) {
        GateId u = succ_of(v, g)[i].user;
        if (gate_of(v, u)->op != OP_SWITCH_CASE)
            continue;
        uint64_t lit = gate_of(v, u)->lit;
        if (!case_fits(t, lit))
            ERR(v, u, "case value %lld does not fit the switch's type %s", (long long)lit, ty_name(t));
        cases[n++] = (CaseValue){lit & ty_mask(t), u};
    }
    qsort(cases, n, sizeof *cases, cmp_case);
    for (uint32_t i = 1; i < n; i++)
        if (cases[i].value == cases[i - 1].value)
            ERR(v, cases[i].gate, "duplicate case value %lld (same as %s in %s)",
                (long long)ty_sext(t, cases[i].value), label(v, cases[i - 1].gate, b, sizeof b), ty_name(t));
}

static void check_switch_successors(Verifier *v, GateId g)
{
    uint32_t nd;
    count_users(v, g, OP_DEFAULT_CASE, &nd);
    if (nd != 1)
        ERR(v, g, "SWITCH_BRANCH needs exactly one DEFAULT_CASE, has %u", nd);
    Type t = data_type(v, g, 0);
    if (in_mask(t, M_WIDE))
        check_case_values(v, g, t);
}

static void check_loop_back_successor(Verifier *v, GateId g)
{
    if (nsucc(v, g) != 1) {
        ERR(v, g, "LOOP_BACK needs exactly one successor (its LOOP_BEGIN), has %u", nsucc(v, g));
        return;
    }
    Use u = succ_of(v, g)[0];
    if (gate_of(v, u.user)->op != OP_LOOP_BEGIN || u.index != 1)
        ERR(v, g, "LOOP_BACK's successor must be a LOOP_BEGIN, at its state input 1");
}

static void check_successors(Verifier *v, GateId g)
{
    uint16_t op = gate_of(v, g)->op;
    if (op == OP_IF_BRANCH)
        check_pair_successors(v, g, OP_IF_TRUE, OP_IF_FALSE);
    else if (op == OP_INVOKE)
        check_pair_successors(v, g, OP_IF_SUCCESS, OP_IF_EXCEPTION);
    else if (op == OP_SWITCH_BRANCH)
        check_switch_successors(v, g);
    else if (op == OP_LOOP_BACK)
        check_loop_back_successor(v, g);
    else if (nsucc(v, g) != 1)
        ERR(v, g, "%s needs exactly one control successor, has %u", opname(v, g), nsucc(v, g));
}

/* ---- rule 7: shape of the control graph ------------------------------------- */

static void check_reachable(Verifier *v)
{
    for (uint32_t s_i = v->states_nonroot; s_i < v->nstates; s_i++)
        if (!reachable(v, v->states[s_i]))
            ERR(v, v->states[s_i], "unreachable state gate: no state path leads here from entry");
}

/* walk state inputs backwards from every RETURN/THROW */
static void check_termination(Verifier *v)
{
    uint8_t *ends = zalloc(v, v->n, 1);
    GateId *work = zalloc(v, v->n, sizeof *work);
    uint32_t nw = 0;
    for (uint32_t s_i = v->states_nonroot; s_i < v->nstates; s_i++) {
        GateId g = v->states[s_i];
        if (has(v, g, F_TERM)) {
            ends[g] = 1;
            work[nw++] = g;
        }
    }
    while (nw) {
        GateId g = work[--nw];
        for (uint32_t i = 0; i < gate_of(v, g)->nstate; i++) {
            GateId p = gate_state(gate_of(v, g), i);
            if (is_state_edge(v, g, i) && !ends[p]) {
                ends[p] = 1;
                work[nw++] = p;
            }
        }
    }
    for (uint32_t k = 0; k < v->nrpo; k++)
        if (!ends[v->rpo[k]])
            ERR(v, v->rpo[k], "state path never ends in RETURN or THROW");
}

static bool is_back_edge(const Verifier *v, GateId from, Use to)
{
    return gate_of(v, from)->op == OP_LOOP_BACK && gate_of(v, to.user)->op == OP_LOOP_BEGIN && to.index == 1;
}

/* depth-first search without LOOP_BACK -> LOOP_BEGIN edges: a gray target closes a cycle */
static void find_state_cycles_from(Verifier *v, GateId root, uint8_t *color, uint32_t *next, GateId *stack,
                                   uint8_t *reported)
{
    uint32_t sp = 0;
    stack[sp++] = root;
    color[root] = 1;
    while (sp) {
        GateId g = stack[sp - 1];
        if (next[g] == nsucc(v, g)) {
            color[g] = 2;
            sp--;
            continue;
        }
        Use u = succ_of(v, g)[next[g]++];
        if (is_back_edge(v, g, u))
            continue;
        if (color[u.user] == 0) {
            color[u.user] = 1;
            stack[sp++] = u.user;
        } else if (color[u.user] == 1 && !reported[u.user]) {
            reported[u.user] = 1;
            ERR(v, u.user, "state cycle not closed by a LOOP_BACK into a LOOP_BEGIN");
        }
    }
}

static void check_state_cycles(Verifier *v)
{
    uint8_t *color = zalloc(v, v->n, 1), *reported = zalloc(v, v->n, 1);
    uint32_t *next = zalloc(v, v->n, sizeof *next);
    GateId *stack = zalloc(v, v->n, sizeof *stack);
    find_state_cycles_from(v, ROOT_STATE_ENTRY, color, next, stack, reported);
    for (uint32_t s_i = v->states_nonroot; s_i < v->nstates; s_i++)
        if (!color[v->states[s_i]])
            find_state_cycles_from(v, v->states[s_i], color, next, stack, reported);
}

static void check_natural_loops(Verifier *v)
{
    char b[160];
    for (uint32_t k = 0; k < v->nrpo; k++) {
        GateId h = v->rpo[k];
        const Gate *gt = gate_of(v, h);
        if (gt->op != OP_LOOP_BEGIN || gt->nstate < 2)
            continue;
        GateId back = gate_state(gt, 1);
        if (live(v, back) && gate_of(v, back)->op == OP_LOOP_BACK && reachable(v, back) && !dominates(v, h, back))
            ERR(v, h, "LOOP_BEGIN does not dominate its LOOP_BACK %s: the loop is not a natural loop",
                label(v, back, b, sizeof b));
    }
}

/* ---- rule 8: cycles in the data and dependency graph ------------------------ */

/* the wires a computation gate's value depends on, minus the back-edge input of a
 * selector on a LOOP_BEGIN (the one place a cycle may pass) */
static bool is_loop_carried(const Verifier *v, GateId g, uint32_t k)
{
    const Gate *gt = gate_of(v, g);
    if (!is_selector(v, g) || gt->nstate < 1 || !live(v, gate_state(gt, 0)) ||
        gate_of(v, gate_state(gt, 0))->op != OP_LOOP_BEGIN)
        return false;
    uint32_t first = gt->op == OP_VALUE_SELECTOR ? gt->nstate + gt->ndep : gt->nstate;
    return k == first + 1;
}

/* k-th input of g if it is a computation gate on a wire that may not close a cycle */
static GateId value_edge(const Verifier *v, GateId g, uint32_t k)
{
    GateId in = gate_of(v, g)->in[k];
    if (!is_computation(v, in) || is_loop_carried(v, g, k))
        return NO_GATE;
    return in;
}

typedef struct {
    uint32_t *index, *low;
    uint8_t *on_stack;
    uint8_t *self;     /* a data or dependency input of the gate is the gate itself */
    GateId *scc, *call;
    uint32_t *next;
    uint32_t nscc, ncall, clock;
    uint8_t *poisoned; /* in a cycle, or depends on one */
} Tarjan;

static void compute_early(Verifier *v, GateId g, Tarjan *t);

static void emit_scc(Verifier *v, Tarjan *t, GateId root)
{
    uint32_t top = t->nscc;
    while (t->scc[top - 1] != root)
        top--;
    top--;
    uint32_t size = t->nscc - top;
    bool self = t->self[root];
    GateId first = root;
    for (uint32_t i = top; i < t->nscc; i++) {
        t->on_stack[t->scc[i]] = 0;
        if (t->scc[i] < first)
            first = t->scc[i];
        if (size > 1 || self)
            t->poisoned[t->scc[i]] = 1;
    }
    t->nscc = top;
    if (size > 1 || self)
        ERR(v, first, "data cycle not broken by a loop selector (%u gate%s)", size, size == 1 ? "" : "s");
    else
        compute_early(v, root, t);
}

static void tarjan_visit(Verifier *v, Tarjan *t, GateId root)
{
    t->call[t->ncall++] = root;
    t->index[root] = t->low[root] = t->clock++;
    t->scc[t->nscc++] = root;
    t->on_stack[root] = 1;
    while (t->ncall) {
        GateId g = t->call[t->ncall - 1];
        const Gate *gt = gate_of(v, g);
        if (t->next[g] < gate_nin(gt)) {
            uint32_t k = t->next[g]++;
            GateId in = value_edge(v, g, k);
            if (in == NO_GATE)
                continue;
            if (in == g && k >= gt->nstate)
                t->self[g] = 1;
            if (t->index[in] == UNSEEN) {
                t->index[in] = t->low[in] = t->clock++;
                t->scc[t->nscc++] = in;
                t->on_stack[in] = 1;
                t->call[t->ncall++] = in;
            } else if (t->on_stack[in] && t->index[in] < t->low[g]) {
                t->low[g] = t->index[in];
            }
            continue;
        }
        t->ncall--;
        if (t->ncall && t->low[g] < t->low[t->call[t->ncall - 1]])
            t->low[t->call[t->ncall - 1]] = t->low[g];
        if (t->low[g] == t->index[g])
            emit_scc(v, t, g);
    }
}

/* ---- rule 9: schedulability ------------------------------------------------- */

/* an INVOKE's outputs (value and dependency) are available below its IF_SUCCESS;
 * false if it has none (reported as a successor error) */
static bool invoke_early(const Verifier *v, GateId in, GateId *state, GateId *src)
{
    *src = in;
    for (uint32_t i = 0; i < nsucc(v, in); i++)
        if (gate_of(v, succ_of(v, in)[i].user)->op == OP_IF_SUCCESS) {
            *state = succ_of(v, in)[i].user;
            return true;
        }
    return false;
}

/* the state below which input `in` is available; false if unknown (reported elsewhere) */
static bool early_of(const Verifier *v, const Tarjan *t, GateId in, GateId *state, GateId *src)
{
    if (live(v, in) && gate_of(v, in)->op == OP_INVOKE && reachable(v, in))
        return invoke_early(v, in, state, src);
    if (!live(v, in) || has(v, in, F_STATE))
        return false;
    if (has(v, in, F_ROOT)) {
        *state = ROOT_STATE_ENTRY;
        *src = NO_GATE;
        return true;
    }
    if (t->poisoned[in] || v->early[in] == NO_GATE)
        return false;
    *state = v->early[in];
    *src = v->early_src[in];
    return true;
}

static const char *src_desc(const Verifier *v, GateId src, GateId state, char *buf, size_t n)
{
    char a[160], b[160];
    snprintf(buf, n, "%s whose %s %s", label(v, src, a, sizeof a), opname(v, state), label(v, state, b, sizeof b));
    return buf;
}

/* a computation gate is available below the deepest selector/relay it depends on;
 * those must lie on one dominator-tree path */
static void combine_early(Verifier *v, Tarjan *t, GateId g, GateId in)
{
    GateId st, src;
    if (!early_of(v, t, in, &st, &src)) {
        if (is_computation(v, in))
            t->poisoned[g] = 1;
        return;
    }
    if (dominates(v, st, v->early[g]))
        return;
    if (dominates(v, v->early[g], st)) {
        v->early[g] = st;
        v->early_src[g] = src;
        return;
    }
    char a[400], b[400];
    ERR(v, g, "cannot be scheduled: it uses %s and %s, and neither state dominates the other",
        src_desc(v, v->early_src[g], v->early[g], a, sizeof a), src_desc(v, src, st, b, sizeof b));
    t->poisoned[g] = 1;
}

static void compute_early(Verifier *v, GateId g, Tarjan *t)
{
    const Gate *gt = gate_of(v, g);
    v->early[g] = ROOT_STATE_ENTRY;
    v->early_src[g] = NO_GATE;
    if (is_selector(v, g) || gt->op == OP_DEPEND_RELAY || gt->op == OP_GET_EXCEPTION) {
        GateId s = gt->nstate ? gate_state(gt, 0) : NO_GATE;
        bool fits = live(v, s) && reachable(v, s) &&
                    (gt->op == OP_DEPEND_RELAY    ? has(v, s, F_RELAYABLE)
                     : gt->op == OP_GET_EXCEPTION ? gate_of(v, s)->op == OP_IF_EXCEPTION
                                                  : has(v, s, F_JOIN));
        if (fits) {
            v->early[g] = s;
            v->early_src[g] = g;
        } else {
            t->poisoned[g] = 1;
        }
        return;
    }
    for (uint32_t k = gt->nstate; k < gate_nin(gt) && !t->poisoned[g]; k++)
        combine_early(v, t, g, gt->in[k]);
}

/* `in`, used by `user` at state `point`, must be available there; sel_input: the
 * selector input it is (entered from point), or -1 */
static void check_use(Verifier *v, const Tarjan *t, GateId user, GateId in, GateId point, int sel_input)
{
    GateId st, src;
    if (!reachable(v, point) || !early_of(v, t, in, &st, &src) || dominates(v, st, point))
        return;
    char a[400], b[160], where[200] = "";
    if (sel_input >= 0)
        snprintf(where, sizeof where, "input %d (entered from %s) ", sel_input, label(v, point, b, sizeof b));
    if (in == src)
        ERR(v, user, "%suses %s does not dominate this use", where, src_desc(v, src, st, a, sizeof a));
    else
        ERR(v, user, "%suses %s does not dominate this use (through %s)", where, src_desc(v, src, st, a, sizeof a),
            label(v, in, b, sizeof b));
}

static void check_selector_uses(Verifier *v, const Tarjan *t, GateId g)
{
    const Gate *gt = gate_of(v, g);
    GateId join = gt->nstate ? gate_state(gt, 0) : NO_GATE;
    if (!live(v, join) || !has(v, join, F_JOIN) || !reachable(v, join))
        return;
    uint32_t first = gt->op == OP_VALUE_SELECTOR ? gt->nstate + gt->ndep : gt->nstate;
    uint32_t count = gt->op == OP_VALUE_SELECTOR ? gt->ndata : gt->ndep;
    const Gate *jt = gate_of(v, join);
    for (uint32_t j = 0; j < count && j < jt->nstate; j++) {
        if (is_state_edge(v, join, j))
            check_use(v, t, g, gt->in[first + j], gate_state(jt, j), (int)j);
    }
}

/* a DEPEND_RELAY on an INVOKE's IF_EXCEPTION may take the INVOKE's dependency */
static bool relays_invoke(const Verifier *v, GateId relay, GateId in)
{
    const Gate *rt = gate_of(v, relay);
    if (rt->op != OP_DEPEND_RELAY || !rt->nstate || !live(v, in) || gate_of(v, in)->op != OP_INVOKE)
        return false;
    GateId s = gate_state(rt, 0);
    return live(v, s) && gate_of(v, s)->op == OP_IF_EXCEPTION && gate_of(v, s)->nstate &&
           gate_state(gate_of(v, s), 0) == in;
}

static void check_schedulable_uses(Verifier *v, const Tarjan *t)
{
    for (uint32_t u_i = 0; u_i < v->nsched_users; u_i++) {
        GateId g = v->sched_users[u_i];
        const Gate *gt = gate_of(v, g);
        if (is_selector(v, g)) {
            check_selector_uses(v, t, g);
        } else if (has(v, g, F_STATE) || gt->op == OP_DEPEND_RELAY) {
            GateId point = has(v, g, F_STATE) ? g : gt->nstate ? gate_state(gt, 0) : NO_GATE;
            if (point == NO_GATE || !live(v, point) || !has(v, point, F_STATE))
                continue;
            for (uint32_t k = gt->nstate; k < gate_nin(gt); k++)
                if (!relays_invoke(v, g, gt->in[k]))
                    check_use(v, t, g, gt->in[k], point, -1);
        }
    }
}

static void check_data_graph(Verifier *v)
{
    Tarjan t = {0};
    t.index = alloc_unseen(v, v->n);
    t.low = zalloc(v, v->n, sizeof *t.low);
    t.on_stack = zalloc(v, v->n, 1);
    t.self = zalloc(v, v->n, 1);
    t.poisoned = zalloc(v, v->n, 1);
    t.scc = zalloc(v, v->n, sizeof *t.scc);
    t.call = zalloc(v, v->n, sizeof *t.call);
    t.next = zalloc(v, v->n, sizeof *t.next);
    v->early = alloc_unseen(v, v->n);
    v->early_src = zalloc(v, v->n, sizeof *v->early_src);
    for (uint32_t c_i = 0; c_i < v->ncomputations; c_i++)
        if (t.index[v->computations[c_i]] == UNSEEN)
            tarjan_visit(v, &t, v->computations[c_i]);
    check_schedulable_uses(v, &t);
}

/* ---- driver ----------------------------------------------------------------- */

static void check_control(Verifier *v)
{
    if (state_source(v, ROOT_STATE_ENTRY))
        check_successors(v, ROOT_STATE_ENTRY);
    for (uint32_t s_i = v->states_nonroot; s_i < v->nstates; s_i++)
        if (state_source(v, v->states[s_i]))
            check_successors(v, v->states[s_i]);
    check_reachable(v);
    check_termination(v);
    check_state_cycles(v);
    check_natural_loops(v);
}

int verify_func(const Func *f, Diag *d)
{
    Verifier v = {.f = f, .c = f->circ, .d = d};
    if (!v.c || v.c->ngates < NUM_ROOTS) {
        diag_error(d, f->line, f->col, "in @%s: the circuit lacks its root gates", f->name);
        return 1;
    }
    v.n = v.c->ngates;
    v.scratch = arena_new();
    compute_flags(&v);
    list_and_check_gates(&v);
    build_successors(&v);
    number_reachable(&v);
    compute_idoms(&v);
    number_dominator_tree(&v);
    check_control(&v);
    check_data_graph(&v);
    v.errors += verify_root_lists(f, d);
    arena_free(v.scratch);
    return v.errors;
}

int verify_module(const Module *m, Diag *d)
{
    int errors = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        errors += verify_func(m->funcs[i], d);
    return errors;
}
