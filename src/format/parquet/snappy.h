/* snappy.h - hudic's own decoder for raw Snappy blocks, the payload of Parquet SNAPPY pages
 * (docs/formats/parquet.md §3.7). Compression still goes through libsnappy (codec.c).
 *
 * Invariant: the decoder writes only inside out[0, out_len) and reads only inside the input;
 * it needs no slack after either buffer. It succeeds only when the block's elements consume
 * the whole input and produce exactly out_len bytes, which is also what its header says. */
#ifndef HUDI_PQ_SNAPPY_H
#define HUDI_PQ_SNAPPY_H

#include "base/base.h"

/** Reads the block header (a varint32, at most 5 bytes): the uncompressed length.
 *  @return 0, or HUDI_ECORRUPT for a truncated or over-long header. */
int hudi_pq_snappy_uncompressed_length(hudi_slice in, size_t *out_len, hudi_error *err);

/** Decompresses the raw Snappy block `in` into exactly `out_len` bytes at `out` (which may be
 *  NULL when out_len is 0). HUDI_ECORRUPT, never a crash, for any malformed block: a header
 *  other than out_len, a truncated element, an offset of 0 or before the start of the output,
 *  a literal or copy running past the output, or trailing input. */
int hudi_pq_snappy_decompress(hudi_slice in, uint8_t *out, size_t out_len, hudi_error *err);

/* Incremental decoding of one block into a buffer of its whole size: a reader decodes only as
 * far as it consumes, so the bytes it copies out next are still in cache. */
typedef struct pq_snappy_stream {
    const uint8_t *ip, *in_end;
    uint8_t *out, *op, *out_end;
    bool finished; /* the whole block is decoded and checked */
} pq_snappy_stream;

/** Checks the header against out_len (as hudi_pq_snappy_decompress does); decodes nothing. */
int hudi_pq_snappy_stream_init(pq_snappy_stream *s, hudi_slice in, uint8_t *out, size_t out_len,
                               hudi_error *err);
/** Decodes until at least `upto` output bytes exist. With upto >= out_len it decodes the rest
 *  and checks what hudi_pq_snappy_decompress checks (all input used, exactly out_len bytes).
 *  Same writes, reads and errors as the one-shot decoder. */
int hudi_pq_snappy_stream_fill(pq_snappy_stream *s, size_t upto, hudi_error *err);

#endif
