# arena.cmake — the arena's large allocations (growth without old copies, shrink,
# release, slices: tests/arena.c) and the peak memory of compiling one large
# function (scaling_memory.sh; not under the sanitizers, whose shadow memory it
# would measure).
add_executable(arena_large ${CMAKE_SOURCE_DIR}/tests/arena.c)
target_link_libraries(arena_large circ_ir)
add_test(NAME arena_large COMMAND arena_large)
if(NOT CIRC_SANITIZE)
  add_test(NAME scaling_peak_rss
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/scaling_memory.sh $<TARGET_FILE:circ> $<TARGET_FILE:peak_rss>
                   ${CMAKE_SOURCE_DIR}/bench/scale/gen_scale.sh 250)
  set_tests_properties(scaling_peak_rss PROPERTIES TIMEOUT 60)
endif()
