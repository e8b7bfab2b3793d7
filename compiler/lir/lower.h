/* lower.h — lowering a scheduled function (compiler/sched/sched.h) to LIR: the
 * target-independent half of instruction selection.
 *
 * lower_func() walks the Schedule block by block and gate by gate and asks the
 * instruction selector (isel.h, with the target's IselHooks) to select
 * instructions for each gate and terminator.  What it does itself:
 *   - one LIR block per scheduled block (created up front, so branches can name
 *     any block); the hooks may add blocks (division trap checks, loops of EXP,
 *     compare chains of SWITCH); at the end the blocks are laid out grouped by the
 *     scheduled block they were made for, in schedule order, then the groups of
 *     exception handlers (blocks an IF_EXCEPTION's block dominates), then blocks
 *     marked cold (trap blocks, INVOKE landing blocks) last;
 *   - one tmp per gate value (its bank from the type), shared by every copy of a
 *     gate placed in several blocks (MULTI_BLOCK): every copy writes the same tmp;
 *   - edges: the parallel copies of an edge into a join (VALUE_SELECTOR := value)
 *     are made safe by copying every source into a fresh tmp first, then the fresh
 *     tmps into the selector tmps (the allocator coalesces the moves away).  A goto
 *     carries its copies at the end of its block; an edge of a branch with copies
 *     gets a block of its own (lower_edge_block).
 *
 * Value invariant shared with the targets' selection: a GP tmp holding an integer
 * of type T has every bit above ty_bits(T) zero (i1 is 0 or 1); an FP tmp holds the
 * value in its low 32 (f32) or 64 (f64) bits.  DEPEND_SELECTOR, DEPEND_RELAY and
 * DEPEND_AND compute nothing and get no tmp. */
#ifndef CIRC_LOWER_H
#define CIRC_LOWER_H

#include "compiler/lir/lir.h"
#include "compiler/sched/sched.h"

typedef struct Lower Lower;

/* a target's part of instruction selection (isel.h): lower_func hands each gate
 * and terminator to the target-independent selector, which asks these hooks */
typedef struct IselHooks IselHooks;

struct Lower {
    Arena *arena;
    const Schedule *sched;
    const Func *func;
    const Circuit *circ;
    const IselHooks *isel;
    Code *code;
    Diag *diag;
    LirBlock *cur;          /* where instructions go */
    const Block *block;     /* the scheduled block being lowered */
    GateId origin;          /* gate recorded as the origin of appended instructions */
    uint32_t cur_group;     /* layout group of blocks created now */
    uint32_t *group;        /* per LIR block: layout group */
    uint32_t capgroup;
    Tmp *gate_tmp;          /* per gate id: its tmp, TMP_NONE until asked */
    Tmp *param_tmp;         /* per parameter */
    uint32_t *block_of;     /* per scheduled block: its first LIR block's index */
    bool *fused;            /* per gate id: selected as part of its user (compare + branch) */
    uint32_t *alloca_slot;  /* per gate id: the stack slot of an ALLOCA, or UINT32_MAX */
    void *target_ctx;       /* the hooks' own state */
    uint32_t trap_block[8]; /* per TrapKind: 1 + index of the function's Ud2 block, 0 if none */
    bool may_throw;         /* the module throws: returns carry the threw flag (isel_exc.c) */
};

/* lower one scheduled function to LIR for target (virtual tmps, abstract stack
 * slots, no prologue or epilogue); NULL after reporting through d */
Code *lower_func(const Schedule *s, const Target *target, const IselHooks *isel,
                 void *target_ctx, Arena *arena, Diag *d);
/* the same, the Code counting its machine-level coverage into cov (Code.cov:
 * the selector's idioms now, the encoders' paths when it is laid out) */
struct MachCov;
Code *lower_func_counted(const Schedule *s, const Target *target, const IselHooks *isel,
                         void *target_ctx, struct MachCov *cov, Arena *arena, Diag *d);

/* exceptions (isel_exc.c): may m throw (a THROW in a function, or a runtime function
 * that throws declared)?  Then every return of its
 * compiled code carries the threw flag (CodeBlob.threw_flag, docs/architecture.md) */
bool lower_module_may_throw(const Module *m);

/* ---- for the hooks -------------------------------------------------------------- */
/* the tmp holding gate g's value (created on first use) */
Tmp lower_tmp(Lower *l, GateId g);
Tmp lower_param_tmp(Lower *l, uint32_t index);
Tmp lower_new_tmp(Lower *l, Bank b);
/* a new block in the current layout group (cold: laid out after every group) */
LirBlock *lower_new_block(Lower *l, bool cold);
/* append to l->cur with l->origin as origin */
Inst *lower_emit(Lower *l, LirOp op, unsigned nargs, const Arg *args);
Inst *lower_emit0(Lower *l, LirOp op);
Inst *lower_emit1(Lower *l, LirOp op, Arg a);
Inst *lower_emit2(Lower *l, LirOp op, Arg a, Arg b);
Inst *lower_emit3(Lower *l, LirOp op, Arg a, Arg b, Arg c);
Inst *lower_emit4(Lower *l, LirOp op, Arg a, Arg b, Arg c, Arg d);
Inst *lower_emit5(Lower *l, LirOp op, Arg a, Arg b, Arg c, Arg d, Arg e);
/* the cold block that traps with kind (one per kind and function, made on demand) */
uint32_t lower_trap_block(Lower *l, TrapKind kind);
/* end l->cur with a jump to block `to` */
void lower_jump(Lower *l, uint32_t to);
/* the LIR block index a branch of scheduled block b takes for its successor edge i:
 * the target block itself, or a new block doing the edge's copies then jumping */
uint32_t lower_edge_block(Lower *l, const Block *b, uint32_t i);
/* would gate g's only use be the terminator of its own block (for fusing compares
 * into branches)? */
bool lower_only_user_is_term(const Lower *l, GateId g, const Block *b);
/* does no live user of float gate g see a NaN's payload (every user is F_NAN_BLIND)?
 * Then g's result need not be made the canonical NaN */
bool lower_nan_unseen(const Lower *l, GateId g);
/* the bank of a value type */
Bank lower_bank(Type t);
/* a call's CallInfo (arena-allocated): copies of its register uses and defs and
 * the registers it clobbers, per bank */
CallInfo *lower_call_info(Lower *l, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs,
                          uint64_t gp_clobbers, uint64_t fp_clobbers);

#endif
