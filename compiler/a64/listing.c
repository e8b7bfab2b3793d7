/* listing.c — an ARM64 CodeBlob as text through Capstone: the step of the shared
 * listing loop (compiler/lir/listing.h) that shows one word (or a literal's two,
 * as .quad with its relocation) with its offset, trap sites and source marks
 * (gates).  No assembler text is used to produce code; this only reads it. */
#include "a64.h"
#include "compiler/lir/listing.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

/* is there an absolute word (a literal, RELOC_ABS64) at `at`? */
static bool literal_at(const CodeBlob *blob, uint32_t at)
{
    for (uint32_t r = 0; r < blob->nrelocs; r++)
        if (blob->relocs[r].offset == at && blob->relocs[r].kind == RELOC_ABS64)
            return true;
    return false;
}

static uint32_t word_of(const CodeBlob *blob, uint32_t at)
{
    uint32_t w;
    memcpy(&w, blob->code + at, 4);
    return w;
}

/* the instruction or literal at `at` */
static uint32_t step(const LirListing *l, uint32_t at, uint32_t end)
{
    (void)end;
    const CodeBlob *blob = l->blob;
    lir_list_marks(l, at);
    if (literal_at(blob, at) && at + 8 <= blob->size) {
        uint64_t v = (uint64_t)word_of(blob, at) | (uint64_t)word_of(blob, at + 4) << 32;
        fprintf(l->out, "  %06x: %08x %08x        .quad 0x%llx", at, word_of(blob, at),
                word_of(blob, at + 4), (unsigned long long)v);
        lir_list_relocs(l, at, 1);
        fputc('\n', l->out);
        return 8;
    }
    cs_insn *insn;
    size_t n = cs_disasm(*(const csh *)l->decoder, blob->code + at, 4, at, 1, &insn);
    if (n != 1) {
        fprintf(l->out, "  %06x: %08x                 ; not decodable\n", at, word_of(blob, at));
        return LIR_LIST_BAD | 4;
    }
    fprintf(l->out, "  %06x: %08x                 %s%s%s", at, word_of(blob, at), insn[0].mnemonic,
            insn[0].op_str[0] ? " " : "", insn[0].op_str);
    lir_list_traps(l, at);
    lir_list_relocs(l, at, 4);
    fputc('\n', l->out);
    cs_free(insn, n);
    return 4;
}

bool a64_listing(FILE *out, const CodeBlob *blob, const char *const *func_names,
                 GateNameFn gate_name, void *ctx)
{
    csh cs;
    const Target *t = a64_target();
    if (blob->isa != ISA_A64 || cs_open((cs_arch)t->disasm.cs_arch, (cs_mode)t->disasm.cs_mode, &cs) != CS_ERR_OK)
        return false;
    LirListing l = {out, blob, gate_name, ctx, &cs};
    bool ok = lir_listing(&l, func_names, step, 4);
    cs_close(&cs);
    return ok;
}

/* the register of a name with one letter of letters and a number below 32 */
static bool numbered_reg(const char *name, const char *letters, unsigned *num)
{
    if (!name[0] || !strchr(letters, name[0]) || name[1] < '0' || name[1] > '9')
        return false;
    char *end;
    unsigned long n = strtoul(name + 1, &end, 10);
    *num = (unsigned)n;
    return !*end && n < 32;
}

bool a64_cs_reg(const char *name, Bank *bank, unsigned *num)
{
    static const char *const special[] = {"sp", "wsp", "xzr", "wzr", "fp", "lr"};
    static const uint8_t special_num[] = {31, 31, 31, 31, 29, 30};
    if (!name)
        return false;
    *bank = BANK_GP;
    for (unsigned i = 0; i < sizeof special / sizeof special[0]; i++)
        if (!strcmp(name, special[i])) {
            *num = special_num[i];
            return true;
        }
    if (numbered_reg(name, "xw", num))
        return true;
    *bank = BANK_FP;
    return numbered_reg(name, "bhsdqv", num);
}
