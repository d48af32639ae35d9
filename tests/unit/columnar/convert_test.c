/* convert_test.c - value conversions of schema evolution (columnar/convert.h): the type-change
 * matrix, Java's number texts (expected texts printed by JDK 17), HALF_UP decimals, dates,
 * UTF-8 repair, nulls, overflow errors and lenient nulls. */
#include <criterion/criterion.h>
#include <math.h>

#include "columnar/convert.h"

/* A nullable leaf named "c" (a literal: test fields are never disposed). */
static hudi_field leaf(hudi_type_id t) {
    hudi_field f;
    memset(&f, 0, sizeof(f));
    f.name = (char *)"c";
    f.type = t;
    f.nullable = true;
    f.unit = HUDI_UNIT_MICROS;
    f.field_id = -1;
    return f;
}

static hudi_field dec(int32_t p, int32_t s) {
    hudi_field f = leaf(HUDI_TYPE_DECIMAL);
    f.precision = p;
    f.scale = s;
    return f;
}

static hudi_array *new_array(const hudi_field *f) {
    hudi_array *a = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_new(&a, f, &err), 0);
    return a;
}

static void put(hudi_array *a, const void *v) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_fixed(a, v, &err), 0);
}

static void put_str(hudi_array *a, const char *s) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_bytes(a, s, strlen(s), &err), 0);
}

static void put_null(hudi_array *a) {
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_append_null(a, &err), 0);
}

static hudi_array *convert_ok(const hudi_array *a, const hudi_field *to) {
    hudi_array *w = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_convert(&w, a, to, false, "c", &err), 0, "%s", err.message);
    cr_assert_eq(hudi_array_validate(w, &err), 0, "%s", err.message);
    cr_assert_eq(w->field, to);
    cr_assert_eq(w->length, a->length);
    return w;
}

/* Row i of a string array as a NUL-terminated copy in buf. */
static const char *str_at(const hudi_array *a, int64_t i, char *buf, size_t cap) {
    size_t n = (size_t)(a->offsets[i + 1] - a->offsets[i]);
    cr_assert_lt(n, cap);
    memcpy(buf, a->data + a->offsets[i], n);
    buf[n] = '\0';
    return buf;
}

static __int128 dec_at(const hudi_array *a, int64_t i) {
    const uint8_t *p = (const uint8_t *)a->values + i * 16;
    return (__int128)((unsigned __int128)hudi_load_u64le(p + 8) << 64 | hudi_load_u64le(p));
}

/* ---- the matrix ------------------------------------------------------------------------------ */

Test(convert, matrix_of_allowed_pairs) {
    /* rows: from, columns: to, in the order of types[] (docs/formats/schema-evolution.md §5) */
    hudi_field types[] = {leaf(HUDI_TYPE_INT8),
                          leaf(HUDI_TYPE_INT16),
                          leaf(HUDI_TYPE_INT32),
                          leaf(HUDI_TYPE_INT64),
                          leaf(HUDI_TYPE_FLOAT),
                          leaf(HUDI_TYPE_DOUBLE),
                          dec(10, 2),
                          leaf(HUDI_TYPE_STRING),
                          leaf(HUDI_TYPE_DATE),
                          leaf(HUDI_TYPE_BINARY),
                          leaf(HUDI_TYPE_BOOL),
                          leaf(HUDI_TYPE_TIMESTAMP)};
    static const char *const want[] = {
        /*            i8 i16 i32 i64 f d dec s date bin bool ts */
        /* int8   */ "1 1 1 1 1 1 1 1 0 0 0 0",
        /* int16  */ "0 1 1 1 1 1 1 1 0 0 0 0",
        /* int32  */ "0 0 1 1 1 1 1 1 0 0 0 0",
        /* int64  */ "0 0 0 1 1 1 1 1 0 0 0 0",
        /* float  */ "0 0 0 0 1 1 1 1 0 0 0 0",
        /* double */ "0 0 0 0 0 1 1 1 0 0 0 0",
        /* dec    */ "0 0 0 0 0 0 1 1 0 0 0 0",
        /* string */ "0 0 0 0 0 0 1 1 1 1 0 0",
        /* date   */ "0 0 0 0 0 0 0 1 1 0 0 0",
        /* binary */ "0 0 0 0 0 0 0 1 0 1 0 0",
        /* bool   */ "0 0 0 0 0 0 0 0 0 0 1 0",
        /* ts     */ "0 0 0 0 0 0 0 0 0 0 0 1",
    };
    int n = (int)(sizeof(types) / sizeof(types[0]));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            cr_expect_eq(hudi_type_can_convert(&types[i], &types[j]), want[i][2 * j] == '1',
                         "%s -> %s", hudi_type_name(types[i].type), hudi_type_name(types[j].type));
}

Test(convert, decimal_to_decimal_follows_the_alter_rule) {
    hudi_field d10_2 = dec(10, 2), d12_2 = dec(12, 2), d8_2 = dec(8, 2), d12_4 = dec(12, 4),
               d11_4 = dec(11, 4), d10_1 = dec(10, 1);
    cr_assert(hudi_type_can_convert(&d10_2, &d12_2));     /* wider, same scale */
    cr_assert_not(hudi_type_can_convert(&d10_2, &d8_2));  /* narrower */
    cr_assert(hudi_type_can_convert(&d10_2, &d12_4));     /* same integer digits, more scale */
    cr_assert_not(hudi_type_can_convert(&d10_2, &d11_4)); /* loses an integer digit */
    cr_assert_not(hudi_type_can_convert(&d10_2, &d10_1)); /* loses scale */
    hudi_field ts_ms = leaf(HUDI_TYPE_TIMESTAMP), ts_us = leaf(HUDI_TYPE_TIMESTAMP);
    ts_ms.unit = HUDI_UNIT_MILLIS;
    cr_assert(hudi_type_can_convert(&ts_ms, &ts_us)); /* units rescale (below) */
    hudi_field d39 = dec(39, 0), i32 = leaf(HUDI_TYPE_INT32);
    cr_assert_not(hudi_type_can_convert(&i32, &d39)); /* beyond 128-bit decimals */
    hudi_field list = leaf(HUDI_TYPE_LIST);
    cr_assert_not(hudi_type_can_convert(&list, &list)); /* only primitives */
}

Test(convert, refused_pair_is_einval_naming_the_column) {
    hudi_field i64 = leaf(HUDI_TYPE_INT64), i32 = leaf(HUDI_TYPE_INT32);
    hudi_array *a = new_array(&i64), *w = NULL;
    int64_t v = 1;
    put(a, &v);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_convert(&w, a, &i32, false, "price", &err), HUDI_EINVAL);
    cr_assert_null(w);
    cr_assert(strstr(err.message, "price"), "%s", err.message);
    hudi_array_free(a);
}

/* ---- numbers ----------------------------------------------------------------------------------
 */

Test(convert, integers_widen_and_keep_nulls) {
    hudi_field i16 = leaf(HUDI_TYPE_INT16), i32 = leaf(HUDI_TYPE_INT32),
               i64 = leaf(HUDI_TYPE_INT64), f32 = leaf(HUDI_TYPE_FLOAT),
               f64 = leaf(HUDI_TYPE_DOUBLE);
    hudi_array *a = new_array(&i16);
    int16_t vals[] = {-32768, 0, 32767};
    for (int i = 0; i < 3; i++) put(a, &vals[i]);
    put_null(a);
    hudi_array *w32 = convert_ok(a, &i32), *w64 = convert_ok(a, &i64), *wd = convert_ok(a, &f64);
    cr_assert_eq(((int32_t *)w32->values)[0], -32768);
    cr_assert_eq(((int64_t *)w64->values)[2], 32767);
    cr_assert_eq(((double *)wd->values)[0], -32768.0);
    cr_assert_eq(w64->null_count, 1);
    cr_assert_not(hudi_array_is_valid(w64, 3));
    hudi_array *l = new_array(&i64);
    int64_t big = 9007199254740993; /* 2^53 + 1: rounds like Java's (float)/(double) casts */
    put(l, &big);
    hudi_array *lf = convert_ok(l, &f32), *ld = convert_ok(l, &f64);
    cr_assert_eq(((float *)lf->values)[0], 9007199254740992.0f);
    cr_assert_eq(((double *)ld->values)[0], 9007199254740992.0);
    hudi_array *arrays[] = {a, w32, w64, wd, l, lf, ld};
    for (int i = 0; i < 7; i++) hudi_array_free(arrays[i]);
}

Test(convert, float_to_double_goes_through_the_shortest_text) {
    hudi_field f32 = leaf(HUDI_TYPE_FLOAT), f64 = leaf(HUDI_TYPE_DOUBLE);
    hudi_array *a = new_array(&f32);
    float vals[] = {1.1f, 101.01f, -0.0f, NAN, INFINITY, 3.4028235e38f, 1e-45f};
    for (int i = 0; i < 7; i++) put(a, &vals[i]);
    put_null(a);
    hudi_array *w = convert_ok(a, &f64);
    const double *d = w->values;
    cr_assert_eq(d[0], 1.1);
    cr_assert_eq(d[1], 101.01);
    cr_assert(d[2] == 0 && signbit(d[2]));
    cr_assert(isnan(d[3]));
    cr_assert(isinf(d[4]) && d[4] > 0);
    cr_assert_eq(d[5], 3.4028235e38);
    cr_assert_eq(d[6], 1.4e-45); /* Float.toString(Float.MIN_VALUE) is "1.4E-45" */
    cr_assert_not(hudi_array_is_valid(w, 7));
    hudi_array_free(a);
    hudi_array_free(w);
}

/* Double.toString / Float.toString as JDK 17.0.15 printed them (bits, text), including the
 * values where JDK 17 prints more digits than the shortest that reads back (9.999999999999999E22
 * for 1e23, 4.9E-324, float 1.13132703E18 and 2.24E-44). */
static const struct {
    char kind;
    uint64_t bits;
    const char *text;
} java_texts[] = {
    {'d', 0x0ull, "0.0"},
    {'d', 0x10000000000000ull, "2.2250738585072014E-308"},
    {'d', 0x1ull, "4.9E-324"},
    {'d', 0x20ull, "1.58E-322"},
    {'d', 0x2ull, "1.0E-323"},
    {'d', 0x3e7ad7f29abcaf48ull, "1.0E-7"},
    {'d', 0x3ee4f8b588e368f1ull, "1.0E-5"},
    {'d', 0x3f1a36e2eb1c432dull, "1.0E-4"},
    {'d', 0x3f40624dd2f1a9fcull, "5.0E-4"},
    {'d', 0x3f505e1c15097c81ull, "9.99E-4"},
    {'d', 0x3f50624dd2f1a9fcull, "0.001"},
    {'d', 0x3f60624dd2f1a9fcull, "0.002"},
    {'d', 0x3fb999999999999aull, "0.1"},
    {'d', 0x3fd3333333333333ull, "0.3"},
    {'d', 0x3fe5555555555555ull, "0.6666666666666666"},
    {'d', 0x3ff0000000000000ull, "1.0"},
    {'d', 0x3ff199999999999aull, "1.1"},
    {'d', 0x3ull, "1.5E-323"},
    {'d', 0x40240ccccccccccdull, "10.025"},
    {'d', 0x402a000000000000ull, "13.0"},
    {'d', 0x4059000000000000ull, "100.0"},
    {'d', 0x405940a3d70a3d71ull, "101.01"},
    {'d', 0x408c28147ae147aeull, "901.01"},
    {'d', 0x416312cfe0000000ull, "9999999.0"},
    {'d', 0x416312d000000000ull, "1.0E7"},
    {'d', 0x416312d020000000ull, "1.0000001E7"},
    {'d', 0x419d6f3454000000ull, "1.23456789E8"},
    {'d', 0x419d6f34547e6b74ull, "1.2345678912345678E8"},
    {'d', 0x4341c37937e08000ull, "1.0E16"},
    {'d', 0x434550f7dca70000ull, "1.2E16"},
    {'d', 0x43ac9286aa27f740ull, "1.02942802251740774E18"},
    {'d', 0x43accf249e4da64cull, "1.03795910778363238E18"},
    {'d', 0x43ad9d4b06b58cc5ull, "1.06697214531563584E18"},
    {'d', 0x43f9c6effb0d3512ull, "2.9718972125989118E19"},
    {'d', 0x44168c9e899ca75cull, "1.0399026428478901E20"},
    {'d', 0x4417a1aad750c828ull, "1.0898111845585558E20"},
    {'d', 0x44198635f3000000ull, "1.1770987619972809E20"},
    {'d', 0x441aabdf2145b430ull, "1.23E20"},
    {'d', 0x441baf60826b196full, "1.2767483348526483E20"},
    {'d', 0x444b1ae4d6e2ef50ull, "1.0E21"},
    {'d', 0x4480f0cf064dd592ull, "1.0E22"},
    {'d', 0x44ada56a4b0835c0ull, "7.0000000000000004E22"},
    {'d', 0x44b52d02c7e14af6ull, "9.999999999999999E22"},
    {'d', 0x44c52d02c7e14af6ull, "1.9999999999999998E23"},
    {'d', 0x47efffffe0000000ull, "3.4028234663852886E38"},
    {'d', 0x7fefffffffffffffull, "1.7976931348623157E308"},
    {'d', 0x7ff0000000000000ull, "Infinity"},
    {'d', 0x7ff8000000000000ull, "NaN"},
    {'d', 0x8000000000000000ull, "-0.0"},
    {'d', 0x8000000000000001ull, "-4.9E-324"},
    {'d', 0xbff0000000000000ull, "-1.0"},
    {'d', 0xc440000000000000ull, "-5.9029581035870565E20"},
    {'d', 0xfff0000000000000ull, "-Infinity"},
    {'f', 0x0ull, "0.0"},
    {'f', 0x10ull, "2.24E-44"},
    {'f', 0x1ull, "1.4E-45"},
    {'f', 0x3a82f0e1ull, "9.99E-4"},
    {'f', 0x3a83126full, "0.001"},
    {'f', 0x3b03126full, "0.002"},
    {'f', 0x3dcccccdull, "0.1"},
    {'f', 0x3dull, "8.5E-44"},
    {'f', 0x3f800000ull, "1.0"},
    {'f', 0x3f8ccccdull, "1.1"},
    {'f', 0x42ca051full, "101.01"},
    {'f', 0x4b18967full, "9999999.0"},
    {'f', 0x4b189680ull, "1.0E7"},
    {'f', 0x4b800000ull, "1.6777216E7"},
    {'f', 0x4c000000ull, "3.3554432E7"},
    {'f', 0x501502f9ull, "1.0E10"},
    {'f', 0x501a41aeull, "1.03519826E10"},
    {'f', 0x5036a773ull, "1.22577091E10"},
    {'f', 0x5039bc50ull, "1.24645048E10"},
    {'f', 0x6a76150eull, "7.4373794E25"},
    {'f', 0x7f7fffffull, "3.4028235E38"},
    {'f', 0x7f800000ull, "Infinity"},
    {'f', 0x7fc00000ull, "NaN"},
    {'f', 0x80000000ull, "-0.0"},
    {'f', 0x800000ull, "1.17549435E-38"},
    {'f', 0x80ull, "1.794E-43"},
    {'f', 0x8ull, "1.1E-44"},
    {'f', 0xff800000ull, "-Infinity"},
};

Test(convert, java_number_texts_match_jdk17) {
    hudi_buf b = HUDI_BUF_INIT;
    for (size_t i = 0; i < sizeof(java_texts) / sizeof(java_texts[0]); i++) {
        hudi_buf_clear(&b);
        if (java_texts[i].kind == 'd') {
            double d;
            memcpy(&d, &java_texts[i].bits, 8);
            hudi_java_double_text(&b, d);
        } else {
            uint32_t u = (uint32_t)java_texts[i].bits;
            float f;
            memcpy(&f, &u, 4);
            hudi_java_float_text(&b, f);
        }
        cr_expect_str_eq(b.data, java_texts[i].text, "%c %llx", java_texts[i].kind,
                         (unsigned long long)java_texts[i].bits);
    }
    hudi_buf_dispose(&b);
}

Test(convert, numbers_to_string_as_java_prints_them) {
    hudi_field i32 = leaf(HUDI_TYPE_INT32), i64 = leaf(HUDI_TYPE_INT64),
               f32 = leaf(HUDI_TYPE_FLOAT), f64 = leaf(HUDI_TYPE_DOUBLE),
               str = leaf(HUDI_TYPE_STRING);
    hudi_array *ai = new_array(&i32), *al = new_array(&i64), *af = new_array(&f32),
               *ad = new_array(&f64);
    int32_t iv[] = {11, -2147483647 - 1};
    int64_t lv = 100001;
    float fv[] = {101.01f, 1e10f, 0.001f};
    double dv[] = {13.0, 1e7, 9.99e-4, -0.0, NAN, -INFINITY};
    for (int i = 0; i < 2; i++) put(ai, &iv[i]);
    put_null(ai);
    put(al, &lv);
    for (int i = 0; i < 3; i++) put(af, &fv[i]);
    for (int i = 0; i < 6; i++) put(ad, &dv[i]);
    hudi_array *si = convert_ok(ai, &str), *sl = convert_ok(al, &str), *sf = convert_ok(af, &str),
               *sd = convert_ok(ad, &str);
    char buf[64];
    cr_assert_str_eq(str_at(si, 0, buf, 64), "11");
    cr_assert_str_eq(str_at(si, 1, buf, 64), "-2147483648");
    cr_assert_not(hudi_array_is_valid(si, 2));
    cr_assert_str_eq(str_at(sl, 0, buf, 64), "100001");
    cr_assert_str_eq(str_at(sf, 0, buf, 64), "101.01");
    cr_assert_str_eq(str_at(sf, 1, buf, 64), "1.0E10");
    cr_assert_str_eq(str_at(sf, 2, buf, 64), "0.001");
    const char *want[] = {"13.0", "1.0E7", "9.99E-4", "-0.0", "NaN", "-Infinity"};
    for (int i = 0; i < 6; i++) cr_assert_str_eq(str_at(sd, i, buf, 64), want[i]);
    hudi_array *arrays[] = {ai, al, af, ad, si, sl, sf, sd};
    for (int i = 0; i < 8; i++) hudi_array_free(arrays[i]);
}

/* ---- decimals ------------------------------------------------------------------------------- */

Test(convert, doubles_and_strings_to_decimal_round_half_up) {
    hudi_field f64 = leaf(HUDI_TYPE_DOUBLE), str = leaf(HUDI_TYPE_STRING), d4_2 = dec(4, 2);
    static const double dv[] = {10.024, 10.025, 10.026, -10.025, 10.035, -10.035};
    static const char *const sv[] = {"10.024",  "10.025", " 10.026\t",
                                     "-10.025", "10.035", "-10.035"};
    static const int want[] = {1002, 1003, 1003, -1003, 1004, -1004};
    hudi_array *ad = new_array(&f64), *as = new_array(&str);
    for (int i = 0; i < 6; i++) {
        put(ad, &dv[i]);
        put_str(as, sv[i]);
    }
    put_null(ad);
    put_null(as);
    hudi_array *wd = convert_ok(ad, &d4_2), *ws = convert_ok(as, &d4_2);
    for (int i = 0; i < 6; i++) {
        cr_assert(dec_at(wd, i) == want[i], "double %g", dv[i]);
        cr_assert(dec_at(ws, i) == want[i], "string %s", sv[i]);
    }
    cr_assert_not(hudi_array_is_valid(wd, 6));
    cr_assert_not(hudi_array_is_valid(ws, 6));
    hudi_array_free(ad);
    hudi_array_free(as);
    hudi_array_free(wd);
    hudi_array_free(ws);
}

Test(convert, chain_values_of_spec_f5) {
    /* int 11, long 100001, float 101.01, double 901.01 and 13.0 read as decimal(16, 4) */
    hudi_field i32 = leaf(HUDI_TYPE_INT32), i64 = leaf(HUDI_TYPE_INT64),
               f32 = leaf(HUDI_TYPE_FLOAT), f64 = leaf(HUDI_TYPE_DOUBLE), d16_4 = dec(16, 4),
               str = leaf(HUDI_TYPE_STRING);
    hudi_array *ai = new_array(&i32), *al = new_array(&i64), *af = new_array(&f32),
               *ad = new_array(&f64);
    int32_t i = 11;
    int64_t l = 100001;
    float f = 101.01f;
    double d[] = {901.01, 13.0};
    put(ai, &i);
    put(al, &l);
    put(af, &f);
    put(ad, &d[0]);
    put(ad, &d[1]);
    hudi_array *wi = convert_ok(ai, &d16_4), *wl = convert_ok(al, &d16_4),
               *wf = convert_ok(af, &d16_4), *wd = convert_ok(ad, &d16_4);
    cr_assert(dec_at(wi, 0) == 110000);
    cr_assert(dec_at(wl, 0) == 1000010000);
    cr_assert(dec_at(wf, 0) == 1010100);
    cr_assert(dec_at(wd, 0) == 9010100);
    cr_assert(dec_at(wd, 1) == 130000);
    /* and the decimal read as a string keeps its scale (BigDecimal.toString) */
    hudi_array *s = convert_ok(wl, &str);
    char buf[64];
    cr_assert_str_eq(str_at(s, 0, buf, 64), "100001.0000");
    hudi_array *arrays[] = {ai, al, af, ad, wi, wl, wf, wd, s};
    for (int k = 0; k < 9; k++) hudi_array_free(arrays[k]);
}

Test(convert, decimal_to_string_is_bigdecimal_text) {
    static const struct {
        int64_t unscaled;
        int32_t scale;
        const char *text;
    } cases[] = {
        {0, 10, "0E-10"},         {0, 6, "0.000000"},  {0, 0, "0"},
        {1234500, 4, "123.4500"}, {-12, 8, "-1.2E-7"}, {12, 7, "0.0000012"},
        {12, 6, "0.000012"},      {1, 6, "0.000001"},  {-123456789, 15, "-1.23456789E-7"},
        {100001, 0, "100001"},    {-5, 1, "-0.5"},
    };
    hudi_field str = leaf(HUDI_TYPE_STRING);
    char buf[64];
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        hudi_field d = dec(38, cases[k].scale);
        hudi_array *a = new_array(&d);
        uint8_t v[16];
        hudi_store_u64le(v, (uint64_t)cases[k].unscaled);
        hudi_store_u64le(v + 8, cases[k].unscaled < 0 ? UINT64_MAX : 0);
        put(a, v);
        hudi_array *s = convert_ok(a, &str);
        cr_expect_str_eq(str_at(s, 0, buf, 64), cases[k].text);
        hudi_array_free(a);
        hudi_array_free(s);
    }
}

Test(convert, decimal_rescale_and_widen) {
    hudi_field d4_2 = dec(4, 2), d6_4 = dec(6, 4), d38_2 = dec(38, 2);
    hudi_array *a = new_array(&d4_2);
    uint8_t v[16];
    hudi_store_u64le(v, (uint64_t)-9999);
    hudi_store_u64le(v + 8, UINT64_MAX);
    put(a, v);
    put_null(a);
    hudi_array *w = convert_ok(a, &d6_4), *x = convert_ok(a, &d38_2);
    cr_assert(dec_at(w, 0) == -999900);
    cr_assert(dec_at(x, 0) == -9999);
    cr_assert_not(hudi_array_is_valid(w, 1));
    hudi_array_free(a);
    hudi_array_free(w);
    hudi_array_free(x);
}

Test(convert, decimal_overflow_fails_naming_column_and_value_or_reads_null) {
    hudi_field i32 = leaf(HUDI_TYPE_INT32), str = leaf(HUDI_TYPE_STRING), d4_2 = dec(4, 2);
    hudi_array *a = new_array(&i32), *s = new_array(&str), *w = NULL;
    int32_t vals[] = {99, 100, -100};
    for (int i = 0; i < 3; i++) put(a, &vals[i]);
    put_str(s, "99.995");
    put_str(s, "12.5x");
    put_str(s, "99.994");
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_convert(&w, a, &d4_2, false, "amount", &err), HUDI_EINVAL);
    cr_assert_null(w);
    cr_assert(strstr(err.message, "amount") && strstr(err.message, "'100'"), "%s", err.message);
    cr_assert_eq(hudi_array_convert(&w, s, &d4_2, false, "amount", &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "'99.995'"), "%s", err.message); /* rounds to 100.00 */
    cr_assert_eq(hudi_array_convert(&w, a, &d4_2, true, "amount", &err), 0);
    cr_assert(dec_at(w, 0) == 9900);
    cr_assert_not(hudi_array_is_valid(w, 1));
    cr_assert_not(hudi_array_is_valid(w, 2));
    cr_assert_eq(w->null_count, 2);
    hudi_array_free(w);
    cr_assert_eq(hudi_array_convert(&w, s, &d4_2, true, "amount", &err), 0);
    cr_assert_eq(w->null_count, 2);
    cr_assert(dec_at(w, 2) == 9999);
    cr_assert_eq(hudi_array_validate(w, &err), 0, "%s", err.message);
    hudi_array_free(w);
    hudi_array_free(a);
    hudi_array_free(s);
}

Test(convert, strings_parse_as_bigdecimal) {
    hudi_field str = leaf(HUDI_TYPE_STRING), d10_3 = dec(10, 3);
    static const char *const ok[] = {"1.5e2", ".5", "5.", "+7", "-0.0005", "1E-9", "0.0004999"};
    static const int want[] = {150000, 500, 5000, 7000, -1, 0, 0};
    hudi_array *a = new_array(&str);
    for (int i = 0; i < 7; i++) put_str(a, ok[i]);
    hudi_array *w = convert_ok(a, &d10_3);
    for (int i = 0; i < 7; i++) cr_expect(dec_at(w, i) == want[i], "%s", ok[i]);
    hudi_array_free(w);
    static const char *const bad[] = {"", " ", "NaN", "1e", "1.2.3", "--1", "0x10"};
    for (int i = 0; i < 7; i++) {
        hudi_array *b = new_array(&str);
        put_str(b, bad[i]);
        hudi_error err = HUDI_ERROR_INIT;
        cr_expect_eq(hudi_array_convert(&w, b, &d10_3, false, "c", &err), HUDI_EINVAL, "%s",
                     bad[i]);
        hudi_array_free(b);
    }
    hudi_array_free(a);
}

/* ---- dates, strings and bytes -----------------------------------------------------------------
 */

Test(convert, string_to_date_is_java_sql_date_valueof) {
    hudi_field str = leaf(HUDI_TYPE_STRING), date = leaf(HUDI_TYPE_DATE);
    hudi_array *a = new_array(&str), *w = NULL;
    put_str(a, "2021-12-25");
    put_str(a, "2021-1-2");
    put_str(a, "1970-01-01");
    put_str(a, "2021-02-31"); /* rolls over, as java.sql.Date.valueOf does */
    put_null(a);
    w = convert_ok(a, &date);
    const int32_t *d = w->values;
    cr_assert_eq(d[0], 18986);
    cr_assert_eq(d[1], 18629);
    cr_assert_eq(d[2], 0);
    cr_assert_eq(d[3], 18689); /* 2021-03-03 */
    cr_assert_not(hudi_array_is_valid(w, 4));
    hudi_array_free(w);
    static const char *const bad[] = {
        "2021/01/01",  "21-01-01",         "2021-13-01",  "2021-01-32",
        " 2021-01-01", "2021-01-01T00:00", "2021-001-01", ""};
    for (int i = 0; i < 8; i++) {
        hudi_array *b = new_array(&str);
        put_str(b, bad[i]);
        hudi_error err = HUDI_ERROR_INIT;
        cr_expect_eq(hudi_array_convert(&w, b, &date, false, "day", &err), HUDI_EINVAL, "%s",
                     bad[i]);
        cr_expect(strstr(err.message, "day"), "%s", err.message);
        cr_assert_eq(hudi_array_convert(&w, b, &date, true, "day", &err), 0);
        cr_expect_not(hudi_array_is_valid(w, 0));
        hudi_array_free(w);
        hudi_array_free(b);
    }
    hudi_array_free(a);
}

Test(convert, date_to_string_and_back) {
    hudi_field date = leaf(HUDI_TYPE_DATE), str = leaf(HUDI_TYPE_STRING);
    hudi_array *a = new_array(&date);
    int32_t days[] = {18986, -1, 0};
    for (int i = 0; i < 3; i++) put(a, &days[i]);
    hudi_array *s = convert_ok(a, &str), *back = convert_ok(s, &date);
    char buf[32];
    cr_assert_str_eq(str_at(s, 0, buf, 32), "2021-12-25");
    cr_assert_str_eq(str_at(s, 1, buf, 32), "1969-12-31");
    cr_assert(hudi_array_equal(a, back, NULL));
    hudi_array_free(a);
    hudi_array_free(s);
    hudi_array_free(back);
}

Test(convert, binary_to_string_repairs_utf8_and_string_to_binary_keeps_bytes) {
    hudi_field bin = leaf(HUDI_TYPE_BINARY), str = leaf(HUDI_TYPE_STRING);
    hudi_array *a = new_array(&bin);
    hudi_error err = HUDI_ERROR_INIT;
    static const struct {
        const char *in;
        size_t n;
        const char *out;
    } cases[] = {
        {"caf\xc3\xa9", 5, "caf\xc3\xa9"},
        {"a\xff"
         "b",
         3,
         "a\xef\xbf\xbd"
         "b"},
        {"\xe2\x82", 2, "\xef\xbf\xbd"}, /* truncated: one replacement */
        {"\xe2\x82x", 3, "\xef\xbf\xbdx"},
        {"\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* a surrogate */
        {"\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd"},                 /* overlong */
        {"\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x80"},
        {"", 0, ""},
    };
    size_t nc = sizeof(cases) / sizeof(cases[0]);
    for (size_t i = 0; i < nc; i++)
        cr_assert_eq(hudi_array_append_bytes(a, cases[i].in, cases[i].n, &err), 0);
    put_null(a);
    hudi_array *s = convert_ok(a, &str);
    char buf[64];
    for (size_t i = 0; i < nc; i++) cr_expect_str_eq(str_at(s, (int64_t)i, buf, 64), cases[i].out);
    cr_assert_not(hudi_array_is_valid(s, (int64_t)nc));
    hudi_array *b = convert_ok(s, &bin);
    cr_assert(hudi_array_equal(s, b, NULL) || b->offsets[1] == 5);
    cr_assert_eq(memcmp(b->data, s->data, (size_t)s->data_len), 0);
    cr_assert_eq(b->data_len, s->data_len);
    hudi_array_free(a);
    hudi_array_free(s);
    hudi_array_free(b);
}

Test(convert, same_type_is_a_copy_pointing_at_the_target_field) {
    hudi_field s1 = leaf(HUDI_TYPE_STRING), s2 = leaf(HUDI_TYPE_STRING);
    hudi_array *a = new_array(&s1);
    put_str(a, "x");
    put_null(a);
    hudi_array *w = convert_ok(a, &s2);
    cr_assert_eq(w->field, &s2);
    cr_assert_eq(w->null_count, 1);
    hudi_array_free(a);
    hudi_array_free(w);
}

Test(convert, many_rows_of_strings) {
    hudi_field f64 = leaf(HUDI_TYPE_DOUBLE), str = leaf(HUDI_TYPE_STRING);
    hudi_array *a = new_array(&f64);
    for (int i = 0; i < 10000; i++) {
        double d = i * 0.25;
        put(a, &d);
    }
    hudi_array *s = convert_ok(a, &str);
    char buf[64];
    cr_assert_str_eq(str_at(s, 9999, buf, 64), "2499.75");
    cr_assert_str_eq(str_at(s, 4, buf, 64), "1.0");
    hudi_array_free(a);
    hudi_array_free(s);
}

/* A timestamp or time in another unit: finer units multiply, coarser ones round towards the
 * past; a value that overflows the finer unit fails naming the column, or is null when lenient;
 * time zones never change (a local timestamp is not a UTC one). */
Test(convert, timestamps_and_times_change_unit) {
    hudi_field ms = leaf(HUDI_TYPE_TIMESTAMP), us = leaf(HUDI_TYPE_TIMESTAMP),
               ns = leaf(HUDI_TYPE_TIMESTAMP), local_us = leaf(HUDI_TYPE_TIMESTAMP);
    ms.unit = HUDI_UNIT_MILLIS, ms.utc = true;
    us.unit = HUDI_UNIT_MICROS, us.utc = true;
    ns.unit = HUDI_UNIT_NANOS, ns.utc = true;
    local_us.unit = HUDI_UNIT_MICROS, local_us.utc = false;
    cr_assert(hudi_type_can_convert(&ms, &us));
    cr_assert(hudi_type_can_convert(&ns, &us));
    cr_assert_not(hudi_type_can_convert(&ms, &local_us));
    hudi_array *a = new_array(&ms);
    int64_t v[] = {1704164645678, -999, INT64_MAX / 10};
    put(a, &v[0]);
    put(a, &v[1]);
    put_null(a);
    hudi_array *w = convert_ok(a, &us);
    cr_assert_eq(((int64_t *)w->values)[0], 1704164645678000);
    cr_assert_eq(((int64_t *)w->values)[1], -999000);
    cr_assert_not(hudi_array_is_valid(w, 2));
    hudi_array *n = new_array(&ns);
    int64_t nv[] = {1704164645678901234, -1};
    put(n, &nv[0]);
    put(n, &nv[1]);
    hudi_array *wn = convert_ok(n, &us);
    cr_assert_eq(((int64_t *)wn->values)[0], 1704164645678901);
    cr_assert_eq(((int64_t *)wn->values)[1], -1, "1 ns before the epoch is 1 us before it");
    put(a, &v[2]);
    hudi_array *bad = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_array_convert(&bad, a, &us, false, "ts", &err), HUDI_EINVAL);
    cr_assert(strstr(err.message, "column ts") && strstr(err.message, "out of range"), "%s",
              err.message);
    cr_assert_eq(hudi_array_convert(&bad, a, &us, true, "ts", &err), 0, "%s", err.message);
    cr_assert_not(hudi_array_is_valid(bad, 3));
    hudi_field tms = leaf(HUDI_TYPE_TIME), tus = leaf(HUDI_TYPE_TIME);
    tms.unit = HUDI_UNIT_MILLIS, tus.unit = HUDI_UNIT_MICROS;
    hudi_array *t = new_array(&tms);
    int32_t tv = 3723004; /* 01:02:03.004 */
    put(t, &tv);
    hudi_array *wt = convert_ok(t, &tus);
    cr_assert_eq(((int64_t *)wt->values)[0], 3723004000);
    hudi_array *back = convert_ok(wt, &tms);
    cr_assert_eq(((int32_t *)back->values)[0], tv);
    hudi_array *arrays[] = {a, w, n, wn, bad, t, wt, back};
    for (int i = 0; i < 8; i++) hudi_array_free(arrays[i]);
}
