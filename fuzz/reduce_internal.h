/* reduce_internal.h — what the reducer's core (reduce.c) and its strategies
 * (reduce_edits.c, reduce_module_edits.c) share: units of reduction and the strategy
 * table.  Internal to fuzz/. */
#ifndef CIRC_REDUCE_INTERNAL_H
#define CIRC_REDUCE_INTERNAL_H

#include "fuzz/reduce.h"

/* one thing a strategy may change: a gate of a function, or (gate NO_GATE) a
 * function-level item such as parameter `aux` of function `func` or run line `aux` */
typedef struct {
    uint32_t func;
    GateId gate;
    uint32_t aux;
} Unit;

typedef struct {
    Unit *v;
    uint32_t n, cap;
} UnitList;

void units_push(UnitList *l, uint32_t func, GateId gate, uint32_t aux);

/* cleanup run on a candidate after its edit: dead-gate elimination, optionally the
 * control-flow simplifier first (for edits that make branches constant) */
typedef enum { CLEAN_DCE, CLEAN_CFG, CLEAN_NONE } Cleanup;

typedef struct {
    const char *name;
    uint32_t vfirst, vend; /* the variants tried: vfirst .. vend-1 */
    bool chunked;   /* ddmin over the units; else one unit per candidate */
    bool late;      /* tried only once the others reach their fixpoint (costly) */
    Cleanup cleanup;
    void (*units)(const Module *m, UnitList *out);
    /* a new module: m with variant v of the edit applied to u[0..n); NULL if the edit
     * changes nothing or does not apply */
    Module *(*apply)(const Module *m, const Unit *u, uint32_t n, uint32_t v);
    bool rewires;   /* may keep a candidate that is only rewired (no smaller otherwise) */
} Strategy;

extern const Strategy reduce_strategies[];
extern const uint32_t reduce_nstrategies;

/* helpers for the strategies */
bool reduce_gate_live(const Circuit *c, GateId g);
/* text round trip (compacts gate ids); NULL if the text does not parse */
Module *reduce_reparse(const Module *m);

#endif
