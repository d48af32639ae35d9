/* bloom.c - split-block bloom filters (docs/formats/parquet.md §6.6): sizing, hashing, insert,
 * check, and the on-disk form (BloomFilterHeader + bitset).
 *
 * Invariant: a block is 8 little-endian u32 words; a hash h selects block
 * ((h >> 32) * z) >> 32 and, in each word i, bit ((u32)h * SALT[i]) >> 27. Words are always
 * accessed through LE loads/stores, so borrowed file bytes need no alignment or copying. */
#include "format/parquet/bloom.h"

#include <math.h>

#include "format/parquet/meta.h"

/* Inline XXH64 so the batch hashers specialise for constant widths. Same function as
 * hudi_hash64 (XXH64, seed 0). */
#define XXH_INLINE_ALL
#include <xxhash.h>

static const uint32_t SALT[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                 0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

static uint32_t pow2_floor(uint32_t v) { return v ? 1u << (31 - __builtin_clz(v)) : 0; }

uint32_t hudi_pq_bloom_optimal_bytes(uint64_t ndv, double fpp, uint32_t max_bytes) {
    if (max_bytes == 0) max_bytes = PQ_BLOOM_DEFAULT_MAX_BYTES;
    max_bytes = pow2_floor(HUDI_MIN(max_bytes, PQ_BLOOM_HARD_MAX_BYTES));
    if (max_bytes < PQ_BLOOM_MIN_BYTES) max_bytes = PQ_BLOOM_MIN_BYTES;
    if (!(fpp > 0.0 && fpp < 1.0)) return max_bytes;
    double bits = -8.0 * (double)ndv / log(1.0 - pow(fpp, 1.0 / 8.0));
    if (!(bits < (double)max_bytes * 8.0)) return max_bytes; /* also catches NaN / inf */
    uint64_t nbits = ((uint64_t)bits + 255) & ~(uint64_t)255;
    uint64_t bytes = nbits / 8;
    if (bytes < PQ_BLOOM_MIN_BYTES) bytes = PQ_BLOOM_MIN_BYTES;
    uint32_t p = pow2_floor((uint32_t)bytes);
    if (p < bytes) p <<= 1; /* bytes <= max_bytes, a power of two, so no overflow */
    return HUDI_MIN(p, max_bytes);
}

int hudi_pq_bloom_init(pq_bloom *bf, uint32_t num_bytes, hudi_error *err) {
    memset(bf, 0, sizeof(*bf));
    if (num_bytes == 0 || num_bytes % 32 != 0 || num_bytes > PQ_BLOOM_HARD_MAX_BYTES)
        return hudi_error_set(err, HUDI_EINVAL,
                              "bloom filter size %u is not a multiple of 32 in "
                              "32..%u",
                              num_bytes, PQ_BLOOM_HARD_MAX_BYTES);
    bf->bits = hudi_calloc(1, num_bytes);
    if (!bf->bits) return hudi_error_oom(err);
    bf->num_bytes = num_bytes;
    bf->owned = true;
    return 0;
}

void hudi_pq_bloom_dispose(pq_bloom *bf) {
    if (bf->owned) hudi_free(bf->bits);
    memset(bf, 0, sizeof(*bf));
}

void hudi_pq_bloom_hash_fixed(uint64_t *out, const void *values, size_t width, size_t n) {
    const uint8_t *p = values;
    /* Constant widths let the inlined XXH64 drop its length loop. */
    switch (width) {
    case 4:
        for (size_t i = 0; i < n; i++) out[i] = XXH64(p + 4 * i, 4, 0);
        break;
    case 8:
        for (size_t i = 0; i < n; i++) out[i] = XXH64(p + 8 * i, 8, 0);
        break;
    case 12:
        for (size_t i = 0; i < n; i++) out[i] = XXH64(p + 12 * i, 12, 0);
        break;
    default:
        for (size_t i = 0; i < n; i++) out[i] = XXH64(p + width * i, width, 0);
        break;
    }
}

void hudi_pq_bloom_hash_binary(uint64_t *out, const int32_t *offsets, const uint8_t *data,
                               size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = XXH64(data + offsets[i], (size_t)(offsets[i + 1] - offsets[i]), 0);
}

static inline uint8_t *block_of(const pq_bloom *bf, uint64_t hash) {
    uint64_t z = bf->num_bytes / 32;
    return bf->bits + (((hash >> 32) * z) >> 32) * 32;
}

void hudi_pq_bloom_insert(pq_bloom *bf, uint64_t hash) {
    uint8_t *blk = block_of(bf, hash);
    uint32_t x = (uint32_t)hash;
    for (int i = 0; i < 8; i++) {
        uint32_t w = hudi_load_u32le(blk + 4 * i) | (1u << ((x * SALT[i]) >> 27));
        hudi_store_u32le(blk + 4 * i, w);
    }
}

void hudi_pq_bloom_insert_many(pq_bloom *bf, const uint64_t *hashes, size_t n) {
    for (size_t i = 0; i < n; i++) hudi_pq_bloom_insert(bf, hashes[i]);
}

bool hudi_pq_bloom_check(const pq_bloom *bf, uint64_t hash) {
    if (!bf->bits || bf->num_bytes < 32) return true; /* no filter: anything may be present */
    const uint8_t *blk = block_of(bf, hash);
    uint32_t x = (uint32_t)hash;
    uint32_t miss = 0;
    for (int i = 0; i < 8; i++)
        miss |= ~hudi_load_u32le(blk + 4 * i) & (1u << ((x * SALT[i]) >> 27));
    return miss == 0;
}

int hudi_pq_bloom_parse(pq_bloom *out, hudi_slice in, size_t *consumed, hudi_error *err) {
    pq_bloom_header h;
    size_t hlen = 0;
    memset(out, 0, sizeof(*out));
    int rc = hudi_pq_decode_bloom_header(&h, in, &hlen, err);
    if (rc < 0) return rc;
    if (h.algorithm != 1 || h.hash != 1 || h.compression != 1)
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "bloom filter: algorithm %d, hash %d, compression %d (only "
                              "BLOCK/XXHASH/UNCOMPRESSED are read)",
                              (int)h.algorithm, (int)h.hash, (int)h.compression);
    if (h.num_bytes <= 0 || h.num_bytes % 32 != 0 ||
        (uint32_t)h.num_bytes > PQ_BLOOM_HARD_MAX_BYTES)
        return hudi_error_set(err, HUDI_ECORRUPT,
                              "bloom filter: numBytes %d is not a multiple of 32 in 32..%u",
                              (int)h.num_bytes, PQ_BLOOM_HARD_MAX_BYTES);
    if ((size_t)h.num_bytes > in.len - hlen)
        return hudi_error_set(
            err, HUDI_ECORRUPT,
            "bloom filter: bitset of %d bytes but only %zu bytes follow the header",
            (int)h.num_bytes, in.len - hlen);
    out->bits = (uint8_t *)in.data + hlen; /* borrowed; never written through (not owned) */
    out->num_bytes = (uint32_t)h.num_bytes;
    out->owned = false;
    if (consumed) *consumed = hlen + (size_t)h.num_bytes;
    return 0;
}

int hudi_pq_bloom_serialize(const pq_bloom *bf, hudi_buf *out, hudi_error *err) {
    if (!bf->bits || bf->num_bytes == 0 || bf->num_bytes % 32 != 0)
        return hudi_error_set(err, HUDI_EINVAL, "bloom filter: nothing to serialise");
    pq_bloom_header h = {
        .num_bytes = (int32_t)bf->num_bytes, .algorithm = 1, .hash = 1, .compression = 1};
    int rc = hudi_pq_encode_bloom_header(out, &h, err);
    if (rc < 0) return rc;
    hudi_buf_append(out, bf->bits, bf->num_bytes);
    if (hudi_buf_failed(out)) return hudi_error_oom(err);
    return 0;
}
