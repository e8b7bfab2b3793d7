/* trust_common.h — what the emulator trust tests of both ISAs share (trust_x64.c,
 * trust_a64.c): random operand values and states, drawing an encoded instruction of
 * a straight-line register/immediate form of the target's forms table, comparing
 * two runs' states, and counting and reporting differences per form. */
#ifndef CIRC_TRUST_COMMON_H
#define CIRC_TRUST_COMMON_H

#include "bench/trust/trust_state.h"
#include "compiler/lir/asm.h"
#include "compiler/target.h"

#include <stdbool.h>

/* xorshift64 (the state never 0) */
uint64_t trust_next(uint64_t *rng);
/* an operand value: an edge value, a small signed value or any 64 bits */
uint64_t trust_value(uint64_t *rng);
/* random values in the first ngp general and nvec vector registers (the rest 0) */
void trust_random_regs(uint64_t *rng, TrustState *s, unsigned ngp, unsigned nvec);

/* an encoded instruction (in *as, lir_asm_init'ed here) of a straight-line form whose
 * arguments are registers, immediates and conditions, naming no general register of
 * the mask skip_gp; false if this draw is not one (draw again) */
bool trust_draw(uint64_t *rng, const Target *tg, Code *c, LirAsm *as, const LirForm **form, uint64_t skip_gp);

/* the registers compared: the first ngp general registers but those of skip_gp,
 * the first nvec vector registers */
typedef struct {
    unsigned ngp, nvec;
    uint64_t skip_gp;
} TrustShape;

typedef enum { TRUST_SAME, TRUST_DIFF_FLAGS, TRUST_DIFF_REGS, TRUST_DIFF_FAULT, TRUST_KNOWN } TrustVerdict;

/* a against b (ok: it ran without a fault); flags: the status bits compared */
TrustVerdict trust_compare(const TrustShape *sh, bool a_ok, bool b_ok, const TrustState *a, const TrustState *b,
                           uint64_t flags);

typedef struct {
    uint32_t runs, regs, flags, faults, known;
    uint8_t example[TRUST_CODE_MAX];  /* the first differing instruction's bytes */
    uint8_t example_len;
    bool example_regs;    /* it differed in registers or faulting (else in flags) */
} TrustFormStats;

void trust_record(TrustFormStats *f, TrustVerdict v, const uint8_t *code, uint32_t len);
/* per form with a difference a line, then the summary; known names the known
 * defect's count ("NaN picks (known)"); true if a difference other than the known one */
bool trust_report(const Target *tg, const TrustFormStats *st, uint64_t n, const char *known);

#endif
