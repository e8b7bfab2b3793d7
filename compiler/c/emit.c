/* emit.c — the C backend's module and function structure (cemit.h): declarations,
 * one C function per circ function with its blocks as labels, effects, calls,
 * terminators with the edges' parallel copies, exceptions by the threw flag, and
 * the exported functions with circ's calling convention. */
#include "compiler/c/cemit_internal.h"
#include "compiler/lir/lower.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void c_out(CEmit *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(e->out, fmt, ap);
    va_end(ap);
}

const char *c_type(Type t)
{
    static const char *const names[TY_COUNT] = {"void", "cu8", "cu8", "cu16", "cu32", "cu64", "float", "double"};
    return t < TY_COUNT ? names[t] : "void";
}

void c_to_bits(CEmit *e, Type t, const char *v)
{
    if (ty_is_float(t))
        c_out(e, "(cu64)circ_c_b%d(%s)", ty_bits(t), v);
    else
        c_out(e, "(cu64)%s", v);
}

void c_from_bits(CEmit *e, Type t, const char *bits)
{
    if (t == TY_F32)
        c_out(e, "circ_c_f32((cu32)%s)", bits);
    else if (t == TY_F64)
        c_out(e, "circ_c_f64(%s)", bits);
    else
        c_out(e, "(%s)%s", c_type(t), bits);
}

void c_symbol_addr(CEmit *e, uint64_t lit)
{
    int rt = module_symbol_runtime(e->m, lit);
    if (rt >= 0)
        c_out(e, "(cu64)(cuptr)&circ_c_%s", runtime_info[rt].name);
    else
        c_out(e, "(cu64)(cuptr)&circ_c_x%u", (unsigned)lit);
}

/* ---- calls ------------------------------------------------------------------- */

/* the arguments of call g (data inputs 1..) as "v1, v2" */
static void call_args(CEmit *e, const Gate *g)
{
    for (uint32_t i = 1; i < g->ndata; i++)
        c_out(e, "%sv%u", i > 1 ? ", " : "", gate_data(g, i));
}

/* does callee k (a module function, or the runtime function rt when rt >= 0) take
 * the arguments and give the result of call g */
static bool signature_fits(const CEmit *e, const Gate *g, const Func *k, int rt)
{
    uint32_t n = rt >= 0 ? runtime_info[rt].nparams : k->nparams;
    Type ret = rt >= 0 ? runtime_info[rt].ret : k->ret;
    if (n + 1 != g->ndata || ret != (Type)g->type)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if ((rt >= 0 ? runtime_info[rt].params[i] : k->params[i]) != circ_gate(e->c, gate_data(g, i + 1))->type)
            return false;
    return true;
}

/* `r = CALLEE(args)` (throwing module: r a CircCRet; else the value into dst, "" for
 * none) for module function k or runtime function rt */
static void call_one(CEmit *e, const Gate *g, uint32_t k, int rt, const char *dst)
{
    bool wrapped = rt >= 0 || e->throws;
    if (e->throws)
        c_out(e, "r = ");
    else if (*dst)
        c_out(e, "%s = ", dst);
    if (rt >= 0)
        c_out(e, "circ_c_%s(", runtime_info[rt].name);
    else
        c_out(e, "circ_c_fn%u(", k);
    call_args(e, g);
    c_out(e, ")%s; ", wrapped && !e->throws ? ".bits" : "");
}

/* a call through a computed address: a test per callee of the right signature */
static void call_dispatch(CEmit *e, const Gate *g, const char *dst)
{
    GateId callee = gate_data(g, 0);
    for (uint32_t k = 0; k < e->m->nfuncs; k++) {
        if (!signature_fits(e, g, e->m->funcs[k], -1))
            continue;
        c_out(e, "if (v%u == (cu64)(cuptr)&circ_c_x%u) { ", callee, k);
        call_one(e, g, k, -1, dst);
        c_out(e, "} else ");
    }
    for (uint32_t x = 0; x < e->m->nexterns; x++) {
        int rt = (int)e->m->externs[x].rt;
        if (!signature_fits(e, g, NULL, rt))
            continue;
        c_out(e, "if (v%u == (cu64)(cuptr)&circ_c_%s) { ", callee, runtime_info[rt].name);
        call_one(e, g, 0, rt, dst);
        c_out(e, "} else ");
    }
    c_out(e, "CIRC_C_TRAP(4);\n");
}

/* the call of CALL or INVOKE g; in a throwing module it leaves the CircCRet in `r`
 * (declared by the caller) and the value is taken from it by the caller */
static void emit_call_expr(CEmit *e, GateId id, const char *dst)
{
    const Gate *g = circ_gate(e->c, id);
    const Gate *callee = circ_gate(e->c, gate_data(g, 0));
    c_out(e, "    ");
    if (callee->op == OP_SYMBOL) {
        int rt = module_symbol_runtime(e->m, callee->lit);
        call_one(e, g, (uint32_t)callee->lit, rt, dst);
        c_out(e, "\n");
    } else {
        call_dispatch(e, g, dst);
    }
}

/* the value of call g from r.bits (throwing module) */
static void take_result(CEmit *e, GateId id)
{
    Type t = circ_gate(e->c, id)->type;
    if (t == TY_NONE)
        return;
    c_out(e, "    v%u = ", id);
    c_from_bits(e, t, "r.bits");
    c_out(e, ";\n");
}

static void emit_call(CEmit *e, GateId id)
{
    char dst[16] = "";
    if (circ_gate(e->c, id)->type != TY_NONE)
        snprintf(dst, sizeof dst, "v%u", id);
    if (!e->throws) {
        emit_call_expr(e, id, dst);
        return;
    }
    c_out(e, "    {\n    CircCRet r;\n");
    emit_call_expr(e, id, dst);
    c_out(e, "    if (r.flag) return r; /* a throw passes through */\n");
    take_result(e, id);
    c_out(e, "    }\n");
}

/* ---- gates and effects ------------------------------------------------------- */

static bool emit_gate(CEmit *e, GateId id)
{
    const Gate *g = circ_gate(e->c, id);
    switch (g->op) {
    case OP_DEPEND_RELAY: case OP_DEPEND_AND: case OP_DEPEND_SELECTOR: case OP_GET_EXCEPTION:
        return true; /* no code: dependencies, and the bits an INVOKE's landing set */
    case OP_CALL: emit_call(e, id); return true;
    case OP_LOAD:
        c_out(e, "    v%u = circ_c_ld%s(v%u);\n", id, ty_is_float(g->type) ? (g->type == TY_F32 ? "f32" : "f64")
                                                   : c_type(g->type) + 1, gate_data(g, 0));
        return true;
    case OP_STORE: {
        Type t = circ_gate(e->c, gate_data(g, 0))->type;
        c_out(e, "    circ_c_st%s(v%u, v%u);\n", ty_is_float(t) ? (t == TY_F32 ? "f32" : "f64") : c_type(t) + 1,
              gate_data(g, 1), gate_data(g, 0));
        return true;
    }
    default: return c_emit_pure(e, id);
    }
}

/* ---- edges and terminators --------------------------------------------------- */

static void emit_edge(CEmit *e, const Edge *edge)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < edge->ncopies; i++) {
        const EdgeCopy *cp = &edge->copies[i];
        const Gate *sel = circ_gate(e->c, cp->selector);
        if (sel->op != OP_VALUE_SELECTOR)
            continue;
        if (!n)
            c_out(e, "    {\n");
        c_out(e, "    %s t%u = v%u;\n", c_type(sel->type), i, cp->value);
        n++;
    }
    for (uint32_t i = 0; n && i < edge->ncopies; i++)
        if (circ_gate(e->c, edge->copies[i].selector)->op == OP_VALUE_SELECTOR)
            c_out(e, "    v%u = t%u;\n", edge->copies[i].selector, i);
    c_out(e, "    goto b%u;\n%s", edge->to, n ? "    }\n" : "");
}

/* return (flag 0) or throw (flag 1 + type) of value gate v (NO_GATE: none) */
static void emit_exit(CEmit *e, GateId v, bool is_throw)
{
    Type t = v == NO_GATE ? TY_NONE : circ_gate(e->c, v)->type;
    char name[16];
    snprintf(name, sizeof name, "v%u", v);
    if (!e->throws) {
        c_out(e, v == NO_GATE ? "    return;\n" : "    return %s;\n", name);
        return;
    }
    c_out(e, "    { CircCRet r = {");
    if (v == NO_GATE)
        c_out(e, "0");
    else
        c_to_bits(e, t, name);
    c_out(e, ", %u}; return r; }\n", is_throw ? 1u + t : 0u);
}

static void emit_switch(CEmit *e, const Block *b, const Gate *br)
{
    GateId x = gate_data(br, 0);
    Type t = circ_gate(e->c, x)->type;
    uint32_t ncases = b->nsuccs - 1;
    c_out(e, "    switch (v%u) {\n", x);
    for (uint32_t i = 0; i < ncases; i++) {
        uint64_t v = b->case_values[i] & ty_mask(t);
        bool seen = false;
        for (uint32_t j = 0; j < i; j++)
            seen = seen || (b->case_values[j] & ty_mask(t)) == v;
        if (seen)
            continue; /* the first case of a value takes it */
        c_out(e, "    case (%s)0x%llxull: {\n", c_type(t), (unsigned long long)v);
        emit_edge(e, &b->succs[i]);
        c_out(e, "    }\n");
    }
    c_out(e, "    default: {\n");
    emit_edge(e, &b->succs[ncases]);
    c_out(e, "    }\n    }\n");
}

/* the GET_EXCEPTIONs on INVOKE inv's IF_EXCEPTION take r.bits */
static void emit_landing(CEmit *e, GateId inv)
{
    const Gate *g = circ_gate(e->c, inv);
    for (uint32_t i = 0; i < g->nuses; i++) {
        const Gate *ex = circ_gate(e->c, g->uses[i].user);
        if (ex->dead || ex->op != OP_IF_EXCEPTION)
            continue;
        for (uint32_t j = 0; j < ex->nuses; j++) {
            GateId u = ex->uses[j].user;
            const Gate *ug = circ_gate(e->c, u);
            if (!ug->dead && ug->op == OP_GET_EXCEPTION && e->s->gate_block[u] != NO_BLOCK)
                c_out(e, "    v%u = r.bits;\n", u);
        }
    }
}

static void emit_invoke(CEmit *e, const Block *b)
{
    GateId id = b->term_gate;
    char dst[16] = "";
    if (circ_gate(e->c, id)->type != TY_NONE)
        snprintf(dst, sizeof dst, "v%u", id);
    if (!e->throws) {
        emit_call_expr(e, id, dst);
        emit_edge(e, &b->succs[0]);
        return;
    }
    c_out(e, "    {\n    CircCRet r;\n");
    emit_call_expr(e, id, dst);
    c_out(e, "    if (r.flag) {\n");
    emit_landing(e, id);
    emit_edge(e, &b->succs[1]);
    c_out(e, "    }\n");
    take_result(e, id);
    emit_edge(e, &b->succs[0]);
    c_out(e, "    }\n");
}

static void emit_term(CEmit *e, const Block *b)
{
    const Gate *t = circ_gate(e->c, b->term_gate);
    switch (b->term) {
    case TERM_GOTO: emit_edge(e, &b->succs[0]); break;
    case TERM_IF:
        c_out(e, "    if (v%u) {\n", gate_data(t, 0));
        emit_edge(e, &b->succs[0]);
        c_out(e, "    } else {\n");
        emit_edge(e, &b->succs[1]);
        c_out(e, "    }\n");
        break;
    case TERM_SWITCH: emit_switch(e, b, t); break;
    case TERM_INVOKE: emit_invoke(e, b); break;
    case TERM_RETURN: emit_exit(e, t->ndata ? gate_data(t, 0) : NO_GATE, false); break;
    case TERM_THROW: emit_exit(e, gate_data(t, 0), true); break;
    default: break;
    }
}

/* ---- functions --------------------------------------------------------------- */

/* the internal C signature of function k: "static RET circ_c_fK(T p0, ...)" */
void c_emit_signature(CEmit *e, const Func *f)
{
    c_out(e, "static %s circ_c_fn%u(", e->throws ? "CircCRet" : c_type(f->ret), f->index);
    for (uint32_t i = 0; i < f->nparams; i++)
        c_out(e, "%s%s p%u", i ? ", " : "", c_type(f->params[i]), i);
    c_out(e, "%s)", f->nparams ? "" : "void");
}

/* which gates have a variable: values of scheduled gates, selectors, INVOKEs */
static bool *value_gates(CEmit *e)
{
    const Schedule *s = e->s;
    bool *has = calloc(s->ngates + 1, 1);
    if (!has)
        abort();
    for (uint32_t bi = 0; bi < s->nblocks; bi++) {
        const Block *b = &s->blocks[bi];
        for (uint32_t i = 0; i < b->ngates; i++)
            has[b->gates[i]] = circ_gate(e->c, b->gates[i])->type != TY_NONE;
        for (uint32_t i = 0; i < b->nparams; i++)
            has[b->params[i]] = circ_gate(e->c, b->params[i])->type != TY_NONE;
        if (b->term == TERM_INVOKE)
            has[b->term_gate] = circ_gate(e->c, b->term_gate)->type != TY_NONE;
    }
    return has;
}

static void emit_locals(CEmit *e)
{
    bool *has = value_gates(e);
    for (GateId g = 0; g < e->s->ngates; g++)
        if (has[g])
            c_out(e, "    %s v%u = 0;\n", c_type(circ_gate(e->c, g)->type), g);
    for (GateId g = 0; g < e->s->ngates; g++) {
        const Gate *gate = circ_gate(e->c, g);
        if (has[g] && gate->op == OP_ALLOCA)
            c_out(e, "    _Alignas(16) cu8 a%u[%llu];\n    __builtin_memset(a%u, 0, sizeof a%u);\n", g,
                  (unsigned long long)(gate->lit ? gate->lit : 1), g, g);
    }
    for (GateId g = 0; g < e->s->ngates; g++)
        if (has[g])
            c_out(e, "    (void)v%u;\n", g);
    for (uint32_t i = 0; i < e->f->nparams; i++)
        c_out(e, "    (void)p%u;\n", i);
    free(has);
}

/* does emit_term write a goto for edge i of b?  Not for an INVOKE's exception edge in
 * a module without throws (emit_invoke) */
static bool edge_emitted(const CEmit *e, const Block *b, uint32_t i)
{
    return !(b->term == TERM_INVOKE && i == 1 && !e->throws);
}

static bool emit_body(CEmit *e)
{
    const Schedule *s = e->s;
    bool *target = calloc(s->nblocks + 1, 1);
    if (!target)
        abort();
    for (uint32_t bi = 0; bi < s->nblocks; bi++) /* a label only where a goto leads */
        for (uint32_t i = 0; i < s->blocks[bi].nsuccs; i++)
            if (edge_emitted(e, &s->blocks[bi], i))
                target[s->blocks[bi].succs[i].to] = true;
    bool ok = true;
    for (uint32_t bi = 0; ok && bi < s->nblocks; bi++) {
        const Block *b = &s->blocks[bi];
        if (target[bi])
            c_out(e, "b%u:;\n", bi);
        for (uint32_t i = 0; ok && i < b->ngates; i++)
            ok = emit_gate(e, b->gates[i]);
        emit_term(e, b);
    }
    free(target);
    return ok;
}

bool c_emit_func(CEmit *e, const Func *f, const Schedule *s)
{
    e->f = f;
    e->c = f->circ;
    e->s = s;
    c_emit_signature(e, f);
    c_out(e, "\n{\n");
    emit_locals(e);
    bool ok = emit_body(e);
    c_out(e, "}\n\n");
    return ok;
}
