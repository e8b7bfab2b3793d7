/* inline.h — the inliner's shared parts: callee lookup, cones and settled arguments
 * (inline.c), and inlining at INVOKE sites (inline_invoke.c).  Internal to compiler/opt. */
#ifndef CIRC_INLINE_H
#define CIRC_INLINE_H

#include "compiler/opt/optutil.h"

enum { MAX_CALLEE_GATES = 40, MAX_ZEROED_ALLOCA = 256 };

/* the module function a CALL or INVOKE calls through a SYMBOL with matching
 * argument and result types (never the caller itself), else NULL */
const Func *inline_direct_callee(const Module *m, const Func *caller, GateId call);
/* mark the callee gates start's cone holds (data and dependency inputs, through
 * selectors and relays; state gates end the walk) */
void inline_mark_cone(const Circuit *cc, GateId start, uint8_t *mark);
/* the effects a dependency d0 is ordered after (d0 included); caller frees */
uint8_t *inline_chain_ancestors(const Circuit *c, GateId d0);
/* arg's cone holds only quiet pure gates and loads marked in anc (already run) */
bool inline_arg_settled(const Circuit *c, GateId arg, const uint8_t *anc);
bool inline_has_loop(const Circuit *c);
/* zero an inlined ALLOCA of `size` bytes with stores chained after dep; the last one */
GateId inline_zero_fill(Circuit *c, GateId alloca, uint64_t size, GateId dep);

/* Inline the callee of INVOKE inv when it is a small acyclic leaf (no call, no loop)
 * of at most `budget` gates and doing so keeps every outcome (inline_invoke.c says
 * when).  rezero: the caller has a loop, so inlined ALLOCAs are zeroed by stores.
 * True if inlined; *added gets the number of gates added to c. */
bool inline_invoke(Circuit *c, const Module *m, const Func *f, GateId inv, bool rezero, uint32_t budget,
                   uint32_t *added);

#endif
