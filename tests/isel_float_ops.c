/* isel_float_ops.c — what selection makes of SQRT, the roundings, FABS, FCOPYSIGN and
 * FMIN/FMAX on each target, checked on the LIR after lowering (before allocation):
 *   - ARM64 has one instruction for each (FloorDouble .. NearestDouble, SqrtDouble,
 *     AbsDouble, CopySignDouble, MinimumDouble/MaximumDouble);
 *   - x86-64 (SSE2) has SqrtDouble; FTRUNC/FLOOR/CEIL convert through an integer
 *     behind a branch on |x| < 2^52 (FLOOR/CEIL also compare), NEAREST adds and
 *     subtracts 2^52 without converting; FABS is an And, FCOPYSIGN two Ands and an
 *     Or; FMIN is two MinDouble and an Or, FMAX two MaxDouble and an And, each with a
 *     conditional move of the canonical NaN;
 *   - SQRT read by RETURN is made the canonical NaN, SQRT read by FPTOSI is not
 *     (FPTOSI is NaN-blind); FABS and FCOPYSIGN never are (bit operations);
 *   - every lowered function passes lir_verify. */
#include "compiler/a64/a64.h"
#include "compiler/compile.h"
#include "compiler/lir/lower.h"
#include "compiler/x64/x64.h"

#include "test_check.h"

#include <string.h>

typedef struct {
    unsigned count[LIR_OP_COUNT];
    unsigned canonical_nan_loads; /* immediates of the f64 canonical NaN */
} Census;

static void census(const Code *c, Census *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++) {
            const Inst *in = &c->blocks[b]->insts[i];
            out->count[in->op]++;
            for (unsigned a = 0; a < in->nargs; a++)
                if ((in->args[a].kind == ARG_IMM || in->args[a].kind == ARG_BIGIMM) &&
                    (uint64_t)in->args[a].value == 0x7ff8000000000000ull)
                    out->canonical_nan_loads++;
        }
}

/* @f(f64, f64) returning OP(a) or OP(a, b), or (blind) FPTOSI of it, a NaN-blind user */
static Census lower_op(const Target *t, const char *op, bool binary, bool blind)
{
    char src[512];
    snprintf(src, sizeof src,
             "func @f(f64, f64) -> %s {\n  %%a = ARG f64 0\n  %%b = ARG f64 1\n  %%r = %s f64 (%%a%s)\n"
             "  %%s = FPTOSI i64 (%%r)\n  RETURN [entry] {entry} (%s)\n}\n",
             blind ? "i64" : "f64", op, binary ? ", %b" : "", blind ? "%s" : "%r");
    Census out;
    memset(&out, 0, sizeof out);
    Diag d;
    diag_init(&d, "<test>", stderr);
    Module *m = parse_module("<test>", src, strlen(src), &d);
    Schedule *s = m && !verify_module(m, &d) ? schedule_func(m->funcs[0], NULL, &d) : NULL;
    Arena *arena = arena_new();
    Code *c = s ? lower_func(s, t, t->isel, NULL, arena, &d) : NULL;
    CHECK(c && lir_verify(c, stderr) == 0, "%s lowers and verifies", op);
    if (c)
        census(c, &out);
    arena_free(arena);
    schedule_free(s);
    module_free(m);
    return out;
}

static void arm64_direct(void)
{
    static const struct { const char *op; bool binary; LirOp lir; } k[] = {
        {"SQRT", false, LIR_SqrtDouble},       {"FLOOR", false, LIR_FloorDouble},
        {"CEIL", false, LIR_CeilDouble},       {"FTRUNC", false, LIR_TruncDouble},
        {"NEAREST", false, LIR_NearestDouble}, {"FABS", false, LIR_AbsDouble},
        {"FCOPYSIGN", true, LIR_CopySignDouble}, {"FMIN", true, LIR_MinimumDouble},
        {"FMAX", true, LIR_MaximumDouble},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        Census c = lower_op(a64_target(), k[i].op, k[i].binary, false);
        CHECK(c.count[k[i].lir] == 1 && c.count[LIR_TruncateDoubleToInt64] == 0 && c.count[LIR_BranchDouble] == 0,
               "ARM64 %s: one instruction", k[i].op);
    }
}

static void x64_sequences(void)
{
    const Target *t = x64_target();
    Census c = lower_op(t, "SQRT", false, false);
    CHECK(c.count[LIR_SqrtDouble] == 1 && c.canonical_nan_loads == 1, "x86-64 SQRT: sqrtsd, canonicalized");
    c = lower_op(t, "SQRT", false, true);
    CHECK(c.count[LIR_SqrtDouble] == 1 && c.canonical_nan_loads == 0, "x86-64 SQRT read by FPTOSI: not canonicalized");
    c = lower_op(t, "FTRUNC", false, false);
    CHECK(c.count[LIR_TruncDouble] == 0 && c.count[LIR_BranchDouble] == 1 && c.count[LIR_TruncateDoubleToInt64] == 1 &&
               c.count[LIR_ConvertInt64ToDouble] == 1 && c.count[LIR_CompareDouble] == 0,
           "x86-64 FTRUNC: a branch on the magnitude, one conversion each way");
    c = lower_op(t, "FLOOR", false, false);
    CHECK(c.count[LIR_TruncateDoubleToInt64] == 1 && c.count[LIR_ConvertInt64ToDouble] == 2 &&
               c.count[LIR_CompareDouble] == 1 && c.count[LIR_Sub64] == 1,
           "x86-64 FLOOR: truncate, compare, subtract the carry");
    c = lower_op(t, "NEAREST", false, false);
    CHECK(c.count[LIR_TruncateDoubleToInt64] == 0 && c.count[LIR_AddDouble] == 1 && c.count[LIR_SubDouble] == 1,
           "x86-64 NEAREST: add and subtract 2^52");
    c = lower_op(t, "FABS", false, false);
    CHECK(c.count[LIR_AndDouble] == 1 && c.canonical_nan_loads == 0, "x86-64 FABS: one And, payload kept");
    c = lower_op(t, "FCOPYSIGN", true, false);
    CHECK(c.count[LIR_AndDouble] == 2 && c.count[LIR_OrDouble] == 1 && c.canonical_nan_loads == 0,
           "x86-64 FCOPYSIGN: two Ands and an Or");
    c = lower_op(t, "FMIN", true, false);
    CHECK(c.count[LIR_MinDouble] == 2 && c.count[LIR_OrDouble] == 1 && c.count[LIR_MoveConditionallyDouble] == 1,
           "x86-64 FMIN: both orders or'd, the NaN by a conditional move");
    c = lower_op(t, "FMAX", true, false);
    CHECK(c.count[LIR_MaxDouble] == 2 && c.count[LIR_AndDouble] == 1 && c.count[LIR_MoveConditionallyDouble] == 1,
           "x86-64 FMAX: both orders and'd, the NaN by a conditional move");
}

int main(void)
{
    arm64_direct();
    x64_sequences();
    printf("isel_float_ops: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
