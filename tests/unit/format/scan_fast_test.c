/* scan_fast_test.c - the scan's fast paths against values computed independently: SNAPPY
 * pages of PLAIN fixed-width values decoded only as far as they are consumed (batches that
 * end inside pages, on a page's last value and one past it, nulls, a required column,
 * dictionary pages falling back to PLAIN mid-chunk, partly skipped pages under late
 * materialisation), the typed predicate loops (every operator, NULL, NaN, -0.0, constants out
 * of an INT32 column's range), and the cache of column reader buffers shared by scans. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "format/parquet/parquet.h"
#include "schema_spec.h"
#include "support.h"

static hudi_fs *g_fs;

static void setup(void) { cr_assert_eq(hudi_fs_local_new(&g_fs, NULL), 0); }
static void teardown(void) { hudi_fs_free(g_fs); }

#define N_ROWS 30011
enum { C_ID, C_K, C_D, C_F, C_C, N_COLS };

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static bool k_null(int64_t i) { return i % 13 == 0; }
static int32_t k_of(int64_t i) { return (int32_t)((i * 7919) % 1000) - 300; }
static bool d_null(int64_t i) { return i % 7 == 3; }
static double d_of(int64_t i) {
    if (i % 17 == 0) return NAN;
    if (i % 19 == 0) return i % 2 ? -0.0 : 0.0;
    return (double)(mix((uint64_t)i) % 100000) / 100.0 - 100.0;
}
static bool f_null(int64_t i) { return i % 5 == 0; }
static float f_of(int64_t i) { return (float)(mix((uint64_t)i + 9) % 1000) / 8.0f; }

static void app(int rc) { cr_assert_eq(rc, 0); }

/* id long (required), k int?, d double?, f float?, c string?: SNAPPY v1 pages of at most 777
 * rows in row groups of 10001; the dictionaries of k and d overflow 2 KB and fall back to
 * PLAIN, c keeps its dictionary. */
static const char *write_file(const char *name, bool dictionary) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
    hudi_field schema = spec_record("t", "id long, k int?, d double?, f float?, c string?");
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.codec = HUDI_PQ_CODEC_SNAPPY;
    o.page_rows = 777;
    o.row_group_rows = 10001;
    o.dictionary = dictionary;
    o.dictionary_page_bytes = 2048;
    hudi_pq_writer *w = NULL;
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_writer_open(&w, g_fs, path, &schema, &o, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_batch_new(&b, &schema, NULL), 0);
    for (int64_t i = 0; i < N_ROWS; i++) {
        app(hudi_array_append_fixed(b->columns[C_ID], &i, NULL));
        int32_t k = k_of(i);
        double d = d_of(i);
        float f = f_of(i);
        app(k_null(i) ? hudi_array_append_null(b->columns[C_K], NULL)
                      : hudi_array_append_fixed(b->columns[C_K], &k, NULL));
        app(d_null(i) ? hudi_array_append_null(b->columns[C_D], NULL)
                      : hudi_array_append_fixed(b->columns[C_D], &d, NULL));
        app(f_null(i) ? hudi_array_append_null(b->columns[C_F], NULL)
                      : hudi_array_append_fixed(b->columns[C_F], &f, NULL));
        char s[16];
        snprintf(s, sizeof(s), "c%d", (int)(i % 3));
        app(i % 11 == 0 ? hudi_array_append_null(b->columns[C_C], NULL)
                        : hudi_array_append_bytes(b->columns[C_C], s, strlen(s), NULL));
        b->num_rows++;
        if (b->num_rows == 4099 || i == N_ROWS - 1) {
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

static bool same_double(double a, double b) {
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/* Checks every row of b against the generator, by its id. */
static void check_rows(const hudi_batch *b) {
    const hudi_array *id = b->columns[C_ID], *k = b->columns[C_K], *d = b->columns[C_D],
                     *f = b->columns[C_F];
    for (int64_t r = 0; r < b->num_rows; r++) {
        int64_t i = ((const int64_t *)id->values)[r];
        cr_assert(i >= 0 && i < N_ROWS);
        cr_assert_eq(!hudi_array_is_valid(k, r), k_null(i), "k null at id %lld", (long long)i);
        if (!k_null(i)) cr_assert_eq(((const int32_t *)k->values)[r], k_of(i));
        cr_assert_eq(!hudi_array_is_valid(d, r), d_null(i), "d null at id %lld", (long long)i);
        if (!d_null(i))
            cr_assert(same_double(((const double *)d->values)[r], d_of(i)), "d at id %lld",
                      (long long)i);
        cr_assert_eq(!hudi_array_is_valid(f, r), f_null(i));
        if (!f_null(i)) cr_assert_eq(((const float *)f->values)[r], f_of(i));
    }
}

/* Scans path (columns id, k, d, f) with the predicates; returns the rows, each checked. */
static int64_t scan(const char *path, int64_t batch_rows, const hudi_pq_predicate *p, int32_t np,
                    bool eager) {
    hudi_pq_file *f = NULL;
    hudi_pq_scan *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int32_t cols[] = {C_ID, C_K, C_D, C_F};
    cr_assert_eq(hudi_pq_open(&f, g_fs, path, NULL, &err), 0, "%s", err.message);
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.columns = cols;
    o.n_columns = 4;
    o.batch_rows = batch_rows;
    o.predicates = p;
    o.n_predicates = np;
    o.filter_rows = np > 0;
    o.eager_filter = eager;
    cr_assert_eq(hudi_pq_scan_open(&s, f, &o, &err), 0, "%s", err.message);
    int64_t rows = 0, last = -1;
    hudi_batch *b;
    while (hudi_pq_scan_next(s, &b, &err) == 0 && b) {
        check_rows(b);
        const int64_t *id = b->columns[C_ID]->values;
        for (int64_t r = 0; r < b->num_rows; r++) {
            cr_assert_gt(id[r], last); /* in order, none twice */
            last = id[r];
        }
        rows += b->num_rows;
    }
    cr_assert_eq(err.code, 0, "%s", err.message);
    hudi_pq_scan_free(s);
    hudi_pq_close(f);
    return rows;
}

Test(scan_fast, lazy_snappy_pages_at_every_batch_cut, .init = setup, .fini = teardown) {
    const char *paths[2];
    paths[0] = write_file("lazy_dict.parquet", true);
    char plain[4096];
    snprintf(plain, sizeof(plain), "%s", paths[0]);
    paths[1] = write_file("lazy_plain.parquet", false);
    paths[0] = plain;
    static const int64_t sizes[] = {1, 7, 776, 777, 778, 1554, 10001, 65536};
    for (int p = 0; p < 2; p++)
        for (size_t z = 0; z < HUDI_ARRAY_LEN(sizes); z++)
            cr_assert_eq(scan(paths[p], sizes[z], NULL, 0, false), N_ROWS, "%s batch %lld",
                         paths[p], (long long)sizes[z]);
}

static int64_t expect_count(int col, hudi_cmp_op op, double c) {
    int64_t n = 0;
    for (int64_t i = 0; i < N_ROWS; i++) {
        bool null = col == C_K ? k_null(i) : col == C_D ? d_null(i) : f_null(i);
        if (null) continue;
        double x = col == C_K ? k_of(i) : col == C_D ? d_of(i) : f_of(i);
        bool ok = op == HUDI_CMP_EQ   ? x == c
                  : op == HUDI_CMP_NE ? x != c
                  : op == HUDI_CMP_LT ? x < c
                  : op == HUDI_CMP_LE ? x <= c
                  : op == HUDI_CMP_GT ? x > c
                                      : x >= c;
        n += ok;
    }
    return n;
}

Test(scan_fast, typed_predicates_match_row_semantics, .init = setup, .fini = teardown) {
    const char *path = write_file("pred.parquet", true);
    static const hudi_cmp_op ops[] = {HUDI_CMP_EQ, HUDI_CMP_NE, HUDI_CMP_LT,
                                      HUDI_CMP_LE, HUDI_CMP_GT, HUDI_CMP_GE};
    static const double dconst[] = {0.0, -0.0, 250.5, -100.0, 899.99, NAN};
    static const int64_t kconst[] = {0, -300, 5, 698, 699};
    static const double fconst[] = {0.0, 62.5, 124.875};
    for (size_t o = 0; o < HUDI_ARRAY_LEN(ops); o++) {
        for (size_t c = 0; c < HUDI_ARRAY_LEN(dconst); c++) {
            hudi_pq_predicate p = {.column = C_D, .op = ops[o], .value = {.f64 = dconst[c]}};
            int64_t want = expect_count(C_D, ops[o], dconst[c]);
            cr_assert_eq(scan(path, 1000, &p, 1, false), want, "d op %d c %g", (int)ops[o],
                         dconst[c]);
            cr_assert_eq(scan(path, 4096, &p, 1, true), want);
        }
        for (size_t c = 0; c < HUDI_ARRAY_LEN(kconst); c++) {
            hudi_pq_predicate p = {.column = C_K, .op = ops[o], .value = {.i64 = kconst[c]}};
            cr_assert_eq(scan(path, 777, &p, 1, false), expect_count(C_K, ops[o], kconst[c]),
                         "k op %d c %lld", (int)ops[o], (long long)kconst[c]);
        }
        for (size_t c = 0; c < HUDI_ARRAY_LEN(fconst); c++) {
            hudi_pq_predicate p = {.column = C_F, .op = ops[o], .value = {.f64 = fconst[c]}};
            cr_assert_eq(scan(path, 65536, &p, 1, false), expect_count(C_F, ops[o], fconst[c]));
        }
        /* A constant outside int32 (the general loop): compared as a 64-bit integer. */
        hudi_pq_predicate big = {.column = C_K, .op = ops[o], .value = {.i64 = 5000000000ll}};
        cr_assert_eq(scan(path, 999, &big, 1, false), expect_count(C_K, ops[o], 5e9));
    }
    /* Two predicates, ANDed, on two typed columns. */
    hudi_pq_predicate two[] = {{.column = C_D, .op = HUDI_CMP_GT, .value = {.f64 = 700.0}},
                               {.column = C_K, .op = HUDI_CMP_LT, .value = {.i64 = 0}}};
    int64_t want = 0;
    for (int64_t i = 0; i < N_ROWS; i++)
        want += !d_null(i) && d_of(i) > 700.0 && !k_null(i) && k_of(i) < 0;
    cr_assert_gt(want, 0);
    cr_assert_eq(scan(path, 1234, two, 2, false), want);
    cr_assert_eq(scan(path, 1234, two, 2, true), want);
}

/* hudi_pq_eval_predicate directly on arrays of odd lengths (the vector loops' tails), with and
 * without a validity bitmap. */
Test(scan_fast, eval_predicate_odd_lengths) {
    hudi_field fd;
    cr_assert_eq(hudi_field_init(&fd, "x", HUDI_TYPE_INT64, true), 0);
    for (int64_t n = 0; n < 70; n++) {
        hudi_array *a = NULL;
        cr_assert_eq(hudi_array_new(&a, &fd, NULL), 0);
        for (int64_t i = 0; i < n; i++) {
            int64_t v = i % 5;
            app(i % 6 == 5 ? hudi_array_append_null(a, NULL)
                           : hudi_array_append_fixed(a, &v, NULL));
        }
        uint8_t keep[80];
        memset(keep, 1, sizeof(keep));
        keep[0] = 0; /* already dropped rows stay dropped */
        hudi_value c = {.i64 = 2};
        cr_assert_eq(hudi_pq_eval_predicate(a, HUDI_CMP_GE, &c, keep, NULL), 0);
        for (int64_t i = 0; i < n; i++)
            cr_assert_eq(keep[i], i > 0 && i % 6 != 5 && i % 5 >= 2, "n %lld row %lld",
                         (long long)n, (long long)i);
        for (int64_t i = n; i < 80; i++) cr_assert_eq(keep[i], i == 0 ? 0 : 1); /* untouched */
        hudi_array_free(a);
    }
    hudi_field_dispose(&fd);
}

/* Scans hand their buffers to the cache; the next scans (of another file, in another order)
 * start from them and still read every value right. */
Test(scan_fast, warm_buffers_from_earlier_scans, .init = setup, .fini = teardown) {
    hudi_pq_buffer_cache_clear();
    const char *path = write_file("warm.parquet", false);
    cr_assert_eq(scan(path, 4096, NULL, 0, false), N_ROWS);
    size_t cached = hudi_pq_buffer_cache_clear();
    cr_assert_gt(cached, 0, "a finished scan left no buffer in the cache");
    cr_assert_eq(hudi_pq_buffer_cache_clear(), 0);
    char first[4096];
    snprintf(first, sizeof(first), "%s", path);
    const char *other = write_file("warm_dict.parquet", true);
    for (int r = 0; r < 3; r++) {
        cr_assert_eq(scan(r % 2 ? first : other, 777 + r, NULL, 0, false), N_ROWS);
        hudi_pq_predicate p = {.column = C_D, .op = HUDI_CMP_LT, .value = {.f64 = 0.0}};
        cr_assert_eq(scan(r % 2 ? other : first, 1000, &p, 1, false),
                     expect_count(C_D, HUDI_CMP_LT, 0.0));
    }
    cr_assert_gt(hudi_pq_buffer_cache_clear(), 0);
}
