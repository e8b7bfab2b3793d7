/* mem.c — the oracle's memory: harness buffer, ALLOCA stack, SYMBOL addresses,
 * provenance-checked accesses and the happens-before race detector (see mem.h). */
#include "oracle/mem.h"

#include "compiler/ir/eval.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t base;
    uint32_t size;
    uint32_t off;  /* ALLOCA: offset of its bytes in the ALLOCA stack */
    uint8_t kind;
    uint32_t func;
    GateId gate;
} MemObject;

/* join: 0, or the index in Mem.joins of a DEPEND_AND's further predecessors (a
 * count, then the instances); seen: the mem_ordered query that last visited it */
typedef struct { uint32_t pred, call, func; GateId gate; uint32_t join, seen; } Instance;
typedef struct { uint32_t inst, next; } ReaderNode;

/* one byte's access history: the last writer, the latest reader since it, and any
 * earlier readers since it that the latest one is not known to follow (a list) */
typedef struct { uint32_t writer, reader, more; } ByteLog;

/* the heap's log is cleared, and its bytes restored to the pattern, in chunks an
 * access touched: 64 of them */
enum { LOG_CHUNK = HEAP_SIZE / 64 };

struct Mem {
    const Module *m;
    uint8_t heap[HEAP_SIZE];
    ByteLog heaplog[HEAP_SIZE];
    uint64_t dirty;       /* bit k: an access may have set heaplog[k * LOG_CHUNK ...]
                             or changed those bytes of heap */
    uint8_t *stack;       /* ALLOCA bytes */
    ByteLog *stacklog;
    uint32_t stacktop, stackcap;
    MemObject *objs;      /* [0] none, [1..nfuncs] symbols, then live ALLOCAs */
    uint32_t nobjs, capobjs;
    uint64_t serial;      /* ALLOCAs made so far: gives each a distinct base */
    uint64_t alloca_total;/* their bytes since mem_reset */
    Instance *insts;
    uint32_t ninsts, capinsts;
    ReaderNode *readers;  /* node 0 is the list end */
    uint32_t nreaders, capreaders;
    uint32_t *joins;      /* DEPEND_AND instances' further predecessors ([0] unused) */
    uint32_t njoins, capjoins;
    uint32_t query;       /* mem_ordered walks so far (marks Instance.seen) */
    uint32_t *walk;       /* its stack */
    uint32_t capwalk;
};

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    uint32_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q)
        abort();
    *cap = c;
    return q;
}

Mem *mem_new(const Module *m)
{
    Mem *mem = calloc(1, sizeof *mem);
    if (!mem)
        abort();
    mem->m = m; /* calloc cleared the log: nothing dirty */
    heap_fill_pattern(mem->heap);
    mem_reset(mem);
    return mem;
}

Mem *mem_rebind(Mem *mem, const Module *m)
{
    mem->m = m;
    mem_reset(mem);
    return mem;
}

void mem_free(Mem *mem)
{
    if (!mem)
        return;
    free(mem->stack);
    free(mem->stacklog);
    free(mem->objs);
    free(mem->insts);
    free(mem->readers);
    free(mem->joins);
    free(mem->walk);
    free(mem);
}

void mem_reset(Mem *mem)
{
    const uint8_t *pattern = heap_pattern();
    for (uint64_t d = mem->dirty; d; d &= d - 1) {
        uint32_t at = LOG_CHUNK * (uint32_t)__builtin_ctzll(d);
        memset(mem->heaplog + at, 0, LOG_CHUNK * sizeof *mem->heaplog);
        memcpy(mem->heap + at, pattern + at, LOG_CHUNK);
    }
    mem->dirty = 0;
    mem->stacktop = 0;
    mem->alloca_total = 0;
    uint32_t nf = mem->m->nfuncs, ne = mem->m->nexterns;
    mem->objs = grow(mem->objs, &mem->capobjs, nf + ne + 1, sizeof *mem->objs);
    memset(&mem->objs[0], 0, sizeof mem->objs[0]);
    for (uint32_t i = 0; i < nf; i++)
        mem->objs[i + 1] = (MemObject){SYMBOL_REGION + 16 * (uint64_t)i, 0, 0, OBJ_SYMBOL, i, NO_GATE};
    for (uint32_t i = 0; i < ne; i++) /* externs: SYMBOL literal SYM_EXTERN | i */
        mem->objs[nf + 1 + i] = (MemObject){SYMBOL_REGION + 16 * (uint64_t)(SYM_EXTERN | i), 0, 0, OBJ_SYMBOL,
                                            SYM_EXTERN | i, NO_GATE};
    mem->nobjs = nf + ne + 1;
    mem->serial = 0;
    mem->insts = grow(mem->insts, &mem->capinsts, 1, sizeof *mem->insts);
    mem->insts[0] = (Instance){0, 0, 0, NO_GATE, 0, 0};
    mem->ninsts = 1;
    mem->njoins = 1; /* no join yet: mem_ordered takes the single-chain walk */
    mem->readers = grow(mem->readers, &mem->capreaders, 1, sizeof *mem->readers);
    mem->readers[0] = (ReaderNode){0, 0};
    mem->nreaders = 1;
}

const uint8_t *mem_heap(const Mem *mem) { return mem->heap; }

Val mem_symbol(const Mem *mem, uint32_t func)
{
    if (sym_is_extern(func))
        return (Val){SYMBOL_REGION + 16 * (uint64_t)func, mem->m->nfuncs + 1 + (func & ~SYM_EXTERN)};
    return (Val){SYMBOL_REGION + 16 * (uint64_t)func, func + 1};
}

int mem_callee_runtime(const Mem *mem, Val callee)
{
    uint32_t nf = mem->m->nfuncs;
    if (callee.prov <= nf || callee.prov > nf + mem->m->nexterns || callee.bits != mem->objs[callee.prov].base)
        return -1;
    return (int)mem->m->externs[callee.prov - nf - 1].rt;
}

Val mem_arg_value(const Mem *mem, uint64_t bits)
{
    uint64_t rel = bits - SYMBOL_REGION;
    if (bits >= SYMBOL_REGION && rel % 16 == 0 && rel / 16 < mem->m->nfuncs)
        return (Val){bits, (uint32_t)(rel / 16) + 1};
    return (Val){bits, 0};
}

int mem_callee(const Mem *mem, Val callee)
{
    if (callee.prov == 0 || callee.prov > mem->m->nfuncs)
        return -1;
    const MemObject *o = &mem->objs[callee.prov];
    return callee.bits == o->base ? (int)o->func : -1;
}

MemAllocaResult mem_alloca(Mem *mem, uint64_t size, uint32_t func, GateId g, Val *out)
{
    if (size > ALLOCA_MAX)
        return MEM_ALLOCA_TOO_BIG;
    uint32_t sz = (uint32_t)size, off = mem->stacktop;
    uint32_t top = off + ((sz + 15u) & ~15u);
    if (top > STACK_LIMIT)
        return MEM_STACK_EXHAUSTED;
    mem->alloca_total += top - off;
    if (top > mem->stackcap) {
        uint32_t cap = mem->stackcap;
        mem->stack = grow(mem->stack, &cap, top, 1);
        cap = mem->stackcap;
        mem->stacklog = grow(mem->stacklog, &cap, top, sizeof *mem->stacklog);
        mem->stackcap = cap;
    }
    if (top > off) {
        memset(mem->stack + off, 0, top - off);
        memset(mem->stacklog + off, 0, (top - off) * sizeof *mem->stacklog);
    }
    mem->stacktop = top;
    mem->objs = grow(mem->objs, &mem->capobjs, mem->nobjs + 1, sizeof *mem->objs);
    uint64_t base = ALLOCA_REGION + (++mem->serial << 24);
    mem->objs[mem->nobjs] = (MemObject){base, sz, off, OBJ_ALLOCA, func, g};
    *out = (Val){base, mem->nobjs++};
    return MEM_ALLOCA_OK;
}

uint64_t mem_alloca_total(const Mem *mem) { return mem->alloca_total; }

/* a mark packs the object count; the stack top is recovered from the objects */
uint32_t mem_mark(const Mem *mem) { return mem->nobjs; }

void mem_release(Mem *mem, uint32_t mark)
{
    if (mark >= mem->nobjs)
        return;
    mem->stacktop = mem->objs[mark].kind == OBJ_ALLOCA ? mem->objs[mark].off : mem->stacktop;
    mem->nobjs = mark;
}

void mem_describe(const Mem *mem, uint32_t prov, char *buf, size_t n)
{
    if (prov == 0 || prov >= mem->nobjs) {
        snprintf(buf, n, "a dead object");
        return;
    }
    const MemObject *o = &mem->objs[prov];
    if (o->kind == OBJ_SYMBOL && sym_is_extern(o->func)) {
        snprintf(buf, n, "SYMBOL @%s", module_symbol_name(mem->m, o->func));
        return;
    }
    const Func *f = mem->m->funcs[o->func];
    if (o->kind == OBJ_SYMBOL) {
        snprintf(buf, n, "SYMBOL @%s", f->name);
    } else {
        char l[64];
        snprintf(buf, n, "ALLOCA %s", gate_label(f, o->gate, l, sizeof l));
    }
}

/* ---- effect instances and happens-before ------------------------------------- */
uint32_t mem_instance(Mem *mem, uint32_t pred, uint32_t call, uint32_t func, GateId g)
{
    if (pred >= mem->ninsts) /* only in unverified circuits: a non-dependency as dependency */
        pred = 0;
    if (call >= mem->ninsts)
        call = 0;
    mem->insts = grow(mem->insts, &mem->capinsts, mem->ninsts + 1, sizeof *mem->insts);
    mem->insts[mem->ninsts] = (Instance){pred, call, func, g, 0, 0};
    return mem->ninsts++;
}

uint32_t mem_join(Mem *mem, const uint32_t *preds, uint32_t n, uint32_t call, uint32_t func, GateId g)
{
    uint32_t first = n ? preds[0] : 0, distinct = 0;
    for (uint32_t i = 1; i < n; i++)
        distinct += preds[i] != first;
    if (!distinct)
        return first;
    uint32_t inst = mem_instance(mem, first, call, func, g);
    mem->joins = grow(mem->joins, &mem->capjoins, mem->njoins + n, sizeof *mem->joins);
    mem->insts[inst].join = mem->njoins;
    mem->joins[mem->njoins++] = n - 1;
    for (uint32_t i = 1; i < n; i++)
        mem->joins[mem->njoins++] = preds[i] < inst ? preds[i] : 0;
    return inst;
}

/* is x one of before, call(before), call(call(before)), ...? */
static bool in_call_chain(const Mem *mem, uint32_t before, uint32_t x)
{
    for (uint32_t c = before; c >= x && c; c = mem->insts[c].call)
        if (c == x)
            return true;
    return false;
}

/* mem_ordered once a DEPEND_AND has joined chains: a depth-first walk from after
 * through every predecessor, each instance once, pruned below the outermost call
 * of before (numbers only decrease along the walk) */
static bool ordered_through_joins(Mem *mem, uint32_t before, uint32_t after)
{
    uint32_t floor = before;
    while (mem->insts[floor].call)
        floor = mem->insts[floor].call;
    if (++mem->query == 0) { /* the marks wrapped: none may look current */
        for (uint32_t i = 0; i < mem->ninsts; i++)
            mem->insts[i].seen = 0;
        mem->query = 1;
    }
    uint32_t q = mem->query, n = 0;
    mem->walk = grow(mem->walk, &mem->capwalk, 1, sizeof *mem->walk);
    mem->walk[n++] = after;
    while (n) {
        uint32_t x = mem->walk[--n];
        if (x < floor || mem->insts[x].seen == q)
            continue;
        if (in_call_chain(mem, before, x))
            return true;
        const Instance *in = &mem->insts[x];
        mem->insts[x].seen = q;
        uint32_t more = in->join ? mem->joins[in->join] : 0;
        mem->walk = grow(mem->walk, &mem->capwalk, n + 1 + more, sizeof *mem->walk);
        mem->walk[n++] = in->pred;
        for (uint32_t i = 0; i < more; i++)
            mem->walk[n++] = mem->joins[in->join + 1 + i];
    }
    return false;
}

bool mem_ordered(Mem *mem, uint32_t before, uint32_t after)
{
    if (before == 0 || before == after)
        return true;
    if (mem->njoins > 1)
        return ordered_through_joins(mem, before, after);
    /* is one of before, call(before), call(call(before)), ... an ancestor of after?
     * Both chains have strictly decreasing numbers (a CALL's instance precedes its
     * callee's, a dependency precedes its user), so walk them like a merge. */
    uint32_t c = before, x = after;
    while (c && x) {
        if (x == c)
            return true;
        if (x > c)
            x = mem->insts[x].pred;
        else
            c = mem->insts[c].call;
    }
    return false;
}

/* ---- accesses ---------------------------------------------------------------- */
static const char *inst_label(const Mem *mem, uint32_t inst, char *buf, size_t n)
{
    const Instance *in = &mem->insts[inst];
    const Func *f = mem->m->funcs[in->func];
    char l[64];
    const Gate *g = circ_gate(f->circ, in->gate);
    snprintf(buf, n, "%s %s in @%s", op_info[g->op].name, gate_label(f, in->gate, l, sizeof l), f->name);
    return buf;
}

static bool racy(const Mem *mem, uint32_t a, uint32_t b, uint64_t addr, char *why, size_t n)
{
    char la[100], lb[100];
    snprintf(why, n, "racy: %s and %s touch byte 0x%llx unordered", inst_label(mem, a, la, sizeof la),
             inst_label(mem, b, lb, sizeof lb), (unsigned long long)addr);
    return false;
}

static uint32_t reader_node(Mem *mem, uint32_t inst, uint32_t next)
{
    mem->readers = grow(mem->readers, &mem->capreaders, mem->nreaders + 1, sizeof *mem->readers);
    mem->readers[mem->nreaders] = (ReaderNode){inst, next};
    return mem->nreaders++;
}

/* instances known to happen before the current access (its bytes share histories) */
typedef struct { uint32_t inst, n, known[6]; } OrderCache;

static bool ordered(Mem *mem, OrderCache *oc, uint32_t before)
{
    for (uint32_t i = 0; i < oc->n; i++)
        if (oc->known[i] == before)
            return true;
    if (!mem_ordered(mem, before, oc->inst))
        return false;
    oc->known[oc->n < 6 ? oc->n++ : 5] = before;
    return true;
}

static bool log_read(Mem *mem, ByteLog *b, OrderCache *oc, uint64_t addr, char *why, size_t n)
{
    uint32_t inst = oc->inst;
    if (b->reader == inst)
        return true;
    if (b->reader && ordered(mem, oc, b->reader)) {
        b->reader = inst; /* a later write must follow inst, hence the old reader too */
        return true;
    }
    if (!ordered(mem, oc, b->writer))
        return racy(mem, b->writer, inst, addr, why, n);
    if (b->reader)
        b->more = reader_node(mem, b->reader, b->more);
    b->reader = inst;
    return true;
}

static bool log_write(Mem *mem, ByteLog *b, OrderCache *oc, uint64_t addr, char *why, size_t n)
{
    uint32_t first = b->reader ? b->reader : b->writer;
    if (!ordered(mem, oc, first))
        return racy(mem, first, oc->inst, addr, why, n);
    for (uint32_t r = b->more; r; r = mem->readers[r].next)
        if (!ordered(mem, oc, mem->readers[r].inst))
            return racy(mem, mem->readers[r].inst, oc->inst, addr, why, n);
    *b = (ByteLog){oc->inst, 0, 0};
    return true;
}

/* find the bytes of an access: false (with why) if out of bounds or not memory */
static bool locate(Mem *mem, Val addr, uint32_t size, const char *what, uint8_t **bytes,
                   ByteLog **log, char *why, size_t n)
{
    if (addr.prov == 0) {
        uint64_t off = addr.bits - HEAP_ADDR;
        if (addr.bits >= HEAP_ADDR && off <= HEAP_SIZE - size) {
            *bytes = mem->heap + off;
            *log = mem->heaplog + off;
            mem->dirty |= 1ull << (off / LOG_CHUNK) | 1ull << ((off + size - 1) / LOG_CHUNK);
            return true;
        }
        snprintf(why, n, "%s of %u bytes at 0x%llx: not in the harness buffer or any object", what, size,
                 (unsigned long long)addr.bits);
        return false;
    }
    char d[100];
    if (addr.prov >= mem->nobjs || mem->objs[addr.prov].kind != OBJ_ALLOCA) {
        mem_describe(mem, addr.prov, d, sizeof d);
        snprintf(why, n, "%s of %u bytes through the address of %s", what, size, d);
        return false;
    }
    const MemObject *o = &mem->objs[addr.prov];
    uint64_t off = addr.bits - o->base;
    if (size > o->size || off > o->size - size) {
        mem_describe(mem, addr.prov, d, sizeof d);
        snprintf(why, n, "%s of %u bytes at offset %lld out of bounds of %s (%u bytes)", what, size,
                 (long long)off, d, o->size);
        return false;
    }
    *bytes = mem->stack + o->off + off;
    *log = mem->stacklog + o->off + off;
    return true;
}

bool mem_load(Mem *mem, Val addr, uint32_t size, uint32_t inst, uint64_t *bits, char *why, size_t n)
{
    uint8_t *p;
    ByteLog *log;
    if (!locate(mem, addr, size, "load", &p, &log, why, n))
        return false;
    uint64_t v = 0;
    OrderCache oc = {inst, 0, {0}};
    for (uint32_t i = 0; i < size; i++) {
        if (!log_read(mem, &log[i], &oc, addr.bits + i, why, n))
            return false;
        v |= (uint64_t)p[i] << (8 * i);
    }
    *bits = v;
    return true;
}

bool mem_store(Mem *mem, Val addr, uint32_t size, uint64_t bits, uint32_t inst, char *why, size_t n)
{
    uint8_t *p;
    ByteLog *log;
    if (!locate(mem, addr, size, "store", &p, &log, why, n))
        return false;
    OrderCache oc = {inst, 0, {0}};
    for (uint32_t i = 0; i < size; i++)
        if (!log_write(mem, &log[i], &oc, addr.bits + i, why, n))
            return false;
    for (uint32_t i = 0; i < size; i++)
        p[i] = (uint8_t)(bits >> (8 * i));
    return true;
}

/* ---- pure gates with provenance ---------------------------------------------- */
static int escapes(const Val *in, uint32_t nin, uint32_t *bad)
{
    for (uint32_t i = 0; i < nin; i++)
        if (in[i].prov) {
            *bad = i;
            return VAL_ESCAPES;
        }
    return EVAL_OK;
}

/* which operations may see an address, and what provenance their result has */
static int address_rule(int op, const Val *in, uint32_t nin, uint32_t *prov, uint32_t *bad)
{
    uint32_t pa = in[0].prov, pb = nin > 1 ? in[1].prov : 0;
    *prov = 0;
    if (!pa && !pb)
        return EVAL_OK;
    if (op == OP_ADD && (!pa || !pb)) {
        *prov = pa ? pa : pb;
        return EVAL_OK;
    }
    if (op == OP_SUB && pa && !pb) {
        *prov = pa;
        return EVAL_OK;
    }
    if ((op == OP_SUB || op == OP_ICMP) && pa && pa == pb)
        return EVAL_OK; /* distance or order within one object: a plain value */
    *bad = pa ? 0 : 1;
    return VAL_ESCAPES;
}

/* SELECT passes the picked operand on, address and all; the condition is no address */
static int select_value(Type ty, const Val *in, Val *out, uint32_t *bad)
{
    if (in[0].prov) {
        *bad = 0;
        return VAL_ESCAPES;
    }
    const uint64_t bits[3] = {in[0].bits, in[1].bits, in[2].bits};
    out->prov = in[0].bits & 1 ? in[1].prov : in[2].prov;
    return eval_pure(OP_SELECT, ty, 0, TY_I1, bits, 3, &out->bits);
}

int val_pure(int op, Type ty, int cond, Type in_ty, const Val *in, uint32_t nin, Val *out, uint32_t *bad)
{
    if (op == OP_SELECT && nin == 3)
        return select_value(ty, in, out, bad);
    uint64_t bits[2] = {in[0].bits, nin > 1 ? in[1].bits : 0};
    if (!in[0].prov && (nin < 2 || !in[1].prov)) { /* no address: any operation may see it */
        out->prov = 0;
        return eval_pure(op, ty, cond, in_ty, bits, nin, &out->bits);
    }
    uint32_t prov = 0;
    int st = (op == OP_ADD || op == OP_SUB || op == OP_ICMP) && nin == 2 ? address_rule(op, in, nin, &prov, bad)
                                                                          : escapes(in, nin, bad);
    if (st != EVAL_OK)
        return st;
    st = eval_pure(op, ty, cond, in_ty, bits, nin, &out->bits);
    out->prov = prov;
    return st;
}
