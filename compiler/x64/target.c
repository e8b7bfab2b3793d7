/* target.c — the x86-64 Target: the forms table (forms.def), register names,
 * the value rules the forms' kinds cannot express, condition codes, and the
 * descriptor that ties selection, frame, emit, encoder and listing together. */
#include "x64.h"
#include "x64_internal.h"
#include "cov.h"

#include "compiler/lir/form_table.h"

#include <capstone/capstone.h>

/* the fixed registers forms.def names */
#define RAX FIXED(X64_RAX)
#define RCX FIXED(X64_RCX)
#define RDX FIXED(X64_RDX)
#define R0 FIXED(0)

static const LirForm x64_forms[] = {
#include "forms.def"
};

static const char *const gp_names[X64_NREGS] = {
    "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
static const char *const fp_names[X64_NREGS] = {
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
    "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
};

int x64_cond_code(const Arg *c)
{
    static const int8_t rel[REL_COUNT] = {
        [REL_eq] = 0x4, [REL_ne] = 0x5, [REL_ugt] = 0x7, [REL_uge] = 0x3, [REL_ult] = 0x2,
        [REL_ule] = 0x6, [REL_sgt] = 0xf, [REL_sge] = 0xd, [REL_slt] = 0xc, [REL_sle] = 0xe,
    };
    static const int8_t res[RES_COUNT] = {
        [RES_zero] = 0x4, [RES_nonzero] = 0x5, [RES_signed] = 0x8, [RES_notsigned] = 0x9,
        [RES_overflow] = 0x0, [RES_notoverflow] = 0x1,
    };
    /* after ucomis: unordered sets ZF, PF and CF; oeq and une need two tests */
    static const int8_t dbl[DBL_COUNT] = {
        [DBL_oeq] = -1, [DBL_one] = 0x5, [DBL_ogt] = 0x7, [DBL_oge] = 0x3, [DBL_olt] = -1,
        [DBL_ole] = -1, [DBL_ueq] = 0x4, [DBL_une] = -1, [DBL_ugt] = -1, [DBL_uge] = -1,
        [DBL_ult] = 0x2, [DBL_ule] = 0x6, [DBL_ord] = 0xb, [DBL_uno] = 0xa,
    };
    if (c->kind == ARG_RELCOND && c->cond < REL_COUNT)
        return rel[c->cond];
    if (c->kind == ARG_RESCOND && c->cond < RES_COUNT)
        return res[c->cond];
    if (c->kind == ARG_DOUBLECOND && c->cond < DBL_COUNT)
        return dbl[c->cond];
    return -1;
}

static bool fits_int32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* an immediate of an operation of width w: x86 sign-extends imm32 to 64 bits */
static bool imm_fits(unsigned w, int64_t v)
{
    switch (w) {
    case 8: return v >= INT8_MIN && v <= UINT8_MAX;
    case 16: return v >= INT16_MIN && v <= UINT16_MAX;
    case 32: return v >= INT32_MIN && v <= (int64_t)UINT32_MAX;
    default: return fits_int32(v);
    }
}

static bool reg_ok(Tmp t) { return !tmp_is_reg(t) || tmp_reg_number(t) < X64_NREGS; }

static bool x64_arg_ok(const LirForm *f, unsigned i, const Arg *a)
{
    (void)i;
    switch ((ArgKind)a->kind) {
    case ARG_IMM:
        if (f->enc == X64E_SHIFT)
            return a->value >= 0 && a->value <= 255;
        return imm_fits(f->width, a->value);
    case ARG_STACK: case ARG_CALLARG:
        return fits_int32(a->value);
    case ARG_ADDR:
        return fits_int32(a->value) && reg_ok(a->base);
    case ARG_INDEX:
        return reg_ok(a->base) && reg_ok(a->index) &&
               !(tmp_is_reg(a->index) && tmp_reg_number(a->index) == X64_RSP);
    case ARG_RELCOND: case ARG_RESCOND: case ARG_DOUBLECOND:
        return x64_cond_code(a) >= 0;
    case ARG_SYMBOL: /* a call of a module function with an addend goes through a register */
        return f->enc != X64E_CALL || a->sym_kind == TARGET_HELPER || a->value == 0;
    case ARG_TMP:
        return reg_ok(a->base);
    default:
        return true;
    }
}

/* registers for the allocator: everything but %rsp and %rbp (the frame base);
 * caller-saved registers free of fixed roles first, then those that divisions,
 * shifts, calls and returns name, then the callee-saved ones (SysV) */
static const uint8_t gp_order[] = {
    X64_R10, X64_R11, X64_R8, X64_R9, X64_RSI, X64_RDI, X64_RDX, X64_RCX, X64_RAX,
    X64_RBX, X64_R12, X64_R13, X64_R14, X64_R15,
};
static const uint8_t fp_order[] = { 8, 9, 10, 11, 12, 13, 14, 15, 7, 6, 5, 4, 3, 2, 1, 0 };
#define BIT(r) (1ull << (r))

static const char *const cov_names[X64COV_COUNT] = {
#define X(id, name) name,
#include "cov.def"
#undef X
};

static const CovUnreached unreached[] = {
#define U(kind, pattern, reason) {kind, pattern, reason},
#include "unreached.def"
#undef U
};
_Static_assert(sizeof x64_forms / sizeof x64_forms[0] <= MCOV_MAX_FORMS, "forms exceed MCOV_MAX_FORMS");

/* every field the CPU levels share */
#define X64_TARGET_COMMON \
    .name = "x86-64", \
    .isa = ISA_X64, \
    .forms = x64_forms, \
    .nforms = sizeof x64_forms / sizeof x64_forms[0], \
    .nregs = { X64_NREGS, X64_NREGS }, \
    .reg_names = { gp_names, fp_names }, \
    .allocatable = { 0xffffull & ~(BIT(X64_RSP) | BIT(X64_RBP)), 0xffffull }, \
    .callee_saved = { BIT(X64_RBX) | BIT(X64_RBP) | BIT(X64_R12) | BIT(X64_R13) | \
                      BIT(X64_R14) | BIT(X64_R15), 0 }, \
    .alloc_order = { gp_order, fp_order }, \
    .nalloc_order = { sizeof gp_order, sizeof fp_order }, \
    .frame_base = 1 + X64_RBP,    /* tmp_gp(X64_RBP) */ \
    .stack_pointer = 1 + X64_RSP, /* tmp_gp(X64_RSP) */ \
    .arg_ok = x64_arg_ok, \
    .isel = &x64_isel_hooks, \
    .finish_frame = x64_finish_frame, \
    .emit = x64_emit, \
    .encode_inst = x64_encode_inst, \
    .listing = x64_listing, \
    .disasm = { CS_ARCH_X86, CS_MODE_64, x64_cs_reg }, \
    .obj = &x64_obj_format, \
    .cov_names = cov_names, \
    .unreached = unreached, \
    .nunreached = sizeof unreached / sizeof unreached[0], \
    .ncov = X64COV_COUNT,

static const Target x64, x64_v3;
static const Target *const x64_levels[] = { &x64, &x64_v3 };

/* the baseline: SSE2 (every x86-64 CPU) */
static const Target x64 = {
    X64_TARGET_COMMON
    .cpu = "baseline",
    .levels = x64_levels, .nlevels = 2, .level = 0,
};

/* x86-64-v3's integer and rounding instructions: SSE4.1 (roundss/roundsd), POPCNT,
 * LZCNT, BMI1 (tzcnt) and BMI2 (Haswell and later) */
static const Target x64_v3 = {
    X64_TARGET_COMMON
    .cpu = "v3",
    .features = X64F_SSE41 | X64F_POPCNT | X64F_LZCNT | X64F_BMI1 | X64F_BMI2,
    .levels = x64_levels, .nlevels = 2, .level = 1,
};

const Target *x64_target(void) { return &x64; }
