/* gen_exc.c — exceptions in generated programs: a chain of throwing functions and
 * INVOKE statements that call it.
 *
 * About GEN_EXC_RATE % of programs (those with calls, unless GenOptions asks for no
 * exceptions or for a number of functions) get a chain before their own
 * functions, chosen by the header's function-count byte and built from bytes of its
 * own (the other functions' bytes stay put):
 * e0(i32 x, i64 p) throws a value of some type made from x when (x & mask) == 0
 * (mask 1 or 3, so most run lines see both paths), else returns; or, one chain in
 * five, always throws; half the time it first stores x through p (a pointer to 8
 * bytes or more, the caller's), the effect an inliner of the INVOKE must keep, and
 * sometimes returns it loaded back on entry's chain (only the value demands it);
 * e1..e3 call the one before with x + k and their p, each by a plain CALL (the throw
 * passes), or by an INVOKE whose handler throws again (the caught bits, or them plus
 * k) or returns, now and then on the chain from before the INVOKE (the callee's
 * store happened all the same: control passed it).  The depth of the chain is 1..4.
 * Plain calls of the program's own statements never call the chain: a throw leaves
 * a run only through a handler that rethrows.
 *
 * An INVOKE statement (the entry function's first statement, then now and then)
 * calls a chain function; its IF_SUCCESS arm has the result, its IF_EXCEPTION arm
 * GET_EXCEPTION (an i64) and the INVOKE's dependency through a relay; each arm may
 * hold statements of its own (nested INVOKEs: try inside try or inside a handler) and
 * the handler sometimes rethrows, or returns on the chain from before the INVOKE
 * (nothing after it to race with the callee's store); the arms that go on MERGE with
 * an i64 selector and a dependency selector.  Inside a loop body this is a catch in a loop.  Every
 * effect stays on the one dependency chain of its path, so nothing races. */
#include "fuzz/gen_internal.h"

#include <stdio.h>
#include <string.h>

enum { GEN_EXC_RATE = 50, GEN_EXC_BYTES = 256 };

/* ---- the chain ---------------------------------------------------------------------- */

/* from the header's function-count byte only: a change in a function's region (or
 * in the swarm mask, which most runs ignore) leaves the chain as it is */
static uint64_t header_hash(const uint8_t *bytes, size_t len)
{
    uint64_t x = 0x4558430000ull | (GEN_HEADER - 1 < len ? bytes[GEN_HEADER - 1] : 0u); /* "EXC" */
    return gen_splitmix64(&x);
}

uint32_t gen_exc_plan(Gen *g, const uint8_t *bytes, size_t len, const GenOptions *opt)
{
    uint64_t h = bytes ? header_hash(bytes, len) : 0;
    g->exc_first = g->exc_n = 0;
    g->exc_seed = h;
    bool asked_off = opt && (opt->funcs || opt->no_exceptions); /* a function count asked for is exact */
    if (!bytes || asked_off || !gen_feat(g, GF_CALL) || h % 100 >= GEN_EXC_RATE)
        return 0;
    g->exc_n = 1 + (uint32_t)(h / 100 % 4);
    return g->exc_n;
}

bool gen_exc_is_chain(const Gen *g, uint32_t fn)
{
    return fn >= g->exc_first && fn < g->exc_first + g->exc_n;
}

/* x made into a value of type t */
static GateId from_x(Gen *g, GateId x, Type t)
{
    GateId k = gen_cnst(g, TY_I32, 1 + 2 * gen_rd_below(g, 1000));
    GateId v = gen_bin(g, OP_MUL, TY_I32, x, k);
    return t == TY_I32 ? v : gen_convert_to(g, v, t);
}

static void ret_value(Gen *g, GateId state, GateId dep, GateId v)
{
    gen_add_gate(g, OP_RETURN, TY_NONE, 0, 0, &state, 1, &dep, 1, &v, v == NO_GATE ? 0 : 1);
    g->state = NO_GATE;
}

static void throw_value(Gen *g, GateId state, GateId dep, GateId v)
{
    gen_add_gate(g, OP_THROW, TY_NONE, 0, 0, &state, 1, &dep, 1, &v, 1);
    g->state = NO_GATE;
}

/* e0: [STORE x at p;] IF ((x & mask) == 0) THROW f(x) ELSE RETURN g(x), or THROW f(x) */
static void thrower_body(Gen *g, GateId x, GateId p, Type ret)
{
    GateId dep = ROOT_DEPEND_ENTRY;
    if (gen_rd_chance(g, 50)) {
        GateId in[2] = {x, p};
        dep = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &dep, 1, in, 2);
    }
    if (gen_rd_chance(g, 20)) { /* always throws: an INVOKE of it has no success path */
        throw_value(g, g->state, dep, from_x(g, x, gen_rand_value_type(g)));
        return;
    }
    GateId m = gen_masked(g, TY_I32, x, gen_rd_chance(g, 50) ? 1 : 3);
    GateId c = gen_cmp(g, OP_ICMP, ICMP_eq, m, gen_cnst(g, TY_I32, 0));
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
    GateId t = gen_state1(g, OP_IF_TRUE, 0, br), f = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId tv = from_x(g, x, gen_rand_value_type(g));
    throw_value(g, t, dep, tv);
    if (dep != ROOT_DEPEND_ENTRY && ret != TY_NONE && gen_rd_chance(g, 30)) {
        /* the value reads the store back, the RETURN's chain is entry's: only the
         * value demands the store, and an INVOKE runs it even if nothing reads that */
        GateId ld = gen_add_gate(g, OP_LOAD, TY_I32, 0, 0, NULL, 0, &dep, 1, &p, 1);
        ret_value(g, f, ROOT_DEPEND_ENTRY, gen_convert_to(g, ld, ret));
        return;
    }
    ret_value(g, f, dep, ret == TY_NONE ? NO_GATE : from_x(g, x, ret));
}

/* the result of a call of type `of` (or x if void) made into the type ret */
static GateId pass_on(Gen *g, GateId r, Type of, GateId x, Type ret)
{
    if (ret == TY_NONE)
        return NO_GATE;
    return of == TY_NONE ? from_x(g, x, ret) : gen_convert_to(g, r, ret);
}

/* e_k: CALL e_{k-1}(x + k, p) and return; or INVOKE it and rethrow or return in the
 * handler (on the INVOKE's chain or, one time in three, on the chain from before it) */
static void wrapper_body(Gen *g, uint32_t callee, GateId x, GateId p, Type ret, uint32_t k)
{
    GateId arg = gen_bin(g, OP_ADD, TY_I32, x, gen_cnst(g, TY_I32, k));
    GateId in[3] = {gen_add_gate(g, OP_SYMBOL, TY_I64, 0, callee, NULL, 0, NULL, 0, NULL, 0), arg, p};
    Type of = g->sigs[callee].ret;
    if (gen_rd_chance(g, 60)) {
        GateId r = gen_add_gate(g, OP_CALL, of, 0, 0, NULL, 0, &g->dep, 1, in, 3);
        ret_value(g, g->state, r, pass_on(g, r, of, x, ret));
        return;
    }
    GateId inv = gen_add_gate(g, OP_INVOKE, of, 0, 0, &g->state, 1, &g->dep, 1, in, 3);
    GateId ok = gen_state1(g, OP_IF_SUCCESS, 0, inv), ex = gen_state1(g, OP_IF_EXCEPTION, 0, inv);
    ret_value(g, ok, inv, pass_on(g, inv, of, x, ret));
    GateId e = gen_add_gate(g, OP_GET_EXCEPTION, TY_I64, 0, 0, &ex, 1, NULL, 0, NULL, 0);
    GateId d = gen_relay(g, ex, inv);
    if (gen_rd_chance(g, 30)) {
        GateId on = gen_rd_chance(g, 33) ? g->dep : d;
        ret_value(g, ex, on, ret == TY_NONE ? NO_GATE : gen_convert_to(g, e, ret));
    }
    else if (gen_rd_chance(g, 50))
        throw_value(g, ex, d, e);
    else
        throw_value(g, ex, d, gen_bin(g, OP_ADD, TY_I64, e, gen_cnst(g, TY_I64, k)));
}

static void chain_function(Gen *g, uint32_t idx, uint32_t k)
{
    GenSig *s = &g->sigs[idx];
    memset(s, 0, sizeof *s);
    s->depth_param = -1;
    s->nparams = 2;
    s->params[0] = TY_I32;
    s->params[1] = TY_I64;
    s->ptr_size[1] = 8;
    s->ret = gen_rd_chance(g, 10) ? TY_NONE : gen_rand_value_type(g);
    s->cost = 24 * (k + 1) + 16;
    char name[8];
    snprintf(name, sizeof name, "e%u", k);
    gen_begin_function(g, idx, name);
    GateId x = gen_add_gate(g, OP_ARG, TY_I32, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    GateId p = gen_add_gate(g, OP_ARG, TY_I64, 0, 1, NULL, 0, NULL, 0, NULL, 0);
    circ_set_name(g->c, x, "x", 1);
    circ_set_name(g->c, p, "p", 1);
    if (k == 0)
        thrower_body(g, x, p, s->ret);
    else
        wrapper_body(g, idx - 1, x, p, s->ret, k);
}

void gen_exc_chain(Gen *g, uint32_t first)
{
    uint8_t bytes[GEN_EXC_BYTES];
    GenByteSrc src = g->src;
    GenRecord rec = g->rec;
    gen_seed_bytes(g->exc_seed, bytes, sizeof bytes);
    g->src = (GenByteSrc){bytes, sizeof bytes, 0};
    g->rec.active = false;
    g->exc_first = first;
    for (uint32_t k = 0; k < g->exc_n; k++)
        chain_function(g, first + k, k);
    g->src = src;
    g->rec = rec;
}

/* ---- INVOKE statements ---------------------------------------------------------------- */

typedef struct {
    GateId state, dep, value; /* where the arm ended (state NO_GATE: it left), its i64 */
} ArmEnd;

/* a few statements in an arm, sometimes */
static void arm_body(Gen *g, uint32_t budget)
{
    if (budget >= 16 && gen_rd_chance(g, 40))
        gen_block(g, g->c->ngates + budget);
}

static ArmEnd success_arm(Gen *g, GateId inv, GateId ok, uint32_t budget)
{
    g->state = ok;
    g->dep = inv;
    gen_scope_push(g);
    Type t = (Type)g->c->gates[inv].type;
    GateId v = t == TY_NONE ? gen_cnst(g, TY_I64, 0) : gen_convert_to(g, inv, TY_I64);
    if (t != TY_NONE)
        gen_pool_add(g, inv);
    arm_body(g, budget);
    ArmEnd end = {g->state, g->dep, v};
    gen_scope_pop(g);
    return end;
}

/* the function returns from the handler on the chain from before the INVOKE (before):
 * nothing demands the INVOKE's dependency, yet the callee ran */
static void return_before(Gen *g, GateId before, GateId e)
{
    Type ret = g->sigs[g->fidx].ret;
    ret_value(g, g->state, before, ret == TY_NONE ? NO_GATE : gen_convert_to(g, e, ret));
}

static ArmEnd handler_arm(Gen *g, GateId inv, GateId ex, GateId before, uint32_t budget)
{
    g->state = ex;
    g->dep = gen_relay(g, ex, inv);
    gen_scope_push(g);
    GateId e = gen_add_gate(g, OP_GET_EXCEPTION, TY_I64, 0, 0, &ex, 1, NULL, 0, NULL, 0);
    gen_pool_add(g, e);
    uint32_t how = gen_rd_below(g, 100);
    if (how < 12) /* rethrow */
        throw_value(g, g->state, g->dep, gen_rd_chance(g, 50) ? e : gen_bin(g, OP_XOR, TY_I64, e, gen_i64_value(g)));
    else if (how < 20)
        return_before(g, before, e);
    else
        arm_body(g, budget);
    ArmEnd end = {g->state, g->dep, e};
    gen_scope_pop(g);
    return end;
}

/* the arms that go on: MERGE them (an i64 and the dependency through selectors) */
static void join(Gen *g, ArmEnd a, ArmEnd b)
{
    if (a.state == NO_GATE || b.state == NO_GATE) {
        ArmEnd on = a.state == NO_GATE ? b : a;
        g->state = on.state;
        g->dep = on.dep;
        if (on.state != NO_GATE)
            gen_pool_add(g, on.value);
        return;
    }
    GateId ends[2] = {a.state, b.state}, deps[2] = {a.dep, b.dep}, vals[2] = {a.value, b.value};
    GateId m = gen_add_gate(g, OP_MERGE, TY_NONE, 0, 0, ends, 2, NULL, 0, NULL, 0);
    g->state = m;
    g->dep = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, deps, 2, NULL, 0);
    GateId v = gen_add_gate(g, OP_VALUE_SELECTOR, TY_I64, 0, 0, &m, 1, NULL, 0, vals, 2);
    gen_pool_add(g, v);
    gen_pending_add(g, v);
}

static void stmt_invoke(Gen *g, uint32_t limit)
{
    uint32_t fn = g->exc_first + g->exc_n - 1 - gen_rd_below(g, g->exc_n);
    if (g->cost + g->mult * g->sigs[fn].cost > GEN_FUNC_COST_MAX)
        return;
    gen_charge(g, g->sigs[fn].cost);
    GenPtr *p = gen_pick_ptr(g, 8);
    if (!p)
        return;
    GateId in[3] = {gen_add_gate(g, OP_SYMBOL, TY_I64, 0, fn, NULL, 0, NULL, 0, NULL, 0), gen_val_of(g, TY_I32),
                    p->base};
    GateId before = g->dep;
    GateId inv = gen_add_gate(g, OP_INVOKE, g->sigs[fn].ret, 0, 0, &g->state, 1, &before, 1, in, 3);
    GateId ok = gen_state1(g, OP_IF_SUCCESS, 0, inv), ex = gen_state1(g, OP_IF_EXCEPTION, 0, inv);
    uint32_t budget = gen_room(g, limit) / 4;
    g->nest++;
    ArmEnd a = success_arm(g, inv, ok, budget);
    ArmEnd b = handler_arm(g, inv, ex, before, budget);
    g->nest--;
    join(g, a, b);
}

bool gen_exc_stmt(Gen *g, uint32_t limit)
{
    if (!g->exc_n || g->nest >= GEN_MAX_NEST || gen_room(g, limit) < 16)
        return false;
    bool entry = g->fidx + 1 == g->nfuncs;
    if (!(entry && !g->exc_entry_done) && !gen_rd_chance(g, 5))
        return false;
    g->exc_entry_done |= entry;
    stmt_invoke(g, limit);
    return true;
}
