# plugin.cmake — pass plugins (include/circ/pass.h, examples/plugin): built against the
# installed package and found by `circ fuzz`, shrunk by `circ reduce` (tests/plugin.sh);
# refused when built for another API version (tests/plugin_version.sh).
set(_plugin_flags "")
if(CIRC_SANITIZE)
  set(_plugin_flags "-fsanitize=address,undefined")
endif()
add_test(NAME plugin_example
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plugin.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/plugin_out ${CMAKE_C_COMPILER} "${_plugin_flags}")
set_tests_properties(plugin_example PROPERTIES TIMEOUT 600)
add_test(NAME plugin_version
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plugin_version.sh $<TARGET_FILE:circ> ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/plugin_version_out ${CMAKE_C_COMPILER})
