/* asm.h — what every target's encoder appends to and how a module is laid out,
 * shared by the targets: the assembler buffer (code bytes, fixups of branches and
 * calls, relocations, trap sites, source marks, the first error), module layout
 * (functions 16-byte aligned with the target's filler, blocks in order, a function
 * laid out again while a branch needs its long form, calls resolved across the
 * module) and the CodeBlob made from the buffer.  A target supplies a LirLayout:
 * its filler, its encoder of one instruction and how a fixup is patched. */
#ifndef CIRC_LIR_ASM_H
#define CIRC_LIR_ASM_H

#include "compiler/lir/lir.h"

typedef enum {
    LIR_FIX_JUMP,   /* a branch to a block that always reaches */
    LIR_FIX_COND,   /* a branch to a block that may not reach: then the function is
                       laid out again with this branch in its long form */
    LIR_FIX_CALL,   /* a call of a function of the module */
} LirFixupKind;

typedef struct {
    uint32_t at;        /* offset of the field or word to patch */
    uint32_t target;    /* block index (branches) or function index (calls) */
    uint8_t kind;       /* LirFixupKind */
} LirFixup;

typedef struct LirAsm {
    uint8_t *code;
    uint32_t size, cap;
    LirFixup *fixups;
    uint32_t nfixups, capfixups;
    Reloc *relocs;
    uint32_t nrelocs, caprelocs;
    TrapSite *traps;
    uint32_t ntraps, captraps;
    SourceMark *marks;
    uint32_t nmarks, capmarks;
    /* the function being laid out: its first fixup, and per fixup since then
     * whether it needs its long form (long_branch[0..nlong)) */
    uint32_t func_fixups;
    uint8_t *long_branch;
    uint32_t nlong;
    uint32_t branch_reach;  /* the function's Code.branch_reach */
    struct MachCov *cov;/* the function's coverage counters (Code.cov), NULL: none */
    bool failed;        /* out of memory or an encoding error */
    char err[256];      /* the first error */
} LirAsm;

void lir_asm_init(LirAsm *as);
void lir_asm_free(LirAsm *as);
/* record the first error (later ones are dropped); false */
bool lir_asm_fail(LirAsm *as, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* make room for `need` elem-sized items in one of the buffer's arrays; false (and
 * the buffer failed) when out of memory */
bool lir_asm_reserve(LirAsm *as, void **p, uint32_t *cap, uint32_t need, size_t elem);
void lir_asm_byte(LirAsm *as, unsigned byte);
void lir_asm_word(LirAsm *as, uint32_t word);               /* 4 bytes, little-endian */
/* a fixup, a relocation of kind (RelocKind) to a Symbol arg, a trap site, at the
 * current offset (the trap at offset) */
void lir_asm_fixup(LirAsm *as, uint32_t target, LirFixupKind kind);
void lir_asm_reloc(LirAsm *as, const Arg *sym, RelocKind kind);
void lir_asm_trap(LirAsm *as, uint32_t offset, uint8_t kind);
/* is the next fixup of the function a branch marked for its long form? */
bool lir_asm_next_is_long(const LirAsm *as);

/* what a target's encoder of one instruction works on */
typedef struct {
    LirAsm *as;
    const Code *code;
    const LirBlock *block;
    const Inst *inst;
    const LirForm *form;   /* the form of inst on code's target */
} LirEncode;

/* ---- module layout ------------------------------------------------------------ */
typedef struct {
    Isa isa;
    uint8_t filler[4];      /* repeated up to each function's 16-byte alignment */
    uint8_t filler_len;
    /* append the code of one instruction of block (its successors and the block
     * after it decide branch targets; branches and calls become fixups); false
     * with as->err set if the instruction is not encodable */
    bool (*encode)(LirAsm *as, const Code *code, const LirBlock *block, const Inst *inst);
    /* make the branch or call of the fixup at `at` reach offset `to`; false if it
     * cannot (out of range) */
    bool (*patch)(LirAsm *as, uint32_t at, uint32_t to);
} LirLayout;

/* machine code for every function of a module (funcs[i] is function index i, every
 * Tmp a register, every slot assigned), laid out by layout; the CodeBlob's memory
 * comes from arena.  false with a message in err. */
bool lir_layout_module(const LirLayout *layout, Arena *arena, Code *const *funcs, uint32_t nfuncs,
                       CodeBlob *out, char *err, size_t errlen);

/* resolve the block fixups made since as->func_fixups (block offsets in block_at):
 * false if a branch cannot reach and is not LIR_FIX_COND; a LIR_FIX_COND one that
 * cannot is marked long and *relayout set (the function must be laid out again) */
bool lir_resolve_blocks(LirAsm *as, const LirLayout *layout, const uint32_t *block_at, uint32_t nblocks,
                        bool *relayout);

#endif
