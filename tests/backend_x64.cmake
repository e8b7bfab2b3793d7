# backend_x64.cmake — the x86-64 backend end to end (lowering, selection, allocation,
# frame, encoding) against the expectations and the reference interpreter, run under
# Unicorn; and `circ compile` / `circ test --target x86-64` on the command line.
# what selection makes of small functions: fused compare-and-branch, address
# folding, division trap checks, switch compare chains, edge copies (LIR census)
add_executable(test_backend_x64_isel ${CMAKE_CURRENT_SOURCE_DIR}/backend_x64_isel.c)
target_link_libraries(test_backend_x64_isel PRIVATE ${CIRC_LIBS})
add_test(NAME backend_x64_isel COMMAND test_backend_x64_isel)

# test_backend_diff (backend_diff.cmake) runs the differential checks below

# every run line of the examples, the semantics suite, the regression corpus and
# backend_x64_abi.circ (many arguments, stack arguments, indirect calls, ALLOCA per
# activation, wide and narrow switches, swapping selectors), at
# -O0 and -O2, meets its expectation on x86-64
file(GLOB _x64_files ${CIRC_EXAMPLES}/*.circ ${CMAKE_SOURCE_DIR}/tests/semantics/*.circ
     ${CMAKE_SOURCE_DIR}/corpus/regress/*.circ ${CMAKE_SOURCE_DIR}/corpus/seeds/*.circ
     ${CMAKE_SOURCE_DIR}/tests/backend_x64_*.circ)
add_test(NAME backend_x64_files COMMAND test_backend_diff --target x86-64 files ${_x64_files})
# the same with 3 general and 2 float registers: spills and reloads everywhere
add_test(NAME backend_x64_files_spill COMMAND test_backend_diff --target x86-64 --max-regs 3,2 files ${_x64_files})

# generated programs: every run line's outcome (value, trap kind, harness buffer) at
# -O0 and -O2 equals the interpreter's
add_test(NAME backend_x64_gen COMMAND test_backend_diff --target x86-64 --quiet gen 300 1)
add_test(NAME backend_x64_gen_spill COMMAND test_backend_diff --target x86-64 --quiet --max-regs 4,3 gen 60 100001)
# programs rich in divisions that may trap (div0 / overflow kinds, heap at the trap)
add_test(NAME backend_x64_gen_traps COMMAND test_backend_diff --target x86-64 --quiet --weights div0=255,div=100 gen 100 200001)

add_test(NAME backend_x64_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/backend_x64_cli.sh
         $<TARGET_FILE:circ> ${CIRC_EXAMPLES})

# bench/compile: compile time per gate and emulated run time (not a test; see
# bench/compile/README.md)
add_executable(bench_compile ${CMAKE_SOURCE_DIR}/bench/compile/bench_compile.c)
target_link_libraries(bench_compile PRIVATE ${CIRC_LIBS} capstone)
