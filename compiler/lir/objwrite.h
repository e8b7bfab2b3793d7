/* objwrite.h — ELF64 relocatable objects from a CodeBlob, for any target that
 * describes its ELF machine and relocation types (an ObjFormat, in the target's
 * obj.c).  The object holds .text (the code), one global function symbol per
 * module function, undefined symbols for the runtime helpers it calls
 * (runtime/circ_abi.h), relocations for the blob's symbol addresses (PC-relative:
 * the code is position-independent), helper calls and calls between functions,
 * the trap table (section circ_traps, runtime/circ_abi.h) and an
 * empty .note.GNU-stack; runtime/ (libcirc_rt) links it into a program. */
#ifndef CIRC_LIR_OBJWRITE_H
#define CIRC_LIR_OBJWRITE_H

#include "compiler/lir/lir.h"

#include <stddef.h>

/* a target's ELF description: the machine and a relocation type per RelocKind
 * (0, R_*_NONE: the target makes none of that kind) */
typedef struct ObjFormat {
    uint16_t machine;        /* e_machine (EM_X86_64, EM_AARCH64) */
    uint32_t abs64;          /* type of RELOC_ABS64: 8 bytes := S + A */
    uint32_t call;           /* type of RELOC_CALL: the call field := S + A - P */
    int64_t call_addend;     /* A of a call, a RELOC_PC32 and a RELOC_BRANCH beyond the
                                Reloc's own (x86-64: -4, the field ends 4 bytes on) */
    uint32_t prel32;         /* 32-bit S + A - P: the trap table's entries */
    uint32_t pc32;           /* type of RELOC_PC32 (x86-64 lea's disp32) */
    uint32_t branch;         /* type of RELOC_BRANCH (a helper's call) */
    uint32_t page21, lo12;   /* types of RELOC_PAGE21 (adrp) and RELOC_LO12 (add) */
} ObjFormat;

typedef struct {
    uint8_t *data;           /* malloc'd; the caller frees it */
    size_t size;
} ObjImage;

/* the object of blob for target (its ObjFormat), function i's symbol prefix (may be
 * NULL) followed by names[i]; false with a message in err (a target without an
 * ObjFormat, a blob that does not fit its own tables, out of memory) */
bool obj_write_elf(const CodeBlob *blob, const Target *target, const char *const *names,
                   const char *prefix, ObjImage *out, char *err, size_t errlen);

/* the C header of m's object to out: a prototype per function (its symbol, prefix
 * (may be NULL) followed by its name, where C can name it, else circ_fn_INDEX with an
 * asm label), and, under CIRC_MODULE_TABLE, a caller per function taking and giving
 * bits and the table circ_module_funcs (runtime/circ_rt.h's CircRtFunc); false on an
 * output error */
bool obj_write_header(FILE *out, const Module *m, const char *prefix);

/* the symbol of a runtime helper (Helper of compiler/blob.h), NULL if out of range */
const char *obj_helper_symbol(unsigned helper);

#endif
