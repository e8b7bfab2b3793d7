/* reduce.c — the reducer's core: the fixpoint over the strategies of reduce_edits.c,
 * ddmin chunking (halving chunk sizes over each strategy's units), candidate
 * preparation (verify, cleanup, verify, refresh run lines, must be smaller) and
 * batched testing in forked workers (each its own process group) under a
 * per-candidate timeout, the overall deadline and the caller's stop flag.  A batch holds
 * consecutive candidates in one fixed order and the first interesting one wins, so
 * the result does not depend on the number of jobs. */
#include "fuzz/reduce_internal.h"
#include "compiler/opt/opt.h"
#include "fuzz/gen.h"
#include "fuzz/progress.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_JOBS = 64 };

/* what "smaller" means, compared in this order */
typedef struct {
    uint32_t gates, funcs, params, runs;
    uint64_t weight; /* constants, run-line arguments and types: toward 0, 1, -1, narrow */
    uint64_t wiring; /* UINT64_MAX - the sum of the ranks (positions among the live
                        gates) of data inputs: rewiring toward later gates */
} Metric;

typedef struct {
    const ReduceOptions *opt;
    ReduceStats *st;
    FILE *null;
    uint64_t steps;
    double start;
    Module *cur;
    Metric metric;
    uint32_t jobs;
    Progress progress;
    const char *last_step;  /* the strategy of the last step kept (progress) */
} Reducer;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void units_push(UnitList *l, uint32_t func, GateId gate, uint32_t aux)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        Unit *v = realloc(l->v, l->cap * sizeof *v);
        if (!v)
            abort();
        l->v = v;
    }
    l->v[l->n++] = (Unit){func, gate, aux};
}

uint32_t reduce_gate_count(const Module *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        n += circ_live_count(m->funcs[i]->circ);
    return n;
}

/* ---- the size measure ---------------------------------------------------------- */
static uint64_t bits_cost(Type t, uint64_t bits)
{
    if (ty_is_float(t)) {
        double d;
        if (t == TY_F32) {
            float f;
            uint32_t u = (uint32_t)bits;
            memcpy(&f, &u, 4);
            d = f;
        } else {
            memcpy(&d, &bits, 8);
        }
        if (d == 0.0 && !(bits >> (ty_bits(t) - 1)))
            return 0;
        if (d == 1.0)
            return 1;
        if (d == -1.0)
            return 2;
        return 3 + (uint64_t)__builtin_popcountll(bits);
    }
    uint64_t mask = ty_mask(t);
    bits &= mask;
    if (bits == 0)
        return 0;
    if (bits == 1)
        return 1;
    if (bits == mask)
        return 2;
    int64_t s = ty_sext(t, bits);
    uint64_t mag = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
    return 3 + 2 * (uint64_t)(64 - __builtin_clzll(mag)) + (s < 0);
}

static Metric measure(const Module *m)
{
    Metric r = {reduce_gate_count(m), m->nfuncs, 0, m->nruns, 0, UINT64_MAX};
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const Func *f = m->funcs[i];
        r.params += f->nparams;
        const Circuit *c = f->circ;
        uint32_t *rank = calloc(c->ngates, sizeof *rank);
        if (!rank)
            abort();
        for (GateId g = NUM_ROOTS, n = 0; g < c->ngates; g++)
            rank[g] = c->gates[g].dead ? 0 : n++;
        for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
            const Gate *gt = &c->gates[g];
            if (gt->dead)
                continue;
            r.weight += (uint64_t)ty_bits(gt->type);
            for (uint32_t k = 0; k < gt->ndata; k++)
                if (gate_data(gt, k) < c->ngates)
                    r.wiring -= rank[gate_data(gt, k)];
            if (gt->op == OP_CONSTANT)
                r.weight += bits_cost(gt->type, gt->lit);
        }
        free(rank);
    }
    for (uint32_t i = 0; i < m->nruns; i++) {
        const RunLine *rl = &m->runs[i];
        const Func *f = rl->func < m->nfuncs ? m->funcs[rl->func] : NULL;
        for (uint32_t a = 0; a < rl->nargs; a++)
            if (rl->args[a].kind != RA_HEAP && f && a < f->nparams)
                r.weight += bits_cost(f->params[a], rl->args[a].bits);
    }
    return r;
}

/* components: 5 compares the size only, 6 also the wiring */
static int metric_cmp(const Metric *a, const Metric *b, int components)
{
    const uint64_t x[6] = {a->gates, a->funcs, a->params, a->runs, a->weight, a->wiring};
    const uint64_t y[6] = {b->gates, b->funcs, b->params, b->runs, b->weight, b->wiring};
    for (int i = 0; i < components; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* ---- run lines ----------------------------------------------------------------- */
void reduce_refresh_runs(Module *m, uint64_t steps)
{
    InterpOptions io = {.max_steps = steps};
    Outcome *o = malloc(sizeof *o);
    if (!o)
        abort();
    uint32_t kept = 0;
    for (uint32_t i = 0; i < m->nruns; i++) {
        RunLine *r = &m->runs[i];
        bool keep = false;
        if (r->func < m->nfuncs && r->nargs == m->funcs[r->func]->nparams) {
            uint64_t *args = calloc(r->nargs + 1, sizeof *args);
            if (!args)
                abort();
            runline_args(r, args);
            interp_run(m, r->func, args, &io, o);
            free(args);
            RunExpect e;
            if (gen_expect_from_outcome(o, &e)) {
                r->expect = e;
                keep = true;
            }
        }
        if (keep)
            m->runs[kept++] = *r;
    }
    m->nruns = kept;
    free(o);
}

/* the most interpreter steps any run line of m takes (default budget) */
static uint64_t max_run_steps(const Module *m)
{
    uint64_t most = 0;
    Outcome *o = malloc(sizeof *o);
    if (!o)
        abort();
    for (uint32_t i = 0; i < m->nruns; i++) {
        const RunLine *r = &m->runs[i];
        if (r->func >= m->nfuncs || r->nargs > 64)
            continue;
        uint64_t args[64] = {0};
        runline_args(r, args);
        interp_run(m, r->func, args, NULL, o);
        if (o->steps > most)
            most = o->steps;
    }
    free(o);
    return most;
}

uint64_t reduce_step_budget(const Module *m)
{
    return 8 * max_run_steps(m) + 100000;
}

/* ---- candidates ---------------------------------------------------------------- */
static bool run_passes(Module *m, const char *passes)
{
    PassOptions po = {.bisect_limit = -1, .log = NULL};
    PassManager *pm = pm_new(&po);
    char err[120];
    bool ok = pm_set_passes(pm, passes, err, sizeof err) && pm_run(pm, m) == 0;
    pm_free(pm);
    return ok;
}

static bool valid(Reducer *r, const Module *m)
{
    Diag d;
    diag_init(&d, m->file ? m->file : "<candidate>", r->null);
    return verify_module(m, &d) == 0;
}

/* verify, clean up, verify, refresh the run lines; NULL unless valid and smaller */
static Module *prepare(Reducer *r, Module *cand, const Strategy *s)
{
    if (!valid(r, cand)) {
        module_free(cand);
        return NULL;
    }
    if (s->cleanup != CLEAN_NONE) {
        const char *passes = s->cleanup == CLEAN_CFG ? "simplify-cfg,dce" : "dce";
        if (!run_passes(cand, passes) || !valid(r, cand)) {
            module_free(cand);
            return NULL;
        }
    }
    reduce_refresh_runs(cand, r->steps);
    Metric mt = measure(cand);
    if (metric_cmp(&mt, &r->metric, s->rewires ? 6 : 5) >= 0) {
        module_free(cand);
        return NULL;
    }
    return cand;
}

/* ---- testing ------------------------------------------------------------------- */
static bool stop_raised(const Reducer *r) { return r->opt->stop && *r->opt->stop; }

/* tests run in forked workers when anything may have to kill them */
static bool tests_forked(const Reducer *r)
{
    const ReduceOptions *o = r->opt;
    return r->jobs > 1 || o->timeout > 0 || o->max_seconds > 0 || o->stop;
}

/* a worker leading its own process group, testing cand; -1 if fork failed */
static pid_t start_test(Reducer *r, const Module *cand)
{
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        _exit(r->opt->interesting(r->opt->ctx, cand) ? 0 : 1);
    }
    if (pid > 0)
        setpgid(pid, pid); /* also here, so that a kill right away finds the group */
    return pid;
}

/* when the running tests are killed: the candidate's timeout or the overall deadline */
static double kill_time(const Reducer *r)
{
    double t = r->opt->timeout > 0 ? now_seconds() + r->opt->timeout : 1e300;
    if (r->opt->max_seconds > 0 && r->start + r->opt->max_seconds < t)
        t = r->start + r->opt->max_seconds;
    return t;
}

/* kill the groups of the workers still running (status -2); their status becomes -1 */
static void kill_running(const pid_t *pid, int *status, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (pid[i] > 0 && status[i] == -2) {
            kill(-pid[i], SIGKILL);
            waitpid(pid[i], NULL, 0);
            status[i] = -1;
        }
}

/* reap the workers that ended (their wait status into status[i]); how many still run */
static uint32_t reap_ended(const pid_t *pid, int *status, uint32_t n)
{
    uint32_t left = 0;
    for (uint32_t i = 0; i < n; i++) {
        int ws;
        if (pid[i] <= 0 || status[i] != -2)
            continue;
        if (waitpid(pid[i], &ws, WNOHANG) == pid[i])
            status[i] = ws;
        else
            left++;
    }
    return left;
}

/* reap the workers of pid[0..n) as they end; at kill_at (a test not reaped by then is
 * too slow, even if it just ended) or when the stop flag is raised, kill the groups
 * still running */
static void wait_tests(Reducer *r, const pid_t *pid, int *status, uint32_t n, double kill_at)
{
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    for (;;) {
        double now = now_seconds();
        if (now >= kill_at || stop_raised(r)) {
            kill_running(pid, status, n);
            break;
        }
        if (!reap_ended(pid, status, n))
            break;
        double wait = kill_at - now < 0.05 ? kill_at - now : 0.05;
        struct timespec ts = {0, (long)(wait * 1e9)};
        sigtimedwait(&chld, NULL, &ts); /* a child's end, a signal or the nap */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* test cands[0..n) in this process; index of the first interesting one, or -1 */
static int test_here(Reducer *r, Module **cands, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (r->opt->interesting(r->opt->ctx, cands[i])) {
            r->st->tried -= n - 1 - i;
            return (int)i;
        }
    return -1;
}

/* test cands[0..n); index of the first interesting one, or -1 */
/* the progress line: size, candidates tried, time, the last step kept */
static void show_progress(Reducer *r)
{
    progress_update(&r->progress, false, "reduce: %u gates, %llu candidates tried, %.1fs (%s)", r->metric.gates,
                    (unsigned long long)r->st->tried, now_seconds() - r->start, r->last_step ? r->last_step : "start");
}

static int test_batch(Reducer *r, Module **cands, uint32_t n)
{
    r->st->tried += n;
    show_progress(r);
    if (!tests_forked(r))
        return test_here(r, cands, n);
    pid_t pid[MAX_JOBS];
    int status[MAX_JOBS];
    double kill_at = kill_time(r);
    fflush(NULL);
    for (uint32_t i = 0; i < n; i++) {
        pid[i] = stop_raised(r) ? -1 : start_test(r, cands[i]);
        status[i] = -2;
    }
    wait_tests(r, pid, status, n, kill_at);
    for (uint32_t i = 0; i < n; i++)
        if (pid[i] > 0 && status[i] >= 0 && WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0)
            return (int)i;
    return -1;
}

int reduce_test_limited(const ReduceOptions *opt, ReduceInteresting fn, void *ctx, const Module *m)
{
    ReduceOptions o = *opt;
    o.interesting = fn;
    o.ctx = ctx;
    ReduceStats st = {0};
    Reducer r = {.opt = &o, .st = &st, .start = now_seconds(), .jobs = 1};
    fflush(NULL);
    pid_t pid = start_test(&r, m);
    int status = -2;
    if (pid > 0)
        wait_tests(&r, &pid, &status, 1, kill_time(&r));
    if (status < 0)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the driver loop ----------------------------------------------------------- */
static bool out_of_time(Reducer *r)
{
    if (stop_raised(r)) {
        r->st->interrupted = true;
        return true;
    }
    if (r->opt->max_seconds > 0 && now_seconds() - r->start >= r->opt->max_seconds) {
        r->st->timed_out = true;
        return true;
    }
    return false;
}

static void accept(Reducer *r, Module *cand, const Strategy *s)
{
    module_free(r->cur);
    r->cur = cand;
    r->metric = measure(cand);
    r->st->accepted++;
    r->last_step = s->name;
    show_progress(r);
}

/* one chunk size of one variant: returns true if something was accepted */
static bool sweep(Reducer *r, const Strategy *s, const UnitList *u, uint32_t size, uint32_t v)
{
    bool any = false;
    uint32_t i = 0;
    while (i < u->n && !out_of_time(r)) {
        Module *cands[MAX_JOBS];
        uint32_t pos[MAX_JOBS], n = 0;
        while (i < u->n && n < (r->jobs ? r->jobs : 1)) {
            uint32_t len = u->n - i < size ? u->n - i : size;
            Module *c = s->apply(r->cur, u->v + i, len, v);
            if (c && (c = prepare(r, c, s))) {
                pos[n] = i;
                cands[n++] = c;
            }
            i += size;
        }
        int hit = n ? test_batch(r, cands, n) : -1;
        for (uint32_t k = 0; k < n; k++)
            if ((int)k != hit)
                module_free(cands[k]);
        if (hit >= 0) {
            accept(r, cands[hit], s);
            any = true;
            i = pos[hit] + size;
        }
    }
    return any;
}

static bool run_strategy(Reducer *r, const Strategy *s)
{
    bool any = false;
    for (uint32_t v = s->vfirst; v < s->vend && !out_of_time(r); v++) {
        UnitList u = {0};
        s->units(r->cur, &u);
        uint32_t size = 1;
        if (s->chunked)
            while (size * 2 <= u.n)
                size *= 2;
        for (; size >= 1 && !out_of_time(r); size /= 2) {
            if (sweep(r, s, &u, size, v)) {
                any = true;
                /* gate ids survive edits, but function-level units may not */
                free(u.v);
                u = (UnitList){0};
                s->units(r->cur, &u);
            }
        }
        free(u.v);
    }
    return any;
}

static bool round_of(Reducer *r, bool late)
{
    bool changed = false;
    r->st->rounds++;
    for (uint32_t i = 0; i < reduce_nstrategies && !out_of_time(r); i++)
        if (reduce_strategies[i].late == late)
            changed |= run_strategy(r, &reduce_strategies[i]);
    return changed;
}

/* the cheap strategies to their fixpoint, then the costly ones, until neither helps */
static void fixpoint(Reducer *r)
{
    do {
        while (round_of(r, false) && !out_of_time(r))
            ;
    } while (!out_of_time(r) && round_of(r, true));
}

Module *reduce_module(const Module *m, const ReduceOptions *opt, ReduceStats *stats)
{
    ReduceStats local;
    ReduceStats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    Reducer r = {.opt = opt, .st = st, .start = now_seconds()};
    r.jobs = opt->jobs > MAX_JOBS ? MAX_JOBS : opt->jobs;
    r.null = fopen("/dev/null", "w");
    progress_init(&r.progress, opt->progress, PROGRESS_AUTO, opt->progress_interval);
    st->gates_before = reduce_gate_count(m);
    r.steps = opt->interp_steps ? opt->interp_steps : reduce_step_budget(m);
    r.cur = module_clone(m);
    reduce_refresh_runs(r.cur, r.steps);
    r.metric = measure(r.cur);
    Module *first = r.cur;
    int hit = test_batch(&r, &first, 1);
    st->input_interesting = hit == 0;
    out_of_time(&r); /* the input's test may have met the deadline or the stop flag */
    if (st->input_interesting) {
        fixpoint(&r);
        Module *compact = reduce_reparse(r.cur);
        if (compact) {
            module_free(r.cur);
            r.cur = compact;
        }
    } else {
        module_free(r.cur);
        r.cur = module_clone(m);
    }
    st->gates_after = reduce_gate_count(r.cur);
    st->seconds = now_seconds() - r.start;
    progress_done(&r.progress);
    if (r.null)
        fclose(r.null);
    return r.cur;
}
