/* main.c — a generic driver for a circ module linked as an object (docs/objects.md):
 * `./a.out NAME ARG...` calls the module's function NAME with each ARG's bits
 * (decimal or 0x hex, `heap` for the harness buffer, `@F` for function F's address) through the callers of the
 * module's header (circ compile --emit=header -o circ_module.h) and prints the
 * outcome (`return 0xBITS`, `return void`, `trap KIND`, `throw 0xBITS`), then each
 * byte of the harness buffer the call changed (`heap+0xOFF: OLD -> NEW`).  Exit 0
 * after a call, 2 on a usage error. */
#define CIRC_MODULE_TABLE
#include "circ_module.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const CircRtFunc *find_func(const char *name)
{
    for (size_t i = 0; i < CIRC_MODULE_NFUNCS; i++)
        if (!strcmp(circ_module_funcs[i].name, name))
            return &circ_module_funcs[i];
    return NULL;
}

static void print_outcome(const CircRtOutcome *o, bool is_void)
{
    if (o->kind == CIRC_RT_TRAP)
        printf("trap %s\n", circ_rt_trap_name(o->trap));
    else if (o->kind == CIRC_RT_THROW)
        printf("throw 0x%" PRIx64 "\n", o->bits);
    else if (is_void)
        printf("return void\n");
    else
        printf("return 0x%" PRIx64 "\n", o->bits);
}

static void print_heap_changes(const uint8_t *heap)
{
    for (unsigned i = 0; i < CIRC_ABI_HEAP_SIZE; i++)
        if (heap[i] != circ_abi_heap_byte(i))
            printf("heap+0x%03x: %02x -> %02x\n", i, circ_abi_heap_byte(i), heap[i]);
}

int main(int argc, char **argv)
{
    const CircRtFunc *f = argc >= 2 ? find_func(argv[1]) : NULL;
    if (!f || (uint32_t)argc - 2 != f->nparams) {
        fprintf(stderr, "usage: %s NAME ARG... (a function of the module and its arguments)\n", argv[0]);
        return 2;
    }
    uint64_t args[256] = {0};
    for (int i = 2; i < argc && i - 2 < 256; i++)
        args[i - 2] = !strcmp(argv[i], "heap") ? CIRC_ABI_HEAP_ADDR
                      : argv[i][0] == '@' && find_func(argv[i] + 1) ? find_func(argv[i] + 1)->addr
                                                                    : strtoull(argv[i], NULL, 0);
    CircRtOutcome o;
    if (!circ_rt_heap_reset() || !circ_rt_call(f->call, args, &o)) {
        fprintf(stderr, "%s: cannot set up the harness buffer or the trap handlers\n", argv[0]);
        return 2;
    }
    print_outcome(&o, f->returns_void);
    print_heap_changes(circ_rt_heap());
    return 0;
}
