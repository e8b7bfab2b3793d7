/* emu_util.h — shared pieces of the Unicorn runner tests (tests/emu_x64.c,
 * tests/emu_a64.c): a byte buffer that collects hand-assembled functions,
 * relocations and trap sites into a CodeBlob, a Capstone listing check that proves
 * each hand-assembled sequence is the instruction sequence it claims to be, and
 * outcome assertions (EMU_VERBOSE=1 in the environment prints every one). */
#ifndef CIRC_TEST_EMU_UTIL_H
#define CIRC_TEST_EMU_UTIL_H

#include <capstone/capstone.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/emu.h"

typedef struct {
    Isa isa;
    uint8_t code[65536];
    uint32_t size;
    uint32_t entry[64];
    uint32_t insn_end[64]; /* where function i's data (literal pool) starts; 0: none */
    uint32_t nfuncs;
    Reloc relocs[64];
    uint32_t nrelocs;
    TrapSite traps[64];
    uint32_t ntraps;
} Asm;

typedef struct {
    int failures;
    int checks;
} Tally;

static inline void asm_init(Asm *a, Isa isa)
{
    memset(a, 0, sizeof *a);
    a->isa = isa;
}

static inline void asm_put(Asm *a, const uint8_t *b, size_t n)
{
    if (a->size + n > sizeof a->code) {
        fprintf(stderr, "test code buffer overflow\n");
        exit(2);
    }
    memcpy(a->code + a->size, b, n);
    a->size += (uint32_t)n;
}

#define X86(a, ...) asm_put(a, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}))

static inline void asm_u32(Asm *a, uint32_t w)
{
    uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    asm_put(a, b, 4);
}

static inline void asm_u64(Asm *a, uint64_t v)
{
    asm_u32(a, (uint32_t)v);
    asm_u32(a, (uint32_t)(v >> 32));
}

/* the next function starts here; returns its index */
static inline uint32_t asm_func(Asm *a)
{
    if (a->nfuncs == sizeof a->entry / sizeof a->entry[0]) {
        fprintf(stderr, "too many test functions\n");
        exit(2);
    }
    a->entry[a->nfuncs] = a->size;
    return a->nfuncs++;
}

/* the next instruction is a trap site of this kind */
static inline void asm_trap(Asm *a, TrapKind k)
{
    if (a->ntraps == sizeof a->traps / sizeof a->traps[0]) {
        fprintf(stderr, "too many test trap sites\n");
        exit(2);
    }
    a->traps[a->ntraps].offset = a->size;
    a->traps[a->ntraps].kind = (uint8_t)k;
    a->ntraps++;
}

/* 8 bytes here become the absolute address of a function or helper (+ addend) */
static inline void asm_abs64(Asm *a, RelocTarget target, uint32_t index, int64_t addend)
{
    if (a->nrelocs == sizeof a->relocs / sizeof a->relocs[0]) {
        fprintf(stderr, "too many test relocations\n");
        exit(2);
    }
    Reloc *r = &a->relocs[a->nrelocs++];
    r->offset = a->size;
    r->kind = RELOC_ABS64;
    r->target = (uint8_t)target;
    r->index = index;
    r->addend = addend;
    asm_u64(a, 0);
}

/* the rest of the current function is data, not instructions */
static inline void asm_data(Asm *a)
{
    a->insn_end[a->nfuncs - 1] = a->size;
}

static inline CodeBlob asm_blob(Asm *a)
{
    CodeBlob b;
    memset(&b, 0, sizeof b);
    b.isa = a->isa;
    b.code = a->code;
    b.size = a->size;
    b.entry = a->entry;
    b.nfuncs = a->nfuncs;
    b.relocs = a->relocs;
    b.nrelocs = a->nrelocs;
    b.traps = a->traps;
    b.ntraps = a->ntraps;
    return b;
}

/* Capstone's listing of code[from, to) as "mnemonic operands; ...", addresses
 * relative to `from` */
static inline void listing(const Asm *a, uint32_t from, uint32_t to, char *buf, size_t n)
{
    csh h;
    cs_insn *insn;
    buf[0] = 0;
    if (cs_open(a->isa == ISA_X64 ? CS_ARCH_X86 : CS_ARCH_ARM64,
                a->isa == ISA_X64 ? CS_MODE_64 : CS_MODE_ARM, &h) != CS_ERR_OK) {
        snprintf(buf, n, "(capstone unavailable)");
        return;
    }
    size_t count = cs_disasm(h, a->code + from, to - from, 0, 0, &insn);
    size_t used = 0, covered = 0;
    for (size_t i = 0; i < count && used < n; i++) {
        used += (size_t)snprintf(buf + used, n - used, "%s%s%s%s", i ? "; " : "", insn[i].mnemonic,
                                 insn[i].op_str[0] ? " " : "", insn[i].op_str);
        covered += insn[i].size;
    }
    if (covered != to - from && used < n)
        snprintf(buf + used, n - used, "%s(undecodable bytes)", used ? "; " : "");
    cs_free(insn, count);
    cs_close(&h);
}

/* the bytes of function f (up to the next function or the end) decode as `want` */
static inline void check_listing(Tally *t, const Asm *a, uint32_t f, const char *want)
{
    char got[2048];
    uint32_t end = a->insn_end[f] ? a->insn_end[f] : f + 1 < a->nfuncs ? a->entry[f + 1] : a->size;
    listing(a, a->entry[f], end, got, sizeof got);
    t->checks++;
    if (strcmp(got, want) != 0) {
        t->failures++;
        fprintf(stderr, "FAIL listing of function %u:\n  got:  %s\n  want: %s\n", f, got, want);
    }
}

static inline void expect(Tally *t, bool ok, const char *what, const Outcome *o)
{
    t->checks++;
    if (getenv("EMU_VERBOSE")) {
        char s[300];
        outcome_format(s, sizeof s, o);
        printf("%-4s %s: %s [%s] steps %llu\n", ok ? "ok" : "FAIL", what, s, o->reason,
               (unsigned long long)o->steps);
    }
    if (!ok) {
        char s[300];
        outcome_format(s, sizeof s, o);
        t->failures++;
        fprintf(stderr, "FAIL %s: got %s (kind %u, bits 0x%llx, steps %llu) %s\n", what, s, o->kind,
                (unsigned long long)o->bits, (unsigned long long)o->steps, o->reason);
    }
}

static inline bool is_return(const Outcome *o, Type t, uint64_t bits)
{
    return o->kind == OUT_RETURN && o->type == t && o->bits == bits;
}

/* a harness pattern word (oracle/emu.h) has no zero byte */
static inline bool no_zero_byte(uint64_t v)
{
    for (int k = 0; k < 64; k += 8)
        if (((v >> k) & 0xFF) == 0)
            return false;
    return true;
}

static inline bool is_trap(const Outcome *o, TrapKind k)
{
    return o->kind == OUT_TRAP && o->trap == k;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline bool heap_is_pattern(const Outcome *o, uint32_t skip_from, uint32_t skip_to)
{
    uint8_t want[HEAP_SIZE];
    heap_fill_pattern(want);
    for (uint32_t i = 0; i < HEAP_SIZE; i++)
        if ((i < skip_from || i >= skip_to) && o->heap[i] != want[i])
            return false;
    return true;
}

static inline uint64_t heap_u64(const Outcome *o, uint32_t off)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = (v << 8) | o->heap[off + (uint32_t)k];
    return v;
}

static inline double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline Emu *load_or_die(Isa isa, Asm *a)
{
    Emu *e = emu_new(isa);
    if (!e) {
        fprintf(stderr, "FAIL emu_new(%s)\n", emu_isa_name(isa));
        exit(1);
    }
    CodeBlob b = asm_blob(a);
    if (!emu_load(e, &b)) {
        fprintf(stderr, "FAIL emu_load: %s\n", emu_error(e));
        exit(1);
    }
    return e;
}

static inline int report(const Tally *t, const char *name)
{
    printf("%s: %d checks, %d failures\n", name, t->checks, t->failures);
    return t->failures ? 1 : 0;
}

#endif
