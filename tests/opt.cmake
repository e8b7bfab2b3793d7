# opt.cmake — tests of the middle end (compiler/opt): golden text tests per pass
# (tests/opt/*.circ -> *.expected), outcome preservation of every pass and pipeline
# on the examples and every .circ under tests/, a deliberately wrong pass that the
# preservation check must catch, and the `circ opt` command line.
add_executable(opt_preserve ${CMAKE_CURRENT_SOURCE_DIR}/opt_preserve.c)
target_link_libraries(opt_preserve PRIVATE ${CIRC_LIBS})
add_test(NAME opt_preserve
         COMMAND opt_preserve ${CIRC_EXAMPLES} ${CMAKE_SOURCE_DIR}/tests ${CMAKE_SOURCE_DIR}/corpus)
set_tests_properties(opt_preserve PROPERTIES TIMEOUT 300)
add_test(NAME opt_wrong_pass_caught
         COMMAND opt_preserve --wrong-pass ${CIRC_EXAMPLES} ${CMAKE_CURRENT_SOURCE_DIR}/opt)
add_executable(opt_golden ${CMAKE_CURRENT_SOURCE_DIR}/opt_golden.c)
target_link_libraries(opt_golden PRIVATE ${CIRC_LIBS})
add_test(NAME opt_golden COMMAND opt_golden ${CMAKE_CURRENT_SOURCE_DIR}/opt)
add_executable(opt_manager ${CMAKE_CURRENT_SOURCE_DIR}/opt_manager.c)
target_link_libraries(opt_manager PRIVATE ${CIRC_LIBS})
add_test(NAME opt_manager COMMAND opt_manager)
add_test(NAME opt_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/opt_cli.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES} ${CMAKE_CURRENT_SOURCE_DIR}/opt)
