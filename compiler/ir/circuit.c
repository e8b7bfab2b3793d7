/* circuit.c — circuit storage (gates, inputs, use lists), the builder, and modules. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

static Gate *new_gate(Circuit *c)
{
    if (c->ngates == c->capgates) {
        uint32_t cap = c->capgates ? c->capgates * 2 : 16;
        c->gates = arena_grow_raw(c->arena, c->gates, c->capgates * sizeof(Gate), cap * sizeof(Gate));
        c->capgates = cap;
    }
    Gate *g = &c->gates[c->ngates++]; /* the array is not cleared: every gate is, here */
    memset(g, 0, sizeof *g);
    return g;
}

Circuit *circ_new(Func *f)
{
    Arena *a = arena_new();
    Circuit *c = arena_alloc(a, sizeof *c);
    c->arena = a;
    c->func = f;
    static const Opcode roots[NUM_ROOTS] = {
        OP_CIRCUIT_ROOT, OP_STATE_ENTRY, OP_DEPEND_ENTRY, OP_RETURN_LIST,
        OP_THROW_LIST, OP_CONSTANT_LIST, OP_ALLOCA_LIST, OP_ARG_LIST,
    };
    for (int i = 0; i < NUM_ROOTS; i++)
        new_gate(c)->op = roots[i];
    return c;
}

void circ_free(Circuit *c)
{
    if (c)
        arena_free(c->arena);
}

static void add_use(Circuit *c, GateId def, GateId user, uint32_t index)
{
    if (def == NO_GATE || def >= c->ngates)
        return;
    Gate *d = &c->gates[def];
    if (d->nuses == d->capuses) {
        uint32_t cap = d->capuses ? d->capuses * 2 : 4;
        d->uses = arena_grow(c->arena, d->uses, d->capuses * sizeof(Use), cap * sizeof(Use));
        d->capuses = cap;
    }
    d->uses[d->nuses++] = (Use){user, index};
}

static void remove_use(Circuit *c, GateId def, GateId user, uint32_t index)
{
    if (def == NO_GATE || def >= c->ngates)
        return;
    Gate *d = &c->gates[def];
    for (uint32_t i = d->nuses; i-- > 0;) /* from the end: circ_replace_uses takes the last */
        if (d->uses[i].user == user && d->uses[i].index == index) {
            d->uses[i] = d->uses[--d->nuses];
            return;
        }
}

void circ_set_input(Circuit *c, GateId g, uint32_t index, GateId v)
{
    Gate *gt = &c->gates[g];
    remove_use(c, gt->in[index], g, index);
    gt->in[index] = v;
    add_use(c, v, g, index);
}

void circ_set_inputs(Circuit *c, GateId g, const GateId *states, uint32_t ns,
                     const GateId *deps, uint32_t nd, const GateId *data, uint32_t nv)
{
    Gate *gt = &c->gates[g];
    for (uint32_t i = 0; i < gate_nin(gt); i++)
        remove_use(c, gt->in[i], g, i);
    uint32_t n = ns + nd + nv;
    if (n > gate_nin(gt))
        gt->in = arena_alloc(c->arena, n * sizeof(GateId));
    gt->nstate = (uint16_t)ns;
    gt->ndep = (uint16_t)nd;
    gt->ndata = nv;
    uint32_t k = 0;
    for (uint32_t i = 0; i < ns; i++)
        gt->in[k++] = states[i];
    for (uint32_t i = 0; i < nd; i++)
        gt->in[k++] = deps[i];
    for (uint32_t i = 0; i < nv; i++)
        gt->in[k++] = data[i];
    for (uint32_t i = 0; i < n; i++)
        add_use(c, gt->in[i], g, i);
}

int root_list_of(int op)
{
    switch (op) {
    case OP_RETURN: return ROOT_RETURN_LIST;
    case OP_THROW: return ROOT_THROW_LIST;
    case OP_CONSTANT: return ROOT_CONSTANT_LIST;
    case OP_ALLOCA: return ROOT_ALLOCA_LIST;
    case OP_ARG: return ROOT_ARG_LIST;
    default: return -1;
    }
}

const GateId *circ_root_list(const Circuit *c, int root, uint32_t *n)
{
    bool ok = root >= 0 && root < NUM_ROOTS;
    *n = ok ? c->lists[root].n : 0;
    return ok ? c->lists[root].items : NULL;
}

static void list_add(Circuit *c, RootList *l, GateId g)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 8;
        l->items = arena_grow_raw(c->arena, l->items, l->cap * sizeof *l->items, cap * sizeof *l->items);
        l->cap = cap;
    }
    l->items[l->n++] = g;
}

/* a listed gate died: drop the dead entries once they are half of the list */
static void list_note_death(Circuit *c, RootList *l)
{
    if (++l->ndead * 2 <= l->n)
        return;
    uint32_t k = 0;
    for (uint32_t i = 0; i < l->n; i++)
        if (!c->gates[l->items[i]].dead)
            l->items[k++] = l->items[i];
    l->n = k;
    l->ndead = 0;
}

GateId circ_add(Circuit *c, Opcode op, Type ty, int cond, uint64_t lit,
                const GateId *states, uint32_t ns, const GateId *deps, uint32_t nd,
                const GateId *data, uint32_t nv)
{
    Gate *g = new_gate(c);
    GateId id = c->ngates - 1;
    g->op = (uint16_t)op;
    g->type = (uint8_t)ty;
    g->cond = (uint8_t)cond;
    g->lit = lit;
    circ_set_inputs(c, id, states, ns, deps, nd, data, nv);
    int root = root_list_of(op);
    if (root >= 0)
        list_add(c, &c->lists[root], id);
    return id;
}

void circ_replace_uses(Circuit *c, GateId old, GateId repl)
{
    if (old == repl)
        return;
    while (c->gates[old].nuses) {
        Use u = c->gates[old].uses[c->gates[old].nuses - 1];
        circ_set_input(c, u.user, u.index, repl);
    }
}

void circ_kill(Circuit *c, GateId g)
{
    Gate *gt = &c->gates[g];
    for (uint32_t i = 0; i < gate_nin(gt); i++) {
        remove_use(c, gt->in[i], g, i);
        gt->in[i] = NO_GATE;
    }
    int root = gt->dead ? -1 : root_list_of(gt->op);
    gt->dead = 1;
    if (root >= 0)
        list_note_death(c, &c->lists[root]);
}

void circ_set_name(Circuit *c, GateId g, const char *name, size_t n)
{
    c->gates[g].name = name ? arena_strndup(c->arena, name, n) : NULL;
}

uint32_t circ_live_count(const Circuit *c)
{
    uint32_t n = 0;
    for (uint32_t i = NUM_ROOTS; i < c->ngates; i++)
        n += !c->gates[i].dead;
    return n;
}

GateId circ_const(Circuit *c, Type ty, uint64_t bits)
{
    if (ty_is_int(ty))
        bits &= ty_mask(ty);
    return circ_add(c, OP_CONSTANT, ty, 0, bits, NULL, 0, NULL, 0, NULL, 0);
}

GateId circ_binop(Circuit *c, Opcode op, Type ty, GateId a, GateId b)
{
    GateId in[2] = {a, b};
    return circ_add(c, op, ty, 0, 0, NULL, 0, NULL, 0, in, 2);
}

GateId circ_unop(Circuit *c, Opcode op, Type ty, GateId a)
{
    return circ_add(c, op, ty, 0, 0, NULL, 0, NULL, 0, &a, 1);
}

GateId circ_cmp(Circuit *c, Opcode op, int cond, GateId a, GateId b)
{
    GateId in[2] = {a, b};
    return circ_add(c, op, TY_I1, cond, 0, NULL, 0, NULL, 0, in, 2);
}

/* ---- modules ---- */

Module *module_new(const char *file)
{
    Arena *a = arena_new();
    Module *m = arena_alloc(a, sizeof *m);
    m->arena = a;
    m->file = arena_strndup(a, file ? file : "<input>", strlen(file ? file : "<input>"));
    return m;
}

void module_free(Module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        circ_free(m->funcs[i]->circ);
    arena_free(m->arena);
}

static uint32_t name_hash(const char *name, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

static void index_slot_put(uint32_t *slots, uint32_t cap, const Func *f)
{
    uint32_t k = name_hash(f->name, strlen(f->name)) & (cap - 1);
    while (slots[k])
        k = (k + 1) & (cap - 1);
    slots[k] = f->index + 1;
}

/* index f, the newest function, by name; the table doubles when half full */
static void index_func(Module *m, const Func *f)
{
    if (2 * (size_t)m->nfuncs >= m->capslots) {
        uint32_t cap = m->capslots ? 2 * m->capslots : 16;
        m->func_slots = arena_alloc(m->arena, cap * sizeof *m->func_slots);
        m->capslots = cap;
        for (uint32_t i = 0; i + 1 < m->nfuncs; i++)
            index_slot_put(m->func_slots, cap, m->funcs[i]);
    }
    index_slot_put(m->func_slots, m->capslots, f);
}

Func *module_add_func(Module *m, const char *name, const Type *params, uint32_t nparams, Type ret)
{
    if (m->nfuncs == m->capfuncs) {
        uint32_t cap = m->capfuncs ? m->capfuncs * 2 : 8;
        m->funcs = arena_grow(m->arena, m->funcs, m->capfuncs * sizeof(Func *), cap * sizeof(Func *));
        m->capfuncs = cap;
    }
    Func *f = arena_alloc(m->arena, sizeof *f);
    f->name = arena_strndup(m->arena, name, strlen(name));
    f->params = arena_alloc(m->arena, (nparams ? nparams : 1) * sizeof(Type));
    if (nparams)
        memcpy(f->params, params, nparams * sizeof(Type));
    f->nparams = nparams;
    f->ret = ret;
    f->module = m;
    f->index = m->nfuncs;
    f->circ = circ_new(f);
    m->funcs[m->nfuncs++] = f;
    index_func(m, f);
    return f;
}

Func *module_find(const Module *m, const char *name, size_t n)
{
    if (!m->capslots)
        return NULL;
    for (uint32_t k = name_hash(name, n) & (m->capslots - 1); m->func_slots[k]; k = (k + 1) & (m->capslots - 1)) {
        Func *f = m->funcs[m->func_slots[k] - 1];
        if (strncmp(f->name, name, n) == 0 && f->name[n] == 0)
            return f;
    }
    return NULL;
}

RunLine *module_add_run(Module *m)
{
    if (m->nruns == m->capruns) {
        uint32_t cap = m->capruns ? m->capruns * 2 : 8;
        m->runs = arena_grow(m->arena, m->runs, m->capruns * sizeof(RunLine), cap * sizeof(RunLine));
        m->capruns = cap;
    }
    RunLine *r = &m->runs[m->nruns++];
    memset(r, 0, sizeof *r);
    return r;
}

/* the gates' input arrays, in one allocation: each gate's its slice */
static void clone_inputs(Circuit *dst, uint32_t n)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += gate_nin(&dst->gates[i]);
    GateId *in = arena_alloc_raw(dst->arena, total * sizeof *in);
    for (uint32_t i = 0; i < n; i++) {
        Gate *d = &dst->gates[i];
        uint32_t k = gate_nin(d);
        if (k) {
            memcpy(in, d->in, k * sizeof *in);
            d->in = in;
            in += k;
        } else {
            d->in = NULL;
        }
    }
}

/* use lists in one allocation, in the order a gate-by-gate rebuild would give them
 * (by user, then input): count, then fill.  Each list's capacity is even, so its
 * slice is a whole number of 16-byte units and only the last slice can grow in place
 * (arena_grow grows the arena's last allocation, rounded to 16, in place). */
static void clone_uses(Circuit *dst, uint32_t n)
{
    Gate *gates = dst->gates;
    for (uint32_t i = 0; i < n; i++)
        gates[i].capuses = gates[i].nuses = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < gate_nin(&gates[i]); k++)
            if (gates[i].in[k] < n)
                gates[gates[i].in[k]].capuses++;
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        gates[i].capuses += gates[i].capuses & 1;
        total += gates[i].capuses;
    }
    _Static_assert(2 * sizeof(Use) == 16, "two uses fill a 16-byte unit");
    Use *uses = arena_alloc_raw(dst->arena, total * sizeof *uses);
    for (uint32_t i = 0; i < n; i++) {
        gates[i].uses = gates[i].capuses ? uses : NULL;
        uses += gates[i].capuses;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < gate_nin(&gates[i]); k++) {
            GateId def = gates[i].in[k];
            if (def < n)
                gates[def].uses[gates[def].nuses++] = (Use){i, k};
        }
}

/* dst (a new circuit) := src, with the same gate ids */
static void clone_circuit(Circuit *dst, const Circuit *src)
{
    uint32_t n = src->ngates;
    if (dst->capgates < n) {
        dst->gates = arena_grow_raw(dst->arena, dst->gates, dst->capgates * sizeof(Gate), n * sizeof(Gate));
        dst->capgates = n;
    }
    dst->ngates = n;
    memcpy(dst->gates, src->gates, n * sizeof(Gate));
    for (uint32_t i = 0; i < n; i++) {
        Gate *d = &dst->gates[i];
        if (d->name)
            d->name = arena_strndup(dst->arena, d->name, strlen(d->name));
    }
    clone_inputs(dst, n);
    clone_uses(dst, n);
    for (int r = 0; r < NUM_ROOTS; r++) {
        const RootList *l = &src->lists[r];
        dst->lists[r] = (RootList){l->n ? arena_memdup(dst->arena, l->items, l->n * sizeof *l->items) : NULL,
                                   l->n, l->n, l->ndead};
    }
}

/* the same gate: opcode, type, condition, literal and inputs (names and use lists
 * aside, which follow from the rest or do not matter) */
static bool same_gate(const Gate *a, const Gate *b)
{
    if (a->dead || b->dead)
        return a->dead == b->dead;
    return a->op == b->op && a->type == b->type && a->cond == b->cond && a->lit == b->lit &&
           a->nstate == b->nstate && a->ndep == b->ndep && a->ndata == b->ndata &&
           (!gate_nin(a) || !memcmp(a->in, b->in, gate_nin(a) * sizeof *a->in));
}

bool func_same_body(const Func *a, const Func *b)
{
    if (a->nparams != b->nparams || a->ret != b->ret || !a->circ != !b->circ ||
        (a->nparams && memcmp(a->params, b->params, a->nparams * sizeof *a->params)))
        return false;
    if (!a->circ)
        return true;
    const Circuit *x = a->circ, *y = b->circ;
    if (x->ngates != y->ngates)
        return false;
    for (uint32_t i = 0; i < x->ngates; i++)
        if (!same_gate(&x->gates[i], &y->gates[i]))
            return false;
    return true;
}

Module *module_clone(const Module *m)
{
    Module *n = module_new(m->file);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const Func *f = m->funcs[i];
        Func *g = module_add_func(n, f->name, f->params, f->nparams, f->ret);
        g->line = f->line;
        g->col = f->col;
        clone_circuit(g->circ, f->circ);
    }
    for (uint32_t i = 0; i < m->nexterns; i++) {
        uint32_t e = module_add_extern(n, (RuntimeFn)m->externs[i].rt);
        n->externs[e] = m->externs[i];
    }
    for (uint32_t i = 0; i < m->nruns; i++) {
        RunLine *r = module_add_run(n);
        *r = m->runs[i];
        r->args = arena_alloc(n->arena, (r->nargs ? r->nargs : 1) * sizeof(RunArg));
        if (r->nargs)
            memcpy(r->args, m->runs[i].args, r->nargs * sizeof(RunArg));
    }
    return n;
}
