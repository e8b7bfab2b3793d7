/* regalloc_lir.c — the LIR text tests of the register and stack allocator
 * (tests/regalloc, files ending in .lir): each file is allocated with every register of the target
 * and with limited register sets (its `; limits: GP/FP ...` line, default 2/2 3/2
 * 5/3), under each spill heuristic with and without coalescing, folding and slot
 * sharing; the result must verify, have a form for every instruction and no
 * virtual tmp left, and, given a prologue/epilogue from Code.frame, return under
 * Unicorn the value of each `; run: @func ARGS -> RESULT` line, the same as with
 * every register. */
#include "regalloc_util.h"

#include <dirent.h>
#include <inttypes.h>

#include "tests/test_check.h"

enum { MAX_RUNS = 16, MAX_LIMITS = 8, MAX_ARGS = 6 };

typedef struct {
    char func[64];
    uint64_t args[MAX_ARGS];
    uint32_t nargs;
    uint64_t expect;
} RaRun;

typedef struct {
    const char *path;
    char *src;
    size_t len;
    RaRun runs[MAX_RUNS];
    unsigned nruns;
    uint8_t limits[MAX_LIMITS][BANK_COUNT];
    unsigned nlimits;
} TestFile;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = 0;
        *len = (size_t)n;
    }
    return s;
}

static bool parse_run(const char *line, RaRun *r)
{
    int used = 0;
    if (sscanf(line, " @%63s%n", r->func, &used) != 1)
        return false;
    const char *p = line + used;
    r->nargs = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        if (p[0] == '-' && p[1] == '>')
            return sscanf(p + 2, "%" SCNi64, (int64_t *)&r->expect) == 1;
        char *end;
        long long v = strtoll(p, &end, 0);
        if (end == p || r->nargs == MAX_ARGS)
            return false;
        r->args[r->nargs++] = (uint64_t)v;
        p = end;
    }
}

static void parse_limits(const char *line, TestFile *t)
{
    const char *p = line;
    unsigned g, f;
    int used;
    while (t->nlimits < MAX_LIMITS && sscanf(p, " %u/%u%n", &g, &f, &used) == 2) {
        t->limits[t->nlimits][BANK_GP] = (uint8_t)g;
        t->limits[t->nlimits][BANK_FP] = (uint8_t)f;
        t->nlimits++;
        p += used;
    }
}

static bool load_test(const char *path, TestFile *t)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->src = slurp(path, &t->len);
    if (!t->src)
        return false;
    for (const char *line = t->src; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (!strncmp(line, "; run:", 6) && t->nruns < MAX_RUNS) {
            CHECK(parse_run(line + 6, &t->runs[t->nruns]), "%s: bad run line", path);
            t->nruns++;
        } else if (!strncmp(line, "; limits:", 9)) {
            parse_limits(line + 9, t);
        }
    }
    if (!t->nlimits) {
        static const uint8_t def[3][2] = { { 2, 2 }, { 3, 2 }, { 5, 3 } };
        memcpy(t->limits, def, sizeof def);
        t->nlimits = 3;
    }
    return true;
}

static int find_code(const LirModule *m, const char *name)
{
    for (uint32_t i = 0; i < m->ncodes; i++)
        if (!strcmp(m->codes[i]->name, name))
            return (int)i;
    return -1;
}

typedef struct {
    const char *path;
    const RegallocOptions *opt;
    char label[64];
} Config;

static bool all_registers(Code *c)
{
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++) {
            Inst *in = &c->blocks[b]->insts[i];
            for (unsigned k = 0; k < in->nargs; k++) {
                const Arg *a = &in->args[k];
                if ((a->kind == ARG_TMP || a->kind == ARG_ADDR || a->kind == ARG_INDEX) &&
                    tmp_is_virtual(a->base))
                    return false;
                if (a->kind == ARG_INDEX && tmp_is_virtual(a->index))
                    return false;
                if (a->kind == ARG_STACK && (a->slot >= c->nslots || !c->slots[a->slot].assigned))
                    return false;
            }
        }
    return true;
}

static bool valid_forms(Code *c)
{
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++)
            if (!lir_is_valid_form(c->target, &c->blocks[b]->insts[i]))
                return false;
    return true;
}

/* allocate every code of the file under cfg and run its run lines; results[i]
 * gets run i's value */
static void run_config(Emu *emu, const TestFile *t, const Config *cfg, uint64_t *results, bool *ran)
{
    Arena *arena = arena_new();
    const Target *targets[] = { x64_target() };
    Diag d;
    diag_init(&d, t->path, stderr);
    LirModule m;
    bool parsed = lir_parse(arena, t->src, t->len, targets, 1, &d, &m);
    CHECK(parsed, "%s: does not parse", t->path);
    bool ok = parsed;
    for (uint32_t i = 0; ok && i < m.ncodes; i++) {
        char err[256] = "";
        ok = lir_allocate(m.codes[i], cfg->opt, err, sizeof err);
        CHECK(ok, "%s [%s]: @%s: %s", t->path, cfg->label, m.codes[i]->name, err);
        if (!ok)
            break;
        CHECK(lir_verify(m.codes[i], stderr) == 0, "%s [%s]: @%s does not verify", t->path, cfg->label, m.codes[i]->name);
        CHECK(all_registers(m.codes[i]), "%s [%s]: @%s keeps a virtual tmp or unassigned slot", t->path, cfg->label, m.codes[i]->name);
        CHECK(valid_forms(m.codes[i]), "%s [%s]: @%s has an instruction without form", t->path, cfg->label, m.codes[i]->name);
        CHECK(m.codes[i]->frame.assigned && m.codes[i]->frame.size % 16 == 0, "%s: frame", t->path);
        ra_test_add_frame(m.codes[i]);
    }
    for (unsigned r = 0; ok && r < t->nruns; r++) {
        const RaRun *run = &t->runs[r];
        int f = find_code(&m, run->func);
        CHECK(f >= 0, "%s: no function @%s", t->path, run->func);
        if (f < 0)
            continue;
        Outcome out;
        char err[256] = "";
        bool encoded = ra_test_run(emu, arena, m.codes, m.ncodes, (uint32_t)f, run->args, run->nargs, &out, err, sizeof err);
        CHECK(encoded, "%s [%s]: %s", t->path, cfg->label, err);
        if (!encoded) {
            lir_print(stderr, m.codes[f]);
            break;
        }
        CHECK(out.kind == OUT_RETURN && out.bits == run->expect,
              "%s [%s]: @%s run %u: outcome %d (%s) bits %" PRId64 ", expected %" PRId64, t->path,
              cfg->label, run->func, r, out.kind, out.reason, (int64_t)out.bits, (int64_t)run->expect);
        if (out.kind != OUT_RETURN || out.bits != run->expect)
            lir_print(stderr, m.codes[f]);
        results[r] = out.bits;
        ran[r] = out.kind == OUT_RETURN;
    }
    arena_free(arena);
}

static void test_file(Emu *emu, const char *path)
{
    TestFile t;
    CHECK(load_test(path, &t), "%s: cannot read", path);
    if (!t.src)
        return;
    CHECK(t.nruns > 0, "%s: no run line", path);
    uint64_t full[MAX_RUNS] = { 0 }, limited[MAX_RUNS];
    bool full_ran[MAX_RUNS] = { false }, limited_ran[MAX_RUNS];
    RegallocOptions opt = { 0 };
    Config cfg = { path, &opt, "all registers" };
    run_config(emu, &t, &cfg, full, full_ran);
    for (unsigned l = 0; l < t.nlimits; l++) {
        for (unsigned v = 0; v < 4; v++) {
            memset(&opt, 0, sizeof opt);
            opt.max_regs[BANK_GP] = t.limits[l][BANK_GP];
            opt.max_regs[BANK_FP] = t.limits[l][BANK_FP];
            opt.spill = (uint8_t)(v % RA_SPILL_COUNT);
            opt.no_coalesce = v & 1;
            opt.no_fold = v == 2;
            opt.no_share_slots = v == 3;
            snprintf(cfg.label, sizeof cfg.label, "%u GP/%u FP, variant %u", opt.max_regs[0], opt.max_regs[1], v);
            memset(limited_ran, 0, sizeof limited_ran);
            run_config(emu, &t, &cfg, limited, limited_ran);
            for (unsigned r = 0; r < t.nruns; r++)
                if (full_ran[r] && limited_ran[r])
                    CHECK(full[r] == limited[r], "%s [%s]: run %u differs from all registers", path, cfg.label, r);
        }
    }
    free(t.src);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_regalloc_lir DIR\n");
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    char *names[256];
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(dir)) && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".lir")) {
            names[n] = malloc(strlen(argv[1]) + len + 2);
            sprintf(names[n], "%s/%s", argv[1], e->d_name);
            n++;
        }
    }
    closedir(dir);
    qsort(names, n, sizeof *names, by_name);
    Emu *emu = emu_new(ISA_X64);
    if (!emu) {
        fprintf(stderr, "no Unicorn engine\n");
        return 1;
    }
    for (unsigned i = 0; i < n; i++) {
        test_file(emu, names[i]);
        free(names[i]);
    }
    emu_free(emu);
    CHECK(n >= 4, "only %u test files", n);
    printf("regalloc_lir: %u files, %d checks, %d failures\n", n, checks, failures);
    return failures ? 1 : 0;
}
