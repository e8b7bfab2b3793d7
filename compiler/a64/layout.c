/* layout.c — the ARM64 part of module layout (compiler/lir/asm.h): nop padding
 * between functions, branch and call words re-targeted as the fixups are resolved
 * (a conditional branch that cannot reach makes the layout mark it long, and
 * encode.c then emits an inverted branch over a b), and a64_emit, which lays the
 * module out with them and the encoder of encode.c. */
#include "a64.h"
#include "cov.h"

#include <string.h>

static uint32_t *word_at(LirAsm *as, uint32_t at) { return (uint32_t *)(void *)(as->code + at); }

/* patch the branch word at `at` to reach `to` (words are little-endian in the buffer) */
static bool patch(LirAsm *as, uint32_t at, uint32_t to)
{
    uint32_t w;
    if (to < at)
        mcov_item(as->cov, A64COV_BRANCH_BACKWARD);
    else if (to - at >= 4096)
        mcov_item(as->cov, A64COV_BRANCH_FORWARD_FAR);
    memcpy(&w, word_at(as, at), 4);
    if (!a64_patch_offset(&w, (int64_t)to - (int64_t)at))
        return false;
    memcpy(word_at(as, at), &w, 4);
    return true;
}

static const LirLayout a64_layout = {
    .isa = ISA_A64,
    .filler = { 0x1f, 0x20, 0x03, 0xd5 },  /* nop, little-endian */
    .filler_len = 4,
    .encode = a64_encode_inst,
    .patch = patch,
};

bool a64_emit(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out, char *err, size_t errlen)
{
    return lir_layout_module(&a64_layout, arena, funcs, nfuncs, out, err, errlen);
}
