/* gen_random_parquet.c - writes one random Parquet file with hudic's writer, for the
 * cross-check of hudic-written files against DuckDB and pyarrow (test_written_crosscheck.py).
 *
 *   gen_random_parquet SEED OUT.parquet
 *
 * From SEED alone it draws a schema (every leaf type hudic writes, structs/lists/maps nested up
 * to depth 3, nulls at every level, empty lists and maps), a few hundred rows split into several
 * batches (edge values: NaN, infinities, -0.0, extreme integers and decimals, unicode and empty
 * strings, pre-1970 times), and writer options (codec, page version, dictionary with small
 * fallback limits, tiny pages and row groups, legacy 2-level lists, FLBA decimals, statistics,
 * page index, CRC, bloom filters). Key invariant: the output depends on SEED only, so a failing
 * seed reproduces exactly.
 *
 * Value encodings: a separate stream drawn from SEED (so the schema and values of a seed do not
 * depend on it) gives about half of the top-level columns an encoding that fits all of their
 * leaves (PLAIN, RLE, DELTA_*, BYTE_STREAM_SPLIT or RLE_DICTIONARY), and now and then the
 * codecs hudic writes beyond the five above (Hadoop-framed LZ4, BROTLI).
 *
 *   gen_random_parquet --encoding ENC --pages v1|v2 --nulls PCT [--codec C] SEED OUT.parquet
 *
 * writes instead a fixed schema holding every leaf type once at the top level and again inside
 * lists, a struct and a map, with PCT percent nulls at every nullable level, and gives encoding
 * ENC (a parquet.thrift Encoding name) to every top-level column whose leaves all allow it
 * (test_written_encodings.py). The dictionary stays on, so the choice must replace it.
 *
 * On success it prints one JSON line: {"seed":..,"rows":..,"batches":[..],"options":{..},
 * "schema":"struct<...>","fields":[..],"encodings":{"column":"ENCODING",..}} and exits 0; on
 * failure a message on stderr and exit 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/parquet.h"
#include "format/parquet/meta.h"

/* ---- deterministic randomness --------------------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) { /* splitmix64: every seed, including 0, gives a good stream */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t below(rng *r, uint64_t n) { return n ? next(r) % n : 0; }
static bool chance(rng *r, int pct) { return (int)below(r, 100) < pct; }
static int64_t between(rng *r, int64_t lo, int64_t hi) { /* inclusive */
    return lo + (int64_t)below(r, (uint64_t)(hi - lo) + 1);
}

/* ---- schema ---------------------------------------------------------------------------------- */

/* Per-leaf generation parameters, kept in a side table indexed by a leaf number stored in the
 * field's field_id (field ids are written to the file, which every reader ignores). */
typedef struct leaf_info {
    int null_pct;  /* chance of null for a nullable leaf */
    int domain;    /* 0 = any value; k > 0 = one of k values (dictionaries pay) */
    uint64_t salt; /* seeds the value domain */
} leaf_info;

#define MAX_LEAVES 512
typedef struct gen {
    rng r;
    leaf_info leaves[MAX_LEAVES];
    int n_leaves;
    int nested_null_pct; /* chance of null for a nullable struct/list/map */
    int max_elems;       /* list/map sizes are 0..max_elems */
} gen;

static const hudi_type_id LEAF_TYPES[] = {
    HUDI_TYPE_BOOL,    HUDI_TYPE_INT8,    HUDI_TYPE_INT16,        HUDI_TYPE_INT32,
    HUDI_TYPE_INT64,   HUDI_TYPE_UINT8,   HUDI_TYPE_UINT16,       HUDI_TYPE_UINT32,
    HUDI_TYPE_UINT64,  HUDI_TYPE_FLOAT16, HUDI_TYPE_FLOAT,        HUDI_TYPE_DOUBLE,
    HUDI_TYPE_DECIMAL, HUDI_TYPE_DATE,    HUDI_TYPE_TIME,         HUDI_TYPE_TIMESTAMP,
    HUDI_TYPE_STRING,  HUDI_TYPE_BINARY,  HUDI_TYPE_FIXED_BINARY, HUDI_TYPE_FIXED_BINARY /* UUID */,
};
#define N_LEAF_TYPES ((int)(sizeof(LEAF_TYPES) / sizeof(LEAF_TYPES[0])))

static void die(const char *what) {
    fprintf(stderr, "gen_random_parquet: %s\n", what);
    exit(1);
}

static void init_field(hudi_field *f, const char *name, hudi_type_id t, bool nullable) {
    if (hudi_field_init(f, name, t, nullable) < 0) die("out of memory");
}

static void set_children(hudi_field *f, int n) {
    if (hudi_field_set_children(f, n) < 0) die("out of memory");
}

static void make_leaf(gen *g, hudi_field *f, const char *name, bool nullable, bool map_key) {
    int k;
    do k = (int)below(&g->r, N_LEAF_TYPES);
    while (map_key && (LEAF_TYPES[k] == HUDI_TYPE_FLOAT || LEAF_TYPES[k] == HUDI_TYPE_DOUBLE ||
                       LEAF_TYPES[k] == HUDI_TYPE_FLOAT16)); /* NaN keys: no key equality */
    init_field(f, name, LEAF_TYPES[k], nullable);
    switch (f->type) {
    case HUDI_TYPE_DECIMAL:
        f->precision = (int32_t)between(&g->r, 1, 38);
        f->scale = (int32_t)between(&g->r, 0, f->precision);
        break;
    case HUDI_TYPE_TIME:
    case HUDI_TYPE_TIMESTAMP:
        f->unit = (uint8_t)below(&g->r, 3);
        f->utc = chance(&g->r, 50);
        break;
    case HUDI_TYPE_FIXED_BINARY:
        if (k == N_LEAF_TYPES - 1) {
            f->byte_width = 16;
            f->hint = HUDI_HINT_UUID;
        } else {
            f->byte_width = (int32_t)between(&g->r, 1, 20);
        }
        break;
    default: break;
    }
    if (g->n_leaves >= MAX_LEAVES) die("too many leaves");
    leaf_info *li = &g->leaves[g->n_leaves];
    static const int null_pcts[] = {0, 5, 20, 50, 90, 100};
    li->null_pct = null_pcts[below(&g->r, 6)];
    li->domain = chance(&g->r, 40) ? (int)between(&g->r, 1, 12) : 0;
    li->salt = next(&g->r);
    f->field_id = g->n_leaves++;
}

static void make_field(gen *g, hudi_field *f, const char *name, bool nullable, int depth) {
    char nm[32];
    int kind = depth < 3 && chance(&g->r, depth == 0 ? 45 : 30) ? (int)below(&g->r, 3) : -1;
    if (kind < 0) {
        make_leaf(g, f, name, nullable, false);
        return;
    }
    if (kind == 0) {
        init_field(f, name, HUDI_TYPE_STRUCT, nullable);
        int n = (int)between(&g->r, 1, 4);
        set_children(f, n);
        for (int i = 0; i < n; i++) {
            snprintf(nm, sizeof(nm), "f%d", i);
            make_field(g, &f->children[i], nm, chance(&g->r, 70), depth + 1);
        }
    } else if (kind == 1) {
        init_field(f, name, HUDI_TYPE_LIST, nullable);
        set_children(f, 1);
        make_field(g, &f->children[0], "element", chance(&g->r, 60), depth + 1);
    } else {
        init_field(f, name, HUDI_TYPE_MAP, nullable);
        set_children(f, 1);
        hudi_field *kv = &f->children[0];
        init_field(kv, "key_value", HUDI_TYPE_STRUCT, false);
        set_children(kv, 2);
        make_leaf(g, &kv->children[0], "key", false, true); /* keys are never null */
        make_field(g, &kv->children[1], "value", chance(&g->r, 70), depth + 1);
    }
}

/* ---- values ---------------------------------------------------------------------------------- */

/* A random valid UTF-8 string: ASCII, JSON specials, control characters, 2/3/4-byte
 * characters, U+2028, DEL. Never invalid UTF-8 (a STRING must be valid for the references). */
static size_t gen_utf8(rng *r, uint8_t *out, size_t cap) {
    static const char *const pieces[] = {
        "a",
        "b",
        "Z",
        "0",
        " ",
        "\"",
        "\\",
        "/",
        "\n",
        "\t",
        "\x01",
        "\x1f",
        "\x7f",
        "\xc3\xa9",         /* é */
        "\xe4\xb8\xad",     /* 中 */
        "\xf0\x9f\x98\x80", /* 😀 */
        "\xe2\x80\xa8",     /* U+2028 */
        "\xef\xbf\xbd",     /* U+FFFD */
        "hello",
        "key",
        "\0",
    };
    /* now and then a long value, larger than the small page limits */
    size_t n = (size_t)below(r, chance(r, 2) ? 1500 : chance(r, 10) ? 40 : 8), len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = pieces[below(r, sizeof(pieces) / sizeof(pieces[0]))];
        size_t pl = p[0] ? strlen(p) : 1; /* "\0": one NUL byte */
        if (len + pl > cap) break;
        memcpy(out + len, p, pl);
        len += pl;
    }
    return len;
}

static int64_t gen_int(rng *r, int bits, bool is_signed) {
    uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    int64_t smin = bits == 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
    int64_t smax = bits == 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
    switch (below(r, 6)) {
    case 0: return is_signed ? smin : 0;
    case 1: return is_signed ? smax : (int64_t)mask;
    case 2: return is_signed ? between(r, -100, 100) : between(r, 0, 200);
    default: {
        uint64_t v = next(r) & mask;
        if (is_signed && bits < 64 && (v >> (bits - 1)) & 1) v |= ~mask; /* sign-extend */
        return (int64_t)v;
    }
    }
}

static double gen_double(rng *r) {
    switch (below(r, 12)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -0.0;
    case 4: return 0.0;
    case 5: {
        uint64_t bits = next(r); /* any bit pattern: subnormals, huge, NaN payloads */
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    case 6: return (double)between(r, -1000000, 1000000) / 1000.0;
    case 7: return 5e-324;
    case 8: return 1.7976931348623157e308;
    default: return (double)between(r, -1000, 1000) / 16.0;
    }
}

static float gen_float(rng *r) {
    if (chance(r, 15)) {
        uint32_t bits = (uint32_t)next(r);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    if (chance(r, 5)) return 1.4e-45f; /* smallest subnormal */
    if (chance(r, 5)) return 3.4028235e38f;
    return (float)gen_double(r);
}

static uint16_t gen_half(rng *r) {
    static const uint16_t edge[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001,
                                    0x03ff, 0x3c00, 0x7bff, 0xfbff, 0x3555, 0x2e66};
    if (chance(r, 40)) return edge[below(r, sizeof(edge) / sizeof(edge[0]))];
    return (uint16_t)next(r);
}

static __int128 pow10_128(int n) {
    __int128 v = 1;
    for (int i = 0; i < n; i++) v *= 10;
    return v;
}

static __int128 gen_decimal(rng *r, int precision) {
    __int128 lim = pow10_128(precision); /* |v| < 10^precision */
    __int128 v;
    switch (below(r, 6)) {
    case 0: v = lim - 1; break;
    case 1: v = -(lim - 1); break;
    case 2: v = (__int128)between(r, -1000, 1000) % lim; break;
    default: {
        unsigned __int128 u = ((unsigned __int128)next(r) << 64) | next(r);
        v = (__int128)(u % (unsigned __int128)lim);
        if (chance(r, 50)) v = -v;
        break;
    }
    }
    return v;
}

static const int64_t PER_SECOND[] = {1000, 1000000, 1000000000};
#define SEC_YEAR_1 (-62135596800ll)  /* 0001-01-01T00:00:00 */
#define SEC_YEAR_9999 253402300799ll /* 9999-12-31T23:59:59 */

static int64_t gen_timestamp(rng *r, int unit) {
    int64_t ps = PER_SECOND[unit];
    /* years 1..9999, except nanos, whose int64 covers 1677..2262 */
    int64_t lo = unit == 2 ? INT64_MIN / ps + 1 : SEC_YEAR_1;
    int64_t hi = unit == 2 ? INT64_MAX / ps - 1 : SEC_YEAR_9999;
    switch (below(r, 9)) {
    case 0: return 0;
    case 1: return -1;
    case 2: return between(r, -86400 * ps, 86400 * ps); /* around the epoch */
    case 8: /* rare: any int64 (years far outside 1..9999, INT64_MIN/MAX) */
        if (chance(r, 80)) break;
        return chance(r, 50) ? (int64_t)next(r) : chance(r, 50) ? INT64_MAX : INT64_MIN;
    case 3: /* nanos: the whole int64 range */
        if (unit == 2) return (int64_t)next(r);
        return between(r, lo, hi) * ps;
    default: break;
    }
    return between(r, lo, hi) * ps + between(r, 0, ps - 1);
}

static int64_t gen_time(rng *r, int unit) {
    int64_t day = 86400 * PER_SECOND[unit];
    switch (below(r, 5)) {
    case 0: return 0;
    case 1: return day - 1;
    default: return between(r, 0, day - 1);
    }
}

static int32_t gen_date(rng *r) {
    switch (below(r, 8)) {
    case 0: return 0;
    case 1: return -1;
    case 2: return -719162; /* 0001-01-01 */
    case 3: return 2932896; /* 9999-12-31 */
    case 4: return (int32_t)between(r, -1000000, 3000000);
    case 5: /* rare: any int32 */
        if (chance(r, 80)) break;
        return chance(r, 50) ? (int32_t)next(r) : chance(r, 50) ? INT32_MAX : INT32_MIN;
    default: break;
    }
    return (int32_t)between(r, -25000, 60000);
}

/* One non-null value of leaf `f` into buf (fixed width, or `*len` bytes for strings/binary). */
static void gen_value(rng *r, const hudi_field *f, uint8_t *buf, size_t cap, size_t *len) {
    int64_t i64;
    *len = (size_t)hudi_type_width(f);
    switch (f->type) {
    case HUDI_TYPE_BOOL:
        buf[0] = (uint8_t)(next(r) & 1);
        *len = 1;
        return;
    case HUDI_TYPE_INT8: i64 = gen_int(r, 8, true); break;
    case HUDI_TYPE_INT16: i64 = gen_int(r, 16, true); break;
    case HUDI_TYPE_INT32: i64 = gen_int(r, 32, true); break;
    case HUDI_TYPE_INT64: i64 = gen_int(r, 64, true); break;
    case HUDI_TYPE_UINT8: i64 = gen_int(r, 8, false); break;
    case HUDI_TYPE_UINT16: i64 = gen_int(r, 16, false); break;
    case HUDI_TYPE_UINT32: i64 = gen_int(r, 32, false); break;
    case HUDI_TYPE_UINT64: i64 = gen_int(r, 64, false); break;
    case HUDI_TYPE_DATE: i64 = gen_date(r); break;
    case HUDI_TYPE_TIME: i64 = gen_time(r, f->unit); break;
    case HUDI_TYPE_TIMESTAMP: i64 = gen_timestamp(r, f->unit); break;
    case HUDI_TYPE_FLOAT16: {
        uint16_t h = gen_half(r);
        memcpy(buf, &h, 2);
        return;
    }
    case HUDI_TYPE_FLOAT: {
        float v = gen_float(r);
        memcpy(buf, &v, 4);
        return;
    }
    case HUDI_TYPE_DOUBLE: {
        double v = gen_double(r);
        memcpy(buf, &v, 8);
        return;
    }
    case HUDI_TYPE_DECIMAL: {
        __int128 v = gen_decimal(r, f->precision);
        memcpy(buf, &v, 16);
        return;
    }
    case HUDI_TYPE_STRING: *len = gen_utf8(r, buf, cap); return;
    case HUDI_TYPE_BINARY:
        *len = (size_t)below(r, chance(r, 2) ? cap : 17);
        for (size_t i = 0; i < *len; i++) buf[i] = (uint8_t)next(r);
        return;
    case HUDI_TYPE_FIXED_BINARY:
        for (int32_t i = 0; i < f->byte_width; i++) buf[i] = (uint8_t)next(r);
        return;
    default: die("unexpected leaf type");
    }
    /* integers of the column's width, little-endian (TIME millis and DATE are int32) */
    memcpy(buf, &i64, *len);
}

/* A leaf value honouring the leaf's domain: with a domain of k, the value is drawn from a
 * stream seeded by one of k salts, so the column holds at most k distinct values. */
static void gen_leaf(gen *g, const hudi_field *f, uint8_t *buf, size_t cap, size_t *len) {
    const leaf_info *li = &g->leaves[f->field_id];
    if (li->domain > 0) {
        rng sub = {li->salt + below(&g->r, (uint64_t)li->domain) * 0x632be59bd9b4e019ull};
        gen_value(&sub, f, buf, cap, len);
    } else {
        gen_value(&g->r, f, buf, cap, len);
    }
}

static void check(int rc, const hudi_error *err) {
    if (rc < 0) die(err->message[0] ? err->message : "append failed");
}

static void append_leaf(hudi_array *a, const hudi_field *f, const uint8_t *buf, size_t len) {
    hudi_error err = HUDI_ERROR_INIT;
    int rc;
    if (f->type == HUDI_TYPE_BOOL)
        rc = hudi_array_append_bool(a, buf[0] != 0, &err);
    else if (f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY ||
             f->type == HUDI_TYPE_FIXED_BINARY)
        rc = hudi_array_append_bytes(a, buf, len, &err);
    else
        rc = hudi_array_append_fixed(a, buf, &err);
    check(rc, &err);
}

static bool is_nullable_null(gen *g, const hudi_field *f) {
    if (!f->nullable) return false;
    if (hudi_type_is_nested(f->type)) return chance(&g->r, g->nested_null_pct);
    return chance(&g->r, g->leaves[f->field_id].null_pct);
}

#define VALUE_CAP 4096

/* Appends one random row for field f to array a. */
static void gen_row(gen *g, hudi_array *a, const hudi_field *f) {
    hudi_error err = HUDI_ERROR_INIT;
    if (is_nullable_null(g, f)) {
        check(hudi_array_append_null(a, &err), &err);
        return;
    }
    switch (f->type) {
    case HUDI_TYPE_STRUCT:
        for (int i = 0; i < f->n_children; i++) gen_row(g, a->children[i], &f->children[i]);
        check(hudi_array_append_nested(a, 0, &err), &err);
        return;
    case HUDI_TYPE_LIST: {
        int n = chance(&g->r, 25) ? 0 : (int)below(&g->r, (uint64_t)g->max_elems + 1);
        for (int i = 0; i < n; i++) gen_row(g, a->children[0], &f->children[0]);
        check(hudi_array_append_nested(a, n, &err), &err);
        return;
    }
    case HUDI_TYPE_MAP: {
        /* distinct keys (DuckDB and Arrow treat duplicate map keys as invalid data) */
        const hudi_field *kf = &f->children[0].children[0];
        hudi_array *e = a->children[0];
        uint8_t keys[8][VALUE_CAP];
        size_t klen[8];
        int n = chance(&g->r, 25) ? 0 : (int)below(&g->r, (uint64_t)g->max_elems + 1), kept = 0;
        for (int i = 0; i < n && i < 8; i++) {
            gen_leaf(g, kf, keys[kept], VALUE_CAP, &klen[kept]);
            bool dup = false;
            for (int j = 0; j < kept && !dup; j++)
                dup = klen[j] == klen[kept] && memcmp(keys[j], keys[kept], klen[j]) == 0;
            if (dup) continue;
            append_leaf(e->children[0], kf, keys[kept], klen[kept]);
            gen_row(g, e->children[1], &f->children[0].children[1]);
            check(hudi_array_append_nested(e, 0, &err), &err);
            kept++;
        }
        check(hudi_array_append_nested(a, kept, &err), &err);
        return;
    }
    default: {
        uint8_t buf[VALUE_CAP];
        size_t len = 0;
        gen_leaf(g, f, buf, sizeof(buf), &len);
        append_leaf(a, f, buf, len);
        return;
    }
    }
}

/* ---- options --------------------------------------------------------------------------------- */

static const char *codec_name(int c) {
    switch (c) {
    case PQ_CODEC_UNCOMPRESSED: return "uncompressed";
    case PQ_CODEC_SNAPPY: return "snappy";
    case PQ_CODEC_GZIP: return "gzip";
    case PQ_CODEC_ZSTD: return "zstd";
    case PQ_CODEC_LZ4: return "lz4";
    case PQ_CODEC_BROTLI: return "brotli";
    case PQ_CODEC_LZ4_RAW: return "lz4_raw";
    default: return "?";
    }
}

static const struct {
    const char *name;
    int enc;
} ENCODINGS[] = {
    {"PLAIN", PQ_ENC_PLAIN},
    {"RLE", PQ_ENC_RLE},
    {"DELTA_BINARY_PACKED", PQ_ENC_DELTA_BINARY_PACKED},
    {"DELTA_LENGTH_BYTE_ARRAY", PQ_ENC_DELTA_LENGTH_BYTE_ARRAY},
    {"DELTA_BYTE_ARRAY", PQ_ENC_DELTA_BYTE_ARRAY},
    {"BYTE_STREAM_SPLIT", PQ_ENC_BYTE_STREAM_SPLIT},
    {"RLE_DICTIONARY", PQ_ENC_RLE_DICTIONARY},
};
#define N_ENCODINGS ((int)(sizeof(ENCODINGS) / sizeof(ENCODINGS[0])))

static const char *encoding_name(int enc) {
    for (int i = 0; i < N_ENCODINGS; i++)
        if (ENCODINGS[i].enc == enc) return ENCODINGS[i].name;
    return "?";
}

/* The physical type hudic's writer stores a leaf in (schema.c's mapping). */
static int physical_of(const hudi_field *f, bool decimal_as_fixed) {
    switch (f->type) {
    case HUDI_TYPE_BOOL: return PQ_BOOLEAN;
    case HUDI_TYPE_INT8:
    case HUDI_TYPE_INT16:
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_UINT8:
    case HUDI_TYPE_UINT16:
    case HUDI_TYPE_UINT32:
    case HUDI_TYPE_DATE: return PQ_INT32;
    case HUDI_TYPE_TIME: return f->unit == HUDI_UNIT_MILLIS ? PQ_INT32 : PQ_INT64;
    case HUDI_TYPE_FLOAT: return PQ_FLOAT;
    case HUDI_TYPE_DOUBLE: return PQ_DOUBLE;
    case HUDI_TYPE_DECIMAL:
        return decimal_as_fixed || f->precision > 18 ? PQ_FIXED_LEN_BYTE_ARRAY
               : f->precision > 9                    ? PQ_INT64
                                                     : PQ_INT32;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: return PQ_BYTE_ARRAY;
    case HUDI_TYPE_FIXED_BINARY:
    case HUDI_TYPE_FLOAT16: return PQ_FIXED_LEN_BYTE_ARRAY;
    default: return PQ_INT64; /* int64, uint64, timestamp */
    }
}

/* Bit (1 << physical type) for every leaf under f. */
static unsigned leaf_physicals(const hudi_field *f, bool decimal_as_fixed) {
    if (f->n_children == 0) return 1u << physical_of(f, decimal_as_fixed);
    unsigned m = 0;
    for (int32_t i = 0; i < f->n_children; i++)
        m |= leaf_physicals(&f->children[i], decimal_as_fixed);
    return m;
}

/* Whether every physical type in `mask` allows `enc` (the table in parquet.h). */
static bool encoding_fits(int enc, unsigned mask) {
    unsigned ok;
    switch (enc) {
    case PQ_ENC_PLAIN: ok = ~0u; break;
    case PQ_ENC_RLE: ok = 1u << PQ_BOOLEAN; break;
    case PQ_ENC_DELTA_BINARY_PACKED: ok = 1u << PQ_INT32 | 1u << PQ_INT64; break;
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: ok = 1u << PQ_BYTE_ARRAY; break;
    case PQ_ENC_DELTA_BYTE_ARRAY: ok = 1u << PQ_BYTE_ARRAY | 1u << PQ_FIXED_LEN_BYTE_ARRAY; break;
    case PQ_ENC_BYTE_STREAM_SPLIT:
        ok = 1u << PQ_FLOAT | 1u << PQ_DOUBLE | 1u << PQ_INT32 | 1u << PQ_INT64 |
             1u << PQ_FIXED_LEN_BYTE_ARRAY;
        break;
    case PQ_ENC_RLE_DICTIONARY: ok = ~(1u << PQ_BOOLEAN); break;
    default: ok = 0; break;
    }
    return (mask & ~ok) == 0;
}

/* Random encodings for about half of the top-level columns, drawn from `r` (not the schema's
 * stream). Returns how many entries were filled. */
static int random_encodings(rng *r, const hudi_field *schema, bool decimal_as_fixed,
                            hudi_pq_column_encoding *out) {
    int n = 0;
    for (int32_t i = 0; i < schema->n_children; i++) {
        if (!chance(r, 50)) continue;
        unsigned mask = leaf_physicals(&schema->children[i], decimal_as_fixed);
        int fit[N_ENCODINGS], n_fit = 0;
        for (int e = 0; e < N_ENCODINGS; e++)
            if (encoding_fits(ENCODINGS[e].enc, mask)) fit[n_fit++] = ENCODINGS[e].enc;
        out[n++] =
            (hudi_pq_column_encoding){schema->children[i].name, fit[below(r, (uint64_t)n_fit)]};
    }
    return n;
}

static void random_options(rng *r, hudi_pq_write_options *o) {
    static const int codecs[] = {HUDI_PQ_CODEC_UNCOMPRESSED, HUDI_PQ_CODEC_SNAPPY,
                                 HUDI_PQ_CODEC_GZIP, HUDI_PQ_CODEC_ZSTD, HUDI_PQ_CODEC_LZ4_RAW};
    o->codec = codecs[below(r, 5)];
    o->data_page_v2 = chance(r, 50);
    o->dictionary = chance(r, 70);
    if (chance(r, 40)) o->dictionary_page_bytes = between(r, 16, 2048); /* force fallback */
    if (chance(r, 60)) o->page_bytes = between(r, 64, 8192);
    if (chance(r, 60)) o->page_rows = between(r, 1, 300);
    if (chance(r, 50)) o->row_group_rows = between(r, 1, 400);
    if (chance(r, 20)) o->row_group_bytes = between(r, 512, 65536);
    o->write_statistics = chance(r, 80);
    o->write_page_index = chance(r, 70);
    o->write_crc = chance(r, 70);
    o->legacy_list_format = chance(r, 40);
    o->decimal_as_fixed = chance(r, 30);
    if (chance(r, 30)) o->stats_truncate_bytes = (int32_t)between(r, 1, 16);
}

/* ---- main ------------------------------------------------------------------------------------ */

/* The field tree as JSON for the test: which leaf types sit where (so a reader's unsupported
 * types can be masked at exactly their positions). */
static void print_field(const hudi_field *f) {
    printf("{\"name\":\"%s\",\"type\":\"%s\",\"nullable\":%s", f->name, hudi_type_name(f->type),
           f->nullable ? "true" : "false");
    if (f->type == HUDI_TYPE_TIME || f->type == HUDI_TYPE_TIMESTAMP)
        printf(",\"unit\":\"%s\",\"utc\":%s",
               f->unit == HUDI_UNIT_MILLIS   ? "ms"
               : f->unit == HUDI_UNIT_MICROS ? "us"
                                             : "ns",
               f->utc ? "true" : "false");
    if (f->type == HUDI_TYPE_DECIMAL)
        printf(",\"precision\":%d,\"scale\":%d", f->precision, f->scale);
    if (f->type == HUDI_TYPE_FIXED_BINARY)
        printf(",\"width\":%d,\"uuid\":%s", f->byte_width,
               f->hint == HUDI_HINT_UUID ? "true" : "false");
    if (f->n_children > 0) {
        printf(",\"children\":[");
        for (int32_t i = 0; i < f->n_children; i++) {
            if (i) printf(",");
            print_field(&f->children[i]);
        }
        printf("]");
    }
    printf("}");
}

static void free_slice(hudi_batch *b) {
    for (int i = 0; i < b->n_columns; i++) hudi_array_free(b->columns[i]);
    free(b->columns);
    free(b);
}

/* A leaf of the fixed schema: every value drawn at random (no domain), `null_pct` nulls. */
static void fixed_leaf(gen *g, hudi_field *f, const char *name, hudi_type_id t, int null_pct) {
    init_field(f, name, t, true);
    if (g->n_leaves >= MAX_LEAVES) die("too many leaves");
    g->leaves[g->n_leaves] = (leaf_info){null_pct, 0, next(&g->r)};
    f->field_id = g->n_leaves++;
}

/* The --encoding schema: each leaf type at the top level (c_<type>), then the same inside
 * lists (l_<type>), one struct of two leaves and one map. */
static int fixed_schema(gen *g, hudi_field *schema, int null_pct) {
    static const struct {
        const char *name;
        hudi_type_id t;
        int a, b; /* decimal precision/scale, time unit, fixed width */
    } L[] = {
        {"bool", HUDI_TYPE_BOOL, 0, 0},
        {"int8", HUDI_TYPE_INT8, 0, 0},
        {"int16", HUDI_TYPE_INT16, 0, 0},
        {"int32", HUDI_TYPE_INT32, 0, 0},
        {"int64", HUDI_TYPE_INT64, 0, 0},
        {"uint8", HUDI_TYPE_UINT8, 0, 0},
        {"uint16", HUDI_TYPE_UINT16, 0, 0},
        {"uint32", HUDI_TYPE_UINT32, 0, 0},
        {"uint64", HUDI_TYPE_UINT64, 0, 0},
        {"date", HUDI_TYPE_DATE, 0, 0},
        {"time_ms", HUDI_TYPE_TIME, HUDI_UNIT_MILLIS, 0},
        {"time_us", HUDI_TYPE_TIME, HUDI_UNIT_MICROS, 0},
        {"time_ns", HUDI_TYPE_TIME, HUDI_UNIT_NANOS, 0},
        {"ts_us", HUDI_TYPE_TIMESTAMP, HUDI_UNIT_MICROS, 1},
        {"ts_ns", HUDI_TYPE_TIMESTAMP, HUDI_UNIT_NANOS, 0},
        {"dec9", HUDI_TYPE_DECIMAL, 9, 2},
        {"dec18", HUDI_TYPE_DECIMAL, 18, 6},
        {"dec38", HUDI_TYPE_DECIMAL, 38, 10},
        {"float16", HUDI_TYPE_FLOAT16, 0, 0},
        {"float", HUDI_TYPE_FLOAT, 0, 0},
        {"double", HUDI_TYPE_DOUBLE, 0, 0},
        {"string", HUDI_TYPE_STRING, 0, 0},
        {"binary", HUDI_TYPE_BINARY, 0, 0},
        {"fixed", HUDI_TYPE_FIXED_BINARY, 5, 0},
        {"uuid", HUDI_TYPE_FIXED_BINARY, 16, 1},
    };
    int n = (int)(sizeof(L) / sizeof(L[0]));
    init_field(schema, "schema", HUDI_TYPE_STRUCT, false);
    set_children(schema, 2 * n + 2);
    for (int k = 0; k < 2 * n; k++) {
        int i = k % n;
        char nm[32];
        snprintf(nm, sizeof(nm), "%s_%s", k < n ? "c" : "l", L[i].name);
        hudi_field *f = &schema->children[k], *leaf = f;
        if (k >= n) {
            init_field(f, nm, HUDI_TYPE_LIST, true);
            set_children(f, 1);
            leaf = &f->children[0];
        }
        fixed_leaf(g, leaf, k < n ? nm : "element", L[i].t, null_pct);
        if (L[i].t == HUDI_TYPE_DECIMAL) leaf->precision = L[i].a, leaf->scale = L[i].b;
        if (L[i].t == HUDI_TYPE_TIME || L[i].t == HUDI_TYPE_TIMESTAMP)
            leaf->unit = (uint8_t)L[i].a, leaf->utc = L[i].b;
        if (L[i].t == HUDI_TYPE_FIXED_BINARY) {
            leaf->byte_width = L[i].a;
            if (L[i].b) leaf->hint = HUDI_HINT_UUID;
        }
    }
    hudi_field *st = &schema->children[2 * n];
    init_field(st, "st", HUDI_TYPE_STRUCT, true);
    set_children(st, 2);
    fixed_leaf(g, &st->children[0], "a", HUDI_TYPE_INT64, null_pct);
    fixed_leaf(g, &st->children[1], "b", HUDI_TYPE_INT32, null_pct);
    hudi_field *m = &schema->children[2 * n + 1];
    init_field(m, "m", HUDI_TYPE_MAP, true);
    set_children(m, 1);
    init_field(&m->children[0], "key_value", HUDI_TYPE_STRUCT, false);
    set_children(&m->children[0], 2);
    fixed_leaf(g, &m->children[0].children[0], "key", HUDI_TYPE_STRING, 0);
    m->children[0].children[0].nullable = false;
    fixed_leaf(g, &m->children[0].children[1], "value", HUDI_TYPE_STRING, null_pct);
    return 2 * n + 2;
}

int main(int argc, char **argv) {
    const char *fixed_enc = NULL, *pages = "v1", *codec = "snappy";
    int null_pct = 0;
    while (argc >= 3 && strncmp(argv[1], "--", 2) == 0) {
        if (strcmp(argv[1], "--encoding") == 0)
            fixed_enc = argv[2];
        else if (strcmp(argv[1], "--pages") == 0)
            pages = argv[2];
        else if (strcmp(argv[1], "--nulls") == 0)
            null_pct = atoi(argv[2]);
        else if (strcmp(argv[1], "--codec") == 0)
            codec = argv[2];
        else
            break;
        argc -= 2, argv += 2;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: gen_random_parquet [--encoding ENC --pages v1|v2 --nulls PCT "
                        "[--codec C]] SEED OUT.parquet\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[1], NULL, 10);
    const char *path = argv[2];
    gen g;
    memset(&g, 0, sizeof(g));
    g.r.s = seed * 0x2545f4914f6cdd1dull + 1;
    rng er = {seed * 0x9e3779b97f4a7c15ull + 0x1234567}; /* encodings and extra codecs */
    static const int nested_null_pcts[] = {0, 10, 30, 100};
    g.nested_null_pct = nested_null_pcts[below(&g.r, 4)];
    g.max_elems = (int)between(&g.r, 1, 5);

    hudi_field schema;
    int n_cols;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    hudi_pq_column_encoding encs[64];
    int n_encs = 0;
    if (fixed_enc) {
        int enc = -1;
        for (int e = 0; e < N_ENCODINGS; e++)
            if (strcmp(ENCODINGS[e].name, fixed_enc) == 0) enc = ENCODINGS[e].enc;
        if (enc < 0) die("unknown encoding");
        g.nested_null_pct = null_pct;
        g.max_elems = 4;
        n_cols = fixed_schema(&g, &schema, null_pct);
        o.data_page_v2 = strcmp(pages, "v2") == 0;
        o.codec = -1;
        for (int c = PQ_CODEC_UNCOMPRESSED; c <= PQ_CODEC_LZ4_RAW; c++)
            if (c != PQ_CODEC_LZO && strcmp(codec_name(c), codec) == 0) o.codec = c;
        if (o.codec < 0) die("unknown codec");
        o.page_rows = 60;
        o.row_group_rows = 300;
        for (int i = 0; i < n_cols && n_encs < 64; i++)
            if (encoding_fits(enc, leaf_physicals(&schema.children[i], false)))
                encs[n_encs++] = (hudi_pq_column_encoding){schema.children[i].name, enc};
    } else {
        init_field(&schema, "schema", HUDI_TYPE_STRUCT, false);
        n_cols = (int)between(&g.r, 3, 10);
        set_children(&schema, n_cols);
        for (int i = 0; i < n_cols; i++) {
            char nm[16];
            snprintf(nm, sizeof(nm), "c%d", i);
            make_field(&g, &schema.children[i], nm, chance(&g.r, 75), 0);
        }
        random_options(&g.r, &o);
        n_encs = random_encodings(&er, &schema, o.decimal_as_fixed, encs);
        if (chance(&er, 20)) o.codec = chance(&er, 50) ? PQ_CODEC_LZ4 : PQ_CODEC_BROTLI;
    }
    o.column_encodings = encs;
    o.n_column_encodings = n_encs;
    /* bloom filters on some top-level leaf columns */
    const char *bloom[16];
    int n_bloom = 0;
    for (int i = 0; i < n_cols && n_bloom < 16; i++)
        if (!hudi_type_is_nested(schema.children[i].type) && chance(&g.r, 25))
            bloom[n_bloom++] = schema.children[i].name;
    o.bloom_filter_columns = n_bloom ? bloom : NULL;
    o.n_bloom_filter_columns = n_bloom;

    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs *fs = NULL;
    hudi_pq_writer *w = NULL;
    check(hudi_fs_local_new(&fs, &err), &err);
    check(hudi_pq_writer_open(&w, fs, path, &schema, &o, &err), &err);

    int n_batches = fixed_enc ? 3 : (int)between(&g.r, 1, 5);
    /* about one file in 16 is larger: long RLE/bit-packed runs, many pages and row groups */
    int64_t max_batch_rows = fixed_enc ? 400 : chance(&g.r, 6) ? 1500 : 250;
    int64_t total = 0, sizes[5];
    for (int bi = 0; bi < n_batches; bi++) {
        /* an empty batch now and then: the writer must accept it */
        int64_t rows = fixed_enc         ? max_batch_rows - 100 * bi
                       : chance(&g.r, 8) ? 0
                                         : between(&g.r, 1, max_batch_rows);
        hudi_batch *b = NULL;
        check(hudi_batch_new(&b, &schema, &err), &err);
        for (int64_t r = 0; r < rows; r++)
            for (int c = 0; c < n_cols; c++) gen_row(&g, b->columns[c], &schema.children[c]);
        b->num_rows = rows;
        check(hudi_batch_validate(b, &err), &err);
        if (rows > 1 && chance(&g.r, 30)) {
            /* write a slice: arrays whose buffers do not start at row 0 of the builder */
            int64_t off = between(&g.r, 0, rows - 1), n = rows - off;
            hudi_batch *s = calloc(1, sizeof(*s));
            if (!s || !(s->columns = calloc((size_t)n_cols, sizeof(hudi_array *))))
                die("out of memory");
            s->schema = b->schema;
            s->num_rows = n;
            s->n_columns = n_cols;
            for (int c = 0; c < n_cols; c++)
                check(hudi_array_slice(&s->columns[c], b->columns[c], off, n, &err), &err);
            hudi_batch_free(b);
            b = s;
            rows = n;
            check(hudi_pq_writer_write(w, b, &err), &err);
            free_slice(b);
        } else {
            check(hudi_pq_writer_write(w, b, &err), &err);
            hudi_batch_free(b);
        }
        sizes[bi] = rows;
        total += rows;
    }
    check(hudi_pq_writer_add_kv(w, "hudic.gen_random_parquet.seed", argv[1], &err), &err);
    int64_t size_bytes = 0;
    int rc = hudi_pq_writer_close(w, &size_bytes, &err);
    check(rc, &err);

    hudi_buf desc = HUDI_BUF_INIT;
    hudi_field_describe(&desc, &schema);
    printf("{\"seed\":%llu,\"rows\":%lld,\"bytes\":%lld,\"batches\":[", (unsigned long long)seed,
           (long long)total, (long long)size_bytes);
    for (int bi = 0; bi < n_batches; bi++) printf("%s%lld", bi ? "," : "", (long long)sizes[bi]);
    printf("],\"options\":{\"codec\":\"%s\",\"page_v2\":%s,\"dictionary\":%s,"
           "\"dictionary_page_bytes\":%lld,\"page_bytes\":%lld,\"page_rows\":%lld,"
           "\"row_group_rows\":%lld,\"row_group_bytes\":%lld,\"statistics\":%s,"
           "\"page_index\":%s,\"crc\":%s,\"legacy_lists\":%s,\"decimal_as_fixed\":%s,"
           "\"stats_truncate_bytes\":%d,\"bloom_columns\":%d},\"schema\":\"%s\",\"fields\":[",
           codec_name(o.codec), o.data_page_v2 ? "true" : "false", o.dictionary ? "true" : "false",
           (long long)o.dictionary_page_bytes, (long long)o.page_bytes, (long long)o.page_rows,
           (long long)o.row_group_rows, (long long)o.row_group_bytes,
           o.write_statistics ? "true" : "false", o.write_page_index ? "true" : "false",
           o.write_crc ? "true" : "false", o.legacy_list_format ? "true" : "false",
           o.decimal_as_fixed ? "true" : "false", o.stats_truncate_bytes, n_bloom,
           desc.data ? desc.data : "");
    for (int i = 0; i < n_cols; i++) {
        if (i) printf(",");
        print_field(&schema.children[i]);
    }
    printf("],\"encodings\":{");
    for (int i = 0; i < n_encs; i++)
        printf("%s\"%s\":\"%s\"", i ? "," : "", encs[i].column, encoding_name(encs[i].encoding));
    printf("}}\n");
    hudi_buf_dispose(&desc);
    hudi_field_dispose(&schema);
    hudi_fs_free(fs);
    return 0;
}
