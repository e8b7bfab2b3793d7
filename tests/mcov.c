/* mcov.c — machine-level coverage (compiler/lir/mcov.h, fuzz/mcov_table.h): a
 * bit-test branch and a compare with 4096 count the idiom and the ARM64 tbz/tbnz
 * and shifted-imm12 paths, x86-64's imm32 (test has no imm8 form); counting changes no
 * byte of the code; the forms counted add up to the instructions encoded; a table
 * over generated programs hits most items and sums by key; items marked as no IR
 * reaching them are counted apart, and one that is hit is reported; the
 * register-pressure knobs, the pressure stage's CPU level and the local stage's
 * slot_operands and the branch reach are a function of the program, within their
 * ranges, and vary; a short branch reach makes ARM64 take long branch forms; an ARM64
 * constant of one instruction counts its own path. */
#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/check_stage.h"
#include "fuzz/gen.h"
#include "fuzz/mcov_table.h"

#include <stdlib.h>
#include <string.h>

static const char src[] =
    "func @f(i64, i64) -> i64 {\n"
    "  %x   = ARG i64 0\n"
    "  %y   = ARG i64 1\n"
    "  %k8  = CONSTANT i64 8\n"
    "  %z   = CONSTANT i64 0\n"
    "  %big = CONSTANT i64 4096\n"
    "  %a   = AND i64 (%x, %k8)\n"
    "  %t   = ICMP ne (%a, %z)\n"
    "  %br  = IF_BRANCH [entry] (%t)\n"
    "  %yes = IF_TRUE [%br]\n"
    "  %no  = IF_FALSE [%br]\n"
    "  %c   = ICMP ult (%y, %big)\n"
    "  %br2 = IF_BRANCH [%no] (%c)\n"
    "  %y2  = IF_TRUE [%br2]\n"
    "  %n2  = IF_FALSE [%br2]\n"
    "  %m   = MERGE [%yes, %y2, %n2]\n"
    "  %r   = VALUE_SELECTOR i64 [%m] (%x, %y, %z)\n"
    "  RETURN [%m] {entry} (%r)\n"
    "}\n";

static int failures;
#define EXPECT(c, ...) do { if (!(c)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                                        printf(__VA_ARGS__); printf("\n"); } } while (0)

static bool compile_counted(const Module *m, const Target *t, MachCov *cov, CodeBlob *blob, Arena *arena,
                            uint32_t branch_reach)
{
    Diag d;
    diag_init(&d, "mcov", stderr);
    CompileOptions co = {.opt_level = 2, .cov = cov, .branch_reach = branch_reach};
    return compile_module(m, t, &co, arena, blob, NULL, &d);
}

static uint32_t sum(const uint32_t *v, unsigned n)
{
    uint32_t s = 0;
    for (unsigned i = 0; i < n; i++)
        s += v[i];
    return s;
}

static uint32_t path(const Target *t, const MachCov *c, const char *name)
{
    for (unsigned i = 0; i < t->ncov; i++)
        if (!strcmp(t->cov_names[i], name))
            return c->items[i];
    printf("no path named '%s' on %s\n", name, t->name);
    failures++;
    return 0;
}

/* a branch reach of 8 bytes: ARM64's conditional branches (b.cond, cbz, tbz) to
 * blocks further away take the long form, which is longer code than plain's;
 * x86-64 (rel32 branches only) is unchanged */
static void check_long_branches(const Module *m, const Target *t, const CodeBlob *plain, Arena *arena)
{
    MachCov *cov = calloc(1, sizeof *cov);
    CodeBlob near;
    EXPECT(cov && compile_counted(m, t, cov, &near, arena, 8), "%s: compiles with a branch reach of 8", t->name);
    if (cov && t->isa == ISA_A64) {
        EXPECT(path(t, cov, "conditional branch out of range: inverted over a b") >= 1, "arm64: long forms taken");
        EXPECT(near.size > plain->size, "arm64: long forms are longer (%u vs %u)", near.size, plain->size);
    } else {
        EXPECT(plain->size == near.size && !memcmp(plain->code, near.code, near.size), "x86-64: the same code");
    }
    free(cov);
}

/* an ARM64 constant of one instruction counts its own path: movz, movn or orr of a
 * logical immediate, and none of the others */
static void check_constant_paths(const Target *t)
{
    static const struct { const char *lit, *path; } k[] = {
        {"305397760", "constant by one movz"}, /* 0x12340000 */
        {"-4661", "constant by one movn"},     /* ~0x1234 */
        {"6148914691236517205", "constant by one orr of a logical immediate"}, /* 0x5555... */
    };
    static const char *const paths[] = {"constant by one movz", "constant by one movn",
                                        "constant by one orr of a logical immediate",
                                        "constant in two instructions"};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "func @k() -> i64 {\n  %%c = CONSTANT i64 %s\n  RETURN [entry] {entry} (%%c)\n}\n",
                 k[i].lit);
        Diag d;
        diag_init(&d, "mcov", stderr);
        Module *m = parse_module("mcov", text, strlen(text), &d);
        MachCov *cov = calloc(1, sizeof *cov);
        Arena *arena = arena_new();
        CodeBlob blob;
        EXPECT(m && cov && compile_counted(m, t, cov, &blob, arena, 0), "arm64: %s compiles", k[i].lit);
        for (size_t j = 0; m && cov && j < sizeof paths / sizeof paths[0]; j++)
            EXPECT(path(t, cov, paths[j]) == !strcmp(paths[j], k[i].path), "arm64: %s counts '%s' %u times",
                   k[i].lit, paths[j], path(t, cov, paths[j]));
        arena_free(arena);
        free(cov);
        if (m)
            module_free(m);
    }
}

/* the counts of one target; the code the same as without counting */
static void check_target(const Module *m, const Target *t)
{
    MachCov *cov = calloc(1, sizeof *cov);
    Arena *arena = arena_new();
    CodeBlob plain, counted;
    EXPECT(cov && compile_counted(m, t, NULL, &plain, arena, 0) && compile_counted(m, t, cov, &counted, arena, 0),
           "%s: compiles", t->name);
    EXPECT(plain.size == counted.size && !memcmp(plain.code, counted.code, plain.size),
           "%s: counting changes no byte", t->name);
    EXPECT(cov->idioms[MCOV_BIT_TEST_BRANCH] == 1, "%s: one bit-test branch, got %u", t->name,
           cov->idioms[MCOV_BIT_TEST_BRANCH]);
    EXPECT(cov->idioms[MCOV_CMP_IMM_BRANCH] == 1, "%s: one compare-immediate branch", t->name);
    EXPECT(sum(cov->forms, MCOV_MAX_FORMS) >= 5, "%s: forms counted (%u)", t->name,
           sum(cov->forms, MCOV_MAX_FORMS));
    if (t->isa == ISA_A64) {
        check_constant_paths(t);
        EXPECT(path(t, cov, "tbz") + path(t, cov, "tbnz") == 1, "arm64: tbz or tbnz once");
        EXPECT(path(t, cov, "cmp imm12, lsl #12") == 1, "arm64: cmp #1, lsl #12 once");
    } else {
        EXPECT(path(t, cov, "imm32") >= 2, "x86-64: test with 8 and cmp with 4096 take imm32");
        EXPECT(path(t, cov, "imm8 sign-extended (83, 6b, c1)") == 0, "x86-64: no imm8");
    }
    check_long_branches(m, t, &plain, arena);
    arena_free(arena);
    free(cov);
}

/* the generated program of seed (with run lines if runs) */
static Module *generated(uint64_t seed, uint32_t size, bool runs)
{
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    if (!bytes)
        abort();
    gen_seed_bytes(seed, bytes, len);
    Module *m = generate(bytes, len, NULL);
    if (runs)
        gen_add_runlines(m, bytes, len, 3, NULL, NULL);
    free(bytes);
    return m;
}

/* 40 generated programs at -O0 and -O2 on every target: most items hit; the sum of
 * two tables is twice one */
static void check_table(void)
{
    MachCovTable *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    if (!a || !b)
        abort();
    for (uint64_t seed = 0; seed < 40; seed++) {
        Module *m = generated(seed, 100, false);
        EXPECT(mcov_table_count_module(a, m), "seed %llu compiles", (unsigned long long)seed);
        module_free(m);
    }
    McovTotals n = mcov_table_unhit(a, NULL);
    printf("40 programs: %u of %u items hit, %u slots\n", n.hit, n.items, a->nslots);
    EXPECT(n.items > 1000 && n.hit * 4 > n.items, "a quarter of the items hit");
    EXPECT(a->nslots == 6, "x86-64 baseline and v3, arm64, each at -O0 and -O2: %u slots", a->nslots);
    mcov_table_add(b, a);
    mcov_table_add(b, a);
    EXPECT(b->nslots == a->nslots && b->slot[0].cov.forms[0] == 2 * a->slot[0].cov.forms[0],
           "tables add up by key");
    EXPECT(mcov_table_slot(b, target_at(0), 2, "regs") == &b->slot[6].cov, "a variant has its own slot");
    free(a);
    free(b);
}

/* the index of x86-64's form named text ("Add8 Tmp,Tmp") in a printed table, -1 */
static int form_row(const char *table, const char *text)
{
    const char *line = table;
    int row = 0;
    while ((line = strstr(line, "\nform ")) != NULL) {
        line++;
        const char *end = strchr(line, '\n');
        size_t n = strlen(text);
        if (end && (size_t)(end - line) > n && !strncmp(end - n, text, n))
            return row;
        row++;
    }
    return -1;
}

/* items marked as no IR reaching them: counted apart, listed with their reason; a
 * marked item that a compile hit is counted and listed as a mark to correct */
static void check_unreached(void)
{
    MachCovTable *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    const Target *x64 = target_for_isa(ISA_X64);
    MachCov *cov = mcov_table_slot(t, x64, 2, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mcov_table_print(f, t);
    fclose(f);
    McovTotals n = mcov_table_unhit(t, NULL);
    EXPECT(n.hit == 0 && n.unreached > 50 && n.unreached < n.items && n.marked_hit == 0,
           "nothing hit: %u of %u marked unreachable", n.unreached, n.items);
    EXPECT(strstr(buf, "x86-64 form  Add8 Tmp,Tmp  -- selection computes 8- and 16-bit") != NULL,
           "a marked item is listed with its reason");
    int row = form_row(buf, "Add8 Tmp,Tmp");
    EXPECT(row >= 0, "Add8 Tmp,Tmp is a row of the x86-64 table");
    if (row >= 0)
        cov->forms[row] = 1;
    McovTotals m = mcov_table_unhit(t, NULL);
    EXPECT(m.marked_hit == 1 && m.unreached == n.unreached - 1, "a hit marked item: %u", m.marked_hit);
    free(buf);
    f = open_memstream(&buf, &len);
    mcov_table_print(f, t);
    fclose(f);
    EXPECT(strstr(buf, "# marked unreachable by IR but hit (a mark to correct): 1\n  x86-64 form  Add8 Tmp,Tmp") != NULL,
           "listed as a mark to correct");
    free(buf);
    free(t);
}

/* the pressure knobs: deterministic, in range, varied */
static void check_pressure(void)
{
    bool seen_gp[8] = {0}, seen_level[2] = {0}, seen_slots[2] = {0}, seen_reach[2] = {0};
    for (uint64_t seed = 0; seed < 60; seed++) {
        Module *m = generated(seed, 60, true);
        RegallocOptions r1 = check_pressure_options(m), r2 = check_pressure_options(m);
        EXPECT(!memcmp(&r1, &r2, sizeof r1), "the knobs are a function of the program");
        EXPECT(r1.max_regs[BANK_GP] >= 3 && r1.max_regs[BANK_GP] <= 6 && r1.max_regs[BANK_FP] >= 2 &&
                   r1.max_regs[BANK_FP] <= 4 && r1.spill < RA_SPILL_COUNT,
               "knobs in range");
        seen_gp[r1.max_regs[BANK_GP]] = true;
        const Target *x64 = target_for_isa(ISA_X64);
        seen_level[check_pressure_level(m, x64)->level & 1] = true;
        seen_slots[check_local_options(m).slot_operands] = true;
        uint32_t reach = check_branch_reach(m);
        EXPECT(reach == check_branch_reach(m) && (reach == 0 || (reach >= 8 && reach <= 1024)),
               "the branch reach is a function of the program, 0 or 8 to 1024");
        seen_reach[reach != 0] = true;
        EXPECT(check_pressure_level(m, x64) == check_pressure_level(m, x64), "the level is a function of the program");
        CheckOptions o = {.pressure_every = 2};
        EXPECT(check_pressure_sampled(m, &o, ISA_X64) != check_pressure_sampled(m, &o, ISA_A64),
               "every other program, a different half per ISA");
        module_free(m);
    }
    EXPECT(seen_gp[3] && seen_gp[6], "the register counts vary over programs");
    EXPECT(seen_level[0] && seen_level[1], "the pressure stage's CPU level varies over programs");
    EXPECT(seen_slots[0] && seen_slots[1], "the local stage's slot_operands varies over programs");
    EXPECT(seen_reach[0] && seen_reach[1], "the branch reach varies over programs");
}

int main(void)
{
    Diag d;
    diag_init(&d, "mcov", stderr);
    Module *m = parse_module("mcov", src, strlen(src), &d);
    if (!m)
        return 1;
    for (unsigned i = 0; i < target_count(); i++) {
        check_target(m, target_at(i));
    }
    module_free(m);
    check_table();
    check_unreached();
    check_pressure();
    if (failures)
        printf("%d failures\n", failures);
    else
        printf("ok\n");
    return failures != 0;
}
