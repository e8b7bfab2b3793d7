/* circ_abi.h — what circ's objects and libcirc_rt agree on, in plain C with no other
 * header of circ: the runtime symbols the code calls, the trap table every object
 * carries (section `circ_traps`), the trap kinds and the harness buffer's address.
 * The object writer (compiler/lir/objwrite.c), the ELF loader (oracle/elf_load.c) and
 * the runtime library (runtime/circ_rt.c) all read this one description. */
#ifndef CIRC_ABI_H
#define CIRC_ABI_H

#include <stdint.h>

/* the runtime helpers an object names as undefined symbols, in the order of the
 * compiler's Helper enum (compiler/blob.h): float remainder and power with C's
 * fmod/pow semantics and NaN canonicalized, and THROW (arg 0: the value's bits,
 * arg 1: its circ Type; never returns) */
#define CIRC_ABI_HELPER_SYMBOLS(X) \
    X(circ_rt_fmod_f32) X(circ_rt_fmod_f64) X(circ_rt_fexp_f32) X(circ_rt_fexp_f64) X(circ_rt_throw) \
    X(circ_rt_mix64) X(circ_rt_scramble) X(circ_rt_check) X(circ_rt_apply)
/* after circ_rt_throw: the runtime functions of docs/runtime.md, `extern @NAME` called
 * as the symbol circ_NAME, in the order of compiler/ir/runtime.def; further helpers are
 * added to this list and to the compiler's Helper enum in the same order */

/* an object whose functions return the threw flag (exceptions, docs/architecture.md:
 * x86-64 rdx, ARM64 x1; 0 returned, else it threw a value of circ Type flag - 1 whose
 * bits are in the result register) defines this weak absolute symbol, value 1 */
#define CIRC_ABI_THREW_FLAG_SYMBOL "circ_threw_flag"

/* circ's Type number of i64 (compiler/ir/ir.h), the type of a runtime function's throw */
#define CIRC_ABI_TYPE_I64 5u

/* trap kinds as in the compiler's TrapKind (compiler/ir/ir.h) */
enum {
    CIRC_ABI_TRAP_DIV0 = 1,     /* integer division or remainder by zero */
    CIRC_ABI_TRAP_OVERFLOW = 2, /* signed division of INT_MIN by -1 */
    CIRC_ABI_TRAP_FAULT = 3,    /* a memory fault */
    CIRC_ABI_TRAP_ILLEGAL = 4,  /* an instruction that should not have run */
};

/* One entry of an object's trap table: the section `circ_traps` (a C identifier, so
 * GNU ld and lld define __start_circ_traps / __stop_circ_traps around the entries of
 * every object linked).  `where` is PC-relative: the trapping instruction is at
 * (const char *)&entry->where + entry->where. */
typedef struct {
    int32_t where;
    uint8_t kind;       /* CIRC_ABI_TRAP_* */
    uint8_t pad[3];     /* zero */
} CircAbiTrap;
#define CIRC_ABI_TRAP_SECTION "circ_traps"

/* the harness buffer: 4 KiB at this address, byte i filled with
 * 0xa5 ^ 7i ^ (i >> 8) (low 8 bits) before every call (oracle/outcome.h) */
#define CIRC_ABI_HEAP_ADDR 0x10000000ull
#define CIRC_ABI_HEAP_SIZE 4096u
static inline uint8_t circ_abi_heap_byte(unsigned i) { return (uint8_t)(0xa5u ^ (i * 7u) ^ (i >> 8)); }

#endif
