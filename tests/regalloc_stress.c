/* regalloc_stress.c — random LIR programs (straight-line code, diamonds, while and
 * do-while loops whose back edges may be critical, calls with the SysV clobbers, a
 * division and shifts through fixed registers, 32-bit zero-extending defs, an
 * ALLOCA slot, doubles, values swapped through moves) allocated with every register and with 2..14 GP / 2..16 FP
 * registers under random options, then run under Unicorn on several inputs: every
 * allocation must succeed, verify and have forms, and every run must return what
 * the run with every register returned; and each program's liveness refreshed
 * after random changes is a new liveness of it.  Usage: test_regalloc_stress
 * [PROGRAMS [SEED]]. */
#include "regalloc_util.h"
#include "compiler/lir/ra_internal.h"

#include <inttypes.h>

#include "tests/test_check.h"

enum { NGP_MAX = 12, NFP_MAX = 5 };

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rnd(Rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static unsigned below(Rng *r, unsigned n) { return (unsigned)(rnd(r) % n); }

typedef struct {
    Code *c;
    Rng r;
    Tmp gp[NGP_MAX], fp[NFP_MAX];
    unsigned ngp, nfp;
    uint32_t slot;
    bool calls;
    LirBlock *cur;
} Gen;

#define A(...) (Arg[]){ __VA_ARGS__ }
#define NARGS(...) (unsigned)(sizeof((Arg[]){ __VA_ARGS__ }) / sizeof(Arg))
#define EMIT(g, op, ...) lir_append((g)->c, (g)->cur, LIR_##op, NARGS(__VA_ARGS__), A(__VA_ARGS__))

static Arg R(unsigned reg) { return arg_tmp(tmp_gp(reg)); }
static Arg gp(Gen *g) { return arg_tmp(g->gp[below(&g->r, g->ngp)]); }
static Arg fp(Gen *g) { return arg_tmp(g->fp[below(&g->r, g->nfp)]); }
static Arg small_imm(Gen *g) { return arg_imm((int64_t)below(&g->r, 200) - 100); }

static void emit_call(Gen *g)
{
    EMIT(g, Move, gp(g), R(X64_RDI));
    EMIT(g, Move, gp(g), R(X64_RSI));
    CallInfo *ci = arena_alloc(g->c->arena, sizeof *ci);
    ci->uses = arena_alloc(g->c->arena, 2 * sizeof(Arg));
    ci->uses[0] = R(X64_RDI);
    ci->uses[1] = R(X64_RSI);
    ci->nuses = 2;
    ci->defs = arena_alloc(g->c->arena, sizeof(Arg));
    ci->defs[0] = R(X64_RAX);
    ci->ndefs = 1;
    ci->clobbers[BANK_GP] = (1u << X64_RAX) | (1u << X64_RCX) | (1u << X64_RDX) | (1u << X64_RSI) |
                            (1u << X64_RDI) | (1u << X64_R8) | (1u << X64_R9) | (1u << X64_R10) |
                            (1u << X64_R11);
    ci->clobbers[BANK_FP] = 0xffff;
    Inst *in = EMIT(g, Call, arg_symbol(TARGET_FUNC, 1, 0));
    in->call = ci;
    EMIT(g, Move, R(X64_RAX), gp(g));
}

static void emit_divide(Gen *g)
{
    Tmp d = lir_new_tmp(g->c, BANK_GP);
    EMIT(g, Move, gp(g), R(X64_RAX));
    EMIT(g, Move, arg_imm(0), R(X64_RDX));
    EMIT(g, Move, gp(g), arg_tmp(d));
    EMIT(g, Or64, arg_imm(1), arg_tmp(d));
    EMIT(g, X86Div64, R(X64_RAX), R(X64_RDX), arg_tmp(d));
    EMIT(g, Move, R(below(&g->r, 2) ? X64_RAX : X64_RDX), gp(g));
}

static void emit_shift(Gen *g)
{
    static const LirOp ops[] = { LIR_Lshift64, LIR_Rshift64, LIR_Urshift64 };
    EMIT(g, Move, gp(g), R(X64_RCX));
    Arg args[2] = { R(X64_RCX), gp(g) };
    lir_append(g->c, g->cur, ops[below(&g->r, 3)], 2, args);
}

static void emit_binop(Gen *g)
{
    static const LirOp ops[] = { LIR_Add64, LIR_Sub64, LIR_Xor64, LIR_And64, LIR_Or64, LIR_Mul64, LIR_Add32 };
    LirOp op = ops[below(&g->r, 7)];
    Arg src = below(&g->r, 4) || op == LIR_Mul64 ? gp(g) : small_imm(g);
    Arg args[2] = { src, gp(g) };
    lir_append(g->c, g->cur, op, 2, args);
}

static void emit_fp(Gen *g)
{
    static const LirOp ops[] = { LIR_AddDouble, LIR_SubDouble, LIR_MulDouble };
    switch (below(&g->r, 4)) {
    case 0:
        EMIT(g, ConvertInt64ToDouble, gp(g), fp(g));
        break;
    case 1:
        EMIT(g, TruncateDoubleToInt64, fp(g), gp(g));
        break;
    default: {
        Arg args[2] = { fp(g), fp(g) };
        lir_append(g->c, g->cur, ops[below(&g->r, 3)], 2, args);
    }
    }
}

/* a = b, b = c, c = a through a fresh tmp: move cycles where locations change */
static void emit_rotate(Gen *g, Bank bank)
{
    Tmp *pool = bank == BANK_GP ? g->gp : g->fp;
    unsigned n = bank == BANK_GP ? g->ngp : g->nfp;
    if (n < 2)
        return;
    unsigned a = below(&g->r, n), b = (a + 1 + below(&g->r, n - 1)) % n;
    LirOp mv = bank == BANK_GP ? LIR_Move : LIR_MoveDouble;
    Tmp t = lir_new_tmp(g->c, bank);
    Arg save[2] = { arg_tmp(pool[a]), arg_tmp(t) }, shift[2] = { arg_tmp(pool[b]), arg_tmp(pool[a]) },
        back[2] = { arg_tmp(t), arg_tmp(pool[b]) };
    lir_append(g->c, g->cur, mv, 2, save);
    lir_append(g->c, g->cur, mv, 2, shift);
    lir_append(g->c, g->cur, mv, 2, back);
}

static void emit_op(Gen *g)
{
    switch (below(&g->r, 19)) {
    case 16: emit_rotate(g, BANK_GP); break;
    case 17: emit_rotate(g, BANK_FP); break;
    case 18: EMIT(g, MoveDouble, fp(g), fp(g)); break;
    case 0: case 1: case 2: case 3: case 4: emit_binop(g); break;
    case 5: EMIT(g, Move, gp(g), gp(g)); break;
    case 6: EMIT(g, Move32, gp(g), gp(g)); break;
    case 7: EMIT(g, Mul64, arg_imm((int64_t)below(&g->r, 9) + 2), gp(g), gp(g)); break;
    case 8: emit_shift(g); break;
    case 9: emit_divide(g); break;
    case 10: EMIT(g, Compare64, arg_relcond((RelCond)below(&g->r, REL_COUNT)), gp(g), gp(g), gp(g)); break;
    case 11: case 12: emit_fp(g); break;
    case 13: EMIT(g, Move, gp(g), arg_stack(g->slot, 0)); break;
    case 14: EMIT(g, Move, arg_stack(g->slot, 0), gp(g)); break;
    default:
        if (g->calls)
            emit_call(g);
        else
            EMIT(g, Lea64, arg_addr(g->gp[below(&g->r, g->ngp)], (int64_t)below(&g->r, 64)), gp(g));
    }
}

static void emit_ops(Gen *g, unsigned max)
{
    for (unsigned n = 1 + below(&g->r, max); n > 0; n--)
        emit_op(g);
}

static LirBlock *new_block(Gen *g) { return lir_add_block(g->c, 1); }

static void jump_to(Gen *g, LirBlock *to)
{
    EMIT(g, Jump);
    lir_add_succ(g->c, g->cur, to->index);
}

static void gen_diamond(Gen *g)
{
    LirBlock *then = new_block(g), *other = new_block(g), *join = new_block(g);
    EMIT(g, Branch64, arg_relcond((RelCond)below(&g->r, REL_COUNT)), gp(g), gp(g));
    lir_add_succ(g->c, g->cur, then->index);
    lir_add_succ(g->c, g->cur, other->index);
    g->cur = then;
    emit_ops(g, 6);
    jump_to(g, join);
    g->cur = other;
    emit_ops(g, 6);
    jump_to(g, join);
    g->cur = join;
}

static void gen_loop(Gen *g, bool do_while)
{
    Tmp i = lir_new_tmp(g->c, BANK_GP);
    int64_t trip = 1 + below(&g->r, 5);
    EMIT(g, Move, arg_imm(0), arg_tmp(i));
    LirBlock *head = new_block(g), *body = do_while ? head : new_block(g), *exit;
    jump_to(g, head);
    g->cur = head;
    if (!do_while) {
        exit = new_block(g);
        EMIT(g, Branch64, arg_relcond(REL_sge), arg_tmp(i), arg_imm(trip));
        lir_add_succ(g->c, head, exit->index);
        lir_add_succ(g->c, head, body->index);
        g->cur = body;
        emit_ops(g, 10);
        EMIT(g, Add64, arg_imm(1), arg_tmp(i));
        jump_to(g, head);
    } else {
        emit_ops(g, 10);
        EMIT(g, Add64, arg_imm(1), arg_tmp(i));
        exit = new_block(g);
        EMIT(g, Branch64, arg_relcond(REL_slt), arg_tmp(i), arg_imm(trip));
        lir_add_succ(g->c, body, body->index);
        lir_add_succ(g->c, body, exit->index);
    }
    g->cur = exit;
}

static void gen_entry(Gen *g)
{
    g->ngp = 3 + below(&g->r, NGP_MAX - 2);
    g->nfp = below(&g->r, NFP_MAX + 1);
    for (unsigned k = 0; k < g->ngp; k++)
        g->gp[k] = lir_new_tmp(g->c, BANK_GP);
    for (unsigned k = 0; k < g->nfp; k++)
        g->fp[k] = lir_new_tmp(g->c, BANK_FP);
    g->slot = lir_add_slot(g->c, 8, 8, true);
    EMIT(g, Move, R(X64_RDI), arg_tmp(g->gp[0]));
    EMIT(g, Move, R(X64_RSI), arg_tmp(g->gp[1]));
    for (unsigned k = 2; k < g->ngp; k++)
        EMIT(g, Move, arg_imm((int64_t)rnd(&g->r) % 1000), arg_tmp(g->gp[k]));
    for (unsigned k = 0; k < g->nfp; k++)
        EMIT(g, ConvertInt64ToDouble, arg_tmp(g->gp[k % g->ngp]), arg_tmp(g->fp[k]));
    EMIT(g, Move, arg_tmp(g->gp[2]), arg_stack(g->slot, 0));
    if (!g->nfp) {   /* fp() needs one */
        g->fp[0] = lir_new_tmp(g->c, BANK_FP);
        EMIT(g, ConvertInt64ToDouble, arg_tmp(g->gp[1]), arg_tmp(g->fp[0]));
        g->nfp = 1;
    }
}

static void gen_exit(Gen *g)
{
    Tmp sum = lir_new_tmp(g->c, BANK_GP), t = lir_new_tmp(g->c, BANK_GP);
    EMIT(g, Move, arg_stack(g->slot, 0), arg_tmp(sum));
    for (unsigned k = 0; k < g->ngp; k++) {
        EMIT(g, Mul64, arg_imm(31), arg_tmp(sum), arg_tmp(sum));
        EMIT(g, Add64, arg_tmp(g->gp[k]), arg_tmp(sum));
    }
    for (unsigned k = 0; k < g->nfp; k++) {
        EMIT(g, MoveDoubleTo64, arg_tmp(g->fp[k]), arg_tmp(t));
        EMIT(g, Xor64, arg_tmp(t), arg_tmp(sum));
    }
    EMIT(g, Move, arg_tmp(sum), R(X64_RAX));
    EMIT(g, Ret64, R(X64_RAX));
}

static Code *gen_program(Arena *a, uint64_t seed)
{
    Gen g = { 0 };
    g.r.s = seed * 0x9e3779b97f4a7c15ull + 1;
    g.c = lir_code_new(a, x64_target(), "stress", 0);
    g.c->frame_base = tmp_gp(X64_RBP);
    g.calls = below(&g.r, 2);
    g.cur = new_block(&g);
    gen_entry(&g);
    unsigned loops = 0;
    for (unsigned seg = 2 + below(&g.r, 5); seg > 0; seg--) {
        unsigned kind = below(&g.r, 4);
        if (kind == 0)
            emit_ops(&g, 8);
        else if (kind == 1)
            gen_diamond(&g);
        else if (loops++ < 2)
            gen_loop(&g, kind == 3);
    }
    gen_exit(&g);
    return g.c;
}

/* function 1: rdi * 3 + rsi */
static Code *gen_callee(Arena *a)
{
    Gen g = { 0 };
    g.c = lir_code_new(a, x64_target(), "callee", 1);
    g.c->frame_base = tmp_gp(X64_RBP);
    g.cur = new_block(&g);
    Tmp x = lir_new_tmp(g.c, BANK_GP), y = lir_new_tmp(g.c, BANK_GP);
    EMIT(&g, Move, R(X64_RDI), arg_tmp(x));
    EMIT(&g, Mul64, arg_imm(3), arg_tmp(x), arg_tmp(y));
    EMIT(&g, Add64, R(X64_RSI), arg_tmp(y));
    EMIT(&g, Move, arg_tmp(y), R(X64_RAX));
    EMIT(&g, Ret64, R(X64_RAX));
    return g.c;
}

enum { NRUNS = 3 };
static const uint64_t run_args[NRUNS][2] = { { 5, (uint64_t)-3 }, { 123456789, 42 }, { (uint64_t)-1, 7 } };

typedef struct {
    uint8_t kind;
    uint64_t bits;
} Result;

static bool run_program(Emu *emu, uint64_t seed, const RegallocOptions *opt, Result *res, const char *label)
{
    Arena *a = arena_new();
    Code *codes[2] = { gen_program(a, seed), gen_callee(a) };
    bool ok = true;
    for (unsigned f = 0; f < 2 && ok; f++) {
        char err[256] = "";
        ok = lir_allocate(codes[f], opt, err, sizeof err);
        CHECK(ok, "seed %" PRIu64 " [%s]: %s", seed, label, err);
        if (ok)
            ra_test_add_frame(codes[f]);
    }
    for (unsigned r = 0; ok && r < NRUNS; r++) {
        Outcome out;
        char err[256] = "";
        ok = ra_test_run(emu, a, codes, 2, 0, run_args[r], 2, &out, err, sizeof err);
        CHECK(ok, "seed %" PRIu64 " [%s]: %s", seed, label, err);
        res[r].kind = out.kind;
        res[r].bits = out.bits;
        if (out.kind != OUT_RETURN)
            fprintf(stderr, "seed %" PRIu64 " [%s] run %u: %s\n", seed, label, r, out.reason);
    }
    if (!ok || getenv("REGALLOC_STRESS_DUMP"))
        lir_print(stderr, codes[0]);
    arena_free(a);
    return ok;
}

static void random_options(Rng *r, RegallocOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->max_regs[BANK_GP] = (uint8_t)(2 + below(r, 13));
    opt->max_regs[BANK_FP] = (uint8_t)(2 + below(r, 15));
    opt->spill = (uint8_t)below(r, RA_SPILL_COUNT);
    opt->no_coalesce = below(r, 2);
    opt->no_share_slots = below(r, 3) == 0;
    opt->no_fold = below(r, 4) == 0;
}

/* are l's live-in sets those of a new liveness of its code? */
static bool sets_are_new(Arena *a, LirLiveness *l, Code *c)
{
    LirLiveness *fresh = lir_liveness(a, c);
    for (uint32_t b = 0; fresh && b < c->nblocks; b++) {
        const uint32_t *x, *y;
        uint32_t nx = lir_live_in_list(l, b, &x), ny = lir_live_in_list(fresh, b, &y);
        if (nx != ny || (nx && memcmp(x, y, nx * sizeof *x)))
            return false;
    }
    return fresh != NULL;
}

/* the liveness refreshed after rounds of changes in a few blocks (instructions
 * dropped, a tmp argument named another) is a new liveness of the changed code */
static void check_refresh(uint64_t seed)
{
    Arena *a = arena_new();
    Code *c = gen_program(a, seed);
    LirLiveness *l = lir_liveness(a, c);
    if (l)
        l->whole_below = seed % 4 ? 0 : RA_REFRESH_WHOLE_BELOW; /* mostly tmp by tmp */
    Rng r = { seed * 31 + 7 };
    bool *changed = arena_alloc(a, c->nblocks + 1);
    for (unsigned round = 0; l && round < 4; round++) {
        memset(changed, 0, c->nblocks);
        for (unsigned k = 1 + below(&r, 3); k > 0; k--) {
            uint32_t b = below(&r, c->nblocks);
            LirBlock *blk = c->blocks[b];
            if (blk->ninsts < 2)
                continue;
            uint32_t i = below(&r, blk->ninsts - 1);
            Arg *arg = &blk->insts[i].args[0];
            if (below(&r, 3) == 0 && blk->insts[i].nargs && arg->kind == ARG_TMP && tmp_is_virtual(arg->base))
                arg->base = tmp_virtual(tmp_bank(arg->base), below(&r, c->ntmps[tmp_bank(arg->base)]));
            else
                memmove(&blk->insts[i], &blk->insts[i + 1], (--blk->ninsts - i) * sizeof *blk->insts);
            changed[b] = true;
        }
        CHECK(lir_liveness_refresh(l, changed) && sets_are_new(a, l, c),
              "seed %" PRIu64 " round %u: the refreshed live sets are a new liveness's", seed, round);
    }
    CHECK(l != NULL, "seed %" PRIu64 ": a liveness", seed);
    arena_free(a);
}

int main(int argc, char **argv)
{
    unsigned programs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 150;
    uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    Emu *emu = emu_new(ISA_X64);
    if (!emu) {
        fprintf(stderr, "no Unicorn engine\n");
        return 1;
    }
    Rng r = { first * 7919 + 17 };
    unsigned runs = 0;
    for (uint64_t seed = first; seed < first + programs; seed++) {
        Result full[NRUNS], limited[NRUNS];
        RegallocOptions opt = { 0 };
        check_refresh(seed);
        if (!run_program(emu, seed, &opt, full, "all registers"))
            continue;
        for (unsigned k = 0; k < NRUNS; k++)
            CHECK(full[k].kind == OUT_RETURN, "seed %" PRIu64 ": run %u does not return", seed, k);
        for (unsigned v = 0; v < 4; v++) {
            random_options(&r, &opt);
            if (v == 0) {   /* the smallest sets: every operand folding can save is needed */
                opt.max_regs[BANK_GP] = opt.max_regs[BANK_FP] = 2;
                opt.no_fold = false;
            }
            char label[96];
            snprintf(label, sizeof label, "%u GP, %u FP, spill %u%s%s%s", opt.max_regs[0], opt.max_regs[1], opt.spill,
                     opt.no_coalesce ? ", no coalescing" : "", opt.no_share_slots ? ", no sharing" : "",
                     opt.no_fold ? ", no folding" : "");
            if (!run_program(emu, seed, &opt, limited, label))
                continue;
            for (unsigned k = 0; k < NRUNS; k++, runs++)
                CHECK(limited[k].kind == full[k].kind && limited[k].bits == full[k].bits,
                      "seed %" PRIu64 " [%s] run %u: %d %#" PRIx64 ", with every register %d %#" PRIx64, seed,
                      label, k, limited[k].kind, limited[k].bits, full[k].kind, full[k].bits);
        }
    }
    emu_free(emu);
    printf("regalloc_stress: %u programs, %u compared runs, %d checks, %d failures\n", programs, runs, checks, failures);
    return failures ? 1 : 0;
}
