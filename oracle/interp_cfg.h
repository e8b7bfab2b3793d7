/* interp_cfg.h — an interpreter of the scheduled form (compiler/sched): runs each
 * function's blocks in order, the gates of a block in their scheduled order, the
 * parallel copies on the edges into joins, and effects when their gate is reached.
 * It shares the value and memory core of the reference interpreter (eval_pure through
 * val_pure, oracle/mem.h for memory, provenance, effect instances and races), so its
 * Outcome must equal the graph interpreter's: a difference is a scheduler bug. */
#ifndef CIRC_INTERP_CFG_H
#define CIRC_INTERP_CFG_H

#include "compiler/sched/sched.h"
#include "oracle/interp.h"

typedef struct CfgInterp CfgInterp;

/* schedule every function of m (sopt may be NULL: global code motion); NULL after
 * reporting through d if a function cannot be scheduled.  opt as for interp_new. */
CfgInterp *cfg_interp_new(const Module *m, const InterpOptions *opt, const SchedOptions *sopt, Diag *d);
/* the same over schedules the caller made from m (one per function) and keeps until
 * after cfg_interp_free */
CfgInterp *cfg_interp_scheduled(const Module *m, Schedule *const *sched, const InterpOptions *opt);
void cfg_interp_free(CfgInterp *ci);
/* call m->funcs[func] with args (as interp_call); the harness buffer starts as
 * heap_fill_pattern() */
void cfg_interp_call(CfgInterp *ci, uint32_t func, const uint64_t *args, Outcome *out);
/* the one way a run throws (see interp_throw): records `throw` (ty, bits) thrown from
 * function `from` and returns false; activations unwind to the nearest INVOKE */
bool cfg_interp_throw(CfgInterp *ci, Type ty, uint64_t bits, const char *from);
/* the schedule the interpreter runs for function func */
const Schedule *cfg_interp_schedule(const CfgInterp *ci, uint32_t func);

#endif
