/* obj.c — x86-64 in ELF objects (compiler/lir/objwrite.h): EM_X86_64, absolute
 * words R_X86_64_64, calls of functions and helpers R_X86_64_PLT32 (rel32 from the
 * end of the field), lea rip's disp32 and trap table entries R_X86_64_PC32. */
#include "x64.h"

#include "compiler/lir/objwrite.h"

#include <elf.h>

const ObjFormat x64_obj_format = {
    .machine = EM_X86_64,
    .abs64 = R_X86_64_64,
    .call = R_X86_64_PLT32,
    .call_addend = -4,
    .prel32 = R_X86_64_PC32,
    .pc32 = R_X86_64_PC32,
    .branch = R_X86_64_PLT32,
};
