# emu_stack.cmake — the Unicorn runner's stack mapped on demand below its top.
add_executable(test_emu_stack ${CMAKE_CURRENT_SOURCE_DIR}/emu_stack.c)
target_link_libraries(test_emu_stack circ_oracle capstone)
add_test(NAME emu_stack COMMAND test_emu_stack)
