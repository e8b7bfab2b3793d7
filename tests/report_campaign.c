/* report_campaign.c — a `circ fuzz --report` campaign with a planted wrong pass, for
 * the report test (tests/report.cmake): `circ fuzz` and `circ check` with the
 * deliberately wrong pass swap-sub (swap_sub_pass.h) installed through
 * CheckOptions.extra_passes, as a pass plugin would be.
 *   report_campaign fuzz SECONDS OUT REPORT   a campaign (seed 1, 2 jobs, --reduce),
 *                                             status and summary on stderr as circ fuzz
 *   report_campaign check FILE                as circ check FILE: exit 1 on a mismatch
 * The report's reproduce commands are `report_campaign check FILE`, so the test can
 * run them. */
#include "fuzz/campaign.h"
#include "fuzz/reduce.h"
#include "swap_sub_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_file(const char *path)
{
    CheckOptions co;
    check_options_default(&co);
    co.check_expectations = true;
    co.extra_passes = &swap_sub_info;
    co.nextra_passes = 1;
    Diag d;
    diag_init(&d, path, stderr);
    Module *m = parse_file(path, &d);
    if (!m)
        return 2;
    CheckResult *res = malloc(sizeof *res);
    bool ok = res && check_module(m, &co, res);
    if (res && !ok)
        check_report(stdout, m, res);
    free(res);
    module_free(m);
    printf("%s: %s\n", path, ok ? "ok" : "mismatch");
    return ok ? 0 : 1;
}

static int fuzz(char **argv)
{
    char command[8192];
    snprintf(command, sizeof command, "%s fuzz %s %s %s", argv[0], argv[2], argv[3], argv[4]);
    char check[4200];
    snprintf(check, sizeof check, "%s check", argv[0]);
    CampaignOptions o;
    campaign_options_default(&o);
    o.seconds = atof(argv[2]);
    o.seed = 1;
    o.jobs = 2;
    o.out_dir = argv[3];
    o.report_dir = argv[4];
    o.report_command = command;
    o.report_check_command = check;
    o.status_mode = STATUS_PLAIN;
    o.status_interval = 2;
    o.reduce = true;
    o.reducer = reduce_campaign_finding;
    o.check.extra_passes = &swap_sub_info;
    o.check.nextra_passes = 1;
    CampaignStats st;
    if (campaign_run(&o, &st, stderr) < 0)
        return 2;
    return st.unsaved || st.report_unsaved ? 2 : st.mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "fuzz"))
        return fuzz(argv);
    if (argc == 3 && !strcmp(argv[1], "check"))
        return check_file(argv[2]);
    fprintf(stderr, "usage: report_campaign fuzz SECONDS OUT REPORT | check FILE\n");
    return 2;
}
