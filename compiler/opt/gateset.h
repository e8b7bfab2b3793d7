/* gateset.h — a set of gate ids whose cost follows the number of members, not the
 * size of the circuit: the "seen" set of a walk that usually visits a small cone of a
 * large function (an open-addressing hash table that doubles when half full).
 * Internal to compiler/opt. */
#ifndef CIRC_GATESET_H
#define CIRC_GATESET_H

#include "compiler/ir/ir.h"

typedef struct {
    GateId *slot; /* cap entries, NO_GATE where empty */
    uint32_t n, cap;
    GateId small[32]; /* the table while it fits here (slot points at it) */
} GateSet;

void gateset_init(GateSet *s);
/* add g (not NO_GATE); true if it was not a member before */
bool gateset_add(GateSet *s, GateId g);
bool gateset_has(const GateSet *s, GateId g);
void gateset_free(GateSet *s);

#endif
