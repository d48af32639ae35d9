/* writer_test.c - the Parquet writer: footers decoded with hudi_pq_decode_file_meta, round trips
 * through hudic's reader for every leaf type, nesting, codec and page version, page
 * boundaries at records, dictionary fallback in encoding_stats, statistics and page indexes,
 * a storage failure at every call, and (when python3 has them) reads by pyarrow and DuckDB. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/bloom.h"
#include "format/parquet/codec.h"
#include "format/parquet/encoding.h"
#include "format/parquet/parquet.h"
#include "format/parquet/schema.h"
#include "support.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static uint64_t g_rng = 88172645463325252ull;
static uint64_t rnd(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}
static bool chance(int pct) { return (int)(rnd() % 100) < pct; }

static void fld(hudi_field *f, const char *name, hudi_type_id t, bool nullable) {
    cr_assert_eq(hudi_field_init(f, name, t, nullable), 0);
}

static void children(hudi_field *f, int n) { cr_assert_eq(hudi_field_set_children(f, n), 0); }

/* Appends one random row for field f to array a. */
static void gen_one(hudi_array *a, const hudi_field *f, int null_pct) {
    if (f->nullable && chance(null_pct)) {
        cr_assert_eq(hudi_array_append_null(a, NULL), 0);
        return;
    }
    uint8_t buf[32];
    memset(buf, 0, sizeof(buf));
    switch (f->type) {
    case HUDI_TYPE_STRUCT:
        for (int i = 0; i < f->n_children; i++) gen_one(a->children[i], &f->children[i], null_pct);
        cr_assert_eq(hudi_array_append_nested(a, 0, NULL), 0);
        return;
    case HUDI_TYPE_LIST: {
        int k = (int)(rnd() % 4);
        for (int i = 0; i < k; i++) gen_one(a->children[0], &f->children[0], null_pct);
        cr_assert_eq(hudi_array_append_nested(a, k, NULL), 0);
        return;
    }
    case HUDI_TYPE_MAP: {
        int k = (int)(rnd() % 4);
        hudi_array *e = a->children[0];
        for (int i = 0; i < k; i++) {
            gen_one(e->children[0], &f->children[0].children[0], null_pct);
            gen_one(e->children[1], &f->children[0].children[1], null_pct);
            cr_assert_eq(hudi_array_append_nested(e, 0, NULL), 0);
        }
        cr_assert_eq(hudi_array_append_nested(a, k, NULL), 0);
        return;
    }
    case HUDI_TYPE_BOOL: cr_assert_eq(hudi_array_append_bool(a, rnd() & 1, NULL), 0); return;
    case HUDI_TYPE_STRING:
    case HUDI_TYPE_BINARY: {
        int len = (int)(rnd() % 9);
        char s[16];
        for (int i = 0; i < len; i++) s[i] = (char)('a' + rnd() % 4);
        cr_assert_eq(hudi_array_append_bytes(a, s, (size_t)len, NULL), 0);
        return;
    }
    case HUDI_TYPE_FIXED_BINARY:
        for (int i = 0; i < f->byte_width && i < 32; i++) buf[i] = (uint8_t)(rnd() % 3);
        cr_assert_eq(hudi_array_append_bytes(a, buf, (size_t)f->byte_width, NULL), 0);
        return;
    case HUDI_TYPE_FLOAT: {
        float v = (float)((int64_t)(rnd() % 2001) - 1000) / 8.0f;
        memcpy(buf, &v, 4);
        break;
    }
    case HUDI_TYPE_DOUBLE: {
        double v = (double)((int64_t)(rnd() % 20001) - 10000) / 16.0;
        memcpy(buf, &v, 8);
        break;
    }
    case HUDI_TYPE_FLOAT16: {
        uint16_t h = (uint16_t)(rnd() % 0x7c00); /* finite, non-negative */
        if (rnd() & 1) h |= 0x8000;
        memcpy(buf, &h, 2);
        break;
    }
    case HUDI_TYPE_DECIMAL: {
        int64_t m = 1;
        for (int i = 0; i < f->precision && i < 18; i++) m *= 10;
        __int128 v = (__int128)((int64_t)(rnd() % (uint64_t)m));
        if (rnd() & 1) v = -v;
        if (f->precision > 18) v *= (__int128)1000000007;
        memcpy(buf, &v, 16);
        break;
    }
    case HUDI_TYPE_TIME:
        if (f->unit == HUDI_UNIT_MILLIS) {
            int32_t v = (int32_t)(rnd() % 86400000);
            memcpy(buf, &v, 4);
        } else {
            int64_t v = (int64_t)(rnd() % 86400000000ull);
            memcpy(buf, &v, 8);
        }
        break;
    default: {
        uint64_t v = rnd() % 50; /* small domain: dictionaries pay */
        if (rnd() & 1) v = rnd();
        memcpy(buf, &v, 8);
        break;
    }
    }
    cr_assert_eq(hudi_array_append_fixed(a, buf, NULL), 0);
}

static hudi_batch *gen_batch(const hudi_field *schema, int64_t rows, int null_pct) {
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, schema, NULL), 0);
    for (int64_t r = 0; r < rows; r++)
        for (int c = 0; c < schema->n_children; c++)
            gen_one(b->columns[c], &schema->children[c], null_pct);
    b->num_rows = rows;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_batch_validate(b, &err), 0, "%s", err.message);
    return b;
}

/* A batch holding rows [off, off + n) of `src` (deep copies). */
static hudi_batch *slice_batch(const hudi_batch *src, int64_t off, int64_t n) {
    hudi_batch *b = calloc(1, sizeof(*b));
    b->schema = src->schema;
    b->num_rows = n;
    b->n_columns = src->n_columns;
    b->columns = calloc((size_t)src->n_columns, sizeof(hudi_array *));
    for (int i = 0; i < src->n_columns; i++)
        cr_assert_eq(hudi_array_slice(&b->columns[i], src->columns[i], off, n, NULL), 0);
    return b;
}

static void free_slice(hudi_batch *b) {
    for (int i = 0; i < b->n_columns; i++) hudi_array_free(b->columns[i]);
    free(b->columns);
    free(b);
}

/* Writes `b` in slices of `chunk` rows. Returns the close code. */
static int write_file(hudi_fs *fs, const char *path, const hudi_batch *b,
                      const hudi_pq_write_options *o, int64_t chunk, hudi_error *err) {
    hudi_pq_writer *w = NULL;
    int rc = hudi_pq_writer_open(&w, fs, path, b->schema, o, err);
    if (rc < 0) return rc;
    if (chunk <= 0 || chunk >= b->num_rows) {
        rc = hudi_pq_writer_write(w, b, err);
    } else {
        for (int64_t r = 0; r < b->num_rows && rc == 0; r += chunk) {
            hudi_batch *s = slice_batch(b, r, HUDI_MIN(chunk, b->num_rows - r));
            rc = hudi_pq_writer_write(w, s, err);
            free_slice(s);
        }
    }
    if (rc == 0) rc = hudi_pq_writer_add_kv(w, "hudi.test", "yes", err);
    if (rc < 0) {
        hudi_pq_writer_abort(w);
        return rc;
    }
    return hudi_pq_writer_close(w, NULL, err);
}

/* Footer of a file in `fs`, decoded into `arena`. */
static void read_footer(hudi_fs *fs, const char *path, pq_file_meta *m, hudi_arena *arena,
                        hudi_buf *bytes) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, path, bytes, &err), 0, "%s", err.message);
    cr_assert_geq(bytes->len, 12);
    cr_assert_eq(memcmp(bytes->data, "PAR1", 4), 0);
    cr_assert_eq(memcmp(bytes->data + bytes->len - 4, "PAR1", 4), 0);
    uint32_t flen = hudi_load_u32le(bytes->data + bytes->len - 8);
    cr_assert_leq((size_t)flen + 12, bytes->len);
    hudi_slice in = HUDI_SLICE(bytes->data + bytes->len - 8 - flen, flen);
    cr_assert_eq(hudi_pq_decode_file_meta(m, arena, in, &err), 0, "%s", err.message);
}

/* Reads the whole file back with hudic's reader and compares it with `want`. */
static void check_roundtrip(hudi_fs *fs, const char *path, const hudi_batch *want) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_file *f = NULL;
    hudi_pq_scan *s = NULL;
    hudi_pq_open_options oo = HUDI_PQ_OPEN_OPTIONS_INIT;
    cr_assert_eq(hudi_pq_open(&f, fs, path, &oo, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_num_rows(f), want->num_rows);
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    so.batch_rows = 777;
    cr_assert_eq(hudi_pq_scan_open(&s, f, &so, &err), 0, "%s", err.message);
    const hudi_field *rs = hudi_pq_scan_schema(s);
    cr_assert_eq(rs->n_children, want->n_columns);
    hudi_array **acc = calloc((size_t)want->n_columns, sizeof(*acc));
    for (int i = 0; i < want->n_columns; i++)
        cr_assert_eq(hudi_array_new(&acc[i], &rs->children[i], NULL), 0);
    int64_t rows = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(s, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int i = 0; i < want->n_columns; i++)
            cr_assert_eq(hudi_array_append_range(acc[i], b->columns[i], 0, b->num_rows, &err), 0,
                         "%s", err.message);
        rows += b->num_rows;
    }
    cr_assert_eq(rows, want->num_rows);
    for (int i = 0; i < want->n_columns; i++) {
        hudi_buf why = HUDI_BUF_INIT;
        bool eq = hudi_array_equal(want->columns[i], acc[i], &why);
        cr_assert(eq, "column %s differs: %s", want->schema->children[i].name,
                  why.data ? why.data : "");
        hudi_buf_dispose(&why);
        hudi_array_free(acc[i]);
    }
    free(acc);
    hudi_pq_scan_free(s);
    hudi_pq_close(f);
}

/* A schema with every leaf type, nullable and not. */
static void all_types_schema(hudi_field *s) {
    fld(s, "root", HUDI_TYPE_STRUCT, false);
    children(s, 27);
    hudi_field *c = s->children;
    int i = 0;
    fld(&c[i++], "b", HUDI_TYPE_BOOL, true);
    fld(&c[i++], "i8", HUDI_TYPE_INT8, true);
    fld(&c[i++], "i16", HUDI_TYPE_INT16, true);
    fld(&c[i++], "i32", HUDI_TYPE_INT32, false);
    fld(&c[i++], "i64", HUDI_TYPE_INT64, true);
    fld(&c[i++], "u8", HUDI_TYPE_UINT8, true);
    fld(&c[i++], "u16", HUDI_TYPE_UINT16, true);
    fld(&c[i++], "u32", HUDI_TYPE_UINT32, true);
    fld(&c[i++], "u64", HUDI_TYPE_UINT64, true);
    fld(&c[i++], "f16", HUDI_TYPE_FLOAT16, true);
    fld(&c[i++], "f32", HUDI_TYPE_FLOAT, true);
    fld(&c[i++], "f64", HUDI_TYPE_DOUBLE, false);
    fld(&c[i], "d5", HUDI_TYPE_DECIMAL, true);
    c[i].precision = 5, c[i++].scale = 2;
    fld(&c[i], "d15", HUDI_TYPE_DECIMAL, true);
    c[i].precision = 15, c[i++].scale = 3;
    fld(&c[i], "d30", HUDI_TYPE_DECIMAL, true);
    c[i].precision = 30, c[i++].scale = 4;
    fld(&c[i++], "date", HUDI_TYPE_DATE, true);
    fld(&c[i], "t_ms", HUDI_TYPE_TIME, true);
    c[i].unit = HUDI_UNIT_MILLIS, c[i++].utc = true;
    fld(&c[i], "t_us", HUDI_TYPE_TIME, true);
    c[i].unit = HUDI_UNIT_MICROS, c[i++].utc = true;
    fld(&c[i], "t_ns", HUDI_TYPE_TIME, true);
    c[i].unit = HUDI_UNIT_NANOS, c[i++].utc = true;
    fld(&c[i], "ts_ms", HUDI_TYPE_TIMESTAMP, true);
    c[i].unit = HUDI_UNIT_MILLIS, c[i++].utc = true;
    fld(&c[i], "ts_us", HUDI_TYPE_TIMESTAMP, true);
    c[i].unit = HUDI_UNIT_MICROS, c[i++].utc = false;
    fld(&c[i], "ts_ns", HUDI_TYPE_TIMESTAMP, true);
    c[i].unit = HUDI_UNIT_NANOS, c[i++].utc = true;
    fld(&c[i++], "s", HUDI_TYPE_STRING, true);
    fld(&c[i++], "s_req", HUDI_TYPE_STRING, false);
    fld(&c[i++], "bin", HUDI_TYPE_BINARY, true);
    fld(&c[i], "fixed", HUDI_TYPE_FIXED_BINARY, true);
    c[i++].byte_width = 5;
    fld(&c[i], "uuid", HUDI_TYPE_FIXED_BINARY, true);
    c[i].byte_width = 16, c[i++].hint = HUDI_HINT_UUID;
    cr_assert_eq(i, 27);
}

/* struct<list<struct<a:int32, m:map<string, list<double>>>>, s: struct<x: string, y: list<int64>>>
 */
static void nested_schema(hudi_field *s) {
    fld(s, "root", HUDI_TYPE_STRUCT, false);
    children(s, 4);
    hudi_field *c = s->children;
    fld(&c[0], "id", HUDI_TYPE_INT64, false);
    fld(&c[1], "l", HUDI_TYPE_LIST, true);
    children(&c[1], 1);
    hudi_field *el = &c[1].children[0];
    fld(el, "element", HUDI_TYPE_STRUCT, true);
    children(el, 2);
    fld(&el->children[0], "a", HUDI_TYPE_INT32, true);
    hudi_field *m = &el->children[1];
    fld(m, "m", HUDI_TYPE_MAP, true);
    children(m, 1);
    fld(&m->children[0], "key_value", HUDI_TYPE_STRUCT, false);
    children(&m->children[0], 2);
    fld(&m->children[0].children[0], "key", HUDI_TYPE_STRING, false);
    hudi_field *v = &m->children[0].children[1];
    fld(v, "value", HUDI_TYPE_LIST, true);
    children(v, 1);
    fld(&v->children[0], "element", HUDI_TYPE_DOUBLE, true);
    fld(&c[2], "st", HUDI_TYPE_STRUCT, true);
    children(&c[2], 2);
    fld(&c[2].children[0], "x", HUDI_TYPE_STRING, true);
    fld(&c[2].children[1], "y", HUDI_TYPE_LIST, false);
    children(&c[2].children[1], 1);
    fld(&c[2].children[1].children[0], "element", HUDI_TYPE_INT64, false);
    fld(&c[3], "flags", HUDI_TYPE_LIST, false);
    children(&c[3], 1);
    fld(&c[3].children[0], "element", HUDI_TYPE_BOOL, true);
}

static hudi_fs *mem_fs(void) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    return fs;
}

/* ---- footer ------------------------------------------------------------------------------------
 */

Test(writer, footer_metadata) {
    hudi_field s;
    all_types_schema(&s);
    hudi_batch *b = gen_batch(&s, 3000, 20);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.row_group_rows = 1000;
    o.page_rows = 300;
    cr_assert_eq(write_file(fs, "t.parquet", b, &o, 0, &err), 0, "%s", err.message);

    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "t.parquet", &m, &arena, &bytes);
    cr_assert_eq(m.version, 1);
    cr_assert(m.has_created_by);
    cr_assert(m.created_by.len > 20 &&
              memcmp(m.created_by.data, "hudic version 0.1.0 (build ", 27) == 0);
    cr_assert_eq(m.num_rows, 3000);
    cr_assert_eq(m.n_row_groups, 3);
    cr_assert_eq(m.n_column_orders, 27);
    for (int i = 0; i < 27; i++) cr_assert_eq(m.column_orders[i], PQ_ORDER_TYPE);
    cr_assert_eq(m.n_key_value, 1);
    cr_assert(hudi_slice_eq(m.key_value[0].key, hudi_slice_cstr("hudi.test")));
    int64_t prev_end = 4;
    for (int g = 0; g < m.n_row_groups; g++) {
        pq_row_group *rg = &m.row_groups[g];
        cr_assert_eq(rg->num_rows, 1000);
        cr_assert(rg->has_ordinal && rg->ordinal == g);
        cr_assert(rg->has_file_offset && rg->file_offset == prev_end);
        int64_t tc = 0;
        for (int c = 0; c < rg->n_columns; c++) {
            pq_column_chunk *cc = &rg->columns[c];
            pq_column_meta *cm = &cc->meta_data;
            int64_t start =
                cm->has_dictionary_page_offset ? cm->dictionary_page_offset : cm->data_page_offset;
            cr_assert_eq(start, prev_end, "chunks are contiguous");
            prev_end = start + cm->total_compressed_size;
            tc += cm->total_compressed_size;
            cr_assert_eq(cm->codec, PQ_CODEC_SNAPPY);
            cr_assert(cm->has_statistics && cm->statistics.has_null_count);
            cr_assert(cc->has_offset_index);
            cr_assert(cm->n_encoding_stats > 0);
            /* the first data page header sits at data_page_offset */
            pq_page_header h;
            cr_assert_eq(
                hudi_pq_decode_page_header(&h, &arena,
                                           HUDI_SLICE(bytes.data + cm->data_page_offset,
                                                      bytes.len - (size_t)cm->data_page_offset),
                                           NULL, &err),
                0, "%s", err.message);
            cr_assert(h.type == PQ_PAGE_DATA && h.has_crc);
            if (cm->has_dictionary_page_offset) {
                cr_assert_eq(hudi_pq_decode_page_header(
                                 &h, &arena,
                                 HUDI_SLICE(bytes.data + cm->dictionary_page_offset, 100), NULL,
                                 &err),
                             0);
                cr_assert_eq(h.type, PQ_PAGE_DICTIONARY);
            }
            /* offset index: first location == data_page_offset, 1000 rows / 300 per page */
            pq_offset_index oi;
            cr_assert_eq(
                hudi_pq_decode_offset_index(&oi, &arena,
                                            HUDI_SLICE(bytes.data + cc->offset_index_offset,
                                                       (size_t)cc->offset_index_length),
                                            &err),
                0, "%s", err.message);
            cr_assert_eq(oi.n_page_locations, 4);
            cr_assert_eq(oi.page_locations[0].offset, cm->data_page_offset);
            cr_assert_eq(oi.page_locations[0].first_row_index, 0);
            cr_assert_eq(oi.page_locations[3].first_row_index, 900);
            if (cc->has_column_index) {
                pq_column_index ci;
                cr_assert_eq(
                    hudi_pq_decode_column_index(&ci, &arena,
                                                HUDI_SLICE(bytes.data + cc->column_index_offset,
                                                           (size_t)cc->column_index_length),
                                                &err),
                    0, "%s", err.message);
                cr_assert_eq(ci.n_pages, 4);
                cr_assert(ci.has_null_counts);
            }
        }
        cr_assert_eq(rg->total_compressed_size, tc);
    }
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- round trips --------------------------------------------------------------------------------
 */

static void roundtrip_case(int codec, bool v2, bool dict, int64_t chunk) {
    hudi_field s;
    all_types_schema(&s);
    hudi_batch *b = gen_batch(&s, 2500, 15);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = codec;
    o.data_page_v2 = v2;
    o.dictionary = dict;
    o.page_rows = 333;
    o.row_group_rows = 1100;
    cr_assert_eq(write_file(fs, "r.parquet", b, &o, chunk, &err), 0, "%s", err.message);
    check_roundtrip(fs, "r.parquet", b);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(writer, roundtrip_all_types_snappy_v1) { roundtrip_case(PQ_CODEC_SNAPPY, false, true, 0); }
Test(writer, roundtrip_all_types_uncompressed_v2) {
    roundtrip_case(PQ_CODEC_UNCOMPRESSED, true, true, 700);
}
Test(writer, roundtrip_all_types_gzip_plain) { roundtrip_case(PQ_CODEC_GZIP, false, false, 999); }
Test(writer, roundtrip_all_types_zstd_v2) { roundtrip_case(PQ_CODEC_ZSTD, true, true, 0); }
Test(writer, roundtrip_all_types_lz4raw) { roundtrip_case(PQ_CODEC_LZ4_RAW, false, true, 0); }

static void nested_case(bool v2, bool legacy, int64_t chunk) {
    hudi_field s;
    nested_schema(&s);
    hudi_batch *b = gen_batch(&s, 2000, 20);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.data_page_v2 = v2;
    o.legacy_list_format = legacy;
    o.page_rows = 97;
    o.row_group_rows = 900;
    cr_assert_eq(write_file(fs, "n.parquet", b, &o, chunk, &err), 0, "%s", err.message);
    check_roundtrip(fs, "n.parquet", b);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(writer, roundtrip_nested_v1) { nested_case(false, false, 0); }
Test(writer, roundtrip_nested_v2_sliced) { nested_case(true, false, 313); }
Test(writer, roundtrip_nested_legacy_lists) { nested_case(false, true, 0); }

Test(writer, roundtrip_random_many_seeds) {
    for (int seed = 1; seed <= 6; seed++) {
        g_rng = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
        hudi_field s;
        nested_schema(&s);
        hudi_batch *b = gen_batch(&s, 50 + (int64_t)(rnd() % 400), (int)(rnd() % 60));
        hudi_fs *fs = mem_fs();
        hudi_error err = HUDI_ERROR_INIT;
        hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
        o.page_rows = 1 + (int64_t)(rnd() % 50);
        o.page_bytes = 64 + (int64_t)(rnd() % 4096);
        o.dictionary_page_bytes = 16 + (int64_t)(rnd() % 512);
        o.row_group_rows = 1 + (int64_t)(rnd() % 300);
        o.data_page_v2 = seed & 1;
        cr_assert_eq(write_file(fs, "x.parquet", b, &o, 1 + (int64_t)(rnd() % 100), &err), 0, "%s",
                     err.message);
        check_roundtrip(fs, "x.parquet", b);
        hudi_batch_free(b);
        hudi_fs_free(fs);
        hudi_field_dispose(&s);
    }
}

Test(writer, empty_file_and_zero_row_batch) {
    hudi_field s;
    nested_schema(&s);
    hudi_batch *b = gen_batch(&s, 0, 0);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(write_file(fs, "e.parquet", b, NULL, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "e.parquet", &m, &arena, &bytes);
    cr_assert_eq(m.n_row_groups, 0);
    cr_assert_eq(m.num_rows, 0);
    check_roundtrip(fs, "e.parquet", b);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* A GZIP file whose first data page header declares one byte more, then one byte less, than
 * the page inflates to (a bit flip in a header the CRC does not cover): the scan fails with
 * ECORRUPT and a one-line message naming the codec, no crash, no overrun. */
Test(writer, gzip_page_with_wrong_uncompressed_size) {
    hudi_field s;
    fld(&s, "root", HUDI_TYPE_STRUCT, false);
    children(&s, 1);
    fld(&s.children[0], "n", HUDI_TYPE_INT64, false);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    for (int64_t i = 0; i < 5000; i++) {
        int64_t v = i * 7919;
        cr_assert_eq(hudi_array_append_fixed(b->columns[0], &v, NULL), 0);
    }
    b->num_rows = 5000;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = PQ_CODEC_GZIP;
    o.dictionary = false;
    cr_assert_eq(write_file(fs, "g.parquet", b, &o, 0, &err), 0, "%s", err.message);
    check_roundtrip(fs, "g.parquet", b);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "g.parquet", &m, &arena, &bytes);
    pq_column_meta *cm = &m.row_groups[0].columns[0].meta_data;
    cr_assert_eq(cm->codec, PQ_CODEC_GZIP);
    size_t at = (size_t)cm->data_page_offset, used;
    pq_page_header h;
    cr_assert_eq(hudi_pq_decode_page_header(&h, &arena, HUDI_SLICE(bytes.data + at, bytes.len - at),
                                            &used, &err),
                 0, "%s", err.message);
    cr_assert_eq(h.type, PQ_PAGE_DATA);
    const int deltas[] = {1, -1};
    for (size_t d = 0; d < HUDI_ARRAY_LEN(deltas); d++) {
        pq_page_header wrong = h;
        wrong.uncompressed_page_size += deltas[d];
        hudi_buf hb = HUDI_BUF_INIT;
        cr_assert_eq(hudi_pq_encode_page_header(&hb, &wrong, &err), 0, "%s", err.message);
        cr_assert_eq(hb.len, used, "re-encoded header changed length"); /* same varint width */
        hudi_buf file = HUDI_BUF_INIT;
        hudi_buf_append(&file, bytes.data, bytes.len);
        memcpy(file.data + at, hb.data, hb.len);
        cr_assert_eq(
            hudi_fs_write_all(fs, "bad.parquet", HUDI_CREATE_OVERWRITE, file.data, file.len, &err),
            0, "%s", err.message);
        hudi_pq_file *f = NULL;
        hudi_pq_scan *sc = NULL;
        hudi_pq_open_options oo = HUDI_PQ_OPEN_OPTIONS_INIT;
        cr_assert_eq(hudi_pq_open(&f, fs, "bad.parquet", &oo, &err), 0, "%s", err.message);
        hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
        cr_assert_eq(hudi_pq_scan_open(&sc, f, &so, &err), 0, "%s", err.message);
        int rc = 0;
        for (;;) {
            hudi_batch *got = NULL;
            if ((rc = hudi_pq_scan_next(sc, &got, &err)) < 0 || !got) break;
        }
        cr_assert_eq(rc, HUDI_ECORRUPT, "delta %d: rc %d", deltas[d], rc);
        cr_assert_not_null(strstr(err.message, "GZIP"), "%s", err.message);
        cr_assert_null(strchr(err.message, '\n'));
        hudi_pq_scan_free(sc);
        hudi_pq_close(f);
        hudi_buf_dispose(&file);
        hudi_buf_dispose(&hb);
    }
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- pages
 * ---------------------------------------------------------------------------------------- */

/* Every data page of every chunk starts a record: decode the v1 rep levels of each page. */
Test(writer, pages_never_split_records) {
    hudi_field s;
    nested_schema(&s);
    hudi_batch *b = gen_batch(&s, 3000, 10);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = PQ_CODEC_UNCOMPRESSED;
    o.page_bytes = 200; /* tiny pages: many cuts */
    cr_assert_eq(write_file(fs, "p.parquet", b, &o, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "p.parquet", &m, &arena, &bytes);
    int64_t checked = 0;
    pq_schema ps;
    cr_assert_eq(hudi_pq_schema_read(&ps, m.schema, m.n_schema, NULL, &err), 0, "%s", err.message);
    for (int c = 0; c < m.row_groups[0].n_columns; c++) {
        int rep_bits = pq_bit_width((uint64_t)ps.leaves[c].max_rep);
        pq_column_meta *cm = &m.row_groups[0].columns[c].meta_data;
        int64_t pos =
            cm->has_dictionary_page_offset ? cm->dictionary_page_offset : cm->data_page_offset;
        int64_t end = pos + cm->total_compressed_size, entries = 0;
        int32_t pages = 0;
        while (pos < end) {
            pq_page_header h;
            size_t used;
            cr_assert_eq(
                hudi_pq_decode_page_header(
                    &h, &arena, HUDI_SLICE(bytes.data + pos, (size_t)(end - pos)), &used, &err),
                0, "%s", err.message);
            const uint8_t *p = (const uint8_t *)bytes.data + pos + used;
            cr_assert_eq(hudi_crc32(0, p, (size_t)h.compressed_page_size), (uint32_t)h.crc);
            if (h.type == PQ_PAGE_DATA) {
                pages++;
                entries += h.data_page_header.num_values;
                cr_assert_leq(h.uncompressed_page_size, 200 + 1024, "page of %d bytes, col %d",
                              h.uncompressed_page_size, c);
                const uint8_t *runs;
                size_t runs_len, consumed;
                if (rep_bits > 0) {
                    cr_assert_eq(hudi_pq_rle_parse_prefix(p, (size_t)h.compressed_page_size, &runs,
                                                          &runs_len, &consumed, &err),
                                 0);
                    pq_rle_decoder d;
                    int16_t first = -1;
                    cr_assert_eq(hudi_pq_rle_init(&d, runs, runs_len, rep_bits, &err), 0);
                    cr_assert_eq(hudi_pq_rle_next_i16(&d, &first, 1, &err), 0, "%s", err.message);
                    cr_assert_eq(first, 0, "page starts inside a record");
                    checked++;
                }
            }
            pos += (int64_t)used + h.compressed_page_size;
        }
        cr_assert_eq(entries, cm->num_values);
        cr_assert_gt(pages, 1);
    }
    cr_assert_gt(checked, 10);
    hudi_pq_schema_dispose(&ps);
    check_roundtrip(fs, "p.parquet", b);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- dictionary
 * ----------------------------------------------------------------------------------- */

static hudi_batch *string_batch(hudi_field *s, int64_t rows, int64_t low_card_rows) {
    fld(s, "root", HUDI_TYPE_STRUCT, false);
    children(s, 1);
    fld(&s->children[0], "k", HUDI_TYPE_STRING, false);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, s, NULL), 0);
    char buf[64];
    for (int64_t i = 0; i < rows; i++) {
        int n = i < low_card_rows
                    ? snprintf(buf, sizeof(buf), "v%03d", (int)(i % 7))
                    : snprintf(buf, sizeof(buf), "distinct-value-%08lld", (long long)i);
        cr_assert_eq(hudi_array_append_bytes(b->columns[0], buf, (size_t)n, NULL), 0);
    }
    b->num_rows = rows;
    return b;
}

static pq_column_meta *only_chunk(pq_file_meta *m) {
    cr_assert_eq(m->n_row_groups, 1);
    return &m->row_groups[0].columns[0].meta_data;
}

static int32_t enc_count(const pq_column_meta *cm, int32_t page_type, int32_t enc) {
    for (int i = 0; i < cm->n_encoding_stats; i++)
        if (cm->encoding_stats[i].page_type == page_type && cm->encoding_stats[i].encoding == enc)
            return cm->encoding_stats[i].count;
    return 0;
}

Test(writer, dictionary_fallback_in_encoding_stats) {
    hudi_field s;
    hudi_batch *b = string_batch(&s, 20000, 5000);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 1000;
    o.dictionary_page_bytes = 4096;
    cr_assert_eq(write_file(fs, "d.parquet", b, &o, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "d.parquet", &m, &arena, &bytes);
    pq_column_meta *cm = only_chunk(&m);
    cr_assert(cm->has_dictionary_page_offset);
    cr_assert_eq(cm->dictionary_page_offset, 4);
    cr_assert_gt(cm->data_page_offset, cm->dictionary_page_offset);
    cr_assert_eq(enc_count(cm, PQ_PAGE_DICTIONARY, PQ_ENC_PLAIN), 1);
    int32_t dict_pages = enc_count(cm, PQ_PAGE_DATA, PQ_ENC_RLE_DICTIONARY);
    int32_t plain_pages = enc_count(cm, PQ_PAGE_DATA, PQ_ENC_PLAIN);
    cr_assert_geq(dict_pages, 5, "the low-cardinality prefix is dictionary-encoded");
    cr_assert_gt(plain_pages, 5, "the rest fell back to PLAIN");
    bool has_plain = false, has_dict = false;
    for (int i = 0; i < cm->n_encodings; i++) {
        has_plain |= cm->encodings[i] == PQ_ENC_PLAIN;
        has_dict |= cm->encodings[i] == PQ_ENC_RLE_DICTIONARY;
    }
    cr_assert(has_plain && has_dict);
    check_roundtrip(fs, "d.parquet", b);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(writer, dictionary_abandoned_when_it_does_not_pay) {
    hudi_field s;
    hudi_batch *b = string_batch(&s, 5000, 0);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(write_file(fs, "a.parquet", b, NULL, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "a.parquet", &m, &arena, &bytes);
    pq_column_meta *cm = only_chunk(&m);
    cr_assert_not(cm->has_dictionary_page_offset);
    cr_assert_eq(enc_count(cm, PQ_PAGE_DICTIONARY, PQ_ENC_PLAIN), 0);
    cr_assert_eq(enc_count(cm, PQ_PAGE_DATA, PQ_ENC_RLE_DICTIONARY), 0);
    cr_assert_gt(enc_count(cm, PQ_PAGE_DATA, PQ_ENC_PLAIN), 0);
    cr_assert_eq(cm->data_page_offset, 4);
    /* a low-cardinality column keeps its dictionary for the whole chunk */
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
    b = string_batch(&s, 5000, 5000);
    cr_assert_eq(write_file(fs, "a.parquet", b, NULL, 0, &err), 0, "%s", err.message);
    arena = (hudi_arena)HUDI_ARENA_INIT;
    bytes = (hudi_buf)HUDI_BUF_INIT;
    read_footer(fs, "a.parquet", &m, &arena, &bytes);
    cm = only_chunk(&m);
    cr_assert(cm->has_dictionary_page_offset);
    cr_assert_eq(enc_count(cm, PQ_PAGE_DATA, PQ_ENC_PLAIN), 0);
    cr_assert_gt(enc_count(cm, PQ_PAGE_DATA, PQ_ENC_RLE_DICTIONARY), 0);
    cr_assert(cm->has_statistics);
    cr_assert(hudi_slice_eq(cm->statistics.min_value, hudi_slice_cstr("v000")));
    cr_assert(hudi_slice_eq(cm->statistics.max_value, hudi_slice_cstr("v006")));
    check_roundtrip(fs, "a.parquet", b);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- statistics
 * ----------------------------------------------------------------------------------- */

Test(writer, statistics_values) {
    hudi_field s;
    fld(&s, "root", HUDI_TYPE_STRUCT, false);
    children(&s, 4);
    fld(&s.children[0], "i", HUDI_TYPE_INT32, true);
    fld(&s.children[1], "d", HUDI_TYPE_DOUBLE, true);
    fld(&s.children[2], "nan", HUDI_TYPE_DOUBLE, true);
    fld(&s.children[3], "u", HUDI_TYPE_UINT32, false);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    for (int r = 0; r < 100; r++) {
        int32_t iv = r * 3 - 50;
        if (r % 10 == 0)
            cr_assert_eq(hudi_array_append_null(b->columns[0], NULL), 0);
        else
            cr_assert_eq(hudi_array_append_fixed(b->columns[0], &iv, NULL), 0);
        double dv = r == 6 ? -0.0 : (double)r;
        cr_assert_eq(hudi_array_append_fixed(b->columns[1], &dv, NULL), 0);
        double nv = r % 2 ? NAN : (double)r;
        cr_assert_eq(hudi_array_append_fixed(b->columns[2], &nv, NULL), 0);
        uint32_t uv = r == 0 ? 0xfffffff0u : (uint32_t)r;
        cr_assert_eq(hudi_array_append_fixed(b->columns[3], &uv, NULL), 0);
    }
    b->num_rows = 100;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 50;
    cr_assert_eq(write_file(fs, "s.parquet", b, &o, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "s.parquet", &m, &arena, &bytes);
    pq_column_chunk *cc = m.row_groups[0].columns;

    pq_statistics *st = &cc[0].meta_data.statistics;
    cr_assert_eq(st->null_count, 10);
    cr_assert_eq((int32_t)hudi_load_u32le(st->min_value.data), 1 * 3 - 50);
    cr_assert_eq((int32_t)hudi_load_u32le(st->max_value.data), 99 * 3 - 50);
    cr_assert(st->has_min && st->has_max, "signed order: deprecated pair too");
    cr_assert(cc[0].has_column_index);

    st = &cc[1].meta_data.statistics;
    cr_assert(st->has_min_value, "nan %d %lld", st->has_nan_count, (long long)st->nan_count);
    double mn, mx;
    memcpy(&mn, st->min_value.data, 8);
    memcpy(&mx, st->max_value.data, 8);
    cr_assert(mn == 0.0 && signbit(mn), "a zero min is written as -0.0");
    cr_assert_eq(mx, 99.0);
    cr_assert(st->has_nan_count && st->nan_count == 0);
    cr_assert(cc[1].has_column_index);

    /* stats.c follows parquet-mr: any NaN drops the bounds (Spark orders NaN above all) */
    st = &cc[2].meta_data.statistics;
    cr_assert_not(st->has_min_value || st->has_max_value, "NaN: no bounds");
    cr_assert(st->has_nan_count && st->nan_count == 50);
    cr_assert_not(cc[2].has_column_index, "pages without bounds: no ColumnIndex");
    cr_assert(cc[2].has_offset_index);

    st = &cc[3].meta_data.statistics;
    cr_assert_eq(hudi_load_u32le(st->min_value.data), 1u, "unsigned order");
    cr_assert_eq(hudi_load_u32le(st->max_value.data), 0xfffffff0u);
    cr_assert_not(st->has_min || st->has_max, "no deprecated pair for unsigned order");

    /* the int column's ColumnIndex: 2 pages, ascending */
    pq_column_index ci;
    cr_assert_eq(hudi_pq_decode_column_index(&ci, &arena,
                                             HUDI_SLICE(bytes.data + cc[0].column_index_offset,
                                                        (size_t)cc[0].column_index_length),
                                             &err),
                 0);
    cr_assert_eq(ci.n_pages, 2);
    cr_assert_eq(ci.boundary_order, PQ_BOUNDARY_ASCENDING);
    cr_assert_eq(ci.null_counts[0], 5);
    cr_assert_eq((int32_t)hudi_load_u32le(ci.min_values[1].data), 51 * 3 - 50);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(writer, page_index_truncates_long_strings) {
    hudi_field s;
    fld(&s, "root", HUDI_TYPE_STRUCT, false);
    children(&s, 1);
    fld(&s.children[0], "s", HUDI_TYPE_STRING, false);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    char buf[200];
    for (int r = 0; r < 10; r++) {
        memset(buf, 'a' + r, sizeof(buf));
        cr_assert_eq(hudi_array_append_bytes(b->columns[0], buf, sizeof(buf), NULL), 0);
    }
    char big[5000];
    memset(big, 'z', sizeof(big));
    cr_assert_eq(hudi_array_append_bytes(b->columns[0], big, sizeof(big), NULL), 0);
    b->num_rows = 11;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 5;
    cr_assert_eq(write_file(fs, "t.parquet", b, &o, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "t.parquet", &m, &arena, &bytes);
    pq_column_chunk *cc = m.row_groups[0].columns;
    cr_assert_not(cc->meta_data.statistics.has_max_value, "a 5000-byte bound is omitted");
    cr_assert(cc->meta_data.statistics.has_null_count);
    pq_column_index ci;
    cr_assert(cc->has_column_index);
    cr_assert_eq(hudi_pq_decode_column_index(&ci, &arena,
                                             HUDI_SLICE(bytes.data + cc->column_index_offset,
                                                        (size_t)cc->column_index_length),
                                             &err),
                 0);
    cr_assert_eq(ci.n_pages, 3);
    cr_assert_eq(ci.min_values[0].len, 64);
    cr_assert_eq(ci.min_values[0].data[0], 'a');
    cr_assert_eq(ci.max_values[0].len, 64);
    cr_assert_eq(ci.max_values[0].data[63], 'e' + 1, "truncated max is incremented");
    cr_assert_eq(ci.boundary_order, PQ_BOUNDARY_ASCENDING);
    check_roundtrip(fs, "t.parquet", b);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- bloom filters
 * --------------------------------------------------------------------------------- */

Test(writer, bloom_filter_for_named_column) {
    hudi_field s;
    hudi_batch *b = string_batch(&s, 3000, 0);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    const char *cols[] = {"k"};
    o.bloom_filter_columns = cols;
    o.n_bloom_filter_columns = 1;
    cr_assert_eq(write_file(fs, "b.parquet", b, &o, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "b.parquet", &m, &arena, &bytes);
    pq_column_chunk *cc = m.row_groups[0].columns;
    pq_column_meta *cm = &cc->meta_data;
    cr_assert(cm->has_bloom_filter_offset && cm->has_bloom_filter_length);
    cr_assert_gt(cm->bloom_filter_offset, cc->offset_index_offset, "after the page indexes");
    pq_bloom bf;
    size_t used;
    cr_assert_eq(hudi_pq_bloom_parse(&bf,
                                     HUDI_SLICE(bytes.data + cm->bloom_filter_offset,
                                                (size_t)cm->bloom_filter_length),
                                     &used, &err),
                 0, "%s", err.message);
    cr_assert_eq(used, (size_t)cm->bloom_filter_length);
    cr_assert_geq(bf.num_bytes, 3000 * 9 / 8 / 2);
    char buf[64];
    for (int i = 0; i < 3000; i += 7) {
        int n = snprintf(buf, sizeof(buf), "distinct-value-%08d", i);
        cr_assert(hudi_pq_bloom_check(&bf, pq_bloom_hash(buf, (size_t)n)));
    }
    int fp = 0;
    for (int i = 0; i < 1000; i++) {
        int n = snprintf(buf, sizeof(buf), "absent-%d", i);
        fp += hudi_pq_bloom_check(&bf, pq_bloom_hash(buf, (size_t)n));
    }
    cr_assert_lt(fp, 50);
    hudi_pq_bloom_dispose(&bf);
    /* an unknown column is refused */
    const char *bad[] = {"nope"};
    o.bloom_filter_columns = bad;
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "c.parquet", &s, &o, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "nope"));
    cr_assert_null(w);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- errors
 * ----------------------------------------------------------------------------------------- */

Test(writer, schema_mismatch_names_column) {
    hudi_field s, t;
    nested_schema(&s);
    nested_schema(&t);
    t.children[2].children[0].type = HUDI_TYPE_BINARY;
    hudi_batch *b = gen_batch(&t, 10, 0);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "m.parquet", &s, NULL, &err), 0);
    cr_assert_eq(hudi_pq_writer_write(w, b, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "st.x"), "%s", err.message);
    hudi_pq_writer_abort(w);
    cr_assert_not(hudi_fs_exists(fs, "m.parquet"));
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
    hudi_field_dispose(&t);
}

Test(writer, storage_failure_at_every_call_publishes_nothing) {
    hudi_field s;
    nested_schema(&s);
    hudi_batch *b = gen_batch(&s, 1500, 10);
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.row_group_rows = 500;
    o.codec = PQ_CODEC_UNCOMPRESSED;
    bool succeeded = false;
    for (int64_t k = 1; k < 500 && !succeeded; k++) {
        hudi_fs *inner = mem_fs(), *fs = NULL;
        hudi_fault_plan plan = {k, -1, true};
        cr_assert_eq(hudi_fs_faulty_new(&fs, inner, plan, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = write_file(fs, "f.parquet", b, &o, 400, &err);
        if (rc == 0) {
            succeeded = true;
            cr_assert_not(hudi_fs_faulty_tripped(fs));
            check_roundtrip(inner, "f.parquet", b);
        } else {
            cr_assert(hudi_fs_faulty_tripped(fs), "failed without a fault: %s", err.message);
            cr_assert_not(hudi_fs_exists(inner, "f.parquet"), "call %lld published a file",
                          (long long)k);
            cr_assert(err.message[0]);
        }
        hudi_fs_free(fs);
        hudi_fs_free(inner);
    }
    cr_assert(succeeded);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(writer, byte_budget_failure_publishes_nothing) {
    hudi_field s;
    all_types_schema(&s);
    hudi_batch *b = gen_batch(&s, 2000, 10);
    for (int64_t bytes = 0; bytes < 200000; bytes = bytes * 2 + 1000) {
        hudi_fs *inner = mem_fs(), *fs = NULL;
        hudi_fault_plan plan = {0, bytes, false};
        cr_assert_eq(hudi_fs_faulty_new(&fs, inner, plan, NULL), 0);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = write_file(fs, "f.parquet", b, NULL, 0, &err);
        if (rc < 0) cr_assert_not(hudi_fs_exists(inner, "f.parquet"));
        hudi_fs_free(fs);
        hudi_fs_free(inner);
    }
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(writer, abort_and_null_safety) {
    hudi_pq_writer_abort(NULL);
    hudi_field s;
    nested_schema(&s);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_writer *w = NULL;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "a.parquet", &s, NULL, &err), 0);
    hudi_batch *b = gen_batch(&s, 100, 10);
    cr_assert_eq(hudi_pq_writer_write(w, b, &err), 0);
    hudi_pq_writer_abort(w);
    cr_assert_not(hudi_fs_exists(fs, "a.parquet"));
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = PQ_CODEC_LZO;
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "a.parquet", &s, &o, &err), HUDI_EUNSUPPORTED);
    cr_assert_null(w);
    /* a required top-level column holding a null */
    hudi_array_free(b->columns[0]);
    cr_assert_eq(hudi_array_new(&b->columns[0], &s.children[0], NULL), 0);
    for (int i = 0; i < 100; i++) {
        int64_t v = i;
        if (i == 50)
            cr_assert_eq(hudi_array_append_null(b->columns[0], NULL), 0);
        else
            cr_assert_eq(hudi_array_append_fixed(b->columns[0], &v, NULL), 0);
    }
    cr_assert_eq(hudi_pq_writer_open(&w, fs, "a.parquet", &s, NULL, &err), 0);
    cr_assert_eq(hudi_pq_writer_write(w, b, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "id"), "%s", err.message);
    int64_t size = -1;
    cr_assert_eq(hudi_pq_writer_close(w, &size, &err), 0, "nothing was written yet: %s",
                 err.message);
    cr_assert_gt(size, 12);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- independent readers
 * ---------------------------------------------------------------------------- */

static bool python_has(const char *mods) {
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "python3 -c 'import %s' >/dev/null 2>&1", mods);
    return system(cmd) == 0;
}

/* Writes a deterministic file to the local disk and checks aggregates with pyarrow and
 * DuckDB (each codec and page version). */
Test(writer, read_by_pyarrow_and_duckdb) {
    if (!python_has("pyarrow, duckdb")) {
        cr_log_warn("python3 with pyarrow and duckdb not available: skipping");
        return;
    }
    hudi_field s;
    fld(&s, "root", HUDI_TYPE_STRUCT, false);
    children(&s, 7);
    hudi_field *c = s.children;
    fld(&c[0], "key", HUDI_TYPE_STRING, false);
    fld(&c[1], "x", HUDI_TYPE_DOUBLE, true);
    fld(&c[2], "n", HUDI_TYPE_INT64, false);
    fld(&c[3], "dec", HUDI_TYPE_DECIMAL, true);
    c[3].precision = 20, c[3].scale = 2;
    fld(&c[4], "ts", HUDI_TYPE_TIMESTAMP, true);
    c[4].unit = HUDI_UNIT_MICROS, c[4].utc = true;
    fld(&c[5], "tags", HUDI_TYPE_LIST, true);
    children(&c[5], 1);
    fld(&c[5].children[0], "element", HUDI_TYPE_STRING, true);
    fld(&c[6], "flag", HUDI_TYPE_BOOL, true);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    const int64_t rows = 30000;
    for (int64_t i = 0; i < rows; i++) {
        char buf[32];
        int n = snprintf(buf, sizeof(buf), "key-%06lld", (long long)i);
        cr_assert_eq(hudi_array_append_bytes(b->columns[0], buf, (size_t)n, NULL), 0);
        double x = (double)(i % 100) * 0.5;
        if (i % 7 == 0)
            cr_assert_eq(hudi_array_append_null(b->columns[1], NULL), 0);
        else
            cr_assert_eq(hudi_array_append_fixed(b->columns[1], &x, NULL), 0);
        int64_t nv = i * 3;
        cr_assert_eq(hudi_array_append_fixed(b->columns[2], &nv, NULL), 0);
        __int128 d = (__int128)(i - 15000) * 101;
        cr_assert_eq(hudi_array_append_fixed(b->columns[3], &d, NULL), 0);
        int64_t ts = 1700000000000000LL + i * 1000000LL;
        cr_assert_eq(hudi_array_append_fixed(b->columns[4], &ts, NULL), 0);
        if (i % 5 == 0) {
            cr_assert_eq(hudi_array_append_null(b->columns[5], NULL), 0);
        } else {
            int k = (int)(i % 3);
            for (int j = 0; j < k; j++)
                cr_assert_eq(hudi_array_append_bytes(b->columns[5]->children[0], "t", 1, NULL), 0);
            cr_assert_eq(hudi_array_append_nested(b->columns[5], k, NULL), 0);
        }
        cr_assert_eq(hudi_array_append_bool(b->columns[6], i % 3 == 0, NULL), 0);
    }
    b->num_rows = rows;
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    const char *dir = test_tmpdir();
    cr_assert_not_null(dir);
    const int codecs[] = {PQ_CODEC_SNAPPY, PQ_CODEC_GZIP, PQ_CODEC_ZSTD, PQ_CODEC_UNCOMPRESSED,
                          PQ_CODEC_LZ4_RAW};
    char paths[5][4200];
    for (int ci = 0; ci < 5; ci++) {
        snprintf(paths[ci], sizeof(paths[ci]), "%s/py%d.parquet", dir, ci);
        hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
        o.codec = codecs[ci];
        o.data_page_v2 = ci & 1;
        o.row_group_rows = 12000;
        o.page_rows = 2500;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(write_file(fs, paths[ci], b, &o, 10000, &err), 0, "%s", err.message);
    }
    /* one interpreter for all files: importing pyarrow and duckdb dominates the time */
    char cmd[8192];
    snprintf(
        cmd, sizeof(cmd),
        "python3 - '%s/py' <<'EOF'\n"
        "import sys, decimal, pyarrow.parquet as pq, duckdb\n"
        "for i in range(5):\n"
        "  p = sys.argv[1] + str(i) + '.parquet'\n"
        "  t = pq.read_table(p)\n"
        "  assert t.num_rows == 30000, t.num_rows\n"
        "  assert t.column('key')[12345].as_py() == 'key-012345'\n"
        "  assert t.column('x').null_count == 30000 // 7 + 1\n"
        "  assert sum(t.column('n').to_pylist()) == 3 * 29999 * 30000 // 2\n"
        "  assert t.column('dec')[0].as_py() == decimal.Decimal('-15150.00')\n"
        "  assert t.column('tags').null_count == 6000\n"
        "  md = pq.ParquetFile(p).metadata\n"
        "  assert md.num_row_groups == 3 and md.created_by.startswith('hudic version')\n"
        "  r = duckdb.sql(f\"select count(*), count(x), sum(n), sum(len(tags)), "
        "sum(flag::int), min(key), max(key), sum(dec), min(ts) from '{p}'\").fetchall()[0]\n"
        "  assert r[0] == 30000 and r[1] == 30000 - (30000 // 7 + 1), r\n"
        "  assert r[2] == 3 * 29999 * 30000 // 2, r\n"
        "  assert r[3] == sum((i %% 3) for i in range(30000) if i %% 5), r\n"
        "  assert r[4] == 10000 and r[5] == 'key-000000' and r[6] == 'key-029999', r\n"
        "  assert r[7] == decimal.Decimal(sum((i - 15000) * 101 for i in range(30000))) / 100, r\n"
        "  f = duckdb.sql(f\"select count(*) from '{p}' where key = 'key-020000'\").fetchall()[0]\n"
        "  assert f[0] == 1, f\n"
        "EOF",
        dir);
    cr_assert_eq(system(cmd), 0, "pyarrow/duckdb rejected one of %s/py*.parquet", dir);
    for (int ci = 0; ci < 5; ci++) remove(paths[ci]);

    /* nested data (lists of structs of maps of lists), v1 and v2 + legacy 2-level lists */
    hudi_field ns;
    nested_schema(&ns);
    hudi_batch *nb = gen_batch(&ns, 2000, 20);
    for (int v = 0; v < 2; v++) {
        hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
        o.data_page_v2 = v;
        o.legacy_list_format = v;
        o.page_rows = 300;
        snprintf(paths[v], sizeof(paths[v]), "%s/nested%d.parquet", dir, v);
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(write_file(fs, paths[v], nb, &o, 0, &err), 0, "%s", err.message);
    }
    snprintf(cmd, sizeof(cmd),
             "python3 - '%s/nested' %lld %lld <<'EOF'\n"
             "import sys, pyarrow.parquet as pq, duckdb\n"
             "for i in range(2):\n"
             "  p = sys.argv[1] + str(i) + '.parquet'\n"
             "  t = pq.read_table(p)\n"
             "  assert t.num_rows == 2000, t.num_rows\n"
             "  assert t.column('l').null_count == int(sys.argv[2]), t.column('l').null_count\n"
             "  assert t.column('st').null_count == int(sys.argv[3])\n"
             "  assert t.column('id').to_pylist()[:3] == [r[0] for r in duckdb.sql(f\"select id "
             "from '{p}' limit 3\").fetchall()]\n"
             "  r = duckdb.sql(f\"select count(*), count(l), sum(len(flags)) from "
             "'{p}'\").fetchall()[0]\n"
             "  assert r[0] == 2000 and r[1] == 2000 - int(sys.argv[2]), r\n"
             "  assert r[2] == sum(len(x) for x in t.column('flags').to_pylist()), r\n"
             "EOF",
             dir, (long long)nb->columns[1]->null_count, (long long)nb->columns[2]->null_count);
    cr_assert_eq(system(cmd), 0, "pyarrow/duckdb rejected %s/nested*.parquet", dir);
    for (int v = 0; v < 2; v++) remove(paths[v]);
    hudi_batch_free(nb);
    hudi_field_dispose(&ns);
    remove(dir);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

Test(writer, null_typed_and_interval_columns) {
    hudi_field s;
    fld(&s, "root", HUDI_TYPE_STRUCT, false);
    children(&s, 2);
    fld(&s.children[0], "nothing", HUDI_TYPE_NULL, true);
    fld(&s.children[1], "iv", HUDI_TYPE_FIXED_BINARY, true);
    s.children[1].byte_width = 12;
    s.children[1].hint = HUDI_HINT_INTERVAL;
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(hudi_array_append_nulls(b->columns[0], 300, NULL), 0);
    for (int i = 0; i < 300; i++) {
        uint8_t v[12] = {(uint8_t)i, 0, 0, 0, 1, 0, 0, 0, (uint8_t)(i * 7), 0, 0, 0};
        if (i % 4 == 0)
            cr_assert_eq(hudi_array_append_null(b->columns[1], NULL), 0);
        else
            cr_assert_eq(hudi_array_append_bytes(b->columns[1], v, 12, NULL), 0);
    }
    b->num_rows = 300;
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 100;
    cr_assert_eq(write_file(fs, "z.parquet", b, &o, 0, &err), 0, "%s", err.message);
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "z.parquet", &m, &arena, &bytes);
    pq_column_chunk *cc = m.row_groups[0].columns;
    cr_assert_eq(cc[0].meta_data.statistics.null_count, 300);
    cr_assert_not(cc[1].meta_data.statistics.has_min_value, "INTERVAL has no order");
    cr_assert_not(cc[1].has_column_index);
    cr_assert(cc[1].has_offset_index);
    check_roundtrip(fs, "z.parquet", b);
    hudi_buf_dispose(&bytes);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* ---- allocation failures -----------------------------------------------------------------------
 */

static long g_alloc_count, g_alloc_fail_at = -1;
static void *fail_malloc(size_t n, void *p) {
    (void)p;
    return g_alloc_count++ == g_alloc_fail_at ? NULL : malloc(n);
}
static void *fail_realloc(void *q, size_t n, void *p) {
    (void)p;
    return g_alloc_count++ == g_alloc_fail_at ? NULL : realloc(q, n);
}
static void fail_free(void *q, void *p) {
    (void)p;
    free(q);
}

/* Failing any single allocation gives a clean error, no leak (ASan), and no file. */
Test(writer, allocation_failure_at_every_step) {
    hudi_field s;
    nested_schema(&s);
    hudi_batch *b = gen_batch(&s, 300, 15);
    hudi_fs *fs = mem_fs();
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 50;
    o.row_group_rows = 150;
    const char *bloom[] = {"id"};
    o.bloom_filter_columns = bloom;
    o.n_bloom_filter_columns = 1;
    static const hudi_allocator a = {fail_malloc, fail_realloc, fail_free, NULL};
    bool ok = false;
    for (long k = 0; k < 5000 && !ok; k += 1 + k / 64) {
        g_alloc_count = 0;
        g_alloc_fail_at = k;
        hudi_set_allocator(&a);
        hudi_error err = HUDI_ERROR_INIT;
        int rc = write_file(fs, "o.parquet", b, &o, 0, &err);
        hudi_set_allocator(NULL);
        if (rc == 0) {
            ok = g_alloc_count <= k;
            if (!ok) hudi_fs_remove(fs, "o.parquet", NULL); /* the failed allocation was not ours */
        } else {
            cr_assert(err.message[0], "allocation %ld failed without a message", k);
            cr_assert_not(hudi_fs_exists(fs, "o.parquet"), "allocation %ld: file published", k);
        }
    }
    cr_assert(ok);
    cr_assert_gt(g_alloc_count, 100, "the write made %ld allocations", g_alloc_count);
    check_roundtrip(fs, "o.parquet", b);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}

/* Column chunks are kept in 1 MiB blocks that pages run on through (writer_int.h,
 * PQ_CHUNK_BLOCK): pages of several MiB span blocks, several row groups give their blocks back to
 * a shared pool mid-file, and a second file reuses them; both files read back whole. */
Test(writer, pages_span_chunk_blocks_shared_pool) {
    hudi_field s;
    all_types_schema(&s);
    hudi_batch *b = gen_batch(&s, 200000, 10);
    hudi_fs *fs = mem_fs();
    hudi_error err = HUDI_ERROR_INIT;
    hudi_pq_block_pool *pool = NULL;
    cr_assert_eq(hudi_pq_block_pool_new(&pool, &err), 0);
    for (int f = 0; f < 2; f++) {
        hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
        o.codec = f == 0 ? PQ_CODEC_UNCOMPRESSED : PQ_CODEC_SNAPPY;
        o.page_rows = 1 << 20;
        o.page_bytes = 3 << 20; /* pages larger than a block */
        o.row_group_bytes = f == 0 ? 128ll << 20 : 2 << 20;
        const char *path = f == 0 ? "one.parquet" : "many.parquet";
        hudi_pq_writer *w = NULL;
        cr_assert_eq(hudi_pq_writer_open(&w, fs, path, b->schema, &o, &err), 0, "%s", err.message);
        hudi_pq_writer_use_block_pool(w, pool);
        for (int64_t r = 0; r < b->num_rows; r += 25000) {
            hudi_batch *sl = slice_batch(b, r, HUDI_MIN(25000, b->num_rows - r));
            cr_assert_eq(hudi_pq_writer_write(w, sl, &err), 0, "%s", err.message);
            free_slice(sl);
        }
        cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);
        check_roundtrip(fs, path, b);
    }
    pq_file_meta m;
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_buf bytes = HUDI_BUF_INIT;
    read_footer(fs, "one.parquet", &m, &arena, &bytes);
    int64_t biggest = 0;
    for (int c = 0; c < m.row_groups[0].n_columns; c++)
        biggest = HUDI_MAX(biggest, m.row_groups[0].columns[c].meta_data.total_compressed_size);
    cr_assert_gt(biggest, 2 << 20, "a column chunk spans blocks: %lld", (long long)biggest);
    hudi_buf bytes2 = HUDI_BUF_INIT;
    read_footer(fs, "many.parquet", &m, &arena, &bytes2);
    cr_assert_gt(m.n_row_groups, 1);
    hudi_buf_dispose(&bytes);
    hudi_buf_dispose(&bytes2);
    hudi_arena_dispose(&arena);
    hudi_pq_block_pool_free(pool);
    hudi_batch_free(b);
    hudi_fs_free(fs);
    hudi_field_dispose(&s);
}
