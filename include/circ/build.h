/* build.h — building and reading Circuit IR through libcirc's public API (included
 * by circ/circ.h; docs/api.md): new modules and functions, gates added and rewired one
 * at a time (what a front end or a pass needs), read access to every gate's opcode,
 * type, literal, inputs and uses, and run lines whose expectations the reference
 * interpreter computes.
 *
 * A circ_function is a handle owned by its module: valid until the module is freed.
 * Gates are named by circ_gate_id numbers, 0 .. circ_gate_count(f) - 1 (ids stay valid while
 * gates are added; a killed gate keeps its id, dead).  Ids 0 .. 7 are the spec's root
 * gates, never written in text; a state group's `entry` is CIRC_STATE_ENTRY, a
 * dependency group's `entry` CIRC_DEPEND_ENTRY.  Opcodes and condition codes are
 * looked up by their text names (circ_opcode_find, circ_cond_find): their numbers are
 * the library's, so code built against an older header keeps working as opcodes are
 * added.  Nothing here prints or exits; a bad id, opcode or name gives
 * CIRC_NO_GATE / -1 / NULL, and circ_module_verify says what is wrong with a
 * circuit that was built wrong. */
#ifndef CIRC_BUILD_H
#define CIRC_BUILD_H

#ifndef CIRC_CIRC_H
#error "include <circ/circ.h>, which includes this header"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct circ_function circ_function;
typedef uint32_t circ_gate_id;

#define CIRC_NO_GATE 0xffffffffu
#define CIRC_STATE_ENTRY 1u  /* the root STATE_ENTRY: `entry` in a state group */
#define CIRC_DEPEND_ENTRY 2u /* the root DEPEND_ENTRY: `entry` in a dependency group */
#define CIRC_FIRST_GATE 8u   /* the first id that is not a root */
/* a SYMBOL's literal: a function's index, or this bit | an extern's index */
#define CIRC_SYMBOL_EXTERN 0x80000000u

/* value types (the text format's names: i1 ... f64); CIRC_VOID: no value */
typedef enum { CIRC_VOID, CIRC_I1, CIRC_I8, CIRC_I16, CIRC_I32, CIRC_I64, CIRC_F32, CIRC_F64 } circ_type;
/* the three groups of a gate's inputs, in the order they are stored */
typedef enum { CIRC_IN_STATE, CIRC_IN_DEPEND, CIRC_IN_DATA } circ_input_kind;

/* ---- modules and functions ------------------------------------------------------- */
/* an empty module; name is used in diagnostics (NULL: "<module>").  NULL when out of
 * memory.  Free it with circ_module_free. */
circ_module *circ_module_new(const char *name);
/* add function @name (without '@'; letters, digits, '_' and '.') with nparams
 * parameters (at most 256) and result type ret (CIRC_VOID: none).  The function's
 * body holds the roots only.  NULL (with the reason in err) if the name is taken or
 * bad, or a type is not a value type. */
circ_function *circ_module_add_function(circ_module *m, const char *name, const circ_type *params,
                                        unsigned nparams, circ_type ret, char *err, size_t errn);
/* function i (NULL if out of range) / the function named name (NULL if none) */
circ_function *circ_module_function(circ_module *m, unsigned i);
circ_function *circ_module_find_function(circ_module *m, const char *name);
/* declare the runtime function name (`extern @name`, docs/runtime.md); its extern
 * index (for a SYMBOL: CIRC_SYMBOL_EXTERN | index), or -1 if circ has none so named */
int circ_module_add_extern(circ_module *m, const char *name);
/* add the run line `; run: @func(args...) == OUTCOME`: args are bits in the
 * parameter types (floats as IEEE bits; circ_heap_address() on an i64 parameter is
 * written `heap`), the expectation is what the reference interpreter gives now.  0,
 * or -1 with the reason in err: an unknown function, a wrong argument count, or an
 * outcome a run line cannot state (a timeout, an invalid program). */
int circ_module_add_run(circ_module *m, const char *func, const uint64_t *args, unsigned nargs, char *err,
                        size_t errn);

const char *circ_function_name(const circ_function *f);   /* without '@' */
unsigned circ_function_index(const circ_function *f);     /* its position in the module */
circ_type circ_function_return_type(const circ_function *f);
unsigned circ_function_param_count(const circ_function *f);
circ_type circ_function_param_type(const circ_function *f, unsigned i); /* CIRC_VOID if out of range */
/* the module f belongs to (read only: a pass may look at the other functions) */
const circ_module *circ_function_module(const circ_function *f);
/* the number of verifier errors in f (0: valid); the first one in err */
int circ_function_verify(const circ_function *f, char *err, size_t errn);

/* ---- opcodes, conditions, types ----------------------------------------------------- */
/* the opcode named name ("ADD", "ICMP", ...; as written in text), or -1; root
 * opcodes (STATE_ENTRY, ...) are never added, so they are not found */
int circ_opcode_find(const char *name);
const char *circ_opcode_name(int op);          /* NULL if op is no opcode */
/* the condition code of an ICMP or FCMP named name ("slt", "oeq", ...), or -1 */
int circ_cond_find(int op, const char *name);
const char *circ_cond_name(int op, int cond);  /* NULL if none */
const char *circ_type_name(circ_type t);       /* "i32", ..., "void" */

/* ---- reading gates ------------------------------------------------------------------ */
/* the number of gate ids of f: roots, live and dead gates */
unsigned circ_gate_count(const circ_function *f);
/* a gate's opcode (-1 for a bad id), type (CIRC_VOID: no value output), condition
 * (ICMP/FCMP), literal (CONSTANT bits, ARG index, ALLOCA bytes, SWITCH_CASE value,
 * SYMBOL target), whether it is dead (killed: skip it) and its name (without '%';
 * NULL if unnamed) */
int circ_gate_opcode(const circ_function *f, circ_gate_id g);
circ_type circ_gate_type(const circ_function *f, circ_gate_id g);
int circ_gate_cond(const circ_function *f, circ_gate_id g);
uint64_t circ_gate_literal(const circ_function *f, circ_gate_id g);
int circ_gate_is_dead(const circ_function *f, circ_gate_id g);
const char *circ_gate_name(const circ_function *f, circ_gate_id g);
/* its inputs of one kind: count, and input i (CIRC_NO_GATE if out of range or not
 * connected yet) */
unsigned circ_gate_input_count(const circ_function *f, circ_gate_id g, circ_input_kind kind);
circ_gate_id circ_gate_input(const circ_function *f, circ_gate_id g, circ_input_kind kind, unsigned i);
/* its uses: count, and use i: the gate that uses g (CIRC_NO_GATE if out of range),
 * with the position of g among that gate's inputs of kind *kind in *index (either
 * pointer may be NULL) */
unsigned circ_gate_use_count(const circ_function *f, circ_gate_id g);
circ_gate_id circ_gate_user(const circ_function *f, circ_gate_id g, unsigned i, circ_input_kind *kind,
                         unsigned *index);

/* ---- building and rewriting gates ----------------------------------------------------- */
/* add a gate: opcode op, result type (CIRC_VOID for gates without a value), condition
 * cond (ICMP/FCMP; else 0), literal (see circ_gate_literal; float constants as IEEE
 * bits) and its inputs by kind (arrays may be NULL when their count is 0; an input
 * may be CIRC_NO_GATE, to connect later with circ_gate_set_input: loops need that).
 * The gate's id, or CIRC_NO_GATE for a root or unknown opcode, a bad type or an
 * input id that is not a gate of f.  Whether the gate is well-formed (wire counts,
 * types) is the verifier's to say. */
circ_gate_id circ_gate_add(circ_function *f, int op, circ_type type, int cond, uint64_t literal,
                        const circ_gate_id *states, unsigned nstates, const circ_gate_id *deps, unsigned ndeps,
                        const circ_gate_id *data, unsigned ndata);
/* connect input i of kind to v (CIRC_NO_GATE: disconnect); 0, or -1 for a bad id or
 * position */
int circ_gate_set_input(circ_function *f, circ_gate_id g, circ_input_kind kind, unsigned i, circ_gate_id v);
/* replace every input of g; 0, or -1 for a bad id */
int circ_gate_set_inputs(circ_function *f, circ_gate_id g, const circ_gate_id *states, unsigned nstates,
                         const circ_gate_id *deps, unsigned ndeps, const circ_gate_id *data, unsigned ndata);
/* make every user of old use repl instead; 0, or -1 for a bad id */
int circ_gate_replace_uses(circ_function *f, circ_gate_id old, circ_gate_id repl);
/* remove g (it must have no uses left: -1 otherwise, and for a root or a bad id) */
int circ_gate_kill(circ_function *f, circ_gate_id g);
/* name g (printed as %name; letters, digits, '_' and '.'); 0, or -1 for a bad name
 * or id.  Unnamed gates print with names of their id. */
int circ_gate_set_name(circ_function *f, circ_gate_id g, const char *name);
/* a CONSTANT of type t with these bits (masked to the type's width) */
circ_gate_id circ_gate_constant(circ_function *f, circ_type t, uint64_t bits);

#ifdef __cplusplus
}
#endif

#endif
