/* dynfilter_test.c - the dynamic filter of a top-N in Parquet scans (reader_dynamic.c): rows
 * after the boundary are dropped (late and eager alike), row groups skipped by statistics and
 * pages by the page index, nulls kept only when they sort first, NaN (above every number)
 * kept by a descending filter and never skipped by bounds that do not count it. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "format/parquet/parquet.h"
#include "schema_spec.h"
#include "support.h"

static hudi_fs *g_fs;

static void setup(void) { cr_assert_eq(hudi_fs_local_new(&g_fs, NULL), 0); }
static void teardown(void) { hudi_fs_free(g_fs); }

TestSuite(dynfilter, .init = setup, .fini = teardown);

#define N_ROWS 30000

/* d of row i: i, null every 97th row, NaN every 1000th from 25000 on when `nans`. */
static bool is_null(int64_t i) { return i % 97 == 5; }
static double d_of(int64_t i, bool nans) {
    return nans && i >= 25000 && i % 1000 == 7 ? NAN : (double)i;
}

/* id long, d double?, u string: pages of 1000 rows, row groups of 10000, with a page index. */
static const char *write_file(const char *name, bool nans) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
    hudi_field schema = spec_record("dyn", "id long, d double?, u string");
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

/* Sets the filter's boundary to the double v. */
static void tighten(hudi_pq_dynfilter *f, double v) {
    hudi_field fd = {.type = HUDI_TYPE_DOUBLE, .nullable = true, .field_id = -1};
    hudi_array *a = NULL;
    cr_assert_eq(hudi_array_new(&a, &fd, NULL), 0);
    cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
    hudi_pq_dynfilter_tighten(f, a, 0);
    hudi_array_free(a);
}

/* Scans every column with the filter on d; checks each returned row against `keep` and that
 * every row `keep` accepts came; returns the scan's statistics. */
static hudi_pq_scan_stats scan(const char *path, hudi_pq_dynfilter *f, bool eager, bool nans,
                               bool (*keep)(int64_t i, double d, bool null)) {
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *s = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_open(&pf, g_fs, path, NULL, &err), 0, "%s", err.message);
    hudi_pq_scan_options o = HUDI_PQ_SCAN_OPTIONS_INIT;
    o.batch_rows = 700;
    o.dynamic = f;
    o.dynamic_column = 1;
    o.eager_filter = eager;
    cr_assert_eq(hudi_pq_scan_open(&s, pf, &o, &err), 0, "%s", err.message);
    int64_t want = 0, got = 0;
    for (int64_t i = 0; i < N_ROWS; i++) want += keep(i, d_of(i, nans), is_null(i));
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_pq_scan_next(s, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int64_t r = 0; r < b->num_rows; r++) {
            int64_t id = ((const int64_t *)b->columns[0]->values)[r];
            bool null = !hudi_array_is_valid(b->columns[1], r);
            double d = null ? 0 : ((const double *)b->columns[1]->values)[r];
            cr_assert_eq(null, is_null(id), "row %lld", (long long)id);
            cr_assert(null || d == d_of(id, nans) || (isnan(d) && isnan(d_of(id, nans))));
            cr_assert(keep(id, d, null), "row %lld should have been dropped", (long long)id);
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
    return st;
}

static bool asc_2500(int64_t i, double d, bool null) { return !null && d <= 2500 && i >= 0; }
static bool asc_2500_nulls(int64_t i, double d, bool null) { return null || asc_2500(i, d, null); }
static bool desc_28500(int64_t i, double d, bool null) {
    (void)i;
    return !null && (isnan(d) || d >= 28500);
}
static bool nan_only(int64_t i, double d, bool null) {
    (void)i;
    return !null && isnan(d);
}
static bool all_rows(int64_t i, double d, bool null) {
    (void)i, (void)d, (void)null;
    return true;
}

Test(dynfilter, ascending_nulls_last_skips_row_groups_and_pages) {
    const char *path = write_file("asc.parquet", false);
    hudi_pq_dynfilter f;
    for (int eager = 0; eager < 2; eager++) {
        hudi_pq_dynfilter_init(&f, HUDI_TYPE_DOUBLE, false, false);
        hudi_pq_scan_stats st = scan(path, &f, eager, false, all_rows); /* no boundary yet */
        cr_assert_eq(st.rows_dynamic_dropped + st.row_groups_dynamic_skipped, 0);
        tighten(&f, 4000);
        tighten(&f, 2500);
        tighten(&f, 9000); /* never loosens */
        st = scan(path, &f, eager, false, asc_2500);
        cr_assert_eq(st.row_groups_dynamic_skipped, 2); /* d from 10000 on */
        cr_assert_geq(st.pages_dynamic_skipped, 7);     /* pages from 3000 on of the first */
        cr_assert_gt(st.rows_dynamic_dropped, 0);
        cr_assert_eq(atomic_load(&f.row_groups_skipped), 2);
    }
    /* descending without NaN: the page index's NaN counts of 0 let pages be skipped too */
    hudi_pq_dynfilter_init(&f, HUDI_TYPE_DOUBLE, true, false);
    tighten(&f, 28500);
    hudi_pq_scan_stats sd = scan(path, &f, false, false, desc_28500);
    cr_assert_eq(sd.row_groups_dynamic_skipped, 2);
    cr_assert_geq(sd.pages_dynamic_skipped, 8); /* 20000-27999 */
    /* NULLS FIRST: nulls pass, so only pages and row groups without nulls are skipped (every
     * page here has some), and rows after the boundary still go */
    hudi_pq_dynfilter_init(&f, HUDI_TYPE_DOUBLE, false, true);
    tighten(&f, 2500);
    hudi_pq_scan_stats st = scan(path, &f, false, false, asc_2500_nulls);
    cr_assert_eq(st.row_groups_dynamic_skipped + st.pages_dynamic_skipped, 0);
    cr_assert_gt(st.rows_dynamic_dropped, 0);
}

Test(dynfilter, descending_keeps_nan) {
    const char *path = write_file("desc_nan.parquet", true);
    hudi_pq_dynfilter f;
    for (int eager = 0; eager < 2; eager++) {
        hudi_pq_dynfilter_init(&f, HUDI_TYPE_DOUBLE, true, false);
        tighten(&f, 28500);
        hudi_pq_scan_stats st = scan(path, &f, eager, true, desc_28500);
        /* row groups 0 and 1 hold no NaN (NaN count 0) and nothing >= 28500 */
        cr_assert_eq(st.row_groups_dynamic_skipped, 2);
        /* the last holds NaNs: no chunk bounds, and no column index (pages holding a NaN
         * have no bounds, so the writer writes none for the chunk): read, rows dropped */
        cr_assert_eq(st.pages_dynamic_skipped, 0);
        cr_assert_gt(st.rows_dynamic_dropped, 0);
    }
    /* a NaN boundary (descending): only NaN rows remain */
    hudi_pq_dynfilter_init(&f, HUDI_TYPE_DOUBLE, true, false);
    tighten(&f, NAN);
    scan(path, &f, false, true, nan_only);
}
