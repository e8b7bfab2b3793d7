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

/* ICMP's operands and condition, constants on the right when possible; *right is
 * the gate of args[2] (its tmp replaces an immediate the form cannot take) */
static void icmp_args(Lower *l, GateId g, int *w, Arg args[3], GateId *right)
{
    Type ot = isel_type(l, isel_in(l, g, 0));
    RelCond c = relcond_of(isel_g(l, g)->cond, ot);
    GateId a = isel_in(l, g, 0), b = isel_in(l, g, 1);
    if (isel_is_const(l, a) && !isel_is_const(l, b)) {
        GateId t = a;
        a = b;
        b = t;
        c = relcond_commute(c);
    }
    *w = cmp_width(l, ot, c);
    args[0] = arg_relcond(c);
    args[1] = isel_t(l, a);
    args[2] = isel_operand(l, b, *w);
    *right = b;
}

/* FCMP's condition as one DoubleCond the target tests (*swap: with the operands
 * swapped); false for false/true and for what takes two tests (x86: oeq, une) */
static bool fcmp_single(const Lower *l, int fcmp, bool d, DoubleCond *c, bool *swap)
{
    static const struct { int ir; DoubleCond dc; } map[] = {
        {FCMP_oeq, DBL_oeq}, {FCMP_ogt, DBL_ogt}, {FCMP_oge, DBL_oge}, {FCMP_olt, DBL_olt},
        {FCMP_ole, DBL_ole}, {FCMP_one, DBL_one}, {FCMP_ord, DBL_ord}, {FCMP_uno, DBL_uno},
        {FCMP_ueq, DBL_ueq}, {FCMP_ugt, DBL_ugt}, {FCMP_uge, DBL_uge}, {FCMP_ult, DBL_ult},
        {FCMP_ule, DBL_ule}, {FCMP_une, DBL_une},
    };
    LirOp op = d ? LIR_BranchDouble : LIR_BranchFloat;
    Arg x = arg_tmp(tmp_fp(0));
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (map[i].ir != fcmp)
            continue;
        *c = map[i].dc;
        *swap = false;
        if (isel_valid(l, op, 3, (Arg[]){arg_doublecond(*c), x, x}))
            return true;
        *c = doublecond_commute(*c);
        *swap = true;
        return isel_valid(l, op, 3, (Arg[]){arg_doublecond(*c), x, x});
    }
    return false;
}

static bool fuses_into_branch(Lower *l, GateId g)
{
    return lower_only_user_is_term(l, g, l->block) && isel_g(l, l->block->term_gate)->op == OP_IF_BRANCH;
}

bool isel_icmp(Lower *l, GateId g)
{
    if (fuses_into_branch(l, g)) {
        l->fused[g] = true;
        return true;
    }
    int w;
    Arg args[4];
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

/* `ICMP eq|ne (AND x, m), 0` fused: a test of x against m (test; tst, tbz/tbnz for
 * a single bit), the AND's own instruction then left to dead-code removal; false
 * when the compare has another shape */
static bool and_test_branch(Lower *l, GateId c)
{
    GateId a = tested_and(l, c);
    if (a == NO_GATE)
        return false;
    GateId x = isel_in(l, a, 0), m = isel_in(l, a, 1);
    if (isel_is_const(l, x)) {
        GateId t = x;
        x = m;
        m = t;
    }
    if (isel_is_const(l, x))
        return false;
    Type t = isel_type(l, a);
    int w = ty_bits(t) == 64 ? 64 : 32;
    bool zero = isel_g(l, c)->cond == ICMP_eq;
    uint64_t mask = isel_is_const(l, m) ? isel_g(l, m)->lit & ty_mask(t) : 0;
    mcov_idiom(l->code->cov, mask && !(mask & (mask - 1)) ? MCOV_BIT_TEST_BRANCH : MCOV_MASK_TEST_BRANCH);
    Arg args[3] = {arg_rescond(zero ? RES_zero : RES_nonzero), isel_t(l, x),
                   isel_is_const(l, m) ? arg_imm((int64_t)(isel_g(l, m)->lit & ty_mask(t))) : isel_t(l, m)};
    GateId saved = l->origin;
    l->origin = c;
    isel_emit_imm(l, isel_pick(w, LIR_BranchTest32, LIR_BranchTest64), 3, args, 2, NO_GATE);
    l->origin = saved;
    return true;
}

/* the branch of a fused compare c */
static void fused_branch(Lower *l, GateId c)
{
    if (isel_g(l, c)->op == OP_ICMP && and_test_branch(l, c))
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
