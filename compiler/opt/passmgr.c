/* passmgr.c — the pass manager: a registry (passes.def plus plugins), pipelines
 * (-O0/-O1/-O2 or an explicit list), and the instrumentation around every pass
 * application: --verify-each, --print-after, --opt-bisect-limit.
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
    static const char *const o2[] = {"fold", "gvn", "lse", "inline", "simplify-cfg", "dce"};
    if (level <= 0)
        set_pipeline(pm, NULL, 0, false);
    else if (level == 1)
        set_pipeline(pm, o1, 3, false);
    else
        set_pipeline(pm, o2, 6, true);
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

int pm_run(PassManager *pm, Module *m)
{
    PassContext ctx = {.pm = pm, .module = m, .inline_budget = INLINE_BUDGET};
    pm->changes = 0;
    uint32_t rounds = pm->iterate ? pm->opt.max_rounds : 1;
    for (uint32_t r = 0; r < rounds; r++) {
        bool changed = false;
        for (uint32_t fi = 0; fi < m->nfuncs; fi++)
            for (uint32_t k = 0; k < pm->npipeline; k++) {
                int res = apply(pm, &ctx, pm->pipeline[k], m->funcs[fi]);
                if (res < 0)
                    return -res;
                changed |= res > 0;
            }
        if (!changed)
            break;
    }
    return 0;
}
