/* bug.c — clang 14.0.6 at -O1 and -O2 compiles conv() to `ret i64 poison`.
 * 2^63 / -0.0 is -inf, so sat() takes its first branch and returns INT64_MIN;
 * the conversion (long long)x is never evaluated, so the program has no undefined
 * behaviour (clang -O0 -fsanitize=undefined,float-cast-overflow agrees), and
 * clang -O0 and gcc -O0/-O2 return INT64_MIN. */
static inline double f64(unsigned long long b) { double f; __builtin_memcpy(&f, &b, 8); return f; }
static inline long long sat(double x, long long lo, double lof) { return x <= lof ? lo : (long long)x; }
long long conv(void)
{
    double q = f64(0x43e0000000000000ull) / f64(0x8000000000000000ull); /* 2^63 / -0.0 */
    return sat(q, -0x7fffffffffffffffll - 1, -0x1p63);
}
