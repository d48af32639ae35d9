/* columnar.h - column vectors and record batches in the Arrow columnar layout.
 *
 * A hudi_array is one Arrow array: a validity bitmap (bit i set = row i valid, LSB first;
 * NULL when there are no nulls), then per type:
 *   fixed width (bool bits, ints, floats, decimal128, date, time, timestamp, fixed binary):
 *       `values`, length * width bytes (bool: bit-packed, LSB first)
 *   string/binary: `offsets` (int32, length+1 entries) and `data` (the bytes)
 *   list:          `offsets` (int32, length+1) and one child (the elements)
 *   map:           `offsets` (int32, length+1) and one child: a non-null struct with
 *                  two children, key and value (Arrow's "entries")
 *   struct:        children, each of the same length as the struct
 * Buffers are 64-byte aligned and owned by the array, so a batch can leave through the
 * Arrow C Data Interface by moving the buffers, without copying.
 *
 * Types are described by hudi_field trees. A field owns its name and children. Arrays
 * borrow their field: the schema must outlive every array built from it. */
#ifndef HUDI_COLUMNAR_H
#define HUDI_COLUMNAR_H

#include "base/base.h"

typedef enum hudi_type_id {
    HUDI_TYPE_NULL = 0,
    HUDI_TYPE_BOOL,
    HUDI_TYPE_INT8,
    HUDI_TYPE_INT16,
    HUDI_TYPE_INT32,
    HUDI_TYPE_INT64,
    HUDI_TYPE_UINT8,
    HUDI_TYPE_UINT16,
    HUDI_TYPE_UINT32,
    HUDI_TYPE_UINT64,
    HUDI_TYPE_FLOAT16, /* IEEE half, stored as uint16 bits */
    HUDI_TYPE_FLOAT,
    HUDI_TYPE_DOUBLE,
    HUDI_TYPE_DECIMAL,   /* 128-bit little-endian two's complement unscaled value */
    HUDI_TYPE_DATE,      /* int32 days since 1970-01-01 */
    HUDI_TYPE_TIME,      /* int32 (millis) or int64 (micros, nanos) since midnight */
    HUDI_TYPE_TIMESTAMP, /* int64 in `unit` since the epoch; `utc` = adjusted to UTC */
    HUDI_TYPE_STRING,    /* UTF-8 */
    HUDI_TYPE_BINARY,
    HUDI_TYPE_FIXED_BINARY, /* `byte_width` bytes per value */
    HUDI_TYPE_STRUCT,
    HUDI_TYPE_LIST,
    HUDI_TYPE_MAP,
    HUDI_TYPE_COUNT_
} hudi_type_id;

typedef enum hudi_time_unit {
    HUDI_UNIT_MILLIS = 0,
    HUDI_UNIT_MICROS = 1,
    HUDI_UNIT_NANOS = 2,
} hudi_time_unit;

/* Extra meaning carried for rendering and round-tripping; values are stored as the type says. */
typedef enum hudi_logical_hint {
    HUDI_HINT_NONE = 0,
    HUDI_HINT_UUID,     /* FIXED_BINARY(16) */
    HUDI_HINT_JSON,     /* STRING */
    HUDI_HINT_ENUM,     /* STRING */
    HUDI_HINT_BSON,     /* BINARY */
    HUDI_HINT_INT96,    /* TIMESTAMP read from a legacy INT96 column */
    HUDI_HINT_INTERVAL, /* FIXED_BINARY(12) */
} hudi_logical_hint;

typedef struct hudi_field {
    char *name;
    char *comment; /* column comment (schema layer, DDL); NULL when none; owned */
    hudi_type_id type;
    bool nullable;
    uint8_t unit;       /* hudi_time_unit, TIME/TIMESTAMP */
    bool utc;           /* TIMESTAMP/TIME adjusted to UTC */
    uint8_t hint;       /* hudi_logical_hint */
    int32_t precision;  /* DECIMAL */
    int32_t scale;      /* DECIMAL */
    int32_t byte_width; /* FIXED_BINARY */
    int32_t field_id;   /* Parquet field_id / Hudi column id; -1 when unknown */
    int32_t n_children;
    struct hudi_field *children; /* STRUCT: fields; LIST: 1 (element); MAP: 1 (entries struct) */
} hudi_field;

/* Field construction. All strings are copied. Return 0 or HUDI_ENOMEM.
 * hudi_field_init zeroes the field, then sets field_id = -1 and unit = HUDI_UNIT_MICROS. */
int hudi_field_init(hudi_field *f, const char *name, hudi_type_id type, bool nullable);
int hudi_field_set_children(hudi_field *f, int32_t n);       /* allocates n zeroed children */
int hudi_field_copy(hudi_field *dst, const hudi_field *src); /* deep copy */
void hudi_field_dispose(hudi_field *f); /* frees name and children, not f itself */
/* Byte width of one value for fixed-width types (bool: 0 = bits), -1 otherwise. */
int hudi_type_width(const hudi_field *f);
bool hudi_type_is_fixed(hudi_type_id t);
bool hudi_type_is_nested(hudi_type_id t);
const char *hudi_type_name(hudi_type_id t);
/* Appends a readable type, e.g. "struct<a: int32, b: list<string>>", to b. */
void hudi_field_describe(hudi_buf *b, const hudi_field *f);

typedef struct hudi_array {
    const hudi_field *field; /* borrowed */
    int64_t length;
    int64_t null_count;
    uint8_t *validity; /* NULL = all valid */
    void *values;      /* fixed-width values */
    int32_t *offsets;  /* string/binary/list/map */
    uint8_t *data;     /* string/binary bytes */
    int64_t data_len;  /* bytes used in `data` */
    int32_t n_children;
    struct hudi_array **children;
    /* capacities, in elements (rows) and bytes; internal to the builders */
    int64_t capacity;
    int64_t data_capacity;
    bool has_validity_capacity;
    /* A hint: every row equals row 0 (the same value, or every row null). Set by a producer
     * that knows it without looking at the rows (the Parquet reader, for values from a one-entry
     * dictionary without nulls), read by consumers that can then treat the column as one value
     * (the SQL aggregate's group keys). false says nothing. Every function here that adds rows
     * or empties the array clears it, so a producer sets it after its last append; code that
     * overwrites rows in place (read/mor.c's merge) must clear it itself. */
    bool uniform;
} hudi_array;

/* Creates an empty array (and children, recursively) for `field`. */
int hudi_array_new(hudi_array **out, const hudi_field *field, hudi_error *err);
void hudi_array_free(hudi_array *a); /* NULL-safe, recursive */
/* Makes room for `rows` rows in total (not more). Children of lists/maps are not touched. */
int hudi_array_reserve(hudi_array *a, int64_t rows, hudi_error *err);
/* Makes room for `bytes` of string/binary data in total. */
int hudi_array_reserve_data(hudi_array *a, int64_t bytes, hudi_error *err);
/* Allocates the validity bitmap (all valid so far) if absent. When `validity` is non-NULL it
 * always has `capacity` bits, and whoever adds a row must set or clear that row's bit. */
int hudi_array_ensure_validity(hudi_array *a, hudi_error *err);
/* Resets to length 0 keeping capacity (recursively). A validity bitmap stays allocated
 * (zeroed), so rows added afterwards must set their bits. */
void hudi_array_clear(hudi_array *a);

/* Slow-path row appenders for builders and tests; hot loops write buffers directly.
 * Each returns 0, HUDI_ENOMEM (the array is unchanged) or HUDI_EINVAL (wrong type).
 * append_null on a STRUCT also appends one row to every child (null for nullable children,
 * a zero/empty value for non-nullable ones) so children keep the struct's length.
 * append_fixed takes `width` bytes (BOOL: one byte, non-zero = true); append_bytes takes
 * STRING/BINARY, and FIXED_BINARY when len == byte_width. Nullability is not checked. */
int hudi_array_append_null(hudi_array *a, hudi_error *err);
int hudi_array_append_fixed(hudi_array *a, const void *value, hudi_error *err);
int hudi_array_append_bytes(hudi_array *a, const void *data, size_t len, hudi_error *err);
int hudi_array_append_bool(hudi_array *a, bool v, hudi_error *err);
/* Lists/maps: append one row whose elements are the next `n` child rows (append them to the
 * child yourself); struct: marks one row (append to each child yourself). */
int hudi_array_append_nested(hudi_array *a, int64_t n_elements, hudi_error *err);

/* An IEEE half (FLOAT16 column value bits) as a float. */
float hudi_half_to_float(uint16_t bits);

static inline bool hudi_bit_get(const uint8_t *bits, int64_t i) {
    return (bits[i >> 3] >> (i & 7)) & 1;
}
static inline void hudi_bit_set(uint8_t *bits, int64_t i) {
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}
static inline void hudi_bit_clear(uint8_t *bits, int64_t i) {
    bits[i >> 3] &= (uint8_t) ~(1u << (i & 7));
}
static inline bool hudi_array_is_valid(const hudi_array *a, int64_t i) {
    return !a->validity || hudi_bit_get(a->validity, i);
}

/* Deep equality of two arrays' values (same field shape), nulls compared as nulls.
 * On difference, writes a description of the first difference to `why` (if non-NULL). */
bool hudi_array_equal(const hudi_array *a, const hudi_array *b, hudi_buf *why);

/* A record batch: the columns of a top-level struct, all of `num_rows` rows. */
typedef struct hudi_batch {
    const hudi_field *schema; /* borrowed STRUCT field; its children describe the columns */
    int64_t num_rows;
    int32_t n_columns;
    hudi_array **columns;
} hudi_batch;

/* Creates a batch with one empty array per child of `schema`. */
int hudi_batch_new(hudi_batch **out, const hudi_field *schema, hudi_error *err);
void hudi_batch_free(hudi_batch *b);
void hudi_batch_clear(hudi_batch *b);

/* ---- additions: bitmaps, bulk builders, validation ----------------------------------- */

/* Number of set bits in bits[offset, offset + n). */
int64_t hudi_bitmap_count(const uint8_t *bits, int64_t offset, int64_t n);
/* Sets (v = true) or clears bits[offset, offset + n). */
void hudi_bitmap_set_range(uint8_t *bits, int64_t offset, int64_t n, bool v);
/* Copies n bits from src[src_off..] to dst[dst_off..]; the ranges must not overlap. */
void hudi_bitmap_copy(uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                      int64_t n);

/* Room for length + extra rows (or data_len + extra bytes), growing geometrically; use these
 * before writing buffers directly in a loop. Struct children are grown too. */
int hudi_array_grow(hudi_array *a, int64_t extra_rows, hudi_error *err);
int hudi_array_grow_data(hudi_array *a, int64_t extra_bytes, hudi_error *err);
/* Appends n nulls (struct: see append_null). 0, HUDI_ENOMEM (unchanged) or HUDI_EINVAL. */
int hudi_array_append_nulls(hudi_array *a, int64_t n, hudi_error *err);

/* Spacing dense values: rows [start, start + n) have their validity bits written already and
 * the first n_dense of them hold the decoded non-null values densely (fixed width, bool, or
 * for string/binary/list/map the offsets[start + 1 .. start + n_dense]). Moves each value to its
 * valid row; null rows get zero values (offsets: an empty element). Does not touch length or
 * null_count. HUDI_EINVAL if n_dense is not the number of valid rows or the type has no
 * spreadable buffer. With validity NULL it checks n_dense == n and does nothing. */
int hudi_array_spread(hudi_array *a, int64_t start, int64_t n, int64_t n_dense, hudi_error *err);

/* Appends rows [offset, offset + n) of src (deep copy) to dst; both must have the same type
 * shape. On failure dst is truncated back to its previous length. */
int hudi_array_append_range(hudi_array *dst, const hudi_array *src, int64_t offset, int64_t n,
                            hudi_error *err);
/* A new array (borrowing src's field) holding a deep copy of rows [offset, offset + n). */
int hudi_array_slice(hudi_array **out, const hudi_array *src, int64_t offset, int64_t n,
                     hudi_error *err);
/* Bytes of memory the array's buffers hold (capacities, children included): what a memory
 * budget counts. */
int64_t hudi_array_memory(const hudi_array *a);
/* Drops rows from `length` down to `len` (children and data follow; capacity kept). */
void hudi_array_truncate(hudi_array *a, int64_t len);
/* Checks the structural invariants (lengths, offsets, null counts, map entries non-null);
 * HUDI_EINVAL naming the column and the problem. Use before handing data to others. */
int hudi_array_validate(const hudi_array *a, hudi_error *err);

/* Type promotion of Hudi's chart for fixed-width numbers: int8/16/32 to a wider integer,
 * integers to float or double, float to double. */
bool hudi_type_can_widen(const hudi_field *from, const hudi_field *to);
/* A new array of type `to` (borrowed field) with the values of `a` widened. EINVAL when the
 * types do not widen. */
int hudi_array_widen(hudi_array **out, const hudi_array *a, const hudi_field *to, hudi_error *err);

/* Batch helpers: every column must have num_rows rows. */
int hudi_batch_validate(const hudi_batch *b, hudi_error *err);
bool hudi_batch_equal(const hudi_batch *a, const hudi_batch *b, hudi_buf *why);

#endif
