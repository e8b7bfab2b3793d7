/* objheader.c — the C header of a module's object (objwrite.h): a prototype per
 * function and, under CIRC_MODULE_TABLE, a caller per function taking and giving
 * bits, listed in circ_module_funcs for a generic driver (runtime/main.c). */
#include "compiler/lir/objwrite.h"
#include "compiler/lir/lower.h"

#include <ctype.h>
#include <string.h>

static const char *const c_types[TY_COUNT] = {
    [TY_NONE] = "void", [TY_I1] = "bool", [TY_I8] = "int8_t", [TY_I16] = "int16_t",
    [TY_I32] = "int32_t", [TY_I64] = "int64_t", [TY_F32] = "float", [TY_F64] = "double",
};

static bool is_c_keyword(const char *s)
{
    static const char *const words[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
        "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
        "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
        "volatile", "while", "bool", "true", "false",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(s, words[i]) || (s[0] == '_' && (isupper((unsigned char)s[1]) || s[1] == '_')))
            return true;
    return false;
}

/* a symbol C can name as it is */
static bool is_c_name(const char *prefix, const char *name)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s%s", prefix, name);
    if (!buf[0] || isdigit((unsigned char)buf[0]) || is_c_keyword(buf))
        return false;
    for (const char *p = buf; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    return true;
}

/* the name C calls f by: its symbol, or circ_fn_N bound to the symbol by __asm__ */
static void print_c_name(FILE *out, const Func *f, const char *prefix)
{
    if (is_c_name(prefix, f->name))
        fprintf(out, "%s%s", prefix, f->name);
    else
        fprintf(out, "circ_fn_%u", f->index);
}

static void print_prototype(FILE *out, const Func *f, const char *prefix)
{
    fprintf(out, "%s ", c_types[f->ret]);
    print_c_name(out, f, prefix);
    fprintf(out, "(");
    for (uint32_t i = 0; i < f->nparams; i++)
        fprintf(out, "%s%s", i ? ", " : "", c_types[f->params[i]]);
    fprintf(out, "%s)", f->nparams ? "" : "void");
    if (!is_c_name(prefix, f->name))
        fprintf(out, " __asm__(\"%s%s\")", prefix, f->name);
    fprintf(out, ";\n");
}

/* argument i of a caller: its bits as the parameter's C type */
static void print_arg(FILE *out, Type t, uint32_t i)
{
    if (t == TY_F32 || t == TY_F64)
        fprintf(out, "circ_rt_f%s(a[%u])", t == TY_F32 ? "32" : "64", i);
    else if (t == TY_I1)
        fprintf(out, "(bool)(a[%u] & 1)", i);
    else
        fprintf(out, "(%s)a[%u]", c_types[t], i);
}

/* the result as bits, masked to its width */
static const char *result_open(Type t)
{
    switch (t) {
    case TY_I1: return "*r = (uint64_t)";
    case TY_I8: return "*r = (uint8_t)";
    case TY_I16: return "*r = (uint16_t)";
    case TY_I32: return "*r = (uint32_t)";
    case TY_I64: return "*r = (uint64_t)";
    case TY_F32: return "*r = circ_rt_f32_bits(";
    case TY_F64: return "*r = circ_rt_f64_bits(";
    default: return "*r = 0; (";
    }
}

/* a caller of a function compiled with the threw flag: by register file
 * (circ_rt_call_flagged), the one way C reads the flag next to a float result */
static void print_flagged_caller(FILE *out, const Func *f, const char *prefix)
{
    fprintf(out, "static void circ_call_%u(const uint64_t *a, uint64_t *r)\n{\n", f->index);
    fprintf(out, "    static const uint8_t types[] = {");
    for (uint32_t i = 0; i < f->nparams; i++)
        fprintf(out, "%s%u", i ? ", " : "", (unsigned)f->params[i]);
    fprintf(out, "%s};\n", f->nparams ? "" : "0");
    fprintf(out, "    *r = circ_rt_call_flagged((uint64_t)(uintptr_t)");
    print_c_name(out, f, prefix);
    fprintf(out, ", types, %u, %u, a);\n}\n", f->nparams, (unsigned)f->ret);
}

static void print_caller(FILE *out, const Func *f, const char *prefix)
{
    fprintf(out, "static void circ_call_%u(const uint64_t *a, uint64_t *r)\n{\n    (void)a;\n    %s",
            f->index, result_open(f->ret));
    bool paren = f->ret == TY_F32 || f->ret == TY_F64 || f->ret == TY_NONE;
    print_c_name(out, f, prefix);
    fprintf(out, "(");
    for (uint32_t i = 0; i < f->nparams; i++) {
        fprintf(out, "%s", i ? ", " : "");
        print_arg(out, f->params[i], i);
    }
    fprintf(out, ")%s;\n}\n", paren ? ")" : "");
}

bool obj_write_header(FILE *out, const Module *m, const char *prefix)
{
    prefix = prefix ? prefix : "";
    fprintf(out, "/* the functions of %s (circ compile --emit=header) */\n#pragma once\n\n", m->file);
    fprintf(out, "#include <stdbool.h>\n#include <stdint.h>\n\n");
    for (uint32_t i = 0; i < m->nfuncs; i++)
        print_prototype(out, m->funcs[i], prefix);
    fprintf(out, "\n#ifdef CIRC_MODULE_TABLE\n#include \"circ_rt.h\"\n\n");
    bool flagged = lower_module_may_throw(m);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        (flagged ? print_flagged_caller : print_caller)(out, m->funcs[i], prefix);
    fprintf(out, "\nstatic const CircRtFunc circ_module_funcs[] = {\n");
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        fprintf(out, "    {\"%s\", circ_call_%u, %u, %s, (uint64_t)(uintptr_t)", m->funcs[i]->name, i,
                m->funcs[i]->nparams, m->funcs[i]->ret == TY_NONE ? "true" : "false");
        print_c_name(out, m->funcs[i], prefix);
        fprintf(out, "},\n");
    }
    if (!m->nfuncs)
        fprintf(out, "    {0, 0, 0, false, 0},\n");
    fprintf(out, "};\nenum { CIRC_MODULE_NFUNCS = %u };\n#endif\n", m->nfuncs);
    return !ferror(out);
}
