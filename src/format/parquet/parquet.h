/* parquet.h - the Parquet module's API for the layers above: open a file, read its footer
 * and schema, scan columnar batches (projection, statistics and page-index skipping, exact
 * filtering of simple predicates), and write files from batches.
 *
 * Everything below this header (thrift, meta, encodings, codecs, nested assembly) is
 * internal to src/format/parquet: in particular the Thrift structs of meta.h are not exported
 * (cmake/layers.txt), so the footer reaches the layers above only through the functions
 * here. Nothing here knows about Hudi. */
#ifndef HUDI_PQ_H
#define HUDI_PQ_H

#include <stdatomic.h>

#include "columnar/columnar.h"
#include "storage/storage.h"

/* Compression codecs: CompressionCodec of parquet.thrift (the same values as meta.h's
 * PQ_CODEC_*, docs/formats/parquet.md). */
enum {
    HUDI_PQ_CODEC_UNCOMPRESSED = 0,
    HUDI_PQ_CODEC_SNAPPY = 1,
    HUDI_PQ_CODEC_GZIP = 2,
    HUDI_PQ_CODEC_LZO = 3,
    HUDI_PQ_CODEC_BROTLI = 4,
    HUDI_PQ_CODEC_LZ4 = 5, /* the deprecated Hadoop-framed LZ4 */
    HUDI_PQ_CODEC_ZSTD = 6,
    HUDI_PQ_CODEC_LZ4_RAW = 7
};

/* ================================ reading ================================================= */

typedef struct hudi_pq_file hudi_pq_file;

typedef struct hudi_pq_open_options {
    int version;           /* HUDI_PQ_OPEN_OPTIONS_VERSION */
    bool verify_crc;       /* check page CRCs when present (default true) */
    bool binary_as_string; /* unannotated BYTE_ARRAY read as STRING (Spark's binaryAsString) */
} hudi_pq_open_options;

#define HUDI_PQ_OPEN_OPTIONS_VERSION 1
#define HUDI_PQ_OPEN_OPTIONS_INIT                                                                  \
    { HUDI_PQ_OPEN_OPTIONS_VERSION, true, false }

/** Opens `path` on `fs` and parses its footer and schema. `opts` may be NULL (defaults).
 *  Errors name the file: not parquet, encrypted, corrupt footer, unsupported schema. */
int hudi_pq_open(hudi_pq_file **out, hudi_fs *fs, const char *path,
                 const hudi_pq_open_options *opts, hudi_error *err);
void hudi_pq_close(hudi_pq_file *f); /* NULL-safe */

/** The decoded footer (lives as long as the file). Opaque here: only the format layer (and
 *  the exceptions cmake/layers.txt lists) include format/parquet/meta.h to look inside. */
const struct pq_file_meta *hudi_pq_meta(const hudi_pq_file *f);
/** The file's schema as a STRUCT field whose children are the top-level columns. */
const hudi_field *hudi_pq_schema(const hudi_pq_file *f);
/** Sum of the row groups' row counts (FileMetaData.num_rows is not trusted). */
int64_t hudi_pq_num_rows(const hudi_pq_file *f);
/** The file's size in bytes. */
int64_t hudi_pq_file_size(const hudi_pq_file *f);
/** Number of row groups in the footer. */
int32_t hudi_pq_num_row_groups(const hudi_pq_file *f);
/** Rows of row group `rg`, and its uncompressed size (the footer's total_byte_size, as its
 *  writer counted it); -1 for a row group the file does not have. */
int64_t hudi_pq_row_group_rows(const hudi_pq_file *f, int32_t rg);
int64_t hudi_pq_row_group_bytes(const hudi_pq_file *f, int32_t rg);
const char *hudi_pq_path(const hudi_pq_file *f);
/** Value of a footer key/value entry, or NULL. The slice is borrowed from the footer. */
bool hudi_pq_kv(const hudi_pq_file *f, const char *key, hudi_slice *value);

/* A simple predicate: top-level primitive column `column` (index into the schema's
 * children) compared with a constant. Used to skip row groups and pages (from statistics
 * and the page index) and, when `filter_rows` is set in the scan options, to drop rows. */
typedef enum hudi_cmp_op {
    HUDI_CMP_EQ,
    HUDI_CMP_NE,
    HUDI_CMP_LT,
    HUDI_CMP_LE,
    HUDI_CMP_GT,
    HUDI_CMP_GE,
    HUDI_CMP_IS_NULL,
    HUDI_CMP_IS_NOT_NULL,
    /* > and >= in Spark's order of floating point, where NaN sorts above every number and
     * equals NaN: a NaN row matches `> 1.5`, which IEEE 754's GT drops. The same as GT and GE
     * on other types. Statistics and the page index prune with these only where the NaN
     * counts say there is no NaN. */
    HUDI_CMP_GT_TOTAL,
    HUDI_CMP_GE_TOTAL,
} hudi_cmp_op;

typedef struct hudi_value {
    bool is_null;
    int64_t i64;      /* booleans, integers, dates, times, timestamps (in the column's unit) */
    double f64;       /* float, double */
    __int128 dec;     /* decimal unscaled value at the column's scale */
    hudi_slice bytes; /* string, binary, fixed binary (borrowed) */
} hudi_value;

typedef struct hudi_pq_predicate {
    int32_t column;
    hudi_cmp_op op;
    hudi_value value; /* already converted to the column's type */
} hudi_pq_predicate;

/* Clears keep[i] for the rows of `a` (a primitive column) that fail `op` `value` (the value in
 * the column's type; NULL never matches a comparison; NaN only matches !=, and GT_TOTAL and
 * GE_TOTAL with a number). EUNSUPPORTED for a nested column. The row filter of Parquet scans,
 * for callers that filter batches of their own (values converted after reading). keep[i] is 0
 * or 1. */
int hudi_pq_eval_predicate(const hudi_array *a, hudi_cmp_op op, const hudi_value *value,
                           uint8_t *keep, hudi_error *err);

/* A dynamic filter: the boundary of a running top-N (ORDER BY col LIMIT n, docs/SQL.md "Top-N
 * dynamic filter"), shared by every scan feeding it (possibly on other threads). Rows whose
 * value sorts strictly after the boundary in the filter's order (direction, nulls first or
 * last, NaN above every number as in Spark) cannot enter the result; a scan given the filter
 * (hudi_pq_scan_options.dynamic) drops them per row group (statistics), per page (page index)
 * and per row before decoding its other columns. Rows equal to the boundary are kept (ties may
 * still win on later sort keys or on input order). The boundary only tightens; it is one
 * atomic rank, so readers never see a torn value. Columns of type INT8/16/32/64, DATE,
 * TIMESTAMP, FLOAT and DOUBLE. */
typedef struct hudi_pq_dynfilter {
    hudi_type_id type;
    bool desc, nulls_first;
    _Atomic uint64_t bound; /* rank of the boundary (hudi_pq_dynfilter_rank); UINT64_MAX: none */
    /* What scans dropped through the filter (summed over every scan using it). */
    _Atomic int64_t row_groups_skipped, pages_skipped, rows_dropped;
} hudi_pq_dynfilter;

/** Whether a column of type t can carry a dynamic filter. */
bool hudi_pq_dynfilter_supports(hudi_type_id t);
/** Sets up `f` for a column of type `type` sorted desc/nulls_first, with no boundary yet. */
void hudi_pq_dynfilter_init(hudi_pq_dynfilter *f, hudi_type_id type, bool desc, bool nulls_first);
/** The rank of row i of `a` (a non-null value of the filter's type): ranks grow in the sort
 *  order, so a row may be kept while its rank is <= the bound. */
uint64_t hudi_pq_dynfilter_rank(const hudi_pq_dynfilter *f, const hudi_array *a, int64_t i);
/** Tightens the boundary to row i of `a` (non-null) when it sorts before the current one. */
void hudi_pq_dynfilter_tighten(hudi_pq_dynfilter *f, const hudi_array *a, int64_t i);

typedef struct hudi_pq_scan_options {
    int version;            /* HUDI_PQ_SCAN_OPTIONS_VERSION */
    const int32_t *columns; /* top-level column indices to read; NULL = all */
    int32_t n_columns;
    int64_t batch_rows;                  /* rows per batch; 0 = default (65536) */
    const hudi_pq_predicate *predicates; /* ANDed */
    int32_t n_predicates;
    bool filter_rows;          /* also drop rows that fail the predicates */
    bool use_statistics;       /* row-group skipping (default true) */
    bool use_page_index;       /* page skipping (default true) */
    const int32_t *row_groups; /* restrict to these row groups; NULL = all */
    int32_t n_row_groups;
    /* With filter_rows, the scan materialises late: per batch it decodes the predicate columns,
     * evaluates the predicates, and only then reads the other columns, for the selected rows
     * alone (pages of flat columns without a selected row are stepped over undecompressed).
     * eager_filter decodes every projected column first and filters afterwards (the reference
     * path; results are identical either way). */
    bool eager_filter;
    /* A top-N boundary to drop rows by (NULL: none) on top-level flat column dynamic_column
     * (stored as the filter's type); ignored when that column is not projected. */
    hudi_pq_dynfilter *dynamic;
    int32_t dynamic_column;
} hudi_pq_scan_options;

#define HUDI_PQ_SCAN_OPTIONS_VERSION 1
#define HUDI_PQ_SCAN_OPTIONS_INIT                                                                  \
    {                                                                                              \
        HUDI_PQ_SCAN_OPTIONS_VERSION, NULL, 0, 0, NULL, 0, false, true, true, NULL, 0, false,      \
            NULL, 0                                                                                \
    }

typedef struct hudi_pq_scan hudi_pq_scan;

typedef struct hudi_pq_scan_stats {
    int64_t row_groups_total, row_groups_skipped;
    int64_t pages_total, pages_skipped;
    int64_t rows_read, rows_returned;
    int64_t bytes_decompressed;
    /* Late materialisation: data pages of non-predicate columns stepped over without being
     * decompressed because no selected row lies on them, and the rows those columns decoded,
     * summed over their leaves (selected rows, plus unselected ones sharing a page with them). */
    int64_t pages_late_skipped;
    int64_t values_late_decoded;
    /* The dynamic filter (also counted in it): row groups and pages skipped, rows dropped. */
    int64_t row_groups_dynamic_skipped, pages_dynamic_skipped, rows_dynamic_dropped;
} hudi_pq_scan_stats;

/** Starts a scan. The batch schema is the projection of the file schema to `columns`. */
int hudi_pq_scan_open(hudi_pq_scan **out, hudi_pq_file *f, const hudi_pq_scan_options *opts,
                      hudi_error *err);
/** The next batch, or *out = NULL at the end. The batch belongs to the scan and stays valid
 *  until the next call (or until hudi_pq_scan_take_batch moves it out). */
int hudi_pq_scan_next(hudi_pq_scan *s, hudi_batch **out, hudi_error *err);
/** Moves the last batch out of the scan (the caller frees it); the scan builds a new one. */
hudi_batch *hudi_pq_scan_take_batch(hudi_pq_scan *s);
/** Where the last batch's rows are: rows [*first, *first + *rows) of row group *rg, all of
 *  them in order. false when rows of it were filtered out (predicates, the dynamic filter,
 *  late materialisation) or before the first batch. */
bool hudi_pq_scan_last_rows(const hudi_pq_scan *s, int32_t *rg, int64_t *first, int64_t *rows);
/** Schema of the batches (a STRUCT field owned by the scan). */
const hudi_field *hudi_pq_scan_schema(const hudi_pq_scan *s);
const hudi_pq_scan_stats *hudi_pq_scan_get_stats(const hudi_pq_scan *s);
void hudi_pq_scan_free(hudi_pq_scan *s); /* NULL-safe */
/* Scans hand their column readers' chunk, page and level buffers (each at least 64 KB) to a
 * process-wide cache when they end, and later scans start from them, so a warm process does
 * not page-fault fresh buffers for every file. The cache holds at most 48 buffers and 128 MB of
 * capacity. This frees them all now (returns the bytes freed); thread-safe. */
size_t hudi_pq_buffer_cache_clear(void);
/* The bytes the warm-buffer cache holds now (at most 128 MiB). */
size_t hudi_pq_buffer_cache_bytes(void);

/* ================================ writing ================================================= */

/* The value encoding of one column's data pages. `column` is a top-level column name or a
 * dotted path_in_schema prefix down to a leaf ("tags.list.element"); the longest matching entry
 * applies to each leaf. `encoding` is a PQ_ENC_* value, allowed on these physical types:
 *   PLAIN                    any;
 *   RLE                      BOOLEAN (the default for BOOLEAN in v2 pages);
 *   DELTA_BINARY_PACKED      INT32, INT64 (int8/16/32/64, date, time, timestamp, decimal <= 18);
 *   DELTA_LENGTH_BYTE_ARRAY  BYTE_ARRAY (string, binary);
 *   DELTA_BYTE_ARRAY         BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY;
 *   BYTE_STREAM_SPLIT        FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY;
 *   RLE_DICTIONARY           any but BOOLEAN: a dictionary even when `dictionary` is off and
 *                            even when it does not pay; PLAIN pages only once it outgrows
 *                            dictionary_page_bytes (PLAIN_DICTIONARY is taken as this).
 * Any other choice turns the dictionary off for the column and every data page uses it
 * (parquet-mr's v2 writer instead starts with a dictionary and falls back to DELTA_*; hudic
 * keeps the chosen encoding for the whole chunk). Any other combination fails
 * hudi_pq_writer_open with EINVAL naming the column. */
typedef struct hudi_pq_column_encoding {
    const char *column;
    int encoding; /* PQ_ENC_* */
} hudi_pq_column_encoding;

typedef struct hudi_pq_write_options {
    int version;                   /* HUDI_PQ_WRITE_OPTIONS_VERSION */
    int codec;                     /* HUDI_PQ_CODEC_*; default SNAPPY (LZO is not written) */
    int codec_level;               /* 0 = codec default */
    bool data_page_v2;             /* default false: v1 data pages */
    bool dictionary;               /* default true */
    int64_t dictionary_page_bytes; /* fallback to PLAIN past this; default 1 MiB */
    int64_t page_bytes;            /* target uncompressed data page size; default 1 MiB */
    int64_t page_rows;             /* max rows per page; default 20000 */
    int64_t row_group_bytes;       /* target row group size; default 128 MiB */
    int64_t row_group_rows;        /* max rows per row group; default 1M (0 = no limit) */
    bool write_statistics;         /* default true */
    bool write_page_index;         /* default true */
    bool write_crc;                /* default true */
    bool legacy_list_format;       /* parquet-avro 2-level lists; default false */
    bool decimal_as_fixed;         /* always FLBA(minBytes) like parquet-avro; default false */
    int32_t stats_truncate_bytes;  /* page-index bound truncation; default 64 */
    const char *const *bloom_filter_columns; /* top-level column names; NULL = none */
    int32_t n_bloom_filter_columns;
    double bloom_fpp;                                /* default 0.01 */
    const hudi_pq_column_encoding *column_encodings; /* per-column encodings; NULL = defaults */
    int32_t n_column_encodings;
} hudi_pq_write_options;

#define HUDI_PQ_WRITE_OPTIONS_VERSION 1
#define HUDI_PQ_WRITE_OPTIONS_INIT                                                                 \
    {                                                                                              \
        HUDI_PQ_WRITE_OPTIONS_VERSION, HUDI_PQ_CODEC_SNAPPY, 0, false, true, 1 << 20, 1 << 20,     \
            20000, 128ll << 20, 1 << 20, true, true, true, false, false, 64, NULL, 0, 0.01, NULL,  \
            0                                                                                      \
    }

typedef struct hudi_pq_writer hudi_pq_writer;

/** Creates `path` (published only on a successful close). `schema` is a STRUCT field; it is
 *  copied. `opts` may be NULL (defaults). */
int hudi_pq_writer_open(hudi_pq_writer **out, hudi_fs *fs, const char *path,
                        const hudi_field *schema, const hudi_pq_write_options *opts,
                        hudi_error *err);
/** Adds a footer key/value entry (copied). */
int hudi_pq_writer_add_kv(hudi_pq_writer *w, const char *key, const char *value, hudi_error *err);
/** Appends a batch whose schema matches the writer's (same shape). */
int hudi_pq_writer_write(hudi_pq_writer *w, const hudi_batch *b, hudi_error *err);
struct hudi_pool;
/** The pool (its threads, base/pool.h) on which later hudi_pq_writer_write calls encode and
 *  compress the columns of a batch side by side, one task per thread, each with its own
 *  scratch and codec; NULL or a pool of one thread: in the caller, as before. The bytes
 *  written are the same either way (each column is written by one task, in row order). The
 *  pool is borrowed: it must outlive the writes, and no other run may use it meanwhile. */
int hudi_pq_writer_set_pool(hudi_pq_writer *w, struct hudi_pool *pool, hudi_error *err);
/** Whether top-level column `col` of the writer's schema can be taken as stored from row group
 *  `rg` of `src` (hudi_pq_writer_write_copying): a flat column that src stores under the same
 *  name with the same Parquet type (physical type, length, repetition, converted and logical
 *  type) and the writer's codec, in src itself, unencrypted, with no bloom filter wanted, in a
 *  file written by hudic or parquet-mr 1.10 or later with TYPE_ORDER for the column (the
 *  copied statistics are then read as hudic's own). */
bool hudi_pq_writer_can_copy(const hudi_pq_writer *w, int32_t col, const hudi_pq_file *src,
                             int32_t rg);
/** Writes batch `b` as a row group of its own (an open row group is flushed first; the size
 *  limits do not cut it), the columns with copy[col] set taken byte for byte from row group
 *  `rg` of `src` instead of being encoded from b: pages, dictionary, statistics and page index
 *  as stored (the index's page offsets moved; an index that does not decode or points
 *  outside its chunk is left out). b's values of those columns must be the ones src stores
 *  there, row for row: the caller's promise (a compaction's unchanged columns), not checked.
 *  EINVAL when b has not row group rg's row count or a column with copy[col] set fails
 *  hudi_pq_writer_can_copy. A chunk whose page headers do not tile the extent its metadata
 *  gives (sizes, value count) is encoded from b instead. Used for what compaction leaves as it
 *  was (write/compact.c). */
int hudi_pq_writer_write_copying(hudi_pq_writer *w, const hudi_batch *b, const hudi_pq_file *src,
                                 int32_t rg, const bool *copy, hudi_error *err);
/** The file's size so far as parquet-mr's ParquetWriter.getDataSize counts it: bytes of the
 *  finished row groups plus the current row group's buffered (compressed pages, and the open
 *  pages' estimated) bytes. Footer, indexes and bloom filters are not counted. */
int64_t hudi_pq_writer_data_size(const hudi_pq_writer *w);
/** Flushes, writes indexes and the footer, publishes the file, frees `w`. On failure the
 *  file is not published. `*size_bytes` (may be NULL) receives the file size. */
int hudi_pq_writer_close(hudi_pq_writer *w, int64_t *size_bytes, hudi_error *err);
/** Discards the file and frees `w`. NULL-safe. */
void hudi_pq_writer_abort(hudi_pq_writer *w);

/** Memory for column chunks shared by the writers of several files (one write's file groups,
 *  on any thread; internal). A writer given one (hudi_pq_writer_use_block_pool, before its
 *  first write) keeps its pages in blocks taken from the pool and gives them back when its row
 *  group is flushed and when it is freed, so the next file reuses memory that is already
 *  faulted in, whichever thread (and malloc arena) allocated it, instead of each file growing
 *  fresh buffers. The pool holds at most what the writers held at once; it frees it all at the
 *  end. Without a pool a writer allocates its blocks itself. */
typedef struct hudi_pq_block_pool hudi_pq_block_pool;
int hudi_pq_block_pool_new(hudi_pq_block_pool **out, hudi_error *err);
/** NULL-safe; every writer that used `p` must be closed or aborted first. */
void hudi_pq_block_pool_free(hudi_pq_block_pool *p);
void hudi_pq_writer_use_block_pool(hudi_pq_writer *w, hudi_pq_block_pool *p);

#endif
