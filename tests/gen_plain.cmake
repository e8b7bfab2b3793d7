# gen_plain.cmake — the generator options that switch exceptions, dependency joins and
# runtime calls off (bench_fuzz --plain) do so, and the defaults have them.
add_executable(test_gen_plain ${CMAKE_CURRENT_SOURCE_DIR}/gen_plain.c)
target_link_libraries(test_gen_plain PRIVATE circ_fuzz)
add_test(NAME gen_plain COMMAND test_gen_plain 300)
