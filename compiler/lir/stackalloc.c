/* stackalloc.c — the stack allocator: lays out the frame of a register-allocated
 * Code (regalloc.h describes the layout): the callee-saved register save area, every
 * stack slot (spill slots, ALLOCA slots, others; by decreasing alignment), and the
 * outgoing argument area that CallArg args reach; records it in Code.frame and
 * gives every slot its offset.  Needs every tmp to be a register already. */
#include "regalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    Code *code;
    uint64_t written[BANK_COUNT];
    uint32_t callarg_end;
} FrameScan;

static void scan_arg(void *ctx, Arg *a, Role role, Bank bank, Width width)
{
    FrameScan *s = ctx;
    if (a->kind == ARG_TMP && role_is_def(role) && tmp_is_reg(a->base))
        s->written[bank] |= 1ull << tmp_reg_number(a->base);
    if (a->kind == ARG_CALLARG && a->value >= 0) {
        uint64_t end = (uint64_t)a->value + (width >= 8 ? width / 8 : 1);
        if (end > s->callarg_end)
            s->callarg_end = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
    }
}

static void scan_code(FrameScan *s)
{
    for (uint32_t b = 0; b < s->code->nblocks; b++) {
        LirBlock *blk = s->code->blocks[b];
        for (uint32_t i = 0; i < blk->ninsts; i++) {
            Inst *in = &blk->insts[i];
            lir_for_each_arg(in, scan_arg, s);
        }
    }
}

static int64_t align_down(int64_t v, uint32_t a) { return -(int64_t)((uint64_t)(-v + a - 1) / a * a); }

static bool bad(char *err, size_t errlen, const Code *c, const char *what, uint32_t i)
{
    if (err && errlen)
        snprintf(err, errlen, "stack allocation of @%s: %s %u", c->name, what, i);
    return false;
}

static int64_t layout_saves(Code *c, LirFrame *f)
{
    int64_t at = 0;
    for (unsigned r = 0; r < LIR_MAX_REGS; r++)
        if ((f->saved[BANK_GP] >> r) & 1) {
            at -= 8;
            f->save_offset[BANK_GP][r] = (int32_t)at;
        }
    if (f->saved[BANK_FP])
        at = align_down(at, 16);
    for (unsigned r = 0; r < LIR_MAX_REGS; r++)
        if ((f->saved[BANK_FP] >> r) & 1) {
            at -= 16;
            f->save_offset[BANK_FP][r] = (int32_t)at;
        }
    (void)c;
    return at;
}

static uint32_t slot_align(const StackSlot *s) { return s->align ? s->align : 1; }

static bool layout_slots(Code *c, int64_t *at, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < c->nslots; i++) {
        uint32_t a = slot_align(&c->slots[i]);
        if ((a & (a - 1)) || a > 4096)
            return bad(err, errlen, c, "bad alignment of stack slot", i);
        if (c->slots[i].size > (1u << 28))
            return bad(err, errlen, c, "oversized stack slot", i);
    }
    /* by decreasing alignment: no padding between slots of one alignment */
    for (uint32_t a = 4096; a >= 1; a /= 2) {
        for (uint32_t i = 0; i < c->nslots; i++) {
            StackSlot *s = &c->slots[i];
            if (slot_align(s) != a)
                continue;
            *at = align_down(*at - (s->size ? s->size : 1), a);
            if (*at < -(int64_t)(1u << 30))
                return bad(err, errlen, c, "frame too big at stack slot", i);
            s->offset = (int32_t)*at;
            s->assigned = true;
        }
    }
    return true;
}

static void rebase_to_sp(Code *c, LirFrame *f)
{
    for (uint32_t i = 0; i < c->nslots; i++)
        c->slots[i].offset += (int32_t)f->size;
    for (unsigned b = 0; b < BANK_COUNT; b++)
        for (unsigned r = 0; r < LIR_MAX_REGS; r++)
            if ((f->saved[b] >> r) & 1)
                f->save_offset[b][r] += (int32_t)f->size;
}

bool lir_allocate_stack(Code *c, char *err, size_t errlen)
{
    FrameScan s = { c, { 0, 0 }, 0 };
    scan_code(&s);
    LirFrame f;
    memset(&f, 0, sizeof f);
    for (unsigned b = 0; b < BANK_COUNT; b++) {
        uint64_t keep = c->target ? c->target->callee_saved[b] : 0;
        f.saved[b] = s.written[b] & keep;
    }
    if (c->frame_base != TMP_NONE && tmp_bank(c->frame_base) == BANK_GP)
        f.saved[BANK_GP] &= ~(1ull << tmp_reg_number(c->frame_base));
    if (c->stack_pointer != TMP_NONE && tmp_bank(c->stack_pointer) == BANK_GP)
        f.saved[BANK_GP] &= ~(1ull << tmp_reg_number(c->stack_pointer));
    int64_t at = layout_saves(c, &f);
    if (!layout_slots(c, &at, err, errlen))
        return false;
    f.callarg_size = s.callarg_end > c->frame.callarg_size ? s.callarg_end : c->frame.callarg_size;
    f.callarg_size = (f.callarg_size + 7) & ~7u;
    uint64_t size = (uint64_t)(-at) + f.callarg_size;
    f.size = (uint32_t)((size + 15) & ~15ull);
    f.assigned = true;
    if (c->frame_base == TMP_NONE || c->frame_base == c->stack_pointer)
        rebase_to_sp(c, &f);
    c->frame = f;
    return true;
}
