/* x64_exec.c — what the fused compare forms mean, checked by running them: every
 * condition of Compare/Test/Branch/MoveConditionally at every width, and of the float
 * forms on NaN, zeros, infinities and ordinary values, is encoded with x64_emit, run
 * under Unicorn, and compared with C's comparison of the same operands (both branch
 * layouts: taken successor next, and not).  Also shift counts modulo the width and
 * the quotient/remainder registers of the divisions. */
#include "compiler/x64/x64.h"

#include <math.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "exec_util.h"

#define R(n) arg_tmp(tmp_gp(X64_##n))
#define X(n) arg_tmp(tmp_fp(n))

/* ---- a module of small functions --------------------------------------------------- */
typedef enum { K_CMP, K_TEST, K_DBL, K_FLT } Kind;
typedef enum { F_SET, F_BRANCH_TAKEN_NEXT, F_BRANCH_TAKEN_FAR, F_CMOV } Flavor;

typedef struct {
    Kind kind;
    Flavor flavor;
    unsigned width;  /* integer kinds */
    unsigned cond;
} Case;

enum { MAXCASES = 400 };

typedef struct {
    Arena *arena;
    Code *codes[MAXCASES + 8];
    Case cases[MAXCASES];
    uint32_t n;
} CaseModule;

static LirOp op_for(Kind k, Flavor f, unsigned w)
{
    static const LirOp cmp[4] = { LIR_Compare8, LIR_Compare16, LIR_Compare32, LIR_Compare64 };
    static const LirOp br[4] = { LIR_Branch8, LIR_Branch16, LIR_Branch32, LIR_Branch64 };
    unsigned wi = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3;
    bool branch = f == F_BRANCH_TAKEN_NEXT || f == F_BRANCH_TAKEN_FAR;
    switch (k) {
    case K_CMP:
        return f == F_SET ? cmp[wi] : branch ? br[wi] : w == 32 ? LIR_MoveConditionally32 : LIR_MoveConditionally64;
    case K_TEST:
        return f == F_SET ? (w == 32 ? LIR_Test32 : LIR_Test64)
               : branch  ? (w == 32 ? LIR_BranchTest32 : LIR_BranchTest64)
                         : (w == 32 ? LIR_MoveConditionallyTest32 : LIR_MoveConditionallyTest64);
    case K_DBL:
        return f == F_SET ? LIR_CompareDouble : branch ? LIR_BranchDouble : LIR_MoveConditionallyDouble;
    case K_FLT:
        return f == F_SET ? LIR_CompareFloat : branch ? LIR_BranchFloat : LIR_MoveConditionallyFloat;
    }
    return LIR_Nop;
}

static Arg cond_arg(Kind k, unsigned c)
{
    return k == K_CMP ? arg_relcond((RelCond)c) : k == K_TEST ? arg_rescond((ResCond)c)
                                                             : arg_doublecond((DoubleCond)c);
}

/* f(a, b) = a COND b ? 1 : 0, operands in rdi/rsi or xmm0/xmm1 */
static Code *build_case(CaseModule *m, const Case *cs)
{
    Code *c = lir_code_new(m->arena, x64_target(), "case", m->n);
    bool fp = cs->kind == K_DBL || cs->kind == K_FLT;
    Arg l = fp ? X(0) : R(RDI), r = fp ? X(1) : R(RSI), cond = cond_arg(cs->kind, cs->cond);
    LirOp op = op_for(cs->kind, cs->flavor, cs->width);
    LirBlock *b0 = lir_add_block(c, 1);
    if (cs->flavor == F_SET) {
        lir_append(c, b0, op, 4, (Arg[]){ cond, l, r, R(RAX) });
        lir_append(c, b0, LIR_Ret32, 1, (Arg[]){ R(RAX) });
    } else if (cs->flavor == F_CMOV) {
        lir_append(c, b0, LIR_Move, 2, (Arg[]){ arg_imm(0), R(RAX) });
        lir_append(c, b0, LIR_Move, 2, (Arg[]){ arg_imm(1), R(RDX) });
        lir_append(c, b0, op, 5, (Arg[]){ cond, l, r, R(RDX), R(RAX) });
        lir_append(c, b0, LIR_Ret64, 1, (Arg[]){ R(RAX) });
    } else {
        LirBlock *b1 = lir_add_block(c, 1), *b2 = lir_add_block(c, 1);
        bool next = cs->flavor == F_BRANCH_TAKEN_NEXT;
        lir_append(c, b0, op, 3, (Arg[]){ cond, l, r });
        lir_add_succ(c, b0, next ? 1 : 2);
        lir_add_succ(c, b0, next ? 2 : 1);
        lir_append(c, b1, LIR_Move32, 2, (Arg[]){ arg_imm(next ? 1 : 0), R(RAX) });
        lir_append(c, b1, LIR_Ret32, 1, (Arg[]){ R(RAX) });
        lir_append(c, b2, LIR_Move32, 2, (Arg[]){ arg_imm(next ? 0 : 1), R(RAX) });
        lir_append(c, b2, LIR_Ret32, 1, (Arg[]){ R(RAX) });
    }
    return c;
}

static void add_case(CaseModule *m, Kind k, Flavor f, unsigned w, unsigned cond)
{
    if (m->n >= MAXCASES)
        return;
    Arg a = cond_arg(k, cond);
    if (x64_cond_code(&a) < 0)
        return; /* not one x86 flag test: the forms refuse it */
    Case cs = { k, f, w, cond };
    m->cases[m->n] = cs;
    m->codes[m->n] = build_case(m, &cs);
    m->n++;
}

static void add_cases(CaseModule *m)
{
    static const unsigned widths[4] = { 8, 16, 32, 64 };
    for (int f = F_SET; f <= F_CMOV; f++) {
        for (unsigned wi = 0; wi < 4; wi++)
            for (unsigned c = 0; c < REL_COUNT; c++)
                if (f != F_CMOV || widths[wi] >= 32)
                    add_case(m, K_CMP, (Flavor)f, widths[wi], c);
        for (unsigned w = 32; w <= 64; w += 32)
            for (unsigned c = 0; c < RES_COUNT; c++)
                add_case(m, K_TEST, (Flavor)f, w, c);
        for (unsigned c = 0; c < DBL_COUNT; c++) {
            add_case(m, K_DBL, (Flavor)f, 64, c);
            add_case(m, K_FLT, (Flavor)f, 32, c);
        }
    }
}

/* ---- references ---------------------------------------------------------------------------- */
static uint64_t mask(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static int64_t sext(uint64_t v, unsigned w) { return w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w); }

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
    case REL_sle: return sa <= sb;
    default: return false;
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
    case RES_overflow: return false;      /* test clears OF */
    case RES_notoverflow: return true;
    default: return false;
    }
}

/* ---- running ------------------------------------------------------------------------------ */
enum { CODE_ADDR = 0x400000, STACK_ADDR = 0x700000, STACK_SIZE = 0x10000, SENTINEL = 0x200000 };

typedef struct {
    uc_engine *uc;
    const CodeBlob *blob;
} Machine;

static bool machine_load(Machine *mc, const CodeBlob *blob)
{
    if (uc_open(UC_ARCH_X86, UC_MODE_64, &mc->uc) != UC_ERR_OK)
        return false;
    uint32_t size = (blob->size + 0xfff) & ~0xfffu;
    uc_mem_map(mc->uc, CODE_ADDR, size, UC_PROT_READ | UC_PROT_EXEC);
    uc_mem_write(mc->uc, CODE_ADDR, blob->code, blob->size);
    uc_mem_map(mc->uc, STACK_ADDR, STACK_SIZE, UC_PROT_READ | UC_PROT_WRITE);
    uc_mem_map(mc->uc, SENTINEL, 0x1000, UC_PROT_READ | UC_PROT_EXEC);
    mc->blob = blob;
    return true;
}

/* call f with rdi, rsi, rdx and xmm0, xmm1 set; rax and rdx after the call */
static bool machine_call(Machine *mc, uint32_t f, const uint64_t gp[3], const uint64_t xmm[2], uint64_t out[2])
{
    uint64_t sp = STACK_ADDR + STACK_SIZE - 64, sentinel = SENTINEL, zero = 0;
    uc_mem_write(mc->uc, sp, &sentinel, 8);
    uc_reg_write(mc->uc, UC_X86_REG_RSP, &sp);
    uc_reg_write(mc->uc, UC_X86_REG_RAX, &zero);
    uc_reg_write(mc->uc, UC_X86_REG_RDI, &gp[0]);
    uc_reg_write(mc->uc, UC_X86_REG_RSI, &gp[1]);
    uc_reg_write(mc->uc, UC_X86_REG_RDX, &gp[2]);
    uint64_t x0[2] = { xmm[0], 0 }, x1[2] = { xmm[1], 0 };
    uc_reg_write(mc->uc, UC_X86_REG_XMM0, x0);
    uc_reg_write(mc->uc, UC_X86_REG_XMM1, x1);
    uc_err err = uc_emu_start(mc->uc, CODE_ADDR + mc->blob->entry[f], SENTINEL, 0, 10000);
    uc_reg_read(mc->uc, UC_X86_REG_RAX, &out[0]);
    uc_reg_read(mc->uc, UC_X86_REG_RDX, &out[1]);
    return err == UC_ERR_OK;
}

static const char *flavor_name(Flavor f)
{
    static const char *const names[] = { "set", "branch (taken next)", "branch (taken far)", "cmov" };
    return names[f];
}

static void run_int_case(Machine *mc, uint32_t f, const Case *cs)
{
    static const uint64_t vals[] = {
        0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
        0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0x123456789abcdef0ull,
        0xfedcba9876543280ull,
    };
    size_t nv = sizeof vals / sizeof vals[0];
    for (size_t i = 0; i < nv; i++)
        for (size_t j = 0; j < nv; j++) {
            uint64_t out[2], gp[3] = { vals[i], vals[j], 0 }, xmm[2] = { 0, 0 };
            bool want = cs->kind == K_CMP ? rel_ref(cs->cond, cs->width, vals[i], vals[j])
                                          : res_ref(cs->cond, cs->width, vals[i], vals[j]);
            bool ran = machine_call(mc, f, gp, xmm, out);
            Arg c = cond_arg(cs->kind, cs->cond);
            CHECK(ran && out[0] == (uint64_t)want, "%s %s%u %s: 0x%llx, 0x%llx gave %llu, expected %d",
                  flavor_name(cs->flavor), cs->kind == K_CMP ? "compare" : "test", cs->width,
                  lir_cond_name((ArgKind)c.kind, c.cond), (unsigned long long)vals[i],
                  (unsigned long long)vals[j], (unsigned long long)out[0], want);
        }
}

static uint64_t fp_bits(double v, bool single)
{
    uint64_t bits = 0;
    if (single) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        bits = b;
    } else {
        memcpy(&bits, &v, 8);
    }
    return bits;
}

static void run_fp_case(Machine *mc, uint32_t f, const Case *cs)
{
    static const double vals[] = { 0.0, -0.0, 1.0, -1.0, 1.5, 1e300, -1e-300, INFINITY, -INFINITY, NAN };
    size_t nv = sizeof vals / sizeof vals[0];
    bool single = cs->kind == K_FLT;
    for (size_t i = 0; i < nv; i++)
        for (size_t j = 0; j < nv; j++) {
            double a = single ? (double)(float)vals[i] : vals[i], b = single ? (double)(float)vals[j] : vals[j];
            uint64_t out[2], gp[3] = { 0, 0, 0 }, xmm[2] = { fp_bits(vals[i], single), fp_bits(vals[j], single) };
            bool want = dbl_ref(cs->cond, a, b);
            bool ran = machine_call(mc, f, gp, xmm, out);
            CHECK(ran && out[0] == (uint64_t)want, "%s %s %s: %g, %g gave %llu, expected %d",
                  flavor_name(cs->flavor), single ? "float" : "double",
                  lir_cond_name(ARG_DOUBLECOND, cs->cond), a, b, (unsigned long long)out[0], want);
        }
}

static void test_conditions(void)
{
    CaseModule m = { .arena = arena_new() };
    add_cases(&m);
    CodeBlob blob;
    char err[256];
    if (!x64_emit(m.arena, m.codes, m.n, &blob, err, sizeof err)) {
        CHECK(false, "x64_emit: %s", err);
        arena_free(m.arena);
        return;
    }
    Machine mc;
    if (machine_load(&mc, &blob)) {
        for (uint32_t f = 0; f < m.n; f++) {
            if (m.cases[f].kind == K_CMP || m.cases[f].kind == K_TEST)
                run_int_case(&mc, f, &m.cases[f]);
            else
                run_fp_case(&mc, f, &m.cases[f]);
        }
        uc_close(mc.uc);
    } else {
        CHECK(false, "unicorn");
    }
    printf("conditions: %u functions run\n", m.n);
    arena_free(m.arena);
}

/* ---- shifts and divisions ----------------------------------------------------------------- */
static void test_shifts_and_divisions(void)
{
    Arena *a = arena_new();
    static const LirOp shifts[6] = { LIR_Lshift32, LIR_Lshift64, LIR_Rshift32, LIR_Rshift64,
                                     LIR_Urshift32, LIR_Urshift64 };
    static const LirOp divs[4] = { LIR_X86Div32, LIR_X86IDiv32, LIR_X86Div64, LIR_X86IDiv64 };
    Code *codes[10];
    for (int i = 0; i < 6; i++) {   /* f(x, n) = x SHIFT (n in cl) */
        Code *c = codes[i] = lir_code_new(a, x64_target(), "shift", (uint32_t)i);
        LirBlock *b = lir_add_block(c, 1);
        lir_append(c, b, LIR_Move, 2, (Arg[]){ R(RSI), R(RCX) });
        lir_append(c, b, LIR_Move, 2, (Arg[]){ R(RDI), R(RAX) });
        lir_append(c, b, shifts[i], 2, (Arg[]){ R(RCX), R(RAX) });
        lir_append(c, b, LIR_Ret64, 1, (Arg[]){ R(RAX) });
    }
    for (int i = 0; i < 4; i++) {   /* f(x, d) = (x / d, x % d) in rax, rdx */
        bool is64 = i >= 2, is_signed = i % 2;
        Code *c = codes[6 + i] = lir_code_new(a, x64_target(), "div", (uint32_t)(6 + i));
        LirBlock *b = lir_add_block(c, 1);
        lir_append(c, b, LIR_Move, 2, (Arg[]){ R(RDI), R(RAX) });
        if (is_signed)
            lir_append(c, b, is64 ? LIR_X86ConvertToQuadWord64 : LIR_X86ConvertToDoubleWord32, 2,
                       (Arg[]){ R(RAX), R(RDX) });
        else
            lir_append(c, b, LIR_Xor32, 2, (Arg[]){ R(RDX), R(RDX) });
        lir_append(c, b, divs[i], 3, (Arg[]){ R(RAX), R(RDX), R(RSI) });
        lir_append(c, b, LIR_Ret64, 1, (Arg[]){ R(RAX) });
    }
    CodeBlob blob;
    char err[256];
    Machine mc;
    if (!x64_emit(a, codes, 10, &blob, err, sizeof err) || !machine_load(&mc, &blob)) {
        CHECK(false, "shift/div module: %s", err);
        arena_free(a);
        return;
    }
    static const uint64_t xs[] = { 1, 0x80000001ull, 0xfedcba9876543210ull, 0x8000000000000000ull, 12345 };
    for (int i = 0; i < 6; i++)
        for (size_t k = 0; k < 5; k++)
            for (uint64_t n = 0; n < 70; n += 3) {
                uint64_t out[2], gp[3] = { xs[k], n, 0 }, xmm[2] = { 0, 0 };
                bool is64 = i % 2;
                unsigned w = is64 ? 64 : 32, s = (unsigned)(n % w);
                uint64_t x = xs[k] & mask(w), want;
                if (i < 2)
                    want = (x << s) & mask(w);
                else if (i < 4)
                    want = (uint64_t)(sext(x, w) >> s) & mask(w);
                else
                    want = x >> s;
                bool ran = machine_call(&mc, (uint32_t)i, gp, xmm, out);
                CHECK(ran && out[0] == want, "%s 0x%llx by %llu: 0x%llx, expected 0x%llx",
                      lir_op_name(shifts[i]), (unsigned long long)xs[k], (unsigned long long)n,
                      (unsigned long long)out[0], (unsigned long long)want);
            }
    static const int64_t ds[] = { 1, -1, 3, -7, 1000003, INT32_MAX };
    static const int64_t ns[] = { 0, 1, -1, 100, -100, INT32_MIN + 1, INT64_MAX, INT64_MIN + 5 };
    for (int i = 0; i < 4; i++)
        for (size_t p = 0; p < 8; p++)
            for (size_t q = 0; q < 6; q++) {
                bool is64 = i >= 2, is_signed = i % 2;
                unsigned w = is64 ? 64 : 32;
                uint64_t x = (uint64_t)ns[p] & mask(w), d = (uint64_t)ds[q] & mask(w), qt, rm;
                if (is_signed) {
                    int64_t sx = sext(x, w), sd = sext(d, w);
                    qt = (uint64_t)(sx / sd) & mask(w);
                    rm = (uint64_t)(sx % sd) & mask(w);
                } else {
                    qt = x / d;
                    rm = x % d;
                }
                uint64_t out[2], gp[3] = { x, d, 0 }, xmm[2] = { 0, 0 };
                bool ran = machine_call(&mc, (uint32_t)(6 + i), gp, xmm, out);
                CHECK(ran && (out[0] & mask(w)) == qt && (out[1] & mask(w)) == rm,
                      "%s %lld / %lld: %llx rem %llx, expected %llx rem %llx", lir_op_name(divs[i]),
                      (long long)ns[p], (long long)ds[q], (unsigned long long)out[0],
                      (unsigned long long)out[1], (unsigned long long)qt, (unsigned long long)rm);
            }
    uc_close(mc.uc);
    arena_free(a);
}

int main(void)
{
    test_conditions();
    test_shifts_and_divisions();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
