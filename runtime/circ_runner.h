/* circ_runner.h — the protocol between the check's qemu stage (fuzz/check_qemu.c)
 * and runtime/qemu_runner.c, a static AArch64 program run under qemu-aarch64: the
 * runner says where its code region and the runtime's helpers are, the check sends
 * a relocated image, its trap table and the calls, the runner answers with an
 * outcome and the harness buffer per call.  Both sides are little-endian LP64. */
#ifndef CIRC_RUNNER_H
#define CIRC_RUNNER_H

#include "circ_abi.h"

#define CIRC_RUNNER_MAGIC 0x3172656e6e757243ull /* "Crunner1" */
#define CIRC_RUNNER_BASE 0x40000000ull          /* the runner's code region */
#define CIRC_RUNNER_CODE_MAX (8u << 20)
enum { CIRC_RUNNER_HELPERS = 9, CIRC_RUNNER_GP = 8, CIRC_RUNNER_FP = 8, CIRC_RUNNER_MEM = 16,
       CIRC_RUNNER_MAX_CALLS = 64 };

typedef struct {
    uint64_t magic, base;
    uint64_t helpers[CIRC_RUNNER_HELPERS]; /* in circ_abi.h's order */
    uint64_t check_flagged;                /* circ_rt_check for code with the threw flag */
} CircRunnerHello;

typedef struct {
    uint64_t magic;
    uint32_t image_size, ntraps, ncalls, pad;
} CircRunnerJob;  /* followed by the image, ntraps CircRunnerTrap, ncalls CircRunnerCall */

typedef struct {
    uint32_t offset, kind;
} CircRunnerTrap;

/* AAPCS64: the integer and float argument registers, then the arguments in memory */
typedef struct {
    uint64_t entry;
    uint32_t float_result, threw_flag; /* threw_flag: the object returns the flag */
    uint64_t gp[CIRC_RUNNER_GP], fp[CIRC_RUNNER_FP], mem[CIRC_RUNNER_MEM];
} CircRunnerCall;

typedef struct {
    uint32_t kind, trap;  /* CircRtKind, CIRC_ABI_TRAP_* */
    uint64_t bits;
    uint32_t type, pad;   /* a thrown value's circ Type */
    uint8_t heap[CIRC_ABI_HEAP_SIZE];
} CircRunnerResult;

#endif
