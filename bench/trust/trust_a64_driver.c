/* trust_a64_driver.c — the AArch64 side of the ARM64 emulator trust test
 * (trust_a64.c), run under qemu-aarch64: reads TrustCase records (trust_state.h) from
 * standard input until its end and writes a TrustResult for each to standard output.
 * Each case runs in an RWX page laid out as
 *     ldr x30, [sp]; add sp, sp, #16     x30 of the case (trust_enter left it there)
 *     the instruction's words
 *     sub sp, sp, #16; str x30, [sp]     keep x30 of the result
 *     ldr x30, =trust_exit; br x30
 * so that every general register (but sp) and every vector register holds the case's
 * value, with the case's NZCV and FPCR 0, while the instruction runs.  trust_exit
 * stores them all and returns from trust_enter.  A signal (SIGILL, SIGSEGV, ...)
 * during the instruction is a fault: ok 0.  Plain C11 with inline assembly,
 * cross-compiled with aarch64-linux-gnu-gcc -static (tests/trust.cmake; the I/O of
 * runtime/circ_fdio.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mmap flags under -std=c11 */
#endif
#include "trust_state.h"
#include "circ_fdio.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__aarch64__)
#error "trust_a64_driver.c is AArch64 code"
#endif

/* trust_enter(in, out, page): runs the page with every register from *in, every
 * register to *out (through trust_exit) */
void trust_enter(const TrustState *in, TrustState *out, const void *page);
void trust_exit(void);
__asm__(".text\n.globl trust_enter\n.type trust_enter, %function\ntrust_enter:\n"
        "stp x29, x30, [sp, #-176]!\nstp x19, x20, [sp, #16]\nstp x21, x22, [sp, #32]\n"
        "stp x23, x24, [sp, #48]\nstp x25, x26, [sp, #64]\nstp x27, x28, [sp, #80]\n"
        "stp d8, d9, [sp, #96]\nstp d10, d11, [sp, #112]\nstp d12, d13, [sp, #128]\nstp d14, d15, [sp, #144]\n"
        "str x1, [sp, #160]\n"
        "ldr x3, [x0, #240]\nstp x3, x2, [sp, #-16]!\n"
        "msr fpcr, xzr\nldr x3, [x0, #768]\nmsr nzcv, x3\n"
        "add x30, x0, #256\n"
        "ld1 {v0.2d, v1.2d, v2.2d, v3.2d}, [x30], #64\nld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [x30], #64\n"
        "ld1 {v8.2d, v9.2d, v10.2d, v11.2d}, [x30], #64\nld1 {v12.2d, v13.2d, v14.2d, v15.2d}, [x30], #64\n"
        "ld1 {v16.2d, v17.2d, v18.2d, v19.2d}, [x30], #64\nld1 {v20.2d, v21.2d, v22.2d, v23.2d}, [x30], #64\n"
        "ld1 {v24.2d, v25.2d, v26.2d, v27.2d}, [x30], #64\nld1 {v28.2d, v29.2d, v30.2d, v31.2d}, [x30], #64\n"
        "mov x30, x0\n"
        "ldp x0, x1, [x30, #0]\nldp x2, x3, [x30, #16]\nldp x4, x5, [x30, #32]\nldp x6, x7, [x30, #48]\n"
        "ldp x8, x9, [x30, #64]\nldp x10, x11, [x30, #80]\nldp x12, x13, [x30, #96]\nldp x14, x15, [x30, #112]\n"
        "ldp x16, x17, [x30, #128]\nldp x18, x19, [x30, #144]\nldp x20, x21, [x30, #160]\n"
        "ldp x22, x23, [x30, #176]\nldp x24, x25, [x30, #192]\nldp x26, x27, [x30, #208]\n"
        "ldp x28, x29, [x30, #224]\n"
        "ldr x30, [sp, #8]\nbr x30\n"
        ".size trust_enter, .-trust_enter\n"
        ".globl trust_exit\n.type trust_exit, %function\ntrust_exit:\n"
        "stp x0, x1, [sp, #-16]!\n"
        "ldr x0, [sp, #192]\n"
        "stp x2, x3, [x0, #16]\nstp x4, x5, [x0, #32]\nstp x6, x7, [x0, #48]\nstp x8, x9, [x0, #64]\n"
        "stp x10, x11, [x0, #80]\nstp x12, x13, [x0, #96]\nstp x14, x15, [x0, #112]\nstp x16, x17, [x0, #128]\n"
        "stp x18, x19, [x0, #144]\nstp x20, x21, [x0, #160]\nstp x22, x23, [x0, #176]\n"
        "stp x24, x25, [x0, #192]\nstp x26, x27, [x0, #208]\nstp x28, x29, [x0, #224]\n"
        "mrs x1, nzcv\nstr x1, [x0, #768]\n"
        "ldr x1, [sp, #16]\nstp x1, xzr, [x0, #240]\n"
        "ldp x2, x3, [sp]\nstp x2, x3, [x0]\n"
        "add x1, x0, #256\n"
        "st1 {v0.2d, v1.2d, v2.2d, v3.2d}, [x1], #64\nst1 {v4.2d, v5.2d, v6.2d, v7.2d}, [x1], #64\n"
        "st1 {v8.2d, v9.2d, v10.2d, v11.2d}, [x1], #64\nst1 {v12.2d, v13.2d, v14.2d, v15.2d}, [x1], #64\n"
        "st1 {v16.2d, v17.2d, v18.2d, v19.2d}, [x1], #64\nst1 {v20.2d, v21.2d, v22.2d, v23.2d}, [x1], #64\n"
        "st1 {v24.2d, v25.2d, v26.2d, v27.2d}, [x1], #64\nst1 {v28.2d, v29.2d, v30.2d, v31.2d}, [x1], #64\n"
        "add sp, sp, #32\n"
        "ldp x19, x20, [sp, #16]\nldp x21, x22, [sp, #32]\nldp x23, x24, [sp, #48]\n"
        "ldp x25, x26, [sp, #64]\nldp x27, x28, [sp, #80]\n"
        "ldp d8, d9, [sp, #96]\nldp d10, d11, [sp, #112]\nldp d12, d13, [sp, #128]\nldp d14, d15, [sp, #144]\n"
        "ldp x29, x30, [sp], #176\nret\n"
        ".size trust_exit, .-trust_exit\n");

enum { PAGE_SIZE = 4096 };

typedef struct {
    uint32_t *page;      /* RWX */
    sigjmp_buf fault;
} Driver;

/* the signal handler reaches the run in progress through this (a handler has no
 * context argument of ours) */
static _Thread_local Driver *running;

static void on_fault(int sig)
{
    (void)sig;
    siglongjmp(running->fault, 1);
}

/* the page for one case (the layout atop this file) */
static void lay_out(Driver *d, const TrustCase *c)
{
    uint32_t *w = d->page, n = c->len / 4 < TRUST_CODE_MAX / 4 ? c->len / 4 : TRUST_CODE_MAX / 4;
    *w++ = 0xf94003fe;                  /* ldr x30, [sp] */
    *w++ = 0x910043ff;                  /* add sp, sp, #16 */
    memcpy(w, c->code, n * 4);
    w += n;
    if ((w - d->page) % 2)
        *w++ = 0xd503201f;              /* nop: the literal below 8-byte aligned */
    *w++ = 0xd10043ff;                  /* sub sp, sp, #16 */
    *w++ = 0xf90003fe;                  /* str x30, [sp] */
    *w++ = 0x5800005e;                  /* ldr x30, .+8 */
    *w++ = 0xd61f03c0;                  /* br x30 */
    uint64_t exit = (uint64_t)(uintptr_t)trust_exit;
    memcpy(w, &exit, 8);
    __builtin___clear_cache((char *)d->page, (char *)(w + 2));
}

static int set_up(Driver *d)
{
    d->page = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (d->page == MAP_FAILED)
        return 0;
    running = d;
    struct sigaction sa = {.sa_handler = on_fault};
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], &sa, NULL))
            return 0;
    return 1;
}

int main(void)
{
    Driver d;
    TrustCase c;
    TrustResult r;
    if (!set_up(&d))
        return 2;
    while (circ_read_all(&c, sizeof c)) {
        memset(&r, 0, sizeof r);
        lay_out(&d, &c);
        if (!sigsetjmp(d.fault, 1)) {
            trust_enter(&c.in, &r.out, d.page);
            r.ok = 1;
        }
        if (!circ_write_all(&r, sizeof r))
            return 2;
    }
    return 0;
}
