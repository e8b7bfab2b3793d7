# unicorn.cmake — the Unicorn emulator behind the runner (oracle/emu*.c).
# Debian/Ubuntu: libunicorn-dev (2.0.1 or later).
find_path(UNICORN_INCLUDE_DIR unicorn/unicorn.h)
find_library(UNICORN_LIBRARY unicorn)
if(NOT UNICORN_INCLUDE_DIR OR NOT UNICORN_LIBRARY)
  message(FATAL_ERROR "Unicorn not found: install libunicorn-dev (2.0.1 or later)")
endif()
if(TARGET circ_oracle)
  target_include_directories(circ_oracle PUBLIC ${UNICORN_INCLUDE_DIR})
  target_link_libraries(circ_oracle PUBLIC ${UNICORN_LIBRARY})
endif()
