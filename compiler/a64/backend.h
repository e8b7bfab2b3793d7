/* backend.h — the ARM64 Backend for the compile pipeline (compiler/lir/pipeline.h):
 * instruction selection (isel_hooks.c for compiler/lir/isel.h), prologue/epilogue
 * (frame.c). */
#ifndef CIRC_A64_BACKEND_H
#define CIRC_A64_BACKEND_H

#include "compiler/lir/pipeline.h"

const Backend *a64_backend(void);

#endif
