/* fuzz_stage_pick.c — the stage choice of the libFuzzer targets (fuzz/fuzz_input.h)
 * and the check's stage mask (CheckOptions.stage_mask):
 *   1. every stage of fuzz_diff's list (and of a fuzz_passes-like list) is picked,
 *      alone, by the input {i, 0xff}; a second byte below FUZZ_PICK_SECOND adds a
 *      second stage; the same bytes pick the same stages;
 *   2. a mask leaves exactly its stages in the list, in check order, and a check
 *      under it opens exactly those;
 *   3. a deliberately wrong pass is caught only by inputs that choose its stage;
 *   4. an order stage chosen alone runs on the module after every earlier pass of
 *      the order (a wrong pass before it in the order is caught there).
 * Usage: test_fuzz_stage_pick */
#include "fuzz/fuzz_input.h"
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>
#include "tests/test_check.h"
#include "tests/swap_sub_pass.h"

static const char diff_src[] = "func @diff(i32, i32) -> i32 {\n"
                               "  %a = ARG i32 0\n  %b = ARG i32 1\n  %d = SUB i32 (%a, %b)\n"
                               "  RETURN [entry] {entry} (%d)\n}\n"
                               "; run: @diff(10, 3) == 7\n";

static int popcount(uint64_t x) { return __builtin_popcountll(x); }

/* the names check_list_stages gives for o, one per line, into buf */
static void stage_names(const CheckOptions *o, char *buf, size_t n)
{
    FILE *f = fmemopen(buf, n, "w");
    if (!f)
        abort();
    check_list_stages(f, o);
    fclose(f);
}

/* the i-th line of text into out */
static void line_at(const char *text, uint32_t i, char *out, size_t n)
{
    for (; i > 0 && text; i--)
        text = (text = strchr(text, '\n')) ? text + 1 : NULL;
    size_t len = text ? strcspn(text, "\n") : 0;
    snprintf(out, n, "%.*s", (int)len, text ? text : "");
}

/* ---- 1. and 2. every stage can be chosen; a mask keeps its stages ---------------- */
static void test_every_stage(const char *what, CheckOptions *o)
{
    static char all[8192], picked[8192];
    uint32_t n = check_stage_count(o);
    CHECK(n >= 2, "%s: %u stages", what, n);
    stage_names(o, all, sizeof all);
    for (uint32_t i = 0; i < n && i < 63; i++) {
        uint8_t in[2] = {(uint8_t)i, 0xff};
        uint64_t mask = fuzz_pick_stages(in, sizeof in, n);
        CHECK(mask == 1ull << i, "%s: {%u, 0xff} picks 0x%llx", what, i, (unsigned long long)mask);
        CheckOptions one = *o;
        one.stage_mask = mask;
        char want[128];
        line_at(all, i, want, sizeof want);
        strcat(want, "\n");
        stage_names(&one, picked, sizeof picked);
        CHECK(check_stage_count(&one) == 1 && !strcmp(picked, want), "%s: stage %u is %s, the mask gives %s",
              what, i, want, picked);
    }
    uint8_t two[2] = {1, (uint8_t)(n + 2)};
    uint64_t mask = fuzz_pick_stages(two, sizeof two, n);
    CHECK(popcount(mask) == 2 && mask == fuzz_pick_stages(two, sizeof two, n), "%s: {1, n+2} picks 0x%llx", what,
          (unsigned long long)mask);
    CHECK(fuzz_pick_stages(NULL, 0, n) == 1 && fuzz_pick_stages(two, 1, n) == 2, "%s: short inputs", what);
}

/* a check under a mask opens exactly the stages it picks */
static void test_check_opens(CheckResult *res)
{
    uint8_t bytes[512];
    gen_seed_bytes(7, bytes, sizeof bytes);
    Module *m = generate(bytes, sizeof bytes, NULL);
    gen_add_runlines(m, bytes, sizeof bytes, 3, NULL, NULL);
    CheckOptions o;
    check_options_default(&o);
    o.no_c = o.no_native = true;
    o.stage_mask = (1ull << 0) | (1ull << 9);
    bool ok = check_module(m, &o, res);
    CHECK(ok && res->stages == 2, "a two-stage mask opens %llu stages (%s)", (unsigned long long)res->stages,
          res->signature);
    module_free(m);
}

/* ---- 3. and 4. a wrong pass is caught where its stage is chosen ------------------- */
static Module *diff_module(void)
{
    Diag d;
    diag_init(&d, "diff.circ", stderr);
    Module *m = parse_module("diff.circ", diff_src, strlen(diff_src), &d);
    if (!m)
        abort();
    return m;
}

static void test_wrong_pass(CheckResult *res)
{
    Module *m = diff_module();
    CheckOptions o;
    check_options_default(&o);
    o.targets = "pass";
    o.extra_passes = &swap_sub_info;
    o.nextra_passes = 1;
    uint32_t n = check_stage_count(&o); /* the builtin passes, then pass-swap-sub */
    for (uint32_t i = 0; i < n; i++) {
        CheckOptions one = o;
        uint8_t in[2] = {(uint8_t)i, 0xff};
        one.stage_mask = fuzz_pick_stages(in, sizeof in, n);
        bool ok = check_module(m, &one, res);
        bool last = i == n - 1;
        CHECK(ok != last && (ok || !strcmp(res->stage, "pass-swap-sub")), "stage %u of %u: %s", i, n,
              ok ? "clean" : res->signature);
    }
    /* order fold,swap-sub,dce: order-2-dce alone still has swap-sub applied */
    o.targets = "order";
    o.pass_order = "fold,swap-sub,dce";
    o.stage_mask = 1ull << 2;
    bool ok = check_module(m, &o, res);
    CHECK(!ok && !strcmp(res->stage, "order-2-dce"), "order-2-dce alone after swap-sub: %s",
          ok ? "clean" : res->signature);
    o.stage_mask = 1ull << 0;
    CHECK(check_module(m, &o, res), "order-0-fold alone: %s", res->signature);
    module_free(m);
}

int main(void)
{
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        abort();
    CheckOptions o;
    check_options_default(&o);
    o.no_c = true;
    test_every_stage("fuzz_diff", &o);
    o.pass_order = "fold,gvn,dce,inline,lse";
    o.targets = "order,x86-64,arm64";
    test_every_stage("fuzz_passes", &o);
    test_check_opens(res);
    test_wrong_pass(res);
    free(res);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
