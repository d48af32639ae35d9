/* writer_int.h - internals shared by writer.c (file layout, footer, page indexes, blooms) and
 * writer_column.c (one leaf column: levels, dictionary, pages, statistics).
 *
 * Invariant: a pq_wcol holds at most one row group's encoded pages (its column chunk) plus
 * one open page; writer.c drains every column after each row group, so memory is bounded by
 * the row group, never by the file. */
#ifndef HUDI_PQ_WRITER_INT_H
#define HUDI_PQ_WRITER_INT_H

#include "format/parquet/bloom.h"
#include "format/parquet/codec.h"
#include "format/parquet/encoding.h"
#include "format/parquet/parquet.h"
#include "format/parquet/schema.h"
#include "format/parquet/stats.h"

/* How a hudi value becomes its Parquet physical value. */
enum {
    PQ_CONV_BOOL = 0, /* bits */
    PQ_CONV_COPY,     /* same bytes (int32/int64/float/double/float16/fixed binary/time...) */
    PQ_CONV_I8,       /* sign-extend to INT32 */
    PQ_CONV_I16,
    PQ_CONV_U8, /* zero-extend to INT32 */
    PQ_CONV_U16,
    PQ_CONV_LOW,    /* decimal128 -> INT32/INT64: the low bytes */
    PQ_CONV_DEC_BE, /* decimal128 -> FLBA(n): the low n bytes, big-endian */
    PQ_CONV_BYTES,  /* string/binary -> BYTE_ARRAY */
    PQ_CONV_NULL,   /* NULL type: never a value */
};

/* Settings and scratch shared by every column of one writer. */
typedef struct pq_wctx {
    hudi_pq_write_options o; /* defaults resolved */
    pq_codec_ctx *codec;
    hudi_buf page;  /* uncompressed payload of the page being closed */
    hudi_buf comp;  /* its compressed form */
    hudi_buf lv;    /* v2: the levels */
    hudi_buf hdr;   /* the page header being encoded */
    uint8_t *dense; /* gathered fixed values / bits of one segment */
    size_t dense_cap;
    int32_t *offs; /* gathered byte-array offsets of one segment */
    size_t offs_cap;
    uint8_t *data; /* gathered byte-array data of one segment */
    size_t data_cap;
    uint64_t *hashes; /* bloom hashes of one segment */
    size_t hashes_cap;
    hudi_pq_block_pool *blocks; /* column chunk blocks come from here; NULL = malloc */
} pq_wctx;

/* A block of a column chunk's pages: PQ_CHUNK_BLOCK bytes, `len` of them used. A page may
 * continue in the next block (the file takes the blocks in order). */
enum { PQ_CHUNK_BLOCK = 1 << 20 };
typedef struct pq_wblock {
    uint8_t *data;
    size_t len;
} pq_wblock;

/* A data page as the page index needs it. */
typedef struct pq_wpage {
    int64_t offset;    /* of the page header, from the chunk's first data page */
    int32_t size;      /* header + payload */
    int64_t first_row; /* within the row group */
    int64_t null_count, nan_count;
    bool null_page, all_nan;
    size_t min_off, min_len, max_off, max_len; /* bounds in pq_wcol.bounds */
} pq_wpage;

/* Dictionary of one column chunk: a flat open-addressing table over the PLAIN entries. */
typedef struct pq_wdict {
    uint64_t *slots; /* (hash32 << 32) | (entry + 1); 0 = empty */
    uint32_t mask;   /* slots - 1 */
    uint32_t n;      /* entries */
    hudi_buf plain;  /* the entries PLAIN-encoded: the dictionary page payload */
    uint32_t *offs;  /* byte arrays: offset of entry i's u32 length in `plain` */
    uint32_t offs_cap;
} pq_wdict;

/* A set of 64-bit bloom hashes (distinct count decides the filter size). */
typedef struct pq_whashset {
    uint64_t *slots; /* 0 = empty; hash 0 is kept in has_zero */
    uint64_t mask;
    uint64_t n;
    bool has_zero;
} pq_whashset;

enum { PQ_WMODE_DICT = 0, PQ_WMODE_PLAIN = 1 };

typedef struct pq_wcol {
    const pq_leaf *leaf;
    const hudi_field *src; /* the leaf's field in the writer's schema */
    uint8_t conv;
    int32_t src_width; /* bytes per source value (fixed kinds) */
    int32_t width;     /* bytes per physical value; 0 byte arrays; -1 booleans */
    int kind;          /* PQ_SORT_* */
    bool want_bloom;
    int def_bits, rep_bits; /* level bit widths */
    pq_shredded sh;

    /* cursor over the shredded slice: the run holding the next value */
    int64_t run_i, run_off;

    /* ---- the open page ---- */
    int16_t *def, *rep; /* levels (def only once materialised) */
    size_t lv_cap;
    int64_t def_const; /* leading entries at max_def not materialised yet */
    bool def_mat;
    int64_t page_levels, page_values, page_rows;
    int64_t page_plain; /* PLAIN bytes of the page's values (dict mode) */
    hudi_buf vals;      /* plain mode: PLAIN values, bits (booleans), or the bare bytes of
                           byte arrays whose encoding is DELTA_* (offsets in `voffs`) */
    int32_t *voffs;     /* DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY byte arrays: value i is
                           vals[voffs[i], voffs[i + 1]) */
    size_t voffs_cap;
    uint32_t *idx; /* dictionary indices (dict mode) */
    size_t idx_cap;
    pq_stats_acc pstats; /* the page (bounds truncated for the ColumnIndex) */

    /* ---- the column chunk ---- */
    int mode;          /* PQ_WMODE_* */
    int32_t enc;       /* PQ_ENC_* of the pages not dictionary-encoded (PLAIN unless chosen) */
    bool dict_enabled; /* options allow a dictionary */
    bool dict_tried;   /* the first page decided whether the dictionary pays */
    bool dict_forced;  /* RLE_DICTIONARY chosen: no "does it pay" test, only the size limit */
    pq_wdict dict;
    hudi_vec chunk;                    /* pq_wblock: the data pages (header + payload each),
                                          in blocks of PQ_CHUNK_BLOCK, the last one open */
    int64_t chunk_len;                 /* bytes in `chunk` */
    hudi_pq_block_pool *pool;          /* where the blocks go back to (cx->blocks), or NULL */
    hudi_buf dict_page;                /* header + payload, built by hudi_pq_wcol_finish */
    pq_stats_acc cstats;               /* the chunk (bounds kept whole) */
    hudi_vec pages;                    /* pq_wpage */
    hudi_buf bounds;                   /* page index bounds */
    int64_t num_values;                /* level entries of the chunk */
    int64_t rows;                      /* rows of the chunk so far */
    int64_t uncompressed;              /* data pages incl. headers */
    int32_t n_dict_pages, n_enc_pages; /* data pages: dictionary-encoded, in `enc` */
    pq_whashset bloom_set;
} pq_wcol;

/* Bytes of data pages the column chunk holds (its blocks and the open one). */
static inline int64_t pq_wcol_chunk_len(const pq_wcol *c) { return c->chunk_len; }

/* Sets up column `c` for `leaf`; `src` is the leaf's field in the writer's own schema.
 * `encoding` is the PQ_ENC_* chosen for the column or -1 for the default (dictionary with PLAIN
 * fallback; RLE for booleans in v2 pages). EUNSUPPORTED for a leaf the writer cannot produce,
 * EINVAL for an encoding the leaf's physical type does not allow. */
int hudi_pq_wcol_init(pq_wcol *c, const pq_wctx *cx, const pq_leaf *leaf, const hudi_field *src,
                      bool bloom, int32_t encoding, hudi_error *err);
void hudi_pq_wcol_dispose(pq_wcol *c);

/* Appends rows [row_start, row_start + n_rows) of top-level array `column` to the chunk,
 * cutting pages only at record boundaries. */
int hudi_pq_wcol_write(pq_wctx *cx, pq_wcol *c, const hudi_array *column, int64_t row_start,
                       int64_t n_rows, hudi_error *err);

/* Bytes the column holds for the current row group (pages + open page estimate). */
int64_t hudi_pq_wcol_buffered(const pq_wcol *c);

/* Closes the open page and builds the dictionary page (if any data page used it). */
int hudi_pq_wcol_finish(pq_wctx *cx, pq_wcol *c, hudi_error *err);

/* Chunk statistics (after finish): fills `out`, slices borrowed from `c` until reset. */
int hudi_pq_wcol_statistics(pq_wcol *c, pq_statistics *out, hudi_error *err);

/* ColumnIndex / OffsetIndex of the finished chunk, encoded; `data_start` is the file offset
 * of the first data page. Appends nothing to `ci` when no ColumnIndex should be written
 * (returns 0 and sets *has_ci = false). */
int hudi_pq_wcol_page_index(pq_wcol *c, int64_t data_start, hudi_buf *ci, bool *has_ci,
                            hudi_buf *oi, hudi_error *err);

/* Bloom filter of the finished chunk (header + bitset) appended to `out`. */
int hudi_pq_wcol_bloom(pq_wcol *c, double fpp, hudi_buf *out, hudi_error *err);

/* Forgets the chunk (keeps memory) for the next row group. */
void hudi_pq_wcol_reset(pq_wcol *c);

#endif
