/* report_dot.c — a finding's picture for the report: the program as `circ dot` draws
 * it (dot_module), laid out by Graphviz's `dot -Tsvg` in a child process (found on
 * PATH; none installed is a note, not an error), its ids prefixed so that several
 * pictures can share one page.  The child gets DOT_SECONDS. */
#include "fuzz/report_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { DOT_SECONDS = 20, DOT_MAX_GATES = 3000 };

/* m's DOT text in a temporary file of dir (unlinked: only the descriptor remains),
 * positioned at its start; -1 on failure */
static int dot_input(const Module *m, const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.dot.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    unlink(path);
    FILE *f = fdopen(dup(fd), "w");
    if (!f) {
        close(fd);
        return -1;
    }
    dot_module(f, m);
    bool ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* start `dot -Tsvg` reading in, writing to out, errors discarded, signals unblocked */
static int spawn_dot(pid_t *pid, int in, int out, int unused)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none;
    sigemptyset(&none);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_addclose(&fa, unused);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_init(&at);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    char *argv[] = {"dot", "-Tsvg", NULL};
    int rc = posix_spawnp(pid, "dot", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return rc;
}

/* everything fd gives until end of file or the deadline; NULL when late or failed */
static char *read_all(int fd, int seconds)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    time_t deadline = time(NULL) + seconds;
    bool ok = false;
    for (;;) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int left = (int)(deadline - time(NULL));
        if (left <= 0 || poll(&pf, 1, left * 1000) <= 0)
            break;
        char chunk[8192];
        ssize_t k = read(fd, chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            ok = k == 0;
            break;
        }
        fwrite(chunk, 1, (size_t)k, out);
    }
    fclose(out);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* the <svg> element of dot's output, with class "graph" and every id="X" made
 * id="PREFIX X"; NULL if there is none */
static char *inline_svg(const char *doc, const char *prefix)
{
    const char *s = strstr(doc, "<svg");
    if (!s)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    fputs("<svg class=\"graph\"", out);
    for (s += 4; *s; s++) {
        if (!strncmp(s, " id=\"", 5)) {
            fprintf(out, " id=\"%s", prefix);
            s += 4;
        } else
            fputc(*s, out);
    }
    fclose(out);
    return buf;
}

/* run dot on the DOT text in fd_in; its SVG document, or NULL with note */
static char *run_dot(int fd_in, char *note, size_t n)
{
    int p[2];
    if (pipe(p)) {
        snprintf(note, n, "no picture: %s", strerror(errno));
        return NULL;
    }
    pid_t pid;
    int rc = spawn_dot(&pid, fd_in, p[1], p[0]);
    close(p[1]);
    if (rc) {
        close(p[0]);
        snprintf(note, n, "no picture: Graphviz's dot cannot be run (%s); install graphviz", strerror(rc));
        return NULL;
    }
    char *doc = read_all(p[0], DOT_SECONDS);
    close(p[0]);
    if (!doc)
        kill(pid, SIGKILL);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (doc && WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
        return doc;
    snprintf(note, n, "no picture: dot -Tsvg %s", doc ? "failed" : "took too long");
    free(doc);
    return NULL;
}

char *report_dot_svg(const Module *m, const char *id_prefix, const char *tmp_dir, char *note, size_t n)
{
    uint64_t gates = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        gates += m->funcs[i]->circ->ngates;
    if (gates > DOT_MAX_GATES) {
        snprintf(note, n, "no picture: %llu gates are too many to draw (circ dot FILE | dot -Tsvg)",
                 (unsigned long long)gates);
        return NULL;
    }
    int fd = dot_input(m, tmp_dir);
    if (fd < 0) {
        snprintf(note, n, "no picture: cannot write its DOT text: %s", strerror(errno));
        return NULL;
    }
    char *doc = run_dot(fd, note, n);
    close(fd);
    if (!doc)
        return NULL;
    char *svg = inline_svg(doc, id_prefix);
    free(doc);
    if (!svg)
        snprintf(note, n, "no picture: dot wrote no <svg>");
    return svg;
}
