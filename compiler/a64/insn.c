/* insn.c — the AArch64 instruction words (see insn.h for the conventions).
 * Field layouts follow the Arm Architecture Reference Manual, section C4 (A64
 * instruction set encoding); each group of encoders starts from its class's fixed
 * bits and ORs in the checked fields. */
#include "compiler/a64/insn.h"

/* ---- operand checks -------------------------------------------------------------- */
static bool reg_ok(int r) { return r >= 0 && r < A64_NREGS; }
static bool regs2_ok(int a, int b) { return reg_ok(a) && reg_ok(b); }
static bool regs3_ok(int a, int b, int c) { return regs2_ok(a, b) && reg_ok(c); }
static bool bit_ok(int b) { return b == 0 || b == 1; }
static bool cond_ok(A64Cond c) { return (int)c >= 0 && (int)c <= A64_NV; }
static int reg_bits(int sf) { return sf ? 64 : 32; }

/* offset/scale fits a signed field of `bits` bits and is a multiple of scale */
static bool scaled_fits(int64_t offset, int scale, int bits, uint32_t *field)
{
    if (offset % scale != 0)
        return false;
    int64_t q = offset / scale, lim = (int64_t)1 << (bits - 1);
    if (q < -lim || q >= lim)
        return false;
    *field = (uint32_t)q & (uint32_t)((1ull << bits) - 1);
    return true;
}

static uint32_t rd_rn(int rd, int rn) { return (uint32_t)rd | (uint32_t)rn << 5; }

/* ---- add / subtract ------------------------------------------------------------ */
static uint32_t addsub_imm(int op, int s, int sf, int rd, int rn, uint32_t imm12, int lsl12)
{
    if (!bit_ok(sf) || !regs2_ok(rd, rn) || imm12 > 4095 || !bit_ok(lsl12))
        return A64_BAD;
    return 0x11000000u | (uint32_t)sf << 31 | (uint32_t)op << 30 | (uint32_t)s << 29 |
           (uint32_t)lsl12 << 22 | imm12 << 10 | rd_rn(rd, rn);
}
uint32_t a64_add_imm(int sf, int rd, int rn, uint32_t imm, int lsl12) { return addsub_imm(0, 0, sf, rd, rn, imm, lsl12); }
uint32_t a64_adds_imm(int sf, int rd, int rn, uint32_t imm, int lsl12) { return addsub_imm(0, 1, sf, rd, rn, imm, lsl12); }
uint32_t a64_sub_imm(int sf, int rd, int rn, uint32_t imm, int lsl12) { return addsub_imm(1, 0, sf, rd, rn, imm, lsl12); }
uint32_t a64_subs_imm(int sf, int rd, int rn, uint32_t imm, int lsl12) { return addsub_imm(1, 1, sf, rd, rn, imm, lsl12); }
uint32_t a64_cmp_imm(int sf, int rn, uint32_t imm, int lsl12) { return addsub_imm(1, 1, sf, A64_ZR, rn, imm, lsl12); }
uint32_t a64_cmn_imm(int sf, int rn, uint32_t imm, int lsl12) { return addsub_imm(0, 1, sf, A64_ZR, rn, imm, lsl12); }
uint32_t a64_mov_sp(int sf, int rd, int rn) { return addsub_imm(0, 0, sf, rd, rn, 0, 0); }

bool a64_addsub_imm_ok(uint64_t value)
{
    return value < 4096 || ((value & 0xfff) == 0 && value >> 12 < 4096);
}

static bool shift_ok(int sf, A64Shift shift, bool ror_ok, int amount)
{
    if ((int)shift < 0 || (int)shift > A64_ROR || (shift == A64_ROR && !ror_ok))
        return false;
    return amount >= 0 && amount < reg_bits(sf);
}

static uint32_t addsub_reg(int op, int s, int sf, int rd, int rn, int rm, A64Shift shift, int amount)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm) || !shift_ok(sf, shift, false, amount))
        return A64_BAD;
    return 0x0B000000u | (uint32_t)sf << 31 | (uint32_t)op << 30 | (uint32_t)s << 29 |
           (uint32_t)shift << 22 | (uint32_t)rm << 16 | (uint32_t)amount << 10 | rd_rn(rd, rn);
}
uint32_t a64_add_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return addsub_reg(0, 0, sf, rd, rn, rm, sh, a); }
uint32_t a64_adds_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return addsub_reg(0, 1, sf, rd, rn, rm, sh, a); }
uint32_t a64_sub_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return addsub_reg(1, 0, sf, rd, rn, rm, sh, a); }
uint32_t a64_subs_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return addsub_reg(1, 1, sf, rd, rn, rm, sh, a); }
uint32_t a64_cmp_reg(int sf, int rn, int rm, A64Shift sh, int a) { return addsub_reg(1, 1, sf, A64_ZR, rn, rm, sh, a); }
uint32_t a64_cmn_reg(int sf, int rn, int rm, A64Shift sh, int a) { return addsub_reg(0, 1, sf, A64_ZR, rn, rm, sh, a); }
uint32_t a64_neg(int sf, int rd, int rm, A64Shift sh, int a) { return addsub_reg(1, 0, sf, rd, A64_ZR, rm, sh, a); }
uint32_t a64_negs(int sf, int rd, int rm, A64Shift sh, int a) { return addsub_reg(1, 1, sf, rd, A64_ZR, rm, sh, a); }

static uint32_t addsub_ext(int op, int s, int sf, int rd, int rn, int rm, A64Extend ext, int amount)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm) || (int)ext < 0 || (int)ext > A64_SXTX ||
        amount < 0 || amount > 4)
        return A64_BAD;
    return 0x0B200000u | (uint32_t)sf << 31 | (uint32_t)op << 30 | (uint32_t)s << 29 |
           (uint32_t)rm << 16 | (uint32_t)ext << 13 | (uint32_t)amount << 10 | rd_rn(rd, rn);
}
uint32_t a64_add_ext(int sf, int rd, int rn, int rm, A64Extend e, int a) { return addsub_ext(0, 0, sf, rd, rn, rm, e, a); }
uint32_t a64_adds_ext(int sf, int rd, int rn, int rm, A64Extend e, int a) { return addsub_ext(0, 1, sf, rd, rn, rm, e, a); }
uint32_t a64_sub_ext(int sf, int rd, int rn, int rm, A64Extend e, int a) { return addsub_ext(1, 0, sf, rd, rn, rm, e, a); }
uint32_t a64_subs_ext(int sf, int rd, int rn, int rm, A64Extend e, int a) { return addsub_ext(1, 1, sf, rd, rn, rm, e, a); }
uint32_t a64_cmp_ext(int sf, int rn, int rm, A64Extend e, int a) { return addsub_ext(1, 1, sf, A64_ZR, rn, rm, e, a); }
uint32_t a64_cmn_ext(int sf, int rn, int rm, A64Extend e, int a) { return addsub_ext(0, 1, sf, A64_ZR, rn, rm, e, a); }

/* ---- logical --------------------------------------------------------------------- */
static uint32_t logical_reg(int opc, int n, int sf, int rd, int rn, int rm, A64Shift shift, int amount)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm) || !shift_ok(sf, shift, true, amount))
        return A64_BAD;
    return 0x0A000000u | (uint32_t)sf << 31 | (uint32_t)opc << 29 | (uint32_t)shift << 22 |
           (uint32_t)n << 21 | (uint32_t)rm << 16 | (uint32_t)amount << 10 | rd_rn(rd, rn);
}
uint32_t a64_and_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(0, 0, sf, rd, rn, rm, sh, a); }
uint32_t a64_bic_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(0, 1, sf, rd, rn, rm, sh, a); }
uint32_t a64_orr_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(1, 0, sf, rd, rn, rm, sh, a); }
uint32_t a64_orn_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(1, 1, sf, rd, rn, rm, sh, a); }
uint32_t a64_eor_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(2, 0, sf, rd, rn, rm, sh, a); }
uint32_t a64_eon_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(2, 1, sf, rd, rn, rm, sh, a); }
uint32_t a64_ands_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(3, 0, sf, rd, rn, rm, sh, a); }
uint32_t a64_bics_reg(int sf, int rd, int rn, int rm, A64Shift sh, int a) { return logical_reg(3, 1, sf, rd, rn, rm, sh, a); }
uint32_t a64_tst_reg(int sf, int rn, int rm, A64Shift sh, int a) { return logical_reg(3, 0, sf, A64_ZR, rn, rm, sh, a); }
uint32_t a64_mov_reg(int sf, int rd, int rm) { return logical_reg(1, 0, sf, rd, A64_ZR, rm, A64_LSL, 0); }
uint32_t a64_mvn(int sf, int rd, int rm, A64Shift sh, int a) { return logical_reg(1, 1, sf, rd, A64_ZR, rm, sh, a); }

static uint64_t low_ones(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* rotate the low e bits of x left by s (0 <= s < e) */
static uint64_t rotl_elt(uint64_t x, unsigned s, unsigned e)
{
    uint64_t mask = low_ones(e);
    x &= mask;
    return s == 0 ? x : ((x << s) | (x >> (e - s))) & mask;
}

/* A bitmask immediate is an element of e = 2..64 bits, replicated, whose value is a
 * run of ones rotated; all-zero and all-ones are not encodable. */
bool a64_logical_imm(uint64_t value, int sf, uint32_t *n_immr_imms)
{
    if (!bit_ok(sf) || (!sf && value >> 32))
        return false;
    if (!sf)
        value |= value << 32;
    if (value == 0 || value == ~0ull)
        return false;
    unsigned e = 64;
    while (e > 2 && (value & low_ones(e / 2)) == ((value >> e / 2) & low_ones(e / 2)))
        e /= 2;
    uint64_t elt = value & low_ones(e);
    uint64_t starts = elt & ~rotl_elt(elt, 1, e);   /* a one whose lower neighbour is zero */
    if (__builtin_popcountll(starts) != 1)
        return false;                                /* more than one run */
    unsigned ones = (unsigned)__builtin_popcountll(elt), r = (unsigned)__builtin_ctzll(starts);
    uint32_t immr = (e - r) & (e - 1);
    uint32_t imms = ((~(2 * e - 1)) & 0x3f) | (ones - 1);
    uint32_t n = e == 64;
    if (n_immr_imms)
        *n_immr_imms = n << 12 | immr << 6 | imms;
    return true;
}

static uint32_t logical_imm(int opc, int sf, int rd, int rn, uint64_t value)
{
    uint32_t bits;
    if (!bit_ok(sf) || !regs2_ok(rd, rn) || !a64_logical_imm(value, sf, &bits))
        return A64_BAD;
    return 0x12000000u | (uint32_t)sf << 31 | (uint32_t)opc << 29 | bits << 10 | rd_rn(rd, rn);
}
uint32_t a64_and_imm(int sf, int rd, int rn, uint64_t v) { return logical_imm(0, sf, rd, rn, v); }
uint32_t a64_orr_imm(int sf, int rd, int rn, uint64_t v) { return logical_imm(1, sf, rd, rn, v); }
uint32_t a64_eor_imm(int sf, int rd, int rn, uint64_t v) { return logical_imm(2, sf, rd, rn, v); }
uint32_t a64_ands_imm(int sf, int rd, int rn, uint64_t v) { return logical_imm(3, sf, rd, rn, v); }
uint32_t a64_tst_imm(int sf, int rn, uint64_t v) { return logical_imm(3, sf, A64_ZR, rn, v); }

/* ---- move wide ------------------------------------------------------------------- */
static uint32_t move_wide(int opc, int sf, int rd, uint32_t imm16, int hw)
{
    if (!bit_ok(sf) || !reg_ok(rd) || imm16 > 0xffff || hw < 0 || hw >= (sf ? 4 : 2))
        return A64_BAD;
    return 0x12800000u | (uint32_t)sf << 31 | (uint32_t)opc << 29 | (uint32_t)hw << 21 |
           imm16 << 5 | (uint32_t)rd;
}
uint32_t a64_movn(int sf, int rd, uint32_t imm16, int hw) { return move_wide(0, sf, rd, imm16, hw); }
uint32_t a64_movz(int sf, int rd, uint32_t imm16, int hw) { return move_wide(2, sf, rd, imm16, hw); }
uint32_t a64_movk(int sf, int rd, uint32_t imm16, int hw) { return move_wide(3, sf, rd, imm16, hw); }

/* ---- constants: the shortest known sequence ---------------------------------------- */
typedef struct {
    uint32_t w[A64_MOV_IMM_MAX];
    int n;
} MovSeq;

static uint32_t chunk16(uint64_t v, int hw) { return (uint32_t)(v >> 16 * hw) & 0xffff; }

/* MOVZ (or MOVN when inverted) of the first chunk that differs from the background,
 * then a MOVK per further such chunk */
static MovSeq seq_move_wide(int sf, int rd, uint64_t v, bool inverted)
{
    MovSeq s = {{0}, 0};
    uint32_t background = inverted ? 0xffff : 0;
    for (int hw = 0; hw < (sf ? 4 : 2); hw++) {
        uint32_t c = chunk16(v, hw);
        if (c == background)
            continue;
        if (s.n == 0)
            s.w[s.n++] = inverted ? a64_movn(sf, rd, ~c & 0xffff, hw) : a64_movz(sf, rd, c, hw);
        else
            s.w[s.n++] = a64_movk(sf, rd, c, hw);
    }
    if (s.n == 0)
        s.w[s.n++] = inverted ? a64_movn(sf, rd, 0, 0) : a64_movz(sf, rd, 0, 0);
    return s;
}

static MovSeq seq_orr(int sf, int rd, uint64_t v)
{
    MovSeq s = {{0}, 0};
    uint32_t w = a64_orr_imm(sf, rd, A64_ZR, v);
    if (w != A64_BAD)
        s.w[s.n++] = w;
    return s;
}

/* ORR of a bitmask immediate t, then MOVK of the halfword where t differs from v.  Only
 * three values of that halfword in t need trying: the chunk a replicated element puts
 * there (elements up to 32 bits), or all zeros or all ones (a 64-bit element is one run
 * of ones; if the other 48 bits hold its only edge, ending the run at the halfword's
 * border keeps it one run; if they hold no edge, v takes one MOVZ or MOVN anyway). */
static MovSeq seq_orr_movk(int rd, uint64_t v)
{
    MovSeq s = {{0}, 0};
    for (int hw = 0; hw < 4; hw++) {
        const uint32_t cands[3] = {chunk16(v, hw ^ 2), 0, 0xffff};
        for (int i = 0; i < 3; i++) {
            uint64_t t = (v & ~(0xffffull << 16 * hw)) | (uint64_t)cands[i] << 16 * hw;
            uint32_t orr = a64_orr_imm(1, rd, A64_ZR, t);
            if (orr != A64_BAD && t != v) {
                s.w[0] = orr;
                s.w[1] = a64_movk(1, rd, chunk16(v, hw), hw);
                s.n = 2;
                return s;
            }
        }
    }
    return s;
}

static void keep_shorter(MovSeq *best, MovSeq cand)
{
    if (cand.n > 0 && (best->n == 0 || cand.n < best->n))
        *best = cand;
}

int a64_mov_imm(int sf, int rd, uint64_t value, uint32_t out[A64_MOV_IMM_MAX])
{
    if (!bit_ok(sf) || rd < 0 || rd > 30)
        return 0;
    MovSeq best = {{0}, 0};
    if (!sf)
        value &= 0xffffffffu;
    if (value >> 32 == 0) {           /* a W register write zeroes the upper half */
        keep_shorter(&best, seq_move_wide(0, rd, value, false));
        keep_shorter(&best, seq_move_wide(0, rd, value, true));
        keep_shorter(&best, seq_orr(0, rd, value));
    }
    if (sf) {
        keep_shorter(&best, seq_move_wide(1, rd, value, false));
        keep_shorter(&best, seq_move_wide(1, rd, value, true));
        keep_shorter(&best, seq_orr(1, rd, value));
        if (best.n > 2)
            keep_shorter(&best, seq_orr_movk(rd, value));
    }
    for (int i = 0; i < best.n; i++)
        out[i] = best.w[i];
    return best.n;
}

/* ---- multiply, divide, shifts, bit counts ------------------------------------------ */
static uint32_t dp3(uint32_t base, int sf, int rd, int rn, int rm, int ra)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm) || !reg_ok(ra))
        return A64_BAD;
    return base | (uint32_t)sf << 31 | (uint32_t)rm << 16 | (uint32_t)ra << 10 | rd_rn(rd, rn);
}
uint32_t a64_madd(int sf, int rd, int rn, int rm, int ra) { return dp3(0x1B000000u, sf, rd, rn, rm, ra); }
uint32_t a64_msub(int sf, int rd, int rn, int rm, int ra) { return dp3(0x1B008000u, sf, rd, rn, rm, ra); }
uint32_t a64_mul(int sf, int rd, int rn, int rm) { return dp3(0x1B000000u, sf, rd, rn, rm, A64_ZR); }
uint32_t a64_mneg(int sf, int rd, int rn, int rm) { return dp3(0x1B008000u, sf, rd, rn, rm, A64_ZR); }
uint32_t a64_smaddl(int rd, int rn, int rm, int ra) { return dp3(0x1B200000u, 1, rd, rn, rm, ra); }
uint32_t a64_umaddl(int rd, int rn, int rm, int ra) { return dp3(0x1BA00000u, 1, rd, rn, rm, ra); }
uint32_t a64_smull(int rd, int rn, int rm) { return dp3(0x1B200000u, 1, rd, rn, rm, A64_ZR); }
uint32_t a64_umull(int rd, int rn, int rm) { return dp3(0x1BA00000u, 1, rd, rn, rm, A64_ZR); }
uint32_t a64_smulh(int rd, int rn, int rm) { return dp3(0x1B400000u, 1, rd, rn, rm, A64_ZR); }
uint32_t a64_umulh(int rd, int rn, int rm) { return dp3(0x1BC00000u, 1, rd, rn, rm, A64_ZR); }

static uint32_t dp2(uint32_t opcode, int sf, int rd, int rn, int rm)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm))
        return A64_BAD;
    return 0x1AC00000u | (uint32_t)sf << 31 | (uint32_t)rm << 16 | opcode << 10 | rd_rn(rd, rn);
}
uint32_t a64_udiv(int sf, int rd, int rn, int rm) { return dp2(2, sf, rd, rn, rm); }
uint32_t a64_sdiv(int sf, int rd, int rn, int rm) { return dp2(3, sf, rd, rn, rm); }
uint32_t a64_lslv(int sf, int rd, int rn, int rm) { return dp2(8, sf, rd, rn, rm); }
uint32_t a64_lsrv(int sf, int rd, int rn, int rm) { return dp2(9, sf, rd, rn, rm); }
uint32_t a64_asrv(int sf, int rd, int rn, int rm) { return dp2(10, sf, rd, rn, rm); }
uint32_t a64_rorv(int sf, int rd, int rn, int rm) { return dp2(11, sf, rd, rn, rm); }

static uint32_t dp1(uint32_t opcode, int sf, int rd, int rn)
{
    if (!bit_ok(sf) || !regs2_ok(rd, rn))
        return A64_BAD;
    return 0x5AC00000u | (uint32_t)sf << 31 | opcode << 10 | rd_rn(rd, rn);
}
uint32_t a64_rbit(int sf, int rd, int rn) { return dp1(0, sf, rd, rn); }
uint32_t a64_rev(int sf, int rd, int rn) { return dp1(sf == 1 ? 3 : 2, sf, rd, rn); }
uint32_t a64_clz(int sf, int rd, int rn) { return dp1(4, sf, rd, rn); }
uint32_t a64_cls(int sf, int rd, int rn) { return dp1(5, sf, rd, rn); }

/* ---- bitfield moves ---------------------------------------------------------------- */
static uint32_t bitfield(int opc, int sf, int rd, int rn, int immr, int imms)
{
    if (!bit_ok(sf) || !regs2_ok(rd, rn) || immr < 0 || immr >= reg_bits(sf) ||
        imms < 0 || imms >= reg_bits(sf))
        return A64_BAD;
    return 0x13000000u | (uint32_t)sf << 31 | (uint32_t)opc << 29 | (uint32_t)sf << 22 |
           (uint32_t)immr << 16 | (uint32_t)imms << 10 | rd_rn(rd, rn);
}
uint32_t a64_sbfm(int sf, int rd, int rn, int immr, int imms) { return bitfield(0, sf, rd, rn, immr, imms); }
uint32_t a64_bfm(int sf, int rd, int rn, int immr, int imms) { return bitfield(1, sf, rd, rn, immr, imms); }
uint32_t a64_ubfm(int sf, int rd, int rn, int immr, int imms) { return bitfield(2, sf, rd, rn, immr, imms); }

uint32_t a64_extr(int sf, int rd, int rn, int rm, int lsb)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm) || lsb < 0 || lsb >= reg_bits(sf))
        return A64_BAD;
    return 0x13800000u | (uint32_t)sf << 31 | (uint32_t)sf << 22 | (uint32_t)rm << 16 |
           (uint32_t)lsb << 10 | rd_rn(rd, rn);
}

static bool amount_ok(int sf, int amount) { return bit_ok(sf) && amount >= 0 && amount < reg_bits(sf); }

uint32_t a64_lsl_imm(int sf, int rd, int rn, int amount)
{
    if (!amount_ok(sf, amount))
        return A64_BAD;
    int w = reg_bits(sf);
    return a64_ubfm(sf, rd, rn, (w - amount) % w, w - 1 - amount);
}
uint32_t a64_lsr_imm(int sf, int rd, int rn, int amount)
{
    return amount_ok(sf, amount) ? a64_ubfm(sf, rd, rn, amount, reg_bits(sf) - 1) : A64_BAD;
}
uint32_t a64_asr_imm(int sf, int rd, int rn, int amount)
{
    return amount_ok(sf, amount) ? a64_sbfm(sf, rd, rn, amount, reg_bits(sf) - 1) : A64_BAD;
}
uint32_t a64_ror_imm(int sf, int rd, int rn, int amount) { return a64_extr(sf, rd, rn, rn, amount); }

static bool field_ok(int sf, int lsb, int width)
{
    return bit_ok(sf) && lsb >= 0 && width >= 1 && lsb + width <= reg_bits(sf);
}
/* extract: immr = lsb, imms = lsb + width - 1; insert: immr = -lsb mod w, imms = width - 1 */
uint32_t a64_sbfx(int sf, int rd, int rn, int lsb, int width)
{
    return field_ok(sf, lsb, width) ? a64_sbfm(sf, rd, rn, lsb, lsb + width - 1) : A64_BAD;
}
uint32_t a64_ubfx(int sf, int rd, int rn, int lsb, int width)
{
    return field_ok(sf, lsb, width) ? a64_ubfm(sf, rd, rn, lsb, lsb + width - 1) : A64_BAD;
}
uint32_t a64_bfxil(int sf, int rd, int rn, int lsb, int width)
{
    return field_ok(sf, lsb, width) ? a64_bfm(sf, rd, rn, lsb, lsb + width - 1) : A64_BAD;
}
static int insert_immr(int sf, int lsb) { return (reg_bits(sf) - lsb) % reg_bits(sf); }
uint32_t a64_sbfiz(int sf, int rd, int rn, int lsb, int width)
{
    return field_ok(sf, lsb, width) ? a64_sbfm(sf, rd, rn, insert_immr(sf, lsb), width - 1) : A64_BAD;
}
uint32_t a64_ubfiz(int sf, int rd, int rn, int lsb, int width)
{
    return field_ok(sf, lsb, width) ? a64_ubfm(sf, rd, rn, insert_immr(sf, lsb), width - 1) : A64_BAD;
}
uint32_t a64_bfi(int sf, int rd, int rn, int lsb, int width)
{
    return field_ok(sf, lsb, width) ? a64_bfm(sf, rd, rn, insert_immr(sf, lsb), width - 1) : A64_BAD;
}
uint32_t a64_uxtb(int rd, int rn) { return a64_ubfm(0, rd, rn, 0, 7); }
uint32_t a64_uxth(int rd, int rn) { return a64_ubfm(0, rd, rn, 0, 15); }
uint32_t a64_sxtb(int sf, int rd, int rn) { return a64_sbfm(sf, rd, rn, 0, 7); }
uint32_t a64_sxth(int sf, int rd, int rn) { return a64_sbfm(sf, rd, rn, 0, 15); }
uint32_t a64_sxtw(int rd, int rn) { return a64_sbfm(1, rd, rn, 0, 31); }

/* ---- conditional select and compare -------------------------------------------------- */
static uint32_t cond_select(int op, int o2, int sf, int rd, int rn, int rm, A64Cond cond)
{
    if (!bit_ok(sf) || !regs3_ok(rd, rn, rm) || !cond_ok(cond))
        return A64_BAD;
    return 0x1A800000u | (uint32_t)sf << 31 | (uint32_t)op << 30 | (uint32_t)rm << 16 |
           (uint32_t)cond << 12 | (uint32_t)o2 << 10 | rd_rn(rd, rn);
}
uint32_t a64_csel(int sf, int rd, int rn, int rm, A64Cond c) { return cond_select(0, 0, sf, rd, rn, rm, c); }
uint32_t a64_csinc(int sf, int rd, int rn, int rm, A64Cond c) { return cond_select(0, 1, sf, rd, rn, rm, c); }
uint32_t a64_csinv(int sf, int rd, int rn, int rm, A64Cond c) { return cond_select(1, 0, sf, rd, rn, rm, c); }
uint32_t a64_csneg(int sf, int rd, int rn, int rm, A64Cond c) { return cond_select(1, 1, sf, rd, rn, rm, c); }

static bool alias_cond_ok(A64Cond c) { return cond_ok(c) && c != A64_AL && c != A64_NV; }
uint32_t a64_cset(int sf, int rd, A64Cond c)
{
    return alias_cond_ok(c) ? a64_csinc(sf, rd, A64_ZR, A64_ZR, a64_invert_cond(c)) : A64_BAD;
}
uint32_t a64_csetm(int sf, int rd, A64Cond c)
{
    return alias_cond_ok(c) ? a64_csinv(sf, rd, A64_ZR, A64_ZR, a64_invert_cond(c)) : A64_BAD;
}
uint32_t a64_cinc(int sf, int rd, int rn, A64Cond c)
{
    return alias_cond_ok(c) ? a64_csinc(sf, rd, rn, rn, a64_invert_cond(c)) : A64_BAD;
}
uint32_t a64_cneg(int sf, int rd, int rn, A64Cond c)
{
    return alias_cond_ok(c) ? a64_csneg(sf, rd, rn, rn, a64_invert_cond(c)) : A64_BAD;
}

static uint32_t cond_compare(int op, int is_imm, int sf, int rn, int rm_imm, int nzcv, A64Cond cond)
{
    if (!bit_ok(sf) || !reg_ok(rn) || !reg_ok(rm_imm) || nzcv < 0 || nzcv > 15 || !cond_ok(cond))
        return A64_BAD;
    return 0x3A400000u | (uint32_t)sf << 31 | (uint32_t)op << 30 | (uint32_t)rm_imm << 16 |
           (uint32_t)cond << 12 | (uint32_t)is_imm << 11 | (uint32_t)rn << 5 | (uint32_t)nzcv;
}
uint32_t a64_ccmn_reg(int sf, int rn, int rm, int nzcv, A64Cond c) { return cond_compare(0, 0, sf, rn, rm, nzcv, c); }
uint32_t a64_ccmp_reg(int sf, int rn, int rm, int nzcv, A64Cond c) { return cond_compare(1, 0, sf, rn, rm, nzcv, c); }
uint32_t a64_ccmn_imm(int sf, int rn, int imm, int nzcv, A64Cond c) { return cond_compare(0, 1, sf, rn, imm, nzcv, c); }
uint32_t a64_ccmp_imm(int sf, int rn, int imm, int nzcv, A64Cond c) { return cond_compare(1, 1, sf, rn, imm, nzcv, c); }

/* ---- loads and stores ------------------------------------------------------------------ */
typedef struct {
    uint8_t size; /* log2 of the access size: the size field */
    uint8_t v;    /* 1: FP/SIMD register */
    uint8_t opc;  /* 0 store, 1 load, 2 load signed to X, 3 load signed to W */
} LdStRow;

static const LdStRow ldst_rows[A64_LDST_COUNT] = {
    [A64_STRB] = {0, 0, 0}, [A64_LDRB] = {0, 0, 1}, [A64_LDRSB_X] = {0, 0, 2}, [A64_LDRSB_W] = {0, 0, 3},
    [A64_STRH] = {1, 0, 0}, [A64_LDRH] = {1, 0, 1}, [A64_LDRSH_X] = {1, 0, 2}, [A64_LDRSH_W] = {1, 0, 3},
    [A64_STR_W] = {2, 0, 0}, [A64_LDR_W] = {2, 0, 1}, [A64_LDRSW] = {2, 0, 2},
    [A64_STR_X] = {3, 0, 0}, [A64_LDR_X] = {3, 0, 1},
    [A64_STR_S] = {2, 1, 0}, [A64_LDR_S] = {2, 1, 1},
    [A64_STR_D] = {3, 1, 0}, [A64_LDR_D] = {3, 1, 1},
};

static bool ldst_kind_ok(A64LdSt k) { return (int)k >= 0 && k < A64_LDST_COUNT; }
int a64_ldst_size(A64LdSt k) { return ldst_kind_ok(k) ? 1 << ldst_rows[k].size : 0; }
bool a64_ldst_is_load(A64LdSt k) { return ldst_kind_ok(k) && ldst_rows[k].opc != 0; }
bool a64_ldst_is_fp(A64LdSt k) { return ldst_kind_ok(k) && ldst_rows[k].v; }

static uint32_t ldst_base(A64LdSt k, int rt, int rn)
{
    const LdStRow *r = &ldst_rows[k];
    return (uint32_t)r->size << 30 | (uint32_t)r->v << 26 | (uint32_t)r->opc << 22 | rd_rn(rt, rn);
}

uint32_t a64_ldst_uimm(A64LdSt k, int rt, int rn, int64_t offset)
{
    if (!ldst_kind_ok(k) || !regs2_ok(rt, rn) || offset < 0)
        return A64_BAD;
    int size = a64_ldst_size(k);
    if (offset % size != 0 || offset / size > 4095)
        return A64_BAD;
    return 0x39000000u | ldst_base(k, rt, rn) | (uint32_t)(offset / size) << 10;
}

/* the imm9 forms; mode is bits 11:10 (0 unscaled, 1 post-index, 3 pre-index) */
static uint32_t ldst_imm9(A64LdSt k, int mode, int rt, int rn, int64_t offset)
{
    uint32_t imm9;
    if (!ldst_kind_ok(k) || !regs2_ok(rt, rn) || !scaled_fits(offset, 1, 9, &imm9))
        return A64_BAD;
    if (mode != 0 && !ldst_rows[k].v && rt == rn && rn != A64_SP)
        return A64_BAD;                 /* writeback into the transfer register */
    return 0x38000000u | ldst_base(k, rt, rn) | imm9 << 12 | (uint32_t)mode << 10;
}
uint32_t a64_ldst_unscaled(A64LdSt k, int rt, int rn, int64_t off) { return ldst_imm9(k, 0, rt, rn, off); }
uint32_t a64_ldst_post(A64LdSt k, int rt, int rn, int64_t off) { return ldst_imm9(k, 1, rt, rn, off); }
uint32_t a64_ldst_pre(A64LdSt k, int rt, int rn, int64_t off) { return ldst_imm9(k, 3, rt, rn, off); }

uint32_t a64_ldst_reg(A64LdSt k, int rt, int rn, int rm, A64Extend ext, int shifted)
{
    if (!ldst_kind_ok(k) || !regs3_ok(rt, rn, rm) || !bit_ok(shifted))
        return A64_BAD;
    if (ext != A64_UXTW && ext != A64_UXTX && ext != A64_SXTW && ext != A64_SXTX)
        return A64_BAD;
    return 0x38200800u | ldst_base(k, rt, rn) | (uint32_t)rm << 16 | (uint32_t)ext << 13 |
           (uint32_t)shifted << 12;
}

uint32_t a64_ldst_offset(A64LdSt k, int rt, int rn, int64_t offset)
{
    uint32_t w = a64_ldst_uimm(k, rt, rn, offset);
    return w != A64_BAD ? w : a64_ldst_unscaled(k, rt, rn, offset);
}

bool a64_ldst_offset_ok(A64LdSt k, int64_t offset) { return a64_ldst_offset(k, 0, 1, offset) != A64_BAD; }

uint32_t a64_ldr_literal(A64LdSt k, int rt, int64_t offset)
{
    uint32_t opc, v = 0, imm19;
    switch (k) {
    case A64_LDR_W: opc = 0; break;
    case A64_LDR_X: opc = 1; break;
    case A64_LDRSW: opc = 2; break;
    case A64_LDR_S: opc = 0; v = 1; break;
    case A64_LDR_D: opc = 1; v = 1; break;
    default: return A64_BAD;
    }
    if (!reg_ok(rt) || !scaled_fits(offset, 4, 19, &imm19))
        return A64_BAD;
    return 0x18000000u | opc << 30 | v << 26 | imm19 << 5 | (uint32_t)rt;
}

/* ---- register pairs ------------------------------------------------------------------ */
typedef struct {
    uint8_t opc, v, load;
} PairRow;

static const PairRow pair_rows[A64_PAIR_COUNT] = {
    [A64_STP_W] = {0, 0, 0}, [A64_LDP_W] = {0, 0, 1}, [A64_LDPSW] = {1, 0, 1},
    [A64_STP_X] = {2, 0, 0}, [A64_LDP_X] = {2, 0, 1},
    [A64_STP_S] = {0, 1, 0}, [A64_LDP_S] = {0, 1, 1},
    [A64_STP_D] = {1, 1, 0}, [A64_LDP_D] = {1, 1, 1},
};

static bool pair_kind_ok(A64Pair k) { return (int)k >= 0 && k < A64_PAIR_COUNT; }
int a64_pair_size(A64Pair k)
{
    if (!pair_kind_ok(k))
        return 0;
    const PairRow *r = &pair_rows[k];
    return r->v ? 4 << r->opc : (r->opc == 2 ? 8 : 4);
}

static bool pair_regs_ok(const PairRow *r, A64PairMode mode, int rt, int rt2, int rn)
{
    if (!regs3_ok(rt, rt2, rn) || (r->load && rt == rt2))
        return false;
    bool wb = mode != A64_PAIR_OFFSET;
    return !(wb && !r->v && rn != A64_SP && (rt == rn || rt2 == rn));
}

uint32_t a64_ldstp(A64Pair k, A64PairMode mode, int rt, int rt2, int rn, int64_t offset)
{
    static const uint32_t mode_bits[] = {[A64_PAIR_OFFSET] = 2, [A64_PAIR_PRE] = 3, [A64_PAIR_POST] = 1};
    uint32_t imm7;
    if (!pair_kind_ok(k) || (int)mode < 0 || mode > A64_PAIR_POST)
        return A64_BAD;
    const PairRow *r = &pair_rows[k];
    if (!pair_regs_ok(r, mode, rt, rt2, rn) || !scaled_fits(offset, a64_pair_size(k), 7, &imm7))
        return A64_BAD;
    return 0x28000000u | (uint32_t)r->opc << 30 | (uint32_t)r->v << 26 | mode_bits[mode] << 23 |
           (uint32_t)r->load << 22 | imm7 << 15 | (uint32_t)rt2 << 10 | rd_rn(rt, rn);
}

bool a64_pair_offset_ok(A64Pair k, int64_t offset)
{
    return a64_ldstp(k, A64_PAIR_OFFSET, 0, 1, 2, offset) != A64_BAD;
}

/* ---- branches ---------------------------------------------------------------------- */
static uint32_t branch26(uint32_t base, int64_t offset)
{
    uint32_t imm26;
    return scaled_fits(offset, 4, 26, &imm26) ? base | imm26 : A64_BAD;
}
uint32_t a64_b(int64_t offset) { return branch26(0x14000000u, offset); }
uint32_t a64_bl(int64_t offset) { return branch26(0x94000000u, offset); }

uint32_t a64_b_cond(A64Cond cond, int64_t offset)
{
    uint32_t imm19;
    if (!cond_ok(cond) || !scaled_fits(offset, 4, 19, &imm19))
        return A64_BAD;
    return 0x54000000u | imm19 << 5 | (uint32_t)cond;
}

static uint32_t compare_branch(int nz, int sf, int rt, int64_t offset)
{
    uint32_t imm19;
    if (!bit_ok(sf) || !reg_ok(rt) || !scaled_fits(offset, 4, 19, &imm19))
        return A64_BAD;
    return 0x34000000u | (uint32_t)sf << 31 | (uint32_t)nz << 24 | imm19 << 5 | (uint32_t)rt;
}
uint32_t a64_cbz(int sf, int rt, int64_t offset) { return compare_branch(0, sf, rt, offset); }
uint32_t a64_cbnz(int sf, int rt, int64_t offset) { return compare_branch(1, sf, rt, offset); }

static uint32_t test_branch(int nz, int rt, int bit, int64_t offset)
{
    uint32_t imm14;
    if (!reg_ok(rt) || bit < 0 || bit > 63 || !scaled_fits(offset, 4, 14, &imm14))
        return A64_BAD;
    return 0x36000000u | (uint32_t)(bit >> 5) << 31 | (uint32_t)nz << 24 |
           (uint32_t)(bit & 31) << 19 | imm14 << 5 | (uint32_t)rt;
}
uint32_t a64_tbz(int rt, int bit, int64_t offset) { return test_branch(0, rt, bit, offset); }
uint32_t a64_tbnz(int rt, int bit, int64_t offset) { return test_branch(1, rt, bit, offset); }

static uint32_t branch_reg(uint32_t base, int rn) { return reg_ok(rn) ? base | (uint32_t)rn << 5 : A64_BAD; }
uint32_t a64_br(int rn) { return branch_reg(0xD61F0000u, rn); }
uint32_t a64_blr(int rn) { return branch_reg(0xD63F0000u, rn); }
uint32_t a64_ret(int rn) { return branch_reg(0xD65F0000u, rn); }

static uint32_t pc_rel(uint32_t base, int rd, int64_t offset, int scale)
{
    uint32_t imm21;
    if (!reg_ok(rd) || !scaled_fits(offset, scale, 21, &imm21))
        return A64_BAD;
    return base | (imm21 & 3) << 29 | (imm21 >> 2) << 5 | (uint32_t)rd;
}
uint32_t a64_adr(int rd, int64_t offset) { return pc_rel(0x10000000u, rd, offset, 1); }
uint32_t a64_adrp(int rd, int64_t offset) { return pc_rel(0x90000000u, rd, offset, 4096); }

/* replace the offset field (at `shift`, `bits` wide, in units of `scale`) */
static bool patch_field(uint32_t *word, int64_t offset, int scale, int bits, int shift)
{
    uint32_t f;
    if (!scaled_fits(offset, scale, bits, &f))
        return false;
    uint32_t mask = (uint32_t)((1ull << bits) - 1) << shift;
    *word = (*word & ~mask) | f << shift;
    return true;
}

bool a64_patch_offset(uint32_t *word, int64_t offset)
{
    uint32_t w = *word;
    if ((w & 0x7C000000u) == 0x14000000u)                 /* B, BL */
        return patch_field(word, offset, 4, 26, 0);
    if ((w & 0xFF000010u) == 0x54000000u ||               /* B.cond */
        (w & 0x7E000000u) == 0x34000000u ||               /* CBZ, CBNZ */
        (w & 0x3B000000u) == 0x18000000u)                 /* LDR literal */
        return patch_field(word, offset, 4, 19, 5);
    if ((w & 0x7E000000u) == 0x36000000u)                 /* TBZ, TBNZ */
        return patch_field(word, offset, 4, 14, 5);
    uint32_t pc_rel = A64_BAD;
    if ((w & 0x9F000000u) == 0x10000000u)                 /* ADR */
        pc_rel = a64_adr((int)(w & 31), offset);
    else if ((w & 0x9F000000u) == 0x90000000u)            /* ADRP */
        pc_rel = a64_adrp((int)(w & 31), offset);
    if (pc_rel == A64_BAD)
        return false;
    *word = pc_rel;
    return true;
}

static uint32_t exception(uint32_t base, uint32_t imm16) { return imm16 <= 0xffff ? base | imm16 << 5 : A64_BAD; }
uint32_t a64_brk(uint32_t imm16) { return exception(0xD4200000u, imm16); }
uint32_t a64_hlt(uint32_t imm16) { return exception(0xD4400000u, imm16); }
uint32_t a64_nop(void) { return 0xD503201Fu; }

/* ---- floating point ---------------------------------------------------------------- */
static uint32_t fp2(uint32_t opcode, int dbl, int rd, int rn, int rm)
{
    if (!bit_ok(dbl) || !regs3_ok(rd, rn, rm))
        return A64_BAD;
    return 0x1E200800u | (uint32_t)dbl << 22 | (uint32_t)rm << 16 | opcode << 12 | rd_rn(rd, rn);
}
uint32_t a64_fmul(int dbl, int rd, int rn, int rm) { return fp2(0, dbl, rd, rn, rm); }
uint32_t a64_fdiv(int dbl, int rd, int rn, int rm) { return fp2(1, dbl, rd, rn, rm); }
uint32_t a64_fadd(int dbl, int rd, int rn, int rm) { return fp2(2, dbl, rd, rn, rm); }
uint32_t a64_fsub(int dbl, int rd, int rn, int rm) { return fp2(3, dbl, rd, rn, rm); }
uint32_t a64_fmax(int dbl, int rd, int rn, int rm) { return fp2(4, dbl, rd, rn, rm); }
uint32_t a64_fmin(int dbl, int rd, int rn, int rm) { return fp2(5, dbl, rd, rn, rm); }
uint32_t a64_fmaxnm(int dbl, int rd, int rn, int rm) { return fp2(6, dbl, rd, rn, rm); }
uint32_t a64_fminnm(int dbl, int rd, int rn, int rm) { return fp2(7, dbl, rd, rn, rm); }
uint32_t a64_fnmul(int dbl, int rd, int rn, int rm) { return fp2(8, dbl, rd, rn, rm); }

/* one source; type is the source's precision (FCVT's opcode names the destination) */
static uint32_t fp1(uint32_t opcode, int type, int rd, int rn)
{
    if (!bit_ok(type) || !regs2_ok(rd, rn))
        return A64_BAD;
    return 0x1E204000u | (uint32_t)type << 22 | opcode << 15 | rd_rn(rd, rn);
}
uint32_t a64_fmov(int dbl, int rd, int rn) { return fp1(0, dbl, rd, rn); }
uint32_t a64_fabs(int dbl, int rd, int rn) { return fp1(1, dbl, rd, rn); }
uint32_t a64_fneg(int dbl, int rd, int rn) { return fp1(2, dbl, rd, rn); }
uint32_t a64_fsqrt(int dbl, int rd, int rn) { return fp1(3, dbl, rd, rn); }
uint32_t a64_frintn(int dbl, int rd, int rn) { return fp1(8, dbl, rd, rn); }
uint32_t a64_frintp(int dbl, int rd, int rn) { return fp1(9, dbl, rd, rn); }
uint32_t a64_frintm(int dbl, int rd, int rn) { return fp1(10, dbl, rd, rn); }
uint32_t a64_frintz(int dbl, int rd, int rn) { return fp1(11, dbl, rd, rn); }
uint32_t a64_fcvt(int to_dbl, int rd, int rn)
{
    return bit_ok(to_dbl) ? fp1(4 + (uint32_t)to_dbl, !to_dbl, rd, rn) : A64_BAD;
}

static uint32_t fp_compare(uint32_t opc2, int dbl, int rn, int rm)
{
    if (!bit_ok(dbl) || !regs2_ok(rn, rm))
        return A64_BAD;
    return 0x1E202000u | (uint32_t)dbl << 22 | (uint32_t)rm << 16 | (uint32_t)rn << 5 | opc2;
}
uint32_t a64_fcmp(int dbl, int rn, int rm) { return fp_compare(0x00, dbl, rn, rm); }
uint32_t a64_fcmpe(int dbl, int rn, int rm) { return fp_compare(0x10, dbl, rn, rm); }
uint32_t a64_fcmp_zero(int dbl, int rn) { return fp_compare(0x08, dbl, rn, 0); }
uint32_t a64_fcmpe_zero(int dbl, int rn) { return fp_compare(0x18, dbl, rn, 0); }

uint32_t a64_fcsel(int dbl, int rd, int rn, int rm, A64Cond cond)
{
    if (!bit_ok(dbl) || !regs3_ok(rd, rn, rm) || !cond_ok(cond))
        return A64_BAD;
    return 0x1E200C00u | (uint32_t)dbl << 22 | (uint32_t)rm << 16 | (uint32_t)cond << 12 | rd_rn(rd, rn);
}

/* FP <-> general register: rmode (bits 20:19) and opcode (bits 18:16) */
static uint32_t fp_int(uint32_t rmode, uint32_t opcode, int sf, int dbl, int rd, int rn)
{
    if (!bit_ok(sf) || !bit_ok(dbl) || !regs2_ok(rd, rn))
        return A64_BAD;
    return 0x1E200000u | (uint32_t)sf << 31 | (uint32_t)dbl << 22 | rmode << 19 | opcode << 16 |
           rd_rn(rd, rn);
}
uint32_t a64_fcvtzs(int sf, int dbl, int rd, int rn) { return fp_int(3, 0, sf, dbl, rd, rn); }
uint32_t a64_fcvtzu(int sf, int dbl, int rd, int rn) { return fp_int(3, 1, sf, dbl, rd, rn); }
uint32_t a64_scvtf(int sf, int dbl, int rd, int rn) { return fp_int(0, 2, sf, dbl, rd, rn); }
uint32_t a64_ucvtf(int sf, int dbl, int rd, int rn) { return fp_int(0, 3, sf, dbl, rd, rn); }
uint32_t a64_fmov_to_gpr(int dbl, int rd, int rn) { return fp_int(0, 6, dbl, dbl, rd, rn); }
uint32_t a64_fmov_from_gpr(int dbl, int rd, int rn) { return fp_int(0, 7, dbl, dbl, rd, rn); }

/* ---- system registers ------------------------------------------------------------------ */
/* op0=3 op1=3 CRn=4, then CRm:op2 — NZCV is 2:0, FPCR 4:0, FPSR 4:1 */
static const uint32_t sysreg_bits[A64_SYS_COUNT] = {
    [A64_SYS_NZCV] = 0x1B4200u, [A64_SYS_FPCR] = 0x1B4400u, [A64_SYS_FPSR] = 0x1B4420u,
};

static uint32_t system_move(uint32_t base, A64SysReg reg, int rt)
{
    if ((int)reg < 0 || reg >= A64_SYS_COUNT || !reg_ok(rt))
        return A64_BAD;
    return base | sysreg_bits[reg] | (uint32_t)rt;
}
uint32_t a64_mrs(int rt, A64SysReg reg) { return system_move(0xD5200000u, reg, rt); }
uint32_t a64_msr(A64SysReg reg, int rt) { return system_move(0xD5000000u, reg, rt); }
