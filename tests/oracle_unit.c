/* oracle_unit.c — interpreter properties that run lines cannot state: deep graphs
 * evaluate without deep C recursion, the step budget and call depth end runs with
 * `timeout`, an Interp is reusable (the harness buffer is refilled per call), loop
 * evaluation costs time linear in the iterations (cached values are reused, not
 * recomputed), and the pure evaluator's edge cases. */
#include "compiler/ir/eval.h"
#include "oracle/interp.h"

#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static Module *parse(const char *src)
{
    Diag d;
    diag_init(&d, "<unit>", stderr);
    Module *m = parse_module("<unit>", src, strlen(src), &d);
    if (!m) {
        fprintf(stderr, "unit test source does not parse\n");
        exit(1);
    }
    return m;
}

/* a chain of n dependent ADDs: the interpreter must not recurse per gate */
static void deep_chain(uint32_t n)
{
    size_t cap = 64 + (size_t)n * 48;
    char *src = malloc(cap);
    size_t k = (size_t)snprintf(src, cap, "func @f(i64) -> i64 {\n  %%g0 = ARG i64 0\n  %%one = CONSTANT i64 1\n");
    for (uint32_t i = 1; i <= n; i++)
        k += (size_t)snprintf(src + k, cap - k, "  %%g%u = ADD i64 (%%g%u, %%one)\n", i, i - 1);
    snprintf(src + k, cap - k, "  RETURN [entry] {entry} (%%g%u)\n}\n", n);
    Module *m = parse(src);
    Outcome *o = malloc(sizeof *o);
    uint64_t arg = 5;
    interp_run(m, 0, &arg, NULL, o);
    CHECK(o->kind == OUT_RETURN && o->bits == 5 + n, "deep chain: kind %d bits %llu", o->kind,
          (unsigned long long)o->bits);
    free(o);
    module_free(m);
    free(src);
}

static const char loop_src[] =
    "func @count(i64) -> i64 {\n"
    "  %n = ARG i64 0\n  %zero = CONSTANT i64 0\n  %one = CONSTANT i64 1\n"
    "  %k7 = CONSTANT i64 7\n  %k9 = CONSTANT i64 9\n"
    "  %inv = MUL i64 (%k7, %k9)\n  %inv2 = ADD i64 (%inv, %n)\n"
    "  %loop = LOOP_BEGIN [entry, %back]\n"
    "  %i = VALUE_SELECTOR i64 [%loop] (%zero, %i1)\n"
    "  %acc = VALUE_SELECTOR i64 [%loop] (%zero, %acc1)\n"
    "  %acc1 = ADD i64 (%acc, %inv2)\n"
    "  %i1 = ADD i64 (%i, %one)\n"
    "  %more = ICMP ult (%i1, %n)\n"
    "  %br = IF_BRANCH [%loop] (%more)\n  %t = IF_TRUE [%br]\n  %back = LOOP_BACK [%t]\n"
    "  %f = IF_FALSE [%br]\n"
    "  RETURN [%f] {entry} (%acc1)\n}\n"
    "func @spin() -> i64 {\n"
    "  %c = CONSTANT i1 1\n  %loop = LOOP_BEGIN [entry, %back]\n"
    "  %br = IF_BRANCH [%loop] (%c)\n  %t = IF_TRUE [%br]\n  %back = LOOP_BACK [%t]\n"
    "  %f = IF_FALSE [%br]\n  %z = CONSTANT i64 0\n  RETURN [%f] {entry} (%z)\n}\n"
    "func @deep(i64) -> i64 {\n"
    "  %x = ARG i64 0\n  %s = SYMBOL @deep\n  %r = CALL i64 {entry} (%s, %x)\n"
    "  RETURN [entry] {%r} (%r)\n}\n"
    "func @poke(i64, i32) -> i32 {\n"
    "  %h = ARG i64 0\n  %v = ARG i32 1\n  %old = LOAD i32 {entry} (%h)\n"
    "  %s = STORE {%old} (%v, %h)\n  RETURN [entry] {%s} (%old)\n}\n";

static void loops_and_budgets(void)
{
    Module *m = parse(loop_src);
    Interp *in = interp_new(m, NULL);
    Outcome *o = malloc(sizeof *o);
    uint64_t steps[2];
    for (int k = 0; k < 2; k++) {
        uint64_t n = k ? 20000 : 10000;
        interp_call(in, 0, &n, o);
        CHECK(o->kind == OUT_RETURN && o->bits == n * (63 + n), "count(%llu) = %llu", (unsigned long long)n,
              (unsigned long long)o->bits);
        steps[k] = o->steps;
    }
    /* per iteration: 2 state visits + i1, more, acc1 (+ the join); nothing invariant again */
    uint64_t per_iter = (steps[1] - steps[0]) / 10000;
    CHECK(per_iter >= 4 && per_iter <= 8, "loop costs %llu steps per iteration", (unsigned long long)per_iter);

    interp_call(in, 1, NULL, o);
    CHECK(o->kind == OUT_TIMEOUT && strstr(o->reason, "step budget"), "spin: %d %s", o->kind, o->reason);
    uint64_t x = 1;
    interp_call(in, 2, &x, o);
    CHECK(o->kind == OUT_TIMEOUT && strstr(o->reason, "call depth"), "deep: %d %s", o->kind, o->reason);

    /* the harness buffer is refilled before every call: poke sees the pattern both times */
    uint64_t args[2] = {HEAP_ADDR, 77};
    interp_call(in, 3, args, o);
    uint64_t first = o->bits;
    CHECK(o->kind == OUT_RETURN && o->heap[0] == 77, "poke stored %u", o->heap[0]);
    interp_call(in, 3, args, o);
    CHECK(o->kind == OUT_RETURN && o->bits == first, "poke saw %llx then %llx", (unsigned long long)first,
          (unsigned long long)o->bits);
    free(o);
    interp_free(in);

    InterpOptions small = {.max_steps = 1000, .max_depth = 8};
    in = interp_new(m, &small);
    o = malloc(sizeof *o);
    uint64_t n = 100000;
    interp_call(in, 0, &n, o);
    CHECK(o->kind == OUT_TIMEOUT && o->steps > 1000 && o->steps < 1010, "budget of 1000: %d after %llu", o->kind,
          (unsigned long long)o->steps);
    interp_call(in, 2, &x, o);
    CHECK(o->kind == OUT_TIMEOUT && strstr(o->reason, "call depth beyond 8"), "depth 8: %s", o->reason);
    free(o);
    interp_free(in);
    module_free(m);
}

static void pure_edges(void)
{
    uint64_t in[2], r = 0;
    in[0] = 0x80; in[1] = 0xff;
    CHECK(eval_pure(OP_SREM, TY_I8, 0, TY_I8, in, 2, &r) == EVAL_TRAP_OVERFLOW, "srem i8 MIN %% -1");
    in[0] = 5; in[1] = 0;
    CHECK(eval_pure(OP_UREM, TY_I16, 0, TY_I16, in, 2, &r) == EVAL_TRAP_DIV0, "urem by 0");
    in[0] = 1;
    CHECK(eval_pure(OP_SEXT, TY_I64, 0, TY_I1, in, 1, &r) == EVAL_OK && r == ~0ull, "sext i1 1 -> all ones");
    in[0] = 1; in[1] = 0;
    CHECK(eval_pure(OP_ICMP, TY_I1, ICMP_slt, TY_I1, in, 2, &r) == EVAL_OK && r == 1, "i1 1 slt 0 (1 is -1)");
    in[0] = 0xffffffffffffffffull;
    CHECK(eval_pure(OP_UITOFP, TY_F32, 0, TY_I64, in, 1, &r) == EVAL_OK && r == 0x5f800000u, "u64 max -> 2^64f");
    in[0] = 0x7fa00000u; in[1] = 0x3f800000u;
    CHECK(eval_pure(OP_FADD, TY_F32, 0, TY_F32, in, 2, &r) == EVAL_OK && r == 0x7fc00000u, "NaN canonical");
    CHECK(eval_pure(OP_FNEG, TY_F32, 0, TY_F32, in, 1, &r) == EVAL_OK && r == 0xffa00000u, "fneg keeps payload");
    CHECK(eval_pure(OP_CONSTANT, TY_I32, 0, TY_I32, in, 0, &r) == EVAL_NOT_PURE, "CONSTANT is not evaluated");
    CHECK(eval_pure(OP_LOAD, TY_I32, 0, TY_I32, in, 1, &r) == EVAL_NOT_PURE, "LOAD is not pure");
}

int main(void)
{
    deep_chain(100000);
    loops_and_budgets();
    pure_edges();
    printf("%d failure%s\n", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
