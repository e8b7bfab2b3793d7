/* cpu_levels.c — CPU levels of the targets (compiler/target.h, docs/porting.md):
 *   - the registry's levels: x86-64 baseline and v3, arm64 baseline only; unknown
 *     names are refused by the compiler's lookup and by the emulator;
 *   - code selected for a level uses that level's instructions and no others: the
 *     baseline's listing has bsr/bsf and no lzcnt tzcnt popcnt roundsd, v3's has
 *     those four and no bsr/bsf;
 *   - the emulated CPU of a level runs its code: popcnt runs on v3's CPU (the
 *     runner executes it; Unicorn 2.0.1 has it on no model) with popcnt's result
 *     for edge and random inputs, and traps as an illegal instruction on the
 *     baseline's CPU. */
#include "compiler/compile.h"
#include "compiler/target.h"
#include "oracle/emu.h"
#include "test_check.h"

#include <stdlib.h>
#include <string.h>

static const char source[] =
    "func @pop(i64) -> i64 {\n"
    "  %x = ARG i64 0\n"
    "  %p = POPCNT i64 (%x)\n"
    "  RETURN [entry] {entry} (%p)\n"
    "}\n"
    "func @pop32(i32) -> i32 {\n"
    "  %x = ARG i32 0\n"
    "  %p = POPCNT i32 (%x)\n"
    "  RETURN [entry] {entry} (%p)\n"
    "}\n"
    "func @bits(i64, f64) -> i64 {\n"
    "  %x = ARG i64 0\n"
    "  %f = ARG f64 1\n"
    "  %l = CLZ i64 (%x)\n"
    "  %t = CTZ i64 (%x)\n"
    "  %r = FLOOR f64 (%f)\n"
    "  %i = FPTOSI i64 (%r)\n"
    "  %s = ADD i64 (%l, %t)\n"
    "  %u = ADD i64 (%s, %i)\n"
    "  RETURN [entry] {entry} (%u)\n"
    "}\n";

static void check_registry(void)
{
    const Target *x = target_find("x86-64"), *a = target_find("arm64");
    CHECK(x && a, "both targets registered");
    if (!x || !a)
        return;
    const Target *v3 = target_level(x, "v3");
    CHECK(v3 && v3 != x && !strcmp(v3->cpu, "v3") && v3->isa == ISA_X64 && v3->features, "x86-64 v3");
    CHECK(target_level(x, "baseline") == x && target_level(v3, "baseline") == x, "baseline from either level");
    CHECK(!target_level(x, "v4") && !target_level(a, "v3") && target_level(a, "baseline") == a, "unknown levels");
    char names[64];
    CHECK(!strcmp(target_level_names(x, names, sizeof names, ", "), "baseline, v3"), "level names: %s", names);
    Emu *e = emu_new_cpu(ISA_X64, "v4");
    CHECK(!e && !emu_new_cpu(ISA_A64, "v3"), "the emulator refuses unknown levels");
    emu_free(e);
}

/* the blob of the module compiled for t at -O2 */
static bool compile_for(const Module *m, const Target *t, Arena *arena, CodeBlob *blob)
{
    Diag d;
    diag_init(&d, "cpu_levels", stderr);
    CompileOptions opt = {.opt_level = 2};
    bool ok = compile_module(m, t, &opt, arena, blob, NULL, &d);
    CHECK(ok, "compiles for %s %s", t->name, t->cpu);
    return ok;
}

/* the Capstone listing of t's code for m */
static char *listing_of(const Module *m, const Target *t)
{
    Arena *arena = arena_new();
    CodeBlob blob;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out && compile_for(m, t, arena, &blob))
        t->listing(out, &blob, NULL, NULL, NULL);
    if (out)
        fclose(out);
    arena_free(arena);
    return text;
}

static void check_selection(const Module *m)
{
    const Target *x = target_find("x86-64"), *v3 = target_level(x, "v3");
    static const char *const short_forms[] = {"lzcnt", "tzcnt", "popcnt", "roundsd"};
    char *base = listing_of(m, x), *high = listing_of(m, v3);
    for (size_t i = 0; base && high && i < sizeof short_forms / sizeof short_forms[0]; i++) {
        CHECK(!strstr(base, short_forms[i]), "baseline code has %s", short_forms[i]);
        CHECK(strstr(high, short_forms[i]), "v3 code lacks %s", short_forms[i]);
    }
    CHECK(base && strstr(base, "bsr") && strstr(base, "bsf"), "baseline code lacks bsr/bsf");
    CHECK(high && !strstr(high, "bsr") && !strstr(high, "bsf"), "v3 code still has bsr/bsf");
    free(base);
    free(high);
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* v3 code on the CPU model of cpu: popcnt's results, or an illegal-instruction trap */
static void check_runs(const Module *m, const char *cpu, bool runs)
{
    const Target *v3 = target_level(target_find("x86-64"), "v3");
    Arena *arena = arena_new();
    CodeBlob blob;
    Emu *e = emu_new_cpu(ISA_X64, cpu);
    CHECK(e != NULL, "an engine for %s", cpu);
    if (e && compile_for(m, v3, arena, &blob) && emu_load(e, &blob)) {
        uint64_t seed = 0x9e3779b97f4a7c15ull, edges[] = {0, 1, ~0ull, 1ull << 63, 0x8000000080000000ull, 0xff};
        Outcome *o = malloc(sizeof *o);
        for (int i = 0; o && i < 40; i++) {
            uint64_t x = i < 6 ? edges[i] : next_random(&seed);
            int f = i % 2;
            emu_call_func(e, m->funcs[f], &x, 0, o);
            uint64_t want = f ? (uint64_t)__builtin_popcount((uint32_t)x) : (uint64_t)__builtin_popcountll(x);
            if (runs)
                CHECK(o->kind == OUT_RETURN && o->bits == want, "%s: popcnt of 0x%llx gave kind %d bits %llu", cpu,
                      (unsigned long long)x, o->kind, (unsigned long long)o->bits);
            else
                CHECK(o->kind == OUT_TRAP && o->trap == TRAP_ILLEGAL, "%s: popcnt ran (kind %d)", cpu, o->kind);
        }
        free(o);
    }
    emu_free(e);
    arena_free(arena);
}

int main(void)
{
    check_registry();
    Diag d;
    diag_init(&d, "cpu_levels", stderr);
    Module *m = parse_module("cpu_levels", source, sizeof source - 1, &d);
    CHECK(m && !verify_module(m, &d), "the module parses and verifies");
    if (m) {
        check_selection(m);
        check_runs(m, "v3", true);
        check_runs(m, "baseline", false);
        module_free(m);
    }
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
