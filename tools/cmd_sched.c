/* cmd_sched.c — `circ sched`: print the scheduled form (blocks of gates) of a file, or
 * with --check run every run line on the scheduled form and on the graph interpreter
 * and compare the outcomes. */
#include "driver.h"

#include "compiler/compile.h"
#include "compiler/sched/sched.h"
#include "oracle/interp_cfg.h"

#include <stdlib.h>
#include <string.h>

static const char sched_usage[] =
    "usage: circ sched FILE [-O0] [--no-motion]\n"
    "       circ sched --check FILE... [--no-motion]\n"
    "Schedule every function of FILE (global code motion onto the blocks of its state\n"
    "graph) and print the result in the parser's own syntax: the gates grouped by block\n"
    "in block order, each block introduced by a comment line\n"
    "  ; block bN (loop depth D, idom bK) preds ... succs ...\n"
    "and the parallel copies of each edge into a join as comments; the output parses back\n"
    "to the same circuit.  -O0 (the default) schedules the file as given;\n"
    "--no-motion places every gate at its latest legal block (no hoisting).\n"
    "--check: run every `; run:` line of each file on the scheduled form and on the\n"
    "graph interpreter, print each difference, end with `N passed, M failed`.\n"
    "Exit 0 on success, 1 if a file is invalid, cannot be scheduled or (--check) an\n"
    "outcome differs, 2 on usage or I/O errors.\n";

static int print_schedule(const char *path, const SchedOptions *opt)
{
    int status = EXIT_OK;
    Module *m = load_module(path, true, &status);
    if (!m)
        return status;
    Diag d;
    diag_init(&d, m->file, stderr);
    print_externs(stdout, m);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Schedule *s = schedule_func(m->funcs[i], opt, &d);
        if (!s) {
            status = EXIT_FAIL;
            continue;
        }
        if (i || m->nexterns)
            fputc('\n', stdout);
        sched_print(stdout, s);
        for (uint32_t k = 0; k < m->nruns; k++)
            if (m->runs[k].func == i)
                print_runline(stdout, m, &m->runs[k]);
        schedule_free(s);
    }
    module_free(m);
    return status;
}

typedef struct { unsigned passed, failed; } Tally;

static void check_run(const Module *m, const RunLine *r, Interp *gi, CfgInterp *ci, Tally *t)
{
    uint64_t *args = calloc(r->nargs + 1, sizeof *args);
    Outcome *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!args || !a || !b)
        abort();
    runline_args(r, args);
    interp_call(gi, r->func, args, a);
    cfg_interp_call(ci, r->func, args, b);
    free(args);
    char why[300];
    if (outcome_equal(a, b, why, sizeof why)) {
        t->passed++;
    } else {
        char fa[256], fb[256];
        outcome_format(fa, sizeof fa, a);
        outcome_format(fb, sizeof fb, b);
        printf("%s:%u: @%s: graph interpreter: %s; scheduled form: %s (%s)%s%s\n", m->file, r->line,
               m->funcs[r->func]->name, fa, fb, why, b->kind == OUT_TRAP ? ": " : "",
               b->kind == OUT_TRAP ? b->reason : "");
        t->failed++;
    }
    free(a);
    free(b);
}

static int check_file(const char *path, const SchedOptions *opt, Tally *t)
{
    int status = EXIT_OK;
    Module *m = load_module(path, true, &status);
    if (!m)
        return status;
    Diag d;
    diag_init(&d, m->file, stderr);
    CfgInterp *ci = cfg_interp_new(m, NULL, opt, &d);
    if (!ci) {
        t->failed += m->nruns ? m->nruns : 1;
        module_free(m);
        return EXIT_FAIL;
    }
    Interp *gi = interp_new(m, NULL);
    for (uint32_t k = 0; k < m->nruns; k++)
        check_run(m, &m->runs[k], gi, ci, t);
    interp_free(gi);
    cfg_interp_free(ci);
    module_free(m);
    return status;
}

int cmd_sched(int argc, char **argv)
{
    if (wants_help(argc, argv, sched_usage))
        return EXIT_OK;
    SchedOptions opt = compile_sched_options(false); /* as circ compile schedules */
    bool check = false;
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-O0"))
            continue;
        if (!strcmp(argv[i], "--no-motion"))
            opt.no_motion = true;
        else if (!strcmp(argv[i], "--check"))
            check = true;
        else if (argv[i][0] == '-') {
            fputs(sched_usage, stderr);
            return EXIT_USAGE;
        } else
            nfiles++;
    }
    if (nfiles == 0 || (!check && nfiles != 1)) {
        fputs(sched_usage, stderr);
        return EXIT_USAGE;
    }
    int worst = EXIT_OK;
    Tally t = {0, 0};
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        int st = check ? check_file(argv[i], &opt, &t) : print_schedule(argv[i], &opt);
        if (st > worst)
            worst = st;
    }
    if (check) {
        printf("%u passed, %u failed\n", t.passed, t.failed);
        if (t.failed && worst == EXIT_OK)
            worst = EXIT_FAIL;
    }
    return worst;
}
