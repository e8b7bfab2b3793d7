/* gvn.c — global value numbering of pure gates, selectors and relays.
 * Needs: optutil's postorder (inputs numbered before their users). */
#include "compiler/opt/optutil.h"

#include <stdlib.h>
#include <string.h>

/* Pure gates with the same opcode, type, condition, literal and inputs (commutative
 * operands ordered by id) are one value; so are selectors on the same join with the
 * same inputs, and relays of the same dependency on the same state.  ALLOCAs are
 * never merged (each is its own memory).  Merging two identical divisions is sound:
 * whenever either is demanded both denote one value. */

typedef struct {
    const Circuit *c;
    GateId *slot;
    uint32_t mask;
} Table;

static bool numbered(const Gate *g)
{
    if (g->op == OP_ALLOCA)
        return false;
    return op_has(g->op, F_PURE) || op_is_selector(g->op) || g->op == OP_DEPEND_RELAY || g->op == OP_DEPEND_AND;
}

/* data inputs of a commutative gate in id order */
static void key_inputs(const Gate *g, GateId *in, uint32_t n)
{
    if (n)
        memcpy(in, g->in, n * sizeof *in);
    if (op_has(g->op, F_COMMUTES) && g->ndata == 2 && n == 2 && in[0] > in[1]) {
        GateId t = in[0];
        in[0] = in[1];
        in[1] = t;
    }
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

static uint64_t hash_gate(const Gate *g)
{
    uint64_t h = mix(mix(mix(0xcbf29ce484222325ull, g->op), g->type), g->cond);
    h = mix(mix(mix(mix(h, g->lit), g->nstate), g->ndep), g->ndata);
    uint32_t n = gate_nin(g);
    GateId small[2], *in = n <= 2 ? small : NULL;
    if (in) {
        key_inputs(g, in, n);
        for (uint32_t i = 0; i < n; i++)
            h = mix(h, in[i]);
    } else {
        for (uint32_t i = 0; i < n; i++)
            h = mix(h, g->in[i]);
    }
    return h;
}

static bool same_gate(const Gate *a, const Gate *b)
{
    if (a->op != b->op || a->type != b->type || a->cond != b->cond || a->lit != b->lit || a->nstate != b->nstate ||
        a->ndep != b->ndep || a->ndata != b->ndata)
        return false;
    uint32_t n = gate_nin(a);
    if (n <= 2) {
        GateId x[2], y[2];
        key_inputs(a, x, n);
        key_inputs(b, y, n);
        return n == 0 || !memcmp(x, y, n * sizeof *x);
    }
    return !memcmp(a->in, b->in, n * sizeof *a->in);
}

/* the gate already numbered like g, or NO_GATE after recording g */
static GateId find_or_add(Table *t, GateId g)
{
    const Gate *gt = &t->c->gates[g];
    for (uint32_t i = (uint32_t)hash_gate(gt) & t->mask;; i = (i + 1) & t->mask) {
        GateId h = t->slot[i];
        if (h == NO_GATE) {
            t->slot[i] = g;
            return NO_GATE;
        }
        if (!t->c->gates[h].dead && same_gate(&t->c->gates[h], gt))
            return h;
    }
}

bool opt_gvn(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    uint32_t n;
    GateId *order = computation_postorder(c, &n);
    Table t = {.c = c};
    uint32_t size = 16;
    while (size < 2 * n + 2)
        size *= 2;
    t.mask = size - 1;
    t.slot = opt_calloc(size, sizeof(GateId));
    for (uint32_t i = 0; i < size; i++)
        t.slot[i] = NO_GATE;
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
        GateId g = order[i];
        if (!gate_live(c, g) || !numbered(&c->gates[g]))
            continue;
        GateId same = find_or_add(&t, g);
        if (same != NO_GATE) {
            opt_replace(c, g, same);
            changed = true;
        }
    }
    free(t.slot);
    free(order);
    return changed;
}
