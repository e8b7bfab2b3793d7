# cpu_levels.cmake — CPU levels (docs/porting.md): the registry's levels, each
# level's instructions in its code and none of the others', its code run on the
# emulated CPU model of the level; and the semantics suite (tests/semantics, the C
# mirror's files among them) on every level of both ISAs at -O0, -O1 and -O2.
add_executable(test_cpu_levels ${CMAKE_SOURCE_DIR}/tests/cpu_levels.c)
target_link_libraries(test_cpu_levels PRIVATE ${CIRC_LIBS})
add_test(NAME cpu_levels COMMAND test_cpu_levels)

file(GLOB _cpu_semantics ${CMAKE_SOURCE_DIR}/tests/semantics/*.circ)
foreach(_level x86-64:baseline x86-64:v3 arm64:baseline)
  string(REPLACE ":" ";" _tl ${_level})
  list(GET _tl 0 _t)
  list(GET _tl 1 _cpu)
  foreach(_o O0 O1 O2)
    add_test(NAME cpu_semantics_${_t}_${_cpu}_${_o}
             COMMAND circ test ${_cpu_semantics} --target ${_t} --cpu ${_cpu} -${_o})
  endforeach()
endforeach()
add_test(NAME cpu_levels_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cpu_levels_cli.sh $<TARGET_FILE:circ>)
