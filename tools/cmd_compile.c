/* cmd_compile.c — `circ compile`: compile a module for a target through the whole
 * pipeline (compiler/compile.h) and print its LIR, an annotated listing, or
 * write an ELF object (compiler/lir/objwrite.h), the raw code bytes or the C
 * header of the object. */
#include "compiler/compile.h"
#include "compiler/lir/objwrite.h"
#include "compiler/opt/opt.h"
#include "compiler/target.h"
#include "driver.h"
#include "fuzz/atomic_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char compile_usage[] =
    "usage: circ compile FILE --target T [--cpu LEVEL] [-O0|-O1|-O2] [--passes=LIST] [-S]\n"
    "                    [--emit=obj|bin|header|lir|lir-alloc] [--prefix=P]\n"
    "                    [--max-regs=GP,FP] [--regalloc=linear|local] [--branch-reach=N]\n"
    "                    [-o OUT]\n"
    "       circ compile FILE --target c [-O0|-O1|-O2] [--prefix=P] [-o OUT.c]\n"
    "       circ compile --list-targets\n"
    "Compile every function of FILE for target T ({TARGETS_OR}): passes (-O\n"
    "level, default -O0, or a --passes= list), scheduling, instruction selection,\n"
    "register and stack allocation, encoding.\n"
    "  --cpu LEVEL      the target's CPU level (default baseline; x86-64: baseline =\n"
    "                   SSE2, v3 = SSE4.1 POPCNT LZCNT BMI1 BMI2; docs/porting.md)\n"
    "  -S               print a Capstone listing, each gate's code headed by\n"
    "                   `%name = OPCODE`\n"
    "  --emit=lir       print the LIR after instruction selection\n"
    "  --emit=lir-alloc print the LIR after register allocation and the frame\n"
    "  --max-regs=G,F   allocate with at most G general and F float registers\n"
    "  --regalloc=A     the register allocator: linear (linear scan, the default)\n"
    "                   or local (a slot per value, registers per instruction: the\n"
    "                   baseline's, time linear in the code; --max-regs is ignored)\n"
    "  --branch-reach=N a conditional branch to a block more than N bytes away takes\n"
    "                   its long form (arm64: inverted over a b), as the campaign's\n"
    "                   -regs and -local stages do on half the programs\n"
    "  -o OUT           write an ELF64 relocatable object to OUT (docs/objects.md)\n"
    "  --emit=obj       the same (the default with -o)\n"
    "  --emit=bin       write the raw code bytes to OUT instead\n"
    "  --emit=header    write a C header for the object to OUT (or print it; needs\n"
    "                   no --target): a prototype per function\n"
    "  --prefix=P       every function's symbol is P followed by its name\n"
    "Without -S, --emit or -o, print each function's offset and size.\n"
    "--target c writes the module as C11 source (docs/cbackend.md) to OUT or stdout.\n"
    "--list-targets prints the name of every target, one a line, in registry order.\n"
    "Exit 0 on success, 1 if the file is invalid or cannot be compiled, 2 on usage\n"
    "or I/O errors.\n";

/* "%name = OPCODE" for a listing's source marks */
static const char *gate_title(void *ctx, uint32_t func, uint32_t gate, char *buf, size_t n)
{
    const Module *m = ctx;
    if (func >= m->nfuncs || gate >= m->funcs[func]->circ->ngates)
        return NULL;
    const Func *f = m->funcs[func];
    char label[128];
    gate_label(f, gate, label, sizeof label);
    snprintf(buf, n, "%s = %s", label, op_info[circ_gate(f->circ, gate)->op].name);
    return buf;
}

typedef struct {
    const char *file, *target, *cpu, *passes, *out, *emit, *prefix;
    int opt_level;
    bool listing;
    RegallocOptions ra;
    CompileAllocator allocator;
    uint32_t branch_reach;
} CompileArgs;

/* G,F: both 1..64 (0 would mean no limit to the allocator: not what was asked) */
static bool parse_max_regs(const char *s, RegallocOptions *ra)
{
    unsigned gp, fp;
    char extra;
    if (sscanf(s, "%u,%u%c", &gp, &fp, &extra) != 2 || !gp || !fp || gp > 64 || fp > 64) {
        fprintf(stderr, "circ compile: bad --max-regs=%s: two register counts G,F, each 1..64\n", s);
        return false;
    }
    ra->max_regs[BANK_GP] = (uint8_t)gp;
    ra->max_regs[BANK_FP] = (uint8_t)fp;
    return true;
}

/* N: 1..2^24 bytes (0 would mean the ISA's own reach: no option at all) */
static bool parse_branch_reach(const char *s, uint32_t *reach)
{
    unsigned n;
    char extra;
    if (sscanf(s, "%u%c", &n, &extra) != 1 || !n || n > (1u << 24)) {
        fprintf(stderr, "circ compile: bad --branch-reach=%s: a byte count 1..16777216\n", s);
        return false;
    }
    *reach = n;
    return true;
}

static bool parse_compile_args(int argc, char **argv, CompileArgs *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--target") && i + 1 < argc)
            a->target = argv[++i];
        else if (!strncmp(s, "--target=", 9))
            a->target = s + 9;
        else if (!strcmp(s, "--cpu") && i + 1 < argc)
            a->cpu = argv[++i];
        else if (!strncmp(s, "--cpu=", 6))
            a->cpu = s + 6;
        else if (s[0] == '-' && s[1] == 'O' && s[2] >= '0' && s[2] <= '2' && !s[3])
            a->opt_level = s[2] - '0';
        else if (!strncmp(s, "--passes=", 9))
            a->passes = s + 9;
        else if (!strcmp(s, "-S"))
            a->listing = true;
        else if (!strcmp(s, "--emit=lir") || !strcmp(s, "--emit=lir-alloc") || !strcmp(s, "--emit=obj") ||
                 !strcmp(s, "--emit=bin") || !strcmp(s, "--emit=header"))
            a->emit = s + 7;
        else if (!strncmp(s, "--prefix=", 9))
            a->prefix = s + 9;
        else if (!strcmp(s, "--regalloc=linear") || !strcmp(s, "--regalloc=local"))
            a->allocator = !strcmp(s + 11, "local") ? ALLOC_LOCAL : ALLOC_LINEAR_SCAN;
        else if (!strncmp(s, "--max-regs=", 11)) {
            if (!parse_max_regs(s + 11, &a->ra))
                return false;
        } else if (!strncmp(s, "--branch-reach=", 15)) {
            if (!parse_branch_reach(s + 15, &a->branch_reach))
                return false;
        } else if (!strcmp(s, "-o") && i + 1 < argc)
            a->out = argv[++i];
        else if (s[0] == '-' || a->file)
            return false;
        else
            a->file = s;
    }
    bool header = a->emit && !strcmp(a->emit, "header");
    bool file_out = a->emit && (!strcmp(a->emit, "obj") || !strcmp(a->emit, "bin"));
    if (a->target && !strcmp(a->target, "c") && (a->emit || a->listing))
        return false; /* C is its own output */
    return a->file && (a->target || header) && (a->out || !file_out);
}

typedef struct {
    const uint8_t *data;
    size_t size;
} Bytes;

static bool fill_bytes(FILE *f, void *bytes)
{
    const Bytes *b = bytes;
    return fwrite(b->data, 1, b->size, f) == b->size;
}

typedef struct {
    const Module *m;
    const char *prefix;
} HeaderArgs;

static bool fill_header(FILE *f, void *ctx)
{
    const HeaderArgs *h = ctx;
    return obj_write_header(f, h->m, h->prefix);
}

/* fill's output to path, whole or not at all */
static int write_file(const char *path, bool (*fill)(FILE *, void *), void *ctx)
{
    AtomicWriter w;
    atomic_writer_init(&w);
    if (atomic_write_file(&w, path, AW_REPLACE, fill, ctx))
        return EXIT_OK;
    fprintf(stderr, "circ compile: cannot write %s: %s\n", path, strerror(errno));
    return EXIT_USAGE;
}

/* the object (or with --emit=bin the raw code bytes) to a->out */
static int write_code(const CompileArgs *a, const Target *t, const CodeBlob *blob, const char *const *names)
{
    if (a->emit && !strcmp(a->emit, "bin"))
        return write_file(a->out, fill_bytes, &(Bytes){blob->code, blob->size});
    ObjImage obj;
    char err[256];
    if (!obj_write_elf(blob, t, names, a->prefix, &obj, err, sizeof err)) {
        fprintf(stderr, "circ compile: %s: %s\n", a->file, err);
        return EXIT_FAIL;
    }
    int rc = write_file(a->out, fill_bytes, &(Bytes){obj.data, obj.size});
    free(obj.data);
    return rc;
}

static int write_header(const CompileArgs *a, const Module *m)
{
    HeaderArgs h = {m, a->prefix};
    if (a->out)
        return write_file(a->out, fill_header, &h);
    return fill_header(stdout, &h) ? EXIT_OK : EXIT_USAGE;
}

static int report(const CompileArgs *a, const Target *t, const CodeBlob *blob, const Module *compiled)
{
    int rc = EXIT_OK;
    const char **names = calloc(compiled->nfuncs + 1, sizeof *names);
    for (uint32_t i = 0; names && i < compiled->nfuncs; i++)
        names[i] = compiled->funcs[i]->name;
    if (a->listing && (!names || !t->listing(stdout, blob, names, gate_title, (void *)compiled))) {
        fprintf(stderr, "circ compile: cannot list the code\n");
        rc = EXIT_FAIL;
    }
    if (a->out && rc == EXIT_OK)
        rc = names ? write_code(a, t, blob, names) : EXIT_FAIL;
    free(names);
    if (!a->listing && !a->out && !a->emit)
        for (uint32_t i = 0; i < blob->nfuncs; i++) {
            uint32_t end = i + 1 < blob->nfuncs ? blob->entry[i + 1] : blob->size;
            printf("@%s: offset %u, %u bytes\n", compiled->funcs[i]->name, blob->entry[i], end - blob->entry[i]);
        }
    return rc;
}

/* an unknown pass name is a usage error, reported before anything is compiled */
static bool passes_known(const char *list)
{
    PassManager *pm = pm_new(NULL);
    char err[256] = "out of memory";
    bool ok = pm && pm_set_passes(pm, list, err, sizeof err);
    if (!ok)
        fprintf(stderr, "circ compile: %s\n", err);
    pm_free(pm);
    return ok;
}

/* --emit=header: the module's C header; nothing is compiled */
static int compile_header(const CompileArgs *a)
{
    int status = EXIT_OK;
    Module *m = load_module(a->file, true, &status);
    if (!m)
        return status;
    int rc = write_header(a, m);
    module_free(m);
    return rc;
}

int cmd_compile(int argc, char **argv)
{
    char usage[2048];
    usage_text(compile_usage, usage, sizeof usage);
    if (wants_help(argc, argv, usage))
        return EXIT_OK;
    if (argc == 2 && !strcmp(argv[1], "--list-targets")) {
        for (unsigned i = 0; i < target_count(); i++)
            printf("%s\n", target_at(i)->name);
        return EXIT_OK;
    }
    CompileArgs a = {0};
    if (!parse_compile_args(argc, argv, &a)) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    if (a.emit && !strcmp(a.emit, "header"))
        return compile_header(&a);
    if (!strcmp(a.target, "c")) /* C source: an output kind, not a machine target */
        return a.passes && !passes_known(a.passes) ? EXIT_USAGE
                                                   : compile_to_c(a.file, a.opt_level, a.passes, a.prefix, a.out);
    const Target *t = target_find(a.target);
    if (!t) {
        char names[128];
        fprintf(stderr, "circ compile: unknown target '%s' (%s)\n", a.target,
                target_names(names, sizeof names, ", ", ", "));
        return EXIT_USAGE;
    }
    if (!(t = driver_cpu_level("compile", t, a.cpu)))
        return EXIT_USAGE;
    if (a.passes && !passes_known(a.passes))
        return EXIT_USAGE;
    int status = EXIT_OK;
    Module *m = load_module(a.file, true, &status);
    if (!m)
        return status;
    CompileOptions opt = {.opt_level = a.opt_level, .passes = a.passes, .regalloc = a.ra, .allocator = a.allocator,
                           .branch_reach = a.branch_reach};
    if (a.emit && !strcmp(a.emit, "lir"))
        opt.dump_lir = stdout;
    else if (a.emit && !strcmp(a.emit, "lir-alloc"))
        opt.dump_alloc = stdout;
    Arena *arena = arena_new();
    Diag d;
    diag_init(&d, a.file, stderr);
    CodeBlob blob;
    Module *compiled = NULL;
    int rc = EXIT_FAIL;
    /* with no pass to run, the functions compiled are m's own: no copy of m to name them */
    bool as_is = opt.opt_level == 0 && !opt.passes;
    if (compile_module(m, t, &opt, arena, &blob, as_is ? NULL : &compiled, &d))
        rc = report(&a, t, &blob, as_is ? m : compiled);
    module_free(compiled);
    arena_free(arena);
    module_free(m);
    return rc;
}
