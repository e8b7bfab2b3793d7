/* blob_reloc.h — relocations applied to code placed at an address: the instruction
 * fields they patch (x86-64 rel32, AArch64 BL imm26, ADRP's page, ADD's low 12 bits)
 * with their ranges checked, and a CodeBlob's Reloc kinds (compiler/blob.h) in those
 * terms.  Shared by the emulator's loading of a blob (oracle/emu.c) and the ELF
 * loader (oracle/elf_load.c), so both fill a field alike. */
#ifndef CIRC_BLOB_RELOC_H
#define CIRC_BLOB_RELOC_H

#include "compiler/blob.h"

#include <stdbool.h>
#include <stdint.h>

/* n bytes at p, little-endian */
uint64_t reloc_get_le(const uint8_t *p, unsigned n);
void reloc_put_le(uint8_t *p, unsigned n, uint64_t v);
/* does v fit a signed field of `bits` bits? */
bool reloc_fits_signed(int64_t v, unsigned bits);
/* a field of `bits` bits at bit `shift` of the 32-bit instruction word at `at` */
void reloc_insn_field(uint8_t *at, unsigned shift, unsigned bits, uint64_t v);

/* the 32-bit field at `at` := v (a PC-relative displacement); false if v does not fit */
bool reloc_rel32(uint8_t *at, int64_t v);
/* AArch64 branch word at `at` (B, BL: bits 26 at 0; B.cond, CBZ: 19 at 5; TBZ: 14 at
 * 5) := the byte offset v; false if v is not a multiple of 4 or out of range */
bool reloc_a64_branch(uint8_t *at, int64_t v, unsigned shift, unsigned bits);
/* ADR/ADRP word at `at`: its 21-bit immediate := v (bytes, or pages for ADRP) */
bool reloc_a64_adr(uint8_t *at, int64_t v);
/* ADRP at address p reaching the page of s; false out of +-4 GiB */
bool reloc_a64_page(uint8_t *at, uint64_t s, uint64_t p);

/* the bytes a relocation of kind patches on isa, 0 if isa has no such kind (RELOC_CALL,
 * already patched, counts as none) */
unsigned blob_reloc_size(Isa isa, unsigned kind);
/* apply r to code placed at base, the target's address being target (r's addend is
 * added here); false if the kind is not isa's or the value does not fit its field */
bool blob_reloc_apply(Isa isa, uint8_t *code, uint64_t base, const Reloc *r, uint64_t target);

#endif
