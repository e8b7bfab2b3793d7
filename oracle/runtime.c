/* runtime.c — the runtime functions' semantics (runtime.h, docs/runtime.md). */
#include "oracle/runtime.h"

uint64_t rt_mix64(uint64_t x) { return circ_rt_core_mix64(x); }

/* rt_scramble(p, n, seed): the n & 63 bytes at p read, scrambled
 * (circ_rt_core_scramble) and written back */
static bool scramble(const uint64_t *args, const RtHost *h, uint64_t *ret)
{
    uint32_t n = (uint32_t)(args[1] & RT_SCRAMBLE_MASK);
    uint8_t buf[RT_SCRAMBLE_MASK + 1];
    if (n && !h->read(h->ctx, 0, 0, buf, n))
        return false;
    *ret = circ_rt_core_scramble(buf, n, args[2]);
    return !n || h->write(h->ctx, 0, 0, buf, n);
}

bool rt_call_matches(RuntimeFn fn, const Type *args, uint32_t nargs, Type ret)
{
    const RuntimeInfo *ri = &runtime_info[fn];
    if (nargs != ri->nparams || ret != ri->ret)
        return false;
    for (uint32_t i = 0; i < nargs; i++)
        if (args[i] != ri->params[i])
            return false;
    return true;
}

bool rt_call(RuntimeFn fn, const uint64_t *args, const RtHost *h, uint64_t *ret)
{
    switch (fn) {
    case RT_rt_mix64:
        *ret = rt_mix64(args[0]);
        return true;
    case RT_rt_scramble:
        return scramble(args, h, ret);
    case RT_rt_check: /* x, or a throw of x when x is above limit (unsigned) */
        if (args[0] > args[1])
            return h->raise(h->ctx, args[0]);
        *ret = args[0];
        return true;
    case RT_rt_apply: /* f(x): exactly the callee's result */
        return h->call(h->ctx, 0, args[1], ret);
    default:
        return false;
    }
}

/* ---- the interpreters' host ---- */
static bool interp_access(RtInterp *ri, uint32_t arg, uint64_t off, uint8_t *buf, uint32_t n, bool write)
{
    char why[160];
    for (uint32_t i = 0; i < n; i++) {
        Val at = {ri->args[arg].bits + off + i, ri->args[arg].prov};
        uint64_t b = buf[i];
        bool ok = write ? mem_store(ri->mem, at, 1, b, ri->inst, why, sizeof why)
                        : mem_load(ri->mem, at, 1, ri->inst, &b, why, sizeof why);
        if (!ok)
            return ri->invalid(ri->ctx, why);
        buf[i] = (uint8_t)b;
    }
    return true;
}

static bool interp_read(void *ctx, uint32_t arg, uint64_t off, uint8_t *buf, uint32_t n)
{
    return interp_access(ctx, arg, off, buf, n, false);
}

static bool interp_write(void *ctx, uint32_t arg, uint64_t off, const uint8_t *buf, uint32_t n)
{
    return interp_access(ctx, arg, off, (uint8_t *)buf, n, true);
}

static bool interp_callback(void *ctx, uint32_t arg, uint64_t x, uint64_t *ret)
{
    RtInterp *ri = ctx;
    int fidx = mem_callee(ri->mem, ri->args[arg]);
    const Func *cf = fidx >= 0 ? ri->m->funcs[fidx] : NULL;
    if (!cf || cf->nparams != 1 || cf->params[0] != TY_I64 || cf->ret != TY_I64)
        return ri->invalid(ri->ctx, "calls back a value that is not a function (i64) -> i64 of the module");
    return ri->run(ri->ctx, (uint32_t)fidx, x, ret);
}

static bool interp_raise(void *ctx, uint64_t bits)
{
    RtInterp *ri = ctx;
    return ri->thrown(ri->ctx, bits);
}

bool rt_interp_call(RuntimeFn fn, RtInterp *ri, uint64_t *ret)
{
    uint64_t bits[3] = {ri->args[0].bits, ri->args[1].bits, ri->args[2].bits};
    RtHost host = {ri, interp_read, interp_write, interp_callback, interp_raise};
    return rt_call(fn, bits, &host, ret);
}
