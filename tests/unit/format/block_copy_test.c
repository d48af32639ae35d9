/* block_copy_test.c - the block-copy paths of the byte-array decoders: dictionary gathers
 * from a padded dictionary (data_pad >= 64, with and without max_len, so every fixed block
 * size 16/32/48/64 and the per-value path run) must produce exactly what the unpadded memcpy
 * path produces, and PLAIN byte arrays must decode the same whether or not a value's blocks
 * reach the end of the page. Lengths cover 0, 1, 15-17, 31-33, 63-65 and beyond. Buffers
 * are exact-size mallocs so ASan catches any over-long copy that leaves them. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "format/parquet/encoding.h"

static uint64_t next_rand(uint64_t *x) {
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

static const size_t lengths[] = {0,  1,  2,  7,  15, 16,  17,  31,  32, 33,
                                 36, 48, 63, 64, 65, 127, 128, 129, 200};

/* A dictionary of n entries with the lengths above, in data of exactly total + pad bytes. */
typedef struct dict_fixture {
    int32_t *offsets;
    uint8_t *data;
    int64_t n;
} dict_fixture;

static dict_fixture make_dict_capped(int64_t n, int32_t pad, size_t cap) {
    dict_fixture d = {malloc(((size_t)n + 1) * sizeof(int32_t)), NULL, n};
    d.offsets[0] = 0;
    for (int64_t i = 0; i < n; i++)
        d.offsets[i + 1] =
            d.offsets[i] + (int32_t)HUDI_MIN(lengths[i % HUDI_ARRAY_LEN(lengths)], cap);
    d.data = malloc((size_t)d.offsets[n] + (size_t)pad + 1);
    for (int32_t i = 0; i < d.offsets[n] + pad; i++) d.data[i] = (uint8_t)(i * 31 + 7);
    return d;
}

static dict_fixture make_dict(int64_t n, int32_t pad) { return make_dict_capped(n, pad, SIZE_MAX); }

/* RLE/bit-packed hybrid indices: a run of 20 x idx0, then bit-packed indices. */
static size_t encode_indices(uint8_t *buf, const uint32_t *idx, int64_t n, int bw) {
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_rle_encode_u32(&b, idx, n, bw), 0);
    memcpy(buf, b.data, b.len);
    size_t len = b.len;
    hudi_buf_dispose(&b);
    return len;
}

static void gather(const dict_fixture *d, int32_t pad, int32_t max_len, const uint8_t *idx_bytes,
                   size_t idx_len, int bw, int64_t n, int32_t **offs_out, uint8_t **data_out,
                   int64_t *len_out) {
    pq_dict dict = {
        .n = d->n, .offsets = d->offsets, .data = d->data, .data_pad = pad, .max_len = max_len};
    pq_rle_decoder dec;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_rle_init(&dec, idx_bytes, idx_len, bw, &err), 0);
    int32_t *offs = calloc((size_t)n + 1, sizeof(int32_t));
    pq_bytes_out o = {offs, NULL, 0, 0, 0, NULL, NULL};
    /* In several calls so output is appended at unaligned positions. */
    for (int64_t done = 0; done < n;) {
        int64_t k = HUDI_MIN(n - done, 1 + done % 97);
        cr_assert_eq(hudi_pq_rle_gather_bytes(&dec, &dict, k, &o, &err), 0, "%s", err.message);
        done += k;
    }
    cr_assert_eq(o.count, n);
    *offs_out = offs;
    *data_out = o.data;
    *len_out = o.data_len;
}

Test(block_copy, padded_dictionary_gather_matches_memcpy_path) {
    const int64_t dn = 3 * (int64_t)HUDI_ARRAY_LEN(lengths);
    dict_fixture padded = make_dict(dn, PQ_BYTES_PAD), plain = make_dict(dn, 0);
    int64_t n = 5000;
    uint32_t *idx = malloc((size_t)n * sizeof(uint32_t));
    uint64_t x = 42;
    for (int64_t i = 0; i < n; i++)
        idx[i] = (i / 50) % 4 == 0 ? (uint32_t)((i / 50) % dn)
                                   : (uint32_t)(next_rand(&x) % (uint64_t)dn);
    uint8_t *enc = malloc((size_t)n * 8 + 64);
    size_t elen = encode_indices(enc, idx, n, 6);
    int32_t *o1, *o2;
    uint8_t *d1, *d2;
    int64_t l1, l2;
    gather(&padded, PQ_BYTES_PAD, 0, enc, elen, 6, n, &o1, &d1, &l1);
    gather(&plain, 0, 0, enc, elen, 6, n, &o2, &d2, &l2);
    cr_assert_eq(l1, l2);
    cr_assert_eq(memcmp(o1, o2, ((size_t)n + 1) * sizeof(int32_t)), 0);
    cr_assert_eq(memcmp(d1, d2, (size_t)l1), 0);
    /* And both equal the dictionary entries. */
    for (int64_t i = 0; i < n; i++) {
        int32_t a = plain.offsets[idx[i]], len = plain.offsets[idx[i] + 1] - a;
        cr_assert_eq(o2[i + 1] - o2[i], len);
        cr_assert_eq(memcmp(d2 + o2[i], plain.data + a, (size_t)len), 0, "value %lld",
                     (long long)i);
    }
    free(o1), free(o2), hudi_free(d1), hudi_free(d2), free(enc), free(idx);
    free(padded.offsets), free(padded.data), free(plain.offsets), free(plain.data);
}

Test(block_copy, plain_bytes_every_length_at_page_end) {
    /* Pages of k values where the last values end exactly at the end of the buffer. */
    for (size_t li = 0; li < HUDI_ARRAY_LEN(lengths); li++) {
        for (int64_t k = 1; k <= 6; k++) {
            size_t page_len = 0;
            for (int64_t i = 0; i < k; i++)
                page_len += 4 + lengths[(li + (size_t)i) % HUDI_ARRAY_LEN(lengths)];
            uint8_t *page = malloc(page_len ? page_len : 1);
            size_t q = 0;
            for (int64_t i = 0; i < k; i++) {
                size_t l = lengths[(li + (size_t)i) % HUDI_ARRAY_LEN(lengths)];
                hudi_store_u32le(page + q, (uint32_t)l);
                for (size_t j = 0; j < l; j++) page[q + 4 + j] = (uint8_t)(j + 3 * (size_t)i + 1);
                q += 4 + l;
            }
            int32_t *offs = calloc((size_t)k + 1, sizeof(int32_t));
            pq_bytes_out o = {offs, NULL, 0, 0, 0, NULL, NULL};
            size_t used = 0;
            hudi_error err = HUDI_ERROR_INIT;
            cr_assert_eq(hudi_pq_plain_decode_bytes(page, page_len, k, &o, &used, &err), 0, "%s",
                         err.message);
            cr_assert_eq(used, page_len);
            cr_assert_geq(o.data_cap - o.data_len, PQ_BYTES_PAD);
            q = 0;
            for (int64_t i = 0; i < k; i++) {
                size_t l = lengths[(li + (size_t)i) % HUDI_ARRAY_LEN(lengths)];
                cr_assert_eq((size_t)(offs[i + 1] - offs[i]), l);
                cr_assert_eq(memcmp(o.data + offs[i], page + q + 4, l), 0);
                q += 4 + l;
            }
            hudi_free(o.data);
            free(offs);
            free(page);
        }
    }
}

Test(block_copy, plain_bytes_stop_at_2gib_even_with_capacity) {
    /* A buffer that already has room beyond 2 GiB must still not take data past INT32_MAX:
     * the offsets are int32. Nothing is written, so the pretend buffer is never touched. */
    uint8_t page[4 + 10] = {10, 0, 0, 0, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'};
    int32_t offs[2] = {INT32_MAX - 5, 0};
    pq_bytes_out o = {offs, NULL, INT32_MAX - 5, (int64_t)1 << 33, 0, NULL, NULL};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_plain_decode_bytes(page, sizeof(page), 1, &o, NULL, &err), HUDI_ENOMEM);
    cr_assert_eq(o.data_len, INT32_MAX - 5);
    cr_assert_eq(o.count, 0);
}

Test(block_copy, fixed_block_gathers_for_every_longest_entry) {
    /* max_len picks one copy size for the whole dictionary: 16, 32, 48, 64, or per value. */
    static const size_t caps[] = {1, 10, 16, 17, 30, 32, 33, 47, 48, 49, 64, 65, 200};
    const int64_t dn = 2 * (int64_t)HUDI_ARRAY_LEN(lengths);
    int64_t n = 3000;
    uint32_t *idx = malloc((size_t)n * sizeof(uint32_t));
    uint64_t x = 7;
    for (int64_t i = 0; i < n; i++)
        idx[i] = (i / 40) % 3 == 0 ? (uint32_t)((i / 40) % dn)
                                   : (uint32_t)(next_rand(&x) % (uint64_t)dn);
    uint8_t *enc = malloc((size_t)n * 8 + 64);
    size_t elen = encode_indices(enc, idx, n, 6);
    for (size_t c = 0; c < HUDI_ARRAY_LEN(caps); c++) {
        dict_fixture padded = make_dict_capped(dn, PQ_BYTES_PAD, caps[c]);
        dict_fixture plain = make_dict_capped(dn, 0, caps[c]);
        int32_t max_len = 0;
        for (int64_t i = 0; i < dn; i++)
            max_len = HUDI_MAX(max_len, plain.offsets[i + 1] - plain.offsets[i]);
        int32_t *o1, *o2;
        uint8_t *d1, *d2;
        int64_t l1, l2;
        gather(&padded, PQ_BYTES_PAD, max_len, enc, elen, 6, n, &o1, &d1, &l1);
        gather(&plain, 0, 0, enc, elen, 6, n, &o2, &d2, &l2);
        cr_assert_eq(l1, l2, "cap %zu", caps[c]);
        cr_assert_eq(memcmp(o1, o2, ((size_t)n + 1) * sizeof(int32_t)), 0, "cap %zu", caps[c]);
        cr_assert_eq(memcmp(d1, d2, (size_t)l1), 0, "cap %zu", caps[c]);
        free(o1), free(o2), hudi_free(d1), hudi_free(d2);
        free(padded.offsets), free(padded.data), free(plain.offsets), free(plain.data);
    }
    free(enc), free(idx);
}
