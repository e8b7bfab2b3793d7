/* listing.h — what the targets' Capstone listings share: the loop over a CodeBlob's
 * functions (label, then one step per instruction or datum) and the annotations
 * next to the disassembly (source marks naming gates, trap sites, relocations).
 * A target supplies one step (listing.c in its folder); the compiler's listing
 * never produces code, it only reads it. */
#ifndef CIRC_LIR_LISTING_H
#define CIRC_LIR_LISTING_H

#include "compiler/lir/lir.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *out;
    const CodeBlob *blob;
    GateNameFn gate_name;     /* may be NULL: marks show gate numbers */
    void *gate_ctx;
    void *decoder;            /* the target's (a Capstone handle) */
} LirListing;

enum {
    LIR_LIST_SKIP = 1u << 30, /* the bytes are padding: nothing printed */
    LIR_LIST_BAD = 1u << 31,  /* the bytes could not be decoded */
};
/* print the line(s) of the code at `at` (before end, the function's end) and return
 * the bytes they cover, or'ed with LIR_LIST_SKIP or LIR_LIST_BAD */
typedef uint32_t (*LirListStep)(const LirListing *l, uint32_t at, uint32_t end);

/* per function "@NAME:" (func_names may be NULL: "?") and its code step by step
 * while `unit` bytes are left; false if any step was LIR_LIST_BAD */
bool lir_listing(const LirListing *l, const char *const *func_names, LirListStep step, unsigned unit);

/* one "        ; NAME" line per source mark at offset `at` */
void lir_list_marks(const LirListing *l, uint64_t at);
/* "  ; trap KIND" for each trap site at offset `at`, on the current line */
void lir_list_traps(const LirListing *l, uint64_t at);
/* "  ; KIND helper.NAME" / "  ; KIND funcN" (+addend) for each relocation in
 * [at, at + size), on the current line; KIND is abs64, pc32, branch, page21 or lo12 */
void lir_list_relocs(const LirListing *l, uint64_t at, uint32_t size);

#endif
