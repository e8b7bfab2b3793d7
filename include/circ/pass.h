/* pass.h — passes of one's own, pass plugins and pass managers through libcirc's
 * public API (included by circ/circ.h; docs/api.md), and the differential check and
 * the reducer with those passes.
 *
 * A pass is a name and a run callback over a function (circ/build.h reads and
 * rewrites its gates).  Passes are registered in a circ_pass_registry, directly
 * (circ_pass_register) or by loading a plugin: a shared object that exports
 *
 *     int circ_plugin_register(unsigned api_version, circ_pass_registry *r);
 *
 * which gets the loading library's API version (CIRC_VERSION of the circ that loads
 * it), registers its passes with circ_pass_register and returns 0 (nonzero: it
 * refuses to load; it may say why with circ_pass_registry_fail).  circ_pass_register
 * passes the plugin's own CIRC_VERSION along, so a plugin built for an API this
 * library does not provide (another major version, or a newer minor one) is refused
 * with a message naming both versions.  The `circ` tool loads plugins with
 * --load-pass-plugin=PATH.so (opt, check, fuzz, reduce, tv); their passes then work
 * in --passes=LIST and get checked as the built-in ones are (stage pass-NAME).
 * A plugin is built against the headers only: its circ_* calls resolve to the
 * program that loads it (the circ tool exports them; a program linked with libcirc.so
 * provides them too).  A registry and its passes are used by one thread at a time. */
#ifndef CIRC_PASS_H
#define CIRC_PASS_H

#ifndef CIRC_CIRC_H
#error "include <circ/circ.h>, which includes this header"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* a pass over one function: rewrite f as it likes (circ/build.h) keeping it valid
 * and keeping the outcome of every call (DESIGN.md §3; that is what circ checks);
 * return nonzero if it changed f, 0 if not.  user: the circ_pass's user pointer. */
typedef int (*circ_pass_fn)(circ_function *f, void *user);

typedef struct {
    const char *name;    /* as written in --passes=LIST: letters, digits, '_', '-' and
                            '.', at most 47 characters, not a built-in pass's name */
    const char *summary; /* one line for `circ opt --list-passes` (may be NULL) */
    circ_pass_fn run;
    void *user;          /* given to run; owned by whoever registered the pass */
} circ_pass;

typedef struct circ_pass_registry circ_pass_registry;

/* the name of the function a plugin exports, and its type */
#define CIRC_PLUGIN_ENTRY "circ_plugin_register"
typedef int (*circ_plugin_register_fn)(unsigned api_version, circ_pass_registry *r);

/* an empty registry; NULL when out of memory */
circ_pass_registry *circ_pass_registry_new(void);
/* frees r, its passes, and unloads the plugins it loaded (their passes must no longer
 * be in use: free pass managers made from r first); NULL is ignored */
void circ_pass_registry_free(circ_pass_registry *r);
/* register p (copied; p->user is kept as it is) as built for API version built_for;
 * use the circ_pass_register macro, which passes the header's CIRC_VERSION.  0, or
 * -1 with the reason kept (circ_pass_registry_error): a version this library does
 * not provide, a bad, taken or built-in name, no run callback, or too many passes
 * (at most 64 in all). */
int circ_pass_register_version(circ_pass_registry *r, const circ_pass *p, unsigned built_for);
#define circ_pass_register(r, p) circ_pass_register_version((r), (p), CIRC_VERSION)
/* a plugin that refuses to load says why (kept as the registry's error); -1 */
int circ_pass_registry_fail(circ_pass_registry *r, const char *why);
/* load the plugin at path (dlopen) and call its circ_plugin_register.  0, or -1 with
 * the reason in err (and nothing of the plugin kept): the file cannot be loaded, it
 * exports no circ_plugin_register, it was built for another API version ("plugin
 * PATH was built for circ API 2.0, this circ is 1.1"), a registration failed, or
 * circ_plugin_register returned nonzero. */
int circ_pass_registry_load(circ_pass_registry *r, const char *path, char *err, size_t errn);
/* the last registration's error ("" if none) */
const char *circ_pass_registry_error(const circ_pass_registry *r);
/* its passes: count, and the name of pass i (NULL if out of range) */
unsigned circ_pass_registry_count(const circ_pass_registry *r);
const char *circ_pass_registry_name(const circ_pass_registry *r, unsigned i);

/* ---- pass managers -------------------------------------------------------------------- */
typedef struct circ_pass_manager circ_pass_manager;

/* a pass manager with the built-in passes and those of passes (may be NULL; it must
 * outlive the manager), running the -O2 pipeline until told otherwise; NULL when
 * out of memory */
circ_pass_manager *circ_pass_manager_new(const circ_pass_registry *passes);
void circ_pass_manager_free(circ_pass_manager *pm);
/* the pipeline: -O level (0, 1 or 2; 2 repeats until nothing changes) when passes is
 * NULL, else the comma-separated pass list, run once in order.  0, or -1 with the
 * reason in err (an unknown pass). */
int circ_pass_manager_set_pipeline(circ_pass_manager *pm, int level, const char *passes, char *err, size_t errn);
/* verify after every pass application (on by default): a pass that breaks the
 * circuit stops the run, naming the pass */
void circ_pass_manager_set_verify_each(circ_pass_manager *pm, int on);
/* run the pipeline over every function of m.  0, or -1 with the reason in err (the
 * first verifier error and the pass after which it appeared). */
int circ_pass_manager_run(circ_pass_manager *pm, circ_module *m, char *err, size_t errn);
/* pass applications that changed something in the last run */
uint64_t circ_pass_manager_changes(const circ_pass_manager *pm);
/* the passes it knows, one "  NAME  SUMMARY" line each (as `circ opt --list-passes`);
 * 0, or -1 on a write error */
int circ_pass_manager_list(const circ_pass_manager *pm, FILE *out);

/* ---- checking and reducing with one's own passes ----------------------------------------- */
/* circ_check with the passes of passes (may be NULL) registered too: each gets a
 * stage pass-NAME (its mismatches are signed pass-NAME:...), and tv-NAME with tv */
int circ_check_passes(const circ_module *m, const char *targets, int tv, const circ_pass_registry *passes,
                      circ_check_result *res);
/* the reducer (`circ reduce`): a smaller module that still shows the mismatch of
 * circ_check_passes(m, targets, 0, passes, ...) with the same signature, in a new
 * module (*out; the caller frees it), within max_seconds (0: no limit).  The
 * signature kept in signature (may be NULL).  0 when reduced (*out may be as large
 * as m when nothing could be removed), 1 if m shows no mismatch (*out NULL), -1 on
 * bad options (the reason in signature). */
int circ_reduce(const circ_module *m, const char *targets, const circ_pass_registry *passes, double max_seconds,
                circ_module **out, char *signature, size_t sign);
/* live gates over every function (roots excluded): what the reducer shrinks */
unsigned circ_module_gate_count(const circ_module *m);

#ifdef __cplusplus
}
#endif

#endif
