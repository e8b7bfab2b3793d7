# install.cmake — `cmake --install` into a temporary prefix, then the out-of-tree
# consumer (examples/consumer) built against it with pkg-config and with
# find_package(circ CONFIG), and run; the API header compiled as C11 and as C++
# warning-free (tests/install.sh).
# a sanitized libcirc needs its consumers linked with the sanitizers' runtimes
set(_consumer_flags "")
if(CIRC_SANITIZE)
  set(_consumer_flags "-fsanitize=address,undefined")
endif()
add_test(NAME install_consumer
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/install_out ${CMAKE_C_COMPILER} "${_consumer_flags}")
set_tests_properties(install_consumer PROPERTIES TIMEOUT 600)
