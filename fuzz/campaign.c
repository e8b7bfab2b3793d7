/* campaign.c — the `circ fuzz` campaign (campaign.h): a parent process that forks
 * workers, reads their reports from pipes, keeps the status line, saves findings
 * and restarts workers that die or hang.
 *
 * Worker -> parent: findings as fixed-size messages on a pipe (smaller than
 * PIPE_BUF, so each write is atomic).  Everything else goes through one shared
 * record per worker (mmap MAP_SHARED before fork): the worker's running tallies
 * (updated after every program, so a crash loses none), the index of the program
 * being checked and when it started (crash and hang attribution), and the stop
 * flag the parent sets.  SIGINT/SIGTERM are blocked during a campaign and
 * polled with sigpending(), so an interrupt ends it cleanly with a summary.
 *
 * The findings folder is locked with flock() on DIR/.circ-fuzz.lock for the whole
 * campaign; findings are written through fuzz/atomic_write.h, never replacing a file. */
#include "fuzz/campaign.h"
#include "fuzz/progress.h"
#include "fuzz/atomic_write.h"
#include "fuzz/mcov_table.h"
#include "fuzz/reduce.h"
#include "fuzz/report.h"
#include "oracle/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MSG_FINDING = 2, MAX_JOBS = 256, MAX_SIGNATURES = 4096 };
enum { WORKER_TRIM_PROGRAMS = 2048 }; /* programs between two malloc_trim of a worker */
enum { WORKER_PROGRAMS_DEFAULT = 2048 }; /* programs of one worker process (a few seconds) */

typedef struct {
    uint32_t type, worker;
    uint64_t index;                 /* MSG_FINDING: the program */
    uint64_t programs, execs, runs;
    uint64_t outcome_kinds[5];
    double seconds[3];              /* generate, run lines, check (CPU) */
    double phases[PHASE_COUNT];     /* the checks' time by CheckPhase (wall) */
    CheckTvTally tv;                /* the tv stages' verdicts */
    char signature[128];
    char stage[64];
    char detail[512];
    uint32_t run;
} Msg;

_Static_assert(sizeof(Msg) <= 4096, "messages must be atomic pipe writes");

typedef struct {
    volatile uint64_t current;      /* program being checked */
    volatile int64_t started_ns;    /* when, 0 between programs */
    volatile int stop;
    volatile int finished;          /* the worker checked its share of max_programs */
    volatile int retired;           /* it checked its worker_programs: start a fresh one */
    Msg tally;                      /* running totals of this worker slot (all its
                                       processes), updated after each program so a
                                       crash loses nothing */
    MachCovTable mcov;              /* its machine-level coverage, likewise */
} WorkerShared;

typedef struct {
    pid_t pid;
    int fd;                         /* read end of its pipe, -1 when closed */
    uint64_t next_index;            /* where a restarted worker resumes */
    bool exited;
} WorkerSlot;

typedef struct {
    const CampaignOptions *o;
    CampaignStats *st;
    FILE *status;
    WorkerSlot w[MAX_JOBS];
    WorkerShared *shared;           /* jobs entries, shared with the workers */
    char **sigs;                    /* signatures seen */
    uint32_t nsigs;
    int64_t t0;
    double last_status;
    bool tty, stopping;
    int lock_fd;                    /* the findings folder's lock, -1 when not held */
    bool made_dir;                  /* the campaign created the findings folder */
    AtomicWriter writer;            /* every finding file goes through it */
    CampaignReport *report;         /* --report; NULL: none */
} Parent;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void campaign_options_default(CampaignOptions *o)
{
    memset(o, 0, sizeof *o);
    o->seconds = 60;
    o->seed = 1;
    o->jobs = 1;
    o->out_dir = "fuzz-out";
    o->runs = 3;
    o->hang_seconds = 60;
    o->worker_programs = WORKER_PROGRAMS_DEFAULT;
    o->status_interval = 5;
    check_options_default(&o->check);
    o->check.qemu_every = QEMU_EVERY_DEFAULT;
    o->check.c_every = C_EVERY_DEFAULT;
    o->check.pressure_every = PRESSURE_EVERY_DEFAULT;
    o->check.local_every = LOCAL_EVERY_DEFAULT;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t campaign_program_seed(uint64_t seed, uint32_t worker, uint64_t k)
{
    return mix64(mix64(mix64(seed) ^ worker) ^ k);
}

static uint8_t *program_bytes(const CampaignOptions *o, uint32_t worker, uint64_t k, size_t *len)
{
    *len = gen_bytes_for_size(o->gen.size);
    uint8_t *b = malloc(*len);
    if (!b)
        abort();
    gen_seed_bytes(campaign_program_seed(o->seed, worker, k), b, *len);
    return b;
}

Module *campaign_program(const CampaignOptions *o, uint32_t worker, uint64_t k)
{
    size_t len;
    uint8_t *b = program_bytes(o, worker, k, &len);
    Module *m = generate(b, len, &o->gen);
    gen_add_runlines(m, b, len, o->runs ? o->runs : 3, &o->check.interp, NULL);
    free(b);
    return m;
}

/* how many programs worker w checks: its share of max_programs (the first
 * max_programs % jobs workers one more), or no limit */
static uint64_t campaign_share(const CampaignOptions *o, uint32_t w)
{
    if (!o->max_programs)
        return UINT64_MAX;
    return o->max_programs / o->jobs + (w < o->max_programs % o->jobs);
}

/* ---- the worker ---------------------------------------------------------------- */
static void send_msg(int fd, const Msg *m)
{
    const char *p = (const char *)m;
    size_t left = sizeof *m;
    while (left) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(3); /* the parent is gone */
        p += k;
        left -= (size_t)k;
    }
}

typedef struct {
    const CampaignOptions *o;
    CheckOptions check;      /* o->check with the worker's emulator engines and interpreter memory */
    uint32_t worker;
    int fd;
    WorkerShared *sh;
    Outcome *outs;
    CheckResult *res;
    ReportCoverage *coverage;       /* --report: this worker's record */
} Worker;

/* keep, in order at the front of outs, the outcomes of the runs that became run lines
 * (those gen_expect_from_outcome accepts); their count */
static uint32_t runline_outcomes(Outcome *outs, uint32_t made)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < made; r++) {
        RunExpect e;
        if (!gen_expect_from_outcome(&outs[r], &e))
            continue;
        if (n != r)
            outs[n] = outs[r];
        n++;
    }
    return n;
}

/* generate, add run lines, check one program (the oracle's outcomes are those the
 * run lines were made from); tally it */
static void worker_one(Worker *w, uint64_t k)
{
    const CampaignOptions *o = w->o;
    uint32_t nruns = o->runs ? o->runs : 3;
    double t0 = cpu_seconds();
    size_t len;
    uint8_t *b = program_bytes(o, w->worker, k, &len);
    Module *m = generate(b, len, &o->gen);
    double t1 = cpu_seconds();
    if (!w->check.interp.memory) /* one interpreter memory for all the worker's programs */
        w->check.interp.memory = mem_new(m);
    uint32_t made = gen_add_runlines(m, b, len, nruns, &w->check.interp, w->outs);
    free(b);
    Msg *t = &w->sh->tally;
    for (uint32_t r = 0; r < made; r++)
        t->outcome_kinds[w->outs[r].kind]++;
    t->runs += made; /* with the outcome kinds, so a crash in the check keeps them equal */
    bool given = runline_outcomes(w->outs, made) == m->nruns;
    double t2 = cpu_seconds();
    bool ok = given ? check_module_given(m, &w->check, w->outs, w->res) : check_module(m, &w->check, w->res);
    double t3 = cpu_seconds();
    t->programs++;
    t->execs += w->res->execs + made;
    t->seconds[0] += t1 - t0;
    t->seconds[1] += t2 - t1;
    t->seconds[2] += t3 - t2;
    for (int k = 0; k < PHASE_COUNT; k++)
        t->phases[k] += w->res->seconds[k];
    check_tv_tally_add(&t->tv, &w->res->tv);
    campaign_report_count(w->coverage, m, &o->check);
    if (!ok) {
        Msg f = {.type = MSG_FINDING, .worker = w->worker, .index = k, .run = w->res->run};
        snprintf(f.signature, sizeof f.signature, "%s", w->res->signature);
        snprintf(f.stage, sizeof f.stage, "%s", w->res->stage);
        snprintf(f.detail, sizeof f.detail, "%s", w->res->detail);
        send_msg(w->fd, &f);
    }
    module_free(m);
}

static void worker_main(const CampaignOptions *o, uint32_t worker, uint64_t start, int fd, WorkerShared *sh,
                        ReportCoverage *coverage)
{
    /* every program allocates and frees the same few megabytes: keep them instead of
     * returning them to the kernel and faulting fresh zero pages in again */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    Worker w = {.o = o, .check = o->check, .worker = worker, .fd = fd, .sh = sh, .coverage = coverage};
    w.check.mcov = &sh->mcov;
    if (!w.check.engines) /* one engine per ISA for all the worker's programs */
        w.check.engines = check_engines_new();
    w.outs = calloc(o->runs ? o->runs : 3, sizeof *w.outs);
    w.res = malloc(sizeof *w.res);
    if (!w.outs || !w.res)
        _exit(4);
    uint64_t end = campaign_share(o, worker);
    for (uint64_t k = start; k < end && !sh->stop; k++) {
        sh->current = k;
        sh->started_ns = now_ns();
        worker_one(&w, k);
        sh->started_ns = 0;
        /* the heap kept that way fragments (engines replaced among the programs'
         * blocks) and its free pages grew the resident size by 2-3 MB a minute:
         * hand the whole free pages back now and then (bench/fuzz/README.md) */
        if (k % WORKER_TRIM_PROGRAMS == WORKER_TRIM_PROGRAMS - 1)
            malloc_trim(0);
        /* what a process keeps still rises with the largest programs it has met (the
         * buffers kept at their high-water size, the heap's stranded pages): a
         * fresh process goes on at the next program */
        if (o->worker_programs && k + 1 - start >= o->worker_programs && k + 1 < end && !sh->stop) {
            sh->retired = 1;
            break;
        }
    }
    sh->finished = !sh->stop && !sh->retired;
    if (w.check.engines != o->check.engines)
        check_engines_free(w.check.engines);
    if (w.check.interp.memory != o->check.interp.memory)
        mem_free(w.check.interp.memory);
    free(w.outs);
    free(w.res);
    _exit(0);
}

static bool spawn(Parent *p, uint32_t i, uint64_t start)
{
    int fds[2];
    if (pipe(fds))
        return false;
    p->shared[i].stop = 0;
    p->shared[i].finished = 0;
    p->shared[i].retired = 0;
    p->shared[i].started_ns = 0;
    p->shared[i].current = start;
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a worker never outlives its campaign */
        char name[16]; /* what ps and /proc/PID/comm show: the worker slot */
        snprintf(name, sizeof name, "circ-worker-%u", i);
        prctl(PR_SET_NAME, name);
        if (getppid() != parent)
            _exit(0);
        close(fds[0]);
        if (p->lock_fd >= 0)
            close(p->lock_fd);
        for (uint32_t j = 0; j < p->o->jobs; j++)
            if (j != i && p->w[j].fd >= 0)
                close(p->w[j].fd);
        worker_main(p->o, i, start, fds[1], &p->shared[i], campaign_report_coverage(p->report, i));
    }
    close(fds[1]);
    p->w[i] = (WorkerSlot){.pid = pid, .fd = fds[0], .next_index = start};
    p->st->worker_processes++;
    return true;
}

/* ---- findings -------------------------------------------------------------------- */
static bool seen_signature(Parent *p, const char *sig)
{
    for (uint32_t i = 0; i < p->nsigs; i++)
        if (!strcmp(p->sigs[i], sig))
            return true;
    if (p->nsigs < MAX_SIGNATURES) {
        char **n = realloc(p->sigs, (p->nsigs + 1) * sizeof *n);
        if (!n)
            abort();
        p->sigs = n;
        p->sigs[p->nsigs++] = strdup(sig);
    }
    return false;
}

static double elapsed(const Parent *p) { return (double)(now_ns() - p->t0) * 1e-9; }

/* what one finding's files are made from */
typedef struct {
    const CampaignOptions *o;
    const Msg *m;
    const Module *mod;           /* the program to save (reduced or as generated) */
    uint32_t gates_generated;    /* gates of the generated program when reduced, else 0 */
    double at;
} Finding;

static bool fill_circ(FILE *f, void *ctx)
{
    const Finding *fd = ctx;
    const CampaignOptions *o = fd->o;
    const Msg *m = fd->m;
    uint64_t gseed = campaign_program_seed(o->seed, m->worker, m->index);
    unsigned size = o->gen.size ? o->gen.size : 100;
    fprintf(f, "; circ fuzz finding %s\n", m->signature);
    fprintf(f, "; stage %s: %s\n", m->stage, m->detail);
    fprintf(f, "; campaign seed %llu, worker %u, program %llu, size %u%s: generator seed 0x%016llx\n",
            (unsigned long long)o->seed, m->worker, (unsigned long long)m->index, size,
            o->gen.swarm ? ", swarm" : "", (unsigned long long)gseed);
    fprintf(f, "; reproduce: circ check FILE%s%s%s%s   (or circ gen --seed 0x%016llx --size %u%s)\n",
            o->check.tv ? " --tv" : "", o->check.targets ? " --targets " : "", o->check.targets ? o->check.targets : "",
            o->reproduce_args ? o->reproduce_args : "",
            (unsigned long long)gseed, size, o->gen.swarm ? " --swarm" : "");
    size_t len;
    uint8_t *b = program_bytes(o, m->worker, m->index, &len);
    fprintf(f, "; bytes (%zu):", len);
    for (size_t i = 0; i < len && i < 64; i++)
        fprintf(f, "%s%02x", i % 32 ? "" : "\n;   ", b[i]);
    fprintf(f, "%s\n", len > 64 ? " ..." : "");
    free(b);
    if (fd->gates_generated)
        fprintf(f, "; reduced by circ reduce from %u to %u gates, keeping the signature\n", fd->gates_generated,
                reduce_gate_count(fd->mod));
    print_module(f, fd->mod);
    return true;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static bool fill_json(FILE *f, void *ctx)
{
    const Finding *fd = ctx;
    const CampaignOptions *o = fd->o;
    const Msg *m = fd->m;
    fputs("{\n  \"signature\": ", f);
    json_string(f, m->signature);
    fputs(",\n  \"stage\": ", f);
    json_string(f, m->stage);
    fputs(",\n  \"detail\": ", f);
    json_string(f, m->detail);
    fprintf(f, ",\n  \"campaign_seed\": %llu,\n  \"worker\": %u,\n  \"program\": %llu,\n"
               "  \"generator_seed\": \"0x%016llx\",\n  \"size\": %u,\n  \"swarm\": %s,\n"
               "  \"run_line\": %u,\n  \"reduced\": %s,\n  \"seconds_into_campaign\": %.1f\n}\n",
            (unsigned long long)o->seed, m->worker, (unsigned long long)m->index,
            (unsigned long long)campaign_program_seed(o->seed, m->worker, m->index),
            o->gen.size ? o->gen.size : 100, o->gen.swarm ? "true" : "false", m->run,
            fd->gates_generated ? "true" : "false", fd->at);
    return true;
}

/* DIR/STEM.circ and DIR/STEM.json, STEM the signature's file name, or NAME-2, NAME-3,
 * ... when an earlier run saved that signature; false if no free name */
static bool free_stem(const char *dir, const char *name, char *stem, size_t n)
{
    char circ[4200], json[4200];
    for (unsigned k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(stem, n, "%s/%s", dir, name);
        else
            snprintf(stem, n, "%s/%s-%u", dir, name, k);
        snprintf(circ, sizeof circ, "%s.circ", stem);
        snprintf(json, sizeof json, "%s.json", stem);
        if (access(circ, F_OK) && errno == ENOENT && access(json, F_OK) && errno == ENOENT)
            return true;
    }
    errno = EEXIST;
    return false;
}

/* write STEM.circ then STEM.json, never replacing a file; NULL when both were saved,
 * else the file that was not (its reason in errno) */
static const char *write_finding(Parent *p, Finding *fd, const char *stem)
{
    static const char *const exts[2] = {"circ", "json"};
    bool (*const fills[2])(FILE *, void *) = {fill_circ, fill_json};
    for (int k = 0; k < 2; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s.%s", stem, exts[k]);
        if (!atomic_write_file(&p->writer, path, AW_NO_REPLACE, fills[k], fd))
            return exts[k];
    }
    return NULL;
}

/* the new finding's program, reduced first with --reduce */
static Module *finding_program(Parent *p, const Msg *m, uint32_t *gates_generated)
{
    const CampaignOptions *o = p->o;
    Module *mod = campaign_program(o, m->worker, m->index);
    *gates_generated = 0;
    if (!o->reduce || !o->reducer)
        return mod;
    double left = 0;
    if (o->seconds > 0) /* keep to the campaign's time limit */
        left = o->seconds - elapsed(p) > 0.5 ? o->seconds - elapsed(p) : 0.5;
    Module *r = o->reducer(mod, m->signature, &o->check, left, o->reducer_ctx);
    if (!r)
        return mod;
    *gates_generated = reduce_gate_count(mod);
    module_free(mod);
    return r;
}

static void save_finding(Parent *p, const Msg *m, double at)
{
    const CampaignOptions *o = p->o;
    Finding fd = {.o = o, .m = m, .at = at};
    Module *mod = finding_program(p, m, &fd.gates_generated);
    check_tv_add_runline(&mod, m->signature, m->detail, fd.gates_generated ? &o->check : NULL);
    fd.mod = mod;
    char name[160], stem[4096];
    check_signature_filename(m->signature, name, sizeof name);
    const char *failed = "circ";
    if (free_stem(o->out_dir, name, stem, sizeof stem))
        failed = write_finding(p, &fd, stem);
    else
        snprintf(stem, sizeof stem, "%s/%s", o->out_dir, name);
    int err = errno;
    char circ[4200];
    snprintf(circ, sizeof circ, "%s.circ", stem);
    ReportFinding rf = {m->signature, m->stage, m->detail, m->worker, m->index,
                        campaign_program_seed(o->seed, m->worker, m->index), at,
                        failed && strcmp(failed, "json") ? NULL : circ, mod, fd.gates_generated};
    campaign_report_finding(p->report, &rf);
    module_free(mod);
    if (failed)
        p->st->unsaved++;
    if (!p->status)
        return;
    const char *clear = p->tty ? "\r\033[K" : "";
    if (!failed)
        fprintf(p->status, "%snew finding %s -> %s.circ\n", clear, m->signature, stem);
    else if (!strcmp(failed, "json"))
        fprintf(p->status, "%snew finding %s -> %s.circ, but %s.json NOT SAVED: %s\n", clear, m->signature, stem,
                stem, strerror(err));
    else
        fprintf(p->status, "%snew finding %s NOT SAVED: cannot write %s.%s: %s\n", clear, m->signature, stem, failed,
                strerror(err));
}

static void record_finding(Parent *p, const Msg *m)
{
    CampaignStats *st = p->st;
    st->mismatches++;
    if (!strncmp(m->signature, "crash:", 6))
        st->crashes++;
    else if (!strcmp(m->signature, "hang"))
        st->hangs++;
    campaign_report_mismatch(p->report, m->signature);
    if (seen_signature(p, m->signature))
        return;
    st->signatures++;
    double at = elapsed(p);
    if (st->signatures == 1) {
        snprintf(st->first_signature, sizeof st->first_signature, "%s", m->signature);
        st->first_finding_at = at;
    }
    save_finding(p, m, at);
    if (p->o->stop_on_mismatch)
        p->stopping = true;
}

/* the workers' running totals into the campaign's statistics */
static void collect_tallies(Parent *p)
{
    CampaignStats *st = p->st;
    st->programs = st->execs = st->runs = 0;
    memset(st->outcome_kinds, 0, sizeof st->outcome_kinds);
    memset(st->worker_seconds, 0, sizeof st->worker_seconds);
    memset(st->check_phases, 0, sizeof st->check_phases);
    memset(&st->tv, 0, sizeof st->tv);
    for (uint32_t i = 0; i < p->o->jobs; i++) {
        const Msg *m = &p->shared[i].tally;
        st->programs += m->programs;
        st->execs += m->execs;
        st->runs += m->runs;
        for (int k = 0; k < 5; k++)
            st->outcome_kinds[k] += m->outcome_kinds[k];
        for (int k = 0; k < 3; k++)
            st->worker_seconds[k] += m->seconds[k];
        for (int k = 0; k < PHASE_COUNT; k++)
            st->check_phases[k] += m->phases[k];
        check_tv_tally_add(&st->tv, &m->tv);
    }
}

/* ---- worker supervision ------------------------------------------------------------ */
/* read what is in worker i's pipe; false at end of file */
static bool drain(Parent *p, uint32_t i)
{
    Msg m;
    size_t have = 0;
    for (;;) {
        ssize_t k = read(p->w[i].fd, (char *)&m + have, sizeof m - have);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        have += (size_t)k;
        if (have < sizeof m)
            continue;
        if (m.type == MSG_FINDING)
            record_finding(p, &m);
        return true;
    }
}

static void finding_for_death(Parent *p, uint32_t i, const char *sig, const char *detail)
{
    Msg m = {.type = MSG_FINDING, .worker = i, .index = p->shared[i].current};
    snprintf(m.signature, sizeof m.signature, "%s", sig);
    snprintf(m.stage, sizeof m.stage, "worker");
    snprintf(m.detail, sizeof m.detail, "%s", detail);
    p->shared[i].tally.programs++; /* the program it died on was checked, if not to the end */
    record_finding(p, &m);
}

/* start worker i again after the program it died on, unless that was its last */
static void restart(Parent *p, uint32_t i)
{
    uint64_t next = p->shared[i].current + 1;
    if (p->stopping || next >= campaign_share(p->o, i))
        return;
    if (!spawn(p, i, next) && p->status)
        fprintf(p->status, "\ncirc fuzz: cannot restart worker %u\n", i);
}

/* worker i's pipe closed: reap it; a death that was not asked for is a finding and
 * the worker is restarted after the program it died on */
static void worker_ended(Parent *p, uint32_t i)
{
    close(p->w[i].fd);
    p->w[i].fd = -1;
    int ws = 0;
    while (waitpid(p->w[i].pid, &ws, 0) < 0 && errno == EINTR)
        ;
    p->w[i].exited = true;
    bool clean = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    if (clean && (p->shared[i].stop || p->shared[i].finished))
        return;
    if (clean && p->shared[i].retired) { /* its worker_programs checked */
        restart(p, i);
        return;
    }
    char sig[64], detail[128];
    if (WIFSIGNALED(ws)) {
        const char *name = sigabbrev_np(WTERMSIG(ws));
        snprintf(sig, sizeof sig, "crash:SIG%s", name ? name : "UNKNOWN");
        snprintf(detail, sizeof detail, "the worker died of signal %d", WTERMSIG(ws));
    } else {
        snprintf(sig, sizeof sig, "crash:exit%d", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
        snprintf(detail, sizeof detail, "the worker exited with status %d", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    }
    if (p->shared[i].stop && p->shared[i].started_ns == 0)
        return; /* stopped between programs */
    finding_for_death(p, i, sig, detail);
    restart(p, i);
}

static void check_hangs(Parent *p)
{
    int64_t now = now_ns();
    for (uint32_t i = 0; i < p->o->jobs; i++) {
        int64_t s = p->shared[i].started_ns;
        if (p->w[i].fd < 0 || !s || (double)(now - s) * 1e-9 < p->o->hang_seconds)
            continue;
        kill(p->w[i].pid, SIGKILL);
        while (drain(p, i))
            ;
        close(p->w[i].fd);
        p->w[i].fd = -1;
        waitpid(p->w[i].pid, NULL, 0);
        char detail[128];
        snprintf(detail, sizeof detail, "one program was checked for more than %.0f s", p->o->hang_seconds);
        finding_for_death(p, i, "hang", detail);
        restart(p, i);
    }
}

/* ---- status ------------------------------------------------------------------------- */
static void format_status(const Parent *p, char *buf, size_t n)
{
    const CampaignStats *st = p->st;
    double t = elapsed(p);
    uint64_t runs = st->runs ? st->runs : 1;
    snprintf(buf, n,
             "[%02d:%02d:%02d] programs %llu  execs/s %.0f  return %.0f%% trap %.0f%% throw %.0f%% "
             "timeout %.1f%% invalid %.1f%%  mismatches %llu  signatures %llu",
             (int)(t / 3600), (int)(t / 60) % 60, (int)t % 60, (unsigned long long)st->programs,
             t > 0 ? (double)st->execs / t : 0.0, 100.0 * (double)st->outcome_kinds[OUT_RETURN] / (double)runs,
             100.0 * (double)st->outcome_kinds[OUT_TRAP] / (double)runs,
             100.0 * (double)st->outcome_kinds[OUT_THROW] / (double)runs,
             100.0 * (double)st->outcome_kinds[OUT_TIMEOUT] / (double)runs,
             100.0 * (double)st->outcome_kinds[OUT_INVALID] / (double)runs, (unsigned long long)st->mismatches,
             (unsigned long long)st->signatures);
    const CheckTvTally *tv = &st->tv;
    size_t k = strlen(buf);
    if (p->o->check.tv && k < n)
        snprintf(buf + k, n - k, "  tv proved %llu refuted %llu unknown %llu",
                 (unsigned long long)(tv->proved + tv->proved_upto), (unsigned long long)tv->refuted,
                 (unsigned long long)tv->unknown);
}

static void show_status(Parent *p, bool force)
{
    if (!p->status)
        return;
    double t = elapsed(p), every = p->tty ? 0.25 : p->o->status_interval;
    if (!force && t - p->last_status < every)
        return;
    p->last_status = t;
    char line[512];
    format_status(p, line, sizeof line);
    progress_draw(p->status, p->tty, line);
}

/* ---- the parent's loop ---------------------------------------------------------------- */
static uint32_t poll_workers(Parent *p, int timeout_ms)
{
    struct pollfd pf[MAX_JOBS];
    uint32_t idx[MAX_JOBS], n = 0;
    for (uint32_t i = 0; i < p->o->jobs; i++)
        if (p->w[i].fd >= 0) {
            pf[n] = (struct pollfd){.fd = p->w[i].fd, .events = POLLIN};
            idx[n++] = i;
        }
    if (!n)
        return 0;
    if (poll(pf, n, timeout_ms) > 0)
        for (uint32_t k = 0; k < n; k++)
            if ((pf[k].revents & (POLLIN | POLLHUP | POLLERR)) && !drain(p, idx[k]))
                worker_ended(p, idx[k]);
    return n;
}

static bool interrupted(void)
{
    sigset_t pending;
    sigpending(&pending);
    return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM);
}

/* how long stopping workers may take to finish the program they are checking: twice
 * the mean time of a program so far (the workers' CPU time over the programs they
 * finished: at least 0.25 s, at most 10 s and --hang-seconds), so a time limit ends
 * within about one program's check time */
static double stop_grace(Parent *p)
{
    collect_tallies(p);
    const double *cpu = p->st->worker_seconds;
    double mean = p->st->programs ? (cpu[0] + cpu[1] + cpu[2]) / (double)p->st->programs : 1.0;
    double grace = 2 * mean < 0.25 ? 0.25 : 2 * mean;
    if (grace > 10)
        grace = 10;
    return grace < p->o->hang_seconds ? grace : p->o->hang_seconds;
}

static void stop_workers(Parent *p)
{
    for (uint32_t i = 0; i < p->o->jobs; i++)
        p->shared[i].stop = 1;
    double grace = stop_grace(p);
    int64_t deadline = now_ns() + (int64_t)(grace * 1e9);
    while (poll_workers(p, 100) && now_ns() < deadline)
        ;
    for (uint32_t i = 0; i < p->o->jobs; i++)
        if (p->w[i].fd >= 0) {
            kill(p->w[i].pid, SIGKILL);
            while (drain(p, i))
                ;
            close(p->w[i].fd);
            p->w[i].fd = -1;
            waitpid(p->w[i].pid, NULL, 0);
        }
}

static void run_loop(Parent *p)
{
    while (!p->stopping) {
        if (!poll_workers(p, 50))
            break; /* every worker checked its share of --max-programs */
        check_hangs(p);
        collect_tallies(p);
        show_status(p, false);
        campaign_report_tick(p->report, p->st, elapsed(p));
        if ((p->o->seconds > 0 && elapsed(p) >= p->o->seconds) || interrupted())
            p->stopping = true;
    }
    stop_workers(p);
}

/* what the C stages cost: their share of the workers' time per program, and the
 * campaign's programs/s per job with and without them */
static void print_c_cost(FILE *out, const CampaignStats *st, const CampaignOptions *o)
{
    double c = st->check_phases[PHASE_C], busy = st->elapsed * o->jobs;
    if (o->check.no_c || c <= 0 || busy <= c || !st->programs)
        return;
    double n = (double)st->programs, every = o->check.c_every > 1 ? o->check.c_every : 1;
    fprintf(out, "C stages: %.1f ms a program of the campaign (about %.0f ms a program they check, one in %.0f); "
                 "programs/s per job %.1f with them, %.1f without\n",
            1e3 * c / n, 1e3 * c * every / n, every, n / busy, n / (busy - c));
}

void campaign_print_phases(FILE *out, const double *phases)
{
    double total = 0;
    for (int k = 0; k < PHASE_COUNT; k++)
        total += phases[k];
    if (total <= 0)
        return;
    fprintf(out, "check time:");
    for (int k = 0; k < PHASE_COUNT; k++)
        fprintf(out, "%s %s %.0f%%", k ? "," : "", check_phase_names[k], 100 * phases[k] / total);
    fputc('\n', out);
}

/* the workers' machine-level coverage: the never-hit count, the table in the
 * findings folder */
static void sum_mcov(Parent *p)
{
    MachCovTable *t = calloc(1, sizeof *t);
    if (!t)
        return;
    for (uint32_t i = 0; i < p->o->jobs; i++)
        mcov_table_add(t, &p->shared[i].mcov);
    p->st->mcov = mcov_table_unhit(t, NULL);
    p->st->mcov_written = t->nslots && mcov_table_write(t, p->o->out_dir);
    free(t);
}

static void print_mcov(Parent *p)
{
    if (!p->st->mcov.items)
        return;
    fprintf(p->status, "machine coverage: ");
    mcov_totals_print(p->status, p->st->mcov);
    fprintf(p->status, "%s%s%s\n", p->st->mcov_written ? "; table: " : "", p->st->mcov_written ? p->o->out_dir : "",
            p->st->mcov_written ? "/machine-coverage.txt" : "");
}

static void summary(Parent *p)
{
    CampaignStats *st = p->st;
    collect_tallies(p);
    sum_mcov(p);
    st->elapsed = elapsed(p);
    st->execs_per_sec = st->elapsed > 0 ? (double)st->execs / st->elapsed : 0;
    if (!p->status)
        return;
    show_status(p, true);
    if (p->tty)
        fputc('\n', p->status);
    double cpu = st->worker_seconds[0] + st->worker_seconds[1] + st->worker_seconds[2];
    if (cpu > 0)
        fprintf(p->status, "worker CPU: generate %.0f%%, run lines (oracle) %.0f%%, check %.0f%%\n",
                100 * st->worker_seconds[0] / cpu, 100 * st->worker_seconds[1] / cpu,
                100 * st->worker_seconds[2] / cpu);
    campaign_print_phases(p->status, st->check_phases);
    if (p->o->check.tv)
        check_tv_print_tally(p->status, "", &st->tv);
    print_c_cost(p->status, st, p->o);
    char stages[512];
    check_machine_stage_names(&p->o->check, stages, sizeof stages);
    fprintf(p->status, "machine-code stages: %s\n", stages[0] ? stages : "none");
    print_mcov(p);
    double per_job = st->elapsed > 0 ? (double)st->programs / st->elapsed / p->o->jobs : 0;
    fprintf(p->status, "done: %.1f s, %u job%s, %llu programs (%.0f/s per job), %llu mismatches (%llu signatures, "
                       "%llu crashes, %llu hangs), %.0f execs/s per job, %.0f execs/s\n",
            st->elapsed, p->o->jobs, p->o->jobs == 1 ? "" : "s", (unsigned long long)st->programs, per_job,
            (unsigned long long)st->mismatches, (unsigned long long)st->signatures,
            (unsigned long long)st->crashes, (unsigned long long)st->hangs,
            st->execs_per_sec / p->o->jobs, st->execs_per_sec);
}

static bool start_workers(Parent *p)
{
    for (uint32_t i = 0; i < p->o->jobs; i++)
        p->w[i].fd = -1;
    for (uint32_t i = 0; i < p->o->jobs; i++)
        if (campaign_share(p->o, i) && !spawn(p, i, 0))
            return false;
    return true;
}

/* check the findings folder (create it if missing) and lock it for this campaign;
 * false with the reason printed */
static bool claim_out_dir(Parent *p, FILE *status)
{
    const char *dir = p->o->out_dir;
    char lock[4200];
    struct stat sb;
    const char *why = NULL;
    if (!dir || !*dir)
        why = "no folder named";
    else if (!(p->made_dir = mkdir(dir, 0777) == 0) && errno != EEXIST)
        why = strerror(errno);
    else if (stat(dir, &sb))
        why = strerror(errno);
    else if (!S_ISDIR(sb.st_mode))
        why = "not a directory";
    else if (snprintf(lock, sizeof lock, "%s/.circ-fuzz.lock", dir) >= (int)sizeof lock)
        why = strerror(ENAMETOOLONG);
    else if ((p->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0)
        why = strerror(errno);
    else if (flock(p->lock_fd, LOCK_EX | LOCK_NB))
        why = errno == EWOULDBLOCK ? "another campaign is using it (its lock .circ-fuzz.lock is held)"
                                   : strerror(errno);
    if (why && status)
        fprintf(status, "circ fuzz: cannot use --out '%s': %s\n", dir ? dir : "", why);
    return !why;
}

/* unlock the findings folder; one the campaign made and saved nothing in is removed */
static void release_out_dir(Parent *p)
{
    if (p->made_dir && p->st->signatures == p->st->unsaved) {
        char lock[4200];
        snprintf(lock, sizeof lock, "%s/.circ-fuzz.lock", p->o->out_dir);
        unlink(lock);
        rmdir(p->o->out_dir);
    }
    if (p->lock_fd >= 0)
        close(p->lock_fd);
}

/* the checks before anything starts; false with the reason printed */
static bool campaign_startable(const CampaignOptions *o, FILE *status)
{
    char err[1024];
    if (!o->jobs || o->jobs > MAX_JOBS)
        snprintf(err, sizeof err, "--jobs must be 1..%d", MAX_JOBS);
    else if (check_options_validate(&o->check, err, sizeof err))
        return true;
    if (status)
        fprintf(status, "circ fuzz: %s\n", err);
    return false;
}

int campaign_run(const CampaignOptions *o, CampaignStats *st, FILE *status)
{
    memset(st, 0, sizeof *st);
    if (!campaign_startable(o, status))
        return -1;
    Parent p = {.o = o, .st = st, .status = status, .t0 = now_ns(), .lock_fd = -1};
    if (!claim_out_dir(&p, status) || !campaign_report_open(&p.report, o, status)) {
        release_out_dir(&p);
        return -1;
    }
    atomic_writer_init(&p.writer);
    p.tty = status && (o->status_mode == STATUS_TTY ||
                       (o->status_mode == STATUS_AUTO && isatty(fileno(status))));
    if (o->status_mode == STATUS_NONE)
        p.status = NULL;
    p.shared = mmap(NULL, o->jobs * sizeof *p.shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p.shared == MAP_FAILED) {
        if (status)
            fprintf(status, "circ fuzz: cannot map shared memory: %s\n", strerror(errno));
        release_out_dir(&p);
        return -1;
    }
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);
    int rc = 0;
    if (start_workers(&p))
        run_loop(&p);
    else {
        rc = -1;
        if (status)
            fprintf(status, "circ fuzz: cannot start workers: %s\n", strerror(errno));
        p.stopping = true;
        stop_workers(&p);
    }
    summary(&p);
    st->report_unsaved = !campaign_report_close(p.report, st, p.status);
    if (interrupted()) {
        int sig;
        sigwait(&block, &sig); /* consume the interrupt that ended the campaign */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    munmap(p.shared, o->jobs * sizeof *p.shared);
    release_out_dir(&p);
    for (uint32_t i = 0; i < p.nsigs; i++)
        free(p.sigs[i]);
    free(p.sigs);
    return rc;
}
