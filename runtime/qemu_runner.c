/* qemu_runner.c — the program the check's qemu stage runs under qemu-aarch64
 * (runtime/circ_runner.h): it maps its code region, says where it and the helpers
 * are, reads a relocated image, its trap table and the calls, and runs each call
 * with libcirc_rt (traps and throws as outcomes, the harness buffer reset per
 * call), writing an outcome and the buffer per call.  Built static for AArch64 by
 * runtime/CMakeLists.txt when aarch64-linux-gnu-gcc is installed. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mmap flags under -std=c11 */
#endif
#include "circ_rt.h"
#include "circ_runner.h"
#include "circ_fdio.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* the call by register file: the runner's registers are AAPCS64's; a set threw
 * flag (an object compiled with it) is the call's throw */
static void call_one(const uint64_t *args, uint64_t *ret)
{
    const CircRunnerCall *c = (const CircRunnerCall *)args;
    CircRtRegs r = {.entry = c->entry, .nmem = CIRC_RUNNER_MEM};
    memcpy(r.gp, c->gp, sizeof c->gp);
    memcpy(r.fp, c->fp, sizeof c->fp);
    memcpy(r.mem, c->mem, sizeof c->mem);
    circ_rt_regcall(&r);
    if (c->threw_flag)
        circ_rt_regs_rethrow(&r);
    *ret = c->float_result ? r.ret_fp : r.ret_gp;
}

static int say_hello(void)
{
    CircRunnerHello h = {CIRC_RUNNER_MAGIC, CIRC_RUNNER_BASE,
                         {(uint64_t)(uintptr_t)circ_rt_fmod_f32, (uint64_t)(uintptr_t)circ_rt_fmod_f64,
                          (uint64_t)(uintptr_t)circ_rt_fexp_f32, (uint64_t)(uintptr_t)circ_rt_fexp_f64,
                          (uint64_t)(uintptr_t)circ_rt_throw, (uint64_t)(uintptr_t)circ_rt_mix64,
                          (uint64_t)(uintptr_t)circ_rt_scramble, (uint64_t)(uintptr_t)circ_rt_check,
                          (uint64_t)(uintptr_t)circ_rt_apply},
                         (uint64_t)(uintptr_t)circ_rt_check_flagged};
    return circ_write_all(&h, sizeof h);
}

/* the trap table as libcirc_rt takes it */
static int read_traps(uint32_t n, CircRtTraps *t)
{
    CircRunnerTrap *raw = malloc((n + 1) * sizeof *raw);
    uint32_t *off = malloc((n + 1) * sizeof *off);
    uint8_t *kind = malloc(n + 1);
    if (!raw || !off || !kind || !circ_read_all(raw, n * sizeof *raw))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        off[i] = raw[i].offset;
        kind[i] = (uint8_t)raw[i].kind;
    }
    free(raw);
    *t = (CircRtTraps){(const char *)(uintptr_t)CIRC_RUNNER_BASE, off, kind, n};
    return 1;
}

static int run_calls(uint32_t n, const CircRtTraps *traps)
{
    CircRunnerCall call;
    CircRunnerResult *res = malloc(sizeof *res);
    for (uint32_t i = 0; res && i < n; i++) {
        CircRtOutcome o;
        if (!circ_read_all(&call, sizeof call) || !circ_rt_heap_reset() ||
            !circ_rt_call_traps(call_one, (const uint64_t *)&call, traps, &o))
            return 0;
        *res = (CircRunnerResult){.kind = o.kind, .trap = o.trap, .bits = o.bits, .type = o.type};
        memcpy(res->heap, circ_rt_heap(), CIRC_ABI_HEAP_SIZE);
        if (!circ_write_all(res, sizeof *res))
            return 0;
    }
    free(res);
    return res != NULL;
}

int main(void)
{
    void *code = mmap((void *)(uintptr_t)CIRC_RUNNER_BASE, CIRC_RUNNER_CODE_MAX, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    CircRunnerJob job;
    CircRtTraps traps;
    if (code != (void *)(uintptr_t)CIRC_RUNNER_BASE || !say_hello() || !circ_read_all(&job, sizeof job) ||
        job.magic != CIRC_RUNNER_MAGIC || job.image_size > CIRC_RUNNER_CODE_MAX ||
        job.ncalls > CIRC_RUNNER_MAX_CALLS || !circ_read_all(code, job.image_size) || !read_traps(job.ntraps, &traps) ||
        mprotect(code, CIRC_RUNNER_CODE_MAX, PROT_READ | PROT_EXEC))
        return 2;
    __builtin___clear_cache((char *)code, (char *)code + job.image_size);
    return run_calls(job.ncalls, &traps) ? 0 : 2;
}
