/* dump.c — the scheduled form as text in the parser's own syntax: the function's
 * gates grouped by block in block order, each block introduced by a comment line
 *   ; block b3 (loop depth 1, idom b1) preds b1 b2 succs b4 b5
 * then its state gates, its selectors (block parameters), its computation gates in
 * execution order and its terminator, then a comment per edge into a join listing
 * the parallel copies.  A gate placed in several blocks is written once (where it
 * is first placed) and noted as a copy elsewhere; gates that are never demanded come
 * last.  Comments are ignored by the parser, so the text parses to the same circuit. */
#include "sched.h"

#include <stdlib.h>

typedef enum { NOTE_NONE, NOTE_BLOCK, NOTE_COPY, NOTE_EDGES, NOTE_UNSCHEDULED } NoteKind;

typedef struct {
    uint8_t kind;
    uint32_t block;
    GateId gate;
} Note;

typedef struct {
    const Schedule *s;
    GateId *order;
    Note *notes;
    uint32_t n, cap;
    uint8_t *printed;
} Listing;

static void push(Listing *l, GateId g, NoteKind kind, uint32_t block)
{
    if (l->n + 1 >= l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->order = realloc(l->order, l->cap * sizeof *l->order);
        l->notes = realloc(l->notes, l->cap * sizeof *l->notes);
    }
    l->order[l->n] = g;
    l->notes[l->n++] = (Note){(uint8_t)kind, block, g};
}

static void push_gate(Listing *l, GateId g, uint32_t block)
{
    if (g < NUM_ROOTS)
        return;
    if (l->printed[g]) {
        push(l, NO_GATE, NOTE_COPY, block);
        l->notes[l->n - 1].gate = g;
        return;
    }
    l->printed[g] = 1;
    push(l, g, NOTE_NONE, block);
}

static void put_name(FILE *out, const char *const *names, GateId g)
{
    if (g == ROOT_DEPEND_ENTRY || g == ROOT_STATE_ENTRY)
        fputs("entry", out);
    else if (names[g])
        fprintf(out, "%%%s", names[g]);
    else
        fprintf(out, "%%<gate%u>", g);
}

static void block_comment(FILE *out, const Block *b)
{
    fprintf(out, "  ; block b%u (loop depth %u, idom ", b->id, b->loop_depth);
    if (b->idom == NO_BLOCK)
        fputs("-", out);
    else
        fprintf(out, "b%u", b->idom);
    fputs(") preds", out);
    for (uint32_t i = 0; i < b->npreds; i++)
        fprintf(out, " b%u", b->preds[i]);
    fputs(" succs", out);
    for (uint32_t i = 0; i < b->nsuccs; i++)
        fprintf(out, " b%u", b->succs[i].to);
    fputc('\n', out);
}

static void edge_comments(FILE *out, const Block *b, const char *const *names)
{
    for (uint32_t k = 0; k < b->nsuccs; k++) {
        const Edge *e = &b->succs[k];
        if (!e->ncopies)
            continue;
        fprintf(out, "  ;   edge b%u -> b%u:", b->id, e->to);
        for (uint32_t i = 0; i < e->ncopies; i++) {
            fputs(i ? ", " : " ", out);
            put_name(out, names, e->copies[i].selector);
            fputs(" <- ", out);
            put_name(out, names, e->copies[i].value);
        }
        fputc('\n', out);
    }
}

static void note(FILE *out, uint32_t pos, const char *const *names, void *ctx)
{
    const Listing *l = ctx;
    if (pos >= l->n)
        return;
    const Note *nt = &l->notes[pos];
    switch (nt->kind) {
    case NOTE_BLOCK:
        block_comment(out, &l->s->blocks[nt->block]);
        break;
    case NOTE_COPY:
        fputs("  ;   copy of ", out);
        put_name(out, names, nt->gate);
        fputc('\n', out);
        break;
    case NOTE_EDGES:
        edge_comments(out, &l->s->blocks[nt->block], names);
        break;
    case NOTE_UNSCHEDULED:
        fputs("  ; never demanded (not scheduled)\n", out);
        break;
    default:
        break;
    }
}

static void list_block(Listing *l, const Block *b)
{
    push(l, NO_GATE, NOTE_BLOCK, b->id);
    for (uint32_t i = 0; i < b->nstates; i++)
        push_gate(l, b->states[i], b->id);
    for (uint32_t i = 0; i < b->nparams; i++)
        push_gate(l, b->params[i], b->id);
    for (uint32_t i = 0; i < b->ngates; i++)
        push_gate(l, b->gates[i], b->id);
    if (b->term != TERM_GOTO)
        push_gate(l, b->term_gate, b->id);
    push(l, NO_GATE, NOTE_EDGES, b->id);
}

void sched_print(FILE *out, const Schedule *s)
{
    const Circuit *c = s->func->circ;
    Listing l = {.s = s};
    l.printed = calloc(c->ngates ? c->ngates : 1, 1);
    for (BlockId b = 0; b < s->nblocks; b++)
        list_block(&l, &s->blocks[b]);
    bool header = false;
    for (GateId g = NUM_ROOTS; g < c->ngates; g++) {
        if (c->gates[g].dead || l.printed[g])
            continue;
        if (!header)
            push(&l, NO_GATE, NOTE_UNSCHEDULED, 0);
        header = true;
        push_gate(&l, g, 0);
    }
    print_func_ordered(out, s->func, l.order, l.n, note, &l);
    free(l.order);
    free(l.notes);
    free(l.printed);
}
