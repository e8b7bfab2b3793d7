/* circ_api.c — the public C API (include/circ/circ.h) over the compiler, the oracle
 * and the fuzzing layer: each opaque circ_module is a Module (api_internal.h), each
 * call makes and frees its own contexts (diagnostics, pass managers, interpreters,
 * arenas), so the library keeps no state between calls. */
#include "api/api_internal.h"

#include "compiler/compile.h"
#include "compiler/lir/objwrite.h"
#include "compiler/target.h"
#include "fuzz/check.h"
#include "fuzz/gen.h"
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>

unsigned circ_version(void) { return CIRC_VERSION; }

int circ_version_compatible(unsigned have, unsigned want)
{
    return have >> 16 == want >> 16 && (have & 0xffff) >= (want & 0xffff);
}

static circ_module *wrap(Module *m) { return (circ_module *)m; }

void api_quiet_diag(Diag *d, const char *file, char *err, size_t errn)
{
    diag_init(d, file, NULL);
    if (err && errn) {
        err[0] = 0;
        diag_keep_first(d, err, errn);
    }
}

void api_error(char *err, size_t errn, const char *fmt, ...)
{
    if (!err || !errn)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
}

circ_module *circ_module_parse(const char *name, const char *text, size_t len, char *err, size_t errn)
{
    Diag d;
    api_quiet_diag(&d, name ? name : "<text>", err, errn);
    return wrap(parse_module(d.file, text, len, &d));
}

circ_module *circ_module_parse_file(const char *path, char *err, size_t errn)
{
    Diag d;
    api_quiet_diag(&d, path, err, errn);
    return wrap(parse_file(path, &d));
}

circ_module *circ_module_generate(uint64_t seed, unsigned size, unsigned runs)
{
    GenOptions g = {.size = size};
    size_t n = gen_bytes_for_size(size);
    uint8_t *bytes = malloc(n);
    if (!bytes)
        return NULL;
    gen_seed_bytes(seed, bytes, n);
    Module *m = generate(bytes, n, &g);
    if (runs)
        gen_add_runlines(m, bytes, n, runs, NULL, NULL);
    free(bytes);
    return wrap(m);
}

circ_module *circ_module_clone(const circ_module *m) { return m ? wrap(module_clone(API_M(m))) : NULL; }

void circ_module_free(circ_module *m)
{
    if (m)
        module_free(API_M(m));
}

int circ_module_verify(const circ_module *m, char *err, size_t errn)
{
    Diag d;
    api_quiet_diag(&d, API_M(m)->file ? API_M(m)->file : "<module>", err, errn);
    return verify_module(API_M(m), &d);
}

int circ_module_print(const circ_module *m, FILE *out)
{
    print_module(out, API_M(m));
    return ferror(out) ? -1 : 0;
}

char *circ_module_text(const circ_module *m)
{
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    if (!mem)
        return NULL;
    print_module(mem, API_M(m));
    if (fclose(mem)) {
        free(text);
        return NULL;
    }
    return text;
}

unsigned circ_module_function_count(const circ_module *m) { return API_M(m)->nfuncs; }

const char *circ_module_function_name(const circ_module *m, unsigned i)
{
    return i < API_M(m)->nfuncs ? API_M(m)->funcs[i]->name : NULL;
}

unsigned circ_module_run_count(const circ_module *m) { return API_M(m)->nruns; }

int circ_module_optimize(circ_module *m, int level, const char *passes, char *err, size_t errn)
{
    circ_pass_manager *pm = circ_pass_manager_new(NULL);
    int rc = -1;
    if (!pm)
        api_error(err, errn, "out of memory");
    else if (!circ_pass_manager_set_pipeline(pm, level, passes, err, errn))
        rc = circ_pass_manager_run(pm, m, err, errn);
    circ_pass_manager_free(pm);
    return rc;
}

uint64_t circ_heap_address(void) { return HEAP_ADDR; }

int circ_run(const circ_module *m, const char *func, const uint64_t *args, unsigned nargs, circ_outcome *out)
{
    memset(out, 0, sizeof *out);
    const Func *f = func ? module_find(API_M(m), func, strlen(func)) : NULL;
    if (!f || f->nparams != nargs) {
        out->kind = CIRC_OUT_INVALID;
        snprintf(out->text, sizeof out->text, f ? "@%s takes %u arguments, not %u" : "no function @%s",
                 func ? func : "", f ? f->nparams : 0, nargs);
        return -1;
    }
    Outcome *o = malloc(sizeof *o);
    if (!o)
        return -1;
    interp_run(API_M(m), f->index, args, NULL, o);
    out->kind = (circ_outcome_kind)o->kind;
    out->value = o->bits;
    outcome_format(out->text, sizeof out->text, o);
    free(o);
    return 0;
}

int circ_check(const circ_module *m, const char *targets, int tv, circ_check_result *res)
{
    return circ_check_passes(m, targets, tv, NULL, res);
}

unsigned circ_target_count(void) { return target_count(); }

const char *circ_target_name(unsigned i) { return i < target_count() ? target_at(i)->name : NULL; }

/* compile m for target into *blob (arena a); false with the reason in err */
static bool compile_blob(const circ_module *m, const char *target, int level, Arena *a, CodeBlob *blob,
                         const Target **t, char *err, size_t errn)
{
    *t = target ? target_find(target) : NULL;
    if (!*t) {
        api_error(err, errn, "no target '%s'", target ? target : "");
        return false;
    }
    Diag d;
    api_quiet_diag(&d, API_M(m)->file ? API_M(m)->file : "<module>", err, errn);
    CompileOptions co = {.opt_level = level};
    return compile_module(API_M(m), *t, &co, a, blob, NULL, &d);
}

/* a malloc'd copy of n bytes into *out; false when out of memory */
static bool copy_out(const uint8_t *bytes, size_t n, uint8_t **out, size_t *len)
{
    *out = malloc(n ? n : 1);
    if (!*out)
        return false;
    memcpy(*out, bytes, n);
    *len = n;
    return true;
}

int circ_compile(const circ_module *m, const char *target, int level, uint8_t **code, size_t *len, char *err,
                 size_t errn)
{
    *code = NULL;
    *len = 0;
    Arena *a = arena_new();
    CodeBlob blob;
    const Target *t;
    bool ok = compile_blob(m, target, level, a, &blob, &t, err, errn) && copy_out(blob.code, blob.size, code, len);
    arena_free(a);
    return ok ? 0 : -1;
}

int circ_compile_object(const circ_module *m, const char *target, int level, const char *prefix, uint8_t **obj,
                        size_t *len, char *err, size_t errn)
{
    *obj = NULL;
    *len = 0;
    const Module *mod = API_M(m);
    const char **names = calloc(mod->nfuncs + 1, sizeof *names);
    Arena *a = arena_new();
    CodeBlob blob;
    const Target *t;
    bool ok = names && compile_blob(m, target, level, a, &blob, &t, err, errn);
    for (uint32_t i = 0; ok && i < mod->nfuncs; i++)
        names[i] = mod->funcs[i]->name;
    ObjImage img = {0};
    char why[256] = "";
    if (ok && !obj_write_elf(&blob, t, names, prefix, &img, why, sizeof why)) {
        api_error(err, errn, "%s", why);
        ok = false;
    }
    if (ok) {
        *obj = img.data;
        *len = img.size;
    }
    free(names);
    arena_free(a);
    return ok ? 0 : -1;
}
