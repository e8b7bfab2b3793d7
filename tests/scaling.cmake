# scaling.cmake — compile time per gate does not grow with one function's size
# (callgrind instruction counts of a generated function at two sizes: scaling.sh).
add_test(NAME scaling_per_gate COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/scaling.sh $<TARGET_FILE:circ>)
set_tests_properties(scaling_per_gate PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
