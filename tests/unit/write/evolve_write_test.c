/* evolve_write_test.c - schema evolution on write, end to end (docs/formats/schema-evolution.md
 * §2): the documentation's walk-through (a column added, int widened to long), nested adds,
 * list element and map value promotions, columns a batch lacks with and without
 * hoodie.write.set.null.for.missing.columns, column drops, narrower incoming columns converted
 * to the table's types, an upsert rewriting an old base file that holds a narrower type, and
 * every refusal leaving the table as it was (no instant, no file). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columnar/render.h"
#include "format/json/jsonl.h"
#include "format/parquet/parquet.h"
#include "read/read.h"
#include "schema/schema.h"
#include "schema_spec.h"
#include "support.h"
#include "write/write_int.h"
#include "wt_util.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* A batch of `schema` from JSON lines. */
static hudi_batch *rows(const hudi_field *schema, const char *jsonl) {
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_batch_new(&b, schema, &err), 0);
    int64_t line = 0;
    for (const char *p = jsonl; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len)
            cr_assert_eq(hudi_jsonl_parse_row(b, p, len, ++line, NULL, &err), 0, "%s", err.message);
        p += len + (e ? 1 : 0);
    }
    b->num_rows = b->n_columns ? b->columns[0]->length : 0;
    return b;
}

typedef struct tbl {
    hudi_fs *fs;
    char base[512];
    hudi_table *t;
    hudi_field schema;
} tbl;

/* `more`: more hoodie.properties entries (key, value, ..., NULL) or NULL. */
static void tbl_create_with(tbl *x, const char *name, const char *key, const char *part,
                            const char *precombine, const char *spec, const char *const *more) {
    hudi_create_options o = HUDI_CREATE_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    const char *props[16] = {"hoodie.index.bloom.num_entries", "100"};
    for (int i = 0; more && more[i] && i < 12; i++) props[2 + i] = more[i];
    memset(x, 0, sizeof(*x));
    x->fs = wt_fs(WT_MEMORY, x->base, sizeof(x->base));
    x->schema = spec_record("s", spec);
    o.table_name = name;
    o.record_key_fields = key;
    o.partition_fields = part;
    o.precombine_field = precombine;
    o.schema = &x->schema;
    o.extra_props = props;
    cr_assert_eq(hudi_tbl_create(&x->t, x->fs, x->base, &o, &err), 0, "%s", err.message);
}

static void tbl_create(tbl *x, const char *name, const char *key, const char *part,
                       const char *precombine, const char *spec) {
    tbl_create_with(x, name, key, part, precombine, spec, NULL);
}

static void tbl_close(tbl *x) {
    hudi_tbl_free(x->t);
    hudi_fs_free(x->fs);
    hudi_field_dispose(&x->schema);
}

/* Writes JSON lines of schema `spec` with `op` and writer settings `props`. */
static int tbl_write(tbl *x, const char *spec, const char *jsonl, hudi_write_operation op,
                     const char *const *props, hudi_error *err) {
    hudi_field s = spec_record("in", spec);
    hudi_batch *b = rows(&s, jsonl);
    hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
    hudi_table_write_result res;
    o.op = op;
    o.props = props;
    o.use_bloom_index = false; /* hoodie.index.type=SIMPLE, as the walk-through */
    int rc = hudi_tbl_write(x->t, b, &o, &res, err);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
    return rc;
}

static void tbl_write_ok(tbl *x, const char *spec, const char *jsonl, hudi_write_operation op,
                         const char *const *props) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(tbl_write(x, spec, jsonl, op, props, &err), 0, "%s", err.message);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows of the latest snapshot as JSON objects of the data columns, sorted, one a line. */
static char *dump(tbl *x) {
    hudi_table *t = NULL;
    hudi_reader *r = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field schema;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    cr_assert_eq(hudi_tbl_open(&t, x->fs, x->base, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_read_table_schema(&schema, t, &so, &err), 0, "%s", err.message);
    const char *cols[64];
    int n = 0;
    for (int32_t i = 0; i < schema.n_children && n < 64; i++)
        if (!hudi_is_meta_field(schema.children[i].name)) cols[n++] = schema.children[i].name;
    so.columns = cols;
    so.n_columns = n;
    cr_assert_eq(hudi_reader_open(&r, t, &so, &err), 0, "%s", err.message);
    char **lines = NULL;
    size_t count = 0;
    for (;;) {
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_buf line = HUDI_BUF_INIT;
            cr_assert_eq(hudi_render_json_row(&line, b, i), 0);
            lines = realloc(lines, (count + 1) * sizeof(char *));
            lines[count++] = hudi_buf_detach(&line);
        }
    }
    hudi_reader_free(r);
    hudi_field_dispose(&schema);
    hudi_tbl_free(t);
    qsort(lines, count, sizeof(char *), cmp_str);
    hudi_buf out = HUDI_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        hudi_buf_printf(&out, "%s\n", lines[i]);
        hudi_free(lines[i]);
    }
    free(lines);
    hudi_buf_putc(&out, 0);
    return hudi_buf_detach(&out);
}

/* The table schema (data columns) in the spec notation. */
static char *table_schema(tbl *x) {
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_field schema, data;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    cr_assert_eq(hudi_tbl_open(&t, x->fs, x->base, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_read_table_schema(&schema, t, &so, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_schema_remove_meta_fields(&data, &schema, &err), 0);
    hudi_buf out = HUDI_BUF_INIT;
    spec_describe_fields(&out, &data);
    hudi_buf_putc(&out, 0);
    hudi_field_dispose(&schema);
    hudi_field_dispose(&data);
    hudi_tbl_free(t);
    return hudi_buf_detach(&out);
}

/* Every file below the base path, sorted, one a line: a refused write must leave it equal. */
static char *files(tbl *x) {
    char **v = NULL;
    size_t n = 0;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_write_list_tree(x->fs, x->base, &v, &n, &err), 0, "%s", err.message);
    qsort(v, n, sizeof(char *), cmp_str);
    hudi_buf out = HUDI_BUF_INIT;
    for (size_t i = 0; i < n; i++) hudi_buf_printf(&out, "%s\n", v[i]);
    hudi_buf_putc(&out, 0);
    hudi_write_free_strings(v, n);
    return hudi_buf_detach(&out);
}

/* extraMetadata of the newest completed commit: `key`'s value (malloc'ed; NULL = absent). */
static char *last_commit_extra(tbl *x, const char *key) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf json = HUDI_BUF_INIT;
    hudi_commit_metadata *md = NULL;
    hudi_instant_list l = {0};
    cr_assert_eq(hudi_tbl_reload(x->t, &err), 0);
    cr_assert_eq(hudi_timeline_completed_commits(&l, x->t->timeline, &err), 0);
    cr_assert(l.count > 0);
    cr_assert_eq(hudi_timeline_read_commit_json(&json, x->t->timeline, l.items[l.count - 1], &err),
                 0);
    cr_assert_eq(hudi_commit_metadata_parse(&md, json.data, json.len, "c", &err), 0);
    const char *v = hudi_commit_metadata_extra(md, key);
    char *out = v ? strdup(v) : NULL;
    hudi_commit_metadata_free(md);
    hudi_instant_list_dispose(&l);
    hudi_buf_dispose(&json);
    return out;
}

#define EXPECT_DUMP(x, want)                                                                       \
    do {                                                                                           \
        char *d_ = dump(x);                                                                        \
        cr_expect_str_eq(d_, want);                                                                \
        hudi_free(d_);                                                                             \
    } while (0)

#define EXPECT_SCHEMA(x, want)                                                                     \
    do {                                                                                           \
        char *s_ = table_schema(x);                                                                \
        cr_expect_str_eq(s_, want);                                                                \
        hudi_free(s_);                                                                             \
    } while (0)

/* A write that must be refused with `words` in its one-line message, leaving every file as it
 * was (no instant, no base file, no marker). */
static void expect_refused(tbl *x, const char *spec, const char *jsonl, const char *const *props,
                           const char *const *words) {
    char *before = files(x);
    hudi_error err = HUDI_ERROR_INIT;
    int rc = tbl_write(x, spec, jsonl, HUDI_WRITE_UPSERT, props, &err);
    cr_expect_eq(rc, HUDI_EINVAL, "%s accepted (%d): %s", spec, rc, err.message);
    cr_expect(strncmp(err.message, x->base, strlen(x->base)) == 0 && !strchr(err.message, '\n'),
              "one line starting with the table path: %s", err.message);
    for (size_t i = 0; words && words[i]; i++)
        cr_expect(strstr(err.message, words[i]), "'%s' not in: %s", words[i], err.message);
    char *after = files(x);
    cr_expect_str_eq(after, before, "a refused write changed the table");
    hudi_free(before);
    hudi_free(after);
}

/* ---- the documentation's walk-through ------------------------------------------------------ */

#define SEED_V1                                                                                    \
    "rowId string?, partitionId string?, preComb long?, name string?, versionId string?, "         \
    "intToLong int?"
#define SEED_V2 SEED_V1 ", newField string?"

Test(evolve_write, walk_through_add_column_and_int_to_long) {
    tbl x;
    tbl_create(&x, "hudi_trips_cow", "rowId", "partitionId", "preComb", SEED_V1);
    tbl_write_ok(&x, SEED_V1,
                 "{\"rowId\":\"row_1\",\"partitionId\":\"part_0\",\"preComb\":0,\"name\":\"bob\","
                 "\"versionId\":\"v_0\",\"intToLong\":0}\n"
                 "{\"rowId\":\"row_2\",\"partitionId\":\"part_0\",\"preComb\":0,\"name\":\"john\","
                 "\"versionId\":\"v_0\",\"intToLong\":0}\n"
                 "{\"rowId\":\"row_3\",\"partitionId\":\"part_0\",\"preComb\":0,\"name\":\"tom\","
                 "\"versionId\":\"v_0\",\"intToLong\":0}\n",
                 HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, SEED_V1);
    const char *v2 = "rowId string?, partitionId string?, preComb long?, name string?, "
                     "versionId string?, intToLong long?, newField string?";
    tbl_write_ok(&x, v2,
                 "{\"rowId\":\"row_2\",\"partitionId\":\"part_0\",\"preComb\":5,\"name\":\"john\","
                 "\"versionId\":\"v_3\",\"intToLong\":3,\"newField\":\"newField_1\"}\n"
                 "{\"rowId\":\"row_5\",\"partitionId\":\"part_0\",\"preComb\":5,\"name\":"
                 "\"maroon\",\"versionId\":\"v_2\",\"intToLong\":2,\"newField\":\"newField_1\"}\n"
                 "{\"rowId\":\"row_9\",\"partitionId\":\"part_0\",\"preComb\":5,\"name\":"
                 "\"michael\",\"versionId\":\"v_2\",\"intToLong\":2,\"newField\":\"newField_1\"}\n",
                 HUDI_WRITE_UPSERT, NULL);
    /* desc: intToLong bigint, newField string last; the commit's "schema" is byte for byte
     * the one Hudi 0.15 on Spark 3.5 wrote for the same two writes */
    EXPECT_SCHEMA(&x, v2);
    char *schema = last_commit_extra(&x, "schema");
    cr_expect_str_eq(
        schema,
        "{\"type\":\"record\",\"name\":\"hudi_trips_cow_record\",\"namespace\":\"hoodie."
        "hudi_trips_cow\",\"fields\":[{\"name\":\"rowId\",\"type\":[\"null\",\"string\"],"
        "\"default\":null},{\"name\":\"partitionId\",\"type\":[\"null\",\"string\"],"
        "\"default\":null},{\"name\":\"preComb\",\"type\":[\"null\",\"long\"],\"default\":"
        "null},{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\""
        ":\"versionId\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\":"
        "\"intToLong\",\"type\":[\"null\",\"long\"],\"default\":null},{\"name\":\"newField\","
        "\"type\":[\"null\",\"string\"],\"default\":null}]}");
    free(schema);
    /* the five rows the documentation shows (its order is Spark's; sorted here) */
    EXPECT_DUMP(&x,
                "{\"rowId\":\"row_1\",\"partitionId\":\"part_0\",\"preComb\":0,\"name\":\"bob\","
                "\"versionId\":\"v_0\",\"intToLong\":0,\"newField\":null}\n"
                "{\"rowId\":\"row_2\",\"partitionId\":\"part_0\",\"preComb\":5,\"name\":"
                "\"john\",\"versionId\":\"v_3\",\"intToLong\":3,\"newField\":\"newField_1\"}\n"
                "{\"rowId\":\"row_3\",\"partitionId\":\"part_0\",\"preComb\":0,\"name\":\"tom\","
                "\"versionId\":\"v_0\",\"intToLong\":0,\"newField\":null}\n"
                "{\"rowId\":\"row_5\",\"partitionId\":\"part_0\",\"preComb\":5,\"name\":"
                "\"maroon\",\"versionId\":\"v_2\",\"intToLong\":2,\"newField\":\"newField_1\"}\n"
                "{\"rowId\":\"row_9\",\"partitionId\":\"part_0\",\"preComb\":5,\"name\":"
                "\"michael\",\"versionId\":\"v_2\",\"intToLong\":2,\"newField\":"
                "\"newField_1\"}\n");
    tbl_close(&x);
}

/* The upsert merged the old base file (intToLong stored as int) into a new one: the new file
 * stores long for every record, the carried-over ones converted. */
Test(evolve_write, upsert_rewrites_an_old_file_holding_the_narrower_type) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, "ts", "id int, ts long, v int?");
    tbl_write_ok(&x, "id int, ts long, v int?",
                 "{\"id\":1,\"ts\":1,\"v\":10}\n{\"id\":2,\"ts\":1,\"v\":-20}\n"
                 "{\"id\":3,\"ts\":1,\"v\":null}\n",
                 HUDI_WRITE_UPSERT, NULL);
    /* ts arrives as int (narrower: converted to the table's long); v as long (the table
     * widens); an older ordering value loses against the stored record */
    tbl_write_ok(&x, "id int, ts int, v long?",
                 "{\"id\":2,\"ts\":2,\"v\":5000000000}\n{\"id\":3,\"ts\":0,\"v\":7}\n",
                 HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, ts long, v long?");
    EXPECT_DUMP(&x, "{\"id\":1,\"ts\":1,\"v\":10}\n{\"id\":2,\"ts\":2,\"v\":5000000000}\n"
                    "{\"id\":3,\"ts\":1,\"v\":null}\n");
    /* one file group, rewritten: its latest base file has v as INT64 */
    hudi_fs_view *v = NULL;
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_tbl_reload(x.t, &err), 0);
    cr_assert_eq(hudi_fs_view_build(&v, x.t->timeline, &vo, &err), 0, "%s", err.message);
    size_t n = 0;
    const hudi_file_slice *slices = hudi_fs_view_latest_slices(v, &n);
    cr_assert_eq(n, 1);
    hudi_pq_file *pf = NULL;
    cr_assert_eq(hudi_pq_open(&pf, x.fs, slices[0].base->path, NULL, &err), 0, "%s", err.message);
    const hudi_field *fs = hudi_pq_schema(pf);
    cr_assert_eq(fs->n_children, HUDI_META_FIELD_COUNT + 3);
    cr_expect_eq(fs->children[HUDI_META_FIELD_COUNT + 1].type, HUDI_TYPE_INT64);
    cr_expect_eq(fs->children[HUDI_META_FIELD_COUNT + 2].type, HUDI_TYPE_INT64);
    hudi_pq_close(pf);
    hudi_fs_view_free(v);
    tbl_close(&x);
}

/* ---- nested columns ---------------------------------------------------------------------- */

Test(evolve_write, nested_field_added) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, s struct<a int?>?");
    tbl_write_ok(&x, "id int, s struct<a int?>?",
                 "{\"id\":1,\"s\":{\"a\":1}}\n{\"id\":2,\"s\":null}\n", HUDI_WRITE_UPSERT, NULL);
    tbl_write_ok(
        &x, "id int, s struct<a int?, b string?>?",
        "{\"id\":2,\"s\":{\"a\":2,\"b\":\"two\"}}\n{\"id\":3,\"s\":{\"a\":3,\"b\":null}}\n",
        HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, s struct<a int?, b string?>?");
    EXPECT_DUMP(&x, "{\"id\":1,\"s\":{\"a\":1,\"b\":null}}\n{\"id\":2,\"s\":{\"a\":2,\"b\":"
                    "\"two\"}}\n{\"id\":3,\"s\":{\"a\":3,\"b\":null}}\n");
    tbl_close(&x);
}

Test(evolve_write, list_element_and_map_value_promoted) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, l list<int?>?, m map<int?>?");
    tbl_write_ok(&x, "id int, l list<int?>?, m map<int?>?",
                 "{\"id\":1,\"l\":[1,null,3],\"m\":{\"a\":1}}\n{\"id\":2,\"l\":[],\"m\":null}\n",
                 HUDI_WRITE_UPSERT, NULL);
    tbl_write_ok(&x, "id int, l list<long?>?, m map<double?>?",
                 "{\"id\":3,\"l\":[4000000000],\"m\":{\"b\":2.5}}\n", HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, l list<long?>?, m map<double?>?");
    EXPECT_DUMP(&x, "{\"id\":1,\"l\":[1,null,3],\"m\":[{\"key\":\"a\",\"value\":1}]}\n"
                    "{\"id\":2,\"l\":[],\"m\":null}\n"
                    "{\"id\":3,\"l\":[4000000000],\"m\":[{\"key\":\"b\",\"value\":2.5}]}\n");
    /* narrower again: converted to the table's wider types */
    tbl_write_ok(&x, "id int, l list<int?>?, m map<float?>?",
                 "{\"id\":4,\"l\":[7],\"m\":{\"c\":0.5}}\n", HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, l list<long?>?, m map<double?>?");
    char *d = dump(&x);
    cr_expect(strstr(d, "{\"id\":4,\"l\":[7],\"m\":[{\"key\":\"c\",\"value\":0.5}]}\n"), "%s", d);
    hudi_free(d);
    tbl_close(&x);
}

/* ---- columns the batch lacks ------------------------------------------------------------- */

Test(evolve_write, missing_column_refused_by_default) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, a string?, b long?");
    tbl_write_ok(&x, "id int, a string?, b long?", "{\"id\":1,\"a\":\"x\",\"b\":1}\n",
                 HUDI_WRITE_UPSERT, NULL);
    const char *words[] = {"missing field", "{t_record.b}",
                           "hoodie.write.set.null.for.missing.columns", NULL};
    expect_refused(&x, "id int, a string?", "{\"id\":2,\"a\":\"y\"}\n", NULL, words);
    EXPECT_DUMP(&x, "{\"id\":1,\"a\":\"x\",\"b\":1}\n");
    tbl_close(&x);
}

Test(evolve_write, missing_column_written_as_null_when_set) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, a string?, b long?");
    tbl_write_ok(&x, "id int, a string?, b long?", "{\"id\":1,\"a\":\"x\",\"b\":1}\n",
                 HUDI_WRITE_UPSERT, NULL);
    const char *const props[] = {"hoodie.write.set.null.for.missing.columns", "true", NULL};
    tbl_write_ok(&x, "id int, a string?", "{\"id\":1,\"a\":\"x2\"}\n{\"id\":2,\"a\":\"y\"}\n",
                 HUDI_WRITE_UPSERT, props);
    EXPECT_SCHEMA(&x, "id int, a string?, b long?");
    /* an update replaces the whole record: b is null for id 1 now, as Hudi writes it */
    EXPECT_DUMP(&x, "{\"id\":1,\"a\":\"x2\",\"b\":null}\n{\"id\":2,\"a\":\"y\",\"b\":null}\n");
    tbl_close(&x);
}

Test(evolve_write, column_dropped_when_allowed) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, a string?, b long?");
    tbl_write_ok(&x, "id int, a string?, b long?", "{\"id\":1,\"a\":\"x\",\"b\":1}\n",
                 HUDI_WRITE_UPSERT, NULL);
    const char *const props[] = {"hoodie.datasource.write.schema.allow.auto.evolution.column.drop",
                                 "true", NULL};
    tbl_write_ok(&x, "id int, a string?", "{\"id\":2,\"a\":\"y\"}\n", HUDI_WRITE_UPSERT, props);
    EXPECT_SCHEMA(&x, "id int, a string?");
    EXPECT_DUMP(&x, "{\"id\":1,\"a\":\"x\"}\n{\"id\":2,\"a\":\"y\"}\n");
    tbl_close(&x);
}

Test(evolve_write, settings_from_hoodie_properties) {
    tbl x;
    const char *const reconcile[] = {"hoodie.datasource.write.reconcile.schema", "true", NULL};
    tbl_create_with(&x, "t", "id", NULL, NULL, "id int, a string?, b long?", reconcile);
    tbl_write_ok(&x, "id int, b int?", "{\"id\":1,\"b\":4}\n", HUDI_WRITE_INSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, a string?, b long?");
    EXPECT_DUMP(&x, "{\"id\":1,\"a\":null,\"b\":4}\n");
    tbl_close(&x);
}

/* ---- refusals ------------------------------------------------------------------------------ */

Test(evolve_write, refusals_leave_the_table_unchanged) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, n int?, d date?, s struct<a int?>?");
    tbl_write_ok(&x, "id int, n int?, d date?, s struct<a int?>?",
                 "{\"id\":1,\"n\":1,\"d\":\"2024-01-02\",\"s\":{\"a\":1}}\n", HUDI_WRITE_UPSERT,
                 NULL);
    const char *all = "{\"id\":2,\"n\":1,\"d\":\"2024-01-02\",\"s\":{\"a\":1},\"c\":1}\n";
    const char *w1[] = {"new field 't_record.c'", "has no default value", NULL};
    expect_refused(&x, "id int, n int?, d date?, s struct<a int?>?, c int", all, NULL, w1);
    const char *w2[] = {"incoming type 'bytes'", "table's type 'int'", "'t_record.n'",
                        "not compatible", NULL};
    expect_refused(&x, "id int, n bytes?, d date?, s struct<a int?>?",
                   "{\"id\":2,\"n\":\"AAE=\",\"d\":null,\"s\":null}\n", NULL, w2);
    const char *w3[] = {"incoming type 'int'", "table's type 'date'", "'t_record.d'", NULL};
    expect_refused(&x, "id int, n int?, d int?, s struct<a int?>?",
                   "{\"id\":2,\"n\":1,\"d\":5,\"s\":null}\n", NULL, w3);
    const char *w4[] = {"new field 't_record.s.b'", "has no default value", NULL};
    expect_refused(&x, "id int, n int?, d date?, s struct<a int?, b int>?",
                   "{\"id\":2,\"n\":1,\"d\":null,\"s\":{\"a\":1,\"b\":2}}\n", NULL, w4);
    const char *w5[] = {"incoming type 'record'", "'t_record.n'", NULL};
    expect_refused(&x, "id int, n struct<z int?>?, d date?, s struct<a int?>?",
                   "{\"id\":2,\"n\":null,\"d\":null,\"s\":null}\n", NULL, w5);
    EXPECT_SCHEMA(&x, "id int, n int?, d date?, s struct<a int?>?");
    EXPECT_DUMP(&x, "{\"id\":1,\"n\":1,\"d\":\"2024-01-02\",\"s\":{\"a\":1}}\n");
    tbl_close(&x);
}

/* A value that does not fit the table's type fails the write before any commit. */
Test(evolve_write, unconvertible_value_fails_the_write) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, d decimal(5,2)?");
    tbl_write_ok(&x, "id int, d decimal(5,2)?", "{\"id\":1,\"d\":\"1.25\"}\n", HUDI_WRITE_UPSERT,
                 NULL);
    char *before = files(&x);
    hudi_error err = HUDI_ERROR_INIT;
    int rc = tbl_write(&x, "id int, d string?", "{\"id\":2,\"d\":\"not a number\"}\n",
                       HUDI_WRITE_UPSERT, NULL, &err);
    cr_expect_eq(rc, HUDI_EINVAL, "%s", err.message);
    cr_expect(strstr(err.message, "not a number"), "%s", err.message);
    char *after = files(&x);
    cr_expect_str_eq(after, before);
    hudi_free(before);
    hudi_free(after);
    /* a parsable one is converted */
    tbl_write_ok(&x, "id int, d string?", "{\"id\":2,\"d\":\" 3.145 \"}\n", HUDI_WRITE_UPSERT,
                 NULL);
    EXPECT_SCHEMA(&x, "id int, d decimal(5,2)?");
    EXPECT_DUMP(&x, "{\"id\":1,\"d\":\"1.25\"}\n{\"id\":2,\"d\":\"3.15\"}\n");
    tbl_close(&x);
}

/* Reordered columns plus a new one (Hudi 0.15 takes the batch's order): the table keeps its
 * order and appends the new column. */
Test(evolve_write, reorder_and_add_keeps_the_table_order) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, a string?, b long?");
    tbl_write_ok(&x, "id int, a string?, b long?", "{\"id\":1,\"a\":\"x\",\"b\":1}\n",
                 HUDI_WRITE_UPSERT, NULL);
    tbl_write_ok(&x, "c double?, b long?, id int, a string?",
                 "{\"c\":0.5,\"b\":2,\"id\":2,\"a\":\"y\"}\n", HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, a string?, b long?, c double?");
    EXPECT_DUMP(&x, "{\"id\":1,\"a\":\"x\",\"b\":1,\"c\":null}\n"
                    "{\"id\":2,\"a\":\"y\",\"b\":2,\"c\":0.5}\n");
    tbl_close(&x);
}

/* The documentation's nested case as Hudi 0.15 on Spark 3.5 ran it: a struct field added, list
 * elements int -> long, map values int -> double, in a table partitioned so that the second
 * write rewrites one partition's file group and leaves the other's base file as it was. */
#define NESTED_V1                                                                                  \
    "id string?, part string?, ts long?, s struct<a int?, b string?>?, l list<int?>?, m "          \
    "map<int?>?"
#define NESTED_V2                                                                                  \
    "id string?, part string?, ts long?, s struct<a int?, b string?, c string?>?, "                \
    "l list<long?>?, m map<double?>?"

Test(evolve_write, nested_promotions_as_spark_wrote_them) {
    tbl x;
    tbl_create(&x, "onwrite_nested", "id", "part", "ts", NESTED_V1);
    tbl_write_ok(&x, NESTED_V1,
                 "{\"id\":\"k1\",\"part\":\"p1\",\"ts\":1,\"s\":{\"a\":1,\"b\":\"one\"},"
                 "\"l\":[1,2],\"m\":{\"x\":1}}\n"
                 "{\"id\":\"k2\",\"part\":\"p2\",\"ts\":1,\"s\":{\"a\":2,\"b\":\"two\"},"
                 "\"l\":[],\"m\":{\"y\":2,\"z\":3}}\n"
                 "{\"id\":\"k3\",\"part\":\"p2\",\"ts\":1,\"s\":null,\"l\":null,\"m\":null}\n",
                 HUDI_WRITE_UPSERT, NULL);
    tbl_write_ok(&x, NESTED_V2,
                 "{\"id\":\"k2\",\"part\":\"p2\",\"ts\":2,\"s\":{\"a\":22,\"b\":\"two\","
                 "\"c\":\"new\"},\"l\":[4000000000],\"m\":{\"y\":2.5}}\n"
                 "{\"id\":\"k4\",\"part\":\"p2\",\"ts\":2,\"s\":{\"a\":4,\"b\":\"four\","
                 "\"c\":null},\"l\":[4,5],\"m\":{\"w\":-1.25}}\n",
                 HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, NESTED_V2);
    char *schema = last_commit_extra(&x, "schema");
    cr_expect_str_eq(
        schema, "{\"type\":\"record\",\"name\":\"onwrite_nested_record\",\"namespace\":\"hoodie."
                "onwrite_nested\",\"fields\":[{\"name\":\"id\",\"type\":[\"null\",\"string\"],"
                "\"default\":null},{\"name\":\"part\",\"type\":[\"null\",\"string\"],\"default\":"
                "null},{\"name\":\"ts\",\"type\":[\"null\",\"long\"],\"default\":null},{\"name\":"
                "\"s\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"s\",\"namespace\":"
                "\"hoodie.onwrite_nested.onwrite_nested_record\",\"fields\":[{\"name\":\"a\","
                "\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"b\",\"type\":[\"null\","
                "\"string\"],\"default\":null},{\"name\":\"c\",\"type\":[\"null\",\"string\"],"
                "\"default\":null}]}],\"default\":null},{\"name\":\"l\",\"type\":[\"null\",{"
                "\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null},{\"name\":"
                "\"m\",\"type\":[\"null\",{\"type\":\"map\",\"values\":[\"null\",\"double\"]}],"
                "\"default\":null}]}");
    free(schema);
    /* the rows Spark reads back; k1 still lives in p1's first base file (int, int, no c) */
    EXPECT_DUMP(&x, "{\"id\":\"k1\",\"part\":\"p1\",\"ts\":1,\"s\":{\"a\":1,\"b\":\"one\","
                    "\"c\":null},\"l\":[1,2],\"m\":[{\"key\":\"x\",\"value\":1}]}\n"
                    "{\"id\":\"k2\",\"part\":\"p2\",\"ts\":2,\"s\":{\"a\":22,\"b\":\"two\","
                    "\"c\":\"new\"},\"l\":[4000000000],\"m\":[{\"key\":\"y\",\"value\":2.5}]}\n"
                    "{\"id\":\"k3\",\"part\":\"p2\",\"ts\":1,\"s\":null,\"l\":null,\"m\":null}\n"
                    "{\"id\":\"k4\",\"part\":\"p2\",\"ts\":2,\"s\":{\"a\":4,\"b\":\"four\","
                    "\"c\":null},\"l\":[4,5],\"m\":[{\"key\":\"w\",\"value\":-1.25}]}\n");
    tbl_close(&x);
}

/* ---- schema on read ------------------------------------------------------------------------- */

static void alter(tbl *x, const hudi_schema_change *ch) {
    hudi_alter_options o = {0};
    hudi_error err = HUDI_ERROR_INIT;
    char instant[HUDI_INSTANT_TIME_MAX];
    o.schema_on_read = true;
    cr_assert_eq(hudi_tbl_alter_schema(x->t, ch, 1, &o, instant, &err), 0, "%s", err.message);
}

static hudi_ischema latest_ischema(tbl *x) {
    hudi_ischema s;
    hudi_error err = HUDI_ERROR_INIT;
    char *json = last_commit_extra(x, "latest_schema");
    cr_assert_not_null(json, "no latest_schema");
    cr_assert_eq(hudi_ischema_parse(&s, json, strlen(json), &err), 0, "%s", err.message);
    free(json);
    return s;
}

static int32_t column_id(const hudi_ischema *s, const char *path) {
    int32_t id = -1;
    cr_assert_not_null(hudi_ischema_find_path(s, path, &id), "no column %s", path);
    return id;
}

/* A table with an InternalSchema: a write that adds a column and widens another evolves it (new
 * id, new version = the commit's instant, saved in the history first); a write that changes
 * nothing keeps the version and writes no history; a rename by ALTER is followed by the merge
 * (old records read by column id); a column drop the settings allow keeps the column. */
Test(evolve_write, schema_on_read_reconciles_the_internal_schema) {
    tbl x;
    hudi_error err = HUDI_ERROR_INIT;
    tbl_create(&x, "t", "id", NULL, "ts", "id int, ts long, name string?, n int?");
    tbl_write_ok(&x, "id int, ts long, name string?, n int?",
                 "{\"id\":1,\"ts\":1,\"name\":\"one\",\"n\":1}\n"
                 "{\"id\":2,\"ts\":1,\"name\":\"two\",\"n\":2}\n",
                 HUDI_WRITE_UPSERT, NULL);
    hudi_field str;
    cr_assert_eq(hudi_field_init(&str, "x", HUDI_TYPE_STRING, true), 0);
    hudi_schema_change add = {HUDI_SCHEMA_ADD,      "note", &str, NULL, NULL,
                              HUDI_SCHEMA_POS_NONE, NULL,   false};
    alter(&x, &add);
    hudi_ischema v1 = latest_ischema(&x);

    /* evolve: extra added, n widened to long */
    tbl_write_ok(&x, "id int, ts long, name string?, n long?, note string?, extra double?",
                 "{\"id\":3,\"ts\":1,\"name\":\"three\",\"n\":3000000000,\"note\":\"x\","
                 "\"extra\":0.5}\n",
                 HUDI_WRITE_UPSERT, NULL);
    hudi_instant_list l = {0};
    cr_assert_eq(hudi_tbl_reload(x.t, &err), 0);
    cr_assert_eq(hudi_timeline_completed_commits(&l, x.t->timeline, &err), 0);
    char t3[HUDI_INSTANT_TIME_MAX];
    snprintf(t3, sizeof(t3), "%s", l.items[l.count - 1]->time);
    hudi_instant_list_dispose(&l);
    hudi_ischema v2 = latest_ischema(&x);
    cr_expect_eq(v2.version_id, hudi_ischema_version_of(t3));
    cr_expect_eq(v2.max_column_id, v1.max_column_id + 1);
    cr_expect_eq(column_id(&v2, "extra"), v1.max_column_id + 1);
    cr_expect_eq(column_id(&v2, "n"), column_id(&v1, "n"));
    cr_expect_eq(hudi_ischema_find_path(&v2, "n", NULL)->type, HUDI_TYPE_INT64);
    hudi_ischema_history h = {0};
    cr_assert_eq(hudi_schema_history_load(&h, x.t, &err), 0, "%s", err.message);
    cr_assert(h.count >= 2);
    cr_expect_eq(h.items[0].version_id, v2.version_id, "the new version first in the history");
    cr_expect_eq(h.items[1].version_id, v1.version_id);
    hudi_ischema_history_dispose(&h);
    char *schema = last_commit_extra(&x, "schema");
    const char *with_meta = "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":"
                            "\"hoodie.t\",\"fields\":[{\"name\":\"_hoodie_commit_time\",";
    cr_expect(strncmp(schema, with_meta, strlen(with_meta)) == 0,
              "the schema carries the meta fields: %s", schema);
    free(schema);

    /* unchanged: the version in force is kept and no history file is written */
    char *before = files(&x);
    tbl_write_ok(&x, "id int, ts long, name string?, n long?, note string?, extra double?",
                 "{\"id\":4,\"ts\":1,\"name\":\"four\",\"n\":4,\"note\":null,\"extra\":null}\n",
                 HUDI_WRITE_UPSERT, NULL);
    hudi_ischema v3 = latest_ischema(&x);
    cr_expect_eq(v3.version_id, v2.version_id);
    char *after = files(&x);
    for (const char *p = after; (p = strstr(p, ".hoodie/.schema/"));) {
        const char *e = strchr(p, '\n');
        char line[256];
        snprintf(line, sizeof(line), "%.*s\n", (int)(e - p), p);
        cr_expect(strstr(before, line), "a new history file: %s", line);
        p = e;
    }
    hudi_free(before);
    hudi_free(after);

    /* rename name -> full_name, then an upsert rewrites the file group: the old records keep
     * their values under the new name (read by id) */
    hudi_schema_change ren = {HUDI_SCHEMA_RENAME,   "name", NULL, NULL, "full_name",
                              HUDI_SCHEMA_POS_NONE, NULL,   false};
    alter(&x, &ren);
    tbl_write_ok(&x, "id int, ts long, full_name string?, n long?, note string?, extra double?",
                 "{\"id\":1,\"ts\":2,\"full_name\":\"ONE\",\"n\":10,\"note\":null,"
                 "\"extra\":null}\n",
                 HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, ts long, full_name string?, n long?, note string?, extra double?");
    EXPECT_DUMP(
        &x, "{\"id\":1,\"ts\":2,\"full_name\":\"ONE\",\"n\":10,\"note\":null,\"extra\":null}\n"
            "{\"id\":2,\"ts\":1,\"full_name\":\"two\",\"n\":2,\"note\":null,\"extra\":null}\n"
            "{\"id\":3,\"ts\":1,\"full_name\":\"three\",\"n\":3000000000,\"note\":\"x\","
            "\"extra\":0.5}\n"
            "{\"id\":4,\"ts\":1,\"full_name\":\"four\",\"n\":4,\"note\":null,\"extra\":null}\n");

    /* a drop the settings allow keeps the column under schema on read */
    const char *const drop[] = {"hoodie.datasource.write.schema.allow.auto.evolution.column.drop",
                                "true", NULL};
    tbl_write_ok(&x, "id int, ts long, full_name string?, n long?, extra double?",
                 "{\"id\":5,\"ts\":1,\"full_name\":\"five\",\"n\":5,\"extra\":5.5}\n",
                 HUDI_WRITE_UPSERT, drop);
    EXPECT_SCHEMA(&x, "id int, ts long, full_name string?, n long?, note string?, extra double?");

    hudi_ischema_dispose(&v1);
    hudi_ischema_dispose(&v2);
    hudi_ischema_dispose(&v3);
    hudi_field_dispose(&str);
    tbl_close(&x);
}

/* A custom nullable column named like the meta columns is an ordinary column (Hudi's docs). */
Test(evolve_write, custom_hoodie_column_added) {
    tbl x;
    tbl_create(&x, "t", "id", NULL, NULL, "id int, a string?");
    tbl_write_ok(&x, "id int, a string?", "{\"id\":1,\"a\":\"x\"}\n", HUDI_WRITE_UPSERT, NULL);
    tbl_write_ok(&x, "id int, a string?, _hoodie_meta_col string?",
                 "{\"id\":2,\"a\":\"y\",\"_hoodie_meta_col\":\"m\"}\n", HUDI_WRITE_UPSERT, NULL);
    EXPECT_SCHEMA(&x, "id int, a string?, _hoodie_meta_col string?");
    EXPECT_DUMP(&x, "{\"id\":1,\"a\":\"x\",\"_hoodie_meta_col\":null}\n"
                    "{\"id\":2,\"a\":\"y\",\"_hoodie_meta_col\":\"m\"}\n");
    tbl_close(&x);
}

/* A schema-evolving write under schema on read fails at every storage call in turn (the base
 * files, the commit, the InternalSchema history file): the table reads as before - rows and
 * schema - or, once the commit is complete, as after; the history never lacks the version the
 * timeline names; and the next write (the same batch again) succeeds. */
Test(evolve_write, evolving_write_fails_at_every_storage_call, .timeout = 120) {
    static const char *const v1 = "id int, ts long, name string?, n int?";
    static const char *const v2 = "id int, ts long, name string?, n long?, note string?, "
                                  "extra double?";
    static const char *const row3 = "{\"id\":3,\"ts\":1,\"name\":\"three\",\"n\":3000000000,"
                                    "\"note\":\"x\",\"extra\":0.5}\n";
    hudi_field str;
    cr_assert_eq(hudi_field_init(&str, "x", HUDI_TYPE_STRING, true), 0);
    hudi_schema_change add = {HUDI_SCHEMA_ADD,      "note", &str, NULL, NULL,
                              HUDI_SCHEMA_POS_NONE, NULL,   false};
    int tripped_runs = 0;
    for (int64_t n = 1; n < 1000; n++) {
        tbl x;
        hudi_error err = HUDI_ERROR_INIT;
        tbl_create(&x, "t", "id", NULL, "ts", v1);
        tbl_write_ok(&x, v1,
                     "{\"id\":1,\"ts\":1,\"name\":\"one\",\"n\":1}\n"
                     "{\"id\":2,\"ts\":1,\"name\":\"two\",\"n\":2}\n",
                     HUDI_WRITE_UPSERT, NULL);
        alter(&x, &add);
        char *rows_before = dump(&x);
        char *schema_before = table_schema(&x);

        hudi_fs *faulty = NULL;
        cr_assert_eq(hudi_fs_faulty_new(&faulty, x.fs, (hudi_fault_plan){n, -1, true}, NULL), 0);
        hudi_table *ft = NULL;
        int rc = hudi_tbl_open(&ft, faulty, x.base, &err);
        if (rc == 0) {
            hudi_field s = spec_record("in", v2);
            hudi_batch *b = rows(&s, row3);
            hudi_write_options o = HUDI_WRITE_OPTIONS_INIT;
            hudi_table_write_result res;
            o.op = HUDI_WRITE_UPSERT;
            o.use_bloom_index = false;
            rc = hudi_tbl_write(ft, b, &o, &res, &err);
            hudi_batch_free(b);
            hudi_field_dispose(&s);
        }
        bool tripped = hudi_fs_faulty_tripped(faulty);
        hudi_tbl_free(ft);
        hudi_fs_free(faulty);

        char *rows_now = dump(&x);
        char *schema_now = table_schema(&x);
        bool evolved = strcmp(schema_now, schema_before) != 0;
        if (!tripped || rc == 0) {
            cr_assert_eq(rc, 0, "%s", err.message);
            cr_assert(evolved, "call %lld: the write succeeded without the new schema",
                      (long long)n);
        }
        if (evolved) { /* committed: the new row and the new schema */
            cr_assert_str_eq(schema_now, v2, "call %lld", (long long)n);
            cr_assert(strstr(rows_now, "\"three\""), "call %lld: %s", (long long)n, rows_now);
        } else { /* not committed: exactly as before */
            cr_assert_str_eq(rows_now, rows_before, "call %lld", (long long)n);
        }
        /* the version the timeline names is in the history */
        hudi_ischema cur = latest_ischema(&x);
        hudi_ischema_history h = {0};
        cr_assert_eq(hudi_schema_history_load(&h, x.t, &err), 0, "call %lld: %s", (long long)n,
                     err.message);
        bool found = false;
        for (size_t k = 0; k < h.count; k++) found |= h.items[k].version_id == cur.version_id;
        cr_assert(found, "call %lld: version %lld missing from the history", (long long)n,
                  (long long)cur.version_id);
        hudi_ischema_history_dispose(&h);
        hudi_ischema_dispose(&cur);

        if (tripped && rc != 0) {
            tripped_runs++;
            tbl_write_ok(&x, v2, row3, HUDI_WRITE_UPSERT, NULL); /* the retry commits */
            EXPECT_SCHEMA(&x, v2);
            EXPECT_DUMP(&x, "{\"id\":1,\"ts\":1,\"name\":\"one\",\"n\":1,\"note\":null,"
                            "\"extra\":null}\n"
                            "{\"id\":2,\"ts\":1,\"name\":\"two\",\"n\":2,\"note\":null,"
                            "\"extra\":null}\n"
                            "{\"id\":3,\"ts\":1,\"name\":\"three\",\"n\":3000000000,\"note\":"
                            "\"x\",\"extra\":0.5}\n");
        }
        hudi_free(rows_before);
        hudi_free(schema_before);
        hudi_free(rows_now);
        hudi_free(schema_now);
        tbl_close(&x);
        if (!tripped) break;
    }
    cr_assert_gt(tripped_runs, 5, "the fault never hit the write");
    hudi_field_dispose(&str);
}
