/* check_tv.c — the tv-PASS stages of the differential check (CheckOptions.tv): every
 * pass application is proved with the translation validator (fuzz/tv.h) instead of
 * being sampled by run lines.
 *
 * The stages are one per registered pass (tv-fold, tv-gvn, ..., tv-NAME of each
 * extra pass).  The -O2 pipeline (-O1 when only that level is checked) is walked
 * once per check, one application at a time, on the first tv stage's open; each
 * stage then looks at the verdicts of its own pass's applications.  A pass that the
 * pipeline never applies (an extra pass) is walked alone on the input.  A refuted
 * application (a counterexample the interpreter confirms) fails the stage with the
 * kind `refuted` (signature tv-PASS:refuted, the confirming run line in the detail);
 * an unconfirmed counterexample is an encoding bug, kind `unconfirmed`.  Unknown
 * verdicts are no finding: they are tallied with their reasons (CheckResult.tv). */
#include "fuzz/check_stage.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_TV_PASSES = 64 };

/* what the walks found for one pass */
typedef struct {
    char pass[32];
    bool walked;          /* its applications were validated */
    bool bad;             /* one was refuted or unconfirmed: kind and detail say which */
    TvVerdictKind kind;
    char detail[500];
} TvPassRecord;

typedef struct {
    TvPassRecord rec[MAX_TV_PASSES];
    uint32_t n;
    bool pipeline_walked;
} TvWalk;

/* the pass manager of a walk: the check's extra passes, then the pipeline of level
 * (or the one pass named) */
typedef struct {
    const CheckOptions *opt;
    int level;
    const char *alone;    /* NULL: the pipeline of level */
} TvPipeline;

typedef struct {
    TvWalk *walk;
    CheckTvTally *tally;
    const char *where;    /* "-O2 pipeline", "the pass alone" */
} TvReportCtx;

static void add_tv_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    if (!o->tv || !(levels & (CHECK_O1 | CHECK_O2)))
        return;
    static const char *const builtin[] = {
#define PASS(name, fn, summary) #name,
#include "compiler/opt/passes.def"
#undef PASS
    };
    CheckStage s = {.kind = STAGE_TV, .level = levels & CHECK_O2 ? 2 : 1};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0] + o->nextra_passes; i++) {
        bool extra = i >= sizeof builtin / sizeof builtin[0];
        s.pass = extra ? o->extra_passes[i - sizeof builtin / sizeof builtin[0]].name : builtin[i];
        snprintf(s.name, sizeof s.name, "tv-%s", s.pass);
        check_add_stage(l, o, &s);
    }
}

static PassManager *make_pm(const PassOptions *po, void *ctx)
{
    const TvPipeline *p = ctx;
    PassManager *pm = pm_new(po);
    if (!pm)
        abort();
    for (uint32_t i = 0; i < p->opt->nextra_passes; i++)
        pass_register(pm, &p->opt->extra_passes[i]);
    char err[200];
    if (!p->alone)
        pm_set_level(pm, p->level);
    else if (!pm_set_passes(pm, p->alone, err, sizeof err))
        pm_set_passes(pm, "", err, sizeof err); /* an unknown pass: nothing to validate */
    return pm;
}

static TvPassRecord *record_of(TvWalk *w, const char *pass)
{
    for (uint32_t i = 0; i < w->n; i++)
        if (!strcmp(w->rec[i].pass, pass))
            return &w->rec[i];
    if (w->n == MAX_TV_PASSES)
        return NULL;
    TvPassRecord *r = &w->rec[w->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->pass, sizeof r->pass, "%s", pass);
    return r;
}

static void tally(CheckTvTally *t, const TvApplication *a, const TvVerdict *v)
{
    if (!a->changed) {
        t->unchanged++;
        return;
    }
    switch (v->kind) {
    case TV_PROVED: t->proved++; break;
    case TV_PROVED_UPTO: t->proved_upto++; break;
    case TV_REFUTED: t->refuted++; break;
    case TV_UNCONFIRMED: t->unconfirmed++; break;
    default: t->reasons[v->reason < TVR_COUNT ? v->reason : TVR_UNSUPPORTED]++, t->unknown++; break;
    }
}

/* one application's verdict: tallied, and the first bad one of its pass kept */
static void on_application(const TvApplication *a, const TvVerdict *v, void *ctx)
{
    TvReportCtx *rc = ctx;
    tally(rc->tally, a, v);
    TvPassRecord *r = record_of(rc->walk, a->pass);
    if (!r)
        return;
    r->walked = true;
    if (r->bad || !a->changed || (v->kind != TV_REFUTED && v->kind != TV_UNCONFIRMED))
        return;
    r->bad = true;
    r->kind = v->kind;
    snprintf(r->detail, sizeof r->detail, "%.380s [%.40s, application %llu on @%.40s]", v->detail, rc->where,
             (unsigned long long)a->number, a->func);
}

static void walk(CheckCtx *c, TvWalk *w, int level, const char *alone)
{
    TvPipeline p = {.opt = c->opt, .level = level, .alone = alone};
    char where[64];
    if (alone)
        snprintf(where, sizeof where, "%s alone", alone);
    else
        snprintf(where, sizeof where, "-O%d pipeline", level);
    TvReportCtx rc = {.walk = w, .tally = c->tv_tally, .where = where};
    TvSummary *sum = malloc(sizeof *sum);
    if (!sum)
        abort();
    char err[200];
    tv_pipeline(c->m, make_pm, &p, &c->opt->tv_options, on_application, &rc, sum, err, sizeof err);
    free(sum);
}

static TvWalk *walk_of(CheckCtx *c, int level)
{
    if (!c->tv) {
        c->tv = calloc(1, sizeof(TvWalk));
        if (!c->tv)
            abort();
    }
    TvWalk *w = c->tv;
    if (!w->pipeline_walked) {
        w->pipeline_walked = true;
        walk(c, w, level, NULL);
    }
    return w;
}

static bool open_tv(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    r->unchanged = true; /* no run line goes through a tv stage */
    if (!tv_available()) {
        c->tv_tally->unavailable = true;
        return true;
    }
    TvWalk *w = walk_of(c, s->level);
    TvPassRecord *rec = record_of(w, s->pass);
    if (rec && !rec->walked) {
        rec->walked = true; /* the pipeline does not apply it: validate it alone */
        walk(c, w, s->level, s->pass);
    }
    if (!rec || !rec->bad)
        return true;
    r->fail_kind = rec->kind == TV_REFUTED ? "refuted" : "unconfirmed";
    snprintf(r->detail, sizeof r->detail, "%s", rec->detail);
    return false;
}

static void close_tv(StageRun *r) { (void)r; }

static void finish_tv(CheckCtx *c)
{
    free(c->tv);
    c->tv = NULL;
}

static void run_none(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args,
                     Outcome *out)
{
    (void)c, (void)s, (void)r, (void)func, (void)args, (void)out; /* never called: r->unchanged */
}

const StageOps check_tv_stages = {add_tv_stages, open_tv, run_none, close_tv, finish_tv, PHASE_TV, PHASE_TV};

/* ---- the confirming run line of a finding ----------------------------------------- */
/* the `; run:` line in a tv stage's detail (up to " (after the pass"), into buf */
static bool runline_of(const char *detail, char *buf, size_t n)
{
    const char *p = detail ? strstr(detail, "; run:") : NULL;
    if (!p)
        return false;
    const char *e = strstr(p, " (after the pass");
    size_t len = e ? (size_t)(e - p) : strlen(p);
    snprintf(buf, n, "%.*s", (int)len, p);
    return len < n;
}

/* m with line appended to its text, parsed and verified again; NULL if it does not
 * parse or verify (the run line does not fit m) */
static Module *with_line(const Module *m, const char *line)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    print_module(out, m);
    fprintf(out, "%s\n", line);
    fclose(out);
    Diag d;
    diag_init(&d, m->file ? m->file : "finding", NULL);
    Module *r = parse_module(d.file, text, len, &d);
    free(text);
    if (r && verify_module(r, &d)) {
        module_free(r);
        r = NULL;
    }
    return r;
}

bool check_tv_add_runline(Module **m, const char *signature, const char *detail, const CheckOptions *o)
{
    if (!signature || strncmp(signature, "tv-", 3))
        return false;
    CheckResult *res = NULL;
    if (o) { /* the program changed since the finding (it was reduced): check it again */
        res = malloc(sizeof *res);
        if (!res)
            abort();
        bool same = !check_module(*m, o, res) && !strcmp(res->signature, signature);
        detail = same ? res->detail : NULL;
    }
    char line[512];
    Module *r = runline_of(detail, line, sizeof line) ? with_line(*m, line) : NULL;
    free(res);
    if (!r)
        return false;
    module_free(*m);
    *m = r;
    return true;
}

void check_tv_print_tally(FILE *out, const char *prefix, const CheckTvTally *t)
{
    if (t->unavailable) {
        fprintf(out, "%stv: unavailable (circ was built without Z3): nothing proved\n", prefix);
        return;
    }
    uint64_t checked = t->proved + t->proved_upto + t->refuted + t->unconfirmed + t->unknown;
    fprintf(out, "%stv: %llu proved (%llu up to the loop bound), %llu refuted, %llu unknown (%.1f%%)",
            prefix, (unsigned long long)(t->proved + t->proved_upto), (unsigned long long)t->proved_upto,
            (unsigned long long)t->refuted, (unsigned long long)t->unknown,
            checked ? 100.0 * (double)t->unknown / (double)checked : 0.0);
    if (t->unconfirmed)
        fprintf(out, ", %llu UNCONFIRMED counterexamples", (unsigned long long)t->unconfirmed);
    fprintf(out, "; %llu applications changed nothing\n", (unsigned long long)t->unchanged);
    if (!t->unknown)
        return;
    fprintf(out, "%stv unknown:", prefix);
    tv_print_reasons(out, t->reasons);
    fputc('\n', out);
}

void check_tv_tally_add(CheckTvTally *sum, const CheckTvTally *t)
{
    sum->proved += t->proved, sum->proved_upto += t->proved_upto, sum->refuted += t->refuted;
    sum->unconfirmed += t->unconfirmed, sum->unknown += t->unknown, sum->unchanged += t->unchanged;
    for (int k = 0; k < TVR_COUNT; k++)
        sum->reasons[k] += t->reasons[k];
    sum->unavailable |= t->unavailable;
}
