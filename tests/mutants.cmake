# mutants.cmake — tests of bench/mutants/mutants.sh (the mutation test of the fuzzer):
# its site list and its apply/restore of one mutant.  Neither builds nor runs circ.
add_test(NAME mutants_list COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mutants_list.sh ${CMAKE_SOURCE_DIR})
add_test(NAME mutants_apply COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mutants_apply.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(mutants_list mutants_apply PROPERTIES TIMEOUT 60)
