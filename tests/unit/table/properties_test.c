/* properties_test.c - hoodie.properties: the Properties.load grammar, store() escaping,
 * checksum, the typed table config, load fallback and the backup protocol under faults. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support.h"
#include "table/table.h"

static void parse_text(hudi_props *p, const char *text) {
    hudi_error err = HUDI_ERROR_INIT;
    *p = (hudi_props)HUDI_PROPS_INIT;
    int rc = hudi_props_parse(p, hudi_slice_cstr(text), "t.properties", &err);
    cr_assert_eq(rc, 0, "%s", err.message);
}

static void expect(const hudi_props *p, const char *key, const char *value) {
    const char *v = hudi_props_get(p, key);
    cr_assert(v != NULL, "missing key [%s]", key);
    cr_assert_str_eq(v, value, "key [%s]", key);
}

static void load_fixture_props(hudi_props *p, const char *dir) {
    char rel[512];
    snprintf(rel, sizeof(rel), "hudi-rs/components/%s/.hoodie/hoodie.properties", dir);
    size_t len = 0;
    unsigned char *text = test_read_file(fixture_path(rel), &len);
    cr_assert(text, "cannot read %s", rel);
    hudi_error err = HUDI_ERROR_INIT;
    *p = (hudi_props)HUDI_PROPS_INIT;
    cr_assert_eq(hudi_props_parse(p, HUDI_SLICE(text, len), rel, &err), 0, "%s", err.message);
    free(text);
}

static int64_t fixed_clock(void *payload) { return *(int64_t *)payload; }

/* ---- grammar ----------------------------------------------------------------------------- */

Test(properties, java_load_grammar) {
    hudi_props p;
    parse_text(&p, "# comment\n"
                   "! another comment\n"
                   "   \n"
                   "  a=1\n"
                   "b:2\n"
                   "c 3\n"
                   "d   =   4  \n"
                   "e\t:\t5\n"
                   "f\n"
                   "g=\n"
                   "h==x\n"
                   "i = a\\\n"
                   "     b\\\n"
                   "#notacomment\n"
                   "j\\ k=v\\=w\\:x\\#y\\!z\n"
                   "l=\\t\\n\\r\\f\\q\\\\\n"
                   "m=\\u0041\\u00e9\\u20AC\\uD83D\\uDE00\n"
                   "n=caf\xe9\r\n"
                   "o=crlf\r"
                   "p=last\\");
    expect(&p, "a", "1");
    expect(&p, "b", "2");
    expect(&p, "c", "3");
    expect(&p, "d", "4  ");
    expect(&p, "e", "5");
    expect(&p, "f", "");
    expect(&p, "g", "");
    expect(&p, "h", "=x");
    expect(&p, "i", "ab#notacomment"); /* continuation lines are never comments */
    expect(&p, "j k", "v=w:x#y!z");
    expect(&p, "l", "\t\n\r\fq\\");
    expect(&p, "m", "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    expect(&p, "n", "caf\xc3\xa9"); /* ISO-8859-1 byte -> UTF-8 */
    expect(&p, "o", "crlf");
    expect(&p, "p", "last");
    cr_assert_eq(p.count, 15);
    cr_assert_str_eq(p.items[0].key, "a"); /* file order kept */
    cr_assert_str_eq(p.items[14].key, "p");
    hudi_props_dispose(&p);
}

Test(properties, duplicate_key_keeps_position_takes_last_value) {
    hudi_props p;
    parse_text(&p, "x=1\ny=2\nx=3\n");
    cr_assert_eq(p.count, 2);
    cr_assert_str_eq(p.items[0].key, "x");
    expect(&p, "x", "3");
    hudi_props_dispose(&p);
}

Test(properties, malformed_unicode_escape_names_file_and_line) {
    hudi_props p = HUDI_PROPS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_props_parse(&p, hudi_slice_cstr("#c\n\na=1\nb=\\u12G4\n"), "/t/hoodie.properties",
                              &err);
    cr_assert_eq(rc, HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "/t/hoodie.properties: line 4: malformed \\uxxxx"), "%s",
              err.message);
    hudi_props_dispose(&p);
}

Test(properties, set_unset_typed_getters) {
    hudi_props p = HUDI_PROPS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_props_set(&p, "k", "v", &err), 0);
    cr_assert_eq(hudi_props_set(&p, "n", "42", &err), 0);
    cr_assert_eq(hudi_props_set(&p, "b", "TRUE", &err), 0);
    cr_assert_eq(hudi_props_set(&p, "k", "w", &err), 0);
    cr_assert_eq(p.count, 3);
    expect(&p, "k", "w");
    int64_t n = 0;
    bool b = false;
    cr_assert_eq(hudi_props_get_int(&p, "n", 7, &n, &err), 0);
    cr_assert_eq(n, 42);
    cr_assert_eq(hudi_props_get_int(&p, "missing", 7, &n, &err), 0);
    cr_assert_eq(n, 7);
    cr_assert_eq(hudi_props_get_int(&p, "k", 7, &n, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "k=w"), "%s", err.message);
    cr_assert_eq(hudi_props_get_bool(&p, "b", false, &b, &err), 0);
    cr_assert(b);
    cr_assert_eq(hudi_props_get_bool(&p, "n", false, &b, &err), HUDI_ECORRUPT);
    cr_assert(hudi_props_unset(&p, "k"));
    cr_assert(!hudi_props_unset(&p, "k"));
    cr_assert_null(hudi_props_get(&p, "k"));
    cr_assert_eq(p.count, 2);
    hudi_props_dispose(&p);
}

/* ---- store() format ----------------------------------------------------------------------- */

Test(properties, serialize_escapes_like_java) {
    setenv("TZ", "UTC", 1);
    tzset();
    hudi_props p = HUDI_PROPS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_props_set(&p, "hoodie.table.create.schema", "{\"type\":\"record\",\"a\":[1]}", &err);
    hudi_props_set(&p, "fmt", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", &err);
    hudi_props_set(&p, "key with space", " lead and # ! = : \\ \t\n\r\f end", &err);
    hudi_props_set(&p, "uni", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \x01", &err);
    hudi_props_set(&p, "empty", "", &err);
    hudi_buf out = HUDI_BUF_INIT;
    /* 2024-04-18T22:27:38.493Z */
    cr_assert_eq(hudi_props_serialize(&p, "Properties saved on X", 1713479258493LL, &out, &err), 0);
    cr_assert_str_eq(out.data,
                     "#Properties saved on X\n"
                     "#Thu Apr 18 22:27:38 UTC 2024\n"
                     "hoodie.table.create.schema={\"type\"\\:\"record\",\"a\"\\:[1]}\n"
                     "fmt=yyyy-MM-dd'T'HH\\:mm\\:ss.SSSZ\n"
                     "key\\ with\\ space=\\ lead and \\# \\! \\= \\: \\\\ \\t\\n\\r\\f end\n"
                     "uni=caf\\u00E9 \\u20AC \\uD83D\\uDE00 \\u0001\n"
                     "empty=\n");
    /* and it reads back to the same pairs */
    hudi_props q = HUDI_PROPS_INIT;
    cr_assert_eq(hudi_props_parse(&q, HUDI_SLICE(out.data, out.len), "x", &err), 0);
    cr_assert_eq(q.count, p.count);
    for (size_t i = 0; i < p.count; i++) {
        cr_assert_str_eq(q.items[i].key, p.items[i].key);
        cr_assert_str_eq(q.items[i].value, p.items[i].value);
    }
    hudi_buf_dispose(&out);
    hudi_props_dispose(&p);
    hudi_props_dispose(&q);
}

static void round_trip(const hudi_props *p) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf out = HUDI_BUF_INIT;
    hudi_props q = HUDI_PROPS_INIT;
    cr_assert_eq(hudi_props_serialize(p, "c", 0, &out, &err), 0);
    cr_assert_eq(hudi_props_parse(&q, HUDI_SLICE(out.data, out.len), "rt", &err), 0, "%s",
                 err.message);
    cr_assert_eq(q.count, p->count);
    for (size_t i = 0; i < p->count; i++) {
        cr_assert_str_eq(q.items[i].key, p->items[i].key);
        cr_assert_str_eq(q.items[i].value, p->items[i].value);
    }
    hudi_buf_dispose(&out);
    hudi_props_dispose(&q);
}

Test(properties, fixtures_round_trip) {
    const char *dirs[] = {"table_props_valid", "table_props_valid_minimum", "table_props_partial",
                          "table_props_invalid", "table_props_no_create_schema"};
    const size_t counts[] = {21, 7, 18, 8, 14 - 2};
    for (size_t i = 0; i < 5; i++) {
        hudi_props p;
        load_fixture_props(&p, dirs[i]);
        cr_assert_eq(p.count, counts[i], "%s: %zu properties", dirs[i], p.count);
        round_trip(&p);
        hudi_props_dispose(&p);
    }
}

/* ---- checksum ------------------------------------------------------------------------------ */

Test(properties, checksum_vectors) {
    hudi_props p = HUDI_PROPS_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    uint32_t crc = 0;
    cr_assert_eq(hudi_props_compute_checksum(&p, &crc, &err), HUDI_EINVAL);
    hudi_props_set(&p, "hoodie.table.name", "trips", &err);
    cr_assert_eq(hudi_props_compute_checksum(&p, &crc, &err), 0);
    cr_assert_eq(crc, 3761586722u); /* table_props_valid's checksum: CRC32(".trips") */
    hudi_props_set(&p, "hoodie.table.name", "tbl", &err);
    hudi_props_compute_checksum(&p, &crc, &err);
    cr_assert_eq(crc, 564061131u);
    hudi_props_set(&p, "hoodie.database.name", "default", &err);
    hudi_props_compute_checksum(&p, &crc, &err);
    cr_assert_eq(crc, 1116899612u);
    cr_assert_eq(hudi_props_verify_checksum(&p, &err), HUDI_ENOTFOUND);
    cr_assert_eq(hudi_props_update_checksum(&p, &err), 0);
    expect(&p, "hoodie.table.checksum", "1116899612");
    cr_assert_eq(hudi_props_verify_checksum(&p, &err), 0);
    cr_assert_str_eq(p.items[p.count - 1].key, "hoodie.table.checksum");
    hudi_props_dispose(&p);
}

Test(properties, fixture_checksums) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_props p;
    load_fixture_props(&p, "table_props_valid_minimum");
    cr_assert_eq(hudi_props_verify_checksum(&p, &err), 0, "%s", err.message);
    hudi_props_dispose(&p);
    load_fixture_props(&p, "table_props_no_create_schema");
    cr_assert_eq(hudi_props_verify_checksum(&p, &err), 0, "%s", err.message);
    hudi_props_dispose(&p);
    /* table_props_valid stores CRC32(".trips") but also sets hoodie.database.name=db, so by
     * Hudi's rule (CRC32("db.trips") = 2086522725) its checksum is wrong: Java's reader would
     * reject the file. hudi-rs does not check. */
    load_fixture_props(&p, "table_props_valid");
    cr_assert_eq(hudi_props_verify_checksum(&p, &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "want 2086522725"), "%s", err.message);
    hudi_props_unset(&p, "hoodie.database.name");
    cr_assert_eq(hudi_props_verify_checksum(&p, &err), 0);
    hudi_props_dispose(&p);
}

/* ---- typed config --------------------------------------------------------------------------- */

Test(properties, config_from_valid_fixture) {
    hudi_props p;
    hudi_table_config c;
    hudi_error err = HUDI_ERROR_INIT;
    load_fixture_props(&p, "table_props_valid");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "valid", &err), 0, "%s", err.message);
    cr_assert_str_eq(c.name, "trips");
    cr_assert_str_eq(c.database, "db");
    cr_assert_eq(c.type, HUDI_COPY_ON_WRITE);
    cr_assert_eq(c.version, 6);
    cr_assert_eq(c.timeline_layout, 1);
    cr_assert_null(c.timeline_path);
    cr_assert_str_eq(c.record_key_fields, "uuid");
    cr_assert_str_eq(c.partition_fields, "city");
    cr_assert_str_eq(c.precombine_field, "ts");
    cr_assert_str_eq(c.keygen_class, "org.apache.hudi.keygen.SimpleKeyGenerator");
    cr_assert_null(c.keygen_type);
    cr_assert_str_eq(c.base_file_format, "PARQUET");
    cr_assert(c.populate_meta_fields);
    cr_assert(!c.hive_style_partitioning);
    cr_assert(!c.url_encode_partitions);
    cr_assert(!c.drop_partition_columns);
    cr_assert(!c.timeline_utc);
    cr_assert_null(c.create_schema);
    cr_assert_str_eq(c.metadata_partitions, "files");
    cr_assert(hudi_table_config_has_metadata_partition(&c, "files"));
    cr_assert(!hudi_table_config_has_metadata_partition(&c, "column_stats"));
    cr_assert_eq(hudi_table_config_check_readable(&c, &err), 0);
    hudi_props_dispose(&p);
}

Test(properties, config_minimal_partial_no_schema) {
    hudi_props p;
    hudi_table_config c;
    hudi_error err = HUDI_ERROR_INIT;
    load_fixture_props(&p, "table_props_valid_minimum");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(c.version, 6);
    cr_assert_null(c.partition_fields);
    cr_assert_null(c.precombine_field);
    cr_assert_str_eq(c.metadata_partitions, "");
    cr_assert(c.populate_meta_fields);
    hudi_props_dispose(&p);

    load_fixture_props(&p, "table_props_partial");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(c.type, HUDI_COPY_ON_WRITE); /* absent: the default */
    cr_assert_null(c.database);
    hudi_props_dispose(&p);

    load_fixture_props(&p, "table_props_no_create_schema");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
    cr_assert_str_eq(c.name, "v6_empty");
    cr_assert_null(c.create_schema);
    cr_assert(c.hive_style_partitioning);
    cr_assert_str_eq(c.keygen_class, "org.apache.hudi.keygen.NonpartitionedKeyGenerator");
    hudi_props_dispose(&p);
}

Test(properties, config_invalid_values) {
    hudi_props p;
    hudi_table_config c;
    hudi_error err = HUDI_ERROR_INIT;
    load_fixture_props(&p, "table_props_invalid");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "inv", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "inv: hoodie.table.name is not set"), "%s", err.message);
    hudi_props_set(&p, "hoodie.table.name", "t", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "inv", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "unknown hoodie.table.type cow"), "%s", err.message);
    hudi_props_set(&p, "hoodie.table.type", "MERGE_ON_READ", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "inv", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "hoodie.table.version=baz"), "%s", err.message);
    hudi_props_set(&p, "hoodie.table.version", "6", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "inv", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "hoodie.timeline.layout.version=_"), "%s", err.message);
    hudi_props_set(&p, "hoodie.timeline.layout.version", "1", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "inv", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "hoodie.datasource.write.hive_style_partitioning=0"), "%s",
              err.message);
    hudi_props_set(&p, "hoodie.datasource.write.hive_style_partitioning", "false", &err);
    hudi_props_set(&p, "hoodie.datasource.write.partitionpath.urlencode", "false", &err);
    hudi_props_set(&p, "hoodie.datasource.write.drop.partition.columns", "false", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, "inv", &err), 0, "%s", err.message);
    cr_assert_eq(c.type, HUDI_MERGE_ON_READ);
    cr_assert_eq(hudi_table_config_check_readable(&c, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "unsupported base file format foo"), "%s", err.message);
    hudi_props_dispose(&p);
}

Test(properties, unsupported_versions) {
    hudi_props p;
    hudi_table_config c;
    hudi_error err = HUDI_ERROR_INIT;
    parse_text(&p, "hoodie.table.name=t7\nhoodie.table.version=7\n");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "table t7 has version 7"), "%s", err.message);
    hudi_props_set(&p, "hoodie.table.version", "8", &err);
    hudi_props_set(&p, "hoodie.timeline.layout.version", "1", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), HUDI_EUNSUPPORTED);
    hudi_props_set(&p, "hoodie.timeline.layout.version", "2", &err);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
    cr_assert_str_eq(c.timeline_path, "timeline");
    hudi_props_set(&p, "hoodie.table.version", "5", &err);
    hudi_props_unset(&p, "hoodie.timeline.layout.version");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(c.timeline_layout, 1);
    hudi_props_unset(&p, "hoodie.table.version");
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), HUDI_ECORRUPT);
    hudi_props_dispose(&p);
}

Test(properties, sample_tables_load_and_lance_is_refused) {
    struct {
        const char *zip;
        int version;
        const char *keygen;
    } cases[] = {
        {"hudi-rs/sample_table/cow/v6_nonpartitioned.zip", 6, NULL},
        {"hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip", 8, "SIMPLE"},
        {"hudi-rs/sample_table/cow/v9_txns_simple_nometa.zip", 9, "SIMPLE"},
    };
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, &err), 0);
    for (size_t i = 0; i < 3; i++) {
        const char *base = fixture_unzip(cases[i].zip);
        cr_assert(base);
        hudi_props p = HUDI_PROPS_INIT;
        hudi_table_config c;
        cr_assert_eq(hudi_props_load(&p, fs, base, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_props_verify_checksum(&p, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
        cr_assert_eq(c.version, cases[i].version);
        cr_assert_eq(c.timeline_layout, cases[i].version >= 8 ? 2 : 1);
        if (cases[i].keygen) cr_assert_str_eq(c.keygen_type, cases[i].keygen);
        cr_assert_not_null(c.precombine_field); /* v9: hoodie.table.ordering.fields */
        cr_assert_not_null(c.create_schema);
        round_trip(&p);
        hudi_props_dispose(&p);
    }
    const char *base = fixture_unzip("hudi-rs/lance/sample_table/cow/v9_lance_nonpartitioned.zip");
    cr_assert(base);
    hudi_props p = HUDI_PROPS_INIT;
    hudi_table_config c;
    cr_assert_eq(hudi_props_load(&p, fs, base, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_table_config_from_props(&c, &p, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_table_config_check_readable(&c, &err), HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "unsupported base file format LANCE"), "%s", err.message);
    hudi_props_dispose(&p);
    hudi_fs_free(fs);
}

/* ---- load fallback and the backup protocol ------------------------------------------------- */

static void put_file(hudi_fs *fs, const char *path, const char *text) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_write_all(fs, path, HUDI_CREATE_OVERWRITE, text, strlen(text), &err), 0,
                 "%s", err.message);
}

#define GOOD_PROPS "hoodie.table.name=tbl\nhoodie.table.checksum=564061131\nv=good\n"
#define BAD_PROPS "hoodie.table.name=tbl\nhoodie.table.checksum=1\nv=bad\n"

Test(properties, load_falls_back_to_backup) {
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_props p = HUDI_PROPS_INIT;
    cr_assert_eq(hudi_fs_memory_new(&fs, &err), 0);
    cr_assert_eq(hudi_props_load(&p, fs, "/t", &err), HUDI_ENOTFOUND);
    put_file(fs, "/t/.hoodie/hoodie.properties.backup", GOOD_PROPS);
    cr_assert_eq(hudi_props_load(&p, fs, "/t", &err), 0, "%s", err.message);
    expect(&p, "v", "good");
    put_file(fs, "/t/.hoodie/hoodie.properties", BAD_PROPS);
    cr_assert_eq(hudi_props_load(&p, fs, "/t", &err), 0, "%s", err.message);
    expect(&p, "v", "good");
    cr_assert_eq(hudi_fs_remove(fs, "/t/.hoodie/hoodie.properties.backup", &err), 0);
    cr_assert_eq(hudi_props_load(&p, fs, "/t", &err), HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "/t/.hoodie/hoodie.properties: hoodie.table.checksum=1"), "%s",
              err.message);
    /* recovery restores the main file from a good backup and removes the backup */
    put_file(fs, "/t/.hoodie/hoodie.properties.backup", GOOD_PROPS);
    cr_assert_eq(hudi_props_recover(fs, "/t", &err), 0, "%s", err.message);
    cr_assert(!hudi_fs_exists(fs, "/t/.hoodie/hoodie.properties.backup"));
    cr_assert_eq(hudi_props_load(&p, fs, "/t", &err), 0, "%s", err.message);
    expect(&p, "v", "good");
    hudi_props_dispose(&p);
    hudi_fs_free(fs);
}

Test(properties, store_creates_then_updates) {
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int64_t now = 1713479258493LL;
    hudi_clock clock = {fixed_clock, &now};
    hudi_props p = HUDI_PROPS_INIT, q = HUDI_PROPS_INIT;
    cr_assert_eq(hudi_fs_memory_new(&fs, &err), 0);
    hudi_props_set(&p, "hoodie.table.name", "tbl", &err);
    hudi_props_set(&p, "hoodie.database.name", "default", &err);
    hudi_props_set(&p, "v", "1", &err);
    cr_assert_eq(hudi_props_store(&p, fs, "/t", &clock, &err), 0, "%s", err.message);
    hudi_buf text = HUDI_BUF_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, "/t/.hoodie/hoodie.properties", &text, &err), 0);
    cr_assert(strncmp(text.data, "#Properties saved on 2024-04-18T22:27:38.493Z\n#", 47) == 0, "%s",
              text.data);
    cr_assert(strstr(text.data, "\nhoodie.table.checksum=1116899612\n"), "%s", text.data);
    hudi_buf_clear(&text);
    /* a Hadoop checksum of the old file (Spark on a local file system) goes with it */
    cr_assert_eq(hudi_fs_write_all(fs, "/t/.hoodie/.hoodie.properties.crc", HUDI_CREATE_OVERWRITE,
                                   "crc\0\0\0\2\0", 8, &err),
                 0);
    hudi_props_set(&p, "v", "2", &err);
    cr_assert_eq(hudi_props_store(&p, fs, "/t", &clock, &err), 0, "%s", err.message);
    cr_assert(!hudi_fs_exists(fs, "/t/.hoodie/hoodie.properties.backup"));
    cr_assert(!hudi_fs_exists(fs, "/t/.hoodie/.hoodie.properties.crc"));
    cr_assert_eq(hudi_fs_read_all(fs, "/t/.hoodie/hoodie.properties", &text, &err), 0);
    cr_assert(strncmp(text.data, "#Updated at 2024-04-18T22:27:38.493Z\n", 37) == 0, "%s",
              text.data);
    cr_assert_eq(hudi_props_load(&q, fs, "/t", &err), 0, "%s", err.message);
    expect(&q, "v", "2");
    hudi_buf_dispose(&text);
    hudi_props_dispose(&p);
    hudi_props_dispose(&q);
    hudi_fs_free(fs);
}

/* Fails call N (then every later call: a crash) for every N until a store gets through; after
 * each crash the table must still load (old or new value), and a clean retry must succeed. */
static void store_under_faults(bool by_bytes) {
    hudi_error err = HUDI_ERROR_INIT;
    int64_t now = 1713479258493LL;
    hudi_clock clock = {fixed_clock, &now};
    for (int64_t n = 1;; n++) {
        hudi_fs *mem = NULL, *faulty = NULL;
        hudi_props p = HUDI_PROPS_INIT, got = HUDI_PROPS_INIT;
        cr_assert_eq(hudi_fs_memory_new(&mem, &err), 0);
        hudi_props_set(&p, "hoodie.table.name", "tbl", &err);
        hudi_props_set(&p, "v", "old", &err);
        cr_assert_eq(hudi_props_store(&p, mem, "/t", &clock, &err), 0);
        hudi_fault_plan plan = {by_bytes ? 0 : n, by_bytes ? n - 1 : -1, true};
        cr_assert_eq(hudi_fs_faulty_new(&faulty, mem, plan, &err), 0);
        hudi_props_set(&p, "v", "new", &err);
        int rc = hudi_props_store(&p, faulty, "/t", &clock, &err);
        bool tripped = hudi_fs_faulty_tripped(faulty);
        hudi_fs_free(faulty);
        cr_assert_eq(hudi_props_load(&got, mem, "/t", &err), 0, "after fault %lld: %s",
                     (long long)n, err.message);
        const char *v = hudi_props_get(&got, "v");
        cr_assert(v && (!strcmp(v, "old") || !strcmp(v, "new")));
        if (rc == 0 && !tripped) cr_assert_str_eq(v, "new");
        /* the next writer recovers and completes */
        hudi_props_set(&p, "v", "retry", &err);
        cr_assert_eq(hudi_props_store(&p, mem, "/t", &clock, &err), 0, "retry after %lld: %s",
                     (long long)n, err.message);
        cr_assert_eq(hudi_props_load(&got, mem, "/t", &err), 0);
        expect(&got, "v", "retry");
        hudi_props_dispose(&p);
        hudi_props_dispose(&got);
        hudi_fs_free(mem);
        if (!tripped) {
            /* an update takes a dozen storage calls and a few hundred bytes */
            cr_assert_gt(n, 10);
            break;
        }
        cr_assert(n < 10000);
    }
}

Test(properties, store_survives_a_crash_at_every_call) { store_under_faults(false); }
Test(properties, store_survives_a_crash_at_every_byte) { store_under_faults(true); }
