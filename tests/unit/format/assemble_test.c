/* assemble_test.c - levels + dense values -> nested arrays: the docs/formats/parquet.md §4.2
 * examples (struct, 3-level list with its five cases, map, nested lists, old 2-level lists), maps
 * without values, page by page assembly split at every entry, and the §3.5 validations. */
#include "levels_support.h"

static hudi_array *new_col(const pq_schema *s, int c) {
    hudi_array *a = NULL;
    cr_assert_eq(hudi_array_new(&a, &s->root.children[c], NULL), 0);
    return a;
}

static int feed_i32(hudi_array *col, const pq_leaf *leaf, const int16_t *def, const int16_t *rep,
                    int64_t n, const int32_t *vals, int64_t nv, bool starts, hudi_error *err) {
    hudi_array *la = NULL;
    cr_assert_eq(hudi_pq_assemble_reserve(col, leaf, n, &la, err), 0, "%s", err->message);
    if (nv) memcpy((int32_t *)la->values + la->length, vals, (size_t)nv * 4);
    return hudi_pq_assemble_leaf(col, leaf, def, rep, n, nv, starts, err);
}

static int feed_str(hudi_array *col, const pq_leaf *leaf, const int16_t *def, const int16_t *rep,
                    int64_t n, const char *const *vals, int64_t nv, bool starts, hudi_error *err) {
    hudi_array *la = NULL;
    cr_assert_eq(hudi_pq_assemble_reserve(col, leaf, n, &la, err), 0, "%s", err->message);
    for (int64_t k = 0; k < nv; k++) {
        size_t len = strlen(vals[k]);
        cr_assert_eq(hudi_array_grow_data(la, (int64_t)len, err), 0);
        memcpy(la->data + la->data_len, vals[k], len);
        la->data_len += (int64_t)len;
        la->offsets[la->length + 1 + k] = (int32_t)la->data_len;
    }
    return hudi_pq_assemble_leaf(col, leaf, def, rep, n, nv, starts, err);
}

static void expect_equal(const hudi_array *got, const hudi_array *want) {
    hudi_buf why = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_validate(got, &err), 0, "%s", err.message);
    bool eq = hudi_array_equal(got, want, &why);
    cr_assert(eq, "%s", why.data ? why.data : "");
    hudi_buf_dispose(&why);
}

static void app_i32(hudi_array *a, int32_t v) {
    cr_assert_eq(hudi_array_append_fixed(a, &v, NULL), 0);
}
static void app_str(hudi_array *a, const char *s) {
    cr_assert_eq(hudi_array_append_bytes(a, s, strlen(s), NULL), 0);
}
static void app_null(hudi_array *a) { cr_assert_eq(hudi_array_append_null(a, NULL), 0); }
static void app_nested(hudi_array *a, int64_t n) {
    cr_assert_eq(hudi_array_append_nested(a, n, NULL), 0);
}

/* optional group s { optional int32 x; required int32 y; } */
static void struct_example(bool y_first) {
    pq_schema_element el[] = {el_group("r", -1, 1), el_group("s", PQ_OPTIONAL, 2),
                              el_leaf("x", PQ_OPTIONAL, PQ_INT32),
                              el_leaf("y", PQ_REQUIRED, PQ_INT32)};
    pq_schema s;
    READ_SCHEMA(s, el);
    cr_assert_eq(s.leaves[0].max_def, 2);
    cr_assert_eq(s.leaves[1].max_def, 1);
    hudi_array *got = new_col(&s, 0), *want = new_col(&s, 0);
    hudi_error err = HUDI_ERROR_INIT;
    int16_t xd[] = {0, 1, 2}, yd[] = {0, 1, 1};
    int32_t xv[] = {7}, yv[] = {5, 6};
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) == y_first)
            cr_assert_eq(feed_i32(got, &s.leaves[1], yd, NULL, 3, yv, 2, true, &err), 0, "%s",
                         err.message);
        else
            cr_assert_eq(feed_i32(got, &s.leaves[0], xd, NULL, 3, xv, 1, true, &err), 0, "%s",
                         err.message);
    }
    app_null(want);
    app_null(want->children[0]);
    app_i32(want->children[1], 5);
    app_nested(want, 0);
    app_i32(want->children[0], 7);
    app_i32(want->children[1], 6);
    app_nested(want, 0);
    expect_equal(got, want);
    cr_assert_eq(got->null_count, 1);
    hudi_array_free(got);
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

Test(pq_assemble, struct_example) { struct_example(false); }
Test(pq_assemble, struct_example_any_leaf_order) { struct_example(true); }

/* optional group tags (LIST) { repeated group list { optional binary element (STRING); } } */
static const int16_t list_def[] = {0, 1, 2, 3, 3, 3, 2, 3};
static const int16_t list_rep[] = {0, 0, 0, 0, 1, 0, 1, 1};
static const char *const list_vals[] = {"a", "b", "a", "c"};

static void list_schema(pq_schema *s) {
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_lt(el_group("tags", PQ_OPTIONAL, 1), PQ_LT_LIST),
                              el_group("list", PQ_REPEATED, 1),
                              el_lt(el_leaf("element", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_LT_STRING)};
    READ_SCHEMA(*s, el);
}

static hudi_array *list_expected(const pq_schema *s) {
    hudi_array *w = new_col(s, 0), *e = w->children[0];
    app_null(w);      /* null */
    app_nested(w, 0); /* [] */
    app_null(e);
    app_nested(w, 1); /* [null] */
    app_str(e, "a");
    app_str(e, "b");
    app_nested(w, 2); /* ["a","b"] */
    app_str(e, "a");
    app_null(e);
    app_str(e, "c");
    app_nested(w, 3); /* ["a",null,"c"] */
    return w;
}

Test(pq_assemble, list_five_cases) {
    pq_schema s;
    list_schema(&s);
    cr_assert_eq(s.leaves[0].max_def, 3);
    cr_assert_eq(s.leaves[0].max_rep, 1);
    hudi_array *got = new_col(&s, 0), *want = list_expected(&s);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(feed_str(got, &s.leaves[0], list_def, list_rep, 8, list_vals, 4, true, &err), 0,
                 "%s", err.message);
    expect_equal(got, want);
    cr_assert_eq(got->length, 5);
    cr_assert_eq(got->null_count, 1);
    cr_assert_eq(got->children[0]->length, 6);
    cr_assert_eq(got->children[0]->null_count, 2);
    hudi_array_free(got);
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

Test(pq_assemble, pages_split_anywhere) {
    pq_schema s;
    list_schema(&s);
    hudi_array *want = list_expected(&s);
    hudi_error err = HUDI_ERROR_INIT;
    for (int a = 0; a <= 8; a++) {
        for (int b = a; b <= 8; b++) {
            hudi_array *got = new_col(&s, 0);
            int cut[4] = {0, a, b, 8};
            int v = 0;
            for (int p = 0; p < 3; p++) {
                int n = cut[p + 1] - cut[p], nv = 0;
                for (int i = cut[p]; i < cut[p + 1]; i++) nv += list_def[i] == 3;
                bool starts = n == 0 || list_rep[cut[p]] == 0;
                cr_assert_eq(feed_str(got, &s.leaves[0], list_def + cut[p], list_rep + cut[p], n,
                                      list_vals + v, nv, starts, &err),
                             0, "split %d/%d: %s", a, b, err.message);
                v += nv;
            }
            expect_equal(got, want);
            hudi_array_free(got);
        }
    }
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

/* optional group m (MAP) { repeated group key_value { required binary key (STRING);
 * optional int32 value; } } */
Test(pq_assemble, map_example) {
    pq_schema_element el[] = {el_group("r", -1, 1), el_lt(el_group("m", PQ_OPTIONAL, 1), PQ_LT_MAP),
                              el_group("key_value", PQ_REPEATED, 2),
                              el_lt(el_leaf("key", PQ_REQUIRED, PQ_BYTE_ARRAY), PQ_LT_STRING),
                              el_leaf("value", PQ_OPTIONAL, PQ_INT32)};
    pq_schema s;
    READ_SCHEMA(s, el);
    cr_assert_eq(s.leaves[0].max_def, 2);
    cr_assert_eq(s.leaves[1].max_def, 3);
    hudi_array *got = new_col(&s, 0), *want = new_col(&s, 0);
    hudi_error err = HUDI_ERROR_INIT;
    int16_t kd[] = {0, 1, 2, 2}, kr[] = {0, 0, 0, 1}, vd[] = {0, 1, 3, 2}, vr[] = {0, 0, 0, 1};
    const char *keys[] = {"a", "b"};
    int32_t vals[] = {1};
    /* value leaf first: it must not touch the map or the entries */
    cr_assert_eq(feed_i32(got, &s.leaves[1], vd, vr, 4, vals, 1, true, &err), 0, "%s", err.message);
    cr_assert_eq(got->length, 0);
    cr_assert_eq(feed_str(got, &s.leaves[0], kd, kr, 4, keys, 2, true, &err), 0, "%s", err.message);
    hudi_array *kv = want->children[0];
    app_null(want);
    app_nested(want, 0);
    app_str(kv->children[0], "a");
    app_i32(kv->children[1], 1);
    app_nested(kv, 0);
    app_str(kv->children[0], "b");
    app_null(kv->children[1]);
    app_nested(kv, 0);
    app_nested(want, 2);
    expect_equal(got, want);
    hudi_array_free(got);
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

Test(pq_assemble, map_without_value_field) {
    pq_schema_element el[] = {el_group("r", -1, 1), el_ct(el_group("m", PQ_REQUIRED, 1), PQ_CT_MAP),
                              el_group("key_value", PQ_REPEATED, 1),
                              el_leaf("key", PQ_REQUIRED, PQ_INT32)};
    pq_schema s;
    READ_SCHEMA(s, el);
    hudi_array *got = new_col(&s, 0);
    hudi_error err = HUDI_ERROR_INIT;
    int16_t d[] = {1, 1, 0}, r[] = {0, 1, 0};
    int32_t v[] = {1, 2};
    cr_assert_eq(feed_i32(got, &s.leaves[0], d, r, 3, v, 2, true, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_array_validate(got, &err), 0, "%s", err.message);
    cr_assert_eq(got->length, 2);
    hudi_array *vals = got->children[0]->children[1];
    cr_assert_eq(vals->length, 2);
    cr_assert_eq(vals->null_count, 2);
    cr_assert_eq(got->offsets[1], 2);
    cr_assert_eq(got->offsets[2], 2);
    hudi_array_free(got);
    hudi_pq_schema_dispose(&s);
}

/* a: list<list<list<string>>>, 3-level, optional everywhere (nested_lists.snappy.parquet) */
Test(pq_assemble, nested_lists) {
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_ct(el_group("a", PQ_OPTIONAL, 1), PQ_CT_LIST),
                              el_group("list", PQ_REPEATED, 1),
                              el_ct(el_group("element", PQ_OPTIONAL, 1), PQ_CT_LIST),
                              el_group("list", PQ_REPEATED, 1),
                              el_ct(el_group("element", PQ_OPTIONAL, 1), PQ_CT_LIST),
                              el_group("list", PQ_REPEATED, 1),
                              el_ct(el_leaf("element", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_UTF8)};
    pq_schema s;
    READ_SCHEMA(s, el);
    cr_assert_eq(s.leaves[0].max_def, 7);
    cr_assert_eq(s.leaves[0].max_rep, 3);
    /* [[["a","b"],["c"]],[null,["d"]]] */
    int16_t d[] = {7, 7, 7, 4, 7}, r[] = {0, 3, 2, 1, 2};
    const char *v[] = {"a", "b", "c", "d"};
    hudi_array *got = new_col(&s, 0), *want = new_col(&s, 0);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(feed_str(got, &s.leaves[0], d, r, 5, v, 4, true, &err), 0, "%s", err.message);
    hudi_array *mid = want->children[0], *in = mid->children[0], *leaf = in->children[0];
    app_str(leaf, "a");
    app_str(leaf, "b");
    app_nested(in, 2);
    app_str(leaf, "c");
    app_nested(in, 1);
    app_nested(mid, 2);
    app_null(in);
    app_str(leaf, "d");
    app_nested(in, 1);
    app_nested(mid, 2);
    app_nested(want, 2);
    expect_equal(got, want);
    hudi_array_free(got);
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

/* old_list_structure.parquet: levels [0,2][2,2][1,2][2,2] = [[1,2],[3,4]] */
Test(pq_assemble, old_two_level_list) {
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_ct(el_group("a", PQ_REQUIRED, 1), PQ_CT_LIST),
                              el_ct(el_group("array", PQ_REPEATED, 1), PQ_CT_LIST),
                              el_leaf("array", PQ_REPEATED, PQ_INT32)};
    pq_schema s;
    READ_SCHEMA(s, el);
    int16_t d[] = {2, 2, 2, 2}, r[] = {0, 2, 1, 2};
    int32_t v[] = {1, 2, 3, 4};
    hudi_array *got = new_col(&s, 0), *want = new_col(&s, 0);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(feed_i32(got, &s.leaves[0], d, r, 4, v, 4, true, &err), 0, "%s", err.message);
    hudi_array *in = want->children[0];
    app_i32(in->children[0], 1);
    app_i32(in->children[0], 2);
    app_nested(in, 2);
    app_i32(in->children[0], 3);
    app_i32(in->children[0], 4);
    app_nested(in, 2);
    app_nested(want, 2);
    expect_equal(got, want);
    hudi_array_free(got);
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

Test(pq_assemble, flat_columns) {
    pq_schema_element el[] = {el_group("r", -1, 3), el_leaf("req", PQ_REQUIRED, PQ_INT32),
                              el_ct(el_leaf("opt", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_CT_UTF8),
                              el_lt(el_leaf("nul", PQ_OPTIONAL, PQ_INT32), PQ_LT_UNKNOWN)};
    pq_schema s;
    READ_SCHEMA(s, el);
    hudi_error err = HUDI_ERROR_INIT;
    hudi_array *req = new_col(&s, 0), *opt = new_col(&s, 1), *nul = new_col(&s, 2);
    int32_t v[] = {1, 2, 3};
    cr_assert_eq(feed_i32(req, &s.leaves[0], NULL, NULL, 3, v, 3, true, &err), 0);
    cr_assert_eq(feed_i32(req, &s.leaves[0], NULL, NULL, 2, v, 2, true, &err), 0);
    cr_assert_eq(req->length, 5);
    cr_assert_null(req->validity);
    cr_assert_eq(((int32_t *)req->values)[4], 2);
    /* no nulls: no bitmap; then nulls in a later page */
    int16_t d1[] = {1, 1}, d2[] = {0, 1, 0, 1, 1, 1, 1, 1, 1, 0};
    const char *s1[] = {"x", "yy"}, *s2[] = {"a", "b", "c", "d", "e", "f", "g"};
    cr_assert_eq(feed_str(opt, &s.leaves[1], d1, NULL, 2, s1, 2, true, &err), 0);
    cr_assert_null(opt->validity);
    cr_assert_eq(feed_str(opt, &s.leaves[1], d2, NULL, 10, s2, 7, true, &err), 0, "%s",
                 err.message);
    hudi_array *want = new_col(&s, 1);
    app_str(want, "x");
    app_str(want, "yy");
    for (int i = 0, k = 0; i < 10; i++)
        if (d2[i])
            app_str(want, s2[k++]);
        else
            app_null(want);
    expect_equal(opt, want);
    cr_assert_eq(opt->null_count, 3);
    int16_t dn[] = {0, 0, 0};
    cr_assert_eq(feed_i32(nul, &s.leaves[2], dn, NULL, 3, NULL, 0, true, &err), 0);
    cr_assert_eq(nul->length, 3);
    cr_assert_eq(nul->null_count, 3);
    hudi_array_free(req);
    hudi_array_free(opt);
    hudi_array_free(nul);
    hudi_array_free(want);
    hudi_pq_schema_dispose(&s);
}

Test(pq_assemble, rejects_bad_levels) {
    pq_schema s;
    list_schema(&s);
    hudi_error err = HUDI_ERROR_INIT;
    const char *v[] = {"a", "b", "c"};
    hudi_array *a = new_col(&s, 0);
    int16_t d_hi[] = {4}, r0[] = {0};
    cr_assert_eq(feed_str(a, &s.leaves[0], d_hi, r0, 1, v, 0, true, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "tags.list.element"), "%s", err.message);
    int16_t d3[] = {3}, r_hi[] = {2};
    cr_assert_eq(feed_str(a, &s.leaves[0], d3, r_hi, 1, v, 1, false, &err), HUDI_ECORRUPT);
    int16_t r1[] = {1};
    cr_assert_eq(feed_str(a, &s.leaves[0], d3, r1, 1, v, 1, true, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "repetition level 1"), "%s", err.message);
    /* count mismatch: two defined entries, one value */
    int16_t d33[] = {3, 3}, r01[] = {0, 1};
    cr_assert_eq(feed_str(a, &s.leaves[0], d33, r01, 2, v, 1, true, &err), HUDI_ECORRUPT);
    /* a repeat into a list that was null */
    int16_t dn[] = {0, 3}, rn[] = {0, 1};
    hudi_array_free(a);
    a = new_col(&s, 0);
    cr_assert_eq(feed_str(a, &s.leaves[0], dn, rn, 2, v, 1, true, &err), HUDI_ECORRUPT);
    /* continuing a record with nothing before it */
    hudi_array_free(a);
    a = new_col(&s, 0);
    cr_assert_eq(feed_str(a, &s.leaves[0], d3, r1, 1, v, 1, false, &err), HUDI_ECORRUPT);
    hudi_array_free(a);
    /* required flat column: values must equal entries */
    pq_schema_element el[] = {el_group("r", -1, 1), el_leaf("x", PQ_REQUIRED, PQ_INT32)};
    pq_schema s2;
    READ_SCHEMA(s2, el);
    a = new_col(&s2, 0);
    int32_t iv[] = {1, 2};
    cr_assert_eq(feed_i32(a, &s2.leaves[0], NULL, NULL, 3, iv, 2, true, &err), HUDI_ECORRUPT);
    hudi_array_free(a);
    hudi_pq_schema_dispose(&s2);
    hudi_pq_schema_dispose(&s);
}
