/* verify_lists.c — the verifier's check of the root lists (ir.h RootList): each
 * registers live gates of its own opcode only, each at most once, and every live gate
 * of that opcode.  Called by verify_func; messages located at the gate. */
#include "ir.h"

#include <stdlib.h>

/* one list: entries in range, of the right opcode, once each; marks seen[] */
static int check_entries(const Func *f, int root, uint8_t *seen, Diag *d)
{
    const Circuit *c = f->circ;
    uint32_t n;
    const GateId *items = circ_root_list(c, root, &n);
    const char *list = op_info[c->gates[root].op].name;
    int errors = 0;
    for (uint32_t i = 0; i < n; i++) {
        GateId g = items[i];
        if (g < NUM_ROOTS || g >= c->ngates) {
            diag_error(d, f->line, f->col, "in @%s: %s registers gate %u, which is not a gate of the function",
                       f->name, list, g);
            errors++;
        } else if (!c->gates[g].dead && root_list_of(c->gates[g].op) != root) {
            diag_gate(d, f, g, "%s registers it, but a %s belongs in %s", list, op_info[c->gates[g].op].name,
                      root_list_of(c->gates[g].op) < 0 ? "no root list"
                                                       : op_info[root_list_of(c->gates[g].op)].name);
            errors++;
        } else if (!c->gates[g].dead && seen[g]++) {
            diag_gate(d, f, g, "%s registers it more than once", list);
            errors++;
        }
    }
    return errors;
}

int verify_root_lists(const Func *f, Diag *d)
{
    const Circuit *c = f->circ;
    uint8_t *seen = calloc(c->ngates ? c->ngates : 1, 1);
    if (!seen)
        abort();
    int errors = 0;
    for (int root = ROOT_RETURN_LIST; root <= ROOT_ARG_LIST; root++)
        errors += check_entries(f, root, seen, d);
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        int root = c->gates[g].op < OP_COUNT ? root_list_of(c->gates[g].op) : -1;
        if (!c->gates[g].dead && root >= 0 && !seen[g]) {
            diag_gate(d, f, g, "this %s is not registered in %s", op_info[c->gates[g].op].name,
                      op_info[c->gates[root].op].name);
            errors++;
        }
    }
    free(seen);
    return errors;
}
