/* obj.c — AArch64 in ELF objects (compiler/lir/objwrite.h): EM_AARCH64, absolute
 * words R_AARCH64_ABS64, calls of functions and helpers R_AARCH64_CALL26 (BL's
 * imm26), a symbol's adrp R_AARCH64_ADR_PREL_PG_HI21 and add
 * R_AARCH64_ADD_ABS_LO12_NC, trap table entries R_AARCH64_PREL32. */
#include "a64.h"

#include "compiler/lir/objwrite.h"

#include <elf.h>

const ObjFormat a64_obj_format = {
    .machine = EM_AARCH64,
    .abs64 = R_AARCH64_ABS64,
    .call = R_AARCH64_CALL26,
    .call_addend = 0,
    .prel32 = R_AARCH64_PREL32,
    .branch = R_AARCH64_CALL26,
    .page21 = R_AARCH64_ADR_PREL_PG_HI21,
    .lo12 = R_AARCH64_ADD_ABS_LO12_NC,
};
