/* render.c - JSON rendering of column values (rules: docs/formats/rendering.md).
 *
 * Invariant: every writer reserves its worst-case length in the hudi_buf, writes through a
 * raw pointer and commits once, so a value costs no allocation beyond the buffer's amortised
 * growth; a failed growth is sticky in the buffer and reported once by the callers. */
#include "columnar/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- raw writing into a hudi_buf -------------------------------------------------------- */

static inline char *reserve(hudi_buf *b, size_t n) {
    if (hudi_buf_grow(b, n) < 0) return NULL;
    return b->data + b->len;
}

static inline void commit(hudi_buf *b, char *end) {
    b->len = (size_t)(end - b->data);
    b->data[b->len] = '\0';
}

static const char digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Writes v in decimal at o; returns the end. At most 20 characters. */
static char *put_u64(char *o, uint64_t v) {
    char tmp[20];
    char *t = tmp + sizeof(tmp);
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        t -= 2;
        memcpy(t, digits2 + 2 * r, 2);
    }
    if (v >= 10) {
        t -= 2;
        memcpy(t, digits2 + 2 * v, 2);
    } else {
        *--t = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof(tmp) - t);
    memcpy(o, t, n);
    return o + n;
}

static char *put_i64(char *o, int64_t v) {
    if (v < 0) {
        *o++ = '-';
        return put_u64(o, (uint64_t)0 - (uint64_t)v);
    }
    return put_u64(o, (uint64_t)v);
}

/* Exactly `width` digits of v (v < 10^width), zero-padded. */
static char *put_padded(char *o, uint64_t v, int width) {
    for (int i = width - 1; i >= 0; i--) {
        o[i] = (char)('0' + v % 10);
        v /= 10;
    }
    return o + width;
}

static char *put_lit(char *o, const char *s, size_t n) {
    memcpy(o, s, n);
    return o + n;
}

void hudi_render_i64(hudi_buf *out, int64_t v) {
    char *o = reserve(out, 21);
    if (o) commit(out, put_i64(o, v));
}

void hudi_render_u64(hudi_buf *out, uint64_t v) {
    char *o = reserve(out, 21);
    if (o) commit(out, put_u64(o, v));
}

/* ---- floating point ------------------------------------------------------------------------ */

/* The decimal separator follows LC_NUMERIC in snprintf; JSON needs '.', so any character that
 * is not part of a number is rewritten (strtod parses the same locale, so the check holds). */
static size_t fix_separator(char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e')) s[i] = '.';
    }
    return n;
}

static char *put_double(char *o, double v) {
    if (isnan(v)) return put_lit(o, "NaN", 3);
    if (isinf(v)) return v > 0 ? put_lit(o, "Infinity", 8) : put_lit(o, "-Infinity", 9);
    /* Integral values below 1e15 print the same digits under %.15g: skip snprintf/strtod. */
    if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v && !(v == 0 && signbit(v)))
        return put_i64(o, (int64_t)v);
    char tmp[40];
    int n = 0;
    for (int p = 15; p <= 17; p++) {
        n = snprintf(tmp, sizeof(tmp), "%.*g", p, v);
        if (p == 17 || strtod(tmp, NULL) == v) break;
    }
    memcpy(o, tmp, (size_t)n);
    return o + fix_separator(o, (size_t)n);
}

static char *put_float(char *o, float v) {
    if (isnan(v)) return put_lit(o, "NaN", 3);
    if (isinf(v)) return v > 0 ? put_lit(o, "Infinity", 8) : put_lit(o, "-Infinity", 9);
    char tmp[40];
    int n = 0;
    for (int p = 6; p <= 9; p++) {
        n = snprintf(tmp, sizeof(tmp), "%.*g", p, (double)v);
        if (p == 9 || strtof(tmp, NULL) == v) break;
    }
    memcpy(o, tmp, (size_t)n);
    return o + fix_separator(o, (size_t)n);
}

void hudi_render_double(hudi_buf *out, double v) {
    char *o = reserve(out, 40);
    if (o) commit(out, put_double(o, v));
}

void hudi_render_float(hudi_buf *out, float v) {
    char *o = reserve(out, 40);
    if (o) commit(out, put_float(o, v));
}

float hudi_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float f;
    if (exp == 0x1f) {
        uint32_t bits = sign | 0x7f800000u | (mant << 13);
        memcpy(&f, &bits, 4);
        return f;
    }
    f = exp ? ldexpf((float)(mant | 0x400), (int)exp - 25) : ldexpf((float)mant, -24);
    return sign ? -f : f;
}

/* ---- decimal -------------------------------------------------------------------------------- */

/* Writes the decimal digits of a 128-bit magnitude at o; returns the end (at most 39). */
static char *put_u128(char *o, unsigned __int128 m) {
    const uint64_t e19 = 10000000000000000000ull;
    if (m <= UINT64_MAX) return put_u64(o, (uint64_t)m);
    uint64_t low = (uint64_t)(m % e19);
    m /= e19;
    o = m <= UINT64_MAX ? put_u64(o, (uint64_t)m) : put_u128(o, m);
    return put_padded(o, low, 19);
}

void hudi_render_decimal128(hudi_buf *out, const uint8_t value[16], int32_t scale) {
    unsigned __int128 u =
        (unsigned __int128)hudi_load_u64le(value + 8) << 64 | hudi_load_u64le(value);
    bool neg = (int64_t)hudi_load_u64le(value + 8) < 0;
    unsigned __int128 m = neg ? (unsigned __int128)0 - u : u;
    char digits[40];
    size_t nd = (size_t)(put_u128(digits, m) - digits);
    size_t abs_scale = scale < 0 ? (size_t)0 - (size_t)(int64_t)scale : (size_t)scale;
    char *o = reserve(out, nd + abs_scale + 4);
    if (!o) return;
    if (neg) *o++ = '-';
    if (scale <= 0) {
        o = put_lit(o, digits, nd);
        if (m != 0) {
            memset(o, '0', abs_scale);
            o += abs_scale;
        }
    } else if (nd > abs_scale) {
        o = put_lit(o, digits, nd - abs_scale);
        *o++ = '.';
        o = put_lit(o, digits + nd - abs_scale, abs_scale);
    } else {
        o = put_lit(o, "0.", 2);
        memset(o, '0', abs_scale - nd);
        o += abs_scale - nd;
        o = put_lit(o, digits, nd);
    }
    commit(out, o);
}

/* ---- dates and times --------------------------------------------------------------------- */

/* Years 0000-9999 as four digits; others as ISO 8601 expanded years: a sign and at least six
 * digits ("+290000", "-000001"). At most 1 + 20 + 6 characters. */
static char *put_date(char *o, int64_t days) {
    int64_t y;
    int m, d;
    hudi_civil_from_days(days, &y, &m, &d);
    if (y >= 0 && y <= 9999) {
        o = put_padded(o, (uint64_t)y, 4);
    } else {
        uint64_t ay = y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y;
        *o++ = y < 0 ? '-' : '+';
        if (ay < 1000000)
            o = put_padded(o, ay, 6);
        else
            o = put_u64(o, ay);
    }
    *o++ = '-';
    o = put_padded(o, (uint64_t)m, 2);
    *o++ = '-';
    return put_padded(o, (uint64_t)d, 2);
}

static const int64_t per_second[] = {1000, 1000000, 1000000000};

/* HH:MM:SS.f with 3/6/9 fraction digits for millis/micros/nanos (`frac_digits` overrides). */
static char *put_clock(char *o, uint64_t v, hudi_time_unit u, int frac_digits) {
    uint64_t ps = (uint64_t)per_second[u];
    uint64_t secs = v / ps, frac = v % ps;
    uint64_t h = secs / 3600;
    if (h < 100)
        o = put_padded(o, h, 2);
    else
        o = put_u64(o, h);
    *o++ = ':';
    o = put_padded(o, (secs / 60) % 60, 2);
    *o++ = ':';
    o = put_padded(o, secs % 60, 2);
    *o++ = '.';
    int natural = u == HUDI_UNIT_MILLIS ? 3 : u == HUDI_UNIT_MICROS ? 6 : 9;
    for (int k = natural; k < frac_digits; k++) frac *= 10;
    return put_padded(o, frac, frac_digits > natural ? frac_digits : natural);
}

static char *put_time(char *o, int64_t v, hudi_time_unit u) {
    uint64_t av = (uint64_t)v;
    if (v < 0) {
        *o++ = '-';
        av = (uint64_t)0 - av;
    }
    return put_clock(o, av, u, 0);
}

static char *put_timestamp(char *o, int64_t v, hudi_time_unit u, bool utc) {
    int64_t per_day = 86400 * per_second[u];
    int64_t days = v / per_day, rem = v % per_day;
    if (rem < 0) {
        rem += per_day;
        days--;
    }
    o = put_date(o, days);
    *o++ = 'T';
    o = put_clock(o, (uint64_t)rem, u, u == HUDI_UNIT_MILLIS ? 6 : 0);
    if (utc) *o++ = 'Z';
    return o;
}

void hudi_render_date(hudi_buf *out, int64_t days) {
    char *o = reserve(out, 40);
    if (o) commit(out, put_date(o, days));
}

void hudi_render_time(hudi_buf *out, int64_t v, hudi_time_unit u) {
    char *o = reserve(out, 48);
    if (o) commit(out, put_time(o, v, u));
}

void hudi_render_timestamp(hudi_buf *out, int64_t v, hudi_time_unit u, bool utc) {
    char *o = reserve(out, 64);
    if (o) commit(out, put_timestamp(o, v, u, utc));
}

/* ---- bytes ------------------------------------------------------------------------------------
 */

static char *put_base64(char *o, const uint8_t *p, size_t n) {
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        o[0] = tbl[v >> 18];
        o[1] = tbl[(v >> 12) & 63];
        o[2] = tbl[(v >> 6) & 63];
        o[3] = tbl[v & 63];
        o += 4;
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        o[0] = tbl[v >> 18];
        o[1] = tbl[(v >> 12) & 63];
        o[2] = i + 1 < n ? tbl[(v >> 6) & 63] : '=';
        o[3] = '=';
        o += 4;
    }
    return o;
}

void hudi_render_base64(hudi_buf *out, const uint8_t *p, size_t n) {
    size_t need;
    if (hudi_mul_overflow(n / 3 + 1, 4, &need)) {
        out->failed = true;
        return;
    }
    char *o = reserve(out, need);
    if (o) commit(out, put_base64(o, p, n));
}

static char *put_uuid(char *o, const uint8_t *p) {
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) *o++ = '-';
        *o++ = hex[p[i] >> 4];
        *o++ = hex[p[i] & 15];
    }
    return o;
}

void hudi_render_uuid(hudi_buf *out, const uint8_t p[16]) {
    char *o = reserve(out, 36);
    if (o) commit(out, put_uuid(o, p));
}

/* ---- strings -------------------------------------------------------------------------------- */

/* The input is escaped in chunks so the reservation stays bounded (6 output bytes per input
 * byte at worst, plus a multi-byte sequence that may run 3 bytes past the chunk). */
void hudi_render_json_string(hudi_buf *out, const uint8_t *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    enum { CHUNK = 4096 };
    char *o = reserve(out, 1);
    if (!o) return;
    *o++ = '"';
    commit(out, o);
    size_t i = 0;
    while (i < n) {
        size_t lim = HUDI_MIN(n, i + CHUNK);
        if (!(o = reserve(out, (lim - i) * 6 + 8))) return;
        while (i < lim) {
            uint8_t c = s[i];
            if (HUDI_LIKELY(c >= 0x20 && c < 0x80 && c != '"' && c != '\\')) {
                *o++ = (char)c;
                i++;
            } else if (c == '"' || c == '\\') {
                *o++ = '\\';
                *o++ = (char)c;
                i++;
            } else if (c < 0x20) {
                o = put_lit(o, "\\u00", 4);
                *o++ = hex[c >> 4];
                *o++ = hex[c & 15];
                i++;
            } else {
                size_t len = hudi_utf8_seq_len(s + i, n - i);
                if (len) {
                    o = put_lit(o, (const char *)s + i, len);
                    i += len;
                } else {
                    o = put_lit(o, "\xef\xbf\xbd", 3);
                    i++;
                }
            }
        }
        commit(out, o);
    }
    if ((o = reserve(out, 1))) {
        *o++ = '"';
        commit(out, o);
    }
}

/* ---- values
 * -------------------------------------------------------------------------------------- */

static void render_value(hudi_buf *out, const hudi_array *a, int64_t i);

static void render_quoted(hudi_buf *out, const hudi_array *a, int64_t i, size_t max) {
    const hudi_field *f = a->field;
    char *o = reserve(out, max + 2);
    if (!o) return;
    *o++ = '"';
    switch (f->type) {
    case HUDI_TYPE_DATE: o = put_date(o, ((const int32_t *)a->values)[i]); break;
    case HUDI_TYPE_TIME:
        o = put_time(o,
                     f->unit == HUDI_UNIT_MILLIS ? ((const int32_t *)a->values)[i]
                                                 : ((const int64_t *)a->values)[i],
                     (hudi_time_unit)f->unit);
        break;
    case HUDI_TYPE_TIMESTAMP:
        o = put_timestamp(o, ((const int64_t *)a->values)[i], (hudi_time_unit)f->unit, f->utc);
        break;
    default: break;
    }
    *o++ = '"';
    commit(out, o);
}

static void render_bytes(hudi_buf *out, const hudi_field *f, const uint8_t *p, size_t n) {
    if (f->type == HUDI_TYPE_STRING) {
        hudi_render_json_string(out, p, n);
        return;
    }
    if (f->hint == HUDI_HINT_UUID && n == 16) {
        char *o = reserve(out, 38);
        if (!o) return;
        *o++ = '"';
        o = put_uuid(o, p);
        *o++ = '"';
        commit(out, o);
        return;
    }
    hudi_buf_putc(out, '"');
    hudi_render_base64(out, p, n);
    hudi_buf_putc(out, '"');
}

static void render_nested(hudi_buf *out, const hudi_array *a, int64_t i) {
    const hudi_field *f = a->field;
    if (f->type == HUDI_TYPE_STRUCT) {
        hudi_buf_putc(out, '{');
        for (int32_t c = 0; c < a->n_children; c++) {
            const char *name = a->children[c]->field->name ? a->children[c]->field->name : "";
            if (c) hudi_buf_putc(out, ',');
            hudi_render_json_string(out, (const uint8_t *)name, strlen(name));
            hudi_buf_putc(out, ':');
            render_value(out, a->children[c], i);
        }
        hudi_buf_putc(out, '}');
        return;
    }
    const hudi_array *child = a->children[0];
    int32_t start = a->offsets[i], end = a->offsets[i + 1];
    hudi_buf_putc(out, '[');
    for (int32_t k = start; k < end; k++) {
        if (k > start) hudi_buf_putc(out, ',');
        if (f->type == HUDI_TYPE_LIST) {
            render_value(out, child, k);
        } else {
            hudi_buf_puts(out, "{\"key\":");
            render_value(out, child->children[0], k);
            hudi_buf_puts(out, ",\"value\":");
            render_value(out, child->children[1], k);
            hudi_buf_putc(out, '}');
        }
    }
    hudi_buf_putc(out, ']');
}

static void render_value(hudi_buf *out, const hudi_array *a, int64_t i) {
    const hudi_field *f = a->field;
    char *o;
    if (f->type == HUDI_TYPE_NULL || !hudi_array_is_valid(a, i)) {
        if ((o = reserve(out, 4))) commit(out, put_lit(o, "null", 4));
        return;
    }
    const void *v = a->values;
    switch (f->type) {
    case HUDI_TYPE_BOOL:
        if ((o = reserve(out, 5)))
            commit(out, hudi_bit_get(v, i) ? put_lit(o, "true", 4) : put_lit(o, "false", 5));
        return;
    case HUDI_TYPE_INT8: hudi_render_i64(out, ((const int8_t *)v)[i]); return;
    case HUDI_TYPE_INT16: hudi_render_i64(out, ((const int16_t *)v)[i]); return;
    case HUDI_TYPE_INT32: hudi_render_i64(out, ((const int32_t *)v)[i]); return;
    case HUDI_TYPE_INT64: hudi_render_i64(out, ((const int64_t *)v)[i]); return;
    case HUDI_TYPE_UINT8: hudi_render_u64(out, ((const uint8_t *)v)[i]); return;
    case HUDI_TYPE_UINT16: hudi_render_u64(out, ((const uint16_t *)v)[i]); return;
    case HUDI_TYPE_UINT32: hudi_render_u64(out, ((const uint32_t *)v)[i]); return;
    case HUDI_TYPE_UINT64: hudi_render_u64(out, ((const uint64_t *)v)[i]); return;
    case HUDI_TYPE_FLOAT16:
    case HUDI_TYPE_FLOAT:
    case HUDI_TYPE_DOUBLE: {
        /* Non-finite values are JSON strings; finite ones bare numbers. */
        double d = f->type == HUDI_TYPE_DOUBLE  ? ((const double *)v)[i]
                   : f->type == HUDI_TYPE_FLOAT ? ((const float *)v)[i]
                                                : hudi_half_to_float(((const uint16_t *)v)[i]);
        if (!(o = reserve(out, 42))) return;
        bool finite = isfinite(d);
        if (!finite) *o++ = '"';
        o = f->type == HUDI_TYPE_DOUBLE ? put_double(o, d) : put_float(o, (float)d);
        if (!finite) *o++ = '"';
        commit(out, o);
        return;
    }
    case HUDI_TYPE_DECIMAL:
        hudi_buf_putc(out, '"');
        hudi_render_decimal128(out, (const uint8_t *)v + (size_t)i * 16, f->scale);
        hudi_buf_putc(out, '"');
        return;
    case HUDI_TYPE_DATE:
    case HUDI_TYPE_TIME:
    case HUDI_TYPE_TIMESTAMP: render_quoted(out, a, i, 64); return;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY:
        render_bytes(out, f, a->data + a->offsets[i], (size_t)(a->offsets[i + 1] - a->offsets[i]));
        return;
    case HUDI_TYPE_FIXED_BINARY:
        render_bytes(out, f, (const uint8_t *)v + (size_t)i * (size_t)f->byte_width,
                     (size_t)f->byte_width);
        return;
    case HUDI_TYPE_STRUCT:
    case HUDI_TYPE_LIST:
    case HUDI_TYPE_MAP: render_nested(out, a, i); return;
    default: hudi_buf_puts(out, "null"); return;
    }
}

int hudi_render_json_value(hudi_buf *out, const hudi_array *a, int64_t row) {
    if (row < 0 || row >= a->length) return HUDI_EINVAL;
    render_value(out, a, row);
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}

int hudi_render_json_row(hudi_buf *out, const hudi_batch *b, int64_t row) {
    if (row < 0 || row >= b->num_rows) return HUDI_EINVAL;
    hudi_buf_putc(out, '{');
    for (int32_t c = 0; c < b->n_columns; c++) {
        const char *name = b->columns[c]->field->name ? b->columns[c]->field->name : "";
        if (c) hudi_buf_putc(out, ',');
        hudi_render_json_string(out, (const uint8_t *)name, strlen(name));
        hudi_buf_putc(out, ':');
        render_value(out, b->columns[c], row);
    }
    hudi_buf_putc(out, '}');
    return hudi_buf_failed(out) ? HUDI_ENOMEM : 0;
}
