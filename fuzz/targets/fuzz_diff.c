/* fuzz_diff.c — libFuzzer target: bytes -> the generator (fuzz/gen.h: every byte
 * string is a valid program, with run lines from the interpreter) -> check_module:
 * the oracle against a stage or two of the check (each pass alone, -O1, -O2, the
 * scheduled forms, machine code of every target of the registry under Unicorn).  The
 * first two bytes choose the stages (fuzz/fuzz_input.h: every stage can be chosen),
 * the rest is the program's.  A mismatch aborts with the report and the decoded
 * program.  The stages that start a process per program (the C compilers', the
 * host's CPU, qemu: tens of milliseconds each) are the campaign's (circ fuzz), not
 * this loop's.
 *
 * The emulator engines and the interpreter memory are made once per fuzzing process
 * (LLVMFuzzerInitialize): making them per input would cost more than checking it. */
#include "fuzz/fuzz_input.h"
#include "fuzz/gen.h"

#include <stdlib.h>

static FuzzHarness *harness; /* the fuzzing process's, reused by every input */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    harness = fuzz_harness_new();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t skip = size < FUZZ_PICK_BYTES ? size : FUZZ_PICK_BYTES;
    Module *m = generate(data + skip, size - skip, NULL);
    CheckOptions co;
    check_options_default(&co);
    co.no_c = co.no_native = true; /* a process per input does not fit libFuzzer's loop */
    if (!fuzz_harness_check(harness, m, data + skip, size - skip, data, size, &co)) {
        fuzz_harness_report(harness, "fuzz_diff", m, &co);
        fprintf(stderr, "(circ gen --from-bytes on the input without its first %d bytes gives it)\n",
                FUZZ_PICK_BYTES);
        abort();
    }
    module_free(m);
    return 0;
}
