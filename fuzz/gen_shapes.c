/* gen_shapes.c — the statistics of what the generator aims at: integer constants by
 * encoding boundary, and the shapes backends' idioms and passes' effect rules match
 * (bit-test branches, compares with zero, narrowed stores, large address offsets,
 * stack addresses passed to callees, dependencies joined before effects, small
 * callees that store / trap / throw, long runs of live loads), found in the module
 * itself, for `circ gen --stats` and the test gen_shapes. */
#include "fuzz/gen.h"

static const char *const const_names[GEN_CONST_COUNT] = {
    "imm12", "imm16", "imm8", "int32", "int64", "bit", "logical",
};

static const char *const shape_names[GEN_SHAPE_COUNT] = {
    "bit-test-branch", "cmp-zero", "narrow-store", "big-offset", "stack-arg",
    "stack-arg-offset", "stack-arg-selector", "stack-arg-loop", "dep-join-call", "dep-join-load",
    "small-store", "small-trap", "small-throw", "invoke-leaf", "pressure", "pressure-call",
};

const char *gen_const_class_name(GenConstClass k)
{
    return (unsigned)k < GEN_CONST_COUNT ? const_names[k] : "?";
}

const char *gen_shape_name(GenShape k)
{
    return (unsigned)k < GEN_SHAPE_COUNT ? shape_names[k] : "?";
}

/* ---- constants ------------------------------------------------------------------ */

static bool in_list(uint64_t v, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v == l[i])
            return true;
    return false;
}

/* the low w bits of v repeat with a power-of-two period of 2..w/2 bits (an ARM64
 * logical pattern with elements narrower than the register) */
static bool repeating(uint64_t v, int w)
{
    uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;
    for (int p = 2; p < w; p *= 2)
        if ((v & m) == (((v >> p) | (v << (w - p))) & m))
            return true;
    return false;
}

/* the class of an integer constant of width w (value sign-extended to 64 bits),
 * GEN_CONST_COUNT if none */
static GenConstClass const_class(uint64_t v, int w)
{
    static const uint64_t imm12[] = {4095, 4096, 4097, 0xfff000, 0xfff001, 0x1000000};
    static const uint64_t imm16[] = {0x7fff, 0x8000, 65535, 65536, 65537, 0xffff0000};
    static const uint64_t imm8[] = {127, 128, 129, 255, 256};
    static const uint64_t int32[] = {0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull};
    uint64_t a = (int64_t)v < 0 ? 0 - v : v;
    if (in_list(a, imm12, 6))
        return GEN_CONST_IMM12;
    if (in_list(v, imm16, 6))
        return GEN_CONST_IMM16;
    if (in_list(a, imm8, 5))
        return GEN_CONST_IMM8;
    if (w == 64 && in_list(v, int32, 4))
        return GEN_CONST_INT32;
    if (w == 64 && (v == 0x7fffffffffffffffull || v == 0x8000000000000000ull))
        return GEN_CONST_INT64;
    uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1, u = v & m;
    bool one_bit = u >= 512 && !(u & (u - 1)), one_hole = (~u & m) && !((~u & m) & ((~u & m) - 1));
    if (one_bit || (one_hole && u != m && w >= 16))
        return GEN_CONST_BIT;
    if (w >= 32 && u && u != m && repeating(u, w))
        return GEN_CONST_LOGICAL;
    return GEN_CONST_COUNT;
}

/* ---- shapes ----------------------------------------------------------------------- */

static const Gate *in_gate(const Circuit *c, const Gate *g, uint32_t i)
{
    return &c->gates[gate_data(g, i)];
}

static bool is_const(const Gate *g, uint64_t v)
{
    return g->op == OP_CONSTANT && g->lit == v;
}

static bool single_bit_const(const Gate *g)
{
    return g->op == OP_CONSTANT && g->lit && !(g->lit & (g->lit - 1));
}

/* (x & 2^k) or ((x >> k) & 1), compared ==/!= with 0 */
static bool bit_test(const Circuit *c, const Gate *cmp)
{
    if (cmp->op != OP_ICMP || (cmp->cond != ICMP_eq && cmp->cond != ICMP_ne))
        return false;
    const Gate *a = in_gate(c, cmp, 0), *b = in_gate(c, cmp, 1);
    if (!is_const(b, 0) || a->op != OP_AND)
        return false;
    return single_bit_const(in_gate(c, a, 0)) || single_bit_const(in_gate(c, a, 1));
}

/* the address a + k or a - k, |k| >= 128 */
static bool big_offset(const Circuit *c, const Gate *addr)
{
    if ((addr->op != OP_ADD && addr->op != OP_SUB) || addr->type != TY_I64)
        return false;
    for (uint32_t i = 0; i < 2; i++) {
        const Gate *k = in_gate(c, addr, i);
        uint64_t a = (int64_t)k->lit < 0 ? 0 - k->lit : k->lit;
        if (k->op == OP_CONSTANT && a >= 128)
            return true;
    }
    return false;
}

/* does v depend on a loop counter (a VALUE_SELECTOR of a LOOP_BEGIN), within depth */
static bool from_loop(const Circuit *c, GateId v, int depth)
{
    const Gate *g = &c->gates[v];
    if (g->op == OP_VALUE_SELECTOR && c->gates[gate_state(g, 0)].op == OP_LOOP_BEGIN)
        return true;
    for (uint32_t i = 0; depth > 0 && i < g->ndata && g->op != OP_VALUE_SELECTOR; i++)
        if (from_loop(c, gate_data(g, i), depth - 1))
            return true;
    return false;
}

/* a stack address argument: the shape it has (GEN_SHAPE_COUNT if not one) */
static GenShape stack_arg(const Circuit *c, GateId v, bool *loop)
{
    const Gate *g = &c->gates[v];
    if (g->op == OP_ALLOCA)
        return GEN_SHAPE_STACK_ARG;
    if (g->op == OP_ADD || g->op == OP_SUB)
        for (uint32_t i = 0; i < (g->op == OP_ADD ? 2u : 1u); i++)
            if (stack_arg(c, gate_data(g, i), loop) != GEN_SHAPE_COUNT) {
                *loop |= from_loop(c, gate_data(g, 1 - i), 4);
                return GEN_SHAPE_STACK_ARG_OFF;
            }
    if (g->op == OP_VALUE_SELECTOR && g->type == TY_I64)
        for (uint32_t i = 0; i < g->ndata; i++)
            if (c->gates[gate_data(g, i)].op == OP_ALLOCA)
                return GEN_SHAPE_STACK_ARG_SEL;
    return GEN_SHAPE_COUNT;
}

static bool is_effect(int op)
{
    return op == OP_LOAD || op == OP_STORE || op == OP_CALL;
}

static bool is_join(int op)
{
    return op == OP_DEPEND_SELECTOR || op == OP_DEPEND_RELAY;
}

/* an effect depends on g, directly or through at most depth more joins */
static bool feeds_effect(const Circuit *c, const Gate *g, int depth)
{
    for (uint32_t u = 0; u < g->nuses; u++) {
        const Gate *user = &c->gates[g->uses[u].user];
        if (is_effect(user->op) || (depth > 0 && is_join(user->op) && feeds_effect(c, user, depth - 1)))
            return true;
    }
    return false;
}

/* a DEPEND_SELECTOR / RELAY joining a CALL (GEN_SHAPE_DEP_JOIN_CALL) or a LOAD
 * (GEN_SHAPE_DEP_JOIN_LOAD) that a later effect depends on; GEN_SHAPE_COUNT if not */
static GenShape dep_join(const Circuit *c, const Gate *g)
{
    if (!is_join(g->op))
        return GEN_SHAPE_COUNT;
    bool call = false, load = false;
    for (uint32_t i = 0; i < g->ndep; i++) {
        int op = c->gates[gate_dep(g, i)].op;
        call |= op == OP_CALL;
        load |= op == OP_LOAD;
    }
    if ((!call && !load) || !feeds_effect(c, g, 3))
        return GEN_SHAPE_COUNT;
    return call ? GEN_SHAPE_DEP_JOIN_CALL : GEN_SHAPE_DEP_JOIN_LOAD;
}

enum { PRESSURE_LOADS = 12 };

/* consecutive used LOADs on the chain ending at g's dependency */
static uint32_t load_run(const Circuit *c, const Gate *g)
{
    uint32_t n = 0;
    while (g->ndep == 1) {
        const Gate *d = &c->gates[gate_dep(g, 0)];
        if (d->op != OP_LOAD || d->nuses < 2)
            break;
        n++;
        g = d;
    }
    return n;
}

typedef struct {
    bool has[GEN_SHAPE_COUNT];
    uint64_t n[GEN_SHAPE_COUNT];
} ShapeSeen;

static void saw(ShapeSeen *s, GenShape k)
{
    s->has[k] = true;
    s->n[k]++;
}

static void call_shapes(ShapeSeen *s, const Circuit *c, const Gate *g)
{
    for (uint32_t i = 1; i < g->ndata; i++) {
        bool loop = false;
        GenShape k = stack_arg(c, gate_data(g, i), &loop);
        if (k != GEN_SHAPE_COUNT)
            saw(s, k);
        if (loop)
            saw(s, GEN_SHAPE_STACK_ARG_LOOP);
    }
}

static void gate_shapes(ShapeSeen *s, const Circuit *c, const Gate *g)
{
    if (g->op == OP_IF_BRANCH && bit_test(c, in_gate(c, g, 0)))
        saw(s, GEN_SHAPE_BIT_TEST);
    if (g->op == OP_ICMP && (is_const(in_gate(c, g, 0), 0) || is_const(in_gate(c, g, 1), 0)))
        saw(s, GEN_SHAPE_CMP_ZERO);
    if (g->op == OP_STORE && in_gate(c, g, 0)->op == OP_TRUNC)
        saw(s, GEN_SHAPE_NARROW_STORE);
    if ((g->op == OP_STORE && big_offset(c, in_gate(c, g, 1))) ||
        (g->op == OP_LOAD && big_offset(c, in_gate(c, g, 0))))
        saw(s, GEN_SHAPE_BIG_OFFSET);
    if (g->op == OP_CALL)
        call_shapes(s, c, g);
    GenShape join = dep_join(c, g);
    if (join != GEN_SHAPE_COUNT)
        saw(s, join);
    if (g->op != OP_LOAD && g->ndep == 1 && load_run(c, g) >= PRESSURE_LOADS)
        saw(s, g->op == OP_CALL ? GEN_SHAPE_PRESSURE_CALL : GEN_SHAPE_PRESSURE);
}

enum { SMALL_CALLEE = 48 };

/* a callee of at most SMALL_CALLEE gates that stores, divides by a variable, throws */
static void small_callee(ShapeSeen *s, const Circuit *c, uint32_t live)
{
    bool store = false, trap = false, thr = false;
    for (GateId i = NUM_ROOTS; i < c->ngates && live <= SMALL_CALLEE; i++) {
        const Gate *g = &c->gates[i];
        if (g->dead)
            continue;
        bool div = g->op == OP_SDIV || g->op == OP_UDIV || g->op == OP_SREM || g->op == OP_UREM;
        store |= g->op == OP_STORE;
        trap |= div && in_gate(c, g, 1)->op != OP_CONSTANT;
        thr |= g->op == OP_THROW;
    }
    if (live > SMALL_CALLEE)
        return;
    if (store)
        saw(s, GEN_SHAPE_SMALL_STORE);
    if (trap)
        saw(s, GEN_SHAPE_SMALL_TRAP);
    if (thr)
        saw(s, GEN_SHAPE_SMALL_THROW);
}

/* an INVOKE of a module function without CALL, INVOKE or loop */
static bool invoke_of_leaf(const Module *m, const Circuit *c, const Gate *g)
{
    const Gate *sym = g->ndata ? in_gate(c, g, 0) : NULL;
    if (g->op != OP_INVOKE || !sym || sym->op != OP_SYMBOL || sym->lit >= m->nfuncs)
        return false;
    const Circuit *cc = m->funcs[sym->lit]->circ;
    for (GateId i = NUM_ROOTS; i < cc->ngates; i++) {
        const Gate *x = &cc->gates[i];
        if (!x->dead && (x->op == OP_CALL || x->op == OP_INVOKE || x->op == OP_LOOP_BEGIN))
            return false;
    }
    return true;
}

static void count_consts(GenStats *st, bool *has, const Gate *g)
{
    if (g->op != OP_CONSTANT || !ty_is_int((Type)g->type) || g->type == TY_I1)
        return;
    int w = ty_bits((Type)g->type);
    GenConstClass k = const_class((uint64_t)ty_sext((Type)g->type, g->lit), w);
    if (k == GEN_CONST_COUNT)
        return;
    st->consts[k]++;
    has[k] = true;
}

void gen_stats_shapes(GenStats *st, const Module *m)
{
    ShapeSeen s = {0};
    bool has_const[GEN_CONST_COUNT] = {0};
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const Circuit *c = m->funcs[fi]->circ;
        uint32_t live = 0;
        for (GateId i = NUM_ROOTS; i < c->ngates; i++) {
            const Gate *g = &c->gates[i];
            if (g->dead)
                continue;
            live++;
            gate_shapes(&s, c, g);
            if (invoke_of_leaf(m, c, g))
                saw(&s, GEN_SHAPE_INVOKE_LEAF);
            count_consts(st, has_const, g);
        }
        if (fi + 1 < m->nfuncs)
            small_callee(&s, c, live);
    }
    for (int k = 0; k < GEN_SHAPE_COUNT; k++) {
        st->shapes[k] += s.n[k];
        st->shape_programs[k] += s.has[k];
    }
    for (int k = 0; k < GEN_CONST_COUNT; k++)
        st->const_programs[k] += has_const[k];
}

void gen_stats_print_shapes(FILE *out, const GenStats *s)
{
    double n = s->programs ? (double)s->programs : 1.0;
    fprintf(out, "boundary constants (count, %% of programs):");
    for (int k = 0; k < GEN_CONST_COUNT; k++)
        fprintf(out, " %s=%llu/%.1f%%", const_names[k], (unsigned long long)s->consts[k],
                100.0 * (double)s->const_programs[k] / n);
    fprintf(out, "\nshapes (count, %% of programs):\n");
    for (int k = 0; k < GEN_SHAPE_COUNT; k++)
        fprintf(out, "  %-20s %8llu %6.1f%%\n", shape_names[k], (unsigned long long)s->shapes[k],
                100.0 * (double)s->shape_programs[k] / n);
}
