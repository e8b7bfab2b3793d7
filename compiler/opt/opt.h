/* opt.h — the middle end: a pass manager over Circuit IR functions and the
 * optimization passes (one file each, listed in passes.def).  A PassManager holds its
 * registry, pipeline and options; nothing is global, so managers can run side by
 * side.  Every pass keeps the circuit valid for verify_func and preserves the
 * outcome of every run (DESIGN.md §3). */
#ifndef CIRC_OPT_H
#define CIRC_OPT_H

#include "compiler/ir/ir.h"

typedef struct PassContext PassContext;
typedef struct PassManager PassManager;

/* a pass: returns true if it changed the function */
typedef bool (*PassRun)(PassContext *ctx, Func *f);

typedef struct {
    const char *name;    /* as written in --passes= and --print-after= */
    PassRun run;
    const char *summary; /* one line for --list-passes */
} PassInfo;

typedef struct {
    bool verify_each;        /* verify after every pass application, stop on errors */
    const char *print_after; /* NULL, "all", or a pass name: dump the module after it */
    int64_t bisect_limit;    /* run at most this many pass applications; -1: no limit */
    uint32_t max_rounds;     /* fixpoint rounds for iterated pipelines; 0: 8 */
    FILE *log;               /* dumps, bisect lines, verifier errors; NULL: stderr */
} PassOptions;

/* what a running pass sees */
struct PassContext {
    PassManager *pm;
    Module *module;
    const PassInfo *pass;    /* the pass being run */
    uint64_t applications;   /* pass applications so far (for --opt-bisect-limit) */
    uint32_t inline_budget;  /* gates the inliner may still add to the module */
};

PassManager *pm_new(const PassOptions *opt); /* opt may be NULL: defaults */
void pm_free(PassManager *pm);
/* add a pass to the registry (a plugin hook: tests install their own); false if the
 * name is taken or the registry is full */
bool pass_register(PassManager *pm, const PassInfo *info);
const PassInfo *pass_find(const PassManager *pm, const char *name, size_t n);
void pm_list_passes(const PassManager *pm, FILE *out);

/* choose the pipeline: -O level 0, 1 or 2 (2 iterates to a fixpoint) */
void pm_set_level(PassManager *pm, int level);
/* a comma-separated list of registered passes, run once in order; false (with a
 * message in err) if a name is unknown */
bool pm_set_passes(PassManager *pm, const char *list, char *err, size_t errn);
/* whether the pipeline repeats until nothing changes (at most max_rounds) */
void pm_set_iterate(PassManager *pm, bool iterate);

/* run the pipeline over every function of m; 0 on success, else the number of
 * verifier errors found by --verify-each (the run stops at the failing pass) */
int pm_run(PassManager *pm, Module *m);
/* pass applications that changed something in the last pm_run */
uint64_t pm_changes(const PassManager *pm);

/* the passes of passes.def */
#define PASS(name, fn, summary) bool fn(PassContext *ctx, Func *f);
#include "passes.def"
#undef PASS

#endif
