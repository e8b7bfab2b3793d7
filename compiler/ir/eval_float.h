/* eval_float.h — the meaning of the float operations beyond arithmetic (SQRT FLOOR
 * CEIL FTRUNC NEAREST FABS, FMIN FMAX FCOPYSIGN) on bit patterns, for eval.c
 * (docs/semantics.md): SQRT and the roundings give the canonical NaN for a NaN, FABS
 * and FCOPYSIGN are bit operations (NaN payloads kept), FMIN/FMAX are IEEE 754-2019
 * minimum/maximum (the canonical NaN if either input is NaN; -0 < +0). */
#ifndef CIRC_EVAL_FLOAT_H
#define CIRC_EVAL_FLOAT_H

#include "compiler/ir/eval.h"

/* one of the operations above? */
bool eval_float_has(int op);
/* x: the input's bits (ty is f32 or f64); EVAL_NOT_PURE if op is not unary here */
EvalStatus eval_float_unary(int op, Type ty, uint64_t x, uint64_t *out);
/* a, b: the inputs' bits; EVAL_NOT_PURE if op is not FMIN, FMAX or FCOPYSIGN */
EvalStatus eval_float_binary(int op, Type ty, uint64_t a, uint64_t b, uint64_t *out);

#endif
