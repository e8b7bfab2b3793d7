# z3.cmake — the Z3 SMT solver (Debian: libz3-dev), for translation validation
# (fuzz/tv*.c, `circ tv`).  Link circ_z3.
find_path(Z3_INCLUDE_DIR z3.h)
find_library(Z3_LIBRARY z3)
if(Z3_INCLUDE_DIR AND Z3_LIBRARY)
  add_library(circ_z3 INTERFACE)
  target_include_directories(circ_z3 INTERFACE ${Z3_INCLUDE_DIR})
  target_link_libraries(circ_z3 INTERFACE ${Z3_LIBRARY})
else()
  message(FATAL_ERROR "Z3 not found: install libz3-dev")
endif()
# the translation validator lives in the fuzzing layer (it confirms counterexamples
# with the oracle)
# (and a watchdog thread that interrupts solver checks at their deadline)
find_package(Threads REQUIRED)
if(TARGET circ_fuzz)
  target_link_libraries(circ_fuzz PUBLIC circ_z3 Threads::Threads)
endif()
