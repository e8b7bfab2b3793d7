/* native_run.h — machine code run on the host's CPU for the native stage
 * (check_native.c): the job region shared with the processes that run it, the
 * persistent runner that runs one job after another, the fork server that keeps it,
 * and the fork-per-job path of a check without a fork server.
 *
 * Contract: the check fills a job (its calls, the code and trap table in the
 * region's code area) and runs it with native_job_run; when that returns, every
 * call's slot says whether the call started and, if it ended, its outcome and the
 * harness buffer after it.  A call that does not end (a timeout, a system call, a
 * signal the runner cannot map) leaves its slot and the later ones not done; how the
 * process ended is in the NativeEnd.  The code must not be changed while a job runs
 * (native_job_run does not return before its process is idle or dead). */
#ifndef CIRC_NATIVE_RUN_H
#define CIRC_NATIVE_RUN_H

#include "compiler/blob.h"
#include "fuzz/check_stage.h"
#include "oracle/outcome.h"

/* A sanitized build has no native stage: its runtime intercepts signals, longjmp
 * and calls that do not return, and makes system calls there (sigaltstack,
 * /proc/self/maps) that the runner's seccomp filter forbids. */
#if defined(__SANITIZE_ADDRESS__)
#define NATIVE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define NATIVE_SANITIZED 1
#endif
#endif

#if defined(NATIVE_SANITIZED)
#elif defined(__x86_64__)
#define NATIVE_ISA ISA_X64
enum { NATIVE_GP_ARGS = 6 };
#elif defined(__aarch64__)
#define NATIVE_ISA ISA_A64
enum { NATIVE_GP_ARGS = 8 };
#endif

#ifdef NATIVE_ISA
enum {
    NATIVE_FP_ARGS = 8,
    NATIVE_STACK_ARGS = 16,   /* calls with more arguments in memory are not run */
    NATIVE_ALARM_S = 5,       /* wall clock before a job's calls are a timeout */
    NATIVE_RUNNER_JOBS = 256, /* jobs a runner runs before a fresh one replaces it */
    JOB_MAX_CALLS = 64,       /* calls per job */
    REGION_CODE_MAX = 8 << 20,/* code and trap table of one module */
};

/* what the runner reports for one call */
typedef struct {
    uint8_t started, done;  /* the runner began the call; it wrote the outcome */
    uint8_t kind, trap;     /* OutcomeKind, TrapKind */
    uint8_t type;           /* a thrown value's Type */
    uint64_t bits;
    uint8_t heap[HEAP_SIZE];
} NativeSlot;

/* a call's arguments sorted into registers and memory */
typedef struct {
    uint64_t gp[NATIVE_GP_ARGS];
    uint64_t fp[NATIVE_FP_ARGS];  /* bits */
    uint64_t mem[NATIVE_STACK_ARGS];
} NativeArgs;

/* one call of a job: the function's address, its result type, its arguments */
typedef struct {
    uint64_t entry;
    uint8_t ret;            /* Type */
    uint32_t run;           /* the run line */
    NativeArgs args;
} NativeCall;

/* the region a job runs from, shared by the check, the fork server and the runner:
 * the job, then (page-aligned, native_job_code) the code and after it the trap table */
typedef struct {
    char reason[120];       /* why a runner could not set itself up */
    uint64_t code_size;     /* bytes of code at native_job_code() */
    uint32_t ntraps, ncalls;
    bool threw_flag;        /* the code returns the threw flag (docs/architecture.md) */
    NativeCall calls[JOB_MAX_CALLS];
    NativeSlot slots[JOB_MAX_CALLS];
} NativeJob;

/* how the process that ran a job ended it */
typedef struct {
    int status;             /* wait status of a process that died or was killed, 0 if
                               it finished the job; -1: no process could run it */
    bool timed_out;         /* killed after NATIVE_ALARM_S (or its alarm, SIGXCPU) */
    bool fresh;             /* run by a process that ran no job before */
} NativeEnd;

/* a region of its own (for a check without a fork server), NULL if it cannot be
 * mapped; the fork server's is native_zygote_job */
NativeJob *native_job_new(void);
void native_job_free(NativeJob *job);
uint8_t *native_job_code(NativeJob *job);
TrapSite *native_job_traps(NativeJob *job);
NativeJob *native_zygote_job(NativeZygote *z);

/* run job's calls: by z's runner (a fresh one when `fresh`, when the last job's
 * outcome was marked with native_zygote_taint, when the last runner died or has run
 * NATIVE_RUNNER_JOBS jobs) or, z NULL or gone, by a child forked here; job must be
 * z's region when z is given */
NativeEnd native_job_run(NativeZygote *z, NativeJob *job, bool fresh);
/* the runner that ran the last job is not used again (its job disagreed) */
void native_zygote_taint(NativeZygote *z);
/* the host's addresses of the runtime functions an object calls (an ElfResolveFn;
 * ctx points to the job's threw_flag byte: flagged code gets circ_rt_check_flagged) */
bool native_resolve_host(void *ctx, const char *name, uint64_t *addr);
/* can a process install a seccomp filter here (false: rlimits stand in) */
bool native_seccomp_probe(void);
#endif

#endif
