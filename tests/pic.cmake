# position-independent code (docs/objects.md): PC-relative symbol addresses and helper
# calls, and the ELF loader's veneers for helpers resolved out of their reach
add_executable(elf_veneer_test ${CMAKE_CURRENT_SOURCE_DIR}/elf_veneer.c)
target_link_libraries(elf_veneer_test PRIVATE ${CIRC_LIBS})
add_test(NAME elf_veneer COMMAND elf_veneer_test)
