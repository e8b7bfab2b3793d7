/* a64_internal.h — pieces shared by the ARM64 instruction selection hooks and AAPCS64
 * table (isel_hooks.c) and the frame (frame.c). */
#ifndef CIRC_A64_INTERNAL_H
#define CIRC_A64_INTERNAL_H

#include "compiler/lir/lower.h"

extern const IselHooks a64_isel_hooks;

/* frame.c: prologue and epilogue of an allocated Code */
bool a64_finish_frame(Code *code, char *err, size_t errlen);

/* incoming stack arguments start this far above the frame base (saved x29, x30) */
enum { A64_STACK_ARGS_AT = 16 };

#endif
