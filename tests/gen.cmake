# gen.cmake — tests of the random program generator (fuzz/gen.h) and `circ gen`.

# 100,000 random byte strings (lengths 0..4096) at module size 40 decode and verify:
# about 6 s of CPU in the ASan+UBSan build (16-25 s wall on a loaded 2-core machine)
add_executable(test_gen_bytes ${CMAKE_CURRENT_SOURCE_DIR}/gen_bytes.c)
target_link_libraries(test_gen_bytes PRIVATE circ_fuzz)
add_test(NAME gen_bytes COMMAND test_gen_bytes 100000 40)

# 300 seeds (plus 30 at size 500, 100 in swarm mode): verify, run, run lines pass after
# print and parse, full coverage, medians, traps, and the decoding checksum
add_executable(test_gen_seeds ${CMAKE_CURRENT_SOURCE_DIR}/gen_seeds.c)
target_link_libraries(test_gen_seeds PRIVATE circ_fuzz)
add_test(NAME gen_seeds COMMAND test_gen_seeds 600)

# one flipped input bit keeps most of the program
add_executable(test_gen_locality ${CMAKE_CURRENT_SOURCE_DIR}/gen_locality.c)
target_link_libraries(test_gen_locality PRIVATE circ_fuzz)
add_test(NAME gen_locality COMMAND test_gen_locality 3000)

add_test(NAME gen_cli COMMAND bash ${CMAKE_SOURCE_DIR}/tests/gen_cli.sh $<TARGET_FILE:circ>)

# bench/gen: generator throughput (not a test; see bench/gen/README.md)
add_executable(bench_gen ${CMAKE_SOURCE_DIR}/bench/gen/bench_gen.c)
target_link_libraries(bench_gen PRIVATE circ_fuzz)
