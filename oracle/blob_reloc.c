/* blob_reloc.c — relocation fields and a CodeBlob's relocations applied (blob_reloc.h). */
#include "oracle/blob_reloc.h"

uint64_t reloc_get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void reloc_put_le(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

bool reloc_fits_signed(int64_t v, unsigned bits)
{
    return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
}

void reloc_insn_field(uint8_t *at, unsigned shift, unsigned bits, uint64_t v)
{
    uint32_t mask = (uint32_t)(((1ull << bits) - 1) << shift);
    uint32_t w = (uint32_t)reloc_get_le(at, 4);
    reloc_put_le(at, 4, (w & ~mask) | (((uint32_t)v << shift) & mask));
}

bool reloc_rel32(uint8_t *at, int64_t v)
{
    if (!reloc_fits_signed(v, 32))
        return false;
    reloc_put_le(at, 4, (uint64_t)v);
    return true;
}

bool reloc_a64_branch(uint8_t *at, int64_t v, unsigned shift, unsigned bits)
{
    if ((v & 3) || !reloc_fits_signed(v >> 2, bits))
        return false;
    reloc_insn_field(at, shift, bits, (uint64_t)(v >> 2));
    return true;
}

bool reloc_a64_adr(uint8_t *at, int64_t v)
{
    if (!reloc_fits_signed(v, 21))
        return false;
    reloc_insn_field(at, 29, 2, (uint64_t)v & 3);
    reloc_insn_field(at, 5, 19, (uint64_t)v >> 2);
    return true;
}

bool reloc_a64_page(uint8_t *at, uint64_t s, uint64_t p)
{
    return reloc_a64_adr(at, (int64_t)((s & ~0xfffull) - (p & ~0xfffull)) / 4096);
}

unsigned blob_reloc_size(Isa isa, unsigned kind)
{
    switch (kind) {
    case RELOC_ABS64: return 8;
    case RELOC_BRANCH: return 4;
    case RELOC_PC32: return isa == ISA_X64 ? 4 : 0;
    case RELOC_PAGE21: case RELOC_LO12: return isa == ISA_A64 ? 4 : 0;
    default: return 0;
    }
}

bool blob_reloc_apply(Isa isa, uint8_t *code, uint64_t base, const Reloc *r, uint64_t target)
{
    uint8_t *at = code + r->offset;
    uint64_t s = target + (uint64_t)r->addend, p = base + r->offset;
    switch (blob_reloc_size(isa, r->kind) ? r->kind : RELOC_KIND_COUNT) {
    case RELOC_ABS64: reloc_put_le(at, 8, s); return true;
    case RELOC_PC32: return reloc_rel32(at, (int64_t)(s - (p + 4)));
    case RELOC_BRANCH:
        return isa == ISA_X64 ? reloc_rel32(at, (int64_t)(s - (p + 4))) : reloc_a64_branch(at, (int64_t)(s - p), 0, 26);
    case RELOC_PAGE21: return reloc_a64_page(at, s, p);
    case RELOC_LO12: reloc_insn_field(at, 10, 12, s & 0xfff); return true;
    default: return false;
    }
}
