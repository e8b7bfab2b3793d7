/* asm.c — the assembler buffer every target's encoder appends to, and the CodeBlob
 * made from it (asm.h). */
#include "compiler/lir/asm.h"
#include "compiler/lir/grow.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void lir_asm_init(LirAsm *as) { memset(as, 0, sizeof *as); }

void lir_asm_free(LirAsm *as)
{
    free(as->code);
    free(as->fixups);
    free(as->relocs);
    free(as->traps);
    free(as->marks);
    free(as->long_branch);
    memset(as, 0, sizeof *as);
}

bool lir_asm_fail(LirAsm *as, const char *fmt, ...)
{
    if (!as->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(as->err, sizeof as->err, fmt, ap);
        va_end(ap);
    }
    as->failed = true;
    return false;
}

bool lir_asm_reserve(LirAsm *as, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    return lir_grow_array(p, cap, need, elem) || lir_asm_fail(as, "out of memory");
}

void lir_asm_byte(LirAsm *as, unsigned b)
{
    if (lir_asm_reserve(as, (void **)&as->code, &as->cap, as->size + 1, 1))
        as->code[as->size++] = (uint8_t)b;
}

void lir_asm_word(LirAsm *as, uint32_t w)
{
    if (!lir_asm_reserve(as, (void **)&as->code, &as->cap, as->size + 4, 1))
        return;
    for (unsigned i = 0; i < 4; i++)
        as->code[as->size++] = (uint8_t)(w >> (8 * i));
}

void lir_asm_fixup(LirAsm *as, uint32_t target, LirFixupKind kind)
{
    if (lir_asm_reserve(as, (void **)&as->fixups, &as->capfixups, as->nfixups + 1, sizeof *as->fixups))
        as->fixups[as->nfixups++] = (LirFixup){ as->size, target, (uint8_t)kind };
}

void lir_asm_reloc(LirAsm *as, const Arg *sym, RelocKind kind)
{
    if (lir_asm_reserve(as, (void **)&as->relocs, &as->caprelocs, as->nrelocs + 1, sizeof *as->relocs))
        as->relocs[as->nrelocs++] = (Reloc){ as->size, (uint8_t)kind, sym->sym_kind, sym->slot, sym->value };
}

void lir_asm_trap(LirAsm *as, uint32_t offset, uint8_t kind)
{
    if (lir_asm_reserve(as, (void **)&as->traps, &as->captraps, as->ntraps + 1, sizeof *as->traps))
        as->traps[as->ntraps++] = (TrapSite){ offset, kind };
}

bool lir_asm_next_is_long(const LirAsm *as)
{
    uint32_t k = as->nfixups - as->func_fixups;
    return k < as->nlong && as->long_branch[k];
}
