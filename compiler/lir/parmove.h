/* parmove.h — sequentializing a parallel copy between registers and stack slots
 * (parmove.c): the moves, the scratch locations a cycle may use, and the steps
 * that perform them one machine move at a time.  Register allocation's resolution
 * (resolve.c) uses it on block edges; it needs nothing of the allocator. */
#ifndef CIRC_LIR_PARMOVE_H
#define CIRC_LIR_PARMOVE_H

#include "compiler/lir/lir.h"

/* a location: a register of a bank, or a stack slot (value bits, one 8-byte slot) */
typedef struct {
    uint8_t is_slot;
    uint8_t bank;     /* Bank (registers) */
    uint32_t index;   /* register number or slot index */
} LirLoc;

typedef struct {
    LirLoc src, dst;
} LirMove;

typedef enum { PM_MOVE, PM_SWAP } ParMoveOp;

typedef struct {
    uint8_t op;       /* ParMoveOp; PM_SWAP only between two GP registers */
    LirLoc a, b;      /* PM_MOVE: a -> b; PM_SWAP: exchange a and b */
} ParMoveStep;

typedef struct {
    /* a register of each bank free at this point, or -1 if none */
    int free_reg[BANK_COUNT];
    /* stack slots free at this point: [0] holds a cycle's value when no register
     * of its bank is free, [1] saves the borrowed register of a slot-to-slot move
     * when no GP register is free */
    uint32_t scratch_slot[2];
    /* the GP register borrowed then (saved and restored around the move); not
     * free_reg[BANK_GP] */
    unsigned borrow_gp;
} ParMoveScratch;

/* sequential steps performing the parallel copy of moves (every dst distinct; a
 * src may feed several dsts; moves with src == dst are dropped).  GP register
 * cycles use swaps; other cycles go through a free register of their bank or
 * scratch_slot[0]; a slot-to-slot move goes through a free GP register or through
 * borrow_gp saved in scratch_slot[1].  Steps are written to out (room for
 * LIR_PARMOVE_MAX_STEPS(n)); returns their number.  Each step is one machine
 * move: never slot to slot, never between banks.  Aborts if out of memory. */
#define LIR_PARMOVE_MAX_STEPS(n) (8 * (n) + 8)
uint32_t lir_parallel_moves(const LirMove *moves, uint32_t n, const ParMoveScratch *scratch,
                            ParMoveStep *out);

#endif
