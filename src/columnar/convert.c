/* convert.c - value conversions of schema evolution (docs/formats/schema-evolution.md §5).
 *
 * Invariant: a conversion costs no allocation per row. Fixed-width targets are written straight
 * into the new array's buffers; string targets format each value into one scratch hudi_buf and
 * append its bytes, so only the geometric growth of the scratch and data buffers allocates. */
#include "columnar/convert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "columnar/render.h"
#include "columnar/value_parse.h"

typedef unsigned __int128 u128;

/* ---- type rules ----------------------------------------------------------------------------- */

static bool is_int(hudi_type_id t) {
    return t == HUDI_TYPE_INT8 || t == HUDI_TYPE_INT16 || t == HUDI_TYPE_INT32 ||
           t == HUDI_TYPE_INT64;
}

/* Same type, parameters included. */
static bool same_type(const hudi_field *a, const hudi_field *b) {
    if (a->type != b->type) return false;
    switch (a->type) {
    case HUDI_TYPE_DECIMAL: return a->precision == b->precision && a->scale == b->scale;
    case HUDI_TYPE_TIME:
    case HUDI_TYPE_TIMESTAMP: return a->unit == b->unit && a->utc == b->utc;
    case HUDI_TYPE_FIXED_BINARY: return a->byte_width == b->byte_width;
    default: return true;
    }
}

/* decimal(p1, s1) -> decimal(p2, s2): no integer digit lost, and either more fraction digits
 * or the same scale (the ALTER COLUMN TYPE rule of §5). */
static bool decimal_widens(const hudi_field *from, const hudi_field *to) {
    int32_t p1 = from->precision, s1 = from->scale, p2 = to->precision, s2 = to->scale;
    return (p2 - s2 >= p1 - s1 && s2 > s1) || (p2 >= p1 && s2 == s1);
}

bool hudi_type_can_convert(const hudi_field *from, const hudi_field *to) {
    hudi_type_id a = from->type, b = to->type;
    if (hudi_type_is_nested(a) || hudi_type_is_nested(b)) return false;
    if (same_type(from, to)) return true;
    switch (b) {
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64: return is_int(a) && hudi_type_width(from) < hudi_type_width(to);
    case HUDI_TYPE_FLOAT: return is_int(a);
    case HUDI_TYPE_DOUBLE: return is_int(a) || a == HUDI_TYPE_FLOAT;
    case HUDI_TYPE_DECIMAL:
        if (a == HUDI_TYPE_DECIMAL) return decimal_widens(from, to);
        return is_int(a) || a == HUDI_TYPE_FLOAT || a == HUDI_TYPE_DOUBLE || a == HUDI_TYPE_STRING;
    case HUDI_TYPE_STRING:
        return is_int(a) || a == HUDI_TYPE_FLOAT || a == HUDI_TYPE_DOUBLE ||
               a == HUDI_TYPE_DECIMAL || a == HUDI_TYPE_DATE || a == HUDI_TYPE_BINARY;
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_BINARY: return a == HUDI_TYPE_STRING;
    default: return false;
    }
}

/* ---- Java's Double.toString / Float.toString ------------------------------------------------ */

/* The shortest decimal digits that read back as v (finite, > 0): digits in dig (no leading or
 * trailing zeros; at most 17), v ~ 0.d1d2... * 10^(*dexp). Returns the digit count. The
 * correctly rounded p-digit text reads back for every p from the shortest on, so a binary
 * search over p finds it. */
static int shortest_digits(double v, bool single, char dig[24], int *dexp) {
    char tmp[48];
    int lo = 1, hi = single ? 9 : 17;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        snprintf(tmp, sizeof(tmp), "%.*e", mid - 1, v);
        bool back = single ? strtof(tmp, NULL) == (float)v : strtod(tmp, NULL) == v;
        if (back)
            hi = mid;
        else
            lo = mid + 1;
    }
    snprintf(tmp, sizeof(tmp), "%.*e", lo - 1, v);
    int nd = 0;
    const char *p = tmp;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') dig[nd++] = *p;
    int e = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    *dexp = e + 1;
    return nd;
}

/* JDK 17 prints an integral value below 2^63 from its exact integer with the low digits that
 * its binary exponent makes insignificant rounded off (half up), not from the shortest digits:
 * float 1.13132703E18 where 1.131327E18 would read back, double 6.2862687402992067E18. */
static int jdk_integer_digits(double m, bool single, char dig[24], int *dexp) {
    int bin_exp;
    frexp(m, &bin_exp);
    bin_exp--; /* m in [2^bin_exp, 2^(bin_exp + 1)) */
    int sig_bits = single ? 24 : 53, insignificant = 0;
    int p2 = bin_exp - sig_bits - 1;
    if (bin_exp > sig_bits && p2 > 1) insignificant = (int)floor(p2 * 0.30102999566398120);
    uint64_t v = (uint64_t)m;
    if (insignificant > 0) {
        uint64_t pow10 = 1;
        for (int i = 0; i < insignificant; i++) pow10 *= 10;
        uint64_t residue = v % pow10;
        v /= pow10;
        if (residue >= pow10 / 2) v++;
    }
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    *dexp = n + insignificant;
    int nd = 0;
    for (int i = n - 1; i >= 0; i--) dig[nd++] = tmp[i];
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    return nd;
}

/* Java's layout of 0.d1d2... * 10^dexp: plain for 10^-3 <= |v| < 10^7 with at least one
 * fraction digit ("100.0", "0.001"), else "d.ddd" (at least "d.0") + "E" + exponent. */
static void java_layout(hudi_buf *out, bool neg, const char *dig, int nd, int dexp) {
    char s[64], *o = s;
    if (neg) *o++ = '-';
    if (dexp > 0 && dexp < 8) {
        for (int i = 0; i < dexp; i++) *o++ = i < nd ? dig[i] : '0';
        *o++ = '.';
        if (nd > dexp) {
            memcpy(o, dig + dexp, (size_t)(nd - dexp));
            o += nd - dexp;
        } else {
            *o++ = '0';
        }
    } else if (dexp <= 0 && dexp > -3) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -dexp; i++) *o++ = '0';
        memcpy(o, dig, (size_t)nd);
        o += nd;
    } else {
        *o++ = dig[0];
        *o++ = '.';
        if (nd > 1) {
            memcpy(o, dig + 1, (size_t)(nd - 1));
            o += nd - 1;
        } else {
            *o++ = '0';
        }
        o += snprintf(o, 8, "E%d", dexp - 1);
    }
    hudi_buf_append(out, s, (size_t)(o - s));
}

static void java_text(hudi_buf *out, double v, bool single) {
    if (isnan(v)) {
        hudi_buf_puts(out, "NaN");
        return;
    }
    if (isinf(v)) {
        hudi_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (v == 0) {
        hudi_buf_puts(out, signbit(v) ? "-0.0" : "0.0");
        return;
    }
    char dig[24];
    int dexp, nd;
    double m = fabs(v);
    if (m < 0x1p63 && m == floor(m))
        nd = jdk_integer_digits(m, single, dig, &dexp);
    else
        nd = shortest_digits(m, single, dig, &dexp);
    java_layout(out, v < 0, dig, nd, dexp);
}

void hudi_java_double_text(hudi_buf *out, double v) { java_text(out, v, false); }

void hudi_java_float_text(hudi_buf *out, float v) { java_text(out, v, true); }

/* ---- decimals ---------------------------------------------------------------------------------
 */

static u128 pow10_u128(int k) {
    u128 r = 1;
    while (k-- > 0) r *= 10;
    return r;
}

static __int128 load_dec(const void *values, int64_t i) {
    const uint8_t *p = (const uint8_t *)values + (size_t)i * 16;
    return (__int128)((u128)hudi_load_u64le(p + 8) << 64 | hudi_load_u64le(p));
}

static void store_dec(void *values, int64_t i, __int128 v) {
    uint8_t *p = (uint8_t *)values + (size_t)i * 16;
    hudi_store_u64le(p, (uint64_t)(u128)v);
    hudi_store_u64le(p + 8, (uint64_t)((u128)v >> 64));
}

/* Java's BigDecimal.toString of unscaled * 10^-scale: plain when scale >= 0 and the adjusted
 * exponent (-scale + digits - 1) is at least -6, else scientific ("0E-10", "1.2E-7", "1E+3"). */
static void bigdecimal_text(hudi_buf *out, __int128 unscaled, int32_t scale) {
    u128 m = unscaled < 0 ? (u128)0 - (u128)unscaled : (u128)unscaled;
    char dig[48];
    int nd = 0;
    do {
        dig[nd++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    for (int i = 0; i < nd / 2; i++) {
        char t = dig[i];
        dig[i] = dig[nd - 1 - i];
        dig[nd - 1 - i] = t;
    }
    int64_t adjusted = -(int64_t)scale + (nd - 1);
    char s[160], *o = s;
    if (unscaled < 0) *o++ = '-';
    if (scale >= 0 && adjusted >= -6) {
        if (nd > scale) {
            memcpy(o, dig, (size_t)(nd - scale));
            o += nd - scale;
            if (scale > 0) {
                *o++ = '.';
                memcpy(o, dig + nd - scale, (size_t)scale);
                o += scale;
            }
        } else {
            *o++ = '0';
            *o++ = '.';
            for (int i = nd; i < scale; i++) *o++ = '0';
            memcpy(o, dig, (size_t)nd);
            o += nd;
        }
    } else {
        *o++ = dig[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, dig + 1, (size_t)(nd - 1));
            o += nd - 1;
        }
        o += snprintf(o, 24, "E%s%lld", adjusted > 0 ? "+" : "", (long long)adjusted);
    }
    hudi_buf_append(out, s, (size_t)(o - s));
}

enum { DEC_OK = 0, DEC_SYNTAX = -1, DEC_RANGE = -2 };

/* Java's trim(): every leading and trailing character <= ' '. */
static void trim(const char **s, size_t *n) {
    while (*n && (unsigned char)(*s)[0] <= ' ') {
        (*s)++;
        (*n)--;
    }
    while (*n && (unsigned char)(*s)[*n - 1] <= ' ') (*n)--;
}

/* BigDecimal text ([sign] digits [. digits] [e|E [sign] digits], or ". digits") rounded HALF_UP
 * to `scale` fraction digits: the unscaled value, which must have at most `precision` digits. */
static int parse_decimal_half_up(const char *s, size_t n, int32_t precision, int32_t scale,
                                 __int128 *out) {
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    size_t mant = i, n_digits = 0, n_frac = 0;
    bool dot = false;
    for (; i < n; i++) {
        if (s[i] == '.' && !dot) {
            dot = true;
        } else if (s[i] >= '0' && s[i] <= '9') {
            n_digits++;
            if (dot) n_frac++;
        } else {
            break;
        }
    }
    size_t mant_end = i;
    if (n_digits == 0) return DEC_SYNTAX;
    int64_t exp10 = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        if (i == n) return DEC_SYNTAX;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (exp10 < 1000000000) exp10 = exp10 * 10 + (s[i] - '0');
        if (eneg) exp10 = -exp10;
    }
    if (i != n) return DEC_SYNTAX;
    /* value = M * 10^(exp10 - n_frac), M the mantissa digits; unscaled = M * 10^k */
    int64_t k = exp10 - (int64_t)n_frac + scale;
    /* keep the first n_digits + k mantissa digits; the next one decides the rounding */
    int64_t keep = (int64_t)n_digits + k;
    u128 limit = pow10_u128(precision), m = 0;
    int round_digit = 0;
    int64_t idx = 0;
    for (size_t j = mant; j < mant_end; j++) {
        if (s[j] == '.') continue;
        int d = s[j] - '0';
        if (idx < keep) {
            m = m * 10 + (u128)d;
            if (m >= limit) return DEC_RANGE;
        } else if (idx == keep) {
            round_digit = d;
        }
        idx++;
    }
    if (k > 0 && m != 0) {
        if (k > 38) return DEC_RANGE;
        u128 f = pow10_u128((int)k);
        if (m > (limit - 1) / f) return DEC_RANGE;
        m *= f;
    }
    if (round_digit >= 5) m++;
    if (m >= limit) return DEC_RANGE;
    *out = neg ? -(__int128)m : (__int128)m;
    return DEC_OK;
}

/* unscaled at scale s1 -> scale s2, HALF_UP; DEC_RANGE when it needs more than `precision`. */
static int rescale(__int128 v, int32_t s1, int32_t s2, int32_t precision, __int128 *out) {
    bool neg = v < 0;
    u128 m = neg ? (u128)0 - (u128)v : (u128)v, limit = pow10_u128(precision);
    if (s2 >= s1) {
        if (m != 0) {
            if (s2 - s1 > 38) return DEC_RANGE;
            u128 f = pow10_u128(s2 - s1);
            if (m > (limit - 1) / f) return DEC_RANGE;
            m *= f;
        }
    } else if (s1 - s2 > 38) {
        m = 0;
    } else {
        u128 f = pow10_u128(s1 - s2), q = m / f, r = m % f;
        m = q + (r * 2 >= f ? 1 : 0);
    }
    if (m >= limit) return DEC_RANGE;
    *out = neg ? -(__int128)m : (__int128)m;
    return DEC_OK;
}

/* ---- strings ----------------------------------------------------------------------------------
 */

/* The length of the maximal prefix of an ill-formed sequence at s (s[0] >= 0x80): the bytes one
 * U+FFFD replaces (Unicode's "maximal subpart" practice, which Java's decoder follows). */
static size_t bad_utf8_len(const uint8_t *s, size_t n) {
    uint8_t c = s[0], lo = 0x80, hi = 0xbf;
    size_t len;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4;
    else
        return 1;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
    size_t k = 1;
    if (k < n && s[k] >= lo && s[k] <= hi) {
        k++;
        while (k < len && k < n && (s[k] & 0xc0) == 0x80) k++;
    }
    return k;
}

/* s as UTF-8 with every ill-formed subsequence replaced by U+FFFD. */
static void put_utf8_repaired(hudi_buf *out, const uint8_t *s, size_t n) {
    size_t i = 0, run = 0;
    while (i < n) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = hudi_utf8_seq_len(s + i, n - i);
        if (len) {
            i += len;
            continue;
        }
        hudi_buf_append(out, s + run, i - run);
        hudi_buf_append(out, "\xef\xbf\xbd", 3);
        i += bad_utf8_len(s + i, n - i);
        run = i;
    }
    hudi_buf_append(out, s + run, n - run);
}

/* java.sql.Date.valueOf: "yyyy-[m]m-[d]d" with month 1-12 and day 1-31; a day past the month's
 * end rolls into the next month, as java.util.Date's lenient calendar does. */
static bool parse_java_date(const char *s, size_t n, int32_t *days) {
    int part[3] = {0, 0, 0}, len[3] = {0, 0, 0}, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-') {
            if (++k > 2) return false;
        } else if (s[i] >= '0' && s[i] <= '9') {
            if (++len[k] > 4) return false;
            part[k] = part[k] * 10 + (s[i] - '0');
        } else {
            return false;
        }
    }
    if (k != 2 || len[0] != 4 || len[1] < 1 || len[1] > 2 || len[2] < 1 || len[2] > 2) return false;
    if (part[1] < 1 || part[1] > 12 || part[2] < 1 || part[2] > 31) return false;
    *days = (int32_t)(hudi_days_from_civil(part[0], part[1], 1) + part[2] - 1);
    return true;
}

/* ---- the array conversion ---------------------------------------------------------------------
 */

typedef struct conv {
    const hudi_array *a;
    hudi_array *w;
    bool lenient;
    const char *column;
    hudi_buf text; /* scratch: one value's text */
    hudi_error *err;
} conv;

/* Value i of a signed integer array. */
static int64_t int_at(const hudi_array *a, int64_t i) {
    switch (a->field->type) {
    case HUDI_TYPE_INT8: return ((const int8_t *)a->values)[i];
    case HUDI_TYPE_INT16: return ((const int16_t *)a->values)[i];
    case HUDI_TYPE_INT32: return ((const int32_t *)a->values)[i];
    default: return ((const int64_t *)a->values)[i];
    }
}

static void describe(hudi_buf *b, const hudi_field *f) {
    if (f->type == HUDI_TYPE_DECIMAL)
        hudi_buf_printf(b, "decimal(%d,%d)", (int)f->precision, (int)f->scale);
    else
        hudi_buf_puts(b, hudi_type_name(f->type));
}

/* Row i does not convert: null when lenient, else EINVAL naming the column and the value (the
 * value's text is in c->text). */
static int bad_value(conv *c, int64_t i, const char *why) {
    if (c->lenient) {
        hudi_bit_clear(c->w->validity, i);
        c->w->null_count++;
        return 0;
    }
    hudi_buf t = HUDI_BUF_INIT;
    describe(&t, c->w->field);
    const char *value = c->text.data ? c->text.data : "";
    int rc = hudi_error_set(c->err, HUDI_EINVAL, "column %s: value '%.200s' %s %s", c->column,
                            value, why, t.data ? t.data : "?");
    hudi_buf_dispose(&t);
    return rc;
}

/* The text of row i of a (a valid row), in c->text. */
static void value_text(conv *c, int64_t i) {
    const hudi_array *a = c->a;
    const hudi_field *f = a->field;
    hudi_buf *t = &c->text;
    hudi_buf_clear(t);
    switch (f->type) {
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_INT64: hudi_render_i64(t, int_at(a, i)); break;
    case HUDI_TYPE_FLOAT: hudi_java_float_text(t, ((const float *)a->values)[i]); break;
    case HUDI_TYPE_DOUBLE: hudi_java_double_text(t, ((const double *)a->values)[i]); break;
    case HUDI_TYPE_DECIMAL: bigdecimal_text(t, load_dec(a->values, i), f->scale); break;
    case HUDI_TYPE_DATE: hudi_render_date(t, ((const int32_t *)a->values)[i]); break;
    case HUDI_TYPE_BINARY: {
        int32_t s = a->offsets[i], e = a->offsets[i + 1];
        put_utf8_repaired(t, a->data + s, (size_t)(e - s));
        break;
    }
    default: { /* STRING: as is */
        int32_t s = a->offsets[i], e = a->offsets[i + 1];
        hudi_buf_append(t, a->data + s, (size_t)(e - s));
        break;
    }
    }
}

static int to_string(conv *c) {
    const hudi_array *a = c->a;
    hudi_array *w = c->w;
    int64_t n = a->length;
    int rc;
    w->offsets[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        if (hudi_array_is_valid(a, i)) {
            if (a->field->type == HUDI_TYPE_STRING) { /* string -> binary: the bytes */
                int32_t s = a->offsets[i], e = a->offsets[i + 1];
                if ((rc = hudi_array_grow_data(w, e - s, c->err)) < 0) return rc;
                memcpy(w->data + w->data_len, a->data + s, (size_t)(e - s));
                w->data_len += e - s;
            } else {
                value_text(c, i);
                if (hudi_buf_failed(&c->text)) return hudi_error_oom(c->err);
                if ((rc = hudi_array_grow_data(w, (int64_t)c->text.len, c->err)) < 0) return rc;
                memcpy(w->data + w->data_len, c->text.data, c->text.len);
                w->data_len += (int64_t)c->text.len;
            }
        }
        w->offsets[i + 1] = (int32_t)w->data_len;
    }
    return 0;
}

static int to_decimal(conv *c) {
    const hudi_array *a = c->a;
    hudi_array *w = c->w;
    const hudi_field *from = a->field, *to = w->field;
    int64_t n = a->length;
    int32_t p = to->precision, s = to->scale;
    u128 limit = pow10_u128(p);
    u128 factor = s >= 0 && s <= 38 ? pow10_u128(s) : 0;
    for (int64_t i = 0; i < n; i++) {
        __int128 v = 0;
        if (!hudi_array_is_valid(a, i)) {
            store_dec(w->values, i, 0);
            continue;
        }
        int r = DEC_OK;
        if (is_int(from->type) && factor) {
            int64_t x = int_at(a, i);
            u128 m = x < 0 ? (u128)((uint64_t)0 - (uint64_t)x) : (u128)(uint64_t)x;
            if (m != 0 && m > (limit - 1) / factor) {
                r = DEC_RANGE;
            } else {
                m *= factor;
                v = x < 0 ? -(__int128)m : (__int128)m;
            }
        } else if (from->type == HUDI_TYPE_DECIMAL) {
            r = rescale(load_dec(a->values, i), from->scale, s, p, &v);
        } else {
            value_text(c, i);
            const char *t = c->text.data ? c->text.data : "";
            size_t tn = c->text.len;
            if (from->type == HUDI_TYPE_STRING) trim(&t, &tn);
            r = parse_decimal_half_up(t, tn, p, s, &v);
        }
        if (r != DEC_OK) {
            if (is_int(from->type) || from->type == HUDI_TYPE_DECIMAL) value_text(c, i);
            store_dec(w->values, i, 0);
            int rc = bad_value(c, i, r == DEC_RANGE ? "does not fit" : "is not a number for");
            if (rc < 0) return rc;
            continue;
        }
        store_dec(w->values, i, v);
    }
    return 0;
}

static int to_date(conv *c) {
    const hudi_array *a = c->a;
    int32_t *out = c->w->values;
    for (int64_t i = 0; i < a->length; i++) {
        out[i] = 0;
        if (!hudi_array_is_valid(a, i)) continue;
        int32_t s = a->offsets[i], e = a->offsets[i + 1];
        if (parse_java_date((const char *)a->data + s, (size_t)(e - s), &out[i])) continue;
        value_text(c, i);
        out[i] = 0;
        int rc = bad_value(c, i, "is not a date (yyyy-[m]m-[d]d) for");
        if (rc < 0) return rc;
    }
    return 0;
}

static void to_number(conv *c) {
    const hudi_array *a = c->a;
    hudi_array *w = c->w;
    hudi_type_id t = w->field->type;
    int64_t n = a->length;
    if (a->field->type == HUDI_TYPE_FLOAT) {
        /* float -> double through the float's decimal text: 1.1f reads 1.1 */
        for (int64_t i = 0; i < n; i++) {
            float f = ((const float *)a->values)[i];
            double d = f;
            if (isfinite(f) && f != 0 && hudi_array_is_valid(a, i)) {
                value_text(c, i);
                if (!hudi_buf_failed(&c->text)) hudi_parse_double(c->text.data, c->text.len, &d);
            }
            ((double *)w->values)[i] = d;
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t v = int_at(a, i);
        switch (t) {
        case HUDI_TYPE_INT16: ((int16_t *)w->values)[i] = (int16_t)v; break;
        case HUDI_TYPE_INT32: ((int32_t *)w->values)[i] = (int32_t)v; break;
        case HUDI_TYPE_INT64: ((int64_t *)w->values)[i] = v; break;
        case HUDI_TYPE_FLOAT: ((float *)w->values)[i] = (float)v; break;
        default: ((double *)w->values)[i] = (double)v; break;
        }
    }
}

int hudi_array_convert(hudi_array **out, const hudi_array *a, const hudi_field *to, bool lenient,
                       const char *column, hudi_error *err) {
    *out = NULL;
    const hudi_field *from = a->field;
    if (!column) column = to->name ? to->name : "";
    if (!hudi_type_can_convert(from, to)) {
        hudi_buf f = HUDI_BUF_INIT, t = HUDI_BUF_INIT;
        hudi_field_describe(&f, from);
        hudi_field_describe(&t, to);
        int rc = hudi_error_set(err, HUDI_EINVAL, "column %s: %s does not convert to %s", column,
                                f.data ? f.data : "?", t.data ? t.data : "?");
        hudi_buf_dispose(&f);
        hudi_buf_dispose(&t);
        return rc;
    }
    if (same_type(from, to)) {
        int rc = hudi_array_slice(out, a, 0, a->length, err);
        if (rc == 0) (*out)->field = to;
        return rc;
    }
    int64_t n = a->length;
    conv c = {a, NULL, lenient, column, HUDI_BUF_INIT, err};
    int rc = hudi_array_new(&c.w, to, err);
    if (rc == 0) rc = hudi_array_reserve(c.w, n, err);
    bool may_fail = to->type == HUDI_TYPE_DECIMAL || to->type == HUDI_TYPE_DATE;
    if (rc == 0 && (a->validity || (lenient && may_fail))) {
        rc = hudi_array_ensure_validity(c.w, err);
        if (rc == 0) {
            if (a->validity)
                hudi_bitmap_copy(c.w->validity, 0, a->validity, 0, n);
            else
                hudi_bitmap_set_range(c.w->validity, 0, n, true);
        }
    }
    if (rc == 0) {
        c.w->null_count = a->null_count;
        switch (to->type) {
        case HUDI_TYPE_STRING:
        case HUDI_TYPE_BINARY: rc = to_string(&c); break;
        case HUDI_TYPE_DECIMAL: rc = to_decimal(&c); break;
        case HUDI_TYPE_DATE: rc = to_date(&c); break;
        default: to_number(&c); break;
        }
    }
    hudi_buf_dispose(&c.text);
    if (rc < 0) {
        hudi_array_free(c.w);
        return rc;
    }
    c.w->length = n;
    *out = c.w;
    return 0;
}
