/* swap_sub_pass.h — the deliberately wrong optimizer pass `swap-sub` (SUB x, y ->
 * SUB y, x), shared by the tests that check that a miscompiling pass is caught
 * (opt_preserve.c) and reduced (reduce_swap.c); needs compiler/opt/opt.h. */
#ifndef CIRC_TESTS_SWAP_SUB_PASS_H
#define CIRC_TESTS_SWAP_SUB_PASS_H

#include "compiler/opt/opt.h"

/* the deliberately wrong pass: swaps the operands of every SUB */
static bool swap_sub(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    bool changed = false;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        Gate *gt = &c->gates[g];
        if (gt->dead || gt->op != OP_SUB || gt->ndata != 2 || gate_data(gt, 0) == gate_data(gt, 1))
            continue;
        GateId in[2] = {gate_data(gt, 1), gate_data(gt, 0)};
        circ_set_inputs(c, g, NULL, 0, NULL, 0, in, 2);
        changed = true;
    }
    return changed;
}

static const PassInfo swap_sub_info = {"swap-sub", swap_sub, "WRONG on purpose: SUB x, y -> SUB y, x"};

#endif
