/* pipeline.h — the whole compile pipeline for one target: middle-end passes (per
 * -O level or a --passes list) on a copy of the module, then for each function
 * schedule -> lower (the target's instruction selection) -> register allocation
 * -> stack allocation -> the target's prologue/epilogue, then the target's emit
 * into one CodeBlob for the module.
 *
 * A target plugs in as a Backend (x64_backend() in compiler/x64/x64.h); adding a
 * target adds one Backend, nothing here changes. */
#ifndef CIRC_PIPELINE_H
#define CIRC_PIPELINE_H

#include "compiler/lir/lower.h"
#include "compiler/lir/regalloc.h"

typedef struct Backend {
    const char *name;            /* "x86-64" */
    const LirTarget *(*target)(void); /* forms, registers, emit */
    const IselHooks *isel;       /* instruction selection */
    Tmp frame_base, stack_pointer;
    /* prologue and epilogue once registers and stack are allocated */
    bool (*finish_frame)(Code *code, char *err, size_t errlen);
} Backend;

typedef struct CompileOptions {
    int opt_level;               /* 0: no passes and the naive schedule; 1, 2: pipelines */
    const char *passes;          /* a --passes= list (overrides opt_level's passes) */
    bool no_motion;              /* naive schedule even with passes */
    bool prepared;               /* the module is already the output of the passes
                                    (opt_level's or passes'): compiled as it is */
    Schedule *const *schedules;  /* with prepared: per function, its schedule made
                                    from the module (borrowed); NULL: scheduled here */
    RegallocOptions regalloc;    /* register-limit and spill knobs */
    FILE *dump_lir;              /* LIR after lowering, per function (NULL: none) */
    FILE *dump_alloc;            /* LIR after allocation and frame (NULL: none) */
} CompileOptions;

/* compile every function of m for backend into *out (memory from arena).  If
 * compiled is not NULL it receives the module the code was made from (after the
 * passes; gate ids match the blob's source marks), which the caller frees with
 * module_free.  false after reporting through d. */
bool compile_module(const Module *m, const Backend *backend, const CompileOptions *opt,
                    Arena *arena, CodeBlob *out, Module **compiled, Diag *d);

/* statistics of the last compile, for benchmarks (may be NULL) */
typedef struct {
    uint64_t gates;              /* live gates compiled */
    uint64_t insts;              /* LIR instructions after allocation */
} CompileStats;
bool compile_module_stats(const Module *m, const Backend *backend, const CompileOptions *opt,
                          Arena *arena, CodeBlob *out, Module **compiled, CompileStats *stats, Diag *d);

#endif
