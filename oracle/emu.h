/* emu.h — the Unicorn runner: loads a CodeBlob (compiler/blob.h) into an emulated
 * x86-64 or ARM64 machine, calls one of its functions with the platform ABI and
 * reports the Outcome (oracle/outcome.h).  One Emu per ISA holds one Unicorn engine,
 * created once and reused for every load and run (replaced only after many loads,
 * see emu_set_recycle_loads); an Emu is not shared between threads, but any number
 * of them run side by side.
 *
 * Guest memory map (both ISAs):
 *   EMU_SENTINEL_ADDR  one page, R+X: the return address handed to the callee;
 *                      reaching it ends the run with OUT_RETURN
 *   EMU_STUB_ADDR      one page, R+X: helper h (blob.h Helper) is serviced at
 *                      EMU_STUB_ADDR + h * EMU_STUB_STRIDE
 *   EMU_CODE_ADDR      the blob's code (byte 0 of CodeBlob.code), R+X, never written
 *                      by guest code; grown when a bigger blob is loaded
 *   HEAP_ADDR          the harness buffer, HEAP_SIZE bytes, R+W, refilled with
 *                      heap_fill_pattern() before every run
 *   EMU_STACK_ADDR     the stack, EMU_STACK_SIZE bytes, R+W, filled with the run's
 *                      pattern before every run (its top 16 KiB always; below
 *                      that it is mapped, and filled, from the 64 KiB chunk a
 *                      run first touches up, and dropped after the run)
 * Everything else is unmapped: touching it is a fault (TRAP_FAULT); so is executing
 * the heap or the stack, or writing the code.
 *
 * Calling convention at the boundary (the runner's side of the call):
 *   x86-64 SysV: integer arguments (i1..i64) in rdi rsi rdx rcx r8 r9, float
 *   arguments in xmm0-7, the rest on the stack in 8-byte slots in order at
 *   [rsp+8], [rsp+16], ...; [rsp] = EMU_SENTINEL_ADDR; rsp+8 is 16-byte aligned.
 *   Result in rax or xmm0.  MXCSR = 0x1F80, x87 control word = 0x037F.
 *   ARM64 AAPCS64: x0-x7 / v0-v7 (s or d), the rest on the stack in 8-byte slots at
 *   [sp], [sp+8], ...; sp 16-byte aligned; x30 (LR) = EMU_SENTINEL_ADDR.  Result in
 *   x0 or v0.  FP/SIMD enabled (CPACR_EL1.FPEN = 3), FPCR = 0: round to nearest
 *   even, no flush-to-zero, default-NaN off (as Linux user code runs), so compiled
 *   code must canonicalize NaNs itself, as on real hardware.
 *   A value narrower than its register (or stack slot) occupies the low bits; the
 *   bits above are unspecified in both directions (for i1, i8 and i16 too: the
 *   compiled callee extends what it receives, compiler/x64/abi.c, compiler/a64/abi.c,
 *   relying on nothing, as gcc does, not on clang's extension to 32 bits): by default
 *   the runner fills them with junk when passing arguments (emu_set_junk_args) so
 *   that code relying on them shows up, and masks results to the return type's
 *   width.  The high 64 bits of a vector register holding an argument are junk too.
 *
 * The harness hides nothing: every run starts from a pattern drawn from the run's
 * seed, a hash of the call (function index, argument types and bits), so the same
 * call (a run line, replayed by `circ check FILE`) sees the same pattern and another
 * call another one.  No pattern byte is zero.  It fills the stack (below the entry
 * stack pointer: uninitialized memory a callee reads is never the zero ALLOCA
 * promises), every general and vector register that carries no argument (x86:
 * rax rbx rcx rdx rsi rdi rbp r8-r15 and xmm0-15; ARM64: x0-x29 and v0-v31), the
 * bits above narrow arguments, and the arithmetic flags (x86 CF PF AF ZF SF OF;
 * ARM64 NZCV).  FS/GS base and TPIDR_EL0 are zero.
 *   ABI check (emu_set_abi_check, default on): after a return the runner reads the
 *   stack pointer and the callee-saved registers (x86 rbx rbp r12-r15; ARM64
 *   x19-x29 and the low 64 bits of v8-v15, d8-d15) in one batch and compares the
 *   caller's part of the stack with the pattern.  The callee owns everything below
 *   the entry stack pointer (its frame, x86's red zone) and its stack arguments'
 *   slots (both ABIs let a callee write them); the rest above the entry stack
 *   pointer (x86: the return address, which `ret` pops, then the stack arguments)
 *   up to the stack's top is the caller's and must be untouched.  A violation ends
 *   the run with OUT_TRAP TRAP_ABI, a finding that never equals another oracle's
 *   outcome; its reason starts with a label, then ": " and the details:
 *     abi-sp               the stack pointer is elsewhere than the call found it
 *                          (x86: rsp 8 above its entry value)
 *     abi-clobber-REG      callee-saved REG changed (rbx ... r15, x19 ... x29, d8 ... d15)
 *     stack-write          the caller's stack changed (at entry sp+N)
 *     abi-misaligned-call  a helper called with a misaligned stack (x86: rsp+8,
 *                          ARM64: sp not a multiple of 16 at the stub)
 *   outcome_abi_label (oracle/outcome.h) reads the label; the differential check
 *   names the finding by it ("arm64-O2:return-vs-abi-clobber-x19").
 *
 * Helpers (compiler/blob.h): a call reaches the helper's stub with the helper's
 * arguments in the registers above and returns normally to its caller.
 *   HELPER_FMOD_F32/F64, HELPER_FEXP_F32/F64: two float arguments (xmm0, xmm1 /
 *     s0/d0, s1/d1), float result (xmm0 / v0); C fmodf/fmod and powf/pow, a NaN
 *     result becomes the canonical NaN (0x7fc00000 / 0x7ff8000000000000).
 *   HELPER_THROW: two integer arguments (rdi, rsi / x0, x1): the thrown value's
 *     bits (a float is passed as its bit pattern) and its Type; ends the run with
 *     OUT_THROW (bits masked to the type).  An invalid Type ends it with
 *     TRAP_ILLEGAL.
 *
 * Traps: a trap instruction (x86 ud2, int3, int n; ARM64 brk, udf, svc ...) or a
 * faulting instruction (x86 #DE from div/idiv) at a code offset listed in the
 * blob's trap table gives OUT_TRAP with that TrapKind; anywhere else TRAP_ILLEGAL.
 * The offset is always the trapping instruction's first byte (also for int3, int n
 * and svc, after which the hardware PC points past them).  x86 syscall/sysenter
 * are TRAP_ILLEGAL.
 * x86 #DE means a zero divisor or a quotient that does not fit: at a listed div/idiv
 * with a register divisor the runner reports TRAP_DIV0 or TRAP_OVERFLOW by the
 * divisor's value (a memory divisor: the table's kind).
 * An access to unmapped or protected memory (load, store, fetch) is TRAP_FAULT; the
 * reason names the access, its address and the faulting instruction's code offset
 * (found by running the call again with an instruction hook: faults are rare).
 * A run that executes more translated blocks than its budget is OUT_TIMEOUT; so is
 * one that exceeds the wall-clock safety net, and one that runs out of stack (an
 * access within EMU_STACK_GUARD below the stack: runaway recursion, which the
 * interpreter reports as a timeout by its call-depth limit).
 * Outcome.steps = translated blocks executed; Outcome.heap = the harness buffer at
 * the end of the run, whatever its outcome. */
#ifndef CIRC_EMU_H
#define CIRC_EMU_H

#include "compiler/blob.h"
#include "oracle/outcome.h"

#define EMU_SENTINEL_ADDR 0x00200000ull
#define EMU_STUB_ADDR 0x00300000ull
#define EMU_STUB_STRIDE 16u
#define EMU_CODE_ADDR 0x00400000ull
#define EMU_STACK_ADDR 0x70000000ull
#define EMU_STACK_SIZE (4u << 20) /* STACK_LIMIT (oracle/mem.h) of ALLOCAs and 256 call levels of frames */
#define EMU_STACK_GUARD (64u << 10) /* unmapped, below the stack */

#define EMU_DEFAULT_BLOCKS 10000000ull   /* block budget when emu_call gets 0 */
#define EMU_DEFAULT_WALL_US 30000000ull  /* wall-clock safety net per run: 30 s */

typedef struct Emu Emu;

/* a fresh engine for the ISA; NULL if Unicorn cannot create one */
Emu *emu_new(Isa isa);
/* the same on the CPU model of a level of the ISA (the compiler Target's cpu:
 * "baseline", "v3"; NULL: the baseline; docs/porting.md names the models); NULL if
 * the ISA has no such level */
Emu *emu_new_cpu(Isa isa, const char *cpu);
void emu_free(Emu *e);

/* copy the blob's code to EMU_CODE_ADDR, apply its relocations, keep its entries
 * and trap table, and drop translated blocks of the old code.  False (and nothing
 * runnable loaded) if the blob is for another ISA or malformed; emu_error says why.
 * The blob is not referenced after the call. */
bool emu_load(Emu *e, const CodeBlob *blob);
const char *emu_error(const Emu *e);

/* call function `func` of the loaded blob: args[i] holds the bits of parameter i of
 * type param_types[i] (HEAP_ADDR for `heap`); `ret` is the return type (TY_NONE for
 * void).  block_budget 0 means EMU_DEFAULT_BLOCKS.  Always fills *out; a call with
 * nothing loaded or a bad function index is OUT_INVALID. */
void emu_call(Emu *e, uint32_t func, const Type *param_types, uint32_t nparams,
              const uint64_t *args, Type ret, uint64_t block_budget, Outcome *out);

/* the block budget for compiling a call the interpreter ran as *oracle: per_step
 * blocks per interpreter step (compiled code takes a few per gate), a block per 8
 * bytes of ALLOCA the run allocated (compiled code zero-fills them in loops), and
 * 20,000 of slack */
static inline uint64_t emu_budget_from(const Outcome *oracle, unsigned per_step)
{
    return oracle->steps * per_step + oracle->alloca_bytes / 8 + 20000;
}

/* the same for function f of the module the blob was compiled from (blob function
 * index = f->index; parameter and return types from f's signature) */
void emu_call_func(Emu *e, const Func *f, const uint64_t *args, uint64_t block_budget, Outcome *out);

/* junk above the width of narrow arguments (default on) */
void emu_set_junk_args(Emu *e, bool on);
/* check stack pointer and callee-saved registers at return (default on) */
void emu_set_abi_check(Emu *e, bool on);
/* wall-clock safety net per run in microseconds, 0 = none (default EMU_DEFAULT_WALL_US,
 * Unicorn timer on).  The block hook checks the clock every 65,536 blocks; with
 * unicorn_timer the limit also goes to uc_emu_start, whose timer thread bounds even
 * a run whose hooks never fire, at a cost of 0.1 to 1 ms a run (Unicorn 2.0.1
 * starts and joins a thread per uc_emu_start, polling in sleeps). */
void emu_set_wall_timeout(Emu *e, uint64_t usec, bool unicorn_timer);

/* Unicorn 2.0.1 keeps the space of every translation until its 1 GiB code buffer is
 * full, so an Emu replaces its engine (same map and hooks, fresh translation cache,
 * about 1.5 ms of CPU) at the load after this many loads (default 2048) or 2 MiB
 * of loaded code, keeping its memory bounded in long campaigns; 0 restores the
 * default */
void emu_set_recycle_loads(Emu *e, uint32_t loads);

/* Count the instructions of the loaded code each run executes (stubs excluded), read
 * after the run with emu_last_insns (not with isolation: the child's count is lost).
 * An instruction hook: runs are several times slower; for benchmarks.  Off by default;
 * false if the hook cannot be set. */
bool emu_set_count_insns(Emu *e, bool on);
uint64_t emu_last_insns(const Emu *e);

/* Unicorn 2.0.1 aborts the whole process on a few invalid x86 encodings (a lock
 * prefix on cmp, far call/jmp through a register: upstream issue #1716 and kin)
 * that compiled code reaches only by jumping into the middle of instructions.
 * With isolation on, each run happens in a forked child (about 1.5 ms more per
 * run); a child that dies gives OUT_TRAP TRAP_ILLEGAL ("the emulator died") and the
 * harness buffer as before the run.  Off by default; false if it cannot be set up. */
bool emu_set_isolation(Emu *e, bool on);

/* guest address of a helper's stub */
uint64_t emu_helper_addr(Helper h);
/* the ISA's name: "x86-64" or "arm64" */
const char *emu_isa_name(Isa isa);

#endif
