/* fuzz_a64_encode.c — libFuzzer target: bytes -> one ARM64 LIR instruction of a
 * straight-line form of the forms table -> a64_encode_inst -> Capstone.  Every word
 * must decode and every register the instruction names must be used by the decoded
 * code (number 31 stands for both SP and ZR); an instruction the encoder refuses
 * must leave no bytes. */
#include "compiler/a64/a64.h"
#include "fuzz/targets/encode_input.h"

#include <ctype.h>

static bool a64_map(const char *name, Bank *bank, unsigned *num)
{
    if (!name)
        return false;
    if (!strcmp(name, "sp") || !strcmp(name, "wsp") || !strcmp(name, "xzr") || !strcmp(name, "wzr")) {
        *bank = BANK_GP;
        *num = 31;
        return true;
    }
    if (!strcmp(name, "fp") || !strcmp(name, "lr")) {
        *bank = BANK_GP;
        *num = name[0] == 'f' ? 29 : 30;
        return true;
    }
    if (!isdigit((unsigned char)name[1]))
        return false;
    *num = (unsigned)atoi(name + 1);
    if (name[0] == 'x' || name[0] == 'w')
        *bank = BANK_GP;
    else if (strchr("bhsdqv", name[0]))
        *bank = BANK_FP;
    else
        return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Target *t = a64_target();
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
    LirAsm as;
    lir_asm_init(&as);
    if (a64_encode_inst(&as, c, NULL, &in)) {
        csh cs;
        if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs) == CS_ERR_OK) {
            cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
            compare_with_capstone(cs, a64_map, t, &in, as.code, as.size);
            cs_close(&cs);
        }
    } else if (as.size || as.nrelocs || as.ntraps) {
        fprintf(stderr, "ARM64 encoder refused an instruction but left %u bytes: %s\n", as.size, as.err);
        abort();
    }
    lir_asm_free(&as);
    arena_free(a);
    return 0;
}
