/* schema_change_test.c - ALTER TABLE changes on an InternalSchema: ids, positions, version and
 * max_column_id bookkeeping, every legality rule with its error (schema on read, without it,
 * and hudic's extra rules), the type-change matrix, the DDL sequence of a real Spark 0.15 table
 * replayed to the same bytes, the conformance scenarios that are pure schema operations, and
 * the reconciliation of a writer schema. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/internal_schema.h"
#include "schema/schema.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static void parse_ok(hudi_ischema *s, const char *json) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_parse(s, json, strlen(json), &err), 0, "%s: %s", json, err.message);
}

static char *to_json(const hudi_ischema *s) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_write(&b, s, &err), 0, "%s", err.message);
    char *r = strdup(b.data ? b.data : "");
    hudi_buf_dispose(&b);
    return r;
}

/* A primitive type for changes (its name is ignored; nothing is allocated). */
static hudi_field prim(hudi_type_id t) {
    hudi_field f = {
        .name = (char *)"", .type = t, .nullable = true, .field_id = -1, .unit = HUDI_UNIT_MICROS};
    if (t == HUDI_TYPE_TIMESTAMP) f.utc = true;
    return f;
}

static hudi_field dec(int32_t p, int32_t s) {
    hudi_field f = prim(HUDI_TYPE_DECIMAL);
    f.precision = p, f.scale = s;
    return f;
}

static const hudi_schema_rules sor = {.schema_on_read = true};

/* Applies one change; expects success; replaces *s with the result. */
static void apply1(hudi_ischema *s, hudi_schema_change ch, const hudi_schema_rules *rules,
                   int64_t version) {
    hudi_ischema out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_apply(&out, s, &ch, 1, rules, version, &err), 0, "%s: %s", ch.path,
                 err.message);
    hudi_ischema_dispose(s);
    *s = out;
}

/* Applies changes expecting `code` and a message containing every needle (NULL-terminated). */
static void refused(const hudi_ischema *s, const hudi_schema_change *ch, int32_t n,
                    const hudi_schema_rules *rules, int code, const char *needle,
                    const char *needle2) {
    hudi_ischema out;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_ischema_apply(&out, s, ch, n, rules, 99, &err);
    cr_expect_eq(rc, code, "%s: rc %d (%s), want %d", ch->path ? ch->path : "?", rc, err.message,
                 code);
    if (rc == 0) hudi_ischema_dispose(&out);
    cr_expect(strstr(err.message, needle), "message '%s' lacks '%s'", err.message, needle);
    if (needle2)
        cr_expect(strstr(err.message, needle2), "message '%s' lacks '%s'", err.message, needle2);
    cr_expect(!strchr(err.message, '\n'), "one line: %s", err.message);
}

static int32_t id_of(const hudi_ischema *s, const char *path) {
    int32_t id = -2;
    cr_assert(hudi_ischema_find_path(s, path, &id), "no column %s", path);
    return id;
}

/* "a,b,c": the top-level names in order. */
static void expect_columns(const hudi_field *holder, const char *want) {
    hudi_buf b = HUDI_BUF_INIT;
    for (int32_t i = 0; i < holder->n_children; i++)
        hudi_buf_printf(&b, "%s%s", i ? "," : "", holder->children[i].name);
    cr_expect_str_eq(b.data ? b.data : "", want);
    hudi_buf_dispose(&b);
}

#define META_DOC                                                                                   \
    "{\"id\":0,\"name\":\"_hoodie_commit_time\",\"optional\":true,\"type\":\"string\",\"doc\":"    \
    "\"\"},"                                                                                       \
    "{\"id\":1,\"name\":\"_hoodie_commit_seqno\",\"optional\":true,\"type\":\"string\",\"doc\":"   \
    "\"\"},"                                                                                       \
    "{\"id\":2,\"name\":\"_hoodie_record_key\",\"optional\":true,\"type\":\"string\",\"doc\":"     \
    "\"\"},"                                                                                       \
    "{\"id\":3,\"name\":\"_hoodie_partition_path\",\"optional\":true,\"type\":\"string\",\"doc\":" \
    "\"\"},"                                                                                       \
    "{\"id\":4,\"name\":\"_hoodie_file_name\",\"optional\":true,\"type\":\"string\",\"doc\":\"\"}" \
    ","

/* The version-0 history entry of a table created by Spark SQL 3.5 / Hudi 0.15 as
 * CREATE TABLE sor_ddl (id int, name string, price double, qty int, fl float,
 * col_struct struct<a:int, b:string>, ts bigint, part string) PARTITIONED BY (part) -
 * bytes copied from its .hoodie/.schema file. */
static const char sor_ddl_v0[] =
    "{\"max_column_id\":14,\"version_id\":0,\"type\":\"record\",\"fields\":[" META_DOC
    "{\"id\":5,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
    "{\"id\":6,\"name\":\"name\",\"optional\":true,\"type\":\"string\"},"
    "{\"id\":7,\"name\":\"price\",\"optional\":true,\"type\":\"double\"},"
    "{\"id\":8,\"name\":\"qty\",\"optional\":true,\"type\":\"int\"},"
    "{\"id\":9,\"name\":\"fl\",\"optional\":true,\"type\":\"float\"},"
    "{\"id\":10,\"name\":\"col_struct\",\"optional\":true,\"type\":{\"type\":\"record\","
    "\"fields\":[{\"id\":13,\"name\":\"a\",\"optional\":true,\"type\":\"int\"},"
    "{\"id\":14,\"name\":\"b\",\"optional\":true,\"type\":\"string\"}]}},"
    "{\"id\":11,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"},"
    "{\"id\":12,\"name\":\"part\",\"optional\":true,\"type\":\"string\"}]}";

static const char *const sor_ddl_keys[] = {"id", "ts", "part"};
static const hudi_schema_rules sor_ddl_rules = {
    .schema_on_read = true, .protected_columns = sor_ddl_keys, .n_protected = 3};

/* ---- the worked example --------------------------------------------------------------------- */

Test(schema_change, worked_example_add_note) {
    static const char avro[] =
        "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
        "{\"name\":\"id\",\"type\":[\"null\",\"int\"],\"default\":null},"
        "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},"
        "{\"name\":\"price\",\"type\":[\"null\",{\"type\":\"fixed\",\"name\":\"fixed\","
        "\"namespace\":\"hoodie.t.t_record.price\",\"size\":5,\"logicalType\":\"decimal\","
        "\"precision\":10,\"scale\":2}],\"default\":null},"
        "{\"name\":\"addr\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"addr\",\"fields\":["
        "{\"name\":\"city\",\"type\":[\"null\",\"string\"],\"default\":null},"
        "{\"name\":\"zip\",\"type\":[\"null\",\"int\"],\"default\":null}]}],\"default\":null},"
        "{\"name\":\"tags\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"string\"]}"
        "],\"default\":null},"
        "{\"name\":\"props\",\"type\":[\"null\",{\"type\":\"map\",\"values\":[\"null\",\"int\"]}],"
        "\"default\":null},"
        "{\"name\":\"ts\",\"type\":[\"null\",\"long\"],\"default\":null}]}";
    hudi_field f, withmeta;
    hudi_ischema s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_parse_avro(&f, avro, strlen(avro), &err), 0, "%s", err.message);
    cr_assert_eq(hudi_schema_add_meta_fields(&withmeta, &f, &err), 0);
    cr_assert_eq(hudi_ischema_from_field(&s, &withmeta, 0, &err), 0, "%s", err.message);
    hudi_ischema_history h = {0};
    cr_assert_eq(hudi_ischema_history_add(&h, &s, &err), 0);
    hudi_field note = prim(HUDI_TYPE_STRING);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ADD, .path = "note", .type = &note}, &sor,
           20240601120000123LL);
    cr_assert_eq(hudi_ischema_history_add(&h, &s, &err), 0);
#define DATA                                                                                       \
    "{\"id\":5,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"                               \
    "{\"id\":6,\"name\":\"name\",\"optional\":true,\"type\":\"string\"},"                          \
    "{\"id\":7,\"name\":\"price\",\"optional\":true,\"type\":\"decimal(10, 2)\"},"                 \
    "{\"id\":8,\"name\":\"addr\",\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":["     \
    "{\"id\":12,\"name\":\"city\",\"optional\":true,\"type\":\"string\"},"                         \
    "{\"id\":13,\"name\":\"zip\",\"optional\":true,\"type\":\"int\"}]}},"                          \
    "{\"id\":9,\"name\":\"tags\",\"optional\":true,\"type\":{\"type\":\"array\",\"element_id\":"   \
    "14,"                                                                                          \
    "\"element\":\"string\",\"element_optional\":true}},"                                          \
    "{\"id\":10,\"name\":\"props\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":15,"    \
    "\"key\":\"string\",\"value_id\":16,\"value\":\"int\",\"value_optional\":true}},"              \
    "{\"id\":11,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"}"
    static const char want_new[] =
        "{\"max_column_id\":17,\"version_id\":20240601120000123,\"type\":\"record\",\"fields\":"
        "[" META_DOC DATA ",{\"id\":17,\"name\":\"note\",\"optional\":true,\"type\":\"string\"}]}";
    static const char want_history[] =
        "{\"schemas\":[{\"max_column_id\":17,\"version_id\":20240601120000123,\"type\":\"record\","
        "\"fields\":[" META_DOC DATA
        ",{\"id\":17,\"name\":\"note\",\"optional\":true,\"type\":\"string\"}]},"
        "{\"max_column_id\":16,\"version_id\":0,\"type\":\"record\",\"fields\":[" META_DOC DATA
        "]}]}";
    char *json = to_json(&s);
    cr_expect_str_eq(json, want_new);
    free(json);
    hudi_buf hb = HUDI_BUF_INIT;
    cr_assert_eq(hudi_ischema_history_write(&hb, &h, &err), 0);
    cr_expect_str_eq(hb.data, want_history);
    hudi_buf_dispose(&hb);
    hudi_ischema_history_dispose(&h);
    hudi_ischema_dispose(&s);
    hudi_field_dispose(&f);
    hudi_field_dispose(&withmeta);
}

/* ---- a real table's DDL replayed ---------------------------------------------------------------
 */

Test(schema_change, spark_sor_ddl_sequence) {
    hudi_ischema s;
    parse_ok(&s, sor_ddl_v0);
    hudi_field str = prim(HUDI_TYPE_STRING), i32 = prim(HUDI_TYPE_INT32),
               i64 = prim(HUDI_TYPE_INT64), d102 = dec(10, 2);
    const hudi_schema_rules *r = &sor_ddl_rules;
    /* ADD COLUMNS (note string AFTER name) */
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_ADD,
                                .path = "note",
                                .type = &str,
                                .position = HUDI_SCHEMA_POS_AFTER,
                                .anchor = "name"},
           r, 101);
    cr_expect_eq(id_of(&s, "note"), 15);
    cr_expect_eq(s.max_column_id, 15);
    cr_expect_eq(s.version_id, 101);
    /* ADD COLUMNS (col_struct.x int AFTER a) */
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_ADD,
                                .path = "col_struct.x",
                                .type = &i32,
                                .position = HUDI_SCHEMA_POS_AFTER,
                                .anchor = "a"},
           r, 102);
    cr_expect_eq(id_of(&s, "col_struct.x"), 16);
    expect_columns(&s.root.children[11], "a,x,b");
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "qty", .type = &i64}, r,
           103);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "price", .type = &str},
           r, 104);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "fl", .type = &d102}, r,
           105);
    apply1(
        &s,
        (hudi_schema_change){.kind = HUDI_SCHEMA_RENAME, .path = "name", .new_name = "full_name"},
        r, 106);
    apply1(
        &s,
        (hudi_schema_change){.kind = HUDI_SCHEMA_RENAME, .path = "col_struct.b", .new_name = "bb"},
        r, 107);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_DROP, .path = "qty"}, r, 108);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_DROP, .path = "note"}, r, 109);
    cr_expect_eq(s.max_column_id, 16);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ADD, .path = "note", .type = &str}, r, 110);
    /* the bytes of Hudi's history entry after the last ALTER (version aside) */
    static const char want[] =
        "{\"max_column_id\":17,\"version_id\":110,\"type\":\"record\",\"fields\":[" META_DOC
        "{\"id\":5,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":6,\"name\":\"full_name\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":7,\"name\":\"price\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":9,\"name\":\"fl\",\"optional\":true,\"type\":\"decimal(10, 2)\"},"
        "{\"id\":10,\"name\":\"col_struct\",\"optional\":true,\"type\":{\"type\":\"record\","
        "\"fields\":[{\"id\":13,\"name\":\"a\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":16,\"name\":\"x\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":14,\"name\":\"bb\",\"optional\":true,\"type\":\"string\"}]}},"
        "{\"id\":11,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"},"
        "{\"id\":12,\"name\":\"part\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":17,\"name\":\"note\",\"optional\":true,\"type\":\"string\"}]}";
    char *json = to_json(&s);
    cr_expect_str_eq(json, want);
    free(json);

    /* the statements Hudi refused on that table, refused here too */
    hudi_field date = prim(HUDI_TYPE_DATE);
    hudi_schema_change bad[] = {
        {.kind = HUDI_SCHEMA_ADD,
         .path = "first_col",
         .type = &i32,
         .position = HUDI_SCHEMA_POS_FIRST},
        {.kind = HUDI_SCHEMA_MOVE, .path = "price", .position = HUDI_SCHEMA_POS_FIRST},
        {.kind = HUDI_SCHEMA_RENAME, .path = "full_name", .new_name = "price"},
        {.kind = HUDI_SCHEMA_RENAME, .path = "full_name", .new_name = "PRICE"},
        {.kind = HUDI_SCHEMA_DROP, .path = "id"},
        {.kind = HUDI_SCHEMA_RENAME, .path = "id", .new_name = "id2"},
        {.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "col_struct.a", .type = &date},
        {.kind = HUDI_SCHEMA_ADD, .path = "full_name", .type = &str},
        {.kind = HUDI_SCHEMA_ADD,
         .path = "c2",
         .type = &i32,
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "_hoodie_commit_time"},
    };
    const char *msgs[] = {"forbid adjust top-level columns position by using through first syntax",
                          "forbid adjust top-level columns position by using through first syntax",
                          "cannot rename column: full_name to a existing name",
                          "cannot rename column: full_name to a existing name",
                          "cannot support apply changes for primaryKey/CombineKey/partitionKey",
                          "cannot support apply changes for primaryKey/CombineKey/partitionKey",
                          "cannot update origin type: int to a incompatibility type: date",
                          "cannot add column: full_name which already exist",
                          "forbid adjust the position of ordinary columns between meta columns"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        refused(&s, &bad[i], 1, r, HUDI_EINVAL, msgs[i], NULL);
    hudi_ischema_dispose(&s);
}

/* ---- conformance scenarios (pure schema operations) ----------------------------------------- */

static const char f2_schema[] =
    "{\"max_column_id\":8,\"version_id\":0,\"type\":\"record\",\"fields\":[" META_DOC
    "{\"id\":5,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
    "{\"id\":6,\"name\":\"col1\",\"optional\":true,\"type\":\"string\"},"
    "{\"id\":7,\"name\":\"col2\",\"optional\":true,\"type\":\"string\"},"
    "{\"id\":8,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"}]}";

Test(schema_change, f2_drop_then_rename_keeps_ids) {
    hudi_ischema v0, s;
    parse_ok(&v0, f2_schema);
    parse_ok(&s, f2_schema);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_DROP, .path = "col1"}, &sor, 1);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_RENAME, .path = "col2", .new_name = "col1"},
           &sor, 2);
    cr_expect_eq(id_of(&s, "col1"), 7);
    cr_expect_eq(s.max_column_id, 8);
    /* the old file (v0) is read for col1 through col2, never its own col1 */
    hudi_field out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_file_names(&out, &s, &v0, &err), 0);
    cr_expect_str_eq(out.children[6].name, "col2");
    hudi_field_dispose(&out);
    hudi_ischema_dispose(&v0);
    hudi_ischema_dispose(&s);
}

Test(schema_change, f7_map_value_first_and_drop_readd_new_ids) {
    /* members map<string, struct<n:string, a:int>>, user struct<name, score, age>, name */
    static const char json[] =
        "{\"max_column_id\":12,\"version_id\":0,\"type\":\"record\",\"fields\":["
        "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":1,\"name\":\"name\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":2,\"name\":\"user\",\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":["
        "{\"id\":4,\"name\":\"name\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":5,\"name\":\"score\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":6,\"name\":\"age\",\"optional\":true,\"type\":\"int\"}]}},"
        "{\"id\":3,\"name\":\"members\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":7,"
        "\"key\":\"string\",\"value_id\":8,\"value\":{\"type\":\"record\",\"fields\":["
        "{\"id\":9,\"name\":\"n\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":10,\"name\":\"a\",\"optional\":true,\"type\":\"int\"}]},"
        "\"value_optional\":true}}]}";
    hudi_ischema v0, s;
    parse_ok(&v0, json);
    parse_ok(&s, json);
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_MOVE,
                                .path = "members.value.a",
                                .position = HUDI_SCHEMA_POS_FIRST},
           &sor, 1);
    const hudi_field *val = hudi_ischema_find_path(&s, "members.value", NULL);
    expect_columns(val, "a,n");
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_RENAME, .path = "user", .new_name = "userx"},
           &sor, 2);
    hudi_schema_change drops[] = {{.kind = HUDI_SCHEMA_DROP, .path = "name"},
                                  {.kind = HUDI_SCHEMA_DROP, .path = "userx.name"},
                                  {.kind = HUDI_SCHEMA_DROP, .path = "userx.score"}};
    hudi_ischema out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_apply(&out, &s, drops, 3, &sor, 3, &err), 0, "%s", err.message);
    hudi_ischema_dispose(&s);
    s = out;
    cr_expect_eq(s.max_column_id, 12);
    hudi_field str = prim(HUDI_TYPE_STRING), i32 = prim(HUDI_TYPE_INT32);
    hudi_schema_change adds[] = {{.kind = HUDI_SCHEMA_ADD,
                                  .path = "name",
                                  .type = &str,
                                  .position = HUDI_SCHEMA_POS_AFTER,
                                  .anchor = "userx"},
                                 {.kind = HUDI_SCHEMA_ADD,
                                  .path = "userx.name",
                                  .type = &str,
                                  .position = HUDI_SCHEMA_POS_FIRST},
                                 {.kind = HUDI_SCHEMA_ADD,
                                  .path = "userx.score",
                                  .type = &i32,
                                  .position = HUDI_SCHEMA_POS_AFTER,
                                  .anchor = "age"}};
    cr_assert_eq(hudi_ischema_apply(&out, &s, adds, 3, &sor, 4, &err), 0, "%s", err.message);
    hudi_ischema_dispose(&s);
    s = out;
    expect_columns(&s.root, "id,userx,name,members");
    expect_columns(hudi_ischema_find_path(&s, "userx", NULL), "name,age,score");
    cr_expect_eq(id_of(&s, "name"), 13);
    cr_expect_eq(id_of(&s, "userx.name"), 14);
    cr_expect_eq(id_of(&s, "userx.score"), 15);
    cr_expect_eq(s.max_column_id, 15);
    /* old files: the re-added columns are absent (read null), userx is read as user */
    hudi_field fn;
    cr_assert_eq(hudi_ischema_file_names(&fn, &s, &v0, &err), 0);
    expect_columns(&fn, "id,user,,members");
    expect_columns(&fn.children[1], ",age,");
    expect_columns(&fn.children[3].children[0].children[1], "a,n");
    hudi_field_dispose(&fn);
    hudi_ischema_dispose(&v0);
    hudi_ischema_dispose(&s);
}

Test(schema_change, f8_map_value_and_element_types) {
    static const char json[] =
        "{\"max_column_id\":4,\"version_id\":0,\"type\":\"record\",\"fields\":["
        "{\"id\":0,\"name\":\"mxp\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":2,"
        "\"key\":\"string\",\"value_id\":3,\"value\":\"int\",\"value_optional\":true}},"
        "{\"id\":1,\"name\":\"arr\",\"optional\":true,\"type\":{\"type\":\"array\","
        "\"element_id\":4,\"element\":\"float\",\"element_optional\":true}}]}";
    hudi_ischema s;
    parse_ok(&s, json);
    hudi_field dbl = prim(HUDI_TYPE_DOUBLE), i64 = prim(HUDI_TYPE_INT64);
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "mxp.value", .type = &dbl},
           &sor, 1);
    apply1(
        &s,
        (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "arr.element", .type = &dbl},
        &sor, 2);
    cr_expect_eq(hudi_ischema_find_path(&s, "mxp.value", NULL)->type, HUDI_TYPE_DOUBLE);
    cr_expect_eq(hudi_ischema_find_path(&s, "arr.element", NULL)->type, HUDI_TYPE_DOUBLE);
    cr_expect_eq(id_of(&s, "mxp.value"), 3);
    /* map keys never change (hudic; Hudi silently ignores it) */
    hudi_schema_change k = {.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "mxp.key", .type = &i64};
    refused(&s, &k, 1, &sor, HUDI_EINVAL, "map keys cannot be changed", "mxp.key");
    hudi_ischema_dispose(&s);
}

Test(schema_change, f9_and_c1_errors) {
    hudi_ischema s;
    parse_ok(&s, sor_ddl_v0);
    hudi_field i32 = prim(HUDI_TYPE_INT32), str = prim(HUDI_TYPE_STRING);
    const hudi_schema_rules *r = &sor_ddl_rules;
    struct {
        hudi_schema_change ch;
        const char *msg, *msg2;
    } cases[] = {
        {{.kind = HUDI_SCHEMA_ADD, .path = "c", .type = &i32, .position = HUDI_SCHEMA_POS_FIRST},
         "forbid adjust top-level columns position by using through first syntax",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD,
          .path = "c",
          .type = &i32,
          .position = HUDI_SCHEMA_POS_AFTER,
          .anchor = "_hoodie_commit_seqno"},
         "between meta columns",
         NULL},
        {{.kind = HUDI_SCHEMA_MOVE,
          .path = "qty",
          .position = HUDI_SCHEMA_POS_AFTER,
          .anchor = "_hoodie_record_key"},
         "between meta columns",
         NULL},
        {{.kind = HUDI_SCHEMA_DROP, .path = "ts"}, "primaryKey/CombineKey/partitionKey", "ts"},
        {{.kind = HUDI_SCHEMA_DROP, .path = "part"}, "primaryKey/CombineKey/partitionKey", NULL},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "ts", .new_name = "t2"},
         "primaryKey/CombineKey/partitionKey",
         NULL},
        {{.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "id", .type = &str},
         "record key, precombine or partition column",
         "id"},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "qty", .new_name = "NAME"},
         "cannot rename column: qty to a existing name",
         NULL},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "qty", .new_name = ""},
         "cannot rename column: qty to empty",
         NULL},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "col_struct.a", .new_name = "B"},
         "cannot rename column: col_struct.a to a existing name",
         NULL},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "nope", .new_name = "x"},
         "cannot update a missing column: nope",
         NULL},
        {{.kind = HUDI_SCHEMA_DROP, .path = "nope"}, "cannot delete missing columns: nope", NULL},
        {{.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "nope", .type = &i32},
         "cannot update a missing column: nope",
         NULL},
        {{.kind = HUDI_SCHEMA_COMMENT, .path = "nope", .comment = "x"},
         "cannot update a missing column: nope",
         NULL},
        {{.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "col_struct", .type = &i32},
         "only support update primitive type",
         "col_struct"},
        {{.kind = HUDI_SCHEMA_SET_NOT_NULL, .path = "qty"},
         "cannot update column Nullability: optional to required",
         "qty"},
        {{.kind = HUDI_SCHEMA_DROP, .path = "_hoodie_commit_time"},
         "cannot modify hudi meta col: _hoodie_commit_time",
         NULL},
        {{.kind = HUDI_SCHEMA_COMMENT, .path = "_hoodie_file_name", .comment = "x"},
         "cannot modify hudi meta col: _hoodie_file_name",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD, .path = "_hoodie_commit_time", .type = &str},
         "cannot modify hudi meta col",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD, .path = "nope.x", .type = &str},
         "cannot add column: nope.x which parent: nope is not exist",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD, .path = "qty.x", .type = &str},
         "only support add nested columns to struct column",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD, .path = "col_struct.A", .type = &str},
         "cannot add column: col_struct.A which already exist",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD, .path = "c", .type = &str, .not_null = true}, "NOT NULL", "c"},
        {{.kind = HUDI_SCHEMA_ADD,
          .path = "col_struct.y",
          .type = &str,
          .position = HUDI_SCHEMA_POS_AFTER,
          .anchor = "qty"},
         "no such column in the same parent",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD,
          .path = "col_struct.y",
          .type = &str,
          .position = HUDI_SCHEMA_POS_AFTER,
          .anchor = "x.a"},
         "cannot order position from different parent",
         NULL},
        {{.kind = HUDI_SCHEMA_ADD, .path = "y", .type = NULL}, "no type", NULL},
        {{.kind = (hudi_schema_change_kind)42, .path = "y"},
         "find unsupported alter command type",
         NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        refused(&s, &cases[i].ch, 1, r, HUDI_EINVAL, cases[i].msg, cases[i].msg2);

    /* ADD twice in one statement */
    hudi_schema_change twice[] = {{.kind = HUDI_SCHEMA_ADD, .path = "c", .type = &str},
                                  {.kind = HUDI_SCHEMA_ADD, .path = "C", .type = &str}};
    refused(&s, twice, 2, r, HUDI_EINVAL, "cannot repeat add column", NULL);
    /* drop every field of a struct */
    hudi_schema_change all[] = {{.kind = HUDI_SCHEMA_DROP, .path = "col_struct.a"},
                                {.kind = HUDI_SCHEMA_DROP, .path = "col_struct.b"}};
    refused(&s, all, 2, r, HUDI_EINVAL, "cannot support delete all columns from Struct", NULL);
    /* a failed statement leaves nothing: `in` unchanged */
    char *json = to_json(&s);
    cr_expect_str_eq(json, sor_ddl_v0);
    free(json);
    hudi_ischema_dispose(&s);
}

Test(schema_change, nested_targets_lists_and_maps) {
    static const char json[] =
        "{\"max_column_id\":9,\"version_id\":0,\"type\":\"record\",\"fields\":["
        "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":1,\"name\":\"arr\",\"optional\":true,\"type\":{\"type\":\"array\","
        "\"element_id\":3,\"element\":{\"type\":\"record\",\"fields\":["
        "{\"id\":6,\"name\":\"p\",\"optional\":true,\"type\":\"int\"}]},\"element_optional\":true}}"
        ","
        "{\"id\":2,\"name\":\"m\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":4,"
        "\"key\":\"string\",\"value_id\":5,\"value\":{\"type\":\"record\",\"fields\":["
        "{\"id\":7,\"name\":\"q\",\"optional\":true,\"type\":\"int\"}]},\"value_optional\":true}},"
        "{\"id\":8,\"name\":\"tags\",\"optional\":true,\"type\":{\"type\":\"array\","
        "\"element_id\":9,\"element\":\"string\",\"element_optional\":true}}]}";
    hudi_ischema s;
    parse_ok(&s, json);
    hudi_field str = prim(HUDI_TYPE_STRING);
    /* adding into a list of structs and a map of structs, with FIRST */
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_ADD,
                                .path = "arr.element.z",
                                .type = &str,
                                .position = HUDI_SCHEMA_POS_FIRST},
           &sor, 1);
    apply1(&s,
           (hudi_schema_change){.kind = HUDI_SCHEMA_ADD,
                                .path = "m.value.z",
                                .type = &str,
                                .position = HUDI_SCHEMA_POS_AFTER,
                                .anchor = "m.value.q"},
           &sor, 2);
    expect_columns(hudi_ischema_find_path(&s, "arr.element", NULL), "z,p");
    expect_columns(hudi_ischema_find_path(&s, "m.value", NULL), "q,z");
    cr_expect_eq(id_of(&s, "arr.element.z"), 10);
    cr_expect_eq(id_of(&s, "m.value.z"), 11);
    struct {
        hudi_schema_change ch;
        const char *msg;
    } cases[] = {
        {{.kind = HUDI_SCHEMA_ADD, .path = "arr.z", .type = &str},
         "only support add nested columns to struct column"},
        {{.kind = HUDI_SCHEMA_ADD, .path = "m.z", .type = &str},
         "only support add nested columns to struct column"},
        {{.kind = HUDI_SCHEMA_ADD, .path = "m.key.z", .type = &str},
         "Cannot add fields to map keys: m"},
        {{.kind = HUDI_SCHEMA_DROP, .path = "arr.element"}, "cannot delete element from arrayType"},
        {{.kind = HUDI_SCHEMA_DROP, .path = "m.key"}, "cannot delete key from mapType"},
        {{.kind = HUDI_SCHEMA_DROP, .path = "m.value"}, "cannot delete value from mapType"},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "tags.element", .new_name = "e"}, "keep their names"},
        {{.kind = HUDI_SCHEMA_COMMENT, .path = "m.value", .comment = "c"}, "have no comment"},
        {{.kind = HUDI_SCHEMA_MOVE, .path = "tags.element", .position = HUDI_SCHEMA_POS_FIRST},
         "only support reorder fields in struct type"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        refused(&s, &cases[i].ch, 1, &sor, HUDI_EINVAL, cases[i].msg, NULL);
    hudi_ischema_dispose(&s);
}

Test(schema_change, ids_for_nested_adds_and_never_reused) {
    hudi_ischema s;
    parse_ok(&s, f2_schema);
    /* a struct column: its id, then its fields' block, then their nested ids */
    hudi_field st;
    hudi_field_init(&st, "", HUDI_TYPE_STRUCT, true);
    hudi_field_set_children(&st, 2);
    hudi_field_init(&st.children[0], "l", HUDI_TYPE_LIST, true);
    hudi_field_set_children(&st.children[0], 1);
    hudi_field_init(&st.children[0].children[0], "element", HUDI_TYPE_INT32, true);
    hudi_field_init(&st.children[1], "k", HUDI_TYPE_INT8, false); /* tinyint -> int */
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ADD, .path = "s", .type = &st}, &sor, 1);
    cr_expect_eq(id_of(&s, "s"), 9);
    cr_expect_eq(id_of(&s, "s.l"), 10);
    cr_expect_eq(id_of(&s, "s.k"), 11);
    cr_expect_eq(id_of(&s, "s.l.element"), 12);
    cr_expect_eq(s.max_column_id, 12);
    const hudi_field *k = hudi_ischema_find_path(&s, "s.k", NULL);
    cr_expect_eq(k->type, HUDI_TYPE_INT32);
    cr_expect(k->nullable == false); /* nested fields keep their flags; the column is nullable */
    cr_expect(hudi_ischema_find_path(&s, "s", NULL)->nullable);
    /* D.extra-1: DROP the max id, RENAME, ADD: the new column never takes the dropped id */
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_DROP, .path = "s"}, &sor, 2);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_RENAME, .path = "col1", .new_name = "c1"},
           &sor, 3);
    cr_expect_eq(s.max_column_id, 12);
    hudi_field str = prim(HUDI_TYPE_STRING);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ADD, .path = "z", .type = &str}, &sor, 4);
    cr_expect_eq(id_of(&s, "z"), 13);
    /* a schema whose max_column_id is below an id present (hand-edited) still gives fresh ids */
    hudi_ischema low;
    parse_ok(&low, "{\"max_column_id\":1,\"version_id\":1,\"type\":\"record\",\"fields\":["
                   "{\"id\":5,\"name\":\"a\",\"optional\":true,\"type\":\"int\"}]}");
    apply1(&low, (hudi_schema_change){.kind = HUDI_SCHEMA_ADD, .path = "b", .type = &str}, &sor, 2);
    cr_expect_eq(id_of(&low, "b"), 6);
    cr_expect_eq(low.max_column_id, 6);
    hudi_ischema_dispose(&low);
    hudi_field_dispose(&st);
    hudi_ischema_dispose(&s);
}

Test(schema_change, positions_comments_nullability) {
    hudi_ischema s;
    parse_ok(&s, sor_ddl_v0);
    hudi_field i32 = prim(HUDI_TYPE_INT32);
    /* several adds with positions in one statement: appended, then moved in order */
    hudi_schema_change adds[] = {
        {.kind = HUDI_SCHEMA_ADD,
         .path = "x1",
         .type = &i32,
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "id",
         .comment = "first"},
        {.kind = HUDI_SCHEMA_ADD,
         .path = "x2",
         .type = &i32,
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "id"},
        {.kind = HUDI_SCHEMA_ADD,
         .path = "x3",
         .type = &i32,
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "x1"},
        {.kind = HUDI_SCHEMA_ADD,
         .path = "x4",
         .type = &i32,
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "_hoodie_file_name"},
        {.kind = HUDI_SCHEMA_MOVE,
         .path = "part",
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "_hoodie_partition_path"},
        {.kind = HUDI_SCHEMA_MOVE, .path = "col_struct.b", .position = HUDI_SCHEMA_POS_FIRST},
        {.kind = HUDI_SCHEMA_MOVE,
         .path = "col_struct.b",
         .position = HUDI_SCHEMA_POS_AFTER,
         .anchor = "col_struct.a"},
        {.kind = HUDI_SCHEMA_COMMENT, .path = "qty", .comment = "how many"},
        {.kind = HUDI_SCHEMA_DROP_NOT_NULL, .path = "qty"},
    };
    hudi_ischema out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_apply(&out, &s, adds, 9, &sor, 7, &err), 0, "%s", err.message);
    expect_columns(&out.root, "_hoodie_commit_time,_hoodie_commit_seqno,_hoodie_record_key,"
                              "_hoodie_partition_path,part,_hoodie_file_name,x4,id,x2,x1,x3,name,"
                              "price,qty,fl,col_struct,ts");
    expect_columns(hudi_ischema_find_path(&out, "col_struct", NULL), "a,b");
    cr_expect_str_eq(hudi_ischema_find_path(&out, "x1", NULL)->comment, "first");
    cr_expect_str_eq(hudi_ischema_find_path(&out, "qty", NULL)->comment, "how many");
    cr_expect_eq(out.max_column_id, 18);
    cr_expect_eq(out.version_id, 7);
    hudi_ischema_dispose(&s);
    s = out;
    /* comment removed (NULL), DROP NOT NULL on a required column */
    hudi_ischema_dispose(&s);
    parse_ok(&s, "{\"max_column_id\":1,\"version_id\":1,\"type\":\"record\",\"fields\":["
                 "{\"id\":0,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"
                 "{\"id\":1,\"name\":\"name\",\"optional\":false,\"type\":\"string\","
                 "\"doc\":\"n\"}]}");
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_DROP_NOT_NULL, .path = "name"}, &sor, 2);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_COMMENT, .path = "name"}, &sor, 3);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_SET_NOT_NULL, .path = "id"}, &sor, 4);
    char *json = to_json(&s);
    cr_expect_str_eq(json, "{\"max_column_id\":1,\"version_id\":4,\"type\":\"record\",\"fields\":["
                           "{\"id\":0,\"name\":\"id\",\"optional\":false,\"type\":\"int\"},"
                           "{\"id\":1,\"name\":\"name\",\"optional\":true,\"type\":\"string\"}]}");
    free(json);
    hudi_ischema_dispose(&s);
}

Test(schema_change, without_schema_on_read) {
    hudi_ischema s;
    parse_ok(&s, sor_ddl_v0);
    static const char *const keys[] = {"id"};
    hudi_schema_rules plain = {
        .schema_on_read = false, .protected_columns = keys, .n_protected = 1};
    hudi_field str = prim(HUDI_TYPE_STRING), i32 = prim(HUDI_TYPE_INT32),
               i64 = prim(HUDI_TYPE_INT64);
    /* allowed: top-level ADD at the end, COMMENT, same-type ALTER TYPE */
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ADD, .path = "note", .type = &str}, &plain,
           1);
    cr_expect_str_eq(s.root.children[s.root.n_children - 1].name, "note");
    cr_expect_eq(id_of(&s, "note"), 15);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_COMMENT, .path = "qty", .comment = "q"},
           &plain, 2);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "qty", .type = &i32},
           &plain, 3);
    struct {
        hudi_schema_change ch;
        const char *msg;
    } cases[] = {
        {{.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "qty", .type = &i64},
         "ALTER TABLE CHANGE COLUMN is not supported for changing column 'qty' with type 'int' to "
         "'qty' with type 'long'"},
        {{.kind = HUDI_SCHEMA_ADD, .path = "col_struct.y", .type = &str}, "not supported"},
        {{.kind = HUDI_SCHEMA_ADD,
          .path = "y",
          .type = &str,
          .position = HUDI_SCHEMA_POS_AFTER,
          .anchor = "id"},
         "not supported"},
        {{.kind = HUDI_SCHEMA_RENAME, .path = "qty", .new_name = "q"}, "RENAME COLUMN qty"},
        {{.kind = HUDI_SCHEMA_DROP, .path = "qty"}, "DROP COLUMN qty"},
        {{.kind = HUDI_SCHEMA_MOVE,
          .path = "qty",
          .position = HUDI_SCHEMA_POS_AFTER,
          .anchor = "id"},
         "not supported"},
        {{.kind = HUDI_SCHEMA_DROP_NOT_NULL, .path = "qty"}, "not supported"},
        {{.kind = HUDI_SCHEMA_SET_NOT_NULL, .path = "qty"}, "not supported"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        refused(&s, &cases[i].ch, 1, &plain, HUDI_EUNSUPPORTED, cases[i].msg,
                "hoodie.schema.on.read.enable=true");
    /* a protected column may be "changed" to the type it has (a no-op) in both modes */
    hudi_schema_change same = {.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "id", .type = &i32};
    hudi_ischema out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_expect_eq(hudi_ischema_apply(&out, &s, &same, 1, &plain, 4, &err), 0, "%s", err.message);
    hudi_ischema_dispose(&out);
    refused(&s, &(hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "id", .type = &i64},
            1, &plain, HUDI_EINVAL, "record key, precombine or partition column", NULL);
    hudi_schema_change dup = {.kind = HUDI_SCHEMA_ADD, .path = "QTY", .type = &str};
    refused(&s, &dup, 1, &plain, HUDI_EINVAL, "already exist", NULL);
    hudi_ischema_dispose(&s);
}

/* ---- the type-change matrix ----------------------------------------------------------------- */

Test(schema_change, type_change_matrix) {
    /* rows/columns: int long float double decimal(10,2) string date binary */
    hudi_field t[8] = {prim(HUDI_TYPE_INT32),
                       prim(HUDI_TYPE_INT64),
                       prim(HUDI_TYPE_FLOAT),
                       prim(HUDI_TYPE_DOUBLE),
                       dec(10, 2),
                       prim(HUDI_TYPE_STRING),
                       prim(HUDI_TYPE_DATE),
                       prim(HUDI_TYPE_BINARY)};
    static const char *want[8] = {"YYYYYYNN", "NYYYYYNN", "NNYYYYNN", "NNNYYYNN",
                                  "NNNNYYNN", "NNNNYYYY", "NNNNNYYN", "NNNNNYNY"};
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            bool w = want[i][j] == 'Y';
            cr_expect_eq(hudi_schema_type_change_allowed(&t[i], &t[j]), w, "%d -> %d", i, j);
        }
    /* decimals: (p2-s2 >= p1-s1 and s2 > s1) or (p2 >= p1 and s2 == s1) */
    hudi_field d = dec(10, 2), a = dec(11, 3), b = dec(12, 2), c = dec(10, 3), e = dec(9, 2),
               f = dec(20, 1);
    cr_expect(hudi_schema_type_change_allowed(&d, &a));
    cr_expect(hudi_schema_type_change_allowed(&d, &b));
    cr_expect_not(hudi_schema_type_change_allowed(&d, &c)); /* integer digits shrink */
    cr_expect_not(hudi_schema_type_change_allowed(&d, &e));
    cr_expect_not(hudi_schema_type_change_allowed(&d, &f)); /* scale shrinks */
    /* any precision from numbers, also narrow ones (double -> decimal(4, 2)) */
    hudi_field n = dec(4, 2);
    cr_expect(hudi_schema_type_change_allowed(&t[3], &n));
    /* boolean, time, timestamp, uuid, fixed: only to themselves */
    hudi_field bo = prim(HUDI_TYPE_BOOL), ts = prim(HUDI_TYPE_TIMESTAMP), tm = prim(HUDI_TYPE_TIME),
               fx = prim(HUDI_TYPE_FIXED_BINARY), fx2 = prim(HUDI_TYPE_FIXED_BINARY);
    fx.byte_width = 4, fx2.byte_width = 5;
    cr_expect(hudi_schema_type_change_allowed(&bo, &bo));
    cr_expect_not(hudi_schema_type_change_allowed(&bo, &t[5]));
    cr_expect_not(hudi_schema_type_change_allowed(&ts, &t[5]));
    cr_expect_not(hudi_schema_type_change_allowed(&tm, &t[1]));
    cr_expect(hudi_schema_type_change_allowed(&fx, &fx));
    cr_expect_not(hudi_schema_type_change_allowed(&fx, &fx2));
    cr_expect_not(hudi_schema_type_change_allowed(&t[1], &ts));
    /* small ints count as int */
    hudi_field i8 = prim(HUDI_TYPE_INT8);
    cr_expect(hudi_schema_type_change_allowed(&i8, &t[1]));
    cr_expect(hudi_schema_type_change_allowed(&t[0], &i8));

    /* through apply: the error names the column, both types and what is allowed */
    hudi_ischema s;
    parse_ok(&s, sor_ddl_v0);
    hudi_field bin = prim(HUDI_TYPE_BINARY);
    hudi_schema_change ch = {.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "fl", .type = &bin};
    refused(&s, &ch, 1, &sor, HUDI_EINVAL,
            "cannot change the type of fl: cannot update origin type: float to a incompatibility "
            "type: binary",
            "double, decimal or string");
    hudi_field d52 = dec(5, 2);
    apply1(&s, (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "fl", .type = &d52},
           &sor, 1);
    hudi_field d51 = dec(5, 1);
    ch = (hudi_schema_change){.kind = HUDI_SCHEMA_ALTER_TYPE, .path = "fl", .type = &d51};
    refused(&s, &ch, 1, &sor, HUDI_EINVAL, "decimal(5, 2) to a incompatibility type: decimal(5, 1)",
            NULL);
    hudi_ischema_dispose(&s);
}

/* ---- reconcile ------------------------------------------------------------------------------ */

static void writer_schema(hudi_field *w, const char *avro) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_parse_avro(w, avro, strlen(avro), &err), 0, "%s", err.message);
}

Test(schema_change, f11_reconcile) {
    /* table (id, begin_lat, fare double, ts); batch drops begin_lat, fare -> string, adds
     * addColumn at the end and mid before ts */
    static const char table[] =
        "{\"max_column_id\":3,\"version_id\":5,\"type\":\"record\",\"fields\":["
        "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":1,\"name\":\"begin_lat\",\"optional\":true,\"type\":\"double\"},"
        "{\"id\":2,\"name\":\"fare\",\"optional\":true,\"type\":\"double\"},"
        "{\"id\":3,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"}]}";
    static const char batch[] = "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
                                "{\"name\":\"id\",\"type\":[\"null\",\"int\"]},"
                                "{\"name\":\"fare\",\"type\":[\"null\",\"string\"]},"
                                "{\"name\":\"mid\",\"type\":\"long\"},"
                                "{\"name\":\"ts\",\"type\":[\"null\",\"long\"]},"
                                "{\"name\":\"addColumn\",\"type\":[\"null\",\"string\"]}]}";
    hudi_ischema in, out;
    hudi_field w;
    bool changed = false;
    hudi_error err = HUDI_ERROR_INIT;
    parse_ok(&in, table);
    writer_schema(&w, batch);
    cr_assert_eq(hudi_ischema_reconcile(&out, &changed, &in, &w, 9, &err), 0, "%s", err.message);
    cr_expect(changed);
    char *json = to_json(&out);
    cr_expect_str_eq(json,
                     "{\"max_column_id\":5,\"version_id\":9,\"type\":\"record\",\"fields\":["
                     "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
                     "{\"id\":1,\"name\":\"begin_lat\",\"optional\":true,\"type\":\"double\"},"
                     "{\"id\":2,\"name\":\"fare\",\"optional\":true,\"type\":\"string\"},"
                     "{\"id\":4,\"name\":\"mid\",\"optional\":true,\"type\":\"long\"},"
                     "{\"id\":3,\"name\":\"ts\",\"optional\":true,\"type\":\"long\"},"
                     "{\"id\":5,\"name\":\"addColumn\",\"optional\":true,"
                     "\"type\":\"string\"}]}");
    free(json);
    hudi_ischema_dispose(&out);
    hudi_field_dispose(&w);

    /* nothing new: unchanged, version kept; a narrower type (long into an int table is not a
     * change the matrix allows) is kept */
    static const char same[] = "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
                               "{\"name\":\"fare\",\"type\":[\"null\",\"int\"]},"
                               "{\"name\":\"id\",\"type\":[\"null\",\"int\"]}]}";
    writer_schema(&w, same);
    cr_assert_eq(hudi_ischema_reconcile(&out, &changed, &in, &w, 9, &err), 0, "%s", err.message);
    cr_expect_not(changed);
    cr_expect_eq(out.version_id, 5);
    json = to_json(&out);
    cr_expect_str_eq(json, table);
    free(json);
    hudi_ischema_dispose(&out);
    hudi_field_dispose(&w);
    hudi_ischema_dispose(&in);
}

Test(schema_change, reconcile_nested) {
    /* new struct field, new field inside a list of structs and a map of structs, a nested
     * widening; nested structures whose fields are unchanged do not count as a change */
    static const char table[] =
        "{\"max_column_id\":8,\"version_id\":5,\"type\":\"record\",\"fields\":["
        "{\"id\":0,\"name\":\"s\",\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":["
        "{\"id\":3,\"name\":\"a\",\"optional\":true,\"type\":\"int\"}]}},"
        "{\"id\":1,\"name\":\"l\",\"optional\":true,\"type\":{\"type\":\"array\",\"element_id\":4,"
        "\"element\":{\"type\":\"record\",\"fields\":[{\"id\":7,\"name\":\"p\",\"optional\":true,"
        "\"type\":\"int\"}]},\"element_optional\":true}},"
        "{\"id\":2,\"name\":\"m\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":5,"
        "\"key\":\"string\",\"value_id\":6,\"value\":{\"type\":\"record\",\"fields\":["
        "{\"id\":8,\"name\":\"q\",\"optional\":true,\"type\":\"int\"}]},\"value_optional\":true}}]"
        "}";
#define REC(n, f) "{\"type\":\"record\",\"name\":\"" n "\",\"fields\":[" f "]}"
#define FLD(n, t) "{\"name\":\"" n "\",\"type\":" t "}"
    static const char same[] =
        REC("r",
            FLD("s", REC("s", FLD("a", "\"int\""))) "," FLD(
                "l", "{\"type\":\"array\",\"items\":" REC(
                         "l", FLD("p", "\"int\"")) "}") "," FLD("m",
                                                                "{\"type\":\"map\",\"values\":" REC(
                                                                    "m", FLD("q", "\"int\"")) "}"));
    static const char more[] = REC(
        "r",
        FLD("s", REC("s", FLD("z", "\"string\"") "," FLD("a", "\"long\""))) "," FLD(
            "l", "{\"type\":\"array\",\"items\":" REC(
                     "l", FLD("p", "\"int\"") "," FLD(
                              "p2", "\"int\"")) "}") "," FLD("m",
                                                             "{\"type\":\"map\",\"values\":" REC(
                                                                 "m", FLD("q", "\"int\"") "," FLD(
                                                                          "q2", "\"int\"")) "}"));
    hudi_ischema in, out;
    hudi_field w;
    bool changed = true;
    hudi_error err = HUDI_ERROR_INIT;
    parse_ok(&in, table);
    writer_schema(&w, same);
    cr_assert_eq(hudi_ischema_reconcile(&out, &changed, &in, &w, 9, &err), 0, "%s", err.message);
    cr_expect_not(changed);
    hudi_ischema_dispose(&out);
    hudi_field_dispose(&w);
    writer_schema(&w, more);
    cr_assert_eq(hudi_ischema_reconcile(&out, &changed, &in, &w, 9, &err), 0, "%s", err.message);
    cr_expect(changed);
    expect_columns(hudi_ischema_find_path(&out, "s", NULL), "z,a");
    cr_expect_eq(hudi_ischema_find_path(&out, "s.a", NULL)->type, HUDI_TYPE_INT64);
    cr_expect_eq(id_of(&out, "s.z"), 9);
    cr_expect_eq(id_of(&out, "l.element.p2"), 10);
    cr_expect_eq(id_of(&out, "m.value.q2"), 11);
    cr_expect_eq(out.max_column_id, 11);
    cr_expect_eq(out.version_id, 9);
    hudi_ischema_dispose(&out);
    hudi_field_dispose(&w);
    hudi_ischema_dispose(&in);
}
