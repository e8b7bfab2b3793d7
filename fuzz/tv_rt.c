/* tv_rt.c — calls of circ's runtime (docs/runtime.md) in the symbolic executor, exactly
 * as oracle/runtime.c runs them: rt_mix64 as bit-vector operations (the splitmix64
 * finalizer of runtime/circ_rt_core.h); rt_scramble on the memory model, its
 * k = n & 63 bytes read, folded and written back (when k is not a constant, all 63
 * bytes it may touch, each guarded by i < k); rt_check's throw of x where x >u limit
 * (to the nearest INVOKE, or out of the run); rt_apply's callback f(x) inlined like a
 * call of f.  The integer operands must be plain integers: the runtime computes with
 * an address's numeric value, which the model does not fix (unsupported). */
#include "fuzz/tv_path.h"
#include "oracle/runtime.h"

/* value as a defined constant (tv_define), the same one for the same term, so that
 * equal operands still give source and target the same outcome term: Z3's rewriter
 * would otherwise expand the products by rt_mix64's constants into their users, and
 * rt_scramble's fold (acc * 31 + byte, 63 times) into a sum of products by dense
 * constants (31^i), which the solver then bit-blasts for seconds */
static Z3_ast define_shared(TvCtx *t, Z3_ast value)
{
    if (Z3_is_numeral_ast(t->z, value))
        return value;
    for (uint32_t i = 0; i < t->nshared; i++)
        if (Z3_is_eq_ast(t->z, t->shared[i][0], value))
            return t->shared[i][1];
    Z3_ast c = tv_define(t, value);
    if (t->nshared < sizeof t->shared / sizeof t->shared[0]) {
        t->shared[t->nshared][0] = value;
        t->shared[t->nshared++][1] = c;
    }
    return c;
}

/* z ^ (z >> k) */
static Z3_ast xor_shr(TvCtx *t, Z3_ast v, unsigned k)
{
    return Z3_mk_bvxor(t->z, v, Z3_mk_bvlshr(t->z, v, tv_bv(t, k, 64)));
}

/* rt_mix64(x), as circ_rt_core_mix64 */
static Z3_ast mix64(TvCtx *t, Z3_ast x)
{
    Z3_context z = t->z;
    Z3_ast v = Z3_mk_bvadd(z, x, tv_bv(t, 0x9e3779b97f4a7c15ull, 64));
    v = Z3_mk_bvmul(z, xor_shr(t, v, 30), tv_bv(t, 0xbf58476d1ce4e5b9ull, 64));
    v = Z3_mk_bvmul(z, xor_shr(t, v, 27), tv_bv(t, 0x94d049bb133111ebull, 64));
    return define_shared(t, tv_simplify(t, xor_shr(t, v, 31)));
}

/* operand i (after the callee) of call G */
static Z3_ast operand(const Path *p, const Gate *G, uint32_t i) { return p->fr->val[gate_data(G, i + 1)]; }

/* the k bytes at addr (an offset into object o, or a buffer address when o is NULL)
 * may be touched: k <= 63 */
static Z3_ast range_ok(Path *p, const Object *o, Z3_ast addr, Z3_ast k)
{
    TvCtx *t = p->t;
    Z3_context z = t->z;
    if (!o) {
        Z3_ast off = Z3_mk_bvsub(z, addr, tv_bv(t, HEAP_ADDR, 64));
        return Z3_mk_bvule(z, off, Z3_mk_bvsub(z, tv_bv(t, HEAP_SIZE, 64), k));
    }
    if (o->func != TVO_ALLOCA)
        return Z3_mk_false(z);
    Z3_ast n = tv_bv(t, o->size, 64);
    return Z3_mk_and(z, 2, (Z3_ast[]){Z3_mk_bvule(z, k, n), Z3_mk_bvule(z, addr, Z3_mk_bvsub(z, n, k))});
}

/* byte i of the scramble: reads b from old, folds it into *acc, writes it back xored
 * with the low byte of rt_mix64(seed + i); on (NULL: always) says whether i < k */
static void scramble_byte(Path *p, Z3_ast *mem, Z3_ast old, Z3_ast addr, Z3_ast seed, unsigned i, Z3_ast on, Z3_ast *acc)
{
    TvCtx *t = p->t;
    Z3_context z = t->z;
    Z3_ast a = Z3_mk_bvadd(z, addr, tv_bv(t, i, 64)), b = Z3_mk_select(z, old, a);
    Z3_ast folded = Z3_mk_bvadd(z, Z3_mk_bvmul(z, *acc, tv_bv(t, 31, 64)), Z3_mk_zero_ext(z, 56, b));
    Z3_ast nb = Z3_mk_bvxor(z, b, Z3_mk_extract(z, 7, 0, mix64(t, Z3_mk_bvadd(z, seed, tv_bv(t, i, 64)))));
    *acc = define_shared(t, on ? Z3_mk_ite(z, on, folded, *acc) : folded);
    *mem = Z3_mk_store(z, *mem, a, on ? Z3_mk_ite(z, on, nb, b) : nb);
}

/* how many bytes the scramble may touch at most: k itself when it is a constant (*known),
 * else what its leading zero bits leave (the simplifier writes n & 7 as a concat of
 * zeros and the low bits), at most 63 */
static uint64_t scramble_bound(TvCtx *t, Z3_ast k, bool *known)
{
    Z3_context z = t->z;
    uint64_t n = RT_SCRAMBLE_MASK, zeros = 0;
    *known = Z3_get_numeral_uint64(z, k, &n);
    if (*known || Z3_get_ast_kind(z, k) != Z3_APP_AST)
        return n;
    Z3_app a = Z3_to_app(z, k);
    if (Z3_get_decl_kind(z, Z3_get_app_decl(z, a)) != Z3_OP_CONCAT || Z3_get_app_num_args(z, a) < 2)
        return n;
    Z3_ast hi = Z3_get_app_arg(z, a, 0);
    if (!Z3_get_numeral_uint64(z, hi, &zeros) || zeros != 0)
        return n;
    unsigned low = 64 - Z3_get_bv_sort_size(z, Z3_get_sort(z, hi));
    return low < 6 ? (1u << low) - 1 : n;
}

/* rt_scramble(p, n, seed): invalid where k > 0 and the bytes are not all inside the
 * buffer or p's ALLOCA; the result acc + k */
static bool scramble(Path *p, const Gate *G, Z3_ast *ret)
{
    TvCtx *t = p->t;
    Z3_context z = t->z;
    uint32_t obj = p->fr->prov[gate_data(G, 1)];
    Object *o = obj ? &p->objects[obj - 1] : NULL;
    Z3_ast addr = operand(p, G, 0), seed = operand(p, G, 2);
    Z3_ast k = tv_simplify(t, Z3_mk_bvand(z, operand(p, G, 1), tv_bv(t, RT_SCRAMBLE_MASK, 64)));
    Z3_ast some = Z3_mk_not(z, Z3_mk_eq(z, k, tv_bv(t, 0, 64)));
    if (!tv_exit_if(p, Z3_mk_and(z, 2, (Z3_ast[]){some, Z3_mk_not(z, range_ok(p, o, addr, k))}), TVK_INVALID))
        return false;
    bool known;
    uint64_t kc = scramble_bound(t, k, &known);
    Z3_ast *mem = o ? &o->bytes : &p->mem, old = *mem, acc = tv_bv(t, 0, 64);
    for (unsigned i = 0; i < kc; i++)
        scramble_byte(p, mem, old, addr, seed, i, known ? NULL : Z3_mk_bvult(z, tv_bv(t, i, 64), k), &acc);
    *ret = define_shared(t, Z3_mk_bvadd(z, acc, k));
    return true;
}

/* rt_apply(f, x): f must be the address (offset 0) of a module function (i64) -> i64 */
static bool apply(Path *p, const Gate *G, Z3_ast *ret)
{
    uint32_t cp = p->fr->prov[gate_data(G, 1)];
    if (!cp || p->objects[cp - 1].func < 0)
        return tv_end_path(p, TVK_INVALID);
    Z3_ast off = operand(p, G, 0), x = operand(p, G, 1);
    if (!tv_exit_if(p, Z3_mk_not(p->t->z, Z3_mk_eq(p->t->z, off, tv_bv(p->t, 0, 64))), TVK_INVALID))
        return false;
    const Func *cf = p->m->funcs[p->objects[cp - 1].func];
    if (cf->nparams != 1 || cf->params[0] != TY_I64 || cf->ret != TY_I64)
        return tv_end_path(p, TVK_INVALID);
    uint32_t plain = 0;
    if (!tv_run_callee(p, cf, &x, &plain))
        return false;
    *ret = p->ret;
    return true;
}

/* the signature matches fn's (else the run is invalid), and the operands that the
 * runtime reads as integers are plain */
static bool runtime_operands(Path *p, const Gate *G, RuntimeFn fn)
{
    Type types[3];
    uint32_t n = G->ndata - 1;
    if (n > 3)
        return tv_end_path(p, TVK_INVALID);
    for (uint32_t i = 0; i < n; i++)
        types[i] = (Type)circ_gate(p->fr->s->c, gate_data(G, i + 1))->type;
    if (!rt_call_matches(fn, types, n, (Type)G->type))
        return tv_end_path(p, TVK_INVALID);
    uint32_t first = fn == RT_rt_scramble || fn == RT_rt_apply; /* a pointer, a function */
    for (uint32_t i = first; i < n; i++)
        if (p->fr->prov[gate_data(G, i + 1)])
            return tv_give_up(p, "unsupported construct: an address as an integer operand of %s",
                              runtime_info[fn].name);
    return true;
}

bool tv_runtime_call(Path *p, const Gate *G, RuntimeFn fn, Z3_ast *ret)
{
    if (!runtime_operands(p, G, fn))
        return false;
    switch (fn) {
    case RT_rt_mix64:
        *ret = mix64(p->t, operand(p, G, 0));
        return true;
    case RT_rt_scramble:
        return scramble(p, G, ret);
    case RT_rt_check: /* x, or a throw of x where x >u limit */
        *ret = operand(p, G, 0);
        return tv_throw_if(p, Z3_mk_bvugt(p->t->z, operand(p, G, 0), operand(p, G, 1)), *ret, TY_I64);
    case RT_rt_apply:
        return apply(p, G, ret);
    default:
        return tv_end_path(p, TVK_INVALID);
    }
}
