/* emu_isa.h — what the Unicorn runner (emu.c) needs to know about one ISA: engine
 * mode, ABI registers, the bytes of stubs and fillers, per-run CPU setup.  The two
 * descriptions live in emu_x64.c and emu_a64.c; nothing outside oracle/emu*.c uses
 * this header. */
#ifndef CIRC_EMU_ISA_H
#define CIRC_EMU_ISA_H

#include <unicorn/unicorn.h>

#include "oracle/emu.h"

enum { EMU_MAX_ARG_REGS = 8, EMU_MAX_ZERO_REGS = 40 };

typedef struct {
    const char *name;
    uc_arch arch;
    uc_mode mode;
    int reg_pc, reg_sp;
    int reg_lr;                           /* -1: the return address is pushed (x86) */
    unsigned stack_arg_offset;            /* first stack argument, from SP at entry */
    int int_args[EMU_MAX_ARG_REGS];       /* 64-bit argument registers in order */
    unsigned nint_args;
    int fp_args[EMU_MAX_ARG_REGS];        /* 128-bit vector argument registers */
    unsigned nfp_args;
    int reg_ret_int, reg_ret_fp;          /* result: 64-bit / 128-bit register */
    int reg_threw;                        /* the threw flag of CodeBlob.threw_flag */
    int zero_regs[EMU_MAX_ZERO_REGS];     /* 64-bit registers cleared in the saved state */
    unsigned nzero_regs;
    int zero_vregs[EMU_MAX_ZERO_REGS];    /* 128-bit registers: cleared in the saved state,
                                             a pattern at every run; fp_args first, in order */
    unsigned nzero_vregs;
    int pattern_regs[EMU_MAX_ZERO_REGS];  /* 64-bit registers holding a pattern at every run
                                             (all but sp and lr): int_args first, in order */
    unsigned npattern_regs;
    int reg_flags;                        /* the flags register: pattern bits in flags_mask */
    uint64_t flags_mask, flags_fixed;     /* ... over the bits flags_fixed must have */
    int callee_saved[EMU_MAX_ZERO_REGS];  /* registers a callee preserves: the low 64 bits
                                             are compared (of a vector register: d8-d15) */
    unsigned ncallee_saved;
    const char *callee_saved_names;       /* their names, space-separated, same order */
    uint8_t filler[4];                    /* repeated over unused code bytes: traps */
    unsigned filler_len;
    uint8_t stub_return[4];               /* stub of a helper that returns */
    uint8_t stub_trap[4];                 /* stub of HELPER_THROW (never returns) */
    unsigned stub_len;
    /* CPU levels, by the names compiler Targets give them (Target.cpu), baseline
     * first: the Unicorn CPU model each runs on (uc_ctl_set_cpu_model), and
     * whether the runner services the instructions of the level that model lacks
     * (service, below) */
    struct {
        const char *name;
        int model;
        bool serviced;
    } cpus[4];
    unsigned ncpus;
    /* the instruction at pc that the engine found invalid, executed by the runner:
     * true if it was one of those (its effect applied; *next: the address after it) */
    bool (*service)(uc_engine *uc, uint64_t pc, uint64_t *next);
    /* one-time engine setup (system registers) */
    uc_err (*init)(uc_engine *uc);
    /* per-run floating-point control state */
    uc_err (*reset_fp)(uc_engine *uc);
    /* a human name for an exception number of UC_HOOK_INTR */
    const char *(*intr_name)(uint32_t intno);
    /* the TrapKind an exception at pc stands for when the instruction tells (x86 #DE:
     * zero divisor or overflow), else -1; NULL if the ISA never can */
    int (*trap_cause)(uc_engine *uc, uint32_t intno, uint64_t pc);
    /* the address of the instruction that raised exception intno when the PC in the
     * interrupt hook is past it (x86 int3 / int n, ARM64 svc), else pc */
    uint64_t (*trap_site)(uc_engine *uc, uint32_t intno, uint64_t pc);
    /* instructions that must not run (x86 syscall, sysenter): UC_HOOK_INSN ids */
    int forbidden_insns[4];
    unsigned nforbidden_insns;
} EmuIsa;

extern const EmuIsa emu_isa_x64;
extern const EmuIsa emu_isa_a64;

#endif
