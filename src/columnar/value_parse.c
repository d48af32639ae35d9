/* value_parse.c - text to typed values, the inverse of render.c (docs/formats/rendering.md):
 * integers, floats, decimals, dates, times, timestamps, hex, base64 and UUIDs.
 *
 * Invariant: a value is exact in its type or rejected; no parser reads past s[n). */
#include "columnar/value_parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hudi_parse_u64(const char *s, size_t n, uint64_t *out) {
    size_t i = 0;
    if (i < n && s[i] == '+') i++;
    if (i == n) return HUDI_PARSE_SYNTAX;
    uint64_t v = 0;
    bool overflow = false;
    for (; i < n; i++) {
        if (!is_digit(s[i])) return HUDI_PARSE_SYNTAX;
        overflow |= __builtin_mul_overflow(v, 10, &v);
        overflow |= __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v);
    }
    if (overflow) return HUDI_PARSE_RANGE;
    *out = v;
    return HUDI_PARSE_OK;
}

int hudi_parse_i64(const char *s, size_t n, int64_t *out) {
    bool neg = n > 0 && s[0] == '-';
    if (neg)
        s++, n--;
    else if (n > 0 && s[0] == '+')
        s++, n--;
    if (n == 0 || !is_digit(s[0])) return HUDI_PARSE_SYNTAX;
    uint64_t u;
    int rc = hudi_parse_u64(s, n, &u);
    if (rc < 0) return rc;
    if (u > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) return HUDI_PARSE_RANGE;
    *out = neg ? (int64_t)(0 - u) : (int64_t)u;
    return HUDI_PARSE_OK;
}

int hudi_parse_int_for(const hudi_field *f, const char *s, size_t n, int64_t *out) {
    static const struct {
        hudi_type_id t;
        int64_t lo;
        uint64_t hi;
    } ranges[] = {
        {HUDI_TYPE_INT8, INT8_MIN, INT8_MAX},    {HUDI_TYPE_INT16, INT16_MIN, INT16_MAX},
        {HUDI_TYPE_INT32, INT32_MIN, INT32_MAX}, {HUDI_TYPE_INT64, INT64_MIN, INT64_MAX},
        {HUDI_TYPE_UINT8, 0, UINT8_MAX},         {HUDI_TYPE_UINT16, 0, UINT16_MAX},
        {HUDI_TYPE_UINT32, 0, UINT32_MAX},       {HUDI_TYPE_UINT64, 0, UINT64_MAX},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(ranges); i++) {
        if (ranges[i].t != f->type) continue;
        int rc;
        if (ranges[i].lo < 0) {
            int64_t x;
            if ((rc = hudi_parse_i64(s, n, &x)) < 0) return rc;
            if (x < ranges[i].lo || x > (int64_t)ranges[i].hi) return HUDI_PARSE_RANGE;
            *out = x;
        } else {
            uint64_t x;
            if (n > 0 && s[0] == '-')
                return hudi_parse_i64(s, n, &(int64_t){0}) < 0 ? HUDI_PARSE_SYNTAX
                                                               : HUDI_PARSE_RANGE;
            if ((rc = hudi_parse_u64(s, n, &x)) < 0) return rc;
            if (x > ranges[i].hi) return HUDI_PARSE_RANGE;
            *out = (int64_t)x; /* uint64 keeps its bits */
        }
        return HUDI_PARSE_OK;
    }
    return HUDI_PARSE_SYNTAX;
}

static bool equals_ci(const char *s, size_t n, const char *word) {
    return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* Checks the plain decimal syntax (strtod would also take hex floats and words) and copies the
 * text NUL-terminated to `stack` (or the heap when longer; *heap is then set). */
static char *number_text(const char *s, size_t n, char *stack, size_t cap, bool *heap) {
    size_t i = 0;
    *heap = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    size_t mant = 0;
    for (; i < n && is_digit(s[i]); i++) mant++;
    if (i < n && s[i] == '.')
        for (i++; i < n && is_digit(s[i]); i++) mant++;
    if (mant == 0) return NULL;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        size_t e = 0;
        for (; i < n && is_digit(s[i]); i++) e++;
        if (e == 0) return NULL;
    }
    if (i != n) return NULL;
    char *tmp = stack;
    if (n >= cap) {
        if (!(tmp = hudi_malloc(n + 1))) return NULL;
        *heap = true;
    }
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    return tmp;
}

static bool special_float(const char *s, size_t n, double *out) {
    if (equals_ci(s, n, "nan")) return *out = NAN, true;
    if (equals_ci(s, n, "infinity") || equals_ci(s, n, "inf") || equals_ci(s, n, "+infinity"))
        return *out = INFINITY, true;
    if (equals_ci(s, n, "-infinity") || equals_ci(s, n, "-inf")) return *out = -INFINITY, true;
    return false;
}

int hudi_parse_float32(const char *s, size_t n, float *out) {
    double d;
    if (special_float(s, n, &d)) return *out = (float)d, HUDI_PARSE_OK;
    char stack[128];
    bool heap;
    char *tmp = number_text(s, n, stack, sizeof(stack), &heap);
    if (!tmp) return HUDI_PARSE_SYNTAX;
    *out = strtof(tmp, NULL);
    if (heap) hudi_free(tmp);
    return HUDI_PARSE_OK;
}

int hudi_parse_double(const char *s, size_t n, double *out) {
    if (special_float(s, n, out)) return HUDI_PARSE_OK;
    char stack[128];
    bool heap;
    char *tmp = number_text(s, n, stack, sizeof(stack), &heap);
    if (!tmp) return HUDI_PARSE_SYNTAX;
    /* strtod honours LC_NUMERIC; the library never calls setlocale, and callers that do keep
     * "C" for numbers, which is what the renderer assumes too. */
    *out = strtod(tmp, NULL);
    if (heap) hudi_free(tmp);
    return HUDI_PARSE_OK;
}

double hudi_round_to_half(double d) {
    if (!isfinite(d) || d == 0) return d;
    int e;
    frexp(fabs(d), &e);
    int exp2 = HUDI_MAX(e - 1, -14); /* below 2^-14 halves are subnormal: fixed 2^-24 steps */
    double quantum = ldexp(1.0, exp2 - 10);
    double r = nearbyint(d / quantum) * quantum;
    return fabs(r) > 65504.0 ? copysign(INFINITY, d) : r;
}

uint16_t hudi_float_to_half(double d) {
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    if (isnan(d)) return 0x7e00;
    double r = fabs(hudi_round_to_half(d));
    if (isinf(r)) return sign | 0x7c00;
    if (r == 0) return sign;
    int e;
    double m = frexp(r, &e);                                        /* r = m * 2^e, m in [0.5, 1) */
    if (e - 1 < -14) return sign | (uint16_t)(r / ldexp(1.0, -24)); /* subnormal */
    return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((m * 2 - 1) * 1024);
}

int hudi_parse_decimal(const char *s, size_t n, int32_t precision, int32_t scale, __int128 *out) {
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    /* Significant digits D, then the value is D * 10^pow10. */
    const char *first = NULL;
    size_t n_frac = 0;
    bool dot = false, any = false;
    for (; i < n; i++) {
        if (s[i] == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!is_digit(s[i])) break;
        any = true;
        if (dot) n_frac++;
        if (!first && s[i] != '0') first = s + i;
    }
    if (!any) return HUDI_PARSE_SYNTAX;
    int64_t exp10 = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int64_t e;
        size_t j = ++i;
        while (j < n && (is_digit(s[j]) || (j == i && (s[j] == '-' || s[j] == '+')))) j++;
        if (hudi_parse_i64(s + i, j - i, &e) < 0 || e > 100000 || e < -100000)
            return HUDI_PARSE_SYNTAX;
        exp10 = e;
        i = j;
    }
    if (i != n) return HUDI_PARSE_SYNTAX;
    /* Walk the significant digits (skipping the point) and drop trailing zeros. */
    char d[64];
    size_t nd = 0;
    int64_t zeros = 0; /* trailing zeros not stored */
    if (first) {
        for (const char *p = first; p < s + n && (is_digit(*p) || *p == '.'); p++) {
            if (*p == '.') continue;
            if (*p == '0') {
                zeros++;
                continue;
            }
            if (nd + (size_t)zeros >= sizeof(d)) return HUDI_PARSE_RANGE;
            for (; zeros > 0; zeros--) d[nd++] = '0';
            d[nd++] = *p;
        }
    }
    int64_t shift = (int64_t)scale + exp10 - (int64_t)n_frac + zeros;
    if (nd == 0) {
        *out = 0;
        return HUDI_PARSE_OK;
    }
    if (shift < 0) return HUDI_PARSE_PRECISION;
    int64_t total = (int64_t)nd + shift;
    int32_t limit = precision >= 1 && precision <= 38 ? precision : 38;
    if (total > limit) return HUDI_PARSE_RANGE;
    __int128 v = 0;
    for (size_t k = 0; k < nd; k++) v = v * 10 + (d[k] - '0');
    for (int64_t k = 0; k < shift; k++) v *= 10;
    *out = neg ? -v : v;
    return HUDI_PARSE_OK;
}

/* Exactly `cnt` digits at s[*i]. */
static bool fixed_digits(const char *s, size_t n, size_t *i, int cnt, int64_t *out) {
    int64_t v = 0;
    if (*i + (size_t)cnt > n) return false;
    for (int k = 0; k < cnt; k++) {
        if (!is_digit(s[*i + (size_t)k])) return false;
        v = v * 10 + (s[*i + (size_t)k] - '0');
    }
    *i += (size_t)cnt;
    *out = v;
    return true;
}

static bool date_at(const char *s, size_t n, size_t *i, int64_t *days) {
    size_t p = *i;
    bool neg = p < n && s[p] == '-';
    if (p < n && (s[p] == '-' || s[p] == '+')) p++;
    size_t ylen = 0;
    while (p + ylen < n && is_digit(s[p + ylen])) ylen++;
    int64_t y, m, d;
    if (ylen < 4 || ylen > 9 || !fixed_digits(s, n, &p, (int)ylen, &y)) return false;
    if (p >= n || s[p++] != '-' || !fixed_digits(s, n, &p, 2, &m)) return false;
    if (p >= n || s[p++] != '-' || !fixed_digits(s, n, &p, 2, &d)) return false;
    if (neg) y = -y;
    if (m < 1 || m > 12 || !hudi_civil_valid(y, (int)m, (int)d)) return false;
    *days = hudi_days_from_civil(y, (int)m, (int)d);
    *i = p;
    return true;
}

/* "HH:MM[:SS[.f{1,9}]]" at s[*i] -> nanoseconds; hours may have more than two digits when
 * `long_hours` (TIME values outside a day). */
static bool time_at(const char *s, size_t n, size_t *i, bool long_hours, int64_t *nanos) {
    size_t p = *i;
    size_t hlen = 0;
    while (p + hlen < n && is_digit(s[p + hlen])) hlen++;
    int64_t h, m, sec = 0, frac = 0;
    if (hlen < 2 || hlen > (long_hours ? 9u : 2u) || !fixed_digits(s, n, &p, (int)hlen, &h))
        return false;
    if (p >= n || s[p++] != ':' || !fixed_digits(s, n, &p, 2, &m)) return false;
    if (p < n && s[p] == ':') {
        p++;
        if (!fixed_digits(s, n, &p, 2, &sec)) return false;
        if (p < n && s[p] == '.') {
            p++;
            int k = 0;
            while (p < n && is_digit(s[p]) && k < 9) frac = frac * 10 + (s[p++] - '0'), k++;
            if (k == 0 || (p < n && is_digit(s[p]))) return false;
            for (; k < 9; k++) frac *= 10;
        }
    }
    if ((!long_hours && h > 23) || m > 59 || sec > 59) return false;
    *nanos = ((h * 60 + m) * 60 + sec) * INT64_C(1000000000) + frac;
    *i = p;
    return true;
}

static int64_t per_second(int unit) {
    return unit == HUDI_UNIT_MILLIS ? 1000 : unit == HUDI_UNIT_NANOS ? 1000000000 : 1000000;
}

int hudi_parse_date(const char *s, size_t n, int64_t *days) {
    size_t i = 0;
    int64_t d;
    if (!date_at(s, n, &i, &d) || i != n) return HUDI_PARSE_SYNTAX;
    *days = d;
    return HUDI_PARSE_OK;
}

int hudi_parse_time(const char *s, size_t n, int unit, int64_t *out) {
    size_t i = 0;
    bool neg = n > 0 && s[0] == '-';
    if (neg) i++;
    int64_t nanos;
    if (!time_at(s, n, &i, true, &nanos) || i != n) return HUDI_PARSE_SYNTAX;
    int64_t div = 1000000000 / per_second(unit);
    if (nanos % div) return HUDI_PARSE_PRECISION;
    *out = neg ? -(nanos / div) : nanos / div;
    return HUDI_PARSE_OK;
}

int hudi_parse_timestamp(const char *s, size_t n, int unit, int64_t *out) {
    size_t i = 0;
    int64_t days, nanos = 0, offset_s = 0;
    if (!date_at(s, n, &i, &days)) return HUDI_PARSE_SYNTAX;
    if (i < n && (s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
        i++;
        if (!time_at(s, n, &i, false, &nanos)) return HUDI_PARSE_SYNTAX;
    }
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        bool neg = s[i++] == '-';
        int64_t oh, om = 0;
        if (!fixed_digits(s, n, &i, 2, &oh)) return HUDI_PARSE_SYNTAX;
        if (i < n && s[i] == ':') i++;
        if (i < n && !fixed_digits(s, n, &i, 2, &om)) return HUDI_PARSE_SYNTAX;
        if (oh > 23 || om > 59) return HUDI_PARSE_SYNTAX;
        offset_s = (oh * 60 + om) * 60 * (neg ? -1 : 1);
    }
    if (i != n) return HUDI_PARSE_SYNTAX;
    int64_t ps = per_second(unit), div = 1000000000 / ps;
    int64_t sub = nanos % 1000000000, secs, v;
    if (sub % div) return HUDI_PARSE_PRECISION;
    int64_t subu = sub / div;
    if (__builtin_mul_overflow(days, 86400, &secs) ||
        __builtin_add_overflow(secs, nanos / 1000000000 - offset_s, &secs))
        return HUDI_PARSE_RANGE;
    if (secs < 0 && subu > 0) { /* borrow a second so the product stays in range near the minimum */
        secs += 1;
        subu -= ps;
    }
    if (__builtin_mul_overflow(secs, ps, &v) || __builtin_add_overflow(v, subu, &v))
        return HUDI_PARSE_RANGE;
    *out = v;
    return HUDI_PARSE_OK;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int hudi_parse_hex(const char *s, size_t n, hudi_buf *out) {
    int hi = -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-') continue;
        int h = hex_value(s[i]);
        if (h < 0) return HUDI_PARSE_SYNTAX;
        if (hi < 0) {
            hi = h;
        } else {
            hudi_buf_putc(out, (char)(hi << 4 | h));
            hi = -1;
        }
    }
    return hi < 0 ? HUDI_PARSE_OK : HUDI_PARSE_SYNTAX;
}

int hudi_parse_base64(const char *s, size_t n, hudi_buf *out) {
    int rc = hudi_base64_decode(out, s, n, NULL);
    return rc == 0 ? HUDI_PARSE_OK : rc == HUDI_ENOMEM ? HUDI_PARSE_RANGE : HUDI_PARSE_SYNTAX;
}

int hudi_parse_uuid(const char *s, size_t n, uint8_t out[16]) {
    static const size_t dashes[] = {8, 13, 18, 23};
    if (n != 36) return HUDI_PARSE_SYNTAX;
    uint8_t tmp[16];
    size_t o = 0, dk = 0;
    for (size_t i = 0; i < n;) {
        if (dk < 4 && i == dashes[dk]) {
            if (s[i] != '-') return HUDI_PARSE_SYNTAX;
            dk++, i++;
            continue;
        }
        int hi = hex_value(s[i]), lo = i + 1 < n ? hex_value(s[i + 1]) : -1;
        if (hi < 0 || lo < 0) return HUDI_PARSE_SYNTAX;
        tmp[o++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    memcpy(out, tmp, 16);
    return HUDI_PARSE_OK;
}
