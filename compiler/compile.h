/* compile.h — the compile driver: middle-end passes (per -O level or a --passes
 * list) on a copy of the module, then for each function schedule -> lower (the
 * target's instruction selection) -> register and stack allocation (dead-instruction
 * removal and linear scan, or the local allocator) -> the target's prologue/epilogue, then the target's emit into
 * one CodeBlob for the module.  It sits above opt, sched and lir and takes the
 * target as a Target (compiler/target.h finds one by name); nothing here names a
 * target. */
#ifndef CIRC_COMPILE_H
#define CIRC_COMPILE_H

#include "compiler/lir/lower.h"
#include "compiler/lir/regalloc.h"

/* which register allocator compiles the functions (regalloc.h) */
typedef enum {
    ALLOC_LINEAR_SCAN,           /* lir_allocate_compiled after dead-instruction removal */
    ALLOC_LOCAL,                 /* lir_allocate_local: a slot per tmp, registers per
                                    instruction (the baseline's allocator) */
} CompileAllocator;

typedef struct CompileOptions {
    int opt_level;               /* 0: no passes and the naive schedule; 1, 2: pipelines */
    const char *passes;          /* a --passes= list (overrides opt_level's passes) */
    bool no_motion;              /* naive schedule even with passes */
    bool prepared;               /* the module is already the output of the passes
                                    (opt_level's or passes'): compiled as it is */
    Schedule *const *schedules;  /* with prepared: per function, its schedule made
                                    from the module (borrowed); NULL: scheduled here */
    RegallocOptions regalloc;    /* register-limit and spill knobs (a register limit
                                    is the scheduler's register budget too) */
    CompileAllocator allocator;  /* the local allocator ignores regalloc's knobs */
    uint32_t branch_reach;       /* Code.branch_reach of every function (0: the ISA's) */
    bool unbounded_hoisting;     /* global code motion hoists out of loops without a
                                    register budget (benchmarks compare the two) */
    struct MachCov *cov;         /* machine-level coverage counted into (NULL: none;
                                    compiler/lir/mcov.h) */
    FILE *dump_lir;              /* LIR after lowering, per function (NULL: none) */
    FILE *dump_alloc;            /* LIR after allocation and frame (NULL: none) */
} CompileOptions;

/* compile every function of m for target into *out (memory from arena).  If
 * compiled is not NULL it receives the module the code was made from (after the
 * passes; gate ids match the blob's source marks), which the caller frees with
 * module_free.  false after reporting through d. */
bool compile_module(const Module *m, const Target *target, const CompileOptions *opt,
                    Arena *arena, CodeBlob *out, Module **compiled, Diag *d);

/* the scheduler's options for code of every registered target: global code motion
 * unless no_motion, its register budget the smallest register file among the
 * targets (compiler/target.h), so that one schedule serves every target (the check
 * shares its schedules between them) */
SchedOptions compile_sched_options(bool no_motion);

/* run the middle end on m in place per opt (its --passes list, else its -O level's
 * pipeline); false (reported through d) if the pipeline fails */
bool compile_run_passes(Module *m, const CompileOptions *opt, Diag *d);

/* statistics of the last compile, for benchmarks (may be NULL) */
typedef struct {
    uint64_t gates;              /* live gates compiled */
    uint64_t insts;              /* LIR instructions after allocation */
} CompileStats;
bool compile_module_stats(const Module *m, const Target *target, const CompileOptions *opt,
                          Arena *arena, CodeBlob *out, Module **compiled, CompileStats *stats, Diag *d);

#endif
