/* api_internal.h — what the public API's files (the api folder) and the circ tool share
 * beyond include/circ/circ.h: the handles are the compiler's own objects (a
 * circ_module is a Module, a circ_function a Func; never dereferenced as the public
 * types), the plugin registry's passes as the pass manager's PassInfo rows, and
 * small error helpers. */
#ifndef CIRC_API_INTERNAL_H
#define CIRC_API_INTERNAL_H

#include "circ/circ.h"

#include "compiler/ir/ir.h"
#include "compiler/opt/opt.h"

#include <stdarg.h>

#define API_M(m) ((Module *)(m))
#define API_F(f) ((Func *)(f))

/* a diagnostic context that prints nothing and keeps its first message in err */
void api_quiet_diag(Diag *d, const char *file, char *err, size_t errn);
/* printf into err (nothing when err is NULL or errn 0) */
void api_error(char *err, size_t errn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* a name of the text format: letters, digits, '_' and '.', and the characters of
 * extra (may be NULL); not empty */
bool api_name_ok(const char *s, const char *extra);

/* the registry's passes as PassInfo rows (n of them; NULL when none), for
 * pass_register and CheckOptions.extra_passes: valid until the next registration
 * or until r is freed.  r may be NULL. */
const PassInfo *api_registry_passes(const circ_pass_registry *r, uint32_t *n);
/* register every pass of r (may be NULL) in pm */
void api_register_passes(PassManager *pm, const circ_pass_registry *r);

#endif
