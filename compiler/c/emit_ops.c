/* emit_ops.c — the C backend's pure gates: one statement (or a trap check and a
 * statement) per gate with circ's exact semantics (docs/semantics.md section 2),
 * one switch per family of operations. */
#include "compiler/c/cemit_internal.h"

#include <string.h>

typedef struct {
    Type t;           /* the result type */
    Type in;          /* the first operand's type */
    unsigned w;       /* the operand width in bits */
    char v[16];       /* the result variable */
    char x[16], y[16], z[16]; /* the operands */
    int fbits;        /* 32 or 64 for a float operation (of t or in) */
} Ops;

/* the signed reading of operand s of type t (i1: 1 is -1) */
static void signed_of(CEmit *e, Type t, const char *s)
{
    if (t == TY_I1)
        c_out(e, "((ci64)0 - (ci64)%s)", s);
    else
        c_out(e, "(ci%d)%s", ty_bits(t), s);
}

static bool emit_leaf(CEmit *e, const Gate *g, const Ops *o, GateId id)
{
    switch (g->op) {
    case OP_CONSTANT:
        if (ty_is_float(o->t) && g->lit == 1ull << (ty_bits(o->t) - 1))
            c_out(e, "    %s = circ_c_negzero%d();\n", o->v, ty_bits(o->t));
        else if (ty_is_float(o->t))
            c_out(e, "    %s = circ_c_f%d(0x%llxull);\n", o->v, ty_bits(o->t), (unsigned long long)g->lit);
        else
            c_out(e, "    %s = (%s)0x%llxull;\n", o->v, c_type(o->t), (unsigned long long)g->lit);
        return true;
    case OP_ARG: c_out(e, "    %s = p%u;\n", o->v, (unsigned)g->lit); return true;
    case OP_ALLOCA: c_out(e, "    %s = (cu64)(cuptr)a%u;\n", o->v, id); return true;
    case OP_SYMBOL:
        c_out(e, "    %s = ", o->v);
        c_symbol_addr(e, g->lit);
        c_out(e, ";\n");
        return true;
    case OP_SELECT: c_out(e, "    %s = %s ? %s : %s;\n", o->v, o->x, o->y, o->z); return true;
    default: return false;
    }
}

/* an integer division: the trap checks, then the quotient or remainder */
static void emit_division(CEmit *e, const Gate *g, const Ops *o)
{
    const char *t = c_type(o->t);
    c_out(e, "    if (%s == 0) CIRC_C_TRAP(1);\n", o->y);
    bool is_signed = g->op == OP_SDIV || g->op == OP_SREM;
    const char *sym = g->op == OP_SDIV || g->op == OP_UDIV ? "/" : "%";
    if (!is_signed) {
        c_out(e, "    %s = (%s)(%s %s %s);\n", o->v, t, o->x, sym, o->y);
        return;
    }
    c_out(e, "    if (circ_c_sdiv_overflows(%s, %s, 0x%llxull, 0x%llxull)) CIRC_C_TRAP(2);\n", o->x, o->y,
          (unsigned long long)(1ull << (o->w - 1)), (unsigned long long)ty_mask(o->t));
    c_out(e, "    %s = (%s)(cu64)((ci64)(ci%u)%s %s (ci64)(ci%u)%s);\n", o->v, t, o->w, o->x, sym, o->w, o->y);
}

static void emit_checked(CEmit *e, const Gate *g, const Ops *o)
{
    const char *name = g->op == OP_CHECKED_ADD ? "add" : g->op == OP_CHECKED_SUB ? "sub" : "mul";
    c_out(e, "    { ci%u r; if (__builtin_%s_overflow((ci%u)%s, (ci%u)%s, &r)) CIRC_C_TRAP(2); %s = (%s)r; }\n",
          o->w, name, o->w, o->x, o->w, o->y, o->v, c_type(o->t));
}

static void emit_minmax(CEmit *e, const Gate *g, const Ops *o)
{
    bool is_signed = g->op == OP_SMIN || g->op == OP_SMAX;
    const char *cmp = g->op == OP_SMIN || g->op == OP_UMIN ? "<" : ">";
    c_out(e, "    %s = ", o->v);
    if (is_signed) {
        signed_of(e, o->t, o->x);
        c_out(e, " %s ", cmp);
        signed_of(e, o->t, o->y);
    } else {
        c_out(e, "%s %s %s", o->x, cmp, o->y);
    }
    c_out(e, " ? %s : %s;\n", o->x, o->y);
}

static void emit_mulhi(CEmit *e, const Gate *g, const Ops *o)
{
    bool is_signed = g->op == OP_SMULHI;
    const char *t = c_type(o->t);
    if (o->w == 64)
        c_out(e, "    %s = circ_c_%s(%s, %s);\n", o->v, is_signed ? "smulhi64" : "umulhi64", o->x, o->y);
    else if (is_signed)
        c_out(e, "    %s = (%s)(cu64)(((ci64)(ci%u)%s * (ci64)(ci%u)%s) >> %u);\n", o->v, t, o->w, o->x, o->w,
              o->y, o->w);
    else
        c_out(e, "    %s = (%s)(((cu64)%s * (cu64)%s) >> %u);\n", o->v, t, o->x, o->y, o->w);
}

/* binary integer operations */
static bool emit_int2(CEmit *e, const Gate *g, const Ops *o)
{
    const char *t = c_type(o->t);
    unsigned sh = o->w - 1;
    switch (g->op) {
    case OP_ADD: c_out(e, "    %s = (%s)((cu64)%s + (cu64)%s);\n", o->v, t, o->x, o->y); return true;
    case OP_SUB: c_out(e, "    %s = (%s)((cu64)%s - (cu64)%s);\n", o->v, t, o->x, o->y); return true;
    case OP_MUL: c_out(e, "    %s = (%s)((cu64)%s * (cu64)%s);\n", o->v, t, o->x, o->y); return true;
    case OP_AND: c_out(e, "    %s = (%s)(%s & %s);\n", o->v, t, o->x, o->y); return true;
    case OP_OR: c_out(e, "    %s = (%s)(%s | %s);\n", o->v, t, o->x, o->y); return true;
    case OP_XOR: c_out(e, "    %s = (%s)(%s ^ %s);\n", o->v, t, o->x, o->y); return true;
    case OP_SHL: c_out(e, "    %s = (%s)((cu64)%s << (%s & %uu));\n", o->v, t, o->x, o->y, sh); return true;
    case OP_LSHR: c_out(e, "    %s = (%s)(%s >> (%s & %uu));\n", o->v, t, o->x, o->y, sh); return true;
    case OP_ASHR:
        c_out(e, "    %s = (%s)(cu64)((ci64)(ci%u)%s >> (%s & %uu));\n", o->v, t, o->w, o->x, o->y, sh);
        return true;
    case OP_ROTL: case OP_ROTR:
        c_out(e, "    %s = (%s)circ_c_%s(%s, %s, %u);\n", o->v, t, g->op == OP_ROTL ? "rotl" : "rotr", o->x, o->y, o->w);
        return true;
    case OP_EXP: c_out(e, "    %s = (%s)circ_c_exp(%s, %s);\n", o->v, t, o->x, o->y); return true;
    case OP_SDIV: case OP_SREM: case OP_UDIV: case OP_UREM: emit_division(e, g, o); return true;
    case OP_CHECKED_ADD: case OP_CHECKED_SUB: case OP_CHECKED_MUL: emit_checked(e, g, o); return true;
    case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX: emit_minmax(e, g, o); return true;
    case OP_SMULHI: case OP_UMULHI: emit_mulhi(e, g, o); return true;
    default: return false;
    }
}

/* unary integer operations */
static bool emit_int1(CEmit *e, const Gate *g, const Ops *o)
{
    const char *t = c_type(o->t);
    switch (g->op) {
    case OP_CLZ: c_out(e, "    %s = (%s)circ_c_clz(%s, %u);\n", o->v, t, o->x, o->w); return true;
    case OP_CTZ: c_out(e, "    %s = (%s)circ_c_ctz(%s, %u);\n", o->v, t, o->x, o->w); return true;
    case OP_POPCNT: c_out(e, "    %s = (%s)circ_c_popcnt(%s);\n", o->v, t, o->x); return true;
    case OP_BSWAP: c_out(e, "    %s = (%s)__builtin_bswap%u(%s);\n", o->v, t, o->w, o->x); return true;
    case OP_ABS:
        c_out(e, "    %s = (%s)((ci%u)%s < 0 ? (cu64)0 - (cu64)%s : (cu64)%s);\n", o->v, t, o->w, o->x, o->x, o->x);
        return true;
    default: return false;
    }
}

static void emit_icmp(CEmit *e, const Gate *g, const Ops *o)
{
    static const char *const rel[16] = {[ICMP_eq] = "==", [ICMP_ne] = "!=", [ICMP_ugt] = ">", [ICMP_uge] = ">=",
                                        [ICMP_ult] = "<", [ICMP_ule] = "<=", [ICMP_sgt] = ">", [ICMP_sge] = ">=",
                                        [ICMP_slt] = "<", [ICMP_sle] = "<="};
    bool is_signed = g->cond >= ICMP_sgt;
    int c = g->cond & 15;
    if (!strcmp(o->x, o->y)) { /* x against itself: a constant (and no self-comparison warning) */
        bool holds = c == ICMP_eq || c == ICMP_uge || c == ICMP_ule || c == ICMP_sge || c == ICMP_sle;
        c_out(e, "    %s = %d;\n", o->v, holds);
        return;
    }
    c_out(e, "    %s = (cu8)(", o->v);
    if (is_signed)
        signed_of(e, o->in, o->x);
    else
        c_out(e, "%s", o->x);
    c_out(e, " %s ", rel[c] ? rel[c] : "==");
    if (is_signed)
        signed_of(e, o->in, o->y);
    else
        c_out(e, "%s", o->y);
    c_out(e, ");\n");
}

/* FCMP: the ordered codes directly, an unordered code as the negation of its
 * ordered complement (ueq = !one, ..., uno = !ord, true = !false) */
static void emit_fcmp(CEmit *e, const Gate *g, const Ops *o)
{
    int c = g->cond & 15;
    int ord = c >= 8 ? 15 - c : c;
    const char *x = o->x, *y = o->y;
    c_out(e, "    %s = (cu8)(%s", o->v, c >= 8 ? "!" : "");
    switch (ord) {
    case FCMP_oeq: c_out(e, "(%s == %s)", x, y); break;
    case FCMP_ogt: c_out(e, "(%s > %s)", x, y); break;
    case FCMP_oge: c_out(e, "(%s >= %s)", x, y); break;
    case FCMP_olt: c_out(e, "(%s < %s)", x, y); break;
    case FCMP_ole: c_out(e, "(%s <= %s)", x, y); break;
    case FCMP_one: c_out(e, "(%s < %s || %s > %s)", x, y, x, y); break;
    case FCMP_ord: c_out(e, "(%s == %s && %s == %s)", x, x, y, y); break;
    default: c_out(e, "0"); break;
    }
    c_out(e, ");\n");
}

/* is every user of g NaN-blind (docs/semantics.md 2.3): then g need not canonicalize */
static bool nan_unseen(const CEmit *e, GateId g)
{
    const Gate *gate = circ_gate(e->c, g);
    for (uint32_t i = 0; i < gate->nuses; i++) {
        const Gate *u = circ_gate(e->c, gate->uses[i].user);
        if (!u->dead && !op_has(u->op, F_NAN_BLIND))
            return false;
    }
    return true;
}

static bool emit_float2(CEmit *e, const Gate *g, const Ops *o, GateId id)
{
    static const char *const sym[] = {[OP_FADD] = "+", [OP_FSUB] = "-", [OP_FMUL] = "*", [OP_FDIV] = "/"};
    int n = o->fbits;
    switch (g->op) {
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV:
        if (nan_unseen(e, id))
            c_out(e, "    %s = %s %s %s;\n", o->v, o->x, sym[g->op], o->y);
        else
            c_out(e, "    %s = circ_c_canon%d(%s %s %s);\n", o->v, n, o->x, sym[g->op], o->y);
        return true;
    case OP_FMOD: c_out(e, "    %s = circ_rt_fmod_f%d(%s, %s);\n", o->v, n, o->x, o->y); return true;
    case OP_FEXP: c_out(e, "    %s = circ_rt_fexp_f%d(%s, %s);\n", o->v, n, o->x, o->y); return true;
    case OP_FMIN: c_out(e, "    %s = circ_c_fmin%d(%s, %s);\n", o->v, n, o->x, o->y); return true;
    case OP_FMAX: c_out(e, "    %s = circ_c_fmax%d(%s, %s);\n", o->v, n, o->x, o->y); return true;
    case OP_FCOPYSIGN: c_out(e, "    %s = circ_c_copysign%d(%s, %s);\n", o->v, n, o->x, o->y); return true;
    default: return false;
    }
}

static bool emit_float1(CEmit *e, const Gate *g, const Ops *o)
{
    const char *name;
    switch (g->op) {
    case OP_FNEG: name = "fneg"; break;
    case OP_FABS: name = "fabs"; break;
    case OP_SQRT: name = "sqrt"; break;
    case OP_FLOOR: name = "floor"; break;
    case OP_CEIL: name = "ceil"; break;
    case OP_FTRUNC: name = "ftrunc"; break;
    case OP_NEAREST: name = "nearest"; break;
    default: return false;
    }
    c_out(e, "    %s = circ_c_%s%d(%s);\n", o->v, name, o->fbits, o->x);
    return true;
}

/* FPTOSI / FPTOUI: saturated, NaN to 0 (bounds are powers of two, exact in both types) */
static void emit_ftoi(CEmit *e, const Gate *g, const Ops *o)
{
    unsigned w = (unsigned)ty_bits(o->t);
    const char *t = c_type(o->t);
    if (g->op == OP_FPTOSI)
        c_out(e, "    %s = (%s)(cu64)circ_c_fptosi%d(%s, (ci64)-0x%llxll - 1, (ci64)0x%llxll, -0x1p%u, 0x1p%u);\n", o->v, t,
              o->fbits, o->x, (unsigned long long)((1ull << (w - 1)) - 1), (unsigned long long)((1ull << (w - 1)) - 1),
              w - 1, w - 1);
    else
        c_out(e, "    %s = (%s)circ_c_fptoui%d(%s, 0x%llxull, 0x1p%u);\n", o->v, t, o->fbits, o->x,
              (unsigned long long)ty_mask(o->t), w);
}

static bool emit_conv(CEmit *e, const Gate *g, const Ops *o)
{
    const char *t = c_type(o->t);
    switch (g->op) {
    case OP_TRUNC: c_out(e, "    %s = (%s)(%s%s);\n", o->v, t, o->x, o->t == TY_I1 ? " & 1u" : ""); return true;
    case OP_ZEXT: c_out(e, "    %s = (%s)%s;\n", o->v, t, o->x); return true;
    case OP_SEXT:
        c_out(e, "    %s = (%s)(cu64)", o->v, t);
        signed_of(e, o->in, o->x);
        c_out(e, ";\n");
        return true;
    case OP_SITOFP: c_out(e, "    %s = (%s)(ci%d)%s;\n", o->v, t, ty_bits(o->in), o->x); return true;
    case OP_UITOFP: c_out(e, "    %s = (%s)%s;\n", o->v, t, o->x); return true;
    case OP_FPTOSI: case OP_FPTOUI: emit_ftoi(e, g, o); return true;
    case OP_FPEXT: c_out(e, "    %s = circ_c_canon64((double)%s);\n", o->v, o->x); return true;
    case OP_FPTRUNC: c_out(e, "    %s = circ_c_canon32((float)%s);\n", o->v, o->x); return true;
    case OP_BITCAST:
        c_out(e, "    %s = ", o->v);
        if (o->t == o->in)
            c_out(e, "%s;\n", o->x);
        else if (ty_is_float(o->t))
            c_out(e, "circ_c_f%d(%s);\n", ty_bits(o->t), o->x);
        else if (ty_is_float(o->in))
            c_out(e, "circ_c_b%d(%s);\n", ty_bits(o->in), o->x);
        else
            c_out(e, "%s;\n", o->x);
        return true;
    default: return false;
    }
}

bool c_emit_pure(CEmit *e, GateId id)
{
    const Gate *g = circ_gate(e->c, id);
    Ops o = {.t = g->type};
    snprintf(o.v, sizeof o.v, "v%u", id);
    char *ops[3] = {o.x, o.y, o.z};
    for (uint32_t i = 0; i < g->ndata && i < 3; i++)
        snprintf(ops[i], sizeof o.x, "v%u", gate_data(g, i));
    o.in = g->ndata ? circ_gate(e->c, gate_data(g, 0))->type : g->type;
    o.w = (unsigned)ty_bits(o.in);
    o.fbits = ty_is_float(o.t) ? ty_bits(o.t) : ty_bits(o.in);
    if (emit_leaf(e, g, &o, id) || emit_int2(e, g, &o) || emit_int1(e, g, &o) || emit_conv(e, g, &o))
        return true;
    if (g->op == OP_ICMP) {
        emit_icmp(e, g, &o);
        return true;
    }
    if (g->op == OP_FCMP) {
        emit_fcmp(e, g, &o);
        return true;
    }
    if (emit_float2(e, g, &o, id) || emit_float1(e, g, &o))
        return true;
    diag_gate(e->d, e->f, id, "the C backend has no translation of %s", op_info[g->op].name);
    return false;
}
