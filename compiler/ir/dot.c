/* dot.c — Graphviz export: one cluster per function; state gates boxes, computation
 * gates ellipses, roots diamonds; state wires bold blue, dependency wires dashed red,
 * data wires solid black; the exceptional edge (INVOKE -> IF_EXCEPTION) dashed blue.  Edges point from a gate to its user (dataflow direction). */
#include "ir.h"

#include <string.h>

static void dot_label(FILE *out, const Func *f, GateId id)
{
    const Gate *g = &f->circ->gates[id];
    const OpInfo *oi = &op_info[g->op];
    if (g->name)
        fprintf(out, "%%%s = ", g->name);
    fputs(oi->name, out);
    if (oi->cond != CC_NONE) {
        const char *cn = cond_name((CondKind)oi->cond, g->cond);
        fprintf(out, " %s", cn ? cn : "?");
    }
    if (oi->tysyn != TS_NONE && g->type != TY_NONE)
        fprintf(out, " %s", ty_name((Type)g->type));
    char buf[64];
    if (oi->lit == LIT_CONST) {
        lit_format(buf, sizeof buf, (Type)g->type, g->lit);
        fprintf(out, " %s", buf);
    } else if (oi->lit == LIT_INT) {
        fprintf(out, " %lld", (long long)g->lit);
    } else if (oi->lit == LIT_SYM && g->lit < f->module->nfuncs) {
        fprintf(out, " @%s", f->module->funcs[g->lit]->name);
    }
}

static bool gate_used(const Circuit *c, GateId id)
{
    const Gate *g = &c->gates[id];
    if (g->dead)
        return false;
    if (!op_has(g->op, F_ROOT) || id == ROOT_STATE_ENTRY || id == ROOT_DEPEND_ENTRY)
        return true;
    return false;
}

static void dot_func(FILE *out, const Func *f)
{
    const Circuit *c = f->circ;
    unsigned fi = f->index;
    fprintf(out, "  subgraph cluster_%u {\n    label=\"@%s\";\n", fi, f->name);
    for (GateId i = 0; i < c->ngates; i++) {
        if (!gate_used(c, i))
            continue;
        const Gate *g = &c->gates[i];
        const char *shape = op_has(g->op, F_ROOT) ? "diamond" : op_has(g->op, F_STATE) ? "box" : "ellipse";
        const char *style = op_has(g->op, F_ROOT)    ? "filled\", fillcolor=\"gray85"
                            : op_has(g->op, F_STATE) ? "filled\", fillcolor=\"lightblue"
                            : (g->op == OP_VALUE_SELECTOR || g->op == OP_DEPEND_SELECTOR || g->op == OP_DEPEND_RELAY ||
                               g->op == OP_DEPEND_AND || g->op == OP_GET_EXCEPTION)
                                ? "filled\", fillcolor=\"khaki"
                                : "solid";
        fprintf(out, "    f%u_g%u [shape=%s, style=\"%s\", label=\"", fi, i, shape, style);
        dot_label(out, f, i);
        fputs("\"];\n", out);
    }
    for (GateId i = NUM_ROOTS; i < c->ngates; i++) {
        const Gate *g = &c->gates[i];
        if (g->dead)
            continue;
        for (uint32_t k = 0; k < gate_nin(g); k++) {
            GateId src = g->in[k];
            if (src == NO_GATE || src >= c->ngates)
                continue;
            const char *attr = k < g->nstate && g->op == OP_IF_EXCEPTION ? "color=blue, penwidth=2, style=dashed"
                               : k < g->nstate                ? "color=blue, penwidth=2"
                               : k < (uint32_t)g->nstate + g->ndep ? "color=red, style=dashed"
                                                             : "color=black";
            fprintf(out, "    f%u_g%u -> f%u_g%u [%s];\n", fi, src, fi, i, attr);
        }
    }
    fputs("  }\n", out);
}

void dot_module(FILE *out, const Module *m)
{
    fputs("digraph circ {\n  node [fontname=\"monospace\", fontsize=10];\n"
          "  edge [arrowsize=0.6];\n", out);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        dot_func(out, m->funcs[i]);
    fputs("}\n", out);
}
