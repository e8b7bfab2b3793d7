# exceptions.cmake — INVOKE / IF_SUCCESS / IF_EXCEPTION / GET_EXCEPTION: the semantics
# files regenerated from their setjmp/longjmp mirror, their run lines through the
# interpreter, every pass pipeline and both backends (circ check: every stage).
file(GLOB _exc CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/semantics/exc/*.circ)
add_executable(exc_mirror ${CMAKE_SOURCE_DIR}/tests/semantics/exc_mirror.c)
add_test(NAME exc_mirror
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/oracle_mirror.sh $<TARGET_FILE:exc_mirror>
                 ${CMAKE_SOURCE_DIR}/tests/semantics/exc 4)
add_test(NAME exc_semantics COMMAND circ test ${_exc})
add_test(NAME exc_semantics_O2 COMMAND circ test ${_exc} -O2)
add_test(NAME exc_check COMMAND circ check ${_exc})
# the reducer turns INVOKEs into CALLs and drops handlers (fuzz/reduce_exc.c)
add_test(NAME exc_reduce COMMAND bash ${CMAKE_SOURCE_DIR}/tests/exc_reduce.sh $<TARGET_FILE:circ>)
