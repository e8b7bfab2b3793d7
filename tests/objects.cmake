# ELF objects and libcirc_rt (docs/objects.md): objects read back by binutils, and
# linked by the system toolchain into programs that must give the oracle's outcomes.
add_test(NAME objects_disasm COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/objects_disasm.sh $<TARGET_FILE:circ>
         ${CIRC_EXAMPLES}/div.circ ${CIRC_EXAMPLES}/sumsq.circ ${CIRC_EXAMPLES}/float.circ
         ${CMAKE_SOURCE_DIR}/corpus/seeds/gen_default_2.circ ${CMAKE_SOURCE_DIR}/corpus/seeds/gen_swarm_large.circ)

add_executable(objects_link ${CMAKE_CURRENT_SOURCE_DIR}/objects_link.c)
target_link_libraries(objects_link PRIVATE ${CIRC_LIBS})
foreach(t x86-64 arm64)
  add_test(NAME objects_link_${t} COMMAND objects_link $<TARGET_FILE:circ> ${CMAKE_SOURCE_DIR}/runtime ${t} 12
           ${CMAKE_SOURCE_DIR}/corpus)
  set_tests_properties(objects_link_${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()

# the header for names C cannot spell (a keyword, reserved identifiers), linked and called
add_test(NAME objects_header_names COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/objects_header_names.sh $<TARGET_FILE:circ>
         ${CMAKE_SOURCE_DIR}/runtime ${CMAKE_CURRENT_SOURCE_DIR}/objects_header_names.circ)
set_tests_properties(objects_header_names PROPERTIES SKIP_RETURN_CODE 77)

# the harness's ELF loader: circ's objects, the system C compilers', and bad ones
add_executable(elf_load_test ${CMAKE_CURRENT_SOURCE_DIR}/elf_load.c)
target_link_libraries(elf_load_test PRIVATE ${CIRC_LIBS})
add_test(NAME elf_load COMMAND elf_load_test ${CMAKE_CURRENT_SOURCE_DIR}/elf_load_gcc.c
         ${CIRC_EXAMPLES}/div.circ ${CIRC_EXAMPLES}/float.circ ${CIRC_EXAMPLES}/sumsq.circ
         ${CIRC_EXAMPLES}/heap.circ ${CMAKE_SOURCE_DIR}/corpus/seeds/gen_default_2.circ
         ${CMAKE_SOURCE_DIR}/corpus/seeds/gen_swarm_large.circ)

# the native stage of circ check on the host's CPU (x86-64 or ARM64 hosts)
add_test(NAME native_stage COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/native_stage.sh $<TARGET_FILE:circ>
         ${CMAKE_SOURCE_DIR}/corpus $<IF:$<BOOL:${CIRC_SANITIZE}>,ON,OFF>)
set_tests_properties(native_stage PROPERTIES SKIP_RETURN_CODE 77)

# the emulator trust test (bench/trust/trust_x64.c): every straight-line register form
# of the x86-64 forms table, random operands, Unicorn against the host CPU
add_executable(trust_x64 ${CMAKE_SOURCE_DIR}/bench/trust/trust_x64.c ${CMAKE_SOURCE_DIR}/bench/trust/trust_common.c)
target_link_libraries(trust_x64 PRIVATE ${CIRC_LIBS} circ_capstone)
add_test(NAME emulator_trust_x64 COMMAND trust_x64 100000)
set_tests_properties(emulator_trust_x64 PROPERTIES SKIP_RETURN_CODE 77)
# the same for the forms of the v3 CPU level (lzcnt tzcnt roundss/roundsd), where the host has them
add_test(NAME emulator_trust_x64_v3 COMMAND trust_x64 50000 0x2545f4914f6cdd1d v3)
set_tests_properties(emulator_trust_x64_v3 PROPERTIES SKIP_RETURN_CODE 77)
