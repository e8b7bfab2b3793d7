/* emu_a64.c — the Unicorn runner on ARM64: hand-assembled functions (each checked
 * against Capstone's listing) run through oracle/emu.h: constants and masking,
 * integer and float arguments in registers and on the stack, heap stores, trap
 * table mapping (brk, udf), faults, timeouts, helpers, throw, calls through
 * relocations, code reloading, state reset (registers, FPCR), and 1,000 runs on one
 * engine. */
#include "tests/emu_util.h"
#include "tests/emu_args_heap.h"

/* the few AArch64 encodings the fixtures use (64-bit forms) */
static uint32_t movz(unsigned rd, unsigned imm, unsigned hw) { return 0xD2800000u | hw << 21 | imm << 5 | rd; }
static uint32_t movk(unsigned rd, unsigned imm, unsigned hw) { return 0xF2800000u | hw << 21 | imm << 5 | rd; }
static uint32_t add(unsigned rd, unsigned rn, unsigned rm) { return 0x8B000000u | rm << 16 | rn << 5 | rd; }
static uint32_t mov(unsigned rd, unsigned rm) { return 0xAA0003E0u | rm << 16 | rd; }
static uint32_t fadd_d(unsigned rd, unsigned rn, unsigned rm) { return 0x1E602800u | rm << 16 | rn << 5 | rd; }
static uint32_t fadd_s(unsigned rd, unsigned rn, unsigned rm) { return 0x1E202800u | rm << 16 | rn << 5 | rd; }
static uint32_t fdiv_d(unsigned rd, unsigned rn, unsigned rm) { return 0x1E601800u | rm << 16 | rn << 5 | rd; }
static uint32_t str_x(unsigned rt, unsigned rn, unsigned off) { return 0xF9000000u | (off / 8) << 10 | rn << 5 | rt; }
static uint32_t ldr_x(unsigned rt, unsigned rn, unsigned off) { return 0xF9400000u | (off / 8) << 10 | rn << 5 | rt; }
static uint32_t str_d(unsigned rt, unsigned rn, unsigned off) { return 0xFD000000u | (off / 8) << 10 | rn << 5 | rt; }
static uint32_t ldr_d(unsigned rt, unsigned rn, unsigned off) { return 0xFD400000u | (off / 8) << 10 | rn << 5 | rt; }
static uint32_t ldr_lit(unsigned rt, int off) { return 0x58000000u | ((uint32_t)(off / 4) & 0x7FFFFu) << 5 | rt; }
static uint32_t brk(unsigned imm) { return 0xD4200000u | imm << 5; }
static uint32_t b(int off) { return 0x14000000u | ((uint32_t)(off / 4) & 0x3FFFFFFu); }
static uint32_t br(unsigned rn) { return 0xD61F0000u | rn << 5; }
static uint32_t blr(unsigned rn) { return 0xD63F0000u | rn << 5; }
static uint32_t cbz(unsigned rt, int off) { return 0xB4000000u | ((uint32_t)(off / 4) & 0x7FFFFu) << 5 | rt; }
static uint32_t sdiv(unsigned rd, unsigned rn, unsigned rm) { return 0x9AC00C00u | rm << 16 | rn << 5 | rd; }
static uint32_t msr_fpcr(unsigned rt) { return 0xD51B4400u | rt; }
#define RET 0xD65F03C0u
#define NOP 0xD503201Fu
#define UDF0 0x00000000u
#define PUSH_FP_LR 0xA9BF7BFDu /* stp x29, x30, [sp, #-16]! */
#define POP_FP_LR 0xA8C17BFDu  /* ldp x29, x30, [sp], #16 */

typedef struct {
    uint32_t konst, add, fadd_d, fadd_s, args9, mixed, brk_mapped, brk_free, udf, sdiv, load,
        store, jump, loop, smash, fmod_d, fmod_s, fexp_d, fexp_s, thrower, caller, code_ptr,
        set_x19, get_x19, div_rz, div_d, echo, recurse, pop_extra, set_d8, svc_mapped,
        fmod_misaligned, load_late;
} Funcs;

static void w(Asm *a, uint32_t insn)
{
    asm_u32(a, insn);
}

/* save fp/lr; x16 := <target> from a literal; blr x16; [extra]; restore; ret; literal */
static void call_via_x16(Asm *a, RelocTarget target, uint32_t index, uint32_t extra)
{
    w(a, PUSH_FP_LR);
    w(a, ldr_lit(16, extra ? 20 : 16));
    w(a, blr(16));
    if (extra)
        w(a, extra);
    w(a, POP_FP_LR);
    w(a, RET);
    asm_data(a);
    asm_abs64(a, target, index, 0);
}

static void build_basic(Asm *a, Funcs *f)
{
    f->konst = asm_func(a); /* junk above the low 32 bits: an i32 result is masked */
    w(a, movz(0, 42, 0));
    w(a, movk(0, 0xFFFF, 2));
    w(a, movk(0, 0xFFFF, 3));
    w(a, RET);
    f->add = asm_func(a);
    w(a, add(0, 0, 1));
    w(a, RET);
    f->fadd_d = asm_func(a);
    w(a, fadd_d(0, 0, 1));
    w(a, RET);
    f->fadd_s = asm_func(a);
    w(a, fadd_s(0, 0, 1));
    w(a, RET);
    f->args9 = asm_func(a); /* store the 9 integer arguments to heap[8*i], return the 9th */
    w(a, movz(10, 0x1000, 1));
    for (unsigned k = 0; k < 8; k++)
        w(a, str_x(k, 10, 8 * k));
    w(a, ldr_x(9, 31, 0));
    w(a, str_x(9, 10, 64));
    w(a, mov(0, 9));
    w(a, RET);
    f->mixed = asm_func(a); /* (f64 x 9, i64): d0-d7, [sp], x0 -> heap[8*i] */
    w(a, movz(10, 0x1000, 1));
    for (unsigned k = 0; k < 8; k++)
        w(a, str_d(k, 10, 8 * k));
    w(a, ldr_d(16, 31, 0));
    w(a, str_d(16, 10, 64));
    w(a, str_x(0, 10, 72));
    w(a, RET);
}

static void build_traps(Asm *a, Funcs *f)
{
    f->brk_mapped = asm_func(a);
    w(a, NOP);
    asm_trap(a, TRAP_OVERFLOW);
    w(a, brk(1));
    f->brk_free = asm_func(a);
    w(a, brk(2));
    f->udf = asm_func(a);
    w(a, UDF0);
    f->svc_mapped = asm_func(a);
    w(a, NOP);
    asm_trap(a, TRAP_DIV0);
    w(a, 0xD4000001u); /* svc #0 */
    w(a, RET);
    f->sdiv = asm_func(a); /* x0 / x1, a brk for a zero divisor (ARM64 sdiv never traps) */
    w(a, cbz(1, 12));
    w(a, sdiv(0, 0, 1));
    w(a, RET);
    asm_trap(a, TRAP_DIV0);
    w(a, brk(0x3E8));
    f->load = asm_func(a);
    w(a, ldr_x(0, 0, 0));
    w(a, RET);
    f->load_late = asm_func(a); /* the load is the third instruction of its block */
    w(a, NOP);
    w(a, 0x91000421u); /* add x1, x1, #1 */
    w(a, ldr_x(0, 0, 0));
    w(a, RET);
    f->store = asm_func(a);
    w(a, str_x(1, 0, 0));
    w(a, RET);
    f->jump = asm_func(a);
    w(a, br(0));
    f->loop = asm_func(a);
    w(a, b(0));
    f->smash = asm_func(a); /* return to a bad address */
    w(a, movz(30, 0x1234, 0));
    w(a, RET);
    f->recurse = asm_func(a); /* save fp/lr and call itself forever */
    w(a, PUSH_FP_LR);
    w(a, 0x97FFFFFFu); /* bl .-4 */
}

static void build_calls(Asm *a, Funcs *f)
{
    f->fmod_d = asm_func(a);
    call_via_x16(a, TARGET_HELPER, HELPER_FMOD_F64, 0);
    f->fmod_s = asm_func(a);
    call_via_x16(a, TARGET_HELPER, HELPER_FMOD_F32, 0);
    f->fexp_d = asm_func(a);
    call_via_x16(a, TARGET_HELPER, HELPER_FEXP_F64, 0);
    f->fexp_s = asm_func(a);
    call_via_x16(a, TARGET_HELPER, HELPER_FEXP_F32, 0);
    f->fmod_misaligned = asm_func(a); /* calls fmod with sp 8 off alignment */
    w(a, mov(17, 30));
    w(a, 0xD10023FFu); /* sub sp, sp, #8 */
    w(a, ldr_lit(16, 20));
    w(a, blr(16));
    w(a, 0x910023FFu); /* add sp, sp, #8 */
    w(a, mov(30, 17));
    w(a, RET);
    asm_data(a);
    asm_abs64(a, TARGET_HELPER, HELPER_FMOD_F64, 0);
    f->thrower = asm_func(a); /* throw (i32)x0 */
    w(a, movz(1, TY_I32, 0));
    call_via_x16(a, TARGET_HELPER, HELPER_THROW, 0);
    f->caller = asm_func(a); /* add(x0, x1) * 2 through an absolute address */
    call_via_x16(a, TARGET_FUNC, f->add, add(0, 0, 0));
    f->code_ptr = asm_func(a); /* the 8 code bytes at add+4 (an addend), read as data */
    w(a, ldr_lit(0, 12));
    w(a, ldr_x(0, 0, 0));
    w(a, RET);
    asm_data(a);
    asm_abs64(a, TARGET_FUNC, f->add, 4);
    f->set_x19 = asm_func(a);
    w(a, movz(19, 77, 0));
    w(a, mov(0, 19));
    w(a, RET);
    f->get_x19 = asm_func(a);
    w(a, mov(0, 19));
    w(a, RET);
    f->div_rz = asm_func(a); /* FPCR.RMode := toward zero, then fdiv */
    w(a, movz(9, 0xC0, 1));
    w(a, msr_fpcr(9));
    w(a, fdiv_d(0, 0, 1));
    w(a, RET);
    f->div_d = asm_func(a);
    w(a, fdiv_d(0, 0, 1));
    w(a, RET);
    f->pop_extra = asm_func(a); /* return with sp 16 too high */
    w(a, 0x910043FFu);
    w(a, RET);
    f->set_d8 = asm_func(a);
    w(a, 0x9E670008u);
    w(a, RET);
    f->echo = asm_func(a);
    w(a, RET);
}

static void check_listings(Tally *t, const Asm *a, const Funcs *f)
{
    check_listing(t, a, f->konst, "movz x0, #0x2a; movk x0, #0xffff, lsl #32; movk x0, #0xffff, lsl #48; ret");
    check_listing(t, a, f->add, "add x0, x0, x1; ret");
    check_listing(t, a, f->fadd_d, "fadd d0, d0, d1; ret");
    check_listing(t, a, f->fadd_s, "fadd s0, s0, s1; ret");
    check_listing(t, a, f->args9,
                  "movz x10, #0x1000, lsl #16; str x0, [x10]; str x1, [x10, #8]; str x2, [x10, #0x10]; "
                  "str x3, [x10, #0x18]; str x4, [x10, #0x20]; str x5, [x10, #0x28]; str x6, [x10, #0x30]; "
                  "str x7, [x10, #0x38]; ldr x9, [sp]; str x9, [x10, #0x40]; mov x0, x9; ret");
    check_listing(t, a, f->mixed,
                  "movz x10, #0x1000, lsl #16; str d0, [x10]; str d1, [x10, #8]; str d2, [x10, #0x10]; "
                  "str d3, [x10, #0x18]; str d4, [x10, #0x20]; str d5, [x10, #0x28]; str d6, [x10, #0x30]; "
                  "str d7, [x10, #0x38]; ldr d16, [sp]; str d16, [x10, #0x40]; str x0, [x10, #0x48]; ret");
    check_listing(t, a, f->brk_mapped, "nop; brk #0x1");
    check_listing(t, a, f->brk_free, "brk #0x2");
    check_listing(t, a, f->svc_mapped, "nop; svc #0; ret");
    check_listing(t, a, f->sdiv, "cbz x1, #0xc; sdiv x0, x0, x1; ret; brk #0x3e8");
    check_listing(t, a, f->load, "ldr x0, [x0]; ret");
    check_listing(t, a, f->load_late, "nop; add x1, x1, #1; ldr x0, [x0]; ret");
    check_listing(t, a, f->store, "str x1, [x0]; ret");
    check_listing(t, a, f->jump, "br x0");
    check_listing(t, a, f->loop, "b #0");
    check_listing(t, a, f->smash, "movz x30, #0x1234; ret");
    check_listing(t, a, f->recurse, "stp x29, x30, [sp, #-0x10]!; bl #0");
    check_listing(t, a, f->fmod_d, "stp x29, x30, [sp, #-0x10]!; ldr x16, #0x14; blr x16; ldp x29, x30, [sp], #0x10; ret");
    check_listing(t, a, f->fmod_misaligned,
                  "mov x17, x30; sub sp, sp, #8; ldr x16, #0x1c; blr x16; add sp, sp, #8; mov x30, x17; ret");
    check_listing(t, a, f->thrower,
                  "movz x1, #0x4; stp x29, x30, [sp, #-0x10]!; ldr x16, #0x18; blr x16; "
                  "ldp x29, x30, [sp], #0x10; ret");
    check_listing(t, a, f->caller,
                  "stp x29, x30, [sp, #-0x10]!; ldr x16, #0x18; blr x16; add x0, x0, x0; "
                  "ldp x29, x30, [sp], #0x10; ret");
    check_listing(t, a, f->code_ptr, "ldr x0, #0xc; ldr x0, [x0]; ret");
    check_listing(t, a, f->set_x19, "movz x19, #0x4d; mov x0, x19; ret");
    check_listing(t, a, f->get_x19, "mov x0, x19; ret");
    check_listing(t, a, f->div_rz, "movz x9, #0xc0, lsl #16; msr fpcr, x9; fdiv d0, d0, d1; ret");
    check_listing(t, a, f->div_d, "fdiv d0, d0, d1; ret");
    check_listing(t, a, f->pop_extra, "add sp, sp, #0x10; ret");
    check_listing(t, a, f->set_d8, "fmov d8, x0; ret");
    check_listing(t, a, f->echo, "ret");
}

static const Type I64x2[] = {TY_I64, TY_I64};
static const Type F64x2[] = {TY_F64, TY_F64};
static const Type F32x2[] = {TY_F32, TY_F32};

static void run2(Emu *e, uint32_t f, const Type *ty, uint64_t x, uint64_t y, Type ret, Outcome *o)
{
    uint64_t args[2] = {x, y};
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
    run2(e, f->add, I64x2, (uint64_t)-5, 3, TY_I64, o);
    expect(t, is_return(o, TY_I64, (uint64_t)-2), "add -5 + 3", o);
    const Type i32x2[] = {TY_I32, TY_I32};
    run2(e, f->add, i32x2, 0xFFFFFFFFu, 2, TY_I32, o);
    expect(t, is_return(o, TY_I32, 1), "add i32 wraps, junk above ignored", o);
    run2(e, f->fadd_d, F64x2, f64_bits(1.5), f64_bits(2.25), TY_F64, o);
    expect(t, is_return(o, TY_F64, f64_bits(3.75)), "fadd f64", o);
    run2(e, f->fadd_s, F32x2, f32_bits(1.5f), f32_bits(-0.25f), TY_F32, o);
    expect(t, is_return(o, TY_F32, f32_bits(1.25f)), "fadd f32", o);
    /* FPCR.DN = 0: a NaN operand's payload comes through (compiled code canonicalizes) */
    run2(e, f->fadd_d, F64x2, 0x7ff8000000000123ull, f64_bits(1.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x7ff8000000000123ull), "default-NaN off: payload propagates", o);
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
    check_args_heap(t, e, &fs, "9 integer arguments (1 on the stack) stored to the heap in order",
                    "9 doubles (1 on the stack) and an integer in x0", o);
}

static void test_traps(Tally *t, Emu *e, const Asm *a, const Funcs *f, Outcome *o)
{
    for (int i = 0; i < 3; i++) {
        emu_call(e, f->brk_mapped, NULL, 0, NULL, TY_I32, 0, o);
        expect(t, is_trap(o, TRAP_OVERFLOW), "brk at a trap-table offset -> its kind", o);
    }
    emu_call(e, f->brk_free, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL), "brk not in the trap table -> illegal", o);
    emu_call(e, f->udf, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_ILLEGAL), "udf -> illegal", o);
    emu_call(e, f->svc_mapped, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, is_trap(o, TRAP_DIV0), "svc at a trap-table offset -> its kind", o);
    run2(e, f->sdiv, I64x2, 7, 0, TY_I64, o);
    expect(t, is_trap(o, TRAP_DIV0), "guarded division by zero -> brk -> div0", o);
    run2(e, f->sdiv, I64x2, (uint64_t)-42, 5, TY_I64, o);
    expect(t, is_return(o, TY_I64, (uint64_t)-8), "sdiv -42 / 5", o);
    const Type i64[] = {TY_I64};
    uint64_t addr = 0x1000;
    emu_call(e, f->load, i64, 1, &addr, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_FAULT), "load from an unmapped page -> fault", o);
    char where[64];
    snprintf(where, sizeof where, "code offset 0x%x)", a->entry[f->load_late] + 8);
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
    emu_call(e, f->recurse, NULL, 0, NULL, TY_NONE, 0, o);
    expect(t, o->kind == OUT_TIMEOUT && strstr(o->reason, "stack exhausted"),
           "runaway recursion -> timeout (stack exhausted), like the interpreter's depth limit", o);
    double t0 = now_seconds();
    emu_call(e, f->loop, NULL, 0, NULL, TY_NONE, 100000, o);
    expect(t, o->kind == OUT_TIMEOUT && o->steps == 100000 && now_seconds() - t0 < 5.0,
           "infinite loop -> timeout after exactly the block budget", o);
}

static void test_helpers(Tally *t, Emu *e, const Asm *a, const Funcs *f, Outcome *o)
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
    emu_set_abi_check(e, false);
    run2(e, f->fmod_misaligned, F64x2, f64_bits(7.5), f64_bits(2.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, f64_bits(1.5)), "the same call with the ABI check off", o);
    emu_set_abi_check(e, true);
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
    uint64_t want = 0;
    for (int k = 7; k >= 0; k--)
        want = (want << 8) | a->code[a->entry[f->add] + 4 + (uint32_t)k];
    emu_call(e, f->code_ptr, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, want), "RELOC_ABS64 with addend 4 reads the code bytes at add+4", o);
}

static void test_reset(Tally *t, Emu *e, const Funcs *f, Outcome *o)
{
    emu_call(e, f->set_x19, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_ABI) && !strncmp(o->reason, "abi-clobber-x19: ", 17),
           "ABI check: callee-saved x19 changed -> abi-clobber-x19", o);
    const Type i64[] = {TY_I64};
    uint64_t five = 5;
    emu_call(e, f->set_d8, i64, 1, &five, TY_I64, 0, o);
    expect(t, is_trap(o, TRAP_ABI) && !strncmp(o->reason, "abi-clobber-d8: ", 16),
           "ABI check: callee-saved d8 changed -> abi-clobber-d8", o);
    emu_call(e, f->pop_extra, NULL, 0, NULL, TY_NONE, 0, o);
    expect(t, is_trap(o, TRAP_ABI) && strstr(o->reason, "abi-sp: returned with the stack pointer off by 16"),
           "ABI check: stack pointer not restored -> abi-sp", o);
    emu_set_abi_check(e, false);
    emu_call(e, f->set_x19, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, is_return(o, TY_I64, 77), "set x19 (ABI check off)", o);
    emu_call(e, f->get_x19, NULL, 0, NULL, TY_I64, 0, o);
    expect(t, o->kind == OUT_RETURN && o->bits != 77 && no_zero_byte(o->bits),
           "x19 holds its pattern at the next run's entry, not what the last run left", o);
    emu_set_abi_check(e, true);
    /* 1/10 = 0x3FB999999999999A rounded to nearest (up); toward zero it ends in 9 */
    run2(e, f->div_rz, F64x2, f64_bits(1.0), f64_bits(10.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x3FB9999999999999ull), "fdiv under FPCR round-toward-zero", o);
    run2(e, f->div_d, F64x2, f64_bits(1.0), f64_bits(10.0), TY_F64, o);
    expect(t, is_return(o, TY_F64, 0x3FB999999999999Aull), "FPCR back to 0 at the next run", o);
}

static void one_blob(Asm *a, unsigned value, unsigned pad)
{
    asm_init(a, ISA_A64);
    asm_func(a);
    w(a, movz(0, value, 0));
    w(a, RET);
    for (unsigned k = 0; k < pad; k++)
        w(a, NOP);
}

static void test_reload(Tally *t, Emu *e, Outcome *o)
{
    static Asm a;
    bool ok = true;
    for (unsigned round = 1; round <= 20 && ok; round++) {
        one_blob(&a, round, round % 3 == 0 ? 100 : 0);
        CodeBlob blob = asm_blob(&a);
        ok = emu_load(e, &blob);
        emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
        ok = ok && is_return(o, TY_I32, round);
    }
    expect(t, ok, "reloading new code at the same address runs the new code", o);
    ok = true;
    for (unsigned round = 1; round <= 4 && ok; round++) { /* the function on the third page */
        asm_init(&a, ISA_A64);
        while (a.size < 0x2344)
            w(&a, UDF0);
        asm_func(&a);
        w(&a, movz(0, round, 0));
        w(&a, RET);
        CodeBlob blob = asm_blob(&a);
        ok = emu_load(e, &blob);
        emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
        ok = ok && is_return(o, TY_I32, round);
    }
    expect(t, ok, "reloading code that changed on a later page runs the new code", o);
    emu_set_recycle_loads(e, 7); /* a fresh engine every 7 loads */
    ok = true;
    for (unsigned round = 1; round <= 40 && ok; round++) {
        one_blob(&a, round, 0);
        CodeBlob rb = asm_blob(&a);
        ok = emu_load(e, &rb);
        for (int k = 0; k < 3 && ok; k++) {
            emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
            ok = is_return(o, TY_I32, round);
        }
    }
    expect(t, ok, "loads and runs across engine recycling", o);
    emu_set_recycle_loads(e, 0);
    /* a blob bigger than the initial code region: the region grows */
    one_blob(&a, 0, 0);
    static uint8_t big[3u << 20];
    for (size_t k = 0; k + 4 <= sizeof big; k += 4) {
        uint32_t insn = k == 0 ? b((int)(sizeof big - 8)) : k == sizeof big - 8 ? movz(0, 7, 0) : k == sizeof big - 4 ? RET : NOP;
        memcpy(big + k, &insn, 4);
    }
    CodeBlob blob = asm_blob(&a);
    blob.code = big;
    blob.size = sizeof big;
    ok = emu_load(e, &blob);
    emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, ok && is_return(o, TY_I32, 7), "a 3 MiB blob (the code region grows)", o);
    one_blob(&a, 8, 0);
    blob = asm_blob(&a);
    ok = emu_load(e, &blob);
    emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, ok && is_return(o, TY_I32, 8), "a small blob after the big one", o);
    asm_init(&a, ISA_X64);
    asm_func(&a);
    X86(&a, 0xC3);
    blob = asm_blob(&a);
    t->checks++;
    if (emu_load(e, &blob)) {
        t->failures++;
        fprintf(stderr, "FAIL an x86-64 blob loaded into an arm64 engine\n");
    }
    emu_call(e, 0, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, o->kind == OUT_INVALID, "nothing runnable after a failed load", o);
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

typedef struct {
    uint32_t f;
    uint32_t nargs;
    const Type *ty;
    uint64_t args[2];
    Type ret;
    uint64_t budget;
} Case;

/* back-to-back runs of a mix of outcomes; returns runs per second */
static double test_reuse(Tally *t, Emu *e, const Funcs *f, Outcome *o, int runs)
{
    const Type i64[] = {TY_I64};
    const Case cases[] = {
        {f->add, 2, I64x2, {40, 2}, TY_I64, 0},
        {f->fmod_d, 2, F64x2, {f64_bits(7.5), f64_bits(2.0)}, TY_F64, 0},
        {f->sdiv, 2, I64x2, {1, 0}, TY_I64, 0},
        {f->load, 1, i64, {8, 0}, TY_I64, 0},
        {f->loop, 0, NULL, {0, 0}, TY_NONE, 50},
        {f->store, 2, I64x2, {HEAP_ADDR + 8, 5}, TY_NONE, 0},
        {f->thrower, 1, i64, {3, 0}, TY_I64, 0},
        {f->udf, 0, NULL, {0, 0}, TY_I64, 0},
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
        case 6: bad += !(o->kind == OUT_THROW && o->bits == 3); break;
        default: bad += !is_trap(o, TRAP_ILLEGAL); break;
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
    asm_init(&a, ISA_A64);
    build_basic(&a, &f);
    build_traps(&a, &f);
    build_calls(&a, &f);
    check_listings(&t, &a, &f);
    Emu *e = load_or_die(ISA_A64, &a);
    test_values(&t, e, &f, &o);
    test_args_heap(&t, e, &f, &o);
    test_traps(&t, e, &a, &f, &o);
    test_helpers(&t, e, &a, &f, &o);
    test_reset(&t, e, &f, &o);
    check_stack_reset(&t, e, f.store, f.load, &o);
    test_wall(&t, e, &f, &o);
    double rate = test_reuse(&t, e, &f, &o, 1000);
    emu_set_wall_timeout(e, EMU_DEFAULT_WALL_US, false);
    double rate_nothread = test_reuse(&t, e, &f, &o, 1000);
    printf("arm64: 1000 mixed runs on one engine: %.0f runs/s (%.0f runs/s without the Unicorn timer thread)\n",
           rate, rate_nothread);
    test_reload(&t, e, &o);
    emu_free(e);
    return report(&t, "emu_a64");
}
