/* tv_query.c — the refinement query of one function: where the source's outcome is
 * valid and within the loop bound, the target's must have the same kind, trap kind,
 * value and value type, and the same final buffer, for every argument and every
 * initial buffer.  A counterexample is rebuilt as a run line and run through the
 * reference interpreter on both modules; it is reported only if the interpreter
 * confirms the difference (the harness buffer starts as its fixed pattern, so the
 * search for a confirmable counterexample pins the initial buffer to that pattern). */
#include "fuzz/gen.h"
#include "fuzz/tv_internal.h"
#include "oracle/interp.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static Z3_ast neq(Z3_context z, Z3_ast a, Z3_ast b) { return Z3_mk_not(z, Z3_mk_eq(z, a, b)); }

/* the low bits of v (64 bits) are a NaN of the float type with this exponent and
 * fraction width */
static Z3_ast is_nan_bits(TvCtx *t, Z3_ast v, unsigned exp, unsigned frac)
{
    Z3_context z = t->z;
    Z3_ast e = Z3_mk_extract(z, exp + frac - 1, frac, v), f = Z3_mk_extract(z, frac - 1, 0, v);
    return Z3_mk_and(z, 2, (Z3_ast[]){Z3_mk_eq(z, e, tv_bv(t, ~0ull, exp)), neq(z, f, tv_bv(t, 0, frac))});
}

/* both values are NaNs of the source's float type (any NaN equals any NaN) */
static Z3_ast both_nan(TvCtx *t, const TvOut *s, const TvOut *d)
{
    Z3_context z = t->z;
    Z3_ast f32 = Z3_mk_and(z, 3, (Z3_ast[]){Z3_mk_eq(z, s->ty, tv_bv(t, TY_F32, 8)), is_nan_bits(t, s->val, 8, 23),
                                            is_nan_bits(t, d->val, 8, 23)});
    Z3_ast f64 = Z3_mk_and(z, 3, (Z3_ast[]){Z3_mk_eq(z, s->ty, tv_bv(t, TY_F64, 8)), is_nan_bits(t, s->val, 11, 52),
                                            is_nan_bits(t, d->val, 11, 52)});
    return Z3_mk_or(z, 2, (Z3_ast[]){f32, f64});
}

/* src valid and within the bound, tgt within the bound, and the two differ */
static Z3_ast differs(TvCtx *t, const TvOut *s, const TvOut *d)
{
    Z3_context z = t->z;
    Z3_ast kind_is[3] = {Z3_mk_eq(z, s->kind, tv_bv(t, TVK_RETURN, 8)),
                         Z3_mk_eq(z, s->kind, tv_bv(t, TVK_THROW, 8)), NULL};
    Z3_ast has_value = Z3_mk_or(z, 2, kind_is);
    Z3_ast bits_differ = Z3_mk_and(z, 2, (Z3_ast[]){neq(z, s->val, d->val), Z3_mk_not(z, both_nan(t, s, d))});
    Z3_ast value_differs = Z3_mk_or(z, 2, (Z3_ast[]){bits_differ, neq(z, s->ty, d->ty)});
    Z3_ast diff = Z3_mk_or(z, 3, (Z3_ast[]){neq(z, s->kind, d->kind),
                                            Z3_mk_and(z, 2, (Z3_ast[]){has_value, value_differs}),
                                            neq(z, s->mem, d->mem)});
    return Z3_mk_and(z, 4, (Z3_ast[]){neq(z, s->kind, tv_bv(t, TVK_INVALID, 8)),
                                      neq(z, s->kind, tv_bv(t, TVK_BOUND, 8)),
                                      neq(z, d->kind, tv_bv(t, TVK_BOUND, 8)), diff});
}

/* the harness pattern as an array: byte HEAP_ADDR + i is 0xa5 ^ 7i ^ (i >> 8) */
static Z3_ast pattern_array(TvCtx *t)
{
    Z3_context z = t->z;
    Z3_ast a = Z3_mk_bound(z, 0, t->addr);
    Z3_ast i = Z3_mk_bvsub(z, a, tv_bv(t, HEAP_ADDR, 64));
    Z3_ast v = Z3_mk_bvxor(z, tv_bv(t, 0xa5, 64), Z3_mk_bvmul(z, tv_bv(t, 7, 64), i));
    v = Z3_mk_bvxor(z, v, Z3_mk_bvlshr(z, i, tv_bv(t, 8, 64)));
    Z3_symbol name = Z3_mk_string_symbol(z, "a");
    return Z3_mk_lambda(z, 1, &t->addr, &name, Z3_mk_extract(z, 7, 0, v));
}

enum { SIMPLIFY_STEPS = 20000, SIMPLIFY_MB = 512, SOLVER_MB = 1024 };

/* past a limit the simplifier fails: then the term stays as it was */
Z3_ast tv_simplify(TvCtx *t, Z3_ast a)
{
    Z3_ast r = Z3_simplify_ex(t->z, a, t->simp);
    return r && Z3_get_error_code(t->z) == Z3_OK ? r : a;
}

/* errors (resource limits) are read back with Z3_get_error_code: the default
 * handler would end the process */
static void keep_error(Z3_context z, Z3_error_code e)
{
    (void)z;
    (void)e;
}

static void simplifier_init(TvCtx *t)
{
    t->simp = Z3_mk_params(t->z);
    Z3_params_inc_ref(t->z, t->simp);
    Z3_params_set_uint(t->z, t->simp, Z3_mk_string_symbol(t->z, "max_steps"), SIMPLIFY_STEPS);
    Z3_params_set_uint(t->z, t->simp, Z3_mk_string_symbol(t->z, "max_memory"), SIMPLIFY_MB);
}

static void ctx_init(TvCtx *t, const Func *f, const TvOptions *opt)
{
    Z3_config cfg = Z3_mk_config();
    memset(t, 0, sizeof *t);
    t->z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(t->z, keep_error);
    t->opt = *opt;
    t->addr = Z3_mk_bv_sort(t->z, 64);
    t->byte = Z3_mk_bv_sort(t->z, 8);
    t->mem_sort = Z3_mk_array_sort(t->z, t->addr, t->byte);
    t->init_mem = Z3_mk_const(t->z, Z3_mk_string_symbol(t->z, "buffer"), t->mem_sort);
    simplifier_init(t);
    t->defs = Z3_mk_true(t->z);
    t->nargs = f->nparams;
    for (uint32_t i = 0; i < t->nargs; i++) {
        char name[16];
        snprintf(name, sizeof name, "arg%u", i);
        t->args[i] = Z3_mk_const(t->z, Z3_mk_string_symbol(t->z, name),
                                 Z3_mk_bv_sort(t->z, (unsigned)ty_bits(f->params[i])));
    }
}

static Z3_solver solver_new(TvCtx *t)
{
    Z3_solver s = Z3_mk_simple_solver(t->z);
    Z3_solver_inc_ref(t->z, s);
    Z3_params p = Z3_mk_params(t->z);
    Z3_params_inc_ref(t->z, p);
    Z3_params_set_uint(t->z, p, Z3_mk_string_symbol(t->z, "timeout"), t->opt.timeout_ms);
    Z3_params_set_uint(t->z, p, Z3_mk_string_symbol(t->z, "max_memory"), SOLVER_MB);
    Z3_solver_set_params(t->z, s, p);
    Z3_params_dec_ref(t->z, p);
    return s;
}

/* the arguments of the model (0 where the model leaves one free) */
static void model_args(TvCtx *t, Z3_model m, uint64_t *args)
{
    for (uint32_t i = 0; i < t->nargs; i++) {
        Z3_ast v;
        uint64_t bits = 0;
        if (Z3_model_eval(t->z, m, t->args[i], true, &v))
            Z3_get_numeral_uint64(t->z, v, &bits);
        args[i] = bits;
    }
}

/* what the checking process reports: the result and, when sat, the model's arguments */
typedef struct {
    int32_t result; /* Z3_lbool */
    int32_t error;  /* Z3_error_code */
    uint64_t args[FUNC_MAX_PARAMS];
} CheckReply;

static void check_child(TvCtx *t, Z3_solver s, int fd)
{
    CheckReply rep = {.result = Z3_solver_check(t->z, s)};
    rep.error = Z3_get_error_code(t->z);
    if (rep.result == Z3_L_TRUE && rep.error == Z3_OK) {
        Z3_model m = Z3_solver_get_model(t->z, s);
        Z3_model_inc_ref(t->z, m);
        model_args(t, m, rep.args);
    }
    const char *p = (const char *)&rep;
    for (size_t left = sizeof rep; left;) {
        ssize_t k = write(fd, p, left);
        if (k <= 0)
            break;
        p += k, left -= (size_t)k;
    }
    _exit(0);
}

/* read the child's reply until the deadline (CLOCK_MONOTONIC ns); false if it did not
 * come whole */
static bool read_reply(int fd, int64_t deadline, CheckReply *rep)
{
    size_t have = 0;
    while (have < sizeof *rep) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        int64_t left_ms = (deadline - ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec)) / 1000000;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int n = left_ms > 0 ? poll(&pf, 1, (int)left_ms) : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        ssize_t k = read(fd, (char *)rep + have, sizeof *rep - have);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        have += (size_t)k;
    }
    return true;
}

/* Z3_solver_check in a forked process, killed 250 ms after the timeout: Z3's own
 * timeout and Z3_interrupt are not honoured everywhere (bit-blasting float formulas
 * and some rewrites ran on for minutes and gigabytes), and a killed process frees
 * everything.  Sat: the model's arguments in args.  Unknown if the process could not
 * start, died or was killed; a Z3 error is kept in *error. */
static Z3_lbool check_bounded(TvCtx *t, Z3_solver s, uint64_t *args, Z3_error_code *error)
{
    int fd[2];
    *error = Z3_OK;
    if (pipe(fd))
        return Z3_L_UNDEF;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives a checker that was killed */
        if (getppid() != parent)
            _exit(0);
        close(fd[0]);
        check_child(t, s, fd[1]);
    }
    close(fd[1]);
    CheckReply *rep = malloc(sizeof *rep);
    if (!rep)
        abort();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t deadline = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + ((int64_t)t->opt.timeout_ms + 250) * 1000000;
    bool got = pid > 0 && read_reply(fd[0], deadline, rep);
    if (pid > 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    close(fd[0]);
    Z3_lbool r = got ? (Z3_lbool)rep->result : Z3_L_UNDEF;
    if (got) {
        *error = (Z3_error_code)rep->error;
        memcpy(args, rep->args, t->nargs * sizeof *args);
    }
    free(rep);
    return r;
}

static void format_runline(const Module *m, uint32_t fi, const uint64_t *args, const Outcome *o, char *buf, size_t n)
{
    RunArg ra[FUNC_MAX_PARAMS];
    const Func *f = m->funcs[fi];
    RunLine r = {.func = fi, .args = ra, .nargs = f->nparams};
    for (uint32_t i = 0; i < r.nargs; i++)
        ra[i] = (RunArg){ty_is_float(f->params[i])                        ? RA_FLOAT
                         : args[i] == HEAP_ADDR && f->params[i] == TY_I64 ? RA_HEAP
                                                                          : RA_INT,
                         args[i]};
    gen_expect_from_outcome(o, &r.expect);
    FILE *out = fmemopen(buf, n, "w");
    if (!out) {
        snprintf(buf, n, "(no memory for the run line)");
        return;
    }
    print_runline(out, m, &r);
    fclose(out);
    buf[strcspn(buf, "\n")] = '\0';
}

/* run the counterexample through the interpreter on both modules */
static void confirm(const Module *src, const Module *tgt, uint32_t fi, const uint64_t *args, bool abstracted,
                    TvVerdict *v)
{
    Outcome *o = malloc(2 * sizeof *o);
    if (!o)
        abort();
    interp_run(src, fi, args, NULL, &o[0]);
    interp_run(tgt, fi, args, NULL, &o[1]);
    char line[300], why[200] = "", got[200];
    format_runline(src, fi, args, &o[0], line, sizeof line);
    outcome_format(got, sizeof got, &o[1]);
    bool src_ok = o[0].kind != OUT_INVALID && o[0].kind != OUT_TIMEOUT;
    if (src_ok && !outcome_equal(&o[0], &o[1], why, sizeof why)) {
        v->kind = TV_REFUTED;
        snprintf(v->detail, sizeof v->detail, "%s (after the pass: %s; %s)", line, got, why);
    } else if (abstracted) {
        v->kind = TV_UNKNOWN;
        v->reason = TVR_FEXP;
        snprintf(v->detail, sizeof v->detail, "%s: a difference only under the abstraction of FEXP as an "
                 "uninterpreted function (the interpreter shows none)", line);
    } else {
        v->kind = TV_UNCONFIRMED;
        snprintf(v->detail, sizeof v->detail, "%s: the interpreter %s", line,
                 src_ok ? "shows no difference" : "finds the source run invalid or too long");
    }
    free(o);
}

/* the query found a difference for some buffer (args: the model's arguments): they
 * often show it with the harness pattern too; else look for a counterexample with
 * that pattern */
static void refute(TvCtx *t, const uint64_t *args, Z3_ast query, const Module *src, const Module *tgt, uint32_t fi,
                   TvVerdict *v)
{
    confirm(src, tgt, fi, args, t->abstracted, v);
    if (v->kind == TV_REFUTED)
        return;
    /* the pattern substituted for the buffer: reads of it become terms of the address */
    Z3_ast pattern = pattern_array(t);
    Z3_solver pinned = solver_new(t);
    Z3_solver_assert(t->z, pinned, Z3_substitute(t->z, query, 1, &t->init_mem, &pattern));
    uint64_t pinned_args[FUNC_MAX_PARAMS];
    Z3_error_code error;
    Z3_lbool r = check_bounded(t, pinned, pinned_args, &error);
    if (r == Z3_L_TRUE)
        confirm(src, tgt, fi, pinned_args, t->abstracted, v);
    Z3_solver_dec_ref(t->z, pinned);
    if (r == Z3_L_TRUE)
        return;
    v->kind = TV_UNKNOWN;
    v->reason = r == Z3_L_FALSE ? TVR_BUFFER : TVR_TIMEOUT;
    snprintf(v->detail, sizeof v->detail, "%s",
             r == Z3_L_FALSE ? "the outcomes differ only for initial buffer contents other than the harness "
                               "pattern (no run line can show it)"
                             : "solver timeout looking for a counterexample with the harness buffer");
}

static bool same_outcome(TvCtx *t, const TvOut *a, const TvOut *b)
{
    return Z3_is_eq_ast(t->z, a->kind, b->kind) && Z3_is_eq_ast(t->z, a->val, b->val) &&
           Z3_is_eq_ast(t->z, a->ty, b->ty) && Z3_is_eq_ast(t->z, a->mem, b->mem);
}

static void decide(TvCtx *t, const TvOut *so, const TvOut *to, const Module *src, const Module *tgt,
                   uint32_t fi, TvVerdict *v)
{
    /* the terms are hash-consed: often the two outcomes are the same term */
    Z3_ast query = Z3_mk_and(t->z, 2, (Z3_ast[]){t->defs, differs(t, so, to)});
    if (same_outcome(t, so, to)) {
        v->kind = t->hit_bound ? TV_PROVED_UPTO : TV_PROVED;
        return;
    }
    Z3_solver s = solver_new(t);
    Z3_solver_assert(t->z, s, query);
    uint64_t args[FUNC_MAX_PARAMS];
    Z3_error_code error;
    Z3_lbool r = check_bounded(t, s, args, &error);
    if (error != Z3_OK) {
        v->kind = TV_UNKNOWN;
        v->reason = TVR_SOLVER_ERROR;
        snprintf(v->detail, sizeof v->detail, "solver error: %s", Z3_get_error_msg(t->z, error));
    } else if (r == Z3_L_FALSE)
        v->kind = t->hit_bound ? TV_PROVED_UPTO : TV_PROVED;
    else if (r == Z3_L_TRUE)
        refute(t, args, query, src, tgt, fi, v);
    else {
        v->kind = TV_UNKNOWN;
        v->reason = TVR_TIMEOUT;
        snprintf(v->detail, sizeof v->detail, "solver timeout (%u ms)", t->opt.timeout_ms);
    }
    Z3_solver_dec_ref(t->z, s);
}

static TvOptions defaults(const TvOptions *opt)
{
    TvOptions o = opt ? *opt : (TvOptions){0};
    o.unroll = o.unroll ? o.unroll : 4;
    o.timeout_ms = o.timeout_ms ? o.timeout_ms : 2000;
    o.max_paths = o.max_paths ? o.max_paths : 512;
    return o;
}

void tv_check_func(const Module *src, const Module *tgt, uint32_t fi, const TvOptions *opt, TvVerdict *v)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(v, 0, sizeof *v);
    TvOptions o = defaults(opt);
    TvCtx *t = malloc(sizeof *t);
    if (!t)
        abort();
    ctx_init(t, src->funcs[fi], &o);
    TvOut so, to;
    if (tv_encode_func(t, src->funcs[fi], &so) && tv_encode_func(t, tgt->funcs[fi], &to))
        decide(t, &so, &to, src, tgt, fi, v);
    else {
        v->kind = TV_UNKNOWN;
        v->reason = t->why;
        snprintf(v->detail, sizeof v->detail, "%s", t->reason);
    }
    Z3_params_dec_ref(t->z, t->simp);
    Z3_del_context(t->z);
    free(t);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    v->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

bool tv_available(void) { return true; }
