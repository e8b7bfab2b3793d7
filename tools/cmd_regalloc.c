/* cmd_regalloc.c — `circ regalloc`: register- and stack-allocate the codes of a LIR
 * text file (compiler/lir/regalloc.h) and print the result with its frame. */
#include "compiler/lir/regalloc.h"
#include "compiler/target.h"
#include "driver.h"

#include <stdlib.h>
#include <string.h>

static const char regalloc_usage[] =
    "usage: circ regalloc FILE [--gp N] [--fp N] [--spill furthest|current|density]\n"
    "                          [--no-coalesce] [--no-fold] [--no-share] [--local] [--quiet]\n"
    "Allocate registers and stack slots of every code of a LIR text file (the syntax\n"
    "of `circ lir`) with the linear-scan allocator, and print the allocated code\n"
    "followed by its frame (size, outgoing argument area, callee-saved registers).\n"
    "  --local         the local allocator instead (a slot per tmp, registers per\n"
    "                  instruction; the options above do not apply)\n"
    "  --gp N, --fp N  at most N allocatable registers of the bank (default all)\n"
    "  --spill H       spill heuristic: furthest next use (default), current\n"
    "                  interval first, or lowest use density\n"
    "  --no-coalesce   no move hints;  --no-fold  no spilled operand in memory\n"
    "  --no-share      one spill slot per spilled tmp\n"
    "  --quiet         print nothing, only the exit status\n"
    "Exit 0 if every code was allocated, 1 if the file is invalid or allocation\n"
    "failed, 2 on usage or I/O errors.\n";

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    bool failed = ferror(f) || !buf;
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static void print_frame(const Code *c)
{
    const LirFrame *f = &c->frame;
    printf("; frame: size %u, outgoing arguments %u", f->size, f->callarg_size);
    for (unsigned b = 0; b < BANK_COUNT; b++)
        for (unsigned r = 0; r < LIR_MAX_REGS; r++)
            if ((f->saved[b] >> r) & 1) {
                char buf[32];
                printf(", saves %s at %d", lir_tmp_name(c, tmp_reg((Bank)b, r), buf, sizeof buf),
                       f->save_offset[b][r]);
            }
    printf("\n");
}

static bool parse_count(const char *s, uint8_t *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v < 1 || v > LIR_MAX_REGS)
        return false;
    *out = (uint8_t)v;
    return true;
}

static bool parse_spill(const char *s, uint8_t *out)
{
    static const char *const names[RA_SPILL_COUNT] = { "furthest", "current", "density" };
    for (unsigned i = 0; i < RA_SPILL_COUNT; i++)
        if (!strcmp(s, names[i])) {
            *out = (uint8_t)i;
            return true;
        }
    return false;
}

typedef struct {
    const char *path;
    bool quiet, local;
} RegallocArgs;

static bool parse_args(int argc, char **argv, RegallocOptions *opt, RegallocArgs *ra)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--gp") && has_value) {
            if (!parse_count(argv[++i], &opt->max_regs[BANK_GP]))
                return false;
        } else if (!strcmp(a, "--fp") && has_value) {
            if (!parse_count(argv[++i], &opt->max_regs[BANK_FP]))
                return false;
        } else if (!strcmp(a, "--spill") && has_value) {
            if (!parse_spill(argv[++i], &opt->spill))
                return false;
        } else if (!strcmp(a, "--no-coalesce")) {
            opt->no_coalesce = true;
        } else if (!strcmp(a, "--no-fold")) {
            opt->no_fold = true;
        } else if (!strcmp(a, "--no-share")) {
            opt->no_share_slots = true;
        } else if (!strcmp(a, "--quiet")) {
            ra->quiet = true;
        } else if (!strcmp(a, "--local")) {
            ra->local = true;
        } else if (a[0] == '-' || ra->path) {
            return false;
        } else {
            ra->path = a;
        }
    }
    return ra->path != NULL;
}

/* one code allocated as asked; the result verifies, forms included */
static bool allocate(Code *code, const RegallocOptions *opt, bool local, char *err, size_t errlen)
{
    if (!local)
        return lir_allocate(code, opt, err, errlen);
    if (!lir_allocate_local(code, NULL, err, errlen))
        return false;
    int problems = lir_verify(code, stderr);
    if (problems)
        snprintf(err, errlen, "the allocated @%s does not verify (%d problems)", code->name, problems);
    return problems == 0;
}

int cmd_regalloc(int argc, char **argv)
{
    if (wants_help(argc, argv, regalloc_usage))
        return EXIT_OK;
    RegallocOptions opt = { 0 };
    RegallocArgs ra = { 0 };
    if (!parse_args(argc, argv, &opt, &ra)) {
        fputs(regalloc_usage, stderr);
        return EXIT_USAGE;
    }
    const char *path = ra.path;
    size_t len = 0;
    char *src = slurp(path, &len);
    if (!src) {
        fprintf(stderr, "%s: error: cannot read the file\n", path);
        return EXIT_USAGE;
    }
    Arena *arena = arena_new();
    const Target *targets[TARGET_MAX];
    unsigned ntargets = target_list(targets, TARGET_MAX);
    Diag d;
    diag_init(&d, path, stderr);
    LirModule m;
    int status = lir_parse(arena, src, len, targets, ntargets, &d, &m) ? EXIT_OK : EXIT_FAIL;
    for (uint32_t i = 0; status == EXIT_OK && i < m.ncodes; i++) {
        char err[256] = "";
        if (!m.codes[i]->target) {
            fprintf(stderr, "%s: error: @%s has no target\n", path, m.codes[i]->name);
            status = EXIT_FAIL;
        } else if (!allocate(m.codes[i], &opt, ra.local, err, sizeof err)) {
            fprintf(stderr, "%s: error: %s\n", path, err);
            status = EXIT_FAIL;
        } else if (!ra.quiet) {
            lir_print(stdout, m.codes[i]);
            print_frame(m.codes[i]);
        }
    }
    arena_free(arena);
    free(src);
    return status;
}
