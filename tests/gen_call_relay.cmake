# gen_call_relay.cmake — the generator's call-relay tail: calls of effect-free callees
# whose result may trap, their dependency output relayed to a STORE, appear at default
# settings (tests/gen_call_relay.c).
add_executable(test_gen_call_relay ${CMAKE_CURRENT_SOURCE_DIR}/gen_call_relay.c)
target_link_libraries(test_gen_call_relay PRIVATE circ_fuzz)
add_test(NAME gen_call_relay COMMAND test_gen_call_relay 1000)
