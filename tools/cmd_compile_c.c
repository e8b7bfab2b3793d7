/* cmd_compile_c.c — `circ compile FILE --target c`: the module as C11 source
 * (compiler/c/cemit.h, docs/cbackend.md), to -o OUT or standard output. */
#include "compiler/c/cemit.h"
#include "driver.h"
#include "fuzz/atomic_write.h"

#include <errno.h>
#include <string.h>

typedef struct {
    const Module *m;
    CompileOptions opt;
    CEmitOptions c;
    Diag *d;
} CArgs;

static bool fill_c(FILE *f, void *ctx)
{
    CArgs *a = ctx;
    return c_compile_module(a->m, &a->opt, &a->c, f, a->d);
}

int compile_to_c(const char *file, int opt_level, const char *passes, const char *prefix, const char *out)
{
    int status = EXIT_OK;
    Module *m = load_module(file, true, &status);
    if (!m)
        return status;
    Diag d;
    diag_init(&d, file, stderr);
    CArgs a = {m, {.opt_level = opt_level, .passes = passes}, {.prefix = prefix}, &d};
    int rc = EXIT_OK;
    if (!out) {
        rc = fill_c(stdout, &a) ? EXIT_OK : EXIT_FAIL;
    } else {
        AtomicWriter w;
        atomic_writer_init(&w);
        if (!atomic_write_file(&w, out, AW_REPLACE, fill_c, &a)) {
            rc = d.nerrors ? EXIT_FAIL : EXIT_USAGE;
            if (!d.nerrors)
                fprintf(stderr, "circ compile: cannot write %s: %s\n", out, strerror(errno));
        }
    }
    module_free(m);
    return rc;
}
