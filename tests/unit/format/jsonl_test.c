/* jsonl_test.c - JSON Lines input (src/format/json/jsonl.c): every value form of jsonl.h, error
 * messages naming line and field, streaming in batches, and the round trip of the renderer's
 * output (what `hudic parquet cat` prints) over real Parquet files. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "columnar/render.h"
#include "format/json/jsonl.h"
#include "format/parquet/parquet.h"
#include "support.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static hudi_field *field_new_struct(int n) {
    hudi_field *f = calloc(1, sizeof(*f));
    cr_assert_eq(hudi_field_init(f, "schema", HUDI_TYPE_STRUCT, false), 0);
    if (n) cr_assert_eq(hudi_field_set_children(f, n), 0);
    return f;
}

static void field_free(hudi_field *f) {
    hudi_field_dispose(f);
    free(f);
}

static void set(hudi_field *f, const char *name, hudi_type_id t, bool nullable) {
    cr_assert_eq(hudi_field_init(f, name, t, nullable), 0);
}

/* Renders row i of b as JSON (the CLI's output form). */
static char *render_row(const hudi_batch *b, int64_t i) {
    hudi_buf o = HUDI_BUF_INIT;
    cr_assert_eq(hudi_render_json_row(&o, b, i), 0);
    return hudi_buf_detach(&o);
}

/* Parses `text` as one row into a fresh batch of `schema`; returns rc, *out the batch. */
static int parse1(const hudi_field *schema, const char *text, hudi_batch **out, hudi_error *err) {
    cr_assert_eq(hudi_batch_new(out, schema, NULL), 0);
    return hudi_jsonl_parse_row(*out, text, strlen(text), 1, NULL, err);
}

/* Parses `in` and checks that it renders back as `expect` (NULL = the same text). */
static void roundtrip(const hudi_field *schema, const char *in, const char *expect) {
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = parse1(schema, in, &b, &err);
    cr_assert_eq(rc, 0, "%s: %s", in, err.message);
    cr_assert_eq(b->num_rows, 1);
    cr_assert_eq(hudi_batch_validate(b, NULL), 0);
    char *out = render_row(b, 0);
    cr_assert_str_eq(out, expect ? expect : in);
    hudi_free(out);
    hudi_batch_free(b);
}

static void fails(const hudi_field *schema, const char *in, const char *message_part) {
    hudi_batch *b = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = parse1(schema, in, &b, &err);
    cr_assert_lt(rc, 0, "%s parsed", in);
    cr_assert(strstr(err.message, message_part), "%s: message '%s' lacks '%s'", in, err.message,
              message_part);
    cr_assert_eq(b->num_rows, 0);
    for (int32_t i = 0; i < b->n_columns; i++) cr_assert_eq(b->columns[i]->length, 0);
    hudi_batch_free(b);
}

/* ---- scalars -------------------------------------------------------------------------------- */

Test(jsonl, scalars_roundtrip) {
    hudi_field *s = field_new_struct(12);
    set(&s->children[0], "b", HUDI_TYPE_BOOL, true);
    set(&s->children[1], "i8", HUDI_TYPE_INT8, true);
    set(&s->children[2], "i64", HUDI_TYPE_INT64, true);
    set(&s->children[3], "u64", HUDI_TYPE_UINT64, true);
    set(&s->children[4], "f", HUDI_TYPE_FLOAT, true);
    set(&s->children[5], "d", HUDI_TYPE_DOUBLE, true);
    set(&s->children[6], "dec", HUDI_TYPE_DECIMAL, true);
    s->children[6].precision = 38, s->children[6].scale = 3;
    set(&s->children[7], "date", HUDI_TYPE_DATE, true);
    set(&s->children[8], "ts", HUDI_TYPE_TIMESTAMP, true);
    s->children[8].utc = true;
    set(&s->children[9], "s", HUDI_TYPE_STRING, true);
    set(&s->children[10], "bin", HUDI_TYPE_BINARY, true);
    set(&s->children[11], "t", HUDI_TYPE_TIME, true);
    s->children[11].unit = HUDI_UNIT_MILLIS;
    roundtrip(s,
              "{\"b\":true,\"i8\":-128,\"i64\":-9223372036854775808,\"u64\":18446744073709551615,"
              "\"f\":0.33333334,\"d\":0.30000000000000004,"
              "\"dec\":\"-99999999999999999999999999999999999.999\",\"date\":\"-000001-12-31\","
              "\"ts\":\"1969-12-31T23:59:59.999999Z\",\"s\":\"h\\u0009é\\u000a\",\"bin\":\"Zm8=\","
              "\"t\":\"12:34:56.789\"}",
              NULL);
    roundtrip(s,
              "{\"b\":null,\"i8\":null,\"i64\":null,\"u64\":null,\"f\":\"NaN\",\"d\":\"-Infinity\","
              "\"dec\":null,\"date\":null,\"ts\":null,\"s\":null,\"bin\":null,\"t\":null}",
              NULL);
    /* Other accepted spellings of the same values. */
    roundtrip(s,
              "{ \"dec\" : 1.5e1, \"d\": 1E300, \"date\": 0, \"ts\": \"2024-01-01 01:00+01:00\","
              "\"s\": \"\\ud83d\\ude00\\/\", \"t\": 3723000 }",
              "{\"b\":null,\"i8\":null,\"i64\":null,\"u64\":null,\"f\":null,\"d\":1e+300,"
              "\"dec\":\"15.000\",\"date\":\"1970-01-01\",\"ts\":\"2024-01-01T00:00:00.000000Z\","
              "\"s\":\"😀/\",\"bin\":null,\"t\":\"01:02:03.000\"}");
    field_free(s);
}

Test(jsonl, uuid_float16_fixed) {
    hudi_field *s = field_new_struct(3);
    set(&s->children[0], "u", HUDI_TYPE_FIXED_BINARY, true);
    s->children[0].byte_width = 16;
    s->children[0].hint = HUDI_HINT_UUID;
    set(&s->children[1], "h", HUDI_TYPE_FLOAT16, true);
    set(&s->children[2], "fx", HUDI_TYPE_FIXED_BINARY, true);
    s->children[2].byte_width = 2;
    roundtrip(s,
              "{\"u\":\"00112233-4455-6677-8899-aabbccddeeff\",\"h\":0.099975586,\"fx\":\"AAE=\"}",
              NULL);
    roundtrip(s, "{\"u\":\"00112233-4455-6677-8899-AABBCCDDEEFF\",\"h\":-65504,\"fx\":null}",
              "{\"u\":\"00112233-4455-6677-8899-aabbccddeeff\",\"h\":-65504,\"fx\":null}");
    fails(s, "{\"fx\":\"AAEC\"}", "3 bytes, the field holds 2");
    field_free(s);
}

/* ---- nested --------------------------------------------------------------------------------- */

static hudi_field *nested_schema(void) {
    hudi_field *s = field_new_struct(4);
    set(&s->children[0], "id", HUDI_TYPE_INT32, false);
    hudi_field *tags = &s->children[1];
    set(tags, "tags", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(tags, 1), 0);
    set(&tags->children[0], "element", HUDI_TYPE_STRING, true);
    hudi_field *attrs = &s->children[2];
    set(attrs, "attrs", HUDI_TYPE_MAP, true);
    cr_assert_eq(hudi_field_set_children(attrs, 1), 0);
    set(&attrs->children[0], "key_value", HUDI_TYPE_STRUCT, false);
    cr_assert_eq(hudi_field_set_children(&attrs->children[0], 2), 0);
    set(&attrs->children[0].children[0], "key", HUDI_TYPE_STRING, false);
    set(&attrs->children[0].children[1], "value", HUDI_TYPE_INT64, true);
    hudi_field *pt = &s->children[3];
    set(pt, "pt", HUDI_TYPE_STRUCT, true);
    cr_assert_eq(hudi_field_set_children(pt, 2), 0);
    set(&pt->children[0], "x", HUDI_TYPE_DOUBLE, true);
    set(&pt->children[1], "y", HUDI_TYPE_LIST, true);
    cr_assert_eq(hudi_field_set_children(&pt->children[1], 1), 0);
    set(&pt->children[1].children[0], "element", HUDI_TYPE_INT32, false);
    return s;
}

Test(jsonl, nested_roundtrip) {
    hudi_field *s = nested_schema();
    roundtrip(s,
              "{\"id\":1,\"tags\":[\"x\",null,\"y\"],\"attrs\":[{\"key\":\"k1\",\"value\":1},"
              "{\"key\":\"k2\",\"value\":null}],\"pt\":{\"x\":1.5,\"y\":[1,2]}}",
              NULL);
    roundtrip(s, "{\"id\":2,\"tags\":[],\"attrs\":[],\"pt\":null}", NULL);
    /* Absent keys are nulls; maps as JSON objects; keys in any order. */
    roundtrip(s, "{\"pt\":{\"y\":[]},\"attrs\":{\"a\":5,\"b\":null},\"id\":3}",
              "{\"id\":3,\"tags\":null,\"attrs\":[{\"key\":\"a\",\"value\":5},{\"key\":\"b\","
              "\"value\":null}],\"pt\":{\"x\":null,\"y\":[]}}");
    field_free(s);
}

Test(jsonl, errors_name_line_and_field) {
    hudi_field *s = nested_schema();
    fails(s, "{\"id\":1,\"pt\":{\"y\":[1,\"a\"]}}", "line 1: field pt.y[1]: 'a' is not an integer");
    fails(s, "{\"id\":1,\"pt\":{\"y\":[1,null]}}",
          "field pt.y[1]: null for a field that is not nullable");
    fails(s, "{\"tags\":[]}", "missing field 'id'");
    fails(s, "{\"id\":1,\"id\":2}", "duplicate field 'id'");
    fails(s, "{\"id\":1,\"zzz\":2}", "unknown field 'zzz'");
    fails(s, "{\"id\":1.5}", "field id: '1.5' is not an integer");
    fails(s, "{\"id\":2147483648}", "out of range");
    fails(s, "{\"id\":1} x", "unexpected text after the object");
    fails(s, "[1]", "expected a JSON object");
    fails(s, "{\"id\":1,\"attrs\":[{\"value\":1}]}", "field attrs[0]: missing field 'key'");
    fails(s, "{\"id\":1,\"tags\":[\"a\\x\"]}", "bad escape");
    fails(s, "{\"id\":1,\"tags\":[\"abc", "unterminated string");
    fails(s, "{\"id\":1,\"tags\":[\"\xff\"]}", "not valid UTF-8");
    /* ignore_unknown_fields skips any value, nested ones included. */
    hudi_batch *b = NULL;
    hudi_jsonl_options o = HUDI_JSONL_OPTIONS_INIT;
    o.ignore_unknown_fields = true;
    cr_assert_eq(hudi_batch_new(&b, s, NULL), 0);
    const char *t = "{\"x\":{\"a\":[1,{\"b\":null}],\"c\":\"]\"},\"id\":7}";
    cr_assert_eq(hudi_jsonl_parse_row(b, t, strlen(t), 4, &o, NULL), 0);
    cr_assert_eq(b->num_rows, 1);
    hudi_batch_free(b);
    field_free(s);
}

Test(jsonl, decimal_exactness) {
    hudi_field *s = field_new_struct(1);
    set(&s->children[0], "d", HUDI_TYPE_DECIMAL, true);
    s->children[0].precision = 5, s->children[0].scale = 2;
    roundtrip(s, "{\"d\":\"-0.05\"}", NULL);
    roundtrip(s, "{\"d\":123.40}", "{\"d\":\"123.40\"}");
    roundtrip(s, "{\"d\":\"999.99\"}", NULL);
    fails(s, "{\"d\":\"1000.00\"}", "out of range");
    fails(s, "{\"d\":\"0.001\"}", "more precise");
    fails(s, "{\"d\":\"1e\"}", "is not a decimal");
    field_free(s);
}

Test(jsonl, deep_nesting_is_an_error) {
    hudi_field *s = field_new_struct(1);
    set(&s->children[0], "a", HUDI_TYPE_STRING, true);
    hudi_buf t = HUDI_BUF_INIT;
    hudi_buf_puts(&t, "{\"zz\":");
    for (int i = 0; i < 1000; i++) hudi_buf_putc(&t, '[');
    hudi_batch *b = NULL;
    hudi_jsonl_options o = HUDI_JSONL_OPTIONS_INIT;
    o.ignore_unknown_fields = true;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_batch_new(&b, s, NULL), 0);
    cr_assert_eq(hudi_jsonl_parse_row(b, t.data, t.len, 1, &o, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "nested deeper"), "%s", err.message);
    hudi_batch_free(b);
    hudi_buf_dispose(&t);
    field_free(s);
}

/* ---- streaming ------------------------------------------------------------------------------ */

typedef struct src {
    const char *text;
    size_t len, pos, chunk;
} src;

static int read_src(void *payload, void *buf, size_t cap, size_t *got, hudi_error *err) {
    src *s = payload;
    size_t n = HUDI_MIN(HUDI_MIN(cap, s->chunk), s->len - s->pos);
    memcpy(buf, s->text + s->pos, n);
    s->pos += n;
    *got = n;
    return 0;
}

Test(jsonl, reader_batches_and_lines) {
    hudi_field *s = field_new_struct(2);
    set(&s->children[0], "id", HUDI_TYPE_INT64, false);
    set(&s->children[1], "name", HUDI_TYPE_STRING, true);
    hudi_buf t = HUDI_BUF_INIT;
    for (int i = 0; i < 1000; i++) {
        hudi_buf_printf(&t, "{\"id\":%d,\"name\":\"n%d\"}%s\n", i, i, i % 3 ? "" : "\r");
        if (i % 100 == 0) hudi_buf_puts(&t, "   \n");
    }
    hudi_buf_puts(&t, "{\"id\":1000}"); /* no final newline */
    src in = {t.data, t.len, 0, 7};     /* tiny reads: lines straddle every chunk edge */
    hudi_jsonl_reader *r = NULL;
    hudi_jsonl_options o = HUDI_JSONL_OPTIONS_INIT;
    o.batch_rows = 300;
    cr_assert_eq(hudi_jsonl_reader_new(&r, s, read_src, &in, "in.jsonl", &o, NULL), 0);
    int64_t total = 0, batches = 0, expect_id = 0;
    for (;;) {
        hudi_batch *b = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_jsonl_reader_next(r, &b, &err), 0, "%s", err.message);
        if (!b) break;
        cr_assert_leq(b->num_rows, 300);
        for (int64_t i = 0; i < b->num_rows; i++)
            cr_assert_eq(((int64_t *)b->columns[0]->values)[i], expect_id++);
        total += b->num_rows;
        batches++;
    }
    cr_assert_eq(total, 1001);
    cr_assert_eq(batches, 4);
    cr_assert_eq(hudi_jsonl_reader_lines(r), 1011);
    hudi_jsonl_reader_free(r);

    /* An error names the source and the line. */
    const char *bad = "{\"id\":1}\n\n{\"id\":\"x\"}\n";
    src in2 = {bad, strlen(bad), 0, 4096};
    hudi_error err = HUDI_ERROR_INIT;
    hudi_batch *b = NULL;
    cr_assert_eq(hudi_jsonl_reader_new(&r, s, read_src, &in2, "in.jsonl", NULL, NULL), 0);
    cr_assert_eq(hudi_jsonl_reader_next(r, &b, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "in.jsonl: line 3: field id:"), "%s", err.message);
    hudi_jsonl_reader_free(r);

    /* The line limit bounds memory. */
    hudi_buf big = HUDI_BUF_INIT;
    hudi_buf_puts(&big, "{\"name\":\"");
    for (int i = 0; i < 3 << 20; i++) hudi_buf_putc(&big, 'a');
    hudi_buf_puts(&big, "\",\"id\":1}\n");
    src in3 = {big.data, big.len, 0, 1 << 20};
    o.max_line_bytes = 1 << 20;
    cr_assert_eq(hudi_jsonl_reader_new(&r, s, read_src, &in3, NULL, &o, NULL), 0);
    cr_assert_eq(hudi_jsonl_reader_next(r, &b, &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "longer than"), "%s", err.message);
    hudi_jsonl_reader_free(r);
    hudi_buf_dispose(&big);
    hudi_buf_dispose(&t);
    field_free(s);
}

/* ---- the renderer's output reads back ------------------------------------------------------ */

static void roundtrip_file(const char *rel) {
    hudi_fs *fs = NULL;
    hudi_pq_file *f = NULL;
    hudi_pq_scan *scan = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    cr_assert_eq(hudi_pq_open(&f, fs, fixture_path(rel), NULL, &err), 0, "%s", err.message);
    hudi_pq_scan_options so = HUDI_PQ_SCAN_OPTIONS_INIT;
    cr_assert_eq(hudi_pq_scan_open(&scan, f, &so, &err), 0, "%s", err.message);
    const hudi_field *schema = hudi_pq_scan_schema(scan);
    int64_t rows = 0;
    for (;;) {
        hudi_batch *b = NULL, *back = NULL;
        cr_assert_eq(hudi_pq_scan_next(scan, &b, &err), 0, "%s", err.message);
        if (!b) break;
        cr_assert_eq(hudi_batch_new(&back, schema, NULL), 0);
        hudi_buf line = HUDI_BUF_INIT;
        for (int64_t i = 0; i < b->num_rows; i++) {
            hudi_buf_clear(&line);
            cr_assert_eq(hudi_render_json_row(&line, b, i), 0);
            int rc = hudi_jsonl_parse_row(back, line.data, line.len, i + 1, NULL, &err);
            cr_assert_eq(rc, 0, "%s row %lld: %s\n%s", rel, (long long)i, err.message, line.data);
        }
        hudi_buf why = HUDI_BUF_INIT;
        cr_assert(hudi_batch_equal(b, back, &why), "%s: %s", rel, why.data ? why.data : "");
        rows += b->num_rows;
        hudi_buf_dispose(&why);
        hudi_buf_dispose(&line);
        hudi_batch_free(back);
    }
    cr_assert_gt(rows, 0, "%s", rel);
    hudi_pq_scan_free(scan);
    hudi_pq_close(f);
    hudi_fs_free(fs);
}

Test(jsonl, renderer_output_roundtrips) {
    static const char *const files[] = {
        "parquet-testing/data/alltypes_plain.parquet",
        "parquet-testing/data/int96_from_spark.parquet",
        "parquet-testing/data/nested_lists.snappy.parquet",
        "parquet-testing/data/nested_structs.rust.parquet",
        "parquet-testing/data/nonnullable.impala.parquet",
        "parquet-testing/data/null_list.parquet",
        "parquet-testing/data/nulls.snappy.parquet",
        "parquet-testing/data/byte_array_decimal.parquet",
        "parquet-testing/data/fixed_length_decimal.parquet",
        "parquet-testing/data/int32_decimal.parquet",
        "parquet-testing/data/float16_nonzeros_and_nans.parquet",
        "parquet-testing/data/list_columns.parquet",
        "parquet-testing/data/delta_byte_array.parquet",
        "parquet-testing/data/binary.parquet",
    };
    for (size_t i = 0; i < HUDI_ARRAY_LEN(files); i++) roundtrip_file(files[i]);
}
