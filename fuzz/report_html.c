/* report_html.c — DIR/report.html (fuzz/report.h): one self-contained page, inline CSS
 * and SVG, no script and no external resource.  Every number shown is formatted as
 * report.json writes it; the totals carry data-key attributes naming their json key
 * ("programs", "mismatches", ...) and each finding data-signature, so tests can read
 * the page back.  While the campaign runs the page asks the browser to reload it
 * every REPORT_INTERVAL seconds (a meta refresh, not a script). */
#include "fuzz/report_internal.h"

#include <stdlib.h>
#include <string.h>

static const char css[] =
    "*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
    "background:#f1f5f9;color:#0f172a}main{max-width:1240px;margin:0 auto;padding:20px 24px 40px}"
    "header{display:flex;align-items:baseline;gap:14px;flex-wrap:wrap}h1{font-size:22px;margin:0}"
    "h2{font-size:16px;margin:0 0 10px}h3{font-size:15px;margin:0;font-family:ui-monospace,monospace}"
    ".badge{padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600;text-transform:uppercase}"
    ".running{background:#fef3c7;color:#92400e}.finished{background:#dcfce7;color:#166534}"
    ".meta{color:#475569;margin:6px 0 16px;font-size:13px}.meta code{background:#e2e8f0;padding:1px 5px;"
    "border-radius:4px}.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(104px,1fr));gap:10px;"
    "margin-bottom:16px}.card{background:#fff;border-radius:10px;padding:10px 14px;box-shadow:0 1px 2px #0f172a14}"
    ".card .label{color:#64748b;font-size:12px}.card .value{font-size:22px;font-weight:650;"
    "font-variant-numeric:tabular-nums}.card.bad .value{color:#dc2626}.grid{display:grid;"
    "grid-template-columns:1fr 1fr;gap:14px;margin-bottom:16px}.panel{background:#fff;border-radius:10px;"
    "padding:14px 16px;box-shadow:0 1px 2px #0f172a14;margin-bottom:14px}.grid .panel{margin:0}"
    "svg.chart{width:100%;height:auto;display:block}svg .grid{stroke:#e2e8f0}svg .axis{stroke:#94a3b8}"
    "svg .tick,svg .unit{font-size:11px;fill:#475569}svg .unit{font-weight:600}"
    "table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}th,td{padding:3px 8px;"
    "text-align:right;border-bottom:1px solid #e2e8f0;font-size:12.5px}th{color:#475569;font-weight:600;"
    "background:#f8fafc;position:sticky;top:0}td:first-child,th:first-child{text-align:left}"
    "td.op{font-family:ui-monospace,monospace}td.l,th.l{text-align:left}tr.missing td{background:#fee2e2}tr.folded td.o2{background:#fef3c7}"
    ".finding{border-left:4px solid #ef4444}.finding dl{display:grid;grid-template-columns:130px 1fr;gap:4px 12px;"
    "margin:10px 0}.finding dt{color:#64748b}.finding dd{margin:0;word-break:break-word}"
    "pre{background:#0f172a;color:#e2e8f0;padding:10px 12px;border-radius:8px;overflow:auto;max-height:340px;"
    "font-size:12px;margin:0}pre.cmd{max-height:none;white-space:pre-wrap}.pic{overflow:auto;max-height:680px;text-align:center;"
    "border:1px solid #e2e8f0;border-radius:8px;padding:6px;background:#fff}svg.graph{max-width:100%;height:auto}"
    ".stack{display:grid;grid-template-columns:minmax(0,1fr);gap:8px}.note{color:#64748b;font-size:12.5px}"
    "footer{color:#64748b;font-size:12px;margin-top:18px}";

void report_html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void head(FILE *f, const CampaignReport *r)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", f);
    if (!r->finished)
        fprintf(f, "<meta http-equiv=\"refresh\" content=\"%d\">\n", REPORT_INTERVAL);
    fprintf(f, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>circ fuzz report (%s)</title>\n<style>%s</style></head>\n<body><main>\n",
            r->finished ? "finished" : "running", css);
}

static void header(FILE *f, const CampaignReport *r)
{
    const CampaignOptions *o = r->o;
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&r->started));
    fprintf(f, "<header><h1>circ fuzz campaign</h1><span class=\"badge %s\" data-key=\"status\">%s</span></header>\n",
            r->finished ? "finished" : "running", r->finished ? "finished" : "running");
    fputs("<p class=\"meta\">", f);
    if (o->report_command) {
        fputs("<code>", f);
        report_html_text(f, o->report_command);
        fputs("</code><br>", f);
    }
    fprintf(f, "started %s &middot; seed %llu &middot; %u job%s &middot; size %u%s%s &middot; findings in <code>",
            when, (unsigned long long)o->seed, o->jobs, o->jobs == 1 ? "" : "s", o->gen.size ? o->gen.size : 100,
            o->gen.swarm ? " &middot; swarm" : "", o->reduce ? " &middot; reduced" : "");
    report_html_text(f, o->out_dir);
    fputs("</code></p>\n", f);
}

static void card(FILE *f, const char *label, const char *key, const char *value, bool bad)
{
    fprintf(f, "<div class=\"card%s\"><div class=\"label\">%s</div>"
               "<div class=\"value\" data-key=\"%s\">%s</div></div>\n",
            bad ? " bad" : "", label, key, value);
}

static void card_u64(FILE *f, const char *label, const char *key, uint64_t v, bool alarm)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    card(f, label, key, buf, alarm && v > 0);
}

/* the totals: each as report.json's summary writes it */
static void cards(FILE *f, const CampaignReport *r)
{
    const CampaignStats *st = &r->st;
    char buf[64];
    fputs("<section class=\"cards\">\n", f);
    snprintf(buf, sizeof buf, "%.1f", st->elapsed);
    card(f, "seconds", "elapsed", buf, false);
    card_u64(f, "programs", "programs", st->programs, false);
    snprintf(buf, sizeof buf, "%.1f", st->elapsed > 0 ? (double)st->programs / st->elapsed : 0.0);
    card(f, "programs/s", "programs_per_sec", buf, false);
    card_u64(f, "execs", "execs", st->execs, false);
    snprintf(buf, sizeof buf, "%.0f", st->execs_per_sec);
    card(f, "execs/s", "execs_per_sec", buf, false);
    card_u64(f, "mismatches", "mismatches", st->mismatches, true);
    card_u64(f, "signatures", "signatures", st->signatures, true);
    card_u64(f, "crashes", "crashes", st->crashes, true);
    card_u64(f, "hangs", "hangs", st->hangs, true);
    card_u64(f, "not saved", "unsaved", st->unsaved, true);
    fputs("</section>\n", f);
}

/* ---- the charts ------------------------------------------------------------------- */
typedef struct {
    double *t, *rate, *found[4], *share[5]; /* found: mismatches, signatures, crashes, hangs */
} Series;

static double mix_total(const Series *s, uint32_t i)
{
    double t = 0;
    for (int k = 0; k < 5; k++)
        t += s->share[k][i];
    return t;
}

/* the points before the first interval with runs show that interval's mix */
static void backfill_mix(Series *s, uint32_t n)
{
    uint32_t first = 0;
    while (first < n && mix_total(s, first) == 0)
        first++;
    for (uint32_t i = 0; i < first && first < n; i++)
        for (int k = 0; k < 5; k++)
            s->share[k][i] = s->share[k][first];
}

static bool series_make(Series *s, const CampaignReport *r)
{
    uint32_t n = r->nsamples;
    double *all = calloc((size_t)n * 11, sizeof *all);
    if (!all)
        return false;
    double **cols[11] = {&s->t,        &s->rate,     &s->found[0], &s->found[1], &s->found[2], &s->found[3],
                         &s->share[0], &s->share[1], &s->share[2], &s->share[3], &s->share[4]};
    for (int c = 0; c < 11; c++)
        *cols[c] = all + (size_t)c * n;
    for (uint32_t i = 0; i < n; i++) {
        const ReportSample *a = &r->samples[i ? i - 1 : 0], *b = &r->samples[i];
        s->t[i] = b->t;
        s->rate[i] = report_rate(a, b);
        const uint64_t found[4] = {b->mismatches, b->signatures, b->crashes, b->hangs};
        for (int k = 0; k < 4; k++)
            s->found[k][i] = (double)found[k];
        double runs = (double)(b->runs - a->runs);
        for (int k = 0; k < 5; k++) { /* an interval without runs keeps the previous mix */
            double d = (double)(b->outcome_kinds[k] - a->outcome_kinds[k]);
            s->share[k][i] = runs > 0 ? d / runs : i ? s->share[k][i - 1] : 0;
        }
    }
    if (n > 1) /* the first point shows the first interval */
        s->rate[0] = s->rate[1];
    backfill_mix(s, n);
    return true;
}

static void panel_open(FILE *f, const char *title, const char *note)
{
    fprintf(f, "<div class=\"panel\"><h2>%s</h2>", title);
    if (note)
        fprintf(f, "<p class=\"note\">%s</p>", note);
    fputc('\n', f);
}

static void time_charts(FILE *f, const CampaignReport *r)
{
    Series s;
    if (!series_make(&s, r))
        return;
    ChartAxes a = {.x = s.t, .n = r->nsamples};
    const char *kinds[5] = {"return", "trap", "throw", "timeout", "invalid"};
    fputs("<section class=\"grid\">\n", f);
    panel_open(f, "Throughput", "programs checked per second, all workers");
    a.name = "throughput", a.y_label = "programs/s";
    svg_line_chart(f, &a, (const double *const[]){s.rate}, (const char *const[]){"programs/s"}, 1);
    fputs("</div>\n", f);
    panel_open(f, "Outcome mix", "the oracle's outcomes of the run lines checked in each interval");
    a.name = "outcomes", a.y_label = "share";
    svg_stack_chart(f, &a, (const double *const *)s.share, kinds, 5);
    fputs("</div>\n", f);
    panel_open(f, "Findings over time",
               "mismatching programs, distinct signatures, workers crashed and hung (among the mismatches), "
               "cumulative");
    a.name = "findings", a.y_label = "count";
    svg_line_chart(f, &a, (const double *const *)s.found,
                   (const char *const[]){"mismatches", "signatures", "crashes", "hangs"}, 4);
    fputs("</div>\n", f);
    free(s.t);
}

static void time_bars(FILE *f, const CampaignReport *r)
{
    const CampaignStats *st = &r->st;
    panel_open(f, "Where the time went", "wall time of the checks by phase (seconds, all workers)");
    svg_bar_chart(f, "check-phases", check_phase_names, st->check_phases, PHASE_COUNT, "s");
    fputs("<p class=\"note\">workers' CPU time: generating, making the run lines (oracle), checking</p>\n", f);
    svg_bar_chart(f, "worker-cpu", (const char *const[]){"generate", "run lines", "check"}, st->worker_seconds, 3,
                  "s");
    fputs("</div>\n</section>\n", f);
}

/* ---- findings ------------------------------------------------------------------------- */
static void finding_row(FILE *f, const ReportEntry *e, uint32_t i)
{
    char at[32];
    if (e->at < 60) /* as report.json's first_seen */
        snprintf(at, sizeof at, "%.1f s", e->at);
    else
        report_duration(at, sizeof at, e->at);
    fprintf(f, "<tr><td class=\"op\"><a href=\"#finding-%u\">", i + 1);
    report_html_text(f, e->signature);
    fputs("</a></td><td class=\"l\">", f);
    report_html_text(f, e->stage);
    fprintf(f, "</td><td>%s</td><td>%llu</td><td>%u</td></tr>\n", at, (unsigned long long)e->hits, e->gates);
}

static void finding_facts(FILE *f, const ReportEntry *e)
{
    fputs("<dl><dt>stage</dt><dd>", f);
    report_html_text(f, e->stage);
    fputs("</dd><dt>what differs</dt><dd>", f);
    report_html_text(f, e->detail);
    fprintf(f, "</dd><dt>first seen</dt><dd>%.1f s into the campaign</dd><dt>mismatches</dt><dd>%llu</dd>"
               "<dt>program</dt><dd>worker %u, program %llu, generator seed 0x%016llx</dd><dt>size</dt><dd>",
            e->at, (unsigned long long)e->hits, e->worker, (unsigned long long)e->index,
            (unsigned long long)e->generator_seed);
    if (e->gates_generated)
        fprintf(f, "%u gates, reduced from %u", e->gates, e->gates_generated);
    else
        fprintf(f, "%u gates (not reduced: circ fuzz --reduce, or circ reduce FILE)", e->gates);
    fputs("</dd><dt>file</dt><dd>", f);
    report_html_text(f, e->path ? e->path : "NOT SAVED");
    fputs("</dd></dl>\n<pre class=\"cmd\">", f);
    report_html_text(f, e->command);
    fputs("</pre>\n", f);
}

static void finding(FILE *f, const ReportEntry *e, uint32_t i)
{
    fprintf(f, "<article class=\"panel finding\" id=\"finding-%u\" data-signature=\"", i + 1);
    report_html_text(f, e->signature);
    fputs("\"><h3>", f);
    report_html_text(f, e->signature);
    fputs("</h3>\n", f);
    finding_facts(f, e);
    fputs("<div class=\"stack\"><div><p class=\"note\">reproducer</p><pre>", f);
    report_html_text(f, e->text);
    fputs("</pre></div><div><p class=\"note\">its graph (circ dot)</p><div class=\"pic\">", f);
    if (e->svg)
        fputs(e->svg, f);
    else {
        fputs("<p class=\"note\">", f);
        report_html_text(f, e->svg_note);
        fputs("</p>", f);
    }
    fputs("</div></div></div></article>\n", f);
}

static void findings(FILE *f, const CampaignReport *r)
{
    fprintf(f, "<section id=\"findings\"><div class=\"panel\"><h2>Findings: %u signature%s</h2>\n", r->nfindings,
            r->nfindings == 1 ? "" : "s");
    if (!r->nfindings)
        fputs("<p class=\"note\">no mismatch so far</p>", f);
    else {
        fputs("<table><tr><th>signature</th><th class=\"l\">stage</th><th>first seen</th><th>mismatches</th><th>gates</th></tr>\n",
              f);
        for (uint32_t i = 0; i < r->nfindings; i++)
            finding_row(f, &r->findings[i], i);
        fputs("</table>", f);
    }
    fputs("</div>\n", f);
    for (uint32_t i = 0; i < r->nfindings; i++)
        finding(f, &r->findings[i], i);
    fputs("</section>\n", f);
}

bool report_write_html(FILE *f, const CampaignReport *r)
{
    head(f, r);
    header(f, r);
    cards(f, r);
    time_charts(f, r);
    time_bars(f, r);
    findings(f, r);
    report_html_coverage(f, r);
    fputs("<footer>written by circ fuzz --report; report.json beside this page holds the same numbers</footer>\n"
          "</main></body></html>\n",
          f);
    return !ferror(f);
}
