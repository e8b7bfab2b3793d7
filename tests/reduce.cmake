# reduce.cmake — tests of the reducer (fuzz/reduce*.c, circ reduce): generated
# miscompiles of a deliberately wrong pass reduce to a few gates, 1-minimal, the same
# for any --jobs (reduce_swap); an external --test script keeps exactly the gates it
# greps for (reduce_cli.sh).
if(TARGET circ_fuzz)
  add_executable(reduce_swap ${CMAKE_CURRENT_SOURCE_DIR}/reduce_swap.c)
  target_link_libraries(reduce_swap PRIVATE ${CIRC_LIBS})
  add_test(NAME reduce_swap COMMAND reduce_swap --cases 6 --size 200 --jobs-check 1)
  set_tests_properties(reduce_swap PROPERTIES TIMEOUT 300)
endif()
if(TARGET circ_fuzz)
  add_test(NAME reduce_check COMMAND reduce_swap --check --cases 3 --size 200 --jobs-check 1)
  set_tests_properties(reduce_check PROPERTIES TIMEOUT 300)
endif()
add_test(NAME reduce_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/reduce_cli.sh $<TARGET_FILE:circ> ${CIRC_EXAMPLES})
