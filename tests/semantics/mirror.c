/* mirror.c — writes the per-opcode semantics tests (tests/semantics/op_*.circ) with
 * expected values computed by plain C operations on native types, independently of
 * compiler/ir/eval.c.  `mirror DIR` writes the files into DIR; the oracle_mirror test
 * regenerates them and compares with the committed copies, and oracle_semantics runs
 * their run lines through the interpreter.
 *
 * What the C here encodes (docs/semantics.md): integers wrap; shift amounts are taken
 * modulo the width; SDIV/SREM trap on a zero divisor (div0) and on MIN / -1
 * (overflow), UDIV/UREM on zero; EXP is x^y modulo 2^w; f32 is computed in float;
 * NaN results are the canonical quiet NaN; FNEG flips the sign bit, FABS clears it,
 * FCOPYSIGN copies it; FMIN/FMAX are IEEE minimum/maximum; float-to-int
 * truncates and saturates, NaN -> 0; memory is little-endian and the harness buffer
 * holds (0xa5 ^ 7i ^ (i >> 8)) at byte i before the call. */
#include "mirror_out.h"
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_SIZE 4096
#define F32_QNAN 0x7fc00000u
#define F64_QNAN 0x7ff8000000000000ull

static const char *outdir;

static FILE *open_out(const char *name, const char *what)
{
    return mirror_open(outdir, name, "mirror.c (expected values from plain C)", what);
}

/* ---- literals ---------------------------------------------------------------- */
static const int int_widths[] = {8, 16, 32, 64};

static const char *ity(int w)
{
    switch (w) {
    case 1: return "i1";
    case 8: return "i8";
    case 16: return "i16";
    case 32: return "i32";
    default: return "i64";
    }
}

static uint64_t mask(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }

/* the signed value of the low w bits, computed with the native signed types */
static int64_t sval(int w, uint64_t x)
{
    switch (w) {
    case 1: return (x & 1) ? -1 : 0;
    case 8: return (int8_t)(uint8_t)x;
    case 16: return (int16_t)(uint16_t)x;
    case 32: return (int32_t)(uint32_t)x;
    default: return (int64_t)x;
    }
}

static void put_int(FILE *f, int w, uint64_t x)
{
    if (w == 1)
        fprintf(f, "%u", (unsigned)(x & 1));
    else
        fprintf(f, "%" PRId64, sval(w, x));
}

static uint32_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static uint64_t f64_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    return u;
}

static float f32_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

static double f64_of(uint64_t u)
{
    double x;
    memcpy(&x, &u, 8);
    return x;
}

/* an exact literal: hex float, inf, or bits(...) for NaNs */
static void put_f32(FILE *f, uint32_t u)
{
    float x = f32_of(u);
    if (isnan(x))
        fprintf(f, "bits(0x%08" PRIx32 ")", u);
    else if (isinf(x))
        fprintf(f, "%sinf", x < 0 ? "-" : "");
    else
        fprintf(f, "%a", (double)x);
}

static void put_f64(FILE *f, uint64_t u)
{
    double x = f64_of(u);
    if (isnan(x))
        fprintf(f, "bits(0x%016" PRIx64 ")", u);
    else if (isinf(x))
        fprintf(f, "%sinf", x < 0 ? "-" : "");
    else
        fprintf(f, "%a", x);
}

/* a value of type t ("i8".."i64", "f32", "f64"): ints signed decimal, floats exact */
static void put_val(FILE *f, const char *t, uint64_t bits)
{
    if (!strcmp(t, "f32"))
        put_f32(f, (uint32_t)bits);
    else if (!strcmp(t, "f64"))
        put_f64(f, bits);
    else
        put_int(f, !strcmp(t, "i1") ? 1 : atoi(t + 1), bits);
}

/* results of float arithmetic: NaN becomes the canonical quiet NaN */
static uint64_t res_f32(float x) { return isnan(x) ? F32_QNAN : f32_bits(x); }
static uint64_t res_f64(double x) { return isnan(x) ? F64_QNAN : f64_bits(x); }

/* ---- function templates ------------------------------------------------------ */
static void func_binary(FILE *f, const char *fn, const char *op, const char *cond, const char *ta,
                        const char *tr)
{
    fprintf(f, "\nfunc @%s(%s, %s) -> %s {\n", fn, ta, ta, tr);
    fprintf(f, "  %%a = ARG %s 0\n  %%b = ARG %s 1\n", ta, ta);
    if (cond)
        fprintf(f, "  %%r = %s %s (%%a, %%b)\n", op, cond);
    else
        fprintf(f, "  %%r = %s %s (%%a, %%b)\n", op, tr);
    fprintf(f, "  RETURN [entry] {entry} (%%r)\n}\n");
}

static void func_unary(FILE *f, const char *fn, const char *op, const char *ta, const char *tr)
{
    fprintf(f, "\nfunc @%s(%s) -> %s {\n", fn, ta, tr);
    fprintf(f, "  %%a = ARG %s 0\n  %%r = %s %s (%%a)\n", ta, op, tr);
    fprintf(f, "  RETURN [entry] {entry} (%%r)\n}\n");
}

enum { R_VALUE, R_DIV0, R_OVERFLOW };

static void run2(FILE *f, const char *fn, const char *ta, uint64_t a, uint64_t b, const char *tr, int kind,
                 uint64_t r)
{
    fprintf(f, "; run: @%s(", fn);
    put_val(f, ta, a);
    fprintf(f, ", ");
    put_val(f, ta, b);
    fprintf(f, ") == ");
    if (kind == R_DIV0)
        fprintf(f, "trap div0");
    else if (kind == R_OVERFLOW)
        fprintf(f, "trap overflow");
    else
        put_val(f, tr, r);
    fprintf(f, "\n");
}

static void run1(FILE *f, const char *fn, const char *ta, uint64_t a, const char *tr, uint64_t r)
{
    fprintf(f, "; run: @%s(", fn);
    put_val(f, ta, a);
    fprintf(f, ") == ");
    put_val(f, tr, r);
    fprintf(f, "\n");
}

/* ---- integer binary operations ----------------------------------------------- */
static uint64_t min_of(int w) { return 1ull << (w - 1); }
static uint64_t max_of(int w) { return mask(w) >> 1; }

/* exponentiation by repeated multiplication (small y), or by what a few bases do */
static uint64_t power(int w, uint64_t x, uint64_t y)
{
    if (y < 300) {
        uint64_t r = 1;
        for (uint64_t i = 0; i < y; i++)
            r = (r * x) & mask(w);
        return r;
    }
    x &= mask(w);
    if (x == 0)
        return 0;
    if (x == 1)
        return 1;
    if (x == mask(w))
        return (y & 1) ? mask(w) : 1;
    if (x == 2)
        return 0; /* y >= 300 > w */
    fprintf(stderr, "mirror: no plain rule for %" PRIu64 "^%" PRIu64 "\n", x, y);
    exit(2);
}

/* circ's added integer operations (docs/semantics.md 2.7), with native C on the
 * width's own types: rotates by shifts, min/max by comparisons, high halves through a
 * product twice as wide (unsigned __int128 for 64 bits), checked arithmetic by the
 * compiler's overflow builtins on the signed type. */
#define NATIVE_BIT_OPS(W, ST, UT, WIDE, UWIDE)                                                     \
    static bool bit_op_##W(const char *op, UT a, UT b, uint64_t *r, int *kind)                     \
    {                                                                                              \
        ST sa = (ST)a, sb = (ST)b, sr = 0;                                                         \
        unsigned s = (unsigned)(b % W);                                                            \
        *kind = R_VALUE;                                                                           \
        if (!strcmp(op, "ROTL")) *r = s ? (UT)((UT)(1u * a << s) | (UT)(a >> (W - s))) : a;        \
        else if (!strcmp(op, "ROTR")) *r = s ? (UT)((UT)(a >> s) | (UT)(1u * a << (W - s))) : a;   \
        else if (!strcmp(op, "SMIN")) *r = (UT)(sa < sb ? sa : sb);                                \
        else if (!strcmp(op, "SMAX")) *r = (UT)(sa > sb ? sa : sb);                                \
        else if (!strcmp(op, "UMIN")) *r = a < b ? a : b;                                          \
        else if (!strcmp(op, "UMAX")) *r = a > b ? a : b;                                          \
        else if (!strcmp(op, "SMULHI")) *r = (UT)(UWIDE)((WIDE)sa * (WIDE)sb >> W);                \
        else if (!strcmp(op, "UMULHI")) *r = (UT)((UWIDE)a * (UWIDE)b >> W);                       \
        else if (!strcmp(op, "CHECKED_ADD")) *kind = __builtin_add_overflow(sa, sb, &sr) ? R_OVERFLOW : R_VALUE; \
        else if (!strcmp(op, "CHECKED_SUB")) *kind = __builtin_sub_overflow(sa, sb, &sr) ? R_OVERFLOW : R_VALUE; \
        else if (!strcmp(op, "CHECKED_MUL")) *kind = __builtin_mul_overflow(sa, sb, &sr) ? R_OVERFLOW : R_VALUE; \
        else return false;                                                                         \
        if (!strncmp(op, "CHECKED_", 8))                                                           \
            *r = (UT)sr;                                                                           \
        *r &= mask(W);                                                                             \
        return true;                                                                               \
    }
NATIVE_BIT_OPS(8, int8_t, uint8_t, int16_t, uint16_t)
NATIVE_BIT_OPS(16, int16_t, uint16_t, int32_t, uint32_t)
NATIVE_BIT_OPS(32, int32_t, uint32_t, int64_t, uint64_t)
NATIVE_BIT_OPS(64, int64_t, uint64_t, __int128, unsigned __int128)

#define NATIVE_INT_OPS(W, ST, UT)                                                                   \
    static int int_op_##W(const char *op, uint64_t xa, uint64_t xb, uint64_t *r)                  \
    {                                                                                              \
        UT a = (UT)xa, b = (UT)xb;                                                                 \
        ST sa = (ST)a, sb = (ST)b;                                                                 \
        unsigned s = (unsigned)(b % W);                                                            \
        int kind;                                                                                  \
        if (bit_op_##W(op, a, b, r, &kind)) return kind;                                           \
        if (!strcmp(op, "ADD")) *r = (UT)(a + b);                                                  \
        else if (!strcmp(op, "SUB")) *r = (UT)(a - b);                                             \
        else if (!strcmp(op, "MUL")) *r = (UT)(1u * a * b);                                        \
        else if (!strcmp(op, "AND")) *r = (UT)(a & b);                                             \
        else if (!strcmp(op, "OR")) *r = (UT)(a | b);                                              \
        else if (!strcmp(op, "XOR")) *r = (UT)(a ^ b);                                             \
        else if (!strcmp(op, "SHL")) *r = (UT)(1u * a << s);                                       \
        else if (!strcmp(op, "LSHR")) *r = (UT)(a >> s);                                           \
        else if (!strcmp(op, "ASHR")) *r = (UT)(ST)(sa >> s);                                      \
        else if (!strcmp(op, "EXP")) *r = power(W, a, b);                                          \
        else if (b == 0) return R_DIV0;                                                            \
        else if (!strcmp(op, "UDIV")) *r = (UT)(a / b);                                            \
        else if (!strcmp(op, "UREM")) *r = (UT)(a % b);                                            \
        else if (sa == (ST)((UT)1 << (W - 1)) && sb == -1) return R_OVERFLOW;                      \
        else if (!strcmp(op, "SDIV")) *r = (UT)(ST)(sa / sb);                                      \
        else *r = (UT)(ST)(sa % sb);                                                               \
        *r &= mask(W);                                                                             \
        return R_VALUE;                                                                            \
    }
NATIVE_INT_OPS(8, int8_t, uint8_t)
NATIVE_INT_OPS(16, int16_t, uint16_t)
NATIVE_INT_OPS(32, int32_t, uint32_t)
NATIVE_INT_OPS(64, int64_t, uint64_t)

static int int_op(int w, const char *op, uint64_t a, uint64_t b, uint64_t *r)
{
    switch (w) {
    case 1: { /* AND OR XOR only */
        unsigned x = a & 1, y = b & 1;
        *r = !strcmp(op, "AND") ? (x & y) : !strcmp(op, "OR") ? (x | y) : (x ^ y);
        return R_VALUE;
    }
    case 8: return int_op_8(op, a, b, r);
    case 16: return int_op_16(op, a, b, r);
    case 32: return int_op_32(op, a, b, r);
    default: return int_op_64(op, a, b, r);
    }
}

typedef struct { uint64_t a, b; } Pair;

/* operands for arithmetic, in terms of the width (MIN, MAX, -1, a bit pattern) */
static int arith_pairs(int w, Pair *p)
{
    uint64_t m = mask(w), mn = min_of(w), mx = max_of(w), pat = 0x5a5a5a5a5a5a5a5aull & m;
    Pair list[] = {{0, 0},         {1, 2},          {m, 1},       {7, m - 6},  {mx, 1},     {mn, m},
                   {mn, 1},        {mx, mx},        {mn, mn},     {m - 6, 2},  {7, m - 1},  {100, 3},
                   {pat, 0x33 & m}, {m, m},          {3, 0},       {mn, 2},     {m - 99, 7}, {mx, m}};
    int n = (int)(sizeof list / sizeof list[0]);
    for (int i = 0; i < n; i++)
        p[i] = (Pair){list[i].a & m, list[i].b & m};
    return n;
}

static int shift_pairs(int w, Pair *p)
{
    uint64_t m = mask(w);
    uint64_t as[] = {1, m, min_of(w), 0x5a5a5a5a5a5a5a5aull & m, 0x81 & m};
    uint64_t ss[] = {0, 1, (uint64_t)w - 1, (uint64_t)w, (uint64_t)w + 1, 2 * (uint64_t)w + 3, m, (0 - (uint64_t)w) & m,
                     m - 1};
    int n = 0;
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++)
        for (size_t j = 0; j < sizeof ss / sizeof ss[0]; j++)
            p[n++] = (Pair){as[i], ss[j] & m};
    return n;
}

static int exp_pairs(int w, Pair *p)
{
    uint64_t m = mask(w);
    Pair list[] = {{3, 5},    {3, 40},   {m - 2, 3}, {2, (uint64_t)w - 1}, {2, (uint64_t)w}, {2, (uint64_t)w + 5},
                   {0, 0},    {5, 0},    {0, 5},     {m, 7},               {m, 8},           {7, 100},
                   {min_of(w), 2}, {1, m}, {0, m},   {m, m},               {m, m - 1},       {2, m},
                   {10, 19},  {255, 255}};
    int n = (int)(sizeof list / sizeof list[0]);
    for (int i = 0; i < n; i++)
        p[i] = (Pair){list[i].a & m, list[i].b & m};
    return n;
}

/* op_<op in lower case>.circ, described as "<op> <about>"; name gets the file name */
static FILE *open_op(const char *op, const char *about, char name[64])
{
    char what[160];
    snprintf(name, 64, "op_%s.circ", op);
    for (char *c = name; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    snprintf(what, sizeof what, "%s %s", op, about);
    return open_out(name, what);
}

static void gen_int_binary(const char *op)
{
    char name[64], fn[64];
    FILE *f = open_op(op, "at every width it allows: wrap-around, edges, traps", name);
    bool logic = !strcmp(op, "AND") || !strcmp(op, "OR") || !strcmp(op, "XOR");
    bool shift = !strcmp(op, "SHL") || !strcmp(op, "LSHR") || !strcmp(op, "ASHR") || !strcmp(op, "ROTL") ||
                 !strcmp(op, "ROTR");
    int widths[] = {1, 8, 16, 32, 64};
    for (int k = logic ? 0 : 1; k < 5; k++) {
        int w = widths[k];
        snprintf(fn, sizeof fn, "%.*s_%s", (int)strlen(op), name + 3, ity(w));
        func_binary(f, fn, op, NULL, ity(w), ity(w));
        Pair p[64];
        int n;
        if (w == 1) {
            n = 4;
            for (int i = 0; i < 4; i++)
                p[i] = (Pair){(uint64_t)(i >> 1), (uint64_t)(i & 1)};
        } else {
            n = shift ? shift_pairs(w, p) : !strcmp(op, "EXP") ? exp_pairs(w, p) : arith_pairs(w, p);
        }
        for (int i = 0; i < n; i++) {
            uint64_t r = 0;
            int kind = int_op(w, op, p[i].a, p[i].b, &r);
            run2(f, fn, ity(w), p[i].a, p[i].b, ity(w), kind, r);
        }
    }
    fclose(f);
}

/* ---- circ's added one-operand integer operations and SELECT ------------------ */
/* CLZ CTZ POPCNT BSWAP ABS of the low w bits, by loops over bits and bytes */
static uint64_t bits_unary(const char *op, int w, uint64_t x)
{
    uint64_t r = 0;
    if (!strcmp(op, "CLZ")) {
        while ((int)r < w && !(x >> (w - 1 - (int)r) & 1))
            r++;
    } else if (!strcmp(op, "CTZ")) {
        while ((int)r < w && !(x >> r & 1))
            r++;
    } else if (!strcmp(op, "POPCNT")) {
        for (int i = 0; i < w; i++)
            r += x >> i & 1;
    } else if (!strcmp(op, "BSWAP")) {
        for (int i = 0; i < w / 8; i++)
            r |= (x >> (8 * i) & 0xff) << (w - 8 - 8 * i);
    } else { /* ABS: wraps at the most negative value */
        r = sval(w, x) < 0 ? 0 - x : x;
    }
    return r & mask(w);
}

static void gen_bits_unary(const char *op)
{
    char name[64], fn[64];
    FILE *f = open_op(op, "at every width it allows: 0, 1, -1, MIN, MAX, single bits, patterns", name);
    for (int k = !strcmp(op, "BSWAP") ? 1 : 0; k < 4; k++) {
        int w = int_widths[k];
        uint64_t m = mask(w);
        uint64_t xs[] = {0, 1, m, min_of(w), max_of(w), 2, 1ull << (w / 2), 1ull << (w - 2), 0x5a5a5a5a5a5a5a5aull,
                         0x0123456789abcdefull, 0x00ff00ff00ff00ffull, 0x8000000000000001ull, 6, m - 1};
        snprintf(fn, sizeof fn, "%.*s_%s", (int)strlen(op), name + 3, ity(w));
        func_unary(f, fn, op, ity(w), ity(w));
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
            run1(f, fn, ity(w), xs[i] & m, ity(w), bits_unary(op, w, xs[i] & m));
    }
    fclose(f);
}

/* SELECT T (c, a, b) at every value type, both conditions; floats keep their bits */
static void gen_select(void)
{
    FILE *f = open_out("op_select.circ", "SELECT at every value type: a if c, else b; floats keep NaN payloads");
    const char *tys[] = {"i1", "i8", "i16", "i32", "i64", "f32", "f64"};
    uint64_t vals[][2] = {{1, 0}, {0x80, 0x7f}, {0x8001, 0xffff}, {0x80000000u, 7}, {0x8000000000000000ull, ~0ull},
                          {0x7fa00001u, 0x80000000u}, {0x7ff0000000000123ull, 0x3ff8000000000000ull}};
    for (int k = 0; k < 7; k++) {
        char fn[32];
        snprintf(fn, sizeof fn, "select_%s", tys[k]);
        fprintf(f, "\nfunc @%s(i1, %s, %s) -> %s {\n  %%c = ARG i1 0\n  %%a = ARG %s 1\n  %%b = ARG %s 2\n"
                   "  %%r = SELECT %s (%%c, %%a, %%b)\n  RETURN [entry] {entry} (%%r)\n}\n",
                fn, tys[k], tys[k], tys[k], tys[k], tys[k], tys[k]);
        for (int c = 0; c < 2; c++)
            for (int swap = 0; swap < 2; swap++) {
                uint64_t a = vals[k][swap], b = vals[k][!swap];
                fprintf(f, "; run: @%s(%d, ", fn, c);
                put_val(f, tys[k], a);
                fprintf(f, ", ");
                put_val(f, tys[k], b);
                fprintf(f, ") == ");
                put_val(f, tys[k], c ? a : b);
                fprintf(f, "\n");
            }
    }
    fclose(f);
}

static void gen_bits_ops(void)
{
    const char *binary[] = {"ROTL", "ROTR", "SMIN", "SMAX", "UMIN", "UMAX", "SMULHI", "UMULHI",
                            "CHECKED_ADD", "CHECKED_SUB", "CHECKED_MUL"};
    for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++)
        gen_int_binary(binary[i]);
    const char *unary[] = {"CLZ", "CTZ", "POPCNT", "BSWAP", "ABS"};
    for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++)
        gen_bits_unary(unary[i]);
    gen_select();
}

/* ---- integer compares -------------------------------------------------------- */
static const char *icmp_codes[] = {"eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"};

static int icmp(const char *c, int w, uint64_t a, uint64_t b)
{
    int64_t sa = sval(w, a), sb = sval(w, b);
    if (!strcmp(c, "eq")) return a == b;
    if (!strcmp(c, "ne")) return a != b;
    if (!strcmp(c, "ugt")) return a > b;
    if (!strcmp(c, "uge")) return a >= b;
    if (!strcmp(c, "ult")) return a < b;
    if (!strcmp(c, "ule")) return a <= b;
    if (!strcmp(c, "sgt")) return sa > sb;
    if (!strcmp(c, "sge")) return sa >= sb;
    if (!strcmp(c, "slt")) return sa < sb;
    return sa <= sb;
}

static void gen_icmp(void)
{
    FILE *f = open_out("op_icmp.circ", "ICMP: every condition code at i1..i64, signed and unsigned edges");
    int widths[] = {1, 8, 16, 32, 64};
    char fn[64];
    for (size_t c = 0; c < 10; c++)
        for (int k = 0; k < 5; k++) {
            int w = widths[k];
            uint64_t m = mask(w), mn = min_of(w), mx = max_of(w);
            Pair list[] = {{0, 0}, {0, 1}, {1, 0}, {m, 0}, {0, m}, {mn, mx}, {mx, mn}, {m, m}, {5, 7}, {7, 5}, {mn, mn + 1}};
            int n = w == 1 ? 4 : (int)(sizeof list / sizeof list[0]);
            if (w == 1)
                for (int i = 0; i < 4; i++)
                    list[i] = (Pair){(uint64_t)(i >> 1), (uint64_t)(i & 1)};
            snprintf(fn, sizeof fn, "icmp_%s_%s", icmp_codes[c], ity(w));
            func_binary(f, fn, "ICMP", icmp_codes[c], ity(w), "i1");
            for (int i = 0; i < n; i++) {
                uint64_t a = list[i].a & m, b = list[i].b & m;
                run2(f, fn, ity(w), a, b, "i1", R_VALUE, (uint64_t)icmp(icmp_codes[c], w, a, b));
            }
        }
    fclose(f);
}

/* ---- float compares ---------------------------------------------------------- */
static const char *fcmp_codes[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                   "uno",   "ueq", "ugt", "uge", "ult", "ule", "une", "true"};

static int fcmp(const char *c, double a, double b)
{
    int uno = isnan(a) || isnan(b);
    if (!strcmp(c, "false")) return 0;
    if (!strcmp(c, "true")) return 1;
    if (!strcmp(c, "ord")) return !uno;
    if (!strcmp(c, "uno")) return uno;
    int rel;
    const char *r = c + 1;
    if (!strcmp(r, "eq")) rel = a == b;
    else if (!strcmp(r, "gt")) rel = a > b;
    else if (!strcmp(r, "ge")) rel = a >= b;
    else if (!strcmp(r, "lt")) rel = a < b;
    else if (!strcmp(r, "le")) rel = a <= b;
    else rel = a != b; /* ne */
    return c[0] == 'o' ? (!uno && rel) : (uno || rel);
}

static void gen_fcmp(void)
{
    FILE *f = open_out("op_fcmp.circ", "FCMP: every condition code at f32 and f64 with NaN, +-0, +-inf");
    double vals[][2] = {{1, 2}, {2, 1}, {1, 1}, {0.0, -0.0}, {-0.0, 0.0}, {NAN, 1}, {1, NAN}, {NAN, NAN},
                        {INFINITY, INFINITY}, {-INFINITY, INFINITY}, {INFINITY, NAN}, {-1, -INFINITY}};
    char fn[64];
    for (size_t c = 0; c < 16; c++)
        for (int t = 0; t < 2; t++) {
            const char *ty = t ? "f64" : "f32";
            snprintf(fn, sizeof fn, "fcmp_%s_%s", fcmp_codes[c], ty);
            func_binary(f, fn, "FCMP", fcmp_codes[c], ty, "i1");
            for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
                double a = vals[i][0], b = vals[i][1];
                uint64_t ab, bb;
                if (t) {
                    ab = isnan(a) ? F64_QNAN : f64_bits(a);
                    bb = isnan(b) ? F64_QNAN : f64_bits(b);
                } else {
                    ab = isnan(a) ? F32_QNAN : f32_bits((float)a);
                    bb = isnan(b) ? F32_QNAN : f32_bits((float)b);
                }
                run2(f, fn, ty, ab, bb, "i1", R_VALUE, (uint64_t)fcmp(fcmp_codes[c], a, b));
            }
        }
    fclose(f);
}

/* ---- float arithmetic -------------------------------------------------------- */
static uint64_t f32_op(const char *op, float a, float b)
{
    if (!strcmp(op, "FADD")) return res_f32(a + b);
    if (!strcmp(op, "FSUB")) return res_f32(a - b);
    if (!strcmp(op, "FMUL")) return res_f32(a * b);
    if (!strcmp(op, "FDIV")) return res_f32(a / b);
    if (!strcmp(op, "FMOD")) return res_f32(fmodf(a, b));
    return res_f32(powf(a, b));
}

static uint64_t f64_op(const char *op, double a, double b)
{
    if (!strcmp(op, "FADD")) return res_f64(a + b);
    if (!strcmp(op, "FSUB")) return res_f64(a - b);
    if (!strcmp(op, "FMUL")) return res_f64(a * b);
    if (!strcmp(op, "FDIV")) return res_f64(a / b);
    if (!strcmp(op, "FMOD")) return res_f64(fmod(a, b));
    return res_f64(pow(a, b));
}

static void gen_float_binary(const char *op)
{
    char name[64], what[128], fn[64];
    snprintf(name, sizeof name, "op_%s.circ", op);
    for (char *c = name; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    snprintf(what, sizeof what, "%s at f32 (computed in float) and f64: rounding, inf, NaN, zeros", op);
    FILE *f = open_out(name, what);
    double vals[][2] = {{1.5, 2.25}, {1.0 / 3, 3}, {0.1, 0.2}, {INFINITY, -INFINITY}, {INFINITY, INFINITY},
                        {0.0, 0.0}, {-0.0, 0.0}, {NAN, 1}, {1, 0.0}, {-1, 0.0}, {5.5, 2}, {-5.5, 2},
                        {1e300, 1e300}, {3e38, 3e38}, {1e-310, 0.5}, {1e-45, 0.5}, {2, 0.5}, {-8, 1.0 / 3},
                        {0.0, -1}, {-2, 3}, {16777217, 1}, {1, -0.0}, {10, 0.1}, {-0.0, -0.0}};
    for (int t = 0; t < 2; t++) {
        const char *ty = t ? "f64" : "f32";
        snprintf(fn, sizeof fn, "%.*s_%s", (int)strlen(op), name + 3, ty);
        func_binary(f, fn, op, NULL, ty, ty);
        for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            double a = vals[i][0], b = vals[i][1];
            if (t) {
                uint64_t ab = isnan(a) ? F64_QNAN : f64_bits(a), bb = isnan(b) ? F64_QNAN : f64_bits(b);
                run2(f, fn, ty, ab, bb, ty, R_VALUE, f64_op(op, a, b));
            } else {
                float fa = (float)a, fb = (float)b;
                uint64_t ab = isnan(fa) ? F32_QNAN : f32_bits(fa), bb = isnan(fb) ? F32_QNAN : f32_bits(fb);
                run2(f, fn, ty, ab, bb, ty, R_VALUE, f32_op(op, fa, fb));
            }
        }
    }
    fclose(f);
}

static void gen_fneg(void)
{
    FILE *f = open_out("op_fneg.circ", "FNEG flips the sign bit only, NaN payloads included");
    uint32_t v32[] = {0x3fc00000u, 0x80000000u, 0u, 0x7f800000u, 0xff800000u, F32_QNAN, 0xffc00000u, 0x7fa00001u,
                      0x00000001u, 0x7f7fffffu};
    uint64_t v64[] = {0x3ff8000000000000ull, 0x8000000000000000ull, 0, 0x7ff0000000000000ull, F64_QNAN,
                      0xfff8000000000000ull, 0x7ff4000000000001ull, 1, 0x7fefffffffffffffull};
    func_unary(f, "fneg_f32", "FNEG", "f32", "f32");
    for (size_t i = 0; i < sizeof v32 / sizeof v32[0]; i++)
        run1(f, "fneg_f32", "f32", v32[i], "f32", v32[i] ^ 0x80000000u);
    func_unary(f, "fneg_f64", "FNEG", "f64", "f64");
    for (size_t i = 0; i < sizeof v64 / sizeof v64[0]; i++)
        run1(f, "fneg_f64", "f64", v64[i], "f64", v64[i] ^ 0x8000000000000000ull);
    fclose(f);
}

/* ---- square root, rounding, sign, minimum/maximum ----------------------------- */
/* edge operands: zeros, infinities, NaNs of both signs with payloads (quiet and
 * signalling), subnormals, the extreme normals, halfway cases, values just below one
 * half, around 2^23 / 2^52 (beyond them every value is an integer) */
static const uint32_t edge32[] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7fa00001u, 0xff812345u,
    0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f000000u, 0xbf000000u, 0x3fc00000u,
    0xbfc00000u, 0x40200000u, 0xc0200000u, 0x40600000u, 0x3effffffu, 0xbeffffffu, 0x3f333333u, 0xbf333333u,
    0x3f7fffffu, 0x4afffffeu, 0x4affffffu, 0xcaffffffu, 0x4b000000u, 0x4b000001u, 0xcb000001u, 0x4b7fffffu,
    0x40800000u, 0x40490fdbu, 0xc2c80001u, 0x3f800001u};
static const uint64_t edge64[] = {
    0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, F64_QNAN, 0xfff8000000000000ull,
    0x7ff4000000000001ull, 0xfff0000000012345ull, 1, 0x800fffffffffffffull, 0x0010000000000000ull,
    0x7fefffffffffffffull, 0xffefffffffffffffull, 0x3fe0000000000000ull, 0xbfe0000000000000ull,
    0x3ff8000000000000ull, 0xbff8000000000000ull, 0x4004000000000000ull, 0xc004000000000000ull,
    0x400c000000000000ull, 0x3fdfffffffffffffull, 0xbfdfffffffffffffull, 0x3fe6666666666666ull,
    0xbfe6666666666666ull, 0x3fefffffffffffffull, 0x432ffffffffffffeull, 0x432fffffffffffffull,
    0xc32fffffffffffffull, 0x4330000000000000ull, 0x4330000000000001ull, 0xc330000000000001ull,
    0x433fffffffffffffull, 0x4010000000000000ull, 0x400921fb54442d18ull, 0xc059000000000001ull,
    0x3ff0000000000001ull, 0x4415af1d78b58c40ull};

/* FLOOR CEIL FTRUNC NEAREST of a double whose magnitude is below 2^63, through the
 * integer conversion (truncation) and an explicit look at the dropped fraction */
static double round_small(const char *op, double x)
{
    double t = (double)(int64_t)x, frac = x - t; /* both exact */
    if (!strcmp(op, "FLOOR") && frac < 0)
        t -= 1;
    else if (!strcmp(op, "CEIL") && frac > 0)
        t += 1;
    else if (!strcmp(op, "NEAREST")) {
        double away = t + (frac < 0 ? -1 : 1), half = frac < 0 ? -frac : frac;
        bool odd = ((int64_t)t & 1) != 0;
        if (half > 0.5 || (half == 0.5 && odd))
            t = away;
    }
    return copysign(t, x); /* an integral result keeps x's sign: -0.5 -> -0 */
}

static uint64_t round_f64(const char *op, uint64_t bits)
{
    double x = f64_of(bits);
    if (isnan(x))
        return F64_QNAN;
    if (!(fabs(x) < 4503599627370496.0)) /* 2^52: already integral, or inf */
        return bits;
    return f64_bits(round_small(op, x));
}

static uint64_t round_f32(const char *op, uint32_t bits)
{
    float x = f32_of(bits);
    if (isnan(x))
        return F32_QNAN;
    if (!(fabsf(x) < 8388608.0f)) /* 2^23 */
        return bits;
    return f32_bits((float)round_small(op, (double)x));
}

/* further operands: fixed pseudo-random values of every magnitude from 2^-3 to 2^60
 * (f32: 2^25), both signs, with random fraction bits */
static int spread_values(bool dbl, uint64_t *v)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 24; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int e = i * (dbl ? 64 : 29) / 24 - 3;
        uint64_t sign = (x >> 63) & 1;
        if (dbl)
            v[i] = sign << 63 | (uint64_t)(1023 + e) << 52 | (x >> 12);
        else
            v[i] = sign << 31 | (uint64_t)(127 + e) << 23 | ((x >> 41) & 0x7fffff);
    }
    return 24;
}

static void gen_float_rounding(void)
{
    FILE *f = open_out("op_fround.circ", "FLOOR CEIL FTRUNC NEAREST at f32/f64: halfway cases (ties to even), "
                                         "signed zeros, NaN payloads, 2^23 / 2^52 and beyond");
    const char *ops[] = {"FLOOR", "CEIL", "FTRUNC", "NEAREST"};
    char fn[64];
    for (int k = 0; k < 4; k++) {
        snprintf(fn, sizeof fn, "%s_f32", ops[k]);
        for (char *c = fn; *c; c++)
            *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        func_unary(f, fn, ops[k], "f32", "f32");
        uint64_t spread[24];
        for (size_t i = 0; i < sizeof edge32 / sizeof edge32[0]; i++)
            run1(f, fn, "f32", edge32[i], "f32", round_f32(ops[k], edge32[i]));
        for (int i = spread_values(false, spread); i-- > 0;)
            run1(f, fn, "f32", spread[i], "f32", round_f32(ops[k], (uint32_t)spread[i]));
        fn[strlen(fn) - 2] = '6', fn[strlen(fn) - 1] = '4';
        func_unary(f, fn, ops[k], "f64", "f64");
        for (size_t i = 0; i < sizeof edge64 / sizeof edge64[0]; i++)
            run1(f, fn, "f64", edge64[i], "f64", round_f64(ops[k], edge64[i]));
        for (int i = spread_values(true, spread); i-- > 0;)
            run1(f, fn, "f64", spread[i], "f64", round_f64(ops[k], spread[i]));
    }
    fclose(f);
}

static void gen_sqrt_fabs(void)
{
    FILE *f = open_out("op_sqrt_fabs.circ", "SQRT (correctly rounded, NaN canonical, sqrt(-0) = -0) and FABS "
                                            "(clears the sign bit only, NaN payloads kept)");
    func_unary(f, "sqrt_f32", "SQRT", "f32", "f32");
    for (size_t i = 0; i < sizeof edge32 / sizeof edge32[0]; i++)
        run1(f, "sqrt_f32", "f32", edge32[i], "f32", res_f32(sqrtf(f32_of(edge32[i]))));
    func_unary(f, "sqrt_f64", "SQRT", "f64", "f64");
    for (size_t i = 0; i < sizeof edge64 / sizeof edge64[0]; i++)
        run1(f, "sqrt_f64", "f64", edge64[i], "f64", res_f64(sqrt(f64_of(edge64[i]))));
    func_unary(f, "fabs_f32", "FABS", "f32", "f32");
    for (size_t i = 0; i < sizeof edge32 / sizeof edge32[0]; i++)
        run1(f, "fabs_f32", "f32", edge32[i], "f32", edge32[i] & 0x7fffffffu);
    func_unary(f, "fabs_f64", "FABS", "f64", "f64");
    for (size_t i = 0; i < sizeof edge64 / sizeof edge64[0]; i++)
        run1(f, "fabs_f64", "f64", edge64[i], "f64", edge64[i] & 0x7fffffffffffffffull);
    fclose(f);
}

/* FMIN/FMAX (IEEE 754-2019 minimum/maximum) and FCOPYSIGN on the pairs of a few edges */
static const uint32_t pair32[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x40200000u, 0x7f800000u,
                                  0xff800000u, 0x7fc00000u, 0xffa00001u, 0x00000001u, 0x7f7fffffu};
static const uint64_t pair64[] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                                  0x4004000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, F64_QNAN,
                                  0xfff4000000000001ull, 1, 0x7fefffffffffffffull};

static uint64_t min_max(bool is_max, double a, double b, uint64_t ab, uint64_t bb, uint64_t nan)
{
    if (isnan(a) || isnan(b))
        return nan;
    if (a == b) /* equal: the zeros differ by sign, -0 < +0 */
        return (signbit(a) != 0) == is_max ? bb : ab;
    return (a < b) != is_max ? ab : bb;
}

static void gen_min_max_copysign(void)
{
    FILE *f = open_out("op_fmin_fmax.circ", "FMIN FMAX (NaN if either is NaN, -0 < +0) and FCOPYSIGN (sign bit "
                                            "of y, payloads kept) at f32/f64");
    const char *ops[] = {"FMIN", "FMAX", "FCOPYSIGN"};
    char fn[64];
    for (int k = 0; k < 3; k++)
        for (int t = 0; t < 2; t++) {
            snprintf(fn, sizeof fn, "%s_%s", k == 0 ? "fmin" : k == 1 ? "fmax" : "fcopysign", t ? "f64" : "f32");
            func_binary(f, fn, ops[k], NULL, t ? "f64" : "f32", t ? "f64" : "f32");
            size_t n = t ? sizeof pair64 / sizeof pair64[0] : sizeof pair32 / sizeof pair32[0];
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++) {
                    uint64_t a = t ? pair64[i] : pair32[i], b = t ? pair64[j] : pair32[j], r;
                    uint64_t sign = t ? 0x8000000000000000ull : 0x80000000u;
                    double x = t ? f64_of(a) : (double)f32_of((uint32_t)a);
                    double y = t ? f64_of(b) : (double)f32_of((uint32_t)b);
                    if (k == 2)
                        r = (a & ~sign) | (b & sign);
                    else
                        r = min_max(k == 1, x, y, a, b, t ? F64_QNAN : F32_QNAN);
                    run2(f, fn, t ? "f64" : "f32", a, b, t ? "f64" : "f32", R_VALUE, r);
                }
        }
    fclose(f);
}

/* ---- conversions ------------------------------------------------------------- */
static uint64_t int_values(int w, uint64_t *v)
{
    uint64_t m = mask(w);
    uint64_t list[] = {0, 1, m, min_of(w), max_of(w), 0x5a5a5a5a5a5a5a5aull, 0x8081828384858687ull, 0x7f, 0x80,
                       0xff, 0x8000, 0x1000001, 0x20000000000001ull, 0xfffffffffffff801ull, 0x7fffffbfu,
                       /* rounding through double first would get these wrong for f32 */
                       0x8000008000000001ull, 0x4000004000000001ull};
    uint64_t n = 0;
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        uint64_t x = list[i] & m;
        bool dup = false;
        for (uint64_t j = 0; j < n; j++)
            dup |= v[j] == x;
        if (!dup)
            v[n++] = x;
    }
    return n;
}

static void gen_int_conversions(void)
{
    FILE *f = open_out("op_int_conv.circ", "TRUNC, ZEXT, SEXT between every pair of integer widths");
    int widths[] = {1, 8, 16, 32, 64};
    char fn[64];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            int from = widths[i], to = widths[j];
            if (from == to)
                continue;
            const char *ops[2] = {"TRUNC", NULL};
            if (to > from) {
                ops[0] = "ZEXT";
                ops[1] = "SEXT";
            }
            if (to == 1 && from < to)
                continue;
            for (int k = 0; k < 2 && ops[k]; k++) {
                snprintf(fn, sizeof fn, "%s_%s_%s", ops[k], ity(from), ity(to));
                for (char *c = fn; *c; c++)
                    *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
                func_unary(f, fn, ops[k], ity(from), ity(to));
                uint64_t v[32];
                uint64_t n = int_values(from, v);
                for (uint64_t x = 0; x < n; x++) {
                    uint64_t r = !strcmp(ops[k], "SEXT") ? (uint64_t)sval(from, v[x]) : v[x];
                    run1(f, fn, ity(from), v[x], ity(to), r & mask(to));
                }
            }
        }
    fclose(f);
}

static void gen_int_to_float(void)
{
    FILE *f = open_out("op_itof.circ", "SITOFP, UITOFP from i8..i64 to f32/f64, rounding to nearest even");
    char fn[64];
    for (int i = 0; i < 4; i++)
        for (int t = 0; t < 2; t++)
            for (int s = 0; s < 2; s++) {
                int w = int_widths[i];
                const char *ty = t ? "f64" : "f32", *op = s ? "SITOFP" : "UITOFP";
                snprintf(fn, sizeof fn, "%s_%s_%s", s ? "sitofp" : "uitofp", ity(w), ty);
                func_unary(f, fn, op, ity(w), ty);
                uint64_t v[32];
                uint64_t n = int_values(w, v);
                for (uint64_t k = 0; k < n; k++) {
                    uint64_t r;
                    if (s)
                        r = t ? f64_bits((double)sval(w, v[k])) : f32_bits((float)sval(w, v[k]));
                    else
                        r = t ? f64_bits((double)v[k]) : f32_bits((float)v[k]);
                    run1(f, fn, ity(w), v[k], ty, r);
                }
            }
    fclose(f);
}

/* float -> int: truncate, saturate, NaN -> 0 (written with plain comparisons and casts) */
static uint64_t to_signed(int w, double x)
{
    double lo = -ldexp(1, w - 1), hi = ldexp(1, w - 1);
    if (isnan(x))
        return 0;
    if (x >= hi)
        return max_of(w);
    if (x <= lo)
        return min_of(w);
    return (uint64_t)(int64_t)x & mask(w);
}

static uint64_t to_unsigned(int w, double x)
{
    if (isnan(x) || x <= 0)
        return 0;
    if (x >= ldexp(1, w))
        return mask(w);
    return (uint64_t)x & mask(w);
}

static void gen_float_to_int(void)
{
    FILE *f = open_out("op_ftoi.circ", "FPTOSI, FPTOUI to i8..i64: truncation, saturation edges, NaN -> 0");
    char fn[64];
    for (int i = 0; i < 4; i++)
        for (int t = 0; t < 2; t++)
            for (int s = 0; s < 2; s++) {
                int w = int_widths[i];
                const char *ty = t ? "f64" : "f32";
                snprintf(fn, sizeof fn, "%s_%s_%s", s ? "fptosi" : "fptoui", ty, ity(w));
                func_unary(f, fn, s ? "FPTOSI" : "FPTOUI", ty, ity(w));
                double h = ldexp(1, w - 1), full = ldexp(1, w);
                /* the representable neighbours of the saturation bounds, in this float type */
                double below_h = t ? nextafter(h, 0) : (double)nextafterf((float)h, 0);
                double below_full = t ? nextafter(full, 0) : (double)nextafterf((float)full, 0);
                double above_mh = t ? nextafter(-h, -INFINITY) : (double)nextafterf((float)-h, -INFINITY);
                double vals[] = {0, -0.0, 0.9, -0.9, 1.5, -1.5, h - 1, h, h - 0.5, -h, -h - 1, -h + 0.5, full,
                                 full - 1, -1, NAN, INFINITY, -INFINITY, 1e30, -1e30, 127.9, 255.5, h * 0.75,
                                 below_h, below_full, above_mh, -below_h};
                uint64_t seen[40];
                size_t nseen = 0;
                for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
                    double x = t ? vals[k] : (double)(float)vals[k];
                    uint64_t bits = t ? (isnan(x) ? F64_QNAN : f64_bits(x)) : (isnan(x) ? F32_QNAN : f32_bits((float)x));
                    bool dup = false;
                    for (size_t j = 0; j < nseen; j++)
                        dup |= seen[j] == bits;
                    if (dup)
                        continue;
                    seen[nseen++] = bits;
                    run1(f, fn, ty, bits, ity(w), s ? to_signed(w, x) : to_unsigned(w, x));
                }
            }
    fclose(f);
}

static void gen_float_float(void)
{
    FILE *f = open_out("op_fpext_fptrunc.circ", "FPEXT exact; FPTRUNC rounds to nearest even, overflows to inf; NaN canonical");
    func_unary(f, "fpext", "FPEXT", "f32", "f64");
    uint32_t e[] = {0x3eaaaaabu, 0x80000000u, 0x00000001u, 0x7f7fffffu, 0x7f800000u, 0xff800000u, F32_QNAN,
                    0x7fa00001u, 0xffc00000u, 0x3f800001u};
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        float x = f32_of(e[i]);
        run1(f, "fpext", "f32", e[i], "f64", res_f64((double)x));
    }
    func_unary(f, "fptrunc", "FPTRUNC", "f64", "f32");
    double t[] = {1.0 / 3, 0.1, 1 + ldexp(1, -24), 1 + 3 * ldexp(1, -24), 1 + ldexp(1, -24) + ldexp(1, -50),
                  -(1 + ldexp(1, -24)), 3.4028235677973366e38, 3.5e38, 1e39, -1e39, 1e-46, 1e-40, -0.0,
                  INFINITY, 16777217.0, 1.401298464324817e-45 * 1.5};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        run1(f, "fptrunc", "f64", f64_bits(t[i]), "f32", res_f32((float)t[i]));
    uint64_t nans[] = {F64_QNAN, 0x7ff0000000000001ull, 0xfff8000000000123ull};
    for (size_t i = 0; i < 3; i++)
        run1(f, "fptrunc", "f64", nans[i], "f32", F32_QNAN);
    fclose(f);
}

static void gen_bitcast(void)
{
    FILE *f = open_out("op_bitcast.circ", "BITCAST keeps every bit, NaN payloads included");
    uint32_t v32[] = {0, 0x3f800000u, 0x80000000u, 0x7fa00001u, 0xffffffffu, 0x7f800000u, 0x00000001u};
    uint64_t v64[] = {0, 0x3ff0000000000000ull, 0x8000000000000000ull, 0x7ff4000000000001ull, ~0ull, 1};
    func_unary(f, "bitcast_i32_f32", "BITCAST", "i32", "f32");
    func_unary(f, "bitcast_f32_i32", "BITCAST", "f32", "i32");
    func_unary(f, "bitcast_i64_f64", "BITCAST", "i64", "f64");
    func_unary(f, "bitcast_f64_i64", "BITCAST", "f64", "i64");
    for (size_t i = 0; i < sizeof v32 / sizeof v32[0]; i++) {
        float x;
        uint32_t back;
        memcpy(&x, &v32[i], 4);
        memcpy(&back, &x, 4);
        run1(f, "bitcast_i32_f32", "i32", v32[i], "f32", back);
        run1(f, "bitcast_f32_i32", "f32", v32[i], "i32", back);
    }
    for (size_t i = 0; i < sizeof v64 / sizeof v64[0]; i++) {
        double x;
        uint64_t back;
        memcpy(&x, &v64[i], 8);
        memcpy(&back, &x, 8);
        run1(f, "bitcast_i64_f64", "i64", v64[i], "f64", back);
        run1(f, "bitcast_f64_i64", "f64", v64[i], "i64", back);
    }
    /* same-width, same-kind casts are identities */
    const char *same[] = {"i8", "i16", "i32", "i64", "f32", "f64"};
    uint64_t pats[] = {0x5a5a5a5a5a5a5a5aull, 0x8000000000000001ull, 0x7ff4000000000001ull, 0xffffffff7fa00001ull};
    char fn[64];
    for (size_t k = 0; k < 6; k++) {
        snprintf(fn, sizeof fn, "bitcast_%s_%s", same[k], same[k]);
        func_unary(f, fn, "BITCAST", same[k], same[k]);
        int bits = k < 4 ? 8 << k : (k == 4 ? 32 : 64);
        for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
            uint64_t v = pats[i] & (bits == 64 ? ~0ull : (1ull << bits) - 1);
            run1(f, fn, same[k], v, same[k], v);
        }
    }
    fclose(f);
}

/* ---- memory: widths, alignment, little-endian order -------------------------- */
static void heap_pattern(uint8_t *h)
{
    for (unsigned i = 0; i < HEAP_SIZE; i++)
        h[i] = (uint8_t)(0xa5 ^ (i * 7) ^ (i >> 8));
}

static void gen_memory(void)
{
    FILE *f = open_out("op_memory.circ", "LOAD/STORE of every width at unaligned offsets of the harness buffer");
    const char *tys[] = {"i8", "i16", "i32", "i64", "f32", "f64"};
    int sizes[] = {1, 2, 4, 8, 4, 8};
    uint64_t offs[] = {0, 1, 3, 5, 7, 13, 2047, 4088, 4092, 4095};
    uint8_t h[HEAP_SIZE];
    char fn[64];
    for (int k = 0; k < 6; k++) {
        /* load of type T at heap+off, straight from the pattern */
        snprintf(fn, sizeof fn, "load_%s", tys[k]);
        fprintf(f, "\nfunc @%s(i64, i64) -> %s {\n  %%h = ARG i64 0\n  %%o = ARG i64 1\n"
                   "  %%p = ADD i64 (%%h, %%o)\n  %%v = LOAD %s {entry} (%%p)\n  RETURN [entry] {%%v} (%%v)\n}\n",
                fn, tys[k], tys[k]);
        for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
            if (offs[i] + (uint64_t)sizes[k] > HEAP_SIZE)
                continue;
            heap_pattern(h);
            uint64_t v = 0;
            memcpy(&v, h + offs[i], (size_t)sizes[k]); /* little-endian host */
            fprintf(f, "; run: @%s(heap, %" PRIu64 ") == ", fn, offs[i]);
            put_val(f, tys[k], k >= 4 ? v : v);
            fprintf(f, "\n");
        }
        /* store v of type T at heap+off, then read the 8 bytes at heap+(off & ~7) + r */
        snprintf(fn, sizeof fn, "store_%s", tys[k]);
        fprintf(f, "\nfunc @%s(i64, i64, %s, i64) -> i64 {\n  %%h = ARG i64 0\n  %%o = ARG i64 1\n"
                   "  %%v = ARG %s 2\n  %%r = ARG i64 3\n  %%p = ADD i64 (%%h, %%o)\n"
                   "  %%s = STORE {entry} (%%v, %%p)\n  %%q = ADD i64 (%%h, %%r)\n"
                   "  %%w = LOAD i64 {%%s} (%%q)\n  RETURN [entry] {%%w} (%%w)\n}\n",
                fn, tys[k], tys[k]);
        uint64_t val = 0x8877665544332211ull;
        if (k == 4)
            val = f32_bits(-2.75f);
        if (k == 5)
            val = f64_bits(-2.75);
        for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
            if (offs[i] + (uint64_t)sizes[k] > HEAP_SIZE)
                continue;
            uint64_t r = offs[i] & ~7ull;
            if (r + 8 > HEAP_SIZE)
                r = HEAP_SIZE - 8;
            heap_pattern(h);
            memcpy(h + offs[i], &val, (size_t)sizes[k]);
            uint64_t w;
            memcpy(&w, h + r, 8);
            fprintf(f, "; run: @%s(heap, %" PRIu64 ", ", fn, offs[i]);
            put_val(f, tys[k], val & (sizes[k] == 8 ? ~0ull : (1ull << (8 * sizes[k])) - 1));
            fprintf(f, ", %" PRIu64 ") == %" PRId64 "\n", r, (int64_t)w);
        }
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mirror OUTDIR\n");
        return 2;
    }
    outdir = argv[1];
    const char *int_ops[] = {"ADD", "SUB", "MUL", "EXP", "SDIV", "SREM", "UDIV", "UREM",
                             "AND", "OR",  "XOR", "SHL", "LSHR", "ASHR"};
    for (size_t i = 0; i < sizeof int_ops / sizeof int_ops[0]; i++)
        gen_int_binary(int_ops[i]);
    gen_bits_ops();
    const char *float_ops[] = {"FADD", "FSUB", "FMUL", "FDIV", "FMOD", "FEXP"};
    for (size_t i = 0; i < sizeof float_ops / sizeof float_ops[0]; i++)
        gen_float_binary(float_ops[i]);
    gen_fneg();
    gen_float_rounding();
    gen_sqrt_fabs();
    gen_min_max_copysign();
    gen_icmp();
    gen_fcmp();
    gen_int_conversions();
    gen_int_to_float();
    gen_float_to_int();
    gen_float_float();
    gen_bitcast();
    gen_memory();
    return 0;
}
