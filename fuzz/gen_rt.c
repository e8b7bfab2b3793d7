/* gen_rt.c — the generator's dependency joins and runtime calls.
 *
 * A join: the path's chain forks into two or three chains of loads and stores, each
 * over its own part of one object (a pointer of at least 16 bytes split evenly), and a
 * DEPEND_AND joins them; nothing orders the chains among themselves, so a compiler may
 * interleave them, and they are race-free by construction (disjoint bytes).
 * A runtime call (docs/runtime.md), on the path's chain like any CALL: rt_mix64 of a
 * value; rt_scramble of a pointer the path may touch with a count that fits it;
 * rt_check of a byte against a bound, which throws when the byte is above it;
 * rt_apply of an earlier function whose signature is (i64) -> i64 (gen_rt_signature
 * makes some). */
#include "fuzz/gen_internal.h"
#include "oracle/runtime.h"

#include <string.h>

static GateId rt_symbol(Gen *g, RuntimeFn fn)
{
    uint32_t e = module_add_extern(g->m, fn);
    return gen_add_gate(g, OP_SYMBOL, TY_I64, 0, SYM_EXTERN | e, NULL, 0, NULL, 0, NULL, 0);
}

/* CALL fn(args) on the chain; its result joins the pool */
static GateId rt_emit(Gen *g, RuntimeFn fn, const GateId *args)
{
    GateId in[4];
    uint32_t n = runtime_info[fn].nparams;
    in[0] = rt_symbol(g, fn);
    memcpy(in + 1, args, n * sizeof *args);
    GateId call = gen_add_gate(g, OP_CALL, TY_I64, 0, 0, NULL, 0, &g->dep, 1, in, n + 1);
    g->dep = call;
    gen_pool_add(g, call);
    return call;
}

static void rt_scramble(Gen *g)
{
    GenPtr *p = gen_pick_ptr(g, 1);
    if (!p)
        return;
    uint32_t room = p->size < RT_SCRAMBLE_MASK ? p->size : RT_SCRAMBLE_MASK;
    GateId args[3] = {p->base, gen_cnst(g, TY_I64, 1 + gen_rd_below(g, room)), gen_i64_value(g)};
    if (gen_rd_chance(g, 30)) /* a count computed at run time, masked to fit */
        args[1] = gen_masked(g, TY_I64, gen_i64_value(g), gen_mask_below(room));
    rt_emit(g, RT_rt_scramble, args);
}

/* rt_check(v & 0xff, 0x80 + k): a throw for the larger bytes */
static void rt_check(Gen *g)
{
    GateId args[2] = {gen_masked(g, TY_I64, gen_i64_value(g), 0xff), gen_cnst(g, TY_I64, 0x80 + gen_rd_below(g, 0x90))};
    rt_emit(g, RT_rt_check, args);
}

/* rt_apply(@f, v) of an earlier function (i64) -> i64, if there is one */
static bool rt_apply(Gen *g)
{
    uint32_t fits[GEN_MAX_FUNCS], n = 0;
    for (uint32_t i = 0; i < g->fidx; i++)
        if (g->sigs[i].nparams == 1 && g->sigs[i].params[0] == TY_I64 && !g->sigs[i].ptr_size[0] &&
            g->sigs[i].ret == TY_I64 && g->sigs[i].depth_param < 0 && g->cost + g->sigs[i].cost < GEN_FUNC_COST_MAX)
            fits[n++] = i;
    if (!n)
        return false;
    uint32_t fn = fits[gen_rd_below(g, n)];
    GateId args[2] = {gen_add_gate(g, OP_SYMBOL, TY_I64, 0, fn, NULL, 0, NULL, 0, NULL, 0), gen_i64_value(g)};
    gen_charge(g, g->sigs[fn].cost);
    rt_emit(g, RT_rt_apply, args);
    return true;
}

void gen_stmt_runtime(Gen *g)
{
    uint32_t form = gen_rd_below(g, 8);
    if (form < 4 && rt_apply(g))
        return;
    if (form < 4) {
        GateId v = gen_i64_value(g);
        rt_emit(g, RT_rt_mix64, &v);
    } else if (form < 6) {
        rt_scramble(g);
    } else {
        rt_check(g);
    }
}

/* one chain of one to three loads and stores inside part, from the path's tip */
static void join_chain(Gen *g, GenPtr *part)
{
    uint32_t n = 1 + gen_rd_below(g, 3);
    for (uint32_t i = 0; i < n; i++) {
        Type t = gen_rand_mem_type(g);
        while ((uint32_t)ty_bits(t) / 8 > part->size)
            t = TY_I8;
        GateId a = gen_address(g, part, t);
        if (gen_rd_chance(g, 50)) {
            GateId ld = gen_add_gate(g, OP_LOAD, t, 0, 0, NULL, 0, &g->dep, 1, &a, 1);
            g->dep = ld;
            gen_pool_add(g, ld);
        } else {
            GateId in[2] = {gen_val_of(g, t), a};
            g->dep = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &g->dep, 1, in, 2);
        }
    }
    if (gen_rd_chance(g, 15)) { /* a pure runtime call on the chain */
        GateId v = gen_i64_value(g);
        rt_emit(g, RT_rt_mix64, &v);
    }
}

void gen_stmt_join(Gen *g)
{
    GenPtr *p = gen_pick_ptr(g, 16);
    if (!p)
        return;
    uint32_t nchains = p->size >= 24 && gen_rd_chance(g, 30) ? 3 : 2;
    uint32_t part = p->size / nchains;
    GateId start = g->dep, tips[3];
    for (uint32_t k = 0; k < nchains; k++) {
        GenPtr sub = {k ? gen_bin(g, OP_ADD, TY_I64, p->base, gen_cnst(g, TY_I64, (uint64_t)k * part)) : p->base,
                      part};
        g->dep = start;
        join_chain(g, &sub);
        tips[k] = g->dep;
    }
    g->dep = gen_add_gate(g, OP_DEPEND_AND, TY_NONE, 0, 0, NULL, 0, tips, nchains, NULL, 0);
}

bool gen_rt_stmt(Gen *g)
{
    bool join = gen_feat(g, GF_LOAD) || gen_feat(g, GF_STORE), runtime = gen_feat(g, GF_CALL);
    uint32_t r = gen_rd_below(g, 100);
    if (g->no_joins_runtime)
        return false;
    if (r < GEN_RT_PERCENT && join)
        gen_stmt_join(g);
    else if (r >= GEN_RT_PERCENT && r < 2 * GEN_RT_PERCENT && runtime)
        gen_stmt_runtime(g);
    else
        return false;
    return true;
}

/* some callees take (i64) -> i64, so that rt_apply has a function to call back */
bool gen_rt_signature(Gen *g, GenSig *s)
{
    if (!gen_rd_chance(g, 40) || g->no_joins_runtime)
        return false;
    memset(s, 0, sizeof *s);
    s->depth_param = -1;
    s->nparams = 1;
    s->params[0] = TY_I64;
    s->ret = TY_I64;
    return true;
}
