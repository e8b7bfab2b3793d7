/* robust_parse.c — robustness of the text front end without libFuzzer: a fixed-seed
 * stream of random mutations of the example files (byte flips, insertions of bytes and
 * of tokens from a dictionary, deletions, line duplication and swaps, words replaced by
 * other words, opcodes or types, splices between examples, truncations), each fed to
 * parse_module and then verify_module.  Whenever a mutant parses, print -> parse ->
 * print must be identical and the reprinted module must verify exactly when the
 * original did; valid mutants also go through the Graphviz writer.  Run under ASan and
 * UBSan in the sanitized build: no crash, leak or hang.
 *
 * usage: robust_parse EXAMPLES_DIR [ITERATIONS [SEED]] */
#include "compiler/ir/ir.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_ITERATIONS = 100000, MAX_EXAMPLES = 256 };

typedef struct {
    char *data;
    size_t len, cap;
} Buf;

typedef struct {
    uint64_t rng;
    Buf examples[MAX_EXAMPLES];
    size_t nexamples;
    Buf input;     /* the current mutant */
    FILE *sink;    /* diagnostics go nowhere */
    uint64_t iteration;
    /* statistics */
    uint64_t parsed, verified;
} Ctx;

static const char *const dictionary[] = {
    "%x", "%t1", "%loop", "%back", "%m", "@f", "@main", "[", "]", "{", "}", "(", ")", ",", "=", " = ",
    "entry", "0x", "-", ";", "; run:", "; run: @f(", ") == ", "== trap", "trap div0", "throw ", "heap",
    "nan", "-inf", "inf", "bits(0x7ff8000000000001)", "0x1p-1074", "1e308", "-0.0", "void", "->",
    "i1", "i8", "i16", "i32", "i64", "f32", "f64", "func @g() -> void {\n", "func @f(i32) -> i32 {\n",
    "}\n", "\n", "\t", " ", "-9223372036854775808", "18446744073709551615", "0xffffffffffffffff",
    "0x8000000000000000", "4294967296", "1048576", "1048577", "0", "1", "-1", "255", "256", "-129",
    "RETURN [entry] {entry}", "(%x, %x)", "[%m, %back]", "{entry, entry}",
    "ICMP slt", "FCMP uno", "SWITCH_CASE 7", "CONSTANT i64 ", "ALLOCA ", "ARG i32 0", "SYMBOL @f",
    "JS_BYTECODE", "STATE_ENTRY", "DEPEND_ENTRY",
};

/* ---- deterministic randomness ---------------------------------------------- */

static uint64_t next_random(Ctx *c)
{
    /* splitmix64 */
    uint64_t z = (c->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t below(Ctx *c, size_t n) { return n ? (size_t)(next_random(c) % n) : 0; }

/* ---- buffers ----------------------------------------------------------------- */

static void buf_reserve(Buf *b, size_t n)
{
    if (n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < n)
        cap *= 2;
    b->data = realloc(b->data, cap);
    if (!b->data) {
        fputs("robust_parse: out of memory\n", stderr);
        exit(2);
    }
    b->cap = cap;
}

static void buf_set(Buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data, s, n);
    b->len = n;
}

static void buf_insert(Buf *b, size_t at, const char *s, size_t n)
{
    buf_reserve(b, b->len + n);
    memmove(b->data + at + n, b->data + at, b->len - at);
    memcpy(b->data + at, s, n);
    b->len += n;
}

static void buf_erase(Buf *b, size_t at, size_t n)
{
    memmove(b->data + at, b->data + at + n, b->len - at - n);
    b->len -= n;
}

/* ---- the examples ------------------------------------------------------------ */

static bool read_file(const char *path, Buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char chunk[4096];
    size_t got;
    b->len = 0;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_reserve(b, b->len + got);
        memcpy(b->data + b->len, chunk, got);
        b->len += got;
    }
    fclose(f);
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every *.circ of dir, in name order (the run is deterministic) */
static void load_examples(Ctx *c, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "robust_parse: cannot open %s\n", dir);
        exit(2);
    }
    char *names[MAX_EXAMPLES];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_EXAMPLES) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".circ"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (read_file(path, &c->examples[c->nexamples]))
            c->nexamples++;
        free(names[i]);
    }
    if (!c->nexamples) {
        fprintf(stderr, "robust_parse: no examples in %s\n", dir);
        exit(2);
    }
}

/* ---- mutations --------------------------------------------------------------- */

static size_t line_start(const Buf *b, size_t at)
{
    while (at > 0 && b->data[at - 1] != '\n')
        at--;
    return at;
}

static size_t line_end(const Buf *b, size_t at)
{
    while (at < b->len && b->data[at] != '\n')
        at++;
    return at < b->len ? at + 1 : at;
}

static void flip_byte(Ctx *c, Buf *b)
{
    if (!b->len)
        return;
    size_t at = below(c, b->len);
    if (below(c, 2))
        b->data[at] ^= (char)(1u << below(c, 8));
    else
        b->data[at] = (char)(' ' + below(c, 95));
}

static void insert_byte(Ctx *c, Buf *b)
{
    static const char interesting[] = "%@[]{}(),=;-\n\t 0123456789xabcdefpXi.";
    char ch = below(c, 4) ? interesting[below(c, sizeof interesting - 1)] : (char)below(c, 256);
    if (ch == 0)
        ch = '\n';
    buf_insert(b, below(c, b->len + 1), &ch, 1);
}

static void insert_token(Ctx *c, Buf *b)
{
    size_t n = sizeof dictionary / sizeof dictionary[0];
    const char *tok = below(c, 4) ? dictionary[below(c, n)] : op_info[below(c, OP_COUNT)].name;
    buf_insert(b, below(c, b->len + 1), tok, strlen(tok));
}

static void delete_range(Ctx *c, Buf *b)
{
    if (!b->len)
        return;
    size_t at = below(c, b->len);
    size_t n = 1 + below(c, below(c, 4) ? 4 : 64);
    buf_erase(b, at, n < b->len - at ? n : b->len - at);
}

static void duplicate_line(Ctx *c, Buf *b)
{
    if (!b->len)
        return;
    size_t s = line_start(b, below(c, b->len)), e = line_end(b, s);
    char *copy = malloc(e - s + 1);
    memcpy(copy, b->data + s, e - s);
    buf_insert(b, line_start(b, below(c, b->len)), copy, e - s);
    free(copy);
}

static void swap_lines(Ctx *c, Buf *b)
{
    if (!b->len)
        return;
    size_t s1 = line_start(b, below(c, b->len)), s2 = line_start(b, below(c, b->len));
    if (s1 == s2)
        return;
    if (s1 > s2) {
        size_t t = s1;
        s1 = s2;
        s2 = t;
    }
    size_t e1 = line_end(b, s1), e2 = line_end(b, s2);
    if (e1 > s2)
        return;
    size_t n = b->len;
    char *out = malloc(n);
    size_t k = 0;
    memcpy(out + k, b->data, s1), k += s1;
    memcpy(out + k, b->data + s2, e2 - s2), k += e2 - s2;
    memcpy(out + k, b->data + e1, s2 - e1), k += s2 - e1;
    memcpy(out + k, b->data + s1, e1 - s1), k += e1 - s1;
    memcpy(out + k, b->data + e2, n - e2), k += n - e2;
    memcpy(b->data, out, k);
    free(out);
}

/* a chunk of another example (whole lines or arbitrary bytes) inserted or replacing the tail */
static void splice(Ctx *c, Buf *b)
{
    const Buf *o = &c->examples[below(c, c->nexamples)];
    if (!o->len)
        return;
    size_t s = below(c, o->len), e = s + 1 + below(c, o->len - s);
    if (below(c, 2)) {
        s = line_start(o, s);
        e = line_end(o, e - 1);
    }
    size_t at = below(c, b->len + 1);
    if (below(c, 3) == 0)
        b->len = at;
    buf_insert(b, at, o->data + s, e - s);
}

static bool word_byte(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '%' || ch == '@' || ch == '-';
}

static bool in_comment(const Buf *b, size_t at)
{
    for (size_t i = line_start(b, at); i < at; i++)
        if (b->data[i] == ';')
            return true;
    return false;
}

/* [s, e) of a word outside comments around a random position; false if none found */
static bool random_word(Ctx *c, const Buf *b, size_t *s, size_t *e)
{
    if (!b->len)
        return false;
    size_t at = below(c, b->len);
    for (int tries = 0; tries < 8 && (!word_byte(b->data[at]) || in_comment(b, at)); tries++)
        at = below(c, b->len);
    if (!word_byte(b->data[at]) || in_comment(b, at))
        return false;
    *s = at;
    *e = at;
    while (*s > 0 && word_byte(b->data[*s - 1]))
        (*s)--;
    while (*e < b->len && word_byte(b->data[*e]))
        (*e)++;
    return true;
}

/* one word replaced by another word of the file, or by an opcode or type name: mutants
 * that still parse but break the verifier's rules */
static void replace_word(Ctx *c, Buf *b)
{
    size_t s, e, s2, e2;
    if (!random_word(c, b, &s, &e))
        return;
    static const char *const types[] = {"i1", "i8", "i16", "i32", "i64", "f32", "f64", "void"};
    const char *w = NULL;
    char tmp[256];
    size_t n = 0;
    switch (below(c, 3)) {
    case 0:
        if (!random_word(c, b, &s2, &e2) || e2 - s2 >= sizeof tmp)
            return;
        n = e2 - s2;
        memcpy(tmp, b->data + s2, n);
        w = tmp;
        break;
    case 1: w = op_info[NUM_ROOTS + below(c, OP_COUNT - NUM_ROOTS)].name; break;
    default: w = types[below(c, 8)]; break;
    }
    if (!n)
        n = strlen(w);
    buf_erase(b, s, e - s);
    buf_insert(b, s, w, n);
}

static void truncate_input(Ctx *c, Buf *b)
{
    b->len = below(c, b->len + 1);
}

static void mutate(Ctx *c)
{
    static void (*const ops[])(Ctx *, Buf *) = {
        flip_byte, insert_byte, insert_token, insert_token, delete_range, duplicate_line,
        swap_lines, splice, replace_word, replace_word, replace_word, truncate_input,
    };
    size_t nops = sizeof ops / sizeof ops[0];
    const Buf *base = &c->examples[below(c, c->nexamples)];
    buf_set(&c->input, base->data, base->len);
    size_t n = below(c, 3) ? 1 : 2 + below(c, 3);
    for (size_t i = 0; i < n; i++) {
        size_t k = below(c, nops);
        if (ops[k] == truncate_input && below(c, 4))
            k = 0; /* truncations are rarer: most mutants keep most of the file */
        ops[k](c, &c->input);
    }
}

/* ---- the properties checked -------------------------------------------------- */

static void fail(const Ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void fail(const Ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "robust_parse: iteration %llu: ", (unsigned long long)c->iteration);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n---- input (%zu bytes) ----\n", c->input.len);
    fwrite(c->input.data, 1, c->input.len, stderr);
    fprintf(stderr, "\n---- end ----\n");
    exit(1);
}

static char *print_to_string(const Module *m, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f) {
        fputs("robust_parse: open_memstream failed\n", stderr);
        exit(2);
    }
    print_module(f, m);
    fclose(f);
    return text;
}

/* the printed form parses, prints identically and verifies iff the original did */
static void check_roundtrip(Ctx *c, const Module *m, bool valid)
{
    size_t len1, len2;
    char *text1 = print_to_string(m, &len1);
    Diag d;
    diag_init(&d, "<printed>", c->sink);
    Module *again = parse_module("<printed>", text1, len1, &d);
    if (!again)
        fail(c, "the printed form does not parse:\n%s", text1);
    char *text2 = print_to_string(again, &len2);
    if (len1 != len2 || memcmp(text1, text2, len1) != 0)
        fail(c, "print -> parse -> print differs:\n%s\n---- second print ----\n%s", text1, text2);
    bool valid_again = verify_module(again, &d) == 0;
    if (valid_again != valid)
        fail(c, "the printed form %s, the original %s:\n%s", valid_again ? "verifies" : "does not verify",
             valid ? "does" : "does not", text1);
    module_free(again);
    free(text1);
    free(text2);
}

static void run_one(Ctx *c)
{
    Diag d;
    diag_init(&d, "<mutant>", c->sink);
    Module *m = parse_module("<mutant>", c->input.data, c->input.len, &d);
    if (!m) {
        if (d.nerrors == 0)
            fail(c, "parse_module failed without reporting an error");
        return;
    }
    c->parsed++;
    int errors = verify_module(m, &d);
    if (errors != d.nerrors)
        fail(c, "verify_module returned %d but reported %d errors", errors, d.nerrors);
    c->verified += errors == 0;
    if (errors == 0)
        dot_module(c->sink, m); /* the Graphviz writer must cope with any valid module */
    check_roundtrip(c, m, errors == 0);
    module_free(m);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s EXAMPLES_DIR [ITERATIONS [SEED]]\n", argv[0]);
        return 2;
    }
    Ctx *c = calloc(1, sizeof *c);
    uint64_t iterations = argc > 2 ? strtoull(argv[2], NULL, 0) : DEFAULT_ITERATIONS;
    c->rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x5eed0c12c0ffee11ull;
    c->sink = fopen("/dev/null", "w");
    if (!c->sink) {
        fputs("robust_parse: cannot open /dev/null\n", stderr);
        return 2;
    }
    load_examples(c, argv[1]);
    for (c->iteration = 0; c->iteration < iterations; c->iteration++) {
        mutate(c);
        run_one(c);
    }
    printf("robust_parse: %llu mutants of %zu examples: %llu parsed, %llu verified, no crash or mismatch\n",
           (unsigned long long)iterations, c->nexamples, (unsigned long long)c->parsed,
           (unsigned long long)c->verified);
    fclose(c->sink);
    for (size_t i = 0; i < c->nexamples; i++)
        free(c->examples[i].data);
    free(c->input.data);
    free(c);
    return 0;
}
