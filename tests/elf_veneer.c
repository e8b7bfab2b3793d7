/* elf_veneer.c — position-independent code and the ELF loader's veneers: hand-made
 * blobs of both ISAs (a symbol's address by lea rip / adrp + add, a helper's direct
 * call) written as objects and loaded with the helpers resolved near the image (the
 * fields reach the helper itself, no veneer) and far from it (every field reaches a
 * veneer that jumps to the helper); the relocation fields' ranges; and on an x86-64
 * or ARM64 host a module calling FMOD compiled, loaded into an mmap'd page with the
 * helper resolved to libcirc_rt's function in this program (far from the page) and
 * called on the CPU through its veneer. */
#include "compiler/compile.h"
#include "compiler/lir/objwrite.h"
#include "compiler/target.h"
#include "oracle/blob_reloc.h"
#include "oracle/elf_load.h"
#include "oracle/emu.h"
#include "runtime/circ_rt.h"
#include "test_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { BASE = 0x400000 };
#define FAR_HELPER 0x7f1234567000ull /* a host library's address: far from BASE */

/* the resolver of the test: every runtime symbol at FAR_HELPER (ctx non-NULL) or at
 * the emulator's stubs */
static bool resolve(void *ctx, const char *name, uint64_t *addr)
{
    if (!elf_resolve_emu_stub(NULL, name, addr))
        return false;
    if (ctx)
        *addr = FAR_HELPER;
    return true;
}

/* x86-64: lea rax, [rip + helper]; call helper; ret */
static const uint8_t x64_code[] = {0x48, 0x8d, 0x05, 0, 0, 0, 0, 0xe8, 0, 0, 0, 0, 0xc3};
/* AArch64: adrp x0, helper; add x0, x0, :lo12:helper; bl helper; ret */
static const uint32_t a64_code[] = {0x90000000u, 0x91000000u, 0x94000000u, 0xd65f03c0u};

/* the blob of one ISA's code above: three relocations to HELPER_FMOD_F64 */
static CodeBlob hand_blob(Isa isa, uint8_t *code, uint32_t *entry, Reloc *r)
{
    CodeBlob b = {.isa = isa, .code = code, .entry = entry, .nfuncs = 1, .relocs = r};
    Helper h = HELPER_FMOD_F64;
    if (isa == ISA_X64) {
        memcpy(code, x64_code, sizeof x64_code);
        b.size = sizeof x64_code;
        r[0] = (Reloc){3, RELOC_PC32, TARGET_HELPER, h, 0};
        r[1] = (Reloc){8, RELOC_BRANCH, TARGET_HELPER, h, 0};
        b.nrelocs = 2;
    } else {
        for (unsigned i = 0; i < 4; i++)
            reloc_put_le(code + 4 * i, 4, a64_code[i]);
        b.size = sizeof a64_code;
        r[0] = (Reloc){0, RELOC_PAGE21, TARGET_HELPER, h, 0};
        r[1] = (Reloc){4, RELOC_LO12, TARGET_HELPER, h, 0};
        r[2] = (Reloc){8, RELOC_BRANCH, TARGET_HELPER, h, 0};
        b.nrelocs = 3;
    }
    return b;
}

static int64_t sign_extend(uint64_t v, unsigned bits) { return (int64_t)(v << (64 - bits)) >> (64 - bits); }

/* the addresses the loaded code's fields reach: *addr (lea / adrp + add), *call */
static void reached(const ElfImage *img, Isa isa, uint64_t *addr, uint64_t *call)
{
    const uint8_t *c = img->image;
    if (isa == ISA_X64) {
        *addr = img->base + 7 + (uint64_t)sign_extend(reloc_get_le(c + 3, 4), 32);
        *call = img->base + 12 + (uint64_t)sign_extend(reloc_get_le(c + 8, 4), 32);
        return;
    }
    uint32_t adrp = (uint32_t)reloc_get_le(c, 4), add = (uint32_t)reloc_get_le(c + 4, 4);
    uint64_t pages = (uint64_t)((adrp >> 5) & 0x7ffff) << 2 | ((adrp >> 29) & 3);
    *addr = (img->base & ~0xfffull) + (uint64_t)sign_extend(pages, 21) * 4096 + ((add >> 10) & 0xfff);
    *call = img->base + 8 + (uint64_t)sign_extend(reloc_get_le(c + 8, 4) & 0x3ffffff, 26) * 4;
}

/* the veneer at addr jumps to target */
static bool veneer_jumps(const ElfImage *img, Isa isa, uint64_t addr, uint64_t target)
{
    if (addr < img->base || addr + 16 > img->base + img->exec_size)
        return false;
    const uint8_t *v = img->image + (addr - img->base);
    if (isa == ISA_X64)
        return v[0] == 0xff && v[1] == 0x25 && reloc_get_le(v + 2, 4) == 0 && reloc_get_le(v + 6, 8) == target;
    return reloc_get_le(v, 4) == 0x58000050u && reloc_get_le(v + 4, 4) == 0xd61f0200u && reloc_get_le(v + 8, 8) == target;
}

static void check_hand_objects(void)
{
    for (unsigned ti = 0; ti < target_count(); ti++) {
        const Target *t = target_at(ti);
        uint8_t code[32];
        uint32_t entry[1] = {0};
        Reloc r[3];
        CodeBlob b = hand_blob(t->isa, code, entry, r);
        const char *names[] = {"f"};
        ObjImage obj;
        char err[256];
        bool ok = obj_write_elf(&b, t, names, NULL, &obj, err, sizeof err);
        CHECK(ok, "%s: no object: %s", t->name, err);
        for (int far = 0; ok && far < 2; far++) {
            ElfImage img;
            bool loaded = elf_load(obj.data, obj.size, elf_machine(t->isa), BASE, resolve, far ? (void *)1 : NULL,
                                   &img, err, sizeof err);
            CHECK(loaded, "%s: the object does not load (%s helper): %s", t->name, far ? "far" : "near", err);
            if (!loaded)
                continue;
            uint64_t addr, call, stub = emu_helper_addr(HELPER_FMOD_F64);
            reached(&img, t->isa, &addr, &call);
            if (far) {
                CHECK(img.nveneers == 1, "%s: one veneer for the far helper, %u made", t->name, img.nveneers);
                CHECK(addr == call && veneer_jumps(&img, t->isa, addr, FAR_HELPER),
                      "%s: the address and the call reach a veneer to the helper (0x%llx, 0x%llx)", t->name,
                      (unsigned long long)addr, (unsigned long long)call);
            } else {
                CHECK(img.nveneers == 0, "%s: no veneer for a helper in reach", t->name);
                CHECK(addr == stub && call == stub, "%s: the fields reach the stub 0x%llx (0x%llx, 0x%llx)", t->name,
                      (unsigned long long)stub, (unsigned long long)addr, (unsigned long long)call);
            }
            elf_image_free(&img);
        }
        free(obj.data);
    }
}

/* the fields' ranges: a value one past the reach is refused */
static void check_ranges(void)
{
    uint8_t w[8] = {0};
    CHECK(reloc_rel32(w, INT32_MAX) && !reloc_rel32(w, (int64_t)INT32_MAX + 1) && !reloc_rel32(w, (int64_t)INT32_MIN - 1),
          "rel32 reaches +-2 GiB and no further");
    CHECK(reloc_a64_branch(w, (1 << 27) - 4, 0, 26) && !reloc_a64_branch(w, 1 << 27, 0, 26) &&
              !reloc_a64_branch(w, 2, 0, 26), "bl reaches +-128 MiB in words and no further");
    CHECK(reloc_a64_page(w, 0xfffff000ull + 0x100000000ull, 0x100000000ull) &&
              !reloc_a64_page(w, 0x100000000ull + 0x100000000ull, 0x100000000ull),
          "adrp reaches +-4 GiB and no further");
    Reloc r = {0, RELOC_PAGE21, TARGET_HELPER, 0, 0};
    CHECK(!blob_reloc_apply(ISA_X64, w, 0, &r, 0) && blob_reloc_size(ISA_X64, RELOC_LO12) == 0,
          "an AArch64 kind is not x86-64's");
    r.kind = RELOC_BRANCH;
    CHECK(!blob_reloc_apply(ISA_A64, w, 0, &r, 1u << 28), "a blob's bl out of range is refused");
}

#if defined(__x86_64__) || defined(__aarch64__)
#ifdef __x86_64__
#define HOST_ISA ISA_X64
#else
#define HOST_ISA ISA_A64
#endif

static bool resolve_host(void *ctx, const char *name, uint64_t *addr)
{
    (void)ctx;
    if (strcmp(name, "circ_rt_fmod_f64"))
        return false;
    *addr = (uint64_t)(uintptr_t)circ_rt_fmod_f64;
    return true;
}

/* @m(a, b) = FMOD a b compiled for the host, run from an mmap'd page */
static void check_host_call(void)
{
    static const char src[] = "func @m(f64, f64) -> f64 {\n  %a = ARG f64 0\n  %b = ARG f64 1\n"
                              "  %r = FMOD f64 (%a, %b)\n  RETURN [entry] {entry} (%r)\n}\n";
    Diag d;
    diag_init(&d, "fmod.circ", stderr);
    Module *m = parse_module("fmod.circ", src, sizeof src - 1, &d);
    const Target *t = target_for_isa(HOST_ISA);
    Arena *arena = arena_new();
    CodeBlob blob;
    CompileOptions opt = {.opt_level = 2};
    ObjImage obj = {0};
    ElfImage img = {0};
    char err[256] = "";
    const char *names[] = {"m"};
    size_t size = 1 << 16;
    uint8_t *page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bool ok = m && page != MAP_FAILED && compile_module(m, t, &opt, arena, &blob, NULL, &d) &&
              obj_write_elf(&blob, t, names, NULL, &obj, err, sizeof err) &&
              elf_load(obj.data, obj.size, elf_machine(t->isa), (uint64_t)(uintptr_t)page, resolve_host, NULL, &img,
                       err, sizeof err) &&
              img.size <= size;
    CHECK(ok, "the host's FMOD module does not load: %s", err);
    uint64_t far = (uint64_t)(uintptr_t)circ_rt_fmod_f64, at = (uint64_t)(uintptr_t)page;
    uint64_t reach = (t->isa == ISA_X64 ? 1ull << 31 : 1ull << 27) - (64u << 20); /* elf_load.c's rule */
    bool is_far = (far > at ? far - at : at - far) >= reach;
    if (ok && is_far)
        CHECK(img.nveneers == 1, "the helper far from the page has a veneer (%u)", img.nveneers);
    uint64_t entry;
    if (ok && elf_image_func(&img, "m", &entry)) {
        memcpy(page, img.image, img.size);
        __builtin___clear_cache((char *)page, (char *)page + img.size);
        ok = mprotect(page, size, PROT_READ | PROT_EXEC) == 0;
        double (*fn)(double, double) = (double (*)(double, double))(uintptr_t)entry;
        double got = ok ? fn(7.5, 2.0) : 0;
        CHECK(got == fmod(7.5, 2.0), "m(7.5, 2) through the veneer: %g", got);
    }
    if (page != MAP_FAILED)
        munmap(page, size);
    elf_image_free(&img);
    free(obj.data);
    arena_free(arena);
    module_free(m);
}
#else
static void check_host_call(void) {}
#endif

int main(void)
{
    check_hand_objects();
    check_ranges();
    check_host_call();
    printf("elf_veneer: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
