/* parmove.c — sequentializing a parallel copy (lir_parallel_moves): moves whose
 * destination nobody still reads go first; what remains are cycles, broken with
 * swaps (GP registers) or a temporary (a free register or a scratch slot).  A
 * slot-to-slot copy goes through a free GP register or a borrowed one.  Needs
 * nothing but the locations. */
#include "parmove.h"

#include <stdlib.h>

typedef struct {
    const ParMoveScratch *scratch;
    ParMoveStep *out;
    uint32_t nout;
    bool free_gp_busy;    /* the free GP register holds a cycle's value */
} Seq;

static bool loc_eq(LirLoc a, LirLoc b)
{
    if (a.is_slot != b.is_slot || a.index != b.index)
        return false;
    return a.is_slot || a.bank == b.bank;
}

static LirLoc reg_loc(Bank b, unsigned r) { return (LirLoc){ 0, (uint8_t)b, r }; }
static LirLoc slot_loc(uint32_t s) { return (LirLoc){ 1, BANK_GP, s }; }

static void step(Seq *s, ParMoveOp op, LirLoc a, LirLoc b)
{
    s->out[s->nout++] = (ParMoveStep){ (uint8_t)op, a, b };
}

/* one copy as machine moves */
static void copy(Seq *s, LirLoc src, LirLoc dst)
{
    if (loc_eq(src, dst))
        return;
    if (!src.is_slot || !dst.is_slot) {
        step(s, PM_MOVE, src, dst);
        return;
    }
    int free_gp = s->scratch->free_reg[BANK_GP];
    if (free_gp >= 0 && !s->free_gp_busy) {
        LirLoc r = reg_loc(BANK_GP, (unsigned)free_gp);
        step(s, PM_MOVE, src, r);
        step(s, PM_MOVE, r, dst);
        return;
    }
    LirLoc r = reg_loc(BANK_GP, s->scratch->borrow_gp);
    LirLoc save = slot_loc(s->scratch->scratch_slot[1]);
    step(s, PM_MOVE, r, save);
    step(s, PM_MOVE, src, r);
    step(s, PM_MOVE, r, dst);
    step(s, PM_MOVE, save, r);
}

/* is loc read by a pending move other than skip */
static bool still_read(const LirMove *m, const bool *done, uint32_t n, uint32_t skip, LirLoc loc)
{
    for (uint32_t j = 0; j < n; j++)
        if (j != skip && !done[j] && loc_eq(m[j].src, loc))
            return true;
    return false;
}

/* emit every move whose destination no pending move reads, until none is left */
static void emit_trees(Seq *s, const LirMove *m, bool *done, uint32_t n)
{
    bool progress = true;
    while (progress) {
        progress = false;
        for (uint32_t i = 0; i < n; i++) {
            if (done[i] || still_read(m, done, n, i, m[i].dst))
                continue;
            copy(s, m[i].src, m[i].dst);
            done[i] = true;
            progress = true;
        }
    }
}

static uint32_t move_from(const LirMove *m, const bool *done, uint32_t n, LirLoc loc)
{
    for (uint32_t j = 0; j < n; j++)
        if (!done[j] && loc_eq(m[j].src, loc))
            return j;
    return n;
}

/* the cycle through move i: cyc[0] -> cyc[1] -> ... -> cyc[k-1] -> cyc[0] */
static uint32_t collect_cycle(const LirMove *m, bool *done, uint32_t n, uint32_t i, LirLoc *cyc)
{
    uint32_t k = 0;
    uint32_t j = i;
    while (j < n && !done[j]) {
        cyc[k++] = m[j].src;
        done[j] = true;
        j = move_from(m, done, n, m[j].dst);
    }
    return k;
}

/* the bank of every register in the cycle; -1 if none, -2 if both banks */
static int cycle_bank(const LirLoc *cyc, uint32_t k)
{
    int bank = -1;
    for (uint32_t j = 0; j < k; j++) {
        if (cyc[j].is_slot)
            continue;
        if (bank == -1)
            bank = cyc[j].bank;
        else if (bank != cyc[j].bank)
            return -2;
    }
    return bank;
}

static void break_cycle(Seq *s, const LirLoc *cyc, uint32_t k)
{
    bool all_gp = true;
    for (uint32_t j = 0; j < k; j++)
        all_gp &= !cyc[j].is_slot && cyc[j].bank == BANK_GP;
    if (all_gp) {
        for (uint32_t j = 1; j < k; j++)
            step(s, PM_SWAP, cyc[0], cyc[j]);
        return;
    }
    /* a free register holds the value only if the cycle's registers share its
     * bank; the scratch slot takes any */
    int bank = cycle_bank(cyc, k);
    if (bank == -1)
        bank = BANK_GP;
    int free = bank >= 0 ? s->scratch->free_reg[bank] : -1;
    LirLoc temp = free >= 0 ? reg_loc((Bank)bank, (unsigned)free) : slot_loc(s->scratch->scratch_slot[0]);
    copy(s, cyc[k - 1], temp);
    s->free_gp_busy = free >= 0 && bank == BANK_GP;
    for (uint32_t j = k - 1; j > 0; j--)
        copy(s, cyc[j - 1], cyc[j]);
    s->free_gp_busy = false;
    copy(s, temp, cyc[0]);
}

uint32_t lir_parallel_moves(const LirMove *moves, uint32_t n, const ParMoveScratch *scratch,
                            ParMoveStep *out)
{
    Seq s = { scratch, out, 0, false };
    bool *done = calloc(n + 1, sizeof *done);
    LirLoc *cyc = calloc(n + 1, sizeof *cyc);
    if (!done || !cyc)
        abort();
    for (uint32_t i = 0; i < n; i++)
        done[i] = loc_eq(moves[i].src, moves[i].dst);
    emit_trees(&s, moves, done, n);
    for (uint32_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        uint32_t k = collect_cycle(moves, done, n, i, cyc);
        break_cycle(&s, cyc, k);
    }
    free(done);
    free(cyc);
    return s.nout;
}
