# Scheduler tests: dominators, loops and placement on hand-written circuits; every
# example and every .circ under tests/ (valid ones schedule, dump back to the same
# circuit and run identically on the scheduled form; invalid ones never crash the
# scheduler); generated and mutated programs likewise; the `circ sched` command line.
add_executable(sched_unit ${CMAKE_CURRENT_SOURCE_DIR}/sched_unit.c)
target_link_libraries(sched_unit PRIVATE ${CIRC_LIBS})
add_test(NAME sched_unit COMMAND sched_unit ${CMAKE_CURRENT_SOURCE_DIR}/sched)

add_executable(sched_dom_unit ${CMAKE_CURRENT_SOURCE_DIR}/sched_dom_unit.c)
target_link_libraries(sched_dom_unit PRIVATE ${CIRC_LIBS})
add_test(NAME sched_dom_unit COMMAND sched_dom_unit)

add_executable(sched_files ${CMAKE_CURRENT_SOURCE_DIR}/sched_files.c)
target_link_libraries(sched_files PRIVATE ${CIRC_LIBS})
add_test(NAME sched_files COMMAND sched_files ${CIRC_EXAMPLES} ${CMAKE_CURRENT_SOURCE_DIR})

add_test(NAME sched_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sched_cli.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES} ${CMAKE_CURRENT_SOURCE_DIR}/malformed/verify_irreducible_loop.circ)

if(TARGET circ_fuzz)
  add_executable(sched_gen ${CMAKE_CURRENT_SOURCE_DIR}/sched_gen.c)
  target_link_libraries(sched_gen PRIVATE ${CIRC_LIBS})
  add_test(NAME sched_gen COMMAND sched_gen 1 200 120)
endif()
