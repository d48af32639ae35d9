/* bloom_test.c - split-block bloom filters against parquet-testing's bloom_filter.xxhash.bin
 * (docs/formats/parquet.md §6.6), the obsolete Murmur3 blob, sizing, a write/parse round trip. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "format/parquet/bloom.h"
#include "format/parquet/meta.h"
#include "support.h"

static uint64_t hash_str(const char *s) { return pq_bloom_hash(s, strlen(s)); }

Test(bloom, xxhash_fixture) {
    size_t len = 0;
    uint8_t *file =
        test_read_file(fixture_path("parquet-testing/data/bloom_filter.xxhash.bin"), &len);
    cr_assert_not_null(file);
    pq_bloom bf;
    size_t consumed = 0;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_bloom_parse(&bf, HUDI_SLICE(file, len), &consumed, &err), 0, "%s",
                 err.message);
    cr_assert_eq(bf.num_bytes, 1024);
    cr_assert_eq(consumed, 16 + 1024);
    cr_assert_eq(consumed, len);
    const char *yes[] = {"hello", "parquet", "bloom", "filter"};
    const char *no[] = {"nope", "world", "Hello"};
    for (size_t i = 0; i < HUDI_ARRAY_LEN(yes); i++)
        cr_assert(hudi_pq_bloom_check(&bf, hash_str(yes[i])), "%s", yes[i]);
    for (size_t i = 0; i < HUDI_ARRAY_LEN(no); i++)
        cr_assert(!hudi_pq_bloom_check(&bf, hash_str(no[i])), "%s", no[i]);

    /* Re-building the same filter by inserting the four words gives identical bytes. */
    pq_bloom mine;
    cr_assert_eq(hudi_pq_bloom_init(&mine, 1024, &err), 0);
    uint8_t data[64];
    int32_t offsets[5] = {0};
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(yes[i]);
        memcpy(data + offsets[i], yes[i], n);
        offsets[i + 1] = offsets[i] + (int32_t)n;
    }
    uint64_t hashes[4];
    hudi_pq_bloom_hash_binary(hashes, offsets, data, 4);
    for (size_t i = 0; i < 4; i++) cr_assert_eq(hashes[i], hash_str(yes[i]));
    hudi_pq_bloom_insert_many(&mine, hashes, 4);
    cr_assert_eq(memcmp(mine.bits, bf.bits, 1024), 0);

    /* ...and serialises to exactly the fixture's bytes. */
    hudi_buf out = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_bloom_serialize(&mine, &out, &err), 0, "%s", err.message);
    cr_assert_eq(out.len, len);
    cr_assert_eq(memcmp(out.data, file, len), 0);
    hudi_buf_dispose(&out);
    hudi_pq_bloom_dispose(&mine);
    hudi_pq_bloom_dispose(&bf); /* borrowed: must not free */
    free(file);
}

Test(bloom, truncated_fixture_rejected) {
    size_t len = 0;
    uint8_t *file =
        test_read_file(fixture_path("parquet-testing/data/bloom_filter.xxhash.bin"), &len);
    cr_assert_not_null(file);
    pq_bloom bf;
    hudi_error err = HUDI_ERROR_INIT;
    for (size_t cut = 0; cut < len; cut += (cut < 20 ? 1 : 97)) {
        int rc = hudi_pq_bloom_parse(&bf, HUDI_SLICE(file, cut), NULL, &err);
        cr_assert_eq(rc, HUDI_ECORRUPT, "cut %zu: rc %d", cut, rc);
        cr_assert_null(bf.bits);
        cr_assert_null(strchr(err.message, '\n'));
    }
    free(file);
}

/* The pre-release Murmur3 format (starts 00 04 00 00: a STOP byte to Thrift) never parses. */
Test(bloom, old_murmur_format_rejected) {
    size_t len = 0;
    uint8_t *file = test_read_file(fixture_path("parquet-testing/data/bloom_filter.bin"), &len);
    cr_assert_not_null(file);
    pq_bloom bf;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_pq_bloom_parse(&bf, HUDI_SLICE(file, len), NULL, &err);
    cr_assert(rc == HUDI_ECORRUPT || rc == HUDI_EUNSUPPORTED, "rc %d", rc);
    cr_assert_null(bf.bits);
    cr_assert_gt(strlen(err.message), 0);
    /* A zeroed filter answers "maybe" for everything. */
    cr_assert(hudi_pq_bloom_check(&bf, hash_str("anything")));
    free(file);
}

Test(bloom, unknown_algorithm_unsupported) {
    pq_bloom bf;
    hudi_buf b = HUDI_BUF_INIT;
    /* hash member 2 (not XXHASH): the header decoder reports it as 0 = unknown. */
    pq_bloom_header h = {.num_bytes = 32, .algorithm = 1, .hash = 0, .compression = 1};
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_pq_encode_bloom_header(&b, &h, &err), 0, "%s", err.message);
    uint8_t zeros[32] = {0};
    hudi_buf_append(&b, zeros, 32);
    int rc = hudi_pq_bloom_parse(&bf, HUDI_SLICE(b.data, b.len), NULL, &err);
    cr_assert_eq(rc, HUDI_EUNSUPPORTED, "rc %d: %s", rc, err.message);
    /* numBytes not a multiple of 32. */
    hudi_buf_clear(&b);
    h = (pq_bloom_header){.num_bytes = 40, .algorithm = 1, .hash = 1, .compression = 1};
    cr_assert_eq(hudi_pq_encode_bloom_header(&b, &h, &err), 0);
    uint8_t more[40] = {0};
    hudi_buf_append(&b, more, 40);
    cr_assert_eq(hudi_pq_bloom_parse(&bf, HUDI_SLICE(b.data, b.len), NULL, &err), HUDI_ECORRUPT);
    hudi_buf_dispose(&b);
}

Test(bloom, sizing_matches_parquet_mr) {
    /* parquet.md §6.6: ~9.7 bits per value at 1 %: 10^5 -> 128 KiB; 10^6 -> 2 MiB, clamped to 1
     * MiB. */
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(100000, 0.01, 0), 128u * 1024);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(1000000, 0.01, 0), 1u << 20);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(1000000, 0.01, 4u << 20), 2u << 20);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(0, 0.01, 0), 32);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(1, 0.01, 0), 32);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(1000, 0.0, 0), 1u << 20);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(1000, 1.5, 0), 1u << 20);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(UINT64_MAX, 0.01, 0), 1u << 20);
    cr_assert_eq(hudi_pq_bloom_optimal_bytes(1000, 0.01, 3000), 2048); /* max rounded down to 2^k */
    for (uint64_t ndv = 1; ndv < 5000000; ndv = ndv * 3 + 1) {
        uint32_t b = hudi_pq_bloom_optimal_bytes(ndv, 0.05, 64u << 20);
        cr_assert_eq(b & (b - 1), 0, "ndv %llu -> %u", (unsigned long long)ndv, b);
        cr_assert_geq(b, 32);
    }
}

/* Inserted values always test positive; the false-positive rate is near the target. */
Test(bloom, false_positive_rate) {
    const uint64_t ndv = 20000;
    pq_bloom bf;
    cr_assert_eq(hudi_pq_bloom_init(&bf, hudi_pq_bloom_optimal_bytes(ndv, 0.01, 0), NULL), 0);
    int64_t *vals = malloc(ndv * sizeof(int64_t));
    uint64_t *h = malloc(ndv * sizeof(uint64_t));
    for (uint64_t i = 0; i < ndv; i++) vals[i] = (int64_t)(i * 7919);
    hudi_pq_bloom_hash_fixed(h, vals, 8, ndv);
    cr_assert_eq(h[5], pq_bloom_hash(&vals[5], 8));
    hudi_pq_bloom_insert_many(&bf, h, ndv);
    for (uint64_t i = 0; i < ndv; i++) cr_assert(hudi_pq_bloom_check(&bf, h[i]));
    int fp = 0;
    for (int64_t i = 0; i < 100000; i++) {
        int64_t v = i * 7919 + 1;
        fp += hudi_pq_bloom_check(&bf, pq_bloom_hash(&v, 8));
    }
    /* Rounding the size up to a power of two only lowers the rate. */
    cr_assert_lt(fp, 1500, "false positives %d / 100000", fp);
    free(vals);
    free(h);
    hudi_pq_bloom_dispose(&bf);
}

Test(bloom, init_rejects_bad_sizes) {
    pq_bloom bf;
    cr_assert_eq(hudi_pq_bloom_init(&bf, 0, NULL), HUDI_EINVAL);
    cr_assert_eq(hudi_pq_bloom_init(&bf, 33, NULL), HUDI_EINVAL);
    cr_assert_eq(hudi_pq_bloom_init(&bf, PQ_BLOOM_HARD_MAX_BYTES + 32, NULL), HUDI_EINVAL);
    hudi_buf b = HUDI_BUF_INIT;
    cr_assert_eq(hudi_pq_bloom_serialize(&bf, &b, NULL), HUDI_EINVAL);
    hudi_buf_dispose(&b);
}
