/* peak_rss.c — runs a command and prints its wall time and peak resident set size.
 * usage: peak_rss [--max-mb N] LABEL CMD [ARG...]
 * Prints `LABEL: S.SS s, M MB peak RSS, exit E` to stderr; the command's output is
 * left alone.  Exits with the command's status, or 3 if the peak exceeded N MiB, or
 * 4 if the command was killed by a signal. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* run argv, wait for it; its status and resource usage */
static int run(char **argv, struct rusage *ru)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    int status = 0;
    if (wait4(pid, &status, 0, ru) < 0)
        return -1;
    return status;
}

int main(int argc, char **argv)
{
    int i = 1;
    long max_mb = 0;
    if (i + 1 < argc && !strcmp(argv[i], "--max-mb")) {
        max_mb = strtol(argv[i + 1], NULL, 10);
        i += 2;
    }
    if (argc - i < 2) {
        fputs("usage: peak_rss [--max-mb N] LABEL CMD [ARG...]\n", stderr);
        return 2;
    }
    const char *label = argv[i];
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    double t0 = now();
    int status = run(argv + i + 1, &ru);
    double secs = now() - t0;
    long mb = ru.ru_maxrss / 1024; /* KiB on Linux */
    int code = status < 0 ? 4 : WIFEXITED(status) ? WEXITSTATUS(status) : 4;
    fprintf(stderr, "%s: %.2f s, %ld MB peak RSS, exit %d%s\n", label, secs, mb,
            WIFSIGNALED(status) ? 128 + WTERMSIG(status) : code,
            max_mb && mb > max_mb ? " (over the limit)" : "");
    if (code == 0 && max_mb && mb > max_mb)
        return 3;
    return code;
}
