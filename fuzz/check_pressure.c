/* check_pressure.c — the register-pressure stages (x86-64-O2-regs, arm64-O2-regs):
 * the module compiled at -O2 as the machine-code stage compiles it (for a CPU level
 * of the target drawn from the program), but allocated with a reduced register file (3 to 6 general and 2 to 4 float registers) and
 * knobs drawn from the program's hash (the spill choice, no coalescing, no sharing
 * of spill slots, no folding of spilled operands), then run under the emulator.
 * Spills, reloads, parallel moves that need a scratch register and the memory forms
 * of spilled operands, rare with the full register file, become the rule.  The
 * knobs come from the program, so `circ check` of a finding replays it.  Each ISA's
 * stage takes one program in pressure_every (a campaign: one in four, a different
 * quarter for each ISA; `circ check`: every one).  The local allocator's stages draw
 * their one knob here too, and both kinds of stage a branch reach that makes
 * conditional branches take their long forms. */
#include "fuzz/check_stage.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

bool check_stage_sampled(const Module *m, uint32_t every, Isa isa, unsigned salt)
{
    return every <= 1 || (mix(check_program_hash(m)) + (uint64_t)isa + salt) % every == 0;
}

bool check_pressure_sampled(const Module *m, const CheckOptions *o, Isa isa)
{
    return check_stage_sampled(m, o->pressure_every, isa, 0);
}

RegallocOptions check_pressure_options(const Module *m)
{
    uint64_t h = mix(check_program_hash(m) ^ 0x9e3779b97f4a7c15ull);
    RegallocOptions ra = {0};
    ra.max_regs[BANK_GP] = (uint8_t)(3 + h % 4);
    ra.max_regs[BANK_FP] = (uint8_t)(2 + (h >> 8) % 3);
    ra.spill = (uint8_t)((h >> 16) % RA_SPILL_COUNT);
    ra.no_coalesce = (h >> 24) % 4 == 0;
    ra.no_share_slots = (h >> 32) % 4 == 0;
    ra.no_fold = (h >> 40) % 8 == 0;
    return ra;
}

RegallocOptions check_local_options(const Module *m)
{
    RegallocOptions ra = {0};
    ra.slot_operands = mix(check_program_hash(m) ^ 0x5851f42d4c957f2dull) % 4 != 0;
    return ra;
}

uint32_t check_branch_reach(const Module *m)
{
    uint64_t h = mix(check_program_hash(m) ^ 0xd1b54a32d192ed03ull);
    return h % 2 ? 0 : 8u << (h >> 8) % 8;
}

const Target *check_pressure_level(const Module *m, const Target *t)
{
    if (t->nlevels < 2)
        return t;
    return t->levels[mix(check_program_hash(m) ^ 0x2545f4914f6cdd1dull) % t->nlevels];
}
