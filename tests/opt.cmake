# opt.cmake — tests of the middle end (compiler/opt): golden text tests per pass
# (tests/opt/*.circ -> *.expected), outcome preservation of every pass and pipeline
# on the examples, every .circ under tests/ and corpus/regress, and on generated
# programs; a deliberately wrong pass that the
# preservation check must catch, and the `circ opt` command line.
add_executable(opt_preserve ${CMAKE_CURRENT_SOURCE_DIR}/opt_preserve.c)
target_link_libraries(opt_preserve PRIVATE ${CIRC_LIBS})
if(TARGET circ_fuzz)
  target_compile_definitions(opt_preserve PRIVATE OPT_HAVE_GEN)
  add_test(NAME opt_preserve_generated COMMAND opt_preserve --gen 1 150 120)
  add_test(NAME opt_preserve_swarm COMMAND opt_preserve --gen 1000 100 200 --swarm)
  set_tests_properties(opt_preserve_generated opt_preserve_swarm PROPERTIES TIMEOUT 300)
endif()
add_test(NAME opt_preserve
         COMMAND opt_preserve ${CIRC_EXAMPLES} ${CMAKE_SOURCE_DIR}/tests ${CMAKE_SOURCE_DIR}/corpus/regress)
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
# the optimizer benchmark (bench/opt/README.md); the test only checks that it runs
add_executable(bench_opt ${CMAKE_SOURCE_DIR}/bench/opt/bench_opt.c)
target_link_libraries(bench_opt PRIVATE ${CIRC_LIBS})
if(TARGET circ_fuzz)
  target_compile_definitions(bench_opt PRIVATE OPT_HAVE_GEN)
  add_test(NAME opt_bench_smoke COMMAND bench_opt --gen 4 --size 100 --reps 1)
else()
  add_test(NAME opt_bench_smoke COMMAND bench_opt --reps 1 ${CIRC_EXAMPLES}/max.circ)
endif()
