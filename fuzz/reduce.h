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

/* true if the candidate still shows the behaviour being reduced.  Called on valid
 * (verified) modules whose run-line expectations are the interpreter's outcomes; with
 * jobs > 1 or a timeout it runs in a forked worker process. */
typedef bool (*ReduceInteresting)(void *ctx, const Module *candidate);

typedef struct {
    ReduceInteresting interesting;
    void *ctx;
    uint32_t jobs;          /* parallel worker processes; 0 or 1: test in this process */
    double timeout;         /* seconds per candidate (kills the worker); 0: none */
    double max_seconds;     /* stop early (result still interesting); 0: no limit */
    FILE *progress;         /* a status line per accepted step; NULL: quiet */
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
    bool input_interesting; /* false: the input itself was not interesting (returned as is) */
} ReduceStats;

/* the reduced module (a new one; the input is not changed).  stats may be NULL. */
Module *reduce_module(const Module *m, const ReduceOptions *opt, ReduceStats *stats);

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
 * exit status 0 means interesting.  The candidate is written to a file in dir. */
typedef struct {
    const char *command;
    const char *dir;        /* a private directory for candidate files */
    double timeout;         /* seconds; the script's process group is killed after it */
} ReduceScript;
bool reduce_script_interesting(void *ctx, const Module *candidate);

/* the default test: check_module still finds a mismatch with this signature (stage,
 * ISA and outcome kinds, check.h) */
typedef struct {
    CheckOptions check;
    char signature[128];
} ReduceCheck;
bool reduce_check_interesting(void *ctx, const Module *candidate);

/* the campaign's reducer hook (CampaignReducer in campaign.h): reduce the finding at
 * path under the same check options, keeping its signature; rewrites the file when
 * the result is smaller.  ctx: NULL, or a ReduceOptions whose jobs/timeout/max_seconds
 * are used. */
bool reduce_campaign_file(const char *path, const char *signature, const CheckOptions *check, void *ctx);

/* write a module's text to a file; false on an I/O error */
bool reduce_write_file(const char *path, const Module *m);

#endif
