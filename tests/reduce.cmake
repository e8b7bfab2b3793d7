# reduce.cmake — tests of the reducer (fuzz/reduce*.c, circ reduce): generated
# miscompiles of a deliberately wrong pass reduce to at most 15 gates each (the
# median at most 10; 11 is the 1-minimal size of a self-recursion whose depth
# `d - 1` the pass turns into `1 - d`: ARG, CONSTANT, SUB, SYMBOL, CALL, CONSTANT,
# SWITCH_BRANCH, SWITCH_CASE, DEFAULT_CASE and two RETURNs; 15 that of seed 41's
# loop, whose swapped `x - 1` shows only in its second iteration: LOOP_BEGIN, a
# selector of two constants, SEXT, CONSTANT, SUB, ICMP, CONSTANT, XOR, IF_BRANCH,
# IF_TRUE, IF_FALSE, LOOP_BACK, RETURN), 1-minimal, the same for any --jobs (reduce_swap;
# reduce_check does the same through check_module with the wrong pass as a check
# plugin); an external --test script keeps exactly the gates it greps for, --timeout
# kills a slow script (reduce_cli.sh).  Measured sanitized: reduce_swap ~10 s,
# reduce_check ~2 s, reduce_cli ~4 s.  The 20-case benchmark is
# bench/reduce/README.md.
if(TARGET circ_fuzz)
  add_executable(reduce_swap ${CMAKE_CURRENT_SOURCE_DIR}/reduce_swap.c)
  target_link_libraries(reduce_swap PRIVATE ${CIRC_LIBS})
  add_test(NAME reduce_swap COMMAND reduce_swap --cases 20 --size 200 --max-gates 15 --median-gates 10 --jobs-check 1)
  set_tests_properties(reduce_swap PROPERTIES TIMEOUT 300)
endif()
if(TARGET circ_fuzz)
  # --max-gates 12: case 1 reduces to a loop whose swapped `2 - 1` keeps its exit test
  # `(d != 1) xor true` from ever holding (12 gates, 1-minimal: CONSTANT, LOOP_BEGIN,
  # CONSTANT, SUB, ICMP, CONSTANT, XOR, IF_BRANCH, IF_FALSE, LOOP_BACK, IF_TRUE, RETURN)
  add_test(NAME reduce_check COMMAND reduce_swap --check --cases 3 --size 200 --jobs-check 0 --max-gates 12)
  set_tests_properties(reduce_check PROPERTIES TIMEOUT 300)
endif()
add_test(NAME reduce_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/reduce_cli.sh $<TARGET_FILE:circ> ${CIRC_EXAMPLES})
