/* cmd_reduce.c — `circ reduce`: minimize a program while the differential check keeps
 * reporting a mismatch with the same signature (or while an external test script
 * says the candidate is interesting), printing progress; writes the reduced module
 * with its run lines and the input's header comments.
 *
 * SIGINT and SIGTERM raise stop_signal, the driver's one piece of mutable global state
 * (a signal handler can do nothing else): the reducer kills the running tests' process
 * groups, returns the best result so far, and this command writes it and exits
 * 128 + the signal's number. */
#include "api/api_internal.h"
#include "driver.h"
#include "compiler/c/cemit.h"
#include "compiler/target.h"
#include "fuzz/reduce.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* the signal that asked the reduction to stop (0: none); written only by on_stop */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void catch_stop_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_stop; /* no SA_RESTART: waits end early */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static const char reduce_usage[] =
    "usage: circ reduce FILE [-o OUT] [--test CMD] [--jobs J] [--timeout SEC]\n"
    "                   [--max-seconds SEC] [-O0|-O1|-O2] [--targets LIST] [--isa LIST]\n"
    "                   [--tv] [--tv-timeout MS] [--cc LIST] [--emit-c OUT.c]\n"
    "                   [--status-interval S] [-q] [--load-pass-plugin=PATH.so]...\n"
    "Shrink FILE to a small program that still shows the same problem, and write it\n"
    "(with its `; run:` lines, expectations from the interpreter) to OUT or stdout.\n"
    "By default a candidate is kept when `circ check` still finds a mismatch with the\n"
    "same signature (stage, ISA, outcome kinds) as FILE.\n"
    "  -o OUT            write the result to OUT (default: stdout)\n"
    "  --test CMD        instead run `CMD CANDIDATE.circ` through /bin/sh; exit status 0\n"
    "                    means interesting (the C-Reduce convention)\n"
    "  --jobs J          test J candidates at a time in worker processes (same result)\n"
    "  --timeout SEC     per-candidate time limit, FILE's own test included (default 60,\n"
    "                    0: none); a slower test is killed with its process group\n"
    "                    (uninteresting)\n"
    "  --max-seconds SEC the overall deadline: a test still running then is killed and\n"
    "                    the best result so far is written (it is still interesting)\n"
    "  -O0|-O1|-O2, --targets LIST, --isa LIST, --tv, --tv-timeout MS\n"
    "                    the check's stages, as in `circ check`; a tv-PASS:refuted\n"
    "                    result gets the confirming run line of its last check\n"
    "  --load-pass-plugin=PATH.so  load a pass plugin (docs/api.md): its passes are\n"
    "                    checked (stage pass-NAME), so their findings reduce\n"
    "  --status-interval S  seconds between progress lines when stderr is no terminal\n"
    "                    (default 5; on a terminal one line is redrawn in place)\n"
    "  --cc LIST         the C stages' compilers, as in `circ check`\n"
    "  --emit-c OUT.c    also write the reduced program as C (circ compile --target c\n"
    "                    -O0, what the C stages compile) to OUT.c: a compiler bug report\n"
    "  -q                no progress lines\n"
    "The result keeps FILE's leading comment lines (a finding's header) and says how\n"
    "far it was reduced.  On SIGINT or SIGTERM the running tests are killed and the best\n"
    "result so far is written; the exit status is then 128 + the signal's number.\n"
    "Exit 0 when reduced, 1 if FILE itself is not interesting (no mismatch / the test\n"
    "rejects it), 2 on usage or I/O errors.\n";

typedef struct {
    const char *file, *out, *test;
    const char *emit_c;     /* --emit-c: the reduced program's C goes here */
    char *header;           /* FILE's leading comment lines */
    ReduceOptions ro;
    CheckOptions check;
    bool quiet;
    const ReduceCheck *kept; /* the check and signature kept (NULL with --test) */
    circ_pass_registry *plugins;
} ReduceArgs;

static bool parse_isa_list(const char *s, uint32_t *mask)
{
    const char *bad;
    size_t badlen;
    return target_parse_isa_list(s, mask, &bad, &badlen);
}

static bool parse_number(const char *s, double lo, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= lo) || v > 1e9)
        return false;
    *out = v;
    return true;
}

static bool parse_one(int argc, char **argv, int *i, ReduceArgs *a)
{
    const char *s = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    double num;
    if (!strcmp(s, "-q"))
        return a->quiet = true;
    if (!strcmp(s, "--tv"))
        return a->check.tv = true;
    if (!strcmp(s, "-O0") || !strcmp(s, "-O1") || !strcmp(s, "-O2")) {
        a->check.levels = 1u << (s[2] - '0');
        return true;
    }
    if (!v)
        return false;
    ++*i;
    if (!strcmp(s, "-o"))
        a->out = v;
    else if (!strcmp(s, "--test"))
        a->test = v;
    else if (!strcmp(s, "--emit-c"))
        a->emit_c = v;
    else if (!strcmp(s, "--cc")) {
        char err[128];
        a->check.cc = v;
        return check_cc_list_valid(v, err, sizeof err);
    }
    else if (!strcmp(s, "--targets"))
        a->check.targets = v;
    else if (!strcmp(s, "--isa"))
        return parse_isa_list(v, &a->check.isa_mask);
    else if (!strcmp(s, "--jobs") && parse_number(v, 1, &num) && num <= 64)
        a->ro.jobs = (uint32_t)num;
    else if (!strcmp(s, "--timeout") && parse_number(v, 0, &num))
        a->ro.timeout = num;
    else if (!strcmp(s, "--max-seconds") && parse_number(v, 0, &num))
        a->ro.max_seconds = num;
    else if (!strcmp(s, "--tv-timeout") && parse_number(v, 1, &num) && num <= 3600000)
        a->check.tv = true, a->check.tv_options.timeout_ms = (uint32_t)num;
    else
        return false;
    return true;
}

static bool parse_args(int argc, char **argv, ReduceArgs *a)
{
    memset(a, 0, sizeof *a);
    check_options_default(&a->check);
    a->ro.timeout = 60;
    for (int i = 1; i < argc; i++) {
        int plugin = plugin_option(argc, argv, &i, &a->plugins, "reduce");
        if (!plugin)
            plugin = status_interval_option(argc, argv, &i, &a->ro.progress_interval, "reduce");
        if (plugin < 0)
            return false;
        if (plugin)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            if (!parse_one(argc, argv, &i, a)) {
                fprintf(stderr, "circ reduce: bad argument '%s'\n", argv[i]);
                return false;
            }
        } else if (!a->file) {
            a->file = argv[i];
        } else {
            fprintf(stderr, "circ reduce: one file at a time ('%s')\n", argv[i]);
            return false;
        }
    }
    a->check.extra_passes = api_registry_passes(a->plugins, &a->check.nextra_passes);
    if (!a->file)
        fprintf(stderr, "circ reduce: no input file\n");
    else if (a->test && !a->test[strspn(a->test, " \t\n")]) {
        fprintf(stderr, "circ reduce: --test needs a command (it is run as `CMD CANDIDATE.circ`)\n");
        return false;
    }
    return a->file != NULL;
}

/* the signature of FILE's first mismatch into rc (shared memory); false if the
 * check finds none */
static bool record_signature(void *ctx, const Module *m)
{
    ReduceCheck *rc = ctx;
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        return false;
    bool found = !check_module(m, &rc->check, res);
    if (found)
        snprintf(rc->signature, sizeof rc->signature, "%s", res->signature);
    free(res);
    return found;
}

static int write_result(const ReduceArgs *a, const ReduceStats *st, const Module *r)
{
    if (!a->out) {
        fputs(a->header, stdout);
        printf("; reduced by circ reduce from %u to %u gates\n", st->gates_before, st->gates_after);
        print_module(stdout, r);
        return EXIT_OK;
    }
    if (!reduce_write_reduced(a->out, a->header, st->gates_before, r)) {
        fprintf(stderr, "circ reduce: cannot write '%s': %s (nothing written)\n", a->out, strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* the reduced module as C (what the C stages compile: no passes, naive schedule) */
static int write_c(const char *path, const Module *r)
{
    FILE *f = fopen(path, "w");
    Diag d;
    diag_init(&d, path, stderr);
    CompileOptions co = {.opt_level = 0};
    bool ok = f && c_compile_module(r, &co, &(CEmitOptions){0}, f, &d);
    if (f && fclose(f))
        ok = false;
    if (!ok)
        fprintf(stderr, "circ reduce: cannot write the C to '%s'\n", path);
    return ok ? EXIT_OK : EXIT_USAGE;
}

static const char *why_stopped(const ReduceStats *st)
{
    if (st->interrupted)
        return " (interrupted)";
    return st->timed_out ? " (time limit)" : "";
}

static int reduce_with(ReduceArgs *a, const Module *m)
{
    ReduceStats st;
    a->ro.progress = a->quiet ? NULL : stderr;
    Module *r = reduce_module(m, &a->ro, &st);
    int rc = EXIT_FAIL;
    if (!st.input_interesting && (st.interrupted || st.timed_out))
        fprintf(stderr, "circ reduce: %s: stopped%s before its own test ended; nothing written\n", a->file,
                why_stopped(&st));
    else if (!st.input_interesting)
        fprintf(stderr, "circ reduce: %s is not interesting to begin with\n", a->file);
    else {
        if (!a->quiet)
            fprintf(stderr, "reduce: done: %u -> %u gates, %llu candidates tried, %llu kept, %.1fs%s\n",
                    st.gates_before, st.gates_after, (unsigned long long)st.tried,
                    (unsigned long long)st.accepted, st.seconds, why_stopped(&st));
        if (a->kept) /* a tv finding: with its confirming run line */
            check_tv_add_runline(&r, a->kept->signature, NULL, &a->kept->check);
        rc = write_result(a, &st, r);
        if (rc == EXIT_OK && a->emit_c)
            rc = write_c(a->emit_c, r);
    }
    module_free(r);
    return rc;
}

/* remove the candidate files a killed test left in dir, then dir */
static void remove_scratch(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[4200];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static int reduce_by_script(ReduceArgs *a, const Module *m)
{
    char dir[] = "/tmp/circ-reduce-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "circ reduce: cannot make a temporary directory: %s\n", strerror(errno));
        return EXIT_USAGE;
    }
    ReduceScript rs = {a->test, dir};
    a->ro.interesting = reduce_script_interesting;
    a->ro.ctx = &rs;
    int rc = reduce_with(a, m);
    remove_scratch(dir);
    return rc;
}

static int reduce_by_check(ReduceArgs *a, const Module *m)
{
    /* shared: FILE's check runs in a worker under the time limits */
    ReduceCheck *chk = mmap(NULL, sizeof *chk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (chk == MAP_FAILED)
        return EXIT_USAGE;
    chk->check = a->check;
    /* candidates that loop give up early, in the check as in the reducer */
    if (!chk->check.interp.max_steps)
        chk->check.interp.max_steps = reduce_step_budget(m);
    int rc, found = reduce_test_limited(&a->ro, record_signature, chk, m);
    if (found < 0) {
        fprintf(stderr, "circ reduce: %s: its check was stopped (time limit or signal); nothing written\n",
                a->file);
        rc = EXIT_FAIL;
    } else if (!found) {
        fprintf(stderr, "circ reduce: %s: the check finds no mismatch to reduce\n", a->file);
        rc = EXIT_FAIL;
    } else {
        if (!a->quiet)
            fprintf(stderr, "reduce: keeping signature %s\n", chk->signature);
        a->ro.interesting = reduce_check_interesting;
        a->ro.ctx = chk;
        a->kept = chk;
        rc = reduce_with(a, m);
    }
    munmap(chk, sizeof *chk);
    return rc;
}

/* reduce as the parsed arguments a say */
static int reduce_parsed(ReduceArgs *a)
{
    char err[4096];
    if (!a->test && !check_options_validate(&a->check, err, sizeof err)) {
        fprintf(stderr, "circ reduce: %s\n", err);
        return EXIT_USAGE;
    }
    int status;
    Module *m = load_module(a->file, true, &status);
    if (!m)
        return status;
    a->header = reduce_file_header(a->file);
    if (!a->header) {
        fprintf(stderr, "circ reduce: cannot read %s: %s\n", a->file, strerror(errno));
        module_free(m);
        return EXIT_USAGE;
    }
    catch_stop_signals();
    a->ro.stop = &stop_signal;
    int rc = a->test ? reduce_by_script(a, m) : reduce_by_check(a, m);
    free(a->header);
    module_free(m);
    return stop_signal && rc != EXIT_USAGE ? 128 + stop_signal : rc;
}

int cmd_reduce(int argc, char **argv)
{
    if (wants_help(argc, argv, reduce_usage))
        return EXIT_OK;
    ReduceArgs a;
    int rc = EXIT_USAGE;
    if (parse_args(argc, argv, &a))
        rc = reduce_parsed(&a);
    else
        fputs(reduce_usage, stderr);
    circ_pass_registry_free(a.plugins);
    return rc;
}
