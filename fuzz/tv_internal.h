/* tv_internal.h — what the translation validator's files share: the solver context,
 * the outcome encoding and the entry points of the symbolic executor (tv_exec.c) and
 * of the pure-gate encoding (tv_ops.c). */
#ifndef CIRC_FUZZ_TV_INTERNAL_H
#define CIRC_FUZZ_TV_INTERNAL_H

#include "fuzz/tv.h"
#include "oracle/outcome.h"

#include <z3.h>

/* outcome kinds in the encoding (the `kind` term, 8 bits) */
enum { TVK_RETURN, TVK_DIV0, TVK_OVERFLOW, TVK_THROW, TVK_INVALID, TVK_BOUND };

/* one function's outcome as terms: kind (bv8), value (bv64, zero-extended; 0 when
 * none), value type (bv8, a Type), the final memory (array bv64 -> bv8) */
typedef struct { Z3_ast kind, val, ty, mem; } TvOut;

/* the shared solver state of one refinement check */
typedef struct {
    Z3_context z;
    TvOptions opt;
    Z3_sort addr, byte, mem_sort;
    Z3_ast args[FUNC_MAX_PARAMS]; /* symbolic arguments, shared by source and target */
    uint32_t nargs;
    Z3_ast init_mem;   /* the initial buffer (symbolic) */
    Z3_params simp;    /* the simplifier's limits (steps, memory) */
    Z3_ast defs;       /* definitions of fresh constants (a conjunction; see tv_define) */
    uint32_t nfresh;
    Z3_ast exps[64][3];/* EXP encodings made (simplified base, exponent, result): source and
                          target share them */
    uint32_t nexps;
    Z3_ast shared[256][2]; /* runtime results defined as constants (tv_rt.c): the term, its
                             constant; source and target share them */
    uint32_t nshared;
    bool hit_bound;    /* some path stopped at the loop bound */
    bool abstracted;   /* some gate is an uninterpreted function (FEXP) */
    char reason[200];  /* why encoding failed (unsupported construct, path limit) */
    TvReason why;      /* its class */
} TvCtx;

/* encode f's outcome over t's arguments and initial memory; false (reason in
 * t->reason) if f has a construct the encoding does not support */
bool tv_encode_func(TvCtx *t, const Func *f, TvOut *out);

/* the value of pure gate G (not a leaf) on operand terms a (and b for two operands);
 * in_ty: the operands' type; *div0, *ovf: the trap conditions (NULL when it cannot trap) */
Z3_ast tv_pure(TvCtx *t, const Gate *G, Type in_ty, Z3_ast a, Z3_ast b, Z3_ast *div0, Z3_ast *ovf);
/* is op encoded by tv_pure? */
bool tv_pure_supported(int op);
Z3_ast tv_bv(TvCtx *t, uint64_t bits, unsigned width);
/* a fresh constant equal to value, its definition added to t->defs: keeps the
 * rewriter from expanding products of products (EXP) */
Z3_ast tv_define(TvCtx *t, Z3_ast value);
/* Z3's simplifier within t's step and memory limits */
Z3_ast tv_simplify(TvCtx *t, Z3_ast a);
/* SELECT's siblings (tv_bits.c): ROTL .. ABS at width w; *ovf set for CHECKED_* */
bool tv_bits_supported(int op);
Z3_ast tv_bits(TvCtx *t, int op, unsigned w, Z3_ast a, Z3_ast b, Z3_ast *ovf);
/* the float gates (tv_float.c), called by tv_pure: operands and result as IEEE bits */
Z3_ast tv_float(TvCtx *t, const Gate *G, Type in_ty, Z3_ast a, Z3_ast b);
bool tv_float_supported(int op);

#endif
