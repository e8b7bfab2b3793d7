/* check.h — the differential check: every run of a module (its `; run:` lines) goes
 * through the reference interpreter (the oracle) and through every stage of the
 * compiler, and each stage's Outcome must equal the oracle's (outcome_equal, heap
 * bytes included).  The first stage that disagrees is reported with both outcomes
 * and a signature that names the stage and the outcome kinds, e.g.
 * `pass-fold:return-vs-trap`, `sched-O2:return-vs-return`, `x86-64-O2:return-vs-trap`.
 * Signatures deduplicate campaign findings and are what a reducer keeps.
 *
 * Stages are rows of a table (check.c): a name, an `open` that prepares the module
 * once (optimize a copy, schedule, compile), a `run` that gives the Outcome of one
 * call, and a `close`.  They are tried in pipeline order: each pass alone, -O1,
 * -O2 (graph interpreter after the passes), the scheduled form at -O0 (no motion)
 * and after -O2 (global code motion), then the machine-code stages (a backend
 * on an ISA at an -O level) once the code generator provides them
 * (check_machine_stages()).  A stage whose open fails (a pass broke the circuit, the
 * scheduler refused a valid module, the backend could not compile it) is itself a
 * finding, with the kind `verify`, `refused` or `compile` in its signature. */
#ifndef CIRC_CHECK_H
#define CIRC_CHECK_H

#include "compiler/lir/regalloc.h"
#include "compiler/opt/opt.h"
#include "fuzz/tv.h"
#include "oracle/interp.h"

/* Unicorn engines (one per ISA) that outlive one check: a campaign worker keeps
 * one set for all its programs.  Not shared between threads. */
typedef struct CheckEngines CheckEngines;
CheckEngines *check_engines_new(void);
void check_engines_free(CheckEngines *e);

/* which O-levels of the pipelines to check (bit n = -On) */
enum { CHECK_O0 = 1 << 0, CHECK_O1 = 1 << 1, CHECK_O2 = 1 << 2, CHECK_ALL_LEVELS = 7 };
/* a campaign's register-pressure stages check one program in this many by default
 * (bench/fuzz/README.md: their cost); `circ check` checks every one */
enum { PRESSURE_EVERY_DEFAULT = 4 };
/* likewise the local-allocator stages (x86-64-O0-local, ...): the -O0 code of the
 * local allocator is about twice the size of linear scan's, so it costs more to run */
enum { LOCAL_EVERY_DEFAULT = 4 };

typedef struct {
    uint32_t levels;         /* CHECK_O* mask; 0: all */
    const char *targets;     /* comma-separated stage-name prefixes to check ("pass",
                                "O2", "sched", "x86-64", "arm64-O0", ...; "x86-64-O2$": that
                                stage alone); NULL: every stage */
    uint64_t stage_mask;     /* of the stages the rest of the options give, in check order
                                (check_list_stages), check the i-th only if bit i is set
                                (bit 63: the 64th and every later one); 0: all of them.
                                The libFuzzer targets check a few per input (fuzz/stage_pick.h) */
    bool no_stages;          /* the oracle alone, no stage (benchmarks: what stages cost) */
    uint32_t isa_mask;       /* machine-code stages: bit per Isa (blob.h); 0: both */
    bool no_native;          /* no stage on the host's CPU (check_native.c) nor under
                                qemu-aarch64 (check_qemu.c) */
    uint32_t qemu_every;     /* the qemu stage runs on one program in this many (a hash
                                of the program picks it); 0 or 1: every program */
    bool check_expectations; /* also compare the oracle with each run line's expectation
                                (a mismatch with the stage name `oracle`) */
    const PassInfo *extra_passes; /* registered in every pass manager the check makes
                                     (the pass manager's plugin hook); each also gets a
                                     `pass-NAME` stage */
    uint32_t nextra_passes;
    const char *pass_order;  /* comma-separated passes applied one after another; after
                                each one the module is checked (stage `order-K-NAME`) */
    InterpOptions interp;    /* budgets of every interpreting stage (0: defaults); a
                                memory set here is the one they all borrow (else
                                each check makes one) */
    RegallocOptions regalloc;/* register-allocator knobs of the machine-code stages */
    struct MachCovTable *mcov; /* machine-level coverage of the machine-code stages'
                                  compiles counted into (fuzz/mcov_table.h); NULL: none */
    CheckEngines *engines;   /* emulator engines reused across checks (check_engines_new);
                                NULL: made and freed by each check_module call */
    bool no_c;               /* no C stages (check_c.c) */
    bool no_pressure;        /* no register-pressure stages (x86-64-O2-regs, ...) */
    bool no_local;           /* no local-allocator stages (x86-64-O0-local, ...) */
    uint32_t local_every;    /* each ISA's local-allocator stage runs on one program in
                                this many (0 or 1: every one; a campaign's default is
                                LOCAL_EVERY_DEFAULT) */
    uint32_t pressure_every; /* each ISA's pressure stage runs on one program in this
                                many (0 or 1: every one; a campaign's default is
                                PRESSURE_EVERY_DEFAULT) */
    const char *cc;          /* the C stages' compilers, "gcc,clang" (NULL: every one installed) */
    uint32_t c_every;        /* the C stages run on one program in this many; 0 or 1: every one */
    bool tv;                 /* translation validation: a tv-PASS stage per pass (fuzz/check_tv.c) */
    TvOptions tv_options;    /* its bound and per-query timeout (0: tv.h's defaults) */
} CheckOptions;

/* where a check's time goes (wall clock of the checking process) */
typedef enum {
    PHASE_ORACLE,     /* the oracle's runs */
    PHASE_OPTIMIZE,   /* graph stages: passes, pipelines and verifying their results */
    PHASE_INTERP,     /* runs of the graph and scheduled-form stages */
    PHASE_SCHEDULE,   /* schedules (shared by scheduled-form and machine stages) */
    PHASE_COMPILE,    /* machine stages: selection, allocation, encoding */
    PHASE_EMULATE,    /* machine stages: loading the code and the runs under Unicorn */
    PHASE_TV,         /* tv stages: the pass applications and their proofs */
    PHASE_NATIVE,     /* native stages: the runs on the host's CPU (a process each) */
    PHASE_C,          /* C stages: the C compilers' runs and the runs of their code */
    PHASE_COUNT
} CheckPhase;

/* the verdicts of the tv stages' pass applications (those that changed their function) */
typedef struct {
    uint64_t proved, proved_upto, refuted, unconfirmed, unknown, unchanged;
    uint64_t reasons[TVR_COUNT]; /* unknown verdicts by TvReason */
    bool unavailable;            /* built without Z3: nothing was checked */
} CheckTvTally;

/* what went wrong at the first stage that disagreed */
typedef struct {
    bool mismatch;           /* a stage disagreed with the oracle */
    char stage[64];          /* "pass-fold", "O2", "sched-O0", "x86-64-O2", ... */
    char signature[128];     /* "STAGE:EXPECTED-vs-GOT" (outcome kinds, or verify /
                                refused / compile when the stage could not be built) */
    char detail[512];        /* one line: what differs, or why the stage failed */
    uint32_t run;            /* index of the run line in the module */
    Outcome expected, got;   /* the oracle's outcome and the stage's (when both ran) */
    /* tallies of the whole check */
    uint64_t runs;           /* run lines whose oracle outcome was compared */
    uint64_t execs;          /* calls executed by every stage, the oracle included */
    uint64_t stages;         /* stages opened */
    uint64_t outcome_kinds[5]; /* oracle outcomes by OutcomeKind */
    double seconds[PHASE_COUNT]; /* by CheckPhase */
    CheckTvTally tv;         /* CheckOptions.tv: the verdicts */
} CheckResult;
extern const char *const check_phase_names[PHASE_COUNT];

void check_options_default(CheckOptions *o);
/* check every run line of m: true if every stage agreed with the oracle, false with
 * the first disagreement in *res.  m is not changed.  res may be reused. */
bool check_module(const Module *m, const CheckOptions *opt, CheckResult *res);
/* the same with the oracle's outcomes given: oracle[i] is what interp_call gives for
 * run line i of m under opt->interp (a campaign has them from making the run lines),
 * so the oracle is not run again; each still has to meet its run line's expectation
 * when opt->check_expectations */
bool check_module_given(const Module *m, const CheckOptions *opt, const Outcome *oracle, CheckResult *res);
/* false with a message in err (what is wrong and the valid names) if an item of
 * opt->targets starts no stage's name at any -O level and ISA or none at the levels
 * and ISAs of opt, or opt->pass_order names an unknown pass: check before checking
 * anything */
bool check_options_validate(const CheckOptions *opt, char *err, size_t n);
/* the names of the stages check_module would try for opt, one per line, to out */
void check_list_stages(FILE *out, const CheckOptions *opt);
/* how many stages check_module would try for opt */
uint32_t check_stage_count(const CheckOptions *opt);
/* the outcome kind's word in a signature: return, trap, throw, timeout, invalid */
const char *check_kind_name(int outcome_kind);
/* a signature as a file name: characters other than [A-Za-z0-9._-] become '_' */
void check_signature_filename(const char *sig, char *buf, size_t n);
/* a tv finding (signature tv-PASS:refuted or :unconfirmed) with its confirming run
 * line: the `; run:` line of detail is added to *m (parsed again; *m replaced) when
 * it fits; with o, *m is checked again under o first and the run line taken from
 * that check (for a program changed since, e.g. reduced).  False if nothing was added. */
bool check_tv_add_runline(Module **m, const char *signature, const char *detail, const CheckOptions *o);
/* "PREFIXtv: N proved (K up to the loop bound), R refuted, U unknown (P%); ..." and a
 * line of the unknown verdicts' reasons */
void check_tv_print_tally(FILE *out, const char *prefix, const CheckTvTally *t);
void check_tv_tally_add(CheckTvTally *sum, const CheckTvTally *t);
/* a readable multi-line report of a mismatch (stage, call, both outcomes, heap bytes
 * that differ) */
void check_report(FILE *out, const Module *m, const CheckResult *res);

/* C stages (check_c.c): false with a message if list names a compiler they do not
 * know; the first --version line of each compiler of list (NULL: all) joined by "; " */
bool check_cc_list_valid(const char *list, char *err, size_t n);
/* the C stages' build, for benchmarks (bench/quality): DIR/m.c compiled by cc ("gcc",
 * "clang") for isa at opt ("-O2") to DIR/mO2.o (its path in obj); "" or the failure
 * kind (cc-error, cc-crash, cc-timeout) */
const char *check_c_compile(const char *dir, const char *cc, Isa isa, const char *opt, char *obj, size_t n);
/* the object at path loaded by the ELF loader into *emu (made if NULL) with the
 * functions of m as its entries; false with a message in err */
struct Emu;
bool check_c_load(const Module *m, Isa isa, const char *path, struct Emu **emu, char *err, size_t n);
void check_c_versions(const char *list, char *buf, size_t n);

/* the stages that run machine code (under Unicorn, natively), comma-separated in
 * check order, into buf: what a campaign says it runs */
void check_machine_stage_names(const CheckOptions *o, char *buf, size_t n);

#endif
