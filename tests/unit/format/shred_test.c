/* shred_test.c - nested arrays -> levels: the docs/formats/parquet.md §4.2 examples in reverse,
 * value runs and record starts, null-in-required errors, and random round trips shred -> assemble
 * over lists of structs of lists of maps with nulls at every level, batched by rows and split into
 * pages at arbitrary entries. */
#include "levels_support.h"

static void expect_levels(const pq_shredded *sh, const int16_t *def, const int16_t *rep,
                          int64_t n) {
    cr_assert_eq(sh->n_levels, n);
    for (int64_t i = 0; i < n; i++) {
        if (def)
            cr_assert_eq(sh->def[i], def[i], "def[%lld] = %d, want %d", (long long)i, sh->def[i],
                         def[i]);
        if (rep)
            cr_assert_eq(sh->rep[i], rep[i], "rep[%lld] = %d, want %d", (long long)i, sh->rep[i],
                         rep[i]);
    }
}

static hudi_array *new_col(const pq_schema *s, int c) {
    hudi_array *a = NULL;
    cr_assert_eq(hudi_array_new(&a, &s->root.children[c], NULL), 0);
    return a;
}

static void app_str(hudi_array *a, const char *s) {
    cr_assert_eq(hudi_array_append_bytes(a, s, strlen(s), NULL), 0);
}

Test(pq_shred, list_example) {
    pq_schema_element el[] = {el_group("r", -1, 1),
                              el_lt(el_group("tags", PQ_OPTIONAL, 1), PQ_LT_LIST),
                              el_group("list", PQ_REPEATED, 1),
                              el_lt(el_leaf("element", PQ_OPTIONAL, PQ_BYTE_ARRAY), PQ_LT_STRING)};
    pq_schema s;
    READ_SCHEMA(s, el);
    hudi_array *a = new_col(&s, 0), *e = a->children[0];
    cr_assert_eq(hudi_array_append_null(a, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(a, 0, NULL), 0);
    cr_assert_eq(hudi_array_append_null(e, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(a, 1, NULL), 0);
    app_str(e, "a");
    app_str(e, "b");
    cr_assert_eq(hudi_array_append_nested(a, 2, NULL), 0);
    app_str(e, "a");
    cr_assert_eq(hudi_array_append_null(e, NULL), 0);
    app_str(e, "c");
    cr_assert_eq(hudi_array_append_nested(a, 3, NULL), 0);
    pq_shredded sh = PQ_SHREDDED_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[0], a, 0, 5, &err), 0, "%s", err.message);
    int16_t d[] = {0, 1, 2, 3, 3, 3, 2, 3}, r[] = {0, 0, 0, 0, 1, 0, 1, 1};
    expect_levels(&sh, d, r, 8);
    cr_assert_eq(sh.n_values, 4);
    cr_assert_eq(sh.n_runs, 2); /* element slots 1..3 and 5 */
    cr_assert_eq(sh.runs[0].start, 1);
    cr_assert_eq(sh.runs[0].len, 3);
    cr_assert_eq(sh.runs[1].start, 5);
    cr_assert_eq(sh.n_records, 5);
    int64_t starts[] = {0, 1, 2, 3, 5};
    for (int i = 0; i < 5; i++) cr_assert_eq(sh.record_starts[i], starts[i]);
    cr_assert_not(sh.no_nulls);
    /* a row range: rows 3..4 */
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[0], a, 3, 2, &err), 0, "%s", err.message);
    expect_levels(&sh, d + 3, r + 3, 5);
    cr_assert_eq(sh.n_records, 2);
    cr_assert_eq(sh.record_starts[1], 2);
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[0], a, 4, 2, &err), HUDI_EINVAL);
    hudi_pq_shredded_dispose(&sh);
    hudi_array_free(a);
    hudi_pq_schema_dispose(&s);
}

Test(pq_shred, struct_and_map_examples) {
    pq_schema_element el[] = {el_group("r", -1, 2),
                              el_group("s", PQ_OPTIONAL, 2),
                              el_leaf("x", PQ_OPTIONAL, PQ_INT32),
                              el_leaf("y", PQ_REQUIRED, PQ_INT32),
                              el_lt(el_group("m", PQ_OPTIONAL, 1), PQ_LT_MAP),
                              el_group("key_value", PQ_REPEATED, 2),
                              el_lt(el_leaf("key", PQ_REQUIRED, PQ_BYTE_ARRAY), PQ_LT_STRING),
                              el_leaf("value", PQ_OPTIONAL, PQ_INT32)};
    pq_schema s;
    READ_SCHEMA(s, el);
    hudi_array *st = new_col(&s, 0), *m = new_col(&s, 1);
    int32_t five = 5, six = 6, seven = 7, one = 1;
    cr_assert_eq(hudi_array_append_null(st, NULL), 0);
    cr_assert_eq(hudi_array_append_null(st->children[0], NULL), 0);
    cr_assert_eq(hudi_array_append_fixed(st->children[1], &five, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(st, 0, NULL), 0);
    cr_assert_eq(hudi_array_append_fixed(st->children[0], &seven, NULL), 0);
    cr_assert_eq(hudi_array_append_fixed(st->children[1], &six, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(st, 0, NULL), 0);
    hudi_array *kv = m->children[0];
    cr_assert_eq(hudi_array_append_null(m, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(m, 0, NULL), 0);
    app_str(kv->children[0], "a");
    cr_assert_eq(hudi_array_append_fixed(kv->children[1], &one, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(kv, 0, NULL), 0);
    app_str(kv->children[0], "b");
    cr_assert_eq(hudi_array_append_null(kv->children[1], NULL), 0);
    cr_assert_eq(hudi_array_append_nested(kv, 0, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(m, 2, NULL), 0);

    pq_shredded sh = PQ_SHREDDED_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[0], st, 0, 3, &err), 0, "%s", err.message);
    int16_t xd[] = {0, 1, 2};
    expect_levels(&sh, xd, NULL, 3);
    cr_assert_eq(sh.n_values, 1);
    cr_assert_eq(sh.runs[0].start, 2);
    cr_assert_eq(sh.n_records, 3);
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[1], st, 0, 3, &err), 0, "%s", err.message);
    int16_t yd[] = {0, 1, 1};
    expect_levels(&sh, yd, NULL, 3);
    cr_assert_eq(sh.n_runs, 1);
    cr_assert_eq(sh.runs[0].start, 1);
    cr_assert_eq(sh.runs[0].len, 2);
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[2], m, 0, 3, &err), 0, "%s", err.message);
    int16_t kd[] = {0, 1, 2, 2}, kr[] = {0, 0, 0, 1};
    expect_levels(&sh, kd, kr, 4);
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[3], m, 0, 3, &err), 0, "%s", err.message);
    int16_t vd[] = {0, 1, 3, 2}, vr[] = {0, 0, 0, 1};
    expect_levels(&sh, vd, vr, 4);
    cr_assert_eq(sh.n_values, 1);
    /* a null in the required y */
    cr_assert_eq(hudi_array_append_null(st->children[1], NULL), 0);
    cr_assert_eq(hudi_array_append_null(st->children[0], NULL), 0);
    cr_assert_eq(hudi_array_append_nested(st, 0, NULL), 0);
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[1], st, 0, 4, &err), HUDI_EINVAL);
    hudi_pq_shredded_dispose(&sh);
    hudi_array_free(st);
    hudi_array_free(m);
    hudi_pq_schema_dispose(&s);
}

Test(pq_shred, flat_fast_paths) {
    pq_schema_element el[] = {el_group("r", -1, 2), el_leaf("req", PQ_REQUIRED, PQ_INT64),
                              el_leaf("opt", PQ_OPTIONAL, PQ_INT64)};
    pq_schema s;
    READ_SCHEMA(s, el);
    hudi_array *req = new_col(&s, 0), *opt = new_col(&s, 1);
    for (int64_t i = 0; i < 100; i++) {
        cr_assert_eq(hudi_array_append_fixed(req, &i, NULL), 0);
        if (i % 10 == 3)
            cr_assert_eq(hudi_array_append_null(opt, NULL), 0);
        else
            cr_assert_eq(hudi_array_append_fixed(opt, &i, NULL), 0);
    }
    pq_shredded sh = PQ_SHREDDED_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[0], req, 10, 50, &err), 0);
    cr_assert_eq(sh.n_levels, 50);
    cr_assert_eq(sh.n_runs, 1);
    cr_assert_eq(sh.runs[0].start, 10);
    cr_assert_eq(sh.runs[0].len, 50);
    cr_assert(sh.no_nulls);
    cr_assert_eq(hudi_pq_shred_leaf(&sh, &s.leaves[1], opt, 2, 11, &err), 0); /* rows 2..12 */
    cr_assert_eq(sh.n_levels, 11);
    cr_assert_eq(sh.n_values, 10);
    cr_assert_eq(sh.n_runs, 2);
    cr_assert_eq(sh.def[0], 1);
    cr_assert_eq(sh.def[1], 0); /* row 3 */
    cr_assert_eq(sh.runs[1].start, 4);
    cr_assert_eq(sh.runs[1].len, 9);
    hudi_pq_shredded_dispose(&sh);
    hudi_array_free(req);
    hudi_array_free(opt);
    hudi_pq_schema_dispose(&s);
}

/* ---- random round trips ---- */

static void build_random_schema(hudi_field *root) {
    cr_assert_eq(hudi_field_init(root, "rec", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(root, 8), 0);
    add_child(root, 0, "id", HUDI_TYPE_INT64, false);
    add_child(root, 1, "s", HUDI_TYPE_STRING, true);
    add_child(root, 2, "b", HUDI_TYPE_BOOL, true);
    /* lst: list<struct<a: int32, inner: list<map<string, list<int16>>>, d: decimal(20,2)>> */
    hudi_field *lst = &root->children[3];
    add_child(root, 3, "lst", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(lst, 1), 0);
    add_child(lst, 0, "element", HUDI_TYPE_STRUCT, true);
    hudi_field *st = &lst->children[0];
    cr_assert_eq(hudi_field_set_children(st, 3), 0);
    add_child(st, 0, "a", HUDI_TYPE_INT32, true);
    add_child(st, 1, "inner", HUDI_TYPE_LIST, true);
    add_child(st, 2, "d", HUDI_TYPE_DECIMAL, false);
    st->children[2].precision = 20;
    st->children[2].scale = 2;
    hudi_field *inner = &st->children[1];
    cr_assert_eq(hudi_field_set_children(inner, 1), 0);
    add_child(inner, 0, "element", HUDI_TYPE_MAP, true);
    hudi_field *mp = &inner->children[0];
    cr_assert_eq(hudi_field_set_children(mp, 1), 0);
    add_child(mp, 0, "key_value", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(&mp->children[0], 2), 0);
    add_child(&mp->children[0], 0, "key", HUDI_TYPE_STRING, false);
    add_child(&mp->children[0], 1, "value", HUDI_TYPE_LIST, true);
    hudi_field *vl = &mp->children[0].children[1];
    cr_assert_eq(hudi_field_set_children(vl, 1), 0);
    add_child(vl, 0, "element", HUDI_TYPE_INT16, true);
    /* m: map<int32, struct<x: double, y: list<string> not null>> not null */
    hudi_field *m = &root->children[4];
    add_child(root, 4, "m", HUDI_TYPE_MAP, false);
    cr_assert_eq(hudi_field_set_children(m, 1), 0);
    add_child(m, 0, "key_value", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(&m->children[0], 2), 0);
    add_child(&m->children[0], 0, "key", HUDI_TYPE_INT32, false);
    add_child(&m->children[0], 1, "value", HUDI_TYPE_STRUCT, true);
    hudi_field *mv = &m->children[0].children[1];
    cr_assert_eq(hudi_field_set_children(mv, 2), 0);
    add_child(mv, 0, "x", HUDI_TYPE_DOUBLE, true);
    add_child(mv, 1, "y", HUDI_TYPE_LIST, false);
    cr_assert_eq(hudi_field_set_children(&mv->children[1], 1), 0);
    add_child(&mv->children[1], 0, "element", HUDI_TYPE_STRING, true);
    /* ll: list<list<fixed_binary(3) not null> not null> */
    hudi_field *ll = &root->children[5];
    add_child(root, 5, "ll", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(ll, 1), 0);
    add_child(ll, 0, "element", HUDI_TYPE_LIST, false);
    cr_assert_eq(hudi_field_set_children(&ll->children[0], 1), 0);
    add_child(&ll->children[0], 0, "element", HUDI_TYPE_FIXED_BINARY, false);
    ll->children[0].children[0].byte_width = 3;
    /* ns: struct<s2: struct<z: int64 not null, w: bool>> */
    hudi_field *ns = &root->children[6];
    add_child(root, 6, "ns", HUDI_TYPE_STRUCT, true);
    cr_assert_eq(hudi_field_set_children(ns, 1), 0);
    add_child(ns, 0, "s2", HUDI_TYPE_STRUCT, true);
    cr_assert_eq(hudi_field_set_children(&ns->children[0], 2), 0);
    add_child(&ns->children[0], 0, "z", HUDI_TYPE_INT64, false);
    add_child(&ns->children[0], 1, "w", HUDI_TYPE_BOOL, true);
    add_child(root, 7, "nothing", HUDI_TYPE_NULL, true);
}

/* Shreds rows of src in batches, then feeds each leaf to dst in pages cut at random entries. */
static void round_trip(const pq_schema *s, hudi_array **src, hudi_array **dst, int64_t rows,
                       uint64_t *rng, int64_t batch_rows) {
    pq_shredded sh = PQ_SHREDDED_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    int64_t *idx = NULL;
    for (int64_t r0 = 0; r0 < rows; r0 += batch_rows) {
        int64_t nr = HUDI_MIN(batch_rows, rows - r0);
        for (int32_t li = 0; li < s->n_leaves; li++) {
            const pq_leaf *leaf = &s->leaves[li];
            hudi_array *scol = src[leaf->column], *dcol = dst[leaf->column];
            const hudi_array *sleaf = pq_leaf_array(scol, leaf);
            cr_assert_eq(hudi_pq_shred_leaf(&sh, leaf, scol, r0, nr, &err), 0, "%s", err.message);
            cr_assert_eq(sh.n_records, nr);
            idx = realloc(idx, sizeof(int64_t) * (size_t)(sh.n_values + 1));
            int64_t k = 0;
            for (int64_t ri = 0; ri < sh.n_runs; ri++)
                for (int64_t j = 0; j < sh.runs[ri].len; j++) idx[k++] = sh.runs[ri].start + j;
            cr_assert_eq(k, sh.n_values);
            const int16_t *def = leaf->max_def ? sh.def : NULL;
            const int16_t *rep = leaf->max_rep ? sh.rep : NULL;
            int64_t e = 0, v = 0;
            while (e < sh.n_levels) {
                int64_t n = 1 + (int64_t)(rng_next(rng) % 7);
                if (n > sh.n_levels - e) n = sh.n_levels - e;
                int64_t nv = n;
                if (def) {
                    nv = 0;
                    for (int64_t i = e; i < e + n; i++) nv += def[i] == leaf->max_def;
                }
                hudi_array *la = NULL;
                cr_assert_eq(hudi_pq_assemble_reserve(dcol, leaf, n, &la, &err), 0, "%s",
                             err.message);
                for (int64_t j = 0; j < nv; j++) put_dense(la, j, sleaf, idx[v + j]);
                bool starts = !rep || rep[e] == 0;
                cr_assert_eq(hudi_pq_assemble_leaf(dcol, leaf, def ? def + e : NULL,
                                                   rep ? rep + e : NULL, n, nv, starts, &err),
                             0, "leaf %d: %s", li, err.message);
                e += n;
                v += nv;
            }
        }
    }
    free(idx);
    hudi_pq_shredded_dispose(&sh);
}

static void random_round_trip(uint64_t seed, int64_t rows, int64_t batch_rows) {
    hudi_field root;
    build_random_schema(&root);
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pq_schema_element *el = NULL;
    int32_t n_el = 0;
    cr_assert_eq(hudi_pq_schema_write(&el, &n_el, &arena, &root, NULL, &err), 0, "%s", err.message);
    pq_schema s;
    cr_assert_eq(hudi_pq_schema_read(&s, el, n_el, NULL, &err), 0, "%s", err.message);
    int32_t nc = s.root.n_children;
    hudi_array *src[8], *dst[8];
    uint64_t rng = seed;
    for (int32_t c = 0; c < nc; c++) {
        /* the writer shreds arrays built on its own fields; the reader assembles on the file's */
        cr_assert_eq(hudi_array_new(&src[c], &root.children[c], NULL), 0);
        cr_assert_eq(hudi_array_new(&dst[c], &s.root.children[c], NULL), 0);
        for (int64_t r = 0; r < rows; r++) gen_row(src[c], &rng, 0);
    }
    round_trip(&s, src, dst, rows, &rng, batch_rows);
    for (int32_t c = 0; c < nc; c++) {
        hudi_buf why = HUDI_BUF_INIT;
        cr_assert_eq(hudi_array_validate(dst[c], &err), 0, "column %d: %s", c, err.message);
        bool eq = hudi_array_equal(dst[c], src[c], &why);
        cr_assert(eq, "seed %llu column %d: %s", (unsigned long long)seed, c,
                  why.data ? why.data : "");
        hudi_buf_dispose(&why);
        hudi_array_free(src[c]);
        hudi_array_free(dst[c]);
    }
    hudi_pq_schema_dispose(&s);
    hudi_arena_dispose(&arena);
    hudi_field_dispose(&root);
}

Test(pq_shred, random_round_trip_one_batch) {
    for (uint64_t seed = 1; seed <= 20; seed++) random_round_trip(seed, 60, 60);
}

Test(pq_shred, random_round_trip_batched) {
    for (uint64_t seed = 100; seed <= 110; seed++) random_round_trip(seed, 97, 13);
    random_round_trip(7, 500, 1);
}
