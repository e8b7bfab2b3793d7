/* fold_float.h — the algebraic identities of SQRT FLOOR CEIL FTRUNC NEAREST FABS FMIN
 * FMAX FCOPYSIGN, for fold.c (constant inputs are folded there, through eval_pure).
 * Every rule keeps the exact bits of the result, NaN payloads included.  Internal to
 * compiler/opt. */
#ifndef CIRC_FOLD_FLOAT_H
#define CIRC_FOLD_FLOAT_H

#include "compiler/opt/optutil.h"

/* does a NaN result of gate g's opcode always come out as the canonical NaN (or can
 * it not be NaN at all)? */
bool fold_yields_canonical_nan(int op);
/* rewrite live gate g (one of the operations above) by an identity; true if changed */
bool fold_float_identity(Circuit *c, GateId g);

#endif
