/* api_test.c - the public table API (include/hudi/hudi_table.h) end to end: create a table from an
 * ArrowSchema, write Arrow batches with each operation, scan back through the Arrow C stream
 * (snapshot, time travel, incremental, projection, filter) and compare values; argument checks
 * and error codes; a Spark-written fixture table read through the same calls. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "columnar/arrow_c.h"
#include "columnar/render.h"
#include "hudi/hudi_table.h"
#include "support.h"

/* ---- building batches (hudi arrays, exported to Arrow) ------------------------------------ */

/* struct<id: int64 not null, name: string, fare: decimal(10,2), tags: list<string>,
 *        city: string not null> */
static void schema_init(hudi_field *s) {
    cr_assert_eq(hudi_field_init(s, "trips", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(s, 5), 0);
    hudi_field *c = s->children;
    cr_assert_eq(hudi_field_init(&c[0], "id", HUDI_TYPE_INT64, false), 0);
    cr_assert_eq(hudi_field_init(&c[1], "name", HUDI_TYPE_STRING, true), 0);
    cr_assert_eq(hudi_field_init(&c[2], "fare", HUDI_TYPE_DECIMAL, true), 0);
    c[2].precision = 10, c[2].scale = 2;
    cr_assert_eq(hudi_field_init(&c[3], "tags", HUDI_TYPE_LIST, true), 0);
    cr_assert_eq(hudi_field_set_children(&c[3], 1), 0);
    cr_assert_eq(hudi_field_init(&c[3].children[0], "element", HUDI_TYPE_STRING, true), 0);
    cr_assert_eq(hudi_field_init(&c[4], "city", HUDI_TYPE_STRING, false), 0);
}

static void add_row(hudi_batch *b, int64_t id, const char *name, int64_t fare_cents, int n_tags,
                    const char *city) {
    hudi_array **c = b->columns;
    cr_assert_eq(hudi_array_append_fixed(c[0], &id, NULL), 0);
    if (name)
        cr_assert_eq(hudi_array_append_bytes(c[1], name, strlen(name), NULL), 0);
    else
        cr_assert_eq(hudi_array_append_null(c[1], NULL), 0);
    __int128 fare = fare_cents;
    cr_assert_eq(hudi_array_append_fixed(c[2], &fare, NULL), 0);
    for (int i = 0; i < n_tags; i++)
        cr_assert_eq(hudi_array_append_bytes(c[3]->children[0], "t", 1, NULL), 0);
    cr_assert_eq(hudi_array_append_nested(c[3], n_tags, NULL), 0);
    cr_assert_eq(hudi_array_append_bytes(c[4], city, strlen(city), NULL), 0);
    b->num_rows++;
}

typedef struct arrow_batch {
    struct ArrowSchema schema;
    struct ArrowArray array;
} arrow_batch;

/* Exports b (emptied) as Arrow structs. */
static void export_batch(arrow_batch *out, hudi_batch *b) {
    cr_assert_eq(hudi_arrow_export_schema(&out->schema, b->schema, NULL), 0);
    cr_assert_eq(hudi_arrow_export_batch(&out->array, b, NULL), 0);
}

static void release_batch(arrow_batch *a) {
    if (a->array.release) a->array.release(&a->array);
    if (a->schema.release) a->schema.release(&a->schema);
}

/* ---- reading a stream back as JSON lines -------------------------------------------------- */

/* Scans `t` with `so` and renders every row as JSON with the given columns only (the stream is
 * imported back into hudi arrays: the Arrow round trip). Rows sorted, newline separated. */
static char *scan_json(hudi_table *t, const hudi_scan_options *so, const char *const *cols,
                       int n_cols) {
    hudi_scan *scan = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    struct ArrowArrayStream st;
    struct ArrowSchema sch;
    hudi_field f;
    cr_assert_eq(hudi_scan_open(&scan, t, so, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_scan_to_arrow(scan, &st, &err), 0, "%s", err.message);
    cr_assert_eq(st.get_schema(&st, &sch), 0);
    cr_assert_eq(hudi_arrow_import_schema(&f, &sch, &err), 0, "%s", err.message);
    char *lines[64];
    int n = 0;
    for (;;) {
        struct ArrowArray arr;
        cr_assert_eq(st.get_next(&st, &arr), 0, "%s", st.get_last_error(&st));
        if (!arr.release) break;
        hudi_batch *b = NULL;
        cr_assert_eq(hudi_arrow_import_batch(&b, &arr, &sch, &f, &err), 0, "%s", err.message);
        for (int64_t r = 0; r < b->num_rows; r++) {
            hudi_buf o = HUDI_BUF_INIT;
            hudi_buf_putc(&o, '{');
            for (int c = 0; c < n_cols; c++) {
                int32_t k = 0;
                while (k < f.n_children && strcmp(f.children[k].name, cols[c]) != 0) k++;
                cr_assert_lt(k, f.n_children, "no column %s", cols[c]);
                hudi_buf_printf(&o, "%s\"%s\":", c ? "," : "", cols[c]);
                hudi_render_json_value(&o, b->columns[k], r);
            }
            hudi_buf_putc(&o, '}');
            cr_assert_lt(n, 64);
            lines[n++] = hudi_buf_detach(&o);
        }
        hudi_batch_free(b);
        arr.release(&arr);
    }
    for (int i = 1; i < n; i++) /* insertion sort: rows come in file order */
        for (int k = i; k > 0 && strcmp(lines[k - 1], lines[k]) > 0; k--) {
            char *tmp = lines[k];
            lines[k] = lines[k - 1];
            lines[k - 1] = tmp;
        }
    hudi_buf all = HUDI_BUF_INIT;
    for (int i = 0; i < n; i++) {
        hudi_buf_puts(&all, lines[i]);
        hudi_buf_putc(&all, '\n');
        hudi_free(lines[i]);
    }
    sch.release(&sch);
    st.release(&st);
    hudi_field_dispose(&f);
    char *s = hudi_buf_detach(&all);
    return s ? s : hudi_strdup("");
}

static const char *const DATA_COLS[] = {"id", "name", "fare", "tags", "city"};

static void expect_rows(hudi_table *t, const hudi_scan_options *so, const char *expect) {
    char *got = scan_json(t, so, DATA_COLS, 5);
    cr_assert_str_eq(got, expect);
    hudi_free(got);
}

static hudi_table *create_table(const char *path, hudi_field *s) {
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    struct ArrowSchema as;
    cr_assert_eq(hudi_arrow_export_schema(&as, s, NULL), 0);
    hudi_table_create_options io = HUDI_TABLE_CREATE_OPTIONS_INIT;
    io.table_name = "trips";
    io.record_key_fields = "id";
    io.partition_fields = "city";
    io.precombine_field = "fare";
    io.schema = &as;
    cr_assert_eq(hudi_table_create(&t, path, &io, &err), 0, "%s", err.message);
    as.release(&as);
    return t;
}

static void write(hudi_table *t, hudi_batch *b, hudi_write_operation op,
                  hudi_table_write_result *res) {
    arrow_batch ab;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    wo.operation = op;
    export_batch(&ab, b);
    cr_assert_eq(hudi_table_write(t, &ab.schema, &ab.array, &wo, res, &err), 0, "%s", err.message);
    release_batch(&ab);
}

Test(api, write_and_scan_roundtrip) {
    char path[512];
    snprintf(path, sizeof(path), "%s/trips/", test_tmpdir()); /* a trailing slash is fine */
    hudi_field s;
    schema_init(&s);
    hudi_table *t = create_table(path, &s);
    cr_assert_str_eq(hudi_table_latest_instant(t), "");
    cr_assert_str_eq(hudi_table_property(t, "hoodie.table.name"), "trips");
    cr_assert_null(hudi_table_property(t, "no.such.key"));
    cr_assert_eq(strlen(hudi_table_base_path(t)) + 1, strlen(path));

    hudi_batch *b = NULL;
    hudi_table_write_result r1, r2, r3;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    add_row(b, 1, "ann", 1250, 2, "paris");
    add_row(b, 2, NULL, 725, 0, "oslo");
    add_row(b, 3, "cid", 3000, 1, "paris");
    write(t, b, HUDI_WRITE_INSERT, &r1);
    cr_assert_eq(r1.inserts, 3);
    cr_assert_str_eq(hudi_table_latest_instant(t), r1.instant);
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    const char *v1 =
        "{\"id\":1,\"name\":\"ann\",\"fare\":\"12.50\",\"tags\":[\"t\",\"t\"],\"city\":\"paris\"}\n"
        "{\"id\":2,\"name\":null,\"fare\":\"7.25\",\"tags\":[],\"city\":\"oslo\"}\n"
        "{\"id\":3,\"name\":\"cid\",\"fare\":\"30.00\",\"tags\":[\"t\"],\"city\":\"paris\"}\n";
    expect_rows(t, NULL, v1);

    /* Upsert: id 2 with a higher fare wins, id 3 with a lower one loses, id 4 is new. */
    hudi_batch_clear(b);
    add_row(b, 2, "bo", 800, 0, "oslo");
    add_row(b, 3, "old", 100, 0, "paris");
    add_row(b, 4, "dee", 999, 3, "lima");
    write(t, b, HUDI_WRITE_UPSERT, &r2);
    cr_assert_eq(r2.inserts, 1);
    const char *v2 =
        "{\"id\":1,\"name\":\"ann\",\"fare\":\"12.50\",\"tags\":[\"t\",\"t\"],\"city\":\"paris\"}\n"
        "{\"id\":2,\"name\":\"bo\",\"fare\":\"8.00\",\"tags\":[],\"city\":\"oslo\"}\n"
        "{\"id\":3,\"name\":\"cid\",\"fare\":\"30.00\",\"tags\":[\"t\"],\"city\":\"paris\"}\n"
        "{\"id\":4,\"name\":\"dee\",\"fare\":\"9.99\",\"tags\":[\"t\",\"t\",\"t\"],\"city\":"
        "\"lima\"}\n";
    expect_rows(t, NULL, v2);

    /* Delete id 1. */
    hudi_batch_clear(b);
    add_row(b, 1, NULL, 0, 0, "paris");
    write(t, b, HUDI_WRITE_DELETE, &r3);
    cr_assert_eq(r3.deletes, 1);

    /* Time travel, incremental, projection, filter. */
    so.as_of_instant = r1.instant;
    expect_rows(t, &so, v1);
    so = (hudi_scan_options)HUDI_SCAN_OPTIONS_INIT;
    so.begin_instant = r1.instant;
    so.end_instant = r2.instant;
    /* Ids 2 and 4 changed in (r1, r2]; id 1 did not. (Id 3, whose update lost on the precombine
     * field, is left out of the check: Hudi keeps the old record's commit time there.) */
    char *inc = scan_json(t, &so, DATA_COLS, 5);
    cr_assert(
        strstr(inc, "{\"id\":2,\"name\":\"bo\",\"fare\":\"8.00\",\"tags\":[],\"city\":\"oslo\"}\n"),
        "%s", inc);
    cr_assert(strstr(inc, "{\"id\":4,\"name\":\"dee\""), "%s", inc);
    cr_assert_null(strstr(inc, "{\"id\":1,"), "%s", inc);
    hudi_free(inc);
    so = (hudi_scan_options)HUDI_SCAN_OPTIONS_INIT;
    so.filter = "fare >= 9.99";
    const char *const id_col[] = {"id"};
    so.columns = id_col;
    so.n_columns = 1;
    so.batch_rows = 1;
    char *got = scan_json(t, &so, id_col, 1);
    cr_assert_str_eq(got, "{\"id\":3}\n{\"id\":4}\n");
    hudi_free(got);
    so.filter = "_hoodie_commit_time = '00000000000000000'"; /* matches nothing: an empty stream */
    got = scan_json(t, &so, id_col, 1);
    cr_assert_str_eq(got, "");
    hudi_free(got);

    /* The table schema as Arrow: the data columns only. */
    struct ArrowSchema ts;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_table_schema(t, &ts, &err), 0, "%s", err.message);
    cr_assert_str_eq(ts.format, "+s");
    cr_assert_eq(ts.n_children, 5);
    cr_assert_str_eq(ts.children[0]->name, "id");
    cr_assert_str_eq(ts.children[2]->format, "d:10,2");
    ts.release(&ts);

    /* Another handle sees the same table; refresh after a write elsewhere. */
    hudi_table *t2 = NULL;
    cr_assert_eq(hudi_table_open(&t2, path, NULL, &err), 0, "%s", err.message);
    cr_assert_str_eq(hudi_table_latest_instant(t2), r3.instant);
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    wo.operation = HUDI_WRITE_DELETE_PARTITION;
    const char *parts[] = {"lima"};
    wo.partitions = parts;
    wo.n_partitions = 1;
    hudi_table_write_result r4;
    cr_assert_eq(hudi_table_write(t2, NULL, NULL, &wo, &r4, &err), 0, "%s", err.message);
    cr_assert_str_eq(hudi_table_latest_instant(t), r3.instant);
    cr_assert_eq(hudi_table_refresh(t, &err), 0);
    cr_assert_str_eq(hudi_table_latest_instant(t), r4.instant);
    got = scan_json(t, NULL, id_col, 1);
    cr_assert_str_eq(got, "{\"id\":2}\n{\"id\":3}\n");
    hudi_free(got);

    int32_t rolled = -1;
    int64_t cleaned = -1;
    cr_assert_eq(hudi_table_rollback(t, &rolled, &err), 0, "%s", err.message);
    cr_assert_eq(rolled, 0);
    cr_assert_eq(hudi_table_clean(t, 1, &cleaned, &err), 0, "%s", err.message);
    cr_assert_geq(cleaned, 0);
    got = scan_json(t, NULL, id_col, 1);
    cr_assert_str_eq(got, "{\"id\":2}\n{\"id\":3}\n");
    hudi_free(got);

    hudi_table_free(t2);
    hudi_table_free(t);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(api, meta_columns_in_a_write_are_ignored) {
    char path[512];
    snprintf(path, sizeof(path), "%s/t", test_tmpdir());
    hudi_field s;
    schema_init(&s);
    hudi_table *t = create_table(path, &s);
    /* A batch shaped like a scan's output: meta columns first. */
    hudi_field m;
    cr_assert_eq(hudi_field_init(&m, "x", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&m, 6), 0);
    cr_assert_eq(hudi_field_init(&m.children[0], "_hoodie_commit_time", HUDI_TYPE_STRING, true), 0);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(hudi_field_copy(&m.children[i + 1], &s.children[i]), 0);
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, &m, NULL), 0);
    cr_assert_eq(hudi_array_append_bytes(b->columns[0], "junk", 4, NULL), 0);
    hudi_batch view = {&s, 0, 5, b->columns + 1};
    add_row(&view, 7, "g", 100, 0, "rome");
    b->num_rows = 1;
    hudi_table_write_result r;
    write(t, b, HUDI_WRITE_BULK_INSERT, &r);
    const char *const cols[] = {"_hoodie_commit_time", "id"};
    char *got = scan_json(t, NULL, cols, 2);
    char expect[128];
    snprintf(expect, sizeof(expect), "{\"_hoodie_commit_time\":\"%s\",\"id\":7}\n", r.instant);
    cr_assert_str_eq(got, expect);
    hudi_free(got);
    hudi_batch_free(b);
    hudi_field_dispose(&m);
    hudi_table_free(t);
    hudi_field_dispose(&s);
}

Test(api, argument_and_state_errors) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_table *t = (hudi_table *)1;
    char path[512];
    snprintf(path, sizeof(path), "%s/none", test_tmpdir());
    cr_assert_eq(hudi_table_open(&t, path, NULL, &err), HUDI_ENOTFOUND);
    cr_assert_null(t);
    cr_assert(strstr(err.message, "not a Hudi table"), "%s", err.message);
    hudi_table_open_options oo = HUDI_TABLE_OPEN_OPTIONS_INIT;
    oo.version = 99;
    cr_assert_eq(hudi_table_open(&t, path, &oo, &err), HUDI_EINVAL);
    cr_assert_eq(hudi_table_open(&t, NULL, NULL, NULL), HUDI_EINVAL); /* err may be NULL */

    hudi_field s;
    schema_init(&s);
    snprintf(path, sizeof(path), "%s/t", test_tmpdir());
    t = create_table(path, &s);
    /* Creating again: EEXISTS. */
    struct ArrowSchema as;
    cr_assert_eq(hudi_arrow_export_schema(&as, &s, NULL), 0);
    hudi_table_create_options io = HUDI_TABLE_CREATE_OPTIONS_INIT;
    io.table_name = "trips";
    io.record_key_fields = "id";
    io.schema = &as;
    hudi_table *t2 = (hudi_table *)1;
    cr_assert_eq(hudi_table_create(&t2, path, &io, &err), HUDI_EEXISTS);
    cr_assert_null(t2);
    /* no record key fields: generated keys, which need the meta fields */
    io.record_key_fields = NULL;
    io.populate_meta_fields = false;
    cr_assert_eq(hudi_table_create(&t2, path, &io, &err), HUDI_EINVAL);
    io.populate_meta_fields = true;
    io.record_key_fields = "id";
    io.table_type = "bogus";
    cr_assert_eq(hudi_table_create(&t2, path, &io, &err), HUDI_EINVAL);
    as.release(&as);

    /* Bad filters name what is wrong; the scan handle stays NULL. */
    hudi_scan *scan = (hudi_scan *)1;
    hudi_scan_options so = HUDI_SCAN_OPTIONS_INIT;
    so.filter = "nope = 1";
    cr_assert_eq(hudi_scan_open(&scan, t, &so, &err), HUDI_EINVAL);
    cr_assert_null(scan);
    cr_assert(strstr(err.message, "unknown column 'nope'"), "%s", err.message);
    so.filter = "id = 'x'";
    cr_assert_eq(hudi_scan_open(&scan, t, &so, &err), HUDI_EINVAL);
    so.filter = NULL;
    so.as_of_instant = "1";
    so.begin_instant = "0";
    cr_assert_eq(hudi_scan_open(&scan, t, &so, &err), HUDI_EINVAL);
    so = (hudi_scan_options)HUDI_SCAN_OPTIONS_INIT;
    so.version = 2;
    cr_assert_eq(hudi_scan_open(&scan, t, &so, &err), HUDI_EINVAL);
    hudi_scan_free(NULL);
    hudi_table_free(NULL);

    /* Writes: unknown operation, a missing batch, a non-struct batch. */
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    wo.operation = (hudi_write_operation)42;
    cr_assert_eq(hudi_table_write(t, NULL, NULL, &wo, NULL, &err), HUDI_EINVAL);
    wo.operation = HUDI_WRITE_UPSERT;
    cr_assert_eq(hudi_table_write(t, NULL, NULL, &wo, NULL, &err), HUDI_EINVAL);
    hudi_field leaf;
    cr_assert_eq(hudi_field_init(&leaf, "x", HUDI_TYPE_INT32, false), 0);
    hudi_array *a = NULL;
    cr_assert_eq(hudi_array_new(&a, &leaf, NULL), 0);
    struct ArrowSchema ls;
    struct ArrowArray la;
    cr_assert_eq(hudi_arrow_export_schema(&ls, &leaf, NULL), 0);
    cr_assert_eq(hudi_arrow_export_array(&la, a, NULL), 0);
    cr_assert_eq(hudi_table_write(t, &ls, &la, &wo, NULL, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "struct"), "%s", err.message);
    la.release(&la);
    ls.release(&ls);
    hudi_array_free(a);
    hudi_field_dispose(&leaf);
    cr_assert_str_eq(hudi_table_latest_instant(t), ""); /* nothing was committed */

    hudi_table_free(t);
    hudi_field_dispose(&s);
}

Test(api, reads_a_spark_written_table) {
    const char *dir = fixture_unzip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    cr_assert_not_null(dir);
    hudi_table *t = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_table_open(&t, dir, NULL, &err), 0, "%s", err.message);
    cr_assert_str_neq(hudi_table_latest_instant(t), "");
    const char *const cols[] = {"id", "name"};
    char *got = scan_json(t, NULL, cols, 2);
    cr_assert(strstr(got, "\"id\":1,\"name\":\"Alice\""), "%s", got);
    hudi_free(got);
    hudi_table_free(t);
}

Test(api, version) {
    cr_assert_eq(hudi_version_number(), HUDI_VERSION_NUMBER);
    cr_assert_str_eq(hudi_version_string(), HUDI_VERSION_STRING);
}

/* A write refused for the lock (HUDI_ELOCKED) or for a conflict (HUDI_ECONFLICT) is told apart
 * from other errors, so a caller can retry; writer settings go in `properties`. */
Test(api, locked_table_gives_elocked) {
    char path[512], lock[600];
    hudi_field s = {0};
    hudi_error err = HUDI_ERROR_INIT;
    snprintf(path, sizeof(path), "%s/trips", test_tmpdir());
    schema_init(&s);
    hudi_table *t = create_table(path, &s);
    /* another writer (a Spark driver thread) holds the lock */
    snprintf(lock, sizeof(lock), "%s/.hoodie/lock", path);
    FILE *f = fopen(lock, "w");
    cr_assert_not_null(f);
    fputs("{\n  \"lockCreateTime\" : \"2026-12-01 10:00:00.000\",\n  \"lockThreadName\" : "
          "\"main\",\n  \"lockStacksInfo\" : [ ]\n}",
          f);
    fclose(f);
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    add_row(b, 1, "a", 100, 0, "x");
    arrow_batch ab;
    export_batch(&ab, b);
    static const char *const props[] = {"hoodie.write.lock.wait_time_ms", "20", NULL};
    hudi_table_write_options wo = HUDI_TABLE_WRITE_OPTIONS_INIT;
    wo.properties = props;
    cr_assert_eq(hudi_table_write(t, &ab.schema, &ab.array, &wo, NULL, &err), HUDI_ELOCKED);
    cr_assert_str_eq(hudi_error_name(err.code), "ELOCKED");
    cr_assert(strstr(err.message, "being written by another writer (Hudi writer thread main, "
                                  "since 2026-12-01 10:00:00.000)"),
              "%s", err.message);
    cr_assert_str_eq(hudi_table_latest_instant(t), "");
    /* version-1 options (before `properties`) are still accepted */
    remove(lock);
    wo.version = 1;
    cr_assert_eq(hudi_table_write(t, &ab.schema, &ab.array, &wo, NULL, &err), 0, "%s", err.message);
    cr_assert_neq(hudi_table_latest_instant(t)[0], '\0');
    release_batch(&ab);
    hudi_batch_free(b);
    hudi_table_free(t);
    hudi_field_dispose(&s);
}
