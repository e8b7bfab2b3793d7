/* core_literals.c — literal parsing and canonical formatting: every bit pattern of
 * f32/f64 formats to a literal that parses back to the same bits; integer edge cases. */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>
#include "tests/test_check.h"

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void float_roundtrip(Type ty, uint64_t bits)
{
    char buf[64];
    uint64_t back = ~bits;
    lit_format(buf, sizeof buf, ty, bits);
    bool ok = lit_parse_float(buf, strlen(buf), ty, &back);
    CHECK(ok && back == bits, "%s bits 0x%llx printed as '%s' read back as 0x%llx", ty_name(ty),
          (unsigned long long)bits, buf, (unsigned long long)back);
}

static void int_case(const char *text, bool ok, uint64_t want)
{
    uint64_t got = 0;
    bool r = lit_parse_int(text, strlen(text), &got);
    CHECK(r == ok && (!ok || got == want), "'%s': ok=%d got 0x%llx", text, r, (unsigned long long)got);
}

static void float_case(const char *text, Type ty, bool ok, uint64_t want)
{
    uint64_t got = 0;
    bool r = lit_parse_float(text, strlen(text), ty, &got);
    CHECK(r == ok && (!ok || got == want), "'%s' as %s: ok=%d got 0x%llx", text, ty_name(ty), r,
          (unsigned long long)got);
}

static void format_case(Type ty, uint64_t bits, const char *want)
{
    char buf[64];
    lit_format(buf, sizeof buf, ty, bits);
    CHECK(!strcmp(buf, want), "%s 0x%llx formats as '%s', want '%s'", ty_name(ty), (unsigned long long)bits, buf,
          want);
}

int main(void)
{
    uint64_t seed = 42;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_random(&seed);
        float_roundtrip(TY_F64, r);
        float_roundtrip(TY_F32, r & 0xffffffffu);
    }
    static const uint64_t edges64[] = {0, 0x8000000000000000ull, 1, 0x000fffffffffffffull, 0x0010000000000000ull,
                                       0x7fefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                       0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff8000000000000ull};
    for (size_t i = 0; i < sizeof edges64 / sizeof edges64[0]; i++)
        float_roundtrip(TY_F64, edges64[i]);
    static const uint64_t edges32[] = {0, 0x80000000u, 1, 0x007fffffu, 0x00800000u, 0x7f7fffffu,
                                       0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffc00000u};
    for (size_t i = 0; i < sizeof edges32 / sizeof edges32[0]; i++)
        float_roundtrip(TY_F32, edges32[i]);

    int_case("0", true, 0);
    int_case("-1", true, ~0ull);
    int_case("18446744073709551615", true, ~0ull);
    int_case("18446744073709551616", false, 0);
    int_case("-9223372036854775808", true, 0x8000000000000000ull);
    int_case("-9223372036854775809", false, 0);
    int_case("0xffffffffffffffff", true, ~0ull);
    int_case("0x1ffffffffffffffff", false, 0);
    int_case("-0x10", true, (uint64_t)-16);
    int_case("12a", false, 0);
    int_case("-", false, 0);
    int_case("", false, 0);

    float_case("2.5", TY_F64, true, 0x4004000000000000ull);
    float_case("0x1.8p1", TY_F64, true, 0x4008000000000000ull);
    float_case("-inf", TY_F32, true, 0xff800000u);
    float_case("nan", TY_F32, true, 0x7fc00000u);
    float_case("bits(0x7ff0000000000001)", TY_F64, true, 0x7ff0000000000001ull);
    float_case("bits(0x100000000)", TY_F32, false, 0);
    float_case("nan(1)", TY_F64, false, 0);
    float_case("1e39", TY_F32, false, 0);   /* too large: an error, not a silent inf */
    float_case("1e309", TY_F64, false, 0);
    float_case("3.4e38", TY_F32, true, 0x7f7fc99eu);
    float_case("1.5 ", TY_F64, false, 0);
    /* f32 literals round once, straight to binary32 (no double rounding) */
    float_case("1.00000005960464477539062500000000001", TY_F32, true, 0x3f800001u);

    format_case(TY_I8, 0xff, "-1");
    format_case(TY_I1, 1, "1");
    format_case(TY_I64, 0x8000000000000000ull, "-9223372036854775808");
    format_case(TY_F64, 0x4039000000000000ull, "25.0");
    format_case(TY_F64, 0x8000000000000000ull, "-0.0");
    format_case(TY_F32, 0x7fc00000u, "nan");
    format_case(TY_F64, 0xfff8000000000000ull, "bits(0xfff8000000000000)");
    format_case(TY_F64, 0x7ff0000000000000ull, "inf");

    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("literal tests passed\n");
    return 0;
}
