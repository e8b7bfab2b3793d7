/* frame.c — the ARM64 prologue and epilogue of an allocated Code (the frame laid
 * out by the stack allocator, compiler/lir/regalloc.h):
 *     stp x29, x30, [sp, #-16]!; mov x29, sp; sub sp, sp, #size;
 *     save the callee-saved registers the allocator recorded (x19-x28: 8 bytes,
 *     two with one stp where their slots are adjacent; v8-v15: their low 64 bits,
 *     which is all AAPCS64 preserves)
 * and before every return
 *     restore them; mov sp, x29; ldp x29, x30, [sp], #16
 * The frame base x29 is 16-byte aligned and so is sp at every call (frame.size is a
 * multiple of 16); incoming stack arguments are at x29 + 16. */
#include "a64.h"
#include "a64_internal.h"

static bool is_return(const Inst *in)
{
    switch (in->op) {
    case LIR_RetVoid: case LIR_Ret32: case LIR_Ret64: case LIR_RetFloat: case LIR_RetDouble: return true;
    default: return false;
    }
}

static uint32_t insert3(Code *c, LirBlock *b, uint32_t at, LirOp op, unsigned n, Arg x, Arg y, Arg z)
{
    Arg args[3] = {x, y, z};
    Inst in = lir_inst(op, n, args);
    lir_insert(c, b, at, &in);
    return at + 1;
}

static uint32_t insert(Code *c, LirBlock *b, uint32_t at, LirOp op, unsigned n, Arg x, Arg y)
{
    return insert3(c, b, at, op, n, x, y, arg_none());
}

/* the next callee-saved register of bank after r (LIR_MAX_REGS if none) */
static unsigned next_saved(const Code *c, unsigned bank, unsigned r)
{
    while (++r < LIR_MAX_REGS && !(c->frame.saved[bank] >> r & 1)) {
    }
    return r;
}

/* save (or restore) every callee-saved register the allocator recorded; two general
 * registers whose slots are adjacent (the second 8 bytes below the first) share
 * one stp/ldp */
static uint32_t save_registers(Code *c, LirBlock *b, uint32_t at, bool restore)
{
    for (unsigned bank = 0; bank < BANK_COUNT; bank++)
        for (unsigned r = next_saved(c, bank, (unsigned)-1); r < LIR_MAX_REGS; r = next_saved(c, bank, r)) {
            Arg reg = arg_tmp(tmp_reg((Bank)bank, r));
            int32_t off = c->frame.save_offset[bank][r];
            unsigned r2 = next_saved(c, bank, r);
            if (bank == BANK_GP && r2 < LIR_MAX_REGS && c->frame.save_offset[bank][r2] == off - 8) {
                Arg low = arg_tmp(tmp_reg((Bank)bank, r2)), pair = arg_addr(tmp_gp(A64_FP), off - 8);
                at = restore ? insert3(c, b, at, LIR_LoadPair64, 3, pair, low, reg)
                             : insert3(c, b, at, LIR_StorePair64, 3, low, reg, pair);
                r = r2;
                continue;
            }
            Arg slot = arg_addr(tmp_gp(A64_FP), off);
            LirOp op = bank == BANK_FP ? LIR_MoveDouble : LIR_Move;
            at = restore ? insert(c, b, at, op, 2, slot, reg) : insert(c, b, at, op, 2, reg, slot);
        }
    return at;
}

/* sp -= size, in at most two encodable immediates (size < 2^24) */
static uint32_t allocate(Code *c, LirBlock *b, uint32_t at, uint32_t size)
{
    Arg sp = arg_tmp(tmp_gp(A64_LIR_SP));
    if (size & ~0xfffu)
        at = insert(c, b, at, LIR_Sub64, 2, arg_imm(size & ~0xfffu), sp);
    if (size & 0xfffu)
        at = insert(c, b, at, LIR_Sub64, 2, arg_imm(size & 0xfffu), sp);
    return at;
}

bool a64_finish_frame(Code *c, char *err, size_t errlen)
{
    if (!c->nblocks || !c->frame.assigned) {
        snprintf(err, errlen, "@%s: no frame to finish", c->name);
        return false;
    }
    if (c->frame.size >= 1u << 24) {
        snprintf(err, errlen, "@%s: frame of %u bytes is too large", c->name, c->frame.size);
        return false;
    }
    Arg fp = arg_tmp(tmp_gp(A64_FP)), lr = arg_tmp(tmp_gp(A64_LR)), sp = arg_tmp(tmp_gp(A64_LIR_SP));
    LirBlock *entry = c->blocks[0];
    uint32_t at = 0;
    at = insert(c, entry, at, LIR_PushPair, 2, fp, lr);
    at = insert(c, entry, at, LIR_Move, 2, sp, fp);
    at = allocate(c, entry, at, c->frame.size);
    save_registers(c, entry, at, false);
    for (uint32_t bi = 0; bi < c->nblocks; bi++) {
        LirBlock *b = c->blocks[bi];
        for (uint32_t i = 0; i < b->ninsts; i++) {
            if (!is_return(&b->insts[i]))
                continue;
            uint32_t k = save_registers(c, b, i, true);
            k = insert(c, b, k, LIR_Move, 2, fp, sp);
            k = insert(c, b, k, LIR_PopPair, 2, fp, lr);
            i = k;
        }
    }
    return true;
}
