/* report_internal.h — the campaign report's state (fuzz/report.h), shared by its
 * parts: report.c (state, sampling, coverage, files), report_json.c, report_html.c,
 * report_svg.c (the charts) and report_dot.c (findings drawn by Graphviz). */
#ifndef CIRC_REPORT_INTERNAL_H
#define CIRC_REPORT_INTERNAL_H

#include "fuzz/atomic_write.h"
#include "fuzz/report.h"

#include <time.h>

/* one point of the time series: the campaign's running totals at t seconds */
typedef struct {
    double t;
    uint64_t programs, execs, runs, mismatches, signatures, crashes, hangs;
    uint64_t outcome_kinds[5];
} ReportSample;

/* one finding (a distinct signature) as the report shows it */
typedef struct {
    char *signature, *stage, *detail;
    char *path;                /* the saved reproducer; NULL if not saved */
    char *text;                /* the reproducer's text (the saved file's) */
    char *svg;                 /* its graph as an <svg> element; NULL: see svg_note */
    char *svg_note;            /* why there is no picture */
    char *command;             /* the command that reproduces it */
    uint32_t worker;
    uint64_t index, generator_seed, hits;
    double at;
    uint32_t gates, gates_generated;
} ReportEntry;

struct CampaignReport {
    const CampaignOptions *o;
    char html_path[4200], json_path[4200];
    AtomicWriter writer;
    ReportCoverage *cov;       /* o->jobs records, shared with the workers */
    ReportCoverage total;      /* their sum at the last write */
    ReportSample *samples;
    uint32_t nsamples;
    double sample_every, next_sample, next_write;
    ReportEntry *findings;
    uint32_t nfindings;
    CampaignStats st;          /* the totals at the last sample */
    bool finished;
    time_t started;            /* wall clock, for the page's header */
    char views[VIEW_COUNT][2048]; /* the stages that run each view, comma-separated */
};

/* the files' writers; false with errno set when f failed */
bool report_write_json(FILE *f, const CampaignReport *r);
bool report_write_html(FILE *f, const CampaignReport *r);
/* the page's generator coverage section (report_coverage.c) */
void report_html_coverage(FILE *f, const CampaignReport *r);

/* text escaped for a JSON string (with the quotes) / for HTML text and attributes */
void report_json_string(FILE *f, const char *s);
void report_html_text(FILE *f, const char *s);

/* the outcome kinds' names (return, trap, ...) and the views' */
extern const char *const report_view_names[VIEW_COUNT];
/* programs per second between two samples (0 when no time passed) */
double report_rate(const ReportSample *a, const ReportSample *b);
/* a time for an axis or a table: "1h02m", "4m05s", "12s" */
void report_duration(char *buf, size_t n, double seconds);

/* ---- charts (report_svg.c): each an <svg class="chart" data-chart=NAME> whose drawn
 * data are elements of class "data" ---- */
typedef struct {
    const char *name;          /* data-chart attribute */
    const char *y_label;       /* the unit of the y axis */
    const double *x;           /* n points, seconds */
    uint32_t n;
} ChartAxes;

/* lines (series values per point, nseries of them, each n long) */
void svg_line_chart(FILE *f, const ChartAxes *a, const double *const *series, const char *const *names,
                    uint32_t nseries);
/* stacked shares (each point's series sum to 1, or 0 when nothing ran) */
void svg_stack_chart(FILE *f, const ChartAxes *a, const double *const *series, const char *const *names,
                     uint32_t nseries);
/* horizontal bars: label and value per bar, values formatted with unit */
void svg_bar_chart(FILE *f, const char *name, const char *const *labels, const double *values, uint32_t n,
                   const char *unit);
/* the color of series k (one palette for every chart) */
const char *svg_color(uint32_t k);

/* ---- the finding's picture (report_dot.c) ---- */
/* m drawn by `dot -Tsvg` as an <svg> element with ids prefixed by id_prefix; NULL
 * with the reason in note (Graphviz missing, failed, too slow) */
char *report_dot_svg(const Module *m, const char *id_prefix, const char *tmp_dir, char *note, size_t n);

#endif
