/* ir_verify_api.c — the verifier on circuits built through the builder API: shapes the
 * text parser never produces (missing inputs, removed gates, roots as inputs, bad
 * condition codes, out-of-range SYMBOL indices, constant bits beyond the type, root
 * list entries past the gates), dead
 * gates being skipped, near-linear time on a function of many thousand gates, a
 * parser regression, and diag_keep_first keeping the first message as printed. */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int failures;
    char *text; /* diagnostics of the last verify */
    size_t len;
} Check;

#define EXPECT(ck, cond, ...)                                                        \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                            \
            fprintf(stderr, "\n  diagnostics:\n%s", (ck)->text ? (ck)->text : "");   \
            (ck)->failures++;                                                        \
        }                                                                            \
    } while (0)

/* verify m, keeping its diagnostics in ck->text; returns the error count */
static int verify(Check *ck, const Module *m)
{
    free(ck->text);
    ck->text = NULL;
    FILE *out = open_memstream(&ck->text, &ck->len);
    Diag d;
    diag_init(&d, "built.circ", out);
    int n = verify_module(m, &d);
    fclose(out);
    if (n != d.nerrors) {
        fprintf(stderr, "FAIL: verify_module returned %d, reported %d\n", n, d.nerrors);
        ck->failures++;
    }
    return n;
}

static bool said(const Check *ck, const char *text) { return ck->text && strstr(ck->text, text); }

/* @f(i32) -> i32 { RETURN [entry] {entry} (body) } with the body built by the caller */
static Func *new_func(Module *m, GateId *arg)
{
    Type p = TY_I32;
    Func *f = module_add_func(m, "f", &p, 1, TY_I32);
    f->line = 1;
    f->col = 1;
    *arg = circ_add(f->circ, OP_ARG, TY_I32, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    return f;
}

static GateId add_return(Circuit *c, GateId state, GateId value)
{
    GateId dep = ROOT_DEPEND_ENTRY;
    return circ_add(c, OP_RETURN, TY_NONE, 0, 0, &state, 1, &dep, 1, &value, 1);
}

static void test_valid_and_dead(Check *ck)
{
    Module *m = module_new("built.circ");
    GateId x;
    Func *f = new_func(m, &x);
    GateId sum = circ_binop(f->circ, OP_ADD, TY_I32, x, x);
    GateId bad = circ_binop(f->circ, OP_ADD, TY_F64, x, x); /* wrong types, then removed */
    add_return(f->circ, ROOT_STATE_ENTRY, sum);
    EXPECT(ck, verify(ck, m) == 1 && said(ck, "ADD result must be"), "a live ill-typed ADD is one error");
    circ_kill(f->circ, bad);
    EXPECT(ck, verify(ck, m) == 0, "dead gates are skipped");
    module_free(m);
}

static void test_missing_and_removed_inputs(Check *ck)
{
    Module *m = module_new("built.circ");
    GateId x;
    Func *f = new_func(m, &x);
    GateId gone = circ_binop(f->circ, OP_ADD, TY_I32, x, x);
    circ_kill(f->circ, gone);
    GateId a = circ_binop(f->circ, OP_ADD, TY_I32, x, NO_GATE);
    GateId b = circ_binop(f->circ, OP_ADD, TY_I32, a, gone);
    add_return(f->circ, ROOT_STATE_ENTRY, b);
    EXPECT(ck, verify(ck, m) == 2 && said(ck, "data input 1 is missing or names a removed gate"),
           "a NO_GATE input and a removed input are errors, not crashes");
    module_free(m);
}

/* the first of two messages, kept without a stream, is the first line printed */
static void test_keep_first(Check *ck)
{
    Module *m = module_new("built.circ");
    GateId x;
    Func *f = new_func(m, &x);
    GateId a = circ_binop(f->circ, OP_ADD, TY_I32, x, NO_GATE);
    add_return(f->circ, ROOT_STATE_ENTRY, circ_binop(f->circ, OP_SUB, TY_I32, a, NO_GATE));
    EXPECT(ck, verify(ck, m) == 2, "two missing inputs, two errors");
    char first[400], tiny[12];
    Diag d;
    diag_init(&d, "built.circ", NULL);
    diag_keep_first(&d, first, sizeof first);
    EXPECT(ck, !first[0], "nothing kept before a message");
    verify_module(m, &d);
    const char *nl = ck->text ? strchr(ck->text, '\n') : NULL;
    EXPECT(ck, nl && strlen(first) == (size_t)(nl - ck->text) && !strncmp(first, ck->text, strlen(first)),
           "kept \"%s\", not the first line printed", first);
    diag_init(&d, "built.circ", NULL);
    diag_keep_first(&d, tiny, sizeof tiny);
    verify_module(m, &d);
    EXPECT(ck, d.nerrors == 2 && strlen(tiny) == sizeof tiny - 1 && !strncmp(tiny, first, sizeof tiny - 1),
           "a short buffer keeps the start of the first message: \"%s\"", tiny);
    module_free(m);
}

static void test_roots_as_inputs(Check *ck)
{
    Module *m = module_new("built.circ");
    GateId x;
    Func *f = new_func(m, &x);
    GateId state = ROOT_RETURN_LIST;
    GateId dep = ROOT_CONSTANT_LIST;
    GateId r = circ_add(f->circ, OP_RETURN, TY_NONE, 0, 0, &state, 1, &dep, 1, &x, 1);
    (void)r;
    GateId sum = circ_binop(f->circ, OP_ADD, TY_I32, x, ROOT_ARG_LIST);
    add_return(f->circ, ROOT_STATE_ENTRY, sum);
    int n = verify(ck, m);
    EXPECT(ck, said(ck, "state input 0 is the root RETURN_LIST"), "a root as a state input");
    EXPECT(ck, said(ck, "dependency input 0 is the root CONSTANT_LIST"), "a root as a dependency input");
    EXPECT(ck, said(ck, "data input 1 is the root ARG_LIST"), "a root as a data input");
    EXPECT(ck, n >= 3, "at least the three root errors, got %d", n);
    module_free(m);
}

static void test_literals(Check *ck)
{
    Module *m = module_new("built.circ");
    GateId x;
    Func *f = new_func(m, &x);
    Circuit *c = f->circ;
    circ_add(c, OP_CONSTANT, TY_I8, 0, 0x1ff, NULL, 0, NULL, 0, NULL, 0);
    circ_add(c, OP_SYMBOL, TY_I64, 0, 5, NULL, 0, NULL, 0, NULL, 0);
    GateId cmp = circ_cmp(c, OP_ICMP, 15, x, x); /* 15 is no ICMP condition */
    GateId wide = circ_unop(c, OP_ZEXT, TY_I32, cmp);
    add_return(c, ROOT_STATE_ENTRY, wide);
    EXPECT(ck, verify(ck, m) == 3, "three literal errors, got %d", verify(ck, m));
    EXPECT(ck, said(ck, "CONSTANT bits 0x1ff do not fit in i8"), "constant bits beyond the type");
    EXPECT(ck, said(ck, "SYMBOL names function #5, but the module has 1 function(s)"), "SYMBOL index");
    EXPECT(ck, said(ck, "condition code 15 is not a valid ICMP condition"), "condition code");
    EXPECT(ck, said(ck, "built.circ:1:1: error: in @f: gate %t"), "built gates are reported at the function");
    module_free(m);
}

/* n IF_BRANCH/MERGE diamonds in a row, each with a selector fed by the previous one */
static Module *diamond_chain(uint32_t n)
{
    Module *m = module_new("built.circ");
    GateId x;
    Func *f = new_func(m, &x);
    Circuit *c = f->circ;
    GateId zero = circ_const(c, TY_I32, 0), one = circ_const(c, TY_I32, 1);
    GateId state = ROOT_STATE_ENTRY, value = x;
    for (uint32_t k = 0; k < n; k++) {
        GateId cond = circ_cmp(c, OP_ICMP, ICMP_slt, value, zero);
        GateId br = circ_add(c, OP_IF_BRANCH, TY_NONE, 0, 0, &state, 1, NULL, 0, &cond, 1);
        GateId arms[2];
        arms[0] = circ_add(c, OP_IF_TRUE, TY_NONE, 0, 0, &br, 1, NULL, 0, NULL, 0);
        arms[1] = circ_add(c, OP_IF_FALSE, TY_NONE, 0, 0, &br, 1, NULL, 0, NULL, 0);
        GateId merge = circ_add(c, OP_MERGE, TY_NONE, 0, 0, arms, 2, NULL, 0, NULL, 0);
        GateId picks[2] = {circ_binop(c, OP_ADD, TY_I32, value, one), value};
        value = circ_add(c, OP_VALUE_SELECTOR, TY_I32, 0, 0, &merge, 1, NULL, 0, picks, 2);
        state = merge;
    }
    add_return(c, state, value);
    return m;
}

static void test_scale(Check *ck)
{
    const uint32_t n = 20000; /* 140,000 gates */
    Module *m = diamond_chain(n);
    clock_t t0 = clock();
    int errors = verify(ck, m);
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    EXPECT(ck, errors == 0, "a chain of %u diamonds verifies", n);
    EXPECT(ck, seconds < 5.0, "verifying %u gates took %.2f s (near-linear expected)", m->funcs[0]->circ->ngates,
           seconds);
    /* one wrong wire: the first branch's condition uses the last selector, whose MERGE
     * does not dominate the branch */
    Circuit *c = m->funcs[0]->circ;
    GateId first_branch = NO_GATE, last_selector = NO_GATE;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        if (c->gates[g].op == OP_IF_BRANCH && first_branch == NO_GATE)
            first_branch = g;
        if (c->gates[g].op == OP_VALUE_SELECTOR)
            last_selector = g;
    }
    GateId cond = circ_cmp(c, OP_ICMP, ICMP_eq, last_selector, last_selector);
    circ_set_input(c, first_branch, 1, cond);
    EXPECT(ck, verify(ck, m) == 1 && said(ck, "does not dominate this use"), "one dominance error, got %d",
           verify(ck, m));
    module_free(m);
}

/* regression: the parser resolved the inputs of a gate without references (the first
 * gate of every function) through a null buffer, which UBSan rejects */
static void test_parse_gates_without_references(Check *ck)
{
    static const char text[] = "func @f(i32) -> i32 {\n  %x = ARG i32 0\n  RETURN [entry] {entry} (%x)\n}\n";
    Diag d;
    diag_init(&d, "text.circ", stderr);
    Module *m = parse_module("text.circ", text, sizeof text - 1, &d);
    EXPECT(ck, m && d.nerrors == 0, "a function whose first gate has no inputs parses");
    if (m)
        EXPECT(ck, verify(ck, m) == 0, "and verifies");
    module_free(m);
}

/* a root list entry that is no gate of the function (one past the last, or far out) */
static void test_root_list_out_of_range(Check *ck)
{
    for (int far = 0; far < 2; far++) {
        Module *m = module_new("built.circ");
        GateId x;
        Func *f = new_func(m, &x);
        add_return(f->circ, ROOT_STATE_ENTRY, x);
        EXPECT(ck, verify(ck, m) == 0, "the function verifies before the list is spoiled");
        RootList *args = &f->circ->lists[ROOT_ARG_LIST];
        GateId bad = f->circ->ngates + (far ? 1000 : 0);
        if (args->n == 1 && args->items[0] == x)
            args->items[0] = bad;
        char want[120];
        snprintf(want, sizeof want, "ARG_LIST registers gate %u, which is not a gate of the function", bad);
        EXPECT(ck, verify(ck, m) >= 1 && said(ck, want), "an entry %s the gates is refused: %s",
               far ? "far past" : "just past", want);
        module_free(m);
    }
}

int main(void)
{
    Check ck = {0};
    test_parse_gates_without_references(&ck);
    test_valid_and_dead(&ck);
    test_missing_and_removed_inputs(&ck);
    test_roots_as_inputs(&ck);
    test_root_list_out_of_range(&ck);
    test_literals(&ck);
    test_scale(&ck);
    test_keep_first(&ck);
    free(ck.text);
    if (ck.failures) {
        fprintf(stderr, "ir_verify_api: %d failure(s)\n", ck.failures);
        return 1;
    }
    printf("ir_verify_api: all checks passed\n");
    return 0;
}
