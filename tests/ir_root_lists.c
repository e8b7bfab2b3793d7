/* ir_root_lists.c — the root lists (ir.h RootList): the parser and the builder
 * register every RETURN, THROW, CONSTANT, ALLOCA and ARG in its list, a clone keeps
 * them, killed gates leave (compaction), and the verifier reports a list that is not
 * current: a gate missing, listed twice, or listed in the wrong list. */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(cond, ...)                                                   \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);            \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
            failures++;                                                     \
        }                                                                   \
    } while (0)

static const char *const src =
    "func @f(i64, i1) -> i64 {\n"
    "  %p = ARG i64 0\n  %c = ARG i1 1\n  %a = ALLOCA 8\n  %k = CONSTANT i64 5\n"
    "  %k2 = CONSTANT i64 7\n  %b = IF_BRANCH [entry] (%c)\n  %t = IF_TRUE [%b]\n"
    "  %e = IF_FALSE [%b]\n  %s = STORE {entry} (%k, %a)\n  %l = LOAD i64 {%s} (%a)\n"
    "  RETURN [%t] {%l} (%l)\n  THROW [%e] {entry} (%k2)\n}\n";

/* the live gates root list `root` registers */
static uint32_t live_listed(const Circuit *c, int root)
{
    uint32_t n, live = 0;
    const GateId *items = circ_root_list(c, root, &n);
    for (uint32_t i = 0; i < n; i++)
        live += !c->gates[items[i]].dead;
    return live;
}

/* verify f, returning the diagnostics (caller frees) */
static char *verify_text(const Func *f, int *errors)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    Diag d;
    diag_init(&d, "lists.circ", out);
    *errors = verify_func(f, &d);
    fclose(out);
    return text;
}

static void expect_error(const Func *f, const char *what)
{
    int errors;
    char *text = verify_text(f, &errors);
    EXPECT(errors > 0 && strstr(text, what), "expected \"%s\", got:\n%s", what, text);
    free(text);
}

static void test_registered(const Module *m)
{
    const Circuit *c = m->funcs[0]->circ;
    EXPECT(live_listed(c, ROOT_RETURN_LIST) == 1, "RETURN_LIST");
    EXPECT(live_listed(c, ROOT_THROW_LIST) == 1, "THROW_LIST");
    EXPECT(live_listed(c, ROOT_CONSTANT_LIST) == 2, "CONSTANT_LIST");
    EXPECT(live_listed(c, ROOT_ALLOCA_LIST) == 1, "ALLOCA_LIST");
    EXPECT(live_listed(c, ROOT_ARG_LIST) == 2, "ARG_LIST");
    EXPECT(live_listed(c, ROOT_STATE_ENTRY) == 0, "STATE_ENTRY lists nothing");
    int errors;
    free(verify_text(m->funcs[0], &errors));
    EXPECT(errors == 0, "a parsed function verifies");
}

/* builder: new constants are listed; killing most of them compacts the list */
static void test_builder(Module *m)
{
    Circuit *c = m->funcs[0]->circ;
    GateId made[64];
    for (int i = 0; i < 64; i++)
        made[i] = circ_const(c, TY_I32, (uint64_t)i);
    EXPECT(live_listed(c, ROOT_CONSTANT_LIST) == 66, "built constants are listed");
    for (int i = 0; i < 60; i++)
        circ_kill(c, made[i]);
    uint32_t n;
    circ_root_list(c, ROOT_CONSTANT_LIST, &n);
    EXPECT(live_listed(c, ROOT_CONSTANT_LIST) == 6 && n < 40, "killed constants leave (n %u)", n);
    Module *k = module_clone(m);
    EXPECT(live_listed(k->funcs[0]->circ, ROOT_CONSTANT_LIST) == 6, "a clone keeps the lists");
    int errors;
    free(verify_text(k->funcs[0], &errors));
    EXPECT(errors == 0, "the clone verifies");
    module_free(k);
}

/* a list that is not current is reported */
static void test_stale(const Module *m)
{
    Module *k = module_clone(m);
    Circuit *c = k->funcs[0]->circ;
    RootList *args = &c->lists[ROOT_ARG_LIST];
    GateId last = args->items[args->n - 1];
    args->n--;
    expect_error(k->funcs[0], "this ARG is not registered in ARG_LIST");
    args->items[args->n++] = last;
    args->items[0] = last;
    expect_error(k->funcs[0], "ARG_LIST registers it more than once");
    RootList *rets = &c->lists[ROOT_RETURN_LIST];
    rets->items[0] = c->lists[ROOT_THROW_LIST].items[0];
    expect_error(k->funcs[0], "RETURN_LIST registers it, but a THROW belongs in THROW_LIST");
    module_free(k);
}

int main(void)
{
    Diag d;
    diag_init(&d, "lists.circ", stderr);
    Module *m = parse_module("lists.circ", src, strlen(src), &d);
    if (!m)
        return 1;
    test_registered(m);
    test_stale(m);
    test_builder(m);
    module_free(m);
    if (failures) {
        fprintf(stderr, "ir_root_lists: %d failure(s)\n", failures);
        return 1;
    }
    printf("ir_root_lists: all checks passed\n");
    return 0;
}
