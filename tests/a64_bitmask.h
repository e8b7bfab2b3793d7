/* a64_bitmask.h — the reference decoder of AArch64 bitmask immediates (the Arm ARM's
 * DecodeBitMasks), shared by the a64 encoder tests and independent of the encoder. */
#ifndef CIRC_TESTS_A64_BITMASK_H
#define CIRC_TESTS_A64_BITMASK_H

#include <stdbool.h>
#include <stdint.h>

/* the value of N:immr:imms for a 32-bit (sf=0) or 64-bit operation; false if reserved */
bool a64_ref_decode_bitmask(int sf, unsigned n, unsigned immr, unsigned imms, uint64_t *value);

/* every encodable value, sorted ascending: 1302 (sf=0) or 5334 (sf=1); returns count */
int a64_ref_bitmask_values(int sf, uint64_t *out, int cap);
bool a64_ref_is_bitmask(const uint64_t *sorted, int count, uint64_t value);

/* the same set, by brute force over element sizes and rotations */
bool a64_ref_is_bitmask_value(int sf, uint64_t value);

#endif
