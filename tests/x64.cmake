# x64.cmake — LIR and x86-64 encoder tests: forms/roles unit tests, and the Capstone
# round trip of every form of the x86-64 forms table.
add_executable(test_x64_encode ${CMAKE_SOURCE_DIR}/tests/x64_encode.c)
target_link_libraries(test_x64_encode circ_x64 circ_capstone)
add_test(NAME x64_encode COMMAND test_x64_encode)
