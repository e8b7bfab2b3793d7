/* gen.c — the random program generator's core: reading choices from the bytes,
 * feature weights and swarm mode, scoped value pools, interesting constants,
 * conversions between any two types, and generate() itself.  Control flow and
 * functions are in gen_ctrl.c, computations and memory in gen_expr.c. */
#include "fuzz/gen_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- bytes ---------------------------------------------------------------- */

uint8_t gen_rd_byte(Gen *g)
{
    if (g->rec.active) {
        if (g->rec.pos >= g->rec.end)
            return 0;
        return g->src.p[g->rec.pos++];
    }
    if (g->src.pos >= g->src.n)
        return 0;
    return g->src.p[g->src.pos++];
}

GenRecord gen_begin_record(Gen *g, size_t n)
{
    GenRecord saved = g->rec;
    size_t start = g->src.pos < g->src.n ? g->src.pos : g->src.n;
    g->rec.pos = start;
    g->rec.end = g->src.n - start < n ? g->src.n : start + n;
    g->rec.active = true;
    g->src.pos = start + n;
    return saved;
}

void gen_end_record(Gen *g, GenRecord saved)
{
    g->rec = saved;
}

/* scaled rather than reduced modulo n, so every result gets an equal share of the
 * byte values (within one) and a zero byte gives 0 */
uint32_t gen_rd_below(Gen *g, uint32_t n)
{
    if (n <= 1)
        return 0;
    if (n <= 256)
        return (uint32_t)(((uint64_t)gen_rd_byte(g) * n) >> 8);
    uint64_t v = gen_rd_byte(g);
    v = v << 8 | gen_rd_byte(g);
    if (n <= 65536)
        return (uint32_t)((v * n) >> 16);
    v = v << 8 | gen_rd_byte(g);
    return (uint32_t)((v * n) >> 24);
}

/* true with the given probability; a zero byte (what missing input reads as) says no,
 * so an empty or short input gives the plainest program */
bool gen_rd_chance(Gen *g, uint32_t percent)
{
    return gen_rd_below(g, 100) >= 100 - percent;
}

uint64_t gen_rd_u64(Gen *g)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)gen_rd_byte(g) << (8 * i);
    return v;
}

int gen_rd_weighted(Gen *g, const uint8_t *w, int n)
{
    uint32_t total = 0;
    for (int i = 0; i < n; i++)
        total += w[i];
    if (!total)
        return -1;
    uint32_t r = gen_rd_below(g, total);
    for (int i = 0; i < n; i++) {
        if (r < w[i])
            return i;
        r -= w[i];
    }
    return n - 1;
}

bool gen_feat(const Gen *g, GenFeature f)
{
    return g->weight[f] != 0;
}

/* ---- features -------------------------------------------------------------- */

static const char *const feature_names[GF_COUNT] = {
    "int", "div", "div0", "float", "convert", "compare", "load", "store",
    "call", "if", "switch", "loop", "exit", "block",
};

const char *gen_feature_name(GenFeature f)
{
    return (unsigned)f < GF_COUNT ? feature_names[f] : "?";
}

void gen_default_weights(uint8_t w[GF_COUNT])
{
    static const uint8_t def[GF_COUNT] = {
        [GF_INT] = 30, [GF_DIV] = 6, [GF_DIV0] = 1, [GF_FLOAT] = 14, [GF_CONVERT] = 12,
        [GF_COMPARE] = 8, [GF_LOAD] = 9, [GF_STORE] = 9, [GF_CALL] = 6, [GF_IF] = 7,
        [GF_SWITCH] = 3, [GF_LOOP] = 16, [GF_EXIT] = 2, [GF_BLOCK] = 1,
    };
    memcpy(w, def, sizeof def);
}

bool gen_parse_weights(const char *spec, uint8_t weight[GF_COUNT])
{
    uint8_t w[GF_COUNT];
    memcpy(w, weight, sizeof w);
    const char *p = spec;
    while (*p) {
        const char *eq = strchr(p, '=');
        if (!eq)
            return false;
        int f = 0;
        while (f < GF_COUNT && (strlen(feature_names[f]) != (size_t)(eq - p) ||
                                strncmp(feature_names[f], p, (size_t)(eq - p))))
            f++;
        char *end;
        unsigned long v = strtoul(eq + 1, &end, 10);
        if (f == GF_COUNT || end == eq + 1 || v > 255 || (*end && *end != ','))
            return false;
        w[f] = (uint8_t)v;
        p = *end ? end + 1 : end;
    }
    memcpy(weight, w, sizeof w);
    return true;
}

/* swarm testing: each program switches a random subset of features off (the first
 * two bytes decide; they are read even without swarm, so the layout stays the same);
 * integer arithmetic always stays so every program has computations */
static void apply_swarm(Gen *g, bool swarm)
{
    uint32_t mask = gen_rd_byte(g);
    mask = mask << 8 | gen_rd_byte(g);
    for (int f = 0; swarm && f < GF_COUNT; f++)
        if (f != GF_INT && (mask >> f & 1))
            g->weight[f] = 0;
}

/* ---- gates and values -------------------------------------------------------- */

void gen_charge(Gen *g, uint64_t evals)
{
    g->cost += evals * g->mult;
}

GateId gen_add_gate(Gen *g, Opcode op, Type ty, int cond, uint64_t lit, const GateId *s, uint32_t ns,
                const GateId *d, uint32_t nd, const GateId *v, uint32_t nv)
{
    gen_charge(g, 1);
    return circ_add(g->c, op, ty, cond, lit, s, ns, d, nd, v, nv);
}

GateId gen_bin(Gen *g, Opcode op, Type ty, GateId a, GateId b)
{
    GateId in[2] = {a, b};
    return gen_add_gate(g, op, ty, 0, 0, NULL, 0, NULL, 0, in, 2);
}

GateId gen_cmp(Gen *g, Opcode op, int cond, GateId a, GateId b)
{
    GateId in[2] = {a, b};
    return gen_add_gate(g, op, TY_I1, cond, 0, NULL, 0, NULL, 0, in, 2);
}

GateId gen_un(Gen *g, Opcode op, Type ty, GateId a)
{
    return gen_add_gate(g, op, ty, 0, 0, NULL, 0, NULL, 0, &a, 1);
}

GateId gen_cnst(Gen *g, Type ty, uint64_t bits)
{
    if (ty_is_int(ty))
        bits &= ty_mask(ty);
    else if (ty == TY_F32)
        bits &= 0xffffffffu;
    return gen_add_gate(g, OP_CONSTANT, ty, 0, bits, NULL, 0, NULL, 0, NULL, 0);
}

/* the encoders' boundaries: ARM64 add/sub imm12 (and its LSL 12 form), movz/movk
 * halves, x86-64 imm8 / imm32, and the edges of each width */
static const uint64_t boundary_ints[] = {
    4095, 4096, 4097, 0xfff000, 0xfff001, 0x1000000, 65535, 65536, 65537, 0xffff0000,
    127, 128, 129, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
    0xffff, 0x7fff, 0x8000, 0x7fffffffffffffffull, 0x123456789abcull,
};

/* bit patterns ARM64 logical immediates accept (and neighbours that they do not) */
static const uint64_t logical_ints[] = {
    0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0x3333333333333333ull,
    0x0f0f0f0f0f0f0f0full, 0x00ff00ff00ff00ffull, 0x0000ffff0000ffffull,
    0x00000000ffffffffull, 0xfffffffffffffffeull, 0x7ffffffffffffffeull,
    0x0ff0ull, 0xff00ull, 0x00fffffffffff000ull, 0x5555555555555554ull, 0xf0ull,
};

/* a boundary constant: from the tables, possibly negated, or a single bit or its
 * complement (bits above ty's width are dropped when it becomes a gate) */
uint64_t gen_boundary_int(Gen *g, Type ty)
{
    int w = ty_bits(ty);
    uint64_t k;
    switch (gen_rd_below(g, 4)) {
    case 0:
        k = boundary_ints[gen_rd_below(g, sizeof boundary_ints / sizeof boundary_ints[0])];
        break;
    case 1:
        k = logical_ints[gen_rd_below(g, sizeof logical_ints / sizeof logical_ints[0])];
        break;
    case 2:
        k = (uint64_t)1 << gen_rd_below(g, (uint32_t)w);
        break;
    default:
        k = ~((uint64_t)1 << gen_rd_below(g, (uint32_t)w));
        break;
    }
    return gen_rd_chance(g, 20) ? 0 - k : k;
}

static uint64_t interesting_int(Gen *g, Type ty)
{
    int w = ty_bits(ty);
    uint64_t min = w == 1 ? 1 : (uint64_t)1 << (w - 1);
    switch (gen_rd_below(g, 16)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return ~0ull;                       /* -1 */
    case 3: return min;                         /* INT_MIN */
    case 4: return min - 1;                     /* INT_MAX */
    case 5: return (uint64_t)1 << gen_rd_below(g, (uint32_t)w);          /* power of two */
    case 6: return ((uint64_t)1 << gen_rd_below(g, (uint32_t)w)) - 1;    /* 2^k - 1 */
    case 7: return ((uint64_t)1 << gen_rd_below(g, (uint32_t)w)) + 1;    /* 2^k + 1 */
    case 8: return (uint64_t)0 - (gen_rd_below(g, 16) + 1);              /* small negative */
    case 9: return gen_rd_u64(g);                                         /* any bits */
    case 10: case 11: case 12: return gen_boundary_int(g, ty);
    default: return gen_rd_below(g, 64);                                  /* small */
    }
}

static uint64_t interesting_f64(Gen *g)
{
    static const uint64_t special[] = {
        0x0000000000000000ull, 0x8000000000000000ull, /* +-0 */
        0x3ff0000000000000ull, 0xbff0000000000000ull, /* +-1 */
        0x7ff8000000000000ull,                        /* NaN */
        0x7ff0000000000000ull, 0xfff0000000000000ull, /* +-inf */
        0x0000000000000001ull, 0x800fffffffffffffull, /* denormals */
        0x7fefffffffffffffull, 0x0010000000000000ull, /* max, min normal */
        0x3fe0000000000000ull, 0x43e0000000000000ull, /* 0.5, 2^63 */
        0xc1e0000000000000ull, 0x41efffffffe00000ull, /* -2^31, 2^32-1 */
    };
    uint32_t k = gen_rd_below(g, 24);
    if (k < sizeof special / sizeof special[0])
        return special[k];
    if (k < 20) {
        int num = (int)gen_rd_below(g, 201) - 100;
        double d = (double)num / (double)(1 + gen_rd_below(g, 8));
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    return gen_rd_u64(g);
}

static uint64_t interesting_f32(Gen *g)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u, 0x7f800000u,
        0xff800000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0x00800000u, 0x3f000000u,
        0x5f000000u, 0xcf000000u, 0x4f800000u,
    };
    uint32_t k = gen_rd_below(g, 24);
    if (k < sizeof special / sizeof special[0])
        return special[k];
    if (k < 20) {
        int num = (int)gen_rd_below(g, 201) - 100;
        float f = (float)num / (float)(1 + gen_rd_below(g, 8));
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    return gen_rd_u64(g) & 0xffffffffu;
}

GateId gen_interesting_const(Gen *g, Type ty)
{
    if (ty == TY_F64)
        return gen_cnst(g, ty, interesting_f64(g));
    if (ty == TY_F32)
        return gen_cnst(g, ty, interesting_f32(g));
    return gen_cnst(g, ty, interesting_int(g, ty));
}

Type gen_rand_int_type(Gen *g)
{
    static const Type t[] = {TY_I32, TY_I64, TY_I8, TY_I16};
    return t[gen_rd_below(g, 4)];
}

Type gen_rand_mem_type(Gen *g)
{
    static const Type t[] = {TY_I32, TY_I64, TY_I8, TY_I16, TY_F64, TY_F32};
    return t[gen_rd_below(g, 6)];
}

Type gen_rand_value_type(Gen *g)
{
    static const Type t[] = {TY_I32, TY_I64, TY_I8, TY_I16, TY_F64, TY_F32, TY_I1};
    return t[gen_rd_below(g, 7)];
}

static void vec_push(GenIdVec *v, GateId id)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->v = realloc(v->v, v->cap * sizeof *v->v);
        if (!v->v)
            abort();
    }
    v->v[v->n++] = id;
}

void gen_pool_add(Gen *g, GateId v)
{
    Type t = (Type)g->c->gates[v].type;
    if (t > TY_NONE && t < TY_COUNT)
        vec_push(&g->pool[t], v);
}

/* a scope remembers the pool lengths, the pointer count and the pending count */
enum { SCOPE_SLOTS = TY_COUNT + 2 };

void gen_scope_push(Gen *g)
{
    if (g->nmarks + SCOPE_SLOTS > g->capmarks) {
        g->capmarks = g->capmarks ? g->capmarks * 2 : 64 * SCOPE_SLOTS;
        g->marks = realloc(g->marks, g->capmarks * sizeof *g->marks);
        if (!g->marks)
            abort();
    }
    for (int t = 0; t < TY_COUNT; t++)
        g->marks[g->nmarks++] = g->pool[t].n;
    g->marks[g->nmarks++] = g->nptrs;
    g->marks[g->nmarks++] = g->npending;
}

void gen_scope_pop(Gen *g)
{
    g->nmarks -= SCOPE_SLOTS;
    for (int t = 0; t < TY_COUNT; t++)
        g->pool[t].n = g->marks[g->nmarks + t];
    g->nptrs = g->marks[g->nmarks + TY_COUNT];
    g->npending = g->marks[g->nmarks + TY_COUNT + 1];
}

void gen_pending_add(Gen *g, GateId v)
{
    if (g->npending < sizeof g->pending / sizeof g->pending[0]) {
        g->consumed[g->npending] = 0;
        g->pending[g->npending++] = v;
    }
}

GateId gen_pending_take(Gen *g, Type t)
{
    for (uint32_t i = g->npending; i-- > 0;) {
        GateId v = g->pending[i];
        if (!g->consumed[i] && (t == TY_NONE || g->c->gates[v].type == t)) {
            g->consumed[i] = 1;
            return v;
        }
    }
    return NO_GATE;
}

void gen_scope_keep(Gen *g)
{
    g->nmarks -= SCOPE_SLOTS;
}

/* a value of type ty: usually one already computed (recent ones preferred, so chains
 * grow deep), else a fresh constant or a conversion of another value */
GateId gen_val_of(Gen *g, Type ty)
{
    GenIdVec *p = &g->pool[ty];
    uint32_t r = gen_rd_below(g, 16);
    if (p->n && r < 12) {
        uint32_t back = r < 7 ? gen_rd_below(g, p->n < 6 ? p->n : 6) : gen_rd_below(g, p->n);
        return p->v[p->n - 1 - back];
    }
    Type from = gen_rand_value_type(g);
    bool convert = p->n ? r >= 14 : r >= 6;
    if (!convert || from == ty || !g->pool[from].n)
        return gen_interesting_const(g, ty);
    GenIdVec *q = &g->pool[from];
    GateId v = gen_convert_to(g, q->v[q->n - 1 - gen_rd_below(g, q->n < 8 ? q->n : 8)], ty);
    gen_pool_add(g, v);
    return v;
}

/* ---- conversions ---------------------------------------------------------------- */

static GateId int_to_int(Gen *g, GateId v, Type from, Type to)
{
    if (from == to)
        return v;
    if (ty_bits(to) < ty_bits(from))
        return gen_un(g, OP_TRUNC, to, v);
    return gen_un(g, gen_rd_chance(g, 50) ? OP_SEXT : OP_ZEXT, to, v);
}

static GateId float_to_float(Gen *g, GateId v, Type from, Type to)
{
    if (from == to)
        return v;
    return gen_un(g, to == TY_F64 ? OP_FPEXT : OP_FPTRUNC, to, v);
}

/* any value type to any value type */
GateId gen_convert_to(Gen *g, GateId v, Type to)
{
    Type from = (Type)g->c->gates[v].type;
    if (from == to)
        return v;
    if (ty_is_int(from) && ty_is_int(to))
        return int_to_int(g, v, from, to);
    if (ty_is_float(from) && ty_is_float(to))
        return float_to_float(g, v, from, to);
    if (ty_is_int(from)) { /* int -> float */
        if (from == TY_I1)
            v = gen_un(g, OP_ZEXT, TY_I8, v), from = TY_I8;
        if (ty_bits(from) == ty_bits(to) && gen_rd_chance(g, 30))
            return gen_un(g, OP_BITCAST, to, v);
        return gen_un(g, gen_rd_chance(g, 50) ? OP_SITOFP : OP_UITOFP, to, v);
    }
    /* float -> int */
    if (to == TY_I1)
        return gen_cmp(g, OP_FCMP, FCMP_une, v, gen_cnst(g, from, 0));
    if (ty_bits(from) == ty_bits(to) && gen_rd_chance(g, 30))
        return gen_un(g, OP_BITCAST, to, v);
    return gen_un(g, gen_rd_chance(g, 50) ? OP_FPTOSI : OP_FPTOUI, to, v);
}

/* ---- generate ----------------------------------------------------------------- */

static void gen_free_pools(Gen *g)
{
    for (int t = 0; t < TY_COUNT; t++)
        free(g->pool[t].v);
    free(g->marks);
    free(g->xbytes);
}

/* the gates of the n functions from `first` on (the chain of throwing functions),
 * at most `most` */
static uint32_t chain_gates(const Gen *g, uint32_t first, uint32_t n, uint32_t most)
{
    uint32_t total = 0;
    for (uint32_t k = first; k < first + n && k < g->m->nfuncs; k++)
        total += g->m->funcs[k]->circ->ngates - NUM_ROOTS;
    return total < most ? total : most;
}

enum { GEN_BYTES_PER_GATE = 24 }; /* region bytes per gate of a function's budget */

/* The bytes of each function: after the header, one region per function, sized by its
 * gate budget, the entry function's first (so a short input still makes a real entry
 * function; the callees after it end early).  A change inside one region leaves the
 * other functions alone, and inserting or deleting a byte moves only the functions
 * whose regions come after it. */
static void function_bytes(Gen *g, const uint8_t *bytes, size_t len, uint64_t offset, uint64_t n)
{
    uint64_t start = GEN_HEADER + offset, end = start + n;
    start = start < len ? start : len;
    end = end < len ? end : len;
    g->src = (GenByteSrc){start < end ? bytes + start : NULL, (size_t)(end - start), 0};
}

Module *generate(const uint8_t *bytes, size_t len, const GenOptions *opt)
{
    Gen *g = calloc(1, sizeof *g);
    if (!g)
        abort();
    if (!bytes)
        len = 0;
    g->src = (GenByteSrc){bytes, len < GEN_HEADER ? len : GEN_HEADER, 0};
    g->size = opt && opt->size ? opt->size : 100;
    if (g->size < 8)
        g->size = 8;
    if (opt && opt->has_weights)
        memcpy(g->weight, opt->weight, sizeof g->weight);
    else
        gen_default_weights(g->weight);
    apply_swarm(g, opt && opt->swarm);
    g->no_joins_runtime = opt && opt->no_joins_runtime;
    g->m = module_new("<generated>");
    uint32_t most = g->size / 40 + 1; /* functions of at least ~40 gates */
    uint32_t nf = 1 + gen_rd_below(g, most < 4 ? most : 4);
    if (opt && opt->funcs)
        nf = opt->funcs < GEN_OWN_FUNCS ? opt->funcs : GEN_OWN_FUNCS;
    g->nfuncs = nf;
    gen_extreme_plan(g, bytes, len, opt); /* may put a function of its own first */
    uint32_t first = g->nfuncs - nf, nexc = gen_exc_plan(g, bytes, len, opt);
    g->nfuncs += nexc; /* the chain of throwing functions comes next */
    if (g->wide_fn != UINT32_MAX)
        g->wide_fn += nexc;
    if (first)
        gen_deep_function(g, 0);
    if (nexc)
        gen_exc_chain(g, first);
    /* the chain's gates come out of the size asked for (at most an eighth of it, so
     * that the module's own functions keep their loops): with the features on, a
     * program is about as large as --size says (tests/gen_plain.c) */
    uint32_t size = g->size - chain_gates(g, first, nexc, g->size / 8);
    first += nexc;
    /* the entry function gets a larger share: it is the one every run starts in */
    uint32_t share = size / (nf + 1);
    uint32_t entry_budget = size - share * (nf - 1);
    for (uint32_t i = 0; i < nf; i++) {
        bool entry = i + 1 == nf;
        uint32_t budget = entry ? entry_budget : share;
        uint64_t offset = entry ? 0 : (uint64_t)(entry_budget + share * i) * GEN_BYTES_PER_GATE;
        function_bytes(g, bytes, len, offset, (uint64_t)budget * GEN_BYTES_PER_GATE);
        /* about a dozen gates per function come on top of the body: arguments, the last
         * statement running over the limit, the folded return value */
        gen_function(g, first + i, budget > 16 ? budget - 12 : 4);
    }
    Module *m = g->m;
    gen_free_pools(g);
    free(g);
    return m;
}

/* ---- seeds -------------------------------------------------------------------- */

uint64_t gen_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void gen_seed_bytes(uint64_t seed, uint8_t *buf, size_t n)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = gen_splitmix64(&x);
        for (size_t k = 0; k < 8 && i + k < n; k++)
            buf[i + k] = (uint8_t)(r >> (8 * k));
    }
}

size_t gen_bytes_for_size(uint32_t size)
{
    return (size_t)(size ? size : 100) * 64 + 4096;
}
