/* shared_helpers_test.c - the one copy of the helpers every layer uses (base.h): civil dates,
 * UTF-8, Base64 decoding and big-endian loads and stores. */
#include <criterion/criterion.h>

#include "base/base.h"

Test(civil, known_dates_and_round_trip) {
    cr_assert_eq(hudi_days_from_civil(1970, 1, 1), 0);
    cr_assert_eq(hudi_days_from_civil(2000, 3, 1), 11017);
    cr_assert_eq(hudi_days_from_civil(1969, 12, 31), -1);
    cr_assert_eq(hudi_days_from_civil(0, 1, 1), -719528);
    cr_assert_eq(hudi_days_from_civil(-1, 12, 31), -719529);
    cr_assert_eq(hudi_days_from_civil(9999, 12, 31), 2932896);
    /* Every day from year -1000 to 3000 maps back to itself, one day apart. */
    int64_t prev_y = 0;
    int prev_m = 0, prev_d = 0;
    for (int64_t z = hudi_days_from_civil(-1000, 1, 1); z <= hudi_days_from_civil(3000, 12, 31);
         z++) {
        int64_t y;
        int m, d;
        hudi_civil_from_days(z, &y, &m, &d);
        cr_assert(hudi_civil_valid(y, m, d), "%lld-%d-%d", (long long)y, m, d);
        cr_assert_eq(hudi_days_from_civil(y, m, d), z);
        if (prev_m) cr_assert(d == prev_d + 1 || (d == 1 && (m != prev_m || y != prev_y)));
        prev_y = y, prev_m = m, prev_d = d;
    }
}

Test(civil, validity) {
    cr_assert(hudi_civil_valid(2024, 2, 29));
    cr_assert(hudi_civil_valid(2000, 2, 29));
    cr_assert_not(hudi_civil_valid(1900, 2, 29));
    cr_assert_not(hudi_civil_valid(2023, 2, 29));
    cr_assert_not(hudi_civil_valid(2023, 4, 31));
    cr_assert_not(hudi_civil_valid(2023, 13, 1));
    cr_assert_not(hudi_civil_valid(2023, 0, 1));
    cr_assert_not(hudi_civil_valid(2023, 1, 0));
}

#define U8(s) (const uint8_t *)(s), sizeof(s) - 1

Test(utf8, validity_follows_unicode_table_3_7) {
    cr_assert(hudi_utf8_valid(U8("")));
    cr_assert(hudi_utf8_valid(U8("plain ascii")));
    cr_assert(hudi_utf8_valid(U8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")));
    cr_assert(hudi_utf8_valid(U8("\xf4\x8f\xbf\xbf")));     /* U+10FFFF */
    cr_assert_not(hudi_utf8_valid(U8("\xc0\xaf")));         /* overlong '/' */
    cr_assert_not(hudi_utf8_valid(U8("\xe0\x80\xaf")));     /* overlong */
    cr_assert_not(hudi_utf8_valid(U8("\xed\xa0\x80")));     /* surrogate U+D800 */
    cr_assert_not(hudi_utf8_valid(U8("\xf4\x90\x80\x80"))); /* past U+10FFFF */
    cr_assert_not(hudi_utf8_valid(U8("\xf5\x80\x80\x80")));
    cr_assert_not(hudi_utf8_valid(U8("ab\xe2\x82"))); /* truncated */
    cr_assert_not(hudi_utf8_valid(U8("\x80")));       /* lone continuation */
    cr_assert_eq(hudi_utf8_seq_len((const uint8_t *)"\xe2\x82\xac!", 4), 3);
    cr_assert_eq(hudi_utf8_seq_len((const uint8_t *)"\xe2\x82", 2), 0);
}

Test(utf8, encode_decode_round_trip) {
    const uint32_t cps[] = {0,      0x41,   0x7f,   0x80,    0x7ff,   0x800,
                            0xd7ff, 0xe000, 0xffff, 0x10000, 0x10ffff};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(cps); i++) {
        uint8_t u[4];
        size_t n = hudi_utf8_encode(cps[i], u);
        cr_assert_eq(n, cps[i] < 0x80 ? 1u : cps[i] < 0x800 ? 2u : cps[i] < 0x10000 ? 3u : 4u);
        cr_assert(hudi_utf8_valid(u, n), "U+%04x", cps[i]);
        cr_assert_eq(hudi_utf8_decode(u, n), (int32_t)cps[i]);
    }
    cr_assert_eq(hudi_utf8_decode((const uint8_t *)"\xe2\x41\x41", 3), -1);
    hudi_buf b = HUDI_BUF_INIT;
    hudi_buf_put_utf8(&b, 0x20ac);
    hudi_buf_put_utf8(&b, 'x');
    cr_assert_str_eq(b.data, "\xe2\x82\xacx");
    hudi_buf_dispose(&b);
}

static int decode(const char *s, hudi_buf *b, hudi_error *err) {
    b->len = 0;
    return hudi_base64_decode(b, s, strlen(s), err);
}

Test(base64, strict_decoding) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(decode("Zm9vYmFy", &b, &err), 0);
    cr_assert_str_eq(b.data, "foobar");
    cr_assert_eq(decode("Zm8=", &b, &err), 0);
    cr_assert_str_eq(b.data, "fo");
    cr_assert_eq(decode("Zg==", &b, &err), 0);
    cr_assert_str_eq(b.data, "f");
    cr_assert_eq(decode("Zm9vYg", &b, &err), 0); /* padding is optional */
    cr_assert_str_eq(b.data, "foob");
    cr_assert_eq(decode("", &b, &err), 0);
    cr_assert_eq(b.len, 0);
    cr_assert_eq(decode("Z", &b, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "base64: bad length 1");
    cr_assert_eq(decode("Zm=8", &b, &err), HUDI_ECORRUPT); /* '=' only at the end */
    cr_assert_str_eq(err.message, "base64: bad character 0x3d at 2");
    cr_assert_eq(decode("Zm9==", &b, &err), HUDI_ECORRUPT);
    cr_assert_eq(decode("Zm-_", &b, &err), HUDI_ECORRUPT); /* URL alphabet is not standard */
    cr_assert_eq(decode("Zm9v\nYmFy", &b, NULL), HUDI_ECORRUPT);
    hudi_buf_dispose(&b);
}

/* byte_at decodes one byte where decode gives it; past the end or on a bad character, -1 */
Test(base64, byte_at_and_length) {
    static const char *const texts[] = {"Zm9vYmFy", "Zm8=", "Zg==", "Zm9vYg", "Zm9vYmE", ""};
    for (size_t t = 0; t < HUDI_ARRAY_LEN(texts); t++) {
        hudi_buf b = HUDI_BUF_INIT;
        size_t len = strlen(texts[t]);
        cr_assert_eq(decode(texts[t], &b, NULL), 0);
        cr_expect_eq(hudi_base64_decoded_len(texts[t], len), (int64_t)b.len, "%s", texts[t]);
        for (size_t i = 0; i < b.len; i++)
            cr_expect_eq(hudi_base64_byte_at(texts[t], len, i), (uint8_t)b.data[i], "%s[%zu]",
                         texts[t], i);
        cr_expect_eq(hudi_base64_byte_at(texts[t], len, b.len), -1);
        hudi_buf_dispose(&b);
    }
    cr_expect_eq(hudi_base64_decoded_len("Z", 1), -1);
    cr_expect_eq(hudi_base64_byte_at("Zm!v", 4, 0), 0x66); /* its quad's first two are fine */
    cr_expect_eq(hudi_base64_byte_at("Zm!v", 4, 1), -1);
    cr_expect_eq(hudi_base64_byte_at("Zm!v", 4, 2), -1);
}

Test(big_endian, loads_and_stores) {
    uint8_t p[4];
    hudi_store_u32be(p, 0x01020304u);
    cr_assert(p[0] == 1 && p[1] == 2 && p[2] == 3 && p[3] == 4);
    cr_assert_eq(hudi_load_u32be(p), 0x01020304u);
    const uint8_t neg[] = {0xff, 0x85}; /* -123 */
    cr_assert(hudi_load_i128be(neg, 2) == -123);
    const uint8_t pos[] = {0x00, 0x85};
    cr_assert(hudi_load_i128be(pos, 2) == 133);
    cr_assert(hudi_load_i128be(neg, 0) == 0);
    __int128 big = -((__int128)1 << 100) + 12345;
    uint8_t o[16];
    hudi_store_i128be(o, big, 16);
    cr_assert(hudi_load_i128be(o, 16) == big);
    hudi_store_i128be(o, -2, 3);
    cr_assert(o[0] == 0xff && o[1] == 0xff && o[2] == 0xfe);
    cr_assert(hudi_load_i128be(o, 3) == -2);
}
