/* cast.c - Spark's CAST (non-ANSI: a value that does not convert is NULL) over whole arrays,
 * the text of values as Spark writes them (CAST(x AS STRING) and spark-sql's output), and the
 * string parsers CAST shares with the datetime functions (docs/SQL.md "Types and casts").
 *
 * Conversions go row by row through one switch on the source type per target type; strings are
 * parsed in place (no allocation per row) and written straight into the result's buffers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "columnar/render.h"
#include "sql/fn_int.h"

const __int128 hudi_sql_pow10[39] = {
#define P1(x) (x), (x)*10, (x)*100, (x)*1000, (x)*10000, (x)*100000, (x)*1000000, (x)*10000000
    P1((__int128)1),
    P1((__int128)100000000),
    P1((__int128)10000000000000000),
    P1((__int128)1000000000000000000 * 1000000),
    (__int128)1000000000000000000 * 100000000000000LL,
    (__int128)1000000000000000000 * 1000000000000000LL,
    (__int128)1000000000000000000 * 10000000000000000LL,
    (__int128)1000000000000000000 * 100000000000000000LL,
    (__int128)1000000000000000000 * 1000000000000000000LL,
    (__int128)1000000000000000000 * 1000000000000000000LL * 10,
    (__int128)1000000000000000000 * 1000000000000000000LL * 100,
#undef P1
};

bool hudi_sql_dec_fits(__int128 v, int32_t precision) {
    __int128 lim = hudi_sql_pow10[precision < 0 ? 0 : precision > 38 ? 38 : precision];
    return v < lim && v > -lim;
}

bool hudi_sql_dec_rescale(__int128 v, int32_t from, int32_t to, int32_t precision, __int128 *out) {
    if (to >= from) {
        int32_t k = to - from;
        if (k > 38) return v == 0 ? (*out = 0, true) : false;
        __int128 r;
        if (__builtin_mul_overflow(v, hudi_sql_pow10[k], &r)) return false;
        if (!hudi_sql_dec_fits(r, precision)) return false;
        *out = r;
        return true;
    }
    int32_t k = from - to;
    __int128 q, rem;
    if (k > 38) {
        q = 0;
        rem = 0;
    } else {
        __int128 d = hudi_sql_pow10[k];
        q = v / d;
        rem = v % d;
        if (rem < 0) rem = -rem;
        if (rem * 2 >= d) q += v < 0 ? -1 : 1;
    }
    if (!hudi_sql_dec_fits(q, precision)) return false;
    *out = q;
    return true;
}

/* ---- string parsers (Spark's UTF8String.toLong, Cast, DateTimeUtils) ------------------------- */

static bool is_ws(uint8_t c) { return c <= ' '; }

static hudi_slice trim(hudi_slice s) {
    while (s.len && is_ws(s.data[0])) s.data++, s.len--;
    while (s.len && is_ws(s.data[s.len - 1])) s.len--;
    return s;
}

static bool digit(uint8_t c) { return c >= '0' && c <= '9'; }

bool hudi_sql_parse_long(hudi_slice s, int64_t *out) {
    s = trim(s);
    size_t i = 0;
    bool neg = false;
    if (i < s.len && (s.data[i] == '-' || s.data[i] == '+')) neg = s.data[i++] == '-';
    if (i == s.len) return false;
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    size_t start = i;
    for (; i < s.len && digit(s.data[i]); i++) {
        uint64_t d = s.data[i] - '0';
        if (v > (lim - d) / 10) return false;
        v = v * 10 + d;
    }
    bool any = i > start;
    if (i < s.len && s.data[i] == '.') {
        for (i++; i < s.len && digit(s.data[i]); i++) any = true;
    }
    if (i != s.len || !any) return false;
    *out = neg ? (int64_t)((uint64_t)0 - v) : (int64_t)v;
    return true;
}

static bool ieq(hudi_slice s, const char *w) {
    size_t n = strlen(w);
    if (s.len != n) return false;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s.data[i];
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (uint8_t)w[i]) return false;
    }
    return true;
}

/* Checks Java's decimal floating-point syntax (with an optional d/D/f/F suffix) and copies it
 * NUL-terminated into buf. */
static bool float_text(hudi_slice s, char *buf, size_t cap) {
    size_t i = 0, n = s.len;
    if (n && (s.data[n - 1] == 'd' || s.data[n - 1] == 'D' || s.data[n - 1] == 'f' ||
              s.data[n - 1] == 'F'))
        n--;
    if (i < n && (s.data[i] == '+' || s.data[i] == '-')) i++;
    size_t digits = 0;
    for (; i < n && digit(s.data[i]); i++) digits++;
    if (i < n && s.data[i] == '.')
        for (i++; i < n && digit(s.data[i]); i++) digits++;
    if (!digits) return false;
    if (i < n && (s.data[i] == 'e' || s.data[i] == 'E')) {
        i++;
        if (i < n && (s.data[i] == '+' || s.data[i] == '-')) i++;
        size_t ed = 0;
        for (; i < n && digit(s.data[i]); i++) ed++;
        if (!ed) return false;
    }
    if (i != n || n >= cap) return false;
    memcpy(buf, s.data, n);
    buf[n] = '\0';
    return true;
}

static int special_float(hudi_slice s, double *out) {
    if (ieq(s, "nan")) return *out = NAN, 1;
    if (ieq(s, "inf") || ieq(s, "+inf") || ieq(s, "infinity") || ieq(s, "+infinity"))
        return *out = INFINITY, 1;
    if (ieq(s, "-inf") || ieq(s, "-infinity")) return *out = -INFINITY, 1;
    return 0;
}

bool hudi_sql_parse_double(hudi_slice s, double *out) {
    s = trim(s);
    if (special_float(s, out)) return true;
    char buf[512];
    if (!float_text(s, buf, sizeof(buf))) return false;
    *out = strtod(buf, NULL);
    return true;
}

static bool parse_float(hudi_slice s, float *out) {
    s = trim(s);
    double d;
    if (special_float(s, &d)) return *out = (float)d, true;
    char buf[512];
    if (!float_text(s, buf, sizeof(buf))) return false;
    *out = strtof(buf, NULL);
    return true;
}

bool hudi_sql_parse_decimal(hudi_slice s, int32_t precision, int32_t scale, __int128 *out) {
    s = trim(s);
    size_t i = 0;
    bool neg = false;
    if (i < s.len && (s.data[i] == '-' || s.data[i] == '+')) neg = s.data[i++] == '-';
    /* significant digits (leading zeros dropped) and the exponent of the last one kept */
    char dig[80];
    int nd = 0, ndigits = 0;
    int64_t exp10 = 0;
    bool dot = false;
    for (; i < s.len; i++) {
        uint8_t c = s.data[i];
        if (c == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!digit(c)) break;
        ndigits++;
        if (nd == 0 && c == '0') {
            if (dot) exp10--;
            continue;
        }
        if (nd < 78) {
            dig[nd++] = (char)c;
            if (dot) exp10--;
        } else if (!dot) {
            exp10++;
        }
    }
    if (!ndigits) return false;
    if (i < s.len && (s.data[i] == 'e' || s.data[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < s.len && (s.data[i] == '+' || s.data[i] == '-')) eneg = s.data[i++] == '-';
        int64_t e = 0;
        size_t st = i;
        for (; i < s.len && digit(s.data[i]); i++)
            if (e < 100000) e = e * 10 + (s.data[i] - '0');
        if (i == st) return false;
        exp10 += eneg ? -e : e;
    }
    if (i != s.len) return false;
    /* value = dig * 10^exp10; unscaled at `scale` = dig * 10^(exp10 + scale) */
    int64_t shift = exp10 + scale;
    int64_t keep = nd + shift; /* digits left of the rounding point */
    if (keep > 38) return nd == 0 ? (*out = 0, true) : false;
    __int128 v = 0;
    for (int64_t k = 0; k < keep && k < nd; k++) v = v * 10 + (dig[k] - '0');
    for (int64_t k = nd; k < keep; k++) v *= 10;
    if (keep >= 0 && keep < nd && dig[keep] >= '5') v++;
    if (!hudi_sql_dec_fits(v, precision)) return false;
    *out = neg ? -v : v;
    return true;
}

static bool digits_at(hudi_slice s, size_t *i, int min, int max, int *out) {
    int v = 0, n = 0;
    while (*i < s.len && digit(s.data[*i]) && n < max) {
        v = v * 10 + (s.data[(*i)++] - '0');
        n++;
    }
    if (n < min) return false;
    *out = v;
    return true;
}

/* yyyy[-m[m][-d[d]]]: sets *i past it. */
static bool parse_ymd(hudi_slice s, size_t *i, int64_t *days) {
    int y, m = 1, d = 1;
    bool neg = false;
    if (*i < s.len && (s.data[*i] == '-' || s.data[*i] == '+')) neg = s.data[(*i)++] == '-';
    if (!digits_at(s, i, 4, 7, &y)) return false;
    if (*i < s.len && s.data[*i] == '-') {
        (*i)++;
        if (!digits_at(s, i, 1, 2, &m)) return false;
        if (*i < s.len && s.data[*i] == '-') {
            (*i)++;
            if (!digits_at(s, i, 1, 2, &d)) return false;
        }
    }
    int64_t yy = neg ? -y : y;
    if (!hudi_civil_valid(yy, m, d)) return false;
    *days = hudi_days_from_civil(yy, m, d);
    return true;
}

bool hudi_sql_parse_date(hudi_slice s, int32_t *days) {
    s = trim(s);
    size_t i = 0;
    int64_t d;
    if (!parse_ymd(s, &i, &d)) return false;
    if (i < s.len && s.data[i] != ' ' && s.data[i] != 'T') return false;
    if (d < INT32_MIN || d > INT32_MAX) return false;
    *days = (int32_t)d;
    return true;
}

/* A zone: Z, UTC, UT, GMT, with an optional [+-]h[h][[:]mm] offset. Minutes east of UTC. */
static bool parse_zone(hudi_slice z, int32_t *minutes) {
    z = trim(z);
    size_t i = 0;
    if (z.len == 1 && (z.data[0] == 'Z' || z.data[0] == 'z')) return *minutes = 0, true;
    if (z.len >= 3 && (ieq(HUDI_SLICE(z.data, 3), "utc") || ieq(HUDI_SLICE(z.data, 3), "gmt")))
        i = 3;
    else if (z.len >= 2 && ieq(HUDI_SLICE(z.data, 2), "ut"))
        i = 2;
    if (i == z.len && i > 0) return *minutes = 0, true;
    if (i >= z.len || (z.data[i] != '+' && z.data[i] != '-')) return false;
    bool neg = z.data[i++] == '-';
    int h = 0, m = 0;
    size_t st = i;
    if (!digits_at(z, &i, 1, 2, &h)) return false;
    if (i < z.len && z.data[i] == ':') {
        i++;
        if (!digits_at(z, &i, 2, 2, &m)) return false;
    } else if (i < z.len && i - st == 2) {
        if (!digits_at(z, &i, 2, 2, &m)) return false;
    }
    if (i != z.len || h > 18 || m > 59) return false;
    *minutes = (neg ? -1 : 1) * (h * 60 + m);
    return true;
}

bool hudi_sql_parse_timestamp(hudi_slice s, int32_t tz_minutes, int64_t now_micros,
                              int64_t *micros) {
    s = trim(s);
    size_t i = 0;
    int64_t days;
    int h = 0, mi = 0, sec = 0;
    int64_t frac = 0;
    bool time_only = false;
    /* a time without a date: [T]h[h]:m[m]... takes today's date in the zone */
    size_t colon = 0;
    while (colon < s.len && digit(s.data[colon])) colon++;
    if ((s.len && s.data[0] == 'T') ||
        (colon > 0 && colon <= 2 && colon < s.len && s.data[colon] == ':')) {
        time_only = true;
        if (s.data[0] == 'T') i++;
        days = hudi_sql_floor_div(now_micros + (int64_t)tz_minutes * 60000000,
                                  HUDI_SQL_MICROS_PER_DAY);
    } else {
        if (!parse_ymd(s, &i, &days)) return false;
        if (i < s.len) {
            if (s.data[i] != ' ' && s.data[i] != 'T') return false;
            i++;
        }
    }
    if (i < s.len && (time_only || digit(s.data[i]))) {
        if (!digits_at(s, &i, 1, 2, &h)) return false;
        if (i < s.len && s.data[i] == ':') {
            i++;
            if (!digits_at(s, &i, 1, 2, &mi)) return false;
            if (i < s.len && s.data[i] == ':') {
                i++;
                if (!digits_at(s, &i, 1, 2, &sec)) return false;
                if (i < s.len && s.data[i] == '.') {
                    i++;
                    int n = 0;
                    while (i < s.len && digit(s.data[i])) {
                        if (n < 6) frac = frac * 10 + (s.data[i] - '0');
                        n++;
                        i++;
                    }
                    for (; n < 6; n++) frac *= 10;
                }
            }
        } else if (time_only) {
            return false;
        }
        if (h > 23 || mi > 59 || sec > 59) return false;
    }
    int32_t zone = tz_minutes;
    if (i < s.len && !parse_zone(HUDI_SLICE(s.data + i, s.len - i), &zone)) return false;
    *micros = days * HUDI_SQL_MICROS_PER_DAY + ((int64_t)h * 3600 + mi * 60 + sec) * 1000000 +
              frac - (int64_t)zone * 60000000;
    return true;
}

/* ---- number and time text -------------------------------------------------------------------- */

int hudi_sql_shortest(double v, bool as_float, char digits[24], int *e) {
    char tmp[48];
    double a = fabs(v);
    int lo = as_float ? 6 : 15, hi = as_float ? 9 : 17;
    for (int p = lo; p <= hi; p++) {
        snprintf(tmp, sizeof(tmp), "%.*e", p - 1, a);
        if (p == hi || (as_float ? strtof(tmp, NULL) == (float)a : strtod(tmp, NULL) == a)) break;
    }
    int n = 0;
    char *p = tmp;
    for (; *p && *p != 'e'; p++)
        if (digit((uint8_t)*p) && n < 23) digits[n++] = *p;
    int x = *p == 'e' ? atoi(p + 1) : 0;
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = '\0';
    *e = x + 1;
    return n;
}

static void put_java(hudi_buf *out, double v, bool as_float) {
    if (isnan(v)) return hudi_buf_puts(out, "NaN");
    if (isinf(v)) return hudi_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
    if (v == 0) return hudi_buf_puts(out, signbit(v) ? "-0.0" : "0.0");
    char d[24];
    int e, n = hudi_sql_shortest(v, as_float, d, &e);
    char o[64];
    int k = 0;
    if (v < 0) o[k++] = '-';
    int sci = e - 1;
    if (sci >= -3 && sci < 7) {
        if (e <= 0) {
            o[k++] = '0';
            o[k++] = '.';
            for (int z = 0; z < -e; z++) o[k++] = '0';
            memcpy(o + k, d, (size_t)n);
            k += n;
        } else if (e >= n) {
            memcpy(o + k, d, (size_t)n);
            k += n;
            for (int z = n; z < e; z++) o[k++] = '0';
            o[k++] = '.';
            o[k++] = '0';
        } else {
            memcpy(o + k, d, (size_t)e);
            k += e;
            o[k++] = '.';
            memcpy(o + k, d + e, (size_t)(n - e));
            k += n - e;
        }
        o[k] = '\0';
    } else {
        o[k++] = d[0];
        o[k++] = '.';
        if (n > 1) {
            memcpy(o + k, d + 1, (size_t)(n - 1));
            k += n - 1;
        } else {
            o[k++] = '0';
        }
        snprintf(o + k, sizeof(o) - (size_t)k, "E%d", sci);
    }
    hudi_buf_puts(out, o);
}

void hudi_sql_put_double(hudi_buf *out, double v) { put_java(out, v, false); }
void hudi_sql_put_float(hudi_buf *out, float v) { put_java(out, v, true); }

static char *put2(char *o, int v) {
    o[0] = (char)('0' + v / 10);
    o[1] = (char)('0' + v % 10);
    return o + 2;
}

/* yyyy-MM-dd; years past 9999 with a '+' (java.time's EXCEEDS_PAD sign style). */
static void put_date(hudi_buf *out, int64_t days) {
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    if (y < 0 || y > 9999) {
        hudi_buf_printf(out, "%s%04lld-%02d-%02d", y > 9999 ? "+" : "-",
                        (long long)(y < 0 ? -y : y), m, d);
        return;
    }
    char t[10], *o = t;
    o = put2(o, (int)(y / 100));
    o = put2(o, (int)(y % 100));
    *o++ = '-';
    o = put2(o, m);
    *o++ = '-';
    o = put2(o, d);
    hudi_buf_append(out, t, 10);
}

void hudi_sql_put_timestamp(hudi_buf *out, int64_t micros, int32_t tz_minutes) {
    int64_t local = micros + (int64_t)tz_minutes * 60000000;
    int64_t days = hudi_sql_floor_div(local, HUDI_SQL_MICROS_PER_DAY);
    int64_t rem = local - days * HUDI_SQL_MICROS_PER_DAY;
    put_date(out, days);
    int64_t secs = rem / 1000000;
    int frac = (int)(rem % 1000000);
    char t[16], *o = t;
    *o++ = ' ';
    o = put2(o, (int)(secs / 3600));
    *o++ = ':';
    o = put2(o, (int)(secs / 60 % 60));
    *o++ = ':';
    o = put2(o, (int)(secs % 60));
    if (frac) {
        *o++ = '.';
        int div = 100000;
        while (frac) {
            *o++ = (char)('0' + frac / div);
            frac %= div;
            div /= 10;
        }
    }
    hudi_buf_append(out, t, (size_t)(o - t));
}

int64_t hudi_sql_ts_micros(const hudi_array *a, int64_t row) {
    int64_t v = ((const int64_t *)a->values)[row];
    switch (a->field->unit) {
    case HUDI_UNIT_MILLIS: return v * 1000;
    case HUDI_UNIT_NANOS: return hudi_sql_floor_div(v, 1000);
    default: return v;
    }
}

/* The plain text of an unscaled decimal at `scale` (0..38) into buf (at least 48 bytes). */
static const char *dec_text(char *buf, __int128 v, int32_t scale) {
    char digits[48];
    int n = 0;
    unsigned __int128 m =
        v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    do {
        digits[n++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    while (n <= scale) digits[n++] = '0';
    int k = 0;
    if (v < 0) buf[k++] = '-';
    for (int i = n - 1; i >= 0; i--) {
        buf[k++] = digits[i];
        if (i == scale && scale > 0) buf[k++] = '.';
    }
    buf[k] = '\0';
    return buf;
}

double hudi_sql_num_f64(const hudi_array *a, int64_t r) {
    const void *v = a->values;
    switch (a->field->type) {
    case HUDI_TYPE_BOOL: return hudi_bit_get(v, r) ? 1 : 0;
    case HUDI_TYPE_INT8: return ((const int8_t *)v)[r];
    case HUDI_TYPE_INT16: return ((const int16_t *)v)[r];
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return ((const int32_t *)v)[r];
    case HUDI_TYPE_INT64: return (double)((const int64_t *)v)[r];
    case HUDI_TYPE_UINT8: return ((const uint8_t *)v)[r];
    case HUDI_TYPE_UINT16: return ((const uint16_t *)v)[r];
    case HUDI_TYPE_UINT32: return ((const uint32_t *)v)[r];
    case HUDI_TYPE_UINT64: return (double)((const uint64_t *)v)[r];
    case HUDI_TYPE_FLOAT16: return hudi_half_to_float(((const uint16_t *)v)[r]);
    case HUDI_TYPE_FLOAT: return ((const float *)v)[r];
    case HUDI_TYPE_DOUBLE: return ((const double *)v)[r];
    case HUDI_TYPE_TIMESTAMP: return (double)hudi_sql_ts_micros(a, r) / 1e6;
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        memcpy(&u, (const uint8_t *)v + 16 * r, 16);
        int32_t s = a->field->scale;
        if (u > -((__int128)1 << 53) && u < ((__int128)1 << 53) && s >= 0 && s <= 22)
            return (double)(int64_t)u / (double)hudi_sql_pow10[s];
        char text[64];
        return strtod(dec_text(text, u, s < 0 ? 0 : s > 38 ? 38 : s), NULL);
    }
    default: return 0;
    }
}

int64_t hudi_sql_num_i64(const hudi_array *a, int64_t r) {
    const void *v = a->values;
    switch (a->field->type) {
    case HUDI_TYPE_BOOL: return hudi_bit_get(v, r);
    case HUDI_TYPE_INT8: return ((const int8_t *)v)[r];
    case HUDI_TYPE_INT16: return ((const int16_t *)v)[r];
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: return ((const int32_t *)v)[r];
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT64: return ((const int64_t *)v)[r];
    case HUDI_TYPE_UINT8: return ((const uint8_t *)v)[r];
    case HUDI_TYPE_UINT16: return ((const uint16_t *)v)[r];
    case HUDI_TYPE_UINT32: return ((const uint32_t *)v)[r];
    case HUDI_TYPE_TIMESTAMP: return hudi_sql_floor_div(hudi_sql_ts_micros(a, r), 1000000);
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        memcpy(&u, (const uint8_t *)v + 16 * r, 16);
        int32_t s = a->field->scale;
        return (int64_t)(s > 0 && s <= 38 ? u / hudi_sql_pow10[s] : u);
    }
    default: {
        double d = hudi_sql_num_f64(a, r);
        return isnan(d)                      ? 0
               : d >= 9.2233720368547758e18  ? INT64_MAX
               : d <= -9.2233720368547758e18 ? INT64_MIN
                                             : (int64_t)d;
    }
    }
}

/* ---- rendering --------------------------------------------------------------------------------
 */

static void put_binary_utf8(hudi_buf *out, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            hudi_buf_putc(out, (char)p[i++]);
            continue;
        }
        size_t k = hudi_utf8_seq_len(p + i, n - i);
        if (k) {
            hudi_buf_append(out, p + i, k);
            i += k;
        } else {
            hudi_buf_put_utf8(out, 0xFFFD);
            i++;
        }
    }
}

/* A non-null value of a non-nested type as CAST(x AS STRING) writes it. */
static void put_scalar(hudi_buf *out, const hudi_sql_ctx *ctx, const hudi_array *a, int64_t r,
                       bool decode_binary) {
    const hudi_field *f = a->field;
    const void *v = a->values;
    switch (f->type) {
    case HUDI_TYPE_BOOL: hudi_buf_puts(out, hudi_bit_get(v, r) ? "true" : "false"); break;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32: hudi_render_i64(out, hudi_sql_num_i64(a, r)); break;
    case HUDI_TYPE_UINT64: hudi_render_u64(out, ((const uint64_t *)v)[r]); break;
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT: hudi_sql_put_float(out, (float)hudi_sql_num_f64(a, r)); break;
    case HUDI_TYPE_DOUBLE: hudi_sql_put_double(out, ((const double *)v)[r]); break;
    case HUDI_TYPE_DECIMAL:
        hudi_render_decimal128(out, (const uint8_t *)v + 16 * r, f->scale);
        break;
    case HUDI_TYPE_DATE: put_date(out, ((const int32_t *)v)[r]); break;
    case HUDI_TYPE_TIME: {
        int64_t t = f->unit == HUDI_UNIT_MILLIS ? ((const int32_t *)v)[r] : ((const int64_t *)v)[r];
        hudi_render_time(out, t, (hudi_time_unit)f->unit);
        break;
    }
    case HUDI_TYPE_TIMESTAMP:
        hudi_sql_put_timestamp(out, hudi_sql_ts_micros(a, r), f->utc ? ctx->tz_offset_minutes : 0);
        break;
    case HUDI_TYPE_STRING:
        hudi_buf_append(out, a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r]));
        break;
    case HUDI_TYPE_BINARY:
        if (decode_binary)
            put_binary_utf8(out, a->data + a->offsets[r],
                            (size_t)(a->offsets[r + 1] - a->offsets[r]));
        else
            hudi_buf_append(out, a->data + a->offsets[r],
                            (size_t)(a->offsets[r + 1] - a->offsets[r]));
        break;
    case HUDI_TYPE_FIXED_BINARY:
        if (f->hint == HUDI_HINT_UUID && f->byte_width == 16)
            hudi_render_uuid(out, (const uint8_t *)v + 16 * r);
        else
            put_binary_utf8(out, (const uint8_t *)v + (size_t)f->byte_width * (size_t)r,
                            (size_t)f->byte_width);
        break;
    default: break;
    }
}

/* CAST(x AS STRING) of a nested value: [1, 2], {1 -> a}, {1, x}; nulls inside as "null". */
static void put_cast_text(hudi_buf *out, const hudi_sql_ctx *ctx, const hudi_array *a, int64_t r) {
    if (!hudi_array_is_valid(a, r)) return hudi_buf_puts(out, "null");
    switch (a->field->type) {
    case HUDI_TYPE_LIST:
        hudi_buf_putc(out, '[');
        for (int32_t k = a->offsets[r]; k < a->offsets[r + 1]; k++) {
            if (k > a->offsets[r]) hudi_buf_puts(out, ", ");
            put_cast_text(out, ctx, a->children[0], k);
        }
        hudi_buf_putc(out, ']');
        break;
    case HUDI_TYPE_MAP: {
        const hudi_array *kv = a->children[0];
        hudi_buf_putc(out, '{');
        for (int32_t k = a->offsets[r]; k < a->offsets[r + 1]; k++) {
            if (k > a->offsets[r]) hudi_buf_puts(out, ", ");
            put_cast_text(out, ctx, kv->children[0], k);
            hudi_buf_puts(out, " -> ");
            put_cast_text(out, ctx, kv->children[1], k);
        }
        hudi_buf_putc(out, '}');
        break;
    }
    case HUDI_TYPE_STRUCT:
        hudi_buf_putc(out, '{');
        for (int32_t c = 0; c < a->n_children; c++) {
            if (c) hudi_buf_puts(out, ", ");
            put_cast_text(out, ctx, a->children[c], r);
        }
        hudi_buf_putc(out, '}');
        break;
    default: put_scalar(out, ctx, a, r, false); break;
    }
}

static int cmp_str(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* spark-sql's text (HiveResult.toHiveString): nested strings quoted, nulls "null", maps
 * sorted by their entries' text. */
static void put_hive(hudi_buf *out, const hudi_sql_ctx *ctx, const hudi_array *a, int64_t r,
                     bool nested) {
    if (!hudi_array_is_valid(a, r)) return hudi_buf_puts(out, nested ? "null" : "NULL");
    switch (a->field->type) {
    case HUDI_TYPE_STRING:
        if (nested) hudi_buf_putc(out, '"');
        put_scalar(out, ctx, a, r, true);
        if (nested) hudi_buf_putc(out, '"');
        break;
    case HUDI_TYPE_LIST:
        hudi_buf_putc(out, '[');
        for (int32_t k = a->offsets[r]; k < a->offsets[r + 1]; k++) {
            if (k > a->offsets[r]) hudi_buf_putc(out, ',');
            put_hive(out, ctx, a->children[0], k, true);
        }
        hudi_buf_putc(out, ']');
        break;
    case HUDI_TYPE_STRUCT:
        hudi_buf_putc(out, '{');
        for (int32_t c = 0; c < a->n_children; c++) {
            if (c) hudi_buf_putc(out, ',');
            hudi_buf_putc(out, '"');
            hudi_buf_puts(out, a->children[c]->field->name ? a->children[c]->field->name : "");
            hudi_buf_puts(out, "\":");
            put_hive(out, ctx, a->children[c], r, true);
        }
        hudi_buf_putc(out, '}');
        break;
    case HUDI_TYPE_MAP: {
        const hudi_array *kv = a->children[0];
        int32_t lo = a->offsets[r], n = a->offsets[r + 1] - lo;
        char **items = n > 0 ? hudi_calloc((size_t)n, sizeof(char *)) : NULL;
        if (n > 0 && !items) {
            out->failed = true;
            return;
        }
        for (int32_t k = 0; k < n; k++) {
            hudi_buf e = HUDI_BUF_INIT;
            put_hive(&e, ctx, kv->children[0], lo + k, true);
            hudi_buf_putc(&e, ':');
            put_hive(&e, ctx, kv->children[1], lo + k, true);
            if (e.failed) out->failed = true;
            items[k] = hudi_buf_detach(&e);
        }
        qsort(items, (size_t)n, sizeof(char *), cmp_str);
        hudi_buf_putc(out, '{');
        for (int32_t k = 0; k < n; k++) {
            if (k) hudi_buf_putc(out, ',');
            if (items[k]) hudi_buf_puts(out, items[k]);
            hudi_free(items[k]);
        }
        hudi_free(items);
        hudi_buf_putc(out, '}');
        break;
    }
    default: put_scalar(out, ctx, a, r, true); break;
    }
}

void hudi_sql_render_value(hudi_buf *out, const hudi_sql_ctx *ctx, const hudi_array *a,
                           int64_t row) {
    put_hive(out, ctx, a, row, false);
}

/* ---- CAST over arrays --------------------------------------------------------------------------
 */

static int64_t wrap_to(int64_t v, hudi_type_id t) {
    switch (t) {
    case HUDI_TYPE_INT8: return (int8_t)v;
    case HUDI_TYPE_INT16: return (int16_t)v;
    case HUDI_TYPE_INT32: return (int32_t)v;
    default: return v;
    }
}

static int64_t sat_double(double d, int64_t lo, int64_t hi) {
    if (isnan(d)) return 0;
    if (d >= (double)hi) return hi;
    if (d <= (double)lo) return lo;
    return (int64_t)d;
}

static bool to_integral(const hudi_sql_ctx *ctx, const hudi_array *a, int64_t r, hudi_type_id t,
                        int64_t *out) {
    (void)ctx;
    switch (a->field->type) {
    case HUDI_TYPE_DATE: return false;
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: {
        double d = hudi_sql_num_f64(a, r);
        *out = t == HUDI_TYPE_INT64 ? sat_double(d, INT64_MIN, INT64_MAX)
                                    : wrap_to(sat_double(d, INT32_MIN, INT32_MAX), t);
        return true;
    }
    case HUDI_TYPE_STRING: {
        int64_t v;
        if (!hudi_sql_parse_long(
                HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r])),
                &v) ||
            wrap_to(v, t) != v)
            return false;
        *out = v;
        return true;
    }
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        memcpy(&u, (const uint8_t *)a->values + 16 * r, 16);
        int32_t s = a->field->scale;
        u = s > 0 && s <= 38 ? u / hudi_sql_pow10[s] : u;
        *out = wrap_to((int64_t)(uint64_t)(unsigned __int128)u, t);
        return true;
    }
    default:
        if (hudi_type_is_nested(a->field->type) || a->field->type == HUDI_TYPE_BINARY) return false;
        *out = wrap_to(hudi_sql_num_i64(a, r), t);
        return true;
    }
}

static bool to_double(const hudi_array *a, int64_t r, double *out) {
    switch (a->field->type) {
    case HUDI_TYPE_DATE: return false;
    case HUDI_TYPE_STRING:
        return hudi_sql_parse_double(
            HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r])), out);
    default:
        if (hudi_type_is_nested(a->field->type) || a->field->type == HUDI_TYPE_BINARY) return false;
        *out = hudi_sql_num_f64(a, r);
        return true;
    }
}

static bool to_float(const hudi_array *a, int64_t r, float *out) {
    switch (a->field->type) {
    case HUDI_TYPE_STRING:
        return parse_float(
            HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r])), out);
    case HUDI_TYPE_INT64: *out = (float)((const int64_t *)a->values)[r]; return true;
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        char text[64];
        memcpy(&u, (const uint8_t *)a->values + 16 * r, 16);
        int32_t s = a->field->scale;
        *out = strtof(dec_text(text, u, s < 0 ? 0 : s > 38 ? 38 : s), NULL);
        return true;
    }
    default: {
        double d;
        if (!to_double(a, r, &d)) return false;
        *out = (float)d;
        return true;
    }
    }
}

static bool double_to_decimal(double d, int32_t p, int32_t s, __int128 *out) {
    if (isnan(d) || isinf(d)) return false;
    if (d == 0) return *out = 0, true;
    char dig[24], text[64];
    int e, n = hudi_sql_shortest(d, false, dig, &e);
    snprintf(text, sizeof(text), "%s0.%se%d", d < 0 ? "-" : "", dig, e);
    (void)n;
    return hudi_sql_parse_decimal(hudi_slice_cstr(text), p, s, out);
}

static bool to_decimal(const hudi_array *a, int64_t r, int32_t p, int32_t s, __int128 *out) {
    switch (a->field->type) {
    case HUDI_TYPE_DATE: return false;
    case HUDI_TYPE_STRING:
        return hudi_sql_parse_decimal(
            HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r])), p, s,
            out);
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        memcpy(&u, (const uint8_t *)a->values + 16 * r, 16);
        return hudi_sql_dec_rescale(u, a->field->scale, s, p, out);
    }
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: return double_to_decimal(hudi_sql_num_f64(a, r), p, s, out);
    case HUDI_TYPE_TIMESTAMP: return hudi_sql_dec_rescale(hudi_sql_ts_micros(a, r), 6, s, p, out);
    case HUDI_TYPE_UINT64:
        return hudi_sql_dec_rescale((__int128)((const uint64_t *)a->values)[r], 0, s, p, out);
    default:
        if (hudi_type_is_nested(a->field->type) || a->field->type == HUDI_TYPE_BINARY) return false;
        return hudi_sql_dec_rescale(hudi_sql_num_i64(a, r), 0, s, p, out);
    }
}

static bool to_bool(const hudi_array *a, int64_t r, bool *out) {
    switch (a->field->type) {
    case HUDI_TYPE_DATE: return false;
    case HUDI_TYPE_STRING: {
        hudi_slice s =
            trim(HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r])));
        if (ieq(s, "t") || ieq(s, "true") || ieq(s, "y") || ieq(s, "yes") || ieq(s, "1"))
            return *out = true, true;
        if (ieq(s, "f") || ieq(s, "false") || ieq(s, "n") || ieq(s, "no") || ieq(s, "0"))
            return *out = false, true;
        return false;
    }
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        memcpy(&u, (const uint8_t *)a->values + 16 * r, 16);
        return *out = u != 0, true;
    }
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: return *out = hudi_sql_num_f64(a, r) != 0, true;
    case HUDI_TYPE_TIMESTAMP: return *out = hudi_sql_ts_micros(a, r) != 0, true;
    default:
        if (hudi_type_is_nested(a->field->type) || a->field->type == HUDI_TYPE_BINARY) return false;
        return *out = hudi_sql_num_i64(a, r) != 0, true;
    }
}

static int64_t tz_micros(const hudi_sql_ctx *ctx) {
    return (int64_t)ctx->tz_offset_minutes * 60000000;
}

/* Micros since the epoch for a TIMESTAMP of type `to` (utc or not). */
static bool to_timestamp(const hudi_sql_ctx *ctx, const hudi_array *a, int64_t r,
                         const hudi_field *to, int64_t *out) {
    const hudi_field *f = a->field;
    switch (f->type) {
    case HUDI_TYPE_STRING: {
        hudi_slice s =
            HUDI_SLICE(a->data + a->offsets[r], (size_t)(a->offsets[r + 1] - a->offsets[r]));
        return hudi_sql_parse_timestamp(s, to->utc ? ctx->tz_offset_minutes : 0, ctx->now_micros,
                                        out);
    }
    case HUDI_TYPE_DATE: {
        int64_t v = (int64_t)((const int32_t *)a->values)[r] * HUDI_SQL_MICROS_PER_DAY;
        return *out = to->utc ? v - tz_micros(ctx) : v, true;
    }
    case HUDI_TYPE_TIMESTAMP: {
        int64_t v = hudi_sql_ts_micros(a, r);
        if (f->utc && !to->utc) v += tz_micros(ctx);
        if (!f->utc && to->utc) v -= tz_micros(ctx);
        return *out = v, true;
    }
    case HUDI_TYPE_BOOL: return *out = hudi_bit_get(a->values, r) ? 1 : 0, true;
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: {
        double d = hudi_sql_num_f64(a, r);
        if (isnan(d) || isinf(d)) return false;
        return *out = sat_double(d * 1e6, INT64_MIN, INT64_MAX), true;
    }
    case HUDI_TYPE_DECIMAL: {
        __int128 u;
        memcpy(&u, (const uint8_t *)a->values + 16 * r, 16);
        __int128 m;
        if (!hudi_sql_dec_rescale(u, f->scale, 6, 38, &m)) return false;
        /* Spark truncates the fraction of a microsecond */
        if (f->scale > 6) m = u / hudi_sql_pow10[f->scale - 6];
        if (m > INT64_MAX || m < INT64_MIN) return false;
        return *out = (int64_t)m, true;
    }
    default: {
        if (!hudi_sql_is_integral(f->type) && f->type < HUDI_TYPE_UINT8) return false;
        if (hudi_type_is_nested(f->type) || f->type == HUDI_TYPE_BINARY) return false;
        int64_t s = hudi_sql_num_i64(a, r), v;
        if (__builtin_mul_overflow(s, (int64_t)1000000, &v)) v = s < 0 ? INT64_MIN : INT64_MAX;
        return *out = v, true;
    }
    }
}

static int cast_nested(hudi_sql_ctx *ctx, const hudi_array *in, const hudi_field *to,
                       hudi_array **out, hudi_error *err) {
    hudi_array *o;
    int rc = hudi_array_new(&o, to, err);
    if (rc < 0) return rc;
    int64_t n = in->length;
    if ((rc = hudi_array_reserve(o, n, err)) < 0) goto fail;
    if (in->validity || in->field->type == HUDI_TYPE_NULL) {
        if ((rc = hudi_array_ensure_validity(o, err)) < 0) goto fail;
        if (in->validity)
            hudi_bitmap_copy(o->validity, 0, in->validity, 0, n);
        else
            hudi_bitmap_set_range(o->validity, 0, n, false);
    }
    if (in->field->type == HUDI_TYPE_NULL) {
        for (int32_t c = 0; c < o->n_children && to->type == HUDI_TYPE_STRUCT; c++)
            if ((rc = hudi_array_append_nulls(o->children[c], n, err)) < 0) goto fail;
        if (o->offsets) memset(o->offsets, 0, (size_t)(n + 1) * sizeof(int32_t));
    } else if (to->type == HUDI_TYPE_STRUCT) {
        for (int32_t c = 0; c < o->n_children; c++) {
            hudi_array *kid;
            if ((rc = hudi_sql_cast_array(ctx, in->children[c], &to->children[c], &kid, err)) < 0)
                goto fail;
            hudi_array_free(o->children[c]);
            o->children[c] = kid;
        }
    } else {
        const hudi_array *src = in->children[0];
        hudi_array *kid;
        if (to->type == HUDI_TYPE_MAP)
            rc = cast_nested(ctx, src, &to->children[0], &kid, err);
        else
            rc = hudi_sql_cast_array(ctx, src, &to->children[0], &kid, err);
        if (rc < 0) goto fail;
        hudi_array_free(o->children[0]);
        o->children[0] = kid;
        memcpy(o->offsets, in->offsets, (size_t)(n + 1) * sizeof(int32_t));
    }
    o->length = n;
    o->null_count = in->field->type == HUDI_TYPE_NULL ? n : in->null_count;
    *out = o;
    return 0;
fail:
    hudi_array_free(o);
    return rc;
}

int hudi_sql_cast_array(hudi_sql_ctx *ctx, const hudi_array *in, const hudi_field *to,
                        hudi_array **out, hudi_error *err) {
    *out = NULL;
    hudi_type_id t = to->type, f = in->field->type;
    if (hudi_type_is_nested(t)) return cast_nested(ctx, in, to, out, err);
    hudi_array *o;
    int64_t n = in->length;
    int rc = hudi_sql_out_new(to, n, &o, err);
    if (rc < 0) return rc;
    hudi_buf text = HUDI_BUF_INIT;
    for (int64_t i = 0; i < n; i++) {
        if (f == HUDI_TYPE_NULL || !hudi_array_is_valid(in, i)) {
            hudi_sql_out_null(o, i);
            continue;
        }
        bool ok = true;
        switch (t) {
        case HUDI_TYPE_NULL: ok = false; break;
        case HUDI_TYPE_BOOL: {
            bool b = false;
            if ((ok = to_bool(in, i, &b))) hudi_sql_out_bool(o, i, b);
            break;
        }
        case HUDI_TYPE_INT8:
        case HUDI_TYPE_INT16:
        case HUDI_TYPE_INT32:
        case HUDI_TYPE_INT64: {
            int64_t v = 0;
            if (!(ok = to_integral(ctx, in, i, t, &v))) break;
            if (t == HUDI_TYPE_INT8)
                HUDI_SQL_OUT(o, int8_t, i, (int8_t)v);
            else if (t == HUDI_TYPE_INT16)
                HUDI_SQL_OUT(o, int16_t, i, (int16_t)v);
            else if (t == HUDI_TYPE_INT32)
                HUDI_SQL_OUT(o, int32_t, i, (int32_t)v);
            else
                HUDI_SQL_OUT(o, int64_t, i, v);
            break;
        }
        case HUDI_TYPE_FLOAT: {
            float v = 0;
            if ((ok = to_float(in, i, &v))) HUDI_SQL_OUT(o, float, i, v);
            break;
        }
        case HUDI_TYPE_DOUBLE: {
            double v = 0;
            if ((ok = to_double(in, i, &v))) HUDI_SQL_OUT(o, double, i, v);
            break;
        }
        case HUDI_TYPE_DECIMAL: {
            __int128 v = 0;
            if ((ok = to_decimal(in, i, to->precision, to->scale, &v))) hudi_sql_out_dec(o, i, v);
            break;
        }
        case HUDI_TYPE_DATE: {
            int32_t d = 0;
            if (f == HUDI_TYPE_STRING) {
                ok = hudi_sql_parse_date(HUDI_SLICE(in->data + in->offsets[i],
                                                    (size_t)(in->offsets[i + 1] - in->offsets[i])),
                                         &d);
            } else if (f == HUDI_TYPE_DATE) {
                d = ((const int32_t *)in->values)[i];
            } else if (f == HUDI_TYPE_TIMESTAMP) {
                int64_t us = hudi_sql_ts_micros(in, i) + (in->field->utc ? tz_micros(ctx) : 0);
                d = (int32_t)hudi_sql_floor_div(us, HUDI_SQL_MICROS_PER_DAY);
            } else {
                ok = false;
            }
            if (ok) HUDI_SQL_OUT(o, int32_t, i, d);
            break;
        }
        case HUDI_TYPE_TIMESTAMP: {
            int64_t us = 0;
            if (!(ok = to_timestamp(ctx, in, i, to, &us))) break;
            if (to->unit == HUDI_UNIT_MILLIS) us = hudi_sql_floor_div(us, 1000);
            if (to->unit == HUDI_UNIT_NANOS) us *= 1000;
            HUDI_SQL_OUT(o, int64_t, i, us);
            break;
        }
        case HUDI_TYPE_STRING:
        case HUDI_TYPE_BINARY: {
            hudi_buf_clear(&text);
            if (t == HUDI_TYPE_BINARY && hudi_sql_is_integral(f)) {
                int w = hudi_type_width(in->field);
                uint8_t be[8];
                uint64_t v = (uint64_t)hudi_sql_num_i64(in, i);
                for (int k = w - 1; k >= 0; k--, v >>= 8) be[k] = (uint8_t)v;
                hudi_buf_append(&text, be, (size_t)w);
            } else if (hudi_type_is_nested(f)) {
                put_cast_text(&text, ctx, in, i);
            } else {
                put_scalar(&text, ctx, in, i, false);
            }
            if (text.failed) {
                rc = hudi_error_oom(err);
                goto fail;
            }
            if ((rc = hudi_sql_out_str(o, i, text.data, text.len, err)) < 0) goto fail;
            break;
        }
        default:
            rc = hudi_error_set(err, HUDI_EUNSUPPORTED, "cannot cast %s to %s", hudi_type_name(f),
                                hudi_type_name(t));
            goto fail;
        }
        if (!ok) hudi_sql_out_null(o, i);
    }
    hudi_buf_dispose(&text);
    hudi_sql_out_done(o, n);
    *out = o;
    return 0;
fail:
    hudi_buf_dispose(&text);
    hudi_array_free(o);
    return rc;
}

/* "cast": the binder creates it with hudi_sql_bind_cast; the target is the call's type. */
static int cast_bind(hudi_sql_bind_call *call, hudi_error *err) {
    return hudi_sql_bind_error(call, err, "use CAST(x AS type)");
}

static int cast_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call, const hudi_sql_datum *args,
                     int64_t nrows, hudi_array **out, hudi_error *err) {
    if (!args[0].is_const) return hudi_sql_cast_array(ctx, args[0].array, &call->type, out, err);
    /* a constant: cast its row once, then repeat it */
    hudi_array *row = NULL, *one, *o;
    int rc = 0;
    const hudi_array *in = args[0].array;
    if (in->length != 1 && (rc = hudi_array_slice(&row, in, 0, 1, err)) < 0) return rc;
    rc = hudi_sql_cast_array(ctx, row ? row : in, &call->type, &one, err);
    hudi_array_free(row);
    if (rc < 0) return rc;
    if (nrows == 1) {
        *out = one;
        return 0;
    }
    if ((rc = hudi_array_new(&o, &call->type, err)) < 0) {
        hudi_array_free(one);
        return rc;
    }
    if ((rc = hudi_array_reserve(o, nrows, err)) < 0) goto done;
    for (int64_t i = 0; i < nrows && rc == 0; i++) rc = hudi_array_append_range(o, one, 0, 1, err);
done:
    hudi_array_free(one);
    if (rc < 0) {
        hudi_array_free(o);
        return rc;
    }
    *out = o;
    return 0;
}

const hudi_sql_func hudi_sql_cast_func = {
    "cast",    HUDI_SQL_FN_SCALAR,
    1,         1,
    cast_bind, cast_eval,
    NULL,      "cast(expr AS type) - converts expr to type; a value that does not convert is NULL"};
