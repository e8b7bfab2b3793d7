/* cemit.h — the C backend: C11 source from the scheduled form (docs/cbackend.md).
 *
 * One C function per circ function, its blocks as labels and gotos in block order,
 * a variable per scheduled value gate (copies of a gate placed in several blocks
 * write the one variable), the live selectors assigned by the parallel copies of
 * each edge.  Every operation has circ's exact semantics (docs/semantics.md):
 * integers in unsigned types of their width (wrapping, no signed overflow),
 * explicit trap checks that trap through a trap-table entry (runtime/circ_abi.h),
 * canonical NaNs, saturating conversions, masked shift amounts, zero-filled ALLOCAs.
 * The output needs no header (only predefined macros and __builtin_*), compiles
 * warning-free under gcc and clang -Wall -Wextra, native or cross, and has no
 * undefined behaviour for a valid program.
 *
 * Each function is exported under its circ name (after a prefix) with the calling
 * convention of circ's own code (emu.h: integer arguments as 64-bit words, results
 * zero-extended), and in a module that may throw with the threw flag of
 * docs/architecture.md (the result and the flag in rax:rdx / x0:x1), so a harness
 * calls the C compiler's object exactly as circ's.  With CIRC_MODULE_TABLE defined
 * the C also defines the caller table runtime/main.c runs (docs/objects.md). */
#ifndef CIRC_CEMIT_H
#define CIRC_CEMIT_H

#include "compiler/compile.h"

typedef struct {
    const char *prefix;      /* before every exported symbol ("" or NULL: none) */
} CEmitOptions;

/* write the C of module m, whose functions are scheduled in sched[i] (NULL: each
 * scheduled here with global code motion), to out; false after reporting through d */
bool c_emit_module(const Module *m, Schedule *const *sched, const CEmitOptions *o, FILE *out, Diag *d);

/* the compile driver's passes (opt: -O level or --passes, as compile_module) on a copy
 * of m, the schedules (naive at -O0), then c_emit_module */
bool c_compile_module(const Module *m, const CompileOptions *opt, const CEmitOptions *o, FILE *out, Diag *d);

/* the text every emitted file starts with: types, bit casts, traps, helpers */
extern const char c_prelude[];

#endif
