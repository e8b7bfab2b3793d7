/* x64_internal.h — pieces shared by the x86-64 instruction selection (isel.c), the
 * SysV calling convention (abi.c) and the frame (frame.c). */
#ifndef CIRC_X64_INTERNAL_H
#define CIRC_X64_INTERNAL_H

#include "compiler/lir/lower.h"

extern const IselHooks x64_isel_hooks;

/* abi.c */
bool x64_sel_entry(Lower *l);
bool x64_sel_call(Lower *l, GateId g);
bool x64_sel_return(Lower *l, const Block *b);
bool x64_sel_throw(Lower *l, const Block *b);
/* a call of target (a function Symbol, a helper Symbol or a Tmp) reading uses and
 * writing defs (physical registers), clobbering the SysV caller-saved registers */
void x64_emit_call(Lower *l, Arg target, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs);

/* frame.c: prologue and epilogue of an allocated Code */
bool x64_finish_frame(Code *code, char *err, size_t errlen);

#endif
