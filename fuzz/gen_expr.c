/* gen_expr.c — generator statements without control flow: integer, float and
 * conversion computations, compares, guarded divisions, and loads and stores whose
 * addresses are a pointer (ALLOCA slot or pointer parameter) plus a masked or
 * range-reduced offset, so every access is in bounds and no address becomes data. */
#include "fuzz/gen_internal.h"

static const int icmp_codes[] = {
    ICMP_eq, ICMP_ne, ICMP_ugt, ICMP_uge, ICMP_ult, ICMP_ule, ICMP_sgt, ICMP_sge, ICMP_slt, ICMP_sle,
};

/* ---- integers -------------------------------------------------------------------- */

void gen_stmt_int(Gen *g)
{
    static const Opcode ops[] = {OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_XOR, OP_OR,
                                 OP_SHL, OP_LSHR, OP_ASHR, OP_EXP};
    static const Opcode logic[] = {OP_AND, OP_XOR, OP_OR};
    if (gen_rd_chance(g, 40)) {
        gen_stmt_bits(g);
        return;
    }
    bool boolean = gen_rd_chance(g, 10);
    Type t = boolean ? TY_I1 : gen_rand_int_type(g);
    Opcode op = boolean ? logic[gen_rd_below(g, 3)] : ops[gen_rd_below(g, 10)];
    GateId a = gen_val_of(g, t);
    GateId b = gen_val_of(g, t);
    gen_pool_add(g, gen_bin(g, op, t, a, b));
}

static GateId nonzero_const(Gen *g, Type t, bool avoid_minus_one)
{
    uint64_t k = gen_rd_below(g, 4) ? gen_rd_below(g, 30) + 2 : gen_rd_u64(g);
    k &= ty_mask(t);
    if (k == 0 || (avoid_minus_one && k == ty_mask(t)))
        k = 3;
    if (gen_rd_chance(g, 30))
        k = (0 - k) & ty_mask(t); /* negative divisor */
    if (avoid_minus_one && k == ty_mask(t))
        k = 5;
    return gen_cnst(g, t, k);
}

GateId gen_stmt_div(Gen *g, bool may_trap)
{
    Type t = gen_rand_int_type(g);
    return gen_div_of(g, t, may_trap, NO_GATE);
}

/* a division whose divisor is never zero and, when signed, never INT_MIN / -1;
 * with may_trap, a raw divisor (the rare division that can trap): `divisor` if it
 * is not NO_GATE */
GateId gen_div_of(Gen *g, Type t, bool may_trap, GateId divisor)
{
    static const Opcode ops[] = {OP_SDIV, OP_SREM, OP_UDIV, OP_UREM};
    Opcode op = ops[gen_rd_below(g, 4)];
    bool is_signed = op == OP_SDIV || op == OP_SREM;
    GateId a = gen_val_of(g, t);
    GateId b = divisor != NO_GATE ? divisor : gen_val_of(g, t);
    if (may_trap && is_signed && gen_rd_chance(g, 30)) {
        /* INT_MIN / (-1 or -2): the overflow trap, when b is odd */
        uint64_t min = (uint64_t)1 << (ty_bits(t) - 1);
        a = gen_rd_chance(g, 50) ? gen_cnst(g, t, min) : gen_bin(g, OP_OR, t, a, gen_cnst(g, t, min));
        b = gen_bin(g, OP_OR, t, b, gen_cnst(g, t, ~1ull));
    }
    if (!may_trap) {
        GateId one = gen_cnst(g, t, 1);
        switch (gen_rd_below(g, 3)) {
        case 0: /* divisor | 1 is nonzero; dividend | 1 is never INT_MIN */
            b = gen_bin(g, OP_OR, t, b, one);
            if (is_signed)
                a = gen_bin(g, OP_OR, t, a, one);
            break;
        case 1: /* a nonnegative dividend cannot overflow */
            b = gen_bin(g, OP_OR, t, b, one);
            if (is_signed)
                a = gen_bin(g, OP_LSHR, t, a, one);
            break;
        default:
            b = nonzero_const(g, t, is_signed);
            break;
        }
    }
    GateId q = gen_bin(g, op, t, a, b);
    gen_pool_add(g, q);
    return q;
}

/* ---- floats, conversions, compares ---------------------------------------------- */

void gen_stmt_float(Gen *g)
{
    static const Opcode ops[] = {OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV, OP_FMOD, OP_FEXP, OP_FNEG};
    if (gen_rd_chance(g, 40)) {
        gen_stmt_fops(g);
        return;
    }
    Type t = gen_rd_chance(g, 50) ? TY_F64 : TY_F32;
    Opcode op = ops[gen_rd_below(g, 7)];
    GateId a = gen_val_of(g, t);
    if (op == OP_FNEG) {
        gen_pool_add(g, gen_un(g, op, t, a));
        return;
    }
    gen_pool_add(g, gen_bin(g, op, t, a, gen_val_of(g, t)));
}

static Type narrower_int(Gen *g, Type than) /* i1 .. than-1 */
{
    return (Type)(TY_I1 + gen_rd_below(g, (uint32_t)(than - TY_I1)));
}

static void convert_bitcast(Gen *g)
{
    static const Type pairs[][2] = {
        {TY_I32, TY_F32}, {TY_F32, TY_I32}, {TY_I64, TY_F64}, {TY_F64, TY_I64}, {TY_I8, TY_I8},
        {TY_I16, TY_I16}, {TY_I32, TY_I32}, {TY_I64, TY_I64}, {TY_F32, TY_F32}, {TY_F64, TY_F64},
    };
    uint32_t k = gen_rd_below(g, 10);
    if (k >= 4 && gen_rd_chance(g, 50))
        k = gen_rd_below(g, 4); /* mostly the interesting int <-> float ones */
    gen_pool_add(g, gen_un(g, OP_BITCAST, pairs[k][1], gen_val_of(g, pairs[k][0])));
}

void gen_stmt_convert(Gen *g)
{
    switch (gen_rd_below(g, 8)) {
    case 0: { /* TRUNC */
        static const Type wide[] = {TY_I16, TY_I32, TY_I64};
        Type from = wide[gen_rd_below(g, 3)];
        Type to = narrower_int(g, from);
        gen_pool_add(g, gen_un(g, OP_TRUNC, to, gen_val_of(g, from)));
        return;
    }
    case 1: { /* ZEXT / SEXT */
        Type to = (Type)(TY_I8 + gen_rd_below(g, 4));
        Type from = narrower_int(g, to);
        Opcode op = gen_rd_chance(g, 50) ? OP_SEXT : OP_ZEXT;
        gen_pool_add(g, gen_un(g, op, to, gen_val_of(g, from)));
        return;
    }
    case 2: case 3: { /* SITOFP / UITOFP */
        Type from = gen_rand_int_type(g);
        Type to = gen_rd_chance(g, 50) ? TY_F64 : TY_F32;
        Opcode op = gen_rd_chance(g, 50) ? OP_SITOFP : OP_UITOFP;
        gen_pool_add(g, gen_un(g, op, to, gen_val_of(g, from)));
        return;
    }
    case 4: case 5: { /* FPTOSI / FPTOUI (saturating) */
        Type from = gen_rd_chance(g, 50) ? TY_F64 : TY_F32;
        Type to = gen_rand_int_type(g);
        Opcode op = gen_rd_chance(g, 50) ? OP_FPTOSI : OP_FPTOUI;
        gen_pool_add(g, gen_un(g, op, to, gen_val_of(g, from)));
        return;
    }
    case 6:
        convert_bitcast(g);
        return;
    default:
        if (gen_rd_chance(g, 50))
            gen_pool_add(g, gen_un(g, OP_FPEXT, TY_F64, gen_val_of(g, TY_F32)));
        else
            gen_pool_add(g, gen_un(g, OP_FPTRUNC, TY_F32, gen_val_of(g, TY_F64)));
        return;
    }
}

static GateId new_compare(Gen *g)
{
    if (gen_rd_chance(g, 35)) {
        Type t = gen_rd_chance(g, 50) ? TY_F64 : TY_F32;
        GateId a = gen_val_of(g, t);
        int cond = (int)gen_rd_below(g, 16);
        return gen_cmp(g, OP_FCMP, cond, a, gen_val_of(g, t));
    }
    Type t = gen_rd_chance(g, 10) ? TY_I1 : gen_rand_int_type(g);
    int cond = icmp_codes[gen_rd_below(g, 10)];
    GateId a = gen_val_of(g, t);
    return gen_cmp(g, OP_ICMP, cond, a, gen_val_of(g, t));
}

void gen_stmt_compare(Gen *g)
{
    gen_pool_add(g, new_compare(g));
}

GateId gen_make_cond(Gen *g)
{
    if (g->pool[TY_I1].n && gen_rd_chance(g, 30))
        return gen_val_of(g, TY_I1);
    if (gen_rd_chance(g, 45)) /* used once, so the branch can take the compare's form */
        return gen_idiom_cond(g);
    GateId c = new_compare(g);
    gen_pool_add(g, c);
    return c;
}

/* ---- memory ------------------------------------------------------------------------ */

/* every tail modulo 8 (7, 15, 23; 6; 5; 4, 12, 100; 2; 1) and whole words: what is
 * zeroed or copied in words has its last bytes done on their own */
static const uint32_t alloca_sizes[] = {8, 16, 32, 64, 24, 100, 256, 4, 2, 1, 12, 7, 15, 6, 5, 23};

GenPtr *gen_pick_ptr(Gen *g, uint32_t min_size)
{
    uint32_t fits[GEN_MAX_PTRS], n = 0;
    for (uint32_t i = 0; i < g->nptrs; i++)
        if (g->ptrs[i].size >= min_size)
            fits[n++] = i;
    bool fresh = g->nptrs < GEN_MAX_PTRS && (n == 0 || gen_rd_chance(g, 10));
    if (!fresh)
        return n ? &g->ptrs[fits[gen_rd_below(g, n)]] : NULL;
    uint32_t size = alloca_sizes[gen_rd_below(g, sizeof alloca_sizes / sizeof alloca_sizes[0])];
    /* one in the entry (which runs once, so zeroing it costs little): offsets past 4095 */
    if (!g->big_alloca && g->fidx + 1 == g->nfuncs && gen_rd_chance(g, 4)) {
        g->big_alloca = true;
        size = gen_rd_chance(g, 70) ? 4104 : 8200;
    }
    if (size < min_size)
        size = min_size;
    GenPtr *p = &g->ptrs[g->nptrs++];
    p->base = gen_add_gate(g, OP_ALLOCA, TY_I64, 0, size, NULL, 0, NULL, 0, NULL, 0);
    p->size = size;
    return p;
}

uint64_t gen_mask_below(uint64_t n)
{
    uint64_t m = 0;
    while (m * 2 + 1 <= n)
        m = m * 2 + 1;
    return m;
}

GateId gen_i64_value(Gen *g)
{
    Type t = gen_rand_int_type(g);
    GateId v = gen_val_of(g, t);
    return t == TY_I64 ? v : gen_un(g, gen_rd_chance(g, 50) ? OP_ZEXT : OP_SEXT, TY_I64, v);
}

/* v & mask; the constant is made first (see gen_ctrl.c on evaluation order) */
static GateId masked64(Gen *g, GateId v, uint64_t mask)
{
    GateId k = gen_cnst(g, TY_I64, mask);
    return gen_bin(g, OP_AND, TY_I64, v, k);
}

/* offset in [0, span] (span = slot size - access width) */
static GateId offset_in(Gen *g, uint64_t span)
{
    switch (gen_rd_below(g, 6)) {
    case 0: case 1:
        return gen_cnst(g, TY_I64, gen_rd_below(g, (uint32_t)span + 1));
    case 2:
        return masked64(g, gen_i64_value(g), gen_mask_below(span));
    case 3: { /* a scaled index: (v & m) << k, k 0..3 (base + index * scale) */
        uint32_t k = gen_rd_below(g, 4);
        while (k && (span >> k) == 0)
            k--;
        GateId i = masked64(g, gen_i64_value(g), gen_mask_below(span >> k));
        return gen_bin(g, OP_SHL, TY_I64, i, gen_cnst(g, TY_I64, k));
    }
    case 4: {
        GateId v = gen_i64_value(g);
        return gen_bin(g, OP_UREM, TY_I64, v, gen_cnst(g, TY_I64, span + 1));
    }
    default: {
        if (!g->nloops)
            return masked64(g, gen_i64_value(g), gen_mask_below(span));
        GenLoopInfo *l = &g->loops[g->nloops - 1 - gen_rd_below(g, g->nloops)];
        GateId i = l->type == TY_I64 ? l->counter : gen_un(g, OP_ZEXT, TY_I64, l->counter);
        GateId scaled = gen_bin(g, OP_MUL, TY_I64, i, gen_cnst(g, TY_I64, 1 + gen_rd_below(g, 8)));
        return gen_bin(g, OP_AND, TY_I64, scaled, gen_cnst(g, TY_I64, gen_mask_below(span)));
    }
    }
}

/* a constant offset at an addressing-mode boundary (x86-64 disp8, ARM64 unscaled
 * and scaled imm12), at most span */
static uint64_t boundary_offset(Gen *g, uint64_t span, uint32_t width)
{
    static const uint64_t at[] = {127, 128, 255, 256, 4095, 4096, 4097, 8191};
    uint64_t k = at[gen_rd_below(g, sizeof at / sizeof at[0])];
    if (gen_rd_chance(g, 40))
        k = k / width * width * (gen_rd_chance(g, 50) ? 1 : 2); /* scaled by the width */
    return k <= span ? k : span - gen_rd_below(g, span < 8 ? (uint32_t)span + 1 : 8);
}

/* base + offset, in one of the forms provenance allows: ADD either way round, or SUB
 * of a negated constant */
GateId gen_address(Gen *g, GenPtr *p, Type t)
{
    uint32_t width = (uint32_t)ty_bits(t) / 8;
    uint32_t form = gen_rd_below(g, 10);
    if (form == 0)
        return p->base;
    if (form == 1) {
        uint64_t span = p->size - width, k = gen_rd_below(g, (uint32_t)span + 1);
        if (span > 120 && gen_rd_chance(g, 50))
            k = boundary_offset(g, span, width);
        GateId c = gen_cnst(g, TY_I64, gen_rd_chance(g, 50) ? k : 0 - k);
        return gen_bin(g, (int64_t)g->c->gates[c].lit < 0 ? OP_SUB : OP_ADD, TY_I64, p->base, c);
    }
    GateId off = offset_in(g, p->size - width);
    return form < 4 ? gen_bin(g, OP_ADD, TY_I64, off, p->base) : gen_bin(g, OP_ADD, TY_I64, p->base, off);
}

void gen_stmt_load(Gen *g)
{
    Type t = gen_rand_mem_type(g);
    GenPtr *p = gen_pick_ptr(g, (uint32_t)ty_bits(t) / 8);
    if (!p)
        return;
    GateId a = gen_address(g, p, t);
    GateId ld = gen_add_gate(g, OP_LOAD, t, 0, 0, NULL, 0, &g->dep, 1, &a, 1);
    g->dep = ld;
    gen_pool_add(g, ld);
}

void gen_stmt_store(Gen *g)
{
    Type t = gen_rand_mem_type(g);
    GenPtr *p = gen_pick_ptr(g, (uint32_t)ty_bits(t) / 8);
    if (!p)
        return;
    GateId v = gen_val_of(g, t);
    if (ty_is_int(t) && t != TY_I64 && gen_rd_chance(g, 25)) { /* a narrowed value */
        static const Type wide[] = {TY_I16, TY_I32, TY_I64};
        Type from = wide[(uint32_t)t - TY_I8 + gen_rd_below(g, (uint32_t)(TY_I64 - t))];
        v = gen_un(g, OP_TRUNC, t, gen_val_of(g, from));
    }
    GateId in[2] = {v, gen_address(g, p, t)};
    g->dep = gen_add_gate(g, OP_STORE, TY_NONE, 0, 0, NULL, 0, &g->dep, 1, in, 2);
}

/* SUB or ICMP of two addresses into the same object: plain values by the provenance
 * rules (docs/semantics.md 6.3), the offsets' difference and order */
void gen_stmt_ptr_measure(Gen *g)
{
    GenPtr *p = gen_pick_ptr(g, 1);
    if (!p)
        return;
    GateId a = gen_address(g, p, TY_I8);
    GateId b = gen_address(g, p, TY_I8);
    if (gen_rd_chance(g, 50))
        gen_pool_add(g, gen_bin(g, OP_SUB, TY_I64, a, b));
    else
        gen_pool_add(g, gen_cmp(g, OP_ICMP, icmp_codes[gen_rd_below(g, 10)], a, b));
}
