/* form_table.h — the helper macros a target's forms.def expands with to build its
 * LirForm table: each form argument is one integer (kinds | fixed register << 16)
 * so that the kinds pass through the FORMn macros as single macro arguments.
 * Include it last, right before the table (the short names T, I, B, M, ... are
 * meant for forms.def only); the target adds its own fixed-register names with
 * FIXED(reg). */
#ifndef CIRC_LIR_FORM_TABLE_H
#define CIRC_LIR_FORM_TABLE_H

#include "compiler/lir/lir.h"

#define FIXED(reg) (FK_TMP | (1 + (reg)) << 16)
#define T FK_TMP
#define I FK_IMM
#define B FK_BIGIMM
#define M FK_MEM
#define SYM FK_SYMBOL
#define REL FK_RELCOND
#define RES FK_RESCOND
#define DBL FK_DOUBLECOND
#define FA(x) { (uint16_t)((x) & 0xffff), (uint8_t)((x) >> 16) }
#define FORM0(op, enc, param, w) { LIR_##op, 0, enc, param, w, { { 0, 0 } }, 0 },
#define FORM1(op, enc, param, w, a) { LIR_##op, 1, enc, param, w, { FA(a) }, 0 },
#define FORM2(op, enc, param, w, a, b) { LIR_##op, 2, enc, param, w, { FA(a), FA(b) }, 0 },
#define FORM3(op, enc, param, w, a, b, c) { LIR_##op, 3, enc, param, w, { FA(a), FA(b), FA(c) }, 0 },
#define FORM4(op, enc, param, w, a, b, c, d) \
    { LIR_##op, 4, enc, param, w, { FA(a), FA(b), FA(c), FA(d) }, 0 },
#define FORM5(op, enc, param, w, a, b, c, d, e) \
    { LIR_##op, 5, enc, param, w, { FA(a), FA(b), FA(c), FA(d), FA(e) }, 0 },
/* a form only CPU levels with the features `needs` have (Target.features) */
#define FORM2N(needs, op, enc, param, w, a, b) { LIR_##op, 2, enc, param, w, { FA(a), FA(b) }, needs },
#define FORM3N(needs, op, enc, param, w, a, b, c) \
    { LIR_##op, 3, enc, param, w, { FA(a), FA(b), FA(c) }, needs },

#endif
