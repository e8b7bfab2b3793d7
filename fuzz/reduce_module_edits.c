/* reduce_module_edits.c — the reducer's function-level strategies: drop run lines,
 * remove functions (through the text form, which renumbers what refers to them),
 * drop parameters (rewriting the signature, the ARG gates, every call site and the
 * run lines), shrink run-line arguments toward 0, 1, -1, run another function (with
 * arguments 0 or the constants a call of it passes; the functions it does not reach
 * removed), move a computation of an argument into the run lines' arguments; and the
 * text round trip. */
#include "fuzz/reduce_internal.h"
#include "compiler/ir/eval.h"

#include <stdlib.h>
#include <string.h>

Module *reduce_reparse(const Module *m)
{
    char *buf = NULL, *ebuf = NULL;
    size_t len = 0, elen = 0;
    FILE *out = open_memstream(&buf, &len);
    FILE *err = open_memstream(&ebuf, &elen);
    if (!out || !err)
        abort();
    print_module(out, m);
    fclose(out);
    Diag d;
    diag_init(&d, m->file ? m->file : "<reduced>", err);
    Module *r = parse_module(m->file ? m->file : "<reduced>", buf, len, &d);
    fclose(err);
    free(buf);
    free(ebuf);
    return r;
}

static Module *unchanged(Module *r, bool changed)
{
    if (changed)
        return r;
    module_free(r);
    return NULL;
}

/* ---- run lines ------------------------------------------------------------------ */
void reduce_run_units(const Module *m, UnitList *out)
{
    for (uint32_t i = 0; i < m->nruns; i++)
        units_push(out, 0, NO_GATE, i);
}

Module *reduce_drop_runs(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    Module *r = module_clone(m);
    uint8_t *drop = calloc(r->nruns + 1, 1);
    if (!drop)
        abort();
    bool changed = false;
    for (uint32_t i = 0; i < n; i++)
        if (u[i].aux < r->nruns) {
            drop[u[i].aux] = 1;
            changed = true;
        }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < r->nruns; i++)
        if (!drop[i])
            r->runs[kept++] = r->runs[i];
    r->nruns = kept;
    free(drop);
    return unchanged(r, changed);
}

void reduce_run_arg_units(const Module *m, UnitList *out)
{
    for (uint32_t i = 0; i < m->nruns; i++)
        for (uint32_t a = 0; a < m->runs[i].nargs; a++)
            if (m->runs[i].args[a].kind != RA_HEAP)
                units_push(out, i, NO_GATE, a);
}

/* variants: 0, 1, -1, half the value (integers) */
Module *reduce_shrink_run_args(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    Module *r = module_clone(m);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        if (u[i].func >= r->nruns || u[i].aux >= r->runs[u[i].func].nargs)
            continue;
        RunLine *rl = &r->runs[u[i].func];
        if (rl->func >= r->nfuncs || u[i].aux >= r->funcs[rl->func]->nparams)
            continue;
        Type t = r->funcs[rl->func]->params[u[i].aux];
        RunArg *a = &rl->args[u[i].aux];
        uint64_t val;
        if (v < 3)
            val = reduce_small_const(t, v);
        else if (ty_is_int(t))
            val = (uint64_t)(ty_sext(t, a->bits) / 2) & ty_mask(t);
        else
            continue;
        if (a->kind == RA_HEAP || val == a->bits)
            continue;
        a->bits = val;
        changed = true;
    }
    return unchanged(r, changed);
}

/* ---- functions ------------------------------------------------------------------ */
void reduce_func_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        units_push(out, f, NO_GATE, 0);
}

/* print the functions not dropped and their run lines, parse the text back */
Module *reduce_remove_funcs(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    uint8_t *drop = calloc(m->nfuncs + 1, 1);
    if (!drop)
        abort();
    for (uint32_t i = 0; i < n; i++)
        if (u[i].func < m->nfuncs)
            drop[u[i].func] = 1;
    char *buf = NULL, *ebuf = NULL;
    size_t len = 0, elen = 0;
    FILE *out = open_memstream(&buf, &len);
    FILE *err = open_memstream(&ebuf, &elen);
    if (!out || !err)
        abort();
    uint32_t kept = 0;
    print_externs(out, m);
    for (uint32_t f = 0; f < m->nfuncs; f++)
        if (!drop[f]) {
            print_func(out, m->funcs[f]);
            kept++;
        }
    for (uint32_t i = 0; i < m->nruns; i++)
        if (m->runs[i].func < m->nfuncs && !drop[m->runs[i].func])
            print_runline(out, m, &m->runs[i]);
    fclose(out);
    Module *r = NULL;
    if (kept && kept < m->nfuncs) {
        Diag d;
        diag_init(&d, m->file ? m->file : "<reduced>", err);
        r = parse_module(m->file ? m->file : "<reduced>", buf, len, &d);
    }
    fclose(err);
    free(buf);
    free(ebuf);
    free(drop);
    return r;
}

/* ---- parameters ----------------------------------------------------------------- */
void reduce_param_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (uint32_t k = 0; k < m->funcs[f]->nparams; k++)
            units_push(out, f, NO_GATE, k);
}

/* the value parameter k of f gets in its place: the first run line's argument, or 0 */
static uint64_t param_value(const Module *m, uint32_t f, uint32_t k)
{
    for (uint32_t i = 0; i < m->nruns; i++)
        if (m->runs[i].func == f && k < m->runs[i].nargs)
            return m->runs[i].args[k].kind == RA_HEAP ? HEAP_ADDR : m->runs[i].args[k].bits;
    return 0;
}

/* every direct call of f (its callee a SYMBOL of f) drops argument k */
static bool rewrite_calls(Module *m, uint32_t f, uint32_t k)
{
    for (uint32_t h = 0; h < m->nfuncs; h++) {
        Circuit *c = m->funcs[h]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
            const Gate *call = &c->gates[g];
            if (call->dead || call->op != OP_CALL || !call->ndata)
                continue;
            const Gate *callee = &c->gates[gate_data(call, 0)];
            if (callee->op != OP_SYMBOL || callee->lit != f)
                continue;
            uint32_t first = (uint32_t)call->nstate + call->ndep, nin = gate_nin(call);
            GateId in[64];
            if (nin > 64 || call->ndata < k + 2)
                return false;
            memcpy(in, call->in, nin * sizeof *in);
            memmove(in + first + k + 1, in + first + k + 2, (nin - first - k - 2) * sizeof *in);
            circ_set_inputs(c, g, in, call->nstate, in + call->nstate, call->ndep, in + first, call->ndata - 1);
        }
    }
    return true;
}

static void rewrite_args(Module *m, uint32_t f, uint32_t k, uint64_t value)
{
    Circuit *c = m->funcs[f]->circ;
    Type t = m->funcs[f]->params[k];
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_ARG)
            continue;
        if (gt->lit == k) {
            GateId v = circ_const(c, t, value);
            circ_replace_uses(c, g, v);
            circ_kill(c, g);
        } else if (gt->lit > k) {
            gt->lit--;
        }
    }
}

Module *reduce_drop_param(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    if (n != 1 || u->func >= m->nfuncs || u->aux >= m->funcs[u->func]->nparams)
        return NULL;
    uint32_t f = u->func, k = u->aux;
    Module *r = module_clone(m);
    if (!rewrite_calls(r, f, k)) {
        module_free(r);
        return NULL;
    }
    rewrite_args(r, f, k, param_value(m, f, k));
    Func *fn = r->funcs[f];
    Type *p = arena_alloc(r->arena, (fn->nparams ? fn->nparams : 1) * sizeof *p);
    for (uint32_t i = 0, j = 0; i < fn->nparams; i++)
        if (i != k)
            p[j++] = fn->params[i];
    fn->params = p;
    fn->nparams--;
    for (uint32_t i = 0; i < r->nruns; i++) {
        RunLine *rl = &r->runs[i];
        if (rl->func != f || k >= rl->nargs)
            continue;
        memmove(rl->args + k, rl->args + k + 1, (rl->nargs - k - 1) * sizeof *rl->args);
        rl->nargs--;
    }
    return r;
}

/* ---- run-line targets ------------------------------------------------------------- */
/* the functions f reaches through SYMBOL gates (f included), marked in keep */
static void mark_reachable(const Module *m, uint32_t f, uint8_t *keep)
{
    if (keep[f])
        return;
    keep[f] = 1;
    const Circuit *c = m->funcs[f]->circ;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (!c->gates[g].dead && c->gates[g].op == OP_SYMBOL && c->gates[g].lit < m->nfuncs)
            mark_reachable(m, (uint32_t)c->gates[g].lit, keep);
}

/* the integer constant arguments of the first direct call of f whose arguments are
 * all integer constants, into args; false if there is none */
static bool constant_call_args(const Module *m, uint32_t f, int64_t *args)
{
    const Func *fn = m->funcs[f];
    for (uint32_t h = 0; h < m->nfuncs; h++) {
        const Circuit *c = m->funcs[h]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
            const Gate *call = &c->gates[g];
            if (call->dead || call->op != OP_CALL || call->ndata != fn->nparams + 1 ||
                c->gates[gate_data(call, 0)].op != OP_SYMBOL || c->gates[gate_data(call, 0)].lit != f)
                continue;
            bool constant = true;
            for (uint32_t a = 0; a < fn->nparams && constant; a++) {
                const Gate *x = &c->gates[gate_data(call, a + 1)];
                constant = x->op == OP_CONSTANT && ty_is_int(fn->params[a]) && x->type == fn->params[a];
                args[a] = !constant ? 0 : fn->params[a] == TY_I1 ? (int64_t)x->lit : ty_sext(fn->params[a], x->lit);
            }
            if (constant)
                return true;
        }
    }
    return false;
}

/* every run line calls function u->func instead (variant 0: arguments 0, 1: the
 * constant arguments a call of it passes), and only the functions it reaches stay */
Module *reduce_retarget_runs(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    if (n != 1 || u->func >= m->nfuncs || !m->nruns || m->funcs[u->func]->nparams > 64)
        return NULL;
    const Func *f = m->funcs[u->func];
    int64_t args[64] = {0};
    if (v == 1 && (!f->nparams || !constant_call_args(m, u->func, args)))
        return NULL;
    bool same = true;
    for (uint32_t i = 0; i < m->nruns; i++)
        same &= m->runs[i].func == u->func;
    if (same)
        return NULL;
    uint8_t *keep = calloc(m->nfuncs, 1);
    if (!keep)
        abort();
    mark_reachable(m, u->func, keep);
    char *buf = NULL, *ebuf = NULL;
    size_t len = 0, elen = 0;
    FILE *out = open_memstream(&buf, &len);
    FILE *err = open_memstream(&ebuf, &elen);
    if (!out || !err)
        abort();
    print_externs(out, m);
    for (uint32_t k = 0; k < m->nfuncs; k++)
        if (keep[k])
            print_func(out, m->funcs[k]);
    fprintf(out, "; run: @%s(", f->name);
    for (uint32_t a = 0; a < f->nparams; a++)
        fprintf(out, "%s%lld", a ? ", " : "", (long long)args[a]);
    fprintf(out, ") == 0\n");
    fclose(out);
    Diag d;
    diag_init(&d, m->file ? m->file : "<reduced>", err);
    Module *r = parse_module(m->file ? m->file : "<reduced>", buf, len, &d);
    fclose(err);
    free(buf);
    free(ebuf);
    free(keep);
    return r;
}

/* ---- an argument's computation moved into the run lines ---------------------------- */
/* the ARG input of g if g is a pure computation of that argument and constants, of the
 * argument's type; else NO_GATE */
static GateId arg_computation(const Circuit *c, GateId g)
{
    const Gate *gt = &c->gates[g];
    if (gt->dead || !op_has(gt->op, F_PURE) || !gt->ndata || gt->ndata > 2 || gt->op == OP_CONSTANT ||
        gt->op == OP_ARG || gt->op == OP_ALLOCA || gt->op == OP_SYMBOL)
        return NO_GATE;
    GateId arg = NO_GATE;
    for (uint32_t i = 0; i < gt->ndata; i++) {
        const Gate *x = &c->gates[gate_data(gt, i)];
        if (x->op == OP_ARG && (arg == NO_GATE || arg == gate_data(gt, i)))
            arg = gate_data(gt, i);
        else if (x->op != OP_CONSTANT)
            return NO_GATE;
    }
    return arg != NO_GATE && c->gates[arg].type == gt->type ? arg : NO_GATE;
}

void reduce_arg_computation_units(const Module *m, UnitList *out)
{
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const Circuit *c = m->funcs[f]->circ;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++)
            if (arg_computation(c, g) != NO_GATE)
                units_push(out, f, g, 0);
    }
}

/* the value of computation g for run line rl's arguments; false if it traps */
static bool computed_for_run(const Circuit *c, GateId g, const RunLine *rl, uint64_t *out)
{
    const Gate *gt = &c->gates[g];
    uint64_t in[2];
    for (uint32_t i = 0; i < gt->ndata; i++) {
        const Gate *x = &c->gates[gate_data(gt, i)];
        if (x->op == OP_ARG && (x->lit >= rl->nargs || rl->args[x->lit].kind == RA_HEAP))
            return false;
        in[i] = x->op == OP_ARG ? rl->args[x->lit].bits : x->lit;
    }
    Type in_ty = (Type)c->gates[gate_data(gt, 0)].type;
    return eval_pure(gt->op, (Type)gt->type, gt->cond, in_ty, in, gt->ndata, out) == EVAL_OK;
}

/* computation g of an argument (and constants) replaced by the argument itself, each
 * run line of the function given the value g had as that argument (cuts `%x & 3`
 * and the like in front of what a run line's input feeds; calls of the function from
 * inside the module keep their arguments) */
Module *reduce_fold_arg_computation(const Module *m, const Unit *u, uint32_t n, uint32_t v)
{
    (void)v;
    if (n != 1 || u->func >= m->nfuncs)
        return NULL;
    Module *r = module_clone(m);
    Circuit *c = r->funcs[u->func]->circ;
    GateId arg = reduce_gate_live(c, u->gate) ? arg_computation(c, u->gate) : NO_GATE;
    bool ok = arg != NO_GATE;
    for (uint32_t i = 0; i < r->nruns && ok; i++) {
        RunLine *rl = &r->runs[i];
        uint64_t val;
        if (rl->func != u->func)
            continue;
        ok = computed_for_run(c, u->gate, rl, &val);
        if (ok)
            rl->args[c->gates[arg].lit].bits = val;
    }
    if (!ok) {
        module_free(r);
        return NULL;
    }
    circ_replace_uses(c, u->gate, arg);
    circ_kill(c, u->gate);
    return r;
}
