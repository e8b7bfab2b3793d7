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

/* t's CPU level named cpu (--cpu; NULL: t itself); NULL after a message on stderr
 * ("circ CMD: unknown --cpu 'x' for TARGET (baseline, v3)") if there is none */
struct Target;
const struct Target *driver_cpu_level(const char *cmd, const struct Target *t, const char *cpu);

/* true if argv has -h or --help; prints usage to stdout */
bool wants_help(int argc, char **argv, const char *usage);
/* parse and verify one file; reports errors on stderr; *status gets 1 (invalid) or
 * 2 (I/O) on failure */
Module *load_module(const char *path, bool verify, int *status);
/* `circ compile FILE --target c`: the C of FILE after the passes of opt_level or
 * passes, symbols after prefix (NULL: none), to out (NULL: standard output); an
 * exit status (cmd_compile_c.c) */
int compile_to_c(const char *file, int opt_level, const char *passes, const char *prefix, const char *out);

/* --status-interval S (tools/status_option.c): 1 if argv[*i] was it (seconds > 0 in
 * *seconds), 0 if not, -1 with a message on stderr (naming cmd) */
int status_interval_option(int argc, char **argv, int *i, double *seconds, const char *cmd);

/* --load-pass-plugin=PATH or --load-pass-plugin PATH (tools/plugins.c): 1 if argv[*i]
 * was one (the plugin loaded into *reg, made on first use; the caller frees it with
 * circ_pass_registry_free), 0 if not, -1 with a message on stderr (naming cmd) */
struct circ_pass_registry;
int plugin_option(int argc, char **argv, int *i, struct circ_pass_registry **reg, const char *cmd);
/* the --load-pass-plugin=PATH options of argv, each after a space, into buf ("" if
 * none): what a command that reproduces a finding needs */
void plugin_reproduce_args(int argc, char **argv, char *buf, size_t n);

#endif
