/* a64_internal.h — pieces shared by the ARM64 instruction selection (isel.c), the
 * AAPCS64 calling convention (abi.c) and the frame (frame.c). */
#ifndef CIRC_A64_INTERNAL_H
#define CIRC_A64_INTERNAL_H

#include "compiler/lir/lower.h"

extern const IselHooks a64_isel_hooks;

/* abi.c */
bool a64_sel_entry(Lower *l);
bool a64_sel_call(Lower *l, GateId g);
bool a64_sel_return(Lower *l, const Block *b);
bool a64_sel_throw(Lower *l, const Block *b);
/* a call of target (a function Symbol, a helper Symbol or a Tmp) reading uses and
 * writing defs (physical registers), clobbering the AAPCS64 caller-saved registers */
void a64_emit_call(Lower *l, Arg target, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs);

/* frame.c: prologue and epilogue of an allocated Code */
bool a64_finish_frame(Code *code, char *err, size_t errlen);

/* incoming stack arguments start this far above the frame base (saved x29, x30) */
enum { A64_STACK_ARGS_AT = 16 };

#endif
