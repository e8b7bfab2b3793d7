/* intervals.c — live intervals with holes of every tmp (virtual and physical),
 * built block by block backwards from the live-out sets (liveness.c): ranges at
 * fence posts, use positions (must the operand be a register, or may it become
 * the spill slot), call clobbers as dead defs of the clobbered registers, move
 * hints for coalescing; splitting an interval at a gap. */
#include "ra_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool ra_fail(RaCtx *c, const char *fmt, ...)
{
    if (!c->failed && c->err && c->errlen) {
        va_list ap;
        va_start(ap, fmt);
        int n = snprintf(c->err, c->errlen, "register allocation of @%s: ", c->code->name);
        if (n >= 0 && (size_t)n < c->errlen)
            vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    c->failed = true;
    return false;
}

Inst *ra_inst_at(const RaCtx *c, uint32_t n)
{
    uint32_t b = c->block_of[n];
    return &c->code->blocks[b]->insts[n - c->live->first_inst[b]];
}

/* a binary search, so that asking about an interval of many ranges (a register
 * clobbered by every call) costs no walk from its start */
uint32_t ra_range_ending_after(const Interval *iv, uint32_t pos)
{
    uint32_t lo = 0, hi = iv->nranges;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (iv->ranges[mid].to <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool iv_covers(const Interval *iv, uint32_t pos)
{
    uint32_t i = ra_range_ending_after(iv, pos);
    return i < iv->nranges && iv->ranges[i].from <= pos;
}

uint32_t iv_next_start(const Interval *iv, uint32_t pos)
{
    uint32_t i = ra_range_ending_after(iv, pos);
    return i < iv->nranges ? iv->ranges[i].from : UINT32_MAX;
}

uint32_t iv_intersection(const Interval *a, const Interval *b)
{
    /* ranges ending before the other interval starts cannot meet it */
    uint32_t i = ra_range_ending_after(a, iv_start(b)), j = ra_range_ending_after(b, iv_start(a));
    while (i < a->nranges && j < b->nranges) {
        LiveRange x = a->ranges[i], y = b->ranges[j];
        uint32_t lo = x.from > y.from ? x.from : y.from;
        uint32_t hi = x.to < y.to ? x.to : y.to;
        if (lo < hi)
            return lo;
        if (x.to <= y.to)
            i++;
        else
            j++;
    }
    return UINT32_MAX;
}

static bool use_must_reg(RaCtx *c, const UsePos *u)
{
    uint32_t n = u->pos / 4;
    return u->arg < 0 || u->arg != ra_fold_arg(c, ra_inst_at(c, n), n);
}

/* the index of iv's first use at or after pos (nuses if none) */
static uint32_t first_use_from(const Interval *iv, uint32_t pos)
{
    uint32_t lo = 0, hi = iv->nuses;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (iv->uses[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t ra_first_must_use(RaCtx *c, const Interval *iv, uint32_t from)
{
    for (uint32_t i = first_use_from(iv, from); i < iv->nuses; i++)
        if (use_must_reg(c, &iv->uses[i]))
            return iv->uses[i].pos;
    return UINT32_MAX;
}

Interval *ra_child_at(Interval *parent, uint32_t pos)
{
    uint32_t lo = 0, hi = parent->nchildren;   /* first child starting after pos */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (iv_start(parent->children[mid]) <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return parent->children[lo ? lo - 1 : 0];
}

/* ---- building --------------------------------------------------------------------- */
static Interval *interval_of(RaCtx *c, uint32_t t)
{
    Interval *iv = c->ivs[t];
    if (iv)
        return iv;
    iv = arena_alloc(c->arena, sizeof *iv);
    iv->tmp = t;
    iv->bank = t < 2 * LIR_MAX_REGS ? (uint8_t)(t / LIR_MAX_REGS) : tmp_bank(lir_tmp_of_index(c->code, t));
    iv->fixed = t < 2 * LIR_MAX_REGS;
    iv->reg = iv->fixed ? (int)(t % LIR_MAX_REGS) : -1;
    iv->parent = iv;
    iv->hint = UINT32_MAX;
    iv->slot = -1;
    c->ivs[t] = iv;
    return iv;
}

/* resize: nothing points into the array, so a move gives the old copy back to the
 * arena (arena_resize) */
static void *grow_to(RaCtx *c, void *p, uint32_t *cap, uint32_t need, size_t elem, bool resize)
{
    uint32_t ncap = *cap ? 2 * *cap : 4;
    while (ncap < need)
        ncap *= 2;
    size_t oldn = (size_t)*cap * elem, newn = (size_t)ncap * elem;
    p = resize ? arena_resize(c->arena, p, oldn, newn) : arena_grow_raw(c->arena, p, oldn, newn);
    *cap = ncap;
    return p;
}

/* uncleared growth: every array grown here is written up to its count before use
 * (the check inline: most calls have room) */
static inline void *grow(RaCtx *c, void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    return need <= *cap ? p : grow_to(c, p, cap, need, elem, false);
}

/* the same for an interval's ranges and uses while they are built */
static inline void *grow_own(RaCtx *c, void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    return need <= *cap ? p : grow_to(c, p, cap, need, elem, true);
}

/* ranges are built backwards: ranges[nranges-1] is the earliest so far */
static void add_range(RaCtx *c, Interval *iv, uint32_t from, uint32_t to)
{
    if (iv->nranges) {
        LiveRange *first = &iv->ranges[iv->nranges - 1];
        if (to + 1 >= first->from) {
            if (from < first->from)
                first->from = from;
            if (to > first->to)
                first->to = to;
            return;
        }
    }
    iv->ranges = grow_own(c, iv->ranges, &iv->capranges, iv->nranges + 1, sizeof *iv->ranges);
    iv->ranges[iv->nranges++] = (LiveRange){ from, to };
}

static void add_def(RaCtx *c, Interval *iv, uint32_t pos)
{
    if (iv->nranges) {
        LiveRange *first = &iv->ranges[iv->nranges - 1];
        if (first->from <= pos && pos < first->to) {
            first->from = pos;
            return;
        }
    }
    add_range(c, iv, pos, pos + 1);
}

static void add_use_pos(RaCtx *c, Interval *iv, uint32_t pos, int8_t arg)
{
    if (iv->fixed)
        return;
    iv->uses = grow_own(c, iv->uses, &iv->capuses, iv->nuses + 1, sizeof *iv->uses);
    iv->uses[iv->nuses++] = (UsePos){ pos, arg };
}

static unsigned occurrences(const OperandList *ops, uint32_t t)
{
    unsigned k = 0;
    for (uint32_t i = 0; i < ops->n; i++)
        k += ops->ops[i].index == t;
    return k;
}

/* may some form of op take a stack slot as argument i (bit i; worked out on first
 * asking: a necessary condition for lir_code_admits_stack, cheap to test) */
static bool op_takes_stack(RaCtx *c, LirOp op, unsigned i)
{
    uint8_t *known = &c->stack_args[op];
    if (!(*known & STACK_ARGS_KNOWN)) {
        uint32_t n;
        const LirForm *forms = lir_target_forms(c->code->target, op, &n);
        *known = STACK_ARGS_KNOWN;
        for (uint32_t k = 0; k < n; k++)
            for (unsigned a = 0; a < forms[k].nargs && a < LIR_MAX_ARGS; a++)
                if (forms[k].args[a].kinds & FK_STACK)
                    *known |= (uint8_t)(1u << a);
    }
    return (*known >> i) & 1;
}

int ra_fold_candidate(RaCtx *c, Inst *inst, const OperandList *ops)
{
    if (c->opt->no_fold)
        return -1;
    for (uint32_t i = 0; i < ops->n; i++) {
        const Operand *o = &ops->ops[i];
        Role r = (Role)o->role;
        if (o->arg < 0 || o->index < 2 * LIR_MAX_REGS || r == ROLE_SCRATCH || r == ROLE_EARLY_DEF)
            continue;
        if ((role_is_zdef(r) && o->width < 64) || !op_takes_stack(c, (LirOp)inst->op, (unsigned)o->arg) ||
            occurrences(ops, o->index) > 1)
            continue;
        if (lir_code_admits_stack(c->code, inst, (unsigned)o->arg))
            return o->arg;
    }
    return -1;
}

int ra_fold_arg(RaCtx *c, Inst *inst, uint32_t n)
{
    if (c->fold_arg[n] == FOLD_UNKNOWN) {
        OperandList ops = ra_operands_of(c->live, inst, n, &c->again, &c->cap_again);
        c->fold_arg[n] = (int8_t)ra_fold_candidate(c, inst, &ops);
    }
    return c->fold_arg[n];
}

static void note_hint(RaCtx *c, Inst *inst, uint32_t n)
{
    if (c->opt->no_coalesce || !lir_is_move(inst))
        return;
    uint32_t src = lir_tmp_index(c->code, inst->args[0].base);
    uint32_t dst = lir_tmp_index(c->code, inst->args[1].base);
    Interval *s = interval_of(c, src), *d = interval_of(c, dst);
    if (!d->fixed) {
        d->hint = src;
        d->hint_pos = pos_early(n);
    }
    if (!s->fixed && s->hint == UINT32_MAX) {
        s->hint = dst;
        s->hint_pos = pos_late(n);
    }
}

/* the operands of one fence post (RT_*) of instruction n: defs start there, uses
 * reach it from the block's start at from */
static void build_point(RaCtx *c, const OperandList *ops, unsigned when, uint32_t pos, uint32_t from)
{
    for (uint32_t i = 0; i < ops->n; i++) {
        const Operand *o = &ops->ops[i];
        if (!(o->timing & when))
            continue;
        Interval *iv = c->op_ivs[i];
        if (when & (RT_EARLY_DEF | RT_LATE_DEF))
            add_def(c, iv, pos);
        else
            add_range(c, iv, from, pos + 1);
        add_use_pos(c, iv, pos, o->arg);
    }
}

/* the operands of instruction n (global number) in block range [from, ...) */
static void build_inst(RaCtx *c, Inst *inst, uint32_t n, uint32_t from)
{
    OperandList list = ra_inst_operands(c->live, n), *ops = &list;
    note_hint(c, inst, n);
    Interval **of = c->op_ivs = grow(c, c->op_ivs, &c->cap_op_ivs, ops->n, sizeof *of);
    for (uint32_t i = 0; i < ops->n; i++)
        of[i] = interval_of(c, ops->ops[i].index);
    if (ops->timing & RT_LATE_DEF)
        build_point(c, ops, RT_LATE_DEF, pos_late(n), from);
    for (unsigned b = 0; inst->call && b < BANK_COUNT; b++)
        for (uint64_t clobbers = lir_inst_clobbers(inst, (Bank)b); clobbers; clobbers &= clobbers - 1)
            add_def(c, interval_of(c, b * LIR_MAX_REGS + (uint32_t)__builtin_ctzll(clobbers)), pos_late(n));
    if (ops->timing & RT_LATE_USE)
        build_point(c, ops, RT_LATE_USE, pos_late(n), from);
    if (ops->timing & RT_EARLY_DEF)
        build_point(c, ops, RT_EARLY_DEF, pos_early(n), from);
    if (ops->timing & RT_EARLY_USE)
        build_point(c, ops, RT_EARLY_USE, pos_early(n), from);
}

static void reverse_pieces(Interval *iv)
{
    for (uint32_t i = 0, j = iv->nranges; i + 1 < j; i++, j--) {
        LiveRange t = iv->ranges[i];
        iv->ranges[i] = iv->ranges[j - 1];
        iv->ranges[j - 1] = t;
    }
    for (uint32_t i = 0, j = iv->nuses; i + 1 < j; i++, j--) {
        UsePos t = iv->uses[i];
        iv->uses[i] = iv->uses[j - 1];
        iv->uses[j - 1] = t;
    }
}

bool ra_build_intervals(RaCtx *c)
{
    LirLiveness *l = c->live;
    for (uint32_t b = l->nblocks; b-- > 0;) {
        LirBlock *blk = c->code->blocks[b];
        uint32_t first = l->first_inst[b];
        uint32_t from = 4 * first, to = 4 * (first + blk->ninsts);
        const uint32_t *out;
        for (uint32_t k = 0, n = lir_live_out_list(l, b, &out); k < n; k++)
            add_range(c, interval_of(c, out[k]), from, to);
        for (uint32_t i = blk->ninsts; i-- > 0;)
            build_inst(c, &blk->insts[i], first + i, from);
    }
    for (uint32_t t = 0; t < c->ntmps; t++) {
        Interval *iv = c->ivs[t];
        if (!iv)
            continue;
        reverse_pieces(iv);
        if (!iv->fixed) {
            iv->children = arena_alloc(c->arena, 4 * sizeof *iv->children);
            iv->capchildren = 4;
            iv->children[iv->nchildren++] = iv;
        }
    }
    return true;
}

/* ---- splitting ---------------------------------------------------------------------- */
static void insert_child(RaCtx *c, Interval *parent, Interval *after, Interval *child)
{
    parent->children = grow(c, parent->children, &parent->capchildren, parent->nchildren + 1,
                            sizeof *parent->children);
    uint32_t k = 0;
    while (k < parent->nchildren && parent->children[k] != after)
        k++;
    k++;
    memmove(&parent->children[k + 1], &parent->children[k],
            (parent->nchildren - k) * sizeof *parent->children);
    parent->children[k] = child;
    parent->nchildren++;
}

/* The ranges and uses of a piece split in two: whichever side has fewer entries is
 * copied to a new array and the other keeps the old one in place (the child its
 * tail), so an interval split again and again, from either end, costs the size of
 * the pieces and not the size of what is left each time. */
static void *arena_copy(RaCtx *c, const void *from, uint32_t n, size_t elem)
{
    void *p = arena_alloc_raw(c->arena, ((size_t)n + 1) * elem);
    if (n)
        memcpy(p, from, n * elem);
    return p;
}

/* an array of n entries (elem bytes each, room for *cap) divided: the piece before
 * keeps entries [0, keep), the piece after gets [k, n) (keep is k, or k + 1 when
 * entry k goes to both); *arr becomes the first piece's array, the result the
 * second's */
static void *split_array(RaCtx *c, void **arr, uint32_t *cap, uint32_t keep, uint32_t k, uint32_t n,
                         size_t elem)
{
    char *old = *arr;
    if (keep > n - k)
        return arena_copy(c, old + k * elem, n - k, elem);
    *arr = arena_copy(c, old, keep, elem);
    *cap = keep;
    return old + k * elem;
}

/* iv's ranges from index k on go to child, cut at pos if range k starts before it */
static void split_ranges(RaCtx *c, Interval *iv, Interval *child, uint32_t k, uint32_t pos)
{
    bool cut = iv->ranges[k].from < pos;
    uint32_t keep = k + cut;
    child->nranges = child->capranges = iv->nranges - k;
    child->ranges = split_array(c, (void **)&iv->ranges, &iv->capranges, keep, k, iv->nranges, sizeof *iv->ranges);
    if (cut) {
        child->ranges[0].from = pos;
        iv->ranges[k].to = pos;
    }
    iv->nranges = keep;
}

/* iv's uses from index u on go to child */
static void split_uses(RaCtx *c, Interval *iv, Interval *child, uint32_t u)
{
    child->nuses = child->capuses = iv->nuses - u;
    child->uses = split_array(c, (void **)&iv->uses, &iv->capuses, u, u, iv->nuses, sizeof *iv->uses);
    iv->nuses = u;
}

Interval *ra_split(RaCtx *c, Interval *iv, uint32_t pos)
{
    Interval *child = arena_alloc(c->arena, sizeof *child);
    child->tmp = iv->tmp;
    child->bank = iv->bank;
    child->reg = -1;
    child->parent = iv->parent;
    child->hint = iv->hint;
    child->hint_pos = iv->hint_pos;
    child->slot = -1;
    split_ranges(c, iv, child, ra_range_ending_after(iv, pos), pos);
    split_uses(c, iv, child, first_use_from(iv, pos));
    insert_child(c, iv->parent, iv, child);
    return child;
}
