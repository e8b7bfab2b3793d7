# The C backend (docs/cbackend.md): corpus files, the examples and generated programs
# as C, built by gcc and clang with -Wall -Wextra -Werror and UBSan into
# runtime/main.c's program and run natively (tests/objects_link.c), and through the
# C stages of circ check under the emulator on both ISAs (tests/cbackend.sh).
# A compiler run costs tens of milliseconds, so by default the tests take a sample
# (corpus/examples, corpus/regress, the exception suite, the shared examples; 4
# generated programs), and a sanitized build only corpus/examples: its point is
# circ's own memory safety.  -DCIRC_FULL_C_TESTS=ON takes every corpus file and
# tests/semantics file and 12 generated programs.
option(CIRC_FULL_C_TESTS "C backend tests over the whole corpus and semantics suite" OFF)
if(CIRC_FULL_C_TESTS)
  file(GLOB_RECURSE _cback_files ${CMAKE_SOURCE_DIR}/corpus/*.circ ${CMAKE_SOURCE_DIR}/tests/semantics/*.circ)
  set(_cback_generated 12)
elseif(CIRC_SANITIZE)
  file(GLOB _cback_files ${CMAKE_SOURCE_DIR}/corpus/examples/*.circ)
  set(_cback_generated 2)
else()
  file(GLOB _cback_files ${CMAKE_SOURCE_DIR}/corpus/examples/*.circ ${CMAKE_SOURCE_DIR}/corpus/regress/*.circ
       ${CMAKE_SOURCE_DIR}/tests/semantics/exc/*.circ)
  set(_cback_generated 4)
endif()
foreach(cc gcc clang)
  add_test(NAME cbackend_native_${cc} COMMAND objects_link $<TARGET_FILE:circ> ${CMAKE_SOURCE_DIR}/runtime c-${cc}
           ${_cback_generated} ${_cback_files} ${CIRC_EXAMPLES})
  set_tests_properties(cbackend_native_${cc} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200)
endforeach()
add_test(NAME cbackend_stages COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cbackend.sh $<TARGET_FILE:circ>
         ${_cback_files} ${CIRC_EXAMPLES}/div.circ ${CIRC_EXAMPLES}/float.circ ${CIRC_EXAMPLES}/heap.circ
         ${CIRC_EXAMPLES}/sumsq.circ)
set_tests_properties(cbackend_stages PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)

# bench/quality: circ against gcc and clang of the C backend's output, block counts
# under the emulator (bench/quality/README.md); the smoke test measures two programs
add_executable(bench_quality ${CMAKE_SOURCE_DIR}/bench/quality/quality.c)
target_link_libraries(bench_quality PRIVATE ${CIRC_LIBS} m)
add_test(NAME bench_quality_smoke COMMAND bench_quality ${CIRC_EXAMPLES}/sumsq.circ ${CIRC_EXAMPLES}/heap.circ)
set_tests_properties(bench_quality_smoke PROPERTIES PASS_REGULAR_EXPRESSION "geomean x86-64 over 2 programs")
