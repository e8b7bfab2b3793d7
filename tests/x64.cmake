# x64.cmake — LIR and x86-64 backend tests: overload/forms unit tests, the Capstone
# round trip of every form of the x86-64 forms table, whole-module emission (layout,
# tables), the meaning of the fused compare forms, and the roles of every
# straight-line form (what it writes), run under Unicorn; `circ lir`.
# Unicorn as cmake/unicorn.cmake finds it (looked up here too, should that change)
if(NOT UNICORN_LIBRARY OR NOT UNICORN_INCLUDE_DIR)
  find_path(UNICORN_INCLUDE_DIR unicorn/unicorn.h)
  find_library(UNICORN_LIBRARY unicorn)
endif()

add_executable(test_lir_forms ${CMAKE_SOURCE_DIR}/tests/lir_forms.c)
target_link_libraries(test_lir_forms circ_x64)
add_test(NAME lir_forms COMMAND test_lir_forms)

add_executable(test_x64_encode ${CMAKE_SOURCE_DIR}/tests/x64_encode.c)
target_link_libraries(test_x64_encode circ_x64 circ_capstone)
add_test(NAME x64_encode COMMAND test_x64_encode)

add_executable(test_x64_emit ${CMAKE_SOURCE_DIR}/tests/x64_emit.c)
target_include_directories(test_x64_emit PRIVATE ${UNICORN_INCLUDE_DIR})
target_link_libraries(test_x64_emit circ_x64 circ_capstone ${UNICORN_LIBRARY})
add_test(NAME x64_emit COMMAND test_x64_emit)

add_test(NAME lir_cli
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/lir_cli.sh $<TARGET_FILE:circ> ${CMAKE_SOURCE_DIR}/tests/lir_sample.lir)

add_executable(test_x64_exec ${CMAKE_SOURCE_DIR}/tests/x64_exec.c)
target_include_directories(test_x64_exec PRIVATE ${UNICORN_INCLUDE_DIR})
target_link_libraries(test_x64_exec circ_x64 ${UNICORN_LIBRARY})
add_test(NAME x64_exec COMMAND test_x64_exec)

add_executable(test_x64_roles ${CMAKE_SOURCE_DIR}/tests/x64_roles.c)
target_include_directories(test_x64_roles PRIVATE ${UNICORN_INCLUDE_DIR})
target_link_libraries(test_x64_roles circ_x64 ${UNICORN_LIBRARY})
add_test(NAME x64_roles COMMAND test_x64_roles)
