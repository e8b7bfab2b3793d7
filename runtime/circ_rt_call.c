/* circ_rt_call.c — calls whose traps and throws become outcomes (circ_rt.h): signal
 * handlers on an alternate stack map the trapping instruction to its kind through
 * the trap tables of every object linked (section circ_traps, circ_abi.h) and jump
 * back to the call.  A signal handler gets no context of ours, so the call in
 * progress is the one piece of thread-local state of the library. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mmap flags, sigaction, sigsetjmp and the signal context under -std=c11 */
#endif
#include "circ_rt.h"

#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <ucontext.h>

typedef struct {
    sigjmp_buf back;
    CircRtOutcome *out;
    const CircRtTraps *traps; /* a table beyond the linked ones (NULL: none) */
} CallFrame;

static _Thread_local CallFrame *current_call;

/* the entries of every object linked (empty when none has a trap) */
extern const CircAbiTrap __start_circ_traps[] __attribute__((weak));
extern const CircAbiTrap __stop_circ_traps[] __attribute__((weak));

unsigned circ_rt_trap_at(const void *pc)
{
    for (const CircAbiTrap *t = __start_circ_traps; t && t < __stop_circ_traps; t++)
        if ((const char *)&t->where + t->where == (const char *)pc)
            return t->kind;
    return 0;
}

const char *circ_rt_trap_name(unsigned kind)
{
    static const char *const names[] = {"?", "div0", "overflow", "fault", "illegal"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

/* ends the call in progress with outcome o (outside one, the process exits with 3) */
static _Noreturn void end_call(CircRtOutcome o)
{
    CallFrame *f = current_call;
    if (!f)
        exit(3);
    *f->out = o;
    siglongjmp(f->back, 1);
}

_Noreturn void circ_rt_throw(uint64_t bits, uint32_t type)
{
    end_call((CircRtOutcome){.kind = CIRC_RT_THROW, .bits = bits, .type = type});
}

_Noreturn void circ_rt_trap_now(unsigned kind) { end_call((CircRtOutcome){.kind = CIRC_RT_TRAP, .trap = kind}); }

#if defined(__x86_64__)
/* the divisor register of a div/idiv at pc (F6/F7 /6 /7 with a register operand),
 * masked to its width: x86's #DE does not say whether it was zero or an overflow */
static bool x86_divisor(const uint8_t *b, const ucontext_t *uc, uint64_t *divisor)
{
    static const int gpr[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
    unsigned i = 0, bits = 32, rex = 0;
    for (; i < 4 && (b[i] == 0x66 || b[i] == 0xf2 || b[i] == 0xf3); i++)
        if (b[i] == 0x66)
            bits = 16;
    if ((b[i] & 0xF0) == 0x40)
        rex = b[i++];
    bits = rex & 8 ? 64 : b[i] == 0xF6 ? 8 : bits;
    uint8_t modrm = b[i + 1];
    if ((b[i] != 0xF6 && b[i] != 0xF7) || modrm >> 6 != 3 || ((modrm >> 3) & 7) < 6)
        return false;
    unsigned rm = (modrm & 7u) | (rex & 1u) << 3;
    bool high_byte = bits == 8 && !rex && rm >= 4; /* ah ch dh bh */
    uint64_t v = (uint64_t)uc->uc_mcontext.gregs[gpr[high_byte ? rm - 4 : rm]] >> (high_byte ? 8 : 0);
    *divisor = bits == 64 ? v : v & ((1ull << bits) - 1);
    return true;
}

static const void *signal_pc(const ucontext_t *uc) { return (const void *)uc->uc_mcontext.gregs[REG_RIP]; }
#elif defined(__aarch64__)
static const void *signal_pc(const ucontext_t *uc) { return (const void *)uc->uc_mcontext.pc; }
#else
#error "libcirc_rt knows the signal context of x86-64 and AArch64"
#endif

unsigned circ_rt_signal_trap(int sig, const void *ucontext, unsigned listed)
{
    if (sig == SIGSEGV || sig == SIGBUS)
        return CIRC_ABI_TRAP_FAULT;
#if defined(__x86_64__)
    uint64_t divisor;
    const ucontext_t *uc = ucontext;
    if (sig == SIGFPE && listed && x86_divisor(signal_pc(uc), uc, &divisor))
        return divisor == 0 ? CIRC_ABI_TRAP_DIV0 : CIRC_ABI_TRAP_OVERFLOW;
#else
    (void)ucontext;
#endif
    return listed ? listed : CIRC_ABI_TRAP_ILLEGAL;
}

const void *circ_rt_signal_pc(const void *ucontext) { return signal_pc(ucontext); }

static void on_trap(int sig, siginfo_t *info, void *ctx)
{
    (void)info;
    CallFrame *f = current_call;
    if (!f) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    const char *pc = signal_pc(ctx);
    unsigned listed = circ_rt_trap_at(pc);
    for (uint32_t i = 0; !listed && f->traps && i < f->traps->n; i++)
        if (f->traps->base + f->traps->offsets[i] == pc)
            listed = f->traps->kinds[i];
    *f->out = (CircRtOutcome){.kind = CIRC_RT_TRAP, .trap = circ_rt_signal_trap(sig, ctx, listed)};
    siglongjmp(f->back, 1);
}

static bool install_handlers(void)
{
    enum { ALT_STACK = 64 * 1024 };
    stack_t old; /* a sanitizer's runtime may have made one already: keep it */
    if (sigaltstack(NULL, &old) != 0 || (old.ss_flags & SS_DISABLE)) {
        stack_t ss = {.ss_sp = malloc(ALT_STACK), .ss_size = ALT_STACK};
        if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0)
            return false;
    }
    struct sigaction sa = {.sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGFPE, SIGILL, SIGTRAP, SIGSEGV, SIGBUS};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], &sa, NULL) != 0)
            return false;
    return true;
}

bool circ_rt_call(CircRtCaller call, const uint64_t *args, CircRtOutcome *out)
{
    return circ_rt_call_traps(call, args, NULL, out);
}

bool circ_rt_call_traps(CircRtCaller call, const uint64_t *args, const CircRtTraps *traps, CircRtOutcome *out)
{
    struct sigaction cur; /* installed once: SIGILL's handler is ours */
    if ((sigaction(SIGILL, NULL, &cur) != 0 || cur.sa_sigaction != on_trap) && !install_handlers())
        return false;
    CallFrame frame = {.out = out, .traps = traps};
    *out = (CircRtOutcome){.kind = CIRC_RT_RETURN};
    if (sigsetjmp(frame.back, 1) == 0) {
        current_call = &frame;
        call(args, &out->bits);
    }
    current_call = NULL;
    return true;
}
