# sched_order.cmake — golden tests of the order of gates inside blocks (list
# scheduling that interleaves independent chains, compiler/sched/interleave.c):
# `circ sched` of each tests/sched_order/NAME.circ must equal NAME.expected, and
# `circ check` runs every file on every stage at -O0 and -O2.
add_test(NAME sched_order COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sched_order.sh $<TARGET_FILE:circ>
         ${CMAKE_CURRENT_SOURCE_DIR}/sched_order)
