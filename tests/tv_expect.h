/* tv_expect.h — what the translation validator's tests share: run a pipeline of
 * (possibly deliberately wrong) passes over a module written as text and expect a
 * verdict for its last changed application; a refutation's run line must parse back
 * with the source, hold on it and fail (or leave other buffer bytes) after the passes.
 * The including test defines its plugin passes as `static const PassInfo
 * test_passes[]` before including this header; needs fuzz/tv.h, oracle/interp.h,
 * tests/swap_sub_pass.h and test_check.h. */
#ifndef CIRC_TESTS_TV_EXPECT_H
#define CIRC_TESTS_TV_EXPECT_H

#include <stdlib.h>
#include <string.h>

/* the pipeline of passes named by ctx, with swap-sub and the including test's
 * test_passes registered */
static PassManager *make_pm(const PassOptions *opt, void *ctx)
{
    PassManager *pm = pm_new(opt);
    pass_register(pm, &swap_sub_info);
    for (size_t i = 0; i < sizeof test_passes / sizeof test_passes[0]; i++)
        pass_register(pm, &test_passes[i]);
    char err[200];
    pm_set_passes(pm, ctx, err, sizeof err);
    return pm;
}

typedef struct {
    TvVerdict last;   /* the last changed application's verdict */
    uint32_t changed;
} Seen;

static void remember(const TvApplication *a, const TvVerdict *v, void *ctx)
{
    Seen *s = ctx;
    if (a->changed)
        s->last = *v, s->changed++;
}

static Module *parse_text(const char *text)
{
    Diag d;
    diag_init(&d, "<tv test>", stderr);
    return parse_module("<tv test>", text, strlen(text), &d);
}

/* the verdict's run line, parsed with the source text: it must hold on the source, and
 * after the pipeline fail or leave other bytes in the buffer */
static void check_run_line(const char *src, const char *passes, const TvVerdict *v)
{
    char *text = malloc(strlen(src) + sizeof v->detail + 2);
    const char *after = strstr(v->detail, " (after the pass:");
    int n = after ? (int)(after - v->detail) : (int)strlen(v->detail);
    sprintf(text, "%s%.*s\n", src, n, v->detail);
    Module *m = parse_text(text);
    CHECK(m && m->nruns == 1, "the run line of '%s' does not parse", v->detail);
    if (m && m->nruns == 1) {
        uint64_t args[64];
        Outcome *o = malloc(sizeof *o);
        Outcome *after = malloc(sizeof *after);
        char why[200];
        runline_args(&m->runs[0], args);
        interp_run(m, m->runs[0].func, args, NULL, o);
        CHECK(outcome_matches(o, &m->runs[0].expect), "the run line fails on the source: %s", v->detail);
        PassManager *pm = make_pm(&(PassOptions){.bisect_limit = -1}, (void *)passes);
        pm_run(pm, m);
        pm_free(pm);
        interp_run(m, m->runs[0].func, args, NULL, after);
        /* the difference: the expectation (the source's result), or the final buffer */
        CHECK(!outcome_matches(after, &m->runs[0].expect) || !outcome_equal(o, after, why, sizeof why),
              "the run line shows no difference after %s: %s", passes, v->detail);
        free(o);
        free(after);
    }
    module_free(m);
    free(text);
}

/* the verdict of the last application that changed src's function under passes
 * (false, a failure counted, when src does not parse or nothing changed) */
static bool last_verdict(const char *src, const char *passes, const char *what, TvVerdict *last)
{
    Module *m = parse_text(src);
    CHECK(m != NULL, "%s: the source does not parse", what);
    if (!m)
        return false;
    Seen seen = {.changed = 0};
    TvSummary *sum = malloc(sizeof *sum);
    char err[200];
    tv_pipeline(m, make_pm, (void *)passes, NULL, remember, &seen, sum, err, sizeof err);
    CHECK(seen.changed > 0, "%s: %s changed nothing", what, passes);
    *last = seen.last;
    CHECK(last->seconds < 10, "%s: %.1f s", what, last->seconds);
    printf("%-40s %s %s [%.3f s]\n", what, tv_verdict_name(last->kind), last->detail, last->seconds);
    free(sum);
    module_free(m);
    return seen.changed > 0;
}

static void expect(const char *src, const char *passes, TvVerdictKind want, const char *what)
{
    TvVerdict v;
    if (!last_verdict(src, passes, what, &v))
        return;
    CHECK(v.kind == want, "%s: %s, want %s (%s)", what, tv_verdict_name(v.kind), tv_verdict_name(want), v.detail);
    if (want == TV_REFUTED && v.kind == TV_REFUTED)
        check_run_line(src, passes, &v);
}

#endif
