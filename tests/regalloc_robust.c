/* regalloc_robust.c — the allocator on damaged input: the LIR test files with lines
 * deleted, duplicated or swapped and register/tmp names replaced, allocated under
 * random limits.  Whatever parses and verifies must either be allocated (then it
 * verifies, has a form for every instruction and no virtual tmp) or be refused
 * with a message; nothing may crash (run sanitized). */
#include "compiler/lir/regalloc.h"
#include "compiler/x64/x64.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks, allocated, refused, unparsed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

static uint64_t rng = 0x2545f4914f6cdd1dull;
static unsigned below(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

enum { MAX_LINES = 512 };

typedef struct {
    char *lines[MAX_LINES];
    unsigned n;
} Text;

static void split_lines(char *src, Text *t)
{
    t->n = 0;
    for (char *p = src; *p && t->n < MAX_LINES;) {
        t->lines[t->n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        p = nl + 1;
    }
}

static const char *const names[] = { "%tmp0", "%tmp1", "%tmp3", "%tmp7", "%rax", "%rcx", "%rdi",
                                     "%rsp", "%rbp", "%ftmp0", "%ftmp2", "%xmm0", "%r10", "%rbx" };

/* a mutated copy of the text (every line ends in \n) */
static char *mutate(const Text *t)
{
    size_t cap = 1;
    for (unsigned i = 0; i < t->n; i++)
        cap += 2 * strlen(t->lines[i]) + 32;
    char *out = malloc(cap * 2), *o = out;
    unsigned kind = below(4), at = below(t->n), other = below(t->n);
    for (unsigned i = 0; i < t->n; i++) {
        const char *line = t->lines[i];
        if (kind == 0 && i == at)
            continue;                                   /* delete */
        if (kind == 2 && (i == at || i == other))
            line = t->lines[i == at ? other : at];      /* swap */
        const char *pct = kind == 3 && i == at ? strchr(line, '%') : NULL;
        if (pct) {                                      /* rename one operand */
            size_t k = 1;
            while (pct[k] && (pct[k] == '_' || (pct[k] >= 'a' && pct[k] <= 'z') || (pct[k] >= '0' && pct[k] <= '9')))
                k++;
            o += sprintf(o, "%.*s%s%s\n", (int)(pct - line), line, names[below(14)], pct + k);
        } else {
            o += sprintf(o, "%s\n", line);
        }
        if (kind == 1 && i == at)
            o += sprintf(o, "%s\n", line);              /* duplicate */
    }
    *o = 0;
    return out;
}

static bool no_virtual(const Code *c)
{
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++) {
            const Inst *in = &c->blocks[b]->insts[i];
            for (unsigned k = 0; k < in->nargs; k++) {
                const Arg *g = &in->args[k];
                bool names_base = g->kind == ARG_TMP || g->kind == ARG_ADDR || g->kind == ARG_INDEX;
                if ((names_base && tmp_is_virtual(g->base)) || (g->kind == ARG_INDEX && tmp_is_virtual(g->index)))
                    return false;
            }
        }
    return true;
}

static void try_mutant(const char *src, const char *path)
{
    Arena *a = arena_new();
    const Target *targets[] = { x64_target() };
    Diag d;
    diag_init(&d, path, NULL);
    LirModule m;
    if (!lir_parse(a, src, strlen(src), targets, 1, &d, &m)) {
        unparsed++;
        arena_free(a);
        return;
    }
    for (uint32_t i = 0; i < m.ncodes; i++) {
        RegallocOptions opt = { .max_regs = { (uint8_t)(below(2) ? 0 : 1 + below(6)), (uint8_t)(1 + below(4)) },
                                .spill = (uint8_t)below(RA_SPILL_COUNT), .no_coalesce = below(2),
                                .no_fold = below(4) == 0 };
        char err[256] = "";
        Code *c = m.codes[i];
        if (lir_allocate(c, &opt, err, sizeof err)) {
            allocated++;
            CHECK(lir_verify(c, NULL) == 0 && no_virtual(c), "%s: a mutant allocated but invalid", path);
        } else {
            refused++;
            CHECK(err[0] != 0, "%s: refused without a message", path);
        }
    }
    arena_free(a);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_regalloc_robust DIR [MUTANTS]\n");
        return 2;
    }
    unsigned per_file = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 300;
    DIR *dir = opendir(argv[1]);
    if (!dir)
        return 2;
    unsigned files = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".lir"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        static char src[1 << 16];
        size_t n = fread(src, 1, sizeof src - 1, f);
        fclose(f);
        src[n] = 0;
        Text t;
        split_lines(src, &t);
        files++;
        for (unsigned k = 0; k < per_file; k++) {
            char *m = mutate(&t);
            try_mutant(m, path);
            free(m);
        }
    }
    closedir(dir);
    CHECK(files > 0 && allocated > 0 && refused > 0, "mutants: %d allocated, %d refused", allocated, refused);
    printf("regalloc_robust: %u files, %d allocated, %d refused, %d not parsed, %d checks, %d failures\n", files,
           allocated, refused, unparsed, checks, failures);
    return failures ? 1 : 0;
}
