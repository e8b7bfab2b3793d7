/* parse.c — reads LIR dumps back (the syntax lir_print writes), so any state of the
 * backend can be saved, edited and replayed:
 *   code @NAME ; TARGET            a function; TARGET a Target name or "no target"
 *     frame %REG                   the frame base of Stack args
 *     stackN: size S, align A[, locked][, offset O]
 *   BB#N: ; frequency = F          blocks in order
 *       OP ARG, ... [{uses A, ...; defs A, ...; clobbers %r, ...}] [!trap KIND] [; gate N]
 *     Successors: #N ...           (Predecessors lines are recomputed, not read)
 * Args: %tmpN %ftmpN %REG $IMM $0xBIGIMM $funcN[+K] $helper.NAME[+K] OFF(%b)
 * OFF(%b,%i,S) OFF(stackN) OFF(callArg) and condition names. */
#include "lir.h"
#include "grow.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Arena *arena;
    Diag *d;
    const Target *const *targets;
    unsigned ntargets;
    uint32_t line;
    const char *line_start;
    Code *code;
    LirCodePos *pos;      /* the current code's positions */
    LirBlock *block;
    LirModule *out;
    uint32_t capcodes;
} Parser;

typedef struct {      /* a cursor over one line */
    const char *p, *end;
} Cur;

static bool err(Parser *ps, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool err(Parser *ps, const char *at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint32_t col = at ? (uint32_t)(at - ps->line_start) + 1 : 1;
    if (ps->code)
        diag_error(ps->d, ps->line, col, "in @%s: %s", ps->code->name, msg);
    else
        diag_error(ps->d, ps->line, col, "%s", msg);
    return false;
}

/* the line and column of at, on the current line */
static LirPos pos_of(const Parser *ps, const char *at)
{
    return (LirPos){ ps->line, (uint32_t)(at - ps->line_start) + 1 };
}

static void note_block_pos(Parser *ps, const char *at)
{
    LirCodePos *p = ps->pos;
    uint32_t cap = p->capblocks;
    p->block_at = lir_arena_grow_array(ps->arena, p->block_at, &cap, p->nblocks + 1, sizeof *p->block_at);
    p->first_inst = lir_arena_grow_array(ps->arena, p->first_inst, &p->capblocks, p->nblocks + 1,
                                         sizeof *p->first_inst);
    p->block_at[p->nblocks] = pos_of(ps, at);
    p->first_inst[p->nblocks++] = p->ninsts;
}

static void note_inst_pos(Parser *ps, const char *at)
{
    LirCodePos *p = ps->pos;
    p->inst_at = lir_arena_grow_array(ps->arena, p->inst_at, &p->capinsts, p->ninsts + 1, sizeof *p->inst_at);
    p->inst_at[p->ninsts++] = pos_of(ps, at);
}

/* ---- lexing ------------------------------------------------------------------------ */
static void skip_ws(Cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static bool at_end(Cur *c)
{
    skip_ws(c);
    return c->p >= c->end;
}

static bool eat(Cur *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool eat_word(Cur *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return true;
    }
    return false;
}

static bool is_word_char(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '.'; }

/* an identifier-like word: letters, digits, '_' and '.' */
static size_t word(Cur *c, const char **start)
{
    skip_ws(c);
    *start = c->p;
    while (c->p < c->end && is_word_char(*c->p))
        c->p++;
    return (size_t)(c->p - *start);
}

static bool number(Cur *c, int64_t *v)
{
    skip_ws(c);
    char buf[40];
    size_t n = 0;
    while (c->p + n < c->end && n < sizeof buf - 1 &&
           (isxdigit((unsigned char)c->p[n]) || c->p[n] == 'x' || c->p[n] == 'X' ||
            ((c->p[n] == '-' || c->p[n] == '+') && n == 0)))
        n++;
    memcpy(buf, c->p, n);
    buf[n] = 0;
    if (!n)
        return false;
    char *endp;
    errno = 0;
    bool neg = buf[0] == '-';
    uint64_t u = strtoull(buf + (neg || buf[0] == '+'), &endp, 0);
    if (endp == buf + (neg || buf[0] == '+') || *endp || errno)
        return false;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    c->p += n;
    return true;
}

static bool word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && memcmp(s, w, n) == 0; }

/* ---- tmps and registers -------------------------------------------------------------- */
static bool parse_tmp(Parser *ps, Cur *c, Tmp *t)
{
    const char *at = c->p;
    if (!eat(c, '%'))
        return err(ps, at, "expected a register or tmp");
    const char *w;
    size_t n = word(c, &w);
    const Target *tg = ps->code ? ps->code->target : NULL;
    for (int b = 0; tg && b < BANK_COUNT; b++)
        for (unsigned r = 0; r < tg->nregs[b]; r++)
            if (word_is(w, n, tg->reg_names[b][r])) {
                *t = tmp_reg((Bank)b, r);
                return true;
            }
    static const struct { const char *prefix; Bank bank; bool virt; } forms[] = {
        { "ftmp", BANK_FP, true }, { "tmp", BANK_GP, true }, { "r", BANK_GP, false }, { "f", BANK_FP, false },
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        size_t pl = strlen(forms[k].prefix);
        if (n <= pl || memcmp(w, forms[k].prefix, pl) != 0)
            continue;
        uint64_t v = 0;
        size_t i = pl;
        for (; i < n && isdigit((unsigned char)w[i]) && v < (1u << 30); i++)
            v = v * 10 + (uint64_t)(w[i] - '0');
        if (i != n || v >= (1u << 30) || (!forms[k].virt && v >= LIR_MAX_REGS))
            break;
        *t = forms[k].virt ? tmp_virtual(forms[k].bank, (uint32_t)v) : tmp_reg(forms[k].bank, (unsigned)v);
        if (forms[k].virt && ps->code && v >= ps->code->ntmps[forms[k].bank])
            ps->code->ntmps[forms[k].bank] = (uint32_t)v + 1;
        return true;
    }
    return err(ps, at, "unknown register or tmp '%%%.*s'", (int)n, w);
}

/* ---- arguments ---------------------------------------------------------------------------- */
static bool parse_symbol(Parser *ps, Cur *c, const char *at, Arg *a)
{
    const char *w;
    size_t n = word(c, &w);
    int64_t addend = 0;
    if (n > 7 && memcmp(w, "helper.", 7) == 0) {
        unsigned h = 0;
        while (h < HELPER_COUNT && !word_is(w + 7, n - 7, lir_helper_name(h)))
            h++;
        if (h == HELPER_COUNT)
            return err(ps, at, "unknown helper '%.*s'", (int)(n - 7), w + 7);
        *a = arg_symbol(TARGET_HELPER, h, 0);
    } else if (n > 4 && memcmp(w, "func", 4) == 0) {
        Cur num = { w + 4, w + n };
        int64_t idx;
        if (!number(&num, &idx) || num.p != w + n || idx < 0 || idx > UINT32_MAX)
            return err(ps, at, "bad function symbol '%.*s'", (int)n, w);
        *a = arg_symbol(TARGET_FUNC, (uint32_t)idx, 0);
    } else {
        return err(ps, at, "unknown symbol '$%.*s'", (int)n, w);
    }
    skip_ws(c);
    if (c->p < c->end && (*c->p == '+' || *c->p == '-') && !number(c, &addend))
        return err(ps, c->p, "bad symbol addend");
    a->value = addend;
    return true;
}

static bool parse_immediate(Parser *ps, Cur *c, Arg *a)
{
    const char *at = c->p++;
    skip_ws(c);
    if (c->p < c->end && isalpha((unsigned char)*c->p))
        return parse_symbol(ps, c, at, a);
    bool hex = c->p + 1 < c->end && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X');
    int64_t v;
    if (!number(c, &v))
        return err(ps, at, "bad immediate");
    *a = hex ? arg_bigimm(v) : arg_imm(v);
    return true;
}

static bool parse_memory(Parser *ps, Cur *c, Arg *a)
{
    const char *at = c->p;
    int64_t off = 0;
    skip_ws(c);
    if (c->p < c->end && *c->p != '(' && !number(c, &off))
        return err(ps, at, "bad argument");
    if (!eat(c, '('))
        return err(ps, c->p, "expected '(' of a memory argument");
    if (eat_word(c, "callArg")) {
        *a = arg_callarg(off);
    } else if (eat_word(c, "stack")) {
        int64_t slot;
        if (!number(c, &slot) || slot < 0 || !ps->code || (uint64_t)slot >= ps->code->nslots)
            return err(ps, at, "unknown stack slot");
        *a = arg_stack((uint32_t)slot, off);
    } else {
        Tmp base, index;
        if (!parse_tmp(ps, c, &base))
            return false;
        *a = arg_addr(base, off);
        if (eat(c, ',')) {
            int64_t scale;
            if (!parse_tmp(ps, c, &index) || !eat(c, ',') || !number(c, &scale) ||
                (scale != 1 && scale != 2 && scale != 4 && scale != 8))
                return err(ps, at, "bad index address (base, index, scale 1/2/4/8)");
            if (off < INT32_MIN || off > INT32_MAX)
                return err(ps, at, "an index address's offset must fit in 32 bits");
            *a = arg_index(base, index, (unsigned)scale, (int32_t)off);
        }
    }
    if (!eat(c, ')'))
        return err(ps, c->p, "expected ')'");
    return true;
}

/* the condition kinds the target's forms of op accept at position i (all without one) */
static unsigned cond_kinds(const Parser *ps, LirOp op, unsigned nargs, unsigned i)
{
    const Target *t = ps->code ? ps->code->target : NULL;
    unsigned all = FK_RELCOND | FK_RESCOND | FK_DOUBLECOND, kinds = 0;
    if (!t)
        return all;
    uint32_t n;
    const LirForm *f = lir_target_forms(t, op, &n);
    for (uint32_t k = 0; k < n; k++)
        if (f[k].nargs == nargs)
            kinds |= f[k].args[i].kinds & all;
    return kinds ? kinds : all;
}

static bool parse_cond(Parser *ps, Cur *c, LirOp op, unsigned nargs, unsigned i, Arg *a)
{
    const char *w, *at = c->p;
    size_t n = word(c, &w);
    unsigned kinds = cond_kinds(ps, op, nargs, i);
    static const struct { ArgKind kind; unsigned count; } ks[] = {
        { ARG_RELCOND, REL_COUNT }, { ARG_RESCOND, RES_COUNT }, { ARG_DOUBLECOND, DBL_COUNT },
    };
    for (size_t k = 0; k < 3; k++) {
        if (!(kinds & (1u << ks[k].kind)))
            continue;
        for (unsigned v = 0; v < ks[k].count; v++)
            if (word_is(w, n, lir_cond_name(ks[k].kind, v))) {
                *a = (Arg){ .kind = (uint8_t)ks[k].kind, .cond = (uint8_t)v };
                return true;
            }
    }
    return err(ps, at, "unknown condition '%.*s'", (int)n, w);
}

static bool parse_arg(Parser *ps, Cur *c, LirOp op, unsigned nargs, unsigned i, Arg *a)
{
    skip_ws(c);
    if (c->p >= c->end)
        return err(ps, c->p, "missing argument");
    if (*c->p == '%') {
        Tmp t;
        if (!parse_tmp(ps, c, &t))
            return false;
        *a = arg_tmp(t);
        return true;
    }
    if (*c->p == '$')
        return parse_immediate(ps, c, a);
    if (isalpha((unsigned char)*c->p))
        return parse_cond(ps, c, op, nargs, i, a);
    return parse_memory(ps, c, a);
}

/* ---- call info, annotations ------------------------------------------------------------- */
static bool parse_call_group(Parser *ps, Cur *c, Arg **args, Width **widths, uint32_t *n)
{
    enum { MAX = 64 };
    Arg regs[MAX];
    Width w[MAX];
    uint32_t k = 0;
    do {
        Tmp t;
        if (k == MAX)
            return err(ps, c->p, "too many call registers");
        if (!parse_tmp(ps, c, &t))
            return false;
        regs[k] = arg_tmp(t);
        w[k] = 64;
        int64_t width;
        if (eat(c, ':')) {
            if (!number(c, &width) || (width != 8 && width != 16 && width != 32 && width != 64))
                return err(ps, c->p, "bad width");
            w[k] = (Width)width;
        }
        k++;
    } while (eat(c, ','));
    *args = arena_alloc(ps->arena, k * sizeof **args);
    *widths = arena_alloc(ps->arena, k * sizeof **widths);
    memcpy(*args, regs, k * sizeof *regs);
    memcpy(*widths, w, k * sizeof *w);
    *n = k;
    return true;
}

static bool parse_clobbers(Parser *ps, Cur *c, CallInfo *ci)
{
    do {
        Tmp t;
        if (!parse_tmp(ps, c, &t))
            return false;
        if (!tmp_is_reg(t))
            return err(ps, c->p, "only registers are clobbered");
        ci->clobbers[tmp_bank(t)] |= 1ull << tmp_reg_number(t);
    } while (eat(c, ','));
    return true;
}

/* {uses A, ...; defs A, ...; clobbers R, ...} */
static bool parse_call_info(Parser *ps, Cur *c, Inst *in)
{
    CallInfo *ci = arena_alloc(ps->arena, sizeof *ci);
    do {
        bool ok;
        if (eat_word(c, "uses"))
            ok = parse_call_group(ps, c, &ci->uses, &ci->use_widths, &ci->nuses);
        else if (eat_word(c, "defs"))
            ok = parse_call_group(ps, c, &ci->defs, &ci->def_widths, &ci->ndefs);
        else if (eat_word(c, "clobbers"))
            ok = parse_clobbers(ps, c, ci);
        else
            ok = err(ps, c->p, "expected uses, defs or clobbers");
        if (!ok)
            return false;
    } while (eat(c, ';'));
    if (!eat(c, '}'))
        return err(ps, c->p, "expected '}'");
    in->call = ci;
    return true;
}

static bool parse_trap(Parser *ps, Cur *c, Inst *in)
{
    const char *w, *at = c->p;
    size_t n = word(c, &w);
    for (unsigned k = 1; k <= TRAP_ILLEGAL; k++)
        if (word_is(w, n, lir_trap_name(k))) {
            in->trap = (uint8_t)k;
            return true;
        }
    return err(ps, at, "unknown trap kind '%.*s'", (int)n, w);
}

/* ---- lines -------------------------------------------------------------------------------- */
static bool parse_inst(Parser *ps, Cur *c, Cur *comment)
{
    const char *w;
    size_t n = word(c, &w);
    int op = lir_op_parse(w, n);
    if (op < 0)
        return err(ps, w, "unknown opcode '%.*s'", (int)n, w);
    if (!ps->block)
        return err(ps, w, "instruction outside a block");
    Inst in = lir_inst((LirOp)op, 0, NULL);
    /* count the arguments first: conditions are read by the forms of this overload */
    Cur scan = *c;
    unsigned nargs = 0, depth = 0;
    bool any = false;
    for (const char *p = scan.p; p < scan.end && *p != '{' && *p != '!'; p++) {
        depth += *p == '(';
        depth -= *p == ')' && depth;
        nargs += *p == ',' && !depth;
        any |= *p != ' ' && *p != '\t';
    }
    nargs += any;
    if (nargs > LIR_MAX_ARGS || !lir_overload((LirOp)op, nargs))
        return err(ps, w, "%s has no %u-argument overload", lir_op_name((LirOp)op), nargs);
    for (unsigned i = 0; i < nargs; i++) {
        if (i && !eat(c, ','))
            return err(ps, c->p, "expected ','");
        if (!parse_arg(ps, c, (LirOp)op, nargs, i, &in.args[i]))
            return false;
    }
    in.nargs = (uint8_t)nargs;
    if (eat(c, '{') && !parse_call_info(ps, c, &in))
        return false;
    if (eat(c, '!') && (!eat_word(c, "trap") || !parse_trap(ps, c, &in)))
        return false;
    if (!at_end(c))
        return err(ps, c->p, "unexpected text after the instruction");
    int64_t gate;
    if (eat_word(comment, "gate") && number(comment, &gate) && gate >= 0 && gate < NO_GATE)
        in.origin = (GateId)gate;
    if (ps->code->target && !lir_is_valid_form(ps->code->target, &in))
        return err(ps, w, "%s: no %s form takes these arguments", lir_op_name((LirOp)op),
                   ps->code->target->name);
    lir_insert(ps->code, ps->block, ps->block->ninsts, &in);
    note_inst_pos(ps, w);
    return true;
}

static bool parse_code_header(Parser *ps, Cur *c, Cur *comment, const char *at)
{
    const char *w;
    if (!eat(c, '@'))
        return err(ps, c->p, "expected @NAME");
    size_t n = word(c, &w);
    if (!n || !at_end(c))
        return err(ps, w, "bad function name");
    skip_ws(comment);
    size_t tn = (size_t)(comment->end - comment->p);
    while (tn && (comment->p[tn - 1] == ' ' || comment->p[tn - 1] == '\t' || comment->p[tn - 1] == '\r'))
        tn--;
    const Target *target = NULL;
    for (unsigned k = 0; k < ps->ntargets; k++)
        if (word_is(comment->p, tn, ps->targets[k]->name))
            target = ps->targets[k];
    if (!target && !word_is(comment->p, tn, "no target"))
        return err(ps, comment->p, "unknown target '%.*s'", (int)tn, comment->p);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(n < 127 ? n : 127), w);
    LirModule *m = ps->out;
    if (m->ncodes == ps->capcodes) {
        uint32_t cap = ps->capcodes ? ps->capcodes * 2 : 8;
        m->codes = arena_grow(ps->arena, m->codes, ps->capcodes * sizeof *m->codes, cap * sizeof *m->codes);
        m->pos = arena_grow(ps->arena, m->pos, ps->capcodes * sizeof *m->pos, cap * sizeof *m->pos);
        ps->capcodes = cap;
    }
    ps->code = lir_code_new(ps->arena, target, name, m->ncodes);
    ps->pos = &m->pos[m->ncodes];
    ps->pos->code_at = pos_of(ps, at);
    m->codes[m->ncodes++] = ps->code;
    ps->block = NULL;
    return true;
}

static bool parse_slot(Parser *ps, Cur *c, const char *at)
{
    int64_t idx, size, align, offset;
    if (!number(c, &idx) || !eat(c, ':') || !eat_word(c, "size") || !number(c, &size) || !eat(c, ',') ||
        !eat_word(c, "align") || !number(c, &align) || size < 0 || size > UINT32_MAX || align < 1 ||
        align > 4096)
        return err(ps, at, "expected stackN: size S, align A[, locked][, offset O]");
    if (idx != ps->code->nslots)
        return err(ps, at, "stack slots must be numbered in order (expected stack%u)", ps->code->nslots);
    uint32_t slot = lir_add_slot(ps->code, (uint32_t)size, (uint32_t)align, false);
    while (eat(c, ',')) {
        if (eat_word(c, "locked"))
            ps->code->slots[slot].locked = true;
        else if (eat_word(c, "offset") && number(c, &offset) && offset >= INT32_MIN && offset <= INT32_MAX) {
            ps->code->slots[slot].offset = (int32_t)offset;
            ps->code->slots[slot].assigned = true;
        } else
            return err(ps, c->p, "expected locked or offset N");
    }
    return at_end(c) || err(ps, c->p, "unexpected text after the stack slot");
}

static bool parse_block_header(Parser *ps, Cur *c, Cur *comment, const char *at)
{
    int64_t idx;
    double freq = 1;
    if (!number(c, &idx) || !eat(c, ':') || !at_end(c))
        return err(ps, at, "expected BB#N:");
    if (idx != ps->code->nblocks)
        return err(ps, at, "blocks must be numbered in order (expected BB#%u)", ps->code->nblocks);
    if (eat_word(comment, "frequency") && eat(comment, '=')) {
        char *endp;
        freq = strtod(comment->p, &endp);
        if (endp == comment->p)
            freq = 1;
    }
    ps->block = lir_add_block(ps->code, freq);
    note_block_pos(ps, at);
    return true;
}

static bool parse_succs(Parser *ps, Cur *c)
{
    if (!ps->block)
        return err(ps, c->p, "successors outside a block");
    while (eat(c, '#')) {
        int64_t s;
        if (!number(c, &s) || s < 0 || s > UINT32_MAX)
            return err(ps, c->p, "bad successor");
        lir_add_succ(ps->code, ps->block, (uint32_t)s);
    }
    return at_end(c) || err(ps, c->p, "expected #N");
}

/* split a line into its body and the comment after ';' */
static void split_comment(const char *s, const char *e, Cur *body, Cur *comment)
{
    const char *semi = NULL;
    unsigned depth = 0;       /* a call's {uses ...; defs ...} is not a comment */
    for (const char *p = s; p < e && !semi; p++) {
        depth += *p == '{';
        depth -= *p == '}' && depth;
        if (*p == ';' && !depth)
            semi = p;
    }
    *body = (Cur){ s, semi ? semi : e };
    *comment = (Cur){ semi ? semi + 1 : e, e };
}

static bool parse_line(Parser *ps, const char *s, const char *e)
{
    Cur c, comment;
    split_comment(s, e, &c, &comment);
    if (at_end(&c))
        return true;
    const char *at = c.p;
    if (eat_word(&c, "code"))
        return parse_code_header(ps, &c, &comment, at);
    if (!ps->code)
        return err(ps, at, "expected 'code @NAME ; TARGET'");
    if (eat_word(&c, "BB#"))
        return parse_block_header(ps, &c, &comment, at);
    if (eat_word(&c, "Successors:"))
        return parse_succs(ps, &c);
    if (eat_word(&c, "Predecessors:"))
        return true;
    if (eat_word(&c, "frame")) {
        Tmp t;
        if (!parse_tmp(ps, &c, &t) || !tmp_is_reg(t) || tmp_bank(t) != BANK_GP)
            return err(ps, at, "the frame base is a general-purpose register");
        ps->code->frame_base = t;
        return at_end(&c) || err(ps, c.p, "unexpected text after the frame base");
    }
    if (eat_word(&c, "stack") && c.p < c.end && isdigit((unsigned char)*c.p))
        return parse_slot(ps, &c, at);
    c.p = at;
    return parse_inst(ps, &c, &comment);
}

/* successors in range (reported at the block's header) */
static void check_code(Parser *ps, Code *code, const LirCodePos *pos)
{
    for (uint32_t b = 0; b < code->nblocks; b++) {
        const LirBlock *blk = code->blocks[b];
        for (uint32_t s = 0; s < blk->nsuccs; s++)
            if (blk->succs[s] >= code->nblocks)
                diag_error(ps->d, pos->block_at[b].line, pos->block_at[b].col,
                           "in @%s: BB#%u: successor #%u does not exist", code->name, b, blk->succs[s]);
    }
    lir_compute_preds(code);
}

bool lir_parse(Arena *arena, const char *src, size_t len, const Target *const *targets,
               unsigned ntargets, Diag *d, LirModule *out)
{
    Parser ps = { .arena = arena, .d = d, .targets = targets, .ntargets = ntargets, .out = out };
    memset(out, 0, sizeof *out);
    int errors_before = d->nerrors;
    const char *p = src + text_bom_length(src, len), *end = src + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *nul = memchr(p, 0, (size_t)(e - p));
        ps.line++;
        ps.line_start = p;
        if (nul)
            err(&ps, nul, "NUL byte in the input");
        else
            parse_line(&ps, p, e);
        p = nl ? nl + 1 : end;
    }
    for (uint32_t i = 0; i < out->ncodes; i++)
        check_code(&ps, out->codes[i], &out->pos[i]);
    return d->nerrors == errors_before;
}
