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
# every target's listing (listing.c in its folder) reads code back through Capstone
foreach(_t ${CIRC_TARGET_DIRS})
  target_link_libraries(circ_${_t} PUBLIC circ_capstone)
endforeach()
