/* check_c.c — the C stages of the differential check (docs/cbackend.md): the module
 * (no passes, the naive schedule) as C (compiler/c/cemit.h), compiled by gcc or
 * clang at -O2 for x86-64 or ARM64 in a subprocess with a timeout, the object loaded
 * by the harness's ELF loader (oracle/elf_load.h) into Unicorn and every run line
 * run.  On a disagreement the C is compiled at -O0 too, and circ's own -O2 code run:
 * the label says which side is suspect (`cc-suspect`: -O0 agrees with the oracle;
 * `oracle-suspect`: both C builds and circ's code agree with each other, not with the
 * interpreter).  A campaign runs the stages on one program in CheckOptions.c_every. */
#include "compiler/c/cemit.h"
#include "compiler/target.h"
#include "fuzz/check_stage.h"
#include "oracle/emu.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { CC_TIMEOUT_MS = 20000, C_BUDGET_PER_STEP = 16 };

/* is the compiler on the PATH?  (a walk of the PATH: asked once per CheckEngines,
 * check_engines_memo) */
static bool gcc_here(void) { return check_on_path("gcc"); }
static bool gcc_a64_here(void) { return check_on_path("aarch64-linux-gnu-gcc"); }
static bool clang_here(void) { return check_on_path("clang"); }

/* the compilers: argv before the flags, per ISA, and whether it is installed */
typedef struct {
    const char *name;
    const char *argv[ISA_COUNT][3];
    bool (*here[ISA_COUNT])(void);
} CcKind;
static const CcKind cc_kinds[] = {
    {"gcc", {[ISA_X64] = {"gcc", NULL}, [ISA_A64] = {"aarch64-linux-gnu-gcc", NULL}},
     {[ISA_X64] = gcc_here, [ISA_A64] = gcc_a64_here}},
    {"clang", {[ISA_X64] = {"clang", "--target=x86_64-linux-gnu", NULL},
               [ISA_A64] = {"clang", "--target=aarch64-linux-gnu", NULL}},
     {[ISA_X64] = clang_here, [ISA_A64] = clang_here}},
};
enum { NCC = sizeof cc_kinds / sizeof cc_kinds[0] };

/* the flags of every build: freestanding C11 for the harness (no stack protector, no
 * PIC, no errno calls, no contraction: docs/cbackend.md) */
static const char *const cc_flags[] = {"-std=c11", "-ffreestanding", "-fno-stack-protector", "-fno-pic",
                                       "-fno-math-errno", "-ffp-contract=off", "-fno-asynchronous-unwind-tables",
                                       "-w", "-c", NULL};

typedef struct {
    char dir[64];           /* the stage's temporary directory */
    Emu *emu;
    bool loaded, skipped;
    const Module *m;        /* the module the C is made of */
} CRun;

bool check_on_path(const char *tool)
{
    const char *path = getenv("PATH");
    char buf[1024];
    for (const char *p = path; p && *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, tool);
        if (access(buf, X_OK) == 0)
            return true;
        p = end ? end + 1 : NULL;
    }
    return false;
}

uint64_t check_program_hash(const Module *m)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        h = (h ^ m->funcs[i]->circ->ngates) * 0x100000001b3ull;
    for (uint32_t i = 0; i < m->nruns; i++)
        for (uint32_t k = 0; k < m->runs[i].nargs; k++)
            h = (h ^ m->runs[i].args[k].bits) * 0x100000001b3ull;
    return h;
}

bool check_program_sampled(const Module *m, uint32_t every)
{
    return every <= 1 || (check_program_hash(m) >> 17) % every == 0;
}

/* is compiler k named in the list ("gcc,clang"; NULL: all) */
static bool cc_wanted(const char *list, const char *name)
{
    if (!list)
        return true;
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return true;
        p = e ? e + 1 : NULL;
    }
    return false;
}

bool check_cc_list_valid(const char *list, char *err, size_t n)
{
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        bool known = false;
        for (unsigned k = 0; k < NCC; k++)
            known = known || (strlen(cc_kinds[k].name) == len && !strncmp(p, cc_kinds[k].name, len));
        if (!known) {
            snprintf(err, n, "unknown C compiler '%.*s' in --cc (gcc, clang)", (int)len, p);
            return false;
        }
        p = e ? e + 1 : NULL;
    }
    return true;
}

static void add_c_stages(StageList *l, const CheckOptions *o, uint32_t levels)
{
    if (o->no_c || !(levels & CHECK_O2))
        return;
    for (unsigned k = 0; k < NCC; k++) {
        for (unsigned t = 0; t < target_count(); t++) {
            const Target *target = target_at(t);
            Isa isa = target->isa;
            if ((o->isa_mask && !(o->isa_mask & (1u << isa))) || !cc_wanted(o->cc, cc_kinds[k].name) ||
                !check_engines_memo(o->engines, cc_kinds[k].here[isa]))
                continue;
            CheckStage s = {.kind = STAGE_C, .level = 2, .target = target, .cc = (uint8_t)k};
            snprintf(s.name, sizeof s.name, "c-%s-O2-%s", cc_kinds[k].name, target->name);
            check_add_stage(l, o, &s);
        }
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* wait for pid until the deadline, killing it then; "" if it exited 0, else why */
static const char *wait_compiler(pid_t pid, double deadline)
{
    int st = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return "cc-error";
        if (now_ms() > deadline) {
            kill(pid, SIGKILL);
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
            return "cc-timeout";
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    if (WIFSIGNALED(st))
        return "cc-crash";
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "" : "cc-error";
}

/* compile DIR/m.c to DIR/m<opt>.o with compiler k for isa; "" or the failure kind */
static const char *run_compiler(const char *dir, unsigned k, Isa isa, const char *opt, char *obj, size_t n)
{
    const char *argv[32];
    unsigned a = 0;
    for (unsigned i = 0; cc_kinds[k].argv[isa][i]; i++)
        argv[a++] = cc_kinds[k].argv[isa][i];
    for (unsigned i = 0; cc_flags[i]; i++)
        argv[a++] = cc_flags[i];
    char src[96], log[96];
    snprintf(src, sizeof src, "%s/m.c", dir);
    snprintf(obj, n, "%s/m%s.o", dir, opt + 1);
    snprintf(log, sizeof log, "%s/cc.log", dir);
    const char *tail[] = {opt, src, "-o", obj, NULL};
    for (unsigned i = 0; i < 5; i++)
        argv[a++] = tail[i];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc ? "cc-error" : wait_compiler(pid, now_ms() + CC_TIMEOUT_MS);
}

static bool write_c(CheckCtx *c, CRun *cr, StageRun *r)
{
    Schedule *const *sched = check_schedules(c, 0, r->detail, sizeof r->detail, &r->fail_kind);
    if (!sched)
        return false;
    cr->m = check_prepared(c, 0, r->detail, sizeof r->detail);
    char path[96], first[400] = "";
    snprintf(path, sizeof path, "%s/m.c", cr->dir);
    FILE *f = fopen(path, "w");
    Diag d;
    diag_init(&d, cr->m->file, NULL);
    diag_keep_first(&d, first, sizeof first);
    bool ok = f && c_emit_module(cr->m, sched, &(CEmitOptions){0}, f, &d);
    if (f && fclose(f))
        ok = false;
    if (!ok) {
        snprintf(r->detail, sizeof r->detail, "the C backend: %s", *first ? first : "cannot write the C");
        r->fail_kind = "c-emit";
    }
    return ok;
}

bool check_c_load(const Module *m, Isa isa, const char *path, Emu **emu, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    long size = 0;
    if (f && !fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
        (data = malloc((size_t)size)) && fread(data, 1, (size_t)size, f) != (size_t)size)
        size = 0;
    if (f)
        fclose(f);
    snprintf(err, errlen, "cannot read the object");
    ElfImage img;
    bool have_img = data && size > 0 &&
                    elf_load(data, (size_t)size, elf_machine(isa), EMU_CODE_ADDR, elf_resolve_emu_stub, NULL, &img,
                             err, errlen);
    free(data);
    const char **names = calloc(m->nfuncs + 1, sizeof *names);
    uint32_t *entry = calloc(m->nfuncs + 1, sizeof *entry);
    for (uint32_t i = 0; names && i < m->nfuncs; i++)
        names[i] = m->funcs[i]->name;
    CodeBlob blob;
    bool ok = have_img && names && entry && elf_image_blob(&img, isa, names, m->nfuncs, entry, &blob, err, errlen);
    if (ok && !*emu)
        *emu = emu_new(isa);
    if (ok && !(ok = *emu && emu_load(*emu, &blob)))
        snprintf(err, errlen, "the emulator cannot load it: %s", *emu ? emu_error(*emu) : "no engine");
    if (have_img)
        elf_image_free(&img);
    free(names);
    free(entry);
    return ok;
}

/* load object path into the stage's emulator */
static bool load_object(CRun *cr, Isa isa, const char *path, StageRun *r)
{
    char err[256];
    bool ok = check_c_load(cr->m, isa, path, &cr->emu, err, sizeof err);
    if (!ok) {
        snprintf(r->detail, sizeof r->detail, "the C object: %s", err);
        r->fail_kind = "c-load";
    }
    return ok;
}

const char *check_c_compile(const char *dir, const char *cc, Isa isa, const char *opt, char *obj, size_t n)
{
    for (unsigned k = 0; k < NCC; k++)
        if (!strcmp(cc_kinds[k].name, cc))
            return run_compiler(dir, k, isa, opt, obj, n);
    return "cc-error";
}

/* the first line of f (NULL: none) without its newline into line */
static void first_line(FILE *f, char *line, size_t n)
{
    if (!f || !fgets(line, (int)n, f))
        line[0] = 0;
    line[strcspn(line, "\n")] = 0;
}

/* the C of the module compiled with the stage's compiler at opt and loaded */
static bool build(CRun *cr, const CheckStage *s, const char *opt, StageRun *r)
{
    char obj[128];
    const char *why = run_compiler(cr->dir, s->cc, s->target->isa, opt, obj, sizeof obj);
    if (*why) {
        char log[96], line[300] = "";
        snprintf(log, sizeof log, "%s/cc.log", cr->dir);
        FILE *f = fopen(log, "r");
        first_line(f, line, sizeof line);
        if (f)
            fclose(f);
        snprintf(r->detail, sizeof r->detail, "%s %s: %s %s", cc_kinds[s->cc].name, opt, why, line);
        r->fail_kind = why;
        return false;
    }
    return load_object(cr, s->target->isa, obj, r);
}

static bool open_c(CheckCtx *c, const CheckStage *s, StageRun *r)
{
    CRun *cr = calloc(1, sizeof *cr);
    if (!cr)
        abort();
    r->machine = cr;
    cr->skipped = !check_program_sampled(c->m, c->opt->c_every);
    if (cr->skipped)
        return true;
    const char *tmp = getenv("TMPDIR");
    snprintf(cr->dir, sizeof cr->dir, "%.40s/circ_c_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cr->dir)) {
        cr->dir[0] = 0;
        snprintf(r->detail, sizeof r->detail, "cannot make a temporary directory");
        r->fail_kind = "c-emit";
        return false;
    }
    if (!write_c(c, cr, r))
        return false;
    cr->loaded = build(cr, s, "-O2", r);
    return cr->loaded;
}

static uint64_t c_budget(const Outcome *o) { return o->steps * C_BUDGET_PER_STEP + o->alloca_bytes * 2 + 20000; }

/* after a disagreement: the label naming the suspect side, NULL if neither */
static const char *triage(CheckCtx *c, const CheckStage *s, CRun *cr, uint32_t func, const uint64_t *args,
                          const Outcome *o2);

static void run_c(CheckCtx *c, const CheckStage *s, StageRun *r, uint32_t func, const uint64_t *args, Outcome *out)
{
    CRun *cr = r->machine;
    r->label = NULL;
    if (cr->skipped) { /* not this program's turn: the oracle's outcome stands */
        *out = *c->oracle_run;
        return;
    }
    emu_call_func(cr->emu, cr->m->funcs[func], args, c_budget(c->oracle_run), out);
    if (!outcome_equal(c->oracle_run, out, NULL, 0))
        r->label = triage(c, s, cr, func, args, out);
}

static void close_c(StageRun *r)
{
    CRun *cr = r->machine;
    if (!cr)
        return;
    emu_free(cr->emu);
    if (cr->dir[0]) {
        static const char *const files[] = {"m.c", "mO2.o", "mO0.o", "cc.log"};
        for (unsigned i = 0; i < 4; i++) {
            char p[128];
            snprintf(p, sizeof p, "%s/%s", cr->dir, files[i]);
            unlink(p);
        }
        rmdir(cr->dir);
    }
    free(cr);
    r->machine = NULL;
}

/* the outcome of the same call on circ's own -O2 code for the stage's ISA */
static bool circ_outcome(CheckCtx *c, const CheckStage *s, uint32_t func, const uint64_t *args, Outcome *out)
{
    CheckStage ms = {.kind = STAGE_MACHINE, .level = 2, .target = s->target};
    StageRun mr = {0};
    Arena *arena = arena_new();
    CodeBlob blob, loaded;
    ElfImage img;
    Emu *emu = NULL;
    bool ok = check_compile(c, &ms, arena, &blob, &mr) &&
              check_load_object(check_prepared(c, 2, mr.detail, sizeof mr.detail), s->target, &blob, EMU_CODE_ADDR,
                                elf_resolve_emu_stub, NULL, arena, &img, &loaded, &mr);
    if (ok) {
        emu = emu_new(s->target->isa);
        ok = emu && emu_load(emu, &loaded);
        elf_image_free(&img);
    }
    if (ok)
        emu_call_func(emu, c->m->funcs[func], args, c_budget(c->oracle_run), out);
    emu_free(emu);
    arena_free(arena);
    return ok;
}

static const char *triage(CheckCtx *c, const CheckStage *s, CRun *cr, uint32_t func, const uint64_t *args,
                          const Outcome *o2)
{
    StageRun r0 = {0};
    Outcome *o0 = malloc(sizeof *o0), *mc = malloc(sizeof *mc);
    if (!o0 || !mc)
        abort();
    const char *label = NULL;
    if (build(cr, s, "-O0", &r0)) {
        emu_call_func(cr->emu, cr->m->funcs[func], args, c_budget(c->oracle_run), o0);
        if (outcome_equal(c->oracle_run, o0, NULL, 0))
            label = "cc-suspect";
        else if (outcome_equal(o2, o0, NULL, 0) && circ_outcome(c, s, func, args, mc) &&
                 outcome_equal(o2, mc, NULL, 0))
            label = "oracle-suspect";
    }
    char obj[128]; /* the -O2 code back for the later run lines */
    snprintf(obj, sizeof obj, "%s/mO2.o", cr->dir);
    cr->loaded = load_object(cr, s->target->isa, obj, &r0);
    free(o0);
    free(mc);
    return label;
}

/* "gcc 12.2.0, clang 14.0.6": the first line of each wanted compiler's --version */
void check_c_versions(const char *list, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (unsigned k = 0; k < NCC && at < n; k++) {
        if (!cc_wanted(list, cc_kinds[k].name) || !check_on_path(cc_kinds[k].argv[ISA_X64][0]))
            continue;
        char cmd[96], line[200] = "";
        snprintf(cmd, sizeof cmd, "%s --version 2>/dev/null", cc_kinds[k].argv[ISA_X64][0]);
        FILE *p = popen(cmd, "r");
        first_line(p, line, sizeof line);
        if (p)
            pclose(p);
        int w = snprintf(buf + at, n - at, "%s%s", at ? "; " : "", line);
        at += w > 0 ? (size_t)w : 0;
    }
}

const StageOps check_c_stages = {add_c_stages, open_c, run_c, close_c, NULL, PHASE_C, PHASE_C};
