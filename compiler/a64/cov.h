/* cov.h — the ARM64 encoder paths of cov.def as an enum (A64COV_*), counted by
 * encode.c and layout.c through mcov_item, named by target.c. */
#ifndef CIRC_A64_COV_H
#define CIRC_A64_COV_H

#include "compiler/lir/mcov.h"

typedef enum {
#define X(id, name) A64COV_##id,
#include "compiler/a64/cov.def"
#undef X
    A64COV_COUNT
} A64Cov;

_Static_assert((int)A64COV_COUNT <= (int)MCOV_MAX_ITEMS, "ARM64 coverage items exceed MCOV_MAX_ITEMS");

#endif
