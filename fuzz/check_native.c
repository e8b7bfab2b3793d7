/* check_native.c — the native stage of the differential check: on an x86-64 host
 * `x86-64-O2-native` (on an ARM64 host `arm64-O2-native`) compiles the module at -O2
 * as the machine stage does, writes the ELF object (compiler/lir/objwrite.h), loads
 * it (oracle/elf_load.h) into a shared region, and runs the run lines in a child
 * process: the code mapped read+execute, the harness buffer at its fixed address,
 * rlimits, an alarm for timeouts, handlers for SIGFPE/SIGILL/SIGTRAP/SIGSEGV/SIGBUS
 * that map the trapping instruction to its kind through the object's trap table
 * (libcirc_rt's circ_rt_signal_trap), then a seccomp filter that allows nothing but
 * exiting.  The child writes each run's outcome to the shared region.  Children are
 * forked by a small fork server (NativeZygote) that a CheckEngines forks while its
 * process is still small, so that a campaign worker does not copy its own address
 * space per program; without one the check forks them itself.  When a native
 * outcome differs from the oracle's, the same code runs under Unicorn: if the
 * emulator and the hardware disagree, the signature says `unicorn-vs-native`, so an
 * emulator bug is never reported as a miscompile. */
#include "compiler/compile.h"
#include "compiler/lir/objwrite.h"
#include "compiler/target.h"
#include "fuzz/check_stage.h"
#include "oracle/elf_load.h"
#include "oracle/emu.h"
#include "runtime/circ_rt.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* A sanitized build has no native stage: its runtime intercepts signals, longjmp
 * and calls that do not return, and makes system calls there (sigaltstack,
 * /proc/self/maps) that the child's seccomp filter forbids. */
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
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
enum { NATIVE_GP_ARGS = 6 };
#elif defined(__aarch64__)
#define NATIVE_ISA ISA_A64
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
enum { NATIVE_GP_ARGS = 8 };
#endif

#ifdef NATIVE_ISA
enum {
    NATIVE_FP_ARGS = 8,
    NATIVE_STACK_ARGS = 16,   /* calls with more arguments in memory are not run */
    NATIVE_ALARM_S = 5,       /* wall clock before a child's calls are a timeout */
    CHILD_CTX_SIZE = 1 << 16, /* the child's context page and its signal stack */
    JOB_MAX_CALLS = 64,       /* run lines per child */
    REGION_CODE_MAX = 8 << 20,/* code and trap table of one module */
};
/* where the child keeps a pointer to its context: a page of its own (after fork) */
#define CHILD_CTX_ADDR (HEAP_ADDR + 0x100000ull)

/* what the child reports for one call */
typedef struct {
    uint8_t started, done;  /* the child began the call; it wrote the outcome */
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

/* the region a child runs from, shared by the check, the fork server and the
 * children: the job, then (page-aligned) the code and after it the trap table */
typedef struct {
    char reason[120];       /* why a child could not set itself up */
    uint64_t code_size;     /* bytes of code at region_code() */
    uint32_t ntraps, ncalls;
    bool threw_flag;        /* the code returns the threw flag (docs/architecture.md) */
    NativeCall calls[JOB_MAX_CALLS];
    NativeSlot slots[JOB_MAX_CALLS];
} NativeJob;

#define JOB_BYTES ((sizeof(NativeJob) + 4095) / 4096 * 4096)
#define REGION_SIZE (JOB_BYTES + REGION_CODE_MAX)

static uint8_t *region_code(NativeJob *job) { return (uint8_t *)job + JOB_BYTES; }
static TrapSite *region_traps(NativeJob *job) { return (TrapSite *)(region_code(job) + (job->code_size + 7) / 8 * 8); }

static NativeJob *region_new(void)
{
    void *p = mmap(NULL, REGION_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static bool sort_args(const Func *f, const uint64_t *args, NativeArgs *a)
{
    memset(a, 0, sizeof *a);
    unsigned g = 0, x = 0, m = 0;
    for (uint32_t i = 0; i < f->nparams; i++) {
        bool fp = f->params[i] == TY_F32 || f->params[i] == TY_F64;
        if (fp && x < NATIVE_FP_ARGS)
            memcpy(&a->fp[x++], &args[i], sizeof args[i]);
        else if (!fp && g < NATIVE_GP_ARGS)
            a->gp[g++] = args[i];
        else if (m < NATIVE_STACK_ARGS)
            a->mem[m++] = args[i];
        else
            return false;
    }
    return true;
}

/* ---- the child ------------------------------------------------------------------ */
/* what the child's signal handlers and throw helper find at CHILD_CTX_ADDR */
typedef struct {
    NativeJob *job;
    uint32_t call;          /* the call being made */
    sigjmp_buf next;        /* back to the loop over calls */
} NativeChild;

static NativeChild *child_ctx(void) { return *(NativeChild *const *)(uintptr_t)CHILD_CTX_ADDR; }

/* the current call's outcome, then the next call */
static _Noreturn void child_finish(NativeChild *k, uint8_t kind, uint8_t trap, uint64_t bits)
{
    NativeSlot *r = &k->job->slots[k->call];
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
    uint64_t off = (uint64_t)(uintptr_t)circ_rt_signal_pc(uc) - (uint64_t)(uintptr_t)region_code(k->job);
    const TrapSite *traps = region_traps(k->job);
    unsigned listed = 0;
    for (uint32_t i = 0; i < k->job->ntraps; i++)
        if (traps[i].offset == off)
            listed = traps[i].kind;
    child_finish(k, OUT_TRAP, (uint8_t)circ_rt_signal_trap(sig, uc, listed), 0);
}

/* THROW in the child: the outcome, then the next call */
static void native_throw(uint64_t bits, uint32_t type)
{
    if (type < TY_I1 || type > TY_F64)
        child_finish(child_ctx(), OUT_TRAP, TRAP_ILLEGAL, 0);
    child_finish(child_ctx(), OUT_THROW, (uint8_t)type, bits & ty_mask((Type)type));
}

/* rt_check in the child, for code without the threw flag: its throw is the child's
 * THROW (code with the flag gets libcirc_rt's circ_rt_check_flagged) */
static uint64_t native_rt_check(uint64_t x, uint64_t limit)
{
    if (x > limit)
        native_throw(x, TY_I64);
    return x;
}

static bool resolve_host(void *ctx, const char *name, uint64_t *addr)
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

/* the child's world: code read+execute, harness buffer, context page, signal stack
 * and handlers */
static bool child_setup(NativeJob *job)
{
    struct rlimit cpu = {NATIVE_ALARM_S, NATIVE_ALARM_S + 1}, none = {0, 0};
    setrlimit(RLIMIT_CPU, &cpu);
    setrlimit(RLIMIT_CORE, &none);
    setrlimit(RLIMIT_FSIZE, &none);
    if (mprotect(region_code(job), REGION_CODE_MAX, PROT_READ | PROT_EXEC))
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
    stack_t ss = {.ss_sp = ctx + 4096, .ss_size = CHILD_CTX_SIZE - 4096};
    struct sigaction sa = {.sa_sigaction = on_signal, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGFPE, SIGILL, SIGTRAP, SIGSEGV, SIGBUS};
    bool ok = sigaltstack(&ss, NULL) == 0;
    for (size_t i = 0; ok && i < sizeof sigs / sizeof sigs[0]; i++)
        ok = sigaction(sigs[i], &sa, NULL) == 0;
    return ok || child_fail(job, "cannot install the signal handlers");
}

/* Where no seccomp filter can be installed (qemu-user refuses one with EINVAL, a
 * kernel without seccomp answers ENOSYS), the children run under rlimits and the
 * alarm only: no new processes and no new files, on top of child_setup's CPU, core
 * and file-size limits.  check_machine_stage_names says so in the campaign's
 * summary (native_seccomp_probe). */
static bool seccomp_unsupported(int err) { return err == EINVAL || err == ENOSYS; }

static bool child_confine(NativeJob *job)
{
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_NPROC, &none) || setrlimit(RLIMIT_NOFILE, &none))
        return child_fail(job, "no seccomp here, and the rlimits that stand in cannot be set");
    return true;
}

/* nothing but exit and exit_group from here on (or, without seccomp, child_confine) */
static bool child_seccomp(NativeJob *job)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit_group, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
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

/* can a child install a seccomp filter here?  A child tries one that allows
 * everything: false where it cannot for want of seccomp (child_confine) */
static bool native_seccomp_probe(void)
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
    if (sigsetjmp(k->next, 0))
        return;
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

/* every call of the job, each into its slot, then exit */
static _Noreturn void child_main(NativeJob *job)
{
    if (!child_setup(job))
        _exit(1);
    alarm(NATIVE_ALARM_S);
    if (!child_seccomp(job))
        _exit(1);
    NativeChild *k = child_ctx();
    for (uint32_t i = 0; i < job->ncalls; i++)
        child_call(k, i);
    _exit(0);
}

static int fork_child(NativeJob *job)
{
    pid_t pid = fork();
    if (pid == 0)
        child_main(job);
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0)
        ;
    return pid > 0 ? status : -1;
}

/* ---- the fork server ------------------------------------------------------------- */
struct NativeZygote {
    pid_t pid;
    int sock;
    NativeJob *job;         /* the region, shared with the server and its children */
};

/* the server: a child per byte received, its status sent back; EOF ends it */
static _Noreturn void zygote_main(int sock, NativeJob *job)
{
    char go;
    while (recv(sock, &go, 1, 0) == 1) {
        int status = fork_child(job);
        if (send(sock, &status, sizeof status, MSG_NOSIGNAL) != sizeof status)
            break;
    }
    _exit(0);
}

NativeZygote *native_zygote_new(void)
{
    NativeZygote *z = calloc(1, sizeof *z);
    int sv[2];
    if (!z || !(z->job = region_new()) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        native_zygote_free(z);
        return NULL;
    }
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
    if (z->pid > 0) {
        close(z->sock);
        while (waitpid(z->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (z->job)
        munmap(z->job, REGION_SIZE);
    free(z);
}

/* the job through the server: the child's status, -1 if the server is gone */
static int zygote_run(NativeZygote *z)
{
    int status;
    char go = 1;
    if (send(z->sock, &go, 1, MSG_NOSIGNAL) != 1 || recv(z->sock, &status, sizeof status, MSG_WAITALL) != sizeof status)
        return -1;
    return status;
}
#else
NativeZygote *native_zygote_new(void) { return NULL; }
void native_zygote_free(NativeZygote *z) { (void)z; }
#endif

/* ---- the stage ------------------------------------------------------------------ */
#ifdef NATIVE_ISA
typedef struct {
    Arena *arena;
    CodeBlob blob;          /* the compiled module (Unicorn's view of the same code) */
    NativeZygote *zygote;   /* the server that forks the children, NULL: the check does */
    NativeJob *job;         /* the zygote's region, or own_job */
    NativeJob *own_job;
    int last_status;        /* how the last child ended */
    Emu *emu;               /* Unicorn, made when a native outcome differs */
    bool emu_loaded;
} NativeRun;

static void add_native_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    const Target *t = target_for_isa(NATIVE_ISA);
    if (o->no_native || !t || !t->obj || !(levels & CHECK_O2) ||
        (o->isa_mask && !(o->isa_mask & (1u << NATIVE_ISA))))
        return;
    CheckStage s = {.kind = STAGE_NATIVE, .level = 2, .target = t};
    snprintf(s.name, sizeof s.name, "%s-O2-native", t->name);
    check_add_stage(l, o, &s);
}

static bool native_fail(StageRun *r, const char *kind, const char *what, const char *why)
{
    snprintf(r->detail, sizeof r->detail, "%s: %s", what, why);
    r->fail_kind = kind;
    return false;
}

/* the object of the compiled module, loaded into the region's code area with its
 * trap table after it */
static bool load_native(NativeRun *nr, const Module *m, const Target *t, StageRun *r)
{
    ElfImage img;
    CodeBlob loaded;
    uint8_t *code = region_code(nr->job);
    if (!check_load_object(m, t, &nr->blob, (uint64_t)(uintptr_t)code, resolve_host, &nr->blob.threw_flag, nr->arena, &img, &loaded, r))
        return false;
    nr->job->code_size = img.size;
    nr->job->ntraps = img.ntraps;
    bool ok = (img.size + 7) / 8 * 8 + (uint64_t)img.ntraps * sizeof(TrapSite) <= REGION_CODE_MAX;
    if (ok) {
        memcpy(code, img.image, img.size);
        __builtin___clear_cache((char *)code, (char *)code + img.size); /* AArch64: the children fetch it */
        memcpy(region_traps(nr->job), img.traps, img.ntraps * sizeof(TrapSite));
    }
    elf_image_free(&img);
    return ok || native_fail(r, "load", "the loader", "the code does not fit the native stage's region");
}

static bool open_native(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    NativeRun *nr = calloc(1, sizeof *nr);
    if (!nr)
        abort();
    r->machine = nr;
    nr->arena = arena_new();
    if (!check_compile(c, s, nr->arena, &nr->blob, r))
        return false;
    if (!c->machine)
        c->machine = c->opt->engines ? c->opt->engines : check_engines_new();
    nr->zygote = check_engines_native(c->machine);
    nr->job = nr->zygote ? nr->zygote->job : (nr->own_job = region_new());
    if (!nr->job)
        return native_fail(r, "load", "the native stage's region", "cannot be mapped");
    nr->job->ncalls = 0;
    nr->job->threw_flag = nr->blob.threw_flag;
    return load_native(nr, check_prepared(c, s->level, r->detail, sizeof r->detail), s->target, r);
}

/* the calls of the comparable run lines from `from` on, as a job */
static void make_job(NativeRun *nr, const CheckCtx *c, uint32_t from)
{
    NativeJob *job = nr->job;
    job->ncalls = 0;
    job->reason[0] = 0;
    for (uint32_t i = from; i < c->m->nruns && job->ncalls < JOB_MAX_CALLS; i++) {
        const RunLine *rl = &c->m->runs[i];
        const Func *f = c->m->funcs[rl->func];
        uint64_t args[256];
        if (c->oracle[i].kind == OUT_TIMEOUT || c->oracle[i].kind == OUT_INVALID || rl->nargs > 256)
            continue;
        runline_args_at(rl, (uint64_t)(uintptr_t)region_code(job), nr->blob.entry, args);
        NativeCall *call = &job->calls[job->ncalls];
        if (!sort_args(f, args, &call->args))
            continue;
        call->entry = (uint64_t)(uintptr_t)region_code(job) + nr->blob.entry[rl->func];
        call->ret = (uint8_t)f->ret;
        call->run = i;
        memset(&job->slots[job->ncalls], 0, sizeof job->slots[0]);
        job->ncalls++;
    }
}

/* the job's call of run line i, NULL if it has none */
static const NativeSlot *slot_of(const NativeRun *nr, uint32_t i)
{
    for (uint32_t k = 0; k < nr->job->ncalls; k++)
        if (nr->job->calls[k].run == i)
            return &nr->job->slots[k];
    return NULL;
}

/* a slot as an outcome, or how the child ended during its call */
static void read_slot(const NativeRun *nr, const NativeSlot *slot, Type ret, Outcome *out)
{
    memset(out, 0, sizeof *out);
    if (slot->done) {
        out->kind = slot->kind;
        out->trap = slot->trap;
        out->type = slot->kind == OUT_RETURN ? (uint8_t)ret : slot->type;
        out->bits = slot->kind == OUT_RETURN ? slot->bits & ty_mask(ret) : slot->bits;
        memcpy(out->heap, slot->heap, HEAP_SIZE);
        return;
    }
    int status = nr->last_status, sig = status >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    out->kind = sig == SIGALRM || sig == SIGXCPU ? OUT_TIMEOUT : sig == SIGSYS ? OUT_TRAP : OUT_INVALID;
    out->trap = TRAP_ILLEGAL;
    heap_fill_pattern(out->heap);
    snprintf(out->reason, sizeof out->reason, "native child: %s%s%s",
             sig == SIGSYS ? "a system call (seccomp)" : slot->started ? "" : nr->job->reason,
             sig && sig != SIGSYS ? strsignal(sig) : "", status < 0 ? " (no child)" : "");
}

/* the same code under Unicorn, to tell an emulator from a hardware disagreement */
static void run_unicorn(CheckCtx *c, NativeRun *nr, const Func *f, const uint64_t *args, Outcome *out)
{
    if (!nr->emu) {
        nr->emu = emu_new(NATIVE_ISA);
        nr->emu_loaded = nr->emu && emu_load(nr->emu, &nr->blob);
    }
    if (!nr->emu_loaded) {
        memset(out, 0, sizeof *out);
        out->kind = OUT_INVALID;
        return;
    }
    emu_call_func(nr->emu, f, args, emu_budget_from(c->oracle_run, 8), out);
}

/* the run lines from the first asked for on run in one child; a child that dies in
 * a call (a timeout, a system call) leaves the later ones to the next */
static void run_native(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args,
                       Outcome *out)
{
    (void)s;
    NativeRun *nr = r->machine;
    const Func *f = c->m->funcs[func];
    r->label = NULL;
    const NativeSlot *slot = slot_of(nr, c->run_line);
    if (!slot || !slot->started) {
        make_job(nr, c, c->run_line);
        int status = nr->zygote ? zygote_run(nr->zygote) : -1;
        nr->last_status = status >= 0 ? status : fork_child(nr->job);
        slot = slot_of(nr, c->run_line);
    }
    if (!slot) { /* more arguments in memory than the stage's caller passes: not run */
        *out = *c->oracle_run;
        return;
    }
    read_slot(nr, slot, f->ret, out);
    if (outcome_equal(c->oracle_run, out, NULL, 0))
        return;
    Outcome *emu = malloc(sizeof *emu);
    if (!emu)
        abort();
    run_unicorn(c, nr, f, args, emu);
    r->label = outcome_equal(emu, out, NULL, 0) ? NULL : "unicorn-vs-native";
    free(emu);
}

static void close_native(StageRun *r)
{
    NativeRun *nr = r->machine;
    if (!nr)
        return;
    if (nr->own_job)
        munmap(nr->own_job, REGION_SIZE);
    emu_free(nr->emu);
    arena_free(nr->arena);
    free(nr);
    r->machine = NULL;
}

const StageOps check_native_stages = {add_native_stages, open_native, run_native, close_native, NULL,
                                      PHASE_COMPILE, PHASE_NATIVE};
#else
static void add_no_stages(StageList *l, const CheckOptions *o, uint32_t levels) { (void)l, (void)o, (void)levels; }
const StageOps check_native_stages = {add_no_stages, NULL, NULL, NULL, NULL, PHASE_COMPILE, PHASE_NATIVE};
#endif

void check_machine_stage_names(const CheckOptions *o, char *buf, size_t n)
{
    StageList l;
    check_build_stages(o, &l);
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < l.n && k < n; i++)
        if (l.v[i].kind == STAGE_MACHINE || l.v[i].kind == STAGE_NATIVE || l.v[i].kind == STAGE_QEMU)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? ", " : "", l.v[i].name);
#ifdef NATIVE_ISA
    for (uint32_t i = 0; i < l.n && k < n; i++)
        if (l.v[i].kind == STAGE_NATIVE && !native_seccomp_probe())
            k += (size_t)snprintf(buf + k, n - k, "; %s without seccomp (not available here): rlimits and alarm only",
                                  l.v[i].name);
#else
    if (k < n)
        snprintf(buf + k, n - k, "%s(no native stage on this host)", k ? "; " : "");
#endif
    free(l.v);
}
