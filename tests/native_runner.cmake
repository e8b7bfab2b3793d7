# the native stage's processes (fuzz/native_run.h): the persistent runner through a
# trap, a timeout and a seccomp kill, its replacement, and the isolation of a fresh one
add_executable(native_runner ${CMAKE_CURRENT_SOURCE_DIR}/native_runner.c)
target_link_libraries(native_runner PRIVATE ${CIRC_LIBS})
add_test(NAME native_runner COMMAND native_runner)
set_tests_properties(native_runner PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
