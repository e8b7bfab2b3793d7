/* gen_ctrl.c — generator statements with control flow: branches, switches, early
 * exits, guarded divisions and accesses, loops.
 *
 * One path at a time: g->state is the current state gate and g->dep the tip of the
 * path's single effect chain (every effect depends on the previous one of its path,
 * so no program is racy, and every effect reaches a terminator, so each one runs).
 * Branch arms start with a DEPEND_RELAY of the chain; a MERGE joins the surviving arms
 * with a DEPEND_SELECTOR and VALUE_SELECTORs (values of an arm reach code after the
 * merge only through them: scopes drop the rest).  Loops are do-while
 * `LOOP_BEGIN [pre, back]` with a counter selector, a DEPEND_SELECTOR carrying the chain
 * around the back edge (effects in the body hang off it, so they run every iteration),
 * carried value selectors, and an exit IF_BRANCH on a trip count of at most 16 (64 for
 * a nest).  An arm or a loop iteration may leave early through THROW or RETURN.
 * Results of loops and joins are consumed first by what comes next (the next join,
 * loop or terminator), so little of a program is dead.  Calls, the choice of each
 * statement and whole functions are in gen_func.c. */
#include "fuzz/gen_internal.h"

#include <stdlib.h>

bool gen_path_ended(const Gen *g)
{
    return g->state == NO_GATE;
}

GateId gen_relay(Gen *g, GateId state, GateId dep)
{
    return gen_add_gate(g, OP_DEPEND_RELAY, TY_NONE, 0, 0, &state, 1, &dep, 1, NULL, 0);
}

GateId gen_state1(Gen *g, Opcode op, uint64_t lit, GateId in)
{
    return gen_add_gate(g, op, TY_NONE, 0, lit, &in, 1, NULL, 0, NULL, 0);
}

uint32_t gen_room(const Gen *g, uint32_t limit)
{
    return g->c->ngates < limit ? limit - g->c->ngates : 0;
}

/* ---- terminators ---------------------------------------------------------------- */

/* combine a few recent values into one of type t, so the result depends on much of
 * the computation (a checksum of the path) */
GateId gen_fold_in(Gen *g, GateId acc, GateId v, Type t)
{
    v = gen_convert_to(g, v, t);
    if (ty_is_float(t))
        return gen_bin(g, gen_rd_chance(g, 50) ? OP_FADD : OP_FMUL, t, acc, v);
    return gen_bin(g, gen_rd_chance(g, 50) || t == TY_I1 ? OP_XOR : OP_ADD, t, acc, v);
}

/* the most recent value of the pools nothing uses yet (NO_GATE if none) */
static GateId unused_value(Gen *g, uint32_t *scanned)
{
    GateId r = gen_pending_take(g, TY_NONE); /* results of loops and joins first */
    if (r != NO_GATE)
        return r;
    for (; *scanned < 64; ++*scanned) {
        Type t = (Type)(TY_I1 + *scanned % 7);
        GenIdVec *p = &g->pool[t];
        uint32_t back = *scanned / 7;
        if (back >= p->n)
            continue;
        GateId v = p->v[p->n - 1 - back];
        if (!g->c->gates[v].nuses && g->c->gates[v].op != OP_CONSTANT) {
            ++*scanned;
            return v;
        }
    }
    return NO_GATE;
}

static GateId fold_value(Gen *g, Type t)
{
    GateId acc = gen_val_of(g, t);
    uint32_t n = gen_rd_below(g, 4);
    for (uint32_t i = 0; i < n; i++) {
        Type from = gen_rand_value_type(g);
        GenIdVec *p = &g->pool[from];
        if (p->n)
            acc = gen_fold_in(g, acc, p->v[p->n - 1 - gen_rd_below(g, p->n < 4 ? p->n : 4)], t);
    }
    /* and some results nothing else demands, so less of the program is dead */
    uint32_t scanned = 0, extra = gen_rd_below(g, 6);
    for (uint32_t i = 0; i < extra; i++) {
        GateId v = unused_value(g, &scanned);
        if (v == NO_GATE)
            break;
        acc = gen_fold_in(g, acc, v, t);
    }
    return acc;
}

void gen_end_path(Gen *g, bool is_throw)
{
    GateId s = g->state, d = g->dep;
    if (is_throw) {
        GateId v = fold_value(g, gen_rand_value_type(g));
        gen_add_gate(g, OP_THROW, TY_NONE, 0, 0, &s, 1, &d, 1, &v, 1);
    } else if (g->f->ret == TY_NONE) {
        gen_add_gate(g, OP_RETURN, TY_NONE, 0, 0, &s, 1, &d, 1, NULL, 0);
    } else {
        GateId v = fold_value(g, g->f->ret);
        if (g->ret_extra != NO_GATE)
            v = gen_fold_in(g, v, g->ret_extra, g->f->ret);
        gen_add_gate(g, OP_RETURN, TY_NONE, 0, 0, &s, 1, &d, 1, &v, 1);
    }
    g->state = NO_GATE;
}

/* early exits are budgeted so that most runs still reach the end; in callees (run
 * many times per program) they only take conditions that are rarely true */
static bool may_exit(const Gen *g)
{
    return gen_feat(g, GF_EXIT) && g->exits < 1 + g->size / 400;
}

/* ---- branches -------------------------------------------------------------------- */

static void plan_selectors(Gen *g, GenSelPlan *p)
{
    p->nsel = gen_rd_below(g, 4);
    for (uint32_t i = 0; i < p->nsel; i++)
        p->type[i] = gen_rand_value_type(g);
}

/* what an arm hands to a selector: preferably a value of the arm nothing uses yet */
static GateId arm_result(Gen *g, Type t)
{
    GenIdVec *p = &g->pool[t];
    GateId r = gen_pending_take(g, t);
    if (r != NO_GATE)
        return r;
    if (gen_rd_chance(g, 70))
        for (uint32_t back = 0; back < 8 && back < p->n; back++) {
            GateId v = p->v[p->n - 1 - back];
            if (!g->c->gates[v].nuses && g->c->gates[v].op != OP_CONSTANT)
                return v;
        }
    return gen_val_of(g, t);
}

/* the first selector of a join carries what the arm's loops and joins computed,
 * folded into one value of its type, so nested results flow on to the terminator */
static GateId arm_summary(Gen *g, Type t)
{
    GateId acc = arm_result(g, t);
    for (int i = 0; i < 3; i++) {
        GateId v = gen_pending_take(g, TY_NONE);
        if (v == NO_GATE)
            break;
        acc = gen_fold_in(g, acc, v, t);
    }
    return acc;
}

/* the surviving arms of a branch or switch, and what they hand to the join */
typedef struct {
    GateId *ends, *deps, *vals[3], *ptrs; /* one entry per arm */
    uint32_t live, ptr_size;
    bool ptr_sel; /* also join a pointer chosen by the path taken */
} Join;

/* room for narms arms (one block, at J->ends; the caller frees it) */
static void join_init(Join *J, uint32_t narms)
{
    GateId *slots = malloc(6 * (size_t)narms * sizeof *slots);
    if (!slots)
        abort();
    *J = (Join){.ends = slots, .deps = slots + narms, .ptrs = slots + 2 * (size_t)narms,
                .live = 0, .ptr_size = UINT32_MAX};
    for (size_t s = 0; s < 3; s++)
        J->vals[s] = slots + (3 + s) * narms;
}

/* an arm that goes on: its state, chain tip, selector inputs and pointer */
static void join_add(Gen *g, Join *J, const GenSelPlan *plan)
{
    J->ends[J->live] = g->state;
    J->deps[J->live] = g->dep;
    for (uint32_t s = 0; s < plan->nsel; s++)
        J->vals[s][J->live] = s == 0 ? arm_summary(g, plan->type[0]) : arm_result(g, plan->type[s]);
    if (J->ptr_sel) {
        GenPtr *p = gen_pick_ptr(g, 1);
        J->ptr_sel = p != NULL;
        J->ptrs[J->live] = p ? p->base : NO_GATE;
        J->ptr_size = p && p->size < J->ptr_size ? p->size : J->ptr_size;
    }
    J->live++;
}

/* MERGE the surviving arms with their selectors (one survivor: just go on in it);
 * returns the first selector's value (NO_GATE if none) */
static GateId join_finish(Gen *g, Join *J, const GenSelPlan *plan)
{
    if (J->live == 1) { /* the only way on: its values dominate what follows */
        g->state = J->ends[0];
        g->dep = J->deps[0];
        for (uint32_t s = 0; s < plan->nsel; s++)
            gen_pool_add(g, J->vals[s][0]);
        return plan->nsel ? J->vals[0][0] : NO_GATE;
    }
    GateId first = NO_GATE;
    GateId m = gen_add_gate(g, OP_MERGE, TY_NONE, 0, 0, J->ends, J->live, NULL, 0, NULL, 0);
    g->state = m;
    g->dep = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, J->deps, J->live, NULL, 0);
    for (uint32_t s = 0; s < plan->nsel; s++) {
        GateId v = gen_add_gate(g, OP_VALUE_SELECTOR, plan->type[s], 0, 0, &m, 1, NULL, 0, J->vals[s], J->live);
        gen_pool_add(g, v);
        gen_pending_add(g, v);
        first = s ? first : v;
    }
    if (J->ptr_sel && g->nptrs < GEN_MAX_PTRS) {
        GateId sel = gen_add_gate(g, OP_VALUE_SELECTOR, TY_I64, 0, 0, &m, 1, NULL, 0, J->ptrs, J->live);
        g->ptrs[g->nptrs++] = (GenPtr){sel, J->ptr_size};
    }
    return first;
}

/* an arm may end in an early THROW / RETURN, but never the last one, so the path
 * always goes on */
GateId gen_join_arms(Gen *g, const GateId *arms, uint32_t narms, uint32_t arm_budget,
                     const GenSelPlan *plan)
{
    GateId dep0 = g->dep;
    Join J;
    join_init(&J, narms);
    J.ptr_sel = g->nptrs && gen_rd_chance(g, 20);
    g->nest++;
    for (uint32_t i = 0; i < narms; i++) {
        gen_scope_push(g);
        g->state = arms[i];
        g->dep = gen_relay(g, arms[i], dep0);
        if (gen_feat(g, GF_BLOCK) && gen_rd_chance(g, 10))
            g->state = gen_state1(g, OP_ORDINARY_BLOCK, 0, g->state);
        gen_block(g, g->c->ngates + arm_budget);
        bool last = i + 1 == narms && J.live == 0;
        if (!last && g->fidx + 1 == g->nfuncs && may_exit(g) && gen_rd_chance(g, 5)) {
            g->exits++;
            gen_end_path(g, gen_rd_chance(g, 60));
        } else {
            join_add(g, &J, plan);
        }
        gen_scope_pop(g);
    }
    g->nest--;
    GateId first = join_finish(g, &J, plan);
    free(J.ends);
    return first;
}

void gen_stmt_if(Gen *g, uint32_t limit)
{
    GateId c = gen_make_cond(g);
    GenSelPlan plan;
    plan_selectors(g, &plan);
    uint32_t arm_budget = gen_room(g, limit) * (1 + gen_rd_below(g, 3)) / 8;
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
    GateId arms[2];
    arms[0] = gen_state1(g, OP_IF_TRUE, 0, br);
    arms[1] = gen_state1(g, OP_IF_FALSE, 0, br);
    if (gen_rd_chance(g, 30)) { /* either order of arms */
        GateId t = arms[0];
        arms[0] = arms[1];
        arms[1] = t;
    }
    gen_join_arms(g, arms, 2, arm_budget, &plan);
}

/* Every helper that reads bytes or adds gates is called in its own statement (or as
 * the only such argument of a call): C leaves the order of argument evaluation open,
 * and the program must not depend on the compiler that built the generator. */
GateId gen_masked(Gen *g, Type t, GateId v, uint64_t mask)
{
    GateId k = gen_cnst(g, t, mask);
    return gen_bin(g, OP_AND, t, v, k);
}

static GateId add_const(Gen *g, Type t, GateId v, int64_t k)
{
    GateId c = gen_cnst(g, t, (uint64_t)k);
    return gen_bin(g, OP_ADD, t, v, c);
}

/* the value switched on: often brought near the case values so cases are taken */
static GateId switch_value(Gen *g, Type t, int64_t base)
{
    GateId v = gen_val_of(g, t);
    switch (gen_rd_below(g, 4)) {
    case 0:
        return add_const(g, t, gen_masked(g, t, v, 7), base);
    case 1:
        if (g->nloops) {
            GenLoopInfo *l = &g->loops[g->nloops - 1];
            GateId i = gen_convert_to(g, l->counter, t);
            return add_const(g, t, i, base);
        }
        return v;
    case 2:
        return add_const(g, t, gen_masked(g, t, v, 31), base);
    default:
        return v;
    }
}

void gen_stmt_switch(Gen *g, uint32_t limit)
{
    static const int64_t bases[] = {0, -2, 1, -1, 3, -100, 1000, INT64_MIN, 250};
    static const int64_t strides[] = {1, 1, 2, 3, 7, -1, 100, -5};
    Type t = gen_rand_int_type(g);
    int64_t base = bases[gen_rd_below(g, 9)];
    int64_t stride = strides[gen_rd_below(g, 8)];
    uint32_t ncase = 1 + gen_rd_below(g, 5);
    GenSelPlan plan;
    plan_selectors(g, &plan);
    GateId v = switch_value(g, t, base);
    uint32_t arm_budget = gen_room(g, limit) / (2 + ncase) * (1 + gen_rd_below(g, 2));
    GateId sw = gen_add_gate(g, OP_SWITCH_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &v, 1);
    GateId arms[6];
    uint64_t seen[6];
    uint32_t n = 0;
    for (uint32_t i = 0; i < ncase; i++) {
        uint64_t k = (uint64_t)base + (uint64_t)stride * i + (gen_rd_chance(g, 15) ? gen_rd_below(g, 5) : 0);
        k &= ty_mask(t);
        bool dup = false;
        for (uint32_t j = 0; j < n; j++)
            dup |= seen[j] == k;
        if (dup)
            continue;
        seen[n] = k;
        arms[n++] = gen_state1(g, OP_SWITCH_CASE, (uint64_t)ty_sext(t, k), sw);
    }
    arms[n] = gen_state1(g, OP_DEFAULT_CASE, 0, sw);
    uint32_t pos = gen_rd_below(g, n + 1); /* the default need not come last */
    GateId d = arms[n];
    arms[n] = arms[pos];
    arms[pos] = d;
    gen_join_arms(g, arms, n + 1, arm_budget, &plan);
}

/* IF (cond) { THROW | RETURN } and go on in the other arm */
void gen_stmt_exit(Gen *g)
{
    if (!may_exit(g))
        return;
    g->exits++;
    GateId c;
    bool entry = g->fidx + 1 == g->nfuncs; /* callees run many times: exit rarely */
    if (entry && g->nloops && gen_rd_chance(g, 60)) { /* leave in some iteration */
        GenLoopInfo *l = &g->loops[g->nloops - 1 - gen_rd_below(g, g->nloops)];
        c = gen_cmp(g, OP_ICMP, ICMP_eq, l->counter, gen_cnst(g, l->type, gen_rd_below(g, 12)));
    } else if (!entry || gen_rd_chance(g, 70)) { /* rarely true */
        Type t = gen_rand_int_type(g);
        GateId v = gen_val_of(g, t);
        c = gen_cmp(g, OP_ICMP, ICMP_eq, v, gen_cnst(g, t, gen_rd_u64(g) | 0x40));
    } else {
        c = gen_make_cond(g);
    }
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
    bool exit_on_true = gen_rd_chance(g, 70);
    GateId t = gen_state1(g, OP_IF_TRUE, 0, br), f = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId out = exit_on_true ? t : f, on = exit_on_true ? f : t;
    GateId dep0 = g->dep;
    g->state = out;
    g->dep = gen_relay(g, out, dep0);
    if (gen_feat(g, GF_STORE) && gen_rd_chance(g, 30))
        gen_stmt_store(g);
    gen_end_path(g, gen_rd_chance(g, 60));
    g->state = on;
    g->dep = gen_relay(g, on, dep0);
}

void gen_stmt_block(Gen *g)
{
    g->state = gen_state1(g, OP_ORDINARY_BLOCK, 0, g->state);
    if (gen_rd_chance(g, 50))
        g->dep = gen_relay(g, g->state, g->dep);
}

/* IF (b != 0 [&& b != -1]) { a / b }: a division that would trap off the path that
 * checks its divisor (guarded_div.circ; a compiler must not hoist it) */
void gen_stmt_guarded_div(Gen *g)
{
    static const Opcode ops[] = {OP_SDIV, OP_SREM, OP_UDIV, OP_UREM};
    Type t = gen_rand_int_type(g);
    Opcode op = ops[gen_rd_below(g, 4)];
    GateId a = gen_val_of(g, t);
    GateId b = gen_val_of(g, t);
    GateId other = gen_val_of(g, t);
    GateId ok = gen_cmp(g, OP_ICMP, ICMP_ne, b, gen_cnst(g, t, 0));
    if (op == OP_SDIV || op == OP_SREM) { /* and not INT_MIN / -1 */
        GateId not_m1 = gen_cmp(g, OP_ICMP, ICMP_ne, b, gen_cnst(g, t, ty_mask(t)));
        ok = gen_bin(g, OP_AND, TY_I1, ok, not_m1);
    }
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &ok, 1);
    GateId ends[2];
    ends[0] = gen_state1(g, OP_IF_TRUE, 0, br);
    ends[1] = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId dep0 = g->dep;
    GateId deps[2];
    deps[0] = gen_relay(g, ends[0], dep0);
    deps[1] = gen_relay(g, ends[1], dep0);
    GateId q = gen_bin(g, op, t, a, b); /* demanded only through the selector's input 0 */
    GateId m = gen_add_gate(g, OP_MERGE, TY_NONE, 0, 0, ends, 2, NULL, 0, NULL, 0);
    g->state = m;
    g->dep = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, deps, 2, NULL, 0);
    GateId in[2] = {q, other};
    GateId v = gen_add_gate(g, OP_VALUE_SELECTOR, t, 0, 0, &m, 1, NULL, 0, in, 2);
    gen_pool_add(g, v);
    gen_pending_add(g, v);
}

/* IF (off <u room) { LOAD or STORE at base + off }: an access whose address is in
 * bounds only on the path that checks it (a compiler must not hoist it) */
void gen_stmt_guarded_access(Gen *g, bool is_load)
{
    Type t = gen_rand_mem_type(g);
    uint32_t width = (uint32_t)ty_bits(t) / 8;
    GenPtr *p = gen_pick_ptr(g, width);
    if (!p)
        return;
    uint64_t span = p->size - width;
    GateId off = gen_masked(g, TY_I64, gen_i64_value(g), gen_mask_below(2 * span + 1));
    GateId ok = gen_rd_chance(g, 50) ? gen_cmp(g, OP_ICMP, ICMP_ult, off, gen_cnst(g, TY_I64, span + 1))
                                 : gen_cmp(g, OP_ICMP, ICMP_ule, off, gen_cnst(g, TY_I64, span));
    GateId other = is_load ? gen_val_of(g, t) : NO_GATE;
    GateId v = is_load ? NO_GATE : gen_val_of(g, t);
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &ok, 1);
    GateId ends[2];
    ends[0] = gen_state1(g, OP_IF_TRUE, 0, br);
    ends[1] = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId dep0 = g->dep;
    GateId in_arm = gen_relay(g, ends[0], dep0);
    GateId addr = gen_bin(g, OP_ADD, TY_I64, p->base, off);
    GateId access;
    if (is_load) {
        access = gen_add_gate(g, OP_LOAD, t, 0, 0, NULL, 0, &in_arm, 1, &addr, 1);
    } else {
        GateId in[2] = {v, addr};
        access = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &in_arm, 1, in, 2);
    }
    GateId deps[2] = {access, gen_relay(g, ends[1], dep0)};
    GateId m = gen_add_gate(g, OP_MERGE, TY_NONE, 0, 0, ends, 2, NULL, 0, NULL, 0);
    g->state = m;
    g->dep = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, deps, 2, NULL, 0);
    if (is_load) {
        GateId in[2] = {access, other};
        gen_pool_add(g, gen_add_gate(g, OP_VALUE_SELECTOR, t, 0, 0, &m, 1, NULL, 0, in, 2));
    }
}

/* ---- loops ----------------------------------------------------------------------- */

typedef struct {
    int form;          /* 0: up, i+1 < trip (below_trip); 1: up, i+1 != trip; 2: down, i-1 > 0 (trip >= 1) */
    GateId trip, start;
    Type type;
} Counted;

static Counted plan_counter(Gen *g, uint64_t maxtrip)
{
    Counted k;
    k.type = gen_rand_int_type(g);
    k.form = (int)gen_rd_below(g, 3);
    uint64_t mask = gen_mask_below(maxtrip); /* >= 1: maxtrip >= 2 */
    /* trip counts in the upper half of the bound, so loops do loop: a constant, or a
     * value of the program (so runs differ) masked and with the half bit set */
    if (gen_rd_chance(g, 40)) {
        k.trip = gen_cnst(g, k.type, maxtrip / 2 + gen_rd_below(g, (uint32_t)(maxtrip / 2 + 1)));
    } else {
        k.trip = gen_masked(g, k.type, gen_val_of(g, k.type), mask);
        k.trip = gen_bin(g, OP_OR, k.type, k.trip, gen_cnst(g, k.type, (mask + 1) / 2));
    }
    k.start = k.form == 2 ? k.trip : gen_cnst(g, k.type, 0);
    return k;
}

/* i+1 < trip (trip >= 1 and below the signed range) in one of eight spellings, each
 * condition of the order: i+1 <u trip, <s, trip >u i+1, >s, i+1 <=u trip-1, <=s,
 * trip-1 >=u i+1, >=s */
static GateId below_trip(Gen *g, const Counted *k, GateId next)
{
    static const int conds[] = {ICMP_ult, ICMP_slt, ICMP_ugt, ICMP_sgt, ICMP_ule, ICMP_sle, ICMP_uge, ICMP_sge};
    uint32_t c = gen_rd_below(g, 8);
    GateId bound = k->trip;
    if (c >= 4)
        bound = gen_bin(g, OP_SUB, k->type, k->trip, gen_cnst(g, k->type, 1));
    bool trip_left = (c / 2) % 2 == 1; /* >u >s >=u >=s */
    return gen_cmp(g, OP_ICMP, conds[c], trip_left ? bound : next, trip_left ? next : bound);
}

static GateId counter_step(Gen *g, const Counted *k, GateId i, GateId *next)
{
    GateId one = gen_cnst(g, k->type, 1);
    if (k->form == 2) { /* down to 0: i-1 >s 0, >=s 1, >u 0, >=u 1 or != 0 (i-1 >= 0) */
        static const int down[] = {ICMP_sgt, ICMP_sge, ICMP_ugt, ICMP_uge, ICMP_ne};
        static const uint64_t bound[] = {0, 1, 0, 1, 0};
        uint32_t c = gen_rd_below(g, 5);
        *next = gen_bin(g, OP_SUB, k->type, i, one);
        return gen_cmp(g, OP_ICMP, down[c], *next, gen_cnst(g, k->type, bound[c]));
    }
    *next = gen_bin(g, OP_ADD, k->type, i, one);
    if (k->form == 1)
        return gen_cmp(g, OP_ICMP, ICMP_ne, *next, k->trip);
    return below_trip(g, k, *next);
}

/* the value a carried selector takes around the back edge: it depends on itself */
static GateId carried_next(Gen *g, GateId sel, Type t, uint32_t *scanned)
{
    GateId v = gen_val_of(g, t);
    /* and results of the body nothing uses yet, so the body is demanded each time */
    uint32_t extra = gen_rd_below(g, 4);
    for (uint32_t i = 0; i < extra; i++) {
        GateId u = unused_value(g, scanned);
        if (u == NO_GATE)
            break;
        v = gen_fold_in(g, v, u, t);
    }
    if (t == TY_I1)
        return gen_bin(g, OP_XOR, t, sel, v);
    if (ty_is_float(t))
        return gen_bin(g, gen_rd_chance(g, 50) ? OP_FADD : OP_FMUL, t, sel, v);
    static const Opcode ops[] = {OP_ADD, OP_XOR, OP_MUL, OP_SUB};
    return gen_bin(g, ops[gen_rd_below(g, 4)], t, sel, v);
}

/* a loop being built: its header gates and what closing it needs */
typedef struct {
    Counted k;
    GenSelPlan plan;
    uint64_t maxtrip;
    GateId init[3];  /* the carried values' values on entry */
    GateId lb, counter, dsel, sel[3];
} Loop;

/* LOOP_BEGIN [pre, -] with the counter, the chain's DEPEND_SELECTOR and the carried
 * values' selectors (back inputs filled in by loop_close); enters the body */
static void loop_open(Gen *g, Loop *L)
{
    GateId pre[2] = {g->state, NO_GATE};
    L->lb = gen_add_gate(g, OP_LOOP_BEGIN, TY_NONE, 0, 0, pre, 2, NULL, 0, NULL, 0);
    g->mult *= L->maxtrip;
    GateId cin[2] = {L->k.start, NO_GATE};
    L->counter = gen_add_gate(g, OP_VALUE_SELECTOR, L->k.type, 0, 0, &L->lb, 1, NULL, 0, cin, 2);
    GateId din[2] = {g->dep, NO_GATE};
    L->dsel = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &L->lb, 1, din, 2, NULL, 0);
    gen_scope_push(g);
    for (uint32_t s = 0; s < L->plan.nsel; s++) {
        GateId in[2] = {L->init[s], NO_GATE};
        L->sel[s] = gen_add_gate(g, OP_VALUE_SELECTOR, L->plan.type[s], 0, 0, &L->lb, 1, NULL, 0, in, 2);
        gen_pool_add(g, L->sel[s]);
    }
    gen_pool_add(g, L->counter);
    g->loops[g->nloops++] = (GenLoopInfo){L->counter, L->k.type};
    g->nest++;
    g->state = L->lb;
    g->dep = L->dsel;
}

/* the back inputs of the selectors, the exit test, LOOP_BACK; continues at the exit */
static void loop_close(Gen *g, Loop *L)
{
    uint32_t scanned = 0;
    for (uint32_t s = 0; s < L->plan.nsel; s++)
        circ_set_input(g->c, L->sel[s], 2, carried_next(g, L->sel[s], L->plan.type[s], &scanned));
    GateId next;
    GateId more = counter_step(g, &L->k, L->counter, &next);
    if (gen_rd_chance(g, 15)) /* and a data-dependent early end of the loop */
        more = gen_bin(g, OP_AND, TY_I1, more, gen_make_cond(g));
    circ_set_input(g->c, L->counter, 2, next);
    bool back_on_true = gen_rd_chance(g, 75); /* else branch on "done" and go back on false */
    if (!back_on_true)
        more = gen_bin(g, OP_XOR, TY_I1, more, gen_cnst(g, TY_I1, 1));
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &more, 1);
    GateId body = gen_state1(g, back_on_true ? OP_IF_TRUE : OP_IF_FALSE, 0, br);
    GateId back = gen_state1(g, OP_LOOP_BACK, 0, body);
    circ_set_input(g->c, L->lb, 1, back);
    circ_set_input(g->c, L->dsel, 2, g->dep);
    GateId exit = gen_state1(g, back_on_true ? OP_IF_FALSE : OP_IF_TRUE, 0, br);
    g->nest--;
    g->nloops--;
    g->mult /= L->maxtrip;
    g->state = exit;
    g->dep = gen_relay(g, exit, g->dep);
    gen_scope_keep(g); /* the body dominates the exit: its values stay usable */
    for (uint32_t s = 0; s < L->plan.nsel; s++)
        gen_pending_add(g, L->sel[s]);
}

void gen_stmt_loop(Gen *g, uint32_t limit)
{
    Loop L;
    L.maxtrip = GEN_LOOP_MULT_MAX / g->mult;
    if (L.maxtrip > 16)
        L.maxtrip = 16;
    L.maxtrip = 2 + gen_rd_below(g, (uint32_t)L.maxtrip - 1);
    L.k = plan_counter(g, L.maxtrip);
    plan_selectors(g, &L.plan);
    if (!L.plan.nsel) /* at least one value carried around: the body's result */
        L.plan.type[L.plan.nsel++] = gen_rand_value_type(g);
    for (uint32_t s = 0; s < L.plan.nsel; s++)
        L.init[s] = gen_val_of(g, L.plan.type[s]);
    uint32_t budget = gen_room(g, limit) * (1 + gen_rd_below(g, 3)) / 6;
    loop_open(g, &L);
    gen_block(g, g->c->ngates + budget);
    loop_close(g, &L);
}
