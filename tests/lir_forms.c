/* lir_forms.c — LIR unit tests: the overload table (roles, banks, widths reported by
 * lir_for_each_arg / lir_for_each_tmp), the x86-64 forms table (sorted, every row an
 * existing overload), lir_is_valid_form accepting and rejecting the right forms, the
 * condition helpers, and the printed syntax. */
#include "compiler/x64/x64.h"

#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

/* ---- for_each_arg ------------------------------------------------------------------ */
typedef struct {
    Arg *arg;
    Role role;
    Bank bank;
    Width width;
} Seen;

typedef struct {
    Seen seen[16];
    int n;
} Seen16;

static void record(void *ctx, Arg *a, Role role, Bank bank, Width width)
{
    Seen16 *s = ctx;
    if (s->n < 16)
        s->seen[s->n++] = (Seen){ a, role, bank, width };
}

static void expect_args(const char *what, Inst *in, int n, const Role *roles, const Bank *banks,
                        const Width *widths)
{
    Seen16 s = { .n = 0 };
    bool ok = lir_for_each_arg(in, record, &s);
    CHECK(ok, "%s: no overload", what);
    CHECK(s.n == n, "%s: %d args reported, expected %d", what, s.n, n);
    for (int i = 0; i < n && i < s.n; i++) {
        CHECK(s.seen[i].role == roles[i], "%s arg %d: role %s, expected %s", what, i,
              role_name(s.seen[i].role), role_name(roles[i]));
        CHECK(s.seen[i].bank == banks[i], "%s arg %d: bank %s", what, i, bank_name(s.seen[i].bank));
        CHECK(s.seen[i].width == widths[i], "%s arg %d: width %u, expected %u", what, i,
              s.seen[i].width, widths[i]);
        if (i < in->nargs)
            CHECK(s.seen[i].arg == &in->args[i], "%s arg %d: not the instruction's own arg", what, i);
    }
}

static void test_for_each_arg(void)
{
    Inst add = lir_inst(LIR_Add32, 2, (Arg[]){ arg_imm(5), arg_tmp(tmp_virtual(BANK_GP, 1)) });
    expect_args("Add32 imm, tmp", &add, 2, (Role[]){ ROLE_USE, ROLE_USE_ZDEF },
                (Bank[]){ BANK_GP, BANK_GP }, (Width[]){ 32, 32 });

    Inst add64 = lir_inst(LIR_Add64, 2, (Arg[]){ arg_addr(tmp_gp(X64_RAX), 8), arg_tmp(tmp_gp(X64_RCX)) });
    expect_args("Add64 addr, reg", &add64, 2, (Role[]){ ROLE_USE, ROLE_USE_DEF },
                (Bank[]){ BANK_GP, BANK_GP }, (Width[]){ 64, 64 });

    Inst mov32 = lir_inst(LIR_Move32, 2, (Arg[]){ arg_tmp(tmp_gp(0)), arg_tmp(tmp_gp(1)) });
    expect_args("Move32", &mov32, 2, (Role[]){ ROLE_USE, ROLE_ZDEF }, (Bank[]){ BANK_GP, BANK_GP },
                (Width[]){ 32, 32 });

    Inst zx = lir_inst(LIR_ZeroExtend8To32, 2, (Arg[]){ arg_addr(tmp_gp(0), 0), arg_tmp(tmp_gp(1)) });
    expect_args("ZeroExtend8To32", &zx, 2, (Role[]){ ROLE_USE, ROLE_ZDEF },
                (Bank[]){ BANK_GP, BANK_GP }, (Width[]){ 8, 32 });

    Inst lea = lir_inst(LIR_Lea64, 2, (Arg[]){ arg_addr(tmp_gp(0), 16), arg_tmp(tmp_gp(1)) });
    expect_args("Lea64", &lea, 2, (Role[]){ ROLE_USE_ADDR, ROLE_DEF }, (Bank[]){ BANK_GP, BANK_GP },
                (Width[]){ 64, 64 });

    Inst cmpd = lir_inst(LIR_CompareDouble, 4, (Arg[]){ arg_doublecond(DBL_ogt), arg_tmp(tmp_fp(0)),
                                                      arg_tmp(tmp_fp(1)), arg_tmp(tmp_gp(2)) });
    expect_args("CompareDouble", &cmpd, 4, (Role[]){ ROLE_USE, ROLE_USE, ROLE_USE, ROLE_ZDEF },
                (Bank[]){ BANK_GP, BANK_FP, BANK_FP, BANK_GP }, (Width[]){ 64, 64, 64, 32 });

    Inst div = lir_inst(LIR_X86IDiv32, 3, (Arg[]){ arg_tmp(tmp_gp(X64_RAX)), arg_tmp(tmp_gp(X64_RDX)),
                                                 arg_tmp(tmp_gp(X64_RCX)) });
    expect_args("X86IDiv32", &div, 3, (Role[]){ ROLE_USE_ZDEF, ROLE_USE_ZDEF, ROLE_USE },
                (Bank[]){ BANK_GP, BANK_GP, BANK_GP }, (Width[]){ 32, 32, 32 });

    Inst shl = lir_inst(LIR_Lshift64, 2, (Arg[]){ arg_tmp(tmp_gp(X64_RCX)), arg_tmp(tmp_gp(0)) });
    expect_args("Lshift64", &shl, 2, (Role[]){ ROLE_USE, ROLE_USE_DEF }, (Bank[]){ BANK_GP, BANK_GP },
                (Width[]){ 8, 64 });

    Inst cvt = lir_inst(LIR_TruncateDoubleToInt32, 2, (Arg[]){ arg_tmp(tmp_fp(3)), arg_tmp(tmp_gp(3)) });
    expect_args("TruncateDoubleToInt32", &cvt, 2, (Role[]){ ROLE_USE, ROLE_ZDEF },
                (Bank[]){ BANK_FP, BANK_GP }, (Width[]){ 64, 32 });

    Inst mul3 = lir_inst(LIR_Mul64, 3, (Arg[]){ arg_imm(3), arg_tmp(tmp_gp(0)), arg_tmp(tmp_gp(1)) });
    expect_args("Mul64 3-arg", &mul3, 3, (Role[]){ ROLE_USE, ROLE_USE, ROLE_DEF },
                (Bank[]){ BANK_GP, BANK_GP, BANK_GP }, (Width[]){ 64, 64, 64 });

    /* a call reports its target, then the CallInfo's argument uses and result defs */
    Arg uses[2] = { arg_tmp(tmp_gp(X64_RDI)), arg_tmp(tmp_fp(0)) };
    Arg defs[1] = { arg_tmp(tmp_gp(X64_RAX)) };
    Width defw[1] = { 32 };
    CallInfo ci = { .uses = uses, .nuses = 2, .defs = defs, .ndefs = 1, .def_widths = defw };
    Inst call = lir_inst(LIR_Call, 1, (Arg[]){ arg_symbol(TARGET_FUNC, 0, 0) });
    call.call = &ci;
    expect_args("Call", &call, 4, (Role[]){ ROLE_USE, ROLE_USE, ROLE_USE, ROLE_DEF },
                (Bank[]){ BANK_GP, BANK_GP, BANK_FP, BANK_GP }, (Width[]){ 64, 64, 64, 32 });
    ci.clobbers[BANK_GP] = 1u << X64_R11;
    ci.clobbers[BANK_FP] = 0xffff;
    CHECK(lir_inst_clobbers(&call, BANK_GP) == 1u << X64_R11 && lir_inst_clobbers(&call, BANK_FP) == 0xffff,
          "a call's clobbers");
    Inst not_call = add;
    not_call.call = &ci;
    CHECK(lir_inst_clobbers(&not_call, BANK_GP) == 0, "only calls clobber");

    Inst add3 = lir_inst(LIR_Add32, 3, (Arg[]){ arg_tmp(tmp_gp(0)), arg_imm(2), arg_tmp(tmp_gp(1)) });
    expect_args("Add32 3-arg", &add3, 3, (Role[]){ ROLE_USE, ROLE_USE, ROLE_ZDEF },
                (Bank[]){ BANK_GP, BANK_GP, BANK_GP }, (Width[]){ 32, 32, 32 });

    Inst neg = lir_inst(LIR_Neg64, 1, (Arg[]){ arg_tmp(tmp_gp(0)) });
    expect_args("Neg64", &neg, 1, (Role[]){ ROLE_USE_DEF }, (Bank[]){ BANK_GP }, (Width[]){ 64 });

    Inst bad = lir_inst(LIR_Add32, 4, (Arg[]){ arg_imm(1), arg_imm(2), arg_imm(3), arg_imm(4) });
    Seen16 s = { .n = 0 };
    CHECK(!lir_for_each_arg(&bad, record, &s) && s.n == 0, "Add32 with 4 args has no overload");
}

typedef struct {
    Tmp *tmp[8];
    Role role[8];
    Width width[8];
    int n;
} TmpSeen;

static void record_tmp(void *ctx, Tmp *t, Role role, Bank bank, Width width)
{
    TmpSeen *s = ctx;
    (void)bank;
    if (s->n < 8) {
        s->tmp[s->n] = t;
        s->role[s->n] = role;
        s->width[s->n++] = width;
    }
}

static void test_for_each_tmp(void)
{
    Tmp b = tmp_virtual(BANK_GP, 0), x = tmp_virtual(BANK_GP, 1), d = tmp_virtual(BANK_GP, 2);
    Inst in = lir_inst(LIR_Move32, 2, (Arg[]){ arg_index(b, x, 8, 4), arg_tmp(d) });
    TmpSeen s = { .n = 0 };
    lir_for_each_tmp(&in, record_tmp, &s);
    CHECK(s.n == 3, "Move32 index, tmp: %d tmps, expected 3", s.n);
    CHECK(s.n == 3 && *s.tmp[0] == b && s.role[0] == ROLE_USE && s.width[0] == 64, "base is a 64-bit use");
    CHECK(s.n == 3 && *s.tmp[1] == x && s.role[1] == ROLE_USE && s.width[1] == 64, "index is a 64-bit use");
    CHECK(s.n == 3 && *s.tmp[2] == d && s.role[2] == ROLE_ZDEF && s.width[2] == 32, "dest is a ZDef 32");
    /* the callback may rewrite tmps in place (what register allocation does) */
    *s.tmp[2] = tmp_gp(X64_RBX);
    CHECK(in.args[1].base == tmp_gp(X64_RBX), "tmp rewritten through the callback");

    Inst imm = lir_inst(LIR_Move, 2, (Arg[]){ arg_bigimm(1ll << 40), arg_stack(0, 0) });
    s.n = 0;
    lir_for_each_tmp(&imm, record_tmp, &s);
    CHECK(s.n == 0, "Move bigimm, stack has no tmps (%d)", s.n);
}

/* ---- the overload table and the x86-64 forms table ------------------------------------ */
static void test_tables(void)
{
    const Target *t = x64_target();
    for (uint32_t i = 1; i < t->nforms; i++)
        CHECK(t->forms[i - 1].op <= t->forms[i].op, "forms row %u (%s) out of opcode order", i,
              lir_op_name((LirOp)t->forms[i].op));
    for (uint32_t i = 0; i < t->nforms; i++) {
        const LirForm *f = &t->forms[i];
        const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
        CHECK(o != NULL, "form row %u: %s has no %u-argument overload", i, lir_op_name((LirOp)f->op),
              f->nargs);
        for (unsigned a = 0; a < f->nargs; a++)
            CHECK(f->args[a].kinds != 0, "form row %u arg %u accepts nothing", i, a);
        for (uint32_t j = 0; j < i; j++)
            if (t->forms[j].op == f->op && t->forms[j].nargs == f->nargs)
                CHECK(memcmp(t->forms[j].args, f->args, sizeof f->args) != 0,
                      "form rows %u and %u of %s are the same", j, i, lir_op_name((LirOp)f->op));
    }
    /* opcodes x86-64 has no instruction for (three-operand division, multiply-subtract,
     * unsigned float conversions, register pairs, three-operand high multiplies; fabs,
     * copysign and IEEE minimum/maximum, which selection builds from other forms; field
     * extracts, which selection leaves as a shift and an AND) */
    static const LirOp not_x86[] = { LIR_Div32, LIR_Div64, LIR_UDiv32, LIR_UDiv64,
                                     LIR_MultiplySub32, LIR_MultiplySub64,
                                     LIR_TruncateFloatToUInt32, LIR_TruncateFloatToUInt64,
                                     LIR_TruncateDoubleToUInt32, LIR_TruncateDoubleToUInt64,
                                     LIR_ConvertUInt64ToFloat, LIR_ConvertUInt64ToDouble,
                                     LIR_PushPair, LIR_PopPair, LIR_StorePair64, LIR_LoadPair64,
                                     LIR_MulHighSigned64, LIR_MulHighUnsigned64,
                                     LIR_AbsFloat, LIR_AbsDouble, LIR_CopySignFloat, LIR_CopySignDouble,
                                     LIR_MinimumFloat, LIR_MinimumDouble, LIR_MaximumFloat, LIR_MaximumDouble,
                                     LIR_ExtractUnsigned32, LIR_ExtractUnsigned64 };
    unsigned novl;
    const LirOverload *ovl = lir_overloads(&novl);
    for (unsigned i = 0; i < novl; i++) {
        uint32_t n;
        bool expected = true;
        for (size_t k = 0; k < sizeof not_x86 / sizeof not_x86[0]; k++)
            expected &= ovl[i].op != not_x86[k];
        lir_target_forms(t, (LirOp)ovl[i].op, &n);
        CHECK((n > 0) == expected, "%s: %u x86-64 forms", lir_op_name((LirOp)ovl[i].op), n);
        CHECK(lir_overload((LirOp)ovl[i].op, ovl[i].nargs) == &ovl[i], "overload lookup of %s/%u",
              lir_op_name((LirOp)ovl[i].op), ovl[i].nargs);
    }
    /* the CPU levels: roundsd, lzcnt, popcnt are forms of v3, not of the SSE2 baseline */
    Arg ff[2] = { arg_tmp(tmp_fp(1)), arg_tmp(tmp_fp(2)) }, gg[2] = { arg_tmp(tmp_gp(1)), arg_tmp(tmp_gp(2)) };
    const Target *v3 = t->levels[t->nlevels - 1];
    CHECK(t->nlevels == 2 && !strcmp(v3->cpu, "v3") && !strcmp(t->cpu, "baseline"), "x86-64 levels");
    CHECK(!lir_is_valid_args(t, LIR_FloorDouble, 2, ff) && lir_is_valid_args(v3, LIR_FloorDouble, 2, ff),
          "roundsd only at v3");
    CHECK(!lir_is_valid_args(t, LIR_CountLeadingZeros64, 2, gg) &&
          lir_is_valid_args(v3, LIR_CountLeadingZeros64, 2, gg), "lzcnt only at v3");
    CHECK(!lir_is_valid_args(t, LIR_PopCount32, 2, gg) && lir_is_valid_args(v3, LIR_PopCount32, 2, gg),
          "popcnt only at v3");
    CHECK(lir_is_valid_args(t, LIR_X86BitScanReverse64, 2, gg) && lir_is_valid_args(v3, LIR_Add64, 2, gg),
          "bsr at the baseline, the baseline's forms at v3");
    CHECK(lir_op_parse("Branch32", 8) == LIR_Branch32, "op parse");
    CHECK(lir_op_parse("Bogus", 5) == -1, "op parse of unknown");
    CHECK(strcmp(lir_op_name(LIR_MoveConditionallyDouble), "MoveConditionallyDouble") == 0, "op name");
    CHECK(lir_op_flags(LIR_Branch64) == (LF_TERM | LF_BRANCH), "Branch64 flags");
}

/* ---- is_valid_form ------------------------------------------------------------------------ */
static bool valid(LirOp op, unsigned n, const Arg *args)
{
    return lir_is_valid_args(x64_target(), op, n, args);
}

static void test_valid_forms(void)
{
    Tmp v = tmp_virtual(BANK_GP, 0), w = tmp_virtual(BANK_GP, 1), f = tmp_virtual(BANK_FP, 0);
    Arg rax = arg_tmp(tmp_gp(X64_RAX)), rcx = arg_tmp(tmp_gp(X64_RCX)), rdx = arg_tmp(tmp_gp(X64_RDX));
    Arg mem = arg_addr(v, 8), idx = arg_index(v, w, 4, -8);

    CHECK(valid(LIR_Add32, 2, (Arg[]){ arg_tmp(v), arg_tmp(w) }), "Add32 tmp, tmp");
    CHECK(valid(LIR_Add32, 2, (Arg[]){ arg_imm(-5), arg_tmp(w) }), "Add32 imm, tmp");
    CHECK(valid(LIR_Add32, 2, (Arg[]){ mem, arg_tmp(w) }), "Add32 addr, tmp");
    CHECK(valid(LIR_Add32, 2, (Arg[]){ arg_tmp(w), idx }), "Add32 tmp, index");
    CHECK(valid(LIR_Add32, 2, (Arg[]){ arg_imm(7), arg_stack(0, 4) }), "Add32 imm, stack");
    CHECK(!valid(LIR_Add32, 2, (Arg[]){ mem, idx }), "Add32 addr, index: two memory operands");
    CHECK(!valid(LIR_Add32, 2, (Arg[]){ arg_tmp(v), arg_imm(1) }), "Add32 into an immediate");
    CHECK(!valid(LIR_Add32, 3, (Arg[]){ arg_tmp(v), arg_tmp(v), arg_tmp(w) }), "no 3-operand Add32");
    CHECK(!valid(LIR_AddDouble, 3, (Arg[]){ arg_tmp(f), arg_tmp(f), arg_tmp(f) }), "no 3-operand addsd");
    CHECK(!valid(LIR_Div32, 3, (Arg[]){ arg_tmp(v), arg_tmp(v), arg_tmp(w) }), "no 3-operand Div32");
    CHECK(!valid(LIR_Add32, 4, (Arg[]){ arg_tmp(v), arg_tmp(v), arg_tmp(w), arg_tmp(w) }),
          "Add32 has no 4-argument overload");
    CHECK(!valid(LIR_Add32, 2, (Arg[]){ arg_tmp(f), arg_tmp(w) }), "FP tmp in a GP position");
    CHECK(valid(LIR_Add32, 2, (Arg[]){ arg_imm(0xffffffffll), arg_tmp(w) }), "Add32 imm 2^32-1");
    CHECK(!valid(LIR_Add32, 2, (Arg[]){ arg_imm(1ll << 32), arg_tmp(w) }), "Add32 imm 2^32");
    CHECK(valid(LIR_Add64, 2, (Arg[]){ arg_imm(INT32_MIN), arg_tmp(w) }), "Add64 imm INT32_MIN");
    CHECK(!valid(LIR_Add64, 2, (Arg[]){ arg_imm((int64_t)INT32_MAX + 1), arg_tmp(w) }), "Add64 imm 2^31");
    CHECK(!valid(LIR_Add64, 2, (Arg[]){ arg_bigimm(1), arg_tmp(w) }), "Add64 bigimm");
    CHECK(valid(LIR_Add8, 2, (Arg[]){ arg_imm(255), arg_tmp(w) }), "Add8 imm 255");
    CHECK(!valid(LIR_Add8, 2, (Arg[]){ arg_imm(256), arg_tmp(w) }), "Add8 imm 256");
    CHECK(!valid(LIR_Add16, 2, (Arg[]){ arg_imm(-32769), arg_tmp(w) }), "Add16 imm -32769");
    CHECK(valid(LIR_Move, 2, (Arg[]){ arg_bigimm(INT64_MIN), arg_tmp(w) }), "Move bigimm");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_bigimm(1), mem }), "Move bigimm to memory");
    CHECK(valid(LIR_Move, 2, (Arg[]){ arg_symbol(TARGET_HELPER, HELPER_FMOD_F64, 0), arg_tmp(w) }),
          "Move helper address");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_symbol(7, 0, 0), arg_tmp(w) }), "symbol of unknown kind");
    CHECK(!valid(LIR_Move, 3, (Arg[]){ arg_tmp(v), arg_tmp(v), arg_tmp(w) }), "Move with 3 args");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_addr(v, 1ll << 31), arg_tmp(w) }), "displacement 2^31");
    CHECK(valid(LIR_Move, 2, (Arg[]){ arg_addr(v, INT32_MIN), arg_tmp(w) }), "displacement INT32_MIN");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_index(v, tmp_gp(X64_RSP), 1, 0), arg_tmp(w) }),
          "rsp as an index register");
    CHECK(valid(LIR_Move, 2, (Arg[]){ arg_index(tmp_gp(X64_RSP), tmp_gp(X64_R12), 8, 0), arg_tmp(w) }),
          "rsp base with r12 index");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_index(v, w, 3, 0), arg_tmp(w) }), "scale 3");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_addr(f, 0), arg_tmp(w) }), "FP base register");
    CHECK(!valid(LIR_Move, 2, (Arg[]){ arg_tmp(tmp_gp(16)), arg_tmp(w) }), "register 16 on x86-64");

    /* fixed registers */
    CHECK(valid(LIR_Lshift32, 2, (Arg[]){ rcx, arg_tmp(w) }), "Lshift32 %%rcx, tmp");
    CHECK(!valid(LIR_Lshift32, 2, (Arg[]){ rdx, arg_tmp(w) }), "Lshift32 by %%rdx");
    CHECK(!valid(LIR_Lshift32, 2, (Arg[]){ arg_tmp(v), arg_tmp(w) }), "Lshift32 by a virtual tmp");
    CHECK(valid(LIR_Lshift32, 2, (Arg[]){ arg_imm(31), mem }), "Lshift32 imm, addr");
    CHECK(!valid(LIR_Lshift32, 2, (Arg[]){ arg_imm(256), arg_tmp(w) }), "shift count 256");
    CHECK(valid(LIR_X86Div32, 3, (Arg[]){ rax, rdx, arg_tmp(v) }), "X86Div32 rax, rdx, tmp");
    CHECK(!valid(LIR_X86Div32, 3, (Arg[]){ rdx, rax, arg_tmp(v) }), "X86Div32 with swapped registers");
    CHECK(!valid(LIR_X86Div32, 3, (Arg[]){ rax, rdx, arg_imm(3) }), "no division by an immediate");
    CHECK(valid(LIR_X86ConvertToQuadWord64, 2, (Arg[]){ rax, rdx }), "cqo");
    CHECK(valid(LIR_Ret64, 1, (Arg[]){ rax }), "Ret64 %%rax");
    CHECK(!valid(LIR_Ret64, 1, (Arg[]){ rcx }), "Ret64 %%rcx");
    CHECK(valid(LIR_RetDouble, 1, (Arg[]){ arg_tmp(tmp_fp(0)) }), "RetDouble %%xmm0");
    CHECK(!valid(LIR_RetDouble, 1, (Arg[]){ rax }), "RetDouble %%rax");

    /* conditions */
    Arg fa = arg_tmp(f), fb = arg_tmp(tmp_virtual(BANK_FP, 1));
    CHECK(valid(LIR_CompareDouble, 4, (Arg[]){ arg_doublecond(DBL_ogt), fa, fb, arg_tmp(w) }), "ogt");
    CHECK(valid(LIR_CompareDouble, 4, (Arg[]){ arg_doublecond(DBL_uno), fa, mem, arg_tmp(w) }), "uno, mem");
    CHECK(!valid(LIR_CompareDouble, 4, (Arg[]){ arg_doublecond(DBL_oeq), fa, fb, arg_tmp(w) }),
          "oeq needs two flag tests on x86-64");
    CHECK(!valid(LIR_CompareDouble, 4, (Arg[]){ arg_doublecond(DBL_olt), fa, fb, arg_tmp(w) }),
          "olt: swap the operands for ogt");
    CHECK(!valid(LIR_CompareDouble, 4, (Arg[]){ arg_relcond(REL_eq), fa, fb, arg_tmp(w) }),
          "relational condition on a float compare");
    CHECK(!valid(LIR_CompareDouble, 4, (Arg[]){ arg_doublecond(DBL_ogt), mem, fb, arg_tmp(w) }),
          "ucomisd memory left operand");
    CHECK(valid(LIR_Branch32, 3, (Arg[]){ arg_relcond(REL_slt), arg_tmp(v), arg_imm(0) }), "Branch32");
    CHECK(!valid(LIR_Branch32, 3, (Arg[]){ arg_relcond(REL_slt), arg_imm(0), arg_tmp(v) }),
          "Branch32 with an immediate left");
    CHECK(!valid(LIR_Branch32, 3, (Arg[]){ arg_rescond(RES_zero), arg_tmp(v), arg_imm(0) }),
          "Branch32 with a result condition");
    CHECK(valid(LIR_BranchTest64, 3, (Arg[]){ arg_rescond(RES_signed), arg_tmp(v), arg_tmp(v) }),
          "BranchTest64");
    CHECK(!valid(LIR_Branch32, 3, (Arg[]){ arg_relcond((RelCond)REL_COUNT), arg_tmp(v), arg_imm(0) }),
          "condition out of range");
    CHECK(valid(LIR_Call, 1, (Arg[]){ arg_symbol(TARGET_FUNC, 3, 0) }), "call a function");
    CHECK(valid(LIR_Call, 1, (Arg[]){ arg_symbol(TARGET_HELPER, HELPER_THROW, 0) }),
          "a rel32 call to a helper (position-independent)");
    CHECK(!valid(LIR_Call, 1, (Arg[]){ arg_symbol(TARGET_FUNC, 3, 8) }),
          "no rel32 call to a function with an addend");
    CHECK(valid(LIR_Call, 1, (Arg[]){ arg_tmp(v) }), "call through a register");
    CHECK(valid(LIR_Lea64, 2, (Arg[]){ arg_stack(2, 0), arg_tmp(w) }), "Lea64 of a stack slot");
    CHECK(!valid(LIR_Lea64, 2, (Arg[]){ arg_tmp(v), arg_tmp(w) }), "Lea64 of a register");
    CHECK(valid(LIR_MoveDouble, 2, (Arg[]){ mem, fa }), "MoveDouble load");
    CHECK(!valid(LIR_MoveDouble, 2, (Arg[]){ mem, idx }), "MoveDouble memory to memory");
    CHECK(!valid(LIR_AndDouble, 2, (Arg[]){ mem, fa }), "andpd from memory needs alignment");
    CHECK(!valid((LirOp)LIR_OP_COUNT, 0, NULL), "unknown opcode");
}

static void test_moves_and_spills(void)
{
    const Target *t = x64_target();
    Tmp v = tmp_virtual(BANK_GP, 0), w = tmp_virtual(BANK_GP, 1), f = tmp_virtual(BANK_FP, 0);
    Inst mov = lir_inst(LIR_Move, 2, (Arg[]){ arg_tmp(v), arg_tmp(w) });
    Inst movd = lir_inst(LIR_MoveDouble, 2, (Arg[]){ arg_tmp(f), arg_tmp(tmp_fp(3)) });
    Inst load = lir_inst(LIR_Move, 2, (Arg[]){ arg_addr(v, 0), arg_tmp(w) });
    Inst add = lir_inst(LIR_Add64, 2, (Arg[]){ arg_tmp(v), arg_tmp(w) });
    Inst bits = lir_inst(LIR_MoveDoubleTo64, 2, (Arg[]){ arg_tmp(f), arg_tmp(w) });
    CHECK(lir_is_move(&mov) && lir_is_move(&movd), "Move and MoveDouble of tmps are moves");
    CHECK(!lir_is_move(&load) && !lir_is_move(&add) && !lir_is_move(&bits), "loads, adds, bit moves are not");
    CHECK(lir_admits_stack(t, &add, 0) && lir_admits_stack(t, &add, 1), "Add64 spills either operand");
    CHECK(!lir_admits_stack(t, &load, 1), "a load cannot spill its destination (two memory operands)");
    CHECK(!lir_admits_stack(t, &load, 0), "an address is not a tmp");
    Inst shl = lir_inst(LIR_Lshift64, 2, (Arg[]){ arg_tmp(tmp_gp(X64_RCX)), arg_tmp(w) });
    CHECK(!lir_admits_stack(t, &shl, 0) && lir_admits_stack(t, &shl, 1), "shift count stays in %%rcx");
    Inst cvt = lir_inst(LIR_ConvertInt64ToDouble, 2, (Arg[]){ arg_tmp(v), arg_tmp(f) });
    CHECK(lir_admits_stack(t, &cvt, 0) && !lir_admits_stack(t, &cvt, 1), "cvtsi2sd writes a register");
}

static void test_conds(void)
{
    for (unsigned c = 0; c < REL_COUNT; c++) {
        CHECK(relcond_invert(relcond_invert((RelCond)c)) == (RelCond)c, "relcond invert twice");
        CHECK(relcond_commute(relcond_commute((RelCond)c)) == (RelCond)c, "relcond commute twice");
        CHECK(relcond_invert((RelCond)c) != (RelCond)c, "relcond invert is another condition");
    }
    for (unsigned c = 0; c < DBL_COUNT; c++) {
        CHECK(doublecond_invert(doublecond_invert((DoubleCond)c)) == (DoubleCond)c, "dbl invert");
        CHECK(doublecond_commute(doublecond_commute((DoubleCond)c)) == (DoubleCond)c, "dbl commute");
        /* x86-64 can test c with one flag test iff it can test its inverse */
        Arg a = arg_doublecond((DoubleCond)c), b = arg_doublecond(doublecond_invert((DoubleCond)c));
        CHECK((x64_cond_code(&a) < 0) == (x64_cond_code(&b) < 0), "x86 inverse of %u", c);
        if (x64_cond_code(&a) >= 0)
            CHECK(x64_cond_code(&b) == (x64_cond_code(&a) ^ 1), "x86 inverse code of %u", c);
    }
    CHECK(relcond_invert(REL_slt) == REL_sge && relcond_commute(REL_slt) == REL_sgt, "slt");
    CHECK(doublecond_invert(DBL_ogt) == DBL_ule && doublecond_commute(DBL_ogt) == DBL_olt, "ogt");
    CHECK(rescond_invert(RES_zero) == RES_nonzero && rescond_invert(RES_signed) == RES_notsigned, "res");
    CHECK(role_is_use(ROLE_SCRATCH) && role_is_def(ROLE_SCRATCH) && role_is_early_def(ROLE_SCRATCH) &&
              role_is_late_use(ROLE_SCRATCH), "Scratch is an early def and a late use");
    CHECK(role_is_use(ROLE_USE_ZDEF) && role_is_late_def(ROLE_USE_ZDEF) && role_is_zdef(ROLE_USE_ZDEF),
          "UseZDef");
    CHECK(!role_is_def(ROLE_USE_ADDR) && role_is_early_use(ROLE_USE_ADDR), "UseAddr");
    CHECK(role_is_cold(ROLE_COLD_USE) && !role_is_cold(ROLE_USE), "ColdUse");
}

/* ---- printing --------------------------------------------------------------------------- */
static void test_print(void)
{
    Arena *a = arena_new();
    Code *c = lir_code_new(a, x64_target(), "f", 0);
    uint32_t slot = lir_add_slot(c, 16, 8, true);
    LirBlock *b0 = lir_add_block(c, 1), *b1 = lir_add_block(c, 0.5), *b2 = lir_add_block(c, 0.5);
    Tmp t1 = lir_new_tmp(c, BANK_GP), t2 = lir_new_tmp(c, BANK_GP), f0 = lir_new_tmp(c, BANK_FP);
    lir_append(c, b0, LIR_Add32, 2, (Arg[]){ arg_tmp(t1), arg_tmp(t2) });
    lir_append(c, b0, LIR_Move, 2, (Arg[]){ arg_index(tmp_gp(X64_RAX), tmp_gp(X64_RCX), 8, 0), arg_tmp(t2) });
    lir_append(c, b0, LIR_MoveDouble, 2, (Arg[]){ arg_stack(slot, 8), arg_tmp(f0) });
    Inst *lea = lir_append(c, b0, LIR_Lea64, 2, (Arg[]){ arg_addr(tmp_gp(X64_RBP), -16), arg_tmp(t1) });
    lea->origin = 12;
    lir_append(c, b0, LIR_Branch32, 3, (Arg[]){ arg_relcond(REL_slt), arg_tmp(t1), arg_imm(-3) });
    lir_add_succ(c, b0, 1);
    lir_add_succ(c, b0, 2);
    lir_append(c, b1, LIR_Move, 2, (Arg[]){ arg_bigimm(0x7ff8000000000000ll), arg_tmp(tmp_gp(X64_RAX)) });
    lir_append(c, b1, LIR_Ret64, 1, (Arg[]){ arg_tmp(tmp_gp(X64_RAX)) });
    Inst *ud = lir_append(c, b2, LIR_Ud2, 0, NULL);
    ud->trap = TRAP_DIV0;
    lir_compute_preds(c);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    lir_print(out, c);
    fclose(out);
    const char *want =
        "code @f ; x86-64\n"
        "  stack0: size 16, align 8, locked\n"
        "BB#0: ; frequency = 1\n"
        "    Add32 %tmp0, %tmp1\n"
        "    Move (%rax,%rcx,8), %tmp1\n"
        "    MoveDouble 8(stack0), %ftmp0\n"
        "    Lea64 -16(%rbp), %tmp0 ; gate 12\n"
        "    Branch32 slt, %tmp0, $-3\n"
        "  Successors: #1 #2\n"
        "BB#1: ; frequency = 0.5\n"
        "  Predecessors: #0\n"
        "    Move $0x7ff8000000000000, %rax\n"
        "    Ret64 %rax\n"
        "BB#2: ; frequency = 0.5\n"
        "  Predecessors: #0\n"
        "    Ud2 !trap div0\n";
    CHECK(strcmp(buf, want) == 0, "lir_print:\n%s\nexpected:\n%s", buf, want);
    free(buf);
    arena_free(a);
}

/* ---- parsing dumps back ---------------------------------------------------------------- */
static char *print_module_text(const LirModule *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    for (uint32_t i = 0; i < m->ncodes; i++)
        lir_print(out, m->codes[i]);
    fclose(out);
    return buf;
}

static bool parse_text(Arena *a, const char *text, LirModule *m, char **errors)
{
    const Target *targets[] = { x64_target() };
    size_t len = 0;
    FILE *out = open_memstream(errors, &len);
    Diag d;
    diag_init(&d, "t.lir", out);
    bool ok = lir_parse(a, text, strlen(text), targets, 1, &d, m);
    fclose(out);
    return ok;
}

static const char round_trip_text[] =
    "code @f ; x86-64\n"
    "  frame %rbp\n"
    "  stack0: size 16, align 8, locked, offset -16\n"
    "  stack1: size 8, align 8\n"
    "BB#0: ; frequency = 1\n"
    "    Push %rbp\n"
    "    Move %rsp, %rbp\n"
    "    Add32 $-5, %tmp0\n"
    "    Move32 -8(%r13,%r12,4), %tmp1\n"
    "    MoveDouble 8(stack0), %ftmp2\n"
    "    Store8 $255, (stack1)\n"
    "    Move $helper.fmod_f64, %r11\n"
    "    Move $func1+16, %rax\n"
    "    Move $0x8000000000000000, %rcx\n"
    "    Add64 %rcx, 24(callArg)\n"
    "    CompareDouble ult, %ftmp2, %xmm1, %rax\n"
    "    MoveConditionallyDouble ogt, %xmm0, %xmm1, %rcx, %rdx\n"
    "    Call %r11 {uses %xmm0, %xmm1; defs %xmm0; clobbers %rax, %r11, %xmm2}\n"
    "    Call $func0 {uses %rdi:32; defs %rax:32}\n"
    "    X86IDiv32 %rax, %rdx, %tmp1 !trap overflow ; gate 7\n"
    "    Branch32 ugt, %tmp0, $3\n"
    "  Successors: #2 #1\n"
    "BB#1: ; frequency = 0.25\n"
    "  Predecessors: #0\n"
    "    Ud2 !trap div0\n"
    "BB#2: ; frequency = 0.75\n"
    "  Predecessors: #0\n"
    "    Ret32 %rax\n"
    "code @g ; no target\n"
    "BB#0: ; frequency = 1\n"
    "    Add32 %r3, %ftmp0\n";

static void test_parse(void)
{
    Arena *a = arena_new();
    LirModule m;
    char *errors = NULL;
    bool ok = parse_text(a, round_trip_text, &m, &errors);
    CHECK(ok && !*errors, "round-trip text parses: %s", errors);
    free(errors);
    if (ok) {
        char *printed = print_module_text(&m);
        CHECK(strcmp(printed, round_trip_text) == 0, "parse then print is the identity:\n%s", printed);
        free(printed);
        Code *f = m.codes[0];
        CHECK(m.ncodes == 2 && f->target == x64_target() && m.codes[1]->target == NULL, "codes and targets");
        CHECK(f->ntmps[BANK_GP] == 2 && f->ntmps[BANK_FP] == 3, "tmp counts from the highest index");
        const Inst *cmp = &f->blocks[0]->insts[10];
        CHECK(cmp->args[0].kind == ARG_DOUBLECOND && cmp->args[0].cond == DBL_ult,
              "'ult' of CompareDouble is a double condition");
        const Inst *br = &f->blocks[0]->insts[15];
        CHECK(br->args[0].kind == ARG_RELCOND && br->args[0].cond == REL_ugt, "'ugt' of Branch32 is relational");
        CHECK(f->blocks[0]->insts[14].origin == 7 && f->blocks[0]->insts[14].trap == TRAP_OVERFLOW, "origin, trap");
        const CallInfo *ci = f->blocks[0]->insts[12].call;
        CHECK(ci && ci->nuses == 2 && ci->ndefs == 1 && ci->clobbers[BANK_GP] == ((1u << X64_RAX) | (1u << X64_R11)) &&
                  ci->clobbers[BANK_FP] == 4, "call info");
    }
    arena_free(a);
}

typedef struct {
    const char *text;
    const char *message; /* expected in the diagnostics, with its position */
} BadText;

static void test_parse_errors(void)
{
    static const BadText bad[] = {
        { "code @f ; x86-64\nBB#0:\n    Frobnicate %rax\n", "t.lir:3:5: error: in @f: unknown opcode 'Frobnicate'" },
        { "code @f ; x86-64\nBB#0:\n    Add32 (%rax), (%rcx)\n", "t.lir:3:5: error: in @f: Add32: no x86-64 form" },
        { "code @f ; x86-64\nBB#0:\n    Add32 %rax\n", "has no 1-argument overload" },
        { "code @f ; x86-64\nBB#0:\n    Add32 %rax, %zz9\n", "t.lir:3:17: error: in @f: unknown register or tmp '%zz9'" },
        { "code @f ; x86-64\nBB#0:\n    Add32 %rax %rcx\n", "t.lir:3:5: error: in @f: Add32 has no 1-argument overload" },
        { "code @f ; z80\n", "t.lir:1:11: error: unknown target 'z80'" },
        { "    Add32 %rax, %rcx\n", "t.lir:1:5: error: expected 'code @NAME ; TARGET'" },
        { "code @f ; x86-64\nBB#1:\n", "blocks must be numbered in order (expected BB#0)" },
        { "code @f ; x86-64\n  stack1: size 8, align 8\n", "stack slots must be numbered in order" },
        { "code @f ; x86-64\nBB#0:\n    Move 8(stack3), %rax\n", "unknown stack slot" },
        { "code @f ; x86-64\nBB#0:\n    Move $helper.sqrt, %rax\n", "unknown helper 'sqrt'" },
        { "code @f ; x86-64\nBB#0:\n    Branch32 oeq, %rax, %rcx\n", "unknown condition 'oeq'" },
        { "code @f ; x86-64\nBB#0:\n    Jump\n  Successors: #4\n", "successor #4 does not exist" },
        { "code @f ; x86-64\nBB#0:\n    Ud2 !trap soon\n", "unknown trap kind 'soon'" },
        { "code @f ; x86-64\nBB#0:\n    Move (%rax,%rcx,3), %rax\n", "bad index address" },
        { "code @f ; x86-64\nBB#0:\n    Move 2147483648(%rax,%rcx,1), %rax\n", "an index address's offset must fit in 32 bits" },
        { "code @f ; x86-64\nBB#0:\n    Call %rax {uses %rdi; spills 3}\n", "expected uses, defs or clobbers" },
        { "code @f ; x86-64\nBB#0:\n    Move $12x, %rax\n", "bad immediate" },
        { "code @f ; x86-64\nBB#0:\n    Ret32 %rax, %rdx\n", "Ret32 has no 2-argument overload" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Arena *a = arena_new();
        LirModule m;
        char *errors = NULL;
        bool ok = parse_text(a, bad[i].text, &m, &errors);
        CHECK(!ok, "bad text %zu is refused", i);
        CHECK(strstr(errors, bad[i].message) != NULL, "bad text %zu: diagnostics '%s' lack '%s'", i, errors,
              bad[i].message);
        free(errors);
        arena_free(a);
    }
}

/* random byte edits of a valid dump (fixed seed): parsing, printing and encoding
 * what parses must never crash (run under ASan/UBSan in the sanitized build) */
static const char encodable_text[] =
    "code @sign ; x86-64\n"
    "  frame %rbp\n"
    "  stack0: size 4, align 4, offset -8\n"
    "BB#0: ; frequency = 1\n"
    "    Push %rbp\n"
    "    Move %rsp, %rbp\n"
    "    Move32 %rdi, (stack0)\n"
    "    Add32 8(%rbp,%rcx,4), %r13\n"
    "    MoveDouble -8(%rsp), %xmm9\n"
    "    Move $helper.fexp_f32+8, %rax\n"
    "    MoveConditionallyTest64 nonzero, %rax, $7, %rcx, %rdx\n"
    "    Lshift64 %rcx, %r12\n"
    "    Branch32 slt, (stack0), $0\n"
    "  Successors: #2 #1\n"
    "BB#1: ; frequency = 0\n"
    "    Call $func0 {uses %rdi:32; defs %rax}\n"
    "    X86IDiv64 %rax, %rdx, %r9\n"
    "    Ud2 !trap overflow\n"
    "BB#2: ; frequency = 0.5\n"
    "    Move32 $1, %rax ; gate 4\n"
    "    Pop %rbp\n"
    "    Ret32 %rax\n";

static void test_parse_mutations(void)
{
    const Target *targets[] = { x64_target() };
    size_t len = strlen(encodable_text);
    char *text = malloc(len + 1);
    static const char alphabet[] = "%$(),:;#{}!-+0123456789abcxrstmpfBS@ \n\t.";
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int parsed = 0, encoded = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(text, encodable_text, len + 1);
        for (int k = 0; round && k < 1 + round % 2; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(seed >> 33) % len;
            text[at] = alphabet[(seed >> 17) % (sizeof alphabet - 1)];
        }
        Arena *a = arena_new();
        FILE *sink = fopen("/dev/null", "w");
        Diag d;
        diag_init(&d, "m.lir", sink);
        LirModule m;
        if (lir_parse(a, text, len, targets, 1, &d, &m)) {
            parsed++;
            for (uint32_t i = 0; i < m.ncodes; i++) {
                lir_print(sink, m.codes[i]);
                lir_verify(m.codes[i], sink);
            }
            CodeBlob blob;
            char err[256];
            encoded += x64_emit(a, m.codes, m.ncodes, &blob, err, sizeof err);
        }
        if (round == 0)
            CHECK(parsed == 1 && encoded == 1, "the unmutated text parses and encodes");
        fclose(sink);
        arena_free(a);
    }
    free(text);
    CHECK(parsed > 0 && parsed < 3000 && encoded > 0, "some mutants parse and encode, not all (%d, %d)",
          parsed, encoded);
    printf("mutations: %d of 3000 parse, %d of those encode\n", parsed, encoded);
}

static void expect_verify(const char *what, const Code *c, int problems, const char *needle)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int got = lir_verify(c, out);
    fclose(out);
    CHECK(got == problems, "%s: %d problems, expected %d:\n%s", what, got, problems, buf);
    CHECK(!needle || strstr(buf, needle), "%s: '%s' lacks '%s'", what, buf, needle);
    free(buf);
}

static void test_verify(void)
{
    Arena *a = arena_new();
    const Target *x64 = x64_target();
    Code *c = lir_code_new(a, x64, "v", 0);
    LirBlock *b0 = lir_add_block(c, 1), *b1 = lir_add_block(c, 1);
    Tmp t = lir_new_tmp(c, BANK_GP);
    lir_append(c, b0, LIR_Move, 2, (Arg[]){ arg_imm(1), arg_tmp(t) });
    lir_append(c, b0, LIR_Branch64, 3, (Arg[]){ arg_relcond(REL_eq), arg_tmp(t), arg_imm(0) });
    lir_add_succ(c, b0, 1);
    lir_add_succ(c, b0, 1);
    lir_append(c, b1, LIR_RetVoid, 0, NULL);
    expect_verify("well formed", c, 0, NULL);

    b1->insts[0].op = LIR_Jump;
    expect_verify("jump without successor", c, 1, "in @v: BB#1: 0 successors, its terminator has 1");
    lir_add_succ(c, b1, 7);
    expect_verify("jump out of range", c, 1, "BB#1: successor #7 does not exist");
    b1->succs[0] = 0;
    expect_verify("loop back", c, 0, NULL);

    lir_append(c, b1, LIR_Nop, 0, NULL);
    expect_verify("terminator not last", c, 2, "BB#1: inst 0: Jump ends a block but is not last");
    b1->ninsts = 1;

    b0->insts[0].args[1] = arg_tmp(tmp_virtual(BANK_GP, 5));
    expect_verify("unknown tmp", c, 1, "BB#0: inst 0: tmp 5 of bank GP was never created");
    b0->insts[0].args[1] = arg_tmp(t);
    b0->insts[0].args[0] = arg_stack(3, 0);
    expect_verify("unknown slot", c, 1, "stack slot 3 does not exist");
    b0->insts[0].args[0] = arg_addr(tmp_gp(X64_RAX), 0);
    b0->insts[0].args[1] = arg_index(tmp_gp(X64_RAX), tmp_gp(X64_RCX), 2, 0);
    expect_verify("no form", c, 1, "Move: no x86-64 form takes these arguments");
    b0->insts[0].nargs = 3;
    expect_verify("no overload", c, 1, "Move has no 3-argument overload");
    b0->insts[0] = lir_inst(LIR_Move, 2, (Arg[]){ arg_imm(1), arg_tmp(t) });

    LirBlock *b2 = lir_add_block(c, 1);
    expect_verify("empty block", c, 1, "BB#2: empty block");
    lir_append(c, b2, LIR_Move, 2, (Arg[]){ arg_imm(1), arg_tmp(t) });
    expect_verify("falls off the end", c, 1, "BB#2: inst 0: the block does not end with a terminator");
    arena_free(a);
}

int main(void)
{
    test_for_each_arg();
    test_for_each_tmp();
    test_tables();
    test_valid_forms();
    test_moves_and_spills();
    test_conds();
    test_print();
    test_parse();
    test_parse_errors();
    test_parse_mutations();
    test_verify();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
