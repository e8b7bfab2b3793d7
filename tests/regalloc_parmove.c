/* regalloc_parmove.c — the parallel-move resolver (lir_parallel_moves) on random
 * parallel copies among GP registers, FP registers and stack slots: permutations
 * with cycles, fan-out (one source, several destinations), slot-to-slot copies,
 * with and without free registers.  Each result is simulated step by step: every
 * step must be one machine move (never slot to slot, never GP to FP, swaps only of
 * GP registers), every destination must end with its source's original value and
 * every other location (but the free registers and scratch slots) keep its own. */
#include "compiler/lir/parmove.h"

#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

/* locations 0..7 GP registers, 8..15 FP registers, 16..23 slots, 24/25 scratch
 * slots; GP register 8..11 and FP 8..11 are outside the moves (free or borrowed) */
enum { NGP = 12, NFP = 12, NSLOT = 8, NLOC = NGP + NFP + NSLOT + 2 };
enum { SCRATCH0 = 100, SCRATCH1 = 101 };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int loc_id(LirLoc l)
{
    if (!l.is_slot)
        return l.bank == BANK_GP ? (l.index < NGP ? (int)l.index : -1)
                                 : (l.index < NFP ? NGP + (int)l.index : -1);
    if (l.index < NSLOT)
        return NGP + NFP + (int)l.index;
    if (l.index == SCRATCH0 || l.index == SCRATCH1)
        return NGP + NFP + NSLOT + (int)(l.index - SCRATCH0);
    return -1;
}

static LirLoc loc_of_id(int id)
{
    if (id < NGP)
        return (LirLoc){ 0, BANK_GP, (uint32_t)id };
    if (id < NGP + NFP)
        return (LirLoc){ 0, BANK_FP, (uint32_t)(id - NGP) };
    return (LirLoc){ 1, BANK_GP, (uint32_t)(id - NGP - NFP) };
}

/* in the moves: GP 0..7, FP 0..7, slots 0..7 */
static int random_move_loc(void)
{
    int k = (int)(rnd() % 24);
    return k < 8 ? k : k < 16 ? NGP + (k - 8) : NGP + NFP + (k - 16);
}

static bool is_fp_reg(int id) { return id >= NGP && id < NGP + NFP; }
static bool is_gp_reg(int id) { return id < NGP; }
static bool compatible(int a, int b) { return !((is_fp_reg(a) && is_gp_reg(b)) || (is_gp_reg(a) && is_fp_reg(b))); }

static bool run_steps(const ParMoveStep *steps, uint32_t n, uint64_t *val)
{
    for (uint32_t i = 0; i < n; i++) {
        int a = loc_id(steps[i].a), b = loc_id(steps[i].b);
        if (a < 0 || b < 0)
            return false;
        if (steps[i].op == PM_SWAP) {
            if (!is_gp_reg(a) || !is_gp_reg(b))
                return false;
            uint64_t t = val[a];
            val[a] = val[b];
            val[b] = t;
        } else {
            if ((steps[i].a.is_slot && steps[i].b.is_slot) || !compatible(a, b))
                return false;
            val[b] = val[a];
        }
    }
    return true;
}

static void one_case(unsigned variant)
{
    LirMove moves[24];
    int src[24], dst[24];
    unsigned n = 0;
    bool is_dst[NLOC] = { false };
    unsigned want = 1 + (unsigned)(rnd() % 16);
    for (unsigned tries = 0; n < want && tries < 200; tries++) {
        int d = random_move_loc(), s;
        if (is_dst[d])
            continue;
        /* mostly permutation-like: sources among destinations' old holders */
        s = (rnd() % 3 && n) ? dst[rnd() % n] : random_move_loc();
        if (!compatible(s, d))
            continue;
        is_dst[d] = true;
        src[n] = s;
        dst[n] = d;
        moves[n] = (LirMove){ loc_of_id(s), loc_of_id(d) };
        n++;
    }
    ParMoveScratch sc = { { -1, -1 }, { SCRATCH0, SCRATCH1 }, 9 };
    if (variant & 1)
        sc.free_reg[BANK_GP] = 8;
    if (variant & 2)
        sc.free_reg[BANK_FP] = 8;
    uint64_t val[NLOC], before[NLOC];
    for (int i = 0; i < NLOC; i++)
        val[i] = before[i] = rnd();
    ParMoveStep steps[LIR_PARMOVE_MAX_STEPS(24)];
    uint32_t nsteps = lir_parallel_moves(moves, n, &sc, steps);
    CHECK(nsteps <= LIR_PARMOVE_MAX_STEPS(n), "%u steps for %u moves", nsteps, n);
    CHECK(run_steps(steps, nsteps, val), "a step is not one machine move (variant %u)", variant);
    for (unsigned i = 0; i < n; i++)
        CHECK(val[dst[i]] == before[src[i]], "move %u (%d -> %d) wrong, variant %u", i, src[i], dst[i], variant);
    for (int id = 0; id < NLOC; id++) {
        bool scratch = id == 8 || id == NGP + 8 || id >= NGP + NFP + NSLOT;
        if (!is_dst[id] && !scratch)
            CHECK(val[id] == before[id], "location %d clobbered, variant %u", id, variant);
    }
}

/* a GP register cycle takes swaps only: no temporary at all */
static void gp_cycle_uses_swaps(void)
{
    LirMove m[4];
    for (unsigned i = 0; i < 4; i++)
        m[i] = (LirMove){ { 0, BANK_GP, i }, { 0, BANK_GP, (i + 1) % 4 } };
    ParMoveScratch sc = { { -1, -1 }, { SCRATCH0, SCRATCH1 }, 9 };
    ParMoveStep steps[LIR_PARMOVE_MAX_STEPS(4)];
    uint32_t n = lir_parallel_moves(m, 4, &sc, steps);
    CHECK(n == 3, "a 4-cycle of GP registers took %u steps", n);
    for (uint32_t i = 0; i < n; i++)
        CHECK(steps[i].op == PM_SWAP, "step %u of a GP cycle is not a swap", i);
}

/* an FP cycle without a free FP register goes through scratch slot 0 */
static void fp_cycle_uses_scratch_slot(void)
{
    LirMove m[2] = { { { 0, BANK_FP, 0 }, { 0, BANK_FP, 1 } }, { { 0, BANK_FP, 1 }, { 0, BANK_FP, 0 } } };
    ParMoveScratch sc = { { -1, -1 }, { SCRATCH0, SCRATCH1 }, 9 };
    ParMoveStep steps[LIR_PARMOVE_MAX_STEPS(2)];
    uint32_t n = lir_parallel_moves(m, 2, &sc, steps);
    CHECK(n == 3, "an FP swap took %u steps", n);
    bool used = false;
    for (uint32_t i = 0; i < n; i++)
        used |= steps[i].b.is_slot && steps[i].b.index == SCRATCH0;
    CHECK(used, "an FP swap without a free register does not use the scratch slot");
    sc.free_reg[BANK_FP] = 8;
    n = lir_parallel_moves(m, 2, &sc, steps);
    used = false;
    for (uint32_t i = 0; i < n; i++)
        used |= steps[i].a.is_slot || steps[i].b.is_slot;
    CHECK(n == 3 && !used, "an FP swap with a free register touched memory");
}

int main(void)
{
    gp_cycle_uses_swaps();
    fp_cycle_uses_scratch_slot();
    for (unsigned i = 0; i < 20000; i++)
        one_case(i % 4);
    printf("regalloc_parmove: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
