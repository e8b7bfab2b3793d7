/* sched_unit.c — unit tests of the scheduler on the hand-written circuits of
 * tests/sched/: dominators, loop nesting and depths, block order, and where global
 * code motion puts gates (invariants hoisted, guarded divisions and effects kept
 * where they are demanded), plus clean errors for what cannot be scheduled.
 * usage: sched_unit DIR (the tests/sched folder) */
#include "compiler/sched/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/test_check.h"

static char dir[4096];

static Module *load(const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Diag d;
    diag_init(&d, path, stderr);
    Module *m = parse_file(path, &d);
    if (m && verify_module(m, &d)) {
        module_free(m);
        m = NULL;
    }
    CHECK(m != NULL, "%s does not load", path);
    return m;
}

static GateId find(const Func *f, const char *name)
{
    const Circuit *c = f->circ;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++)
        if (c->gates[g].name && !strcmp(c->gates[g].name, name))
            return g;
    if (!strcmp(name, "entry"))
        return ROOT_STATE_ENTRY;
    fprintf(stderr, "no gate %%%s in @%s\n", name, f->name);
    exit(2);
}

/* the block of a state gate, or of a placed computation gate */
static BlockId block(const Schedule *s, const char *name)
{
    GateId g = find(s->func, name);
    if (s->state_block[g] != NO_BLOCK)
        return s->state_block[g];
    return s->gate_block[g];
}

static bool block_has(const Schedule *s, BlockId b, const char *name)
{
    GateId g = find(s->func, name);
    const Block *bl = &s->blocks[b];
    for (uint32_t i = 0; i < bl->ngates; i++)
        if (bl->gates[i] == g)
            return true;
    return false;
}

static Schedule *sched_with(const Module *m, uint32_t func, const SchedOptions *opt)
{
    Diag d;
    diag_init(&d, m->file, stderr);
    Schedule *s = schedule_func(m->funcs[func], opt, &d);
    CHECK(s != NULL, "@%s does not schedule", m->funcs[func]->name);
    if (!s)
        exit(1);
    return s;
}

static Schedule *sched(const Module *m, uint32_t func, bool no_motion)
{
    SchedOptions opt = {.no_motion = no_motion};
    return sched_with(m, func, &opt);
}

/* every loop body is a contiguous run of blocks starting at its header */
static void check_contiguous_loops(const Schedule *s)
{
    for (uint32_t l = 0; l < s->nloops; l++) {
        const Loop *lp = &s->loops[l];
        CHECK(lp->last - lp->header + 1 == lp->nbody, "loop %u of @%s is not contiguous", l, s->func->name);
    }
}

/* each gate sits after its operands placed in the same block */
static void check_operands_first(const Schedule *s)
{
    const Circuit *c = s->func->circ;
    uint32_t *pos = malloc(c->ngates * sizeof *pos);
    for (BlockId b = 0; b < s->nblocks; b++) {
        const Block *bl = &s->blocks[b];
        for (GateId g = 0; g < c->ngates; g++)
            pos[g] = UINT32_MAX;
        for (uint32_t i = 0; i < bl->ngates; i++)
            pos[bl->gates[i]] = i;
        for (uint32_t i = 0; i < bl->ngates; i++) {
            const Gate *gt = &c->gates[bl->gates[i]];
            for (uint32_t k = gt->nstate; k < gate_nin(gt); k++)
                CHECK(pos[gt->in[k]] == UINT32_MAX || pos[gt->in[k]] < i, "operand after its user in b%u", b);
        }
    }
    free(pos);
}

static void test_nested_loops(void)
{
    Module *m = load("nested_loops.circ");
    if (!m)
        return;
    Schedule *s = sched(m, 0, false);
    BlockId entry = block(s, "entry"), outer = block(s, "outer"), inner = block(s, "inner");
    BlockId latch_in = block(s, "jt"), after_in = block(s, "jf"), exit = block(s, "if");
    CHECK(entry == 0, "entry is b%u", entry);
    CHECK(s->nloops == 2, "%u loops", s->nloops);
    CHECK(s->blocks[entry].loop_depth == 0, "entry depth %u", s->blocks[entry].loop_depth);
    CHECK(s->blocks[outer].loop_depth == 1, "outer header depth %u", s->blocks[outer].loop_depth);
    CHECK(s->blocks[inner].loop_depth == 2, "inner header depth %u", s->blocks[inner].loop_depth);
    CHECK(s->blocks[latch_in].loop_depth == 2, "inner latch depth");
    CHECK(s->blocks[after_in].loop_depth == 1, "inner exit depth");
    CHECK(s->blocks[exit].loop_depth == 0, "exit depth");
    CHECK(s->blocks[outer].idom == entry, "idom(outer)");
    CHECK(s->blocks[inner].idom == outer, "idom(inner)");
    CHECK(s->blocks[latch_in].idom == inner, "idom(inner latch)");
    CHECK(s->blocks[after_in].idom == inner, "idom(inner exit)");
    CHECK(s->blocks[exit].idom == after_in, "idom(exit)");
    CHECK(sched_dominates(s, outer, exit) && !sched_dominates(s, latch_in, exit), "dominance queries");
    CHECK(sched_lca(s, latch_in, exit) == inner, "lca");
    CHECK(s->loops[s->blocks[inner].loop].parent == s->blocks[outer].loop, "loop nesting");
    /* global code motion: invariants leave the loops they do not vary in */
    CHECK(block(s, "kk") == entry, "%%kk in b%u, want the entry block", block(s, "kk"));
    CHECK(block(s, "ik") == outer, "%%ik in b%u, want the outer header b%u", block(s, "ik"), outer);
    CHECK(block(s, "t") == inner, "%%t in b%u, want the inner header b%u", block(s, "t"), inner);
    CHECK(block(s, "i1") == after_in, "%%i1 in b%u, want b%u", block(s, "i1"), after_in);
    check_contiguous_loops(s);
    check_operands_first(s);
    schedule_free(s);
    /* the naive schedule keeps every gate at its latest block */
    s = sched(m, 0, true);
    CHECK(block(s, "kk") == block(s, "inner"), "naive: %%kk in b%u", block(s, "kk"));
    CHECK(block(s, "ik") == block(s, "inner"), "naive: %%ik in b%u", block(s, "ik"));
    schedule_free(s);
    module_free(m);
}

static void test_guarded_arm(void)
{
    Module *m = load("guarded_arm.circ");
    if (!m)
        return;
    for (int naive = 0; naive < 2; naive++) {
        Schedule *s = sched(m, 0, naive);
        BlockId t = block(s, "t"), f = block(s, "f"), mg = block(s, "m"), e = block(s, "entry");
        CHECK(block(s, "q") == t, "division in b%u, want its arm b%u", block(s, "q"), t);
        CHECK(block(s, "q1") == t, "its user in b%u, want b%u", block(s, "q1"), t);
        CHECK(s->blocks[mg].idom == e && s->blocks[t].idom == e && s->blocks[f].idom == e, "diamond idoms");
        CHECK(s->blocks[mg].npreds == 2 && s->blocks[mg].preds[0] == t && s->blocks[mg].preds[1] == f,
              "merge preds in state-input order");
        CHECK(s->blocks[mg].nparams == 1 && s->blocks[t].nsuccs == 1 && s->blocks[t].succs[0].ncopies == 1 &&
                  s->blocks[t].succs[0].copies[0].value == find(m->funcs[0], "q1"),
              "edge copy carries %%q1");
        CHECK(s->blocks[e].term == TERM_IF && s->blocks[e].succs[0].to == t && s->blocks[e].succs[1].to == f,
              "IF successors are [true, false]");
        check_operands_first(s);
        schedule_free(s);
    }
    module_free(m);
}

static void test_loop_guarded_div(void)
{
    Module *m = load("loop_guarded_div.circ");
    if (!m)
        return;
    Schedule *s = sched(m, 0, false);
    BlockId t = block(s, "t");
    CHECK(block(s, "q") == t, "invariant division in b%u, want its arm b%u", block(s, "q"), t);
    CHECK(s->blocks[t].loop_depth == 1, "the arm is in the loop");
    CHECK(block(s, "dz") == 0, "invariant compare in b%u, want the entry block", block(s, "dz"));
    check_contiguous_loops(s);
    schedule_free(s);
    module_free(m);
}

static void test_const_div(void)
{
    Module *m = load("const_div.circ");
    if (!m)
        return;
    Schedule *s = sched(m, 0, false);
    CHECK(block(s, "q") == 0, "division by 7 in b%u, want the entry block", block(s, "q"));
    /* demanded (through %acc2) at the back edge and after the exit: it runs there */
    CHECK(!block_has(s, 0, "r") && block_has(s, block(s, "body"), "r") && block_has(s, block(s, "exit"), "r"),
          "division by -1 runs where it is demanded, not before the loop");
    schedule_free(s);
    module_free(m);
}

static void test_invariant_load(void)
{
    Module *m = load("invariant_load.circ");
    if (!m)
        return;
    Schedule *s = sched(m, 0, false);
    BlockId loop = block(s, "loop"), exit = block(s, "exit");
    CHECK(block(s, "x") == 0, "invariant LOAD in b%u, want the entry block", block(s, "x"));
    BlockId latch = block(s, "body");
    /* the loop's STORE is demanded at the back edge and after the exit: it runs there,
     * once per iteration, not before the loop's branch */
    CHECK(s->gate_block[find(m->funcs[0], "st")] == MULTI_BLOCK && block_has(s, latch, "st") &&
              block_has(s, exit, "st") && !block_has(s, loop, "st"),
          "the loop's STORE runs where it is demanded");
    CHECK(block_has(s, latch, "old") && !block_has(s, loop, "old"), "its LOAD follows it");
    CHECK(s->blocks[latch].loop_depth == 1 && s->blocks[exit].loop_depth == 0, "latch in, exit out");
    CHECK(block(s, "r") == exit, "the LOAD after the loop stays after it");
    schedule_free(s);
    s = sched(m, 0, true); /* an effect never enters a loop it does not vary in */
    CHECK(block(s, "x") == 0, "naive: invariant LOAD in b%u", block(s, "x"));
    schedule_free(s);
    module_free(m);
}

static void test_copies(void)
{
    Module *m = load("arms_load.circ");
    if (!m)
        return;
    Schedule *s = sched(m, 0, false);
    BlockId t = block(s, "t"), f = block(s, "f");
    CHECK(s->gate_block[find(m->funcs[0], "x")] == MULTI_BLOCK, "LOAD demanded on both arms is copied");
    CHECK(block_has(s, t, "x") && block_has(s, f, "x") && !block_has(s, 0, "x"), "one copy per arm");
    schedule_free(s);
    s = sched(m, 1, false);
    BlockId c0 = block(s, "c0"), c1 = block(s, "c1"), d = block(s, "d");
    CHECK(!block_has(s, 0, "q") && !block_has(s, c0, "q"), "division not above the switch nor on case 0");
    CHECK(block_has(s, c1, "q") && block_has(s, d, "q"), "division on the arms that demand it");
    CHECK(s->blocks[0].term == TERM_SWITCH && s->blocks[0].nsuccs == 3 && s->blocks[0].succs[2].to == d &&
              s->blocks[0].case_values[0] == 0 && s->blocks[0].case_values[1] == 1,
          "switch successors [cases..., default] with case values");
    schedule_free(s);
    module_free(m);
}

/* an effect demanded on one arm and again after the join, but not on the other arm
 * then the other: running it once where demanded needs a flag */
static const char unschedulable[] =
    "func @u(i64, i1, i1) -> i64 {\n"
    "  %p = ARG i64 0\n  %c = ARG i1 1\n  %e = ARG i1 2\n"
    "  %z = CONSTANT i64 0\n"
    "  %x = LOAD i64 {entry} (%p)\n"
    "  %b1 = IF_BRANCH [entry] (%c)\n  %t = IF_TRUE [%b1]\n  %f = IF_FALSE [%b1]\n"
    "  %m = MERGE [%t, %f]\n  %v = VALUE_SELECTOR i64 [%m] (%x, %z)\n"
    "  %b2 = IF_BRANCH [%m] (%e)\n  %t2 = IF_TRUE [%b2]\n  %f2 = IF_FALSE [%b2]\n"
    "  %w = ADD i64 (%x, %v)\n"
    "  RETURN [%t2] {entry} (%w)\n  RETURN [%f2] {entry} (%z)\n}\n";

static void test_errors(void)
{
    Diag d;
    char buf[4096] = {0};
    FILE *out = fmemopen(buf, sizeof buf - 1, "w");
    diag_init(&d, "unschedulable.circ", out);
    Module *m = parse_module("unschedulable.circ", unschedulable, sizeof unschedulable - 1, &d);
    CHECK(m && verify_module(m, &d) == 0, "the unschedulable example is valid");
    if (m) {
        Schedule *s = schedule_func(m->funcs[0], NULL, &d);
        fflush(out);
        CHECK(s == NULL, "an effect that would need speculation is refused");
        CHECK(strstr(buf, "cannot schedule %x without speculation") != NULL, "error names the gate: %s", buf);
        CHECK(strstr(buf, "unschedulable.circ:6:3:") != NULL, "error at the gate's line: %s", buf);
        schedule_free(s);
        module_free(m);
    }
    fclose(out);
}

/* the computation gates other than arguments placed outside every loop whose value a
 * gate inside a loop reads (a selector's input is read on the edge, not in the loop) */
static uint32_t hoisted_into_loop(const Schedule *s)
{
    const Circuit *c = s->func->circ;
    uint32_t n = 0;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        BlockId b = s->gate_block[g];
        if (b >= s->nblocks || s->blocks[b].loop_depth > 0 || op_has(c->gates[g].op, F_STATE) ||
            c->gates[g].op == OP_ARG)
            continue;
        bool used_inside = false;
        for (GateId u = NUM_ROOTS; u < c->ngates && !used_inside; u++) {
            BlockId ub = s->gate_block[u];
            if (ub < s->nblocks && s->blocks[ub].loop_depth > 0 && c->gates[u].op != OP_VALUE_SELECTOR)
                for (uint32_t i = 0; i < gate_nin(&c->gates[u]); i++)
                    used_inside |= c->gates[u].in[i] == g;
        }
        n += used_inside;
    }
    return n;
}

/* pressure-aware hoisting: without a register budget every invariant leaves the
 * loop; with 10 integer registers at most 10 - 4 (the loop's own work) - 2 (its
 * integer selectors) values hoisted out of it are live in it */
static void test_pressure(void)
{
    Module *m = load("pressure.circ");
    SchedOptions unlimited = {0}, small = {.regs = {10, 10}};
    Schedule *all = sched_with(m, 0, &unlimited), *some = sched_with(m, 0, &small);
    uint32_t n_all = hoisted_into_loop(all), n_some = hoisted_into_loop(some);
    CHECK(n_all >= 24, "without a budget the invariants leave the loop (%u hoisted)", n_all);
    CHECK(n_some <= 4, "with 10 registers at most 4 hoisted values are live in the loop, got %u", n_some);
    CHECK(n_some > 0, "with 10 registers some invariants still leave the loop");
    schedule_free(all);
    schedule_free(some);
    module_free(m);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sched_unit DIR\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    test_nested_loops();
    test_guarded_arm();
    test_loop_guarded_div();
    test_invariant_load();
    test_const_div();
    test_copies();
    test_pressure();
    test_errors();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
