/* C11 from circ's scheduled form (circ compile --target c), module /tmp/tri/red.circ */
typedef __UINT8_TYPE__ cu8;
typedef __UINT16_TYPE__ cu16;
typedef __UINT32_TYPE__ cu32;
typedef __UINT64_TYPE__ cu64;
typedef __INT8_TYPE__ ci8;
typedef __INT16_TYPE__ ci16;
typedef __INT32_TYPE__ ci32;
typedef __INT64_TYPE__ ci64;
typedef __UINTPTR_TYPE__ cuptr;
typedef struct { cu64 bits; cu64 flag; } CircCRet; /* a result and the threw flag */
#define CIRC_C_FN static inline __attribute__((unused))
#ifdef __clang__ /* gcc: no contraction in ISO C mode (-std=c11) or with -ffp-contract=off */
#pragma STDC FP_CONTRACT OFF
#endif

/* a trap of kind K (runtime/circ_abi.h): the instruction and its trap-table entry */
#if defined(__x86_64__)
#define CIRC_C_TRAP_INSN "ud2"
#elif defined(__aarch64__)
#define CIRC_C_TRAP_INSN "brk #0x3e8"
#endif
#ifdef CIRC_C_TRAP_INSN
#define CIRC_C_TRAP(K) do { __asm__ volatile("1: " CIRC_C_TRAP_INSN "\n\t.pushsection circ_traps,\"a\"\n\t" \
    ".balign 4\n\t.long 1b - .\n\t.byte " #K ", 0, 0, 0\n\t.popsection" ::: "memory"); __builtin_unreachable(); } while (0)
#else
#define CIRC_C_TRAP(K) __builtin_trap()
#endif

/* bits and floats */
CIRC_C_FN float circ_c_f32(cu32 b) { float f; __builtin_memcpy(&f, &b, 4); return f; }
CIRC_C_FN double circ_c_f64(cu64 b) { double f; __builtin_memcpy(&f, &b, 8); return f; }
CIRC_C_FN cu32 circ_c_b32(float f) { cu32 b; __builtin_memcpy(&b, &f, 4); return b; }
CIRC_C_FN cu64 circ_c_b64(double f) { cu64 b; __builtin_memcpy(&b, &f, 8); return b; }

/* memory: little-endian, any alignment */
#define CIRC_C_MEM(N, T) \
CIRC_C_FN T circ_c_ld##N(cu64 a) { T v; __builtin_memcpy(&v, (const void *)(cuptr)a, sizeof v); return v; } \
CIRC_C_FN void circ_c_st##N(cu64 a, T v) { __builtin_memcpy((void *)(cuptr)a, &v, sizeof v); }
CIRC_C_MEM(u8, cu8) CIRC_C_MEM(u16, cu16) CIRC_C_MEM(u32, cu32) CIRC_C_MEM(u64, cu64)
CIRC_C_MEM(f32, float) CIRC_C_MEM(f64, double)

/* the float operations of one width N (T its type, BIG 2^mantissa bits, SIGN the
 * sign bit, QNAN the canonical NaN's bits) */
#define CIRC_C_FLOAT(N, T, BIG, SIGN, QNAN) \
CIRC_C_FN T circ_c_canon##N(T x) { return x != x ? circ_c_f##N(QNAN) : x; } \
CIRC_C_FN T circ_c_fabs##N(T x) { return circ_c_f##N(circ_c_b##N(x) & ~SIGN); } \
CIRC_C_FN T circ_c_fneg##N(T x) { return circ_c_f##N(circ_c_b##N(x) ^ SIGN); } \
CIRC_C_FN T circ_c_copysign##N(T x, T y) \
{ return circ_c_f##N((circ_c_b##N(x) & ~SIGN) | (circ_c_b##N(y) & SIGN)); } \
CIRC_C_FN T circ_c_nearest##N(T x) \
{ T a = circ_c_fabs##N(x); return a < BIG ? circ_c_copysign##N((a + BIG) - BIG, x) : circ_c_canon##N(x); } \
CIRC_C_FN T circ_c_ftrunc##N(T x) \
{ return circ_c_fabs##N(x) < BIG ? circ_c_copysign##N((T)(ci64)x, x) : circ_c_canon##N(x); } \
CIRC_C_FN T circ_c_floor##N(T x) \
{ T t = circ_c_ftrunc##N(x); return t > x ? circ_c_copysign##N(t - 1, x) : t; } \
CIRC_C_FN T circ_c_ceil##N(T x) \
{ T t = circ_c_ftrunc##N(x); return t < x ? circ_c_copysign##N(t + 1, x) : t; } \
CIRC_C_FN T circ_c_fmin##N(T x, T y) \
{ return x != x || y != y ? circ_c_f##N(QNAN) : x == y ? circ_c_f##N(circ_c_b##N(x) | circ_c_b##N(y)) \
  : x < y ? x : y; } \
CIRC_C_FN T circ_c_fmax##N(T x, T y) \
{ return x != x || y != y ? circ_c_f##N(QNAN) : x == y ? circ_c_f##N(circ_c_b##N(x) & circ_c_b##N(y)) \
  : x > y ? x : y; } \
CIRC_C_FN ci64 circ_c_fptosi##N(T x, ci64 lo, ci64 hi, T lof, T hif) \
{ return x != x ? 0 : x <= lof ? lo : x >= hif ? hi : (ci64)x; } \
CIRC_C_FN cu64 circ_c_fptoui##N(T x, cu64 hi, T hif) \
{ return x != x || x <= 0 ? 0 : x >= hif ? hi : (cu64)x; }
CIRC_C_FLOAT(32, float, 8388608.0f, 0x80000000u, 0x7fc00000u)
CIRC_C_FLOAT(64, double, 4503599627370496.0, 0x8000000000000000ull, 0x7ff8000000000000ull)
CIRC_C_FN float circ_c_sqrt32(float x) { return circ_c_canon32(__builtin_sqrtf(x)); }
CIRC_C_FN double circ_c_sqrt64(double x) { return circ_c_canon64(__builtin_sqrt(x)); }

/* the float helpers of libcirc_rt (C fmod/pow, canonical NaN) */
float circ_rt_fmod_f32(float, float);
double circ_rt_fmod_f64(double, double);
float circ_rt_fexp_f32(float, float);
double circ_rt_fexp_f64(double, double);

/* integer operations on zero-extended values of width w */
CIRC_C_FN cu64 circ_c_mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
CIRC_C_FN cu64 circ_c_exp(cu64 x, cu64 y)
{
  cu64 r = 1;
  for (; y; y >>= 1) {
    r = y & 1 ? r * x : r;
    x *= x;
  }
  return r;
}
CIRC_C_FN cu64 circ_c_rotl(cu64 x, cu64 s, unsigned w)
{ s &= w - 1; return s ? ((x << s) | (x >> (w - s))) & circ_c_mask(w) : x; }
CIRC_C_FN cu64 circ_c_rotr(cu64 x, cu64 s, unsigned w) { return circ_c_rotl(x, (w - (s & (w - 1))) & (w - 1), w); }
CIRC_C_FN cu64 circ_c_clz(cu64 x, unsigned w) { return x ? (cu64)__builtin_clzll(x) - (64 - w) : w; }
CIRC_C_FN cu64 circ_c_ctz(cu64 x, unsigned w) { return x ? (cu64)__builtin_ctzll(x) : w; }
CIRC_C_FN cu64 circ_c_popcnt(cu64 x) /* no libgcc call (__popcountdi2) where there is no popcnt */
{
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (x * 0x0101010101010101ull) >> 56;
}
CIRC_C_FN cu64 circ_c_smulhi64(cu64 x, cu64 y)
{ return (cu64)(((__int128)(ci64)x * (__int128)(ci64)y) >> 64); }
CIRC_C_FN cu64 circ_c_umulhi64(cu64 x, cu64 y)
{ return (cu64)(((unsigned __int128)x * (unsigned __int128)y) >> 64); }

/* the runtime functions (docs/runtime.md), computed here: a result and a threw flag */
CIRC_C_FN cu64 circ_c_mix64(cu64 x)
{ cu64 z = x + 0x9e3779b97f4a7c15ull; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull; return z ^ (z >> 31); }
CIRC_C_FN CircCRet circ_c_rt_mix64(cu64 x) { CircCRet r = {circ_c_mix64(x), 0}; return r; }
CIRC_C_FN CircCRet circ_c_rt_scramble(cu64 p, cu64 n, cu64 seed)
{ cu64 acc = 0, k = n & 63;
  for (cu64 i = 0; i < k; i++) {
    cu8 b = circ_c_ldu8(p + i); acc = acc * 31 + b; circ_c_stu8(p + i, (cu8)(b ^ (cu8)circ_c_mix64(seed + i)));
  }
  CircCRet r = {acc + k, 0}; return r; }
CIRC_C_FN CircCRet circ_c_rt_check(cu64 x, cu64 limit) { CircCRet r = {x, x > limit ? 1u + 5u : 0u}; return r; }

/* a float result with the threw flag as circ's code returns it: the value in the
 * float register, the bits and the flag in the two integer result registers */
#if defined(__x86_64__)
#define CIRC_C_RET_REGS(F) register cu64 circ_c_r0 __asm__("rax") = r.bits; \
    register cu64 circ_c_r1 __asm__("rdx") = r.flag; __asm__ volatile("" : "+x"(F) : "r"(circ_c_r0), "r"(circ_c_r1))
#elif defined(__aarch64__)
#define CIRC_C_RET_REGS(F) register cu64 circ_c_r0 __asm__("x0") = r.bits; \
    register cu64 circ_c_r1 __asm__("x1") = r.flag; __asm__ volatile("" : "+w"(F) : "r"(circ_c_r0), "r"(circ_c_r1))
#else
#define CIRC_C_RET_REGS(F) (void)r
#endif
CIRC_C_FN float circ_c_ret32(CircCRet r) { float f = circ_c_f32((cu32)r.bits); CIRC_C_RET_REGS(f); return f; }
CIRC_C_FN double circ_c_ret64(CircCRet r) { double f = circ_c_f64(r.bits); CIRC_C_RET_REGS(f); return f; }

/* outside a hosted C library (-ffreestanding) the memory functions a compiler may call */
#if !__STDC_HOSTED__
void *memset(void *d, int c, __SIZE_TYPE__ n);
void *memcpy(void *d, const void *s, __SIZE_TYPE__ n);
void *memmove(void *d, const void *s, __SIZE_TYPE__ n);
void *memset(void *d, int c, __SIZE_TYPE__ n) /* aligned words in the middle */
{
  volatile cu8 *p = d;
  cu64 w = 0x0101010101010101ull * (cu8)c;
  for (; n && ((cuptr)p & 7); n--)
    *p++ = (cu8)c;
  for (; n >= 8; n -= 8, p += 8)
    *(volatile cu64 *)p = w;
  for (; n; n--)
    *p++ = (cu8)c;
  return d;
}
void *memmove(void *d, const void *s, __SIZE_TYPE__ n)
{
  volatile cu8 *p = d;
  const volatile cu8 *q = s;
  if ((cuptr)p < (cuptr)q) {
    for (__SIZE_TYPE__ i = 0; i < n; i++)
      p[i] = q[i];
  } else {
    while (n--)
      p[n] = q[n];
  }
  return d;
}
void *memcpy(void *d, const void *s, __SIZE_TYPE__ n) { return memmove(d, s, n); }
#endif

cu64 circ_c_x0(void) __asm__("f0");
static cu64 circ_c_fn0(void);

CIRC_C_FN CircCRet circ_c_rt_apply(cu64 f, cu64 x)
{
    CircCRet r = {0, 0};
    CIRC_C_TRAP(4);
    return r;
}

static cu64 circ_c_fn0(void)
{
    double v8 = 0;
    double v9 = 0;
    double v10 = 0;
    cu64 v11 = 0;
    (void)v8;
    (void)v9;
    (void)v10;
    (void)v11;
    v8 = circ_c_f64(0x3ff0000000000000ull);
    v9 = circ_c_f64(0x8000000000000000ull);
    v10 = v8 / v9;
    v11 = (cu64)(cu64)circ_c_fptosi64(v10, (ci64)-0x7fffffffffffffffll - 1, (ci64)0x7fffffffffffffffll, -0x1p63, 0x1p63);
    return v11;
}

cu64 circ_c_x0(void)
{
    return (cu64)circ_c_fn0();
}
#ifdef CIRC_MODULE_TABLE
#include "circ_rt.h"
static void circ_c_call0(const uint64_t *args, uint64_t *ret)
{
    (void)args;
    cu64 v = circ_c_fn0();
    *ret = (cu64)v;
}
static const CircRtFunc circ_module_funcs[] = {
    {"f0", circ_c_call0, 0, false, (uint64_t)(uintptr_t)&circ_c_x0},
};
#define CIRC_MODULE_NFUNCS 1
#endif
