# arena.cmake — the arena's large allocations: growth without old copies, shrink,
# release, slices (tests/arena.c).
add_executable(arena_large ${CMAKE_SOURCE_DIR}/tests/arena.c)
target_link_libraries(arena_large circ_ir)
add_test(NAME arena_large COMMAND arena_large)
