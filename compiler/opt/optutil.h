/* optutil.h — analyses and rewrites shared by the passes: gate predicates, the
 * "demand points" of a gate (where the semantics forces it to run), cone checks that
 * say when a use may be dropped or delayed without losing a trap or an effect, and
 * removal of state gates that no path reaches any more.  Internal to compiler/opt. */
#ifndef CIRC_OPTUTIL_H
#define CIRC_OPTUTIL_H

#include "compiler/opt/opt.h"

void *opt_calloc(size_t n, size_t size); /* aborts on exhaustion */

static inline bool gate_live(const Circuit *c, GateId g)
{
    return g != NO_GATE && g < c->ngates && !c->gates[g].dead;
}
static inline bool op_is_selector(int op) { return op == OP_VALUE_SELECTOR || op == OP_DEPEND_SELECTOR; }
static inline bool gate_is_state(const Circuit *c, GateId g) { return op_has(c->gates[g].op, F_STATE); }
/* a computation gate: not a root, not a state gate (selectors and relays included) */
static inline bool gate_is_computation(const Circuit *c, GateId g)
{
    return gate_live(c, g) && !op_has(c->gates[g].op, F_STATE | F_ROOT);
}
/* the kind of input slot `index` of gate u: 0 state, 1 dependency, 2 data */
static inline int slot_kind(const Gate *u, uint32_t index)
{
    return index < u->nstate ? 0 : index < (uint32_t)u->nstate + u->ndep ? 1 : 2;
}

bool gate_const(const Circuit *c, GateId g, uint64_t *bits); /* a live CONSTANT? */
GateId opt_const(Circuit *c, Type t, uint64_t bits);

/* every use of old goes to repl; old's name moves to repl if repl has none; old (and
 * whatever it alone kept alive) is deleted */
void opt_replace(Circuit *c, GateId old, GateId repl);
/* delete g if it is an unused computation gate, then its inputs that become unused */
void opt_kill_unused(Circuit *c, GateId g);

/* no trap and no effect anywhere in g's cone (data and dependency inputs, through
 * relays); through_selectors: also through selectors' inputs (else a selector ends
 * the walk as a value already fixed when its join was entered).  Dropping a use of a
 * gate whose cone is quiet with through_selectors never changes an outcome. */
bool cone_quiet(const Circuit *c, GateId g, bool through_selectors);
/* g may be evaluated earlier or more often than it was: its data cone has no
 * division and no CALL (LOAD values and selectors end the walk: they are memos) */
bool cone_speculatable(const Circuit *c, GateId g);

/* demand points: the state gates (key g<<32) and selector inputs (key g<<32 | i+1)
 * that force a gate to run, found by walking its uses forward through computation
 * gates.  which: the outputs of the start gate to follow.  need: the set is a
 * requirement (a selector input whose join leads straight to a terminator that reads
 * the selector counts as that terminator); otherwise it is a guarantee (exact, and a
 * state gate reached through its dependency input is marked VIA_DEP). */
enum { USE_VALUE = 1, USE_DEP = 2, USE_ANY = 3 };
#define VIA_DEP 0x80000000u /* guarantee key bit: reached through a dependency input */
typedef struct { uint64_t *v; uint32_t n, cap; } Points;
void demand_points(const Circuit *c, GateId g, int which, GateId skip_user, bool need, Points *out);
bool points_subset(const Points *a, const Points *b);
/* every requirement in need is met, with no change in the order of effects and
 * traps, by a guarantee in have1 or have2 (either may be NULL) */
bool points_cover(const Circuit *c, const Points *need, const Points *have1, const Points *have2);
/* the terminator that control reaches right after sel's join (its only successor,
 * possibly through ORDINARY_BLOCKs) when that terminator demands sel and nothing the
 * join's selectors or the terminator run can trap, else NO_GATE: an effect demanded
 * on entering the join may then be demanded by the terminator instead */
GateId join_terminator(const Circuit *c, GateId sel);
void points_free(Points *p);

/* state gates reachable from STATE_ENTRY along state wires, never entering a gate
 * marked in blocked (may be NULL); a bitmap the caller frees */
uint8_t *reach_states(const Circuit *c, const uint8_t *blocked);
/* would deleting the state gates outside reach (with their selectors and relays) be
 * sound: nothing a reachable state uses depends on them, and no selector that
 * stays loses its only demand while its inputs could trap or have effects? */
bool unreachable_removal_ok(const Circuit *c, const uint8_t *reach);
/* delete unreachable state gates: drop their MERGE / LOOP_BEGIN inputs and the
 * matching selector inputs (a LOOP_BEGIN without its back edge becomes a MERGE),
 * delete their selectors and relays and what only they used.  false if nothing was
 * unreachable or removal would not be sound (then nothing changes). */
bool remove_unreachable_states(Circuit *c);
/* the same; check false skips the soundness check, for a caller that has just made
 * it on the reachability the circuit now has */
bool remove_unreachable(Circuit *c, bool check);

/* The state gates of a circuit, listed once so that the two analyses above look at
 * them and not at every gate (the same answers): valid while no gate listed as a
 * computation becomes a state gate; gates added after the listing (ids from end on)
 * are looked at too.  A pass that tries many removals lists them once.
 * clean: when listed, every live state gate was reachable and every reached state's
 * state inputs were live state gates.  While the caller's rewrites keep that (they
 * never cut a state off without removing it, as simplify-cfg's do), the states a
 * removal finds unreachable are those reachable from the `cut` states it names
 * through unreachable ones, and only those are looked at. */
typedef struct {
    GateId *v;
    uint32_t n;
    GateId end;
    bool clean;
} StateList;
void state_list_init(StateList *s, const Circuit *c);
void state_list_free(StateList *s);
/* the two analyses with states (NULL: every gate is looked at); cut: the states just
 * blocked or cut off (used when states is clean) */
bool unreachable_removal_ok_in(const Circuit *c, const uint8_t *reach, const StateList *states, const GateId *cut,
                               uint32_t ncut);
bool remove_unreachable_in(Circuit *c, bool check, const StateList *states, const GateId *cut, uint32_t ncut);

/* live computation gates, each after its data and dependency inputs (cycles broken
 * at an arbitrary point); *n gets the count; caller frees */
GateId *computation_postorder(const Circuit *c, uint32_t *n);

#endif
