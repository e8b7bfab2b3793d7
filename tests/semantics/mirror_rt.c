/* mirror_rt.c — writes the semantics tests of the dependency join and the runtime
 * (tests/semantics/rt_join.circ, rt_runtime.circ) with expected values computed by
 * plain C, independently of the interpreters and of oracle/runtime.c: `mirror_rt DIR`
 * writes the files into DIR; the runtime_mirror test regenerates them and compares
 * with the committed copies, and oracle_semantics runs their run lines.
 *
 * What the C here encodes (docs/semantics.md section 6, docs/runtime.md): a
 * DEPEND_AND orders what follows it after all of its inputs, whose chains touch
 * disjoint bytes; rt_mix64 is the splitmix64 finalizer; rt_scramble(p, n, s) reads
 * the n & 63 bytes at p, xors byte i with the low byte of rt_mix64(s + i), writes them
 * and returns (the old bytes folded by acc * 31 + b) + count; rt_check(x, l) is x or
 * throws x when x > l unsigned; rt_apply(f, x) is f(x); a throw ends the run through
 * every call; the harness buffer holds (0xa5 ^ 7i ^ (i >> 8)) at byte i. */
#include "mirror_out.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_SIZE 4096

static const char *outdir;

static FILE *open_out(const char *name, const char *what)
{
    return mirror_open(outdir, name, "mirror_rt.c (expected values from plain C)", what);
}

static void heap_init(uint8_t *h)
{
    for (unsigned i = 0; i < HEAP_SIZE; i++)
        h[i] = (uint8_t)(0xa5 ^ (7 * i) ^ (i >> 8));
}

static uint64_t load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

static void store64(uint8_t *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t mix64(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t scramble(uint8_t *p, uint64_t n, uint64_t seed)
{
    uint64_t k = n & 63, acc = 0;
    for (uint64_t i = 0; i < k; i++) {
        acc = acc * 31 + p[i];
        p[i] ^= (uint8_t)mix64(seed + i);
    }
    return acc + k;
}

static void expect(FILE *f, const char *call, uint64_t v)
{
    fprintf(f, "; run: %s == %" PRId64 "\n", call, (int64_t)v);
}

/* ---- rt_join.circ ------------------------------------------------------------- */

/* two chains on heap[0..8) and heap[8..16) from entry, joined; loads after the join */
static void join_two_chains(FILE *f)
{
    fputs("\nfunc @two(i64, i64) -> i64 {\n"
          "  %h = ARG i64 0\n  %x = ARG i64 1\n  %c8 = CONSTANT i64 8\n  %h8 = ADD i64 (%h, %c8)\n"
          "  %a0 = LOAD i64 {entry} (%h)\n  %x2 = ADD i64 (%a0, %x)\n  %a1 = STORE {%a0} (%x2, %h)\n"
          "  %b0 = STORE {entry} (%x, %h8)\n  %b1 = LOAD i64 {%b0} (%h8)\n"
          "  %j = DEPEND_AND {%a1, %b1}\n  %l0 = LOAD i64 {%j} (%h)\n  %l1 = LOAD i64 {%l0} (%h8)\n"
          "  %r0 = MUL i64 (%l0, %b1)\n  %r = XOR i64 (%r0, %l1)\n  RETURN [entry] {%l1} (%r)\n}\n", f);
    static const uint64_t xs[] = {0, 1, 12345, 0xffffffffffffffffull};
    for (unsigned i = 0; i < 4; i++) {
        uint8_t h[HEAP_SIZE];
        heap_init(h);
        uint64_t x = xs[i];
        store64(h, load64(h) + x);
        store64(h + 8, x);
        uint64_t b1 = load64(h + 8), r = (load64(h) * b1) ^ load64(h + 8);
        char call[64];
        snprintf(call, sizeof call, "@two(heap, %" PRIu64 ")", x);
        expect(f, call, r);
    }
}

/* three chains over thirds of a zeroed ALLOCA, after a common store; the diamond: the
 * first chain reads what the store before the fork wrote */
static void join_three_chains(FILE *f)
{
    fputs("\nfunc @three(i64) -> i64 {\n"
          "  %x = ARG i64 0\n  %a = ALLOCA 24\n  %c8 = CONSTANT i64 8\n  %c16 = CONSTANT i64 16\n"
          "  %a8 = ADD i64 (%a, %c8)\n  %a16 = ADD i64 (%a, %c16)\n  %s0 = STORE {entry} (%x, %a)\n"
          "  %p = LOAD i64 {%s0} (%a)\n  %q = ADD i64 (%p, %c8)\n  %s1 = STORE {%p} (%q, %a)\n"
          "  %y = MUL i64 (%x, %x)\n  %s2 = STORE {%s0} (%y, %a8)\n"
          "  %z = LOAD i64 {%s0} (%a16)\n  %z1 = ADD i64 (%z, %c16)\n  %s3 = STORE {%z} (%z1, %a16)\n"
          "  %j = DEPEND_AND {%s1, %s2, %s3}\n"
          "  %l0 = LOAD i64 {%j} (%a)\n  %l1 = LOAD i64 {%j} (%a8)\n  %l2 = LOAD i64 {%j} (%a16)\n"
          "  %t = ADD i64 (%l0, %l1)\n  %r = SUB i64 (%t, %l2)\n  RETURN [entry] {%l2} (%r)\n}\n", f);
    static const uint64_t xs[] = {0, 3, 1000000007, 0x8000000000000000ull};
    for (unsigned i = 0; i < 4; i++) {
        uint64_t x = xs[i], a[3] = {x, 0, 0};
        a[0] = a[0] + 8;
        a[1] = x * x;
        a[2] = a[2] + 16;
        char call[64];
        snprintf(call, sizeof call, "@three(%" PRIu64 ")", x);
        expect(f, call, a[0] + a[1] - a[2]);
    }
}

/* in each of n iterations two chains store to slots i and i + 8 of the heap, joined;
 * the sum of both slots is read after the join */
static void join_in_loop(FILE *f)
{
    fputs("\nfunc @loop(i64, i64) -> i64 {\n"
          "  %h = ARG i64 0\n  %n = ARG i64 1\n  %zero = CONSTANT i64 0\n  %one = CONSTANT i64 1\n"
          "  %c7 = CONSTANT i64 7\n  %c64 = CONSTANT i64 64\n"
          "  %head = LOOP_BEGIN [entry, %back]\n  %i = VALUE_SELECTOR i64 [%head] (%zero, %i1)\n"
          "  %acc = VALUE_SELECTOR i64 [%head] (%zero, %acc1)\n  %d = DEPEND_SELECTOR [%head] {entry, %l1}\n"
          "  %k = AND i64 (%i, %c7)\n  %o = MUL i64 (%k, %c64)\n  %p = ADD i64 (%h, %o)\n"
          "  %o8 = ADD i64 (%o, %c64)\n  %p8 = ADD i64 (%h, %o8)\n"
          "  %sa = STORE {%d} (%i, %p)\n  %v = MUL i64 (%i, %n)\n  %sb = STORE {%d} (%v, %p8)\n"
          "  %j = DEPEND_AND {%sa, %sb}\n  %l0 = LOAD i64 {%j} (%p)\n  %l1 = LOAD i64 {%l0} (%p8)\n"
          "  %s = ADD i64 (%l0, %l1)\n  %acc1 = ADD i64 (%acc, %s)\n  %i1 = ADD i64 (%i, %one)\n"
          "  %c = ICMP ult (%i1, %n)\n  %br = IF_BRANCH [%head] (%c)\n  %t = IF_TRUE [%br]\n"
          "  %back = LOOP_BACK [%t]\n  %e = IF_FALSE [%br]\n  RETURN [%e] {%l1} (%acc1)\n}\n", f);
    static const uint64_t ns[] = {1, 2, 5, 9};
    for (unsigned i = 0; i < 4; i++) {
        uint64_t n = ns[i], acc = 0;
        for (uint64_t k = 0; k < n; k++)
            acc += k + k * n;
        char call[64];
        snprintf(call, sizeof call, "@loop(heap, %" PRIu64 ")", n);
        expect(f, call, acc);
    }
}

/* a join in one arm of a branch: relays of the arm, chains, DEPEND_AND, a merge */
static void join_in_branch(FILE *f)
{
    fputs("\nfunc @arm(i64, i64) -> i64 {\n"
          "  %h = ARG i64 0\n  %x = ARG i64 1\n  %c16 = CONSTANT i64 16\n  %h16 = ADD i64 (%h, %c16)\n"
          "  %z = CONSTANT i64 0\n  %c = ICMP ne (%x, %z)\n  %br = IF_BRANCH [entry] (%c)\n"
          "  %t = IF_TRUE [%br]\n  %e = IF_FALSE [%br]\n  %r = DEPEND_RELAY [%t] {entry}\n"
          "  %sa = STORE {%r} (%x, %h)\n  %lb = LOAD i64 {%r} (%h16)\n  %j = DEPEND_AND {%sa, %lb}\n"
          "  %re = DEPEND_RELAY [%e] {entry}\n  %m = MERGE [%t, %e]\n"
          "  %d = DEPEND_SELECTOR [%m] {%j, %re}\n  %v = VALUE_SELECTOR i64 [%m] (%lb, %x)\n"
          "  %l = LOAD i64 {%d} (%h)\n  %s = ADD i64 (%l, %v)\n  RETURN [%m] {%l} (%s)\n}\n", f);
    static const uint64_t xs[] = {0, 7, 0xdeadbeefull};
    for (unsigned i = 0; i < 3; i++) {
        uint8_t h[HEAP_SIZE];
        heap_init(h);
        uint64_t x = xs[i], v = x;
        if (x) {
            store64(h, x);
            v = load64(h + 16);
        }
        char call[64];
        snprintf(call, sizeof call, "@arm(heap, %" PRIu64 ")", x);
        expect(f, call, load64(h) + v);
    }
}

static void write_join(void)
{
    FILE *f = open_out("rt_join.circ", "DEPEND_AND: independent chains over disjoint bytes, joined (section 6.1)");
    join_two_chains(f);
    join_three_chains(f);
    join_in_loop(f);
    join_in_branch(f);
    fclose(f);
}

/* ---- rt_runtime.circ ---------------------------------------------------------- */

static const char rt_externs[] = "extern @rt_mix64(i64) -> i64\nextern @rt_scramble(i64, i64, i64) -> i64\n"
                                 "extern @rt_check(i64, i64) -> i64\nextern @rt_apply(i64, i64) -> i64\n";

static void rt_mix(FILE *f)
{
    fputs("\nfunc @mix(i64) -> i64 {\n  %x = ARG i64 0\n  %f = SYMBOL @rt_mix64\n"
          "  %r = CALL i64 {entry} (%f, %x)\n  RETURN [entry] {%r} (%r)\n}\n", f);
    static const uint64_t xs[] = {0, 1, 0x9e3779b97f4a7c15ull, 0xffffffffffffffffull};
    for (unsigned i = 0; i < 4; i++) {
        char call[64];
        snprintf(call, sizeof call, "@mix(%" PRId64 ")", (int64_t)xs[i]);
        expect(f, call, mix64(xs[i]));
    }
}

/* scramble the heap at offset 5, then read back a word it changed */
static void rt_scramble_heap(FILE *f)
{
    fputs("\nfunc @scr(i64, i64, i64) -> i64 {\n  %h = ARG i64 0\n  %n = ARG i64 1\n  %s = ARG i64 2\n"
          "  %c5 = CONSTANT i64 5\n  %p = ADD i64 (%h, %c5)\n  %f = SYMBOL @rt_scramble\n"
          "  %r = CALL i64 {entry} (%f, %p, %n, %s)\n  %l = LOAD i64 {%r} (%h)\n  %x = XOR i64 (%r, %l)\n"
          "  RETURN [entry] {%l} (%x)\n}\n", f);
    static const uint64_t ns[] = {0, 3, 63, 64 + 9}, seeds[] = {1, 99, 0xffffffffffffffffull, 42};
    for (unsigned i = 0; i < 4; i++) {
        uint8_t h[HEAP_SIZE];
        heap_init(h);
        uint64_t r = scramble(h + 5, ns[i], seeds[i]);
        char call[96];
        snprintf(call, sizeof call, "@scr(heap, %" PRIu64 ", %" PRId64 ")", ns[i], (int64_t)seeds[i]);
        expect(f, call, r ^ load64(h));
    }
}

/* twice over a zero-filled ALLOCA: the second call sees the first one's bytes */
static void rt_scramble_local(FILE *f)
{
    fputs("\nfunc @local(i64, i64) -> i64 {\n  %n = ARG i64 0\n  %s = ARG i64 1\n  %a = ALLOCA 64\n"
          "  %f = SYMBOL @rt_scramble\n  %r = CALL i64 {entry} (%f, %a, %n, %s)\n"
          "  %r2 = CALL i64 {%r} (%f, %a, %n, %r)\n  %l = LOAD i64 {%r2} (%a)\n  %x = XOR i64 (%r2, %l)\n"
          "  RETURN [entry] {%l} (%x)\n}\n", f);
    static const uint64_t ns[] = {8, 17, 70};
    for (unsigned i = 0; i < 3; i++) {
        uint8_t a[64] = {0};
        uint64_t r = scramble(a, ns[i], 5 + i);
        uint64_t r2 = scramble(a, ns[i], r);
        char call[64];
        snprintf(call, sizeof call, "@local(%" PRIu64 ", %u)", ns[i], 5 + i);
        expect(f, call, r2 ^ load64(a));
    }
}

/* rt_check: the value below or at the limit, a throw above it */
static void rt_checks(FILE *f)
{
    fputs("\nfunc @chk(i64, i64) -> i64 {\n  %x = ARG i64 0\n  %l = ARG i64 1\n  %f = SYMBOL @rt_check\n"
          "  %r = CALL i64 {entry} (%f, %x, %l)\n  RETURN [entry] {%r} (%r)\n}\n", f);
    static const uint64_t xs[] = {5, 10, 11, 0xffffffffffffffffull}, ls[] = {10, 10, 10, 0xfffffffffffffffeull};
    for (unsigned i = 0; i < 4; i++) {
        uint64_t x = xs[i];
        fprintf(f, "; run: @chk(%" PRId64 ", %" PRId64 ") == %s%" PRId64 "\n", (int64_t)x, (int64_t)ls[i],
                x > ls[i] ? "throw " : "", (int64_t)x);
    }
}

/* the callbacks: @inc; @store_inc (its own ALLOCA); @checked (throws from the callback
 * above 100); @twice (a callback that calls rt_apply of @inc: runtime within runtime);
 * @apply(f, x) calls rt_apply, then adds a heap word written before the call */
static void rt_callbacks(FILE *f)
{
    fputs("\nfunc @inc(i64) -> i64 {\n  %x = ARG i64 0\n  %one = CONSTANT i64 1\n  %r = ADD i64 (%x, %one)\n"
          "  RETURN [entry] {entry} (%r)\n}\n"
          "\nfunc @store_inc(i64) -> i64 {\n  %x = ARG i64 0\n  %a = ALLOCA 8\n  %s = STORE {entry} (%x, %a)\n"
          "  %l = LOAD i64 {%s} (%a)\n  %c = CONSTANT i64 3\n  %r = MUL i64 (%l, %c)\n  RETURN [entry] {%l} (%r)\n}\n"
          "\nfunc @checked(i64) -> i64 {\n  %x = ARG i64 0\n  %k = CONSTANT i64 100\n  %f = SYMBOL @rt_check\n"
          "  %r = CALL i64 {entry} (%f, %x, %k)\n  RETURN [entry] {%r} (%r)\n}\n"
          "\nfunc @twice(i64) -> i64 {\n  %x = ARG i64 0\n  %f = SYMBOL @rt_apply\n  %g = SYMBOL @inc\n"
          "  %r = CALL i64 {entry} (%f, %g, %x)\n  %r2 = CALL i64 {%r} (%f, %g, %r)\n  RETURN [entry] {%r2} (%r2)\n}\n"
          "\nfunc @apply(i64, i64) -> i64 {\n  %fn = ARG i64 0\n  %x = ARG i64 1\n  %f = SYMBOL @rt_apply\n"
          "  %r = CALL i64 {entry} (%f, %fn, %x)\n  RETURN [entry] {%r} (%r)\n}\n", f);
    fprintf(f, "; run: @apply(@inc, 3) == 4\n");
    expect(f, "@apply(@store_inc, 7)", 21);
    expect(f, "@apply(@checked, 100)", 100);
    fprintf(f, "; run: @apply(@checked, 101) == throw 101\n");
    expect(f, "@apply(@twice, 40)", 42);
}

/* a throw from the runtime at call depth d (0..4): @deep_d calls @deep_{d-1}; the
 * deepest checks x against 50 */
static void rt_deep_throws(FILE *f)
{
    fputs("\nfunc @deep0(i64) -> i64 {\n  %x = ARG i64 0\n  %k = CONSTANT i64 50\n  %f = SYMBOL @rt_check\n"
          "  %r = CALL i64 {entry} (%f, %x, %k)\n  RETURN [entry] {%r} (%r)\n}\n", f);
    for (int d = 1; d <= 4; d++)
        fprintf(f, "\nfunc @deep%d(i64) -> i64 {\n  %%x = ARG i64 0\n  %%f = SYMBOL @deep%d\n"
                   "  %%r = CALL i64 {entry} (%%f, %%x)\n  %%one = CONSTANT i64 1\n  %%s = ADD i64 (%%r, %%one)\n"
                   "  RETURN [entry] {%%r} (%%s)\n}\n",
                d, d - 1);
    for (int d = 0; d <= 4; d++) {
        fprintf(f, "; run: @deep%d(50) == %d\n", d, 50 + d);
        fprintf(f, "; run: @deep%d(%d) == throw %d\n", d, 51 + d, 51 + d);
    }
}

/* a throw from the runtime inside a loop: iteration i checks acc against limit */
static void rt_loop_throw(FILE *f)
{
    fputs("\nfunc @loopchk(i64, i64) -> i64 {\n  %n = ARG i64 0\n  %lim = ARG i64 1\n  %zero = CONSTANT i64 0\n"
          "  %one = CONSTANT i64 1\n  %c10 = CONSTANT i64 10\n  %f = SYMBOL @rt_check\n"
          "  %head = LOOP_BEGIN [entry, %back]\n  %i = VALUE_SELECTOR i64 [%head] (%zero, %i1)\n"
          "  %acc = VALUE_SELECTOR i64 [%head] (%zero, %acc1)\n  %d = DEPEND_SELECTOR [%head] {entry, %r}\n"
          "  %step = MUL i64 (%i, %c10)\n  %acc1 = ADD i64 (%acc, %step)\n"
          "  %r = CALL i64 {%d} (%f, %acc1, %lim)\n  %i1 = ADD i64 (%i, %one)\n  %c = ICMP ult (%i1, %n)\n"
          "  %br = IF_BRANCH [%head] (%c)\n  %t = IF_TRUE [%br]\n  %back = LOOP_BACK [%t]\n"
          "  %e = IF_FALSE [%br]\n  RETURN [%e] {%r} (%r)\n}\n", f);
    static const uint64_t ns[] = {3, 5, 8}, lims[] = {1000, 60, 200};
    for (unsigned k = 0; k < 3; k++) {
        uint64_t acc = 0;
        int thrown = 0;
        for (uint64_t i = 0; i < ns[k] && !thrown; i++) {
            acc += i * 10;
            thrown = acc > lims[k];
        }
        fprintf(f, "; run: @loopchk(%" PRIu64 ", %" PRIu64 ") == %s%" PRIu64 "\n", ns[k], lims[k],
                thrown ? "throw " : "", acc);
    }
}

static void write_runtime(void)
{
    FILE *f = open_out("rt_runtime.circ", "runtime calls (docs/runtime.md): results, memory, throws, callbacks");
    fputs(rt_externs, f);
    rt_mix(f);
    rt_scramble_heap(f);
    rt_scramble_local(f);
    rt_checks(f);
    rt_callbacks(f);
    rt_deep_throws(f);
    rt_loop_throw(f);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mirror_rt DIR\n");
        return 2;
    }
    outdir = argv[1];
    write_join();
    write_runtime();
    return 0;
}
