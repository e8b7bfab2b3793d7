/* blob_fill.h — copying a target assembler's buffers (code, relocations, trap sites,
 * source marks) and the function entries into a CodeBlob owned by an arena; shared by
 * the x86-64 and ARM64 emitters. */
#ifndef CIRC_LIR_BLOB_FILL_H
#define CIRC_LIR_BLOB_FILL_H

#include "compiler/blob.h"
#include "compiler/ir/ir.h"

typedef struct {
    const uint8_t *code;
    uint32_t size;
    const Reloc *relocs;
    uint32_t nrelocs;
    const TrapSite *traps;
    uint32_t ntraps;
    const SourceMark *marks;
    uint32_t nmarks;
} BlobParts;

void lir_blob_fill(Arena *arena, Isa isa, const BlobParts *parts, const uint32_t *entry, uint32_t nfuncs,
                   CodeBlob *out);

#endif
