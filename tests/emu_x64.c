/* emu_x64.c — the Unicorn runner on x86-64: hand-assembled functions (each checked
 * against Capstone's listing) run through oracle/emu.h: constants and masking,
 * integer and float arguments in registers and on the stack, heap stores, trap
 * table mapping (ud2, idiv #DE), faults, timeouts, helpers, throw, calls through
 * relocations, code reloading, state reset, and 1,000 runs on one engine. */
#include "tests/emu_util.h"
#include "tests/emu_args_heap.h"

typedef struct {
    uint32_t konst, add, fadd_d, fadd_s, args9, mixed, ud2_mapped, ud2_free, idiv, load,
        store, jump, loop, smash, hlt, fmod_d, fmod_s, fexp_d, fexp_s, thrower, caller,
        code_ptr, set_rbx, get_rbx, div_rz, div_d, echo, idiv32, recurse, pop_extra, int3_mapped,
        int80, sys, fmod_misaligned, lock_cmp, far_call_reg, load_late;
} Funcs;

static void mov_r10_heap(Asm *a)
{
    X86(a, 0x41, 0xBA, 0x00, 0x00, 0x00, 0x10); /* mov r10d, 0x10000000 */
}

/* sub rsp,8; mov rax, <helper or function>; call rax; add rsp,8; ret */
static void call_via_rax(Asm *a, RelocTarget target, uint32_t index)
{
    X86(a, 0x48, 0x83, 0xEC, 0x08);
    X86(a, 0x48, 0xB8);
    asm_abs64(a, target, index, 0);
    X86(a, 0xFF, 0xD0);
    X86(a, 0x48, 0x83, 0xC4, 0x08);
    X86(a, 0xC3);
}

static void build_basic(Asm *a, Funcs *f)
{
    f->konst = asm_func(a); /* junk above the low 32 bits: an i32 result is masked */
    X86(a, 0x48, 0xB8);
    asm_u64(a, 0xFFFFFFFF0000002Aull);
    X86(a, 0xC3);
    f->add = asm_func(a);
    X86(a, 0x48, 0x89, 0xF8, 0x48, 0x01, 0xF0, 0xC3);
    f->fadd_d = asm_func(a);
    X86(a, 0xF2, 0x0F, 0x58, 0xC1, 0xC3);
    f->fadd_s = asm_func(a);
    X86(a, 0xF3, 0x0F, 0x58, 0xC1, 0xC3);
    f->args9 = asm_func(a); /* store the 9 integer arguments to heap[8*i], return the 9th */
    mov_r10_heap(a);
    X86(a, 0x49, 0x89, 0x3A, 0x49, 0x89, 0x72, 0x08, 0x49, 0x89, 0x52, 0x10, 0x49, 0x89, 0x4A,
        0x18, 0x4D, 0x89, 0x42, 0x20, 0x4D, 0x89, 0x4A, 0x28);
    for (uint8_t k = 0; k < 3; k++)
        X86(a, 0x48, 0x8B, 0x44, 0x24, (uint8_t)(8 + 8 * k), 0x49, 0x89, 0x42, (uint8_t)(48 + 8 * k));
    X86(a, 0xC3);
    f->mixed = asm_func(a); /* (f64 x 9, i64): xmm0-7, [rsp+8], rdi -> heap[8*i] */
    mov_r10_heap(a);
    for (uint8_t k = 0; k < 8; k++)
        X86(a, 0xF2, 0x41, 0x0F, 0x11, (uint8_t)(0x42 | (k << 3)), (uint8_t)(8 * k));
    X86(a, 0xF2, 0x0F, 0x10, 0x44, 0x24, 0x08, 0xF2, 0x41, 0x0F, 0x11, 0x42, 0x40);
    X86(a, 0x49, 0x89, 0x7A, 0x48, 0xC3);
}

static void build_traps(Asm *a, Funcs *f)
{
    f->ud2_mapped = asm_func(a);
    X86(a, 0x90);
    asm_trap(a, TRAP_OVERFLOW);
    X86(a, 0x0F, 0x0B);
    f->ud2_free = asm_func(a);
    X86(a, 0x0F, 0x0B);
    f->int3_mapped = asm_func(a);
    X86(a, 0x90);
    asm_trap(a, TRAP_DIV0);
    X86(a, 0xCC);
    f->int80 = asm_func(a);
    X86(a, 0xCD, 0x80, 0xC3);
    f->sys = asm_func(a);
    X86(a, 0x0F, 0x05, 0xC3);
    f->idiv = asm_func(a); /* rdi / rsi */
    X86(a, 0x48, 0x89, 0xF8, 0x48, 0x99);
    asm_trap(a, TRAP_DIV0);
    X86(a, 0x48, 0xF7, 0xFE, 0xC3);
    f->idiv32 = asm_func(a); /* edi / esi */
    X86(a, 0x89, 0xF8, 0x99);
    asm_trap(a, TRAP_DIV0);
    X86(a, 0xF7, 0xFE, 0xC3);
    f->load = asm_func(a); /* return [rdi] */
    X86(a, 0x48, 0x8B, 0x07, 0xC3);
    f->load_late = asm_func(a); /* the load is the third instruction of its block */
    X86(a, 0x90, 0x48, 0x83, 0xC0, 0x01, 0x48, 0x8B, 0x07, 0xC3);
    f->store = asm_func(a); /* [rdi] = rsi */
    X86(a, 0x48, 0x89, 0x37, 0xC3);
    f->jump = asm_func(a); /* jmp rdi */
    X86(a, 0xFF, 0xE7);
    f->loop = asm_func(a); /* jmp $ */
    X86(a, 0xEB, 0xFE);
    f->smash = asm_func(a); /* overwrite the return address, then ret */
    X86(a, 0x48, 0xC7, 0x04, 0x24, 0x34, 0x12, 0x00, 0x00, 0xC3);
    f->hlt = asm_func(a);
    X86(a, 0xF4);
    f->lock_cmp = asm_func(a); /* #UD on hardware; kills Unicorn 2.0.1: run isolated only */
    X86(a, 0xF0, 0x83, 0x38, 0x01, 0xC3);
    f->far_call_reg = asm_func(a); /* FF /3 with a register operand: the same */
    X86(a, 0xFF, 0xD8, 0xC3);
    f->recurse = asm_func(a); /* call itself forever */
    X86(a, 0xE8, 0xFB, 0xFF, 0xFF, 0xFF);
}

static void build_calls(Asm *a, Funcs *f)
{
    f->fmod_d = asm_func(a);
    call_via_rax(a, TARGET_HELPER, HELPER_FMOD_F64);
    f->fmod_s = asm_func(a);
    call_via_rax(a, TARGET_HELPER, HELPER_FMOD_F32);
    f->fexp_d = asm_func(a);
    call_via_rax(a, TARGET_HELPER, HELPER_FEXP_F64);
    f->fexp_s = asm_func(a);
    call_via_rax(a, TARGET_HELPER, HELPER_FEXP_F32);
    f->fmod_misaligned = asm_func(a); /* mov rax, <fmod>; call rax; ret: rsp off by 8 */
    X86(a, 0x48, 0xB8);
    asm_abs64(a, TARGET_HELPER, HELPER_FMOD_F64, 0);
    X86(a, 0xFF, 0xD0, 0xC3);
    f->thrower = asm_func(a); /* throw (i32)rdi */
    X86(a, 0xBE, TY_I32, 0x00, 0x00, 0x00);
    call_via_rax(a, TARGET_HELPER, HELPER_THROW);
    f->caller = asm_func(a); /* add(rdi, rsi) * 2 through an absolute address */
    X86(a, 0x48, 0x83, 0xEC, 0x08, 0x48, 0xB8);
    asm_abs64(a, TARGET_FUNC, f->add, 0);
    X86(a, 0xFF, 0xD0, 0x48, 0x01, 0xC0, 0x48, 0x83, 0xC4, 0x08, 0xC3);
    f->code_ptr = asm_func(a); /* the 8 code bytes at add+3 (an addend), read as data */
    X86(a, 0x48, 0xB8);
    asm_abs64(a, TARGET_FUNC, f->add, 3);
    X86(a, 0x48, 0x8B, 0x00, 0xC3);
    f->set_rbx = asm_func(a); /* mov ebx, 77; mov rax, rbx; ret */
    X86(a, 0xBB, 0x4D, 0x00, 0x00, 0x00, 0x48, 0x89, 0xD8, 0xC3);
    f->get_rbx = asm_func(a);
    X86(a, 0x48, 0x89, 0xD8, 0xC3);
    f->div_rz = asm_func(a); /* MXCSR := round toward zero, then divsd */
    X86(a, 0x48, 0x83, 0xEC, 0x08, 0xC7, 0x04, 0x24, 0x80, 0x7F, 0x00, 0x00, 0x0F, 0xAE, 0x14, 0x24,
        0x48, 0x83, 0xC4, 0x08, 0xF2, 0x0F, 0x5E, 0xC1, 0xC3);
    f->div_d = asm_func(a);
    X86(a, 0xF2, 0x0F, 0x5E, 0xC1, 0xC3);
    f->pop_extra = asm_func(a); /* return with rsp 8 too high */
    X86(a, 0x59, 0x5A, 0xFF, 0xE1);
    f->echo = asm_func(a); /* mov rax, rdi; ret */
    X86(a, 0x48, 0x89, 0xF8, 0xC3);
}

static void check_listings(Tally *t, const Asm *a, const Funcs *f)
{
    check_listing(t, a, f->konst, "movabs rax, 0xffffffff0000002a; ret");
    check_listing(t, a, f->add, "mov rax, rdi; add rax, rsi; ret");
    check_listing(t, a, f->fadd_d, "addsd xmm0, xmm1; ret");
    check_listing(t, a, f->fadd_s, "addss xmm0, xmm1; ret");
    check_listing(t, a, f->args9,
                  "mov r10d, 0x10000000; mov qword ptr [r10], rdi; mov qword ptr [r10 + 8], rsi; "
                  "mov qword ptr [r10 + 0x10], rdx; mov qword ptr [r10 + 0x18], rcx; "
                  "mov qword ptr [r10 + 0x20], r8; mov qword ptr [r10 + 0x28], r9; "
                  "mov rax, qword ptr [rsp + 8]; mov qword ptr [r10 + 0x30], rax; "
                  "mov rax, qword ptr [rsp + 0x10]; mov qword ptr [r10 + 0x38], rax; "
                  "mov rax, qword ptr [rsp + 0x18]; mov qword ptr [r10 + 0x40], rax; ret");
    check_listing(t, a, f->mixed,
                  "mov r10d, 0x10000000; movsd qword ptr [r10], xmm0; movsd qword ptr [r10 + 8], xmm1; "
                  "movsd qword ptr [r10 + 0x10], xmm2; movsd qword ptr [r10 + 0x18], xmm3; "
                  "movsd qword ptr [r10 + 0x20], xmm4; movsd qword ptr [r10 + 0x28], xmm5; "
                  "movsd qword ptr [r10 + 0x30], xmm6; movsd qword ptr [r10 + 0x38], xmm7; "
                  "movsd xmm0, qword ptr [rsp + 8]; movsd qword ptr [r10 + 0x40], xmm0; "
                  "mov qword ptr [r10 + 0x48], rdi; ret");
    check_listing(t, a, f->ud2_mapped, "nop; ud2");
    check_listing(t, a, f->ud2_free, "ud2");
    check_listing(t, a, f->int3_mapped, "nop; int3");
    check_listing(t, a, f->int80, "int 0x80; ret");
    check_listing(t, a, f->sys, "syscall; ret");
    check_listing(t, a, f->idiv, "mov rax, rdi; cqo; idiv rsi; ret");
    check_listing(t, a, f->idiv32, "mov eax, edi; cdq; idiv esi; ret");
    check_listing(t, a, f->load, "mov rax, qword ptr [rdi]; ret");
    check_listing(t, a, f->load_late, "nop; add rax, 1; mov rax, qword ptr [rdi]; ret");
    check_listing(t, a, f->store, "mov qword ptr [rdi], rsi; ret");
    check_listing(t, a, f->jump, "jmp rdi");
    check_listing(t, a, f->loop, "jmp 0");
    check_listing(t, a, f->smash, "mov qword ptr [rsp], 0x1234; ret");
    check_listing(t, a, f->hlt, "hlt");
    check_listing(t, a, f->lock_cmp, "(undecodable bytes)"); /* invalid encodings */
    check_listing(t, a, f->far_call_reg, "(undecodable bytes)");
    check_listing(t, a, f->recurse, "call 0");
    check_listing(t, a, f->fmod_d, "sub rsp, 8; movabs rax, 0; call rax; add rsp, 8; ret");
    check_listing(t, a, f->fmod_misaligned, "movabs rax, 0; call rax; ret");
    check_listing(t, a, f->thrower, "mov esi, 4; sub rsp, 8; movabs rax, 0; call rax; add rsp, 8; ret");
    check_listing(t, a, f->caller, "sub rsp, 8; movabs rax, 0; call rax; add rax, rax; add rsp, 8; ret");
    check_listing(t, a, f->code_ptr, "movabs rax, 0; mov rax, qword ptr [rax]; ret");
    check_listing(t, a, f->set_rbx, "mov ebx, 0x4d; mov rax, rbx; ret");
    check_listing(t, a, f->get_rbx, "mov rax, rbx; ret");
    check_listing(t, a, f->div_rz,
                  "sub rsp, 8; mov dword ptr [rsp], 0x7f80; ldmxcsr dword ptr [rsp]; add rsp, 8; "
                  "divsd xmm0, xmm1; ret");
    check_listing(t, a, f->div_d, "divsd xmm0, xmm1; ret");
    check_listing(t, a, f->pop_extra, "pop rcx; pop rdx; jmp rcx");
    check_listing(t, a, f->echo, "mov rax, rdi; ret");
}

static const Type I64x2[] = {TY_I64, TY_I64};
static const Type F64x2[] = {TY_F64, TY_F64};
static const Type F32x2[] = {TY_F32, TY_F32};

static void run2(Emu *e, uint32_t f, const Type *ty, uint64_t a, uint64_t b, Type ret, Outcome *o)
{
    uint64_t args[2] = {a, b};
    emu_call(e, f, ty, 2, args, ret, 0, o);
}

static void test_values(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    emu_call(e, f->konst, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_return(o, TY_I32, 42) && o->steps >= 1, "constant, i32 masked", o);
    emu_call(e, f->konst, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, 0xFFFFFFFF0000002Aull), "constant, i64", o);
    run2(e, f->add, I64x2, 40, 2, TY_I64, o);
    expect(t, is_return(o, TY_I64, 42), "add 40 + 2", o);
    Type sig[] = {TY_I64, TY_I64};
    Func fn = {.name = "add", .params = sig, .nparams = 2, .ret = TY_I64, .index = f->add};
    uint64_t args[] = {30, 12};
    emu_call_func(e, &fn, args, 0, o);
    expect(t, is_return(o, TY_I64, 42), "emu_call_func: signature from the Func", o);
    run2(e, f->add, I64x2, (uint64_t)-5, 3, TY_I64, o);
    expect(t, is_return(o, TY_I64, (uint64_t)-2), "add -5 + 3", o);
    const Type i32x2[] = {TY_I32, TY_I32};
    run2(e, f->add, i32x2, 0xFFFFFFFFu, 2, TY_I32, o);
    expect(t, is_return(o, TY_I32, 1), "add i32 wraps, junk above ignored", o);
    run2(e, f->fadd_d, F64x2, f64_bits(1.5), f64_bits(2.25), TY_F64, o);
    expect(t, is_return(o, TY_F64, f64_bits(3.75)), "fadd f64", o);
    run2(e, f->fadd_s, F32x2, f32_bits(1.5f), f32_bits(-0.25f), TY_F32, o);
    expect(t, is_return(o, TY_F32, f32_bits(1.25f)), "fadd f32", o);
}

static void test_junk(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    const Type i32[] = {TY_I32};
    uint64_t arg = 0x12345678;
    emu_call(e, f->echo, i32, 1, &arg, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && (o->bits & 0xFFFFFFFFu) == 0x12345678 && (o->bits >> 32) != 0,
           "narrow argument carries junk above its width", o);
    emu_set_junk_args(e, false);
    emu_call(e, f->echo, i32, 1, &arg, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, 0x12345678), "junk off: zero above the width", o);
    emu_set_junk_args(e, true);
}

static void test_args_heap(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    const ArgsHeapFuncs fs = {f->args9, f->mixed, f->konst};
    check_args_heap(t, e, &fs, "9 integer arguments (3 on the stack) stored to the heap in order",
                    "9 doubles (1 on the stack) and an integer in rdi", o);
}

static void test_traps(Tally *t, Emu *e, const Asm *a, const Funcs *f, Outcome *o)
{
    emu_call(e, f->ud2_mapped, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_OVERFLOW), "ud2 at a trap-table offset -> its kind", o);
    emu_call(e, f->ud2_free, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL), "ud2 not in the trap table -> illegal", o);
    emu_call(e, f->int3_mapped, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_DIV0), "int3 at a trap-table offset -> its kind", o);
    emu_call(e, f->int80, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL), "int 0x80 -> illegal", o);
    emu_call(e, f->sys, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL), "syscall -> illegal", o);
    run2(e, f->idiv, I64x2, 7, 0, TY_I64, o);
    expect(t, is_trap(o, TRAP_DIV0), "idiv by zero -> div0", o);
    run2(e, f->idiv, I64x2, (uint64_t)-42, 5, TY_I64, o);
    expect(t, is_return(o, TY_I64, (uint64_t)-8), "idiv -42 / 5", o);
    run2(e, f->idiv, I64x2, 0x8000000000000000ull, (uint64_t)-1, TY_I64, o);
    expect(t, is_trap(o, TRAP_OVERFLOW), "idiv INT64_MIN / -1 (#DE, divisor not zero) -> overflow", o);
    const Type i32x2[] = {TY_I32, TY_I32};
    run2(e, f->idiv32, i32x2, 5, 0, TY_I32, o);
    expect(t, is_trap(o, TRAP_DIV0), "32-bit idiv by zero (junk above the divisor) -> div0", o);
    run2(e, f->idiv32, i32x2, 0x80000000u, 0xFFFFFFFFu, TY_I32, o);
    expect(t, is_trap(o, TRAP_OVERFLOW), "32-bit idiv INT32_MIN / -1 -> overflow", o);
    run2(e, f->idiv32, i32x2, (uint32_t)-7, 2, TY_I32, o);
    expect(t, is_return(o, TY_I32, (uint32_t)-3), "32-bit idiv -7 / 2", o);
    const Type i64[] = {TY_I64};
    uint64_t addr = 0x1000;
    emu_call(e, f->load, i64, 1, &addr, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_FAULT), "load from an unmapped page -> fault", o);
    char where[64];
    snprintf(where, sizeof where, "code offset 0x%x)", a->entry[f->load_late] + 5);
    for (int i = 0; i < 2; i++) {
        emu_call(e, f->load_late, i64, 1, &addr, TY_I64, 0, o);
        expect(t, is_trap(o, TRAP_FAULT) && strstr(o->reason, where), "a fault names its instruction, every run", o);
    }
    addr = HEAP_ADDR + HEAP_SIZE;
    emu_call(e, f->load, i64, 1, &addr, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_FAULT), "load just past the heap -> fault", o);
    addr = HEAP_ADDR + HEAP_SIZE - 8;
    emu_call(e, f->load, i64, 1, &addr, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && o->bits == heap_u64(o, HEAP_SIZE - 8), "load of the heap's last 8 bytes", o);
    run2(e, f->store, I64x2, EMU_CODE_ADDR, 0, TY_NONE, o);
    expect(t, is_trap(o, TRAP_FAULT), "store into the code -> fault", o);
    run2(e, f->store, I64x2, HEAP_ADDR + 100, 0xDEADBEEFCAFEF00Dull, TY_NONE, o);
    expect(t, o->kind == OUT_RETURN && heap_u64(o, 100) == 0xDEADBEEFCAFEF00Dull && heap_is_pattern(o, 100, 108),
           "store into the heap", o);
    addr = 0x12345678;
    emu_call(e, f->jump, i64, 1, &addr, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_FAULT), "jump into unmapped memory -> fault", o);
    addr = HEAP_ADDR;
    emu_call(e, f->jump, i64, 1, &addr, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_FAULT), "jump into the heap (not executable) -> fault", o);
    emu_call(e, f->smash, NULL, 0, NULL, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_FAULT), "corrupted return address -> fault", o);
    emu_call(e, f->hlt, NULL, 0, NULL, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL), "hlt -> illegal", o);
    emu_call(e, f->recurse, NULL, 0, NULL, TY_NONE, 0, o);
    expect(t, o->kind == OUT_TIMEOUT && strstr(o->reason, "stack exhausted"),
           "runaway recursion -> timeout (stack exhausted), like the interpreter's depth limit", o);
    double t0 = now_seconds();
    emu_call(e, f->loop, NULL, 0, NULL, TY_NONE, 100000, o);
    expect(t, o->kind == OUT_TIMEOUT && o->steps == 100000 && now_seconds() - t0 < 5.0,
           "infinite loop -> timeout after exactly the block budget", o);
}

static void test_helpers(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    run2(e, f->fmod_d, F64x2, f64_bits(7.5), f64_bits(2.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, f64_bits(1.5)), "fmod(7.5, 2)", o);
    run2(e, f->fmod_d, F64x2, f64_bits(-7.5), f64_bits(2.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, f64_bits(-1.5)), "fmod(-7.5, 2)", o);
    run2(e, f->fmod_d, F64x2, f64_bits(1.0), f64_bits(0.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x7ff8000000000000ull), "fmod(1, 0) -> canonical NaN", o);
    run2(e, f->fmod_misaligned, F64x2, f64_bits(7.5), f64_bits(2.0), TY_F64, o);
    expect(t, is_trap(o, TRAP_ABI) && strstr(o->reason, "abi-misaligned-call: fmod f64"),
           "ABI check: helper called with a misaligned stack -> abi-misaligned-call", o);
    run2(e, f->fmod_s, F32x2, f32_bits(7.5f), f32_bits(2.0f), TY_F32, o);
    expect(t, is_return(o, TY_F32, f32_bits(1.5f)), "fmodf(7.5, 2)", o);
    run2(e, f->fmod_s, F32x2, f32_bits(INFINITY), f32_bits(2.0f), TY_F32, o);
    expect(t, is_return(o, TY_F32, 0x7fc00000u), "fmodf(inf, 2) -> canonical NaN", o);
    run2(e, f->fexp_d, F64x2, f64_bits(2.0), f64_bits(10.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, f64_bits(1024.0)), "pow(2, 10)", o);
    run2(e, f->fexp_d, F64x2, f64_bits(-8.0), f64_bits(1.0 / 3.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x7ff8000000000000ull), "pow(-8, 1/3) -> canonical NaN", o);
    run2(e, f->fexp_s, F32x2, f32_bits(3.0f), f32_bits(2.0f), TY_F32, o);
    expect(t, is_return(o, TY_F32, f32_bits(9.0f)), "powf(3, 2)", o);
    run2(e, f->fexp_s, F32x2, f32_bits(-2.0f), f32_bits(0.5f), TY_F32, o);
    expect(t, is_return(o, TY_F32, 0x7fc00000u), "powf(-2, 0.5) -> canonical NaN", o);
    const Type i64[] = {TY_I64};
    uint64_t v = 0xFFFFFFFF80000001ull;
    emu_call(e, f->thrower, i64, 1, &v, TY_I64, 0, o);
    expect(t, o->kind == OUT_THROW && o->type == TY_I32 && o->bits == 0x80000001u, "throw i32", o);
    run2(e, f->caller, I64x2, 20, 1, TY_I64, o);
    expect(t, is_return(o, TY_I64, 42), "call through RELOC_ABS64: add(20, 1) * 2", o);
}

/* the addend test's expected value depends on the bytes that follow add: read them */
static void test_addend(Tally *t, Emu *e, const Asm *a, const Funcs *f, Outcome *o)
{
    uint64_t want = 0;
    for (int k = 7; k >= 0; k--)
        want = (want << 8) | a->code[a->entry[f->add] + 3 + (uint32_t)k];
    emu_call(e, f->code_ptr, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, want), "RELOC_ABS64 with addend 3 reads the code bytes at add+3", o);
}

static void test_reset(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    emu_call(e, f->set_rbx, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_ABI) && !strncmp(o->reason, "abi-clobber-rbx: ", 17),
           "ABI check: callee-saved rbx changed -> abi-clobber-rbx", o);
    emu_call(e, f->pop_extra, NULL, 0, NULL, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_ABI) && strstr(o->reason, "abi-sp: returned with the stack pointer off by 8"),
           "ABI check: stack pointer not restored -> abi-sp", o);
    emu_set_abi_check(e, false);
    emu_call(e, f->set_rbx, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, 77), "set rbx (ABI check off)", o);
    emu_call(e, f->get_rbx, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && o->bits != 77 && no_zero_byte(o->bits),
           "rbx holds its pattern at the next run's entry, not what the last run left", o);
    emu_set_abi_check(e, true);
    /* 1/10 = 0x3FB999999999999A rounded to nearest (up); toward zero it ends in 9 */
    run2(e, f->div_rz, F64x2, f64_bits(1.0), f64_bits(10.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x3FB9999999999999ull), "divsd under MXCSR round-toward-zero", o);
    run2(e, f->div_d, F64x2, f64_bits(1.0), f64_bits(10.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x3FB999999999999Aull), "MXCSR back to 0x1F80 at the next run", o);
    for (int i = 0; i < 3; i++) {
        run2(e, f->idiv, I64x2, 1, 0, TY_I64, o);
        expect(t, is_trap(o, TRAP_DIV0), "#DE again and again: never a double fault", o);
    }
}

static void one_blob(Asm *a, uint8_t value)
{
    asm_init(a, ISA_X64);
    asm_func(a);
    X86(a, 0xB8, value, 0x00, 0x00, 0x00, 0xC3); /* mov eax, value; ret */
}

static void test_reload(Tally *t, Emu *e, Outcome *o)
{
    static Asm a;
    bool ok = true;
    for (uint8_t round = 1; round <= 20 && ok; round++) {
        one_blob(&a, round);
        if (round % 3 == 0) /* a longer blob now and then: shorter ones follow it */
            for (int k = 0; k < 100; k++)
                X86(&a, 0x90);
        CodeBlob b = asm_blob(&a);
        ok = emu_load(e, &b);
        emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
        ok = ok && is_return(o, TY_I32, round);
    }
    expect(t, ok, "reloading new code at the same address runs the new code", o);
    ok = true;
    for (uint8_t round = 1; round <= 4 && ok; round++) { /* the function on the third page */
        asm_init(&a, ISA_X64);
        while (a.size < 0x2345)
            X86(&a, 0xCC);
        asm_func(&a);
        X86(&a, 0xB8, round, 0x00, 0x00, 0x00, 0xC3);
        CodeBlob b = asm_blob(&a);
        ok = emu_load(e, &b);
        emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
        ok = ok && is_return(o, TY_I32, round);
    }
    expect(t, ok, "reloading code that changed on a later page runs the new code", o);
    emu_set_recycle_loads(e, 7); /* a fresh engine every 7 loads */
    ok = true;
    for (unsigned round = 1; round <= 40 && ok; round++) {
        one_blob(&a, round);
        CodeBlob rb = asm_blob(&a);
        ok = emu_load(e, &rb);
        for (int k = 0; k < 3 && ok; k++) {
            emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
            ok = is_return(o, TY_I32, round);
        }
    }
    expect(t, ok, "loads and runs across engine recycling", o);
    emu_set_recycle_loads(e, 0);
    asm_init(&a, ISA_A64);
    asm_func(&a);
    asm_u32(&a, 0xD65F03C0);
    CodeBlob b = asm_blob(&a);
    t->checks++;
    if (emu_load(e, &b)) {
        t->failures++;
        fprintf(stderr, "FAIL an arm64 blob loaded into an x86-64 engine\n");
    }
    emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, o->kind == OUT_INVALID, "nothing runnable after a failed load", o);
    CodeBlob hollow = {.isa = ISA_X64, .size = 4, .nfuncs = 1};
    t->checks++;
    if (emu_load(e, &hollow) || !strstr(emu_error(e), "without the arrays")) {
        t->failures++;
        fprintf(stderr, "FAIL a blob with counts but no arrays was accepted (%s)\n", emu_error(e));
    }
    one_blob(&a, 9);
    a.relocs[0] = (Reloc){.offset = 2, .kind = RELOC_ABS64, .target = TARGET_FUNC, .index = 5};
    a.nrelocs = 1;
    b = asm_blob(&a);
    t->checks++;
    if (emu_load(e, &b) || strstr(emu_error(e), "relocation") == NULL) {
        t->failures++;
        fprintf(stderr, "FAIL a relocation to a missing function was accepted (%s)\n", emu_error(e));
    }
}

/* the wall-clock safety net, with and without Unicorn's timer thread */
static void test_wall(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    for (int thread = 0; thread < 2; thread++) {
        emu_set_wall_timeout(e, 50000, thread);
        double t0 = now_seconds();
        emu_call(e, f->loop, NULL, 0, NULL, TY_NONE, 1ull << 62, o);
        double dt = now_seconds() - t0;
        expect(t, o->kind == OUT_TIMEOUT && strstr(o->reason, "wall-clock") && dt >= 0.04 && dt < 5.0,
               thread ? "wall-clock limit (Unicorn timer) -> timeout" : "wall-clock limit (block hook) -> timeout", o);
    }
    emu_set_wall_timeout(e, EMU_DEFAULT_WALL_US, true);
}

/* runs in a forked child give the same outcomes; encodings that kill Unicorn
 * become an illegal trap there, and the engine here is unharmed */
static void test_isolation(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    static Outcome here;
    const Type i64[] = {TY_I64};
    uint64_t addr = 0x1000;
    struct { uint32_t f; uint32_t n; const Type *ty; uint64_t a, b; Type ret; uint64_t budget; } cases[] = {
        {f->add, 2, I64x2, 40, 2, TY_I64, 0},
        {f->store, 2, I64x2, HEAP_ADDR + 16, 0x1122334455667788ull, TY_NONE, 0},
        {f->idiv, 2, I64x2, 1, 0, TY_I64, 0},
        {f->load, 1, i64, addr, 0, TY_I64, 0},
        {f->loop, 0, NULL, 0, 0, TY_NONE, 1000},
        {f->fmod_d, 2, F64x2, f64_bits(7.5), f64_bits(2.0), TY_F64, 0},
        {f->thrower, 1, i64, 5, 0, TY_I64, 0},
    };
    if (!emu_set_isolation(e, true)) {
        t->checks++, t->failures++;
        fprintf(stderr, "FAIL isolation cannot be set up\n");
        return;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t args[2] = {cases[i].a, cases[i].b};
        emu_set_isolation(e, false);
        emu_call(e, cases[i].f, cases[i].ty, cases[i].n, args, cases[i].ret, cases[i].budget, &here);
        emu_set_isolation(e, true);
        emu_call(e, cases[i].f, cases[i].ty, cases[i].n, args, cases[i].ret, cases[i].budget, o);
        expect(t, outcome_equal(&here, o, NULL, 0) && here.steps == o->steps && here.kind == o->kind,
               "isolated run: same outcome, steps and heap", o);
    }
    emu_call(e, f->lock_cmp, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL) && strstr(o->reason, "emulator died") && heap_is_pattern(o, 0, 0),
           "lock cmp (kills Unicorn 2.0.1) -> illegal when isolated", o);
    emu_call(e, f->far_call_reg, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL) && strstr(o->reason, "emulator died"),
           "call far through a register (kills Unicorn 2.0.1) -> illegal when isolated", o);
    emu_set_isolation(e, false);
    run2(e, f->add, I64x2, 40, 2, TY_I64, o);
    expect(t, is_return(o, TY_I64, 42), "the engine in this process still runs", o);
}

typedef struct {
    uint32_t f;
    uint32_t nargs;
    const Type *ty;
    uint64_t args[2];
    Type ret;
    uint64_t budget;
} Case;

/* 1,000 back-to-back runs of a mix of outcomes; returns runs per second */
static double test_reuse(Tally *t, Emu *e, const Funcs *f, Outcome *o, int runs)
{
    const Type i64[] = {TY_I64};
    const Case cases[] = {
        {f->add, 2, I64x2, {40, 2}, TY_I64, 0},
        {f->fmod_d, 2, F64x2, {f64_bits(7.5), f64_bits(2.0)}, TY_F64, 0},
        {f->idiv, 2, I64x2, {1, 0}, TY_I64, 0},
        {f->load, 1, i64, {8, 0}, TY_I64, 0},
        {f->loop, 0, NULL, {0, 0}, TY_NONE, 50},
        {f->store, 2, I64x2, {HEAP_ADDR + 8, 5}, TY_NONE, 0},
        {f->thrower, 1, i64, {3, 0}, TY_I64, 0},
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    int bad = 0;
    double t0 = now_seconds();
    for (int i = 0; i < runs; i++) {
        const Case *c = &cases[i % ncases];
        emu_call(e, c->f, c->ty, c->nargs, c->args, c->ret, c->budget, o);
        switch (i % ncases) {
        case 0: bad += !is_return(o, TY_I64, 42); break;
        case 1: bad += !is_return(o, TY_F64, f64_bits(1.5)); break;
        case 2: bad += !is_trap(o, TRAP_DIV0); break;
        case 3: bad += !is_trap(o, TRAP_FAULT); break;
        case 4: bad += !(o->kind == OUT_TIMEOUT && o->steps == 50); break;
        case 5: bad += !(o->kind == OUT_RETURN && heap_u64(o, 8) == 5); break;
        default: bad += !(o->kind == OUT_THROW && o->bits == 3); break;
        }
    }
    double dt = now_seconds() - t0;
    t->checks++;
    if (bad) {
        t->failures++;
        fprintf(stderr, "FAIL %d of %d back-to-back runs gave a wrong outcome\n", bad, runs);
    }
    return runs / dt;
}

int main(void)
{
    static Asm a;
    static Outcome o;
    Funcs f;
    Tally t = {0, 0};
    asm_init(&a, ISA_X64);
    build_basic(&a, &f);
    build_traps(&a, &f);
    build_calls(&a, &f);
    check_listings(&t, &a, &f);
    Emu *e = load_or_die(ISA_X64, &a);
    test_values(&t, e, &f, &o);
    test_junk(&t, e, &f, &o);
    test_args_heap(&t, e, &f, &o);
    test_traps(&t, e, &a, &f, &o);
    test_helpers(&t, e, &f, &o);
    test_addend(&t, e, &a, &f, &o);
    test_reset(&t, e, &f, &o);
    check_stack_reset(&t, e, f.store, f.load, &o);
    test_wall(&t, e, &f, &o);
    test_isolation(&t, e, &f, &o);
    double rate = test_reuse(&t, e, &f, &o, 1000);
    emu_set_wall_timeout(e, EMU_DEFAULT_WALL_US, false);
    double rate_nowall = test_reuse(&t, e, &f, &o, 1000);
    printf("x86-64: 1000 mixed runs on one engine: %.0f runs/s (%.0f runs/s without the Unicorn timer thread)\n",
           rate, rate_nowall);
    test_reload(&t, e, &o);
    emu_free(e);
    return report(&t, "emu_x64");
}
