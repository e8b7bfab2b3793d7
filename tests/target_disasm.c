/* target_disasm.c — every target of the registry binds an encoder and a Capstone
 * reader (Target.encode_inst, Target.disasm): Capstone opens its architecture, its
 * register mapper gives every register of its file back from the name Capstone
 * prints for it, refuses names outside the file, and one encoded instruction (a
 * register copy) decodes completely and names both registers. */
#include "compiler/lir/asm.h"
#include "compiler/target.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

static void fail(const Target *t, const char *what, const char *detail)
{
    printf("FAIL %s: %s (%s)\n", t->name, what, detail);
    failures++;
}

/* every register's own name maps back to it; other names do not map */
static void check_names(const Target *t)
{
    static const char *const foreign[] = {"", "x", "xmm", "r99", "eip", "pc", "v", "q32", "x32", "xmm16"};
    for (unsigned b = 0; b < BANK_COUNT; b++)
        for (unsigned n = 0; n < t->nregs[b]; n++) {
            Bank got_b;
            unsigned got_n;
            const char *name = t->reg_names[b][n];
            if (!t->disasm.reg(name, &got_b, &got_n) || got_b != b || got_n != n)
                fail(t, "a register's name does not map back to it", name);
        }
    for (unsigned i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        Bank b;
        unsigned n;
        if (t->disasm.reg(foreign[i], &b, &n))
            fail(t, "a name outside the register file maps", foreign[i]);
    }
}

/* the registers Capstone says one instruction reads or writes, as a bit set per bank */
static void accessed_regs(csh cs, const Target *t, cs_insn *insn, uint64_t seen[BANK_COUNT])
{
    cs_regs rd, wr;
    uint8_t nrd = 0, nwr = 0;
    if (cs_regs_access(cs, insn, rd, &nrd, wr, &nwr) != CS_ERR_OK)
        return;
    for (unsigned k = 0; k < (unsigned)nrd + nwr; k++) {
        Bank b;
        unsigned n;
        if (t->disasm.reg(cs_reg_name(cs, k < nrd ? rd[k] : wr[k - nrd]), &b, &n) && n < 64)
            seen[b] |= 1ull << n;
    }
}

/* Mov gp1 -> gp2 through encode_inst, read back through disasm */
static void check_move(const Target *t, csh cs)
{
    Arena *a = arena_new();
    Code *c = lir_code_new(a, t, "f", 0);
    LirBlock *blk = lir_add_block(c, 1);
    Arg args[2] = {arg_tmp(tmp_gp(1)), arg_tmp(tmp_gp(2))};
    Inst in = lir_inst(LIR_Move, 2, args);
    LirAsm as;
    lir_asm_init(&as);
    cs_insn *insn = NULL;
    size_t n = 0, decoded = 0;
    uint64_t seen[BANK_COUNT] = {0};
    if (!t->encode_inst(&as, c, blk, &in))
        fail(t, "encode_inst refuses a register copy", as.err);
    else
        n = cs_disasm(cs, as.code, as.size, 0, 0, &insn);
    for (size_t i = 0; i < n; i++) {
        decoded += insn[i].size;
        accessed_regs(cs, t, &insn[i], seen);
    }
    if (decoded != as.size || n == 0)
        fail(t, "the copy does not decode completely", "Capstone");
    if ((seen[BANK_GP] & 6) != 6)
        fail(t, "the decoded copy does not use both registers", "gp1, gp2");
    if (n)
        cs_free(insn, n);
    lir_asm_free(&as);
    arena_free(a);
}

int main(void)
{
    for (unsigned i = 0; i < target_count(); i++) {
        const Target *t = target_at(i);
        csh cs;
        if (!t->encode_inst || !t->disasm.reg) {
            fail(t, "no encoder or register mapper", "Target");
            continue;
        }
        check_names(t);
        if (cs_open((cs_arch)t->disasm.cs_arch, (cs_mode)t->disasm.cs_mode, &cs) != CS_ERR_OK) {
            fail(t, "Capstone cannot open the architecture", "cs_open");
            continue;
        }
        cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
        check_move(t, cs);
        cs_close(&cs);
    }
    if (failures)
        return 1;
    printf("target_disasm: %u targets ok\n", target_count());
    return 0;
}
