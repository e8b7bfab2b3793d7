/* check_qemu.c — the qemu stage of the differential check: `arm64-O2-qemu` runs the
 * ARM64 object (written and loaded as the other machine stages do) under
 * qemu-aarch64, a second, newer emulator than Unicorn (QEMU 7 against Unicorn's 5),
 * in runtime/qemu_runner.c, a static AArch64 program built with Debian's cross
 * compiler (runtime/circ_runner.h is the protocol).  A process per program: by
 * default a campaign runs it on one program in CheckOptions.qemu_every (a hash of
 * the program picks which), `circ check` on every one.  When its outcome differs
 * from the oracle's, the same code runs under Unicorn, and if the two emulators
 * disagree the signature says `unicorn-vs-qemu`.  The stage exists where the runner
 * was built and qemu-aarch64 is on the PATH. */
#include "compiler/target.h"
#include "fuzz/check_stage.h"
#include "oracle/emu.h"
#include "runtime/circ_rt.h"
#include "runtime/circ_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef CIRC_QEMU_RUNNER
enum { QEMU_TIMEOUT_MS = 20000 };

typedef struct {
    Arena *arena;
    CodeBlob blob;
    bool skipped;                 /* not this program's turn */
    CircRunnerResult *results;    /* per call of the last job */
    uint32_t *call_run;           /* the run line of each call */
    uint32_t ncalls, from;        /* the last job: its calls, its first run line */
    uint32_t answered;            /* calls the runner answered */
    char why[120];                /* why the runner did not answer them all */
    Emu *emu;
    bool emu_loaded;
} QemuRun;

/* the runner built and qemu-aarch64 on the PATH (a walk of the PATH: asked once per
 * CheckEngines, check_engines_memo) */
static bool qemu_here(void) { return !access(CIRC_QEMU_RUNNER, X_OK) && check_on_path("qemu-aarch64"); }

static void add_qemu_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    const Target *t = target_for_isa(ISA_A64);
    if (o->no_native || !t || !t->obj || !(levels & CHECK_O2) || (o->isa_mask && !(o->isa_mask & (1u << ISA_A64))) ||
        !check_engines_memo(o->engines, qemu_here))
        return;
    CheckStage s = {.kind = STAGE_QEMU, .level = 2, .target = t};
    snprintf(s.name, sizeof s.name, "%s-O2-qemu", t->name);
    check_add_stage(l, o, &s);
}

static bool open_qemu(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    QemuRun *q = calloc(1, sizeof *q);
    if (!q)
        abort();
    r->machine = q;
    q->arena = arena_new();
    q->skipped = !check_program_sampled(c->m, c->opt->qemu_every);
    const CodeBlob *blob = q->skipped ? NULL : check_compile_shared(c, s, r);
    if (blob)
        q->blob = *blob;
    return q->skipped || blob;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* n bytes from fd before the deadline (monotonic ms) */
static bool recv_all(int fd, void *p, size_t n, double deadline)
{
    for (size_t k = 0; k < n;) {
        int left = (int)(deadline - now_ms());
        struct pollfd pf = {fd, POLLIN, 0};
        if (left <= 0 || poll(&pf, 1, left) <= 0)
            return false;
        ssize_t got = recv(fd, (char *)p + k, n - k, 0);
        if (got <= 0 && errno != EINTR)
            return false;
        k += got > 0 ? (size_t)got : 0;
    }
    return true;
}

static bool send_all(int fd, const void *p, size_t n)
{
    for (size_t k = 0; k < n;) {
        ssize_t put = send(fd, (const char *)p + k, n - k, MSG_NOSIGNAL);
        if (put <= 0 && errno != EINTR)
            return false;
        k += put > 0 ? (size_t)put : 0;
    }
    return true;
}

/* qemu-aarch64 running the runner, its standard input and output on *fd */
static pid_t spawn_runner(int *fd)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"qemu-aarch64", CIRC_QEMU_RUNNER, NULL};
    extern char **environ;
    pid_t pid;
    if (posix_spawnp(&pid, "qemu-aarch64", &fa, NULL, argv, environ))
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    close(sv[1]);
    *fd = sv[0];
    return pid;
}

/* what the runner's symbols resolve by: its hello, and whether the code returns the
 * threw flag (then rt_check throws by the flag) */
typedef struct {
    const CircRunnerHello *hello;
    bool threw_flag;
} RunnerSymbols;

static bool resolve_runner(void *ctx, const char *name, uint64_t *addr)
{
    static const char *const names[CIRC_RUNNER_HELPERS] = {
#define X(sym) #sym,
        CIRC_ABI_HELPER_SYMBOLS(X)
#undef X
    };
    const RunnerSymbols *rs = ctx;
    for (unsigned i = 0; i < CIRC_RUNNER_HELPERS; i++)
        if (!strcmp(name, names[i])) {
            bool flagged_check = rs->threw_flag && !strcmp(name, "circ_rt_check");
            *addr = flagged_check ? rs->hello->check_flagged : rs->hello->helpers[i];
            return true;
        }
    return false;
}

/* run line i as a call of the runner; false if it passes more in memory than it takes */
static bool make_call(const Module *m, uint32_t i, const uint8_t *code_base, const CodeBlob *blob, CircRunnerCall *c)
{
    const RunLine *rl = &m->runs[i];
    const Func *f = m->funcs[rl->func];
    uint64_t args[256];
    if (rl->nargs > 256)
        return false;
    runline_args_at(rl, (uint64_t)(uintptr_t)code_base, blob->entry, args);
    memset(c, 0, sizeof *c);
    c->entry = (uint64_t)(uintptr_t)code_base + blob->entry[rl->func];
    c->float_result = f->ret == TY_F32 || f->ret == TY_F64;
    c->threw_flag = blob->threw_flag;
    unsigned g = 0, x = 0, k = 0;
    for (uint32_t a = 0; a < f->nparams; a++) {
        bool fp = f->params[a] == TY_F32 || f->params[a] == TY_F64;
        if (fp && x < CIRC_RUNNER_FP)
            c->fp[x++] = args[a];
        else if (!fp && g < CIRC_RUNNER_GP)
            c->gp[g++] = args[a];
        else if (k < CIRC_RUNNER_MEM)
            c->mem[k++] = args[a];
        else
            return false;
    }
    return true;
}

/* the job to the runner: header, image, trap table, calls */
static bool send_job(int fd, const ElfImage *img, const CircRunnerCall *calls, uint32_t n)
{
    CircRunnerJob job = {CIRC_RUNNER_MAGIC, (uint32_t)img->size, img->ntraps, n, 0};
    CircRunnerTrap *traps = malloc((img->ntraps + 1) * sizeof *traps);
    if (!traps)
        return false;
    for (uint32_t i = 0; i < img->ntraps; i++)
        traps[i] = (CircRunnerTrap){img->traps[i].offset, img->traps[i].kind};
    bool ok = send_all(fd, &job, sizeof job) && send_all(fd, img->image, img->size) &&
              send_all(fd, traps, img->ntraps * sizeof *traps) && send_all(fd, calls, n * sizeof *calls);
    free(traps);
    return ok;
}

/* the comparable run lines from `from` on as calls */
static uint32_t make_calls(QemuRun *q, const CheckCtx *c, uint32_t from, CircRunnerCall *calls)
{
    uint32_t n = 0;
    for (uint32_t i = from; i < c->m->nruns && n < CIRC_RUNNER_MAX_CALLS; i++) {
        if (c->oracle[i].kind == OUT_TIMEOUT || c->oracle[i].kind == OUT_INVALID)
            continue;
        if (make_call(c->m, i, (const uint8_t *)(uintptr_t)CIRC_RUNNER_BASE, &q->blob, &calls[n]))
            q->call_run[n++] = i;
    }
    return n;
}

/* talk to a started runner: hello, the object loaded for it, the job, the results */
static void converse(QemuRun *q, const CheckCtx *c, int fd, double deadline, StageRun *r)
{
    CircRunnerHello hello;
    if (!recv_all(fd, &hello, sizeof hello, deadline) || hello.magic != CIRC_RUNNER_MAGIC) {
        snprintf(q->why, sizeof q->why, "qemu-aarch64 did not start the runner");
        return;
    }
    ElfImage img;
    CodeBlob loaded;
    RunnerSymbols symbols = {&hello, q->blob.threw_flag};
    if (!check_load_object(c->m, target_for_isa(ISA_A64), &q->blob, hello.base, resolve_runner, &symbols, q->arena,
                           &img, &loaded, r)) {
        snprintf(q->why, sizeof q->why, "%.110s", r->detail);
        return;
    }
    CircRunnerCall *calls = malloc(CIRC_RUNNER_MAX_CALLS * sizeof *calls);
    bool sent = calls && send_job(fd, &img, calls, (q->ncalls = make_calls(q, c, q->from, calls)));
    elf_image_free(&img);
    free(calls);
    while (sent && q->answered < q->ncalls && recv_all(fd, &q->results[q->answered], sizeof *q->results, deadline))
        q->answered++;
    if (q->answered < q->ncalls)
        snprintf(q->why, sizeof q->why, "%s", now_ms() >= deadline ? "timeout" : "the runner stopped");
}

/* a runner for the run lines from `from` on */
static void run_job(QemuRun *q, const CheckCtx *c, uint32_t from, StageRun *r)
{
    q->from = from;
    q->ncalls = q->answered = 0;
    q->why[0] = 0;
    int fd = -1;
    pid_t pid = spawn_runner(&fd);
    double deadline = now_ms() + QEMU_TIMEOUT_MS;
    if (pid > 0)
        converse(q, c, fd, deadline, r);
    else
        snprintf(q->why, sizeof q->why, "qemu-aarch64 cannot be started");
    if (fd >= 0)
        close(fd);
    if (pid > 0) {
        kill(pid, SIGKILL); /* it has answered or failed: nothing more to wait for */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
}

/* the call of run line i in the last job, or its number of calls */
static uint32_t call_of(const QemuRun *q, uint32_t i)
{
    uint32_t k = 0;
    while (k < q->ncalls && q->call_run[k] != i)
        k++;
    return k;
}

static void result_outcome(const CircRunnerResult *res, Type ret, Outcome *out)
{
    memset(out, 0, sizeof *out);
    out->kind = res->kind == CIRC_RT_TRAP ? OUT_TRAP : res->kind == CIRC_RT_THROW ? OUT_THROW : OUT_RETURN;
    out->trap = (uint8_t)res->trap;
    out->type = out->kind == OUT_THROW ? (uint8_t)res->type : (uint8_t)ret;
    out->bits = out->kind == OUT_TRAP ? 0 : res->bits & ty_mask((Type)out->type);
    memcpy(out->heap, res->heap, HEAP_SIZE);
}

static void run_qemu(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args,
                     Outcome *out)
{
    (void)s;
    QemuRun *q = r->machine;
    r->label = NULL;
    if (q->skipped) { /* not this program's turn: the oracle's outcome stands */
        *out = *c->oracle_run;
        return;
    }
    if (!q->results) {
        q->results = arena_alloc(q->arena, CIRC_RUNNER_MAX_CALLS * sizeof *q->results);
        q->call_run = arena_alloc(q->arena, CIRC_RUNNER_MAX_CALLS * sizeof *q->call_run);
    }
    uint32_t k = call_of(q, c->run_line);
    if (k == q->ncalls) {
        run_job(q, c, c->run_line, r);
        k = call_of(q, c->run_line);
    }
    const Func *f = c->m->funcs[func];
    if (k == q->ncalls) { /* more arguments in memory than the runner takes: not run */
        *out = *c->oracle_run;
        return;
    }
    if (k >= q->answered) {
        memset(out, 0, sizeof *out);
        out->kind = !strcmp(q->why, "timeout") ? OUT_TIMEOUT : OUT_INVALID;
        heap_fill_pattern(out->heap);
        snprintf(out->reason, sizeof out->reason, "qemu: %s", q->why);
        q->ncalls = 0; /* the later run lines go to a new runner */
        return;
    }
    result_outcome(&q->results[k], f->ret, out);
    if (outcome_equal(c->oracle_run, out, NULL, 0))
        return;
    if (!q->emu) {
        q->emu = emu_new(ISA_A64);
        q->emu_loaded = q->emu && emu_load(q->emu, &q->blob);
    }
    Outcome *emu = malloc(sizeof *emu);
    if (!emu)
        abort();
    if (q->emu_loaded)
        emu_call_func(q->emu, f, args, emu_budget_from(c->oracle_run, 8), emu);
    r->label = q->emu_loaded && !outcome_equal(emu, out, NULL, 0) ? "unicorn-vs-qemu" : NULL;
    free(emu);
}

static void close_qemu(StageRun *r)
{
    QemuRun *q = r->machine;
    if (!q)
        return;
    emu_free(q->emu);
    arena_free(q->arena);
    free(q);
    r->machine = NULL;
}

const StageOps check_qemu_stages = {add_qemu_stages, open_qemu, run_qemu, close_qemu, NULL,
                                    PHASE_COMPILE, PHASE_NATIVE};
#else
static void add_no_qemu(StageList *l, const CheckOptions *o, uint32_t levels) { (void)l, (void)o, (void)levels; }
const StageOps check_qemu_stages = {add_no_qemu, NULL, NULL, NULL, NULL, PHASE_COMPILE, PHASE_NATIVE};
#endif
