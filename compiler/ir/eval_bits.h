/* eval_bits.h — the added integer operations and SELECT on bit patterns (eval_bits.c),
 * called by eval_pure for the opcodes it does not know itself.  Operands are masked
 * to t's width; *out is t-wide.  Each returns EVAL_NOT_PURE for an opcode not its own. */
#ifndef CIRC_EVAL_BITS_H
#define CIRC_EVAL_BITS_H

#include "compiler/ir/eval.h"

/* ROTL ROTR SMIN SMAX UMIN UMAX SMULHI UMULHI CHECKED_ADD CHECKED_SUB CHECKED_MUL
 * (the checked ones return EVAL_TRAP_OVERFLOW when the signed result does not fit) */
EvalStatus eval_bits_binary(int op, Type t, uint64_t a, uint64_t b, uint64_t *out);
/* CLZ CTZ (w for 0) POPCNT BSWAP ABS (wraps: ABS of the most negative value is itself) */
EvalStatus eval_bits_unary(int op, Type t, uint64_t x, uint64_t *out);
/* SELECT: in[1] if the low bit of in[0] is 1, else in[2] */
EvalStatus eval_select(Type t, const uint64_t *in, uint64_t *out);

#endif
