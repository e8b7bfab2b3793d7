/* regalloc_unit.c — unit checks of the allocator's pieces: live-in/live-out sets of
 * a loop (fence posts, clobbers), the allocation order under limits, a clean
 * failure when an instruction needs more registers than allowed, coalescing
 * removing copies, slot sharing, and the stack layout (aligned, disjoint slots
 * inside the frame, the save area, the outgoing argument area, the frame size, the
 * frame-pointer-less variant); lir_allocate_compiled giving lir_allocate's result
 * from a known liveness or none, ignoring another code's, and leaving forms to the
 * encoder; lir_liveness_refresh after instructions were removed giving a new
 * liveness's sets; lir_remove_dead removing a whole chain of unread values across
 * blocks and giving back the liveness of what is left; every operand's place (args,
 * an address's index, a call's uses and defs) naming its tmp, the operands made
 * again equal to the stored ones, before and after the store is given back; the
 * allocation the same with every operand store given back (compact_bytes). */
#include "compiler/lir/ra_internal.h"
#include "compiler/lir/regalloc.h"
#include "compiler/x64/x64.h"

#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

static Code *parse_one(Arena *a, const char *src)
{
    const Target *targets[] = { x64_target() };
    Diag d;
    diag_init(&d, "<test>", stderr);
    LirModule m;
    if (!lir_parse(a, src, strlen(src), targets, 1, &d, &m) || m.ncodes != 1)
        return NULL;
    return m.codes[0];
}

static const char loop_src[] =
    "code @loop ; x86-64\n"
    "  frame %rbp\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Move $0, %tmp1\n"
    "    Move $5, %tmp2\n"
    "    Jump\n"
    "  Successors: #1\n"
    "BB#1: ; frequency = 1\n"
    "    Branch64 sge, %tmp1, %tmp0\n"
    "  Successors: #3 #2\n"
    "BB#2: ; frequency = 1\n"
    "    Add64 %tmp2, %tmp1\n"
    "    Call $func0 {uses %rdi; defs %rax; clobbers %rax, %rcx}\n"
    "    Jump\n"
    "  Successors: #1\n"
    "BB#3: ; frequency = 1\n"
    "    Move %tmp1, %rax\n"
    "    Ret64 %rax\n";

static bool in_list(const uint32_t *v, uint32_t n, uint32_t x)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == x)
            return true;
    return false;
}

/* block b's live-out list is exactly the union of its successors' live-in lists,
 * ascending without repeats */
static bool out_is_union(LirLiveness *l, const Code *c, uint32_t b)
{
    const uint32_t *out, *in;
    uint32_t nout = lir_live_out_list(l, b, &out), total = 0;
    for (uint32_t i = 1; i < nout; i++)
        if (out[i - 1] >= out[i])
            return false;
    for (uint32_t k = 0; k < c->blocks[b]->nsuccs; k++) {
        uint32_t nin = lir_live_in_list(l, c->blocks[b]->succs[k], &in);
        for (uint32_t i = 0; i < nin; i++)
            if (!in_list(out, nout, in[i]))
                return false;
        total += nin;
    }
    for (uint32_t i = 0; i < nout; i++) {
        bool found = false;
        for (uint32_t k = 0; k < c->blocks[b]->nsuccs && !found; k++) {
            uint32_t nin = lir_live_in_list(l, c->blocks[b]->succs[k], &in);
            found = in_list(in, nin, out[i]);
        }
        if (!found)
            return false;
    }
    return nout <= total;
}

static void test_liveness(void)
{
    Arena *a = arena_new();
    Code *c = parse_one(a, loop_src);
    CHECK(c != NULL, "loop does not parse");
    if (!c) {
        arena_free(a);
        return;
    }
    LirLiveness *l = lir_liveness(a, c);
    Tmp t0 = tmp_virtual(BANK_GP, 0), t1 = tmp_virtual(BANK_GP, 1), t2 = tmp_virtual(BANK_GP, 2);
    Tmp rdi = tmp_gp(X64_RDI), rax = tmp_gp(X64_RAX);
    CHECK(l != NULL, "no liveness");
    if (l) {
        CHECK(lir_live_in(l, 0, rdi) && !lir_live_in(l, 0, t0), "entry: rdi in, tmp0 not");
        CHECK(lir_live_in(l, 1, t0) && lir_live_in(l, 1, t1) && lir_live_in(l, 1, t2), "header: all three live in");
        CHECK(lir_live_out(l, 2, t2) && lir_live_out(l, 2, t0), "body: the loop's values live out around the back edge");
        CHECK(lir_live_in(l, 2, rdi) && lir_live_in(l, 1, rdi), "rdi, used by the call, is live around the loop");
        CHECK(!lir_live_in(l, 3, t0) && !lir_live_in(l, 3, t2) && lir_live_in(l, 3, t1), "exit: only tmp1");
        CHECK(!lir_live_out(l, 2, rax) && !lir_live_in(l, 3, rax), "rax: clobbered by the call, defined in the exit");
        const uint32_t *out3;
        CHECK(lir_live_out_list(l, 3, &out3) == 0, "the return block: nothing live out");
        for (uint32_t b = 0; b < c->nblocks; b++)
            CHECK(out_is_union(l, c, b), "block %u: live-out is the union of its successors' live-in", b);
        const uint32_t *out1;
        CHECK(lir_live_out_list(l, 1, &out1) == 4, "header: rdi and the three tmps live out (merged once each)");
        uint64_t pairs = 0;
        for (uint32_t b = 0; b < c->nblocks; b++) {
            const uint32_t *in;
            pairs += lir_live_in_list(l, b, &in);
        }
        CHECK(lir_liveness_within(a, c, pairs) != NULL, "live sets of exactly the pairs allowed: made");
        CHECK(lir_liveness_within(a, c, pairs - 1) == NULL, "live sets over the pairs allowed: refused");
        char limit[32];
        snprintf(limit, sizeof limit, "%u", LIR_LIVE_PAIRS_MAX);
        CHECK(!strcmp(limit, LIR_LIVE_PAIRS_MAX_TEXT), "the refusal message names the limit (%s)", limit);
        CHECK(lir_tmp_of_index(c, lir_tmp_index(c, t2)) == t2 && lir_tmp_of_index(c, lir_tmp_index(c, rax)) == rax,
              "tmp index round trip");
        for (int b = 0; b < BANK_COUNT; b++)
            for (unsigned r = 0; r < LIR_MAX_REGS; r++)
                CHECK(lir_tmp_of_index(c, lir_tmp_index(c, tmp_reg((Bank)b, r))) == tmp_reg((Bank)b, r),
                      "physical register index round trip: bank %d register %u", b, r);
        CHECK(lir_tmp_of_index(c, lir_tmp_index(c, tmp_virtual(BANK_FP, 0))) == tmp_virtual(BANK_FP, 0),
              "FP tmp index round trip");
    }
    arena_free(a);
}

static bool same_list(uint32_t nx, const uint32_t *x, uint32_t ny, const uint32_t *y)
{
    return nx == ny && (!nx || memcmp(x, y, nx * sizeof *x) == 0);
}

static bool same_sets(LirLiveness *x, LirLiveness *y, const Code *c)
{
    for (uint32_t b = 0; b < c->nblocks; b++) {
        const uint32_t *sx, *sy;
        uint32_t nx = lir_live_in_list(x, b, &sx), ny = lir_live_in_list(y, b, &sy);
        if (!same_list(nx, sx, ny, sy))
            return false;
        nx = lir_live_out_list(x, b, &sx);
        ny = lir_live_out_list(y, b, &sy);
        if (!same_list(nx, sx, ny, sy))
            return false;
    }
    return true;
}

/* drop instruction i of block b */
static void drop_inst(Code *c, uint32_t b, uint32_t i)
{
    LirBlock *blk = c->blocks[b];
    memmove(&blk->insts[i], &blk->insts[i + 1], (blk->ninsts - i - 1) * sizeof *blk->insts);
    blk->ninsts--;
}

/* src parsed into a and its liveness (*code set), or NULL (a check failed) */
static LirLiveness *parsed_liveness(Arena *a, const char *src, Code **code, const char *what)
{
    *code = parse_one(a, src);
    LirLiveness *l = *code ? lir_liveness(a, *code) : NULL;
    CHECK(l != NULL, "%s has a liveness", what);
    return l;
}

static void test_liveness_refresh(void)
{
    Arena *a = arena_new();
    Code *c;
    LirLiveness *l = parsed_liveness(a, loop_src, &c, "loop");
    if (!l) {
        arena_free(a);
        return;
    }
    bool changed[4] = { false, false, true, false };
    drop_inst(c, 2, 0); /* Add64 %tmp2, %tmp1: tmp2 is no longer live around the loop */
    CHECK(lir_liveness_refresh(l, changed), "refresh after a removal");
    LirLiveness *fresh = lir_liveness(a, c);
    CHECK(fresh && same_sets(l, fresh, c), "refreshed sets are a new liveness's");
    CHECK(!lir_live_in(l, 1, tmp_virtual(BANK_GP, 2)) && !lir_live_out(l, 0, tmp_virtual(BANK_GP, 2)),
          "tmp2 no longer live");
    bool none[4] = { false, false, false, false };
    changed[2] = false;
    changed[0] = true;
    drop_inst(c, 0, 2); /* Move $5, %tmp2 */
    CHECK(lir_liveness_refresh(l, changed) && (fresh = lir_liveness(a, c)) && same_sets(l, fresh, c),
          "second refresh, of another block");
    CHECK(lir_liveness_refresh(l, none) && same_sets(l, fresh, c), "a refresh with nothing changed");
    lir_new_tmp(c, BANK_GP);
    CHECK(!lir_liveness_refresh(l, none), "refused once the code has other tmps");
    arena_free(a);
}

static void test_order(void)
{
    Arena *a = arena_new();
    Code *c = lir_code_new(a, x64_target(), "f", 0);
    c->frame_base = tmp_gp(X64_RBP);
    c->stack_pointer = tmp_gp(X64_RSP);
    uint8_t regs[LIR_MAX_REGS];
    unsigned n = lir_alloc_order(c, NULL, BANK_GP, regs);
    bool clean = true;
    for (unsigned i = 0; i < n; i++)
        clean &= regs[i] != X64_RSP && regs[i] != X64_RBP;
    CHECK(n == 14 && clean, "x86-64 hands out 14 GP registers, never rsp/rbp (%u)", n);
    RegallocOptions opt = { .max_regs = { 3, 2 } };
    CHECK(lir_alloc_order(c, &opt, BANK_GP, regs) == 3 && lir_alloc_order(c, &opt, BANK_FP, regs) == 2,
          "limits cut the order");
    arena_free(a);
}

static const char needs_two[] =
    "code @f ; x86-64\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Move %rsi, %tmp1\n"
    "    Add64 %tmp0, %tmp1\n"
    "    Add64 %tmp1, %tmp0\n"
    "    Move %tmp0, %rax\n"
    "    Ret64 %rax\n";

/* the allocation order's first two GP registers (r10, r11) live across an
 * instruction that needs two more */
static const char blocked[] =
    "code @f ; x86-64\n"
    "BB#0: ; frequency = 1\n"
    "    Move $1, %r10\n"
    "    Move $2, %r11\n"
    "    Move %rdi, %tmp0\n"
    "    Move %rsi, %tmp1\n"
    "    Add64 %tmp0, %tmp1\n"
    "    Add64 %r10, %tmp1\n"
    "    Add64 %r11, %tmp1\n"
    "    Move %tmp1, %rax\n"
    "    Ret64 %rax\n";

static void test_failure(void)
{
    Arena *a = arena_new();
    Code *c = parse_one(a, needs_two);
    RegallocOptions opt = { .max_regs = { 1, 1 }, .no_fold = true };
    char err[256] = "";
    /* a reduced file never goes below what one instruction names at once */
    CHECK(c && lir_allocate(c, &opt, err, sizeof err), "one register allowed, two named at once: %s", err);
    Code *b = parse_one(a, blocked);
    opt.max_regs[BANK_GP] = 2;
    CHECK(b && !lir_allocate(b, &opt, err, sizeof err), "the two allowed registers are taken");
    CHECK(strstr(err, "no GP register left") != NULL, "failure message: %s", err);
    Code *d = parse_one(a, needs_two);
    opt.no_fold = false;
    opt.max_regs[BANK_GP] = 1;
    CHECK(d && lir_allocate(d, &opt, err, sizeof err), "with folding one register is enough: %s", err);
    Code *e = lir_code_new(a, NULL, "untargeted", 0);
    CHECK(!lir_allocate(e, NULL, err, sizeof err) && strstr(err, "no target"), "a code without target");
    arena_free(a);
}

static unsigned count_moves(const Code *c)
{
    unsigned n = 0;
    for (uint32_t b = 0; b < c->nblocks; b++)
        for (uint32_t i = 0; i < c->blocks[b]->ninsts; i++)
            n += lir_is_move(&c->blocks[b]->insts[i]) || c->blocks[b]->insts[i].op == LIR_Swap64;
    return n;
}

static const char chain[] =
    "code @f ; x86-64\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Move %tmp0, %tmp1\n"
    "    Add64 $1, %tmp1\n"
    "    Move %tmp1, %tmp2\n"
    "    Move %tmp2, %rax\n"
    "    Ret64 %rax\n";

static void test_coalescing(void)
{
    Arena *a = arena_new();
    Code *c = parse_one(a, chain), *d = parse_one(a, chain);
    RegallocOptions off = { .no_coalesce = true };
    char err[256] = "";
    CHECK(c && lir_allocate(c, NULL, err, sizeof err), "%s", err);
    CHECK(d && lir_allocate(d, &off, err, sizeof err), "%s", err);
    if (c && d) {
        CHECK(count_moves(c) == 1, "a copy chain coalesces to one move (%u)", count_moves(c));
        CHECK(count_moves(d) > count_moves(c), "without coalescing more moves stay (%u)", count_moves(d));
    }
    arena_free(a);
}

/* more live values than registers in two phases: their spill slots can be shared */
static const char phases[] =
    "code @f ; x86-64\n"
    "  frame %rbp\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Move %rdi, %tmp1\n"
    "    Move %rdi, %tmp2\n"
    "    Move %rdi, %tmp3\n"
    "    Add64 %tmp1, %tmp0\n"
    "    Add64 %tmp2, %tmp0\n"
    "    Add64 %tmp3, %tmp0\n"
    "    Move %tmp0, %tmp4\n"
    "    Move %tmp0, %tmp5\n"
    "    Move %tmp0, %tmp6\n"
    "    Move %tmp0, %tmp7\n"
    "    Add64 %tmp5, %tmp4\n"
    "    Add64 %tmp6, %tmp4\n"
    "    Add64 %tmp7, %tmp4\n"
    "    Move %tmp4, %rax\n"
    "    Ret64 %rax\n";

static void test_slot_sharing(void)
{
    Arena *a = arena_new();
    Code *c = parse_one(a, phases), *d = parse_one(a, phases);
    RegallocOptions shared = { .max_regs = { 2, 2 } }, own = { .max_regs = { 2, 2 }, .no_share_slots = true };
    char err[256] = "";
    CHECK(c && lir_allocate(c, &shared, err, sizeof err), "%s", err);
    CHECK(d && lir_allocate(d, &own, err, sizeof err), "%s", err);
    if (c && d)
        CHECK(c->nslots < d->nslots && c->nslots > 0, "shared slots %u, own slots %u", c->nslots, d->nslots);
    arena_free(a);
}

/* every slot aligned, inside the frame, disjoint from the others, the save area
 * and the outgoing argument area */
static void check_layout(const Code *c, bool sp_relative)
{
    const LirFrame *f = &c->frame;
    CHECK(f->assigned && f->size % 16 == 0, "frame size %u", f->size);
    int64_t lo = sp_relative ? f->callarg_size : -(int64_t)f->size + f->callarg_size;
    int64_t hi = sp_relative ? f->size : 0;
    for (uint32_t i = 0; i < c->nslots; i++) {
        const StackSlot *s = &c->slots[i];
        CHECK(s->assigned && s->offset % (int32_t)(s->align ? s->align : 1) == 0, "slot %u alignment", i);
        CHECK(s->offset >= lo && s->offset + (int64_t)s->size <= hi, "slot %u at %d outside [%lld, %lld)", i,
              s->offset, (long long)lo, (long long)hi);
        for (uint32_t j = 0; j < i; j++) {
            const StackSlot *t = &c->slots[j];
            CHECK(s->offset + (int64_t)s->size <= t->offset || t->offset + (int64_t)t->size <= s->offset,
                  "slots %u and %u overlap", i, j);
        }
        for (unsigned r = 0; r < LIR_MAX_REGS; r++)
            if ((f->saved[BANK_GP] >> r) & 1) {
                int32_t at = f->save_offset[BANK_GP][r];
                CHECK(at + 8 <= s->offset || s->offset + (int64_t)s->size <= at, "slot %u over a save", i);
                CHECK(at >= lo && at + 8 <= hi, "save of register %u outside the frame", r);
            }
    }
}

static Code *layout_code(Arena *a, bool sp_relative)
{
    Code *c = lir_code_new(a, x64_target(), "frame", 0);
    c->frame_base = sp_relative ? tmp_gp(X64_RSP) : tmp_gp(X64_RBP);
    c->stack_pointer = tmp_gp(X64_RSP);
    static const uint32_t sizes[] = { 1, 8, 24, 4, 16, 2 }, aligns[] = { 1, 8, 16, 4, 16, 2 };
    for (unsigned i = 0; i < 6; i++)
        lir_add_slot(c, sizes[i], aligns[i], i % 2);
    LirBlock *b = lir_add_block(c, 1);
    Arg mv1[2] = { arg_tmp(tmp_gp(X64_RDI)), arg_tmp(tmp_gp(X64_RBX)) };
    Arg mv2[2] = { arg_tmp(tmp_gp(X64_RBX)), arg_callarg(16) };
    Arg mv3[2] = { arg_tmp(tmp_gp(X64_RBX)), arg_stack(2, 8) };
    Arg ret[1] = { arg_tmp(tmp_gp(X64_RAX)) };
    lir_append(c, b, LIR_Move, 2, mv1);
    lir_append(c, b, LIR_Move, 2, mv2);
    lir_append(c, b, LIR_Move, 2, mv3);
    lir_append(c, b, LIR_Ret64, 1, ret);
    return c;
}

static void test_stack_layout(void)
{
    Arena *a = arena_new();
    for (int sp = 0; sp < 2; sp++) {
        Code *c = layout_code(a, sp);
        char err[256] = "";
        CHECK(lir_allocate(c, NULL, err, sizeof err), "%s", err);
        CHECK(c->frame.callarg_size >= 24, "outgoing area %u holds 16(callArg) 8 bytes", c->frame.callarg_size);
        CHECK(c->frame.saved[BANK_GP] == 1u << X64_RBX, "rbx written: saved (%#llx)",
              (unsigned long long)c->frame.saved[BANK_GP]);
        check_layout(c, sp);
    }
    Code *bad = layout_code(a, false);
    bad->slots[0].align = 3;
    char err[256] = "";
    CHECK(!lir_allocate(bad, NULL, err, sizeof err) && strstr(err, "alignment"), "bad alignment refused: %s", err);
    arena_free(a);
}

static char *printed(const Code *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    lir_print(out, c);
    fclose(out);
    return text;
}

/* lir_allocate_compiled(code, live) must allocate exactly as lir_allocate does */
static void expect_same_allocation(const char *src, bool with_live, const char *what)
{
    Arena *a = arena_new();
    Code *ref = parse_one(a, src), *c = parse_one(a, src), *other = parse_one(a, loop_src);
    char err[256] = "";
    LirLiveness *live = !c ? NULL : with_live ? lir_liveness(a, c) : other ? lir_liveness(a, other) : NULL;
    CHECK(ref && lir_allocate(ref, NULL, err, sizeof err), "%s: %s", what, err);
    CHECK(c && lir_allocate_compiled(c, NULL, live, err, sizeof err), "%s: %s", what, err);
    if (ref && c) {
        char *x = printed(ref), *y = printed(c);
        CHECK(!strcmp(x, y), "%s: allocated differently:\n%s\nvs\n%s", what, x, y);
        free(x);
        free(y);
    }
    arena_free(a);
}

/* made formless below: Add64 takes no 64-bit immediate on x86-64 */
static const char formless[] =
    "code @f ; x86-64\n"
    "  frame %rbp\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Add64 $1, %tmp0\n"
    "    Move %tmp0, %rax\n"
    "    Ret64 %rax\n";

static void test_compiled(void)
{
    expect_same_allocation(loop_src, true, "loop with its liveness");
    expect_same_allocation(phases, true, "phases with its liveness");
    expect_same_allocation(phases, false, "phases with another code's liveness");
    Arena *a = arena_new();
    Code *c = parse_one(a, formless), *d = parse_one(a, formless);
    for (int k = 0; k < 2; k++) {
        Code *x = k ? d : c;
        if (x)
            x->blocks[0]->insts[1].args[0] = arg_imm(0x123456789);
    }
    char err[256] = "";
    CHECK(c && !lir_allocate(c, NULL, err, sizeof err) && strstr(err, "does not verify"),
          "lir_allocate checks forms: %s", err);
    CHECK(d && lir_allocate_compiled(d, NULL, NULL, err, sizeof err), "lir_allocate_compiled leaves forms: %s", err);
    CHECK(d && lir_verify(d, NULL) > 0, "the formless instruction is still there for the encoder to refuse");
    arena_free(a);
}

/* a chain of unread copies through seven blocks, each read only in the next block;
 * the returned value and the store stay */
static char *dead_chain_src(void)
{
    static char src[2048];
    int n = snprintf(src, sizeof src, "code @chain ; x86-64\n  frame %%rbp\n"
                     "BB#0: ; frequency = 1\n    Move $1, %%tmp0\n    Move %%rdi, %%tmp9\n"
                     "    Move %%tmp9, 0(%%rsi)\n    Jump\n  Successors: #1\n");
    for (int b = 1; b < 7; b++)
        n += snprintf(src + n, sizeof src - (size_t)n, "BB#%d: ; frequency = 1\n    Move %%tmp%d, %%tmp%d\n"
                      "    Jump\n  Successors: #%d\n", b, b - 1, b, b + 1);
    snprintf(src + n, sizeof src - (size_t)n, "BB#7: ; frequency = 1\n    Move %%tmp9, %%rax\n    Ret64 %%rax\n");
    return src;
}

static void test_remove_dead(void)
{
    Arena *a = arena_new(), *scratch = arena_new();
    Code *c = parse_one(a, dead_chain_src());
    LirLiveness *l = c ? lir_remove_dead(scratch, c) : NULL;
    CHECK(l != NULL, "the chain has a liveness");
    if (!l) {
        arena_free(scratch), arena_free(a);
        return;
    }
    CHECK(c->blocks[0]->ninsts == 3, "block 0 keeps the store and what it stores (%u instructions)", c->blocks[0]->ninsts);
    for (uint32_t b = 1; b < 7; b++)
        CHECK(c->blocks[b]->ninsts == 1 && c->blocks[b]->insts[0].op == LIR_Jump,
              "the unread copy of block %u removed (%u instructions left)", b, c->blocks[b]->ninsts);
    CHECK(c->blocks[7]->ninsts == 2, "the returned value stays");
    LirLiveness *fresh = lir_liveness(a, c);
    CHECK(fresh && same_sets(l, fresh, c), "the liveness given back is the code's");
    arena_free(scratch);
    arena_free(a);
}

/* two values live across a call in one arm of a diamond and not in the other:
 * with few registers their pieces meet the join in different places (edge moves) */
static const char split_src[] =
    "code @split ; x86-64\n"
    "  frame %rbp\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Move %rsi, %tmp1\n"
    "    Branch64 sge, %tmp1, %tmp0\n"
    "  Successors: #1 #2\n"
    "BB#1: ; frequency = 1\n"
    "    Call $func0 {defs %rax; clobbers %rax, %rcx, %rdx, %rsi, %rdi, %r8, %r9, %r10, %r11}\n"
    "    Add64 %rax, %tmp1\n"
    "    Jump\n"
    "  Successors: #3\n"
    "BB#2: ; frequency = 1\n"
    "    Add64 $1, %tmp0\n"
    "    Jump\n"
    "  Successors: #3\n"
    "BB#3: ; frequency = 1\n"
    "    Add64 %tmp1, %tmp0\n"
    "    Move %tmp0, %rax\n"
    "    Ret64 %rax\n";

/* compact_bytes = 1 (every function's operand store given back once its intervals
 * are built) allocates as the default, with all registers and with few */
static void expect_same_compact(const char *src, const char *what)
{
    for (uint8_t regs = 0; regs <= 3; regs += regs ? 1 : 2) {
        Arena *a = arena_new();
        Code *ref = parse_one(a, src), *c = parse_one(a, src);
        RegallocOptions plain = { .max_regs = { regs, regs } }, tiny = plain;
        tiny.compact_bytes = 1;
        char err[256] = "";
        CHECK(ref && lir_allocate(ref, &plain, err, sizeof err), "%s, %u registers: %s", what, regs, err);
        CHECK(c && lir_allocate(c, &tiny, err, sizeof err), "%s compacted, %u registers: %s", what, regs, err);
        if (ref && c) {
            char *x = printed(ref), *y = printed(c);
            CHECK(!strcmp(x, y), "%s, %u registers: compacted allocates differently:\n%s\nvs\n%s", what, regs, x, y);
            free(x);
            free(y);
        }
        arena_free(a);
    }
}

static const char places_src[] =
    "code @places ; x86-64\n"
    "  frame %rbp\n"
    "BB#0: ; frequency = 1\n"
    "    Move %rdi, %tmp0\n"
    "    Move %rsi, %tmp1\n"
    "    Move 8(%tmp0,%tmp1,4), %tmp2\n"
    "    Move %tmp2, %rdi\n"
    "    Move %tmp1, %rsi\n"
    "    Call $func0 {uses %rdi, %rsi; defs %rax, %rdx; clobbers %rax, %rcx, %rdx}\n"
    "    Move %rax, %tmp3\n"
    "    Add64 %tmp3, %tmp2\n"
    "    Move %tmp2, 0(%tmp0,%tmp1,8)\n"
    "    Move %rdx, %rax\n"
    "    Ret64 %rax\n";

/* the operand lists of one instruction are the same (places, roles, tmps) */
static bool same_operands(const OperandList *x, const OperandList *y)
{
    if (x->n != y->n || x->timing != y->timing)
        return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->ops[i].index != y->ops[i].index || x->ops[i].at != y->ops[i].at || x->ops[i].role != y->ops[i].role ||
            x->ops[i].arg != y->ops[i].arg)
            return false;
    return true;
}

/* what a liveness answers once its live-in sets and operand store are given back:
 * empty sets, and every instruction's operands made again */
static void test_given_back(LirLiveness *l, const Code *c)
{
    uint32_t n = c->blocks[0]->ninsts, nops = l->nops;
    OperandList *before = calloc(n, sizeof *before);
    for (uint32_t i = 0; i < n; i++) {
        OperandList ops = ra_inst_operands(l, i);
        before[i] = ops;
        before[i].ops = malloc((ops.n + 1) * sizeof *ops.ops);
        memcpy(before[i].ops, ops.ops, ops.n * sizeof *ops.ops);
    }
    ra_release_live_sets(l);
    ra_release_operands(l);
    const uint32_t *set;
    CHECK(lir_live_in_list(l, 0, &set) == 0 && lir_live_out_list(l, 0, &set) == 0, "given-back sets are empty");
    Operand *buf = NULL;
    uint32_t cap = 0, same = 0;
    for (uint32_t i = 0; i < n; i++) {
        OperandList again = ra_operands_of(l, &c->blocks[0]->insts[i], i, &buf, &cap);
        same += same_operands(&before[i], &again);
        free(before[i].ops);
    }
    CHECK(l->nops == 0 && same == n, "operands made again after the store is given back (%u of %u, %u stored)", same,
          n, nops);
    free(before);
    free(buf);
}

static void test_operand_places(void)
{
    Arena *a = arena_new();
    Code *c;
    LirLiveness *l = parsed_liveness(a, places_src, &c, "the call code");
    if (!l) {
        arena_free(a);
        return;
    }
    Operand *buf = NULL;
    uint32_t cap = 0, named = 0, calls = 0, indexes = 0;
    for (uint32_t i = 0; i < c->blocks[0]->ninsts; i++) {
        Inst *in = &c->blocks[0]->insts[i];
        OperandList ops = ra_inst_operands(l, i), again = ra_operands_again(c, in, &buf, &cap);
        CHECK(same_operands(&ops, &again), "instruction %u: operands made again are the stored ones", i);
        for (uint32_t k = 0; k < ops.n; k++) {
            named += lir_tmp_index(c, *ra_operand_tmp(in, &ops.ops[k])) == ops.ops[k].index;
            calls += ops.ops[k].at / 2 >= OPERAND_CALL_SLOT;
            indexes += ops.ops[k].at & 1;
        }
    }
    CHECK(named == l->nops, "every operand's place names its tmp (%u of %u)", named, l->nops);
    CHECK(calls == 4 && indexes == 2, "the call's uses and defs (%u) and the addresses' indexes (%u) are placed",
          calls, indexes);
    test_given_back(l, c);
    free(buf);
    arena_free(a);
    expect_same_compact(loop_src, "loop");
    expect_same_compact(phases, "phases");
    expect_same_compact(split_src, "split across a call");
    expect_same_compact(places_src, "call and addresses");
}

int main(void)
{
    test_liveness();
    test_liveness_refresh();
    test_remove_dead();
    test_operand_places();
    test_order();
    test_failure();
    test_coalescing();
    test_slot_sharing();
    test_stack_layout();
    test_compiled();
    printf("regalloc_unit: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
