/* interp.h — the reference interpreter: executes a circuit directly on the graph
 * (no scheduling, no compiler code) and defines what every program means
 * (docs/semantics.md).  An Interp is reusable across calls and holds all its state. */
#ifndef CIRC_INTERP_H
#define CIRC_INTERP_H

#include "oracle/outcome.h"

typedef struct {
    uint64_t max_steps;  /* steps (gate evaluations and state transitions) before `timeout`; 0: 10,000,000 */
    uint32_t max_depth;  /* call depth before `timeout`; 0: 256 */
    struct Mem *memory;  /* NULL: a memory of its own; else this one, borrowed
                            (mem_rebind): interpreters run one after another may
                            share it, never two at once */
} InterpOptions;

typedef struct Interp Interp;

Interp *interp_new(const Module *m, const InterpOptions *opt); /* opt may be NULL */
void interp_free(Interp *in);
/* call m->funcs[func] with args[i] in the type of parameter i (HEAP_ADDR for `heap`);
 * the harness buffer starts as heap_fill_pattern() */
void interp_call(Interp *in, uint32_t func, const uint64_t *args, Outcome *out);
/* the one way a run throws (a THROW gate, and anything else that throws): records the
 * thrown value (ty, bits) as the outcome `throw`, thrown from function `from`, and
 * returns false; the activations unwind to the nearest INVOKE, which catches it, or
 * the run ends with it */
bool interp_throw(Interp *in, Type ty, uint64_t bits, const char *from);
/* one-shot convenience */
void interp_run(const Module *m, uint32_t func, const uint64_t *args, const InterpOptions *opt, Outcome *out);

#endif
