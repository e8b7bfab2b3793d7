# oracle.cmake — tests of the reference interpreter: every run line of the examples
# and of tests/semantics, the semantics files regenerated from the independent C
# mirror, programs that must be reported invalid, interpreter unit tests, mutated
# (unverified) circuits that must run without crashing, and the CLI.
file(GLOB _examples CONFIGURE_DEPENDS ${CIRC_EXAMPLES}/*.circ)
add_test(NAME oracle_examples COMMAND circ test ${_examples})

file(GLOB _semantics CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/semantics/*.circ)
add_test(NAME oracle_semantics COMMAND circ test ${_semantics})
# the same run lines after the -O2 pipeline: every pass must keep every outcome
add_test(NAME oracle_semantics_O2 COMMAND circ test ${_semantics} ${_examples} -O2)

add_executable(semantics_mirror ${CMAKE_SOURCE_DIR}/tests/semantics/mirror.c)
target_link_libraries(semantics_mirror PRIVATE m)
add_test(NAME oracle_mirror
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/oracle_mirror.sh $<TARGET_FILE:semantics_mirror>
                 ${CMAKE_SOURCE_DIR}/tests/semantics)

file(GLOB _invalid CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/semantics/invalid/*.circ)
add_executable(oracle_invalid ${CMAKE_SOURCE_DIR}/tests/oracle_invalid.c)
target_link_libraries(oracle_invalid PRIVATE circ_oracle)
add_test(NAME oracle_invalid COMMAND oracle_invalid ${_invalid})

add_executable(oracle_unit ${CMAKE_SOURCE_DIR}/tests/oracle_unit.c)
target_link_libraries(oracle_unit PRIVATE circ_oracle)
add_test(NAME oracle_unit COMMAND oracle_unit)

file(GLOB _robust_inputs ${CMAKE_SOURCE_DIR}/tests/semantics/loops.circ ${CMAKE_SOURCE_DIR}/tests/semantics/control.circ
     ${CMAKE_SOURCE_DIR}/tests/semantics/calls.circ ${CMAKE_SOURCE_DIR}/tests/semantics/invalid/*.circ)
add_executable(oracle_robust ${CMAKE_SOURCE_DIR}/tests/oracle_robust.c)
target_link_libraries(oracle_robust PRIVATE circ_oracle)
add_test(NAME oracle_robust COMMAND oracle_robust 1 200 ${_robust_inputs} ${_examples})

add_test(NAME oracle_cli COMMAND bash ${CMAKE_SOURCE_DIR}/tests/oracle_cli.sh $<TARGET_FILE:circ>
         ${CMAKE_SOURCE_DIR}/tests/semantics)

# the interpreter benchmark (bench/interp/run.sh builds and runs it; not a test)
add_executable(bench_interp EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/bench/interp/bench_interp.c)
target_link_libraries(bench_interp PRIVATE circ_oracle)
