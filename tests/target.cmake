# target.cmake — the target registry (compiler/target.h) and the commands that take
# their targets from it.
add_executable(test_target_registry ${CMAKE_SOURCE_DIR}/tests/target_registry.c)
target_link_libraries(test_target_registry ${CIRC_LIBS})
add_test(NAME target_registry COMMAND test_target_registry)
add_test(NAME target_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/target_cli.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES}/guarded_div.circ)
