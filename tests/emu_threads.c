/* emu_threads.c — Emus are independent: four threads, each with its own x86-64 and
 * ARM64 engine loaded with code of its own, run interleaved calls and get their own
 * results (no shared state between engines, as parallel fuzzing jobs need). */
#include <pthread.h>

#include "tests/emu_util.h"

enum { THREADS = 4, RUNS = 300 };

typedef struct {
    unsigned id;
    int bad;
} Job;

/* x86-64: rdi * k + heap store of the result at heap[8 * id] */
static void x64_blob(Asm *a, unsigned k, unsigned id)
{
    asm_init(a, ISA_X64);
    asm_func(a);
    X86(a, 0x48, 0x69, 0xC7, (uint8_t)k, 0x00, 0x00, 0x00);          /* imul rax, rdi, k */
    X86(a, 0x41, 0xBA, (uint8_t)(8 * id), 0x00, 0x00, 0x10);          /* mov r10d, heap+8*id */
    X86(a, 0x49, 0x89, 0x02, 0xC3);                                   /* mov [r10], rax; ret */
}

/* ARM64: the same with x1 := k */
static void a64_blob(Asm *a, unsigned k, unsigned id)
{
    asm_init(a, ISA_A64);
    asm_func(a);
    asm_u32(a, 0xD2800001u | k << 5);                        /* movz x1, #k */
    asm_u32(a, 0x9B017C00u);                                 /* mul x0, x0, x1 */
    asm_u32(a, 0xD2A2000Au);                                 /* movz x10, #0x1000, lsl #16 */
    asm_u32(a, 0xF9000140u | (id << 10));                    /* str x0, [x10, #8*id] */
    asm_u32(a, 0xD65F03C0u);                                 /* ret */
}

static bool run_one(Emu *e, uint64_t x, uint64_t want, unsigned id)
{
    const Type i64[] = {TY_I64};
    Outcome *o = malloc(sizeof *o);
    if (!o)
        return false;
    emu_call(e, 0, i64, 1, &x, TY_I64, 0, o);
    bool ok = is_return(o, TY_I64, want) && heap_u64(o, 8 * id) == want;
    free(o);
    return ok;
}

static void *job_main(void *arg)
{
    Job *j = arg;
    Asm *a = malloc(sizeof *a);
    Emu *x = emu_new(ISA_X64), *m = emu_new(ISA_A64);
    if (!a || !x || !m) {
        j->bad = RUNS;
        goto out;
    }
    emu_set_wall_timeout(x, EMU_DEFAULT_WALL_US, false);
    emu_set_wall_timeout(m, EMU_DEFAULT_WALL_US, false);
    unsigned kx = 3 + j->id, km = 11 + j->id;
    x64_blob(a, kx, j->id);
    CodeBlob bx = asm_blob(a);
    bool ok = emu_load(x, &bx);
    a64_blob(a, km, j->id);
    CodeBlob bm = asm_blob(a);
    ok = ok && emu_load(m, &bm);
    for (unsigned i = 0; i < RUNS; i++) {
        ok = run_one(x, i, (uint64_t)i * kx, j->id) && ok;
        ok = run_one(m, i, (uint64_t)i * km, j->id) && ok;
        j->bad += !ok;
    }
out:
    emu_free(x);
    emu_free(m);
    free(a);
    return NULL;
}

int main(void)
{
    pthread_t th[THREADS];
    Job jobs[THREADS];
    Tally t = {0, 0};
    for (unsigned i = 0; i < THREADS; i++) {
        jobs[i] = (Job){.id = i, .bad = 0};
        if (pthread_create(&th[i], NULL, job_main, &jobs[i]) != 0) {
            fprintf(stderr, "FAIL pthread_create\n");
            return 1;
        }
    }
    for (unsigned i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        t.checks++;
        if (jobs[i].bad) {
            t.failures++;
            fprintf(stderr, "FAIL thread %u: %d wrong runs\n", i, jobs[i].bad);
        }
    }
    return report(&t, "emu_threads");
}
