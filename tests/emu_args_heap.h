/* emu_args_heap.h — the argument-passing check shared by emu_x64.c and emu_a64.c
 * (after tests/emu_util.h): integer and mixed arguments, stack ones included, reach
 * the callee and the heap is refilled between runs. */
#ifndef CIRC_TESTS_EMU_ARGS_HEAP_H
#define CIRC_TESTS_EMU_ARGS_HEAP_H

/* the hand-assembled functions the check calls (indices in the loaded blob) */
typedef struct {
    uint32_t args9, mixed, konst;
} ArgsHeapFuncs;

/* args9 stores its 9 integer arguments to the heap and returns the last; mixed
 * stores 9 doubles and an integer; konst runs after them: the heap is refilled.
 * int_what / mixed_what name where the ISA passes them, in the checks' messages */
static void check_args_heap(Tally *t, Emu *e, const ArgsHeapFuncs *f, const char *int_what,
                            const char *mixed_what, Outcome *o)
{
    Type ty[10];
    uint64_t args[10];
    for (int i = 0; i < 9; i++) {
        ty[i] = TY_I64;
        args[i] = 0x1111111111111111ull * (uint64_t)(i + 1);
    }
    emu_call(e, f->args9, ty, 9, args, TY_I64, 0, o);
    bool ok = is_return(o, TY_I64, args[8]) && heap_is_pattern(o, 0, 72);
    for (int i = 0; i < 9; i++)
        ok = ok && heap_u64(o, 8u * (uint32_t)i) == args[i];
    expect(t, ok, int_what, o);
    for (int i = 0; i < 9; i++) {
        ty[i] = TY_F64;
        args[i] = f64_bits(0.5 + i);
    }
    ty[9] = TY_I64;
    args[9] = 0x0123456789ABCDEFull;
    emu_call(e, f->mixed, ty, 10, args, TY_NONE, 0, o);
    ok = o->kind == OUT_RETURN && o->type == TY_NONE && heap_is_pattern(o, 0, 80);
    for (int i = 0; i < 10; i++)
        ok = ok && heap_u64(o, 8u * (uint32_t)i) == args[i];
    expect(t, ok, mixed_what, o);
    emu_call(e, f->konst, NULL, 0, NULL, TY_I32, 0, o);
    expect(t, o->kind == OUT_RETURN && heap_is_pattern(o, 0, 0), "heap refilled before the next run", o);
}

#endif
