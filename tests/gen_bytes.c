/* gen_bytes.c — the generator's decoding is total and deterministic: random byte
 * strings of every length 0..4096 (and the empty and all-ones strings, and truncations
 * of one string) decode without a crash into modules that verify, and decoding the same
 * bytes twice prints the same text.
 * usage: test_gen_bytes [COUNT [SIZE]]   (default 100000 strings, module size 40) */
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static char *module_text(const Module *m, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    print_module(f, m);
    fclose(f);
    return buf;
}

/* decode, verify; every 'check_every'-th time also decode again and compare */
static int decode(const uint8_t *b, size_t n, const GenOptions *o, bool twice)
{
    Module *m = generate(b, n, o);
    Diag d;
    diag_init(&d, "<generated>", stderr);
    int bad = verify_module(m, &d) != 0;
    if (twice) {
        Module *m2 = generate(b, n, o);
        size_t l1, l2;
        char *t1 = module_text(m, &l1), *t2 = module_text(m2, &l2);
        if (l1 != l2 || memcmp(t1, t2, l1)) {
            fprintf(stderr, "gen_bytes: the same %zu bytes decoded to different modules\n", n);
            bad = 1;
        }
        free(t1);
        free(t2);
        module_free(m2);
    }
    if (bad)
        print_module(stderr, m);
    module_free(m);
    return bad;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 100000;
    uint32_t size = argc > 2 ? (uint32_t)atol(argv[2]) : 40;
    uint8_t *buf = malloc(4097);
    if (!buf)
        return 2;
    uint64_t x = 12345;
    long failures = 0;
    GenOptions o = {.size = size};
    memset(buf, 0xff, 4096);
    failures += decode(NULL, 0, &o, true);   /* empty: every choice reads zero */
    failures += decode(buf, 4096, &o, true); /* all ones */
    for (size_t cut = 0; cut < 64; cut++) /* truncations of one string */
        failures += decode(buf, cut, &o, false);
    for (long i = 0; i < count && failures < 5; i++) {
        size_t len = next(&x) % 4097;
        for (size_t k = 0; k < len; k += 8) {
            uint64_t r = next(&x);
            memcpy(buf + k, &r, len - k < 8 ? len - k : 8);
        }
        o.swarm = i & 1;
        o.funcs = (i % 7 == 0) ? 1 + (uint32_t)(i % 5) : 0;
        o.size = (i % 10 == 0) ? 4 + (uint32_t)(next(&x) % (4 * size)) : size;
        failures += decode(buf, len, &o, i % 100 == 0);
    }
    free(buf);
    printf("gen_bytes: %ld byte strings decoded, %ld failures\n", count, failures);
    return failures ? 1 : 0;
}
