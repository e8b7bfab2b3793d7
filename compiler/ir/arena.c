/* arena.c — bump allocation in chained blocks, large allocations in chunks of their
 * own (grown with realloc, released early on request), released small allocations
 * kept for the next request of their size; everything is freed at once. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} Block;

/* an allocation of at least BIG_BYTES: its own malloc'd chunk, so that growing it
 * neither copies into a new block nor leaves the old copy behind */
typedef struct Big {
    struct Big *next;
    size_t size;
    _Alignas(16) unsigned char data[];
} Big;

enum { BIG_BYTES = 64 << 10 };

/* the spare lists: released allocations below BIG_BYTES (arena_release, and the
 * old copy of arena_resize), by size, each holding the next in its first bytes.  An
 * array grown by doubling releases the same few sizes again and again.  A list per
 * slot of a small table hashed by size; a size whose slot another size holds is
 * not kept. */
enum { SPARE_SLOTS = 64 };

typedef struct Spare {
    struct Spare *next;
} Spare;

typedef struct {
    size_t size;
    Spare *head;
} SpareList;

struct Arena {
    Block *head;
    Big *big;        /* the large chunks, newest first */
    SpareList spare[SPARE_SLOTS];
    size_t nspare;   /* allocations on the spare lists */
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
    memset(a, 0, sizeof *a);
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
    for (Big *b = a->big, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

/* the size of a new block for a request of n bytes: the blocks grow with the arena
 * (from 2 KiB, so that a small circuit costs little, to 1 MiB), never below n */
static size_t block_size(const Arena *a, size_t n)
{
    size_t size = a->total < 2048 ? 2048 : a->total > (1u << 20) ? (1u << 20) : a->total;
    return n > size ? n : size;
}

/* a new large chunk of n bytes, not cleared */
static void *big_new(Arena *a, size_t n)
{
    Big *b = xmalloc(sizeof *b + n);
    b->size = n;
    b->next = a->big;
    a->big = b;
    a->total += n;
    return b->data;
}

/* the link that points to the large chunk holding exactly p, NULL if p is not one */
static Big **big_link(Arena *a, const void *p)
{
    for (Big **l = &a->big; *l; l = &(*l)->next)
        if ((*l)->data == p)
            return l;
    return NULL;
}

/* the large chunk at *link resized to n bytes (it may move) */
static void *big_resize(Arena *a, Big **link, size_t n)
{
    Big *b = *link;
    a->total = a->total - b->size + n;
    b = realloc(b, sizeof *b + n);
    if (!b) {
        fputs("circ: out of memory\n", stderr);
        abort();
    }
    b->size = n;
    *link = b;
    return b->data;
}

/* the spare list for allocations of n bytes (a multiple of 16 below BIG_BYTES) */
static SpareList *spare_list(Arena *a, size_t n)
{
    return &a->spare[((uint32_t)(n >> 4) * 0x9e3779b1u) >> 26];
}

/* p (n bytes, a multiple of 16) no longer used: kept for the next request of its
 * size, if it is a small allocation, 16-byte aligned, and its list has room */
static void spare_push(Arena *a, void *p, size_t n)
{
    if (n >= BIG_BYTES || ((uintptr_t)p & 15))
        return;
    SpareList *l = spare_list(a, n);
    if (l->head && l->size != n)
        return;
    Spare *sp = p;
    sp->next = l->head;
    l->head = sp;
    l->size = n;
    a->nspare++;
}

/* n bytes (a multiple of 16), not cleared */
static void *bump(Arena *a, size_t n)
{
    if (n >= BIG_BYTES)
        return big_new(a, n);
    SpareList *l = a->nspare ? spare_list(a, n) : NULL;
    if (l && l->head && l->size == n) {
        Spare *sp = l->head;
        l->head = sp->next;
        a->nspare--;
        return sp;
    }
    Block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = block_size(a, n);
        b = xmalloc(sizeof *b + size);
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
        a->total += size;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

static size_t round16(size_t n) { return n ? (n + 15) & ~(size_t)15 : 16; }

void *arena_alloc(Arena *a, size_t n)
{
    n = round16(n);
    void *p = bump(a, n);
    memset(p, 0, n);
    return p;
}

void *arena_alloc_raw(Arena *a, size_t n) { return bump(a, round16(n)); }

/* a large chunk is resized by realloc when `resize` (else the old copy stays); a
 * shrink stays in place; the last allocation grows in place when its block has
 * room; otherwise it moves, the old copy kept readable, or when `resize` given to
 * its spare list.  The first min(oldn, newn) bytes are kept; the rest are cleared
 * when `clear`. */
static void *grow(Arena *a, void *old, size_t oldn, size_t newn, bool clear, bool resize)
{
    if (!old || !oldn)
        return clear ? arena_alloc(a, newn) : arena_alloc_raw(a, newn);
    size_t have = round16(oldn), want = round16(newn);
    size_t keep = oldn < newn ? oldn : newn;
    Block *b = a->head;
    unsigned char *p = old;
    bool last = b && p + have == b->data + b->used;
    Big **link = resize && have >= BIG_BYTES ? big_link(a, old) : NULL;
    if (link) {
        p = big_resize(a, link, want);
    } else if (want <= have) {
        if (last)
            b->used -= have - want; /* a shrink stays where it is */
    } else if (last && want < BIG_BYTES && b->size - b->used >= want - have) {
        b->used += want - have;
    } else {
        p = bump(a, want);
        memcpy(p, old, keep);
        if (resize)
            spare_push(a, old, have);
    }
    if (clear)
        memset(p + keep, 0, want - keep);
    return p;
}

void *arena_grow(Arena *a, void *old, size_t oldn, size_t newn) { return grow(a, old, oldn, newn, true, false); }
void *arena_grow_raw(Arena *a, void *old, size_t oldn, size_t newn) { return grow(a, old, oldn, newn, false, false); }
void *arena_resize(Arena *a, void *old, size_t oldn, size_t newn) { return grow(a, old, oldn, newn, false, true); }

void *arena_memdup(Arena *a, const void *src, size_t n)
{
    size_t size = round16(n);
    unsigned char *p = bump(a, size);
    memcpy(p, src, n);
    memset(p + n, 0, size - n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void arena_release(Arena *a, void *p, size_t n)
{
    if (!p)
        return;
    size_t have = round16(n);
    Big **link = have >= BIG_BYTES ? big_link(a, p) : NULL;
    Block *b = a->head;
    if (link) {
        Big *big = *link;
        *link = big->next;
        a->total -= big->size;
        free(big);
    } else if (b && (unsigned char *)p + have == b->data + b->used && b->used >= have) {
        b->used -= have;
    } else {
        spare_push(a, p, have);
    }
}

size_t arena_bytes(const Arena *a) { return a->total; }
