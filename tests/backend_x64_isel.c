/* backend_x64_isel.c — what x86-64 instruction selection makes of small functions,
 * checked on the LIR after lowering (before allocation):
 *   - an ICMP used only by its block's IF_BRANCH fuses into one Branch (no Compare);
 *     an FCMP olt fuses into BranchDouble ogt with the operands swapped;
 *   - LOAD/STORE of ADD(pointer, constant) use base+disp, of ALLOCA+constant a
 *     stack-slot operand;
 *   - SDIV checks INT_MIN / -1: a Ud2 of kind overflow; a zero divisor is the
 *     div's own fault, a trap site of kind div0 (UDIV: no Ud2 at all);
 *     overflow (UDIV: div0 only);
 *   - a SWITCH with three cases compares three times;
 *   - selector copies on an edge go through fresh tmps (parallel-copy safe);
 *   - a float result is made the canonical NaN only when a user that is not
 *     NaN-blind (BITCAST, RETURN, ...) reads it: FMUL read by FADD, FCMP and FPTOSI
 *     is not, nor is an FADD read by FADD; the FADD read by RETURN is;
 *   - every lowered function passes lir_verify. */
#include "compiler/lir/lower.h"
#include "compiler/compile.h"
#include "compiler/x64/x64.h"

#include <string.h>

static int failures;

static void expect(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        failures++;
    }
}

typedef struct {
    unsigned count[LIR_OP_COUNT];
    unsigned trap_ud2[8];
    unsigned div0_sites; /* div/idiv instructions that are div0 trap sites */
    unsigned addr_disp16, stack_disp8, double_ogt_swapped;
    unsigned canonical_nan_loads; /* immediates of the f64 canonical NaN */
} Census;

static void census(const Code *c, Census *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++) {
            const Inst *in = &c->blocks[b]->insts[i];
            out->count[in->op]++;
            if (in->op == LIR_Ud2)
                out->trap_ud2[in->trap & 7]++;
            if (in->op >= LIR_X86Div32 && in->op <= LIR_X86IDiv64 && in->trap == TRAP_DIV0)
                out->div0_sites++;
            for (unsigned a = 0; a < in->nargs; a++) {
                if (in->args[a].kind == ARG_ADDR && in->args[a].value == 16)
                    out->addr_disp16++;
                if (a == 0 && in->args[a].kind == ARG_STACK && in->args[a].value == 8)
                    out->stack_disp8++; /* read from 8(stackN) (zero-filling writes it) */
                if ((in->args[a].kind == ARG_IMM || in->args[a].kind == ARG_BIGIMM) &&
                    (uint64_t)in->args[a].value == 0x7ff8000000000000ull)
                    out->canonical_nan_loads++;
            }
            if (in->op == LIR_BranchDouble && in->args[0].cond == DBL_ogt)
                out->double_ogt_swapped++;
        }
}

/* lower the only function of src; census of its LIR */
static bool lower_text(const char *src, Census *out)
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
    Code *c = s ? lower_func(s, x64_target(), x64_target()->isel, NULL, arena, &d) : NULL;
    bool ok = c && lir_verify(c, stderr) == 0;
    if (ok)
        census(c, out);
    arena_free(arena);
    schedule_free(s);
    module_free(m);
    return ok;
}

static void fused_compare(void)
{
    Census c;
    const char *src = "func @f(i64, i64) -> i64 {\n"
                      "  %a = ARG i64 0\n  %b = ARG i64 1\n"
                      "  %lt = ICMP slt (%a, %b)\n"
                      "  %br = IF_BRANCH [entry] (%lt)\n"
                      "  %t = IF_TRUE [%br]\n  %e = IF_FALSE [%br]\n"
                      "  RETURN [%t] {entry} (%a)\n  RETURN [%e] {entry} (%b)\n}\n";
    expect(lower_text(src, &c), "fused compare lowers");
    expect(c.count[LIR_Branch64] == 1 && c.count[LIR_Compare64] == 0 && c.count[LIR_BranchTest32] == 0,
           "ICMP + IF_BRANCH is one Branch64");
    const char *fsrc = "func @f(f64, f64) -> i32 {\n"
                       "  %a = ARG f64 0\n  %b = ARG f64 1\n"
                       "  %lt = FCMP olt (%a, %b)\n"
                       "  %br = IF_BRANCH [entry] (%lt)\n"
                       "  %t = IF_TRUE [%br]\n  %e = IF_FALSE [%br]\n"
                       "  %one = CONSTANT i32 1\n  %zero = CONSTANT i32 0\n"
                       "  RETURN [%t] {entry} (%one)\n  RETURN [%e] {entry} (%zero)\n}\n";
    expect(lower_text(fsrc, &c), "fused float compare lowers");
    expect(c.count[LIR_BranchDouble] == 1 && c.double_ogt_swapped == 1 && c.count[LIR_CompareDouble] == 0,
           "FCMP olt + IF_BRANCH is BranchDouble ogt (operands swapped)");
    const char *used_twice = "func @f(i64, i64) -> i1 {\n"
                             "  %a = ARG i64 0\n  %b = ARG i64 1\n"
                             "  %lt = ICMP slt (%a, %b)\n"
                             "  %br = IF_BRANCH [entry] (%lt)\n"
                             "  %t = IF_TRUE [%br]\n  %e = IF_FALSE [%br]\n"
                             "  RETURN [%t] {entry} (%lt)\n  RETURN [%e] {entry} (%lt)\n}\n";
    expect(lower_text(used_twice, &c), "compare with other uses lowers");
    expect(c.count[LIR_Compare64] == 1 && c.count[LIR_BranchTest32] == 1,
           "an ICMP with other users is materialized and tested");
}

static void address_folding(void)
{
    Census c;
    const char *src = "func @f(i64) -> i64 {\n"
                      "  %p = ARG i64 0\n  %k = CONSTANT i64 16\n"
                      "  %q = ADD i64 (%p, %k)\n"
                      "  %v = LOAD i64 {entry} (%q)\n"
                      "  %s = STORE {%v} (%v, %q)\n"
                      "  %buf = ALLOCA 16\n  %k8 = CONSTANT i64 8\n"
                      "  %r = ADD i64 (%buf, %k8)\n"
                      "  %w = LOAD i64 {%s} (%r)\n"
                      "  %sum = ADD i64 (%v, %w)\n"
                      "  RETURN [entry] {%w} (%sum)\n}\n";
    expect(lower_text(src, &c), "memory lowers");
    expect(c.addr_disp16 == 2, "LOAD and STORE of p+16 use 16(base)");
    expect(c.stack_disp8 == 1, "LOAD of ALLOCA+8 uses 8(stackN)");
}

static void division_traps(void)
{
    Census c;
    const char *src = "func @f(i32, i32) -> i32 {\n"
                      "  %a = ARG i32 0\n  %b = ARG i32 1\n"
                      "  %q = SDIV i32 (%a, %b)\n"
                      "  RETURN [entry] {entry} (%q)\n}\n";
    expect(lower_text(src, &c), "SDIV lowers");
    expect(c.trap_ud2[TRAP_DIV0] == 0 && c.trap_ud2[TRAP_OVERFLOW] == 1 && c.div0_sites == 1,
           "SDIV: Ud2 overflow; the idiv is the div0 trap site");
    expect(c.count[LIR_X86IDiv32] == 1, "SDIV i32: one idiv");
    const char *usrc = "func @f(i16, i16) -> i16 {\n"
                       "  %a = ARG i16 0\n  %b = ARG i16 1\n"
                       "  %q = UREM i16 (%a, %b)\n"
                       "  RETURN [entry] {entry} (%q)\n}\n";
    expect(lower_text(usrc, &c), "UREM lowers");
    expect(c.trap_ud2[TRAP_DIV0] == 0 && c.trap_ud2[TRAP_OVERFLOW] == 0 && c.div0_sites == 1,
           "UREM: no Ud2; the div is the div0 trap site");
}

static void switch_and_copies(void)
{
    Census c;
    const char *src = "func @f(i32) -> i32 {\n"
                      "  %x = ARG i32 0\n"
                      "  %sw = SWITCH_BRANCH [entry] (%x)\n"
                      "  %c1 = SWITCH_CASE 1 [%sw]\n  %c2 = SWITCH_CASE 5 [%sw]\n  %c3 = SWITCH_CASE -7 [%sw]\n"
                      "  %d = DEFAULT_CASE [%sw]\n"
                      "  %m = MERGE [%c1, %c2, %c3, %d]\n"
                      "  %k1 = CONSTANT i32 10\n  %k2 = CONSTANT i32 20\n  %k3 = CONSTANT i32 30\n"
                      "  %v = VALUE_SELECTOR i32 [%m] (%k1, %k2, %k3, %x)\n"
                      "  RETURN [%m] {entry} (%v)\n}\n";
    expect(lower_text(src, &c), "switch lowers");
    expect(c.count[LIR_Branch32] == 3, "three cases: three compares");
    /* each of the 4 edges copies value -> fresh tmp -> selector */
    expect(c.count[LIR_Move] >= 8, "edge copies go through fresh tmps");
}

static void nan_canonicalization(void)
{
    Census c;
    const char *blind = "func @f(f64, f64) -> f64 {\n"
                        "  %a = ARG f64 0\n  %b = ARG f64 1\n"
                        "  %m = FMUL f64 (%a, %b)\n"
                        "  %s = FADD f64 (%m, %b)\n"
                        "  %u = FCMP uno (%m, %a)\n"
                        "  %k = FPTOSI i32 (%m)\n"
                        "  %kf = SITOFP f64 (%k)\n"
                        "  %s2 = FADD f64 (%s, %kf)\n"
                        "  %br = IF_BRANCH [entry] (%u)\n"
                        "  %t = IF_TRUE [%br]\n  %e = IF_FALSE [%br]\n"
                        "  RETURN [%t] {entry} (%s2)\n  RETURN [%e] {entry} (%a)\n}\n";
    expect(lower_text(blind, &c), "float chain lowers");
    expect(c.canonical_nan_loads == 1, "only the returned FADD is canonicalized (not FMUL, not the inner FADD)");
    const char *shown = "func @f(f64, f64) -> i64 {\n"
                        "  %a = ARG f64 0\n  %b = ARG f64 1\n"
                        "  %m = FMUL f64 (%a, %b)\n"
                        "  %s = FADD f64 (%m, %b)\n"
                        "  %x = BITCAST i64 (%m)\n  %y = BITCAST i64 (%s)\n"
                        "  %r = XOR i64 (%x, %y)\n"
                        "  RETURN [entry] {entry} (%r)\n}\n";
    expect(lower_text(shown, &c), "bitcast floats lower");
    expect(c.canonical_nan_loads == 2, "an FMUL a BITCAST reads is canonicalized");
}

int main(void)
{
    fused_compare();
    address_folding();
    division_traps();
    switch_and_copies();
    nan_canonicalization();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("backend_x64_isel: all checks passed\n");
    return 0;
}
