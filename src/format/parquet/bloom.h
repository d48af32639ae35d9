/* bloom.h - Parquet split-block bloom filters (SBBF, docs/formats/parquet.md §6.6).
 *
 * Invariant: a pq_bloom's bitset is num_bytes long, num_bytes a positive multiple of 32
 * (one block = 8 little-endian u32 words), and is read and written with explicit
 * little-endian loads, so a filter may borrow unaligned bytes straight from a file. Only
 * BLOCK + XXHASH + UNCOMPRESSED filters exist here; anything else is refused at parse time
 * and the caller simply does without the filter. */
#ifndef HUDI_PQ_BLOOM_H
#define HUDI_PQ_BLOOM_H

#include "base/base.h"

#define PQ_BLOOM_MIN_BYTES 32u
#define PQ_BLOOM_DEFAULT_MAX_BYTES (1u << 20) /* parquet-mr's default cap, 1 MiB */
#define PQ_BLOOM_HARD_MAX_BYTES (128u << 20)  /* parquet-mr's upper bound; we refuse above */

typedef struct pq_bloom {
    uint8_t *bits;      /* the bitset; owned iff `owned` */
    uint32_t num_bytes; /* multiple of 32 */
    bool owned;
} pq_bloom;

/** Bitset size for `ndv` distinct values at false-positive probability `fpp` (0 < fpp < 1),
 *  by parquet-mr's formula: bits = -8 ndv / ln(1 - fpp^(1/8)), rounded up to whole 256-bit
 *  blocks, then to a power of two, clamped to [32, max_bytes] (max_bytes is rounded down to
 *  a power of two; 0 means PQ_BLOOM_DEFAULT_MAX_BYTES). An fpp outside (0, 1) gives max. */
uint32_t hudi_pq_bloom_optimal_bytes(uint64_t ndv, double fpp, uint32_t max_bytes);

/** An empty (all-zero) owned filter of `num_bytes` (a multiple of 32, at most
 *  PQ_BLOOM_HARD_MAX_BYTES). `*bf` is zeroed on failure. */
int hudi_pq_bloom_init(pq_bloom *bf, uint32_t num_bytes, hudi_error *err);

/** Frees an owned bitset; leaves `bf` zeroed. Safe on a zeroed or borrowed filter. */
void hudi_pq_bloom_dispose(pq_bloom *bf);

/** XXH64 (seed 0) of a value's PLAIN bytes without the BYTE_ARRAY length prefix: INT32 4 LE
 *  bytes, INT64 8, FLOAT/DOUBLE their IEEE bits (so -0.0 and +0.0 differ: normalise query
 *  constants), INT96 12, BYTE_ARRAY/FLBA the raw bytes (DECIMAL constants must first be
 *  rendered to the column's exact physical bytes). */
static inline uint64_t pq_bloom_hash(const void *plain, size_t len) {
    return hudi_hash64(plain, len);
}

/** Batch hashing for writers. Fixed-width values: `n` values of `width` bytes each, packed
 *  (INT32 4, INT64/DOUBLE 8, FLOAT 4, INT96 12, FLBA its length). */
void hudi_pq_bloom_hash_fixed(uint64_t *out, const void *values, size_t width, size_t n);
/** Byte arrays in Arrow layout: value i is data[offsets[i], offsets[i+1]). */
void hudi_pq_bloom_hash_binary(uint64_t *out, const int32_t *offsets, const uint8_t *data,
                               size_t n);

/** Sets the eight bits of `hash` in its block. The filter must be owned. */
void hudi_pq_bloom_insert(pq_bloom *bf, uint64_t hash);
void hudi_pq_bloom_insert_many(pq_bloom *bf, const uint64_t *hashes, size_t n);

/** false: the value is certainly absent; true: it may be present. */
bool hudi_pq_bloom_check(const pq_bloom *bf, uint64_t hash);

/** Parses a BloomFilterHeader plus bitset from `in` (which must hold both). The filter
 *  borrows the bitset from `in`. `*consumed` (if non-NULL) receives header + bitset size.
 *  @return 0; HUDI_EUNSUPPORTED for a filter other than BLOCK/XXHASH/UNCOMPRESSED (callers
 *  ignore the filter); HUDI_ECORRUPT for a malformed header or a size that does not fit
 *  (e.g. bloom_filter.bin, the pre-release Murmur3 blob). `*out` is zeroed on failure. */
int hudi_pq_bloom_parse(pq_bloom *out, hudi_slice in, size_t *consumed, hudi_error *err);

/** Appends the BloomFilterHeader (BLOCK, XXHASH, UNCOMPRESSED) and the bitset to `out`;
 *  the number of bytes appended is what ColumnMetaData.bloom_filter_length should say. */
int hudi_pq_bloom_serialize(const pq_bloom *bf, hudi_buf *out, hudi_error *err);

#endif
