/* layout.c — lays out a module's ARM64 functions (16-byte aligned, nop padding),
 * encodes every block in order, resolves branch fixups per function (a conditional
 * branch that cannot reach is marked long and the function laid out again with a
 * veneer for it, until every branch fits) and call fixups across the module, and
 * fills a CodeBlob (code, entries, relocations, trap table, source marks).  Needs
 * register-allocated, stack-allocated LIR. */
#include "compiler/lir/blob_fill.h"
#include "a64.h"

#include <stdlib.h>
#include <string.h>

static void add_mark(A64Asm *as, uint32_t func, GateId gate)
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

static uint32_t *word_at(A64Asm *as, uint32_t at) { return (uint32_t *)(void *)(as->code + at); }

/* patch the branch word at `at` to reach `to` (words are little-endian in the buffer) */
static bool patch(A64Asm *as, uint32_t at, uint32_t to)
{
    uint32_t w;
    memcpy(&w, word_at(as, at), 4);
    if (!a64_patch_offset(&w, (int64_t)to - (int64_t)at))
        return false;
    memcpy(word_at(as, at), &w, 4);
    return true;
}

static bool mark_long(A64Asm *as, uint32_t k)
{
    if (k >= as->nlong) {
        uint32_t n = as->nfixups - as->func_fixups + 1;
        uint8_t *p = realloc(as->long_branch, n);
        if (!p)
            return false;
        memset(p + as->nlong, 0, n - as->nlong);
        as->long_branch = p;
        as->nlong = n;
    }
    as->long_branch[k] = 1;
    return true;
}

bool a64_resolve_blocks(A64Asm *as, const uint32_t *block_at, uint32_t nblocks, bool *relayout)
{
    uint32_t kept = as->func_fixups;
    *relayout = false;
    for (uint32_t i = as->func_fixups; i < as->nfixups; i++) {
        A64Fixup f = as->fixups[i];
        if (f.kind == A64_FIX_CALL) {
            as->fixups[kept++] = f;
            continue;
        }
        if (f.target >= nblocks) {
            snprintf(as->err, sizeof as->err, "branch to block %u of %u", f.target, nblocks);
            return false;
        }
        if (patch(as, f.at, block_at[f.target]))
            continue;
        if (f.kind != A64_FIX_COND || !mark_long(as, i - as->func_fixups)) {
            snprintf(as->err, sizeof as->err, "branch to block %u out of range", f.target);
            return false;
        }
        *relayout = true;
    }
    if (!*relayout)
        as->nfixups = kept;
    return true;
}

static bool emit_blocks(A64Asm *as, const Code *code, uint32_t func, uint32_t *block_at)
{
    GateId last = NO_GATE;
    for (uint32_t b = 0; b < code->nblocks; b++) {
        const LirBlock *blk = code->blocks[b];
        block_at[b] = as->size;
        for (uint32_t i = 0; i < blk->ninsts; i++) {
            const Inst *in = &blk->insts[i];
            if (in->origin != NO_GATE && in->origin != last)
                add_mark(as, func, in->origin);
            last = in->origin;
            if (!a64_encode_inst(as, code, blk, in)) {
                char msg[sizeof as->err];
                snprintf(msg, sizeof msg, "@%.40s block %u inst %u: %.170s", code->name, b, i, as->err);
                memcpy(as->err, msg, sizeof msg);
                return false;
            }
        }
    }
    return !as->failed;
}

static bool emit_func(A64Asm *as, const Code *code, uint32_t func)
{
    uint32_t *block_at = calloc(code->nblocks + 1, sizeof *block_at);
    if (!block_at) {
        snprintf(as->err, sizeof as->err, "out of memory");
        return false;
    }
    uint32_t size = as->size, nrelocs = as->nrelocs, ntraps = as->ntraps, nmarks = as->nmarks;
    as->func_fixups = as->nfixups;
    as->nlong = 0;
    bool ok, relayout = true;
    do {
        as->size = size;
        as->nrelocs = nrelocs;
        as->ntraps = ntraps;
        as->nmarks = nmarks;
        as->nfixups = as->func_fixups;
        ok = emit_blocks(as, code, func, block_at) &&
             a64_resolve_blocks(as, block_at, code->nblocks, &relayout);
    } while (ok && relayout);
    free(block_at);
    return ok;
}

static bool resolve_calls(A64Asm *as, const uint32_t *entry, uint32_t nfuncs)
{
    for (uint32_t i = 0; i < as->nfixups; i++) {
        A64Fixup f = as->fixups[i];
        if (f.target >= nfuncs) {
            snprintf(as->err, sizeof as->err, "call to function %u of %u", f.target, nfuncs);
            return false;
        }
        if (!patch(as, f.at, entry[f.target])) {
            snprintf(as->err, sizeof as->err, "call to function %u out of range", f.target);
            return false;
        }
    }
    as->nfixups = 0;
    return true;
}

static void fill_blob(Arena *arena, const A64Asm *as, uint32_t *entry, uint32_t nfuncs, CodeBlob *out)
{
    BlobParts parts = {as->code, as->size, as->relocs, as->nrelocs, as->traps, as->ntraps, as->marks, as->nmarks};
    lir_blob_fill(arena, ISA_A64, &parts, entry, nfuncs, out);
}

bool a64_emit(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out, char *err, size_t errlen)
{
    A64Asm as;
    a64_asm_init(&as);
    uint32_t *entry = calloc(nfuncs + 1, sizeof *entry);
    bool ok = entry != NULL;
    if (!ok)
        snprintf(as.err, sizeof as.err, "out of memory");
    for (uint32_t f = 0; ok && f < nfuncs; f++) {
        while (as.size % 16 && !as.failed)
            a64_asm_word(&as, a64_nop());
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
    a64_asm_free(&as);
    return ok;
}
