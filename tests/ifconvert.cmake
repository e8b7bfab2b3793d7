# ifconvert.cmake — if-conversion on the kernels of bench/kernels: every kernel passes
# `circ check` on every stage, and bench_compile --kernels shows that ifconvert removes
# the branches of max/min/clamp and never raises spill traffic (ifconvert_kernels.sh).
file(GLOB CIRC_KERNELS ${CMAKE_SOURCE_DIR}/bench/kernels/*.circ)
add_test(NAME kernels_check COMMAND $<TARGET_FILE:circ> check ${CIRC_KERNELS})
add_test(NAME kernels_ifconvert
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ifconvert_kernels.sh $<TARGET_FILE:bench_compile> ${CIRC_KERNELS})
set_tests_properties(kernels_check kernels_ifconvert PROPERTIES TIMEOUT 300)
# random diamonds (tests/ifconvert/*.circ, also replayed by opt_preserve): every stage,
# with ifconvert alone and at -O2
file(GLOB CIRC_IFCONVERT_RANDOM ${CMAKE_CURRENT_SOURCE_DIR}/ifconvert/*.circ)
add_test(NAME ifconvert_random COMMAND $<TARGET_FILE:circ> check --passes=ifconvert ${CIRC_IFCONVERT_RANDOM})
add_test(NAME ifconvert_random_O2 COMMAND $<TARGET_FILE:circ> check -O2 ${CIRC_IFCONVERT_RANDOM})
