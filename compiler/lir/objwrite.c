/* objwrite.c — the ELF64 relocatable object of a CodeBlob (objwrite.h): sections,
 * symbols and relocations laid out into one buffer, the target's ObjFormat naming
 * the machine and the relocation types. */
#include "compiler/lir/objwrite.h"
#include "runtime/circ_abi.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert((int)CIRC_ABI_TRAP_DIV0 == (int)TRAP_DIV0 && (int)CIRC_ABI_TRAP_OVERFLOW == (int)TRAP_OVERFLOW &&
               (int)CIRC_ABI_TRAP_FAULT == (int)TRAP_FAULT && (int)CIRC_ABI_TRAP_ILLEGAL == (int)TRAP_ILLEGAL,
               "runtime/circ_abi.h numbers the trap kinds as TrapKind does");
_Static_assert(sizeof(CircAbiTrap) == 8, "a trap table entry is 8 bytes");
_Static_assert(CIRC_ABI_TYPE_I64 == (unsigned)TY_I64, "runtime/circ_abi.h numbers i64 as Type does");

static const char *const helper_symbols[] = {
#define X(name) #name,
    CIRC_ABI_HELPER_SYMBOLS(X)
#undef X
};
_Static_assert(sizeof helper_symbols / sizeof helper_symbols[0] == HELPER_COUNT,
               "runtime/circ_abi.h names every Helper");

const char *obj_helper_symbol(unsigned helper) { return helper < HELPER_COUNT ? helper_symbols[helper] : NULL; }

/* the sections, in header order */
enum { SEC_NULL, SEC_TEXT, SEC_RELA_TEXT, SEC_TRAPS, SEC_RELA_TRAPS, SEC_NOTE, SEC_SYMTAB, SEC_STRTAB,
       SEC_SHSTRTAB, SEC_COUNT };
static const char *const section_names[SEC_COUNT] = {
    "", ".text", ".rela.text", CIRC_ABI_TRAP_SECTION, ".rela.circ_traps", /* .rela. + the trap section */
    ".note.GNU-stack", ".symtab", ".strtab", ".shstrtab",
};

typedef struct {
    uint8_t *p;
    size_t n, cap;
    bool failed;
} Bytes;

static void put(Bytes *b, const void *src, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void align_to(Bytes *b, size_t a)
{
    static const uint8_t zeros[16];
    put(b, zeros, (a - b->n % a) % a);
}

/* add s (and its prefix) to a string table; its offset */
static uint32_t add_string(Bytes *tab, const char *prefix, const char *s)
{
    uint32_t at = (uint32_t)tab->n;
    if (prefix)
        put(tab, prefix, strlen(prefix));
    put(tab, s, strlen(s) + 1);
    return at;
}

/* everything the object is made of, before layout */
typedef struct {
    const CodeBlob *blob;
    const ObjFormat *fmt;
    Bytes strtab, symtab, rela_text, traps, rela_traps, shstrtab;
    uint32_t func_sym0;              /* symbol index of function 0 */
    uint32_t helper_sym[HELPER_COUNT]; /* 0: not referenced */
    char *err;
    size_t errlen;
} ObjBuild;

static void add_symbol(ObjBuild *o, uint32_t name, unsigned char info, uint16_t shndx, uint64_t value,
                       uint64_t size)
{
    Elf64_Sym s = {.st_name = name, .st_info = info, .st_shndx = shndx, .st_value = value, .st_size = size};
    put(&o->symtab, &s, sizeof s);
}

static uint32_t func_end(const CodeBlob *b, uint32_t i) { return i + 1 < b->nfuncs ? b->entry[i + 1] : b->size; }

static void add_symbols(ObjBuild *o, const char *const *names, const char *prefix)
{
    const CodeBlob *b = o->blob;
    put(&o->strtab, "", 1);
    add_symbol(o, 0, 0, SHN_UNDEF, 0, 0);
    add_symbol(o, 0, ELF64_ST_INFO(STB_LOCAL, STT_SECTION), SEC_TEXT, 0, 0);
    o->func_sym0 = 2;
    for (uint32_t i = 0; i < b->nfuncs; i++)
        add_symbol(o, add_string(&o->strtab, prefix, names[i]), ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), SEC_TEXT,
                   b->entry[i], func_end(b, i) - b->entry[i]);
    uint32_t next = o->func_sym0 + b->nfuncs;
    for (uint32_t i = 0; i < b->nrelocs; i++) {
        const Reloc *r = &b->relocs[i];
        if (r->target == TARGET_HELPER && !o->helper_sym[r->index]) {
            add_symbol(o, add_string(&o->strtab, NULL, helper_symbols[r->index]),
                       ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE), SHN_UNDEF, 0, 0);
            o->helper_sym[r->index] = next++;
        }
    }
    if (b->threw_flag)
        add_symbol(o, add_string(&o->strtab, NULL, CIRC_ABI_THREW_FLAG_SYMBOL), ELF64_ST_INFO(STB_WEAK, STT_NOTYPE),
                   SHN_ABS, 1, 0);
}

static void add_rela(Bytes *b, uint64_t offset, uint32_t sym, uint32_t type, int64_t addend)
{
    Elf64_Rela r = {.r_offset = offset, .r_info = ELF64_R_INFO(sym, type), .r_addend = addend};
    put(b, &r, sizeof r);
}

static uint32_t reloc_symbol(const ObjBuild *o, const Reloc *r)
{
    return r->target == TARGET_HELPER ? o->helper_sym[r->index] : o->func_sym0 + r->index;
}

/* the ELF type of a blob relocation's kind (0: none) and the addend it adds */
static uint32_t reloc_type(const ObjFormat *f, unsigned kind)
{
    switch (kind) {
    case RELOC_ABS64: return f->abs64;
    case RELOC_PC32: return f->pc32;
    case RELOC_BRANCH: return f->branch;
    case RELOC_PAGE21: return f->page21;
    case RELOC_LO12: return f->lo12;
    default: return 0;
    }
}

static int64_t reloc_bias(const ObjFormat *f, unsigned kind)
{
    return kind == RELOC_PC32 || kind == RELOC_BRANCH ? f->call_addend : 0;
}

/* the text relocations in offset order: the blob's relocations merged with its calls */
static void add_text_relocs(ObjBuild *o)
{
    const CodeBlob *b = o->blob;
    uint32_t i = 0, j = 0;
    while (i < b->nrelocs || j < b->ncalls) {
        bool take_reloc = j >= b->ncalls || (i < b->nrelocs && b->relocs[i].offset < b->calls[j].offset);
        if (take_reloc) {
            const Reloc *r = &b->relocs[i++];
            add_rela(&o->rela_text, r->offset, reloc_symbol(o, r), reloc_type(o->fmt, r->kind),
                     r->addend + reloc_bias(o->fmt, r->kind));
        } else {
            const Reloc *r = &b->calls[j++];
            add_rela(&o->rela_text, r->offset, reloc_symbol(o, r), o->fmt->call, o->fmt->call_addend + r->addend);
        }
    }
}

static void add_traps(ObjBuild *o)
{
    for (uint32_t i = 0; i < o->blob->ntraps; i++) {
        CircAbiTrap t = {.where = 0, .kind = o->blob->traps[i].kind};
        add_rela(&o->rela_traps, o->traps.n, 1, o->fmt->prel32, o->blob->traps[i].offset);
        put(&o->traps, &t, sizeof t);
    }
}

static bool fail(ObjBuild *o, const char *fmt, unsigned a, unsigned b)
{
    snprintf(o->err, o->errlen, fmt, a, b);
    return false;
}

static bool reloc_ok(const CodeBlob *b, const Reloc *r, uint32_t field)
{
    bool target_ok = r->target == TARGET_FUNC ? r->index < b->nfuncs
                   : r->target == TARGET_HELPER && r->index < HELPER_COUNT;
    return target_ok && r->offset <= b->size && b->size - r->offset >= field;
}

/* a blob whose tables point outside it is refused (the object would be corrupt) */
static bool blob_ok(ObjBuild *o)
{
    const CodeBlob *b = o->blob;
    for (uint32_t i = 0; i < b->nfuncs; i++)
        if (b->entry[i] > b->size || (i && b->entry[i] < b->entry[i - 1]))
            return fail(o, "function %u's entry 0x%x is out of order or outside the code", i, b->entry[i]);
    for (uint32_t i = 0; i < b->nrelocs; i++)
        if (!reloc_type(o->fmt, b->relocs[i].kind) ||
            !reloc_ok(b, &b->relocs[i], b->relocs[i].kind == RELOC_ABS64 ? 8 : 4) ||
            (i && b->relocs[i].offset < b->relocs[i - 1].offset))
            return fail(o, "relocation %u at 0x%x is not one an object can hold", i, b->relocs[i].offset);
    for (uint32_t i = 0; i < b->ncalls; i++)
        if (!reloc_ok(b, &b->calls[i], 4) || b->calls[i].target != TARGET_FUNC)
            return fail(o, "call site %u at 0x%x is not one an object can hold", i, b->calls[i].offset);
    for (uint32_t i = 0; i < b->ntraps; i++)
        if (b->traps[i].offset >= b->size)
            return fail(o, "trap site %u at 0x%x is outside the code", i, b->traps[i].offset);
    return true;
}

/* one section's header fields and contents */
typedef struct {
    uint32_t type;
    uint64_t flags;
    uint32_t link, info;
    uint64_t align, entsize;
    const Bytes *data;   /* NULL: empty */
} SecDesc;

static void describe(const ObjBuild *o, const Bytes *text, SecDesc *s)
{
    s[SEC_TEXT] = (SecDesc){SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 16, 0, text};
    s[SEC_RELA_TEXT] = (SecDesc){SHT_RELA, SHF_INFO_LINK, SEC_SYMTAB, SEC_TEXT, 8, sizeof(Elf64_Rela), &o->rela_text};
    s[SEC_TRAPS] = (SecDesc){SHT_PROGBITS, SHF_ALLOC, 0, 0, 8, 0, &o->traps};
    s[SEC_RELA_TRAPS] = (SecDesc){SHT_RELA, SHF_INFO_LINK, SEC_SYMTAB, SEC_TRAPS, 8, sizeof(Elf64_Rela),
                                  &o->rela_traps};
    s[SEC_NOTE] = (SecDesc){SHT_PROGBITS, 0, 0, 0, 1, 0, NULL};
    s[SEC_SYMTAB] = (SecDesc){SHT_SYMTAB, 0, SEC_STRTAB, o->func_sym0, 8, sizeof(Elf64_Sym), &o->symtab};
    s[SEC_STRTAB] = (SecDesc){SHT_STRTAB, 0, 0, 0, 1, 0, &o->strtab};
    s[SEC_SHSTRTAB] = (SecDesc){SHT_STRTAB, 0, 0, 0, 1, 0, &o->shstrtab};
}

static void put_header(Bytes *file, uint16_t machine, uint64_t shoff)
{
    Elf64_Ehdr h = {
        .e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT, ELFOSABI_NONE},
        .e_type = ET_REL, .e_machine = machine, .e_version = EV_CURRENT, .e_shoff = shoff,
        .e_ehsize = sizeof(Elf64_Ehdr), .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = SEC_COUNT,
        .e_shstrndx = SEC_SHSTRTAB,
    };
    memcpy(file->p, &h, sizeof h);
}

/* the sections' contents, then their headers, after a header filled in last */
static void lay_out(ObjBuild *o, const Bytes *text, Bytes *file)
{
    SecDesc sec[SEC_COUNT] = {{0}};
    describe(o, text, sec);
    uint32_t name_at[SEC_COUNT];
    for (int i = 0; i < SEC_COUNT; i++)
        name_at[i] = add_string(&o->shstrtab, NULL, section_names[i]);
    Elf64_Shdr sh[SEC_COUNT] = {{0}};
    put(file, &(Elf64_Ehdr){0}, sizeof(Elf64_Ehdr));
    for (int i = 1; i < SEC_COUNT; i++) {
        align_to(file, sec[i].align);
        size_t n = sec[i].data ? sec[i].data->n : 0;
        sh[i] = (Elf64_Shdr){.sh_name = name_at[i], .sh_type = sec[i].type, .sh_flags = sec[i].flags,
                             .sh_offset = file->n, .sh_size = n, .sh_link = sec[i].link,
                             .sh_info = sec[i].info, .sh_addralign = sec[i].align, .sh_entsize = sec[i].entsize};
        if (n)
            put(file, sec[i].data->p, n);
    }
    align_to(file, 8);
    uint64_t shoff = file->n;
    put(file, sh, sizeof sh);
    if (!file->failed)
        put_header(file, o->fmt->machine, shoff);
}

static void free_build(ObjBuild *o)
{
    Bytes *all[] = {&o->strtab, &o->symtab, &o->rela_text, &o->traps, &o->rela_traps, &o->shstrtab};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]->p);
}

static bool any_failed(const ObjBuild *o)
{
    return o->strtab.failed || o->symtab.failed || o->rela_text.failed || o->traps.failed ||
           o->rela_traps.failed || o->shstrtab.failed;
}

bool obj_write_elf(const CodeBlob *blob, const Target *target, const char *const *names,
                   const char *prefix, ObjImage *out, char *err, size_t errlen)
{
    ObjBuild o = {.blob = blob, .fmt = target->obj, .err = err, .errlen = errlen};
    *out = (ObjImage){0};
    if (!o.fmt) {
        snprintf(err, errlen, "target %s writes no objects", target->name);
        return false;
    }
    if (blob->isa != target->isa)
        return fail(&o, "the code is of ISA %u, the target's is %u", blob->isa, target->isa);
    if (!blob_ok(&o))
        return false;
    add_symbols(&o, names, prefix);
    add_text_relocs(&o);
    add_traps(&o);
    Bytes text = {.p = blob->code, .n = blob->size}, file = {0};
    if (!any_failed(&o))
        lay_out(&o, &text, &file);
    bool ok = !any_failed(&o) && !file.failed;
    free_build(&o);
    if (!ok) {
        free(file.p);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    *out = (ObjImage){file.p, file.n};
    return true;
}
