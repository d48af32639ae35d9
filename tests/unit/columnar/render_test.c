/* render_test.c - the JSON rendering rules of docs/formats/rendering.md, one test per rule,
 * with the edge values the document names. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "columnar_test_util.h"
#include "columnar/render.h"

/* Renders the single value `value` (width bytes, or NULL for null) of a one-row array. */
static const char *one(const hudi_field *f, const void *value, size_t len) {
    static char out[512];
    hudi_array *a;
    cr_assert_eq(hudi_array_new(&a, f, NULL), 0);
    int rc;
    if (!value)
        rc = hudi_array_append_null(a, NULL);
    else if (f->type == HUDI_TYPE_STRING || f->type == HUDI_TYPE_BINARY ||
             f->type == HUDI_TYPE_FIXED_BINARY)
        rc = hudi_array_append_bytes(a, value, len, NULL);
    else
        rc = hudi_array_append_fixed(a, value, NULL);
    cr_assert_eq(rc, 0);
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_render_json_value(&b, a, 0), 0);
    snprintf(out, sizeof(out), "%s", b.data);
    hudi_buf_dispose(&b);
    hudi_array_free(a);
    return out;
}

static hudi_field leaf(hudi_type_id t) {
    hudi_field f; /* unnamed: nothing to dispose */
    field_leaf(&f, NULL, t);
    return f;
}

#define EXPECT(f, v, s) cr_assert_str_eq(one(&(f), &(v), sizeof(v)), (s))

Test(render, null_and_bool) {
    hudi_field f = leaf(HUDI_TYPE_BOOL);
    cr_assert_str_eq(one(&f, NULL, 0), "null");
    uint8_t t = 1, z = 0;
    EXPECT(f, t, "true");
    EXPECT(f, z, "false");
    hudi_field n = leaf(HUDI_TYPE_NULL);
    cr_assert_str_eq(one(&n, NULL, 0), "null");
}

Test(render, integers) {
    hudi_field f = leaf(HUDI_TYPE_INT64);
    int64_t v = INT64_MIN, w = INT64_MAX, z = 0, m = -42;
    EXPECT(f, v, "-9223372036854775808");
    EXPECT(f, w, "9223372036854775807");
    EXPECT(f, z, "0");
    EXPECT(f, m, "-42");
    hudi_field u = leaf(HUDI_TYPE_UINT64);
    uint64_t um = UINT64_MAX;
    EXPECT(u, um, "18446744073709551615");
    hudi_field i8 = leaf(HUDI_TYPE_INT8), u8 = leaf(HUDI_TYPE_UINT8);
    int8_t a = -128;
    uint8_t b = 255;
    EXPECT(i8, a, "-128");
    EXPECT(u8, b, "255");
    hudi_field i16 = leaf(HUDI_TYPE_INT16), u16 = leaf(HUDI_TYPE_UINT16);
    int16_t c = -32768;
    uint16_t d = 65535;
    EXPECT(i16, c, "-32768");
    EXPECT(u16, d, "65535");
    hudi_field i32 = leaf(HUDI_TYPE_INT32), u32 = leaf(HUDI_TYPE_UINT32);
    int32_t e = INT32_MIN;
    uint32_t g = UINT32_MAX;
    EXPECT(i32, e, "-2147483648");
    EXPECT(u32, g, "4294967295");
}

/* Checks the rendered double parses back to the same value. */
static void expect_double(double v, const char *s) {
    hudi_field f = leaf(HUDI_TYPE_DOUBLE);
    const char *got = one(&f, &v, 8);
    cr_assert_str_eq(got, s);
    if (isfinite(v)) cr_assert_eq(strtod(got, NULL), v);
}

Test(render, doubles) {
    expect_double(0.1, "0.1");
    expect_double(1e300, "1e+300");
    expect_double(5e-324, "4.94065645841247e-324");
    expect_double(-0.0, "-0");
    expect_double(1.0 / 3, "0.3333333333333333");
    expect_double(0.1 + 0.2, "0.30000000000000004");
    expect_double(1.5, "1.5");
    expect_double(123456789012345680.0, "1.2345678901234568e+17");
    expect_double(1e-5, "1e-05");
    expect_double(1e6, "1000000");
    expect_double(-123456789012345.0, "-123456789012345");
    expect_double(1e15, "1e+15");
    expect_double(9007199254740993.0, "9007199254740992");
    expect_double(NAN, "\"NaN\"");
    expect_double(INFINITY, "\"Infinity\"");
    expect_double(-INFINITY, "\"-Infinity\"");
}

Test(render, floats_and_half) {
    hudi_field f = leaf(HUDI_TYPE_FLOAT);
    float a = 0.1f, b = 1.0f / 3, c = 16777216.0f, n = NAN;
    EXPECT(f, a, "0.1");
    EXPECT(f, b, "0.33333334");
    EXPECT(f, c, "16777216");
    EXPECT(f, n, "\"NaN\"");
    hudi_field h = leaf(HUDI_TYPE_FLOAT16);
    uint16_t one_h = 0x3c00, half_min = 0x0001, neg_two = 0xc000, inf = 0x7c00, max = 0x7bff,
             tenth = 0x2e66;
    EXPECT(h, one_h, "1");
    EXPECT(h, half_min, "5.9604645e-08");
    EXPECT(h, neg_two, "-2");
    EXPECT(h, inf, "\"Infinity\"");
    EXPECT(h, max, "65504");
    EXPECT(h, tenth, "0.099975586");
}

static const char *dec(int64_t hi, uint64_t lo, int32_t precision, int32_t scale) {
    hudi_field f = leaf(HUDI_TYPE_DECIMAL);
    f.precision = precision;
    f.scale = scale;
    uint8_t v[16];
    hudi_store_u64le(v, lo);
    hudi_store_u64le(v + 8, (uint64_t)hi);
    return one(&f, v, 16);
}

Test(render, decimals) {
    cr_assert_str_eq(dec(0, 100, 5, 2), "\"1.00\"");
    cr_assert_str_eq(dec(-1, (uint64_t)-5, 5, 2), "\"-0.05\"");
    cr_assert_str_eq(dec(0, 5, 1, 3), "\"0.005\"", "scale > precision");
    cr_assert_str_eq(dec(0, 0, 5, 2), "\"0.00\"");
    cr_assert_str_eq(dec(0, 12345, 5, 0), "\"12345\"");
    cr_assert_str_eq(dec(-1, (uint64_t)-12345, 5, 0), "\"-12345\"");
    cr_assert_str_eq(dec(0, 12, 4, -2), "\"1200\"", "negative scale multiplies");
    /* 10^38 - 1 = 0x4B3B4CA85A86C47A_098A223FFFFFFFFF: 38 nines. */
    cr_assert_str_eq(dec(0x4B3B4CA85A86C47Al, 0x098A223FFFFFFFFFull, 38, 10),
                     "\"9999999999999999999999999999.9999999999\"");
    cr_assert_str_eq(dec((int64_t)0xB4C4B357A5793B85ull, 0xF675DDC000000001ull, 38, 0),
                     "\"-99999999999999999999999999999999999999\"");
    cr_assert_str_eq(dec(INT64_MIN, 0, 38, 0), "\"-170141183460469231731687303715884105728\"");
    cr_assert_str_eq(dec(0, UINT64_MAX, 20, 19), "\"1.8446744073709551615\"");
}

static const char *date(int32_t days) {
    hudi_field f = leaf(HUDI_TYPE_DATE);
    return one(&f, &days, 4);
}

Test(render, dates) {
    cr_assert_str_eq(date(0), "\"1970-01-01\"");
    cr_assert_str_eq(date(-719162), "\"0001-01-01\"");
    cr_assert_str_eq(date(2932896), "\"9999-12-31\"");
    cr_assert_str_eq(date(2932897), "\"+010000-01-01\"");
    cr_assert_str_eq(date(-719162 - 366), "\"0000-01-01\"");
    cr_assert_str_eq(date(-719162 - 367), "\"-000001-12-31\"");
    cr_assert_str_eq(date(11016), "\"2000-02-29\"");
    cr_assert_str_eq(date(-1), "\"1969-12-31\"");
    cr_assert_str_eq(date(INT32_MAX), "\"+5881580-07-11\"");
    cr_assert_str_eq(date(INT32_MIN), "\"-5877641-06-23\"");
}

static const char *ts(int64_t v, hudi_time_unit u, bool utc) {
    hudi_field f = leaf(HUDI_TYPE_TIMESTAMP);
    f.unit = u;
    f.utc = utc;
    return one(&f, &v, 8);
}

Test(render, timestamps) {
    cr_assert_str_eq(ts(0, HUDI_UNIT_MICROS, true), "\"1970-01-01T00:00:00.000000Z\"");
    cr_assert_str_eq(ts(-1, HUDI_UNIT_MICROS, false), "\"1969-12-31T23:59:59.999999\"");
    cr_assert_str_eq(ts(-1, HUDI_UNIT_MILLIS, false), "\"1969-12-31T23:59:59.999000\"");
    cr_assert_str_eq(ts(-1500, HUDI_UNIT_MILLIS, true), "\"1969-12-31T23:59:58.500000Z\"");
    cr_assert_str_eq(ts(-1, HUDI_UNIT_NANOS, true), "\"1969-12-31T23:59:59.999999999Z\"");
    cr_assert_str_eq(ts(1704141296123456, HUDI_UNIT_MICROS, true),
                     "\"2024-01-01T20:34:56.123456Z\"");
    cr_assert_str_eq(ts(253402225200000000, HUDI_UNIT_MICROS, true),
                     "\"9999-12-31T03:00:00.000000Z\"");
    /* docs/formats/parquet.md §5.4: the INT96 value of int96_from_spark.parquet written with
     * overflow. */
    cr_assert_str_eq(ts(9089380393200000000, HUDI_UNIT_MICROS, true),
                     "\"+290000-12-30T23:00:00.000000Z\"");
    cr_assert_str_eq(ts(INT64_MIN, HUDI_UNIT_NANOS, false), "\"1677-09-21T00:12:43.145224192\"");
    cr_assert_str_eq(ts(INT64_MAX, HUDI_UNIT_NANOS, false), "\"2262-04-11T23:47:16.854775807\"");
    cr_assert_str_eq(ts(INT64_MIN, HUDI_UNIT_MICROS, false), "\"-290308-12-21T19:59:05.224192\"");
    cr_assert_str_eq(ts(INT64_MIN, HUDI_UNIT_MILLIS, false),
                     "\"-292275055-05-16T16:47:04.192000\"");
}

static const char *tm(int64_t v, hudi_time_unit u) {
    hudi_field f = leaf(HUDI_TYPE_TIME);
    f.unit = u;
    if (u == HUDI_UNIT_MILLIS) {
        int32_t v32 = (int32_t)v;
        return one(&f, &v32, 4);
    }
    return one(&f, &v, 8);
}

Test(render, times) {
    cr_assert_str_eq(tm(0, HUDI_UNIT_MILLIS), "\"00:00:00.000\"");
    cr_assert_str_eq(tm(86399999, HUDI_UNIT_MILLIS), "\"23:59:59.999\"");
    cr_assert_str_eq(tm(45296789012, HUDI_UNIT_MICROS), "\"12:34:56.789012\"");
    cr_assert_str_eq(tm(45296789012345, HUDI_UNIT_NANOS), "\"12:34:56.789012345\"");
    cr_assert_str_eq(tm(90000000, HUDI_UNIT_MILLIS), "\"25:00:00.000\"", "out of range kept");
    cr_assert_str_eq(tm(-1000, HUDI_UNIT_MILLIS), "\"-00:00:01.000\"");
}

static const char *str(hudi_type_id t, const char *s, size_t n) {
    hudi_field f = leaf(t);
    return one(&f, s, n);
}

Test(render, strings) {
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "plain", 5), "\"plain\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "a\"b\\c/", 6), "\"a\\\"b\\\\c/\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "\n\t\x01\x1f\x7f", 5),
                     "\"\\u000a\\u0009\\u0001\\u001f\x7f\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "\0x", 2), "\"\\u0000x\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 12),
                     "\"h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    /* Invalid: a lone continuation, a truncated sequence, an overlong, a surrogate, > U+10FFFF. */
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "\x80", 1), "\"\xef\xbf\xbd\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "a\xe2\x82", 3), "\"a\xef\xbf\xbd\xef\xbf\xbd\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "\xc0\xaf", 2), "\"\xef\xbf\xbd\xef\xbf\xbd\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "\xed\xa0\x80", 3),
                     "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "\xf4\x90\x80\x80", 4),
                     "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
    cr_assert_str_eq(str(HUDI_TYPE_STRING, "", 0), "\"\"");
}

Test(render, long_string_crosses_chunks) {
    /* "é" + '"' repeated: 3 input bytes become 4; the 4096-byte chunk edge splits an "é". */
    size_t reps = 3400, n = reps * 3;
    char *s = malloc(n);
    for (size_t i = 0; i < reps; i++) memcpy(s + 3 * i, "\xc3\xa9\"", 3);
    hudi_buf b = HUDI_BUF_INIT;
    hudi_render_json_string(&b, (const uint8_t *)s, n);
    cr_assert_eq(b.len, reps * 4 + 2);
    cr_assert_null(strstr(b.data, "\xef\xbf\xbd"));
    cr_assert_eq(memcmp(b.data, "\"\xc3\xa9\\\"\xc3\xa9", 7), 0);
    hudi_buf_dispose(&b);
    free(s);
}

Test(render, binary_base64_uuid) {
    cr_assert_str_eq(str(HUDI_TYPE_BINARY, "", 0), "\"\"");
    cr_assert_str_eq(str(HUDI_TYPE_BINARY, "f", 1), "\"Zg==\"");
    cr_assert_str_eq(str(HUDI_TYPE_BINARY, "fo", 2), "\"Zm8=\"");
    cr_assert_str_eq(str(HUDI_TYPE_BINARY, "foo", 3), "\"Zm9v\"");
    cr_assert_str_eq(str(HUDI_TYPE_BINARY, "foobar", 6), "\"Zm9vYmFy\"");
    cr_assert_str_eq(str(HUDI_TYPE_BINARY, "\xff\xfe\x00", 3), "\"//4A\"");
    hudi_field f = leaf(HUDI_TYPE_FIXED_BINARY);
    f.byte_width = 16;
    const uint8_t u[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                           0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    cr_assert_str_eq(one(&f, u, 16), "\"ABEiM0RVZneImaq7zN3u/w==\"");
    f.hint = HUDI_HINT_UUID;
    cr_assert_str_eq(one(&f, u, 16), "\"00112233-4455-6677-8899-aabbccddeeff\"");
    hudi_field iv = leaf(HUDI_TYPE_FIXED_BINARY);
    iv.byte_width = 12;
    iv.hint = HUDI_HINT_INTERVAL;
    cr_assert_str_eq(one(&iv, "\x01\0\0\0\x02\0\0\0\x03\0\0\0", 12), "\"AQAAAAIAAAADAAAA\"");
}

Test(render, nested_row) {
    hudi_field s;
    field_sample_schema(&s);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    hudi_buf out = HUDI_BUF_INIT;
    for (int64_t r = 0; r < 3; r++) {
        cr_assert_eq(hudi_render_json_row(&out, b, r), 0);
        hudi_buf_putc(&out, '\n');
    }
    cr_assert_str_eq(
        out.data,
        "{\"id\":1,\"name\":\"a\",\"tags\":[\"x\",\"y\"],\"attrs\":[{\"key\":\"k1\","
        "\"value\":1}],\"pt\":{\"x\":1.5,\"y\":2.5}}\n"
        "{\"id\":2,\"name\":null,\"tags\":null,\"attrs\":[],\"pt\":null}\n"
        "{\"id\":3,\"name\":\"ccc\",\"tags\":[],\"attrs\":null,\"pt\":{\"x\":0,\"y\":-1}}\n");
    cr_assert_eq(hudi_render_json_row(&out, b, 3), HUDI_EINVAL);
    cr_assert_eq(hudi_render_json_value(&out, b->columns[0], -1), HUDI_EINVAL);
    hudi_buf_dispose(&out);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
}

Test(render, oom_is_reported) {
    hudi_field s;
    field_sample_schema(&s);
    hudi_batch *b;
    cr_assert_eq(hudi_batch_new(&b, &s, NULL), 0);
    cr_assert_eq(sample_fill(b, NULL), 0);
    talloc_install(0);
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_render_json_row(&out, b, 0), HUDI_ENOMEM);
    cr_assert(hudi_buf_failed(&out));
    talloc_disarm();
    hudi_buf_dispose(&out);
    hudi_batch_free(b);
    hudi_field_dispose(&s);
    hudi_set_allocator(NULL);
}

Test(render, throughput_smoke) {
    /* 50k int64 + double rows: must stay well inside the test time budget. */
    hudi_field f = leaf(HUDI_TYPE_INT64), g = leaf(HUDI_TYPE_DOUBLE);
    hudi_array *a, *d;
    cr_assert_eq(hudi_array_new(&a, &f, NULL), 0);
    cr_assert_eq(hudi_array_new(&d, &g, NULL), 0);
    for (int64_t i = 0; i < 50000; i++) {
        double x = (double)i * 1.25;
        int64_t v = i * 1000003;
        hudi_array_append_fixed(a, &v, NULL);
        hudi_array_append_fixed(d, &x, NULL);
    }
    hudi_buf out = HUDI_BUF_INIT;
    for (int64_t i = 0; i < 50000; i++) {
        hudi_render_json_value(&out, a, i);
        hudi_buf_putc(&out, ',');
        hudi_render_json_value(&out, d, i);
        hudi_buf_putc(&out, '\n');
    }
    cr_assert(!hudi_buf_failed(&out));
    cr_assert(strstr(out.data, "49999149997,62498.75\n"));
    hudi_buf_dispose(&out);
    hudi_array_free(a);
    hudi_array_free(d);
}
