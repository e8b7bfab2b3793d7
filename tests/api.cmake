# api.cmake — the public API (include/circ, docs/api.md): its headers as C11 and C++
# (tests/api_headers.sh) and the complete example of docs/api.md compiled against
# the build's libcirc and run (tests/api_example.sh), and tests/api_unit.c.
set(_api_flags "")
if(CIRC_SANITIZE)
  set(_api_flags "-fsanitize=address,undefined")
endif()
add_test(NAME api_headers COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/api_headers.sh ${CMAKE_SOURCE_DIR}
                                  ${CMAKE_CURRENT_BINARY_DIR}/api_headers_out)
add_test(NAME api_example
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/api_example.sh ${CMAKE_SOURCE_DIR} $<TARGET_FILE:circ_shared>
                 ${CMAKE_CURRENT_BINARY_DIR}/api_example_out ${CMAKE_C_COMPILER} "${_api_flags}")
set_tests_properties(api_example PROPERTIES TIMEOUT 300)
# the API as a program uses it: public headers, libcirc (static), two threads
find_package(Threads REQUIRED)
add_executable(api_unit ${CMAKE_CURRENT_SOURCE_DIR}/api_unit.c)
target_link_libraries(api_unit PRIVATE circ_static Threads::Threads)
add_test(NAME api_unit COMMAND api_unit)
set_tests_properties(api_unit PROPERTIES TIMEOUT 300)
