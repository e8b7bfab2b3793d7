/* reliability_campaign.c — a campaign never loses a finding it says it saved, and its
 * totals are exact.  The deliberately wrong pass swap-sub (tests/swap_sub_pass.h) makes
 * findings; an injected full disk (CIRC_WRITE_FAIL, fuzz/atomic_write.h) fails writes:
 *   1. with the Nth write failing, and with every write failing, each new signature is
 *      either saved (its .circ parses and replays the signature under check_module, its
 *      .json is there) or reported as NOT SAVED and counted in st.unsaved; no partial
 *      or temporary file is left;
 *   2. a rerun over the same folder keeps the first run's reproducers byte for byte and
 *      saves its own as NAME-2.circ;
 *   3. a folder locked by another campaign: campaign_run refuses to start (-1);
 *   4. --max-programs N checks exactly N programs for 1, 2 and 3 jobs, also when workers
 *      crash (a pass that aborts), and the outcome mix adds up to the run lines;
 *   5. --seconds 2 with a worker stuck in a hanging pass ends within a second of 2 s;
 *   6. with --reduce a saved finding keeps its provenance header and says it was
 *      reduced.
 * Usage: test_reliability_campaign OUTDIR */
#include "fuzz/campaign.h"
#include "fuzz/reduce.h"
#include "tests/swap_sub_pass.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/test_check.h"

static bool abort_on_mul(PassContext *ctx, Func *f)
{
    (void)ctx;
    for (GateId g = NUM_ROOTS; g < f->circ->ngates; g++)
        if (!f->circ->gates[g].dead && f->circ->gates[g].op == OP_MUL)
            abort();
    return false;
}

static bool stall_on_udiv(PassContext *ctx, Func *f)
{
    (void)ctx;
    for (GateId g = NUM_ROOTS; g < f->circ->ngates; g++)
        while (!f->circ->gates[g].dead && f->circ->gates[g].op == OP_UDIV)
            sleep(1);
    return false;
}

static const PassInfo abort_pass = {"abort-mul", abort_on_mul, "aborts on a function with MUL"};
static const PassInfo stall_pass = {"stall-udiv", stall_on_udiv, "never returns on a function with UDIV"};

static void options(CampaignOptions *o, const char *dir, const PassInfo *pass, uint64_t programs)
{
    campaign_options_default(o);
    o->seconds = 0;
    o->max_programs = programs;
    o->seed = 11;
    o->jobs = 2;
    o->out_dir = dir;
    o->status_mode = STATUS_PLAIN;
    o->status_interval = 1000;
    o->check.extra_passes = pass;
    o->check.nextra_passes = 1;
    o->check.targets = pass == &swap_sub_info ? "pass-swap-sub" : pass == &abort_pass ? "pass-abort-mul" : "pass-stall-udiv";
    /* swap-sub turns a count-down loop's `i - 1` into `1 - i`, which may never end:
     * a budget of a million steps (not ten) makes those runs time out sooner */
    o->check.interp.max_steps = 1000000;
}

/* run a campaign, its status lines into *log (malloc'd) */
static int run(const CampaignOptions *o, CampaignStats *st, char **log)
{
    size_t len;
    FILE *status = open_memstream(log, &len);
    int rc = campaign_run(o, st, status);
    fclose(status);
    return rc;
}

static bool replays(const char *path, const char *sig, const CheckOptions *check)
{
    Diag d;
    diag_init(&d, path, stderr);
    Module *m = parse_file(path, &d);
    if (!m || verify_module(m, &d)) {
        module_free(m);
        return false;
    }
    CheckResult *res = malloc(sizeof *res);
    bool ok = res && !check_module(m, check, res) && !strcmp(res->signature, sig);
    free(res);
    module_free(m);
    return ok;
}

/* the saved findings of a status log replay and have their .json; the rest are
 * reported NOT SAVED; returns the number saved */
static uint64_t check_log(const char *log, const CampaignOptions *o, const CampaignStats *st)
{
    uint64_t saved = 0, unsaved = 0;
    for (const char *l = strstr(log, "new finding "); l; l = strstr(l + 1, "new finding ")) {
        char sig[128], path[4096], line[4400];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(l, "\n"), l);
        if (sscanf(line, "new finding %127s -> %4095s", sig, path) == 2 && !strstr(line, "NOT SAVED")) {
            saved++;
            CHECK(replays(path, sig, &o->check), "%s replays %s", path, sig);
            strcpy(path + strlen(path) - 5, ".json");
            CHECK(access(path, R_OK) == 0, "%s is there", path);
        } else {
            unsaved += strstr(line, "NOT SAVED") != NULL;
        }
    }
    CHECK(saved + unsaved == st->signatures, "%llu saved + %llu not saved = %llu signatures",
          (unsigned long long)saved, (unsigned long long)unsaved, (unsigned long long)st->signatures);
    CHECK(unsaved == st->unsaved, "%llu reported not saved, %llu counted", (unsigned long long)unsaved,
          (unsigned long long)st->unsaved);
    return saved;
}

/* files in dir other than the lock: *.circ and *.json count; any other is a leftover */
static uint32_t count_files(const char *dir, uint32_t *leftovers)
{
    uint32_t n = 0;
    *leftovers = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".circ-fuzz.lock") && strcmp(e->d_name, ".") &&
            strcmp(e->d_name, ".."))
            ++*leftovers;
        else if (dot && (!strcmp(dot, ".circ") || !strcmp(dot, ".json")))
            n++;
    }
    if (d)
        closedir(d);
    return n;
}

/* ---- 1. injected write failures -------------------------------------------------------- */
typedef struct {
    uint64_t signatures;
    char sig[128], path[4096]; /* the first finding saved */
} FirstRun;

static void test_write_failures(const char *out, const char *fail, FirstRun *fr)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/fail-%s", out, fail);
    setenv("CIRC_WRITE_FAIL", fail, 1);
    CampaignOptions o;
    options(&o, dir, &swap_sub_info, 120);
    CampaignStats st;
    char *log = NULL;
    CHECK(run(&o, &st, &log) == 0, "campaign ran");
    unsetenv("CIRC_WRITE_FAIL");
    uint64_t saved = check_log(log, &o, &st);
    uint32_t leftovers, files = count_files(dir, &leftovers);
    CHECK(leftovers == 0, "%s: %u temporary files left", dir, leftovers);
    CHECK(files == 2 * saved, "%s: %u files for %llu saved findings", dir,
          files, (unsigned long long)saved);
    CHECK(st.signatures >= 2, "several signatures to save (%llu)", (unsigned long long)st.signatures);
    if (!strcmp(fail, "1+"))
        CHECK(saved == 0 && st.unsaved == st.signatures, "a full disk saves nothing and says so");
    else if (!strcmp(fail, "3"))
        CHECK(st.unsaved == 1, "the third write failing loses one finding: %llu", (unsigned long long)st.unsaved);
    else
        CHECK(st.unsaved == 0, "nothing lost without failures");
    printf("CIRC_WRITE_FAIL=%s: %llu signatures, %llu saved, %llu not saved\n", fail,
           (unsigned long long)st.signatures, (unsigned long long)saved, (unsigned long long)st.unsaved);
    fr->signatures = st.signatures;
    const char *l = strstr(log, "new finding ");
    if (!l || sscanf(l, "new finding %127s -> %4095s", fr->sig, fr->path) != 2)
        fr->path[0] = 0;
    free(log);
}

/* ---- 2. a rerun keeps the earlier reproducers -------------------------------------------- */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    for (int c; f && (c = fgetc(f)) != EOF;)
        fputc(c, mem);
    if (f)
        fclose(f);
    fclose(mem);
    return text;
}

static void test_rerun(const char *out, const FirstRun *fr)
{
    char dir[1100], second[4200];
    snprintf(dir, sizeof dir, "%s/fail-0", out);
    CampaignOptions o;
    options(&o, dir, &swap_sub_info, 120);
    const char *first = fr->path;
    uint64_t signatures = fr->signatures;
    CHECK(*first, "the first run saved a finding");
    snprintf(second, sizeof second, "%.*s-2.circ", (int)strlen(first) - 5, first);
    char *before = slurp(first);
    CampaignStats st;
    char *log = NULL;
    CHECK(run(&o, &st, &log) == 0 && st.signatures == signatures, "the rerun ran");
    check_log(log, &o, &st);
    char *after = slurp(first);
    CHECK(before && after && *before && !strcmp(before, after), "the first run's %s is unchanged", first);
    CHECK(replays(second, fr->sig, &o.check), "the rerun's finding is %s", second);
    uint32_t leftovers;
    CHECK(count_files(dir, &leftovers) == 4 * signatures, "both runs' files are there");
    free(before);
    free(after);
    free(log);
}

/* ---- 3. the folder's lock ------------------------------------------------------------------- */
static void test_lock(const char *out)
{
    char dir[1100], lock[1200];
    snprintf(dir, sizeof dir, "%s/locked", out);
    mkdir(dir, 0777);
    snprintf(lock, sizeof lock, "%s/.circ-fuzz.lock", dir);
    int fd = open(lock, O_RDWR | O_CREAT, 0666);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0, "lock taken");
    CampaignOptions o;
    options(&o, dir, &swap_sub_info, 5);
    CampaignStats st;
    char *log = NULL;
    CHECK(run(&o, &st, &log) == -1, "a campaign on a locked folder does not start");
    CHECK(strstr(log, "another campaign") != NULL, "and says why: %s", log);
    CHECK(st.programs == 0, "no program checked");
    free(log);
    close(fd);
    log = NULL;
    CHECK(run(&o, &st, &log) == 0 && st.programs == 5, "the folder is usable once unlocked");
    free(log);
}

/* ---- 4, 5. exact totals ------------------------------------------------------------------------ */
static void test_totals(const char *out)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/totals", out);
    static const uint32_t jobs[] = {1, 2, 3}, counts[] = {1, 7, 30};
    for (int j = 0; j < 3; j++)
        for (int c = 0; c < 3; c++) {
            CampaignOptions o;
            options(&o, dir, &abort_pass, counts[c]);
            o.jobs = jobs[j];
            CampaignStats st;
            char *log = NULL;
            CHECK(run(&o, &st, &log) == 0, "ran");
            CHECK(st.programs == counts[c], "--max-programs %u --jobs %u: %llu programs", counts[c], jobs[j],
                  (unsigned long long)st.programs);
            uint64_t kinds = 0;
            for (int k = 0; k < 5; k++)
                kinds += st.outcome_kinds[k];
            CHECK(kinds == st.runs, "outcomes %llu of %llu run lines", (unsigned long long)kinds,
                  (unsigned long long)st.runs);
            if (counts[c] == 30)
                CHECK(st.crashes > 0, "the workers crashed (%llu)", (unsigned long long)st.crashes);
            free(log);
        }
    CampaignOptions o;
    options(&o, dir, &stall_pass, 0);
    o.seconds = 2;
    CampaignStats st;
    char *log = NULL;
    CHECK(run(&o, &st, &log) == 0, "ran");
    CHECK(st.elapsed < 3.0, "--seconds 2 with a stalled worker took %.1f s", st.elapsed);
    printf("--seconds 2, a stalled worker: %.2f s, %llu programs\n", st.elapsed, (unsigned long long)st.programs);
    free(log);
}

/* ---- 6. reduced findings keep their header --------------------------------------------------- */
static void test_reduced_header(const char *out)
{
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/reduced", out);
    CampaignOptions o;
    options(&o, dir, &swap_sub_info, 50);
    o.jobs = 1;
    o.stop_on_mismatch = true;
    o.reduce = true;
    o.reducer = reduce_campaign_finding;
    CampaignStats st;
    char *log = NULL;
    int rc = run(&o, &st, &log);
    CHECK(rc == 0 && st.signatures >= 1, "found one: rc %d, %llu signatures", rc, (unsigned long long)st.signatures);
    char sig[128], path[4096];
    const char *l = strstr(log, "new finding ");
    CHECK(l && sscanf(l, "new finding %127s -> %4095s", sig, path) == 2, "saved: %s", log);
    if (l) {
        char *text = slurp(path);
        CHECK(text && !strncmp(text, "; circ fuzz finding ", 20), "the header is kept");
        CHECK(text && strstr(text, "\n; campaign seed 11, worker 0"), "with the campaign's seed");
        CHECK(text && strstr(text, "\n; reduced by circ reduce from "), "and says it was reduced");
        CHECK(replays(path, sig, &o.check), "the reduced finding replays %s", sig);
        free(text);
    }
    free(log);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_reliability_campaign OUTDIR\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    char out[1024];
    snprintf(out, sizeof out, "%s/run-XXXXXX", argv[1]); /* a fresh folder each time */
    if (!mkdtemp(out))
        return 2;
    FirstRun first, other;
    test_write_failures(out, "0", &first);
    test_write_failures(out, "3", &other);
    test_write_failures(out, "1+", &other);
    test_rerun(out, &first);
    test_lock(out);
    test_totals(out);
    test_reduced_header(out);
    printf("%d of %d checks failed\n", failures, checks);
    return failures ? 1 : 0;
}
