# IR core tests: the verifier on malformed input (one ctest per file), print/parse/dot
# round trips, the verifier on builder-made circuits, and a fixed-seed mutation test of
# parser, verifier and printer.
file(GLOB _malformed CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/malformed/*.circ)
foreach(f ${_malformed})
  get_filename_component(_name ${f} NAME_WE)
  add_test(NAME malformed/${_name}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/check_malformed.sh $<TARGET_FILE:circ> ${f})
endforeach()

add_test(NAME ir_roundtrip
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/ir_roundtrip.sh $<TARGET_FILE:circ> ${CIRC_EXAMPLES})
add_test(NAME ir_roundtrip_invalid
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/ir_roundtrip.sh --invalid $<TARGET_FILE:circ>
                 ${CMAKE_SOURCE_DIR}/tests/malformed)

add_executable(ir_verify_api ${CMAKE_SOURCE_DIR}/tests/ir_verify_api.c)
target_link_libraries(ir_verify_api circ_ir)
add_test(NAME ir_verify_api COMMAND ir_verify_api)

add_executable(ir_clone ${CMAKE_SOURCE_DIR}/tests/ir_clone.c)
target_link_libraries(ir_clone circ_ir)
file(GLOB _clone_files ${CIRC_EXAMPLES}/*.circ ${CMAKE_SOURCE_DIR}/corpus/seeds/*.circ
     ${CMAKE_SOURCE_DIR}/corpus/regress/*.circ)
add_test(NAME ir_clone COMMAND ir_clone ${_clone_files})

add_executable(robust_parse ${CMAKE_SOURCE_DIR}/tests/robust_parse.c)
target_link_libraries(robust_parse circ_ir)
add_test(NAME robust_parse COMMAND robust_parse ${CIRC_EXAMPLES})
set_tests_properties(robust_parse PROPERTIES TIMEOUT 120)
