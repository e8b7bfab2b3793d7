/* cmd_gen.c — `circ gen`: write a random valid program with self-checking run lines
 * (from a seed or from a fuzzer input file), or print statistics over many seeds. */
#include "driver.h"
#include "fuzz/atomic_write.h"
#include "fuzz/gen.h"
#include "fuzz/mcov_table.h"
#include "fuzz/progress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char gen_usage[] =
    "usage: circ gen --seed N [--size S] [--swarm] [--funcs F] [--runs R] [-o FILE]\n"
    "       circ gen --from-bytes FILE [--size S] [--swarm] [--funcs F] [--runs R] [-o FILE]\n"
    "       circ gen --stats [--count K] [--seed N] [--size S] [--swarm] [--funcs F] [--runs R]\n"
    "                    [--machine] [--machine-table FILE] [--status-interval S]\n"
    "All forms also take --weights LIST and --extreme KIND.\n"
    "Generate a random valid Circuit IR module whose entry function (the last one) carries\n"
    "`; run:` lines with the interpreter's outcomes, so the file checks itself (circ test).\n"
    "  --seed N        seed of the byte string (splitmix64), default 0\n"
    "  --from-bytes F  decode the bytes of file F instead (a fuzzer input)\n"
    "  --size S        target gate count of the module, default 100\n"
    "  --funcs F       number of functions, 1..8 (default: chosen from the bytes, 1..4);\n"
    "                  the calls extreme adds one\n"
    "  --swarm         switch a random subset of features off (chosen from the bytes)\n"
    "  --weights LIST  feature weights, e.g. loop=0,call=20 (0 = never); features:\n"
    "                  int div div0 float convert compare load store call if switch loop\n"
    "                  exit block\n"
    "  --extreme KIND  a structural extreme: switch (a SWITCH of 100..400 cases), merge\n"
    "                  (an IF ladder of 100..400 rungs into one MERGE), params (a function\n"
    "                  of 65..255 parameters), calls (a recursion 100..199 calls deep), none;\n"
    "                  default auto: about 1 program in 250 gets one, chosen from the bytes\n"
    "  --runs R        run lines to add, default 3 (0: none)\n"
    "  -o FILE         write there instead of stdout\n"
    "  --stats         over K seeds (default 1000) from N: opcode/type/condition histogram,\n"
    "                  state gate shapes, programs per extreme, loops and memory effects per\n"
    "                  program, the outcome mix\n"
    "                  and verifier failures; exit 1 if any program fails to verify or runs invalid\n"
    "  --machine       with --stats: also compile each program for every target and CPU\n"
    "                  level at -O0 and -O2 and print the machine-level coverage: the\n"
    "                  forms, conditions, encoder paths and selector idioms never hit\n"
    "                  (exit 1 if a compile fails)\n"
    "  --machine-table FILE  with --machine: the whole table (counts per item) into FILE\n"    "  --status-interval S  --stats' progress on stderr: a line redrawn in place on a\n"
    "                  terminal, else a line every S seconds (default 5)\n"
    "Exit: 0 success, 1 a generated program failed the check, 2 usage or I/O error.\n";

typedef struct {
    uint64_t seed, count;
    uint32_t runs;
    GenOptions opt;
    const char *from_bytes, *out;
    bool stats, machine;
    const char *machine_table;
    double interval; /* --status-interval: seconds between plain progress lines */
} GenArgs;

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        return false;
    *v = x;
    return true;
}

static int parse_gen_args(int argc, char **argv, GenArgs *a)
{
    memset(a, 0, sizeof *a);
    a->count = 1000;
    a->runs = 3;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool has_value = i + 1 < argc;
        uint64_t v = 0;
        int interval = status_interval_option(argc, argv, &i, &a->interval, "gen");
        if (interval < 0)
            return EXIT_USAGE;
        if (interval)
            continue;
        if (!strcmp(o, "--swarm"))
            a->opt.swarm = true;
        else if (!strcmp(o, "--stats"))
            a->stats = true;
        else if (!strcmp(o, "--machine"))
            a->machine = true;
        else if (!strcmp(o, "--machine-table") && has_value)
            a->machine_table = argv[++i];
        else if (!strcmp(o, "--from-bytes") && has_value)
            a->from_bytes = argv[++i];
        else if (!strcmp(o, "-o") && has_value)
            a->out = argv[++i];
        else if (!strcmp(o, "--extreme") && has_value) {
            if (!gen_parse_extreme(argv[++i], &a->opt.extreme)) {
                fprintf(stderr, "circ gen: bad --extreme '%s' (switch, merge, params, calls, "
                                "none, auto)\n", argv[i]);
                return EXIT_USAGE;
            }
        }
        else if (!strcmp(o, "--weights") && has_value) {
            if (!a->opt.has_weights)
                gen_default_weights(a->opt.weight);
            a->opt.has_weights = true;
            if (!gen_parse_weights(argv[++i], a->opt.weight)) {
                fprintf(stderr, "circ gen: bad --weights '%s' (NAME=0..255,...)\n", argv[i]);
                return EXIT_USAGE;
            }
        }
        else if (has_value && parse_u64(argv[i + 1], &v) &&
                 (!strcmp(o, "--seed") || !strcmp(o, "--count") || !strcmp(o, "--size") ||
                  !strcmp(o, "--funcs") || !strcmp(o, "--runs"))) {
            i++;
            if (!strcmp(o, "--seed"))
                a->seed = v;
            else if (!strcmp(o, "--count"))
                a->count = v;
            else if (!strcmp(o, "--size") && v <= 1000000)
                a->opt.size = (uint32_t)v;
            else if (!strcmp(o, "--funcs") && v <= 8)
                a->opt.funcs = (uint32_t)v;
            else if (!strcmp(o, "--runs") && v <= 64)
                a->runs = (uint32_t)v;
            else {
                fprintf(stderr, "circ gen: %s %s is out of range\n", o, argv[i]);
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "circ gen: bad argument '%s'\n%s", o, gen_usage);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static uint8_t *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static uint8_t *seed_bytes(uint64_t seed, uint32_t size, size_t *len)
{
    *len = gen_bytes_for_size(size);
    uint8_t *b = malloc(*len);
    if (!b)
        abort();
    gen_seed_bytes(seed, b, *len);
    return b;
}

/* the command line that makes this file again */
static void print_header(FILE *out, const GenArgs *a)
{
    if (a->from_bytes)
        fprintf(out, "; circ gen --from-bytes %s", a->from_bytes);
    else
        fprintf(out, "; circ gen --seed %llu", (unsigned long long)a->seed);
    fprintf(out, " --size %u", a->opt.size ? a->opt.size : 100);
    if (a->opt.swarm)
        fputs(" --swarm", out);
    if (a->opt.funcs)
        fprintf(out, " --funcs %u", a->opt.funcs);
    if (a->runs != 3)
        fprintf(out, " --runs %u", a->runs);
    if (a->opt.extreme != GEN_EXTREME_AUTO)
        fprintf(out, " --extreme %s", gen_extreme_name(a->opt.extreme));
    if (a->opt.has_weights) {
        uint8_t def[GF_COUNT];
        gen_default_weights(def);
        const char *sep = " --weights ";
        for (int f = 0; f < GF_COUNT; f++)
            if (a->opt.weight[f] != def[f]) {
                fprintf(out, "%s%s=%u", sep, gen_feature_name((GenFeature)f), a->opt.weight[f]);
                sep = ",";
            }
    }
    fputc('\n', out);
}

typedef struct {
    const GenArgs *a;
    const Module *m;
} Generated;

static bool fill_generated(FILE *f, void *ctx)
{
    const Generated *g = ctx;
    print_header(f, g->a);
    print_module(f, g->m);
    return true;
}

/* the program to a->out, whole or not at all; false with errno set */
static bool write_generated(const GenArgs *a, const Module *m)
{
    AtomicWriter w;
    atomic_writer_init(&w);
    return atomic_write_file(&w, a->out, AW_REPLACE, fill_generated, &(Generated){a, m});
}

static int write_one(const GenArgs *a)
{
    size_t len = 0;
    uint8_t *bytes = a->from_bytes ? read_bytes(a->from_bytes, &len) : seed_bytes(a->seed, a->opt.size, &len);
    if (!bytes) {
        fprintf(stderr, "circ gen: cannot read %s: %s\n", a->from_bytes, strerror(errno));
        return EXIT_USAGE;
    }
    Module *m = generate(bytes, len, &a->opt);
    gen_add_runlines(m, bytes, len, a->runs, NULL, NULL);
    free(bytes);
    Diag d;
    diag_init(&d, "<generated>", stderr);
    int status = verify_module(m, &d) ? EXIT_FAIL : EXIT_OK;
    if (!a->out) {
        print_header(stdout, a);
        print_module(stdout, m);
    } else if (!write_generated(a, m)) {
        fprintf(stderr, "circ gen: cannot write %s: %s (nothing written)\n", a->out, strerror(errno));
        status = EXIT_USAGE;
    }
    module_free(m);
    return status;
}

/* --machine: the never-hit items, the whole table into --machine-table's file */
static int print_machine(const GenArgs *a, const MachCovTable *tab, bool compiled)
{
    McovTotals n = mcov_table_unhit(tab, NULL);
    printf("machine coverage: ");
    mcov_totals_print(stdout, n);
    printf("\n");
    mcov_table_unhit(tab, stdout);
    if (!compiled)
        printf("machine coverage: a program failed to compile\n");
    FILE *f = a->machine_table ? fopen(a->machine_table, "w") : NULL;
    if (a->machine_table && !f) {
        fprintf(stderr, "circ gen: cannot write %s: %s\n", a->machine_table, strerror(errno));
        return EXIT_USAGE;
    }
    if (f) {
        mcov_table_print(f, tab);
        if (fclose(f) != 0)
            return EXIT_USAGE;
    }
    return compiled ? EXIT_OK : EXIT_FAIL;
}

static int print_stats(const GenArgs *a)
{
    MachCovTable *tab = a->machine ? calloc(1, sizeof *tab) : NULL;
    bool compiled = true;
    GenStats s;
    gen_stats_init(&s);
    Outcome *outs = calloc(a->runs ? a->runs : 1, sizeof *outs);
    if (!outs)
        abort();
    Progress prog;
    progress_init(&prog, stderr, PROGRESS_AUTO, a->interval);
    for (uint64_t k = 0; k < a->count; k++) {
        progress_update(&prog, false, "gen --stats: %llu/%llu programs, %.0f s", (unsigned long long)k,
                        (unsigned long long)a->count, progress_elapsed(&prog));
        size_t len;
        uint8_t *bytes = seed_bytes(a->seed + k, a->opt.size, &len);
        Module *m = generate(bytes, len, &a->opt);
        gen_stats_add(&s, m);
        if (tab)
            compiled &= mcov_table_count_module(tab, m);
        gen_stats_extreme(&s, gen_extreme_of(bytes, len, &a->opt));
        uint32_t n = gen_add_runlines(m, bytes, len, a->runs, NULL, outs);
        for (uint32_t r = 0; r < n; r++)
            gen_stats_outcome(&s, &outs[r]);
        free(bytes);
        module_free(m);
    }
    progress_done(&prog);
    gen_stats_print(stdout, &s);
    int status = s.verify_failures || s.outcomes[OUT_INVALID] ? EXIT_FAIL : EXIT_OK;
    if (tab) {
        int ms = print_machine(a, tab, compiled);
        status = status != EXIT_OK ? status : ms;
    }
    free(tab);
    free(outs);
    gen_stats_free(&s);
    return status;
}

int cmd_gen(int argc, char **argv)
{
    if (wants_help(argc, argv, gen_usage))
        return EXIT_OK;
    GenArgs a;
    int st = parse_gen_args(argc, argv, &a);
    if (st != EXIT_OK)
        return st;
    return a.stats ? print_stats(&a) : write_one(&a);
}
