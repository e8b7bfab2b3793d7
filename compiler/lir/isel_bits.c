/* isel_bits.c — instruction selection of SELECT and the added integer operations
 * (docs/semantics.md §2.7) from the LIR every target has: conditional moves, shifts,
 * multiplies and compares.  Values follow lower.h's invariant (an integer narrower
 * than 64 bits is zero-extended in its register), so most sequences work on the
 * 64-bit register and zero the bits above the width at the end:
 *   SELECT            move b; conditional move of a on c (floats through a GP copy)
 *   SMIN .. UMAX      move a; conditional move of b on a compare (8/16-bit signed
 *                     operands compared and picked sign-extended, then zero-extended)
 *   ROTL ROTR         the target's rotate at 32/64 bits (rol/ror; ARM64 rotates only
 *                     right: a left rotate by s is one right by -s); at 8/16 bits
 *                     (x << s) | (x >> (w - s)), s = amount mod w
 * Where the target's forms table (at the Code's CPU level) has the instruction, it
 * is used; the sequences below are the fallbacks:
 *   POPCNT            PopCount32/64 (x86-64 v3 popcnt); else the SWAR sum of bit
 *                     pairs, nibbles, bytes (one multiply)
 *   CLZ               CountLeadingZeros32/64 (lzcnt, clz; 8/16 bits: at 32, minus
 *                     32 - w); else bsr with a conditional move of 2w - 1 for 0,
 *                     xor w - 1; else w - POPCNT(x smeared right)
 *   CTZ               CountTrailingZeros32/64 (tzcnt, rbit+clz) of x | 1 << w below
 *                     64 bits (0 counts w); else bsf of that (at 64 bits with a
 *                     conditional move of 64 for 0); else POPCNT((x & -x) - 1)
 *   BSWAP             ByteSwap32/64 (bswap, rev; 16 bits: at 32, shifted right by
 *                     16); else byte pairs, then halves, swapped with masks
 *   ABS               conditional move of the negation of the sign-extended value
 *   SMULHI UMULHI     a 64-bit product of the extended operands shifted by w; at 64
 *                     bits MulHigh*64 (smulh, umulh), else the one-operand multiply
 *                     into a fixed register pair (x86 imul/mul: rdx:rax, the forms
 *                     table names the registers), else from 32-bit halves (signed:
 *                     corrected by the signs)
 *   CHECKED_*         at 32/64 bits Checked* (add/sub/imul with jo; adds/subs with
 *                     b.vs); else the operation on sign-extended operands compared
 *                     with its own sign extension from w bits, at 64 bits the sign
 *                     rule of add/sub and the high half of the product (mul, smulh),
 *                     with a branch to a trap block of kind overflow. */
#include "isel.h"

static Arg gp(Lower *l) { return isel_fresh(l, BANK_GP); }
static void move64(Lower *l, Arg src, Arg dst) { lower_emit2(l, LIR_Move, src, dst); }

/* a fresh tmp := a op b (op a 64-bit or 32-bit ALU opcode; b a tmp or an immediate) */
static Arg alu(Lower *l, LirOp op, Arg a, Arg b)
{
    Arg d = gp(l);
    isel_alu(l, LIR_Move, op, a, b, d, NO_GATE);
    return d;
}

static Arg k64(Lower *l, uint64_t bits) { return isel_gp_const(l, bits); }

/* dst := src when left cond right (MoveConditionally64 / 32), an immediate right
 * operand moved to a tmp where the target has no such form */
static void cmov(Lower *l, int w, RelCond cond, Arg left, Arg right, Arg src, Arg dst)
{
    Arg args[5] = {arg_relcond(cond), left, right, src, dst};
    isel_emit_imm(l, w == 64 ? LIR_MoveConditionally64 : LIR_MoveConditionally32, 5, args, 2, NO_GATE);
}

/* x sign-extended from w bits to 32 (w < 32) or itself */
static Arg sext32(Lower *l, Arg x, int w)
{
    if (w >= 32)
        return x;
    Arg s = gp(l);
    lower_emit2(l, w == 8 ? LIR_SignExtend8To32 : LIR_SignExtend16To32, x, s);
    return s;
}

/* x sign-extended from w bits to 64 */
static Arg sext64(Lower *l, Arg x, int w)
{
    if (w == 64)
        return x;
    Arg s = gp(l);
    lower_emit2(l, w == 8 ? LIR_SignExtend8To64 : w == 16 ? LIR_SignExtend16To64 : LIR_SignExtend32To64, x, s);
    return s;
}

/* a fresh tmp := -x (Neg32 zero-extends) */
static Arg negate(Lower *l, int w, Arg x)
{
    Arg n = gp(l);
    isel_unary(l, w == 64 ? LIR_Neg64 : LIR_Neg32, x, n);
    return n;
}

/* a shift by a register amount, through the target's count register if it has one */
static Arg shift_by(Lower *l, LirOp op, Arg x, Arg amount)
{
    Tmp fixed = l->isel->shift_count;
    if (fixed != TMP_NONE) {
        move64(l, amount, arg_tmp(fixed));
        amount = arg_tmp(fixed);
    }
    return alu(l, op, x, amount);
}

/* ---- SELECT ---------------------------------------------------------------------------- */
static bool sel_select(Lower *l, GateId g)
{
    Type ty = isel_type(l, g);
    Arg c = isel_t(l, isel_in(l, g, 0)), a = isel_t(l, isel_in(l, g, 1)), b = isel_t(l, isel_in(l, g, 2));
    Arg dst = isel_t(l, g);
    mcov_idiom(l->code->cov, MCOV_SELECT_CMOV);
    bool d = ty == TY_F64, fp = !ty_is_int(ty);
    Arg src = a, r = dst;
    if (fp) {
        src = gp(l);
        r = gp(l);
        lower_emit2(l, d ? LIR_MoveDoubleTo64 : LIR_MoveFloatTo32, a, src);
        lower_emit2(l, d ? LIR_MoveDoubleTo64 : LIR_MoveFloatTo32, b, r);
    } else {
        move64(l, b, dst);
    }
    if (!isel_cmov_on(l, isel_in(l, g, 0), src, r)) {
        Arg args[5] = {arg_rescond(RES_nonzero), c, arg_imm(1), src, r};
        isel_emit_imm(l, LIR_MoveConditionallyTest64, 5, args, 2, NO_GATE);
    }
    if (fp)
        lower_emit2(l, d ? LIR_Move64ToDouble : LIR_Move32ToFloat, r, dst);
    return true;
}

/* ---- min / max --------------------------------------------------------------------------- */
static bool sel_min_max(Lower *l, GateId g, int op)
{
    int w = ty_bits(isel_type(l, g));
    bool is_signed = op == OP_SMIN || op == OP_SMAX, is_min = op == OP_SMIN || op == OP_UMIN;
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1)), dst = isel_t(l, g);
    Arg ca = is_signed ? sext32(l, a, w) : a, cb = is_signed ? sext32(l, b, w) : b;
    RelCond take_b = is_signed ? (is_min ? REL_sgt : REL_slt) : (is_min ? REL_ugt : REL_ult);
    mcov_idiom(l->code->cov, MCOV_MIN_MAX_CMOV);
    move64(l, ca, dst); /* picked sign-extended, zero-extended after: three registers */
    cmov(l, w == 64 ? 64 : 32, take_b, ca, cb, cb, dst);
    if (is_signed && w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- rotates ------------------------------------------------------------------------------- */
/* does the target rotate with op (a two- or three-operand form taking an immediate)? */
static bool has_rotate(Lower *l, LirOp op, Arg t)
{
    Arg k = arg_imm(1);
    return isel_valid(l, op, 2, (Arg[]){k, t}) || isel_valid(l, op, 3, (Arg[]){t, k, t});
}

/* 32/64 bits by the target's rotate: a rotate left by s is one right by -s (mod w) */
static bool rotate_native(Lower *l, GateId g, int op, int w)
{
    LirOp left = w == 64 ? LIR_RotateLeft64 : LIR_RotateLeft32;
    LirOp right = w == 64 ? LIR_RotateRight64 : LIR_RotateRight32;
    Arg x = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    bool negate_amount = op == OP_ROTL && !has_rotate(l, left, dst);
    LirOp rot = op == OP_ROTR || negate_amount ? right : left;
    if (!has_rotate(l, rot, dst))
        return false;
    GateId amount = isel_in(l, g, 1);
    if (isel_is_const(l, amount)) {
        uint64_t k = isel_g(l, amount)->lit;
        isel_alu(l, LIR_Move, rot, x, arg_imm((int64_t)((negate_amount ? 0 - k : k) & (uint64_t)(w - 1))), dst,
                 NO_GATE);
        return true;
    }
    Arg n = isel_t(l, amount);
    move64(l, shift_by(l, rot, x, negate_amount ? negate(l, 32, n) : n), dst);
    return true;
}

/* any width from shifts: (x << s) | (x >> (w - s)), s = amount mod w */
static bool sel_rotate(Lower *l, GateId g, int op)
{
    int w = ty_bits(isel_type(l, g));
    bool native = w >= 32 && rotate_native(l, g, op, w);
    mcov_idiom(l->code->cov, native ? MCOV_ROTATE_NATIVE : MCOV_ROTATE_SHIFTS);
    if (native)
        return true;
    LirOp shl = w == 64 ? LIR_Lshift64 : LIR_Lshift32, shr = w == 64 ? LIR_Urshift64 : LIR_Urshift32;
    Arg x = isel_t(l, isel_in(l, g, 0)), dst = isel_t(l, g);
    Arg s = alu(l, LIR_And32, isel_t(l, isel_in(l, g, 1)), arg_imm(w - 1));
    Arg back = gp(l); /* w - s: a shift by w is one by 0 at 32/64 bits and clears 8/16 */
    lower_emit2(l, LIR_Move32, arg_imm(w), back);
    isel_alu(l, LIR_Move, LIR_Sub32, back, s, back, NO_GATE);
    Arg by_s = shift_by(l, op == OP_ROTL ? shl : shr, x, s);
    Arg by_back = shift_by(l, op == OP_ROTL ? shr : shl, x, back);
    isel_alu(l, LIR_Move, w == 64 ? LIR_Or64 : LIR_Or32, by_s, by_back, dst, NO_GATE);
    if (w < 32)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- bit counts ------------------------------------------------------------------------------ */
/* the number of one bits of the 64-bit x */
static Arg popcount64(Lower *l, Arg x)
{
    Arg t = alu(l, LIR_And64, alu(l, LIR_Urshift64, x, arg_imm(1)), k64(l, 0x5555555555555555ull));
    Arg x1 = alu(l, LIR_Sub64, x, t);
    Arg m2 = k64(l, 0x3333333333333333ull);
    Arg x2 = alu(l, LIR_Add64, alu(l, LIR_And64, x1, m2), alu(l, LIR_And64, alu(l, LIR_Urshift64, x1, arg_imm(2)), m2));
    Arg x3 = alu(l, LIR_And64, alu(l, LIR_Add64, x2, alu(l, LIR_Urshift64, x2, arg_imm(4))),
                 k64(l, 0x0f0f0f0f0f0f0f0full));
    return alu(l, LIR_Urshift64, alu(l, LIR_Mul64, x3, k64(l, 0x0101010101010101ull)), arg_imm(56));
}

static Arg count_leading(Lower *l, Arg x, int w)
{
    Arg s = x;
    for (int k = 1; k < w; k *= 2)
        s = alu(l, LIR_Or64, s, alu(l, LIR_Urshift64, s, arg_imm(k)));
    Arg r = gp(l);
    lower_emit2(l, LIR_Move32, arg_imm(w), r);
    isel_alu(l, LIR_Move, LIR_Sub64, r, popcount64(l, s), r, NO_GATE);
    return r;
}

static Arg count_trailing(Lower *l, Arg x, int w)
{
    Arg y = w == 64 ? x : alu(l, LIR_Or64, x, k64(l, 1ull << w)); /* 0 counts w */
    Arg neg = negate(l, 64, y);
    Arg low = alu(l, LIR_And64, y, neg);
    return popcount64(l, alu(l, LIR_Sub64, low, arg_imm(1)));
}

/* swap adjacent groups of `bits` bits under mask m (the low group of each pair) */
static Arg swap_groups(Lower *l, Arg x, int bits, uint64_t m)
{
    Arg km = k64(l, m);
    Arg hi = alu(l, LIR_And64, alu(l, LIR_Urshift64, x, arg_imm(bits)), km);
    Arg lo = alu(l, LIR_Lshift64, alu(l, LIR_And64, x, km), arg_imm(bits));
    return alu(l, LIR_Or64, hi, lo);
}

static Arg byte_swap(Lower *l, Arg x, int w)
{
    uint64_t wm = w == 64 ? ~0ull : (1ull << w) - 1;
    Arg r = swap_groups(l, x, 8, 0x00ff00ff00ff00ffull & wm);
    if (w >= 32)
        r = swap_groups(l, r, 16, 0x0000ffff0000ffffull & wm);
    if (w == 64)
        r = swap_groups(l, r, 32, 0x00000000ffffffffull);
    return r;
}

static Arg absolute(Lower *l, Arg x, int w)
{
    int cw = w == 64 ? 64 : 32;
    Arg s = sext32(l, x, w), n = negate(l, cw, s), r = gp(l);
    move64(l, s, r);
    cmov(l, cw, REL_slt, s, arg_imm(0), n, r);
    return r;
}

/* ---- bit counts and byte swaps by the target's instructions ---------------------------- */
/* a fresh tmp := op x (a two-operand form src, dst), or none when the target has no such form */
static bool unary_form(Lower *l, LirOp op, Arg x, Arg *r)
{
    *r = gp(l);
    if (!isel_valid(l, op, 2, (Arg[]){x, *r}))
        return false;
    lower_emit2(l, op, x, *r);
    return true;
}

/* t := k where x is 0 (the zero-input fixup of bsf/bsr) */
static void if_zero_then(Lower *l, Arg x, uint64_t k, Arg t)
{
    Arg args[5] = {arg_rescond(RES_zero), x, x, k64(l, k), t};
    isel_emit_imm(l, LIR_MoveConditionallyTest64, 5, args, 2, NO_GATE);
}

/* x | 1 << w: nonzero, and its trailing zeros those of x or w (w < 64) */
static Arg with_stop_bit(Lower *l, Arg x, int w)
{
    return w == 64 ? x : alu(l, LIR_Or64, x, w < 31 ? arg_imm(1ll << w) : k64(l, 1ull << w));
}

static bool leading_native(Lower *l, Arg x, int w, Arg *r)
{
    if (unary_form(l, isel_pick(w, LIR_CountLeadingZeros32, LIR_CountLeadingZeros64), x, r)) {
        if (w < 32)
            *r = alu(l, LIR_Sub32, *r, arg_imm(32 - w));
        return true;
    }
    if (!unary_form(l, LIR_X86BitScanReverse64, x, r))
        return false;
    if_zero_then(l, x, 2 * (uint64_t)w - 1, *r); /* (2w - 1) ^ (w - 1) = w */
    *r = alu(l, LIR_Xor32, *r, arg_imm(w - 1));
    return true;
}

static bool trailing_native(Lower *l, Arg x, int w, Arg *r)
{
    Arg y = w == 32 ? x : with_stop_bit(l, x, w);
    if (unary_form(l, w == 64 ? LIR_CountTrailingZeros64 : LIR_CountTrailingZeros32, y, r))
        return true;
    y = with_stop_bit(l, x, w);
    if (!unary_form(l, LIR_X86BitScanForward64, y, r))
        return false;
    if (w == 64)
        if_zero_then(l, x, 64, *r);
    return true;
}

/* a fresh tmp := the bytes of x reversed, by the two-operand form or a copy and the
 * one-operand form; none when the target has neither */
static bool swap_native(Lower *l, Arg x, int w, Arg *r)
{
    LirOp op = w == 64 ? LIR_ByteSwap64 : LIR_ByteSwap32;
    if (!unary_form(l, op, x, r)) {
        if (!isel_valid(l, op, 1, r))
            return false;
        move64(l, x, *r);
        lower_emit1(l, op, *r);
    }
    if (w == 16)
        *r = alu(l, LIR_Urshift32, *r, arg_imm(16));
    return true;
}

/* POPCNT CLZ CTZ BSWAP by the target's instructions; false if it has none */
static bool unary_native(Lower *l, int op, Arg x, int w, Arg *r)
{
    switch (op) {
    case OP_POPCNT: return unary_form(l, w == 64 ? LIR_PopCount64 : LIR_PopCount32, x, r);
    case OP_CLZ: return leading_native(l, x, w, r);
    case OP_CTZ: return trailing_native(l, x, w, r);
    case OP_BSWAP: return swap_native(l, x, w, r);
    default: return false;
    }
}

static bool sel_unary(Lower *l, GateId g, int op)
{
    int w = ty_bits(isel_type(l, g));
    Arg x = isel_t(l, isel_in(l, g, 0)), r;
    bool native = unary_native(l, op, x, w, &r); /* results within w bits */
    if (op != OP_ABS)
        mcov_idiom(l->code->cov, native ? MCOV_BITCOUNT_NATIVE : MCOV_BITCOUNT_EXPANDED);
    if (!native) {
        switch (op) {
        case OP_POPCNT: r = popcount64(l, x); break;
        case OP_CLZ: r = count_leading(l, x, w); break;
        case OP_CTZ: r = count_trailing(l, x, w); break;
        case OP_BSWAP: r = byte_swap(l, x, w); break;
        default: r = absolute(l, x, w); break;
        }
    }
    Arg dst = isel_t(l, g);
    move64(l, r, dst);
    if (w < 64 && !native)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- high halves of products --------------------------------------------------------------- */
/* the high 64 bits of the unsigned 128-bit product, from 32-bit halves */
static Arg umulhi64(Lower *l, Arg a, Arg b)
{
    Arg lo32 = k64(l, 0xffffffffull);
    Arg al = alu(l, LIR_And64, a, lo32), ah = alu(l, LIR_Urshift64, a, arg_imm(32));
    Arg bl = alu(l, LIR_And64, b, lo32), bh = alu(l, LIR_Urshift64, b, arg_imm(32));
    Arg ll = alu(l, LIR_Mul64, al, bl), lh = alu(l, LIR_Mul64, al, bh);
    Arg hl = alu(l, LIR_Mul64, ah, bl), hh = alu(l, LIR_Mul64, ah, bh);
    Arg mid = alu(l, LIR_Add64, alu(l, LIR_Urshift64, ll, arg_imm(32)), alu(l, LIR_And64, lh, lo32));
    mid = alu(l, LIR_Add64, mid, alu(l, LIR_And64, hl, lo32));
    Arg h = alu(l, LIR_Add64, hh, alu(l, LIR_Urshift64, lh, arg_imm(32)));
    h = alu(l, LIR_Add64, h, alu(l, LIR_Urshift64, hl, arg_imm(32)));
    return alu(l, LIR_Add64, h, alu(l, LIR_Urshift64, mid, arg_imm(32)));
}

/* signed: the unsigned high half minus b if a < 0, minus a if b < 0 */
static Arg smulhi64(Lower *l, Arg a, Arg b)
{
    Arg h = umulhi64(l, a, b), zero = k64(l, 0);
    Arg fb = gp(l), fa = gp(l);
    move64(l, zero, fb);
    cmov(l, 64, REL_slt, a, arg_imm(0), b, fb);
    move64(l, zero, fa);
    cmov(l, 64, REL_slt, b, arg_imm(0), a, fa);
    return alu(l, LIR_Sub64, alu(l, LIR_Sub64, h, fb), fa);
}

/* the register a form of op fixes argument i to (the forms table's fixed register) */
static Arg fixed_reg(Lower *l, LirOp op, unsigned i)
{
    uint32_t n;
    const LirForm *f = lir_target_forms(l->code->target, op, &n);
    return arg_tmp(tmp_gp(f[0].args[i].fixed - 1u));
}

/* the high half at 64 bits by MulHigh*64, else by the one-operand multiply into a
 * fixed register pair (lo, hi); none if the target has neither */
static bool mul_high_native(Lower *l, bool is_signed, Arg a, Arg b, Arg *r)
{
    *r = gp(l);
    LirOp three = is_signed ? LIR_MulHighSigned64 : LIR_MulHighUnsigned64;
    if (isel_valid(l, three, 3, (Arg[]){a, b, *r})) {
        lower_emit3(l, three, a, b, *r);
        return true;
    }
    LirOp wide = is_signed ? LIR_X86IMulWide64 : LIR_X86UMulWide64;
    uint32_t n;
    if (!lir_target_forms(l->code->target, wide, &n) || !n)
        return false;
    Arg lo = fixed_reg(l, wide, 0), hi = fixed_reg(l, wide, 1);
    move64(l, a, lo);
    lower_emit3(l, wide, lo, hi, b);
    move64(l, hi, *r);
    return true;
}

static Arg mul_high(Lower *l, bool is_signed, Arg a, Arg b, int w)
{
    Arg r;
    if (w == 64 && mul_high_native(l, is_signed, a, b, &r)) {
        mcov_idiom(l->code->cov, MCOV_MULH_NATIVE);
        return r;
    }
    if (w == 64)
        return is_signed ? smulhi64(l, a, b) : umulhi64(l, a, b);
    Arg p = alu(l, LIR_Mul64, is_signed ? sext64(l, a, w) : a, is_signed ? sext64(l, b, w) : b);
    return alu(l, is_signed ? LIR_Rshift64 : LIR_Urshift64, p, arg_imm(w));
}

static bool sel_mul_high(Lower *l, GateId g, int op)
{
    int w = ty_bits(isel_type(l, g));
    Arg r = mul_high(l, op == OP_SMULHI, isel_t(l, isel_in(l, g, 0)), isel_t(l, isel_in(l, g, 1)), w);
    Arg dst = isel_t(l, g);
    move64(l, r, dst);
    if (w < 64)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- checked arithmetic ------------------------------------------------------------------------ */
/* continue in a new block when left cond right is false; else trap overflow */
static void trap_if(Lower *l, RelCond cond, Arg left, Arg right)
{
    Arg args[3] = {arg_relcond(cond), left, right};
    isel_emit_imm(l, LIR_Branch64, 3, args, 2, NO_GATE);
    LirBlock *next = lower_new_block(l, false);
    lir_add_succ(l->code, l->cur, lower_trap_block(l, TRAP_OVERFLOW));
    lir_add_succ(l->code, l->cur, next->index);
    l->cur = next;
}

/* 64 bits: add/sub overflow iff the sign rule says so; mul iff the high half is not
 * the sign extension of the low half */
static Arg checked64(Lower *l, int op, Arg a, Arg b)
{
    if (op == OP_CHECKED_MUL) {
        Arg r = alu(l, LIR_Mul64, a, b);
        trap_if(l, REL_ne, mul_high(l, true, a, b, 64), alu(l, LIR_Rshift64, r, arg_imm(63)));
        return r;
    }
    bool add = op == OP_CHECKED_ADD;
    Arg r = alu(l, add ? LIR_Add64 : LIR_Sub64, a, b);
    Arg t = add ? alu(l, LIR_And64, alu(l, LIR_Xor64, a, r), alu(l, LIR_Xor64, b, r))
                : alu(l, LIR_And64, alu(l, LIR_Xor64, a, b), alu(l, LIR_Xor64, a, r));
    trap_if(l, REL_slt, t, arg_imm(0));
    return r;
}

/* 32/64 bits by the target's Checked* (the operation, then its overflow trap), a
 * constant right operand bg as an immediate where a form takes it */
static bool checked_native(Lower *l, int op, int w, Arg a, GateId bg, Arg dst)
{
    LirOp ck = op == OP_CHECKED_ADD   ? isel_pick(w, LIR_CheckedAdd32, LIR_CheckedAdd64)
               : op == OP_CHECKED_SUB ? isel_pick(w, LIR_CheckedSub32, LIR_CheckedSub64)
                                      : isel_pick(w, LIR_CheckedMul32, LIR_CheckedMul64);
    Arg b = isel_t(l, bg);
    if (w < 32 || !(isel_valid(l, ck, 3, (Arg[]){a, b, dst}) || isel_valid(l, ck, 2, (Arg[]){b, dst})))
        return false;
    Arg k = isel_operand(l, bg, w);
    if (k.kind == ARG_IMM && w == 32)
        k = arg_imm((int64_t)(int32_t)(uint32_t)k.value);
    isel_alu(l, LIR_Move, ck, a, k, dst, bg);
    return true;
}

static bool sel_checked(Lower *l, GateId g, int op)
{
    int w = ty_bits(isel_type(l, g));
    Arg a = isel_t(l, isel_in(l, g, 0)), b = isel_t(l, isel_in(l, g, 1)), r;
    if (checked_native(l, op, w, a, isel_in(l, g, 1), isel_t(l, g))) {
        mcov_idiom(l->code->cov, MCOV_CHECKED_NATIVE);
        return true;
    }
    if (w == 64) {
        r = checked64(l, op, a, b);
    } else { /* exact at 64 bits: compare with its own sign extension from w bits */
        LirOp op64 = op == OP_CHECKED_ADD ? LIR_Add64 : op == OP_CHECKED_SUB ? LIR_Sub64 : LIR_Mul64;
        r = alu(l, op64, sext64(l, a, w), sext64(l, b, w));
        trap_if(l, REL_ne, r, sext64(l, r, w));
    }
    Arg dst = isel_t(l, g);
    move64(l, r, dst);
    if (w < 64)
        isel_zero_above(l, dst, w);
    return true;
}

/* ---- field extracts ------------------------------------------------------------------------ */
/* the width of a mask of low ones (1..bits), 0 if m is not one */
static unsigned low_ones_width(uint64_t m) { return m && !(m & (m + 1)) ? (unsigned)__builtin_popcountll(m) : 0; }

bool isel_bitfield(Lower *l, GateId g)
{
    Type t = isel_type(l, g);
    unsigned bits = (unsigned)ty_bits(t);
    if (bits != 32 && bits != 64)
        return false;
    for (uint32_t i = 0; i < 2; i++) {
        GateId sh = isel_in(l, g, i), m = isel_in(l, g, 1 - i);
        if (!isel_is_const(l, m) || isel_g(l, sh)->op != OP_LSHR || !isel_is_const(l, isel_in(l, sh, 1)))
            continue;
        unsigned w = low_ones_width(isel_g(l, m)->lit & ty_mask(t));
        uint64_t k = isel_g(l, isel_in(l, sh, 1))->lit % bits;
        if (w == 0 || k == 0 || k + w > bits)
            continue;
        LirOp op = bits == 64 ? LIR_ExtractUnsigned64 : LIR_ExtractUnsigned32;
        Arg args[4] = {arg_imm((int64_t)k), arg_imm(w), isel_t(l, isel_in(l, sh, 0)), isel_t(l, g)};
        if (!isel_valid(l, op, 4, args))
            return false;
        mcov_idiom(l->code->cov, MCOV_BITFIELD_EXTRACT);
        lower_emit(l, op, 4, args);
        return true;
    }
    return false;
}

bool isel_bits(Lower *l, GateId g)
{
    int op = isel_g(l, g)->op;
    switch (op) {
    case OP_SELECT: return sel_select(l, g);
    case OP_SMIN: case OP_SMAX: case OP_UMIN: case OP_UMAX: return sel_min_max(l, g, op);
    case OP_ROTL: case OP_ROTR: return sel_rotate(l, g, op);
    case OP_SMULHI: case OP_UMULHI: return sel_mul_high(l, g, op);
    case OP_CHECKED_ADD: case OP_CHECKED_SUB: case OP_CHECKED_MUL: return sel_checked(l, g, op);
    default: return sel_unary(l, g, op);
    }
}
