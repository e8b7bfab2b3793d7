/* trust_state.h — the register state the emulator trust tests compare (general
 * registers, vector registers, status flags) and the batch records the ARM64 test
 * exchanges with its driver under qemu-aarch64 (trust_a64_driver.c).  Plain C11 with
 * no project header, so that the driver cross-compiles on its own.  The layout is
 * fixed: the drivers' assembly addresses its fields by offset (TRUST_OFF_*). */
#ifndef CIRC_TRUST_STATE_H
#define CIRC_TRUST_STATE_H

#include <stdint.h>

typedef struct {
    uint64_t gp[32];      /* x86-64: rax..r15 (16); ARM64: x0..x30, [31] unused (sp) */
    uint64_t vec[32][2];  /* xmm0..15 or v0..31: low, high 64 bits */
    uint64_t flags;       /* x86-64: RFLAGS; ARM64: NZCV in bits 31..28 */
    uint64_t pad;
} TrustState;

#define TRUST_OFF_VEC 256
#define TRUST_OFF_FLAGS 768
_Static_assert(__builtin_offsetof(TrustState, vec) == TRUST_OFF_VEC, "vector offset");
_Static_assert(__builtin_offsetof(TrustState, flags) == TRUST_OFF_FLAGS, "flags offset");

enum { TRUST_CODE_MAX = 48 };   /* bytes of one encoded instruction, at most */

/* one case for the driver: the instruction's bytes and the state it starts from */
typedef struct {
    uint32_t len;
    uint8_t code[TRUST_CODE_MAX];
    uint32_t pad;
    TrustState in;
} TrustCase;

/* the driver's answer: ok 1 with the state after the instruction, 0 if it faulted */
typedef struct {
    uint64_t ok;
    TrustState out;
} TrustResult;

#endif
