/* listing_notes.h — the annotations both backends' listings put next to the
 * disassembly of a CodeBlob: source marks (gates) at an offset and trap sites. */
#ifndef CIRC_LIR_LISTING_NOTES_H
#define CIRC_LIR_LISTING_NOTES_H

#include "compiler/lir/lir.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* one "        ; NAME" line per source mark at offset `at` (gate_name may be NULL) */
void lir_list_marks(FILE *out, const CodeBlob *blob, uint64_t at, GateNameFn gate_name, void *ctx);

/* "  ; trap KIND" for each trap site at offset `at`, on the current line */
void lir_list_traps(FILE *out, const CodeBlob *blob, uint64_t at);

#endif
