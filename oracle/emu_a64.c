/* emu_a64.c — the ARM64 side of the Unicorn runner: AAPCS64 registers, stub and
 * filler words, FP/SIMD enable and the FPCR every run starts from. */
#include "oracle/emu_isa.h"

/* CPACR_EL1.FPEN = 0b11: FP/SIMD instructions do not trap at EL0 or EL1 */
#define CPACR_FPEN_ON 0x300000ull

static uc_err a64_init(uc_engine *uc)
{
    uint64_t cpacr = CPACR_FPEN_ON;
    return uc_reg_write(uc, UC_ARM64_REG_CPACR_EL1, &cpacr);
}

static uc_err a64_reset_fp(uc_engine *uc)
{
    /* FPCR 0: round to nearest even, no flush-to-zero, default-NaN off, no traps */
    int regs[] = {UC_ARM64_REG_CPACR_EL1, UC_ARM64_REG_FPCR, UC_ARM64_REG_FPSR};
    uint64_t cpacr = CPACR_FPEN_ON, fpcr = 0, fpsr = 0;
    void *vals[] = {&cpacr, &fpcr, &fpsr};
    return uc_reg_write_batch(uc, regs, vals, 3);
}

static const char *a64_intr_name(uint32_t intno)
{
    switch (intno) { /* QEMU's EXCP_* numbers for ARM */
    case 1: return "udf (undefined instruction)";
    case 2: return "svc";
    case 3: return "prefetch abort";
    case 4: return "data abort";
    case 7: return "brk";
    case 11: return "hvc";
    case 13: return "smc";
    default: return "exception";
    }
}

/* svc, hvc and smc leave the PC after their instruction (a return address) */
static uint64_t a64_trap_site(uc_engine *uc, uint32_t intno, uint64_t pc)
{
    (void)uc;
    return intno == 2 || intno == 11 || intno == 13 ? pc - 4 : pc;
}

#define X(n) UC_ARM64_REG_X##n
#define Q(n) UC_ARM64_REG_Q##n

const EmuIsa emu_isa_a64 = {
    .name = "arm64",
    .arch = UC_ARCH_ARM64,
    .mode = UC_MODE_ARM,
    .reg_pc = UC_ARM64_REG_PC,
    .reg_sp = UC_ARM64_REG_SP,
    .reg_lr = UC_ARM64_REG_X30,
    .stack_arg_offset = 0,
    .int_args = {X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7)},
    .nint_args = 8,
    .fp_args = {Q(0), Q(1), Q(2), Q(3), Q(4), Q(5), Q(6), Q(7)},
    .nfp_args = 8,
    .reg_ret_int = X(0),
    .reg_threw = X(1),
    .reg_ret_fp = Q(0),
    .zero_regs = {X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7), X(8), X(9), X(10),
                  X(11), X(12), X(13), X(14), X(15), X(16), X(17), X(18), X(19), X(20),
                  X(21), X(22), X(23), X(24), X(25), X(26), X(27), X(28), X(29), X(30),
                  UC_ARM64_REG_NZCV, UC_ARM64_REG_TPIDR_EL0},
    .nzero_regs = 33,
    .zero_vregs = {Q(0), Q(1), Q(2), Q(3), Q(4), Q(5), Q(6), Q(7), Q(8), Q(9), Q(10),
                   Q(11), Q(12), Q(13), Q(14), Q(15), Q(16), Q(17), Q(18), Q(19), Q(20),
                   Q(21), Q(22), Q(23), Q(24), Q(25), Q(26), Q(27), Q(28), Q(29), Q(30),
                   Q(31)},
    .nzero_vregs = 32,
    .pattern_regs = {X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7), X(8), X(9), X(10),
                     X(11), X(12), X(13), X(14), X(15), X(16), X(17), X(18), X(19), X(20),
                     X(21), X(22), X(23), X(24), X(25), X(26), X(27), X(28), X(29)},
    .npattern_regs = 30,
    .reg_flags = UC_ARM64_REG_NZCV,
    .flags_mask = 0xF0000000,       /* N Z C V */
    .flags_fixed = 0,
    .callee_saved = {X(19), X(20), X(21), X(22), X(23), X(24), X(25), X(26), X(27), X(28),
                     X(29), Q(8), Q(9), Q(10), Q(11), Q(12), Q(13), Q(14), Q(15)},
    .ncallee_saved = 19,
    .callee_saved_names = "x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 d8 d9 d10 d11 d12 d13 d14 d15",
    .filler = {0x00, 0x00, 0x00, 0x00},           /* udf #0 */
    .filler_len = 4,
    .stub_return = {0xC0, 0x03, 0x5F, 0xD6},      /* ret */
    .stub_trap = {0x00, 0x00, 0x20, 0xD4},        /* brk #0 */
    .stub_len = 4,
    .cpus = {{"baseline", UC_CPU_ARM64_A72, false}}, /* ARMv8.0-A */
    .ncpus = 1,
    .init = a64_init,
    .reset_fp = a64_reset_fp,
    .intr_name = a64_intr_name,
    .trap_site = a64_trap_site,
};
