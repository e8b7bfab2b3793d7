# z3.cmake — the Z3 SMT solver (Debian: libz3-dev), for translation validation
# (fuzz/tv*.c, `circ tv`, the tv-PASS stages of `circ check --tv`).  Without it
# (not found, or -DCIRC_Z3=OFF) everything else builds: the Z3 files of the
# validator are left out of circ_fuzz and fuzz/tv_unavailable/tv_none.c stands in,
# so `circ tv` and the tv stages say that translation validation is unavailable.
option(CIRC_Z3 "Translation validation with Z3 (libz3-dev)" ON)
if(CIRC_Z3)
  find_path(Z3_INCLUDE_DIR z3.h)
  find_library(Z3_LIBRARY z3)
endif()
if(CIRC_Z3 AND Z3_INCLUDE_DIR AND Z3_LIBRARY)
  add_library(circ_z3 INTERFACE)
  target_include_directories(circ_z3 INTERFACE ${Z3_INCLUDE_DIR})
  target_link_libraries(circ_z3 INTERFACE ${Z3_LIBRARY})
  set(CIRC_HAVE_Z3 ON)
else()
  if(CIRC_Z3)
    message(WARNING "Z3 not found (install libz3-dev): translation validation (circ tv, --tv) is unavailable")
  endif()
  set(CIRC_HAVE_Z3 OFF)
endif()
# the translation validator lives in the fuzzing layer (it confirms counterexamples
# with the oracle)
if(TARGET circ_fuzz AND CIRC_HAVE_Z3)
  target_link_libraries(circ_fuzz PUBLIC circ_z3)
elseif(TARGET circ_fuzz)
  get_target_property(_fuzz_srcs circ_fuzz SOURCES)
  list(FILTER _fuzz_srcs EXCLUDE REGEX "/fuzz/tv_(exec|ops|float|query|bits|rt)\\.c$")
  list(APPEND _fuzz_srcs ${CMAKE_SOURCE_DIR}/fuzz/tv_unavailable/tv_none.c)
  set_target_properties(circ_fuzz PROPERTIES SOURCES "${_fuzz_srcs}")
endif()
