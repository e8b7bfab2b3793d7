/* emu_random.c — random bytes as code, on both ISAs: every run ends in an outcome
 * (never a crash or a hang), never OUT_INVALID, and the same blob run twice gives
 * the same outcome, steps and heap (the engine is fully reset between runs).  The
 * seed is fixed.  On x86-64 the bytes avoid the two encoding families that abort
 * Unicorn 2.0.1 in-process (a lock prefix, F0, and FF /3 or /5 with a register
 * operand); those are covered by the isolation test in emu_x64.c. */
#include "tests/emu_util.h"

enum { BLOBS = 400 };

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static bool kills_unicorn(Isa isa, const Asm *a, uint8_t b)
{
    if (isa != ISA_X64)
        return false;
    if (b == 0xF0)
        return true;
    unsigned reg = (b >> 3) & 7u;
    return a->size && a->code[a->size - 1] == 0xFF && (b & 0xC0) == 0xC0 && (reg == 3 || reg == 5);
}

static void random_blob(Asm *a, Isa isa, uint64_t *seed)
{
    asm_init(a, isa);
    asm_func(a);
    unsigned len = 4 * (4 + (unsigned)(next(seed) % 64));
    while (a->size < len) {
        uint8_t b = (uint8_t)next(seed);
        while (kills_unicorn(isa, a, b))
            b = (uint8_t)next(seed);
        asm_put(a, &b, 1);
    }
    /* a trap site or two, so some traps map to a kind */
    for (unsigned k = 0; k < 2; k++) {
        a->traps[a->ntraps].offset = (uint32_t)(next(seed) % a->size);
        a->traps[a->ntraps++].kind = TRAP_DIV0;
    }
}

static void run_isa(Tally *t, Isa isa)
{
    static Asm a;
    static Outcome o1, o2;
    int kinds[5] = {0, 0, 0, 0, 0}, unstable = 0, invalid = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ull ^ (uint64_t)isa;
    Emu *e = emu_new(isa);
    if (!e) {
        t->checks++, t->failures++;
        fprintf(stderr, "FAIL emu_new\n");
        return;
    }
    emu_set_wall_timeout(e, 5000000, false);
    const Type ty[4] = {TY_I64, TY_I64, TY_F64, TY_I32};
    const uint64_t args[4] = {HEAP_ADDR, 7, 0x3ff0000000000000ull, 0xFFFFFFFF};
    for (int i = 0; i < BLOBS; i++) {
        random_blob(&a, isa, &seed);
        CodeBlob b = asm_blob(&a);
        if (!emu_load(e, &b)) {
            invalid++;
            continue;
        }
        emu_call(e, 0, ty, 4, args, TY_I64, 2000, &o1);
        emu_call(e, 0, ty, 4, args, TY_I64, 2000, &o2);
        kinds[o1.kind]++;
        invalid += o1.kind == OUT_INVALID;
        unstable += !outcome_equal(&o1, &o2, NULL, 0) || o1.steps != o2.steps ||
                    strcmp(o1.reason, o2.reason) != 0;
    }
    printf("%s: %d random blobs: %d return, %d trap, %d throw, %d timeout\n", emu_isa_name(isa), BLOBS,
           kinds[OUT_RETURN], kinds[OUT_TRAP], kinds[OUT_THROW], kinds[OUT_TIMEOUT]);
    t->checks += 2;
    if (invalid) {
        t->failures++;
        fprintf(stderr, "FAIL %s: %d random blobs gave no outcome\n", emu_isa_name(isa), invalid);
    }
    if (unstable) {
        t->failures++;
        fprintf(stderr, "FAIL %s: %d random blobs ran differently the second time\n", emu_isa_name(isa), unstable);
    }
    emu_free(e);
}

int main(void)
{
    Tally t = {0, 0};
    run_isa(&t, ISA_X64);
    run_isa(&t, ISA_A64);
    return report(&t, "emu_random");
}
