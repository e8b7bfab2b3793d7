/* listing.c — an x86-64 CodeBlob as text through Capstone: the step of the shared
 * listing loop (compiler/lir/listing.h) that shows one instruction with its offset,
 * bytes, trap sites, relocations and source marks (gates).  No assembler text is
 * used to produce code; this only reads it. */
#include "x64.h"
#include "compiler/lir/listing.h"

#include <capstone/capstone.h>
#include <string.h>

static void print_insn(FILE *out, const cs_insn *in)
{
    char bytes[64] = "";
    size_t n = 0;
    for (uint16_t i = 0; i < in->size && n + 4 < sizeof bytes; i++)
        n += (size_t)snprintf(bytes + n, sizeof bytes - n, "%s%02x", i ? " " : "", in->bytes[i]);
    fprintf(out, "  %06llx: %-32s %s%s%s", (unsigned long long)in->address, bytes, in->mnemonic,
            in->op_str[0] ? " " : "", in->op_str);
}

/* the instruction at `at`; int3 padding before the next function is skipped, and
 * bytes Capstone cannot decode end the function's listing */
static uint32_t step(const LirListing *l, uint32_t at, uint32_t end)
{
    cs_insn *insn;
    size_t n = cs_disasm(*(const csh *)l->decoder, l->blob->code + at, end - at, at, 1, &insn);
    if (n != 1) {
        fprintf(l->out, "  ; %u bytes Capstone could not decode\n", end - at);
        return LIR_LIST_BAD | (end - at);
    }
    uint32_t size = insn[0].size;
    bool padding = insn[0].bytes[0] == 0xcc && size == 1 && end < l->blob->size;
    if (!padding) {
        lir_list_marks(l, at);
        print_insn(l->out, &insn[0]);
        lir_list_traps(l, at);
        lir_list_relocs(l, at, size);
        fputc('\n', l->out);
    }
    cs_free(insn, n);
    return size | (padding ? LIR_LIST_SKIP : 0);
}

bool x64_listing(FILE *out, const CodeBlob *blob, const char *const *func_names,
                 GateNameFn gate_name, void *ctx)
{
    csh cs;
    if (blob->isa != ISA_X64 || cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
        return false;
    LirListing l = {out, blob, gate_name, ctx, &cs};
    bool ok = lir_listing(&l, func_names, step, 1);
    cs_close(&cs);
    return ok;
}
