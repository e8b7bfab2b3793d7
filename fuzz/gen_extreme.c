/* gen_extreme.c — structural extremes: about 1 program in 250 (picked by a hash of the
 * bytes' header) gets one shape far beyond the usual sizes, so a campaign finds the next
 * fixed limit of the compiler, the oracles or the harness:
 *   switch  the entry ends with a SWITCH_BRANCH of 100..400 cases (and a MERGE of them);
 *   merge   the entry ends with an IF ladder of 100..400 rungs joined by one MERGE;
 *   params  a function of 65..255 parameters, all folded into its return value (a callee
 *           the entry calls, or the entry itself when the module has one function);
 *   calls   a function `deep` that recurses 0..199 levels (the entry asks for 100..199),
 *           each activation keeping a value in its own ALLOCA (8 bytes to 8 KiB, so the
 *           frames may outgrow a harness stack) across the call.
 * The extreme's choices come from bytes made from that hash (splitmix64), not from the
 * functions' regions, so the rest of the program decodes as it would without it and a
 * seed reproduces its extreme.  Values still flow to the return and every effect is on
 * the path's chain, so the programs stay valid, race-free and self-checking. */
#include "fuzz/gen_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    GEN_EXTREME_RATE = 250,    /* one program in this many gets an extreme */
    GEN_EXTREME_BYTES = 24576, /* the extreme's own bytes (an arm reads about 40) */
    GEN_WIDE_MIN = 100,        /* cases of the switch, rungs of the ladder: 100..400 */
    GEN_WIDE_SPAN = 301,
    GEN_ARM_BUDGET = 4,        /* gates of each arm's own statement */
    GEN_DEEP_LEVELS = 200,     /* `deep` recurses (n mod this) levels: the interpreter
                                  allows 256 nested calls */
};

static const char *const extreme_names[GEN_EXTREME_COUNT] = {
    "auto", "none", "switch", "merge", "params", "calls",
};

const char *gen_extreme_name(GenExtreme x)
{
    return (unsigned)x < GEN_EXTREME_COUNT ? extreme_names[x] : "?";
}

bool gen_parse_extreme(const char *name, GenExtreme *x)
{
    for (int k = 0; k < GEN_EXTREME_COUNT; k++)
        if (!strcmp(name, extreme_names[k])) {
            *x = (GenExtreme)k;
            return true;
        }
    return false;
}

static uint64_t header_hash(const uint8_t *bytes, size_t len)
{
    uint64_t x = 0;
    for (size_t i = 0; i < GEN_HEADER; i++)
        x = x << 8 | (bytes && i < len ? bytes[i] : 0u);
    return gen_splitmix64(&x);
}

GenExtreme gen_extreme_of(const uint8_t *bytes, size_t len, const GenOptions *opt)
{
    if (opt && opt->extreme != GEN_EXTREME_AUTO)
        return (unsigned)opt->extreme < GEN_EXTREME_COUNT ? opt->extreme : GEN_EXTREME_NONE;
    uint64_t h = header_hash(bytes, len);
    if (!bytes || len < GEN_HEADER || h % GEN_EXTREME_RATE)
        return GEN_EXTREME_NONE;
    return (GenExtreme)(GEN_EXTREME_SWITCH + h / GEN_EXTREME_RATE % 4);
}

void gen_extreme_plan(Gen *g, const uint8_t *bytes, size_t len, const GenOptions *opt)
{
    g->extreme = gen_extreme_of(bytes, len, opt);
    g->xseed = header_hash(bytes, len) ^ (uint64_t)g->extreme << 56;
    g->wide_fn = g->deep_fn = UINT32_MAX;
    if (g->extreme == GEN_EXTREME_PARAMS)
        g->wide_fn = g->nfuncs > 1 ? 0 : g->nfuncs - 1;
    if (g->extreme == GEN_EXTREME_CALLS) { /* `deep` comes first; the others follow */
        g->deep_fn = 0;
        g->nfuncs++;
    }
}

/* ---- the extreme's own bytes ------------------------------------------------------ */

typedef struct {
    GenByteSrc src;
    GenRecord rec;
} SavedSource;

/* fresh bytes of the extreme become the source of choices; returns what they replace */
static SavedSource use_extreme_bytes(Gen *g)
{
    if (!g->xbytes && !(g->xbytes = malloc(GEN_EXTREME_BYTES)))
        abort();
    SavedSource saved = {g->src, g->rec};
    gen_seed_bytes(gen_splitmix64(&g->xseed), g->xbytes, GEN_EXTREME_BYTES);
    g->src = (GenByteSrc){g->xbytes, GEN_EXTREME_BYTES, 0};
    g->rec.active = false;
    return saved;
}

static void restore_source(Gen *g, SavedSource saved)
{
    g->src = saved.src;
    g->rec = saved.rec;
}

/* ---- params ------------------------------------------------------------------------- */

void gen_extreme_signature(Gen *g, GenSig *s)
{
    SavedSource saved = use_extreme_bytes(g);
    memset(s, 0, sizeof *s);
    s->depth_param = -1;
    s->nparams = 65 + gen_rd_below(g, GEN_WIDE_PARAMS - 64);
    for (uint32_t p = 0; p < s->nparams; p++)
        s->params[p] = gen_rand_value_type(g);
    s->ret = gen_rand_value_type(g);
    restore_source(g, saved);
}

GateId gen_args_checksum(Gen *g, Type t)
{
    SavedSource saved = use_extreme_bytes(g);
    GateId acc = NO_GATE, n = g->c->ngates;
    for (GateId i = NUM_ROOTS; i < n; i++) {
        if (g->c->gates[i].op != OP_ARG)
            continue;
        acc = acc == NO_GATE ? gen_convert_to(g, i, t) : gen_fold_in(g, acc, i, t);
    }
    restore_source(g, saved);
    return acc;
}

/* ---- switch and merge ----------------------------------------------------------------- */

static GenSelPlan wide_plan(Gen *g)
{
    GenSelPlan plan;
    plan.nsel = 1 + gen_rd_below(g, 3);
    for (uint32_t s = 0; s < plan.nsel; s++)
        plan.type[s] = gen_rand_value_type(g);
    return plan;
}

/* a value of the program in [0, 2^k) with 2^k <= 2n: mostly one of n arms' keys */
static GateId arm_key(Gen *g, Type t, uint32_t n)
{
    GateId v = gen_val_of(g, t);
    return gen_masked(g, t, v, gen_mask_below(2 * (uint64_t)n - 1));
}

static Type wide_int_type(Gen *g) /* i16..i64: room for 400 distinct keys */
{
    static const Type types[] = {TY_I16, TY_I32, TY_I64};
    return types[gen_rd_below(g, 3)];
}

static void shuffle(Gen *g, GateId *a, uint32_t n)
{
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = gen_rd_below(g, i);
        GateId t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* the cases base + stride * i (i < n) of sw and its default, in an order of their own */
static GateId *switch_arms(Gen *g, GateId sw, Type t, int64_t base, int64_t stride, uint32_t n)
{
    GateId *arms = malloc((n + 1) * sizeof *arms);
    if (!arms)
        abort();
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c = ((uint64_t)base + (uint64_t)stride * i) & ty_mask(t);
        arms[i] = gen_state1(g, OP_SWITCH_CASE, (uint64_t)ty_sext(t, c), sw);
    }
    if (gen_rd_chance(g, 50))
        shuffle(g, arms, n);
    arms[n] = gen_state1(g, OP_DEFAULT_CASE, 0, sw);
    uint32_t pos = gen_rd_below(g, n + 1);
    GateId d = arms[n];
    arms[n] = arms[pos];
    arms[pos] = d;
    return arms;
}

/* SWITCH (base + stride * key) with cases base + stride * i, i < n (distinct: at most
 * 400 * 100 apart in at least 16 bits), in order or shuffled, the default anywhere */
static GateId wide_switch(Gen *g)
{
    static const int64_t strides[] = {1, 1, 2, 3, -1, 7, 100, -5};
    Type t = wide_int_type(g);
    int64_t base = (int64_t)gen_rd_below(g, 2001) - 1000;
    int64_t stride = strides[gen_rd_below(g, 8)];
    uint32_t n = GEN_WIDE_MIN + gen_rd_below(g, GEN_WIDE_SPAN);
    GenSelPlan plan = wide_plan(g);
    GateId key = arm_key(g, t, n);
    GateId k = gen_cnst(g, t, (uint64_t)stride);
    GateId scaled = gen_bin(g, OP_MUL, t, key, k);
    GateId b = gen_cnst(g, t, (uint64_t)base);
    GateId v = gen_bin(g, OP_ADD, t, scaled, b);
    GateId sw = gen_add_gate(g, OP_SWITCH_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &v, 1);
    GateId *arms = switch_arms(g, sw, t, base, stride, n);
    GateId first = gen_join_arms(g, arms, n + 1, GEN_ARM_BUDGET, &plan);
    free(arms);
    return first;
}

/* IF (key == i) or IF (key <u i + 1), for i = 0..n-1, each on the false arm of the one
 * before; the n true arms and the last false arm meet at one MERGE */
static GateId ladder(Gen *g)
{
    Type t = wide_int_type(g);
    uint32_t n = GEN_WIDE_MIN + gen_rd_below(g, GEN_WIDE_SPAN);
    GenSelPlan plan = wide_plan(g);
    GateId key = arm_key(g, t, n);
    bool below = gen_rd_chance(g, 50);
    GateId *arms = malloc((n + 1) * sizeof *arms);
    if (!arms)
        abort();
    for (uint32_t i = 0; i < n; i++) {
        GateId k = gen_cnst(g, t, below ? i + 1 : i);
        GateId c = gen_cmp(g, OP_ICMP, below ? ICMP_ult : ICMP_eq, key, k);
        GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &c, 1);
        arms[i] = gen_state1(g, OP_IF_TRUE, 0, br);
        g->state = gen_state1(g, OP_IF_FALSE, 0, br);
    }
    arms[n] = g->state;
    GateId first = gen_join_arms(g, arms, n + 1, GEN_ARM_BUDGET, &plan);
    free(arms);
    return first;
}

/* ---- calls ----------------------------------------------------------------------------- */

static GateId named_arg(Gen *g, Type t, uint32_t index, const char *name)
{
    GateId a = gen_add_gate(g, OP_ARG, t, 0, index, NULL, 0, NULL, 0, NULL, 0);
    circ_set_name(g->c, a, name, strlen(name));
    return a;
}

/* the recursive arm of `deep`: keep x in this activation's slot, recurse on m - 1, and
 * combine the callee's result with the slot's value read back after the call */
static void deep_recurse(Gen *g, GateId m, GateId x)
{
    /* 199 levels of the largest stay within the stack of a run (STACK_LIMIT, 1 MiB) */
    static const uint32_t sizes[] = {8, 8, 64, 512, 2048, 4096};
    uint32_t size = sizes[gen_rd_below(g, 6)];
    GateId base = gen_add_gate(g, OP_ALLOCA, TY_I64, 0, size, NULL, 0, NULL, 0, NULL, 0);
    GateId off = gen_cnst(g, TY_I64, gen_rd_below(g, size - 7));
    GateId slot = gen_bin(g, OP_ADD, TY_I64, base, off);
    GateId in[2] = {x, slot};
    g->dep = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &g->dep, 1, in, 2);
    GateId args[2];
    GateId one = gen_cnst(g, TY_I32, 1);
    args[0] = gen_bin(g, OP_SUB, TY_I32, m, one);
    GateId k = gen_cnst(g, TY_I64, gen_rd_u64(g) | 1);
    GateId mixed = gen_bin(g, OP_MUL, TY_I64, x, k);
    GateId level = gen_un(g, OP_ZEXT, TY_I64, m);
    args[1] = gen_bin(g, OP_ADD, TY_I64, mixed, level);
    GateId r = gen_emit_call(g, g->fidx, args);
    GateId kept = gen_add_gate(g, OP_LOAD, TY_I64, 0, 0, NULL, 0, &r, 1, &slot, 1);
    g->dep = kept;
    GateId v = gen_bin(g, gen_rd_chance(g, 50) ? OP_XOR : OP_SUB, TY_I64, r, kept);
    gen_add_gate(g, OP_RETURN, TY_NONE, 0, 0, &g->state, 1, &g->dep, 1, &v, 1);
}

void gen_deep_function(Gen *g, uint32_t idx)
{
    GenSig *s = &g->sigs[idx];
    memset(s, 0, sizeof *s);
    s->depth_param = -1;
    s->nparams = 2;
    s->params[0] = TY_I32;
    s->params[1] = TY_I64;
    s->ret = TY_I64;
    s->cost = GEN_DEEP_LEVELS * 24 + 16;
    gen_begin_function(g, idx, "deep");
    SavedSource saved = use_extreme_bytes(g);
    GateId n = named_arg(g, TY_I32, 0, "n");
    GateId x = named_arg(g, TY_I64, 1, "x");
    GateId levels = gen_cnst(g, TY_I32, GEN_DEEP_LEVELS);
    GateId m = gen_bin(g, OP_UREM, TY_I32, n, levels);
    GateId zero = gen_cnst(g, TY_I32, 0);
    GateId more = gen_cmp(g, OP_ICMP, ICMP_ne, m, zero);
    GateId br = gen_add_gate(g, OP_IF_BRANCH, TY_NONE, 0, 0, &g->state, 1, NULL, 0, &more, 1);
    GateId on = gen_state1(g, OP_IF_TRUE, 0, br), done = gen_state1(g, OP_IF_FALSE, 0, br);
    GateId dep0 = g->dep;
    g->state = on;
    g->dep = gen_relay(g, on, dep0);
    deep_recurse(g, m, x);
    GateId d = gen_relay(g, done, dep0);
    gen_add_gate(g, OP_RETURN, TY_NONE, 0, 0, &done, 1, &d, 1, &x, 1);
    g->state = NO_GATE;
    restore_source(g, saved);
}

/* CALL deep(100..199 levels, an i64 of the program) */
static GateId deep_call(Gen *g)
{
    GateId args[2];
    if (gen_rd_chance(g, 50)) {
        args[0] = gen_cnst(g, TY_I32, 100 + gen_rd_below(g, 100));
    } else {
        GateId v = gen_val_of(g, TY_I32);
        GateId low = gen_masked(g, TY_I32, v, 63);
        GateId k = gen_cnst(g, TY_I32, 136);
        args[0] = gen_bin(g, OP_ADD, TY_I32, low, k);
    }
    args[1] = gen_i64_value(g);
    gen_charge(g, g->sigs[g->deep_fn].cost);
    return gen_emit_call(g, g->deep_fn, args);
}

/* ---- the entry's extreme statement ------------------------------------------------------ */

void gen_extreme_tail(Gen *g)
{
    if (g->extreme <= GEN_EXTREME_NONE || g->wide_fn == g->fidx)
        return;
    SavedSource saved = use_extreme_bytes(g);
    switch (g->extreme) {
    case GEN_EXTREME_SWITCH: g->ret_extra = wide_switch(g); break;
    case GEN_EXTREME_MERGE: g->ret_extra = ladder(g); break;
    case GEN_EXTREME_PARAMS: g->ret_extra = gen_call(g, g->wide_fn); break;
    case GEN_EXTREME_CALLS: g->ret_extra = deep_call(g); break;
    default: break;
    }
    restore_source(g, saved);
}
