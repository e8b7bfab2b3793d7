/* driver.h — shared pieces of the circ command-line driver. */
#ifndef CIRC_DRIVER_H
#define CIRC_DRIVER_H

#include "compiler/ir/ir.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

#define CMD(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef CMD

/* usage with "{TARGETS}" replaced by the registry's target names ("x86-64,
 * arm64") and "{TARGETS_OR}" by them joined with "or" ("x86-64 or arm64"),
 * written to buf (truncated to n); buf */
const char *usage_text(const char *usage, char *buf, size_t n);

/* true if argv has -h or --help; prints usage to stdout */
bool wants_help(int argc, char **argv, const char *usage);
/* parse and verify one file; reports errors on stderr; *status gets 1 (invalid) or
 * 2 (I/O) on failure */
Module *load_module(const char *path, bool verify, int *status);
/* `circ compile FILE --target c`: the C of FILE after the passes of opt_level or
 * passes, symbols after prefix (NULL: none), to out (NULL: standard output); an
 * exit status (cmd_compile_c.c) */
int compile_to_c(const char *file, int opt_level, const char *passes, const char *prefix, const char *out);

#endif
