/* trust_a64.c — the emulator trust test for ARM64 (dynarmic's fuzz_with_unicorn as
 * the model): random instructions of the forms table's straight-line forms whose
 * arguments are registers, immediates and conditions (no memory), each encoded by
 * the target's encoder and run alone, with random values in x0..x30 and v0..v31 and
 * random NZCV, once under Unicorn (in this process) and once under qemu-aarch64 (the
 * driver trust_a64_driver.c, one process per batch of cases).  Every general and
 * vector register and NZCV after it must agree (an AArch64 instruction leaves no
 * flag undefined), and a fault must happen on both or on neither.
 *   trust_a64 [N] [SEED] [DRIVER]  N instructions (default 100000); DRIVER: the
 *                         driver built by tests/trust.cmake; prints per form the
 *                         differences, then a summary; exit 1 on a difference,
 *                         77 when qemu-aarch64 or the driver is missing */
#include "bench/trust/trust_common.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

extern char **environ;

#define CODE_ADDR 0x10000ull
#define STACK_TOP 0x30000ull
#define NZCV_BITS 0xf0000000ull
enum { BATCH = 5000, SKIP_SP = 31 };

typedef struct {
    uint64_t rng;
    uc_engine *uc;
    bool interrupted;       /* Unicorn raised an exception */
    const char *driver;
    char dir[64];           /* the batch files' directory */
    TrustCase *cases;
    TrustResult *results;
    uint32_t *form_of;      /* per case its form's index */
} Trust;

static int uc_gp(unsigned i)
{
    return i < 29 ? UC_ARM64_REG_X0 + (int)i : i == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
}

static void on_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    (void)intno;
    ((Trust *)user)->interrupted = true;
    uc_emu_stop(uc);
}

static void write_state(Trust *t, const TrustState *in)
{
    uint64_t sp = STACK_TOP, fpcr = 0, fpsr = 0, cpacr = 0x300000; /* FP/SIMD on at EL0 and EL1 */
    for (unsigned i = 0; i < 31; i++)
        uc_reg_write(t->uc, uc_gp(i), &in->gp[i]);
    for (int i = 0; i < 32; i++)
        uc_reg_write(t->uc, UC_ARM64_REG_Q0 + i, in->vec[i]);
    uint32_t nzcv = (uint32_t)in->flags;
    uc_reg_write(t->uc, UC_ARM64_REG_SP, &sp);
    uc_reg_write(t->uc, UC_ARM64_REG_NZCV, &nzcv);
    uc_reg_write(t->uc, UC_ARM64_REG_CPACR_EL1, &cpacr);
    uc_reg_write(t->uc, UC_ARM64_REG_FPCR, &fpcr);
    uc_reg_write(t->uc, UC_ARM64_REG_FPSR, &fpsr);
}

/* the case under Unicorn: false if it faulted */
static bool run_unicorn(Trust *t, const TrustCase *c, TrustState *out)
{
    uc_mem_write(t->uc, CODE_ADDR, c->code, c->len);
    uc_ctl_remove_cache(t->uc, CODE_ADDR, CODE_ADDR + 0x1000);
    write_state(t, &c->in);
    t->interrupted = false;
    uc_err err = uc_emu_start(t->uc, CODE_ADDR, CODE_ADDR + c->len, 0, 0);
    uint64_t pc = 0;
    uc_reg_read(t->uc, UC_ARM64_REG_PC, &pc);
    if (err != UC_ERR_OK || t->interrupted || pc != CODE_ADDR + c->len)
        return false;
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < 31; i++)
        uc_reg_read(t->uc, uc_gp(i), &out->gp[i]);
    for (int i = 0; i < 32; i++)
        uc_reg_read(t->uc, UC_ARM64_REG_Q0 + i, out->vec[i]);
    uint32_t nzcv = 0;
    uc_reg_read(t->uc, UC_ARM64_REG_NZCV, &nzcv);
    out->flags = nzcv;
    return true;
}

static bool write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(p, 1, n, f) == n;
    return f && !fclose(f) && ok;
}

static bool read_file(const char *path, void *p, size_t n)
{
    FILE *f = fopen(path, "rb");
    bool ok = f && fread(p, 1, n, f) == n;
    if (f)
        fclose(f);
    return ok;
}

/* qemu-aarch64 DRIVER < in > out; true if it exited 0 */
static bool spawn_driver(const Trust *t, const char *in, const char *out)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char *argv[] = {"qemu-aarch64", (char *)t->driver, NULL};
    pid_t pid;
    int status = 0, err = posix_spawnp(&pid, "qemu-aarch64", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return !err && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* the batch's n cases under qemu-aarch64 into t->results */
static bool run_qemu(Trust *t, uint32_t n)
{
    char in[96], out[96];
    snprintf(in, sizeof in, "%s/cases", t->dir);
    snprintf(out, sizeof out, "%s/results", t->dir);
    bool ok = write_file(in, t->cases, n * sizeof *t->cases) && spawn_driver(t, in, out) &&
              read_file(out, t->results, n * sizeof *t->results);
    remove(in);
    remove(out);
    return ok;
}

/* n cases into t->cases: an instruction each and the state it starts from */
static void draw_batch(Trust *t, const Target *tg, Code *c, uint32_t n)
{
    for (uint32_t k = 0; k < n;) {
        LirAsm as;
        const LirForm *form;
        if (trust_draw(&t->rng, tg, c, &as, &form, 1ull << SKIP_SP)) {
            TrustCase *tc = &t->cases[k];
            memset(tc, 0, sizeof *tc);
            tc->len = as.size;
            memcpy(tc->code, as.code, as.size);
            trust_random_regs(&t->rng, &tc->in, 31, 32);
            tc->in.flags = (trust_next(&t->rng) & 0xf) << 28;
            t->form_of[k++] = (uint32_t)(form - tg->forms);
        }
        lir_asm_free(&as);
    }
}

/* a batch of n cases: drawn, run under both, recorded */
static bool batch(Trust *t, const Target *tg, Code *c, TrustFormStats *st, uint32_t n)
{
    draw_batch(t, tg, c, n);
    if (!run_qemu(t, n))
        return false;
    static const TrustShape shape = {.ngp = 31, .nvec = 32};
    for (uint32_t k = 0; k < n; k++) {
        TrustState emu;
        bool emu_ok = run_unicorn(t, &t->cases[k], &emu);
        TrustVerdict v = trust_compare(&shape, t->results[k].ok, emu_ok, &t->results[k].out, &emu, NZCV_BITS);
        trust_record(&st[t->form_of[k]], v, t->cases[k].code, t->cases[k].len);
    }
    return true;
}

static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path; p && *p;) {
        size_t len = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
        if (!access(buf, X_OK))
            return true;
        p += len + (p[len] == ':');
    }
    return false;
}

static bool setup(Trust *t)
{
    t->cases = calloc(BATCH, sizeof *t->cases);
    t->results = calloc(BATCH, sizeof *t->results);
    t->form_of = calloc(BATCH, sizeof *t->form_of);
    const char *tmp = getenv("TMPDIR");
    snprintf(t->dir, sizeof t->dir, "%s/trust_a64.XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    uc_hook hook;
    return t->cases && t->results && t->form_of && mkdtemp(t->dir) &&
           uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &t->uc) == UC_ERR_OK &&
           uc_mem_map(t->uc, CODE_ADDR, 0x1000, UC_PROT_ALL) == UC_ERR_OK &&
           uc_mem_map(t->uc, 0x20000, 0x10000, UC_PROT_READ | UC_PROT_WRITE) == UC_ERR_OK &&
           uc_hook_add(t->uc, &hook, UC_HOOK_INTR, (void *)on_interrupt, t, 1, 0) == UC_ERR_OK;
}

static void tear_down(Trust *t)
{
    if (t->uc)
        uc_close(t->uc);
    rmdir(t->dir);
    free(t->cases);
    free(t->results);
    free(t->form_of);
}

static int run(Trust *t, const Target *tg, uint64_t n)
{
    TrustFormStats *st = calloc(tg->nforms, sizeof *st);
    Arena *a = arena_new();
    Code *c = lir_code_new(a, tg, "f", 0);
    lir_add_block(c, 1);
    bool ok = st != NULL;
    for (uint64_t done = 0; ok && done < n; done += BATCH < n - done ? BATCH : n - done)
        ok = batch(t, tg, c, st, (uint32_t)(BATCH < n - done ? BATCH : n - done));
    int rc = !ok ? 2 : trust_report(tg, st, n, "known defects");
    if (!ok)
        fprintf(stderr, "trust_a64: qemu-aarch64 %s did not run a batch\n", t->driver);
    arena_free(a);
    free(st);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000;
    Trust t = {.rng = argc > 2 ? strtoull(argv[2], NULL, 0) | 1 : 0x9e3779b97f4a7c15ull};
#ifdef TRUST_A64_DRIVER
    t.driver = argc > 3 ? argv[3] : TRUST_A64_DRIVER;
#else
    t.driver = argc > 3 ? argv[3] : NULL;
#endif
    if (!t.driver || access(t.driver, X_OK) || !on_path("qemu-aarch64")) {
        puts("skipped: the ARM64 trust test needs qemu-aarch64 and its driver (aarch64-linux-gnu-gcc)");
        return 77;
    }
    const Target *tg = target_find("arm64");
    if (!tg || !setup(&t)) {
        fprintf(stderr, "trust_a64: cannot set up Unicorn or the batch directory\n");
        tear_down(&t);
        return 2;
    }
    int rc = run(&t, tg, n);
    tear_down(&t);
    return rc;
}
