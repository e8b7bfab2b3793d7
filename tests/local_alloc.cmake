# local_alloc.cmake — the local register allocator (compiler/lir/fastalloc.c): golden
# allocations of hand-written LIR on both ISAs, and the TARGET-O0-local stages on the
# examples and the regression corpus
add_test(NAME local_alloc COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/local_alloc.sh $<TARGET_FILE:circ>)
