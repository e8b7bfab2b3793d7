/* regalloc.c — linear-scan register allocation on intervals with holes (Wimmer and
 * Franz, with Poletto and Sarkar's spilling by next use): intervals in order of
 * start; a free register (the move hint's if it is free long enough), else the
 * register whose holders are needed furthest away, splitting and spilling them,
 * else the interval itself goes to its spill slot until its next use that needs a
 * register.  Splits happen at gaps between instructions, where moves go; an interval
 * evicted by a late def may also leave its register right after its early uses at
 * that instruction (its value is stored to the slot in the gap before).  Also the
 * entry points lir_allocate / lir_allocate_registers.  Needs liveness.c,
 * intervals.c, ra_union.c, resolve.c, stackalloc.c. */
#include "ra_internal.h"
#include "ra_union.h"

#include <stdlib.h>
#include <string.h>

/* ---- worklists ------------------------------------------------------------------ */
typedef struct {
    Interval **v;
    uint32_t n, cap;
} IvList;

static void list_push(IvList *l, Interval *iv)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? 2 * l->cap : 32;
        Interval **p = realloc(l->v, ncap * sizeof *p);
        if (!p)
            abort();
        l->v = p;
        l->cap = ncap;
    }
    l->v[l->n++] = iv;
}

static void list_remove_at(IvList *l, uint32_t i) { l->v[i] = l->v[--l->n]; }

/* unhandled intervals: a binary min-heap by start */
static bool heap_less(const Interval *a, const Interval *b)
{
    return iv_start(a) < iv_start(b) || (iv_start(a) == iv_start(b) && a->tmp < b->tmp);
}

static void heap_push(IvList *h, Interval *iv)
{
    list_push(h, iv);
    for (uint32_t i = h->n - 1; i > 0;) {
        uint32_t up = (i - 1) / 2;
        if (!heap_less(h->v[i], h->v[up]))
            break;
        Interval *t = h->v[i];
        h->v[i] = h->v[up];
        h->v[up] = t;
        i = up;
    }
}

static Interval *heap_pop(IvList *h)
{
    Interval *top = h->v[0];
    h->v[0] = h->v[--h->n];
    for (uint32_t i = 0;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && heap_less(h->v[l], h->v[m]))
            m = l;
        if (r < h->n && heap_less(h->v[r], h->v[m]))
            m = r;
        if (m == i)
            break;
        Interval *t = h->v[i];
        h->v[i] = h->v[m];
        h->v[m] = t;
        i = m;
    }
    return top;
}

/* Inactive intervals (holding a register, in a hole at the current position) wait
 * in one min-heap per register by where their next range starts ("wake"): they
 * cover nothing before it, so a walk of the heap that stops at a wake beyond what
 * it looks for visits only the intervals that matter (the eviction's questions).
 * Where a register is free until is asked of its union instead (ra_union.h: the
 * ranges of its active and inactive holders, which leave it when they end, split
 * or spill), a few searches however many sleep.  The scan's positions only grow;
 * if one ever went back, every sleeper is looked at again from there (wake_all). */
typedef struct {
    RaCtx *c;
    Bank bank;
    IvList unhandled, active;
    IvList sleep[LIR_MAX_REGS]; /* the inactive intervals, per register */
    uint64_t sleeping;          /* bit r: sleep[r] is not empty */
    uint32_t min_wake;          /* at most the earliest wake of any sleeper */
    uint32_t high;              /* the largest position advanced to */
    bool usable[LIR_MAX_REGS];
    RaUnion uni;                /* per register, the ranges of its active and waiting holders */
} Scan;

static void sleep_swap(IvList *h, uint32_t i, uint32_t j)
{
    Interval *t = h->v[i];
    h->v[i] = h->v[j];
    h->v[j] = t;
    h->v[i]->heap_at = i;
    h->v[j]->heap_at = j;
}

static void sleep_up(IvList *h, uint32_t i)
{
    while (i > 0 && h->v[i]->wake < h->v[(i - 1) / 2]->wake) {
        sleep_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void sleep_down(IvList *h, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->v[l]->wake < h->v[m]->wake)
            m = l;
        if (r < h->n && h->v[r]->wake < h->v[m]->wake)
            m = r;
        if (m == i)
            return;
        sleep_swap(h, i, m);
        i = m;
    }
}

/* it (holding a register) sleeps until wake */
static void sleep_push(Scan *s, Interval *it, uint32_t wake)
{
    IvList *h = &s->sleep[it->reg];
    it->wake = wake;
    it->heap_at = h->n;
    list_push(h, it);
    sleep_up(h, h->n - 1);
    s->sleeping |= 1ull << it->reg;
    s->min_wake = wake < s->min_wake ? wake : s->min_wake;
}

/* the next register with sleepers in mask, removed from it */
static unsigned next_reg(uint64_t *mask)
{
    unsigned r = (unsigned)__builtin_ctzll(*mask);
    *mask &= *mask - 1;
    return r;
}

static void sleep_remove(Scan *s, Interval *it)
{
    IvList *h = &s->sleep[it->reg];
    uint32_t i = it->heap_at;
    sleep_swap(h, i, h->n - 1);
    h->n--;
    if (i < h->n) {
        sleep_down(h, i);
        sleep_up(h, i);
    }
    if (!h->n)
        s->sleeping &= ~(1ull << it->reg);
}

/* the scan went back to pos: every sleeper wakes to be looked at again (equal
 * keys keep each heap a heap) */
static void wake_all(Scan *s)
{
    for (unsigned r = 0; r < LIR_MAX_REGS; r++)
        for (uint32_t i = 0; i < s->sleep[r].n; i++)
            s->sleep[r].v[i]->wake = 0;
    s->min_wake = 0;
}

/* the sleepers of every register that wake at or before pos: gone if they end by
 * then, active if they cover it, else asleep again until their next range */
static void wake_up_to(Scan *s, uint32_t pos)
{
    for (uint64_t m = s->sleeping; m;) {
        IvList *h = &s->sleep[next_reg(&m)];
        while (h->n && h->v[0]->wake <= pos) {
            Interval *it = h->v[0];
            sleep_remove(s, it);
            if (iv_end(it) <= pos) {
                ra_union_remove(&s->uni, it, 0);
                continue;
            }
            if (iv_covers(it, pos))
                list_push(&s->active, it);
            else
                sleep_push(s, it, iv_next_start(it, pos));
        }
    }
    s->min_wake = UINT32_MAX;
    for (uint64_t m = s->sleeping; m;) {
        const IvList *h = &s->sleep[next_reg(&m)];
        s->min_wake = h->v[0]->wake < s->min_wake ? h->v[0]->wake : s->min_wake;
    }
}

/* ---- the walk --------------------------------------------------------------------- */
static void advance_to(Scan *s, uint32_t pos)
{
    for (uint32_t i = 0; i < s->active.n;) {
        Interval *it = s->active.v[i];
        if (iv_end(it) <= pos) {
            list_remove_at(&s->active, i);
            ra_union_remove(&s->uni, it, 0);
        } else if (!iv_covers(it, pos)) {
            list_remove_at(&s->active, i);
            sleep_push(s, it, iv_next_start(it, pos));
        } else {
            i++;
        }
    }
    if (pos < s->high)
        wake_all(s);
    s->high = pos > s->high ? pos : s->high;
    if (s->min_wake <= pos)
        wake_up_to(s, pos);
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

static int hint_reg(Scan *s, const Interval *cur)
{
    uint32_t h = cur->hint;
    if (h == UINT32_MAX)
        return -1;
    Interval *hv = s->c->ivs[h];
    if (!hv || hv->bank != cur->bank)
        return -1;
    if (hv->fixed)
        return hv->reg;
    Interval *piece = ra_child_at(hv, cur->hint_pos);
    return piece->reg;
}

/* iv waits in its spill slot (the rewriting then looks for folds) */
static void to_slot(Scan *s, Interval *iv)
{
    iv->spilled = true;
    s->c->spilled_any = true;
}

/* cur holds reg (its ranges join the register's union: split it before) */
static void assign(Scan *s, Interval *cur, int reg)
{
    cur->reg = reg;
    cur->spilled = false;
    ra_union_add(&s->uni, cur, 0);
}

/* cur keeps only the early uses of its first instruction, then waits in its slot
 * until its next use that needs a register: false if it cannot */
static bool shorten_to_early_uses(Scan *s, Interval *cur)
{
    uint32_t gap = pos_gap_before(iv_start(cur)), mid = gap + 2;
    /* only a piece holding its value from the gap on can be stored there */
    if (iv_start(cur) != gap || mid >= iv_end(cur) || ra_first_must_use(s->c, cur, mid) < gap + 4)
        return false;
    Interval *rest = ra_split(s->c, cur, mid);
    to_slot(s, rest);
    uint32_t use = ra_first_must_use(s->c, rest, mid);
    if (use != UINT32_MAX)
        heap_push(&s->unhandled, ra_split(s->c, rest, pos_gap_before(use)));
    return true;
}

/* reg is free only until the late point of cur's first instruction: enough when
 * cur needs a register there only for early uses and can wait in its slot from
 * right after them until its next use that needs one */
static bool take_for_early_uses(Scan *s, Interval *cur, int reg, uint32_t until)
{
    uint32_t gap = pos_gap_before(iv_start(cur)), mid = gap + 2;
    if (until <= mid || !shorten_to_early_uses(s, cur))
        return false;
    assign(s, cur, reg);
    return true;
}

static bool try_free_reg(Scan *s, Interval *cur)
{
    uint32_t free_until[LIR_MAX_REGS];
    for (unsigned r = 0; r < LIR_MAX_REGS; r++)
        free_until[r] = UINT32_MAX;
    for (uint32_t i = 0; i < s->active.n; i++)
        free_until[s->active.v[i]->reg] = 0;
    for (uint64_t m = s->sleeping; m;) {
        unsigned r = next_reg(&m);
        if (free_until[r]) /* where a waiting holder first meets cur */
            free_until[r] = ra_union_first_meet(&s->uni, (int)r, cur);
    }
    int best = -1;
    const uint8_t *order = s->c->order[s->bank];
    for (unsigned k = 0; k < s->c->norder[s->bank]; k++) {
        if (best < 0 || free_until[order[k]] > free_until[best])
            best = order[k];
        if (free_until[best] == UINT32_MAX)
            break;   /* free for good: no later register can beat it */
    }
    int hint = hint_reg(s, cur);
    if (hint >= 0 && s->usable[hint] && free_until[hint] >= iv_end(cur))
        best = hint;
    if (best < 0)
        return false;
    uint32_t until = free_until[best];
    if (until >= iv_end(cur)) {
        assign(s, cur, best);
        return true;
    }
    uint32_t split = pos_gap_before(until);
    if (split <= iv_start(cur))
        return take_for_early_uses(s, cur, best, until);
    Interval *rest = ra_split(s->c, cur, split);
    assign(s, cur, best);
    heap_push(&s->unhandled, rest);
    return true;
}

/* ---- when every register is taken ----------------------------------------------- */
typedef struct {
    uint32_t next_use[LIR_MAX_REGS];   /* the holders' next use that needs the register */
    uint32_t block_pos[LIR_MAX_REGS];  /* where a physical register's own use begins */
    double weight[LIR_MAX_REGS];       /* use density of the holders */
} Pressure;

static double density(const Interval *iv)
{
    uint32_t len = 0;
    for (uint32_t i = 0; i < iv->nranges; i++)
        len += iv->ranges[i].to - iv->ranges[i].from;
    return (iv->nuses + 1.0) / (len + 1.0);
}

static void note_holder(Scan *s, Pressure *p, Interval *it, uint32_t gap, uint32_t meet)
{
    int r = it->reg;
    if (it->fixed) {
        p->block_pos[r] = min_u32(p->block_pos[r], meet);
        p->next_use[r] = min_u32(p->next_use[r], meet);
        return;
    }
    /* a holder defined at this instruction's early point cannot be stored to its
     * slot in the gap before it */
    uint32_t start = iv_start(it);
    bool early_def_here = start > pos_gap_before(gap) && start < gap;
    p->next_use[r] = min_u32(p->next_use[r], early_def_here ? 0 : ra_first_must_use(s->c, it, gap));
    p->weight[r] += density(it);
}

/* where holders of a register leave it for cur: the gap before cur's start, or,
 * when cur starts with a late def, right after the instruction's early uses (the
 * holder is stored to its slot in the gap, and keeps the register for those uses) */
static uint32_t evict_pos(const Interval *cur)
{
    uint32_t pos = iv_start(cur);
    return (pos & 3) == 3 ? pos - 1 : pos_gap_before(pos);
}

/* note the sleepers of register r from heap index i on that meet cur */
static void note_sleepers(Scan *s, Pressure *p, unsigned r, uint32_t i, const Interval *cur, uint32_t gap)
{
    const IvList *h = &s->sleep[r];
    if (i >= h->n || h->v[i]->wake >= iv_end(cur))
        return;
    uint32_t x = iv_intersection(h->v[i], cur);
    if (x != UINT32_MAX)
        note_holder(s, p, h->v[i], gap, x);
    note_sleepers(s, p, r, 2 * i + 1, cur, gap);
    note_sleepers(s, p, r, 2 * i + 2, cur, gap);
}

static void measure(Scan *s, Interval *cur, Pressure *p)
{
    uint32_t pos = iv_start(cur), gap = evict_pos(cur);
    for (unsigned r = 0; r < LIR_MAX_REGS; r++) {
        p->next_use[r] = p->block_pos[r] = UINT32_MAX;
        p->weight[r] = 0;
    }
    for (uint32_t i = 0; i < s->active.n; i++)
        note_holder(s, p, s->active.v[i], gap, pos);
    for (uint64_t m = s->sleeping; m;)
        note_sleepers(s, p, next_reg(&m), 0, cur, gap);
}

/* can reg be taken at cur's start: its holders can all move away at the gap */
static bool takeable(const Pressure *p, unsigned r, const Interval *cur)
{
    uint32_t pos = iv_start(cur), gap = pos_gap_before(pos);
    bool blocked_ok = p->block_pos[r] == UINT32_MAX || p->block_pos[r] >= iv_end(cur) ||
                      pos_gap_before(p->block_pos[r]) > pos;
    return blocked_ok && (p->next_use[r] == UINT32_MAX || p->next_use[r] >= gap + 4);
}

static int pick_victim(Scan *s, const Pressure *p, const Interval *cur)
{
    int best = -1;
    const uint8_t *order = s->c->order[s->bank];
    bool by_density = s->c->opt->spill == RA_SPILL_LOWEST_DENSITY;
    for (unsigned k = 0; k < s->c->norder[s->bank]; k++) {
        unsigned r = order[k];
        if (!takeable(p, r, cur))
            continue;
        if (best < 0 || (by_density ? p->weight[r] < p->weight[best]
                                    : p->next_use[r] > p->next_use[best]))
            best = (int)r;
    }
    return best;
}

/* iv leaves its register from gap (or evict_pos) on: the rest waits in the spill
 * slot until its next use that needs a register, and goes back to the worklist
 * from there */
static void spill_from(Scan *s, Interval *iv, uint32_t gap)
{
    Interval *rest = iv;
    if (iv_start(iv) < gap) { /* iv keeps its register before gap */
        uint32_t k = ra_range_ending_after(iv, gap);
        ra_union_remove(&s->uni, iv, k);
        rest = ra_split(s->c, iv, gap);
        ra_union_add(&s->uni, iv, k);
    } else {
        ra_union_remove(&s->uni, iv, 0);
        rest->reg = -1;
    }
    uint32_t use = ra_first_must_use(s->c, rest, gap);
    if (use == UINT32_MAX) {
        to_slot(s, rest);
        return;
    }
    uint32_t at = pos_gap_before(use);
    if (at <= iv_start(rest)) {
        heap_push(&s->unhandled, rest);
        return;
    }
    to_slot(s, rest);
    heap_push(&s->unhandled, ra_split(s->c, rest, at));
}

/* the sleepers (not fixed) of heap h from index i on that meet cur, into out */
static void sleepers_meeting(const IvList *h, uint32_t i, const Interval *cur, IvList *out)
{
    if (i >= h->n || h->v[i]->wake >= iv_end(cur))
        return;
    if (!h->v[i]->fixed && iv_intersection(h->v[i], cur) != UINT32_MAX)
        list_push(out, h->v[i]);
    sleepers_meeting(h, 2 * i + 1, cur, out);
    sleepers_meeting(h, 2 * i + 2, cur, out);
}

static void evict_holders(Scan *s, Interval *cur, int reg)
{
    uint32_t gap = evict_pos(cur);
    for (uint32_t i = 0; i < s->active.n;) {
        Interval *it = s->active.v[i];
        if (it->reg != reg || it->fixed) {
            i++;
            continue;
        }
        list_remove_at(&s->active, i);
        spill_from(s, it, gap);
    }
    IvList meet = { 0 };
    sleepers_meeting(&s->sleep[reg], 0, cur, &meet);
    for (uint32_t i = 0; i < meet.n; i++) {
        sleep_remove(s, meet.v[i]);
        spill_from(s, meet.v[i], gap);
    }
    free(meet.v);
}

static void spill_current(Scan *s, Interval *cur, uint32_t first_use)
{
    cur->reg = -1;
    to_slot(s, cur);
    if (first_use != UINT32_MAX)
        heap_push(&s->unhandled, ra_split(s->c, cur, pos_gap_before(first_use)));
}

static bool prefer_spilling_current(Scan *s, const Pressure *p, int victim, const Interval *cur,
                                    uint32_t first_use)
{
    switch ((RegallocSpill)s->c->opt->spill) {
    case RA_SPILL_CURRENT: return true;
    case RA_SPILL_LOWEST_DENSITY: return density(cur) <= p->weight[victim];
    default: return first_use > p->next_use[victim];
    }
}

static bool alloc_blocked_reg(Scan *s, Interval *cur)
{
    Pressure p;
    measure(s, cur, &p);
    uint32_t pos = iv_start(cur);
    uint32_t first_use = ra_first_must_use(s->c, cur, pos);
    bool can_spill = first_use == UINT32_MAX || pos_gap_before(first_use) > pos;
    int victim = pick_victim(s, &p, cur);
    if (victim < 0 && !can_spill && shorten_to_early_uses(s, cur)) {
        measure(s, cur, &p);
        victim = pick_victim(s, &p, cur);
    }
    if (victim < 0 || (can_spill && prefer_spilling_current(s, &p, victim, cur, first_use))) {
        if (!can_spill)
            return ra_fail(s->c, "no %s register left for %%%s at instruction %u (too many "
                           "registers needed at once)", bank_name(s->bank),
                           cur->tmp < 2 * LIR_MAX_REGS ? "reg" : "tmp", pos / 4);
        spill_current(s, cur, first_use);
        return true;
    }
    Interval *rest = p.block_pos[victim] < iv_end(cur) ? ra_split(s->c, cur, pos_gap_before(p.block_pos[victim]))
                                                       : NULL;
    assign(s, cur, victim);
    if (rest)
        heap_push(&s->unhandled, rest);
    evict_holders(s, cur, victim);
    return true;
}

/* the bank's intervals with dense indices in [from, to): its registers' to the
 * inactive heaps (if usable), its tmps' to the worklist */
static void scan_add(Scan *s, uint32_t from, uint32_t to)
{
    for (uint32_t t = from; t < to && t < s->c->ntmps; t++) {
        Interval *iv = s->c->ivs[t];
        if (!iv || iv->bank != s->bank || !iv->nranges)
            continue;
        if (!iv->fixed) {
            heap_push(&s->unhandled, iv);
        } else if (s->usable[iv->reg]) {
            sleep_push(s, iv, iv_start(iv)); /* it covers nothing before its start */
            ra_union_add(&s->uni, iv, 0);
        }
    }
}

static void scan_init(Scan *s, RaCtx *c, Bank bank)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->bank = bank;
    ra_union_init(&s->uni);
    for (unsigned k = 0; k < c->norder[bank]; k++)
        s->usable[c->order[bank][k]] = true;
    /* dense order: GP registers, FP registers, GP tmps, FP tmps (ra_tmp_index) */
    uint32_t regs = (uint32_t)bank * LIR_MAX_REGS, tmps = 2 * LIR_MAX_REGS;
    if (bank == BANK_FP)
        tmps += c->code->ntmps[BANK_GP];
    scan_add(s, regs, regs + LIR_MAX_REGS);
    scan_add(s, tmps, tmps + c->code->ntmps[bank]);
}

bool ra_linear_scan(RaCtx *c, Bank bank)
{
    Scan s;
    scan_init(&s, c, bank);
    while (s.unhandled.n && !c->failed) {
        Interval *cur = heap_pop(&s.unhandled);
        advance_to(&s, iv_start(cur));
        if (!try_free_reg(&s, cur))
            alloc_blocked_reg(&s, cur);
        if (cur->reg >= 0)
            list_push(&s.active, cur);
    }
    free(s.unhandled.v);
    free(s.active.v);
    for (unsigned r = 0; r < LIR_MAX_REGS; r++)
        free(s.sleep[r].v);
    ra_union_free(&s.uni);
    return !c->failed;
}

/* ---- a reduced register file: never below what one instruction needs ---------------- */
typedef struct {
    Bank bank;
    unsigned n;
    Tmp seen[16];
} DistinctTmps;

static void note_distinct(void *ctx, Tmp *tmp, Role role, Bank bank, Width width)
{
    (void)role;
    (void)width;
    DistinctTmps *d = ctx;
    if (bank != d->bank || !tmp_is_virtual(*tmp))
        return;
    for (unsigned i = 0; i < d->n; i++)
        if (d->seen[i] == *tmp)
            return;
    if (d->n < sizeof d->seen / sizeof d->seen[0])
        d->seen[d->n++] = *tmp;
}

/* the most virtual tmps of bank b one instruction of code names (each may need a
 * register at once: a compare fused into a conditional move names four) */
static unsigned tmps_at_once(const Code *code, Bank b)
{
    unsigned most = 0;
    for (uint32_t i = 0; i < code->nblocks; i++)
        for (uint32_t k = 0; k < code->blocks[i]->ninsts; k++) {
            DistinctTmps d = {.bank = b};
            lir_for_each_tmp(&code->blocks[i]->insts[k], note_distinct, &d);
            most = d.n > most ? d.n : most;
        }
    return most;
}

/* ---- entry points ------------------------------------------------------------------ */
unsigned lir_alloc_order(const Code *code, const RegallocOptions *opt, Bank b, uint8_t *regs)
{
    const Target *t = code->target;
    unsigned n = 0;
    unsigned total = t->alloc_order[b] ? t->nalloc_order[b] : t->nregs[b];
    unsigned limit = opt && opt->max_regs[b] ? opt->max_regs[b] : LIR_MAX_REGS;
    if (limit < LIR_MAX_REGS) {
        unsigned need = tmps_at_once(code, b);
        limit = need > limit ? need : limit;
    }
    for (unsigned k = 0; k < total && n < limit; k++) {
        unsigned r = t->alloc_order[b] ? t->alloc_order[b][k] : k;
        if (r >= t->nregs[b] || r >= LIR_MAX_REGS || !((t->allocatable[b] >> r) & 1))
            continue;
        Tmp reg = tmp_reg(b, r);
        if (reg == code->frame_base || reg == code->stack_pointer)
            continue;
        regs[n++] = (uint8_t)r;
    }
    return n;
}

/* known: the code's liveness if the caller has it (else computed here); forms: check
 * the input against the target's forms (else only its shape) */
static bool ctx_init(RaCtx *c, Code *code, const RegallocOptions *opt, LirLiveness *known, bool forms,
                     char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->code = code;
    c->opt = opt;
    c->err = err;
    c->errlen = errlen;
    c->scratch_slot[0] = c->scratch_slot[1] = -1;
    if (!code->target)
        return ra_fail(c, "the code has no target");
    int problems = forms ? lir_verify(code, NULL) : lir_verify_shape(code, NULL);
    if (problems)
        return ra_fail(c, "the code does not verify (%d problems)", problems);
    c->arena = arena_new();
    lir_compute_preds(code);
    bool fits = known && known->code == code && known->ntmps == lir_tmp_count(code) &&
                known->nblocks == code->nblocks;
    c->live = fits ? known : lir_liveness(c->arena, code);
    if (!c->live)
        return ra_fail(c, "%s", LIR_NO_LIVENESS);
    c->ntmps = lir_tmp_count(code);
    c->ivs = arena_alloc(c->arena, (c->ntmps + 1) * sizeof *c->ivs);
    c->block_of = arena_alloc(c->arena, (c->live->ninsts + 1) * sizeof *c->block_of);
    c->fold_arg = arena_alloc_raw(c->arena, (c->live->ninsts + 1) * sizeof *c->fold_arg);
    memset(c->fold_arg, FOLD_UNKNOWN, (c->live->ninsts + 1) * sizeof *c->fold_arg);
    for (uint32_t b = 0; b < c->live->nblocks; b++)
        for (uint32_t n = c->live->first_inst[b]; n < c->live->first_inst[b + 1]; n++)
            c->block_of[n] = b;
    for (unsigned b = 0; b < BANK_COUNT; b++)
        c->norder[b] = lir_alloc_order(code, opt, (Bank)b, c->order[b]);
    return true;
}

static void ctx_free(RaCtx *c)
{
    if (c->arena)
        arena_free(c->arena);
    free(c->again);
}

/* a large operand store given back while the scan runs (rewriting makes the
 * operands again) */
static void compact(RaCtx *c)
{
    uint64_t from = c->opt->compact_bytes ? c->opt->compact_bytes : RA_COMPACT_BYTES;
    if (ra_operand_store_bytes(c->live) >= from)
        ra_release_operands(c->live);
}

static bool allocate_registers(Code *code, const RegallocOptions *opt, LirLiveness *known, bool forms,
                               char *err, size_t errlen)
{
    RegallocOptions defaults = { 0 };
    RaCtx c;
    bool ok = ctx_init(&c, code, opt ? opt : &defaults, known, forms, err, errlen) && ra_build_intervals(&c);
    if (ok)
        compact(&c);
    ok = ok && ra_linear_scan(&c, BANK_GP) && ra_linear_scan(&c, BANK_FP) && ra_assign_spill_slots(&c) &&
         ra_resolve_and_rewrite(&c);
    ctx_free(&c);
    return ok;
}

bool lir_allocate_registers(Code *code, const RegallocOptions *opt, char *err, size_t errlen)
{
    return allocate_registers(code, opt, NULL, true, err, errlen);
}

/* the allocated code verifies (every instruction in a form of the target included,
 * with forms) */
static bool check_result(Code *code, bool forms, char *err, size_t errlen)
{
    int problems = forms ? lir_verify(code, NULL) : lir_verify_shape(code, NULL);
    if (problems && err && errlen)
        snprintf(err, errlen, "allocated @%s does not verify (%d problems)", code->name, problems);
    return problems == 0;
}

bool lir_allocate(Code *code, const RegallocOptions *opt, char *err, size_t errlen)
{
    return allocate_registers(code, opt, NULL, true, err, errlen) && lir_allocate_stack(code, err, errlen) &&
           check_result(code, true, err, errlen);
}

bool lir_allocate_compiled(Code *code, const RegallocOptions *opt, LirLiveness *live, char *err, size_t errlen)
{
    return allocate_registers(code, opt, live, false, err, errlen) && lir_allocate_stack(code, err, errlen) &&
           check_result(code, false, err, errlen);
}
