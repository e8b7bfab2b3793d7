/* fuzz_input.c — the libFuzzer targets' common part (fuzz_input.h): the stage choice
 * of an input, the state kept across inputs, the check of one program. */
#include "fuzz/fuzz_input.h"
#include "fuzz/gen.h"

#include <stdlib.h>

static uint64_t stage_bit(uint32_t i) { return 1ull << (i < 63 ? i : 63); }

uint64_t fuzz_pick_stages(const uint8_t *data, size_t size, uint32_t nstages)
{
    if (!nstages)
        return 0;
    uint8_t first = size > 0 ? data[0] : 0, second = size > 1 ? data[1] : 0xff;
    uint64_t mask = stage_bit(first % nstages);
    if (second < FUZZ_PICK_SECOND)
        mask |= stage_bit(second % nstages);
    return mask;
}

FuzzHarness *fuzz_harness_new(void)
{
    FuzzHarness *h = calloc(1, sizeof *h);
    if (!h)
        abort();
    h->engines = check_engines_new();
    return h;
}

void fuzz_harness_free(FuzzHarness *h)
{
    if (!h)
        return;
    check_engines_free(h->engines);
    mem_free(h->memory);
    free(h);
}

bool fuzz_harness_check(FuzzHarness *h, Module *m, const uint8_t *bytes, size_t len, const uint8_t *input,
                        size_t input_size, CheckOptions *co)
{
    if (!h->memory)
        h->memory = mem_new(m);
    co->engines = h->engines;
    co->interp.memory = h->memory;
    uint32_t made = gen_add_runlines(m, bytes, len, FUZZ_RUNS, &co->interp, h->outs);
    if (!co->stage_mask)
        co->stage_mask = fuzz_pick_stages(input, input_size, check_stage_count(co));
    /* every run made became a run line: the outcomes are the oracle's, in order */
    if (made == m->nruns)
        return check_module_given(m, co, h->outs, &h->res);
    return check_module(m, co, &h->res);
}

void fuzz_harness_report(const FuzzHarness *h, const char *name, const Module *m, const CheckOptions *co)
{
    fprintf(stderr, "%s: stage mask 0x%llx: ", name, (unsigned long long)co->stage_mask);
    check_report(stderr, m, &h->res);
    fprintf(stderr, "--- program ---\n");
    print_module(stderr, m);
}
