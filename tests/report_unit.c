/* report_unit.c — the campaign report's bookkeeping without a campaign (fuzz/report.h):
 * a report fed synthetic totals and findings, its files read back.
 *   1. a report folder that is a file is refused with a message;
 *   2. the files exist from the start, say "running", then "finished" after close;
 *   3. many ticks keep at most REPORT_MAX_SAMPLES samples, the first at t = 0 and
 *      the last the final totals';
 *   4. coverage counts a program's gates by opcode and type, per worker record;
 *   5. a finding's text is escaped in both files (no raw markup from a detail), its
 *      mismatches count every hit, its reproduce command names the file;
 *   6. the final totals are written as given (the terminal summary's);
 *   7. a report whose first files cannot be written does not open, one whose final
 *      files cannot be written says so (CIRC_WRITE_FAIL, fuzz/atomic_write.h).
 * Usage: report_unit SCRATCH_DIR */
#include "fuzz/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int failures;
#define CHECK(cond, what)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL: %s\n", what);                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)n + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = 0;
    fclose(f);
    return buf;
}

static unsigned count(const char *hay, const char *needle)
{
    unsigned n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static const char program[] = "func @f(i32, i32) -> i32 {\n"
                              "  %a = ARG i32 0\n  %b = ARG i32 1\n"
                              "  %s = SUB i32 (%a, %b)\n  %t = ADD i32 (%s, %b)\n"
                              "  RETURN [entry] {entry} (%t)\n}\n; run: @f(5, 3) == 5\n";

static void refuses_a_file(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/plain-file", dir);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
    CampaignOptions o;
    campaign_options_default(&o);
    o.report_dir = path;
    CampaignReport *r = (CampaignReport *)&o; /* must be set to NULL */
    CHECK(!campaign_report_open(&r, &o, stderr) && !r, "a report folder that is a file is refused");
}

static void feed(CampaignReport *r, CampaignStats *st, const Module *m)
{
    for (int i = 1; i <= 700; i++) { /* 700 samples due: thinned once */
        st->programs = (uint64_t)i * 7;
        st->runs = st->programs * 3;
        st->outcome_kinds[OUT_RETURN] = st->runs - (uint64_t)i;
        st->outcome_kinds[OUT_TRAP] = (uint64_t)i;
        campaign_report_tick(r, st, i * 2.0);
    }
    campaign_report_count(campaign_report_coverage(r, 1), m, &(CheckOptions){.levels = CHECK_O0});
    ReportFinding f = {.signature = "pass-x:return-vs-return", .stage = "pass-x",
                       .detail = "returned 1 <script>alert(\"x\")</script> vs 2", .worker = 1, .index = 9,
                       .at = 12.5, .path = "out/pass-x_return-vs-return.circ", .program = m};
    campaign_report_mismatch(r, f.signature); /* record_finding's order: the hit, then the finding */
    campaign_report_finding(r, &f);
    campaign_report_mismatch(r, f.signature);
    campaign_report_mismatch(r, f.signature);
}

static void write_failures(const char *dir)
{
    CampaignOptions o;
    campaign_options_default(&o);
    o.report_dir = dir;
    CampaignReport *r;
    setenv("CIRC_WRITE_FAIL", "1", 1);
    CHECK(!campaign_report_open(&r, &o, stderr) && !r, "a report whose first file fails does not open");
    setenv("CIRC_WRITE_FAIL", "3+", 1); /* the open's two files are written, the final ones fail */
    CHECK(campaign_report_open(&r, &o, stderr) && r, "the report opens before the failures");
    CampaignStats st = {0};
    CHECK(r && !campaign_report_close(r, &st, stderr), "a final report that cannot be written is reported");
    unsetenv("CIRC_WRITE_FAIL");
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    mkdir(argv[1], 0777);
    refuses_a_file(argv[1]);
    char dir[4200], json[4300], html[4300];
    snprintf(dir, sizeof dir, "%s/report", argv[1]);
    snprintf(json, sizeof json, "%s/report.json", dir);
    snprintf(html, sizeof html, "%s/report.html", dir);
    CampaignOptions o;
    campaign_options_default(&o);
    o.jobs = 2;
    o.report_dir = dir;
    o.report_check_command = "circ check -O0";
    CampaignReport *r;
    CHECK(campaign_report_open(&r, &o, stderr) && r, "the report opens");
    if (!r)
        return 1;
    char *text = slurp(json);
    CHECK(strstr(text, "\"status\": \"running\""), "report.json exists from the start, running");
    free(text);
    Diag d;
    diag_init(&d, "unit", stderr);
    Module *m = parse_module("unit", program, sizeof program - 1, &d);
    CampaignStats st = {0};
    feed(r, &st, m);
    st.elapsed = 1401.25;
    st.execs = 123456;
    st.execs_per_sec = 20.6;
    st.mismatches = 3;
    st.signatures = 1;
    CHECK(campaign_report_close(r, &st, stderr), "the final files are written");
    module_free(m);

    text = slurp(json);
    CHECK(strstr(text, "\"status\": \"finished\""), "report.json says finished");
    unsigned samples = count(text, "{\"t\": ");
    CHECK(samples >= 2 && samples <= REPORT_MAX_SAMPLES, "at most REPORT_MAX_SAMPLES samples");
    CHECK(strstr(text, "{\"t\": 0.0, \"programs\": 0,"), "the first sample is the zero at t = 0");
    CHECK(strstr(text, "{\"t\": 1401.2, \"programs\": 4900,") || strstr(text, "{\"t\": 1401.3, \"programs\": 4900,"),
          "the last sample has the final totals");
    CHECK(strstr(text, "\n    \"elapsed\": 1401.2,\n") || strstr(text, "\n    \"elapsed\": 1401.3,\n"),
          "elapsed as given");
    CHECK(strstr(text, "\n    \"execs\": 123456,\n") && strstr(text, "\n    \"execs_per_sec\": 21,\n"),
          "execs and execs/s as given");
    CHECK(strstr(text, "\"opcode\": \"SUB\", \"types\": {\"i32\": 1}, \"programs\": {\"as_generated\": 1"),
          "SUB counted once as i32");
    CHECK(strstr(text, "\"opcode\": \"RETURN\", \"types\": {\"i32\": 1}"), "RETURN counted under its value's type");
    CHECK(strstr(text, "<script>alert(\\\"x\\\")</script>"), "the detail's quotes escaped in report.json");
    CHECK(strstr(text, "\"mismatches\": 3, \"worker\": 1, \"program\": 9"), "every hit of the signature counted");
    CHECK(strstr(text, "\"command\": \"circ check -O0 out/pass-x_return-vs-return.circ\""),
          "the reproduce command names the file");
    free(text);

    text = slurp(html);
    CHECK(!strstr(text, "<script"), "no markup from a detail in the page");
    CHECK(strstr(text, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), "the detail escaped in the page");
    CHECK(strstr(text, "data-key=\"programs\">4900<"), "the page shows the final programs");
    CHECK(count(text, "<svg class=\"chart\"") == 5, "five charts");
    CHECK(!strstr(text, "http-equiv=\"refresh\""), "a finished page does not reload itself");
    free(text);
    snprintf(dir, sizeof dir, "%s/failing", argv[1]);
    write_failures(dir);
    if (!failures)
        printf("report_unit: all checks passed\n");
    return failures ? 1 : 0;
}
