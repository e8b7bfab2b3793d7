/* fold_bits.h — the fold pass's algebraic identities for SELECT and the added integer
 * operations (fold_bits.c); constant operands are folded by fold.c itself. */
#ifndef CIRC_FOLD_BITS_H
#define CIRC_FOLD_BITS_H

#include "compiler/opt/optutil.h"

/* rewrite live pure gate g if an identity applies (its users then use the
 * replacement); false if nothing changed */
bool fold_bits(Circuit *c, GateId g);

#endif
