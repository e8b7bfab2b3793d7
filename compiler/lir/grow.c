/* grow.c — growing a malloc'd array by doubling (grow.h). */
#include "compiler/lir/grow.h"

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
