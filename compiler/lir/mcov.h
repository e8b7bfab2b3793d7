/* mcov.h — machine-level coverage: for one target and -O level, how often each form
 * of the target's forms table was encoded (and with which condition, for the forms
 * that take one), each encoder path the target names (its cov.def: immediate
 * classes, addressing modes, branch kinds and ranges) and each idiom of the shared
 * selector and path of the allocator (MCOV_IDIOMS below) ran.
 *
 * Counting is optional and costs a NULL test where nothing counts: the compile
 * driver hands a MachCov to the Code (Code.cov, read by the selector) and the
 * layout hands it on to the assembler buffer (LirAsm.cov, read by the encoders).
 * A MachCov is plain data of a fixed size, so a campaign keeps its workers' tallies
 * in shared memory and adds them up (mcov_add).  A function laid out again for a
 * long branch counts its instructions twice: the counts say what ran, and how
 * often roughly; a zero is exact. */
#ifndef CIRC_LIR_MCOV_H
#define CIRC_LIR_MCOV_H

#include "compiler/lir/lir.h"

enum {
    MCOV_MAX_FORMS = 1024, /* rows of a forms table counted (target.c asserts nforms fits) */
    MCOV_CONDS = 16,       /* condition codes per form (RelCond, ResCond, DoubleCond) */
    MCOV_MAX_ITEMS = 96,   /* encoder paths of a target (Target.cov_names) */
};

/* the selector's idioms: X(id, "name") */
#define MCOV_IDIOMS(X)                                                             \
    X(BIT_TEST_BRANCH, "bit-test branch ((x & 2^k) ==/!= 0)")                     \
    X(MASK_TEST_BRANCH, "mask-test branch ((x & m) ==/!= 0, m not one bit)")      \
    X(SIGN_TEST_BRANCH, "sign-test branch (x < 0, x >= 0 as a test of x)")       \
    X(CMP_BRANCH, "compare fused into its branch")                                \
    X(CMP_IMM_BRANCH, "compare with an immediate fused into its branch")          \
    X(CMP_ZERO_BRANCH, "compare with zero fused into its branch")                 \
    X(FCMP_BRANCH, "float compare fused into its branch")                         \
    X(VALUE_BRANCH, "branch on a value (compare with zero)")                      \
    X(MUL_IMM, "multiply by an immediate (three-operand form)")                   \
    X(MUL_POW2, "multiply by a power of two (immediate, or a shift without one)") \
    X(XOR_ONES_NOT, "xor with all ones as not")                                   \
    X(ADDR_SLOT, "address of an ALLOCA as a stack operand")                       \
    X(ADDR_SLOT_OFFSET, "ALLOCA plus a constant as a stack operand")              \
    X(ADDR_BASE_OFFSET, "base plus a constant as a memory operand")               \
    X(ADDR_LARGE_OFFSET, "base plus a constant of 4096 or more")                  \
    X(ADDR_INDEX, "base plus a scaled index as a memory operand")                 \
    X(LOAD_EXTEND, "load of 8 or 16 bits extended")                               \
    X(STORE_NARROW, "store of 8 or 16 bits")                                      \
    X(STORE_IMM, "store of an immediate")                                         \
    X(SELECT_CMOV, "select as a conditional move")                                \
    X(SELECT_CMP_CMOV, "select on a compare fused into its conditional move")    \
    X(SELECT_TEST_CMOV, "select on a bit, mask or sign test fused into its conditional move") \
    X(SELECT_FCMP_CMOV, "select on a float compare fused into its conditional move") \
    X(TEST_SET, "bit, mask or sign test as a value (test and set)")              \
    X(MIN_MAX_CMOV, "min/max as compare and conditional move")                    \
    X(ROTATE_NATIVE, "rotate by the target's instruction")                        \
    X(ROTATE_SHIFTS, "rotate by shifts")                                          \
    X(BITCOUNT_NATIVE, "popcount/clz/ctz/bswap by the target's instruction")      \
    X(BITCOUNT_EXPANDED, "popcount/clz/ctz/bswap expanded")                       \
    X(MULH_NATIVE, "high multiply by the target's instruction")                   \
    X(BITFIELD_EXTRACT, "(x >> k) & (2^w - 1) as one field extract")              \
    X(CHECKED_NATIVE, "overflow-checked arithmetic by flags")                     \
    X(NARROW_WRAP, "result of 8 or 16 bits wrapped (zero above)")               \
    X(PARMOVE_FREE_REG, "allocator: a parallel move's temporary in a free register") \
    X(PARMOVE_SLOT, "allocator: a parallel move's temporary in a scratch slot")

typedef enum {
#define X(id, name) MCOV_##id,
    MCOV_IDIOMS(X)
#undef X
    MCOV_IDIOM_COUNT
} McovIdiom;

typedef struct MachCov {
    uint32_t forms[MCOV_MAX_FORMS];
    uint32_t conds[MCOV_MAX_FORMS][MCOV_CONDS];
    uint32_t items[MCOV_MAX_ITEMS];
    uint32_t idioms[MCOV_IDIOM_COUNT];
} MachCov;

const char *mcov_idiom_name(McovIdiom i);

/* an encoder path, an idiom (cov may be NULL: nothing counts) */
static inline void mcov_item(MachCov *cov, unsigned item)
{
    if (cov && item < MCOV_MAX_ITEMS)
        cov->items[item]++;
}
static inline void mcov_idiom(MachCov *cov, McovIdiom i)
{
    if (cov)
        cov->idioms[i]++;
}
/* inst encoded by form (a row of t's table): the form, and its condition if it has one */
void mcov_inst(MachCov *cov, const Target *t, const LirForm *form, const Inst *inst);

/* does form take a condition, and how many codes has its kind (0: none) */
unsigned mcov_form_conds(const LirForm *form);
/* the condition codes a form's kind has, by name ("eq", "oge"...), i < mcov_form_conds */
const char *mcov_cond_name(const LirForm *form, unsigned i);

/* into += from */
void mcov_add(MachCov *into, const MachCov *from);

#endif
