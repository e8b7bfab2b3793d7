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

void *lir_arena_grow_array(Arena *a, void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    uint32_t ncap = *cap ? *cap * 2 : 4;
    while (ncap < need)
        ncap *= 2;
    p = arena_grow_raw(a, p, (size_t)*cap * elem, (size_t)ncap * elem);
    *cap = ncap;
    return p;
}
