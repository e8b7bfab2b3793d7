/* blob_fill.c — a CodeBlob from an assembler's buffers (blob_fill.h). */
#include "compiler/lir/blob_fill.h"

#include <string.h>

static void *copy_out(Arena *arena, const void *p, size_t n)
{
    void *q = arena_alloc(arena, n ? n : 1);
    if (n)
        memcpy(q, p, n);
    return q;
}

void lir_blob_fill(Arena *arena, Isa isa, const BlobParts *parts, const uint32_t *entry, uint32_t nfuncs,
                   CodeBlob *out)
{
    memset(out, 0, sizeof *out);
    out->isa = isa;
    out->code = copy_out(arena, parts->code, parts->size);
    out->size = parts->size;
    out->entry = copy_out(arena, entry, nfuncs * sizeof *entry);
    out->nfuncs = nfuncs;
    out->relocs = copy_out(arena, parts->relocs, parts->nrelocs * sizeof *parts->relocs);
    out->nrelocs = parts->nrelocs;
    out->traps = copy_out(arena, parts->traps, parts->ntraps * sizeof *parts->traps);
    out->ntraps = parts->ntraps;
    out->marks = copy_out(arena, parts->marks, parts->nmarks * sizeof *parts->marks);
    out->nmarks = parts->nmarks;
}
