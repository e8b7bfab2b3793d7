# The dependency join, the root lists and the runtime: unit tests of the root lists
# (the malformed DEPEND_AND programs are tests/malformed/verify_depend_and_*.circ,
# picked up by ir.cmake; the racy joins tests/semantics/invalid/racy_join*.circ).
add_executable(ir_root_lists ${CMAKE_SOURCE_DIR}/tests/ir_root_lists.c)
target_link_libraries(ir_root_lists circ_ir)
add_test(NAME ir_root_lists COMMAND ir_root_lists)

# the semantics of the new gates from an independent C mirror (tests/semantics/rt_*.circ
# are its output; oracle_semantics runs their run lines, check_rt checks every stage)
add_executable(semantics_mirror_rt ${CMAKE_SOURCE_DIR}/tests/semantics/mirror_rt.c)
add_test(NAME runtime_mirror
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/runtime_mirror.sh $<TARGET_FILE:semantics_mirror_rt>
                 ${CMAKE_SOURCE_DIR}/tests/semantics)
add_test(NAME runtime_check
         COMMAND circ check ${CMAKE_SOURCE_DIR}/tests/semantics/rt_join.circ
                 ${CMAKE_SOURCE_DIR}/tests/semantics/rt_runtime.circ)
