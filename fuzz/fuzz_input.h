/* fuzz_input.h — what the libFuzzer targets fuzz_diff and fuzz_passes (fuzz/targets)
 * share: the state a fuzzing process keeps across inputs, the choice of the few
 * stages an input checks, and the check of one generated program.
 *
 * An input's first FUZZ_PICK_BYTES bytes choose its stages: checking every stage of
 * the list on every input made one execution cost about 100 ms under AddressSanitizer
 * (and as many coverage features for libFuzzer to weigh), so each input checks one or
 * two of them.  Byte 0 picks stage (byte 0 mod N) of the N stages the target's options
 * give (check_list_stages order); byte 1 below FUZZ_PICK_SECOND picks a second one,
 * (byte 1 mod N), else none.  So input {i, 0xff} checks stage i alone, and every
 * stage can be chosen; the rest of the input is the program's. */
#ifndef CIRC_FUZZ_INPUT_H
#define CIRC_FUZZ_INPUT_H

#include "fuzz/check.h"
#include "oracle/mem.h"

enum { FUZZ_PICK_BYTES = 2, FUZZ_PICK_SECOND = 64, FUZZ_RUNS = 3 };

/* the stage_mask (CheckOptions) an input chooses among nstages stages (0: nstages is 0) */
uint64_t fuzz_pick_stages(const uint8_t *data, size_t size, uint32_t nstages);

/* kept by a fuzzing process across its inputs: the emulator engines, one interpreter
 * memory, the oracle's outcomes and the check's result */
typedef struct {
    CheckEngines *engines;
    Mem *memory;      /* made by the first check */
    Outcome outs[FUZZ_RUNS];
    CheckResult res;
} FuzzHarness;

FuzzHarness *fuzz_harness_new(void);
void fuzz_harness_free(FuzzHarness *h);

/* m (generated from bytes) gets up to FUZZ_RUNS run lines from the bytes and is
 * checked under co (its engines and interpreter memory become the harness's, its
 * stage_mask the one the input's first bytes pick, unless co sets one), the
 * oracle's outcomes those the run lines were made from.  True if every stage
 * agreed, else h->res has the first disagreement. */
bool fuzz_harness_check(FuzzHarness *h, Module *m, const uint8_t *bytes, size_t len, const uint8_t *input,
                        size_t input_size, CheckOptions *co);

/* a disagreement to stderr: "NAME: stage mask M: " and the report, then the
 * program; the caller aborts */
void fuzz_harness_report(const FuzzHarness *h, const char *name, const Module *m, const CheckOptions *co);

#endif
