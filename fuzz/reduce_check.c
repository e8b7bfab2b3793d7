/* reduce_check.c — the reducer's interestingness tests: the default one (the
 * differential check still reports a mismatch with the same signature), an external
 * script (C-Reduce convention; the reducer enforces its time limits), the campaign's
 * hook that reduces a finding, and writing results with their provenance header. */
#include "fuzz/reduce.h"
#include "fuzz/atomic_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    const char *header;
    uint32_t gates_before;
    const Module *m;
} ReducedText;

static bool fill_reduced(FILE *f, void *ctx)
{
    const ReducedText *t = ctx;
    if (t->header)
        fputs(t->header, f);
    if (t->gates_before)
        fprintf(f, "; reduced by circ reduce from %u to %u gates\n", t->gates_before, reduce_gate_count(t->m));
    print_module(f, t->m);
    return true;
}

bool reduce_write_reduced(const char *path, const char *header, uint32_t gates_before, const Module *m)
{
    AtomicWriter w;
    atomic_writer_init(&w);
    ReducedText t = {header, gates_before, m};
    return atomic_write_file(&w, path, AW_REPLACE, fill_reduced, &t);
}

bool reduce_write_file(const char *path, const Module *m) { return reduce_write_reduced(path, NULL, 0, m); }

/* a leading comment line that is not a run line */
static bool header_line(const char *line)
{
    return line[0] == ';' && strncmp(line, "; run:", 6) && strncmp(line, ";run:", 5);
}

char *reduce_file_header(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = NULL, line[1024];
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fclose(f);
        return NULL;
    }
    bool whole = true; /* the previous fgets ended a line */
    while (fgets(line, sizeof line, f) && (!whole || header_line(line))) {
        fputs(line, mem);
        whole = strchr(line, '\n') != NULL;
    }
    if (!whole)
        fputc('\n', mem);
    fclose(f);
    fclose(mem);
    return text;
}

bool reduce_check_interesting(void *ctx, const Module *candidate)
{
    ReduceCheck *rc = ctx;
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        abort();
    bool yes = !check_module(candidate, &rc->check, res) && !strcmp(res->signature, rc->signature);
    free(res);
    return yes;
}

/* exit status of `sh -c CMD` (its output discarded), -1 if it did not exit */
static int run_shell(const char *cmd)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool reduce_script_interesting(void *ctx, const Module *candidate)
{
    const ReduceScript *rs = ctx;
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/candidate-%ld.circ", rs->dir, (long)getpid());
    if (!atomic_write_file(NULL, path, AW_REPLACE, fill_reduced, &(ReducedText){NULL, 0, candidate}))
        return false;
    snprintf(cmd, sizeof cmd, "%s '%s'", rs->command, path);
    bool yes = run_shell(cmd) == 0;
    remove(path);
    return yes;
}

Module *reduce_campaign_finding(const Module *m, const char *signature, const CheckOptions *check,
                                double seconds_left, void *ctx)
{
    ReduceCheck rc = {.check = *check};
    snprintf(rc.signature, sizeof rc.signature, "%s", signature);
    ReduceOptions ro = ctx ? *(const ReduceOptions *)ctx : (ReduceOptions){.max_seconds = 60};
    if (seconds_left > 0 && (ro.max_seconds <= 0 || ro.max_seconds > seconds_left))
        ro.max_seconds = seconds_left;
    ro.interesting = reduce_check_interesting;
    ro.ctx = &rc;
    ReduceStats st;
    /* candidates that loop give up early; if the finding needs the full budget to
       show, reduce with the campaign's own */
    if (!rc.check.interp.max_steps)
        rc.check.interp.max_steps = reduce_step_budget(m);
    Module *r = reduce_module(m, &ro, &st);
    if (!st.input_interesting && rc.check.interp.max_steps != check->interp.max_steps) {
        module_free(r);
        rc.check = *check;
        r = reduce_module(m, &ro, &st);
    }
    if (st.input_interesting && st.gates_after < st.gates_before)
        return r;
    module_free(r);
    return NULL;
}

bool reduce_campaign_file(const char *path, const char *signature, const CheckOptions *check, void *ctx)
{
    Diag d;
    FILE *null = fopen("/dev/null", "w");
    diag_init(&d, path, null ? null : stderr);
    Module *m = parse_file(path, &d);
    bool ok = m && verify_module(m, &d) == 0;
    if (null)
        fclose(null);
    Module *r = ok ? reduce_campaign_finding(m, signature, check, 0, ctx) : NULL;
    char *header = r ? reduce_file_header(path) : NULL;
    bool rewrote = r && header && reduce_write_reduced(path, header, reduce_gate_count(m), r);
    free(header);
    module_free(r);
    module_free(m);
    return rewrote;
}
