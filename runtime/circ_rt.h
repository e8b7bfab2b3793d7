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
/* Each returns a pair, the result and the threw flag, in the result registers
 * circ's code reads them from (x86-64 rax:rdx, ARM64 x0:x1): code compiled with the
 * threw flag tests it after every call; code without reads the first alone. */
typedef struct {
    uint64_t bits, flag;
} CircRtPair;
CircRtPair circ_rt_mix64(uint64_t x);
CircRtPair circ_rt_scramble(uint64_t p, uint64_t n, uint64_t seed); /* p[0 .. n & 63) */
/* x, or throws x if x >u limit: as a flag when the program links code compiled with
 * the threw flag (its weak symbol circ_threw_flag, circ_abi.h), else by circ_rt_throw */
CircRtPair circ_rt_check(uint64_t x, uint64_t limit);
/* whether the program links code compiled with the threw flag */
bool circ_rt_linked_threw_flag(void);
/* the same, always by the flag: for a loader of code compiled with it */
CircRtPair circ_rt_check_flagged(uint64_t x, uint64_t limit);
/* f(x), with f's flag when f returns one */
CircRtPair circ_rt_apply(uint64_t f, uint64_t x);

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
/* ends the circ_rt_call in progress with the trap kind (CIRC_ABI_TRAP_*), as a
 * trapping instruction would; outside one, the process exits with status 3 */
_Noreturn void circ_rt_trap_now(unsigned kind);

/* ---- calls by register file (circ_rt_regcall.c) ---- */
enum { CIRC_RT_REGCALL_GP = 8, CIRC_RT_REGCALL_FP = 8, CIRC_RT_REGCALL_MEM = 256 };
/* a call as the host ABI makes it: the integer argument registers (x86-64 rdi rsi
 * rdx rcx r8 r9 from gp[0..5]; AArch64 x0-x7), the float ones (xmm0-7 / d0-d7: the
 * low bits of fp[i]), nmem stack words; after the call the result registers
 * (rax/x0, xmm0/d0, and rdx/x1, where circ's code returns the threw flag) */
typedef struct {
    uint64_t entry, nmem;
    uint64_t ret_gp, ret_fp, ret_flag;
    uint64_t gp[CIRC_RT_REGCALL_GP], fp[CIRC_RT_REGCALL_FP], mem[CIRC_RT_REGCALL_MEM];
} CircRtRegs;
void circ_rt_regcall(CircRtRegs *r);
/* the host ABI's sorting of n arguments of circ Types types (bits in a) into r's
 * argument registers and stack words; false if more than CIRC_RT_REGCALL_MEM words */
bool circ_rt_regs_sort(CircRtRegs *r, const uint8_t *types, uint32_t n, const uint64_t *a);
/* after circ_rt_regcall of code compiled with the threw flag: a set flag ends the
 * circ_rt_call in progress with its throw (or, naming no type, the trap illegal) */
void circ_rt_regs_rethrow(const CircRtRegs *r);
/* the mask of a circ Type's bits (0 for void) */
uint64_t circ_rt_type_mask(uint32_t type);
/* a module header's caller of a function of a module that may throw: entry with
 * the n arguments a of types, by register file; the result's bits (type ret), or,
 * when the program links code compiled with the threw flag, the throw the flag
 * says (circ_rt_regs_rethrow) */
uint64_t circ_rt_call_flagged(uint64_t entry, const uint8_t *types, uint32_t n, uint32_t ret, const uint64_t *a);

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
