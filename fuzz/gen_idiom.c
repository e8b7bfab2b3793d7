/* gen_idiom.c — generator statements aimed at what the backends match and bound:
 * single-bit tests, sign tests, mask tests, compares with zero or a boundary
 * constant (tbz/cbz/bt/test forms) and of two values, operations with constants at the encoders' boundaries, blocks with more
 * values live across a call than there are registers, and the effect shapes around
 * calls: stack addresses passed to callees (offset, through selectors, in loops) with
 * a store before and a load after, call and load dependencies joined by selectors and
 * relays before later effects, and small callees that store, trap or throw. */
#include "fuzz/gen_internal.h"

#include <string.h>

static const int icmp_all[] = {
    ICMP_eq, ICMP_ne, ICMP_ugt, ICMP_uge, ICMP_ult, ICMP_ule, ICMP_sgt, ICMP_sge, ICMP_slt, ICMP_sle,
};

/* i32 and i64 mostly: the widths the short branch forms take */
static Type idiom_type(Gen *g)
{
    static const Type t[] = {TY_I32, TY_I64, TY_I32, TY_I64, TY_I8, TY_I16};
    return t[gen_rd_below(g, 6)];
}

/* a value of type t that is not a constant when there is one: an idiom on constants
 * would fold away */
static GateId live_value(Gen *g, Type t)
{
    if (g->pool[t].n)
        return gen_val_of(g, t);
    for (uint32_t i = 0; i < 7; i++) {
        GenIdVec *p = &g->pool[TY_I1 + (i + t) % 7];
        if (p->n) {
            GateId v = gen_convert_to(g, p->v[p->n - 1], t);
            gen_pool_add(g, v);
            return v;
        }
    }
    return gen_val_of(g, t);
}

/* (x & (1 << k)) ==/!= 0, or ((x >> k) & 1) ==/!= 0 */
static GateId bit_test(Gen *g, Type t)
{
    /* mostly a low bit: values are often extended from narrower ones */
    uint32_t k = gen_rd_below(g, gen_rd_chance(g, 60) ? 8 : (uint32_t)ty_bits(t));
    GateId x = live_value(g, t);
    GateId bit;
    if (gen_rd_chance(g, 75)) {
        bit = gen_masked(g, t, x, (uint64_t)1 << k);
    } else {
        GateId sh = gen_cnst(g, t, k);
        bit = gen_masked(g, t, gen_bin(g, OP_LSHR, t, x, sh), 1);
    }
    GateId zero = gen_cnst(g, t, 0);
    return gen_cmp(g, OP_ICMP, gen_rd_chance(g, 50) ? ICMP_ne : ICMP_eq, bit, zero);
}

/* a constant mask for a sign test: a boundary constant, three times in four with the
 * sign bit set (without it the test is constant and folds away), as a sign-extended
 * 32-bit value at 64 bits (an immediate of x86-64's test and of ARM64's tst) */
static uint64_t sign_mask(Gen *g, Type t)
{
    uint64_t k = gen_boundary_int(g, t);
    if (gen_rd_chance(g, 25))
        return k;
    if (t != TY_I64)
        return k | (uint64_t)1 << (ty_bits(t) - 1);
    return (uint64_t)(int64_t)(int32_t)(uint32_t)(k | 0x80000000u);
}

/* a sign test, x < 0 or x >= 0, of x or of x & m (m a boundary constant or a value),
 * or a test of x & y against zero (a mask in a register): the test forms */
static GateId sign_or_mask_test(Gen *g, Type t, bool sign)
{
    /* one draw a statement: argument order is unspecified in C */
    GateId x = live_value(g, t);
    GateId zero = gen_cnst(g, t, 0);
    bool masked = !sign || gen_rd_chance(g, 50);
    if (masked) {
        GateId m = sign && gen_rd_chance(g, 50) ? gen_cnst(g, t, sign_mask(g, t)) : live_value(g, t);
        x = gen_bin(g, OP_AND, t, x, m);
    }
    int cond = gen_rd_chance(g, 50) ? (sign ? ICMP_slt : ICMP_ne) : (sign ? ICMP_sge : ICMP_eq);
    return gen_cmp(g, OP_ICMP, cond, x, zero);
}

/* a use of q (the module's division that may trap) whose value q does not change:
 * q * 0, 0 & q, q - q, q ^ q, q | -1, q urem 1, a compare of q with itself or
 * unsigned against 0, an FCMP true or false of q made float.  Demanding it demands
 * q, so a folder that makes it a constant must keep q's trap. */
static GateId absorbing_use(Gen *g, GateId q)
{
    Type t = (Type)g->c->gates[q].type;
    switch (gen_rd_below(g, 8)) {
    case 0: return gen_bin(g, OP_MUL, t, q, gen_cnst(g, t, 0));
    case 1: return gen_bin(g, OP_AND, t, gen_cnst(g, t, 0), q);
    case 2: return gen_bin(g, OP_SUB, t, q, q);
    case 3: return gen_bin(g, OP_XOR, t, q, q);
    case 4: return gen_bin(g, OP_OR, t, q, gen_cnst(g, t, ~0ull));
    case 5: return gen_bin(g, OP_UREM, t, q, gen_cnst(g, t, 1));
    case 6:
        if (gen_rd_chance(g, 50)) {
            int cond = gen_rd_chance(g, 50) ? ICMP_ult : ICMP_uge;
            return gen_cmp(g, OP_ICMP, cond, q, gen_cnst(g, t, 0));
        }
        return gen_cmp(g, OP_ICMP, icmp_all[gen_rd_below(g, 10)], q, q);
    default: {
        Type f = gen_rd_chance(g, 50) ? TY_F64 : TY_F32;
        GateId x = gen_un(g, OP_SITOFP, f, q);
        GateId y = gen_val_of(g, f);
        int cond = gen_rd_chance(g, 50) ? FCMP_true : FCMP_false;
        return gen_rd_chance(g, 50) ? gen_cmp(g, OP_FCMP, cond, x, y) : gen_cmp(g, OP_FCMP, cond, y, x);
    }
    }
}

/* the module's division that may trap, by a divisor that is zero for about half of
 * the values (x & 1 or x & 3), and a use of it that a folder can make constant */
void gen_stmt_absorbed_div(Gen *g)
{
    Type t = gen_rand_int_type(g);
    GateId x = live_value(g, t);
    GateId d = gen_masked(g, t, x, gen_rd_chance(g, 50) ? 1 : 3);
    GateId q = gen_div_of(g, t, true, d);
    gen_pool_add(g, absorbing_use(g, q));
}

GateId gen_idiom_cond(Gen *g)
{
    Type t = idiom_type(g);
    uint32_t shape = gen_rd_below(g, 8);
    if (shape < 2)
        return bit_test(g, t);
    if (shape == 4 || shape == 5)
        return sign_or_mask_test(g, t, shape == 4);
    GateId x = live_value(g, t);
    if (shape >= 6) { /* two values: a register (or, spilled, memory) on either side */
        GateId y = live_value(g, t);
        return gen_cmp(g, OP_ICMP, icmp_all[gen_rd_below(g, 10)], x, y);
    }
    GateId k = gen_cnst(g, t, shape == 2 ? 0 : gen_boundary_int(g, t));
    int cond = icmp_all[gen_rd_below(g, 10)];
    if (gen_rd_chance(g, 15)) /* the constant first */
        return gen_cmp(g, OP_ICMP, cond, k, x);
    return gen_cmp(g, OP_ICMP, cond, x, k);
}

/* (x >> k) & (2^w - 1): a field extract (ubfx), a single bit a third of the time */
static GateId bit_field(Gen *g)
{
    Type t = gen_rd_chance(g, 50) ? TY_I32 : TY_I64;
    uint32_t bits = (uint32_t)ty_bits(t), k = 1 + gen_rd_below(g, bits - 1);
    uint32_t w = gen_rd_chance(g, 33) ? 1 : 1 + gen_rd_below(g, bits - k);
    GateId x = live_value(g, t); /* before the constant: one order on every compiler */
    GateId sh = gen_bin(g, OP_LSHR, t, x, gen_cnst(g, t, k));
    return gen_masked(g, t, sh, w == 64 ? ~0ull : (1ull << w) - 1);
}

/* x OP boundary constant, or a field extract one time in six */
void gen_stmt_idiom(Gen *g)
{
    static const Opcode ops[] = {OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_MUL, OP_AND, OP_ADD};
    if (gen_rd_chance(g, 16)) {
        gen_pool_add(g, bit_field(g));
        return;
    }
    Type t = gen_rand_int_type(g);
    Opcode op = ops[gen_rd_below(g, 8)];
    GateId x = live_value(g, t);
    GateId k = gen_cnst(g, t, gen_boundary_int(g, t));
    gen_pool_add(g, gen_bin(g, op, t, x, k));
}

/* ---- register pressure ----------------------------------------------------------- */

enum { PRESSURE_MIN = 16, PRESSURE_MAX = 34 };

/* one of the block's values: a LOAD on the chain (so it is computed before the call)
 * or a computation with a constant */
static GateId pressure_value(Gen *g, GenPtr *p, Type t)
{
    if (p && gen_rd_chance(g, 75)) {
        GateId a = gen_address(g, p, t);
        GateId ld = gen_add_gate(g, OP_LOAD, t, 0, 0, NULL, 0, &g->dep, 1, &a, 1);
        g->dep = ld;
        return ld;
    }
    static const Opcode ops[] = {OP_ADD, OP_XOR, OP_MUL, OP_SUB};
    static const Opcode fops[] = {OP_FADD, OP_FMUL, OP_FSUB, OP_FADD};
    GateId x = gen_val_of(g, t);
    GateId k = gen_interesting_const(g, t);
    return gen_bin(g, (ty_is_float(t) ? fops : ops)[gen_rd_below(g, 4)], t, x, k);
}

static void pressure_block(Gen *g, uint32_t left, bool with_call)
{
    uint32_t n = left / 3 < PRESSURE_MAX ? left / 3 : PRESSURE_MAX;
    if (n < PRESSURE_MIN)
        n = PRESSURE_MIN;
    n -= gen_rd_below(g, n - PRESSURE_MIN + 1);
    GenPtr *p = gen_pick_ptr(g, 8);
    Type t = gen_rd_chance(g, 50) ? TY_I64 : TY_I32;
    GateId v[PRESSURE_MAX];
    for (uint32_t i = 0; i < n; i++) {
        Type ti = gen_rd_chance(g, 15) ? TY_F64 : t;
        v[i] = pressure_value(g, p, ti);
    }
    if (with_call)
        gen_call_some(g);
    GateId acc = gen_convert_to(g, v[n - 1], t);
    for (uint32_t i = n - 1; i-- > 0;)
        acc = gen_fold_in(g, acc, v[i], t);
    gen_pool_add(g, acc);
    gen_pending_add(g, acc);
}

enum { PRESSURE_BYTES = 1024 };

/* 16..34 values made, then (with_call) a call, then all of them folded into one, so
 * they are live together (across the call); more choices than a statement's record
 * holds, so they come from bytes made from a seed in the record */
void gen_stmt_pressure(Gen *g, uint32_t left, bool with_call)
{
    uint8_t bytes[PRESSURE_BYTES];
    gen_seed_bytes(gen_rd_u64(g), bytes, sizeof bytes);
    GenByteSrc src = g->src;
    GenRecord rec = g->rec;
    g->src = (GenByteSrc){bytes, sizeof bytes, 0};
    g->rec.active = false;
    pressure_block(g, left, with_call);
    g->src = src;
    g->rec = rec;
}

/* ---- effects around calls ----------------------------------------------------------- */

/* an offset in [0, slack]: a constant (mostly, when constant: the offsets passes
 * can follow), a masked value or a loop counter */
static GateId arg_offset(Gen *g, uint32_t slack, bool constant)
{
    uint32_t form = constant && gen_rd_chance(g, 60) ? 0 : gen_rd_below(g, 3);
    if (g->nloops && gen_rd_chance(g, 50))
        form = 2;
    if (form == 0)
        return gen_cnst(g, TY_I64, 1 + gen_rd_below(g, slack));
    if (form == 2 && g->nloops) {
        GenLoopInfo *l = &g->loops[g->nloops - 1];
        GateId i = gen_convert_to(g, l->counter, TY_I64);
        return gen_masked(g, TY_I64, i, gen_mask_below(slack));
    }
    return gen_masked(g, TY_I64, gen_i64_value(g), gen_mask_below(slack));
}

/* the object is picked with room to spare at times, and the argument is then its base
 * plus an offset (pointers joined by selectors are among those picked) */
GateId gen_ptr_arg(Gen *g, uint32_t need)
{
    uint32_t extra = gen_rd_chance(g, 40) ? 1 + gen_rd_below(g, 64) : 0;
    GenPtr want = g->want_ptr;
    GenPtr *p = want.base != NO_GATE && want.size >= need ? &want : gen_pick_ptr(g, need + extra);
    if (!p)
        p = gen_pick_ptr(g, need);
    if (!p)
        return NO_GATE;
    g->last_ptr_arg = *p;
    g->last_ptr_need = need;
    uint32_t slack = p->size - need;
    bool via = want.base != NO_GATE; /* call_via: a store before, a load after */
    if (!slack || !gen_rd_chance(g, via ? 75 : 50))
        return g->last_ptr_addr = p->base;
    GateId off = arg_offset(g, slack, via);
    return g->last_ptr_addr = gen_rd_chance(g, 50) ? gen_bin(g, OP_ADD, TY_I64, p->base, off)
                                                   : gen_bin(g, OP_ADD, TY_I64, off, p->base);
}

/* the earlier functions whose estimated cost fits here; with_ptr: only those taking a
 * pointer */
static uint32_t callees(const Gen *g, uint32_t *cand, bool with_ptr)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < g->fidx; j++) {
        if (gen_exc_is_chain(g, j)) /* reached by INVOKE statements only */
            continue;
        bool has_ptr = false;
        for (uint32_t p = 0; p < g->sigs[j].nparams; p++)
            has_ptr |= g->sigs[j].ptr_size[p] != 0;
        if (g->cost + g->mult * g->sigs[j].cost <= GEN_FUNC_COST_MAX && (has_ptr || !with_ptr))
            cand[n++] = j;
    }
    return n;
}

GateId gen_call_some(Gen *g)
{
    uint32_t cand[GEN_MAX_FUNCS];
    uint32_t n = callees(g, cand, false);
    return n ? gen_call(g, cand[gen_rd_below(g, n)]) : NO_GATE;
}

/* a STORE of a value at an address in p */
static void store_into(Gen *g, GenPtr *p)
{
    Type t = gen_rand_mem_type(g);
    if ((uint32_t)ty_bits(t) / 8 > p->size)
        t = TY_I8;
    GateId v = gen_val_of(g, t);
    GateId in[2] = {v, gen_address(g, p, t)};
    g->dep = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &g->dep, 1, in, 2);
}

/* the address and type of the load after a call handed a pointer: anywhere in the
 * object, or (two times in three) the first bytes the callee was handed, which its own
 * stores through the pointer most likely hit */
static GateId load_after_call(Gen *g, GenPtr *p, Type *t)
{
    *t = gen_rand_mem_type(g);
    if (gen_rd_chance(g, 65) && g->last_ptr_addr != NO_GATE && g->last_ptr_need >= 1) {
        *t = g->last_ptr_need >= 8 ? TY_I64 : g->last_ptr_need >= 4 ? TY_I32 : TY_I8;
        return g->last_ptr_addr;
    }
    if ((uint32_t)ty_bits(*t) / 8 > p->size)
        *t = TY_I8;
    return gen_address(g, p, *t);
}

/* STORE into obj, CALL fn, handed an address in obj, (usually) LOAD from obj: the load
 * must not be forwarded the stored value past the call */
static void call_via(Gen *g, uint32_t fn, GenPtr p)
{
    store_into(g, &p);
    g->last_ptr_arg.base = NO_GATE;
    g->last_ptr_addr = NO_GATE;
    g->want_ptr = p;
    GateId call = gen_call(g, fn);
    g->want_ptr.base = NO_GATE;
    if (call == NO_GATE || g->last_ptr_arg.base == NO_GATE || !gen_rd_chance(g, 85))
        return;
    p = g->last_ptr_arg;
    Type t;
    GateId a = load_after_call(g, &p, &t);
    GateId ld = gen_add_gate(g, OP_LOAD, t, 0, 0, NULL, 0, &g->dep, 1, &a, 1);
    g->dep = ld;
    gen_pool_add(g, ld);
}

/* the same through obj, or any object if obj is NULL; a store alone if no function
 * takes a pointer */
static void call_via_obj(Gen *g, const GenPtr *obj)
{
    uint32_t cand[GEN_MAX_FUNCS];
    uint32_t n = callees(g, cand, true);
    GenPtr *any = obj ? NULL : gen_pick_ptr(g, 1);
    if (!obj && !any)
        return;
    GenPtr p = obj ? *obj : *any;
    if (n)
        call_via(g, cand[gen_rd_below(g, n)], p);
    else
        store_into(g, &p);
}

void gen_stmt_call_via_stack(Gen *g)
{
    call_via_obj(g, NULL);
}

/* a small earlier function (one the inliner takes), if there is one (else
 * UINT32_MAX); with_result: only one that returns a value, one whose result may trap
 * if there is any */
static uint32_t pick_small(Gen *g, bool with_result)
{
    uint32_t cand[GEN_MAX_FUNCS], n = callees(g, cand, false), k = 0, trap[GEN_MAX_FUNCS], t = 0;
    for (uint32_t i = 0; i < n; i++) {
        const GenSig *s = &g->sigs[cand[i]];
        if (s->small && (!with_result || s->ret != TY_NONE))
            cand[k++] = cand[i];
        if (s->small && with_result && s->pure_trap)
            trap[t++] = cand[i];
    }
    if (t)
        return trap[gen_rd_below(g, t)];
    return k ? cand[gen_rd_below(g, k)] : UINT32_MAX;
}

static GateId call_small(Gen *g)
{
    uint32_t fn = pick_small(g, false);
    return fn != UINT32_MAX ? gen_call(g, fn) : NO_GATE;
}

/* the ARG gates of the function's value parameters (not pointers, not the recursion
 * depth), at most GEN_MAX_PARAMS; their count */
static uint32_t value_params(Gen *g, GateId *args)
{
    const GenSig *s = &g->sigs[g->fidx];
    uint32_t n = 0;
    for (GateId x = NUM_ROOTS; x < g->c->ngates && n < GEN_MAX_PARAMS; x++) {
        const Gate *gt = &g->c->gates[x];
        if (gt->op == OP_ARG && !s->ptr_size[gt->lit] && (int)gt->lit != s->depth_param)
            args[n++] = x;
    }
    return n;
}

/* a value parameter converted to t, else a value of t that is not a constant if
 * there is one */
static GateId param_value(Gen *g, Type t)
{
    GateId args[GEN_MAX_PARAMS];
    uint32_t n = value_params(g, args);
    if (!n)
        return live_value(g, t);
    GateId a = args[gen_rd_below(g, n)];
    return gen_convert_to(g, a, t);
}

/* a call of fn with arguments made from the function's parameters (the run lines'
 * arguments then decide whether a division in the callee traps); NO_GATE if a
 * pointer argument cannot be had */
static GateId call_with_live_args(Gen *g, uint32_t fn)
{
    const GenSig *s = &g->sigs[fn];
    GateId args[GEN_WIDE_PARAMS];
    for (uint32_t p = 0; p < s->nparams; p++) {
        if (s->ptr_size[p])
            args[p] = gen_ptr_arg(g, s->ptr_size[p]);
        else if ((int)p == s->depth_param)
            args[p] = gen_cnst(g, TY_I32, gen_rd_below(g, 4));
        else
            args[p] = param_value(g, s->params[p]);
        if (args[p] == NO_GATE)
            return NO_GATE;
    }
    gen_charge(g, s->cost);
    GateId call = gen_emit_call(g, fn, args);
    gen_pool_add(g, call);
    return call;
}

/* the effect in the true arm: a call of an earlier function (a small one half the
 * time: inlined, its dependency output reaches the join), else a load */
static void arm_effect(Gen *g)
{
    if (gen_rd_chance(g, 50) && call_small(g) != NO_GATE)
        return;
    if (gen_rd_chance(g, 85) && gen_call_some(g) != NO_GATE)
        return;
    gen_stmt_load(g);
}

/* IF (c) { CALL or LOAD } else { maybe a STORE }, MERGE with a DEPEND_SELECTOR (and
 * a relay of it at times), then a LOAD or STORE that depends on it; or, with an
 * object picked in each arm and joined by a VALUE_SELECTOR, a STORE, CALL, LOAD
 * through that */
void gen_stmt_dep_join(Gen *g)
{
    GateId c = gen_make_cond(g);
    bool join_ptr = gen_rd_chance(g, 40);
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
    GateId ends[2];
    ends[0] = gen_state1(g, OP_IF_TRUE, 0, br); /* in this order (see gen_ctrl.c) */
    ends[1] = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId dep0 = g->dep, deps[2];
    GenPtr objs[2];
    for (int arm = 0; arm < 2; arm++) {
        gen_scope_push(g);
        g->state = ends[arm];
        g->dep = gen_relay(g, ends[arm], dep0);
        if (arm == 0)
            arm_effect(g);
        else if (gen_rd_chance(g, 40))
            gen_stmt_store(g);
        GenPtr *o = join_ptr ? gen_pick_ptr(g, 64) : NULL;
        join_ptr = o != NULL;
        objs[arm] = o ? *o : (GenPtr){NO_GATE, 0};
        deps[arm] = g->dep;
        gen_scope_pop(g);
    }
    GateId m = gen_add_gate(g, OP_MERGE, TY_NONE, 0, 0, ends, 2, NULL, 0, NULL, 0);
    g->state = m;
    g->dep = gen_add_gate(g, OP_DEPEND_SELECTOR, TY_NONE, 0, 0, &m, 1, deps, 2, NULL, 0);
    if (gen_rd_chance(g, 30)) {
        g->state = gen_state1(g, OP_ORDINARY_BLOCK, 0, g->state);
        g->dep = gen_relay(g, g->state, g->dep);
    }
    if (join_ptr) {
        GateId in[2] = {objs[0].base, objs[1].base};
        GateId sel = gen_add_gate(g, OP_VALUE_SELECTOR, TY_I64, 0, 0, &m, 1, NULL, 0, in, 2);
        GenPtr p = {sel, objs[0].size < objs[1].size ? objs[0].size : objs[1].size};
        call_via_obj(g, &p);
    } else if (gen_rd_chance(g, 50))
        gen_stmt_store(g);
    else
        gen_stmt_load(g);
}

/* a pointer parameter of the function (a STORE through it may outlive a trap:
 * the entry's point into the harness buffer), else any object of 8 bytes or more */
static GenPtr *param_ptr(Gen *g)
{
    for (uint32_t i = 0; i < g->nptrs; i++)
        if (g->c->gates[g->ptrs[i].base].op == OP_ARG && g->ptrs[i].size >= 8)
            return &g->ptrs[i];
    return gen_pick_ptr(g, 8);
}

/* CALL of a small function whose dependency output reaches a STORE only through a
 * DEPEND_RELAY (after an ORDINARY_BLOCK), then a LOAD at an address made from the
 * call's result, on the chain the path's terminator reads: inlined, a trap in the
 * callee's result must still come before the STORE.  For a function's end (an
 * effect chain that meets a selector before its terminator makes the inliner refuse
 * the call on other grounds). */
void gen_stmt_call_relay(Gen *g)
{
    GenPtr *p = param_ptr(g);
    if (!p)
        return;
    GenPtr obj = *p;
    uint32_t fn = pick_small(g, true);
    GateId call = fn != UINT32_MAX ? call_with_live_args(g, fn) : NO_GATE;
    if (call == NO_GATE)
        return;
    g->state = gen_state1(g, OP_ORDINARY_BLOCK, 0, g->state);
    g->dep = gen_relay(g, g->state, call);
    store_into(g, &obj);
    GateId wide = gen_convert_to(g, call, TY_I64);
    GateId off = gen_masked(g, TY_I64, wide, gen_mask_below(obj.size - 8));
    GateId a = gen_bin(g, OP_ADD, TY_I64, obj.base, off);
    GateId ld = gen_add_gate(g, OP_LOAD, TY_I64, 0, 0, NULL, 0, &g->dep, 1, &a, 1);
    g->dep = ld;
    gen_pool_add(g, ld);
}

/* ---- small callees ---------------------------------------------------------------- */

/* IF (a == boundary constant) { THROW } for an integer argument a: true only for some
 * calls */
static void rare_throw(Gen *g)
{
    Type t = gen_rand_int_type(g);
    if (!g->pool[t].n)
        return;
    GateId x = g->pool[t].v[gen_rd_below(g, g->pool[t].n)];
    GateId c = gen_cmp(g, OP_ICMP, ICMP_eq, x, gen_cnst(g, t, gen_boundary_int(g, t)));
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
    GateId t_end = gen_state1(g, OP_IF_TRUE, 0, br), f_end = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId dep0 = g->dep;
    g->state = t_end;
    g->dep = gen_relay(g, t_end, dep0);
    gen_end_path(g, true);
    g->state = f_end;
    g->dep = gen_relay(g, f_end, dep0);
}

/* the division that may trap, its divisor made from a value parameter (so that the
 * caller's arguments decide whether it traps); NO_GATE if the function has none */
static GateId param_div(Gen *g)
{
    GateId args[GEN_MAX_PARAMS];
    uint32_t n = value_params(g, args);
    if (!n)
        return NO_GATE;
    Type t = gen_rand_int_type(g);
    GateId b = args[gen_rd_below(g, n)];
    b = gen_convert_to(g, b, t);
    return gen_div_of(g, t, true, b);
}

/* a store of the first bytes of the function's first pointer parameter (where a
 * caller's load after the call reads: call_via), one function in three */
void gen_ptr_param_head(Gen *g)
{
    if (!g->nptrs || !gen_rd_chance(g, 33))
        return;
    GenPtr *p = &g->ptrs[0];
    Type t = p->size >= 8 ? TY_I64 : p->size >= 4 ? TY_I32 : TY_I8;
    GateId in[2] = {gen_val_of(g, t), p->base};
    g->dep = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &g->dep, 1, in, 2);
}

/* what makes a small callee interesting to inline: a store (through a pointer
 * parameter when it has one), the module's one division that may trap, a throw.
 * Without a store, the trapping division is folded into the result (ret_extra): a
 * call's result that may trap, with no effect before it */
bool gen_small_callee_head(Gen *g)
{
    uint32_t what = gen_rd_below(g, 4);
    bool store = what != 1 || gen_rd_chance(g, 50);
    GateId q = NO_GATE;
    if (what == 1 && gen_feat(g, GF_DIV0) && g->unsafe_divs < 1) {
        g->unsafe_divs++;
        q = store ? NO_GATE : param_div(g);
        if (q == NO_GATE)
            gen_stmt_div(g, true);
    } else if (what >= 2 && gen_feat(g, GF_EXIT)) {
        rare_throw(g);
    }
    if (store) {
        gen_stmt_store(g);
        return false;
    }
    if (q == NO_GATE || g->dep != ROOT_DEPEND_ENTRY || g->f->ret == TY_NONE)
        return false;
    g->ret_extra = q;
    return true;
}

/* statements of arithmetic, conversions and compares only: no memory effect, call,
 * runtime call, INVOKE or state gate (what a pure small callee is made of) */
void gen_pure_block(Gen *g, uint32_t limit)
{
    static const GenFeature off[] = {GF_DIV, GF_DIV0, GF_LOAD, GF_STORE, GF_CALL, GF_IF,
                                      GF_SWITCH, GF_LOOP, GF_EXIT, GF_BLOCK};
    uint8_t weight[GF_COUNT];
    memcpy(weight, g->weight, sizeof weight);
    bool no_rt = g->no_joins_runtime;
    uint32_t exc_n = g->exc_n; /* gen_exc_stmt places INVOKEs only while there is a chain */
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        g->weight[off[i]] = 0;
    g->no_joins_runtime = true;
    g->exc_n = 0;
    gen_block(g, limit);
    memcpy(g->weight, weight, sizeof weight);
    g->no_joins_runtime = no_rt;
    g->exc_n = exc_n;
}
