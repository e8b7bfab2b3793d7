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
} TvOptions;

typedef enum {
    TV_PROVED,        /* refines for every argument and initial buffer */
    TV_PROVED_UPTO,   /* the same, for executions within the loop bound */
    TV_REFUTED,       /* a counterexample the interpreter confirms (detail: its run line) */
    TV_UNCONFIRMED,   /* a counterexample the interpreter does not confirm: an encoding bug */
    TV_UNKNOWN,       /* timeout or unsupported construct (detail: the reason) */
} TvVerdictKind;

typedef struct {
    TvVerdictKind kind;
    char detail[600]; /* TV_REFUTED: "; run: @f(...) == X" and what the target does */
    double seconds;
} TvVerdict;

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

#endif
