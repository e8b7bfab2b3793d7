/* gen.h — the random program generator: decodes any byte string into a valid,
 * terminating, race-free Circuit IR module (valid by construction, never by
 * filtering), plus run lines whose expectations come from the interpreter, and
 * statistics over many generated programs (`circ gen --stats`).
 *
 * Decoding is total and deterministic: every byte string (empty and truncated ones
 * included; missing bytes read as zero, and zero means "no" to every optional
 * feature, so the empty string is `return 0`) yields a module, and the same bytes
 * always the same module, whatever compiler built the generator.  Small byte changes
 * give small program changes: a 3-byte header (swarm mask, function count), then one
 * byte region per function (24 bytes per gate of its budget; the entry function's
 * first, so a short input still makes a real entry function), inside which every
 * statement reads its choices from its own 32-byte record in a stable order; a
 * function ends when its region is used up.  A hash of the header also picks, for
 * about 1 program in 250, a structural extreme (GenExtreme, gen_extreme.c) whose
 * choices come from bytes derived from that hash, not from the regions.
 *
 * What the programs are like: see the comments atop gen_ctrl.c (control flow,
 * effect chains, loops, calls), gen_expr.c (computations, memory) and gen_extreme.c
 * (the extremes). */
#ifndef CIRC_GEN_H
#define CIRC_GEN_H

#include "compiler/ir/ir.h"
#include "oracle/interp.h"

/* features a program may use; each has a relative weight (0 = never) */
typedef enum {
    GF_INT,      /* integer arithmetic and logic */
    GF_DIV,      /* SDIV/SREM/UDIV/UREM with guarded divisors */
    GF_DIV0,     /* divisions whose divisor may be zero (the rare trapping kind) */
    GF_FLOAT,    /* float arithmetic */
    GF_CONVERT,  /* conversions and bitcasts */
    GF_COMPARE,  /* ICMP / FCMP */
    GF_LOAD,     /* LOAD from an ALLOCA slot or the harness buffer */
    GF_STORE,    /* STORE likewise */
    GF_CALL,     /* calls to earlier functions, bounded self-recursion */
    GF_IF,       /* IF_BRANCH with two arms and a MERGE */
    GF_SWITCH,   /* SWITCH_BRANCH with sparse cases */
    GF_LOOP,     /* counted do-while loops */
    GF_EXIT,     /* early THROW / RETURN from a branch arm */
    GF_BLOCK,    /* ORDINARY_BLOCK */
    GF_COUNT
} GenFeature;

/* structural extremes: a few programs get one shape far beyond the usual sizes, so a
 * campaign finds the next fixed limit of the compiler, the oracles or the harness */
typedef enum {
    GEN_EXTREME_AUTO,    /* chosen from the bytes' header: about 1 program in 250 gets one */
    GEN_EXTREME_NONE,
    GEN_EXTREME_SWITCH,  /* a SWITCH_BRANCH with 100..400 cases (and a MERGE of them all) */
    GEN_EXTREME_MERGE,   /* an IF ladder of 100..400 rungs joined by one MERGE */
    GEN_EXTREME_PARAMS,  /* a function with 65..255 parameters (a callee the entry calls, or
                            the entry itself when the module has one function) */
    GEN_EXTREME_CALLS,   /* a self-recursive function the entry calls 100..199 levels deep */
    GEN_EXTREME_COUNT
} GenExtreme;

typedef struct {
    uint32_t size;             /* target gate count for the whole module; 0: 100 */
    uint32_t funcs;            /* number of functions (at most 8); 0: chosen from the bytes,
                                  1..4 and at most one per ~40 gates of size */
    bool swarm;                /* switch a random subset of features off per program */
    bool has_weights;          /* use weight[] instead of the default weights */
    uint8_t weight[GF_COUNT];
    GenExtreme extreme;        /* AUTO (0): from the bytes; else that one (NONE: none) */
    bool no_exceptions;        /* no chain of throwing functions, no INVOKE (gen_exc.c) */
    bool no_joins_runtime;     /* no DEPEND_AND joins, no runtime calls, no callback
                                  signatures (gen_rt.c) */
} GenOptions;

const char *gen_feature_name(GenFeature f);
void gen_default_weights(uint8_t weight[GF_COUNT]);
/* "loop=0,call=20,...": change the named weights (0..255) of weight[]; false (and
 * weight[] unchanged) on an unknown name or a bad number */
bool gen_parse_weights(const char *spec, uint8_t weight[GF_COUNT]);

const char *gen_extreme_name(GenExtreme x);
/* "none", "switch", "merge", "params", "calls" or "auto"; false on another name */
bool gen_parse_extreme(const char *name, GenExtreme *x);
/* the extreme generate() gives these bytes under opt (never AUTO; opt may be NULL) */
GenExtreme gen_extreme_of(const uint8_t *bytes, size_t len, const GenOptions *opt);

/* a valid module for any bytes; opt may be NULL (defaults).  The entry function is the
 * last one.  Never NULL. */
Module *generate(const uint8_t *bytes, size_t len, const GenOptions *opt);

/* add up to nruns `; run:` lines for the entry function: arguments drawn from the
 * bytes (read from the end), `heap` for pointer parameters, expectations from the
 * interpreter.  Runs that end in timeout or invalid get no line; their outcomes are
 * still reported in outcomes[] (may be NULL, else nruns entries).  A repeat of
 * earlier arguments is not run again.  Returns the number of runs made (the
 * outcomes[] filled). */
uint32_t gen_add_runlines(Module *m, const uint8_t *bytes, size_t len, uint32_t nruns,
                          const InterpOptions *iopt, Outcome *outcomes);

/* the run-line expectation an outcome gives (false for timeout / invalid) */
bool gen_expect_from_outcome(const Outcome *o, RunExpect *e);

/* seed -> bytes with splitmix64 (n bytes into buf) */
void gen_seed_bytes(uint64_t seed, uint8_t *buf, size_t n);
/* how many bytes to give generate() for a program of this size from a seed (enough
 * that no function's region runs out) */
size_t gen_bytes_for_size(uint32_t size);

/* ---- statistics over many programs ---------------------------------------- */
enum { GEN_MERGE_MAX = 8 };

/* integer constants by the encoding boundary they sit at (gen_shapes.c) */
typedef enum {
    GEN_CONST_IMM12,     /* 4095, 4096, 4097, 0xfff000, 0xfff001, 0x1000000 and negations */
    GEN_CONST_IMM16,     /* 0x7fff, 0x8000, 65535, 65536, 65537, 0xffff0000 */
    GEN_CONST_IMM8,      /* 127, 128, 129, 255, 256 and negations */
    GEN_CONST_INT32,     /* 0x7fffffff, 0x80000000, 0xffffffff, 2^32 (in i64) */
    GEN_CONST_INT64,     /* INT64_MIN, INT64_MAX */
    GEN_CONST_BIT,       /* a single bit >= 2^9, or the complement of a single bit */
    GEN_CONST_LOGICAL,   /* another repeating ARM64 logical-immediate pattern */
    GEN_CONST_COUNT
} GenConstClass;

/* shapes the backends' idioms and the passes' effect rules match (gen_shapes.c) */
typedef enum {
    GEN_SHAPE_BIT_TEST,      /* IF_BRANCH on (x & 2^k) ==/!= 0 or ((x >> k) & 1) ==/!= 0 */
    GEN_SHAPE_CMP_ZERO,      /* ICMP with a constant 0 operand */
    GEN_SHAPE_NARROW_STORE,  /* STORE of a TRUNC */
    GEN_SHAPE_BIG_OFFSET,    /* LOAD / STORE at x + k or x - k with k >= 128 */
    GEN_SHAPE_STACK_ARG,     /* CALL argument that is an ALLOCA */
    GEN_SHAPE_STACK_ARG_OFF, /* ... an ALLOCA plus an offset */
    GEN_SHAPE_STACK_ARG_SEL, /* ... a VALUE_SELECTOR of ALLOCA addresses */
    GEN_SHAPE_STACK_ARG_LOOP,/* a stack address argument of a CALL inside a loop */
    GEN_SHAPE_DEP_JOIN_CALL, /* DEPEND_SELECTOR / DEPEND_RELAY of a CALL that a later
                                effect (LOAD, STORE, CALL) depends on, through at most
                                three more of them */
    GEN_SHAPE_DEP_JOIN_LOAD, /* ... of a LOAD */
    GEN_SHAPE_SMALL_STORE,   /* a callee of at most 48 gates that stores */
    GEN_SHAPE_SMALL_TRAP,    /* ... that divides by a non-constant */
    GEN_SHAPE_SMALL_THROW,   /* ... that may throw */
    GEN_SHAPE_INVOKE_LEAF,   /* an INVOKE of a function without calls or loops (the
                                inliner's candidates at INVOKEs) */
    GEN_SHAPE_PRESSURE,      /* a chain of >= 12 consecutive used LOADs */
    GEN_SHAPE_PRESSURE_CALL, /* ... ending at a CALL, the loaded values used after it */
    GEN_SHAPE_COUNT
} GenShape;
const char *gen_const_class_name(GenConstClass k);
const char *gen_shape_name(GenShape k);
typedef struct {
    uint64_t programs, gates, verify_failures;
    uint64_t op_count[OP_COUNT];      /* gates per opcode */
    uint64_t op_programs[OP_COUNT];   /* programs containing the opcode */
    uint64_t op_types[OP_COUNT][TY_COUNT]; /* result (or operand) types per opcode */
    uint64_t icmp[16], fcmp[16];      /* by condition encoding */
    uint64_t merge_inputs[GEN_MERGE_MAX + 1]; /* MERGE gates by input count (last: more) */
    uint64_t switch_negative, switch_sparse; /* switches with a negative / gap-y case set */
    uint64_t extremes[GEN_EXTREME_COUNT]; /* programs by structural extreme (gen_stats_extreme) */
    uint64_t widest_switch, widest_merge, most_params; /* the largest seen: cases, inputs,
                                                          parameters of one function */
    uint64_t *loops, *effects, *calls;/* per program (for medians): LOOP_BEGINs, LOADs and
                                         STOREs, CALLs; grown as needed */
    uint64_t cap;
    uint64_t outcomes[5];             /* by OutcomeKind */
    uint64_t trap_kinds[8];           /* OUT_TRAP runs by TrapKind */
    uint64_t runs;
    uint64_t steps, max_steps;        /* interpreter steps over all runs, and the most in one */
    uint64_t caught_programs;         /* programs where some run's INVOKE caught a throw */
    uint64_t caught_mark;             /* the program last counted there */
    uint64_t consts[GEN_CONST_COUNT], const_programs[GEN_CONST_COUNT]; /* constants by class,
                                         and programs with at least one */
    uint64_t shapes[GEN_SHAPE_COUNT], shape_programs[GEN_SHAPE_COUNT];
    uint64_t runtime_programs;         /* programs declaring (and calling) the runtime */
    uint64_t runtime_fn_programs[RT_COUNT]; /* ... per runtime function */
} GenStats;

void gen_stats_init(GenStats *s);
void gen_stats_free(GenStats *s);
/* count one generated module (verified here; failures counted) */
void gen_stats_add(GenStats *s, const Module *m);
/* the type a gate is counted under in op_types: its result, or for gates without one
 * the type of the value they consume (ICMP, STORE, RETURN, ...) */
Type gen_stats_class_type(const Circuit *c, const Gate *g);
void gen_stats_outcome(GenStats *s, const Outcome *o);
/* count one program's structural extreme (from gen_extreme_of) */
void gen_stats_extreme(GenStats *s, GenExtreme x);
/* the table `circ gen --stats` prints */
void gen_stats_print(FILE *out, const GenStats *s);
/* opcodes / condition codes never seen (for tests): count of missing entries,
 * names written to out if non-NULL */
int gen_stats_missing(const GenStats *s, FILE *out);
uint64_t gen_stats_median(const uint64_t *v, uint64_t n);
/* count one module's boundary constants and shapes into s (called by gen_stats_add) */
void gen_stats_shapes(GenStats *s, const Module *m);
void gen_stats_print_shapes(FILE *out, const GenStats *s);

#endif
