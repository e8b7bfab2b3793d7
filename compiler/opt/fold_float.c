/* fold_float.c — identities of the float operations beyond arithmetic
 * (fold_float.h):
 *   R(R'(x)) = R'(x), R(SITOFP x) = SITOFP x   R, R' among FLOOR CEIL FTRUNC NEAREST
 *   FABS(FABS x) = FABS(FNEG x) = FABS(FCOPYSIGN(x, y)) = FABS x
 *   FCOPYSIGN(x, x) = x;  FCOPYSIGN(S(x), y) = FCOPYSIGN(x, y)  S among FABS FNEG FCOPYSIGN
 *   FCOPYSIGN(x, +c) = FABS x;  FCOPYSIGN(x, -c) = FNEG(FABS x)
 *   FMIN(x, x) = FMAX(x, x) = x   when x's NaN is the canonical one
 * A rule that drops an operand applies only when that operand's cone is quiet. */
#include "compiler/opt/fold_float.h"

static bool is_rounding(int op) { return op == OP_FLOOR || op == OP_CEIL || op == OP_FTRUNC || op == OP_NEAREST; }
static bool is_sign_op(int op) { return op == OP_FABS || op == OP_FNEG || op == OP_FCOPYSIGN; }

bool fold_yields_canonical_nan(int op)
{
    if (op == OP_SITOFP || op == OP_UITOFP)
        return true; /* never NaN */
    if (op == OP_FEXP)
        return true; /* its NaN is the canonical one, though it is not NaN-blind */
    return op_has(op, F_NAN_BLIND) && op != OP_FCMP && op != OP_FPTOSI && op != OP_FPTOUI;
}

static bool replace(Circuit *c, GateId g, GateId r)
{
    opt_replace(c, g, r);
    return true;
}

/* the sign operation x of S(x, ...), if dropping S's other operands loses nothing */
static bool sign_op_source(const Circuit *c, GateId a, GateId *x)
{
    const Gate *ag = &c->gates[a];
    if (!is_sign_op(ag->op) || (ag->op == OP_FCOPYSIGN && !cone_quiet(c, gate_data(ag, 1), true)))
        return false;
    *x = gate_data(ag, 0);
    return true;
}

static bool fold_rounding(Circuit *c, GateId g, GateId a)
{
    int op = c->gates[a].op;
    return (is_rounding(op) || op == OP_SITOFP || op == OP_UITOFP) && replace(c, g, a);
}

static bool fold_fabs(Circuit *c, GateId g, GateId a)
{
    GateId x;
    if (c->gates[a].op == OP_FABS)
        return replace(c, g, a);
    return sign_op_source(c, a, &x) && replace(c, g, circ_unop(c, OP_FABS, (Type)c->gates[g].type, x));
}

static bool fold_copysign(Circuit *c, GateId g, GateId a, GateId b)
{
    Type ty = (Type)c->gates[g].type;
    uint64_t bits, sign = ty == TY_F32 ? 0x80000000u : 0x8000000000000000ull;
    GateId x;
    if (a == b)
        return replace(c, g, a);
    if (gate_const(c, b, &bits)) {
        GateId mag = circ_unop(c, OP_FABS, ty, a);
        return replace(c, g, bits & sign ? circ_unop(c, OP_FNEG, ty, mag) : mag);
    }
    return sign_op_source(c, a, &x) && replace(c, g, circ_binop(c, OP_FCOPYSIGN, ty, x, b));
}

bool fold_float_identity(Circuit *c, GateId g)
{
    const Gate *gt = &c->gates[g];
    GateId a = gate_data(gt, 0);
    switch (gt->op) {
    case OP_FLOOR: case OP_CEIL: case OP_FTRUNC: case OP_NEAREST: return fold_rounding(c, g, a);
    case OP_FABS: return fold_fabs(c, g, a);
    case OP_FCOPYSIGN: return fold_copysign(c, g, a, gate_data(gt, 1));
    case OP_FMIN: case OP_FMAX:
        return a == gate_data(gt, 1) && fold_yields_canonical_nan(c->gates[a].op) && replace(c, g, a);
    default: return false;
    }
}
