# mcov.cmake — machine-level coverage and the register-pressure stages: the counters
# (tests/mcov.c), `circ gen --stats --machine`, a campaign's table and the -regs
# stages in `circ check`.
add_executable(test_mcov ${CMAKE_CURRENT_SOURCE_DIR}/mcov.c)
target_link_libraries(test_mcov PRIVATE circ_fuzz)
add_test(NAME mcov COMMAND test_mcov)
add_test(NAME mcov_gen_stats COMMAND sh -c
  "$<TARGET_FILE:circ> gen --stats --machine --count 30 --machine-table mcov_table.txt > mcov_gen.txt &&
   grep -q '^machine coverage: [0-9]* of [0-9]* items never hit' mcov_gen.txt &&
   grep -q '^# x86-64:' mcov_table.txt && grep -q '^# arm64:' mcov_table.txt &&
   grep -q '^form .* Move Tmp,Tmp$' mcov_table.txt")
add_test(NAME mcov_campaign COMMAND sh -c
  "rm -rf mcov_out && $<TARGET_FILE:circ> fuzz --max-programs 40 --seconds 0 --no-c --no-native --out mcov_out > mcov_campaign.txt 2>&1 &&
   grep -q '^machine coverage: [0-9]* of [0-9]* items never hit.*mcov_out/machine-coverage.txt' mcov_campaign.txt &&
   grep -q 'regs-O2' mcov_out/machine-coverage.txt &&
   grep -q '^# never hit: ' mcov_out/machine-coverage.txt")
add_test(NAME pressure_stages COMMAND sh -c
  "$<TARGET_FILE:circ> check --list-stages ${CMAKE_SOURCE_DIR}/corpus/examples/max.circ | grep -qx 'arm64-O2-regs' &&
   ! $<TARGET_FILE:circ> check --no-pressure --list-stages ${CMAKE_SOURCE_DIR}/corpus/examples/max.circ | grep -q regs &&
   $<TARGET_FILE:circ> check -q --targets 'x86-64-O2-regs,arm64-O2-regs' ${CMAKE_SOURCE_DIR}/corpus/examples/*.circ")
