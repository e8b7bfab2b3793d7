/* regalloc_util.h — helpers of the register allocator tests: the x86-64 prologue
 * and epilogue for an allocated Code (frame base %rbp, Code.frame as regalloc.h
 * lays it out), and encoding + running a module under Unicorn with i64 arguments
 * and an i64 result. */
#ifndef CIRC_TESTS_REGALLOC_UTIL_H
#define CIRC_TESTS_REGALLOC_UTIL_H

#include "compiler/lir/regalloc.h"
#include "compiler/x64/x64.h"
#include "oracle/emu.h"

#include <stdlib.h>
#include <string.h>

static Inst ra_test_inst(LirOp op, unsigned n, Arg a, Arg b)
{
    Arg args[2] = { a, b };
    return lir_inst(op, n, args);
}

static Inst ra_save_inst(Bank bank, unsigned r, int32_t off, bool restore)
{
    Arg reg = arg_tmp(tmp_reg(bank, r)), mem = arg_addr(tmp_gp(X64_RBP), off);
    LirOp op = bank == BANK_FP ? LIR_MoveDouble : LIR_Move;
    return restore ? ra_test_inst(op, 2, mem, reg) : ra_test_inst(op, 2, reg, mem);
}

static bool ra_test_is_ret(const Inst *in)
{
    return in->op == LIR_Ret32 || in->op == LIR_Ret64 || in->op == LIR_RetVoid ||
           in->op == LIR_RetFloat || in->op == LIR_RetDouble;
}

/* push %rbp; mov %rsp, %rbp; sub $size, %rsp; saves -- and the reverse before
 * every return */
static void ra_test_add_frame(Code *c)
{
    const LirFrame *f = &c->frame;
    Inst pro[2 + 1 + 2 * LIR_MAX_REGS];
    unsigned np = 0;
    pro[np++] = ra_test_inst(LIR_Push, 1, arg_tmp(tmp_gp(X64_RBP)), arg_none());
    pro[np++] = ra_test_inst(LIR_Move, 2, arg_tmp(tmp_gp(X64_RSP)), arg_tmp(tmp_gp(X64_RBP)));
    if (f->size)
        pro[np++] = ra_test_inst(LIR_Sub64, 2, arg_imm(f->size), arg_tmp(tmp_gp(X64_RSP)));
    for (unsigned b = 0; b < BANK_COUNT; b++)
        for (unsigned r = 0; r < LIR_MAX_REGS; r++)
            if ((f->saved[b] >> r) & 1)
                pro[np++] = ra_save_inst((Bank)b, r, f->save_offset[b][r], false);
    for (unsigned i = 0; i < np; i++)
        lir_insert(c, c->blocks[0], i, &pro[i]);
    for (uint32_t b = 0; b < c->nblocks; b++) {
        LirBlock *blk = c->blocks[b];
        if (!blk->ninsts || !ra_test_is_ret(&blk->insts[blk->ninsts - 1]))
            continue;
        uint32_t at = blk->ninsts - 1;
        for (unsigned bank = 0; bank < BANK_COUNT; bank++)
            for (unsigned r = 0; r < LIR_MAX_REGS; r++)
                if ((f->saved[bank] >> r) & 1) {
                    Inst in = ra_save_inst((Bank)bank, r, f->save_offset[bank][r], true);
                    lir_insert(c, blk, at++, &in);
                }
        Inst mv = ra_test_inst(LIR_Move, 2, arg_tmp(tmp_gp(X64_RBP)), arg_tmp(tmp_gp(X64_RSP)));
        Inst pop = ra_test_inst(LIR_Pop, 1, arg_tmp(tmp_gp(X64_RBP)), arg_none());
        lir_insert(c, blk, at++, &mv);
        lir_insert(c, blk, at, &pop);
    }
}

/* encode codes[0..n) and run function func with i64 args (at most 100,000 blocks:
 * the tests' programs are small); false (message in err)
 * if encoding or loading fails */
static bool ra_test_run(Emu *emu, Arena *arena, Code *const *codes, uint32_t n, uint32_t func,
                        const uint64_t *args, uint32_t nargs, Outcome *out, char *err, size_t errlen)
{
    CodeBlob blob;
    if (!x64_emit(arena, codes, n, &blob, err, errlen))
        return false;
    if (!emu_load(emu, &blob)) {
        snprintf(err, errlen, "load: %s", emu_error(emu));
        return false;
    }
    Type types[8];
    for (uint32_t i = 0; i < 8; i++)
        types[i] = TY_I64;
    emu_call(emu, func, types, nargs, args, TY_I64, 100000, out);
    return true;
}

#endif
