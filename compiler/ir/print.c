/* print.c — a Module in the parser's own syntax (canonical form): gates in id order,
 * unnamed gates named %t<id>, literals in their canonical spelling, each function's
 * run lines after it.  print -> parse -> print is the identity. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char **names; /* per gate id; NULL for roots, dead gates and terminators */
} Names;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* open-addressing set of strings */
typedef struct { const char **slot; size_t n; } StrSet;

static bool set_has_or_add(StrSet *s, const char *k, bool add)
{
    size_t mask = s->n - 1;
    for (size_t i = hash_str(k) & mask;; i = (i + 1) & mask) {
        if (!s->slot[i]) {
            if (add)
                s->slot[i] = k;
            return false;
        }
        if (!strcmp(s->slot[i], k))
            return true;
    }
}

static bool has_name_output(const Gate *g)
{
    return !g->dead && g->op != OP_RETURN && g->op != OP_THROW && !op_has(g->op, F_ROOT);
}

static Names make_names(const Circuit *c)
{
    Names nm;
    nm.names = calloc(c->ngates ? c->ngates : 1, sizeof(char *));
    StrSet set;
    set.n = 16;
    while (set.n < (size_t)c->ngates * 2 + 2)
        set.n *= 2;
    set.slot = calloc(set.n, sizeof(char *));
    for (uint32_t i = NUM_ROOTS; i < c->ngates; i++) {
        const Gate *g = &c->gates[i];
        if (has_name_output(g) && g->name) {
            nm.names[i] = strdup(g->name);
            set_has_or_add(&set, nm.names[i], true);
        }
    }
    for (uint32_t i = NUM_ROOTS; i < c->ngates; i++) {
        const Gate *g = &c->gates[i];
        if (!has_name_output(g) || g->name)
            continue;
        char buf[48];
        snprintf(buf, sizeof buf, "t%u", i);
        for (unsigned k = 1; set_has_or_add(&set, buf, false); k++)
            snprintf(buf, sizeof buf, "t%u.%u", i, k);
        nm.names[i] = strdup(buf);
        set_has_or_add(&set, nm.names[i], true);
    }
    free(set.slot);
    return nm;
}

static void free_names(Names *nm, const Circuit *c)
{
    for (uint32_t i = 0; i < c->ngates; i++)
        free(nm->names[i]);
    free(nm->names);
}

static void print_ref(FILE *out, const Names *nm, const Circuit *c, GateId g, int group)
{
    if ((group == 0 && g == ROOT_STATE_ENTRY) || (group == 1 && g == ROOT_DEPEND_ENTRY))
        fputs("entry", out);
    else if (g < c->ngates && nm->names[g])
        fprintf(out, "%%%s", nm->names[g]);
    else if (g == NO_GATE)
        fputs("%<none>", out);
    else
        fprintf(out, "%%<gate%u>", g);
}

static void print_gate(FILE *out, const Func *f, const Names *nm, GateId id)
{
    const Circuit *c = f->circ;
    const Gate *g = &c->gates[id];
    const OpInfo *oi = &op_info[g->op];
    fputs("  ", out);
    if (nm->names[id])
        fprintf(out, "%%%s = ", nm->names[id]);
    fputs(oi->name, out);
    if (oi->cond != CC_NONE) {
        const char *cn = cond_name((CondKind)oi->cond, g->cond);
        fprintf(out, " %s", cn ? cn : "<bad-cond>");
    }
    if (oi->tysyn == TS_REQ || (oi->tysyn == TS_OPT && g->type != TY_NONE))
        fprintf(out, " %s", ty_name((Type)g->type));
    char buf[64];
    switch (oi->lit) {
    case LIT_CONST:
        lit_format(buf, sizeof buf, (Type)g->type, g->lit);
        fprintf(out, " %s", buf);
        break;
    case LIT_INT:
        if (g->op == OP_SWITCH_CASE)
            fprintf(out, " %lld", (long long)(int64_t)g->lit);
        else
            fprintf(out, " %llu", (unsigned long long)g->lit);
        break;
    case LIT_SYM:
        if (g->lit < f->module->nfuncs || module_symbol_runtime(f->module, g->lit) >= 0)
            fprintf(out, " @%s", module_symbol_name(f->module, g->lit));
        else
            fprintf(out, " @<func%llu>", (unsigned long long)g->lit);
        break;
    default:
        break;
    }
    static const char open[3] = {'[', '{', '('}, close[3] = {']', '}', ')'};
    uint32_t counts[3] = {g->nstate, g->ndep, g->ndata};
    uint32_t k = 0;
    for (int grp = 0; grp < 3; grp++) {
        if (counts[grp] == 0) {
            /* an empty group is written only where the opcode needs the brackets to
             * show an empty list, which never happens: omit it */
            continue;
        }
        fprintf(out, " %c", open[grp]);
        for (uint32_t i = 0; i < counts[grp]; i++, k++) {
            if (i)
                fputs(", ", out);
            print_ref(out, nm, c, g->in[k], grp);
        }
        fputc(close[grp], out);
    }
    fputc('\n', out);
}

void print_func(FILE *out, const Func *f)
{
    fprintf(out, "func @%s(", f->name);
    for (uint32_t i = 0; i < f->nparams; i++)
        fprintf(out, "%s%s", i ? ", " : "", ty_name(f->params[i]));
    fprintf(out, ") -> %s {\n", ty_name(f->ret));
    const Circuit *c = f->circ;
    Names nm = make_names(c);
    for (uint32_t i = NUM_ROOTS; i < c->ngates; i++)
        if (!c->gates[i].dead)
            print_gate(out, f, &nm, i);
    free_names(&nm, c);
    fputs("}\n", out);
}

void print_func_ordered(FILE *out, const Func *f, const GateId *order, uint32_t n,
                        PrintNote note, void *ctx)
{
    fprintf(out, "func @%s(", f->name);
    for (uint32_t i = 0; i < f->nparams; i++)
        fprintf(out, "%s%s", i ? ", " : "", ty_name(f->params[i]));
    fprintf(out, ") -> %s {\n", ty_name(f->ret));
    const Circuit *c = f->circ;
    Names nm = make_names(c);
    for (uint32_t i = 0; i <= n; i++) {
        if (note)
            note(out, i, (const char *const *)nm.names, ctx);
        if (i < n && order[i] >= NUM_ROOTS && order[i] < c->ngates && !c->gates[order[i]].dead)
            print_gate(out, f, &nm, order[i]);
    }
    free_names(&nm, c);
    fputs("}\n", out);
}

void print_runline(FILE *out, const Module *m, const RunLine *r)
{
    const Func *f = m->funcs[r->func];
    char buf[64];
    fprintf(out, "; run: @%s(", f->name);
    for (uint32_t i = 0; i < r->nargs; i++) {
        if (i)
            fputs(", ", out);
        const RunArg *a = &r->args[i];
        if (a->kind == RA_HEAP)
            fputs("heap", out);
        else if (a->kind == RA_FUNC)
            fprintf(out, "@%s", a->bits < m->nfuncs ? m->funcs[a->bits]->name : "?");
        else {
            lit_format(buf, sizeof buf, f->params[i], a->bits);
            fputs(buf, out);
        }
    }
    fputs(")", out);
    const RunExpect *e = &r->expect;
    switch (e->kind) {
    case EX_VALUE:
        lit_format(buf, sizeof buf, f->ret, e->bits);
        if (!strcmp(buf, "nan")) /* an exact NaN, not `nan` (any NaN) */
            snprintf(buf, sizeof buf, "bits(0x%llx)", (unsigned long long)e->bits);
        fprintf(out, " == %s", buf);
        break;
    case EX_NAN: fputs(" == nan", out); break;
    case EX_VOID: fputs(" == void", out); break;
    case EX_TRAP: fputs(" == trap", out); break;
    case EX_TRAP_DIV0: fputs(" == trap div0", out); break;
    case EX_TRAP_OVERFLOW: fputs(" == trap overflow", out); break;
    case EX_THROW:
        if (e->is_float)
            lit_format(buf, sizeof buf, TY_F64, e->bits);
        else
            snprintf(buf, sizeof buf, "%lld", (long long)(int64_t)e->bits);
        fprintf(out, " == throw %s", buf);
        break;
    }
    fputc('\n', out);
}

/* `extern @name(T, ...) -> T`, one line each */
void print_externs(FILE *out, const Module *m)
{
    for (uint32_t e = 0; e < m->nexterns; e++) {
        const RuntimeInfo *ri = &runtime_info[m->externs[e].rt];
        fprintf(out, "extern @%s(", ri->name);
        for (uint32_t i = 0; i < ri->nparams; i++)
            fprintf(out, "%s%s", i ? ", " : "", ty_name(ri->params[i]));
        fprintf(out, ") -> %s\n", ty_name(ri->ret));
    }
}

void print_module(FILE *out, const Module *m)
{
    print_externs(out, m);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (i || m->nexterns)
            fputc('\n', out);
        print_func(out, m->funcs[i]);
        for (uint32_t k = 0; k < m->nruns; k++)
            if (m->runs[k].func == i)
                print_runline(out, m, &m->runs[k]);
    }
}
