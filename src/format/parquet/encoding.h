/* encoding.h - Parquet value and level encodings (docs/formats/parquet.md §2.1-2.8): decoders for
 * the page reader, encoders for the writer.
 *
 * Decoders produce values DENSELY (non-null values only, back to back); the reader spaces them
 * out with the definition levels itself. Every decoder takes the input as bytes it does not own
 * (the decompressed page), never reads outside [data, data + len), and reports truncated or
 * malformed input as HUDI_ECORRUPT with a one-line message. Every loop is bounded by the count
 * asked for or by the input length, so no input can make a decoder hang or allocate without
 * bound. Streaming decoders (hybrid, delta) may be called repeatedly for successive batches of
 * one page; the others take the index of the first value wanted.
 *
 * Output conventions (chosen for the reader's hot loops):
 *   fixed width  - n * width bytes at `out` (INT32 4, INT64 8, INT96 12, FLOAT 4, DOUBLE 8,
 *                  FLBA type_length), little-endian as stored. Callers give room for n values.
 *   BOOLEAN      - an Arrow bitmap: value i goes to bit (out_bit + i), LSB first, which is
 *                  hudi_array's own layout, so a REQUIRED column decodes straight into its
 *                  array and PLAIN booleans become a shifted bit copy. Bits outside the written
 *                  range are preserved.
 *   byte arrays  - appended to a pq_bytes_out (Arrow int32 offsets + data).
 *
 * Encoders append to a hudi_buf and return 0 or HUDI_ENOMEM (the buffer's sticky failure).
 * The host is assumed little-endian (x86-64, aarch64), like the rest of hudic. */
#ifndef HUDI_PQ_ENCODING_H
#define HUDI_PQ_ENCODING_H

#include "base/base.h"

/* ============================ bit packing (bitpack.c) ===================================== */

/** Unpacks `n` values of `w` bits (0..32) packed LSB-first (RLE-hybrid order) from `in` into
 *  `out`. Requires ceil(n * w / 8) <= in_len (checked by the caller); reads nothing beyond it.
 *  Width-specialised, 32 values per step. */
void hudi_pq_unpack_u32(const uint8_t *in, size_t in_len, uint32_t *out, int64_t n, int w);
/** As hudi_pq_unpack_u32 for widths 0..64 into 64-bit values (DELTA_BINARY_PACKED). */
void hudi_pq_unpack_u64(const uint8_t *in, size_t in_len, uint64_t *out, int64_t n, int w);
/** Unpacks exactly 32 values into out[0..31] from the first min(in_len, 4 * w) bytes of `in`
 *  (missing bytes read as zero): the building block for decoders with a 32-value buffer. */
void hudi_pq_unpack32_u32(const uint8_t *in, size_t in_len, uint32_t *out, int w);
void hudi_pq_unpack32_u64(const uint8_t *in, size_t in_len, uint64_t *out, int w);
/** Packs `n` values of `w` bits (0..32 / 0..64) LSB-first into `out`, which must have room for
 *  ceil(n * w / 8) bytes; those bytes are overwritten. Bits above `w` in inputs are ignored. */
void hudi_pq_pack_u32(const uint32_t *in, int64_t n, int w, uint8_t *out);
void hudi_pq_pack_u64(const uint64_t *in, int64_t n, int w, uint8_t *out);

/** Number of bits needed for `v` (0 for 0, 1 for 1, 2 for 2-3, ...). */
static inline int pq_bit_width(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

/** Reads an unsigned LEB128 varint of at most `max_bytes` bytes from [*p, end).
 *  Returns false (leaving *p unspecified) when truncated or too long. */
static inline bool pq_read_uleb(const uint8_t **p, const uint8_t *end, int max_bytes,
                                uint64_t *out) {
    uint64_t v = 0;
    const uint8_t *q = *p;
    for (int i = 0; i < max_bytes; i++) {
        if (q >= end) return false;
        uint8_t b = *q++;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return true;
        }
    }
    return false;
}

/** Appends an unsigned LEB128 varint. */
void hudi_pq_write_uleb(hudi_buf *out, uint64_t v);

/** Copies `n` bits from bitmap `src` at bit `src_bit` to `dst` at bit `dst_bit` (LSB first);
 *  other bits of `dst` are preserved, no byte of `src` beyond the last bit is read. */
void hudi_pq_copy_bits(uint8_t *dst, int64_t dst_bit, const uint8_t *src, int64_t src_bit,
                       int64_t n);
/** Sets (`value` true) or clears `n` bits of `dst` starting at bit `dst_bit`. */
void hudi_pq_fill_bits(uint8_t *dst, int64_t dst_bit, int64_t n, bool value);

/* ============================ byte-array output =========================================== */

/** Where byte-array decoders append values, in Arrow layout.
 *
 *  `offsets` must have room for `count + n + 1` entries when n values are decoded, and
 *  offsets[count] must equal data_len on entry (start with count = 0, offsets[0] = 0). Decoders
 *  write offsets[count + 1 ..] and advance `count` and `data_len`.
 *
 *  `data` grows as needed: through `grow(out, need_bytes, err)` when set (it must make
 *  data_cap >= need_bytes and update data/data_cap - e.g. a wrapper of hudi_array_reserve_data),
 *  otherwise with hudi_realloc (the caller then frees `data` with hudi_free).
 *  Total data must stay <= INT32_MAX bytes: beyond that decoders fail with HUDI_ENOMEM
 *  "byte array data exceeds 2 GiB in one batch" and the reader should use smaller batches.
 *  Decoders may write garbage into data[data_len, data_cap): hudi_pq_bytes_reserve keeps
 *  PQ_BYTES_PAD spare bytes there so values can be copied as whole 16-byte blocks. */
typedef struct pq_bytes_out {
    int32_t *offsets;
    uint8_t *data;
    int64_t data_len;
    int64_t data_cap;
    int64_t count;
    int (*grow)(struct pq_bytes_out *out, int64_t need_bytes, hudi_error *err);
    void *payload; /* for `grow` */
} pq_bytes_out;

/** Bytes hudi_pq_bytes_reserve keeps beyond what it was asked for, for over-long block copies. */
#define PQ_BYTES_PAD 64

/** Makes room for `extra` more data bytes plus PQ_BYTES_PAD (the 2 GiB check, which counts
 *  only `extra`, lives here): afterwards data_cap - data_len >= extra + PQ_BYTES_PAD. */
int hudi_pq_bytes_reserve(pq_bytes_out *out, int64_t extra, hudi_error *err);

/** Copies a value of `len` <= 64 bytes as one 16-byte block (len <= 16) or as 64 bytes: it
 *  reads and writes 16 or 64 bytes, so both buffers need 64 bytes of room, and they must not
 *  overlap. For the short values of string columns a memcpy call, or a loop whose trip count
 *  varies, costs more than the copy. */
static inline void pq_copy_upto64(uint8_t *dst, const uint8_t *src, size_t len) {
    if (len <= 16)
        memcpy(dst, src, 16);
    else
        memcpy(dst, src, 64);
}

/* ============================ PLAIN (plain.c, §2.1) ======================================= */

/** Decodes `n` fixed-width values (INT32/INT64/INT96/FLOAT/DOUBLE/FLBA: width 4/8/12/4/8/
 *  type_length) from the start of `in`: a bounds-checked memcpy of n*width bytes.
 *  `*consumed` (may be NULL) receives the bytes used. */
int hudi_pq_plain_decode_fixed(const uint8_t *in, size_t len, int32_t width, int64_t n,
                               uint8_t *out, size_t *consumed, hudi_error *err);
/** Decodes `n` PLAIN booleans starting at value index `first` of the page's bit-packed value
 *  section `in` into bitmap `out` at bit `out_bit`. */
int hudi_pq_plain_decode_bool(const uint8_t *in, size_t len, int64_t first, int64_t n, uint8_t *out,
                              int64_t out_bit, hudi_error *err);
/** Decodes `n` PLAIN BYTE_ARRAY values (u32 length + bytes each) from the start of `in`,
 *  appending them to `out`; `*consumed` (may be NULL) receives the bytes used. */
int hudi_pq_plain_decode_bytes(const uint8_t *in, size_t len, int64_t n, pq_bytes_out *out,
                               size_t *consumed, hudi_error *err);

/** Appends n*width bytes (fixed-width PLAIN is the in-memory little-endian layout). */
int hudi_pq_plain_encode_fixed(hudi_buf *out, const void *values, int32_t width, int64_t n);
/** Appends `n` booleans taken from bitmap `bits` starting at bit `bit_offset`. */
int hudi_pq_plain_encode_bool(hudi_buf *out, const uint8_t *bits, int64_t bit_offset, int64_t n);
/** Appends `n` byte arrays given as Arrow offsets[0..n] into `data`. */
int hudi_pq_plain_encode_bytes(hudi_buf *out, const int32_t *offsets, const uint8_t *data,
                               int64_t n);

/* ============================ RLE / bit-packing hybrid (rle.c, §2.2-2.4) =================== */

/** Streaming decoder for an RLE/bit-packed hybrid stream of `bit_width` bits (0..32). */
typedef struct pq_rle_decoder {
    const uint8_t *p;   /* next unread byte: a run header or the rest of a packed run */
    const uint8_t *end; /* end of the stream */
    int bit_width;
    int value_bytes;          /* ceil(bit_width / 8): bytes of an RLE run's value */
    uint32_t rle_value;       /* value of the current RLE run */
    int64_t rle_left;         /* values left in the current RLE run */
    int64_t packed_left;      /* values (multiple of 8, padding included) left in a packed run */
    int32_t buf_pos, buf_len; /* buffered values of a partly consumed packed group */
    uint32_t buf[32];
} pq_rle_decoder;

/** Starts decoding `len` bytes at `data` (no length prefix) with `bit_width` bits per value.
 *  Fails with ECORRUPT "bit width 54 > 32" for widths above 32. */
int hudi_pq_rle_init(pq_rle_decoder *d, const uint8_t *data, size_t len, int bit_width,
                     hudi_error *err);
/** Dictionary-index data pages: reads the leading bit-width byte of `data`, then inits. */
int hudi_pq_rle_init_dict(pq_rle_decoder *d, const uint8_t *data, size_t len, hudi_error *err);
/** Next `n` values as uint32 (dictionary indices). ECORRUPT if the stream runs short. */
int hudi_pq_rle_next_u32(pq_rle_decoder *d, uint32_t *out, int64_t n, hudi_error *err);
/** Next `n` values as int16 (repetition/definition levels; width must be <= 15). */
int hudi_pq_rle_next_i16(pq_rle_decoder *d, int16_t *out, int64_t n, hudi_error *err);
/** Next `n` values as booleans (width 1) into bitmap `out` at bit `out_bit`. */
int hudi_pq_rle_next_bool(pq_rle_decoder *d, uint8_t *out, int64_t out_bit, int64_t n,
                          hudi_error *err);
/** Skips `n` values. */
int hudi_pq_rle_skip(pq_rle_decoder *d, int64_t n, hudi_error *err);
/** Fast path "no nulls": if the next `n` values are all `value` and stored as RLE runs,
 *  consumes them and returns 1; otherwise consumes nothing and returns 0 - also on malformed
 *  input, which the slow path that follows then reports (`err` is not touched). Adjacent RLE
 *  runs of the same value count as one. Never allocates. */
int hudi_pq_rle_consume_run(pq_rle_decoder *d, int64_t n, uint32_t value, hudi_error *err);

/** Data page v1 levels and RLE booleans: parses the u32le byte-length prefix at `in`.
 *  On success `*runs`/`*runs_len` give the stream and `*consumed` = 4 + runs_len. */
int hudi_pq_rle_parse_prefix(const uint8_t *in, size_t len, const uint8_t **runs, size_t *runs_len,
                             size_t *consumed, hudi_error *err);

/** A dictionary: fixed-width entries (`width` bytes each, `values`) or byte arrays
 *  (`width` = 0, `offsets`[0..n] into `data`). Borrowed; lives as long as the chunk.
 *  `data_pad` is how many readable bytes follow data[offsets[n]] (0 when unknown); with at
 *  least 64 the gather copies short entries with pq_copy_upto64. `max_len`, when > 0, bounds
 *  every entry's length, so a gather can reserve output without summing lengths first. */
typedef struct pq_dict {
    int64_t n;
    int32_t width;
    const uint8_t *values;
    const int32_t *offsets;
    const uint8_t *data;
    int32_t data_pad;
    int32_t max_len;
} pq_dict;

/** Decodes `n` indices and gathers the fixed-width entries into `out` (n * width bytes).
 *  ECORRUPT "dictionary index 7 >= dictionary size 3" for a bad index. */
int hudi_pq_rle_gather_fixed(pq_rle_decoder *d, const pq_dict *dict, int64_t n, uint8_t *out,
                             hudi_error *err);
/** Decodes `n` indices and appends the byte-array entries to `out`. */
int hudi_pq_rle_gather_bytes(pq_rle_decoder *d, const pq_dict *dict, int64_t n, pq_bytes_out *out,
                             hudi_error *err);

/** Deprecated BIT_PACKED levels (encoding 4, MSB first, §2.3): the stream holds
 *  `total` values and is pq_bitpacked_size(total, w) bytes long; decodes values
 *  [first, first + n) into `out`. Width 0..15. */
int hudi_pq_bitpacked_decode_i16(const uint8_t *in, size_t len, int w, int64_t first, int64_t n,
                                 int16_t *out, hudi_error *err);
static inline size_t pq_bitpacked_size(int64_t total, int w) {
    return (size_t)(((uint64_t)total * (uint64_t)w + 7) / 8);
}

/** Appends the hybrid encoding of `n` values of `bit_width` bits (no length prefix): runs of
 *  >= 8 equal values become RLE runs, the rest bit-packed runs of <= 63 groups, the last
 *  group padded with zeros to 8 values. Values must fit in bit_width. */
int hudi_pq_rle_encode_u32(hudi_buf *out, const uint32_t *values, int64_t n, int bit_width);
/** As hudi_pq_rle_encode_u32 for levels; with `length_prefix` (data page v1 levels, RLE booleans)
 *  a u32le byte length precedes the runs. */
int hudi_pq_rle_encode_i16(hudi_buf *out, const int16_t *levels, int64_t n, int bit_width,
                           bool length_prefix);
/** RLE boolean values from a bitmap (width 1), with the u32le length prefix if asked. */
int hudi_pq_rle_encode_bool(hudi_buf *out, const uint8_t *bits, int64_t bit_offset, int64_t n,
                            bool length_prefix);

/* ============================ DELTA_* (delta.c, §2.5-2.7) ================================= */

/** Streaming DELTA_BINARY_PACKED decoder. */
typedef struct pq_delta_decoder {
    const uint8_t *p, *end, *start;
    bool is32;             /* INT32 column: widths <= 32, results wrap at 32 bits */
    uint32_t block_size;   /* values per block */
    uint32_t miniblocks;   /* miniblocks per block */
    uint32_t mini_size;    /* values per miniblock (multiple of 32) */
    uint64_t total;        /* total_value_count from the header */
    uint64_t produced;     /* values handed out so far */
    uint64_t last;         /* previous value, wrapping */
    uint64_t min_delta;    /* current block */
    const uint8_t *widths; /* current block's miniblock bit widths */
    uint32_t mini_index;   /* next miniblock of the current block */
    uint32_t mini_left;    /* values left in the current miniblock (unpacked or not) */
    int32_t buf_pos, buf_len;
    uint64_t buf[32]; /* unpacked deltas of the current 32-value chunk */
} pq_delta_decoder;

/** Parses the header at `data`. `is32` selects INT32 semantics. */
int hudi_pq_delta_init(pq_delta_decoder *d, const uint8_t *data, size_t len, bool is32,
                       hudi_error *err);
/** Next `n` values. ECORRUPT when the stream holds fewer than asked or is malformed. */
int hudi_pq_delta_next_i32(pq_delta_decoder *d, int32_t *out, int64_t n, hudi_error *err);
int hudi_pq_delta_next_i64(pq_delta_decoder *d, int64_t *out, int64_t n, hudi_error *err);
/** Values the header announces. */
static inline uint64_t pq_delta_total(const pq_delta_decoder *d) { return d->total; }
/** Byte length of the whole DELTA_BINARY_PACKED stream at `data` (header, blocks, up to the
 *  last used miniblock), found by walking block headers without unpacking. */
int hudi_pq_delta_stream_len(const uint8_t *data, size_t len, bool is32, size_t *out_len,
                             hudi_error *err);

/** DELTA_LENGTH_BYTE_ARRAY decoder: lengths (DBP, INT32) then the concatenated bytes. */
typedef struct pq_dlba_decoder {
    pq_delta_decoder lengths;
    const uint8_t *data, *data_end; /* next value bytes */
} pq_dlba_decoder;

/** Starts decoding the section [data, data + len) (the rest of the page). */
int hudi_pq_dlba_init(pq_dlba_decoder *d, const uint8_t *data, size_t len, hudi_error *err);
int hudi_pq_dlba_next(pq_dlba_decoder *d, int64_t n, pq_bytes_out *out, hudi_error *err);

/** DELTA_BYTE_ARRAY decoder: DBP prefix lengths, then a DELTA_LENGTH_BYTE_ARRAY of suffixes.
 *  Keeps a copy of the previous value so batches may go to different outputs; the previous
 *  value starts empty for each page (each init). Zero-initialise the struct before the first
 *  init; re-init for the next page reuses the buffer; dispose with hudi_pq_dba_dispose. */
typedef struct pq_dba_decoder {
    pq_delta_decoder prefixes;
    pq_dlba_decoder suffixes;
    uint8_t *prev; /* owned copy of the last value decoded */
    size_t prev_len, prev_cap;
} pq_dba_decoder;

int hudi_pq_dba_init(pq_dba_decoder *d, const uint8_t *data, size_t len, hudi_error *err);
/** Next `n` BYTE_ARRAY values appended to `out`. */
int hudi_pq_dba_next(pq_dba_decoder *d, int64_t n, pq_bytes_out *out, hudi_error *err);
/** Next `n` FIXED_LEN_BYTE_ARRAY values of `width` bytes into `out` (each must be `width`). */
int hudi_pq_dba_next_fixed(pq_dba_decoder *d, int64_t n, int32_t width, uint8_t *out,
                           hudi_error *err);
void hudi_pq_dba_dispose(pq_dba_decoder *d);

/** DELTA_BINARY_PACKED encoders: block 128, 4 miniblocks of 32, wrapping deltas. */
int hudi_pq_delta_encode_i32(hudi_buf *out, const int32_t *values, int64_t n);
int hudi_pq_delta_encode_i64(hudi_buf *out, const int64_t *values, int64_t n);
/** DELTA_LENGTH_BYTE_ARRAY of Arrow offsets[0..n] into `data`. */
int hudi_pq_dlba_encode(hudi_buf *out, const int32_t *offsets, const uint8_t *data, int64_t n);
/** DELTA_BYTE_ARRAY of byte arrays (offsets != NULL) or of `width`-byte values (offsets NULL,
 *  value i at data + i * width). */
int hudi_pq_dba_encode(hudi_buf *out, const int32_t *offsets, const uint8_t *data, int32_t width,
                       int64_t n);

/* ============================ BYTE_STREAM_SPLIT (bss.c, §2.8) ============================= */

/** Decodes values [first, first + n) of a BYTE_STREAM_SPLIT section of `len` bytes holding
 *  values of `width` bytes (len must be a multiple of width) into `out` (n * width bytes). */
int hudi_pq_bss_decode(const uint8_t *in, size_t len, int32_t width, int64_t first, int64_t n,
                       uint8_t *out, hudi_error *err);
/** Appends the BYTE_STREAM_SPLIT encoding of `n` values of `width` bytes. */
int hudi_pq_bss_encode(hudi_buf *out, const uint8_t *values, int32_t width, int64_t n);

#endif
