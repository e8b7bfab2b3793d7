# Scheduler tests: dominators, loops and placement on hand-written circuits; every
# example and every valid tests/**/*.circ schedules and runs identically on the
# scheduled form; generated programs likewise.
add_executable(sched_unit ${CMAKE_CURRENT_SOURCE_DIR}/sched_unit.c)
target_link_libraries(sched_unit PRIVATE ${CIRC_LIBS})
file(GLOB _sched_malformed ${CMAKE_CURRENT_SOURCE_DIR}/malformed/*.circ)
add_test(NAME sched_unit COMMAND sched_unit ${CMAKE_CURRENT_SOURCE_DIR}/sched ${_sched_malformed})

add_test(NAME sched_files COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sched_files.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES} ${CMAKE_CURRENT_SOURCE_DIR})

if(TARGET circ_fuzz)
  add_executable(sched_gen ${CMAKE_CURRENT_SOURCE_DIR}/sched_gen.c)
  target_link_libraries(sched_gen PRIVATE ${CIRC_LIBS})
  add_test(NAME sched_gen COMMAND sched_gen 1 200 120)
endif()
