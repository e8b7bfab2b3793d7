/* check.c — the differential check (check.h): the oracle's outcome of every run line
 * against every stage of the compiler, stages tried in pipeline order, the first
 * disagreement reported with a signature.
 *
 * A stage is a row built from the options (check_build_stages): its kind, a row of
 * check_stage_kinds (check_stages.c), says how it is added, opened (optimize a copy
 * of the module and interpret it, schedule it and run the scheduled form, compile
 * it for a target and emulate it), run and closed.  Optimized copies are
 * shared between the stages of one check (the -O2 module feeds both `O2` and
 * `sched-O2`). */
#include "compiler/compile.h"
#include "fuzz/check.h"
#include "fuzz/check_stage.h"
#include "oracle/interp_cfg.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_STAGES = 96, STAGE_STEP_FACTOR = 2, MAX_RUN_ARGS = 256 };

static const char *const kind_names[] = {"return", "trap", "throw", "timeout", "invalid"};

const char *check_kind_name(int k) { return k >= 0 && k <= OUT_INVALID ? kind_names[k] : "?"; }

void check_options_default(CheckOptions *o)
{
    memset(o, 0, sizeof *o);
    o->levels = CHECK_ALL_LEVELS;
}

void check_signature_filename(const char *sig, char *buf, size_t n)
{
    size_t k = 0;
    for (; sig[k] && k + 1 < n; k++) {
        char c = sig[k];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '-' || c == '_';
        buf[k] = ok ? c : '_';
    }
    if (n)
        buf[k] = 0;
}

/* ---- the stage list ---------------------------------------------------------- */
static bool wanted(const CheckOptions *o, const char *name)
{
    if (!o->targets || !*o->targets)
        return true;
    const char *p = o->targets;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        bool exact = n && p[n - 1] == '$'; /* NAME$: that stage alone */
        size_t k = n - exact;
        if (k && !strncmp(name, p, k) && (!exact || !name[k]))
            return true;
        p += n + (e != NULL);
    }
    return false;
}

static void add_stage(StageList *l, const CheckOptions *o, const CheckStage *s)
{
    if (l->n < MAX_STAGES && wanted(o, s->name))
        l->v[l->n++] = *s;
}

static void add_pass_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    if (!(levels & (CHECK_O1 | CHECK_O2)))
        return;
    static const char *const builtin[] = {
#define PASS(name, fn, summary) #name,
#include "compiler/opt/passes.def"
#undef PASS
    };
    CheckStage s = {.kind = STAGE_PASS};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        s.pass = builtin[i];
        snprintf(s.name, sizeof s.name, "pass-%s", builtin[i]);
        add_stage(l, o, &s);
    }
    for (uint32_t i = 0; i < o->nextra_passes; i++) {
        s.pass = o->extra_passes[i].name;
        snprintf(s.name, sizeof s.name, "pass-%s", s.pass);
        add_stage(l, o, &s);
    }
}

static void add_order_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    (void)levels;
    const char *p = o->pass_order;
    for (int k = 0; p && *p && l->n < MAX_STAGES; k++) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        CheckStage s = {.kind = STAGE_ORDER, .level = k};
        snprintf(s.name, sizeof s.name, "order-%d-%.*s", k, (int)(n < 32 ? n : 32), p);
        snprintf(s.order_pass, sizeof s.order_pass, "%.*s", (int)(n < 31 ? n : 31), p);
        if (n)
            add_stage(l, o, &s);
        p += n + (e != NULL);
    }
}

/* keep the stages of l that CheckOptions.stage_mask picks */
static void apply_stage_mask(StageList *l, uint64_t mask)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < l->n; i++)
        if (mask >> (i < 63 ? i : 63) & 1)
            l->v[kept++] = l->v[i];
    l->n = kept;
}

void check_build_stages(const CheckOptions *o, StageList *l)
{
    uint32_t lv = o->levels ? o->levels : CHECK_ALL_LEVELS;
    l->n = 0;
    l->v = malloc(MAX_STAGES * sizeof *l->v); /* add_stage writes whole entries */
    if (!l->v)
        abort();
    for (int k = 0; k < STAGE_KIND_COUNT && !o->no_stages; k++)
        check_stage_kinds[k]->add(l, o, lv);
    if (o->stage_mask)
        apply_stage_mask(l, o->stage_mask);
}

static void add_pipeline_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    if (levels & CHECK_O1)
        add_stage(l, o, &(CheckStage){.name = "O1", .kind = STAGE_PIPELINE, .level = 1});
    if (levels & CHECK_O2)
        add_stage(l, o, &(CheckStage){.name = "O2", .kind = STAGE_PIPELINE, .level = 2});
}

static void add_sched_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    if (levels & CHECK_O0)
        add_stage(l, o, &(CheckStage){.name = "sched-O0", .kind = STAGE_SCHED, .level = 0});
    if (levels & CHECK_O2)
        add_stage(l, o, &(CheckStage){.name = "sched-O2", .kind = STAGE_SCHED, .level = 2});
}

void check_add_stage(StageList *l, const CheckOptions *o, const CheckStage *s) { add_stage(l, o, s); }

void check_list_stages(FILE *out, const CheckOptions *opt)
{
    StageList l;
    check_build_stages(opt, &l);
    for (uint32_t i = 0; i < l.n; i++)
        fprintf(out, "%s\n", l.v[i].name);
    free(l.v);
}

uint32_t check_stage_count(const CheckOptions *opt)
{
    StageList l;
    check_build_stages(opt, &l);
    free(l.v);
    return l.n;
}

/* ---- validating the options ------------------------------------------------------ */
/* the stages of o at every -O level and on every ISA whose names start with one of
 * targets (NULL: all) */
static void stages_anywhere(const CheckOptions *o, const char *targets, StageList *l)
{
    CheckOptions all = *o;
    all.targets = targets;
    all.levels = CHECK_ALL_LEVELS;
    all.isa_mask = 0;
    all.stage_mask = 0;
    check_build_stages(&all, l);
}

/* "NAME, NAME, ..." of every stage any -O level and ISA has, into buf */
static void all_stage_names(const CheckOptions *o, char *buf, size_t n)
{
    StageList l;
    stages_anywhere(o, NULL, &l);
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < l.n && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", l.v[i].name);
    free(l.v);
}

/* false with a message if an item of o->targets is not the start of a stage's name */
static bool targets_valid(const CheckOptions *o, char *err, size_t n)
{
    for (const char *p = o->targets; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char item[64], names[2048];
        snprintf(item, sizeof item, "%.*s", (int)(len < 63 ? len : 63), p);
        StageList l;
        stages_anywhere(o, item, &l);
        free(l.v);
        if (!l.n) {
            all_stage_names(o, names, sizeof names);
            snprintf(err, n, "--targets: no stage starts with '%s'; the stages are: %s", item, names);
            return false;
        }
        p += len + (e != NULL);
    }
    return true;
}

bool check_options_validate(const CheckOptions *o, char *err, size_t n)
{
    if (!targets_valid(o, err, n))
        return false;
    StageList l;
    check_build_stages(o, &l);
    free(l.v);
    if (!l.n && !o->no_stages) {
        snprintf(err, n, "--targets %s selects no stage at the -O levels and ISAs asked for",
                 o->targets ? o->targets : "(all)");
        return false;
    }
    if (!o->pass_order)
        return true;
    PassManager *pm = check_pass_manager(o);
    char why[200];
    bool ok = pm_set_passes(pm, o->pass_order, why, sizeof why);
    if (!ok) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            pm_list_passes(pm, mem);
            fclose(mem);
        }
        snprintf(err, n, "--passes: %s; the passes are:\n%s", why, text ? text : "");
        free(text);
    }
    pm_free(pm);
    return ok;
}

/* ---- preparing modules ---------------------------------------------------------- */
PassManager *check_pass_manager(const CheckOptions *o)
{
    PassOptions po = {.bisect_limit = -1};
    PassManager *pm = pm_new(&po);
    if (!pm)
        abort();
    for (uint32_t i = 0; i < o->nextra_passes; i++)
        pass_register(pm, &o->extra_passes[i]);
    return pm;
}

/* the functions of m to verify: those that differ from base's (all without base) */
static bool needs_verify(const Module *m, const Module *base, uint32_t i)
{
    return !base || base->nfuncs != m->nfuncs || !func_same_body(base->funcs[i], m->funcs[i]);
}

static int verify_changed(const Module *m, const Module *base, Diag *d, bool *same)
{
    int errors = 0;
    *same = true;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (needs_verify(m, base, i)) {
            *same = false;
            errors += verify_func(m->funcs[i], d);
        }
    return errors;
}

/* verify quietly the functions of m that differ from base's (a verified module, or
 * NULL: all of them); on errors, the first message in detail.  *same: none differ */
static bool verify_quietly(const Module *m, const Module *base, bool *same, char *detail, size_t n)
{
    Diag d;
    diag_init(&d, m->file, NULL);
    if (!verify_changed(m, base, &d, same))
        return true;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        diag_init(&d, m->file, mem);
        verify_changed(m, base, &d, same);
        fclose(mem);
        char *nl = strchr(text, '\n');
        if (nl)
            *nl = 0;
        snprintf(detail, n, "invalid circuit: %s", text);
        free(text);
    }
    return false;
}

/* run passes over m in place (level 1/2, or the comma list `passes`) and verify what
 * they changed of base (NULL: everything); *same: nothing changed */
static bool optimize(const CheckOptions *o, Module *m, const Module *base, int level, const char *passes,
                     bool *same, char *detail, size_t n)
{
    PassManager *pm = check_pass_manager(o);
    char err[200];
    bool ok = true;
    if (passes)
        ok = pm_set_passes(pm, passes, err, sizeof err);
    else
        pm_set_level(pm, level);
    if (!ok)
        snprintf(detail, n, "%s", err);
    else
        pm_run(pm, m);
    pm_free(pm);
    return ok && verify_quietly(m, base, same, detail, n);
}

/* the module a stage starts from; cached optimized copies for -O1/-O2 */
Module *check_prepared(CheckCtx *c, int level, char *detail, size_t n)
{
    if (level == 0)
        return (Module *)c->m;
    if (!c->optimized[level] && !c->opt_failed[level]) {
        Module *copy = module_clone(c->m);
        bool same;
        if (optimize(c->opt, copy, NULL, level, NULL, &same, c->opt_detail[level], sizeof c->opt_detail[level])) {
            c->optimized[level] = copy;
        } else {
            module_free(copy);
            c->opt_failed[level] = true;
        }
    }
    if (c->opt_failed[level])
        snprintf(detail, n, "%s", c->opt_detail[level]);
    return c->optimized[level];
}

/* schedule every function of m; false with the scheduler's first message in detail */
static bool schedule_all(const Module *m, int level, Schedule **out, char *detail, size_t n)
{
    char first[400];
    Diag d;
    diag_init(&d, m->file, NULL);
    diag_keep_first(&d, first, sizeof first);
    SchedOptions so = compile_sched_options(level == 0);
    bool ok = true;
    for (uint32_t i = 0; ok && i < m->nfuncs; i++)
        ok = (out[i] = schedule_func(m->funcs[i], &so, &d)) != NULL;
    if (!ok)
        snprintf(detail, n, "the scheduler refused the module: %s", first);
    return ok;
}

static void free_schedules(Schedule **s, uint32_t n)
{
    for (uint32_t i = 0; s && i < n; i++)
        schedule_free(s[i]);
    free(s);
}

Schedule *const *check_schedules(CheckCtx *c, int level, char *detail, size_t n, const char **fail_kind)
{
    Module *m = check_prepared(c, level, detail, n);
    if (!m) {
        *fail_kind = "verify";
        return NULL;
    }
    if (!c->schedules[level] && !c->sched_failed[level]) {
        Schedule **s = calloc(m->nfuncs + 1, sizeof *s);
        if (!s)
            abort();
        if (schedule_all(m, level, s, c->sched_detail[level], sizeof c->sched_detail[level])) {
            c->schedules[level] = s;
        } else {
            free_schedules(s, m->nfuncs);
            c->sched_failed[level] = true;
        }
    }
    if (c->sched_failed[level]) {
        snprintf(detail, n, "%s", c->sched_detail[level]);
        *fail_kind = "refused";
    }
    return c->schedules[level];
}

/* ---- opening and running stages ------------------------------------------------- */
/* the check's interpreters run one after another: they share one memory, the
 * caller's (CheckOptions.interp.memory) or one of the check's own */
static InterpOptions check_interp_options(CheckCtx *c)
{
    InterpOptions io = c->opt->interp;
    if (!c->memory) {
        c->own_memory = !io.memory;
        c->memory = io.memory ? io.memory : mem_new(c->m);
    }
    io.memory = c->memory;
    return io;
}

static InterpOptions stage_budget(CheckCtx *c)
{
    InterpOptions io = check_interp_options(c);
    uint64_t steps = io.max_steps ? io.max_steps : 10000000u;
    io.max_steps = steps * STAGE_STEP_FACTOR;
    return io;
}

static bool open_interp(CheckCtx *c, StageRun *r, const Module *m)
{
    InterpOptions io = stage_budget(c);
    r->interp = interp_new(m, &io);
    return r->interp != NULL;
}

/* the check's input, verified once: the base whose unchanged functions need no
 * second verification (NULL if it does not verify) */
static const Module *verified_input(CheckCtx *c)
{
    if (!c->input_valid) {
        Diag d;
        diag_init(&d, c->m->file, NULL);
        c->input_valid = verify_module(c->m, &d) ? -1 : 1;
    }
    return c->input_valid > 0 ? c->m : NULL;
}

static bool open_pass(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    r->own = module_clone(c->m);
    const Module *base = verified_input(c);
    if (!optimize(c->opt, r->own, base, 0, s->pass, &r->unchanged, r->detail, sizeof r->detail)) {
        r->fail_kind = "verify";
        return false;
    }
    r->unchanged &= base != NULL; /* then the module is the oracle's own */
    return r->unchanged || open_interp(c, r, r->own);
}

/* the name of the pass at position k of a comma-separated order into buf ("" past
 * its end or for an empty item) */
static void order_item(const char *order, int k, char *buf, size_t n)
{
    const char *p = order;
    for (; k > 0 && p; k--)
        p = (p = strchr(p, ',')) ? p + 1 : NULL;
    size_t len = p ? strcspn(p, ",") : 0;
    snprintf(buf, n, "%.*s", (int)len, p ? p : "");
}

/* pass k of the order applied to the order's module: the pass of stage order-AT, or
 * one before it whose own stage the stage mask left out */
static bool apply_order_pass(CheckCtx *c, int k, int at, StageRun *r)
{
    char pass[32], why[400];
    bool same;
    order_item(c->opt->pass_order, k, pass, sizeof pass);
    if (!*pass || optimize(c->opt, c->order_module, NULL, 0, pass, &same, why, sizeof why))
        return true;
    if (k == at)
        snprintf(r->detail, sizeof r->detail, "%s", why);
    else
        snprintf(r->detail, sizeof r->detail, "pass %d (%s) of the order, before this one: %s", k, pass, why);
    return false;
}

static bool open_order(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    if (!c->order_module)
        c->order_module = module_clone(c->m);
    if (c->order_failed)
        snprintf(r->detail, sizeof r->detail, "an earlier pass of the order failed");
    for (; !c->order_failed && c->order_next <= s->level; c->order_next++)
        c->order_failed = !apply_order_pass(c, c->order_next, s->level, r);
    if (c->order_failed) {
        r->fail_kind = "verify";
        return false;
    }
    return open_interp(c, r, c->order_module);
}

static bool open_sched(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    Schedule *const *sched = check_schedules(c, s->level, r->detail, sizeof r->detail, &r->fail_kind);
    if (!sched)
        return false;
    InterpOptions io = stage_budget(c);
    r->cfg = cfg_interp_scheduled(check_prepared(c, s->level, r->detail, sizeof r->detail), sched, &io);
    return r->cfg != NULL;
}

static bool open_pipeline(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    Module *m = check_prepared(c, s->level, r->detail, sizeof r->detail);
    if (!m) {
        r->fail_kind = "verify";
        return false;
    }
    return open_interp(c, r, m);
}

static void run_interp(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args,
                       Outcome *out)
{
    (void)c;
    (void)s;
    interp_call(r->interp, func, args, out);
}

static void run_sched(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args,
                      Outcome *out)
{
    (void)c;
    (void)s;
    cfg_interp_call(r->cfg, func, args, out);
}

static void close_interp(StageRun *r) { interp_free(r->interp); }
static void close_sched(StageRun *r) { cfg_interp_free(r->cfg); }

const StageOps check_pass_stages = {add_pass_stages, open_pass, run_interp, close_interp, NULL,
                                    PHASE_OPTIMIZE, PHASE_INTERP};
const StageOps check_order_stages = {add_order_stages, open_order, run_interp, close_interp, NULL,
                                     PHASE_OPTIMIZE, PHASE_INTERP};
const StageOps check_pipeline_stages = {add_pipeline_stages, open_pipeline, run_interp, close_interp, NULL,
                                        PHASE_OPTIMIZE, PHASE_INTERP};
const StageOps check_sched_stages = {add_sched_stages, open_sched, run_sched, close_sched, NULL,
                                     PHASE_SCHEDULE, PHASE_INTERP};

static bool open_stage(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    memset(r, 0, sizeof *r);
    return check_stage_kinds[s->kind]->open(c, s, r);
}

static void close_stage(const CheckStage *s, StageRun *r)
{
    check_stage_kinds[s->kind]->close(r);
    module_free(r->own);
    memset(r, 0, sizeof *r);
}

/* ---- the check ----------------------------------------------------------------- */
static void set_signature(CheckResult *res, const char *stage, const char *a, const char *b)
{
    snprintf(res->stage, sizeof res->stage, "%s", stage);
    if (b)
        snprintf(res->signature, sizeof res->signature, "%s:%s-vs-%s", stage, a, b);
    else
        snprintf(res->signature, sizeof res->signature, "%s:%s", stage, a);
    res->mismatch = true;
}

static const char *expect_kind_name(int k)
{
    switch (k) {
    case EX_VALUE: case EX_NAN: case EX_VOID: return "return";
    case EX_THROW: return "throw";
    default: return "trap";
    }
}

/* the oracle's outcome of every run line */
static void run_oracle(CheckCtx *c, Outcome *oracle, CheckResult *res)
{
    InterpOptions io = check_interp_options(c);
    Interp *in = interp_new(c->m, &io);
    for (uint32_t i = 0; i < c->m->nruns; i++) {
        const RunLine *rl = &c->m->runs[i];
        uint64_t args[MAX_RUN_ARGS] = {0};
        if (rl->nargs > MAX_RUN_ARGS) { /* not run: invalid, no expectation checked */
            memset(&oracle[i], 0, sizeof oracle[i]);
            oracle[i].kind = OUT_INVALID;
            continue;
        }
        runline_args(rl, args);
        interp_call(in, rl->func, args, &oracle[i]);
        res->execs++;
    }
    interp_free(in);
}

/* tally the oracle's outcomes; false on a run line whose expectation the oracle does
 * not meet (when asked) */
static bool judge_oracle(CheckCtx *c, const Outcome *oracle, CheckResult *res)
{
    for (uint32_t i = 0; i < c->m->nruns; i++)
        res->outcome_kinds[oracle[i].kind] += c->m->runs[i].nargs <= MAX_RUN_ARGS;
    for (uint32_t i = 0; c->opt->check_expectations && i < c->m->nruns; i++) {
        const RunLine *rl = &c->m->runs[i];
        if (rl->nargs > MAX_RUN_ARGS || outcome_matches(&oracle[i], &rl->expect))
            continue;
        set_signature(res, "oracle", expect_kind_name(rl->expect.kind), check_kind_name(oracle[i].kind));
        res->run = i;
        res->expected = oracle[i];
        res->got = oracle[i];
        char got[300];
        outcome_format(got, sizeof got, &oracle[i]);
        snprintf(res->detail, sizeof res->detail, "the run line expects %s, the interpreter gives %s",
                 expect_kind_name(rl->expect.kind), got);
        return false;
    }
    return true;
}

static bool comparable(const Outcome *o) { return o->kind != OUT_TIMEOUT && o->kind != OUT_INVALID; }

/* every comparable run through one opened stage; false at the first difference */
static bool check_runs(CheckCtx *c, const CheckStage *s, StageRun *r, const Outcome *oracle,
                       Outcome *got, CheckResult *res)
{
    if (r->unchanged)
        return true; /* the interpreter is deterministic: the same module, the same outcomes */
    for (uint32_t i = 0; i < c->m->nruns; i++) {
        if (!comparable(&oracle[i]))
            continue;
        uint64_t args[MAX_RUN_ARGS] = {0};
        runline_args(&c->m->runs[i], args);
        c->run_line = i;
        c->oracle_run = &oracle[i];
        c->oracle = oracle;
        check_stage_kinds[s->kind]->run(c, s, r, c->m->runs[i].func, args, got);
        res->execs++;
        char why[200];
        if (outcome_equal(&oracle[i], got, why, sizeof why))
            continue;
        char abi[40]; /* a broken calling convention is named by its label */
        if (r->label)
            set_signature(res, s->name, r->label, NULL);
        else
            set_signature(res, s->name, check_kind_name(oracle[i].kind),
                          outcome_abi_label(got, abi, sizeof abi) ? abi : check_kind_name(got->kind));
        res->run = i;
        res->expected = oracle[i];
        res->got = *got;
        snprintf(res->detail, sizeof res->detail, "%s", why);
        return false;
    }
    return true;
}

const char *const check_phase_names[PHASE_COUNT] = {"oracle", "optimize", "interp", "schedule",
                                                      "compile", "emulate", "tv", "native", "c"};

double check_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* the phase that opening (or running) a stage of this kind is */
static void reset_result(CheckResult *res)
{
    res->mismatch = false;
    res->stage[0] = res->signature[0] = res->detail[0] = 0;
    res->run = 0;
    res->runs = res->execs = res->stages = 0;
    memset(res->outcome_kinds, 0, sizeof res->outcome_kinds);
    memset(res->seconds, 0, sizeof res->seconds);
    memset(&res->tv, 0, sizeof res->tv);
}

static void free_ctx(CheckCtx *c)
{
    for (int l = 0; l < 3; l++) {
        if (c->schedules[l])
            free_schedules(c->schedules[l], (l ? c->optimized[l] : c->m)->nfuncs);
        module_free(c->optimized[l]);
    }
    module_free(c->order_module);
    if (c->own_memory)
        mem_free(c->memory);
    for (int k = 0; k < STAGE_KIND_COUNT; k++)
        if (check_stage_kinds[k]->finish)
            check_stage_kinds[k]->finish(c);
}

/* every stage against the oracle's outcomes, in pipeline order */
static bool check_stages(CheckCtx *c, const Outcome *oracle, CheckResult *res)
{
    Outcome *got = malloc(sizeof *got);
    if (!got)
        abort();
    StageList l;
    check_build_stages(c->opt, &l);
    bool ok = true;
    for (uint32_t i = 0; ok && (res->runs || c->opt->tv) && i < l.n; i++) {
        StageRun r;
        res->stages++;
        double t = check_now();
        bool opened = open_stage(c, &l.v[i], &r);
        double t1 = check_now();
        res->seconds[check_stage_kinds[l.v[i].kind]->open_phase] += t1 - t;
        if (!opened) {
            set_signature(res, l.v[i].name, r.fail_kind ? r.fail_kind : "refused", NULL);
            res->run = UINT32_MAX; /* no run line: the stage could not be built */
            snprintf(res->detail, sizeof res->detail, "%s", r.detail);
            ok = false;
        } else {
            ok = check_runs(c, &l.v[i], &r, oracle, got, res);
            res->seconds[check_stage_kinds[l.v[i].kind]->run_phase] += check_now() - t1;
        }
        close_stage(&l.v[i], &r);
    }
    free(l.v);
    free(got);
    return ok;
}

/* the check with the oracle's outcomes given (NULL: run the oracle here) */
static bool check_with_oracle(const Module *m, const CheckOptions *opt, const Outcome *given, CheckResult *res)
{
    CheckOptions defaults;
    if (!opt) {
        check_options_default(&defaults);
        opt = &defaults;
    }
    reset_result(res);
    CheckCtx c = {.m = m, .opt = opt, .seconds = res->seconds, .tv_tally = &res->tv};
    Outcome *computed = NULL;
    if (!given) {
        computed = malloc((m->nruns + 1) * sizeof *computed);
        if (!computed)
            abort();
        double t = check_now();
        run_oracle(&c, computed, res);
        res->seconds[PHASE_ORACLE] += check_now() - t;
    }
    const Outcome *oracle = given ? given : computed;
    bool ok = judge_oracle(&c, oracle, res);
    for (uint32_t i = 0; i < m->nruns; i++)
        res->runs += comparable(&oracle[i]);
    ok = ok && check_stages(&c, oracle, res);
    free_ctx(&c);
    free(computed);
    return ok;
}

bool check_module(const Module *m, const CheckOptions *opt, CheckResult *res)
{
    return check_with_oracle(m, opt, NULL, res);
}

bool check_module_given(const Module *m, const CheckOptions *opt, const Outcome *oracle, CheckResult *res)
{
    return check_with_oracle(m, opt, oracle, res);
}

/* ---- reporting ------------------------------------------------------------------- */
static void format_call(char *buf, size_t n, const Module *m, const RunLine *r)
{
    const Func *f = m->funcs[r->func];
    size_t k = (size_t)snprintf(buf, n, "@%s(", f->name);
    for (uint32_t i = 0; i < r->nargs && k < n; i++) {
        char v[64];
        if (r->args[i].kind == RA_HEAP)
            snprintf(v, sizeof v, "heap");
        else if (r->args[i].kind == RA_FUNC && r->args[i].bits < m->nfuncs)
            snprintf(v, sizeof v, "@%s", m->funcs[r->args[i].bits]->name);
        else
            lit_format(v, sizeof v, f->params[i], r->args[i].bits);
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", v);
    }
    if (k < n)
        snprintf(buf + k, n - k, ")");
}

static void report_heap(FILE *out, const Outcome *a, const Outcome *b)
{
    int shown = 0;
    for (uint32_t i = 0; i < HEAP_SIZE && shown < 16; i++)
        if (a->heap[i] != b->heap[i]) {
            fprintf(out, "  heap+0x%03x: oracle %02x, stage %02x\n", i, a->heap[i], b->heap[i]);
            shown++;
        }
}

void check_report(FILE *out, const Module *m, const CheckResult *res)
{
    if (!res->mismatch) {
        fprintf(out, "no mismatch: %llu runs, %llu stages\n", (unsigned long long)res->runs,
                (unsigned long long)res->stages);
        return;
    }
    fprintf(out, "mismatch %s\n  stage: %s\n", res->signature, res->stage);
    if (res->detail[0])
        fprintf(out, "  detail: %s\n", res->detail);
    if (res->run >= m->nruns)
        return;
    char call[512], a[300], b[300];
    format_call(call, sizeof call, m, &m->runs[res->run]);
    fprintf(out, "  run line %u: %s\n", m->runs[res->run].line, call);
    if (strchr(res->signature, ':') && strstr(res->signature, "-vs-")) {
        outcome_format(a, sizeof a, &res->expected);
        outcome_format(b, sizeof b, &res->got);
        fprintf(out, "  oracle: %s\n  %s: %s\n", a, res->stage, b);
        report_heap(out, &res->expected, &res->got);
    }
}
