/* exc_mirror.c — writes the exception semantics tests (tests/semantics/exc/exc_*.circ):
 * fixed programs with INVOKE / IF_SUCCESS / IF_EXCEPTION / GET_EXCEPTION, and run
 * lines whose expected values come from a C model of the same functions in which a
 * THROW is a longjmp to the nearest enclosing INVOKE's setjmp (plain calls let it
 * pass), independently of the interpreter.  `exc_mirror DIR` writes the files into
 * DIR; the exc_mirror test regenerates them and compares with the committed copies.
 *
 * What the C here encodes (docs/semantics.md, "Exceptions"): a throw at any call
 * depth below an INVOKE transfers to that INVOKE's IF_EXCEPTION; GET_EXCEPTION is the
 * thrown value's bits zero-extended to 64 (a float's IEEE bits); a throw no INVOKE
 * catches is the outcome `throw V`; integers wrap. */
#include "mirror_out.h"
#include <inttypes.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the innermost INVOKE's landing point and what was thrown to it */
typedef struct {
    jmp_buf *catcher;  /* NULL: nothing catches (the run ends with `throw`) */
    uint64_t thrown;   /* bits, zero-extended */
} Ctx;

typedef struct {
    bool threw;
    uint64_t bits;     /* the value returned, or the bits thrown */
} Result;

static void throw_bits(Ctx *c, uint64_t bits)
{
    c->thrown = bits;
    longjmp(*c->catcher, 1);
}

/* a modelled function: two operands (unused ones 0), the result in the low bits */
typedef uint64_t (*Fn)(Ctx *, uint64_t, uint64_t);

/* an INVOKE of fn: true with its result in *v, or false with the caught bits */
static bool invoke(Ctx *c, Fn fn, uint64_t a, uint64_t b, uint64_t *v)
{
    jmp_buf jb;
    jmp_buf *saved = c->catcher;
    c->catcher = &jb;
    bool ok = setjmp(jb) == 0;
    if (ok)
        *v = fn(c, a, b);
    else
        *v = c->thrown;
    c->catcher = saved;
    return ok;
}

/* a top-level call: its result, or the throw nothing caught */
static Result top(Fn fn, uint64_t a, uint64_t b)
{
    Ctx c = {0};
    uint64_t v;
    bool ok = invoke(&c, fn, a, b, &v);
    return (Result){!ok, v};
}

static FILE *open_out(const char *dir, const char *name, const char *what)
{
    return mirror_open(dir, name, "exc_mirror.c (expected values from C with setjmp/longjmp)", what);
}

/* a run line: a result of ret_bits bits or a throw of throw_bits bits, signed */
static void expect(FILE *f, const char *call, Result r, int ret_bits, int throw_bits)
{
    int bits = r.threw ? throw_bits : ret_bits;
    int64_t v = bits == 32 ? (int64_t)(int32_t)(uint32_t)r.bits : (int64_t)r.bits;
    fprintf(f, "; run: %s == %s%" PRId64 "\n", call, r.threw ? "throw " : "", v);
}

/* ---- throw at call depths 0-4 ------------------------------------------------ */
/* c0 throws 7x for odd x, else returns x + 1; ck returns 3 * c(k-1)(x) + k (i32) */
static uint64_t c_depth(Ctx *c, uint64_t k, uint64_t x)
{
    uint32_t x32 = (uint32_t)x;
    if (k == 0) {
        if (x32 & 1)
            throw_bits(c, (uint32_t)(x32 * 7u));
        return (uint32_t)(x32 + 1);
    }
    return (uint32_t)((uint32_t)c_depth(c, k - 1, x) * 3u + (uint32_t)k);
}

static uint64_t try_depth(Ctx *c, uint64_t k, uint64_t x)
{
    uint64_t v;
    return invoke(c, c_depth, k, x, &v) ? v + 1000 : v + 5000;
}

static const char depth_funcs[] =
    "func @c0(i32) -> i32 {\n"
    "  %x = ARG i32 0\n  %one = CONSTANT i32 1\n  %zero = CONSTANT i32 0\n"
    "  %lo = AND i32 (%x, %one)\n  %odd = ICMP ne (%lo, %zero)\n  %br = IF_BRANCH [entry] (%odd)\n"
    "  %t = IF_TRUE [%br]\n  %seven = CONSTANT i32 7\n  %v = MUL i32 (%x, %seven)\n  THROW [%t] {entry} (%v)\n"
    "  %f = IF_FALSE [%br]\n  %r = ADD i32 (%x, %one)\n  RETURN [%f] {entry} (%r)\n}\n\n";

static void write_depth_level(FILE *f, int k)
{
    if (k > 0)
        fprintf(f,
                "func @c%d(i32) -> i32 {\n  %%x = ARG i32 0\n  %%callee = SYMBOL @c%d\n"
                "  %%r = CALL i32 {entry} (%%callee, %%x)\n  %%three = CONSTANT i32 3\n  %%m = MUL i32 (%%r, %%three)\n"
                "  %%k = CONSTANT i32 %d\n  %%s = ADD i32 (%%m, %%k)\n  RETURN [entry] {%%r} (%%s)\n}\n\n",
                k, k - 1, k);
    fprintf(f,
            "; depth %d: INVOKE @c%d, whose THROW is %d plain call(s) down\n"
            "func @try%d(i32) -> i64 {\n  %%x = ARG i32 0\n  %%callee = SYMBOL @c%d\n"
            "  %%inv = INVOKE i32 [entry] {entry} (%%callee, %%x)\n  %%ok = IF_SUCCESS [%%inv]\n"
            "  %%z = ZEXT i64 (%%inv)\n  %%k1000 = CONSTANT i64 1000\n  %%a = ADD i64 (%%z, %%k1000)\n"
            "  RETURN [%%ok] {%%inv} (%%a)\n  %%ex = IF_EXCEPTION [%%inv]\n  %%e = GET_EXCEPTION [%%ex]\n"
            "  %%k5000 = CONSTANT i64 5000\n  %%b = ADD i64 (%%e, %%k5000)\n  %%d = DEPEND_RELAY [%%ex] {%%inv}\n"
            "  RETURN [%%ex] {%%d} (%%b)\n}\n\n"
            "; depth %d, uncaught: a plain CALL lets the throw pass\n"
            "func @plain%d(i32) -> i32 {\n  %%x = ARG i32 0\n  %%callee = SYMBOL @c%d\n"
            "  %%r = CALL i32 {entry} (%%callee, %%x)\n  RETURN [entry] {%%r} (%%r)\n}\n",
            k, k, k, k, k, k, k, k);
}

static void write_depth(const char *dir)
{
    static const int32_t xs[] = {4, 3, -7, 2147483647, 0, -2};
    FILE *f = open_out(dir, "exc_depth.circ", "a THROW at call depths 0-4 below an INVOKE, caught and uncaught");
    fputs(depth_funcs, f);
    for (int k = 0; k <= 4; k++) {
        write_depth_level(f, k);
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            char call[64];
            snprintf(call, sizeof call, "@try%d(%" PRId32 ")", k, xs[i]);
            expect(f, call, top(try_depth, (uint64_t)k, (uint32_t)xs[i]), 64, 64);
            snprintf(call, sizeof call, "@plain%d(%" PRId32 ")", k, xs[i]);
            expect(f, call, top(c_depth, (uint64_t)k, (uint32_t)xs[i]), 32, 32);
        }
        fputc('\n', f);
    }
    fclose(f);
}

/* ---- rethrow from a handler, nested handlers ---------------------------------- */
/* rethrow: INVOKE c2; the handler throws (e ^ 0xabc) as i64 */
static uint64_t rethrow(Ctx *c, uint64_t x, uint64_t unused)
{
    (void)unused;
    uint64_t v;
    if (!invoke(c, c_depth, 2, x, &v))
        throw_bits(c, v ^ 0xabc);
    return v;
}

static uint64_t catch_rethrow(Ctx *c, uint64_t x, uint64_t unused)
{
    uint64_t v;
    return invoke(c, rethrow, x, unused, &v) ? v + 1 : v * 3;
}

/* select: INVOKE c3; rethrows what is above 100 (unsigned), handles the rest */
static uint64_t select_catch(Ctx *c, uint64_t x, uint64_t unused)
{
    (void)unused;
    uint64_t v;
    if (invoke(c, c_depth, 3, x, &v))
        return v;
    if (v > 100)
        throw_bits(c, v);
    return v + 7;
}

static uint64_t catch_select(Ctx *c, uint64_t x, uint64_t unused)
{
    uint64_t v;
    return invoke(c, select_catch, x, unused, &v) ? v : v | 0x8000000000000000ull;
}

/* twice: INVOKE c1; its handler INVOKEs c0 on the truncated exception */
static uint64_t twice(Ctx *c, uint64_t x, uint64_t unused)
{
    (void)unused;
    uint64_t v1, v2;
    if (invoke(c, c_depth, 1, x, &v1))
        return v1;
    if (invoke(c, c_depth, 0, (uint32_t)v1, &v2))
        return v2 + 0x100000000ull;
    return (v2 << 32) | v1;
}

static const char rethrow_funcs[] =
    "; the handler throws again: caught one level up, or uncaught\n"
    "func @rethrow(i32) -> i64 {\n  %x = ARG i32 0\n  %f = SYMBOL @c2\n  %inv = INVOKE i32 [entry] {entry} (%f, %x)\n"
    "  %ok = IF_SUCCESS [%inv]\n  %z = ZEXT i64 (%inv)\n  RETURN [%ok] {%inv} (%z)\n"
    "  %ex = IF_EXCEPTION [%inv]\n  %e = GET_EXCEPTION [%ex]\n  %k = CONSTANT i64 0xabc\n  %v = XOR i64 (%e, %k)\n"
    "  %dr = DEPEND_RELAY [%ex] {%inv}\n  THROW [%ex] {%dr} (%v)\n}\n\n"
    "func @catch_rethrow(i32) -> i64 {\n  %x = ARG i32 0\n  %f = SYMBOL @rethrow\n"
    "  %inv = INVOKE i64 [entry] {entry} (%f, %x)\n  %ok = IF_SUCCESS [%inv]\n  %one = CONSTANT i64 1\n"
    "  %a = ADD i64 (%inv, %one)\n  RETURN [%ok] {%inv} (%a)\n  %ex = IF_EXCEPTION [%inv]\n"
    "  %e = GET_EXCEPTION [%ex]\n  %three = CONSTANT i64 3\n  %m = MUL i64 (%e, %three)\n"
    "  %dr = DEPEND_RELAY [%ex] {%inv}\n  RETURN [%ex] {%dr} (%m)\n}\n\n"
    "; the handler rethrows only values above 100\n"
    "func @select(i32) -> i64 {\n  %x = ARG i32 0\n  %f = SYMBOL @c3\n  %inv = INVOKE i32 [entry] {entry} (%f, %x)\n"
    "  %ok = IF_SUCCESS [%inv]\n  %z = ZEXT i64 (%inv)\n  RETURN [%ok] {%inv} (%z)\n"
    "  %ex = IF_EXCEPTION [%inv]\n  %e = GET_EXCEPTION [%ex]\n  %hundred = CONSTANT i64 100\n"
    "  %big = ICMP ugt (%e, %hundred)\n  %br = IF_BRANCH [%ex] (%big)\n  %t = IF_TRUE [%br]\n"
    "  %dr = DEPEND_RELAY [%ex] {%inv}\n  THROW [%t] {%dr} (%e)\n  %fl = IF_FALSE [%br]\n"
    "  %seven = CONSTANT i64 7\n  %s = ADD i64 (%e, %seven)\n  RETURN [%fl] {%dr} (%s)\n}\n\n"
    "func @catch_select(i32) -> i64 {\n  %x = ARG i32 0\n  %f = SYMBOL @select\n"
    "  %inv = INVOKE i64 [entry] {entry} (%f, %x)\n  %ok = IF_SUCCESS [%inv]\n  RETURN [%ok] {%inv} (%inv)\n"
    "  %ex = IF_EXCEPTION [%inv]\n  %e = GET_EXCEPTION [%ex]\n  %top = CONSTANT i64 0x8000000000000000\n"
    "  %o = OR i64 (%e, %top)\n  %dr = DEPEND_RELAY [%ex] {%inv}\n  RETURN [%ex] {%dr} (%o)\n}\n\n"
    "; an INVOKE inside a handler, the first exception still readable after the second\n"
    "func @twice(i32) -> i64 {\n  %x = ARG i32 0\n  %f1 = SYMBOL @c1\n  %i1 = INVOKE i32 [entry] {entry} (%f1, %x)\n"
    "  %ok1 = IF_SUCCESS [%i1]\n  %z1 = ZEXT i64 (%i1)\n  RETURN [%ok1] {%i1} (%z1)\n"
    "  %ex1 = IF_EXCEPTION [%i1]\n  %e1 = GET_EXCEPTION [%ex1]\n  %t1 = TRUNC i32 (%e1)\n  %f0 = SYMBOL @c0\n"
    "  %d1 = DEPEND_RELAY [%ex1] {%i1}\n  %i2 = INVOKE i32 [%ex1] {%d1} (%f0, %t1)\n  %ok2 = IF_SUCCESS [%i2]\n"
    "  %z2 = ZEXT i64 (%i2)\n  %k = CONSTANT i64 0x100000000\n  %a2 = ADD i64 (%z2, %k)\n"
    "  RETURN [%ok2] {%i2} (%a2)\n  %ex2 = IF_EXCEPTION [%i2]\n  %e2 = GET_EXCEPTION [%ex2]\n"
    "  %sh = CONSTANT i64 32\n  %hi = SHL i64 (%e2, %sh)\n  %o = OR i64 (%hi, %e1)\n"
    "  %d2 = DEPEND_RELAY [%ex2] {%i2}\n  RETURN [%ex2] {%d2} (%o)\n}\n\n";

static void write_rethrow(const char *dir)
{
    static const int32_t xs[] = {2, 1, 5, -1, 1001, 0};
    FILE *f = open_out(dir, "exc_rethrow.circ", "handlers that rethrow, selectively; an INVOKE in a handler");
    fputs(depth_funcs, f);
    for (int k = 1; k <= 3; k++)
        fprintf(f,
                "func @c%d(i32) -> i32 {\n  %%x = ARG i32 0\n  %%callee = SYMBOL @c%d\n"
                "  %%r = CALL i32 {entry} (%%callee, %%x)\n  %%three = CONSTANT i32 3\n  %%m = MUL i32 (%%r, %%three)\n"
                "  %%k = CONSTANT i32 %d\n  %%s = ADD i32 (%%m, %%k)\n  RETURN [entry] {%%r} (%%s)\n}\n\n",
                k, k - 1, k);
    fputs(rethrow_funcs, f);
    static const struct {
        const char *name;
        Fn fn;
    } fns[] = {{"rethrow", rethrow}, {"catch_rethrow", catch_rethrow}, {"select", select_catch},
               {"catch_select", catch_select}, {"twice", twice}};
    for (size_t j = 0; j < sizeof fns / sizeof fns[0]; j++)
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            char call[64];
            snprintf(call, sizeof call, "@%s(%" PRId32 ")", fns[j].name, xs[i]);
            expect(f, call, top(fns[j].fn, (uint32_t)xs[i], 0), 64, 64);
        }
    fclose(f);
}

/* ---- catch in a loop ----------------------------------------------------------- */
/* maythrow throws 5i + 1 when i % 3 == 0 (unsigned), else returns i * i (i32) */
static uint64_t maythrow(Ctx *c, uint64_t i, uint64_t unused)
{
    (void)unused;
    uint32_t i32 = (uint32_t)i;
    if (i32 % 3 == 0)
        throw_bits(c, (uint32_t)(i32 * 5u + 1));
    return (uint32_t)(i32 * i32);
}

/* a do-while loop around an INVOKE: each iteration adds the result or e ^ 0x55 */
static uint64_t catch_loop(Ctx *c, uint64_t n, uint64_t unused)
{
    uint64_t acc = 0;
    uint32_t i = 0;
    do {
        uint64_t v;
        acc += invoke(c, maythrow, i, unused, &v) ? v : v ^ 0x55;
        i++;
    } while ((int32_t)i < (int32_t)(uint32_t)n);
    return acc;
}

/* the loop around a plain call: the first throw leaves it */
static uint64_t plain_loop(Ctx *c, uint64_t n, uint64_t unused)
{
    uint64_t acc = 0;
    for (uint32_t i = 1; (int32_t)i <= (int32_t)(uint32_t)n; i++)
        acc += maythrow(c, i, unused);
    return acc;
}

static const char loop_funcs[] =
    "func @maythrow(i32) -> i32 {\n  %i = ARG i32 0\n  %three = CONSTANT i32 3\n  %r = UREM i32 (%i, %three)\n"
    "  %zero = CONSTANT i32 0\n  %c = ICMP eq (%r, %zero)\n  %br = IF_BRANCH [entry] (%c)\n  %t = IF_TRUE [%br]\n"
    "  %five = CONSTANT i32 5\n  %m = MUL i32 (%i, %five)\n  %one = CONSTANT i32 1\n  %v = ADD i32 (%m, %one)\n"
    "  THROW [%t] {entry} (%v)\n  %f = IF_FALSE [%br]\n  %sq = MUL i32 (%i, %i)\n  RETURN [%f] {entry} (%sq)\n}\n\n"
    "; an INVOKE in a loop: every iteration catches or not, and the loop goes on\n"
    "func @catch_loop(i32) -> i64 {\n  %n = ARG i32 0\n  %zero = CONSTANT i32 0\n  %z64 = CONSTANT i64 0\n"
    "  %one = CONSTANT i32 1\n  %h = LOOP_BEGIN [entry, %back]\n  %i = VALUE_SELECTOR i32 [%h] (%zero, %i1)\n"
    "  %acc = VALUE_SELECTOR i64 [%h] (%z64, %acc1)\n  %dh = DEPEND_SELECTOR [%h] {entry, %dm}\n"
    "  %f = SYMBOL @maythrow\n  %inv = INVOKE i32 [%h] {%dh} (%f, %i)\n  %ok = IF_SUCCESS [%inv]\n"
    "  %rz = ZEXT i64 (%inv)\n  %ex = IF_EXCEPTION [%inv]\n  %e = GET_EXCEPTION [%ex]\n  %k = CONSTANT i64 0x55\n"
    "  %ex2 = XOR i64 (%e, %k)\n  %dr = DEPEND_RELAY [%ex] {%inv}\n  %m = MERGE [%ok, %ex]\n"
    "  %add = VALUE_SELECTOR i64 [%m] (%rz, %ex2)\n  %dm = DEPEND_SELECTOR [%m] {%inv, %dr}\n"
    "  %acc1 = ADD i64 (%acc, %add)\n  %i1 = ADD i32 (%i, %one)\n  %more = ICMP slt (%i1, %n)\n"
    "  %lb = IF_BRANCH [%m] (%more)\n  %lt = IF_TRUE [%lb]\n  %back = LOOP_BACK [%lt]\n  %lf = IF_FALSE [%lb]\n"
    "  RETURN [%lf] {%dm} (%acc1)\n}\n\n"
    "; a plain CALL in a loop: the throw leaves the loop and the function\n"
    "func @plain_loop(i32) -> i64 {\n  %n = ARG i32 0\n  %one = CONSTANT i32 1\n  %z64 = CONSTANT i64 0\n"
    "  %h = LOOP_BEGIN [entry, %back]\n  %i = VALUE_SELECTOR i32 [%h] (%one, %i1)\n"
    "  %acc = VALUE_SELECTOR i64 [%h] (%z64, %acc1)\n  %dh = DEPEND_SELECTOR [%h] {entry, %r}\n"
    "  %in = ICMP sle (%i, %n)\n  %br = IF_BRANCH [%h] (%in)\n  %t = IF_TRUE [%br]\n  %f = SYMBOL @maythrow\n"
    "  %r = CALL i32 {%dh} (%f, %i)\n  %rz = ZEXT i64 (%r)\n  %acc1 = ADD i64 (%acc, %rz)\n"
    "  %i1 = ADD i32 (%i, %one)\n  %back = LOOP_BACK [%t]\n  %x = IF_FALSE [%br]\n  RETURN [%x] {%dh} (%acc)\n}\n\n";

static void write_loop(const char *dir)
{
    static const int32_t ns[] = {0, 1, 2, 3, 7, 20};
    FILE *f = open_out(dir, "exc_loop.circ", "catch in a loop; a throw leaving a loop through a plain call");
    fputs(loop_funcs, f);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        char call[64];
        snprintf(call, sizeof call, "@catch_loop(%" PRId32 ")", ns[i]);
        expect(f, call, top(catch_loop, (uint32_t)ns[i], 0), 64, 64);
        snprintf(call, sizeof call, "@plain_loop(%" PRId32 ")", ns[i]);
        expect(f, call, top(plain_loop, (uint32_t)ns[i], 0), 64, 32);
    }
    fclose(f);
}

/* ---- GET_EXCEPTION of a float, memory seen by a handler ------------------------- */
static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static uint64_t f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static double f64_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* fthrow: throws x * 1.5 for x < 0, else returns x + 1 (f64 bits) */
static uint64_t fthrow(Ctx *c, uint64_t xbits, uint64_t unused)
{
    (void)unused;
    double x = f64_of(xbits);
    if (x < 0)
        throw_bits(c, f64_bits(x * 1.5));
    return f64_bits(x + 1);
}

/* ftry: the result's bits, or the caught bits */
static uint64_t ftry(Ctx *c, uint64_t xbits, uint64_t unused)
{
    uint64_t v;
    invoke(c, fthrow, xbits, unused, &v);
    return v;
}

/* f32neg throws -x as f32, always */
static uint64_t f32neg(Ctx *c, uint64_t xbits, uint64_t unused)
{
    (void)unused;
    uint32_t u = (uint32_t)xbits;
    float x;
    memcpy(&x, &u, 4);
    throw_bits(c, f32_bits(-x));
    return 0;
}

static uint64_t f32try(Ctx *c, uint64_t xbits, uint64_t unused)
{
    uint64_t v;
    invoke(c, f32neg, xbits, unused, &v);
    return v;
}

/* st_throw stores x at p then throws x + 1 for odd x, else returns 2x (i32) */
static uint64_t st_throw(Ctx *c, uint64_t p, uint64_t x)
{
    uint32_t x32 = (uint32_t)x;
    *(uint32_t *)(uintptr_t)p = x32;
    if (x32 & 1)
        throw_bits(c, (uint32_t)(x32 + 1));
    return (uint32_t)(2 * x32);
}

/* mem: the word st_throw stored, read back on either path */
static uint64_t mem_catch(Ctx *c, uint64_t x, uint64_t unused)
{
    (void)unused;
    uint64_t v;
    uint32_t word = 0;
    if (invoke(c, st_throw, (uintptr_t)&word, x, &v))
        return (uint32_t)(word + (uint32_t)v);
    return (v << 32) | word;
}

static const char float_funcs[] =
    "func @fthrow(f64) -> f64 {\n  %x = ARG f64 0\n  %zero = CONSTANT f64 0.0\n  %neg = FCMP olt (%x, %zero)\n"
    "  %br = IF_BRANCH [entry] (%neg)\n  %t = IF_TRUE [%br]\n  %k = CONSTANT f64 1.5\n  %m = FMUL f64 (%x, %k)\n"
    "  THROW [%t] {entry} (%m)\n  %f = IF_FALSE [%br]\n  %one = CONSTANT f64 1.0\n  %a = FADD f64 (%x, %one)\n"
    "  RETURN [%f] {entry} (%a)\n}\n\n"
    "; GET_EXCEPTION of an f64: its IEEE bits\n"
    "func @ftry(f64) -> i64 {\n  %x = ARG f64 0\n  %f = SYMBOL @fthrow\n  %inv = INVOKE f64 [entry] {entry} (%f, %x)\n"
    "  %ok = IF_SUCCESS [%inv]\n  %b = BITCAST i64 (%inv)\n  RETURN [%ok] {%inv} (%b)\n"
    "  %ex = IF_EXCEPTION [%inv]\n  %e = GET_EXCEPTION [%ex]\n  %dr = DEPEND_RELAY [%ex] {%inv}\n"
    "  RETURN [%ex] {%dr} (%e)\n}\n\n"
    "func @f32neg(f32) -> i32 {\n  %x = ARG f32 0\n  %n = FNEG f32 (%x)\n  THROW [entry] {entry} (%n)\n}\n\n"
    "; GET_EXCEPTION of an f32: its bits, zero-extended\n"
    "func @f32try(f32) -> i64 {\n  %x = ARG f32 0\n  %f = SYMBOL @f32neg\n  %inv = INVOKE i32 [entry] {entry} (%f, %x)\n"
    "  %ok = IF_SUCCESS [%inv]\n  %z = ZEXT i64 (%inv)\n  RETURN [%ok] {%inv} (%z)\n"
    "  %ex = IF_EXCEPTION [%inv]\n  %e = GET_EXCEPTION [%ex]\n  %dr = DEPEND_RELAY [%ex] {%inv}\n"
    "  RETURN [%ex] {%dr} (%e)\n}\n\n"
    "func @st_throw(i64, i32) -> i32 {\n  %p = ARG i64 0\n  %x = ARG i32 1\n  %s = STORE {entry} (%x, %p)\n"
    "  %one = CONSTANT i32 1\n  %lo = AND i32 (%x, %one)\n  %zero = CONSTANT i32 0\n  %odd = ICMP ne (%lo, %zero)\n"
    "  %br = IF_BRANCH [entry] (%odd)\n  %t = IF_TRUE [%br]\n  %v = ADD i32 (%x, %one)\n  THROW [%t] {%s} (%v)\n"
    "  %f = IF_FALSE [%br]\n  %d = ADD i32 (%x, %x)\n  RETURN [%f] {%s} (%d)\n}\n\n"
    "; the callee's store before its throw is seen by the handler (through the relay)\n"
    "func @mem(i64, i32) -> i64 {\n  %p = ARG i64 0\n  %x = ARG i32 1\n  %f = SYMBOL @st_throw\n"
    "  %four = CONSTANT i64 4\n  %q = ADD i64 (%p, %four)\n  %inv = INVOKE i32 [entry] {entry} (%f, %q, %x)\n"
    "  %ok = IF_SUCCESS [%inv]\n  %l1 = LOAD i32 {%inv} (%q)\n  %s1 = ADD i32 (%l1, %inv)\n  %z1 = ZEXT i64 (%s1)\n"
    "  RETURN [%ok] {%l1} (%z1)\n  %ex = IF_EXCEPTION [%inv]\n  %dr = DEPEND_RELAY [%ex] {%inv}\n"
    "  %l2 = LOAD i32 {%dr} (%q)\n  %z2 = ZEXT i64 (%l2)\n  %e = GET_EXCEPTION [%ex]\n  %sh = CONSTANT i64 32\n"
    "  %hi = SHL i64 (%e, %sh)\n  %o = OR i64 (%hi, %z2)\n  RETURN [%ex] {%l2} (%o)\n}\n\n"
    "; uncaught: the f64 thrown leaves the run\n"
    "func @funcaught(f64) -> f64 {\n  %x = ARG f64 0\n  %f = SYMBOL @fthrow\n  %r = CALL f64 {entry} (%f, %x)\n"
    "  RETURN [entry] {%r} (%r)\n}\n\n";

static void write_values(const char *dir)
{
    static const double ds[] = {-2.0, 3.25, -0.5, 0.0, -1e300};
    static const float fs[] = {1.5f, -0.25f, 0.0f, 3e38f};
    static const int32_t xs[] = {6, 7, -1, 0, 123456};
    FILE *f = open_out(dir, "exc_values.circ", "GET_EXCEPTION of float bits; memory a callee wrote before throwing");
    fputs(float_funcs, f);
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        fprintf(f, "; run: @ftry(%a) == 0x%016" PRIx64 "\n", ds[i], top(ftry, f64_bits(ds[i]), 0).bits);
        Result r = top(fthrow, f64_bits(ds[i]), 0);
        fprintf(f, "; run: @funcaught(%a) == %s%a\n", ds[i], r.threw ? "throw " : "", f64_of(r.bits));
    }
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        fprintf(f, "; run: @f32try(%a) == 0x%016" PRIx64 "\n", (double)fs[i], top(f32try, f32_bits(fs[i]), 0).bits);
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        fprintf(f, "; run: @mem(heap, %" PRId32 ") == 0x%016" PRIx64 "\n", xs[i],
                top(mem_catch, (uint32_t)xs[i], 0).bits);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    write_depth(argv[1]);
    write_rethrow(argv[1]);
    write_loop(argv[1]);
    write_values(argv[1]);
    return 0;
}
