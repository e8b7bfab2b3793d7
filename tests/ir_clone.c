/* ir_clone.c — module_clone copies every gate (opcode, type, condition, literal,
 * inputs, names, removed gates) under the same id, and rebuilds each use list in
 * user-then-input order whatever order the original's edits left it in: on
 * builder-made circuits with removed gates and rewired inputs, and on every .circ
 * file named on the command line (and the clone prints as the original does). */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>
#include "tests/test_check.h"

static bool same_fields(const Gate *a, const Gate *b)
{
    return a->op == b->op && a->type == b->type && a->cond == b->cond && a->dead == b->dead &&
           a->lit == b->lit && a->nstate == b->nstate && a->ndep == b->ndep && a->ndata == b->ndata &&
           a->line == b->line && a->col == b->col && !a->name == !b->name &&
           (!a->name || !strcmp(a->name, b->name)) &&
           (!gate_nin(a) || !memcmp(a->in, b->in, gate_nin(a) * sizeof *a->in));
}

/* the use list of def that a walk over users in id order, inputs in order, gives */
static bool canonical_uses(const Circuit *c, GateId def)
{
    uint32_t k = 0;
    for (GateId u = 0; u < c->ngates; u++)
        for (uint32_t i = 0; i < gate_nin(&c->gates[u]); i++)
            if (c->gates[u].in[i] == def) {
                const Gate *d = &c->gates[def];
                if (k >= d->nuses || d->uses[k].user != u || d->uses[k].index != i)
                    return false;
                k++;
            }
    return k == c->gates[def].nuses;
}

static void expect_clone(const Module *m, const char *what)
{
    Module *c = module_clone(m);
    CHECK(c->nfuncs == m->nfuncs && c->nruns == m->nruns, "%s: functions or run lines differ", what);
    for (uint32_t f = 0; f < m->nfuncs && f < c->nfuncs; f++) {
        const Circuit *a = m->funcs[f]->circ, *b = c->funcs[f]->circ;
        CHECK(a->ngates == b->ngates, "%s: @%s has %u gates, its clone %u", what, m->funcs[f]->name,
               a->ngates, b->ngates);
        CHECK(func_same_body(m->funcs[f], c->funcs[f]), "%s: @%s: clone differs", what, m->funcs[f]->name);
        for (GateId g = 0; g < a->ngates && g < b->ngates; g++) {
            CHECK(same_fields(&a->gates[g], &b->gates[g]), "%s: @%s: gate %u differs", what,
                   m->funcs[f]->name, g);
            CHECK(canonical_uses(b, g), "%s: @%s: uses of gate %u out of order or wrong", what,
                   m->funcs[f]->name, g);
        }
    }
    char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    FILE *fx = open_memstream(&x, &nx), *fy = open_memstream(&y, &ny);
    print_module(fx, m);
    print_module(fy, c);
    fclose(fx);
    fclose(fy);
    CHECK(nx == ny && !memcmp(x, y, nx), "%s: the clone prints differently", what);
    free(x);
    free(y);
    module_free(c);
}

/* (x + y) * (x - y) beside an unused x ^ y, with y + y removed and the addition
 * rewired: use lists no longer in order */
static void built(void)
{
    Module *m = module_new("built.circ");
    Type p[2] = {TY_I32, TY_I32};
    Func *f = module_add_func(m, "f", p, 2, TY_I32);
    Circuit *c = f->circ;
    GateId x = circ_add(c, OP_ARG, TY_I32, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    GateId y = circ_add(c, OP_ARG, TY_I32, 0, 1, NULL, 0, NULL, 0, NULL, 0);
    GateId add = circ_add(c, OP_ADD, TY_I32, 0, 0, NULL, 0, NULL, 0, (GateId[]){x, y}, 2);
    GateId sub = circ_add(c, OP_SUB, TY_I32, 0, 0, NULL, 0, NULL, 0, (GateId[]){x, y}, 2);
    GateId xor = circ_add(c, OP_XOR, TY_I32, 0, 0, NULL, 0, NULL, 0, (GateId[]){x, y}, 2);
    GateId twice = circ_add(c, OP_ADD, TY_I32, 0, 0, NULL, 0, NULL, 0, (GateId[]){y, y}, 2);
    GateId mul = circ_add(c, OP_MUL, TY_I32, 0, 0, NULL, 0, NULL, 0, (GateId[]){add, sub}, 2);
    circ_set_name(c, mul, "product", 7);
    circ_set_input(c, add, 0, y); /* x's uses become xor, sub, add */
    circ_set_input(c, add, 0, x);
    circ_kill(c, twice);
    (void)xor;
    GateId st[1] = {ROOT_STATE_ENTRY}, dep[1] = {ROOT_DEPEND_ENTRY};
    circ_add(c, OP_RETURN, TY_NONE, 0, 0, st, 1, dep, 1, (GateId[]){mul}, 1);
    CHECK(!canonical_uses(c, x), "the edits were meant to leave x's uses out of order");
    expect_clone(m, "built");
    module_free(m);
}

int main(int argc, char **argv)
{
    built();
    for (int i = 1; i < argc; i++) {
        Diag d;
        diag_init(&d, argv[i], stderr);
        Module *m = parse_file(argv[i], &d);
        CHECK(m, "%s does not parse", argv[i]);
        if (m)
            expect_clone(m, argv[i]);
        module_free(m);
    }
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("ir_clone: %d files and a built circuit cloned exactly\n", argc - 1);
    return failures != 0;
}
