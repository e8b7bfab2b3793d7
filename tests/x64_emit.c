/* x64_emit.c — x64_emit on whole functions: block layout (jcc + jmp, fall-through
 * jumps, inverted branches), prologue/epilogue through stack slots, calls between
 * functions, relocations, the trap table and source marks; the code is run under
 * Unicorn (results, and #DE mapped through the trap table) and decoded by Capstone.
 * Also checks that bad LIR is refused with a message and never crashes. */
#include "compiler/x64/x64.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "tests/test_check.h"

#define R(n) arg_tmp(tmp_gp(X64_##n))
#define A(...) (Arg[]){ __VA_ARGS__ }
#define NARGS(...) (sizeof((Arg[]){ __VA_ARGS__ }) / sizeof(Arg))
#define EMIT(c, b, op, ...) lir_append(c, b, LIR_##op, NARGS(__VA_ARGS__), A(__VA_ARGS__))
#define EMIT0(c, b, op) lir_append(c, b, LIR_##op, 0, NULL)

enum { GATE_DIV = 77, GATE_MUL = 78 };

/* f0(x: i32) = x < 0 ? 1 : 2, spilling x through a stack slot */
static Code *build_sign(Arena *a)
{
    Code *c = lir_code_new(a, x64_target(), "sign", 0);
    c->frame_base = tmp_gp(X64_RBP);
    uint32_t slot = lir_add_slot(c, 4, 4, false);
    c->slots[slot].assigned = true;
    c->slots[slot].offset = -8;
    LirBlock *b[5];
    for (int i = 0; i < 5; i++)
        b[i] = lir_add_block(c, 1);
    EMIT(c, b[0], Push, R(RBP));
    EMIT(c, b[0], Move, R(RSP), R(RBP));
    EMIT(c, b[0], Sub64, arg_imm(16), R(RSP));
    EMIT(c, b[0], Move32, R(RDI), arg_stack(slot, 0));
    EMIT(c, b[0], Move32, arg_stack(slot, 0), R(RCX));
    EMIT(c, b[0], Branch32, arg_relcond(REL_slt), R(RCX), arg_imm(0));
    lir_add_succ(c, b[0], 2);          /* neither successor is next: jcc and jmp */
    lir_add_succ(c, b[0], 3);
    EMIT0(c, b[1], Ud2)->trap = TRAP_OVERFLOW;
    EMIT(c, b[2], Move32, arg_imm(1), R(RAX));
    EMIT0(c, b[2], Jump);
    lir_add_succ(c, b[2], 4);
    EMIT(c, b[3], Move32, arg_imm(2), R(RAX));
    EMIT0(c, b[3], Jump);              /* to the next block: no code */
    lir_add_succ(c, b[3], 4);
    EMIT(c, b[4], Move, R(RBP), R(RSP));
    EMIT(c, b[4], Pop, R(RBP));
    EMIT(c, b[4], Ret32, R(RAX));
    return c;
}

/* f1(a: i32, b: i32) = f0(a) * 100 + a / b */
static Code *build_caller(Arena *a)
{
    Code *c = lir_code_new(a, x64_target(), "caller", 1);
    LirBlock *b = lir_add_block(c, 1);
    EMIT(c, b, Push, R(RBX));
    EMIT(c, b, Push, R(R12));
    EMIT(c, b, Move, R(RDI), R(R12));
    EMIT(c, b, Move, R(RSI), R(RBX));
    EMIT(c, b, Call, arg_symbol(TARGET_FUNC, 0, 0));
    EMIT(c, b, Mul32, arg_imm(100), R(RAX), R(RCX))->origin = GATE_MUL;
    EMIT(c, b, Move32, R(R12), R(RAX))->origin = GATE_DIV;
    EMIT(c, b, X86ConvertToDoubleWord32, R(RAX), R(RDX))->origin = GATE_DIV;
    EMIT(c, b, X86IDiv32, R(RAX), R(RDX), R(RBX))->origin = GATE_DIV;
    EMIT(c, b, Add32, R(RCX), R(RAX));
    EMIT(c, b, Pop, R(R12));
    EMIT(c, b, Pop, R(RBX));
    EMIT(c, b, Ret32, R(RAX));
    return c;
}

/* f2(x): loads the addresses of a helper and of f1 (relocations), then returns if x
 * is zero and reaches ud2 if not: an inverted branch (taken successor next) */
static Code *build_addresses(Arena *a)
{
    Code *c = lir_code_new(a, x64_target(), "addresses", 2);
    LirBlock *b0 = lir_add_block(c, 1), *b1 = lir_add_block(c, 1), *b2 = lir_add_block(c, 1);
    EMIT(c, b0, Move, arg_symbol(TARGET_HELPER, HELPER_FEXP_F64, 0), R(R11));
    EMIT(c, b0, Move, arg_symbol(TARGET_FUNC, 1, 0), R(RAX));
    EMIT(c, b0, BranchTest64, arg_rescond(RES_zero), R(RDI), R(RDI));
    lir_add_succ(c, b0, 1);            /* taken is next: jnz to block 2 */
    lir_add_succ(c, b0, 2);
    EMIT0(c, b1, RetVoid);
    EMIT(c, b2, Ud2);
    return c;
}

/* f3(a) = f1(a, 3) called through a register loaded with f1's address (a relocation),
 * with the stack realigned by a push */
static Code *build_indirect(Arena *a)
{
    Code *c = lir_code_new(a, x64_target(), "indirect", 3);
    LirBlock *b = lir_add_block(c, 1);
    EMIT(c, b, Push, R(RBX));
    EMIT(c, b, Move, arg_symbol(TARGET_FUNC, 1, 0), R(RBX));
    EMIT(c, b, Move32, arg_imm(3), R(RSI));
    EMIT(c, b, Call, R(RBX));
    EMIT(c, b, Pop, R(RBX));
    EMIT(c, b, Ret32, R(RAX));
    return c;
}

/* ---- running under Unicorn --------------------------------------------------------- */
enum { CODE_ADDR = 0x400000, STACK_ADDR = 0x700000, STACK_SIZE = 0x10000, SENTINEL = 0x200000 };

typedef struct {
    uc_engine *uc;
    int intno;        /* -1: none */
    uint64_t trap_pc;
} Run;

static void on_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    Run *r = user;
    r->intno = (int)intno;
    uc_reg_read(uc, UC_X86_REG_RIP, &r->trap_pc);
    uc_emu_stop(uc);
}

static bool run_setup(Run *r, const CodeBlob *blob)
{
    if (uc_open(UC_ARCH_X86, UC_MODE_64, &r->uc) != UC_ERR_OK)
        return false;
    uint32_t code_size = (blob->size + 0xfff) & ~0xfffu;
    uc_mem_map(r->uc, CODE_ADDR, code_size, UC_PROT_READ | UC_PROT_EXEC);
    uint8_t *code = malloc(blob->size + 1);
    memcpy(code, blob->code, blob->size);
    for (uint32_t i = 0; i < blob->nrelocs; i++) {   /* functions: their address; helpers: unused */
        const Reloc *rl = &blob->relocs[i];          /* lea's disp32 (RELOC_PC32): from the field's end */
        uint64_t addr = rl->target == TARGET_FUNC ? CODE_ADDR + blob->entry[rl->index] : 0xdead0000ull;
        uint32_t disp = (uint32_t)(addr + (uint64_t)rl->addend - (CODE_ADDR + rl->offset + 4));
        CHECK(rl->kind == RELOC_PC32, "relocation %u is lea's disp32", i);
        memcpy(code + rl->offset, &disp, 4);
    }
    uc_mem_write(r->uc, CODE_ADDR, code, blob->size);
    free(code);
    uc_mem_map(r->uc, STACK_ADDR, STACK_SIZE, UC_PROT_READ | UC_PROT_WRITE);
    uc_mem_map(r->uc, SENTINEL, 0x1000, UC_PROT_READ | UC_PROT_EXEC);
    uc_hook h;
    uc_hook_add(r->uc, &h, UC_HOOK_INTR, (void *)on_interrupt, r, 1, 0);
    return true;
}

/* call function f with two integer arguments; result in *ret, or the interrupt */
static bool run_call(Run *r, const CodeBlob *blob, uint32_t f, uint64_t a0, uint64_t a1, uint64_t *ret)
{
    uint64_t sp = STACK_ADDR + STACK_SIZE - 64, sentinel = SENTINEL;
    uc_mem_write(r->uc, sp, &sentinel, 8);
    uc_reg_write(r->uc, UC_X86_REG_RSP, &sp);
    uc_reg_write(r->uc, UC_X86_REG_RDI, &a0);
    uc_reg_write(r->uc, UC_X86_REG_RSI, &a1);
    r->intno = -1;
    uc_err err = uc_emu_start(r->uc, CODE_ADDR + blob->entry[f], SENTINEL, 1000000, 100000);
    uc_reg_read(r->uc, UC_X86_REG_RAX, ret);
    if (err == UC_ERR_INSN_INVALID) {   /* ud2: #UD, vector 6 */
        r->intno = 6;
        uc_reg_read(r->uc, UC_X86_REG_RIP, &r->trap_pc);
    }
    return err == UC_ERR_OK && r->intno < 0;
}

static const TrapSite *trap_at(const CodeBlob *blob, uint32_t offset)
{
    for (uint32_t i = 0; i < blob->ntraps; i++)
        if (blob->traps[i].offset == offset)
            return &blob->traps[i];
    return NULL;
}

static void test_runs(const CodeBlob *blob)
{
    Run r = { 0 };
    if (!run_setup(&r, blob)) {
        CHECK(false, "unicorn engine");
        return;
    }
    uint64_t ret = 0;
    CHECK(run_call(&r, blob, 0, (uint64_t)-5, 0, &ret) && (uint32_t)ret == 1, "sign(-5) = %u", (uint32_t)ret);
    CHECK(run_call(&r, blob, 3, 10, 0, &ret) && (uint32_t)ret == 203, "indirect(10) = %d", (int32_t)ret);
    CHECK(run_call(&r, blob, 3, (uint64_t)-9, 0, &ret) && (uint32_t)ret == 97, "indirect(-9) = %d", (int32_t)ret);
    CHECK(run_call(&r, blob, 0, 5, 0, &ret) && (uint32_t)ret == 2, "sign(5) = %u", (uint32_t)ret);
    CHECK(run_call(&r, blob, 0, 0x80000000u, 0, &ret) && (uint32_t)ret == 1, "sign(INT_MIN) = %u",
          (uint32_t)ret);
    CHECK(run_call(&r, blob, 1, (uint64_t)-7, 2, &ret) && (uint32_t)ret == 97, "caller(-7, 2) = %d",
          (int32_t)ret);
    CHECK(run_call(&r, blob, 1, 9, 4, &ret) && (uint32_t)ret == 202, "caller(9, 4) = %d", (int32_t)ret);
    CHECK(!run_call(&r, blob, 1, 5, 0, &ret) && r.intno == 0, "caller(5, 0) raises #DE (int %d)", r.intno);
    const TrapSite *t = trap_at(blob, (uint32_t)(r.trap_pc - CODE_ADDR));
    CHECK(t && t->kind == TRAP_DIV0, "the #DE at 0x%llx is a div0 site of the trap table",
          (unsigned long long)r.trap_pc);
    CHECK(!run_call(&r, blob, 2, 5, 0, &ret) && r.intno == 6, "addresses(5) reaches ud2 (int %d)", r.intno);
    t = trap_at(blob, (uint32_t)(r.trap_pc - CODE_ADDR));
    CHECK(t && t->kind == TRAP_ILLEGAL, "the ud2 is an illegal-instruction site of the trap table");
    CHECK(run_call(&r, blob, 2, 0, 0, &ret), "addresses(0) returns (taken branch falls through)");
    uc_close(r.uc);
}

/* ---- the blob's tables ------------------------------------------------------------------ */
static void test_tables(const CodeBlob *blob)
{
    CHECK(blob->isa == ISA_X64 && blob->nfuncs == 4, "isa and function count");
    CHECK(blob->entry[0] == 0, "first entry at 0");
    for (uint32_t f = 1; f < blob->nfuncs; f++)
        CHECK(blob->entry[f] % 16 == 0 && blob->entry[f] > blob->entry[f - 1], "entry %u aligned", f);
    for (uint32_t i = 1; i < blob->ntraps; i++)
        CHECK(blob->traps[i - 1].offset < blob->traps[i].offset, "trap table sorted");
    for (uint32_t i = 1; i < blob->nmarks; i++)
        CHECK(blob->marks[i - 1].offset < blob->marks[i].offset, "marks sorted");
    CHECK(blob->ntraps == 3, "three trap sites (ud2, idiv, ud2): %u", blob->ntraps);
    CHECK(blob->ntraps >= 1 && blob->traps[0].kind == TRAP_OVERFLOW, "Ud2 keeps its trap kind");
    CHECK(blob->nmarks == 2 && blob->marks[0].gate == GATE_MUL && blob->marks[1].gate == GATE_DIV &&
              blob->marks[0].func == 1, "source marks: one per run of a gate");
    CHECK(blob->nrelocs == 3, "three relocations: %u", blob->nrelocs);
    if (blob->nrelocs == 3) {
        const Reloc *r = blob->relocs;
        CHECK(r[0].offset == blob->entry[2] + 3 && r[0].target == TARGET_HELPER &&
                  r[0].index == HELPER_FEXP_F64 && r[0].kind == RELOC_PC32, "helper relocation (lea r11, [rip])");
        CHECK(r[1].offset == blob->entry[2] + 10 && r[1].target == TARGET_FUNC && r[1].index == 1 &&
                  r[1].kind == RELOC_PC32, "function relocation (lea rax, [rip])");
    }
}

/* the branch of f0 is jl then jmp; f2's is the inverted jne; marks start instructions */
static void test_listing(const CodeBlob *blob)
{
    csh cs;
    cs_insn *insn;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
        CHECK(false, "cs_open");
        return;
    }
    size_t n = cs_disasm(cs, blob->code, blob->size, 0, 0, &insn);
    int jl = -1, jne = -1, starts = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(insn[i].mnemonic, "jl") && jl < 0)
            jl = (int)i;
        if (!strcmp(insn[i].mnemonic, "jne"))
            jne = (int)i;
        for (uint32_t m = 0; m < blob->nmarks; m++)
            starts += insn[i].address == blob->marks[m].offset;
    }
    CHECK(starts == (int)blob->nmarks, "every mark is at an instruction start");
    CHECK(jl >= 0 && !strcmp(insn[jl + 1].mnemonic, "jmp") && !strcmp(insn[jl + 2].mnemonic, "ud2"),
          "jl, jmp, then block 1");
    CHECK(jne > 0 && !strcmp(insn[jne + 1].mnemonic, "ret") && !strcmp(insn[jne + 2].mnemonic, "ud2"),
          "BranchTest64 zero with the taken block next becomes jne to the other");
    cs_free(insn, n);
    cs_close(&cs);
}

/* ---- refusing bad LIR ----------------------------------------------------------------------- */
static void expect_refused(const char *what, Code *c, uint32_t nfuncs, const char *needle)
{
    CodeBlob blob = { 0 };
    char err[256] = "";
    Code *funcs[2] = { c, c };
    bool ok = x64_emit(c->arena, funcs, nfuncs, &blob, err, sizeof err);
    CHECK(!ok, "%s: refused", what);
    CHECK(strstr(err, needle) != NULL, "%s: message '%s' mentions '%s'", what, err, needle);
    CHECK(blob.code == NULL, "%s: no blob", what);
}

static void test_refusals(void)
{
    Arena *a = arena_new();
    Code *c = lir_code_new(a, x64_target(), "bad", 0);
    LirBlock *b = lir_add_block(c, 1);
    EMIT(c, b, Add32, arg_tmp(lir_new_tmp(c, BANK_GP)), R(RAX));
    expect_refused("virtual tmp", c, 1, "register");

    c = lir_code_new(a, x64_target(), "bad", 0);
    c->frame_base = tmp_gp(X64_RBP);
    lir_add_slot(c, 8, 8, false);
    EMIT(c, lir_add_block(c, 1), Move, arg_stack(0, 0), R(RAX));
    expect_refused("unassigned slot", c, 1, "stack slot 0");

    c = lir_code_new(a, x64_target(), "bad", 0);
    EMIT(c, lir_add_block(c, 1), Add32, arg_addr(tmp_gp(0), 0), arg_addr(tmp_gp(1), 0));
    expect_refused("two memory operands", c, 1, "no x86-64 form");

    c = lir_code_new(a, x64_target(), "bad", 0);
    b = lir_add_block(c, 1);
    EMIT(c, b, Branch64, arg_relcond(REL_eq), R(RAX), R(RCX));
    lir_add_succ(c, b, 0);
    expect_refused("branch with one successor", c, 1, "two successors");

    c = lir_code_new(a, x64_target(), "bad", 0);
    b = lir_add_block(c, 1);
    EMIT0(c, b, Jump);
    lir_add_succ(c, b, 9);
    expect_refused("jump out of the function", c, 1, "block 9");

    c = lir_code_new(a, x64_target(), "bad", 0);
    EMIT(c, lir_add_block(c, 1), Call, arg_symbol(TARGET_FUNC, 5, 0));
    expect_refused("call to a missing function", c, 2, "function 5");

    c = lir_code_new(a, x64_target(), "bad", 0);
    EMIT(c, lir_add_block(c, 1), Lea64, arg_tmp(tmp_gp(0)), R(RAX));
    expect_refused("lea of a register", c, 1, "Lea64");

    Code *none[1] = { NULL };
    CodeBlob blob = { 0 };
    char err[256] = "";
    CHECK(!x64_emit(a, none, 1, &blob, err, sizeof err) && strstr(err, "no code"), "missing function");
    CHECK(x64_emit(a, none, 0, &blob, err, sizeof err) && blob.size == 0 && blob.nfuncs == 0,
          "an empty module is an empty blob");
    arena_free(a);
}

int main(void)
{
    Arena *a = arena_new();
    Code *funcs[4] = { build_sign(a), build_caller(a), build_addresses(a), build_indirect(a) };
    CodeBlob blob;
    char err[256];
    bool ok = x64_emit(a, funcs, 4, &blob, err, sizeof err);
    CHECK(ok, "x64_emit: %s", err);
    if (ok) {
        test_tables(&blob);
        test_listing(&blob);
        test_runs(&blob);
    }
    test_refusals();
    arena_free(a);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
