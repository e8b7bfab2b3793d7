/* trust_common.c — the shared half of the emulator trust tests (trust_common.h). */
#include "bench/trust/trust_common.h"
#include "fuzz/targets/encode_input.h"

uint64_t trust_next(uint64_t *rng)
{
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return *rng;
}

uint64_t trust_value(uint64_t *rng)
{
    static const uint64_t edge[] = {0, 1, ~0ull, 0x7fffffff, 0x80000000, 0xffffffff, 0x8000000000000000ull,
                                    0x7fffffffffffffffull, 0x7ff8000000000000ull, 0x3ff0000000000000ull,
                                    0x7fc00000, 0x3f800000, 0x80, 0xff, 0x8000, 0xffff};
    uint64_t r = trust_next(rng);
    return r % 4 == 0 ? edge[(r >> 8) % 16] : r % 4 == 1 ? (uint64_t)(int64_t)(int8_t)(r >> 16) : trust_next(rng);
}

void trust_random_regs(uint64_t *rng, TrustState *s, unsigned ngp, unsigned nvec)
{
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < ngp; i++)
        s->gp[i] = trust_value(rng);
    for (unsigned i = 0; i < nvec; i++) {
        s->vec[i][0] = trust_value(rng);
        s->vec[i][1] = trust_value(rng);
    }
}

static bool arg_usable(const Arg *a, uint64_t skip_gp)
{
    ArgKind k = (ArgKind)a->kind;
    if (k == ARG_ADDR || k == ARG_INDEX || k == ARG_STACK || k == ARG_CALLARG || k == ARG_SYMBOL ||
        k == ARG_SPECIAL)
        return false;
    return !(k == ARG_TMP && tmp_bank(a->base) == BANK_GP && (skip_gp >> tmp_reg_number(a->base) & 1));
}

bool trust_draw(uint64_t *rng, const Target *tg, Code *c, LirAsm *as, const LirForm **form, uint64_t skip_gp)
{
    uint8_t bytes[64];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)trust_next(rng);
    ByteSrc s = {bytes, sizeof bytes, 0};
    Inst in;
    lir_asm_init(as);
    if (!src_inst(&s, tg, &in, form) || in.op == LIR_Push || in.op == LIR_Pop || in.op == LIR_PushPair ||
        in.op == LIR_PopPair)
        return false;
    for (unsigned i = 0; i < in.nargs; i++)
        if (!arg_usable(&in.args[i], skip_gp))
            return false;
    return tg->encode_inst(as, c, c->blocks[0], &in) && !as->nrelocs && as->size <= TRUST_CODE_MAX - 8;
}

TrustVerdict trust_compare(const TrustShape *sh, bool a_ok, bool b_ok, const TrustState *a, const TrustState *b,
                           uint64_t flags)
{
    if (a_ok != b_ok)
        return TRUST_DIFF_FAULT;
    if (!a_ok)
        return TRUST_SAME;
    for (unsigned i = 0; i < sh->ngp; i++)
        if (!(sh->skip_gp >> i & 1) && a->gp[i] != b->gp[i])
            return TRUST_DIFF_REGS;
    for (unsigned i = 0; i < sh->nvec; i++)
        if (a->vec[i][0] != b->vec[i][0] || a->vec[i][1] != b->vec[i][1])
            return TRUST_DIFF_REGS;
    return (a->flags & flags) != (b->flags & flags) ? TRUST_DIFF_FLAGS : TRUST_SAME;
}

void trust_record(TrustFormStats *f, TrustVerdict v, const uint8_t *code, uint32_t len)
{
    f->runs++;
    f->regs += v == TRUST_DIFF_REGS;
    f->flags += v == TRUST_DIFF_FLAGS;
    f->faults += v == TRUST_DIFF_FAULT;
    f->known += v == TRUST_KNOWN;
    if (v != TRUST_SAME && v != TRUST_KNOWN && (!f->example_len || (v != TRUST_DIFF_FLAGS && !f->example_regs))) {
        f->example_len = (uint8_t)(len < TRUST_CODE_MAX ? len : TRUST_CODE_MAX);
        memcpy(f->example, code, f->example_len);
        f->example_regs = v != TRUST_DIFF_FLAGS;
    }
}

static void report_form(const Target *tg, uint32_t i, const TrustFormStats *f, const char *known)
{
    printf("form %u %s (encoder %u, param 0x%x, width %u): %u runs, %u register, %u flag, %u fault "
           "differences, %u %s; e.g.", i, lir_op_name((LirOp)tg->forms[i].op), tg->forms[i].enc,
           tg->forms[i].param, tg->forms[i].width, f->runs, f->regs, f->flags, f->faults, f->known, known);
    for (unsigned k = 0; k < f->example_len; k++)
        printf(" %02x", f->example[k]);
    putchar('\n');
}

bool trust_report(const Target *tg, const TrustFormStats *st, uint64_t n, const char *known)
{
    uint64_t regs = 0, flags = 0, faults = 0, forms = 0, picks = 0;
    for (uint32_t i = 0; i < tg->nforms; i++) {
        const TrustFormStats *f = &st[i];
        forms += f->runs > 0;
        regs += f->regs;
        flags += f->flags;
        faults += f->faults;
        picks += f->known;
        if (f->regs || f->flags || f->faults || f->known)
            report_form(tg, i, f, known);
    }
    printf("%llu instructions of %llu forms: %llu register, %llu flag, %llu fault differences; %llu %s\n",
           (unsigned long long)n, (unsigned long long)forms, (unsigned long long)regs, (unsigned long long)flags,
           (unsigned long long)faults, (unsigned long long)picks, known);
    return regs || flags || faults;
}
