/* stage_cost.h — bench_fuzz --stage-cost (stage_cost.c): the CPU cost per program of
 * each machine-code stage, measured against the oracle alone on the same programs. */
#ifndef CIRC_BENCH_STAGE_COST_H
#define CIRC_BENCH_STAGE_COST_H

#include "fuzz/campaign.h"

/* CPU seconds (user + system) of the waited-for children of this process */
double bench_children_cpu(void);
/* campaigns of one worker over base's programs: the oracle alone, then each
 * machine-code stage of the same -O2 module alone (and the native stages after the
 * Unicorn stage of their ISA, which share its compile), `rounds` times in turn;
 * prints the medians in microseconds of CPU per program and the native stage against
 * Unicorn's; 0, or 1 if a campaign failed or found a mismatch */
int stage_cost_run(const CampaignOptions *base, uint32_t rounds);

#endif
