/* exec_util.h — what the tests that run hand-built machine code under Unicorn
 * (x64_exec.c, x64_roles.c, a64_target_exec.c) share: CHECK from test_check.h
 * (each test prints and returns from `failures` and `checks`), and dbl_ref, C's
 * meaning of a DoubleCond, the reference the float forms meet. */
#ifndef CIRC_TESTS_EXEC_UTIL_H
#define CIRC_TESTS_EXEC_UTIL_H

#include "compiler/lir/lir.h"
#include "test_check.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

/* C's comparison of a with b under the float condition c (u*: true if unordered) */
static inline bool dbl_ref(unsigned c, double a, double b)
{
    bool uno = isnan(a) || isnan(b);
    switch ((DoubleCond)c) {
    case DBL_oeq: return !uno && a == b;
    case DBL_one: return !uno && a != b;
    case DBL_ogt: return !uno && a > b;
    case DBL_oge: return !uno && a >= b;
    case DBL_olt: return !uno && a < b;
    case DBL_ole: return !uno && a <= b;
    case DBL_ueq: return uno || a == b;
    case DBL_une: return uno || a != b;
    case DBL_ugt: return uno || a > b;
    case DBL_uge: return uno || a >= b;
    case DBL_ult: return uno || a < b;
    case DBL_ule: return uno || a <= b;
    case DBL_ord: return !uno;
    case DBL_uno: return uno;
    default: return false;
    }
}

#endif
