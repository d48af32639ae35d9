/* parquet_text.c - statistics values of a Parquet footer as text (hudi_parquet_stat_text),
 * rendered per the column's physical type and annotation with the value rendering of
 * docs/formats/rendering.md.
 *
 * Invariant: statistics may hold any bytes a writer put there: every value is checked for its
 * expected length before it is interpreted, and falls back to hex otherwise; strings are
 * escaped so each value stays on one line. */
#include <math.h>

#include "api/api.h"
#include "columnar/render.h"

#define STAT_MAX_BYTES 100 /* statistics strings longer than this are cut */

/* The annotation of a schema element, from its LogicalType or else its ConvertedType. */
typedef struct annotation {
    int32_t kind; /* PQ_LT_*, or PQ_LT_NONE */
    int32_t scale;
    int32_t unit; /* PQ_UNIT_* */
    bool utc;
    bool is_signed;
} annotation;

static annotation element_annotation(const pq_schema_element *e) {
    annotation a = {PQ_LT_NONE, 0, PQ_UNIT_UNKNOWN, true, true};
    if (e->has_logical_type && e->logical_type.kind != PQ_LT_NONE) {
        const pq_logical_type *lt = &e->logical_type;
        a.kind = lt->kind;
        a.scale = lt->scale;
        a.unit = lt->unit;
        a.utc = lt->is_adjusted_to_utc;
        a.is_signed = lt->is_signed;
        return a;
    }
    if (!e->has_converted_type) return a;
    switch (e->converted_type) {
    case PQ_CT_UTF8: a.kind = PQ_LT_STRING; break;
    case PQ_CT_ENUM: a.kind = PQ_LT_ENUM; break;
    case PQ_CT_DECIMAL:
        a.kind = PQ_LT_DECIMAL;
        a.scale = e->has_scale ? e->scale : 0;
        break;
    case PQ_CT_DATE: a.kind = PQ_LT_DATE; break;
    case PQ_CT_TIME_MILLIS: a.kind = PQ_LT_TIME, a.unit = PQ_UNIT_MILLIS; break;
    case PQ_CT_TIME_MICROS: a.kind = PQ_LT_TIME, a.unit = PQ_UNIT_MICROS; break;
    case PQ_CT_TIMESTAMP_MILLIS: a.kind = PQ_LT_TIMESTAMP, a.unit = PQ_UNIT_MILLIS; break;
    case PQ_CT_TIMESTAMP_MICROS: a.kind = PQ_LT_TIMESTAMP, a.unit = PQ_UNIT_MICROS; break;
    case PQ_CT_UINT_8:
    case PQ_CT_UINT_16:
    case PQ_CT_UINT_32:
    case PQ_CT_UINT_64: a.kind = PQ_LT_INTEGER, a.is_signed = false; break;
    case PQ_CT_INT_8:
    case PQ_CT_INT_16:
    case PQ_CT_INT_32:
    case PQ_CT_INT_64: a.kind = PQ_LT_INTEGER; break;
    case PQ_CT_JSON: a.kind = PQ_LT_JSON; break;
    case PQ_CT_BSON: a.kind = PQ_LT_BSON; break;
    default: break;
    }
    return a;
}

static hudi_time_unit hudi_unit(int32_t unit) {
    return unit == PQ_UNIT_MILLIS  ? HUDI_UNIT_MILLIS
           : unit == PQ_UNIT_NANOS ? HUDI_UNIT_NANOS
                                   : HUDI_UNIT_MICROS;
}

static double half_to_double(uint16_t bits) {
    int sign = bits >> 15, exp = (bits >> 10) & 0x1f, frac = bits & 0x3ff;
    double v;
    if (exp == 0)
        v = ldexp(frac, -24);
    else if (exp == 31)
        v = frac ? NAN : INFINITY;
    else
        v = ldexp(frac | 0x400, exp - 25);
    return sign ? -v : v;
}

/* Bytes as 0x-prefixed lowercase hex; at most `max_bytes` shown (0 = all), then "…". */
static void put_hex(hudi_buf *b, const uint8_t *p, size_t n, size_t max_bytes) {
    static const char digits[] = "0123456789abcdef";
    size_t shown = max_bytes && n > max_bytes ? max_bytes : n;
    hudi_buf_puts(b, "0x");
    for (size_t i = 0; i < shown; i++) {
        hudi_buf_putc(b, digits[p[i] >> 4]);
        hudi_buf_putc(b, digits[p[i] & 15]);
    }
    if (shown < n) hudi_buf_printf(b, "… (%zu bytes)", n);
}

static bool utf8_valid(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = p[i];
        size_t len;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            len = 2, cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            len = 3, cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            len = 4, cp = c & 0x07;
        } else {
            return false;
        }
        if (n - i < len) return false;
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        /* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
            (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
            return false;
        i += len;
    }
    return true;
}

static bool is_textual(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] == 0x7f) return false;
    return utf8_valid(p, n);
}

/* Big-endian two's complement bytes (1..16) to a signed 128-bit integer. */
static bool be_to_i128(const uint8_t *p, size_t n, __int128 *out) {
    if (n == 0 || n > 16) return false;
    unsigned __int128 v = (p[0] & 0x80) ? ~(unsigned __int128)0 : 0; /* sign extension */
    for (size_t i = 0; i < n; i++) v = (v << 8) | p[i];
    *out = (__int128)v;
    return true;
}

static void put_decimal(hudi_buf *b, __int128 unscaled, int32_t scale) {
    uint8_t le[16];
    memcpy(le, &unscaled, 16); /* x86-64 and aarch64 are little-endian, as render expects */
    hudi_render_decimal128(b, le, scale);
}

static bool put_int32(hudi_buf *b, const annotation *a, const uint8_t *p) {
    int32_t x = (int32_t)hudi_load_u32le(p);
    if (a->kind == PQ_LT_DATE)
        hudi_render_date(b, x);
    else if (a->kind == PQ_LT_DECIMAL)
        put_decimal(b, x, a->scale);
    else if (a->kind == PQ_LT_TIME)
        hudi_render_time(b, x, hudi_unit(a->unit));
    else if (a->kind == PQ_LT_INTEGER && !a->is_signed)
        hudi_render_u64(b, (uint32_t)x);
    else
        hudi_render_i64(b, x);
    return true;
}

static bool put_int64(hudi_buf *b, const annotation *a, const uint8_t *p) {
    int64_t x = (int64_t)hudi_load_u64le(p);
    if (a->kind == PQ_LT_TIMESTAMP)
        hudi_render_timestamp(b, x, hudi_unit(a->unit), a->utc);
    else if (a->kind == PQ_LT_DECIMAL)
        put_decimal(b, x, a->scale);
    else if (a->kind == PQ_LT_TIME)
        hudi_render_time(b, x, hudi_unit(a->unit));
    else if (a->kind == PQ_LT_INTEGER && !a->is_signed)
        hudi_render_u64(b, (uint64_t)x);
    else
        hudi_render_i64(b, x);
    return true;
}

static void put_bytes(hudi_buf *b, const annotation *a, const uint8_t *p, size_t n) {
    __int128 dec;
    if (a->kind == PQ_LT_DECIMAL && be_to_i128(p, n, &dec)) {
        put_decimal(b, dec, a->scale);
        return;
    }
    if (a->kind == PQ_LT_FLOAT16 && n == 2) {
        hudi_render_double(b, half_to_double(hudi_load_u16le(p)));
        return;
    }
    if (a->kind == PQ_LT_UUID && n == 16) {
        hudi_render_uuid(b, p);
        return;
    }
    bool text = a->kind == PQ_LT_STRING || a->kind == PQ_LT_ENUM || a->kind == PQ_LT_JSON;
    if (text || (a->kind == PQ_LT_NONE && is_textual(p, n))) {
        size_t shown = n;
        if (shown > STAT_MAX_BYTES) {
            shown = STAT_MAX_BYTES;
            while (shown > 0 && (p[shown] & 0xc0) == 0x80) shown--; /* keep whole chars */
        }
        hudi_render_json_string(b, p, shown);
        if (shown < n) hudi_buf_printf(b, "… (%zu bytes)", n);
        return;
    }
    put_hex(b, p, n, STAT_MAX_BYTES);
}

void hudi_api_stat_text(hudi_buf *b, const pq_schema_element *e, int32_t physical, hudi_slice v) {
    annotation a = e ? element_annotation(e) : (annotation){0};
    const uint8_t *p = v.data;
    switch (physical) {
    case PQ_BOOLEAN:
        if (v.len != 1) break;
        hudi_buf_puts(b, p[0] ? "true" : "false");
        return;
    case PQ_INT32:
        if (v.len == 4 && put_int32(b, &a, p)) return;
        break;
    case PQ_INT64:
        if (v.len == 8 && put_int64(b, &a, p)) return;
        break;
    case PQ_INT96: {
        if (v.len != 12) break;
        /* docs/formats/parquet.md §5.4: signed day, wrapping 64-bit arithmetic, never through
         * nanoseconds. */
        int64_t nanos = (int64_t)hudi_load_u64le(p);
        int32_t day = (int32_t)hudi_load_u32le(p + 8);
        uint64_t micros =
            (uint64_t)((int64_t)day - 2440588) * UINT64_C(86400000000) + (uint64_t)(nanos / 1000);
        hudi_render_timestamp(b, (int64_t)micros, HUDI_UNIT_MICROS, true);
        return;
    }
    case PQ_FLOAT: {
        if (v.len != 4) break;
        float f;
        memcpy(&f, p, 4);
        hudi_render_float(b, f);
        return;
    }
    case PQ_DOUBLE: {
        if (v.len != 8) break;
        double d;
        memcpy(&d, p, 8);
        hudi_render_double(b, d);
        return;
    }
    case PQ_BYTE_ARRAY:
    case PQ_FIXED_LEN_BYTE_ARRAY: put_bytes(b, &a, p, v.len); return;
    default: break;
    }
    put_hex(b, p, v.len, STAT_MAX_BYTES);
    if (physical >= PQ_BOOLEAN && physical <= PQ_DOUBLE) hudi_buf_puts(b, " (unexpected length)");
}
