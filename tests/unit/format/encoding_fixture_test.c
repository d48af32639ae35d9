/* encoding_fixture_test.c - DELTA_BINARY_PACKED against a real writer: the 66 columns of
 * parquet-testing's delta_binary_packed.parquet (parquet-mr 1.10, bit widths 0..64 plus an
 * INT32 column, one uncompressed DATA_PAGE_V2 each) decode to delta_binary_packed_expect.csv,
 * and hudic's encoder produces sections of exactly parquet-mr's size.
 *
 * The pages are walked with a minimal Thrift compact skipper so the test depends only on
 * encoding.h, not on the page reader. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/parquet/encoding.h"
#include "format/parquet/meta.h"
#include "support.h"

typedef struct cur {
    const uint8_t *p, *end;
} cur;

static uint64_t varint(cur *c) {
    uint64_t v = 0;
    for (int s = 0; c->p < c->end; s += 7) {
        uint8_t b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) break;
    }
    return v;
}
static int64_t zz(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

static void skip_struct(cur *c, int64_t *ints, int n_ints, int64_t *v2_ints);

static void skip_value(cur *c, int t) {
    switch (t) {
    case 1:
    case 2: break;
    case 3: c->p++; break;
    case 4:
    case 5:
    case 6: varint(c); break;
    case 7: c->p += 8; break;
    case 8: c->p += varint(c); break;
    case 9:
    case 10: {
        uint8_t b = *c->p++;
        uint64_t n = b >> 4;
        if (n == 15) n = varint(c);
        for (uint64_t i = 0; i < n; i++) skip_value(c, b & 15);
        break;
    }
    case 12: skip_struct(c, NULL, 0, NULL); break;
    default: cr_assert_fail("thrift type %d", t);
    }
}

/* Reads a struct; integer fields 1..n_ints land in ints[], and the integer fields of the
 * nested struct 8 (DataPageHeaderV2) in v2_ints[]. */
static void skip_struct(cur *c, int64_t *ints, int n_ints, int64_t *v2_ints) {
    int fid = 0;
    for (;;) {
        uint8_t b = *c->p++;
        if (b == 0) return;
        int t = b & 15;
        fid = (b >> 4) ? fid + (b >> 4) : (int)zz(varint(c));
        if (t >= 4 && t <= 6 && fid <= n_ints)
            ints[fid] = zz(varint(c));
        else if (t == 12 && fid == 8 && v2_ints)
            skip_struct(c, v2_ints, 7, NULL);
        else
            skip_value(c, t);
    }
}

Test(encoding_fixture, delta_binary_packed_parquet_mr) {
    size_t flen;
    uint8_t *file =
        test_read_file(fixture_path("parquet-testing/data/delta_binary_packed.parquet"), &flen);
    cr_assert_not_null(file);
    FILE *f = fopen(fixture_path("parquet-testing/data/delta_binary_packed_expect.csv"), "r");
    cr_assert_not_null(f);
    static int64_t want[200][66];
    static char line[8192];
    cr_assert_not_null(fgets(line, sizeof(line), f));
    for (int r = 0; r < 200; r++) {
        cr_assert_not_null(fgets(line, sizeof(line), f));
        char *s = line;
        for (int c = 0; c < 66; c++, s++) want[r][c] = strtoll(s, &s, 10);
    }
    fclose(f);

    cur c = {file + 4, file + flen - 8 - hudi_load_u32le(file + flen - 8)};
    for (int col = 0; col < 66; col++) {
        int64_t h[4] = {0}, v2[8] = {0};
        skip_struct(&c, h, 3, v2);
        cr_assert_eq(h[1], 3, "DATA_PAGE_V2");
        cr_assert_eq(v2[1], 200, "one page of 200 values per column");
        cr_assert_eq(v2[4], PQ_ENC_DELTA_BINARY_PACKED);
        const uint8_t *sec = c.p + v2[5] + v2[6];
        size_t len = (size_t)(h[3] - v2[5] - v2[6]);
        c.p += h[3];
        bool is32 = col == 65;
        int64_t out[200];
        int32_t out32[200];
        pq_delta_decoder d;
        hudi_error err = HUDI_ERROR_INIT;
        cr_assert_eq(hudi_pq_delta_init(&d, sec, len, is32, &err), 0, "%s", err.message);
        if (is32)
            cr_assert_eq(hudi_pq_delta_next_i32(&d, out32, 200, &err), 0, "%s", err.message);
        else
            cr_assert_eq(hudi_pq_delta_next_i64(&d, out, 200, &err), 0, "%s", err.message);
        for (int r = 0; r < 200; r++)
            cr_assert_eq(is32 ? out32[r] : out[r], want[r][col], "column %d row %d", col, r);
        size_t sl;
        cr_assert_eq(hudi_pq_delta_stream_len(sec, len, is32, &sl, &err), 0, "%s", err.message);
        cr_assert_eq(sl, len, "column %d: the stream fills the section", col);
        /* Same block layout as parquet-mr: identical sizes (bytes differ only in unused
         * miniblock widths and padding bits, which are arbitrary). */
        hudi_buf b = HUDI_BUF_INIT;
        if (is32)
            hudi_pq_delta_encode_i32(&b, out32, 200);
        else
            hudi_pq_delta_encode_i64(&b, out, 200);
        cr_assert_eq(b.len, len, "column %d: encoded size", col);
        hudi_buf_dispose(&b);
    }
    free(file);
}
