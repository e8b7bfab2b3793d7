/* layout.c — module layout shared by the targets (asm.h): functions 16-byte
 * aligned with the target's filler, every block encoded in order with a source
 * mark where a gate's code starts, block fixups resolved per function (a branch
 * that cannot reach is marked long and the function laid out again, until every
 * branch fits), call fixups resolved across the module, and the CodeBlob filled
 * from the buffer. */
#include "compiler/lir/asm.h"

#include <stdlib.h>
#include <string.h>

static void add_mark(LirAsm *as, uint32_t func, GateId gate)
{
    if (lir_asm_reserve(as, (void **)&as->marks, &as->capmarks, as->nmarks + 1, sizeof *as->marks))
        as->marks[as->nmarks++] = (SourceMark){ as->size, func, gate };
}

static bool mark_long(LirAsm *as, uint32_t k)
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

/* is a conditional branch's target within the function's branch_reach, if any? */
static bool within_reach(const LirAsm *as, const LirFixup *f, uint32_t to)
{
    if (f->kind != LIR_FIX_COND || !as->branch_reach)
        return true;
    return (to > f->at ? to - f->at : f->at - to) <= as->branch_reach;
}

bool lir_resolve_blocks(LirAsm *as, const LirLayout *layout, const uint32_t *block_at, uint32_t nblocks,
                        bool *relayout)
{
    uint32_t kept = as->func_fixups;
    *relayout = false;
    for (uint32_t i = as->func_fixups; i < as->nfixups; i++) {
        LirFixup f = as->fixups[i];
        if (f.kind == LIR_FIX_CALL) {
            as->fixups[kept++] = f;
            continue;
        }
        if (f.target >= nblocks) {
            snprintf(as->err, sizeof as->err, "branch to block %u of %u", f.target, nblocks);
            return false;
        }
        if (within_reach(as, &f, block_at[f.target]) && layout->patch(as, f.at, block_at[f.target]))
            continue;
        if (f.kind != LIR_FIX_COND || !mark_long(as, i - as->func_fixups)) {
            snprintf(as->err, sizeof as->err, "branch to block %u out of range", f.target);
            return false;
        }
        *relayout = true;
    }
    if (!*relayout)
        as->nfixups = kept;
    return true;
}

static bool emit_blocks(LirAsm *as, const LirLayout *layout, const Code *code, uint32_t func, uint32_t *block_at)
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
            if (!layout->encode(as, code, blk, in)) {
                char msg[sizeof as->err];
                snprintf(msg, sizeof msg, "@%.40s block %u inst %u: %.170s", code->name, b, i, as->err);
                memcpy(as->err, msg, sizeof msg);
                return false;
            }
        }
    }
    return !as->failed;
}

static bool emit_func(LirAsm *as, const LirLayout *layout, const Code *code, uint32_t func)
{
    uint32_t *block_at = calloc(code->nblocks + 1, sizeof *block_at);
    if (!block_at) {
        snprintf(as->err, sizeof as->err, "out of memory");
        return false;
    }
    uint32_t size = as->size, nrelocs = as->nrelocs, ntraps = as->ntraps, nmarks = as->nmarks;
    as->func_fixups = as->nfixups;
    as->nlong = 0;
    as->cov = code->cov;
    as->branch_reach = code->branch_reach;
    bool ok, relayout = true;
    do {
        as->size = size;
        as->nrelocs = nrelocs;
        as->ntraps = ntraps;
        as->nmarks = nmarks;
        as->nfixups = as->func_fixups;
        ok = emit_blocks(as, layout, code, func, block_at) &&
             lir_resolve_blocks(as, layout, block_at, code->nblocks, &relayout);
    } while (ok && relayout);
    free(block_at);
    return ok;
}

static bool resolve_calls(LirAsm *as, const LirLayout *layout, const uint32_t *entry, uint32_t nfuncs)
{
    for (uint32_t i = 0; i < as->nfixups; i++) {
        LirFixup f = as->fixups[i];
        if (f.target >= nfuncs) {
            snprintf(as->err, sizeof as->err, "call to function %u of %u", f.target, nfuncs);
            return false;
        }
        if (!layout->patch(as, f.at, entry[f.target])) {
            snprintf(as->err, sizeof as->err, "call to function %u out of range", f.target);
            return false;
        }
    }
    as->nfixups = 0;
    return true;
}

/* the module's call sites (the fixups left after every function: calls only) */
static void keep_calls(Arena *arena, const LirAsm *as, CodeBlob *out)
{
    out->calls = arena_alloc(arena, (as->nfixups ? as->nfixups : 1) * sizeof *out->calls);
    for (uint32_t i = 0; i < as->nfixups; i++)
        out->calls[i] = (Reloc){ as->fixups[i].at, RELOC_CALL, TARGET_FUNC, as->fixups[i].target, 0 };
    out->ncalls = as->nfixups;
}

static void *copy_out(Arena *arena, const void *p, size_t n)
{
    void *q = arena_alloc(arena, n ? n : 1);
    if (n)
        memcpy(q, p, n);
    return q;
}

static void fill_blob(Arena *arena, Isa isa, const LirAsm *as, const uint32_t *entry, uint32_t nfuncs,
                      CodeBlob *out)
{
    memset(out, 0, sizeof *out);
    out->isa = isa;
    out->code = copy_out(arena, as->code, as->size);
    out->size = as->size;
    out->entry = copy_out(arena, entry, nfuncs * sizeof *entry);
    out->nfuncs = nfuncs;
    out->relocs = copy_out(arena, as->relocs, as->nrelocs * sizeof *as->relocs);
    out->nrelocs = as->nrelocs;
    out->traps = copy_out(arena, as->traps, as->ntraps * sizeof *as->traps);
    out->ntraps = as->ntraps;
    out->marks = copy_out(arena, as->marks, as->nmarks * sizeof *as->marks);
    out->nmarks = as->nmarks;
}

static void pad(LirAsm *as, const LirLayout *layout)
{
    for (unsigned i = 0; as->size % 16 && !as->failed; i = (i + 1) % layout->filler_len)
        lir_asm_byte(as, layout->filler[i]);
}

bool lir_layout_module(const LirLayout *layout, Arena *arena, Code *const *funcs, uint32_t nfuncs,
                       CodeBlob *out, char *err, size_t errlen)
{
    LirAsm as;
    lir_asm_init(&as);
    uint32_t *entry = calloc(nfuncs + 1, sizeof *entry);
    bool ok = entry != NULL;
    if (!ok)
        snprintf(as.err, sizeof as.err, "out of memory");
    for (uint32_t f = 0; ok && f < nfuncs; f++) {
        pad(&as, layout);
        entry[f] = as.size;
        if (!funcs[f]) {
            snprintf(as.err, sizeof as.err, "function %u has no code", f);
            ok = false;
        } else {
            ok = emit_func(&as, layout, funcs[f], f);
        }
    }
    CodeBlob calls = {0};
    if (ok && !as.failed)
        keep_calls(arena, &as, &calls);
    ok = ok && !as.failed && resolve_calls(&as, layout, entry, nfuncs);
    if (ok) {
        fill_blob(arena, layout->isa, &as, entry, nfuncs, out);
        out->calls = calls.calls;
        out->ncalls = calls.ncalls;
    }
    else if (err && errlen)
        snprintf(err, errlen, "%s", as.err[0] ? as.err : "encoding failed");
    free(entry);
    lir_asm_free(&as);
    return ok;
}
