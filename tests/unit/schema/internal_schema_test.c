/* internal_schema_test.c - Hudi's InternalSchema: id assignment from a table schema, the JSON of
 * Hudi's SerDeHelper byte for byte, parsing rules (missing keys, decimal spacing, case), the
 * .hoodie/.schema history (order, duplicates, search), lookups by id and path, reading a file by
 * id (file_names), version numbers of instants, and the real Spark-written evolved tables when
 * they are present. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schema/internal_schema.h"
#include "schema/schema.h"
#include "support.h"

/* ---- helpers ------------------------------------------------------------------------------ */

#define OPT(n, t) "{\"name\":\"" n "\",\"type\":[\"null\"," t "],\"default\":null}"
#define STR "\"string\""

/* The table of internal-schema.md's worked example, as Spark SQL creates it (meta columns
 * first, every column nullable). */
static const char example_avro[] =
    "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":"
    "[" OPT("_hoodie_commit_time", STR) "," OPT("_hoodie_commit_seqno", STR) "," OPT(
        "_hoodie_record_key",
        STR) "," OPT("_hoodie_partition_path",
                     STR) "," OPT("_hoodie_file_name",
                                  STR) "," OPT("id",
                                               "\"int\"") "," OPT("name",
                                                                  STR) "," OPT("price",
                                                                               "{\"type\":"
                                                                               "\"fixed\","
                                                                               "\"name\":"
                                                                               "\"fixed\","
                                                                               "\"namespace"
                                                                               "\":"
                                                                               "\"hoodie.t."
                                                                               "t_record."
                                                                               "price\","
                                                                               "\"size\":5,"
                                                                               "\"logicalTy"
                                                                               "pe\":"
                                                                               "\"decimal\""
                                                                               ",\"precisio"
                                                                               "n\":10,"
                                                                               "\"scale\":"
                                                                               "2}") "," OPT("addr",
                                                                                             "{\"ty"
                                                                                             "pe\":"
                                                                                             "\"rec"
                                                                                             "ord\""
                                                                                             ",\"na"
                                                                                             "me\":"
                                                                                             "\"add"
                                                                                             "r\","
                                                                                             "\"fie"
                                                                                             "lds\""
                                                                                             ":"
                                                                                             "[" OPT("city", STR) "," OPT(
                                                                                                 "z"
                                                                                                 "i"
                                                                                                 "p",
                                                                                                 "\"int\"") "]}") "," OPT("tags",
                                                                                                                          "{\"type\":\"array\",\"items\":[\"null\",\"string\"]}") "," OPT("props",
                                                                                                                                                                                          "{\"type\":\"map\",\"values\":[\"null\",\"int\"]}") "," OPT("ts",
                                                                                                                                                                                                                                                      "\"long\"") "]}";

#define META_JSON                                                                                  \
    "{\"id\":0,\"name\":\"_hoodie_commit_time\",\"optional\":true,\"type\":\"string\"},"           \
    "{\"id\":1,\"name\":\"_hoodie_commit_seqno\",\"optional\":true,\"type\":\"string\"},"          \
    "{\"id\":2,\"name\":\"_hoodie_record_key\",\"optional\":true,\"type\":\"string\"},"            \
    "{\"id\":3,\"name\":\"_hoodie_partition_path\",\"optional\":true,\"type\":\"string\"},"        \
    "{\"id\":4,\"name\":\"_hoodie_file_name\",\"optional\":true,\"type\":\"string\"},"
#define DATA_JSON                                                                                  \
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

static const char example_json[] =
    "{\"max_column_id\":16,\"version_id\":0,\"type\":\"record\",\"fields\":[" META_JSON DATA_JSON
    "]}";

static void example(hudi_ischema *s) {
    hudi_field f;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_parse_avro(&f, example_avro, strlen(example_avro), &err), 0, "%s",
                 err.message);
    cr_assert_eq(hudi_ischema_from_field(s, &f, 0, &err), 0, "%s", err.message);
    hudi_field_dispose(&f);
}

static char *to_json(const hudi_ischema *s) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_write(&b, s, &err), 0, "%s", err.message);
    if (!b.data) return strdup("");
    char *r = strdup(b.data);
    hudi_buf_dispose(&b);
    return r;
}

static void parse_ok(hudi_ischema *s, const char *json) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_parse(s, json, strlen(json), &err), 0, "%s: %s", json, err.message);
}

static void parse_fails(const char *json, const char *needle) {
    hudi_ischema s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_parse(&s, json, strlen(json), &err), HUDI_ECORRUPT, "%s", json);
    cr_expect(strstr(err.message, needle), "%s: message '%s' lacks '%s'", json, err.message,
              needle);
}

/* Parses, writes and compares with the input. */
static void round_trip(const char *json) {
    hudi_ischema s;
    parse_ok(&s, json);
    char *out = to_json(&s);
    cr_expect_str_eq(out, json);
    free(out);
    hudi_ischema_dispose(&s);
}

/* ---- id assignment and JSON ------------------------------------------------------------------ */

Test(internal_schema, worked_example_ids_and_bytes) {
    hudi_ischema s;
    example(&s);
    cr_expect_eq(s.max_column_id, 16);
    cr_expect_eq(s.version_id, 0);
    char *json = to_json(&s);
    cr_expect_str_eq(json, example_json);
    free(json);
    /* the record name stays in memory only */
    cr_expect_str_eq(s.root.name, "hoodie.t.t_record");
    const hudi_field *price = hudi_ischema_find_path(&s, "price", NULL);
    cr_assert(price);
    cr_expect_eq(price->type, HUDI_TYPE_DECIMAL);
    cr_expect_eq(price->byte_width, 5);
    hudi_ischema_dispose(&s);
}

Test(internal_schema, depth_first_blocks) {
    /* a: struct<x: struct<p>, y>, b: struct<z>, c: array<struct<q>>, d: map<string, struct<r>> */
    static const char avro[] =
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
        "{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"a\",\"fields\":["
        "{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"x\",\"fields\":["
        "{\"name\":\"p\",\"type\":\"int\"}]}},{\"name\":\"y\",\"type\":\"int\"}]}},"
        "{\"name\":\"b\",\"type\":{\"type\":\"record\",\"name\":\"b\",\"fields\":["
        "{\"name\":\"z\",\"type\":\"int\"}]}},"
        "{\"name\":\"c\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":"
        "\"c\",\"fields\":[{\"name\":\"q\",\"type\":\"int\"}]}}},"
        "{\"name\":\"d\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"record\",\"name\":"
        "\"d\",\"fields\":[{\"name\":\"r\",\"type\":\"int\"}]}}}]}";
    static const struct {
        const char *path;
        int32_t id;
    } want[] = {{"a", 0},         {"b", 1},           {"c", 2},      {"d", 3},
                {"a.x", 4},       {"a.y", 5},         {"a.x.p", 6},  {"b.z", 7},
                {"c.element", 8}, {"c.element.q", 9}, {"d.key", 10}, {"d.value", 11},
                {"d.value.r", 12}};
    hudi_field f;
    hudi_ischema s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_parse_avro(&f, avro, strlen(avro), &err), 0, "%s", err.message);
    cr_assert_eq(hudi_ischema_from_field(&s, &f, 7, &err), 0, "%s", err.message);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        int32_t id = -2;
        cr_expect(hudi_ischema_find_path(&s, want[i].path, &id), "%s", want[i].path);
        cr_expect_eq(id, want[i].id, "%s: id %d, want %d", want[i].path, id, want[i].id);
        hudi_buf p = HUDI_BUF_INIT;
        cr_expect(hudi_ischema_find_id(&s, want[i].id, &p));
        cr_expect_str_eq(p.data ? p.data : "", want[i].path);
        hudi_buf_dispose(&p);
    }
    cr_expect_eq(s.max_column_id, 12);
    cr_expect_eq(s.version_id, 7);
    /* non-null fields are optional:false; the map key is a non-null string */
    const hudi_field *key = hudi_ischema_find_path(&s, "d.key", NULL);
    cr_expect_eq(key->type, HUDI_TYPE_STRING);
    cr_expect_not(key->nullable);
    cr_expect_null(hudi_ischema_find_path(&s, "d.key_value", NULL));
    cr_expect_null(hudi_ischema_find_path(&s, "a.X", NULL)); /* case-sensitive */
    cr_expect_null(hudi_ischema_find_id(&s, 13, NULL));
    hudi_ischema_dispose(&s);
    hudi_field_dispose(&f);
}

Test(internal_schema, type_conversions) {
    /* Hudi's converter: enum -> string, millis -> micros, uuid -> uuid, bytes decimal -> decimal
     * with the minimal fixed size, fixed -> fixed[N], time-millis -> time, local timestamps and
     * nanos keep their long (Hudi 0.15 does not know them). */
    static const char avro[] =
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
        "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}},"
        "{\"name\":\"tsm\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
        "{\"name\":\"tm\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
        "{\"name\":\"u\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
        "{\"name\":\"dec\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
        "\"precision\":20,\"scale\":3}},"
        "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":7}},"
        "{\"name\":\"lts\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}}"
        ","
        "{\"name\":\"d\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
        "{\"name\":\"b\",\"type\":\"bytes\"},{\"name\":\"f\",\"type\":\"float\"},"
        "{\"name\":\"g\",\"type\":\"double\"},{\"name\":\"h\",\"type\":\"boolean\"}]}";
    hudi_field f;
    hudi_ischema s;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_parse_avro(&f, avro, strlen(avro), &err), 0, "%s", err.message);
    cr_assert_eq(hudi_ischema_from_field(&s, &f, 1, &err), 0, "%s", err.message);
    char *json = to_json(&s);
    cr_expect_str_eq(json,
                     "{\"max_column_id\":11,\"version_id\":1,\"type\":\"record\",\"fields\":["
                     "{\"id\":0,\"name\":\"e\",\"optional\":false,\"type\":\"string\"},"
                     "{\"id\":1,\"name\":\"tsm\",\"optional\":false,\"type\":\"timestamp\"},"
                     "{\"id\":2,\"name\":\"tm\",\"optional\":false,\"type\":\"time\"},"
                     "{\"id\":3,\"name\":\"u\",\"optional\":false,\"type\":\"uuid\"},"
                     "{\"id\":4,\"name\":\"dec\",\"optional\":false,\"type\":\"decimal(20, 3)\"},"
                     "{\"id\":5,\"name\":\"fx\",\"optional\":false,\"type\":\"fixed[7]\"},"
                     "{\"id\":6,\"name\":\"lts\",\"optional\":false,\"type\":\"long\"},"
                     "{\"id\":7,\"name\":\"d\",\"optional\":false,\"type\":\"date\"},"
                     "{\"id\":8,\"name\":\"b\",\"optional\":false,\"type\":\"binary\"},"
                     "{\"id\":9,\"name\":\"f\",\"optional\":false,\"type\":\"float\"},"
                     "{\"id\":10,\"name\":\"g\",\"optional\":false,\"type\":\"double\"},"
                     "{\"id\":11,\"name\":\"h\",\"optional\":false,\"type\":\"boolean\"}]}");
    free(json);
    const hudi_field *ts = hudi_ischema_find_path(&s, "tsm", NULL);
    cr_expect(ts->unit == HUDI_UNIT_MICROS && ts->utc);
    const hudi_field *u = hudi_ischema_find_path(&s, "u", NULL);
    cr_expect(u->type == HUDI_TYPE_FIXED_BINARY && u->byte_width == 16 &&
              u->hint == HUDI_HINT_UUID);
    cr_expect_eq(hudi_ischema_find_path(&s, "dec", NULL)->byte_width, 9);
    hudi_ischema_dispose(&s);
    hudi_field_dispose(&f);

    /* int8/int16 from Parquet become int */
    hudi_field root, *c;
    cr_assert_eq(hudi_field_init(&root, "r", HUDI_TYPE_STRUCT, false), 0);
    cr_assert_eq(hudi_field_set_children(&root, 2), 0);
    c = root.children;
    cr_assert_eq(hudi_field_init(&c[0], "a", HUDI_TYPE_INT8, true), 0);
    cr_assert_eq(hudi_field_init(&c[1], "b", HUDI_TYPE_INT16, false), 0);
    cr_assert_eq(hudi_ischema_from_field(&s, &root, 0, &err), 0, "%s", err.message);
    cr_expect_eq(s.root.children[0].type, HUDI_TYPE_INT32);
    cr_expect_eq(s.root.children[1].type, HUDI_TYPE_INT32);
    hudi_ischema_dispose(&s);
    /* a type the model cannot hold is refused, naming the column */
    c[1].type = HUDI_TYPE_NULL;
    cr_expect_eq(hudi_ischema_from_field(&s, &root, 0, &err), HUDI_EUNSUPPORTED);
    cr_expect(strstr(err.message, "column b"), "%s", err.message);
    hudi_field_dispose(&root);
}

Test(internal_schema, meta_doc_is_written) {
    /* the meta fields Hudi adds carry doc "": written as "doc":"" (only a NULL doc is omitted) */
    hudi_field f, withmeta;
    hudi_ischema s;
    hudi_error err = HUDI_ERROR_INIT;
    static const char avro[] = "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
                               "{\"name\":\"id\",\"type\":\"int\",\"doc\":\"the \\\"key\\\"\"}]}";
    cr_assert_eq(hudi_schema_parse_avro(&f, avro, strlen(avro), &err), 0, "%s", err.message);
    cr_assert_eq(hudi_schema_add_meta_fields(&withmeta, &f, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_ischema_from_field(&s, &withmeta, 0, &err), 0, "%s", err.message);
    char *json = to_json(&s);
    cr_expect(strstr(json, "{\"id\":0,\"name\":\"_hoodie_commit_time\",\"optional\":true,"
                           "\"type\":\"string\",\"doc\":\"\"}"),
              "%s", json);
    cr_expect(strstr(json, "{\"id\":5,\"name\":\"id\",\"optional\":false,\"type\":\"int\","
                           "\"doc\":\"the \\\"key\\\"\"}]}"),
              "%s", json);
    round_trip(json);
    free(json);
    hudi_ischema_dispose(&s);
    hudi_field_dispose(&f);
    hudi_field_dispose(&withmeta);
}

Test(internal_schema, round_trips) {
    round_trip(example_json);
    round_trip("{\"max_column_id\":9,\"version_id\":20240601120000123,\"type\":\"record\","
               "\"fields\":[{\"id\":9,\"name\":\"a\\n\\u0001\\\\\\\"/é\",\"optional\":false,"
               "\"type\":{\"type\":\"array\",\"element_id\":3,\"element\":{\"type\":\"map\","
               "\"key_id\":4,\"key\":\"string\",\"value_id\":5,\"value\":{\"type\":\"record\","
               "\"fields\":[{\"id\":6,\"name\":\"u\",\"optional\":true,\"type\":\"uuid\"},"
               "{\"id\":7,\"name\":\"f\",\"optional\":true,\"type\":\"fixed[3]\",\"doc\":\"\"}]},"
               "\"value_optional\":false},\"element_optional\":false}}]}");
    /* ids with gaps, max above every id (dropped columns) */
    round_trip("{\"max_column_id\":40,\"version_id\":5,\"type\":\"record\",\"fields\":["
               "{\"id\":3,\"name\":\"t\",\"optional\":true,\"type\":\"time\"}]}");
    round_trip("{\"max_column_id\":-1,\"version_id\":1,\"type\":\"record\",\"fields\":[]}");
}

Test(internal_schema, parse_rules) {
    hudi_ischema s;
    /* decimal with any whitespace after the comma, names in any case; written back canonically */
    parse_ok(&s, "{\"max_column_id\":1,\"version_id\":3,\"type\":\"record\",\"fields\":["
                 "{\"id\":0,\"name\":\"a\",\"optional\":true,\"type\":\"DECIMAL(10,2)\"},"
                 "{\"id\":1,\"name\":\"b\",\"optional\":true,\"type\":\"Fixed[4]\"}]}");
    char *json = to_json(&s);
    cr_expect_str_eq(json,
                     "{\"max_column_id\":1,\"version_id\":3,\"type\":\"record\",\"fields\":["
                     "{\"id\":0,\"name\":\"a\",\"optional\":true,\"type\":\"decimal(10, 2)\"},"
                     "{\"id\":1,\"name\":\"b\",\"optional\":true,\"type\":\"fixed[4]\"}]}");
    free(json);
    hudi_ischema_dispose(&s);
    parse_ok(&s, "{\"max_column_id\":0,\"version_id\":3,\"type\":\"record\",\"fields\":["
                 "{\"id\":0,\"name\":\"a\",\"optional\":true,\"type\":\"decimal(10,\\t  2)\"}]}");
    cr_expect_eq(s.root.children[0].scale, 2);
    hudi_ischema_dispose(&s);
    /* max_column_id absent: the largest id present */
    parse_ok(&s, "{\"version_id\":8,\"type\":\"record\",\"fields\":["
                 "{\"id\":4,\"name\":\"a\",\"optional\":true,\"type\":{\"type\":\"array\","
                 "\"element_id\":11,\"element\":\"int\",\"element_optional\":true}}]}");
    cr_expect_eq(s.max_column_id, 11);
    cr_expect_eq(s.version_id, 8);
    hudi_ischema_dispose(&s);
    /* version_id absent: version 0 and max_column_id recomputed (Hudi ignores the given one) */
    parse_ok(&s, "{\"max_column_id\":30,\"type\":\"record\",\"fields\":["
                 "{\"id\":2,\"name\":\"a\",\"optional\":true,\"type\":\"int\"}]}");
    cr_expect_eq(s.max_column_id, 2);
    cr_expect_eq(s.version_id, 0);
    hudi_ischema_dispose(&s);
    /* "" is the empty schema, written as "" */
    parse_ok(&s, "");
    cr_expect_eq(s.version_id, -1);
    cr_expect_eq(s.root.type, HUDI_TYPE_STRUCT);
    cr_expect_eq(s.root.n_children, 0);
    json = to_json(&s);
    cr_expect_str_eq(json, "");
    free(json);
    hudi_ischema_dispose(&s);
    /* the map key is never null, whatever the value's flag */
    parse_ok(&s, "{\"max_column_id\":2,\"version_id\":1,\"type\":\"record\",\"fields\":["
                 "{\"id\":0,\"name\":\"m\",\"optional\":true,\"type\":{\"type\":\"map\","
                 "\"key_id\":1,\"key\":\"string\",\"value_id\":2,\"value\":\"int\","
                 "\"value_optional\":true}}]}");
    cr_expect_not(hudi_ischema_find_path(&s, "m.key", NULL)->nullable);
    cr_expect(hudi_ischema_find_path(&s, "m.value", NULL)->nullable);
    cr_expect_eq(s.root.children[0].children[0].field_id, -1);
    hudi_ischema_dispose(&s);
}

Test(internal_schema, parse_errors) {
    parse_fails("{", "bad JSON");
    parse_fails("[]", "not a JSON object");
    parse_fails("{\"type\":\"array\",\"fields\":[]}", "\"type\" is not \"record\"");
    parse_fails("{\"version_id\":1,\"type\":\"record\"}", "\"fields\"");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"a\","
                "\"optional\":true,\"type\":\"decimal(10,2\"}]}",
                "column a: invalid type \"decimal(10,2\"");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"a\","
                "\"optional\":true,\"type\":\"decimal(40, 2)\"}]}",
                "invalid type");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"a\","
                "\"optional\":true,\"type\":\"record\"}]}",
                "invalid type \"record\"");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"name\":\"a\","
                "\"optional\":true,\"type\":\"int\"}]}",
                "\"id\" is missing");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"a\","
                "\"optional\":1,\"type\":\"int\"}]}",
                "\"optional\"");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"a\","
                "\"optional\":true,\"type\":\"int\"},{\"id\":0,\"name\":\"b\",\"optional\":true,"
                "\"type\":\"int\"}]}",
                "column id 0 is used twice");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"s\","
                "\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":[{\"id\":1,\"name\":"
                "\"x\",\"optional\":true,\"type\":\"bogus\"}]}}]}",
                "column s.x: invalid type \"bogus\"");
    parse_fails("{\"version_id\":1,\"type\":\"record\",\"fields\":[{\"id\":0,\"name\":\"m\","
                "\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":1,\"key\":\"string\","
                "\"value_id\":2,\"value_optional\":true}}]}",
                "without \"key\" or \"value\"");
    parse_fails("{\"version_id\":\"1\",\"type\":\"record\",\"fields\":[]}", "version_id");
    /* deep nesting is refused, not a stack overflow */
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_puts(&b, "{\"version_id\":1,\"type\":\"record\",\"fields\":[");
    for (int i = 0; i < 100; i++)
        hudi_buf_printf(&b,
                        "{\"id\":%d,\"name\":\"a\",\"optional\":true,\"type\":{\"type\":"
                        "\"record\",\"fields\":[",
                        i);
    for (int i = 0; i < 100; i++) hudi_buf_puts(&b, "]}}");
    hudi_buf_puts(&b, "]}");
    parse_fails(b.data, "nested too deeply");
    hudi_buf_dispose(&b);
}

/* ---- history -------------------------------------------------------------------------------- */

static const char *history_entry(hudi_buf *b, int64_t version, int32_t max, const char *extra) {
    hudi_buf_clear(b);
    hudi_buf_printf(b,
                    "{\"max_column_id\":%d,\"version_id\":%lld,\"type\":\"record\",\"fields\":["
                    "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"}%s]}",
                    (int)max, (long long)version, extra);
    return b->data;
}

Test(internal_schema, history_order_duplicates_search) {
    hudi_buf e = HUDI_BUF_INIT, j = HUDI_BUF_INIT;
    hudi_buf_puts(&j, "{\"schemas\":[");
    hudi_buf_puts(&j, history_entry(&e, 20240601120000123LL, 1,
                                    ",{\"id\":1,\"name\":\"note\",\"optional\":true,"
                                    "\"type\":\"string\"}"));
    hudi_buf_putc(&j, ',');
    hudi_buf_puts(&j, history_entry(&e, 0, 0, ""));
    hudi_buf_puts(&j, "]}");
    hudi_ischema_history h;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_history_parse(&h, j.data, j.len, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 2);
    cr_expect_eq(h.items[0].version_id, 20240601120000123LL);
    cr_expect_eq(h.items[1].version_id, 0);
    /* write gives the same bytes */
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_ischema_history_write(&out, &h, &err), 0, "%s", err.message);
    cr_expect_str_eq(out.data, j.data);
    /* search: exact, else the greatest older one, else none */
    cr_expect_eq(hudi_ischema_history_search(&h, 20240601120000123LL), &h.items[0]);
    cr_expect_eq(hudi_ischema_history_search(&h, 20240601120000124LL), &h.items[0]);
    cr_expect_eq(hudi_ischema_history_search(&h, 20240601120000122LL), &h.items[1]);
    cr_expect_eq(hudi_ischema_history_search(&h, 0), &h.items[1]);
    cr_expect_null(hudi_ischema_history_search(&h, -1));

    /* add: a newer version goes first, an older one in order, the same version replaces */
    hudi_ischema s;
    parse_ok(&s, history_entry(&e, 20250101000000000LL, 3, ""));
    cr_assert_eq(hudi_ischema_history_add(&h, &s, &err), 0);
    hudi_ischema_dispose(&s);
    parse_ok(&s, history_entry(&e, 20230101000000000LL, 4, ""));
    cr_assert_eq(hudi_ischema_history_add(&h, &s, &err), 0);
    hudi_ischema_dispose(&s);
    parse_ok(&s, history_entry(&e, 0, 7, ""));
    cr_assert_eq(hudi_ischema_history_add(&h, &s, &err), 0);
    hudi_ischema_dispose(&s);
    cr_assert_eq(h.count, 4);
    int64_t want[] = {20250101000000000LL, 20240601120000123LL, 20230101000000000LL, 0};
    for (int i = 0; i < 4; i++) cr_expect_eq(h.items[i].version_id, want[i]);
    cr_expect_eq(h.items[3].max_column_id, 7);
    cr_expect_eq(hudi_ischema_history_search(&h, 20231231000000000LL), &h.items[2]);
    hudi_ischema_history_dispose(&h);

    /* two entries of one version: the later array element wins (Hudi's TreeMap.put) */
    hudi_buf_clear(&j);
    hudi_buf_puts(&j, "{\"schemas\":[");
    hudi_buf_puts(&j, history_entry(&e, 5, 10, ""));
    hudi_buf_putc(&j, ',');
    hudi_buf_puts(&j, history_entry(&e, 9, 11, ""));
    hudi_buf_putc(&j, ',');
    hudi_buf_puts(&j, history_entry(&e, 5, 12, ""));
    hudi_buf_puts(&j, "]}");
    cr_assert_eq(hudi_ischema_history_parse(&h, j.data, j.len, &err), 0, "%s", err.message);
    cr_assert_eq(h.count, 2);
    cr_expect_eq(h.items[0].version_id, 9);
    cr_expect_eq(h.items[1].version_id, 5);
    cr_expect_eq(h.items[1].max_column_id, 12);
    hudi_ischema_history_dispose(&h);

    /* an empty history and errors */
    cr_assert_eq(hudi_ischema_history_parse(&h, "{\"schemas\":[]}", 14, &err), 0);
    cr_expect_eq(h.count, 0);
    cr_expect_null(hudi_ischema_history_search(&h, 5));
    hudi_buf_clear(&out);
    cr_assert_eq(hudi_ischema_history_write(&out, &h, &err), 0);
    cr_expect_str_eq(out.data, "{\"schemas\":[]}");
    hudi_ischema_history_dispose(&h);
    cr_expect_eq(hudi_ischema_history_parse(&h, "{\"schema\":[]}", 13, &err), HUDI_ECORRUPT);
    cr_expect(strstr(err.message, "\"schemas\""), "%s", err.message);
    static const char bad[] = "{\"schemas\":[{\"version_id\":1,\"type\":\"record\",\"fields\":[]},"
                              "{\"version_id\":2,\"type\":\"record\"}]}";
    cr_expect_eq(hudi_ischema_history_parse(&h, bad, strlen(bad), &err), HUDI_ECORRUPT);
    cr_expect(strstr(err.message, "schema history entry 1"), "%s", err.message);
    cr_expect_eq(h.count, 0);
    hudi_buf_dispose(&e);
    hudi_buf_dispose(&j);
    hudi_buf_dispose(&out);
}

Test(internal_schema, copy_and_version_of) {
    hudi_ischema s, c;
    hudi_error err = HUDI_ERROR_INIT;
    example(&s);
    cr_assert_eq(hudi_ischema_copy(&c, &s, &err), 0);
    char *a = to_json(&s), *b = to_json(&c);
    cr_expect_str_eq(a, b);
    free(a);
    free(b);
    hudi_ischema_dispose(&s);
    hudi_ischema_dispose(&c);
    hudi_ischema_dispose(&c); /* zeroed: disposing twice is harmless */
    hudi_ischema_dispose(NULL);
    cr_expect_eq(hudi_ischema_version_of("20240601120000123"), 20240601120000123LL);
    cr_expect_eq(hudi_ischema_version_of("20240601120000"), 20240601120000LL);
    cr_expect_eq(hudi_ischema_version_of("0"), 0);
    cr_expect_eq(hudi_ischema_version_of(""), -1);
    cr_expect_eq(hudi_ischema_version_of("2024-06-01"), -1);
    cr_expect_eq(hudi_ischema_version_of("20240601120000123.commit"), -1);
    cr_expect_eq(hudi_ischema_version_of("99999999999999999999"), -1); /* past int64 */
    cr_expect_eq(hudi_ischema_version_of("9223372036854775807"), INT64_MAX);
}

/* ---- reading a file by id ------------------------------------------------------------------- */

static const char file_schema[] =
    "{\"max_column_id\":9,\"version_id\":1,\"type\":\"record\",\"fields\":["
    "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
    "{\"id\":1,\"name\":\"col1\",\"optional\":true,\"type\":\"string\"},"
    "{\"id\":2,\"name\":\"col2\",\"optional\":true,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"s\",\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":["
    "{\"id\":6,\"name\":\"a\",\"optional\":true,\"type\":\"int\"},"
    "{\"id\":7,\"name\":\"b\",\"optional\":true,\"type\":\"int\"}]}},"
    "{\"id\":4,\"name\":\"m\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":8,"
    "\"key\":\"string\",\"value_id\":9,\"value\":\"int\",\"value_optional\":true}},"
    "{\"id\":5,\"name\":\"arr\",\"optional\":true,\"type\":{\"type\":\"array\",\"element_id\":10,"
    "\"element\":\"int\",\"element_optional\":true}}]}";

Test(internal_schema, file_names_by_id) {
    /* query: col1 dropped, col2 renamed to col1 (id 2), s.a renamed to s.x, s.b dropped and
     * re-added as s.b (new id 12), a new top-level col3 (id 11), m.value and arr.element
     * retyped (same ids), s renamed to t */
    static const char query_schema[] =
        "{\"max_column_id\":12,\"version_id\":2,\"type\":\"record\",\"fields\":["
        "{\"id\":0,\"name\":\"id\",\"optional\":true,\"type\":\"int\"},"
        "{\"id\":2,\"name\":\"col1\",\"optional\":true,\"type\":\"string\"},"
        "{\"id\":3,\"name\":\"t\",\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":["
        "{\"id\":6,\"name\":\"x\",\"optional\":true,\"type\":\"long\"},"
        "{\"id\":12,\"name\":\"b\",\"optional\":true,\"type\":\"int\"}]}},"
        "{\"id\":4,\"name\":\"m\",\"optional\":true,\"type\":{\"type\":\"map\",\"key_id\":8,"
        "\"key\":\"string\",\"value_id\":9,\"value\":\"double\",\"value_optional\":true}},"
        "{\"id\":5,\"name\":\"arr\",\"optional\":true,\"type\":{\"type\":\"array\","
        "\"element_id\":10,\"element\":\"long\",\"element_optional\":true}},"
        "{\"id\":11,\"name\":\"col3\",\"optional\":true,\"type\":\"string\"}]}";
    hudi_ischema q, f;
    parse_ok(&q, query_schema);
    parse_ok(&f, file_schema);
    hudi_field out;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_file_names(&out, &q, &f, &err), 0, "%s", err.message);
    cr_assert_eq(out.n_children, 6);
    cr_expect_str_eq(out.children[0].name, "id");
    cr_expect_str_eq(out.children[1].name, "col2"); /* renamed: read col2, never the old col1 */
    cr_expect_eq(out.children[1].field_id, 2);
    cr_expect_str_eq(out.children[2].name, "s"); /* parent renamed */
    cr_expect_str_eq(out.children[2].children[0].name, "a");
    cr_expect_eq(out.children[2].children[0].type, HUDI_TYPE_INT64); /* query's type */
    cr_expect_str_eq(out.children[2].children[1].name, ""); /* re-added: absent in the file */
    cr_expect_str_eq(out.children[3].name, "m");
    cr_expect_str_eq(out.children[3].children[0].name, "key_value");
    cr_expect_str_eq(out.children[3].children[0].children[0].name, "key");
    cr_expect_str_eq(out.children[3].children[0].children[1].name, "value");
    cr_expect_eq(out.children[3].children[0].children[1].type, HUDI_TYPE_DOUBLE);
    cr_expect_str_eq(out.children[4].children[0].name, "element");
    cr_expect_eq(out.children[4].children[0].type, HUDI_TYPE_INT64);
    cr_expect_str_eq(out.children[5].name, ""); /* added after the file */
    hudi_field_dispose(&out);

    /* a file that has none of the ids: everything absent; the root keeps its name */
    hudi_ischema empty;
    parse_ok(&empty, "");
    cr_assert_eq(hudi_ischema_file_names(&out, &q, &empty, &err), 0);
    for (int32_t i = 0; i < out.n_children; i++) cr_expect_str_eq(out.children[i].name, "");
    cr_expect_str_eq(out.children[3].children[0].name, "key_value");
    cr_expect_str_eq(out.children[3].children[0].children[1].name, "");
    hudi_field_dispose(&out);
    hudi_ischema_dispose(&empty);
    hudi_ischema_dispose(&q);
    hudi_ischema_dispose(&f);
}

/* ---- real tables (Spark 0.15) ------------------------------------------------------------------
 */

typedef struct scan_counts {
    int histories, latest, version0;
} scan_counts;

static void check_history_file(const char *path, scan_counts *n) {
    size_t len;
    unsigned char *data = test_read_file(path, &len);
    cr_assert(data, "%s", path);
    if (len == 0) { /* .requested / .inflight are empty */
        free(data);
        return;
    }
    hudi_ischema_history h;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_history_parse(&h, (const char *)data, len, &err), 0, "%s: %s", path,
                 err.message);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_ischema_history_write(&out, &h, &err), 0, "%s: %s", path, err.message);
    cr_expect(out.len == len && !memcmp(out.data, data, len), "%s: differs:\n in:  %.*s\n out: %s",
              path, (int)len, (const char *)data, out.data);
    n->histories++;
    hudi_buf_dispose(&out);
    hudi_ischema_history_dispose(&h);
    free(data);
}

/* Every "latest_schema" string in a commit file (JSON) parses and writes back the same bytes. */
static void check_commit_file(const char *path, scan_counts *n) {
    size_t len;
    unsigned char *data = test_read_file(path, &len);
    cr_assert(data, "%s", path);
    json_error_t jerr;
    json_t *j = len ? json_loadb((const char *)data, len, 0, &jerr) : NULL;
    json_t *extra = j ? json_object_get(j, "extraMetadata") : NULL;
    json_t *ls = extra ? json_object_get(extra, "latest_schema") : NULL;
    if (json_is_string(ls)) {
        const char *text = json_string_value(ls);
        size_t tl = json_string_length(ls);
        hudi_ischema s;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_ischema_parse(&s, text, tl, &err), 0, "%s: %s", path, err.message);
        hudi_buf out = HUDI_BUF_INIT;
        cr_assert_eq(hudi_ischema_write(&out, &s, &err), 0, "%s: %s", path, err.message);
        cr_expect(out.len == tl && (tl == 0 || !memcmp(out.data, text, tl)),
                  "%s: latest_schema differs:\n in:  %s\n out: %s", path, text,
                  out.data ? out.data : "");
        n->latest++;
        hudi_buf_dispose(&out);
        hudi_ischema_dispose(&s);
    }
    json_decref(j);
    free(data);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static void scan(const char *dir, scan_counts *n, int depth) {
    DIR *d = opendir(dir);
    if (!d || depth > 8) {
        if (d) closedir(d);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) < 0) continue;
        if (S_ISDIR(st.st_mode)) {
            scan(path, n, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            if (strstr(dir, "/.schema") && ends_with(e->d_name, ".schemacommit"))
                check_history_file(path, n);
            else if (strstr(dir, ".hoodie") &&
                     (ends_with(e->d_name, ".commit") || ends_with(e->d_name, ".deltacommit") ||
                      ends_with(e->d_name, ".replacecommit")))
                check_commit_file(path, n);
        }
    }
    closedir(d);
}

/* The version-0 entry Hudi stores at a table's first DDL is its Avro table schema (with the
 * meta columns) converted with fresh ids: from_field must give the same bytes. The table schema
 * is the "schema" of the newest commit older than the first DDL. */
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_version0(const char *table, scan_counts *n) {
    char dir[4096], path[4096];
    cr_assert(snprintf(dir, sizeof(dir), "%s/.hoodie/.schema", table) < (int)sizeof(dir));
    DIR *d = opendir(dir);
    if (!d) return;
    char *last = NULL;
    struct dirent *e;
    while ((e = readdir(d)))
        if (ends_with(e->d_name, ".schemacommit") && e->d_name[0] != '.' &&
            (!last || strcmp(e->d_name, last) > 0)) {
            free(last);
            last = strdup(e->d_name);
        }
    closedir(d);
    if (!last) return;
    cr_assert(snprintf(path, sizeof(path), "%s/%s", dir, last) < (int)sizeof(path));
    free(last);
    size_t len;
    unsigned char *data = test_read_file(path, &len);
    hudi_ischema_history h;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_ischema_history_parse(&h, (const char *)data, len, &err), 0, "%s", path);
    free(data);
    if (h.count < 2 || h.items[h.count - 1].version_id != 0) {
        hudi_ischema_history_dispose(&h);
        return;
    }
    int64_t first = h.items[h.count - 2].version_id;
    /* commits older than the first DDL, newest first */
    char *names[4096];
    size_t nn = 0;
    cr_assert(snprintf(dir, sizeof(dir), "%s/.hoodie", table) < (int)sizeof(dir));
    d = opendir(dir);
    while (d && (e = readdir(d)) && nn < 4096)
        if (ends_with(e->d_name, ".commit") || ends_with(e->d_name, ".deltacommit"))
            names[nn++] = strdup(e->d_name);
    if (d) closedir(d);
    qsort(names, nn, sizeof(char *), cmp_str);
    bool done = false;
    for (size_t i = nn; i-- > 0 && !done;) {
        char inst[64];
        snprintf(inst, sizeof(inst), "%.*s", (int)strcspn(names[i], "."), names[i]);
        int64_t v = hudi_ischema_version_of(inst);
        if (v < 0 || v >= first) continue;
        cr_assert(snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < (int)sizeof(path));
        data = test_read_file(path, &len);
        json_error_t jerr;
        json_t *j = data ? json_loadb((const char *)data, len, 0, &jerr) : NULL;
        json_t *sch = json_object_get(json_object_get(j, "extraMetadata"), "schema");
        if (json_is_string(sch) && json_string_length(sch)) {
            hudi_field f, withmeta;
            hudi_ischema s;
            cr_assert_eq(
                hudi_schema_parse_avro(&f, json_string_value(sch), json_string_length(sch), &err),
                0, "%s: %s", path, err.message);
            cr_assert_eq(hudi_schema_add_meta_fields(&withmeta, &f, &err), 0);
            cr_assert_eq(hudi_ischema_from_field(&s, &withmeta, 0, &err), 0, "%s", err.message);
            hudi_buf a = HUDI_BUF_INIT, b = HUDI_BUF_INIT;
            cr_assert_eq(hudi_ischema_write(&a, &s, &err), 0);
            cr_assert_eq(hudi_ischema_write(&b, &h.items[h.count - 1], &err), 0);
            cr_expect_str_eq(a.data, b.data, "%s: version 0 differs from the converted schema",
                             table);
            n->version0++;
            hudi_buf_dispose(&a);
            hudi_buf_dispose(&b);
            hudi_ischema_dispose(&s);
            hudi_field_dispose(&f);
            hudi_field_dispose(&withmeta);
            done = true;
        }
        json_decref(j);
        free(data);
    }
    for (size_t i = 0; i < nn; i++) free(names[i]);
    hudi_ischema_history_dispose(&h);
}

static void check_tables(const char *root, scan_counts *n) {
    DIR *d = opendir(root);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        cr_assert(snprintf(path, sizeof(path), "%s/%s", root, e->d_name) < (int)sizeof(path));
        check_version0(path, n);
    }
    closedir(d);
}

/* The Spark-written evolved tables of tests/data/spark-evolved (zipped; the two written with
 * schema on read have histories), and any folder of such tables named by
 * $HUDI_SPARK_EVOLVED_DIR. */
Test(internal_schema, spark_evolved_tables_round_trip) {
    static const char *const zips[] = {"spark-evolved/sor_ddl.zip",
                                       "spark-evolved/sor_rename_drop.zip"};
    scan_counts n = {0};
    for (size_t i = 0; i < sizeof(zips) / sizeof(zips[0]); i++) {
        const char *table = fixture_unzip(zips[i]);
        cr_assert(table, "cannot unzip %s", zips[i]);
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s", table);
        scan(dir, &n, 0);
        check_version0(dir, &n);
    }
    /* every schema-on-read table has a history with a version-0 entry and latest_schema in
     * its commits: the real files were found and checked */
    cr_assert_geq(n.histories, 2, "history files found: %d", n.histories);
    cr_assert_geq(n.latest, 2, "latest_schema strings found: %d", n.latest);
    cr_assert_eq(n.version0, 2, "version-0 entries rebuilt: %d", n.version0);
    const char *env = getenv("HUDI_SPARK_EVOLVED_DIR");
    struct stat st;
    if (env && stat(env, &st) == 0) {
        scan(env, &n, 0);
        check_tables(env, &n);
    }
    cr_log_info("%d history files, %d latest_schema strings round-tripped, %d version-0 entries "
                "rebuilt",
                n.histories, n.latest, n.version0);
}
