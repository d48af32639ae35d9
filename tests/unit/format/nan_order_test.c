/* nan_order_test.c - the predicates GT_TOTAL and GE_TOTAL (parquet.h): > and >= in Spark's
 * order of floating point, NaN above every number and equal to NaN, as the SQL engine pushes
 * `d > c` and `d >= c` into scans. Every scan is checked row by row against the same
 * comparison done here, late and eager: NaN rows at page and row-group boundaries must come
 * back, nulls never, and statistics and the page index may skip only where the NaN counts say
 * there is no NaN. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "format/parquet/parquet.h"
#include "schema_spec.h"
#include "support.h"

static hudi_fs *g_fs;

static void setup(void) { cr_assert_eq(hudi_fs_local_new(&g_fs, NULL), 0); }
static void teardown(void) { hudi_fs_free(g_fs); }

TestSuite(nan_order, .init = setup, .fini = teardown);

#define N_ROWS 30000

/* d of row i: i + 0.5, null every 97th row, -0.0 at row 0; with `nans`, NaN on both sides of
 * page boundaries (pages of 1000 rows), at both ends of row groups (10000 rows) and at the
 * last row. */
static bool is_null(int64_t i) { return i % 97 == 5; }
static bool is_nan(int64_t i, bool nans) {
    return nans &&
           (i == 999 || i == 1000 || i == 9999 || i == 10000 || i == 20999 || i == N_ROWS - 1);
}
static double d_of(int64_t i, bool nans) {
    if (is_nan(i, nans)) return NAN;
    return i == 0 ? -0.0 : (double)i + 0.5;
}

/* id long, d double?, u string: pages of 1000 rows, row groups of 10000, with a page index. */
static const char *write_file(const char *name, bool nans) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
    hudi_field schema = spec_record("nan", "id long, d double?, u string");
    hudi_pq_write_options o = HUDI_PQ_WRITE_OPTIONS_INIT;
    o.page_rows = 1000;
    o.row_group_rows = 10000;
    o.write_page_index = true;
    hudi_pq_writer *w = NULL;
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_writer_open(&w, g_fs, path, &schema, &o, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_batch_new(&b, &schema, NULL), 0);
    for (int64_t i = 0; i < N_ROWS; i++) {
        char s[32];
        cr_assert_eq(hudi_array_append_fixed(b->columns[0], &i, NULL), 0);
        if (is_null(i)) {
            cr_assert_eq(hudi_array_append_null(b->columns[1], NULL), 0);
        } else {
            double d = d_of(i, nans);
            cr_assert_eq(hudi_array_append_fixed(b->columns[1], &d, NULL), 0);
        }
        snprintf(s, sizeof(s), "row-%lld", (long long)i);
        cr_assert_eq(hudi_array_append_bytes(b->columns[2], s, strlen(s), NULL), 0);
        b->num_rows++;
        if (b->num_rows == 5000) {
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

/* Spark's comparison of two doubles: NaN above every number, NaN = NaN, -0.0 = 0.0. */
static int spark_cmp(double x, double c) {
    bool nx = isnan(x), nc = isnan(c);
    if (nx || nc) return nx && nc ? 0 : nx ? 1 : -1;
    return (x > c) - (x < c);
}

/* Whether row i passes every predicate (d or id against its constant). */
static bool want_row(int64_t i, bool nans, const hudi_pq_predicate *p, int32_t n) {
    for (int32_t k = 0; k < n; k++) {
        int c;
        if (p[k].column == 0) {
            c = (i > p[k].value.i64) - (i < p[k].value.i64);
        } else {
            if (is_null(i)) return false;
            double d = d_of(i, nans);
            if (p[k].op == HUDI_CMP_GT_TOTAL || p[k].op == HUDI_CMP_GE_TOTAL)
                c = spark_cmp(d, p[k].value.f64);
            else if (isnan(d) || isnan(p[k].value.f64))
                return false; /* the IEEE operators: NaN compares false */
            else
                c = (d > p[k].value.f64) - (d < p[k].value.f64);
        }
        bool ok;
        switch (p[k].op) {
        case HUDI_CMP_LT: ok = c < 0; break;
        case HUDI_CMP_LE: ok = c <= 0; break;
        case HUDI_CMP_EQ: ok = c == 0; break;
        case HUDI_CMP_GT:
        case HUDI_CMP_GT_TOTAL: ok = c > 0; break;
        case HUDI_CMP_GE:
        case HUDI_CMP_GE_TOTAL: ok = c >= 0; break;
        default: cr_assert_fail("operator %d", p[k].op); return false;
        }
        if (!ok) return false;
    }
    return true;
}

/* Scans all columns with the predicates (rows filtered; `eager` or late); every returned row
 * must be wanted and intact, every wanted row returned. Returns the scan's statistics. */
static hudi_pq_scan_stats scan(const char *path, bool nans, bool eager, const hudi_pq_predicate *p,
                               int32_t n, int64_t *rows) {
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_open(&pf, g_fs, path, NULL, &err), 0, "%s", err.message);
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.batch_rows = 700;
    o.predicates = p;
    o.n_predicates = n;
    o.filter_rows = true;
    o.eager_filter = eager;
    cr_assert_eq(hudi_pq_scan_open(&s, pf, &o, &err), 0, "%s", err.message);
    int64_t want = 0, got = 0, last = -1;
    for (int64_t i = 0; i < N_ROWS; i++) want += want_row(i, nans, p, n);
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(s, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int64_t r = 0; r < b->num_rows; r++) {
            int64_t id = ((const int64_t *)b->columns[0]->values)[r];
            cr_assert_gt(id, last, "rows out of order");
            last = id;
            bool null = !hudi_array_is_valid(b->columns[1], r);
            cr_assert_eq(null, is_null(id), "row %lld", (long long)id);
            double d = null ? 0 : ((const double *)b->columns[1]->values)[r];
            double e = d_of(id, nans);
            cr_assert(null || (isnan(e) ? isnan(d) : d == e && signbit(d) == signbit(e)),
                      "row %lld: d %g", (long long)id, d);
            cr_assert(want_row(id, nans, p, n), "row %lld should have been dropped", (long long)id);
            char u[32];
            snprintf(u, sizeof(u), "row-%lld", (long long)id);
            const hudi_array *ua = b->columns[2];
            cr_assert_eq((size_t)(ua->offsets[r + 1] - ua->offsets[r]), strlen(u));
            cr_assert(memcmp(ua->data + ua->offsets[r], u, strlen(u)) == 0);
            got++;
        }
    }
    cr_assert_eq(got, want, "%lld rows returned, %lld expected", (long long)got, (long long)want);
    hudi_pq_scan_stats st = *hudi_pq_scan_get_stats(s);
    hudi_pq_scan_free(s);
    hudi_pq_close(pf);
    if (rows) *rows = got;
    return st;
}

static hudi_pq_predicate on_d(hudi_cmp_op op, double c) {
    return (hudi_pq_predicate){1, op, {.f64 = c}};
}

Test(nan_order, nan_rows_pass_at_page_and_row_group_boundaries) {
    const char *path = write_file("nan.parquet", true);
    for (int eager = 0; eager < 2; eager++) {
        int64_t rows;
        /* above every number in the file: only the six NaN rows */
        hudi_pq_predicate gt = on_d(HUDI_CMP_GT_TOTAL, 1e9);
        hudi_pq_scan_stats st = scan(path, true, eager, &gt, 1, &rows);
        cr_assert_eq(rows, 6);
        /* every row group holds a NaN (its chunk has a NaN count > 0): none skipped */
        cr_assert_eq(st.row_groups_skipped, 0);
        hudi_pq_predicate ge = on_d(HUDI_CMP_GE_TOTAL, 29990.5);
        scan(path, true, eager, &ge, 1, &rows);
        cr_assert_eq(rows, 9 + 6); /* 29990.5 .. 29998.5, and the NaNs */
        /* the IEEE operators drop NaN: GT 1e9 matches nothing */
        hudi_pq_predicate ieee = on_d(HUDI_CMP_GT, 1e9);
        scan(path, true, eager, &ieee, 1, &rows);
        cr_assert_eq(rows, 0);
        /* -0.0 and 0.0 compare equal: GE 0.0 keeps row 0 */
        hudi_pq_predicate zero = on_d(HUDI_CMP_GE_TOTAL, 0.0);
        scan(path, true, eager, &zero, 1, NULL);
        zero = on_d(HUDI_CMP_GT_TOTAL, -0.0);
        scan(path, true, eager, &zero, 1, NULL);
        /* a NaN constant: nothing is above NaN, and only NaN is at or above it */
        hudi_pq_predicate nan = on_d(HUDI_CMP_GT_TOTAL, NAN);
        scan(path, true, eager, &nan, 1, &rows);
        cr_assert_eq(rows, 0);
        nan = on_d(HUDI_CMP_GE_TOTAL, NAN);
        scan(path, true, eager, &nan, 1, &rows);
        cr_assert_eq(rows, 6);
        /* with a second predicate on another column (late: both decoded first) */
        hudi_pq_predicate two[2] = {on_d(HUDI_CMP_GE_TOTAL, 9000.0),
                                    {0, HUDI_CMP_LT, {.i64 = 21000}}};
        scan(path, true, eager, two, 2, NULL);
        /* GT_TOTAL on an integer column is GT */
        hudi_pq_predicate id = {0, HUDI_CMP_GT_TOTAL, {.i64 = 29000}};
        scan(path, true, eager, &id, 1, &rows);
        cr_assert_eq(rows, 999);
    }
}

Test(nan_order, without_nan_statistics_and_page_index_skip) {
    const char *path = write_file("no_nan.parquet", false);
    for (int eager = 0; eager < 2; eager++) {
        int64_t rows;
        /* NaN counts of 0 everywhere: the bounds decide as for GT */
        hudi_pq_predicate gt = on_d(HUDI_CMP_GT_TOTAL, 28500.5);
        hudi_pq_scan_stats st = scan(path, false, eager, &gt, 1, &rows);
        cr_assert_eq(st.row_groups_skipped, 2);
        cr_assert_geq(st.pages_skipped, 8); /* 20000-27999 */
        cr_assert_gt(rows, 0);
        hudi_pq_predicate ge = on_d(HUDI_CMP_GE_TOTAL, 1000.5);
        st = scan(path, false, eager, &ge, 1, NULL);
        cr_assert_geq(st.pages_skipped, 1); /* rows 0-999 */
        /* a NaN constant proves nothing from bounds; no row is NaN */
        hudi_pq_predicate nan = on_d(HUDI_CMP_GE_TOTAL, NAN);
        st = scan(path, false, eager, &nan, 1, &rows);
        cr_assert_eq(rows, 0);
        cr_assert_eq(st.row_groups_skipped, 0);
    }
}

/* The filter batches callers apply themselves (the read layer on converted values): the same
 * comparison through hudi_pq_eval_predicate, with nulls, NaN, infinities and a float column. */
Test(nan_order, eval_predicate_orders_nan_last) {
    hudi_field fd = {.type = HUDI_TYPE_DOUBLE, .nullable = true, .field_id = -1};
    hudi_field ff = {.type = HUDI_TYPE_FLOAT, .nullable = true, .field_id = -1};
    const double v[] = {1.0, NAN, -INFINITY, INFINITY, 2.0, -0.0, 0.0};
    const int n = (int)(sizeof(v) / sizeof(v[0]));
    for (int t = 0; t < 2; t++) {
        hudi_array *a = NULL;
        cr_assert_eq(hudi_array_new(&a, t ? &ff : &fd, NULL), 0);
        for (int i = 0; i < n; i++) {
            if (t) {
                float x = (float)v[i];
                cr_assert_eq(hudi_array_append_fixed(a, &x, NULL), 0);
            } else {
                cr_assert_eq(hudi_array_append_fixed(a, &v[i], NULL), 0);
            }
        }
        cr_assert_eq(hudi_array_append_null(a, NULL), 0);
        const double cs[] = {1.0, 0.0, -0.0, INFINITY, NAN};
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); k++) {
            for (int op = 0; op < 2; op++) {
                uint8_t keep[8];
                memset(keep, 1, sizeof(keep));
                hudi_value c = {.f64 = cs[k]};
                hudi_cmp_op o = op ? HUDI_CMP_GE_TOTAL : HUDI_CMP_GT_TOTAL;
                cr_assert_eq(hudi_pq_eval_predicate(a, o, &c, keep, NULL), 0);
                for (int i = 0; i < n; i++) {
                    int x = spark_cmp(v[i], cs[k]);
                    cr_assert_eq(keep[i], op ? x >= 0 : x > 0, "type %d op %d c %g row %d", t, op,
                                 cs[k], i);
                }
                cr_assert_eq(keep[n], 0, "null row kept");
            }
        }
        hudi_array_free(a);
    }
}
