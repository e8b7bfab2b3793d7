/* target.h — the registry of the build's targets (QBE's tlist): every command,
 * check stage, fuzz target and benchmark finds its targets here, and every usage
 * text and error message lists them from here.  A Target (compiler/lir/lir.h)
 * describes one: name, ISA, forms and register file, selection hooks, calls,
 * frame, emit, listing.  Adding a target adds one line to target.c
 * (docs/porting.md). */
#ifndef CIRC_TARGET_H
#define CIRC_TARGET_H

#include "compiler/lir/lir.h"

#include <stddef.h>

/* the number of targets and the i-th (0 <= i < target_count()), in registry order */
unsigned target_count(void);
const Target *target_at(unsigned i);
/* the first max targets into out (for lir_parse); returns how many were written */
unsigned target_list(const Target **out, unsigned max);
enum { TARGET_MAX = 8 };   /* room for every target of a build */

/* the target named name ("x86-64"), of n bytes of it (name need not end there);
 * NULL if none */
const Target *target_find(const char *name);
const Target *target_find_n(const char *name, size_t n);
/* the target whose code is of isa, NULL if none */
const Target *target_for_isa(Isa isa);

/* the CPU level named cpu ("baseline", "v3") of t's ISA (t any of its levels); NULL
 * if the ISA has none of that name.  The levels' names, joined by sep, into buf. */
const Target *target_level(const Target *t, const char *cpu);
const char *target_level_names(const Target *t, char *buf, size_t n, const char *sep);

/* the names in registry order joined by sep, with last_sep before the last one
 * ("x86-64, arm64", "x86-64 or arm64"), written to buf (truncated to n); buf */
const char *target_names(char *buf, size_t n, const char *sep, const char *last_sep);

/* "x86-64,arm64": a comma-separated list of target names (empty items skipped) ->
 * *mask (bit per Isa); false on a name the registry does not know (*bad: it, its
 * length in *badlen) or on a list naming none (*bad: the list) */
bool target_parse_isa_list(const char *list, uint32_t *mask, const char **bad, size_t *badlen);

#endif
