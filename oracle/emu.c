/* emu.c — the Unicorn runner (emu.h): one engine per Emu with its memory map and
 * hooks, loading a blob (relocations, translation-cache invalidation), setting up a
 * call by the ISA's ABI (emu_x64.c / emu_a64.c describe the ISAs), servicing helper
 * stubs, and turning how the run ended into an Outcome. */
#include "oracle/emu.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/blob_reloc.h"
#include "oracle/emu_harness.h"
#include "oracle/mem.h"
#include "oracle/runtime.h"

#define EMU_PAGE 0x1000u
#define CODE_CHUNK (1u << 20)        /* the code region grows in steps of this */
#define STACK_CUSHION 256u           /* unused bytes above the first stack argument */
#define MAX_PARAMS 1024u
/* the top of the stack is always mapped and filled with the run's pattern before
 * each run; the rest is mapped (and filled) when a run first touches it, from the
 * touched address's STACK_CHUNK up, at least doubling what is mapped below the top,
 * and dropped after (most runs never do) */
#define STACK_HOT (16u << 10)
#define STACK_COLD (EMU_STACK_SIZE - STACK_HOT)
#define STACK_CHUNK (64u << 10)
_Static_assert(MAX_PARAMS * 8 + STACK_CUSHION + 16 <= STACK_HOT, "stack arguments are in the hot part");
/* Unicorn 2.0.1 never reclaims the space of invalidated translations (its code
 * buffer only fills, up to 1 GiB); a fresh engine after this much loading bounds
 * the memory an Emu holds in a long campaign.  A load of a generated program's
 * code leaves about 13 KB of translations (212 MB per 16,384 loads), so 2,048
 * loads keep them under about 30 MB and a campaign worker's resident size level
 * from one minute to the next; a fresh engine costs about 1.5 ms of CPU */
#define RECYCLE_LOADS 2048u
#define RECYCLE_BYTES (2u << 20)

typedef enum { STOP_NONE, STOP_BUDGET, STOP_WALL, STOP_STACK, STOP_TRAP, STOP_THROW } StopReason;

#define WALL_CHECK_BLOCKS 0xFFFFu /* the block hook reads the clock every 65,536 blocks */

typedef struct {       /* what the hooks saw during one run */
    uint64_t blocks;
    uint64_t budget;
    uint64_t deadline_ns; /* monotonic clock, 0: none */
    uint64_t return_sp;   /* the stack pointer a correct return leaves at the sentinel */
    uint64_t args_end;    /* the caller's stack from here to the top must stay as it was */
    StopReason stop;
    uint8_t trap;      /* TrapKind, for STOP_TRAP */
    uint8_t throw_type;
    uint64_t throw_bits;
    const char *fault_what; /* a data access fault, described once the PC is known */
    uint64_t last_pc;       /* the instruction hook of locate_fault: last one started */
    uint64_t resume_pc;     /* 0, or where to go on after an instruction the runner
                               executed (EmuIsa.service): the engine stopped there */
    uint64_t insns;         /* instructions of the module's code run (emu_set_count_insns) */
    uint64_t fault_addr;
    int fault_size;
    char reason[200];
} RunState;

struct Emu {
    const EmuIsa *isa;
    unsigned cpu;      /* its CPU level: isa->cpus[cpu] */
    uc_engine *uc;
    uc_context *pristine; /* CPU state right after setup, restored before every run */
    uint8_t *stack;    /* host memory behind the guest stack */
    uint64_t stack_low;/* the lowest mapped stack address (below EMU_STACK_ADDR +
                          STACK_COLD: the run touched the cold part) */
    uint8_t *heap;     /* host memory behind the harness buffer */
    uint32_t loads;        /* blobs loaded into this engine ... */
    uint64_t loaded_bytes; /* ... and their code bytes */
    uint32_t recycle_loads;
    uint8_t *code;     /* host memory behind the code region, code_cap bytes */
    uint64_t code_cap; /* bytes mapped at EMU_CODE_ADDR */
    uint32_t code_size;/* bytes of the loaded code (0: nothing ever loaded) */
    bool loaded;
    bool threw_flag;   /* CodeBlob.threw_flag of the loaded blob */
    uint32_t *entry;
    uint32_t nfuncs;
    TrapSite *traps;   /* sorted by offset */
    uint32_t ntraps;
    bool junk_args;
    bool abi_check;
    bool isolate;      /* each run in a forked child */
    Outcome *shared;   /* MAP_SHARED: where that child leaves its Outcome */
    uint64_t wall_us;
    bool unicorn_timer;
    RunState run;
    bool count_insns;  /* emu_set_count_insns */
    uc_hook insn_hook;
    Harness harness;   /* the patterns of the current run */
    char error[256];
};

/* the emulator binding of each Isa a Target names (emu_<isa>.c) */
static const EmuIsa *const isa_descs[ISA_COUNT] = {
    [ISA_X64] = &emu_isa_x64,
    [ISA_A64] = &emu_isa_a64,
};

static const EmuIsa *isa_desc(Isa isa) { return (unsigned)isa < ISA_COUNT ? isa_descs[isa] : NULL; }

const char *emu_isa_name(Isa isa)
{
    const EmuIsa *d = isa_desc(isa);
    return d ? d->name : "?";
}

uint64_t emu_helper_addr(Helper h)
{
    return EMU_STUB_ADDR + (uint64_t)h * EMU_STUB_STRIDE;
}

const char *emu_error(const Emu *e)
{
    return e->error;
}

void emu_set_junk_args(Emu *e, bool on)
{
    e->junk_args = on;
}

void emu_set_abi_check(Emu *e, bool on)
{
    e->abi_check = on;
}

void emu_set_wall_timeout(Emu *e, uint64_t usec, bool unicorn_timer)
{
    e->wall_us = usec;
    e->unicorn_timer = unicorn_timer;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void wall_reason(const Emu *e, char *buf, size_t n)
{
    snprintf(buf, n, "wall-clock limit of %llu us", (unsigned long long)e->wall_us);
}

static bool fail(Emu *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof e->error, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- traps and faults ---------------------------------------------------------- */

static uint64_t read_pc(Emu *e)
{
    uint64_t pc = 0;
    uc_reg_read(e->uc, e->isa->reg_pc, &pc);
    return pc;
}

static const TrapSite *trap_lookup(const Emu *e, uint32_t offset)
{
    uint32_t lo = 0, hi = e->ntraps;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (e->traps[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < e->ntraps && e->traps[lo].offset == offset ? &e->traps[lo] : NULL;
}

static bool in_code(const Emu *e, uint64_t pc)
{
    return pc >= EMU_CODE_ADDR && pc < EMU_CODE_ADDR + e->code_size;
}

/* a trap instruction or a faulting instruction at pc: its TrapKind comes from the
 * trap table, TRAP_ILLEGAL if pc is not listed there; at a listed site, an
 * instruction that tells its cause (cause >= 0: x86 #DE, zero divisor or overflow)
 * gives that cause */
static void record_trap(Emu *e, uint64_t pc, const char *what, int cause)
{
    RunState *r = &e->run;
    if (r->stop != STOP_NONE)
        return;
    r->stop = STOP_TRAP;
    const TrapSite *t = in_code(e, pc) ? trap_lookup(e, (uint32_t)(pc - EMU_CODE_ADDR)) : NULL;
    r->trap = !t ? TRAP_ILLEGAL : cause >= 0 ? (uint8_t)cause : t->kind;
    if (in_code(e, pc))
        snprintf(r->reason, sizeof r->reason, "%s at code offset 0x%llx%s", what,
                 (unsigned long long)(pc - EMU_CODE_ADDR), t ? "" : " (not in the trap table)");
    else
        snprintf(r->reason, sizeof r->reason, "%s at 0x%llx, outside the code", what,
                 (unsigned long long)pc);
}

static void record_fault(Emu *e, uc_mem_type type, const char *what, uint64_t addr, int size)
{
    RunState *r = &e->run;
    if (r->stop != STOP_NONE)
        return;
    bool below_stack = addr < EMU_STACK_ADDR && addr >= EMU_STACK_ADDR - EMU_STACK_GUARD;
    if (type != UC_MEM_FETCH_UNMAPPED && below_stack) {
        /* runaway recursion: out of resources, like the interpreter's depth limit */
        r->stop = STOP_STACK;
        snprintf(r->reason, sizeof r->reason, "stack exhausted (%s at 0x%llx)", what, (unsigned long long)addr);
        return;
    }
    r->stop = STOP_TRAP;
    r->trap = TRAP_FAULT;
    if (type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT) {
        snprintf(r->reason, sizeof r->reason, "%s at 0x%llx", what, (unsigned long long)addr);
        return;
    }
    /* inside the hook the PC may still be the block's start; Unicorn restores the
     * faulting instruction's address on the way out of uc_emu_start */
    r->fault_what = what;
    r->fault_addr = addr;
    r->fault_size = size;
}

static void fault_reason(Emu *e, uint64_t pc)
{
    RunState *r = &e->run;
    if (in_code(e, pc))
        snprintf(r->reason, sizeof r->reason, "%s of %d bytes at 0x%llx (code offset 0x%llx)",
                 r->fault_what, r->fault_size, (unsigned long long)r->fault_addr,
                 (unsigned long long)(pc - EMU_CODE_ADDR));
    else
        snprintf(r->reason, sizeof r->reason, "%s of %d bytes at 0x%llx (pc 0x%llx)", r->fault_what,
                 r->fault_size, (unsigned long long)r->fault_addr, (unsigned long long)pc);
}

static const char *mem_access_name(uc_mem_type type)
{
    switch (type) {
    case UC_MEM_READ_UNMAPPED: return "read of unmapped memory";
    case UC_MEM_WRITE_UNMAPPED: return "write of unmapped memory";
    case UC_MEM_FETCH_UNMAPPED: return "execution of unmapped memory";
    case UC_MEM_READ_PROT: return "read of protected memory";
    case UC_MEM_WRITE_PROT: return "write of read-only memory";
    case UC_MEM_FETCH_PROT: return "execution of non-executable memory";
    default: return "invalid memory access";
    }
}

/* ---- hooks --------------------------------------------------------------------- */

static void on_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)addr, (void)size;
    Emu *e = user;
    RunState *r = &e->run;
    if (++r->blocks > r->budget) {
        r->blocks--; /* stopped before it ran */
        if (r->stop == STOP_NONE) {
            r->stop = STOP_BUDGET;
            snprintf(r->reason, sizeof r->reason, "block budget of %llu exhausted",
                     (unsigned long long)r->budget);
        }
        uc_emu_stop(uc);
    } else if ((r->blocks & WALL_CHECK_BLOCKS) == 0 && r->deadline_ns && now_ns() > r->deadline_ns) {
        if (r->stop == STOP_NONE) {
            r->stop = STOP_WALL;
            wall_reason(e, r->reason, sizeof r->reason);
        }
        uc_emu_stop(uc);
    }
}

/* the instruction at pc, invalid on the CPU model but one of the level's, executed
 * by the runner (EmuIsa.service): the run resumes after it (go) */
static bool serviced(Emu *e, uc_engine *uc, uint64_t pc)
{
    uint64_t next;
    if (!e->isa->cpus[e->cpu].serviced || !e->isa->service(uc, pc, &next))
        return false;
    e->run.resume_pc = next;
    uc_emu_stop(uc);
    return true;
}

static void on_intr(uc_engine *uc, uint32_t intno, void *user)
{
    Emu *e = user;
    uint64_t pc = e->isa->trap_site(uc, intno, read_pc(e));
    if (serviced(e, uc, pc))
        return;
    int cause = e->isa->trap_cause ? e->isa->trap_cause(uc, intno, pc) : -1;
    record_trap(e, pc, e->isa->intr_name(intno), cause);
    uc_emu_stop(uc);
}

static bool on_insn_invalid(uc_engine *uc, void *user)
{
    Emu *e = user;
    uint64_t pc = read_pc(e);
    if (serviced(e, uc, pc))
        return false; /* stopped: go resumes after it */
    record_trap(e, pc, "invalid instruction", -1);
    return false; /* stop with UC_ERR_INSN_INVALID */
}

static void on_forbidden_insn(uc_engine *uc, void *user)
{
    Emu *e = user;
    record_trap(e, read_pc(e), "system call instruction", -1);
    uc_emu_stop(uc);
}

static bool is_unmapped(uc_mem_type t)
{
    return t == UC_MEM_READ_UNMAPPED || t == UC_MEM_WRITE_UNMAPPED || t == UC_MEM_FETCH_UNMAPPED;
}

/* map the cold stack from addr's chunk (or lower, doubling what is mapped below the
 * top) up to what is mapped, with the run's pattern */
static bool map_cold_stack(Emu *e, uint64_t addr)
{
    uint64_t top = EMU_STACK_ADDR + EMU_STACK_SIZE;
    uint64_t low = (addr > EMU_STACK_ADDR ? addr - EMU_STACK_ADDR : 0) / STACK_CHUNK * STACK_CHUNK + EMU_STACK_ADDR;
    uint64_t doubled = e->stack_low - EMU_STACK_ADDR > top - e->stack_low ? e->stack_low - (top - e->stack_low)
                                                                        : EMU_STACK_ADDR;
    if (doubled < low)
        low = doubled;
    uint8_t *mem = e->stack + (low - EMU_STACK_ADDR);
    if (uc_mem_map_ptr(e->uc, low, e->stack_low - low, UC_PROT_READ | UC_PROT_WRITE, mem) != UC_ERR_OK)
        return false;
    harness_fill(&e->harness, mem, low, e->stack_low - low);
    e->stack_low = low;
    return true;
}

static bool on_mem_invalid(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                           int64_t value, void *user)
{
    (void)value, (void)uc;
    Emu *e = user;
    if (is_unmapped(type) && addr < e->stack_low && addr + (uint64_t)(size > 0 ? size : 1) > EMU_STACK_ADDR &&
        map_cold_stack(e, addr))
        return true; /* the access is retried */
    record_fault(e, type, mem_access_name(type), addr, size);
    return false; /* not handled: the run stops with the access error */
}

static uint64_t read_reg64(Emu *e, int reg)
{
    uint64_t v = 0;
    uc_reg_read(e->uc, reg, &v);
    return v;
}

static uint64_t read_vreg_low(Emu *e, int reg)
{
    uint64_t v[2] = {0, 0};
    uc_reg_read(e->uc, reg, v);
    return v[0];
}

static void write_vreg(Emu *e, int reg, uint64_t low)
{
    uint64_t v[2] = {low, 0};
    uc_reg_write(e->uc, reg, v);
}

static uint64_t float_helper(Helper h, uint64_t a, uint64_t b)
{
    if (h == HELPER_FMOD_F32 || h == HELPER_FEXP_F32) {
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b, ur;
        float fa, fb, fr;
        memcpy(&fa, &ua, 4);
        memcpy(&fb, &ub, 4);
        fr = h == HELPER_FMOD_F32 ? fmodf(fa, fb) : powf(fa, fb);
        if (isnan(fr))
            return 0x7fc00000u;
        memcpy(&ur, &fr, 4);
        return ur;
    }
    double da, db, dr;
    uint64_t ur;
    memcpy(&da, &a, 8);
    memcpy(&db, &b, 8);
    dr = h == HELPER_FMOD_F64 ? fmod(da, db) : pow(da, db);
    if (isnan(dr))
        return 0x7ff8000000000000ull;
    memcpy(&ur, &dr, 8);
    return ur;
}

static void service_throw(Emu *e)
{
    uint64_t bits = read_reg64(e, e->isa->int_args[0]);
    uint64_t type = read_reg64(e, e->isa->int_args[1]);
    RunState *r = &e->run;
    if (type < TY_I1 || type > TY_F64) {
        r->stop = STOP_TRAP;
        r->trap = TRAP_ILLEGAL;
        snprintf(r->reason, sizeof r->reason, "throw helper called with invalid type %llu",
                 (unsigned long long)type);
        return;
    }
    r->stop = STOP_THROW;
    r->throw_type = (uint8_t)type;
    r->throw_bits = bits & ty_mask((Type)type);
}

/* ---- runtime functions (oracle/runtime.h): host stubs ------------------------------ */
typedef struct { Emu *e; uint64_t args[3]; } EmuRtCall;

static bool stop_trap(Emu *e, TrapKind kind, const char *why, uint64_t at)
{
    RunState *r = &e->run;
    r->stop = STOP_TRAP;
    r->trap = (uint8_t)kind;
    snprintf(r->reason, sizeof r->reason, "%s at 0x%llx", why, (unsigned long long)at);
    uc_emu_stop(e->uc);
    return false;
}

/* the runtime touches only the harness buffer and the stack (where ALLOCAs live) */
static bool emu_rt_access(EmuRtCall *rc, uint32_t arg, uint64_t off, uint8_t *buf, uint32_t n, bool write)
{
    uint64_t at = rc->args[arg] + off;
    bool heap = at >= HEAP_ADDR && at - HEAP_ADDR <= HEAP_SIZE - n;
    bool stack = at >= EMU_STACK_ADDR && at - EMU_STACK_ADDR <= EMU_STACK_SIZE - n;
    uc_err err = UC_ERR_READ_UNMAPPED;
    if (heap || stack)
        err = write ? uc_mem_write(rc->e->uc, at, buf, n) : uc_mem_read(rc->e->uc, at, buf, n);
    return err == UC_ERR_OK || stop_trap(rc->e, TRAP_FAULT, "a runtime function touched memory it may not", at);
}

static bool emu_rt_read(void *ctx, uint32_t arg, uint64_t off, uint8_t *buf, uint32_t n)
{
    return emu_rt_access(ctx, arg, off, buf, n, false);
}

static bool emu_rt_write(void *ctx, uint32_t arg, uint64_t off, const uint8_t *buf, uint32_t n)
{
    return emu_rt_access(ctx, arg, off, (uint8_t *)buf, n, true);
}

/* rt_apply(f, x) is exactly f(x): a tail call (f's return goes to the stub's caller) */
static bool emu_rt_callback(void *ctx, uint32_t arg, uint64_t x, uint64_t *ret)
{
    EmuRtCall *rc = ctx;
    (void)ret;
    uint64_t f = rc->args[arg];
    uc_reg_write(rc->e->uc, rc->e->isa->int_args[0], &x);
    uc_reg_write(rc->e->uc, rc->e->isa->reg_pc, &f);
    return false;
}

/* the runtime throws bits: with the threw flag (CodeBlob.threw_flag), the stub returns
 * them flagged as a throw of i64 to its caller, which passes it on or catches it; else
 * the run ends with the throw */
static bool emu_rt_raise(void *ctx, uint64_t bits)
{
    EmuRtCall *rc = ctx;
    if (rc->e->threw_flag) {
        uint64_t flag = 1 + (uint64_t)TY_I64;
        uc_reg_write(rc->e->uc, rc->e->isa->reg_ret_int, &bits);
        uc_reg_write(rc->e->uc, rc->e->isa->reg_threw, &flag);
        return false;
    }
    RunState *r = &rc->e->run;
    r->stop = STOP_THROW;
    r->throw_type = TY_I64;
    r->throw_bits = bits;
    uc_emu_stop(rc->e->uc);
    return false;
}

static void service_runtime(Emu *e, RuntimeFn fn)
{
    EmuRtCall rc = {e, {0, 0, 0}};
    for (uint32_t i = 0; i < runtime_info[fn].nparams; i++)
        rc.args[i] = read_reg64(e, e->isa->int_args[i]);
    RtHost host = {&rc, emu_rt_read, emu_rt_write, emu_rt_callback, emu_rt_raise};
    uint64_t r = 0;
    if (!rt_call(fn, rc.args, &host, &r))
        return;
    uint64_t returned = 0; /* the threw flag of a plain return */
    uc_reg_write(e->uc, e->isa->reg_ret_int, &r);
    if (e->threw_flag)
        uc_reg_write(e->uc, e->isa->reg_threw, &returned);
}

/* execution reached a helper stub: compute, set the result, let the stub return */
static void on_stub(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    Emu *e = user;
    uint64_t rel = addr - EMU_STUB_ADDR;
    if (rel % EMU_STUB_STRIDE || rel / EMU_STUB_STRIDE >= HELPER_COUNT || e->run.stop != STOP_NONE)
        return;
    Helper h = (Helper)(rel / EMU_STUB_STRIDE);
    uint64_t sp = read_reg64(e, e->isa->reg_sp);
    if (e->abi_check && (sp + e->isa->stack_arg_offset) % 16 != 0) {
        RunState *r = &e->run;
        r->stop = STOP_TRAP; /* real code would crash in libm's aligned spills */
        r->trap = TRAP_ABI;
        static const char *const names[HELPER_COUNT] = {"fmod f32", "fmod f64", "fexp f32", "fexp f64", "throw",
#define RT(name, ...) #name,
#include "compiler/ir/runtime.def"
#undef RT
        };
        snprintf(r->reason, sizeof r->reason,
                 "abi-misaligned-call: %s helper called with a misaligned stack (sp 0x%llx)", names[h],
                 (unsigned long long)sp);
        uc_emu_stop(uc);
        return;
    }
    if (h == HELPER_THROW) {
        service_throw(e);
        uc_emu_stop(uc);
        return;
    }
    if (h >= HELPER_RUNTIME) {
        service_runtime(e, (RuntimeFn)(h - HELPER_RUNTIME));
        return;
    }
    uint64_t a = read_vreg_low(e, e->isa->fp_args[0]);
    uint64_t b = read_vreg_low(e, e->isa->fp_args[1]);
    write_vreg(e, e->isa->reg_ret_fp, float_helper(h, a, b));
}

/* ---- engine and memory map ----------------------------------------------------- */

static void fill_code(const EmuIsa *d, uint8_t *p, size_t n)
{
    size_t have = n < d->filler_len ? n : d->filler_len;
    memcpy(p, d->filler, have);
    while (have < n) { /* the pattern doubles: a few memcpy calls for 1 MiB */
        size_t k = have < n - have ? have : n - have;
        memcpy(p + have, p, k);
        have += k;
    }
}

static bool map_filled(Emu *e, uint64_t addr, size_t size, uint32_t perms)
{
    uint8_t *buf = malloc(size);
    if (!buf)
        return fail(e, "out of memory");
    fill_code(e->isa, buf, size);
    uc_err err = uc_mem_map(e->uc, addr, size, perms);
    if (err == UC_ERR_OK)
        err = uc_mem_write(e->uc, addr, buf, size);
    free(buf);
    if (err != UC_ERR_OK)
        return fail(e, "mapping 0x%llx: %s", (unsigned long long)addr, uc_strerror(err));
    return true;
}

static bool map_stubs(Emu *e)
{
    uint8_t page[EMU_PAGE];
    fill_code(e->isa, page, sizeof page);
    for (unsigned h = 0; h < HELPER_COUNT; h++)
        memcpy(page + h * EMU_STUB_STRIDE,
               h == HELPER_THROW ? e->isa->stub_trap : e->isa->stub_return, e->isa->stub_len);
    uc_err err = uc_mem_map(e->uc, EMU_STUB_ADDR, EMU_PAGE, UC_PROT_READ | UC_PROT_EXEC);
    if (err == UC_ERR_OK)
        err = uc_mem_write(e->uc, EMU_STUB_ADDR, page, sizeof page);
    return err == UC_ERR_OK || fail(e, "mapping the stubs: %s", uc_strerror(err));
}

/* guest RAM backed by our own anonymous mapping, so that it can be reset fast */
static uint8_t *host_alloc(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#if defined(__linux__) && defined(MADV_NOHUGEPAGE)
    /* small pages: after host_zero, a run's first touch zeroes 4 KiB, not 2 MiB */
    madvise(p, size, MADV_NOHUGEPAGE);
#endif
    return p;
}

/* zero guest RAM: on Linux, dropping the pages of a private anonymous mapping makes
 * them read back as zeros, and only pages the next run touches cost anything (a
 * 1 MiB memset would be most of a short run's time) */
static void host_zero(uint8_t *mem, size_t size)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    if (madvise(mem, size, MADV_DONTNEED) == 0)
        return;
#endif
    memset(mem, 0, size);
}

/* the stack for the next run: the hot part holds the run's pattern, the cold part
 * is unmapped if a run mapped it (filled again when a run touches it) */
static void stack_reset(Emu *e)
{
    harness_fill(&e->harness, e->stack + STACK_COLD, EMU_STACK_ADDR + STACK_COLD, STACK_HOT);
    uint64_t hot = EMU_STACK_ADDR + STACK_COLD;
    if (e->stack_low < hot)
        uc_mem_unmap(e->uc, e->stack_low, hot - e->stack_low);
    e->stack_low = hot;
}

/* the stack's host memory, its hot part mapped */
static bool map_stack(Emu *e)
{
    if (!e->stack)
        e->stack = host_alloc(EMU_STACK_SIZE); /* kept when the engine is recycled */
    if (!e->stack)
        return fail(e, "out of memory");
    host_zero(e->stack, EMU_STACK_SIZE);
    e->stack_low = EMU_STACK_ADDR + STACK_COLD;
    uc_err err = uc_mem_map_ptr(e->uc, EMU_STACK_ADDR + STACK_COLD, STACK_HOT, UC_PROT_READ | UC_PROT_WRITE,
                                e->stack + STACK_COLD);
    return err == UC_ERR_OK || fail(e, "mapping the stack: %s", uc_strerror(err));
}

static bool map_host(Emu *e, uint64_t addr, uint8_t **mem, size_t size)
{
    if (!*mem)
        *mem = host_alloc(size); /* kept when the engine is recycled */
    if (!*mem)
        return fail(e, "out of memory");
    uc_err err = uc_mem_map_ptr(e->uc, addr, size, UC_PROT_READ | UC_PROT_WRITE, *mem);
    return err == UC_ERR_OK || fail(e, "mapping 0x%llx: %s", (unsigned long long)addr, uc_strerror(err));
}

/* the code region, backed by host memory: loading writes it directly (uc_mem_write
 * into a read-only region re-maps it twice, most of a load's time) */
static bool map_code(Emu *e, uint64_t cap)
{
    uint8_t *mem = host_alloc(cap);
    if (!mem)
        return fail(e, "out of memory");
    fill_code(e->isa, mem, cap);
    uc_err err = uc_mem_map_ptr(e->uc, EMU_CODE_ADDR, cap, UC_PROT_READ | UC_PROT_EXEC, mem);
    if (err != UC_ERR_OK) {
        munmap(mem, cap);
        return fail(e, "mapping the code: %s", uc_strerror(err));
    }
    e->code = mem;
    e->code_cap = cap;
    return true;
}

static void unmap_code(Emu *e)
{
    if (e->code)
        munmap(e->code, e->code_cap);
    e->code = NULL;
    e->code_cap = 0;
    e->code_size = 0;
}

static void on_counted_insn(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc, (void)size;
    Emu *e = user;
    e->run.insns += addr - EMU_CODE_ADDR < e->code_size;
}

/* the counting hook on or off; cached translations are dropped, so blocks are
 * translated again with (or without) it */
static bool set_count_hook(Emu *e, bool on)
{
    uc_err err = UC_ERR_OK;
    if (on)
        err = uc_hook_add(e->uc, &e->insn_hook, UC_HOOK_CODE, (void *)on_counted_insn, e, 1, 0);
    else if (e->insn_hook)
        err = uc_hook_del(e->uc, e->insn_hook);
    if (!on)
        e->insn_hook = 0;
    if (e->code_size)
        uc_ctl_remove_cache(e->uc, EMU_CODE_ADDR, EMU_CODE_ADDR + e->code_size);
    return err == UC_ERR_OK;
}

bool emu_set_count_insns(Emu *e, bool on)
{
    if (on == e->count_insns)
        return true;
    e->count_insns = on;
    return set_count_hook(e, on);
}

uint64_t emu_last_insns(const Emu *e)
{
    return e->run.insns;
}

static bool add_hooks(Emu *e)
{
    uc_hook h;
    uc_err err = uc_hook_add(e->uc, &h, UC_HOOK_BLOCK, (void *)on_block, e, 1, 0);
    if (err == UC_ERR_OK)
        err = uc_hook_add(e->uc, &h, UC_HOOK_INTR, (void *)on_intr, e, 1, 0);
    if (err == UC_ERR_OK)
        err = uc_hook_add(e->uc, &h, UC_HOOK_INSN_INVALID, (void *)on_insn_invalid, e, 1, 0);
    if (err == UC_ERR_OK)
        err = uc_hook_add(e->uc, &h, UC_HOOK_MEM_INVALID, (void *)on_mem_invalid, e, 1, 0);
    for (unsigned i = 0; i < e->isa->nforbidden_insns && err == UC_ERR_OK; i++)
        err = uc_hook_add(e->uc, &h, UC_HOOK_INSN, (void *)on_forbidden_insn, e, 1, 0,
                          e->isa->forbidden_insns[i]);
    if (err == UC_ERR_OK)
        err = uc_hook_add(e->uc, &h, UC_HOOK_CODE, (void *)on_stub, e, EMU_STUB_ADDR,
                          EMU_STUB_ADDR + HELPER_COUNT * EMU_STUB_STRIDE - 1);
    if (err == UC_ERR_OK && e->count_insns) /* a replaced engine counts on */
        err = set_count_hook(e, true) ? UC_ERR_OK : UC_ERR_HOOK;
    return err == UC_ERR_OK || fail(e, "adding hooks: %s", uc_strerror(err));
}

/* the registers every run starts from: the integer and vector registers zero, the
 * floating-point control state as the ISA wants it */
static uc_err zero_cpu(Emu *e)
{
    const EmuIsa *d = e->isa;
    static const uint64_t zero[2];
    void *vals[EMU_MAX_ZERO_REGS];
    for (unsigned i = 0; i < EMU_MAX_ZERO_REGS; i++)
        vals[i] = (void *)zero;
    uc_err err = uc_reg_write_batch(e->uc, (int *)d->zero_regs, vals, (int)d->nzero_regs);
    if (err == UC_ERR_OK)
        err = uc_reg_write_batch(e->uc, (int *)d->zero_vregs, vals, (int)d->nzero_vregs);
    if (err == UC_ERR_OK)
        err = d->reset_fp(e->uc);
    return err;
}

/* The pristine state is saved with the registers a run starts from (zero_cpu), so
 * restoring it is the whole reset.  Restoring the whole CPU state before a run also
 * clears what the register API cannot reach: x86 records the exception "in flight"
 * (for double-fault detection), and since a trap ends the run from the interrupt
 * hook the exception is never delivered and the record stays; without a reset the
 * next #DE becomes #DF. */
static bool save_pristine(Emu *e)
{
    uc_err err = zero_cpu(e);
    if (err == UC_ERR_OK)
        err = uc_context_alloc(e->uc, &e->pristine);
    if (err == UC_ERR_OK)
        err = uc_context_save(e->uc, e->pristine);
    return err == UC_ERR_OK || fail(e, "saving the CPU state: %s", uc_strerror(err));
}

static bool engine_setup(Emu *e)
{
    uc_err err = uc_open(e->isa->arch, e->isa->mode, &e->uc);
    if (err != UC_ERR_OK) {
        e->uc = NULL;
        return fail(e, "uc_open: %s", uc_strerror(err));
    }
    err = uc_ctl_set_cpu_model(e->uc, e->isa->cpus[e->cpu].model);
    if (err == UC_ERR_OK)
        err = e->isa->init(e->uc);
    if (err != UC_ERR_OK)
        return fail(e, "engine setup: %s", uc_strerror(err));
    e->code_size = 0;
    e->loads = 0;
    e->loaded_bytes = 0;
    return map_filled(e, EMU_SENTINEL_ADDR, EMU_PAGE, UC_PROT_READ | UC_PROT_EXEC) &&
           map_stubs(e) &&
           map_code(e, CODE_CHUNK) &&
           map_host(e, HEAP_ADDR, &e->heap, HEAP_SIZE) &&
           map_stack(e) && add_hooks(e) &&
           save_pristine(e);
}

/* the index of the CPU level named cpu in d (NULL: the baseline), -1 if none */
static int cpu_index(const EmuIsa *d, const char *cpu)
{
    for (unsigned i = 0; i < d->ncpus; i++)
        if (!cpu || !strcmp(d->cpus[i].name, cpu))
            return (int)i;
    return -1;
}

Emu *emu_new(Isa isa) { return emu_new_cpu(isa, NULL); }

Emu *emu_new_cpu(Isa isa, const char *cpu)
{
    const EmuIsa *d = isa_desc(isa);
    int level = d ? cpu_index(d, cpu) : -1;
    if (level < 0)
        return NULL;
    Emu *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->isa = d;
    e->cpu = (unsigned)level;
    e->junk_args = true;
    e->abi_check = true;
    e->recycle_loads = RECYCLE_LOADS;
    e->wall_us = EMU_DEFAULT_WALL_US;
    e->unicorn_timer = true;
    if (!engine_setup(e)) {
        emu_free(e);
        return NULL;
    }
    return e;
}

static void engine_close(Emu *e)
{
    if (e->pristine)
        uc_context_free(e->pristine);
    if (e->uc)
        uc_close(e->uc); /* before the host memory it maps goes */
    unmap_code(e);
    e->pristine = NULL;
    e->uc = NULL;
}

/* a fresh engine with the same memory map and hooks: frees the old translations */
static bool engine_recycle(Emu *e)
{
    engine_close(e);
    return engine_setup(e);
}

void emu_set_recycle_loads(Emu *e, uint32_t loads)
{
    e->recycle_loads = loads ? loads : RECYCLE_LOADS;
}

void emu_free(Emu *e)
{
    if (!e)
        return;
    engine_close(e);
    if (e->shared)
        munmap(e->shared, sizeof(Outcome));
    if (e->stack)
        munmap(e->stack, EMU_STACK_SIZE);
    if (e->heap)
        munmap(e->heap, HEAP_SIZE);
    free(e->entry);
    free(e->traps);
    free(e);
}

/* ---- loading ------------------------------------------------------------------- */

static bool blob_check(Emu *e, const CodeBlob *b)
{
    if (isa_desc(b->isa) != e->isa)
        return fail(e, "blob is for %s, engine is %s", emu_isa_name(b->isa), e->isa->name);
    if ((b->size && !b->code) || (b->nfuncs && !b->entry) || (b->nrelocs && !b->relocs) ||
        (b->ntraps && !b->traps))
        return fail(e, "blob has counts without the arrays they count");
    if (b->size > 0x40000000u)
        return fail(e, "blob code too large (%u bytes)", b->size);
    for (uint32_t i = 0; i < b->nfuncs; i++)
        if (b->entry[i] >= b->size)
            return fail(e, "entry of function %u at 0x%x is outside the code", i, b->entry[i]);
    for (uint32_t i = 0; i < b->nrelocs; i++) {
        const Reloc *r = &b->relocs[i];
        unsigned field = blob_reloc_size(b->isa, r->kind);
        if (!field)
            return fail(e, "relocation %u: unknown kind %u", i, r->kind);
        if (r->offset > b->size || b->size - r->offset < field)
            return fail(e, "relocation %u at 0x%x is outside the code", i, r->offset);
        if (r->target == TARGET_FUNC ? r->index >= b->nfuncs
            : r->target == TARGET_HELPER ? r->index >= HELPER_COUNT : true)
            return fail(e, "relocation %u: bad target %u/%u", i, r->target, r->index);
    }
    for (uint32_t i = 0; i < b->ntraps; i++)
        if (b->traps[i].offset >= b->size)
            return fail(e, "trap site %u at 0x%x is outside the code", i, b->traps[i].offset);
    return true;
}

static bool grow_code(Emu *e, uint32_t size)
{
    if (size <= e->code_cap)
        return true;
    uint64_t cap = ((uint64_t)size + CODE_CHUNK - 1) / CODE_CHUNK * CODE_CHUNK;
    uc_ctl_remove_cache(e->uc, EMU_CODE_ADDR, EMU_CODE_ADDR + e->code_cap);
    uc_err err = uc_mem_unmap(e->uc, EMU_CODE_ADDR, e->code_cap);
    if (err != UC_ERR_OK)
        return fail(e, "unmapping the code: %s", uc_strerror(err));
    unmap_code(e);
    return map_code(e, cap);
}

/* the code at EMU_CODE_ADDR, the helpers at their stubs; false (with the engine's
 * error) if a PC-relative field cannot reach its target */
static bool apply_relocs(Emu *e, const CodeBlob *b, uint8_t *image)
{
    for (uint32_t i = 0; i < b->nrelocs; i++) {
        const Reloc *r = &b->relocs[i];
        uint64_t target = r->target == TARGET_FUNC ? EMU_CODE_ADDR + b->entry[r->index]
                                                   : emu_helper_addr((Helper)r->index);
        if (!blob_reloc_apply(b->isa, image, EMU_CODE_ADDR, r, target))
            return fail(e, "relocation %u at 0x%x: the target is out of its field's range", i, r->offset);
    }
    return true;
}

static int trap_cmp(const void *a, const void *b)
{
    uint32_t x = ((const TrapSite *)a)->offset, y = ((const TrapSite *)b)->offset;
    return x < y ? -1 : x > y;
}

static bool keep_tables(Emu *e, const CodeBlob *b)
{
    free(e->entry);
    free(e->traps);
    e->entry = malloc((b->nfuncs ? b->nfuncs : 1) * sizeof *e->entry);
    e->traps = malloc((b->ntraps ? b->ntraps : 1) * sizeof *e->traps);
    if (!e->entry || !e->traps)
        return fail(e, "out of memory");
    if (b->nfuncs)
        memcpy(e->entry, b->entry, b->nfuncs * sizeof *e->entry);
    if (b->ntraps)
        memcpy(e->traps, b->traps, b->ntraps * sizeof *e->traps);
    qsort(e->traps, b->ntraps, sizeof *e->traps, trap_cmp);
    e->nfuncs = b->nfuncs;
    e->ntraps = b->ntraps;
    return true;
}

bool emu_load(Emu *e, const CodeBlob *b)
{
    e->loaded = false;
    e->error[0] = 0;
    if (!blob_check(e, b))
        return false;
    if (!e->uc || e->loads >= e->recycle_loads || e->loaded_bytes >= RECYCLE_BYTES) {
        if (!engine_recycle(e)) {
            engine_close(e); /* no half-built engine; the next load tries again */
            return false;
        }
    }
    e->loads++;
    e->loaded_bytes += b->size;
    if (!grow_code(e, b->size))
        return false;
    /* the new code, then fillers over whatever the old code covered beyond it */
    uint32_t span = b->size > e->code_size ? b->size : e->code_size;
    if (span == 0)
        span = 1;
    fill_code(e->isa, e->code, span);
    if (b->size)
        memcpy(e->code, b->code, b->size);
    if (!apply_relocs(e, b, e->code))
        return false;
    /* translated blocks of the old bytes at these addresses must go */
    uc_err err = uc_ctl_remove_cache(e->uc, EMU_CODE_ADDR, EMU_CODE_ADDR + span);
    if (err != UC_ERR_OK)
        return fail(e, "invalidating translated code: %s", uc_strerror(err));
    e->code_size = b->size;
    e->threw_flag = b->threw_flag != 0;
    if (!keep_tables(e, b))
        return false;
    e->loaded = true;
    return true;
}

/* ---- one call ------------------------------------------------------------------ */

/* the registers as save_pristine left them */
static uc_err reset_cpu(Emu *e) { return uc_context_restore(e->uc, e->pristine); }

/* the bits of a narrow argument with junk (or zeros) above its width; a function's
 * address from a run line (RUNARG_FUNC_ADDR, oracle/mem.h) becomes its code address */
static uint64_t arg_bits(const Emu *e, Type t, uint64_t v, uint32_t i)
{
    uint64_t mask = ty_mask(t), rel = v - RUNARG_FUNC_ADDR(0);
    if (t == TY_I64 && v >= RUNARG_FUNC_ADDR(0) && rel % 16 == 0 && rel / 16 < e->nfuncs)
        return EMU_CODE_ADDR + e->entry[rel / 16];
    uint64_t junk = e->junk_args ? harness_word(&e->harness, (3ull << 40) | i) : 0;
    return (v & mask) | (junk & ~mask);
}

static void put_stack64(Emu *e, uint64_t addr, uint64_t v)
{
    uint8_t *p = e->stack + (addr - EMU_STACK_ADDR);
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get_stack64(const Emu *e, uint64_t addr)
{
    uint64_t v;
    memcpy(&v, e->stack + (addr - EMU_STACK_ADDR), 8);
    return v;
}

static uint32_t count_stack_args(const EmuIsa *d, const Type *types, uint32_t n)
{
    uint32_t ni = 0, nf = 0, ns = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ty_is_float(types[i]) ? nf++ >= d->nfp_args : ni++ >= d->nint_args)
            ns++;
    }
    return ns;
}

enum { MAX_GP_WRITES = EMU_MAX_ZERO_REGS + 3 }; /* + flags, stack pointer, link register */

/* the registers a run starts with: in gp_ids/gp the general registers, flags, stack
 * pointer and link register; vec[i] for the vector register zero_vregs[i] */
typedef struct {
    int gp_ids[MAX_GP_WRITES];
    uint64_t gp[MAX_GP_WRITES];
    unsigned ngp;
    uint64_t vec[EMU_MAX_ZERO_REGS][2];
} EntryRegs;

/* every register its pattern (emu_harness.h) */
static void pattern_regs(const Emu *e, EntryRegs *r)
{
    const EmuIsa *d = e->isa;
    const Harness *h = &e->harness;
    for (unsigned i = 0; i < d->npattern_regs; i++) {
        r->gp_ids[i] = d->pattern_regs[i];
        r->gp[i] = harness_word(h, (uint64_t)d->pattern_regs[i]);
    }
    r->ngp = d->npattern_regs;
    r->gp_ids[r->ngp] = d->reg_flags;
    r->gp[r->ngp++] = harness_flags(h, d);
    for (unsigned i = 0; i < d->nzero_vregs; i++) {
        r->vec[i][0] = harness_word(h, (uint64_t)d->zero_vregs[i]);
        r->vec[i][1] = harness_word_high(h, d->zero_vregs[i]);
    }
}

/* the arguments over the patterns: registers (int_args and fp_args come first in
 * pattern_regs and zero_vregs), then 8-byte stack slots from the first one's address */
static void place_args(Emu *e, const Type *types, uint32_t n, const uint64_t *args, uint64_t slot,
                       EntryRegs *r)
{
    const EmuIsa *d = e->isa;
    uint32_t ni = 0, nf = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = arg_bits(e, types[i], args[i], i);
        if (ty_is_float(types[i]) && nf < d->nfp_args) {
            r->vec[nf][0] = v;
            if (!e->junk_args)
                r->vec[nf][1] = 0;
            nf++;
        } else if (!ty_is_float(types[i]) && ni < d->nint_args) {
            r->gp[ni++] = v;
        } else {
            put_stack64(e, slot, v);
            slot += 8;
        }
    }
}

static uc_err write_regs(Emu *e, EntryRegs *r)
{
    void *gp[MAX_GP_WRITES], *vec[EMU_MAX_ZERO_REGS];
    for (unsigned i = 0; i < r->ngp; i++)
        gp[i] = &r->gp[i];
    for (unsigned i = 0; i < e->isa->nzero_vregs; i++)
        vec[i] = r->vec[i];
    uc_err err = uc_reg_write_batch(e->uc, r->gp_ids, gp, (int)r->ngp);
    if (err == UC_ERR_OK)
        err = uc_reg_write_batch(e->uc, (int *)e->isa->zero_vregs, vec, (int)e->isa->nzero_vregs);
    return err;
}

/* registers and stack for the call; the return address is the sentinel */
static uc_err set_args(Emu *e, const Type *types, uint32_t n, const uint64_t *args)
{
    const EmuIsa *d = e->isa;
    uint32_t nstack = count_stack_args(d, types, n);
    uint64_t top = EMU_STACK_ADDR + EMU_STACK_SIZE - STACK_CUSHION;
    uint64_t call_sp = (top - 8ull * nstack) & ~15ull;
    uint64_t sp = call_sp - d->stack_arg_offset;
    e->run.return_sp = call_sp;
    e->run.args_end = call_sp + 8ull * nstack;
    EntryRegs r;
    pattern_regs(e, &r);
    place_args(e, types, n, args, call_sp, &r);
    if (d->reg_lr >= 0) {
        r.gp_ids[r.ngp] = d->reg_lr;
        r.gp[r.ngp++] = EMU_SENTINEL_ADDR;
    } else {
        put_stack64(e, sp, EMU_SENTINEL_ADDR);
    }
    r.gp_ids[r.ngp] = d->reg_sp;
    r.gp[r.ngp++] = sp;
    return write_regs(e, &r);
}

static void set_invalid(Outcome *out, const char *fmt, ...)
{
    va_list ap;
    out->kind = OUT_INVALID;
    va_start(ap, fmt);
    vsnprintf(out->reason, sizeof out->reason, fmt, ap);
    va_end(ap);
}

static bool call_check(Emu *e, uint32_t func, const Type *types, uint32_t n, const uint64_t *args,
                       Type ret, Outcome *out)
{
    if (n && (!types || !args)) {
        set_invalid(out, "%s: %u arguments without their types or values", e->isa->name, n);
        return false;
    }
    if (!e->loaded) {
        set_invalid(out, "%s: no code loaded", e->isa->name);
        return false;
    }
    if (func >= e->nfuncs) {
        set_invalid(out, "%s: no function %u in the blob (%u functions)", e->isa->name, func, e->nfuncs);
        return false;
    }
    if (n > MAX_PARAMS) {
        set_invalid(out, "%s: too many arguments (%u)", e->isa->name, n);
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        if (types[i] < TY_I1 || types[i] > TY_F64) {
            set_invalid(out, "%s: parameter %u has no value type", e->isa->name, i);
            return false;
        }
    if (ret >= TY_COUNT) {
        set_invalid(out, "%s: bad return type", e->isa->name);
        return false;
    }
    return true;
}

static uint64_t read_result(Emu *e, Type ret)
{
    if (ret == TY_NONE)
        return 0;
    uint64_t v = ty_is_float(ret) ? read_vreg_low(e, e->isa->reg_ret_fp) : read_reg64(e, e->isa->reg_ret_int);
    return v & ty_mask(ret);
}

/* the name of callee-saved register i of the ISA (callee_saved_names) */
static void callee_saved_name(const EmuIsa *d, unsigned i, char *buf, size_t n)
{
    const char *name = d->callee_saved_names;
    for (unsigned k = 0; k < i; k++)
        name += strcspn(name, " ") + 1;
    snprintf(buf, n, "%.*s", (int)strcspn(name, " "), name);
}

/* a callee-saved register that does not hold its pattern, with the reason */
static bool registers_broken(Emu *e, Outcome *out)
{
    const EmuIsa *d = e->isa;
    int ids[EMU_MAX_ZERO_REGS + 1];
    uint64_t vals[EMU_MAX_ZERO_REGS + 1][2];
    void *ptrs[EMU_MAX_ZERO_REGS + 1];
    unsigned n = d->ncallee_saved;
    memcpy(ids, d->callee_saved, n * sizeof ids[0]);
    ids[n] = d->reg_sp;
    for (unsigned i = 0; i <= n; i++)
        ptrs[i] = vals[i];
    uc_reg_read_batch(e->uc, ids, ptrs, (int)n + 1);
    if (vals[n][0] != e->run.return_sp) {
        snprintf(out->reason, sizeof out->reason, "abi-sp: returned with the stack pointer off by %lld bytes",
                 (long long)(vals[n][0] - e->run.return_sp));
        return true;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t want = harness_word(&e->harness, (uint64_t)ids[i]);
        if (vals[i][0] == want)
            continue;
        char name[8];
        callee_saved_name(d, i, name, sizeof name);
        snprintf(out->reason, sizeof out->reason,
                 "abi-clobber-%s: returned with callee-saved %s changed (0x%llx, was 0x%llx)", name, name,
                 (unsigned long long)vals[i][0], (unsigned long long)want);
        return true;
    }
    return false;
}

/* the caller's stack (above the stack arguments, and x86's return address) not as
 * the call left it, with the reason */
static bool stack_broken(Emu *e, Outcome *out)
{
    uint64_t top = EMU_STACK_ADDR + EMU_STACK_SIZE, where, found, want;
    uint64_t entry_sp = e->run.return_sp - e->isa->stack_arg_offset;
    if (entry_sp < e->run.return_sp && get_stack64(e, entry_sp) != EMU_SENTINEL_ADDR) {
        where = entry_sp, found = get_stack64(e, entry_sp), want = EMU_SENTINEL_ADDR;
    } else if (!harness_stack_changed(&e->harness, e->stack + (e->run.args_end - EMU_STACK_ADDR), e->run.args_end,
                                      (size_t)(top - e->run.args_end), &where, &found, &want)) {
        return false;
    }
    snprintf(out->reason, sizeof out->reason,
             "stack-write: the caller's stack at entry sp+%llu changed (0x%llx, was 0x%llx)",
             (unsigned long long)(where - entry_sp), (unsigned long long)found, (unsigned long long)want);
    return true;
}

/* the callee returned without restoring the stack pointer or a callee-saved register,
 * or wrote the caller's stack: out->reason starts with the violation's label */
static bool abi_broken(Emu *e, Outcome *out)
{
    return registers_broken(e, out) || stack_broken(e, out);
}

static bool is_mem_error(uc_err err)
{
    switch (err) {
    case UC_ERR_READ_UNMAPPED: case UC_ERR_WRITE_UNMAPPED: case UC_ERR_FETCH_UNMAPPED:
    case UC_ERR_READ_PROT: case UC_ERR_WRITE_PROT: case UC_ERR_FETCH_PROT:
    case UC_ERR_READ_UNALIGNED: case UC_ERR_WRITE_UNALIGNED: case UC_ERR_FETCH_UNALIGNED:
    case UC_ERR_MAP:
        return true;
    default:
        return false;
    }
}

/* an error uc_emu_start reported that no hook explained */
static void classify_error(Emu *e, uc_err err, uint64_t pc)
{
    RunState *r = &e->run;
    if (err == UC_ERR_INSN_INVALID) {
        record_trap(e, pc, "invalid instruction", -1);
        return;
    }
    r->stop = STOP_TRAP;
    r->trap = is_mem_error(err) ? TRAP_FAULT : TRAP_ILLEGAL;
    snprintf(r->reason, sizeof r->reason, "%s (pc 0x%llx)", uc_strerror(err), (unsigned long long)pc);
}

/* no hook stopped the run: a return, the Unicorn timer, or a stop nothing explains
 * (x86 hlt) */
/* a return with the threw flag set (CodeBlob.threw_flag): the outcome `throw`; true
 * if so (a flag naming no type is a trap) */
static bool returned_throw(Emu *e, Outcome *out)
{
    uint64_t flag = e->threw_flag ? read_reg64(e, e->isa->reg_threw) : 0;
    if (!flag)
        return false;
    if (flag - 1 < TY_I1 || flag - 1 > TY_F64) {
        out->kind = OUT_TRAP;
        out->trap = TRAP_ILLEGAL;
        snprintf(out->reason, sizeof out->reason, "returned a threw flag of %llu, no type", (unsigned long long)flag);
        return true;
    }
    out->kind = OUT_THROW;
    out->type = (uint8_t)(flag - 1);
    out->bits = read_reg64(e, e->isa->reg_ret_int) & ty_mask((Type)(flag - 1));
    return true;
}

static void finish_unstopped(Emu *e, uint64_t pc, Type ret, Outcome *out)
{
    size_t timed_out = 0;
    if (pc == EMU_SENTINEL_ADDR && !(e->abi_check && abi_broken(e, out))) {
        if (returned_throw(e, out))
            return;
        out->kind = OUT_RETURN;
        out->type = (uint8_t)ret;
        out->bits = read_result(e, ret);
    } else if (pc == EMU_SENTINEL_ADDR) {
        out->kind = OUT_TRAP; /* abi_broken gave the reason */
        out->trap = TRAP_ABI;
    } else if (uc_query(e->uc, UC_QUERY_TIMEOUT, &timed_out) == UC_ERR_OK && timed_out) {
        out->kind = OUT_TIMEOUT;
        wall_reason(e, out->reason, sizeof out->reason);
    } else {
        out->kind = OUT_TRAP;
        out->trap = TRAP_ILLEGAL;
        snprintf(out->reason, sizeof out->reason, "execution stopped at 0x%llx", (unsigned long long)pc);
    }
}

static void finish(Emu *e, uc_err err, uint64_t pc, Type ret, Outcome *out)
{
    RunState *r = &e->run;
    if (r->stop == STOP_NONE && err != UC_ERR_OK)
        classify_error(e, err, pc);
    if (r->fault_what)
        fault_reason(e, pc);
    switch (r->stop) {
    case STOP_NONE:
        finish_unstopped(e, pc, ret, out);
        return;
    case STOP_THROW:
        out->kind = OUT_THROW;
        out->type = r->throw_type;
        out->bits = r->throw_bits;
        return;
    case STOP_TRAP:
        out->kind = OUT_TRAP;
        out->trap = r->trap;
        break;
    case STOP_BUDGET:
    case STOP_STACK:
    case STOP_WALL:
        out->kind = OUT_TIMEOUT;
        break;
    }
    memcpy(out->reason, r->reason, sizeof out->reason);
}

typedef struct {
    uint32_t func;
    const Type *types;
    uint32_t nparams;
    const uint64_t *args;
    uint64_t budget;
} Call;

/* memory, registers and arguments as every run starts; false (out invalid) if the
 * engine refuses them */
static bool setup_run(Emu *e, const Call *c, Outcome *out)
{
    heap_fill_pattern(e->heap);
    memset(&e->run, 0, sizeof e->run);
    harness_begin(&e->harness, harness_seed(c->func, c->types, c->nparams, c->args));
    e->run.budget = c->budget ? c->budget : EMU_DEFAULT_BLOCKS;
    e->run.deadline_ns = e->wall_us ? now_ns() + e->wall_us * 1000ull : 0;
    stack_reset(e);
    uc_err err = reset_cpu(e);
    if (err == UC_ERR_OK)
        err = set_args(e, c->types, c->nparams, c->args);
    if (err != UC_ERR_OK)
        set_invalid(out, "%s: setting up the call: %s", e->isa->name, uc_strerror(err));
    return err == UC_ERR_OK;
}

static uc_err go(Emu *e, const Call *c)
{
    uint64_t timer = e->unicorn_timer ? e->wall_us : 0;
    e->run.resume_pc = 0;
    uc_err err = uc_emu_start(e->uc, EMU_CODE_ADDR + e->entry[c->func], EMU_SENTINEL_ADDR, timer, 0);
    while (e->run.resume_pc && e->run.stop == STOP_NONE) {
        uint64_t at = e->run.resume_pc;
        e->run.resume_pc = 0;
        err = uc_emu_start(e->uc, at, EMU_SENTINEL_ADDR, timer, 0);
    }
    return err;
}

static void on_step(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc, (void)size;
    ((Emu *)user)->run.last_pc = addr;
}

/* After a data fault Unicorn 2.0.1 leaves the PC at the start of the translated
 * block (or of a chain of them).  Faults are rare, so the call runs again with an
 * instruction hook that names the faulting instruction; the first run's state
 * stays.  Falls back to block_pc if the rerun does not fault the same way. */
static uint64_t locate_fault(Emu *e, const Call *c, uint64_t block_pc)
{
    static const Outcome blank;
    Outcome scratch = blank;
    RunState first = e->run;
    uint64_t pc = block_pc;
    uc_hook h;
    if (!e->code_size || uc_hook_add(e->uc, &h, UC_HOOK_CODE, (void *)on_step, e, EMU_CODE_ADDR,
                                     EMU_CODE_ADDR + e->code_size - 1) != UC_ERR_OK)
        return pc;
    /* cached blocks were translated without the hook; afterwards, drop the hooked ones */
    uc_ctl_remove_cache(e->uc, EMU_CODE_ADDR, EMU_CODE_ADDR + e->code_size);
    if (setup_run(e, c, &scratch)) {
        go(e, c);
        if (e->run.fault_what == first.fault_what && e->run.fault_addr == first.fault_addr && e->run.last_pc)
            pc = e->run.last_pc;
    }
    uc_hook_del(e->uc, h);
    uc_ctl_remove_cache(e->uc, EMU_CODE_ADDR, EMU_CODE_ADDR + e->code_size);
    e->run = first;
    return pc;
}

static void run_call(Emu *e, uint32_t func, const Type *types, uint32_t nparams, const uint64_t *args,
                     Type ret, uint64_t block_budget, Outcome *out)
{
    Call c = {func, types, nparams, args, block_budget};
    out->kind = OUT_INVALID;
    out->trap = TRAP_NONE;
    out->type = TY_NONE;
    out->bits = 0;
    out->steps = 0;
    out->reason[0] = 0;
    heap_fill_pattern(out->heap);
    if (!call_check(e, func, types, nparams, args, ret, out) || !setup_run(e, &c, out))
        return;
    uc_err err = go(e, &c);
    uint64_t pc = read_pc(e);
    memcpy(out->heap, e->heap, HEAP_SIZE);
    out->steps = e->run.blocks;
    if (e->run.fault_what)
        pc = locate_fault(e, &c, pc);
    finish(e, err, pc, ret, out);
}

/* the child the run happened in died: Unicorn 2.0.1 aborts translating a few
 * invalid x86 encodings that real hardware rejects with #UD */
static void died(Outcome *out, int status)
{
    out->kind = OUT_TRAP;
    out->trap = TRAP_ILLEGAL;
    out->type = TY_NONE;
    out->bits = 0;
    out->steps = 0;
    if (WIFSIGNALED(status))
        snprintf(out->reason, sizeof out->reason,
                 "the emulator died (signal %d) on this code: an encoding Unicorn cannot translate",
                 WTERMSIG(status));
    else
        snprintf(out->reason, sizeof out->reason, "the emulator exited (status %d) on this code",
                 WEXITSTATUS(status));
    heap_fill_pattern(out->heap); /* unknown: as before the run */
}

/* the run in a forked child that writes its Outcome to shared memory: a crash of
 * the engine becomes an outcome and the engine in this process stays as it was */
/* wait for the child; past the deadline (0: none) kill it.  0: it exited with
 * status; 1: it had to be killed; -1: it cannot be waited for (reaped elsewhere) */
static int wait_child(pid_t pid, uint64_t deadline_ns, int *status)
{
    long pause_ns = 20000;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
        if (deadline_ns && now_ns() > deadline_ns) {
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            return 1;
        }
        struct timespec ts = {0, pause_ns};
        nanosleep(&ts, NULL);
        if (pause_ns < 10000000)
            pause_ns *= 2;
    }
}

/* the run in a forked child that writes its Outcome to shared memory: a crash of
 * the engine becomes an outcome and the engine in this process stays as it was */
static bool run_isolated(Emu *e, uint32_t func, const Type *types, uint32_t nparams,
                         const uint64_t *args, Type ret, uint64_t block_budget, Outcome *out)
{
    e->shared->kind = 0xFF; /* not written by the child yet */
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 2); /* Unicorn's dying words are not ours to print */
        run_call(e, func, types, nparams, args, ret, block_budget, e->shared);
        _exit(0);
    }
    /* the child has its own wall-clock limit; this one is for a child stuck outside it */
    uint64_t deadline = e->wall_us ? now_ns() + 2 * e->wall_us * 1000ull + 1000000000ull : 0;
    int status = 0;
    int how = wait_child(pid, deadline, &status);
    if (how == 1) {
        died(out, status);
        out->kind = OUT_TIMEOUT;
        snprintf(out->reason, sizeof out->reason, "the isolated run did not finish; killed");
    } else if ((how == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
               (how < 0 && e->shared->kind != 0xFF)) {
        memcpy(out, e->shared, sizeof *out);
    } else {
        died(out, status);
    }
    return true;
}

bool emu_set_isolation(Emu *e, bool on)
{
    if (on && !e->shared) {
        void *p = mmap(NULL, sizeof(Outcome), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        e->shared = p;
    }
    e->isolate = on;
    return true;
}

void emu_call(Emu *e, uint32_t func, const Type *types, uint32_t nparams, const uint64_t *args,
              Type ret, uint64_t block_budget, Outcome *out)
{
    if (e->isolate && e->loaded && run_isolated(e, func, types, nparams, args, ret, block_budget, out))
        return;
    run_call(e, func, types, nparams, args, ret, block_budget, out);
}

void emu_call_func(Emu *e, const Func *f, const uint64_t *args, uint64_t block_budget, Outcome *out)
{
    emu_call(e, f->index, f->params, f->nparams, args, f->ret, block_budget, out);
}
