/* circ.c — the command-line driver: dispatches to the subcommands of commands.def and
 * checks that what they wrote to standard output got there. */
#include "driver.h"
#include "compiler/target.h"

#include <errno.h>
#include <string.h>

typedef struct { const char *name; int (*fn)(int, char **); const char *summary; } Command;

static const Command commands[] = {
#define CMD(name, fn, summary) {#name, fn, summary},
#include "commands.def"
#undef CMD
};

static void usage(FILE *out)
{
    fprintf(out, "usage: circ COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`circ COMMAND --help` describes one command.\n"
                 "Exit codes: 0 success, 1 the checked property failed, 2 usage or I/O error.\n");
}

const char *usage_text(const char *usage, char *buf, size_t n)
{
    char list[128], either[128];
    target_names(list, sizeof list, ", ", ", ");
    target_names(either, sizeof either, ", ", " or ");
    size_t at = 0;
    for (const char *p = usage; *p && at + 1 < n;) {
        const char *name = !strncmp(p, "{TARGETS}", 9) ? list : !strncmp(p, "{TARGETS_OR}", 12) ? either : NULL;
        if (name) {
            int k = snprintf(buf + at, n - at, "%s", name);
            at = k > 0 && (size_t)k < n - at ? at + (size_t)k : n - 1;
            p += name == list ? 9 : 12;
        } else {
            buf[at++] = *p++;
        }
    }
    if (n)
        buf[at < n ? at : n - 1] = '\0';
    return buf;
}

const Target *driver_cpu_level(const char *cmd, const Target *t, const char *cpu)
{
    if (!cpu)
        return t;
    const Target *level = t ? target_level(t, cpu) : NULL;
    char names[128];
    if (!t)
        fprintf(stderr, "circ %s: --cpu needs a machine target (%s)\n", cmd,
                target_names(names, sizeof names, ", ", " or "));
    else if (!level)
        fprintf(stderr, "circ %s: unknown --cpu '%s' for %s (%s)\n", cmd, cpu, t->name,
                target_level_names(t, names, sizeof names, ", "));
    return level;
}

bool wants_help(int argc, char **argv, const char *text)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(text, stdout);
            return true;
        }
    return false;
}

Module *load_module(const char *path, bool verify, int *status)
{
    Diag d;
    diag_init(&d, path, stderr);
    Module *m = parse_file(path, &d);
    if (!m) {
        *status = d.nerrors ? EXIT_FAIL : EXIT_USAGE;
        return NULL;
    }
    if (verify && verify_module(m, &d)) {
        module_free(m);
        *status = EXIT_FAIL;
        return NULL;
    }
    return m;
}

/* a command's exit status, or 2 with a message if writing its standard output failed
 * (a full disk, a closed pipe, /dev/full): flush, the stream's error flag, close */
static int output_checked(const char *cmd, int status)
{
    errno = 0;
    bool ok = fflush(stdout) == 0 && !ferror(stdout);
    int err = errno;
    if (fclose(stdout) && ok) {
        ok = false;
        err = errno;
    }
    if (ok)
        return status;
    fprintf(stderr, "circ %s: error writing standard output: %s\n", cmd, err ? strerror(err) : "write error");
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return output_checked("help", EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return output_checked(argv[1], commands[i].fn(argc - 1, argv + 1));
    fprintf(stderr, "circ: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
