/* arena.c — the arena's contract on large allocations: an array resized by doubling
 * (arena_resize) holds about its own size (no old copies left behind), keeps its
 * contents, shrinks and is released back; arena_grow leaves the old copy readable; a
 * slice of a large allocation grows by a copy that leaves the allocation intact; the
 * last small allocation's release gives its room back; a small allocation released
 * (or left behind by arena_resize) is handed out again for its size only, so small
 * arrays grown by doubling side by side hold about their own size. */
#include "compiler/ir/ir.h"

#include <stdint.h>
#include <stdlib.h>

static int failures;

#define EXPECT(cond, ...)                                                            \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
            failures++;                                                              \
        }                                                                            \
    } while (0)

enum { MIB = 1 << 20 };

/* an array of uint32_t resized by doubling from 16 to n elements, v[i] = i throughout */
static uint32_t *resize_by_doubling(Arena *a, uint32_t n)
{
    uint32_t cap = 16, *v = arena_alloc_raw(a, cap * sizeof *v);
    for (uint32_t i = 0; i < n; i++) {
        if (i == cap) {
            v = arena_resize(a, v, cap * sizeof *v, 2 * cap * sizeof *v);
            cap *= 2;
        }
        v[i] = i;
    }
    return v;
}

/* a new large allocation of n uint32_t, v[i] = i */
static uint32_t *counting(Arena *a, uint32_t n)
{
    uint32_t *v = arena_alloc_raw(a, (size_t)n * 4);
    for (uint32_t i = 0; i < n; i++)
        v[i] = i;
    return v;
}

static bool counts_up(const uint32_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] != i)
            return false;
    return true;
}

/* 32 MiB resized by doubling: the arena holds the array and the small steps before
 * it went large, not the sum of every copy (64 MiB) */
static void test_doubling_keeps_no_copies(void)
{
    Arena *a = arena_new();
    uint32_t n = 8u * MIB;
    uint32_t *v = resize_by_doubling(a, n);
    EXPECT(counts_up(v, n), "contents lost while growing");
    size_t held = arena_bytes(a);
    EXPECT(held <= (size_t)n * 4 + MIB, "the arena holds %zu bytes for an array of %u", held, n * 4);
    v = arena_resize(a, v, (size_t)n * 4, (size_t)n * 2);
    EXPECT(counts_up(v, n / 2), "contents lost while shrinking");
    EXPECT(arena_bytes(a) <= held - (size_t)n * 2, "a shrink kept %zu bytes", arena_bytes(a));
    held = arena_bytes(a);
    arena_release(a, v, (size_t)n * 2);
    EXPECT(arena_bytes(a) == held - (size_t)n * 2, "a release kept %zu of %zu bytes", arena_bytes(a), held);
    arena_free(a);
}

/* a slice of one large allocation (as module_clone lays out use lists) grows by a
 * copy; the allocation around it is untouched */
static void test_slice_grows_by_copy(void)
{
    Arena *a = arena_new();
    uint32_t n = 256 * 1024;
    uint32_t *all = counting(a, n);
    uint32_t *slice = all + n / 2;
    uint32_t *grown = arena_grow(a, slice, (size_t)n / 4 * 4, (size_t)n * 4);
    EXPECT(grown != slice, "a slice grew in place over its neighbours");
    EXPECT(counts_up(all, n), "growing a slice changed the allocation it lies in");
    bool kept = true, cleared = true;
    for (uint32_t i = 0; i < n / 4; i++)
        kept &= grown[i] == n / 2 + i;
    for (uint32_t i = n / 4; i < n; i++)
        cleared &= grown[i] == 0;
    EXPECT(kept && cleared, "the grown slice kept %d, cleared %d", kept, cleared);
    arena_free(a);
}

/* arena_grow of a large allocation copies it and leaves the old bytes readable
 * (passes read a gate they looked up before adding one) */
static void test_grow_keeps_old_copy(void)
{
    Arena *a = arena_new();
    uint32_t n = 64 * 1024;
    uint32_t *old = counting(a, n);
    uint32_t *grown = arena_grow(a, old, (size_t)n * 4, (size_t)n * 8);
    EXPECT(grown != old && counts_up(old, n) && counts_up(grown, n), "arena_grow lost the old copy");
    arena_free(a);
}

/* releasing the last small allocation gives its room back to the next one */
static void test_release_last_small(void)
{
    Arena *a = arena_new();
    void *first = arena_alloc(a, 100);
    void *last = arena_alloc(a, 200);
    arena_release(a, last, 200);
    void *next = arena_alloc(a, 200);
    EXPECT(next == last, "the released room was not reused");
    arena_release(a, first, 100); /* not the last: stays, nothing breaks */
    EXPECT(arena_alloc(a, 16) != first, "a non-last release handed its room out again");
    arena_free(a);
}

/* a released small allocation that is not the last serves the next request of its
 * size, not of another; a slice not 16-byte aligned is not kept */
static void test_release_small_reused(void)
{
    Arena *a = arena_new();
    uint32_t *x = counting(a, 100), *y = counting(a, 100);
    arena_release(a, x, 400);
    EXPECT(arena_alloc(a, 16) != (void *)x, "a release of 400 bytes served 16");
    void *again = arena_alloc_raw(a, 400);
    EXPECT(again == x, "the released 400 bytes were not handed out for 400");
    EXPECT(counts_up(y, 100), "the allocation beside it changed");
    char *z = arena_alloc(a, 64);
    arena_alloc(a, 16);
    arena_release(a, z + 8, 48);
    EXPECT(arena_alloc_raw(a, 48) != z + 8, "a slice off 16-byte alignment was handed out");
    arena_free(a);
}

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* 2,000 small arrays of random lengths, each resized by doubling in its turn with
 * another allocation made at every step (so none grows in place): each move leaves
 * its old copy behind unless it is kept for the next array growing to that size.
 * The copies would add up to about what the arrays hold; kept, the arena holds well
 * under one and a half times that */
static void test_small_doubling_recycled(void)
{
    enum { N = 2000, MAXLEN = 1024 };
    Arena *a = arena_new();
    uint64_t s = 5;
    size_t live = 0, other = 0;
    bool ok = true;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t want = 1 + rnd(&s) % MAXLEN, cap = 0, *v = NULL;
        for (uint32_t len = 0; len < want; len++) {
            if (len == cap) {
                uint32_t ncap = cap ? 2 * cap : 4;
                v = arena_resize(a, v, cap * 4, ncap * 4);
                cap = ncap;
                arena_alloc(a, 16);
                other += 16;
            }
            v[len] = len + i;
        }
        for (uint32_t k = 0; k < want; k++)
            ok &= v[k] == k + i;
        live += cap * 4;
    }
    EXPECT(ok, "an array lost its contents");
    live += other;
    EXPECT(arena_bytes(a) < live + live / 2, "the arena holds %zu bytes for %zu", arena_bytes(a), live);
    arena_free(a);
}

int main(void)
{
    test_release_small_reused();
    test_small_doubling_recycled();
    test_doubling_keeps_no_copies();
    test_slice_grows_by_copy();
    test_grow_keeps_old_copy();
    test_release_last_small();
    if (failures)
        return 1;
    puts("arena: ok");
    return 0;
}
