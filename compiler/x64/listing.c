/* listing.c — an x86-64 CodeBlob as text through Capstone: the step of the shared
 * listing loop (compiler/lir/listing.h) that shows one instruction with its offset,
 * bytes, trap sites, relocations and source marks (gates).  No assembler text is
 * used to produce code; this only reads it. */
#include "x64.h"
#include "compiler/lir/listing.h"

#include <capstone/capstone.h>
#include <stdlib.h>
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
    const Target *t = x64_target();
    if (blob->isa != ISA_X64 || cs_open((cs_arch)t->disasm.cs_arch, (cs_mode)t->disasm.cs_mode, &cs) != CS_ERR_OK)
        return false;
    LirListing l = {out, blob, gate_name, ctx, &cs};
    bool ok = lir_listing(&l, func_names, step, 1);
    cs_close(&cs);
    return ok;
}

static const char *const cs_gp_names[X64_NREGS][4] = {
    {"rax", "eax", "ax", "al"}, {"rcx", "ecx", "cx", "cl"}, {"rdx", "edx", "dx", "dl"},
    {"rbx", "ebx", "bx", "bl"}, {"rsp", "esp", "sp", "spl"}, {"rbp", "ebp", "bp", "bpl"},
    {"rsi", "esi", "si", "sil"}, {"rdi", "edi", "di", "dil"}, {"r8", "r8d", "r8w", "r8b"},
    {"r9", "r9d", "r9w", "r9b"}, {"r10", "r10d", "r10w", "r10b"}, {"r11", "r11d", "r11w", "r11b"},
    {"r12", "r12d", "r12w", "r12b"}, {"r13", "r13d", "r13w", "r13b"}, {"r14", "r14d", "r14w", "r14b"},
    {"r15", "r15d", "r15w", "r15b"}};

bool x64_cs_reg(const char *name, Bank *bank, unsigned *num)
{
    if (!name)
        return false;
    char *end;
    if (!strncmp(name, "xmm", 3) && name[3] >= '0' && name[3] <= '9') {
        unsigned long n = strtoul(name + 3, &end, 10);
        if (*end || n >= X64_NREGS)
            return false;
        *bank = BANK_FP;
        *num = (unsigned)n;
        return true;
    }
    for (unsigned r = 0; r < X64_NREGS; r++)
        for (unsigned w = 0; w < 4; w++)
            if (!strcmp(name, cs_gp_names[r][w])) {
                *bank = BANK_GP;
                *num = r;
                return true;
            }
    return false;
}
