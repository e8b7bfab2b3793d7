/* emu_harness.c — the runner hides nothing (oracle/emu.h): on both ISAs, hand-assembled
 * functions (each checked against Capstone's listing) see a pattern in every register
 * that carries no argument, in the bits above narrow arguments and in the stack, the
 * same for the same call; and planted violations (a clobbered callee-saved register,
 * a write to the caller's stack) end as TRAP_ABI with their label, while what the
 * callee owns (its stack arguments, everything below the stack pointer, a register it
 * saves and restores) is free to use. */
#include "tests/emu_util.h"

typedef struct {
    uint32_t echo,      /* returns its first integer argument register, all 64 bits */
        scratch,        /* returns a scratch register that carries no argument */
        vec_high,       /* returns the high 64 bits of the first float argument register */
        vec_saved,      /* returns the low 64 bits of a callee-saved vector register */
        below_sp,       /* writes below the stack pointer, returns what lies further down */
        own_args,       /* writes its first stack argument's slot */
        stack_write,    /* writes the caller's stack just above the stack arguments */
        clobber,        /* changes a callee-saved register */
        save_restore,   /* changes the same register after saving it, restores it */
        ret_slot;       /* x86-64: returns with its return address slot overwritten */
} HarnessFuncs;

static const char *const listings_x64[] = {
    "mov rax, rdi; ret",
    "mov rax, rcx; ret",
    "pextrq rax, xmm0, 1; ret",
    "movq rax, xmm8; ret",
    "mov qword ptr [rsp - 8], rdi; mov rax, qword ptr [rsp - 0x10]; ret",
    "mov qword ptr [rsp + 8], rdi; ret",
    "mov qword ptr [rsp + 0x10], rdi; ret",
    "mov r15, rdi; ret",
    "push r15; mov r15, rdi; pop r15; ret",
    "pop rcx; push rdi; pop rdx; jmp rcx",
};

static void build_x64(Asm *a, HarnessFuncs *f)
{
    f->echo = asm_func(a);
    X86(a, 0x48, 0x89, 0xF8, 0xC3);
    f->scratch = asm_func(a);
    X86(a, 0x48, 0x89, 0xC8, 0xC3);
    f->vec_high = asm_func(a);
    X86(a, 0x66, 0x48, 0x0F, 0x3A, 0x16, 0xC0, 0x01, 0xC3);
    f->vec_saved = asm_func(a); /* xmm8: no callee-saved vector register in SysV */
    X86(a, 0x66, 0x4C, 0x0F, 0x7E, 0xC0, 0xC3);
    f->below_sp = asm_func(a);
    X86(a, 0x48, 0x89, 0x7C, 0x24, 0xF8, 0x48, 0x8B, 0x44, 0x24, 0xF0, 0xC3);
    f->own_args = asm_func(a);
    X86(a, 0x48, 0x89, 0x7C, 0x24, 0x08, 0xC3);
    f->stack_write = asm_func(a);
    X86(a, 0x48, 0x89, 0x7C, 0x24, 0x10, 0xC3);
    f->clobber = asm_func(a);
    X86(a, 0x49, 0x89, 0xFF, 0xC3);
    f->save_restore = asm_func(a);
    X86(a, 0x41, 0x57, 0x49, 0x89, 0xFF, 0x41, 0x5F, 0xC3);
    f->ret_slot = asm_func(a);
    X86(a, 0x59, 0x57, 0x5A, 0xFF, 0xE1);
}

static const char *const listings_a64[] = {
    "ret",
    "mov x0, x9; ret",
    "mov x0, v0.d[1]; ret",
    "fmov x0, d9; ret",
    "stur x0, [sp, #-8]; ldur x0, [sp, #-0x10]; ret",
    "str x0, [sp]; ret",
    "str x0, [sp, #8]; ret",
    "mov x28, x0; ret",
    "str x28, [sp, #-0x10]!; mov x28, x0; ldr x28, [sp], #0x10; ret",
};

static void build_a64(Asm *a, HarnessFuncs *f)
{
    static const uint32_t ret = 0xD65F03C0;
    const struct { uint32_t *f; uint32_t words[3]; unsigned n; } funcs[] = {
        {&f->echo, {0}, 0},
        {&f->scratch, {0xAA0903E0}, 1},
        {&f->vec_high, {0x4E183C00}, 1},
        {&f->vec_saved, {0x9E660120}, 1},
        {&f->below_sp, {0xF81F83E0, 0xF85F03E0}, 2},
        {&f->own_args, {0xF90003E0}, 1},
        {&f->stack_write, {0xF90007E0}, 1},
        {&f->clobber, {0xAA0003FC}, 1},
        {&f->save_restore, {0xF81F0FFC, 0xAA0003FC, 0xF84107FC}, 3},
    };
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
        *funcs[i].f = asm_func(a);
        for (unsigned k = 0; k < funcs[i].n; k++)
            asm_u32(a, funcs[i].words[k]);
        asm_u32(a, ret);
    }
}

static const Type I64x1[] = {TY_I64};

/* registers and the stack hold a pattern that depends on the call, not on earlier runs */
static void test_patterns(Tally *t, Emu *e, const HarnessFuncs *f, Outcome *o)
{
    uint64_t arg = 1;
    emu_call(e, f->scratch, I64x1, 1, &arg, TY_I64, 0, o);
    uint64_t first = o->bits;
    expect(t, o->kind == OUT_RETURN && no_zero_byte(first), "a scratch register holds a pattern", o);
    emu_call(e, f->scratch, I64x1, 1, &arg, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, first), "the same call, the same pattern", o);
    arg = 2;
    emu_call(e, f->scratch, I64x1, 1, &arg, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && o->bits != first && no_zero_byte(o->bits),
           "another argument, another pattern", o);
    const Type f64[] = {TY_F64};
    uint64_t x = f64_bits(1.5);
    emu_call(e, f->vec_high, f64, 1, &x, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && no_zero_byte(o->bits),
           "the high half of a float argument's register is junk", o);
    emu_call(e, f->vec_saved, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && no_zero_byte(o->bits),
           "a vector register that carries no argument holds a pattern", o);
    emu_call(e, f->below_sp, I64x1, 1, &arg, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && no_zero_byte(o->bits),
           "the stack below the stack pointer holds a pattern; writing there is the callee's right", o);
}

/* i1, i8, i16, i32 arguments: their bits, and junk in every byte above them */
static void test_narrow(Tally *t, Emu *e, const HarnessFuncs *f, Outcome *o)
{
    const Type types[] = {TY_I1, TY_I8, TY_I16, TY_I32};
    const unsigned bytes[] = {1, 1, 2, 4};
    for (int i = 0; i < 4; i++) {
        uint64_t v = 0x0101010101010101ull & ty_mask(types[i]);
        emu_call(e, f->echo, &types[i], 1, &v, TY_I64, 0, o);
        uint64_t high = o->bits >> (8 * bytes[i]);
        bool junk = (o->bits & ty_mask(types[i])) == v && (types[i] != TY_I1 || (o->bits & 0xFE));
        for (unsigned k = bytes[i]; k < 8; k++, high >>= 8)
            junk = junk && (high & 0xFF) != 0;
        expect(t, o->kind == OUT_RETURN && junk,
               "a narrow argument has junk in every bit the ABI leaves unspecified", o);
    }
}

/* planted violations, and what the callee may do */
static void test_violations(Tally *t, Emu *e, const HarnessFuncs *f, const char *reg, Outcome *o)
{
    uint64_t args[9] = {5, 6, 7, 8, 9, 10, 11, 12, 13};
    Type ty[9] = {TY_I64, TY_I64, TY_I64, TY_I64, TY_I64, TY_I64, TY_I64, TY_I64, TY_I64};
    char want[64], got[64];
    emu_call(e, f->stack_write, ty, 1, args, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_ABI) && !strncmp(o->reason, "stack-write: the caller's stack at entry sp+", 44),
           "a write to the caller's stack above the entry stack pointer -> stack-write", o);
    outcome_format(got, sizeof got, o);
    expect(t, !strcmp(got, "trap stack-write"), "formatted with its label", o);
    emu_call(e, f->own_args, ty, 9, args, TY_NONE, 0, o);
    expect(t, is_return(o, TY_NONE, 0), "a callee writes its own stack argument slot", o);
    emu_call(e, f->clobber, ty, 1, args, TY_NONE, 0, o);
    snprintf(want, sizeof want, "abi-clobber-%s", reg);
    expect(t, is_trap(o, TRAP_ABI) && outcome_abi_label(o, got, sizeof got) && !strcmp(got, want),
           "a clobbered callee-saved register -> abi-clobber-REG", o);
    RunExpect any_trap = {.kind = EX_TRAP};
    expect(t, !outcome_matches(o, &any_trap), "a harness finding never meets a run line's `trap`", o);
    emu_call(e, f->save_restore, ty, 1, args, TY_NONE, 0, o);
    expect(t, is_return(o, TY_NONE, 0), "a callee-saved register saved and restored", o);
    emu_set_abi_check(e, false);
    emu_call(e, f->stack_write, ty, 1, args, TY_NONE, 0, o);
    expect(t, is_return(o, TY_NONE, 0), "the ABI check off: the stack write passes", o);
    emu_set_abi_check(e, true);
}

static void run_isa(Tally *t, Isa isa, const char *reg)
{
    static Asm a;
    static Outcome o;
    HarnessFuncs f;
    asm_init(&a, isa);
    (isa == ISA_X64 ? build_x64 : build_a64)(&a, &f);
    const char *const *want = isa == ISA_X64 ? listings_x64 : listings_a64;
    for (uint32_t i = 0; i < a.nfuncs; i++)
        check_listing(t, &a, i, want[i]);
    Emu *e = load_or_die(isa, &a);
    test_patterns(t, e, &f, &o);
    test_narrow(t, e, &f, &o);
    test_violations(t, e, &f, reg, &o);
    if (isa == ISA_X64) {
        emu_call(e, f.ret_slot, I64x1, 1, &(uint64_t){7}, TY_NONE, 0, &o);
        const char *want = "stack-write: the caller's stack at entry sp+0 changed (0x7,";
        expect(t, is_trap(&o, TRAP_ABI) && !strncmp(o.reason, want, strlen(want)),
               "the return address slot is the caller's: overwritten -> stack-write", &o);
    }
    emu_free(e);
}

int main(void)
{
    Tally t = {0, 0};
    run_isa(&t, ISA_X64, "r15");
    run_isa(&t, ISA_A64, "x28");
    return report(&t, "emu_harness");
}
