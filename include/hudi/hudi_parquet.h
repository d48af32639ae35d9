/**
 * @file hudi_parquet.h
 * @brief Parquet files: open one, inspect its footer (schema, row groups, column chunks,
 *        statistics, key/value metadata), scan it with projection and predicates into an Arrow
 *        C stream, and write Arrow C batches into a new file.
 *
 * Nothing here knows about Hudi: these are plain Parquet files on a local path. The Arrow
 * structs are declared only by name: include hudi_arrow.h (or Arrow's own arrow/c/abi.h) to
 * use them.
 *
 * Conventions (as in hudi_table.h): handles are opaque; constructors return 0 or a negative
 * HUDI_E* code, fill the caller's hudi_error (which may be NULL) and leave `*out` NULL on
 * failure; hudi_*_close/free(NULL) does nothing; option structs are versioned (start from the
 * _INIT macro, then set fields). Footer facts are read through accessor functions that fill
 * small plain structs; the bytes they point to (names, statistics, key/value entries) are
 * borrowed from the open file and valid until hudi_parquet_close.
 *
 * Reading, in short:
 * @code
 * hudi_parquet_file *f = NULL;
 * hudi_error err = HUDI_ERROR_INIT;
 * if (hudi_parquet_open(&f, "trips.parquet", NULL, &err) < 0) fprintf(stderr, "%s\n", err.message);
 * const char *cols[] = {"rider", "fare"};
 * hudi_parquet_scan_options so = HUDI_PARQUET_SCAN_OPTIONS_INIT;
 * so.columns = cols;
 * so.n_columns = 2;
 * so.filter = "fare > 10";
 * hudi_parquet_scan *scan = NULL;
 * hudi_parquet_scan_open(&scan, f, &so, &err);
 * struct ArrowArrayStream stream;
 * hudi_parquet_scan_to_arrow(scan, &stream, &err);  // get_next until the array's release is NULL
 * stream.release(&stream);
 * hudi_parquet_scan_free(scan);                     // after the stream
 * hudi_parquet_close(f);
 * @endcode
 *
 * Threads: a file and the scans opened from it are used by one thread at a time; different
 * files are independent.
 */
#ifndef HUDI_PARQUET_PUBLIC_H
#define HUDI_PARQUET_PUBLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hudi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowSchema;
struct ArrowArray;
struct ArrowArrayStream;

typedef struct hudi_parquet_file hudi_parquet_file;
typedef struct hudi_parquet_scan hudi_parquet_scan;
typedef struct hudi_parquet_writer hudi_parquet_writer;

/** Bytes borrowed from a file's footer (not NUL-terminated). */
typedef struct hudi_parquet_bytes {
    const uint8_t *data;
    size_t len;
} hudi_parquet_bytes;

/* ---- enums: the values of parquet.thrift ---------------------------------------------------- */

/** Physical types. */
typedef enum hudi_parquet_type {
    HUDI_PARQUET_BOOLEAN = 0,
    HUDI_PARQUET_INT32 = 1,
    HUDI_PARQUET_INT64 = 2,
    HUDI_PARQUET_INT96 = 3,
    HUDI_PARQUET_FLOAT = 4,
    HUDI_PARQUET_DOUBLE = 5,
    HUDI_PARQUET_BYTE_ARRAY = 6,
    HUDI_PARQUET_FIXED_LEN_BYTE_ARRAY = 7,
} hudi_parquet_type;

/** Field repetition. */
enum { HUDI_PARQUET_REQUIRED = 0, HUDI_PARQUET_OPTIONAL = 1, HUDI_PARQUET_REPEATED = 2 };

/** Compression codecs. LZO is read by nothing and written by nothing. */
typedef enum hudi_parquet_codec {
    HUDI_PARQUET_UNCOMPRESSED = 0,
    HUDI_PARQUET_SNAPPY = 1,
    HUDI_PARQUET_GZIP = 2,
    HUDI_PARQUET_LZO = 3,
    HUDI_PARQUET_BROTLI = 4,
    HUDI_PARQUET_LZ4 = 5, /**< the deprecated Hadoop-framed LZ4 */
    HUDI_PARQUET_ZSTD = 6,
    HUDI_PARQUET_LZ4_RAW = 7,
} hudi_parquet_codec;

/** Value encodings. HUDI_PARQUET_ENCODING_DEFAULT lets the writer choose. */
typedef enum hudi_parquet_encoding {
    HUDI_PARQUET_ENCODING_DEFAULT = -1,
    HUDI_PARQUET_ENCODING_PLAIN = 0,
    HUDI_PARQUET_ENCODING_PLAIN_DICTIONARY = 2,
    HUDI_PARQUET_ENCODING_RLE = 3,
    HUDI_PARQUET_ENCODING_BIT_PACKED = 4,
    HUDI_PARQUET_ENCODING_DELTA_BINARY_PACKED = 5,
    HUDI_PARQUET_ENCODING_DELTA_LENGTH_BYTE_ARRAY = 6,
    HUDI_PARQUET_ENCODING_DELTA_BYTE_ARRAY = 7,
    HUDI_PARQUET_ENCODING_RLE_DICTIONARY = 8,
    HUDI_PARQUET_ENCODING_BYTE_STREAM_SPLIT = 9,
} hudi_parquet_encoding;

/** LogicalType kinds (the union member ids; 0 = none or a kind this version does not know). */
enum {
    HUDI_PARQUET_LT_NONE = 0,
    HUDI_PARQUET_LT_STRING = 1,
    HUDI_PARQUET_LT_MAP = 2,
    HUDI_PARQUET_LT_LIST = 3,
    HUDI_PARQUET_LT_ENUM = 4,
    HUDI_PARQUET_LT_DECIMAL = 5,
    HUDI_PARQUET_LT_DATE = 6,
    HUDI_PARQUET_LT_TIME = 7,
    HUDI_PARQUET_LT_TIMESTAMP = 8,
    HUDI_PARQUET_LT_INTEGER = 10,
    HUDI_PARQUET_LT_UNKNOWN = 11,
    HUDI_PARQUET_LT_JSON = 12,
    HUDI_PARQUET_LT_BSON = 13,
    HUDI_PARQUET_LT_UUID = 14,
    HUDI_PARQUET_LT_FLOAT16 = 15,
    HUDI_PARQUET_LT_VARIANT = 16,
    HUDI_PARQUET_LT_GEOMETRY = 17,
    HUDI_PARQUET_LT_GEOGRAPHY = 18,
    HUDI_PARQUET_LT_FILE = 19,
};

/** TIME/TIMESTAMP units. */
enum {
    HUDI_PARQUET_UNIT_UNKNOWN = 0,
    HUDI_PARQUET_UNIT_MILLIS = 1,
    HUDI_PARQUET_UNIT_MICROS = 2,
    HUDI_PARQUET_UNIT_NANOS = 3,
};

/** Column orders (FileMetaData.column_orders). */
enum {
    HUDI_PARQUET_ORDER_UNKNOWN = 0,
    HUDI_PARQUET_ORDER_TYPE = 1,
    HUDI_PARQUET_ORDER_IEEE754_TOTAL = 2,
    HUDI_PARQUET_ORDER_INT96 = 3,
};

/** Page types (encoding statistics). */
enum {
    HUDI_PARQUET_PAGE_DATA = 0,
    HUDI_PARQUET_PAGE_INDEX = 1,
    HUDI_PARQUET_PAGE_DICTIONARY = 2,
    HUDI_PARQUET_PAGE_DATA_V2 = 3,
};

/* ---- opening -------------------------------------------------------------------------------- */

/** Options for opening a file. */
typedef struct hudi_parquet_open_options {
    int version;           /**< HUDI_PARQUET_OPEN_OPTIONS_VERSION */
    bool verify_crc;       /**< check page CRCs where present (default true) */
    bool binary_as_string; /**< unannotated BYTE_ARRAY read as strings (Spark's binaryAsString) */
} hudi_parquet_open_options;
#define HUDI_PARQUET_OPEN_OPTIONS_VERSION 1
#define HUDI_PARQUET_OPEN_OPTIONS_INIT                                                             \
    { HUDI_PARQUET_OPEN_OPTIONS_VERSION, true, false }

/** Opens the Parquet file at `path` (a local path) and reads its footer and schema. `opts` may
 *  be NULL (defaults). HUDI_ENOTFOUND when there is no such file, HUDI_ECORRUPT when it is not
 *  Parquet or its footer is malformed, HUDI_EUNSUPPORTED for encrypted footers or schemas hudic
 *  cannot map; the message names the file. */
HUDI_API int hudi_parquet_open(hudi_parquet_file **out, const char *path,
                               const hudi_parquet_open_options *opts, hudi_error *err);

/** Closes the file. NULL does nothing. Scans must be freed first. */
HUDI_API void hudi_parquet_close(hudi_parquet_file *f);

/** The path given to hudi_parquet_open. */
HUDI_API const char *hudi_parquet_path(const hudi_parquet_file *f);
/** The file's size in bytes. */
HUDI_API int64_t hudi_parquet_file_size(const hudi_parquet_file *f);
/** Rows in the file: the sum of the row groups' row counts. */
HUDI_API int64_t hudi_parquet_num_rows(const hudi_parquet_file *f);

/* ---- the schema ----------------------------------------------------------------------------- */

/** The file's schema as an Arrow struct schema ("+s") of its top-level columns, as scans
 *  return them. The caller owns `out` and calls out->release. */
HUDI_API int hudi_parquet_schema(const hudi_parquet_file *f, struct ArrowSchema *out,
                                 hudi_error *err);

/** Number of top-level columns. */
HUDI_API int32_t hudi_parquet_num_columns(const hudi_parquet_file *f);
/** Name of top-level column `i`, or NULL when out of range. */
HUDI_API const char *hudi_parquet_column_name(const hudi_parquet_file *f, int32_t i);
/** hudic's type of top-level column `i` as text ("int64", "struct<a: string>",
 *  "timestamp[us, UTC]"), with " not null" for required columns, written snprintf-style to
 *  buf[0..cap). Returns the full length (cap may be 0), or -1 when `i` is out of range. */
HUDI_API int64_t hudi_parquet_column_type_text(const hudi_parquet_file *f, int32_t i, char *buf,
                                               size_t cap);
/** Field id of top-level column `i`, or -1 when it has none. */
HUDI_API int32_t hudi_parquet_column_field_id(const hudi_parquet_file *f, int32_t i);

/** LogicalType of a schema element. */
typedef struct hudi_parquet_logical_type {
    int32_t kind;             /**< HUDI_PARQUET_LT_* */
    int32_t scale, precision; /**< DECIMAL */
    bool utc;                 /**< TIME, TIMESTAMP: isAdjustedToUTC */
    int32_t unit;             /**< TIME, TIMESTAMP: HUDI_PARQUET_UNIT_* */
    int32_t bit_width;        /**< INTEGER */
    bool is_signed;           /**< INTEGER */
} hudi_parquet_logical_type;

/** One SchemaElement of the footer, as stored. Absent optional fields are -1. */
typedef struct hudi_parquet_schema_element {
    hudi_parquet_bytes name;
    int32_t num_children;   /**< 0 for leaves */
    int32_t repetition;     /**< HUDI_PARQUET_REQUIRED...; -1 when absent */
    int32_t physical_type;  /**< hudi_parquet_type; -1 when absent (groups) */
    int32_t type_length;    /**< FIXED_LEN_BYTE_ARRAY width; -1 when absent */
    int32_t converted_type; /**< ConvertedType (UTF8 = 0 ... INTERVAL = 21); -1 when absent */
    int32_t scale, precision;
    int32_t field_id;
    bool has_logical_type;
    hudi_parquet_logical_type logical_type;
} hudi_parquet_schema_element;

/** Number of SchemaElements (the root included). */
HUDI_API int32_t hudi_parquet_num_schema_elements(const hudi_parquet_file *f);
/** SchemaElement `i` in the footer's pre-order (0 is the root). HUDI_EINVAL when out of range. */
HUDI_API int hudi_parquet_schema_element_get(const hudi_parquet_file *f, int32_t i,
                                             hudi_parquet_schema_element *out);
/** Number of leaf columns (the column chunks of each row group). */
HUDI_API int32_t hudi_parquet_num_leaves(const hudi_parquet_file *f);
/** The SchemaElement index of leaf `leaf`, or -1 when out of range. */
HUDI_API int32_t hudi_parquet_leaf_element(const hudi_parquet_file *f, int32_t leaf);

/* ---- the footer ----------------------------------------------------------------------------- */

/** File-level facts of the footer (FileMetaData). */
typedef struct hudi_parquet_file_info {
    int32_t format_version;    /**< FileMetaData.version */
    int64_t footer_num_rows;   /**< FileMetaData.num_rows as stored (not trusted) */
    int32_t num_row_groups;    /**< row groups */
    int32_t num_key_values;    /**< key/value entries; -1 when the list is absent */
    int32_t num_column_orders; /**< column orders; -1 when absent */
    bool has_created_by;       /**< created_by present */
    hudi_parquet_bytes created_by;
    bool encryption_algorithm; /**< an encrypted file with a plaintext footer */
} hudi_parquet_file_info;

HUDI_API void hudi_parquet_file_info_get(const hudi_parquet_file *f, hudi_parquet_file_info *out);

/** A key/value metadata entry. */
typedef struct hudi_parquet_key_value {
    hudi_parquet_bytes key;
    bool has_value;
    hudi_parquet_bytes value;
} hudi_parquet_key_value;

/** Footer key/value entry `i` (HUDI_EINVAL when out of range). */
HUDI_API int hudi_parquet_key_value_get(const hudi_parquet_file *f, int32_t i,
                                        hudi_parquet_key_value *out);
/** The value of footer key `key` (NUL-terminated), or false when there is none. */
HUDI_API bool hudi_parquet_key_value_find(const hudi_parquet_file *f, const char *key,
                                          hudi_parquet_bytes *value);
/** Column order of leaf `i` (HUDI_PARQUET_ORDER_*), -1 when out of range. */
HUDI_API int32_t hudi_parquet_column_order(const hudi_parquet_file *f, int32_t i);

/** One row group (RowGroup). Absent optional fields are -1. */
typedef struct hudi_parquet_row_group {
    int64_t num_rows;
    int64_t total_byte_size;
    int64_t total_compressed_size;
    int64_t file_offset;
    int32_t ordinal;
    int32_t num_columns;         /**< column chunks */
    int32_t num_sorting_columns; /**< -1 when absent */
} hudi_parquet_row_group;

HUDI_API int hudi_parquet_row_group_get(const hudi_parquet_file *f, int32_t rg,
                                        hudi_parquet_row_group *out);

/** A sorting column of a row group. */
typedef struct hudi_parquet_sorting_column {
    int32_t column; /**< leaf index */
    bool descending, nulls_first;
} hudi_parquet_sorting_column;

HUDI_API int hudi_parquet_sorting_column_get(const hudi_parquet_file *f, int32_t rg, int32_t i,
                                             hudi_parquet_sorting_column *out);

/** Column chunk statistics. `*_value` are the min_value/max_value fields (in the column's
 *  order), `deprecated_*` the old min/max pair (possibly signed-ordered); values are the
 *  PLAIN encoding of one value (without length prefix). Absent counts are -1, and an absent
 *  exactness flag is -1 (else 0 or 1). */
typedef struct hudi_parquet_statistics {
    int64_t null_count, distinct_count, nan_count;
    bool has_min_value, has_max_value;
    hudi_parquet_bytes min_value, max_value;
    int8_t min_exact, max_exact;
    bool has_deprecated_min, has_deprecated_max;
    hudi_parquet_bytes deprecated_min, deprecated_max;
} hudi_parquet_statistics;

/** One column chunk (ColumnChunk and its ColumnMetaData). Absent optional numbers are -1. */
typedef struct hudi_parquet_column_chunk {
    bool has_meta_data; /**< false: the fields below are unset */
    bool encrypted;     /**< column crypto metadata present */
    bool has_file_path;
    hudi_parquet_bytes file_path;
    int32_t physical_type; /**< hudi_parquet_type */
    int32_t codec;         /**< hudi_parquet_codec */
    int32_t num_path;      /**< path_in_schema parts (hudi_parquet_column_chunk_path) */
    int32_t num_encodings;
    const int32_t *encodings;   /**< hudi_parquet_encoding values */
    int32_t num_encoding_stats; /**< -1 when absent */
    int32_t num_key_values;     /**< per-chunk key/value entries */
    int64_t num_values, total_compressed_size, total_uncompressed_size;
    int64_t data_page_offset, dictionary_page_offset, index_page_offset;
    int64_t column_index_offset, offset_index_offset;
    int32_t column_index_length, offset_index_length;
    int64_t bloom_filter_offset;
    int32_t bloom_filter_length;
    bool has_statistics;
    hudi_parquet_statistics statistics;
} hudi_parquet_column_chunk;

/** Column chunk `column` (a leaf index) of row group `rg`. HUDI_EINVAL when out of range. */
HUDI_API int hudi_parquet_column_chunk_get(const hudi_parquet_file *f, int32_t rg, int32_t column,
                                           hudi_parquet_column_chunk *out);
/** Part `i` of a chunk's path_in_schema (empty bytes when out of range). */
HUDI_API hudi_parquet_bytes hudi_parquet_column_chunk_path(const hudi_parquet_file *f, int32_t rg,
                                                           int32_t column, int32_t i);

/** A page encoding statistic of a column chunk. */
typedef struct hudi_parquet_encoding_stats {
    int32_t page_type; /**< HUDI_PARQUET_PAGE_* */
    int32_t encoding;  /**< hudi_parquet_encoding */
    int32_t count;
} hudi_parquet_encoding_stats;

HUDI_API int hudi_parquet_encoding_stats_get(const hudi_parquet_file *f, int32_t rg, int32_t column,
                                             int32_t i, hudi_parquet_encoding_stats *out);
/** Key/value entry `i` of a column chunk's metadata. */
HUDI_API int hudi_parquet_column_key_value_get(const hudi_parquet_file *f, int32_t rg,
                                               int32_t column, int32_t i,
                                               hudi_parquet_key_value *out);

/** A statistics value of leaf `leaf` as text, per the leaf's type and annotation (dates,
 *  timestamps, decimals, UUIDs, half floats, quoted strings; hex for bytes that are not text or
 *  do not fit the type), written snprintf-style to buf[0..cap); strings longer than 100 bytes
 *  are cut. Returns the full length. */
HUDI_API int64_t hudi_parquet_stat_text(const hudi_parquet_file *f, int32_t leaf,
                                        hudi_parquet_bytes value, char *buf, size_t cap);

/* ---- scanning ------------------------------------------------------------------------------- */

/** Comparison operators of a structured predicate. */
typedef enum hudi_parquet_op {
    HUDI_PARQUET_EQ,
    HUDI_PARQUET_NE,
    HUDI_PARQUET_LT,
    HUDI_PARQUET_LE,
    HUDI_PARQUET_GT,
    HUDI_PARQUET_GE,
    HUDI_PARQUET_IS_NULL,
    HUDI_PARQUET_IS_NOT_NULL,
} hudi_parquet_op;

/** "column op constant" on a top-level primitive column. The constant is text converted
 *  exactly to the column's type (as the filter string's constants are: numbers, true/false,
 *  dates, times and timestamps as rendered, strings as they are); `value_is_hex` reads it as hex
 *  digits of a binary constant. `value` is ignored for IS [NOT] NULL. */
typedef struct hudi_parquet_predicate {
    const char *column;
    hudi_parquet_op op;
    const char *value;
    bool value_is_hex;
} hudi_parquet_predicate;

/** Options of a scan. Strings and arrays are borrowed for the duration of
 *  hudi_parquet_scan_open. */
typedef struct hudi_parquet_scan_options {
    int version;                /**< HUDI_PARQUET_SCAN_OPTIONS_VERSION */
    const char *const *columns; /**< top-level columns to return, in this order; NULL = all */
    int32_t n_columns;
    const char *filter; /**< "col op constant" or "col IS [NOT] NULL", the grammar of
                             hudi_scan_options.filter; NULL = none */
    const hudi_parquet_predicate *predicates; /**< more predicates, ANDed with `filter` */
    int32_t n_predicates;
    bool filter_rows;    /**< drop the rows that fail (default true); false: predicates only
                              skip row groups and pages, so some rows may not match */
    bool use_statistics; /**< skip row groups from statistics (default true) */
    bool use_page_index; /**< skip pages from the page index (default true) */
    int64_t batch_rows;  /**< rows per batch at most; 0 = 65536 */
} hudi_parquet_scan_options;
#define HUDI_PARQUET_SCAN_OPTIONS_VERSION 1
#define HUDI_PARQUET_SCAN_OPTIONS_INIT                                                             \
    { HUDI_PARQUET_SCAN_OPTIONS_VERSION, NULL, 0, NULL, NULL, 0, true, true, true, 0 }

/** Starts a scan of `f` (which must outlive it). Predicate columns need not be among the
 *  returned columns. HUDI_ENOTFOUND for an unknown column, HUDI_EINVAL for a bad filter or
 *  constant (the message says which). */
HUDI_API int hudi_parquet_scan_open(hudi_parquet_scan **out, hudi_parquet_file *f,
                                    const hudi_parquet_scan_options *opts, hudi_error *err);

/** An Arrow C stream over the scan: each get_next yields one record batch (a struct array the
 *  consumer owns); a released array (release == NULL) marks the end. The stream borrows the
 *  scan: release the stream before hudi_parquet_scan_free. One stream per scan. */
HUDI_API int hudi_parquet_scan_to_arrow(hudi_parquet_scan *scan, struct ArrowArrayStream *out,
                                        hudi_error *err);

/** What a scan did so far. */
typedef struct hudi_parquet_scan_stats {
    int64_t row_groups_total, row_groups_skipped; /**< skipped from statistics */
    int64_t pages_total, pages_skipped;           /**< skipped from the page index */
    int64_t rows_read, rows_returned;             /**< decoded, and left after filtering */
    int64_t bytes_decompressed;
} hudi_parquet_scan_stats;

HUDI_API void hudi_parquet_scan_stats_get(const hudi_parquet_scan *scan,
                                          hudi_parquet_scan_stats *out);

/** Frees a scan. NULL does nothing. */
HUDI_API void hudi_parquet_scan_free(hudi_parquet_scan *scan);

/* ---- writing -------------------------------------------------------------------------------- */

/** An encoding for the values of one top-level column. */
typedef struct hudi_parquet_column_encoding {
    const char *column;             /**< top-level column name */
    hudi_parquet_encoding encoding; /**< PLAIN, DELTA_*, BYTE_STREAM_SPLIT, RLE (booleans) */
} hudi_parquet_column_encoding;

/** Options of a writer. Strings and arrays are borrowed for the duration of
 *  hudi_parquet_writer_open. */
typedef struct hudi_parquet_write_options {
    int version;                             /**< HUDI_PARQUET_WRITE_OPTIONS_VERSION */
    hudi_parquet_codec codec;                /**< default SNAPPY */
    int32_t codec_level;                     /**< 0 = the codec's default */
    bool dictionary;                         /**< dictionary encoding first (default true) */
    int64_t dictionary_page_bytes;           /**< fall back to PLAIN past this; 0 = 1 MiB */
    bool data_page_v2;                       /**< DATA_PAGE_V2 pages (default false: v1) */
    int64_t page_bytes;                      /**< target uncompressed data page size; 0 = 1 MiB */
    int64_t page_rows;                       /**< rows per page at most; 0 = 20000 */
    int64_t row_group_bytes;                 /**< target row group size; 0 = 128 MiB */
    int64_t row_group_rows;                  /**< rows per row group at most; 0 = 1M */
    bool write_statistics;                   /**< chunk and page statistics (default true) */
    bool write_page_index;                   /**< column and offset indexes (default true) */
    bool write_crc;                          /**< page CRCs (default true) */
    const char *const *bloom_filter_columns; /**< top-level columns with a bloom filter */
    int32_t n_bloom_filter_columns;
    double bloom_fpp; /**< false positive rate of the bloom filters; 0 = 0.01 */
    const hudi_parquet_column_encoding *column_encodings; /**< per-column value encodings */
    int32_t n_column_encodings;
    const char *const *key_value_metadata; /**< footer entries: key, value, ..., NULL */
} hudi_parquet_write_options;
#define HUDI_PARQUET_WRITE_OPTIONS_VERSION 1
#define HUDI_PARQUET_WRITE_OPTIONS_INIT                                                            \
    {                                                                                              \
        HUDI_PARQUET_WRITE_OPTIONS_VERSION, HUDI_PARQUET_SNAPPY, 0, true, 0, false, 0, 0, 0, 0,    \
            true, true, true, NULL, 0, 0, NULL, 0, NULL                                            \
    }

/** Creates a writer of `path` for batches of `schema` (an Arrow struct schema, borrowed; its
 *  columns become the file's top-level columns). The file appears only on a successful
 *  hudi_parquet_writer_close. HUDI_EUNSUPPORTED names a column whose Arrow type Parquet
 *  cannot store, HUDI_EINVAL a bad option. */
HUDI_API int hudi_parquet_writer_open(hudi_parquet_writer **out, const char *path,
                                      const struct ArrowSchema *schema,
                                      const hudi_parquet_write_options *opts, hudi_error *err);

/** Appends one record batch: `array` is a struct array of `schema`, which must have the
 *  writer's shape (same columns and types). Both are borrowed (copied from). */
HUDI_API int hudi_parquet_writer_write(hudi_parquet_writer *w, const struct ArrowSchema *schema,
                                       const struct ArrowArray *array, hudi_error *err);

/** Adds a footer key/value entry (copied). */
HUDI_API int hudi_parquet_writer_add_key_value(hudi_parquet_writer *w, const char *key,
                                               const char *value, hudi_error *err);

/** Flushes, writes the indexes and the footer, publishes the file and frees `w` (also on
 *  failure, when the file is not published). `size_bytes` (may be NULL) receives the size. */
HUDI_API int hudi_parquet_writer_close(hudi_parquet_writer *w, int64_t *size_bytes,
                                       hudi_error *err);

/** Discards the file and frees `w`. NULL does nothing. */
HUDI_API void hudi_parquet_writer_abort(hudi_parquet_writer *w);

#ifdef __cplusplus
}
#endif
#endif
