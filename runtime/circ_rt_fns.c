/* circ_rt_fns.c — the runtime functions of docs/runtime.md as libcirc_rt provides them
 * to linked objects (`extern @rt_NAME` is the symbol circ_rt_NAME), on real memory:
 * the semantics are circ_rt_core.h's, a throw goes through circ_rt_throw. */
#include "circ_rt.h"
#include "circ_rt_core.h"

CircRtPair circ_rt_mix64(uint64_t x) { return (CircRtPair){circ_rt_core_mix64(x), 0}; }

CircRtPair circ_rt_scramble(uint64_t p, uint64_t n, uint64_t seed)
{
    return (CircRtPair){circ_rt_core_scramble((uint8_t *)(uintptr_t)p, (uint32_t)(n & CIRC_RT_SCRAMBLE_MASK), seed), 0};
}

/* defined (value 1) by an object compiled with the threw flag */
extern const char circ_threw_flag[] __attribute__((weak));

bool circ_rt_linked_threw_flag(void) { return (uintptr_t)circ_threw_flag != 0; }

CircRtPair circ_rt_check_flagged(uint64_t x, uint64_t limit)
{
    return (CircRtPair){x, x > limit ? 1u + CIRC_ABI_TYPE_I64 : 0};
}

CircRtPair circ_rt_check(uint64_t x, uint64_t limit)
{
    if (x > limit && !circ_rt_linked_threw_flag()) /* the caller reads no flag */
        circ_rt_throw(x, CIRC_ABI_TYPE_I64);
    return circ_rt_check_flagged(x, limit);
}

CircRtPair circ_rt_apply(uint64_t f, uint64_t x) { return ((CircRtPair(*)(uint64_t))(uintptr_t)f)(x); }
