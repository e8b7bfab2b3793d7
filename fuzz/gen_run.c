/* gen_run.c — run lines for generated modules: arguments for the entry function drawn
 * from the generator's bytes (read from the end, so they do not shift when the
 * program's choices change), `heap` for pointer parameters (ARG gates named ptr*),
 * and expectations from the reference interpreter, so a generated file checks itself. */
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *p;
    size_t n, pos;
} BackSrc;

static uint8_t back_byte(BackSrc *b)
{
    if (b->pos >= b->n)
        return 0;
    return b->p[b->n - 1 - b->pos++];
}

static uint64_t back_u64(BackSrc *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)back_byte(b) << (8 * i);
    return v;
}

static uint64_t arg_int(BackSrc *b, Type t)
{
    int w = ty_bits(t);
    uint64_t min = (uint64_t)1 << (w - 1);
    switch (back_byte(b) % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return ~0ull & ty_mask(t);
    case 3: return back_byte(b) & ty_mask(t);
    case 4: return (back_byte(b) & 1 ? min : min - 1) & ty_mask(t);
    default: return back_u64(b) & ty_mask(t);
    }
}

static uint64_t arg_float(BackSrc *b, Type t)
{
    static const double special[] = {0.0, -0.0, 1.0, -1.5, 2.5, 1e30, -1e-310, 100.0};
    uint8_t k = back_byte(b) % 12;
    uint64_t bits;
    if (k < 8) {
        if (t == TY_F32) {
            float f = (float)special[k];
            uint32_t u;
            memcpy(&u, &f, 4);
            return u;
        }
        memcpy(&bits, &special[k], 8);
        return bits;
    }
    if (k == 8)
        return canonical_nan(t);
    bits = back_u64(b);
    return t == TY_F32 ? bits & 0xffffffffu : bits;
}

/* is parameter p of f a pointer (its ARG gate is named ptr*)? */
static bool is_pointer_param(const Func *f, uint32_t p)
{
    const Circuit *c = f->circ;
    for (GateId i = NUM_ROOTS; i < c->ngates; i++) {
        const Gate *g = &c->gates[i];
        if (!g->dead && g->op == OP_ARG && g->lit == p)
            return g->name && !strncmp(g->name, "ptr", 3);
    }
    return false;
}

static bool same_args(const RunArg *a, const RunArg *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].kind != b[i].kind || a[i].bits != b[i].bits)
            return false;
    return true;
}

bool gen_expect_from_outcome(const Outcome *o, RunExpect *e)
{
    memset(e, 0, sizeof *e);
    Type t = (Type)o->type;
    switch (o->kind) {
    case OUT_RETURN:
        if (t == TY_NONE)
            e->kind = EX_VOID;
        else if (ty_is_float(t) && (o->bits & ~(t == TY_F32 ? 0x80000000ull : 1ull << 63)) >
                                       (t == TY_F32 ? 0x7f800000ull : 0x7ff0000000000000ull))
            e->kind = EX_NAN;
        else
            e->kind = EX_VALUE, e->bits = o->bits;
        return true;
    case OUT_TRAP:
        e->kind = o->trap == TRAP_DIV0 ? EX_TRAP_DIV0 : o->trap == TRAP_OVERFLOW ? EX_TRAP_OVERFLOW : EX_TRAP;
        return true;
    case OUT_THROW:
        e->kind = EX_THROW;
        if (ty_is_float(t)) {
            double d;
            if (t == TY_F32) {
                float f;
                uint32_t u = (uint32_t)o->bits;
                memcpy(&f, &u, 4);
                d = f;
            } else {
                memcpy(&d, &o->bits, 8);
            }
            e->is_float = 1;
            memcpy(&e->bits, &d, 8);
        } else {
            e->bits = t == TY_I1 ? (o->bits & 1) : (uint64_t)ty_sext(t, o->bits);
        }
        return true;
    default:
        return false;
    }
}

uint32_t gen_add_runlines(Module *m, const uint8_t *bytes, size_t len, uint32_t nruns,
                          const InterpOptions *iopt, Outcome *outcomes)
{
    if (!m->nfuncs || !nruns)
        return 0;
    uint32_t entry = m->nfuncs - 1;
    const Func *f = m->funcs[entry];
    BackSrc b = {bytes, bytes ? len : 0, 0};
    Interp *in = interp_new(m, iopt);
    Outcome *o = calloc(1, sizeof *o);
    uint64_t *args = calloc(f->nparams + 1, sizeof *args);
    RunArg *rargs = calloc(f->nparams + 1, sizeof *rargs);
    if (!in || !o || !args || !rargs)
        abort();
    uint32_t first = m->nruns, made = 0;
    for (uint32_t r = 0; r < nruns; r++) {
        for (uint32_t p = 0; p < f->nparams; p++) {
            Type t = f->params[p];
            if (t == TY_I64 && is_pointer_param(f, p))
                rargs[p] = (RunArg){RA_HEAP, HEAP_ADDR};
            else if (ty_is_float(t))
                rargs[p] = (RunArg){RA_FLOAT, arg_float(&b, t)};
            else
                rargs[p] = (RunArg){RA_INT, arg_int(&b, t)};
            args[p] = rargs[p].bits;
        }
        bool seen = false; /* the same arguments again (few parameters, or none) */
        for (uint32_t k = m->nruns; k-- > first && !seen;)
            seen = same_args(m->runs[k].args, rargs, f->nparams);
        if (seen)
            continue;
        interp_call(in, entry, args, o);
        if (outcomes)
            outcomes[made] = *o;
        made++;
        RunExpect e;
        if (!gen_expect_from_outcome(o, &e))
            continue;
        RunLine *rl = module_add_run(m);
        rl->func = entry;
        rl->nargs = f->nparams;
        rl->args = arena_alloc(m->arena, (f->nparams + 1) * sizeof(RunArg));
        memcpy(rl->args, rargs, f->nparams * sizeof(RunArg));
        rl->expect = e;
    }
    free(rargs);
    free(args);
    free(o);
    interp_free(in);
    return made;
}
