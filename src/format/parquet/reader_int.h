/* reader_int.h - internals shared by the reader's files: the open file, the per-column page
 * reader, and value conversion from Parquet's physical types to hudic's column layout. */
#ifndef HUDI_PQ_READER_INT_H
#define HUDI_PQ_READER_INT_H

#include "format/parquet/codec.h"
#include "format/parquet/encoding.h"
#include "format/parquet/parquet.h"
#include "format/parquet/schema.h"
#include "format/parquet/snappy.h"
#include "format/parquet/stats.h"

struct hudi_pq_file {
    hudi_file *file;
    char *path;
    int64_t size_bytes;
    int64_t footer_start;
    int64_t num_rows;
    hudi_pq_open_options opts;
    hudi_arena arena; /* footer strings and lists */
    pq_file_meta meta;
    pq_schema schema;
};

/* Reads one leaf column of one row group page by page and appends records to arrays. */
typedef struct pq_colreader {
    hudi_pq_file *f;
    const pq_leaf *leaf;
    const pq_column_meta *cm;
    int32_t row_group;
    pq_codec_ctx *codec;  /* borrowed from the scan */
    int32_t stored_width; /* bytes per PLAIN value (0 = byte array, -1 = bit) */
    int32_t out_width;    /* bytes per value in the hudi_array (0 = var, -1 = bit) */
    bool convert;         /* stored representation differs from the array's */
    /* flat strings and binaries: the rows and data bytes earlier reads returned, which size
     * the next read's data buffer at once instead of doubling it (a copy per doubling) */
    int64_t seen_rows, seen_bytes;

    const uint8_t *chunk; /* the chunk's bytes: a view (mmap) or chunk_owned */
    uint8_t *chunk_owned;
    size_t chunk_cap;
    size_t chunk_len, pos;
    int64_t entries_seen; /* level entries of data pages loaded so far */
    int32_t data_pages;

    /* dictionary, already converted to the array's representation */
    bool has_dict;
    bool dict_pending; /* skipped over at dict_pos, not loaded yet */
    size_t dict_pos;
    pq_dict dict;
    uint8_t *dict_values;
    int32_t *dict_offsets;
    uint8_t *dict_data;

    /* current data page */
    bool page_loaded;
    bool page_v2;
    int32_t encoding;
    int64_t n_entries, entry_pos;
    int16_t *def, *rep;
    int64_t level_cap;
    bool all_defined;
    bool one_value; /* the last emit_flat's values were all the one entry of a dictionary */
    const uint8_t *vals;
    size_t vals_len, vpos_bytes;
    int64_t vpos;
    uint8_t *page_buf;
    size_t page_cap;
    /* A SNAPPY v1 page of PLAIN fixed-width values of a flat column is decoded into page_buf
     * only as far as it is consumed (reader_column.c, lazy_fill), so values are copied out
     * while still in cache; the rest of the page is decoded and checked when its last entry
     * is emitted. */
    bool lazy;
    pq_snappy_stream snappy;
    pq_rle_decoder rle;
    pq_delta_decoder delta;
    pq_dlba_decoder dlba;
    pq_dba_decoder dba;
    bool dba_live;
    uint8_t *scratch;
    size_t scratch_cap;
    int64_t bytes_decompressed;
    int64_t pages_stepped; /* data pages skipped without decompression (skip) */
    int64_t rows_trashed;  /* records decoded only to be dropped (skip) */
    int64_t skip_pending;  /* records skipped but not stepped over yet */
    hudi_array *trash;     /* rows decoded only to be skipped */
} pq_colreader;

/* `cr` must be zeroed or released: its buffers are reused. */
int hudi_pq_colreader_init(pq_colreader *cr, hudi_pq_file *f, int32_t row_group,
                           const pq_leaf *leaf, pq_codec_ctx *codec, hudi_error *err);
/* Appends exactly `records` records of the leaf to `column` (the top-level array holding the
 * leaf). ECORRUPT when the chunk holds fewer. */
int hudi_pq_colreader_read(pq_colreader *cr, hudi_array *column, int64_t records, hudi_error *err);
/* Skips `records` records. Skips are deferred to the next read and merged, so whole pages are
 * stepped over without being decompressed (flat columns, nested ones without repetition, v2
 * pages of repeated ones); partial pages are decoded and dropped. */
int hudi_pq_colreader_skip(pq_colreader *cr, int64_t records, hudi_error *err);
/* At the end of the chunk: drops a pending skip, counting (pages_stepped) the whole pages it
 * leaves unread. */
void hudi_pq_colreader_finish(pq_colreader *cr);
/* Ends the chunk but keeps the reusable buffers for the next hudi_pq_colreader_init. */
void hudi_pq_colreader_release(pq_colreader *cr);
void hudi_pq_colreader_dispose(pq_colreader *cr);

struct hudi_pq_scan {
    hudi_pq_file *f;
    hudi_pq_scan_options opts;
    hudi_field schema; /* projected STRUCT */
    int32_t n_cols;
    int32_t *cols; /* file column index of each batch column */
    int32_t n_rgs;
    int32_t *rgs;   /* row groups to visit, in order */
    int32_t rg_pos; /* next entry of rgs */
    int32_t cur_rg;
    int32_t n_readers;
    pq_colreader *readers; /* one per projected leaf */
    int32_t *reader_col;   /* batch column of each reader */
    pq_codec_ctx *codec;
    hudi_batch *batch;
    hudi_pq_predicate *preds;
    hudi_pq_scan_stats stats;
    int64_t *ranges; /* [start, end) row pairs of the current row group to read */
    int32_t n_ranges, range_idx;
    int64_t row_pos; /* next row of the current row group the readers stand at */
    /* late materialisation (filter_rows without eager_filter; reader.c) */
    bool late;         /* every predicate column is a projected flat column */
    bool *reader_pred; /* per reader: its batch column is filtered on (read first) */
    bool *col_pred;    /* per batch column: a predicate is evaluated on it; then the negation */
    uint8_t *keep;     /* selection flags of the current rows, reused */
    int64_t keep_cap;
    int32_t dyn_col; /* opts.dynamic: the batch column it filters (read first when late) */
    /* the last batch: rows [last_first, last_first + last_rows) of row group last_rg, every
     * one of them (last_rg -1: some were filtered out, or no batch yet) */
    int32_t last_rg;
    int64_t last_first, last_rows;
};

/* reader_skip.c: row-group skipping from statistics, and exact row filtering. */
bool hudi_pq_scan_keep_row_group(hudi_pq_scan *s, int32_t rg);
/* The leaf of a top-level primitive column, or NULL for a nested column. */
const pq_leaf *hudi_pq_flat_leaf(const pq_schema *ps, int32_t column);
/* PLAIN bytes of a predicate constant in the leaf's physical type (into buf, or borrowing the
 * constant's bytes); -1 when it has no exact physical form (nothing may then be pruned). */
int hudi_pq_plain_constant(const pq_leaf *leaf, const hudi_value *v, uint8_t buf[32],
                           hudi_slice *out);
/* FLOAT, DOUBLE or FLOAT16. */
bool hudi_pq_is_float(hudi_type_id t);
/* Whether op is GT_TOTAL or GE_TOTAL (NaN above every number, parquet.h). */
bool hudi_pq_total_op(hudi_cmp_op op);
/* GT for GT_TOTAL, GE for GE_TOTAL, else op: the same comparison where no NaN is involved. */
hudi_cmp_op hudi_pq_ieee_op(hudi_cmp_op op);
/* True when chunk statistics `sv` leave room for a row of `rows` satisfying p. */
bool hudi_pq_chunk_may_match(const pq_stats_view *sv, const hudi_pq_predicate *p,
                             const pq_leaf *leaf, int64_t rows);
/* reader_dynamic.c: the dynamic filter's boundary as a predicate on `column` (>= for a
 * descending sort, <= ascending) for statistics, and whether nulls and NaNs pass it besides;
 * false when there is no boundary usable that way. */
bool hudi_pq_dyn_predicate(const hudi_pq_dynfilter *f, int32_t column, hudi_pq_predicate *p,
                           bool *nulls_pass, bool *nan_pass);
/* Whether row group rg may hold a row the dynamic filter keeps (counts a skip). */
bool hudi_pq_dyn_keep_row_group(hudi_pq_scan *s, int32_t rg);
/* Clears keep[i] for the first n rows of `a` (the filtered column) the filter drops. */
void hudi_pq_dyn_select(hudi_pq_scan *s, const hudi_array *a, int64_t n, uint8_t *keep);
/* reader_pageindex.c: the row ranges of row group `rg` that may match (s->ranges). */
int hudi_pq_scan_select_rows(hudi_pq_scan *s, int32_t rg, hudi_error *err);
int hudi_pq_scan_filter_batch(hudi_pq_scan *s, hudi_batch *b, hudi_error *err);
/* Evaluates the predicates on the first `n` rows of b's predicate columns (s->pred_col) into
 * keep[0..n) and counts the kept rows. */
int hudi_pq_scan_select(hudi_pq_scan *s, const hudi_batch *b, int64_t n, uint8_t *keep,
                        int64_t *kept, hudi_error *err);
/* Replaces the columns of b for which `which` is NULL or true by their rows with keep set. */
int hudi_pq_batch_compact(hudi_batch *b, int64_t n, const uint8_t *keep, const bool *which,
                          hudi_error *err);

#endif
