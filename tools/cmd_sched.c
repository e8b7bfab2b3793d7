/* cmd_sched.c — `circ sched`: print the scheduled form (blocks of gates) of a file. */
#include "driver.h"

#include "compiler/sched/sched.h"

#include <string.h>

static const char sched_usage[] =
    "usage: circ sched FILE [-O0] [--no-motion]\n"
    "Schedule every function of FILE (global code motion onto the blocks of its state\n"
    "graph) and print the result in the parser's own syntax: the gates grouped by block\n"
    "in block order, each block introduced by a comment line\n"
    "  ; block bN (loop depth D, idom bK) preds ... succs ...\n"
    "and the parallel copies of each edge into a join as comments; the output parses back\n"
    "to the same circuit.  -O0 (the default) schedules the file as given;\n"
    "--no-motion places every gate at its latest legal block (no hoisting).\n"
    "Exit 0 on success, 1 if the file is invalid or a function cannot be scheduled,\n"
    "2 on usage or I/O errors.\n";

int cmd_sched(int argc, char **argv)
{
    if (wants_help(argc, argv, sched_usage))
        return EXIT_OK;
    const char *path = NULL;
    SchedOptions opt = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-O0"))
            continue;
        if (!strcmp(argv[i], "--no-motion"))
            opt.no_motion = true;
        else if (argv[i][0] == '-' || path) {
            fputs(sched_usage, stderr);
            return EXIT_USAGE;
        } else
            path = argv[i];
    }
    if (!path) {
        fputs(sched_usage, stderr);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    Module *m = load_module(path, true, &status);
    if (!m)
        return status;
    Diag d;
    diag_init(&d, m->file, stderr);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Schedule *s = schedule_func(m->funcs[i], &opt, &d);
        if (!s) {
            status = EXIT_FAIL;
            continue;
        }
        if (i)
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
