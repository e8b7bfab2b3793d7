# gen_shapes.cmake — the generator's aimed shapes and boundary constants appear at
# default settings (fuzz/gen_shapes.c counts them; `circ gen --stats` prints them).
add_executable(test_gen_shapes ${CMAKE_CURRENT_SOURCE_DIR}/gen_shapes.c)
target_link_libraries(test_gen_shapes PRIVATE circ_fuzz)
add_test(NAME gen_shapes COMMAND test_gen_shapes 1000)
