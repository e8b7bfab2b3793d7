/* x64_internal.h — pieces shared by the x86-64 instruction selection hooks and SysV
 * table (isel_hooks.c) and the frame (frame.c). */
#ifndef CIRC_X64_INTERNAL_H
#define CIRC_X64_INTERNAL_H

#include "compiler/lir/lower.h"

extern const IselHooks x64_isel_hooks;

/* frame.c: prologue and epilogue of an allocated Code */
bool x64_finish_frame(Code *code, char *err, size_t errlen);

#endif
