/* elf_load.h — relocatable ELF64 objects (circ's own, and gcc's or clang's that call
 * only the runtime) loaded into one image for a runner: the allocated sections laid
 * out from a base address (executable ones first, the rest from the next page), the
 * relocations applied, undefined symbols resolved through the caller (the runtime's
 * helpers -> the runner's stubs), the defined function symbols and the trap table
 * (section circ_traps, runtime/circ_abi.h) read back.  A bad object (truncated,
 * another machine or class, a relocation it does not know, a symbol it cannot
 * resolve, a value out of range) is an error with a message, never a crash.
 * An undefined symbol the caller resolves far from base (beyond +-2 GiB less the
 * largest image on x86-64, +-128 MiB less it on AArch64: a host function for an
 * mmap'd image) gets a veneer after the executable sections (x86-64 jmp [rip+0]
 * and the address; AArch64 ldr x16, 8; br x16 and the address), and every
 * relocation of it but the absolute ones refers to the veneer: a call reaches it,
 * an address (lea rip, adrp + add) is the veneer's, which jumps on.
 * Relocations known: x86-64 64, PC32, PLT32, 32, 32S, PC64; AArch64 ABS64, ABS32,
 * PREL64, PREL32, CALL26, JUMP26, CONDBR19, TSTBR14, ADR_PREL_LO21,
 * ADR_PREL_PG_HI21, ADD_ABS_LO12_NC and LDST8/16/32/64/128_ABS_LO12_NC. */
#ifndef CIRC_ELF_LOAD_H
#define CIRC_ELF_LOAD_H

#include "compiler/blob.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the address of an undefined symbol; false if the runner has none */
typedef bool (*ElfResolveFn)(void *ctx, const char *name, uint64_t *addr);

typedef struct {
    const char *name;    /* points into ElfImage.strings */
    uint64_t addr;
} ElfFunc;

typedef struct {
    uint8_t *image;      /* malloc'd: the bytes to place at base */
    uint64_t base, size;
    uint64_t exec_size;  /* [base, base + exec_size) holds the executable sections
                            (a multiple of 4096 when data follows) */
    ElfFunc *funcs;      /* defined STT_FUNC symbols, in symbol table order */
    uint32_t nfuncs;
    TrapSite *traps;     /* offsets from base, sorted */
    uint32_t ntraps;
    uint32_t nveneers;   /* veneers made after the executable sections (within
                            exec_size): one per undefined symbol resolved out of a
                            PC-relative field's reach of the image */
    char *strings;       /* a copy of the symbol string table */
    bool threw_flag;     /* it defines circ_abi.h's threw-flag symbol */
} ElfImage;

/* load the object data[0..size) of ELF machine `machine` (EM_X86_64, EM_AARCH64) at
 * base; false with a message in err (out is then empty) */
bool elf_load(const uint8_t *data, size_t size, uint16_t machine, uint64_t base, ElfResolveFn resolve,
              void *ctx, ElfImage *out, char *err, size_t errlen);
void elf_image_free(ElfImage *img);

/* the address of the function symbol name, false if the image defines none */
bool elf_image_func(const ElfImage *img, const char *name, uint64_t *addr);

/* an ElfResolveFn for the Unicorn runner: the runtime's helpers (runtime/circ_abi.h)
 * at their stubs (emu_helper_addr); ctx unused */
bool elf_resolve_emu_stub(void *ctx, const char *name, uint64_t *addr);

/* the ELF machine of an Isa */
uint16_t elf_machine(Isa isa);

/* a CodeBlob over the image (code = image, no relocations left, entry[i] the
 * function names[i], the image's traps), for a runner that takes blobs and maps the
 * code at base: entry and the blob's arrays point into img and entry (caller-owned,
 * n entries); false with a message if a name is missing */
bool elf_image_blob(const ElfImage *img, Isa isa, const char *const *names, uint32_t n, uint32_t *entry,
                    CodeBlob *out, char *err, size_t errlen);

#endif
