/* mem.h — the oracle's value and memory core, shared by the graph interpreter and the
 * scheduled-form interpreter: values with provenance, the harness buffer, ALLOCA
 * objects (zero-filled, stack-like lifetime), SYMBOL addresses, bounds checks, effect
 * instances and the race detector (docs/semantics.md, "Memory" and "Races").
 *
 * Provenance: a value either is a plain integer (prov 0) or carries the object it
 * points into (an ALLOCA of a live activation, or a SYMBOL of the module).  Only a few
 * operations may see such a value (val_pure says which); any other use is invalid. */
#ifndef CIRC_MEM_H
#define CIRC_MEM_H

#include "compiler/ir/eval.h"
#include "oracle/outcome.h"

typedef struct { uint64_t bits; uint32_t prov; } Val;

enum { OBJ_SYMBOL = 1, OBJ_ALLOCA = 2 };
#define SYMBOL_REGION 0x0000500000000000ull /* + 16 * function index */
#define ALLOCA_REGION 0x00007f0000000000ull /* + (serial << 24): one slot per object */
#define ALLOCA_MAX (1u << 24)               /* larger ALLOCAs are invalid */
/* the stack of a run: the ALLOCA bytes live at once (16-byte rounded) may not exceed
 * it; a run that would is a `timeout` (a resource limit, like the call depth), so no
 * run the oracles accept needs more stack than the emulator maps (oracle/emu.h) */
#define STACK_LIMIT (1u << 20)

typedef struct Mem Mem;

Mem *mem_new(const Module *m);
/* mem, now serving module m: one memory can serve interpreter after interpreter,
 * sparing each a fresh 52 KB to clear (mem_reset still runs before every call) */
Mem *mem_rebind(Mem *mem, const Module *m);
void mem_free(Mem *mem);
/* before a top-level call: harness buffer := heap_fill_pattern(), no ALLOCA, no effects */
void mem_reset(Mem *mem);
const uint8_t *mem_heap(const Mem *mem);

/* the address and provenance of SYMBOL @func (func: a SYMBOL literal, an extern's too) */
Val mem_symbol(const Mem *mem, uint32_t func);
/* the callee a CALL's first operand names, or -1 if it is not a SYMBOL of the module */
int mem_callee(const Mem *mem, Val callee);
/* the RuntimeFn a CALL's first operand names (a SYMBOL of an extern), or -1 */
int mem_callee_runtime(const Mem *mem, Val callee);
/* a top-level argument: the address of function i (mem_symbol) given as bits
 * SYMBOL_REGION + 16 i (what a run line's `@name` passes: RUNARG_FUNC_ADDR) gets its
 * provenance; any other bits are a plain value */
Val mem_arg_value(const Mem *mem, uint64_t bits);
#define RUNARG_FUNC_ADDR(i) (SYMBOL_REGION + 16 * (uint64_t)(i))
/* a fresh zero-filled object of size bytes for ALLOCA gate g of func: MEM_ALLOCA_OK,
 * MEM_ALLOCA_TOO_BIG (size beyond ALLOCA_MAX: invalid) or MEM_STACK_EXHAUSTED (the
 * live ALLOCAs would exceed STACK_LIMIT: a timeout) */
typedef enum { MEM_ALLOCA_OK, MEM_ALLOCA_TOO_BIG, MEM_STACK_EXHAUSTED } MemAllocaResult;
MemAllocaResult mem_alloca(Mem *mem, uint64_t size, uint32_t func, GateId g, Val *out);
/* ALLOCA bytes allocated since mem_reset (every activation's, live or not): compiled
 * code zero-fills them, so emulator budgets grow with it */
uint64_t mem_alloca_total(const Mem *mem);
/* ALLOCAs made after a mark die at mem_release (the end of their activation) */
uint32_t mem_mark(const Mem *mem);
void mem_release(Mem *mem, uint32_t mark);
/* "ALLOCA %buf" or "SYMBOL @f" */
void mem_describe(const Mem *mem, uint32_t prov, char *buf, size_t n);

/* Effect instances: every LOAD, STORE and CALL that runs gets one, numbered in the
 * order they run (instance 0 is the top-level entry).  pred: the instance its
 * dependency input carries; call: the CALL instance whose callee it runs in (0 at top
 * level).  An instance happens before another if it is an ancestor of it through pred
 * links, or lies inside a call that is. */
uint32_t mem_instance(Mem *mem, uint32_t pred, uint32_t call, uint32_t func, GateId g);
/* the instance DEPEND_AND gate g of func stands for: after every one of the n
 * instances in preds (one of them itself when they are all the same) */
uint32_t mem_join(Mem *mem, const uint32_t *preds, uint32_t n, uint32_t call, uint32_t func, GateId g);
bool mem_ordered(Mem *mem, uint32_t before, uint32_t after);

/* accesses of size bytes (1..8), little-endian, any alignment; bounds, lifetime and
 * races checked; on false, why says what is invalid */
bool mem_load(Mem *mem, Val addr, uint32_t size, uint32_t inst, uint64_t *bits, char *why, size_t n);
bool mem_store(Mem *mem, Val addr, uint32_t size, uint64_t bits, uint32_t inst, char *why, size_t n);

/* a pure gate on values with provenance: EVAL_OK, EVAL_TRAP_*, EVAL_NOT_PURE, or
 * VAL_ESCAPES when an address may not flow into this operation (*bad: the operand) */
enum { VAL_ESCAPES = 100 };
int val_pure(int op, Type ty, int cond, Type in_ty, const Val *in, uint32_t nin, Val *out, uint32_t *bad);

/* val_pure for the interpreters' inner loops: operands with no address (nearly all)
 * go straight to eval_pure without the call; in[] has two entries, the second zero
 * when nin is 1, or three for SELECT */
static inline int val_pure_hot(int op, Type ty, int cond, Type in_ty, const Val *in, uint32_t nin, Val *out,
                               uint32_t *bad)
{
    if (nin > 2 || (in[0].prov | in[1].prov))
        return val_pure(op, ty, cond, in_ty, in, nin, out, bad);
    const uint64_t bits[2] = {in[0].bits, in[1].bits};
    out->prov = 0;
    return eval_pure(op, ty, cond, in_ty, bits, nin, &out->bits);
}

#endif
