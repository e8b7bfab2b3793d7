/* mcov_table.c — machine-level coverage tables (mcov_table.h): slots per target, CPU
 * level and -O level, their sums, the items never hit and the full table. */
#include "fuzz/mcov_table.h"

#include "compiler/compile.h"
#include "compiler/target.h"
#include "fuzz/atomic_write.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

static bool slot_is(const MachCovSlot *s, const char *target, const char *cpu, int opt_level)
{
    return strcmp(s->target, target) == 0 && strcmp(s->cpu, cpu) == 0 && s->opt_level == opt_level;
}

static MachCov *slot_for(MachCovTable *tab, const char *target, const char *cpu, int opt_level)
{
    for (uint32_t i = 0; i < tab->nslots; i++)
        if (slot_is(&tab->slot[i], target, cpu, opt_level))
            return &tab->slot[i].cov;
    if (tab->nslots >= MCOV_SLOTS)
        return NULL;
    MachCovSlot *s = &tab->slot[tab->nslots++];
    memset(s, 0, sizeof *s);
    snprintf(s->target, sizeof s->target, "%s", target);
    snprintf(s->cpu, sizeof s->cpu, "%s", cpu);
    s->opt_level = (uint8_t)opt_level;
    return &s->cov;
}

MachCov *mcov_table_slot(MachCovTable *tab, const Target *t, int opt_level, const char *variant)
{
    if (!tab || !t)
        return NULL;
    return slot_for(tab, t->name, variant ? variant : t->cpu ? t->cpu : "baseline", opt_level);
}

void mcov_table_add(MachCovTable *into, const MachCovTable *from)
{
    for (uint32_t i = 0; i < from->nslots; i++) {
        const MachCovSlot *s = &from->slot[i];
        MachCov *c = slot_for(into, s->target, s->cpu, s->opt_level);
        if (c)
            mcov_add(c, &s->cov);
    }
}

/* ---- the items of one ISA ------------------------------------------------------------ */
typedef enum { IK_FORM, IK_COND, IK_PATH, IK_IDIOM } ItemKind;

typedef struct {
    const MachCovTable *tab;
    const Target *t;          /* the ISA's baseline target (its forms table and paths) */
    uint32_t slots[MCOV_SLOTS];
    uint32_t nslots;
} IsaView;

static uint32_t item_count(const MachCov *c, ItemKind k, uint32_t i, uint32_t j)
{
    switch (k) {
    case IK_FORM: return c->forms[i];
    case IK_COND: return c->conds[i][j];
    case IK_PATH: return c->items[i];
    default: return c->idioms[i];
    }
}

static uint32_t total(const IsaView *v, ItemKind k, uint32_t i, uint32_t j)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < v->nslots; s++)
        n += item_count(&v->tab->slot[v->slots[s]].cov, k, i, j);
    return n;
}

/* "Add32 Imm,Tmp" */
static void form_text(const LirForm *f, char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "%s", lir_op_name((LirOp)f->op));
    for (unsigned a = 0; a < f->nargs && at < n; a++) {
        const char *kinds = f->args[a].kinds == FK_MEM ? "Mem" : NULL;
        for (int k = 0; !kinds && k < ARG_KIND_COUNT; k++)
            if (f->args[a].kinds & (1u << k))
                kinds = arg_kind_name((ArgKind)k);
        at += (size_t)snprintf(buf + at, n - at, "%s%s%s", a ? "," : " ", kinds ? kinds : "?",
                               f->args[a].fixed ? "!" : "");
    }
}

/* does form f of t accept condition c (the target's value rules) */
static bool cond_reachable(const Target *t, const LirForm *f, unsigned c)
{
    for (unsigned a = 0; a < f->nargs; a++) {
        uint16_t k = f->args[a].kinds;
        Arg x = (k & FK_RELCOND) ? arg_relcond((RelCond)c) : (k & FK_RESCOND) ? arg_rescond((ResCond)c)
                : (k & FK_DOUBLECOND) ? arg_doublecond((DoubleCond)c) : arg_none();
        if (x.kind != ARG_NONE)
            return !t->arg_ok || t->arg_ok(f, a, &x);
    }
    return false;
}

typedef void (*ItemFn)(void *ctx, const IsaView *v, ItemKind k, uint32_t i, uint32_t j, const char *what);

/* every item of the ISA, named */
static void for_each_item(const IsaView *v, ItemFn fn, void *ctx)
{
    char name[160];
    const Target *t = v->t;
    for (uint32_t i = 0; i < t->nforms && i < MCOV_MAX_FORMS; i++) {
        form_text(&t->forms[i], name, sizeof name);
        fn(ctx, v, IK_FORM, i, 0, name);
    }
    for (uint32_t i = 0; i < t->nforms && i < MCOV_MAX_FORMS; i++)
        for (unsigned c = 0; c < mcov_form_conds(&t->forms[i]) && c < MCOV_CONDS; c++)
            if (cond_reachable(t, &t->forms[i], c)) {
                char f[128];
                form_text(&t->forms[i], f, sizeof f);
                snprintf(name, sizeof name, "%s %s", f, mcov_cond_name(&t->forms[i], c));
                fn(ctx, v, IK_COND, i, c, name);
            }
    for (uint32_t i = 0; i < t->ncov; i++)
        fn(ctx, v, IK_PATH, i, 0, t->cov_names[i]);
    for (uint32_t i = 0; i < MCOV_IDIOM_COUNT; i++)
        fn(ctx, v, IK_IDIOM, i, 0, mcov_idiom_name((McovIdiom)i));
}

static const char *const kind_names[] = {"form", "cond", "path", "idiom"};

/* the slots of ISA isa; false if none */
static bool isa_view(const MachCovTable *tab, Isa isa, IsaView *v)
{
    memset(v, 0, sizeof *v);
    v->tab = tab;
    v->t = target_for_isa(isa);
    for (uint32_t s = 0; v->t && s < tab->nslots; s++) {
        const Target *t = target_find(tab->slot[s].target);
        if (t && t->isa == isa)
            v->slots[v->nslots++] = s;
    }
    return v->nslots > 0;
}

/* does fnmatch pattern p match item name what: its literal head compared first, so
 * that fnmatch (microseconds a call) runs for few of the thousands of items */
static bool mark_matches(const char *p, const char *what)
{
    size_t head = strcspn(p, "*?[\\");
    if (strncmp(p, what, head) != 0)
        return false;
    return p[head] ? fnmatch(p, what, 0) == 0 : what[head] == '\0';
}

/* the reason item (kind k, named what) of v's ISA is marked unreachable by IR, or NULL */
static const char *unreached_reason(const IsaView *v, ItemKind k, const char *what)
{
    for (uint32_t u = 0; u < v->t->nunreached; u++) {
        const CovUnreached *m = &v->t->unreached[u];
        if (strcmp(m->kind, kind_names[k]) == 0 && mark_matches(m->pattern, what))
            return m->reason;
    }
    return NULL;
}

typedef enum { LIST_NONE, LIST_REACHABLE, LIST_UNREACHED, LIST_MARKED_HIT } ListWhat;

typedef struct {
    FILE *out;
    ListWhat list;
    McovTotals n;
} UnhitCtx;

static void count_unhit(void *ctx, const IsaView *v, ItemKind k, uint32_t i, uint32_t j, const char *what)
{
    UnhitCtx *u = ctx;
    const char *reason = v->t->nunreached ? unreached_reason(v, k, what) : NULL;
    bool hit = total(v, k, i, j) != 0;
    ListWhat is = hit ? (reason ? LIST_MARKED_HIT : LIST_NONE) : reason ? LIST_UNREACHED : LIST_REACHABLE;
    u->n.items++;
    u->n.hit += hit;
    u->n.unreached += is == LIST_UNREACHED;
    u->n.marked_hit += is == LIST_MARKED_HIT;
    if (u->out && is == u->list && is != LIST_NONE)
        fprintf(u->out, "  %s %-5s %s%s%s\n", v->t->name, kind_names[k], what, reason ? "  -- " : "",
                reason ? reason : "");
}

static McovTotals walk_unhit(const MachCovTable *tab, FILE *out, ListWhat list)
{
    UnhitCtx u = {out, list, {0, 0, 0, 0}};
    for (int isa = 0; isa < ISA_COUNT; isa++) {
        IsaView v;
        if (isa_view(tab, (Isa)isa, &v))
            for_each_item(&v, count_unhit, &u);
    }
    return u.n;
}

McovTotals mcov_table_unhit(const MachCovTable *tab, FILE *out)
{
    return walk_unhit(tab, out, LIST_REACHABLE);
}

void mcov_totals_print(FILE *out, McovTotals n)
{
    fprintf(out, "%u of %u items never hit (%u reachable, %u marked unreachable by IR", n.items - n.hit, n.items,
            n.items - n.hit - n.unreached, n.unreached);
    if (n.marked_hit)
        fprintf(out, "; %u marked unreachable but hit", n.marked_hit);
    fprintf(out, "; forms, conditions, encoder paths, idioms)");
}

static void print_row(void *ctx, const IsaView *v, ItemKind k, uint32_t i, uint32_t j, const char *what)
{
    FILE *out = ctx;
    fprintf(out, "%-5s", kind_names[k]);
    for (uint32_t s = 0; s < v->nslots; s++)
        fprintf(out, " %10u", item_count(&v->tab->slot[v->slots[s]].cov, k, i, j));
    fprintf(out, "  %s\n", what);
}

void mcov_table_print(FILE *out, const MachCovTable *tab)
{
    for (int isa = 0; isa < ISA_COUNT; isa++) {
        IsaView v;
        if (!isa_view(tab, (Isa)isa, &v))
            continue;
        fprintf(out, "# %s: instructions encoded per form (and condition), encoder paths and idioms\nkind ",
                v.t->name);
        for (uint32_t s = 0; s < v.nslots; s++) {
            const MachCovSlot *sl = &tab->slot[v.slots[s]];
            char col[40];
            bool base = strcmp(sl->cpu, "baseline") == 0;
            snprintf(col, sizeof col, "%s%sO%u", base ? "" : sl->cpu, base ? "" : "-", sl->opt_level);
            fprintf(out, " %10s", col);
        }
        fprintf(out, "  item\n");
        for_each_item(&v, print_row, out);
        fprintf(out, "\n");
    }
    McovTotals n = mcov_table_unhit(tab, NULL);
    fprintf(out, "# never hit: ");
    mcov_totals_print(out, n);
    fprintf(out, "\n# never hit, reachable: %u\n", n.items - n.hit - n.unreached);
    walk_unhit(tab, out, LIST_REACHABLE);
    fprintf(out, "# never hit, no IR reaches them (the targets' unreached.def): %u\n", n.unreached);
    walk_unhit(tab, out, LIST_UNREACHED);
    fprintf(out, "# marked unreachable by IR but hit (a mark to correct): %u\n", n.marked_hit);
    walk_unhit(tab, out, LIST_MARKED_HIT);
}

static bool count_compile(MachCovTable *tab, const Module *m, const Target *t, int level)
{
    Arena *arena = arena_new();
    Diag d;
    diag_init(&d, m->file, NULL);
    d.out = NULL;
    CompileOptions co = {.opt_level = level, .cov = mcov_table_slot(tab, t, level, NULL)};
    CodeBlob blob;
    bool ok = compile_module(m, t, &co, arena, &blob, NULL, &d);
    arena_free(arena);
    return ok;
}

bool mcov_table_count_module(MachCovTable *tab, const Module *m)
{
    bool ok = true;
    for (unsigned i = 0; i < target_count(); i++)
        for (unsigned lv = 0; lv < target_at(i)->nlevels; lv++)
            for (int level = 0; level <= 2; level += 2)
                ok &= count_compile(tab, m, target_at(i)->levels[lv], level);
    return ok;
}

static bool fill_table(FILE *f, void *ctx)
{
    mcov_table_print(f, ctx);
    return !ferror(f);
}

bool mcov_table_write(const MachCovTable *tab, const char *dir)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/machine-coverage.txt", dir) >= sizeof path)
        return false;
    return atomic_write_file(NULL, path, AW_REPLACE, fill_table, (void *)tab);
}
