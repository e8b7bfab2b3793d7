# Reliability at scale: inputs at and beyond every size the verifier allows (a switch
# of 64+ cases, a block of 50k states, 100k functions, 256 parameters) through every
# command, each within a peak-RSS bound (peak_rss) and the ctest timeout.  The figures
# for the full sizes come from bench/scale/run.sh.
add_executable(peak_rss ${CMAKE_SOURCE_DIR}/bench/scale/peak_rss.c)
if(CIRC_SANITIZE)
  set(_rel_max_mb 1500) # the shadow memory of AddressSanitizer
else()
  set(_rel_max_mb 400)
endif()
foreach(_part switch long_block many_funcs many_args many_blocks guarded effects text)
  add_test(NAME reliability/${_part}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/reliability_limits.sh ${_part} $<TARGET_FILE:circ>
                   $<TARGET_FILE:peak_rss> ${CMAKE_SOURCE_DIR}/bench/scale/gen_scale.sh
                   ${CMAKE_SOURCE_DIR}/corpus/regress ${_rel_max_mb})
  set_tests_properties(reliability/${_part} PROPERTIES TIMEOUT 60)
endforeach()
set_tests_properties(reliability/many_blocks PROPERTIES TIMEOUT 300) # 100k blocks, slow under sanitizers
