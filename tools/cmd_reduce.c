/* cmd_reduce.c — `circ reduce`: minimize a program while the differential check keeps
 * reporting a mismatch with the same signature (or while an external test script
 * says the candidate is interesting), printing progress; writes the reduced module
 * with its run lines. */
#include "driver.h"
#include "compiler/target.h"
#include "fuzz/reduce.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char reduce_usage[] =
    "usage: circ reduce FILE [-o OUT] [--test CMD] [--jobs J] [--timeout SEC]\n"
    "                   [--max-seconds SEC] [-O0|-O1|-O2] [--targets LIST] [--isa LIST] [-q]\n"
    "Shrink FILE to a small program that still shows the same problem, and write it\n"
    "(with its `; run:` lines, expectations from the interpreter) to OUT or stdout.\n"
    "By default a candidate is kept when `circ check` still finds a mismatch with the\n"
    "same signature (stage, ISA, outcome kinds) as FILE.\n"
    "  -o OUT            write the result to OUT (default: stdout)\n"
    "  --test CMD        instead run `CMD CANDIDATE.circ` through /bin/sh; exit status 0\n"
    "                    means interesting (the C-Reduce convention)\n"
    "  --jobs J          test J candidates at a time in worker processes (same result)\n"
    "  --timeout SEC     per-candidate time limit; a slower test is killed (uninteresting)\n"
    "  --max-seconds SEC stop reducing after SEC seconds (the result is still interesting)\n"
    "  -O0|-O1|-O2, --targets LIST, --isa LIST   the check's stages, as in `circ check`\n"
    "  -q                no progress lines\n"
    "Exit 0 when reduced, 1 if FILE itself is not interesting (no mismatch / the test\n"
    "rejects it), 2 on usage or I/O errors.\n";

typedef struct {
    const char *file, *out, *test;
    ReduceOptions ro;
    CheckOptions check;
    bool quiet;
} ReduceArgs;

static bool parse_isa_list(const char *s, uint32_t *mask)
{
    const char *bad;
    size_t badlen;
    return target_parse_isa_list(s, mask, &bad, &badlen);
}

static bool parse_number(const char *s, double lo, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !(v >= lo) || v > 1e9)
        return false;
    *out = v;
    return true;
}

static bool parse_one(int argc, char **argv, int *i, ReduceArgs *a)
{
    const char *s = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    double num;
    if (!strcmp(s, "-q"))
        return a->quiet = true;
    if (!strcmp(s, "-O0") || !strcmp(s, "-O1") || !strcmp(s, "-O2")) {
        a->check.levels = 1u << (s[2] - '0');
        return true;
    }
    if (!v)
        return false;
    ++*i;
    if (!strcmp(s, "-o"))
        a->out = v;
    else if (!strcmp(s, "--test"))
        a->test = v;
    else if (!strcmp(s, "--targets"))
        a->check.targets = v;
    else if (!strcmp(s, "--isa"))
        return parse_isa_list(v, &a->check.isa_mask);
    else if (!strcmp(s, "--jobs") && parse_number(v, 1, &num) && num <= 64)
        a->ro.jobs = (uint32_t)num;
    else if (!strcmp(s, "--timeout") && parse_number(v, 0, &num))
        a->ro.timeout = num;
    else if (!strcmp(s, "--max-seconds") && parse_number(v, 0, &num))
        a->ro.max_seconds = num;
    else
        return false;
    return true;
}

static bool parse_args(int argc, char **argv, ReduceArgs *a)
{
    memset(a, 0, sizeof *a);
    check_options_default(&a->check);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            if (!parse_one(argc, argv, &i, a)) {
                fprintf(stderr, "circ reduce: bad argument '%s'\n", argv[i]);
                return false;
            }
        } else if (!a->file) {
            a->file = argv[i];
        } else {
            fprintf(stderr, "circ reduce: one file at a time ('%s')\n", argv[i]);
            return false;
        }
    }
    if (!a->file)
        fprintf(stderr, "circ reduce: no input file\n");
    return a->file != NULL;
}

/* the signature of FILE's first mismatch; false if the check finds none */
static bool original_signature(const Module *m, ReduceCheck *rc)
{
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        return false;
    bool found = !check_module(m, &rc->check, res);
    if (found)
        snprintf(rc->signature, sizeof rc->signature, "%s", res->signature);
    free(res);
    return found;
}

static int write_result(const ReduceArgs *a, const Module *r)
{
    if (!a->out) {
        print_module(stdout, r);
        return EXIT_OK;
    }
    if (!reduce_write_file(a->out, r)) {
        fprintf(stderr, "circ reduce: cannot write '%s'\n", a->out);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int reduce_with(ReduceArgs *a, const Module *m)
{
    ReduceStats st;
    a->ro.progress = a->quiet ? NULL : stderr;
    Module *r = reduce_module(m, &a->ro, &st);
    int rc = EXIT_FAIL;
    if (!st.input_interesting)
        fprintf(stderr, "circ reduce: %s is not interesting to begin with\n", a->file);
    else {
        if (!a->quiet)
            fprintf(stderr, "reduce: done: %u -> %u gates, %llu candidates tried, %llu kept, %.1fs%s\n",
                    st.gates_before, st.gates_after, (unsigned long long)st.tried,
                    (unsigned long long)st.accepted, st.seconds, st.timed_out ? " (time limit)" : "");
        rc = write_result(a, r);
    }
    module_free(r);
    return rc;
}

int cmd_reduce(int argc, char **argv)
{
    if (wants_help(argc, argv, reduce_usage))
        return EXIT_OK;
    ReduceArgs a;
    if (!parse_args(argc, argv, &a)) {
        fputs(reduce_usage, stderr);
        return EXIT_USAGE;
    }
    int status;
    Module *m = load_module(a.file, true, &status);
    if (!m)
        return status;
    int rc;
    if (a.test) {
        char dir[] = "/tmp/circ-reduce-XXXXXX";
        if (!mkdtemp(dir)) {
            fprintf(stderr, "circ reduce: cannot make a temporary directory\n");
            module_free(m);
            return EXIT_USAGE;
        }
        ReduceScript rs = {a.test, dir, a.ro.timeout};
        a.ro.interesting = reduce_script_interesting;
        a.ro.ctx = &rs;
        a.ro.timeout = 0; /* the script runner kills the script's process group itself */
        rc = reduce_with(&a, m);
        rmdir(dir);
    } else {
        ReduceCheck *chk = calloc(1, sizeof *chk);
        chk->check = a.check;
        /* candidates that loop give up early, in the check as in the reducer */
        if (!chk->check.interp.max_steps)
            chk->check.interp.max_steps = reduce_step_budget(m);
        if (!original_signature(m, chk)) {
            fprintf(stderr, "circ reduce: %s: the check finds no mismatch to reduce\n", a.file);
            rc = EXIT_FAIL;
        } else {
            if (!a.quiet)
                fprintf(stderr, "reduce: keeping signature %s\n", chk->signature);
            a.ro.interesting = reduce_check_interesting;
            a.ro.ctx = chk;
            rc = reduce_with(&a, m);
        }
        free(chk);
    }
    module_free(m);
    return rc;
}
