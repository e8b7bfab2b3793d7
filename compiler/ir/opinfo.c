/* opinfo.c — the opcode table expanded from opcodes.def, types and condition codes. */
#include "ir.h"

#include <string.h>

const OpInfo op_info[OP_COUNT] = {
#define OP(n, smin, smax, dmin, dmax, vmin, vmax, tysyn, lit, cond, rule, flags) \
    [OP_##n] = {#n, smin, smax, dmin, dmax, vmin, vmax, tysyn, lit, cond, rule, flags},
#include "opcodes.def"
#undef OP
};

static bool word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

int op_parse(const char *s, size_t n)
{
    for (int op = 0; op < OP_COUNT; op++)
        if (!op_has(op, F_ROOT) && word_is(s, n, op_info[op].name))
            return op;
    return -1;
}

static const char *const type_names[TY_COUNT] = {"void", "i1", "i8", "i16", "i32", "i64", "f32", "f64"};
static const int type_bits[TY_COUNT] = {0, 1, 8, 16, 32, 64, 32, 64};

int ty_bits(Type t) { return t < TY_COUNT ? type_bits[t] : 0; }
bool ty_is_int(Type t) { return t >= TY_I1 && t <= TY_I64; }
bool ty_is_float(Type t) { return t == TY_F32 || t == TY_F64; }
const char *ty_name(Type t) { return t < TY_COUNT ? type_names[t] : "?"; }

Type ty_parse(const char *s, size_t n)
{
    for (int t = TY_I1; t < TY_COUNT; t++)
        if (word_is(s, n, type_names[t]))
            return (Type)t;
    return TY_COUNT;
}

uint64_t ty_mask(Type t)
{
    int b = ty_bits(t);
    return b >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << b) - 1);
}

int64_t ty_sext(Type t, uint64_t bits)
{
    int b = ty_bits(t);
    if (b == 0 || b >= 64)
        return (int64_t)bits;
    uint64_t m = (uint64_t)1 << (b - 1);
    bits &= ty_mask(t);
    return (int64_t)((bits ^ m) - m);
}

typedef struct { const char *name; int code; } CondName;
static const CondName icmp_names[] = {
#define ICC(n, e) {#n, e},
#define FCC(n, e)
#include "conds.def"
#undef ICC
#undef FCC
};
static const CondName fcmp_names[] = {
#define ICC(n, e)
#define FCC(n, e) {#n, e},
#include "conds.def"
#undef ICC
#undef FCC
};

static const CondName *cond_table(CondKind k, size_t *n)
{
    if (k == CC_ICMP) {
        *n = sizeof icmp_names / sizeof icmp_names[0];
        return icmp_names;
    }
    if (k == CC_FCMP) {
        *n = sizeof fcmp_names / sizeof fcmp_names[0];
        return fcmp_names;
    }
    *n = 0;
    return NULL;
}

const char *cond_name(CondKind k, int code)
{
    size_t n;
    const CondName *t = cond_table(k, &n);
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code)
            return t[i].name;
    return NULL;
}

int cond_parse(CondKind k, const char *s, size_t len)
{
    size_t n;
    const CondName *t = cond_table(k, &n);
    for (size_t i = 0; i < n; i++)
        if (word_is(s, len, t[i].name))
            return t[i].code;
    return -1;
}
