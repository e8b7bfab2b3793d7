# regalloc.cmake — liveness, the linear-scan register allocator and the stack
# allocator (compiler/lir/regalloc.h): LIR text files allocated with full and
# limited register sets and run under Unicorn; the parallel-move resolver on random
# permutations; random programs allocated with 2..16 registers and run.
if(NOT UNICORN_LIBRARY OR NOT UNICORN_INCLUDE_DIR)
  find_path(UNICORN_INCLUDE_DIR unicorn/unicorn.h)
  find_library(UNICORN_LIBRARY unicorn)
endif()

add_executable(test_regalloc_lir ${CMAKE_SOURCE_DIR}/tests/regalloc_lir.c)
target_link_libraries(test_regalloc_lir circ_x64 circ_oracle)
add_test(NAME regalloc_lir COMMAND test_regalloc_lir ${CMAKE_SOURCE_DIR}/tests/regalloc)

add_executable(test_regalloc_parmove ${CMAKE_SOURCE_DIR}/tests/regalloc_parmove.c)
target_link_libraries(test_regalloc_parmove circ_lir)
add_test(NAME regalloc_parmove COMMAND test_regalloc_parmove)

add_executable(test_regalloc_stress ${CMAKE_SOURCE_DIR}/tests/regalloc_stress.c)
target_link_libraries(test_regalloc_stress circ_x64 circ_oracle)
add_test(NAME regalloc_stress COMMAND test_regalloc_stress 250)

add_executable(test_regalloc_unit ${CMAKE_SOURCE_DIR}/tests/regalloc_unit.c)
target_link_libraries(test_regalloc_unit circ_x64)
add_test(NAME regalloc_unit COMMAND test_regalloc_unit)

add_executable(test_regalloc_robust ${CMAKE_SOURCE_DIR}/tests/regalloc_robust.c)
target_link_libraries(test_regalloc_robust circ_x64)
add_test(NAME regalloc_robust COMMAND test_regalloc_robust ${CMAKE_SOURCE_DIR}/tests/regalloc 300)

add_executable(test_ra_union_unit ${CMAKE_SOURCE_DIR}/tests/ra_union_unit.c)
target_link_libraries(test_ra_union_unit circ_lir)
add_test(NAME ra_union_unit COMMAND test_ra_union_unit)
add_executable(test_ra_split_unit ${CMAKE_SOURCE_DIR}/tests/ra_split_unit.c)
target_link_libraries(test_ra_split_unit circ_lir)
add_test(NAME ra_split_unit COMMAND test_ra_split_unit)
