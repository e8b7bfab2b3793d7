/* cmd_lir.c — `circ lir`: read LIR text (the syntax of LIR dumps), check it against
 * its target's forms table, print it back, or encode it and list the machine code. */
#include "compiler/target.h"
#include "driver.h"

#include <stdlib.h>
#include <string.h>

static const char lir_usage[] =
    "usage: circ lir FILE [--print] [-S | --hex]\n"
    "Read LIR text (what LIR dumps print: `code @f ; x86-64`, blocks `BB#0:`, one\n"
    "instruction a line such as `Add32 $1, %tmp0` or `Move (%rax,%rcx,8), %rdx`).\n"
    "Every instruction must have an overload and, for the code's target, a form;\n"
    "every block must end with its one terminator and have its successors.\n"
    "  --print  print the parsed code (parse -> print is stable)\n"
    "  -S       encode the module for its target ({TARGETS_OR}; registers and stack\n"
    "           slots assigned)\n"
    "           and print a Capstone listing with traps, relocations and gate marks\n"
    "  --hex    encode and print the code bytes in hex, one function a line\n"
    "Exit 0 if valid (and encodable), 1 if not, 2 on usage or I/O errors.\n";

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static void print_hex(const CodeBlob *blob, const LirModule *m)
{
    for (uint32_t f = 0; f < blob->nfuncs; f++) {
        uint32_t end = f + 1 < blob->nfuncs ? blob->entry[f + 1] : blob->size;
        printf("@%s:", m->codes[f]->name);
        for (uint32_t i = blob->entry[f]; i < end; i++)
            printf(" %02x", blob->code[i]);
        putchar('\n');
    }
}

static int encode(const LirModule *m, const char *path, bool listing, Arena *arena)
{
    const Target *t = m->ncodes ? m->codes[0]->target : target_at(0);
    if (!t) {
        fprintf(stderr, "%s: error: in @%s: the code names no target\n", path, m->codes[0]->name);
        return EXIT_FAIL;
    }
    for (uint32_t i = 0; i < m->ncodes; i++)
        if (m->codes[i]->target != t) {
            fprintf(stderr, "%s: error: in @%s: every code of a module must have one target\n", path,
                    m->codes[i]->name);
            return EXIT_FAIL;
        }
    CodeBlob blob;
    char err[256];
    if (!t->emit(arena, m->codes, m->ncodes, &blob, err, sizeof err)) {
        fprintf(stderr, "%s: error: %s\n", path, err);
        return EXIT_FAIL;
    }
    if (!listing) {
        print_hex(&blob, m);
        return EXIT_OK;
    }
    const char **names = arena_alloc(arena, (m->ncodes + 1) * sizeof *names);
    for (uint32_t i = 0; i < m->ncodes; i++)
        names[i] = m->codes[i]->name;
    return t->listing(stdout, &blob, names, NULL, NULL) ? EXIT_OK : EXIT_FAIL;
}

int cmd_lir(int argc, char **argv)
{
    char usage[2048];
    usage_text(lir_usage, usage, sizeof usage);
    if (wants_help(argc, argv, usage))
        return EXIT_OK;
    const char *path = NULL;
    bool print = false, listing = false, hex = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--print"))
            print = true;
        else if (!strcmp(argv[i], "-S"))
            listing = true;
        else if (!strcmp(argv[i], "--hex"))
            hex = true;
        else if (argv[i][0] == '-' || path) {
            fputs(usage, stderr);
            return EXIT_USAGE;
        } else
            path = argv[i];
    }
    if (!path || (listing && hex)) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    size_t len = 0;
    char *src = read_file(path, &len);
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
    for (uint32_t i = 0; status == EXIT_OK && i < m.ncodes; i++)
        status = lir_verify_located(m.codes[i], &m.pos[i], &d) ? EXIT_FAIL : EXIT_OK;
    for (uint32_t i = 0; status == EXIT_OK && print && i < m.ncodes; i++)
        lir_print(stdout, m.codes[i]);
    if (status == EXIT_OK && (listing || hex))
        status = encode(&m, path, listing, arena);
    arena_free(arena);
    free(src);
    return status;
}
