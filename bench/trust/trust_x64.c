/* trust_x64.c — the emulator trust test for x86-64 (dynarmic's fuzz_with_unicorn as
 * the model): random instructions of the forms table's straight-line forms whose
 * arguments are registers, immediates and conditions (no memory), each encoded by
 * the target's encoder and run alone, with random values in every general and
 * vector register and random status flags, once under Unicorn and once on the host
 * CPU.  The general and vector registers after it must agree, and a fault must
 * happen on both or on neither.  Flags are reported apart, and only those the
 * instruction defines (LIR relies on no flag after an instruction).
 *   trust_x64 [N] [SEED] [CPU]  N instructions (default 100000) of the forms of CPU
 *                         level CPU (default baseline; v3 needs a host with its
 *                         features, else exit 77); prints per form the
 *                         differences, then a summary; exit 1 on a difference
 *                         other than the known defects below (docs/objects.md).
 * popcnt is left out: Unicorn 2.0.1 has it on no CPU model and circ's runner
 * executes it itself (oracle/emu_x64.c; tests/cpu_levels.c checks it). */
#include "bench/trust/trust_common.h"
#include "compiler/x64/x64.h"

#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>

#if !defined(__x86_64__)
int main(void)
{
    puts("skipped: the trust test compares with an x86-64 host");
    return 77;
}
#else
/* trust_run(in, out, code): every register from *in, call code (ending in ret),
 * every register to *out */
void trust_run(const TrustState *in, TrustState *out, const void *code);
__asm__(".text\n.globl trust_run\ntrust_run:\n"
        "push %rbx\npush %rbp\npush %r12\npush %r13\npush %r14\npush %r15\n"
        "push %rsi\npush %rdx\n"
        "pushq 768(%rdi)\npopfq\n"
#define X(n) "movdqu " #n "*16+256(%rdi), %xmm" #n "\n"
        X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#undef X
        "mov 0(%rdi),%rax\nmov 8(%rdi),%rcx\nmov 16(%rdi),%rdx\nmov 24(%rdi),%rbx\nmov 40(%rdi),%rbp\n"
        "mov 48(%rdi),%rsi\nmov 64(%rdi),%r8\nmov 72(%rdi),%r9\nmov 80(%rdi),%r10\nmov 88(%rdi),%r11\n"
        "mov 96(%rdi),%r12\nmov 104(%rdi),%r13\nmov 112(%rdi),%r14\nmov 120(%rdi),%r15\nmov 56(%rdi),%rdi\n"
        "call *(%rsp)\n"
        "pushfq\npush %rdi\nmov 24(%rsp),%rdi\n"
        "mov %rax,0(%rdi)\nmov %rcx,8(%rdi)\nmov %rdx,16(%rdi)\nmov %rbx,24(%rdi)\nmov %rbp,40(%rdi)\n"
        "mov %rsi,48(%rdi)\nmov %r8,64(%rdi)\nmov %r9,72(%rdi)\nmov %r10,80(%rdi)\nmov %r11,88(%rdi)\n"
        "mov %r12,96(%rdi)\nmov %r13,104(%rdi)\nmov %r14,112(%rdi)\nmov %r15,120(%rdi)\n"
        "pop %rax\nmov %rax,56(%rdi)\npop %rax\nmov %rax,768(%rdi)\n"
#define X(n) "movdqu %xmm" #n ", " #n "*16+256(%rdi)\n"
        X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#undef X
        "add $16,%rsp\npop %r15\npop %r14\npop %r13\npop %r12\npop %rbp\npop %rbx\nret\n");

#define CODE_ADDR 0x10000ull

typedef struct {
    uint64_t rng;
    uint8_t *host_code;     /* RWX page */
    uc_engine *uc;
    bool interrupted;       /* Unicorn raised an exception */
    uint32_t host_sigfpes;  /* Unicorn's own division raised SIGFPE in this process */
    sigjmp_buf fault;       /* where a signal of the run in progress (host or Unicorn) goes */
} Trust;

static void random_state(Trust *t, TrustState *s)
{
    trust_random_regs(&t->rng, s, 16, 16);
    s->gp[4] = 0;
    s->flags = 0x202 | (trust_next(&t->rng) & 0x8d5); /* CF PF AF ZF SF OF */
}

/* the signal handler reaches the run in progress through this (a handler has no
 * context argument of ours) */
static _Thread_local Trust *faulting;

static void on_fault(int sig)
{
    (void)sig;
    siglongjmp(faulting->fault, 1);
}

/* the instruction on the host: false if it faulted */
static bool run_host(Trust *t, const uint8_t *code, size_t n, const TrustState *in, TrustState *out)
{
    memcpy(t->host_code, code, n);
    t->host_code[n] = 0xc3;
    faulting = t;
    if (sigsetjmp(t->fault, 1))
        return false;
    trust_run(in, out, t->host_code);
    return true;
}

static const int uc_gp[16] = {UC_X86_REG_RAX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RBX,
                              UC_X86_REG_RSP, UC_X86_REG_RBP, UC_X86_REG_RSI, UC_X86_REG_RDI,
                              UC_X86_REG_R8,  UC_X86_REG_R9,  UC_X86_REG_R10, UC_X86_REG_R11,
                              UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15};
static const int uc_xmm[16] = {UC_X86_REG_XMM0,  UC_X86_REG_XMM1,  UC_X86_REG_XMM2,  UC_X86_REG_XMM3,
                               UC_X86_REG_XMM4,  UC_X86_REG_XMM5,  UC_X86_REG_XMM6,  UC_X86_REG_XMM7,
                               UC_X86_REG_XMM8,  UC_X86_REG_XMM9,  UC_X86_REG_XMM10, UC_X86_REG_XMM11,
                               UC_X86_REG_XMM12, UC_X86_REG_XMM13, UC_X86_REG_XMM14, UC_X86_REG_XMM15};

static void on_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    (void)intno;
    ((Trust *)user)->interrupted = true;
    uc_emu_stop(uc);
}

/* one run of Unicorn: false if it faulted */
static bool run_emulated(Trust *t, const uint8_t *code, size_t n, const TrustState *in, TrustState *out)
{
    uint64_t mxcsr = 0x1f80, fpcw = 0x37f, flags = in->flags, sp = 0x30000;
    uint8_t buf[64];
    memcpy(buf, code, n);
    buf[n] = 0xf4; /* hlt after it */
    uc_mem_write(t->uc, CODE_ADDR, buf, n + 1);
    uc_ctl_remove_cache(t->uc, CODE_ADDR, CODE_ADDR + 0x1000);
    for (int i = 0; i < 16; i++) {
        uc_reg_write(t->uc, uc_gp[i], i == 4 ? &sp : &in->gp[i]);
        uc_reg_write(t->uc, uc_xmm[i], in->vec[i]);
    }
    uc_reg_write(t->uc, UC_X86_REG_EFLAGS, &flags);
    uc_reg_write(t->uc, UC_X86_REG_MXCSR, &mxcsr);
    uc_reg_write(t->uc, UC_X86_REG_FPCW, &fpcw);
    t->interrupted = false;
    uc_err err = uc_emu_start(t->uc, CODE_ADDR, CODE_ADDR + n, 0, 0);
    uint64_t pc = 0;
    uc_reg_read(t->uc, UC_X86_REG_RIP, &pc);
    if (err != UC_ERR_OK || t->interrupted || pc != CODE_ADDR + n)
        return false;
    for (int i = 0; i < 16; i++) {
        uc_reg_read(t->uc, uc_gp[i], &out->gp[i]);
        uc_reg_read(t->uc, uc_xmm[i], out->vec[i]);
    }
    uc_reg_read(t->uc, UC_X86_REG_EFLAGS, &out->flags);
    return true;
}

static bool open_unicorn(Trust *t)
{
    uc_hook hook;
    return uc_open(UC_ARCH_X86, UC_MODE_64, &t->uc) == UC_ERR_OK &&
           uc_mem_map(t->uc, CODE_ADDR, 0x1000, UC_PROT_ALL) == UC_ERR_OK &&
           uc_mem_map(t->uc, 0x20000, 0x10000, UC_PROT_READ | UC_PROT_WRITE) == UC_ERR_OK &&
           uc_hook_add(t->uc, &hook, UC_HOOK_INTR, (void *)on_interrupt, t, 1, 0) == UC_ERR_OK;
}

/* the instruction under Unicorn: false if it faulted.  The known defect of
 * docs/objects.md: Unicorn's 32-bit idiv divides EDX:EAX by the divisor in C on
 * the host, so a dividend of -2^63 by -1 raises SIGFPE in this process instead of
 * the guest's #DE.  The signal comes back here (the jump buffer is this
 * run's), counts in host_sigfpes as a fault, and the engine, left mid-run, is made
 * anew. */
static bool run_unicorn(Trust *t, const uint8_t *code, size_t n, const TrustState *in, TrustState *out)
{
    faulting = t;
    if (sigsetjmp(t->fault, 1)) {
        t->host_sigfpes++;
        uc_close(t->uc);
        if (!open_unicorn(t)) {
            fputs("trust_x64: cannot reopen Unicorn\n", stderr);
            exit(2);
        }
        return false;
    }
    return run_emulated(t, code, n, in, out);
}

/* the status flags an encoder kind's instructions define (the rest are undefined
 * after them or not theirs) */
static uint64_t defined_flags(const LirForm *f)
{
    switch (f->enc) {
    case X64E_SHIFT: case X64E_DIV: return 0;   /* OF/AF (shifts) or all (div) undefined */
    case X64E_IMUL: case X64E_MULWIDE: case X64E_CHECKED: return 0x801; /* CF and OF only
                                                   (add/sub too: the checked forms share a row) */
    case X64E_BITOP: return 0x40;               /* ZF only (bsf bsr; lzcnt tzcnt: and CF) */
    default: return 0x8c5;                      /* CF PF ZF SF OF (AF: undefined for logic) */
    }
}

static bool is_nan(uint64_t bits, unsigned width)
{
    return width == 32 ? (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu)
                       : (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0xfffffffffffffull);
}

/* the known Unicorn defect (docs/objects.md): SSE scalar add/sub/mul/div of two NaNs
 * gives the second source's NaN under Unicorn and the destination's (first source's)
 * on the CPU.  Only the result lane differs, both results are NaNs, and the CPU's is
 * the destination's input (made quiet). */
static bool nan_pick(const LirForm *f, const TrustState *in, const TrustState *h, const TrustState *u)
{
    static const LirOp arith[] = {LIR_AddFloat, LIR_AddDouble, LIR_SubFloat, LIR_SubDouble,
                                  LIR_MulFloat, LIR_MulDouble, LIR_DivFloat, LIR_DivDouble};
    bool known = false;
    for (size_t i = 0; i < sizeof arith / sizeof arith[0]; i++)
        known |= f->op == arith[i];
    uint64_t lane = f->width == 32 ? 0xffffffffull : ~0ull;
    uint64_t quiet = f->width == 32 ? 0x400000ull : 0x8000000000000ull; /* a signalling NaN comes back quiet */
    int diffs = 0;
    for (int i = 0; known && i < 16; i++) {
        if (h->vec[i][0] == u->vec[i][0] && h->vec[i][1] == u->vec[i][1])
            continue;
        diffs++;
        known = h->vec[i][1] == u->vec[i][1] && (h->vec[i][0] & ~lane) == (u->vec[i][0] & ~lane) &&
                is_nan(h->vec[i][0] & lane, f->width) && is_nan(u->vec[i][0] & lane, f->width) &&
                (h->vec[i][0] & lane) == ((in->vec[i][0] | quiet) & lane);
    }
    for (int i = 0; known && i < 16; i++)
        known = i == 4 || h->gp[i] == u->gp[i];
    return known && diffs == 1;
}

static bool setup(Trust *t)
{
    t->host_code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t->host_code == MAP_FAILED)
        return false;
    struct sigaction sa = {.sa_handler = on_fault};
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGFPE, SIGILL, SIGSEGV, SIGBUS};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    return open_unicorn(t);
}

/* one instruction (n bytes of code) from state in through both; its verdict.  A
 * fault on the host with Unicorn's host SIGFPE (run_unicorn) is the known defect. */
static TrustVerdict trial(Trust *t, const LirForm *form, const uint8_t *code, size_t n, const TrustState *in)
{
    TrustState host, emu;
    memset(&host, 0, sizeof host);
    memset(&emu, 0, sizeof emu);
    uint32_t sigfpes = t->host_sigfpes;
    bool host_ok = run_host(t, code, n, in, &host);
    bool emu_ok = run_unicorn(t, code, n, in, &emu);
    if (t->host_sigfpes != sigfpes)
        return host_ok ? TRUST_DIFF_FAULT : TRUST_KNOWN;
    static const TrustShape shape = {.ngp = 16, .nvec = 16, .skip_gp = 1u << 4};
    TrustVerdict v = trust_compare(&shape, host_ok, emu_ok, &host, &emu, form ? defined_flags(form) : 0);
    return v == TRUST_DIFF_REGS && form && nan_pick(form, in, &host, &emu) ? TRUST_KNOWN : v;
}

/* the known host SIGFPE, shown on every run: idiv esi with EDX:EAX = -2^63 by -1 is
 * a #DE on the CPU and SIGFPE in this process under Unicorn; idiv si with DX:AX =
 * -2^31 by -1 is a #DE on both; an add after them agrees (Unicorn runs on) */
static bool directed(Trust *t)
{
    static const uint8_t idiv32[] = {0xf7, 0xfe}, idiv16[] = {0x66, 0xf7, 0xfe}, add[] = {0x48, 0x01, 0xf0};
    TrustState in;
    memset(&in, 0, sizeof in);
    in.flags = 0x202;
    in.gp[2] = 0x80000000;  /* rdx; rax 0 */
    in.gp[6] = ~0ull;       /* rsi */
    bool ok = trial(t, NULL, idiv32, sizeof idiv32, &in) == TRUST_KNOWN;
    in.gp[2] = 0x8000;
    ok &= trial(t, NULL, idiv16, sizeof idiv16, &in) == TRUST_SAME;
    ok &= trial(t, NULL, add, sizeof add, &in) == TRUST_SAME;
    printf("directed: idiv esi by -1 with EDX:EAX = -2^63: %s\n",
           ok ? "#DE on the CPU, SIGFPE in this process under Unicorn (known)" : "NOT the known defect");
    return ok;
}

/* does the host have the level's features (x64.h X64F_*)? */
static bool host_has(uint32_t features)
{
    unsigned a, b, c, d, have = 0;
    if (__get_cpuid(1, &a, &b, &c, &d))
        have |= (c >> 19 & 1 ? X64F_SSE41 : 0) | (c >> 23 & 1 ? X64F_POPCNT : 0);
    if (__get_cpuid(0x80000001, &a, &b, &c, &d))
        have |= c >> 5 & 1 ? X64F_LZCNT : 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d))
        have |= (b >> 3 & 1 ? X64F_BMI1 : 0) | (b >> 8 & 1 ? X64F_BMI2 : 0);
    return (features & ~have) == 0;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000;
    Trust t = {.rng = argc > 2 ? strtoull(argv[2], NULL, 0) | 1 : 0x9e3779b97f4a7c15ull};
    const Target *tg = target_level(target_find("x86-64"), argc > 3 ? argv[3] : "baseline");
    if (tg && !host_has(tg->features)) {
        puts("skipped: the host lacks the CPU level's features");
        return 77;
    }
    if (!tg || !setup(&t)) {
        fprintf(stderr, "trust_x64: cannot set up Unicorn or the host page\n");
        return 2;
    }
    TrustFormStats *st = calloc(tg->nforms, sizeof *st);
    Arena *a = arena_new();
    Code *c = lir_code_new(a, tg, "f", 0);
    lir_add_block(c, 1);
    bool differ = !directed(&t);
    uint32_t directed_sigfpes = t.host_sigfpes;
    for (uint64_t done = 0; done < n;) {
        LirAsm as;
        const LirForm *form;
        if (trust_draw(&t.rng, tg, c, &as, &form, 1u << 4) && form->op != LIR_PopCount32 &&
            form->op != LIR_PopCount64) {
            TrustState in;
            random_state(&t, &in);
            trust_record(&st[form - tg->forms], trial(&t, form, as.code, as.size, &in), as.code, as.size);
            done++;
        }
        lir_asm_free(&as);
    }
    differ |= trust_report(tg, st, n, "known (NaN picks and host SIGFPEs)");
    printf("of the known: %u host SIGFPEs under Unicorn\n", t.host_sigfpes - directed_sigfpes);
    uc_close(t.uc);
    arena_free(a);
    free(st);
    return differ;
}
#endif
