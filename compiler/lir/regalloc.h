/* regalloc.h — register and stack allocation of LIR: liveness at fence posts, the
 * linear-scan register allocator (interval splitting, spilling, copy coalescing,
 * resolution with parallel moves on edges) and the stack allocator (frame layout).
 *
 * After lir_allocate() succeeds, every Tmp of the Code is a physical register,
 * every stack slot has an offset, Code.frame describes the frame, lir_verify()
 * passes and every instruction has a form of the target.
 *
 * ---- what the allocator needs from its input ---------------------------------
 *  - Code.target set; its allocatable[] / callee_saved[] masks (lir.h Target)
 *    say which registers it may hand out and which the prologue must preserve.
 *    Code.frame_base and Code.stack_pointer (when set) are never allocated.
 *  - Physical registers may appear anywhere (argument/result registers, fixed form
 *    operands such as %rcx for shifts, Ret32 %rax): they are live from their def to
 *    their last use exactly like tmps, and the allocator never gives a virtual tmp
 *    a register where that register is live or clobbered (CallInfo.clobbers).
 *    Function parameters are read from their registers by moves in the entry
 *    block (`Move %rdi, %tmp1`): a physical register live into the entry block is
 *    an incoming value; a virtual tmp live into the entry block is undefined (it
 *    gets a location, its value is whatever is there).
 *  - The code must not need more registers at one instruction than the limit
 *    allows: every operand the form cannot take from memory (address bases and
 *    indexes included) needs a register at the instruction's early point, and
 *    defs need theirs at its late point, where operands live after it still hold
 *    theirs unless one can wait in its slot from right after the early uses.
 *    Otherwise lir_allocate fails with a message ("no GP register left ...").  In
 *    practice: x86-64 code from instruction selection allocates with 2 GP and 2
 *    FP registers (one operand folds into memory); ARM64 needs 3 GP registers
 *    (msub reads three) and 2 FP.
 *
 * ---- the algorithm, in short ---------------------------------------------------
 * Positions: instruction n has its early point at 4n+1 and its late point at 4n+3;
 * 4n is the gap before it where moves go.  Liveness (liveness.c) gives live-in
 * and live-out sets; intervals with holes are built from them (intervals.c) with
 * use positions that must or may be in a register (one spilled operand per
 * instruction may be folded, when lir_admits_stack says so and the def is not a
 * narrow zero-extending one).  The linear scan (regalloc.c) splits intervals at
 * gaps; an interval evicted by a def may keep its register for the early uses of
 * that instruction and wait in its slot from 4n+2 (stored in the gap before).
 * Each spilled tmp has one 8-byte slot for its whole life (shared with tmps whose
 * lifetimes do not overlap, unless no_share_slots).  resolve.c rewrites operands,
 * inserts the moves where pieces meet inside blocks and on edges.
 *
 * ---- the frame (x86-64 and ARM64 alike) ----------------------------------------
 * The target keeps Code.frame_base 16-byte aligned (x86-64: push %rbp; mov %rsp,
 * %rbp; ARM64: stp x29, x30, [sp, #-16]!; mov x29, sp).  The stack allocator lays
 * out the Code.frame.size bytes below the frame base, from high to low addresses:
 *
 *     frame_base                       (saved frame pointer / return address above)
 *     [frame_base - save_size, frame_base)   callee-saved register save area:
 *                                            register r of bank b saved at
 *                                            frame_base + frame.save_offset[b][r]
 *                                            (8 bytes GP, 16 bytes FP, aligned)
 *     stack slots (spills, ALLOCA slots, other slots): StackSlot.offset < 0,
 *                                            each aligned to its alignment
 *     [sp, sp + frame.callarg_size)          outgoing argument area (CallArg args)
 *     sp = frame_base - frame.size           (frame.size is a multiple of 16)
 *
 * Who saves what: the allocator records in frame.saved[bank] every callee-saved
 * register the code writes (assigned to a tmp or written by an instruction),
 * leaving out frame_base and stack_pointer; the target's prologue (emitted after
 * allocation) saves each of them at its save_offset and the epilogue restores
 * them.  The prologue sets up the frame base and sub's frame.size from sp; the
 * frame base itself is saved by the prologue's own push/stp, not in the save area.
 * If Code.frame_base is TMP_NONE or equals Code.stack_pointer, there is no frame
 * pointer: the same layout is used but slot offsets are made relative to sp after
 * the prologue (offset + frame.size, so all are >= callarg_size) and the
 * save_offsets likewise.
 *
 * ---- resolution and edge blocks ---------------------------------------------------
 * Moves needed on a control-flow edge go at the end of the predecessor (when it has
 * one successor), at the start of the successor (when it has one predecessor), or
 * in a new block appended at the end of Code.blocks (critical edges) that ends
 * with a Jump to the successor.  Block indices of existing blocks never change.
 * Moves inserted by the allocator are Move (GP, 64 bits), MoveDouble (FP), Swap64
 * (GP cycles) and loads/stores of spill slots with those opcodes; their origin is
 * NO_GATE.  Self-moves left by coalescing are removed (Move, MoveDouble,
 * MoveFloat; never Move32, which zero-extends).
 */
#ifndef CIRC_REGALLOC_H
#define CIRC_REGALLOC_H

#include "lir.h"

/* ---- options ------------------------------------------------------------------- */
typedef enum {
    RA_SPILL_FURTHEST_USE,   /* spill the interval whose next use is furthest (default) */
    RA_SPILL_CURRENT,        /* on conflict, spill the interval being allocated first */
    RA_SPILL_LOWEST_DENSITY, /* spill the interval with the fewest uses per length */
    RA_SPILL_COUNT
} RegallocSpill;

/* zero-initialized options are the defaults */
typedef struct RegallocOptions {
    /* at most this many allocatable registers per bank (the first ones of the
     * target's allocation order), or as many as the instruction naming the most
     * virtual tmps of the bank names, if more; 0 = all of them.  Physical registers
     * written in the code are honoured whatever the limit. */
    uint8_t max_regs[BANK_COUNT];
    uint8_t spill;             /* RegallocSpill */
    bool no_coalesce;          /* no move hints (self-moves are still removed) */
    bool no_share_slots;       /* one spill slot per spilled tmp, never shared */
    bool no_fold;              /* never fold a spilled operand into the instruction */
    /* lir_allocate_local only (the other knobs are linear scan's): every value lives
     * in its slot, stored right after each def, and every use a form can take from
     * the slot is read from there even if a register still holds it, so memory
     * operands become the rule */
    bool slot_operands;
    /* linear scan's memory: once the intervals are built, an operand store of this
     * many bytes or more (12 a tmp operand) is given back, and each instruction's
     * operands are made again to rewrite it; 0 = RA_COMPACT_BYTES.  The allocation
     * is the same either way: below the size the time goes to speed, from it on to
     * memory. */
    uint32_t compact_bytes;
} RegallocOptions;

#define RA_COMPACT_BYTES (32u << 20)

/* allocate registers and stack of one Code in place (the single entry point):
 * liveness, linear scan, resolution, rewriting, stack layout, then lir_verify and
 * the form check.  opt may be NULL (defaults).  false with a message in err (if
 * not NULL) when the code cannot be allocated; the Code is then unusable. */
bool lir_allocate(Code *code, const RegallocOptions *opt, char *err, size_t errlen);

typedef struct LirLiveness LirLiveness;
/* lir_allocate inside a compiler whose next step encodes the code: the encoder looks
 * up every instruction's form and refuses one without, so only the shape of the
 * input and of the result is verified here.  live: the code's liveness as it stands
 * (lir_liveness, in an arena outliving the call), or NULL to compute it; the call
 * gives its operands and sets back to that arena as it is done with them (the
 * liveness may only be freed after). */
bool lir_allocate_compiled(Code *code, const RegallocOptions *opt, LirLiveness *live, char *err, size_t errlen);

/* the local allocator (fastalloc.c; `circ compile --regalloc=local`, the
 * TARGET-O0-local check stages): no liveness of virtual tmps, no intervals, time
 * linear in the instructions (a JIT baseline's kind of allocator, like LLVM's "fast"
 * one).  Instructions selection left unread (pure, lir.h, with no reader of their
 * defs) are removed first.  Every virtual tmp gets an 8-byte stack slot of its
 * own; each instruction takes a use or a full 64-bit def straight from its slot
 * where the target's form accepts a Stack argument, and otherwise a register of its
 * own, loaded from the slot right before the instruction (uses; not when the
 * register still holds the tmp from an instruction before in the block) and stored
 * to it right after (defs).  A tmp read only in the block it is first written in,
 * after that write, is not stored: its register keeps it until its last read, and
 * it goes to its slot only if the register is wanted before (another tmp, a call's
 * clobbers, a physical register the code names).  The registers come from the allocation order, leaving
 * out the physical registers live across the instruction or named by it (a call's
 * clobbers included; a fixed-point dataflow over the blocks of one bit set per bank
 * gives them).  Then the stack allocator, as lir_allocate.  opt (may be NULL): only
 * slot_operands counts.  false with a message in err if an instruction names more
 * tmps than there are registers left. */
bool lir_allocate_local(Code *code, const RegallocOptions *opt, char *err, size_t errlen);

/* remove the instructions selection left whose results nobody reads (no effect,
 * every def a virtual tmp dead after it; dead.c): first those whose defs no other
 * instruction reads (a count of readers, one backward walk: whole chains), then in
 * up to four rounds of the liveness; the liveness of the code that is left (in arena; after a round that removed
 * something, made again for the blocks it changed), NULL if an instruction has no
 * overload.  Meant to run right before lir_allocate_compiled, which takes it. */
LirLiveness *lir_remove_dead(Arena *arena, Code *code);

/* the two halves, for tests and tools: registers (leaves spill slots unassigned)
 * and then the stack (assigns every slot's offset and Code.frame) */
bool lir_allocate_registers(Code *code, const RegallocOptions *opt, char *err, size_t errlen);
bool lir_allocate_stack(Code *code, char *err, size_t errlen);

/* the registers of bank b the allocator may hand out for code under opt, in
 * allocation order; returns their number */
unsigned lir_alloc_order(const Code *code, const RegallocOptions *opt, Bank b, uint8_t *regs);

/* ---- liveness ------------------------------------------------------------------ */
/* Every tmp (virtual or physical) has a dense index: physical register r of bank b
 * is b * LIR_MAX_REGS + r; virtual GP tmp i is 2 * LIR_MAX_REGS + i; virtual FP tmp
 * i follows the GP ones. */
uint32_t lir_tmp_index(const Code *code, Tmp t);
Tmp lir_tmp_of_index(const Code *code, uint32_t index);
uint32_t lir_tmp_count(const Code *code);

/* live-in/live-out sets of every block (backward dataflow over roles at early and
 * late points; call clobbers kill), kept sparse: time and memory linear in the
 * operands and the sets' sizes (the live-in sets are kept; a live-out set is the
 * union of the successors'); memory from arena; NULL if an instruction has no
 * overload */
LirLiveness *lir_liveness(Arena *arena, Code *code);
/* the same, NULL also if the live-in sets would hold more than max_pairs (tmp,
 * block) pairs; lir_liveness allows LIR_LIVE_PAIRS_MAX (the sets are indexed by 32
 * bits: a function whose live sets are larger is refused, not compiled) */
#define LIR_LIVE_PAIRS_MAX_TEXT "4294967294"
#define LIR_LIVE_PAIRS_MAX 4294967294u
LirLiveness *lir_liveness_within(Arena *arena, Code *code, uint64_t max_pairs);
/* why a liveness is NULL, for messages */
#define LIR_NO_LIVENESS "no liveness: an instruction has no overload, or the live sets would hold more than " \
                        LIR_LIVE_PAIRS_MAX_TEXT " (tmp, block) pairs"

/* l made again for its code after instructions were removed from or changed in the
 * blocks marked in changed[block] (the same sets as a new lir_liveness; blocks and
 * tmps must be as they were; only the tmps whose gen or kill blocks changed are
 * walked again, changed NULL walks all); false if they are not, an instruction has
 * no overload, or the sets are over the pairs l allows */
bool lir_liveness_refresh(LirLiveness *l, const bool *changed);
bool lir_live_in(const LirLiveness *l, uint32_t block, Tmp t);
bool lir_live_out(const LirLiveness *l, uint32_t block, Tmp t);
/* the same sets as lists of dense indices, ascending: the number of tmps live into
 * (out of) block, *tmps set to them (valid while l is not refreshed; a live-out
 * list only until the next lir_live_out_list: it is the union of the successors'
 * live-in lists, merged in a buffer of l when there are several) */
uint32_t lir_live_in_list(const LirLiveness *l, uint32_t block, const uint32_t **tmps);
uint32_t lir_live_out_list(LirLiveness *l, uint32_t block, const uint32_t **tmps);

#endif
