/* regs.h — AArch64 register numbers, condition codes, shift and extend kinds as the
 * instruction-word encoders (insn.h) take them.  Every value is its field value in the
 * instruction word, so the encoder never translates.
 *
 * General registers are 0..31.  Number 31 is the stack pointer in some operand
 * positions and the zero register in others; insn.h says which for each encoder
 * ("SP" or "ZR" beside the operand).  Floating-point registers are 0..31 (V0..V31,
 * used as S or D). */
#ifndef CIRC_A64_REGS_H
#define CIRC_A64_REGS_H

enum {
    A64_X0 = 0, A64_X8 = 8,     /* X8: indirect result location */
    A64_X16 = 16, A64_X17 = 17, /* IP0/IP1: intra-procedure-call scratch */
    A64_X18 = 18,               /* platform register */
    A64_FP = 29, A64_LR = 30,
    A64_SP = 31, A64_ZR = 31,   /* the same number: the operand position decides */
    A64_NREGS = 32
};

/* condition codes (the 4-bit cond field); inverting one flips bit 0 */
typedef enum {
    A64_EQ, A64_NE, A64_HS, A64_LO, A64_MI, A64_PL, A64_VS, A64_VC,
    A64_HI, A64_LS, A64_GE, A64_LT, A64_GT, A64_LE, A64_AL, A64_NV
} A64Cond;
#define A64_CS A64_HS
#define A64_CC A64_LO
static inline A64Cond a64_invert_cond(A64Cond c) { return (A64Cond)(c ^ 1); }

/* shifts of a shifted-register operand (ROR only for the logical instructions) */
typedef enum { A64_LSL, A64_LSR, A64_ASR, A64_ROR } A64Shift;

/* extends of an extended-register operand (the 3-bit option field) */
typedef enum {
    A64_UXTB, A64_UXTH, A64_UXTW, A64_UXTX, A64_SXTB, A64_SXTH, A64_SXTW, A64_SXTX
} A64Extend;

#endif
