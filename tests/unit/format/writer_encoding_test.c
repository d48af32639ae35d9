/* writer_encoding_test.c - per-column encodings of the Parquet writer (hudi_pq_column_encoding):
 * every encoding on every physical type it allows (and the logical types stored in them), in v1
 * and v2 data pages, with and without nulls, flat and inside lists and structs, read back by
 * hudic's reader; the footer's encodings and encoding_stats name exactly what the pages use;
 * bad combinations fail with one line naming the column; Hadoop-framed LZ4 and BROTLI pages. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/codec.h"
#include "format/parquet/meta.h"
#include "format/parquet/parquet.h"

/* ---- data ----------------------------------------------------------------------------------- */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

static void fld(hudi_field *f, const char *name, hudi_type_id t, bool nullable) {
    cr_assert_eq(hudi_field_init(f, name, t, nullable), 0);
}

static void list_of(hudi_field *f, const char *name, hudi_type_id t) {
    fld(f, name, HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(f, 1), 0);
    fld(&f->children[0], "element", t, true);
}

/* Every leaf of the test schema: its path_in_schema and physical type. */
typedef struct leaf_desc {
    const char *path;
    int32_t physical;
} leaf_desc;

static const leaf_desc LEAVES[] = {
    {"b", PQ_BOOLEAN},
    {"i8", PQ_INT32},
    {"i16", PQ_INT32},
    {"i32", PQ_INT32},
    {"i64", PQ_INT64},
    {"u64", PQ_INT64},
    {"date", PQ_INT32},
    {"t_ms", PQ_INT32},
    {"t_ns", PQ_INT64},
    {"ts_us", PQ_INT64},
    {"d9", PQ_INT32},
    {"d18", PQ_INT64},
    {"d30", PQ_FIXED_LEN_BYTE_ARRAY},
    {"f16", PQ_FIXED_LEN_BYTE_ARRAY},
    {"f32", PQ_FLOAT},
    {"f64", PQ_DOUBLE},
    {"s", PQ_BYTE_ARRAY},
    {"bin", PQ_BYTE_ARRAY},
    {"fixed", PQ_FIXED_LEN_BYTE_ARRAY},
    {"uuid", PQ_FIXED_LEN_BYTE_ARRAY},
    {"l_s.list.element", PQ_BYTE_ARRAY},
    {"l_i.list.element", PQ_INT64},
    {"l_d.list.element", PQ_DOUBLE},
    {"l_b.list.element", PQ_BOOLEAN},
    {"st.x", PQ_INT32},
    {"st.y", PQ_BYTE_ARRAY},
};
#define N_LEAVES ((int)(sizeof(LEAVES) / sizeof(LEAVES[0])))
#define N_COLS 25

static void test_schema(hudi_field *s) {
    fld(s, "root", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(s, N_COLS), 0);
    hudi_field *c = s->children;
    int i = 0;
    fld(&c[i++], "b", HUDI_TYPE_BOOL, true);
    fld(&c[i++], "i8", HUDI_TYPE_INT8, true);
    fld(&c[i++], "i16", HUDI_TYPE_INT16, true);
    fld(&c[i++], "i32", HUDI_TYPE_INT32, false);
    fld(&c[i++], "i64", HUDI_TYPE_INT64, true);
    fld(&c[i++], "u64", HUDI_TYPE_UINT64, true);
    fld(&c[i++], "date", HUDI_TYPE_DATE, true);
    fld(&c[i], "t_ms", HUDI_TYPE_TIME, true);
    c[i++].unit = HUDI_UNIT_MILLIS;
    fld(&c[i], "t_ns", HUDI_TYPE_TIME, true);
    c[i++].unit = HUDI_UNIT_NANOS;
    fld(&c[i], "ts_us", HUDI_TYPE_TIMESTAMP, true);
    c[i].unit = HUDI_UNIT_MICROS, c[i++].utc = true;
    fld(&c[i], "d9", HUDI_TYPE_DECIMAL, true);
    c[i].precision = 9, c[i++].scale = 2;
    fld(&c[i], "d18", HUDI_TYPE_DECIMAL, true);
    c[i].precision = 18, c[i++].scale = 3;
    fld(&c[i], "d30", HUDI_TYPE_DECIMAL, true);
    c[i].precision = 30, c[i++].scale = 4;
    fld(&c[i++], "f16", HUDI_TYPE_FLOAT16, true);
    fld(&c[i++], "f32", HUDI_TYPE_FLOAT, true);
    fld(&c[i++], "f64", HUDI_TYPE_DOUBLE, true);
    fld(&c[i++], "s", HUDI_TYPE_STRING, true);
    fld(&c[i++], "bin", HUDI_TYPE_BINARY, true);
    fld(&c[i], "fixed", HUDI_TYPE_FIXED_BINARY, true);
    c[i++].byte_width = 5;
    fld(&c[i], "uuid", HUDI_TYPE_FIXED_BINARY, true);
    c[i].byte_width = 16, c[i++].hint = HUDI_HINT_UUID;
    list_of(&c[i++], "l_s", HUDI_TYPE_STRING);
    list_of(&c[i++], "l_i", HUDI_TYPE_INT64);
    list_of(&c[i++], "l_d", HUDI_TYPE_DOUBLE);
    list_of(&c[i++], "l_b", HUDI_TYPE_BOOL);
    fld(&c[i], "st", HUDI_TYPE_STRUCT, true);
    cr_assert_eq(hudi_field_set_children(&c[i], 2), 0);
    fld(&c[i].children[0], "x", HUDI_TYPE_INT32, true);
    fld(&c[i++].children[1], "y", HUDI_TYPE_STRING, true);
    cr_assert_eq(i, N_COLS);
}

/* An integer that the delta encodings find interesting: mostly a slow climb with jitter (small
 * deltas), sometimes a jump to an extreme (deltas that wrap). */
static int64_t some_int(int64_t row, int64_t lo, int64_t hi) {
    uint64_t r = rnd() % 100;
    if (r < 3) return lo;
    if (r < 6) return hi;
    if (r < 15) return lo + (int64_t)(rnd() % (uint64_t)(hi - lo));
    int64_t v = row * 7 + (int64_t)(rnd() % 5);
    return lo + (int64_t)((uint64_t)v % (uint64_t)(hi - lo));
}

/* Strings with long shared prefixes (DELTA_BYTE_ARRAY's case), empties and unique tails. */
static int some_string(char *s, int64_t row) {
    switch (rnd() % 5) {
    case 0: return 0;
    case 1: return snprintf(s, 64, "%llu", (unsigned long long)rnd());
    default:
        return snprintf(s, 64, "prefix/shared/%06lld/%c", (long long)(row / 3),
                        'a' + (int)(row % 26));
    }
}

static void gen_value(hudi_array *a, const hudi_field *f, int64_t row, int null_pct) {
    if (f->nullable && (int)(rnd() % 100) < null_pct) {
        cr_assert_eq(hudi_array_append_null(a, NULL), 0);
        return;
    }
    uint8_t buf[32];
    char str[64];
    memset(buf, 0, sizeof(buf));
    int64_t v;
    switch (f->type) {
    case HUDI_TYPE_BOOL: cr_assert_eq(hudi_array_append_bool(a, rnd() % 3 == 0, NULL), 0); return;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        int n = some_string(str, row);
        cr_assert_eq(hudi_array_append_bytes(a, str, (size_t)n, NULL), 0);
        return;
    }
    case HUDI_TYPE_FIXED_BINARY:
        for (int i = 0; i < f->byte_width; i++)
            buf[i] = i < f->byte_width - 2 ? (uint8_t)(row / 50) : (uint8_t)rnd();
        cr_assert_eq(hudi_array_append_bytes(a, buf, (size_t)f->byte_width, NULL), 0);
        return;
    case HUDI_TYPE_LIST: {
        int k = (int)(rnd() % 4);
        for (int i = 0; i < k; i++) gen_value(a->children[0], &f->children[0], row, null_pct);
        cr_assert_eq(hudi_array_append_nested(a, k, NULL), 0);
        return;
    }
    case HUDI_TYPE_STRUCT:
        for (int i = 0; i < f->n_children; i++)
            gen_value(a->children[i], &f->children[i], row, null_pct);
        cr_assert_eq(hudi_array_append_nested(a, 0, NULL), 0);
        return;
    case HUDI_TYPE_INT8: v = some_int(row, INT8_MIN, INT8_MAX); break;
    case HUDI_TYPE_INT16: v = some_int(row, INT16_MIN, INT16_MAX); break;
    case HUDI_TYPE_INT32:
    case HUDI_TYPE_DATE: v = some_int(row, INT32_MIN, INT32_MAX); break;
    case HUDI_TYPE_TIME:
        v = f->unit == HUDI_UNIT_MILLIS ? some_int(row, 0, 86399999)
                                        : some_int(row, 0, 86399999999999ll);
        break;
    case HUDI_TYPE_DECIMAL:
        v = f->precision <= 9 ? some_int(row, -999999999, 999999999)
                              : some_int(row, -999999999999999999ll, 999999999999999999ll);
        {
            __int128 d = v;
            if (f->precision > 18) d *= (__int128)1000000007;
            memcpy(buf, &d, 16);
        }
        cr_assert_eq(hudi_array_append_fixed(a, buf, NULL), 0);
        return;
    case HUDI_TYPE_FLOAT16: {
        uint16_t h = (uint16_t)(0x3c00 + (row % 64) * 3 + rnd() % 3);
        memcpy(buf, &h, 2);
        cr_assert_eq(hudi_array_append_fixed(a, buf, NULL), 0);
        return;
    }
    case HUDI_TYPE_FLOAT: {
        float x = rnd() % 50 == 0 ? INFINITY : (float)row * 0.25f + (float)(rnd() % 1000) / 7.0f;
        if (rnd() % 50 == 0) x = -0.0f;
        memcpy(buf, &x, 4);
        cr_assert_eq(hudi_array_append_fixed(a, buf, NULL), 0);
        return;
    }
    case HUDI_TYPE_DOUBLE: {
        double x = rnd() % 50 == 0 ? -INFINITY : (double)row / 3.0 + (double)(rnd() % 100000) / 1e3;
        memcpy(buf, &x, 8);
        cr_assert_eq(hudi_array_append_fixed(a, buf, NULL), 0);
        return;
    }
    default: v = some_int(row, INT64_MIN / 2, INT64_MAX / 2); break; /* int64, uint64, ts */
    }
    memcpy(buf, &v, 8);
    cr_assert_eq(hudi_array_append_fixed(a, buf, NULL), 0);
}

static hudi_batch *gen_batch(const hudi_field *schema, int64_t rows, int null_pct) {
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    for (int64_t r = 0; r < rows; r++)
        for (int c = 0; c < schema->n_children; c++)
            gen_value(b->columns[c], &schema->children[c], r, null_pct);
    b->num_rows = rows;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_batch_validate(b, &err), 0, "%s", err.message);
    return b;
}

/* ---- writing and reading -------------------------------------------------------------------- */

static hudi_fs *mem_fs(void) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    return fs;
}

/* Writes `b` in slices of `chunk` rows. Returns the open/write/close code. */
static int write_file(hudi_fs *fs, const char *path, const hudi_batch *b,
                      const hudi_pq_write_options *o, int64_t chunk, hudi_error *err) {
    hudi_pq_writer *w = NULL;
    int rc = hudi_pq_writer_open(&w, fs, path, b->schema, o, err);
    if (rc < 0) return rc;
    for (int64_t r = 0; r < b->num_rows && rc == 0; r += chunk) {
        int64_t n = HUDI_MIN(chunk, b->num_rows - r);
        hudi_batch s = *b;
        s.num_rows = n;
        s.columns = calloc((size_t)b->n_columns, sizeof(hudi_array *));
        for (int i = 0; i < b->n_columns; i++)
            cr_assert_eq(hudi_array_slice(&s.columns[i], b->columns[i], r, n, NULL), 0);
        rc = hudi_pq_writer_write(w, &s, err);
        for (int i = 0; i < b->n_columns; i++) hudi_array_free(s.columns[i]);
        free(s.columns);
    }
    if (rc < 0) {
        hudi_pq_writer_abort(w);
        return rc;
    }
    return hudi_pq_writer_close(w, NULL, err);
}

/* hudic's reader returns exactly `want`. */
static void check_roundtrip(hudi_pq_file *f, const hudi_batch *want, const char *what) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_scan *s = NULL;
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.batch_rows = 211;
    cr_assert_eq(hudi_pq_scan_open(&s, f, &so, &err), 0, "%s", err.message);
    const hudi_field *rs = hudi_pq_scan_schema(s);
    hudi_array *acc[N_COLS];
    for (int i = 0; i < want->n_columns; i++)
        cr_assert_eq(hudi_array_new(&acc[i], &rs->children[i], NULL), 0);
    int64_t rows = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(s, &b, &err), 0, "%s: %s", what, err.message);
        if (!b) break;
        for (int i = 0; i < want->n_columns; i++)
            cr_assert_eq(hudi_array_append_range(acc[i], b->columns[i], 0, b->num_rows, NULL), 0);
        rows += b->num_rows;
    }
    cr_assert_eq(rows, want->num_rows, "%s", what);
    for (int i = 0; i < want->n_columns; i++) {
        hudi_buf why = HUDI_BUF_INIT;
        bool eq = hudi_array_equal(want->columns[i], acc[i], &why);
        cr_assert(eq, "%s: column %s differs: %s", what, want->schema->children[i].name,
                  why.data ? why.data : "");
        hudi_buf_dispose(&why);
        hudi_array_free(acc[i]);
    }
    hudi_pq_scan_free(s);
}

static bool fits(int enc, int32_t physical) {
    switch (enc) {
    case PQ_ENC_PLAIN: return true;
    case PQ_ENC_RLE: return physical == PQ_BOOLEAN;
    case PQ_ENC_DELTA_BINARY_PACKED: return physical == PQ_INT32 || physical == PQ_INT64;
    case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: return physical == PQ_BYTE_ARRAY;
    case PQ_ENC_DELTA_BYTE_ARRAY:
        return physical == PQ_BYTE_ARRAY || physical == PQ_FIXED_LEN_BYTE_ARRAY;
    case PQ_ENC_BYTE_STREAM_SPLIT:
        return physical != PQ_BOOLEAN && physical != PQ_BYTE_ARRAY && physical != PQ_INT96;
    default: return false;
    }
}

static bool has_enc(const pq_column_meta *m, int32_t enc) {
    for (int32_t i = 0; i < m->n_encodings; i++)
        if (m->encodings[i] == enc) return true;
    return false;
}

static const char *leaf_path(const pq_column_meta *m, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    for (int32_t i = 0; i < m->n_path; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%.*s", i ? "." : "",
                               (int)m->path_in_schema[i].len,
                               (const char *)m->path_in_schema[i].data);
    return buf;
}

/* Every leaf the encoding fits is written with it (top-level names for flat columns and lists,
 * dotted leaf paths inside the struct); the footer must say so for every chunk and the data
 * must read back. The dictionary is on, so a chosen encoding must really replace it. */
static void encoding_case(int enc, bool v2, int null_pct, int codec) {
    hudi_field s;
    test_schema(&s);
    hudi_pq_column_encoding ce[N_LEAVES];
    char tops[N_LEAVES][16];
    int n_ce = 0;
    for (int i = 0; i < N_LEAVES; i++) {
        if (!fits(enc, LEAVES[i].physical)) continue;
        const char *p = LEAVES[i].path;
        /* lists by their top-level name, everything else by its path */
        const char *dot = strchr(p, '.');
        if (dot && strncmp(p, "st.", 3) != 0) {
            snprintf(tops[i], sizeof(tops[i]), "%.*s", (int)(dot - p), p);
            p = tops[i];
        }
        ce[n_ce++] = (hudi_pq_column_encoding){p, enc};
    }
    cr_assert_gt(n_ce, 0);
    hudi_batch *b = gen_batch(&s, 1500, null_pct);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = codec;
    o.data_page_v2 = v2;
    o.page_rows = 97;
    o.row_group_rows = 1000;
    o.column_encodings = ce;
    o.n_column_encodings = n_ce;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    char what[128];
    snprintf(what, sizeof(what), "encoding %d, %s, %d%% nulls, codec %s", enc, v2 ? "v2" : "v1",
             null_pct, hudi_pq_codec_name(codec));
    cr_assert_eq(write_file(fs, "e.parquet", b, &o, 333, &err), 0, "%s: %s", what, err.message);

    hudi_pq_file *f = NULL;
    cr_assert_eq(hudi_pq_open(&f, fs, "e.parquet", NULL, &err), 0, "%s", err.message);
    const pq_file_meta *fm = hudi_pq_meta(f);
    cr_assert_eq(fm->n_row_groups, 2);
    for (int32_t g = 0; g < fm->n_row_groups; g++) {
        cr_assert_eq(fm->row_groups[g].n_columns, N_LEAVES);
        for (int32_t i = 0; i < N_LEAVES; i++) {
            const pq_column_meta *m = &fm->row_groups[g].columns[i].meta_data;
            char pb[64];
            cr_assert_str_eq(leaf_path(m, pb, sizeof(pb)), LEAVES[i].path);
            cr_assert_eq(m->type, LEAVES[i].physical);
            if (!fits(enc, m->type)) continue;
            cr_assert(has_enc(m, enc), "%s: %s lacks the encoding in its list", what, pb);
            cr_assert(!m->has_dictionary_page_offset, "%s: %s has a dictionary", what, pb);
            cr_assert(!has_enc(m, PQ_ENC_RLE_DICTIONARY), "%s: %s", what, pb);
            int64_t pages = 0;
            for (int32_t k = 0; k < m->n_encoding_stats; k++) {
                const pq_page_encoding_stats *es = &m->encoding_stats[k];
                cr_assert_eq(es->page_type, v2 ? PQ_PAGE_DATA_V2 : PQ_PAGE_DATA, "%s: %s", what,
                             pb);
                cr_assert_eq(es->encoding, enc, "%s: %s page encoding %d", what, pb, es->encoding);
                pages += es->count;
            }
            cr_assert_geq(pages, 5, "%s: %s has %lld pages", what, pb, (long long)pages);
        }
    }
    check_roundtrip(f, b, what);
    hudi_pq_close(f);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

static const int ENCODINGS[] = {PQ_ENC_PLAIN,
                                PQ_ENC_RLE,
                                PQ_ENC_DELTA_BINARY_PACKED,
                                PQ_ENC_DELTA_LENGTH_BYTE_ARRAY,
                                PQ_ENC_DELTA_BYTE_ARRAY,
                                PQ_ENC_BYTE_STREAM_SPLIT};

static void all_encodings(bool v2, int null_pct, int codec) {
    for (size_t i = 0; i < sizeof(ENCODINGS) / sizeof(ENCODINGS[0]); i++)
        encoding_case(ENCODINGS[i], v2, null_pct, codec);
}

Test(writer_encoding, every_encoding_v1_no_nulls) { all_encodings(false, 0, PQ_CODEC_SNAPPY); }
Test(writer_encoding, every_encoding_v1_nulls) { all_encodings(false, 20, PQ_CODEC_UNCOMPRESSED); }
Test(writer_encoding, every_encoding_v2_no_nulls) { all_encodings(true, 0, PQ_CODEC_ZSTD); }
Test(writer_encoding, every_encoding_v2_nulls) { all_encodings(true, 20, PQ_CODEC_UNCOMPRESSED); }
Test(writer_encoding, every_encoding_v2_all_nulls) { all_encodings(true, 100, PQ_CODEC_SNAPPY); }
Test(writer_encoding, every_encoding_lz4_hadoop) { all_encodings(false, 10, PQ_CODEC_LZ4); }
Test(writer_encoding, every_encoding_brotli_v2) { all_encodings(true, 10, PQ_CODEC_BROTLI); }

/* ---- choosing and refusing ------------------------------------------------------------------- */

static int open_with(const hudi_pq_column_encoding *ce, int n, bool dictionary, hudi_error *err) {
    hudi_field s;
    test_schema(&s);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.dictionary = dictionary;
    o.column_encodings = ce;
    o.n_column_encodings = n;
    hudi_fs *fs = mem_fs();
    hudi_pq_writer *w = NULL;
    int rc = hudi_pq_writer_open(&w, fs, "x.parquet", &s, &o, err);
    if (rc == 0) {
        cr_assert_not_null(w);
        hudi_pq_writer_abort(w);
    } else {
        cr_assert_null(w);
        cr_assert_null(strchr(err->message, '\n'), "one line: %s", err->message);
        cr_assert_not_null(strstr(err->message, "x.parquet"), "%s", err->message);
    }
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
    return rc;
}

Test(writer_encoding, invalid_combinations_name_the_column) {
    hudi_error err = HUDI_ERROR_INIT;
    struct {
        hudi_pq_column_encoding ce;
        const char *want;
    } bad[] = {
        {{"s", PQ_ENC_DELTA_BINARY_PACKED},
         "column s: DELTA_BINARY_PACKED cannot encode BYTE_ARRAY values (string)"},
        {{"f64", PQ_ENC_DELTA_BINARY_PACKED},
         "column f64: DELTA_BINARY_PACKED cannot encode DOUBLE"},
        {{"i32", PQ_ENC_DELTA_LENGTH_BYTE_ARRAY}, "column i32: DELTA_LENGTH_BYTE_ARRAY cannot"},
        {{"fixed", PQ_ENC_DELTA_LENGTH_BYTE_ARRAY}, "column fixed: DELTA_LENGTH_BYTE_ARRAY"},
        {{"i64", PQ_ENC_DELTA_BYTE_ARRAY}, "column i64: DELTA_BYTE_ARRAY cannot encode INT64"},
        {{"s", PQ_ENC_BYTE_STREAM_SPLIT}, "column s: BYTE_STREAM_SPLIT cannot"},
        {{"b", PQ_ENC_BYTE_STREAM_SPLIT}, "column b: BYTE_STREAM_SPLIT cannot encode BOOLEAN"},
        {{"i32", PQ_ENC_RLE}, "column i32: RLE cannot encode INT32 values (int32)"},
        {{"b", PQ_ENC_RLE_DICTIONARY}, "column b: dictionary encoding is not written for BOOLEAN"},
        {{"i32", PQ_ENC_BIT_PACKED}, "column i32: BIT_PACKED cannot"},
        {{"i32", 77}, "column i32: unknown parquet encoding 77"},
        {{"l_s", PQ_ENC_DELTA_BINARY_PACKED}, "column l_s.list.element: DELTA_BINARY_PACKED"},
        {{"st", PQ_ENC_DELTA_BINARY_PACKED}, "column st.y: DELTA_BINARY_PACKED cannot"},
        {{"nope", PQ_ENC_PLAIN}, "encoding column nope names no column of the schema"},
        {{"st.x.z", PQ_ENC_PLAIN}, "encoding column st.x.z names no column"},
        {{"s.", PQ_ENC_PLAIN}, "encoding column s. names no column"},
        {{"i", PQ_ENC_PLAIN}, "encoding column i names no column"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cr_assert_eq(open_with(&bad[i].ce, 1, true, &err), HUDI_EINVAL, "case %zu", i);
        cr_assert_not_null(strstr(err.message, bad[i].want), "case %zu: %s", i, err.message);
    }
    hudi_pq_column_encoding none = {NULL, PQ_ENC_PLAIN};
    cr_assert_eq(open_with(&none, 1, true, &err), HUDI_EINVAL);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.n_column_encodings = 2; /* and no array */
    hudi_field s;
    test_schema(&s);
    hudi_fs *fs = mem_fs();
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "y.parquet", &s, &o, &err), HUDI_EINVAL);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* The longest matching entry wins: a struct-wide choice with one leaf overridden; and
 * RLE_DICTIONARY turns the dictionary on for one column when it is off for the file. */
Test(writer_encoding, longest_match_and_dictionary_choice) {
    hudi_field s;
    test_schema(&s);
    hudi_pq_column_encoding ce[] = {
        {"st.y", PQ_ENC_DELTA_BYTE_ARRAY},
        {"st", PQ_ENC_BYTE_STREAM_SPLIT}, /* x: INT32 */
        {"st", PQ_ENC_PLAIN},             /* equal length: the later entry wins */
        {"l_s.list.element", PQ_ENC_RLE_DICTIONARY},
    };
    hudi_batch *b = gen_batch(&s, 400, 5);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.dictionary = false;
    o.column_encodings = ce;
    o.n_column_encodings = 4;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(write_file(fs, "m.parquet", b, &o, 400, &err), 0, "%s", err.message);
    hudi_pq_file *f = NULL;
    cr_assert_eq(hudi_pq_open(&f, fs, "m.parquet", NULL, &err), 0, "%s", err.message);
    const pq_column_chunk *cols = hudi_pq_meta(f)->row_groups[0].columns;
    const pq_column_meta *x = &cols[24].meta_data, *y = &cols[25].meta_data;
    const pq_column_meta *ls = &cols[20].meta_data, *str = &cols[16].meta_data;
    cr_assert(has_enc(x, PQ_ENC_PLAIN) && !has_enc(x, PQ_ENC_BYTE_STREAM_SPLIT));
    cr_assert(has_enc(y, PQ_ENC_DELTA_BYTE_ARRAY) && !has_enc(y, PQ_ENC_PLAIN));
    cr_assert(ls->has_dictionary_page_offset && has_enc(ls, PQ_ENC_RLE_DICTIONARY));
    cr_assert(!str->has_dictionary_page_offset && !has_enc(str, PQ_ENC_RLE_DICTIONARY));
    check_roundtrip(f, b, "longest match");
    hudi_pq_close(f);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- Hadoop-framed LZ4 ------------------------------------------------------------------------
 */

/* Pages above the 128 KiB frame size become several frames; each frame header is
 * [u32 BE size][u32 BE compressed size] and the frames tile the output. */
Test(writer_encoding, lz4_hadoop_frames) {
    size_t n = 300000;
    uint8_t *in = malloc(n);
    for (size_t i = 0; i < n; i++) in[i] = (uint8_t)(i % 251 < 100 ? rnd() : i % 7);
    hudi_buf out = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_compress(NULL, PQ_CODEC_LZ4, 0, HUDI_SLICE(in, n), &out, &err), 0, "%s",
                 err.message);
    size_t pos = 0, total = 0, frames = 0;
    while (pos < out.len) {
        cr_assert_leq(pos + 8, out.len);
        size_t u = hudi_load_u32be(out.data + pos), c = hudi_load_u32be(out.data + pos + 4);
        cr_assert_leq(u, 128u << 10);
        pos += 8 + c;
        total += u;
        frames++;
    }
    cr_assert_eq(pos, out.len);
    cr_assert_eq(total, n);
    cr_assert_eq(frames, 3);
    uint8_t *back = malloc(n);
    cr_assert_eq(
        hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(out.data, out.len), back, n, &err), 0,
        "%s", err.message);
    cr_assert_eq(memcmp(back, in, n), 0);
    /* an empty page is one frame holding an empty block */
    hudi_buf_clear(&out);
    cr_assert_eq(hudi_pq_compress(NULL, PQ_CODEC_LZ4, 0, HUDI_SLICE("", 0), &out, &err), 0);
    cr_assert_eq(hudi_load_u32be(out.data), 0);
    cr_assert_eq(
        hudi_pq_decompress(NULL, PQ_CODEC_LZ4, HUDI_SLICE(out.data, out.len), back, 0, &err), 0,
        "%s", err.message);
    free(in);
    free(back);
    hudi_buf_dispose(&out);
}

/* An all-null chunk gets no dictionary page of zero entries, and its v2 pages store the empty
 * value section uncompressed (DuckDB refuses an LZ4 stream of nothing); values that follow
 * nulls still get the dictionary. */
Test(writer_encoding, all_null_pages_have_no_dictionary) {
    hudi_field s;
    test_schema(&s);
    hudi_batch *b = gen_batch(&s, 300, 100);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = PQ_CODEC_LZ4;
    o.data_page_v2 = true;
    o.page_rows = 50;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(write_file(fs, "n.parquet", b, &o, 300, &err), 0, "%s", err.message);
    hudi_pq_file *f = NULL;
    cr_assert_eq(hudi_pq_open(&f, fs, "n.parquet", NULL, &err), 0, "%s", err.message);
    const pq_column_chunk *cols = hudi_pq_meta(f)->row_groups[0].columns;
    for (int i = 0; i < N_LEAVES; i++) {
        const pq_column_meta *m = &cols[i].meta_data;
        if (strcmp(LEAVES[i].path, "i32") == 0) continue; /* not nullable */
        cr_assert(!m->has_dictionary_page_offset, "%s", LEAVES[i].path);
        cr_assert(!has_enc(m, PQ_ENC_RLE_DICTIONARY), "%s", LEAVES[i].path);
    }
    check_roundtrip(f, b, "all null");
    hudi_pq_close(f);
    hudi_batch_free(b);

    /* 120 nulls, then values: the dictionary decides on the first page holding values */
    hudi_field one;
    fld(&one, "root", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(&one, 1), 0);
    fld(&one.children[0], "s", HUDI_TYPE_STRING, true);
    cr_assert_eq(hudi_batch_new(&b, &one, NULL), 0);
    for (int r = 0; r < 400; r++) {
        if (r < 120)
            cr_assert_eq(hudi_array_append_null(b->columns[0], NULL), 0);
        else
            cr_assert_eq(
                hudi_array_append_bytes(b->columns[0], r % 2 ? "odd" : "even", r % 2 ? 3 : 4, NULL),
                0);
    }
    b->num_rows = 400;
    cr_assert_eq(write_file(fs, "m.parquet", b, &o, 400, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_open(&f, fs, "m.parquet", NULL, &err), 0, "%s", err.message);
    const pq_column_meta *m = &hudi_pq_meta(f)->row_groups[0].columns[0].meta_data;
    cr_assert(m->has_dictionary_page_offset && has_enc(m, PQ_ENC_RLE_DICTIONARY));
    check_roundtrip(f, b, "nulls then values");
    hudi_pq_close(f);
    hudi_batch_free(b);
    hudi_field_dispose(&one);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
