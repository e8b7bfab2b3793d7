/* circ.h — the public C API of libcirc (docs/api.md): Circuit IR modules (parse,
 * verify, print, generate, build: circ/build.h), the middle end (pipelines, pass
 * lists, pass managers, passes of one's own and pass plugins: circ/pass.h), the
 * reference interpreter, the differential check, the reducer, translation validation
 * and machine code (code bytes or an ELF object) for a target.  Every object is opaque and owned by the caller; nothing is global, so
 * any number of threads may use the library at once as long as each object is used
 * by one thread at a time (reentrant).  C11 and C++ (extern "C").
 *
 * Errors: functions that can fail return NULL or a negative number and, when given
 * a buffer (err, errn), put one line in it saying why (the first diagnostic,
 * `FILE:LINE:COL: error: MESSAGE` for bad input).  Nothing ever exits the process. */
#ifndef CIRC_CIRC_H
#define CIRC_CIRC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* the API's version: the major number changes when a function's meaning or a
 * declaration changes incompatibly, the minor one when functions are added */
#define CIRC_VERSION_MAJOR 1
#define CIRC_VERSION_MINOR 1
#define CIRC_VERSION ((CIRC_VERSION_MAJOR << 16) | CIRC_VERSION_MINOR)

#ifdef __cplusplus
extern "C" {
#endif

/* the version of the library linked ((major << 16) | minor); compare with
 * CIRC_VERSION, the header's: a program built with header version H runs with a
 * library of version L when their majors are equal and L's minor is at least H's */
unsigned circ_version(void);
/* whether a library of version `have` provides what a program (or plugin) built for
 * `want` uses: equal majors, have's minor >= want's */
int circ_version_compatible(unsigned have, unsigned want);

/* ---- modules ------------------------------------------------------------------ */
typedef struct circ_module circ_module;

/* parse a module from text (len bytes; name is used in diagnostics); NULL on a
 * syntax error.  The module is not verified: see circ_module_verify. */
circ_module *circ_module_parse(const char *name, const char *text, size_t len, char *err, size_t errn);
/* parse a file; NULL on an I/O or syntax error */
circ_module *circ_module_parse_file(const char *path, char *err, size_t errn);
/* a random valid module from the generator (the same seed and size give the same
 * module, as `circ gen --seed SEED --size SIZE`), with up to runs `; run:` lines
 * whose expectations are the interpreter's outcomes */
circ_module *circ_module_generate(uint64_t seed, unsigned size, unsigned runs);
/* a deep copy; NULL when out of memory */
circ_module *circ_module_clone(const circ_module *m);
/* frees m and everything it owns (its functions' handles included); NULL is ignored */
void circ_module_free(circ_module *m);

/* the number of verifier errors (0: valid); the first one in err */
int circ_module_verify(const circ_module *m, char *err, size_t errn);
/* the module's canonical text (parse -> print -> parse -> print is stable),
 * run lines included; 0, or -1 on a write error */
int circ_module_print(const circ_module *m, FILE *out);
/* its functions: count, and the name of function i (without '@'; NULL if out of range) */
unsigned circ_module_function_count(const circ_module *m);
const char *circ_module_function_name(const circ_module *m, unsigned i);
/* its `; run:` lines */
unsigned circ_module_run_count(const circ_module *m);
/* the module's canonical text as a malloc'd NUL-terminated string (the caller frees
 * it with free); NULL when out of memory */
char *circ_module_text(const circ_module *m);

/* ---- the middle end ------------------------------------------------------------- */
/* optimize m in place: the pipeline of -O level (0, 1 or 2) when passes is NULL,
 * else the comma-separated pass list (`circ opt --list-passes`).  0 on success; -1
 * with the reason in err for an unknown pass or a pass that broke the module. */
int circ_module_optimize(circ_module *m, int level, const char *passes, char *err, size_t errn);

/* ---- running --------------------------------------------------------------------- */
typedef enum {
    CIRC_OUT_RETURN,  /* value: the returned bits (zero-extended; 0 for void) */
    CIRC_OUT_TRAP,    /* value: unused */
    CIRC_OUT_THROW,   /* value: the thrown bits */
    CIRC_OUT_TIMEOUT, /* the step budget ran out */
    CIRC_OUT_INVALID  /* the program broke a rule (out-of-bounds access, a race, ...) */
} circ_outcome_kind;

typedef struct {
    circ_outcome_kind kind;
    uint64_t value;
    char text[256];   /* the outcome as `circ run` prints it, e.g. "return 42" */
} circ_outcome;

/* call function func (its name without '@') with nargs arguments (bits in the
 * parameter types; floats as IEEE bits; pass circ_heap_address() for a pointer to
 * the harness buffer) under the reference interpreter.  0, or -1 with the reason in
 * out->text for an unknown function or a wrong argument count. */
int circ_run(const circ_module *m, const char *func, const uint64_t *args, unsigned nargs, circ_outcome *out);
/* the address of the 4 KiB harness buffer the run lines call `heap` */
uint64_t circ_heap_address(void);

/* ---- checking ----------------------------------------------------------------------- */
typedef struct {
    int mismatch;          /* 1: a stage disagreed with the oracle (or could not be built) */
    char signature[128];   /* "STAGE:EXPECTED-vs-GOT", e.g. "O2:return-vs-trap" */
    char detail[512];      /* one line: what differs */
    uint64_t proved, refuted, unknown; /* with tv: the pass applications' verdicts */
} circ_check_result;

/* the differential check of `circ check`: every run line through the oracle and
 * every stage whose name starts with one of targets (comma-separated; NULL: all);
 * tv nonzero adds the translation-validation stages (`--tv`; without Z3 they prove
 * nothing).  0 when every stage agreed, 1 on a mismatch (in res), -1 on bad options
 * (the reason in res->detail). */
int circ_check(const circ_module *m, const char *targets, int tv, circ_check_result *res);

/* ---- machine code -------------------------------------------------------------------- */
/* the targets: count and name i ("x86-64", "arm64", ...; NULL if out of range) */
unsigned circ_target_count(void);
const char *circ_target_name(unsigned i);

/* compile m for the named target at -O level (0 or 2): the code bytes in *code
 * (malloc'd, the caller frees them with free) and their length in *len.  0, or -1
 * with the reason in err. */
int circ_compile(const circ_module *m, const char *target, int level, uint8_t **code, size_t *len, char *err,
                 size_t errn);
/* the same as an ELF64 relocatable object (`circ compile -o f.o`, docs/objects.md):
 * one global symbol per function, prefix (may be NULL) followed by its name; link it
 * with libcirc_rt.  The object's bytes in *obj (malloc'd, freed with free) and their
 * length in *len.  0, or -1 with the reason in err. */
int circ_compile_object(const circ_module *m, const char *target, int level, const char *prefix, uint8_t **obj,
                        size_t *len, char *err, size_t errn);

#ifdef __cplusplus
}
#endif

#include "build.h"
#include "pass.h"

#endif
