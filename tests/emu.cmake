# emu.cmake — tests of the Unicorn runner (oracle/emu.h) on both ISAs, with
# hand-assembled code checked against Capstone listings, and engines in parallel threads.
foreach(isa x64 a64)
  add_executable(test_emu_${isa} ${CMAKE_CURRENT_SOURCE_DIR}/emu_${isa}.c)
  target_link_libraries(test_emu_${isa} circ_oracle capstone)
  add_test(NAME emu_${isa} COMMAND test_emu_${isa})
endforeach()
find_package(Threads REQUIRED)
add_executable(test_emu_threads ${CMAKE_CURRENT_SOURCE_DIR}/emu_threads.c)
target_link_libraries(test_emu_threads circ_oracle capstone Threads::Threads)
add_test(NAME emu_threads COMMAND test_emu_threads)
add_executable(test_emu_random ${CMAKE_CURRENT_SOURCE_DIR}/emu_random.c)
target_link_libraries(test_emu_random circ_oracle capstone)
add_test(NAME emu_random COMMAND test_emu_random)
