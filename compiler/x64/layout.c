/* layout.c — the x86-64 part of module layout (compiler/lir/asm.h): int3 padding
 * between functions, rel32 fields as the fixups of jumps and calls, and x64_emit,
 * which lays the module out with them and the encoder of encode.c. */
#include "x64.h"

static bool patch_rel32(LirAsm *as, uint32_t at, uint32_t to)
{
    uint32_t rel = to - (at + 4);
    for (unsigned i = 0; i < 4; i++)
        as->code[at + i] = (uint8_t)(rel >> (8 * i));
    return true;
}

static const LirLayout x64_layout = {
    .isa = ISA_X64,
    .filler = { 0xcc },        /* int3 */
    .filler_len = 1,
    .encode = x64_encode_inst,
    .patch = patch_rel32,
};

bool x64_emit(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out, char *err, size_t errlen)
{
    return lir_layout_module(&x64_layout, arena, funcs, nfuncs, out, err, errlen);
}
