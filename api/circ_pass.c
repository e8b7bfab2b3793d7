/* circ_pass.c — the public API's passes (include/circ/pass.h): the pass registry and
 * its plugins (dlopen), the public pass manager over compiler/opt's, and the check
 * and the reducer with a registry's passes.
 *
 * A registered pass becomes a PassInfo row whose run is plugin_run and whose name
 * points at the first member of its RegisteredPass record: the pass manager copies
 * PassInfo rows, keeping the name pointer, so plugin_run finds the record (the
 * public callback and its user pointer) from the row it is given. */
#include "api/api_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_REGISTERED = 64, PASS_NAME_MAX = 48, SUMMARY_MAX = 160, ERROR_MAX = 512 };

typedef struct {
    char name[PASS_NAME_MAX]; /* first: a PassInfo's name points at the record */
    char summary[SUMMARY_MAX];
    circ_pass pass;
} RegisteredPass;

struct circ_pass_registry {
    RegisteredPass *passes[MAX_REGISTERED];
    PassInfo infos[MAX_REGISTERED];
    uint32_t n;
    void **handles;       /* the plugins loaded (dlopen) */
    uint32_t nhandles;
    const char *loading;  /* the plugin being loaded, NULL if none */
    char error[ERROR_MAX];
};

static bool plugin_run(PassContext *ctx, Func *f)
{
    const RegisteredPass *rp = (const RegisteredPass *)(const void *)ctx->pass->name;
    return rp->pass.run((circ_function *)f, rp->pass.user) != 0;
}

const PassInfo *api_registry_passes(const circ_pass_registry *r, uint32_t *n)
{
    *n = r ? r->n : 0;
    return r && r->n ? r->infos : NULL;
}

void api_register_passes(PassManager *pm, const circ_pass_registry *r)
{
    for (uint32_t i = 0; r && i < r->n; i++)
        pass_register(pm, &r->infos[i]);
}

circ_pass_registry *circ_pass_registry_new(void) { return calloc(1, sizeof(circ_pass_registry)); }

/* drop the passes registered from index keep on */
static void registry_truncate(circ_pass_registry *r, uint32_t keep)
{
    while (r->n > keep)
        free(r->passes[--r->n]);
}

void circ_pass_registry_free(circ_pass_registry *r)
{
    if (!r)
        return;
    registry_truncate(r, 0);
    for (uint32_t i = 0; i < r->nhandles; i++)
        dlclose(r->handles[i]);
    free(r->handles);
    free(r);
}

/* the first failure of a registration or a load is the one kept */
static int registry_error(circ_pass_registry *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int registry_error(circ_pass_registry *r, const char *fmt, ...)
{
    if (r->error[0])
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *subject(const circ_pass_registry *r, char *buf, size_t n)
{
    if (r->loading)
        snprintf(buf, n, "plugin %s", r->loading);
    else
        snprintf(buf, n, "a pass");
    return buf;
}

int circ_pass_registry_fail(circ_pass_registry *r, const char *why)
{
    char who[4200];
    return registry_error(r, "%s: %s", subject(r, who, sizeof who), why ? why : "refused to load");
}

static bool builtin_name(const char *name)
{
    PassManager *pm = pm_new(NULL);
    bool found = pm && pass_find(pm, name, strlen(name));
    pm_free(pm);
    return found;
}

static bool registered(const circ_pass_registry *r, const char *name)
{
    for (uint32_t i = 0; i < r->n; i++)
        if (!strcmp(r->passes[i]->name, name))
            return true;
    return false;
}

/* why p cannot be registered (NULL: it can) */
static const char *refusal(const circ_pass_registry *r, const circ_pass *p)
{
    if (!p || !p->run)
        return "has no run callback";
    if (!api_name_ok(p->name, "-") || strlen(p->name) >= PASS_NAME_MAX)
        return "has a bad name (letters, digits, '_', '-' and '.', at most 47)";
    if (builtin_name(p->name))
        return "has the name of a built-in pass";
    if (registered(r, p->name))
        return "is registered already";
    return r->n == MAX_REGISTERED ? "is one too many (at most 64 passes)" : NULL;
}

int circ_pass_register_version(circ_pass_registry *r, const circ_pass *p, unsigned built_for)
{
    char who[4200];
    if (!circ_version_compatible(CIRC_VERSION, built_for))
        return registry_error(r, "%s was built for circ API %u.%u, this circ is %u.%u", subject(r, who, sizeof who),
                              built_for >> 16, built_for & 0xffff, CIRC_VERSION_MAJOR, CIRC_VERSION_MINOR);
    const char *why = refusal(r, p);
    if (why)
        return registry_error(r, "%s: pass '%s' %s", subject(r, who, sizeof who), p && p->name ? p->name : "", why);
    RegisteredPass *rp = calloc(1, sizeof *rp);
    if (!rp)
        return registry_error(r, "out of memory");
    snprintf(rp->name, sizeof rp->name, "%s", p->name);
    snprintf(rp->summary, sizeof rp->summary, "%s", p->summary ? p->summary : "");
    rp->pass = *p;
    rp->pass.name = rp->name;
    rp->pass.summary = rp->summary;
    r->infos[r->n] = (PassInfo){rp->name, plugin_run, rp->summary};
    r->passes[r->n++] = rp;
    return 0;
}

const char *circ_pass_registry_error(const circ_pass_registry *r) { return r->error; }

unsigned circ_pass_registry_count(const circ_pass_registry *r) { return r->n; }

const char *circ_pass_registry_name(const circ_pass_registry *r, unsigned i)
{
    return i < r->n ? r->passes[i]->name : NULL;
}

/* the plugin's registration function (NULL if it exports none) */
static circ_plugin_register_fn entry_of(void *handle)
{
    void *sym = dlsym(handle, CIRC_PLUGIN_ENTRY);
    circ_plugin_register_fn fn = NULL;
    if (sym) /* an object pointer to a function pointer, as POSIX has dlsym do */
        memcpy(&fn, &sym, sizeof fn);
    return fn;
}

/* call the plugin's registration; false (its passes dropped) on any failure */
static bool register_plugin(circ_pass_registry *r, circ_plugin_register_fn fn, const char *path)
{
    uint32_t before = r->n;
    r->error[0] = 0;
    r->loading = path;
    int rc = fn(CIRC_VERSION, r);
    if (rc && !r->error[0])
        registry_error(r, "plugin %s refused to load (circ_plugin_register returned %d)", path, rc);
    r->loading = NULL;
    if (r->error[0])
        registry_truncate(r, before);
    return !r->error[0];
}

static bool keep_handle(circ_pass_registry *r, void *handle)
{
    void **h = realloc(r->handles, (r->nhandles + 1) * sizeof *h);
    if (!h)
        return false;
    r->handles = h;
    r->handles[r->nhandles++] = handle;
    return true;
}

int circ_pass_registry_load(circ_pass_registry *r, const char *path, char *err, size_t errn)
{
    char local[4200]; /* a bare file name is a file here, not one on the library path */
    snprintf(local, sizeof local, "%s%s", strchr(path, '/') ? "" : "./", path);
    void *handle = dlopen(local, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        api_error(err, errn, "cannot load plugin: %s", dlerror());
        return -1;
    }
    circ_plugin_register_fn fn = entry_of(handle);
    uint32_t before = r->n;
    bool ok = fn && register_plugin(r, fn, path) && keep_handle(r, handle);
    if (!fn)
        api_error(err, errn, "plugin %s exports no %s function", path, CIRC_PLUGIN_ENTRY);
    else if (!ok) {
        registry_truncate(r, before);
        api_error(err, errn, "%s", r->error[0] ? r->error : "out of memory");
    }
    if (!ok)
        dlclose(handle);
    return ok ? 0 : -1;
}
