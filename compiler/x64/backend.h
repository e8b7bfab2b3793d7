/* backend.h — the x86-64 Backend for the compile pipeline (compiler/lir/pipeline.h):
 * instruction selection (isel_hooks.c for compiler/lir/isel.h), prologue/epilogue
 * (frame.c). */
#ifndef CIRC_X64_BACKEND_H
#define CIRC_X64_BACKEND_H

#include "compiler/lir/pipeline.h"

const Backend *x64_backend(void);

#endif
