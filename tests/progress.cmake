# progress.cmake — progress of the long commands (fuzz/progress.h): plain periodic
# lines when stderr is no terminal, a redrawn line on one (tests/progress.sh).
add_test(NAME progress_lines COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/progress.sh $<TARGET_FILE:circ> ${CMAKE_SOURCE_DIR})
set_tests_properties(progress_lines PROPERTIES TIMEOUT 300)
