/* gen_call_relay.c — the generator reaches the inliner's trap-order rule through a
 * relay: over fixed seeds at default settings, at least 1% of the programs call an
 * effect-free callee whose result divides by a non-constant, with the call's
 * dependency output read by DEPEND_RELAYs only and a STORE behind one of them
 * (fuzz/gen_idiom.c, gen_stmt_call_relay; the shape of
 * corpus/regress/inline_relay_trap_order.circ; bench/mutants/README.md, the inliner's
 * planted defect).  usage: test_gen_call_relay [SEEDS]   (default 1000) */
#include "fuzz/gen.h"

#include <stdio.h>
#include <stdlib.h>

enum { MIN_PERMILLE = 10 }; /* measured: about 28 per mille */

static bool is_division(int op)
{
    return op == OP_SDIV || op == OP_UDIV || op == OP_SREM || op == OP_UREM;
}

/* straight-line (one RETURN, on entry, after DEPEND_ENTRY), no LOAD, STORE or
 * CALL, and a division by a value that is not a constant */
static bool effect_free_trapping(const Circuit *cc)
{
    uint32_t returns = 0;
    bool divides = false;
    for (GateId g = NUM_ROOTS; g < cc->ngates; g++) {
        const Gate *gt = &cc->gates[g];
        if (gt->dead)
            continue;
        if (gt->op == OP_RETURN)
            returns += gt->in[0] == ROOT_STATE_ENTRY && gate_dep(gt, 0) == ROOT_DEPEND_ENTRY ? 1 : 2;
        else if (op_has(gt->op, F_STATE | F_EFFECT) || gt->op == OP_DEPEND_RELAY ||
                 gt->op == OP_DEPEND_SELECTOR || gt->op == OP_VALUE_SELECTOR)
            return false;
        divides |= is_division(gt->op) && cc->gates[gate_data(gt, 1)].op != OP_CONSTANT;
    }
    return returns == 1 && divides;
}

/* a DEPEND_RELAY whose dependency output a STORE reads */
static bool relay_to_store(const Circuit *c, GateId r)
{
    const Gate *rt = &c->gates[r];
    for (uint32_t i = 0; i < rt->nuses; i++)
        if (c->gates[rt->uses[i].user].op == OP_STORE)
            return true;
    return false;
}

/* g is a CALL of such a callee whose dependency output only relays read */
static bool relayed_trapping_call(const Module *m, const Circuit *c, GateId g)
{
    const Gate *gt = &c->gates[g];
    if (gt->dead || gt->op != OP_CALL || gt->ndata < 1)
        return false;
    const Gate *sym = &c->gates[gate_data(gt, 0)];
    if (sym->op != OP_SYMBOL || sym->lit >= m->nfuncs || !effect_free_trapping(m->funcs[sym->lit]->circ))
        return false;
    bool to_store = false;
    for (uint32_t i = 0; i < gt->nuses; i++) {
        Use u = gt->uses[i];
        const Gate *ug = &c->gates[u.user];
        bool dep_slot = u.index >= ug->nstate && u.index < (uint32_t)ug->nstate + ug->ndep;
        if (dep_slot && ug->op != OP_DEPEND_RELAY)
            return false;
        to_store |= dep_slot && relay_to_store(c, u.user);
    }
    return to_store;
}

static bool has_shape(const Module *m)
{
    for (uint32_t f = 0; f < m->nfuncs; f++)
        for (GateId g = NUM_ROOTS; g < m->funcs[f]->circ->ngates; g++)
            if (relayed_trapping_call(m, m->funcs[f]->circ, g))
                return true;
    return false;
}

int main(int argc, char **argv)
{
    uint64_t seeds = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000, found = 0;
    size_t len = gen_bytes_for_size(100); /* the default size */
    uint8_t *bytes = malloc(len);
    if (!bytes)
        abort();
    for (uint64_t seed = 0; seed < seeds; seed++) {
        gen_seed_bytes(seed, bytes, len);
        Module *m = generate(bytes, len, NULL);
        found += has_shape(m);
        module_free(m);
    }
    free(bytes);
    bool ok = found * 1000 >= (uint64_t)MIN_PERMILLE * seeds;
    printf("gen_call_relay: %llu of %llu programs (%.1f%%, at least %.1f%%)%s\n", (unsigned long long)found,
           (unsigned long long)seeds, 100.0 * (double)found / (double)(seeds ? seeds : 1), MIN_PERMILLE / 10.0,
           ok ? "" : "  <- too rare");
    return ok ? 0 : 1;
}
