/* encoding_test.c - Parquet encodings (src/format/parquet/encoding.h): the worked byte examples
 * of docs/formats/parquet.md §2.2-2.8 byte for byte, encode/decode round trips on random data
 * against simple reference implementations, edge sizes, wrapping deltas, and malformed inputs. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "format/parquet/encoding.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static hudi_error E; /* last error of calls expected to succeed */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { /* xorshift64*: deterministic across runs */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}
/* A random batch size in [1, max], capped at `left`. */
static int64_t batch(int64_t left, int64_t max) {
    int64_t k = (int64_t)(rnd() % (uint64_t)max) + 1;
    return k < left ? k : left;
}
static uint64_t mask_of(int w) { return w == 64 ? ~0ull : ((1ull << w) - 1); }

static void assert_buf(const hudi_buf *b, const uint8_t *want, size_t n) {
    cr_assert_eq(b->len, n, "length %zu, want %zu", b->len, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq((uint8_t)b->data[i], want[i], "byte %zu: %02x, want %02x", i,
                     (uint8_t)b->data[i], want[i]);
}

/* Reference LSB-first bit reader, one bit at a time. */
static uint64_t ref_get(const uint8_t *in, uint64_t bit, int w) {
    uint64_t v = 0;
    for (int k = 0; k < w; k++) v |= (uint64_t)((in[(bit + k) >> 3] >> ((bit + k) & 7)) & 1) << k;
    return v;
}

typedef struct bytes_sink {
    pq_bytes_out out;
    int32_t *offsets;
} bytes_sink;

static void sink_init(bytes_sink *s, int64_t max_values) {
    memset(s, 0, sizeof(*s));
    s->offsets = calloc((size_t)max_values + 1, sizeof(int32_t));
    s->out.offsets = s->offsets;
}
static void sink_free(bytes_sink *s) {
    free(s->offsets);
    hudi_free(s->out.data);
}
static bool sink_eq(const bytes_sink *s, int64_t i, const void *v, size_t len) {
    int32_t a = s->offsets[i], b = s->offsets[i + 1];
    return (size_t)(b - a) == len && (len == 0 || memcmp(s->out.data + a, v, len) == 0);
}

/* ---- bit packing ---------------------------------------------------------------------------- */

Test(bitpack, spec_example_0_to_7_width_3) {
    uint32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, back[8];
    uint8_t out[3];
    hudi_pq_pack_u32(v, 8, 3, out);
    cr_assert(out[0] == 0x88 && out[1] == 0xC6 && out[2] == 0xFA);
    hudi_pq_unpack_u32(out, 3, back, 8, 3);
    cr_assert_arr_eq(back, v, sizeof(v));
}

Test(bitpack, all_widths_match_reference) {
    for (int w = 0; w <= 64; w++) {
        for (int64_t n = 0; n <= 200; n += (n < 70 ? 1 : 37)) {
            size_t bytes = (size_t)((n * w + 7) / 8);
            uint64_t *v = malloc((size_t)(n + 1) * 8), *back = malloc((size_t)(n + 1) * 8);
            uint8_t *packed = malloc(bytes + 1);
            for (int64_t i = 0; i < n; i++) v[i] = rnd() & mask_of(w);
            hudi_pq_pack_u64(v, n, w, packed);
            for (int64_t i = 0; i < n; i++)
                cr_assert_eq(ref_get(packed, (uint64_t)(i * w), w), v[i], "w=%d n=%lld i=%lld", w,
                             (long long)n, (long long)i);
            /* An exact-size heap copy lets ASan catch any over-read. */
            uint8_t *exact = malloc(bytes ? bytes : 1);
            memcpy(exact, packed, bytes);
            hudi_pq_unpack_u64(exact, bytes, back, n, w);
            for (int64_t i = 0; i < n; i++)
                cr_assert_eq(back[i], v[i], "w=%d i=%lld", w, (long long)i);
            if (w <= 32) {
                uint32_t *v32 = malloc((size_t)(n + 1) * 4), *b32 = malloc((size_t)(n + 1) * 4);
                for (int64_t i = 0; i < n; i++) v32[i] = (uint32_t)v[i];
                hudi_pq_pack_u32(v32, n, w, packed);
                cr_assert(bytes == 0 || memcmp(packed, exact, bytes) == 0, "w=%d", w);
                hudi_pq_unpack_u32(exact, bytes, b32, n, w);
                for (int64_t i = 0; i < n; i++) cr_assert_eq(b32[i], v32[i]);
                free(v32);
                free(b32);
            }
            free(exact);
            free(v);
            free(back);
            free(packed);
        }
    }
}

Test(bitpack, copy_and_fill_bits) {
    uint8_t src[16], dst[16], ref[16];
    for (int t = 0; t < 500; t++) {
        for (int i = 0; i < 16; i++) src[i] = (uint8_t)rnd(), dst[i] = ref[i] = (uint8_t)rnd();
        int64_t sb = (int64_t)(rnd() % 40), db = (int64_t)(rnd() % 40), n = (int64_t)(rnd() % 80);
        hudi_pq_copy_bits(dst, db, src, sb, n);
        for (int64_t i = 0; i < n; i++) {
            int bit = (src[(sb + i) >> 3] >> ((sb + i) & 7)) & 1;
            ref[(db + i) >> 3] =
                (uint8_t)((ref[(db + i) >> 3] & ~(1 << ((db + i) & 7))) | (bit << ((db + i) & 7)));
        }
        cr_assert_arr_eq(dst, ref, 16, "sb=%lld db=%lld n=%lld", (long long)sb, (long long)db,
                         (long long)n);
        bool v = rnd() & 1;
        hudi_pq_fill_bits(dst, db, n, v);
        for (int64_t i = 0; i < n; i++)
            ref[(db + i) >> 3] = (uint8_t)((ref[(db + i) >> 3] & ~(1 << ((db + i) & 7))) |
                                           ((int)v << ((db + i) & 7)));
        cr_assert_arr_eq(dst, ref, 16);
    }
}

/* ---- RLE / bit-packed hybrid: worked examples -------------------------------------------------
 */

Test(rle, spec_v1_def_levels_one_rle_run) {
    const uint8_t page[] = {0x02, 0x00, 0x00, 0x00, 0x10, 0x01};
    const uint8_t *runs;
    size_t runs_len, consumed;
    cr_assert_eq(hudi_pq_rle_parse_prefix(page, sizeof(page), &runs, &runs_len, &consumed, &E), 0,
                 "%s", E.message);
    cr_assert(runs_len == 2 && consumed == 6 && runs == page + 4);
    pq_rle_decoder d;
    int16_t lv[8];
    cr_assert_eq(hudi_pq_rle_init(&d, runs, runs_len, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_i16(&d, lv, 8, &E), 0, "%s", E.message);
    for (int i = 0; i < 8; i++) cr_assert_eq(lv[i], 1);
    /* The fast path sees one run of max_def. */
    cr_assert_eq(hudi_pq_rle_init(&d, runs, runs_len, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 8, 0, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 9, 1, &E), 0, "%s", E.message); /* only 8 present */
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 8, 1, NULL), 1);
    /* And the encoder writes exactly these bytes. */
    hudi_buf b = HUDI_BUF_INIT;
    int16_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    cr_assert_eq(hudi_pq_rle_encode_i16(&b, ones, 8, 1, true), 0);
    assert_buf(&b, page, sizeof(page));
    hudi_buf_dispose(&b);
}

Test(rle, spec_packed_run_width_1) {
    const uint8_t s[] = {0x03, 0x4D};
    const int16_t want[8] = {1, 0, 1, 1, 0, 0, 1, 0};
    pq_rle_decoder d;
    int16_t lv[8];
    cr_assert_eq(hudi_pq_rle_init(&d, s, sizeof(s), 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_i16(&d, lv, 8, &E), 0, "%s", E.message);
    cr_assert_arr_eq(lv, want, sizeof(want));
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_rle_encode_i16(&b, want, 8, 1, false), 0);
    assert_buf(&b, s, sizeof(s));
    /* Same bytes as RLE booleans (bitmap output). */
    uint8_t bits = 0xff;
    cr_assert_eq(hudi_pq_rle_init(&d, s, sizeof(s), 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_bool(&d, &bits, 0, 8, &E), 0, "%s", E.message);
    cr_assert_eq(bits, 0x4D);
    hudi_buf_dispose(&b);
}

Test(rle, spec_dictionary_indices) {
    const uint8_t page[] = {0x02, 0x03, 0x64, 0x00};
    pq_rle_decoder d;
    uint32_t idx[4];
    cr_assert_eq(hudi_pq_rle_init_dict(&d, page, sizeof(page), &E), 0, "%s", E.message);
    cr_assert_eq(d.bit_width, 2);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, idx, 4, &E), 0, "%s", E.message);
    cr_assert(idx[0] == 0 && idx[1] == 1 && idx[2] == 2 && idx[3] == 1);
    /* Gather from a 3-entry INT32 dictionary. */
    const int32_t dv[3] = {100, -7, 42};
    pq_dict dict = {.n = 3, .width = 4, .values = (const uint8_t *)dv};
    int32_t out[4];
    cr_assert_eq(hudi_pq_rle_init_dict(&d, page, sizeof(page), &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_gather_fixed(&d, &dict, 4, (uint8_t *)out, &E), 0, "%s", E.message);
    cr_assert(out[0] == 100 && out[1] == -7 && out[2] == 42 && out[3] == -7);
    /* Gather from a byte-array dictionary. */
    const int32_t offs[4] = {0, 3, 3, 8};
    pq_dict sd = {.n = 3, .offsets = offs, .data = (const uint8_t *)"fooquick"};
    bytes_sink s;
    sink_init(&s, 4);
    cr_assert_eq(hudi_pq_rle_init_dict(&d, page, sizeof(page), &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_gather_bytes(&d, &sd, 4, &s.out, &E), 0, "%s", E.message);
    cr_assert(s.out.count == 4 && s.out.data_len == 3 + 0 + 5 + 0);
    cr_assert(sink_eq(&s, 0, "foo", 3) && sink_eq(&s, 1, "", 0) && sink_eq(&s, 2, "quick", 5) &&
              sink_eq(&s, 3, "", 0));
    sink_free(&s);
}

Test(rle, spec_bit_packed_msb_first) {
    const uint8_t s[] = {0x05, 0x39, 0x77};
    int16_t v[8];
    cr_assert_eq(pq_bitpacked_size(8, 3), 3);
    cr_assert_eq(hudi_pq_bitpacked_decode_i16(s, 3, 3, 0, 8, v, &E), 0, "%s", E.message);
    for (int i = 0; i < 8; i++) cr_assert_eq(v[i], i);
    cr_assert_eq(hudi_pq_bitpacked_decode_i16(s, 3, 3, 5, 3, v, &E), 0, "%s", E.message);
    cr_assert(v[0] == 5 && v[1] == 6 && v[2] == 7);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_bitpacked_decode_i16(s, 3, 3, 5, 4, v, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_bitpacked_decode_i16(s, 3, 16, 0, 1, v, &err), HUDI_ECORRUPT);
    /* Width 0: no bytes at all, every level 0. */
    cr_assert_eq(hudi_pq_bitpacked_decode_i16(s, 0, 0, 3, 8, v, &E), 0, "%s", E.message);
    for (int i = 0; i < 8; i++) cr_assert_eq(v[i], 0);
}

/* ---- RLE: round trips ----------------------------------------------------------------------- */

/* Random values with a mix of long runs and noise. */
static void fill_levels(uint32_t *v, int64_t n, int w) {
    uint64_t m = mask_of(w);
    for (int64_t i = 0; i < n;) {
        int64_t run = (rnd() % 3 == 0) ? (int64_t)(rnd() % 40) + 1 : 1;
        uint32_t x = (uint32_t)(rnd() & m);
        for (int64_t j = 0; j < run && i < n; j++, i++)
            v[i] = (rnd() % 4 == 0 && run == 1) ? (uint32_t)(rnd() & m) : x;
    }
}

Test(rle, round_trip_all_widths_and_sizes) {
    const int64_t sizes[] = {0, 1, 7, 8, 9, 16, 31, 32, 33, 63, 64, 100, 128, 129, 1000, 2003};
    for (int w = 0; w <= 32; w++) {
        for (size_t si = 0; si < HUDI_ARRAY_LEN(sizes); si++) {
            int64_t n = sizes[si];
            uint32_t *v = malloc((size_t)(n + 1) * 4), *back = malloc((size_t)(n + 1) * 4);
            fill_levels(v, n, w);
            hudi_buf b = HUDI_BUF_INIT;
            cr_assert_eq(hudi_pq_rle_encode_u32(&b, v, n, w), 0);
            /* Exact-size copy so ASan sees over-reads. */
            uint8_t *enc = malloc(b.len ? b.len : 1);
            if (b.len) memcpy(enc, b.data, b.len);
            pq_rle_decoder d;
            cr_assert_eq(hudi_pq_rle_init(&d, enc, b.len, w, &E), 0, "%s", E.message);
            /* Decode in random batch sizes. */
            for (int64_t i = 0; i < n;) {
                int64_t k = batch(n - i, 100);
                if (rnd() % 5 == 0) k = HUDI_MIN(n - i, 64);
                cr_assert_eq(hudi_pq_rle_next_u32(&d, back + i, k, NULL), 0, "w=%d n=%lld", w,
                             (long long)n);
                i += k;
            }
            for (int64_t i = 0; i < n; i++)
                cr_assert_eq(back[i], v[i], "w=%d n=%lld i=%lld", w, (long long)n, (long long)i);
            if (w <= 15) {
                int16_t *lv = malloc((size_t)(n + 1) * 2), *lb = malloc((size_t)(n + 1) * 2);
                for (int64_t i = 0; i < n; i++) lv[i] = (int16_t)v[i];
                hudi_buf b2 = HUDI_BUF_INIT;
                cr_assert_eq(hudi_pq_rle_encode_i16(&b2, lv, n, w, true), 0);
                const uint8_t *runs;
                size_t rl, used;
                cr_assert_eq(
                    hudi_pq_rle_parse_prefix((uint8_t *)b2.data, b2.len, &runs, &rl, &used, &E), 0,
                    "%s", E.message);
                cr_assert_eq(used, b2.len);
                cr_assert(rl == b.len && (rl == 0 || memcmp(runs, b.data, rl) == 0),
                          "i16 and u32 encoders agree");
                cr_assert_eq(hudi_pq_rle_init(&d, runs, rl, w, &E), 0, "%s", E.message);
                cr_assert_eq(hudi_pq_rle_next_i16(&d, lb, n, &E), 0, "%s", E.message);
                cr_assert_arr_eq(lb, lv, (size_t)n * 2);
                free(lv);
                free(lb);
                hudi_buf_dispose(&b2);
            }
            free(enc);
            free(v);
            free(back);
            hudi_buf_dispose(&b);
        }
    }
}

Test(rle, encoder_pads_last_group_and_uses_rle_for_repeats) {
    /* 3 literals then 20 sevens: literals are topped up to 8 with sevens, then RLE(15). */
    uint32_t v[23] = {1, 2, 3};
    for (int i = 3; i < 23; i++) v[i] = 7;
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_rle_encode_u32(&b, v, 23, 3), 0);
    /* 03: one group; 1,2,3,7,7,7,7,7 packed in 3 bytes; 1E: RLE 15; 07 value. */
    uint8_t packed[3];
    uint32_t g[8] = {1, 2, 3, 7, 7, 7, 7, 7};
    hudi_pq_pack_u32(g, 8, 3, packed);
    const uint8_t want[] = {0x03, packed[0], packed[1], packed[2], 0x1E, 0x07};
    assert_buf(&b, want, sizeof(want));
    /* 5 values: one padded group. */
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_pq_rle_encode_u32(&b, v, 5, 3), 0);
    cr_assert_eq(b.len, 1 + 3);
    cr_assert_eq((uint8_t)b.data[0], 0x03);
    /* Long literal stretches split at 63 groups (one-byte headers). */
    uint32_t *inc = malloc(1000 * 4);
    for (int i = 0; i < 1000; i++) inc[i] = (uint32_t)i;
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_pq_rle_encode_u32(&b, inc, 1000, 10), 0);
    cr_assert_eq((uint8_t)b.data[0], (63 << 1) | 1);
    free(inc);
    hudi_buf_dispose(&b);
}

Test(rle, width_zero) {
    /* Polars: width 0, one RLE run of 5 with no value bytes. */
    const uint8_t s[] = {0x0A};
    pq_rle_decoder d;
    uint32_t v[5] = {9, 9, 9, 9, 9};
    cr_assert_eq(hudi_pq_rle_init(&d, s, 1, 0, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 5, &E), 0, "%s", E.message);
    for (int i = 0; i < 5; i++) cr_assert_eq(v[i], 0);
    /* A width-0 packed run carries no bytes either. */
    const uint8_t p[] = {0x03};
    cr_assert_eq(hudi_pq_rle_init(&d, p, 1, 0, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 5, &E), 0, "%s", E.message);
    hudi_buf b = HUDI_BUF_INIT;
    uint32_t z[20] = {0};
    cr_assert_eq(hudi_pq_rle_encode_u32(&b, z, 20, 0), 0);
    const uint8_t want[] = {0x28};
    assert_buf(&b, want, 1);
    hudi_buf_dispose(&b);
}

Test(rle, booleans_round_trip_at_bit_offsets) {
    for (int64_t n = 0; n < 300; n += 7) {
        uint8_t bits[64], back[64];
        for (int i = 0; i < 64; i++) bits[i] = (uint8_t)((rnd() % 3) ? 0xff : rnd());
        int64_t off = (int64_t)(rnd() % 9);
        hudi_buf b = HUDI_BUF_INIT;
        cr_assert_eq(hudi_pq_rle_encode_bool(&b, bits, off, n, true), 0);
        const uint8_t *runs;
        size_t rl, used;
        cr_assert_eq(hudi_pq_rle_parse_prefix((uint8_t *)b.data, b.len, &runs, &rl, &used, &E), 0,
                     "%s", E.message);
        pq_rle_decoder d;
        cr_assert_eq(hudi_pq_rle_init(&d, runs, rl, 1, &E), 0, "%s", E.message);
        memset(back, 0xA5, sizeof(back));
        int64_t out_off = (int64_t)(rnd() % 13);
        for (int64_t i = 0; i < n;) {
            int64_t k = batch(n - i, 40);
            cr_assert_eq(hudi_pq_rle_next_bool(&d, back, out_off + i, k, &E), 0, "%s", E.message);
            i += k;
        }
        for (int64_t i = 0; i < n; i++)
            cr_assert_eq((back[(out_off + i) >> 3] >> ((out_off + i) & 7)) & 1,
                         (bits[(off + i) >> 3] >> ((off + i) & 7)) & 1, "n=%lld i=%lld",
                         (long long)n, (long long)i);
        /* Bits before the output range are untouched. */
        for (int64_t i = 0; i < out_off; i++)
            cr_assert_eq((back[i >> 3] >> (i & 7)) & 1, (0xA5 >> (i & 7)) & 1);
        hudi_buf_dispose(&b);
    }
}

Test(rle, skip_and_consume_run) {
    uint32_t v[600];
    for (int i = 0; i < 600; i++) v[i] = i < 300 ? 3 : (uint32_t)(i % 4);
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_rle_encode_u32(&b, v, 600, 2), 0);
    pq_rle_decoder d;
    uint32_t got[600];
    cr_assert_eq(hudi_pq_rle_init(&d, (uint8_t *)b.data, b.len, 2, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 100, 3, NULL), 1);
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 201, 3, &E), 0, "%s",
                 E.message); /* crosses into packed data */
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 200, 3, NULL), 1);
    cr_assert_eq(hudi_pq_rle_skip(&d, 37, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, got, 263, &E), 0, "%s", E.message);
    for (int i = 0; i < 263; i++) cr_assert_eq(got[i], v[337 + i]);
    /* 300 packed values end with 4 padding values, then the stream ends. */
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_rle_next_u32(&d, got, 4, &err), 0);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, got, 1, &err), HUDI_ECORRUPT);
    /* Two adjacent RLE runs of the same value count as one run. */
    const uint8_t two[] = {0x08, 0x01, 0x08, 0x01};
    cr_assert_eq(hudi_pq_rle_init(&d, two, 4, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 8, 1, NULL), 1);
    /* Skip across packed groups. */
    cr_assert_eq(hudi_pq_rle_init(&d, (uint8_t *)b.data, b.len, 2, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_skip(&d, 333, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_skip(&d, 200, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, got, 67, &E), 0, "%s", E.message);
    for (int i = 0; i < 67; i++) cr_assert_eq(got[i], v[533 + i]);
    hudi_buf_dispose(&b);
}

Test(rle, unpadded_final_group_still_decodes) {
    /* Polars once wrote the last group short: header says 1 group (8 values) of width 3, but
     * only 2 bytes follow (5 whole values). Reading <= 5 values must work. */
    const uint8_t s[] = {0x03, 0x88, 0xC6};
    pq_rle_decoder d;
    uint32_t v[8];
    cr_assert_eq(hudi_pq_rle_init(&d, s, 3, 3, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 5, &E), 0, "%s", E.message);
    for (int i = 0; i < 5; i++) cr_assert_eq(v[i], (uint32_t)i);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 1, &err), HUDI_ECORRUPT);
}

Test(rle, dictionary_gather_random) {
    for (int w = 1; w <= 12; w++) {
        int64_t dn = (int64_t)(1u << w) - (int64_t)(rnd() % (1u << (w - 1))), n = 3000;
        int64_t *dict_vals = malloc((size_t)dn * 8);
        for (int64_t i = 0; i < dn; i++) dict_vals[i] = (int64_t)rnd();
        uint32_t *idx = malloc((size_t)n * 4);
        fill_levels(idx, n, w);
        for (int64_t i = 0; i < n; i++) idx[i] %= (uint32_t)dn;
        hudi_buf b = HUDI_BUF_INIT;
        hudi_pq_write_uleb(&b, (uint64_t)w); /* the bit-width byte */
        cr_assert_eq(hudi_pq_rle_encode_u32(&b, idx, n, w), 0);
        pq_rle_decoder d;
        /* widths 8, 4 (low halves), 12 (generic path), strings. */
        pq_dict d8 = {.n = dn, .width = 8, .values = (const uint8_t *)dict_vals};
        int64_t *o8 = malloc((size_t)n * 8);
        cr_assert_eq(hudi_pq_rle_init_dict(&d, (uint8_t *)b.data, b.len, &E), 0, "%s", E.message);
        cr_assert_eq(hudi_pq_rle_gather_fixed(&d, &d8, n, (uint8_t *)o8, &E), 0, "%s", E.message);
        for (int64_t i = 0; i < n; i++) cr_assert_eq(o8[i], dict_vals[idx[i]]);
        uint8_t *d12 = malloc((size_t)dn * 12), *o12 = malloc((size_t)n * 12);
        for (int64_t i = 0; i < dn * 12; i++) d12[i] = (uint8_t)rnd();
        pq_dict dd12 = {.n = dn, .width = 12, .values = d12};
        cr_assert_eq(hudi_pq_rle_init_dict(&d, (uint8_t *)b.data, b.len, &E), 0, "%s", E.message);
        cr_assert_eq(hudi_pq_rle_gather_fixed(&d, &dd12, n, o12, &E), 0, "%s", E.message);
        for (int64_t i = 0; i < n; i++)
            cr_assert_eq(memcmp(o12 + i * 12, d12 + idx[i] * 12, 12), 0);
        int32_t *offs = malloc((size_t)(dn + 1) * 4);
        offs[0] = 0;
        for (int64_t i = 0; i < dn; i++) offs[i + 1] = offs[i] + (int32_t)(i % 5);
        pq_dict ds = {.n = dn, .offsets = offs, .data = d12};
        bytes_sink s;
        sink_init(&s, n);
        cr_assert_eq(hudi_pq_rle_init_dict(&d, (uint8_t *)b.data, b.len, &E), 0, "%s", E.message);
        cr_assert_eq(hudi_pq_rle_gather_bytes(&d, &ds, n / 2, &s.out, &E), 0, "%s", E.message);
        cr_assert_eq(hudi_pq_rle_gather_bytes(&d, &ds, n - n / 2, &s.out, &E), 0, "%s", E.message);
        cr_assert_eq(s.out.count, n);
        for (int64_t i = 0; i < n; i++)
            cr_assert(sink_eq(&s, i, d12 + offs[idx[i]], (size_t)(idx[i] % 5)));
        sink_free(&s);
        free(offs);
        free(d12);
        free(o12);
        free(o8);
        free(idx);
        free(dict_vals);
        hudi_buf_dispose(&b);
    }
}

/* ---- RLE: malformed input ------------------------------------------------------------------- */

Test(rle, malformed_inputs_fail_cleanly) {
    pq_rle_decoder d;
    uint32_t v[64];
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_rle_init(&d, NULL, 0, 33, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "bit width 33 > 32");
    const uint8_t wide[] = {54, 0x02, 0x00};
    cr_assert_eq(hudi_pq_rle_init_dict(&d, wide, 3, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "bit width 54 > 32");
    cr_assert_eq(hudi_pq_rle_init_dict(&d, wide, 0, &err), HUDI_ECORRUPT);
    /* Count-0 runs must not loop. */
    const uint8_t zero_rle[] = {0x00, 0x01, 0x00, 0x01};
    cr_assert_eq(hudi_pq_rle_init(&d, zero_rle, 4, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 1, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "RLE run with count 0");
    const uint8_t zero_packed[] = {0x01, 0x01};
    cr_assert_eq(hudi_pq_rle_init(&d, zero_packed, 2, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 1, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_rle_init(&d, zero_packed, 2, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_skip(&d, 1, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_rle_consume_run(&d, 1, 0, &E), 0, "%s", E.message);
    /* Truncated RLE value, truncated packed run, header too long, stream too short. */
    const uint8_t trunc_val[] = {0x10, 0x01};
    cr_assert_eq(hudi_pq_rle_init(&d, trunc_val, 2, 9, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 1, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "RLE run overruns page");
    const uint8_t trunc_packed[] = {0x03};
    cr_assert_eq(hudi_pq_rle_init(&d, trunc_packed, 1, 3, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 8, &err), HUDI_ECORRUPT);
    const uint8_t long_hdr[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00};
    cr_assert_eq(hudi_pq_rle_init(&d, long_hdr, 7, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 1, &err), HUDI_ECORRUPT);
    const uint8_t short_run[] = {0x04, 0x01};
    cr_assert_eq(hudi_pq_rle_init(&d, short_run, 2, 1, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 3, &err), HUDI_ECORRUPT);
    /* RLE value wider than the bit width. */
    const uint8_t big_val[] = {0x02, 0x05};
    cr_assert_eq(hudi_pq_rle_init(&d, big_val, 2, 2, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_next_u32(&d, v, 1, &err), HUDI_ECORRUPT);
    /* Dictionary index out of range, in a run and in packed data. */
    const uint8_t idx_run[] = {0x02, 0x04, 0x03};
    int32_t dv[3] = {1, 2, 3}, o[4];
    pq_dict dict = {.n = 3, .width = 4, .values = (const uint8_t *)dv};
    cr_assert_eq(hudi_pq_rle_init_dict(&d, idx_run, 3, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_gather_fixed(&d, &dict, 2, (uint8_t *)o, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "dictionary index 3 >= dictionary size 3");
    const uint8_t idx_packed[] = {0x02, 0x03, 0xE4, 0x00};
    cr_assert_eq(hudi_pq_rle_init_dict(&d, idx_packed, 4, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_rle_gather_fixed(&d, &dict, 4, (uint8_t *)o, &err), HUDI_ECORRUPT);
    /* Length prefix longer than the page. */
    const uint8_t pre[] = {0x09, 0, 0, 0, 0x10, 0x01};
    const uint8_t *runs;
    size_t rl;
    cr_assert_eq(hudi_pq_rle_parse_prefix(pre, 6, &runs, &rl, NULL, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_rle_parse_prefix(pre, 3, &runs, &rl, NULL, &err), HUDI_ECORRUPT);
    /* Level widths above 15 are not levels. */
    cr_assert_eq(hudi_pq_rle_init(&d, trunc_val, 2, 16, &E), 0, "%s", E.message);
    int16_t lv[1];
    cr_assert_eq(hudi_pq_rle_next_i16(&d, lv, 1, &err), HUDI_ECORRUPT);
}

/* ---- PLAIN ---------------------------------------------------------------------------------- */

Test(plain, fixed_widths_and_int96_passthrough) {
    const uint8_t int96[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                             13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
    uint8_t out[24];
    size_t used;
    cr_assert_eq(hudi_pq_plain_decode_fixed(int96, 24, 12, 2, out, &used, &E), 0, "%s", E.message);
    cr_assert(used == 24 && memcmp(out, int96, 24) == 0);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_plain_decode_fixed(int96, 23, 12, 2, out, &used, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_plain_decode_fixed(int96, 24, 0, 2, out, &used, &err), HUDI_ECORRUPT);
    int64_t vals[3] = {INT64_MIN, -1, 42}, back[3];
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_plain_encode_fixed(&b, vals, 8, 3), 0);
    const uint8_t want0[] = {0, 0, 0, 0, 0, 0, 0, 0x80};
    cr_assert_eq(memcmp(b.data, want0, 8), 0);
    cr_assert_eq(
        hudi_pq_plain_decode_fixed((uint8_t *)b.data, b.len, 8, 3, (uint8_t *)back, NULL, &E), 0,
        "%s", E.message);
    cr_assert_arr_eq(back, vals, sizeof(vals));
    hudi_buf_dispose(&b);
}

Test(plain, booleans) {
    const uint8_t page[] = {0x4D, 0x01};
    uint8_t out[2] = {0, 0};
    cr_assert_eq(hudi_pq_plain_decode_bool(page, 2, 0, 9, out, 0, &E), 0, "%s", E.message);
    cr_assert(out[0] == 0x4D && out[1] == 0x01);
    out[0] = 0xff;
    cr_assert_eq(hudi_pq_plain_decode_bool(page, 2, 2, 3, out, 4, &E), 0, "%s",
                 E.message); /* 1,1,0 */
    cr_assert_eq(out[0], 0xBF);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_plain_decode_bool(page, 2, 10, 7, out, 0, &err), HUDI_ECORRUPT);
    hudi_buf b = HUDI_BUF_INIT;
    const uint8_t bits[] = {0x9A, 0x02}; /* shifted by 1: 1,0,1,1,0,0,1,0,1 */
    cr_assert_eq(hudi_pq_plain_encode_bool(&b, bits, 1, 9), 0);
    const uint8_t want[] = {0x4D, 0x01};
    assert_buf(&b, want, 2);
    hudi_buf_dispose(&b);
}

Test(plain, byte_arrays) {
    const uint8_t page[] = {3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 2, 0, 0, 0, 'x', 'y', 0xEE};
    bytes_sink s;
    sink_init(&s, 3);
    size_t used;
    cr_assert_eq(hudi_pq_plain_decode_bytes(page, sizeof(page), 3, &s.out, &used, &E), 0, "%s",
                 E.message);
    cr_assert_eq(used, 17);
    cr_assert(sink_eq(&s, 0, "abc", 3) && sink_eq(&s, 1, "", 0) && sink_eq(&s, 2, "xy", 2));
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_plain_encode_bytes(&b, s.offsets, s.out.data, 3), 0);
    assert_buf(&b, page, 17);
    hudi_error err = HUDI_ERROR_INIT;
    /* Decoding writes offsets as it goes: the sink has room for 3 values, so start it over. */
    s.out.count = 0;
    s.out.data_len = 0;
    cr_assert_eq(hudi_pq_plain_decode_bytes(page, 16, 3, &s.out, &used, &err), HUDI_ECORRUPT);
    cr_assert_eq(s.out.count, 0);
    cr_assert_eq(s.out.data_len, 0); /* a failure leaves the output as it was */
    cr_assert_eq(hudi_pq_plain_decode_bytes(page, 9, 3, &s.out, &used, &err), HUDI_ECORRUPT);
    const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 1};
    cr_assert_eq(hudi_pq_plain_decode_bytes(huge, 5, 1, &s.out, &used, &err), HUDI_ECORRUPT);
    hudi_buf_dispose(&b);
    sink_free(&s);
}

Test(plain, offsets_overflow_is_an_error) {
    pq_bytes_out o = {0};
    o.data_len = INT32_MAX - 5;
    o.data_cap =
        (int64_t)INT32_MAX + PQ_BYTES_PAD; /* pretend the room exists: nothing is allocated */
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_bytes_reserve(&o, 10, &err), HUDI_ENOMEM);
    cr_assert_str_eq(err.message, "byte array data exceeds 2 GiB in one batch");
    cr_assert_eq(hudi_pq_bytes_reserve(&o, 5, &err), 0); /* exactly INT32_MAX bytes still fit */
    cr_assert_eq(hudi_pq_bytes_reserve(&o, -1, &err), HUDI_ENOMEM);
}

/* ---- DELTA_BINARY_PACKED -------------------------------------------------------------------- */

Test(delta, spec_examples_with_block_128) {
    /* 1,2,3,4,5: header 128,4,5,zigzag(1); min_delta 1; widths 0; no data. */
    const int64_t v1[] = {1, 2, 3, 4, 5};
    const uint8_t e1[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0};
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_delta_encode_i64(&b, v1, 5), 0);
    assert_buf(&b, e1, sizeof(e1));
    /* 7,5,3,1,2,3,4,5: min -2, relative 0,0,0,3,3,3,3 in width 2. */
    const int32_t v2[] = {7, 5, 3, 1, 2, 3, 4, 5};
    const uint8_t e2[] = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0, 0,
                          0,    0xC0, 0x3F, 0,    0,    0,    0,    0, 0};
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_pq_delta_encode_i32(&b, v2, 8), 0);
    assert_buf(&b, e2, sizeof(e2));
    pq_delta_decoder d;
    int32_t o2[8];
    size_t len;
    cr_assert_eq(hudi_pq_delta_init(&d, e2, sizeof(e2), true, &E), 0, "%s", E.message);
    cr_assert_eq(pq_delta_total(&d), 8);
    cr_assert_eq(hudi_pq_delta_next_i32(&d, o2, 8, &E), 0, "%s", E.message);
    cr_assert_arr_eq(o2, v2, sizeof(v2));
    cr_assert_eq(hudi_pq_delta_stream_len(e2, sizeof(e2), true, &len, &E), 0, "%s", E.message);
    cr_assert_eq(len, sizeof(e2));
    int64_t o1[5];
    cr_assert_eq(hudi_pq_delta_init(&d, e1, sizeof(e1), false, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i64(&d, o1, 5, &E), 0, "%s", E.message);
    cr_assert_arr_eq(o1, v1, sizeof(v1));
    hudi_buf_dispose(&b);
}

Test(delta, header_only_for_zero_and_one_values) {
    hudi_buf b = HUDI_BUF_INIT;
    const int64_t one = -3;
    cr_assert_eq(hudi_pq_delta_encode_i64(&b, &one, 1), 0);
    const uint8_t e[] = {0x80, 0x01, 0x04, 0x01, 0x05};
    assert_buf(&b, e, sizeof(e));
    pq_delta_decoder d;
    int64_t o = 0;
    cr_assert_eq(hudi_pq_delta_init(&d, e, sizeof(e), false, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i64(&d, &o, 1, &E), 0, "%s", E.message);
    cr_assert_eq(o, -3);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_delta_next_i64(&d, &o, 1, &err), HUDI_ECORRUPT);
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_pq_delta_encode_i64(&b, NULL, 0), 0);
    cr_assert_eq(b.len, 5); /* 80 01 04 00 00 */
    size_t len;
    cr_assert_eq(hudi_pq_delta_stream_len((uint8_t *)b.data, b.len, false, &len, &E), 0, "%s",
                 E.message);
    cr_assert_eq(len, 5);
    hudi_buf_dispose(&b);
}

/* Values whose deltas need up to `w` bits. */
static void fill_deltas(int64_t *v, int64_t n, int w) {
    uint64_t x = rnd();
    for (int64_t i = 0; i < n; i++) {
        v[i] = (int64_t)x;
        x += (rnd() & mask_of(w)) - (w == 64 ? 0 : (mask_of(w) >> 1));
    }
}

static void check_i64_round_trip(const int64_t *v, int64_t n) {
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_delta_encode_i64(&b, v, n), 0);
    hudi_buf_append(&b, "TAIL", 4); /* DLBA-style trailing data */
    uint8_t *enc = malloc(b.len);
    memcpy(enc, b.data, b.len);
    size_t len;
    cr_assert_eq(hudi_pq_delta_stream_len(enc, b.len, false, &len, &E), 0, "%s", E.message);
    cr_assert_eq(len, b.len - 4, "n=%lld", (long long)n);
    pq_delta_decoder d;
    int64_t *back = malloc((size_t)(n + 1) * 8);
    cr_assert_eq(hudi_pq_delta_init(&d, enc, len, false, &E), 0, "%s", E.message);
    for (int64_t i = 0; i < n;) {
        int64_t k = batch(n - i, 150);
        cr_assert_eq(hudi_pq_delta_next_i64(&d, back + i, k, &E), 0, "%s", E.message);
        i += k;
    }
    for (int64_t i = 0; i < n; i++)
        cr_assert_eq(back[i], v[i], "n=%lld i=%lld", (long long)n, (long long)i);
    free(back);
    free(enc);
    hudi_buf_dispose(&b);
}

Test(delta, round_trip_int64_all_widths) {
    const int64_t sizes[] = {0, 1, 2, 8, 31, 32, 33, 127, 128, 129, 130, 257, 1000};
    int64_t *v = malloc(1000 * 8);
    for (int w = 0; w <= 64; w++)
        for (size_t si = 0; si < HUDI_ARRAY_LEN(sizes); si++) {
            fill_deltas(v, sizes[si], w);
            check_i64_round_trip(v, sizes[si]);
        }
    free(v);
}

Test(delta, wrapping_extremes) {
    int64_t v[300];
    for (int i = 0; i < 300; i++) v[i] = (i & 1) ? INT64_MAX : INT64_MIN;
    check_i64_round_trip(v, 300);
    for (int i = 0; i < 300; i++) v[i] = (i % 3 == 0) ? INT64_MIN : (i % 3 == 1) ? 0 : INT64_MAX;
    check_i64_round_trip(v, 300);
    int32_t w[300], back[300];
    for (int i = 0; i < 300; i++) w[i] = (i & 1) ? INT32_MAX : INT32_MIN;
    w[7] = 0;
    w[100] = -1;
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_delta_encode_i32(&b, w, 300), 0);
    pq_delta_decoder d;
    cr_assert_eq(hudi_pq_delta_init(&d, (uint8_t *)b.data, b.len, true, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i32(&d, back, 300, &E), 0, "%s", E.message);
    cr_assert_arr_eq(back, w, sizeof(w));
    /* Every INT32 miniblock stays within 32 bits. */
    size_t len;
    cr_assert_eq(hudi_pq_delta_stream_len((uint8_t *)b.data, b.len, true, &len, &E), 0, "%s",
                 E.message);
    hudi_buf_dispose(&b);
}

Test(delta, round_trip_int32_random) {
    int32_t v[2000], back[2000];
    for (int w = 0; w <= 32; w += 4) {
        for (int i = 0; i < 2000; i++)
            v[i] = (int32_t)(rnd() & mask_of(w ? w : 1)) * (i % 2 ? 1 : -1);
        for (int64_t n = 0; n <= 2000; n += 333) {
            hudi_buf b = HUDI_BUF_INIT;
            cr_assert_eq(hudi_pq_delta_encode_i32(&b, v, n), 0);
            pq_delta_decoder d;
            cr_assert_eq(hudi_pq_delta_init(&d, (uint8_t *)b.data, b.len, true, &E), 0, "%s",
                         E.message);
            cr_assert_eq(hudi_pq_delta_next_i32(&d, back, n, &E), 0, "%s", E.message);
            cr_assert(n == 0 || memcmp(back, v, (size_t)n * 4) == 0);
            hudi_buf_dispose(&b);
        }
    }
}

Test(delta, malformed_inputs_fail_cleanly) {
    pq_delta_decoder d;
    hudi_error err = HUDI_ERROR_INIT;
    int32_t o[64];
    size_t len;
    const uint8_t bad_block[] = {0x08, 0x01, 0x05, 0x02};
    cr_assert_eq(hudi_pq_delta_init(&d, bad_block, 4, true, &err), HUDI_ECORRUPT);
    const uint8_t bad_minis[] = {0x80, 0x01, 0x03, 0x05, 0x02};
    cr_assert_eq(hudi_pq_delta_init(&d, bad_minis, 5, true, &err), HUDI_ECORRUPT);
    const uint8_t zero_minis[] = {0x80, 0x01, 0x00, 0x05, 0x02};
    cr_assert_eq(hudi_pq_delta_init(&d, zero_minis, 5, true, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_delta_init(&d, bad_block, 2, true, &err), HUDI_ECORRUPT);
    /* Width 33 in an INT32 stream (fine for INT64 as far as widths go, then truncated). */
    const uint8_t w33[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x00, 33, 0, 0, 0};
    cr_assert_eq(hudi_pq_delta_init(&d, w33, sizeof(w33), true, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i32(&d, o, 5, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "DELTA_BINARY_PACKED bit width 33 > 32");
    cr_assert_eq(hudi_pq_delta_stream_len(w33, sizeof(w33), true, &len, &err), HUDI_ECORRUPT);
    int64_t o64[5];
    cr_assert_eq(hudi_pq_delta_init(&d, w33, sizeof(w33), false, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i64(&d, o64, 5, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "DELTA_BINARY_PACKED miniblock overruns page");
    const uint8_t w65[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x00, 65, 0, 0, 0};
    cr_assert_eq(hudi_pq_delta_init(&d, w65, sizeof(w65), false, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i64(&d, o64, 5, &err), HUDI_ECORRUPT);
    /* Missing widths, missing block. */
    const uint8_t no_widths[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x00, 0x00};
    cr_assert_eq(hudi_pq_delta_init(&d, no_widths, sizeof(no_widths), true, &E), 0, "%s",
                 E.message);
    cr_assert_eq(hudi_pq_delta_next_i32(&d, o, 5, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_delta_init(&d, no_widths, 5, true, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i32(&d, o, 1, &E), 0, "%s",
                 E.message); /* the first value is in the header */
    cr_assert_eq(hudi_pq_delta_next_i32(&d, o, 1, &err), HUDI_ECORRUPT);
    /* Asking for more than the header announces. */
    cr_assert_eq(hudi_pq_delta_init(&d, no_widths, 5, true, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_delta_next_i32(&d, o, 6, &err), HUDI_ECORRUPT);
    /* A huge count with no data cannot make stream_len loop. */
    const uint8_t huge[] = {0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                            0xff, 0xff, 0x01, 0x00, 0x00, 0,    0,    0,    0};
    cr_assert_eq(hudi_pq_delta_stream_len(huge, sizeof(huge), false, &len, &err), HUDI_ECORRUPT);
}

/* ---- DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY -------------------------------------------- */

static void strs_to_arrow(const char **s, int n, int32_t *offs, uint8_t *data) {
    offs[0] = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(s[i]);
        memcpy(data + offs[i], s[i], l);
        offs[i + 1] = offs[i] + (int32_t)l;
    }
}

Test(delta, spec_delta_length_byte_array) {
    const char *s[] = {"Hello", "World", "Foobar", "ABCDEF"};
    int32_t offs[5];
    uint8_t data[64];
    strs_to_arrow(s, 4, offs, data);
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_dlba_encode(&b, offs, data, 4), 0);
    /* lengths 5,5,6,6: deltas 0,1,0, min 0, width 1, then the bytes. */
    const uint8_t want[] = {0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0,   0,   0,   0x02, 0,
                            0,    0,    'H',  'e',  'l',  'l',  'o',  'W', 'o', 'r', 'l',  'd',
                            'F',  'o',  'o',  'b',  'a',  'r',  'A',  'B', 'C', 'D', 'E',  'F'};
    assert_buf(&b, want, sizeof(want));
    pq_dlba_decoder d;
    bytes_sink out;
    sink_init(&out, 4);
    cr_assert_eq(hudi_pq_dlba_init(&d, want, sizeof(want), &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dlba_next(&d, 1, &out.out, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dlba_next(&d, 3, &out.out, &E), 0, "%s", E.message);
    for (int i = 0; i < 4; i++) cr_assert(sink_eq(&out, i, s[i], strlen(s[i])));
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_dlba_next(&d, 1, &out.out, &err), HUDI_ECORRUPT);
    /* Data cut short. */
    cr_assert_eq(hudi_pq_dlba_init(&d, want, sizeof(want) - 1, &E), 0, "%s", E.message);
    out.out.count = 0;
    out.out.data_len = 0;
    cr_assert_eq(hudi_pq_dlba_next(&d, 4, &out.out, &err), HUDI_ECORRUPT);
    sink_free(&out);
    hudi_buf_dispose(&b);
}

Test(delta, spec_delta_byte_array) {
    const char *s[] = {"axis", "axle", "babble", "babyhood"};
    int32_t offs[5];
    uint8_t data[64];
    strs_to_arrow(s, 4, offs, data);
    hudi_buf b = HUDI_BUF_INIT, want = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_dba_encode(&b, offs, data, 0, 4), 0);
    const int32_t pre[] = {0, 2, 0, 3}, suf_offs[] = {0, 4, 6, 12, 17};
    cr_assert_eq(hudi_pq_delta_encode_i32(&want, pre, 4), 0);
    cr_assert_eq(hudi_pq_dlba_encode(&want, suf_offs, (const uint8_t *)"axislebabbleyhood", 4), 0);
    assert_buf(&b, (uint8_t *)want.data, want.len);
    pq_dba_decoder d = {0};
    bytes_sink out;
    sink_init(&out, 4);
    cr_assert_eq(hudi_pq_dba_init(&d, (uint8_t *)b.data, b.len, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dba_next(&d, 2, &out.out, &E), 0, "%s", E.message);
    /* The next batch goes to a fresh output: the previous value is carried by the decoder. */
    bytes_sink out2;
    sink_init(&out2, 2);
    cr_assert_eq(hudi_pq_dba_next(&d, 2, &out2.out, &E), 0, "%s", E.message);
    cr_assert(sink_eq(&out, 0, "axis", 4) && sink_eq(&out, 1, "axle", 4));
    cr_assert(sink_eq(&out2, 0, "babble", 6) && sink_eq(&out2, 1, "babyhood", 8));
    /* A new page starts with an empty previous value: prefix 2 on the first value is corrupt. */
    hudi_buf bad = HUDI_BUF_INIT;
    const int32_t bpre[] = {2}, bsuf[] = {0, 1};
    hudi_pq_delta_encode_i32(&bad, bpre, 1);
    hudi_pq_dlba_encode(&bad, bsuf, (const uint8_t *)"x", 1);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_dba_init(&d, (uint8_t *)bad.data, bad.len, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dba_next(&d, 1, &out2.out, &err), HUDI_ECORRUPT);
    cr_assert_str_eq(err.message, "DELTA_BYTE_ARRAY prefix 2 > previous value length 0");
    hudi_pq_dba_dispose(&d);
    sink_free(&out);
    sink_free(&out2);
    hudi_buf_dispose(&b);
    hudi_buf_dispose(&want);
    hudi_buf_dispose(&bad);
}

Test(delta, byte_arrays_round_trip_random) {
    enum { N = 3000 };
    int32_t *offs = malloc((N + 1) * 4);
    uint8_t *data = malloc(N * 40);
    offs[0] = 0;
    for (int i = 0; i < N; i++) {
        int l = (int)(rnd() % 40);
        int keep = i > 0 ? (int)(rnd() % (offs[i] - offs[i - 1] + 1)) : 0;
        keep = HUDI_MIN(keep, l);
        if (i > 0) memcpy(data + offs[i], data + offs[i - 1], (size_t)keep);
        for (int k = keep; k < l; k++) data[offs[i] + k] = (uint8_t)('a' + rnd() % 3);
        offs[i + 1] = offs[i] + l;
    }
    for (int kind = 0; kind < 3; kind++) {
        hudi_buf b = HUDI_BUF_INIT;
        if (kind == 0)
            cr_assert_eq(hudi_pq_dlba_encode(&b, offs, data, N), 0);
        else if (kind == 1)
            cr_assert_eq(hudi_pq_dba_encode(&b, offs, data, 0, N), 0);
        else
            cr_assert_eq(hudi_pq_plain_encode_bytes(&b, offs, data, N), 0);
        uint8_t *enc = malloc(b.len);
        memcpy(enc, b.data, b.len);
        bytes_sink out;
        sink_init(&out, N);
        pq_dlba_decoder dl;
        pq_dba_decoder db = {0};
        size_t pos = 0;
        if (kind == 0) cr_assert_eq(hudi_pq_dlba_init(&dl, enc, b.len, &E), 0, "%s", E.message);
        if (kind == 1) cr_assert_eq(hudi_pq_dba_init(&db, enc, b.len, &E), 0, "%s", E.message);
        for (int64_t i = 0; i < N;) {
            int64_t k = batch(N - i, 700);
            size_t used = 0;
            if (kind == 0)
                cr_assert_eq(hudi_pq_dlba_next(&dl, k, &out.out, &E), 0, "%s", E.message);
            else if (kind == 1)
                cr_assert_eq(hudi_pq_dba_next(&db, k, &out.out, &E), 0, "%s", E.message);
            else
                cr_assert_eq(
                    hudi_pq_plain_decode_bytes(enc + pos, b.len - pos, k, &out.out, &used, &E), 0,
                    "%s", E.message);
            pos += used;
            i += k;
        }
        cr_assert_eq(out.out.count, N);
        cr_assert_arr_eq(out.offsets, offs, (N + 1) * 4, "kind %d", kind);
        cr_assert_eq(memcmp(out.out.data, data, (size_t)offs[N]), 0);
        hudi_pq_dba_dispose(&db);
        sink_free(&out);
        free(enc);
        hudi_buf_dispose(&b);
    }
    free(offs);
    free(data);
}

Test(delta, flba_delta_byte_array) {
    enum { N = 500, W = 16 };
    uint8_t *v = malloc(N * W), *back = malloc(N * W);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < W; k++) v[i * W + k] = (uint8_t)(k < 10 ? (uint64_t)(i / 50) : rnd());
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_dba_encode(&b, NULL, v, W, N), 0);
    pq_dba_decoder d = {0};
    cr_assert_eq(hudi_pq_dba_init(&d, (uint8_t *)b.data, b.len, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dba_next_fixed(&d, 77, W, back, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dba_next_fixed(&d, N - 77, W, back + 77 * W, &E), 0, "%s", E.message);
    cr_assert_eq(memcmp(back, v, N * W), 0);
    /* Wrong width is corrupt. */
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_dba_init(&d, (uint8_t *)b.data, b.len, &E), 0, "%s", E.message);
    cr_assert_eq(hudi_pq_dba_next_fixed(&d, 1, W - 1, back, &err), HUDI_ECORRUPT);
    hudi_pq_dba_dispose(&d);
    free(v);
    free(back);
    hudi_buf_dispose(&b);
}

/* ---- BYTE_STREAM_SPLIT ---------------------------------------------------------------------- */

Test(bss, spec_example_three_floats) {
    const uint8_t vals[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
    const uint8_t enc[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_bss_encode(&b, vals, 4, 3), 0);
    assert_buf(&b, enc, sizeof(enc));
    uint8_t out[12];
    cr_assert_eq(hudi_pq_bss_decode(enc, 12, 4, 0, 3, out, &E), 0, "%s", E.message);
    cr_assert_arr_eq(out, vals, 12);
    cr_assert_eq(hudi_pq_bss_decode(enc, 12, 4, 1, 2, out, &E), 0, "%s", E.message);
    cr_assert_arr_eq(out, vals + 4, 8);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_bss_decode(enc, 11, 4, 0, 2, out, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_bss_decode(enc, 12, 4, 2, 2, out, &err), HUDI_ECORRUPT);
    cr_assert_eq(hudi_pq_bss_decode(enc, 12, 0, 0, 1, out, &err), HUDI_ECORRUPT);
    hudi_buf_dispose(&b);
}

Test(bss, round_trip_widths) {
    for (int w = 1; w <= 17; w++) {
        for (int64_t n = 0; n < 300; n += 37) {
            uint8_t *v = malloc((size_t)(n * w + 1)), *back = malloc((size_t)(n * w + 1));
            for (int64_t i = 0; i < n * w; i++) v[i] = (uint8_t)rnd();
            hudi_buf b = HUDI_BUF_INIT;
            cr_assert_eq(hudi_pq_bss_encode(&b, v, w, n), 0);
            cr_assert_eq(b.len, (size_t)(n * w));
            int64_t first = n ? (int64_t)(rnd() % (uint64_t)n) : 0;
            cr_assert_eq(
                hudi_pq_bss_decode((uint8_t *)b.data, b.len, w, first, n - first, back, &E), 0,
                "%s", E.message);
            cr_assert(n == 0 || memcmp(back, v + first * w, (size_t)((n - first) * w)) == 0, "w=%d",
                      w);
            free(v);
            free(back);
            hudi_buf_dispose(&b);
        }
    }
}
