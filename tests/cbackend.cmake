# The C backend (docs/cbackend.md): every corpus file, the examples and generated
# programs as C, built by gcc and clang with -Wall -Wextra -Werror and UBSan into
# runtime/main.c's program and run natively (tests/objects_link.c), and through the
# C stages of circ check under the emulator on both ISAs (tests/cbackend.sh).
file(GLOB _cback_semantics ${CMAKE_SOURCE_DIR}/tests/semantics/*.circ ${CMAKE_SOURCE_DIR}/tests/semantics/exc/*.circ)
foreach(cc gcc clang)
  add_test(NAME cbackend_native_${cc} COMMAND objects_link $<TARGET_FILE:circ> ${CMAKE_SOURCE_DIR}/runtime c-${cc} 12
           ${CMAKE_SOURCE_DIR}/corpus ${CIRC_EXAMPLES} ${_cback_semantics})
  set_tests_properties(cbackend_native_${cc} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200)
endforeach()
file(GLOB_RECURSE _cback_corpus ${CMAKE_SOURCE_DIR}/corpus/*.circ)
add_test(NAME cbackend_stages COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cbackend.sh $<TARGET_FILE:circ>
         ${_cback_corpus} ${CIRC_EXAMPLES}/div.circ ${CIRC_EXAMPLES}/float.circ ${CIRC_EXAMPLES}/heap.circ
         ${CIRC_EXAMPLES}/sumsq.circ ${_cback_semantics})
set_tests_properties(cbackend_stages PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)

# bench/quality: circ against gcc and clang of the C backend's output, block counts
# under the emulator (bench/quality/README.md); the smoke test measures two programs
add_executable(bench_quality ${CMAKE_SOURCE_DIR}/bench/quality/quality.c)
target_link_libraries(bench_quality PRIVATE ${CIRC_LIBS} m)
add_test(NAME bench_quality_smoke COMMAND bench_quality ${CIRC_EXAMPLES}/sumsq.circ ${CIRC_EXAMPLES}/heap.circ)
set_tests_properties(bench_quality_smoke PROPERTIES PASS_REGULAR_EXPRESSION "geomean x86-64 over 2 programs")
