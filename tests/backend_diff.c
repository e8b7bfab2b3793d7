/* backend_diff.c — a backend (--target x86-64 or arm64, first) against the
 * reference interpreter, run under Unicorn.
 *   files FILE...        every `; run:` line of each file, compiled at -O0 and -O2,
 *                        run under Unicorn, must meet its expectation
 * In both modes the emulator's block budget is 4 blocks per interpreter step of
 * the same call, one per 8 bytes of ALLOCA, plus 20,000 (emu_budget_from: compiled
 * code may not be much slower than that).
 *   gen N [FIRST [SIZE]] N generated programs (seeds FIRST..FIRST+N-1): every run
 *                        line's target outcome at -O0 and -O2 equals the
 *                        interpreter's (outcome_equal: kind, trap kind, value bits,
 *                        harness buffer)
 * Options (before the mode): --max-regs G,F (allocate with few registers: spills),
 * --save DIR (write each failing generated program there), --swarm (generator
 * swarm mode: a random subset of features per program), --passes LIST (this pass
 * list instead of -O2's pipeline), --weights SPEC (generator feature weights, as
 * `circ gen --weights`), --quiet.
 * Exit 0 if everything matched, 1 otherwise. */
#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/gen.h"
#include "oracle/emu.h"
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const Target *target;
    Emu *emu;
    RegallocOptions ra;
    const char *save_dir;
    const char *passes; /* instead of -O2's pipeline */
    const char *weights; /* generator feature weights, "div0=200,..." */
    bool quiet, swarm;
    long programs, runs, failures, compile_failures;
    long kinds[5]; /* generated runs by the interpreter's OutcomeKind */
} Ctx;

static const int levels[] = {0, 2};

/* the emulator's block budget from the interpreter's steps for the same call (as
 * the differential checker sets it): compiled code may take a few blocks per gate */
static uint64_t block_budget(const Outcome *interp) { return emu_budget_from(interp, 4); }

/* compile m at level into a blob loaded in the emulator; false (reported) on failure */
static bool compile_and_load(Ctx *c, const Module *m, int level, Arena *arena, const char *what)
{
    CompileOptions opt = {.opt_level = level, .regalloc = c->ra};
    if (level && c->passes)
        opt.passes = c->passes;
    Diag d;
    diag_init(&d, m->file, stderr);
    CodeBlob blob;
    if (!compile_module(m, c->target, &opt, arena, &blob, NULL, &d)) {
        fprintf(stderr, "%s: -O%d: compile failed\n", what, level);
        c->compile_failures++;
        return false;
    }
    if (!emu_load(c->emu, &blob)) {
        fprintf(stderr, "%s: -O%d: load failed: %s\n", what, level, emu_error(c->emu));
        c->compile_failures++;
        return false;
    }
    return true;
}

static void run_files(Ctx *c, int argc, char **argv)
{
    Outcome *o = malloc(sizeof *o);
    for (int i = 0; i < argc; i++) {
        Diag d;
        diag_init(&d, argv[i], stderr);
        Module *m = parse_file(argv[i], &d);
        if (!m || verify_module(m, &d)) {
            fprintf(stderr, "%s: invalid\n", argv[i]);
            c->failures++;
            module_free(m);
            continue;
        }
        c->programs++;
        for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
            Arena *arena = arena_new();
            if (!compile_and_load(c, m, levels[k], arena, argv[i])) {
                c->failures++;
                arena_free(arena);
                continue;
            }
            Interp *in = interp_new(m, NULL);
            for (uint32_t r = 0; r < m->nruns; r++) {
                uint64_t args[256] = {0};
                runline_args(&m->runs[r], args);
                interp_call(in, m->runs[r].func, args, o);
                emu_call_func(c->emu, m->funcs[m->runs[r].func], args, block_budget(o), o);
                c->runs++;
                if (!outcome_matches(o, &m->runs[r].expect)) {
                    char got[300];
                    outcome_format(got, sizeof got, o);
                    fprintf(stderr, "%s:%u: -O%d: got %s\n", argv[i], m->runs[r].line, levels[k], got);
                    c->failures++;
                }
            }
            interp_free(in);
            arena_free(arena);
        }
        module_free(m);
    }
    free(o);
}

static void save_program(Ctx *c, const Module *m, uint64_t seed)
{
    if (!c->save_dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/seed%llu.circ", c->save_dir, (unsigned long long)seed);
    FILE *f = fopen(path, "w");
    if (f) {
        print_module(f, m);
        fclose(f);
    }
}

/* one generated program: every run line at every level against the interpreter */
static void check_seed(Ctx *c, uint64_t seed, uint32_t size, Outcome *want, Outcome *got)
{
    GenOptions gopt = {.size = size, .swarm = c->swarm};
    if (c->weights) {
        gen_default_weights(gopt.weight);
        gopt.has_weights = gen_parse_weights(c->weights, gopt.weight);
    }
    size_t len = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(len);
    gen_seed_bytes(seed, bytes, len);
    Module *m = generate(bytes, len, &gopt);
    gen_add_runlines(m, bytes, len, 3, NULL, NULL);
    free(bytes);
    c->programs++;
    char what[64];
    snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
    Interp *in = interp_new(m, NULL);
    bool failed = false;
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
        Arena *arena = arena_new();
        if (!compile_and_load(c, m, levels[k], arena, what)) {
            failed = true;
            arena_free(arena);
            continue;
        }
        for (uint32_t r = 0; r < m->nruns; r++) {
            uint64_t args[256] = {0};
            runline_args(&m->runs[r], args);
            interp_call(in, m->runs[r].func, args, want);
            c->kinds[want->kind % 5]++;
            emu_call_func(c->emu, m->funcs[m->runs[r].func], args, block_budget(want), got);
            c->runs++;
            char why[300];
            if (!outcome_equal(want, got, why, sizeof why)) {
                if (!c->quiet)
                    fprintf(stderr, "%s: run line %u: -O%d: %s\n", what, r, levels[k], why);
                failed = true;
            }
        }
        arena_free(arena);
    }
    if (failed) {
        c->failures++;
        save_program(c, m, seed);
    }
    interp_free(in);
    module_free(m);
}

static void run_gen(Ctx *c, uint64_t n, uint64_t first, uint32_t size)
{
    Outcome *want = malloc(sizeof *want), *got = malloc(sizeof *got);
    for (uint64_t s = first; s < first + n; s++)
        check_seed(c, s, size, want, got);
    free(want);
    free(got);
}

/* the target named by `--target NAME` at argv[1..2], or NULL */
static const Target *parse_target(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "--target"))
        return NULL;
    return target_find(argv[2]);
}

int main(int argc, char **argv)
{
    Ctx c = {.target = parse_target(argc, argv)};
    int i = 3;
    for (; i < argc && argv[i][0] == '-'; i++) {
        unsigned gp, fp;
        if (!strcmp(argv[i], "--max-regs") && i + 1 < argc && sscanf(argv[i + 1], "%u,%u", &gp, &fp) == 2) {
            c.ra.max_regs[BANK_GP] = (uint8_t)gp;
            c.ra.max_regs[BANK_FP] = (uint8_t)fp;
            i++;
        } else if (!strcmp(argv[i], "--save") && i + 1 < argc) {
            c.save_dir = argv[++i];
        } else if (!strcmp(argv[i], "--passes") && i + 1 < argc) {
            c.passes = argv[++i];
        } else if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
            c.weights = argv[++i];
        } else if (!strcmp(argv[i], "--swarm")) {
            c.swarm = true;
        } else if (!strcmp(argv[i], "--quiet")) {
            c.quiet = true;
        } else {
            break;
        }
    }
    if (!c.target || i >= argc || (strcmp(argv[i], "files") && strcmp(argv[i], "gen"))) {
        fprintf(stderr, "usage: %s --target x86-64|arm64 [--max-regs G,F] [--save DIR] [--swarm] [--passes LIST] [--weights SPEC] [--quiet] files FILE... | gen N [FIRST [SIZE]]\n", argv[0]);
        return 2;
    }
    if (!(c.emu = emu_new(c.target->isa))) {
        fprintf(stderr, "cannot create the %s emulator\n", c.target->name);
        return 2;
    }
    if (!strcmp(argv[i], "files")) {
        run_files(&c, argc - i - 1, argv + i + 1);
    } else {
        uint64_t n = i + 1 < argc ? strtoull(argv[i + 1], NULL, 0) : 100;
        uint64_t first = i + 2 < argc ? strtoull(argv[i + 2], NULL, 0) : 1;
        uint32_t size = i + 3 < argc ? (uint32_t)strtoul(argv[i + 3], NULL, 0) : 0;
        run_gen(&c, n, first, size);
    }
    emu_free(c.emu);
    printf("%ld programs, %ld runs %s, %ld failures (%ld compile failures)\n", c.programs, c.runs, c.target->name,
           c.failures, c.compile_failures);
    if (c.kinds[OUT_RETURN] + c.kinds[OUT_TRAP] + c.kinds[OUT_THROW])
        printf("expected outcomes: %ld return, %ld trap, %ld throw\n", c.kinds[OUT_RETURN], c.kinds[OUT_TRAP],
               c.kinds[OUT_THROW]);
    return c.failures || c.compile_failures ? 1 : 0;
}
