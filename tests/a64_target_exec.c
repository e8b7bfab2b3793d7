/* a64_target_exec.c — what the ARM64 forms mean, checked by running hand-built LIR
 * under Unicorn (oracle/emu.h, AAPCS64 entry, junk above narrow arguments) against
 * C: every condition of Compare/Test/Branch/MoveConditionally at every width
 * (register and immediate right operands, cmp/cmn choice included), the float
 * compares on NaN, zeros and infinities (both branch layouts), shifts by registers
 * and immediates, divisions and multiply-subtract, FP arithmetic (also with a
 * memory operand), bitwise ops and conversions, constants of every shape, loads and stores at scaled, unscaled,
 * large and indexed offsets, register pairs, swaps, lea, calls (bl, blr through a symbol loaded
 * from its literal, helpers), brk with its trap kind, and branches laid out past
 * the tbz and b.cond ranges (veneers). */
#include "compiler/a64/a64.h"
#include "oracle/emu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec_util.h"

#define X(n) arg_tmp(tmp_gp(n))
#define V(n) arg_tmp(tmp_fp(n))
#define A(...) ((Arg[]){ __VA_ARGS__ })
#define EMIT(c, b, op, n, ...) lir_append(c, b, LIR_##op, n, A(__VA_ARGS__))

static uint64_t mask(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static int64_t sext(uint64_t v, unsigned w) { return w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w); }
static Type int_type(unsigned w) { return w == 8 ? TY_I8 : w == 16 ? TY_I16 : w == 32 ? TY_I32 : TY_I64; }

/* ---- a module and its runs ------------------------------------------------------------ */
enum { MAXF = 1500 };

typedef struct {
    Arena *arena;
    Code *codes[MAXF];
    uint32_t n;
    Emu *emu;
} Mod;

static Code *fn(Mod *m)
{
    if (m->n == MAXF) {
        fprintf(stderr, "too many functions\n");
        exit(1);
    }
    Code *c = lir_code_new(m->arena, a64_target(), "f", m->n);
    m->codes[m->n++] = c;
    return c;
}

static bool load(Mod *m)
{
    CodeBlob blob;
    char err[256];
    if (!a64_emit(m->arena, m->codes, m->n, &blob, err, sizeof err)) {
        CHECK(false, "a64_emit: %s", err);
        return false;
    }
    if (!emu_load(m->emu, &blob)) {
        CHECK(false, "emu_load: %s", emu_error(m->emu));
        return false;
    }
    return true;
}

static void run(Mod *m, uint32_t f, const Type *pt, uint32_t np, const uint64_t *args, Type ret, Outcome *o)
{
    emu_call(m->emu, f, pt, np, args, ret, 100000, o);
}

/* f(a, b) -> integer of ret type */
static bool call2(Mod *m, uint32_t f, Type ta, Type tb, uint64_t a, uint64_t b, Type ret, uint64_t *out)
{
    static Outcome o;
    Type pt[2] = { ta, tb };
    uint64_t args[2] = { a, b };
    run(m, f, pt, 2, args, ret, &o);
    *out = o.bits;
    return o.kind == OUT_RETURN;
}

static Mod mod_new(void)
{
    Mod m = { .arena = arena_new(), .emu = emu_new(ISA_A64) };
    emu_set_wall_timeout(m.emu, 0, false);
    return m;
}

static void mod_free(Mod *m)
{
    emu_free(m->emu);
    arena_free(m->arena);
}

/* ---- references ------------------------------------------------------------------------ */
static bool rel_ref(unsigned c, unsigned w, uint64_t a, uint64_t b)
{
    uint64_t ua = a & mask(w), ub = b & mask(w);
    int64_t sa = sext(a, w), sb = sext(b, w);
    switch ((RelCond)c) {
    case REL_eq: return ua == ub;
    case REL_ne: return ua != ub;
    case REL_ugt: return ua > ub;
    case REL_uge: return ua >= ub;
    case REL_ult: return ua < ub;
    case REL_ule: return ua <= ub;
    case REL_sgt: return sa > sb;
    case REL_sge: return sa >= sb;
    case REL_slt: return sa < sb;
    default: return sa <= sb;
    }
}

static bool res_ref(unsigned c, unsigned w, uint64_t a, uint64_t b)
{
    uint64_t v = a & b & mask(w);
    switch ((ResCond)c) {
    case RES_zero: return v == 0;
    case RES_nonzero: return v != 0;
    case RES_signed: return sext(v, w) < 0;
    case RES_notsigned: return sext(v, w) >= 0;
    case RES_overflow: return false;      /* ands clears V */
    default: return true;
    }
}

static uint64_t dbits(double v) { uint64_t b; memcpy(&b, &v, 8); return b; }
static uint64_t fbits(float v) { uint32_t b; memcpy(&b, &v, 4); return b; }
static double bitsd(uint64_t b) { double v; memcpy(&v, &b, 8); return v; }
static float bitsf(uint64_t b) { float v; uint32_t u = (uint32_t)b; memcpy(&v, &u, 4); return v; }

/* ---- conditions --------------------------------------------------------------------------- */
typedef enum { K_CMP, K_TEST, K_DBL, K_FLT } Kind;
typedef enum { F_SET, F_BRANCH_NEXT, F_BRANCH_FAR, F_CSEL } Flavor;

typedef struct {
    Kind kind;
    Flavor flavor;
    unsigned width, cond;
    bool has_imm;
    int64_t imm;    /* right operand, when has_imm */
} Case;

static LirOp op_for(Kind k, Flavor f, unsigned w)
{
    static const LirOp cmp[4] = { LIR_Compare8, LIR_Compare16, LIR_Compare32, LIR_Compare64 };
    static const LirOp br[4] = { LIR_Branch8, LIR_Branch16, LIR_Branch32, LIR_Branch64 };
    unsigned wi = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3;
    bool branch = f == F_BRANCH_NEXT || f == F_BRANCH_FAR;
    switch (k) {
    case K_CMP:
        return f == F_SET ? cmp[wi] : branch ? br[wi] : w == 32 ? LIR_MoveConditionally32 : LIR_MoveConditionally64;
    case K_TEST:
        return f == F_SET ? (w == 32 ? LIR_Test32 : LIR_Test64)
               : branch  ? (w == 32 ? LIR_BranchTest32 : LIR_BranchTest64)
                         : (w == 32 ? LIR_MoveConditionallyTest32 : LIR_MoveConditionallyTest64);
    case K_DBL:
        return f == F_SET ? LIR_CompareDouble : branch ? LIR_BranchDouble : LIR_MoveConditionallyDouble;
    default:
        return f == F_SET ? LIR_CompareFloat : branch ? LIR_BranchFloat : LIR_MoveConditionallyFloat;
    }
}

static Arg cond_arg(Kind k, unsigned c)
{
    return k == K_CMP ? arg_relcond((RelCond)c) : k == K_TEST ? arg_rescond((ResCond)c)
                                                             : arg_doublecond((DoubleCond)c);
}

/* f(a, b) = a COND b ? 1 : 0 with a, b in x0/x1 or v0/v1 (b replaced by the immediate) */
static bool build_case(Mod *m, const Case *cs)
{
    bool fp = cs->kind == K_DBL || cs->kind == K_FLT;
    Arg l = fp ? V(0) : X(0), r = cs->has_imm ? arg_imm(cs->imm) : fp ? V(1) : X(1);
    Arg cond = cond_arg(cs->kind, cs->cond);
    LirOp op = op_for(cs->kind, cs->flavor, cs->width);
    Arg probe[5] = { cond, l, r, X(3), X(2) };
    unsigned n = cs->flavor == F_SET ? 4 : cs->flavor == F_CSEL ? 5 : 3;
    if (cs->flavor == F_SET)
        probe[3] = X(2);
    if (!lir_is_valid_args(a64_target(), op, n, probe))
        return false;
    Code *c = fn(m);
    LirBlock *b0 = lir_add_block(c, 1);
    if (cs->flavor == F_SET) {
        lir_append(c, b0, op, 4, A(cond, l, r, X(2)));
        EMIT(c, b0, Move, 2, X(2), X(0));
        EMIT(c, b0, Ret64, 1, X(0));
    } else if (cs->flavor == F_CSEL) {
        EMIT(c, b0, Move, 2, arg_imm(0), X(2));
        EMIT(c, b0, Move, 2, arg_imm(1), X(3));
        lir_append(c, b0, op, 5, A(cond, l, r, X(3), X(2)));
        EMIT(c, b0, Move, 2, X(2), X(0));
        EMIT(c, b0, Ret64, 1, X(0));
    } else {
        LirBlock *b1 = lir_add_block(c, 1), *b2 = lir_add_block(c, 1);
        bool next = cs->flavor == F_BRANCH_NEXT;
        lir_append(c, b0, op, 3, A(cond, l, r));
        lir_add_succ(c, b0, next ? 1 : 2);
        lir_add_succ(c, b0, next ? 2 : 1);
        EMIT(c, b1, Move32, 2, arg_imm(next ? 1 : 0), X(0));
        EMIT(c, b1, Ret32, 1, X(0));
        EMIT(c, b2, Move32, 2, arg_imm(next ? 0 : 1), X(0));
        EMIT(c, b2, Ret32, 1, X(0));
    }
    return true;
}

static const uint64_t int_vals[] = {
    0, 1, 0x7f, 0x80, 0xff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
    0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0xfedcba9876543280ull,
};
static const double fp_vals[] = { 0.0, -0.0, 1.0, -1.5, 1e300, INFINITY, -INFINITY, NAN };

static void run_case(Mod *m, uint32_t f, const Case *cs)
{
    bool fp = cs->kind == K_DBL || cs->kind == K_FLT, single = cs->kind == K_FLT;
    size_t nv = fp ? sizeof fp_vals / sizeof fp_vals[0] : sizeof int_vals / sizeof int_vals[0];
    Type t = fp ? (single ? TY_F32 : TY_F64) : int_type(cs->width);
    for (size_t i = 0; i < nv; i++)
        for (size_t j = 0; j < (cs->has_imm ? 1 : nv); j++) {
            uint64_t a, b, out;
            bool want;
            if (fp) {
                double x = single ? (double)(float)fp_vals[i] : fp_vals[i], y = single ? (double)(float)fp_vals[j] : fp_vals[j];
                a = single ? fbits((float)x) : dbits(x);
                b = single ? fbits((float)y) : dbits(y);
                want = dbl_ref(cs->cond, x, y);
            } else {
                a = int_vals[i];
                b = cs->has_imm ? (uint64_t)cs->imm : int_vals[j];
                want = cs->kind == K_CMP ? rel_ref(cs->cond, cs->width, a, b) : res_ref(cs->cond, cs->width, a, b);
            }
            bool ran = call2(m, f, t, t, a, b, TY_I64, &out);
            Arg c = cond_arg(cs->kind, cs->cond);
            CHECK(ran && out == (uint64_t)want, "%s flavor %d width %u %s%s: 0x%llx, 0x%llx gave %llu, expected %d",
                  lir_op_name(op_for(cs->kind, cs->flavor, cs->width)), cs->flavor, cs->width,
                  lir_cond_name((ArgKind)c.kind, c.cond), cs->has_imm ? " (imm)" : "", (unsigned long long)a,
                  (unsigned long long)b, (unsigned long long)out, want);
        }
}

static const int64_t cmp_imms[] = { 0, 1, 5, 0x7f, 4095, 4096, 0x7ff000, -1, -4096, -0x7ff000, 0xffffffff, 0x80000000 };
static const int64_t test_imms[] = { 1, 0x80, 0xff, 0x8000, 0x80000000, 0x0f0f0f0f, 0x100000000, INT64_MIN, 0x5555555555555555 };

static void add_cases(Mod *m, Case *cases)
{
    static const unsigned widths[4] = { 8, 16, 32, 64 };
    for (int f = F_SET; f <= F_CSEL; f++) {
        for (unsigned wi = 0; wi < 4; wi++)
            for (unsigned c = 0; c < REL_COUNT; c++) {
                Case cs = { K_CMP, (Flavor)f, widths[wi], c, false, 0 };
                if (f == F_CSEL && widths[wi] < 32)
                    continue;   /* no 8/16-bit conditional moves */
                if (build_case(m, &cs))
                    cases[m->n - 1] = cs;
                for (unsigned k = 0; widths[wi] >= 32 && k < sizeof cmp_imms / sizeof cmp_imms[0]; k++) {
                    Case ci = { K_CMP, (Flavor)f, widths[wi], c, true, cmp_imms[k] };
                    if ((c == REL_ugt || c == REL_sle || k % 3 == (unsigned)f % 3) && build_case(m, &ci))
                        cases[m->n - 1] = ci;
                }
            }
        for (unsigned w = 32; w <= 64; w += 32)
            for (unsigned c = 0; c < RES_COUNT; c++) {
                Case cs = { K_TEST, (Flavor)f, w, c, false, 0 };
                if (build_case(m, &cs))
                    cases[m->n - 1] = cs;
                for (unsigned k = 0; k < sizeof test_imms / sizeof test_imms[0]; k++) {
                    Case ci = { K_TEST, (Flavor)f, w, c, true, test_imms[k] };
                    if (c < 4 && build_case(m, &ci))
                        cases[m->n - 1] = ci;
                }
            }
        for (unsigned c = 0; c < DBL_COUNT; c++) {
            Case cd = { K_DBL, (Flavor)f, 64, c, false, 0 }, cf = { K_FLT, (Flavor)f, 32, c, false, 0 };
            if (build_case(m, &cd))
                cases[m->n - 1] = cd;
            if (build_case(m, &cf))
                cases[m->n - 1] = cf;
        }
    }
}

static void test_conditions(void)
{
    Mod m = mod_new();
    static Case cases[MAXF];
    add_cases(&m, cases);
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++)
            run_case(&m, f, &cases[f]);
    printf("conditions: %u functions\n", m.n);
    mod_free(&m);
}

/* ---- integer arithmetic ------------------------------------------------------------------ */
typedef struct { LirOp op; unsigned w; bool imm; int64_t v; } Arith;

static uint64_t shift_ref(LirOp op, unsigned w, uint64_t x, uint64_t n)
{
    unsigned s = (unsigned)(n % w);
    x &= mask(w);
    if (op == LIR_Lshift32 || op == LIR_Lshift64)
        return (x << s) & mask(w);
    if (op == LIR_Rshift32 || op == LIR_Rshift64)
        return (uint64_t)(sext(x, w) >> s) & mask(w);
    return x >> s;
}

static void test_shifts(void)
{
    static const LirOp ops[6] = { LIR_Lshift32, LIR_Lshift64, LIR_Rshift32, LIR_Rshift64, LIR_Urshift32, LIR_Urshift64 };
    static const int64_t amounts[] = { 0, 1, 7, 31, 32, 33, 63, 64, 100, 255 };
    Mod m = mod_new();
    Arith fs[MAXF];
    for (int i = 0; i < 6; i++) {
        unsigned w = i % 2 ? 64 : 32;
        /* three-operand by a register, two-operand by a register */
        Code *c = fn(&m);
        LirBlock *b = lir_add_block(c, 1);
        lir_append(c, b, ops[i], 3, A(X(0), X(1), X(0)));
        EMIT(c, b, Ret64, 1, X(0));
        fs[m.n - 1] = (Arith){ ops[i], w, false, 0 };
        c = fn(&m);
        b = lir_add_block(c, 1);
        lir_append(c, b, ops[i], 2, A(X(1), X(0)));
        EMIT(c, b, Ret64, 1, X(0));
        fs[m.n - 1] = (Arith){ ops[i], w, false, 0 };
        for (unsigned k = 0; k < sizeof amounts / sizeof amounts[0]; k++) {
            c = fn(&m);
            b = lir_add_block(c, 1);
            if (k % 2)
                lir_append(c, b, ops[i], 3, A(X(0), arg_imm(amounts[k]), X(5)));
            else
                lir_append(c, b, ops[i], 2, A(arg_imm(amounts[k]), X(0)));
            if (k % 2)
                EMIT(c, b, Move, 2, X(5), X(0));
            EMIT(c, b, Ret64, 1, X(0));
            fs[m.n - 1] = (Arith){ ops[i], w, true, amounts[k] };
        }
    }
    static const uint64_t xs[] = { 1, 0x80000001ull, 0xfedcba9876543210ull, 0x8000000000000000ull, 12345 };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++)
            for (size_t k = 0; k < 5; k++)
                for (uint64_t n = 0; n < 70; n += fs[f].imm ? 70 : 3) {
                    uint64_t out, amount = fs[f].imm ? (uint64_t)fs[f].v : n;
                    /* the amount register's bits above the width's mask must not matter */
                    uint64_t reg_amount = fs[f].imm ? 0 : n | 0xff00;
                    uint64_t want = shift_ref(fs[f].op, fs[f].w, xs[k], amount);
                    bool ran = call2(&m, f, int_type(fs[f].w), TY_I64, xs[k], reg_amount, int_type(fs[f].w), &out);
                    CHECK(ran && out == want, "%s 0x%llx by %llu: 0x%llx, expected 0x%llx", lir_op_name(fs[f].op),
                          (unsigned long long)xs[k], (unsigned long long)amount, (unsigned long long)out,
                          (unsigned long long)want);
                }
    mod_free(&m);
}

/* quotient and remainder (Div + MultiplySub), as ARM64 defines them: x/0 = 0,
 * INT_MIN/-1 = INT_MIN */
static void test_divisions(void)
{
    static const LirOp divs[4] = { LIR_Div32, LIR_UDiv32, LIR_Div64, LIR_UDiv64 };
    Mod m = mod_new();
    for (int i = 0; i < 4; i++)
        for (int rem = 0; rem < 2; rem++) {
            Code *c = fn(&m);
            LirBlock *b = lir_add_block(c, 1);
            lir_append(c, b, divs[i], 3, A(X(0), X(1), X(2)));
            if (rem)
                lir_append(c, b, i < 2 ? LIR_MultiplySub32 : LIR_MultiplySub64, 4, A(X(2), X(1), X(0), X(0)));
            else
                EMIT(c, b, Move, 2, X(2), X(0));
            EMIT(c, b, Ret64, 1, X(0));
        }
    static const int64_t ns[] = { 0, 1, -1, 100, -100, INT32_MIN, INT32_MAX, INT64_MAX, INT64_MIN, 7 };
    static const int64_t ds[] = { 1, -1, 3, -7, 1000003, INT32_MAX, 0, INT32_MIN, INT64_MIN };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++)
            for (size_t p = 0; p < sizeof ns / sizeof ns[0]; p++)
                for (size_t q = 0; q < sizeof ds / sizeof ds[0]; q++) {
                    int i = (int)f / 2;
                    bool rem = f % 2, is_signed = i % 2 == 0;
                    unsigned w = i < 2 ? 32 : 64;
                    uint64_t x = (uint64_t)ns[p] & mask(w), d = (uint64_t)ds[q] & mask(w), qt;
                    if (d == 0)
                        qt = 0;
                    else if (is_signed && sext(x, w) == sext(1ull << (w - 1), w) && sext(d, w) == -1)
                        qt = x;
                    else if (is_signed)
                        qt = (uint64_t)(sext(x, w) / sext(d, w)) & mask(w);
                    else
                        qt = x / d;
                    uint64_t want = rem ? (x - qt * d) & mask(w) : qt, out;
                    bool ran = call2(&m, f, int_type(w), int_type(w), x, d, int_type(w), &out);
                    CHECK(ran && out == want, "%s%s 0x%llx, 0x%llx: 0x%llx, expected 0x%llx", lir_op_name(divs[i]),
                          rem ? "+MultiplySub" : "", (unsigned long long)x, (unsigned long long)d,
                          (unsigned long long)out, (unsigned long long)want);
                }
    mod_free(&m);
}

/* add/sub/and/or/xor/mul/neg/not with registers and immediates, 32 and 64 bits */
static uint64_t alu_ref(LirOp op, unsigned w, uint64_t a, uint64_t b)
{
    uint64_t r;
    switch (op) {
    case LIR_Add32: case LIR_Add64: r = a + b; break;
    case LIR_Sub32: case LIR_Sub64: r = a - b; break;
    case LIR_And32: case LIR_And64: r = a & b; break;
    case LIR_Or32: case LIR_Or64: r = a | b; break;
    case LIR_Xor32: case LIR_Xor64: r = a ^ b; break;
    case LIR_Mul32: case LIR_Mul64: r = a * b; break;
    case LIR_Neg32: case LIR_Neg64: r = 0 - a; break;
    default: r = ~a; break;
    }
    return r & mask(w);
}

static void test_alu(void)
{
    static const LirOp ops[] = { LIR_Add32, LIR_Add64, LIR_Sub32, LIR_Sub64, LIR_And32, LIR_And64, LIR_Or32,
                                 LIR_Or64, LIR_Xor32, LIR_Xor64, LIR_Mul32, LIR_Mul64 };
    static const int64_t imms[] = { 0, 1, -1, 4095, 4096, -4096, 0xfff000, 0xff, 0xff00ff00ff00ff00, 0x7ffffffe,
                                    0x80000000, 0xfffffff0 };
    Mod m = mod_new();
    Arith fs[MAXF];
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        unsigned w = i % 2 ? 64 : 32;
        Code *c = fn(&m);
        LirBlock *b = lir_add_block(c, 1);
        lir_append(c, b, ops[i], 3, A(X(0), X(1), X(4)));
        EMIT(c, b, Move, 2, X(4), X(0));
        EMIT(c, b, Ret64, 1, X(0));
        fs[m.n - 1] = (Arith){ ops[i], w, false, 0 };
        for (size_t k = 0; k < sizeof imms / sizeof imms[0]; k++) {
            Arg args2[2] = { arg_imm(imms[k]), X(0) }, args3[3] = { X(0), arg_imm(imms[k]), X(3) };
            bool three = k % 2;
            if (!lir_is_valid_args(a64_target(), ops[i], three ? 3 : 2, three ? args3 : args2))
                continue;
            c = fn(&m);
            b = lir_add_block(c, 1);
            lir_append(c, b, ops[i], three ? 3 : 2, three ? args3 : args2);
            if (three)
                EMIT(c, b, Move, 2, X(3), X(0));
            EMIT(c, b, Ret64, 1, X(0));
            fs[m.n - 1] = (Arith){ ops[i], w, true, imms[k] };
        }
    }
    static const LirOp un[] = { LIR_Neg32, LIR_Neg64, LIR_Not32, LIR_Not64 };
    for (int i = 0; i < 4; i++) {
        Code *c = fn(&m);
        LirBlock *b = lir_add_block(c, 1);
        lir_append(c, b, un[i], 2, A(X(0), X(7)));
        EMIT(c, b, Move, 2, X(7), X(0));
        EMIT(c, b, Ret64, 1, X(0));
        fs[m.n - 1] = (Arith){ un[i], i % 2 ? 64 : 32, false, 0 };
    }
    static const uint64_t vs[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x123456789abcdef0, ~0ull, 4096 };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++)
            for (size_t i = 0; i < 8; i++)
                for (size_t j = 0; j < 8; j++) {
                    uint64_t a = vs[i], b = fs[f].imm ? (uint64_t)fs[f].v : vs[j], out;
                    uint64_t want = alu_ref(fs[f].op, fs[f].w, a, b);
                    bool ran = call2(&m, f, int_type(fs[f].w), int_type(fs[f].w), a, vs[j], int_type(fs[f].w), &out);
                    CHECK(ran && out == want, "%s%s 0x%llx, 0x%llx: 0x%llx, expected 0x%llx", lir_op_name(fs[f].op),
                          fs[f].imm ? " (imm)" : "", (unsigned long long)a, (unsigned long long)b,
                          (unsigned long long)out, (unsigned long long)want);
                }
    mod_free(&m);
}

/* ---- constants ------------------------------------------------------------------------------ */
static void test_constants(void)
{
    static const int64_t vs[] = { 0, 1, -1, 0xffff, 0x10000, 0x12345678, 0xffffffff, 0x100000000, -0x10000,
                                  0x123456789abcdef0, INT64_MIN, INT64_MAX, 0x5555555555555555, 0xffff0000ffff,
                                  0x0000ffff00000000, -0x123456789 };
    size_t n = sizeof vs / sizeof vs[0];
    Mod m = mod_new();
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            Code *c = fn(&m);
            LirBlock *b = lir_add_block(c, 1);
            if (k == 0)
                EMIT(c, b, Move, 2, arg_imm(vs[i]), X(9));
            else if (k == 1)
                EMIT(c, b, Move, 2, arg_bigimm(vs[i]), X(9));
            else
                EMIT(c, b, Move32, 2, arg_imm((int64_t)(uint32_t)vs[i]), X(9));
            EMIT(c, b, Move, 2, X(9), X(0));
            EMIT(c, b, Ret64, 1, X(0));
        }
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++) {
            uint64_t out, want = f % 3 == 2 ? (uint32_t)vs[f / 3] : (uint64_t)vs[f / 3];
            bool ran = call2(&m, f, TY_I64, TY_I64, 0, 0, TY_I64, &out);
            CHECK(ran && out == want, "constant %u: 0x%llx, expected 0x%llx", f, (unsigned long long)out,
                  (unsigned long long)want);
        }
    mod_free(&m);
}

/* ---- memory ---------------------------------------------------------------------------------- */
/* f(heap, v): store v at an address, load it back through another form, return both
 * the loaded value (checked) and the heap (checked: only the stored bytes change) */
typedef struct { LirOp store, load; unsigned w; Arg addr; int64_t at; } MemCase;

static void test_memory(void)
{
    static const int64_t offs[] = { 0, 8, 4, 3, 255, -8, 257, 4088, 2000, 40000 };
    Mod m = mod_new();
    MemCase cs[MAXF];
    uint32_t n = 0;
    static const struct { LirOp st, ld; unsigned w; } kinds[] = {
        { LIR_Move, LIR_Move, 64 }, { LIR_Move32, LIR_Move32, 32 }, { LIR_Store16, LIR_ZeroExtend16To32, 16 },
        { LIR_Store8, LIR_ZeroExtend8To32, 8 }, { LIR_Store8, LIR_SignExtend8To64, 8 },
        { LIR_Store16, LIR_SignExtend16To32, 16 }, { LIR_Move32, LIR_SignExtend32To64, 32 },
        { LIR_Store8, LIR_SignExtend8To32, 8 }, { LIR_Store16, LIR_SignExtend16To64, 16 },
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
            for (int shape = 0; shape < 3; shape++) {
                int64_t at = 1024 + offs[o];
                if (at < 0 || at + 8 > HEAP_SIZE)
                    continue;
                Code *c = fn(&m);
                LirBlock *b = lir_add_block(c, 1);
                Arg addr;
                if (shape == 0) {
                    EMIT(c, b, Add64, 3, X(0), arg_imm(1024), X(4));
                    addr = arg_addr(tmp_gp(4), offs[o]);
                } else if (shape == 1) {
                    EMIT(c, b, Move, 2, arg_imm(at / 2), X(5));
                    addr = arg_index(tmp_gp(0), tmp_gp(5), 2, at % 2);
                } else {
                    EMIT(c, b, Move, 2, arg_imm(-(at + 100000)), X(5));
                    addr = arg_index(tmp_gp(0), tmp_gp(5), 1, 2 * at + 100000);
                }
                lir_append(c, b, kinds[k].st, 2, A(X(1), addr));
                lir_append(c, b, kinds[k].ld, 2, A(addr, X(0)));
                EMIT(c, b, Ret64, 1, X(0));
                cs[n++] = (MemCase){ kinds[k].st, kinds[k].ld, kinds[k].w, addr, at };
            }
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++) {
            static Outcome o;
            uint64_t v = 0x8182838485868788ull ^ f, args[2] = { HEAP_ADDR, v };
            Type pt[2] = { TY_I64, TY_I64 };
            run(&m, f, pt, 2, args, TY_I64, &o);
            uint64_t stored = v & mask(cs[f].w), want = stored;
            LirOp ld = cs[f].load;
            if (ld == LIR_SignExtend8To64 || ld == LIR_SignExtend16To64 || ld == LIR_SignExtend32To64)
                want = (uint64_t)sext(stored, cs[f].w);
            else if (ld == LIR_SignExtend8To32 || ld == LIR_SignExtend16To32)
                want = (uint64_t)sext(stored, cs[f].w) & 0xffffffffu;
            uint8_t heap[HEAP_SIZE];
            heap_fill_pattern(heap);
            memcpy(heap + cs[f].at, &stored, cs[f].w / 8);
            CHECK(o.kind == OUT_RETURN && o.bits == want && memcmp(heap, o.heap, HEAP_SIZE) == 0,
                  "%s/%s at heap+%lld: %s, 0x%llx, expected 0x%llx (heap %s)", lir_op_name(cs[f].store),
                  lir_op_name(ld), (long long)cs[f].at, o.reason, (unsigned long long)o.bits,
                  (unsigned long long)want, memcmp(heap, o.heap, HEAP_SIZE) ? "differs" : "same");
        }
    mod_free(&m);
}

/* register pairs: StorePair64 puts x1 at the address and x2 8 bytes above (xzr for
 * immediates), LoadPair64 reads both before writing (here into the base register
 * itself, or twice into one register: the second wins), at offsets stp/ldp encode
 * and ones they do not (through x17), with an index; PushPair/PopPair round trip */
static void test_pairs(void)
{
    static const int64_t offs[] = { 0, 8, 16, 504, 512, -512, -520, 4, 3000 };
    Mod m = mod_new();
    int64_t at[MAXF];
    int shapes[MAXF];
    uint32_t n = 0;
    for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
        for (int shape = 0; shape < 4; shape++) {
            Code *c = fn(&m);
            LirBlock *b = lir_add_block(c, 1);
            EMIT(c, b, Add64, 3, X(0), arg_imm(1024), X(4));
            Arg addr = arg_addr(tmp_gp(4), offs[o]);
            if (shape == 3) { /* indexed */
                EMIT(c, b, Move, 2, arg_imm(offs[o] + 8), X(5));
                addr = arg_index(tmp_gp(4), tmp_gp(5), 1, -8);
            }
            if (shape == 2)
                EMIT(c, b, StorePair64, 3, arg_imm(0), arg_imm(0), addr);
            else
                EMIT(c, b, StorePair64, 3, X(1), X(2), addr);
            if (shape == 1) { /* one register twice */
                EMIT(c, b, LoadPair64, 3, addr, X(0), X(0));
            } else { /* into the base register */
                EMIT(c, b, LoadPair64, 3, addr, X(4), X(3));
                EMIT(c, b, Sub64, 3, X(4), X(3), X(0));
            }
            EMIT(c, b, PushPair, 2, X(0), X(1));
            EMIT(c, b, PopPair, 2, X(6), X(7));
            EMIT(c, b, Move, 2, X(6), X(0));
            EMIT(c, b, Ret64, 1, X(0));
            at[n] = 1024 + offs[o];
            shapes[n++] = shape;
        }
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++) {
            static Outcome o;
            uint64_t v1 = 0x1111222233334444ull + f, v2 = 0x9999888877776666ull ^ f;
            uint64_t args[3] = { HEAP_ADDR, v1, v2 };
            Type pt[3] = { TY_I64, TY_I64, TY_I64 };
            run(&m, f, pt, 3, args, TY_I64, &o);
            uint64_t lo = shapes[f] == 2 ? 0 : v1, hi = shapes[f] == 2 ? 0 : v2;
            uint64_t want = shapes[f] == 1 ? hi : lo - hi;
            uint8_t heap[HEAP_SIZE];
            heap_fill_pattern(heap);
            memcpy(heap + at[f], &lo, 8);
            memcpy(heap + at[f] + 8, &hi, 8);
            CHECK(o.kind == OUT_RETURN && o.bits == want && memcmp(heap, o.heap, HEAP_SIZE) == 0,
                  "pair shape %d at heap+%lld: %s, 0x%llx, expected 0x%llx (heap %s)", shapes[f],
                  (long long)at[f], o.reason, (unsigned long long)o.bits, (unsigned long long)want,
                  memcmp(heap, o.heap, HEAP_SIZE) ? "differs" : "same");
        }
    mod_free(&m);
}

/* ---- floating point ---------------------------------------------------------------------------- */
static void test_float(void)
{
    Mod m = mod_new();
    static const LirOp dops[] = { LIR_AddDouble, LIR_SubDouble, LIR_MulDouble, LIR_DivDouble,
                                  LIR_AndDouble, LIR_OrDouble, LIR_XorDouble };
    static const LirOp fops[] = { LIR_AddFloat, LIR_SubFloat, LIR_MulFloat, LIR_DivFloat,
                                  LIR_AndFloat, LIR_OrFloat, LIR_XorFloat };
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 7; i++) {
            Code *c = fn(&m);
            LirBlock *b = lir_add_block(c, 1);
            LirOp op = s ? fops[i] : dops[i];
            if (i < 4 && i % 2)
                lir_append(c, b, op, 3, A(V(0), V(1), V(0)));
            else
                lir_append(c, b, op, 2, A(V(1), V(0)));
            lir_append(c, b, s ? LIR_RetFloat : LIR_RetDouble, 1, A(V(0)));
        }
    static const double vs[] = { 1.5, -2.25, 0.0, -0.0, 1e300, 3.0 };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++)
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) {
                    bool single = f >= 7;
                    int op = (int)f % 7;
                    uint64_t a = single ? fbits((float)vs[i]) : dbits(vs[i]);
                    uint64_t b = single ? fbits((float)vs[j]) : dbits(vs[j]), out, want;
                    if (op >= 4)
                        want = op == 4 ? a & b : op == 5 ? a | b : a ^ b;
                    else if (single) {
                        float x = bitsf(a), y = bitsf(b);
                        float r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y;
                        want = isnan(r) ? 0x7fc00000u : fbits(r);   /* ARM's default NaN (no NaN inputs) */
                    } else {
                        double x = bitsd(a), y = bitsd(b);
                        double r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y;
                        want = isnan(r) ? 0x7ff8000000000000ull : dbits(r);
                    }
                    Type t = single ? TY_F32 : TY_F64;
                    bool ran = call2(&m, f, t, t, a, b, t, &out);
                    CHECK(ran && out == want, "%s %g, %g: 0x%llx, expected 0x%llx", lir_op_name(single ? fops[op] : dops[op]),
                          vs[i], vs[j], (unsigned long long)out, (unsigned long long)want);
                }
    mod_free(&m);
}

/* FP operations and compares with a memory operand (loaded into the v31 scratch):
 * f(heap, a, b) stores b in the heap (at heap+8 through x0, or through x3 = heap +
 * 0x9000 at an offset beyond the scaled and unscaled forms) and computes a OP b,
 * b OP a (three-operand, memory left or right) or a OP= b (two-operand); the
 * compares return a < b with b from memory */
static Arg heap_b(Code *c, LirBlock *b, int k)
{
    if (k == 0)
        return arg_addr(tmp_gp(0), 8);
    EMIT(c, b, Add64, 3, X(0), arg_imm(0x9000), X(3));
    return arg_addr(tmp_gp(3), 8 - 0x9000);
}

static void test_float_memory(void)
{
    static const LirOp ops[4] = { LIR_SubDouble, LIR_DivDouble, LIR_SubFloat, LIR_MulFloat };
    Mod m = mod_new();
    for (int i = 0; i < 6; i++)
        for (int shape = 0; shape < 3; shape++) {
            bool single = i == 2 || i == 3 || i == 5;
            Code *c = fn(&m);
            LirBlock *b = lir_add_block(c, 1);
            Arg mem = heap_b(c, b, shape == 2);
            lir_append(c, b, single ? LIR_MoveFloat : LIR_MoveDouble, 2, A(V(1), mem));
            if (i >= 4) {
                lir_append(c, b, single ? LIR_CompareFloat : LIR_CompareDouble, 4,
                           A(arg_doublecond(shape ? DBL_ult : DBL_olt), V(0), mem, X(0)));
                EMIT(c, b, Ret64, 1, X(0));
                continue;
            }
            if (shape == 0)
                lir_append(c, b, ops[i], 3, A(V(0), mem, V(2)));
            else if (shape == 1)
                lir_append(c, b, ops[i], 3, A(mem, V(0), V(2)));
            else
                lir_append(c, b, ops[i], 2, A(mem, V(0)));
            lir_append(c, b, single ? LIR_RetFloat : LIR_RetDouble, 1, A(V(0)));
            if (shape != 2)
                lir_insert(c, b, b->ninsts - 1,
                           &(Inst){ .op = single ? LIR_MoveFloat : LIR_MoveDouble, .nargs = 2, .args = { V(2), V(0) } });
        }
    static const double as[] = { 1.5, -3.0, 1e10, 0.5 }, bs[] = { 0.25, 7.0, -2.5, 0.5 };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++) {
            int i = (int)f / 3, shape = (int)f % 3;
            bool single = i == 2 || i == 3 || i == 5;
            for (int k = 0; k < 4; k++) {
                uint64_t a = single ? fbits((float)as[k]) : dbits(as[k]);
                uint64_t bb = single ? fbits((float)bs[k]) : dbits(bs[k]), out, want;
                Type t = single ? TY_F32 : TY_F64;
                if (i >= 4) {
                    want = single ? bitsf(a) < bitsf(bb) : bitsd(a) < bitsd(bb);
                } else {
                    double l = shape == 1 ? bitsd(bb) : bitsd(a), r = shape == 1 ? bitsd(a) : bitsd(bb);
                    float lf = shape == 1 ? bitsf(bb) : bitsf(a), rf = shape == 1 ? bitsf(a) : bitsf(bb);
                    want = i == 0 ? dbits(l - r) : i == 1 ? dbits(l / r) : i == 2 ? fbits(lf - rf) : fbits(lf * rf);
                }
                static Outcome o;
                Type pt[3] = { TY_I64, t, t };
                uint64_t args[3] = { HEAP_ADDR, a, bb };
                run(&m, f, pt, 3, args, i >= 4 ? TY_I64 : t, &o);
                out = o.bits;
                CHECK(o.kind == OUT_RETURN && out == want, "%s memory shape %d, case %d: 0x%llx, expected 0x%llx %s",
                      i >= 4 ? "compare" : lir_op_name(ops[i]), shape, k, (unsigned long long)out,
                      (unsigned long long)want, o.reason);
            }
        }
    mod_free(&m);
}

/* a function of m that converts its argument (v0 or x0) with op and returns it */
static void add_conversion(Mod *m, LirOp op, Type from, Type to)
{
    Code *c = fn(m);
    LirBlock *b = lir_add_block(c, 1);
    bool from_fp = ty_is_float(from), to_fp = ty_is_float(to);
    lir_append(c, b, op, 2, A(from_fp ? V(0) : X(0), to_fp ? V(0) : X(0)));
    if (to_fp)
        lir_append(c, b, to == TY_F32 ? LIR_RetFloat : LIR_RetDouble, 1, A(V(0)));
    else
        EMIT(c, b, Ret64, 1, X(0));
}

/* conversions: integer -> FP (signed), FP -> integer (toward zero, in range), FP
 * widths, and the bit moves */
static void test_conversions(void)
{
    static const struct { LirOp op; Type from, to; } cv[] = {
        { LIR_ConvertInt32ToFloat, TY_I32, TY_F32 }, { LIR_ConvertInt64ToFloat, TY_I64, TY_F32 },
        { LIR_ConvertInt32ToDouble, TY_I32, TY_F64 }, { LIR_ConvertInt64ToDouble, TY_I64, TY_F64 },
        { LIR_TruncateFloatToInt32, TY_F32, TY_I32 }, { LIR_TruncateFloatToInt64, TY_F32, TY_I64 },
        { LIR_TruncateDoubleToInt32, TY_F64, TY_I32 }, { LIR_TruncateDoubleToInt64, TY_F64, TY_I64 },
        { LIR_ConvertFloatToDouble, TY_F32, TY_F64 }, { LIR_ConvertDoubleToFloat, TY_F64, TY_F32 },
        { LIR_Move32ToFloat, TY_I32, TY_F32 }, { LIR_MoveFloatTo32, TY_F32, TY_I32 },
        { LIR_Move64ToDouble, TY_I64, TY_F64 }, { LIR_MoveDoubleTo64, TY_F64, TY_I64 },
    };
    size_t n = sizeof cv / sizeof cv[0];
    Mod m = mod_new();
    for (size_t i = 0; i < n; i++) {
        add_conversion(&m, cv[i].op, cv[i].from, cv[i].to);
    }
    static const double vs[] = { 0.0, 1.0, -1.0, 2.5, -2.5, 123456.75, -1e9, 3e9, 1e15, -0.0 };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++)
            for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
                double v = vs[k];
                uint64_t in, want, out;
                switch (cv[f].from) {
                case TY_I32: in = (uint64_t)(int64_t)(int32_t)(int64_t)(v > 2e9 ? 2e9 : v) & 0xffffffffu; break;
                case TY_I64: in = (uint64_t)(int64_t)v; break;
                case TY_F32: in = fbits((float)v); break;
                default: in = dbits(v); break;
                }
                int64_t si = cv[f].from == TY_I32 ? (int32_t)in : (int64_t)in;
                double fv = cv[f].from == TY_F32 ? bitsf(in) : bitsd(in);
                switch (cv[f].op) {
                case LIR_ConvertInt32ToFloat: case LIR_ConvertInt64ToFloat: want = fbits((float)si); break;
                case LIR_ConvertInt32ToDouble: case LIR_ConvertInt64ToDouble: want = dbits((double)si); break;
                case LIR_TruncateFloatToInt32: case LIR_TruncateDoubleToInt32:
                    want = fv >= 2147483648.0 ? 0x7fffffffu : fv <= -2147483649.0 ? 0x80000000u
                                                                                   : (uint32_t)(int32_t)fv;
                    break;
                case LIR_TruncateFloatToInt64: case LIR_TruncateDoubleToInt64: want = (uint64_t)(int64_t)fv; break;
                case LIR_ConvertFloatToDouble: want = dbits((double)bitsf(in)); break;
                case LIR_ConvertDoubleToFloat: want = fbits((float)bitsd(in)); break;
                default: want = in; break;
                }
                bool ran = call2(&m, f, cv[f].from, TY_I64, in, 0, cv[f].to, &out);
                CHECK(ran && out == want, "%s of %g (0x%llx): 0x%llx, expected 0x%llx", lir_op_name(cv[f].op), v,
                      (unsigned long long)in, (unsigned long long)out, (unsigned long long)want);
            }
    mod_free(&m);
}

/* the unsigned conversions: fcvtzu saturates to 0..2^32-1 or 0..2^64-1 and gives 0
 * for NaN and negatives; ucvtf rounds a u64 to nearest even, top bit included */
static uint64_t saturate_unsigned(double v, int w)
{
    double top = w == 64 ? 18446744073709551616.0 : 4294967296.0;
    if (!(v > -1.0)) /* NaN or <= -1 */
        return 0;
    if (v >= top)
        return w == 64 ? ~0ull : 0xffffffffull;
    return v < 1.0 ? 0 : (uint64_t)v;
}

static void test_unsigned_conversions(void)
{
    static const struct { LirOp op; Type from, to; int w; } cv[] = {
        { LIR_TruncateFloatToUInt32, TY_F32, TY_I32, 32 }, { LIR_TruncateFloatToUInt64, TY_F32, TY_I64, 64 },
        { LIR_TruncateDoubleToUInt32, TY_F64, TY_I32, 32 }, { LIR_TruncateDoubleToUInt64, TY_F64, TY_I64, 64 },
        { LIR_ConvertUInt64ToFloat, TY_I64, TY_F32, 64 }, { LIR_ConvertUInt64ToDouble, TY_I64, TY_F64, 64 },
    };
    size_t n = sizeof cv / sizeof cv[0];
    Mod m = mod_new();
    for (size_t i = 0; i < n; i++) {
        add_conversion(&m, cv[i].op, cv[i].from, cv[i].to);
    }
    static const double fvs[] = { 0.0, -0.0, 0.75, -0.75, -1.0, 2.5, 4294967295.5, 4294967296.0, 1e15,
                                  9223372036854775808.0, 1.8e19, 2e19, -1e30, 1e30 };
    static const uint64_t uvs[] = { 0, 1, 4294967296ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                    0x8000000000000401ull, 0xfffffffffffff800ull, ~0ull };
    if (load(&m))
        for (uint32_t f = 0; f < m.n; f++) {
            bool from_fp = ty_is_float(cv[f].from);
            size_t nv = from_fp ? sizeof fvs / sizeof fvs[0] + 3 : sizeof uvs / sizeof uvs[0];
            for (size_t k = 0; k < nv; k++) {
                uint64_t in, want, out;
                double v = 0;
                if (from_fp && k >= sizeof fvs / sizeof fvs[0]) { /* NaN, +inf, -inf */
                    static const uint64_t d[] = { 0x7ff4000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull };
                    static const uint64_t s[] = { 0xffc00001ull, 0x7f800000ull, 0xff800000ull };
                    size_t j = k - sizeof fvs / sizeof fvs[0];
                    in = cv[f].from == TY_F32 ? s[j] : d[j];
                    v = cv[f].from == TY_F32 ? (double)bitsf(in) : bitsd(in);
                } else if (from_fp) {
                    v = fvs[k];
                    in = cv[f].from == TY_F32 ? fbits((float)v) : dbits(v);
                    v = cv[f].from == TY_F32 ? (double)bitsf(in) : v;
                } else {
                    in = uvs[k];
                }
                if (from_fp)
                    want = saturate_unsigned(v, cv[f].w);
                else
                    want = cv[f].to == TY_F32 ? fbits((float)in) : dbits((double)in);
                bool ran = call2(&m, f, cv[f].from, TY_I64, in, 0, cv[f].to, &out);
                CHECK(ran && out == want, "%s of 0x%llx: 0x%llx, expected 0x%llx", lir_op_name(cv[f].op),
                      (unsigned long long)in, (unsigned long long)out, (unsigned long long)want);
            }
        }
    mod_free(&m);
}

/* ---- calls, symbols, helpers, traps, swaps, lea ------------------------------------------------------ */
static CallInfo *call_info(Arena *a)
{
    CallInfo *ci = arena_alloc(a, sizeof *ci);
    ci->clobbers[BANK_GP] = a64_caller_saved_regs(BANK_GP) | 1u << 30;
    ci->clobbers[BANK_FP] = a64_caller_saved_regs(BANK_FP);
    return ci;
}

static void push_frame(Code *c, LirBlock *b)
{
    EMIT(c, b, Push, 1, X(30));
    EMIT(c, b, Push, 1, X(29));
    EMIT(c, b, Move, 2, arg_tmp(tmp_gp(A64_LIR_SP)), X(29));
}

static void pop_frame(Code *c, LirBlock *b)
{
    EMIT(c, b, Move, 2, X(29), arg_tmp(tmp_gp(A64_LIR_SP)));
    EMIT(c, b, Pop, 1, X(29));
    EMIT(c, b, Pop, 1, X(30));
}

static void test_calls(void)
{
    Mod m = mod_new();
    /* 0: f(a, b) = g(a, b) * 3 + h(a) where g is called by bl, h through a loaded symbol */
    Code *c = fn(&m);
    LirBlock *b = lir_add_block(c, 1);
    push_frame(c, b);
    EMIT(c, b, Push, 1, X(19));
    EMIT(c, b, Move, 2, X(0), X(19));
    lir_append(c, b, LIR_Call, 1, A(arg_symbol(TARGET_FUNC, 1, 0)))->call = call_info(m.arena);
    EMIT(c, b, Move, 2, arg_imm(3), X(1));
    EMIT(c, b, Mul64, 3, X(0), X(1), X(1));
    EMIT(c, b, Swap64, 2, X(1), X(19));           /* x19 = g * 3, x1 = a */
    EMIT(c, b, Move, 2, X(1), X(0));
    EMIT(c, b, Move, 2, arg_symbol(TARGET_FUNC, 2, 0), X(9));
    lir_append(c, b, LIR_Call, 1, A(X(9)))->call = call_info(m.arena);
    EMIT(c, b, Add64, 3, X(0), X(19), X(0));
    EMIT(c, b, Pop, 1, X(19));
    pop_frame(c, b);
    EMIT(c, b, Ret64, 1, X(0));
    /* 1: g(a, b) = a - b */
    c = fn(&m);
    b = lir_add_block(c, 1);
    EMIT(c, b, Sub64, 2, X(1), X(0));
    EMIT(c, b, Ret64, 1, X(0));
    /* 2: h(a) = lea 5(a, a, 4) = 5a + 5, as a 32-bit lea */
    c = fn(&m);
    b = lir_add_block(c, 1);
    EMIT(c, b, Lea32, 2, arg_index(tmp_gp(0), tmp_gp(0), 4, 5), X(0));
    EMIT(c, b, Ret32, 1, X(0));
    /* 3: fmod through the helper's literal */
    c = fn(&m);
    b = lir_add_block(c, 1);
    push_frame(c, b);
    lir_append(c, b, LIR_Call, 1, A(arg_symbol(TARGET_HELPER, HELPER_FMOD_F64, 0)))->call = call_info(m.arena);
    pop_frame(c, b);
    EMIT(c, b, RetDouble, 1, V(0));
    /* 4: throw the argument through a helper address in a register */
    c = fn(&m);
    b = lir_add_block(c, 1);
    push_frame(c, b);
    EMIT(c, b, Move, 2, arg_imm(TY_I32), X(1));
    EMIT(c, b, Move, 2, arg_symbol(TARGET_HELPER, HELPER_THROW, 0), X(2));
    lir_append(c, b, LIR_Call, 1, A(X(2)))->call = call_info(m.arena);
    EMIT(c, b, Ud2, 0);
    /* 5, 6: brk with a trap kind, and the default */
    c = fn(&m);
    b = lir_add_block(c, 1);
    lir_append(c, b, LIR_Ud2, 0, NULL)->trap = TRAP_OVERFLOW;
    c = fn(&m);
    b = lir_add_block(c, 1);
    EMIT(c, b, Ud2, 0);
    if (!load(&m)) {
        mod_free(&m);
        return;
    }
    static const int64_t as[] = { 0, 7, -3, 1000000007, INT32_MIN };
    for (size_t i = 0; i < 5; i++) {
        uint64_t out, a = (uint64_t)as[i], bb = (uint64_t)as[4 - i];
        uint64_t want = (a - bb) * 3 + (uint32_t)(5 * (uint32_t)a + 5);
        bool ran = call2(&m, 0, TY_I64, TY_I64, a, bb, TY_I64, &out);
        CHECK(ran && out == want, "calls %lld, %lld: 0x%llx, expected 0x%llx", (long long)a, (long long)bb,
              (unsigned long long)out, (unsigned long long)want);
    }
    uint64_t out;
    bool ran = call2(&m, 3, TY_F64, TY_F64, dbits(7.5), dbits(2.0), TY_F64, &out);
    CHECK(ran && out == dbits(1.5), "fmod helper: 0x%llx", (unsigned long long)out);
    static Outcome o;
    Type pt[1] = { TY_I32 };
    uint64_t arg = 0xfffffff9;
    run(&m, 4, pt, 1, &arg, TY_NONE, &o);
    CHECK(o.kind == OUT_THROW && o.bits == 0xfffffff9 && o.type == TY_I32, "throw helper: kind %u bits 0x%llx %s",
          o.kind, (unsigned long long)o.bits, o.reason);
    run(&m, 5, NULL, 0, NULL, TY_NONE, &o);
    CHECK(o.kind == OUT_TRAP && o.trap == TRAP_OVERFLOW, "brk overflow: kind %u trap %u %s", o.kind, o.trap, o.reason);
    run(&m, 6, NULL, 0, NULL, TY_NONE, &o);
    CHECK(o.kind == OUT_TRAP && o.trap == TRAP_ILLEGAL, "brk default: kind %u trap %u %s", o.kind, o.trap, o.reason);
    mod_free(&m);
}

/* ---- veneers ----------------------------------------------------------------------------------- */
/* f(x) = branch on x past `gap` bytes of nops: 1 if the condition holds, else 2 */
static void far_branch(Mod *m, LirOp op, Arg cond, Arg right, uint32_t gap)
{
    Code *c = fn(m);
    LirBlock *b0 = lir_add_block(c, 1), *b1 = lir_add_block(c, 1), *b2 = lir_add_block(c, 1);
    lir_append(c, b0, op, 3, A(cond, X(0), right));
    lir_add_succ(c, b0, 2);
    lir_add_succ(c, b0, 1);
    for (uint32_t i = 0; i < gap / 4; i++)
        EMIT(c, b1, Nop, 0);
    EMIT(c, b1, Move, 2, arg_imm(2), X(0));
    EMIT(c, b1, Ret64, 1, X(0));
    EMIT(c, b2, Move, 2, arg_imm(1), X(0));
    EMIT(c, b2, Ret64, 1, X(0));
}

static void test_veneers(void)
{
    Mod m = mod_new();
    far_branch(&m, LIR_BranchTest64, arg_rescond(RES_nonzero), arg_imm(1ll << 40), 40000);   /* tbnz */
    far_branch(&m, LIR_Branch32, arg_relcond(REL_eq), arg_imm(0), 1100000);                   /* cbz */
    far_branch(&m, LIR_Branch64, arg_relcond(REL_sgt), arg_imm(5), 1100000);                  /* b.gt */
    far_branch(&m, LIR_BranchTest64, arg_rescond(RES_zero), arg_imm(4), 100);                 /* near tbz */
    if (load(&m)) {
        static const uint64_t xs[] = { 0, 1, 4, 5, 6, 1ull << 40, (1ull << 40) | 4, ~0ull };
        for (uint32_t f = 0; f < m.n; f++)
            for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
                uint64_t x = xs[i], out;
                bool want = f == 0 ? (x >> 40) & 1 : f == 1 ? (uint32_t)x == 0 : f == 2 ? (int64_t)x > 5 : !(x & 4);
                static Outcome o;
                emu_call(m.emu, f, (Type[]){ TY_I64 }, 1, &x, TY_I64, 1000000, &o);
                out = o.bits;
                CHECK(o.kind == OUT_RETURN && out == (want ? 1u : 2u), "veneer %u on 0x%llx: %llu (%s)", f,
                      (unsigned long long)x, (unsigned long long)out, o.reason);
            }
    }
    mod_free(&m);
}

int main(void)
{
    test_conditions();
    test_shifts();
    test_divisions();
    test_alu();
    test_constants();
    test_memory();
    test_pairs();
    test_float();
    test_float_memory();
    test_conversions();
    test_unsigned_conversions();
    test_calls();
    test_veneers();
    printf("a64_target_exec: %d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
