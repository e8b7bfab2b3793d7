/* obj.c — AArch64 in ELF objects (compiler/lir/objwrite.h): EM_AARCH64, absolute
 * words (the literal words symbols are loaded from) R_AARCH64_ABS64, calls
 * R_AARCH64_CALL26 (BL's imm26), trap table entries R_AARCH64_PREL32. */
#include "a64.h"

#include "compiler/lir/objwrite.h"

#include <elf.h>

const ObjFormat a64_obj_format = {
    .machine = EM_AARCH64,
    .abs64 = R_AARCH64_ABS64,
    .call = R_AARCH64_CALL26,
    .call_addend = 0,
    .prel32 = R_AARCH64_PREL32,
};
