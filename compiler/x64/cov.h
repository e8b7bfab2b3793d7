/* cov.h — the x86-64 encoder paths of cov.def as an enum (X64COV_*), counted by
 * encode.c through mcov_item, named by target.c. */
#ifndef CIRC_X64_COV_H
#define CIRC_X64_COV_H

#include "compiler/lir/mcov.h"

typedef enum {
#define X(id, name) X64COV_##id,
#include "compiler/x64/cov.def"
#undef X
    X64COV_COUNT
} X64Cov;

_Static_assert((int)X64COV_COUNT <= (int)MCOV_MAX_ITEMS, "x86-64 coverage items exceed MCOV_MAX_ITEMS");

#endif
