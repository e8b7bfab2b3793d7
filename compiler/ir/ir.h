/* ir.h — Circuit IR: types, the opcode table, circuits (gates with ordered inputs and
 * use lists, arena-allocated), modules of functions, run lines, diagnostics, and the
 * entry points of the parser, printer, verifier and Graphviz exporter.
 *
 * Gates are named by GateId (an index into the circuit's gate array); a Gate pointer
 * is valid only until the next gate is added to the same circuit. */
#ifndef CIRC_IR_H
#define CIRC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- arena ------------------------------------------------------------------- */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n); /* zero-filled, 16-byte aligned */
/* old (an allocation of a of oldn bytes, or NULL) grown to newn bytes, the first
 * min(oldn, newn) kept, new bytes 0: in place if it is the last allocation and its
 * block has room (a shrink always stays in place), else a copy; the old bytes stay
 * readable until arena_free. */
void *arena_grow(Arena *a, void *old, size_t oldn, size_t newn);
/* the same without clearing: the bytes beyond what is kept are unspecified */
void *arena_alloc_raw(Arena *a, size_t n);
void *arena_grow_raw(Arena *a, void *old, size_t oldn, size_t newn);
/* arena_grow_raw for an array nobody points into: old may not be used afterwards; a
 * large allocation (64 KiB and up: a chunk of its own) is resized with realloc, so
 * growing by doubling leaves no old copies behind */
void *arena_resize(Arena *a, void *old, size_t oldn, size_t newn);
/* p (an allocation of a of n bytes, or NULL) no longer used: a large one's memory
 * goes back to the system now, the last allocation's back to its block; any other
 * stays until arena_free */
void arena_release(Arena *a, void *p, size_t n);
char *arena_strndup(Arena *a, const char *s, size_t n);
void *arena_memdup(Arena *a, const void *src, size_t n); /* a copy of n bytes (n > 0) */
size_t arena_bytes(const Arena *a); /* bytes it holds now */

/* ---- types ------------------------------------------------------------------- */
typedef enum { TY_NONE, TY_I1, TY_I8, TY_I16, TY_I32, TY_I64, TY_F32, TY_F64, TY_COUNT } Type;
#define TY_ARCH TY_I64
int ty_bits(Type t);           /* 0 for TY_NONE */
bool ty_is_int(Type t);
bool ty_is_float(Type t);
const char *ty_name(Type t);   /* "i32", ..., "void" for TY_NONE */
Type ty_parse(const char *s, size_t n); /* TY_COUNT if not a type name */
uint64_t ty_mask(Type t);      /* all-ones in the low ty_bits(t) bits */
int64_t ty_sext(Type t, uint64_t bits); /* sign-extend the low bits of an int type */

/* ---- opcodes ----------------------------------------------------------------- */
typedef enum {
#define OP(name, ...) OP_##name,
#include "opcodes.def"
#undef OP
    OP_COUNT
} Opcode;

enum { VAR = 0xffff }; /* unbounded wire count in opcodes.def */
typedef enum { TS_NONE, TS_REQ, TS_OPT } TypeSyntax;
typedef enum { LIT_NONE, LIT_CONST, LIT_INT, LIT_SYM } LitKind;
typedef enum { CC_NONE, CC_ICMP, CC_FCMP } CondKind;
typedef enum {
    TR_NONE,    /* no value output */
    TR_RETURN,  /* data input (if any) has the function's return type */
    TR_THROW,   /* one data input of any value type */
    TR_COND,    /* one i1 data input */
    TR_SWITCH,  /* one integer data input, i8..i64 */
    TR_SELECT,  /* every data input has the gate's type */
    TR_CHOOSE,  /* SELECT: an i1 condition, then two inputs of the gate's (value) type */
    TR_CALL,    /* callee i64, arguments any value type; result any type or void */
    TR_FLOAT1,  /* float result, one input of the same type */
    TR_INT2,    /* i8..i64 result, two inputs of the same type */
    TR_INT1,    /* i8..i64 result, one input of the same type */
    TR_BSWAP,   /* i16..i64 result, one input of the same type */
    TR_LOGIC2,  /* i1..i64 result, two inputs of the same type */
    TR_FLOAT2,  /* float result, two inputs of the same type */
    TR_ICMP,    /* i1 result, two integer inputs of one type */
    TR_FCMP,    /* i1 result, two float inputs of one type */
    TR_TRUNC,   /* integer result narrower than its integer input */
    TR_EXTEND,  /* integer result (i8..i64) wider than its integer input */
    TR_ITOF,    /* float result, integer input i8..i64 */
    TR_FTOI,    /* integer result i8..i64, float input */
    TR_BITCAST, /* result and input of equal width, neither i1 */
    TR_FPEXT,   /* f64 result, f32 input */
    TR_FPTRUNC, /* f32 result, f64 input */
    TR_LOAD,    /* result any type but i1, address i64 */
    TR_STORE,   /* value any type but i1, address i64 */
    TR_ARCH,    /* result i64, no inputs */
    TR_ARG,     /* result matches the signature's parameter */
    TR_ANY,     /* any value type */
} TypeRule;

enum {
    F_ROOT = 1 << 0,      /* a root node, fixed id, never written */
    F_STATE = 1 << 1,     /* a state gate */
    F_GENERAL = 1 << 2,   /* GENERAL_STATE in the spec's notation */
    F_STATEOUT = 1 << 3,  /* has a state output */
    F_RELAYABLE = 1 << 4, /* may be the state input of DEPEND_RELAY */
    F_JOIN = 1 << 5,      /* MERGE or LOOP_BEGIN: selectors sit on it */
    F_VALUE = 1 << 6,     /* may produce a data value */
    F_DEPOUT = 1 << 7,    /* has a dependency output */
    F_EFFECT = 1 << 8,    /* touches memory or calls */
    F_PURE = 1 << 9,      /* no effect: its value depends on its inputs only */
    F_TRAPS = 1 << 10,    /* may trap: never speculated */
    F_COMMUTES = 1 << 11, /* the two data inputs commute */
    F_TERM = 1 << 12,     /* RETURN or THROW */
    F_NAN_BLIND = 1 << 13,/* the payload of a NaN data input never shows in the result
                             (a NaN result is the canonical one, or no float) */
};

typedef struct {
    const char *name;
    uint16_t smin, smax, dmin, dmax, vmin, vmax;
    uint8_t tysyn, lit, cond, rule;
    uint32_t flags;
} OpInfo;

extern const OpInfo op_info[OP_COUNT]; /* read-only */
static inline bool op_has(int op, uint32_t f) { return (op_info[op].flags & f) != 0; }
int op_parse(const char *s, size_t n); /* -1 if unknown; roots are not parsed */

/* condition codes, stored as the spec's 4-bit encodings */
enum {
#define ICC(n, e) ICMP_##n = e,
#define FCC(n, e) FCMP_##n = e,
#include "conds.def"
#undef ICC
#undef FCC
};
const char *cond_name(CondKind k, int code); /* NULL if not a valid code */
int cond_parse(CondKind k, const char *s, size_t n); /* -1 if unknown */

/* ---- circuits ---------------------------------------------------------------- */
typedef uint32_t GateId;
#define NO_GATE 0xffffffffu
/* a function takes at most this many parameters (the parser states it with a location),
 * so a run line, a call or a frame can size its arguments by it */
#define FUNC_MAX_PARAMS 256

enum {
    ROOT_CIRCUIT, ROOT_STATE_ENTRY, ROOT_DEPEND_ENTRY, ROOT_RETURN_LIST, ROOT_THROW_LIST,
    ROOT_CONSTANT_LIST, ROOT_ALLOCA_LIST, ROOT_ARG_LIST, NUM_ROOTS
};

typedef struct { GateId user; uint32_t index; } Use;

typedef struct Gate {
    uint16_t op;      /* Opcode */
    uint8_t type;     /* Type of the data output, TY_NONE if none */
    uint8_t cond;     /* ICMP/FCMP condition encoding */
    uint8_t dead;     /* removed: skipped by every walker */
    uint16_t nstate, ndep;
    uint32_t ndata;
    GateId *in;       /* states, then dependencies, then data */
    uint64_t lit;     /* CONSTANT bits (ints masked to width, floats as IEEE bits),
                         ARG index, ALLOCA bytes, SWITCH_CASE value, SYMBOL func index */
    const char *name; /* without '%'; NULL if unnamed */
    Use *uses;
    uint32_t nuses, capuses;
    uint32_t line, col; /* source position, 0 if built */
} Gate;

typedef struct Module Module;
typedef struct Func Func;

/* A root list (the spec's RETURN_LIST, THROW_LIST, CONSTANT_LIST, ALLOCA_LIST and
 * ARG_LIST: "registering" the terminals and the value origins): circ_add registers
 * every gate of the list's opcode (RETURN, THROW, CONSTANT, ALLOCA, ARG) in the order
 * they are made; a killed gate may stay listed, dead, until the list is compacted (at
 * the latest when half of it is dead), and walkers skip it as they skip every dead
 * gate.  The verifier checks that each live gate of the opcode is listed once. */
typedef struct {
    GateId *items;
    uint32_t n, cap, ndead;
} RootList;

typedef struct Circuit {
    Arena *arena;
    Gate *gates;
    uint32_t ngates, capgates;
    Func *func; /* the function this circuit is the body of */
    RootList lists[NUM_ROOTS]; /* indexed by the list's root id; the others stay empty */
} Circuit;

static inline Gate *circ_gate(const Circuit *c, GateId g) { return &c->gates[g]; }
static inline uint32_t gate_nin(const Gate *g) { return g->nstate + g->ndep + g->ndata; }
static inline GateId gate_state(const Gate *g, uint32_t i) { return g->in[i]; }
static inline GateId gate_dep(const Gate *g, uint32_t i) { return g->in[g->nstate + i]; }
static inline GateId gate_data(const Gate *g, uint32_t i) { return g->in[g->nstate + g->ndep + i]; }

Circuit *circ_new(Func *f); /* with the eight roots at their fixed ids */
void circ_free(Circuit *c);
GateId circ_add(Circuit *c, Opcode op, Type ty, int cond, uint64_t lit,
                const GateId *states, uint32_t ns, const GateId *deps, uint32_t nd,
                const GateId *data, uint32_t nv);
/* replace every input of g (use lists kept right); NO_GATE inputs are allowed while building */
void circ_set_inputs(Circuit *c, GateId g, const GateId *states, uint32_t ns,
                     const GateId *deps, uint32_t nd, const GateId *data, uint32_t nv);
void circ_set_input(Circuit *c, GateId g, uint32_t index, GateId v);
void circ_replace_uses(Circuit *c, GateId old, GateId repl); /* every use of old -> repl */
void circ_kill(Circuit *c, GateId g); /* drop g's inputs and mark it dead (uses must be gone) */
void circ_set_name(Circuit *c, GateId g, const char *name, size_t n);
uint32_t circ_live_count(const Circuit *c); /* gates not dead, roots excluded */
/* the root list that registers gates of opcode op (ROOT_RETURN_LIST ...), or -1 */
int root_list_of(int op);
/* the gates registered in root list `root` (dead ones possible: skip them) */
const GateId *circ_root_list(const Circuit *c, int root, uint32_t *n);

/* conveniences for builders */
GateId circ_const(Circuit *c, Type ty, uint64_t bits);
GateId circ_binop(Circuit *c, Opcode op, Type ty, GateId a, GateId b);
GateId circ_unop(Circuit *c, Opcode op, Type ty, GateId a);
GateId circ_cmp(Circuit *c, Opcode op, int cond, GateId a, GateId b);

/* ---- the runtime (runtime.def, docs/runtime.md) ------------------------------ */
typedef enum {
#define RT(name, ...) RT_##name,
#include "runtime.def"
#undef RT
    RT_COUNT
} RuntimeFn;

typedef struct {
    const char *name;
    Type ret;
    uint32_t nparams;
    Type params[3];
} RuntimeInfo;

extern const RuntimeInfo runtime_info[RT_COUNT]; /* read-only */
int runtime_find(const char *name, size_t n);    /* RuntimeFn, or -1 if circ has none so named */

/* `extern @name(...) -> T`: a runtime function the module calls.  A SYMBOL's literal
 * is a function index, or SYM_EXTERN | the index of one of these. */
typedef struct {
    const char *name;  /* without '@' */
    uint32_t rt;       /* RuntimeFn */
    uint32_t line, col;
} Extern;
#define SYM_EXTERN 0x80000000u
static inline bool sym_is_extern(uint64_t lit) { return (lit & SYM_EXTERN) != 0; }

/* ---- modules ----------------------------------------------------------------- */
struct Func {
    const char *name;  /* without '@' */
    Type *params;
    uint32_t nparams;
    Type ret;          /* TY_NONE for void */
    Circuit *circ;
    Module *module;
    uint32_t index;    /* position in the module */
    uint32_t line, col;
};

typedef enum { RA_INT, RA_FLOAT, RA_HEAP, RA_FUNC } RunArgKind;
/* bits already in the parameter type; RA_FUNC: the function's index (an i64
 * parameter gets the function's address, which each executor knows) */
typedef struct { uint8_t kind; uint64_t bits; } RunArg;

typedef enum {
    EX_VALUE,        /* return exactly these bits (in the return type) */
    EX_NAN,          /* return any NaN */
    EX_VOID,         /* a void function returns */
    EX_TRAP,         /* any trap */
    EX_TRAP_DIV0,
    EX_TRAP_OVERFLOW,
    EX_THROW,        /* throw: value compared in the thrown value's type */
} ExpectKind;

typedef struct {
    uint8_t kind;      /* ExpectKind */
    uint8_t is_float;  /* EX_THROW: the literal was a float (bits of a double) */
    uint64_t bits;     /* EX_VALUE: bits in the return type; EX_THROW: int64 or double bits */
} RunExpect;

typedef struct {
    uint32_t func;     /* index of the called function */
    RunArg *args;
    uint32_t nargs;
    RunExpect expect;
    uint32_t line;
} RunLine;

struct Module {
    Arena *arena;      /* names, signatures, run lines; each circuit has its own */
    const char *file;  /* for diagnostics */
    Func **funcs;
    uint32_t nfuncs, capfuncs;
    uint32_t *func_slots; /* open-addressing hash of the names: index + 1, 0 if empty */
    uint32_t capslots;    /* a power of two, more than twice nfuncs (0 before the first) */
    RunLine *runs;
    uint32_t nruns, capruns;
    Extern *externs;   /* in declaration order */
    uint32_t nexterns, capexterns;
};

Module *module_new(const char *file);
void module_free(Module *m);
Func *module_add_func(Module *m, const char *name, const Type *params, uint32_t nparams, Type ret);
Func *module_find(const Module *m, const char *name, size_t n); /* hashed: O(n) per lookup */
RunLine *module_add_run(Module *m); /* zeroed, caller fills it */
/* declare runtime function rt under its own name; its index (an existing one if
 * declared already) */
uint32_t module_add_extern(Module *m, RuntimeFn rt);
int module_find_extern(const Module *m, const char *name, size_t n); /* index, or -1 */
/* the RuntimeFn a SYMBOL literal names, or -1 (a module function, or out of range) */
int module_symbol_runtime(const Module *m, uint64_t lit);
/* the name a SYMBOL literal names ("?" if none) */
const char *module_symbol_name(const Module *m, uint64_t lit);
Module *module_clone(const Module *m); /* deep copy: gate ids, names, run lines kept */
/* the same signature and the same gates (opcode, type, condition, literal, inputs) at
 * the same ids: what a pass that changed nothing leaves of a clone */
bool func_same_body(const Func *a, const Func *b);

/* trap kinds: what a trap is called in outcomes, trap tables and run lines */
typedef enum {
    TRAP_NONE,
    TRAP_DIV0,     /* integer division or remainder by zero */
    TRAP_OVERFLOW, /* signed division or remainder of INT_MIN by -1 */
    TRAP_FAULT,    /* compiled code touched unmapped memory (never valid: a mismatch) */
    TRAP_ILLEGAL,  /* compiled code ran an instruction it should not have */
    TRAP_ABI,      /* compiled code broke the calling convention (the emulator harness's
                      finding, never valid: a mismatch; oracle/emu.h) */
} TrapKind;

/* ---- literals (shared by the parser, run lines and tools) -------------------- */
/* integer: decimal or 0x hex with optional '-', up to unsigned 64-bit; result is the
 * two's complement bit pattern of the value */
bool lit_parse_int(const char *s, size_t n, uint64_t *bits);
/* float: decimal, C99 hex float, inf, -inf, nan, bits(0x...); result in type ty */
bool lit_parse_float(const char *s, size_t n, Type ty, uint64_t *bits);
/* canonical spelling of a constant of type ty (what the printer writes) */
void lit_format(char *buf, size_t n, Type ty, uint64_t bits);
uint64_t canonical_nan(Type ty);

/* ---- diagnostics ------------------------------------------------------------- */
typedef struct Diag {
    const char *file;
    FILE *out;      /* where messages go */
    int nerrors;
    char *first;    /* diag_keep_first: the first message, or NULL */
    size_t first_size;
} Diag;
void diag_init(Diag *d, const char *file, FILE *out);
/* also keep the first message (one line, no newline; "" while there is none) in
 * buf: for callers that want it without opening a stream */
void diag_keep_first(Diag *d, char *buf, size_t n);
void diag_error(Diag *d, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "FILE:LINE:COL: error: in @func: gate %name: MESSAGE", at the gate's source position */
void diag_gate(Diag *d, const Func *f, GateId g, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *gate_label(const Func *f, GateId g, char *buf, size_t n); /* "%name" or "%<id>" */
/* the length of a UTF-8 byte order mark at the start of src (3 or 0): both text
 * formats skip it, and columns count from after it */
size_t text_bom_length(const char *src, size_t len);
/* the first NUL byte of src: true, with its 1-based line and column; false if none */
bool text_find_nul(const char *src, size_t len, uint32_t *line, uint32_t *col);

/* ---- text, verification, Graphviz -------------------------------------------- */
/* parse a whole file; NULL (after reporting every error found) if it has errors */
Module *parse_module(const char *file, const char *src, size_t len, Diag *d);
Module *parse_file(const char *path, Diag *d); /* reads the file; I/O errors reported */
void print_module(FILE *out, const Module *m);
void print_externs(FILE *out, const Module *m); /* the extern declarations (print_module's start) */
void print_func(FILE *out, const Func *f);
void print_runline(FILE *out, const Module *m, const RunLine *r);
/* print f with its gates in a caller's order (e.g. grouped by block): order[i] is
 * printed after note(out, i, names, ctx) (which may print comment lines; names[g] is
 * the name gate g is printed with, without '%', or NULL); note(out, n, ...) comes
 * last.  NO_GATE entries print nothing but their note.  Gates not listed are not
 * printed: list every live gate once for text that parses back to the same circuit. */
typedef void (*PrintNote)(FILE *out, uint32_t pos, const char *const *names, void *ctx);
void print_func_ordered(FILE *out, const Func *f, const GateId *order, uint32_t n,
                        PrintNote note, void *ctx);
int verify_module(const Module *m, Diag *d); /* number of errors reported */
int verify_func(const Func *f, Diag *d);
int verify_root_lists(const Func *f, Diag *d); /* verify_func's check of the root lists */
void dot_module(FILE *out, const Module *m);

#endif
