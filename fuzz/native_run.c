/* native_run.c — the native stage's processes (native_run.h): a persistent runner
 * kept by a fork server, and a child forked per job where there is no server.
 *
 * A CheckEngines forks the fork server (NativeZygote) while its process is still
 * small.  On the first job the server forks a runner that sets itself up once: the
 * shared region's code area mapped read+execute, the harness buffer at its fixed
 * address, a context page with the signal stack, handlers for SIGFPE/SIGILL/SIGTRAP/
 * SIGSEGV/SIGBUS that map the trapping instruction to its kind through the job's
 * trap table (libcirc_rt's circ_rt_signal_trap), rlimits, then a seccomp filter
 * that allows read and write on its one socket, rt_sigreturn, exit and exit_group,
 * and nothing else.  It then loops: wait for a job on the socket, make the code
 * visible to itself (AArch64: clear its view's caches), run each call into its slot
 * (harness buffer filled per call; a trap or a throw siglongjmps back to the loop
 * over calls; the handlers run with SA_NODEFER on the alternate stack and the jump
 * saves no mask, so the signal mask and the alternate stack are as before for the
 * next call and the next job), report, wait again.  The server hands the runner's
 * socket to the check (SCM_RIGHTS), which sends it jobs directly (two context
 * switches a job) and waits for the report with poll() and a deadline of
 * NATIVE_ALARM_S; on expiry (a timeout), or when the runner died (a system call
 * under seccomp, a signal it cannot handle), the check asks the server to kill and
 * reap it, and the next job gets a fresh runner.
 *
 * Isolation: a miscompiled program may scribble on the runner's memory (its stack,
 * its context page, the job), and the next program would run on what it left.  So a
 * runner is replaced after NATIVE_RUNNER_JOBS jobs and after any job whose outcome
 * differs from the oracle's (native_zygote_taint), and the stage re-runs a job that
 * disagreed in a fresh runner before it reports anything (check_native.c): a finding
 * never comes from state an earlier program left.
 *
 * Without a server (a check given no CheckEngines whose server could be made, or one
 * whose server died) the check forks a child per job itself: the same setup, an
 * alarm for the timeout, a filter that allows only exiting. */
#include "fuzz/native_run.h"

#ifdef NATIVE_ISA
#include "runtime/circ_rt.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

enum {
    CHILD_CTX_SIZE = 1 << 16,  /* the runner's context page and its signal stack */
    RUNNER_CPU_S = 60,         /* a runner's CPU limit over all its jobs (a backstop:
                                  the server's deadline ends a job first) */
};
/* where the runner keeps a pointer to its context: a page of its own (after fork) */
#define CHILD_CTX_ADDR (HEAP_ADDR + 0x100000ull)
#define JOB_BYTES ((sizeof(NativeJob) + 4095) / 4096 * 4096)
#define REGION_SIZE (JOB_BYTES + REGION_CODE_MAX)

uint8_t *native_job_code(NativeJob *job) { return (uint8_t *)job + JOB_BYTES; }
TrapSite *native_job_traps(NativeJob *job)
{
    return (TrapSite *)(native_job_code(job) + (job->code_size + 7) / 8 * 8);
}

NativeJob *native_job_new(void)
{
    void *p = mmap(NULL, REGION_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void native_job_free(NativeJob *job)
{
    if (job)
        munmap(job, REGION_SIZE);
}

/* ---- the process that runs calls ----------------------------------------------- */
/* what the signal handlers and the throw helper find at CHILD_CTX_ADDR */
typedef struct {
    NativeJob *job;
    uint32_t call;          /* the call being made */
    bool in_call;           /* between its sigsetjmp and its outcome */
    sigjmp_buf next;        /* back to the loop over calls */
} NativeChild;

static NativeChild *child_ctx(void) { return *(NativeChild *const *)(uintptr_t)CHILD_CTX_ADDR; }

/* the current call's outcome, then the next call */
static _Noreturn void child_finish(NativeChild *k, uint8_t kind, uint8_t trap, uint64_t bits)
{
    NativeSlot *r = &k->job->slots[k->call];
    k->in_call = false;
    r->kind = kind;
    r->trap = kind == OUT_THROW ? 0 : trap;
    r->type = kind == OUT_THROW ? trap : 0;
    r->bits = bits;
    memcpy(r->heap, (const void *)(uintptr_t)HEAP_ADDR, HEAP_SIZE);
    r->done = 1;
    siglongjmp(k->next, 1);
}

static void on_signal(int sig, siginfo_t *info, void *uc)
{
    (void)info;
    NativeChild *k = child_ctx();
    if (!k->in_call) /* the runner's own code (its memory scribbled on): it ends */
        _exit(2);
    uint64_t off = (uint64_t)(uintptr_t)circ_rt_signal_pc(uc) - (uint64_t)(uintptr_t)native_job_code(k->job);
    const TrapSite *traps = native_job_traps(k->job);
    unsigned listed = 0;
    for (uint32_t i = 0; i < k->job->ntraps; i++)
        if (traps[i].offset == off)
            listed = traps[i].kind;
    child_finish(k, OUT_TRAP, (uint8_t)circ_rt_signal_trap(sig, uc, listed), 0);
}

/* THROW in the runner: the outcome, then the next call */
static void native_throw(uint64_t bits, uint32_t type)
{
    if (type < TY_I1 || type > TY_F64)
        child_finish(child_ctx(), OUT_TRAP, TRAP_ILLEGAL, 0);
    child_finish(child_ctx(), OUT_THROW, (uint8_t)type, bits & ty_mask((Type)type));
}

/* rt_check in the runner, for code without the threw flag: its throw is the
 * runner's THROW (code with the flag gets libcirc_rt's circ_rt_check_flagged) */
static uint64_t native_rt_check(uint64_t x, uint64_t limit)
{
    if (x > limit)
        native_throw(x, TY_I64);
    return x;
}

bool native_resolve_host(void *ctx, const char *name, uint64_t *addr)
{
    static const struct { const char *name; void (*fn)(void); } helpers[] = {
        {"circ_rt_fmod_f32", (void (*)(void))circ_rt_fmod_f32}, {"circ_rt_fmod_f64", (void (*)(void))circ_rt_fmod_f64},
        {"circ_rt_fexp_f32", (void (*)(void))circ_rt_fexp_f32}, {"circ_rt_fexp_f64", (void (*)(void))circ_rt_fexp_f64},
        {"circ_rt_throw", (void (*)(void))native_throw}, {"circ_rt_mix64", (void (*)(void))circ_rt_mix64},
        {"circ_rt_scramble", (void (*)(void))circ_rt_scramble}, {"circ_rt_check", (void (*)(void))native_rt_check},
        {"circ_rt_apply", (void (*)(void))circ_rt_apply},
    };
    const uint8_t *threw_flag = ctx;
    for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++)
        if (!strcmp(name, helpers[i].name)) {
            bool flagged_check = *threw_flag && !strcmp(name, "circ_rt_check");
            *addr = flagged_check ? (uint64_t)(uintptr_t)circ_rt_check_flagged : (uint64_t)(uintptr_t)helpers[i].fn;
            return true;
        }
    return false;
}

static bool child_fail(NativeJob *job, const char *why)
{
    snprintf(job->reason, sizeof job->reason, "%s", why);
    return false;
}

/* the signal stack and the handlers of the trap signals (unblocked) */
static bool child_signals(uint8_t *ctx)
{
    stack_t ss = {.ss_sp = ctx + 4096, .ss_size = CHILD_CTX_SIZE - 4096};
    struct sigaction sa = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGFPE, SIGILL, SIGTRAP, SIGSEGV, SIGBUS};
    sigset_t traps;
    sigemptyset(&traps);
    bool ok = sigaltstack(&ss, NULL) == 0;
    for (size_t i = 0; ok && i < sizeof sigs / sizeof sigs[0]; i++)
        ok = sigaction(sigs[i], &sa, NULL) == 0 && sigaddset(&traps, sigs[i]) == 0;
    return ok && sigprocmask(SIG_UNBLOCK, &traps, NULL) == 0;
}

/* the process's world: code read+execute, harness buffer, context page, signal stack
 * and handlers, a CPU limit of cpu_s seconds */
static bool child_setup(NativeJob *job, rlim_t cpu_s)
{
    struct rlimit cpu = {cpu_s, cpu_s + 1}, none = {0, 0};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &none);
    setrlimit(RLIMIT_FSIZE, &none);
    if (mprotect(native_job_code(job), REGION_CODE_MAX, PROT_READ | PROT_EXEC))
        return child_fail(job, "the code cannot be made executable");
    void *heap = mmap((void *)(uintptr_t)HEAP_ADDR, HEAP_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    uint8_t *ctx = mmap((void *)(uintptr_t)CHILD_CTX_ADDR, CHILD_CTX_SIZE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (heap != (void *)(uintptr_t)HEAP_ADDR || ctx != (uint8_t *)(uintptr_t)CHILD_CTX_ADDR)
        return child_fail(job, "the harness buffer's address is taken");
    NativeChild *k = (NativeChild *)(ctx + 64);
    k->job = job;
    k->call = 0;
    *(NativeChild **)ctx = k;
    return child_signals(ctx) || child_fail(job, "cannot install the signal handlers");
}

/* Where no seccomp filter can be installed (qemu-user refuses one with EINVAL, a
 * kernel without seccomp answers ENOSYS), the processes run under rlimits and the
 * deadline only: no new processes and no new files, on top of child_setup's CPU,
 * core and file-size limits.  check_machine_stage_names says so in the campaign's
 * summary (native_seccomp_probe). */
static bool seccomp_unsupported(int err) { return err == EINVAL || err == ENOSYS; }

static bool child_confine(NativeJob *job)
{
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_NPROC, &none) || setrlimit(RLIMIT_NOFILE, &none))
        return child_fail(job, "no seccomp here, and the rlimits that stand in cannot be set");
    return true;
}

#define ARG0_LO offsetof(struct seccomp_data, args[0])
#define ARG0_HI (offsetof(struct seccomp_data, args[0]) + 4) /* both hosts are little-endian */

/* nothing from here on but exit, exit_group, rt_sigreturn, and read and write on fd
 * (a fork-per-job child passes -1: no descriptor has that number); without seccomp,
 * child_confine */
static bool child_seccomp(NativeJob *job, int fd)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit_group, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigreturn, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_read, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 2, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /* read, write: only on fd */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LO),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)fd, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_HI),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
        return child_fail(job, "cannot set no_new_privs");
    if (!prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
        return true;
    if (!seccomp_unsupported(errno))
        return child_fail(job, "cannot install the seccomp filter");
    return child_confine(job);
}

bool native_seccomp_probe(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        struct sock_filter allow[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
        struct sock_fprog prog = {.len = 1, .filter = allow};
        bool ok = !prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) && !prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
        _exit(ok ? 0 : seccomp_unsupported(errno) ? 1 : 2);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return !(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 1);
}

/* call k of the job; returns once its outcome is in its slot */
static void child_call(NativeChild *k, uint32_t call)
{
    const NativeCall *c = &k->job->calls[call];
    NativeArgs a = c->args;
    heap_fill_pattern((uint8_t *)(uintptr_t)HEAP_ADDR);
    k->call = call;
    k->job->slots[call].started = 1;
    if (sigsetjmp(k->next, 0)) /* no mask saved: the handlers block nothing (SA_NODEFER) */
        return;
    k->in_call = true;
    CircRtRegs regs = {.entry = c->entry, .nmem = NATIVE_STACK_ARGS};
    memcpy(regs.gp, a.gp, sizeof a.gp);
    memcpy(regs.fp, a.fp, sizeof a.fp);
    memcpy(regs.mem, a.mem, sizeof a.mem);
    circ_rt_regcall(&regs);
    if (k->job->threw_flag && regs.ret_flag) /* a flag naming no type: native_throw's trap */
        native_throw(regs.ret_gp, regs.ret_flag - 1 > TY_F64 ? TY_NONE : (uint32_t)(regs.ret_flag - 1));
    uint64_t bits = c->ret == TY_F32 || c->ret == TY_F64 ? regs.ret_fp : regs.ret_gp;
    child_finish(k, OUT_RETURN, 0, bits);
}

/* every call of the job, each into its slot */
static void child_run_job(NativeJob *job)
{
    NativeChild *k = child_ctx();
    for (uint32_t i = 0; i < job->ncalls; i++)
        child_call(k, i);
}

/* ---- a child per job (no fork server) ---------------------------------------------- */
static _Noreturn void child_main(NativeJob *job)
{
    if (!child_setup(job, NATIVE_ALARM_S))
        _exit(1);
    alarm(NATIVE_ALARM_S);
    if (!child_seccomp(job, -1))
        _exit(1);
    child_run_job(job);
    _exit(0);
}

static NativeEnd fork_job(NativeJob *job)
{
    NativeEnd e = {.status = -1, .fresh = true};
    pid_t pid = fork();
    if (pid == 0)
        child_main(job);
    while (pid > 0 && waitpid(pid, &e.status, 0) < 0)
        ;
    int sig = pid > 0 && WIFSIGNALED(e.status) ? WTERMSIG(e.status) : 0;
    e.timed_out = sig == SIGALRM || sig == SIGXCPU;
    return e;
}

/* ---- the persistent runner --------------------------------------------------------- */
/* set up once, then a job per byte read from sock (the check's), a byte written back
 * after it */
static _Noreturn void runner_main(int sock, NativeJob *job)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives its server */
    if (!child_setup(job, RUNNER_CPU_S) || !child_seccomp(job, sock))
        _exit(1);
    char go;
    while (read(sock, &go, 1) == 1) {
        uint8_t *code = native_job_code(job); /* AArch64: this view fetches the new code */
        __builtin___clear_cache((char *)code, (char *)code + job->code_size);
        child_run_job(job);
        if (write(sock, &go, 1) != 1)
            break;
    }
    _exit(0);
}

/* ---- the fork server ------------------------------------------------------------- */
/* kill and reap the server's runner (pid 0: none); its wait status */
static int runner_end(pid_t *pid)
{
    int st = 0;
    if (*pid > 0) {
        kill(*pid, SIGKILL);
        while (waitpid(*pid, &st, 0) < 0 && errno == EINTR)
            ;
    }
    *pid = 0;
    return st;
}

/* a runner on a new socket pair: its pid (-1 if none could be made), the check's end
 * of the pair in *fd */
static pid_t runner_start(int server_sock, NativeJob *job, int *fd)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(server_sock);
        close(sv[0]);
        runner_main(sv[1], job);
    }
    close(sv[1]);
    *fd = sv[0];
    if (pid < 0)
        close(sv[0]);
    return pid;
}

/* pid, and with it (pid > 0) the descriptor fd, to the check */
static bool send_runner(int sock, pid_t pid, int fd)
{
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct iovec iov = {.iov_base = &pid, .iov_len = sizeof pid};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (pid > 0) {
        msg.msg_control = u.buf;
        msg.msg_controllen = sizeof u.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        *c = (struct cmsghdr){.cmsg_len = CMSG_LEN(sizeof(int)), .cmsg_level = SOL_SOCKET, .cmsg_type = SCM_RIGHTS};
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    return sendmsg(sock, &msg, MSG_NOSIGNAL) == (ssize_t)sizeof pid;
}

enum { CMD_NEW = 'n', CMD_REAP = 'w' };

/* the server: CMD_NEW replaces the runner by a fresh one (its pid and socket go to
 * the check, which talks to it directly), CMD_REAP kills and reaps it (its wait
 * status goes back); EOF ends the server and its runner */
static _Noreturn void zygote_main(int sock, NativeJob *job)
{
    pid_t runner = 0;
    char cmd;
    while (recv(sock, &cmd, 1, 0) == 1) {
        bool ok;
        if (cmd == CMD_NEW) {
            runner_end(&runner);
            int fd = -1;
            runner = runner_start(sock, job, &fd);
            ok = send_runner(sock, runner, fd);
            if (runner > 0)
                close(fd);
            else
                runner = 0;
        } else {
            int status = runner_end(&runner);
            ok = send(sock, &status, sizeof status, MSG_NOSIGNAL) == sizeof status;
        }
        if (!ok)
            break;
    }
    runner_end(&runner);
    _exit(0);
}

struct NativeZygote {
    pid_t pid;
    int sock;               /* to the server */
    int runner;             /* to the runner, -1: none */
    uint32_t jobs;          /* jobs the runner ran */
    bool tainted;           /* the next job goes to a fresh runner */
    NativeJob *job;         /* the region, shared with the server and its runners */
};

NativeZygote *native_zygote_new(void)
{
    NativeZygote *z = calloc(1, sizeof *z);
    int sv[2];
    if (!z || !(z->job = native_job_new()) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        native_zygote_free(z);
        return NULL;
    }
    z->runner = -1;
    z->pid = fork();
    if (z->pid == 0) { /* nothing of the check's open files but the socket */
        for (int fd = 3; fd < 1024; fd++)
            if (fd != sv[1])
                close(fd);
        zygote_main(sv[1], z->job);
    }
    close(sv[1]);
    z->sock = sv[0];
    if (z->pid < 0) {
        native_zygote_free(z);
        return NULL;
    }
    return z;
}

void native_zygote_free(NativeZygote *z)
{
    if (!z)
        return;
    if (z->runner >= 0)
        close(z->runner);
    if (z->pid > 0) { /* EOF: the server kills and reaps its runner, then exits */
        close(z->sock);
        while (waitpid(z->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    native_job_free(z->job);
    free(z);
}

NativeJob *native_zygote_job(NativeZygote *z) { return z->job; }

void native_zygote_taint(NativeZygote *z)
{
    if (z)
        z->tainted = true;
}

/* a fresh runner from the server, its socket in z->runner; false if the server is gone */
static bool zygote_new_runner(NativeZygote *z)
{
    if (z->runner >= 0)
        close(z->runner);
    z->runner = -1;
    z->jobs = 0;
    char cmd = CMD_NEW;
    pid_t pid = -1;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct iovec iov = {.iov_base = &pid, .iov_len = sizeof pid};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
    if (send(z->sock, &cmd, 1, MSG_NOSIGNAL) != 1 || recvmsg(z->sock, &msg, MSG_CMSG_CLOEXEC) != sizeof pid)
        return false;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    if (pid <= 0 || !c || c->cmsg_type != SCM_RIGHTS)
        return false;
    memcpy(&z->runner, CMSG_DATA(c), sizeof z->runner);
    return true;
}

/* the runner killed and reaped by the server: its wait status, -1 if the server is gone */
static int zygote_reap(NativeZygote *z)
{
    close(z->runner);
    z->runner = -1;
    char cmd = CMD_REAP;
    int status;
    if (send(z->sock, &cmd, 1, MSG_NOSIGNAL) != 1 || recv(z->sock, &status, sizeof status, MSG_WAITALL) != sizeof status)
        return -1;
    return status;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* poll fd for input until deadline (monotonic ms): 1 ready, 0 expired, -1 error */
static int wait_readable(int fd, double deadline)
{
    for (;;) {
        double left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int k = poll(&p, 1, (int)left + 1);
        if (k >= 0 || errno != EINTR)
            return k > 0 ? 1 : k;
    }
}

/* one job by the runner: its report before the deadline, or it is killed (a
 * timeout) or found dead, and reaped by the server */
static void runner_job(NativeZygote *z, NativeEnd *e)
{
    char go = 1;
    int ready = send(z->runner, &go, 1, MSG_NOSIGNAL) == 1 ? wait_readable(z->runner, now_ms() + NATIVE_ALARM_S * 1e3) : -1;
    if (ready > 0 && read(z->runner, &go, 1) == 1) {
        z->jobs++;
        return;
    }
    e->status = zygote_reap(z);
    e->timed_out = ready == 0 || (e->status > 0 && WIFSIGNALED(e->status) && WTERMSIG(e->status) == SIGXCPU);
}

static void slots_clear(NativeJob *job)
{
    for (uint32_t i = 0; i < job->ncalls; i++)
        job->slots[i].started = job->slots[i].done = 0;
}

NativeEnd native_job_run(NativeZygote *z, NativeJob *job, bool fresh)
{
    NativeEnd e = {0};
    if (z) {
        e.fresh = fresh || z->tainted || z->runner < 0 || z->jobs >= NATIVE_RUNNER_JOBS;
        z->tainted = false;
        if (!e.fresh || zygote_new_runner(z)) {
            runner_job(z, &e);
            if (e.status != -1)
                return e;
        }
        slots_clear(job); /* the server is gone: the whole job again, forked here */
    }
    return fork_job(job);
}
#else
NativeZygote *native_zygote_new(void) { return NULL; }
void native_zygote_free(NativeZygote *z) { (void)z; }
#endif
