/* frame.c — the x86-64 prologue and epilogue of an allocated Code (the frame laid
 * out by the stack allocator, compiler/lir/regalloc.h):
 *     push %rbp; mov %rsp, %rbp; sub $frame.size, %rsp; save callee-saved registers
 * and before every return
 *     restore them; mov %rbp, %rsp; pop %rbp
 * The frame base %rbp is 16-byte aligned, and so is %rsp at every call (frame.size
 * is a multiple of 16).  A leaf with no frame contents and no use of %rbp gets
 * neither. */
#include "x64.h"
#include "x64_internal.h"

static bool is_return(const Inst *in)
{
    switch (in->op) {
    case LIR_RetVoid: case LIR_Ret32: case LIR_Ret64: case LIR_RetFloat: case LIR_RetDouble: return true;
    default: return false;
    }
}

static Inst make(LirOp op, Arg a, Arg b, unsigned n)
{
    Arg args[2] = {a, b};
    return lir_inst(op, n, args);
}

static uint32_t insert(Code *c, LirBlock *b, uint32_t at, Inst in)
{
    lir_insert(c, b, at, &in);
    return at + 1;
}

/* save (or restore) every callee-saved register the allocator recorded */
static uint32_t save_registers(Code *c, LirBlock *b, uint32_t at, bool restore, GateId origin)
{
    Arg rbp = arg_tmp(tmp_gp(X64_RBP));
    for (unsigned bank = 0; bank < BANK_COUNT; bank++)
        for (uint64_t m = c->frame.saved[bank]; m; m &= m - 1) {
            unsigned r = (unsigned)__builtin_ctzll(m);
            Arg reg = arg_tmp(tmp_reg((Bank)bank, r));
            Arg slot = arg_addr(rbp.base, c->frame.save_offset[bank][r]);
            LirOp op = bank == BANK_FP ? LIR_MoveDouble : LIR_Move;
            Inst in = restore ? make(op, slot, reg, 2) : make(op, reg, slot, 2);
            in.origin = origin;
            at = insert(c, b, at, in);
        }
    return at;
}

static void note_rbp(void *ctx, Tmp *t, Role role, Bank bank, Width w)
{
    (void)role;
    (void)w;
    if (bank == BANK_GP && *t == tmp_gp(X64_RBP))
        *(bool *)ctx = true;
}

static void note_stack(void *ctx, Arg *a, Role role, Bank bank, Width w)
{
    (void)role;
    (void)bank;
    (void)w;
    if (a->kind == ARG_STACK || a->kind == ARG_CALLARG)
        *(bool *)ctx = true;
}

/* a leaf that keeps nothing in memory, saves nothing and never names %rbp (incoming
 * stack arguments) needs no frame: %rsp stays where the caller left it */
static bool needs_frame(Code *c)
{
    if (c->frame.size || c->frame.saved[BANK_GP] || c->frame.saved[BANK_FP])
        return true;
    bool used = false;
    for (uint32_t b = 0; b < c->nblocks && !used; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts && !used; i++) {
            Inst *in = &c->blocks[b]->insts[i];
            if (in->op == LIR_Call || in->op == LIR_Push || in->op == LIR_Pop)
                return true;
            lir_for_each_tmp(in, note_rbp, &used);
            lir_for_each_arg(in, note_stack, &used);
        }
    return used;
}

bool x64_finish_frame(Code *c, char *err, size_t errlen)
{
    if (!c->nblocks || !c->frame.assigned) {
        snprintf(err, errlen, "@%s: no frame to finish", c->name);
        return false;
    }
    if (!needs_frame(c))
        return true;
    Arg rbp = arg_tmp(tmp_gp(X64_RBP)), rsp = arg_tmp(tmp_gp(X64_RSP));
    LirBlock *entry = c->blocks[0];
    uint32_t at = 0;
    at = insert(c, entry, at, make(LIR_Push, rbp, arg_none(), 1));
    at = insert(c, entry, at, make(LIR_Move, rsp, rbp, 2));
    if (c->frame.size)
        at = insert(c, entry, at, make(LIR_Sub64, arg_imm(c->frame.size), rsp, 2));
    save_registers(c, entry, at, false, NO_GATE);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        LirBlock *b = c->blocks[bi];
        for (uint32_t i = 0; i < b->ninsts; i++) {
            if (!is_return(&b->insts[i]))
                continue;
            GateId origin = b->insts[i].origin;
            Inst move = make(LIR_Move, rbp, rsp, 2), pop = make(LIR_Pop, rbp, arg_none(), 1);
            move.origin = pop.origin = origin;
            uint32_t k = save_registers(c, b, i, true, origin);
            k = insert(c, b, k, move);
            i = insert(c, b, k, pop);
        }
    }
    return true;
}
