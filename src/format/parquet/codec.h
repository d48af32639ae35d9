/* codec.h - Parquet page compression codecs (docs/formats/parquet.md §3.7, §8 items 4, 12, 13).
 *
 * Invariant: decompression always produces exactly the size the page header promised, or
 * fails; a codec never writes outside `out[0, out_len)`. Codec state that is expensive to
 * create (ZSTD contexts, libdeflate compressors) lives in a pq_codec_ctx that one thread reuses
 * across pages; every function also accepts ctx == NULL and then builds the state temporarily. */
#ifndef HUDI_PQ_CODEC_H
#define HUDI_PQ_CODEC_H

#include "base/base.h"

/* Codec ids are PQ_CODEC_* from meta.h (the CompressionCodec enum of parquet.thrift). */

/* Level value meaning "the codec's default": GZIP 6, ZSTD 3, BROTLI 8; ignored by the
 * codecs that have no level (SNAPPY, LZ4_RAW). Any other value is passed to the codec
 * (ZSTD accepts negative "fast" levels and up to ZSTD_maxCLevel(); GZIP 1-9; BROTLI 0-11). */
#define PQ_CODEC_LEVEL_DEFAULT 0

/** Per-thread codec state. Not thread-safe: one per decoding/encoding thread. */
typedef struct pq_codec_ctx pq_codec_ctx;

/** Allocates an empty context (codec state is created lazily on first use).
 *  @return 0 or HUDI_ENOMEM; `*out` is NULL on failure. */
int hudi_pq_codec_ctx_new(pq_codec_ctx **out, hudi_error *err);

/** Frees the context and everything it holds. NULL does nothing. */
void hudi_pq_codec_ctx_free(pq_codec_ctx *ctx);

/** Decompresses `in` into exactly `out_len` bytes at `out`.
 *  Fails with HUDI_ECORRUPT when the input is malformed or decodes to any other size,
 *  HUDI_EUNSUPPORTED for LZO and unknown codec ids. `out` may be NULL when out_len is 0.
 *  Empty input with out_len 0 succeeds without calling the codec (0 bytes is no valid
 *  stream for most codecs, yet writers emit it for empty pages).
 *  GZIP input may be several concatenated members (each a gzip member or a zlib stream),
 *  ZSTD input several frames. For LZ4 (codec 5, deprecated) the Hadoop framing is tried
 *  first, then the LZ4 frame format (by magic), then a raw LZ4 block. `ctx` may be NULL. */
int hudi_pq_decompress(pq_codec_ctx *ctx, int codec, hudi_slice in, uint8_t *out, size_t out_len,
                       hudi_error *err);

/** Compresses `in` and appends the result to `out` (nothing is appended on failure).
 *  `level` is PQ_CODEC_LEVEL_DEFAULT or a codec-specific level. Empty input is still passed
 *  to the codec so the page holds a valid (tiny) stream every reader can decode.
 *  UNCOMPRESSED appends `in` as is. LZ4 (5, deprecated) is written in Hadoop's framing: pieces
 *  of at most 128 KiB, each [u32 BE size][u32 BE compressed size][LZ4 block], which parquet-mr,
 *  parquet-cpp/Arrow and DuckDB read. LZO returns HUDI_EUNSUPPORTED.
 *  BROTLI is written, but parquet-mr (Spark, Hudi) cannot read it without an extra Hadoop
 *  codec, so writers should not offer it by default. `ctx` may be NULL. */
int hudi_pq_compress(pq_codec_ctx *ctx, int codec, int level, hudi_slice in, hudi_buf *out,
                     hudi_error *err);

/** "UNCOMPRESSED", "SNAPPY", ... as in parquet.thrift; "UNKNOWN" for other ids. */
const char *hudi_pq_codec_name(int codec);

#endif
