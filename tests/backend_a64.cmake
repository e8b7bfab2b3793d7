# backend_a64.cmake — the ARM64 backend end to end (lowering, selection, allocation,
# frame, encoding) against the expectations and the reference interpreter, run under
# Unicorn; and `circ compile` / `circ test --target arm64` on the command line.
# test_backend_diff (backend_diff.cmake) runs the differential checks below

# every run line of the examples, the semantics suite and the regression corpus, at
# -O0 and -O2, meets its expectation on ARM64
file(GLOB _a64_files ${CIRC_EXAMPLES}/*.circ ${CMAKE_SOURCE_DIR}/tests/semantics/*.circ
     ${CMAKE_SOURCE_DIR}/corpus/regress/*.circ ${CMAKE_SOURCE_DIR}/corpus/seeds/*.circ)
add_test(NAME backend_a64_files COMMAND test_backend_diff --target arm64 files ${_a64_files})
# the same with 3 general and 2 float registers: spills and reloads everywhere
add_test(NAME backend_a64_files_spill COMMAND test_backend_diff --target arm64 --max-regs 3,2 files ${_a64_files})

# generated programs: every run line's outcome (value, trap kind, harness buffer) at
# -O0 and -O2 equals the interpreter's
add_test(NAME backend_a64_gen COMMAND test_backend_diff --target arm64 --quiet gen 300 1)
add_test(NAME backend_a64_gen_spill COMMAND test_backend_diff --target arm64 --quiet --max-regs 4,3 gen 60 100001)
# divisions by zero and INT_MIN / -1 (ARM64 divides never trap: the checks do)
add_test(NAME backend_a64_gen_traps COMMAND test_backend_diff --target arm64 --quiet --weights div0=255,div=100 gen 100 200001)
# swarm mode: a random subset of the generator's features per program
add_test(NAME backend_a64_gen_swarm COMMAND test_backend_diff --target arm64 --quiet --swarm gen 200 300001)

add_test(NAME backend_a64_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/backend_a64_cli.sh
         $<TARGET_FILE:circ> ${CIRC_EXAMPLES})
