/* project_test.c - reading a file's columns as the query schema (schema/project.h): columns and
 * struct fields matched by name or through the file-name tree, added fields as nulls, dropped
 * ones left out, list elements and map keys/values matched by position, conversions at any
 * depth, null parents, exact columns passed through without copying, and the errors. */
#include <criterion/criterion.h>

#include "columnar/render.h"
#include "schema/project.h"

/* ---- schema builders: fields own their names, freed with hudi_field_dispose ----------------- */

static void leaf(hudi_field *f, const char *name, hudi_type_id t) {
    cr_assert_eq(hudi_field_init(f, name, t, true), 0);
}

static void group(hudi_field *f, const char *name, hudi_type_id t, int32_t n) {
    cr_assert_eq(hudi_field_init(f, name, t, true), 0);
    cr_assert_eq(hudi_field_set_children(f, n), 0);
}

/* list<element> with the element named `elem` ("element", "array", ...) */
static hudi_field *list_of(hudi_field *f, const char *name, const char *elem, hudi_type_id t) {
    group(f, name, HUDI_TYPE_LIST, 1);
    if (hudi_type_is_nested(t))
        group(&f->children[0], elem, t, t == HUDI_TYPE_MAP || t == HUDI_TYPE_LIST ? 1 : 0);
    else
        leaf(&f->children[0], elem, t);
    return &f->children[0];
}

/* map<string, value> with key_value / key / value; returns the value field */
static hudi_field *map_of(hudi_field *f, const char *name, hudi_type_id value) {
    group(f, name, HUDI_TYPE_MAP, 1);
    hudi_field *e = &f->children[0];
    cr_assert_eq(hudi_field_init(e, "key_value", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(e, 2), 0);
    cr_assert_eq(hudi_field_init(&e->children[0], "key", HUDI_TYPE_STRING, false), 0);
    leaf(&e->children[1], "value", value);
    return &e->children[1];
}

static hudi_array *new_array(const hudi_field *f) {
    hudi_array *a = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_new(&a, f, &err), 0);
    return a;
}

static void put_i32(hudi_array *a, int32_t v) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_fixed(a, &v, &err), 0);
}

static void put_str(hudi_array *a, const char *s) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_bytes(a, s, strlen(s), &err), 0);
}

static void put_null(hudi_array *a) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_null(a, &err), 0);
}

static void put_nested(hudi_array *a, int64_t n) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_nested(a, n, &err), 0);
}

/* The JSON text of row i, for comparing whole values. */
static void expect_json(const hudi_array *a, int64_t i, const char *want) {
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_render_json_value(&b, a, i), 0);
    cr_expect_str_eq(b.data, want, "row %lld: %s", (long long)i, b.data);
    hudi_buf_dispose(&b);
}

static hudi_projection *project_ok(const hudi_field *file, const hudi_field *query,
                                   const hudi_field *names) {
    hudi_projection *p = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_projection_new(&p, file, query, names, false, "f.parquet", &err), 0, "%s",
                 err.message);
    return p;
}

/* Builds query column i from src; checks the result against the query field. */
static hudi_array *column(const hudi_projection *p, int32_t i, hudi_array *src, int64_t rows,
                          const hudi_field *q, bool *moved) {
    hudi_array *out = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_projection_column(p, i, src, rows, q, &out, moved, &err), 0, "%s",
                 err.message);
    cr_assert_eq(out->field, q);
    cr_assert_eq(hudi_array_validate(out, &err), 0, "%s", err.message);
    if (src && !*moved) hudi_array_free(src);
    return out;
}

/* ---- top-level columns ----------------------------------------------------------------------- */

Test(project, root_columns_by_name_added_dropped_and_converted) {
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 3);
    leaf(&file.children[0], "a", HUDI_TYPE_INT32);
    leaf(&file.children[1], "b", HUDI_TYPE_STRING);
    leaf(&file.children[2], "old", HUDI_TYPE_INT64); /* dropped since */
    group(&query, "q", HUDI_TYPE_STRUCT, 3);
    leaf(&query.children[0], "b", HUDI_TYPE_STRING);
    leaf(&query.children[1], "a", HUDI_TYPE_INT64);
    leaf(&query.children[2], "c", HUDI_TYPE_DOUBLE); /* added since */
    hudi_projection *p = project_ok(&file, &query, NULL);
    cr_assert_eq(hudi_projection_source(p, 0), 1);
    cr_assert_eq(hudi_projection_source(p, 1), 0);
    cr_assert_eq(hudi_projection_source(p, 2), -1);
    cr_assert(hudi_projection_exact(p, 0));
    cr_assert_not(hudi_projection_exact(p, 1));
    cr_assert_not(hudi_projection_exact(p, 2));
    cr_assert_eq(hudi_projection_source(p, 3), -1);

    hudi_array *b = new_array(&file.children[1]), *a = new_array(&file.children[0]);
    put_str(b, "x");
    put_null(b);
    put_i32(a, 7);
    put_null(a);
    bool moved;
    hudi_array *ob = column(p, 0, b, 2, &query.children[0], &moved);
    cr_assert(moved);
    cr_assert_eq(ob, b); /* exact: the same array, re-pointed */
    hudi_array *oa = column(p, 1, a, 2, &query.children[1], &moved);
    cr_assert_eq(((int64_t *)oa->values)[0], 7);
    cr_assert_not(hudi_array_is_valid(oa, 1));
    hudi_array *oc = column(p, 2, NULL, 2, &query.children[2], &moved);
    cr_assert_not(moved);
    cr_assert_eq(oc->length, 2);
    cr_assert_eq(oc->null_count, 2);
    hudi_array_free(ob);
    hudi_array_free(oa);
    hudi_array_free(oc);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

Test(project, names_tree_renames_and_empty_name_means_absent) {
    /* file {col1, col2}; then DROP col1, RENAME col2 TO col1, ADD col2: the query's col1 is the
     * file's col2 and the query's col2 is a new column the file does not have. */
    hudi_field file, query, names;
    group(&file, "file", HUDI_TYPE_STRUCT, 2);
    leaf(&file.children[0], "col1", HUDI_TYPE_STRING);
    leaf(&file.children[1], "col2", HUDI_TYPE_STRING);
    group(&query, "q", HUDI_TYPE_STRUCT, 2);
    leaf(&query.children[0], "col1", HUDI_TYPE_STRING);
    leaf(&query.children[1], "col2", HUDI_TYPE_STRING);
    group(&names, "q", HUDI_TYPE_STRUCT, 2);
    leaf(&names.children[0], "col2", HUDI_TYPE_STRING);
    leaf(&names.children[1], "", HUDI_TYPE_STRING);
    hudi_projection *p = project_ok(&file, &query, &names);
    cr_assert_eq(hudi_projection_source(p, 0), 1);
    cr_assert_eq(hudi_projection_source(p, 1), -1);
    cr_assert(hudi_projection_exact(p, 0)); /* the file column's statistics apply as they are */
    hudi_array *c2 = new_array(&file.children[1]);
    put_str(c2, "bbb");
    bool moved;
    hudi_array *o = column(p, 0, c2, 1, &query.children[0], &moved);
    expect_json(o, 0, "\"bbb\"");
    hudi_array *n = column(p, 1, NULL, 1, &query.children[1], &moved);
    expect_json(n, 0, "null");
    hudi_array_free(o);
    hudi_array_free(n);
    hudi_projection_free(p);
    /* without the names tree, col2 would resurrect the old values */
    p = project_ok(&file, &query, NULL);
    cr_assert_eq(hudi_projection_source(p, 1), 1);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
    hudi_field_dispose(&names);
}

Test(project, case_insensitive_match_when_unique) {
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 2);
    leaf(&file.children[0], "Name", HUDI_TYPE_STRING);
    leaf(&file.children[1], "ID", HUDI_TYPE_INT32);
    group(&query, "q", HUDI_TYPE_STRUCT, 2);
    leaf(&query.children[0], "id", HUDI_TYPE_INT32);
    leaf(&query.children[1], "Name", HUDI_TYPE_STRING);
    hudi_projection *p = project_ok(&file, &query, NULL);
    cr_assert_eq(hudi_projection_source(p, 0), 1);
    cr_assert_eq(hudi_projection_source(p, 1), 0);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

/* ---- structs ----------------------------------------------------------------------------------
 */

Test(project, struct_fields_reordered_added_dropped_converted_with_null_parents) {
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 1);
    hudi_field *fs = &file.children[0];
    group(fs, "s", HUDI_TYPE_STRUCT, 3);
    leaf(&fs->children[0], "a", HUDI_TYPE_INT32);
    leaf(&fs->children[1], "b", HUDI_TYPE_STRING);
    leaf(&fs->children[2], "z", HUDI_TYPE_INT32);
    group(&query, "q", HUDI_TYPE_STRUCT, 1);
    hudi_field *qs = &query.children[0];
    group(qs, "s", HUDI_TYPE_STRUCT, 3);
    leaf(&qs->children[0], "b", HUDI_TYPE_STRING);
    leaf(&qs->children[1], "a", HUDI_TYPE_STRING); /* int -> string */
    leaf(&qs->children[2], "n", HUDI_TYPE_DOUBLE);
    hudi_projection *p = project_ok(&file, &query, NULL);
    cr_assert_eq(hudi_projection_source(p, 0), 0);
    cr_assert_not(hudi_projection_exact(p, 0));

    hudi_array *s = new_array(fs);
    put_i32(s->children[0], 11);
    put_str(s->children[1], "x");
    put_i32(s->children[2], 5);
    put_nested(s, 1);
    put_null(s); /* a null struct row */
    put_null(s->children[0]);
    put_str(s->children[1], "y");
    put_i32(s->children[2], 6);
    put_nested(s, 1);
    bool moved;
    hudi_array *o = column(p, 0, s, 3, qs, &moved);
    cr_assert(moved);
    cr_assert_eq(o->length, 3);
    expect_json(o, 0, "{\"b\":\"x\",\"a\":\"11\",\"n\":null}");
    expect_json(o, 1, "null");
    expect_json(o, 2, "{\"b\":\"y\",\"a\":null,\"n\":null}");
    cr_assert_eq(o->null_count, 1);
    /* the result takes further rows like any array (children share the struct's capacity) */
    hudi_error err = HUDI_ERROR_INIT;
    for (int i = 0; i < 100; i++) cr_assert_eq(hudi_array_append_null(o, &err), 0);
    cr_assert_eq(hudi_array_validate(o, &err), 0, "%s", err.message);
    hudi_array_free(o);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

Test(project, exact_struct_passes_through_and_renamed_field_is_repointed) {
    hudi_field file, query, names;
    group(&file, "file", HUDI_TYPE_STRUCT, 1);
    group(&file.children[0], "s", HUDI_TYPE_STRUCT, 2);
    leaf(&file.children[0].children[0], "a", HUDI_TYPE_INT32);
    leaf(&file.children[0].children[1], "b", HUDI_TYPE_STRING);
    cr_assert_eq(hudi_field_copy(&query, &file), 0);
    hudi_projection *p = project_ok(&file, &query, NULL);
    cr_assert(hudi_projection_exact(p, 0));
    hudi_array *s = new_array(&file.children[0]);
    put_i32(s->children[0], 1);
    put_str(s->children[1], "x");
    put_nested(s, 1);
    bool moved;
    hudi_array *o = column(p, 0, s, 1, &query.children[0], &moved);
    cr_assert(moved);
    cr_assert_eq(o, s);
    cr_assert_eq(o->children[1]->field, &query.children[0].children[1]);
    hudi_projection_free(p);

    /* query s.x is the file's s.a (renamed): the same values, not exact */
    hudi_free(query.children[0].children[0].name);
    query.children[0].children[0].name = hudi_strdup("x");
    cr_assert_eq(hudi_field_copy(&names, &file), 0);
    p = project_ok(&file, &query, &names);
    cr_assert_not(hudi_projection_exact(p, 0));
    hudi_array *r = column(p, 0, o, 1, &query.children[0], &moved);
    cr_assert(moved);
    expect_json(r, 0, "{\"x\":1,\"b\":\"x\"}");
    hudi_array_free(r);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
    hudi_field_dispose(&names);
}

/* ---- lists and maps -----------------------------------------------------------------------------
 */

Test(project, list_elements_match_by_position_and_convert) {
    /* a two-level list whose element is named "array" (as older Parquet writers did) read as
     * the query's list<struct<x: int64, y: string>> named "element" */
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 1);
    hudi_field *fe = list_of(&file.children[0], "l", "array", HUDI_TYPE_STRUCT);
    cr_assert_eq(hudi_field_set_children(fe, 1), 0);
    leaf(&fe->children[0], "x", HUDI_TYPE_INT32);
    group(&query, "q", HUDI_TYPE_STRUCT, 1);
    hudi_field *qe = list_of(&query.children[0], "l", "element", HUDI_TYPE_STRUCT);
    cr_assert_eq(hudi_field_set_children(qe, 2), 0);
    leaf(&qe->children[0], "x", HUDI_TYPE_INT64);
    leaf(&qe->children[1], "y", HUDI_TYPE_STRING);
    hudi_projection *p = project_ok(&file, &query, NULL);
    cr_assert_not(hudi_projection_exact(p, 0));
    hudi_array *l = new_array(&file.children[0]);
    hudi_array *el = l->children[0];
    put_i32(el->children[0], 1);
    put_nested(el, 1);
    put_null(el);
    put_i32(el->children[0], 3);
    put_nested(el, 1);
    put_nested(l, 3);
    put_null(l);
    put_nested(l, 0);
    put_i32(el->children[0], 4);
    put_nested(el, 1);
    put_nested(l, 1);
    bool moved;
    hudi_array *o = column(p, 0, l, 4, &query.children[0], &moved);
    expect_json(o, 0, "[{\"x\":1,\"y\":null},null,{\"x\":3,\"y\":null}]");
    expect_json(o, 1, "null");
    expect_json(o, 2, "[]");
    expect_json(o, 3, "[{\"x\":4,\"y\":null}]");
    hudi_array_free(o);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

Test(project, list_of_primitives_converts_keeping_offsets) {
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 1);
    list_of(&file.children[0], "l", "element", HUDI_TYPE_INT32);
    group(&query, "q", HUDI_TYPE_STRUCT, 1);
    list_of(&query.children[0], "l", "item", HUDI_TYPE_DOUBLE);
    hudi_projection *p = project_ok(&file, &query, NULL);
    hudi_array *l = new_array(&file.children[0]);
    put_i32(l->children[0], 1);
    put_null(l->children[0]);
    put_nested(l, 2);
    put_null(l);
    bool moved;
    hudi_array *o = column(p, 0, l, 2, &query.children[0], &moved);
    expect_json(o, 0, "[1,null]");
    expect_json(o, 1, "null");
    hudi_array_free(o);
    hudi_projection_free(p);
    /* the same element type under another element name is exact */
    hudi_field q2;
    group(&q2, "q", HUDI_TYPE_STRUCT, 1);
    list_of(&q2.children[0], "l", "item", HUDI_TYPE_INT32);
    p = project_ok(&file, &q2, NULL);
    cr_assert(hudi_projection_exact(p, 0));
    hudi_projection_free(p);
    hudi_field_dispose(&q2);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

Test(project, map_values_convert_and_gain_fields) {
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 2);
    map_of(&file.children[0], "m", HUDI_TYPE_INT32);
    hudi_field *fv = map_of(&file.children[1], "members", HUDI_TYPE_STRUCT);
    cr_assert_eq(hudi_field_set_children(fv, 2), 0);
    leaf(&fv->children[0], "n", HUDI_TYPE_STRING);
    leaf(&fv->children[1], "a", HUDI_TYPE_INT32);
    group(&query, "q", HUDI_TYPE_STRUCT, 2);
    map_of(&query.children[0], "m", HUDI_TYPE_DOUBLE);
    hudi_field *qv = map_of(&query.children[1], "members", HUDI_TYPE_STRUCT);
    cr_assert_eq(hudi_field_set_children(qv, 3), 0);
    leaf(&qv->children[0], "a", HUDI_TYPE_INT64); /* moved first, widened */
    leaf(&qv->children[1], "n", HUDI_TYPE_STRING);
    leaf(&qv->children[2], "score", HUDI_TYPE_INT32); /* added */
    hudi_projection *p = project_ok(&file, &query, NULL);
    cr_assert_not(hudi_projection_exact(p, 0));
    cr_assert_not(hudi_projection_exact(p, 1));

    hudi_array *m = new_array(&file.children[0]);
    hudi_array *e = m->children[0];
    put_str(e->children[0], "t1");
    put_i32(e->children[1], 10);
    put_nested(e, 1);
    put_str(e->children[0], "t2");
    put_null(e->children[1]);
    put_nested(e, 1);
    put_nested(m, 2);
    put_null(m);
    hudi_array *mm = new_array(&file.children[1]);
    hudi_array *me = mm->children[0], *v = me->children[1];
    put_str(me->children[0], "u");
    put_str(v->children[0], "ann");
    put_i32(v->children[1], 30);
    put_nested(v, 1);
    put_nested(me, 1);
    put_str(me->children[0], "w");
    put_null(v);
    put_nested(me, 1);
    put_nested(mm, 2);
    put_nested(mm, 0);
    bool moved;
    hudi_array *o = column(p, 0, m, 2, &query.children[0], &moved);
    expect_json(o, 0, "[{\"key\":\"t1\",\"value\":10},{\"key\":\"t2\",\"value\":null}]");
    expect_json(o, 1, "null");
    cr_assert_eq(o->children[0]->children[1]->field->type, HUDI_TYPE_DOUBLE);
    hudi_array *om = column(p, 1, mm, 2, &query.children[1], &moved);
    expect_json(om, 0,
                "[{\"key\":\"u\",\"value\":{\"a\":30,\"n\":\"ann\",\"score\":null}},"
                "{\"key\":\"w\",\"value\":null}]");
    expect_json(om, 1, "[]");
    hudi_array_free(o);
    hudi_array_free(om);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

/* ---- errors and leniency -------------------------------------------------------------------- */

Test(project, unconvertible_types_fail_naming_file_and_column) {
    hudi_field file, q1, q2;
    group(&file, "file", HUDI_TYPE_STRUCT, 1);
    group(&file.children[0], "s", HUDI_TYPE_STRUCT, 1);
    leaf(&file.children[0].children[0], "a", HUDI_TYPE_INT64);
    group(&q1, "q", HUDI_TYPE_STRUCT, 1);
    group(&q1.children[0], "s", HUDI_TYPE_STRUCT, 1);
    leaf(&q1.children[0].children[0], "a", HUDI_TYPE_INT32); /* narrower */
    group(&q2, "q", HUDI_TYPE_STRUCT, 1);
    leaf(&q2.children[0], "s", HUDI_TYPE_STRING); /* struct vs primitive */
    hudi_projection *p = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_projection_new(&p, &file, &q1, NULL, false, "base/f1.parquet", &err),
                 HUDI_EINVAL);
    cr_assert_null(p);
    cr_assert(strstr(err.message, "base/f1.parquet") && strstr(err.message, "s.a"), "%s",
              err.message);
    cr_assert_eq(hudi_projection_new(&p, &file, &q2, NULL, false, "base/f1.parquet", &err),
                 HUDI_EINVAL);
    cr_assert(strstr(err.message, "struct"), "%s", err.message);
    hudi_field_dispose(&file);
    hudi_field_dispose(&q1);
    hudi_field_dispose(&q2);
}

Test(project, lenient_turns_bad_values_into_nulls) {
    hudi_field file, query;
    group(&file, "file", HUDI_TYPE_STRUCT, 1);
    leaf(&file.children[0], "d", HUDI_TYPE_STRING);
    group(&query, "q", HUDI_TYPE_STRUCT, 1);
    leaf(&query.children[0], "d", HUDI_TYPE_DATE);
    hudi_array *a = new_array(&file.children[0]);
    put_str(a, "2021-12-25");
    put_str(a, "25/12/2021");
    hudi_projection *p = project_ok(&file, &query, NULL);
    hudi_array *out = NULL;
    bool moved;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_projection_column(p, 0, a, 2, &query.children[0], &out, &moved, &err),
                 HUDI_EINVAL);
    cr_assert(strstr(err.message, "25/12/2021"), "%s", err.message);
    if (!moved) hudi_array_free(a);
    hudi_projection_free(p);
    cr_assert_eq(hudi_projection_new(&p, &file, &query, NULL, true, "f", &err), 0);
    a = new_array(&file.children[0]);
    put_str(a, "2021-12-25");
    put_str(a, "25/12/2021");
    out = column(p, 0, a, 2, &query.children[0], &moved);
    expect_json(out, 0, "\"2021-12-25\"");
    expect_json(out, 1, "null");
    hudi_array_free(out);
    hudi_projection_free(p);
    hudi_field_dispose(&file);
    hudi_field_dispose(&query);
}

/* ---- real files ------------------------------------------------------------------------------ */

#include "format/parquet/parquet.h"
#include "storage/storage.h"
#include "support.h"

/* The query of a file schema: every int32 (and int8/int16) widened to int64, list elements
 * renamed "element". Returns whether anything changed. */
static bool widen_tree(hudi_field *f) {
    bool changed = false;
    if (f->type == HUDI_TYPE_INT8 || f->type == HUDI_TYPE_INT16 || f->type == HUDI_TYPE_INT32) {
        f->type = HUDI_TYPE_INT64;
        changed = true;
    }
    if (f->type == HUDI_TYPE_LIST) {
        hudi_free(f->children[0].name);
        f->children[0].name = hudi_strdup("element");
    }
    for (int32_t i = 0; i < f->n_children; i++) changed |= widen_tree(&f->children[i]);
    return changed;
}

/* Reads every column of a nested Parquet file through a widened query: the same JSON values.
 * Returns how many columns were converted (not exact). */
static int read_widened(const char *rel) {
    int converted = 0;
    hudi_fs *fs = NULL;
    hudi_pq_file *pf = NULL;
    hudi_pq_scan *scan = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    cr_assert_eq(hudi_pq_open(&pf, fs, fixture_path(rel), NULL, &err), 0, "%s: %s", rel,
                 err.message);
    const hudi_field *file = hudi_pq_schema(pf);
    hudi_field query;
    cr_assert_eq(hudi_field_copy(&query, file), 0);
    for (int32_t i = 0; i < query.n_children; i++) widen_tree(&query.children[i]);
    hudi_projection *p = project_ok(file, &query, NULL);
    hudi_field widened_check;
    for (int32_t i = 0; i < file->n_children; i++) {
        cr_assert_eq(hudi_field_copy(&widened_check, &file->children[i]), 0);
        bool changed = widen_tree(&widened_check);
        converted += changed;
        cr_expect_eq(hudi_projection_exact(p, i), !changed, "%s column %s", rel,
                     file->children[i].name);
        cr_assert_eq(hudi_projection_source(p, i), i);
        hudi_field_dispose(&widened_check);
    }
    cr_assert_eq(hudi_pq_scan_open(&scan, pf, NULL, &err), 0, "%s", err.message);
    hudi_batch *b = NULL;
    int64_t rows = 0;
    hudi_buf want = HUDI_BUF_INIT, got = HUDI_BUF_INIT;
    while (hudi_pq_scan_next(scan, &b, &err) == 0 && b) {
        b = hudi_pq_scan_take_batch(scan);
        for (int32_t i = 0; i < b->n_columns; i++) {
            hudi_array *src = b->columns[i];
            hudi_buf_clear(&want);
            for (int64_t r = 0; r < src->length; r++) hudi_render_json_value(&want, src, r);
            bool moved;
            hudi_array *out = column(p, i, src, b->num_rows, &query.children[i], &moved);
            if (moved) b->columns[i] = NULL;
            hudi_buf_clear(&got);
            for (int64_t r = 0; r < out->length; r++) hudi_render_json_value(&got, out, r);
            cr_expect_str_eq(got.data ? got.data : "", want.data ? want.data : "", "%s column %d",
                             rel, (int)i);
            b->columns[i] = out; /* freed with the batch */
        }
        rows += b->num_rows;
        hudi_batch_free(b);
    }
    cr_assert_gt(rows, 0, "%s: %s", rel, err.message);
    hudi_buf_dispose(&want);
    hudi_buf_dispose(&got);
    hudi_pq_scan_free(scan);
    hudi_projection_free(p);
    hudi_field_dispose(&query);
    hudi_pq_close(pf);
    hudi_fs_free(fs);
    return converted;
}

Test(project, real_nested_files_read_through_a_widened_schema) {
    static const char *const files[] = {
        "parquet-testing/data/old_list_structure.parquet",
        "parquet-testing/data/repeated_no_annotation.parquet",
        "parquet-testing/data/nested_lists.snappy.parquet",
        "parquet-testing/data/nested_structs.rust.parquet",
        "parquet-testing/data/list_columns.parquet",
        "parquet-testing/data/null_list.parquet",
        "parquet-testing/data/incorrect_map_schema.parquet",
    };
    int converted = 0;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        converted += read_widened(files[i]);
    cr_assert_geq(converted, 3); /* list<list<int32>>, a top-level int32 beside nested columns */
}
