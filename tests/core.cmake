# Core IR library tests owned by the IR core: literals.
add_executable(test_core_literals ${CMAKE_CURRENT_SOURCE_DIR}/core_literals.c)
target_link_libraries(test_core_literals PRIVATE circ_ir)
add_test(NAME core_literals COMMAND test_core_literals)
add_test(NAME core_print COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/core_print.sh $<TARGET_FILE:circ>)
add_test(NAME core_lir_replay COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/core_lir_replay.sh $<TARGET_FILE:circ> ${CIRC_EXAMPLES})
