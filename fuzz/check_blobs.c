/* check_blobs.c — the compiled modules of one check, shared by its machine-code
 * stages (check_stage.h: check_compile_shared): the Unicorn stage x86-64-O2, the
 * native stage and the qemu stage all run the module compiled at -O2 for the same
 * Target, so it is compiled once, by the first of them, and kept until the check
 * ends.  A stage that fails to compile leaves nothing behind: the next one of the
 * same key tries again and reports its own failure. */
#include "fuzz/check_stage.h"

#include <stdlib.h>
#include <string.h>

enum { SHARED_BLOBS_MAX = 16 };

typedef struct {
    const Target *target;
    int level;
    CodeBlob blob;
} SharedBlob;

typedef struct {
    Arena *arena;           /* every shared blob's memory */
    SharedBlob v[SHARED_BLOBS_MAX];
    uint32_t n;
} CheckBlobs;

static CheckBlobs *blobs_of(CheckCtx *c)
{
    if (!c->blobs) {
        CheckBlobs *b = calloc(1, sizeof *b);
        if (!b)
            abort();
        b->arena = arena_new();
        c->blobs = b;
    }
    return c->blobs;
}

const CodeBlob *check_compile_shared(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    CheckBlobs *b = blobs_of(c);
    for (uint32_t i = 0; i < b->n; i++)
        if (b->v[i].target == s->target && b->v[i].level == s->level)
            return &b->v[i].blob;
    if (b->n == SHARED_BLOBS_MAX) /* more keys than kept: the last one is replaced */
        b->n--;
    SharedBlob *e = &b->v[b->n];
    *e = (SharedBlob){.target = s->target, .level = s->level};
    if (!check_compile(c, s, b->arena, &e->blob, r))
        return NULL;
    b->n++;
    return &e->blob;
}

static bool same_relocs(const Reloc *a, const Reloc *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].offset != b[i].offset || a[i].kind != b[i].kind || a[i].target != b[i].target ||
            a[i].index != b[i].index || a[i].addend != b[i].addend)
            return false;
    return true;
}

static bool same_traps(const TrapSite *a, const TrapSite *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].offset != b[i].offset || a[i].kind != b[i].kind)
            return false;
    return true;
}

static bool same_code(const CodeBlob *a, const CodeBlob *b)
{
    return a->isa == b->isa && a->size == b->size && a->nfuncs == b->nfuncs && a->nrelocs == b->nrelocs &&
           a->ncalls == b->ncalls && a->ntraps == b->ntraps && a->threw_flag == b->threw_flag &&
           !memcmp(a->code, b->code, a->size) && !memcmp(a->entry, b->entry, a->nfuncs * sizeof *a->entry) &&
           same_relocs(a->relocs, b->relocs, a->nrelocs) && same_relocs(a->calls, b->calls, a->ncalls) &&
           same_traps(a->traps, b->traps, a->ntraps);
}

bool check_same_as_baseline(CheckCtx *c, const CheckStage *s, const CodeBlob *blob)
{
    const Target *base = s->target->levels ? s->target->levels[0] : NULL;
    CheckBlobs *b = c->blobs;
    for (uint32_t i = 0; b && base && base != s->target && i < b->n; i++)
        if (b->v[i].target == base && b->v[i].level == s->level)
            return same_code(&b->v[i].blob, blob);
    return false;
}

void check_blobs_free(CheckCtx *c)
{
    CheckBlobs *b = c->blobs;
    if (!b)
        return;
    arena_free(b->arena);
    free(b);
    c->blobs = NULL;
}
