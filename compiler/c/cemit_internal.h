/* cemit_internal.h — what the C backend's files share (cemit.h): the emission context
 * of one function and the C spelling of types and values. */
#ifndef CIRC_CEMIT_INTERNAL_H
#define CIRC_CEMIT_INTERNAL_H

#include "compiler/c/cemit.h"

typedef struct {
    const Module *m;
    const Func *f;
    const Circuit *c;
    const Schedule *s;
    FILE *out;
    bool throws;          /* the module may throw: every function returns a CircCRet */
    const char *prefix;
    Diag *d;
} CEmit;

void c_out(CEmit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *c_type(Type t);          /* cu8 .. cu64, float, double, void */
/* an expression of v's bits as a zero-extended cu64, and of bits as a value of t */
void c_to_bits(CEmit *e, Type t, const char *v);
void c_from_bits(CEmit *e, Type t, const char *bits);
/* the address a SYMBOL literal stands for (an exported function, a runtime function) */
void c_symbol_addr(CEmit *e, uint64_t lit);

/* "static RET circ_c_fK(T p0, ...)", the internal C function of f (emit.c) */
void c_emit_signature(CEmit *e, const Func *f);
/* the C function of f scheduled as s; false after reporting */
bool c_emit_func(CEmit *e, const Func *f, const Schedule *s);

/* the statement(s) computing pure gate g into its variable (emit_ops.c); false after
 * reporting a gate the backend does not know */
bool c_emit_pure(CEmit *e, GateId g);

#endif
