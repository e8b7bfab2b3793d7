/* circ_build.c — the public API's module building and gate access (include/circ/
 * build.h) over compiler/ir: every id, opcode, type and name is checked before it
 * reaches the circuit, so a caller's mistake is an error result, never a crash. */
#include "api/api_internal.h"

#include "fuzz/gen.h"
#include "oracle/interp.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static_assert((int)CIRC_VOID == (int)TY_NONE && (int)CIRC_I1 == (int)TY_I1 && (int)CIRC_I64 == (int)TY_I64 &&
                  (int)CIRC_F64 == (int)TY_F64,
              "circ_type follows Type");
static_assert(CIRC_NO_GATE == NO_GATE && CIRC_STATE_ENTRY == ROOT_STATE_ENTRY &&
                  CIRC_DEPEND_ENTRY == ROOT_DEPEND_ENTRY && CIRC_FIRST_GATE == NUM_ROOTS,
              "the root ids are the circuit's");
static_assert(sizeof(circ_gate_id) == sizeof(GateId) && CIRC_SYMBOL_EXTERN == SYM_EXTERN, "ids are GateIds");

bool api_name_ok(const char *s, const char *extra)
{
    if (!s || !*s)
        return false;
    for (const char *p = s; *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') && *p != '_' &&
            *p != '.' && !(extra && strchr(extra, *p)))
            return false;
    return true;
}

static bool value_type(int t) { return t > CIRC_VOID && t <= CIRC_F64; }

/* ---- modules and functions ------------------------------------------------------- */
circ_module *circ_module_new(const char *name) { return (circ_module *)module_new(name ? name : "<module>"); }

circ_function *circ_module_add_function(circ_module *m, const char *name, const circ_type *params,
                                        unsigned nparams, circ_type ret, char *err, size_t errn)
{
    Module *mod = API_M(m);
    if (!api_name_ok(name, NULL))
        return api_error(err, errn, "bad function name '%s'", name ? name : ""), NULL;
    if (module_find(mod, name, strlen(name)))
        return api_error(err, errn, "function @%s is defined already", name), NULL;
    if (nparams > FUNC_MAX_PARAMS || (nparams && !params))
        return api_error(err, errn, "@%s: at most %d parameters", name, FUNC_MAX_PARAMS), NULL;
    Type tys[FUNC_MAX_PARAMS];
    for (unsigned i = 0; i < nparams; i++) {
        if (!value_type(params[i]))
            return api_error(err, errn, "@%s: parameter %u has no value type", name, i), NULL;
        tys[i] = (Type)params[i];
    }
    if (ret != CIRC_VOID && !value_type(ret))
        return api_error(err, errn, "@%s: bad return type", name), NULL;
    return (circ_function *)module_add_func(mod, name, tys, nparams, (Type)ret);
}

circ_function *circ_module_function(circ_module *m, unsigned i)
{
    return i < API_M(m)->nfuncs ? (circ_function *)API_M(m)->funcs[i] : NULL;
}

circ_function *circ_module_find_function(circ_module *m, const char *name)
{
    return name ? (circ_function *)module_find(API_M(m), name, strlen(name)) : NULL;
}

int circ_module_add_extern(circ_module *m, const char *name)
{
    int rt = name ? runtime_find(name, strlen(name)) : -1;
    return rt < 0 ? -1 : (int)module_add_extern(API_M(m), (RuntimeFn)rt);
}

/* the run line's arguments: kinds from the parameter types */
static RunArg *run_args(Module *m, const Func *f, const uint64_t *args)
{
    RunArg *ra = arena_alloc(m->arena, (f->nparams ? f->nparams : 1) * sizeof *ra);
    for (uint32_t i = 0; i < f->nparams; i++) {
        ra[i].bits = args[i];
        ra[i].kind = ty_is_float(f->params[i]) ? RA_FLOAT : RA_INT;
        if (f->params[i] == TY_I64 && args[i] == HEAP_ADDR)
            ra[i].kind = RA_HEAP;
    }
    return ra;
}

int circ_module_add_run(circ_module *m, const char *func, const uint64_t *args, unsigned nargs, char *err,
                        size_t errn)
{
    Module *mod = API_M(m);
    const Func *f = func ? module_find(mod, func, strlen(func)) : NULL;
    if (!f || f->nparams != nargs || (nargs && !args)) {
        api_error(err, errn, f ? "@%s takes %u arguments, not %u" : "no function @%s", func ? func : "",
                  f ? f->nparams : 0, nargs);
        return -1;
    }
    Outcome *o = malloc(sizeof *o);
    if (!o)
        return api_error(err, errn, "out of memory"), -1;
    interp_run(mod, f->index, args, NULL, o);
    RunExpect e;
    bool stated = gen_expect_from_outcome(o, &e);
    if (!stated) {
        char text[256];
        outcome_format(text, sizeof text, o);
        api_error(err, errn, "@%s: a run line cannot expect '%s'", func, text);
    }
    free(o);
    if (!stated)
        return -1;
    RunLine *r = module_add_run(mod);
    r->func = f->index;
    r->args = run_args(mod, f, args);
    r->nargs = nargs;
    r->expect = e;
    return 0;
}

const char *circ_function_name(const circ_function *f) { return API_F(f)->name; }
unsigned circ_function_index(const circ_function *f) { return API_F(f)->index; }
circ_type circ_function_return_type(const circ_function *f) { return (circ_type)API_F(f)->ret; }
unsigned circ_function_param_count(const circ_function *f) { return API_F(f)->nparams; }

circ_type circ_function_param_type(const circ_function *f, unsigned i)
{
    return i < API_F(f)->nparams ? (circ_type)API_F(f)->params[i] : CIRC_VOID;
}

const circ_module *circ_function_module(const circ_function *f) { return (const circ_module *)API_F(f)->module; }

int circ_function_verify(const circ_function *f, char *err, size_t errn)
{
    const Module *m = API_F(f)->module;
    Diag d;
    api_quiet_diag(&d, m->file ? m->file : "<module>", err, errn);
    return verify_func(API_F(f), &d);
}

/* ---- opcodes, conditions, types ----------------------------------------------------- */
int circ_opcode_find(const char *name) { return name ? op_parse(name, strlen(name)) : -1; }

const char *circ_opcode_name(int op) { return op >= 0 && op < OP_COUNT ? op_info[op].name : NULL; }

static CondKind cond_kind(int op) { return op >= 0 && op < OP_COUNT ? (CondKind)op_info[op].cond : CC_NONE; }

int circ_cond_find(int op, const char *name)
{
    return cond_kind(op) != CC_NONE && name ? cond_parse(cond_kind(op), name, strlen(name)) : -1;
}

const char *circ_cond_name(int op, int cond) { return cond_kind(op) != CC_NONE ? cond_name(cond_kind(op), cond) : NULL; }

const char *circ_type_name(circ_type t) { return t >= CIRC_VOID && t <= CIRC_F64 ? ty_name((Type)t) : NULL; }

/* ---- reading gates ------------------------------------------------------------------ */
static const Gate *gate_of(const circ_function *f, circ_gate_id g)
{
    const Circuit *c = API_F(f)->circ;
    return g < c->ngates ? circ_gate(c, g) : NULL;
}

unsigned circ_gate_count(const circ_function *f) { return API_F(f)->circ->ngates; }

int circ_gate_opcode(const circ_function *f, circ_gate_id g) { return gate_of(f, g) ? gate_of(f, g)->op : -1; }

circ_type circ_gate_type(const circ_function *f, circ_gate_id g)
{
    return gate_of(f, g) ? (circ_type)gate_of(f, g)->type : CIRC_VOID;
}

int circ_gate_cond(const circ_function *f, circ_gate_id g) { return gate_of(f, g) ? gate_of(f, g)->cond : 0; }

uint64_t circ_gate_literal(const circ_function *f, circ_gate_id g) { return gate_of(f, g) ? gate_of(f, g)->lit : 0; }

int circ_gate_is_dead(const circ_function *f, circ_gate_id g) { return !gate_of(f, g) || gate_of(f, g)->dead; }

const char *circ_gate_name(const circ_function *f, circ_gate_id g) { return gate_of(f, g) ? gate_of(f, g)->name : NULL; }

/* where inputs of kind start among g's inputs, and how many there are */
static uint32_t kind_span(const Gate *gt, circ_input_kind kind, uint32_t *count)
{
    switch (kind) {
    case CIRC_IN_STATE: *count = gt->nstate; return 0;
    case CIRC_IN_DEPEND: *count = gt->ndep; return gt->nstate;
    case CIRC_IN_DATA: *count = gt->ndata; return (uint32_t)gt->nstate + gt->ndep;
    }
    *count = 0;
    return 0;
}

unsigned circ_gate_input_count(const circ_function *f, circ_gate_id g, circ_input_kind kind)
{
    const Gate *gt = gate_of(f, g);
    uint32_t n = 0;
    if (gt)
        kind_span(gt, kind, &n);
    return n;
}

circ_gate_id circ_gate_input(const circ_function *f, circ_gate_id g, circ_input_kind kind, unsigned i)
{
    const Gate *gt = gate_of(f, g);
    uint32_t n = 0, at = gt ? kind_span(gt, kind, &n) : 0;
    return i < n ? gt->in[at + i] : CIRC_NO_GATE;
}

unsigned circ_gate_use_count(const circ_function *f, circ_gate_id g) { return gate_of(f, g) ? gate_of(f, g)->nuses : 0; }

circ_gate_id circ_gate_user(const circ_function *f, circ_gate_id g, unsigned i, circ_input_kind *kind, unsigned *index)
{
    const Gate *gt = gate_of(f, g);
    if (!gt || i >= gt->nuses)
        return CIRC_NO_GATE;
    Use u = gt->uses[i];
    const Gate *user = gate_of(f, u.user);
    circ_input_kind k = u.index < user->nstate ? CIRC_IN_STATE
                        : u.index < (uint32_t)user->nstate + user->ndep ? CIRC_IN_DEPEND
                                                                          : CIRC_IN_DATA;
    uint32_t n;
    if (kind)
        *kind = k;
    if (index)
        *index = u.index - kind_span(user, k, &n);
    return u.user;
}

/* ---- building and rewriting gates ----------------------------------------------------- */
static bool inputs_ok(const Circuit *c, const circ_gate_id *v, unsigned n)
{
    if (n && !v)
        return false;
    for (unsigned i = 0; i < n; i++)
        if (v[i] != NO_GATE && v[i] >= c->ngates)
            return false;
    return true;
}

static bool all_inputs_ok(const Circuit *c, const circ_gate_id *s, unsigned ns, const circ_gate_id *d, unsigned nd,
                          const circ_gate_id *v, unsigned nv)
{
    return ns <= UINT16_MAX && nd <= UINT16_MAX && inputs_ok(c, s, ns) && inputs_ok(c, d, nd) && inputs_ok(c, v, nv);
}

circ_gate_id circ_gate_add(circ_function *f, int op, circ_type type, int cond, uint64_t literal,
                        const circ_gate_id *states, unsigned nstates, const circ_gate_id *deps, unsigned ndeps,
                        const circ_gate_id *data, unsigned ndata)
{
    Circuit *c = API_F(f)->circ;
    if (op < 0 || op >= OP_COUNT || op_has(op, F_ROOT) || type < CIRC_VOID || type > CIRC_F64 || cond < 0 ||
        cond > 15 || !all_inputs_ok(c, states, nstates, deps, ndeps, data, ndata))
        return CIRC_NO_GATE;
    return circ_add(c, (Opcode)op, (Type)type, cond, literal, states, nstates, deps, ndeps, data, ndata);
}

int circ_gate_set_input(circ_function *f, circ_gate_id g, circ_input_kind kind, unsigned i, circ_gate_id v)
{
    Circuit *c = API_F(f)->circ;
    const Gate *gt = gate_of(f, g);
    uint32_t n = 0, at = gt ? kind_span(gt, kind, &n) : 0;
    if (!gt || i >= n || (v != NO_GATE && v >= c->ngates))
        return -1;
    circ_set_input(c, g, at + i, v);
    return 0;
}

int circ_gate_set_inputs(circ_function *f, circ_gate_id g, const circ_gate_id *states, unsigned nstates,
                         const circ_gate_id *deps, unsigned ndeps, const circ_gate_id *data, unsigned ndata)
{
    Circuit *c = API_F(f)->circ;
    if (!gate_of(f, g) || g < NUM_ROOTS || !all_inputs_ok(c, states, nstates, deps, ndeps, data, ndata))
        return -1;
    circ_set_inputs(c, g, states, nstates, deps, ndeps, data, ndata);
    return 0;
}

int circ_gate_replace_uses(circ_function *f, circ_gate_id old, circ_gate_id repl)
{
    if (!gate_of(f, old) || !gate_of(f, repl))
        return -1;
    if (old != repl)
        circ_replace_uses(API_F(f)->circ, old, repl);
    return 0;
}

int circ_gate_kill(circ_function *f, circ_gate_id g)
{
    const Gate *gt = gate_of(f, g);
    if (!gt || g < NUM_ROOTS || gt->nuses)
        return -1;
    if (!gt->dead)
        circ_kill(API_F(f)->circ, g);
    return 0;
}

int circ_gate_set_name(circ_function *f, circ_gate_id g, const char *name)
{
    Circuit *c = API_F(f)->circ;
    if (!gate_of(f, g) || g < NUM_ROOTS || !api_name_ok(name, NULL))
        return -1;
    for (uint32_t i = NUM_ROOTS; i < c->ngates; i++) /* names are unique in a function */
        if (i != g && c->gates[i].name && !c->gates[i].dead && !strcmp(c->gates[i].name, name))
            return -1;
    circ_set_name(c, g, name, strlen(name));
    return 0;
}

circ_gate_id circ_gate_constant(circ_function *f, circ_type t, uint64_t bits)
{
    return value_type(t) ? circ_const(API_F(f)->circ, (Type)t, bits) : CIRC_NO_GATE;
}
