/* gen_stats.c — what a batch of generated programs contains: gates per opcode and per
 * type, condition codes, merge widths, switch case shapes, structural extremes, loops
 * and memory effects per program, verifier failures and the outcome mix; printed as the table of
 * `circ gen --stats` and checked by the tests (gen_stats_missing). */
#include "fuzz/gen.h"

#include <stdlib.h>
#include <string.h>

void gen_stats_init(GenStats *s)
{
    memset(s, 0, sizeof *s);
}

void gen_stats_free(GenStats *s)
{
    free(s->loops);
    free(s->effects);
    free(s->calls);
    memset(s, 0, sizeof *s);
}

/* the type a gate is classified by: its result, or for gates without one the type
 * of the value they consume */
Type gen_stats_class_type(const Circuit *c, const Gate *g)
{
    switch (g->op) {
    case OP_ICMP: case OP_FCMP: case OP_SWITCH_BRANCH: case OP_THROW: case OP_STORE:
    case OP_RETURN:
        return g->ndata ? (Type)c->gates[gate_data(g, 0)].type : TY_NONE;
    default:
        return (Type)g->type;
    }
}

static void count_switch(GenStats *s, const Circuit *c, GateId sw)
{
    const Gate *g = &c->gates[sw];
    int64_t cases[64];
    uint32_t n = 0, all = 0;
    bool negative = false;
    for (uint32_t u = 0; u < g->nuses; u++) {
        const Gate *k = &c->gates[g->uses[u].user];
        if (k->dead || k->op != OP_SWITCH_CASE)
            continue;
        all++;
        negative |= (int64_t)k->lit < 0;
        if (n < 64) /* the shape of the first 64 */
            cases[n++] = (int64_t)k->lit;
    }
    s->widest_switch = all > s->widest_switch ? all : s->widest_switch;
    /* sparse: some case value v has no v + 1 although a larger case exists */
    bool sparse = false;
    for (uint32_t i = 0; i < n; i++) {
        bool has_next = false, has_larger = false;
        for (uint32_t j = 0; j < n; j++) {
            has_next |= cases[i] != INT64_MAX && cases[j] == cases[i] + 1;
            has_larger |= cases[j] > cases[i];
        }
        sparse |= has_larger && !has_next;
    }
    s->switch_negative += negative;
    s->switch_sparse += sparse;
}

static void grow(GenStats *s)
{
    if (s->programs < s->cap)
        return;
    s->cap = s->cap ? s->cap * 2 : 1024;
    s->loops = realloc(s->loops, s->cap * sizeof *s->loops);
    s->effects = realloc(s->effects, s->cap * sizeof *s->effects);
    s->calls = realloc(s->calls, s->cap * sizeof *s->calls);
    if (!s->loops || !s->effects || !s->calls)
        abort();
}

void gen_stats_add(GenStats *s, const Module *m)
{
    Diag d;
    diag_init(&d, m->file ? m->file : "<generated>", stderr);
    if (verify_module(m, &d))
        s->verify_failures++;
    grow(s);
    bool seen[OP_COUNT] = {0};
    uint64_t loops = 0, effects = 0, calls = 0;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        const Circuit *c = m->funcs[fi]->circ;
        uint32_t np = m->funcs[fi]->nparams;
        s->most_params = np > s->most_params ? np : s->most_params;
        for (GateId i = NUM_ROOTS; i < c->ngates; i++) {
            const Gate *g = &c->gates[i];
            if (g->dead)
                continue;
            s->gates++;
            s->op_count[g->op]++;
            seen[g->op] = true;
            s->op_types[g->op][gen_stats_class_type(c, g)]++;
            if (g->op == OP_ICMP)
                s->icmp[g->cond & 15]++;
            if (g->op == OP_FCMP)
                s->fcmp[g->cond & 15]++;
            if (g->op == OP_MERGE) {
                s->merge_inputs[g->nstate < GEN_MERGE_MAX ? g->nstate : GEN_MERGE_MAX]++;
                s->widest_merge = g->nstate > s->widest_merge ? g->nstate : s->widest_merge;
            }
            if (g->op == OP_SWITCH_BRANCH)
                count_switch(s, c, i);
            loops += g->op == OP_LOOP_BEGIN;
            effects += g->op == OP_LOAD || g->op == OP_STORE;
            calls += g->op == OP_CALL;
        }
    }
    gen_stats_shapes(s, m);
    s->runtime_programs += m->nexterns > 0;
    for (uint32_t e = 0; e < m->nexterns; e++)
        s->runtime_fn_programs[m->externs[e].rt]++;
    for (int op = 0; op < OP_COUNT; op++)
        s->op_programs[op] += seen[op];
    s->loops[s->programs] = loops;
    s->effects[s->programs] = effects;
    s->calls[s->programs] = calls;
    s->programs++;
}

void gen_stats_extreme(GenStats *s, GenExtreme x)
{
    if ((unsigned)x < GEN_EXTREME_COUNT)
        s->extremes[x]++;
}

void gen_stats_outcome(GenStats *s, const Outcome *o)
{
    if (o->kind < 5)
        s->outcomes[o->kind]++;
    if (o->kind == OUT_TRAP && o->trap < 8)
        s->trap_kinds[o->trap]++;
    s->steps += o->steps;
    s->max_steps = o->steps > s->max_steps ? o->steps : s->max_steps;
    s->runs++;
    if (o->caught && s->caught_mark != s->programs) { /* once per program */
        s->caught_mark = s->programs;
        s->caught_programs++;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t gen_stats_median(const uint64_t *v, uint64_t n)
{
    if (!n)
        return 0;
    uint64_t *t = malloc(n * sizeof *t);
    if (!t)
        abort();
    memcpy(t, v, n * sizeof *t);
    qsort(t, n, sizeof *t, cmp_u64);
    uint64_t med = t[n / 2];
    free(t);
    return med;
}

/* ---- which types each opcode accepts (from its type rule) ------------------------ */

#define T(x) (1u << (x))
#define INTS (T(TY_I8) | T(TY_I16) | T(TY_I32) | T(TY_I64))
#define FLOATS (T(TY_F32) | T(TY_F64))
#define ALLV (T(TY_I1) | INTS | FLOATS)

static uint32_t accepted_types(int op)
{
    switch (op_info[op].rule) {
    case TR_RETURN: return ALLV | T(TY_NONE);
    case TR_THROW: case TR_SELECT: case TR_CHOOSE: case TR_ARG: case TR_ANY: return ALLV;
    case TR_CALL: return ALLV | T(TY_NONE);
    case TR_SWITCH: case TR_INT2: case TR_INT1: case TR_EXTEND: case TR_FTOI: return INTS;
    case TR_BSWAP: return INTS & ~T(TY_I8);
    case TR_LOGIC2: case TR_ICMP: return INTS | T(TY_I1);
    case TR_FLOAT1: case TR_FLOAT2: case TR_FCMP: case TR_ITOF: return FLOATS;
    case TR_TRUNC: return T(TY_I1) | T(TY_I8) | T(TY_I16) | T(TY_I32);
    case TR_BITCAST: case TR_LOAD: case TR_STORE: return INTS | FLOATS;
    case TR_FPEXT: return T(TY_F64);
    case TR_FPTRUNC: return T(TY_F32);
    case TR_ARCH: return T(TY_I64);
    default: return T(TY_NONE);
    }
}

/* gates no generated program can contain: roots */
static bool generatable(int op)
{
    return !op_has(op, F_ROOT);
}

int gen_stats_missing(const GenStats *s, FILE *out)
{
    int missing = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        if (!generatable(op))
            continue;
        uint32_t acc = accepted_types(op);
        for (int t = 0; t < TY_COUNT; t++)
            if ((acc >> t & 1) && !s->op_types[op][t]) {
                missing++;
                if (out)
                    fprintf(out, "missing: %s %s\n", op_info[op].name, ty_name((Type)t));
            }
    }
    for (int k = 0; k < 16; k++) {
        if (cond_name(CC_ICMP, k) && !s->icmp[k]) {
            missing++;
            if (out)
                fprintf(out, "missing: ICMP %s\n", cond_name(CC_ICMP, k));
        }
        if (cond_name(CC_FCMP, k) && !s->fcmp[k]) {
            missing++;
            if (out)
                fprintf(out, "missing: FCMP %s\n", cond_name(CC_FCMP, k));
        }
    }
    for (int n = 2; n <= 6; n++)
        if (!s->merge_inputs[n]) {
            missing++;
            if (out)
                fprintf(out, "missing: MERGE with %d inputs\n", n);
        }
    return missing;
}

/* ---- the table ------------------------------------------------------------------- */

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void print_opcodes(FILE *out, const GenStats *s)
{
    fprintf(out, "%-16s %10s %9s  %s\n", "opcode", "gates", "programs", "types seen");
    for (int op = 0; op < OP_COUNT; op++) {
        if (!generatable(op))
            continue;
        fprintf(out, "%-16s %10llu %8.1f%%  ", op_info[op].name, (unsigned long long)s->op_count[op],
                pct(s->op_programs[op], s->programs));
        for (int t = 0; t < TY_COUNT; t++)
            if (s->op_types[op][t])
                fprintf(out, " %s", ty_name((Type)t));
        fputc('\n', out);
    }
}

static void print_conds(FILE *out, const char *what, CondKind kind, const uint64_t *counts)
{
    fprintf(out, "%s:", what);
    for (int k = 0; k < 16; k++)
        if (cond_name(kind, k))
            fprintf(out, " %s=%llu", cond_name(kind, k), (unsigned long long)counts[k]);
    fputc('\n', out);
}

static void print_per_program(FILE *out, const char *what, const uint64_t *v, uint64_t n)
{
    uint64_t sum = 0, max = 0, nonzero = 0;
    for (uint64_t i = 0; i < n; i++) {
        sum += v[i];
        max = v[i] > max ? v[i] : max;
        nonzero += v[i] != 0;
    }
    fprintf(out, "%-24s median %llu, mean %.2f, max %llu, in %.1f%% of programs\n", what,
            (unsigned long long)gen_stats_median(v, n), n ? (double)sum / (double)n : 0.0,
            (unsigned long long)max, pct(nonzero, n));
}

static void print_outcomes(FILE *out, const GenStats *s)
{
    static const char *const names[5] = {"return", "trap", "throw", "timeout", "invalid"};
    fprintf(out, "\n%-16s %10s %9s\n", "outcome", "runs", "share");
    for (int k = 0; k < 5; k++) {
        fprintf(out, "%-16s %10llu %8.2f%%\n", names[k], (unsigned long long)s->outcomes[k],
                pct(s->outcomes[k], s->runs));
        if (k == OUT_TRAP)
            for (int t = TRAP_DIV0; t <= TRAP_ILLEGAL; t++)
                if (s->trap_kinds[t])
                    fprintf(out, "  %-14s %10llu %8.2f%%\n", t == TRAP_DIV0 ? "div0" : t == TRAP_OVERFLOW ? "overflow" : "other",
                            (unsigned long long)s->trap_kinds[t], pct(s->trap_kinds[t], s->runs));
    }
    fprintf(out, "%-16s %10llu\n", "total", (unsigned long long)s->runs);
    fprintf(out, "interpreter steps per run: mean %.0f, max %llu\n",
            s->runs ? (double)s->steps / (double)s->runs : 0.0, (unsigned long long)s->max_steps);
}

void gen_stats_print(FILE *out, const GenStats *s)
{
    fprintf(out, "programs %llu, gates %llu (%.1f per program), verify failures %llu\n\n",
            (unsigned long long)s->programs, (unsigned long long)s->gates,
            s->programs ? (double)s->gates / (double)s->programs : 0.0,
            (unsigned long long)s->verify_failures);
    print_opcodes(out, s);
    fputc('\n', out);
    print_conds(out, "ICMP", CC_ICMP, s->icmp);
    print_conds(out, "FCMP", CC_FCMP, s->fcmp);
    fprintf(out, "MERGE inputs:");
    for (int n = 1; n <= GEN_MERGE_MAX; n++)
        fprintf(out, " %d%s=%llu", n, n == GEN_MERGE_MAX ? "+" : "", (unsigned long long)s->merge_inputs[n]);
    fprintf(out, "\nSWITCH: %llu with a negative case, %llu with sparse cases\n",
            (unsigned long long)s->switch_negative, (unsigned long long)s->switch_sparse);
    fprintf(out, "extremes (programs):");
    for (int x = GEN_EXTREME_SWITCH; x < GEN_EXTREME_COUNT; x++)
        fprintf(out, " %s=%llu", gen_extreme_name((GenExtreme)x), (unsigned long long)s->extremes[x]);
    fprintf(out, "; widest SWITCH %llu cases, MERGE %llu inputs, most parameters %llu\n",
            (unsigned long long)s->widest_switch, (unsigned long long)s->widest_merge,
            (unsigned long long)s->most_params);
    print_per_program(out, "loops per program:", s->loops, s->programs);
    print_per_program(out, "memory effects per program:", s->effects, s->programs);
    print_per_program(out, "calls per program:", s->calls, s->programs);
    fprintf(out, "runtime calls: in %.1f%% of programs;", pct(s->runtime_programs, s->programs));
    for (int fn = 0; fn < RT_COUNT; fn++)
        fprintf(out, " %s %.1f%%", runtime_info[fn].name, pct(s->runtime_fn_programs[fn], s->programs));
    fprintf(out, "; DEPEND_AND in %.1f%%\n", pct(s->op_programs[OP_DEPEND_AND], s->programs));
    fprintf(out, "state gates: ORDINARY_BLOCK %llu, MERGE %llu, LOOP_BEGIN %llu, SWITCH_BRANCH %llu, THROW %llu\n",
            (unsigned long long)s->op_count[OP_ORDINARY_BLOCK], (unsigned long long)s->op_count[OP_MERGE],
            (unsigned long long)s->op_count[OP_LOOP_BEGIN], (unsigned long long)s->op_count[OP_SWITCH_BRANCH],
            (unsigned long long)s->op_count[OP_THROW]);
    fprintf(out, "exceptions: INVOKE in %.1f%% of programs, a handler runs on some run line in %.1f%%\n",
            pct(s->op_programs[OP_INVOKE], s->programs), pct(s->caught_programs, s->programs));
    gen_stats_print_shapes(out, s);
    if (s->runs)
        print_outcomes(out, s);
    int missing = gen_stats_missing(s, NULL);
    fprintf(out, "missing opcode/type/condition/merge-width combinations: %d\n", missing);
    if (missing)
        gen_stats_missing(s, out);
}
