/* circ_rt_fns.c — the runtime functions of docs/runtime.md as libcirc_rt provides them
 * to linked objects (`extern @rt_NAME` is the symbol circ_rt_NAME), on real memory:
 * the semantics are circ_rt_core.h's, a throw goes through circ_rt_throw. */
#include "circ_rt.h"
#include "circ_rt_core.h"

uint64_t circ_rt_mix64(uint64_t x) { return circ_rt_core_mix64(x); }

uint64_t circ_rt_scramble(uint64_t p, uint64_t n, uint64_t seed)
{
    return circ_rt_core_scramble((uint8_t *)(uintptr_t)p, (uint32_t)(n & CIRC_RT_SCRAMBLE_MASK), seed);
}

uint64_t circ_rt_check(uint64_t x, uint64_t limit)
{
    if (x > limit)
        circ_rt_throw(x, CIRC_ABI_TYPE_I64);
    return x;
}

uint64_t circ_rt_apply(uint64_t f, uint64_t x) { return ((uint64_t(*)(uint64_t))(uintptr_t)f)(x); }
