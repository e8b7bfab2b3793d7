# fuzz_targets.cmake — the libFuzzer targets' inputs outside libFuzzer, and their
# stage choice (fuzz/fuzz_input.h, CheckOptions.stage_mask).

# every stage can be chosen by an input, a mask keeps exactly its stages, a wrong
# pass is caught only where its stage is chosen, an order stage alone has the
# passes before it applied
add_executable(test_fuzz_stage_pick ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_stage_pick.c)
target_link_libraries(test_fuzz_stage_pick PRIVATE circ_fuzz)
add_test(NAME fuzz_stage_pick COMMAND test_fuzz_stage_pick)

# fuzz_diff and fuzz_passes on their seed corpora, each seed also behind every stage
# choice (the first 64: more than either target's list), through a plain main
foreach(t fuzz_diff fuzz_passes)
  add_executable(test_${t}_inputs ${CMAKE_SOURCE_DIR}/fuzz/targets/${t}.c ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_target_main.c)
  target_link_libraries(test_${t}_inputs PRIVATE circ_fuzz)
  file(GLOB _seeds ${CMAKE_SOURCE_DIR}/corpus/seeds/${t}/*)
  add_test(NAME ${t}_inputs COMMAND test_${t}_inputs --stages 64 ${_seeds})
  set_tests_properties(${t}_inputs PROPERTIES TIMEOUT 300)
endforeach()
