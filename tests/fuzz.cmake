# fuzz.cmake — tests of the differential check (`circ check`), the campaign
# (`circ fuzz`, fuzz/campaign.h) and the corpus replay.

# the check and the campaign catch a wrong pass installed through the plugin hook
# (asserted within 10 s), record a crashing and a hanging pass as findings and go on
add_executable(test_fuzz_campaign ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_campaign.c)
target_link_libraries(test_fuzz_campaign PRIVATE circ_fuzz)
add_test(NAME fuzz_campaign COMMAND test_fuzz_campaign ${CMAKE_CURRENT_BINARY_DIR}/fuzz_campaign_out)

# circ check / circ fuzz command lines: exit codes, reports, status and summary lines
add_test(NAME fuzz_cli COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz_cli.sh $<TARGET_FILE:circ>
         ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/fuzz_cli_out)

# corpus replay: every example, seed and regression file through every stage on both ISAs
add_test(NAME fuzz_corpus_replay COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz_replay.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES} ${CMAKE_SOURCE_DIR}/corpus/seeds ${CMAKE_SOURCE_DIR}/corpus/regress)
set_tests_properties(fuzz_campaign fuzz_cli fuzz_corpus_replay PROPERTIES TIMEOUT 300)

# bench/fuzz: differential throughput and where the time goes (not a test; see
# bench/fuzz/README.md)
add_executable(bench_fuzz ${CMAKE_SOURCE_DIR}/bench/fuzz/bench_fuzz.c ${CMAKE_SOURCE_DIR}/bench/fuzz/stage_cost.c)
target_link_libraries(bench_fuzz PRIVATE circ_fuzz)
