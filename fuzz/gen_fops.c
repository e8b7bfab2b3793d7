/* gen_fops.c — the generator's float operations beyond arithmetic: SQRT FLOOR CEIL
 * FTRUNC NEAREST FABS (one operand) and FMIN FMAX FCOPYSIGN (two), at f32 and f64.
 * Operands lean toward the values these operations get wrong: halfway cases of
 * NEAREST, values just below one half, 2^52 (2^23) and its neighbours (the edge of
 * the integral range), signed zeros, NaNs with payloads and both signs, infinities,
 * subnormals. */
#include "gen_internal.h"

static const uint64_t edge_f64[] = {
    0x3fe0000000000000ull, 0xbfe0000000000000ull, /* +-0.5 */
    0x3ff8000000000000ull, 0xc004000000000000ull, /* 1.5, -2.5 */
    0x4004000000000000ull, 0xc00c000000000000ull, /* 2.5, -3.5 */
    0x3fdfffffffffffffull, 0xbfe6666666666666ull, /* the double below 0.5, -0.7 */
    0x432fffffffffffffull, 0xc32fffffffffffffull, /* +-(2^52 - 0.5) */
    0x4330000000000000ull, 0x4330000000000001ull, /* 2^52, 2^52 + 1 */
    0x432ffffffffffffeull, 0xc330000000000001ull, /* 2^52 - 1, -(2^52 + 1) */
    0x0000000000000000ull, 0x8000000000000000ull, /* +-0 */
    0x7ff4000000000001ull, 0xfff8000000000123ull, /* NaNs with payloads */
    0x7ff0000000000000ull, 0xfff0000000000000ull, /* +-inf */
    0x800fffffffffffffull, 0x7fefffffffffffffull, /* subnormal, max */
};

static const uint32_t edge_f32[] = {
    0x3f000000u, 0xbf000000u, 0x3fc00000u, 0xc0200000u, 0x40200000u, 0xc0600000u,
    0x3effffffu, 0xbf333333u, 0x4affffffu, 0xcaffffffu, 0x4b000000u, 0x4b000001u,
    0x4afffffeu, 0xcb000001u, 0x00000000u, 0x80000000u, 0x7fa00001u, 0xffc00123u,
    0x7f800000u, 0xff800000u, 0x807fffffu, 0x7f7fffffu,
};

/* an operand of type t: an edge constant, or a value of the program */
static GateId operand(Gen *g, Type t)
{
    if (!gen_rd_chance(g, 35))
        return gen_val_of(g, t);
    if (t == TY_F64)
        return gen_cnst(g, t, edge_f64[gen_rd_below(g, sizeof edge_f64 / sizeof edge_f64[0])]);
    return gen_cnst(g, t, edge_f32[gen_rd_below(g, sizeof edge_f32 / sizeof edge_f32[0])]);
}

void gen_stmt_fops(Gen *g)
{
    static const Opcode ops[] = {OP_SQRT, OP_FLOOR, OP_CEIL, OP_FTRUNC, OP_NEAREST,
                                 OP_FABS, OP_FMIN,  OP_FMAX, OP_FCOPYSIGN};
    Type t = gen_rd_chance(g, 50) ? TY_F64 : TY_F32;
    Opcode op = ops[gen_rd_below(g, sizeof ops / sizeof ops[0])];
    GateId a = operand(g, t);
    if (op_info[op].vmin == 1)
        gen_pool_add(g, gen_un(g, op, t, a));
    else
        gen_pool_add(g, gen_bin(g, op, t, a, operand(g, t)));
}
