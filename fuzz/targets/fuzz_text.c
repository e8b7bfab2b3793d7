/* fuzz_text.c — libFuzzer target: arbitrary text -> parser -> verifier -> printer ->
 * parser -> printer.  Nothing may crash; a module that parses and verifies must
 * print to text that parses and verifies again and prints the same (the printer's
 * output is a fixed point), with the same functions and run lines. */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

static char *print_to_string(const Module *m, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        abort();
    print_module(f, m);
    fclose(f);
    return text;
}

static void fail(const char *what, const char *text)
{
    fprintf(stderr, "fuzz_text: %s\n--- printed text ---\n%s\n", what, text);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Diag d;
    diag_init(&d, "<input>", NULL);
    Module *m = parse_module("<input>", (const char *)data, size, &d);
    if (!m || verify_module(m, &d)) {
        module_free(m);
        return 0;
    }
    size_t len1, len2;
    char *text1 = print_to_string(m, &len1);
    Module *again = parse_module("<printed>", text1, len1, &d);
    if (!again)
        fail("the printed module does not parse", text1);
    if (verify_module(again, &d))
        fail("the printed module does not verify", text1);
    if (again->nfuncs != m->nfuncs || again->nruns != m->nruns)
        fail("the printed module has other functions or run lines", text1);
    char *text2 = print_to_string(again, &len2);
    if (len1 != len2 || memcmp(text1, text2, len1))
        fail("printing the reparsed module gives other text", text2);
    free(text1);
    free(text2);
    module_free(again);
    module_free(m);
    return 0;
}
