/* stats_test.c - created_by parsing, statistics trust rules, typed comparison and the
 * writer's accumulators, checked against the statistics real writers put in the
 * parquet-testing fixtures (docs/formats/parquet.md §6.1-6.4, §9), plus INT96 conversion (§5.4). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "format/parquet/int96.h"
#include "format/parquet/meta.h"
#include "format/parquet/stats.h"
#include "support.h"

/* ---- helpers ---- */

static pq_schema_element leaf(int type, int type_length, int converted, int logical) {
    pq_schema_element e;
    memset(&e, 0, sizeof(e));
    e.has_type = true;
    e.type = type;
    e.has_type_length = type_length > 0;
    e.type_length = type_length;
    if (converted >= 0) e.has_converted_type = true, e.converted_type = converted;
    if (logical >= 0) e.has_logical_type = true, e.logical_type.kind = logical;
    return e;
}

static pq_writer_version writer(const char *created_by) {
    pq_writer_version v;
    hudi_pq_writer_version_parse(&v, created_by != NULL,
                                 created_by ? hudi_slice_cstr(created_by) : HUDI_SLICE(NULL, 0));
    return v;
}

typedef struct fixture_meta {
    uint8_t *file;
    hudi_arena arena;
    pq_file_meta meta;
    pq_writer_version writer;
} fixture_meta;

static void load_meta(fixture_meta *fm, const char *name) {
    size_t len = 0;
    memset(fm, 0, sizeof(*fm));
    fm->file = test_read_file(fixture_path(name), &len);
    cr_assert_not_null(fm->file, "%s", name);
    uint32_t flen = hudi_load_u32le(fm->file + len - 8);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_decode_file_meta(&fm->meta, &fm->arena,
                                          HUDI_SLICE(fm->file + len - 8 - flen, flen), &err),
                 0, "%s: %s", name, err.message);
    hudi_pq_writer_version_parse(&fm->writer, fm->meta.has_created_by, fm->meta.created_by);
}

static void free_meta(fixture_meta *fm) {
    hudi_arena_dispose(&fm->arena);
    free(fm->file);
}

/* The view of column `c` (leaf index) in row group `g`. */
static pq_stats_view view_of(fixture_meta *fm, int g, int c) {
    const pq_column_meta *cm = &fm->meta.row_groups[g].columns[c].meta_data;
    /* Leaves are the schema elements without children, in order. */
    const pq_schema_element *el = NULL;
    for (int i = 0, k = 0; i < fm->meta.n_schema; i++)
        if (fm->meta.schema[i].num_children == 0 && k++ == c) el = &fm->meta.schema[i];
    cr_assert_not_null(el);
    int order = fm->meta.n_column_orders > c ? fm->meta.column_orders[c] : PQ_STATS_ORDER_ABSENT;
    pq_stats_view v;
    hudi_pq_stats_view_init(&v, &fm->writer, el, order,
                            cm->has_statistics ? &cm->statistics : NULL);
    return v;
}

static hudi_slice f32(float f, uint8_t buf[4]) {
    uint32_t u;
    memcpy(&u, &f, 4);
    hudi_store_u32le(buf, u);
    return HUDI_SLICE(buf, 4);
}
static hudi_slice f64(double d, uint8_t buf[8]) {
    uint64_t u;
    memcpy(&u, &d, 8);
    hudi_store_u64le(buf, u);
    return HUDI_SLICE(buf, 8);
}
/* float -> half bits, for values exactly representable in half precision (and NaN). */
static uint16_t half(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    if (isnan(f)) return 0x7E00;
    if (f == 0.0f) return sign;
    int e = (int)((u >> 23) & 0xFF) - 127 + 15;
    return (uint16_t)(sign | (e << 10) | ((u >> 13) & 0x3FF));
}

/* ---- created_by ---- */

Test(stats, created_by_forms) {
    static const struct {
        const char *s;
        const char *app;
        int app_id;
        bool has_version;
        int maj, min, patch;
        bool pre;
    } cases[] = {
        {"parquet-mr version 1.12.3 (build f8dced182c4c1fbdec6ccb3185537b5a01e6ed6b)", "parquet-mr",
         PQ_APP_PARQUET_MR, true, 1, 12, 3, false},
        {"parquet-mr", "parquet-mr", PQ_APP_PARQUET_MR, false, 0, 0, 0, false},
        {"parquet-cpp-arrow version 19.0.0-SNAPSHOT", "parquet-cpp-arrow", PQ_APP_PARQUET_CPP_ARROW,
         true, 19, 0, 0, true},
        {"parquet-cpp version 1.5.1-SNAPSHOT", "parquet-cpp", PQ_APP_PARQUET_CPP, true, 1, 5, 1,
         true},
        {"parquet-rs version 53.2.0", "parquet-rs", PQ_APP_PARQUET_RS, true, 53, 2, 0, false},
        {"DuckDB version v1.5.6 (build 1234abcd)", "DuckDB", PQ_APP_DUCKDB, true, 1, 5, 6, false},
        {"impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc4c3ac1e1dd2e5a0a8ab8)", "impala",
         PQ_APP_IMPALA, true, 1, 3, 0, true},
        {"Polars", "Polars", PQ_APP_OTHER, false, 0, 0, 0, false},
        {"UrbanLogiq", "UrbanLogiq", PQ_APP_OTHER, false, 0, 0, 0, false},
        {"HVR 5.3.0/9 (linux_glibc2.5-x64-64bit)", "HVR 5.3.0/9 (linux_glibc2.5-x64-64bit)",
         PQ_APP_OTHER, false, 0, 0, 0, false},
        {"cpp version BuildInfo:xyz", "cpp", PQ_APP_OTHER, false, 0, 0, 0, false},
        {"parquet-cpp version(..151-SNAPSHOT", "parquet-cpp", PQ_APP_PARQUET_CPP, false, 0, 0, 0,
         false},
        {"  parquet-mr version 1.8  ", "parquet-mr", PQ_APP_PARQUET_MR, true, 1, 8, 0, false},
        {"parquet-mr version 1.10.0+build5", "parquet-mr", PQ_APP_PARQUET_MR, true, 1, 10, 0,
         false},
        {"parquet-mr version 99999999999999.1.2", "parquet-mr", PQ_APP_PARQUET_MR, true, 999999999,
         1, 2, false},
        {"hudic version 0.1.0", "hudic", PQ_APP_HUDIC, true, 0, 1, 0, false},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cases); i++) {
        pq_writer_version v = writer(cases[i].s);
        cr_assert(v.present, "%s", cases[i].s);
        cr_assert(hudi_slice_eq(v.app_name, hudi_slice_cstr(cases[i].app)), "%s: app '%.*s'",
                  cases[i].s, (int)v.app_name.len, v.app_name.data);
        cr_assert_eq(v.app, cases[i].app_id, "%s", cases[i].s);
        cr_assert_eq(v.has_version, cases[i].has_version, "%s", cases[i].s);
        if (!cases[i].has_version) continue;
        cr_assert_eq(v.major, cases[i].maj, "%s", cases[i].s);
        cr_assert_eq(v.minor, cases[i].min, "%s", cases[i].s);
        cr_assert_eq(v.patch, cases[i].patch, "%s", cases[i].s);
        cr_assert_eq(v.pre_release, cases[i].pre, "%s", cases[i].s);
    }
    pq_writer_version v = writer(NULL);
    cr_assert(!v.present);
    v = writer("   ");
    cr_assert(!v.present);
    /* Garbage bytes never crash the parser. */
    uint8_t junk[64];
    for (int i = 0; i < 64; i++) junk[i] = (uint8_t)(i * 37 + 11);
    hudi_pq_writer_version_parse(&v, true, HUDI_SLICE(junk, sizeof(junk)));
}

Test(stats, version_ordering) {
    pq_writer_version v = writer("parquet-mr version 1.8.0");
    cr_assert(!hudi_pq_writer_version_older(&v, 1, 8, 0));
    cr_assert(hudi_pq_writer_version_older(&v, 1, 10, 0));
    v = writer("parquet-mr version 1.8.0-SNAPSHOT");
    cr_assert(hudi_pq_writer_version_older(&v, 1, 8, 0));
    v = writer("parquet-mr version 1.7.9");
    cr_assert(hudi_pq_writer_version_older(&v, 1, 8, 0));
    v = writer("parquet-mr version 2");
    cr_assert(!hudi_pq_writer_version_older(&v, 1, 8, 0));
    v = writer("parquet-mr");
    cr_assert(hudi_pq_writer_version_older(&v, 1, 8, 0)); /* unknown version: assume old */
}

/* ---- trust rules ---- */

static pq_statistics deprecated_pair(const char *min, const char *max) {
    pq_statistics st;
    memset(&st, 0, sizeof(st));
    st.has_min = st.has_max = true;
    st.min = hudi_slice_cstr(min);
    st.max = hudi_slice_cstr(max);
    st.has_null_count = true;
    return st;
}

Test(stats, parquet_251_and_297) {
    pq_schema_element str = leaf(PQ_BYTE_ARRAY, 0, PQ_CT_UTF8, PQ_LT_STRING);
    pq_statistics eq = deprecated_pair("abc", "abc");
    static const struct {
        const char *created_by;
        bool usable;
    } cases[] = {
        {"parquet-mr version 1.7.0 (build x)", false}, /* PARQUET-251 */
        {"parquet-mr version 1.8.0-SNAPSHOT", false},
        {"parquet-mr version 1.8.0 (build x)", true},
        {"parquet-mr version 1.12.3", true},
        {"parquet-mr", false}, /* version unknown */
        {NULL, false},         /* PARQUET-297 */
        {"", false},
        {"Polars", true},
        {"parquet-cpp version 1.2.0", true},
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cases); i++) {
        pq_writer_version w = writer(cases[i].created_by);
        pq_stats_view v;
        hudi_pq_stats_view_init(&v, &w, &str, PQ_ORDER_TYPE, &eq);
        cr_assert_eq(v.has_min && v.has_max, cases[i].usable, "%s",
                     cases[i].created_by ? cases[i].created_by : "(null)");
        cr_assert(v.has_null_count);
    }
    /* Unequal deprecated string bounds are signed-ordered: never usable. */
    pq_writer_version w = writer("parquet-mr version 1.12.3");
    pq_statistics ne = deprecated_pair("Abc", "\xC3\xA9t\xC3\xA9");
    pq_stats_view v;
    hudi_pq_stats_view_init(&v, &w, &str, PQ_ORDER_TYPE, &ne);
    cr_assert(!v.has_min && !v.has_max);
    /* Integer deprecated bounds are fine even from old writers. */
    pq_schema_element i32 = leaf(PQ_INT32, 0, -1, -1);
    pq_statistics st;
    memset(&st, 0, sizeof(st));
    uint8_t a[4], b[4];
    hudi_store_u32le(a, (uint32_t)-5);
    hudi_store_u32le(b, 7);
    st.has_min = st.has_max = true, st.min = HUDI_SLICE(a, 4), st.max = HUDI_SLICE(b, 4);
    w = writer("parquet-mr version 1.6.0");
    hudi_pq_stats_view_init(&v, &w, &i32, PQ_STATS_ORDER_ABSENT, &st);
    cr_assert(v.has_min && v.has_max && v.min_exact && v.max_exact);
    cr_assert_eq(v.kind, PQ_SORT_INT32);
    /* ...but not for an unsigned column (signed-ordered). */
    pq_schema_element u32 = leaf(PQ_INT32, 0, PQ_CT_UINT_32, -1);
    hudi_pq_stats_view_init(&v, &w, &u32, PQ_ORDER_TYPE, &st);
    cr_assert(!v.has_min && !v.has_max);
    cr_assert_eq(v.kind, PQ_SORT_UINT32);
    /* A wrong width is dropped, not read past. */
    st.min = HUDI_SLICE(a, 3);
    hudi_pq_stats_view_init(&v, &w, &i32, PQ_ORDER_TYPE, &st);
    cr_assert(!v.has_min && v.has_max);
    /* An unknown column order leaves no bounds; INT96 under TYPE_ORDER neither. */
    st.min = HUDI_SLICE(a, 4);
    hudi_pq_stats_view_init(&v, &w, &i32, PQ_ORDER_UNKNOWN, &st);
    cr_assert(!v.has_min && !v.has_max);
    pq_schema_element i96 = leaf(PQ_INT96, 0, -1, -1);
    hudi_pq_stats_view_init(&v, &w, &i96, PQ_ORDER_TYPE, &st);
    cr_assert_eq(v.kind, PQ_SORT_NONE);
    cr_assert(!v.has_min && !v.has_max);
    /* NULL statistics: nothing, and no crash. */
    hudi_pq_stats_view_init(&v, &w, &i32, PQ_ORDER_TYPE, NULL);
    cr_assert(!v.has_min && !v.has_null_count);
    /* Negative counts are treated as absent. */
    st.has_null_count = true, st.null_count = -1;
    hudi_pq_stats_view_init(&v, &w, &i32, PQ_ORDER_TYPE, &st);
    cr_assert(!v.has_null_count);
}

/* fixed_length_decimal.parquet (parquet-mr 1.8.2) holds 1.00..24.00 but its deprecated
 * min is 0x..C8 = 2.00: Java compared the bytes signed. The rules must drop it. */
Test(stats, deprecated_decimal_bounds_dropped) {
    fixture_meta fm;
    load_meta(&fm, "parquet-testing/data/fixed_length_decimal.parquet");
    const pq_statistics *st = &fm.meta.row_groups[0].columns[0].meta_data.statistics;
    cr_assert(st->has_min && st->min.len == 11 && st->min.data[10] == 0xC8);
    pq_stats_view v = view_of(&fm, 0, 0);
    cr_assert_eq(v.kind, PQ_SORT_DECIMAL);
    cr_assert(!v.has_min && !v.has_max);
    cr_assert(v.has_null_count && v.null_count == 0);
    free_meta(&fm);
}

Test(stats, nan_in_stats_fixture) {
    fixture_meta fm;
    load_meta(&fm, "parquet-testing/data/nan_in_stats.parquet");
    cr_assert_eq(fm.writer.app, PQ_APP_PARQUET_CPP);
    pq_stats_view v = view_of(&fm, 0, 0);
    cr_assert_eq(v.kind, PQ_SORT_DOUBLE);
    cr_assert(!v.has_min && !v.has_max, "max = NaN makes the bounds unusable");
    free_meta(&fm);
    /* The same by hand, with only the deprecated pair and only min NaN. */
    pq_schema_element d = leaf(PQ_DOUBLE, 0, -1, -1);
    pq_writer_version w = writer("parquet-cpp version 1.3.2-SNAPSHOT");
    uint8_t a[8], b[8];
    pq_statistics st;
    memset(&st, 0, sizeof(st));
    st.has_min = st.has_max = true;
    st.min = f64(NAN, a), st.max = f64(1.0, b);
    hudi_pq_stats_view_init(&v, &w, &d, PQ_ORDER_TYPE, &st);
    cr_assert(!v.has_min && !v.has_max);
}

Test(stats, float_zero_widening) {
    pq_schema_element f = leaf(PQ_FLOAT, 0, -1, -1);
    pq_writer_version w = writer("parquet-mr version 1.12.3");
    uint8_t a[4], b[4];
    pq_statistics st;
    memset(&st, 0, sizeof(st));
    st.has_min_value = st.has_max_value = true;
    st.min_value = f32(0.0f, a), st.max_value = f32(-0.0f, b);
    pq_stats_view v;
    hudi_pq_stats_view_init(&v, &w, &f, PQ_ORDER_TYPE, &st);
    cr_assert(v.has_min && v.has_max);
    cr_assert_eq(hudi_load_u32le(v.min.data), 0x80000000u, "+0 min widened to -0");
    cr_assert_eq(hudi_load_u32le(v.max.data), 0x00000000u, "-0 max widened to +0");
    cr_assert(!v.min_exact && !v.max_exact);
    /* Under IEEE_754_TOTAL_ORDER zeros are distinct values: no widening. */
    hudi_pq_stats_view_init(&v, &w, &f, PQ_ORDER_IEEE754_TOTAL, &st);
    cr_assert_eq(v.kind, PQ_SORT_FLOAT_TOTAL);
    cr_assert_eq(hudi_load_u32le(v.min.data), 0u);
    cr_assert_eq(hudi_load_u32le(v.max.data), 0x80000000u);
}

/* floating_orders_nan_count.parquet: 5 row groups x {float,double,float16} x {ieee754,typedef}. */
static const float RG_VALUES[5][10] = {
    {-2, -1, -0.0f, 0, 0.5f, 1, 2, 3, 4, 5},
    {NAN, -2, NAN, -1, -0.0f, 0, 1, NAN, 3, NAN},
    {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN},
    {0, 0, 0, 0.5f, 1, 1.5f, 2, 3, 4, 5},
    {-5, -4, -3, -2, -1.5f, -1, -0.5f, -0.0f, -0.0f, -0.0f},
};

Test(stats, floating_orders_nan_count_fixture) {
    fixture_meta fm;
    load_meta(&fm, "parquet-testing/data/floating_orders_nan_count.parquet");
    cr_assert_eq(fm.meta.n_row_groups, 5);
    for (int g = 0; g < 5; g++) {
        for (int c = 0; c < 6; c++) {
            pq_stats_view v = view_of(&fm, g, c);
            bool ieee = c % 2 == 0;
            static const int typedef_kinds[3] = {PQ_SORT_FLOAT, PQ_SORT_DOUBLE, PQ_SORT_FLOAT16};
            static const int total_kinds[3] = {PQ_SORT_FLOAT_TOTAL, PQ_SORT_DOUBLE_TOTAL,
                                               PQ_SORT_FLOAT16_TOTAL};
            cr_assert_eq(v.kind, ieee ? total_kinds[c / 2] : typedef_kinds[c / 2], "rg %d col %d",
                         g, c);
            cr_assert(v.has_nan_count);
            int nans = g == 1 ? 4 : g == 2 ? 10 : 0;
            cr_assert_eq(v.nan_count, nans, "rg %d col %d", g, c);
            if (!ieee && (g == 1 || g == 2)) {
                /* RG1 typedef: no min/max written; RG2: all NaN. */
                cr_assert(!v.has_min && !v.has_max, "rg %d col %d", g, c);
                continue;
            }
            cr_assert(v.has_min && v.has_max, "rg %d col %d", g, c);
            cr_assert_leq(hudi_pq_stats_compare(v.kind, v.min, v.max), 0, "rg %d col %d", g, c);
        }
    }
    /* RG2 ieee754 float: min/max are the NaNs FF FF FF FF / FF FF FF 7F; -NaN < +NaN. */
    pq_stats_view v = view_of(&fm, 2, 0);
    cr_assert_eq(hudi_load_u32le(v.min.data), 0xFFFFFFFFu);
    cr_assert_eq(hudi_load_u32le(v.max.data), 0x7FFFFFFFu);
    uint8_t one[4];
    cr_assert_lt(hudi_pq_stats_compare(v.kind, v.min, f32(-INFINITY, one)), 0);
    cr_assert_gt(hudi_pq_stats_compare(v.kind, v.max, f32(INFINITY, one)), 0);
    /* RG3: typedef min -0.0, ieee754 min +0.0. RG4: typedef max +0.0, ieee754 max -0.0. */
    cr_assert_eq(hudi_load_u32le(view_of(&fm, 3, 1).min.data), 0x80000000u);
    cr_assert_eq(hudi_load_u32le(view_of(&fm, 3, 0).min.data), 0u);
    cr_assert_eq(hudi_load_u32le(view_of(&fm, 4, 1).max.data), 0u);
    cr_assert_eq(hudi_load_u32le(view_of(&fm, 4, 0).max.data), 0x80000000u);
    /* Total order tells -0 and +0 apart; TYPE_ORDER does not. */
    uint8_t z1[4], z2[4];
    cr_assert_lt(hudi_pq_stats_compare(PQ_SORT_FLOAT_TOTAL, f32(-0.0f, z1), f32(0.0f, z2)), 0);
    cr_assert_eq(hudi_pq_stats_compare(PQ_SORT_FLOAT, f32(-0.0f, z1), f32(0.0f, z2)), 0);

    /* Our writer reproduces the typedef columns' statistics byte for byte. */
    for (int g = 0; g < 5; g++) {
        pq_schema_element ef = leaf(PQ_FLOAT, 0, -1, -1), ed = leaf(PQ_DOUBLE, 0, -1, -1);
        pq_schema_element eh = leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, -1, PQ_LT_FLOAT16);
        pq_stats_acc af, ad, ah;
        hudi_pq_stats_acc_init(&af, &ef, 0);
        hudi_pq_stats_acc_init(&ad, &ed, 0);
        hudi_pq_stats_acc_init(&ah, &eh, 0);
        double dv[10];
        uint8_t hv[20];
        for (int i = 0; i < 10; i++) {
            dv[i] = RG_VALUES[g][i];
            uint16_t h = half(RG_VALUES[g][i]);
            hv[2 * i] = (uint8_t)h, hv[2 * i + 1] = (uint8_t)(h >> 8);
        }
        /* Split the float batch in two to exercise folding. */
        hudi_pq_stats_update_float(&af, RG_VALUES[g], 3);
        hudi_pq_stats_update_float(&af, RG_VALUES[g] + 3, 7);
        hudi_pq_stats_update_double(&ad, dv, 10);
        cr_assert_eq(hudi_pq_stats_update_fixed(&ah, hv, 2, 10, NULL), 0);
        pq_stats_acc *accs[3] = {&af, &ad, &ah};
        for (int k = 0; k < 3; k++) {
            pq_statistics mine;
            cr_assert_eq(hudi_pq_stats_acc_finish(accs[k], &mine, NULL), 0);
            const pq_statistics *theirs =
                &fm.meta.row_groups[g].columns[2 * k + 1].meta_data.statistics;
            cr_assert_eq(mine.nan_count, theirs->nan_count, "rg %d kind %d", g, k);
            cr_assert_eq(mine.has_min_value, theirs->has_min_value, "rg %d kind %d", g, k);
            if (!mine.has_min_value) continue;
            cr_assert(hudi_slice_eq(mine.min_value, theirs->min_value), "rg %d kind %d min", g, k);
            cr_assert(hudi_slice_eq(mine.max_value, theirs->max_value), "rg %d kind %d max", g, k);
            hudi_pq_stats_acc_dispose(accs[k]);
        }
        hudi_pq_stats_acc_dispose(&af);
        hudi_pq_stats_acc_dispose(&ad);
        hudi_pq_stats_acc_dispose(&ah);
    }
    free_meta(&fm);
}

Test(stats, float16_fixture) {
    fixture_meta fm;
    load_meta(&fm, "parquet-testing/data/float16_nonzeros_and_nans.parquet");
    pq_stats_view v = view_of(&fm, 0, 0);
    cr_assert_eq(v.kind, PQ_SORT_FLOAT16);
    cr_assert(v.has_min && v.has_max);
    cr_assert_eq(hudi_load_u16le(v.min.data), 0xC000); /* -2 */
    cr_assert_eq(hudi_load_u16le(v.max.data), 0x4000); /* +2 */
    cr_assert_eq(v.null_count, 1);
    free_meta(&fm);
}

/* ---- comparison ---- */

static int cmp_hex(int kind, const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    return hudi_pq_stats_compare(kind, HUDI_SLICE(a, la), HUDI_SLICE(b, lb));
}

Test(stats, decimal_compare) {
    /* BYTE_ARRAY decimals have minimal, varying lengths (byte_array_decimal.parquet). */
    const uint8_t d100[] = {0x64}, d200[] = {0x00, 0xC8}, m1[] = {0xFF}, m1w[] = {0xFF, 0xFF};
    const uint8_t m100[] = {0x9C}, m200[] = {0xFF, 0x38}, zero[] = {0x00},
                  d100w[] = {0x00, 0x00, 0x64};
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, d100, 1, d200, 2), 0);
    cr_assert_gt(cmp_hex(PQ_SORT_BYTES, d100, 1, d200, 2), 0, "plain bytes get this wrong");
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, m1, 1, zero, 1), 0);
    cr_assert_eq(cmp_hex(PQ_SORT_DECIMAL, m1, 1, m1w, 2), 0);
    cr_assert_eq(cmp_hex(PQ_SORT_DECIMAL, d100, 1, d100w, 3), 0);
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, m200, 2, m100, 1), 0);
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, m200, 2, d100, 1), 0);
    cr_assert_gt(cmp_hex(PQ_SORT_DECIMAL, d200, 2, m100, 1), 0);
    /* FLBA(11) as in fixed_length_decimal.parquet: 100 < 200 < 2400, -1 < 0. */
    uint8_t a[11] = {0}, b[11] = {0}, c[11] = {0}, n[11];
    a[10] = 0x64, b[10] = 0xC8, c[9] = 0x09, c[10] = 0x60;
    memset(n, 0xFF, 11);
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, a, 11, b, 11), 0);
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, b, 11, c, 11), 0);
    cr_assert_lt(cmp_hex(PQ_SORT_DECIMAL, n, 11, a, 11), 0);
    /* A decimal column's sort kind. */
    pq_schema_element flba = leaf(PQ_FIXED_LEN_BYTE_ARRAY, 11, PQ_CT_DECIMAL, -1);
    pq_schema_element ba = leaf(PQ_BYTE_ARRAY, 0, -1, PQ_LT_DECIMAL);
    pq_schema_element i32d = leaf(PQ_INT32, 0, PQ_CT_DECIMAL, PQ_LT_DECIMAL);
    cr_assert_eq(hudi_pq_stats_sort_kind(&flba, PQ_ORDER_TYPE), PQ_SORT_DECIMAL);
    cr_assert_eq(hudi_pq_stats_sort_kind(&ba, PQ_ORDER_TYPE), PQ_SORT_DECIMAL);
    cr_assert_eq(hudi_pq_stats_sort_kind(&i32d, PQ_ORDER_TYPE), PQ_SORT_INT32);
}

Test(stats, typed_compare) {
    uint8_t a[8], b[8];
    hudi_store_u32le(a, 0xFFFFFFFFu), hudi_store_u32le(b, 1);
    cr_assert_lt(cmp_hex(PQ_SORT_INT32, a, 4, b, 4), 0);
    cr_assert_gt(cmp_hex(PQ_SORT_UINT32, a, 4, b, 4), 0);
    hudi_store_u64le(a, 0x8000000000000000ull), hudi_store_u64le(b, 5);
    cr_assert_lt(cmp_hex(PQ_SORT_INT64, a, 8, b, 8), 0);
    cr_assert_gt(cmp_hex(PQ_SORT_UINT64, a, 8, b, 8), 0);
    /* Bytes: unsigned, shorter prefix first. */
    cr_assert_lt(cmp_hex(PQ_SORT_BYTES, (const uint8_t *)"ab", 2, (const uint8_t *)"abc", 3), 0);
    cr_assert_gt(cmp_hex(PQ_SORT_BYTES, (const uint8_t *)"\xC3\xA9", 2, (const uint8_t *)"z", 1),
                 0);
    cr_assert_eq(cmp_hex(PQ_SORT_BYTES, NULL, 0, NULL, 0), 0);
    /* Floats: numeric, NaN above everything. */
    cr_assert_lt(hudi_pq_stats_compare(PQ_SORT_FLOAT, f32(-1.5f, a), f32(1.0f, b)), 0);
    cr_assert_gt(hudi_pq_stats_compare(PQ_SORT_FLOAT, f32(NAN, a), f32(INFINITY, b)), 0);
    cr_assert_lt(hudi_pq_stats_compare(PQ_SORT_DOUBLE, f64(-INFINITY, a), f64(-1e300, b)), 0);
    cr_assert_gt(hudi_pq_stats_compare(PQ_SORT_DOUBLE_TOTAL, f64(-0.0, a), f64(-1e-300, b)), 0);
    /* FLOAT16: -2 < -0 == +0 < 1, NaN on top. */
    uint8_t h1[2] = {0x00, 0xC0}, h2[2] = {0x00, 0x80}, h3[2] = {0x00, 0x00}, h4[2] = {0x00, 0x3C},
            hn[2] = {0x00, 0x7E};
    cr_assert_lt(cmp_hex(PQ_SORT_FLOAT16, h1, 2, h2, 2), 0);
    cr_assert_eq(cmp_hex(PQ_SORT_FLOAT16, h2, 2, h3, 2), 0);
    cr_assert_lt(cmp_hex(PQ_SORT_FLOAT16_TOTAL, h2, 2, h3, 2), 0);
    cr_assert_lt(cmp_hex(PQ_SORT_FLOAT16, h3, 2, h4, 2), 0);
    cr_assert_gt(cmp_hex(PQ_SORT_FLOAT16, hn, 2, h4, 2), 0);
    /* Booleans; INT96 day then nanos (signed). */
    uint8_t f = 0, t = 1;
    cr_assert_lt(cmp_hex(PQ_SORT_BOOL, &f, 1, &t, 1), 0);
    uint8_t x[12] = {0}, y[12] = {0};
    hudi_store_u32le(x + 8, 2440588), hudi_store_u32le(y + 8, 2440589);
    hudi_store_u64le(x, 86399999999999ull);
    cr_assert_lt(cmp_hex(PQ_SORT_INT96, x, 12, y, 12), 0);
    /* Wrong widths degrade to bytes, no overread (ASan would catch it). */
    cr_assert_lt(cmp_hex(PQ_SORT_INT64, a, 3, b, 8), 0);
    /* Unsigned annotations. */
    pq_schema_element u8 = leaf(PQ_INT32, 0, PQ_CT_UINT_8, -1);
    pq_schema_element i64u = leaf(PQ_INT64, 0, -1, PQ_LT_INTEGER);
    i64u.logical_type.bit_width = 64, i64u.logical_type.is_signed = false;
    pq_schema_element unk =
        leaf(PQ_INT64, 0, PQ_CT_UINT_64, PQ_LT_NONE); /* unknown logical member */
    cr_assert_eq(hudi_pq_stats_sort_kind(&u8, PQ_ORDER_TYPE), PQ_SORT_UINT32);
    cr_assert_eq(hudi_pq_stats_sort_kind(&i64u, PQ_STATS_ORDER_ABSENT), PQ_SORT_UINT64);
    cr_assert_eq(hudi_pq_stats_sort_kind(&unk, PQ_ORDER_TYPE), PQ_SORT_UINT64);
    pq_schema_element interval = leaf(PQ_FIXED_LEN_BYTE_ARRAY, 12, PQ_CT_INTERVAL, -1);
    cr_assert_eq(hudi_pq_stats_sort_kind(&interval, PQ_ORDER_TYPE), PQ_SORT_NONE);
    pq_schema_element i96 = leaf(PQ_INT96, 0, -1, -1);
    cr_assert_eq(hudi_pq_stats_sort_kind(&i96, PQ_ORDER_INT96), PQ_SORT_INT96);
    pq_schema_element i32 = leaf(PQ_INT32, 0, -1, -1);
    cr_assert_eq(hudi_pq_stats_sort_kind(&i32, PQ_ORDER_IEEE754_TOTAL), PQ_SORT_NONE);
}

/* ---- truncation ---- */

static void check_trunc(bool is_max, const char *v, size_t vlen, uint32_t limit, bool utf8,
                        const char *want, size_t want_len, bool want_exact) {
    hudi_buf out = HUDI_BUF_INIT;
    bool exact = !want_exact;
    if (is_max)
        hudi_pq_stats_truncate_max(&out, HUDI_SLICE(v, vlen), limit, utf8, &exact);
    else
        hudi_pq_stats_truncate_min(&out, HUDI_SLICE(v, vlen), limit, utf8, &exact);
    cr_assert(hudi_slice_eq(HUDI_SLICE(out.data, out.len), HUDI_SLICE(want, want_len)),
              "%s of '%.*s' limit %u: got '%.*s'", is_max ? "max" : "min", (int)vlen, v, limit,
              (int)out.len, out.data);
    cr_assert_eq(exact, want_exact);
    hudi_buf_dispose(&out);
}
#define TRUNC(is_max, v, limit, utf8, want, exact)                                                 \
    check_trunc(is_max, v, sizeof(v) - 1, limit, utf8, want, sizeof(want) - 1, exact)

Test(stats, truncation_rules) {
    TRUNC(false, "Alice Johnson", 2, true, "Al", false);
    TRUNC(true, "Kevin Bacon", 2, true, "Kf", false);
    TRUNC(true, "Ke", 2, true, "Ke", true);
    TRUNC(false, "Al", 2, false, "Al", true);
    TRUNC(true, "\xF0\x9F\x9A\x80Kevin Bacon", 2, true, "\xF0\x9F\x9A\x80Kevin Bacon", true);
    TRUNC(true, "\xFF\xFF\x01\x02", 2, false, "\xFF\xFF\x01\x02", true);
    TRUNC(true, "\x01\xFF\xFF\x05", 3, false, "\x02", false);
    TRUNC(true, "abcd\xC3\xA9", 4, true, "abce", false);
    TRUNC(true, "\xC3\xA9\xE2\x82\xACx", 4, true, "\xC3\xAA", false);  /* é€x -> ê */
    TRUNC(true, "a\x7F\x7Fz", 2, true, "b", false);                    /* U+0080 needs 2 bytes */
    TRUNC(false, "\xC3\xA9\xE2\x82\xACx", 4, true, "\xC3\xA9", false); /* cut before € */
    TRUNC(false, "\xF0\x9F\x9A\x80x", 2, true, "\xF0\x9F\x9A\x80x", true);
    TRUNC(true, "abc", 0, false, "abc", true);
    TRUNC(true, "\xED\x9F\xBFz", 3, true, "\xEE\x80\x80", false); /* U+D7FF -> U+E000 */
}

/* binary_truncated_min_max.parquet (parquet-rs, 2-byte truncation): our writer produces the
 * same bounds and exact flags for the known values, and the reader keeps the flags. */
Test(stats, binary_truncated_min_max_fixture) {
    fixture_meta fm;
    load_meta(&fm, "parquet-testing/data/binary_truncated_min_max.parquet");
    pq_stats_view v = view_of(&fm, 0, 0);
    cr_assert_eq(v.kind, PQ_SORT_BYTES);
    cr_assert(hudi_slice_eq(v.min, hudi_slice_cstr("Al")) && !v.min_exact);
    cr_assert(hudi_slice_eq(v.max, hudi_slice_cstr("Kf")) && !v.max_exact);
    v = view_of(&fm, 0, 4);
    cr_assert(v.min_exact && v.max_exact);

    static const char *full[] = {"Blart Versenwald III", "Alice Johnson", "Bob Smith",
                                 "Kevin Bacon"};
    static const char *partial_utf8[] = {"Blart Versenwald III", "Alice Johnson",
                                         "\xF0\x9F\x9A\x80Kevin Bacon"};
    static const char *partial_bin[] = {"Blart Versenwald III", "Alice Johnson",
                                        "\xFF\xFF\x01\x02"};
    static const char *none[] = {"Blart Versenwald III", "Al", "Bob Smith", "Ke"};
    const struct {
        const char **vals;
        size_t n;
        int col;
    } cases[] = {{full, 4, 0},        {full, 4, 1}, {partial_utf8, 3, 2},
                 {partial_bin, 3, 3}, {none, 4, 4}, {none, 4, 5}};
    for (size_t k = 0; k < HUDI_ARRAY_LEN(cases); k++) {
        const pq_schema_element *el = &fm.meta.schema[1 + cases[k].col];
        pq_stats_acc acc;
        hudi_pq_stats_acc_init(&acc, el, 2);
        uint8_t data[256];
        int32_t offs[8] = {0};
        for (size_t i = 0; i < cases[k].n; i++) {
            size_t l = strlen(cases[k].vals[i]);
            memcpy(data + offs[i], cases[k].vals[i], l);
            offs[i + 1] = offs[i] + (int32_t)l;
        }
        cr_assert_eq(hudi_pq_stats_update_binary(&acc, offs, data, cases[k].n, NULL), 0);
        pq_statistics mine;
        cr_assert_eq(hudi_pq_stats_acc_finish(&acc, &mine, NULL), 0);
        const pq_statistics *theirs =
            &fm.meta.row_groups[0].columns[cases[k].col].meta_data.statistics;
        cr_assert(hudi_slice_eq(mine.min_value, theirs->min_value), "col %d min", cases[k].col);
        cr_assert(hudi_slice_eq(mine.max_value, theirs->max_value), "col %d max '%.*s'",
                  cases[k].col, (int)mine.max_value.len, mine.max_value.data);
        cr_assert_eq(mine.is_min_value_exact, theirs->is_min_value_exact, "col %d", cases[k].col);
        cr_assert_eq(mine.is_max_value_exact, theirs->is_max_value_exact, "col %d", cases[k].col);
        cr_assert(!mine.has_min && !mine.has_max, "no deprecated pair for strings");
        hudi_pq_stats_acc_dispose(&acc);
    }
    free_meta(&fm);
}

/* ---- writer accumulators ---- */

/* Binary bounds compare the first 8 bytes as a number first: values that tie on them, are a
 * prefix of another, hold NUL and 0xFF bytes, are empty or repeat give the bounds memcmp order
 * gives. */
static int naive_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    int c = memcmp(a, b, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

Test(stats, binary_bounds_like_memcmp) {
    static const struct {
        const char *v;
        size_t len;
    } vals[] = {{"abcdefgh", 8},
                {"abcdefgh\0", 9},
                {"abcdefg", 7},
                {"abcdefgh\x01", 9},
                {"abcdefghabcdefgh", 16},
                {"abcdefghabcdefgg\xff", 17},
                {"a", 1},
                {"a\0", 2},
                {"", 0},
                {"\xff\xff\xff\xff\xff\xff\xff\xff", 8},
                {"\xff\xff", 2},
                {"\0", 1},
                {"rider-213", 9},
                {"rider-21", 8},
                {"rider-2130", 10}};
    size_t n = sizeof(vals) / sizeof(vals[0]);
    pq_schema_element bin = leaf(PQ_BYTE_ARRAY, 0, -1, -1);
    for (size_t start = 0; start < n; start++) { /* every rotation: each value first once */
        uint8_t data[512];
        int32_t offs[64];
        offs[0] = 0;
        size_t lo = start, hi = start;
        for (size_t k = 0; k < 2 * n; k++) { /* each value twice */
            size_t i = (start + k) % n;
            memcpy(data + offs[k], vals[i].v, vals[i].len);
            offs[k + 1] = offs[k] + (int32_t)vals[i].len;
            if (naive_cmp((const uint8_t *)vals[i].v, vals[i].len, (const uint8_t *)vals[lo].v,
                          vals[lo].len) < 0)
                lo = i;
            if (naive_cmp((const uint8_t *)vals[i].v, vals[i].len, (const uint8_t *)vals[hi].v,
                          vals[hi].len) > 0)
                hi = i;
        }
        pq_stats_acc acc;
        pq_statistics st;
        hudi_pq_stats_acc_init(&acc, &bin, 0);
        cr_assert_eq(hudi_pq_stats_update_binary(&acc, offs, data, 2 * n, NULL), 0);
        cr_assert_eq(hudi_pq_stats_acc_finish(&acc, &st, NULL), 0);
        cr_expect(hudi_slice_eq(st.min_value, HUDI_SLICE(vals[lo].v, vals[lo].len)), "start %zu",
                  start);
        cr_expect(hudi_slice_eq(st.max_value, HUDI_SLICE(vals[hi].v, vals[hi].len)), "start %zu",
                  start);
        hudi_pq_stats_acc_dispose(&acc);
    }
}

Test(stats, accumulators_ints_unsigned_bool_merge) {
    pq_schema_element i32 = leaf(PQ_INT32, 0, -1, -1), u32 = leaf(PQ_INT32, 0, PQ_CT_UINT_32, -1);
    const int32_t v[] = {7, -1, 5, INT32_MIN, 3};
    pq_stats_acc a, b;
    hudi_pq_stats_acc_init(&a, &i32, 0);
    hudi_pq_stats_acc_init(&b, &u32, 0);
    hudi_pq_stats_update_i32(&a, v, 5);
    hudi_pq_stats_update_i32(&b, v, 5);
    pq_stats_add_nulls(&a, 2);
    pq_statistics st;
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    cr_assert_eq((int32_t)hudi_load_u32le(st.min_value.data), INT32_MIN);
    cr_assert_eq((int32_t)hudi_load_u32le(st.max_value.data), 7);
    cr_assert(st.has_min && st.has_max && hudi_slice_eq(st.min, st.min_value),
              "signed: deprecated pair too");
    cr_assert(st.has_null_count && st.null_count == 2 && !st.has_nan_count);
    cr_assert_eq(hudi_pq_stats_acc_finish(&b, &st, NULL), 0);
    cr_assert_eq(hudi_load_u32le(st.min_value.data), 3u);
    cr_assert_eq(hudi_load_u32le(st.max_value.data), 0xFFFFFFFFu);
    cr_assert(!st.has_min && !st.has_max, "unsigned: no deprecated pair");
    cr_assert(st.has_null_count && st.null_count == 0);
    /* Page -> chunk merge. */
    pq_stats_acc page;
    hudi_pq_stats_acc_init(&page, &i32, 0);
    const int32_t w[] = {100, 50};
    hudi_pq_stats_update_i32(&page, w, 2);
    pq_stats_add_nulls(&page, 1);
    cr_assert_eq(hudi_pq_stats_merge(&a, &page, NULL), 0);
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    cr_assert_eq((int32_t)hudi_load_u32le(st.max_value.data), 100);
    cr_assert_eq(st.null_count, 3);
    cr_assert_eq(hudi_pq_stats_merge(&a, &b, NULL), HUDI_EINVAL);
    /* Reset forgets values. */
    hudi_pq_stats_acc_reset(&a);
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    cr_assert(!st.has_min_value && st.null_count == 0);
    /* Int64 unsigned. */
    pq_schema_element u64 = leaf(PQ_INT64, 0, PQ_CT_UINT_64, -1);
    pq_stats_acc c;
    hudi_pq_stats_acc_init(&c, &u64, 0);
    const int64_t w64[] = {-1, 0, 42};
    hudi_pq_stats_update_i64(&c, w64, 3);
    cr_assert_eq(hudi_pq_stats_acc_finish(&c, &st, NULL), 0);
    cr_assert_eq(hudi_load_u64le(st.min_value.data), 0u);
    cr_assert_eq(hudi_load_u64le(st.max_value.data), UINT64_MAX);
    /* Booleans, bit-packed with an offset. */
    pq_schema_element bl = leaf(PQ_BOOLEAN, 0, -1, -1);
    pq_stats_acc d;
    hudi_pq_stats_acc_init(&d, &bl, 0);
    const uint8_t bits[3] = {0xFF, 0xFF, 0x01}; /* bits 0..16 set */
    hudi_pq_stats_update_bool(&d, bits, 3, 14); /* all true */
    cr_assert_eq(hudi_pq_stats_acc_finish(&d, &st, NULL), 0);
    cr_assert(st.min_value.data[0] == 1 && st.max_value.data[0] == 1);
    hudi_pq_stats_update_bool(&d, bits, 10, 8); /* bits 10..17: bit 17 is false */
    cr_assert_eq(hudi_pq_stats_acc_finish(&d, &st, NULL), 0);
    cr_assert(st.min_value.data[0] == 0 && st.max_value.data[0] == 1);
    hudi_pq_stats_acc_dispose(&a);
    hudi_pq_stats_acc_dispose(&b);
    hudi_pq_stats_acc_dispose(&c);
    hudi_pq_stats_acc_dispose(&d);
    hudi_pq_stats_acc_dispose(&page);
}

Test(stats, accumulators_floats_and_bytes) {
    pq_schema_element fl = leaf(PQ_FLOAT, 0, -1, -1);
    pq_stats_acc a;
    hudi_pq_stats_acc_init(&a, &fl, 0);
    const float allnan[] = {NAN, NAN};
    hudi_pq_stats_update_float(&a, allnan, 2);
    pq_statistics st;
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    cr_assert(!st.has_min_value && !st.has_max_value && st.has_nan_count && st.nan_count == 2);
    const float inf[] = {INFINITY, -INFINITY};
    hudi_pq_stats_update_float(&a, inf, 2);
    /* Numbers plus NaNs: still no bounds (parquet-mr's rule, safe for Spark). */
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    cr_assert(!st.has_min_value && !st.has_min && st.nan_count == 2);
    hudi_pq_stats_acc_reset(&a);
    hudi_pq_stats_update_float(&a, inf, 2);
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    uint8_t b[4];
    cr_assert(hudi_slice_eq(st.min_value, f32(-INFINITY, b)));
    cr_assert(hudi_slice_eq(st.max_value, f32(INFINITY, b)));
    hudi_pq_stats_acc_dispose(&a);

    /* FLBA decimals compare signed; BYTE_ARRAY decimals sign-extend; plain FLBA by bytes. */
    pq_schema_element dec = leaf(PQ_FIXED_LEN_BYTE_ARRAY, 2, PQ_CT_DECIMAL, -1);
    pq_stats_acc d;
    hudi_pq_stats_acc_init(&d, &dec, 1);
    const uint8_t vals[] = {0x00, 0x64, 0xFF, 0x38,
                            0x09, 0x60, 0xFF, 0xFF}; /* 100, -200, 2400, -1 */
    cr_assert_eq(hudi_pq_stats_update_fixed(&d, vals, 2, 4, NULL), 0);
    cr_assert_eq(hudi_pq_stats_acc_finish(&d, &st, NULL), 0);
    cr_assert(st.min_value.len == 2 && st.min_value.data[0] == 0xFF &&
              st.min_value.data[1] == 0x38);
    cr_assert(st.max_value.len == 2 && st.max_value.data[0] == 0x09,
              "decimals are never truncated");
    cr_assert(st.is_min_value_exact && st.is_max_value_exact);
    hudi_pq_stats_acc_dispose(&d);

    pq_schema_element bdec = leaf(PQ_BYTE_ARRAY, 0, -1, PQ_LT_DECIMAL);
    pq_stats_acc e;
    hudi_pq_stats_acc_init(&e, &bdec, 0);
    const uint8_t data[] = {0x64, 0x00, 0xC8, 0x9C, 0x09, 0x60};
    const int32_t offs[] = {0, 1, 3, 4, 6}; /* 100, 200, -100, 2400 */
    cr_assert_eq(hudi_pq_stats_update_binary(&e, offs, data, 4, NULL), 0);
    cr_assert_eq(hudi_pq_stats_acc_finish(&e, &st, NULL), 0);
    cr_assert(st.min_value.len == 1 && st.min_value.data[0] == 0x9C);
    cr_assert(st.max_value.len == 2 && st.max_value.data[1] == 0x60);
    hudi_pq_stats_acc_dispose(&e);

    pq_schema_element uuid = leaf(PQ_FIXED_LEN_BYTE_ARRAY, 3, -1, PQ_LT_UUID);
    pq_stats_acc u;
    hudi_pq_stats_acc_init(&u, &uuid, 1);
    const uint8_t uv[] = {0x80, 0, 0, 0x01, 0, 0, 0xFF, 0, 1};
    cr_assert_eq(hudi_pq_stats_update_fixed(&u, uv, 3, 3, NULL), 0);
    cr_assert_eq(hudi_pq_stats_acc_finish(&u, &st, NULL), 0);
    cr_assert(st.min_value.len == 3 && st.min_value.data[0] == 0x01, "FLBA is never truncated");
    cr_assert(st.max_value.len == 3 && st.max_value.data[0] == 0xFF);
    hudi_pq_stats_acc_dispose(&u);

    /* Empty strings and one batch after another. */
    pq_schema_element str = leaf(PQ_BYTE_ARRAY, 0, PQ_CT_UTF8, PQ_LT_STRING);
    pq_stats_acc s;
    hudi_pq_stats_acc_init(&s, &str, 0);
    const int32_t o1[] = {0, 0, 3};
    cr_assert_eq(hudi_pq_stats_update_binary(&s, o1, (const uint8_t *)"abc", 2, NULL), 0);
    const int32_t o2[] = {0, 3};
    cr_assert_eq(hudi_pq_stats_update_binary(&s, o2, (const uint8_t *)"zzz", 1, NULL), 0);
    cr_assert_eq(hudi_pq_stats_acc_finish(&s, &st, NULL), 0);
    cr_assert_eq(st.min_value.len, 0);
    cr_assert(hudi_slice_eq(st.max_value, hudi_slice_cstr("zzz")));
    hudi_pq_stats_acc_dispose(&s);
}

/* A large batch: the loops agree with a naive scan. */
Test(stats, accumulators_large_batch) {
    enum { N = 100000 };
    int64_t *v = malloc(N * sizeof(int64_t));
    double *d = malloc(N * sizeof(double));
    uint64_t x = 88172645463325252ull;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v[i] = (int64_t)x;
        d[i] = i % 1000 == 0 ? NAN : (double)(int64_t)x / 3.0;
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    pq_schema_element e = leaf(PQ_INT64, 0, -1, -1), ed = leaf(PQ_DOUBLE, 0, -1, -1);
    pq_stats_acc a, b;
    hudi_pq_stats_acc_init(&a, &e, 0);
    hudi_pq_stats_acc_init(&b, &ed, 0);
    hudi_pq_stats_update_i64(&a, v, N);
    hudi_pq_stats_update_double(&b, d, N);
    pq_statistics st;
    cr_assert_eq(hudi_pq_stats_acc_finish(&a, &st, NULL), 0);
    cr_assert_eq((int64_t)hudi_load_u64le(st.min_value.data), lo);
    cr_assert_eq((int64_t)hudi_load_u64le(st.max_value.data), hi);
    cr_assert_eq(hudi_pq_stats_acc_finish(&b, &st, NULL), 0);
    cr_assert_eq(st.nan_count, N / 1000);
    free(v);
    free(d);
}

/* ---- INT96 (§5.4) ---- */

Test(stats, int96_conversion) {
    /* int96_from_spark.parquet's overflowing value: day -105,862,232, nanos -32,509,551,616,000. */
    const uint8_t spark[12] = {0x00, 0x60, 0xB9, 0xC7, 0x6E, 0xE2,
                               0xFF, 0xFF, 0xA8, 0xAB, 0xB0, 0xF9};
    cr_assert_eq((int64_t)hudi_load_u64le(spark), INT64_C(-32509551616000));
    cr_assert_eq((int32_t)hudi_load_u32le(spark + 8), -105862232);
    cr_assert_eq(pq_int96_to_micros(spark), INT64_C(9089380393200000000));
    /* alltypes_plain.parquet: nanos 0, Julian day 2,454,892 = 2009-03-01 00:00 UTC. */
    const uint8_t ap[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0x6C, 0x75, 0x25, 0x00};
    cr_assert_eq(pq_int96_to_micros(ap), INT64_C(1235865600000000));
    /* The file's other values round-trip through the canonical encoding. */
    const int64_t expect[] = {INT64_C(1704141296123456),
                              INT64_C(1704070800000000),
                              INT64_C(253402225200000000),
                              INT64_C(1735599600000000),
                              0,
                              -1,
                              INT64_C(-86400000000),
                              INT64_MIN + 1,
                              INT64_MAX,
                              INT64_C(-62135596800000000)};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(expect); i++) {
        uint8_t b[12];
        pq_int96_from_micros(expect[i], b);
        int64_t nanos = (int64_t)hudi_load_u64le(b);
        cr_assert(nanos >= 0 && nanos < INT64_C(86400000000000), "nanos_of_day in range");
        if (expect[i] % 1000 == 0 || expect[i] > 0 || expect[i] < 0)
            cr_assert_eq(pq_int96_to_micros(b), expect[i], "%lld", (long long)expect[i]);
    }
    uint8_t b[12];
    pq_int96_from_micros(-1, b);
    cr_assert_eq((int32_t)hudi_load_u32le(b + 8), 2440587);
    cr_assert_eq(hudi_load_u64le(b), UINT64_C(86399999999000));
}

/* Bounds from dictionary entries (the writer's dictionary mode) equal the bounds of the values
 * themselves: few distinct values in runs, keys sharing long prefixes, an empty string, decimals
 * of several lengths. */
Test(stats, dict_bytes_match_values) {
    pq_schema_element str = leaf(PQ_BYTE_ARRAY, 0, PQ_CT_UTF8, PQ_LT_STRING);
    pq_schema_element dec = leaf(PQ_BYTE_ARRAY, 0, -1, PQ_LT_DECIMAL);
    const pq_schema_element *kinds[] = {&str, &dec};
    uint32_t seed = 12345;
    for (int round = 0; round < 40; round++) {
        const pq_schema_element *el = kinds[round % 2];
        /* a dictionary of up to 20 entries, PLAIN-encoded */
        uint8_t plain[20 * 40], data[600 * 36];
        uint32_t offs[20], ix[600];
        int32_t voffs[601];
        size_t n_ent = 1 + (size_t)(round % 20), pl = 0;
        for (size_t e = 0; e < n_ent; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t len = round % 5 == 0 && e == 0 ? 0 : 1 + (seed >> 16) % 30;
            offs[e] = (uint32_t)pl;
            hudi_store_u32le(plain + pl, (uint32_t)len);
            for (size_t k = 0; k < len; k++) /* long shared prefix, then random */
                plain[pl + 4 + k] = k < 12 ? (uint8_t)'p' : (uint8_t)((seed >> (k % 24)) & 0xff);
            pl += 4 + len;
        }
        size_t n = 1 + (size_t)(round * 37 % 600), dl = 0;
        voffs[0] = 0;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            ix[i] = i > 0 && (seed >> 20) % 3 ? ix[i - 1] : (uint32_t)((seed >> 8) % n_ent);
            uint32_t len = hudi_load_u32le(plain + offs[ix[i]]);
            memcpy(data + dl, plain + offs[ix[i]] + 4, len);
            dl += len;
            voffs[i + 1] = (int32_t)dl;
        }
        pq_stats_acc a, b;
        hudi_pq_stats_acc_init(&a, el, 0);
        hudi_pq_stats_acc_init(&b, el, 0);
        cr_assert_eq(hudi_pq_stats_update_dict_bytes(&a, ix, n, plain, offs, NULL), 0);
        cr_assert_eq(hudi_pq_stats_update_binary(&b, voffs, data, n, NULL), 0);
        pq_statistics x, y;
        cr_assert_eq(hudi_pq_stats_acc_finish(&a, &x, NULL), 0);
        cr_assert_eq(hudi_pq_stats_acc_finish(&b, &y, NULL), 0);
        cr_assert(hudi_slice_eq(x.min_value, y.min_value), "round %d min", round);
        cr_assert(hudi_slice_eq(x.max_value, y.max_value), "round %d max", round);
        hudi_pq_stats_acc_dispose(&a);
        hudi_pq_stats_acc_dispose(&b);
    }
}
