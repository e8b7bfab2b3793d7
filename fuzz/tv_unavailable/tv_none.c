/* tv_none.c — the translation validator of a build without Z3 (cmake/z3.cmake links
 * this file instead of fuzz/tv_exec.c, tv_ops.c, tv_float.c and tv_query.c): every
 * check is unknown with the reason TVR_UNAVAILABLE, which `circ tv` and the tv
 * stages report as "built without Z3". */
#include "fuzz/tv.h"

#include <string.h>

bool tv_available(void) { return false; }

void tv_check_func(const Module *src, const Module *tgt, uint32_t fi, const TvOptions *opt, TvVerdict *v)
{
    (void)src, (void)tgt, (void)fi, (void)opt;
    memset(v, 0, sizeof *v);
    v->kind = TV_UNKNOWN;
    v->reason = TVR_UNAVAILABLE;
    snprintf(v->detail, sizeof v->detail, "circ was built without Z3 (install libz3-dev and configure again)");
}
