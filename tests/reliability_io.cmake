# reliability_io.cmake — what the tools write gets there whole or the failure is
# reported: findings under an injected full disk, the findings folder's lock, reruns
# that keep old reproducers, exact campaign totals, reduced findings' headers
# (reliability_campaign); standard output errors of every command, -o files under a
# full disk, option checks, a second campaign on a folder, --max-programs and
# --seconds from the command line, circ reduce's deadline, signals and --test
# (reliability_io.sh).
if(TARGET circ_fuzz)
  add_executable(test_reliability_campaign ${CMAKE_CURRENT_SOURCE_DIR}/reliability_campaign.c)
  target_link_libraries(test_reliability_campaign PRIVATE ${CIRC_LIBS})
  add_test(NAME reliability_campaign COMMAND test_reliability_campaign ${CMAKE_CURRENT_BINARY_DIR}/reliability_out)
  set_tests_properties(reliability_campaign PROPERTIES TIMEOUT 300)
endif()
add_test(NAME reliability_io COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/reliability_io.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES} ${CMAKE_CURRENT_SOURCE_DIR}/lir_sample.lir)
set_tests_properties(reliability_io PROPERTIES TIMEOUT 300)
