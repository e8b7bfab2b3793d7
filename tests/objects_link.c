/* objects_link.c — circ's objects in programs of the system toolchain: every module
 * given (corpus files, and NGEN programs of `circ gen`) is compiled at -O2 to an ELF
 * object, linked with runtime/main.c (docs/objects.md) and libcirc_rt into a PIE (the
 * toolchain's default link: no -no-pie, no -static) with nothing printed by the link,
 * and run natively (x86-64) or under qemu-aarch64 (arm64); each run line's outcome and
 * harness-buffer bytes must be the interpreter's.  TARGET c-gcc or c-clang: the
 * module as C (circ compile --target c, docs/cbackend.md) built into main.c's program
 * by that compiler with -Wall -Wextra -Werror -fsanitize=undefined
 * -fno-sanitize-recover, run natively (modules that throw included).
 *   objects_link CIRC RUNTIME_SRC TARGET NGEN FILE_OR_DIR...
 * Exit 77 (skipped) when the target's compiler or emulator is not installed. */
#include "compiler/ir/ir.h"
#include "compiler/lir/lower.h"
#include "oracle/interp.h"
#include "oracle/outcome.h"
#include "test_check.h"

#include <dirent.h>
#include <elf.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *circ, *rt_src, *target;
    const char *cc;         /* the compiler and its flags */
    const char *run;        /* the prefix that runs an executable ("" or qemu) */
    bool c_source;          /* TARGET c-CC: the C backend's output, not an object */
    char tmp[64];
    char rt_objs[1024];      /* libcirc_rt's objects built for the target */
    unsigned lines, modules;
} Ctx;

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

static bool have(const char *tool) { return sh("command -v %s >/dev/null 2>&1", tool) == 0; }

/* the toolchain for the target; false if it is not installed here */
static bool pick_toolchain(Ctx *c)
{
    bool x64_host = sh("test \"$(uname -m)\" = x86_64") == 0;
    c->c_source = !strncmp(c->target, "c-", 2);
    if (c->c_source) {
        c->cc = !strcmp(c->target, "c-clang") ? "clang -fsanitize=undefined -fno-sanitize-recover"
                                              : "gcc -fsanitize=undefined -fno-sanitize-recover";
        c->run = "";
        return x64_host && have(!strcmp(c->target, "c-clang") ? "clang" : "gcc");
    }
    if (!strcmp(c->target, "x86-64")) {
        c->cc = "cc"; /* the toolchain's default link: a PIE on Debian */
        c->run = "";
        return x64_host && have("cc");
    }
    c->cc = "aarch64-linux-gnu-gcc"; /* a dynamically linked PIE, as docs/objects.md links it */
    c->run = x64_host ? "qemu-aarch64 -L /usr/aarch64-linux-gnu " : "";
    return have("aarch64-linux-gnu-gcc") && (!x64_host || have("qemu-aarch64"));
}

/* libcirc_rt's sources, each built for the target as TMP/NAME.o */
static const char *const runtime_sources[] = {"circ_rt", "circ_rt_call", "circ_rt_fns", "circ_rt_regcall"};

static bool build_runtime(Ctx *c)
{
    size_t at = 0;
    c->rt_objs[0] = 0;
    for (size_t i = 0; i < sizeof runtime_sources / sizeof runtime_sources[0]; i++) {
        const char *n = runtime_sources[i];
        at += (size_t)snprintf(c->rt_objs + at, sizeof c->rt_objs - at, "%s%s/%s.o", i ? " " : "", c->tmp, n);
        if (at >= sizeof c->rt_objs ||
            sh("%s -std=c11 -O2 -Wall -Wextra -Werror -c %s/%s.c -o %s/%s.o", c->cc, c->rt_src, n, c->tmp, n) != 0)
            return false;
    }
    return true;
}

/* the program TMP/a.out is position-independent (ET_DYN), and the link that made it
 * printed nothing (TMP/link.err empty: no text relocations or other warnings) */
static bool pie_without_warning(const Ctx *c, const char *file)
{
    char path[128], msg[512] = "";
    snprintf(path, sizeof path, "%s/link.err", c->tmp);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(msg, 1, sizeof msg - 1, f) : 0;
    if (f)
        fclose(f);
    msg[n] = 0;
    CHECK(f && n == 0, "%s (%s): the link printed: %s", file, c->target, msg);
    snprintf(path, sizeof path, "%s/a.out", c->tmp);
    unsigned char h[18] = {0};
    f = fopen(path, "rb");
    bool read = f && fread(h, 1, sizeof h, f) == sizeof h;
    if (f)
        fclose(f);
    CHECK(read && h[16] == ET_DYN && h[17] == 0, "%s (%s): the program is not a PIE (e_type %u)", file, c->target, h[16]);
    return f && n == 0 && read && h[16] == ET_DYN;
}

/* object, header and program of one module */
static bool build_program(Ctx *c, const char *file)
{
    if (c->c_source) /* the C includes main.c's caller table (CIRC_MODULE_TABLE) */
        return sh("%s compile '%s' --target c -O2 --prefix=circ_ -o %s/m.c && "
                  "echo '#include \"m.c\"' > %s/circ_module.h && "
                  "%s -std=c11 -O2 -Wall -Wextra -Werror -I%s -I%s %s/main.c %s -lm -o %s/a.out",
                  c->circ, file, c->tmp, c->tmp, c->cc, c->tmp, c->rt_src, c->rt_src, c->rt_objs, c->tmp) == 0;
    return sh("%s compile '%s' --target %s -O2 --prefix=circ_ -o %s/m.o && "
              "%s compile '%s' --emit=header --prefix=circ_ -o %s/circ_module.h && "
              "%s -std=c11 -O1 -Wall -Wextra -Werror -I%s -I%s %s/main.c %s/m.o %s -lm -o %s/a.out 2>%s/link.err",
              c->circ, file, c->target, c->tmp, c->circ, file, c->tmp, c->cc, c->tmp, c->rt_src, c->rt_src,
              c->tmp, c->rt_objs, c->tmp, c->tmp) == 0 &&
           pie_without_warning(c, file);
}

static uint64_t mask(Type t, uint64_t bits)
{
    unsigned w = t == TY_I1 ? 1 : t == TY_I8 ? 8 : t == TY_I16 ? 16 : t == TY_I32 || t == TY_F32 ? 32 : 64;
    return w == 64 ? bits : bits & ((1ull << w) - 1);
}

/* one line of the driver's output into o */
static bool parse_line(const char *s, Type type, Outcome *o)
{
    unsigned off, old, now;
    char kind[32];
    if (!strcmp(s, "return void\n"))
        o->kind = OUT_RETURN, o->type = TY_NONE; /* the heap bytes that follow go to o->heap */
    else if (sscanf(s, "return 0x%" SCNx64, &o->bits) == 1)
        o->kind = OUT_RETURN, o->type = type, o->bits = mask(type, o->bits);
    else if (sscanf(s, "throw 0x%" SCNx64, &o->bits) == 1)
        o->kind = OUT_THROW;
    else if (sscanf(s, "trap %31s", kind) == 1) {
        static const char *const names[] = {"none", "div0", "overflow", "fault", "illegal"};
        o->kind = OUT_TRAP;
        for (uint8_t k = 0; k < 5; k++)
            if (!strcmp(kind, names[k]))
                o->trap = k;
    } else if (sscanf(s, "heap+0x%x: %x -> %x", &off, &old, &now) == 3 && off < HEAP_SIZE)
        o->heap[off] = (uint8_t)now;
    else
        return false;
    return true;
}

/* run one line through the program: its outcome in got */
static bool run_program(Ctx *c, const Module *m, const RunLine *r, const Outcome *want, Outcome *got)
{
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "%s%s/a.out %s", c->run, c->tmp, m->funcs[r->func]->name);
    uint64_t args[256];
    runline_args(r, args);
    for (uint32_t i = 0; i < r->nargs && n < (int)sizeof cmd - 24; i++)
        n += r->args[i].kind == RA_FUNC
                 ? snprintf(cmd + n, sizeof cmd - (size_t)n, " @%.20s", m->funcs[r->args[i].bits]->name)
                 : snprintf(cmd + n, sizeof cmd - (size_t)n, " 0x%" PRIx64, args[i]);
    FILE *p = popen(cmd, "r");
    if (!p)
        return false;
    *got = (Outcome){.kind = OUT_INVALID};
    heap_fill_pattern(got->heap);
    char line[256];
    bool ok = true;
    while (fgets(line, sizeof line, p))
        ok = parse_line(line, m->funcs[r->func]->ret, got) && ok;
    if (got->kind == OUT_THROW)
        got->type = want->type, got->bits = mask(want->type, got->bits);
    return pclose(p) == 0 && ok;
}

static void check_module(Ctx *c, const char *file)
{
    Diag d;
    diag_init(&d, file, stderr);
    Module *m = parse_file(file, &d);
    if (!m || !m->nruns) {
        module_free(m);
        return;
    }
    c->modules++;
    bool built = build_program(c, file);
    CHECK(built, "%s (%s): no program from the object", file, c->target);
    for (uint32_t i = 0; built && i < m->nruns; i++) {
        const RunLine *r = &m->runs[i];
        Outcome want, got;
        uint64_t args[256];
        runline_args(r, args);
        interp_run(m, r->func, args, NULL, &want);
        if (want.kind == OUT_TIMEOUT || want.kind == OUT_INVALID)
            continue;
        char why[256] = "", w[128], g[128];
        bool ran = run_program(c, m, r, &want, &got);
        outcome_format(w, sizeof w, &want);
        outcome_format(g, sizeof g, &got);
        CHECK(ran && outcome_equal(&want, &got, why, sizeof why), "%s:%u (%s): the program gives %s, the oracle %s %s",
              file, r->line, c->target, g, w, why);
        c->lines++;
    }
    module_free(m);
}

static void check_path(Ctx *c, const char *path)
{
    DIR *dir = opendir(path);
    if (!dir) {
        check_module(c, path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t n = strlen(e->d_name);
        char file[1024];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".circ"))
            check_module(c, file);
        else if (e->d_type == DT_DIR && e->d_name[0] != '.')
            check_path(c, file);
    }
    closedir(dir);
}

static void check_generated(Ctx *c, unsigned n)
{
    for (unsigned seed = 1; seed <= n; seed++) {
        char file[128];
        snprintf(file, sizeof file, "%s/gen%u.circ", c->tmp, seed);
        CHECK(sh("%s gen --seed %u -o %s", c->circ, seed * 7919u, file) == 0, "circ gen --seed %u", seed * 7919u);
        check_module(c, file);
    }
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: objects_link CIRC RUNTIME_SRC TARGET NGEN FILE_OR_DIR...\n");
        return 2;
    }
    Ctx c = {.circ = argv[1], .rt_src = argv[2], .target = argv[3]};
    if (!pick_toolchain(&c)) {
        printf("SKIP: no toolchain for %s on this host\n", c.target);
        return 77;
    }
    snprintf(c.tmp, sizeof c.tmp, "/tmp/circ_objects_XXXXXX");
    if (!mkdtemp(c.tmp) || !build_runtime(&c)) {
        fprintf(stderr, "cannot build libcirc_rt for %s\n", c.target);
        return 1;
    }
    for (int i = 5; i < argc; i++)
        check_path(&c, argv[i]);
    check_generated(&c, (unsigned)atoi(argv[4]));
    sh("rm -rf %s", c.tmp);
    CHECK(c.modules >= 10 && c.lines >= 50, "only %u modules and %u run lines were checked", c.modules, c.lines);
    printf("%s: %u modules, %u run lines linked and run: %d failures\n", c.target, c.modules, c.lines, failures);
    return failures != 0;
}
