/* elf_load.c — relocatable ELF64 objects loaded into one image (elf_load.h): the
 * header and section table checked against the file's size, the allocated sections
 * laid out, symbols resolved, each relocation applied with its range checked. */
#include "oracle/elf_load.h"
#include "oracle/blob_reloc.h"
#include "oracle/emu.h"
#include "runtime/circ_abi.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_SECTIONS = 1u << 16,
    MAX_IMAGE = 64u << 20,   /* an object asking for more is refused, not allocated */
    PAGE = 4096,
};

typedef struct {
    const uint8_t *data;
    size_t size;
    uint16_t machine;
    Elf64_Shdr *sh;
    uint32_t nsec;
    uint64_t *sec_addr;      /* per section: its address */
    uint8_t *loaded;         /* per section: laid out in the image */
    Elf64_Sym *syms;
    uint32_t nsyms, symtab;
    uint32_t shstrndx;       /* the section names' string table */
    uint64_t *sym_addr;      /* resolved addresses (sym_done marks which) */
    uint8_t *sym_done;
    uint32_t *veneer;        /* per symbol: 0, or 1 + the index of its veneer */
    uint64_t veneer_at;      /* image offset of the first veneer */
    size_t strsize;
    ElfResolveFn resolve;
    void *ctx;
    ElfImage *out;
    char *err;
    size_t errlen;
} Loader;

static bool fail(Loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Loader *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->err, l->errlen, fmt, ap);
    va_end(ap);
    return false;
}

bool elf_resolve_emu_stub(void *ctx, const char *name, uint64_t *addr)
{
    static const char *const helpers[] = {
#define X(sym) #sym,
        CIRC_ABI_HELPER_SYMBOLS(X)
#undef X
    };
    _Static_assert(sizeof helpers / sizeof helpers[0] == HELPER_COUNT, "circ_abi.h names every Helper");
    (void)ctx;
    for (unsigned h = 0; h < HELPER_COUNT; h++)
        if (!strcmp(name, helpers[h])) {
            *addr = emu_helper_addr((Helper)h);
            return true;
        }
    return false;
}

uint16_t elf_machine(Isa isa) { return isa == ISA_X64 ? EM_X86_64 : isa == ISA_A64 ? EM_AARCH64 : EM_NONE; }

/* [off, off + n) inside the file */
static bool in_file(const Loader *l, uint64_t off, uint64_t n) { return off <= l->size && n <= l->size - off; }

static bool read_header(Loader *l, Elf64_Ehdr *h)
{
    if (l->size < sizeof *h)
        return fail(l, "truncated: %zu bytes, an ELF header is %zu", l->size, sizeof *h);
    memcpy(h, l->data, sizeof *h);
    if (memcmp(h->e_ident, ELFMAG, SELFMAG))
        return fail(l, "not an ELF file");
    if (h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB)
        return fail(l, "not a little-endian ELF64 file");
    if (h->e_type != ET_REL)
        return fail(l, "not a relocatable object (e_type %u)", h->e_type);
    if (h->e_machine != l->machine)
        return fail(l, "wrong machine %u (expected %u)", h->e_machine, l->machine);
    if (h->e_shentsize != sizeof(Elf64_Shdr) || !h->e_shnum || h->e_shstrndx >= h->e_shnum)
        return fail(l, "bad section header table (entry size %u, %u sections)", h->e_shentsize, h->e_shnum);
    if (!in_file(l, h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf64_Shdr)))
        return fail(l, "truncated: the section headers end beyond the file");
    return true;
}

static bool read_sections(Loader *l, const Elf64_Ehdr *h)
{
    l->nsec = h->e_shnum;
    l->sh = malloc(l->nsec * sizeof *l->sh);
    l->sec_addr = calloc(l->nsec, sizeof *l->sec_addr);
    l->loaded = calloc(l->nsec, 1);
    if (!l->sh || !l->sec_addr || !l->loaded)
        return fail(l, "out of memory");
    memcpy(l->sh, l->data + h->e_shoff, l->nsec * sizeof *l->sh);
    for (uint32_t i = 0; i < l->nsec; i++) {
        const Elf64_Shdr *s = &l->sh[i];
        if (s->sh_type != SHT_NOBITS && !in_file(l, s->sh_offset, s->sh_size))
            return fail(l, "truncated: section %u ends beyond the file", i);
        if (s->sh_addralign > PAGE || (s->sh_addralign & (s->sh_addralign - 1)))
            return fail(l, "section %u: bad alignment %llu", i, (unsigned long long)s->sh_addralign);
    }
    return true;
}

/* the string at off of the string table section sec, NULL if it does not end inside it */
static const char *string_at(const Loader *l, uint32_t sec, uint64_t off)
{
    if (sec >= l->nsec || l->sh[sec].sh_type != SHT_STRTAB || off >= l->sh[sec].sh_size)
        return NULL;
    const char *s = (const char *)l->data + l->sh[sec].sh_offset;
    return memchr(s + off, 0, l->sh[sec].sh_size - off) ? s + off : NULL;
}

static bool read_symbols(Loader *l)
{
    for (uint32_t i = 1; i < l->nsec; i++)
        if (l->sh[i].sh_type == SHT_SYMTAB) {
            if (l->symtab)
                return fail(l, "more than one symbol table");
            l->symtab = i;
        }
    if (!l->symtab)
        return fail(l, "no symbol table");
    const Elf64_Shdr *s = &l->sh[l->symtab];
    if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym) || !string_at(l, s->sh_link, 0))
        return fail(l, "bad symbol table (entry size %llu, strings in section %u)",
                    (unsigned long long)s->sh_entsize, s->sh_link);
    l->nsyms = (uint32_t)(s->sh_size / sizeof(Elf64_Sym));
    l->syms = malloc((l->nsyms + 1) * sizeof *l->syms);
    l->sym_addr = calloc(l->nsyms + 1, sizeof *l->sym_addr);
    l->sym_done = calloc(l->nsyms + 1, 1);
    l->veneer = calloc(l->nsyms + 1, sizeof *l->veneer);
    if (!l->syms || !l->sym_addr || !l->sym_done || !l->veneer)
        return fail(l, "out of memory");
    memcpy(l->syms, l->data + s->sh_offset, l->nsyms * sizeof *l->syms);
    return true;
}

/* place the allocated sections with flag exec (or not) from *at on */
static bool place(Loader *l, bool exec, uint64_t *at)
{
    for (uint32_t i = 1; i < l->nsec; i++) {
        const Elf64_Shdr *s = &l->sh[i];
        if (!(s->sh_flags & SHF_ALLOC) || !!(s->sh_flags & SHF_EXECINSTR) != exec)
            continue;
        uint64_t align = s->sh_addralign ? s->sh_addralign : 1;
        *at = (*at + align - 1) / align * align;
        if (s->sh_size > MAX_IMAGE || *at + s->sh_size > MAX_IMAGE)
            return fail(l, "the sections need more than %u bytes", MAX_IMAGE);
        l->sec_addr[i] = l->out->base + *at;
        l->loaded[i] = 1;
        *at += s->sh_size;
    }
    return true;
}

static const char *sym_name(const Loader *l, const Elf64_Sym *s)
{
    return string_at(l, l->sh[l->symtab].sh_link, s->st_name);
}

/* ---- veneers: PC-relative references to symbols out of their reach ------------ */
enum { VENEER_SIZE = 16 };

/* is addr too far for a PC-relative field of the machine (x86-64 rel32 +-2 GiB,
 * AArch64 bl +-128 MiB) from some byte of an image at base (at most MAX_IMAGE)? */
static bool far_from_image(const Loader *l, uint64_t addr)
{
    uint64_t reach = l->machine == EM_X86_64 ? 1ull << 31 : 1ull << 27;
    uint64_t base = l->out->base, d = addr >= base ? addr - base : base - addr;
    return d >= reach - MAX_IMAGE;
}

/* a veneer per undefined symbol the resolver puts far from the image, from *at on
 * (after the executable sections, so the veneers are code) */
static bool reserve_veneers(Loader *l, uint64_t *at)
{
    uint32_t n = 0;
    for (uint32_t i = 1; i < l->nsyms; i++) {
        const char *name = sym_name(l, &l->syms[i]);
        uint64_t addr;
        if (l->syms[i].st_shndx == SHN_UNDEF && name && name[0] && l->resolve && l->resolve(l->ctx, name, &addr) &&
            far_from_image(l, addr))
            l->veneer[i] = ++n;
    }
    if (!n)
        return true;
    *at = (*at + VENEER_SIZE - 1) / VENEER_SIZE * VENEER_SIZE;
    if (*at + (uint64_t)n * VENEER_SIZE > MAX_IMAGE)
        return fail(l, "the sections and %u veneers need more than %u bytes", n, MAX_IMAGE);
    l->veneer_at = *at;
    *at += (uint64_t)n * VENEER_SIZE;
    l->out->nveneers = n;
    return true;
}

static bool symbol_addr(Loader *l, uint32_t i, uint64_t *addr);

/* each veneer jumps to its symbol: x86-64 jmp [rip + 0] and the address; AArch64
 * ldr x16, 8; br x16 and the address */
static void write_veneers(Loader *l)
{
    for (uint32_t i = 1; i < l->nsyms; i++) {
        uint64_t addr;
        if (!l->veneer[i] || !symbol_addr(l, i, &addr))
            continue;
        uint8_t *v = l->out->image + l->veneer_at + (uint64_t)(l->veneer[i] - 1) * VENEER_SIZE;
        if (l->machine == EM_X86_64) {
            static const uint8_t jmp[6] = {0xff, 0x25, 0, 0, 0, 0};
            memcpy(v, jmp, sizeof jmp);
            reloc_put_le(v + 6, 8, addr);
            v[14] = v[15] = 0xcc;
        } else {
            reloc_put_le(v, 4, 0x58000050u); /* ldr x16, #8 */
            reloc_put_le(v + 4, 4, 0xd61f0200u); /* br x16 */
            reloc_put_le(v + 8, 8, addr);
        }
    }
}

/* the address a relocation of type refers to for symbol sym at s: its veneer when it
 * has one, unless the relocation is absolute */
static uint64_t veneer_or_symbol(const Loader *l, uint32_t sym, uint32_t type, uint64_t s)
{
    bool absolute = l->machine == EM_X86_64
                        ? type == R_X86_64_64 || type == R_X86_64_32 || type == R_X86_64_32S
                        : type == R_AARCH64_ABS64 || type == R_AARCH64_ABS32;
    if (sym >= l->nsyms || !l->veneer[sym] || absolute)
        return s;
    return l->out->base + l->veneer_at + (uint64_t)(l->veneer[sym] - 1) * VENEER_SIZE;
}

static bool lay_out(Loader *l)
{
    uint64_t at = 0;
    if (!place(l, true, &at) || !reserve_veneers(l, &at))
        return false;
    l->out->exec_size = at;
    uint64_t exec_end = at;
    at = (at + PAGE - 1) / PAGE * PAGE;
    if (!place(l, false, &at))
        return false;
    if (at > exec_end)
        l->out->exec_size = (exec_end + PAGE - 1) / PAGE * PAGE;
    l->out->size = at;
    l->out->image = calloc(at ? at : 1, 1);
    if (!l->out->image)
        return fail(l, "out of memory");
    for (uint32_t i = 1; i < l->nsec; i++)
        if (l->loaded[i] && l->sh[i].sh_type != SHT_NOBITS)
            memcpy(l->out->image + (l->sec_addr[i] - l->out->base), l->data + l->sh[i].sh_offset, l->sh[i].sh_size);
    write_veneers(l);
    return true;
}

/* the address of symbol i */
static bool symbol_addr(Loader *l, uint32_t i, uint64_t *addr)
{
    if (i >= l->nsyms)
        return fail(l, "relocation names symbol %u of %u", i, l->nsyms);
    const Elf64_Sym *s = &l->syms[i];
    const char *name = sym_name(l, s);
    if (l->sym_done[i]) {
        *addr = l->sym_addr[i];
        return true;
    }
    if (s->st_shndx == SHN_UNDEF) {
        if (!name || !name[0] || !l->resolve || !l->resolve(l->ctx, name, addr))
            return fail(l, "undefined symbol '%s'", name ? name : "?");
    } else if (s->st_shndx == SHN_ABS) {
        *addr = s->st_value;
    } else if (s->st_shndx >= l->nsec || !l->loaded[s->st_shndx] || s->st_value > l->sh[s->st_shndx].sh_size) {
        return fail(l, "symbol '%s' is in no loaded section (index %u)", name ? name : "?", s->st_shndx);
    } else {
        *addr = l->sec_addr[s->st_shndx] + s->st_value;
    }
    l->sym_done[i] = 1;
    l->sym_addr[i] = *addr;
    return true;
}

/* one relocation's field: where it is, how wide, the values it combines */
typedef struct {
    uint8_t *at;
    uint64_t s, p;
    int64_t a;
    uint32_t type;
} Fix;

/* the size of a relocation's field, 0 for a type the loader does not know */
static unsigned field_size(uint16_t machine, uint32_t type)
{
    if (machine == EM_X86_64)
        switch (type) {
        case R_X86_64_64: case R_X86_64_PC64: return 8;
        case R_X86_64_PC32: case R_X86_64_PLT32: case R_X86_64_32: case R_X86_64_32S: return 4;
        default: return 0;
        }
    switch (type) {
    case R_AARCH64_ABS64: case R_AARCH64_PREL64: return 8;
    case R_AARCH64_ABS32: case R_AARCH64_PREL32: case R_AARCH64_CALL26: case R_AARCH64_JUMP26:
    case R_AARCH64_CONDBR19: case R_AARCH64_TSTBR14: case R_AARCH64_ADR_PREL_LO21:
    case R_AARCH64_ADR_PREL_PG_HI21: case R_AARCH64_ADD_ABS_LO12_NC: case R_AARCH64_LDST8_ABS_LO12_NC:
    case R_AARCH64_LDST16_ABS_LO12_NC: case R_AARCH64_LDST32_ABS_LO12_NC: case R_AARCH64_LDST64_ABS_LO12_NC:
    case R_AARCH64_LDST128_ABS_LO12_NC: return 4;
    default: return 0;
    }
}

static bool apply_x64(Loader *l, const Fix *f)
{
    uint64_t v = f->s + (uint64_t)f->a;
    switch (f->type) {
    case R_X86_64_64: reloc_put_le(f->at, 8, v); return true;
    case R_X86_64_PC64: reloc_put_le(f->at, 8, v - f->p); return true;
    case R_X86_64_32:
        if (v > UINT32_MAX)
            return fail(l, "R_X86_64_32 value 0x%llx out of range", (unsigned long long)v);
        reloc_put_le(f->at, 4, v);
        return true;
    case R_X86_64_32S:
        break;
    default:
        v -= f->p; /* PC32, PLT32 */
    }
    if (!reloc_fits_signed((int64_t)v, 32))
        return fail(l, "relocation type %u: value 0x%llx out of range", f->type, (unsigned long long)v);
    reloc_put_le(f->at, 4, v);
    return true;
}

/* a PC-relative branch of `bits` bits (in instruction units) at bit `shift` */
static bool a64_branch(Loader *l, const Fix *f, unsigned shift, unsigned bits)
{
    int64_t v = (int64_t)(f->s + (uint64_t)f->a - f->p);
    return reloc_a64_branch(f->at, v, shift, bits) ||
           fail(l, "AArch64 branch relocation %u: offset %lld out of range", f->type, (long long)v);
}

static bool a64_range(Loader *l, const Fix *f, bool ok)
{
    return ok || fail(l, "AArch64 relocation %u: 0x%llx out of range", f->type, (unsigned long long)(f->s + (uint64_t)f->a));
}

static bool apply_a64(Loader *l, const Fix *f)
{
    uint64_t v = f->s + (uint64_t)f->a;
    switch (f->type) {
    case R_AARCH64_ABS64: reloc_put_le(f->at, 8, v); return true;
    case R_AARCH64_PREL64: reloc_put_le(f->at, 8, v - f->p); return true;
    case R_AARCH64_ABS32:
        if (v > UINT32_MAX && !reloc_fits_signed((int64_t)v, 32))
            return fail(l, "R_AARCH64_ABS32 value 0x%llx out of range", (unsigned long long)v);
        reloc_put_le(f->at, 4, v);
        return true;
    case R_AARCH64_PREL32:
        if (!reloc_fits_signed((int64_t)(v - f->p), 32))
            return fail(l, "R_AARCH64_PREL32 value out of range");
        reloc_put_le(f->at, 4, v - f->p);
        return true;
    case R_AARCH64_CALL26: case R_AARCH64_JUMP26: return a64_branch(l, f, 0, 26);
    case R_AARCH64_CONDBR19: return a64_branch(l, f, 5, 19);
    case R_AARCH64_TSTBR14: return a64_branch(l, f, 5, 14);
    case R_AARCH64_ADR_PREL_LO21: return a64_range(l, f, reloc_a64_adr(f->at, (int64_t)(v - f->p)));
    case R_AARCH64_ADR_PREL_PG_HI21: return a64_range(l, f, reloc_a64_page(f->at, v, f->p));
    case R_AARCH64_ADD_ABS_LO12_NC: case R_AARCH64_LDST8_ABS_LO12_NC: reloc_insn_field(f->at, 10, 12, v & 0xfff); return true;
    case R_AARCH64_LDST16_ABS_LO12_NC: reloc_insn_field(f->at, 10, 12, (v & 0xfff) >> 1); return true;
    case R_AARCH64_LDST32_ABS_LO12_NC: reloc_insn_field(f->at, 10, 12, (v & 0xfff) >> 2); return true;
    case R_AARCH64_LDST64_ABS_LO12_NC: reloc_insn_field(f->at, 10, 12, (v & 0xfff) >> 3); return true;
    default: reloc_insn_field(f->at, 10, 12, (v & 0xfff) >> 4); return true; /* LDST128 */
    }
}

/* the relocations of section r (SHT_RELA) to the section they patch */
static bool apply_section(Loader *l, uint32_t r)
{
    const Elf64_Shdr *rs = &l->sh[r];
    uint32_t target = rs->sh_info;
    if (target >= l->nsec || !l->loaded[target])
        return true; /* relocations of a section not loaded (debug information) */
    if (rs->sh_link != l->symtab || rs->sh_entsize != sizeof(Elf64_Rela) || rs->sh_size % sizeof(Elf64_Rela))
        return fail(l, "relocation section %u: bad symbol table or entry size", r);
    const Elf64_Shdr *ts = &l->sh[target];
    for (uint64_t k = 0; k < rs->sh_size / sizeof(Elf64_Rela); k++) {
        Elf64_Rela rel;
        memcpy(&rel, l->data + rs->sh_offset + k * sizeof rel, sizeof rel);
        uint32_t type = (uint32_t)ELF64_R_TYPE(rel.r_info);
        unsigned n = field_size(l->machine, type);
        if (!n)
            return fail(l, "unknown relocation type %u (section %u, entry %llu)", type, r, (unsigned long long)k);
        if (ts->sh_type == SHT_NOBITS || rel.r_offset > ts->sh_size || ts->sh_size - rel.r_offset < n)
            return fail(l, "relocation %llu of section %u is outside its section", (unsigned long long)k, r);
        Fix f = {.p = l->sec_addr[target] + rel.r_offset, .a = rel.r_addend, .type = type};
        f.at = l->out->image + (f.p - l->out->base);
        if (!symbol_addr(l, (uint32_t)ELF64_R_SYM(rel.r_info), &f.s))
            return false;
        f.s = veneer_or_symbol(l, (uint32_t)ELF64_R_SYM(rel.r_info), type, f.s);
        if (!(l->machine == EM_X86_64 ? apply_x64(l, &f) : apply_a64(l, &f)))
            return false;
    }
    return true;
}

static bool apply_relocations(Loader *l)
{
    for (uint32_t i = 1; i < l->nsec; i++) {
        if (l->sh[i].sh_type == SHT_REL)
            return fail(l, "section %u: REL relocations (without addends) are not supported", i);
        if (l->sh[i].sh_type == SHT_RELA && !apply_section(l, i))
            return false;
    }
    return true;
}

static bool collect_funcs(Loader *l)
{
    const Elf64_Shdr *strs = &l->sh[l->sh[l->symtab].sh_link];
    l->out->strings = malloc(strs->sh_size + 1);
    l->out->funcs = malloc((l->nsyms + 1) * sizeof *l->out->funcs);
    if (!l->out->strings || !l->out->funcs)
        return fail(l, "out of memory");
    memcpy(l->out->strings, l->data + strs->sh_offset, strs->sh_size);
    l->out->strings[strs->sh_size] = 0;
    for (uint32_t i = 1; i < l->nsyms; i++) {
        const Elf64_Sym *s = &l->syms[i];
        if (s->st_shndx == SHN_ABS && sym_name(l, s) && !strcmp(sym_name(l, s), CIRC_ABI_THREW_FLAG_SYMBOL))
            l->out->threw_flag = s->st_value != 0;
        if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF)
            continue;
        uint64_t addr;
        if (s->st_shndx == SHN_ABS) /* an absolute address is no code of the image */
            return fail(l, "function symbol %u is absolute (in no section)", i);
        if (!sym_name(l, s) || !symbol_addr(l, i, &addr))
            return fail(l, "function symbol %u: bad name or section", i);
        l->out->funcs[l->out->nfuncs++] = (ElfFunc){l->out->strings + s->st_name, addr};
    }
    return true;
}

static int trap_order(const void *a, const void *b)
{
    uint32_t x = ((const TrapSite *)a)->offset, y = ((const TrapSite *)b)->offset;
    return x < y ? -1 : x > y;
}

/* the entries of circ_traps, after relocation, as offsets from base */
static bool collect_traps(Loader *l)
{
    for (uint32_t i = 1; i < l->nsec; i++) {
        const char *sn = string_at(l, l->shstrndx, l->sh[i].sh_name);
        if (!sn || strcmp(sn, CIRC_ABI_TRAP_SECTION) || !l->loaded[i])
            continue;
        if (l->sh[i].sh_size % sizeof(CircAbiTrap) || l->sh[i].sh_type == SHT_NOBITS)
            return fail(l, "trap table of %llu bytes", (unsigned long long)l->sh[i].sh_size);
        uint32_t n = (uint32_t)(l->sh[i].sh_size / sizeof(CircAbiTrap));
        TrapSite *t = realloc(l->out->traps, (l->out->ntraps + n + 1) * sizeof *t);
        if (!t)
            return fail(l, "out of memory");
        l->out->traps = t;
        for (uint32_t k = 0; k < n; k++) {
            uint64_t at = l->sec_addr[i] - l->out->base + k * sizeof(CircAbiTrap);
            int32_t where = (int32_t)reloc_get_le(l->out->image + at, 4);
            uint64_t off = at + (uint64_t)(int64_t)where;
            if (off >= l->out->exec_size)
                return fail(l, "trap table entry %u points outside the code", k);
            t[l->out->ntraps++] = (TrapSite){(uint32_t)off, l->out->image[at + 4]};
        }
    }
    if (l->out->ntraps)
        qsort(l->out->traps, l->out->ntraps, sizeof *l->out->traps, trap_order);
    return true;
}

void elf_image_free(ElfImage *img)
{
    free(img->image);
    free(img->funcs);
    free(img->traps);
    free(img->strings);
    *img = (ElfImage){0};
}

bool elf_load(const uint8_t *data, size_t size, uint16_t machine, uint64_t base, ElfResolveFn resolve,
              void *ctx, ElfImage *out, char *err, size_t errlen)
{
    *out = (ElfImage){.base = base};
    Loader l = {.data = data, .size = size, .machine = machine, .resolve = resolve, .ctx = ctx, .out = out,
                .err = err, .errlen = errlen};
    Elf64_Ehdr h;
    bool ok = data && read_header(&l, &h) && read_sections(&l, &h) && read_symbols(&l) && lay_out(&l);
    if (ok) {
        l.shstrndx = h.e_shstrndx;
        ok = apply_relocations(&l) && collect_funcs(&l) && collect_traps(&l);
    } else if (!data) {
        fail(&l, "no data");
    }
    free(l.sh);
    free(l.sec_addr);
    free(l.loaded);
    free(l.syms);
    free(l.sym_addr);
    free(l.sym_done);
    free(l.veneer);
    if (!ok)
        elf_image_free(out);
    return ok;
}

bool elf_image_func(const ElfImage *img, const char *name, uint64_t *addr)
{
    for (uint32_t i = 0; i < img->nfuncs; i++)
        if (!strcmp(img->funcs[i].name, name)) {
            *addr = img->funcs[i].addr;
            return true;
        }
    return false;
}

bool elf_image_blob(const ElfImage *img, Isa isa, const char *const *names, uint32_t n, uint32_t *entry,
                    CodeBlob *out, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < n; i++) {
        uint64_t addr;
        if (!elf_image_func(img, names[i], &addr)) {
            snprintf(err, errlen, "the object defines no function '%s'", names[i]);
            return false;
        }
        entry[i] = (uint32_t)(addr - img->base);
    }
    *out = (CodeBlob){.isa = isa, .code = img->image, .size = (uint32_t)img->size, .entry = entry, .nfuncs = n,
                      .traps = img->traps, .ntraps = img->ntraps, .threw_flag = img->threw_flag};
    return true;
}
