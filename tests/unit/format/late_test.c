/* late_test.c - late materialisation in Parquet scans (filter_rows): every scan here runs twice,
 * late (the default) and with eager_filter (decode everything, then filter), and the batches
 * must be identical one by one: the same rows, in the same order, cut at the same places.
 * Files are written by hudic (multi-page columns, with and without dictionaries and page
 * index, nulls, nested columns) and taken from parquet-testing. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "format/parquet/parquet.h"
#include "schema_spec.h"
#include "support.h"

static hudi_fs *g_fs;

static void setup(void) { cr_assert_eq(hudi_fs_local_new(&g_fs, NULL), 0); }
static void teardown(void) { hudi_fs_free(g_fs); }

#define N_ROWS 30000
/* id long, k int?, u string, cat string?, d double?, tags list<int?>?, st struct<x int?, y
 * string?>?, m map<long?>? */
enum { C_ID, C_K, C_U, C_CAT, C_D, C_TAGS, C_ST, C_M, N_COLS };

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static void key_of(int64_t i, char buf[24]) {
    snprintf(buf, 24, "u%016llx", (unsigned long long)mix((uint64_t)i + 1));
}

static void app(int rc) { cr_assert_eq(rc, 0); }

static void gen_row(hudi_batch *b, int64_t i) {
    char s[32];
    uint64_t h = mix((uint64_t)i * 31 + 7);
    app(hudi_array_append_fixed(b->columns[C_ID], &i, NULL));
    if (i % 13 == 0) {
        app(hudi_array_append_null(b->columns[C_K], NULL));
    } else {
        int32_t k = (int32_t)((i * 7919) % 1000);
        app(hudi_array_append_fixed(b->columns[C_K], &k, NULL));
    }
    key_of(i, s);
    app(hudi_array_append_bytes(b->columns[C_U], s, strlen(s), NULL));
    if (i % 11 == 0) {
        app(hudi_array_append_null(b->columns[C_CAT], NULL));
    } else {
        snprintf(s, sizeof(s), "cat%d", (int)(h % 5));
        app(hudi_array_append_bytes(b->columns[C_CAT], s, strlen(s), NULL));
    }
    if (h % 7 == 0) {
        app(hudi_array_append_null(b->columns[C_D], NULL));
    } else {
        double d = (double)(h % 100000) / 100.0;
        app(hudi_array_append_fixed(b->columns[C_D], &d, NULL));
    }
    hudi_array *tags = b->columns[C_TAGS];
    if (h % 9 == 0) {
        app(hudi_array_append_null(tags, NULL));
    } else {
        int n = (int)(h % 4);
        for (int j = 0; j < n; j++) {
            int32_t v = (int32_t)(i + j);
            if (j == 2)
                app(hudi_array_append_null(tags->children[0], NULL));
            else
                app(hudi_array_append_fixed(tags->children[0], &v, NULL));
        }
        app(hudi_array_append_nested(tags, n, NULL));
    }
    hudi_array *st = b->columns[C_ST];
    if (h % 10 == 3) {
        app(hudi_array_append_null(st, NULL));
    } else {
        int32_t x = (int32_t)(i % 77);
        app(hudi_array_append_fixed(st->children[0], &x, NULL));
        snprintf(s, sizeof(s), "y%lld", (long long)(i % 300));
        app(hudi_array_append_bytes(st->children[1], s, strlen(s), NULL));
        app(hudi_array_append_nested(st, 0, NULL));
    }
    hudi_array *m = b->columns[C_M];
    if (h % 6 == 1) {
        app(hudi_array_append_null(m, NULL));
    } else {
        int n = (int)(h % 3);
        hudi_array *e = m->children[0];
        for (int j = 0; j < n; j++) {
            snprintf(s, sizeof(s), "k%d", j);
            app(hudi_array_append_bytes(e->children[0], s, strlen(s), NULL));
            int64_t v = i * 10 + j;
            app(hudi_array_append_fixed(e->children[1], &v, NULL));
            app(hudi_array_append_nested(e, 0, NULL));
        }
        app(hudi_array_append_nested(m, n, NULL));
    }
    b->num_rows++;
}

typedef struct file_kind {
    bool page_index, dictionary, v2;
    int codec;
} file_kind;

/* Writes N_ROWS rows in pages of at most 1000 rows and row groups of 20000. */
static const char *write_file(const char *name, file_kind k) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
    hudi_field schema =
        spec_record("late", "id long, k int?, u string, cat string?, d double?, tags list<int?>?, "
                            "st struct<x int?, y string?>?, m map<long?>?");
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 1000;
    o.row_group_rows = 20000;
    o.write_page_index = k.page_index;
    o.dictionary = k.dictionary;
    o.data_page_v2 = k.v2;
    o.codec = k.codec;
    hudi_pq_writer *w = NULL;
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_writer_open(&w, g_fs, path, &schema, &o, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_batch_new(&b, &schema, NULL), 0);
    for (int64_t i = 0; i < N_ROWS; i++) {
        gen_row(b, i);
        if (b->num_rows == 7000 || i == N_ROWS - 1) {
            cr_assert_eq(hudi_pq_writer_write(w, b, &err), 0, "%s", err.message);
            hudi_batch_clear(b);
            b->num_rows = 0;
        }
    }
    cr_assert_eq(hudi_pq_writer_close(w, NULL, &err), 0, "%s", err.message);
    hudi_batch_free(b);
    hudi_field_dispose(&schema);
    return path;
}

typedef struct scan_case {
    const hudi_pq_predicate *preds;
    int32_t n_preds;
    const int32_t *cols; /* NULL = all */
    int32_t n_cols;
    int64_t batch_rows;
    bool use_page_index, use_statistics;
} scan_case;

/* Scans `path` late and eagerly; every batch must be equal. Returns the rows returned and the
 * late scan's statistics. */
static int64_t compare_scans(const char *path, const scan_case *c, hudi_pq_scan_stats *late_stats) {
    hudi_pq_file *f = NULL;
    hudi_pq_scan *late = NULL, *eager = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_open(&f, g_fs, path, NULL, &err), 0, "%s", err.message);
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.columns = c->cols;
    o.n_columns = c->n_cols;
    o.batch_rows = c->batch_rows;
    o.predicates = c->preds;
    o.n_predicates = c->n_preds;
    o.filter_rows = true;
    o.use_page_index = c->use_page_index;
    o.use_statistics = c->use_statistics;
    cr_assert_eq(hudi_pq_scan_open(&late, f, &o, &err), 0, "%s", err.message);
    o.eager_filter = true;
    cr_assert_eq(hudi_pq_scan_open(&eager, f, &o, &err), 0, "%s", err.message);
    int64_t rows = 0, batches = 0;
    hudi_buf why = HUDI_BUF_INIT;
    for (;;) {
        hudi_batch *a = NULL, *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(late, &a, &err), 0, "%s: %s", path, err.message);
        cr_assert_eq(hudi_pq_scan_next(eager, &b, &err), 0, "%s: %s", path, err.message);
        cr_assert_eq(a == NULL, b == NULL, "%s: batch %lld exists on one side only", path,
                     (long long)batches);
        if (!a) break;
        cr_assert_eq(hudi_batch_validate(a, &err), 0, "%s", err.message);
        cr_assert_eq(a->num_rows, b->num_rows, "%s: batch %lld: %lld rows late, %lld eager", path,
                     (long long)batches, (long long)a->num_rows, (long long)b->num_rows);
        hudi_buf_clear(&why);
        cr_assert(hudi_batch_equal(a, b, &why), "%s: batch %lld differs: %.*s", path,
                  (long long)batches, (int)why.len, (const char *)why.data);
        rows += a->num_rows;
        batches++;
    }
    const hudi_pq_scan_stats *ls = hudi_pq_scan_get_stats(late),
                             *es = hudi_pq_scan_get_stats(eager);
    cr_expect_eq(ls->rows_returned, es->rows_returned);
    cr_expect_eq(ls->rows_read, es->rows_read);
    cr_expect_eq(es->pages_late_skipped, 0);
    cr_expect_eq(es->values_late_decoded, 0);
    if (late_stats) *late_stats = *ls;
    hudi_buf_dispose(&why);
    hudi_pq_scan_free(late);
    hudi_pq_scan_free(eager);
    hudi_pq_close(f);
    return rows;
}

static hudi_pq_predicate pred_i64(int32_t col, hudi_cmp_op op, int64_t v) {
    hudi_pq_predicate p = {.column = col, .op = op, .value = {.i64 = v}};
    return p;
}

static hudi_pq_predicate pred_str(int32_t col, hudi_cmp_op op, const char *v) {
    hudi_pq_predicate p = {.column = col, .op = op};
    p.value.bytes = HUDI_SLICE(v, strlen(v));
    return p;
}

/* Expected row counts, computed from the generator. */
static int64_t count_where(bool (*want)(int64_t)) {
    int64_t n = 0;
    for (int64_t i = 0; i < N_ROWS; i++) n += want(i);
    return n;
}
static bool k_is_5(int64_t i) { return i % 13 != 0 && (i * 7919) % 1000 == 5; }
static bool k_lt_500(int64_t i) { return i % 13 != 0 && (i * 7919) % 1000 < 500; }
static bool k_null(int64_t i) { return i % 13 == 0; }
static bool k_gt_990_cat1(int64_t i) {
    return i % 13 != 0 && (i * 7919) % 1000 > 990 && i % 11 != 0 &&
           mix((uint64_t)i * 31 + 7) % 5 == 1;
}

/* All the predicate shapes, over one file, with two batch sizes and with and without the
 * page index and statistics. */
static void run_all(const char *path, bool has_page_index) {
    char key[24];
    key_of(12345, key);
    hudi_pq_predicate point[] = {pred_str(C_U, HUDI_CMP_EQ, key)};
    hudi_pq_predicate id_point[] = {pred_i64(C_ID, HUDI_CMP_EQ, 23456)};
    hudi_pq_predicate sel[] = {pred_i64(C_K, HUDI_CMP_EQ, 5)};
    hudi_pq_predicate half[] = {pred_i64(C_K, HUDI_CMP_LT, 500)};
    hudi_pq_predicate none[] = {pred_i64(C_K, HUDI_CMP_EQ, 5000)};
    hudi_pq_predicate all[] = {pred_i64(C_ID, HUDI_CMP_GE, 0)};
    hudi_pq_predicate nulls[] = {{.column = C_K, .op = HUDI_CMP_IS_NULL}};
    hudi_pq_predicate multi[] = {pred_i64(C_K, HUDI_CMP_GT, 990),
                                 pred_str(C_CAT, HUDI_CMP_EQ, "cat1")};
    hudi_pq_predicate range[] = {pred_i64(C_ID, HUDI_CMP_GE, 4500),
                                 pred_i64(C_ID, HUDI_CMP_LT, 4600),
                                 {.column = C_D, .op = HUDI_CMP_IS_NOT_NULL}};
    const struct {
        const hudi_pq_predicate *p;
        int32_t n;
        int64_t rows;
    } cases[] = {
        {point, 1, 1},
        {id_point, 1, 1},
        {sel, 1, count_where(k_is_5)},
        {half, 1, count_where(k_lt_500)},
        {none, 1, 0},
        {all, 1, N_ROWS},
        {nulls, 1, count_where(k_null)},
        {multi, 2, count_where(k_gt_990_cat1)},
        {range, 3, -1},
    };
    int64_t sizes[] = {4096, 65536, 999};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
            for (int pi = 0; pi < 2; pi++) {
                scan_case c = {cases[i].p, cases[i].n, NULL, 0, sizes[z], pi == 1, pi == 1};
                int64_t rows = compare_scans(path, &c, NULL);
                if (cases[i].rows >= 0)
                    cr_expect_eq(rows, cases[i].rows, "%s case %zu: %lld rows", path, i,
                                 (long long)rows);
                else
                    cr_expect(rows > 0 && rows <= 100, "%s case %zu: %lld rows", path, i,
                              (long long)rows);
            }
        }
    }
    /* A projection that leaves out some columns, repeats one, and puts the predicate column
     * last. */
    int32_t cols[] = {C_TAGS, C_D, C_TAGS, C_M, C_K};
    scan_case c = {sel, 1, cols, 5, 4096, true, true};
    cr_expect_eq(compare_scans(path, &c, NULL), count_where(k_is_5));
    (void)has_page_index;
}

Test(late, hudic_files_match_eager, .init = setup, .fini = teardown) {
    const struct {
        const char *name;
        file_kind k;
    } files[] = {
        {"plain_idx.parquet", {true, false, false, HUDI_PQ_CODEC_SNAPPY}},
        {"dict_noidx.parquet", {false, true, false, HUDI_PQ_CODEC_GZIP}},
        {"dict_v2_idx.parquet", {true, true, true, HUDI_PQ_CODEC_ZSTD}},
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        run_all(write_file(files[i].name, files[i].k), files[i].k.page_index);
}

/* A point query on an unsorted key: the page index cannot prune `u`, but the other columns'
 * pages without the matching row are never decompressed. */
Test(late, point_query_skips_other_pages, .init = setup, .fini = teardown) {
    file_kind kinds[] = {{false, true, false, HUDI_PQ_CODEC_GZIP},
                         {true, false, true, HUDI_PQ_CODEC_SNAPPY}};
    for (int w = 0; w < 2; w++) {
        const char *path = write_file(w ? "point_idx.parquet" : "point_noidx.parquet", kinds[w]);
        char key[24];
        key_of(25001, key);
        hudi_pq_predicate p = pred_str(C_U, HUDI_CMP_EQ, key);
        scan_case c = {&p, 1, NULL, 0, 65536, true, true};
        hudi_pq_scan_stats st;
        cr_assert_eq(compare_scans(path, &c, &st), 1);
        /* 30 pages per flat column; 4 flat non-predicate columns (id, k, cat, d) each
         * decompress one page (the one holding row 25001) at most. */
        cr_expect_geq(st.pages_late_skipped, 4 * 28, "%lld pages skipped",
                      (long long)st.pages_late_skipped);
        /* Flat columns and the struct's leaves decode up to three pages (1000 rows each); the
         * repeated leaves (tags, the map) step over v2 pages only (their headers count records)
         * and decode every row of v1 ones. Eager decodes 9 leaves x N_ROWS. */
        int64_t bound = w ? 9 * 4000 : 3 * (int64_t)N_ROWS + 6 * 3000;
        cr_expect_lt(st.values_late_decoded, bound, "%lld values decoded",
                     (long long)st.values_late_decoded);
        cr_expect_eq(st.rows_returned, 1);

        /* The same with only flat columns projected: nothing beyond the match's pages. */
        int32_t cols[] = {C_ID, C_K, C_U, C_CAT, C_D};
        c.cols = cols;
        c.n_cols = 5;
        cr_assert_eq(compare_scans(path, &c, &st), 1);
        cr_expect_geq(st.pages_late_skipped, 4 * 28);
        cr_expect_leq(st.values_late_decoded, 4 * 1000, "%lld values decoded",
                      (long long)st.values_late_decoded);

        /* Batches smaller than a page: the skips of the batches without the match merge, so
         * whole pages are still stepped over. */
        c.batch_rows = 300;
        cr_assert_eq(compare_scans(path, &c, &st), 1);
        cr_expect_geq(st.pages_late_skipped, 4 * 28);
        cr_expect_leq(st.values_late_decoded, 4 * 1000, "%lld values decoded (batches of 300)",
                      (long long)st.values_late_decoded);
        c.batch_rows = 65536;

        /* No match at all: no page of the other columns is decompressed. */
        hudi_pq_predicate none = pred_str(C_U, HUDI_CMP_EQ, "nope");
        c.preds = &none;
        c.use_statistics = false; /* "nope" is above every key: statistics would skip */
        c.use_page_index = false;
        cr_assert_eq(compare_scans(path, &c, &st), 0);
        cr_expect_eq(st.values_late_decoded, 0);
        cr_expect_geq(st.pages_late_skipped, 4 * 30 - 4 * 2); /* pages cut by batch ends */
    }
}

/* parquet-testing files: flat and nested other columns, dictionary and plain pages, tiny
 * pages with a page index. */
Test(late, parquet_testing_match_eager, .init = setup, .fini = teardown) {
    char path[4096];
    hudi_pq_predicate tiny_int[] = {pred_i64(4, HUDI_CMP_EQ, 3)};
    hudi_pq_predicate tiny_id[] = {pred_i64(0, HUDI_CMP_LT, 100)};
    hudi_pq_predicate tiny_str[] = {pred_str(9, HUDI_CMP_EQ, "5"), pred_i64(0, HUDI_CMP_GT, 3000)};
    hudi_pq_predicate plain_id[] = {pred_i64(0, HUDI_CMP_GE, 4)};
    hudi_pq_predicate nested_id[] = {pred_i64(0, HUDI_CMP_EQ, 3)};
    hudi_pq_predicate lists_b[] = {pred_i64(1, HUDI_CMP_EQ, 1)};
    const struct {
        const char *name;
        const hudi_pq_predicate *p;
        int32_t n;
        int64_t rows;
    } cases[] = {
        {"alltypes_tiny_pages.parquet", tiny_int, 1, 730},
        {"alltypes_tiny_pages.parquet", tiny_id, 1, 100},
        {"alltypes_tiny_pages.parquet", tiny_str, 2, -1},
        {"alltypes_plain.parquet", plain_id, 1, 4},
        {"alltypes_dictionary.parquet", plain_id, 1, 0},
        {"nonnullable.impala.parquet", nested_id, 1, 0},
        {"nonnullable.impala.parquet", plain_id, 1, 1},
        {"nested_lists.snappy.parquet", lists_b, 1, -1},
    };
    int64_t sizes[] = {1000, 65536, 7};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(path, sizeof(path), "%s%s", fixture_path("parquet-testing/data/"), cases[i].name);
        for (size_t z = 0; z < 3; z++) {
            for (int pi = 0; pi < 2; pi++) {
                scan_case c = {cases[i].p, cases[i].n, NULL, 0, sizes[z], pi == 1, true};
                int64_t rows = compare_scans(path, &c, NULL);
                if (cases[i].rows >= 0)
                    cr_expect_eq(rows, cases[i].rows, "%s: %lld rows", cases[i].name,
                                 (long long)rows);
            }
        }
    }
}
