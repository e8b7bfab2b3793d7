/* insn.h — the AArch64 instruction words: one function per instruction (and per
 * alias the backend wants to name), each returning the 32-bit instruction word.
 *
 * Conventions, uniform over every encoder:
 *   - sf: 0 = 32-bit (W registers), 1 = 64-bit (X registers).
 *   - dbl: 0 = single precision (S registers), 1 = double precision (D registers).
 *   - Registers are numbers 0..31 (regs.h).  Number 31 means SP or ZR depending on
 *     the operand position; the comment of each encoder marks the positions where
 *     31 is SP ("SP"); everywhere else 31 is the zero register.
 *   - Branch and PC-relative offsets are in bytes, relative to the instruction's
 *     own address.
 *   - Every operand is checked.  An operand the instruction cannot encode (register
 *     out of 0..31, immediate or offset out of range or misaligned, a reserved shift,
 *     an unpredictable register combination) makes the encoder return A64_BAD
 *     (0, which is UDF #0, never a word any encoder produces).  The backend tests
 *     for it to choose another form, or a veneer for a branch out of range.
 */
#ifndef CIRC_A64_INSN_H
#define CIRC_A64_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/a64/regs.h"

#define A64_BAD 0u

/* ---- add / subtract ------------------------------------------------------------ */
/* immediate: imm12 0..4095, optionally shifted left by 12 (lsl12 = 0 or 1) */
uint32_t a64_add_imm(int sf, int rd_sp, int rn_sp, uint32_t imm12, int lsl12);
uint32_t a64_adds_imm(int sf, int rd, int rn_sp, uint32_t imm12, int lsl12);
uint32_t a64_sub_imm(int sf, int rd_sp, int rn_sp, uint32_t imm12, int lsl12);
uint32_t a64_subs_imm(int sf, int rd, int rn_sp, uint32_t imm12, int lsl12);
uint32_t a64_cmp_imm(int sf, int rn_sp, uint32_t imm12, int lsl12);   /* SUBS ZR */
uint32_t a64_cmn_imm(int sf, int rn_sp, uint32_t imm12, int lsl12);   /* ADDS ZR */
uint32_t a64_mov_sp(int sf, int rd_sp, int rn_sp);                    /* ADD #0 */
/* true if value is an add/sub immediate: 0..4095, or a multiple of 4096 up to 4095<<12 */
bool a64_addsub_imm_ok(uint64_t value);

/* shifted register: shift LSL/LSR/ASR, amount 0..31 (sf=0) or 0..63 (sf=1) */
uint32_t a64_add_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_adds_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_sub_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_subs_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_cmp_reg(int sf, int rn, int rm, A64Shift shift, int amount);  /* SUBS ZR */
uint32_t a64_cmn_reg(int sf, int rn, int rm, A64Shift shift, int amount);  /* ADDS ZR */
uint32_t a64_neg(int sf, int rd, int rm, A64Shift shift, int amount);      /* SUB ZR */
uint32_t a64_negs(int sf, int rd, int rm, A64Shift shift, int amount);     /* SUBS ZR */

/* extended register: rm is extended by ext then shifted left by amount 0..4.
 * With sf=1 rm is an X register for UXTX/SXTX and a W register otherwise. */
uint32_t a64_add_ext(int sf, int rd_sp, int rn_sp, int rm, A64Extend ext, int amount);
uint32_t a64_adds_ext(int sf, int rd, int rn_sp, int rm, A64Extend ext, int amount);
uint32_t a64_sub_ext(int sf, int rd_sp, int rn_sp, int rm, A64Extend ext, int amount);
uint32_t a64_subs_ext(int sf, int rd, int rn_sp, int rm, A64Extend ext, int amount);
uint32_t a64_cmp_ext(int sf, int rn_sp, int rm, A64Extend ext, int amount);
uint32_t a64_cmn_ext(int sf, int rn_sp, int rm, A64Extend ext, int amount);

/* ---- logical ------------------------------------------------------------------- */
/* shifted register: shift LSL/LSR/ASR/ROR, amount as for add_reg */
uint32_t a64_and_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_ands_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_orr_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_eor_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_bic_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_bics_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_orn_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_eon_reg(int sf, int rd, int rn, int rm, A64Shift shift, int amount);
uint32_t a64_tst_reg(int sf, int rn, int rm, A64Shift shift, int amount);  /* ANDS ZR */
uint32_t a64_mov_reg(int sf, int rd, int rm);                             /* ORR ZR */
uint32_t a64_mvn(int sf, int rd, int rm, A64Shift shift, int amount);     /* ORN ZR */

/* bitmask immediates: value must be encodable (sf=0: value < 2^32) */
bool a64_logical_imm(uint64_t value, int sf, uint32_t *n_immr_imms); /* N:immr:imms, 13 bits */
uint32_t a64_and_imm(int sf, int rd_sp, int rn, uint64_t value);
uint32_t a64_ands_imm(int sf, int rd, int rn, uint64_t value);
uint32_t a64_orr_imm(int sf, int rd_sp, int rn, uint64_t value);
uint32_t a64_eor_imm(int sf, int rd_sp, int rn, uint64_t value);
uint32_t a64_tst_imm(int sf, int rn, uint64_t value);                 /* ANDS ZR */

/* ---- move wide and constants --------------------------------------------------- */
/* imm16 shifted left by 16*hw; hw 0..1 (sf=0) or 0..3 (sf=1) */
uint32_t a64_movz(int sf, int rd, uint32_t imm16, int hw);
uint32_t a64_movn(int sf, int rd, uint32_t imm16, int hw);
uint32_t a64_movk(int sf, int rd, uint32_t imm16, int hw);
/* The shortest sequence this builder knows that sets rd (0..30) to value (sf=0: the
 * low 32 bits of value, upper half of Xd zeroed): one ORR-immediate, ORR-immediate +
 * MOVK, MOVZ or MOVN + MOVKs, each also in its 32-bit form when the value fits 32
 * bits.  Writes the words to out; returns their number (1..4), 0 if rd is bad. */
enum { A64_MOV_IMM_MAX = 4 };
int a64_mov_imm(int sf, int rd, uint64_t value, uint32_t out[A64_MOV_IMM_MAX]);

/* ---- multiply, divide, variable shifts, bit counts ------------------------------- */
uint32_t a64_madd(int sf, int rd, int rn, int rm, int ra);
uint32_t a64_msub(int sf, int rd, int rn, int rm, int ra);
uint32_t a64_mul(int sf, int rd, int rn, int rm);                      /* MADD ZR */
uint32_t a64_mneg(int sf, int rd, int rn, int rm);                     /* MSUB ZR */
uint32_t a64_smaddl(int rd, int rn, int rm, int ra);    /* Xd = Xa + Wn * Wm, signed */
uint32_t a64_umaddl(int rd, int rn, int rm, int ra);
uint32_t a64_smull(int rd, int rn, int rm);
uint32_t a64_umull(int rd, int rn, int rm);
uint32_t a64_smulh(int rd, int rn, int rm);                            /* 64-bit only */
uint32_t a64_umulh(int rd, int rn, int rm);
uint32_t a64_sdiv(int sf, int rd, int rn, int rm);
uint32_t a64_udiv(int sf, int rd, int rn, int rm);
uint32_t a64_lslv(int sf, int rd, int rn, int rm);
uint32_t a64_lsrv(int sf, int rd, int rn, int rm);
uint32_t a64_asrv(int sf, int rd, int rn, int rm);
uint32_t a64_rorv(int sf, int rd, int rn, int rm);
uint32_t a64_clz(int sf, int rd, int rn);
uint32_t a64_cls(int sf, int rd, int rn);
uint32_t a64_rbit(int sf, int rd, int rn);
uint32_t a64_rev(int sf, int rd, int rn);

/* ---- bitfield moves and their aliases -------------------------------------------- */
/* immr, imms 0..31 (sf=0) or 0..63 (sf=1) */
uint32_t a64_sbfm(int sf, int rd, int rn, int immr, int imms);
uint32_t a64_bfm(int sf, int rd, int rn, int immr, int imms);
uint32_t a64_ubfm(int sf, int rd, int rn, int immr, int imms);
uint32_t a64_extr(int sf, int rd, int rn, int rm, int lsb);
/* constant shifts: amount 0..width-1 */
uint32_t a64_lsl_imm(int sf, int rd, int rn, int amount);
uint32_t a64_lsr_imm(int sf, int rd, int rn, int amount);
uint32_t a64_asr_imm(int sf, int rd, int rn, int amount);
uint32_t a64_ror_imm(int sf, int rd, int rn, int amount);
/* bit fields: lsb 0..width-1, width 1..regwidth-lsb */
uint32_t a64_sbfx(int sf, int rd, int rn, int lsb, int width);
uint32_t a64_ubfx(int sf, int rd, int rn, int lsb, int width);
uint32_t a64_sbfiz(int sf, int rd, int rn, int lsb, int width);
uint32_t a64_ubfiz(int sf, int rd, int rn, int lsb, int width);
uint32_t a64_bfi(int sf, int rd, int rn, int lsb, int width);
uint32_t a64_bfxil(int sf, int rd, int rn, int lsb, int width);
/* extensions: the unsigned ones write a W register (which zeroes the upper half) */
uint32_t a64_uxtb(int rd, int rn);
uint32_t a64_uxth(int rd, int rn);
uint32_t a64_sxtb(int sf, int rd, int rn);
uint32_t a64_sxth(int sf, int rd, int rn);
uint32_t a64_sxtw(int rd, int rn);

/* ---- conditional select and compare ---------------------------------------------- */
uint32_t a64_csel(int sf, int rd, int rn, int rm, A64Cond cond);
uint32_t a64_csinc(int sf, int rd, int rn, int rm, A64Cond cond);
uint32_t a64_csinv(int sf, int rd, int rn, int rm, A64Cond cond);
uint32_t a64_csneg(int sf, int rd, int rn, int rm, A64Cond cond);
/* aliases: cond must not be AL or NV */
uint32_t a64_cset(int sf, int rd, A64Cond cond);          /* rd = cond ? 1 : 0 */
uint32_t a64_csetm(int sf, int rd, A64Cond cond);         /* rd = cond ? -1 : 0 */
uint32_t a64_cinc(int sf, int rd, int rn, A64Cond cond);  /* rd = cond ? rn+1 : rn */
uint32_t a64_cneg(int sf, int rd, int rn, A64Cond cond);  /* rd = cond ? -rn : rn */
/* flags = cond ? compare(rn, rm or imm5 0..31) : nzcv (0..15) */
uint32_t a64_ccmp_reg(int sf, int rn, int rm, int nzcv, A64Cond cond);
uint32_t a64_ccmn_reg(int sf, int rn, int rm, int nzcv, A64Cond cond);
uint32_t a64_ccmp_imm(int sf, int rn, int imm5, int nzcv, A64Cond cond);
uint32_t a64_ccmn_imm(int sf, int rn, int imm5, int nzcv, A64Cond cond);

/* ---- loads and stores ------------------------------------------------------------ */
/* One row per single-register transfer: the access size, the register file (general
 * W/X or FP S/D) and sign extension are in the kind. */
typedef enum {
    A64_STRB, A64_LDRB, A64_LDRSB_X, A64_LDRSB_W,  /* 1 byte */
    A64_STRH, A64_LDRH, A64_LDRSH_X, A64_LDRSH_W,  /* 2 bytes */
    A64_STR_W, A64_LDR_W, A64_LDRSW,               /* 4 bytes */
    A64_STR_X, A64_LDR_X,                          /* 8 bytes */
    A64_STR_S, A64_LDR_S,                          /* 4 bytes, FP */
    A64_STR_D, A64_LDR_D,                          /* 8 bytes, FP */
    A64_LDST_COUNT
} A64LdSt;
int a64_ldst_size(A64LdSt kind);      /* bytes accessed: 1, 2, 4 or 8 */
bool a64_ldst_is_load(A64LdSt kind);
bool a64_ldst_is_fp(A64LdSt kind);
/* [rn_sp, #offset]: offset a multiple of the size, 0..4095*size */
uint32_t a64_ldst_uimm(A64LdSt kind, int rt, int rn_sp, int64_t offset);
/* [rn_sp, #offset] unscaled (LDUR/STUR...): offset -256..255 */
uint32_t a64_ldst_unscaled(A64LdSt kind, int rt, int rn_sp, int64_t offset);
/* [rn_sp, #offset]! and [rn_sp], #offset: offset -256..255; a general rt may not be
 * rn (unpredictable with writeback) */
uint32_t a64_ldst_pre(A64LdSt kind, int rt, int rn_sp, int64_t offset);
uint32_t a64_ldst_post(A64LdSt kind, int rt, int rn_sp, int64_t offset);
/* [rn_sp, rm, ext #s]: ext is UXTW, SXTW (rm is W), UXTX (printed LSL) or SXTX
 * (rm is X); shifted = 1 scales rm by the access size */
uint32_t a64_ldst_reg(A64LdSt kind, int rt, int rn_sp, int rm, A64Extend ext, int shifted);
/* PC-relative literal load: only LDR_W, LDR_X, LDRSW, LDR_S, LDR_D; offset a
 * multiple of 4 in -2^20..2^20-4 */
uint32_t a64_ldr_literal(A64LdSt kind, int rt, int64_t offset);
/* the best single instruction for [rn_sp + offset]: scaled if it fits, else unscaled;
 * A64_BAD if neither fits */
uint32_t a64_ldst_offset(A64LdSt kind, int rt, int rn_sp, int64_t offset);
bool a64_ldst_offset_ok(A64LdSt kind, int64_t offset);   /* a64_ldst_offset can encode it */

/* register pairs */
typedef enum {
    A64_STP_W, A64_LDP_W, A64_LDPSW, A64_STP_X, A64_LDP_X,
    A64_STP_S, A64_LDP_S, A64_STP_D, A64_LDP_D,
    A64_PAIR_COUNT
} A64Pair;
typedef enum { A64_PAIR_OFFSET, A64_PAIR_PRE, A64_PAIR_POST } A64PairMode;
int a64_pair_size(A64Pair kind);      /* bytes per register: 4 or 8 */
/* offset a multiple of the size, -64*size..63*size; a load may not name rt twice,
 * and with writeback a general rt/rt2 may not be rn */
uint32_t a64_ldstp(A64Pair kind, A64PairMode mode, int rt, int rt2, int rn_sp, int64_t offset);
bool a64_pair_offset_ok(A64Pair kind, int64_t offset);

/* ---- branches -------------------------------------------------------------------- */
/* ranges: B/BL +-128 MiB, B.cond/CBZ/CBNZ/ADR/LDR literal +-1 MiB, TBZ/TBNZ +-32 KiB;
 * offsets multiples of 4 */
uint32_t a64_b(int64_t offset);
uint32_t a64_bl(int64_t offset);
uint32_t a64_b_cond(A64Cond cond, int64_t offset);
uint32_t a64_cbz(int sf, int rt, int64_t offset);
uint32_t a64_cbnz(int sf, int rt, int64_t offset);
uint32_t a64_tbz(int rt, int bit, int64_t offset);   /* bit 0..63; <32 names Wt */
uint32_t a64_tbnz(int rt, int bit, int64_t offset);
uint32_t a64_br(int rn);
uint32_t a64_blr(int rn);
uint32_t a64_ret(int rn);                            /* normally A64_LR */
uint32_t a64_adr(int rd, int64_t offset);            /* -2^20..2^20-1, any alignment */
uint32_t a64_adrp(int rd, int64_t offset);           /* offset in bytes, multiple of 4096, +-4 GiB */
/* Re-targets an encoded B, BL, B.cond, CBZ, CBNZ, TBZ, TBNZ, ADR, ADRP or LDR literal
 * to a new byte offset (as the encoder of that instruction takes it); false (word
 * unchanged) if the word is none of these or the offset does not fit. */
bool a64_patch_offset(uint32_t *word, int64_t offset);
uint32_t a64_brk(uint32_t imm16);
uint32_t a64_hlt(uint32_t imm16);
uint32_t a64_nop(void);

/* ---- floating point (dbl: 0 = S, 1 = D) ------------------------------------------ */
uint32_t a64_fadd(int dbl, int rd, int rn, int rm);
uint32_t a64_fsub(int dbl, int rd, int rn, int rm);
uint32_t a64_fmul(int dbl, int rd, int rn, int rm);
uint32_t a64_fdiv(int dbl, int rd, int rn, int rm);
uint32_t a64_fmax(int dbl, int rd, int rn, int rm);
uint32_t a64_fmin(int dbl, int rd, int rn, int rm);
uint32_t a64_fmaxnm(int dbl, int rd, int rn, int rm);
uint32_t a64_fminnm(int dbl, int rd, int rn, int rm);
uint32_t a64_fnmul(int dbl, int rd, int rn, int rm);
uint32_t a64_fneg(int dbl, int rd, int rn);
uint32_t a64_fabs(int dbl, int rd, int rn);
uint32_t a64_fsqrt(int dbl, int rd, int rn);
uint32_t a64_frintn(int dbl, int rd, int rn);          /* round to nearest, ties to even */
uint32_t a64_frintp(int dbl, int rd, int rn);          /* toward +inf */
uint32_t a64_frintm(int dbl, int rd, int rn);          /* toward -inf */
uint32_t a64_frintz(int dbl, int rd, int rn);          /* toward zero */
uint32_t a64_fmov(int dbl, int rd, int rn);           /* FP register to FP register */
uint32_t a64_fmov_to_gpr(int dbl, int rd, int rn);    /* Wd <- Sn, Xd <- Dn (bits) */
uint32_t a64_fmov_from_gpr(int dbl, int rd, int rn);  /* Sd <- Wn, Dd <- Xn (bits) */
uint32_t a64_fcmp(int dbl, int rn, int rm);
uint32_t a64_fcmpe(int dbl, int rn, int rm);
uint32_t a64_fcmp_zero(int dbl, int rn);
uint32_t a64_fcmpe_zero(int dbl, int rn);
uint32_t a64_fcsel(int dbl, int rd, int rn, int rm, A64Cond cond);
uint32_t a64_fcvt(int to_dbl, int rd, int rn);         /* to_dbl=1: Dd <- Sn; 0: Sd <- Dn */
/* integer <-> FP: sf names the general register's width, dbl the FP one's */
uint32_t a64_scvtf(int sf, int dbl, int rd, int rn);   /* FP rd <- general rn, signed */
uint32_t a64_ucvtf(int sf, int dbl, int rd, int rn);
uint32_t a64_fcvtzs(int sf, int dbl, int rd, int rn);  /* general rd <- FP rn, toward zero, saturating */
uint32_t a64_fcvtzu(int sf, int dbl, int rd, int rn);

/* ---- system ---------------------------------------------------------------------- */
typedef enum { A64_SYS_NZCV, A64_SYS_FPCR, A64_SYS_FPSR, A64_SYS_COUNT } A64SysReg;
uint32_t a64_mrs(int rt, A64SysReg reg);
uint32_t a64_msr(A64SysReg reg, int rt);

#endif
