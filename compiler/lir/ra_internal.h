/* ra_internal.h — what liveness.c, intervals.c, regalloc.c, resolve.c and dead.c
 * (the dead-instruction pass) share:
 * instruction positions, operand lists, live sets, live intervals with holes. */
#ifndef CIRC_RA_INTERNAL_H
#define CIRC_RA_INTERNAL_H

#include "regalloc.h"

/* Positions: global instruction n (layout order) has its early point at 4n+1 and
 * its late point at 4n+3; 4n is the gap before it, where moves go.  A live range is
 * half-open [from, to): an early use ends at 4n+2, a late use at 4n+4, a late def
 * starts at 4n+3, an early def at 4n+1. */
static inline uint32_t pos_early(uint32_t n) { return 4 * n + 1; }
static inline uint32_t pos_late(uint32_t n) { return 4 * n + 3; }
static inline uint32_t pos_gap_before(uint32_t pos) { return pos & ~3u; }

/* when a role reads and writes its operand (fence posts of an instruction, in the
 * order liveness and interval building see them: early uses, early defs, late uses,
 * late defs) */
enum { RT_EARLY_USE = 1, RT_EARLY_DEF = 2, RT_LATE_USE = 4, RT_LATE_DEF = 8 };
static inline uint8_t role_timing(Role r)
{
    static const uint8_t timing[ROLE_COUNT] = {
        [ROLE_USE] = RT_EARLY_USE,       [ROLE_COLD_USE] = RT_EARLY_USE,
        [ROLE_LATE_USE] = RT_LATE_USE,   [ROLE_LATE_COLD_USE] = RT_LATE_USE,
        [ROLE_DEF] = RT_LATE_DEF,        [ROLE_ZDEF] = RT_LATE_DEF,
        [ROLE_USE_DEF] = RT_EARLY_USE | RT_LATE_DEF,
        [ROLE_USE_ZDEF] = RT_EARLY_USE | RT_LATE_DEF,
        [ROLE_EARLY_DEF] = RT_EARLY_DEF, [ROLE_SCRATCH] = RT_EARLY_DEF | RT_LATE_USE,
        [ROLE_USE_ADDR] = RT_EARLY_USE,
    };
    return r < ROLE_COUNT ? timing[r] : 0;
}

/* the dense index of t (lir_tmp_index) */
static inline uint32_t ra_tmp_index(const Code *c, Tmp t)
{
    Bank b = tmp_bank(t);
    if (tmp_is_reg(t))
        return (uint32_t)b * LIR_MAX_REGS + tmp_reg_number(t);
    return 2 * LIR_MAX_REGS + (b == BANK_FP ? c->ntmps[BANK_GP] : 0) + tmp_virtual_index(t);
}

/* one tmp operand of an instruction (12 bytes: a large function has millions) */
typedef struct {
    uint32_t index; /* dense index of the tmp when the list was made */
    uint8_t role;   /* Role */
    uint8_t timing; /* RT_* of the role */
    uint8_t bank;   /* Bank */
    uint8_t width;
    int8_t arg;     /* index of the Tmp arg holding it, -1 for addresses and call info */
    uint16_t at;    /* where the Tmp is (ra_operand_tmp): 2 * slot + 1 for an address's
                       index, else 2 * slot; slots 0 .. LIR_MAX_ARGS - 1 are the
                       instruction's args, OPERAND_CALL_SLOT + k its CallInfo's use k,
                       then (k >= nuses) its defs */
} Operand;

enum { OPERAND_CALL_SLOT = 8, OPERAND_MAX_CALL_ARGS = 0x7fff - OPERAND_CALL_SLOT };

/* the Tmp that operand o of inst names (to read or to rewrite) */
static inline Tmp *ra_operand_tmp(Inst *inst, const Operand *o)
{
    uint32_t slot = o->at / 2u;
    Arg *a;
    if (slot < OPERAND_CALL_SLOT)
        a = &inst->args[slot];
    else if ((slot -= OPERAND_CALL_SLOT) < inst->call->nuses)
        a = &inst->call->uses[slot];
    else
        a = &inst->call->defs[slot - inst->call->nuses];
    return o->at & 1 ? &a->index : &a->base;
}

typedef struct {
    Operand *ops;
    uint32_t n, cap;
    uint8_t timing; /* RT_* of every operand, or'ed */
} OperandList;

/* a liveness of fewer (tmp, block) pairs is refreshed whole: comparing the changed
 * blocks' gen and kill and merging the sets costs more than solving a small one */
enum { RA_REFRESH_WHOLE_BELOW = 1 << 16 };

/* a sorted set of dense tmp indices per block: block b's are tmps[at[b] .. at[b + 1]) */
typedef struct {
    uint32_t *at, *tmps;
} LiveSets;

struct LirLiveness {
    Code *code;
    uint32_t ntmps, nblocks;
    LiveSets in;                    /* live-in of every block (live-out: the union of the
                                       successors', lir_live_out_list) */
    uint32_t *outbuf, capout;       /* lir_live_out_list's merged sets */
    uint64_t max_pairs;             /* the most (tmp, block) pairs the live-in sets may hold */
    uint64_t whole_below;           /* sets of fewer pairs are refreshed by a whole solve
                                       (RA_REFRESH_WHOLE_BELOW), larger ones tmp by tmp */
    uint32_t *first_inst;           /* global number of each block's first instruction */
    uint32_t ninsts;
    Arena *arena;
    Operand *ops;                   /* every instruction's operands, in layout order */
    uint32_t *ops_at;               /* global instruction number -> its first in ops (ninsts + 1) */
    uint32_t nops, capops;
};

/* the operands of global instruction n as the liveness found them (valid while
 * the code stays as the liveness describes it) */
OperandList ra_inst_operands(const LirLiveness *l, uint32_t n);
/* the same operands made again from inst (the liveness's code's) in *buf (grown
 * with malloc, *cap its room), after the store is given back */
OperandList ra_operands_again(const Code *c, const Inst *inst, Operand **buf, uint32_t *cap);
/* instruction n's (inst's) operands: the stored ones while l has its store, else
 * made again in *buf */
OperandList ra_operands_of(const LirLiveness *l, const Inst *inst, uint32_t n, Operand **buf, uint32_t *cap);
/* the bytes of l's operand store */
uint64_t ra_operand_store_bytes(const LirLiveness *l);
/* l's live-in sets (ra_release_live_sets) or operand store (ra_release_operands)
 * given back to its arena once the allocator is done with them (the operands once
 * the intervals are built, the sets once the resolution has planned the edges'
 * moves); l answers no more questions of them (empty sets, no operands) and may
 * only be freed */
void ra_release_live_sets(LirLiveness *l);
void ra_release_operands(LirLiveness *l);

static inline bool bit_get(const uint64_t *s, uint32_t i) { return (s[i / 64] >> (i % 64)) & 1; }
static inline void bit_set(uint64_t *s, uint32_t i) { s[i / 64] |= 1ull << (i % 64); }
static inline void bit_clear(uint64_t *s, uint32_t i) { s[i / 64] &= ~(1ull << (i % 64)); }

/* ---- intervals ---------------------------------------------------------------- */
typedef struct {
    uint32_t from, to;
} LiveRange;

typedef struct {
    uint32_t pos;
    int8_t arg;       /* the operand's arg: it need not be a register when this is its
                         instruction's fold candidate (ra_fold_arg); -1: it must be one */
} UsePos;

typedef struct Interval Interval;
struct Interval {
    uint32_t tmp;            /* dense tmp index */
    uint8_t bank;
    bool fixed;              /* a physical register's interval */
    bool spilled;            /* lives in its parent's spill slot */
    int reg;                 /* assigned register, -1 if none */
    LiveRange *ranges;       /* ascending, disjoint */
    uint32_t nranges, capranges;
    UsePos *uses;            /* ascending */
    uint32_t nuses, capuses;
    Interval *parent;        /* the whole tmp's first interval (itself for it) */
    Interval **children;     /* parent only: every piece, by start (itself first) */
    uint32_t nchildren, capchildren;
    uint32_t hint;           /* dense index of a move-related tmp, UINT32_MAX if none */
    uint32_t hint_pos;       /* where that move is */
    int32_t slot;            /* parent only: spill slot, -1 if none */
    uint32_t wake;           /* while inactive in the scan: where its next range starts */
    uint32_t heap_at;        /* while inactive: its index in its register's heap */
};

static inline uint32_t iv_start(const Interval *iv) { return iv->ranges[0].from; }
static inline uint32_t iv_end(const Interval *iv) { return iv->ranges[iv->nranges - 1].to; }
bool iv_covers(const Interval *iv, uint32_t pos);
/* the start of the first range of iv ending after pos (pos itself if a range covers
 * it), UINT32_MAX if none */
uint32_t iv_next_start(const Interval *iv, uint32_t pos);
/* the index of iv's first range that ends after pos (nranges if none) */
uint32_t ra_range_ending_after(const Interval *iv, uint32_t pos);
/* the first position both cover at or after neither's start, UINT32_MAX if none */
uint32_t iv_intersection(const Interval *a, const Interval *b);

/* ---- the allocator's state ---------------------------------------------------------- */
typedef struct {
    Code *code;
    const RegallocOptions *opt;
    Arena *arena;              /* private: intervals and sets, freed at the end */
    LirLiveness *live;
    uint32_t ntmps;
    Interval **ivs;            /* per dense tmp index: its whole interval, or NULL */
    uint32_t *block_of;        /* global instruction number -> block index */
    int8_t *fold_arg;          /* global instruction number -> ra_fold_candidate, or
                                  FOLD_UNKNOWN until first asked (ra_fold_arg) */
    bool spilled_any;          /* some piece was sent to its spill slot */
    uint8_t stack_args[LIR_OP_COUNT]; /* per op: STACK_ARGS_KNOWN, then bit i: a form
                                         of op may take a stack slot as argument i */
    Interval **op_ivs;         /* the interval of each operand of an instruction (building) */
    Operand *again;            /* an instruction's operands made again (ra_operands_again) */
    uint32_t cap_again;
    uint32_t cap_op_ivs;
    uint8_t order[BANK_COUNT][LIR_MAX_REGS];
    unsigned norder[BANK_COUNT];
    int32_t scratch_slot[2];   /* created on demand by the resolution, -1 before */
    struct RegSpans *busy;     /* per bank and register, the ranges of the pieces holding
                                  it (resolve.c, built on first need), NULL before */
    char *err;
    size_t errlen;
    bool failed;
} RaCtx;

enum { STACK_ARGS_KNOWN = 0x80, FOLD_UNKNOWN = -2 };

bool ra_fail(RaCtx *c, const char *fmt, ...);
Inst *ra_inst_at(const RaCtx *c, uint32_t n);
/* the arg of inst that may become a spill slot (at most one per instruction), -1 */
int ra_fold_candidate(RaCtx *c, Inst *inst, const OperandList *ops);
/* ra_fold_candidate of inst, global instruction n (as the intervals were built from
 * it), worked out on first asking: only spilling needs it */
int ra_fold_arg(RaCtx *c, Inst *inst, uint32_t n);
bool ra_build_intervals(RaCtx *c);
Interval *ra_split(RaCtx *c, Interval *iv, uint32_t pos);
/* the piece of a tmp's interval that holds it at pos (the last one starting at or
 * before pos) */
Interval *ra_child_at(Interval *parent, uint32_t pos);
/* the first use of iv at or after from that needs a register, UINT32_MAX if none */
uint32_t ra_first_must_use(RaCtx *c, const Interval *iv, uint32_t from);
bool ra_linear_scan(RaCtx *c, Bank bank);
bool ra_assign_spill_slots(RaCtx *c);
bool ra_resolve_and_rewrite(RaCtx *c);

#endif
