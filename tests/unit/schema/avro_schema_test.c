/* avro_schema_test.c - Avro schema JSON <-> hudi_field: every schema stored in the fixture
 * tables (commit metadata, Avro timeline files, hoodie.properties) parses, Hudi table schemas
 * round-trip byte for byte, meta-field helpers, Parquet-derived schemas, parquet-avro's
 * Parquet layout, and error messages for malformed schemas. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/parquet/parquet.h"
#include "format/parquet/schema.h"
#include "schema/schema.h"
#include "support.h"

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct found {
    int parsed, round_tripped, spark_style;
} found;

/* Parses one schema; Hudi table schemas (namespace hoodie.*) must round-trip exactly. */
static void check_schema(const char *json, size_t len, const char *where, found *fd) {
    hudi_field f;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_schema_parse_avro(&f, json, len, &err);
    cr_assert_eq(rc, 0, "%s: %s", where, err.message);
    fd->parsed++;
    if (!strncmp(f.name, "hoodie.", 7)) {
        hudi_buf out = HUDI_BUF_INIT;
        /* hoodie.table.create.schema is Spark-style ([T,"null"], no default) */
        bool spark = memmem(json, len, ",\"null\"]", 8) && !memmem(json, len, "[\"null\",", 8);
        hudi_avro_style style = spark ? HUDI_AVRO_STYLE_SPARK : HUDI_AVRO_STYLE_HUDI;
        fd->spark_style += spark;
        cr_assert_eq(hudi_schema_write_avro(&out, &f, style, &err), 0, "%s: %s", where,
                     err.message);
        cr_expect(out.len == len && memcmp(out.data, json, len) == 0,
                  "%s: round trip differs:\n  in:  %.*s\n  out: %s", where, (int)len, json,
                  out.data);
        fd->round_tripped++;
        hudi_buf_dispose(&out);
    }
    hudi_field_dispose(&f);
}

/* Every top-level Avro record schema embedded in a file (Avro container headers, extraMetadata
 * strings in Avro commit files, parquet.avro.schema): JSON objects starting {"type":"record". */
static void scan_embedded(const unsigned char *data, size_t n, const char *where, found *fd) {
    static const char pat[] = "{\"type\":\"record\"";
    size_t i = 0;
    while (i + sizeof(pat) - 1 <= n) {
        const unsigned char *p = memmem(data + i, n - i, pat, sizeof(pat) - 1);
        if (!p) break;
        size_t off = (size_t)(p - data);
        json_error_t jerr;
        json_t *j = json_loadb((const char *)p, n - off, JSON_DISABLE_EOF_CHECK, &jerr);
        if (!j) {
            i = off + 1;
            continue;
        }
        size_t used = (size_t)jerr.position;
        json_decref(j);
        check_schema((const char *)p, used, where, fd);
        i = off + used;
    }
}

/* hoodie.properties values are Java-properties escaped ("\:" for ':'). */
static void check_properties(const char *path, found *fd) {
    size_t n;
    unsigned char *data = test_read_file(path, &n);
    if (!data) return;
    static const char key[] = "hoodie.table.create.schema=";
    char *s = memmem(data, n, key, sizeof(key) - 1);
    if (s) {
        char *v = s + sizeof(key) - 1, *end = memchr(v, '\n', n - (size_t)(v - (char *)data));
        size_t vlen = end ? (size_t)(end - v) : n - (size_t)(v - (char *)data);
        char *un = malloc(vlen + 1);
        size_t k = 0;
        for (size_t i = 0; i < vlen; i++) {
            if (v[i] == '\r') continue;
            if (v[i] == '\\' && i + 1 < vlen) i++;
            un[k++] = v[i];
        }
        check_schema(un, k, path, fd);
        free(un);
    }
    free(data);
}

/* v6 commit files are JSON: extraMetadata.schema. */
static void check_json_commit(const char *path, found *fd) {
    json_error_t jerr;
    json_t *j = json_load_file(path, 0, &jerr);
    if (!j) return; /* Avro (v8+) or empty: handled by scan_embedded */
    json_t *s = json_object_get(json_object_get(j, "extraMetadata"), "schema");
    if (json_is_string(s) && json_string_length(s) > 0)
        check_schema(json_string_value(s), json_string_length(s), path, fd);
    json_decref(j);
}

static bool ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static void walk_hoodie(const char *dir, found *fd) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[4096];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk_hoodie(p, fd);
        } else if (!strcmp(e->d_name, "hoodie.properties")) {
            check_properties(p, fd);
        } else if (ends_with(p, "commit") || ends_with(p, ".requested") ||
                   ends_with(p, ".inflight") || ends_with(p, "indexing") ||
                   ends_with(p, ".rollback") || ends_with(p, ".clean")) {
            size_t n;
            unsigned char *data = test_read_file(p, &n);
            if (!data) continue;
            if (n && data[0] == '{')
                check_json_commit(p, fd);
            else
                scan_embedded(data, n, p, fd);
            free(data);
        }
    }
    closedir(d);
}

static found check_table(const char *zip) {
    found fd = {0, 0, 0};
    const char *root = fixture_unzip(zip);
    cr_assert_not_null(root, "%s", zip);
    char hoodie[4096];
    snprintf(hoodie, sizeof(hoodie), "%s/.hoodie", root);
    walk_hoodie(hoodie, &fd);
    return fd;
}

/* ---- fixtures ----------------------------------------------------------------------------- */

#define TABLE_TEST(name, zip, min_parsed, min_rt)                                                  \
    Test(avro_fixture, name) {                                                                     \
        found fd = check_table(zip);                                                               \
        cr_expect_geq(fd.parsed, min_parsed, "%s: parsed %d", zip, fd.parsed);                     \
        cr_expect_geq(fd.round_tripped, min_rt, "%s: round-tripped %d", zip, fd.round_tripped);    \
        cr_expect_leq(fd.spark_style, 1, "%s: only the create schema is Spark-style", zip);        \
    }

TABLE_TEST(v6_nonpartitioned, "hudi-rs/sample_table/cow/v6_nonpartitioned.zip", 3, 3)
TABLE_TEST(v6_complexkeygen, "hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip", 3, 3)
TABLE_TEST(v6_overwrite, "hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip",
           5, 4)
TABLE_TEST(v6_timebased, "hudi-rs/sample_table/cow/v6_timebasedkeygen_nonhivestyle.zip", 3, 3)
TABLE_TEST(v6_empty, "hudi-rs/sample_table/cow/v6_empty.zip", 1, 1)
TABLE_TEST(v6_no_meta, "hudi-rs/sample_table/cow/v6_simplekeygen_hivestyle_no_metafields.zip", 2, 2)
TABLE_TEST(v6_mor_rollback, "hudi-rs/sample_table/mor/parquet/v6_nonpartitioned_rollback.zip", 4, 3)
TABLE_TEST(v6_trips_mor, "hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip", 3, 3)
TABLE_TEST(historical, "hudi-rs/historical/python_0.x_cow_partitioned.zip", 2, 2)
TABLE_TEST(v8_simplekeygen, "hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip", 4, 3)
TABLE_TEST(v9_txns_complex_meta, "hudi-rs/sample_table/cow/v9_txns_complex_meta.zip", 20, 10)
TABLE_TEST(v9_column_projection, "hudi-rs/pr602/mor/avro/table_column_projection.zip", 3, 2)

Test(avro_fixture, components) {
    found fd = {0, 0, 0};
    /* (the components' hoodie.properties files carry no create schema) */
    check_json_commit(fixture_path("hudi-rs/components/commit_metadata/v6_commit.json"), &fd);
    size_t n;
    unsigned char *avro =
        test_read_file(fixture_path("hudi-rs/components/commit_metadata/v8_deltacommit.avro"), &n);
    cr_assert_not_null(avro);
    scan_embedded(avro, n, "v8_deltacommit.avro", &fd);
    free(avro);
    cr_expect_geq(fd.parsed, 3); /* v6 commit schema, the container schema, extraMetadata */
}

/* ---- synthetic ---------------------------------------------------------------------------- */

Test(avro_schema, types_and_logical_types) {
    const char *json =
        "{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"a.b\",\"doc\":\"top\",\"fields\":["
        "{\"name\":\"i\",\"type\":\"int\"},"
        "{\"name\":\"d\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\","
        "\"precision\":40,\"scale\":2}]}]}";
    hudi_field f;
    hudi_error err = HUDI_ERROR_INIT;
    cr_expect_eq(hudi_schema_parse_avro(&f, json, strlen(json), &err), HUDI_EUNSUPPORTED);
    cr_expect(strstr(err.message, "field d"), "%s", err.message);

    json = "{\"type\":\"record\",\"name\":\"r\",\"namespace\":\"a.b\",\"fields\":["
           "{\"name\":\"bd\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\","
           "\"precision\":12,\"scale\":3}},"
           "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}},"
           "{\"name\":\"e2\",\"type\":[\"E\",\"null\"]},"
           "{\"name\":\"u\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
           "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
           "{\"name\":\"tm\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
           "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
           "{\"name\":\"lts\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-"
           "micros\"}},"
           "{\"name\":\"odd\",\"type\":{\"type\":\"long\",\"logicalType\":\"no-such-type\"}},"
           "{\"name\":\"multi\",\"type\":[\"null\",\"int\",\"string\"]},"
           "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":"
           "\"F\"}}}"
           "]}";
    cr_assert_eq(hudi_schema_parse_avro(&f, json, strlen(json), &err), 0, "%s", err.message);
    cr_expect_str_eq(f.name, "a.b.r");
    cr_assert_eq(f.n_children, 11);
    const hudi_field *c = f.children;
    cr_expect(c[0].type == HUDI_TYPE_DECIMAL && c[0].precision == 12 && c[0].scale == 3 &&
              c[0].byte_width == 0 && !c[0].nullable);
    cr_expect(c[1].type == HUDI_TYPE_STRING && c[1].hint == HUDI_HINT_ENUM);
    cr_expect(c[2].type == HUDI_TYPE_STRING && c[2].nullable); /* reference, null second */
    cr_expect(c[3].type == HUDI_TYPE_STRING && c[3].hint == HUDI_HINT_UUID);
    cr_expect(c[4].type == HUDI_TYPE_FIXED_BINARY && c[4].byte_width == 3);
    cr_expect(c[5].type == HUDI_TYPE_TIME && c[5].unit == HUDI_UNIT_MILLIS);
    cr_expect(c[6].type == HUDI_TYPE_TIMESTAMP && c[6].unit == HUDI_UNIT_MILLIS && c[6].utc);
    cr_expect(c[7].type == HUDI_TYPE_TIMESTAMP && c[7].unit == HUDI_UNIT_MICROS && !c[7].utc);
    cr_expect(c[8].type == HUDI_TYPE_INT64);
    cr_expect(c[9].type == HUDI_TYPE_STRUCT && c[9].nullable && c[9].n_children == 2);
    cr_expect_str_eq(c[9].children[1].name, "member1");
    cr_expect(c[10].type == HUDI_TYPE_MAP);
    cr_expect(c[10].children[0].children[1].type == HUDI_TYPE_LIST);
    cr_expect(c[10].children[0].children[1].children[0].type == HUDI_TYPE_FIXED_BINARY);
    hudi_field_dispose(&f);
}

Test(avro_schema, write_in_hudi_naming) {
    hudi_field root, *c;
    hudi_field_init(&root, "hoodie.t.t_record", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&root, 5);
    c = root.children;
    hudi_field_init(&c[0], "id", HUDI_TYPE_INT64, false);
    hudi_field_init(&c[1], "price", HUDI_TYPE_DECIMAL, true);
    c[1].precision = 20, c[1].scale = 2;
    hudi_field_init(&c[2], "tags", HUDI_TYPE_LIST, true);
    hudi_field_set_children(&c[2], 1);
    hudi_field_init(&c[2].children[0], "element", HUDI_TYPE_DECIMAL, true);
    c[2].children[0].precision = 5;
    hudi_field_init(&c[3], "s", HUDI_TYPE_STRUCT, true);
    hudi_field_set_children(&c[3], 1);
    hudi_field_init(&c[3].children[0], "ts", HUDI_TYPE_TIMESTAMP, true);
    c[3].children[0].utc = true;
    c[3].children[0].comment = hudi_strdup("when \"it\"\nhappened");
    hudi_field_init(&c[4], "d", HUDI_TYPE_DATE, false);
    hudi_buf out = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_schema_write_avro(&out, &root, HUDI_AVRO_STYLE_HUDI, &err), 0, "%s",
                 err.message);
    const char *want =
        "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
        "{\"name\":\"id\",\"type\":\"long\"},"
        "{\"name\":\"price\",\"type\":[\"null\",{\"type\":\"fixed\",\"name\":\"fixed\","
        "\"namespace\":\"hoodie.t.t_record.price\",\"size\":9,\"logicalType\":\"decimal\","
        "\"precision\":20,\"scale\":2}],\"default\":null},"
        "{\"name\":\"tags\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",{\"type\":"
        "\"fixed\",\"name\":\"fixed\",\"namespace\":\"hoodie.t.t_record.tags\",\"size\":3,"
        "\"logicalType\":\"decimal\",\"precision\":5,\"scale\":0}]}],\"default\":null},"
        "{\"name\":\"s\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"s\",\"namespace\":"
        "\"hoodie.t.t_record\",\"fields\":[{\"name\":\"ts\",\"type\":[\"null\",{\"type\":\"long\","
        "\"logicalType\":\"timestamp-micros\"}],\"doc\":\"when \\\"it\\\"\\nhappened\","
        "\"default\":null}]}],\"default\":null},"
        "{\"name\":\"d\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}}]}";
    cr_expect_str_eq(out.data, want);
    /* and it parses back to the same JSON */
    hudi_field back;
    cr_assert_eq(hudi_schema_parse_avro(&back, out.data, out.len, &err), 0, "%s", err.message);
    hudi_buf again = HUDI_BUF_INIT;
    cr_assert_eq(hudi_schema_write_avro(&again, &back, HUDI_AVRO_STYLE_HUDI, &err), 0);
    cr_expect_str_eq(again.data, out.data);
    /* types Avro cannot hold are refused, naming the field */
    c[3].children[0].type = HUDI_TYPE_UINT16;
    hudi_buf_clear(&out);
    cr_expect_eq(hudi_schema_write_avro(&out, &root, HUDI_AVRO_STYLE_HUDI, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "field s.ts"), "%s", err.message);
    cr_expect_eq(out.len, 0);
    hudi_buf_dispose(&again);
    hudi_buf_dispose(&out);
    hudi_field_dispose(&back);
    hudi_field_dispose(&root);

    hudi_buf_clear(&out);
    hudi_schema_record_fullname(&out, "trips");
    cr_expect_str_eq(out.data, "hoodie.trips.trips_record");
    hudi_buf_dispose(&out);
    cr_expect_eq(hudi_schema_decimal_bytes(10), 5);
    cr_expect_eq(hudi_schema_decimal_bytes(9), 4);
    cr_expect_eq(hudi_schema_decimal_bytes(18), 8);
    cr_expect_eq(hudi_schema_decimal_bytes(38), 16);
}

static void expect_error(const char *json, int code, const char *needle) {
    hudi_field f;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_schema_parse_avro(&f, json, strlen(json), &err);
    cr_expect_eq(rc, code, "%s -> %d (%s)", json, rc, err.message);
    cr_expect(strstr(err.message, needle), "'%s' not in '%s'", needle, err.message);
    cr_expect_null(f.name);
}

Test(avro_schema, errors_name_the_field) {
    expect_error("{\"type\":\"record\"", HUDI_ECORRUPT, "bad JSON");
    expect_error("\"int\"", HUDI_ECORRUPT, "not a record");
    expect_error("{\"type\":\"record\",\"name\":\"r\"}", HUDI_ECORRUPT, "fields");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":"
                 "{\"type\":\"record\",\"name\":\"b\",\"fields\":[{\"name\":\"c\",\"type\":"
                 "\"strin\"}]}}]}",
                 HUDI_ECORRUPT, "field a.c: unknown type 'strin'");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\"}]}",
                 HUDI_ECORRUPT, "field a: missing \"type\"");
    expect_error(
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
        "{\"name\":\"a\",\"type\":\"int\"}]}",
        HUDI_ECORRUPT, "field a: duplicate");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a-b\",\"type\":"
                 "\"int\"}]}",
                 HUDI_ECORRUPT, "invalid Avro name");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"x\",\"type\":"
                 "{\"type\":\"fixed\",\"name\":\"f\",\"size\":2,\"logicalType\":\"decimal\","
                 "\"precision\":10}}]}",
                 HUDI_ECORRUPT, "field x: fixed(2) cannot hold decimal(10,0)");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"x\",\"type\":"
                 "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":5,\"scale\":7}}]}",
                 HUDI_ECORRUPT, "decimal(5,7)");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"next\",\"type\":"
                 "[\"null\",\"r\"]}]}",
                 HUDI_EUNSUPPORTED, "recursive type 'r'");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"u\",\"type\":"
                 "[\"null\",\"null\"]}]}",
                 HUDI_ECORRUPT, "twice");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"m\",\"type\":"
                 "{\"type\":\"map\"}}]}",
                 HUDI_ECORRUPT, "field m: an map needs");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"e\",\"type\":"
                 "{\"type\":\"enum\",\"name\":\"r\",\"symbols\":[]}}]}",
                 HUDI_ECORRUPT, "defined twice");
    expect_error("{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"n\",\"type\":7}]}",
                 HUDI_ECORRUPT, "field n: a type must be");
}

/* ---- meta fields and the footer schema ---------------------------------------------------- */

static char *read_commit_schema(const char *root, const char *instant) {
    char p[4096];
    snprintf(p, sizeof(p), "%s/.hoodie/%s.commit", root, instant);
    json_error_t jerr;
    json_t *j = json_load_file(p, 0, &jerr);
    cr_assert_not_null(j, "%s: %s", p, jerr.text);
    char *s =
        strdup(json_string_value(json_object_get(json_object_get(j, "extraMetadata"), "schema")));
    json_decref(j);
    return s;
}

static const char *first_base_file(const char *root) {
    static char path[4096];
    DIR *d = opendir(root);
    struct dirent *e;
    path[0] = '\0';
    while ((e = readdir(d)))
        if (strstr(e->d_name, "20240418173551906.parquet"))
            snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
    closedir(d);
    return path;
}

Test(avro_schema, meta_fields_match_the_footer_schema) {
    const char *root = fixture_unzip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    cr_assert_not_null(root);
    char *commit = read_commit_schema(root, "20240418173551906");
    hudi_fs *fs = NULL;
    hudi_pq_file *pf = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    cr_assert_eq(hudi_pq_open(&pf, fs, first_base_file(root), NULL, &err), 0, "%s", err.message);
    hudi_slice footer;
    cr_assert(hudi_pq_kv(pf, "parquet.avro.schema", &footer));

    hudi_field table, with_meta, without;
    cr_assert_eq(hudi_schema_parse_avro(&table, commit, strlen(commit), &err), 0, "%s",
                 err.message);
    cr_expect(!hudi_schema_has_meta_fields(&table));
    cr_assert_eq(hudi_schema_add_meta_fields(&with_meta, &table, &err), 0);
    cr_expect(hudi_schema_has_meta_fields(&with_meta));
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_schema_write_avro(&out, &with_meta, HUDI_AVRO_STYLE_HUDI, &err), 0);
    cr_expect(hudi_slice_eq(footer, HUDI_SLICE(out.data, out.len)), "with meta: %s", out.data);
    /* idempotent, and removal gives the commit schema back */
    hudi_field twice;
    cr_assert_eq(hudi_schema_add_meta_fields(&twice, &with_meta, &err), 0);
    cr_expect_eq(twice.n_children, with_meta.n_children);
    cr_assert_eq(hudi_schema_remove_meta_fields(&without, &with_meta, &err), 0);
    hudi_buf_clear(&out);
    cr_assert_eq(hudi_schema_write_avro(&out, &without, HUDI_AVRO_STYLE_HUDI, &err), 0);
    cr_expect_str_eq(out.data, commit);
    cr_expect(hudi_is_meta_field("_hoodie_operation"));
    cr_expect(!hudi_is_meta_field("_hoodie_other"));

    hudi_buf_dispose(&out);
    hudi_field_dispose(&twice);
    hudi_field_dispose(&without);
    hudi_field_dispose(&with_meta);
    hudi_field_dispose(&table);
    hudi_pq_close(pf);
    hudi_fs_free(fs);
    free(commit);
}

/* Schema-equality ignoring names of list/map children and comments. */
static bool same_shape(const hudi_field *a, const hudi_field *b, hudi_buf *why, const char *path) {
    if (a->type != b->type || a->nullable != b->nullable || a->precision != b->precision ||
        a->scale != b->scale || a->n_children != b->n_children ||
        (a->type == HUDI_TYPE_TIMESTAMP && (a->unit != b->unit || a->utc != b->utc))) {
        hudi_buf_printf(why, "%s: %s%s vs %s%s", path, hudi_type_name(a->type),
                        a->nullable ? "?" : "", hudi_type_name(b->type), b->nullable ? "?" : "");
        return false;
    }
    for (int32_t i = 0; i < a->n_children; i++) {
        char p[512];
        snprintf(p, sizeof(p), "%s.%s", path, a->children[i].name);
        if (a->type == HUDI_TYPE_STRUCT && strcmp(a->children[i].name, b->children[i].name)) {
            hudi_buf_printf(why, "%s: name %s", p, b->children[i].name);
            return false;
        }
        if (!same_shape(&a->children[i], &b->children[i], why, p)) return false;
    }
    return true;
}

/* Table created from a Parquet schema: the reader's schema of a Hudi base file, converted,
 * equals the table's Avro schema (with parquet-avro's dropped element nullability). */
Test(avro_schema, from_parquet_schema) {
    const char *root = fixture_unzip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    cr_assert_not_null(root);
    hudi_fs *fs = NULL;
    hudi_pq_file *pf = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    cr_assert_eq(hudi_pq_open(&pf, fs, first_base_file(root), NULL, &err), 0);
    hudi_field derived, avro, avro_pq;
    cr_assert_eq(hudi_schema_from_parquet(&derived, hudi_pq_schema(pf), "v6_nonpartitioned", &err),
                 0, "%s", err.message);
    cr_expect_str_eq(derived.name, "hoodie.v6_nonpartitioned.v6_nonpartitioned_record");
    hudi_slice footer;
    cr_assert(hudi_pq_kv(pf, "parquet.avro.schema", &footer));
    cr_assert_eq(hudi_schema_parse_avro(&avro, (const char *)footer.data, footer.len, &err), 0);
    cr_assert_eq(hudi_schema_parquet_avro(&avro_pq, &avro, &err), 0);
    hudi_buf why = HUDI_BUF_INIT;
    cr_expect(same_shape(&avro_pq, &derived, &why, "root"), "%s", why.data);
    hudi_buf json = HUDI_BUF_INIT;
    cr_expect_eq(hudi_schema_write_avro(&json, &derived, HUDI_AVRO_STYLE_HUDI, &err), 0, "%s",
                 err.message);

    /* small ints and unsigned types become what Spark reads them as */
    hudi_field p, q;
    hudi_field_init(&p, "m", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&p, 4);
    hudi_field_init(&p.children[0], "a", HUDI_TYPE_INT8, true);
    hudi_field_init(&p.children[1], "b", HUDI_TYPE_UINT64, true);
    hudi_field_init(&p.children[2], "c", HUDI_TYPE_TIMESTAMP, true);
    p.children[2].unit = HUDI_UNIT_NANOS;
    hudi_field_init(&p.children[3], "d", HUDI_TYPE_MAP, true);
    hudi_field_set_children(&p.children[3], 1);
    hudi_field *kv = &p.children[3].children[0];
    hudi_field_init(kv, "entries", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(kv, 2);
    hudi_field_init(&kv->children[0], "key", HUDI_TYPE_INT32, false);
    hudi_field_init(&kv->children[1], "value", HUDI_TYPE_INT32, true);
    cr_expect_eq(hudi_schema_from_parquet(&q, &p, "t", &err), HUDI_EUNSUPPORTED);
    cr_expect(strstr(err.message, "column d"), "%s", err.message);
    kv->children[0].type = HUDI_TYPE_STRING;
    cr_assert_eq(hudi_schema_from_parquet(&q, &p, "t", &err), 0);
    cr_expect_eq(q.children[0].type, HUDI_TYPE_INT32);
    cr_expect(q.children[1].type == HUDI_TYPE_DECIMAL && q.children[1].precision == 20);
    cr_expect_eq(q.children[2].type, HUDI_TYPE_INT64);
    cr_expect_str_eq(q.children[3].children[0].name, "key_value");
    hudi_field_dispose(&q);
    hudi_field_dispose(&p);

    hudi_buf_dispose(&json);
    hudi_buf_dispose(&why);
    hudi_field_dispose(&avro_pq);
    hudi_field_dispose(&avro);
    hudi_field_dispose(&derived);
    hudi_pq_close(pf);
    hudi_fs_free(fs);
}

/* parquet-avro conventions: the footer's Avro schema written through hudi_pq_schema_write with
 * two_level_lists + decimal_as_flba reproduces the real file's schema elements, except the
 * differences listed (and printed) here. */
Test(avro_schema, parquet_avro_layout_matches_real_footer) {
    const char *root = fixture_unzip("hudi-rs/sample_table/cow/v6_nonpartitioned.zip");
    cr_assert_not_null(root);
    hudi_fs *fs = NULL;
    hudi_pq_file *pf = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    cr_assert_eq(hudi_pq_open(&pf, fs, first_base_file(root), NULL, &err), 0);
    hudi_slice footer;
    cr_assert(hudi_pq_kv(pf, "parquet.avro.schema", &footer));
    hudi_field avro, shaped;
    cr_assert_eq(hudi_schema_parse_avro(&avro, (const char *)footer.data, footer.len, &err), 0);
    cr_assert_eq(hudi_schema_parquet_avro(&shaped, &avro, &err), 0);

    pq_schema_write_options o = PQ_SCHEMA_WRITE_OPTIONS_INIT;
    o.two_level_lists = true;
    o.decimal_as_flba = true;
    pq_schema_element *els = NULL;
    int32_t n = 0;
    hudi_arena arena = HUDI_ARENA_INIT;
    cr_assert_eq(hudi_pq_schema_write(&els, &n, &arena, &shaped, &o, &err), 0, "%s", err.message);
    const pq_file_meta *meta = hudi_pq_meta(pf);
    cr_assert_eq(n, meta->n_schema, "element count %d vs %d", n, meta->n_schema);
    int diffs = 0, key_value_ct = 0;
    for (int32_t i = 0; i < n; i++) {
        const pq_schema_element *a = &els[i], *b = &meta->schema[i];
        cr_expect(hudi_slice_eq(a->name, b->name), "element %d name %.*s vs %.*s", i,
                  (int)a->name.len, a->name.data, (int)b->name.len, b->name.data);
        cr_expect(a->has_type == b->has_type && (!a->has_type || a->type == b->type) &&
                      a->type_length == b->type_length && a->num_children == b->num_children,
                  "element %.*s: physical shape differs", (int)b->name.len, b->name.data);
        cr_expect_eq(i == 0 ? 0 : a->repetition, i == 0 ? 0 : b->repetition, "%.*s repetition",
                     (int)b->name.len, b->name.data);
        cr_expect(a->precision == b->precision && a->scale == b->scale);
        if (a->has_converted_type != b->has_converted_type ||
            (a->has_converted_type && a->converted_type != b->converted_type)) {
            /* parquet-avro annotates map entries with MAP_KEY_VALUE; hudic writes none */
            bool known = !a->has_converted_type && b->converted_type == PQ_CT_MAP_KEY_VALUE;
            key_value_ct += known;
            cr_expect(known, "%.*s: converted type %d vs %d", (int)b->name.len, b->name.data,
                      a->has_converted_type ? a->converted_type : -1,
                      b->has_converted_type ? b->converted_type : -1);
            diffs++;
        }
        if (a->has_logical_type != b->has_logical_type ||
            (a->has_logical_type && a->logical_type.kind != b->logical_type.kind)) {
            cr_expect(false, "%.*s: logical type %d vs %d", (int)b->name.len, b->name.data,
                      a->has_logical_type ? (int)a->logical_type.kind : -1,
                      b->has_logical_type ? (int)b->logical_type.kind : -1);
            diffs++;
        }
    }
    cr_expect_eq(diffs, key_value_ct, "unexpected differences");
    cr_expect_eq(key_value_ct, 1);
    hudi_arena_dispose(&arena);
    hudi_field_dispose(&shaped);
    hudi_field_dispose(&avro);
    hudi_pq_close(pf);
    hudi_fs_free(fs);
}
