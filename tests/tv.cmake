# tv.cmake — tests of translation validation (fuzz/tv*.c, `circ tv`, the tv-PASS
# stages of check and fuzz): the validator on hand-written circuits and deliberately
# wrong passes, the command line, the stages in a check and a campaign.  Without Z3
# (cmake/z3.cmake) only the test that the stages say they are unavailable.
if(TARGET circ_fuzz AND CIRC_HAVE_Z3)
  add_executable(tv_unit ${CMAKE_CURRENT_SOURCE_DIR}/tv_unit.c)
  target_link_libraries(tv_unit PRIVATE ${CIRC_LIBS})
  add_test(NAME tv_unit COMMAND tv_unit)
  set_tests_properties(tv_unit PROPERTIES TIMEOUT 120)
  # exceptions and runtime calls: proved, and refuted after wrong passes
  add_executable(tv_exc ${CMAKE_CURRENT_SOURCE_DIR}/tv_exc.c)
  target_link_libraries(tv_exc PRIVATE ${CIRC_LIBS})
  add_test(NAME tv_exc COMMAND tv_exc)
  set_tests_properties(tv_exc PROPERTIES TIMEOUT 300)
  # swap-sub refuted by check --tv and by a campaign; the finding replays and reduces
  add_executable(tv_check ${CMAKE_CURRENT_SOURCE_DIR}/tv_check.c)
  target_link_libraries(tv_check PRIVATE ${CIRC_LIBS})
  add_test(NAME tv_check COMMAND tv_check ${CMAKE_CURRENT_BINARY_DIR}/tv_check_out)
  set_tests_properties(tv_check PROPERTIES TIMEOUT 300)
endif()
if(CIRC_HAVE_Z3)
  add_test(NAME tv_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tv_cli.sh $<TARGET_FILE:circ>
           ${CMAKE_CURRENT_SOURCE_DIR}/opt)
  add_test(NAME tv_stage_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tv_stage_cli.sh $<TARGET_FILE:circ> z3)
else()
  add_test(NAME tv_unavailable COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tv_stage_cli.sh $<TARGET_FILE:circ> none)
endif()
