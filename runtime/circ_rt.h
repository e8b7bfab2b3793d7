/* circ_rt.h — libcirc_rt, the runtime circ's objects link with (docs/objects.md):
 * the helpers compiled code calls (runtime/circ_abi.h names them), the harness
 * buffer at its fixed address, and calls that report a trap or a throw as an
 * outcome instead of ending the process.  Plain C11 plus POSIX signals; nothing
 * else of circ.  Exception support and the runtime functions of docs/runtime.md
 * join the helpers here (circ_rt.c) and their symbols circ_abi.h's list. */
#ifndef CIRC_RT_H
#define CIRC_RT_H

#include "circ_abi.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- the helpers compiled code calls (NaN results canonicalized) ---- */
float circ_rt_fmod_f32(float a, float b);
double circ_rt_fmod_f64(double a, double b);
float circ_rt_fexp_f32(float a, float b);
double circ_rt_fexp_f64(double a, double b);
/* THROW: ends the circ_rt_call in progress with a throw outcome (the value's bits
 * and circ Type); outside one, the process exits with status 3 */
_Noreturn void circ_rt_throw(uint64_t bits, uint32_t type);

/* ---- the runtime functions of docs/runtime.md (circ_rt_fns.c) ---- */
uint64_t circ_rt_mix64(uint64_t x);
uint64_t circ_rt_scramble(uint64_t p, uint64_t n, uint64_t seed); /* p[0 .. n & 63) */
uint64_t circ_rt_check(uint64_t x, uint64_t limit);              /* throws x if x >u limit */
uint64_t circ_rt_apply(uint64_t f, uint64_t x);                  /* f(x) */

/* ---- the harness buffer ---- */
/* the buffer at CIRC_ABI_HEAP_ADDR, mapped on first use; NULL if that address is
 * taken.  circ_rt_heap_reset fills it with the pattern (circ_abi.h). */
uint8_t *circ_rt_heap(void);
bool circ_rt_heap_reset(void);

/* ---- calls whose traps and throws are outcomes ---- */
typedef enum { CIRC_RT_RETURN, CIRC_RT_TRAP, CIRC_RT_THROW } CircRtKind;
typedef struct {
    CircRtKind kind;
    unsigned trap;          /* CIRC_ABI_TRAP_* of a trap */
    uint64_t bits;          /* returned (through the caller) or thrown bits */
    uint32_t type;          /* the thrown value's circ Type */
} CircRtOutcome;

/* a generated caller (circ compile --emit=header): arguments and result as bits */
typedef void (*CircRtCaller)(const uint64_t *args, uint64_t *ret);
typedef struct {
    const char *name;       /* the circ name */
    CircRtCaller call;
    uint32_t nparams;
    bool returns_void;
    uint64_t addr;          /* the function's address (what a run line's `@name` passes) */
} CircRtFunc;

/* call `call` with args; a trap (SIGFPE, SIGILL, SIGTRAP, SIGSEGV, SIGBUS in the
 * call, its kind from the trap tables of the objects linked) or a throw ends it and
 * is the outcome.  One call at a time per thread; false if the signal handlers
 * cannot be installed. */
bool circ_rt_call(CircRtCaller call, const uint64_t *args, CircRtOutcome *out);
/* the same with a trap table of code loaded by the caller (not linked): the
 * instruction at base + offsets[i] traps with kinds[i] */
typedef struct {
    const char *base;
    const uint32_t *offsets;
    const uint8_t *kinds;
    uint32_t n;
} CircRtTraps;
bool circ_rt_call_traps(CircRtCaller call, const uint64_t *args, const CircRtTraps *traps, CircRtOutcome *out);
/* "div0", "overflow", "fault", "illegal"; "?" for another kind */
const char *circ_rt_trap_name(unsigned kind);
/* the kind the trap tables give the instruction at pc, 0 if none lists it */
unsigned circ_rt_trap_at(const void *pc);

/* for a handler of its own (a runner's child process): the trap kind of signal sig
 * whose context is ucontext (a ucontext_t) at an instruction the caller's trap
 * table lists with kind `listed` (0: not listed): SIGSEGV/SIGBUS a fault, on x86-64
 * a listed faulting div div0 or overflow by its divisor, else the listed kind or
 * illegal; and the signal's instruction address */
unsigned circ_rt_signal_trap(int sig, const void *ucontext, unsigned listed);
const void *circ_rt_signal_pc(const void *ucontext);

/* ---- bits and values (for generated callers) ---- */
static inline float circ_rt_f32(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
static inline double circ_rt_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
static inline uint64_t circ_rt_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static inline uint64_t circ_rt_f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

#endif
