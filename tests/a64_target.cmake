# a64_target.cmake — the ARM64 backend: the forms table against Capstone (every
# form, registers, immediates, addresses, branches after layout, relocations, trap
# sites) and hand-built LIR run under Unicorn against C (compares, branches,
# conditional selects, shifts, divisions, conversions, memory, constants, veneers).
if(NOT UNICORN_LIBRARY OR NOT UNICORN_INCLUDE_DIR)
  find_path(UNICORN_INCLUDE_DIR unicorn/unicorn.h)
  find_library(UNICORN_LIBRARY unicorn)
endif()
if(TARGET circ_a64)
  add_executable(test_a64_target_encode ${CMAKE_SOURCE_DIR}/tests/a64_target_encode.c)
  target_link_libraries(test_a64_target_encode circ_a64)
  add_test(NAME a64_target_encode COMMAND test_a64_target_encode)
endif()
if(TARGET circ_a64 AND TARGET circ_oracle)
  add_executable(test_a64_target_exec ${CMAKE_SOURCE_DIR}/tests/a64_target_exec.c)
  target_link_libraries(test_a64_target_exec circ_oracle circ_a64)
  add_test(NAME a64_target_exec COMMAND test_a64_target_exec)
endif()
