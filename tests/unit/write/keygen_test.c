/* keygen_test.c - key generators: Java value rendering, escaping, Simple/Complex/
 * Nonpartitioned/Timestamp/Custom rules, and the fixtures: keys and partition paths computed
 * from the data columns equal the _hoodie_record_key / _hoodie_partition_path columns. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "write/keygen.h"
#include "write/keygen_int.h"
#include "write_fixtures.h"

static char *dbl(double v) {
    static char s[64];
    hudi_buf b = HUDI_BUF_INIT;
    hudi_java_double_str(&b, v);
    snprintf(s, sizeof(s), "%s", b.data);
    hudi_buf_dispose(&b);
    return s;
}

static char *flt(float v) {
    static char s[64];
    hudi_buf b = HUDI_BUF_INIT;
    hudi_java_float_str(&b, v);
    snprintf(s, sizeof(s), "%s", b.data);
    hudi_buf_dispose(&b);
    return s;
}

static char *dec(__int128 v, int32_t scale) {
    static char s[64];
    hudi_buf b = HUDI_BUF_INIT;
    hudi_kg_put_decimal(&b, v, scale);
    snprintf(s, sizeof(s), "%s", b.data);
    hudi_buf_dispose(&b);
    return s;
}

Test(keygen, java_value_strings) {
    cr_expect_str_eq(dbl(1.0), "1.0");
    cr_expect_str_eq(dbl(1e10), "1.0E10");
    cr_expect_str_eq(dbl(1e-5), "1.0E-5");
    cr_expect_str_eq(dbl(0.001), "0.001");
    cr_expect_str_eq(dbl(1234567.0), "1234567.0");
    cr_expect_str_eq(dbl(1e7), "1.0E7");
    cr_expect_str_eq(dbl(0.1), "0.1");
    cr_expect_str_eq(dbl(-100.5), "-100.5");
    cr_expect_str_eq(dbl(123.456e20), "1.23456E22");
    cr_expect_str_eq(dbl(0.0), "0.0");
    cr_expect_str_eq(dbl(-0.0), "-0.0");
    cr_expect_str_eq(dbl(0.0 / 0.0), "NaN");
    cr_expect_str_eq(dbl(1.0 / 0.0), "Infinity");
    cr_expect_str_eq(flt(0.1f), "0.1");
    cr_expect_str_eq(flt(3.4028235e38f), "3.4028235E38");
    cr_expect_str_eq(flt(1.5f), "1.5");
    /* JDK 17 prints these with more digits than the shortest text that reads back */
    cr_expect_str_eq(flt(1.13132703E18f), "1.13132703E18");
    cr_expect_str_eq(dbl(1e23), "9.999999999999999E22");
    cr_expect_str_eq(dbl(4.9e-324), "4.9E-324");
    cr_expect_str_eq(dec(12345, 2), "123.45");
    cr_expect_str_eq(dec(-5, 1), "-0.5");
    cr_expect_str_eq(dec(0, 2), "0.00");
    cr_expect_str_eq(dec(1, 10), "1E-10");
    cr_expect_str_eq(dec(0, 10), "0E-10");
    cr_expect_str_eq(dec(123, 0), "123");
    cr_expect_str_eq(dec(1234500000, 5), "12345.00000");
    cr_expect_str_eq(dec(-123, -2), "-1.23E+4");
    hudi_buf b = HUDI_BUF_INIT;
    hudi_kg_put_date(&b, 0);
    hudi_buf_putc(&b, ' ');
    hudi_kg_put_date(&b, 19448);
    hudi_buf_putc(&b, ' ');
    hudi_kg_put_sql_timestamp(&b, 1680350460123);
    hudi_buf_putc(&b, ' ');
    hudi_kg_put_sql_timestamp(&b, 0);
    cr_expect_str_eq(b.data, "1970-01-01 2023-04-01 2023-04-01 12:01:00.123 1970-01-01 00:00:00.0");
    hudi_buf_clear(&b);
    hudi_partition_escape(&b, "a/b:c=d%\x01 é#", strlen("a/b:c=d%\x01 é#"));
    cr_expect_str_eq(b.data, "a%2Fb%3Ac%3Dd%25%01 é%23");
    hudi_buf_dispose(&b);
}

Test(keygen, joda_patterns) {
    int64_t ms;
    cr_assert(hudi_kg_pattern_parse("yyyy-MM-dd'T'HH:mm:ss.SSSZ", "2023-04-01T12:01:00.123Z", 24, 0,
                                    &ms));
    cr_expect_eq(ms, 1680350460123);
    cr_assert(hudi_kg_pattern_parse("yyyy-MM-dd'T'HH:mm:ss.SSSZ", "2023-04-01T12:01:00.123+0530",
                                    28, 0, &ms));
    cr_expect_eq(ms, 1680350460123 - 330 * 60000);
    cr_expect(!hudi_kg_pattern_parse("yyyy-MM-dd", "2023-04-01x", 11, 0, &ms));
    cr_assert(hudi_kg_pattern_parse("yyyy/MM/dd", "2024/1/5", 8, -60, &ms));
    cr_expect_eq(ms, (int64_t)19727 * 86400000 + 3600000);
    hudi_buf b = HUDI_BUF_INIT;
    hudi_kg_pattern_format(&b, "yyyy/MM/dd/HH", 1680350460123, 0);
    hudi_buf_putc(&b, '|');
    hudi_kg_pattern_format(&b, "yy-M-d h a 'at' mm:ss.SSS ZZ MMM", 1680350460123, -300);
    cr_expect_str_eq(b.data, "2023/04/01/12|23-4-1 7 AM at 01:00.123 -05:00 Apr");
    hudi_buf_dispose(&b);
    hudi_error err = HUDI_ERROR_INIT;
    cr_expect_eq(hudi_kg_pattern_check("yyyy-MM-dd EEE", &err), HUDI_EUNSUPPORTED);
    int32_t off;
    cr_expect_eq(hudi_kg_parse_zone(&off, "GMT+8", NULL), 0);
    cr_expect_eq(off, 480);
    cr_expect_eq(hudi_kg_parse_zone(&off, "-05:30", NULL), 0);
    cr_expect_eq(off, -330);
    cr_expect_eq(hudi_kg_parse_zone(&off, "America/New_York", &err), HUDI_EUNSUPPORTED);
}

/* ---- synthetic batches -------------------------------------------------------------------- */

typedef struct tb {
    hudi_field schema;
    hudi_batch *b;
    hudi_field str;
    hudi_array *keys, *parts;
} tb;

/* schema: id int32?, name string?, ts int64?, s struct?{d date?, x double?} */
static void tb_init(tb *t) {
    hudi_field *c;
    hudi_field_init(&t->schema, "r", HUDI_TYPE_STRUCT, false);
    hudi_field_set_children(&t->schema, 4);
    c = t->schema.children;
    hudi_field_init(&c[0], "id", HUDI_TYPE_INT32, true);
    hudi_field_init(&c[1], "name", HUDI_TYPE_STRING, true);
    hudi_field_init(&c[2], "ts", HUDI_TYPE_INT64, true);
    hudi_field_init(&c[3], "s", HUDI_TYPE_STRUCT, true);
    hudi_field_set_children(&c[3], 2);
    hudi_field_init(&c[3].children[0], "d", HUDI_TYPE_DATE, true);
    hudi_field_init(&c[3].children[1], "x", HUDI_TYPE_DOUBLE, true);
    cr_assert_eq(hudi_batch_new(&t->b, &t->schema, NULL), 0);
    hudi_field_init(&t->str, "k", HUDI_TYPE_STRING, false);
    cr_assert_eq(hudi_array_new(&t->keys, &t->str, NULL), 0);
    cr_assert_eq(hudi_array_new(&t->parts, &t->str, NULL), 0);
}

static void tb_row(tb *t, const int32_t *id, const char *name, const int64_t *ts, bool s_null,
                   const int32_t *d, const double *x) {
    hudi_array **c = t->b->columns;
    cr_assert_eq(id ? hudi_array_append_fixed(c[0], id, NULL) : hudi_array_append_null(c[0], NULL),
                 0);
    cr_assert_eq(name ? hudi_array_append_bytes(c[1], name, strlen(name), NULL)
                      : hudi_array_append_null(c[1], NULL),
                 0);
    cr_assert_eq(ts ? hudi_array_append_fixed(c[2], ts, NULL) : hudi_array_append_null(c[2], NULL),
                 0);
    if (s_null) {
        cr_assert_eq(hudi_array_append_null(c[3], NULL), 0);
    } else {
        hudi_array *dd = c[3]->children[0], *xx = c[3]->children[1];
        cr_assert_eq(d ? hudi_array_append_fixed(dd, d, NULL) : hudi_array_append_null(dd, NULL),
                     0);
        cr_assert_eq(x ? hudi_array_append_fixed(xx, x, NULL) : hudi_array_append_null(xx, NULL),
                     0);
        cr_assert_eq(hudi_array_append_nested(c[3], 1, NULL), 0);
    }
    t->b->num_rows++;
}

static void tb_dispose(tb *t) {
    hudi_array_free(t->keys);
    hudi_array_free(t->parts);
    hudi_batch_free(t->b);
    hudi_field_dispose(&t->str);
    hudi_field_dispose(&t->schema);
}

static const char *at(const hudi_array *a, int64_t i) {
    static char s[256];
    snprintf(s, sizeof(s), "%.*s", a->offsets[i + 1] - a->offsets[i], a->data + a->offsets[i]);
    return s;
}

Test(keygen, complex_hive_urlencode_nested) {
    tb t;
    tb_init(&t);
    int32_t id1 = 1, d1 = 19448;
    double x1 = 1e10;
    int64_t ts = 1680350460;
    tb_row(&t, &id1, "a/b", &ts, false, &d1, &x1);
    tb_row(&t, &id1, NULL, NULL, false, NULL, &x1);
    tb_row(&t, NULL, "", &ts, true, NULL, NULL);

    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.type = HUDI_KEYGEN_COMPLEX;
    o.record_key_fields = "id, name,s.x";
    o.partition_fields = "name,s.d";
    o.hive_style = true;
    o.url_encode = true;
    hudi_keygen *kg = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0, "%s", err.message);
    /* rows before a failing row are kept; row 2 has every key field null or empty */
    cr_expect_eq(hudi_keygen_record_keys(kg, t.b, t.keys, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "row 2"), "%s", err.message);
    cr_assert_eq(t.keys->length, 2);
    cr_expect_str_eq(at(t.keys, 0), "id:1,name:a/b,s.x:1.0E10");
    cr_expect_str_eq(at(t.keys, 1), "id:1,name:__null__,s.x:1.0E10");
    cr_assert_eq(hudi_keygen_partition_paths(kg, t.b, t.parts, &err), 0, "%s", err.message);
    cr_expect_str_eq(at(t.parts, 0), "name=a%2Fb/s.d=2023-04-01");
    cr_expect_str_eq(at(t.parts, 1),
                     "name=__HIVE_DEFAULT_PARTITION__/s.d=__HIVE_DEFAULT_PARTITION__");
    cr_expect_str_eq(at(t.parts, 2),
                     "name=__HIVE_DEFAULT_PARTITION__/s.d=__HIVE_DEFAULT_PARTITION__");
    hudi_keygen_free(kg);

    /* the all-null row with an empty string only: __empty__ alone still fails */
    hudi_array_clear(t.keys);
    o.record_key_fields = "name";
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0);
    cr_expect_eq(hudi_keygen_record_keys(kg, t.b, t.keys, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "row 1"), "%s", err.message);
    hudi_keygen_free(kg);

    /* simple: a null key is an error; 'default' partition for old tables */
    hudi_array_clear(t.keys);
    hudi_array_clear(t.parts);
    o.type = HUDI_KEYGEN_SIMPLE;
    o.record_key_fields = "id";
    o.partition_fields = "s.x";
    o.hive_style = false;
    o.default_partition = "default";
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0);
    cr_expect_eq(hudi_keygen_record_keys(kg, t.b, t.keys, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "field id is null in row 2"), "%s", err.message);
    cr_assert_eq(hudi_keygen_partition_paths(kg, t.b, t.parts, &err), 0);
    cr_expect_str_eq(at(t.parts, 0), "1.0E10");
    cr_expect_str_eq(at(t.parts, 2), "default");
    hudi_keygen_free(kg);

    /* configuration errors name the field */
    o.record_key_fields = "nope";
    cr_expect_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "nope"));
    o.record_key_fields = "id.x";
    cr_expect_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), HUDI_EINVAL);
    o.record_key_fields = "s";
    cr_expect_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), HUDI_EUNSUPPORTED);
    tb_dispose(&t);
}

Test(keygen, timestamp_and_custom) {
    tb t;
    tb_init(&t);
    int32_t id = 7, d = 19448;
    int64_t ts = 1680350460; /* seconds */
    tb_row(&t, &id, "2023-04-01T12:01:00.123Z", &ts, false, &d, NULL);
    tb_row(&t, &id, NULL, NULL, false, &d, NULL);

    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    hudi_keygen *kg = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    o.type = HUDI_KEYGEN_TIMESTAMP;
    o.record_key_fields = "id";
    o.partition_fields = "ts";
    o.ts.type = HUDI_TS_UNIX_TIMESTAMP;
    o.ts.output_dateformat = "yyyy-MM-dd HH";
    o.ts.output_timezone = "GMT+8";
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_keygen_partition_paths(kg, t.b, t.parts, &err), 0, "%s", err.message);
    cr_expect_str_eq(at(t.parts, 0), "2023-04-01 20");
    cr_expect_str_eq(at(t.parts, 1), "1970-01-01 08"); /* null -> 1 second after the epoch */
    hudi_keygen_free(kg);

    hudi_array_clear(t.parts);
    o.partition_fields = "name";
    o.ts.type = HUDI_TS_DATE_STRING;
    o.ts.input_dateformat = "yyyy-MM-dd,yyyy-MM-dd'T'HH:mm:ss.SSSZ";
    o.ts.output_dateformat = "yyyy/MM/dd/HH";
    o.ts.output_timezone = NULL;
    o.hive_style = true;
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_keygen_partition_paths(kg, t.b, t.parts, &err), 0, "%s", err.message);
    cr_expect_str_eq(at(t.parts, 0), "name=2023/04/01/12");
    cr_expect_str_eq(at(t.parts, 1), "name=1970/01/01/00");
    hudi_keygen_free(kg);

    /* custom: a simple part and a timestamp part (SCALAR in days on a date column) */
    hudi_array_clear(t.parts);
    o.type = HUDI_KEYGEN_CUSTOM;
    o.partition_fields = "id:SIMPLE,s.d:TIMESTAMP";
    o.hive_style = false;
    o.ts.type = HUDI_TS_SCALAR;
    o.ts.scalar_unit = HUDI_SCALAR_DAYS;
    o.ts.output_dateformat = "yyyyMMdd";
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_keygen_partition_paths(kg, t.b, t.parts, &err), 0, "%s", err.message);
    cr_expect_str_eq(at(t.parts, 0), "7/20230401");
    hudi_keygen_free(kg);

    /* a bad DATE_STRING value names the row */
    hudi_array_clear(t.parts);
    o.type = HUDI_KEYGEN_TIMESTAMP;
    o.partition_fields = "name";
    o.ts.type = HUDI_TS_DATE_STRING;
    o.ts.input_dateformat = "yyyy-MM-dd";
    cr_assert_eq(hudi_keygen_new(&kg, &o, &t.schema, &err), 0);
    cr_expect_eq(hudi_keygen_partition_paths(kg, t.b, t.parts, &err), HUDI_EINVAL);
    cr_expect(strstr(err.message, "row 0"), "%s", err.message);
    hudi_keygen_free(kg);

    hudi_keygen_type kt;
    cr_expect_eq(hudi_keygen_type_parse(&kt, "org.apache.hudi.keygen.ComplexKeyGenerator", NULL),
                 0);
    cr_expect_eq(kt, HUDI_KEYGEN_COMPLEX);
    cr_expect_eq(hudi_keygen_type_parse(&kt, "NON_PARTITION", NULL), 0);
    cr_expect_eq(kt, HUDI_KEYGEN_NONPARTITIONED);
    cr_expect_eq(hudi_keygen_type_parse(&kt, "Bogus", &err), HUDI_EINVAL);
    tb_dispose(&t);
}

/* ---- fixtures ----------------------------------------------------------------------------- */

static void check_fixture(const char *zip, const hudi_keygen_options *o, bool check_keys) {
    const char *root = fixture_unzip(zip);
    cr_assert_not_null(root, "%s", zip);
    char **paths = NULL;
    int n = list_base_files(root, &paths), rows = 0;
    cr_assert_gt(n, 0);
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    hudi_field str;
    hudi_field_init(&str, "k", HUDI_TYPE_STRING, false);
    for (int i = 0; i < n; i++) {
        hudi_error err = HUDI_ERROR_INIT;
        file_batch fb;
        cr_assert_eq(file_batch_read(&fb, fs, paths[i], &err), 0, "%s", err.message);
        hudi_keygen *kg = NULL;
        hudi_array *keys = NULL, *parts = NULL;
        cr_assert_eq(hudi_keygen_new(&kg, o, fb.batch->schema, &err), 0, "%s: %s", paths[i],
                     err.message);
        cr_assert_eq(hudi_array_new(&keys, &str, NULL), 0);
        cr_assert_eq(hudi_array_new(&parts, &str, NULL), 0);
        if (check_keys)
            cr_assert_eq(hudi_keygen_record_keys(kg, fb.batch, keys, &err), 0, "%s", err.message);
        cr_assert_eq(hudi_keygen_partition_paths(kg, fb.batch, parts, &err), 0, "%s", err.message);
        const hudi_array *want_k = fb.batch->columns[batch_column(fb.batch, "_hoodie_record_key")];
        const hudi_array *want_p =
            fb.batch->columns[batch_column(fb.batch, "_hoodie_partition_path")];
        for (int64_t r = 0; r < fb.batch->num_rows; r++, rows++) {
            char want[256];
            if (check_keys) {
                snprintf(want, sizeof(want), "%s", at(want_k, r));
                cr_expect_str_eq(at(keys, r), want, "%s row %lld", paths[i], (long long)r);
            }
            snprintf(want, sizeof(want), "%s", at(want_p, r));
            cr_expect_str_eq(at(parts, r), want, "%s row %lld", paths[i], (long long)r);
        }
        hudi_array_free(keys);
        hudi_array_free(parts);
        hudi_keygen_free(kg);
        file_batch_dispose(&fb);
    }
    cr_expect_gt(rows, 0, "%s: no rows checked", zip);
    hudi_field_dispose(&str);
    hudi_fs_free(fs);
    free_paths(paths, n);
}

Test(keygen_fixture, v6_nonpartitioned) {
    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.type = HUDI_KEYGEN_NONPARTITIONED;
    o.record_key_fields = "id";
    check_fixture("hudi-rs/sample_table/cow/v6_nonpartitioned.zip", &o, true);
}

Test(keygen_fixture, v6_complex_hive) {
    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.type = HUDI_KEYGEN_COMPLEX;
    o.record_key_fields = "id,name";
    o.partition_fields = "byteField,shortField";
    o.hive_style = true;
    check_fixture("hudi-rs/sample_table/cow/v6_complexkeygen_hivestyle.zip", &o, true);
}

Test(keygen_fixture, v6_simple_plain) {
    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.record_key_fields = "id";
    o.partition_fields = "byteField";
    check_fixture("hudi-rs/sample_table/cow/v6_simplekeygen_nonhivestyle_overwritetable.zip", &o,
                  true);
    check_fixture("hudi-rs/sample_table/cow/v8_simplekeygen_nonhivestyle.zip", &o, true);
}

Test(keygen_fixture, v6_timestamp_date_string) {
    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.type = HUDI_KEYGEN_TIMESTAMP;
    o.record_key_fields = "id";
    o.partition_fields = "ts_str";
    o.ts.type = HUDI_TS_DATE_STRING;
    o.ts.input_dateformat = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";
    o.ts.output_dateformat = "yyyy/MM/dd/HH";
    check_fixture("hudi-rs/sample_table/cow/v6_timebasedkeygen_nonhivestyle.zip", &o, true);
    o.record_key_fields = "txn_id";
    check_fixture("hudi-rs/sample_table/cow/v9_timebasedkeygen_nonhivestyle.zip", &o, true);
}

Test(keygen_fixture, v9_txns_simple_and_complex) {
    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.record_key_fields = "txn_id";
    o.partition_fields = "region";
    o.hive_style = true;
    check_fixture("hudi-rs/sample_table/cow/v9_txns_simple_nometa.zip", &o, true);
    o.type = HUDI_KEYGEN_COMPLEX;
    o.record_key_fields = "txn_id,account_id";
    check_fixture("hudi-rs/sample_table/mor/avro/v9_txns_complex_nometa.zip", &o, true);
}

Test(keygen_fixture, trips_and_autokeys) {
    hudi_keygen_options o = HUDI_KEYGEN_OPTIONS_INIT;
    o.record_key_fields = "uuid";
    o.partition_fields = "city";
    o.hive_style = true;
    check_fixture("hudi-rs/quickstart_trips_table/mor/avro/v6_trips_8i1u.zip", &o, true);
    /* the primary-key-less table: keys were auto-generated, partitions still follow city */
    o.hive_style = false;
    check_fixture("hudi-rs/historical/python_0.x_cow_partitioned.zip", &o, false);
}
