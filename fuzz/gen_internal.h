/* gen_internal.h — the generator's context and the helpers its files share
 * (gen.c: bytes, values, constants, conversions; gen_expr.c: computations and memory;
 * gen_ctrl.c: branches, switches, loops; gen_func.c: calls, statements, functions;
 * gen_extreme.c: the structural extremes). */
#ifndef CIRC_GEN_INTERNAL_H
#define CIRC_GEN_INTERNAL_H

#include "fuzz/gen.h"

enum {
    GEN_OWN_FUNCS = 8,          /* the most functions the options ask for */
    GEN_MAX_FUNCS = 13,         /* those, the deep-calls extreme's, and a chain of up
                                   to 4 throwing functions (gen_exc.c) */
    GEN_MAX_PARAMS = 6,         /* of an ordinary signature */
    GEN_WIDE_PARAMS = 255,      /* most parameters of the params extreme's function (a run
                                   line takes at most 256 arguments) */
    GEN_MAX_PTRS = 16,
    GEN_MAX_NEST = 5,           /* nesting of branches / loops */
    GEN_LOOP_MULT_MAX = 64,     /* product of the trip bounds of nested loops */
    GEN_RECURSION = 3,          /* extra activations a self-recursive function makes */
};
#define GEN_FUNC_COST_MAX 400000ull /* a call is placed only while the caller's estimated
                                       evaluations (callees included) stay under this */

typedef struct {
    const uint8_t *p;
    size_t n, pos;
} GenByteSrc;

/* a statement's own choices come from a fixed-size record of the bytes, so changing
 * a byte changes one statement and leaves the records of the others in place */
typedef struct {
    size_t end, pos;   /* window [.., end) of the bytes, next byte at pos */
    bool active;
} GenRecord;

enum {
    GEN_RECORD = 32, /* bytes per statement record */
    GEN_HEADER = 3,  /* the bytes' header: swarm mask (2 bytes), function count (1 byte) */
};

typedef struct {
    Type params[GEN_WIDE_PARAMS];
    uint32_t ptr_size[GEN_WIDE_PARAMS]; /* >0: a pointer to at least this many bytes */
    uint32_t nparams;
    int depth_param;                   /* index of the recursion depth (i32), -1 if none */
    Type ret;
    uint64_t cost;                     /* estimated gate evaluations per call */
    bool small;                        /* a few gates: what the inliner takes */
    bool pure_trap;                    /* small, straight-line, no memory effect or call,
                                          its result made from a division that may trap */
} GenSig;

typedef struct {
    GateId base;
    uint32_t size;
} GenPtr;

typedef struct {
    GateId *v;
    uint32_t n, cap;
} GenIdVec;

typedef struct {
    GateId counter;  /* the loop's counter selector (i8..i64) */
    Type type;
} GenLoopInfo;

typedef struct Gen {
    GenByteSrc src;
    GenRecord rec;           /* the current statement's record, if active */
    uint32_t size;
    uint8_t weight[GF_COUNT];
    Module *m;
    GenSig sigs[GEN_MAX_FUNCS];
    uint32_t nfuncs;
    /* the function being built */
    Func *f;
    Circuit *c;
    uint32_t fidx;
    GateId state, dep;       /* the current path: its state and the tip of its effect chain */
    GenIdVec pool[TY_COUNT]; /* values usable here, by type (scoped) */
    uint32_t *marks;         /* scope stack: pool lengths and pointer count per scope */
    uint32_t nmarks, capmarks;
    GateId pending[64];      /* results of loops and joins nothing consumes yet (scoped) */
    uint8_t consumed[64];
    uint32_t npending;
    GenPtr ptrs[GEN_MAX_PTRS]; /* usable here (scoped like the pools) */
    uint32_t nptrs;
    GateId sym[GEN_MAX_FUNCS];
    GateId depth_left;       /* AND(depth, 3) in a recursive function, else NO_GATE */
    bool self_called;
    uint32_t unsafe_divs;    /* divisions with an unguarded divisor made in the module */
    uint32_t exits;          /* early THROW / RETURN paths made in the module */
    uint64_t mult;           /* product of the trip bounds of the enclosing loops */
    uint64_t cost;           /* estimated evaluations of this function so far */
    uint32_t nest;
    GenLoopInfo loops[GEN_MAX_NEST + 1];
    uint32_t nloops;
    uint32_t limit;          /* gate count at which the function body stops growing */
    bool big_alloca;         /* this function has its one ALLOCA of more than 4 KiB */
    GenPtr last_ptr_arg;     /* where the latest call's last pointer argument points */
    GateId last_ptr_addr;    /* that argument itself (base, or base plus an offset) */
    uint32_t last_ptr_need;  /* the bytes the callee may use from it */
    GenPtr want_ptr;         /* the object pointer arguments are taken from, if base set */
    /* the structural extreme (gen_extreme.c) */
    GenExtreme extreme;      /* NONE for most modules */
    uint64_t xseed;          /* what the extreme's own bytes are made from */
    uint8_t *xbytes;         /* those bytes (allocated when needed) */
    uint32_t wide_fn, deep_fn; /* the params / calls extreme's function; UINT32_MAX if none */
    GateId ret_extra;        /* folded into this function's return value, if not NO_GATE */
    /* exceptions (gen_exc.c) */
    uint32_t exc_first, exc_n; /* the chain of throwing functions: indices, count (0: none) */
    uint64_t exc_seed;       /* what the chain's own bytes are made from */
    bool exc_entry_done;     /* the entry function has its INVOKE */
    bool no_joins_runtime;   /* GenOptions.no_joins_runtime */
} Gen;

/* gen.c: bytes and choices */
uint8_t gen_rd_byte(Gen *g);
uint32_t gen_rd_below(Gen *g, uint32_t n);    /* [0, n), n >= 1 */
bool gen_rd_chance(Gen *g, uint32_t percent);
uint64_t gen_rd_u64(Gen *g);
int gen_rd_weighted(Gen *g, const uint8_t *w, int n); /* index with weight; -1 if all 0 */
/* the next n bytes of the stream become the current record; returns the old one */
GenRecord gen_begin_record(Gen *g, size_t n);
void gen_end_record(Gen *g, GenRecord saved);
bool gen_feat(const Gen *g, GenFeature f);
uint64_t gen_splitmix64(uint64_t *x);      /* the next output; advances *x */

/* gen.c: gates, values and scopes */
GateId gen_add_gate(Gen *g, Opcode op, Type ty, int cond, uint64_t lit, const GateId *s, uint32_t ns,
                    const GateId *d, uint32_t nd, const GateId *v, uint32_t nv);
GateId gen_bin(Gen *g, Opcode op, Type ty, GateId a, GateId b);
GateId gen_un(Gen *g, Opcode op, Type ty, GateId a);
GateId gen_cmp(Gen *g, Opcode op, int cond, GateId a, GateId b); /* ICMP / FCMP */
GateId gen_cnst(Gen *g, Type ty, uint64_t bits);
GateId gen_interesting_const(Gen *g, Type ty);
uint64_t gen_boundary_int(Gen *g, Type ty);   /* an encoding boundary, a single bit or a
                                                 logical-immediate pattern (see gen.c) */
void gen_pool_add(Gen *g, GateId v);
GateId gen_val_of(Gen *g, Type ty);           /* a value of type ty usable here */
GateId gen_convert_to(Gen *g, GateId v, Type to);
void gen_scope_push(Gen *g);
void gen_scope_pop(Gen *g);                   /* drop values and pointers defined in the scope */
void gen_scope_keep(Gen *g);                  /* end the scope, keeping its values */
void gen_pending_add(Gen *g, GateId v);       /* a result that should flow on */
GateId gen_pending_take(Gen *g, Type t);      /* the latest unconsumed one (of type t, or any
                                                 if TY_NONE); NO_GATE if none */
Type gen_rand_int_type(Gen *g);               /* i8..i64 */
Type gen_rand_value_type(Gen *g);             /* any value type */
Type gen_rand_mem_type(Gen *g);               /* any type but i1 */
void gen_charge(Gen *g, uint64_t evals);      /* add to the cost estimate */

/* gen_expr.c: computations, memory */
void gen_stmt_int(Gen *g);
/* gen_ops.c: SELECT and the added integer operations */
void gen_stmt_bits(Gen *g);
GateId gen_stmt_div(Gen *g, bool may_trap);     /* the division made */
/* the same of type t; with may_trap, divisor (if not NO_GATE) is the divisor's value */
GateId gen_div_of(Gen *g, Type t, bool may_trap, GateId divisor);
void gen_stmt_float(Gen *g);
void gen_stmt_fops(Gen *g);                   /* SQRT .. FCOPYSIGN, edge operands (gen_fops.c) */
void gen_stmt_convert(Gen *g);
void gen_stmt_compare(Gen *g);
void gen_stmt_load(Gen *g);
void gen_stmt_store(Gen *g);
void gen_stmt_ptr_measure(Gen *g);            /* SUB / ICMP of two addresses of one object */
GateId gen_make_cond(Gen *g);                 /* an i1 condition */
GenPtr *gen_pick_ptr(Gen *g, uint32_t min_size);
GateId gen_address(Gen *g, GenPtr *p, Type t); /* an address in p for an access of type t */
uint64_t gen_mask_below(uint64_t n);          /* largest 2^k - 1 <= n */
GateId gen_i64_value(Gen *g);                 /* an i64 made from a value of any integer type */

/* gen_ctrl.c: statements with control flow, and the pieces gen_func.c shares */
bool gen_path_ended(const Gen *g);
GateId gen_relay(Gen *g, GateId state, GateId dep); /* DEPEND_RELAY [state] {dep} */
GateId gen_state1(Gen *g, Opcode op, uint64_t lit, GateId in); /* a state gate on one input */
uint32_t gen_room(const Gen *g, uint32_t limit); /* gates left before limit */
void gen_end_path(Gen *g, bool is_throw);     /* RETURN or THROW here */
GateId gen_masked(Gen *g, Type t, GateId v, uint64_t mask);
void gen_stmt_if(Gen *g, uint32_t limit);
void gen_stmt_switch(Gen *g, uint32_t limit);
void gen_stmt_exit(Gen *g);
void gen_stmt_block(Gen *g);
void gen_stmt_guarded_div(Gen *g);
void gen_stmt_guarded_access(Gen *g, bool is_load);
void gen_stmt_loop(Gen *g, uint32_t limit);
GateId gen_fold_in(Gen *g, GateId acc, GateId v, Type t); /* acc op v, v converted to t */
/* generate each arm (a state with one output) and MERGE the survivors; plan->nsel
 * values (types plan->type) flow through VALUE_SELECTORs; the first is returned */
typedef struct {
    uint32_t nsel;
    Type type[3];
} GenSelPlan;
GateId gen_join_arms(Gen *g, const GateId *arms, uint32_t narms, uint32_t arm_budget,
                     const GenSelPlan *plan);

/* gen_func.c: calls, the statement choice, functions */
void gen_block(Gen *g, uint32_t limit);       /* statements until the gate count reaches limit */
void gen_function(Gen *g, uint32_t idx, uint32_t budget);
void gen_begin_function(Gen *g, uint32_t idx, const char *name); /* sigs[idx] made */
GateId gen_emit_call(Gen *g, uint32_t fn, const GateId *args); /* CALL on the chain */
GateId gen_call(Gen *g, uint32_t fn); /* arguments from here, cost charged; NO_GATE if
                                         a pointer argument cannot be supplied */

/* gen_idiom.c: shapes instruction selectors match, register pressure, and the
 * effect shapes of calls (see the file's opening comment) */
GateId gen_idiom_cond(Gen *g);                /* bit test, compare with 0 or a boundary */
void gen_stmt_absorbed_div(Gen *g);           /* a division that may trap, used as q * 0, q - q, ... */
void gen_stmt_idiom(Gen *g);                  /* an operation with a boundary constant */
void gen_stmt_pressure(Gen *g, uint32_t left, bool with_call); /* many values live
                                                 together (across a call) */
void gen_stmt_dep_join(Gen *g);               /* IF { CALL or LOAD } MERGE, then an effect */
void gen_stmt_call_via_stack(Gen *g);         /* STORE, CALL f(address), LOAD */
void gen_stmt_call_relay(Gen *g);             /* CALL, DEPEND_RELAY, STORE, LOAD at the result:
                                                 a function's last statement */
GateId gen_ptr_arg(Gen *g, uint32_t need);    /* a pointer argument; NO_GATE if none */
/* a small callee's store / trap / throw; true if its result is to be made from the
 * trapping division with no effect (the body is then built by gen_pure_block) */
bool gen_small_callee_head(Gen *g);
void gen_pure_block(Gen *g, uint32_t limit);  /* gen_block without effects or control flow */
void gen_ptr_param_head(Gen *g);              /* at times a store through the first pointer parameter */
GateId gen_call_some(Gen *g);                 /* a call of an earlier function; NO_GATE if none */

/* gen_rt.c: dependency joins and runtime calls */
void gen_stmt_join(Gen *g);                   /* chains over disjoint bytes, a DEPEND_AND */
void gen_stmt_runtime(Gen *g);                /* a call of a runtime function */
bool gen_rt_stmt(Gen *g);                     /* one of the two, GEN_RT_PERCENT % of the
                                                 time each (false: neither) */
#define GEN_RT_PERCENT 34
bool gen_rt_signature(Gen *g, GenSig *s);     /* maybe (i64) -> i64 for a callee */

/* gen_exc.c: exceptions */
/* how many chain functions this module gets before its own (0: none) */
uint32_t gen_exc_plan(Gen *g, const uint8_t *bytes, size_t len, const GenOptions *opt);
void gen_exc_chain(Gen *g, uint32_t first);  /* the chain, at indices first.. */
bool gen_exc_is_chain(const Gen *g, uint32_t fn);
/* an INVOKE statement here, sometimes (always as the entry's first): true if made */
bool gen_exc_stmt(Gen *g, uint32_t limit);
/* gen_extreme.c: the structural extremes */
void gen_extreme_plan(Gen *g, const uint8_t *bytes, size_t len, const GenOptions *opt);
void gen_extreme_signature(Gen *g, GenSig *s);   /* the params extreme's wide one */
void gen_deep_function(Gen *g, uint32_t idx);    /* the calls extreme's recursion */
void gen_extreme_tail(Gen *g);   /* the entry's extreme statement, before its return */
GateId gen_args_checksum(Gen *g, Type t);        /* all ARGs folded into one value */

#endif
