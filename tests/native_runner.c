/* native_runner.c — the native stage's processes (fuzz/native_run.h) on hand-written
 * machine code of the host's ISA:
 *   - one runner survives nothing it should not: a job with a return, a listed trap,
 *     a loop (killed at the deadline: a timeout) leaves the earlier calls' outcomes,
 *     and the next job runs in a fresh runner with correct outcomes (the harness
 *     buffer written as the code wrote it); a system call is killed by seccomp
 *     (SIGSYS) and the next job is right again;
 *   - a runner keeps running jobs (not fresh) and is replaced after
 *     NATIVE_RUNNER_JOBS of them;
 *   - state a job leaves in a used runner (a word below the stack pointer) is seen
 *     by the next job there, but not by a job run fresh, nor after
 *     native_zygote_taint: what the stage relies on to confirm a disagreement in a
 *     fresh runner;
 *   - without a fork server, a child per job gives the same outcomes.
 * Where no seccomp filter can be installed (qemu-user: docs/hosts.md) the system
 * call checks are left out.  Exit 77 where there is no native stage (another
 * host, a sanitized build). */
#include "fuzz/native_run.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#ifdef NATIVE_ISA
enum { F_RET42, F_TRAP, F_LOOP, F_SYSCALL, F_HEAP, F_STASH, F_PEEK, NFUNCS, SNIPPET = 64 };

typedef struct {
    uint8_t bytes[24];
    uint32_t len;
} Snippet;

#if defined(__x86_64__)
static const uint64_t STASHED = 0x5eed5eed5eed5eedull;
static const Snippet code[NFUNCS] = {
    [F_RET42] = {{0xb8, 42, 0, 0, 0, 0xc3}, 6},                     /* mov eax, 42; ret */
    [F_TRAP] = {{0x0f, 0x0b}, 2},                                   /* ud2 */
    [F_LOOP] = {{0xeb, 0xfe}, 2},                                   /* jmp . */
    [F_SYSCALL] = {{0xb8, 39, 0, 0, 0, 0x0f, 0x05, 0xc3}, 8},       /* getpid */
    [F_HEAP] = {{0xc6, 0x07, 0x5a, 0xb8, 7, 0, 0, 0, 0xc3}, 9},     /* [rdi] = 0x5a; 7 */
    [F_STASH] = {{0x48, 0xb8, 0xed, 0x5e, 0xed, 0x5e, 0xed, 0x5e, 0xed, 0x5e, /* rax = STASHED */
                  0x48, 0x89, 0x84, 0x24, 0x00, 0xfe, 0xff, 0xff, 0xc3}, 19}, /* [rsp-512] = rax */
    [F_PEEK] = {{0x48, 0x8b, 0x84, 0x24, 0x00, 0xfe, 0xff, 0xff, 0xc3}, 9}, /* rax = [rsp-512] */
};
#else
static const uint64_t STASHED = 0x5eed5eedull;
#define A64(w) (uint8_t)(w), (uint8_t)((w) >> 8), (uint8_t)((w) >> 16), (uint8_t)((w) >> 24)
static const Snippet code[NFUNCS] = {
    [F_RET42] = {{A64(0xd2800540), A64(0xd65f03c0)}, 8},
    [F_TRAP] = {{A64(0x00000000)}, 4},
    [F_LOOP] = {{A64(0x14000000)}, 4},
    [F_SYSCALL] = {{A64(0xd2801588), A64(0xd4000001), A64(0xd65f03c0)}, 12},
    [F_HEAP] = {{A64(0x52800b41), A64(0x39000001), A64(0xd28000e0), A64(0xd65f03c0)}, 16},
    [F_STASH] = {{A64(0xd28bdda1), A64(0xf2abdda1), A64(0xd10803e2), A64(0xf9000041), A64(0xd65f03c0)}, 20},
    [F_PEEK] = {{A64(0xd10803e2), A64(0xf9400040), A64(0xd65f03c0)}, 12},
};
#endif

typedef struct {
    int fails;
} T;

static void expect(T *t, bool ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        t->fails++;
    }
}

/* the snippets in the job's code area, the trap listed as overflow */
static void load_code(NativeJob *job)
{
    uint8_t *base = native_job_code(job);
    for (int i = 0; i < NFUNCS; i++)
        memcpy(base + i * SNIPPET, code[i].bytes, code[i].len);
    __builtin___clear_cache((char *)base, (char *)base + NFUNCS * SNIPPET);
    job->code_size = NFUNCS * SNIPPET;
    job->ntraps = 1;
    native_job_traps(job)[0] = (TrapSite){.offset = F_TRAP * SNIPPET, .kind = TRAP_OVERFLOW};
    job->threw_flag = false;
}

/* a job of the functions fs (each returning i64, the first argument the buffer) */
static void make_job(NativeJob *job, const int *fs, uint32_t n)
{
    memset(job->calls, 0, sizeof job->calls);
    memset(job->slots, 0, sizeof job->slots);
    job->reason[0] = 0;
    job->ncalls = n;
    for (uint32_t i = 0; i < n; i++) {
        job->calls[i].entry = (uint64_t)(uintptr_t)native_job_code(job) + (uint64_t)fs[i] * SNIPPET;
        job->calls[i].ret = TY_I64;
        job->calls[i].args.gp[0] = HEAP_ADDR;
    }
}

static NativeEnd run(NativeZygote *z, NativeJob *job, const int *fs, uint32_t n, bool fresh)
{
    make_job(job, fs, n);
    return native_job_run(z, job, fresh);
}

static bool returned(const NativeJob *job, uint32_t i, uint64_t bits)
{
    const NativeSlot *s = &job->slots[i];
    return s->started && s->done && s->kind == OUT_RETURN && s->bits == bits;
}

static bool signaled(const NativeEnd *e, int sig)
{
    return e->status > 0 && WIFSIGNALED(e->status) && WTERMSIG(e->status) == sig;
}

/* a trap, then a loop: the outcomes before it stay, the runner is killed */
static void check_trap_and_timeout(T *t, NativeZygote *z, NativeJob *job)
{
    NativeEnd e = run(z, job, (const int[]){F_RET42, F_TRAP, F_LOOP, F_RET42}, 4, false);
    expect(t, e.fresh, "the first job runs in a fresh runner");
    expect(t, returned(job, 0, 42), "a return before a trap and a loop");
    const NativeSlot *trap = &job->slots[1];
    expect(t, trap->done && trap->kind == OUT_TRAP && trap->trap == TRAP_OVERFLOW, "the trap with its listed kind");
    expect(t, job->slots[2].started && !job->slots[2].done, "the loop started and did not end");
    expect(t, !job->slots[3].started, "the call after the loop did not start");
    expect(t, e.timed_out, "the loop is a timeout");
    uint8_t pattern[HEAP_SIZE];
    heap_fill_pattern(pattern);
    e = run(z, job, (const int[]){F_RET42, F_HEAP}, 2, false);
    expect(t, e.fresh && e.status == 0 && !e.timed_out, "after a timeout, a fresh runner finishes the job");
    expect(t, returned(job, 0, 42) && returned(job, 1, 7), "outcomes after a timeout");
    pattern[0] = 0x5a;
    expect(t, !memcmp(job->slots[1].heap, pattern, HEAP_SIZE), "the harness buffer as the code left it");
    heap_fill_pattern(pattern);
    expect(t, !memcmp(job->slots[0].heap, pattern, HEAP_SIZE), "the harness buffer refilled per call");
}

/* a system call: seccomp kills the runner; the next job is right */
static void check_syscall(T *t, NativeZygote *z, NativeJob *job)
{
    NativeEnd e = run(z, job, (const int[]){F_RET42, F_SYSCALL, F_RET42}, 3, false);
    expect(t, returned(job, 0, 42), "a return before a system call");
    expect(t, job->slots[1].started && !job->slots[1].done && !job->slots[2].started, "the system call ends the job");
    expect(t, signaled(&e, SIGSYS) && !e.timed_out, "the system call is killed by seccomp (SIGSYS)");
    e = run(z, job, (const int[]){F_TRAP, F_RET42}, 2, false);
    expect(t, e.fresh && returned(job, 1, 42) && job->slots[0].kind == OUT_TRAP, "after a seccomp kill, a fresh runner");
}

/* the runner is kept, then replaced after NATIVE_RUNNER_JOBS jobs */
static void check_recycling(T *t, NativeZygote *z, NativeJob *job)
{
    uint32_t fresh = 0, wrong = 0;
    for (int i = 0; i < NATIVE_RUNNER_JOBS + 8; i++) {
        NativeEnd e = run(z, job, (const int[]){F_RET42}, 1, false);
        fresh += e.fresh;
        wrong += !returned(job, 0, 42);
    }
    expect(t, wrong == 0, "every job of a long-lived runner returns 42");
    expect(t, fresh == 1, "a runner is replaced once in NATIVE_RUNNER_JOBS + 8 jobs after a fresh one");
}

/* state left by one job: seen in the same runner, not in a fresh one */
static void check_isolation(T *t, NativeZygote *z, NativeJob *job)
{
    run(z, job, (const int[]){F_RET42}, 1, true);
    run(z, job, (const int[]){F_STASH}, 1, false);
    NativeEnd e = run(z, job, (const int[]){F_PEEK}, 1, false);
    expect(t, !e.fresh && returned(job, 0, STASHED), "a used runner shows what an earlier job left");
    e = run(z, job, (const int[]){F_PEEK}, 1, true);
    expect(t, e.fresh && !returned(job, 0, STASHED), "a fresh runner does not");
    run(z, job, (const int[]){F_STASH}, 1, false);
    native_zygote_taint(z);
    e = run(z, job, (const int[]){F_PEEK}, 1, false);
    expect(t, e.fresh && !returned(job, 0, STASHED), "after native_zygote_taint the next job runs fresh");
}

/* no fork server: a child per job */
static void check_fork_per_job(T *t, bool seccomp)
{
    NativeJob *job = native_job_new();
    if (!job) {
        expect(t, false, "a region of its own");
        return;
    }
    load_code(job);
    NativeEnd e = run(NULL, job, (const int[]){F_RET42, F_TRAP, F_HEAP, F_SYSCALL}, seccomp ? 4 : 3, false);
    expect(t, e.fresh && returned(job, 0, 42) && job->slots[1].trap == TRAP_OVERFLOW && returned(job, 2, 7),
           "a child per job: return, trap, buffer");
    expect(t, !seccomp || signaled(&e, SIGSYS), "a child per job: a system call is killed by seccomp");
    native_job_free(job);
}

int main(void)
{
    T t = {0};
    bool seccomp = native_seccomp_probe();
    if (!seccomp)
        printf("no seccomp here: the system call checks are left out\n");
    NativeZygote *z = native_zygote_new();
    if (!z) {
        printf("FAIL: no fork server\n");
        return 1;
    }
    NativeJob *job = native_zygote_job(z);
    load_code(job);
    check_trap_and_timeout(&t, z, job);
    if (seccomp)
        check_syscall(&t, z, job);
    check_recycling(&t, z, job);
    check_isolation(&t, z, job);
    native_zygote_free(z);
    check_fork_per_job(&t, seccomp);
    printf("%s\n", t.fails ? "native runner: FAILED" : "native runner: ok");
    return t.fails != 0;
}
#else
int main(void)
{
    printf("skipped: no native stage in this build or on this host\n");
    return 77;
}
#endif
