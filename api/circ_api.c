/* circ_api.c — the public C API (include/circ/circ.h) over the compiler, the oracle
 * and the fuzzing layer: each opaque circ_module is a Module, each call makes and
 * frees its own contexts (diagnostics, pass managers, interpreters, arenas), so the
 * library keeps no state between calls. */
#include "circ/circ.h"

#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/check.h"
#include "fuzz/gen.h"
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>

struct circ_module {
    Module *m;
};

unsigned circ_version(void) { return CIRC_VERSION; }

static circ_module *wrap(Module *m)
{
    if (!m)
        return NULL;
    circ_module *w = malloc(sizeof *w);
    if (!w) {
        module_free(m);
        return NULL;
    }
    w->m = m;
    return w;
}

/* a quiet diagnostic context that keeps its first message in err */
static void quiet_diag(Diag *d, const char *file, char *err, size_t errn)
{
    diag_init(d, file, NULL);
    if (err && errn) {
        err[0] = 0;
        diag_keep_first(d, err, errn);
    }
}

circ_module *circ_module_parse(const char *name, const char *text, size_t len, char *err, size_t errn)
{
    Diag d;
    quiet_diag(&d, name ? name : "<text>", err, errn);
    return wrap(parse_module(d.file, text, len, &d));
}

circ_module *circ_module_parse_file(const char *path, char *err, size_t errn)
{
    Diag d;
    quiet_diag(&d, path, err, errn);
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

circ_module *circ_module_clone(const circ_module *m) { return m ? wrap(module_clone(m->m)) : NULL; }

void circ_module_free(circ_module *m)
{
    if (!m)
        return;
    module_free(m->m);
    free(m);
}

int circ_module_verify(const circ_module *m, char *err, size_t errn)
{
    Diag d;
    quiet_diag(&d, m->m->file ? m->m->file : "<module>", err, errn);
    return verify_module(m->m, &d);
}

int circ_module_print(const circ_module *m, FILE *out)
{
    print_module(out, m->m);
    return ferror(out) ? -1 : 0;
}

unsigned circ_module_function_count(const circ_module *m) { return m->m->nfuncs; }

const char *circ_module_function_name(const circ_module *m, unsigned i)
{
    return i < m->m->nfuncs ? m->m->funcs[i]->name : NULL;
}

unsigned circ_module_run_count(const circ_module *m) { return m->m->nruns; }

int circ_module_optimize(circ_module *m, int level, const char *passes, char *err, size_t errn)
{
    FILE *null = fopen("/dev/null", "w");
    PassOptions po = {.verify_each = true, .bisect_limit = -1, .log = null};
    PassManager *pm = pm_new(&po);
    int rc = -1;
    if (pm && passes && !pm_set_passes(pm, passes, err, errn))
        goto done;
    if (!pm)
        goto done;
    if (!passes)
        pm_set_level(pm, level);
    rc = pm_run(pm, m->m) ? -1 : 0;
    if (rc && err && errn)
        snprintf(err, errn, "a pass broke the module (circ opt --verify-each shows where)");
done:
    pm_free(pm);
    if (null)
        fclose(null);
    return rc;
}

uint64_t circ_heap_address(void) { return HEAP_ADDR; }

int circ_run(const circ_module *m, const char *func, const uint64_t *args, unsigned nargs, circ_outcome *out)
{
    memset(out, 0, sizeof *out);
    const Func *f = func ? module_find(m->m, func, strlen(func)) : NULL;
    if (!f || f->nparams != nargs) {
        out->kind = CIRC_OUT_INVALID;
        snprintf(out->text, sizeof out->text, f ? "@%s takes %u arguments, not %u" : "no function @%s",
                 func ? func : "", f ? f->nparams : 0, nargs);
        return -1;
    }
    Outcome *o = malloc(sizeof *o);
    if (!o)
        return -1;
    interp_run(m->m, f->index, args, NULL, o);
    out->kind = (circ_outcome_kind)o->kind;
    out->value = o->bits;
    outcome_format(out->text, sizeof out->text, o);
    free(o);
    return 0;
}

int circ_check(const circ_module *m, const char *targets, int tv, circ_check_result *res)
{
    memset(res, 0, sizeof *res);
    CheckOptions o;
    check_options_default(&o);
    o.check_expectations = true;
    o.targets = targets;
    o.tv = tv != 0;
    if (!check_options_validate(&o, res->detail, sizeof res->detail))
        return -1;
    CheckResult *r = malloc(sizeof *r);
    if (!r)
        return -1;
    bool ok = check_module(m->m, &o, r);
    res->mismatch = !ok;
    snprintf(res->signature, sizeof res->signature, "%s", r->signature);
    snprintf(res->detail, sizeof res->detail, "%s", r->detail);
    res->proved = r->tv.proved + r->tv.proved_upto;
    res->refuted = r->tv.refuted;
    res->unknown = r->tv.unknown;
    free(r);
    return ok ? 0 : 1;
}

unsigned circ_target_count(void) { return target_count(); }

const char *circ_target_name(unsigned i) { return i < target_count() ? target_at(i)->name : NULL; }

int circ_compile(const circ_module *m, const char *target, int level, uint8_t **code, size_t *len, char *err,
                 size_t errn)
{
    const Target *t = target ? target_find(target) : NULL;
    *code = NULL;
    *len = 0;
    if (!t) {
        if (err && errn)
            snprintf(err, errn, "no target '%s'", target ? target : "");
        return -1;
    }
    Diag d;
    quiet_diag(&d, m->m->file ? m->m->file : "<module>", err, errn);
    CompileOptions co = {.opt_level = level};
    Arena *a = arena_new();
    CodeBlob blob;
    bool ok = compile_module(m->m, t, &co, a, &blob, NULL, &d);
    if (ok && (*code = malloc(blob.size ? blob.size : 1)) != NULL) {
        memcpy(*code, blob.code, blob.size);
        *len = blob.size;
    }
    arena_free(a);
    return ok && *code ? 0 : -1;
}
