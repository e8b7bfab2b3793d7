/* reduce_check.c — the reducer's interestingness tests: the default one (the
 * differential check still reports a mismatch with the same signature), an external
 * script (C-Reduce convention, run with a deadline in its own process group), and the
 * campaign's hook that reduces a saved finding in place. */
#include "fuzz/reduce.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool reduce_write_file(const char *path, const Module *m)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return false;
    print_module(out, m);
    return fclose(out) == 0;
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

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* exit status of `sh -c CMD`, or -1 if it was killed at the deadline */
static int run_shell(const char *cmd, double timeout)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    double deadline = timeout > 0 ? clock_now() + timeout : 0;
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, timeout > 0 ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0)
            return -1;
        if (deadline && clock_now() > deadline) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool reduce_script_interesting(void *ctx, const Module *candidate)
{
    const ReduceScript *rs = ctx;
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/candidate-%ld.circ", rs->dir, (long)getpid());
    if (!reduce_write_file(path, candidate))
        return false;
    snprintf(cmd, sizeof cmd, "%s '%s'", rs->command, path);
    bool yes = run_shell(cmd, rs->timeout) == 0;
    remove(path);
    return yes;
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
    if (!ok) {
        module_free(m);
        return false;
    }
    ReduceCheck rc = {.check = *check};
    snprintf(rc.signature, sizeof rc.signature, "%s", signature);
    ReduceOptions ro = ctx ? *(const ReduceOptions *)ctx : (ReduceOptions){.max_seconds = 60};
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
    bool rewrote = st.input_interesting && st.gates_after < st.gates_before && reduce_write_file(path, r);
    module_free(r);
    module_free(m);
    return rewrote;
}
