/* interp_cfg.c — the interpreter of the scheduled form (see interp_cfg.h).
 *
 * Each activation walks blocks from the entry: on entering a block through an edge
 * into a join, the edge's parallel copies give the join's live selectors their values
 * (all read before any is written); then every gate of the block runs in its
 * scheduled order (pure gates through val_pure, memory through oracle/mem.h, calls
 * into the callee's own schedule); then the terminator picks the next block or ends
 * the activation.  A gate read before it ran in the current activation means the
 * schedule is wrong, and is reported as an invalid outcome naming the gate.
 *
 * Pure gates that cannot trap may run where the program does not demand them (code
 * motion), so an address escaping into one (an invalid program) poisons its value
 * instead of ending the run; the run is invalid only if a poisoned value is demanded:
 * by an effect, a trapping gate, a branch, a terminator or an edge copy, as in the
 * graph interpreter.
 *
 * Exceptions: a THROW (cfg_interp_throw) ends every activation up to the nearest
 * INVOKE, a block terminator, which then takes its IF_EXCEPTION edge; GET_EXCEPTION,
 * first in that block, reads the bits it caught. */
#include "oracle/interp_cfg.h"

#include "compiler/ir/eval.h"
#include "oracle/mem.h"
#include "oracle/runtime.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t bits;
    uint32_t prov;  /* provenance (mem.h) */
    uint32_t tok;   /* dependency output: the effect instance it stands for */
    uint32_t stamp; /* == frame epoch: computed in this activation */
    uint32_t poison;/* gate + 1 where an address escaped into a pure gate (prov: its
                       provenance); 0 if the value is good */
} Slot;

typedef struct {
    const Schedule *s;
    const Func *f;
    Slot *slots;
    uint32_t capslots;
    Val *args;
    uint32_t nargs, capargs;
    uint32_t epoch;
    uint32_t call_inst; /* the CALL instance this activation runs for (0 at top level) */
    uint32_t entry_tok; /* what DEPEND_ENTRY stands for */
    uint64_t caught;    /* the bits an INVOKE of this activation caught last */
} Frame;

struct CfgInterp {
    const Module *m;
    Schedule **sched;   /* per function */
    bool borrowed;      /* the schedules belong to the caller */
    uint64_t max_steps;
    uint32_t max_depth;
    Mem *mem;
    bool own_mem;       /* else borrowed: InterpOptions.memory */
    Frame **frames;     /* one per call depth reached so far (< max_depth) */
    uint32_t nframes, capframes;
    uint32_t depth;
    uint32_t epoch;
    uint64_t steps;
    Slot *scratch;      /* parallel copies */
    uint32_t capscratch;
    Outcome *out;
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

/* the frame of call depth d (< max_depth), allocated on first use; never moves */
static Frame *frame_at(CfgInterp *ci, uint32_t d)
{
    if (d >= ci->capframes) {
        ci->capframes = d + 1 > 2 * ci->capframes ? d + 1 : 2 * ci->capframes;
        ci->frames = xrealloc(ci->frames, ci->capframes * sizeof *ci->frames);
    }
    while (ci->nframes <= d) {
        ci->frames[ci->nframes] = calloc(1, sizeof(Frame));
        if (!ci->frames[ci->nframes])
            abort();
        ci->nframes++;
    }
    return ci->frames[d];
}

/* the interpreter around ci->sched (set by the caller) */
static CfgInterp *finish_new(CfgInterp *ci, const Module *m, const InterpOptions *opt, bool ok)
{
    ci->m = m;
    ci->max_steps = opt && opt->max_steps ? opt->max_steps : 10000000;
    if (ci->max_steps > 0x7fffffffu)
        ci->max_steps = 0x7fffffffu;
    ci->max_depth = opt && opt->max_depth ? opt->max_depth : 256;
    ci->own_mem = !(opt && opt->memory);
    ci->mem = ci->own_mem ? mem_new(m) : mem_rebind(opt->memory, m);
    if (!ok) {
        cfg_interp_free(ci);
        return NULL;
    }
    return ci;
}

CfgInterp *cfg_interp_new(const Module *m, const InterpOptions *opt, const SchedOptions *sopt, Diag *d)
{
    CfgInterp *ci = calloc(1, sizeof *ci);
    if (!ci)
        abort();
    ci->m = m;
    ci->sched = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *ci->sched);
    bool ok = ci->sched != NULL;
    for (uint32_t i = 0; ok && i < m->nfuncs; i++)
        ok = (ci->sched[i] = schedule_func(m->funcs[i], sopt, d)) != NULL;
    return finish_new(ci, m, opt, ok);
}

CfgInterp *cfg_interp_scheduled(const Module *m, Schedule *const *sched, const InterpOptions *opt)
{
    CfgInterp *ci = calloc(1, sizeof *ci);
    if (!ci)
        abort();
    ci->sched = (Schedule **)sched;
    ci->borrowed = true;
    return finish_new(ci, m, opt, true);
}

void cfg_interp_free(CfgInterp *ci)
{
    if (!ci)
        return;
    for (uint32_t i = 0; ci->sched && !ci->borrowed && i < ci->m->nfuncs; i++)
        schedule_free(ci->sched[i]);
    for (uint32_t i = 0; i < ci->nframes; i++) {
        free(ci->frames[i]->slots);
        free(ci->frames[i]->args);
        free(ci->frames[i]);
    }
    if (!ci->borrowed)
        free(ci->sched);
    free(ci->frames);
    free(ci->scratch);
    if (ci->own_mem)
        mem_free(ci->mem);
    free(ci);
}

const Schedule *cfg_interp_schedule(const CfgInterp *ci, uint32_t func)
{
    return func < ci->m->nfuncs ? ci->sched[func] : NULL;
}

/* ---- failures ---------------------------------------------------------------- */
__attribute__((format(printf, 3, 4))) static bool fail(CfgInterp *ci, int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ci->out->kind = (uint8_t)kind;
    vsnprintf(ci->out->reason, sizeof ci->out->reason, fmt, ap);
    va_end(ap);
    return false;
}

static bool fail_gate(CfgInterp *ci, const Frame *fr, GateId g, const char *what)
{
    char l[64];
    return fail(ci, OUT_INVALID, "in @%s: %s %s: %s", fr->f->name, op_info[circ_gate(fr->f->circ, g)->op].name,
                gate_label(fr->f, g, l, sizeof l), what);
}

static bool fail_escape(CfgInterp *ci, const Frame *fr, uint32_t prov, GateId user)
{
    char d[100], l[64];
    mem_describe(ci->mem, prov, d, sizeof d);
    return fail(ci, OUT_INVALID, "in @%s: address of %s escapes into %s %s", fr->f->name, d,
                op_info[circ_gate(fr->f->circ, user)->op].name, gate_label(fr->f, user, l, sizeof l));
}

static bool step(CfgInterp *ci)
{
    if (++ci->steps <= ci->max_steps)
        return true;
    return fail(ci, OUT_TIMEOUT, "step budget of %llu exhausted", (unsigned long long)ci->max_steps);
}

/* ---- operands ---------------------------------------------------------------- */

static __attribute__((noinline, cold)) bool fail_unready(CfgInterp *ci, const Frame *fr, GateId x, GateId user)
{
    char l[64], why[128];
    snprintf(why, sizeof why, "scheduled before its input %s was computed", gate_label(fr->f, x, l, sizeof l));
    return fail_gate(ci, fr, user, why);
}

/* has input x of gate `user` been computed in this activation? */
static inline bool ready(CfgInterp *ci, const Frame *fr, GateId x, GateId user)
{
    if (x == ROOT_DEPEND_ENTRY || (x < fr->s->ngates && fr->slots[x].stamp == fr->epoch))
        return true;
    return fail_unready(ci, fr, x, user);
}

static bool inputs_ready(CfgInterp *ci, const Frame *fr, GateId g, const Gate *G)
{
    const GateId *in = G->in;
    for (uint32_t i = G->nstate, nin = gate_nin(G); i < nin; i++)
        if (!ready(ci, fr, in[i], g))
            return false;
    return true;
}

static Val value_of(const Frame *fr, GateId g) { return (Val){fr->slots[g].bits, fr->slots[g].prov}; }

/* input x is demanded: a poisoned value makes the run invalid here */
static bool observe(CfgInterp *ci, const Frame *fr, GateId x)
{
    if (x >= fr->s->ngates || !fr->slots[x].poison)
        return true;
    return fail_escape(ci, fr, fr->slots[x].prov, fr->slots[x].poison - 1);
}

static bool observe_inputs(CfgInterp *ci, const Frame *fr, GateId g)
{
    const Gate *G = circ_gate(fr->f->circ, g);
    for (uint32_t i = G->nstate; i < gate_nin(G); i++)
        if (!observe(ci, fr, G->in[i]))
            return false;
    return true;
}

/* a pure gate that cannot trap passes poison on instead of demanding its inputs */
static bool pass_poison(Frame *fr, GateId g, const Gate *G)
{
    for (uint32_t i = 0; i < G->ndata; i++) {
        const Slot *in = &fr->slots[gate_data(G, i)];
        if (in->poison) {
            fr->slots[g].poison = in->poison;
            fr->slots[g].prov = in->prov;
            return true;
        }
    }
    return false;
}
static uint32_t tok_of(const Frame *fr, GateId g) { return g == ROOT_DEPEND_ENTRY ? fr->entry_tok : fr->slots[g].tok; }

/* ---- gates ------------------------------------------------------------------- */

static bool exec_pure(CfgInterp *ci, Frame *fr, GateId g, const Gate *G)
{
    Val v[3] = {{0, 0}, {0, 0}, {0, 0}}, r;
    uint32_t bad = 0;
    char l[64];
    if (G->ndata < 1 || G->ndata > 3)
        return fail_gate(ci, fr, g, "has the wrong number of operands");
    for (uint32_t i = 0; i < G->ndata; i++)
        v[i] = value_of(fr, gate_data(G, i));
    bool may_trap = op_has(G->op, F_TRAPS);
    if (!may_trap && pass_poison(fr, g, G))
        return true;
    if (may_trap && !observe_inputs(ci, fr, g))
        return false;
    Type in_ty = (Type)circ_gate(fr->f->circ, gate_data(G, 0))->type;
    int st = val_pure_hot(G->op, (Type)G->type, G->cond, in_ty, v, G->ndata, &r, &bad);
    switch (st) {
    case EVAL_OK:
        fr->slots[g].bits = r.bits;
        fr->slots[g].prov = r.prov;
        return true;
    case EVAL_TRAP_DIV0:
        ci->out->trap = TRAP_DIV0;
        return fail(ci, OUT_TRAP, "in @%s: %s: division by zero", fr->f->name, gate_label(fr->f, g, l, sizeof l));
    case EVAL_TRAP_OVERFLOW:
        ci->out->trap = TRAP_OVERFLOW;
        return fail(ci, OUT_TRAP, "in @%s: %s: signed division overflow", fr->f->name,
                    gate_label(fr->f, g, l, sizeof l));
    case VAL_ESCAPES:
        if (may_trap)
            return fail_escape(ci, fr, v[bad].prov, g);
        fr->slots[g].poison = g + 1;
        fr->slots[g].prov = v[bad].prov;
        return true;
    default:
        return fail_gate(ci, fr, g, "cannot be evaluated");
    }
}

static uint32_t access_size(const Gate *G) { return (uint32_t)ty_bits((Type)G->type) / 8; }

static bool exec_load(CfgInterp *ci, Frame *fr, GateId g, const Gate *G)
{
    uint32_t size = access_size(G);
    if (size == 0 || G->ndep != 1 || G->ndata != 1)
        return fail_gate(ci, fr, g, "is malformed");
    uint32_t inst = mem_instance(ci->mem, tok_of(fr, gate_dep(G, 0)), fr->call_inst, fr->f->index, g);
    char why[160];
    uint64_t bits;
    if (!mem_load(ci->mem, value_of(fr, gate_data(G, 0)), size, inst, &bits, why, sizeof why))
        return fail_gate(ci, fr, g, why);
    fr->slots[g].bits = bits & ty_mask((Type)G->type);
    fr->slots[g].prov = 0;
    fr->slots[g].tok = inst;
    return true;
}

static bool exec_store(CfgInterp *ci, Frame *fr, GateId g, const Gate *G)
{
    if (G->ndep != 1 || G->ndata != 2)
        return fail_gate(ci, fr, g, "is malformed");
    uint32_t size = access_size(circ_gate(fr->f->circ, gate_data(G, 0)));
    Val v = value_of(fr, gate_data(G, 0));
    if (v.prov)
        return fail_escape(ci, fr, v.prov, g);
    if (size == 0)
        return fail_gate(ci, fr, g, "stores a value of no size");
    uint32_t inst = mem_instance(ci->mem, tok_of(fr, gate_dep(G, 0)), fr->call_inst, fr->f->index, g);
    char why[160];
    if (!mem_store(ci->mem, value_of(fr, gate_data(G, 1)), size, v.bits, inst, why, sizeof why))
        return fail_gate(ci, fr, g, why);
    fr->slots[g].tok = inst;
    fr->slots[g].bits = 0;
    fr->slots[g].prov = 0;
    return true;
}

static bool run_activation(CfgInterp *ci, uint32_t func, uint32_t entry_tok, uint32_t call_inst, Val *ret);

static bool call_matches(const Frame *fr, const Gate *G, const Func *callee)
{
    if (G->ndata - 1 != callee->nparams || G->type != callee->ret)
        return false;
    for (uint32_t i = 0; i < callee->nparams; i++)
        if (circ_gate(fr->f->circ, gate_data(G, i + 1))->type != callee->params[i])
            return false;
    return true;
}

/* the frame a call of cf runs in, with room for its arguments (the caller sets them),
 * or NULL (a timeout reported) beyond the call depth limit */
static Frame *callee_frame(CfgInterp *ci, const Func *cf)
{
    if (ci->depth >= ci->max_depth)
        return fail(ci, OUT_TIMEOUT, "call depth beyond %u", ci->max_depth), NULL;
    Frame *cfr = frame_at(ci, ci->depth);
    if (cf->nparams > cfr->capargs) {
        cfr->capargs = cf->nparams;
        cfr->args = xrealloc(cfr->args, cfr->capargs * sizeof *cfr->args);
    }
    cfr->nargs = cf->nparams;
    return cfr;
}

/* ---- runtime calls (oracle/runtime.h) ---- */
typedef struct { CfgInterp *ci; Frame *fr; GateId g; uint32_t inst; } RtCall;

static bool rt_invalid(void *ctx, const char *why)
{
    RtCall *rc = ctx;
    return fail_gate(rc->ci, rc->fr, rc->g, why);
}

static bool rt_run(void *ctx, uint32_t func, uint64_t x, uint64_t *ret)
{
    RtCall *rc = ctx;
    Frame *cfr = callee_frame(rc->ci, rc->ci->m->funcs[func]);
    Val r = {0, 0};
    if (!cfr)
        return false;
    cfr->args[0] = (Val){x, 0};
    if (!run_activation(rc->ci, func, rc->inst, rc->inst, &r))
        return false;
    *ret = r.bits;
    return true;
}

static bool rt_thrown(void *ctx, uint64_t bits)
{
    RtCall *rc = ctx;
    return cfg_interp_throw(rc->ci, TY_I64, bits, rc->fr->f->name);
}

/* runtime function fn called by CALL or INVOKE g: as call_gate */
static bool exec_runtime_call(CfgInterp *ci, Frame *fr, GateId g, const Gate *G, RuntimeFn fn, uint32_t *inst_out,
                              Val *res)
{
    Type types[3];
    RtCall rc = {ci, fr, g, 0};
    RtInterp ri = {ci->mem, ci->m, {{0, 0}}, 0, &rc, rt_invalid, rt_run, rt_thrown};
    for (uint32_t i = 0; i < G->ndata - 1 && i < 3; i++) {
        ri.args[i] = value_of(fr, gate_data(G, i + 1));
        types[i] = (Type)circ_gate(fr->f->circ, gate_data(G, i + 1))->type;
    }
    if (!rt_call_matches(fn, types, G->ndata - 1, (Type)G->type))
        return fail_gate(ci, fr, g, "arguments or result do not match the runtime function's signature");
    rc.inst = ri.inst = mem_instance(ci->mem, tok_of(fr, gate_dep(G, 0)), fr->call_inst, fr->f->index, g);
    *inst_out = rc.inst;
    uint64_t r = 0;
    if (!rt_interp_call(fn, &ri, &r))
        return false;
    *res = (Val){r, 0};
    return true;
}

/* the call of CALL or INVOKE g: *inst_out gets its effect instance before the callee
 * runs, *r its result */
static bool call_gate(CfgInterp *ci, Frame *fr, GateId g, const Gate *G, uint32_t *inst_out, Val *r)
{
    if (G->ndep != 1 || G->ndata < 1)
        return fail_gate(ci, fr, g, "is malformed");
    int rt = mem_callee_runtime(ci->mem, value_of(fr, gate_data(G, 0)));
    if (rt >= 0)
        return exec_runtime_call(ci, fr, g, G, (RuntimeFn)rt, inst_out, r);
    int fidx = mem_callee(ci->mem, value_of(fr, gate_data(G, 0)));
    if (fidx < 0)
        return fail_gate(ci, fr, g, "calls a value that is not the address of a function of the module");
    const Func *cf = ci->m->funcs[fidx];
    if (!call_matches(fr, G, cf)) {
        char why[128];
        snprintf(why, sizeof why, "arguments or result do not match the signature of @%s", cf->name);
        return fail_gate(ci, fr, g, why);
    }
    Frame *cfr = callee_frame(ci, cf);
    if (!cfr)
        return false;
    uint32_t inst = mem_instance(ci->mem, tok_of(fr, gate_dep(G, 0)), fr->call_inst, fr->f->index, g);
    *inst_out = inst;
    for (uint32_t i = 0; i < cf->nparams; i++)
        cfr->args[i] = value_of(fr, gate_data(G, i + 1));
    return run_activation(ci, (uint32_t)fidx, inst, inst, r);
}

static bool exec_call(CfgInterp *ci, Frame *fr, GateId g, const Gate *G)
{
    Val r = {0, 0};
    uint32_t inst = 0;
    if (!call_gate(ci, fr, g, G, &inst, &r))
        return false;
    fr->slots[g].bits = r.bits;
    fr->slots[g].prov = 0;
    fr->slots[g].tok = inst;
    return true;
}

/* ALLOCA: one object per activation, made the first time its gate runs */
static bool exec_alloca(CfgInterp *ci, Frame *fr, GateId g, const Gate *G)
{
    if (fr->slots[g].stamp == fr->epoch)
        return true;
    Val v;
    MemAllocaResult r = mem_alloca(ci->mem, G->lit, fr->f->index, g, &v);
    if (r == MEM_STACK_EXHAUSTED)
        return fail(ci, OUT_TIMEOUT, "stack beyond %u bytes of ALLOCA", STACK_LIMIT);
    if (r != MEM_ALLOCA_OK)
        return fail_gate(ci, fr, g, "allocates more than the interpreter supports");
    fr->slots[g].bits = v.bits;
    fr->slots[g].prov = v.prov;
    return true;
}

/* DEPEND_AND: the instance after all of its inputs' */
static uint32_t exec_and(CfgInterp *ci, Frame *fr, GateId g, const Gate *G)
{
    uint32_t preds[16], *p = G->ndep <= 16 ? preds : xrealloc(NULL, G->ndep * sizeof *p);
    for (uint32_t i = 0; i < G->ndep; i++)
        p[i] = tok_of(fr, gate_dep(G, i));
    uint32_t tok = mem_join(ci->mem, p, G->ndep, fr->call_inst, fr->f->index, g);
    if (p != preds)
        free(p);
    return tok;
}

static bool exec_gate(CfgInterp *ci, Frame *fr, GateId g)
{
    const Gate *G = circ_gate(fr->f->circ, g);
    if (!step(ci) || !inputs_ready(ci, fr, g, G))
        return false;
    Slot *s = &fr->slots[g];
    bool ok = true;
    if (!op_has(G->op, F_PURE) && !observe_inputs(ci, fr, g))
        return false;
    s->poison = 0;
    switch (G->op) {
    case OP_CONSTANT:
        s->bits = G->lit;
        s->prov = 0;
        break;
    case OP_ARG:
        if (G->lit >= fr->nargs)
            return fail_gate(ci, fr, g, "names a parameter the function does not have");
        s->bits = fr->args[G->lit].bits & ty_mask((Type)G->type);
        s->prov = fr->args[G->lit].prov;
        break;
    case OP_ALLOCA:
        ok = exec_alloca(ci, fr, g, G);
        break;
    case OP_SYMBOL: {
        if (G->lit >= ci->m->nfuncs && module_symbol_runtime(ci->m, G->lit) < 0)
            return fail_gate(ci, fr, g, "names no function");
        Val v = mem_symbol(ci->mem, (uint32_t)G->lit);
        s->bits = v.bits;
        s->prov = v.prov;
        break;
    }
    case OP_DEPEND_RELAY:
        s->tok = tok_of(fr, gate_dep(G, 0));
        break;
    case OP_DEPEND_AND:
        s->tok = exec_and(ci, fr, g, G);
        break;
    case OP_GET_EXCEPTION:
        s->bits = fr->caught;
        s->prov = 0;
        break;
    case OP_LOAD:
        ok = exec_load(ci, fr, g, G);
        break;
    case OP_STORE:
        ok = exec_store(ci, fr, g, G);
        break;
    case OP_CALL:
        ok = exec_call(ci, fr, g, G);
        break;
    default:
        ok = op_has(G->op, F_PURE) ? exec_pure(ci, fr, g, G) : fail_gate(ci, fr, g, "cannot be evaluated");
        break;
    }
    if (ok)
        fr->slots[g].stamp = fr->epoch;
    return ok;
}

/* ---- control ----------------------------------------------------------------- */

/* the edge's parallel copies: every selector reads its input, then all are written */
static bool take_edge(CfgInterp *ci, Frame *fr, const Edge *e)
{
    if (e->ncopies > ci->capscratch) {
        ci->capscratch = 2 * e->ncopies;
        ci->scratch = xrealloc(ci->scratch, ci->capscratch * sizeof *ci->scratch);
    }
    const Circuit *c = fr->f->circ;
    for (uint32_t k = 0; k < e->ncopies; k++) {
        GateId v = e->copies[k].value;
        if (!ready(ci, fr, v, e->copies[k].selector) || !observe(ci, fr, v))
            return false;
        ci->scratch[k] = (Slot){fr->slots[v].bits, fr->slots[v].prov, tok_of(fr, v), fr->epoch, 0};
        if (circ_gate(c, e->copies[k].selector)->op == OP_DEPEND_SELECTOR)
            ci->scratch[k].bits = ci->scratch[k].prov = 0;
    }
    for (uint32_t k = 0; k < e->ncopies; k++)
        fr->slots[e->copies[k].selector] = ci->scratch[k];
    return true;
}

static bool branch_value(CfgInterp *ci, Frame *fr, GateId t, uint64_t *bits)
{
    const Gate *T = circ_gate(fr->f->circ, t);
    if (T->ndata != 1)
        return fail_gate(ci, fr, t, "is malformed");
    GateId x = gate_data(T, 0);
    if (!ready(ci, fr, x, t) || !observe(ci, fr, x))
        return false;
    if (fr->slots[x].prov)
        return fail_escape(ci, fr, fr->slots[x].prov, t);
    *bits = fr->slots[x].bits;
    return true;
}

static uint32_t switch_succ(const Frame *fr, const Block *b, uint64_t v)
{
    const Gate *T = circ_gate(fr->f->circ, b->term_gate);
    uint64_t mask = ty_mask((Type)circ_gate(fr->f->circ, gate_data(T, 0))->type);
    for (uint32_t k = 0; k + 1 < b->nsuccs; k++)
        if ((b->case_values[k] & mask) == (v & mask))
            return k;
    return b->nsuccs - 1;
}

/* RETURN / THROW: the dependency and the value were computed by the block */
static bool finish(CfgInterp *ci, Frame *fr, GateId t, Val *ret)
{
    const Gate *T = circ_gate(fr->f->circ, t);
    if (!inputs_ready(ci, fr, t, T) || !observe_inputs(ci, fr, t))
        return false;
    Val v = {0, 0};
    Type ty = TY_NONE;
    if (T->ndata) {
        v = value_of(fr, gate_data(T, 0));
        ty = (Type)circ_gate(fr->f->circ, gate_data(T, 0))->type;
        if (v.prov)
            return fail_escape(ci, fr, v.prov, t);
    }
    if (T->op == OP_THROW)
        return cfg_interp_throw(ci, ty, v.bits, fr->f->name);
    if (ty != fr->f->ret)
        return fail_gate(ci, fr, t, "returns a value that does not match the function's result type");
    *ret = (Val){v.bits & ty_mask(ty), 0};
    return true;
}

/* ---- exceptions ---------------------------------------------------------------- */
bool cfg_interp_throw(CfgInterp *ci, Type ty, uint64_t bits, const char *from)
{
    ci->out->type = (uint8_t)ty;
    ci->out->bits = bits & ty_mask(ty);
    return fail(ci, OUT_THROW, "thrown from @%s", from);
}

/* after a call that failed: true (the run resumes, the bits in *bits) if it failed by
 * a throw, which the caller catches */
static bool invoke_catch(CfgInterp *ci, uint64_t *bits)
{
    if (ci->out->kind != OUT_THROW)
        return false;
    *bits = ci->out->bits;
    ci->out->kind = OUT_RETURN;
    ci->out->type = TY_NONE;
    ci->out->bits = 0;
    ci->out->reason[0] = 0;
    return true;
}

/* INVOKE t, the block's terminator (its operands ran in the block); *threw: it caught
 * an exception (its value is then 0 and unused, its dependency stands for the call) */
static bool run_invoke(CfgInterp *ci, Frame *fr, GateId t, bool *threw)
{
    const Gate *T = circ_gate(fr->f->circ, t);
    if (!inputs_ready(ci, fr, t, T) || !observe_inputs(ci, fr, t))
        return false;
    uint32_t inst = 0;
    Val r = {0, 0};
    *threw = !call_gate(ci, fr, t, T, &inst, &r);
    if (*threw && !invoke_catch(ci, &fr->caught))
        return false;
    fr->slots[t] = (Slot){*threw ? 0 : r.bits, 0, inst, fr->epoch, 0};
    return true;
}

/* run block b; *next gets the index of the successor edge taken (UINT32_MAX: done) */
static bool run_block(CfgInterp *ci, Frame *fr, const Block *b, uint32_t *next, Val *ret)
{
    if (!step(ci))
        return false;
    for (uint32_t i = 0; i < b->ngates; i++)
        if (!exec_gate(ci, fr, b->gates[i]))
            return false;
    uint64_t v;
    *next = UINT32_MAX;
    switch (b->term) {
    case TERM_GOTO:
        *next = 0;
        return true;
    case TERM_IF:
        if (!branch_value(ci, fr, b->term_gate, &v))
            return false;
        *next = v & 1 ? 0 : 1;
        return true;
    case TERM_SWITCH:
        if (!branch_value(ci, fr, b->term_gate, &v))
            return false;
        *next = switch_succ(fr, b, v);
        return true;
    case TERM_INVOKE: {
        bool threw;
        if (!run_invoke(ci, fr, b->term_gate, &threw))
            return false;
        *next = threw ? 1 : 0;
        return true;
    }
    default:
        return finish(ci, fr, b->term_gate, ret);
    }
}

static bool run_blocks(CfgInterp *ci, Frame *fr, Val *ret)
{
    const Schedule *s = fr->s;
    BlockId cur = 0;
    for (;;) {
        const Block *b = &s->blocks[cur];
        uint32_t k;
        if (!run_block(ci, fr, b, &k, ret))
            return false;
        if (k == UINT32_MAX)
            return true;
        if (!take_edge(ci, fr, &b->succs[k]))
            return false;
        cur = b->succs[k].to;
    }
}

static void frame_prepare(CfgInterp *ci, Frame *fr, const Schedule *s, uint32_t entry_tok, uint32_t call_inst)
{
    if (s->ngates > fr->capslots) {
        fr->slots = xrealloc(fr->slots, s->ngates * sizeof *fr->slots);
        memset(fr->slots + fr->capslots, 0, (s->ngates - fr->capslots) * sizeof *fr->slots);
        fr->capslots = s->ngates;
    }
    fr->s = s;
    fr->f = s->func;
    fr->epoch = ++ci->epoch;
    fr->entry_tok = entry_tok;
    fr->call_inst = call_inst;
}

static bool run_activation(CfgInterp *ci, uint32_t func, uint32_t entry_tok, uint32_t call_inst, Val *ret)
{
    if (ci->depth >= ci->max_depth)
        return fail(ci, OUT_TIMEOUT, "call depth beyond %u", ci->max_depth);
    Frame *fr = frame_at(ci, ci->depth);
    frame_prepare(ci, fr, ci->sched[func], entry_tok, call_inst);
    ci->depth++;
    uint32_t mark = mem_mark(ci->mem);
    bool ok = run_blocks(ci, fr, ret);
    mem_release(ci->mem, mark);
    ci->depth--;
    return ok;
}

/* ---- entry point ------------------------------------------------------------- */
static void reset_epochs(CfgInterp *ci)
{
    for (uint32_t i = 0; i < ci->nframes; i++)
        if (ci->frames[i]->slots)
            memset(ci->frames[i]->slots, 0, ci->frames[i]->capslots * sizeof(Slot));
    ci->epoch = 0;
}

void cfg_interp_call(CfgInterp *ci, uint32_t func, const uint64_t *args, Outcome *out)
{
    out->kind = OUT_RETURN;
    out->trap = TRAP_NONE;
    out->type = TY_NONE;
    out->bits = 0;
    out->reason[0] = 0;
    ci->out = out;
    ci->steps = 0;
    ci->depth = 0;
    if (ci->epoch > 0xffffffffu - ci->max_steps - 2)
        reset_epochs(ci);
    mem_reset(ci->mem);
    if (func >= ci->m->nfuncs) {
        fail(ci, OUT_INVALID, "no function number %u", func);
    } else {
        const Func *f = ci->m->funcs[func];
        Frame *fr = frame_at(ci, 0);
        if (f->nparams > fr->capargs) {
            fr->capargs = f->nparams;
            fr->args = xrealloc(fr->args, fr->capargs * sizeof *fr->args);
        }
        fr->nargs = f->nparams;
        for (uint32_t i = 0; i < f->nparams; i++)
            fr->args[i] = mem_arg_value(ci->mem, args[i] & ty_mask(f->params[i]));
        Val r;
        if (run_activation(ci, func, 0, 0, &r)) {
            out->kind = OUT_RETURN;
            out->type = (uint8_t)f->ret;
            out->bits = r.bits;
        }
    }
    out->steps = ci->steps;
    out->alloca_bytes = mem_alloca_total(ci->mem);
    memcpy(out->heap, mem_heap(ci->mem), HEAP_SIZE);
}
