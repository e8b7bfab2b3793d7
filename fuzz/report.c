/* report.c — the campaign report's state (fuzz/report.h): the workers' coverage
 * records, the time series, the findings, and the atomic rewrites of
 * DIR/report.html and DIR/report.json. */
#include "fuzz/report_internal.h"
#include "fuzz/reduce.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

const char *const report_view_names[VIEW_COUNT] = {"as generated", "after -O2"};

/* which view's module a stage runs: -O0 and per-pass stages the generated program,
 * -O2 stages (and tv, which proves the -O2 pipeline's steps) the -O2 result; -1 for
 * the others (O1, pass orders) */
static int stage_view(const char *name)
{
    if (!strncmp(name, "pass-", 5) || strstr(name, "O0"))
        return VIEW_INPUT;
    if (!strncmp(name, "tv-", 3) || strstr(name, "O2"))
        return VIEW_O2;
    return -1;
}

static void print_program(FILE *f, const void *m) { print_module(f, m); }
static void print_stages(FILE *f, const void *o) { check_list_stages(f, o); }

/* what write(f, ctx) writes, as a string; NULL on failure */
static char *text_of(void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    write(out, ctx);
    if (fclose(out)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* r->views: the names of the stages the campaign checks, by view */
static void list_views(CampaignReport *r)
{
    char *names = text_of(print_stages, &r->o->check);
    char *save = NULL;
    for (char *line = names ? strtok_r(names, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        int v = stage_view(line);
        if (v < 0)
            continue;
        size_t k = strlen(r->views[v]);
        snprintf(r->views[v] + k, sizeof r->views[v] - k, "%s%s", k ? ", " : "", line);
    }
    free(names);
}

static bool make_dir(const char *dir, FILE *status)
{
    struct stat sb;
    const char *why = NULL;
    if (mkdir(dir, 0777) && errno != EEXIST)
        why = strerror(errno);
    else if (stat(dir, &sb))
        why = strerror(errno);
    else if (!S_ISDIR(sb.st_mode))
        why = "not a directory";
    if (why && status)
        fprintf(status, "circ fuzz: cannot use --report '%s': %s\n", dir, why);
    return !why;
}

static CampaignReport *report_new(const CampaignOptions *o)
{
    CampaignReport *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->o = o;
    r->cov = mmap(NULL, o->jobs * sizeof *r->cov, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    r->samples = calloc(REPORT_MAX_SAMPLES, sizeof *r->samples);
    if (r->cov == MAP_FAILED || !r->samples) {
        if (r->cov != MAP_FAILED)
            munmap(r->cov, o->jobs * sizeof *r->cov);
        free(r->samples);
        free(r);
        return NULL;
    }
    r->sample_every = REPORT_SAMPLE;
    r->started = time(NULL);
    atomic_writer_init(&r->writer);
    snprintf(r->html_path, sizeof r->html_path, "%s/report.html", o->report_dir);
    snprintf(r->json_path, sizeof r->json_path, "%s/report.json", o->report_dir);
    list_views(r);
    return r;
}

static void report_free(CampaignReport *r)
{
    for (uint32_t i = 0; i < r->nfindings; i++) {
        ReportEntry *e = &r->findings[i];
        free(e->signature), free(e->stage), free(e->detail), free(e->path);
        free(e->text), free(e->svg), free(e->svg_note), free(e->command);
    }
    free(r->findings);
    free(r->samples);
    munmap(r->cov, r->o->jobs * sizeof *r->cov);
    free(r);
}

double report_rate(const ReportSample *a, const ReportSample *b)
{
    double dt = b->t - a->t;
    return dt > 0 ? (double)(b->programs - a->programs) / dt : 0;
}

void report_duration(char *buf, size_t n, double seconds)
{
    long s = seconds > 0 ? (long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, n, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, n, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, n, "%.0fs", seconds > 0 ? seconds : 0.0);
}

/* ---- the files ------------------------------------------------------------------ */
static bool fill_json(FILE *f, void *ctx) { return report_write_json(f, ctx); }
static bool fill_html(FILE *f, void *ctx) { return report_write_html(f, ctx); }

static void sum_coverage(CampaignReport *r)
{
    ReportCoverage *t = &r->total;
    memset(t, 0, sizeof *t);
    for (uint32_t w = 0; w < r->o->jobs; w++) {
        const ReportCoverage *c = &r->cov[w];
        t->programs += c->programs;
        for (int op = 0; op < OP_COUNT; op++) {
            for (int ty = 0; ty < TY_COUNT; ty++)
                t->gates[op][ty] += c->gates[op][ty];
            for (int v = 0; v < VIEW_COUNT; v++)
                t->op_programs[op][v] += c->op_programs[op][v];
        }
    }
}

/* report.json, then report.html (whose numbers are the json's); false with errno */
static bool write_files(CampaignReport *r)
{
    sum_coverage(r);
    return atomic_write_file(&r->writer, r->json_path, AW_REPLACE, fill_json, r) &&
           atomic_write_file(&r->writer, r->html_path, AW_REPLACE, fill_html, r);
}

bool campaign_report_open(CampaignReport **out, const CampaignOptions *o, FILE *status)
{
    *out = NULL;
    if (!o->report_dir)
        return true;
    if (!make_dir(o->report_dir, status))
        return false;
    CampaignReport *r = report_new(o);
    if (!r) {
        if (status)
            fprintf(status, "circ fuzz: cannot make the report: %s\n", strerror(errno));
        return false;
    }
    r->nsamples = 1; /* the zero sample at t = 0 */
    r->next_sample = r->sample_every;
    r->next_write = REPORT_INTERVAL;
    if (!write_files(r)) {
        if (status)
            fprintf(status, "circ fuzz: cannot write %s: %s\n", r->json_path, strerror(errno));
        report_free(r);
        return false;
    }
    *out = r;
    return true;
}

ReportCoverage *campaign_report_coverage(CampaignReport *r, uint32_t worker)
{
    return r ? &r->cov[worker] : NULL;
}

/* ---- coverage (in the workers) ---------------------------------------------------- */
/* gates of m by opcode and type into c (unless NULL); the opcodes present into seen */
static void count_opcodes(ReportCoverage *c, const Module *m, bool *seen)
{
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const Circuit *circ = m->funcs[fi]->circ;
        for (GateId i = NUM_ROOTS; i < circ->ngates; i++) {
            const Gate *g = &circ->gates[i];
            if (g->dead)
                continue;
            seen[g->op] = true;
            if (c)
                c->gates[g->op][gen_stats_class_type(circ, g)]++;
        }
    }
}

/* the opcodes of m after the -O2 pipeline into seen */
static void count_optimized(const Module *m, bool *seen)
{
    Module *copy = module_clone(m);
    PassManager *pm = pm_new(NULL);
    if (copy && pm) {
        pm_set_level(pm, 2);
        pm_run(pm, copy);
        count_opcodes(NULL, copy, seen);
    }
    pm_free(pm);
    module_free(copy);
}

void campaign_report_count(ReportCoverage *c, const Module *m, const CheckOptions *o)
{
    if (!c)
        return;
    bool seen[VIEW_COUNT][OP_COUNT] = {{0}};
    count_opcodes(c, m, seen[VIEW_INPUT]);
    if (!o->levels || (o->levels & CHECK_O2))
        count_optimized(m, seen[VIEW_O2]);
    for (int op = 0; op < OP_COUNT; op++)
        for (int v = 0; v < VIEW_COUNT; v++)
            c->op_programs[op][v] += seen[v][op];
    c->programs++;
}

/* ---- findings (in the parent) ------------------------------------------------------- */
void campaign_report_mismatch(CampaignReport *r, const char *sig)
{
    for (uint32_t i = 0; r && i < r->nfindings; i++)
        if (!strcmp(r->findings[i].signature, sig)) {
            r->findings[i].hits++;
            return;
        }
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* the text of path, or NULL */
static char *read_text(const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    char chunk[4096];
    size_t k;
    while (out && (k = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, k, out);
    fclose(f);
    if (out)
        fclose(out);
    return buf;
}

/* "circ check FILE": what reproduces the finding from its saved file, or from the
 * generator when the file was not saved */
static char *reproduce_command(const CampaignReport *r, const ReportFinding *f)
{
    const CampaignOptions *o = r->o;
    const char *check = o->report_check_command ? o->report_check_command : "circ check";
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return NULL;
    if (f->path)
        fprintf(out, "%s %s", check, f->path);
    else
        fprintf(out, "circ gen --seed 0x%016llx --size %u%s -o finding.circ && %s finding.circ",
                (unsigned long long)f->generator_seed, o->gen.size ? o->gen.size : 100, o->gen.swarm ? " --swarm" : "",
                check);
    fclose(out);
    return buf;
}

void campaign_report_finding(CampaignReport *r, const ReportFinding *f)
{
    if (!r)
        return;
    ReportEntry *n = realloc(r->findings, (r->nfindings + 1) * sizeof *n);
    if (!n)
        return;
    r->findings = n;
    ReportEntry *e = &n[r->nfindings++];
    *e = (ReportEntry){.worker = f->worker, .index = f->index, .generator_seed = f->generator_seed,
                       .hits = 1, .at = f->at, .gates = reduce_gate_count(f->program),
                       .gates_generated = f->gates_generated};
    e->signature = strdup(f->signature);
    e->stage = strdup(f->stage);
    e->detail = strdup(f->detail);
    e->path = dup_or_null(f->path);
    e->text = read_text(f->path);
    if (!e->text)
        e->text = text_of(print_program, f->program);
    e->command = reproduce_command(r, f);
    char prefix[32], note[256] = "";
    snprintf(prefix, sizeof prefix, "f%u-", r->nfindings);
    if (r->nfindings <= REPORT_MAX_PICTURES)
        e->svg = report_dot_svg(f->program, prefix, r->o->report_dir, note, sizeof note);
    else
        snprintf(note, sizeof note, "no picture: the first %d findings are drawn (circ dot FILE | dot -Tsvg)",
                 REPORT_MAX_PICTURES);
    e->svg_note = e->svg ? NULL : strdup(note);
}

/* ---- the time series ------------------------------------------------------------------ */
/* full: keep every other sample (the first and the latest included), sample half as often */
static void thin_samples(CampaignReport *r)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->nsamples; i += 2)
        r->samples[k++] = r->samples[i];
    if (r->nsamples % 2 == 0)
        r->samples[k++] = r->samples[r->nsamples - 1];
    r->nsamples = k;
    r->sample_every *= 2;
}

static void add_sample(CampaignReport *r, const CampaignStats *st, double now)
{
    if (r->nsamples == REPORT_MAX_SAMPLES)
        thin_samples(r);
    ReportSample *s = &r->samples[r->nsamples++];
    *s = (ReportSample){.t = now, .programs = st->programs, .execs = st->execs, .runs = st->runs,
                        .mismatches = st->mismatches, .signatures = st->signatures, .crashes = st->crashes,
                        .hangs = st->hangs};
    memcpy(s->outcome_kinds, st->outcome_kinds, sizeof s->outcome_kinds);
}

/* the totals as the page shows them while the campaign runs */
static void take_stats(CampaignReport *r, const CampaignStats *st, double now)
{
    r->st = *st;
    r->st.elapsed = now;
    r->st.execs_per_sec = now > 0 ? (double)st->execs / now : 0;
}

void campaign_report_tick(CampaignReport *r, const CampaignStats *st, double now)
{
    if (!r || (now < r->next_sample && now < r->next_write))
        return;
    take_stats(r, st, now);
    if (now >= r->next_sample) {
        add_sample(r, st, now);
        r->next_sample = now + r->sample_every;
    }
    if (now >= r->next_write) {
        r->next_write = now + REPORT_INTERVAL;
        write_files(r); /* a failure is retried at the next write; close reports its own */
    }
}

bool campaign_report_close(CampaignReport *r, const CampaignStats *st, FILE *status)
{
    if (!r)
        return true;
    r->st = *st;
    r->finished = true;
    if (st->elapsed > r->samples[r->nsamples - 1].t)
        add_sample(r, st, st->elapsed);
    bool ok = write_files(r);
    if (status && ok)
        fprintf(status, "report: %s (and report.json)\n", r->html_path);
    else if (status)
        fprintf(status, "circ fuzz: report NOT SAVED: cannot write %s: %s\n", r->html_path, strerror(errno));
    report_free(r);
    return ok;
}
