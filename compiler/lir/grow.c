/* grow.c — growing a malloc'd or arena array by doubling (grow.h). */
#include "compiler/lir/grow.h"
#include "compiler/ir/ir.h"

#include <stdlib.h>

bool lir_grow_array(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint32_t ncap = *cap ? *cap * 2 : 64;
    while (ncap < need)
        ncap *= 2;
    void *q = realloc(*p, (size_t)ncap * elem);
    if (!q)
        return false;
    *p = q;
    *cap = ncap;
    return true;
}

static void *arena_array(Arena *a, void *p, uint32_t *cap, uint32_t need, size_t elem, bool resize)
{
    if (need <= *cap)
        return p;
    uint32_t ncap = *cap ? *cap * 2 : 4;
    while (ncap < need)
        ncap *= 2;
    size_t oldn = (size_t)*cap * elem, newn = (size_t)ncap * elem;
    p = resize ? arena_resize(a, p, oldn, newn) : arena_grow_raw(a, p, oldn, newn);
    *cap = ncap;
    return p;
}

void *lir_arena_grow_array(Arena *a, void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    return arena_array(a, p, cap, need, elem, false);
}

void *lir_arena_resize_array(Arena *a, void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    return arena_array(a, p, cap, need, elem, true);
}
