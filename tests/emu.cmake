# emu.cmake — tests of the Unicorn runner (oracle/emu.h) on both ISAs, with
# hand-assembled code checked against Capstone listings.
foreach(isa x64 a64)
  add_executable(test_emu_${isa} ${CMAKE_CURRENT_SOURCE_DIR}/emu_${isa}.c)
  target_link_libraries(test_emu_${isa} circ_oracle capstone)
  add_test(NAME emu_${isa} COMMAND test_emu_${isa})
endforeach()
