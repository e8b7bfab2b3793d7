# tv.cmake — tests of translation validation (fuzz/tv*.c, `circ tv`): the validator
# on hand-written circuits and deliberately wrong passes, and the command line.
if(TARGET circ_fuzz)
  add_executable(tv_unit ${CMAKE_CURRENT_SOURCE_DIR}/tv_unit.c)
  target_link_libraries(tv_unit PRIVATE ${CIRC_LIBS})
  add_test(NAME tv_unit COMMAND tv_unit)
  set_tests_properties(tv_unit PROPERTIES TIMEOUT 120)
endif()
add_test(NAME tv_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tv_cli.sh $<TARGET_FILE:circ>
         ${CMAKE_CURRENT_SOURCE_DIR}/opt)
