/* emu_harness.c — the seeded patterns the Unicorn runner starts every run from (the
 * stack, registers that carry no argument, the bits above narrow arguments) and the
 * comparison of the caller's stack against them after a return (emu_harness.h). */
#include "oracle/emu_harness.h"

#include <string.h>

/* SplitMix64's finalizer: every input bit reaches every output bit */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* a zero byte becomes 0xA5: a value that reads as zero proves nothing */
static uint64_t no_zero_byte(uint64_t w)
{
    for (unsigned k = 0; k < 64; k += 8)
        if (((w >> k) & 0xFF) == 0)
            w |= 0xA5ull << k;
    return w;
}

uint64_t harness_seed(uint32_t func, const Type *types, uint32_t n, const uint64_t *args)
{
    uint64_t s = mix64(0xC1AC0DE5ull ^ func);
    for (uint32_t i = 0; i < n; i++)
        s = mix64(s ^ ((uint64_t)types[i] << 56) ^ mix64(args[i] & ty_mask(types[i])));
    return s ? s : 1;
}

uint64_t harness_word(const Harness *h, uint64_t key)
{
    return no_zero_byte(mix64(h->seed ^ mix64(key)));
}

uint64_t harness_word_high(const Harness *h, int reg)
{
    return harness_word(h, (1ull << 40) | (uint32_t)reg);
}

void harness_begin(Harness *h, uint64_t seed)
{
    h->seed = seed;
    for (unsigned k = 0; k < HARNESS_BLOCK_WORDS; k++)
        h->block[k] = harness_word(h, (2ull << 40) | k);
}

enum { BLOCK_BYTES = HARNESS_BLOCK_WORDS * 8 };

/* the first block word by word, then the filled part doubles: the pattern repeats
 * every BLOCK_BYTES, and every copy lands a multiple of BLOCK_BYTES further on */
void harness_fill(const Harness *h, uint8_t *mem, uint64_t addr, size_t n)
{
    size_t first = n < BLOCK_BYTES ? n : BLOCK_BYTES;
    for (size_t off = 0; off < first; off += 8)
        memcpy(mem + off, &h->block[((addr + off) % BLOCK_BYTES) / 8], 8);
    for (size_t have = first; have < n;) {
        size_t k = have < n - have ? have : n - have;
        memcpy(mem + have, mem, k);
        have += k;
    }
}

bool harness_stack_changed(const Harness *h, const uint8_t *mem, uint64_t addr, size_t n,
                           uint64_t *where, uint64_t *found, uint64_t *expected)
{
    for (size_t off = 0; off < n; off += 8) {
        uint64_t want = h->block[((addr + off) % BLOCK_BYTES) / 8], got;
        memcpy(&got, mem + off, 8);
        if (got != want) {
            *where = addr + off;
            *found = got;
            *expected = want;
            return true;
        }
    }
    return false;
}

uint64_t harness_flags(const Harness *h, const EmuIsa *d)
{
    return d->flags_fixed | (harness_word(h, (uint64_t)d->reg_flags) & d->flags_mask);
}
