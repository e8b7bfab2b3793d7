/* emit.c — lays out a module's functions (16-byte aligned, int3 padding), encodes
 * every block in order, resolves jump fixups per function and call fixups across
 * the module, and fills a CodeBlob (code, entries, relocations, trap table, source
 * marks).  Needs register-allocated, stack-allocated LIR. */
#include "compiler/lir/blob_fill.h"
#include "x64.h"

#include <stdlib.h>
#include <string.h>

static void add_mark(X64Asm *as, uint32_t func, GateId gate)
{
    if (as->nmarks == as->capmarks) {
        uint32_t ncap = as->capmarks ? as->capmarks * 2 : 64;
        SourceMark *m = realloc(as->marks, ncap * sizeof *m);
        if (!m) {
            as->failed = true;
            snprintf(as->err, sizeof as->err, "out of memory");
            return;
        }
        as->marks = m;
        as->capmarks = ncap;
    }
    as->marks[as->nmarks++] = (SourceMark){ as->size, func, gate };
}

static void put_rel32(X64Asm *as, uint32_t at, uint32_t target)
{
    uint32_t rel = target - (at + 4);
    for (unsigned i = 0; i < 4; i++)
        as->code[at + i] = (uint8_t)(rel >> (8 * i));
}

/* resolve the jump fixups made since first (block offsets in block_at); keep calls */
static bool resolve_jumps(X64Asm *as, uint32_t first, const uint32_t *block_at, uint32_t nblocks)
{
    uint32_t kept = first;
    for (uint32_t i = first; i < as->nfixups; i++) {
        X64Fixup f = as->fixups[i];
        if (f.is_call) {
            as->fixups[kept++] = f;
            continue;
        }
        if (f.target >= nblocks) {
            snprintf(as->err, sizeof as->err, "jump to block %u of %u", f.target, nblocks);
            return false;
        }
        put_rel32(as, f.at, block_at[f.target]);
    }
    as->nfixups = kept;
    return true;
}

static bool emit_func(X64Asm *as, const Code *code, uint32_t func)
{
    uint32_t first_fixup = as->nfixups;
    uint32_t *block_at = calloc(code->nblocks + 1, sizeof *block_at);
    if (!block_at) {
        snprintf(as->err, sizeof as->err, "out of memory");
        return false;
    }
    GateId last = NO_GATE;
    bool ok = true;
    for (uint32_t b = 0; ok && b < code->nblocks; b++) {
        const LirBlock *blk = code->blocks[b];
        block_at[b] = as->size;
        for (uint32_t i = 0; ok && i < blk->ninsts; i++) {
            const Inst *in = &blk->insts[i];
            if (in->origin != NO_GATE && in->origin != last)
                add_mark(as, func, in->origin);
            last = in->origin;
            ok = x64_encode_inst(as, code, blk, in);
            if (!ok) {
                char msg[sizeof as->err];
                snprintf(msg, sizeof msg, "@%.40s block %u inst %u: %.170s", code->name, b, i, as->err);
                memcpy(as->err, msg, sizeof msg);
            }
        }
    }
    ok = ok && resolve_jumps(as, first_fixup, block_at, code->nblocks);
    free(block_at);
    return ok;
}

static bool resolve_calls(X64Asm *as, const uint32_t *entry, uint32_t nfuncs)
{
    for (uint32_t i = 0; i < as->nfixups; i++) {
        if (as->fixups[i].target >= nfuncs) {
            snprintf(as->err, sizeof as->err, "call to function %u of %u", as->fixups[i].target, nfuncs);
            return false;
        }
        put_rel32(as, as->fixups[i].at, entry[as->fixups[i].target]);
    }
    as->nfixups = 0;
    return true;
}

static void fill_blob(Arena *arena, const X64Asm *as, uint32_t *entry, uint32_t nfuncs, CodeBlob *out)
{
    BlobParts parts = {as->code, as->size, as->relocs, as->nrelocs, as->traps, as->ntraps, as->marks, as->nmarks};
    lir_blob_fill(arena, ISA_X64, &parts, entry, nfuncs, out);
}

bool x64_emit(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out, char *err, size_t errlen)
{
    X64Asm as;
    x64_asm_init(&as);
    uint32_t *entry = calloc(nfuncs + 1, sizeof *entry);
    bool ok = entry != NULL;
    if (!ok)
        snprintf(as.err, sizeof as.err, "out of memory");
    for (uint32_t f = 0; ok && f < nfuncs; f++) {
        x64_asm_pad(&as, 16, 0xcc);
        entry[f] = as.size;
        if (!funcs[f]) {
            snprintf(as.err, sizeof as.err, "function %u has no code", f);
            ok = false;
        } else {
            ok = emit_func(&as, funcs[f], f);
        }
    }
    ok = ok && !as.failed && resolve_calls(&as, entry, nfuncs);
    if (ok)
        fill_blob(arena, &as, entry, nfuncs, out);
    else if (err && errlen)
        snprintf(err, errlen, "%s", as.err[0] ? as.err : "encoding failed");
    free(entry);
    x64_asm_free(&as);
    return ok;
}
