/* circ_pm.c — the public pass manager (include/circ/pass.h) over compiler/opt's, and
 * the check and the reducer with a registry's passes.  A circ_pass_manager keeps
 * its settings only: each run makes a PassManager with the built-in passes and the
 * registry's, whose log (verifier errors) goes to memory for the error message. */
#include "api/api_internal.h"

#include "fuzz/check.h"
#include "fuzz/reduce.h"

#include <stdlib.h>
#include <string.h>

struct circ_pass_manager {
    const circ_pass_registry *passes;
    int level;
    char *list;         /* the pass list, NULL: the -O level's pipeline */
    bool verify_each;
    uint64_t changes;
};

circ_pass_manager *circ_pass_manager_new(const circ_pass_registry *passes)
{
    circ_pass_manager *pm = calloc(1, sizeof *pm);
    if (pm) {
        pm->passes = passes;
        pm->level = 2;
        pm->verify_each = true;
    }
    return pm;
}

void circ_pass_manager_free(circ_pass_manager *pm)
{
    if (pm)
        free(pm->list);
    free(pm);
}

/* a PassManager with pm's passes and pipeline (log: where it writes); NULL with the
 * reason in err */
static PassManager *make(const circ_pass_manager *pm, FILE *log, char *err, size_t errn)
{
    PassOptions po = {.verify_each = pm->verify_each, .bisect_limit = -1, .log = log};
    PassManager *p = pm_new(&po);
    if (!p) {
        api_error(err, errn, "out of memory");
        return NULL;
    }
    api_register_passes(p, pm->passes);
    char why[256];
    if (pm->list && !pm_set_passes(p, pm->list, why, sizeof why)) {
        api_error(err, errn, "%s", why);
        pm_free(p);
        return NULL;
    }
    if (!pm->list)
        pm_set_level(p, pm->level);
    return p;
}

int circ_pass_manager_set_pipeline(circ_pass_manager *pm, int level, const char *passes, char *err, size_t errn)
{
    char *list = passes ? strdup(passes) : NULL;
    if (passes && !list)
        return api_error(err, errn, "out of memory"), -1;
    circ_pass_manager trial = *pm;
    trial.level = level;
    trial.list = list;
    PassManager *p = make(&trial, NULL, err, errn);
    if (!p) {
        free(list);
        return -1;
    }
    pm_free(p);
    free(pm->list);
    pm->list = list;
    pm->level = level;
    return 0;
}

void circ_pass_manager_set_verify_each(circ_pass_manager *pm, int on) { pm->verify_each = on != 0; }

uint64_t circ_pass_manager_changes(const circ_pass_manager *pm) { return pm->changes; }

/* "LAST LINE (FIRST LINE)" of a verifier log: the pass and the first error */
static void log_summary(const char *log, char *err, size_t errn)
{
    const char *first_end = strchr(log, '\n');
    size_t n = strlen(log);
    while (n && log[n - 1] == '\n')
        n--;
    size_t last = n;
    while (last && log[last - 1] != '\n')
        last--;
    int first_len = first_end ? (int)(first_end - log) : (int)n;
    if (last == 0)
        api_error(err, errn, "%.*s", (int)n, log);
    else
        api_error(err, errn, "%.*s (%.*s)", (int)(n - last), log + last, first_len, log);
}

int circ_pass_manager_run(circ_pass_manager *pm, circ_module *m, char *err, size_t errn)
{
    char *text = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&text, &len);
    if (!log)
        return api_error(err, errn, "out of memory"), -1;
    PassManager *p = make(pm, log, err, errn);
    int failed = p ? pm_run(p, API_M(m)) : -1;
    pm->changes = p ? pm_changes(p) : 0;
    pm_free(p);
    fclose(log);
    if (failed > 0)
        log_summary(text ? text : "", err, errn);
    free(text);
    return failed ? -1 : 0;
}

int circ_pass_manager_list(const circ_pass_manager *pm, FILE *out)
{
    PassManager *p = make(pm, NULL, NULL, 0);
    if (!p)
        return -1;
    pm_list_passes(p, out);
    pm_free(p);
    return ferror(out) ? -1 : 0;
}

/* ---- checking and reducing -------------------------------------------------------------- */
/* the check's options for targets, tv and a registry's passes; false with the reason
 * in why */
static bool check_options(CheckOptions *o, const char *targets, int tv, const circ_pass_registry *passes,
                          char *why, size_t n)
{
    check_options_default(o);
    o->check_expectations = true;
    o->targets = targets;
    o->tv = tv != 0;
    o->extra_passes = api_registry_passes(passes, &o->nextra_passes);
    return check_options_validate(o, why, n);
}

int circ_check_passes(const circ_module *m, const char *targets, int tv, const circ_pass_registry *passes,
                      circ_check_result *res)
{
    memset(res, 0, sizeof *res);
    CheckOptions o;
    if (!check_options(&o, targets, tv, passes, res->detail, sizeof res->detail))
        return -1;
    CheckResult *r = malloc(sizeof *r);
    if (!r)
        return -1;
    bool ok = check_module(API_M(m), &o, r);
    res->mismatch = !ok;
    snprintf(res->signature, sizeof res->signature, "%s", r->signature);
    snprintf(res->detail, sizeof res->detail, "%s", r->detail);
    res->proved = r->tv.proved + r->tv.proved_upto;
    res->refuted = r->tv.refuted;
    res->unknown = r->tv.unknown;
    free(r);
    return ok ? 0 : 1;
}

/* the signature of m's first mismatch into rc; false if there is none */
static bool find_signature(const Module *m, ReduceCheck *rc)
{
    CheckResult *res = malloc(sizeof *res);
    bool found = res && !check_module(m, &rc->check, res);
    if (found)
        snprintf(rc->signature, sizeof rc->signature, "%s", res->signature);
    free(res);
    return found;
}

int circ_reduce(const circ_module *m, const char *targets, const circ_pass_registry *passes, double max_seconds,
                circ_module **out, char *signature, size_t sign)
{
    *out = NULL;
    ReduceCheck *rc = calloc(1, sizeof *rc);
    char why[512];
    if (!rc || !check_options(&rc->check, targets, 0, passes, why, sizeof why)) {
        api_error(signature, sign, "%s", rc ? why : "out of memory");
        free(rc);
        return -1;
    }
    rc->check.interp.max_steps = reduce_step_budget(API_M(m));
    int status = 1;
    if (find_signature(API_M(m), rc)) {
        ReduceOptions ro = {.interesting = reduce_check_interesting, .ctx = rc, .max_seconds = max_seconds};
        *out = (circ_module *)reduce_module(API_M(m), &ro, NULL);
        status = *out ? 0 : -1;
        api_error(signature, sign, "%s", *out ? rc->signature : "out of memory");
    } else
        api_error(signature, sign, "%s", "");
    free(rc);
    return status;
}

unsigned circ_module_gate_count(const circ_module *m) { return reduce_gate_count(API_M(m)); }
