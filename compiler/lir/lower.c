/* lower.c — the target-independent half of lowering a Schedule to LIR (lower.h):
 * block mapping and layout, one tmp per gate, edge copies for selectors, the walk
 * that hands each gate and terminator to the instruction selector (isel.h), and
 * the CallInfo every call carries. */
#include "lower.h"
#include "isel.h"

#include <stdarg.h>
#include <string.h>

enum { COLD_GROUP = 0xffffffffu };

Bank lower_bank(Type t) { return ty_is_float(t) ? BANK_FP : BANK_GP; }

CallInfo *lower_call_info(Lower *l, const Arg *uses, uint32_t nuses, const Arg *defs, uint32_t ndefs,
                          uint64_t gp_clobbers, uint64_t fp_clobbers)
{
    CallInfo *ci = arena_alloc(l->arena, sizeof *ci);
    ci->uses = arena_alloc(l->arena, (nuses + 1) * sizeof *ci->uses);
    ci->defs = arena_alloc(l->arena, (ndefs + 1) * sizeof *ci->defs);
    for (uint32_t i = 0; i < nuses; i++)
        ci->uses[i] = uses[i];
    for (uint32_t i = 0; i < ndefs; i++)
        ci->defs[i] = defs[i];
    ci->nuses = nuses;
    ci->ndefs = ndefs;
    ci->clobbers[BANK_GP] = gp_clobbers;
    ci->clobbers[BANK_FP] = fp_clobbers;
    return ci;
}

Tmp lower_new_tmp(Lower *l, Bank b) { return lir_new_tmp(l->code, b); }

Tmp lower_param_tmp(Lower *l, uint32_t index)
{
    if (index >= l->func->nparams)
        return TMP_NONE;
    if (!l->param_tmp[index])
        l->param_tmp[index] = lower_new_tmp(l, lower_bank(l->func->params[index]));
    return l->param_tmp[index];
}

Tmp lower_tmp(Lower *l, GateId g)
{
    const Gate *gate = circ_gate(l->circ, g);
    if (gate->op == OP_ARG)
        return lower_param_tmp(l, (uint32_t)gate->lit);
    if (!l->gate_tmp[g])
        l->gate_tmp[g] = lower_new_tmp(l, lower_bank((Type)gate->type));
    return l->gate_tmp[g];
}

LirBlock *lower_new_block(Lower *l, bool cold)
{
    double freq = l->cur ? l->cur->frequency : 1.0;
    LirBlock *b = lir_add_block(l->code, cold ? 0.0 : freq);
    if (b->index >= l->capgroup) {
        uint32_t cap = l->capgroup ? l->capgroup * 2 : 64;
        while (cap <= b->index)
            cap *= 2;
        l->group = arena_grow(l->arena, l->group, l->capgroup * sizeof *l->group, cap * sizeof *l->group);
        l->capgroup = cap;
    }
    l->group[b->index] = cold ? COLD_GROUP : l->cur_group;
    return b;
}

Inst *lower_emit(Lower *l, LirOp op, unsigned nargs, const Arg *args)
{
    Inst *in = lir_append(l->code, l->cur, op, nargs, args);
    in->origin = l->origin;
    return in;
}

Inst *lower_emit0(Lower *l, LirOp op) { return lower_emit(l, op, 0, NULL); }
Inst *lower_emit1(Lower *l, LirOp op, Arg a) { return lower_emit(l, op, 1, &a); }

Inst *lower_emit2(Lower *l, LirOp op, Arg a, Arg b)
{
    Arg args[2] = {a, b};
    return lower_emit(l, op, 2, args);
}

Inst *lower_emit3(Lower *l, LirOp op, Arg a, Arg b, Arg c)
{
    Arg args[3] = {a, b, c};
    return lower_emit(l, op, 3, args);
}

Inst *lower_emit4(Lower *l, LirOp op, Arg a, Arg b, Arg c, Arg d)
{
    Arg args[4] = {a, b, c, d};
    return lower_emit(l, op, 4, args);
}

Inst *lower_emit5(Lower *l, LirOp op, Arg a, Arg b, Arg c, Arg d, Arg e)
{
    Arg args[5] = {a, b, c, d, e};
    return lower_emit(l, op, 5, args);
}

void lower_jump(Lower *l, uint32_t to)
{
    lower_emit0(l, LIR_Jump);
    lir_add_succ(l->code, l->cur, to);
}

uint32_t lower_trap_block(Lower *l, TrapKind kind)
{
    unsigned k = (unsigned)kind & 7;
    if (!l->trap_block[k]) {
        LirBlock *saved = l->cur;
        l->cur = lower_new_block(l, true);
        lower_emit0(l, LIR_Ud2)->trap = (uint8_t)kind;
        l->trap_block[k] = l->cur->index + 1;
        l->cur = saved;
    }
    return l->trap_block[k] - 1;
}

static LirOp copy_op(Bank b) { return b == BANK_FP ? LIR_MoveDouble : LIR_Move; }

static bool is_data_copy(const Lower *l, const EdgeCopy *c)
{
    return circ_gate(l->circ, c->selector)->op == OP_VALUE_SELECTOR;
}

/* the parallel copies of edge e, appended to l->cur: sources to fresh tmps, then
 * fresh tmps to the selectors */
static void emit_edge_copies(Lower *l, const Edge *e)
{
    Tmp fresh[e->ncopies ? e->ncopies : 1];
    for (uint32_t i = 0; i < e->ncopies; i++) {
        if (!is_data_copy(l, &e->copies[i]))
            continue;
        l->origin = e->copies[i].selector;
        Tmp src = lower_tmp(l, e->copies[i].value);
        fresh[i] = lower_new_tmp(l, tmp_bank(src));
        lower_emit2(l, copy_op(tmp_bank(src)), arg_tmp(src), arg_tmp(fresh[i]));
    }
    for (uint32_t i = 0; i < e->ncopies; i++) {
        if (!is_data_copy(l, &e->copies[i]))
            continue;
        l->origin = e->copies[i].selector;
        Tmp dst = lower_tmp(l, e->copies[i].selector);
        lower_emit2(l, copy_op(tmp_bank(dst)), arg_tmp(fresh[i]), arg_tmp(dst));
    }
}

static bool edge_has_data_copies(const Lower *l, const Edge *e)
{
    for (uint32_t i = 0; i < e->ncopies; i++)
        if (is_data_copy(l, &e->copies[i]))
            return true;
    return false;
}

uint32_t lower_edge_block(Lower *l, const Block *b, uint32_t i)
{
    const Edge *e = &b->succs[i];
    uint32_t target = l->block_of[e->to];
    if (!edge_has_data_copies(l, e))
        return target;
    LirBlock *saved = l->cur;
    GateId origin = l->origin;
    l->cur = lower_new_block(l, false);
    uint32_t index = l->cur->index;
    emit_edge_copies(l, e);
    l->origin = origin;
    lower_jump(l, target);
    l->cur = saved;
    return index;
}

bool lower_only_user_is_term(const Lower *l, GateId g, const Block *b)
{
    if (l->sched->gate_block[g] != b->id)
        return false;
    const Gate *gate = circ_gate(l->circ, g);
    uint32_t users = 0;
    for (uint32_t i = 0; i < gate->nuses; i++) {
        GateId u = gate->uses[i].user;
        if (circ_gate(l->circ, u)->dead)
            continue;
        if (u != b->term_gate)
            return false;
        users++;
    }
    return users > 0;
}

bool lower_nan_unseen(const Lower *l, GateId g)
{
    const Gate *gate = circ_gate(l->circ, g);
    for (uint32_t i = 0; i < gate->nuses; i++) {
        const Gate *u = circ_gate(l->circ, gate->uses[i].user);
        if (!u->dead && !op_has(u->op, F_NAN_BLIND))
            return false;
    }
    return true;
}

static bool lower_goto(Lower *l, const Block *b)
{
    if (b->nsuccs != 1) {
        diag_gate(l->diag, l->func, b->term_gate, "a goto block with %u successors", b->nsuccs);
        return false;
    }
    emit_edge_copies(l, &b->succs[0]);
    l->origin = b->term_gate;
    lower_jump(l, l->block_of[b->succs[0].to]);
    return true;
}

static bool lower_block(Lower *l, const Block *b)
{
    l->cur = l->code->blocks[l->block_of[b->id]];
    l->cur_group = b->id;
    if (b->id == 0) {
        l->origin = NO_GATE;
        if (!isel_entry(l))
            return false;
    }
    for (uint32_t i = 0; i < b->ngates; i++) {
        GateId g = b->gates[i];
        int op = circ_gate(l->circ, g)->op;
        if (l->fused[g] || op == OP_DEPEND_RELAY || op == OP_DEPEND_AND || op == OP_DEPEND_SELECTOR)
            continue;
        l->origin = g;
        l->block = b;
        if (!isel_gate(l, g))
            return false;
    }
    l->origin = b->term_gate;
    l->block = b;
    if (b->term == TERM_GOTO)
        return lower_goto(l, b);
    return isel_term(l, b);
}

/* the layout group of LIR block i: its scheduled block, or after all of them if cold */
/* per scheduled block: 1 if it runs only after an INVOKE caught a throw (an
 * IF_EXCEPTION's block dominates it) */
static uint8_t *handler_blocks(const Schedule *s, Arena *arena)
{
    uint8_t *h = arena_alloc(arena, s->nblocks + 1); /* 0 unknown, 1 no, 2 yes */
    BlockId *path = arena_alloc(arena, (s->nblocks + 1) * sizeof *path);
    for (BlockId b = 0; b < s->nblocks; b++) {
        uint32_t n = 0;
        BlockId x = b;
        while (x != NO_BLOCK && !h[x] && circ_gate(s->func->circ, s->blocks[x].head)->op != OP_IF_EXCEPTION) {
            path[n++] = x;
            x = s->blocks[x].idom;
        }
        uint8_t v = x == NO_BLOCK ? 1 : h[x] ? h[x] : 2;
        if (x != NO_BLOCK)
            h[x] = v;
        while (n)
            h[path[--n]] = v;
    }
    for (BlockId b = 0; b < s->nblocks; b++)
        h[b] = h[b] == 2;
    return h;
}

/* groups: the scheduled blocks in schedule order, then those of exception handlers
 * (handler_blocks), then the cold blocks */
static uint32_t layout_group(const Lower *l, const uint8_t *handler, uint32_t i)
{
    uint32_t nb = l->sched->nblocks, g = l->group[i];
    return g >= nb ? 2 * nb : handler[g] ? nb + g : g;
}

/* lay the blocks out by group, so exception handlers and cold blocks are out of line
 * and the path that throws nothing falls through */
static void layout_blocks(Lower *l)
{
    Code *c = l->code;
    uint32_t n = c->nblocks;
    uint32_t *order = arena_alloc(l->arena, n * sizeof *order);
    uint32_t *where = arena_alloc(l->arena, n * sizeof *where);
    const uint8_t *handler = handler_blocks(l->sched, l->arena);
    uint32_t ngroups = 2 * l->sched->nblocks + 1; /* the last: cold blocks */
    uint32_t *start = arena_alloc(l->arena, (ngroups + 1) * sizeof *start);
    for (uint32_t i = 0; i < n; i++)
        start[layout_group(l, handler, i) + 1]++;
    for (uint32_t grp = 0; grp < ngroups; grp++)
        start[grp + 1] += start[grp];
    for (uint32_t i = 0; i < n; i++) /* a stable counting sort: creation order within a group */
        order[start[layout_group(l, handler, i)]++] = i;
    LirBlock **blocks = arena_alloc(l->arena, n * sizeof *blocks);
    for (uint32_t i = 0; i < n; i++) {
        where[order[i]] = i;
        blocks[i] = c->blocks[order[i]];
    }
    for (uint32_t i = 0; i < n; i++) {
        blocks[i]->index = i;
        for (uint32_t s = 0; s < blocks[i]->nsuccs; s++)
            blocks[i]->succs[s] = where[blocks[i]->succs[s]];
    }
    memcpy(c->blocks, blocks, n * sizeof *blocks);
}

static void make_slots(Lower *l)
{
    for (GateId g = 0; g < l->circ->ngates; g++) {
        const Gate *gate = circ_gate(l->circ, g);
        l->alloca_slot[g] = UINT32_MAX;
        if (gate->op == OP_ALLOCA && !gate->dead && g < l->sched->ngates &&
            l->sched->gate_block[g] != NO_BLOCK) {
            uint32_t size = gate->lit ? (uint32_t)gate->lit : 1;
            l->alloca_slot[g] = lir_add_slot(l->code, (size + 7) & ~7u, 16, true);
        }
    }
}

static double block_frequency(const Block *b)
{
    double f = 1.0;
    for (uint32_t d = 0; d < b->loop_depth && d < 8; d++)
        f *= 8.0;
    return f;
}

Code *lower_func(const Schedule *s, const Target *target, const IselHooks *isel,
                 void *target_ctx, Arena *arena, Diag *d)
{
    return lower_func_counted(s, target, isel, target_ctx, NULL, arena, d);
}

Code *lower_func_counted(const Schedule *s, const Target *target, const IselHooks *isel,
                         void *target_ctx, struct MachCov *cov, Arena *arena, Diag *d)
{
    const Func *f = s->func;
    Lower *l = arena_alloc(arena, sizeof *l);
    *l = (Lower){.arena = arena, .sched = s, .func = f, .circ = f->circ, .isel = isel,
                 .diag = d, .origin = NO_GATE, .target_ctx = target_ctx};
    uint32_t ng = f->circ->ngates;
    l->code = lir_code_new(arena, target, f->name, f->index);
    l->code->cov = cov;
    l->gate_tmp = arena_alloc(arena, (ng + 1) * sizeof *l->gate_tmp);
    l->fused = arena_alloc(arena, (ng + 1) * sizeof *l->fused);
    l->alloca_slot = arena_alloc(arena, (ng + 1) * sizeof *l->alloca_slot);
    l->param_tmp = arena_alloc(arena, (f->nparams + 1) * sizeof *l->param_tmp);
    l->block_of = arena_alloc(arena, (s->nblocks + 1) * sizeof *l->block_of);
    make_slots(l);
    l->may_throw = lower_module_may_throw(f->module);
    for (uint32_t b = 0; b < s->nblocks; b++) {
        l->cur_group = b;
        l->block_of[b] = lower_new_block(l, false)->index;
        l->code->blocks[l->block_of[b]]->frequency = block_frequency(&s->blocks[b]);
    }
    for (uint32_t b = 0; b < s->nblocks; b++)
        if (!lower_block(l, &s->blocks[b]))
            return NULL;
    layout_blocks(l);
    lir_compute_preds(l->code);
    return l->code;
}
