/* fuzz_campaign.c — the campaign and check APIs catch broken compilers:
 *   1. a deliberately wrong pass installed through the pass manager's plugin hook
 *      (x - y folded to y - x) is caught by check_module on a two-line program, with
 *      the signature pass-wrong-sub:return-vs-return, and not without the pass;
 *   2. a campaign (1 worker) with that pass finds it within 10 seconds, saves
 *      DIR/pass-wrong-sub_return-vs-return.circ and .json, and the saved program
 *      reproduces the signature under check_module (and checks clean without the pass);
 *   3. a pass that crashes its process on some programs: the campaign records
 *      crash:SIGABRT with its program and, restarting the worker each time, still
 *      checks its 150 programs;
 *   4. a pass that never returns on some programs: the worker is killed after
 *      --hang-seconds, the hang is a finding, the campaign goes on;
 *   5. a pass stage whose pass left every function as it was runs nothing (the
 *      oracle's outcomes stand), whatever the pass claims; one that breaks the
 *      circuit while claiming no change is still caught by the verifier;
 *   6. check_module_given: the oracle's outcomes handed in (as the campaign does)
 *      check clean when they are right; one that misses its run line's expectation
 *      is reported as oracle:return-vs-return and no stage runs.
 * Usage: test_fuzz_campaign OUTDIR */
#include "fuzz/campaign.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/test_check.h"

/* ---- broken passes ------------------------------------------------------------------ */
static bool wrong_sub(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    bool changed = false;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        Gate *gt = circ_gate(c, g);
        if (gt->dead || gt->op != OP_SUB || gate_data(gt, 0) == gate_data(gt, 1))
            continue;
        GateId a = gate_data(gt, 0), b = gate_data(gt, 1);
        uint32_t base = gt->nstate + gt->ndep;
        circ_set_input(c, g, base, b);
        circ_set_input(c, g, base + 1, a);
        changed = true;
    }
    return changed;
}

static bool has_op(const Func *f, int op)
{
    for (GateId g = NUM_ROOTS; g < f->circ->ngates; g++)
        if (!f->circ->gates[g].dead && f->circ->gates[g].op == op)
            return true;
    return false;
}

static bool crash_on_urem(PassContext *ctx, Func *f)
{
    (void)ctx;
    if (has_op(f, OP_UREM))
        abort();
    return false;
}

static bool hang_on_srem(PassContext *ctx, Func *f)
{
    (void)ctx;
    while (has_op(f, OP_SREM))
        sleep(1);
    return false;
}

/* claims a change, makes none */
static bool idle(PassContext *ctx, Func *f)
{
    (void)ctx, (void)f;
    return true;
}

/* gives SUB a float type (invalid), claims no change */
static bool lying_sub(PassContext *ctx, Func *f)
{
    (void)ctx;
    for (GateId g = NUM_ROOTS; g < f->circ->ngates; g++)
        if (!f->circ->gates[g].dead && f->circ->gates[g].op == OP_SUB)
            f->circ->gates[g].type = TY_F64;
    return false;
}

static const PassInfo idle_pass = {"idle", idle, "changes nothing, says it did"};
static const PassInfo lying_pass = {"lying-sub", lying_sub, "breaks SUB, says it changed nothing"};
static const PassInfo wrong_pass = {"wrong-sub", wrong_sub, "swaps the operands of SUB (wrong on purpose)"};
static const PassInfo crash_pass = {"crash-urem", crash_on_urem, "aborts on a function with UREM"};
static const PassInfo hang_pass = {"hang-srem", hang_on_srem, "never returns on a function with SREM"};

/* ---- 5. pass stages that change nothing ------------------------------------------- */
static void test_unchanged_stage(const Module *m, CheckResult *res)
{
    CheckOptions o;
    check_options_default(&o);
    o.targets = "pass-idle";
    o.extra_passes = &idle_pass;
    o.nextra_passes = 1;
    CHECK(check_module(m, &o, res), "the idle pass checks clean: %s", res->signature);
    CHECK(res->stages == 1 && res->execs == 1, "an unchanged stage runs nothing: %llu stages, %llu execs",
          (unsigned long long)res->stages, (unsigned long long)res->execs);
    o.targets = "pass-wrong-sub";
    o.extra_passes = &wrong_pass;
    CHECK(!check_module(m, &o, res) && res->execs == 2, "a changed stage runs: %llu execs",
          (unsigned long long)res->execs);
    o.targets = "pass-lying-sub";
    o.extra_passes = &lying_pass;
    CHECK(!check_module(m, &o, res), "a pass that breaks the circuit quietly is caught");
    CHECK(!strcmp(res->signature, "pass-lying-sub:verify"), "signature %s", res->signature);
}

/* ---- 6. the oracle's outcomes given ------------------------------------------------- */
static void test_given_oracle(const Module *m, CheckResult *res)
{
    CheckOptions o;
    check_options_default(&o);
    o.check_expectations = true;
    o.targets = "pass,O,sched";
    Outcome *given = calloc(1, sizeof *given);
    if (!given)
        abort();
    given->kind = OUT_RETURN;
    given->type = TY_I32;
    given->bits = 7;
    heap_fill_pattern(given->heap);
    CHECK(check_module_given(m, &o, given, res), "the right outcome checks clean: %s", res->signature);
    CHECK(res->runs == 1 && res->stages > 0 && res->execs > 0, "the stages ran: %llu stages, %llu execs",
          (unsigned long long)res->stages, (unsigned long long)res->execs);
    given->bits = 8;
    CHECK(!check_module_given(m, &o, given, res), "an outcome that misses the expectation is caught");
    CHECK(!strcmp(res->signature, "oracle:return-vs-return"), "signature %s", res->signature);
    CHECK(!strcmp(res->stage, "oracle") && res->run == 0, "stage %s, run %u", res->stage, res->run);
    CHECK(res->stages == 0 && res->execs == 0, "no stage ran: %llu stages, %llu execs",
          (unsigned long long)res->stages, (unsigned long long)res->execs);
    free(given);
}

/* ---- 1. check_module on a small program -------------------------------------------- */
static const char diff_src[] =
    "func @diff(i32, i32) -> i32 {\n"
    "  %a = ARG i32 0\n  %b = ARG i32 1\n  %d = SUB i32 (%a, %b)\n"
    "  RETURN [entry] {entry} (%d)\n}\n"
    "; run: @diff(10, 3) == 7\n";

static Module *parse_text(const char *name, const char *src)
{
    Diag d;
    diag_init(&d, name, stderr);
    Module *m = parse_module(name, src, strlen(src), &d);
    if (m && verify_module(m, &d)) {
        module_free(m);
        m = NULL;
    }
    return m;
}

static void test_check_module(CheckResult *res)
{
    Module *m = parse_text("diff.circ", diff_src);
    CHECK(m, "diff.circ parses");
    if (!m)
        return;
    CheckOptions o;
    check_options_default(&o);
    o.check_expectations = true;
    o.targets = "pass,O,sched";
    CHECK(check_module(m, &o, res), "clean without the wrong pass: %s", res->signature);
    o.extra_passes = &wrong_pass;
    o.nextra_passes = 1;
    CHECK(!check_module(m, &o, res), "the wrong pass is caught");
    CHECK(!strcmp(res->signature, "pass-wrong-sub:return-vs-return"), "signature %s", res->signature);
    CHECK(!strcmp(res->stage, "pass-wrong-sub"), "stage %s", res->stage);
    CHECK(res->expected.bits == 7 && res->got.bits == (uint64_t)(uint32_t)-7, "outcomes %llu vs %llu",
          (unsigned long long)res->expected.bits, (unsigned long long)res->got.bits);
    o.pass_order = "fold,wrong-sub,dce";
    o.targets = "order";
    CHECK(!check_module(m, &o, res) && !strcmp(res->stage, "order-1-wrong-sub"), "pass order stage: %s",
          res->stage);
    test_unchanged_stage(m, res);
    test_given_oracle(m, res);
    module_free(m);
}

/* ---- 2. a campaign catches the wrong pass -------------------------------------------- */
static Module *load(const char *path)
{
    Diag d;
    diag_init(&d, path, stderr);
    Module *m = parse_file(path, &d);
    if (m && verify_module(m, &d)) {
        module_free(m);
        m = NULL;
    }
    return m;
}

static void base_options(CampaignOptions *o, const char *dir, const PassInfo *pass)
{
    campaign_options_default(o);
    o->seconds = 10;
    o->seed = 7;
    o->jobs = 1;
    o->out_dir = dir;
    o->status_mode = STATUS_NONE;
    o->check.extra_passes = pass;
    o->check.nextra_passes = 1;
    o->check.targets = "pass,O,sched"; /* the interpreting stages: what a pass can break */
}

static void test_wrong_pass_campaign(const char *out, CheckResult *res)
{
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/wrong", out);
    CampaignOptions o;
    base_options(&o, dir, &wrong_pass);
    o.stop_on_mismatch = true;
    CampaignStats st;
    CHECK(campaign_run(&o, &st, stderr) == 0, "campaign ran");
    CHECK(st.mismatches >= 1, "a mismatch found (%llu programs)", (unsigned long long)st.programs);
    CHECK(!strncmp(st.first_signature, "pass-wrong-sub:", 15), "first signature %s", st.first_signature);
    CHECK(st.first_finding_at < 10.0, "found after %.2f s", st.first_finding_at);
    printf("wrong pass: %s after %.2f s, %llu programs\n", st.first_signature, st.first_finding_at,
           (unsigned long long)st.programs);
    char name[160];
    check_signature_filename(st.first_signature, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    CHECK(access(path, R_OK) == 0, "%s written", path);
    snprintf(path, sizeof path, "%s/%s.circ", dir, name);
    Module *m = load(path);
    CHECK(m && m->nruns > 0, "%s parses with run lines", path);
    if (!m)
        return;
    CHECK(!check_module(m, &o.check, res) && !strcmp(res->signature, st.first_signature),
          "the saved program reproduces %s (got %s)", st.first_signature, res->signature);
    CheckOptions plain;
    check_options_default(&plain);
    plain.check_expectations = true;
    plain.targets = "pass,O,sched";
    CHECK(check_module(m, &plain, res), "the saved program is clean without the pass: %s", res->signature);
    module_free(m);
}

/* ---- 3, 4. crashes and hangs --------------------------------------------------------- */
static void test_crash_and_hang(const char *out)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/crash", out);
    CampaignOptions o;
    base_options(&o, dir, &crash_pass);
    o.seconds = 0;
    o.max_programs = 150;
    o.check.targets = "pass-crash-urem";
    CampaignStats st;
    CHECK(campaign_run(&o, &st, stderr) == 0, "crash campaign ran");
    CHECK(st.crashes >= 1 && !strcmp(st.first_signature, "crash:SIGABRT"), "crash recorded: %llu, %s",
          (unsigned long long)st.crashes, st.first_signature);
    CHECK(st.programs >= 150, "checking went on after the crashes (%llu programs, %llu crashes)",
          (unsigned long long)st.programs, (unsigned long long)st.crashes);
    printf("crashing pass: %llu crashes in %llu programs\n", (unsigned long long)st.crashes,
           (unsigned long long)st.programs);

    snprintf(dir, sizeof dir, "%s/hang", out);
    base_options(&o, dir, &hang_pass);
    o.seconds = 4;
    o.hang_seconds = 1;
    o.check.targets = "pass-hang-srem";
    CHECK(campaign_run(&o, &st, stderr) == 0, "hang campaign ran");
    CHECK(st.hangs >= 1 && st.signatures == 1, "hang recorded: %llu hangs", (unsigned long long)st.hangs);
    CHECK(st.programs > 0, "checking went on after the hangs");
    printf("hanging pass: %llu hangs, %llu programs\n", (unsigned long long)st.hangs,
           (unsigned long long)st.programs);
}

/* ---- 5. worker processes handing over ------------------------------------------------ */
/* workers that retire after worker_programs check the same programs as workers that
 * live for the whole campaign: the same count and the same oracle outcomes */
static void test_worker_handover(const char *out)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/handover", out);
    CampaignStats st[2];
    for (int k = 0; k < 2; k++) {
        CampaignOptions o;
        base_options(&o, dir, &idle_pass);
        o.seconds = 0;
        o.jobs = 2;
        o.max_programs = 61;
        o.worker_programs = k ? 7 : 0;
        o.check.targets = "O";
        CHECK(campaign_run(&o, &st[k], stderr) == 0, "campaign %d ran", k);
    }
    CHECK(st[0].worker_processes == 2, "no limit: one process a job (%llu)",
          (unsigned long long)st[0].worker_processes);
    /* 31 and 30 programs, 7 a process: 5 processes each */
    CHECK(st[1].worker_processes == 10, "7 programs a process: 10 processes (%llu)",
          (unsigned long long)st[1].worker_processes);
    CHECK(st[0].programs == 61 && st[1].programs == 61, "every program once: %llu and %llu",
          (unsigned long long)st[0].programs, (unsigned long long)st[1].programs);
    CHECK(!memcmp(st[0].outcome_kinds, st[1].outcome_kinds, sizeof st[0].outcome_kinds) &&
              st[0].runs == st[1].runs && st[0].execs == st[1].execs,
          "the same programs: %llu and %llu runs, %llu and %llu execs", (unsigned long long)st[0].runs,
          (unsigned long long)st[1].runs, (unsigned long long)st[0].execs, (unsigned long long)st[1].execs);
    CHECK(!st[1].crashes && !st[1].mismatches, "a handover is no finding (%llu crashes)",
          (unsigned long long)st[1].crashes);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fuzz_campaign OUTDIR\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        return 2;
    test_check_module(res);
    test_wrong_pass_campaign(argv[1], res);
    test_crash_and_hang(argv[1]);
    test_worker_handover(argv[1]);
    free(res);
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
