/* circ_rt_core.h — the semantics of the runtime functions that compute (docs/runtime.md),
 * written once in plain C for every executor: the interpreters (oracle/runtime.c, which
 * adds the memory checks and the callback) and libcirc_rt (circ_rt_fns.c, on real
 * memory).  Header-only, no other header of circ. */
#ifndef CIRC_RT_CORE_H
#define CIRC_RT_CORE_H

#include <stdint.h>

/* the bytes rt_scramble touches: p[0 .. n & CIRC_RT_SCRAMBLE_MASK) */
#define CIRC_RT_SCRAMBLE_MASK 63u

/* rt_mix64: the splitmix64 finalizer */
static inline uint64_t circ_rt_core_mix64(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* rt_scramble on the n bytes already read into buf (n <= 64): each is xored with the
 * low byte of rt_mix64(seed + i) in place; the result folds the old bytes
 * (acc = acc * 31 + byte, from 0) and adds the count */
static inline uint64_t circ_rt_core_scramble(uint8_t *buf, uint32_t n, uint64_t seed)
{
    uint64_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        acc = acc * 31 + buf[i];
        buf[i] ^= (uint8_t)circ_rt_core_mix64(seed + i);
    }
    return acc + n;
}

#endif
