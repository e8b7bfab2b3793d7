# backend_diff.cmake — the differential backend test program shared by the x86-64
# and ARM64 backend tests (backend_x64.cmake, backend_a64.cmake): one program,
# `--target x86-64|arm64` picks the backend and the emulated ISA.
add_executable(test_backend_diff ${CMAKE_CURRENT_SOURCE_DIR}/backend_diff.c)
target_link_libraries(test_backend_diff PRIVATE ${CIRC_LIBS})
