/* isel_cmp.c — selection of compares and branches (isel.h): ICMP and FCMP, fused
 * into the IF_BRANCH of their block when it is their only user, IF and SWITCH. */
#include "isel.h"

static RelCond relcond_of(int icmp, Type operand_type)
{
    RelCond c;
    switch (icmp) {
    case ICMP_eq: c = REL_eq; break;
    case ICMP_ne: c = REL_ne; break;
    case ICMP_ugt: c = REL_ugt; break;
    case ICMP_uge: c = REL_uge; break;
    case ICMP_ult: c = REL_ult; break;
    case ICMP_ule: c = REL_ule; break;
    case ICMP_sgt: c = REL_sgt; break;
    case ICMP_sge: c = REL_sge; break;
    case ICMP_slt: c = REL_slt; break;
    default: c = REL_sle; break;
    }
    if (operand_type != TY_I1)
        return c;
    /* as signed numbers 1 is -1: the unsigned order reversed */
    switch (c) {
    case REL_sgt: return REL_ult;
    case REL_sge: return REL_ule;
    case REL_slt: return REL_ugt;
    case REL_sle: return REL_uge;
    default: return c;
    }
}

/* the width an integer of type t is compared at under condition c: i1 at 32 bits;
 * where the target asks, an equality or unsigned compare of a zero-extended 8/16-bit
 * value at 32 bits too (no extension first) */
static int cmp_width(const Lower *l, Type t, RelCond c)
{
    int w = ty_bits(t);
    if (w < 8 || (w < 32 && l->isel->narrow_compare_at_32 && c < REL_sgt))
        return 32;
    return w;
}

/* ICMP g's condition, its operands in *a and *b, a constant on the right when
 * possible */
static RelCond icmp_operands(const Lower *l, GateId g, GateId *a, GateId *b)
{
    RelCond c = relcond_of(isel_g(l, g)->cond, isel_type(l, isel_in(l, g, 0)));
    *a = isel_in(l, g, 0);
    *b = isel_in(l, g, 1);
    if (isel_is_const(l, *a) && !isel_is_const(l, *b)) {
        GateId t = *a;
        *a = *b;
        *b = t;
        c = relcond_commute(c);
    }
    return c;
}

/* ICMP's operands and condition, constants on the right when possible; *right is
 * the gate of args[2] (its tmp replaces an immediate the form cannot take) */
static void icmp_args(Lower *l, GateId g, int *w, Arg args[3], GateId *right)
{
    GateId a, b;
    RelCond c = icmp_operands(l, g, &a, &b);
    *w = cmp_width(l, isel_type(l, a), c);
    args[0] = arg_relcond(c);
    args[1] = isel_t(l, a);
    args[2] = isel_operand(l, b, *w);
    *right = b;
}

/* FCMP condition fcmp as a DoubleCond; false for false and true */
static bool doublecond_of_fcmp(int fcmp, DoubleCond *c)
{
    static const struct { int ir; DoubleCond dc; } map[] = {
        {FCMP_oeq, DBL_oeq}, {FCMP_ogt, DBL_ogt}, {FCMP_oge, DBL_oge}, {FCMP_olt, DBL_olt},
        {FCMP_ole, DBL_ole}, {FCMP_one, DBL_one}, {FCMP_ord, DBL_ord}, {FCMP_uno, DBL_uno},
        {FCMP_ueq, DBL_ueq}, {FCMP_ugt, DBL_ugt}, {FCMP_uge, DBL_uge}, {FCMP_ult, DBL_ult},
        {FCMP_ule, DBL_ule}, {FCMP_une, DBL_une},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].ir == fcmp) {
            *c = map[i].dc;
            return true;
        }
    return false;
}

/* FCMP's condition as one DoubleCond the target tests (*swap: with the operands
 * swapped); false for false/true and for what takes two tests (x86: oeq, une) */
static bool fcmp_single(const Lower *l, int fcmp, bool d, DoubleCond *c, bool *swap)
{
    LirOp op = d ? LIR_BranchDouble : LIR_BranchFloat;
    Arg x = arg_tmp(tmp_fp(0));
    if (!doublecond_of_fcmp(fcmp, c))
        return false;
    *swap = false;
    if (isel_valid(l, op, 3, (Arg[]){arg_doublecond(*c), x, x}))
        return true;
    *c = doublecond_commute(*c);
    *swap = true;
    return isel_valid(l, op, 3, (Arg[]){arg_doublecond(*c), x, x});
}

static bool fuses_into_branch(Lower *l, GateId g)
{
    return lower_only_user_is_term(l, g, l->block) && isel_g(l, l->block->term_gate)->op == OP_IF_BRANCH;
}

static bool test_args(Lower *l, GateId c, Arg args[3], int *w, McovIdiom *idiom);

bool isel_icmp(Lower *l, GateId g)
{
    if (fuses_into_branch(l, g)) {
        l->fused[g] = true;
        return true;
    }
    int w;
    Arg args[4];
    McovIdiom idiom;
    if (test_args(l, g, args, &w, &idiom)) {
        mcov_idiom(l->code->cov, MCOV_TEST_SET);
        args[3] = isel_t(l, g);
        isel_emit_imm(l, isel_pick(w, LIR_Test32, LIR_Test64), 4, args, 2, NO_GATE);
        return true;
    }
    GateId right;
    icmp_args(l, g, &w, args, &right);
    args[3] = isel_t(l, g);
    isel_emit_imm(l, isel_compare_op(w), 4, args, 2, right);
    return true;
}

bool isel_fcmp(Lower *l, GateId g)
{
    const Gate *gate = isel_g(l, g);
    bool d = isel_type(l, isel_in(l, g, 0)) == TY_F64;
    DoubleCond c;
    bool swap;
    bool single = fcmp_single(l, gate->cond, d, &c, &swap);
    if (single && fuses_into_branch(l, g)) {
        l->fused[g] = true;
        return true;
    }
    Arg dst = isel_t(l, g);
    LirOp op = d ? LIR_CompareDouble : LIR_CompareFloat;
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1));
    if (gate->cond == FCMP_false || gate->cond == FCMP_true) {
        lower_emit2(l, LIR_Move32, arg_imm(gate->cond == FCMP_true), dst);
    } else if (single) {
        lower_emit4(l, op, arg_doublecond(c), swap ? b : a, swap ? a : b, dst);
    } else {
        /* oeq = ueq and ord; une = one or uno */
        bool eq = gate->cond == FCMP_oeq;
        Arg other = isel_fresh(l, BANK_GP);
        lower_emit4(l, op, arg_doublecond(eq ? DBL_ueq : DBL_one), a, b, dst);
        lower_emit4(l, op, arg_doublecond(eq ? DBL_ord : DBL_uno), a, b, other);
        lower_emit2(l, eq ? LIR_And32 : LIR_Or32, other, dst);
    }
    return true;
}

/* is c the one live user of g? */
static bool sole_user_is(const Lower *l, GateId g, GateId c)
{
    const Gate *gate = isel_g(l, g);
    for (uint32_t i = 0; i < gate->nuses; i++)
        if (gate->uses[i].user != c && !isel_g(l, gate->uses[i].user)->dead)
            return false;
    return true;
}

/* the AND under `ICMP eq|ne (AND x, m), 0` (either operand order) that nothing else
 * reads, else NO_GATE */
static GateId tested_and(const Lower *l, GateId c)
{
    const Gate *cmp = isel_g(l, c);
    GateId a = isel_in(l, c, 0), z = isel_in(l, c, 1);
    if (cmp->cond != ICMP_eq && cmp->cond != ICMP_ne)
        return NO_GATE;
    if (isel_is_const(l, a)) {
        GateId t = a;
        a = z;
        z = t;
    }
    if (!isel_is_const(l, z) || (isel_g(l, z)->lit & ty_mask(isel_type(l, z))) != 0 ||
        isel_g(l, a)->op != OP_AND || !sole_user_is(l, a, c))
        return NO_GATE;
    return a;
}

/* `ICMP slt x, 0` or `ICMP sge x, 0` of 32 or 64 bits: x's sign tested (*res signed
 * or notsigned), else NO_GATE */
static GateId sign_tested(const Lower *l, GateId c, ResCond *res, int *w)
{
    const Gate *cmp = isel_g(l, c);
    GateId x = isel_in(l, c, 0), z = isel_in(l, c, 1);
    *w = ty_bits(isel_type(l, x));
    if ((cmp->cond != ICMP_slt && cmp->cond != ICMP_sge) || (*w != 32 && *w != 64) || isel_is_const(l, x) ||
        !isel_is_const(l, z) || (isel_g(l, z)->lit & ty_mask(isel_type(l, z))) != 0)
        return NO_GATE;
    *res = cmp->cond == ICMP_slt ? RES_signed : RES_notsigned;
    return x;
}

/* the operands of AND a as a test's x and mask (args[0], args[1]), a constant mask
 * an immediate (*mask its bits, else 0); false when both are constants */
static bool and_operands(Lower *l, GateId a, Arg args[2], uint64_t *mask)
{
    GateId x = isel_in(l, a, 0), m = isel_in(l, a, 1);
    if (isel_is_const(l, x)) {
        x = m;
        m = isel_in(l, a, 0);
    }
    if (isel_is_const(l, x))
        return false;
    Type t = isel_type(l, a);
    *mask = isel_is_const(l, m) ? isel_g(l, m)->lit & ty_mask(t) : 0;
    args[0] = isel_t(l, x);
    args[1] = isel_is_const(l, m) ? arg_imm((int64_t)*mask) : isel_t(l, m);
    return true;
}

/* the test a Test*, BranchTest* or MoveConditionallyTest* form makes for compare c,
 * args[0..2] = condition, x, mask (*w its width, *idiom the branch idiom it is):
 * `(x & m) ==|!= 0`, or a sign test of x or of `x & m` (an AND that nothing else
 * reads is then left to dead-code removal); false for another shape */
static bool test_args(Lower *l, GateId c, Arg args[3], int *w, McovIdiom *idiom)
{
    ResCond res;
    uint64_t mask;
    GateId x = isel_g(l, c)->op == OP_ICMP ? sign_tested(l, c, &res, w) : NO_GATE;
    if (x != NO_GATE) {
        args[0] = arg_rescond(res);
        *idiom = MCOV_SIGN_TEST_BRANCH;
        if (isel_g(l, x)->op == OP_AND && sole_user_is(l, x, c) && and_operands(l, x, args + 1, &mask))
            return true;
        args[1] = args[2] = isel_t(l, x);
        return true;
    }
    GateId a = isel_g(l, c)->op == OP_ICMP ? tested_and(l, c) : NO_GATE;
    if (a == NO_GATE || !and_operands(l, a, args + 1, &mask))
        return false;
    *w = ty_bits(isel_type(l, a)) == 64 ? 64 : 32;
    *idiom = mask && !(mask & (mask - 1)) ? MCOV_BIT_TEST_BRANCH : MCOV_MASK_TEST_BRANCH;
    args[0] = arg_rescond(isel_g(l, c)->cond == ICMP_eq ? RES_zero : RES_nonzero);
    return true;
}

/* compare c fused into its branch as a test (test; tst, tbz/tbnz for a single bit),
 * see test_args; false, nothing emitted, for another shape */
static bool test_branch(Lower *l, GateId c)
{
    Arg args[3];
    int w;
    McovIdiom idiom;
    if (!test_args(l, c, args, &w, &idiom))
        return false;
    mcov_idiom(l->code->cov, idiom);
    GateId saved = l->origin;
    l->origin = c;
    isel_emit_imm(l, isel_pick(w, LIR_BranchTest32, LIR_BranchTest64), 3, args, 2, NO_GATE);
    l->origin = saved;
    return true;
}

/* the branch of a fused compare c */
static void fused_branch(Lower *l, GateId c)
{
    if (test_branch(l, c))
        return;
    if (isel_g(l, c)->op == OP_ICMP) {
        int w;
        Arg args[3];
        GateId right;
        icmp_args(l, c, &w, args, &right);
        bool k = right != NO_GATE && isel_is_const(l, right);
        mcov_idiom(l->code->cov, !k ? MCOV_CMP_BRANCH
                                 : (isel_g(l, right)->lit & ty_mask(isel_type(l, right))) == 0 ? MCOV_CMP_ZERO_BRANCH
                                                                                          : MCOV_CMP_IMM_BRANCH);
        GateId saved = l->origin;
        l->origin = c;
        isel_emit_imm(l, isel_branch_op(w), 3, args, 2, right);
        l->origin = saved;
        return;
    }
    bool d = isel_type(l, isel_in(l, c, 0)) == TY_F64;
    mcov_idiom(l->code->cov, MCOV_FCMP_BRANCH);
    DoubleCond dc = DBL_ord;
    bool swap = false;
    fcmp_single(l, isel_g(l, c)->cond, d, &dc, &swap);
    Arg a = isel_t(l, isel_in(l, c, 0)), b = isel_t(l, isel_in(l, c, 1));
    lower_emit3(l, d ? LIR_BranchDouble : LIR_BranchFloat, arg_doublecond(dc), swap ? b : a, swap ? a : b);
}

bool isel_if(Lower *l, const Block *b)
{
    GateId c = isel_in(l, b->term_gate, 0);
    uint32_t yes = lower_edge_block(l, b, 0), no = lower_edge_block(l, b, 1);
    if (l->fused[c])
        fused_branch(l, c);
    else
        mcov_idiom(l->code->cov, MCOV_VALUE_BRANCH);
    if (!l->fused[c])
        isel_branch_nonzero(l, 32, isel_t(l, c));
    lir_add_succ(l->code, l->cur, yes);
    lir_add_succ(l->code, l->cur, no);
    return true;
}

/* a chain of equality branches, one per case, then a jump to the default */
bool isel_switch(Lower *l, const Block *b)
{
    GateId v = isel_in(l, b->term_gate, 0);
    Type t = isel_type(l, v);
    int w = cmp_width(l, t, REL_eq);
    for (uint32_t i = 0; i + 1 < b->nsuccs; i++) {
        uint32_t target = lower_edge_block(l, b, i);
        uint64_t cv = b->case_values[i] & ty_mask(t);
        Arg k = w < 64 || (int64_t)cv == (int32_t)(int64_t)cv ? arg_imm((int64_t)cv) : isel_gp_const(l, cv);
        if (k.kind == ARG_IMM &&
            !isel_valid(l, isel_branch_op(w), 3, (Arg[]){arg_relcond(REL_eq), isel_t(l, v), k}))
            k = isel_gp_const(l, cv);
        lower_emit3(l, isel_branch_op(w), arg_relcond(REL_eq), isel_t(l, v), k);
        isel_branch_or_continue(l, target);
    }
    lower_jump(l, lower_edge_block(l, b, b->nsuccs - 1));
    return true;
}

/* ---- a SELECT's compare fused into its conditional move ------------------------------- */
/* dst := src when integer compare c holds: a test form (test_args), else
 * MoveConditionally32/64 on c's operands, 8/16-bit ones compared at 32 bits
 * (sign-extended first for a signed condition) */
static void cmov_on_icmp(Lower *l, GateId c, Arg src, Arg dst)
{
    int w;
    Arg args[5];
    McovIdiom idiom;
    if (test_args(l, c, args, &w, &idiom)) {
        mcov_idiom(l->code->cov, MCOV_SELECT_TEST_CMOV);
        args[3] = src;
        args[4] = dst;
        isel_emit_imm(l, isel_pick(w, LIR_MoveConditionallyTest32, LIR_MoveConditionallyTest64), 5, args, 2,
                      NO_GATE);
        return;
    }
    GateId a, b;
    RelCond rc = icmp_operands(l, c, &a, &b);
    w = cmp_width(l, isel_type(l, a), rc);
    args[0] = arg_relcond(rc);
    args[1] = isel_t(l, a);
    args[2] = isel_operand(l, b, w);
    if (w < 32 && rc >= REL_sgt) {
        args[2] = isel_t(l, b);
        isel_sign_extend_pair(l, w, &args[1], &args[2]);
    }
    mcov_idiom(l->code->cov, MCOV_SELECT_CMP_CMOV);
    args[3] = src;
    args[4] = dst;
    isel_emit_imm(l, isel_pick(w, LIR_MoveConditionally32, LIR_MoveConditionally64), 5, args, 2, b);
}

/* dst := src when float compare c holds, by one DoubleCond the target's conditional
 * move tests (or the commuted one, operands swapped); false, nothing emitted, for a
 * condition that takes two tests */
static bool cmov_on_fcmp(Lower *l, GateId c, Arg src, Arg dst)
{
    bool d = isel_type(l, isel_in(l, c, 0)) == TY_F64;
    LirOp op = d ? LIR_MoveConditionallyDouble : LIR_MoveConditionallyFloat;
    Arg a = isel_t(l, isel_in(l, c, 0)), b = isel_t(l, isel_in(l, c, 1));
    for (int swap = 0; swap < 2; swap++) {
        DoubleCond dc;
        if (!doublecond_of_fcmp(isel_g(l, c)->cond, &dc))
            return false;
        Arg args[5] = {arg_doublecond(swap ? doublecond_commute(dc) : dc), swap ? b : a, swap ? a : b, src, dst};
        if (isel_valid(l, op, 5, args)) {
            mcov_idiom(l->code->cov, MCOV_SELECT_FCMP_CMOV);
            lower_emit(l, op, 5, args);
            return true;
        }
    }
    return false;
}

bool isel_cmov_on(Lower *l, GateId c, Arg src, Arg dst)
{
    if (isel_g(l, c)->op == OP_ICMP) {
        cmov_on_icmp(l, c, src, dst);
        return true;
    }
    return isel_g(l, c)->op == OP_FCMP && cmov_on_fcmp(l, c, src, dst);
}
