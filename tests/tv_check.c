/* tv_check.c — the tv-PASS stages of the differential check and of a campaign
 * (fuzz/check_tv.c), with the deliberately wrong pass swap-sub (tests/swap_sub_pass.h):
 *   1. check_module with tv on a module whose run lines do not show the swap (x - x
 *      style arguments): the stage tv-swap-sub fails with tv-swap-sub:refuted, its
 *      detail holds a confirming run line; added to the module (check_tv_add_runline)
 *      that run line shows the mismatch to the plain differential stage pass-swap-sub;
 *   2. the correct -O2 pipeline on generated programs: tv stages prove, nothing refuted,
 *      the tally counts the applications; with the pipeline's time budget spent every
 *      changed application is unknown for that reason;
 *   3. a short campaign (tv, swap-sub, tv stages only) finds tv-swap-sub:refuted, saves
 *      it with a run line that replays the finding with and without tv, the summary
 *      counts the verdicts; the finding reduces (reduce_campaign_finding) keeping the
 *      signature.
 * Usage: tv_check OUTDIR */
#include "fuzz/campaign.h"
#include "fuzz/reduce.h"
#include "tests/swap_sub_pass.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/test_check.h"

/* SUB of two arguments; the run lines call it with equal arguments, where the swap
 * is invisible */
static const char sub_src[] = "func @f(i32, i32) -> i32 {\n"
                              "  %a = ARG i32 0\n"
                              "  %b = ARG i32 1\n"
                              "  %d = SUB i32 (%a, %b)\n"
                              "  RETURN [entry] {entry} (%d)\n"
                              "}\n"
                              "; run: @f(3, 3) == 0\n"
                              "; run: @f(-7, -7) == 0\n";

/* the module of text (path NULL) or of the file at path, verified; NULL (errors
 * printed) if it does not parse or verify */
static Module *load(const char *path, const char *text)
{
    Diag d;
    diag_init(&d, path ? path : "tv_check", stderr);
    Module *m = path ? parse_file(path, &d) : parse_module("tv_check", text, strlen(text), &d);
    if (m && verify_module(m, &d)) {
        module_free(m);
        return NULL;
    }
    return m;
}

static void swap_options(CheckOptions *o, const char *targets)
{
    check_options_default(o);
    o->check_expectations = true;
    o->extra_passes = &swap_sub_info;
    o->nextra_passes = 1;
    o->targets = targets;
}

static void test_check_refutes(void)
{
    Module *m = load(NULL, sub_src);
    CHECK(m != NULL, "the SUB module parses");
    if (!m)
        return;
    CheckOptions o;
    swap_options(&o, "pass-swap-sub");
    CheckResult *res = malloc(sizeof *res);
    CHECK(check_module(m, &o, res), "the run lines do not show the swap: %s", res->signature);
    o.tv = true;
    o.targets = "tv";
    CHECK(!check_module(m, &o, res) && !strcmp(res->signature, "tv-swap-sub:refuted"),
          "tv refutes swap-sub: '%s' (%s)", res->signature, res->detail);
    CHECK(strstr(res->detail, "; run: @f(") != NULL, "the detail has a run line: %s", res->detail);
    CHECK(res->tv.refuted == 1 && res->tv.unconfirmed == 0, "tallied: %llu refuted",
          (unsigned long long)res->tv.refuted);
    uint32_t runs = m->nruns;
    CHECK(check_tv_add_runline(&m, res->signature, res->detail, NULL), "the run line is added");
    CHECK(m->nruns == runs + 1, "one more run line: %u", m->nruns);
    CheckOptions plain;
    swap_options(&plain, "pass-swap-sub");
    CHECK(!check_module(m, &plain, res) && res->run == runs,
          "the confirming run line shows the mismatch without tv: '%s' at run %u", res->signature, res->run);
    free(res);
    module_free(m);
}

/* the generated program of size 50 from seed, with 3 run lines */
static Module *gen_program(uint64_t seed)
{
    GenOptions g = {.size = 50};
    size_t n = gen_bytes_for_size(50);
    uint8_t *bytes = malloc(n);
    gen_seed_bytes(seed, bytes, n);
    Module *m = generate(bytes, n, &g);
    gen_add_runlines(m, bytes, n, 3, NULL, NULL);
    free(bytes);
    return m;
}

static void test_pipeline_proved(void)
{
    CheckOptions o;
    check_options_default(&o);
    o.tv = true;
    o.targets = "tv";
    o.levels = CHECK_O2;
    CheckResult *res = malloc(sizeof *res);
    CheckTvTally sum = {0};
    for (uint64_t seed = 1; seed <= 5; seed++) {
        Module *m = gen_program(seed);
        CHECK(check_module(m, &o, res), "seed %llu: %s %s", (unsigned long long)seed, res->signature, res->detail);
        check_tv_tally_add(&sum, &res->tv);
        module_free(m);
    }
    o.tv_options.max_seconds = 1e-9; /* the budget is spent before the first proof */
    Module *m = gen_program(1);
    CHECK(check_module(m, &o, res) && res->tv.unknown > 0 && res->tv.reasons[TVR_BUDGET] == res->tv.unknown &&
              res->tv.proved + res->tv.proved_upto == 0,
          "a spent budget: %llu unknown, %llu by the budget", (unsigned long long)res->tv.unknown,
          (unsigned long long)res->tv.reasons[TVR_BUDGET]);
    module_free(m);
    CHECK(sum.proved + sum.proved_upto > 0 && sum.refuted == 0 && sum.unconfirmed == 0,
          "-O2 proved: %llu proved, %llu refuted, %llu unconfirmed", (unsigned long long)(sum.proved + sum.proved_upto),
          (unsigned long long)sum.refuted, (unsigned long long)sum.unconfirmed);
    check_tv_print_tally(stdout, "-O2, seeds 1..5: ", &sum);
    free(res);
}

/* the saved finding replays with tv and, through its confirming run line, without */
static void check_saved(const char *path, const CheckOptions *tv)
{
    Module *m = load(path, NULL);
    CHECK(m != NULL, "%s parses", path);
    if (!m)
        return;
    CheckResult *res = malloc(sizeof *res);
    CHECK(!check_module(m, tv, res) && !strcmp(res->signature, "tv-swap-sub:refuted"), "%s replays: '%s'", path,
          res->signature);
    CheckOptions plain;
    swap_options(&plain, "pass-swap-sub");
    CHECK(!check_module(m, &plain, res), "%s: a run line shows the mismatch without tv", path);
    Module *r = reduce_campaign_finding(m, "tv-swap-sub:refuted", tv, 60, NULL);
    CHECK(r != NULL, "the finding reduces");
    if (r) {
        CHECK(!check_module(r, tv, res) && !strcmp(res->signature, "tv-swap-sub:refuted"),
              "the reduced finding keeps the signature: '%s'", res->signature);
        printf("reduced from %u to %u gates\n", reduce_gate_count(m), reduce_gate_count(r));
    }
    module_free(r);
    free(res);
    module_free(m);
}

static void test_campaign(const char *out)
{
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%.4000s/tv-campaign-XXXXXX", out);
    CHECK(mkdtemp(dir) != NULL, "a folder for the findings");
    CampaignOptions o;
    campaign_options_default(&o);
    o.seconds = 0;
    o.max_programs = 40;
    o.gen.size = 50;
    o.out_dir = dir;
    o.status_mode = STATUS_PLAIN;
    o.status_interval = 1000;
    o.stop_on_mismatch = true;
    swap_options(&o.check, "tv");
    o.check.tv = true;
    char *log = NULL;
    size_t len;
    FILE *status = open_memstream(&log, &len);
    CampaignStats st;
    int rc = campaign_run(&o, &st, status);
    fclose(status);
    fputs(log, stdout);
    CHECK(rc == 0 && st.signatures >= 1 && !strcmp(st.first_signature, "tv-swap-sub:refuted"),
          "the campaign finds tv-swap-sub:refuted: rc %d, first '%s'", rc, st.first_signature);
    CHECK(st.tv.refuted >= 1 && st.tv.proved + st.tv.proved_upto > 0, "the campaign counts the verdicts");
    CHECK(strstr(log, "tv proved ") && strstr(log, "tv: ") && strstr(log, " refuted, "),
          "the status line and the summary show the tv counts");
    snprintf(path, sizeof path, "%s/tv-swap-sub_refuted.circ", dir);
    CHECK(access(path, R_OK) == 0, "%s is saved", path);
    check_saved(path, &o.check);
    free(log);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tv_check OUTDIR\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    test_check_refutes();
    test_pipeline_proved();
    test_campaign(argv[1]);
    printf("tv_check: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
