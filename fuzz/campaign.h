/* campaign.h — a differential fuzzing campaign (`circ fuzz`): worker processes
 * (fork) generate programs from a deterministic seed stream, check each one
 * (check_module: the oracle against every compiler stage) and report to the parent
 * through a pipe; the parent keeps the status line, saves each new mismatch
 * signature once (DIR/SIGNATURE.circ with run lines reproducing it, and
 * DIR/SIGNATURE.json), and restarts workers that crash or hang, recording the crash
 * as a finding with its program.
 *
 * The findings folder is checked (created if missing) and locked before any worker
 * starts: a second campaign on a locked folder does not start.  Every file is written
 * whole or not at all (fuzz/atomic_write.h) and never replaces an existing one: a
 * signature already saved by an earlier run goes to DIR/SIGNATURE-2.circ, -3, ...
 * A finding that could not be saved is reported as NOT SAVED and counted in
 * CampaignStats.unsaved.
 *
 * With max_programs N the campaign checks exactly N programs for any number of
 * jobs: worker w checks programs 0 .. N/jobs (+1 for the first N%jobs workers), so the
 * programs, and the totals, are the same on every run.  With seconds S it stops
 * within one program's check time of S.
 *
 * Program k of worker w in a campaign with seed s is generated (fuzz/gen.h) from
 * gen_bytes_for_size(size) bytes of gen_seed_bytes(campaign_program_seed(s, w, k)),
 * so any finding is regenerated from (s, w, k, size, swarm) alone. */
#ifndef CIRC_CAMPAIGN_H
#define CIRC_CAMPAIGN_H

#include "fuzz/check.h"
#include "fuzz/gen.h"
#include "fuzz/mcov_table.h"

/* a reducer (extension point for `--reduce`): called in the parent for each new
 * finding before it is saved, with the seconds left of the campaign (0: no limit),
 * which it must keep to; returns a smaller program (a new module) that keeps the
 * signature under the same check options, or NULL to save m as it is.  The saved
 * file keeps the finding's header either way. */
typedef Module *(*CampaignReducer)(const Module *m, const char *signature, const CheckOptions *check,
                                   double seconds_left, void *ctx);

typedef enum { STATUS_AUTO, STATUS_TTY, STATUS_PLAIN, STATUS_NONE } StatusMode;

typedef struct {
    double seconds;          /* wall-clock length; 0: until max_programs (or a signal) */
    uint64_t seed;
    uint32_t jobs;           /* worker processes */
    const char *out_dir;     /* findings; checked, created and locked at the start */
    GenOptions gen;          /* size, swarm, weights */
    uint32_t runs;           /* run lines per program (gen_add_runlines); 0: 3 */
    CheckOptions check;      /* the stages; extra passes are inherited by the workers */
    bool reduce;             /* call reducer on each new finding */
    CampaignReducer reducer;
    void *reducer_ctx;
    uint64_t max_programs;   /* stop after this many programs; 0: no limit */
    double hang_seconds;     /* one program checked longer than this is a hang */
    uint64_t worker_programs; /* a worker process checks at most this many programs,
                                then a fresh one goes on at the next index (its
                                memory never outgrows a young worker's); 0: no limit */
    double status_interval;  /* seconds between plain status lines */
    StatusMode status_mode;
    bool stop_on_mismatch;   /* end the campaign at the first mismatch */
    const char *reproduce_args; /* added to a finding's reproduce command, e.g. the
                                   --load-pass-plugin=PATH its passes need (NULL: none) */
    const char *report_dir;  /* DIR/report.html and report.json, kept up to date
                                (fuzz/report.h); NULL: no report */
    const char *report_command;    /* the campaign's command line, for the report */
    const char *report_check_command; /* `circ check` with the campaign's check options:
                                         given a finding's file, it reproduces it (the
                                         report shows it); NULL: "circ check" */
} CampaignOptions;

typedef struct {
    double elapsed;          /* seconds */
    uint64_t programs, execs, runs;
    uint64_t outcome_kinds[5];  /* oracle outcomes of the run lines by OutcomeKind */
    uint64_t mismatches;     /* every mismatching program (a signature may repeat) */
    uint64_t signatures;     /* distinct signatures */
    uint64_t crashes, hangs; /* worker deaths and kills (also counted as mismatches) */
    uint64_t worker_processes; /* started: jobs, plus one for each restart (a death or
                                  CampaignOptions.worker_programs reached) */
    uint64_t unsaved;        /* new signatures whose files could not be written */
    double execs_per_sec;
    double worker_seconds[3];/* CPU time of the workers in generate / run lines
                                (oracle) / check (oracle + stages) */
    double check_phases[PHASE_COUNT]; /* the checks' wall time by CheckPhase */
    CheckTvTally tv;         /* CheckOptions.tv: the verdicts of the pass applications */
    char first_signature[128];
    double first_finding_at; /* seconds into the campaign */
    bool report_unsaved;     /* the report's final files could not be written */
    McovTotals mcov;         /* machine-level coverage: items of the forms tables,
                                conditions, encoder paths and idioms of the ISAs
                                compiled for, those hit, those never hit that no IR
                                reaches */
    bool mcov_written;       /* its table is OUT/machine-coverage.txt */
} CampaignStats;

/* a qemu-aarch64 process costs about 15 ms of CPU per program where a campaign
 * spends about 2 ms per program on everything else: one program in this many keeps
 * the native and qemu stages together within 15% (bench/fuzz/README.md) */
enum { QEMU_EVERY_DEFAULT = 512 };
/* the C stages cost about 0.4-0.7 s per program (four compiler runs) where a default
 * campaign spends about 2.7 ms: one program in this many keeps the loss under 10%
 * (docs/cbackend.md) */
enum { C_EVERY_DEFAULT = 2048 };
/* the defaults of `circ fuzz` (the check's stages sampled as above) */
void campaign_options_default(CampaignOptions *o);
/* run a campaign; status lines and findings notes go to status (may be NULL);
 * 0 when it ran (see st->mismatches and st->unsaved), -1 if it could not start: bad
 * options, a findings folder that cannot be used or is locked by another campaign
 * (message printed to status) */
int campaign_run(const CampaignOptions *o, CampaignStats *st, FILE *status);

/* "check time: oracle N%, optimize N%, ..." (shares of the phases), one line */
void campaign_print_phases(FILE *out, const double *phases);

/* the generator seed of program k of worker w (splitmix64 of the triple) */
uint64_t campaign_program_seed(uint64_t seed, uint32_t worker, uint64_t k);
/* the module of that program, with its run lines (what the worker checked) */
Module *campaign_program(const CampaignOptions *o, uint32_t worker, uint64_t k);

#endif
