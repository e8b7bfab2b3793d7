/* x64_roles.c — the roles of the overload table are what the machine does: every
 * straight-line x86-64 form is run under Unicorn with random registers and memory,
 * and afterwards
 *   - every register that changed is an argument lir_for_each_arg calls a def,
 *   - a 32-bit ZDef/UseZDef register has its upper 32 bits zero,
 *   - memory changed only where a memory argument is a def, and only within its width;
 * and it is run again with everything it does not use re-randomized (registers it
 * does not read, the bits of used registers above the use's width, memory outside a
 * used argument's width): the low `width` bits of every def must come out the same.
 * Register allocation and spilling rely on exactly these facts. */
#include "compiler/x64/x64.h"

#include <string.h>
#include <unicorn/unicorn.h>

#include "exec_util.h"

enum { CODE_ADDR = 0x400000, DATA_ADDR = 0x600000, DATA_SIZE = 0x1000, MEM_OFFSET = 0x800,
       STACK_ADDR = 0x700000, STACK_SIZE = 0x10000 };

static const int gp_ids[16] = {
    UC_X86_REG_RAX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RBX, UC_X86_REG_RSP, UC_X86_REG_RBP,
    UC_X86_REG_RSI, UC_X86_REG_RDI, UC_X86_REG_R8, UC_X86_REG_R9, UC_X86_REG_R10, UC_X86_REG_R11,
    UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15 };

typedef struct {
    uint64_t gp[16];
    uint64_t xmm[16][2];
    uint8_t data[DATA_SIZE];
} State;

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void state_write(uc_engine *uc, const State *st)
{
    for (int r = 0; r < 16; r++)
        uc_reg_write(uc, gp_ids[r], &st->gp[r]);
    for (int r = 0; r < 16; r++)
        uc_reg_write(uc, UC_X86_REG_XMM0 + r, st->xmm[r]);
    uc_mem_write(uc, DATA_ADDR, st->data, DATA_SIZE);
}

static void state_read(uc_engine *uc, State *st)
{
    for (int r = 0; r < 16; r++)
        uc_reg_read(uc, gp_ids[r], &st->gp[r]);
    for (int r = 0; r < 16; r++)
        uc_reg_read(uc, UC_X86_REG_XMM0 + r, st->xmm[r]);
    uc_mem_read(uc, DATA_ADDR, st->data, DATA_SIZE);
}

/* ---- what lir_for_each_arg says ---------------------------------------------------------- */
typedef struct {
    bool def[2][16];       /* register defined, per bank */
    unsigned def_width[2][16];
    bool zdef32[16];       /* GP register defined with zero extension from 32 bits */
    bool mem_def;
    unsigned mem_width;
    unsigned use_width[2][16]; /* bits of a register read (0: not read) */
    unsigned mem_use_width;
} Defs;

static void note_use(Defs *d, Arg *a, Role role, Width width)
{
    if (a->kind == ARG_TMP) {
        unsigned *w = &d->use_width[tmp_bank(a->base)][tmp_reg_number(a->base)];
        if (width > *w)
            *w = role == ROLE_USE_ADDR ? 64 : width;
    } else if (a->kind == ARG_ADDR) {
        d->use_width[BANK_GP][tmp_reg_number(a->base)] = 64;
        if (role != ROLE_USE_ADDR && width > d->mem_use_width)
            d->mem_use_width = width;
    }
}

static void note_def(void *ctx, Arg *a, Role role, Bank bank, Width width)
{
    Defs *d = ctx;
    if (a->kind == ARG_ADDR)          /* address components are always read */
        d->use_width[BANK_GP][tmp_reg_number(a->base)] = 64;
    if (role_is_use(role))
        note_use(d, a, role, width);
    if (!role_is_def(role))
        return;
    if (a->kind == ARG_TMP) {
        unsigned r = tmp_reg_number(a->base);
        d->def[tmp_bank(a->base)][r] = true;
        d->def_width[tmp_bank(a->base)][r] = role_is_zdef(role) ? 64 : width;
        if (role_is_zdef(role) && width == 32 && bank == BANK_GP)
            d->zdef32[r] = true;
    } else if (arg_is_memory(a)) {
        d->mem_def = true;
        d->mem_width = width;
    }
}

/* ---- building one instance of a form ------------------------------------------------------- */
static bool runnable(const LirForm *f)
{
    unsigned flags = lir_op_flags((LirOp)f->op);
    return !(flags & (LF_TERM | LF_CALL | LF_TRAP | LF_EFFECT)); /* control, calls, divisions, push/pop */
}

/* registers for the form's Tmp args: fixed ones, then distinct others (never rsp) */
static bool make_inst(const LirForm *f, unsigned round, uint64_t *seed, Inst *in, unsigned *base_reg)
{
    const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
    bool used[2][16] = { { false } };
    used[BANK_GP][X64_RSP] = true;
    for (unsigned i = 0; i < f->nargs; i++)
        if (f->args[i].fixed)
            used[o->args[i].bank][f->args[i].fixed - 1] = true;
    Arg args[LIR_MAX_ARGS];
    unsigned next[2] = { round % 16, (round * 5) % 16 };
    *base_reg = 16;
    for (unsigned i = 0; i < f->nargs; i++) {
        const FormArg *fa = &f->args[i];
        Bank b = (Bank)o->args[i].bank;
        if (fa->kinds & FK_TMP) {
            unsigned r = fa->fixed ? fa->fixed - 1u : 16;
            for (unsigned k = 0; r == 16 && k < 16; k++, next[b] = (next[b] + 1) % 16)
                if (!used[b][next[b]])
                    r = next[b];
            if (r == 16)
                return false;
            used[b][r] = true;
            args[i] = arg_tmp(tmp_reg(b, r));
        } else if (fa->kinds & FK_IMM) {
            args[i] = arg_imm((int64_t)(rng(seed) % 200) - 100);
        } else if (fa->kinds & FK_BIGIMM) {
            args[i] = arg_bigimm((int64_t)rng(seed));
        } else if (fa->kinds & FK_SYMBOL) {
            args[i] = arg_symbol(TARGET_HELPER, HELPER_FMOD_F64, 0);
        } else if (fa->kinds & FK_MEM) {
            args[i] = arg_none();     /* the base register is chosen below */
        } else if (fa->kinds & FK_RELCOND) {
            args[i] = arg_relcond((RelCond)(round % REL_COUNT));
        } else if (fa->kinds & FK_RESCOND) {
            args[i] = arg_rescond((ResCond)(round % RES_COUNT));
        } else {
            static const DoubleCond ok[] = { DBL_ogt, DBL_oge, DBL_ult, DBL_ule, DBL_ueq, DBL_one, DBL_ord, DBL_uno };
            args[i] = arg_doublecond(ok[round % 8]);
        }
    }
    for (unsigned i = 0; i < f->nargs; i++)
        if (args[i].kind == ARG_NONE) {
            for (unsigned r = (round * 3) % 16, k = 0; *base_reg == 16 && k < 16; k++, r = (r + 1) % 16)
                if (!used[BANK_GP][r])
                    *base_reg = r;
            if (*base_reg == 16)
                return false;
            args[i] = arg_addr(tmp_gp(*base_reg), (int64_t)(rng(seed) % 64) - 32);
        }
    *in = lir_inst((LirOp)f->op, f->nargs, args);
    return lir_find_form(x64_target(), in) == f;
}

/* ---- one run -------------------------------------------------------------------------------- */
static void random_state(State *st, uint64_t *seed, unsigned base_reg)
{
    for (int r = 0; r < 16; r++)
        st->gp[r] = rng(seed);
    for (int r = 0; r < 16; r++) {
        st->xmm[r][0] = rng(seed);
        st->xmm[r][1] = rng(seed);
    }
    for (int i = 0; i < DATA_SIZE; i++)
        st->data[i] = (uint8_t)rng(seed);
    st->gp[X64_RSP] = STACK_ADDR + STACK_SIZE / 2;
    if (base_reg < 16)
        st->gp[base_reg] = DATA_ADDR + MEM_OFFSET;
}

static void compare_states(const Inst *in, const Defs *d, const State *before, const State *after,
                           const Arg *mem)
{
    char what[160];
    snprintf(what, sizeof what, "%s/%u", lir_op_name((LirOp)in->op), in->nargs);
    for (unsigned r = 0; r < 16; r++) {
        bool changed = before->gp[r] != after->gp[r];
        CHECK(!changed || d->def[BANK_GP][r], "%s changed GP register %u, which it does not define", what, r);
        CHECK(!d->zdef32[r] || after->gp[r] >> 32 == 0, "%s: ZDef32 register %u has upper bits 0x%llx",
              what, r, (unsigned long long)(after->gp[r] >> 32));
        changed = memcmp(before->xmm[r], after->xmm[r], 16) != 0;
        CHECK(!changed || d->def[BANK_FP][r], "%s changed xmm%u, which it does not define", what, r);
    }
    long lo = mem ? MEM_OFFSET + mem->value : 0, hi = mem && d->mem_def ? lo + d->mem_width / 8 : lo;
    long outside = -1;
    for (long i = 0; i < DATA_SIZE && outside < 0; i++)
        if (before->data[i] != after->data[i] && (i < lo || i >= hi))
            outside = i;
    CHECK(outside < 0, "%s changed memory at offset %ld (its memory def covers [%ld, %ld))", what,
          outside - MEM_OFFSET, lo - MEM_OFFSET, hi - MEM_OFFSET);
}

static uint64_t low_mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* st with everything d does not read re-randomized (rsp kept) */
static void rerandomize_unused(State *st, const Defs *d, uint64_t *seed, long mem_lo)
{
    for (int r = 0; r < 16; r++) {
        uint64_t keep = low_mask(d->use_width[BANK_GP][r]);
        if (!d->use_width[BANK_GP][r])
            keep = 0;
        if (r != X64_RSP)
            st->gp[r] = (st->gp[r] & keep) | (rng(seed) & ~keep);
        unsigned fw = d->use_width[BANK_FP][r];
        uint64_t fkeep = fw ? low_mask(fw) : 0;
        st->xmm[r][0] = (st->xmm[r][0] & fkeep) | (rng(seed) & ~fkeep);
        st->xmm[r][1] = rng(seed);
    }
    for (long i = 0; i < DATA_SIZE; i++)
        if (i < mem_lo || i >= mem_lo + (long)d->mem_use_width / 8)
            st->data[i] = (uint8_t)rng(seed);
}

static void compare_defs(const Inst *in, const Defs *d, const State *a, const State *b, long mem_lo)
{
    const char *name = lir_op_name((LirOp)in->op);
    for (unsigned r = 0; r < 16; r++) {
        uint64_t m = low_mask(d->def_width[BANK_GP][r]);
        CHECK(!d->def[BANK_GP][r] || ((a->gp[r] ^ b->gp[r]) & m) == 0,
              "%s/%u: GP register %u depends on something it does not use", name, in->nargs, r);
        m = low_mask(d->def_width[BANK_FP][r]);
        CHECK(!d->def[BANK_FP][r] || ((a->xmm[r][0] ^ b->xmm[r][0]) & m) == 0,
              "%s/%u: xmm%u depends on something it does not use", name, in->nargs, r);
    }
    if (d->mem_def)
        CHECK(memcmp(a->data + mem_lo, b->data + mem_lo, d->mem_width / 8) == 0,
              "%s/%u: the stored value depends on something it does not use", name, in->nargs);
}

static void run_state(uc_engine *uc, const LirAsm *as, const State *in, State *out, const char *name)
{
    state_write(uc, in);
    uc_err err = uc_emu_start(uc, CODE_ADDR, CODE_ADDR + as->size, 0, 10);
    CHECK(err == UC_ERR_OK, "%s ran: %s", name, uc_strerror(err));
    state_read(uc, out);
}

static bool run_once(uc_engine *uc, const LirForm *f, unsigned round, uint64_t *seed, Arena *arena)
{
    Inst in;
    unsigned base_reg;
    if (!make_inst(f, round, seed, &in, &base_reg))
        return false;
    Code *code = lir_code_new(arena, x64_target(), "r", 0);
    LirBlock *b = lir_add_block(code, 1);
    LirAsm as;
    lir_asm_init(&as);
    bool ok = x64_encode_inst(&as, code, b, &in);
    CHECK(ok, "encode %s: %s", lir_op_name((LirOp)in.op), as.err);
    if (ok) {
        State before, after, before2, after2;
        random_state(&before, seed, base_reg);
        uc_mem_write(uc, CODE_ADDR, as.code, as.size);
        run_state(uc, &as, &before, &after, lir_op_name((LirOp)in.op));
        Defs d = { 0 };
        lir_for_each_arg(&in, note_def, &d);
        const Arg *mem = NULL;
        for (unsigned i = 0; i < in.nargs; i++)
            if (arg_is_memory(&in.args[i]))
                mem = &in.args[i];
        compare_states(&in, &d, &before, &after, mem);
        long mem_lo = mem ? MEM_OFFSET + mem->value : 0;
        before2 = before;
        rerandomize_unused(&before2, &d, seed, mem_lo);
        run_state(uc, &as, &before2, &after2, lir_op_name((LirOp)in.op));
        compare_defs(&in, &d, &after, &after2, mem_lo);
    }
    lir_asm_free(&as);
    return true;
}

int main(void)
{
    uc_engine *uc;
    if (uc_open(UC_ARCH_X86, UC_MODE_64, &uc) != UC_ERR_OK) {
        fprintf(stderr, "FAIL: unicorn\n");
        return 1;
    }
    uc_mem_map(uc, DATA_ADDR, DATA_SIZE, UC_PROT_READ | UC_PROT_WRITE);
    uc_mem_map(uc, STACK_ADDR, STACK_SIZE, UC_PROT_READ | UC_PROT_WRITE);
    const Target *t = x64_target();
    uint64_t seed = 0x243f6a8885a308d3ull;
    unsigned forms = 0, runs = 0;
    Arena *arena = arena_new();
    for (uint32_t i = 0; i < t->nforms; i++) {
        if (!runnable(&t->forms[i]))
            continue;
        forms++;
        for (unsigned round = 0; round < 24; round++) {
            /* fresh code page per run: Unicorn caches translations by address */
            uc_mem_map(uc, CODE_ADDR, 0x1000, UC_PROT_READ | UC_PROT_EXEC);
            runs += run_once(uc, &t->forms[i], round, &seed, arena);
            uc_mem_unmap(uc, CODE_ADDR, 0x1000);
        }
    }
    arena_free(arena);
    uc_close(uc);
    printf("roles: %u runs of %u straight-line forms\n", runs, forms);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures || runs == 0 ? 1 : 0;
}
