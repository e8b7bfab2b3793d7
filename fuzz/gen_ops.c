/* gen_ops.c — generator statements for SELECT and the added integer operations
 * (rotates, min/max, high products, checked arithmetic, bit counts, byte swap, ABS).
 * The checked operations mostly get operands that cannot overflow (halved, or cut to
 * half the width before a multiply), and now and then raw ones, so the overflow trap
 * is exercised without most runs trapping.  A high product often gets one operand
 * spread over every bit (XOR with a random constant). */
#include "fuzz/gen_internal.h"

static const Opcode binary_ops[] = {OP_ROTL, OP_ROTR, OP_SMIN, OP_SMAX, OP_UMIN, OP_UMAX, OP_SMULHI, OP_UMULHI,
                                    OP_CHECKED_ADD, OP_CHECKED_SUB, OP_CHECKED_MUL};
static const Opcode unary_ops[] = {OP_CLZ, OP_CTZ, OP_POPCNT, OP_BSWAP, OP_ABS};
enum { N_BINARY = sizeof binary_ops / sizeof binary_ops[0], N_UNARY = sizeof unary_ops / sizeof unary_ops[0] };

/* an operand of a checked operation that keeps it from overflowing: an arithmetic
 * shift right by 1 (add, sub) or by half the width (mul) */
static GateId tame(Gen *g, Opcode op, Type t, GateId v)
{
    uint64_t by = op == OP_CHECKED_MUL ? (uint64_t)ty_bits(t) / 2 : 1;
    return gen_bin(g, OP_ASHR, t, v, gen_cnst(g, t, by));
}

static void stmt_binary(Gen *g)
{
    Opcode op = binary_ops[gen_rd_below(g, N_BINARY)];
    Type t = gen_rand_int_type(g);
    GateId a = gen_val_of(g, t), b = gen_val_of(g, t);
    bool checked = op == OP_CHECKED_ADD || op == OP_CHECKED_SUB || op == OP_CHECKED_MUL;
    if (checked && !gen_rd_chance(g, 8)) {
        a = tame(g, op, t, a);
        b = tame(g, op, t, b);
    } else if ((op == OP_SMULHI || op == OP_UMULHI) && gen_rd_chance(g, 50)) {
        /* pool values are mostly small: one operand spread over every bit, so that
         * the high product, and the carries into it, are not almost always 0 */
        uint64_t k = (g->c->ngates + 1) * 0x9e3779b97f4a7c15ull; /* no input bytes */
        b = gen_bin(g, OP_XOR, t, b, gen_cnst(g, t, k ^ k >> 29));
    }
    gen_pool_add(g, gen_bin(g, op, t, a, b));
}

static void stmt_unary(Gen *g)
{
    Opcode op = unary_ops[gen_rd_below(g, N_UNARY)];
    Type t = op == OP_BSWAP ? (Type)(TY_I16 + gen_rd_below(g, 3)) : gen_rand_int_type(g);
    gen_pool_add(g, gen_un(g, op, t, gen_val_of(g, t)));
}

static void stmt_select(Gen *g)
{
    Type t = gen_rand_value_type(g);
    GateId in[3];
    in[0] = gen_make_cond(g);
    in[1] = gen_val_of(g, t);
    in[2] = gen_val_of(g, t);
    gen_pool_add(g, gen_add_gate(g, OP_SELECT, t, 0, 0, NULL, 0, NULL, 0, in, 3));
}

void gen_stmt_bits(Gen *g)
{
    switch (gen_rd_below(g, 4)) {
    case 0: stmt_select(g); break;
    case 1: stmt_unary(g); break;
    default: stmt_binary(g); break;
    }
}
