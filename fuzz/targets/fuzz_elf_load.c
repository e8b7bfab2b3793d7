/* fuzz_elf_load.c — libFuzzer target: arbitrary bytes -> the harness's ELF loader
 * (oracle/elf_load.h), as an x86-64 and as an AArch64 object, at the emulator's code
 * address and at one far from the runtime's stubs (every helper then gets a veneer).
 * Nothing may crash or read outside the input; a refusal must say why; an image that
 * loads must keep its functions and trap sites inside it, its veneers inside its code.  Seed corpus: objects of
 * `circ compile -o`. */
#include "oracle/elf_load.h"

#include <stdlib.h>

static void load_as(const uint8_t *data, size_t size, Isa isa, uint64_t base)
{
    ElfImage img;
    char err[256] = "";
    if (!elf_load(data, size, elf_machine(isa), base, elf_resolve_emu_stub, NULL, &img, err, sizeof err)) {
        if (!err[0])
            abort(); /* a refusal without a reason */
        return;
    }
    for (uint32_t i = 0; i < img.nfuncs; i++)
        if (img.funcs[i].addr < img.base || img.funcs[i].addr > img.base + img.size)
            abort();
    for (uint32_t i = 0; i < img.ntraps; i++)
        if (img.traps[i].offset >= img.exec_size)
            abort();
    if ((uint64_t)img.nveneers * 16 > img.exec_size)
        abort();
    elf_image_free(&img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_as(data, size, ISA_X64, 0x400000);
    load_as(data, size, ISA_A64, 0x400000);
    load_as(data, size, ISA_X64, 0x7f0000000000ull);
    load_as(data, size, ISA_A64, 0x7f0000000000ull);
    return 0;
}
