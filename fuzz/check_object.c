/* check_object.c — the machine-code stages' code as an object: the compiled blob
 * written as an ELF object (compiler/lir/objwrite.h) and loaded back by the
 * harness's loader (oracle/elf_load.h), so that every check runs the object writer
 * and the loader too. */
#include "compiler/lir/objwrite.h"
#include "fuzz/check_stage.h"

#include <stdlib.h>

bool check_load_object(const Module *m, const Target *t, const CodeBlob *blob, uint64_t base,
                       ElfResolveFn resolve, void *ctx, Arena *arena, ElfImage *img, CodeBlob *loaded,
                       StageRun *r)
{
    const char **names = arena_alloc(arena, (m->nfuncs + 1) * sizeof *names);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        names[i] = m->funcs[i]->name;
    ObjImage obj;
    char err[256];
    bool ok = obj_write_elf(blob, t, names, NULL, &obj, err, sizeof err);
    if (ok) {
        ok = elf_load(obj.data, obj.size, elf_machine(t->isa), base, resolve, ctx, img, err, sizeof err);
        free(obj.data);
    }
    uint32_t *entry = arena_alloc(arena, (m->nfuncs + 1) * sizeof *entry);
    if (ok && !elf_image_blob(img, t->isa, names, m->nfuncs, entry, loaded, err, sizeof err)) {
        elf_image_free(img);
        ok = false;
    }
    if (!ok) {
        snprintf(r->detail, sizeof r->detail, "the object: %s", err);
        r->fail_kind = "object";
    }
    return ok;
}
