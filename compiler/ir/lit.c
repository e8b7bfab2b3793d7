/* lit.c — integer and float literals: parsing every form of the text format and the
 * canonical spelling the printer writes. */
#include "ir.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t canonical_nan(Type ty)
{
    return ty == TY_F32 ? 0x7fc00000u : 0x7ff8000000000000ull;
}

bool lit_parse_int(const char *s, size_t n, uint64_t *bits)
{
    bool neg = false;
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (i >= n)
        return false;
    uint64_t v = 0;
    if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        for (; i < n; i++) {
            int c = tolower((unsigned char)s[i]), d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else
                return false;
            if (v >> 60)
                return false; /* more than 64 bits */
            v = v * 16 + (uint64_t)d;
        }
    } else {
        for (; i < n; i++) {
            if (!isdigit((unsigned char)s[i]))
                return false;
            uint64_t d = (uint64_t)(s[i] - '0');
            if (v > (UINT64_MAX - d) / 10)
                return false;
            v = v * 10 + d;
        }
    }
    if (neg && v > (uint64_t)1 << 63)
        return false;
    *bits = neg ? (uint64_t)0 - v : v;
    return true;
}

static bool word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s, w, n) == 0;
}

static uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

bool lit_parse_float(const char *s, size_t n, Type ty, uint64_t *bits)
{
    if (n > 6 && memcmp(s, "bits(", 5) == 0 && s[n - 1] == ')') {
        uint64_t v;
        if (!lit_parse_int(s + 5, n - 6, &v) || s[5] == '-')
            return false;
        if (ty == TY_F32 && v > 0xffffffffull)
            return false;
        *bits = v;
        return true;
    }
    if (word_is(s, n, "nan") || word_is(s, n, "+nan")) {
        *bits = canonical_nan(ty);
        return true;
    }
    if (word_is(s, n, "-nan")) {
        *bits = canonical_nan(ty) | (ty == TY_F32 ? 0x80000000u : 0x8000000000000000ull);
        return true;
    }
    bool neg = n > 0 && s[0] == '-';
    size_t k = (n > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (word_is(s + k, n - k, "inf") || word_is(s + k, n - k, "infinity")) {
        double d = neg ? -INFINITY : INFINITY;
        *bits = ty == TY_F32 ? f32_bits((float)d) : f64_bits(d);
        return true;
    }
    /* digits, '.', exponent, hex: let strtod/strtof judge, but only on our own copy and
     * only accepting characters of numeric literals (no "nan(...)" or spaces) */
    char buf[128];
    if (n == 0 || n >= sizeof buf)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!(isxdigit((unsigned char)c) || c == '.' || c == '-' || c == '+' || c == 'x' || c == 'X' ||
              c == 'p' || c == 'P'))
            return false;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    if (ty == TY_F32) {
        float f = strtof(buf, &end);
        if (end != buf + n || isinf(f))
            return false; /* malformed, or too large for binary32 */
        *bits = f32_bits(f);
    } else {
        double d = strtod(buf, &end);
        if (end != buf + n || isinf(d))
            return false; /* malformed, or too large for binary64 */
        *bits = f64_bits(d);
    }
    return true;
}

/* shortest decimal that reads back to the same bits */
static void format_float(char *buf, size_t n, Type ty, uint64_t bits)
{
    int maxp = ty == TY_F32 ? 9 : 17;
    double value;
    if (ty == TY_F32) {
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, 4);
        value = f;
    } else {
        memcpy(&value, &bits, 8);
    }
    char text[48];
    for (int p = 1; p <= maxp; p++) {
        snprintf(text, sizeof text, "%.*g", p, value);
        uint64_t back;
        if (lit_parse_float(text, strlen(text), ty, &back) && back == bits)
            break;
    }
    /* make it visibly a float literal */
    snprintf(buf, n, "%s%s", text, strpbrk(text, ".eEn") ? "" : ".0");
}

void lit_format(char *buf, size_t n, Type ty, uint64_t bits)
{
    if (ty_is_int(ty)) {
        if (ty == TY_I1)
            snprintf(buf, n, "%u", (unsigned)(bits & 1));
        else
            snprintf(buf, n, "%lld", (long long)ty_sext(ty, bits));
        return;
    }
    bool f32 = ty == TY_F32;
    uint64_t exp_mask = f32 ? 0x7f800000u : 0x7ff0000000000000ull;
    uint64_t man_mask = f32 ? 0x007fffffu : 0x000fffffffffffffull;
    uint64_t sign = f32 ? 0x80000000u : 0x8000000000000000ull;
    if ((bits & exp_mask) == exp_mask) {
        if ((bits & man_mask) == 0)
            snprintf(buf, n, "%sinf", (bits & sign) ? "-" : "");
        else if (bits == canonical_nan(ty))
            snprintf(buf, n, "nan");
        else
            snprintf(buf, n, "bits(0x%llx)", (unsigned long long)bits);
        return;
    }
    format_float(buf, n, ty, bits);
}
