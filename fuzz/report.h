/* report.h — the campaign report of `circ fuzz --report DIR`: DIR/report.html, one
 * self-contained page (inline CSS and SVG charts drawn here, no script, no network
 * resource: it reads the same in a browser, a CI artifact viewer or a mail), and
 * DIR/report.json with the same numbers.  Both are rewritten atomically
 * (fuzz/atomic_write.h) every REPORT_INTERVAL seconds while the campaign runs and
 * once at its end, so a reader never sees a half-written file and a person watching a
 * long run sees what a CI artifact will show.
 *
 * Contents: the campaign's totals (those of the terminal summary: the final page is
 * written from the same CampaignStats after it is printed, so its numbers equal the
 * summary's), the time series sampled every REPORT_SAMPLE seconds (programs, execs,
 * outcome kinds of the run lines, mismatches, signatures; thinned to at most
 * REPORT_MAX_SAMPLES by dropping every other sample when full), where the time went
 * (the checks' phases, the workers' CPU), generator coverage (gates by opcode and type,
 * programs containing each opcode as generated, which the -O0 stages and the
 * per-pass stages run, and as left by the -O2 pipeline, which the -O2 stages run),
 * and every finding: signature, stage, first-seen time, mismatches with that
 * signature, the saved reproducer's text (reduced when the campaign reduces), its
 * graph as SVG (`circ dot` through Graphviz's `dot -Tsvg` when installed; the first
 * REPORT_MAX_PICTURES findings) and the command that reproduces it.
 *
 * Process model: the report lives in the campaign's parent, where the workers'
 * tallies are aggregated.  The coverage counters are one ReportCoverage per worker in
 * memory shared with the workers (mapped by campaign_report_open, before any fork);
 * a worker counts each program it checked into its own record. */
#ifndef CIRC_REPORT_H
#define CIRC_REPORT_H

#include "fuzz/campaign.h"

enum {
    REPORT_SAMPLE = 2,         /* seconds between time-series samples (at first) */
    REPORT_INTERVAL = 5,       /* seconds between rewrites of the files */
    REPORT_MAX_SAMPLES = 512,
    REPORT_MAX_PICTURES = 100, /* findings drawn (the page stays small on long runs) */
};

/* the module a set of stages runs: the program as generated, or after -O2 */
typedef enum { VIEW_INPUT, VIEW_O2, VIEW_COUNT } ReportView;

/* one worker's generator coverage (shared memory; written by that worker only) */
typedef struct {
    uint64_t programs;
    uint64_t gates[OP_COUNT][TY_COUNT];         /* by opcode and class type (gen_stats_class_type) */
    uint64_t op_programs[OP_COUNT][VIEW_COUNT]; /* programs containing the opcode, per view */
} ReportCoverage;

/* a new finding, as the campaign saved it */
typedef struct {
    const char *signature, *stage, *detail;
    uint32_t worker;
    uint64_t index;            /* program index of that worker */
    uint64_t generator_seed;
    double at;                 /* seconds into the campaign */
    const char *path;          /* DIR/SIGNATURE.circ; NULL when it could not be saved */
    const Module *program;     /* what was saved (reduced with --reduce) */
    uint32_t gates_generated;  /* gates before reduction; 0 when not reduced */
} ReportFinding;

typedef struct CampaignReport CampaignReport;

/* the report of campaign o in o->report_dir (created if missing; NULL report when
 * o->report_dir is NULL).  false, with the reason printed to status, when the folder
 * cannot be used or the first files cannot be written: the campaign does not start */
bool campaign_report_open(CampaignReport **r, const CampaignOptions *o, FILE *status);
/* worker w's coverage record; NULL without a report */
ReportCoverage *campaign_report_coverage(CampaignReport *r, uint32_t worker);
/* count program m into c (a worker, after checking m; nothing when c is NULL):
 * its gates, and the opcodes of a copy optimized at -O2 when o checks that level */
void campaign_report_count(ReportCoverage *c, const Module *m, const CheckOptions *o);
/* one more mismatch with signature sig (every mismatch, new or not) */
void campaign_report_mismatch(CampaignReport *r, const char *sig);
/* a new signature's finding, after its files were written */
void campaign_report_finding(CampaignReport *r, const ReportFinding *f);
/* the parent's loop: sample st (aggregated) and rewrite the files when due */
void campaign_report_tick(CampaignReport *r, const CampaignStats *st, double now);
/* the final sample and files from the final st, a line naming them on status, and
 * free r.  false (reason printed) when the files could not be written */
bool campaign_report_close(CampaignReport *r, const CampaignStats *st, FILE *status);

#endif
