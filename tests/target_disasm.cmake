# target_disasm.cmake — each target's encoder and Capstone bindings in its Target
# (encode_inst, disasm), and `circ compile --list-targets`.
add_executable(test_target_disasm ${CMAKE_SOURCE_DIR}/tests/target_disasm.c)
target_link_libraries(test_target_disasm ${CIRC_LIBS} circ_capstone)
add_test(NAME target_disasm COMMAND test_target_disasm)
add_test(NAME list_targets COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/list_targets.sh $<TARGET_FILE:circ>)
