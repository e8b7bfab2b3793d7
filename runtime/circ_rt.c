/* circ_rt.c — libcirc_rt's helpers (C fmod and pow with canonical NaNs) and the
 * harness buffer at its fixed address (circ_rt.h).  The exceptions issue's runtime
 * functions belong here, beside circ_rt_throw (circ_rt_call.c). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mmap flags, sigaction, sigsetjmp and the signal context under -std=c11 */
#endif
#include "circ_rt.h"

#include <math.h>
#include <sys/mman.h>

static float canon_f32(float f) { return f != f ? circ_rt_f32(0x7fc00000u) : f; }
static double canon_f64(double d) { return d != d ? circ_rt_f64(0x7ff8000000000000ull) : d; }

float circ_rt_fmod_f32(float a, float b) { return canon_f32(fmodf(a, b)); }
double circ_rt_fmod_f64(double a, double b) { return canon_f64(fmod(a, b)); }
float circ_rt_fexp_f32(float a, float b) { return canon_f32(powf(a, b)); }
double circ_rt_fexp_f64(double a, double b) { return canon_f64(pow(a, b)); }

uint8_t *circ_rt_heap(void)
{
    uint8_t *want = (uint8_t *)(uintptr_t)CIRC_ABI_HEAP_ADDR;
    /* mapped already (an earlier call): the page is ours */
    if (msync(want, CIRC_ABI_HEAP_SIZE, MS_ASYNC) == 0)
        return want;
    void *p = mmap(want, CIRC_ABI_HEAP_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (p != want) {
        munmap(p, CIRC_ABI_HEAP_SIZE);
        return NULL;
    }
    return want;
}

bool circ_rt_heap_reset(void)
{
    uint8_t *heap = circ_rt_heap();
    for (unsigned i = 0; heap && i < CIRC_ABI_HEAP_SIZE; i++)
        heap[i] = circ_abi_heap_byte(i);
    return heap != NULL;
}
