/* fold_bits.c — fold's identities for SELECT and the added integer operations
 * (constant operands of those are folded by fold.c through eval_pure).
 * Needs: optutil's cone checks. */
#include "compiler/opt/fold_bits.h"

/* A rule that drops an operand applies only when the operand's cone is quiet (no
 * trap, no effect): the dropped operand was demanded with the gate, and a trap in it
 * must stay.  The rules:
 *   SELECT(c, x, x) = x          SELECT(1, a, b) = a      SELECT(0, a, b) = b
 *   SELECT i1 (c, 1, 0) = c
 *   ROTL/ROTR(x, k) = x when k mod w = 0
 *   SMIN/SMAX/UMIN/UMAX(x, x) = x; the identity and absorbing bounds of each
 *   UMULHI/SMULHI(x, 0) = 0      UMULHI(x, 1) = 0
 *   CHECKED_ADD(x, 0) = CHECKED_SUB(x, 0) = CHECKED_MUL(x, 1) = x
 *   BSWAP(BSWAP x) = x           ABS(ABS x) = ABS x */

typedef struct {
    Circuit *c;
    GateId g;
    Type ty;
    unsigned w;
    GateId in[3];
    bool k[3];          /* is input i a constant */
    uint64_t kv[3];     /* its bits */
} BitSite;

static bool take(BitSite *s, GateId r)
{
    opt_replace(s->c, s->g, r);
    return true;
}

/* replace by r, dropping input `drop`, if its cone is quiet */
static bool take_dropping(BitSite *s, GateId r, GateId drop)
{
    return cone_quiet(s->c, drop, true) && take(s, r);
}

static uint64_t top_bit(unsigned w) { return (uint64_t)1 << (w - 1); }

static bool fold_select(BitSite *s)
{
    GateId c = s->in[0], a = s->in[1], b = s->in[2];
    if (a == b)
        return take_dropping(s, a, c);
    if (s->k[0])
        return take_dropping(s, s->kv[0] & 1 ? a : b, s->kv[0] & 1 ? b : a);
    if (s->ty == TY_I1 && s->k[1] && s->k[2] && s->kv[1] == 1 && s->kv[2] == 0)
        return take(s, c);
    return false;
}

/* the operand value that makes a min/max return its other operand (identity), and
 * the one that makes it return itself (absorbing) */
static void min_max_bounds(int op, unsigned w, uint64_t *identity, uint64_t *absorbing)
{
    uint64_t ones = ty_mask(w == 8 ? TY_I8 : w == 16 ? TY_I16 : w == 32 ? TY_I32 : TY_I64);
    uint64_t lo = op == OP_SMIN || op == OP_SMAX ? top_bit(w) : 0;
    uint64_t hi = op == OP_SMIN || op == OP_SMAX ? top_bit(w) - 1 : ones;
    bool is_min = op == OP_SMIN || op == OP_UMIN;
    *identity = is_min ? hi : lo;
    *absorbing = is_min ? lo : hi;
}

static bool fold_min_max(BitSite *s, int op)
{
    GateId x = s->in[0];
    if (x == s->in[1])
        return take(s, x);
    if (!s->k[1])
        return false;
    uint64_t identity, absorbing;
    min_max_bounds(op, s->w, &identity, &absorbing);
    if (s->kv[1] == identity)
        return take(s, x);
    return s->kv[1] == absorbing && take_dropping(s, s->in[1], x);
}

static bool fold_binary(BitSite *s, int op)
{
    GateId x = s->in[0];
    bool k = s->k[1];
    uint64_t v = s->kv[1];
    switch (op) {
    case OP_ROTL: case OP_ROTR: return k && v % s->w == 0 && take(s, x);
    case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX: return fold_min_max(s, op);
    case OP_SMULHI: return k && v == 0 && take_dropping(s, s->in[1], x);
    case OP_UMULHI: return k && v <= 1 && take_dropping(s, opt_const(s->c, s->ty, 0), x);
    case OP_CHECKED_ADD: case OP_CHECKED_SUB: return k && v == 0 && take(s, x);
    case OP_CHECKED_MUL: return k && v == 1 && take(s, x);
    default: return false;
    }
}

static bool fold_unary(BitSite *s, int op)
{
    const Gate *x = &s->c->gates[s->in[0]];
    if (op == OP_BSWAP && x->op == OP_BSWAP)
        return take(s, gate_data(x, 0));
    if (op == OP_ABS && x->op == OP_ABS)
        return take(s, s->in[0]);
    return false;
}

static bool inputs_ready(BitSite *s, const Gate *gt)
{
    if (gt->ndata < 1 || gt->ndata > 3 || gt->nstate || gt->ndep)
        return false;
    for (uint32_t i = 0; i < gt->ndata; i++) {
        s->in[i] = gate_data(gt, i);
        if (!gate_live(s->c, s->in[i]) || !op_has(s->c->gates[s->in[i]].op, F_VALUE))
            return false;
        s->k[i] = gate_const(s->c, s->in[i], &s->kv[i]);
    }
    return true;
}

bool fold_bits(Circuit *c, GateId g)
{
    const Gate *gt = &c->gates[g];
    int op = gt->op;
    bool mine = op == OP_SELECT || op == OP_BSWAP || op == OP_ABS || op == OP_ROTL || op == OP_ROTR ||
                op == OP_SMIN || op == OP_SMAX || op == OP_UMIN || op == OP_UMAX || op == OP_SMULHI ||
                op == OP_UMULHI || op == OP_CHECKED_ADD || op == OP_CHECKED_SUB || op == OP_CHECKED_MUL;
    BitSite s = {.c = c, .g = g, .ty = (Type)gt->type, .w = (unsigned)ty_bits((Type)gt->type)};
    if (!mine || !inputs_ready(&s, gt))
        return false;
    if (op == OP_SELECT)
        return fold_select(&s);
    return gt->ndata == 2 ? fold_binary(&s, op) : fold_unary(&s, op);
}
