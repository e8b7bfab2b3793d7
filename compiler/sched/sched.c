/* sched.c — schedule_func: blocks, block order, dominators, loops, then global code
 * motion (the steps live in cfg.c, dom.c, loops.c, gcm.c). */
#include "sched.h"

#include <stdlib.h>

static bool analyze_blocks(Schedule *s, Diag *d)
{
    sched_dominators(s);
    return sched_find_loops(s, d);
}

Schedule *schedule_func(const Func *f, const SchedOptions *opt, Diag *d)
{
    Arena *a = arena_new();
    Schedule *s = arena_alloc(a, sizeof *s);
    s->arena = a;
    s->func = f;
    s->ngates = f->circ->ngates;
    s->gate_block = arena_alloc(a, (s->ngates ? s->ngates : 1) * sizeof(BlockId));
    s->state_block = arena_alloc(a, (s->ngates ? s->ngates : 1) * sizeof(BlockId));
    /* a first reverse postorder gives the dominators and loops; the final order keeps
     * loop bodies contiguous, and the analyses are redone under its numbering */
    bool ok = sched_build_blocks(s, d) && sched_order_blocks(s) && analyze_blocks(s, d) &&
              sched_order_blocks(s) && analyze_blocks(s, d) && sched_place_gates(s, opt, d);
    if (!ok) {
        arena_free(a);
        return NULL;
    }
    return s;
}

void schedule_free(Schedule *s)
{
    if (s)
        arena_free(s->arena);
}
