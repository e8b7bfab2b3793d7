/* emu_args_heap.h — checks shared by emu_x64.c and emu_a64.c (after
 * tests/emu_util.h): integer and mixed arguments, stack ones included, reach the
 * callee; the heap is refilled and the stack refilled with a pattern between runs. */
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

/* whatever a run writes to the stack is gone at the next run, which finds the
 * harness pattern instead (never zero; the same for the same call): in the part
 * mapped on first touch (deep), and at the top that is always mapped.  store:
 * [arg0] = arg1; load: returns [arg0] */
static void check_stack_reset(Tally *t, Emu *e, uint32_t store, uint32_t load, Outcome *o)
{
    const uint64_t where[] = {EMU_STACK_ADDR + 64, EMU_STACK_ADDR + EMU_STACK_SIZE / 2,
                              EMU_STACK_ADDR + EMU_STACK_SIZE - 512};
    const Type ty[] = {TY_I64, TY_I64};
    for (int i = 0; i < 3; i++) {
        uint64_t args[2] = {where[i], 0x5555AAAA5555AAAAull};
        emu_call(e, store, ty, 2, args, TY_NONE, 0, o);
        bool ok = o->kind == OUT_RETURN;
        emu_call(e, load, ty, 1, args, TY_I64, 0, o);
        uint64_t first = o->bits;
        expect(t, ok && o->kind == OUT_RETURN && first != args[1] && no_zero_byte(first),
               "the stack holds the pattern again at the next run", o);
        emu_call(e, load, ty, 1, args, TY_I64, 0, o);
        expect(t, is_return(o, TY_I64, first), "the same call finds the same pattern", o);
    }
}

#endif
