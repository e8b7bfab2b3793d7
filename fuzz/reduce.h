/* reduce.h — the test-case reducer: shrinks a module while an interestingness test
 * keeps holding (for a miscompile: "the check still shows a mismatch with the same
 * signature").  A fixpoint of reduction strategies over the graph (gate removal by
 * replacement, branch and loop folding, selector collapse, returns split at merges,
 * compare branches made switches, effect-chain shortening, call inlining, function
 * and argument removal, constant and run-line shrinking),
 * each candidate verified before it is tested, ddmin-style chunking so large programs
 * shrink in logarithmic rounds, dead-gate cleanup after every step.  Deterministic:
 * the same input and test give the same output for any number of parallel jobs. */
#ifndef CIRC_REDUCE_H
#define CIRC_REDUCE_H

#include "compiler/ir/ir.h"
#include "fuzz/check.h"
#include "oracle/interp.h"

#include <signal.h>

/* m with every INVOKE turned into a CALL (its handler cut off: dead code until a DCE
 * runs); NULL if m has none.  The reducer's edit, for benchmarks and tests. */
Module *reduce_invokes_as_calls(const Module *m);

/* true if the candidate still shows the behaviour being reduced.  Called on valid
 * (verified) modules whose run-line expectations are the interpreter's outcomes; with
 * jobs > 1, a timeout, a max_seconds or a stop flag it runs in a forked worker
 * process that leads its own process group (what it starts stays in that group):
 * the whole group is killed when the test outlives the candidate's timeout or the
 * overall deadline, or when the stop flag is raised. */
typedef bool (*ReduceInteresting)(void *ctx, const Module *candidate);

typedef struct {
    ReduceInteresting interesting;
    void *ctx;
    uint32_t jobs;          /* parallel worker processes; 0 or 1: test in this process */
    double timeout;         /* seconds per candidate, the input's own test included
                               (kills the worker's group); 0: none */
    double max_seconds;     /* the overall deadline, counted from the start and
                               enforced during a test too (the running tests are
                               killed); the result is the best so far; 0: no limit */
    volatile sig_atomic_t *stop; /* nonzero (a signal handler sets it): kill the running
                               tests and return the best result so far; NULL: none */
    FILE *progress;         /* progress (fuzz/progress.h: a line redrawn as steps are
                               accepted on a terminal, else a line every
                               progress_interval seconds); NULL: quiet */
    double progress_interval; /* 0: PROGRESS_INTERVAL */
    uint64_t interp_steps;  /* interpreter budget when refreshing run lines; 0: derived
                               from the input's runs */
} ReduceOptions;

typedef struct {
    uint32_t gates_before, gates_after;
    uint64_t tried;         /* candidates tested */
    uint64_t accepted;      /* candidates kept */
    uint32_t rounds;        /* fixpoint rounds */
    double seconds;
    bool timed_out;         /* max_seconds was reached */
    bool interrupted;       /* *stop was raised */
    bool input_interesting; /* false: the input itself was not interesting (returned as is) */
} ReduceStats;

/* the reduced module (a new one; the input is not changed).  stats may be NULL. */
Module *reduce_module(const Module *m, const ReduceOptions *opt, ReduceStats *stats);

/* fn(ctx, m) once in a worker process as the reducer runs a test (its own process
 * group, killed after opt->timeout, opt->max_seconds from now, or when *opt->stop is
 * raised): 1 if it returned true, 0 if false, -1 if it was killed or could not start.
 * What fn finds must go to memory shared with the caller (mmap MAP_SHARED). */
int reduce_test_limited(const ReduceOptions *opt, ReduceInteresting fn, void *ctx, const Module *m);

/* the interpreter budget the reducer uses by default for m: 8 times the most steps
 * one of its run lines takes, plus 100,000 (candidates that loop give up early) */
uint64_t reduce_step_budget(const Module *m);

/* live gates over every function (roots excluded): the size reduction is measured in */
uint32_t reduce_gate_count(const Module *m);

/* a constant of type t: variant 0 -> 0, 1 -> 1, 2 -> -1 (floats: 0.0, 1.0, -1.0) */
uint64_t reduce_small_const(Type t, uint32_t variant);

/* set every run line's expectation to the interpreter's outcome (steps: the budget,
 * 0 for the default); run lines whose outcome is a timeout or invalid are dropped */
void reduce_refresh_runs(Module *m, uint64_t steps);

/* an external interestingness test (C-Reduce convention): `CMD FILE` through /bin/sh,
 * exit status 0 means interesting.  The candidate is written to a file in dir.  The
 * script runs in the caller's process group; time limits are the reducer's
 * (ReduceOptions: it kills the worker's group, the script with it). */
typedef struct {
    const char *command;
    const char *dir;        /* a private directory for candidate files */
} ReduceScript;
bool reduce_script_interesting(void *ctx, const Module *candidate);

/* the default test: check_module still finds a mismatch with this signature (stage,
 * ISA and outcome kinds, check.h) */
typedef struct {
    CheckOptions check;
    char signature[128];
} ReduceCheck;
bool reduce_check_interesting(void *ctx, const Module *candidate);

/* the campaign's reducer hook (CampaignReducer in campaign.h): reduce a finding under
 * the same check options, keeping its signature, within seconds_left (0: no limit);
 * a new, smaller module, or NULL if it did not get smaller.  ctx: NULL (at most 60
 * seconds), or a ReduceOptions whose jobs/timeout/max_seconds are used. */
Module *reduce_campaign_finding(const Module *m, const char *signature, const CheckOptions *check,
                                double seconds_left, void *ctx);
/* the same for the finding saved at path: rewrites the file (whole or not at all)
 * when the result is smaller, keeping its header (reduce_file_header); true if it
 * rewrote it */
bool reduce_campaign_file(const char *path, const char *signature, const CheckOptions *check, void *ctx);

/* the leading comment lines of a file (a finding's provenance header; run lines
 * excluded) as one malloc'd string, "" if none; NULL if the file cannot be read */
char *reduce_file_header(const char *path);
/* write header (may be NULL), a line saying the program was reduced from gates_before
 * gates, and the module's text to path, whole or not at all (fuzz/atomic_write.h,
 * replacing a file there); false with errno set on an I/O error */
bool reduce_write_reduced(const char *path, const char *header, uint32_t gates_before, const Module *m);
/* write a module's text to a file, whole or not at all; false on an I/O error */
bool reduce_write_file(const char *path, const Module *m);

#endif
