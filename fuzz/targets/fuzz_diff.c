/* fuzz_diff.c — libFuzzer target: bytes -> the generator (fuzz/gen.h: every byte
 * string is a valid program, with run lines from the interpreter) -> check_module:
 * the oracle against every stage (each pass alone, -O1, -O2, the scheduled form,
 * machine code of every target of the registry under Unicorn).  A mismatch aborts with the
 * report and the decoded program.
 *
 * The emulator engines are made once per fuzzing process (LLVMFuzzerInitialize):
 * creating them per input would cost more than checking the input. */
#include "fuzz/check.h"
#include "fuzz/gen.h"

#include <stdlib.h>

static CheckEngines *engines; /* the harness process's engines, reused by every input */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    engines = check_engines_new();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GenOptions go = {0};
    Module *m = generate(data, size, &go);
    gen_add_runlines(m, data, size, 3, NULL, NULL);
    CheckOptions co;
    check_options_default(&co);
    co.engines = engines;
    co.no_c = true; /* a compiler process per input does not fit libFuzzer's loop */
    CheckResult *res = malloc(sizeof *res);
    if (!res)
        abort();
    if (!check_module(m, &co, res)) {
        fprintf(stderr, "fuzz_diff: ");
        check_report(stderr, m, res);
        fprintf(stderr, "--- program (circ gen --from-bytes on this input) ---\n");
        print_module(stderr, m);
        abort();
    }
    free(res);
    module_free(m);
    return 0;
}
