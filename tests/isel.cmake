# isel.cmake — the one instruction selector (compiler/lir/isel.h): the same function
# lowered for x86-64 and ARM64 takes each target's forms (two- or three-operand,
# direct u64 conversion, helper calls, store pairs) and calling convention
add_executable(test_lir_isel ${CMAKE_CURRENT_SOURCE_DIR}/lir_isel.c)
target_link_libraries(test_lir_isel PRIVATE ${CIRC_LIBS})
add_test(NAME lir_isel COMMAND test_lir_isel)
# a bit or mask test feeding a branch selects test/tst/tbz, not and + compare
add_test(NAME isel_bit_test COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/isel_bit_test.sh $<TARGET_FILE:circ>)
