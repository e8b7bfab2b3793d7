# the ARM64 emulator trust test (bench/trust/trust_a64.c): every straight-line register
# form of the ARM64 forms table, random operands, Unicorn against qemu-aarch64 through
# the driver cross-compiled here.  The test skips (77) without the cross compiler or
# qemu-aarch64; the 100,000-instruction run is `trust_a64 100000` (docs/objects.md).
find_program(CIRC_TRUST_AARCH64_CC aarch64-linux-gnu-gcc)
add_executable(trust_a64 ${CMAKE_SOURCE_DIR}/bench/trust/trust_a64.c ${CMAKE_SOURCE_DIR}/bench/trust/trust_common.c)
target_link_libraries(trust_a64 PRIVATE ${CIRC_LIBS} circ_capstone)
if(CIRC_TRUST_AARCH64_CC)
  set(_trust_driver ${CMAKE_CURRENT_BINARY_DIR}/trust_a64_driver)
  set(_trust_src ${CMAKE_SOURCE_DIR}/bench/trust/trust_a64_driver.c)
  add_custom_command(OUTPUT ${_trust_driver}
    COMMAND ${CIRC_TRUST_AARCH64_CC} -std=c11 -O2 -Wall -Wextra -Werror -static -I${CMAKE_SOURCE_DIR}/runtime
            ${_trust_src} -o ${_trust_driver}
    DEPENDS ${_trust_src} ${CMAKE_SOURCE_DIR}/bench/trust/trust_state.h ${CMAKE_SOURCE_DIR}/runtime/circ_fdio.h
    COMMENT "the ARM64 trust test's driver for qemu-aarch64")
  add_custom_target(trust_a64_driver_build ALL DEPENDS ${_trust_driver})
  add_dependencies(trust_a64 trust_a64_driver_build)
  target_compile_definitions(trust_a64 PRIVATE TRUST_A64_DRIVER="${_trust_driver}")
endif()
add_test(NAME emulator_trust_a64 COMMAND trust_a64 5000)
set_tests_properties(emulator_trust_a64 PROPERTIES SKIP_RETURN_CODE 77)
