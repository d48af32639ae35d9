/* parquet_api_test.c - the public Parquet API (include/hudi/hudi_parquet.h) and the JSON Lines
 * API (hudi_json.h): files written from Arrow batches with writer options and read back (values
 * compared), the footer accessors against what the options asked for, scans with projections,
 * text and structured predicates (rows and skipping checked), argument and filter errors, a
 * real fixture's footer, and JSON Lines rendering and parsing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>

#include "columnar/arrow_c.h"
#include "hudi/hudi_json.h"
#include "hudi/hudi_parquet.h"
#include "support.h"

/* struct<id: int64 not null, city: string, fare: double> with ids 0..n-1, city "c<i%4>" (null
 * every 10th row), fare i * 0.25. */
static void build(hudi_batch **out, hudi_field *s, int64_t n) {
    cr_assert_eq(hudi_field_init(s, "trips", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(s, 3), 0);
    cr_assert_eq(hudi_field_init(&s->children[0], "id", HUDI_TYPE_INT64, false), 0);
    cr_assert_eq(hudi_field_init(&s->children[1], "city", HUDI_TYPE_STRING, true), 0);
    cr_assert_eq(hudi_field_init(&s->children[2], "fare", HUDI_TYPE_DOUBLE, true), 0);
    cr_assert_eq(hudi_batch_new(out, s, NULL), 0);
    hudi_array **c = (*out)->columns;
    for (int64_t i = 0; i < n; i++) {
        char city[8];
        snprintf(city, sizeof(city), "c%d", (int)(i % 4));
        double fare = (double)i * 0.25;
        cr_assert_eq(hudi_array_append_fixed(c[0], &i, NULL), 0);
        if (i % 10 == 9)
            cr_assert_eq(hudi_array_append_null(c[1], NULL), 0);
        else
            cr_assert_eq(hudi_array_append_bytes(c[1], city, strlen(city), NULL), 0);
        cr_assert_eq(hudi_array_append_fixed(c[2], &fare, NULL), 0);
    }
    (*out)->num_rows = n;
}

/* Writes `n` rows (as one Arrow batch) to a fresh file; returns its path (static). */
static const char *write_rows(int64_t n, const hudi_parquet_write_options *wo, hudi_batch **kept,
                              hudi_field *kept_schema) {
    static char path[512];
    snprintf(path, sizeof(path), "%s/t.parquet", test_tmpdir());
    hudi_field s;
    hudi_batch *b = NULL, *copy = NULL;
    build(&b, &s, n);
    if (kept) {
        build(&copy, kept_schema, n);
        *kept = copy;
    }
    struct ArrowSchema as;
    struct ArrowArray aa;
    cr_assert_eq(hudi_arrow_export_schema(&as, &s, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&aa, b, NULL), 0);
    hudi_parquet_writer *w = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_parquet_writer_open(&w, path, &as, wo, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_parquet_writer_add_key_value(w, "k2", "v2", &err), 0);
    cr_assert_eq(hudi_parquet_writer_write(w, &as, &aa, &err), 0, "%s", err.message);
    int64_t size = 0;
    cr_assert_eq(hudi_parquet_writer_close(w, &size, &err), 0, "%s", err.message);
    cr_assert_gt(size, 0);
    aa.release(&aa);
    as.release(&as);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
    return path;
}

/* Every batch of a scan, imported and appended into one batch of `field`. */
static hudi_batch *drain(hudi_parquet_scan *s, hudi_field *field) {
    struct ArrowArrayStream st;
    struct ArrowSchema as;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_parquet_scan_to_arrow(s, &st, &err), 0, "%s", err.message);
    cr_assert_eq(st.get_schema(&st, &as), 0);
    cr_assert_eq(hudi_arrow_import_schema(field, &as, NULL), 0);
    hudi_batch *all = NULL;
    cr_assert_eq(hudi_batch_new(&all, field, NULL), 0);
    for (;;) {
        struct ArrowArray a;
        cr_assert_eq(st.get_next(&st, &a), 0, "%s", st.get_last_error(&st));
        if (!a.release) break;
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_arrow_import_batch(&b, &a, &as, field, NULL), 0);
        for (int32_t c = 0; c < b->n_columns; c++)
            cr_assert_eq(
                hudi_array_append_range(all->columns[c], b->columns[c], 0, b->num_rows, NULL), 0);
        all->num_rows += b->num_rows;
        hudi_batch_free(b);
        a.release(&a);
    }
    as.release(&as);
    st.release(&st);
    return all;
}

Test(parquet_api, roundtrip_with_writer_options_and_footer) {
    hudi_parquet_write_options wo = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    const char *bloom[] = {"city"};
    const char *kv[] = {"k1", "v1", NULL};
    wo.codec = HUDI_PARQUET_GZIP;
    wo.codec_level = 9;
    wo.dictionary = false;
    wo.data_page_v2 = true;
    wo.row_group_rows = 1000;
    wo.page_rows = 100;
    wo.bloom_filter_columns = bloom;
    wo.n_bloom_filter_columns = 1;
    wo.key_value_metadata = kv;
    hudi_batch *expected = NULL;
    hudi_field es;
    const char *path = write_rows(3000, &wo, &expected, &es);

    hudi_parquet_file *f = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_parquet_open(&f, path, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_parquet_num_rows(f), 3000);
    cr_assert_str_eq(hudi_parquet_path(f), path);
    cr_assert_eq(hudi_parquet_num_columns(f), 3);
    cr_assert_str_eq(hudi_parquet_column_name(f, 1), "city");
    cr_assert_null(hudi_parquet_column_name(f, 3));
    char type[64];
    cr_assert_eq(hudi_parquet_column_type_text(f, 0, type, sizeof(type)), 14);
    cr_assert_str_eq(type, "int64 not null");

    hudi_parquet_file_info fi;
    hudi_parquet_file_info_get(f, &fi);
    cr_assert_eq(fi.num_row_groups, 3);
    cr_assert_eq(fi.footer_num_rows, 3000);
    cr_assert(fi.has_created_by && fi.created_by.len > 5);
    cr_assert_eq(memcmp(fi.created_by.data, "hudic", 5), 0);
    hudi_parquet_bytes v;
    cr_assert(hudi_parquet_key_value_find(f, "k1", &v) && v.len == 2 && !memcmp(v.data, "v1", 2));
    cr_assert(hudi_parquet_key_value_find(f, "k2", &v) && v.len == 2 && !memcmp(v.data, "v2", 2));
    cr_assert_not(hudi_parquet_key_value_find(f, "nope", &v));

    cr_assert_eq(hudi_parquet_num_leaves(f), 3);
    hudi_parquet_schema_element e;
    cr_assert_eq(hudi_parquet_schema_element_get(f, hudi_parquet_leaf_element(f, 1), &e), 0);
    cr_assert(e.name.len == 4 && !memcmp(e.name.data, "city", 4));
    cr_assert_eq(e.physical_type, HUDI_PARQUET_BYTE_ARRAY);
    cr_assert_eq(e.repetition, HUDI_PARQUET_OPTIONAL);
    cr_assert(e.has_logical_type && e.logical_type.kind == HUDI_PARQUET_LT_STRING);
    cr_assert_eq(hudi_parquet_schema_element_get(f, 99, &e), HUDI_EINVAL);

    for (int32_t rg = 0; rg < 3; rg++) {
        hudi_parquet_row_group g;
        cr_assert_eq(hudi_parquet_row_group_get(f, rg, &g), 0);
        cr_assert_eq(g.num_rows, 1000);
        cr_assert_eq(g.num_columns, 3);
        for (int32_t c = 0; c < 3; c++) {
            hudi_parquet_column_chunk cc;
            cr_assert_eq(hudi_parquet_column_chunk_get(f, rg, c, &cc), 0);
            cr_assert_eq(cc.codec, HUDI_PARQUET_GZIP);
            cr_assert_eq(cc.num_values, 1000);
            for (int32_t i = 0; i < cc.num_encodings; i++)
                cr_assert_neq(cc.encodings[i], HUDI_PARQUET_ENCODING_RLE_DICTIONARY);
            cr_assert(cc.column_index_offset > 0 && cc.offset_index_offset > 0);
            cr_assert_eq(cc.bloom_filter_offset > 0, c == 1, "bloom filter only on city");
            cr_assert(cc.has_statistics);
            bool v2 = false;
            for (int32_t i = 0; i < cc.num_encoding_stats; i++) {
                hudi_parquet_encoding_stats es2;
                cr_assert_eq(hudi_parquet_encoding_stats_get(f, rg, c, i, &es2), 0);
                v2 |= es2.page_type == HUDI_PARQUET_PAGE_DATA_V2;
            }
            cr_assert(v2, "data page v2");
            if (c == 0) {
                char min[32], max[32];
                hudi_parquet_stat_text(f, 0, cc.statistics.min_value, min, sizeof(min));
                hudi_parquet_stat_text(f, 0, cc.statistics.max_value, max, sizeof(max));
                char want[32];
                snprintf(want, sizeof(want), "%d", rg * 1000);
                cr_assert_str_eq(min, want);
                snprintf(want, sizeof(want), "%d", rg * 1000 + 999);
                cr_assert_str_eq(max, want);
                cr_assert_eq(cc.statistics.null_count, 0);
            }
            if (c == 1) cr_assert_eq(cc.statistics.null_count, 100);
        }
        hudi_parquet_bytes p = hudi_parquet_column_chunk_path(f, rg, 2, 0);
        cr_assert(p.len == 4 && !memcmp(p.data, "fare", 4));
    }

    hudi_parquet_scan *s = NULL;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, NULL, &err), 0, "%s", err.message);
    hudi_field got_field;
    hudi_batch *got = drain(s, &got_field);
    cr_assert_eq(got->num_rows, 3000);
    hudi_buf why = HUDI_BUF_INIT;
    expected->schema = got->schema; /* names and types equal; compare values */
    cr_assert(hudi_batch_equal(got, expected, &why), "%s", why.data ? why.data : "");
    hudi_buf_dispose(&why);
    hudi_parquet_scan_free(s);
    hudi_batch_free(got);
    hudi_field_dispose(&got_field);
    hudi_batch_free(expected);
    hudi_field_dispose(&es);
    hudi_parquet_close(f);
}

Test(parquet_api, projection_filters_and_skipping) {
    hudi_parquet_write_options wo = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    wo.row_group_rows = 1000;
    const char *path = write_rows(4000, &wo, NULL, NULL);
    hudi_parquet_file *f = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_parquet_open(&f, path, NULL, &err), 0, "%s", err.message);

    /* text filter on a column that is not returned; columns in the asked order */
    const char *cols[] = {"fare", "city"};
    hudi_parquet_scan_options so = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    so.columns = cols;
    so.n_columns = 2;
    so.filter = "id >= 2500";
    hudi_parquet_predicate p = {"city", HUDI_PARQUET_EQ, "c1", false};
    so.predicates = &p;
    so.n_predicates = 1;
    hudi_parquet_scan *s = NULL;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so, &err), 0, "%s", err.message);
    hudi_field field;
    hudi_batch *b = drain(s, &field);
    cr_assert_eq(field.n_children, 2);
    cr_assert_str_eq(field.children[0].name, "fare");
    cr_assert_str_eq(field.children[1].name, "city");
    /* ids 2500..3999 with i % 4 == 1 and not i % 10 == 9: 375 minus the 1-mod-4 nines */
    int64_t want = 0;
    for (int64_t i = 2500; i < 4000; i++) want += i % 4 == 1 && i % 10 != 9;
    cr_assert_eq(b->num_rows, want);
    const double *fares = (const double *)b->columns[0]->values;
    for (int64_t r = 0; r < b->num_rows; r++) {
        int64_t id = (int64_t)(fares[r] * 4);
        cr_assert(id >= 2500 && id % 4 == 1, "row %lld: id %lld", (long long)r, (long long)id);
    }
    hudi_parquet_scan_stats st;
    hudi_parquet_scan_stats_get(s, &st);
    cr_assert_eq(st.row_groups_total, 4);
    cr_assert_eq(st.row_groups_skipped, 2, "row groups 0 and 1 cannot hold id >= 2500");
    cr_assert_eq(st.rows_returned, want);
    hudi_batch_free(b);
    hudi_field_dispose(&field);
    hudi_parquet_scan_free(s);

    /* without row filtering only skipping applies: whole surviving row groups come back */
    so.filter_rows = false;
    so.n_predicates = 0;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so, &err), 0, "%s", err.message);
    b = drain(s, &field);
    cr_assert_eq(b->num_rows, 2000);
    hudi_batch_free(b);
    hudi_field_dispose(&field);
    hudi_parquet_scan_free(s);

    /* IS NULL as a structured predicate */
    hudi_parquet_predicate isnull = {"city", HUDI_PARQUET_IS_NULL, NULL, false};
    hudi_parquet_scan_options so2 = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    so2.predicates = &isnull;
    so2.n_predicates = 1;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so2, &err), 0, "%s", err.message);
    b = drain(s, &field);
    cr_assert_eq(b->num_rows, 400);
    cr_assert_eq(field.n_children, 3);
    hudi_batch_free(b);
    hudi_field_dispose(&field);
    hudi_parquet_scan_free(s);
    hudi_parquet_close(f);
}

Test(parquet_api, errors_name_the_problem) {
    hudi_parquet_write_options wo = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    const char *path = write_rows(10, &wo, NULL, NULL);
    hudi_parquet_file *f = NULL;
    hudi_parquet_scan *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_parquet_open(&f, "/nonexistent/x.parquet", NULL, &err), HUDI_ENOTFOUND);
    cr_assert_null(f);
    cr_assert_eq(hudi_parquet_open(&f, path, NULL, &err), 0);

    hudi_parquet_scan_options so = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    so.filter = "nope = 1";
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so, &err), HUDI_EINVAL);
    cr_assert_null(s);
    cr_assert(strstr(err.message, "filter: unknown column 'nope'"), "%s", err.message);
    cr_assert(strstr(err.message, path), "%s", err.message);
    so.filter = "id = 1.5";
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "1.5"), "%s", err.message);
    so.filter = NULL;
    const char *cols[] = {"id", "nope"};
    so.columns = cols;
    so.n_columns = 2;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so, &err), HUDI_ENOTFOUND);
    cr_assert(strstr(err.message, "nope"), "%s", err.message);
    cols[1] = "id";
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "twice"), "%s", err.message);
    hudi_parquet_predicate p = {"fare", HUDI_PARQUET_LT, "cheap", false};
    hudi_parquet_scan_options so2 = HUDI_PARQUET_SCAN_OPTIONS_INIT;
    so2.predicates = &p;
    so2.n_predicates = 1;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so2, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "fare"), "%s", err.message);
    so2.version = 99;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, &so2, &err), HUDI_EINVAL);

    /* one stream per scan */
    cr_assert_eq(hudi_parquet_scan_open(&s, f, NULL, &err), 0);
    struct ArrowArrayStream st;
    cr_assert_eq(hudi_parquet_scan_to_arrow(s, &st, &err), 0);
    struct ArrowArrayStream st2;
    cr_assert_eq(hudi_parquet_scan_to_arrow(s, &st2, &err), HUDI_EINVAL);
    st.release(&st);
    hudi_parquet_scan_free(s);
    hudi_parquet_close(f);
}

/* Per-column encodings through the public options: id DELTA_BINARY_PACKED, city
 * DELTA_LENGTH_BYTE_ARRAY, fare BYTE_STREAM_SPLIT; the footer lists them (and no dictionary)
 * and the values read back equal what was written. A bad combination names the column. */
Test(parquet_api, writer_per_column_encodings) {
    hudi_parquet_write_options wo = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    const hudi_parquet_column_encoding enc[] = {
        {"id", HUDI_PARQUET_ENCODING_DELTA_BINARY_PACKED},
        {"city", HUDI_PARQUET_ENCODING_DELTA_LENGTH_BYTE_ARRAY},
        {"fare", HUDI_PARQUET_ENCODING_BYTE_STREAM_SPLIT},
    };
    const hudi_parquet_encoding want[] = {HUDI_PARQUET_ENCODING_DELTA_BINARY_PACKED,
                                          HUDI_PARQUET_ENCODING_DELTA_LENGTH_BYTE_ARRAY,
                                          HUDI_PARQUET_ENCODING_BYTE_STREAM_SPLIT};
    wo.column_encodings = enc;
    wo.n_column_encodings = 3;
    hudi_batch *expected = NULL;
    hudi_field es;
    const char *path = write_rows(3000, &wo, &expected, &es);

    hudi_parquet_file *f = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_parquet_open(&f, path, NULL, &err), 0, "%s", err.message);
    for (int32_t c = 0; c < 3; c++) {
        hudi_parquet_column_chunk cc;
        cr_assert_eq(hudi_parquet_column_chunk_get(f, 0, c, &cc), 0);
        bool found = false;
        for (int32_t i = 0; i < cc.num_encodings; i++) {
            found |= cc.encodings[i] == (int32_t)want[c];
            cr_assert_neq(cc.encodings[i], HUDI_PARQUET_ENCODING_RLE_DICTIONARY, "column %d", c);
            cr_assert_neq(cc.encodings[i], HUDI_PARQUET_ENCODING_PLAIN_DICTIONARY, "column %d", c);
        }
        cr_assert(found, "column %d: encoding %d not in the footer", c, (int)want[c]);
        for (int32_t i = 0; i < cc.num_encoding_stats; i++) {
            hudi_parquet_encoding_stats st;
            cr_assert_eq(hudi_parquet_encoding_stats_get(f, 0, c, i, &st), 0);
            if (st.page_type == HUDI_PARQUET_PAGE_DATA || st.page_type == HUDI_PARQUET_PAGE_DATA_V2)
                cr_assert_eq(st.encoding, (int32_t)want[c], "column %d", c);
        }
    }
    hudi_parquet_scan *s = NULL;
    cr_assert_eq(hudi_parquet_scan_open(&s, f, NULL, &err), 0, "%s", err.message);
    hudi_field got_field;
    hudi_batch *got = drain(s, &got_field);
    cr_assert_eq(got->num_rows, 3000);
    hudi_buf why = HUDI_BUF_INIT;
    expected->schema = got->schema;
    cr_assert(hudi_batch_equal(got, expected, &why), "%s", why.data ? why.data : "");
    hudi_buf_dispose(&why);
    hudi_parquet_scan_free(s);
    hudi_batch_free(got);
    hudi_field_dispose(&got_field);
    hudi_batch_free(expected);
    hudi_field_dispose(&es);
    hudi_parquet_close(f);

    /* DELTA_BINARY_PACKED on a string column: refused, naming the column */
    hudi_field sch;
    hudi_batch *b = NULL;
    build(&b, &sch, 1);
    struct ArrowSchema as;
    cr_assert_eq(hudi_arrow_export_schema(&as, &sch, NULL), 0);
    const hudi_parquet_column_encoding bad[] = {
        {"city", HUDI_PARQUET_ENCODING_DELTA_BINARY_PACKED}};
    wo.column_encodings = bad;
    wo.n_column_encodings = 1;
    char p2[512];
    snprintf(p2, sizeof(p2), "%s/bad.parquet", test_tmpdir());
    hudi_parquet_writer *w = NULL;
    cr_assert_eq(hudi_parquet_writer_open(&w, p2, &as, &wo, &err), HUDI_EINVAL);
    cr_assert_null(w);
    cr_assert(strstr(err.message, "city"), "%s", err.message);
    as.release(&as);
    hudi_batch_free(b);
    hudi_field_dispose(&sch);
}

Test(parquet_api, writer_refuses_bad_input) {
    hudi_field s, other;
    hudi_batch *b = NULL;
    build(&b, &s, 3);
    struct ArrowSchema as, os;
    struct ArrowArray aa;
    cr_assert_eq(hudi_arrow_export_schema(&as, &s, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&aa, b, NULL), 0);
    char path[512];
    snprintf(path, sizeof(path), "%s/w.parquet", test_tmpdir());
    hudi_parquet_writer *w = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_parquet_write_options wo = HUDI_PARQUET_WRITE_OPTIONS_INIT;
    wo.codec = HUDI_PARQUET_LZO;
    cr_assert_eq(hudi_parquet_writer_open(&w, path, &as, &wo, &err), HUDI_EUNSUPPORTED);
    cr_assert_null(w);
    wo = (hudi_parquet_write_options)HUDI_PARQUET_WRITE_OPTIONS_INIT;
    const char *dangling[] = {"key-without-value", NULL};
    wo.key_value_metadata = dangling;
    cr_assert_eq(hudi_parquet_writer_open(&w, path, &as, &wo, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "key-without-value"), "%s", err.message);

    /* a batch of another shape */
    cr_assert_eq(hudi_parquet_writer_open(&w, path, &as, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_field_init(&other, "x", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&other, 1), 0);
    cr_assert_eq(hudi_field_init(&other.children[0], "id", HUDI_TYPE_INT32, false), 0);
    cr_assert_eq(hudi_arrow_export_schema(&os, &other, NULL), 0);
    cr_assert_eq(hudi_parquet_writer_write(w, &os, &aa, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, path), "%s", err.message);
    hudi_parquet_writer_abort(w);
    cr_assert_neq(access(path, F_OK), 0, "an aborted file is not published");
    os.release(&os);
    hudi_field_dispose(&other);
    aa.release(&aa);
    as.release(&as);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(parquet_api, real_fixture_footer) {
    hudi_parquet_file *f = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    const char *path = fixture_path("parquet-testing/data/alltypes_plain.parquet");
    cr_assert_eq(hudi_parquet_open(&f, path, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_parquet_num_rows(f), 8);
    cr_assert_eq(hudi_parquet_num_columns(f), 11);
    cr_assert_str_eq(hudi_parquet_column_name(f, 10), "timestamp_col");
    char type[64];
    hudi_parquet_column_type_text(f, 10, type, sizeof(type));
    cr_assert_str_eq(type, "timestamp[us, UTC] (int96)");
    hudi_parquet_schema_element e;
    cr_assert_eq(hudi_parquet_schema_element_get(f, hudi_parquet_leaf_element(f, 10), &e), 0);
    cr_assert_eq(e.physical_type, HUDI_PARQUET_INT96);
    struct ArrowSchema as;
    cr_assert_eq(hudi_parquet_schema(f, &as, &err), 0, "%s", err.message);
    cr_assert_str_eq(as.format, "+s");
    cr_assert_eq(as.n_children, 11);
    cr_assert_str_eq(as.children[0]->name, "id");
    as.release(&as);
    hudi_parquet_close(f);
}

/* ---- JSON Lines ------------------------------------------------------------------------------ */

typedef struct sink {
    char buf[4096];
    size_t len;
    int calls;
} sink;

static int to_sink(void *payload, const char *data, size_t len) {
    sink *s = payload;
    cr_assert_lt(s->len + len, sizeof(s->buf));
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    s->buf[s->len] = '\0';
    s->calls++;
    return 0;
}

typedef struct source {
    const char *text;
    size_t pos;
} source;

static int from_text(void *payload, void *buf, size_t cap, size_t *got, hudi_error *err) {
    source *s = payload;
    size_t n = strlen(s->text + s->pos);
    *got = n < cap ? n : cap;
    memcpy(buf, s->text + s->pos, *got);
    s->pos += *got;
    return 0;
}

Test(json_api, writer_renders_a_row_range_and_reader_parses_it_back) {
    hudi_field s;
    hudi_batch *b = NULL;
    build(&b, &s, 12);
    struct ArrowSchema as;
    struct ArrowArray aa;
    cr_assert_eq(hudi_arrow_export_schema(&as, &s, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&aa, b, NULL), 0);
    hudi_json_writer *jw = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    sink out = {{0}, 0, 0};
    cr_assert_eq(hudi_json_writer_new(&jw, &as, to_sink, &out, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_json_writer_write(jw, &aa, 8, 3, &err), 0, "%s", err.message);
    cr_assert_eq(out.calls, 0, "buffered until flushed");
    cr_assert_eq(hudi_json_writer_write(jw, &aa, 11, 2, &err), HUDI_EINVAL);
    cr_assert_eq(hudi_json_writer_flush(jw, &err), 0);
    cr_assert_str_eq(out.buf, "{\"id\":8,\"city\":\"c0\",\"fare\":2}\n"
                              "{\"id\":9,\"city\":null,\"fare\":2.25}\n"
                              "{\"id\":10,\"city\":\"c2\",\"fare\":2.5}\n");
    hudi_json_writer_free(jw);

    /* the same text read back through a JSON Lines stream */
    source src = {out.buf, 0};
    struct ArrowArrayStream st;
    cr_assert_eq(hudi_json_reader_to_arrow(&as, from_text, &src, "rows", NULL, &st, &err), 0, "%s",
                 err.message);
    struct ArrowArray got;
    cr_assert_eq(st.get_next(&st, &got), 0, "%s", st.get_last_error(&st));
    cr_assert_eq(got.length, 3);
    cr_assert_eq(((const int64_t *)got.children[0]->buffers[1])[2], 10);
    cr_assert_eq(got.children[1]->null_count, 1);
    got.release(&got);
    cr_assert_eq(st.get_next(&st, &got), 0);
    cr_assert_null(got.release, "end of stream");
    st.release(&st);

    source bad = {"{\"id\":1,\"nope\":2}\n", 0};
    cr_assert_eq(hudi_json_reader_to_arrow(&as, from_text, &bad, "bad.jsonl", NULL, &st, &err), 0);
    cr_assert_neq(st.get_next(&st, &got), 0);
    cr_assert(strstr(st.get_last_error(&st), "nope"), "%s", st.get_last_error(&st));
    st.release(&st);
    aa.release(&aa);
    as.release(&as);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(version, macro_and_function_agree) {
    char want[32];
    snprintf(want, sizeof(want), "%d.%d.%d", HUDI_VERSION_MAJOR, HUDI_VERSION_MINOR,
             HUDI_VERSION_PATCH);
    cr_assert_str_eq(HUDI_VERSION, want);
    cr_assert_str_eq(hudi_version(), HUDI_VERSION);
    cr_assert_str_eq(hudi_version_string(), HUDI_VERSION);
    /* ... and it is CMake's project(VERSION) */
    size_t n = 0;
    char *cmake = (char *)test_read_file(HUDI_SOURCE_DIR "/CMakeLists.txt", &n);
    cr_assert_not_null(cmake);
    char line[64];
    snprintf(line, sizeof(line), "project(hudic VERSION %s ", HUDI_VERSION);
    cr_assert(strstr(cmake, line), "CMakeLists.txt has no '%s'", line);
    free(cmake);
}
