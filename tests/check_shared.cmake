# check_shared.cmake — machine-code stages sharing work within one check: a CPU
# level's code identical to the baseline level's is not run again
add_test(NAME v3_same_code COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/v3_same_code.sh $<TARGET_FILE:circ>)
