/* parse.c — the text format (.circ) to a Module.  Line-oriented: one gate per line,
 * names resolved when the function's closing brace is read (forward references are
 * allowed), `; run:` comments kept as structured run lines.  Every error is reported;
 * a line with an error is skipped and parsing goes on. */
#include "ir.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    T_EOF, T_NL, T_WORD, T_GATE, T_FUNC, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK,
    T_LBRACE, T_RBRACE, T_COMMA, T_EQ, T_EQEQ, T_ARROW, T_BAD
} Tok;

typedef struct {
    Tok tok;
    const char *s; /* token text (for GATE/FUNC without the sigil) */
    size_t n;
    uint32_t line, col;
} Token;

typedef struct {
    const char *text;
    size_t n;
    uint32_t line, col;
} PendingRun;

typedef struct {
    const char *s;
    size_t n;
    uint32_t line, col;
    uint8_t group; /* 0 state, 1 dependency, 2 data */
} Ref;

typedef struct {
    Diag *d;
    Module *m;
    const char *src, *end, *p;
    uint32_t line;
    const char *line_start;
    Token t; /* current token */
    PendingRun *runs;
    size_t nruns, capruns;
    Func *f; /* function being parsed */
    const char *err_name; /* name defined by a gate line that had an error */
    size_t err_n;
    /* per-function name table */
    GateId *slots;
    size_t nslots;
    /* SYMBOL gates, resolved once every function is known */
    struct PendingSym { Func *f; GateId g; const char *s; size_t n; uint32_t line, col; } *syms;
    size_t nsyms, capsyms;
} Parser;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("circ: out of memory\n", stderr);
        abort();
    }
    return q;
}

/* ---- lexer ---- */

static bool word_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-'; }
static bool name_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

static void record_run_comment(Parser *ps, const char *s, const char *e, uint32_t col)
{
    const char *q = s;
    while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    if (e - q < 4 || memcmp(q, "run:", 4) != 0)
        return;
    if (ps->nruns == ps->capruns) {
        ps->capruns = ps->capruns ? ps->capruns * 2 : 8;
        ps->runs = xrealloc(ps->runs, ps->capruns * sizeof *ps->runs);
    }
    ps->runs[ps->nruns++] = (PendingRun){q + 4, (size_t)(e - q - 4), ps->line,
                                         col + (uint32_t)(q + 4 - s) + 1};
}

static void next(Parser *ps)
{
    const char *p = ps->p;
    for (;;) {
        while (p < ps->end && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (p < ps->end && *p == ';') {
            const char *s = p + 1;
            while (p < ps->end && *p != '\n')
                p++;
            record_run_comment(ps, s, p, (uint32_t)(s - ps->line_start));
            continue;
        }
        break;
    }
    Token t = {T_EOF, p, 0, ps->line, (uint32_t)(p - ps->line_start) + 1};
    if (p >= ps->end) {
        ps->t = t;
        ps->p = p;
        return;
    }
    char c = *p;
    const char *start = p;
    switch (c) {
    case '\n':
        t.tok = T_NL;
        p++;
        ps->line++;
        ps->line_start = p;
        break;
    case '(': t.tok = T_LPAREN; p++; break;
    case ')': t.tok = T_RPAREN; p++; break;
    case '[': t.tok = T_LBRACK; p++; break;
    case ']': t.tok = T_RBRACK; p++; break;
    case '{': t.tok = T_LBRACE; p++; break;
    case '}': t.tok = T_RBRACE; p++; break;
    case ',': t.tok = T_COMMA; p++; break;
    case '=':
        p++;
        t.tok = T_EQ;
        if (p < ps->end && *p == '=') {
            p++;
            t.tok = T_EQEQ;
        }
        break;
    case '%':
    case '@':
        p++;
        while (p < ps->end && name_char((unsigned char)*p))
            p++;
        t.tok = p - start > 1 ? (c == '%' ? T_GATE : T_FUNC) : T_BAD;
        t.s = start + 1;
        t.n = (size_t)(p - start - 1);
        ps->t = t;
        ps->p = p;
        return;
    default:
        if (c == '-' && p + 1 < ps->end && p[1] == '>') {
            t.tok = T_ARROW;
            p += 2;
            break;
        }
        if (word_char((unsigned char)c)) {
            while (p < ps->end && word_char((unsigned char)*p)) {
                if (*p == '-' && p + 1 < ps->end && p[1] == '>')
                    break;
                p++;
            }
            /* bits(0x...) is one literal */
            if (p - start == 4 && memcmp(start, "bits", 4) == 0 && p < ps->end && *p == '(') {
                const char *q = p + 1;
                while (q < ps->end && isalnum((unsigned char)*q))
                    q++;
                if (q < ps->end && *q == ')')
                    p = q + 1;
            }
            t.tok = T_WORD;
        } else {
            t.tok = T_BAD;
            p++;
        }
    }
    t.n = (size_t)(p - start);
    if (t.tok != T_GATE && t.tok != T_FUNC)
        t.s = start;
    ps->t = t;
    ps->p = p;
}

static const char *tok_desc(const Token *t, char *buf, size_t n)
{
    switch (t->tok) {
    case T_EOF: return "end of file";
    case T_NL: return "end of line";
    default:
        if (t->n && ((unsigned char)t->s[0] >= 0x80 || (unsigned char)t->s[0] < 0x20)) {
            snprintf(buf, n, "byte 0x%02X", (unsigned char)t->s[0]);
            return buf;
        }
        snprintf(buf, n, "'%.*s%.*s'", t->tok == T_GATE ? 1 : t->tok == T_FUNC ? 1 : 0,
                 t->tok == T_GATE ? "%" : "@", (int)(t->n > 40 ? 40 : t->n), t->s);
        return buf;
    }
}

/* ---- errors ---- */

static void perr(Parser *ps, uint32_t line, uint32_t col, const char *gate, size_t gn, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#include <stdarg.h>
static void perr(Parser *ps, uint32_t line, uint32_t col, const char *gate, size_t gn, const char *fmt, ...)
{
    char msg[512], where[256] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->f && gate)
        snprintf(where, sizeof where, "in @%s: gate %%%.*s: ", ps->f->name, (int)gn, gate);
    else if (ps->f)
        snprintf(where, sizeof where, "in @%s: ", ps->f->name);
    diag_error(ps->d, line, col, "%s%s", where, msg);
}

static void expected(Parser *ps, const char *what, const char *gate, size_t gn)
{
    char buf[64];
    perr(ps, ps->t.line, ps->t.col, gate, gn, "expected %s, found %s", what, tok_desc(&ps->t, buf, sizeof buf));
}

static void skip_line(Parser *ps)
{
    while (ps->t.tok != T_NL && ps->t.tok != T_EOF)
        next(ps);
}

static bool tok_is_word(const Token *t, const char *w)
{
    return t->tok == T_WORD && strlen(w) == t->n && memcmp(t->s, w, t->n) == 0;
}

/* ---- name table (open addressing over gate ids) ---- */

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static GateId *name_slot(Parser *ps, const char *s, size_t n)
{
    size_t mask = ps->nslots - 1;
    for (size_t i = hash_name(s, n) & mask;; i = (i + 1) & mask) {
        GateId g = ps->slots[i];
        if (g == NO_GATE)
            return &ps->slots[i];
        const char *name = ps->f->circ->gates[g].name;
        if (strlen(name) == n && memcmp(name, s, n) == 0)
            return &ps->slots[i];
    }
}

static void names_reset(Parser *ps, size_t want)
{
    size_t n = 64;
    while (n < want * 2)
        n *= 2;
    ps->slots = xrealloc(ps->slots, n * sizeof(GateId));
    ps->nslots = n;
    for (size_t i = 0; i < n; i++)
        ps->slots[i] = NO_GATE;
}

static void names_rehash(Parser *ps)
{
    GateId *old = ps->slots;
    size_t oldn = ps->nslots;
    ps->slots = NULL;
    names_reset(ps, oldn);
    for (size_t i = 0; i < oldn; i++)
        if (old[i] != NO_GATE) {
            const char *nm = ps->f->circ->gates[old[i]].name;
            *name_slot(ps, nm, strlen(nm)) = old[i];
        }
    free(old);
}

/* ---- function bodies ---- */

typedef struct {
    GateId gate;
    size_t first, count; /* range in the function's reference list */
} GateRefs;

typedef struct {
    Ref *refs;
    size_t nrefs, caprefs;
    GateRefs *gates;
    size_t ngates, capgates;
    size_t nnames;
} Body;

static void add_ref(Body *b, const Token *t, uint8_t group)
{
    if (b->nrefs == b->caprefs) {
        b->caprefs = b->caprefs ? b->caprefs * 2 : 64;
        b->refs = xrealloc(b->refs, b->caprefs * sizeof *b->refs);
    }
    b->refs[b->nrefs++] = (Ref){t->s, t->n, t->line, t->col, group};
}

/* '[' refs ']' etc.; returns false after reporting an error */
static bool parse_group(Parser *ps, Body *b, Tok close, uint8_t group, const char *gname, size_t gn)
{
    next(ps); /* the opening bracket */
    if (ps->t.tok == close) {
        next(ps);
        return true;
    }
    for (;;) {
        if (ps->t.tok == T_GATE) {
            add_ref(b, &ps->t, group);
        } else if (group != 2 && tok_is_word(&ps->t, "entry")) {
            Token t = ps->t;
            t.s = NULL; /* entry */
            t.n = 0;
            add_ref(b, &t, group);
        } else {
            expected(ps, group == 2 ? "a gate name" : "a gate name or 'entry'", gname, gn);
            return false;
        }
        next(ps);
        if (ps->t.tok == T_COMMA) {
            next(ps);
            continue;
        }
        if (ps->t.tok == close) {
            next(ps);
            return true;
        }
        expected(ps, close == T_RBRACK ? "',' or ']'" : close == T_RBRACE ? "',' or '}'" : "',' or ')'",
                 gname, gn);
        return false;
    }
}

/* one gate line; the current token is its first */
static void parse_gate(Parser *ps, Body *b)
{
    Circuit *c = ps->f->circ;
    const char *gname = NULL;
    size_t gn = 0;
    uint32_t line = ps->t.line, col = ps->t.col;
    if (ps->t.tok == T_GATE) {
        gname = ps->t.s;
        gn = ps->t.n;
        ps->err_name = gname; /* until the line is accepted */
        ps->err_n = gn;
        next(ps);
        if (ps->t.tok != T_EQ) {
            expected(ps, "'='", gname, gn);
            skip_line(ps);
            return;
        }
        next(ps);
    }
    if (ps->t.tok != T_WORD) {
        expected(ps, "an opcode", gname, gn);
        skip_line(ps);
        return;
    }
    int op = op_parse(ps->t.s, ps->t.n);
    if (op < 0) {
        char buf[64];
        const char *what = "unknown opcode";
        for (int r = 0; r < OP_COUNT; r++)
            if (op_has(r, F_ROOT) && strlen(op_info[r].name) == ps->t.n &&
                memcmp(op_info[r].name, ps->t.s, ps->t.n) == 0)
                what = "root gates are never written; unexpected";
        if (ps->t.n == 11 && memcmp(ps->t.s, "JS_BYTECODE", 11) == 0)
            what = "JS_BYTECODE is out of scope; unsupported opcode";
        perr(ps, ps->t.line, ps->t.col, gname, gn, "%s %s", what, tok_desc(&ps->t, buf, sizeof buf));
        skip_line(ps);
        return;
    }
    const OpInfo *oi = &op_info[op];
    if (gname && (op == OP_RETURN || op == OP_THROW)) {
        perr(ps, line, col, gname, gn, "%s has no output and cannot be named", oi->name);
        skip_line(ps);
        return;
    }
    next(ps);
    int cond = 0;
    if (oi->cond != CC_NONE) {
        cond = ps->t.tok == T_WORD ? cond_parse((CondKind)oi->cond, ps->t.s, ps->t.n) : -1;
        if (cond < 0) {
            expected(ps, oi->cond == CC_ICMP ? "an ICMP condition (eq ne ugt uge ult ule sgt sge slt sle)"
                                             : "an FCMP condition (false oeq ogt oge olt ole one ord uno ueq ugt uge ult ule une true)",
                     gname, gn);
            skip_line(ps);
            return;
        }
        next(ps);
    }
    Type ty = TY_NONE;
    if (oi->cond == CC_ICMP || oi->cond == CC_FCMP)
        ty = TY_I1;
    else if (oi->rule == TR_ARCH)
        ty = TY_ARCH;
    if (oi->tysyn != TS_NONE) {
        Type t = ps->t.tok == T_WORD ? ty_parse(ps->t.s, ps->t.n) : TY_COUNT;
        if (t != TY_COUNT) {
            ty = t;
            next(ps);
        } else if (oi->tysyn == TS_REQ) {
            expected(ps, "a type (i1 i8 i16 i32 i64 f32 f64)", gname, gn);
            skip_line(ps);
            return;
        }
    }
    uint64_t lit = 0;
    if (oi->lit == LIT_CONST || oi->lit == LIT_INT) {
        bool ok = ps->t.tok == T_WORD;
        if (ok && oi->lit == LIT_CONST && ty_is_float(ty))
            ok = lit_parse_float(ps->t.s, ps->t.n, ty, &lit);
        else if (ok)
            ok = lit_parse_int(ps->t.s, ps->t.n, &lit);
        if (!ok) {
            const char *what = oi->lit == LIT_INT ? "an integer literal"
                               : ty_is_float(ty)   ? "a float literal"
                                                   : "an integer literal";
            expected(ps, what, gname, gn);
            skip_line(ps);
            return;
        }
        if (oi->lit == LIT_CONST && ty_is_int(ty)) {
            /* integers are taken modulo 2^width, but must fit the width as signed or unsigned */
            int64_t sv = (int64_t)lit;
            int bits = ty_bits(ty);
            bool fits = bits == 64 || lit <= ty_mask(ty) ||
                        (sv < 0 && sv >= -(int64_t)((uint64_t)1 << (bits - 1)));
            if (!fits) {
                perr(ps, ps->t.line, ps->t.col, gname, gn, "constant %.*s does not fit in %s",
                     (int)ps->t.n, ps->t.s, ty_name(ty));
                skip_line(ps);
                return;
            }
            lit &= ty_mask(ty);
        }
        next(ps);
    } else if (oi->lit == LIT_SYM) {
        if (ps->t.tok != T_FUNC) {
            expected(ps, "a function name '@name'", gname, gn);
            skip_line(ps);
            return;
        }
        /* resolved once every function is known: keep the token's text for later */
        add_ref(b, &ps->t, 3);
        next(ps);
    }
    size_t first = b->nrefs;
    if (oi->lit == LIT_SYM)
        first--; /* the symbol reference belongs to this gate */
    int order = 0;
    for (;;) {
        Tok open = ps->t.tok;
        int grp = open == T_LBRACK ? 0 : open == T_LBRACE ? 1 : open == T_LPAREN ? 2 : -1;
        if (grp < 0)
            break;
        if (grp < order) {
            perr(ps, ps->t.line, ps->t.col, gname, gn,
                 "wire groups must come in the order [states] {dependencies} (values)");
            skip_line(ps);
            b->nrefs = first;
            return;
        }
        order = grp + 1;
        if (!parse_group(ps, b, grp == 0 ? T_RBRACK : grp == 1 ? T_RBRACE : T_RPAREN, (uint8_t)grp, gname, gn)) {
            skip_line(ps);
            b->nrefs = first;
            return;
        }
    }
    if (ps->t.tok != T_NL && ps->t.tok != T_EOF) {
        expected(ps, "end of line", gname, gn);
        skip_line(ps);
        b->nrefs = first;
        return;
    }
    ps->err_name = NULL;
    GateId id = circ_add(c, (Opcode)op, ty, cond, lit, NULL, 0, NULL, 0, NULL, 0);
    Gate *g = &c->gates[id];
    g->line = line;
    g->col = col;
    if (gname) {
        if (b->nnames * 2 + 2 > ps->nslots)
            names_rehash(ps);
        GateId *slot = name_slot(ps, gname, gn);
        if (*slot != NO_GATE) {
            const Gate *prev = &c->gates[*slot];
            perr(ps, line, col, gname, gn, "defined twice (first at line %u)", prev->line);
            circ_kill(c, id);
        } else {
            circ_set_name(c, id, gname, gn);
            *slot = id;
            b->nnames++;
        }
    }
    if (b->ngates == b->capgates) {
        b->capgates = b->capgates ? b->capgates * 2 : 64;
        b->gates = xrealloc(b->gates, b->capgates * sizeof *b->gates);
    }
    b->gates[b->ngates++] = (GateRefs){id, first, b->nrefs - first};
}

/* resolve every gate's references once the body is complete */
static void resolve_body(Parser *ps, Body *b)
{
    Circuit *c = ps->f->circ;
    size_t cap = 16;
    GateId *buf = xrealloc(NULL, cap * sizeof *buf); /* never NULL: buf + 0 is taken below */
    for (size_t i = 0; i < b->ngates; i++) {
        GateRefs *gr = &b->gates[i];
        if (c->gates[gr->gate].dead)
            continue;
        if (gr->count > cap) {
            cap = gr->count * 2;
            buf = xrealloc(buf, cap * sizeof *buf);
        }
        uint32_t n[3] = {0, 0, 0};
        size_t k = 0;
        bool ok = true;
        for (int grp = 0; grp < 3; grp++)
            for (size_t j = 0; j < gr->count; j++) {
                Ref *r = &b->refs[gr->first + j];
                if (r->group == 3 && grp == 0) {
                    if (ps->nsyms == ps->capsyms) {
                        ps->capsyms = ps->capsyms ? ps->capsyms * 2 : 16;
                        ps->syms = xrealloc(ps->syms, ps->capsyms * sizeof *ps->syms);
                    }
                    ps->syms[ps->nsyms++] = (struct PendingSym){ps->f, gr->gate, r->s, r->n, r->line, r->col};
                    continue;
                }
                if (r->group != grp)
                    continue;
                GateId target;
                if (!r->s) {
                    target = grp == 0 ? ROOT_STATE_ENTRY : ROOT_DEPEND_ENTRY;
                } else {
                    target = *name_slot(ps, r->s, r->n);
                    if (target != NO_GATE && c->gates[target].dead) {
                        ok = false; /* its own line was in error: reported there */
                    } else if (target == NO_GATE) {
                        const char *gname = c->gates[gr->gate].name;
                        perr(ps, r->line, r->col, gname, gname ? strlen(gname) : 0,
                             "reference to undefined gate %%%.*s", (int)r->n, r->s);
                        ok = false;
                    }
                }
                buf[k++] = target;
                n[grp]++;
            }
        if (ok && (n[0] > 0xffff || n[1] > 0xffff)) {
            const Gate *g = &c->gates[gr->gate];
            perr(ps, g->line, g->col, g->name, g->name ? strlen(g->name) : 0,
                 "too many %s inputs (%u; at most 65535)", n[0] > 0xffff ? "state" : "dependency",
                 n[0] > 0xffff ? n[0] : n[1]);
            ok = false;
        }
        if (ok)
            circ_set_inputs(c, gr->gate, buf, n[0], buf + n[0], n[1], buf + n[0] + n[1], n[2]);
    }
    free(buf);
}

/* a name whose defining line had an error: a dead gate holds it, so references to it
 * are not reported a second time */
static void poison_name(Parser *ps, Body *b, const char *name, size_t n)
{
    if (b->nnames * 2 + 2 > ps->nslots)
        names_rehash(ps);
    GateId *slot = name_slot(ps, name, n);
    if (*slot != NO_GATE)
        return;
    Circuit *c = ps->f->circ;
    GateId id = circ_add(c, OP_ORDINARY_BLOCK, TY_NONE, 0, 0, NULL, 0, NULL, 0, NULL, 0);
    circ_set_name(c, id, name, n);
    circ_kill(c, id);
    *slot = id;
    b->nnames++;
}

static void parse_body(Parser *ps)
{
    Body b = {0};
    names_reset(ps, 64);
    for (;;) {
        while (ps->t.tok == T_NL)
            next(ps);
        if (ps->t.tok == T_RBRACE) {
            next(ps);
            break;
        }
        if (ps->t.tok == T_EOF) {
            perr(ps, ps->t.line, ps->t.col, NULL, 0, "missing '}' at end of function");
            break;
        }
        ps->err_name = NULL;
        parse_gate(ps, &b);
        if (ps->err_name)
            poison_name(ps, &b, ps->err_name, ps->err_n);
    }
    resolve_body(ps, &b);
    free(b.refs);
    free(b.gates);
}

/* after a bad function header: skip its body, up to a '}' line, 'func' or the end */
static void skip_func(Parser *ps)
{
    for (;;) {
        skip_line(ps);
        while (ps->t.tok == T_NL)
            next(ps);
        if (ps->t.tok == T_EOF || tok_is_word(&ps->t, "func"))
            return;
        if (ps->t.tok == T_RBRACE) {
            next(ps);
            return;
        }
    }
}

typedef struct {
    uint32_t line, col; /* of the keyword */
    Token name;
    Type params[FUNC_MAX_PARAMS], ret;
    uint32_t np;
} Signature;

/* '@'name '(' types ')' '->' type|'void', after 'func' or 'extern'; false (reported,
 * the rest of the function skipped) on an error */
static bool parse_signature(Parser *ps, Signature *sig)
{
    Token *name = &sig->name;
    Type *params = sig->params, *ret = &sig->ret;
    uint32_t *np = &sig->np;
    sig->line = ps->t.line;
    sig->col = ps->t.col;
    *np = 0;
    next(ps);
    if (ps->t.tok != T_FUNC)
        return expected(ps, "a function name '@name'", NULL, 0), skip_func(ps), false;
    *name = ps->t;
    next(ps);
    if (ps->t.tok != T_LPAREN)
        return expected(ps, "'('", NULL, 0), skip_func(ps), false;
    next(ps);
    while (ps->t.tok != T_RPAREN) {
        Type t = ps->t.tok == T_WORD ? ty_parse(ps->t.s, ps->t.n) : TY_COUNT;
        if (t == TY_COUNT || *np == FUNC_MAX_PARAMS) {
            expected(ps, *np == FUNC_MAX_PARAMS ? "at most 256 parameters" : "a parameter type", NULL, 0);
            return skip_func(ps), false;
        }
        params[(*np)++] = t;
        next(ps);
        if (ps->t.tok == T_COMMA)
            next(ps);
        else if (ps->t.tok != T_RPAREN)
            return expected(ps, "',' or ')'", NULL, 0), skip_func(ps), false;
    }
    next(ps);
    if (ps->t.tok != T_ARROW)
        return expected(ps, "'->'", NULL, 0), skip_func(ps), false;
    next(ps);
    *ret = ps->t.tok == T_WORD ? ty_parse(ps->t.s, ps->t.n) : TY_COUNT;
    if (tok_is_word(&ps->t, "void"))
        *ret = TY_NONE;
    if (*ret == TY_COUNT)
        return expected(ps, "a return type or 'void'", NULL, 0), skip_func(ps), false;
    next(ps);
    return true;
}

/* 'extern' '@'name '(' types ')' '->' type|'void': a runtime function, declared with
 * its exact signature (runtime.def) */
static void parse_extern(Parser *ps)
{
    Signature sig;
    if (!parse_signature(ps, &sig))
        return;
    Token name = sig.name;
    int rt = runtime_find(name.s, name.n);
    const RuntimeInfo *ri = rt >= 0 ? &runtime_info[rt] : NULL;
    if (!ri)
        diag_error(ps->d, name.line, name.col, "extern @%.*s: circ's runtime has no such function (docs/runtime.md)",
                   (int)name.n, name.s);
    else if (sig.np != ri->nparams || sig.ret != ri->ret || memcmp(sig.params, ri->params, sig.np * sizeof *sig.params))
        diag_error(ps->d, name.line, name.col, "extern @%.*s: the runtime function's signature is (%s%s%s%s%s) -> %s",
                   (int)name.n, name.s, ty_name(ri->params[0]), ri->nparams > 1 ? ", " : "",
                   ri->nparams > 1 ? ty_name(ri->params[1]) : "", ri->nparams > 2 ? ", " : "",
                   ri->nparams > 2 ? ty_name(ri->params[2]) : "", ty_name(ri->ret));
    else if (module_find_extern(ps->m, name.s, name.n) >= 0)
        diag_error(ps->d, name.line, name.col, "extern @%.*s declared twice", (int)name.n, name.s);
    else {
        uint32_t e = module_add_extern(ps->m, (RuntimeFn)rt);
        ps->m->externs[e].line = sig.line;
        ps->m->externs[e].col = sig.col;
    }
    if (ps->t.tok != T_NL && ps->t.tok != T_EOF)
        expected(ps, "end of line", NULL, 0);
    skip_line(ps);
}

/* 'func' '@'name '(' types ')' '->' type|'void' '{' */
static void parse_func(Parser *ps)
{
    Signature sig;
    if (!parse_signature(ps, &sig))
        return;
    Token name = sig.name;
    if (ps->t.tok != T_LBRACE) {
        expected(ps, "'{'", NULL, 0);
        skip_func(ps);
        return;
    }
    next(ps);
    if (module_find(ps->m, name.s, name.n)) {
        diag_error(ps->d, name.line, name.col, "function @%.*s defined twice", (int)name.n, name.s);
    }
    char *nm = arena_strndup(ps->m->arena, name.s, name.n);
    Func *f = module_add_func(ps->m, nm, sig.params, sig.np, sig.ret);
    f->line = sig.line;
    f->col = sig.col;
    ps->f = f;
    parse_body(ps);
    ps->f = NULL;
}

/* ---- run lines ---- */

typedef struct {
    const char *p, *end;
    uint32_t line, col0;
    const char *base;
} RunLex;

static void run_ws(RunLex *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r'))
        r->p++;
}

static uint32_t run_col(const RunLex *r) { return r->col0 + (uint32_t)(r->p - r->base); }

/* one literal or word: up to ',', ')', whitespace or end */
static size_t run_word(RunLex *r, const char **s)
{
    run_ws(r);
    *s = r->p;
    while (r->p < r->end && *r->p != ',' && *r->p != ' ' && *r->p != '\t' && *r->p != '\r') {
        if (*r->p == ')' && !(r->p - *s >= 5 && memcmp(*s, "bits(", 5) == 0))
            break;
        if (*r->p == ')') {
            r->p++;
            break;
        }
        r->p++;
    }
    return (size_t)(r->p - *s);
}

static bool looks_float(const char *s, size_t n)
{
    if (n >= 2 && (s[0] == '0' || ((s[0] == '-' || s[0] == '+') && n > 2 && s[1] == '0')) &&
        memchr(s, 'x', n) && !memchr(s, 'p', n) && !memchr(s, '.', n))
        return false; /* hex integer */
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'n' || s[i] == 'p' || s[i] == 'i')
            return true;
    return false;
}

static void parse_run(Parser *ps, const PendingRun *pr)
{
    RunLex r = {pr->text, pr->text + pr->n, pr->line, pr->col, pr->text};
    run_ws(&r);
    if (r.p >= r.end || *r.p != '@') {
        diag_error(ps->d, r.line, run_col(&r), "run line: expected '@function'");
        return;
    }
    const char *nm = ++r.p;
    while (r.p < r.end && name_char((unsigned char)*r.p))
        r.p++;
    Func *f = module_find(ps->m, nm, (size_t)(r.p - nm));
    if (!f) {
        diag_error(ps->d, r.line, (uint32_t)(pr->col + (nm - 1 - pr->text)),
                   "run line: no function @%.*s in this file", (int)(r.p - nm), nm);
        return;
    }
    run_ws(&r);
    if (r.p >= r.end || *r.p != '(') {
        diag_error(ps->d, r.line, run_col(&r), "run line: expected '('");
        return;
    }
    r.p++;
    RunArg args[FUNC_MAX_PARAMS];
    uint32_t na = 0;
    run_ws(&r);
    if (r.p < r.end && *r.p == ')')
        r.p++;
    else
        for (;;) {
            const char *s;
            uint32_t col = (run_ws(&r), run_col(&r));
            size_t n = run_word(&r, &s);
            if (na >= f->nparams || na >= FUNC_MAX_PARAMS) {
                diag_error(ps->d, r.line, col, "run line: @%s takes %u argument%s", f->name, f->nparams,
                           f->nparams == 1 ? "" : "s");
                return;
            }
            Type pt = f->params[na];
            RunArg a = {RA_INT, 0};
            bool ok;
            if (n > 1 && *s == '@') {
                const Func *target = module_find(ps->m, s + 1, n - 1);
                a = (RunArg){RA_FUNC, target ? target->index : 0};
                if (!target) {
                    diag_error(ps->d, r.line, col, "run line: '%.*s' names no function of the module", (int)n, s);
                    return;
                }
                ok = pt == TY_ARCH;
                if (!ok) {
                    diag_error(ps->d, r.line, col, "run line: '%.*s' is an i64 address, but parameter %u is %s",
                               (int)n, s, na, ty_name(pt));
                    return;
                }
            } else if (n == 4 && memcmp(s, "heap", 4) == 0) {
                a.kind = RA_HEAP;
                ok = pt == TY_ARCH;
                if (!ok) {
                    diag_error(ps->d, r.line, col, "run line: 'heap' is an i64 address, but parameter %u is %s",
                               na, ty_name(pt));
                    return;
                }
            } else if (ty_is_float(pt)) {
                a.kind = RA_FLOAT;
                ok = lit_parse_float(s, n, pt, &a.bits);
            } else {
                ok = !looks_float(s, n) && lit_parse_int(s, n, &a.bits);
                a.bits &= ty_mask(pt);
            }
            if (!ok) {
                diag_error(ps->d, r.line, col, "run line: '%.*s' is not a %s literal for parameter %u",
                           (int)n, s, ty_name(pt), na);
                return;
            }
            args[na++] = a;
            run_ws(&r);
            if (r.p < r.end && *r.p == ',') {
                r.p++;
                continue;
            }
            if (r.p < r.end && *r.p == ')') {
                r.p++;
                break;
            }
            diag_error(ps->d, r.line, run_col(&r), "run line: expected ',' or ')'");
            return;
        }
    if (na != f->nparams) {
        diag_error(ps->d, r.line, run_col(&r), "run line: @%s takes %u argument%s, %u given", f->name,
                   f->nparams, f->nparams == 1 ? "" : "s", na);
        return;
    }
    RunExpect ex = {EX_VOID, 0, 0};
    run_ws(&r);
    if (r.p >= r.end) {
        if (f->ret != TY_NONE) {
            diag_error(ps->d, r.line, run_col(&r), "run line: expected '== EXPECTED'");
            return;
        }
    } else {
        if (r.end - r.p < 2 || memcmp(r.p, "==", 2) != 0) {
            diag_error(ps->d, r.line, run_col(&r), "run line: expected '=='");
            return;
        }
        r.p += 2;
        const char *s;
        uint32_t col = (run_ws(&r), run_col(&r));
        size_t n = run_word(&r, &s);
        bool ok = true;
        if (n == 4 && !memcmp(s, "trap", 4)) {
            const char *k;
            size_t kn = run_word(&r, &k);
            if (kn == 0)
                ex.kind = EX_TRAP;
            else if (kn == 4 && !memcmp(k, "div0", 4))
                ex.kind = EX_TRAP_DIV0;
            else if (kn == 8 && !memcmp(k, "overflow", 8))
                ex.kind = EX_TRAP_OVERFLOW;
            else {
                diag_error(ps->d, r.line, col, "run line: unknown trap kind '%.*s' (div0, overflow)", (int)kn, k);
                return;
            }
        } else if (n == 5 && !memcmp(s, "throw", 5)) {
            const char *v;
            uint32_t vcol = (run_ws(&r), run_col(&r));
            size_t vn = run_word(&r, &v);
            ex.kind = EX_THROW;
            if (looks_float(v, vn)) {
                ex.is_float = 1;
                ok = lit_parse_float(v, vn, TY_F64, &ex.bits);
            } else {
                ok = lit_parse_int(v, vn, &ex.bits);
            }
            if (!ok) {
                diag_error(ps->d, r.line, vcol, "run line: expected a literal after 'throw'");
                return;
            }
        } else if (n == 4 && !memcmp(s, "void", 4)) {
            if (f->ret != TY_NONE) {
                diag_error(ps->d, r.line, col, "run line: @%s returns %s, not void", f->name, ty_name(f->ret));
                return;
            }
            ex.kind = EX_VOID;
        } else if (f->ret == TY_NONE) {
            diag_error(ps->d, r.line, col, "run line: @%s returns void; expected 'void', 'trap' or 'throw'", f->name);
            return;
        } else if (n == 3 && !memcmp(s, "nan", 3) && ty_is_float(f->ret)) {
            ex.kind = EX_NAN;
        } else {
            ex.kind = EX_VALUE;
            if (ty_is_float(f->ret))
                ok = lit_parse_float(s, n, f->ret, &ex.bits);
            else {
                ok = !looks_float(s, n) && lit_parse_int(s, n, &ex.bits);
                ex.bits &= ty_mask(f->ret);
            }
            if (!ok) {
                diag_error(ps->d, r.line, col, "run line: '%.*s' is not a %s literal", (int)n, s, ty_name(f->ret));
                return;
            }
        }
        run_ws(&r);
        if (r.p < r.end) {
            diag_error(ps->d, r.line, run_col(&r), "run line: unexpected text after the expectation");
            return;
        }
    }
    RunLine *rl = module_add_run(ps->m);
    rl->func = f->index;
    rl->nargs = na;
    rl->args = arena_alloc(ps->m->arena, (na ? na : 1) * sizeof(RunArg));
    memcpy(rl->args, args, na * sizeof(RunArg));
    rl->expect = ex;
    rl->line = pr->line;
}

/* ---- module ---- */

Module *parse_module(const char *file, const char *src, size_t len, Diag *d)
{
    Parser ps = {0};
    size_t bom = text_bom_length(src, len);
    src += bom;
    len -= bom;
    ps.d = d;
    ps.m = module_new(file);
    ps.src = ps.p = ps.line_start = src;
    ps.end = src + len;
    ps.line = 1;
    int errors0 = d->nerrors;
    uint32_t nul_line, nul_col;
    if (text_find_nul(src, len, &nul_line, &nul_col)) {
        diag_error(d, nul_line, nul_col, "NUL byte in input");
        module_free(ps.m);
        return NULL;
    }
    next(&ps);
    for (;;) {
        while (ps.t.tok == T_NL)
            next(&ps);
        if (ps.t.tok == T_EOF)
            break;
        if (tok_is_word(&ps.t, "func")) {
            parse_func(&ps);
            continue;
        }
        if (tok_is_word(&ps.t, "extern")) {
            parse_extern(&ps);
            continue;
        }
        expected(&ps, "'func' or 'extern'", NULL, 0);
        skip_line(&ps);
    }
    for (size_t i = 0; i < ps.nsyms; i++) {
        struct PendingSym *sy = &ps.syms[i];
        Func *callee = module_find(ps.m, sy->s, sy->n);
        const char *gname = sy->f->circ->gates[sy->g].name;
        int ext = callee ? -1 : module_find_extern(ps.m, sy->s, sy->n);
        if (callee || ext >= 0) {
            sy->f->circ->gates[sy->g].lit = callee ? callee->index : SYM_EXTERN | (uint32_t)ext;
            continue;
        }
        ps.f = sy->f;
        perr(&ps, sy->line, sy->col, gname, gname ? strlen(gname) : 0,
             "SYMBOL @%.*s names no function of the module and no extern", (int)sy->n, sy->s);
        ps.f = NULL;
    }
    /* run lines refer to any function of the file */
    for (size_t i = 0; i < ps.nruns; i++)
        parse_run(&ps, &ps.runs[i]);
    free(ps.runs);
    free(ps.slots);
    free(ps.syms);
    if (d->nerrors > errors0) {
        module_free(ps.m);
        return NULL;
    }
    return ps.m;
}

Module *parse_file(const char *path, Diag *d)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(d->out ? d->out : stderr, "%s: error: cannot open: ", path);
        perror(NULL);
        return NULL;
    }
    size_t cap = 65536, n = 0;
    char *buf = xrealloc(NULL, cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    bool err = ferror(fp);
    fclose(fp);
    if (err) {
        fprintf(d->out ? d->out : stderr, "%s: error: read failed\n", path);
        free(buf);
        return NULL;
    }
    Module *m = parse_module(path, buf, n, d);
    free(buf);
    return m;
}
