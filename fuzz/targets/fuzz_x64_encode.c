/* fuzz_x64_encode.c — libFuzzer target: bytes -> one x86-64 LIR instruction of a
 * straight-line form of the forms table -> x64_encode_inst -> Capstone.  Every byte
 * must decode and every register the instruction names must be used by the decoded
 * code; an instruction the encoder refuses must leave no bytes. */
#include "compiler/x64/x64.h"
#include "fuzz/targets/encode_input.h"

static const char *const x64_names[16][4] = {
    {"rax", "eax", "ax", "al"}, {"rcx", "ecx", "cx", "cl"}, {"rdx", "edx", "dx", "dl"},
    {"rbx", "ebx", "bx", "bl"}, {"rsp", "esp", "sp", "spl"}, {"rbp", "ebp", "bp", "bpl"},
    {"rsi", "esi", "si", "sil"}, {"rdi", "edi", "di", "dil"}, {"r8", "r8d", "r8w", "r8b"},
    {"r9", "r9d", "r9w", "r9b"}, {"r10", "r10d", "r10w", "r10b"}, {"r11", "r11d", "r11w", "r11b"},
    {"r12", "r12d", "r12w", "r12b"}, {"r13", "r13d", "r13w", "r13b"}, {"r14", "r14d", "r14w", "r14b"},
    {"r15", "r15d", "r15w", "r15b"}};

static bool x64_map(const char *name, Bank *bank, unsigned *num)
{
    if (!name)
        return false;
    if (!strncmp(name, "xmm", 3)) {
        *bank = BANK_FP;
        *num = (unsigned)atoi(name + 3);
        return true;
    }
    for (unsigned r = 0; r < 16; r++)
        for (unsigned w = 0; w < 4; w++)
            if (!strcmp(name, x64_names[r][w])) {
                *bank = BANK_GP;
                *num = r;
                return true;
            }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Target *t = x64_target();
    ByteSrc s = {data, size, 0};
    Inst in;
    const LirForm *form;
    if (!src_inst(&s, t, &in, &form))
        return 0;
    Arena *a = arena_new();
    Code *c = lir_code_new(a, t, "f", 0);
    c->frame_base = t->frame_base;
    c->stack_pointer = t->stack_pointer;
    uint32_t slot = lir_add_slot(c, 64, 8, false);
    c->slots[slot].offset = -64;
    c->slots[slot].assigned = true;
    LirBlock *b = lir_add_block(c, 1);
    LirAsm as;
    lir_asm_init(&as);
    if (x64_encode_inst(&as, c, b, &in)) {
        csh cs;
        if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK) {
            cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
            compare_with_capstone(cs, x64_map, t, &in, as.code, as.size);
            cs_close(&cs);
        }
    } else if (as.size || as.nrelocs || as.ntraps) {
        fprintf(stderr, "x86-64 encoder refused an instruction but left %u bytes: %s\n", as.size, as.err);
        abort();
    }
    lir_asm_free(&as);
    arena_free(a);
    return 0;
}
