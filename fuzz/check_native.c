/* check_native.c — the native stage of the differential check: on an x86-64 host
 * `x86-64-O2-native` (on an ARM64 host `arm64-O2-native`) takes the module compiled
 * at -O2 for the host's target (the blob the x86-64-O2 machine stage of the same
 * check compiled, check_compile_shared; compiled here when that stage is not run),
 * writes the ELF object (compiler/lir/objwrite.h), loads it (oracle/elf_load.h) into
 * the region shared with the processes that run it, and runs the run lines there
 * (fuzz/native_run.h: a persistent runner kept by a fork server, under rlimits and a
 * seccomp filter, with a deadline for timeouts and the object's trap table for trap
 * kinds; without a server, a child forked per job).
 *
 * A runner runs the jobs of many programs, and a miscompiled program may scribble
 * on its memory.  So when a native outcome differs from the oracle's in a job that
 * a used runner ran, the job is run again in a fresh runner and only that outcome
 * counts; the runner of a job that disagreed is not used again, and runners are
 * replaced every NATIVE_RUNNER_JOBS jobs.  A finding never comes from state an
 * earlier program left.  When the (confirmed) native outcome differs from the
 * oracle's, the same code runs under Unicorn: if the emulator and the hardware
 * disagree, the signature says `unicorn-vs-native`, so an emulator bug is never
 * reported as a miscompile. */
#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/check_stage.h"
#include "fuzz/native_run.h"
#include "oracle/emu.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#ifdef NATIVE_ISA
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
#endif

/* ---- the stage ------------------------------------------------------------------ */
#ifdef NATIVE_ISA
typedef struct {
    Arena *arena;
    CodeBlob blob;          /* the compiled module (Unicorn's view of the same code) */
    NativeZygote *zygote;   /* the server that keeps the runner, NULL: the check forks */
    NativeJob *job;         /* the zygote's region, or own_job */
    NativeJob *own_job;
    NativeEnd end;          /* how the last job's process ended it */
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
    uint8_t *code = native_job_code(nr->job);
    if (!check_load_object(m, t, &nr->blob, (uint64_t)(uintptr_t)code, native_resolve_host, &nr->blob.threw_flag, nr->arena, &img, &loaded, r))
        return false;
    nr->job->code_size = img.size;
    nr->job->ntraps = img.ntraps;
    bool ok = (img.size + 7) / 8 * 8 + (uint64_t)img.ntraps * sizeof(TrapSite) <= REGION_CODE_MAX;
    if (ok) {
        memcpy(code, img.image, img.size);
        __builtin___clear_cache((char *)code, (char *)code + img.size); /* AArch64: the runner fetches it */
        memcpy(native_job_traps(nr->job), img.traps, img.ntraps * sizeof(TrapSite));
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
    const CodeBlob *blob = check_compile_shared(c, s, r);
    if (!blob)
        return false;
    nr->blob = *blob;
    if (!c->machine)
        c->machine = c->opt->engines ? c->opt->engines : check_engines_new();
    nr->zygote = check_engines_native(c->machine);
    nr->job = nr->zygote ? native_zygote_job(nr->zygote) : (nr->own_job = native_job_new());
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
        runline_args_at(rl, (uint64_t)(uintptr_t)native_job_code(job), nr->blob.entry, args);
        NativeCall *call = &job->calls[job->ncalls];
        if (!sort_args(f, args, &call->args))
            continue;
        call->entry = (uint64_t)(uintptr_t)native_job_code(job) + nr->blob.entry[rl->func];
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

/* a slot as an outcome, or how the job's process ended during its call */
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
    int status = nr->end.status, sig = status >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    out->kind = nr->end.timed_out ? OUT_TIMEOUT : sig == SIGSYS ? OUT_TRAP : OUT_INVALID;
    out->trap = TRAP_ILLEGAL;
    heap_fill_pattern(out->heap);
    snprintf(out->reason, sizeof out->reason, "native runner: %s%s%s",
             sig == SIGSYS ? "a system call (seccomp)" : slot->started ? "" : nr->job->reason,
             nr->end.timed_out ? "timed out" : sig && sig != SIGSYS ? strsignal(sig) : "",
             status < 0 ? " (no process)" : "");
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

/* the run lines from the current one on as a job (in a fresh runner if asked); the
 * current run line's slot, NULL if it has none */
static const NativeSlot *run_job(NativeRun *nr, const CheckCtx *c, bool fresh)
{
    make_job(nr, c, c->run_line);
    nr->end = native_job_run(nr->zygote, nr->job, fresh);
    return slot_of(nr, c->run_line);
}

/* the run lines from the first asked for on run in one job; a runner that dies in a
 * call (a timeout, a system call) leaves the later ones to the next job.  A
 * disagreement from a used runner is run again in a fresh one, and only that one
 * counts */
static void run_native(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args,
                       Outcome *out)
{
    (void)s;
    NativeRun *nr = r->machine;
    const Func *f = c->m->funcs[func];
    r->label = NULL;
    const NativeSlot *slot = slot_of(nr, c->run_line);
    if (!slot || !slot->started)
        slot = run_job(nr, c, false);
    if (!slot) { /* more arguments in memory than the stage's caller passes: not run */
        *out = *c->oracle_run;
        return;
    }
    read_slot(nr, slot, f->ret, out);
    if (outcome_equal(c->oracle_run, out, NULL, 0))
        return;
    if (!nr->end.fresh) { /* the same job from this run line on, in a fresh runner */
        read_slot(nr, run_job(nr, c, true), f->ret, out);
        if (outcome_equal(c->oracle_run, out, NULL, 0))
            return;
    }
    native_zygote_taint(nr->zygote); /* the runner that disagreed is not used again */
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
    native_job_free(nr->own_job);
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
            k += (size_t)snprintf(buf + k, n - k, "; %s without seccomp (not available here): rlimits and a deadline only",
                                  l.v[i].name);
#else
    if (k < n)
        snprintf(buf + k, n - k, "%s(no native stage on this host)", k ? "; " : "");
#endif
    free(l.v);
}
