/* runtime.h — the runtime functions circ provides to `extern` declarations
 * (compiler/ir/runtime.def; exact semantics in docs/runtime.md), written once for
 * every executor: the executor supplies memory, calls back into the module and the
 * throw through an RtHost.
 *
 * A call runs in order: it reads what it reads, then writes, then calls back, each
 * through the host; a host function returning false ends the call at once (the run
 * has ended: invalid access, a throw, a trap, a timeout), and rt_call returns false. */
#ifndef CIRC_ORACLE_RUNTIME_H
#define CIRC_ORACLE_RUNTIME_H

#include "compiler/ir/ir.h"
#include "oracle/mem.h"
#include "runtime/circ_rt_core.h"

typedef struct {
    void *ctx;
    /* n bytes (n <= 64) at argument `arg` plus off: copied into buf, or from it */
    bool (*read)(void *ctx, uint32_t arg, uint64_t off, uint8_t *buf, uint32_t n);
    bool (*write)(void *ctx, uint32_t arg, uint64_t off, const uint8_t *buf, uint32_t n);
    /* call the module function (i64) -> i64 whose address is argument `arg` with x */
    bool (*call)(void *ctx, uint32_t arg, uint64_t x, uint64_t *ret);
    /* the runtime throws bits (an i64): the one place a throw from the runtime
     * leaves it; for now it ends the run like an uncaught THROW.  Returns false. */
    bool (*raise)(void *ctx, uint64_t bits);
} RtHost;

/* does a CALL's signature (argument types, result) match runtime function fn's? */
bool rt_call_matches(RuntimeFn fn, const Type *args, uint32_t nargs, Type ret);

/* The interpreters' side of a runtime call: memory through mem as the call's effect
 * instance inst (bounds, provenance and races checked), the callback's callee checked
 * to be a function (i64) -> i64 of the module; the interpreter supplies the rest. */
typedef struct {
    Mem *mem;
    const Module *m;
    Val args[3];
    uint32_t inst;
    void *ctx;
    bool (*invalid)(void *ctx, const char *why);                  /* ends the run: false */
    bool (*run)(void *ctx, uint32_t func, uint64_t x, uint64_t *ret); /* func(x) as inst */
    bool (*thrown)(void *ctx, uint64_t bits);                    /* ends the run: false */
} RtInterp;
bool rt_interp_call(RuntimeFn fn, RtInterp *ri, uint64_t *ret);

/* run runtime function fn on args (its parameters' bits); *ret: its result */
bool rt_call(RuntimeFn fn, const uint64_t *args, const RtHost *host, uint64_t *ret);

/* the pure mixing function rt_mix64 (a splitmix64 finalizer) */
uint64_t rt_mix64(uint64_t x);

/* the bytes rt_scramble touches: p[0 .. n & RT_SCRAMBLE_MASK) */
#define RT_SCRAMBLE_MASK CIRC_RT_SCRAMBLE_MASK

#endif
