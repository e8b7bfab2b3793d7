# capstone.cmake — the Capstone disassembler (Debian: libcapstone-dev), for the
# encoder round-trip tests and for annotated listings.  Link circ_capstone.
find_path(CAPSTONE_INCLUDE_DIR capstone/capstone.h)
find_library(CAPSTONE_LIBRARY capstone)
if(CAPSTONE_INCLUDE_DIR AND CAPSTONE_LIBRARY)
  add_library(circ_capstone INTERFACE)
  target_include_directories(circ_capstone INTERFACE ${CAPSTONE_INCLUDE_DIR})
  target_link_libraries(circ_capstone INTERFACE ${CAPSTONE_LIBRARY})
else()
  message(FATAL_ERROR "Capstone not found: install libcapstone-dev")
endif()
# the x86-64 backend's listings (x64_listing) read code back through Capstone
if(TARGET circ_x64)
  target_link_libraries(circ_x64 PUBLIC circ_capstone)
endif()
