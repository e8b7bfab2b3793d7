/* listing.c — an x86-64 CodeBlob as text through Capstone: per function its label,
 * then offset, bytes and instruction, with trap sites, relocations and source marks
 * (gates) annotated.  No assembler text is used to produce code; this only reads it. */
#include "x64.h"
#include "compiler/lir/listing_notes.h"

#include <capstone/capstone.h>
#include <string.h>

static void annotate(FILE *out, const CodeBlob *blob, uint64_t at, uint32_t size)
{
    lir_list_traps(out, blob, at);
    for (uint32_t r = 0; r < blob->nrelocs; r++) {
        const Reloc *rl = &blob->relocs[r];
        if (rl->offset < at || rl->offset >= at + size)
            continue;
        if (rl->target == TARGET_HELPER)
            fprintf(out, "  ; abs64 helper.%s", lir_helper_name(rl->index));
        else
            fprintf(out, "  ; abs64 func%u", rl->index);
        if (rl->addend)
            fprintf(out, "%+lld", (long long)rl->addend);
    }
}

static void print_insn(FILE *out, const cs_insn *in)
{
    char bytes[64] = "";
    size_t n = 0;
    for (uint16_t i = 0; i < in->size && n + 4 < sizeof bytes; i++)
        n += (size_t)snprintf(bytes + n, sizeof bytes - n, "%s%02x", i ? " " : "", in->bytes[i]);
    fprintf(out, "  %06llx: %-32s %s%s%s", (unsigned long long)in->address, bytes, in->mnemonic,
            in->op_str[0] ? " " : "", in->op_str);
}

bool x64_listing(FILE *out, const CodeBlob *blob, const char *const *func_names,
                 GateNameFn gate_name, void *ctx)
{
    csh cs;
    if (blob->isa != ISA_X64 || cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
        return false;
    bool ok = true;
    for (uint32_t f = 0; f < blob->nfuncs; f++) {
        uint32_t start = blob->entry[f];
        uint32_t end = f + 1 < blob->nfuncs ? blob->entry[f + 1] : blob->size;
        fprintf(out, "@%s:\n", func_names && func_names[f] ? func_names[f] : "?");
        cs_insn *insn;
        size_t n = cs_disasm(cs, blob->code + start, end - start, start, 0, &insn);
        uint32_t decoded = 0;
        for (size_t i = 0; i < n; i++) {
            if (insn[i].bytes[0] == 0xcc && insn[i].size == 1 && f + 1 < blob->nfuncs) {
                decoded += 1;           /* alignment padding */
                continue;
            }
            lir_list_marks(out, blob, insn[i].address, gate_name, ctx);
            print_insn(out, &insn[i]);
            annotate(out, blob, insn[i].address, insn[i].size);
            fputc('\n', out);
            decoded += insn[i].size;
        }
        if (decoded != end - start) {
            fprintf(out, "  ; %u bytes Capstone could not decode\n", end - start - decoded);
            ok = false;
        }
        cs_free(insn, n);
    }
    cs_close(&cs);
    return ok;
}
