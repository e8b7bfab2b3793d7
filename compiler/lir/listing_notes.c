/* listing_notes.c — source-mark and trap-site annotations of a listing
 * (listing_notes.h). */
#include "compiler/lir/listing_notes.h"
#include "compiler/lir/lir.h"

void lir_list_marks(FILE *out, const CodeBlob *blob, uint64_t at, GateNameFn gate_name, void *ctx)
{
    char buf[128];
    for (uint32_t m = 0; m < blob->nmarks; m++) {
        const SourceMark *mk = &blob->marks[m];
        if (mk->offset != at)
            continue;
        const char *name = gate_name ? gate_name(ctx, mk->func, mk->gate, buf, sizeof buf) : NULL;
        if (name)
            fprintf(out, "        ; %s\n", name);
        else
            fprintf(out, "        ; gate %u\n", mk->gate);
    }
}

void lir_list_traps(FILE *out, const CodeBlob *blob, uint64_t at)
{
    for (uint32_t t = 0; t < blob->ntraps; t++)
        if (blob->traps[t].offset == at)
            fprintf(out, "  ; trap %s", lir_trap_name(blob->traps[t].kind));
}
