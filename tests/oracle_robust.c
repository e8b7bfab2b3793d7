/* oracle_robust.c — the interpreter on malformed circuits: a fixed-seed mutation of
 * the given files (byte changes, deletions, inserted tokens) that still parse (they
 * are NOT verified) must run to some outcome without crashing, hanging or tripping
 * the sanitizers, and the same module must give the same outcome twice.
 * usage: oracle_robust SEED ITERATIONS FILE... */
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>

static const char *tokens[] = {"entry", "%a", "%b", "%i", "%m", "%loop", "%t", "%f", "0", "1", "-1", "i1",
                               "i8", "i64", "f32", "ADD", "LOAD i64", "STORE", "CALL i64",
                               "VALUE_SELECTOR i64", "DEPEND_SELECTOR", "DEPEND_RELAY", "MERGE",
                               "LOOP_BEGIN", "IF_BRANCH", "RETURN", "THROW", "ALLOCA 8", "(", ")", "[",
                               "]", "{", "}", ",", " ", "\n"};

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng_state >> 33) % n);
}

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    *n = s ? fread(s, 1, (size_t)len, f) : 0;
    fclose(f);
    return s;
}

static size_t mutate(char *buf, size_t m, size_t cap)
{
    for (uint32_t q = 0, k = 1 + rnd(4); q < k && m; q++) {
        size_t pos = rnd((uint32_t)m);
        switch (rnd(3)) {
        case 0:
            buf[pos] = (char)(32 + rnd(95));
            break;
        case 1: {
            size_t len = 1 + rnd(20);
            if (pos + len > m)
                len = m - pos;
            memmove(buf + pos, buf + pos + len, m - pos - len);
            m -= len;
            break;
        }
        default: {
            const char *t = tokens[rnd(sizeof tokens / sizeof tokens[0])];
            size_t tl = strlen(t);
            if (m + tl <= cap) {
                memmove(buf + pos + tl, buf + pos, m - pos);
                memcpy(buf + pos, t, tl);
                m += tl;
            }
        }
        }
    }
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    rng_state = strtoull(argv[1], NULL, 10);
    int iters = atoi(argv[2]), failures = 0;
    long parsed = 0, runs = 0;
    Outcome *o = malloc(sizeof *o), *o2 = malloc(sizeof *o2);
    FILE *sink = fopen("/dev/null", "w");
    for (int fi = 3; fi < argc; fi++) {
        size_t n;
        char *src = read_all(argv[fi], &n);
        if (!src) {
            fprintf(stderr, "cannot read %s\n", argv[fi]);
            return 2;
        }
        size_t cap = n + 1024;
        char *buf = malloc(cap);
        for (int it = 0; it < iters; it++) {
            memcpy(buf, src, n);
            size_t m = mutate(buf, n, cap);
            Diag d;
            diag_init(&d, "mutant", sink);
            Module *mod = parse_module("mutant", buf, m, &d);
            if (!mod)
                continue;
            parsed++;
            InterpOptions opt = {.max_steps = 20000, .max_depth = 16};
            Interp *in = interp_new(mod, &opt);
            for (uint32_t f = 0; f < mod->nfuncs; f++) {
                uint64_t args[256];
                for (int a = 0; a < 256; a++)
                    args[a] = rnd(2) ? HEAP_ADDR : rnd(7);
                interp_call(in, f, args, o);
                interp_call(in, f, args, o2);
                runs++;
                char why[256];
                if (!outcome_equal(o, o2, why, sizeof why) || o->steps != o2->steps) {
                    fprintf(stderr, "%s mutant %d @%s: two runs differ: %s\n", argv[fi], it, mod->funcs[f]->name, why);
                    failures++;
                }
            }
            interp_free(in);
            module_free(mod);
        }
        free(buf);
        free(src);
    }
    fclose(sink);
    free(o);
    free(o2);
    printf("%ld mutants parsed, %ld runs, %d failures\n", parsed, runs, failures);
    return failures || parsed < 10 ? 1 : 0;
}
