# libfuzzer.cmake — the libFuzzer targets of fuzz/targets (with -DCIRC_LIBFUZZER=ON and
# clang): the libraries are already built with -fsanitize=fuzzer-no-link (top
# CMakeLists); the targets link with -fsanitize=fuzzer,address,undefined.
#   fuzz_diff         generator bytes -> oracle vs every stage
#   fuzz_passes       pass order + allocator knobs + program, each pass checked
#   fuzz_text         text -> parse -> verify -> print -> parse round trip
#   fuzz_encode       first byte: a target of the registry and its CPU level; then a LIR instruction of
#                     one of its forms -> Target.encode_inst -> Capstone (Target.disasm)
#   fuzz_elf_load     bytes -> the harness's ELF loader (oracle/elf_load.h)
# With CIRC_FUZZ_ENGINE set (OSS-Fuzz/ClusterFuzzLite: $LIB_FUZZING_ENGINE), that is
# linked instead of -fsanitize=fuzzer, and sanitizers come from the CFLAGS.
if(CIRC_LIBFUZZER)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CIRC_LIBFUZZER needs clang (-DCMAKE_C_COMPILER=clang)")
  endif()
  set(CIRC_FUZZ_ENGINE "" CACHE STRING "fuzzing engine to link instead of -fsanitize=fuzzer")
  if(NOT CIRC_FUZZ_ENGINE AND NOT CIRC_SANITIZE)
    # the layer libraries exist already: sanitize them, and link everything after
    foreach(lib ${CIRC_LIBS})
      target_compile_options(${lib} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer -g)
    endforeach()
    add_link_options(-fsanitize=address,undefined)
  endif()
  # libFuzzer's compare hints (trace-cmp) only in the generator and the checks (fuzz/),
  # whose compares see the input's bytes; the compiler's and the harness's compare gate
  # numbers, counters, table indices and values the generator derived (gate_live,
  # liveness offsets, the forms index, the emulator's saved registers), and tracing
  # them was 40% of fuzz_diff's time (docs/fuzzing.md, "A few stages per input").
  # Edge coverage stays everywhere.
  foreach(lib ${CIRC_LIBS})
    if(NOT lib STREQUAL "circ_fuzz")
      target_compile_options(${lib} PRIVATE -fno-sanitize-coverage=trace-cmp)
    endif()
  endforeach()
  set(_fuzz_targets fuzz_diff fuzz_passes fuzz_text fuzz_encode fuzz_elf_load)
  foreach(t ${_fuzz_targets})
    add_executable(${t} ${CMAKE_SOURCE_DIR}/fuzz/targets/${t}.c)
    target_link_libraries(${t} PRIVATE circ_fuzz circ_capstone)
    if(CIRC_FUZZ_ENGINE)
      target_link_libraries(${t} PRIVATE ${CIRC_FUZZ_ENGINE})
    else()
      target_compile_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
      target_link_options(${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    endif()
  endforeach()
endif()
