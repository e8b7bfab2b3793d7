/* lir.c — LIR storage: roles, args, the opcode/overload table built from
 * opcodes.def, and building Codes (blocks, instructions, tmps, stack slots). */
#include "lir.h"
#include "grow.h"

#include <string.h>

/* ---- roles ------------------------------------------------------------------------ */
static const char *const role_names[ROLE_COUNT] = {
    "Use", "ColdUse", "LateUse", "LateColdUse", "Def", "ZDef", "UseDef", "UseZDef",
    "EarlyDef", "Scratch", "UseAddr",
};

const char *role_name(Role r) { return r < ROLE_COUNT ? role_names[r] : "?"; }

const char *bank_name(Bank b) { return b == BANK_FP ? "FP" : "GP"; }

/* ---- conditions ------------------------------------------------------------------- */
RelCond relcond_invert(RelCond c)
{
    static const uint8_t inv[REL_COUNT] = {
        [REL_eq] = REL_ne, [REL_ne] = REL_eq, [REL_ugt] = REL_ule, [REL_uge] = REL_ult,
        [REL_ult] = REL_uge, [REL_ule] = REL_ugt, [REL_sgt] = REL_sle, [REL_sge] = REL_slt,
        [REL_slt] = REL_sge, [REL_sle] = REL_sgt,
    };
    return (RelCond)inv[c];
}

RelCond relcond_commute(RelCond c)
{
    static const uint8_t com[REL_COUNT] = {
        [REL_eq] = REL_eq, [REL_ne] = REL_ne, [REL_ugt] = REL_ult, [REL_uge] = REL_ule,
        [REL_ult] = REL_ugt, [REL_ule] = REL_uge, [REL_sgt] = REL_slt, [REL_sge] = REL_sle,
        [REL_slt] = REL_sgt, [REL_sle] = REL_sge,
    };
    return (RelCond)com[c];
}

ResCond rescond_invert(ResCond c) { return (ResCond)(c ^ 1); }

DoubleCond doublecond_invert(DoubleCond c)
{
    static const uint8_t inv[DBL_COUNT] = {
        [DBL_oeq] = DBL_une, [DBL_one] = DBL_ueq, [DBL_ogt] = DBL_ule, [DBL_oge] = DBL_ult,
        [DBL_olt] = DBL_uge, [DBL_ole] = DBL_ugt, [DBL_ueq] = DBL_one, [DBL_une] = DBL_oeq,
        [DBL_ugt] = DBL_ole, [DBL_uge] = DBL_olt, [DBL_ult] = DBL_oge, [DBL_ule] = DBL_ogt,
        [DBL_ord] = DBL_uno, [DBL_uno] = DBL_ord,
    };
    return (DoubleCond)inv[c];
}

DoubleCond doublecond_commute(DoubleCond c)
{
    static const uint8_t com[DBL_COUNT] = {
        [DBL_oeq] = DBL_oeq, [DBL_one] = DBL_one, [DBL_ogt] = DBL_olt, [DBL_oge] = DBL_ole,
        [DBL_olt] = DBL_ogt, [DBL_ole] = DBL_oge, [DBL_ueq] = DBL_ueq, [DBL_une] = DBL_une,
        [DBL_ugt] = DBL_ult, [DBL_uge] = DBL_ule, [DBL_ult] = DBL_ugt, [DBL_ule] = DBL_uge,
        [DBL_ord] = DBL_ord, [DBL_uno] = DBL_uno,
    };
    return (DoubleCond)com[c];
}

/* ---- args ------------------------------------------------------------------------- */
Arg arg_none(void) { return (Arg){ .kind = ARG_NONE }; }
Arg arg_tmp(Tmp t) { return (Arg){ .kind = ARG_TMP, .base = t }; }
Arg arg_imm(int64_t v) { return (Arg){ .kind = ARG_IMM, .value = v }; }
Arg arg_bigimm(int64_t v) { return (Arg){ .kind = ARG_BIGIMM, .value = v }; }
Arg arg_addr(Tmp base, int64_t off) { return (Arg){ .kind = ARG_ADDR, .base = base, .value = off }; }

Arg arg_index(Tmp base, Tmp index, unsigned scale, int32_t off)
{
    return (Arg){ .kind = ARG_INDEX, .base = base, .index = index, .scale = (uint8_t)scale, .disp = off };
}

Arg arg_stack(uint32_t slot, int64_t off) { return (Arg){ .kind = ARG_STACK, .slot = slot, .value = off }; }
Arg arg_callarg(int64_t off) { return (Arg){ .kind = ARG_CALLARG, .value = off }; }
Arg arg_relcond(RelCond c) { return (Arg){ .kind = ARG_RELCOND, .cond = (uint8_t)c }; }
Arg arg_rescond(ResCond c) { return (Arg){ .kind = ARG_RESCOND, .cond = (uint8_t)c }; }
Arg arg_doublecond(DoubleCond c) { return (Arg){ .kind = ARG_DOUBLECOND, .cond = (uint8_t)c }; }

Arg arg_symbol(RelocTarget kind, uint32_t index, int64_t addend)
{
    return (Arg){ .kind = ARG_SYMBOL, .sym_kind = (uint8_t)kind, .slot = index, .value = addend };
}

Arg arg_special(void *special) { return (Arg){ .kind = ARG_SPECIAL, .special = special }; }

bool arg_is_memory(const Arg *a)
{
    return a->kind == ARG_ADDR || a->kind == ARG_INDEX || a->kind == ARG_STACK ||
           a->kind == ARG_CALLARG;
}

const char *arg_kind_name(ArgKind k)
{
    static const char *const names[ARG_KIND_COUNT] = {
        "None", "Tmp", "Imm", "BigImm", "Addr", "Index", "Stack", "CallArg",
        "RelCond", "ResCond", "DoubleCond", "Symbol", "Special",
    };
    return k < ARG_KIND_COUNT ? names[k] : "?";
}

/* ---- the overload table ------------------------------------------------------------- */
#define U ROLE_USE
#define ColdU ROLE_COLD_USE
#define LateU ROLE_LATE_USE
#define D ROLE_DEF
#define ZD ROLE_ZDEF
#define UD ROLE_USE_DEF
#define UZD ROLE_USE_ZDEF
#define EarlyD ROLE_EARLY_DEF
#define Scratch ROLE_SCRATCH
#define UA ROLE_USE_ADDR
#define G BANK_GP
#define F BANK_FP
#define S(r, b, w) { r, b, w }
#define __ { 0, 0, 0 }

static const LirOverload overloads[] = {
#define LOP(name, fl, n, a0, a1, a2, a3, a4) { LIR_##name, n, fl, { a0, a1, a2, a3, a4 } },
#define LOV LOP
#include "opcodes.def"
#undef LOP
#undef LOV
};

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
enum { /* row numbers of the overload table, to find each opcode's first row */
#define LOP(name, ...) ROW_##name,
#define LOV(name, ...) CAT(ROW_more_, __LINE__),
#include "opcodes.def"
#undef LOP
#undef LOV
    ROW_COUNT
};

static const uint16_t first_row[LIR_OP_COUNT] = {
#define LOP(name, ...) [LIR_##name] = ROW_##name,
#define LOV(name, ...)
#include "opcodes.def"
#undef LOP
#undef LOV
};

/* 1 + the row of each (opcode, nargs) overload, 0 for none (a repeated pair would
 * be an overridden initializer, which -Wextra reports) */
static const uint16_t row_by_nargs[LIR_OP_COUNT][LIR_MAX_ARGS + 1] = {
#define LOP(name, fl, n, ...) [LIR_##name][n] = ROW_##name + 1,
#define LOV(name, fl, n, ...) [LIR_##name][n] = CAT(ROW_more_, __LINE__) + 1,
#include "opcodes.def"
#undef LOP
#undef LOV
};

static const char *const op_names[LIR_OP_COUNT] = {
#define LOP(name, ...) [LIR_##name] = #name,
#define LOV(name, ...)
#include "opcodes.def"
#undef LOP
#undef LOV
};

#undef U
#undef D
#undef F
#undef G
#undef S
#undef __

const char *lir_op_name(LirOp op) { return op < LIR_OP_COUNT ? op_names[op] : "?"; }

int lir_op_parse(const char *s, size_t n)
{
    for (int op = 0; op < LIR_OP_COUNT; op++)
        if (strlen(op_names[op]) == n && memcmp(op_names[op], s, n) == 0)
            return op;
    return -1;
}

unsigned lir_op_flags(LirOp op) { return op < LIR_OP_COUNT ? overloads[first_row[op]].flags : 0; }

const LirOverload *lir_overload(LirOp op, unsigned nargs)
{
    if (op >= LIR_OP_COUNT || nargs > LIR_MAX_ARGS || !row_by_nargs[op][nargs])
        return NULL;
    return &overloads[row_by_nargs[op][nargs] - 1];
}

const LirOverload *lir_overloads(unsigned *count)
{
    *count = ROW_COUNT;
    return overloads;
}

/* ---- building code ------------------------------------------------------------------ */
Code *lir_code_new(Arena *arena, const Target *target, const char *name, uint32_t func_index)
{
    Code *c = arena_alloc(arena, sizeof *c);
    c->arena = arena;
    c->target = target;
    c->name = name ? arena_strndup(arena, name, strlen(name)) : "";
    c->func_index = func_index;
    if (target && target->nforms < UINT16_MAX) {
        c->form_spans = arena_alloc(arena, LIR_OP_COUNT * sizeof *c->form_spans);
        c->indexed = target;
    }
    return c;
}

LirBlock *lir_add_block(Code *c, double frequency)
{
    c->blocks = lir_arena_grow_array(c->arena, c->blocks, &c->capblocks, c->nblocks + 1, sizeof *c->blocks);
    LirBlock *b = arena_alloc(c->arena, sizeof *b);
    b->index = c->nblocks;
    b->frequency = frequency;
    c->blocks[c->nblocks++] = b;
    return b;
}

void lir_add_succ(Code *c, LirBlock *b, uint32_t succ)
{
    b->succs = lir_arena_grow_array(c->arena, b->succs, &b->capsuccs, b->nsuccs + 1, sizeof *b->succs);
    b->succs[b->nsuccs++] = succ;
}

Tmp lir_new_tmp(Code *c, Bank bank) { return tmp_virtual(bank, c->ntmps[bank]++); }

uint32_t lir_add_slot(Code *c, uint32_t size, uint32_t align, bool locked)
{
    c->slots = lir_arena_grow_array(c->arena, c->slots, &c->capslots, c->nslots + 1, sizeof *c->slots);
    c->slots[c->nslots] = (StackSlot){ .size = size, .align = align ? align : 1, .locked = locked };
    return c->nslots++;
}

/* *in := op with the first LIR_MAX_ARGS of args, no origin */
static void fill_inst(Inst *in, LirOp op, unsigned nargs, const Arg *args)
{
    *in = (Inst){ .op = (uint16_t)op, .origin = NO_GATE };
    in->nargs = (uint8_t)(nargs > LIR_MAX_ARGS ? LIR_MAX_ARGS : nargs);
    for (unsigned i = 0; i < in->nargs; i++)
        in->args[i] = args[i];
}

Inst lir_inst(LirOp op, unsigned nargs, const Arg *args)
{
    Inst in;
    fill_inst(&in, op, nargs, args);
    return in;
}

Inst *lir_insert(Code *c, LirBlock *b, uint32_t at, const Inst *inst)
{
    b->insts = lir_arena_resize_array(c->arena, b->insts, &b->capinsts, b->ninsts + 1, sizeof *b->insts);
    if (at > b->ninsts)
        at = b->ninsts;
    if (at < b->ninsts)
        memmove(&b->insts[at + 1], &b->insts[at], (b->ninsts - at) * sizeof *b->insts);
    b->insts[at] = *inst;
    b->ninsts++;
    return &b->insts[at];
}

void lir_fit_block(Code *c, LirBlock *b)
{
    if (b->ninsts == b->capinsts || !b->ninsts)
        return;
    b->insts = arena_resize(c->arena, b->insts, (size_t)b->capinsts * sizeof *b->insts,
                            (size_t)b->ninsts * sizeof *b->insts);
    b->capinsts = b->ninsts;
}

/* built in place at the block's end (selection's inner loop: no Inst copies) */
Inst *lir_append(Code *c, LirBlock *b, LirOp op, unsigned nargs, const Arg *args)
{
    b->insts = lir_arena_resize_array(c->arena, b->insts, &b->capinsts, b->ninsts + 1, sizeof *b->insts);
    Inst *in = &b->insts[b->ninsts++];
    fill_inst(in, op, nargs, args);
    return in;
}

void lir_compute_preds(Code *c)
{
    uint32_t *count = arena_alloc(c->arena, (c->nblocks + 1) * sizeof *count);
    for (uint32_t i = 0; i < c->nblocks; i++)
        for (uint32_t s = 0; s < c->blocks[i]->nsuccs; s++)
            if (c->blocks[i]->succs[s] < c->nblocks)
                count[c->blocks[i]->succs[s]]++;
    for (uint32_t i = 0; i < c->nblocks; i++) {
        c->blocks[i]->preds = arena_alloc(c->arena, (count[i] + 1) * sizeof(uint32_t));
        c->blocks[i]->npreds = 0;
    }
    for (uint32_t i = 0; i < c->nblocks; i++)
        for (uint32_t s = 0; s < c->blocks[i]->nsuccs; s++) {
            uint32_t t = c->blocks[i]->succs[s];
            if (t < c->nblocks)
                c->blocks[t]->preds[c->blocks[t]->npreds++] = i;
        }
}
