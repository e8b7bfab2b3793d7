/* gen_func.c — generator calls, the choice of each statement, and whole functions.
 *
 * Calls go to functions generated earlier (so the call graph is acyclic), or to the
 * function itself behind a guard on a depth argument masked to 0..3 (at most one
 * self-call site, outside loops); a call is placed only while the caller's estimate
 * of evaluated gates, callees included, stays far from the interpreter's budget.
 * Each statement reads its choices from its own record of the function's bytes;
 * pointer parameters are ARG gates named ptr*, so run lines can pass `heap`. */
#include "fuzz/gen_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- calls ------------------------------------------------------------------------ */

static GateId symbol(Gen *g, uint32_t fn)
{
    if (g->sym[fn] == NO_GATE)
        g->sym[fn] = gen_add_gate(g, OP_SYMBOL, TY_I64, 0, fn, NULL, 0, NULL, 0, NULL, 0);
    return g->sym[fn];
}

/* arguments for a call of fn; false if a pointer argument cannot be supplied */
static bool call_args(Gen *g, uint32_t fn, GateId *args, GateId depth)
{
    const GenSig *s = &g->sigs[fn];
    for (uint32_t p = 0; p < s->nparams; p++) {
        if (s->ptr_size[p]) {
            args[p] = gen_ptr_arg(g, s->ptr_size[p]);
            if (args[p] == NO_GATE)
                return false;
        } else if ((int)p == s->depth_param) {
            args[p] = depth != NO_GATE ? depth
                    : gen_rd_chance(g, 50) ? gen_cnst(g, TY_I32, gen_rd_below(g, 4))
                                       : gen_masked(g, TY_I32, gen_val_of(g, TY_I32), 3);
        } else {
            args[p] = gen_val_of(g, s->params[p]);
        }
    }
    return true;
}

GateId gen_emit_call(Gen *g, uint32_t fn, const GateId *args)
{
    const GenSig *s = &g->sigs[fn];
    GateId in[GEN_WIDE_PARAMS + 1];
    in[0] = symbol(g, fn);
    memcpy(in + 1, args, s->nparams * sizeof *args);
    GateId call = gen_add_gate(g, OP_CALL, s->ret, 0, 0, NULL, 0, &g->dep, 1, in, s->nparams + 1);
    g->dep = call;
    return call;
}

/* a call of an earlier function: plain, with a store before and a load after through
 * the stack address it is handed, in a branch joined before a later effect, or among
 * many live values */
static void stmt_call(Gen *g, uint32_t left)
{
    uint32_t form = gen_rd_below(g, 10);
    if (form < 4)
        gen_stmt_call_via_stack(g);
    else if (form < 7 && left >= 16 && g->nest < GEN_MAX_NEST)
        gen_stmt_dep_join(g);
    else if (form == 7 && left >= 24 && !g->nloops)
        gen_stmt_pressure(g, left, true);
    else
        gen_call_some(g);
}

GateId gen_call(Gen *g, uint32_t fn)
{
    GateId args[GEN_WIDE_PARAMS];
    if (!call_args(g, fn, args, NO_GATE))
        return NO_GATE;
    gen_charge(g, g->sigs[fn].cost);
    GateId call = gen_emit_call(g, fn, args);
    if (g->sigs[fn].ret != TY_NONE)
        gen_pool_add(g, call);
    return call;
}

/* IF (depth_left != 0) { CALL self(depth_left - 1) } joined by a MERGE */
static void stmt_recurse(Gen *g)
{
    GateId dl = g->depth_left;
    GateId args[GEN_WIDE_PARAMS];
    if (!call_args(g, g->fidx, args, gen_bin(g, OP_SUB, TY_I32, dl, gen_cnst(g, TY_I32, 1))))
        return;
    g->self_called = true;
    GateId c = gen_cmp(g, OP_ICMP, ICMP_ne, dl, gen_cnst(g, TY_I32, 0));
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
    GateId t = gen_state1(g, OP_IF_TRUE, 0, br), f = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId dep0 = g->dep;
    GateId other = g->f->ret != TY_NONE ? gen_val_of(g, g->f->ret) : NO_GATE;
    g->dep = gen_relay(g, t, dep0);
    GateId call = gen_emit_call(g, g->fidx, args);
    GateId deps[2] = {call, gen_relay(g, f, dep0)};
    GateId ends[2] = {t, f};
    GateId m = gen_add_gate(g, OP_MERGE, TY_NONE, 0, 0, ends, 2, NULL, 0, NULL, 0);
    g->state = m;
    g->dep = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, deps, 2, NULL, 0);
    if (other != NO_GATE) {
        GateId in[2] = {call, other};
        gen_pool_add(g, gen_add_gate(g, OP_VALUE_SELECTOR, g->f->ret, 0, 0, &m, 1, NULL, 0, in, 2));
    }
}

/* ---- statements ------------------------------------------------------------------- */

static void stmt_in_record(Gen *g, uint32_t limit);

static void stmt(Gen *g, uint32_t limit)
{
    GenRecord saved = gen_begin_record(g, GEN_RECORD);
    stmt_in_record(g, limit);
    gen_end_record(g, saved);
}

/* the feature of the next statement: the weights, minus what cannot fit here */
static int choose_feature(Gen *g, uint32_t left, bool can_recurse)
{
    uint8_t w[GF_COUNT];
    memcpy(w, g->weight, sizeof w);
    if (g->nest >= GEN_MAX_NEST || left < 16)
        w[GF_IF] = w[GF_SWITCH] = w[GF_LOOP] = 0;
    if (g->mult * 2 > GEN_LOOP_MULT_MAX || g->nloops >= GEN_MAX_NEST)
        w[GF_LOOP] = 0;
    if (g->nloops && w[GF_EXIT])
        w[GF_EXIT] = (uint8_t)(w[GF_EXIT] * 2);
    if (!g->fidx && !can_recurse)
        w[GF_CALL] = 0;
    return gen_rd_weighted(g, w, GF_COUNT);
}

static void stmt_in_record(Gen *g, uint32_t limit)
{
    uint32_t left = gen_room(g, limit);
    bool can_recurse = g->depth_left != NO_GATE && !g->self_called && g->mult == 1;
    if (gen_exc_stmt(g, limit))
        return;
    int k = choose_feature(g, left, can_recurse);
    switch (k) {
    case GF_DIV:
        if (left >= 16 && g->nest < GEN_MAX_NEST && gen_rd_chance(g, 25))
            gen_stmt_guarded_div(g);
        else
            gen_stmt_div(g, false);
        break;
    case GF_DIV0: { /* the division that may trap: at most one per module */
        bool raw = g->unsafe_divs < 1;
        g->unsafe_divs++;
        if (raw && gen_rd_chance(g, 40))
            gen_stmt_absorbed_div(g);
        else
            gen_stmt_div(g, raw);
        break;
    }
    case GF_FLOAT: gen_stmt_float(g); break;
    case GF_CONVERT: gen_stmt_convert(g); break;
    case GF_COMPARE:
        if (gen_rd_chance(g, 30))
            gen_pool_add(g, gen_idiom_cond(g));
        else if (g->nptrs && gen_rd_chance(g, 12))
            gen_stmt_ptr_measure(g);
        else
            gen_stmt_compare(g);
        break;
    case GF_LOAD: case GF_STORE:
        if (left >= 24 && !g->nloops && gen_rd_chance(g, 8))
            gen_stmt_pressure(g, left, false);
        else if (left >= 16 && g->nest < GEN_MAX_NEST && gen_rd_chance(g, 8))
            gen_stmt_dep_join(g);
        else if (left >= 16 && gen_rd_chance(g, 15))
            gen_stmt_guarded_access(g, k == GF_LOAD);
        else if (k == GF_LOAD)
            gen_stmt_load(g);
        else
            gen_stmt_store(g);
        break;
    case GF_CALL:
        if (can_recurse && (!g->fidx || gen_rd_chance(g, 30)))
            stmt_recurse(g);
        else
            stmt_call(g, left);
        break;
    case GF_IF: gen_stmt_if(g, limit); break;
    case GF_SWITCH: gen_stmt_switch(g, limit); break;
    case GF_LOOP: gen_stmt_loop(g, limit); break;
    case GF_EXIT: gen_stmt_exit(g); break;
    case GF_BLOCK: gen_stmt_block(g); break;
    default:
        if (gen_rd_chance(g, 20))
            gen_stmt_idiom(g);
        else if (left < 16 || !gen_rt_stmt(g))
            gen_stmt_int(g);
        break;
    }
}

/* statements until the gate count reaches limit, or until the function's bytes are
 * used up (a short input makes a small program rather than one padded with the
 * all-zero choice) */
void gen_block(Gen *g, uint32_t limit)
{
    while (g->c->ngates < limit && !gen_path_ended(g) && g->src.pos < g->src.n) {
        uint32_t before = g->c->ngates;
        stmt(g, limit);
        if (g->c->ngates == before) { /* the statement found nothing to do */
            GenRecord saved = gen_begin_record(g, GEN_RECORD);
            gen_stmt_int(g);
            gen_end_record(g, saved);
        }
    }
}

/* ---- functions --------------------------------------------------------------------- */

/* is there an earlier function whose result may trap with no effect before it? */
static bool has_pure_trap_callee(const Gen *g, uint32_t idx)
{
    for (uint32_t j = 0; j < idx; j++)
        if (g->sigs[j].pure_trap)
            return true;
    return false;
}

static void make_signature(Gen *g, uint32_t idx, bool entry)
{
    static const uint32_t ptr_sizes[] = {8, 16, 64, 256, 32};
    GenSig *s = &g->sigs[idx];
    if (!entry && gen_rt_signature(g, s))
        return;
    memset(s, 0, sizeof *s);
    s->depth_param = -1;
    uint32_t n = gen_rd_below(g, GEN_MAX_PARAMS - 1);
    if (entry && n == 0 && gen_rd_chance(g, 75))
        n = 1 + gen_rd_below(g, 3); /* the run lines' arguments keep the entry from folding away */
    /* callees: stack addresses handed in; an entry that may call such a function at
     * its end (gen_stmt_call_relay): the harness buffer, where a store outlives a trap */
    uint32_t ptr_chance = !entry ? 35 : has_pure_trap_callee(g, idx) ? 50 : 20;
    for (uint32_t p = 0; p < n; p++) {
        if (gen_rd_chance(g, gen_feat(g, GF_LOAD) || gen_feat(g, GF_STORE) ? ptr_chance : 0)) {
            s->params[p] = TY_I64;
            s->ptr_size[p] = entry ? HEAP_SIZE : ptr_sizes[gen_rd_below(g, 5)];
        } else {
            s->params[p] = gen_rand_value_type(g);
        }
    }
    if (gen_feat(g, GF_CALL) && gen_rd_chance(g, 25)) {
        s->depth_param = (int)n;
        s->params[n++] = TY_I32;
    }
    s->nparams = n;
    s->ret = gen_rd_chance(g, entry ? 3 : 10) ? TY_NONE : gen_rand_value_type(g);
}

static void reset_function(Gen *g)
{
    for (int t = 0; t < TY_COUNT; t++)
        g->pool[t].n = 0;
    g->nmarks = 0;
    g->nptrs = 0;
    g->npending = 0;
    for (uint32_t i = 0; i < GEN_MAX_FUNCS; i++)
        g->sym[i] = NO_GATE;
    g->depth_left = NO_GATE;
    g->big_alloca = false;
    g->want_ptr.base = NO_GATE;
    g->ret_extra = NO_GATE;
    g->self_called = false;
    g->mult = 1;
    g->cost = 0;
    g->nest = 0;
    g->nloops = 0;
    g->state = ROOT_STATE_ENTRY;
    g->dep = ROOT_DEPEND_ENTRY;
}

static void make_args(Gen *g, const GenSig *s)
{
    for (uint32_t p = 0; p < s->nparams; p++) {
        GateId a = gen_add_gate(g, OP_ARG, s->params[p], 0, p, NULL, 0, NULL, 0, NULL, 0);
        char name[16];
        if (s->ptr_size[p]) {
            snprintf(name, sizeof name, "ptr%u", p);
            g->ptrs[g->nptrs++] = (GenPtr){a, s->ptr_size[p]};
        } else if ((int)p == s->depth_param) {
            snprintf(name, sizeof name, "depth");
            g->depth_left = gen_bin(g, OP_AND, TY_I32, a, gen_cnst(g, TY_I32, GEN_RECURSION));
        } else {
            snprintf(name, sizeof name, "a%u", p);
            gen_pool_add(g, a);
        }
        circ_set_name(g->c, a, name, strlen(name));
    }
}

void gen_begin_function(Gen *g, uint32_t idx, const char *name)
{
    const GenSig *s = &g->sigs[idx];
    g->f = module_add_func(g->m, name, s->params, s->nparams, s->ret);
    g->c = g->f->circ;
    g->fidx = idx;
    reset_function(g);
}

void gen_function(Gen *g, uint32_t idx, uint32_t budget)
{
    bool entry = idx + 1 == g->nfuncs;
    GenRecord saved = gen_begin_record(g, GEN_RECORD);
    make_signature(g, idx, entry);
    GenSig *s = &g->sigs[idx];
    if (idx == g->wide_fn)
        gen_extreme_signature(g, s);
    bool small = !entry && idx != g->wide_fn && gen_rd_chance(g, 40);
    s->small = small;
    gen_end_record(g, saved);
    char name[16];
    snprintf(name, sizeof name, entry ? "main" : "f%u", idx);
    gen_begin_function(g, idx, name);
    make_args(g, s);
    gen_scope_push(g);
    if (!entry) {
        GenRecord head = gen_begin_record(g, GEN_RECORD);
        gen_ptr_param_head(g);
        gen_end_record(g, head);
    }
    if (small) { /* a few gates: what the inliner takes */
        GenRecord head = gen_begin_record(g, GEN_RECORD);
        s->pure_trap = gen_small_callee_head(g);
        gen_end_record(g, head);
        budget = budget < 24 ? budget : 24;
    }
    if (s->pure_trap)
        gen_pure_block(g, g->c->ngates + budget);
    else
        gen_block(g, g->c->ngates + budget);
    if (entry && !gen_path_ended(g))
        gen_extreme_tail(g);
    if (idx == g->wide_fn && !gen_path_ended(g)) /* every parameter reaches the return */
        g->ret_extra = gen_args_checksum(g, s->ret);
    if (!small && !gen_path_ended(g)) { /* mostly where a callee's result may trap */
        GenRecord tail = gen_begin_record(g, GEN_RECORD);
        if (gen_rd_chance(g, has_pure_trap_callee(g, idx) ? 70 : 25))
            gen_stmt_call_relay(g);
        gen_end_record(g, tail);
    }
    if (!gen_path_ended(g))
        /* a throw only from the entry: a callee that always threw would hide its callers */
        gen_end_path(g, entry && gen_feat(g, GF_EXIT) && gen_rd_chance(g, 5));
    gen_scope_pop(g);
    s->cost = g->cost * (s->depth_param >= 0 ? GEN_RECURSION + 1 : 1) + 16;
}
