/* lir.h — circ's low-level IR (modelled on B3's Air): Tmps (virtual registers of
 * the GP and FP banks, and physical registers), Args (tmp, immediates, addresses,
 * stack slots, call-argument slots, condition codes, symbols, specials),
 * instructions with an opcode and args, blocks with successor lists, and a Code per
 * function, all arena-allocated.
 *
 * Opcodes and the roles/banks/widths of their arguments are target-independent
 * (opcodes.def); which argument kinds each overload accepts is said by the
 * target's forms table (Target).  lir_is_valid_form() asks the target;
 * lir_for_each_arg() needs no target.  Register allocation reads instructions only
 * through lir_for_each_arg()/lir_for_each_tmp() and never looks at opcodes. */
#ifndef CIRC_LIR_H
#define CIRC_LIR_H

#include "compiler/blob.h"
#include "compiler/ir/ir.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- roles, banks, widths ----------------------------------------------------- */
typedef enum {
    ROLE_USE,            /* early warm use */
    ROLE_COLD_USE,       /* early cold use */
    ROLE_LATE_USE,       /* late warm use */
    ROLE_LATE_COLD_USE,  /* late cold use */
    ROLE_DEF,            /* late def */
    ROLE_ZDEF,           /* late def, zero-extending above the width */
    ROLE_USE_DEF,        /* early use and late def */
    ROLE_USE_ZDEF,       /* early use and late zero-extending def */
    ROLE_EARLY_DEF,      /* early def */
    ROLE_SCRATCH,        /* early def and late use: a register no other arg gets */
    ROLE_USE_ADDR,       /* early use of an address's components, no memory access */
    ROLE_COUNT
} Role;

#define ROLE_SET(r) (1u << (r))
/* the roles of each class, as sets of ROLE_SET bits */
enum {
    ROLES_EARLY_USE = ROLE_SET(ROLE_USE) | ROLE_SET(ROLE_COLD_USE) | ROLE_SET(ROLE_USE_DEF) |
                      ROLE_SET(ROLE_USE_ZDEF) | ROLE_SET(ROLE_USE_ADDR),
    ROLES_LATE_USE = ROLE_SET(ROLE_LATE_USE) | ROLE_SET(ROLE_LATE_COLD_USE) | ROLE_SET(ROLE_SCRATCH),
    ROLES_EARLY_DEF = ROLE_SET(ROLE_EARLY_DEF) | ROLE_SET(ROLE_SCRATCH),
    ROLES_LATE_DEF = ROLE_SET(ROLE_DEF) | ROLE_SET(ROLE_ZDEF) | ROLE_SET(ROLE_USE_DEF) | ROLE_SET(ROLE_USE_ZDEF),
    ROLES_COLD = ROLE_SET(ROLE_COLD_USE) | ROLE_SET(ROLE_LATE_COLD_USE),
    ROLES_ZDEF = ROLE_SET(ROLE_ZDEF) | ROLE_SET(ROLE_USE_ZDEF),
};
static inline bool role_in(Role r, unsigned set) { return (unsigned)r < ROLE_COUNT && (ROLE_SET(r) & set); }
/* reads the argument (any timing) */
static inline bool role_is_use(Role r) { return role_in(r, ROLES_EARLY_USE | ROLES_LATE_USE); }
/* writes the argument */
static inline bool role_is_def(Role r) { return role_in(r, ROLES_EARLY_DEF | ROLES_LATE_DEF); }
static inline bool role_is_early_use(Role r) { return role_in(r, ROLES_EARLY_USE); }
static inline bool role_is_late_use(Role r) { return role_in(r, ROLES_LATE_USE); }
static inline bool role_is_early_def(Role r) { return role_in(r, ROLES_EARLY_DEF); }
static inline bool role_is_late_def(Role r) { return role_in(r, ROLES_LATE_DEF); }
static inline bool role_is_cold(Role r) { return role_in(r, ROLES_COLD); }
static inline bool role_is_zdef(Role r) { return role_in(r, ROLES_ZDEF); }
const char *role_name(Role r);   /* "Use", "UseZDef", ... */

typedef enum { BANK_GP, BANK_FP, BANK_COUNT } Bank;
const char *bank_name(Bank b);   /* "GP", "FP" */

typedef uint8_t Width;           /* 8, 16, 32 or 64 */

/* ---- tmps ---------------------------------------------------------------------- */
/* A Tmp is 0 (none), a physical register of a bank, or a virtual register of a bank.
 * Bit 31 is the bank; the low bits are 1 + register number for registers
 * (register numbers are the target's, < LIR_MAX_REGS), or LIR_MAX_REGS + 1 + index
 * for virtual registers. */
typedef uint32_t Tmp;
enum { LIR_MAX_REGS = 64 };
#define TMP_NONE 0u
#define TMP_FP_BIT 0x80000000u

static inline Tmp tmp_reg(Bank b, unsigned reg) { return (b == BANK_FP ? TMP_FP_BIT : 0) | (reg + 1); }
static inline Tmp tmp_gp(unsigned reg) { return tmp_reg(BANK_GP, reg); }
static inline Tmp tmp_fp(unsigned reg) { return tmp_reg(BANK_FP, reg); }
static inline Tmp tmp_virtual(Bank b, uint32_t index)
{
    return (b == BANK_FP ? TMP_FP_BIT : 0) | (index + LIR_MAX_REGS + 1);
}
static inline Bank tmp_bank(Tmp t) { return (t & TMP_FP_BIT) ? BANK_FP : BANK_GP; }
static inline uint32_t tmp_low(Tmp t) { return t & ~TMP_FP_BIT; }
static inline bool tmp_is_reg(Tmp t) { return tmp_low(t) >= 1 && tmp_low(t) <= LIR_MAX_REGS; }
static inline bool tmp_is_virtual(Tmp t) { return tmp_low(t) > LIR_MAX_REGS; }
static inline unsigned tmp_reg_number(Tmp t) { return tmp_low(t) - 1; }         /* if tmp_is_reg */
static inline uint32_t tmp_virtual_index(Tmp t) { return tmp_low(t) - LIR_MAX_REGS - 1; }

/* ---- condition codes (the names are the IR's ICMP/FCMP names) ------------------- */
#define LIR_RELCONDS(X) X(eq) X(ne) X(ugt) X(uge) X(ult) X(ule) X(sgt) X(sge) X(slt) X(sle)
#define LIR_RESCONDS(X) X(zero) X(nonzero) X(signed) X(notsigned) X(overflow) X(notoverflow)
#define LIR_DOUBLECONDS(X) X(oeq) X(one) X(ogt) X(oge) X(olt) X(ole) X(ueq) X(une) \
                           X(ugt) X(uge) X(ult) X(ule) X(ord) X(uno)
typedef enum {
#define X(n) REL_##n,
    LIR_RELCONDS(X)
#undef X
    REL_COUNT
} RelCond;   /* integer comparison of left with right */
typedef enum {
#define X(n) RES_##n,
    LIR_RESCONDS(X)
#undef X
    RES_COUNT
} ResCond;   /* on the result of an operation (left AND right for Test) */
typedef enum {
#define X(n) DBL_##n,
    LIR_DOUBLECONDS(X)
#undef X
    DBL_COUNT
} DoubleCond; /* float comparison of left with right; u* are true when unordered */

RelCond relcond_invert(RelCond c);       /* the condition that holds iff c does not */
RelCond relcond_commute(RelCond c);      /* the condition with the operands swapped */
ResCond rescond_invert(ResCond c);
DoubleCond doublecond_invert(DoubleCond c);
DoubleCond doublecond_commute(DoubleCond c);

/* ---- args ---------------------------------------------------------------------- */
typedef enum {
    ARG_NONE,
    ARG_TMP,        /* base: the tmp */
    ARG_IMM,        /* value: a small immediate (the target says how small) */
    ARG_BIGIMM,     /* value: any 64-bit immediate */
    ARG_ADDR,       /* value(base) */
    ARG_INDEX,      /* value(base, index, scale) */
    ARG_STACK,      /* value(slot): an abstract stack slot of the Code */
    ARG_CALLARG,    /* value(outgoing argument area) */
    ARG_RELCOND,    /* cond: RelCond */
    ARG_RESCOND,    /* cond: ResCond */
    ARG_DOUBLECOND, /* cond: DoubleCond */
    ARG_SYMBOL,     /* the address of a function of the module or of a runtime helper
                       (sym_kind: RelocTarget, slot: index, value: addend) */
    ARG_SPECIAL,    /* special: meta-data of the instruction (CallInfo for Call) */
    ARG_KIND_COUNT
} ArgKind;

typedef struct Arg {
    uint8_t kind;     /* ArgKind */
    uint8_t scale;    /* ARG_INDEX: 1, 2, 4 or 8 */
    uint8_t cond;     /* ARG_*COND */
    uint8_t sym_kind; /* ARG_SYMBOL: RelocTarget */
    union {
        Tmp base;      /* ARG_TMP, ARG_ADDR, ARG_INDEX */
        uint32_t slot; /* ARG_STACK: slot index; ARG_SYMBOL: function or Helper index */
    };
    union {
        int64_t value; /* immediates; the offset of ARG_ADDR, ARG_STACK and ARG_CALLARG;
                          the symbol's addend (an ARG_INDEX's offset: arg_offset) */
        void *special; /* ARG_SPECIAL */
        struct {
            Tmp index;    /* ARG_INDEX */
            int32_t disp; /* ARG_INDEX: the offset */
        };
    };
} Arg; /* the fields a kind does not name share their room with others */
_Static_assert(sizeof(Arg) == 16, "an Arg is 16 bytes");

/* the offset of a memory argument (ARG_ADDR, ARG_INDEX, ARG_STACK, ARG_CALLARG) */
static inline int64_t arg_offset(const Arg *a) { return a->kind == ARG_INDEX ? a->disp : a->value; }

Arg arg_none(void);
Arg arg_tmp(Tmp t);
Arg arg_imm(int64_t v);
Arg arg_bigimm(int64_t v);
Arg arg_addr(Tmp base, int64_t offset);
Arg arg_index(Tmp base, Tmp index, unsigned scale, int32_t offset);
Arg arg_stack(uint32_t slot, int64_t offset);
Arg arg_callarg(int64_t offset);
Arg arg_relcond(RelCond c);
Arg arg_rescond(ResCond c);
Arg arg_doublecond(DoubleCond c);
Arg arg_symbol(RelocTarget kind, uint32_t index, int64_t addend);
Arg arg_special(void *special);
bool arg_is_memory(const Arg *a);   /* Addr, Index, Stack, CallArg */
const char *arg_kind_name(ArgKind k); /* "Tmp", "Imm", ... as in the forms tables */

/* ---- opcodes and their overloads ------------------------------------------------ */
typedef enum {
#define LOP(name, ...) LIR_##name,
#define LOV(name, ...)
#include "opcodes.def"
#undef LOP
#undef LOV
    LIR_OP_COUNT
} LirOp;

enum {
    LF_TERM = 1 << 0,   /* ends its block */
    LF_BRANCH = 1 << 1, /* two successors: taken, not taken */
    LF_CALL = 1 << 2,   /* a call: see CallInfo */
    LF_TRAP = 1 << 3,   /* may trap: recorded in the trap table */
    LF_EFFECT = 1 << 4, /* has an effect beyond its defs: never removed */
    LF_MOVE = 1 << 5,   /* copies argument 0 to argument 1 (coalescable when both are tmps) */
    LF_JUMP = 1 << 6,   /* ends its block with one successor */
};

enum { LIR_MAX_ARGS = 5 };

typedef struct {
    uint8_t role;   /* Role */
    uint8_t bank;   /* Bank */
    uint8_t width;  /* 8, 16, 32, 64 */
} ArgSig;

typedef struct {
    uint16_t op;    /* LirOp */
    uint8_t nargs;
    uint8_t flags;  /* LF_* */
    ArgSig args[LIR_MAX_ARGS];
} LirOverload;

const char *lir_op_name(LirOp op);
int lir_op_parse(const char *s, size_t n);   /* -1 if unknown */
unsigned lir_op_flags(LirOp op);             /* of its first overload */
/* the overload of op taking nargs arguments, NULL if op has none */
const LirOverload *lir_overload(LirOp op, unsigned nargs);
const LirOverload *lir_overloads(unsigned *count);  /* the whole table */

/* ---- instructions, blocks, code ------------------------------------------------- */
/* meta-data of a Call: the registers it reads and writes beyond its target, and the
 * registers it clobbers (bit n = register n of the bank) */
typedef struct CallInfo {
    Arg *uses;          /* ARG_TMP physical registers holding arguments */
    uint32_t nuses;
    Arg *defs;          /* ARG_TMP physical registers holding results */
    uint32_t ndefs;
    Width *use_widths, *def_widths; /* per use/def; NULL means 64 */
    uint64_t clobbers[BANK_COUNT];
} CallInfo;

typedef struct Inst {
    uint16_t op;        /* LirOp */
    uint8_t nargs;
    uint8_t trap;       /* TrapKind if this instruction traps (Ud2, divisions), else 0 */
    GateId origin;      /* the gate it implements, NO_GATE if none */
    CallInfo *call;     /* Call only */
    Arg args[LIR_MAX_ARGS];
} Inst;
_Static_assert(sizeof(Inst) == 96, "an Inst is 96 bytes");

typedef struct LirBlock {
    uint32_t index;     /* position in Code.blocks: the layout order */
    Inst *insts;
    uint32_t ninsts, capinsts;
    uint32_t *succs;    /* block indices; branches: taken, then not taken */
    uint32_t nsuccs, capsuccs;
    uint32_t *preds;    /* filled by lir_compute_preds */
    uint32_t npreds;
    double frequency;
} LirBlock;

typedef struct StackSlot {
    uint32_t size, align;
    int32_t offset;     /* from the frame base, once assigned */
    bool assigned;
    bool locked;        /* ALLOCA memory: never shared with spills */
} StackSlot;

typedef struct Target Target;

/* the frame laid out by the stack allocator (compiler/lir/regalloc.h says how the
 * target's prologue and epilogue use it) */
typedef struct LirFrame {
    bool assigned;                  /* set by the stack allocator */
    uint32_t size;                  /* bytes below the frame base, a multiple of 16 */
    uint32_t callarg_size;          /* the outgoing argument area at the stack pointer */
    uint64_t saved[BANK_COUNT];     /* callee-saved registers the prologue must save */
    int32_t save_offset[BANK_COUNT][LIR_MAX_REGS]; /* where each of them is saved */
} LirFrame;

typedef struct Code {
    Arena *arena;
    const Target *target;
    const char *name;       /* the function's name, for dumps */
    uint32_t func_index;    /* the function's index in its module */
    LirBlock **blocks;
    uint32_t nblocks, capblocks;
    uint32_t ntmps[BANK_COUNT];   /* virtual tmps per bank */
    StackSlot *slots;
    uint32_t nslots, capslots;
    Tmp frame_base;          /* register that Stack args are relative to */
    Tmp stack_pointer;       /* register that CallArg args are relative to */
    LirFrame frame;          /* filled by the stack allocator */
    const Target *indexed;   /* the target form_spans index (lir_code_new) */
    struct FormSpan *form_spans; /* [op]: its rows in indexed's forms, found on the
                                    first lookup of op (lir_code_find_form) */
    struct MachCov *cov;     /* machine-level coverage counted by selection and
                                encoding (compiler/lir/mcov.h); NULL: none */
    uint32_t branch_reach;   /* a conditional branch to a block more than this many
                                bytes away takes its long form (0: as far as the
                                ISA's branch reaches): tests the long forms */
} Code;

/* a Code using arena (owned by the caller) */
Code *lir_code_new(Arena *arena, const Target *target, const char *name, uint32_t func_index);
LirBlock *lir_add_block(Code *c, double frequency);
void lir_add_succ(Code *c, LirBlock *b, uint32_t succ);
Tmp lir_new_tmp(Code *c, Bank bank);
uint32_t lir_add_slot(Code *c, uint32_t size, uint32_t align, bool locked);
/* append an instruction; returns it (valid until the block's next append/insert) */
Inst *lir_append(Code *c, LirBlock *b, LirOp op, unsigned nargs, const Arg *args);
Inst *lir_insert(Code *c, LirBlock *b, uint32_t at, const Inst *inst);
Inst lir_inst(LirOp op, unsigned nargs, const Arg *args); /* origin NO_GATE */
/* b's instruction array cut to its ninsts (a large one gives the rest back; the
 * array may move) */
void lir_fit_block(Code *c, LirBlock *b);
void lir_compute_preds(Code *c);

/* ---- argument iteration --------------------------------------------------------- */
typedef void (*LirArgFn)(void *ctx, Arg *arg, Role role, Bank bank, Width width);
typedef void (*LirTmpFn)(void *ctx, Tmp *tmp, Role role, Bank bank, Width width);
/* every argument with the role, bank and width its overload ascribes, then (Call)
 * the CallInfo's uses and defs; false (and no callback) if the overload does not exist */
bool lir_for_each_arg(Inst *inst, LirArgFn fn, void *ctx);
/* the tmps of one argument: its own (with the argument's role), or an address's
 * base and index (read, 64-bit) */
static inline void lir_arg_tmps(Arg *a, Role role, Bank bank, Width width, LirTmpFn fn, void *ctx)
{
    bool address = a->kind == ARG_ADDR || a->kind == ARG_INDEX;
    if ((a->kind == ARG_TMP || address) && a->base != TMP_NONE)
        fn(ctx, &a->base, address ? ROLE_USE : role, address ? BANK_GP : bank, address ? 64 : width);
    if (a->kind == ARG_INDEX && a->index != TMP_NONE)
        fn(ctx, &a->index, ROLE_USE, BANK_GP, 64);
}

/* the tmps of a Call's CallInfo: its uses, then its defs */
void lir_for_each_call_tmp(Inst *inst, LirTmpFn fn, void *ctx);

/* every tmp: Tmp args as lir_for_each_arg gives them, base/index of addresses as
 * Use (GP, 64).  Inline: it is the allocators' inner loop, and a caller's own
 * callback then inlines into it. */
static inline bool lir_for_each_tmp(Inst *inst, LirTmpFn fn, void *ctx)
{
    const LirOverload *o = lir_overload((LirOp)inst->op, inst->nargs);
    if (!o)
        return false;
    for (unsigned i = 0; i < o->nargs; i++)
        lir_arg_tmps(&inst->args[i], (Role)o->args[i].role, (Bank)o->args[i].bank, o->args[i].width, fn, ctx);
    if (o->flags & LF_CALL)
        lir_for_each_call_tmp(inst, fn, ctx);
    return true;
}

/* ---- targets and their forms tables ---------------------------------------------- */
/* form argument kinds: a bitmask of FK_* (FK_TMP may be fixed to one register) */
enum {
    FK_TMP = 1 << ARG_TMP,
    FK_IMM = 1 << ARG_IMM,
    FK_BIGIMM = 1 << ARG_BIGIMM,
    FK_ADDR = 1 << ARG_ADDR,
    FK_INDEX = 1 << ARG_INDEX,
    FK_STACK = 1 << ARG_STACK,
    FK_CALLARG = 1 << ARG_CALLARG,
    FK_RELCOND = 1 << ARG_RELCOND,
    FK_RESCOND = 1 << ARG_RESCOND,
    FK_DOUBLECOND = 1 << ARG_DOUBLECOND,
    FK_SYMBOL = 1 << ARG_SYMBOL,
    FK_SPECIAL = 1 << ARG_SPECIAL,
    FK_MEM = FK_ADDR | FK_INDEX | FK_STACK | FK_CALLARG,
};

typedef struct {
    uint16_t kinds;   /* FK_* accepted */
    uint8_t fixed;    /* 0, or 1 + the register number a Tmp must be */
} FormArg;

typedef struct {
    uint16_t op;      /* LirOp */
    uint8_t nargs;
    uint8_t enc;      /* the target's encoder for this form */
    uint32_t param;   /* encoder parameter (opcode bytes, sub-opcode, ...) */
    uint8_t width;    /* operand width the encoder uses */
    FormArg args[LIR_MAX_ARGS];
    uint32_t needs;   /* CPU features the form needs (Target.features), 0: none */
} LirForm;

/* a gate's name for a listing's source mark, written to buf; NULL: show its number */
typedef const char *(*GateNameFn)(void *ctx, uint32_t func, uint32_t gate, char *buf, size_t n);

struct IselHooks;   /* compiler/lir/isel.h */
struct LirAsm;      /* compiler/lir/asm.h */
struct ObjFormat;   /* compiler/lir/objwrite.h */

/* an item of a target's machine-coverage table (compiler/lir/mcov.h) that no IR
 * reaches: its kind ("form", "cond", "path", "idiom"), an fnmatch(3) pattern over
 * the item's name as the table prints it, and why */
typedef struct CovUnreached {
    const char *kind, *pattern, *reason;
} CovUnreached;

/* One target: everything the compile driver, the tools and the checks need to know
 * about it.  compiler/target.h lists the targets of the build (the registry);
 * docs/porting.md says what a new one provides. */
struct Target {
    const char *name;        /* "x86-64", "arm64": what --target, --isa and stage names say */
    Isa isa;                 /* the blob's ISA, also the emulator binding: emu_new(isa)
                                runs the target's code (oracle/emu_<isa>.c) */
    /* ---- CPU level (docs/porting.md): each level of an ISA is its own Target,
     * alike but for these; a form whose needs are not all in features is not
     * one of the level's (lir_find_form).  levels[0] is the baseline (the
     * registry's entry); the emulator runs a level's code on the CPU model of
     * the same name (emu_new_cpu) ---- */
    const char *cpu;         /* "baseline", "v3" */
    uint32_t features;       /* the level's features (the target's own bits) */
    const Target *const *levels; /* every level of the ISA, baseline first */
    uint8_t nlevels;
    uint8_t level;           /* this one's index in levels */
    /* ---- forms and register file (compiler/<target>/target.c, forms.def) ---- */
    const LirForm *forms;    /* grouped by opcode, in opcode order */
    uint32_t nforms;
    uint8_t nregs[BANK_COUNT];
    const char *const *reg_names[BANK_COUNT]; /* 64-bit (GP) / full (FP) names */
    /* register allocation: registers the allocator may hand out and those a
     * function must preserve (bit n = register n), and the allocation order
     * (alloc_order[b][0..nalloc_order[b]), NULL = increasing numbers) */
    uint64_t allocatable[BANK_COUNT];
    uint64_t callee_saved[BANK_COUNT];
    const uint8_t *alloc_order[BANK_COUNT];
    uint8_t nalloc_order[BANK_COUNT];
    Tmp frame_base;          /* the register Stack args are relative to */
    Tmp stack_pointer;       /* the register CallArg args are relative to */
    /* the encoder paths the target's encoder counts (compiler/lir/mcov.h): their
     * names, cov_names[0..ncov) (its cov.def) */
    const char *const *cov_names;
    uint16_t ncov;
    /* the items of its coverage table no IR reaches, with the reason (its
     * unreached.def): unreached[0..nunreached) */
    const CovUnreached *unreached;
    uint16_t nunreached;
    /* values the kinds cannot say: immediate ranges, conditions, scales, symbols */
    bool (*arg_ok)(const LirForm *form, unsigned i, const Arg *arg);
    /* ---- instruction selection and calls (compiler/lir/isel*.c, abi.c): the
     * target's hooks and its calling-convention table (IselHooks.abi) ---- */
    const struct IselHooks *isel;
    /* ---- after allocation: prologue and epilogue (frame.c) ---- */
    bool (*finish_frame)(Code *code, char *err, size_t errlen);
    /* ---- machine code for a module's functions, all registers and slots assigned
     * (layout.c with encode.c); memory from arena, false with a message in err ---- */
    bool (*emit)(Arena *arena, Code *const *funcs, uint32_t nfuncs, CodeBlob *out,
                 char *err, size_t errlen);
    /* ---- one instruction's machine code (encode.c), appended to as: its registers
     * and slots assigned, block its block (branches and jumps name its successors);
     * false with a message in as->err and nothing appended ---- */
    bool (*encode_inst)(struct LirAsm *as, const Code *code, const LirBlock *block, const Inst *inst);
    /* ---- reading the target's code back (listing.c, the encoder fuzzer): the
     * Capstone architecture and mode (cs_arch, cs_mode values; Capstone's header is
     * for the target folders and the tests only), and the (bank, number) of a
     * register Capstone names at any width, false for one outside the register file ---- */
    struct {
        int cs_arch;
        int cs_mode;
        bool (*reg)(const char *name, Bank *bank, unsigned *num);
    } disasm;
    /* ---- a Capstone listing of a blob of this target (listing.c): function labels
     * (func_names may be NULL), offsets, bytes, instructions, trap sites,
     * relocations and source marks named through gate_name when given; false if
     * the blob is not this target's or cannot be decoded ---- */
    bool (*listing)(FILE *out, const CodeBlob *blob, const char *const *func_names,
                    GateNameFn gate_name, void *ctx);
    /* ---- ELF objects (obj.c): the machine and relocation types; NULL: none ---- */
    const struct ObjFormat *obj;
};

/* the forms of op on target (contiguous), *n set to their number */
const LirForm *lir_target_forms(const Target *t, LirOp op, uint32_t *n);
/* the form of target that accepts inst as it is, NULL if none */
const LirForm *lir_find_form(const Target *t, const Inst *inst);
/* the same for code's target, its rows of the op found once per code (form_spans) */
const LirForm *lir_code_find_form(const Code *code, const Inst *inst);
/* an op's rows in a target's forms: first - 1 .. first - 1 + n - 1; first 0: not
 * looked up yet */
typedef struct FormSpan {
    uint16_t first, n;
} FormSpan;
bool lir_is_valid_form(const Target *t, const Inst *inst);
/* would op with these args be valid (before making an Inst) */
bool lir_is_valid_args(const Target *t, LirOp op, unsigned nargs, const Arg *args);
/* registers of bank b the instruction destroys beyond its defs (a call's clobbers),
 * bit n = register n; they die at the instruction's late point */
uint64_t lir_inst_clobbers(const Inst *inst, Bank b);
/* an instruction whose only effect is writing the virtual tmps it defines (no
 * terminator, call, trap or effect flag; every def a virtual tmp): removable when
 * none of them is read */
bool lir_is_pure(const Inst *inst);
/* a register-to-register copy (LF_MOVE with two Tmp args of one bank) */
bool lir_is_move(const Inst *inst);
/* would inst stay valid with arg i (a Tmp) replaced by a stack slot (spilling)? */
bool lir_admits_stack(const Target *t, const Inst *inst, unsigned i);
bool lir_code_admits_stack(const Code *code, const Inst *inst, unsigned i); /* through the index */
/* does form accept arg i of inst (kind, bank, fixed register, the target's value rules) */
bool lir_form_accepts(const Target *t, const LirForm *f, const Inst *inst);

/* ---- verification ------------------------------------------------------------------ */
/* structural checks of a Code: every block ends with its only terminator, successor
 * counts match it (branch 2, jump 1, others 0) and are in range, every instruction has
 * an overload (and a form, with a target), tmps and slots exist.  Each problem is
 * printed to out (if not NULL) as "in @f: BB#b inst i: ..."; returns their number. */
int lir_verify(const Code *c, FILE *out);
/* lir_verify without the form check: for code whose encoding comes next (the
 * encoders look up every instruction's form and refuse one without) */
int lir_verify_shape(const Code *c, FILE *out);

/* ---- printing --------------------------------------------------------------------- */
void lir_print_arg(FILE *out, const Code *c, const Arg *a);
void lir_print_inst(FILE *out, const Code *c, const Inst *inst);
void lir_print(FILE *out, const Code *c);
/* "%rax", "%xmm3", "%tmp4", "%ftmp2" (a register without target: "%r3", "%f3") */
const char *lir_tmp_name(const Code *c, Tmp t, char *buf, size_t n);
const char *lir_cond_name(ArgKind kind, unsigned cond); /* NULL if out of range */
const char *lir_trap_name(unsigned kind);               /* TrapKind: "div0", ... */
const char *lir_helper_name(unsigned helper);           /* Helper: "fmod_f64", ... */

/* ---- parsing (lir_print's syntax, so dumps can be replayed) --------------------------- */
typedef struct { uint32_t line, col; } LirPos;

/* where the parts of one parsed code were written: its `code` line, each block's BB#
 * header, and each instruction as parsed (block b's instruction i is
 * inst_at[first_inst[b] + i]); instructions added later have no position */
typedef struct {
    LirPos code_at;
    LirPos *block_at;        /* per block */
    uint32_t *first_inst;    /* per block, into inst_at */
    LirPos *inst_at;
    uint32_t nblocks, ninsts, capblocks, capinsts;
} LirCodePos;

typedef struct {
    Code **codes;            /* in file order: codes[i]->func_index == i */
    LirCodePos *pos;         /* per code: source positions */
    uint32_t ncodes;
} LirModule;

/* lir_verify with each problem reported to d as FILE:LINE:COL: error: in @f: BB#b:
 * inst i: ..., at the position pos gives the block or instruction (the code's line
 * when it has none); returns the number of problems */
int lir_verify_located(const Code *c, const LirCodePos *pos, Diag *d);

/* parse every `code @name ; TARGET` section of src (a leading UTF-8 byte order mark
 * is skipped); TARGET is looked up by name among
 * targets.  Every instruction must have an overload, and a form when the code has a
 * target.  Errors go to d as FILE:LINE:COL: error: ...; false if there were any.
 * Everything is allocated in arena. */
bool lir_parse(Arena *arena, const char *src, size_t len, const Target *const *targets,
               unsigned ntargets, Diag *d, LirModule *out);

#endif
