/* listing.c — the listing loop and annotations the targets' listings share
 * (listing.h). */
#include "compiler/lir/listing.h"

bool lir_listing(const LirListing *l, const char *const *func_names, LirListStep step, unsigned unit)
{
    const CodeBlob *blob = l->blob;
    bool ok = true;
    for (uint32_t f = 0; f < blob->nfuncs; f++) {
        uint32_t end = f + 1 < blob->nfuncs ? blob->entry[f + 1] : blob->size;
        fprintf(l->out, "@%s:\n", func_names && func_names[f] ? func_names[f] : "?");
        for (uint32_t at = blob->entry[f]; at + unit <= end;) {
            uint32_t r = step(l, at, end);
            uint32_t n = r & ~(uint32_t)(LIR_LIST_SKIP | LIR_LIST_BAD);
            ok &= !(r & LIR_LIST_BAD);
            at += n ? n : unit;
        }
    }
    return ok;
}

void lir_list_marks(const LirListing *l, uint64_t at)
{
    char buf[128];
    for (uint32_t m = 0; m < l->blob->nmarks; m++) {
        const SourceMark *mk = &l->blob->marks[m];
        if (mk->offset != at)
            continue;
        const char *name = l->gate_name ? l->gate_name(l->gate_ctx, mk->func, mk->gate, buf, sizeof buf) : NULL;
        if (name)
            fprintf(l->out, "        ; %s\n", name);
        else
            fprintf(l->out, "        ; gate %u\n", mk->gate);
    }
}

void lir_list_traps(const LirListing *l, uint64_t at)
{
    for (uint32_t t = 0; t < l->blob->ntraps; t++)
        if (l->blob->traps[t].offset == at)
            fprintf(l->out, "  ; trap %s", lir_trap_name(l->blob->traps[t].kind));
}

void lir_list_relocs(const LirListing *l, uint64_t at, uint32_t size)
{
    for (uint32_t r = 0; r < l->blob->nrelocs; r++) {
        const Reloc *rl = &l->blob->relocs[r];
        if (rl->offset < at || rl->offset >= at + size)
            continue;
        static const char *const kinds[RELOC_KIND_COUNT] = {
            [RELOC_ABS64] = "abs64", [RELOC_CALL] = "call", [RELOC_PC32] = "pc32",
            [RELOC_BRANCH] = "branch", [RELOC_PAGE21] = "page21", [RELOC_LO12] = "lo12",
        };
        const char *kind = rl->kind < RELOC_KIND_COUNT ? kinds[rl->kind] : "?";
        if (rl->target == TARGET_HELPER)
            fprintf(l->out, "  ; %s helper.%s", kind, lir_helper_name(rl->index));
        else
            fprintf(l->out, "  ; %s func%u", kind, rl->index);
        if (rl->addend)
            fprintf(l->out, "%+lld", (long long)rl->addend);
    }
}
