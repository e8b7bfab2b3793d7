/* api_unit.c — the public API (include/circ/circ.h) used as a program would use it
 * (linked with libcirc, public headers only): a loop built gate by gate with forward
 * references, read back through the accessors, printed and parsed again, run and
 * checked; every misuse (bad ids, opcodes, types, names, counts, versions, plugins,
 * pass lists) gives its error result and message, never a crash; a pass that breaks
 * the circuit is named by the pass manager; and two threads use the library at once. */
#include <circ/circ.h>

#include "test_check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static circ_gate_id add(circ_function *f, const char *op, circ_type t, const circ_gate_id *s, unsigned ns,
                        const circ_gate_id *d, unsigned nd, const circ_gate_id *v, unsigned nv)
{
    return circ_gate_add(f, circ_opcode_find(op), t, 0, 0, s, ns, d, nd, v, nv);
}

/* func @sum(i32) -> i32: 0 + 1 + ... + (n - 1) for n >= 1, a loop whose selectors
 * and LOOP_BEGIN name gates made after them */
static circ_module *build_sum(void)
{
    char err[256];
    circ_module *m = circ_module_new("sum.circ");
    circ_type p = CIRC_I32;
    circ_function *f = circ_module_add_function(m, "sum", &p, 1, CIRC_I32, err, sizeof err);
    circ_gate_id n = circ_gate_add(f, circ_opcode_find("ARG"), CIRC_I32, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    circ_gate_id zero = circ_gate_constant(f, CIRC_I32, 0), one = circ_gate_constant(f, CIRC_I32, 1);
    circ_gate_id head_in[2] = {CIRC_STATE_ENTRY, CIRC_NO_GATE};
    circ_gate_id head = add(f, "LOOP_BEGIN", CIRC_VOID, head_in, 2, NULL, 0, NULL, 0);
    circ_gate_id i_in[2] = {zero, CIRC_NO_GATE}, s_in[2] = {zero, CIRC_NO_GATE};
    circ_gate_id i = add(f, "VALUE_SELECTOR", CIRC_I32, &head, 1, NULL, 0, i_in, 2);
    circ_gate_id s = add(f, "VALUE_SELECTOR", CIRC_I32, &head, 1, NULL, 0, s_in, 2);
    circ_gate_id inc[2] = {i, one}, acc[2] = {s, i};
    circ_gate_id i1 = add(f, "ADD", CIRC_I32, NULL, 0, NULL, 0, inc, 2);
    circ_gate_id s1 = add(f, "ADD", CIRC_I32, NULL, 0, NULL, 0, acc, 2);
    circ_gate_id cmp_in[2] = {i1, n};
    circ_gate_id more = circ_gate_add(f, circ_opcode_find("ICMP"), CIRC_I1, circ_cond_find(circ_opcode_find("ICMP"), "slt"),
                                      0, NULL, 0, NULL, 0, cmp_in, 2);
    circ_gate_id br = add(f, "IF_BRANCH", CIRC_VOID, &head, 1, NULL, 0, &more, 1);
    circ_gate_id body = add(f, "IF_TRUE", CIRC_VOID, &br, 1, NULL, 0, NULL, 0);
    circ_gate_id back = add(f, "LOOP_BACK", CIRC_VOID, &body, 1, NULL, 0, NULL, 0);
    circ_gate_id out = add(f, "IF_FALSE", CIRC_VOID, &br, 1, NULL, 0, NULL, 0);
    circ_gate_id dep = CIRC_DEPEND_ENTRY;
    add(f, "RETURN", CIRC_VOID, &out, 1, &dep, 1, &s1, 1);
    CHECK(!circ_gate_set_input(f, head, CIRC_IN_STATE, 1, back), "loop back edge");
    CHECK(!circ_gate_set_input(f, i, CIRC_IN_DATA, 1, i1), "i's back value");
    CHECK(!circ_gate_set_input(f, s, CIRC_IN_DATA, 1, s1), "s's back value");
    CHECK(!circ_gate_set_name(f, s1, "total"), "name");
    return m;
}

static void test_build_and_read(void)
{
    circ_module *m = build_sum();
    char err[256];
    CHECK(circ_module_verify(m, err, sizeof err) == 0, "the built loop verifies: %s", err);
    uint64_t five = 5;
    CHECK(!circ_module_add_run(m, "sum", &five, 1, err, sizeof err), "run line: %s", err);
    circ_outcome out;
    CHECK(!circ_run(m, "sum", &five, 1, &out) && out.value == 10, "sum(5) = 10, got %s", out.text);
    circ_check_result res;
    CHECK(circ_check(m, "pass,O2,sched", 0, &res) == 0, "the check agrees: %s", res.signature);
    char *text = circ_module_text(m);
    CHECK(text && strstr(text, "%total = ADD i32") && strstr(text, "; run: @sum(5) == 10"), "text:\n%s", text ? text : "(none)");
    circ_module *again = text ? circ_module_parse("again.circ", text, strlen(text), err, sizeof err) : NULL;
    char *text2 = again ? circ_module_text(again) : NULL;
    CHECK(text2 && !strcmp(text, text2), "print -> parse -> print is stable");
    free(text);
    free(text2);
    circ_module_free(again);

    circ_function *f = circ_module_find_function(m, "sum");
    CHECK(f && circ_module_function(m, 0) == f && !circ_module_function(m, 1), "function handles");
    CHECK(!strcmp(circ_function_name(f), "sum") && circ_function_param_count(f) == 1 &&
              circ_function_param_type(f, 0) == CIRC_I32 && circ_function_param_type(f, 1) == CIRC_VOID &&
              circ_function_return_type(f) == CIRC_I32,
          "signature");
    circ_gate_id total = CIRC_NO_GATE;
    for (circ_gate_id g = CIRC_FIRST_GATE; g < circ_gate_count(f); g++)
        if (circ_gate_name(f, g) && !strcmp(circ_gate_name(f, g), "total"))
            total = g;
    CHECK(total != CIRC_NO_GATE && circ_gate_opcode(f, total) == circ_opcode_find("ADD"), "found %%total");
    CHECK(circ_gate_input_count(f, total, CIRC_IN_DATA) == 2 && circ_gate_input_count(f, total, CIRC_IN_STATE) == 0,
          "input counts");
    unsigned uses = circ_gate_use_count(f, total), seen_return = 0;
    for (unsigned u = 0; u < uses; u++) {
        circ_input_kind kind;
        unsigned index;
        circ_gate_id user = circ_gate_user(f, total, u, &kind, &index);
        CHECK(circ_gate_input(f, user, kind, index) == total, "use %u points back", u);
        seen_return += circ_gate_opcode(f, user) == circ_opcode_find("RETURN") && kind == CIRC_IN_DATA && index == 0;
    }
    CHECK(uses == 2 && seen_return == 1, "%%total: %u uses, RETURN among them %u", uses, seen_return);
    circ_module_free(m);
}

static void test_misuse(void)
{
    char err[256] = "";
    circ_module *m = circ_module_new(NULL);
    circ_type p[1] = {CIRC_I64};
    circ_function *f = circ_module_add_function(m, "f", p, 1, CIRC_I64, err, sizeof err);
    CHECK(f, "@f");
    CHECK(!circ_module_add_function(m, "f", p, 1, CIRC_I64, err, sizeof err) && strstr(err, "already"), "%s", err);
    CHECK(!circ_module_add_function(m, "a b", p, 1, CIRC_I64, err, sizeof err) && strstr(err, "bad function name"),
          "%s", err);
    circ_type bad = (circ_type)42;
    CHECK(!circ_module_add_function(m, "g", &bad, 1, CIRC_I64, err, sizeof err), "bad parameter type");
    CHECK(circ_module_add_extern(m, "no_such_runtime_function") == -1, "unknown extern");
    CHECK(circ_opcode_find("STATE_ENTRY") == -1 && circ_opcode_find("NOPE") == -1 && circ_opcode_find(NULL) == -1,
          "roots and unknown names are no opcodes");
    CHECK(circ_cond_find(circ_opcode_find("ADD"), "slt") == -1, "ADD has no condition");
    CHECK(circ_opcode_name(-1) == NULL && circ_opcode_name(1 << 20) == NULL, "opcode names out of range");
    circ_gate_id x = circ_gate_add(f, circ_opcode_find("ARG"), CIRC_I64, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    circ_gate_id far = 123456;
    CHECK(circ_gate_add(f, 0, CIRC_I64, 0, 0, NULL, 0, NULL, 0, NULL, 0) == CIRC_NO_GATE, "a root opcode");
    CHECK(circ_gate_add(f, -5, CIRC_I64, 0, 0, NULL, 0, NULL, 0, NULL, 0) == CIRC_NO_GATE, "opcode -5");
    CHECK(circ_gate_add(f, circ_opcode_find("ADD"), bad, 0, 0, NULL, 0, NULL, 0, NULL, 0) == CIRC_NO_GATE, "type 42");
    CHECK(circ_gate_add(f, circ_opcode_find("ADD"), CIRC_I64, 0, 0, NULL, 0, NULL, 0, &far, 1) == CIRC_NO_GATE,
          "an input that is no gate");
    CHECK(circ_gate_add(f, circ_opcode_find("ADD"), CIRC_I64, 0, 0, NULL, 0, NULL, 0, NULL, 2) == CIRC_NO_GATE,
          "two inputs, no array");
    CHECK(circ_gate_opcode(f, far) == -1 && circ_gate_is_dead(f, far) && !circ_gate_name(f, far) &&
              circ_gate_input(f, far, CIRC_IN_DATA, 0) == CIRC_NO_GATE && circ_gate_use_count(f, far) == 0,
          "reading a bad id");
    CHECK(circ_gate_set_input(f, x, CIRC_IN_DATA, 0, x) == -1, "ARG has no data input 0");
    CHECK(circ_gate_set_name(f, x, "%x") == -1 && circ_gate_set_name(f, CIRC_STATE_ENTRY, "e") == -1, "bad names");
    circ_gate_id y = circ_gate_constant(f, CIRC_I64, 7);
    CHECK(!circ_gate_set_name(f, x, "x") && circ_gate_set_name(f, y, "x") == -1, "a name taken");
    circ_gate_id sum_in[2] = {x, y};
    circ_gate_id s = circ_gate_add(f, circ_opcode_find("ADD"), CIRC_I64, 0, 0, NULL, 0, NULL, 0, sum_in, 2);
    CHECK(circ_gate_kill(f, x) == -1 && circ_gate_kill(f, CIRC_DEPEND_ENTRY) == -1, "killing a used gate or a root");
    CHECK(circ_module_verify(m, err, sizeof err) > 0 && strstr(err, "error"), "no RETURN yet: %s", err);
    circ_gate_id st = CIRC_STATE_ENTRY, dp = CIRC_DEPEND_ENTRY;
    circ_gate_add(f, circ_opcode_find("RETURN"), CIRC_VOID, 0, 0, &st, 1, &dp, 1, &s, 1);
    CHECK(circ_module_verify(m, err, sizeof err) == 0, "%s", err);
    uint64_t a[2] = {1, 2};
    CHECK(circ_module_add_run(m, "f", a, 2, err, sizeof err) == -1 && strstr(err, "takes 1 arguments"), "%s", err);
    CHECK(circ_module_add_run(m, "nope", a, 1, err, sizeof err) == -1 && strstr(err, "no function"), "%s", err);
    circ_module_free(m);
}

static int break_return(circ_function *f, void *user)
{
    (void)user;
    for (circ_gate_id g = CIRC_FIRST_GATE; g < circ_gate_count(f); g++)
        if (circ_gate_opcode(f, g) == circ_opcode_find("RETURN"))
            circ_gate_set_input(f, g, CIRC_IN_DATA, 0, CIRC_NO_GATE);
    return 1;
}

static int nothing(circ_function *f, void *user)
{
    (void)f;
    ++*(int *)user;
    return 0;
}

static void test_passes(void)
{
    circ_pass_registry *r = circ_pass_registry_new();
    int calls = 0;
    circ_pass ok = {"count-calls", NULL, nothing, &calls}, breaker = {"break-return", "breaks", break_return, NULL};
    CHECK(!circ_pass_register(r, &ok) && !circ_pass_register(r, &breaker), "%s", circ_pass_registry_error(r));
    circ_pass dup = ok, builtin = {"fold", NULL, nothing, NULL}, comma = {"a,b", NULL, nothing, NULL},
              none = {"none", NULL, NULL, NULL};
    CHECK(circ_pass_register(r, &dup) == -1 && strstr(circ_pass_registry_error(r), "registered already"), "%s",
          circ_pass_registry_error(r));
    circ_pass_registry_free(r);
    r = circ_pass_registry_new();
    CHECK(circ_pass_register(r, &builtin) == -1 && strstr(circ_pass_registry_error(r), "built-in"), "builtin");
    circ_pass_registry_free(r);
    r = circ_pass_registry_new();
    CHECK(circ_pass_register(r, &comma) == -1 && circ_pass_register(r, &none) == -1, "bad name, no callback");
    CHECK(circ_pass_register_version(r, &ok, (CIRC_VERSION_MAJOR + 1u) << 16) == -1, "another major version");
    circ_pass_registry_free(r);
    r = circ_pass_registry_new();
    CHECK(circ_pass_register_version(r, &ok, CIRC_VERSION + 1) == -1, "a newer minor version");
    char want[128];
    snprintf(want, sizeof want, "built for circ API %u.%u, this circ is %u.%u", CIRC_VERSION_MAJOR,
             CIRC_VERSION_MINOR + 1, CIRC_VERSION_MAJOR, CIRC_VERSION_MINOR);
    CHECK(strstr(circ_pass_registry_error(r), want), "'%s' lacks '%s'", circ_pass_registry_error(r), want);
    char err[512];
    CHECK(circ_pass_registry_load(r, "/nonexistent/plugin.so", err, sizeof err) == -1 &&
              strstr(err, "cannot load plugin"),
          "%s", err);
    CHECK(circ_pass_registry_count(r) == 0, "nothing registered");
    CHECK(!circ_pass_register(r, &ok) && !circ_pass_register(r, &breaker), "register");
    CHECK(circ_pass_registry_count(r) == 2 && !strcmp(circ_pass_registry_name(r, 1), "break-return"), "names");

    circ_module *m = build_sum();
    circ_pass_manager *pm = circ_pass_manager_new(r);
    CHECK(circ_pass_manager_set_pipeline(pm, 0, "fold,nope", err, sizeof err) == -1 && strstr(err, "unknown pass"),
          "%s", err);
    CHECK(!circ_pass_manager_set_pipeline(pm, 0, "count-calls,fold", err, sizeof err), "%s", err);
    CHECK(!circ_pass_manager_run(pm, m, err, sizeof err) && calls == 1, "ran once: %d", calls);
    CHECK(!circ_pass_manager_set_pipeline(pm, 0, "break-return", err, sizeof err), "%s", err);
    CHECK(circ_pass_manager_run(pm, m, err, sizeof err) == -1 && strstr(err, "after pass 'break-return'"), "%s", err);
    circ_pass_manager_free(pm);
    circ_module_free(m);
    circ_pass_registry_free(r);
}

/* each thread builds, runs and checks its own module */
static void *worker(void *arg)
{
    int *ok = arg;
    for (int k = 0; k < 3; k++) {
        circ_module *m = build_sum();
        uint64_t n = 10 + (uint64_t)k;
        circ_outcome out;
        circ_check_result res;
        *ok &= !circ_module_add_run(m, "sum", &n, 1, NULL, 0) && !circ_run(m, "sum", &n, 1, &out) &&
               out.value == n * (n - 1) / 2 && circ_check(m, "pass,O2,x86-64-O2", 0, &res) == 0;
        circ_module_free(m);
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t t[2];
    int ok[2] = {1, 1};
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, &ok[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    CHECK(ok[0] && ok[1], "two threads at once: %d %d", ok[0], ok[1]);
}

int main(void)
{
    test_build_and_read();
    test_misuse();
    test_passes();
    test_threads();
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("api unit: %d checks ok\n", checks);
    return failures != 0;
}
