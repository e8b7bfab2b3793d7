/* emu_stack.c — the runner's stack below its always-mapped top (oracle/emu.h): a run
 * that reaches deep into it finds the run's pattern there, at every depth down to
 * the stack's bottom and in any order of depths, and the next run finds its own
 * pattern again where the previous one wrote (x86-64, hand-assembled functions
 * checked against Capstone's listing). */
#include "tests/emu_util.h"

typedef struct {
    uint32_t xor_depths, /* [rsp - rdi] ^ [rsp - rsi]: 0 when both hold the same pattern word */
        read_depth,      /* [rsp - rdi] */
        zero_depth;      /* [rsp - rdi] = 0 */
} StackFuncs;

static void build(Asm *a, StackFuncs *f)
{
    f->xor_depths = asm_func(a);
    X86(a, 0x48, 0x89, 0xE0, 0x48, 0x29, 0xF8, 0x48, 0x8B, 0x00, 0x48, 0x89, 0xE1, 0x48, 0x29, 0xF1, 0x48,
        0x33, 0x01, 0xC3);
    f->read_depth = asm_func(a);
    X86(a, 0x48, 0x89, 0xE0, 0x48, 0x29, 0xF8, 0x48, 0x8B, 0x00, 0xC3);
    f->zero_depth = asm_func(a);
    X86(a, 0x48, 0x89, 0xE0, 0x48, 0x29, 0xF8, 0x48, 0xC7, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC3);
}

static void listings(Tally *t, const Asm *a, const StackFuncs *f)
{
    check_listing(t, a, f->xor_depths,
                  "mov rax, rsp; sub rax, rdi; mov rax, qword ptr [rax]; mov rcx, rsp; sub rcx, rsi; "
                  "xor rax, qword ptr [rcx]; ret");
    check_listing(t, a, f->read_depth, "mov rax, rsp; sub rax, rdi; mov rax, qword ptr [rax]; ret");
    check_listing(t, a, f->zero_depth, "mov rax, rsp; sub rax, rdi; mov qword ptr [rax], 0; ret");
}

static const Type I64x2[] = {TY_I64, TY_I64};

/* the stack pattern repeats every 512 bytes: a word `deep` below the stack pointer
 * equals the one 64 below it in the always-mapped top when deep = 64 mod 512 */
static void same_pattern(Tally *t, Emu *e, const StackFuncs *f, uint64_t deep, const char *what)
{
    Outcome o;
    uint64_t args[2] = {deep, 64};
    emu_call(e, f->xor_depths, I64x2, 2, args, TY_I64, 0, &o);
    expect(t, is_return(&o, TY_I64, 0), what, &o);
    emu_call(e, f->read_depth, I64x2, 1, args, TY_I64, 0, &o);
    expect(t, o.kind == OUT_RETURN && no_zero_byte(o.bits), "a deep word holds a pattern, never zero", &o);
}

int main(void)
{
    Tally t = {0, 0};
    Asm a;
    StackFuncs f;
    asm_init(&a, ISA_X64);
    build(&a, &f);
    listings(&t, &a, &f);
    Emu *e = load_or_die(ISA_X64, &a);
    const uint64_t depths[] = {20 * 1024 + 64, 200 * 1024 + 64, 64 * 1024 + 64, EMU_STACK_SIZE - 1024 + 64,
                               100 * 1024 + 64, 16 * 1024 + 64};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++)
        same_pattern(&t, e, &f, depths[i], "the pattern below the stack's top, at any depth and order");
    Outcome o;
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        emu_call(e, f.zero_depth, I64x2, 1, &depths[i], TY_NONE, 0, &o);
        expect(&t, o.kind == OUT_RETURN, "a write deep in the stack", &o);
        same_pattern(&t, e, &f, depths[i], "the next run's pattern where the last one wrote");
    }
    uint64_t below = EMU_STACK_SIZE + 4096; /* under the stack's bottom: the guard */
    emu_call(e, f.read_depth, I64x2, 1, &below, TY_I64, 0, &o);
    expect(&t, o.kind == OUT_TIMEOUT && strstr(o.reason, "stack exhausted"), "below the stack: exhausted", &o);
    same_pattern(&t, e, &f, 300 * 1024 + 64, "the stack after an exhausted run");
    emu_free(e);
    return report(&t, "emu_stack");
}
