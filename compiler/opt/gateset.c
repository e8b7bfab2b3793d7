/* gateset.c — a hash set of gate ids sized by its members (see gateset.h). */
#include "compiler/opt/gateset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t gateset_home(GateId g, uint32_t cap) { return (g * 2654435761u) & (cap - 1); }

void gateset_init(GateSet *s)
{
    s->slot = s->small;
    s->n = 0;
    s->cap = (uint32_t)(sizeof s->small / sizeof s->small[0]);
    memset(s->small, 0xff, sizeof s->small);
}

static void gateset_insert(GateId *slot, uint32_t cap, GateId g)
{
    uint32_t i = gateset_home(g, cap);
    while (slot[i] != NO_GATE)
        i = (i + 1) & (cap - 1);
    slot[i] = g;
}

static void gateset_grow(GateSet *s)
{
    uint32_t cap = s->cap * 2;
    GateId *slot = malloc(cap * sizeof *slot);
    if (!slot) {
        fputs("circ: out of memory\n", stderr);
        abort();
    }
    memset(slot, 0xff, cap * sizeof *slot);
    for (uint32_t i = 0; i < s->cap; i++)
        if (s->slot[i] != NO_GATE)
            gateset_insert(slot, cap, s->slot[i]);
    if (s->slot != s->small)
        free(s->slot);
    s->slot = slot;
    s->cap = cap;
}

bool gateset_has(const GateSet *s, GateId g)
{
    for (uint32_t i = gateset_home(g, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->slot[i] == g)
            return true;
        if (s->slot[i] == NO_GATE)
            return false;
    }
}

bool gateset_add(GateSet *s, GateId g)
{
    if (gateset_has(s, g))
        return false;
    if (2 * (s->n + 1) > s->cap)
        gateset_grow(s);
    gateset_insert(s->slot, s->cap, g);
    s->n++;
    return true;
}

void gateset_free(GateSet *s)
{
    if (s->slot != s->small)
        free(s->slot);
    gateset_init(s);
}
