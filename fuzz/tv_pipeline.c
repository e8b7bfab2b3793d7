/* tv_pipeline.c — validating a pipeline one pass application at a time: the pass
 * manager's --opt-bisect-limit log names every application (number, pass, function);
 * the module after application i is the pipeline run with limit i on a fresh clone
 * (passes are deterministic), and each application that changed its function is
 * checked with tv_check_func against the module after application i-1. */
#include "fuzz/tv.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char pass[64], func[128];
} Application;

/* run the pipeline on a clone of m with at most limit applications; the bisect log
 * in *log (malloc'd) when log is not NULL */
static Module *run_limited(const Module *m, TvMakePm mk, void *mkctx, int64_t limit, char **log)
{
    size_t n = 0;
    char *buf = NULL;
    FILE *out = open_memstream(&buf, &n);
    if (!out)
        abort();
    PassOptions opt = {.bisect_limit = limit, .log = out};
    PassManager *pm = mk(&opt, mkctx);
    Module *c = module_clone(m);
    pm_run(pm, c);
    pm_free(pm);
    fclose(out);
    if (log)
        *log = buf;
    else
        free(buf);
    return c;
}

/* the applications the bisect log lists ("; bisect: running pass (N) NAME on @F") */
static Application *parse_log(const char *log, uint32_t *count)
{
    uint32_t n = 0, cap = 16;
    Application *a = malloc(cap * sizeof *a);
    for (const char *p = log; a && p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        unsigned long long num;
        Application x;
        if (sscanf(p, "; bisect: running pass (%llu) %63s on @%127s", &num, x.pass, x.func) != 3)
            continue;
        if (n == cap)
            a = realloc(a, (cap *= 2) * sizeof *a);
        if (a)
            a[n++] = x;
    }
    if (!a)
        abort();
    *count = n;
    return a;
}

static int32_t func_index(const Module *m, const char *name)
{
    const Func *f = module_find(m, name, strlen(name));
    return f ? (int32_t)f->index : -1;
}

static void tally(TvSummary *sum, const TvVerdict *v, bool changed)
{
    if (!changed) {
        sum->unchanged++;
        return;
    }
    if (sum->ntimes < sizeof sum->seconds / sizeof sum->seconds[0])
        sum->seconds[sum->ntimes++] = v->seconds;
    switch (v->kind) {
    case TV_PROVED: sum->proved++; break;
    case TV_PROVED_UPTO: sum->proved_upto++; break;
    case TV_REFUTED: sum->refuted++; break;
    case TV_UNCONFIRMED: sum->unconfirmed++; break;
    default:
        sum->unknown++;
        sum->reasons[v->reason < TVR_COUNT ? v->reason : TVR_UNSUPPORTED]++;
        break;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* application i (1-based) turned before into after; nothing is proved once the
 * pipeline's time budget (deadline, 0: none) has passed */
static void check_application(const Module *before, const Module *after, const Application *ap, uint64_t i,
                              const TvOptions *opt, double deadline, TvReport report, void *rctx, TvSummary *sum)
{
    int32_t fi = func_index(before, ap->func);
    TvApplication a = {.number = i, .pass = ap->pass, .func = ap->func};
    TvVerdict v = {.kind = TV_UNKNOWN, .reason = TVR_BUDGET};
    a.changed = fi >= 0 && !func_same_body(before->funcs[fi], after->funcs[fi]);
    if (a.changed && deadline > 0 && now() > deadline)
        snprintf(v.detail, sizeof v.detail, "the time budget of the pipeline (%.0f s) was spent", opt->max_seconds);
    else if (a.changed)
        tv_check_func(before, after, (uint32_t)fi, opt, &v);
    tally(sum, &v, a.changed);
    if (report)
        report(&a, &v, rctx);
}

bool tv_pipeline(const Module *m, TvMakePm mk, void *mkctx, const TvOptions *opt, TvReport report,
                 void *rctx, TvSummary *sum, char *err, size_t errn)
{
    char *log = NULL;
    memset(sum, 0, sizeof *sum);
    module_free(run_limited(m, mk, mkctx, INT64_MAX, &log));
    uint32_t n;
    Application *apps = parse_log(log, &n);
    free(log);
    if (!n && err)
        snprintf(err, errn, "the pipeline runs no pass application");
    Module *before = module_clone(m);
    double deadline = opt && opt->max_seconds > 0 ? now() + opt->max_seconds : 0;
    for (uint32_t i = 0; i < n; i++) {
        Module *after = run_limited(m, mk, mkctx, (int64_t)i + 1, NULL);
        check_application(before, after, &apps[i], i + 1, opt, deadline, report, rctx, sum);
        module_free(before);
        before = after;
    }
    module_free(before);
    free(apps);
    return n > 0;
}

const char *tv_verdict_name(TvVerdictKind k)
{
    static const char *const names[] = {"proved", "proved up to K", "refuted", "unconfirmed counterexample", "unknown"};
    return k <= TV_UNKNOWN ? names[k] : "?";
}

const char *tv_reason_name(TvReason r)
{
    static const char *const names[TVR_COUNT] = {
        [TVR_TIMEOUT] = "solver timeout",     [TVR_PATHS] = "too many paths",
        [TVR_UNSUPPORTED] = "unsupported construct", [TVR_FEXP] = "only under the FEXP abstraction",
        [TVR_BUFFER] = "only for other initial buffers", [TVR_SOLVER_ERROR] = "solver error",
        [TVR_UNAVAILABLE] = "built without Z3",   [TVR_BUDGET] = "time budget spent",
    };
    return r < TVR_COUNT ? names[r] : "?";
}

void tv_print_reasons(FILE *out, const uint64_t *reasons)
{
    for (int k = 0, first = 1; k < TVR_COUNT; k++)
        if (reasons[k]) {
            fprintf(out, "%s %s %llu", first ? "" : ",", tv_reason_name((TvReason)k),
                    (unsigned long long)reasons[k]);
            first = 0;
        }
}
