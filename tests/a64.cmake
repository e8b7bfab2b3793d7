# AArch64 encoder tests: Capstone round trip of every encoder, the bitmask-immediate
# encoder against the reference decoder, and the constant builder executed.
if(TARGET circ_a64)
  add_executable(test_a64_encode ${CMAKE_CURRENT_SOURCE_DIR}/a64_encode.c ${CMAKE_CURRENT_SOURCE_DIR}/a64_bitmask.c)
  target_link_libraries(test_a64_encode PRIVATE circ_a64 capstone)
  add_test(NAME a64_encode COMMAND test_a64_encode)

  add_executable(test_a64_logical_imm ${CMAKE_CURRENT_SOURCE_DIR}/a64_logical_imm.c ${CMAKE_CURRENT_SOURCE_DIR}/a64_bitmask.c)
  target_link_libraries(test_a64_logical_imm PRIVATE circ_a64)
  add_test(NAME a64_logical_imm COMMAND test_a64_logical_imm)

  add_executable(test_a64_mov_imm ${CMAKE_CURRENT_SOURCE_DIR}/a64_mov_imm.c ${CMAKE_CURRENT_SOURCE_DIR}/a64_bitmask.c)
  target_link_libraries(test_a64_mov_imm PRIVATE circ_a64)
  add_test(NAME a64_mov_imm COMMAND test_a64_mov_imm)
endif()
