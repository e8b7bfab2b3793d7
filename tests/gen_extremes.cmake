# gen_extremes.cmake — the generator's structural extremes (`circ gen --extreme KIND`,
# fuzz/gen_extreme.c): files of each kind verify, pass their run lines in the
# interpreter and have the shape; merge and params files also pass `circ check`.
add_test(NAME gen_extremes COMMAND bash ${CMAKE_SOURCE_DIR}/tests/gen_extremes.sh $<TARGET_FILE:circ>)
set_tests_properties(gen_extremes PROPERTIES TIMEOUT 300)
