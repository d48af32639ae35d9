/* meta.h - Parquet's Thrift metadata as C structs: FileMetaData and everything below it,
 * PageHeader, ColumnIndex/OffsetIndex and BloomFilterHeader (docs/formats/parquet.md §1.5-1.7).
 *
 * Decoded structs live in an arena owned by their root (hudi_pq_file_meta) or by the
 * caller (page headers, indexes). Optional fields carry an `has_*` flag. Binary/string
 * values are hudi_slice views into the arena (decode copies them; never into file bytes
 * the caller may free). Encoders (meta_write.c) take the same structs. */
#ifndef HUDI_PQ_META_H
#define HUDI_PQ_META_H

#include "base/base.h"

/* ---- enums (exact values from parquet.thrift) ---- */
enum {
    PQ_BOOLEAN = 0,
    PQ_INT32 = 1,
    PQ_INT64 = 2,
    PQ_INT96 = 3,
    PQ_FLOAT = 4,
    PQ_DOUBLE = 5,
    PQ_BYTE_ARRAY = 6,
    PQ_FIXED_LEN_BYTE_ARRAY = 7
};
enum { PQ_REQUIRED = 0, PQ_OPTIONAL = 1, PQ_REPEATED = 2 };
enum {
    PQ_CT_UTF8 = 0,
    PQ_CT_MAP = 1,
    PQ_CT_MAP_KEY_VALUE = 2,
    PQ_CT_LIST = 3,
    PQ_CT_ENUM = 4,
    PQ_CT_DECIMAL = 5,
    PQ_CT_DATE = 6,
    PQ_CT_TIME_MILLIS = 7,
    PQ_CT_TIME_MICROS = 8,
    PQ_CT_TIMESTAMP_MILLIS = 9,
    PQ_CT_TIMESTAMP_MICROS = 10,
    PQ_CT_UINT_8 = 11,
    PQ_CT_UINT_16 = 12,
    PQ_CT_UINT_32 = 13,
    PQ_CT_UINT_64 = 14,
    PQ_CT_INT_8 = 15,
    PQ_CT_INT_16 = 16,
    PQ_CT_INT_32 = 17,
    PQ_CT_INT_64 = 18,
    PQ_CT_JSON = 19,
    PQ_CT_BSON = 20,
    PQ_CT_INTERVAL = 21
};
enum {
    PQ_ENC_PLAIN = 0,
    PQ_ENC_PLAIN_DICTIONARY = 2,
    PQ_ENC_RLE = 3,
    PQ_ENC_BIT_PACKED = 4,
    PQ_ENC_DELTA_BINARY_PACKED = 5,
    PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
    PQ_ENC_DELTA_BYTE_ARRAY = 7,
    PQ_ENC_RLE_DICTIONARY = 8,
    PQ_ENC_BYTE_STREAM_SPLIT = 9,
    PQ_ENC_ALP = 10
};
enum {
    PQ_CODEC_UNCOMPRESSED = 0,
    PQ_CODEC_SNAPPY = 1,
    PQ_CODEC_GZIP = 2,
    PQ_CODEC_LZO = 3,
    PQ_CODEC_BROTLI = 4,
    PQ_CODEC_LZ4 = 5,
    PQ_CODEC_ZSTD = 6,
    PQ_CODEC_LZ4_RAW = 7
};
enum { PQ_PAGE_DATA = 0, PQ_PAGE_INDEX = 1, PQ_PAGE_DICTIONARY = 2, PQ_PAGE_DATA_V2 = 3 };
enum { PQ_BOUNDARY_UNORDERED = 0, PQ_BOUNDARY_ASCENDING = 1, PQ_BOUNDARY_DESCENDING = 2 };

/* LogicalType union member ids (0 = absent or unknown member). */
enum {
    PQ_LT_NONE = 0,
    PQ_LT_STRING = 1,
    PQ_LT_MAP = 2,
    PQ_LT_LIST = 3,
    PQ_LT_ENUM = 4,
    PQ_LT_DECIMAL = 5,
    PQ_LT_DATE = 6,
    PQ_LT_TIME = 7,
    PQ_LT_TIMESTAMP = 8,
    PQ_LT_INTEGER = 10,
    PQ_LT_UNKNOWN = 11,
    PQ_LT_JSON = 12,
    PQ_LT_BSON = 13,
    PQ_LT_UUID = 14,
    PQ_LT_FLOAT16 = 15,
    PQ_LT_VARIANT = 16,
    PQ_LT_GEOMETRY = 17,
    PQ_LT_GEOGRAPHY = 18,
    PQ_LT_FILE = 19
};
/* TimeUnit union member ids. 0 = unknown member. */
enum { PQ_UNIT_UNKNOWN = 0, PQ_UNIT_MILLIS = 1, PQ_UNIT_MICROS = 2, PQ_UNIT_NANOS = 3 };
/* ColumnOrder union member ids. */
enum { PQ_ORDER_UNKNOWN = 0, PQ_ORDER_TYPE = 1, PQ_ORDER_IEEE754_TOTAL = 2, PQ_ORDER_INT96 = 3 };

typedef struct pq_logical_type {
    int32_t kind;             /* PQ_LT_* */
    int32_t scale, precision; /* DECIMAL */
    bool is_adjusted_to_utc;  /* TIME, TIMESTAMP */
    int32_t unit;             /* TIME, TIMESTAMP: PQ_UNIT_* */
    int32_t bit_width;        /* INTEGER */
    bool is_signed;           /* INTEGER */
} pq_logical_type;

typedef struct pq_schema_element {
    bool has_type;
    int32_t type; /* PQ_BOOLEAN.. */
    bool has_type_length;
    int32_t type_length;
    bool has_repetition;
    int32_t repetition; /* PQ_REQUIRED.. */
    hudi_slice name;
    int32_t num_children; /* 0 for leaves */
    bool has_converted_type;
    int32_t converted_type;
    bool has_scale, has_precision;
    int32_t scale, precision;
    bool has_field_id;
    int32_t field_id;
    bool has_logical_type;
    pq_logical_type logical_type;
} pq_schema_element;

typedef struct pq_statistics {
    bool has_max, has_min, has_null_count, has_distinct_count;
    bool has_max_value, has_min_value, has_is_max_value_exact, has_is_min_value_exact;
    bool has_nan_count;
    hudi_slice max, min; /* deprecated pair */
    int64_t null_count, distinct_count;
    hudi_slice max_value, min_value;
    bool is_max_value_exact, is_min_value_exact;
    int64_t nan_count;
} pq_statistics;

typedef struct pq_key_value {
    hudi_slice key;
    bool has_value;
    hudi_slice value;
} pq_key_value;

typedef struct pq_page_encoding_stats {
    int32_t page_type, encoding, count;
} pq_page_encoding_stats;

typedef struct pq_column_meta {
    int32_t type;
    int32_t n_encodings;
    int32_t *encodings;
    int32_t n_path;
    hudi_slice *path_in_schema;
    int32_t codec;
    int64_t num_values;
    int64_t total_uncompressed_size;
    int64_t total_compressed_size;
    int32_t n_key_value;
    pq_key_value *key_value;
    int64_t data_page_offset;
    bool has_index_page_offset;
    int64_t index_page_offset;
    bool has_dictionary_page_offset;
    int64_t dictionary_page_offset;
    bool has_statistics;
    pq_statistics statistics;
    int32_t n_encoding_stats; /* -1 when absent */
    pq_page_encoding_stats *encoding_stats;
    bool has_bloom_filter_offset;
    int64_t bloom_filter_offset;
    bool has_bloom_filter_length;
    int32_t bloom_filter_length;
} pq_column_meta;

typedef struct pq_column_chunk {
    bool has_file_path;
    hudi_slice file_path;
    int64_t file_offset;
    bool has_meta_data;
    pq_column_meta meta_data;
    bool has_offset_index; /* offset + length both present */
    int64_t offset_index_offset;
    int32_t offset_index_length;
    bool has_column_index;
    int64_t column_index_offset;
    int32_t column_index_length;
    bool has_crypto_metadata; /* encrypted column: refuse */
    bool has_encrypted_column_metadata;
} pq_column_chunk;

typedef struct pq_sorting_column {
    int32_t column_idx;
    bool descending, nulls_first;
} pq_sorting_column;

typedef struct pq_row_group {
    int32_t n_columns;
    pq_column_chunk *columns;
    int64_t total_byte_size;
    int64_t num_rows;
    int32_t n_sorting_columns; /* -1 when absent */
    pq_sorting_column *sorting_columns;
    bool has_file_offset;
    int64_t file_offset;
    bool has_total_compressed_size;
    int64_t total_compressed_size;
    bool has_ordinal;
    int16_t ordinal;
} pq_row_group;

typedef struct pq_file_meta {
    int32_t version;
    int32_t n_schema;
    pq_schema_element *schema;
    int64_t num_rows;
    int32_t n_row_groups;
    pq_row_group *row_groups;
    int32_t n_key_value; /* -1 when absent */
    pq_key_value *key_value;
    bool has_created_by;
    hudi_slice created_by;
    int32_t n_column_orders; /* -1 when absent */
    int32_t *column_orders;  /* PQ_ORDER_* per leaf */
    bool has_encryption_algorithm;
} pq_file_meta;

typedef struct pq_data_page_header {
    int32_t num_values, encoding, definition_level_encoding, repetition_level_encoding;
    bool has_statistics;
    pq_statistics statistics;
} pq_data_page_header;

typedef struct pq_data_page_header_v2 {
    int32_t num_values, num_nulls, num_rows, encoding;
    int32_t definition_levels_byte_length, repetition_levels_byte_length;
    bool is_compressed; /* defaults to true when absent */
    bool has_statistics;
    pq_statistics statistics;
} pq_data_page_header_v2;

typedef struct pq_dictionary_page_header {
    int32_t num_values, encoding;
    bool has_is_sorted, is_sorted;
} pq_dictionary_page_header;

typedef struct pq_page_header {
    int32_t type;
    int32_t uncompressed_page_size;
    int32_t compressed_page_size;
    bool has_crc;
    int32_t crc;
    bool has_data_page_header, has_dictionary_page_header, has_data_page_header_v2;
    pq_data_page_header data_page_header;
    pq_dictionary_page_header dictionary_page_header;
    pq_data_page_header_v2 data_page_header_v2;
} pq_page_header;

typedef struct pq_page_location {
    int64_t offset;
    int32_t compressed_page_size;
    int64_t first_row_index;
} pq_page_location;

typedef struct pq_offset_index {
    int32_t n_page_locations;
    pq_page_location *page_locations;
} pq_offset_index;

typedef struct pq_column_index {
    int32_t n_pages;
    bool *null_pages;
    hudi_slice *min_values, *max_values;
    int32_t boundary_order;
    bool has_null_counts;
    int64_t *null_counts;
    bool has_nan_counts;
    int64_t *nan_counts;
} pq_column_index;

typedef struct pq_bloom_header {
    int32_t num_bytes;
    int32_t algorithm;   /* 1 = BLOCK, 0 = unknown */
    int32_t hash;        /* 1 = XXHASH, 0 = unknown */
    int32_t compression; /* 1 = UNCOMPRESSED, 0 = unknown */
} pq_bloom_header;

/* ---- decoding (meta_read.c). Each returns 0 or a negative HUDI_E* with `err` set.
 * Strings and lists are allocated in `arena`. `*consumed` (if non-NULL) receives the
 * number of bytes the struct occupied. Input limits: nesting depth 64, list lengths
 * bounded by the remaining input, so malformed input can never allocate unboundedly. */
int hudi_pq_decode_file_meta(pq_file_meta *out, hudi_arena *arena, hudi_slice in, hudi_error *err);
int hudi_pq_decode_page_header(pq_page_header *out, hudi_arena *arena, hudi_slice in,
                               size_t *consumed, hudi_error *err);
int hudi_pq_decode_offset_index(pq_offset_index *out, hudi_arena *arena, hudi_slice in,
                                hudi_error *err);
int hudi_pq_decode_column_index(pq_column_index *out, hudi_arena *arena, hudi_slice in,
                                hudi_error *err);
int hudi_pq_decode_bloom_header(pq_bloom_header *out, hudi_slice in, size_t *consumed,
                                hudi_error *err);

/* ---- encoding (meta_write.c): append the compact-protocol bytes to `out`. ---- */
int hudi_pq_encode_file_meta(hudi_buf *out, const pq_file_meta *m, hudi_error *err);
int hudi_pq_encode_page_header(hudi_buf *out, const pq_page_header *h, hudi_error *err);
int hudi_pq_encode_offset_index(hudi_buf *out, const pq_offset_index *oi, hudi_error *err);
int hudi_pq_encode_column_index(hudi_buf *out, const pq_column_index *ci, hudi_error *err);
int hudi_pq_encode_bloom_header(hudi_buf *out, const pq_bloom_header *h, hudi_error *err);

#endif
