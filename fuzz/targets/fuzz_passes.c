/* fuzz_passes.c — libFuzzer target: the first two bytes choose the stages (fuzz/
 * fuzz_input.h), the next bytes a pass order (1..12 passes of the registry, repeats
 * allowed) and register-allocator knobs (register limits per bank, spill heuristic,
 * coalescing, slot sharing, folding), the rest is a generated program (fuzz/gen.h)
 * with run lines.  The stages are the module after each pass of the order (stages
 * order-K-PASS: the passes before K are applied whether their own stages are chosen
 * or not), then the machine code at -O0 and -O2 under those allocator knobs; an
 * input checks one or two of them.  A mismatch aborts with the report, the order
 * and the program. */
#include "compiler/target.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>

static FuzzHarness *harness; /* the fuzzing process's, reused by every input */

static const char *const pass_names[] = {
#define PASS(name, fn, summary) #name,
#include "compiler/opt/passes.def"
#undef PASS
};
enum { NPASSES = sizeof pass_names / sizeof pass_names[0], HEADER = 8 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    harness = fuzz_harness_new();
    return 0;
}

static uint8_t byte_at(const uint8_t *d, size_t n, size_t i) { return i < n ? d[i] : 0; }

/* the order from up to 12 bytes after the header: "fold,gvn,..." */
static size_t choose_order(const uint8_t *d, size_t n, char *order, size_t cap)
{
    unsigned count = 1 + byte_at(d, n, 0) % 12;
    size_t k = 0;
    order[0] = 0;
    for (unsigned i = 0; i < count; i++)
        k += (size_t)snprintf(order + k, cap - k, "%s%s", i ? "," : "",
                              pass_names[byte_at(d, n, HEADER + i) % NPASSES]);
    return HEADER + count;
}

static void choose_knobs(const uint8_t *d, size_t n, RegallocOptions *ra)
{
    memset(ra, 0, sizeof *ra);
    uint8_t g = byte_at(d, n, 1), f = byte_at(d, n, 2), flags = byte_at(d, n, 4);
    ra->max_regs[BANK_GP] = g < 128 ? 0 : (uint8_t)(4 + g % 12);
    ra->max_regs[BANK_FP] = f < 128 ? 0 : (uint8_t)(2 + f % 14);
    ra->spill = (uint8_t)(byte_at(d, n, 3) % RA_SPILL_COUNT);
    ra->no_coalesce = flags & 1;
    ra->no_share_slots = (flags >> 1) & 1;
    ra->no_fold = (flags >> 2) & 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pick = size < FUZZ_PICK_BYTES ? size : FUZZ_PICK_BYTES;
    const uint8_t *rest = data + pick;
    size_t n = size - pick;
    char order[12 * 24];
    size_t skip = choose_order(rest, n, order, sizeof order);
    CheckOptions co;
    check_options_default(&co);
    co.no_c = co.no_native = true; /* a process per input does not fit libFuzzer's loop */
    co.pass_order = order;
    char names[128], targets[160];
    snprintf(targets, sizeof targets, "order,%s", target_names(names, sizeof names, ",", ","));
    co.targets = targets;
    choose_knobs(rest, n, &co.regalloc);
    const uint8_t *prog = n > skip ? rest + skip : rest + n;
    size_t plen = n > skip ? n - skip : 0;
    Module *m = generate(prog, plen, NULL);
    if (!fuzz_harness_check(harness, m, prog, plen, data, size, &co)) {
        fprintf(stderr, "fuzz_passes: order %s, registers gp %u fp %u, spill %u, flags %u%u%u\n", order,
                co.regalloc.max_regs[0], co.regalloc.max_regs[1], co.regalloc.spill, co.regalloc.no_coalesce,
                co.regalloc.no_share_slots, co.regalloc.no_fold);
        fuzz_harness_report(harness, "fuzz_passes", m, &co);
        abort();
    }
    module_free(m);
    return 0;
}
