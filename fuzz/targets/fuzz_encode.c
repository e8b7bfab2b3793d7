/* fuzz_encode.c — libFuzzer target for every target of the registry: the first byte
 * picks the target (modulo target_count()) and its CPU level (the quotient, modulo
 * its number of levels), the rest make one LIR instruction of a
 * straight-line form of its forms table -> Target.encode_inst -> Capstone through
 * Target.disasm.  Every byte must decode and every register the instruction names
 * must be used by the decoded code; an instruction the encoder refuses must leave
 * no bytes, relocations or trap sites. */
#include "compiler/lir/asm.h"
#include "compiler/target.h"
#include "fuzz/targets/encode_input.h"

/* decode the encoder's bytes with the target's disassembler and compare */
static void check_decoding(const Target *t, const Inst *in, const LirAsm *as)
{
    csh cs;
    if (cs_open((cs_arch)t->disasm.cs_arch, (cs_mode)t->disasm.cs_mode, &cs) != CS_ERR_OK) {
        fprintf(stderr, "%s: Capstone cannot open the target's architecture\n", t->name);
        abort();
    }
    cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
    compare_with_capstone(cs, t, in, as->code, as->size);
    cs_close(&cs);
}

/* a function of t with one assigned 64-byte stack slot and one block */
static Code *scratch_code(Arena *a, const Target *t)
{
    Code *c = lir_code_new(a, t, "f", 0);
    c->frame_base = t->frame_base;
    c->stack_pointer = t->stack_pointer;
    uint32_t slot = lir_add_slot(c, 64, 8, false);
    c->slots[slot].offset = -64;
    c->slots[slot].assigned = true;
    lir_add_block(c, 1);
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const Target *t = target_at(data[0] % target_count());
    t = t->levels[data[0] / target_count() % t->nlevels];
    ByteSrc s = {data + 1, size - 1, 0};
    Inst in;
    const LirForm *form;
    if (!src_inst(&s, t, &in, &form))
        return 0;
    Arena *a = arena_new();
    Code *c = scratch_code(a, t);
    LirAsm as;
    lir_asm_init(&as);
    if (t->encode_inst(&as, c, c->blocks[0], &in))
        check_decoding(t, &in, &as);
    else if (as.size || as.nrelocs || as.ntraps || as.nfixups) {
        fprintf(stderr, "%s encoder refused an instruction but left %u bytes: %s\n", t->name, as.size, as.err);
        abort();
    }
    lir_asm_free(&as);
    arena_free(a);
    return 0;
}
