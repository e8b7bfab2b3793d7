/* main.c — an out-of-tree program on libcirc's public API (include/circ/circ.h):
 * parse a module, verify it, run it under the reference interpreter, optimize it at
 * -O2 and run it again, check it differentially, compile it for every target, and
 * check a generated module.  Prints what it did; exit 0 when every step gave what
 * it should. */
#include <circ/circ.h>

#include <stdlib.h>
#include <string.h>

static const char src[] = "func @mix(i32, i32) -> i32 {\n"
                          "  %a = ARG i32 0\n"
                          "  %b = ARG i32 1\n"
                          "  %two = CONSTANT i32 2\n"
                          "  %m = MUL i32 (%a, %two)\n"
                          "  %s = SUB i32 (%m, %b)\n"
                          "  RETURN [entry] {entry} (%s)\n"
                          "}\n"
                          "; run: @mix(20, -2) == 42\n";

static int fail(const char *what, const char *why)
{
    fprintf(stderr, "consumer: %s: %s\n", what, why);
    return 1;
}

static int run_mix(const circ_module *m, const char *when)
{
    uint64_t args[2] = {20, (uint64_t)(uint32_t)-2};
    circ_outcome out;
    if (circ_run(m, "mix", args, 2, &out) || out.kind != CIRC_OUT_RETURN || out.value != 42)
        return fail("run", out.text);
    printf("@mix(20, -2) %s: %s\n", when, out.text);
    return 0;
}

static int compile_all(const circ_module *m)
{
    for (unsigned i = 0; i < circ_target_count(); i++) {
        uint8_t *code;
        size_t len;
        char err[256];
        if (circ_compile(m, circ_target_name(i), 2, &code, &len, err, sizeof err) || !len)
            return fail("compile", err);
        printf("%s: %zu bytes of code\n", circ_target_name(i), len);
        free(code);
    }
    return 0;
}

int main(void)
{
    if (circ_version() >> 16 != CIRC_VERSION_MAJOR)
        return fail("version", "the library's major version is not the header's");
    printf("circ API %u.%u\n", circ_version() >> 16, circ_version() & 0xffff);
    char err[512];
    circ_module *m = circ_module_parse("mix.circ", src, strlen(src), err, sizeof err);
    if (!m)
        return fail("parse", err);
    if (circ_module_verify(m, err, sizeof err))
        return fail("verify", err);
    int bad = run_mix(m, "as written");
    if (circ_module_optimize(m, 2, NULL, err, sizeof err))
        return fail("optimize", err);
    bad |= run_mix(m, "after -O2");
    circ_check_result res;
    if (circ_check(m, NULL, 0, &res) != 0)
        return fail("check", res.signature);
    bad |= compile_all(m);
    circ_module_print(m, stdout);
    circ_module_free(m);
    circ_module *g = circ_module_generate(7, 50, 3);
    if (!g || circ_check(g, "pass,O2", 0, &res) != 0)
        return fail("generated module", g ? res.signature : "not made");
    printf("generated: %u functions, %u run lines, checked\n", circ_module_function_count(g),
           circ_module_run_count(g));
    circ_module_free(g);
    return bad;
}
