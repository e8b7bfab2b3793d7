/* eval.h — the meaning of every pure computation gate on bit patterns (DESIGN.md §3,
 * docs/semantics.md): integer ops wrap, shifts mask the amount, divisions report traps,
 * float results canonicalize NaN, float-to-int saturates.  One implementation, used by
 * the interpreter and by constant folding; the backends are checked against it. */
#ifndef CIRC_EVAL_H
#define CIRC_EVAL_H

#include "compiler/ir/ir.h"

typedef enum { EVAL_OK, EVAL_TRAP_DIV0, EVAL_TRAP_OVERFLOW, EVAL_NOT_PURE } EvalStatus;

/* op: a gate with F_PURE and data inputs (not CONSTANT/ARG/ALLOCA/SYMBOL); ty: its
 * result type; cond: ICMP/FCMP condition; in_ty: the type of its data inputs; in: input
 * bits (ints masked to in_ty's width, floats as IEEE bits).  *out is masked to ty. */
EvalStatus eval_pure(int op, Type ty, int cond, Type in_ty, const uint64_t *in, uint32_t nin, uint64_t *out);

#endif
