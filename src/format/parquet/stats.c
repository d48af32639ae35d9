/* stats.c - statistics trust rules, typed comparison of PLAIN bounds, and the writer's
 * min/max accumulators (docs/formats/parquet.md §5.5, §6.1-6.4, §8 items 2-3).
 *
 * Invariant: reading never trusts a bound it cannot justify (wrong width, NaN, distrusted
 * writer, undefined order): it drops it. Writing computes bounds over non-null, non-NaN
 * values with one loop per batch and no per-value indirect calls; byte bounds are copied
 * once per batch, not per value. */
#include "format/parquet/stats.h"

#include <math.h>

/* ---- created_by ------------------------------------------------------------------------------ */

static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

static hudi_slice trim(hudi_slice s) {
    while (s.len && is_space(s.data[0])) s.data++, s.len--;
    while (s.len && is_space(s.data[s.len - 1])) s.len--;
    return s;
}

static bool slice_is(hudi_slice s, const char *lit) {
    return hudi_slice_eq(s, hudi_slice_cstr(lit));
}

/* Reads up to 9 digits (so the value fits in int32); false if there is no digit. */
static bool read_number(const uint8_t **p, const uint8_t *end, int32_t *out) {
    int32_t v = 0;
    int digits = 0;
    while (*p < end && is_digit(**p)) {
        if (digits < 9) v = v * 10 + (**p - '0');
        digits++;
        (*p)++;
    }
    *out = v;
    return digits > 0;
}

static void parse_semver(pq_writer_version *out, const uint8_t *p, const uint8_t *end) {
    while (p < end && is_space(*p)) p++;
    if (p < end && (*p == 'v' || *p == 'V')) p++; /* DuckDB: "version v1.5.6" */
    if (!read_number(&p, end, &out->major)) return;
    out->has_version = true;
    if (p + 1 < end && *p == '.' && is_digit(p[1])) {
        p++;
        read_number(&p, end, &out->minor);
        if (p + 1 < end && *p == '.' && is_digit(p[1])) {
            p++;
            read_number(&p, end, &out->patch);
        }
    }
    /* Anything glued to the number except "+build" metadata is a pre-release
     * ("-SNAPSHOT", "-INTERNAL", "rc1", "-cdh5.5.0"): it orders before the release. */
    if (p < end && !is_space(*p) && *p != '(' && *p != '+') out->pre_release = true;
}

void hudi_pq_writer_version_parse(pq_writer_version *out, bool has, hudi_slice created_by) {
    memset(out, 0, sizeof(*out));
    hudi_slice s = has ? trim(created_by) : HUDI_SLICE(NULL, 0);
    if (s.len == 0) return;
    out->present = true;
    out->app_name = s;
    /* "<app> version <semver>": the app is the text before the first whitespace-preceded
     * "version" (parquet-mr's VersionParser); without one the whole string names the app. */
    for (size_t i = 1; i + 7 <= s.len; i++) {
        if (is_space(s.data[i - 1]) && memcmp(s.data + i, "version", 7) == 0) {
            out->app_name = trim(HUDI_SLICE(s.data, i));
            parse_semver(out, s.data + i + 7, s.data + s.len);
            break;
        }
    }
    static const struct {
        const char *name;
        int app;
    } apps[] = {
        {"parquet-mr", PQ_APP_PARQUET_MR},   {"parquet-java", PQ_APP_PARQUET_MR},
        {"parquet-cpp", PQ_APP_PARQUET_CPP}, {"parquet-cpp-arrow", PQ_APP_PARQUET_CPP_ARROW},
        {"parquet-rs", PQ_APP_PARQUET_RS},   {"DuckDB", PQ_APP_DUCKDB},
        {"impala", PQ_APP_IMPALA},           {"hudic", PQ_APP_HUDIC}};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(apps); i++)
        if (slice_is(out->app_name, apps[i].name)) out->app = apps[i].app;
}

bool hudi_pq_writer_version_older(const pq_writer_version *v, int32_t major, int32_t minor,
                                  int32_t patch) {
    if (!v->has_version) return true;
    if (v->major != major) return v->major < major;
    if (v->minor != minor) return v->minor < minor;
    if (v->patch != patch) return v->patch < patch;
    return v->pre_release;
}

/* ---- sort kinds -------------------------------------------------------------------------------
 */

int hudi_pq_stats_sort_kind(const pq_schema_element *leaf, int column_order) {
    if (!leaf || !leaf->has_type) return PQ_SORT_NONE;
    bool type_order = column_order == PQ_ORDER_TYPE || column_order == PQ_STATS_ORDER_ABSENT;
    bool ieee = column_order == PQ_ORDER_IEEE754_TOTAL;
    /* A known LogicalType wins; an unknown member (kind 0) falls back to the ConvertedType. */
    int lt = leaf->has_logical_type ? leaf->logical_type.kind : PQ_LT_NONE;
    int ct = lt == PQ_LT_NONE && leaf->has_converted_type ? leaf->converted_type : -1;
    bool is_unsigned = (lt == PQ_LT_INTEGER && !leaf->logical_type.is_signed) ||
                       ct == PQ_CT_UINT_8 || ct == PQ_CT_UINT_16 || ct == PQ_CT_UINT_32 ||
                       ct == PQ_CT_UINT_64;
    bool is_decimal = lt == PQ_LT_DECIMAL || ct == PQ_CT_DECIMAL;
    switch (leaf->type) {
    case PQ_BOOLEAN: return type_order ? PQ_SORT_BOOL : PQ_SORT_NONE;
    case PQ_INT32:
        if (!type_order) return PQ_SORT_NONE;
        return is_unsigned ? PQ_SORT_UINT32 : PQ_SORT_INT32;
    case PQ_INT64:
        if (!type_order) return PQ_SORT_NONE;
        return is_unsigned ? PQ_SORT_UINT64 : PQ_SORT_INT64;
    case PQ_INT96: return column_order == PQ_ORDER_INT96 ? PQ_SORT_INT96 : PQ_SORT_NONE;
    case PQ_FLOAT: return type_order ? PQ_SORT_FLOAT : ieee ? PQ_SORT_FLOAT_TOTAL : PQ_SORT_NONE;
    case PQ_DOUBLE: return type_order ? PQ_SORT_DOUBLE : ieee ? PQ_SORT_DOUBLE_TOTAL : PQ_SORT_NONE;
    case PQ_BYTE_ARRAY:
    case PQ_FIXED_LEN_BYTE_ARRAY:
        if (lt == PQ_LT_FLOAT16) {
            if (leaf->type != PQ_FIXED_LEN_BYTE_ARRAY || leaf->type_length != 2)
                return PQ_SORT_NONE;
            return type_order ? PQ_SORT_FLOAT16 : ieee ? PQ_SORT_FLOAT16_TOTAL : PQ_SORT_NONE;
        }
        if (!type_order) return PQ_SORT_NONE;
        if (is_decimal) return PQ_SORT_DECIMAL;
        if (ct == PQ_CT_INTERVAL || lt == PQ_LT_VARIANT || lt == PQ_LT_GEOMETRY ||
            lt == PQ_LT_GEOGRAPHY || lt == PQ_LT_FILE)
            return PQ_SORT_NONE;
        return PQ_SORT_BYTES;
    default: return PQ_SORT_NONE;
    }
}

/* The PLAIN width of a kind's values; 0 for variable-length kinds. */
static size_t kind_width(int kind) {
    switch (kind) {
    case PQ_SORT_BOOL: return 1;
    case PQ_SORT_FLOAT16:
    case PQ_SORT_FLOAT16_TOTAL: return 2;
    case PQ_SORT_INT32:
    case PQ_SORT_UINT32:
    case PQ_SORT_FLOAT:
    case PQ_SORT_FLOAT_TOTAL: return 4;
    case PQ_SORT_INT64:
    case PQ_SORT_UINT64:
    case PQ_SORT_DOUBLE:
    case PQ_SORT_DOUBLE_TOTAL: return 8;
    case PQ_SORT_INT96: return 12;
    default: return 0;
    }
}

static bool kind_is_float(int kind) {
    return kind == PQ_SORT_FLOAT || kind == PQ_SORT_DOUBLE || kind == PQ_SORT_FLOAT16;
}

/* ---- comparison --------------------------------------------------------------------------------
 */

#define CMP3(x, y) (((x) > (y)) - ((x) < (y)))

/* The first 8 bytes of a value, zero-padded, as a big-endian number. */
static inline uint64_t prefix8(const uint8_t *p, size_t len) {
    if (len >= 8) return __builtin_bswap64(hudi_load_u64le(p));
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) v |= (uint64_t)p[i] << (56 - 8 * i);
    return v;
}

static int bytes_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    size_t n = HUDI_MIN(la, lb);
    int c = n ? memcmp(a, b, n) : 0;
    return c ? (c < 0 ? -1 : 1) : CMP3(la, lb);
}

/* Big-endian two's complement of any lengths: sign first, then sign-extend the shorter. */
static int decimal_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    bool na = la && (a[0] & 0x80), nb = lb && (b[0] & 0x80);
    if (na != nb) return na ? -1 : 1;
    if (la == lb && la > 0) return bytes_cmp(a, la, b, lb); /* same sign and width: unsigned */
    uint8_t ext = na ? 0xFF : 0x00;
    size_t n = HUDI_MAX(la, lb);
    for (size_t i = 0; i < n; i++) {
        uint8_t x = i < n - la ? ext : a[i - (n - la)];
        uint8_t y = i < n - lb ? ext : b[i - (n - lb)];
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

static float load_f32(const uint8_t *p) {
    uint32_t u = hudi_load_u32le(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static double load_f64(const uint8_t *p) {
    uint64_t u = hudi_load_u64le(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Numeric order with NaN above everything (a total preorder, so sorting stays sane). */
static int double_cmp(double x, double y) {
    bool nx = isnan(x), ny = isnan(y);
    if (nx || ny) return (int)nx - (int)ny;
    return CMP3(x, y);
}

static bool half_is_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }
/* Half-precision bits -> an integer with the same numeric order; -0 and +0 both map to 0. */
static int32_t half_key(uint16_t h) {
    int32_t mag = h & 0x7FFF;
    return (h & 0x8000) ? -mag : mag;
}
static int half_cmp(uint16_t a, uint16_t b) {
    bool na = half_is_nan(a), nb = half_is_nan(b);
    if (na || nb) return (int)na - (int)nb;
    return CMP3(half_key(a), half_key(b));
}

/* IEEE 754 totalOrder: negative values flip all bits, positive ones flip the sign bit. */
static uint64_t total_key(uint64_t bits, int width_bits) {
    uint64_t sign = 1ull << (width_bits - 1);
    uint64_t mask = width_bits == 64 ? ~0ull : (1ull << width_bits) - 1;
    return (bits & sign) ? ~bits & mask : bits | sign;
}

int hudi_pq_stats_compare(int kind, hudi_slice a, hudi_slice b) {
    size_t w = kind_width(kind);
    if (w && (a.len != w || b.len != w)) return bytes_cmp(a.data, a.len, b.data, b.len);
    const uint8_t *x = a.data, *y = b.data;
    switch (kind) {
    case PQ_SORT_BOOL: return CMP3(x[0] != 0, y[0] != 0);
    case PQ_SORT_INT32: return CMP3((int32_t)hudi_load_u32le(x), (int32_t)hudi_load_u32le(y));
    case PQ_SORT_UINT32: return CMP3(hudi_load_u32le(x), hudi_load_u32le(y));
    case PQ_SORT_INT64: return CMP3((int64_t)hudi_load_u64le(x), (int64_t)hudi_load_u64le(y));
    case PQ_SORT_UINT64: return CMP3(hudi_load_u64le(x), hudi_load_u64le(y));
    case PQ_SORT_FLOAT: return double_cmp(load_f32(x), load_f32(y));
    case PQ_SORT_DOUBLE: return double_cmp(load_f64(x), load_f64(y));
    case PQ_SORT_FLOAT16: return half_cmp(hudi_load_u16le(x), hudi_load_u16le(y));
    case PQ_SORT_FLOAT_TOTAL:
        return CMP3(total_key(hudi_load_u32le(x), 32), total_key(hudi_load_u32le(y), 32));
    case PQ_SORT_DOUBLE_TOTAL:
        return CMP3(total_key(hudi_load_u64le(x), 64), total_key(hudi_load_u64le(y), 64));
    case PQ_SORT_FLOAT16_TOTAL:
        return CMP3(total_key(hudi_load_u16le(x), 16), total_key(hudi_load_u16le(y), 16));
    case PQ_SORT_INT96: {
        int32_t dx = (int32_t)hudi_load_u32le(x + 8), dy = (int32_t)hudi_load_u32le(y + 8);
        if (dx != dy) return CMP3(dx, dy);
        return CMP3((int64_t)hudi_load_u64le(x), (int64_t)hudi_load_u64le(y));
    }
    case PQ_SORT_DECIMAL: return decimal_cmp(x, a.len, y, b.len);
    default: return bytes_cmp(x, a.len, y, b.len);
    }
}

/* ---- reading ------------------------------------------------------------------------------------
 */

static const uint8_t NEG_ZERO_F32[4] = {0, 0, 0, 0x80}, POS_ZERO_F32[4] = {0};
static const uint8_t NEG_ZERO_F64[8] = {0, 0, 0, 0, 0, 0, 0, 0x80}, POS_ZERO_F64[8] = {0};
static const uint8_t NEG_ZERO_F16[2] = {0, 0x80}, POS_ZERO_F16[2] = {0};

bool hudi_pq_stats_is_nan(int kind, hudi_slice v) {
    if (v.len < (size_t)(kind == PQ_SORT_DOUBLE ? 8 : kind == PQ_SORT_FLOAT ? 4 : 2)) return false;
    switch (kind) {
    case PQ_SORT_FLOAT: return isnan(load_f32(v.data));
    case PQ_SORT_DOUBLE: return isnan(load_f64(v.data));
    case PQ_SORT_FLOAT16: return half_is_nan(hudi_load_u16le(v.data));
    default: return false;
    }
}

/* The kind's zero (either sign) and the constants to widen it to. */
static bool bound_is_zero(int kind, hudi_slice v, hudi_slice *neg, hudi_slice *pos) {
    switch (kind) {
    case PQ_SORT_FLOAT:
        *neg = HUDI_SLICE(NEG_ZERO_F32, 4), *pos = HUDI_SLICE(POS_ZERO_F32, 4);
        return load_f32(v.data) == 0.0f;
    case PQ_SORT_DOUBLE:
        *neg = HUDI_SLICE(NEG_ZERO_F64, 8), *pos = HUDI_SLICE(POS_ZERO_F64, 8);
        return load_f64(v.data) == 0.0;
    case PQ_SORT_FLOAT16:
        *neg = HUDI_SLICE(NEG_ZERO_F16, 2), *pos = HUDI_SLICE(POS_ZERO_F16, 2);
        return (hudi_load_u16le(v.data) & 0x7FFF) == 0;
    default: return false;
    }
}

static bool bound_width_ok(int kind, hudi_slice v) {
    size_t w = kind_width(kind);
    if (w) return v.len == w;
    if (kind == PQ_SORT_DECIMAL) return v.len > 0;
    return true;
}

static bool signed_order(int kind) {
    return kind == PQ_SORT_BOOL || kind == PQ_SORT_INT32 || kind == PQ_SORT_INT64 ||
           kind == PQ_SORT_FLOAT || kind == PQ_SORT_DOUBLE;
}

/* The deprecated min/max: PARQUET-251/297 for binary physical types, and signed order only
 * unless min == max (parquet-mr < 1.10 and parquet-cpp < 1.3 used signed order for all). */
static bool deprecated_usable(const pq_writer_version *w, const pq_schema_element *leaf, int kind,
                              const pq_statistics *st) {
    if (kind_width(kind) == 12 || kind >= PQ_SORT_FLOAT_TOTAL) return false; /* newer orders */
    bool equal = st->has_min && st->has_max && hudi_slice_eq(st->min, st->max);
    if (!signed_order(kind) && !equal) return false;
    if (leaf->type == PQ_BYTE_ARRAY || leaf->type == PQ_FIXED_LEN_BYTE_ARRAY) {
        if (!w || !w->present) return false;
        if (w->app == PQ_APP_PARQUET_MR && hudi_pq_writer_version_older(w, 1, 8, 0)) return false;
    }
    return true;
}

void hudi_pq_stats_view_init(pq_stats_view *out, const pq_writer_version *writer,
                             const pq_schema_element *leaf, int column_order,
                             const pq_statistics *st) {
    memset(out, 0, sizeof(*out));
    out->kind = hudi_pq_stats_sort_kind(leaf, column_order);
    if (!st) return;
    if (st->has_null_count && st->null_count >= 0) {
        out->has_null_count = true;
        out->null_count = st->null_count;
    }
    if (st->has_nan_count && st->nan_count >= 0) {
        out->has_nan_count = true;
        out->nan_count = st->nan_count;
    }
    int kind = out->kind;
    if (kind == PQ_SORT_NONE) return;
    /* Only BYTE_ARRAY/FLBA bounds can be truncated; fixed widths are exact unless flagged. */
    bool truncatable = kind == PQ_SORT_BYTES;
    if (st->has_min_value || st->has_max_value) {
        out->has_min = st->has_min_value, out->min = st->min_value;
        out->has_max = st->has_max_value, out->max = st->max_value;
        out->min_exact = st->has_is_min_value_exact ? st->is_min_value_exact : !truncatable;
        out->max_exact = st->has_is_max_value_exact ? st->is_max_value_exact : !truncatable;
    } else if ((st->has_min || st->has_max) && deprecated_usable(writer, leaf, kind, st)) {
        out->has_min = st->has_min, out->min = st->min;
        out->has_max = st->has_max, out->max = st->max;
        out->min_exact = out->max_exact = true; /* nobody truncated the old pair */
    }
    if (out->has_min && !bound_width_ok(kind, out->min)) out->has_min = false;
    if (out->has_max && !bound_width_ok(kind, out->max)) out->has_max = false;
    if (!kind_is_float(kind)) return;
    /* NaN in a TYPE_ORDER bound (parquet-cpp < 1.4, PARQUET-1222): the other bound was
     * computed by the same broken comparisons, so drop both. */
    if ((out->has_min && hudi_pq_stats_is_nan(kind, out->min)) ||
        (out->has_max && hudi_pq_stats_is_nan(kind, out->max))) {
        out->has_min = out->has_max = false;
        return;
    }
    hudi_slice neg, pos;
    if (out->has_min && bound_is_zero(kind, out->min, &neg, &pos) &&
        !hudi_slice_eq(out->min, neg)) {
        out->min = neg; /* the data may hold -0 */
        out->min_exact = false;
    }
    if (out->has_max && bound_is_zero(kind, out->max, &neg, &pos) &&
        !hudi_slice_eq(out->max, pos)) {
        out->max = pos;
        out->max_exact = false;
    }
}

/* ---- writing: accumulators
 * ------------------------------------------------------------------------ */

static bool is_utf8_leaf(const pq_schema_element *leaf) {
    int lt = leaf->has_logical_type ? leaf->logical_type.kind : PQ_LT_NONE;
    if (lt == PQ_LT_STRING || lt == PQ_LT_ENUM || lt == PQ_LT_JSON) return true;
    if (lt != PQ_LT_NONE || !leaf->has_converted_type) return false;
    return leaf->converted_type == PQ_CT_UTF8 || leaf->converted_type == PQ_CT_ENUM ||
           leaf->converted_type == PQ_CT_JSON;
}

void hudi_pq_stats_acc_init(pq_stats_acc *acc, const pq_schema_element *leaf,
                            uint32_t truncate_bytes) {
    memset(acc, 0, sizeof(*acc));
    acc->kind = hudi_pq_stats_sort_kind(leaf, PQ_ORDER_TYPE);
    acc->truncate_bytes = truncate_bytes;
    acc->utf8 = leaf && is_utf8_leaf(leaf);
}

void hudi_pq_stats_acc_reset(pq_stats_acc *acc) {
    acc->has_minmax = false;
    acc->null_count = acc->nan_count = 0;
    acc->var_len = false;
    hudi_buf_clear(&acc->min_bytes);
    hudi_buf_clear(&acc->max_bytes);
}

void hudi_pq_stats_acc_dispose(pq_stats_acc *acc) {
    hudi_buf_dispose(&acc->min_bytes);
    hudi_buf_dispose(&acc->max_bytes);
    hudi_buf_dispose(&acc->out_min_bytes);
    hudi_buf_dispose(&acc->out_max_bytes);
    memset(acc, 0, sizeof(*acc));
}

/* Folding one batch's extremes into the running bounds. */
static void fold_i(pq_stats_acc *acc, int64_t lo, int64_t hi) {
    if (!acc->has_minmax)
        acc->min.i = lo, acc->max.i = hi, acc->has_minmax = true;
    else {
        if (lo < acc->min.i) acc->min.i = lo;
        if (hi > acc->max.i) acc->max.i = hi;
    }
}
static void fold_u(pq_stats_acc *acc, uint64_t lo, uint64_t hi) {
    if (!acc->has_minmax)
        acc->min.u = lo, acc->max.u = hi, acc->has_minmax = true;
    else {
        if (lo < acc->min.u) acc->min.u = lo;
        if (hi > acc->max.u) acc->max.u = hi;
    }
}
static void fold_f(pq_stats_acc *acc, float lo, float hi) {
    if (!acc->has_minmax)
        acc->min.f = lo, acc->max.f = hi, acc->has_minmax = true;
    else {
        if (lo < acc->min.f) acc->min.f = lo;
        if (hi > acc->max.f) acc->max.f = hi;
    }
}
static void fold_d(pq_stats_acc *acc, double lo, double hi) {
    if (!acc->has_minmax)
        acc->min.d = lo, acc->max.d = hi, acc->has_minmax = true;
    else {
        if (lo < acc->min.d) acc->min.d = lo;
        if (hi > acc->max.d) acc->max.d = hi;
    }
}
static void fold_half(pq_stats_acc *acc, uint16_t lo, uint16_t hi) {
    if (!acc->has_minmax)
        acc->min.u = lo, acc->max.u = hi, acc->has_minmax = true;
    else {
        if (half_cmp(lo, (uint16_t)acc->min.u) < 0) acc->min.u = lo;
        if (half_cmp(hi, (uint16_t)acc->max.u) > 0) acc->max.u = hi;
    }
}

void hudi_pq_stats_update_i32(pq_stats_acc *acc, const int32_t *v, size_t n) {
    if (n == 0) return;
    if (acc->kind == PQ_SORT_UINT32) {
        uint32_t lo = (uint32_t)v[0], hi = lo;
        for (size_t i = 1; i < n; i++) {
            uint32_t x = (uint32_t)v[i];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        fold_u(acc, lo, hi);
    } else {
        int32_t lo = v[0], hi = v[0];
        for (size_t i = 1; i < n; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        fold_i(acc, lo, hi);
    }
}

void hudi_pq_stats_update_i64(pq_stats_acc *acc, const int64_t *v, size_t n) {
    if (n == 0) return;
    if (acc->kind == PQ_SORT_UINT64) {
        uint64_t lo = (uint64_t)v[0], hi = lo;
        for (size_t i = 1; i < n; i++) {
            uint64_t x = (uint64_t)v[i];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        fold_u(acc, lo, hi);
    } else {
        int64_t lo = v[0], hi = v[0];
        for (size_t i = 1; i < n; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
        fold_i(acc, lo, hi);
    }
}

/* NaNs are counted and excluded (§6.2). -0 and +0 compare equal here; the sign is fixed
 * when the statistics are produced. */
void hudi_pq_stats_update_float(pq_stats_acc *acc, const float *v, size_t n) {
    float lo = INFINITY, hi = -INFINITY;
    int64_t nans = 0;
    for (size_t i = 0; i < n; i++) {
        float x = v[i];
        nans += x != x;
        lo = x < lo ? x : lo; /* false for NaN */
        hi = x > hi ? x : hi;
    }
    acc->nan_count += nans;
    if ((size_t)nans < n) fold_f(acc, lo, hi);
}

void hudi_pq_stats_update_double(pq_stats_acc *acc, const double *v, size_t n) {
    double lo = INFINITY, hi = -INFINITY;
    int64_t nans = 0;
    for (size_t i = 0; i < n; i++) {
        double x = v[i];
        nans += x != x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    acc->nan_count += nans;
    if ((size_t)nans < n) fold_d(acc, lo, hi);
}

void hudi_pq_stats_update_bool(pq_stats_acc *acc, const uint8_t *bits, size_t bit_offset,
                               size_t n) {
    if (n == 0) return;
    size_t ones = 0, i = bit_offset, end = bit_offset + n;
    for (; i < end && (i & 7); i++) ones += (bits[i >> 3] >> (i & 7)) & 1;
    for (; i + 8 <= end; i += 8) ones += (size_t)__builtin_popcount(bits[i >> 3]);
    for (; i < end; i++) ones += (bits[i >> 3] >> (i & 7)) & 1;
    fold_i(acc, ones == n ? 1 : 0, ones > 0 ? 1 : 0);
}

static int set_bytes(hudi_buf *b, const uint8_t *p, size_t len, hudi_error *err) {
    hudi_buf_clear(b);
    hudi_buf_append(b, p, len);
    return hudi_buf_failed(b) ? hudi_error_oom(err) : 0;
}

/* Folds one batch's byte extremes (pointers into the batch) into the owned bounds. */
static int fold_bytes(pq_stats_acc *acc, const uint8_t *lo, size_t lo_len, const uint8_t *hi,
                      size_t hi_len, hudi_error *err) {
    int (*cmp)(const uint8_t *, size_t, const uint8_t *, size_t) =
        acc->kind == PQ_SORT_DECIMAL ? decimal_cmp : bytes_cmp;
    bool first = !acc->has_minmax;
    int rc = 0;
    if (first || cmp(lo, lo_len, (const uint8_t *)acc->min_bytes.data, acc->min_bytes.len) < 0)
        rc = set_bytes(&acc->min_bytes, lo, lo_len, err);
    if (rc == 0 &&
        (first || cmp(hi, hi_len, (const uint8_t *)acc->max_bytes.data, acc->max_bytes.len) > 0))
        rc = set_bytes(&acc->max_bytes, hi, hi_len, err);
    if (rc == 0) acc->has_minmax = true;
    return rc;
}

int hudi_pq_stats_update_fixed(pq_stats_acc *acc, const uint8_t *v, size_t width, size_t n,
                               hudi_error *err) {
    if (n == 0) return 0;
    if (acc->kind == PQ_SORT_FLOAT16 && width == 2) {
        uint16_t lo = 0, hi = 0;
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            uint16_t h = hudi_load_u16le(v + 2 * i);
            if (half_is_nan(h)) {
                acc->nan_count++;
                continue;
            }
            if (!any)
                lo = hi = h, any = true;
            else {
                lo = half_key(h) < half_key(lo) ? h : lo;
                hi = half_key(h) > half_key(hi) ? h : hi;
            }
        }
        if (any) fold_half(acc, lo, hi);
        return 0;
    }
    size_t lo = 0, hi = 0;
    if (width > 0 && acc->kind == PQ_SORT_DECIMAL) {
        /* Equal widths: flip the sign bit of byte 0, then unsigned compare. */
        for (size_t i = 1; i < n; i++) {
            const uint8_t *x = v + i * width;
            const uint8_t *l = v + lo * width, *h = v + hi * width;
            int cl = (x[0] ^ 0x80) != (l[0] ^ 0x80) ? (x[0] ^ 0x80) - (l[0] ^ 0x80)
                                                    : memcmp(x + 1, l + 1, width - 1);
            int ch = (x[0] ^ 0x80) != (h[0] ^ 0x80) ? (x[0] ^ 0x80) - (h[0] ^ 0x80)
                                                    : memcmp(x + 1, h + 1, width - 1);
            lo = cl < 0 ? i : lo;
            hi = ch > 0 ? i : hi;
        }
    } else if (width > 0) {
        for (size_t i = 1; i < n; i++) {
            const uint8_t *x = v + i * width;
            lo = memcmp(x, v + lo * width, width) < 0 ? i : lo;
            hi = memcmp(x, v + hi * width, width) > 0 ? i : hi;
        }
    }
    return fold_bytes(acc, v + lo * width, width, v + hi * width, width, err);
}

/* bytes_cmp, settled by the first 8 bytes when they differ (random keys nearly always) without
 * a call to memcmp. */
static inline int bytes_cmp_fast(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    uint64_t x = prefix8(a, la), y = prefix8(b, lb);
    return x != y ? (x < y ? -1 : 1) : bytes_cmp(a, la, b, lb);
}

int hudi_pq_stats_update_dict_bytes(pq_stats_acc *acc, const uint32_t *ix, size_t n,
                                    const uint8_t *plain, const uint32_t *offs, hudi_error *err) {
    if (n == 0) return 0;
    int (*cmp)(const uint8_t *, size_t, const uint8_t *, size_t) =
        acc->kind == PQ_SORT_DECIMAL ? decimal_cmp : bytes_cmp_fast;
#define ENTRY(e) (plain + offs[e] + 4), (size_t)hudi_load_u32le(plain + offs[e])
    uint32_t lo = ix[0], hi = ix[0], prev = ix[0];
    for (size_t i = 1; i < n; i++) {
        uint32_t e = ix[i];
        if (e == prev) continue;
        prev = e;
        if (e == lo || e == hi) continue;
        if (cmp(ENTRY(e), ENTRY(lo)) < 0)
            lo = e;
        else if (cmp(ENTRY(e), ENTRY(hi)) > 0)
            hi = e;
    }
    acc->var_len = true;
    return fold_bytes(acc, ENTRY(lo), ENTRY(hi), err);
#undef ENTRY
}

int hudi_pq_stats_update_binary(pq_stats_acc *acc, const int32_t *offsets, const uint8_t *data,
                                size_t n, hudi_error *err) {
    if (n == 0) return 0;
    int (*cmp)(const uint8_t *, size_t, const uint8_t *, size_t) =
        acc->kind == PQ_SORT_DECIMAL ? decimal_cmp : bytes_cmp;
    size_t lo = 0, hi = 0;
    /* cmp is chosen once per batch; both are static, so this is a direct call the compiler
     * can see (no per-value dispatch through the column's state). */
    if (cmp == bytes_cmp) {
        /* The first 8 bytes (zero-padded) as a big-endian number order two values whenever
         * they differ (a shorter value that ties is a prefix: smaller, which the padding
         * gives); only ties compare the bytes. While the bounds are one value (`one`), a value
         * equal to it needs one comparison, not two (a column of one value). */
        uint64_t lo_p = prefix8(data + offsets[0], (size_t)(offsets[1] - offsets[0])), hi_p = lo_p;
        bool one = true;
        for (size_t i = 1; i < n; i++) {
            const uint8_t *x = data + offsets[i];
            size_t xl = (size_t)(offsets[i + 1] - offsets[i]);
            uint64_t xp = prefix8(x, xl);
            int c = xp < lo_p   ? -1
                    : xp > lo_p ? 1
                                : bytes_cmp(x, xl, data + offsets[lo],
                                            (size_t)(offsets[lo + 1] - offsets[lo]));
            if (c < 0) {
                lo = i;
                lo_p = xp;
                one = false;
                continue;
            }
            if (one && c == 0) continue;
            if (xp > hi_p ||
                (xp == hi_p && bytes_cmp(x, xl, data + offsets[hi],
                                         (size_t)(offsets[hi + 1] - offsets[hi])) > 0)) {
                hi = i;
                hi_p = xp;
                one = false;
            }
        }
    } else {
        for (size_t i = 1; i < n; i++) {
            const uint8_t *x = data + offsets[i];
            size_t xl = (size_t)(offsets[i + 1] - offsets[i]);
            if (decimal_cmp(x, xl, data + offsets[lo], (size_t)(offsets[lo + 1] - offsets[lo])) < 0)
                lo = i;
            if (decimal_cmp(x, xl, data + offsets[hi], (size_t)(offsets[hi + 1] - offsets[hi])) > 0)
                hi = i;
        }
    }
    acc->var_len = true;
    return fold_bytes(acc, data + offsets[lo], (size_t)(offsets[lo + 1] - offsets[lo]),
                      data + offsets[hi], (size_t)(offsets[hi + 1] - offsets[hi]), err);
}

int hudi_pq_stats_merge(pq_stats_acc *into, const pq_stats_acc *from, hudi_error *err) {
    if (into->kind != from->kind)
        return hudi_error_set(err, HUDI_EINVAL, "statistics merge: sort kinds %d and %d differ",
                              into->kind, from->kind);
    into->null_count += from->null_count;
    into->nan_count += from->nan_count;
    if (!from->has_minmax) return 0;
    switch (into->kind) {
    case PQ_SORT_BOOL:
    case PQ_SORT_INT32:
    case PQ_SORT_INT64: fold_i(into, from->min.i, from->max.i); return 0;
    case PQ_SORT_UINT32:
    case PQ_SORT_UINT64: fold_u(into, from->min.u, from->max.u); return 0;
    case PQ_SORT_FLOAT: fold_f(into, from->min.f, from->max.f); return 0;
    case PQ_SORT_DOUBLE: fold_d(into, from->min.d, from->max.d); return 0;
    case PQ_SORT_FLOAT16: fold_half(into, (uint16_t)from->min.u, (uint16_t)from->max.u); return 0;
    default:
        into->var_len |= from->var_len;
        return fold_bytes(into, (const uint8_t *)from->min_bytes.data, from->min_bytes.len,
                          (const uint8_t *)from->max_bytes.data, from->max_bytes.len, err);
    }
}

/* ---- truncation (§6.4)
 * ------------------------------------------------------------------------------ */

/* Largest cut <= limit that does not split a UTF-8 sequence (v.len > limit). */
static size_t utf8_floor(hudi_slice v, size_t limit) {
    size_t cut = limit;
    while (cut > 0 && (v.data[cut] & 0xC0) == 0x80) cut--;
    return cut;
}

void hudi_pq_stats_truncate_min(hudi_buf *out, hudi_slice v, uint32_t limit, bool utf8,
                                bool *exact) {
    size_t cut = v.len;
    if (limit > 0 && v.len > limit) cut = utf8 ? utf8_floor(v, limit) : limit;
    /* An empty prefix is a valid but useless bound: keep the whole value instead. */
    if (cut == 0 && v.len > 0) cut = v.len;
    *exact = cut == v.len;
    hudi_buf_append(out, v.data, cut);
}

/* Shortest upper bound of v within `limit` bytes: a prefix whose last character (UTF-8) or
 * byte was incremented; returns the new length (written to buf), 0 if impossible. */
static size_t increment_prefix(hudi_slice v, size_t limit, bool utf8, uint8_t *buf) {
    if (!utf8) {
        memcpy(buf, v.data, limit);
        for (size_t i = limit; i-- > 0;)
            if (buf[i] != 0xFF) {
                buf[i]++;
                return i + 1;
            }
        return 0;
    }
    size_t end = utf8_floor(v, limit);
    memcpy(buf, v.data, end);
    while (end > 0) {
        size_t start = end - 1;
        while (start > 0 && (buf[start] & 0xC0) == 0x80) start--;
        int32_t cp = hudi_utf8_decode(buf + start, end - start);
        if (cp >= 0) {
            int32_t next = cp + 1 == 0xD800 ? 0xE000 : cp + 1;
            uint8_t enc[4];
            /* Keep the same encoded length so the bound stays within the limit. */
            if (next <= 0x10FFFF && hudi_utf8_encode((uint32_t)next, enc) == end - start) {
                memcpy(buf + start, enc, end - start);
                return end;
            }
        }
        end = start;
    }
    return 0;
}

void hudi_pq_stats_truncate_max(hudi_buf *out, hudi_slice v, uint32_t limit, bool utf8,
                                bool *exact) {
    if (limit == 0 || v.len <= limit) {
        *exact = true;
        hudi_buf_append(out, v.data, v.len);
        return;
    }
    size_t start = out->len;
    if (hudi_buf_grow(out, limit) < 0) return; /* sticky failure, reported by the caller */
    size_t n = increment_prefix(v, limit, utf8, (uint8_t *)out->data + start);
    if (n == 0) {
        /* Every byte is 0xFF (or no character can be incremented): keep the whole value. */
        *exact = true;
        hudi_buf_append(out, v.data, v.len);
        return;
    }
    *exact = false;
    out->len = start + n;
    out->data[out->len] = '\0';
}

/* ---- producing Statistics
 * ------------------------------------------------------------------------------ */

static hudi_slice put_scalar(int kind, pq_stats_scalar s, bool is_min, uint8_t *dst) {
    switch (kind) {
    case PQ_SORT_BOOL: dst[0] = s.i != 0; return HUDI_SLICE(dst, 1);
    case PQ_SORT_INT32: hudi_store_u32le(dst, (uint32_t)s.i); return HUDI_SLICE(dst, 4);
    case PQ_SORT_UINT32: hudi_store_u32le(dst, (uint32_t)s.u); return HUDI_SLICE(dst, 4);
    case PQ_SORT_INT64: hudi_store_u64le(dst, (uint64_t)s.i); return HUDI_SLICE(dst, 8);
    case PQ_SORT_UINT64: hudi_store_u64le(dst, s.u); return HUDI_SLICE(dst, 8);
    case PQ_SORT_FLOAT: {
        /* A zero min is written as -0.0 and a zero max as +0.0 (§6.2). */
        float f = s.f == 0.0f ? (is_min ? -0.0f : 0.0f) : s.f;
        uint32_t u;
        memcpy(&u, &f, 4);
        hudi_store_u32le(dst, u);
        return HUDI_SLICE(dst, 4);
    }
    case PQ_SORT_DOUBLE: {
        double d = s.d == 0.0 ? (is_min ? -0.0 : 0.0) : s.d;
        uint64_t u;
        memcpy(&u, &d, 8);
        hudi_store_u64le(dst, u);
        return HUDI_SLICE(dst, 8);
    }
    default: { /* FLOAT16 */
        uint16_t h = (uint16_t)s.u;
        if ((h & 0x7FFF) == 0) h = is_min ? 0x8000 : 0x0000;
        dst[0] = (uint8_t)h, dst[1] = (uint8_t)(h >> 8);
        return HUDI_SLICE(dst, 2);
    }
    }
}

int hudi_pq_stats_acc_finish(pq_stats_acc *acc, pq_statistics *out, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    out->has_null_count = true;
    out->null_count = acc->null_count;
    if (kind_is_float(acc->kind)) {
        out->has_nan_count = true;
        out->nan_count = acc->nan_count;
    }
    if (!acc->has_minmax || acc->kind == PQ_SORT_NONE) return 0;
    /* Any NaN: no bounds, as parquet-mr writes (floating_orders_nan_count.parquet). Bounds
     * over the non-NaN values would be valid per the format spec, but Spark orders NaN above
     * every number, so its pushed-down `x > c` would wrongly skip chunks holding NaNs. */
    if (kind_is_float(acc->kind) && acc->nan_count > 0) return 0;
    bool min_exact = true, max_exact = true;
    if (acc->kind == PQ_SORT_BYTES || acc->kind == PQ_SORT_DECIMAL) {
        hudi_slice mn = HUDI_SLICE(acc->min_bytes.data, acc->min_bytes.len);
        hudi_slice mx = HUDI_SLICE(acc->max_bytes.data, acc->max_bytes.len);
        if (acc->kind == PQ_SORT_BYTES && acc->var_len && acc->truncate_bytes > 0) {
            hudi_buf_clear(&acc->out_min_bytes);
            hudi_buf_clear(&acc->out_max_bytes);
            hudi_pq_stats_truncate_min(&acc->out_min_bytes, mn, acc->truncate_bytes, acc->utf8,
                                       &min_exact);
            hudi_pq_stats_truncate_max(&acc->out_max_bytes, mx, acc->truncate_bytes, acc->utf8,
                                       &max_exact);
            if (hudi_buf_failed(&acc->out_min_bytes) || hudi_buf_failed(&acc->out_max_bytes))
                return hudi_error_oom(err);
            mn = HUDI_SLICE(acc->out_min_bytes.data, acc->out_min_bytes.len);
            mx = HUDI_SLICE(acc->out_max_bytes.data, acc->out_max_bytes.len);
        }
        out->min_value = mn;
        out->max_value = mx;
    } else {
        out->min_value = put_scalar(acc->kind, acc->min, true, acc->out_min);
        out->max_value = put_scalar(acc->kind, acc->max, false, acc->out_max);
    }
    out->has_min_value = out->has_max_value = true;
    out->has_is_min_value_exact = out->has_is_max_value_exact = true;
    out->is_min_value_exact = min_exact;
    out->is_max_value_exact = max_exact;
    if (signed_order(acc->kind)) {
        /* Old readers only know the deprecated pair; it is defined for signed orders. */
        out->has_min = out->has_max = true;
        out->min = out->min_value;
        out->max = out->max_value;
    }
    return 0;
}
