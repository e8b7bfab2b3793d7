/* opt_manager.c — the pass manager itself: registry and plugin hook, pipeline
 * parsing, --opt-bisect-limit counting and logging, --print-after headers, and
 * --verify-each stopping at (and naming) a pass that breaks the circuit. */
#include "compiler/opt/opt.h"

#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...)                                                                                          \
    do {                                                                                                          \
        if (!(cond)) {                                                                                            \
            failures++;                                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                              \
            fprintf(stderr, __VA_ARGS__);                                                                         \
            fputc('\n', stderr);                                                                                  \
        }                                                                                                         \
    } while (0)

static const char program[] =
    "func @f(i32) -> i32 {\n"
    "  %x = ARG i32 0\n"
    "  %one = CONSTANT i32 1\n"
    "  %m = MUL i32 (%x, %one)\n"
    "  RETURN [entry] {entry} (%m)\n"
    "}\n"
    "func @g() -> i32 {\n"
    "  %a = CONSTANT i32 2\n"
    "  %b = ADD i32 (%a, %a)\n"
    "  RETURN [entry] {entry} (%b)\n"
    "}\n";

static Module *load(void)
{
    Diag d;
    diag_init(&d, "manager.circ", stderr);
    Module *m = parse_module("manager.circ", program, sizeof program - 1, &d);
    if (!m || verify_module(m, &d)) {
        fprintf(stderr, "test program does not verify\n");
        exit(1);
    }
    return m;
}

/* breaks the circuit: the RETURN loses its value */
static bool break_ir(PassContext *ctx, Func *f)
{
    (void)ctx;
    Circuit *c = f->circ;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (!c->gates[g].dead && c->gates[g].op == OP_RETURN) {
            GateId s = c->gates[g].in[0], d = c->gates[g].in[1];
            circ_set_inputs(c, g, &s, 1, &d, 1, NULL, 0);
            return true;
        }
    return false;
}

static char *run_logged(PassOptions po, const char *passes, int level, int *result, Module **out)
{
    char *log = NULL;
    size_t len = 0;
    po.log = open_memstream(&log, &len);
    PassManager *pm = pm_new(&po);
    static const PassInfo breaker = {"break-ir", break_ir, "removes the returned value"};
    CHECK(pass_register(pm, &breaker), "plugin registration");
    char err[200];
    if (passes)
        CHECK(pm_set_passes(pm, passes, err, sizeof err), "%s", err);
    else
        pm_set_level(pm, level);
    Module *m = load();
    *result = pm_run(pm, m);
    fclose(po.log);
    pm_free(pm);
    if (out)
        *out = m;
    else
        module_free(m);
    return log;
}

static void test_registry(void)
{
    PassManager *pm = pm_new(NULL);
    const char *names[] = {"fold", "gvn", "dce", "simplify-cfg", "lse", "inline"};
    for (size_t i = 0; i < 6; i++)
        CHECK(pass_find(pm, names[i], strlen(names[i])), "builtin pass %s registered", names[i]);
    static const PassInfo dup = {"fold", break_ir, "same name"};
    CHECK(!pass_register(pm, &dup), "a second pass named fold is refused");
    char err[200] = "";
    CHECK(!pm_set_passes(pm, "fold,nosuch", err, sizeof err), "unknown pass accepted");
    CHECK(strstr(err, "nosuch") != NULL, "error names the unknown pass: %s", err);
    CHECK(pm_set_passes(pm, "fold,,dce", err, sizeof err), "empty items are skipped");
    pm_free(pm);
}

static void test_bisect(void)
{
    int res;
    PassOptions po = {.bisect_limit = 3};
    char *log = run_logged(po, "fold,dce", 0, &res, NULL);
    CHECK(res == 0, "bisect run succeeds");
    CHECK(strstr(log, "; bisect: running pass (1) fold on @f") != NULL, "first application logged:\n%s", log);
    CHECK(strstr(log, "; bisect: running pass (3) fold on @g") != NULL, "third application logged:\n%s", log);
    CHECK(strstr(log, "; bisect: NOT running pass (4) dce on @g") != NULL, "fourth skipped:\n%s", log);
    free(log);
    /* limit 0 runs nothing: @f keeps its MUL */
    Module *m;
    po.bisect_limit = 0;
    log = run_logged(po, "fold", 0, &res, &m);
    uint32_t muls = 0;
    for (GateId g = NUM_ROOTS; g < m->funcs[0]->circ->ngates; g++)
        muls += !m->funcs[0]->circ->gates[g].dead && m->funcs[0]->circ->gates[g].op == OP_MUL;
    CHECK(muls == 1, "limit 0 leaves the MUL");
    module_free(m);
    free(log);
}

static void test_print_after(void)
{
    int res;
    PassOptions po = {.bisect_limit = -1, .print_after = "dce"};
    char *log = run_logged(po, "fold,dce", 0, &res, NULL);
    CHECK(strstr(log, "; after dce on @f\nfunc @f(i32) -> i32 {\n  %x = ARG i32 0\n  RETURN [entry] {entry} (%x)\n}") != NULL,
          "dump after dce:\n%s", log);
    CHECK(strstr(log, "; after fold") == NULL, "no dump after fold");
    free(log);
    po.print_after = "all";
    log = run_logged(po, "fold,dce", 0, &res, NULL);
    CHECK(strstr(log, "; after fold on @g") && strstr(log, "; after dce on @g"), "dumps after every pass");
    free(log);
}

static void test_verify_each(void)
{
    int res;
    PassOptions po = {.bisect_limit = -1, .verify_each = true};
    char *log = run_logged(po, "fold,break-ir,dce", 0, &res, NULL);
    CHECK(res > 0, "a broken circuit is reported");
    CHECK(strstr(log, "after pass 'break-ir'") != NULL, "the error names the pass:\n%s", log);
    CHECK(strstr(log, "pass 'dce'") == NULL, "the run stopped at the failing pass");
    free(log);
    log = run_logged(po, NULL, 2, &res, NULL);
    CHECK(res == 0, "-O2 verifies after every pass:\n%s", log);
    free(log);
}

int main(void)
{
    test_registry();
    test_bisect();
    test_print_after();
    test_verify_each();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
