/* cmd_ir.c — `circ verify`, `circ print`, `circ dot`. */
#include "driver.h"

#include <string.h>

int cmd_verify(int argc, char **argv)
{
    if (wants_help(argc, argv,
                   "usage: circ verify FILE...\n"
                   "Parse and verify each file; every error is reported as FILE:LINE:COL: error: ...\n"
                   "Exit 0 if all are valid, 1 if any is invalid, 2 on usage or I/O errors.\n"))
        return EXIT_OK;
    if (argc < 2) {
        fprintf(stderr, "usage: circ verify FILE...\n");
        return EXIT_USAGE;
    }
    int worst = EXIT_OK;
    for (int i = 1; i < argc; i++) {
        int status = EXIT_OK;
        Module *m = load_module(argv[i], true, &status);
        module_free(m);
        if (status > worst)
            worst = status;
    }
    return worst;
}

static int one_file_command(int argc, char **argv, const char *usage, bool verify,
                            void (*emit)(FILE *, const Module *))
{
    if (wants_help(argc, argv, usage))
        return EXIT_OK;
    if (argc != 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    Module *m = load_module(argv[1], verify, &status);
    if (!m)
        return status;
    emit(stdout, m);
    module_free(m);
    return EXIT_OK;
}

int cmd_print(int argc, char **argv)
{
    return one_file_command(argc, argv,
                            "usage: circ print FILE\n"
                            "Print the module in canonical text form (parse -> print -> parse -> print is stable).\n"
                            "The file must parse; it need not verify.\n",
                            false, print_module);
}

int cmd_dot(int argc, char **argv)
{
    return one_file_command(argc, argv,
                            "usage: circ dot FILE\n"
                            "Write a Graphviz digraph of every circuit in FILE to stdout\n"
                            "(render with `dot -Tpng`). State gates are boxes, computation gates\n"
                            "ellipses, roots diamonds; state wires bold, dependency wires dashed,\n"
                            "data wires solid.\n",
                            true, dot_module);
}
