/* tv_unit.c — the translation validator on hand-written circuits: correct folds are
 * proved; deliberately wrong passes registered through the pass manager's plugin hook
 * are refuted with a run line that the interpreter confirms (the run line, parsed back
 * with the source module, holds there and fails after the pass):
 *   swap-sub      SUB x, y -> SUB y, x (tests/swap_sub_pass.h)
 *   neg-div       SDIV x, -1 -> SUB 0, x (wrong only for INT_MIN: no overflow trap)
 *   shl-width     SHL x, c with c >= the width -> 0 (wrong: amounts are taken mod w)
 *   fadd-negzero  FADD x, -0.0 -> x (wrong only for a NaN x with a payload: FADD
 *                 gives the canonical NaN, which BITCAST shows)
 * calls inlined (up to depth 2) and ALLOCA objects are proved; FMOD of constants
 * folded by eval_pure (C fmod) is proved, so the FMOD encoding agrees with C on them
 * (so are SQRT, the roundings, FABS, FMIN, FMAX and FCOPYSIGN of edge constants);
 * recursion deeper than the inlining depth is proved up to the bound.  On generated
 * programs (size 50, seeds 1..45) swap-sub is refuted where it shows (5 programs),
 * each time from that one program in under 10 s, and no counterexample is
 * unconfirmed. */
#include "fuzz/gen.h"
#include "fuzz/tv.h"
#include "oracle/interp.h"
#include "swap_sub_pass.h"
#include "test_check.h"

#include <stdlib.h>
#include <string.h>

static GateId first_op(const Circuit *c, int op)
{
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (!c->gates[g].dead && c->gates[g].op == op)
            return g;
    return NO_GATE;
}

static bool is_const(const Circuit *c, GateId g, uint64_t bits)
{
    const Gate *G = circ_gate(c, g);
    return G->op == OP_CONSTANT && G->lit == (bits & ty_mask((Type)G->type));
}

/* WRONG on purpose: SDIV x, -1 -> SUB 0, x */
static bool neg_div(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    GateId g = first_op(c, OP_SDIV);
    if (g == NO_GATE || !is_const(c, gate_data(circ_gate(c, g), 1), ~0ull))
        return false;
    Type ty = (Type)circ_gate(c, g)->type;
    GateId x = gate_data(circ_gate(c, g), 0);
    GateId neg = circ_binop(c, OP_SUB, ty, circ_const(c, ty, 0), x);
    circ_replace_uses(c, g, neg);
    circ_kill(c, g);
    return true;
}

/* WRONG on purpose: SHL x, c with c >= width -> 0 */
static bool shl_width(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    GateId g = first_op(c, OP_SHL);
    if (g == NO_GATE)
        return false;
    Type ty = (Type)circ_gate(c, g)->type;
    const Gate *amount = circ_gate(c, gate_data(circ_gate(c, g), 1));
    if (amount->op != OP_CONSTANT || amount->lit < (uint64_t)ty_bits(ty))
        return false;
    circ_replace_uses(c, g, circ_const(c, ty, 0));
    circ_kill(c, g);
    return true;
}

/* WRONG on purpose: FADD x, -0.0 -> x */
static bool fadd_negzero(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    GateId g = first_op(c, OP_FADD);
    if (g == NO_GATE || circ_gate(c, g)->type != TY_F64 || !is_const(c, gate_data(circ_gate(c, g), 1), 1ull << 63))
        return false;
    circ_replace_uses(c, g, gate_data(circ_gate(c, g), 0));
    circ_kill(c, g);
    return true;
}

static const PassInfo test_passes[] = {
    {"fadd-negzero", fadd_negzero, "WRONG on purpose: FADD x, -0.0 -> x"},
    {"neg-div", neg_div, "WRONG on purpose: SDIV x, -1 -> SUB 0, x"},
    {"shl-width", shl_width, "WRONG on purpose: SHL x, c (c >= width) -> 0"},
};

#include "tv_expect.h"

/* any verdict but an unconfirmed counterexample, within 10 s */
static void expect_bounded(const char *src, const char *passes, const char *what)
{
    TvVerdict v;
    if (last_verdict(src, passes, what, &v))
        CHECK(v.kind != TV_UNCONFIRMED, "%s: %s", what, tv_verdict_name(v.kind));
}

static const char diff_src[] =
    "func @diff(i32, i32) -> i32 {\n  %a = ARG i32 0\n  %b = ARG i32 1\n"
    "  %d = SUB i32 (%a, %b)\n  RETURN [entry] {entry} (%d)\n}\n";

static const char fold_src[] =
    "func @f(i32) -> i32 {\n  %a = ARG i32 0\n  %z = CONSTANT i32 0\n  %one = CONSTANT i32 1\n"
    "  %s = ADD i32 (%a, %z)\n  %m = MUL i32 (%s, %one)\n  %x = XOR i32 (%m, %m)\n"
    "  %r = OR i32 (%x, %m)\n  RETURN [entry] {entry} (%r)\n}\n";

static const char div_src[] =
    "func @q(i32) -> i32 {\n  %a = ARG i32 0\n  %m = CONSTANT i32 -1\n"
    "  %d = SDIV i32 (%a, %m)\n  RETURN [entry] {entry} (%d)\n}\n";

static const char shl_src[] =
    "func @s(i64) -> i64 {\n  %a = ARG i64 0\n  %w = CONSTANT i64 64\n"
    "  %d = SHL i64 (%a, %w)\n  RETURN [entry] {entry} (%d)\n}\n";

/* a loop storing into the buffer, and a branch around a division */
static const char loop_src[] =
    "func @fill(i64, i32) -> i32 {\n  %p = ARG i64 0\n  %n = ARG i32 1\n"
    "  %zero = CONSTANT i32 0\n  %one = CONSTANT i32 1\n  %k = CONSTANT i32 3\n"
    "  %L = LOOP_BEGIN [entry, %back]\n  %i = VALUE_SELECTOR i32 [%L] (%zero, %i1)\n"
    "  %d = DEPEND_SELECTOR [%L] {entry, %st}\n"
    "  %c = ICMP slt (%i, %n)\n  %br = IF_BRANCH [%L] (%c)\n  %t = IF_TRUE [%br]\n"
    "  %kk = MUL i32 (%k, %one)\n  %st = STORE {%d} (%kk, %p)\n"
    "  %i1 = ADD i32 (%i, %one)\n  %back = LOOP_BACK [%t]\n  %f = IF_FALSE [%br]\n"
    "  RETURN [%f] {%d} (%i)\n}\n";

static const char call_src[] =
    "func @g(i32) -> i32 {\n  %a = ARG i32 0\n  RETURN [entry] {entry} (%a)\n}\n"
    "func @h(i32) -> i32 {\n  %a = ARG i32 0\n  %z = CONSTANT i32 0\n  %s = ADD i32 (%a, %z)\n"
    "  %g = SYMBOL @g\n  %c = CALL i32 {entry} (%g, %s)\n  RETURN [entry] {%c} (%c)\n}\n";

static const char fmod_src[] =
    "func @m(f64, f64) -> f64 {\n  %a = ARG f64 0\n  %b = ARG f64 1\n  %z = CONSTANT i32 0\n"
    "  %r = FMOD f64 (%a, %b)\n  %k = ADD i32 (%z, %z)\n  %c = ICMP eq (%k, %z)\n"
    "  %br = IF_BRANCH [entry] (%c)\n  %t = IF_TRUE [%br]\n  %f = IF_FALSE [%br]\n"
    "  RETURN [%t] {entry} (%r)\n  RETURN [%f] {entry} (%a)\n}\n";

/* @d0 -> @d1 -> @d2 -> @d3: three calls deep, all inlined */
static const char deep_src[] =
    "func @d3(i32) -> i32 {\n  %a = ARG i32 0\n  RETURN [entry] {entry} (%a)\n}\n"
    "func @d2(i32) -> i32 {\n  %a = ARG i32 0\n  %g = SYMBOL @d3\n  %c = CALL i32 {entry} (%g, %a)\n"
    "  RETURN [entry] {%c} (%c)\n}\n"
    "func @d1(i32) -> i32 {\n  %a = ARG i32 0\n  %g = SYMBOL @d2\n  %c = CALL i32 {entry} (%g, %a)\n"
    "  RETURN [entry] {%c} (%c)\n}\n"
    "func @d0(i32) -> i32 {\n  %a = ARG i32 0\n  %z = CONSTANT i32 0\n  %s = ADD i32 (%a, %z)\n"
    "  %g = SYMBOL @d1\n  %c = CALL i32 {entry} (%g, %s)\n  RETURN [entry] {%c} (%c)\n}\n";

/* recursion as deep as the argument: beyond the inlining depth, "bound" */
static const char rec_src[] =
    "func @r(i32) -> i32 {\n  %n = ARG i32 0\n  %z = CONSTANT i32 0\n  %one = CONSTANT i32 1\n"
    "  %c = ICMP eq (%n, %z)\n  %br = IF_BRANCH [entry] (%c)\n  %t = IF_TRUE [%br]\n  %f = IF_FALSE [%br]\n"
    "  RETURN [%t] {entry} (%z)\n  %m = SUB i32 (%n, %one)\n  %k = ADD i32 (%m, %z)\n  %g = SYMBOL @r\n"
    "  %d = DEPEND_RELAY [%f] {entry}\n  %rc = CALL i32 {%d} (%g, %k)\n  %s = ADD i32 (%rc, %one)\n"
    "  RETURN [%f] {%rc} (%s)\n}\n";

/* an ALLOCA written and read back through an offset address */
static const char alloca_src[] =
    "func @box(i32) -> i32 {\n  %a = ARG i32 0\n  %p = ALLOCA 16\n  %four = CONSTANT i64 4\n"
    "  %z = CONSTANT i32 0\n  %q = ADD i64 (%p, %four)\n  %v = ADD i32 (%a, %z)\n"
    "  %s = STORE {entry} (%v, %q)\n  %l = LOAD i32 {%s} (%q)\n  %l0 = LOAD i32 {%s} (%p)\n"
    "  %r = ADD i32 (%l, %l0)\n  RETURN [entry] {%l0} (%r)\n}\n";

static const char nan_src[] =
    "func @n(f64) -> i64 {\n  %a = ARG f64 0\n  %z = CONSTANT f64 -0.0\n"
    "  %s = FADD f64 (%a, %z)\n  %b = BITCAST i64 (%s)\n  RETURN [entry] {entry} (%b)\n}\n";

/* a 64-bit EXP with a symbolic exponent: the rewriter once expanded its nested
 * products beyond memory; now proved quickly */
static const char exp_src[] =
    "func @e(i64) -> i64 {\n  %a = ARG i64 0\n  %z = CONSTANT i64 0\n  %b = ADD i64 (%a, %z)\n"
    "  %t = EXP i64 (%b, %b)\n  RETURN [entry] {entry} (%t)\n}\n";

/* FMOD of constants (f64 and f32), folded through eval_pure: proved only if the
 * encoding computes C's fmod on them, bit for bit (BITCAST shows the bits) */
static void check_fmod_folds(void)
{
    static const char *const pairs[][3] = {
        {"f64", "7.5", "2.0"}, {"f64", "-7.5", "2.0"}, {"f64", "7.5", "-2.0"}, {"f64", "-0.0", "3.0"},
        {"f64", "5.0", "inf"}, {"f64", "1e300", "3e-300"}, {"f64", "6.0", "3.0"}, {"f64", "-6.0", "3.0"},
        {"f32", "10.25", "0.75"}, {"f32", "-1e30", "7.0"}, {"f64", "5.0", "0.0"}, {"f64", "inf", "2.0"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *ty = pairs[i][0], *ity = ty[1] == '6' ? "i64" : "i32";
        char src[600], what[80];
        snprintf(src, sizeof src,
                 "func @m() -> %s {\n  %%x = CONSTANT %s %s\n  %%y = CONSTANT %s %s\n  %%r = FMOD %s (%%x, %%y)\n"
                 "  %%b = BITCAST %s (%%r)\n  RETURN [entry] {entry} (%%b)\n}\n",
                 ity, ty, pairs[i][1], ty, pairs[i][2], ty, ity);
        snprintf(what, sizeof what, "fold of FMOD %s (%s, %s)", ty, pairs[i][1], pairs[i][2]);
        expect(src, "fold", TV_PROVED, what);
    }
}

/* SQRT, the roundings, FABS, FMIN, FMAX and FCOPYSIGN of edge constants, folded
 * through eval_pure: proved only if the encoding gives eval's bits (halfway cases,
 * signed zeros, NaN payloads, the 2^52 edge) */
static void check_float_op_folds(void)
{
    static const char *const unary[] = {"SQRT", "FLOOR", "CEIL", "FTRUNC", "NEAREST", "FABS"};
    static const char *const binary[] = {"FMIN", "FMAX", "FCOPYSIGN"};
    static const char *const vals[][2] = {
        {"f64", "-2.5"}, {"f64", "0.5"}, {"f64", "-0.0"}, {"f64", "bits(0xfff4000000000001)"},
        {"f64", "4503599627370495.5"}, {"f32", "-1.5"}, {"f32", "-0x1.fffffep-2"}, {"f32", "-inf"},
    };
    static const char *const pairs[][3] = {
        {"f64", "-0.0", "0.0"}, {"f64", "0.0", "-0.0"}, {"f64", "nan", "1.0"},
        {"f32", "1.0", "-2.0"}, {"f32", "bits(0x7fa00001)", "-0.0"},
    };
    char src[600], what[120];
    for (size_t k = 0; k < sizeof unary / sizeof unary[0] + sizeof binary / sizeof binary[0]; k++) {
        bool un = k < sizeof unary / sizeof unary[0];
        size_t n = un ? sizeof vals / sizeof vals[0] : sizeof pairs / sizeof pairs[0];
        for (size_t i = 0; i < n; i++) {
            const char *ty = un ? vals[i][0] : pairs[i][0], *ity = ty[1] == '6' ? "i64" : "i32";
            const char *op = un ? unary[k] : binary[k - sizeof unary / sizeof unary[0]];
            const char *y = un ? vals[i][1] : pairs[i][2];
            snprintf(src, sizeof src,
                     "func @m() -> %s {\n  %%x = CONSTANT %s %s\n  %%y = CONSTANT %s %s\n  %%r = %s %s (%%x%s)\n"
                     "  %%b = BITCAST %s (%%r)\n  RETURN [entry] {entry} (%%b)\n}\n",
                     ity, ty, un ? vals[i][1] : pairs[i][1], ty, y, op, ty, un ? "" : ", %y", ity);
            snprintf(what, sizeof what, "fold of %s %s (%s%s%s)", op, ty, un ? vals[i][1] : pairs[i][1],
                     un ? "" : ", ", un ? "" : y);
            expect(src, "fold", TV_PROVED, what);
        }
    }
}

/* float conversions and sums over an EXP and a pow (generated, seed 5): the default
 * solver's preprocessing once ran for minutes here, past its timeout */
static const char float_heavy_src[] =
    "func @main(i64, i8, i64) -> f64 {\n  %a0 = ARG i64 0\n  %a1 = ARG i8 1\n  %ptr2 = ARG i64 2\n"
    "  %t13 = SEXT i16 (%a1)\n  %t19 = CONSTANT f32 -0.0\n  %t20 = FNEG f32 (%t19)\n"
    "  %t21 = ICMP sle (%t13, %t13)\n  %t22 = CONSTANT f32 nan\n  %t23 = FEXP f32 (%t20, %t22)\n"
    "  %t24 = EXP i16 (%t13, %t13)\n  %t36 = UITOFP f64 (%t24)\n  %t37 = ZEXT i8 (%t21)\n"
    "  %t38 = UITOFP f64 (%t37)\n  %t39 = FMUL f64 (%t36, %t38)\n  %t40 = BITCAST f64 (%a0)\n"
    "  %t41 = FADD f64 (%t39, %t40)\n  %t42 = SITOFP f64 (%t24)\n  %t43 = FADD f64 (%t41, %t42)\n"
    "  %t44 = FPEXT f64 (%t23)\n  %t45 = FADD f64 (%t43, %t44)\n  RETURN [entry] {entry} (%t45)\n}\n";

typedef struct {
    uint32_t refuted, unconfirmed, slow;
} SwapSeen;

static void count_swap(const TvApplication *a, const TvVerdict *v, void *ctx)
{
    SwapSeen *s = ctx;
    if (!a->changed)
        return;
    s->refuted += v->kind == TV_REFUTED;
    s->unconfirmed += v->kind == TV_UNCONFIRMED;
    s->slow += v->kind == TV_REFUTED && v->seconds >= 10;
    CHECK(v->kind != TV_UNCONFIRMED, "generated: unconfirmed counterexample %s", v->detail);
    printf("  @%s swap-sub: %s %s [%.3f s]\n", a->func, tv_verdict_name(v->kind), v->detail, v->seconds);
}

static void check_generated_swap_sub(void)
{
    SwapSeen seen = {0, 0, 0};
    GenOptions opt = {.size = 50, .no_exceptions = true}; /* tv_exc: with exceptions */
    TvSummary *sum = malloc(sizeof *sum);
    size_t len = gen_bytes_for_size(opt.size);
    uint8_t *bytes = malloc(len);
    char err[200];
    /* the point is what is refuted, not how fast: a loaded machine or a sanitized
       build must not turn a refutation into a timeout */
    TvOptions patient = {.timeout_ms = 8000};
    for (uint64_t seed = 1; seed <= 45; seed++) {
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, &opt);
        tv_pipeline(m, make_pm, (void *)"swap-sub", &patient, count_swap, &seen, sum, err, sizeof err);
        module_free(m);
    }
    printf("generated, swap-sub: %u refuted, %u unconfirmed, %u slow\n", seen.refuted, seen.unconfirmed, seen.slow);
    /* swapped SUBs often do not show (e.g. only the low bit of x - 2x is used): some of
     * these programs have one that does; at least 3 are refuted in well under a second,
     * others may need 2-12 s of solving, more than the default 2 s query timeout on a
     * loaded machine or a sanitized build (they are then `unknown`, never wrong) */
    CHECK(seen.refuted >= 3, "swap-sub refuted on only %u generated programs", seen.refuted);
    CHECK(seen.slow == 0, "%u refutations took 10 s or more", seen.slow);
    free(bytes);
    free(sum);
}

int main(void)
{
    expect(fold_src, "fold", TV_PROVED, "fold identities");
    expect(diff_src, "swap-sub", TV_REFUTED, "swap-sub");
    expect(div_src, "neg-div", TV_REFUTED, "neg-div (INT_MIN only)");
    expect(shl_src, "shl-width", TV_REFUTED, "shl-width (amount = width)");
    expect(shl_src, "fold", TV_PROVED, "fold of SHL by the width");
    expect(nan_src, "fadd-negzero", TV_REFUTED, "fadd-negzero (NaN payload only)");
    expect(loop_src, "fold", TV_PROVED_UPTO, "fold in a storing loop");
    expect(exp_src, "fold", TV_PROVED, "fold under a 64-bit EXP");
    expect(call_src, "fold", TV_PROVED, "fold around an inlined call");
    expect(alloca_src, "fold", TV_PROVED, "fold around an ALLOCA");
    expect(fmod_src, "fold", TV_PROVED, "fold next to an FMOD");
    check_fmod_folds();
    check_float_op_folds();
    expect_bounded(float_heavy_src, "fold", "float-heavy function within its timeout");
    check_generated_swap_sub();
    expect(deep_src, "fold", TV_PROVED, "fold before three nested calls");
    expect(rec_src, "fold", TV_PROVED_UPTO, "fold in a recursive function");
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
