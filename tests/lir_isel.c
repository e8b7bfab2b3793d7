/* lir_isel.c — the one instruction selector (compiler/lir/isel.h) picks per target
 * from the forms table and the AbiDesc, checked on the LIR after lowering the same
 * function for x86-64 and ARM64:
 *   - ADD: two-operand `Add32 b, dst` on x86-64 (no three-operand form), three-
 *     operand `Add32 a, b, dst` on ARM64; an immediate only where the form takes it;
 *   - a shift by a register: the count moved to %rcx on x86-64 (the hook's fixed
 *     register), a virtual tmp on ARM64;
 *   - UITOFP of a u64: ConvertUInt64ToDouble where the target has it (ARM64), else
 *     the halving sequence with a sign test (x86-64);
 *   - FMOD's helper call: through a register on x86-64 (no `call $helper` form),
 *     `Call $helper` on ARM64;
 *   - FCMP oeq as a value: two compares combined on x86-64, one on ARM64;
 *   - ALLOCA zeroing: StorePair64 where the target has it, quadword moves else;
 *   - parameters from the AbiDesc: the first from %rdi / x0; of nine integer
 *     parameters three come from the stack on x86-64, one on ARM64;
 *   - every lowered function passes lir_verify. */
#include "compiler/lir/lower.h"
#include "compiler/target.h"
#include "compiler/x64/x64.h"

#include <string.h>

static int failures;

static void expect(bool ok, const char *what, const char *target)
{
    if (!ok) {
        fprintf(stderr, "FAIL (%s): %s\n", target, what);
        failures++;
    }
}

typedef struct {
    unsigned count[LIR_OP_COUNT];
    unsigned add32_args;        /* arguments of the last Add32 */
    bool add32_imm;             /* the last Add32 has an immediate */
    Tmp shift_count;            /* the count of the last Lshift64 */
    ArgKind call_target;        /* the kind of the last Call's target */
    unsigned stack_reads;       /* reads of Addr(frame base + 16 + 8k) */
    Tmp first_param_src;        /* the source of the entry block's first move */
} Census;

static void census_inst(const Inst *in, Tmp frame_base, Census *out)
{
    out->count[in->op]++;
    if (in->op == LIR_Add32) {
        out->add32_args = in->nargs;
        out->add32_imm = in->args[in->nargs - 2].kind == ARG_IMM;
    }
    if (in->op == LIR_Lshift64 && in->args[0].kind == ARG_TMP)
        out->shift_count = in->args[in->nargs - 2].base;
    if (in->op == LIR_Call)
        out->call_target = (ArgKind)in->args[0].kind;
    if (in->nargs && in->args[0].kind == ARG_ADDR && in->args[0].base == frame_base && in->args[0].value >= 16)
        out->stack_reads++;
}

static void census(const Code *c, Tmp frame_base, Census *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++)
            census_inst(&c->blocks[b]->insts[i], frame_base, out);
    const LirBlock *entry = c->blocks[0];
    if (entry->ninsts && entry->insts[0].args[0].kind == ARG_TMP)
        out->first_param_src = entry->insts[0].args[0].base;
}

/* lower the only function of src for backend; census of its LIR */
static bool lower_for(const Target *be, const char *src, Census *out)
{
    Diag d;
    diag_init(&d, "<test>", stderr);
    Module *m = parse_module("<test>", src, strlen(src), &d);
    if (!m || verify_module(m, &d) || m->nfuncs != 1) {
        module_free(m);
        return false;
    }
    Schedule *s = schedule_func(m->funcs[0], NULL, &d);
    Arena *arena = arena_new();
    Code *c = s ? lower_func(s, be, be->isel, NULL, arena, &d) : NULL;
    bool ok = c && lir_verify(c, stderr) == 0;
    if (ok)
        census(c, be->frame_base, out);
    arena_free(arena);
    schedule_free(s);
    module_free(m);
    return ok;
}

static const char alu_src[] =
    "func @f(i32, i32, i64, i64, i64, i64, i64, i64, i64) -> i64 {\n"
    "  %a = ARG i32 0\n  %b = ARG i32 1\n  %x = ARG i64 2\n  %n = ARG i64 8\n"
    "  %k = CONSTANT i32 5\n"
    "  %s = ADD i32 (%a, %b)\n  %t = ADD i32 (%s, %k)\n"
    "  %w = ZEXT i64 (%t)\n  %sh = SHL i64 (%x, %n)\n  %r = XOR i64 (%w, %sh)\n"
    "  RETURN [entry] {entry} (%r)\n}\n";

static void alu_and_abi(void)
{
    Census x, a;
    expect(lower_for(target_find("x86-64"), alu_src, &x), "ALU function lowers", "x86-64");
    expect(lower_for(target_find("arm64"), alu_src, &a), "ALU function lowers", "arm64");
    expect(x.add32_args == 2 && x.add32_imm, "ADD is two-operand, `Add32 $5, dst`", "x86-64");
    expect(a.add32_args == 3 && a.add32_imm, "ADD is three-operand, `Add32 s, $5, dst`", "arm64");
    expect(x.shift_count == tmp_gp(X64_RCX), "the shift count is %rcx", "x86-64");
    expect(a.shift_count != TMP_NONE && !tmp_is_reg(a.shift_count), "the shift count is a virtual tmp",
           "arm64");
    expect(x.first_param_src == tmp_gp(X64_RDI), "the first parameter comes from %rdi", "x86-64");
    expect(a.first_param_src == tmp_gp(0), "the first parameter comes from x0", "arm64");
    /* SysV: six GP argument registers, so parameters 6, 7, 8 come from the stack;
     * AAPCS64: eight, so only parameter 8 */
    expect(x.stack_reads == 3, "three parameters come from the stack", "x86-64");
    expect(a.stack_reads == 1, "one parameter comes from the stack", "arm64");
}

static const char float_src[] =
    "func @f(i64, f64, f64) -> f64 {\n"
    "  %u = ARG i64 0\n  %p = ARG f64 1\n  %q = ARG f64 2\n"
    "  %buf = ALLOCA 32\n"
    "  %d = UITOFP f64 (%u)\n  %m = FMOD f64 (%d, %p)\n"
    "  %eq = FCMP oeq (%m, %q)\n  %e = ZEXT i64 (%eq)\n"
    "  %st = STORE {entry} (%e, %buf)\n  %back = LOAD i64 {%st} (%buf)\n"
    "  %f = SITOFP f64 (%back)\n  %r = FADD f64 (%m, %f)\n"
    "  RETURN [entry] {%back} (%r)\n}\n";

static void direct_forms(void)
{
    Census x, a;
    expect(lower_for(target_find("x86-64"), float_src, &x), "float function lowers", "x86-64");
    expect(lower_for(target_find("arm64"), float_src, &a), "float function lowers", "arm64");
    expect(x.count[LIR_ConvertUInt64ToDouble] == 0 && x.count[LIR_BranchTest64] == 1,
           "u64 -> f64 tests the sign and halves", "x86-64");
    expect(a.count[LIR_ConvertUInt64ToDouble] == 1 && a.count[LIR_BranchTest64] == 0,
           "u64 -> f64 is ConvertUInt64ToDouble", "arm64");
    expect(x.call_target == ARG_SYMBOL, "the FMOD helper is called directly (call rel32)", "x86-64");
    expect(a.call_target == ARG_SYMBOL, "the FMOD helper is called by its symbol", "arm64");
    expect(x.count[LIR_CompareDouble] == 2, "FCMP oeq is two compares", "x86-64");
    expect(a.count[LIR_CompareDouble] == 1, "FCMP oeq is one compare", "arm64");
    expect(x.count[LIR_StorePair64] == 0, "ALLOCA 32 is zeroed by quadword moves", "x86-64");
    expect(a.count[LIR_StorePair64] == 2, "ALLOCA 32 is zeroed by two StorePair64", "arm64");
}

int main(void)
{
    alu_and_abi();
    direct_forms();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures != 0;
}
