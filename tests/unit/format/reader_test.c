/* reader_test.c - the Parquet reader over the parquet-testing files of tests/data: row counts,
 * values of a few known columns, batch boundaries that cut pages and records, projection,
 * predicates, and a clean one-line error for every malformed file. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "format/parquet/parquet.h"
#include "schema_spec.h"
#include "support.h"

static hudi_fs *g_fs;

static void setup(void) { cr_assert_eq(hudi_fs_local_new(&g_fs, NULL), 0); }
static void teardown(void) { hudi_fs_free(g_fs); }

static const char *data_path(const char *name) {
    static char buf[4096];
    snprintf(buf, sizeof(buf), "%s", fixture_path("parquet-testing/data/"));
    strncat(buf, name, sizeof(buf) - strlen(buf) - 1);
    return buf;
}

/* Reads every row of `path` with the given batch size; returns the row count or an error. */
static int64_t count_rows(const char *path, int64_t batch_rows, hudi_error *err) {
    hudi_pq_file *f = NULL;
    hudi_pq_scan *s = NULL;
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.batch_rows = batch_rows;
    int64_t rows = 0;
    int rc = hudi_pq_open(&f, g_fs, path, NULL, err);
    if (rc == 0) rc = hudi_pq_scan_open(&s, f, &o, err);
    while (rc == 0) {
        hudi_batch *b;
        if ((rc = hudi_pq_scan_next(s, &b, err)) < 0 || !b) break;
        if ((rc = hudi_batch_validate(b, err)) < 0) break;
        rows += b->num_rows;
    }
    hudi_pq_scan_free(s);
    hudi_pq_close(f);
    return rc < 0 ? rc : rows;
}

static const struct {
    const char *name;
    int64_t rows;
} k_readable[] = {
    {"alltypes_plain.parquet", 8},
    {"alltypes_dictionary.parquet", 2},
    {"alltypes_tiny_pages.parquet", 7300},
    {"binary.parquet", 12},
    {"binary_truncated_min_max.parquet", 12},
    {"byte_array_decimal.parquet", 24},
    {"byte_stream_split.zstd.parquet", 300},
    {"column_chunk_key_value_metadata.parquet", 0},
    {"concatenated_gzip_members.parquet", 513},
    {"data_index_bloom_encoding_stats.parquet", 14},
    {"datapage_v1-uncompressed-checksum.parquet", 5120},
    {"datapage_v2.snappy.parquet", 5},
    {"datapage_v2_empty_datapage.snappy.parquet", 1},
    {"delta_binary_packed.parquet", 200},
    {"delta_byte_array.parquet", 1000},
    {"delta_encoding_optional_column.parquet", 100},
    {"delta_encoding_required_column.parquet", 100},
    {"delta_length_byte_array.parquet", 1000},
    {"dict-page-offset-zero.parquet", 39},
    {"fixed_length_byte_array.parquet", 1000},
    {"fixed_length_decimal.parquet", 24},
    {"fixed_length_decimal_legacy.parquet", 24},
    {"float16_nonzeros_and_nans.parquet", 8},
    {"floating_orders_nan_count.parquet", 50},
    {"hadoop_lz4_compressed.parquet", 4},
    {"incorrect_map_schema.parquet", 1},
    {"int32_decimal.parquet", 24},
    {"int96_from_spark.parquet", 6},
    {"list_columns.parquet", 3},
    {"lz4_raw_compressed.parquet", 4},
    {"nan_in_stats.parquet", 2},
    {"nation.dict-malformed.parquet", 25},
    {"nested_lists.snappy.parquet", 3},
    {"nested_structs.rust.parquet", 1},
    {"non_hadoop_lz4_compressed.parquet", 4},
    {"nonnullable.impala.parquet", 1},
    {"null_list.parquet", 1},
    {"nulls.snappy.parquet", 8},
    {"old_list_structure.parquet", 1},
    {"overflow_i16_page_cnt.parquet", 40000},
    {"plain-dict-uncompressed-checksum.parquet", 1000},
    {"rle_boolean_encoding.parquet", 68},
    {"repeated_no_annotation.parquet", 6},
    {"unknown-logical-type.parquet", 3},
};

Test(reader, every_must_read_fixture_counts, .init = setup, .fini = teardown) {
    for (size_t i = 0; i < HUDI_ARRAY_LEN(k_readable); i++) {
        hudi_error err = HUDI_ERROR_INIT;
        int64_t n = count_rows(data_path(k_readable[i].name), 0, &err);
        cr_expect_eq(n, k_readable[i].rows, "%s: %lld rows (%s)", k_readable[i].name, (long long)n,
                     err.message);
    }
}

Test(reader, small_batches_cut_pages_and_records, .init = setup, .fini = teardown) {
    /* Batch sizes that never align with page or row-group boundaries. */
    for (size_t i = 0; i < HUDI_ARRAY_LEN(k_readable); i++) {
        if (k_readable[i].rows > 10000) continue;
        hudi_error err = HUDI_ERROR_INIT;
        int64_t n = count_rows(data_path(k_readable[i].name), 7, &err);
        cr_expect_eq(n, k_readable[i].rows, "%s: %lld rows (%s)", k_readable[i].name, (long long)n,
                     err.message);
    }
}

static const char *k_bad[] = {
    "bad_data/PARQUET-1481.parquet",
    "bad_data/ARROW-GH-41317.parquet",
    "bad_data/ARROW-GH-45185.parquet",
    "bad_data/ARROW-GH-47662.parquet",
    "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet",
    "data/datapage_v1-corrupt-checksum.parquet",
    "data/rle-dict-uncompressed-corrupt-checksum.parquet",
    "data/uniform_encryption.parquet.encrypted",
    "data/bloom_filter.bin",
};

Test(reader, malformed_files_fail_cleanly, .init = setup, .fini = teardown) {
    char rel[256];
    for (size_t i = 0; i < HUDI_ARRAY_LEN(k_bad); i++) {
        hudi_error err = HUDI_ERROR_INIT;
        snprintf(rel, sizeof(rel), "parquet-testing/%s", k_bad[i]);
        int64_t n = count_rows(fixture_path(rel), 0, &err);
        cr_expect_lt(n, 0, "%s read %lld rows", k_bad[i], (long long)n);
        cr_expect(strstr(err.message, ".parquet") != NULL || strstr(err.message, ".bin") != NULL ||
                      strstr(err.message, ".encrypted") != NULL,
                  "%s: error does not name the file: %s", k_bad[i], err.message);
        cr_expect(strchr(err.message, '\n') == NULL);
    }
}

Test(reader, polars_zero_width_dictionary_reads, .init = setup, .fini = teardown) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(
        count_rows(fixture_path("parquet-testing/bad_data/ARROW-GH-43605.parquet"), 0, &err), 21186,
        "%s", err.message);
}

Test(reader, corrupt_checksum_reads_with_verification_off, .init = setup, .fini = teardown) {
    hudi_pq_open_options oo = HUDI_PQ_OPEN_OPTIONS_INIT;
    oo.verify_crc = false;
    hudi_pq_file *f = NULL;
    hudi_pq_scan *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(
        hudi_pq_open(&f, g_fs, data_path("datapage_v1-corrupt-checksum.parquet"), &oo, &err), 0);
    cr_assert_eq(hudi_pq_scan_open(&s, f, NULL, &err), 0);
    int64_t sum = 0;
    hudi_batch *b;
    while (hudi_pq_scan_next(s, &b, &err) == 0 && b)
        for (int64_t i = 0; i < b->num_rows; i++) sum += ((int32_t *)b->columns[0]->values)[i];
    cr_expect_eq(
        sum, 43118090496LL); /* DuckDB's sum over the damaged page (docs/formats/parquet.md §9) */
    hudi_pq_scan_free(s);
    hudi_pq_close(f);
}

Test(reader, tiny_pages_values_and_predicate, .init = setup, .fini = teardown) {
    hudi_pq_file *f = NULL;
    hudi_pq_scan *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_open(&f, g_fs, data_path("alltypes_tiny_pages.parquet"), NULL, &err), 0,
                 "%s", err.message);
    int32_t cols[] = {0};
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.columns = cols;
    o.n_columns = 1;
    o.batch_rows = 1000;
    cr_assert_eq(hudi_pq_scan_open(&s, f, &o, &err), 0, "%s", err.message);
    int64_t sum = 0, rows = 0, first = -1;
    hudi_batch *b;
    while (hudi_pq_scan_next(s, &b, &err) == 0 && b) {
        cr_assert_eq(b->n_columns, 1);
        const int32_t *v = b->columns[0]->values;
        if (first < 0) first = v[0];
        for (int64_t i = 0; i < b->num_rows; i++) sum += v[i];
        rows += b->num_rows;
    }
    cr_expect_eq(rows, 7300);
    cr_expect_eq(sum, 26641350);
    cr_expect_eq(first, 122);
    hudi_pq_scan_free(s);

    hudi_pq_predicate p = {.column = 0, .op = HUDI_CMP_LT, .value = {.i64 = 100}};
    o.predicates = &p;
    o.n_predicates = 1;
    o.filter_rows = true;
    cr_assert_eq(hudi_pq_scan_open(&s, f, &o, &err), 0, "%s", err.message);
    rows = 0;
    while (hudi_pq_scan_next(s, &b, &err) == 0 && b) {
        for (int64_t i = 0; i < b->num_rows; i++)
            cr_assert_lt(((int32_t *)b->columns[0]->values)[i], 100);
        rows += b->num_rows;
    }
    cr_expect_eq(rows, 100);
    /* id's pages are ordered within the row group, so the page index rules most of them out */
    const hudi_pq_scan_stats *st = hudi_pq_scan_get_stats(s);
    cr_expect_gt(st->pages_skipped, 0);
    cr_expect_lt(st->rows_read, 7300);
    hudi_pq_scan_free(s);

    /* The same predicate without the page index reads everything and returns the same rows. */
    o.use_page_index = false;
    cr_assert_eq(hudi_pq_scan_open(&s, f, &o, &err), 0, "%s", err.message);
    rows = 0;
    while (hudi_pq_scan_next(s, &b, &err) == 0 && b) rows += b->num_rows;
    cr_expect_eq(rows, 100);
    cr_expect_eq(hudi_pq_scan_get_stats(s)->rows_read, 7300);
    hudi_pq_scan_free(s);
    hudi_pq_close(f);
}

/* A column whose values in a batch all came from a one-entry dictionary without a null is
 * marked uniform (columnar.h); any other column is not. c and n are constant, v is constant
 * but for a null at row 1500, s alternates between two values, w has one value per row. */
static void check_uniform_marks(bool dictionary) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/uniform_%d.parquet", test_tmpdir(), (int)dictionary);
    hudi_field schema = spec_record("u", "c string, n int, v string?, s string, w double");
    hudi_pq_write_options wo = HUDI_PQ_WRITE_OPTIONS_INIT;
    wo.page_rows = 500;
    wo.row_group_rows = 2000;
    wo.dictionary = dictionary;
    hudi_pq_writer *w = NULL;
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_writer_open(&w, g_fs, path, &schema, &wo, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_batch_new(&b, &schema, NULL), 0);
    for (int64_t i = 0; i < 3000; i++) {
        const char *c = "americas/united_states/san_francisco", *s = i % 2 ? "a" : "b";
        int32_t n = 7;
        double d = (double)i;
        cr_assert_eq(hudi_array_append_bytes(b->columns[0], c, strlen(c), NULL), 0);
        cr_assert_eq(hudi_array_append_fixed(b->columns[1], &n, NULL), 0);
        cr_assert_eq(i == 1500 ? hudi_array_append_null(b->columns[2], NULL)
                               : hudi_array_append_bytes(b->columns[2], "x", 1, NULL),
                     0);
        cr_assert_eq(hudi_array_append_bytes(b->columns[3], s, 1, NULL), 0);
        cr_assert_eq(hudi_array_append_fixed(b->columns[4], &d, NULL), 0);
        b->num_rows++;
    }
    cr_assert_eq(hudi_pq_writer_write(w, b, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);

    hudi_pq_file *f = NULL;
    hudi_pq_scan *sc = NULL;
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.batch_rows = 700; /* batches cut pages; row groups end batches */
    cr_assert_eq(hudi_pq_open(&f, g_fs, path, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_pq_scan_open(&sc, f, &o, &err), 0, "%s", err.message);
    int64_t row = 0;
    for (;;) {
        hudi_batch *got = NULL;
        cr_assert_eq(hudi_pq_scan_next(sc, &got, &err), 0, "%s", err.message);
        if (!got) break;
        cr_assert_eq(hudi_batch_validate(got, &err), 0, "%s", err.message);
        bool has_null = row <= 1500 && 1500 < row + got->num_rows;
        cr_expect_eq(got->columns[0]->uniform, dictionary, "c at row %lld", (long long)row);
        cr_expect_eq(got->columns[1]->uniform, dictionary, "n at row %lld", (long long)row);
        cr_expect_eq(got->columns[2]->uniform, dictionary && !has_null, "v at row %lld",
                     (long long)row);
        cr_expect(!got->columns[3]->uniform && !got->columns[4]->uniform);
        for (int64_t i = 0; i < got->num_rows; i++) /* the values are every row's */
            cr_assert_eq(got->columns[0]->offsets[i + 1] - got->columns[0]->offsets[i], 36);
        row += got->num_rows;
    }
    cr_assert_eq(row, 3000);
    hudi_pq_scan_free(sc);
    hudi_pq_close(f);
    hudi_field_dispose(&schema);
}

Test(reader, one_value_dictionary_columns_are_marked_uniform, .init = setup, .fini = teardown) {
    check_uniform_marks(true);
    check_uniform_marks(false);
}

/* The mark says nothing once rows are added or the array is emptied. */
Test(reader, uniform_mark_cleared_by_appends_and_clear) {
    hudi_field f;
    cr_assert_eq(hudi_field_init(&f, "x", HUDI_TYPE_INT32, true), 0);
    hudi_array *a = NULL;
    int32_t v = 1, u = 2;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
    a->uniform = true;
    cr_assert_eq(hudi_array_append_fixed(a, &u, NULL), 0);
    cr_expect(!a->uniform);
    a->uniform = true;
    cr_assert_eq(hudi_array_append_null(a, NULL), 0);
    cr_expect(!a->uniform);
    a->uniform = true;
    hudi_array_clear(a);
    cr_expect(!a->uniform);
    hudi_array_free(a);
    hudi_field_dispose(&f);
}
