/* tv_path.h — the symbolic executor's path state (fuzz/tv_exec.c), shared with the
 * encoding of the runtime's functions (fuzz/tv_rt.c): one activation's caches, the
 * objects addresses point into, the exits of a path, exceptions in flight.  Internal
 * to the translation validator. */
#ifndef CIRC_FUZZ_TV_PATH_H
#define CIRC_FUZZ_TV_PATH_H

#include "fuzz/tv_internal.h"

/* a condition under which the run ends at this point with kind (val, ty: the thrown
 * value, zero-extended to 64 bits, and its type, for TVK_THROW; else NULL) */
typedef struct { Z3_ast cond; int kind; Z3_ast mem, val, ty; } Exit;

/* the analysis of a function, shared by all its paths */
typedef struct {
    const Func *f;
    const Circuit *c;
    uint32_t n;
    GateId *succ, *alt; /* alt: IF_FALSE of an IF_BRANCH, IF_EXCEPTION of an INVOKE */
    uint32_t *succ_in;
    uint8_t *live;   /* selectors a state gate's operand reaches */
    uint8_t **body;  /* per LOOP_BEGIN: its loop's state gates (NULL otherwise) */
} Shape;

/* calls nest at most INLINE_DEPTH deep; a deeper call (recursion) ends its path with
 * outcome "bound", like a loop's iteration K+1 */
enum { MAX_OBJECTS = 256, INLINE_DEPTH = 4, MAX_WAYS = 255 /* of one decision */, MAX_EXITS = 4096 };

/* one activation: the caches of its gates */
typedef struct {
    const Shape *s;
    Z3_ast *val;
    uint32_t *prov;   /* per value: 0, or 1 + the object it points into (then val is the offset) */
    uint8_t *cur, *busy, *passed;
    uint32_t *iters;
    Z3_ast args[FUNC_MAX_PARAMS];
    uint32_t argprov[FUNC_MAX_PARAMS], nargs;
    Z3_ast caught;    /* the bits (bv64) an INVOKE of this activation caught last */
} Frame;

/* an object addresses may point into: an ALLOCA's bytes, or a function (SYMBOL) */
enum { TVO_ALLOCA = -1, TVO_RUNTIME = -2 /* TVO_RUNTIME - fn: runtime function fn */ };
typedef struct {
    uint64_t size;
    int32_t func;     /* >= 0: a function of the module; TVO_ALLOCA; TVO_RUNTIME - RuntimeFn */
    Z3_ast bytes;     /* array offset -> byte */
} Object;

typedef struct {
    TvCtx *t;
    const Module *m;
    Shape **shapes;   /* per function of m, made when first run */
    Frame *fr;        /* the running activation */
    uint32_t depth;
    Object objects[MAX_OBJECTS];
    uint32_t nobjects;
    Z3_ast ret;       /* what the last callee returned */
    uint32_t ret_prov;
    Z3_ast mem, pc;
    uint8_t *dec, *arity; /* decisions to follow; arities seen */
    uint32_t ndec, pos, steps;
    Exit exits[MAX_EXITS];
    uint32_t nexits;
    bool ended, unsupported;
    uint32_t invokes;  /* INVOKEs whose calls are running (they catch a throw) */
    bool unwinding;    /* a throw is ending activations up to the nearest INVOKE */
    Z3_ast exc;        /* ... with these bits (bv64, zero-extended) */
    TvOut end;
} Path;

/* the path ends here with kind (no value); returns false */
bool tv_end_path(Path *p, int kind);
/* where cond holds, the run ends here with kind; false when it always does */
bool tv_exit_if(Path *p, Z3_ast cond, int kind);
/* the whole function is beyond the encoding (the reason: fmt with name); false */
bool tv_give_up(Path *p, const char *fmt, const char *name);
/* choose among n options whose conditions partition the inputs (a fork); -1: none */
int tv_decide(Path *p, Z3_ast *conds, int n);
/* where cond holds, the value bits (bv64, zero-extended) of type ty are thrown: to the
 * nearest INVOKE (a fork), or out of the run (an exit); false when the path stopped */
bool tv_throw_if(Path *p, Z3_ast cond, Z3_ast bits, Type ty);
/* run module function cf inlined (a fresh activation) on args (their provenance in
 * prov); true with its result in p->ret, false when the path stopped (or unwinds) */
bool tv_run_callee(Path *p, const Func *cf, const Z3_ast *args, const uint32_t *prov);
/* the access of size bytes at addr lies inside the harness buffer */
Z3_ast tv_heap_access_ok(Path *p, Z3_ast addr, unsigned size);

/* the call of runtime function fn by CALL or INVOKE G (the frame's values of G's
 * operands): true with its result in *ret, false when the path stopped or unwinds
 * (fuzz/tv_rt.c) */
bool tv_runtime_call(Path *p, const Gate *G, RuntimeFn fn, Z3_ast *ret);

#endif
