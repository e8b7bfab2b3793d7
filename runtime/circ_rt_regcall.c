/* circ_rt_regcall.c — calls by register file (circ_rt.h): one small assembly routine
 * per host ISA loads the argument registers and the stack arguments, calls, and
 * keeps every result register, the threw flag's among them (docs/architecture.md),
 * which no C prototype can name next to a float result; and the host ABI's sorting
 * of bits-typed arguments into that register file for the callers of a module
 * header (circ compile --emit=header). */
#include "circ_rt.h"

#include <stddef.h>

_Static_assert(offsetof(CircRtRegs, nmem) == 8 && offsetof(CircRtRegs, ret_gp) == 16 &&
                   offsetof(CircRtRegs, ret_fp) == 24 && offsetof(CircRtRegs, ret_flag) == 32 &&
                   offsetof(CircRtRegs, gp) == 40 && offsetof(CircRtRegs, fp) == 104 &&
                   offsetof(CircRtRegs, mem) == 168,
               "the offsets the assembly below uses");

#if defined(__x86_64__)
/* SysV: six integer registers, xmm0-7; the stack arguments at rsp on the call,
 * rsp 16-aligned there (the count rounded up to even) */
__asm__(".text\n"
        ".globl circ_rt_regcall\n"
        ".type circ_rt_regcall, @function\n"
        "circ_rt_regcall:\n"
        "  push %rbp\n"
        "  mov %rsp, %rbp\n"
        "  push %rbx\n"
        "  push %r12\n"
        "  mov %rdi, %rbx\n"
        "  mov 8(%rbx), %rcx\n"
        "  add $1, %rcx\n"
        "  and $-2, %rcx\n"
        "  lea (,%rcx,8), %rax\n"
        "  sub %rax, %rsp\n"
        "  xor %eax, %eax\n"
        "1:\n"
        "  cmp %rcx, %rax\n"
        "  jae 2f\n"
        "  mov 168(%rbx,%rax,8), %rdx\n"
        "  mov %rdx, (%rsp,%rax,8)\n"
        "  inc %rax\n"
        "  jmp 1b\n"
        "2:\n"
        "  movq 104(%rbx), %xmm0\n"
        "  movq 112(%rbx), %xmm1\n"
        "  movq 120(%rbx), %xmm2\n"
        "  movq 128(%rbx), %xmm3\n"
        "  movq 136(%rbx), %xmm4\n"
        "  movq 144(%rbx), %xmm5\n"
        "  movq 152(%rbx), %xmm6\n"
        "  movq 160(%rbx), %xmm7\n"
        "  mov 40(%rbx), %rdi\n"
        "  mov 48(%rbx), %rsi\n"
        "  mov 56(%rbx), %rdx\n"
        "  mov 64(%rbx), %rcx\n"
        "  mov 72(%rbx), %r8\n"
        "  mov 80(%rbx), %r9\n"
        "  mov $8, %eax\n"
        "  call *(%rbx)\n"
        "  mov %rax, 16(%rbx)\n"
        "  movq %xmm0, 24(%rbx)\n"
        "  mov %rdx, 32(%rbx)\n"
        "  lea -16(%rbp), %rsp\n"
        "  pop %r12\n"
        "  pop %rbx\n"
        "  pop %rbp\n"
        "  ret\n"
        ".size circ_rt_regcall, .-circ_rt_regcall\n");
enum { GP_ARGS = 6 };
#elif defined(__aarch64__)
/* AAPCS64: x0-x7, d0-d7; the stack arguments at sp on the call, sp 16-aligned */
__asm__(".text\n"
        ".globl circ_rt_regcall\n"
        ".type circ_rt_regcall, %function\n"
        "circ_rt_regcall:\n"
        "  stp x29, x30, [sp, #-32]!\n"
        "  mov x29, sp\n"
        "  stp x19, x20, [sp, #16]\n"
        "  mov x19, x0\n"
        "  ldr x9, [x19, #8]\n"
        "  add x9, x9, #1\n"
        "  and x9, x9, #-2\n"
        "  lsl x10, x9, #3\n"
        "  sub sp, sp, x10\n"
        "  add x11, x19, #168\n"
        "  mov x10, #0\n"
        "1:\n"
        "  cmp x10, x9\n"
        "  b.hs 2f\n"
        "  ldr x12, [x11, x10, lsl #3]\n"
        "  str x12, [sp, x10, lsl #3]\n"
        "  add x10, x10, #1\n"
        "  b 1b\n"
        "2:\n"
        "  ldp d0, d1, [x19, #104]\n"
        "  ldp d2, d3, [x19, #120]\n"
        "  ldp d4, d5, [x19, #136]\n"
        "  ldp d6, d7, [x19, #152]\n"
        "  ldp x0, x1, [x19, #40]\n"
        "  ldp x2, x3, [x19, #56]\n"
        "  ldp x4, x5, [x19, #72]\n"
        "  ldp x6, x7, [x19, #88]\n"
        "  ldr x16, [x19]\n"
        "  blr x16\n"
        "  str x0, [x19, #16]\n"
        "  str d0, [x19, #24]\n"
        "  str x1, [x19, #32]\n"
        "  mov sp, x29\n"
        "  ldp x19, x20, [sp, #16]\n"
        "  ldp x29, x30, [sp], #32\n"
        "  ret\n"
        ".size circ_rt_regcall, .-circ_rt_regcall\n");
enum { GP_ARGS = 8 };
#else
#error "libcirc_rt calls by register file on x86-64 and AArch64"
#endif

/* the bits of a value of circ Type type (1 i1 ... 5 i64, 6 f32, 7 f64), 0 for none */
uint64_t circ_rt_type_mask(uint32_t type)
{
    static const uint64_t masks[] = {0, 1, 0xff, 0xffff, 0xffffffffu, ~0ull, 0xffffffffu, ~0ull};
    return type < sizeof masks / sizeof masks[0] ? masks[type] : 0;
}

void circ_rt_regs_rethrow(const CircRtRegs *r)
{
    if (!r->ret_flag)
        return;
    if (r->ret_flag - 1 < 1 || r->ret_flag - 1 > 7)
        circ_rt_trap_now(CIRC_ABI_TRAP_ILLEGAL);
    uint32_t type = (uint32_t)(r->ret_flag - 1);
    circ_rt_throw(r->ret_gp & circ_rt_type_mask(type), type);
}

/* an integer argument as C passes it: narrow ones sign-extended (bool zero-extended) */
static uint64_t int_arg(uint64_t bits, uint8_t type)
{
    switch (type) {
    case 1: return bits & 1;
    case 2: return (uint64_t)(int64_t)(int8_t)bits;
    case 3: return (uint64_t)(int64_t)(int16_t)bits;
    case 4: return (uint64_t)(int64_t)(int32_t)bits;
    default: return bits;
    }
}

bool circ_rt_regs_sort(CircRtRegs *r, const uint8_t *types, uint32_t n, const uint64_t *a)
{
    uint32_t g = 0, x = 0;
    r->nmem = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool fp = types[i] == 6 || types[i] == 7;
        uint64_t bits = fp ? a[i] & circ_rt_type_mask(types[i]) : int_arg(a[i], types[i]);
        if (fp && x < CIRC_RT_REGCALL_FP)
            r->fp[x++] = bits;
        else if (!fp && g < GP_ARGS)
            r->gp[g++] = bits;
        else if (r->nmem < CIRC_RT_REGCALL_MEM)
            r->mem[r->nmem++] = bits;
        else
            return false;
    }
    return true;
}

uint64_t circ_rt_call_flagged(uint64_t entry, const uint8_t *types, uint32_t n, uint32_t ret, const uint64_t *a)
{
    CircRtRegs r = {.entry = entry};
    if (!circ_rt_regs_sort(&r, types, n, a))
        circ_rt_trap_now(CIRC_ABI_TRAP_ILLEGAL);
    circ_rt_regcall(&r);
    if (circ_rt_linked_threw_flag()) /* -O2 may have removed every THROW, and the flag */
        circ_rt_regs_rethrow(&r);
    return (ret == 6 || ret == 7 ? r.ret_fp : r.ret_gp) & circ_rt_type_mask(ret);
}
