/* cmd_fuzz.c — `circ check` (the oracle against every compiler stage for the run
 * lines of some files) and `circ fuzz` (a differential fuzzing campaign over
 * generated programs, fuzz/campaign.h). */
#include "api/api_internal.h"
#include "driver.h"
#include "fuzz/campaign.h"
#include "compiler/target.h"
#include "fuzz/check.h"
#include "fuzz/progress.h"
#include "fuzz/reduce.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the per-query solver time of a campaign's tv stages: proofs that take longer are
 * unknown rather than slowing the campaign (docs/tv.md measures the rate); the
 * proofs of one program stop after a third of --hang-seconds (the rest unknown) */
enum { CAMPAIGN_TV_TIMEOUT_MS = 1000 };

/* ---- shared option parsing ------------------------------------------------------ */
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

static bool parse_level(const char *a, uint32_t *levels)
{
    if (a[0] != '-' || a[1] != 'O' || a[2] < '0' || a[2] > '2' || a[3])
        return false;
    *levels = 1u << (a[2] - '0');
    return true;
}

/* "x86-64,arm64" -> bit per Isa, the names from the registry */
static bool parse_isas(const char *s, uint32_t *mask)
{
    const char *bad;
    size_t badlen;
    return target_parse_isa_list(s, mask, &bad, &badlen);
}

/* --tv and --tv-timeout MS: 1 if argv[*i] was one, 0 if not, -1 on error */
static int tv_option(int argc, char **argv, int *i, CheckOptions *co, const char *cmd)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--tv"))
        return co->tv = true, 1;
    if (strcmp(a, "--tv-timeout"))
        return 0;
    uint64_t ms;
    if (*i + 1 >= argc || !parse_u64(argv[++*i], &ms) || !ms || ms > 3600000) {
        fprintf(stderr, "circ %s: --tv-timeout needs milliseconds 1..3600000\n", cmd);
        return -1;
    }
    co->tv = true;
    co->tv_options.timeout_ms = (uint32_t)ms;
    return 1;
}

/* options both commands take; returns 1 if argv[*i] was one, 0 if not, -1 on error */
static int common_option(int argc, char **argv, int *i, CheckOptions *co, const char *cmd)
{
    const char *a = argv[*i];
    bool has = *i + 1 < argc;
    if (parse_level(a, &co->levels))
        return 1;
    int tv = tv_option(argc, argv, i, co, cmd);
    if (tv)
        return tv;
    if (!strcmp(a, "--targets") && has) {
        co->targets = argv[++*i];
        return 1;
    }
    if (!strncmp(a, "--passes=", 9)) {
        co->pass_order = a + 9;
        return 1;
    }
    if (!strcmp(a, "--no-native")) {
        co->no_native = true;
        return 1;
    }
    if (!strcmp(a, "--no-c")) {
        co->no_c = true;
        return 1;
    }
    if (!strcmp(a, "--no-pressure")) {
        co->no_pressure = true;
        return 1;
    }
    if (!strcmp(a, "--no-local")) {
        co->no_local = true;
        return 1;
    }
    if (!strcmp(a, "--cc") && has) {
        char err[128];
        co->cc = argv[++*i];
        if (check_cc_list_valid(co->cc, err, sizeof err))
            return 1;
        fprintf(stderr, "circ %s: %s\n", cmd, err);
        return -1;
    }
    if (!strcmp(a, "--isa") && has) {
        if (!parse_isas(argv[++*i], &co->isa_mask)) {
            char names[128];
            fprintf(stderr, "circ %s: bad --isa '%s' (%s, comma-separated)\n", cmd, argv[*i],
                    target_names(names, sizeof names, ", ", " or "));
            return -1;
        }
        return 1;
    }
    return 0;
}

/* ---- circ check ------------------------------------------------------------------ */
static const char check_usage[] =
    "usage: circ check FILE... [-O0|-O1|-O2] [--targets LIST] [--isa LIST]\n"
    "                  [--passes=a,b,c] [--tv] [--tv-timeout MS] [--no-native]\n"
    "                  [--cc LIST] [--no-c] [--no-pressure] [--list-stages] [-q]\n"
    "                  [--status-interval S]\n"
    "                  [--load-pass-plugin=PATH.so]...\n"
    "For every `; run:` line of each file, compare the reference interpreter's outcome\n"
    "(the oracle; it must also meet the line's expectation) with every stage of the\n"
    "compiler, in pipeline order: each pass alone (pass-NAME), -O1 and -O2 (O1, O2:\n"
    "the interpreter after the passes), the scheduled form with no motion (sched-O0)\n"
    "and after -O2 with global code motion (sched-O2), and machine code under the\n"
    "emulator for each target ({TARGETS}: TARGET-O0 and TARGET-O2, and TARGET-O2-regs:\n"
    "-O2 with a register file of 3-6 general and 2-4 float registers and allocator\n"
    "knobs drawn from the program, on every other program; docs/fuzzing.md), then the -O2\n"
    "object on the host's CPU (x86-64-O2-native on an x86-64 host) and the ARM64\n"
    "object under qemu-aarch64 where installed (arm64-O2-qemu; docs/objects.md), and\n"
    "the C backend's output built by gcc and clang at -O2 for each target under the\n"
    "emulator (c-gcc-O2-x86-64, ...; docs/cbackend.md).\n"
    "The first stage that disagrees is reported with both outcomes and a signature\n"
    "STAGE:EXPECTED-vs-GOT (outcome kinds), e.g. sched-O2:return-vs-trap.\n"
    "  -O0|-O1|-O2      only the stages of that level (default: all)\n"
    "  --targets LIST   only stages whose names start with one of LIST (pass,O2,sched,...;\n"
    "                   an item ending in $ is a whole name: x86-64-O2$)\n"
    "  --isa LIST       targets whose machine code to check, comma-separated (default all)\n"
    "  --passes=a,b,c   also apply these passes one after another, checking after each\n"
    "  --tv             also prove every pass application with Z3 (docs/tv.md): a stage\n"
    "                   tv-PASS per pass; a refutation is tv-PASS:refuted with its\n"
    "                   confirming run line; the verdicts are counted per file\n"
    "  --tv-timeout MS  solver time per query (default 2000; implies --tv)\n"
    "  --no-native      no stage on the host's CPU, none under qemu-aarch64\n"
    "  --load-pass-plugin=PATH.so  load a pass plugin (docs/api.md): each of its passes\n"
    "                   gets a stage pass-NAME (and tv-NAME with --tv) and works in --passes\n"
    "  --cc LIST        the C stages' compilers, comma-separated (gcc,clang; default:\n"
    "                   those installed)\n"
    "  --no-c           no C stages\n"
    "  --no-pressure    no register-pressure stages (TARGET-O2-regs)\n"
    "  --no-local       no local-allocator stages (TARGET-O0-local)\n"
    "  --list-stages    print the stages that would be checked and exit\n"
    "  -q               print mismatches and the summary only (no progress)\n"
    "  --status-interval S  progress on stderr: a line redrawn in place on a terminal,\n"
    "                   else `check: K/N files, F failed, T s` every S seconds (default 5)\n"
    "Exit 0 if every stage agreed, 1 on a mismatch or an invalid file, 2 on usage or I/O errors.\n";

/* check one file; its result to stdout (the progress line erased first) */
static int check_file(const char *path, const CheckOptions *co, bool quiet, CheckResult *res, Progress *prog)
{
    int status = EXIT_OK;
    progress_clear(prog); /* load_module may report errors */
    Module *m = load_module(path, true, &status);
    if (!m)
        return status;
    bool ok = check_module(m, co, res);
    progress_clear(prog);
    if (!ok) {
        printf("%s: ", path);
        check_report(stdout, m, res);
    } else if (!quiet) {
        printf("%s: ok (%llu runs, %llu stages, %llu execs)\n", path, (unsigned long long)res->runs,
               (unsigned long long)res->stages, (unsigned long long)res->execs);
    }
    if (co->tv && !quiet)
        check_tv_print_tally(stdout, "  ", &res->tv);
    module_free(m);
    return ok ? EXIT_OK : EXIT_FAIL;
}

static int check_command(int argc, char **argv, circ_pass_registry **plugins)
{
    char usage[4096];
    usage_text(check_usage, usage, sizeof usage);
    if (wants_help(argc, argv, usage))
        return EXIT_OK;
    CheckOptions co;
    check_options_default(&co);
    co.check_expectations = true;
    bool list = false, quiet = false;
    double interval = 0;
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        int r = plugin_option(argc, argv, &i, plugins, "check");
        if (!r)
            r = status_interval_option(argc, argv, &i, &interval, "check");
        if (!r)
            r = common_option(argc, argv, &i, &co, "check");
        if (r < 0)
            return EXIT_USAGE;
        if (r)
            continue;
        if (!strcmp(argv[i], "--list-stages"))
            list = true;
        else if (!strcmp(argv[i], "-q"))
            quiet = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "circ check: bad option '%s'\n%s", argv[i], usage);
            return EXIT_USAGE;
        } else
            argv[++nfiles] = argv[i]; /* compact the file names to argv[1..nfiles] */
    }
    co.extra_passes = api_registry_passes(*plugins, &co.nextra_passes);
    char err[4096];
    if (!check_options_validate(&co, err, sizeof err)) {
        fprintf(stderr, "circ check: %s\n", err);
        return EXIT_USAGE;
    }
    if (list) {
        check_list_stages(stdout, &co);
        return EXIT_OK;
    }
    if (!nfiles) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        return EXIT_USAGE;
    Progress prog;
    progress_init(&prog, quiet ? NULL : stderr, PROGRESS_AUTO, interval);
    int worst = EXIT_OK, failed = 0;
    for (int i = 1; i <= nfiles && !ferror(stdout); i++) {
        int st = check_file(argv[i], &co, quiet, res, &prog);
        failed += st != EXIT_OK;
        if (st > worst)
            worst = st;
        progress_update(&prog, false, "check: %d/%d files, %d failed, %.0f s", i, nfiles, failed,
                        progress_elapsed(&prog));
    }
    progress_done(&prog);
    free(res);
    printf("%d file%s checked, %d failed\n", nfiles, nfiles == 1 ? "" : "s", failed);
    return worst;
}

int cmd_check(int argc, char **argv)
{
    circ_pass_registry *plugins = NULL;
    int rc = check_command(argc, argv, &plugins);
    circ_pass_registry_free(plugins);
    return rc;
}

/* ---- circ fuzz ------------------------------------------------------------------- */
static const char fuzz_usage[] =
    "usage: circ fuzz [--seconds S] [--seed N] [--jobs J] [--out DIR] [--targets LIST]\n"
    "                 [--size S] [--swarm] [--reduce] [--isa LIST] [-O0|-O1|-O2]\n"
    "                 [--max-programs N] [--hang-seconds H] [--status-interval S]\n"
    "                 [--tv] [--tv-timeout MS] [--no-native] [--qemu-every N]\n"
    "                 [--load-pass-plugin=PATH.so]... [--report DIR]\n"
    "                 [--cc LIST] [--no-c] [--c-every N] [--no-pressure] [--pressure-every N]\n"
    "                 [--no-local] [--local-every N] [--worker-programs N]\n"
    "Differential fuzzing campaign: J worker processes generate programs from the\n"
    "deterministic seed stream (seed, worker, index), run their run lines through the\n"
    "oracle and every compiler stage (as `circ check`), and report to this process,\n"
    "which prints a status line (redrawn in place on a terminal, one line every few\n"
    "seconds otherwise) and a final summary ending in `N execs/s`.  An exec is one call\n"
    "of a generated program in one stage (the oracle included).\n"
    "Each new mismatch signature is saved once as DIR/SIGNATURE.circ (the program with\n"
    "run lines reproducing it; `circ check` replays it) and DIR/SIGNATURE.json.  A\n"
    "worker that crashes or hangs is restarted; the crash is saved as a finding with\n"
    "its program (signature crash:SIGNAL or hang).\n"
    "  --seconds S        run time, default 60 (0: until --max-programs or interrupted)\n"
    "  --seed N           campaign seed, default 1\n"
    "  --jobs J           worker processes, default 1\n"
    "  --out DIR          where findings go, default fuzz-out: checked (created if\n"
    "                     missing) and locked before the campaign starts; a second\n"
    "                     campaign on a locked folder exits 2\n"
    "  --targets LIST     only stages whose names start with one of LIST (an item\n"
    "                     ending in $ is a whole name: x86-64-O2$)\n"
    "  --no-native        no stage on the host's CPU or under qemu-aarch64 (the summary\n"
    "                     names the machine-code stages run)\n"
    "  --qemu-every N     the arm64-O2-qemu stage (qemu-aarch64 installed) checks one\n"
    "                     program in N, default 512 (a process per program)\n"
    "  --cc LIST          the C stages' compilers (gcc,clang; default: those installed)\n"
    "  --no-c             no C stages\n"
    "  --c-every N        the C stages check one program in N, default 2048 (1: every one)\n"
    "  --no-pressure      no register-pressure stages (TARGET-O2-regs)\n"
    "  --no-local         no local-allocator stages (TARGET-O0-local)\n"
    "  --pressure-every N each ISA's register-pressure stage checks one program in N,\n"
    "                     default 4 (1: every one)\n"
    "  --local-every N    each ISA's local-allocator stage checks one program in N,\n"
    "                     default 4 (1: every one)\n"
    "  --size S           target gate count of generated modules, default 100\n"
    "  --swarm            switch a random subset of generator features off per program\n"
    "  --reduce           minimize each new finding, keeping its signature (circ reduce)\n"
    "  --max-programs N   check exactly N programs (the same ones for a given --jobs)\n"
    "  --hang-seconds H   a program checked for longer than H seconds is a hang (default 60)\n"
    "  --worker-programs N a worker process checks N programs, then a fresh one goes\n"
    "                     on at the next (default 2048, a few seconds; 0: one\n"
    "                     process for the whole campaign): memory stays flat\n"
    "  --tv               also prove every pass application with Z3 (tv-PASS stages, as\n"
    "                     circ check --tv); the status line and the summary count the\n"
    "                     proved, refuted and unknown applications, and the reasons\n"
    "  --tv-timeout MS    solver time per query (default 1000 in a campaign; implies --tv)\n"
    "  --load-pass-plugin=PATH.so  load a pass plugin (docs/api.md) in this process and\n"
    "                     every worker: each of its passes is checked as the built-in\n"
    "                     ones are (stage pass-NAME; signatures pass-NAME:...)\n"
    "  --report DIR       keep DIR/report.html (a self-contained page: throughput and\n"
    "                     outcome mix over time, time per check phase, generator\n"
    "                     coverage, every finding with its reproducer, graph and the\n"
    "                     command reproducing it) and DIR/report.json up to date,\n"
    "                     rewritten every few seconds and at the end (docs/fuzzing.md)\n"
    "Files are written whole or not at all and never replace one: a signature saved\n"
    "by an earlier run goes to DIR/SIGNATURE-2.circ, -3, ...  A finding that cannot\n"
    "be saved is reported as NOT SAVED.\n"
    "Exit 0 if no mismatch was found, 1 if any was, 2 on usage or I/O errors (a\n"
    "finding not saved included).\n";

/* the value options of circ fuzz: name, lowest and highest value */
typedef struct {
    const char *name;
    uint64_t lo, hi;
} FuzzValue;

static const FuzzValue fuzz_values[] = {
    {"--seconds", 0, 1u << 30},      {"--seed", 0, UINT64_MAX}, {"--jobs", 1, 256},
    {"--size", 1, 100000},           {"--max-programs", 0, UINT64_MAX},
    {"--hang-seconds", 1, 1u << 30}, {"--status-interval", 1, 1u << 30},
    {"--qemu-every", 1, 1u << 30},   {"--c-every", 1, 1u << 30},
    {"--pressure-every", 1, 1u << 30}, {"--local-every", 1, 1u << 30},
    {"--worker-programs", 0, UINT64_MAX},
};

static void set_fuzz_value(CampaignOptions *o, int which, uint64_t v)
{
    switch (which) {
    case 0: o->seconds = (double)v; break;
    case 1: o->seed = v; break;
    case 2: o->jobs = (uint32_t)v; break;
    case 3: o->gen.size = (uint32_t)v; break;
    case 4: o->max_programs = v; break;
    case 5: o->hang_seconds = (double)v; break;
    case 6: o->status_interval = (double)v; break;
    case 7: o->check.qemu_every = (uint32_t)v; break;
    case 8: o->check.c_every = (uint32_t)v; break;
    case 9: o->check.pressure_every = (uint32_t)v; break;
    case 10: o->check.local_every = (uint32_t)v; break;
    default: o->worker_programs = v; break;
    }
}

/* 1 if argv[*i] was a value option (its value checked), -1 with a message if its
 * value is bad or missing, 0 if it is no value option */
static int fuzz_value_option(int argc, char **argv, int *i, CampaignOptions *o)
{
    for (int k = 0; k < (int)(sizeof fuzz_values / sizeof fuzz_values[0]); k++) {
        const FuzzValue *f = &fuzz_values[k];
        if (strcmp(argv[*i], f->name))
            continue;
        uint64_t v;
        const char *s = *i + 1 < argc ? argv[++*i] : NULL;
        if (!s || !parse_u64(s, &v) || v < f->lo || v > f->hi) {
            fprintf(stderr, "circ fuzz: %s needs a whole number %llu..%llu, got '%s'\n", f->name,
                    (unsigned long long)f->lo, (unsigned long long)f->hi, s ? s : "nothing");
            return -1;
        }
        set_fuzz_value(o, k, v);
        return 1;
    }
    return 0;
}

static int parse_fuzz_option(int argc, char **argv, int *i, CampaignOptions *o)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--swarm"))
        o->gen.swarm = true;
    else if (!strcmp(a, "--reduce"))
        o->reduce = true;
    else if (!strcmp(a, "--out") && *i + 1 < argc)
        o->out_dir = argv[++*i];
    else if (!strcmp(a, "--report") && *i + 1 < argc)
        o->report_dir = argv[++*i];
    else {
        int r = fuzz_value_option(argc, argv, i, o);
        if (!r)
            fprintf(stderr, "circ fuzz: bad argument '%s'\n", a);
        return r ? r : -1;
    }
    return 1;
}

/* argv[from..to] appended to buf as shell words (quoted where needed) */
static void append_words(char *buf, size_t n, char **argv, int from, int to)
{
    for (int i = from; i <= to; i++) {
        size_t k = strlen(buf);
        bool plain = argv[i][0] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                   "0123456789_-+=,./:@%") == strlen(argv[i]);
        snprintf(buf + k, n - k, "%s%s%s%s", k ? " " : "", plain ? "" : "'", argv[i], plain ? "" : "'");
    }
}

/* how many words the campaign's own option a is (the others are `circ check`'s too):
 * 1 a flag, 2 with its value, 0 not one */
static int fuzz_only_words(const char *a)
{
    if (!strcmp(a, "--swarm") || !strcmp(a, "--reduce"))
        return 1;
    if (!strcmp(a, "--out") || !strcmp(a, "--report"))
        return 2;
    for (size_t k = 0; k < sizeof fuzz_values / sizeof fuzz_values[0]; k++)
        if (!strcmp(a, fuzz_values[k].name))
            return 2;
    return 0;
}

/* "circ check" and the options of a valid fuzz command line that circ check takes
 * too, into buf: given a finding's file, it reproduces the finding */
static void check_command_of(char *buf, size_t n, int argc, char **argv)
{
    snprintf(buf, n, "circ check");
    for (int i = 1; i < argc; i++) {
        int skip = fuzz_only_words(argv[i]);
        if (!skip)
            append_words(buf, n, argv, i, i);
        i += skip ? skip - 1 : 0;
    }
}

static int fuzz_command(int argc, char **argv, circ_pass_registry **plugins)
{
    if (wants_help(argc, argv, fuzz_usage))
        return EXIT_OK;
    CampaignOptions o;
    campaign_options_default(&o);
    for (int i = 1; i < argc; i++) {
        int r = plugin_option(argc, argv, &i, plugins, "fuzz");
        if (r == 0)
            r = common_option(argc, argv, &i, &o.check, "fuzz");
        if (r == 0)
            r = parse_fuzz_option(argc, argv, &i, &o);
        if (r < 0) {
            fputs(fuzz_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (o.check.tv && !o.check.tv_options.timeout_ms)
        o.check.tv_options.timeout_ms = CAMPAIGN_TV_TIMEOUT_MS;
    if (o.check.tv) /* a program's proofs end well before it counts as a hang */
        o.check.tv_options.max_seconds = o.hang_seconds / 3;
    if (o.reduce)
        o.reducer = reduce_campaign_finding; /* fuzz/reduce.h: keeps the signature */
    o.check.extra_passes = api_registry_passes(*plugins, &o.check.nextra_passes);
    char plugin_args[4096];
    plugin_reproduce_args(argc, argv, plugin_args, sizeof plugin_args);
    o.reproduce_args = plugin_args;
    char command[4096] = "circ", check[4096]; /* for the report */
    append_words(command, sizeof command, argv, 0, argc - 1);
    check_command_of(check, sizeof check, argc, argv);
    o.report_command = command;
    o.report_check_command = check;
    char versions[512]; /* named first: the summary's lines end the output */
    check_c_versions(o.check.no_c ? "" : o.check.cc, versions, sizeof versions);
    if (*versions)
        fprintf(stderr, "C stages on one program in %u, compilers: %s\n", o.check.c_every ? o.check.c_every : 1,
                versions);
    CampaignStats st;
    int rc = campaign_run(&o, &st, stderr);
    if (rc < 0)
        return EXIT_USAGE;
    if (st.report_unsaved)
        return EXIT_USAGE;
    if (st.unsaved) {
        fprintf(stderr, "circ fuzz: %llu finding%s NOT SAVED (see above)\n", (unsigned long long)st.unsaved,
                st.unsaved == 1 ? "" : "s");
        return EXIT_USAGE;
    }
    return st.mismatches ? EXIT_FAIL : EXIT_OK;
}

int cmd_fuzz(int argc, char **argv)
{
    circ_pass_registry *plugins = NULL; /* the workers inherit the loaded plugins (fork) */
    int rc = fuzz_command(argc, argv, &plugins);
    circ_pass_registry_free(plugins);
    return rc;
}
