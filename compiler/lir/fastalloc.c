/* fastalloc.c — the local register allocator (regalloc.h): a slot per virtual tmp,
 * loads before and stores after each instruction, registers chosen around the
 * physical registers live there; time linear in the instructions. */
#include "compiler/lir/grow.h"
#include "compiler/lir/regalloc.h"

#include <stdlib.h>
#include <string.h>

enum { INST_TMPS = 2 * LIR_MAX_ARGS + 8 }; /* distinct virtual tmps one instruction names */
enum { STACK_ARGS_KNOWN = 0x80 };          /* LocalCtx.stack_args: the op was looked at */
enum { LARGE_BLOCK_BYTES = 64 << 10 };     /* the arena's large chunks (compiler/ir/ir.h) */

/* the physical registers (frame base and stack pointer aside) an instruction reads
 * and writes, a call's clobbers among the writes */
typedef struct {
    uint64_t use[BANK_COUNT], def[BANK_COUNT];
} PhysUse;

/* a virtual tmp of the instruction being rewritten: its register, what it does */
typedef struct {
    Tmp tmp;
    Tmp reg;
    bool used, defined, held; /* held: the register holds it already (no load) */
} InstTmp;

typedef struct {
    Code *code;
    uint32_t *reads;             /* per virtual tmp: the instructions left that read it */
    bool *wide_def;              /* per virtual tmp: a def that is not a 32-bit
                                    zero-extending one, nor a copy of a tmp without
                                    such a def (its slot's upper half may be other than
                                    zero) */
    uint32_t (*copies)[2];       /* the 64-bit copies between virtual tmps: source, dest */
    uint32_t ncopies, capcopies;
    uint32_t *slot;              /* per virtual tmp (GP, then FP): 1 + its slot, 0: none yet */
    PhysUse *phys;               /* per instruction, block by block (first[b] on) */
    uint32_t *first;             /* per block: its first instruction's PhysUse */
    Inst **array;                /* per block: its instruction array as selection left it, */
    size_t *array_bytes;         /* and that array's size (released once rewritten) */
    uint64_t (*gen)[BANK_COUNT], (*kill)[BANK_COUNT]; /* per block, physical registers */
    uint64_t (*live_in)[BANK_COUNT], (*live_out)[BANK_COUNT];
    uint64_t (*busy)[BANK_COUNT]; /* per instruction of the block being rewritten */
    uint32_t capbusy;
    Inst *out;                   /* the block being rewritten: malloc'd (reused), or for a */
    uint32_t nout, capout;       /* large block its array in the arena (out_in_arena) */
    bool out_in_arena;
    Inst *buf;                   /* the malloc'd buffer while a large block is rewritten */
    uint32_t capbuf;
    uint8_t order[BANK_COUNT][LIR_MAX_REGS];
    unsigned norder[BANK_COUNT], next[BANK_COUNT]; /* next: where the round robin goes on */
    Tmp holds[BANK_COUNT][LIR_MAX_REGS]; /* the virtual tmp a register holds, as its slot */
    uint8_t *held_in;            /* per virtual tmp: 1 + the register holding it (if holds
                                    agrees), 0: none */
    bool dirty[BANK_COUNT][LIR_MAX_REGS]; /* the register holds a newer value than the
                                    slot of the tmp it holds (a local tmp, see home) */
    uint32_t *home;              /* per virtual tmp: 1 + the block it first appears in */
    bool *global;                /* per virtual tmp: read outside that block, or read
                                    there before its first def (then always stored) */
    uint32_t scan_at;            /* the block scan_code is counting */
    uint8_t stack_args[LIR_OP_COUNT]; /* bit i: a form of the op takes a Stack as arg i */
    bool slot_operands;          /* RegallocOptions.slot_operands */
    InstTmp tmps[INST_TMPS];     /* the instruction being rewritten */
    unsigned ntmps;
    uint64_t taken[BANK_COUNT];  /* registers busy at it or handed out to it */
    bool failed;
    char *err;
    size_t errlen;
} LocalCtx;

static uint32_t vindex(const LocalCtx *c, Tmp t)
{
    return tmp_virtual_index(t) + (tmp_bank(t) == BANK_FP ? c->code->ntmps[BANK_GP] : 0);
}

/* ---- readers, dead instructions and physical registers ----------------------------
 * Selection leaves values nobody reads (a constant folded into an immediate, a
 * compare fused into its branch).  With a count of the readers of each virtual tmp,
 * one walk from the last instruction to the first removes each pure instruction
 * (lir.h) whose defs have no reader left, and its operands lose a reader: a chain
 * whose reader comes later in the layout goes at once.  The same walk notes the
 * physical registers each instruction that stays reads and writes. */
typedef struct {
    LocalCtx *c;
    int delta;                   /* +1 counting readers, -1 removing them, 0 looking */
    bool copy;                   /* counting a copy between virtual tmps (see copies) */
    bool read_defs;              /* a def of the instruction is still read */
    PhysUse phys;
} ReadScan;

/* a tmp is local to the block it first appears in when it is written there first
 * and read nowhere else: its value then need not reach its slot unless its register
 * is wanted while it is still to be read */
static void note_home(LocalCtx *c, uint32_t v, Role role)
{
    if (!c->home[v]) {
        c->home[v] = 1 + c->scan_at;
        c->global[v] = role_is_use(role) || role == ROLE_SCRATCH;
    } else if (c->home[v] != 1 + c->scan_at) {
        c->global[v] = true;
    }
}

/* the counting walk: readers, wide defs, homes */
static void count_tmp(void *ctx, Tmp *t, Role role, Bank bank, Width width)
{
    (void)bank;
    ReadScan *r = ctx;
    if (!tmp_is_virtual(*t))
        return;
    uint32_t v = vindex(r->c, *t);
    if (role_is_def(role) && !(role_is_zdef(role) && width == 32) && !r->copy)
        r->c->wide_def[v] = true;
    note_home(r->c, v, role);
    r->c->reads[v] += role_is_use(role) && role != ROLE_SCRATCH;
}

/* the backward walk: the physical registers read and written; whether a def of the
 * instruction is read by another (read_defs); removing: its reads given back */
static void look_tmp(void *ctx, Tmp *t, Role role, Bank bank, Width width)
{
    (void)bank, (void)width;
    ReadScan *r = ctx;
    const Code *code = r->c->code;
    if (tmp_is_reg(*t) && *t != code->frame_base && *t != code->stack_pointer) {
        uint64_t bit = 1ull << tmp_reg_number(*t);
        r->phys.use[tmp_bank(*t)] |= role_is_use(role) ? bit : 0;
        r->phys.def[tmp_bank(*t)] |= role_is_def(role) ? bit : 0;
    }
    if (!tmp_is_virtual(*t))
        return;
    uint32_t *n = &r->c->reads[vindex(r->c, *t)];
    if (role_is_def(role) && *n > (role_is_use(role) ? 1u : 0u))
        r->read_defs = true;
    if (r->delta < 0 && role_is_use(role) && role != ROLE_SCRATCH)
        (*n)--;
}

/* block b walked back: its dead instructions removed, the PhysUse of the others,
 * the registers it reads before writing (gen) and those it writes (kill) */
static void scan_block(LocalCtx *c, uint32_t b)
{
    LirBlock *bl = c->code->blocks[b];
    PhysUse *phys = c->phys + c->first[b];
    uint64_t live[BANK_COUNT] = {0, 0};
    uint32_t kept = bl->ninsts;
    c->array[b] = bl->insts;
    c->array_bytes[b] = (size_t)bl->capinsts * sizeof *bl->insts;
    for (uint32_t i = bl->ninsts; i-- > 0;) {
        Inst *in = &bl->insts[i];
        ReadScan look = {c, 0, false, false, {{0, 0}, {0, 0}}};
        lir_for_each_tmp(in, look_tmp, &look);
        if (!look.read_defs && lir_is_pure(in)) {
            ReadScan drop = {c, -1, false, false, {{0, 0}, {0, 0}}};
            lir_for_each_tmp(in, look_tmp, &drop);
            continue;
        }
        bl->insts[--kept] = *in;
        for (int k = 0; k < BANK_COUNT; k++) {
            look.phys.def[k] |= lir_inst_clobbers(in, (Bank)k);
            live[k] = (live[k] & ~look.phys.def[k]) | look.phys.use[k];
            c->kill[b][k] |= look.phys.def[k];
        }
        phys[kept] = look.phys;
    }
    memcpy(c->gen[b], live, sizeof live);
    c->first[b] += kept;
    bl->insts += kept;
    bl->ninsts -= kept;
    bl->capinsts -= kept;
}

/* live-in and live-out sets of physical registers, iterated to the fixed point */
static void solve_phys(LocalCtx *c)
{
    Code *code = c->code;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = code->nblocks; b-- > 0;) {
            const LirBlock *bl = code->blocks[b];
            for (int k = 0; k < BANK_COUNT; k++) {
                uint64_t out = 0;
                for (uint32_t s = 0; s < bl->nsuccs; s++)
                    out |= c->live_in[bl->succs[s]][k];
                uint64_t in = c->gen[b][k] | (out & ~c->kill[b][k]);
                changed |= in != c->live_in[b][k];
                c->live_out[b][k] = out;
                c->live_in[b][k] = in;
            }
        }
    }
}

/* a Move between virtual tmps: noted (its dest's upper half is its source's) */
static bool note_copy(LocalCtx *c, const Inst *in)
{
    if (in->op != LIR_Move || !lir_is_move(in) || !tmp_is_virtual(in->args[0].base) ||
        !tmp_is_virtual(in->args[1].base))
        return false;
    if (c->ncopies == c->capcopies &&
        !lir_grow_array((void **)&c->copies, &c->capcopies, c->ncopies + 1, sizeof *c->copies))
        abort();
    c->copies[c->ncopies][0] = vindex(c, in->args[0].base);
    c->copies[c->ncopies++][1] = vindex(c, in->args[1].base);
    return true;
}

/* a copy of a tmp with a wide def has one too, to the fixed point */
static void spread_wide_defs(LocalCtx *c)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = 0; k < c->ncopies; k++)
            if (c->wide_def[c->copies[k][0]] && !c->wide_def[c->copies[k][1]])
                changed = c->wide_def[c->copies[k][1]] = true;
    }
}

static void scan_code(LocalCtx *c)
{
    Code *code = c->code;
    ReadScan count = {c, +1, false, false, {{0, 0}, {0, 0}}};
    uint32_t total = 0;
    for (uint32_t b = 0; b < code->nblocks; b++) {
        c->first[b] = total;
        c->scan_at = b;
        total += code->blocks[b]->ninsts;
        for (uint32_t i = 0; i < code->blocks[b]->ninsts; i++) {
            Inst *in = &code->blocks[b]->insts[i];
            count.copy = note_copy(c, in);
            lir_for_each_tmp(in, count_tmp, &count);
        }
    }
    spread_wide_defs(c);
    c->phys = malloc((total + 1) * sizeof *c->phys);
    if (!c->phys)
        abort();
    for (uint32_t b = code->nblocks; b-- > 0;)
        scan_block(c, b);
    solve_phys(c);
}

/* ---- rewriting one instruction ---------------------------------------------------- */
static uint32_t tmp_slot(LocalCtx *c, Tmp t)
{
    uint32_t v = vindex(c, t);
    if (!c->slot[v])
        c->slot[v] = 1 + lir_add_slot(c->code, 8, 8, false);
    return c->slot[v] - 1;
}

static void emit(LocalCtx *c, const Inst *inst)
{
    if (c->nout == c->capout) {
        if (c->out_in_arena)
            c->out = lir_arena_resize_array(c->code->arena, c->out, &c->capout, c->nout + 1, sizeof *c->out);
        else if (!lir_grow_array((void **)&c->out, &c->capout, c->nout + 1, sizeof *c->out))
            abort();
    }
    c->out[c->nout++] = *inst;
}

/* a move between reg and tmp's slot: load before the instruction or store after it */
static void emit_slot_move(LocalCtx *c, Tmp tmp, Tmp reg, bool load)
{
    Inst *in = (emit(c, &(Inst){.op = tmp_bank(tmp) == BANK_FP ? LIR_MoveDouble : LIR_Move, .nargs = 2,
                                .origin = NO_GATE}),
                &c->out[c->nout - 1]);
    in->args[load ? 1 : 0] = arg_tmp(reg);
    in->args[load ? 0 : 1] = arg_stack(tmp_slot(c, tmp), 0);
}

/* the register holding t, -1 if none */
static int held_reg(const LocalCtx *c, Tmp t)
{
    unsigned r = c->held_in[vindex(c, t)];
    return r && c->holds[tmp_bank(t)][r - 1] == t ? (int)r - 1 : -1;
}

/* register r of bank b holds t from now on (TMP_NONE: nothing) */
static void set_holds(LocalCtx *c, Bank b, unsigned r, Tmp t)
{
    Tmp old = c->holds[b][r];
    if (old != TMP_NONE)
        c->held_in[vindex(c, old)] = 0;
    if (t != TMP_NONE) {
        int was = held_reg(c, t);
        if (was >= 0)
            c->holds[b][was] = TMP_NONE, c->dirty[b][was] = false;
        c->held_in[vindex(c, t)] = (uint8_t)(r + 1);
    }
    c->holds[b][r] = t;
    c->dirty[b][r] = false;
}

/* register r of bank b about to be overwritten or taken: a newer value it holds goes
 * to its tmp's slot first (if the tmp is still to be read) */
static void save_reg(LocalCtx *c, Bank b, unsigned r)
{
    Tmp t = c->holds[b][r];
    if (c->dirty[b][r] && t != TMP_NONE && c->reads[vindex(c, t)])
        emit_slot_move(c, t, tmp_reg(b, r), false);
    c->dirty[b][r] = false;
}

/* bit i: some form of op on the code's target takes a Stack argument at i */
static unsigned stack_args(LocalCtx *c, LirOp op)
{
    if (!(c->stack_args[op] & STACK_ARGS_KNOWN)) {
        uint32_t n;
        const LirForm *f = lir_target_forms(c->code->target, op, &n);
        unsigned bits = STACK_ARGS_KNOWN;
        for (uint32_t k = 0; k < n; k++)
            for (unsigned i = 0; i < f[k].nargs; i++)
                bits |= f[k].args[i].kinds & FK_STACK ? 1u << i : 0;
        c->stack_args[op] = (uint8_t)bits;
    }
    return c->stack_args[op] & ~STACK_ARGS_KNOWN;
}

/* the virtual tmp arguments whose slot the form can take instead: uses not held in
 * a register, full 64-bit defs, and 32-bit zero-extending updates (use and def) of
 * a tmp whose every def zero-extends from 32 bits: its slot's upper half is zero
 * already, so a 4-byte store leaves the slot right.  A 32-bit first def would
 * leave the upper half as it was. */
/* slot_operands: the argument folding starts at, each of the virtual tmps in the
 * places a form may take from memory (may) in turn, so that a form taking one
 * memory operand gets it in every place alike */
static unsigned fold_start(const LocalCtx *c, const Inst *in, unsigned may)
{
    unsigned places[LIR_MAX_ARGS], n = 0;
    for (unsigned i = 0; i < in->nargs; i++)
        if (((may >> i) & 1) && in->args[i].kind == ARG_TMP && tmp_is_virtual(in->args[i].base))
            places[n++] = i;
    return n ? places[c->nout % n] : 0;
}

static void fold_args(LocalCtx *c, Inst *in)
{
    unsigned may = stack_args(c, (LirOp)in->op);
    const LirOverload *ov = may ? lir_overload((LirOp)in->op, in->nargs) : NULL;
    unsigned start = c->slot_operands && ov ? fold_start(c, in, may) : 0;
    for (unsigned k = 0; ov && k < in->nargs; k++) {
        unsigned i = (start + k) % in->nargs;
        Arg *a = &in->args[i];
        Role role = (Role)ov->args[i].role;
        if (!((may >> i) & 1) || a->kind != ARG_TMP || !tmp_is_virtual(a->base))
            continue;
        bool use_only = role_is_use(role) && !role_is_def(role) && role != ROLE_SCRATCH;
        bool full_def = (role == ROLE_DEF || role == ROLE_USE_DEF) && ov->args[i].width == 64;
        full_def |= role == ROLE_USE_ZDEF && ov->args[i].width == 32 && !c->wide_def[vindex(c, a->base)];
        int h = held_reg(c, a->base);
        Bank b = tmp_bank(a->base);
        /* the register is newer (slot_operands: only a dirty one) */
        bool reads_slot = role_is_use(role) && h >= 0 && (!c->slot_operands || c->dirty[b][h]);
        if ((use_only || full_def) && !reads_slot && lir_code_admits_stack(c->code, in, i)) {
            uint32_t *n = &c->reads[vindex(c, a->base)];
            *n -= role_is_use(role) && *n;
            *a = arg_stack(tmp_slot(c, a->base), 0);
        }
    }
}

/* a register for t: one not taken that holds it, else the next free one in turn */
static Tmp pick_reg(LocalCtx *c, Tmp t, bool *held)
{
    Bank b = tmp_bank(t);
    int h = held_reg(c, t);
    if (h >= 0 && !((c->taken[b] >> h) & 1)) {
        c->taken[b] |= 1ull << h;
        *held = true;
        return tmp_reg(b, (unsigned)h);
    }
    for (unsigned k = 0; k < c->norder[b]; k++) {
        unsigned r = c->order[b][(c->next[b] + k) % c->norder[b]];
        if (!((c->taken[b] >> r) & 1)) {
            c->taken[b] |= 1ull << r;
            c->next[b] = (c->next[b] + k + 1) % c->norder[b];
            save_reg(c, b, r);
            return tmp_reg(b, r);
        }
    }
    if (!c->failed && c->err && c->errlen)
        snprintf(c->err, c->errlen, "in @%s: no %s register left for the local allocator", c->code->name,
                 bank_name(b));
    c->failed = true;
    return tmp_reg(b, c->order[b][0]);
}

/* every virtual tmp of the instruction gets a register of its own */
static void assign_tmp(void *ctx, Tmp *t, Role role, Bank bank, Width width)
{
    (void)bank, (void)width;
    LocalCtx *c = ctx;
    if (!tmp_is_virtual(*t))
        return;
    unsigned k = 0;
    while (k < c->ntmps && c->tmps[k].tmp != *t)
        k++;
    if (k == c->ntmps) {
        if (k == INST_TMPS)
            abort(); /* more tmps than an instruction's arguments can name */
        c->tmps[k] = (InstTmp){.tmp = *t};
        c->tmps[k].reg = pick_reg(c, *t, &c->tmps[k].held);
        c->ntmps++;
    }
    bool use = role_is_use(role) && role != ROLE_SCRATCH;
    uint32_t *n = &c->reads[vindex(c, *t)];
    *n -= use && *n;
    c->tmps[k].used |= use;
    c->tmps[k].defined |= role_is_def(role) && role != ROLE_SCRATCH;
    *t = c->tmps[k].reg;
}

/* no register holds t any more (its slot changes) */
static void forget_tmp(LocalCtx *c, Tmp t)
{
    int h = held_reg(c, t);
    if (h >= 0)
        set_holds(c, tmp_bank(t), (unsigned)h, TMP_NONE);
}

/* after the instruction: what each register it wrote holds; changed: the tmps
 * whose slot it wrote (folded defs), no register holds their new value */
static void note_writes(LocalCtx *c, const PhysUse *p, const Tmp *changed, unsigned nchanged)
{
    for (int b = 0; b < BANK_COUNT; b++)
        for (uint64_t m = p->def[b]; m; m &= m - 1)
            set_holds(c, (Bank)b, (unsigned)__builtin_ctzll(m), TMP_NONE);
    for (unsigned k = 0; k < nchanged; k++)
        forget_tmp(c, changed[k]);
    for (unsigned k = 0; k < c->ntmps; k++) {
        InstTmp *it = &c->tmps[k];
        bool stale = false;
        for (unsigned j = 0; j < nchanged; j++)
            stale |= changed[j] == it->tmp;
        Bank b = tmp_bank(it->reg);
        unsigned r = tmp_reg_number(it->reg);
        bool local = !c->global[vindex(c, it->tmp)], live = c->reads[vindex(c, it->tmp)] > 0;
        bool newer = c->dirty[b][r] && c->holds[b][r] == it->tmp; /* only read here: still newer */
        set_holds(c, b, r, (it->defined || (it->used && !stale)) && (live || !local) ? it->tmp : TMP_NONE);
        /* a local's new value waits in its register */
        c->dirty[b][r] = (it->defined || newer) && local && live && c->holds[b][r] == it->tmp;
    }
}

/* the registers the instruction writes or names: a newer value there goes to its slot */
static void save_busy(LocalCtx *c, const uint64_t *busy)
{
    for (int b = 0; b < BANK_COUNT; b++)
        for (uint64_t m = busy[b]; m; m &= m - 1)
            save_reg(c, (Bank)b, (unsigned)__builtin_ctzll(m));
}

static void rewrite_inst(LocalCtx *c, const Inst *orig, const uint64_t *busy, const PhysUse *p)
{
    Inst in = *orig;
    save_busy(c, busy);
    fold_args(c, &in);
    Tmp changed[LIR_MAX_ARGS];
    unsigned nchanged = 0;
    for (unsigned i = 0; i < in.nargs; i++)
        if (in.args[i].kind == ARG_STACK && orig->args[i].kind == ARG_TMP)
            changed[nchanged++] = orig->args[i].base; /* folded: its def (if any) went to the slot */
    c->ntmps = 0;
    memcpy(c->taken, busy, sizeof c->taken);
    lir_for_each_tmp(&in, assign_tmp, c);
    for (unsigned k = 0; k < c->ntmps; k++)
        if (c->tmps[k].used && !c->tmps[k].held)
            emit_slot_move(c, c->tmps[k].tmp, c->tmps[k].reg, true);
    emit(c, &in);
    for (unsigned k = 0; k < c->ntmps; k++)
        if (c->tmps[k].defined && c->global[vindex(c, c->tmps[k].tmp)])
            emit_slot_move(c, c->tmps[k].tmp, c->tmps[k].reg, false);
    note_writes(c, p, changed, nchanged);
}

/* busy[i]: the physical registers live after instruction i of block bi or named by it */
static void busy_masks(LocalCtx *c, uint32_t bi)
{
    const LirBlock *b = c->code->blocks[bi];
    const PhysUse *phys = c->phys + c->first[bi];
    if (!lir_grow_array((void **)&c->busy, &c->capbusy, b->ninsts + 1, sizeof *c->busy))
        abort();
    uint64_t live[BANK_COUNT];
    memcpy(live, c->live_out[bi], sizeof live);
    for (uint32_t i = b->ninsts; i-- > 0;)
        for (int k = 0; k < BANK_COUNT; k++) {
            c->busy[i][k] = live[k] | phys[i].use[k] | phys[i].def[k];
            live[k] = (live[k] & ~phys[i].def[k]) | phys[i].use[k];
        }
}

/* a large block is rewritten straight into an arena array grown in place (no second
 * copy of it); a small one into the reused buffer, then copied at its size */
static void start_output(LocalCtx *c, const LirBlock *b)
{
    c->nout = 0;
    c->out_in_arena = (size_t)b->ninsts * sizeof *b->insts >= LARGE_BLOCK_BYTES;
    if (c->out_in_arena) {
        c->buf = c->out, c->capbuf = c->capout;
        c->out = NULL, c->capout = 0;
    }
}

/* block bi takes the output; the array selection left goes back to the arena */
static void finish_output(LocalCtx *c, uint32_t bi)
{
    LirBlock *b = c->code->blocks[bi];
    arena_release(c->code->arena, c->array[bi], c->array_bytes[bi]);
    if (c->out_in_arena) {
        b->insts = c->out, b->capinsts = c->capout;
        c->out = c->buf, c->capout = c->capbuf;
    } else {
        b->insts = arena_alloc_raw(c->code->arena, (c->nout + 1) * sizeof *b->insts);
        memcpy(b->insts, c->out, c->nout * sizeof *b->insts);
        b->capinsts = c->nout;
    }
    b->ninsts = c->nout;
}

static void rewrite_block(LocalCtx *c, uint32_t bi)
{
    LirBlock *b = c->code->blocks[bi];
    const PhysUse *phys = c->phys + c->first[bi];
    busy_masks(c, bi);
    /* predecessors leave registers as they like (held_in is checked against holds);
     * a local tmp's value does not outlive its block */
    memset(c->holds, 0, sizeof c->holds);
    memset(c->dirty, 0, sizeof c->dirty);
    start_output(c, b);
    for (uint32_t i = 0; i < b->ninsts; i++)
        rewrite_inst(c, &b->insts[i], c->busy[i], &phys[i]);
    finish_output(c, bi);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        abort();
    return p;
}

static bool ctx_init(LocalCtx *c, Code *code, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->code = code;
    c->err = err;
    c->errlen = errlen;
    size_t nv = (size_t)code->ntmps[BANK_GP] + code->ntmps[BANK_FP] + 1, nb = code->nblocks + 1;
    c->slot = xcalloc(nv, sizeof *c->slot);
    c->reads = xcalloc(nv, sizeof *c->reads);
    c->wide_def = xcalloc(nv, sizeof *c->wide_def);
    c->held_in = xcalloc(nv, sizeof *c->held_in);
    c->home = xcalloc(nv, sizeof *c->home);
    c->global = xcalloc(nv, sizeof *c->global);
    c->first = xcalloc(nb, sizeof *c->first);
    c->array = xcalloc(nb, sizeof *c->array);
    c->array_bytes = xcalloc(nb, sizeof *c->array_bytes);
    c->gen = xcalloc(nb, sizeof *c->gen);
    c->kill = xcalloc(nb, sizeof *c->kill);
    c->live_in = xcalloc(nb, sizeof *c->live_in);
    c->live_out = xcalloc(nb, sizeof *c->live_out);
    for (int b = 0; b < BANK_COUNT; b++)
        c->norder[b] = lir_alloc_order(code, NULL, (Bank)b, c->order[b]);
    if (code->target && lir_verify_shape(code, NULL) == 0)
        return true;
    if (err && errlen)
        snprintf(err, errlen, "in @%s: the code to allocate does not verify", code->name);
    return false;
}

static void ctx_free(LocalCtx *c)
{
    free(c->slot);
    free(c->reads);
    free(c->wide_def);
    free(c->copies);
    free(c->held_in);
    free(c->home);
    free(c->global);
    free(c->first);
    free(c->array);
    free(c->array_bytes);
    free(c->gen);
    free(c->kill);
    free(c->live_in);
    free(c->live_out);
    free(c->phys);
    free(c->busy);
    free(c->out);
}

bool lir_allocate_local(Code *code, const RegallocOptions *opt, char *err, size_t errlen)
{
    LocalCtx c;
    bool ok = ctx_init(&c, code, err, errlen);
    if (ok) {
        scan_code(&c);
        c.slot_operands = opt && opt->slot_operands;
        if (c.slot_operands) /* every tmp stored at its defs */
            memset(c.global, 1, ((size_t)code->ntmps[BANK_GP] + code->ntmps[BANK_FP] + 1) * sizeof *c.global);
        for (uint32_t b = 0; b < code->nblocks && !c.failed; b++)
            rewrite_block(&c, b);
        ok = !c.failed;
    }
    ctx_free(&c);
    return ok && lir_allocate_stack(code, err, errlen);
}
