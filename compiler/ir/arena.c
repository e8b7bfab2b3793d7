/* arena.c — bump allocation in chained blocks; everything is freed at once. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} Block;

struct Arena {
    Block *head;
    size_t total;
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("circ: out of memory\n", stderr);
        abort();
    }
    return p;
}

Arena *arena_new(void)
{
    Arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    a->total = 0;
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Block *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    Block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = n > 32768 ? n : 32768;
        b = xmalloc(sizeof *b + size);
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
        a->total += size;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

void *arena_grow(Arena *a, void *old, size_t oldn, size_t newn)
{
    void *p = arena_alloc(a, newn);
    if (old && oldn)
        memcpy(p, old, oldn < newn ? oldn : newn);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

size_t arena_bytes(const Arena *a) { return a->total; }
