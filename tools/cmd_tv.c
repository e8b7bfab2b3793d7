/* cmd_tv.c — `circ tv`: translation validation of every pass application of a
 * pipeline on a file, one verdict per application (docs/tv.md). */
#include "api/api_internal.h"
#include "driver.h"
#include "fuzz/progress.h"
#include "fuzz/tv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char tv_usage[] =
    "usage: circ tv FILE [-O1|-O2|--passes=LIST] [--unroll K] [--timeout MS] [--all]\n"
    "               [--status-interval S] [--load-pass-plugin=PATH.so]...\n"
    "Prove with Z3 that every pass application of the pipeline (default -O2) keeps the\n"
    "outcome of every function for all arguments and initial buffer contents.  One line\n"
    "per application that changed its function (--all: also the others):\n"
    "  @func pass#N NAME: proved | proved up to K | refuted (run line) | unknown (reason)\n"
    "then `N proved, M refuted, U unknown` and the median query time.\n"
    "  --unroll K     loop iterations explored per loop entry (default 4)\n"
    "  --timeout MS   solver time per query (default 2000)\n"    "  --status-interval S  progress on stderr: a line redrawn in place on a terminal,\n"
    "                 else a line every S seconds (default 5)\n"
    "  --load-pass-plugin=PATH.so  load a pass plugin (docs/api.md) whose passes\n"
    "                 --passes may name\n"
    "Exit 0 if nothing is refuted, 1 if something is (or a counterexample is unconfirmed),\n"
    "2 on usage or I/O errors.\n";

typedef struct {
    const char *file;
    int level;
    const char *passes;
    TvOptions tv;
    bool all;
    circ_pass_registry *plugins;
    double interval;        /* --status-interval */
    Progress progress;      /* on stderr: applications proved so far */
    uint32_t done, verdicts[4]; /* applications seen; proved, refuted, unknown, other */
} TvArgs;

static bool parse_count(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = s ? strtoul(s, &end, 10) : 0;
    if (!s || errno || *s == '\0' || *end != '\0' || v == 0 || v > 1000000)
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_option(int argc, char **argv, int *i, TvArgs *a)
{
    const char *s = argv[*i];
    if (!strcmp(s, "-O1") || !strcmp(s, "-O2"))
        a->level = s[2] - '0', a->passes = NULL;
    else if (!strncmp(s, "--passes=", 9))
        a->passes = s + 9;
    else if (!strcmp(s, "--all"))
        a->all = true;
    else if (!strcmp(s, "--status-interval"))
        return status_interval_option(argc, argv, i, &a->interval, "tv") > 0;
    else if (!strcmp(s, "--unroll") || !strcmp(s, "--timeout")) {
        uint32_t *dst = s[2] == 'u' ? &a->tv.unroll : &a->tv.timeout_ms;
        const char *v = *i + 1 < argc ? argv[++*i] : NULL;
        if (!parse_count(v, dst)) {
            fprintf(stderr, "circ tv: %s needs a positive count\n", s);
            return false;
        }
    } else {
        fprintf(stderr, "circ tv: unknown option '%s'\n%s", s, tv_usage);
        return false;
    }
    return true;
}

static bool parse_args(int argc, char **argv, TvArgs *a)
{
    *a = (TvArgs){.level = 2};
    for (int i = 1; i < argc; i++) {
        int plugin = plugin_option(argc, argv, &i, &a->plugins, "tv");
        if (plugin < 0)
            return false;
        if (plugin)
            continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            if (!parse_option(argc, argv, &i, a))
                return false;
        } else if (a->file) {
            fprintf(stderr, "circ tv: one FILE only\n%s", tv_usage);
            return false;
        } else
            a->file = argv[i];
    }
    if (!a->file)
        fputs(tv_usage, stderr);
    return a->file != NULL;
}

static PassManager *make_pm(const PassOptions *opt, void *ctx)
{
    const TvArgs *a = ctx;
    PassManager *pm = pm_new(opt);
    api_register_passes(pm, a->plugins);
    if (a->passes) {
        char err[200];
        pm_set_passes(pm, a->passes, err, sizeof err); /* checked before */
    } else
        pm_set_level(pm, a->level);
    return pm;
}

static void report_line(const TvApplication *ap, const TvVerdict *v, const TvArgs *a)
{
    if (!ap->changed) {
        if (a->all)
            printf("@%s pass#%llu %s: unchanged\n", ap->func, (unsigned long long)ap->number, ap->pass);
        return;
    }
    printf("@%s pass#%llu %s: ", ap->func, (unsigned long long)ap->number, ap->pass);
    if (v->kind == TV_PROVED_UPTO)
        printf("proved up to %u", a->tv.unroll ? a->tv.unroll : 4);
    else
        fputs(tv_verdict_name(v->kind), stdout);
    if (v->detail[0])
        printf(" (%s)", v->detail);
    printf(" [%.3f s]\n", v->seconds);
    fflush(stdout);
}

/* the progress line after an application */
static void tv_progress(TvArgs *a, const TvVerdict *v, bool changed)
{
    a->done++;
    if (changed)
        a->verdicts[v->kind == TV_PROVED || v->kind == TV_PROVED_UPTO ? 0
                    : v->kind == TV_REFUTED                          ? 1
                    : v->kind == TV_UNKNOWN                          ? 2
                                                                     : 3]++;
    progress_update(&a->progress, false, "tv: %u applications, %u proved, %u refuted, %u unknown, %.0f s", a->done,
                    a->verdicts[0], a->verdicts[1], a->verdicts[2], progress_elapsed(&a->progress));
}

static void report(const TvApplication *ap, const TvVerdict *v, void *ctx)
{
    TvArgs *a = ctx;
    progress_clear(&a->progress);
    report_line(ap, v, a);
    tv_progress(a, v, ap->changed);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void print_summary(TvSummary *s)
{
    qsort(s->seconds, s->ntimes, sizeof s->seconds[0], cmp_double);
    double median = s->ntimes ? s->seconds[s->ntimes / 2] : 0;
    printf("%u proved, %u refuted, %u unknown", s->proved + s->proved_upto, s->refuted, s->unknown);
    printf(" (%u up to the loop bound; %u unconfirmed counterexamples; %u applications changed nothing;"
           " median %.3f s)\n", s->proved_upto, s->unconfirmed, s->unchanged, median);
    if (!s->unknown)
        return;
    printf("unknown:");
    tv_print_reasons(stdout, s->reasons);
    putchar('\n');
}

static bool passes_valid(const TvArgs *a)
{
    char err[200];
    PassManager *pm = pm_new(NULL);
    api_register_passes(pm, a->plugins);
    bool ok = !a->passes || pm_set_passes(pm, a->passes, err, sizeof err);
    if (!ok)
        fprintf(stderr, "circ tv: %s\n", err);
    pm_free(pm);
    return ok;
}

/* prove as the parsed arguments a say */
static int tv_parsed(TvArgs *a)
{
    if (!passes_valid(a))
        return EXIT_USAGE;
    if (!tv_available()) {
        fprintf(stderr, "circ tv: translation validation is unavailable: circ was built without Z3 "
                        "(install libz3-dev and configure again)\n");
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    Module *m = load_module(a->file, true, &status);
    if (!m)
        return status;
    TvSummary *sum = malloc(sizeof *sum);
    if (!sum)
        abort();
    char err[200] = "";
    progress_init(&a->progress, stderr, PROGRESS_AUTO, a->interval);
    tv_pipeline(m, make_pm, a, &a->tv, report, a, sum, err, sizeof err);
    progress_done(&a->progress);
    print_summary(sum);
    status = sum->refuted || sum->unconfirmed ? EXIT_FAIL : EXIT_OK;
    free(sum);
    module_free(m);
    return status;
}

int cmd_tv(int argc, char **argv)
{
    if (wants_help(argc, argv, tv_usage))
        return EXIT_OK;
    TvArgs a;
    int rc = parse_args(argc, argv, &a) ? tv_parsed(&a) : EXIT_USAGE;
    circ_pass_registry_free(a.plugins);
    return rc;
}
