/* dce.c — dead code elimination: unreachable state gates, then undemanded computations.
 * Needs: optutil's state removal (which keeps every selector's liveness sound). */
#include "compiler/opt/optutil.h"

#include <stdlib.h>

/* Deletes state gates no path from entry reaches (dropping their MERGE/LOOP_BEGIN and
 * selector inputs), then every computation gate no state gate demands through data
 * and dependency wires (selectors and relays included). */

static void mark_from_states(const Circuit *c, uint8_t *mark)
{
    GateId *stack = opt_calloc(c->ngates, sizeof(GateId));
    uint32_t sp = 0;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (gate_live(c, g) && gate_is_state(c, g)) {
            mark[g] = 1;
            stack[sp++] = g;
        }
    while (sp) {
        const Gate *gt = &c->gates[stack[--sp]];
        for (uint32_t i = 0; i < gate_nin(gt); i++) {
            GateId in = gt->in[i];
            if (gate_is_computation(c, in) && !mark[in]) {
                mark[in] = 1;
                stack[sp++] = in;
            }
        }
    }
    free(stack);
}

bool opt_dce(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    bool changed = remove_unreachable_states(c);
    uint8_t *mark = opt_calloc(c->ngates, 1);
    mark_from_states(c, mark);
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (gate_is_computation(c, g) && !mark[g]) {
            circ_kill(c, g);
            changed = true;
        }
    free(mark);
    return changed;
}
