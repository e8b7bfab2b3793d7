/* outcome.h — what one run of a function produces, in every oracle (interpreter,
 * scheduled-form interpreter, Unicorn on each ISA), and how outcomes compare.
 * The harness buffer ("heap") lives at one fixed address in every oracle. */
#ifndef CIRC_OUTCOME_H
#define CIRC_OUTCOME_H

#include "compiler/ir/ir.h"

#define HEAP_ADDR 0x10000000ull
#define HEAP_SIZE 4096u

typedef enum { OUT_RETURN, OUT_TRAP, OUT_THROW, OUT_TIMEOUT, OUT_INVALID } OutcomeKind;

typedef struct {
    uint8_t kind;    /* OutcomeKind */
    uint8_t trap;    /* TrapKind, for OUT_TRAP */
    uint8_t type;    /* Type of the returned or thrown value (TY_NONE for void) */
    uint64_t bits;   /* returned or thrown bits, masked to the type's width */
    uint64_t steps;  /* work done: gate evaluations and state transitions (interpreter), blocks run (emulator) */
    uint64_t alloca_bytes; /* interpreters: ALLOCA bytes the run allocated (0 from the emulator) */
    uint32_t caught; /* the reference interpreter: throws an INVOKE caught (0 elsewhere; not compared) */
    char reason[200];/* OUT_INVALID / OUT_TIMEOUT / OUT_TRAP details, human readable */
    uint8_t heap[HEAP_SIZE]; /* the harness buffer after the run */
} Outcome;

/* the fixed pattern the harness buffer holds before every run */
void heap_fill_pattern(uint8_t heap[HEAP_SIZE]);
/* the same pattern, read-only (HEAP_SIZE bytes) */
const uint8_t *heap_pattern(void);
/* a calling-convention violation the emulator harness found (OUT_TRAP, TRAP_ABI): true
 * and its label in buf, the word its reason starts with (oracle/emu.h: "abi-sp",
 * "abi-clobber-rbx", "stack-write", "abi-misaligned-call"); false for any other outcome */
bool outcome_abi_label(const Outcome *o, char *buf, size_t n);
/* "return 42", "return 2.5", "trap div0", "trap abi-clobber-x19", "throw -3",
 * "timeout", "invalid: ..." */
void outcome_format(char *buf, size_t n, const Outcome *o);
/* equal kind, trap kind, value bits (any NaN equals any NaN of the same type) and heap;
 * on a difference, a short description of it in why (may be NULL) */
bool outcome_equal(const Outcome *a, const Outcome *b, char *why, size_t n);
/* does the outcome meet a run line's expectation? */
bool outcome_matches(const Outcome *o, const RunExpect *e);
/* the argument bits a run line passes (heap -> HEAP_ADDR) */
void runline_args(const RunLine *r, uint64_t *args);
/* the same for machine code whose function i starts at code_base + entry[i]: a
 * function's address (`@name`) is its entry there */
void runline_args_at(const RunLine *r, uint64_t code_base, const uint32_t *entry, uint64_t *args);

#endif
