/* elf_load.c — the ELF loader of the Unicorn harness (oracle/elf_load.h):
 *   - circ's objects of the given modules, both targets, load into the bytes,
 *     entries and trap table the emulator would make of the blob, and every run line
 *     run from the loaded image gives the interpreter's outcome;
 *   - objects of the system's C compilers calling only the runtime load and run;
 *   - bad objects (every truncation, the wrong machine, an unknown relocation, a
 *     corrupt symbol, random corruption) are errors with a message, never a crash.
 *   elf_load GCC_SOURCE FILE... */
#include "compiler/compile.h"
#include "compiler/lir/objwrite.h"
#include "compiler/target.h"
#include "oracle/blob_reloc.h"
#include "oracle/elf_load.h"
#include "oracle/emu.h"
#include "oracle/interp.h"
#include "test_check.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the object circ writes for m on t (O2) with its blob; false if it cannot compile */
static bool make_object(const Module *m, const Target *t, Arena *arena, CodeBlob *blob, ObjImage *obj)
{
    Diag d;
    diag_init(&d, m->file, stderr);
    CompileOptions opt = {.opt_level = 2};
    if (!compile_module(m, t, &opt, arena, blob, NULL, &d))
        return false;
    const char *names[256];
    for (uint32_t i = 0; i < m->nfuncs && i < 256; i++)
        names[i] = m->funcs[i]->name;
    char err[256];
    bool ok = m->nfuncs <= 256 && obj_write_elf(blob, t, names, NULL, obj, err, sizeof err);
    CHECK(ok, "%s (%s): no object: %s", m->file, t->name, err);
    return ok;
}

/* the code bytes with the blob's relocations filled as the emulator fills them */
static uint8_t *expected_bytes(const CodeBlob *b)
{
    uint8_t *code = malloc(b->size + 1);
    memcpy(code, b->code, b->size);
    for (uint32_t i = 0; i < b->nrelocs; i++) {
        const Reloc *r = &b->relocs[i];
        uint64_t target = r->target == TARGET_FUNC ? EMU_CODE_ADDR + b->entry[r->index] : emu_helper_addr((Helper)r->index);
        CHECK(blob_reloc_apply(b->isa, code, EMU_CODE_ADDR, r, target), "relocation %u applies", i);
    }
    return code;
}

static void compare_image(const Module *m, const Target *t, const CodeBlob *b, const ElfImage *img)
{
    uint8_t *want = expected_bytes(b);
    CHECK(img->size >= b->size && !memcmp(img->image, want, b->size), "%s (%s): loaded bytes differ", m->file, t->name);
    free(want);
    CHECK(img->ntraps == b->ntraps, "%s (%s): %u trap sites loaded, %u made", m->file, t->name, img->ntraps, b->ntraps);
    for (uint32_t i = 0; i < img->ntraps && i < b->ntraps; i++)
        CHECK(img->traps[i].offset == b->traps[i].offset && img->traps[i].kind == b->traps[i].kind,
              "%s (%s): trap site %u differs", m->file, t->name, i);
}

/* every run line from the loaded image against the interpreter */
static void run_lines(const Module *m, const Target *t, const ElfImage *img)
{
    const char *names[256];
    uint32_t entry[256];
    for (uint32_t i = 0; i < m->nfuncs; i++)
        names[i] = m->funcs[i]->name;
    CodeBlob blob;
    char err[256];
    Emu *e = emu_new(t->isa);
    bool ok = e && elf_image_blob(img, t->isa, names, m->nfuncs, entry, &blob, err, sizeof err) && emu_load(e, &blob);
    CHECK(ok, "%s (%s): the loaded image does not run: %s", m->file, t->name, e ? emu_error(e) : "no engine");
    for (uint32_t i = 0; ok && i < m->nruns; i++) {
        uint64_t args[256];
        runline_args(&m->runs[i], args);
        Outcome want, got;
        interp_run(m, m->runs[i].func, args, NULL, &want);
        if (want.kind == OUT_TIMEOUT || want.kind == OUT_INVALID)
            continue;
        emu_call_func(e, m->funcs[m->runs[i].func], args, emu_budget_from(&want, 64), &got);
        char why[200] = "";
        CHECK(outcome_equal(&want, &got, why, sizeof why), "%s:%u (%s): from the object: %s", m->file,
              m->runs[i].line, t->name, why);
    }
    emu_free(e);
}

static void check_circ_objects(const char *file, ObjImage *keep)
{
    Diag d;
    diag_init(&d, file, stderr);
    Module *m = parse_file(file, &d);
    CHECK(m && m->nfuncs <= 256, "%s does not parse", file);
    for (unsigned ti = 0; m && ti < target_count(); ti++) {
        const Target *t = target_at(ti);
        Arena *arena = arena_new();
        CodeBlob blob;
        ObjImage obj = {0};
        ElfImage img;
        char err[256];
        if (make_object(m, t, arena, &blob, &obj)) {
            bool ok = elf_load(obj.data, obj.size, elf_machine(t->isa), EMU_CODE_ADDR, elf_resolve_emu_stub, NULL,
                               &img, err, sizeof err);
            CHECK(ok, "%s (%s): the loader refuses circ's object: %s", file, t->name, err);
            if (ok) {
                compare_image(m, t, &blob, &img);
                run_lines(m, t, &img);
                elf_image_free(&img);
            }
            /* base 0 is a base like any other (the native stage sizes an image there) */
            ok = elf_load(obj.data, obj.size, elf_machine(t->isa), 0, elf_resolve_emu_stub, NULL, &img, err, sizeof err);
            CHECK(ok && img.nfuncs == m->nfuncs, "%s (%s): the object does not load at base 0: %s", file, t->name, err);
            if (ok)
                elf_image_free(&img);
        }
        if (keep && !keep[ti].data)
            keep[ti] = obj;
        else
            free(obj.data);
        arena_free(arena);
    }
    module_free(m);
}

static bool load_fails(const uint8_t *data, size_t n, uint16_t machine, const char *expect)
{
    ElfImage img;
    char err[256] = "";
    bool ok = elf_load(data, n, machine, EMU_CODE_ADDR, elf_resolve_emu_stub, NULL, &img, err, sizeof err);
    if (ok)
        elf_image_free(&img);
    return !ok && err[0] && (!expect || strstr(err, expect));
}

/* the contents of the object's first non-empty section of type (NULL if none), its
 * size in *n */
static uint8_t *first_section(uint8_t *data, size_t size, uint32_t type, uint64_t *n)
{
    Elf64_Ehdr h;
    memcpy(&h, data, sizeof h);
    for (unsigned i = 1; i < h.e_shnum && h.e_shoff + (i + 1) * sizeof(Elf64_Shdr) <= size; i++) {
        Elf64_Shdr s;
        memcpy(&s, data + h.e_shoff + i * sizeof s, sizeof s);
        *n = s.sh_size;
        if (s.sh_type == type && s.sh_size)
            return data + s.sh_offset;
    }
    return NULL;
}

/* the first relocation entry of the object (NULL if it has none) */
static uint8_t *first_rela(uint8_t *data, size_t size)
{
    uint64_t n;
    return first_section(data, size, SHT_RELA, &n);
}

/* the object's first STT_FUNC symbol made absolute (SHN_ABS, value 0); false if it
 * has none */
static bool make_func_absolute(uint8_t *data, size_t size)
{
    uint64_t n = 0;
    uint8_t *syms = first_section(data, size, SHT_SYMTAB, &n);
    for (uint64_t at = 0; syms && at + sizeof(Elf64_Sym) <= n; at += sizeof(Elf64_Sym)) {
        Elf64_Sym s;
        memcpy(&s, syms + at, sizeof s);
        if (ELF64_ST_TYPE(s.st_info) == STT_FUNC) {
            s.st_shndx = SHN_ABS;
            s.st_value = 0;
            memcpy(syms + at, &s, sizeof s);
            return true;
        }
    }
    return false;
}

static void set_rela_info(uint8_t *rela, uint64_t info) { memcpy(rela + 8, &info, sizeof info); }

static void check_bad_objects(const ObjImage *obj, uint16_t machine, uint16_t other)
{
    for (size_t n = 0; n < obj->size; n++)
        CHECK(load_fails(obj->data, n, machine, n < 64 ? "truncated" : NULL), "a truncation to %zu bytes loads", n);
    CHECK(load_fails(obj->data, 40, machine, "truncated"), "truncated: no message saying so");
    CHECK(load_fails(obj->data, obj->size, other, "wrong machine"), "the wrong machine loads");
    uint8_t *copy = malloc(obj->size);
    memcpy(copy, obj->data, obj->size);
    uint8_t *rela = first_rela(copy, obj->size);
    CHECK(rela != NULL, "the sample object has no relocation");
    if (rela) {
        uint64_t info;
        memcpy(&info, rela + 8, sizeof info);
        set_rela_info(rela, ELF64_R_INFO(ELF64_R_SYM(info), 999));
        CHECK(load_fails(copy, obj->size, machine, "unknown relocation type 999"), "an unknown relocation loads");
        set_rela_info(rela, ELF64_R_INFO(0xffffffu, ELF64_R_TYPE(info)));
        CHECK(load_fails(copy, obj->size, machine, "symbol"), "a relocation of a missing symbol loads");
    }
    memcpy(copy, obj->data, obj->size); /* a function at an absolute address, outside the image */
    CHECK(make_func_absolute(copy, obj->size) && load_fails(copy, obj->size, machine, "is absolute"),
          "an absolute function symbol loads");
    /* random corruption: 1-4 bytes replaced, never a crash (the sanitized build sees) */
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned refused = 0;
    for (unsigned round = 0; round < 20000; round++) {
        memcpy(copy, obj->data, obj->size);
        for (unsigned k = 0; k <= round % 4; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            copy[(seed >> 33) % obj->size] = (uint8_t)(seed >> 17);
        }
        refused += load_fails(copy, obj->size, machine, NULL);
    }
    CHECK(refused > 100, "random corruption refused only %u times in 20000", refused);
    free(copy);
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = f ? malloc(1 << 20) : NULL;
    *n = buf ? fread(buf, 1, 1 << 20, f) : 0;
    if (f)
        fclose(f);
    return buf;
}

static void call_and_check(Emu *e, const char *what, uint32_t func, const Type *types, uint32_t n,
                           const uint64_t *args, Type ret, uint64_t want)
{
    Outcome o;
    emu_call(e, func, types, n, args, ret, 0, &o);
    char buf[256];
    outcome_format(buf, sizeof buf, &o);
    CHECK(o.kind == OUT_RETURN && o.bits == want, "%s: %s, expected 0x%llx", what, buf, (unsigned long long)want);
}

static void run_c_object(Isa isa, const ElfImage *img, const char *what)
{
    static const char *const names[] = {"scaled_fmod", "pick", "poke"};
    uint32_t entry[3];
    CodeBlob blob;
    char err[256] = "";
    Emu *e = emu_new(isa);
    bool ok = e && elf_image_blob(img, isa, names, 3, entry, &blob, err, sizeof err) && emu_load(e, &blob);
    CHECK(ok, "%s: the loaded object does not run: %s %s", what, err, e ? emu_error(e) : "");
    if (ok) {
        double a = 7.5, b = 2.0, r = 3.75;
        uint64_t fargs[2], want;
        memcpy(&fargs[0], &a, 8);
        memcpy(&fargs[1], &b, 8);
        memcpy(&want, &r, 8);
        call_and_check(e, "scaled_fmod(7.5, 2)", 0, (Type[]){TY_F64, TY_F64}, 2, fargs, TY_F64, want);
        static const uint64_t picks[7] = {21, 30, 3, 10 ^ 0x55, 40, (uint64_t)-10, 99};
        for (uint64_t k = 0; k < 7; k++)
            call_and_check(e, "pick(k, 10)", 1, (Type[]){TY_I64, TY_I64}, 2, (uint64_t[]){k, 10}, TY_I64, picks[k]);
        Outcome o;
        emu_call(e, 2, (Type[]){TY_I64, TY_I32}, 2, (uint64_t[]){HEAP_ADDR, 0x77}, TY_I32, 0, &o);
        CHECK(o.kind == OUT_RETURN && o.bits == heap_pattern()[0] && o.heap[5] == 0x77,
              "%s: poke(heap, 0x77) did not store and load through the harness buffer", what);
    }
    emu_free(e);
}

/* the C file compiled by each system compiler found, loaded and run */
static unsigned check_c_objects(const char *src)
{
    static const struct { Isa isa; const char *cc; } compilers[] = {
        {ISA_X64, "cc"}, {ISA_X64, "clang"}, {ISA_A64, "aarch64-linux-gnu-gcc"},
    };
    unsigned ran = 0;
    for (size_t i = 0; i < sizeof compilers / sizeof compilers[0]; i++) {
        char cmd[1024], obj[] = "/tmp/circ_elf_load_XXXXXX";
        int fd = mkstemp(obj);
        if (fd < 0)
            continue;
        close(fd);
        snprintf(cmd, sizeof cmd, "command -v %s >/dev/null && %s -O2 -c %s -o %s", compilers[i].cc, compilers[i].cc,
                 src, obj);
        if (system(cmd) == 0) {
            size_t n;
            uint8_t *data = read_all(obj, &n);
            ElfImage img;
            char err[256];
            bool ok = data && elf_load(data, n, elf_machine(compilers[i].isa), EMU_CODE_ADDR, elf_resolve_emu_stub,
                                       NULL, &img, err, sizeof err);
            CHECK(ok, "%s's object does not load: %s", compilers[i].cc, err);
            if (ok) {
                run_c_object(compilers[i].isa, &img, compilers[i].cc);
                elf_image_free(&img);
                ran++;
            }
            free(data);
        } else {
            printf("skipped: %s is not installed\n", compilers[i].cc);
        }
        remove(obj);
    }
    return ran;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: elf_load GCC_SOURCE FILE...\n");
        return 2;
    }
    ObjImage keep[TARGET_MAX] = {{0}};
    for (int i = 2; i < argc; i++)
        check_circ_objects(argv[i], keep);
    for (unsigned ti = 0; ti < target_count(); ti++) {
        Isa isa = target_at(ti)->isa;
        if (keep[ti].data)
            check_bad_objects(&keep[ti], elf_machine(isa), elf_machine(isa == ISA_X64 ? ISA_A64 : ISA_X64));
        free(keep[ti].data);
    }
    unsigned c_objects = check_c_objects(argv[1]);
    CHECK(c_objects >= 1, "no C compiler's object was loaded");
    printf("elf_load: %d checks, %d failures (%u C compilers' objects)\n", checks, failures, c_objects);
    return failures != 0;
}
