/* target.c — the ARM64 Target: the forms table (forms.def), register names, the
 * register file (allocatable, callee-saved), condition codes, and the value rules
 * the forms' kinds cannot express: encodable immediates, where sp may appear, the
 * emitter's scratch registers (x16, x17) never named by LIR; and the descriptor
 * that ties selection, frame, emit and listing together. */
#include "a64.h"
#include "a64_internal.h"
#include "cov.h"

#include "compiler/lir/form_table.h"

#include <capstone/capstone.h>

/* the fixed registers forms.def names */
#define X0 FIXED(0)
#define X1 FIXED(1)
#define V0 FIXED(0)

static const LirForm a64_forms[] = {
#include "forms.def"
};

static const char *const gp_names[A64_LIR_NREGS] = {
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
    "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24",
    "x25", "x26", "x27", "x28", "x29", "x30", "sp",
};
static const char *const fp_names[A64_LIR_NREGS] = {
    "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
    "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
    "v25", "v26", "v27", "v28", "v29", "v30", "v31",
};

static const Target a64;

uint64_t a64_allocatable_regs(Bank b) { return a64.allocatable[b]; }
uint64_t a64_callee_saved_regs(Bank b) { return a64.callee_saved[b]; }

uint64_t a64_caller_saved_regs(Bank b)
{
    return a64_allocatable_regs(b) & ~a64_callee_saved_regs(b);
}

bool a64_cond_codes(const Arg *c, A64Cond *first, A64Cond *second)
{
    static const uint8_t rel[REL_COUNT] = {
        [REL_eq] = A64_EQ, [REL_ne] = A64_NE, [REL_ugt] = A64_HI, [REL_uge] = A64_HS,
        [REL_ult] = A64_LO, [REL_ule] = A64_LS, [REL_sgt] = A64_GT, [REL_sge] = A64_GE,
        [REL_slt] = A64_LT, [REL_sle] = A64_LE,
    };
    static const uint8_t res[RES_COUNT] = {
        [RES_zero] = A64_EQ, [RES_nonzero] = A64_NE, [RES_signed] = A64_MI,
        [RES_notsigned] = A64_PL, [RES_overflow] = A64_VS, [RES_notoverflow] = A64_VC,
    };
    /* after fcmp: less 1000, equal 0110, greater 0010, unordered 0011 (NZCV) */
    static const uint8_t dbl[DBL_COUNT][2] = {
        [DBL_oeq] = { A64_EQ, A64_AL }, [DBL_one] = { A64_MI, A64_GT },
        [DBL_ogt] = { A64_GT, A64_AL }, [DBL_oge] = { A64_GE, A64_AL },
        [DBL_olt] = { A64_MI, A64_AL }, [DBL_ole] = { A64_LS, A64_AL },
        [DBL_ueq] = { A64_EQ, A64_VS }, [DBL_une] = { A64_NE, A64_AL },
        [DBL_ugt] = { A64_HI, A64_AL }, [DBL_uge] = { A64_PL, A64_AL },
        [DBL_ult] = { A64_LT, A64_AL }, [DBL_ule] = { A64_LE, A64_AL },
        [DBL_ord] = { A64_VC, A64_AL }, [DBL_uno] = { A64_VS, A64_AL },
    };
    *second = A64_AL;
    if (c->kind == ARG_RELCOND && c->cond < REL_COUNT)
        *first = (A64Cond)rel[c->cond];
    else if (c->kind == ARG_RESCOND && c->cond < RES_COUNT)
        *first = (A64Cond)res[c->cond];
    else if (c->kind == ARG_DOUBLECOND && c->cond < DBL_COUNT) {
        *first = (A64Cond)dbl[c->cond][0];
        *second = (A64Cond)dbl[c->cond][1];
    } else
        return false;
    return true;
}

static bool fits_int32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }
static bool fits_32(int64_t v) { return v >= INT32_MIN && v <= (int64_t)UINT32_MAX; }

/* the immediate of an add/sub (or compare) of width w: itself or its negation */
static bool addsub_ok(unsigned w, int64_t v)
{
    if (w == 64)
        return a64_addsub_imm_ok((uint64_t)v) || a64_addsub_imm_ok(-(uint64_t)v);
    if (!fits_32(v))
        return false;
    uint32_t u = (uint32_t)v;
    return a64_addsub_imm_ok(u) || a64_addsub_imm_ok((uint32_t)-u);
}

static bool logical_ok(unsigned w, int64_t v)
{
    uint32_t enc;
    if (w == 64)
        return a64_logical_imm((uint64_t)v, 1, &enc);
    return fits_32(v) && a64_logical_imm((uint32_t)v, 0, &enc);
}

static bool imm_ok(const LirForm *f, unsigned i, int64_t v)
{
    switch ((A64Encoding)f->enc) {
    case A64E_PAIR: /* xzr */
        return v == 0;
    case A64E_MOV:
        switch (f->width) {
        case 8: return v >= INT8_MIN && v <= UINT8_MAX;
        case 16: return v >= INT16_MIN && v <= UINT16_MAX;
        case 32: return fits_32(v);
        default: return true;
        }
    case A64E_SHIFT:
        return v >= 0 && v <= 255;
    case A64E_BITFIELD: /* lsb, then width (ubfx takes at most the bits above lsb) */
        return i == 0 ? v >= 0 && v < f->width : v >= 1 && v <= f->width;
    case A64E_ALU:
        if (f->param == A64_ALU_ADD || f->param == A64_ALU_SUB)
            return addsub_ok(f->width, v);
        return logical_ok(f->width, v);
    case A64E_CMPSET: case A64E_CSEL: case A64E_BRANCH:
        if (f->param == A64_TEST)
            return logical_ok(f->width, v);
        return addsub_ok(f->width, v);
    default:
        return false;
    }
}

/* where the GP register number 31 (sp) can be encoded */
static bool sp_ok(const LirForm *f, unsigned i)
{
    switch ((A64Encoding)f->enc) {
    case A64E_MOV:
        return f->width == 64 && f->args[0].kinds == FK_TMP && f->args[1].kinds == FK_TMP;
    case A64E_ALU:
        /* add/sub: the destination and the left operand, not the right one */
        if ((f->param != A64_ALU_ADD && f->param != A64_ALU_SUB) || f->width != 64)
            return false;
        return f->nargs == 3 ? i != 1 : i == 1;
    default:
        return false;
    }
}

static bool gp_reg_ok(Tmp t)
{
    if (!tmp_is_reg(t))
        return true;
    unsigned r = tmp_reg_number(t);
    return r < A64_LIR_NREGS && r != A64_SCRATCH0 && r != A64_SCRATCH1;
}

static bool tmp_ok(const LirForm *f, unsigned i, Tmp t)
{
    const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
    if (!tmp_is_reg(t))
        return true;
    if (o && o->args[i].bank == BANK_FP)
        return tmp_reg_number(t) < A64_LIR_NREGS && tmp_reg_number(t) != A64_FP_SCRATCH;
    if (!gp_reg_ok(t))
        return false;
    return tmp_reg_number(t) != A64_LIR_SP || sp_ok(f, i);
}

static bool a64_arg_ok(const LirForm *f, unsigned i, const Arg *a)
{
    A64Cond c1, c2;
    switch ((ArgKind)a->kind) {
    case ARG_TMP:
        return tmp_ok(f, i, a->base);
    case ARG_IMM:
        return imm_ok(f, i, a->value);
    case ARG_STACK: case ARG_CALLARG:
        return fits_int32(a->value);
    case ARG_ADDR:
        return fits_int32(a->value) && gp_reg_ok(a->base);
    case ARG_INDEX:
        return gp_reg_ok(a->base) && gp_reg_ok(a->index) &&
               !(tmp_is_reg(a->index) && tmp_reg_number(a->index) == A64_LIR_SP);
    case ARG_RELCOND: case ARG_RESCOND: case ARG_DOUBLECOND:
        return a64_cond_codes(a, &c1, &c2);
    default:
        return true;
    }
}

/* caller-saved temporaries first (x9-x15, then the argument registers from x8
 * down), then the callee-saved ones; FP likewise (v16-v30, v0-v7, v8-v15) */
static const uint8_t gp_order[] = {
    9, 10, 11, 12, 13, 14, 15, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
};
static const uint8_t fp_order[] = {
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    7, 6, 5, 4, 3, 2, 1, 0, 8, 9, 10, 11, 12, 13, 14, 15,
};

static const char *const cov_names[A64COV_COUNT] = {
#define X(id, name) name,
#include "cov.def"
#undef X
};

static const CovUnreached unreached[] = {
#define U(kind, pattern, reason) {kind, pattern, reason},
#include "unreached.def"
#undef U
};
_Static_assert(sizeof a64_forms / sizeof a64_forms[0] <= MCOV_MAX_FORMS, "forms exceed MCOV_MAX_FORMS");

static const Target a64;
static const Target *const a64_levels[] = { &a64 };

/* ARMv8.0-A with Advanced SIMD: the one level (no later extension is used) */
static const Target a64 = {
    .name = "arm64",
    .cpu = "baseline",
    .levels = a64_levels, .nlevels = 1, .level = 0,
    .isa = ISA_A64,
    .forms = a64_forms,
    .nforms = sizeof a64_forms / sizeof a64_forms[0],
    .nregs = { A64_LIR_NREGS, A64_LIR_NREGS },
    .reg_names = { gp_names, fp_names },
    .allocatable = { 0xffffull | (0x3ffull << 19), 0x7fffffffull },
    .callee_saved = { 0x3ffull << 19, 0xff00ull },
    .alloc_order = { gp_order, fp_order },
    .nalloc_order = { sizeof gp_order, sizeof fp_order },
    .frame_base = 1 + A64_FP,          /* tmp_gp(x29) */
    .stack_pointer = 1 + A64_LIR_SP,   /* tmp_gp(sp) */
    .arg_ok = a64_arg_ok,
    .isel = &a64_isel_hooks,
    .finish_frame = a64_finish_frame,
    .emit = a64_emit,
    .encode_inst = a64_encode_inst,
    .listing = a64_listing,
    .disasm = { CS_ARCH_ARM64, CS_MODE_ARM, a64_cs_reg },
    .obj = &a64_obj_format,
    .cov_names = cov_names,
    .unreached = unreached,
    .nunreached = sizeof unreached / sizeof unreached[0],
    .ncov = A64COV_COUNT,
};

const Target *a64_target(void) { return &a64; }
