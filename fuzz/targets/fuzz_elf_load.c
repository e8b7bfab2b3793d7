/* fuzz_elf_load.c — libFuzzer target: arbitrary bytes -> the harness's ELF loader
 * (oracle/elf_load.h), as an x86-64 and as an AArch64 object.  Nothing may crash or
 * read outside the input; a refusal must say why; an image that loads must keep
 * its functions and trap sites inside it.  Seed corpus: objects of
 * `circ compile -o`. */
#include "oracle/elf_load.h"

#include <stdlib.h>

static void load_as(const uint8_t *data, size_t size, Isa isa)
{
    ElfImage img;
    char err[256] = "";
    if (!elf_load(data, size, elf_machine(isa), 0x400000, elf_resolve_emu_stub, NULL, &img, err, sizeof err)) {
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
    elf_image_free(&img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_as(data, size, ISA_X64);
    load_as(data, size, ISA_A64);
    return 0;
}
