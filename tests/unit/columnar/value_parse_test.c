/* value_parse_test.c - text to values (columnar/value_parse.c): each parser against the
 * renderer (render(parse(x)) == x), the edges of each range, and the refusals. */
#include <criterion/criterion.h>
#include <math.h>

#include "columnar/render.h"
#include "columnar/value_parse.h"

#define P(s) (s), strlen(s)

Test(value_parse, integers) {
    int64_t v;
    uint64_t u;
    cr_assert_eq(hudi_parse_i64(P("-9223372036854775808"), &v), 0);
    cr_assert_eq(v, INT64_MIN);
    cr_assert_eq(hudi_parse_i64(P("9223372036854775808"), &v), HUDI_PARSE_RANGE);
    cr_assert_eq(hudi_parse_i64(P("1.0"), &v), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_i64(P("-"), &v), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_i64(P(""), &v), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_u64(P("18446744073709551615"), &u), 0);
    cr_assert_eq(u, UINT64_MAX);
    cr_assert_eq(hudi_parse_u64(P("18446744073709551616"), &u), HUDI_PARSE_RANGE);
    hudi_field f;
    cr_assert_eq(hudi_field_init(&f, "c", HUDI_TYPE_INT8, true), 0);
    cr_assert_eq(hudi_parse_int_for(&f, P("-128"), &v), 0);
    cr_assert_eq(hudi_parse_int_for(&f, P("128"), &v), HUDI_PARSE_RANGE);
    f.type = HUDI_TYPE_UINT16;
    cr_assert_eq(hudi_parse_int_for(&f, P("-1"), &v), HUDI_PARSE_RANGE);
    cr_assert_eq(hudi_parse_int_for(&f, P("-x"), &v), HUDI_PARSE_SYNTAX);
    f.type = HUDI_TYPE_STRING;
    cr_assert_eq(hudi_parse_int_for(&f, P("1"), &v), HUDI_PARSE_SYNTAX);
    hudi_field_dispose(&f);
}

Test(value_parse, floats) {
    double d;
    float x;
    cr_assert_eq(hudi_parse_double(P("0.30000000000000004"), &d), 0);
    cr_assert_eq(d, 0.1 + 0.2);
    cr_assert_eq(hudi_parse_double(P("-Infinity"), &d), 0);
    cr_assert(isinf(d) && d < 0);
    cr_assert_eq(hudi_parse_double(P("NaN"), &d), 0);
    cr_assert(isnan(d));
    cr_assert_eq(hudi_parse_double(P("0x10"), &d), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_double(P("1e"), &d), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_double(P(".5"), &d), 0);
    cr_assert_eq(hudi_parse_float32(P("0.33333334"), &x), 0);
    cr_assert_eq(x, 1.0f / 3.0f);
    cr_assert_eq(hudi_float_to_half(0.099975586), 0x2e66);
    cr_assert_eq(hudi_float_to_half(-65504), 0xfbff);
    cr_assert_eq(hudi_float_to_half(65520), 0x7c00);                 /* rounds up to infinity */
    cr_assert_eq(hudi_float_to_half(5.960464477539063e-08), 0x0001); /* smallest subnormal */
    for (uint32_t h = 0; h < 0x7c00; h += 7) /* every finite half survives the trip */
        cr_assert_eq(hudi_float_to_half(hudi_half_to_float((uint16_t)h)), h, "%x", h);
}

static void dec_ok(const char *s, int32_t p, int32_t scale, const char *expect) {
    __int128 v;
    cr_assert_eq(hudi_parse_decimal(P(s), p, scale, &v), 0, "%s", s);
    hudi_buf b = HUDI_BUF_INIT;
    uint8_t bytes[16];
    memcpy(bytes, &v, 16);
    hudi_render_decimal128(&b, bytes, scale);
    cr_assert_str_eq(b.data, expect, "%s", s);
    hudi_buf_dispose(&b);
}

Test(value_parse, decimals) {
    dec_ok("-0.05", 5, 2, "-0.05");
    dec_ok("1.5e1", 5, 2, "15.00");
    dec_ok("12.3400", 5, 2, "12.34");
    dec_ok("000.10", 3, 2, "0.10");
    dec_ok("0", 1, 0, "0");
    dec_ok("99999999999999999999999999999999999999", 38, 0,
           "99999999999999999999999999999999999999");
    dec_ok("-1E-2", 3, 2, "-0.01");
    __int128 v;
    cr_assert_eq(hudi_parse_decimal(P("0.001"), 5, 2, &v), HUDI_PARSE_PRECISION);
    cr_assert_eq(hudi_parse_decimal(P("1000.0"), 5, 2, &v), HUDI_PARSE_RANGE);
    cr_assert_eq(hudi_parse_decimal(P("1e40"), 0, 0, &v), HUDI_PARSE_RANGE);
    cr_assert_eq(hudi_parse_decimal(P("1.2.3"), 5, 2, &v), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_decimal(P("."), 5, 2, &v), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_decimal(P("1e"), 5, 2, &v), HUDI_PARSE_SYNTAX);
}

Test(value_parse, dates_times_timestamps) {
    int64_t v;
    static const int64_t days[] = {-719162, 2932896, 2932897,   -719529,
                                   0,       19782,   INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(days); i++) {
        hudi_buf b = HUDI_BUF_INIT;
        hudi_render_date(&b, days[i]);
        cr_assert_eq(hudi_parse_date(b.data, b.len, &v), 0, "%s", b.data);
        cr_assert_eq(v, days[i], "%s", b.data);
        hudi_buf_dispose(&b);
    }
    cr_assert_eq(hudi_parse_date(P("2023-02-29"), &v), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_date(P("2024-13-01"), &v), HUDI_PARSE_SYNTAX);
    static const int64_t stamps[] = {-1, -1500000, 0, INT64_MIN, INT64_MAX, 1704141296123456};
    for (int unit = 0; unit < 3; unit++)
        for (size_t i = 0; i < HUDI_ARRAY_LEN(stamps); i++)
            for (int utc = 0; utc < 2; utc++) {
                hudi_buf b = HUDI_BUF_INIT;
                hudi_render_timestamp(&b, stamps[i], (hudi_time_unit)unit, utc);
                cr_assert_eq(hudi_parse_timestamp(b.data, b.len, unit, &v), 0, "%s", b.data);
                cr_assert_eq(v, stamps[i], "%s unit %d", b.data, unit);
                hudi_buf_dispose(&b);
            }
    cr_assert_eq(hudi_parse_timestamp(P("2024-01-01T01:00:00+01:00"), HUDI_UNIT_MILLIS, &v), 0);
    cr_assert_eq(v, INT64_C(1704067200000));
    cr_assert_eq(hudi_parse_timestamp(P("2024-01-01"), HUDI_UNIT_MILLIS, &v), 0);
    cr_assert_eq(v, INT64_C(1704067200000));
    cr_assert_eq(hudi_parse_timestamp(P("2024-01-01T00:00:00.0001"), HUDI_UNIT_MILLIS, &v),
                 HUDI_PARSE_PRECISION);
    cr_assert_eq(hudi_parse_timestamp(P("2024-01-01T24:00"), HUDI_UNIT_MILLIS, &v),
                 HUDI_PARSE_SYNTAX);
    static const int64_t times[] = {0, 45296789, 90000000, -1000};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(times); i++) {
        hudi_buf b = HUDI_BUF_INIT;
        hudi_render_time(&b, times[i], HUDI_UNIT_MILLIS);
        cr_assert_eq(hudi_parse_time(b.data, b.len, HUDI_UNIT_MILLIS, &v), 0, "%s", b.data);
        cr_assert_eq(v, times[i], "%s", b.data);
        hudi_buf_dispose(&b);
    }
}

Test(value_parse, bytes) {
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_parse_base64(P("Zm8="), &b), 0);
    cr_assert_eq(b.len, 2);
    cr_assert(memcmp(b.data, "fo", 2) == 0);
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_parse_base64(P("Zm9vYg"), &b), 0); /* padding optional */
    cr_assert_eq(b.len, 4);
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_parse_base64(P("Z"), &b), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_base64(P("Zm=8"), &b), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_base64(P("Zm9=="), &b), HUDI_PARSE_SYNTAX);
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_parse_base64(P(""), &b), 0);
    cr_assert_eq(b.len, 0);
    uint8_t u[16];
    cr_assert_eq(hudi_parse_uuid(P("00112233-4455-6677-8899-aabbccddeeff"), u), 0);
    cr_assert_eq(u[15], 0xff);
    cr_assert_eq(hudi_parse_uuid(P("001122334-455-6677-8899-aabbccddeeff"), u), HUDI_PARSE_SYNTAX);
    cr_assert_eq(hudi_parse_hex(P("0a-0B"), &b), 0);
    cr_assert_eq(b.len, 2);
    cr_assert_eq(hudi_parse_hex(P("abc"), &b), HUDI_PARSE_SYNTAX);
    hudi_buf_dispose(&b);
}
