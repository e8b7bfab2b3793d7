# a64.cmake — the ARM64 backend's listings (a64_listing) read code back through
# Capstone (circ_capstone, cmake/capstone.cmake).
if(TARGET circ_a64)
  find_path(A64_CAPSTONE_INCLUDE_DIR capstone/capstone.h)
  find_library(A64_CAPSTONE_LIBRARY capstone)
  target_include_directories(circ_a64 PUBLIC ${A64_CAPSTONE_INCLUDE_DIR})
  target_link_libraries(circ_a64 PUBLIC ${A64_CAPSTONE_LIBRARY})
endif()
