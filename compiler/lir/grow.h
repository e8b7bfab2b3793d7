/* grow.h — growing a malloc'd array by doubling, shared by the backends' code
 * buffers (their code bytes, fixups, relocations, trap sites), and an arena array
 * likewise (the LIR parser's positions, the allocator's tables). */
#ifndef CIRC_LIR_GROW_H
#define CIRC_LIR_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* make *p (capacity *cap items of elem bytes) hold at least `need` items: the
 * capacity doubles from 64; false if realloc fails (*p and *cap unchanged) */
bool lir_grow_array(void **p, uint32_t *cap, uint32_t need, size_t elem);

typedef struct Arena Arena;
/* the same for an array in arena a (the capacity doubles from 4; the old copy stays in
 * the arena, so the total is at most twice the final size); the grown part is not
 * cleared; returns the array */
void *lir_arena_grow_array(Arena *a, void *p, uint32_t *cap, uint32_t need, size_t elem);
/* the same for an array nobody points into across growth: the old array may not be
 * used afterwards (a large one is resized in place, arena_resize), so the total stays
 * the final size */
void *lir_arena_resize_array(Arena *a, void *p, uint32_t *cap, uint32_t need, size_t elem);

#endif
