/* tv.h — translation validation: proves with Z3 that a function after a pass
 * application refines the same function before it (docs/tv.md).  Each function is
 * executed symbolically (every path through its state graph, loops unrolled up to a
 * bound) into one SMT term of its outcome given symbolic arguments and a symbolic
 * initial harness buffer; a counterexample is confirmed with the reference interpreter
 * before it is reported.  Everything lives in the caller's structs: nothing global. */
#ifndef CIRC_FUZZ_TV_H
#define CIRC_FUZZ_TV_H

#include "compiler/opt/opt.h"

typedef struct {
    uint32_t unroll;     /* loop iterations explored per loop entry; 0: 4 */
    uint32_t timeout_ms; /* per solver query; 0: 2000 */
    uint32_t max_paths;  /* paths per function before "unknown: too many paths"; 0: 512 */
    double max_seconds;  /* tv_pipeline: applications checked after this much time are
                            unknown (TVR_BUDGET); 0: no limit */
} TvOptions;

typedef enum {
    TV_PROVED,        /* refines for every argument and initial buffer */
    TV_PROVED_UPTO,   /* the same, for executions within the loop bound */
    TV_REFUTED,       /* a counterexample the interpreter confirms (detail: its run line) */
    TV_UNCONFIRMED,   /* a counterexample the interpreter does not confirm: an encoding bug */
    TV_UNKNOWN,       /* timeout or unsupported construct (detail: the reason) */
} TvVerdictKind;

/* why a verdict is unknown (or a check did not happen) */
typedef enum {
    TVR_TIMEOUT,      /* the solver's time ran out (the query, or the search for a
                         counterexample with the harness buffer) */
    TVR_PATHS,        /* more paths than TvOptions.max_paths */
    TVR_UNSUPPORTED,  /* a construct without encoding (the detail names it) */
    TVR_FEXP,         /* a difference only under the abstraction of FEXP (pow) */
    TVR_BUFFER,       /* a difference only for buffers other than the harness pattern */
    TVR_SOLVER_ERROR, /* Z3 reported an error (a resource limit) */
    TVR_UNAVAILABLE,  /* circ was built without Z3 */
    TVR_BUDGET,       /* TvOptions.max_seconds of the pipeline had run out */
    TVR_COUNT
} TvReason;

typedef struct {
    TvVerdictKind kind;
    TvReason reason;  /* TV_UNKNOWN: why */
    char detail[600]; /* TV_REFUTED: "; run: @f(...) == X" and what the target does */
    double seconds;
} TvVerdict;

/* false when circ was built without Z3: every check is then unknown (TVR_UNAVAILABLE) */
bool tv_available(void);

/* does function fi of tgt refine function fi of src (same name and signature)? */
void tv_check_func(const Module *src, const Module *tgt, uint32_t fi, const TvOptions *opt, TvVerdict *v);

/* ---- walking a pipeline one pass application at a time ----------------------- */
/* makes a pass manager with the caller's pipeline (and plugins) and these options */
typedef PassManager *(*TvMakePm)(const PassOptions *opt, void *ctx);

typedef struct {
    uint64_t number;     /* 1-based application number (as --opt-bisect-limit counts) */
    const char *pass;    /* the pass's name */
    const char *func;    /* the function's name */
    bool changed;        /* false: the function is unchanged (nothing to prove) */
} TvApplication;

typedef void (*TvReport)(const TvApplication *a, const TvVerdict *v, void *ctx);

typedef struct {
    uint32_t proved, proved_upto, refuted, unconfirmed, unknown, unchanged;
    uint64_t reasons[TVR_COUNT]; /* the unknown verdicts by TvReason */
    double seconds[4096]; /* query times of the checked applications (first 4096) */
    uint32_t ntimes;
} TvSummary;

/* validate every application of the pipeline mk makes on m (m is not changed); report
 * is called for each application; false (with a message in err) if the pipeline could
 * not be run */
bool tv_pipeline(const Module *m, TvMakePm mk, void *mkctx, const TvOptions *opt, TvReport report,
                 void *rctx, TvSummary *sum, char *err, size_t errn);
/* "proved", "proved up to K", ... */
const char *tv_verdict_name(TvVerdictKind k);
/* "solver timeout", "too many paths", ... */
const char *tv_reason_name(TvReason r);
/* " REASON N, REASON N" of the nonzero counts of reasons[TVR_COUNT] */
void tv_print_reasons(FILE *out, const uint64_t *reasons);

#endif
