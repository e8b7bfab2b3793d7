/* fold.c — constant folding through eval_pure, algebraic peepholes, strength reduction.
 * Needs: compiler/ir/eval.h (the meaning of every pure gate), optutil's cone checks. */
#include "compiler/ir/eval.h"
#include "compiler/opt/fold_float.h"
#include "compiler/opt/fold_bits.h"
#include "compiler/opt/optutil.h"

#include <stdlib.h>

/* Gates whose inputs are all constants are evaluated by eval_pure (a division that
 * would trap is left for the run to trap); identities, strength reduction (multiply
 * and unsigned divide/remainder by powers of two, exact signed division by powers of
 * two), reassociation of constants, compare folding and conversion chains.  A rule
 * that drops an operand applies only when the operand's cone is quiet (no trap, no
 * effect). */

typedef struct {
    Circuit *c;
    GateId g;
    Type ty;
    int w;          /* bits of ty */
    GateId a, b;    /* data inputs 0 and 1 (NO_GATE if absent) */
    bool ka, kb;    /* are they constants */
    uint64_t ca, cb;
} Site;

static bool replace(Site *s, GateId r)
{
    opt_replace(s->c, s->g, r);
    return true;
}

static bool replace_const(Site *s, uint64_t bits) { return replace(s, opt_const(s->c, s->ty, bits)); }

static GateId bin(Site *s, Opcode op, GateId x, GateId y) { return circ_binop(s->c, op, s->ty, x, y); }
static GateId kon(Site *s, uint64_t bits) { return opt_const(s->c, s->ty, bits); }
static bool quiet(Site *s, GateId x) { return cone_quiet(s->c, x, true); }
static const Gate *G(Site *s, GateId x) { return &s->c->gates[x]; }

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
static int log2u(uint64_t v) { return __builtin_ctzll(v); }

/* ---- constant evaluation ---- */

static bool fold_constants(Site *s)
{
    const Gate *gt = G(s, s->g);
    if (gt->ndata == 0 || gt->ndata > 2 || !s->ka || (gt->ndata == 2 && !s->kb))
        return false;
    uint64_t in[2] = {s->ca, s->cb}, out = 0;
    Type in_ty = (Type)G(s, s->a)->type;
    if (eval_pure(gt->op, s->ty, gt->cond, in_ty, in, gt->ndata, &out) != EVAL_OK)
        return false;
    return replace_const(s, out);
}

/* (x op c1) op c2 -> x op (c1 op c2) for associative, commutative integer ops */
static bool reassociate(Site *s)
{
    const Gate *gt = G(s, s->g), *ag = G(s, s->a);
    uint64_t c1;
    if (!s->kb || ag->op != gt->op || ag->type != gt->type || !gate_const(s->c, gate_data(ag, 1), &c1))
        return false;
    uint64_t in[2] = {c1, s->cb}, out;
    if (eval_pure(gt->op, s->ty, 0, s->ty, in, 2, &out) != EVAL_OK)
        return false;
    GateId x = gate_data(ag, 0);
    return replace(s, bin(s, (Opcode)gt->op, x, kon(s, out)));
}

/* ---- integer identities ---- */

static bool fold_add_sub(Site *s, bool sub)
{
    if (s->kb && s->cb == 0)
        return replace(s, s->a);
    if (sub && s->a == s->b && quiet(s, s->a))
        return replace_const(s, 0);
    if (sub && s->kb) /* x - c -> x + (-c): one form for reassociation and value numbering */
        return replace(s, bin(s, OP_ADD, s->a, kon(s, (0 - s->cb) & ty_mask(s->ty))));
    return !sub && reassociate(s);
}

static bool fold_mul(Site *s)
{
    if (!s->kb)
        return false;
    if (s->cb == 1)
        return replace(s, s->a);
    if (s->cb == 0 && quiet(s, s->a))
        return replace_const(s, 0);
    if (is_pow2(s->cb))
        return replace(s, bin(s, OP_SHL, s->a, kon(s, (uint64_t)log2u(s->cb))));
    return reassociate(s);
}

static bool fold_logic(Site *s, Opcode op)
{
    uint64_t ones = ty_mask(s->ty);
    if (s->a == s->b) {
        if (op != OP_XOR)
            return replace(s, s->a);
        return quiet(s, s->a) && replace_const(s, 0);
    }
    if (!s->kb)
        return false;
    uint64_t identity = op == OP_AND ? ones : 0;
    if (s->cb == identity)
        return replace(s, s->a);
    if (op == OP_AND && s->cb == 0 && quiet(s, s->a))
        return replace_const(s, 0);
    if (op == OP_OR && s->cb == ones && quiet(s, s->a))
        return replace_const(s, ones);
    return reassociate(s);
}

static bool fold_shift(Site *s)
{
    if (s->kb && (s->cb & (uint64_t)(s->w - 1)) == 0)
        return replace(s, s->a);
    if (s->ka && s->ca == 0 && quiet(s, s->b))
        return replace_const(s, 0);
    return false;
}

/* ---- divisions by constants (never by zero: those trap and stay) ---- */

static bool fold_udiv_urem(Site *s, bool rem)
{
    if (!s->kb || !is_pow2(s->cb))
        return false;
    if (!rem)
        return replace(s, s->cb == 1 ? s->a : bin(s, OP_LSHR, s->a, kon(s, (uint64_t)log2u(s->cb))));
    if (s->cb == 1)
        return quiet(s, s->a) && replace_const(s, 0);
    return replace(s, bin(s, OP_AND, s->a, kon(s, s->cb - 1)));
}

/* x + (x < 0 ? 2^k - 1 : 0): the dividend biased so an arithmetic shift truncates toward 0 */
static GateId biased(Site *s, int k)
{
    GateId sign = bin(s, OP_ASHR, s->a, kon(s, (uint64_t)(s->w - 1)));
    GateId bias = bin(s, OP_LSHR, sign, kon(s, (uint64_t)(s->w - k)));
    return bin(s, OP_ADD, s->a, bias);
}

static bool fold_sdiv_srem(Site *s, bool rem)
{
    if (!s->kb || !is_pow2(s->cb))
        return false;
    int k = log2u(s->cb);
    if (k == 0)
        return rem ? quiet(s, s->a) && replace_const(s, 0) : replace(s, s->a);
    if (k > s->w - 2) /* 2^(w-1) is INT_MIN: a negative divisor */
        return false;
    GateId t = biased(s, k);
    if (!rem)
        return replace(s, bin(s, OP_ASHR, t, kon(s, (uint64_t)k)));
    GateId down = bin(s, OP_AND, t, kon(s, (0 - s->cb) & ty_mask(s->ty)));
    return replace(s, bin(s, OP_SUB, s->a, down));
}

static bool fold_exp(Site *s)
{
    if (s->kb && s->cb == 1)
        return replace(s, s->a);
    if (s->kb && s->cb == 0 && quiet(s, s->a))
        return replace_const(s, 1);
    return false;
}

/* ---- compares ---- */

/* the condition true exactly when cc is false */
static int icmp_inverse(int cc)
{
    switch (cc) {
    case ICMP_eq: return ICMP_ne;
    case ICMP_ne: return ICMP_eq;
    case ICMP_ult: return ICMP_uge;
    case ICMP_uge: return ICMP_ult;
    case ICMP_ugt: return ICMP_ule;
    case ICMP_ule: return ICMP_ugt;
    case ICMP_slt: return ICMP_sge;
    case ICMP_sge: return ICMP_slt;
    case ICMP_sgt: return ICMP_sle;
    default: return ICMP_sgt; /* sle */
    }
}

/* eq/ne of (x + c1) and c2 is eq/ne of x and c2 - c1 (integers wrap) */
static bool fold_icmp_offset(Site *s, int cc)
{
    const Gate *ag = G(s, s->a);
    uint64_t c1;
    if ((cc != ICMP_eq && cc != ICMP_ne) || !s->kb || ag->op != OP_ADD || !gate_const(s->c, gate_data(ag, 1), &c1))
        return false;
    Type t = (Type)ag->type;
    GateId k = opt_const(s->c, t, (s->cb - c1) & ty_mask(t));
    return replace(s, circ_cmp(s->c, OP_ICMP, cc, gate_data(ag, 0), k));
}

/* eq/ne of a zero-extended i1 and 0 or 1 is the i1 itself or its negation */
static bool fold_icmp_bool(Site *s, int cc)
{
    const Gate *ag = G(s, s->a);
    if ((cc != ICMP_eq && cc != ICMP_ne) || !s->kb || s->cb > 1 || ag->op != OP_ZEXT ||
        G(s, gate_data(ag, 0))->type != TY_I1)
        return false;
    GateId b = gate_data(ag, 0);
    if ((cc == ICMP_ne) == (s->cb == 0))
        return replace(s, b);
    return replace(s, circ_binop(s->c, OP_XOR, TY_I1, b, opt_const(s->c, TY_I1, 1)));
}

static bool fold_icmp(Site *s)
{
    int cc = G(s, s->g)->cond;
    if (s->a == s->b && quiet(s, s->a)) {
        bool t = cc == ICMP_eq || cc == ICMP_uge || cc == ICMP_ule || cc == ICMP_sge || cc == ICMP_sle;
        return replace_const(s, t);
    }
    return fold_icmp_offset(s, cc) || fold_icmp_bool(s, cc);
}

/* XOR of a compare with 1 is the inverse compare (FCMP: unordered <-> ordered too) */
static bool fold_not_compare(Site *s)
{
    const Gate *ag = G(s, s->a);
    if (s->ty != TY_I1 || !s->kb || s->cb != 1 || (ag->op != OP_ICMP && ag->op != OP_FCMP))
        return false;
    int inv = ag->op == OP_ICMP ? icmp_inverse(ag->cond) : 15 - ag->cond;
    return replace(s, circ_cmp(s->c, (Opcode)ag->op, inv, gate_data(ag, 0), gate_data(ag, 1)));
}

static bool fold_fcmp(Site *s)
{
    int cc = G(s, s->g)->cond;
    if ((cc != FCMP_false && cc != FCMP_true) || !quiet(s, s->a) || !quiet(s, s->b))
        return false;
    return replace_const(s, cc == FCMP_true);
}

/* ---- conversion chains ---- */

static GateId unop(Site *s, Opcode op, GateId x) { return circ_unop(s->c, op, s->ty, x); }

static bool fold_extend(Site *s, Opcode op)
{
    const Gate *ag = G(s, s->a);
    if (ag->op == op || (op == OP_SEXT && ag->op == OP_ZEXT)) /* zext leaves the sign bit 0 */
        return replace(s, unop(s, (Opcode)ag->op, gate_data(ag, 0)));
    return false;
}

static bool fold_trunc(Site *s)
{
    const Gate *ag = G(s, s->a);
    if (ag->op == OP_TRUNC)
        return replace(s, unop(s, OP_TRUNC, gate_data(ag, 0)));
    if (ag->op != OP_ZEXT && ag->op != OP_SEXT)
        return false;
    GateId x = gate_data(ag, 0);
    int xb = ty_bits((Type)G(s, x)->type);
    if (xb == s->w)
        return replace(s, x);
    return replace(s, unop(s, xb > s->w ? OP_TRUNC : (Opcode)ag->op, x));
}

static bool fold_bitcast(Site *s)
{
    const Gate *ag = G(s, s->a);
    if (ag->type == s->ty)
        return replace(s, s->a);
    if (ag->op != OP_BITCAST)
        return false;
    GateId x = gate_data(ag, 0);
    return replace(s, G(s, x)->type == s->ty ? x : unop(s, OP_BITCAST, x));
}

/* FPTRUNC(FPEXT x) is x for every x but a NaN that is not canonical */
static bool fold_fptrunc(Site *s)
{
    const Gate *ag = G(s, s->a);
    if (ag->op != OP_FPEXT)
        return false;
    GateId x = gate_data(ag, 0);
    return fold_yields_canonical_nan(G(s, x)->op) && replace(s, x);
}

static bool fold_fneg(Site *s)
{
    const Gate *ag = G(s, s->a);
    return ag->op == OP_FNEG && replace(s, gate_data(ag, 0));
}

/* ---- driver ---- */

static bool peephole(Site *s)
{
    switch (G(s, s->g)->op) {
    case OP_ADD: return fold_add_sub(s, false);
    case OP_SUB: return fold_add_sub(s, true);
    case OP_MUL: return fold_mul(s);
    case OP_AND: return fold_logic(s, OP_AND);
    case OP_OR: return fold_logic(s, OP_OR);
    case OP_XOR: return fold_logic(s, OP_XOR) || fold_not_compare(s);
    case OP_SHL: case OP_LSHR: case OP_ASHR: return fold_shift(s);
    case OP_UDIV: return fold_udiv_urem(s, false);
    case OP_UREM: return fold_udiv_urem(s, true);
    case OP_SDIV: return fold_sdiv_srem(s, false);
    case OP_SREM: return fold_sdiv_srem(s, true);
    case OP_EXP: return fold_exp(s);
    case OP_ICMP: return fold_icmp(s);
    case OP_FCMP: return fold_fcmp(s);
    case OP_ZEXT: return fold_extend(s, OP_ZEXT);
    case OP_SEXT: return fold_extend(s, OP_SEXT);
    case OP_TRUNC: return fold_trunc(s);
    case OP_BITCAST: return fold_bitcast(s);
    case OP_FPTRUNC: return fold_fptrunc(s);
    case OP_FNEG: return fold_fneg(s);
    case OP_FLOOR: case OP_CEIL: case OP_FTRUNC: case OP_NEAREST: case OP_FABS: case OP_FCOPYSIGN:
    case OP_FMIN: case OP_FMAX: return fold_float_identity(s->c, s->g);
    default: return false;
    }
}

/* commutative integer gates keep a constant operand second */
static bool canonicalize(Site *s)
{
    const Gate *gt = G(s, s->g);
    if (!op_has(gt->op, F_COMMUTES) || !ty_is_int(s->ty) || !s->ka || s->kb)
        return false;
    GateId in[2] = {s->b, s->a};
    circ_set_inputs(s->c, s->g, NULL, 0, NULL, 0, in, 2);
    return true;
}

static bool inputs_usable(const Circuit *c, const Gate *gt)
{
    for (uint32_t i = 0; i < gt->ndata; i++)
        if (!gate_live(c, gate_data(gt, i)) || !op_has(c->gates[gate_data(gt, i)].op, F_VALUE))
            return false;
    return gt->ndata >= 1 && gt->ndata <= 2;
}

static bool fold_gate(Circuit *c, GateId g)
{
    const Gate *gt = &c->gates[g];
    if (!op_has(gt->op, F_PURE) || gt->nstate || gt->ndep)
        return false;
    if (gt->op == OP_SELECT)
        return fold_bits(c, g);
    if (!inputs_usable(c, gt))
        return false;
    Site s = {.c = c, .g = g, .ty = (Type)gt->type, .w = ty_bits((Type)gt->type), .a = gate_data(gt, 0),
              .b = gt->ndata > 1 ? gate_data(gt, 1) : NO_GATE};
    s.ka = gate_const(c, s.a, &s.ca);
    s.kb = s.b != NO_GATE && gate_const(c, s.b, &s.cb);
    if (fold_constants(&s))
        return true;
    bool swapped = canonicalize(&s);
    if (swapped) {
        GateId t = s.a;
        s.a = s.b, s.b = t;
        s.ka = false, s.kb = true, s.cb = s.ca;
    }
    return peephole(&s) || fold_bits(c, g) || swapped;
}

bool opt_fold(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    bool changed = false;
    for (int round = 0; round < 8; round++) {
        uint32_t n;
        GateId *order = computation_postorder(c, &n);
        bool any = false;
        for (uint32_t i = 0; i < n; i++)
            if (gate_live(c, order[i]))
                any |= fold_gate(c, order[i]);
        free(order);
        changed |= any;
        if (!any)
            break;
    }
    return changed;
}
