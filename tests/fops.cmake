# fops.cmake — selection of SQRT, the roundings, FABS, FCOPYSIGN and FMIN/FMAX on both
# targets (one instruction on ARM64, SSE2 sequences on x86-64), checked on the LIR
add_executable(test_isel_float_ops ${CMAKE_CURRENT_SOURCE_DIR}/isel_float_ops.c)
target_link_libraries(test_isel_float_ops PRIVATE ${CIRC_LIBS})
add_test(NAME isel_float_ops COMMAND test_isel_float_ops)
