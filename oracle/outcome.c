/* outcome.c — formatting and comparing outcomes; the harness buffer's fill pattern. */
#include "oracle/outcome.h"

#include "oracle/mem.h"

#include <string.h>

/* distinct, non-zero, position-dependent bytes: a misplaced access shows.  Byte i
 * is 0xa5 ^ 7i ^ (i >> 8), spelled out by the preprocessor */
#define PAT1(i) (uint8_t)(0xa5 ^ ((i) * 7) ^ ((i) >> 8)),
#define PAT4(i) PAT1(i) PAT1((i) + 1) PAT1((i) + 2) PAT1((i) + 3)
#define PAT16(i) PAT4(i) PAT4((i) + 4) PAT4((i) + 8) PAT4((i) + 12)
#define PAT64(i) PAT16(i) PAT16((i) + 16) PAT16((i) + 32) PAT16((i) + 48)
#define PAT256(i) PAT64(i) PAT64((i) + 64) PAT64((i) + 128) PAT64((i) + 192)
#define PAT1024(i) PAT256(i) PAT256((i) + 256) PAT256((i) + 512) PAT256((i) + 768)
static const uint8_t pattern[HEAP_SIZE] = {
    PAT1024(0) PAT1024(1024) PAT1024(2048) PAT1024(3072)
};
_Static_assert(HEAP_SIZE == 4096, "the pattern spells out 4096 bytes");

void heap_fill_pattern(uint8_t heap[HEAP_SIZE]) { memcpy(heap, pattern, HEAP_SIZE); }

const uint8_t *heap_pattern(void) { return pattern; }

static bool is_nan(Type t, uint64_t bits)
{
    if (t == TY_F32)
        return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu);
    if (t == TY_F64)
        return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0x000fffffffffffffull);
    return false;
}

static const char *trap_name(int t)
{
    switch (t) {
    case TRAP_DIV0: return "div0";
    case TRAP_OVERFLOW: return "overflow";
    case TRAP_FAULT: return "fault";
    case TRAP_ILLEGAL: return "illegal";
    case TRAP_ABI: return "abi";
    default: return "unknown";
    }
}

static void value_format(char *buf, size_t n, Type t, uint64_t bits)
{
    if (t == TY_NONE)
        snprintf(buf, n, "void");
    else
        lit_format(buf, n, t, bits);
}

bool outcome_abi_label(const Outcome *o, char *buf, size_t n)
{
    if (o->kind != OUT_TRAP || o->trap != TRAP_ABI)
        return false;
    size_t len = strcspn(o->reason, ": ");
    snprintf(buf, n, "%.*s", (int)(len ? len : 3), len ? o->reason : "abi");
    return true;
}

void outcome_format(char *buf, size_t n, const Outcome *o)
{
    char v[64];
    switch (o->kind) {
    case OUT_RETURN:
        value_format(v, sizeof v, (Type)o->type, o->bits);
        snprintf(buf, n, "return %s", v);
        break;
    case OUT_THROW:
        value_format(v, sizeof v, (Type)o->type, o->bits);
        snprintf(buf, n, "throw %s", v);
        break;
    case OUT_TRAP:
        if (outcome_abi_label(o, v, sizeof v))
            snprintf(buf, n, "trap %s", v);
        else
            snprintf(buf, n, "trap %s", trap_name(o->trap));
        break;
    case OUT_TIMEOUT:
        snprintf(buf, n, "timeout");
        break;
    default:
        snprintf(buf, n, "invalid: %s", o->reason[0] ? o->reason : "?");
        break;
    }
}

bool outcome_equal(const Outcome *a, const Outcome *b, char *why, size_t n)
{
    char fa[256], fb[256];
    if (a->kind != b->kind || (a->kind == OUT_TRAP && a->trap != b->trap) ||
        ((a->kind == OUT_RETURN || a->kind == OUT_THROW) &&
         (a->type != b->type ||
          !(a->bits == b->bits || (is_nan((Type)a->type, a->bits) && is_nan((Type)b->type, b->bits)))))) {
        if (why) {
            outcome_format(fa, sizeof fa, a);
            outcome_format(fb, sizeof fb, b);
            snprintf(why, n, "%s vs %s", fa, fb);
        }
        return false;
    }
    if (a->kind == OUT_TIMEOUT || a->kind == OUT_INVALID)
        return true; /* the heap of an unfinished run means nothing */
    if (memcmp(a->heap, b->heap, HEAP_SIZE) == 0)
        return true;
    for (uint32_t i = 0; i < HEAP_SIZE; i++)
        if (a->heap[i] != b->heap[i]) {
            if (why)
                snprintf(why, n, "heap byte %u: 0x%02x vs 0x%02x", i, a->heap[i], b->heap[i]);
            return false;
        }
    return true;
}

bool outcome_matches(const Outcome *o, const RunExpect *e)
{
    switch (e->kind) {
    case EX_VALUE:
        return o->kind == OUT_RETURN && o->bits == e->bits;
    case EX_NAN:
        return o->kind == OUT_RETURN && is_nan((Type)o->type, o->bits);
    case EX_VOID:
        return o->kind == OUT_RETURN && o->type == TY_NONE;
    case EX_TRAP:
        return o->kind == OUT_TRAP && o->trap != TRAP_ABI;
    case EX_TRAP_DIV0:
        return o->kind == OUT_TRAP && o->trap == TRAP_DIV0;
    case EX_TRAP_OVERFLOW:
        return o->kind == OUT_TRAP && o->trap == TRAP_OVERFLOW;
    case EX_THROW: {
        if (o->kind != OUT_THROW)
            return false;
        Type t = (Type)o->type;
        if (ty_is_float(t)) {
            uint64_t want;
            if (e->is_float) {
                double d;
                memcpy(&d, &e->bits, 8);
                if (t == TY_F32) {
                    float f = (float)d;
                    uint32_t u;
                    memcpy(&u, &f, 4);
                    want = u;
                } else {
                    want = e->bits;
                }
                return o->bits == want || (is_nan(t, o->bits) && is_nan(TY_F64, e->bits));
            }
            return false;
        }
        return !e->is_float && (o->bits & ty_mask(t)) == (e->bits & ty_mask(t));
    }
    }
    return false;
}

void runline_args(const RunLine *r, uint64_t *args)
{
    for (uint32_t i = 0; i < r->nargs; i++)
        args[i] = r->args[i].kind == RA_HEAP   ? HEAP_ADDR
                  : r->args[i].kind == RA_FUNC ? RUNARG_FUNC_ADDR(r->args[i].bits)
                                               : r->args[i].bits;
}

void runline_args_at(const RunLine *r, uint64_t code_base, const uint32_t *entry, uint64_t *args)
{
    runline_args(r, args);
    for (uint32_t i = 0; i < r->nargs; i++)
        if (r->args[i].kind == RA_FUNC)
            args[i] = code_base + entry[r->args[i].bits];
}
