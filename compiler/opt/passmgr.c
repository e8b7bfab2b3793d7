/* passmgr.c — the pass manager: a registry (passes.def plus plugins), pipelines
 * (-O0/-O1/-O2 or an explicit list), and the instrumentation around every pass
 * application: --verify-each, --print-after, --opt-bisect-limit; in fixpoint rounds,
 * applications that cannot change anything (what they read is unchanged since they
 * last changed nothing) are skipped.
 * Needs: the verifier and printer of compiler/ir. */
#include "compiler/opt/opt.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_PASSES = 64, MAX_PIPELINE = 64, DEFAULT_ROUNDS = 8, INLINE_BUDGET = 4000 };

struct PassManager {
    PassInfo registry[MAX_PASSES];
    uint32_t npasses;
    const PassInfo *pipeline[MAX_PIPELINE];
    uint32_t npipeline;
    bool iterate;
    PassOptions opt;
    uint64_t changes;
};

static const PassInfo builtin_passes[] = {
#define PASS(name, fn, summary) {#name, fn, summary},
#include "passes.def"
#undef PASS
};

PassManager *pm_new(const PassOptions *opt)
{
    /* not cleared: registry and pipeline entries are read only below their counts */
    PassManager *pm = malloc(sizeof *pm);
    if (!pm)
        return NULL;
    pm->npasses = pm->npipeline = 0;
    pm->iterate = false;
    pm->changes = 0;
    if (opt)
        pm->opt = *opt;
    else
        pm->opt = (PassOptions){.bisect_limit = -1};
    if (!pm->opt.max_rounds)
        pm->opt.max_rounds = DEFAULT_ROUNDS;
    for (size_t i = 0; i < sizeof builtin_passes / sizeof builtin_passes[0]; i++)
        pass_register(pm, &builtin_passes[i]);
    return pm;
}

void pm_free(PassManager *pm) { free(pm); }

static FILE *log_of(const PassManager *pm) { return pm->opt.log ? pm->opt.log : stderr; }

const PassInfo *pass_find(const PassManager *pm, const char *name, size_t n)
{
    for (uint32_t i = 0; i < pm->npasses; i++)
        if (strlen(pm->registry[i].name) == n && !memcmp(pm->registry[i].name, name, n))
            return &pm->registry[i];
    return NULL;
}

bool pass_register(PassManager *pm, const PassInfo *info)
{
    if (!info || !info->name || !info->run || pm->npasses == MAX_PASSES ||
        pass_find(pm, info->name, strlen(info->name)))
        return false;
    pm->registry[pm->npasses++] = *info;
    return true;
}

void pm_list_passes(const PassManager *pm, FILE *out)
{
    for (uint32_t i = 0; i < pm->npasses; i++)
        fprintf(out, "  %-13s %s\n", pm->registry[i].name, pm->registry[i].summary ? pm->registry[i].summary : "");
}

static void set_pipeline(PassManager *pm, const char *const *names, uint32_t n, bool iterate)
{
    pm->npipeline = 0;
    for (uint32_t i = 0; i < n && pm->npipeline < MAX_PIPELINE; i++) {
        const PassInfo *p = pass_find(pm, names[i], strlen(names[i]));
        if (p)
            pm->pipeline[pm->npipeline++] = p;
    }
    pm->iterate = iterate;
}

void pm_set_level(PassManager *pm, int level)
{
    static const char *const o1[] = {"fold", "dce", "simplify-cfg"};
    /* ifconvert after simplify-cfg (constant branches and empty diamonds are gone,
     * inlined callees' diamonds are visible) and before dce (which deletes the
     * condition and arm gates nothing uses any more); fold then sees the SELECTs */
    static const char *const o2[] = {"fold", "gvn", "lse", "inline", "simplify-cfg", "ifconvert", "dce"};
    if (level <= 0)
        set_pipeline(pm, NULL, 0, false);
    else if (level == 1)
        set_pipeline(pm, o1, 3, false);
    else
        set_pipeline(pm, o2, 7, true);
}

bool pm_set_passes(PassManager *pm, const char *list, char *err, size_t errn)
{
    pm->npipeline = 0;
    pm->iterate = false;
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            const PassInfo *info = pass_find(pm, p, n);
            if (!info) {
                snprintf(err, errn, "unknown pass '%.*s' (circ opt --list-passes names them)", (int)n, p);
                return false;
            }
            if (pm->npipeline == MAX_PIPELINE) {
                snprintf(err, errn, "too many passes (at most %d)", MAX_PIPELINE);
                return false;
            }
            pm->pipeline[pm->npipeline++] = info;
        }
        p += n + (e != NULL);
    }
    return true;
}

void pm_set_iterate(PassManager *pm, bool iterate) { pm->iterate = iterate; }

uint64_t pm_changes(const PassManager *pm) { return pm->changes; }

static bool wants_dump(const PassManager *pm, const PassInfo *p)
{
    const char *pa = pm->opt.print_after;
    return pa && (!strcmp(pa, "all") || !strcmp(pa, p->name));
}

/* one application of pass p to f; -1 on verifier failure, else 1 if it changed f */
static int apply(PassManager *pm, PassContext *ctx, const PassInfo *p, Func *f)
{
    FILE *log = log_of(pm);
    ctx->applications++;
    if (pm->opt.bisect_limit >= 0) {
        bool run = ctx->applications <= (uint64_t)pm->opt.bisect_limit;
        fprintf(log, "; bisect: %s pass (%llu) %s on @%s\n", run ? "running" : "NOT running",
                (unsigned long long)ctx->applications, p->name, f->name);
        if (!run)
            return 0;
    }
    ctx->pass = p;
    bool changed = p->run(ctx, f);
    pm->changes += changed;
    if (wants_dump(pm, p)) {
        fprintf(log, "; after %s on @%s\n", p->name, f->name);
        print_module(log, ctx->module);
    }
    if (pm->opt.verify_each) {
        Diag d;
        diag_init(&d, ctx->module->file, log);
        int errors = verify_func(f, &d);
        if (errors) {
            fprintf(log, "%s: error: in @%s: the circuit is invalid after pass '%s' (%d error%s)\n",
                    ctx->module->file, f->name, p->name, errors, errors == 1 ? "" : "s");
            return -errors;
        }
    }
    return changed;
}

/* Fixpoint rounds repeat applications that cannot change anything: a pass is a
 * deterministic function of what it reads, so an application that changed nothing
 * changes nothing again while what it read is unchanged.  An application that added
 * gates counts as a change even when it killed them again and reports none (lse's
 * abandoned forwarding leaves dead gates, and gate ids must come out the same).  Builtin passes other than
 * inline read only their function; inline (and any plugin) reads the whole module.
 * Stamps: a function's (or the module's) count of changes so far; an application is
 * skipped when it last ran without change at the current stamp.  Skipping is off
 * under instrumentation (bisect counts, dumps and verification see every application). */
typedef struct {
    uint64_t module_stamp;  /* changes to any function */
    uint64_t *func_stamp;   /* per function: module_stamp at its last change */
    uint64_t *clean_at;     /* per (function, pipeline slot): stamp + 1 of its last clean run; 0 never */
    bool *reads_module;     /* per pipeline slot */
} Stamps;

static bool reads_only_its_function(const PassInfo *p)
{
    for (size_t i = 0; i < sizeof builtin_passes / sizeof builtin_passes[0]; i++)
        if (p->run == builtin_passes[i].run)
            return p->run != opt_inline;
    return false;
}

static bool stamps_init(Stamps *s, const PassManager *pm, const Module *m)
{
    memset(s, 0, sizeof *s);
    if (!pm->iterate || pm->opt.bisect_limit >= 0 || pm->opt.print_after || pm->opt.verify_each)
        return false;
    size_t slots = (size_t)m->nfuncs * pm->npipeline;
    s->func_stamp = calloc(m->nfuncs + 1, sizeof *s->func_stamp);
    s->clean_at = calloc(slots + 1, sizeof *s->clean_at);
    s->reads_module = calloc(pm->npipeline + 1, sizeof *s->reads_module);
    if (!s->func_stamp || !s->clean_at || !s->reads_module)
        abort();
    for (uint32_t k = 0; k < pm->npipeline; k++)
        s->reads_module[k] = !reads_only_its_function(pm->pipeline[k]);
    return true;
}

static void stamps_free(Stamps *s)
{
    free(s->func_stamp);
    free(s->clean_at);
    free(s->reads_module);
}

static uint64_t stamp_of(const Stamps *s, uint32_t fi, uint32_t k)
{
    return s->reads_module[k] ? s->module_stamp : s->func_stamp[fi];
}

/* one application through the stamps (NULL: no skipping) */
static int apply_stamped(PassManager *pm, PassContext *ctx, Stamps *s, uint32_t fi, uint32_t k)
{
    uint32_t slot = fi * pm->npipeline + k;
    if (s && s->clean_at[slot] == stamp_of(s, fi, k) + 1)
        return 0;
    const Circuit *c = ctx->module->funcs[fi]->circ;
    uint32_t ngates = c->ngates;
    int res = apply(pm, ctx, pm->pipeline[k], ctx->module->funcs[fi]);
    if (s && (res > 0 || c->ngates != ngates)) /* gates added and killed again count too */
        s->func_stamp[fi] = ++s->module_stamp;
    else if (s && res == 0)
        s->clean_at[slot] = stamp_of(s, fi, k) + 1;
    return res;
}

int pm_run(PassManager *pm, Module *m)
{
    PassContext ctx = {.pm = pm, .module = m, .inline_budget = INLINE_BUDGET};
    pm->changes = 0;
    Stamps stamps;
    Stamps *s = stamps_init(&stamps, pm, m) ? &stamps : NULL;
    uint32_t rounds = pm->iterate ? pm->opt.max_rounds : 1;
    int failed = 0;
    for (uint32_t r = 0; r < rounds && !failed; r++) {
        bool changed = false;
        for (uint32_t fi = 0; fi < m->nfuncs && !failed; fi++)
            for (uint32_t k = 0; k < pm->npipeline && !failed; k++) {
                int res = apply_stamped(pm, &ctx, s, fi, k);
                failed = res < 0 ? -res : 0;
                changed |= res > 0;
            }
        if (!changed)
            break;
    }
    stamps_free(&stamps);
    return failed;
}
