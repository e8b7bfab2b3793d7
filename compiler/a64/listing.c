/* listing.c — an ARM64 CodeBlob as text through Capstone: per function its label,
 * then offset, word and instruction, with trap sites, relocations (their literal
 * words shown as .quad) and source marks (gates) annotated.  No assembler text is
 * used to produce code; this only reads it. */
#include "a64.h"
#include "compiler/lir/listing_notes.h"

#include <capstone/capstone.h>
#include <string.h>

static const Reloc *reloc_at(const CodeBlob *blob, uint32_t at)
{
    for (uint32_t r = 0; r < blob->nrelocs; r++)
        if (blob->relocs[r].offset == at)
            return &blob->relocs[r];
    return NULL;
}

static void print_reloc(FILE *out, const Reloc *rl)
{
    if (rl->target == TARGET_HELPER)
        fprintf(out, "  ; abs64 helper.%s", lir_helper_name(rl->index));
    else
        fprintf(out, "  ; abs64 func%u", rl->index);
    if (rl->addend)
        fprintf(out, "%+lld", (long long)rl->addend);
}

static uint32_t word_of(const CodeBlob *blob, uint32_t at)
{
    uint32_t w;
    memcpy(&w, blob->code + at, 4);
    return w;
}

/* one instruction or literal at `at`; returns its size, 0 if undecodable */
static uint32_t print_one(FILE *out, csh cs, const CodeBlob *blob, uint32_t at)
{
    const Reloc *rl = reloc_at(blob, at);
    if (rl && at + 8 <= blob->size) {
        uint64_t v = (uint64_t)word_of(blob, at) | (uint64_t)word_of(blob, at + 4) << 32;
        fprintf(out, "  %06x: %08x %08x        .quad 0x%llx", at, word_of(blob, at),
                word_of(blob, at + 4), (unsigned long long)v);
        print_reloc(out, rl);
        fputc('\n', out);
        return 8;
    }
    cs_insn *insn;
    size_t n = cs_disasm(cs, blob->code + at, 4, at, 1, &insn);
    if (n != 1) {
        fprintf(out, "  %06x: %08x                 ; not decodable\n", at, word_of(blob, at));
        return 0;
    }
    fprintf(out, "  %06x: %08x                 %s%s%s", at, word_of(blob, at), insn[0].mnemonic,
            insn[0].op_str[0] ? " " : "", insn[0].op_str);
    lir_list_traps(out, blob, at);
    fputc('\n', out);
    cs_free(insn, n);
    return 4;
}

bool a64_listing(FILE *out, const CodeBlob *blob, const char *const *func_names,
                 GateNameFn gate_name, void *ctx)
{
    csh cs;
    if (blob->isa != ISA_A64 || cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs) != CS_ERR_OK)
        return false;
    bool ok = true;
    for (uint32_t f = 0; f < blob->nfuncs; f++) {
        uint32_t start = blob->entry[f];
        uint32_t end = f + 1 < blob->nfuncs ? blob->entry[f + 1] : blob->size;
        fprintf(out, "@%s:\n", func_names && func_names[f] ? func_names[f] : "?");
        for (uint32_t at = start; at + 4 <= end;) {
            lir_list_marks(out, blob, at, gate_name, ctx);
            uint32_t n = print_one(out, cs, blob, at);
            if (n == 0) {
                ok = false;
                n = 4;
            }
            at += n;
        }
    }
    cs_close(&cs);
    return ok;
}
