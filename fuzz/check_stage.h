/* check_stage.h — internals of the differential check shared by check.c (the stage
 * list, the check loop, the interpreting stages) and check_machine.c (the
 * machine-code stages): what a stage is, what an opened stage holds, the per-check
 * context, and the table of stage kinds (check_stages.c) through which check.c
 * adds, opens, runs and closes every stage without knowing the kinds' files. */
#ifndef CIRC_CHECK_STAGE_H
#define CIRC_CHECK_STAGE_H

#include "compiler/lir/lir.h"
#include "compiler/sched/sched.h"
#include "fuzz/check.h"
#include "oracle/elf_load.h"
#include "oracle/mem.h"

typedef struct CfgInterp CfgInterp;

typedef enum {
    STAGE_PASS,     /* one pass alone (pass), then the graph interpreter */
    STAGE_ORDER,    /* the next pass of CheckOptions.pass_order, cumulatively */
    STAGE_PIPELINE, /* the -O1/-O2 pipeline (level), then the graph interpreter */
    STAGE_TV,       /* translation validation of one pass's applications (check_tv.c) */
    STAGE_SCHED,    /* the scheduled form after -O(level) passes, no motion at -O0 */
    STAGE_MACHINE,  /* compiled for target at -O(level), run under the emulator */
    STAGE_NATIVE,   /* the same, its object run on the host's CPU (check_native.c) */
    STAGE_QEMU,     /* the ARM64 object under qemu-aarch64 (check_qemu.c) */
    STAGE_C,        /* the C backend's output by gcc or clang, under the emulator (check_c.c) */
    STAGE_KIND_COUNT
} StageKind;

typedef struct {
    char name[64];
    uint8_t kind;       /* StageKind */
    int level;          /* -O level (STAGE_ORDER: position in the order) */
    const Target *target; /* STAGE_MACHINE */
    const char *pass;   /* STAGE_PASS */
    char order_pass[32];/* STAGE_ORDER */
    uint8_t cc;         /* STAGE_C: the compiler (check_c.c) */
    bool pressure;      /* STAGE_MACHINE: a register-pressure stage (check_pressure.c) */
    bool local;         /* STAGE_MACHINE: the local allocator's stage (-O0-local) */
} CheckStage;

typedef struct {
    CheckStage *v;
    uint32_t n;
} StageList;

/* an opened stage */
typedef struct {
    Module *own;          /* a module this stage made and owns */
    Interp *interp;       /* graph interpreter stages */
    CfgInterp *cfg;       /* scheduled-form stages */
    void *machine;        /* machine-code stages (check_machine.c) */
    bool unchanged;       /* a pass stage whose pass changed nothing: the oracle's
                             outcomes stand, nothing is run */
    const char *fail_kind;/* why open failed: "verify", "refused", "compile" */
    const char *label;    /* set by a run: its mismatch's signature label instead of
                             "EXPECTED-vs-GOT" ("unicorn-vs-native"); NULL: the kinds */
    char detail[512];
} StageRun;

typedef struct {
    const Module *m;
    const CheckOptions *opt;
    Module *optimized[3]; /* per -O level, made on first use */
    bool opt_failed[3];
    char opt_detail[3][512];
    Schedule **schedules[3]; /* per -O level: per function of optimized[level] (or
                                of m at -O0), made on first use */
    bool sched_failed[3];
    char sched_detail[3][512];
    int input_valid;      /* m verified: 1 yes, -1 no, 0 not yet */
    Module *order_module; /* STAGE_ORDER: the passes so far */
    int order_next;       /* the position in the order of the next pass to apply */
    bool order_failed;
    uint32_t run_line;    /* the run being executed */
    const Outcome *oracle_run; /* its oracle's outcome (emulator budgets: emu_budget_from) */
    const Outcome *oracle;     /* the oracle's outcome of every run line (a stage that
                                  runs several at once: check_native.c) */
    Mem *memory;          /* the oracle memory every interpreting stage borrows */
    bool own_memory;      /* made by the check (else CheckOptions.interp.memory) */
    void *machine;        /* check_machine.c: engines kept across stages */
    void *blobs;          /* check_blobs.c: the modules compiled so far, per target and level */
    double *seconds;      /* CheckResult.seconds: where the time goes */
    void *tv;             /* check_tv.c: the validated pipeline, made on first use */
    CheckTvTally *tv_tally; /* CheckResult.tv */
} CheckCtx;

void check_build_stages(const CheckOptions *o, StageList *l);
double check_now(void); /* seconds, monotonic */
/* the module stages at -O(level) start from (m itself at -O0), made once per check;
 * NULL with the reason in detail if the passes broke it */
Module *check_prepared(CheckCtx *c, int level, char *detail, size_t n);
/* the schedules of that module's functions (no motion at -O0), made once per check
 * and shared by the scheduled-form and machine-code stages; NULL with the reason in
 * detail and *fail_kind ("verify" or "refused") */
Schedule *const *check_schedules(CheckCtx *c, int level, char *detail, size_t n, const char **fail_kind);
void check_add_stage(StageList *l, const CheckOptions *o, const CheckStage *s);
/* the module of stage s (its -O level's passes and schedules) compiled for s->target
 * into *blob (memory from arena); false with r->detail and r->fail_kind */
bool check_compile(CheckCtx *c, const CheckStage *s, Arena *arena, CodeBlob *blob, StageRun *r);
PassManager *check_pass_manager(const CheckOptions *o);
/* the same, compiled once per check for each target and level: a later stage of the
 * same target and level (the native and qemu stages after x86-64-O2 and arm64-O2)
 * gets the blob an earlier one compiled; it lives until check_blobs_free (called
 * when the check ends); NULL with r->detail and r->fail_kind */
const CodeBlob *check_compile_shared(CheckCtx *c, const CheckStage *s, StageRun *r);
/* blob (of a stage of a CPU level other than the baseline) is byte for byte the code
 * the baseline level's stage of the same -O level compiled in this check (code,
 * entries, relocations, trap sites): it runs the same there, so it need not run */
bool check_same_as_baseline(CheckCtx *c, const CheckStage *s, const CodeBlob *blob);
void check_blobs_free(CheckCtx *c);

/* the compiled blob of m for t written as an ELF object and loaded back at base
 * (check_object.c; resolve gets ctx): *img the loaded image (the caller frees it), *loaded a blob over
 * it for the emulator (its arrays in img and arena); false with r->detail and
 * r->fail_kind "object" */
bool check_load_object(const Module *m, const Target *t, const CodeBlob *blob, uint64_t base,
                       ElfResolveFn resolve, void *ctx, Arena *arena, ElfImage *img, CodeBlob *loaded,
                       StageRun *r);

/* the native stage's fork server (check_native.c): made by check_engines_new while
 * the process is small, NULL where there is no native stage or it cannot be made */
typedef struct NativeZygote NativeZygote;
NativeZygote *native_zygote_new(void);
void native_zygote_free(NativeZygote *z);
NativeZygote *check_engines_native(CheckEngines *e);
/* probe()'s answer, asked once per CheckEngines (a file-system probe a stage list
 * would otherwise repeat per program); e NULL: probe() every time */
bool check_engines_memo(CheckEngines *e, bool (*probe)(void));

/* ---- the kinds of stages ------------------------------------------------------ */
typedef void (*StageRunFn)(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func,
                           const uint64_t *args, Outcome *out);
typedef struct {
    /* append this kind's stages for the levels (CHECK_O* bits) wanted */
    void (*add)(StageList *l, const CheckOptions *o, uint32_t levels);
    /* build the stage for this check; false with r->detail and r->fail_kind */
    bool (*open)(CheckCtx *c, const CheckStage *s, StageRun *r);
    StageRunFn run;                 /* one call of an opened stage */
    void (*close)(StageRun *r);     /* what open made (r->own is freed by the check) */
    void (*finish)(CheckCtx *c);    /* at the end of the check (NULL: nothing) */
    uint8_t open_phase, run_phase;  /* CheckPhase the time goes to */
} StageOps;

/* per StageKind, in the order stages are tried (check_stages.c) */
extern const StageOps *const check_stage_kinds[STAGE_KIND_COUNT];
extern const StageOps check_pass_stages, check_order_stages, check_pipeline_stages,
    check_sched_stages, check_machine_stages, check_tv_stages, check_native_stages, check_qemu_stages,
    check_c_stages;

/* check_c.c: is tool an executable on PATH; is m one of the programs a stage run on
 * one program in `every` takes (a hash of the functions and run lines: a finding
 * replays) */
bool check_on_path(const char *tool);
bool check_program_sampled(const Module *m, uint32_t every);
/* the hash of m's functions and run lines that sampling and the pressure knobs use */
uint64_t check_program_hash(const Module *m);

/* check_pressure.c: the register-pressure stages.  Is it m's turn for the pressure
 * stage of ISA isa (one program in CheckOptions.pressure_every, a different one per
 * ISA), and the allocator knobs m gets there (drawn from its hash: a reduced
 * register file and spill, coalescing, slot-sharing and folding choices) */
bool check_pressure_sampled(const Module *m, const CheckOptions *o, Isa isa);
/* is it m's turn for a sampled stage of ISA isa: one program in every (0 or 1: every
 * one), a different one per ISA and per salt */
bool check_stage_sampled(const Module *m, uint32_t every, Isa isa, unsigned salt);
RegallocOptions check_pressure_options(const Module *m);
/* the CPU level of target t m is compiled for in the pressure stage, drawn from its
 * hash (each of t's levels alike): the memory operands of spills meet every level's
 * forms */
const Target *check_pressure_level(const Module *m, const Target *t);
/* the knobs m gets in the local allocator's stages: slot_operands (every value in
 * its slot, memory operands wherever a form takes one) on three programs in four,
 * drawn from its hash */
RegallocOptions check_local_options(const Module *m);
/* the CompileOptions.branch_reach m gets in the pressure and local stages, drawn
 * from its hash: on half the programs 0 (the ISA's reach), on the others 8 to 1024
 * bytes, so that conditional branches take their long forms (ARM64: inverted over a
 * b) in code of generated sizes */
uint32_t check_branch_reach(const Module *m);

#endif
