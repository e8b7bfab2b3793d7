/* blob.h — what a backend produces and an executor loads: machine code for every
 * function of a module, entry offsets, relocations and the trap table.  The contract
 * between compiler/ (x64/, a64/) and oracle/ (the Unicorn runner): neither side looks
 * at the other's internals. */
#ifndef CIRC_BLOB_H
#define CIRC_BLOB_H

#include <stdint.h>

typedef enum { ISA_X64, ISA_A64, ISA_COUNT } Isa;

/* runtime helpers the executor services at stub addresses (DESIGN.md §4) */
typedef enum {
    HELPER_FMOD_F32, HELPER_FMOD_F64, /* C fmodf / fmod, NaN canonicalized */
    HELPER_FEXP_F32, HELPER_FEXP_F64, /* C powf / pow, NaN canonicalized */
    HELPER_THROW,                     /* arg 0: the value's bits, arg 1: its Type; never returns */
    /* the runtime functions (compiler/ir/runtime.def, docs/runtime.md), in RuntimeFn
     * order from HELPER_RUNTIME: called with the platform ABI like a module function */
#define RT(name, ...) HELPER_RT_##name,
#include "compiler/ir/runtime.def"
#undef RT
    HELPER_COUNT
} Helper;
#define HELPER_RUNTIME HELPER_RT_rt_mix64 /* the first runtime function's helper */

typedef enum {
    RELOC_ABS64,  /* 8 bytes at offset := absolute address of the target */
    RELOC_CALL,   /* a direct call's PC-relative field (x86-64 rel32, AArch64 BL imm26),
                     already resolved to a function of the module (CodeBlob.calls) */
    /* PC-relative forms of a target's address (position-independent code) */
    RELOC_PC32,   /* x86-64: the 4 bytes at offset (the last field of the instruction,
                     lea's disp32) := target + addend - (offset + 4), as an address */
    RELOC_BRANCH, /* a direct call of a helper: x86-64 the rel32 at offset := target +
                     addend - (offset + 4); AArch64 the BL word at offset, imm26 :=
                     (target + addend - offset) / 4 */
    RELOC_PAGE21, /* AArch64: the ADRP word at offset := the 4 KiB page of target + addend
                     minus offset's page, in pages (21 bits) */
    RELOC_LO12,   /* AArch64: the ADD (immediate) word at offset, imm12 := the low 12 bits
                     of target + addend */
    RELOC_KIND_COUNT
} RelocKind;

typedef enum { TARGET_FUNC, TARGET_HELPER } RelocTarget;

typedef struct {
    uint32_t offset;  /* into code */
    uint8_t kind;     /* RelocKind */
    uint8_t target;   /* RelocTarget */
    uint32_t index;   /* function index or Helper */
    int64_t addend;
} Reloc;

typedef struct {
    uint32_t offset;  /* of the trapping instruction (ud2, brk, a faulting div) */
    uint8_t kind;     /* TrapKind (compiler/ir/ir.h) */
} TrapSite;

typedef struct {
    uint32_t offset;  /* first instruction byte of a gate's code */
    uint32_t func;    /* function index */
    uint32_t gate;    /* GateId, for annotated listings */
} SourceMark;

typedef struct {
    Isa isa;
    uint8_t *code;
    uint32_t size;
    uint32_t *entry;  /* per function index: offset of its first instruction */
    uint32_t nfuncs;
    Reloc *relocs;
    uint32_t nrelocs;
    Reloc *calls;     /* RELOC_CALL sites, sorted by offset: already patched, listed for
                         object files (compiler/lir/objwrite.h); loaders need not apply them */
    uint32_t ncalls;
    TrapSite *traps;  /* sorted by offset */
    uint32_t ntraps;
    SourceMark *marks;/* sorted by offset */
    uint32_t nmarks;
    uint8_t threw_flag; /* exceptions: every function returns a flag in the ISA's second
                           result register (x86-64 rdx, ARM64 x1): 0 returned, else it
                           threw a value of Type flag - 1 whose bits are in the result
                           register (docs/architecture.md) */
} CodeBlob;

#endif
