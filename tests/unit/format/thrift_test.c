/* thrift_test.c - the Thrift compact-protocol codec: primitives, the worked examples of
 * docs/formats/thrift.md §7 and §8 byte for byte, and malformed inputs. */
#include <criterion/criterion.h>
#include <limits.h>
#include <string.h>

#include "format/parquet/meta.h"
#include "format/thrift/compact.h"

#define RD(r, ...)                                                                                 \
    static const uint8_t r##_bytes[] = {__VA_ARGS__};                                              \
    hudi_thrift_reader r;                                                                          \
    hudi_thrift_reader_init(&r, HUDI_SLICE(r##_bytes, sizeof(r##_bytes)), NULL)

static void expect_bytes(const hudi_buf *b, const uint8_t *want, size_t n) {
    cr_assert_eq(b->len, n, "length %zu, want %zu", b->len, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq((uint8_t)b->data[i], want[i], "byte %zu: %02x, want %02x", i,
                     (uint8_t)b->data[i], want[i]);
}

Test(thrift, varint_examples) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    hudi_thrift_write_varint(&w, 300);
    hudi_thrift_write_varint(&w, 50399);
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);
    expect_bytes(&b, (const uint8_t[]){0xAC, 0x02, 0xDF, 0x89, 0x03}, 5);
    hudi_thrift_reader r;
    hudi_thrift_reader_init(&r, HUDI_SLICE(b.data, b.len), NULL);
    cr_assert_eq(hudi_thrift_read_varint(&r), 300);
    cr_assert_eq(hudi_thrift_read_varint(&r), 50399);
    cr_assert(hudi_thrift_ok(&r));
    cr_assert_eq(hudi_thrift_reader_left(&r), 0);
    hudi_buf_dispose(&b);
}

Test(thrift, zigzag_small_values) {
    /* 0->0, -1->1, 1->2, -2->3, 2->4 (thrift.md §1) */
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    int32_t v[] = {0, -1, 1, -2, 2};
    for (int i = 0; i < 5; i++) hudi_thrift_write_i32(&w, v[i]);
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);
    expect_bytes(&b, (const uint8_t[]){0, 1, 2, 3, 4}, 5);
    hudi_buf_dispose(&b);
}

Test(thrift, primitive_round_trips) {
    static const int16_t i16s[] = {0, 1, -1, 63, -64, 64, INT16_MAX, INT16_MIN};
    static const int32_t i32s[] = {0, 1, -1, 1000000, -1000000, INT32_MAX, INT32_MIN};
    static const int64_t i64s[] = {0,         1,        -1, (int64_t)1 << 40, -((int64_t)1 << 40),
                                   INT64_MAX, INT64_MIN};
    static const double dbls[] = {0.0, -0.0, 1.5, -3.25e300, 1e-310};
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(i16s); i++) hudi_thrift_write_i16(&w, i16s[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(i32s); i++) hudi_thrift_write_i32(&w, i32s[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(i64s); i++) hudi_thrift_write_i64(&w, i64s[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(dbls); i++) hudi_thrift_write_double(&w, dbls[i]);
    hudi_thrift_write_i8(&w, -128);
    hudi_thrift_write_binary(&w, hudi_slice_cstr("hello"));
    hudi_thrift_write_binary(&w, HUDI_SLICE("", 0));
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);

    hudi_thrift_reader r;
    hudi_thrift_reader_init(&r, HUDI_SLICE(b.data, b.len), NULL);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(i16s); i++)
        cr_assert_eq(hudi_thrift_read_i16(&r), i16s[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(i32s); i++)
        cr_assert_eq(hudi_thrift_read_i32(&r), i32s[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(i64s); i++)
        cr_assert_eq(hudi_thrift_read_i64(&r), i64s[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(dbls); i++) {
        double d = hudi_thrift_read_double(&r);
        cr_assert_eq(memcmp(&d, &dbls[i], 8), 0);
    }
    cr_assert_eq(hudi_thrift_read_i8(&r), -128);
    cr_assert(hudi_slice_eq(hudi_thrift_read_binary(&r), hudi_slice_cstr("hello")));
    cr_assert_eq(hudi_thrift_read_binary(&r).len, 0);
    cr_assert(hudi_thrift_ok(&r));
    cr_assert_eq(hudi_thrift_reader_left(&r), 0);
    hudi_buf_dispose(&b);
}

Test(thrift, double_is_little_endian) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    hudi_thrift_write_double(&w, 1.0);
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);
    expect_bytes(&b, (const uint8_t[]){0, 0, 0, 0, 0, 0, 0xF0, 0x3F}, 8);
    hudi_buf_dispose(&b);
}

Test(thrift, field_headers_short_and_long_forms) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    hudi_thrift_write_struct_begin(&w);
    hudi_thrift_write_field_i32(&w, 1, 7);       /* delta 1: 15 0E */
    hudi_thrift_write_field_bool(&w, 16, true);  /* delta 15: F1 */
    hudi_thrift_write_field_bool(&w, 32, false); /* delta 16: long form 02 40 */
    hudi_thrift_write_field_i64(&w, 3, -1);      /* backwards: long form 06 06 01 */
    hudi_thrift_write_field_binary(&w, 32767, hudi_slice_cstr("x")); /* 08 FE FF 03 01 78 */
    hudi_thrift_write_struct_end(&w);
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);
    static const uint8_t want[] = {0x15, 0x0E, 0xF1, 0x02, 0x40, 0x06, 0x06, 0x01,
                                   0x08, 0xFE, 0xFF, 0x03, 0x01, 'x',  0x00};
    expect_bytes(&b, want, sizeof(want));

    hudi_thrift_reader r;
    hudi_thrift_field f;
    hudi_thrift_reader_init(&r, HUDI_SLICE(b.data, b.len), NULL);
    hudi_thrift_struct_begin(&r);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert(f.id == 1 && f.type == HUDI_THRIFT_I32);
    cr_assert_eq(hudi_thrift_read_i32(&r), 7);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert(f.id == 16 && f.type == HUDI_THRIFT_TRUE);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert(f.id == 32 && f.type == HUDI_THRIFT_FALSE);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert(f.id == 3 && f.type == HUDI_THRIFT_I64);
    cr_assert_eq(hudi_thrift_read_i64(&r), -1);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert(f.id == 32767 && f.type == HUDI_THRIFT_BINARY);
    hudi_thrift_skip(&r, f.type);
    cr_assert_not(hudi_thrift_read_field(&r, &f));
    hudi_thrift_struct_end(&r);
    cr_assert(hudi_thrift_ok(&r));
    cr_assert_eq(hudi_thrift_reader_left(&r), 0);
    hudi_buf_dispose(&b);
}

Test(thrift, documented_extension_header_reads_as_negative_id) {
    /* BinaryProtocolExtensions.md prints field 32767 as 08 FF FF 01 (not zigzag); a zigzag
     * reader sees id -16384 and skips the binary (thrift.md §3). */
    RD(r, 0x08, 0xFF, 0xFF, 0x01, 0x01, 'x', 0x00);
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&r);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert_eq(f.id, -16384);
    cr_assert_eq(f.type, HUDI_THRIFT_BINARY);
    hudi_thrift_skip(&r, f.type);
    cr_assert_not(hudi_thrift_read_field(&r, &f));
    cr_assert(hudi_thrift_ok(&r));
}

Test(thrift, nested_structs_keep_their_own_field_ids) {
    /* field 5 struct { field 1 } then field 6: the outer delta continues from 5. */
    RD(r, 0x5C, 0x15, 0x02, 0x00, 0x15, 0x04, 0x00);
    hudi_thrift_field f;
    hudi_thrift_struct_begin(&r);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert_eq(f.id, 5);
    hudi_thrift_struct_begin(&r);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert_eq(f.id, 1);
    cr_assert_eq(hudi_thrift_read_i32(&r), 1);
    cr_assert_not(hudi_thrift_read_field(&r, &f));
    hudi_thrift_struct_end(&r);
    cr_assert(hudi_thrift_read_field(&r, &f));
    cr_assert_eq(f.id, 6);
    cr_assert_eq(hudi_thrift_read_i32(&r), 2);
    cr_assert_not(hudi_thrift_read_field(&r, &f));
    hudi_thrift_struct_end(&r);
    cr_assert(hudi_thrift_ok(&r));
}

Test(thrift, list_headers) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    hudi_thrift_write_list(&w, HUDI_THRIFT_I32, 3);
    hudi_thrift_write_list(&w, HUDI_THRIFT_STRUCT, 14);
    hudi_thrift_write_list(&w, HUDI_THRIFT_BINARY, 15);
    hudi_thrift_write_list(&w, HUDI_THRIFT_I64, 300);
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);
    expect_bytes(&b, (const uint8_t[]){0x35, 0xEC, 0xF8, 0x0F, 0xF6, 0xAC, 0x02}, 7);
    hudi_buf_dispose(&b);

    /* 00 = empty list of no type; F5 03 = long form with a small count. */
    RD(r, 0x00, 0xF5, 0x03, 0x02, 0x04, 0x06);
    uint8_t et;
    uint32_t n;
    cr_assert(hudi_thrift_read_list(&r, &et, &n));
    cr_assert_eq(n, 0);
    cr_assert(hudi_thrift_read_list(&r, &et, &n));
    cr_assert(n == 3 && et == HUDI_THRIFT_I32);
    for (int i = 1; i <= 3; i++) cr_assert_eq(hudi_thrift_read_i32(&r), i);
    cr_assert(hudi_thrift_ok(&r));
}

Test(thrift, bool_list_elements) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_thrift_writer_init(&w, &b);
    hudi_thrift_write_list(&w, HUDI_THRIFT_TRUE, 3);
    hudi_thrift_write_bool_elem(&w, false);
    hudi_thrift_write_bool_elem(&w, true);
    hudi_thrift_write_bool_elem(&w, false);
    cr_assert_eq(hudi_thrift_writer_finish(&w, NULL), 0);
    expect_bytes(&b, (const uint8_t[]){0x31, 0x02, 0x01, 0x02},
                 4); /* like parquet-mr (thrift.md §4) */
    hudi_buf_dispose(&b);

    RD(r, 0x32, 0x01, 0x00, 0x02, 0x03);
    uint8_t et;
    uint32_t n;
    cr_assert(hudi_thrift_read_list(&r, &et, &n));
    cr_assert(n == 3 && et == HUDI_THRIFT_FALSE);
    cr_assert(hudi_thrift_read_bool_elem(&r));
    cr_assert_not(hudi_thrift_read_bool_elem(&r)); /* 0 = false, as the Thrift doc says */
    cr_assert_not(hudi_thrift_read_bool_elem(&r));
    cr_assert(hudi_thrift_ok(&r));
    (void)hudi_thrift_read_bool_elem(&r); /* 3 is corrupt */
    cr_assert_eq(r.rc, HUDI_ECORRUPT);
}

Test(thrift, skip_every_type) {
    /* A struct holding one field of each type, then i32 field 20 = 9 to prove the skip
     * landed on the right byte. */
    static const uint8_t in[] = {
        0x11,                                              /* 1: true */
        0x12,                                              /* 2: false */
        0x13, 0xFF,                                        /* 3: i8 */
        0x14, 0x03,                                        /* 4: i16 */
        0x15, 0x80, 0x01,                                  /* 5: i32 */
        0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F,                /* 6: i64 */
        0x17, 1,    2,    3,    4,    5,    6,    7,    8, /* 7: double */
        0x18, 0x02, 'h',  'i',                             /* 8: binary */
        0x19, 0x21, 0x01, 0x02,                            /* 9: list<bool> of 2 */
        0x1A, 0x28, 0x01, 'a',  0x00,                      /* 10: set<binary> of 2 */
        0x1B, 0x02, 0x85, 0x01, 'k',  0x04, 0x00, 0x06,    /* 11: map<binary,i32> of 2 */
        0x1B, 0x00,                                        /* 12: empty map */
        0x1C, 0x15, 0x02, 0x1C, 0x00, 0x00,                /* 13: struct { i32, struct {} } */
        0x1D, 0,    1,    2,    3,    4,    5,    6,    7,
        8,    9,    10,   11,   12,   13,   14,   15, /* 14: uuid */
        0x19, 0x1D, 0,    1,    2,    3,    4,    5,    6,
        7,    8,    9,    10,   11,   12,   13,   14,   15, /* 15: list<uuid> */
        0x19, 0x19, 0x15, 0x02,                             /* 16: list<list<i32>> */
        0x45, 0x12,                                         /* 20: i32 9 */
        0x00};
    hudi_thrift_reader r;
    hudi_thrift_field f;
    hudi_thrift_reader_init(&r, HUDI_SLICE(in, sizeof(in)), NULL);
    hudi_thrift_struct_begin(&r);
    int seen = 0;
    while (hudi_thrift_read_field(&r, &f)) {
        if (f.id == 20) {
            cr_assert_eq(hudi_thrift_read_i32(&r), 9);
            seen++;
        } else {
            hudi_thrift_skip(&r, f.type);
        }
    }
    hudi_thrift_struct_end(&r);
    cr_assert(hudi_thrift_ok(&r), "%s", "skip failed");
    cr_assert_eq(seen, 1);
    cr_assert_eq(hudi_thrift_reader_left(&r), 0);

    /* Skipping the whole thing as one struct value gives the same end. */
    hudi_thrift_reader_init(&r, HUDI_SLICE(in, sizeof(in)), NULL);
    hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
    cr_assert(hudi_thrift_ok(&r));
    cr_assert_eq(hudi_thrift_reader_left(&r), 0);
}

Test(thrift, stop_nibble_with_upper_bits_is_stop) {
    RD(r, 0x10);
    hudi_thrift_field f;
    cr_assert_not(hudi_thrift_read_field(&r, &f));
    cr_assert(hudi_thrift_ok(&r));
}

/* ---- malformed input -------------------------------------------------------------------- */

Test(thrift, overlong_varint_is_corrupt) {
    RD(r, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
    (void)hudi_thrift_read_varint(&r);
    cr_assert_eq(r.rc, HUDI_ECORRUPT);
    /* 10 bytes whose last byte sets bits above 63 */
    RD(r2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02);
    (void)hudi_thrift_read_varint(&r2);
    cr_assert_eq(r2.rc, HUDI_ECORRUPT);
    /* ... but UINT64_MAX in 10 bytes is fine */
    RD(r3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01);
    cr_assert_eq(hudi_thrift_read_varint(&r3), UINT64_MAX);
    cr_assert(hudi_thrift_ok(&r3));
}

Test(thrift, out_of_range_i32_and_i16) {
    RD(r, 0x80, 0x80, 0x80, 0x80, 0x10); /* 2^32 */
    (void)hudi_thrift_read_i32(&r);
    cr_assert_eq(r.rc, HUDI_ECORRUPT);
    RD(r2, 0x80, 0x80, 0x04); /* 65536 */
    (void)hudi_thrift_read_i16(&r2);
    cr_assert_eq(r2.rc, HUDI_ECORRUPT);
}

Test(thrift, errors_are_sticky) {
    hudi_error err = HUDI_ERROR_INIT;
    static const uint8_t in[] = {0x80};
    hudi_thrift_reader r;
    hudi_thrift_reader_init(&r, HUDI_SLICE(in, 1), &err);
    (void)hudi_thrift_read_varint(&r);
    cr_assert_eq(r.rc, HUDI_ECORRUPT);
    cr_assert_eq(err.code, HUDI_ECORRUPT);
    cr_assert(strstr(err.message, "truncated"), "%s", err.message);
    char first[sizeof(err.message)];
    memcpy(first, err.message, sizeof(first));
    cr_assert_eq(hudi_thrift_read_i32(&r), 0);
    cr_assert_eq(hudi_thrift_read_binary(&r).len, 0);
    hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
    cr_assert_str_eq(err.message, first); /* the first error is kept */
}

Test(thrift, truncated_everywhere) {
    /* Every proper prefix of a valid struct fails cleanly, never reads past the end. */
    static const uint8_t in[] = {0x15, 0x00, 0x15, 0x80, 0xA0, 0x01, 0x18, 0x03, 'a',
                                 'b',  'c',  0x19, 0x25, 0x02, 0x04, 0x1C, 0x17, 1,
                                 2,    3,    4,    5,    6,    7,    8,    0x00, 0x00};
    for (size_t n = 0; n < sizeof(in); n++) {
        uint8_t *copy = malloc(n ? n : 1); /* exact-size heap copy so ASan sees overreads */
        memcpy(copy, in, n);
        hudi_thrift_reader r;
        hudi_thrift_reader_init(&r, HUDI_SLICE(copy, n), NULL);
        hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
        cr_assert_eq(r.rc, HUDI_ECORRUPT, "prefix %zu accepted", n);
        free(copy);
    }
    hudi_thrift_reader r;
    hudi_thrift_reader_init(&r, HUDI_SLICE(in, sizeof(in)), NULL);
    hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
    cr_assert(hudi_thrift_ok(&r));
}

Test(thrift, huge_counts_are_rejected_before_allocating) {
    RD(r, 0xF5, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x02); /* list<i32> of 2^31-1 */
    uint8_t et;
    uint32_t n;
    cr_assert_not(hudi_thrift_read_list(&r, &et, &n));
    cr_assert_eq(r.rc, HUDI_ECORRUPT);
    RD(r2, 0xF7, 0x02, 1, 2, 3, 4, 5, 6, 7, 8, 9); /* list<double> of 2 needs 16 bytes */
    cr_assert_not(hudi_thrift_read_list(&r2, &et, &n));
    RD(r3, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'); /* binary of 4 GiB */
    (void)hudi_thrift_read_binary(&r3);
    cr_assert_eq(r3.rc, HUDI_ECORRUPT);
    RD(r4, 0x1B, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x55, 0x00); /* field map of 2^32 entries */
    hudi_thrift_field f;
    cr_assert(hudi_thrift_read_field(&r4, &f));
    hudi_thrift_skip(&r4, f.type);
    cr_assert_eq(r4.rc, HUDI_ECORRUPT);
    RD(r5, 0x1E); /* field type 14 does not exist */
    cr_assert_not(hudi_thrift_read_field(&r5, &f));
    cr_assert_eq(r5.rc, HUDI_ECORRUPT);
    RD(r6, 0x3E, 0x01, 0x02, 0x03); /* list element type 14 */
    cr_assert_not(hudi_thrift_read_list(&r6, &et, &n));
}

Test(thrift, deep_nesting_is_limited) {
    /* 100 nested structs (field 1 of type struct, each), then 100 stops. */
    uint8_t in[200];
    memset(in, 0x1C, 100);
    memset(in + 100, 0x00, 100);
    hudi_thrift_reader r;
    hudi_thrift_reader_init(&r, HUDI_SLICE(in, sizeof(in)), NULL);
    hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
    cr_assert_eq(r.rc, HUDI_ECORRUPT);

    /* 40 is fine. */
    memset(in, 0x1C, 40);
    memset(in + 40, 0x00, 41);
    hudi_thrift_reader_init(&r, HUDI_SLICE(in, 81), NULL);
    hudi_thrift_skip(&r, HUDI_THRIFT_STRUCT);
    cr_assert(hudi_thrift_ok(&r));
    cr_assert_eq(hudi_thrift_reader_left(&r), 0);

    /* Lists of lists count too: 1000 x "list<list> of 1". */
    uint8_t lists[1001];
    memset(lists, 0x19, 1000);
    lists[1000] = 0x00;
    hudi_thrift_reader_init(&r, HUDI_SLICE(lists, sizeof(lists)), NULL);
    hudi_thrift_skip(&r, HUDI_THRIFT_LIST);
    cr_assert_eq(r.rc, HUDI_ECORRUPT);
}

Test(thrift, writer_reports_unbalanced_and_too_deep) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_thrift_writer w;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_thrift_writer_init(&w, &b);
    hudi_thrift_write_struct_begin(&w);
    cr_assert_eq(hudi_thrift_writer_finish(&w, &err), HUDI_EINVAL);
    hudi_thrift_writer_init(&w, &b);
    for (int i = 0; i < HUDI_THRIFT_MAX_DEPTH + 1; i++) hudi_thrift_write_struct_begin(&w);
    cr_assert_eq(hudi_thrift_writer_finish(&w, &err), HUDI_EINVAL);
    hudi_buf_dispose(&b);
}

/* ---- worked examples (thrift.md §7, §8) ----------------------------------------------------- */

static const uint8_t page_header_bytes[] = {
    0x15, 0x00, 0x15, 0x80, 0xA0, 0x01, 0x15, 0x80, 0xA0, 0x01, 0x15, 0xC5, 0x91, 0x8E,
    0xC3, 0x08, 0x1C, 0x15, 0x80, 0x28, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00};

Test(thrift, worked_example_data_page_header) {
    hudi_arena arena = HUDI_ARENA_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    pq_page_header h;
    size_t used = 0;
    /* Payload bytes follow the header, as in the file. */
    uint8_t in[sizeof(page_header_bytes) + 4];
    memcpy(in, page_header_bytes, sizeof(page_header_bytes));
    memcpy(in + sizeof(page_header_bytes), "\x00\x01\x02\x03", 4);
    cr_assert_eq(hudi_pq_decode_page_header(&h, &arena, HUDI_SLICE(in, sizeof(in)), &used, &err), 0,
                 "%s", err.message);
    cr_assert_eq(used, sizeof(page_header_bytes));
    cr_assert_eq(h.type, PQ_PAGE_DATA);
    cr_assert_eq(h.uncompressed_page_size, 10240);
    cr_assert_eq(h.compressed_page_size, 10240);
    cr_assert(h.has_crc);
    cr_assert_eq(h.crc, -1144112227);
    cr_assert_eq((uint32_t)h.crc, 3150855069u);
    cr_assert(h.has_data_page_header);
    cr_assert_not(h.has_dictionary_page_header || h.has_data_page_header_v2);
    cr_assert_eq(h.data_page_header.num_values, 2560);
    cr_assert_eq(h.data_page_header.encoding, PQ_ENC_PLAIN);
    cr_assert_eq(h.data_page_header.definition_level_encoding, PQ_ENC_RLE);
    cr_assert_eq(h.data_page_header.repetition_level_encoding, PQ_ENC_RLE);
    cr_assert_not(h.data_page_header.has_statistics);

    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_encode_page_header(&b, &h, &err), 0);
    expect_bytes(&b, page_header_bytes, sizeof(page_header_bytes));
    hudi_buf_dispose(&b);
    hudi_arena_dispose(&arena);
}

static const uint8_t bloom_header_bytes[] = {0x15, 0x80, 0x10, 0x1C, 0x1C, 0x00, 0x00, 0x1C,
                                             0x1C, 0x00, 0x00, 0x1C, 0x1C, 0x00, 0x00, 0x00};

Test(thrift, worked_example_bloom_header) {
    hudi_error err = HUDI_ERROR_INIT;
    pq_bloom_header h;
    size_t used = 0;
    cr_assert_eq(hudi_pq_decode_bloom_header(&h, HUDI_SLICE(bloom_header_bytes, 16), &used, &err),
                 0, "%s", err.message);
    cr_assert_eq(used, 16);
    cr_assert_eq(h.num_bytes, 1024);
    cr_assert_eq(h.algorithm, 1);
    cr_assert_eq(h.hash, 1);
    cr_assert_eq(h.compression, 1);
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_encode_bloom_header(&b, &h, &err), 0);
    expect_bytes(&b, bloom_header_bytes, 16);
    hudi_buf_dispose(&b);
}

Test(thrift, page_header_prefixes_fail_cleanly) {
    hudi_arena arena = HUDI_ARENA_INIT;
    for (size_t n = 0; n < sizeof(page_header_bytes); n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, page_header_bytes, n);
        pq_page_header h;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_pq_decode_page_header(&h, &arena, HUDI_SLICE(copy, n), NULL, &err),
                     HUDI_ECORRUPT, "prefix %zu", n);
        cr_assert_neq(err.message[0], '\0');
        free(copy);
    }
    hudi_arena_dispose(&arena);
}
