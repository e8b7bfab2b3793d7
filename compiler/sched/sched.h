/* sched.h — the scheduler: turns a function's circuit into a control-flow graph of
 * basic blocks, each holding the gates it computes in execution order.
 *
 *   1. blocks of the state graph (cfg.c): a block starts at STATE_ENTRY, at each
 *      MERGE / LOOP_BEGIN and at each branch successor (IF_TRUE, IF_FALSE,
 *      SWITCH_CASE, DEFAULT_CASE); ORDINARY_BLOCK and LOOP_BACK fall into the block
 *      they are in; a block ends in a terminator (goto, IF_BRANCH, SWITCH_BRANCH,
 *      INVOKE, RETURN, THROW; IF_SUCCESS and IF_EXCEPTION start blocks).  Blocks are numbered in a reverse postorder of the state
 *      graph in which every loop body is contiguous.
 *   2. dominators (dom.c, Cooper-Harvey-Kennedy) and the loop nesting forest
 *      (loops.c: natural loops of the back edges, LOOP_BACK -> LOOP_BEGIN).
 *   3. global code motion (gcm.c, Click 1995): schedule early, schedule late, pick
 *      the block of least loop depth between them.  Gates that may trap, effects,
 *      relays and gates reading them are never speculated: they run where the
 *      reference interpreter first demands them (see gcm.c).  Inside a block:
 *      operands first, dependencies before data, the terminator's trapping or
 *      memory-touching operands before gates placed there for later blocks.
 *
 * The input is a function that verifies (verify_func); anything else is refused
 * with a diagnostic or scheduled, never a crash.  The result is read-only data owned
 * by the Schedule (one arena); the circuit is not changed.  Consumers (the CFG interpreter, LIR lowering) read it as follows:
 *
 *   for each block b in order (blocks[0] is the entry):
 *     b->params: the live selectors of b's join (VALUE_SELECTOR and DEPEND_SELECTOR);
 *                they are defined on entry by the copies of the edge taken;
 *     b->gates:  computation gates, each after its operands, effects in dependency
 *                order; a DEPEND_RELAY or DEPEND_AND computes nothing (it stands for the effects
 *                before it).  GET_EXCEPTION is the first gate of its IF_EXCEPTION's
 *                block.  An INVOKE's value and dependency are defined at the start
 *                of its IF_SUCCESS's block.  A gate placed in several blocks (gate_block ==
 *                MULTI_BLOCK) appears in each: a copy.  Copies go where the gate is
 *                first demanded: on every path to a use, a copy runs before the use,
 *                and an effect's copies never run twice for the same instance; a
 *                consumer gives the gate one location that every copy writes;
 *     b->term:   how b ends; the terminator gate is b->term_gate;
 *     b->succs:  outgoing edges; an edge into a join carries the parallel copies of
 *                the join's live selectors (all read before any is written).
 *
 * Gates that are never demanded on any path (dead selectors, unused values, effects
 * nothing depends on) are not scheduled at all. */
#ifndef CIRC_SCHED_H
#define CIRC_SCHED_H

#include "compiler/ir/ir.h"

typedef uint32_t BlockId;
#define NO_BLOCK 0xffffffffu
#define MULTI_BLOCK 0xfffffffeu /* Schedule.gate_block: placed in several blocks (copies) */

typedef enum {
    TERM_GOTO,   /* one successor */
    TERM_IF,     /* IF_BRANCH: succs[0] taken when the condition is 1, succs[1] when 0 */
    TERM_SWITCH, /* SWITCH_BRANCH: succs[i] for case_values[i], the last succ is the default */
    TERM_INVOKE, /* INVOKE (a call that may throw): succs[0] its IF_SUCCESS, succs[1] its IF_EXCEPTION */
    TERM_RETURN, /* RETURN: no successors */
    TERM_THROW,  /* THROW: no successors */
} TermKind;

/* one parallel copy on an edge into a join: selector := value */
typedef struct {
    GateId selector; /* VALUE_SELECTOR (a data copy) or DEPEND_SELECTOR (no data: the
                        effects of `value` have run by the end of the predecessor) */
    GateId value;    /* the selector's input for this edge (data or dependency) */
} EdgeCopy;

typedef struct {
    BlockId to;
    uint32_t join_input; /* the join's state input this edge enters through, or UINT32_MAX */
    EdgeCopy *copies;    /* live selectors of the target join, in gate-id order */
    uint32_t ncopies;
} Edge;

typedef struct {
    BlockId id;          /* == index in Schedule.blocks == position in the block order */
    GateId head;         /* STATE_ENTRY, MERGE, LOOP_BEGIN, IF_TRUE, IF_FALSE, SWITCH_CASE, ... */
    GateId *states;      /* the state gates of the block: head, then ORDINARY_BLOCK / LOOP_BACK */
    uint32_t nstates;
    GateId *params;      /* live selectors on the head (a join), in gate-id order */
    uint32_t nparams;
    GateId *gates;       /* computation gates in execution order */
    uint32_t ngates;
    uint8_t term;        /* TermKind */
    GateId term_gate;    /* IF_BRANCH / SWITCH_BRANCH / INVOKE / RETURN / THROW; for a goto, the last state */
    Edge *succs;
    uint32_t nsuccs;
    uint64_t *case_values; /* TERM_SWITCH: nsuccs - 1 case values (SWITCH_CASE literals) */
    BlockId *preds;      /* in the order of the head's state inputs for a join */
    uint32_t npreds;
    BlockId idom;        /* immediate dominator; NO_BLOCK for the entry */
    uint32_t dom_depth;  /* 0 for the entry */
    uint32_t dom_pre;    /* preorder number in the dominator tree: a dominates b iff */
    uint32_t dom_size;   /* dom_pre(a) <= dom_pre(b) < dom_pre(a) + dom_size(a) */
    int32_t loop;        /* innermost loop containing the block, -1 if none */
    uint32_t loop_depth; /* number of loops containing the block */
} Block;

typedef struct {
    BlockId header;      /* the LOOP_BEGIN's block */
    int32_t parent;      /* enclosing loop, -1 if outermost */
    uint32_t depth;      /* 1 for an outermost loop */
    BlockId last;        /* the loop's last block in block order (the header is its first) */
    uint32_t nbody;      /* how many blocks the loop has: last - header + 1 when contiguous */
    BlockId *latches;    /* blocks with a back edge to the header */
    uint32_t nlatches;
} Loop;

typedef struct Schedule {
    Arena *arena;        /* owns everything below */
    const Func *func;
    Block *blocks;
    uint32_t nblocks;
    Loop *loops;         /* ordered by header block */
    uint32_t nloops;
    BlockId *gate_block; /* per gate id: its block, MULTI_BLOCK, or NO_BLOCK (not scheduled) */
    BlockId *state_block;/* per gate id: the block of a reachable state gate, else NO_BLOCK */
    uint32_t ngates;     /* size of the per-gate arrays (the circuit's gate count) */
} Schedule;

typedef struct {
    bool no_motion;      /* naive schedule: every pure gate at its latest legal block (no
                            hoisting); gates that must not be speculated go where
                            they always go */
    uint8_t regs[2];     /* the registers the code will have for integer [0] and float
                            [1] values (a register file: compile_sched_options takes it
                            from the targets); 0: no limit.  Global code motion hoists
                            a pure gate out of a loop only while the values it counts
                            live throughout that loop fit (gcm.c) */
} SchedOptions;

/* Schedule one function; NULL after reporting through d (diag_gate) if it cannot be
 * scheduled (malformed state graph, a gate that would need speculation, ...).
 * opt may be NULL (global code motion on). */
Schedule *schedule_func(const Func *f, const SchedOptions *opt, Diag *d);
void schedule_free(Schedule *s);

/* dominator queries (valid after schedule_func) */
bool sched_dominates(const Schedule *s, BlockId a, BlockId b);
BlockId sched_lca(const Schedule *s, BlockId a, BlockId b);
/* does loop l contain block b? */
bool sched_loop_contains(const Schedule *s, int32_t l, BlockId b);

/* the scheduled function in the parser's syntax: gates grouped by block, each block
 * preceded by a comment line; the text parses back to the same circuit */
void sched_print(FILE *out, const Schedule *s);

/* ---- internal steps (one file each), exposed for the unit tests ---------------- */
bool sched_build_blocks(Schedule *s, Diag *d);  /* cfg.c */
void sched_dominators(Schedule *s);             /* dom.c */
bool sched_find_loops(Schedule *s, Diag *d);    /* loops.c */
bool sched_order_blocks(Schedule *s);           /* cfg.c: loop-contiguous RPO, renumbering */
bool sched_place_gates(Schedule *s, const SchedOptions *opt, Diag *d); /* gcm.c */
/* list-schedule gates[0..n) of one block (already in a valid order) so independent
 * chains interleave; slot_of and mark are per-gate scratch arrays, gen a mark no gate
 * holds yet (interleave.c) */
void sched_interleave(const Circuit *c, GateId *gates, uint32_t n, uint32_t *slot_of, uint32_t *mark, uint32_t gen);

#endif
