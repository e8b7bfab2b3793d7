/* isel_exc.c — exceptions in selected code, by a returned flag (docs/architecture.md,
 * "Exceptions"): in a module that may throw, every return sets the ABI's flag
 * register (AbiDesc.gp_flag) to 0, a THROW returns with it set to 1 + the thrown
 * Type and the bits in the result register (abi.c); after each call the caller tests
 * the flag (a test and a branch on the path that does not throw): a CALL that sees
 * it set returns at once with the flag and bits as they came (propagation), an
 * INVOKE goes to a landing block that hands the bits to the GET_EXCEPTIONs of its
 * IF_EXCEPTION and jumps to that block. */
#include "isel.h"

bool lower_module_may_throw(const Module *m)
{
    for (uint32_t i = 0; i < m->nexterns; i++) /* the runtime's throw (docs/runtime.md) */
        if (m->externs[i].rt == RT_rt_check)
            return true;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const Circuit *c = m->funcs[i]->circ;
        for (GateId g = NUM_ROOTS; c && g < c->ngates; g++)
            if (!c->gates[g].dead && c->gates[g].op == OP_THROW)
                return true;
    }
    return false;
}

/* copies of the flag and the bits a call left (a 64-bit integer result is the bits
 * already), then a branch on the flag: to `taken` if set, else on in a new block */
static Arg test_flag(Lower *l, GateId g, uint32_t taken, uint32_t fallthrough, Arg *flag_out)
{
    Arg flag = isel_fresh(l, BANK_GP), bits = isel_t(l, g);
    *flag_out = flag;
    if (isel_type(l, g) != TY_I64) {
        bits = isel_fresh(l, BANK_GP);
        lower_emit2(l, LIR_Move, isel_bits_reg(l), bits);
    }
    lower_emit2(l, LIR_Move, isel_flag_reg(l), flag);
    isel_branch_nonzero(l, 64, flag);
    lir_add_succ(l->code, l->cur, taken);
    lir_add_succ(l->code, l->cur, fallthrough);
    return bits;
}

void isel_exc_propagate(Lower *l, GateId g)
{
    LirBlock *out = lower_new_block(l, true), *next = lower_new_block(l, false);
    Arg flag;
    Arg bits = test_flag(l, g, out->index, next->index, &flag);
    l->cur = out;
    lower_emit2(l, LIR_Move, bits, isel_bits_reg(l));
    lower_emit2(l, LIR_Move, flag, isel_flag_reg(l));
    lower_emit2(l, LIR_Ret64, isel_bits_reg(l), isel_flag_reg(l));
    l->cur = next;
}

/* the GET_EXCEPTIONs on IF_EXCEPTION ex take the bits */
static void give_bits(Lower *l, GateId ex, Arg bits)
{
    const Gate *x = isel_g(l, ex);
    for (uint32_t i = 0; i < x->nuses; i++) {
        GateId u = x->uses[i].user;
        if (!isel_g(l, u)->dead && isel_g(l, u)->op == OP_GET_EXCEPTION)
            lower_emit2(l, LIR_Move, bits, arg_tmp(lower_tmp(l, u)));
    }
}

bool isel_invoke(Lower *l, const Block *b)
{
    GateId g = b->term_gate;
    isel_call_gate(l, g);
    uint32_t success = l->block_of[b->succs[0].to];
    if (!l->may_throw) { /* nothing in the module throws */
        lower_jump(l, success);
        return true;
    }
    LirBlock *landing = lower_new_block(l, true); /* cold: the path that does not throw falls through */
    Arg flag;
    Arg bits = test_flag(l, g, landing->index, success, &flag);
    l->cur = landing;
    give_bits(l, l->sched->blocks[b->succs[1].to].head, bits);
    lower_jump(l, l->block_of[b->succs[1].to]);
    return true;
}
