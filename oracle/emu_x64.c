/* emu_x64.c — the x86-64 side of the Unicorn runner: SysV registers, stub and filler
 * bytes, and the floating-point control state every run starts from. */
#include "oracle/emu_isa.h"

static uc_err x64_init(uc_engine *uc)
{
    (void)uc; /* long mode with flat segments is Unicorn's UC_MODE_64 default */
    return UC_ERR_OK;
}

/* popcnt r, r (F3 [REX] 0F B8 /r, register operands: the form compiled code uses),
 * which Unicorn 2.0.1 rejects on every CPU model: the count into the destination
 * (zero-extended), ZF set iff the source is 0, CF PF AF SF OF cleared */
static bool x64_service(uc_engine *uc, uint64_t pc, uint64_t *next)
{
    static const int gp[16] = {
        UC_X86_REG_RAX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RBX, UC_X86_REG_RSP, UC_X86_REG_RBP,
        UC_X86_REG_RSI, UC_X86_REG_RDI, UC_X86_REG_R8, UC_X86_REG_R9, UC_X86_REG_R10, UC_X86_REG_R11,
        UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15};
    uint8_t b[5];
    if (uc_mem_read(uc, pc, b, sizeof b) != UC_ERR_OK || b[0] != 0xF3)
        return false;
    unsigned rex = (b[1] & 0xF0) == 0x40 ? b[1] : 0, i = rex ? 2 : 1;
    if (b[i] != 0x0F || b[i + 1] != 0xB8 || b[i + 2] >> 6 != 3 || (rex & 2))
        return false;
    unsigned m = b[i + 2], dst = (m >> 3 & 7) | (rex & 4 ? 8 : 0), src = (m & 7) | (rex & 1 ? 8 : 0);
    uint64_t v, flags;
    uc_reg_read(uc, gp[src], &v);
    uc_reg_read(uc, UC_X86_REG_RFLAGS, &flags);
    v = (rex & 8) ? v : (uint32_t)v;
    flags = (flags & ~0x8D5ull) | (v == 0 ? 0x40 : 0);
    uint64_t count = (uint64_t)__builtin_popcountll(v);
    *next = pc + i + 3;
    return uc_reg_write(uc, gp[dst], &count) == UC_ERR_OK && uc_reg_write(uc, UC_X86_REG_RFLAGS, &flags) == UC_ERR_OK;
}

static uc_err x64_reset_fp(uc_engine *uc)
{
    /* SSE: all exceptions masked, round to nearest even, no FTZ/DAZ;
     * x87: all exceptions masked, 64-bit precision, round to nearest */
    int regs[] = {UC_X86_REG_MXCSR, UC_X86_REG_FPCW, UC_X86_REG_FPSW};
    uint64_t mxcsr = 0x1F80, fpcw = 0x037F, fpsw = 0;
    void *vals[] = {&mxcsr, &fpcw, &fpsw};
    return uc_reg_write_batch(uc, regs, vals, 3);
}

static const char *x64_intr_name(uint32_t intno)
{
    switch (intno) {
    case 0: return "#DE (divide error)";
    case 1: return "#DB (debug)";
    case 3: return "int3";
    case 4: return "#OF (into)";
    case 5: return "#BR (bound)";
    case 6: return "#UD (invalid opcode)";
    case 13: return "#GP (general protection)";
    case 14: return "#PF (page fault)";
    default: return "software interrupt";
    }
}

static bool is_legacy_prefix(uint8_t b)
{
    return b == 0x66 || b == 0x67 || b == 0xF2 || b == 0xF3 || b == 0x2E || b == 0x36 ||
           b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65;
}

/* the divisor of a register-operand div/idiv (F6/F7 /6, /7), masked to its width */
static bool divisor_register(uc_engine *uc, const uint8_t *b, uint64_t *divisor)
{
    static const int gpr[16] = {UC_X86_REG_RAX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RBX,
                                UC_X86_REG_RSP, UC_X86_REG_RBP, UC_X86_REG_RSI, UC_X86_REG_RDI,
                                UC_X86_REG_R8, UC_X86_REG_R9, UC_X86_REG_R10, UC_X86_REG_R11,
                                UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15};
    unsigned i = 0, bits = 32, rex = 0;
    for (; i < 4 && is_legacy_prefix(b[i]); i++)
        if (b[i] == 0x66)
            bits = 16;
    if ((b[i] & 0xF0) == 0x40)
        rex = b[i++];
    if (rex & 8)
        bits = 64;
    if (b[i] == 0xF6)
        bits = 8;
    else if (b[i] != 0xF7)
        return false;
    uint8_t modrm = b[i + 1];
    if (modrm >> 6 != 3 || ((modrm >> 3) & 7) < 6)
        return false; /* a memory operand, or not a division */
    unsigned rm = (modrm & 7u) | (rex & 1u) << 3;
    uint64_t v = 0;
    if (bits == 8 && !rex && rm >= 4) { /* ah ch dh bh */
        uc_reg_read(uc, gpr[rm - 4], &v);
        v >>= 8;
    } else {
        uc_reg_read(uc, gpr[rm], &v);
    }
    *divisor = bits == 64 ? v : v & ((1ull << bits) - 1);
    return true;
}

/* #DE covers both a zero divisor and a quotient that does not fit */
static int x64_trap_cause(uc_engine *uc, uint32_t intno, uint64_t pc)
{
    uint8_t b[16];
    uint64_t divisor;
    if (intno != 0 || uc_mem_read(uc, pc, b, sizeof b) != UC_ERR_OK || !divisor_register(uc, b, &divisor))
        return -1;
    return divisor == 0 ? TRAP_DIV0 : TRAP_OVERFLOW;
}

/* a software interrupt leaves RIP after its instruction: int3 (CC), int n (CD n),
 * into (CE), int1 (F1) */
static uint64_t x64_trap_site(uc_engine *uc, uint32_t intno, uint64_t pc)
{
    uint8_t b[2];
    if (pc < 2 || uc_mem_read(uc, pc - 2, b, 2) != UC_ERR_OK)
        return pc;
    if (b[0] == 0xCD && b[1] == intno)
        return pc - 2;
    if ((intno == 3 && b[1] == 0xCC) || (intno == 4 && b[1] == 0xCE) || (intno == 1 && b[1] == 0xF1))
        return pc - 1;
    return pc;
}

const EmuIsa emu_isa_x64 = {
    .name = "x86-64",
    .arch = UC_ARCH_X86,
    .mode = UC_MODE_64,
    .reg_pc = UC_X86_REG_RIP,
    .reg_sp = UC_X86_REG_RSP,
    .reg_lr = -1,
    .stack_arg_offset = 8,
    .int_args = {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_RCX,
                 UC_X86_REG_R8, UC_X86_REG_R9},
    .nint_args = 6,
    .fp_args = {UC_X86_REG_XMM0, UC_X86_REG_XMM1, UC_X86_REG_XMM2, UC_X86_REG_XMM3,
                UC_X86_REG_XMM4, UC_X86_REG_XMM5, UC_X86_REG_XMM6, UC_X86_REG_XMM7},
    .nfp_args = 8,
    .reg_ret_int = UC_X86_REG_RAX,
    .reg_threw = UC_X86_REG_RDX,
    .reg_ret_fp = UC_X86_REG_XMM0,
    .zero_regs = {UC_X86_REG_RAX, UC_X86_REG_RBX, UC_X86_REG_RCX, UC_X86_REG_RDX,
                  UC_X86_REG_RSI, UC_X86_REG_RDI, UC_X86_REG_RBP, UC_X86_REG_R8,
                  UC_X86_REG_R9, UC_X86_REG_R10, UC_X86_REG_R11, UC_X86_REG_R12,
                  UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15, UC_X86_REG_RFLAGS,
                  UC_X86_REG_FS_BASE, UC_X86_REG_GS_BASE},
    .nzero_regs = 18,
    .zero_vregs = {UC_X86_REG_XMM0, UC_X86_REG_XMM1, UC_X86_REG_XMM2, UC_X86_REG_XMM3,
                   UC_X86_REG_XMM4, UC_X86_REG_XMM5, UC_X86_REG_XMM6, UC_X86_REG_XMM7,
                   UC_X86_REG_XMM8, UC_X86_REG_XMM9, UC_X86_REG_XMM10, UC_X86_REG_XMM11,
                   UC_X86_REG_XMM12, UC_X86_REG_XMM13, UC_X86_REG_XMM14, UC_X86_REG_XMM15},
    .nzero_vregs = 16,
    .pattern_regs = {UC_X86_REG_RDI, UC_X86_REG_RSI, UC_X86_REG_RDX, UC_X86_REG_RCX,
                     UC_X86_REG_R8, UC_X86_REG_R9, UC_X86_REG_RAX, UC_X86_REG_RBX,
                     UC_X86_REG_RBP, UC_X86_REG_R10, UC_X86_REG_R11, UC_X86_REG_R12,
                     UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15},
    .npattern_regs = 15,
    .reg_flags = UC_X86_REG_RFLAGS,
    .flags_mask = 0x8D5,            /* CF PF AF ZF SF OF; never TF, IF, DF */
    .flags_fixed = 0x2,             /* bit 1 always reads 1 */
    .callee_saved = {UC_X86_REG_RBX, UC_X86_REG_RBP, UC_X86_REG_R12, UC_X86_REG_R13,
                     UC_X86_REG_R14, UC_X86_REG_R15},
    .ncallee_saved = 6,
    .callee_saved_names = "rbx rbp r12 r13 r14 r15",
    .filler = {0xCC},               /* int3 */
    .filler_len = 1,
    .stub_return = {0xC3},          /* ret */
    .stub_trap = {0x0F, 0x0B},      /* ud2 */
    .stub_len = 2,
    /* Unicorn 2.0.1's x86 models do not change which of the v3 instructions circ
     * emits run: lzcnt, tzcnt and roundss/roundsd run on every model, popcnt on none
     * (the runner services it at v3); the models are named for what they stand for */
    .cpus = {{"baseline", UC_CPU_X86_QEMU64, false}, {"v3", UC_CPU_X86_HASWELL, true}},
    .ncpus = 2,
    .service = x64_service,
    .init = x64_init,
    .reset_fp = x64_reset_fp,
    .intr_name = x64_intr_name,
    .trap_cause = x64_trap_cause,
    .trap_site = x64_trap_site,
    .forbidden_insns = {UC_X86_INS_SYSCALL, UC_X86_INS_SYSENTER},
    .nforbidden_insns = 2,
};
