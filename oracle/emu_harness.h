/* emu_harness.h — the state the Unicorn runner (emu.c) puts around a call so that
 * nothing hides a bug, and the checks after it (emu.h describes the contract).
 * Every run draws its patterns from a seed that the call itself determines (the
 * function, the argument types and bits: a run line), so a finding replays exactly.
 * A pattern word never has a zero byte.  Nothing outside oracle/emu*.c uses this
 * header. */
#ifndef CIRC_EMU_HARNESS_H
#define CIRC_EMU_HARNESS_H

#include "oracle/emu_isa.h"

enum { HARNESS_BLOCK_WORDS = 64 }; /* the stack pattern repeats every 512 bytes */

typedef struct {
    uint64_t seed;                       /* this run's seed */
    uint64_t block[HARNESS_BLOCK_WORDS]; /* word k fills the stack at addresses 8k mod 512 */
} Harness;

/* the seed of a call: a hash of the function index and each argument's type and bits
 * (masked to the type's width), never zero */
uint64_t harness_seed(uint32_t func, const Type *types, uint32_t n, const uint64_t *args);
/* the run's patterns for that seed */
void harness_begin(Harness *h, uint64_t seed);
/* the pattern word for a key (a Unicorn register id, or an id of the runner's own):
 * no byte of it is zero */
uint64_t harness_word(const Harness *h, uint64_t key);
/* the high 64 bits of vector register `reg`'s pattern (key disjoint from every id) */
uint64_t harness_word_high(const Harness *h, int reg);
/* guest memory [addr, addr + n) backed by mem gets the stack pattern; addr and n are
 * multiples of 8 */
void harness_fill(const Harness *h, uint8_t *mem, uint64_t addr, size_t n);
/* the first 8-byte word of [addr, addr + n) (backed by mem, both multiples of 8)
 * that no longer holds the stack pattern: true and its address in *where, with the
 * bytes found and expected */
bool harness_stack_changed(const Harness *h, const uint8_t *mem, uint64_t addr, size_t n,
                           uint64_t *where, uint64_t *found, uint64_t *expected);
/* the flags register's value at entry: pattern bits where the ISA allows them */
uint64_t harness_flags(const Harness *h, const EmuIsa *d);

#endif
