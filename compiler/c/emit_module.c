/* emit_module.c — the C backend's module (cemit.h): the prelude, the threw-flag
 * symbol, declarations, the functions, rt_apply's dispatch, the exported functions
 * with circ's calling convention, and the caller table of runtime/main.c. */
#include "compiler/c/cemit_internal.h"
#include "compiler/lir/lower.h"

#include <stdlib.h>
#include <string.h>

/* an exported parameter of type t (integers travel as 64-bit words) */
static const char *export_param_type(Type t) { return ty_is_float(t) ? c_type(t) : "cu64"; }

static const char *export_ret_type(const CEmit *e, Type t)
{
    if (e->throws && !ty_is_float(t))
        return "CircCRet";
    return t == TY_NONE ? "void" : ty_is_float(t) ? c_type(t) : "cu64";
}

/* the internal value of type t from the word or float `src` */
static void arg_from(CEmit *e, Type t, const char *src, bool bits)
{
    if (ty_is_float(t) && bits)
        c_from_bits(e, t, src);
    else if (ty_is_float(t))
        c_out(e, "%s", src);
    else
        c_out(e, "(%s)(%s%s)", c_type(t), src, t == TY_I1 ? " & 1u" : "");
}

/* "circ_c_fK(conv(a0), ...)" with the arguments named fmt % i */
static void call_internal(CEmit *e, const Func *f, const char *fmt, bool bits)
{
    c_out(e, "circ_c_fn%u(", f->index);
    for (uint32_t i = 0; i < f->nparams; i++) {
        char src[32];
        snprintf(src, sizeof src, fmt, i);
        c_out(e, "%s", i ? ", " : "");
        arg_from(e, f->params[i], src, bits);
    }
    c_out(e, ")");
}

static void export_head(CEmit *e, const Func *f)
{
    c_out(e, "%s circ_c_x%u(", export_ret_type(e, f->ret), f->index);
    for (uint32_t i = 0; i < f->nparams; i++)
        c_out(e, "%s%s a%u", i ? ", " : "", export_param_type(f->params[i]), i);
    c_out(e, "%s)", f->nparams ? "" : "void");
}

/* do f's arguments all travel in registers (x86-64: 6 integer, 8 float; AArch64 more) */
static bool args_in_registers(const Func *f)
{
    uint32_t ints = 0, floats = 0;
    for (uint32_t i = 0; i < f->nparams; i++)
        ty_is_float(f->params[i]) ? floats++ : ints++;
    return ints <= 6 && floats <= 8;
}

/* a float function of a throwing module: circ returns the value in xmm0 / v0 and the
 * bits and the flag in rax:rdx / x0:x1.  An asm thunk calls circ_c_xiK (the bits and
 * the flag as a CircCRet) and moves the bits to the float register; with arguments
 * on the stack (which the thunk's frame would move) the registers are pinned by an
 * empty asm instead (CIRC_C_RET_REGS, docs/cbackend.md) */
static void emit_float_export(CEmit *e, const Func *f)
{
    unsigned k = f->index, w = (unsigned)ty_bits(f->ret);
    bool thunk = args_in_registers(f);
    c_out(e, "static %sCircCRet circ_c_xi%u(", thunk ? "__attribute__((used)) " : "", k);
    for (uint32_t i = 0; i < f->nparams; i++)
        c_out(e, "%s%s a%u", i ? ", " : "", export_param_type(f->params[i]), i);
    c_out(e, "%s)\n{\n    return ", f->nparams ? "" : "void");
    call_internal(e, f, "a%u", false);
    c_out(e, ";\n}\n");
    if (thunk) {
        const char *name = f->name, *pre = e->prefix;
        c_out(e, "#if defined(__x86_64__)\n__asm__(\".pushsection .text\\n.globl %s%s\\n.type %s%s, @function\\n"
                 ".p2align 4\\n%s%s:\\n\\tsub $8, %%rsp\\n\\tcall circ_c_xi%u\\n\\tadd $8, %%rsp\\n"
                 "\\tmovq %%rax, %%xmm0\\n\\tret\\n.size %s%s, .-%s%s\\n.popsection\");\n",
              pre, name, pre, name, pre, name, k, pre, name, pre, name);
        c_out(e, "#elif defined(__aarch64__)\n__asm__(\".pushsection .text\\n.globl %s%s\\n.type %s%s, %%function\\n"
                 ".p2align 4\\n%s%s:\\n\\tstp x29, x30, [sp, #-16]!\\n\\tmov x29, sp\\n\\tbl circ_c_xi%u\\n"
                 "\\tfmov %s0, %s0\\n\\tldp x29, x30, [sp], #16\\n\\tret\\n.size %s%s, .-%s%s\\n.popsection\");\n#else\n",
              pre, name, pre, name, pre, name, k, w == 32 ? "s" : "d", w == 32 ? "w" : "x", pre, name, pre, name);
    }
    export_head(e, f);
    c_out(e, "\n{\n    return circ_c_ret%u(circ_c_xi%u(", w, k);
    for (uint32_t i = 0; i < f->nparams; i++)
        c_out(e, "%sa%u", i ? ", " : "", i);
    c_out(e, "));\n}\n%s", thunk ? "#endif\n" : "");
}

static void emit_export(CEmit *e, const Func *f)
{
    bool float_ret = ty_is_float(f->ret);
    if (e->throws && float_ret) {
        emit_float_export(e, f);
        return;
    }
    export_head(e, f);
    c_out(e, "\n{\n    ");
    if (f->ret != TY_NONE || e->throws)
        c_out(e, "return (%s)", export_ret_type(e, f->ret));
    call_internal(e, f, "a%u", false);
    c_out(e, ";\n}\n");
}

/* the caller runtime/main.c calls (arguments and result as bits, a throw through
 * circ_rt_throw) */
static void emit_caller(CEmit *e, const Func *f)
{
    c_out(e, "static void circ_c_call%u(const uint64_t *args, uint64_t *ret)\n{\n    (void)args;\n    ", f->index);
    if (e->throws) {
        c_out(e, "CircCRet r = ");
        call_internal(e, f, "args[%u]", true);
        c_out(e, ";\n    if (r.flag) circ_rt_throw(r.bits, (uint32_t)(r.flag - 1));\n    *ret = r.bits;\n}\n");
        return;
    }
    if (f->ret == TY_NONE) {
        call_internal(e, f, "args[%u]", true);
        c_out(e, ";\n    *ret = 0;\n}\n");
        return;
    }
    c_out(e, "%s v = ", c_type(f->ret));
    call_internal(e, f, "args[%u]", true);
    c_out(e, ";\n    *ret = ");
    c_to_bits(e, f->ret, "v");
    c_out(e, ";\n}\n");
}

static void emit_table(CEmit *e)
{
    c_out(e, "#ifdef CIRC_MODULE_TABLE\n#include \"circ_rt.h\"\n");
    for (uint32_t k = 0; k < e->m->nfuncs; k++)
        emit_caller(e, e->m->funcs[k]);
    c_out(e, "static const CircRtFunc circ_module_funcs[] = {\n");
    for (uint32_t k = 0; k < e->m->nfuncs; k++) {
        const Func *f = e->m->funcs[k];
        c_out(e, "    {\"%s\", circ_c_call%u, %u, %s, (uint64_t)(uintptr_t)&circ_c_x%u},\n", f->name, k, f->nparams,
              f->ret == TY_NONE ? "true" : "false", k);
    }
    c_out(e, "};\n#define CIRC_MODULE_NFUNCS %u\n#endif\n", e->m->nfuncs);
}

/* rt_apply(f, x) = f(x) for a function (i64) -> i64 of the module */
static void emit_apply(CEmit *e)
{
    c_out(e, "CIRC_C_FN CircCRet circ_c_rt_apply(cu64 f, cu64 x)\n{\n    CircCRet r = {0, 0};\n    (void)f, (void)x;\n    ");
    for (uint32_t k = 0; k < e->m->nfuncs; k++) {
        const Func *f = e->m->funcs[k];
        if (f->nparams != 1 || f->params[0] != TY_I64 || f->ret != TY_I64)
            continue;
        c_out(e, "if (f == (cu64)(cuptr)&circ_c_x%u) %s circ_c_fn%u(x);\n    else ", k, e->throws ? "r =" : "r.bits =",
              k);
    }
    c_out(e, "CIRC_C_TRAP(4);\n    return r;\n}\n\n");
}

static void emit_declarations(CEmit *e)
{
    if (e->throws) /* docs/objects.md: the object says its functions return the flag */
        c_out(e, "__asm__(\".weak circ_threw_flag\\n\\t.set circ_threw_flag, 1\");\n\n");
    for (uint32_t k = 0; k < e->m->nfuncs; k++) {
        const Func *f = e->m->funcs[k];
        export_head(e, f);
        c_out(e, " __asm__(\"%s%s\");\n", e->prefix, f->name);
    }
    for (uint32_t k = 0; k < e->m->nfuncs; k++) {
        c_emit_signature(e, e->m->funcs[k]);
        c_out(e, ";\n");
    }
    c_out(e, "\n");
    for (uint32_t x = 0; x < e->m->nexterns; x++)
        if (e->m->externs[x].rt == RT_rt_apply)
            emit_apply(e);
}

/* the schedules of m's functions into sched (those given, else made here) */
static bool schedules_of(const Module *m, Schedule *const *given, const SchedOptions *so, Schedule **own,
                         const Schedule **sched, Diag *d)
{
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        own[k] = given ? NULL : schedule_func(m->funcs[k], so, d);
        sched[k] = given ? given[k] : own[k];
        if (!sched[k])
            return false;
    }
    return true;
}

static bool emit_with(const Module *m, Schedule *const *given, const SchedOptions *so, const CEmitOptions *o,
                      FILE *out, Diag *d)
{
    CEmit e = {.m = m, .out = out, .throws = lower_module_may_throw(m), .prefix = o && o->prefix ? o->prefix : "",
               .d = d};
    Schedule **own = calloc(m->nfuncs + 1, sizeof *own);
    const Schedule **sched = calloc(m->nfuncs + 1, sizeof *sched);
    if (!own || !sched)
        abort();
    bool ok = schedules_of(m, given, so, own, sched, d);
    if (ok) {
        c_out(&e, "/* C11 from circ's scheduled form (circ compile --target c), module %s */\n%s", m->file ? m->file : "",
              c_prelude);
        emit_declarations(&e);
    }
    for (uint32_t k = 0; ok && k < m->nfuncs; k++)
        ok = c_emit_func(&e, m->funcs[k], sched[k]);
    for (uint32_t k = 0; ok && k < m->nfuncs; k++)
        emit_export(&e, m->funcs[k]);
    if (ok)
        emit_table(&e);
    for (uint32_t k = 0; k < m->nfuncs; k++)
        schedule_free(own[k]);
    free(own);
    free(sched);
    return ok;
}

bool c_emit_module(const Module *m, Schedule *const *sched, const CEmitOptions *o, FILE *out, Diag *d)
{
    return emit_with(m, sched, NULL, o, out, d);
}

bool c_compile_module(const Module *m, const CompileOptions *opt, const CEmitOptions *o, FILE *out, Diag *d)
{
    Module *work = module_clone(m);
    if (!work) {
        diag_error(d, 0, 0, "out of memory");
        return false;
    }
    bool naive = opt->opt_level == 0 && !opt->passes;
    SchedOptions so = {.no_motion = opt->no_motion || naive};
    bool ok = (naive || compile_run_passes(work, opt, d)) && emit_with(work, NULL, &so, o, out, d);
    module_free(work);
    return ok;
}
