/* compact.h - a hand-written Thrift compact-protocol reader and writer, just the subset
 * Parquet needs: structs, lists/sets, maps (skipped only), the scalar types and UUID
 * (skipped only). Byte layout: docs/formats/thrift.md.
 *
 * Reader invariant: every read is bounds-checked against the input slice and the first
 * failure is sticky (r->rc < 0, message in r->err); after a failure every read returns a
 * zero value and consumes nothing, so callers check once, at the end of a struct. Nesting
 * (structs and containers together) is limited to HUDI_THRIFT_MAX_DEPTH and every container
 * count is bounded by the bytes left, so no input can recurse or allocate without bound.
 *
 * Writer invariant: appends to a caller-owned hudi_buf; failures (OOM, depth) are sticky
 * and reported once by hudi_thrift_writer_finish. */
#ifndef HUDI_THRIFT_COMPACT_H
#define HUDI_THRIFT_COMPACT_H

#include "base/base.h"

/* Compact-protocol type ids (the 4-bit nibble, thrift.md §2). */
enum {
    HUDI_THRIFT_STOP = 0,
    HUDI_THRIFT_TRUE = 1, /* bool field true; also the element type of list<bool> */
    HUDI_THRIFT_FALSE = 2,
    HUDI_THRIFT_I8 = 3,
    HUDI_THRIFT_I16 = 4,
    HUDI_THRIFT_I32 = 5,
    HUDI_THRIFT_I64 = 6,
    HUDI_THRIFT_DOUBLE = 7,
    HUDI_THRIFT_BINARY = 8,
    HUDI_THRIFT_LIST = 9,
    HUDI_THRIFT_SET = 10,
    HUDI_THRIFT_MAP = 11,
    HUDI_THRIFT_STRUCT = 12,
    HUDI_THRIFT_UUID = 13,
};

#define HUDI_THRIFT_MAX_DEPTH 64

/* ---- reader --------------------------------------------------------------------------- */

typedef struct hudi_thrift_reader {
    const uint8_t *start, *p, *end;
    int rc;          /* 0, or the first error code (sticky) */
    hudi_error *err; /* receives the first error's message; may be NULL */
    int depth;       /* open structs and containers */
    int16_t last_id; /* last field id of the innermost open struct */
    int16_t stack[HUDI_THRIFT_MAX_DEPTH];
} hudi_thrift_reader;

/* A field header. For bool fields `type` is HUDI_THRIFT_TRUE or HUDI_THRIFT_FALSE and
 * carries the value. */
typedef struct hudi_thrift_field {
    int16_t id;
    uint8_t type;
} hudi_thrift_field;

/** Starts reading `in` (borrowed for the reader's lifetime). */
void hudi_thrift_reader_init(hudi_thrift_reader *r, hudi_slice in, hudi_error *err);
/** Bytes consumed so far. */
static inline size_t hudi_thrift_reader_pos(const hudi_thrift_reader *r) {
    return (size_t)(r->p - r->start);
}
static inline size_t hudi_thrift_reader_left(const hudi_thrift_reader *r) {
    return (size_t)(r->end - r->p);
}
static inline bool hudi_thrift_ok(const hudi_thrift_reader *r) { return r->rc == 0; }

/** Records the first error (later ones are ignored) and returns r->rc. For decoders built
 * on the reader, so semantic errors share the sticky state. */
int hudi_thrift_fail(hudi_thrift_reader *r, int code, const char *fmt, ...) HUDI_PRINTF(3, 4);

/** Opens a struct: pushes the field-id state. Fails past HUDI_THRIFT_MAX_DEPTH. */
void hudi_thrift_struct_begin(hudi_thrift_reader *r);
/** Closes the struct opened last (call after hudi_thrift_read_field returned false). */
void hudi_thrift_struct_end(hudi_thrift_reader *r);
/** Reads the next field header of the open struct. Returns false at STOP or on error. */
bool hudi_thrift_read_field(hudi_thrift_reader *r, hudi_thrift_field *f);

/** Reads a list or set header. `*elem_type` receives the element type; `*count` is bounded
 * by the bytes left (each element needs at least one byte). An empty list written as the
 * single byte 00 is accepted (elem_type 0). Returns false on error. */
bool hudi_thrift_read_list(hudi_thrift_reader *r, uint8_t *elem_type, uint32_t *count);

uint64_t hudi_thrift_read_varint(hudi_thrift_reader *r); /* unsigned, at most 10 bytes */
int8_t hudi_thrift_read_i8(hudi_thrift_reader *r);
int16_t hudi_thrift_read_i16(hudi_thrift_reader *r);
int32_t hudi_thrift_read_i32(hudi_thrift_reader *r);
int64_t hudi_thrift_read_i64(hudi_thrift_reader *r);
double hudi_thrift_read_double(hudi_thrift_reader *r);
/** A view into the input (not a copy); its length is bounded by the bytes left. */
hudi_slice hudi_thrift_read_binary(hudi_thrift_reader *r);
/** One list<bool> element: 1 = true, 0 or 2 = false, anything else is corrupt. */
bool hudi_thrift_read_bool_elem(hudi_thrift_reader *r);

/** Skips one value of compact type `type` (a field value or a container element). */
void hudi_thrift_skip(hudi_thrift_reader *r, uint8_t type);

/* ---- writer --------------------------------------------------------------------------- */

typedef struct hudi_thrift_writer {
    hudi_buf *out;
    int rc;
    int depth;
    int16_t last_id;
    int16_t stack[HUDI_THRIFT_MAX_DEPTH];
} hudi_thrift_writer;

void hudi_thrift_writer_init(hudi_thrift_writer *w, hudi_buf *out);
/** 0, or HUDI_ENOMEM / HUDI_EINVAL (unbalanced or too deep) with `err` set. */
int hudi_thrift_writer_finish(hudi_thrift_writer *w, hudi_error *err);

/** Field header (short form when 1 <= id - last <= 15, else long form). Not for bools. */
void hudi_thrift_write_field(hudi_thrift_writer *w, int16_t id, uint8_t type);
/** Opens a nested struct as field `id` / as a list element; hudi_thrift_write_struct_end
 * writes its STOP byte. The top-level struct is opened with hudi_thrift_write_struct_begin. */
void hudi_thrift_write_field_struct(hudi_thrift_writer *w, int16_t id);
void hudi_thrift_write_struct_begin(hudi_thrift_writer *w);
void hudi_thrift_write_struct_end(hudi_thrift_writer *w);
/** List header: short form for count <= 14. */
void hudi_thrift_write_list(hudi_thrift_writer *w, uint8_t elem_type, uint32_t count);

void hudi_thrift_write_varint(hudi_thrift_writer *w, uint64_t v);
void hudi_thrift_write_i8(hudi_thrift_writer *w, int8_t v);
void hudi_thrift_write_i16(hudi_thrift_writer *w, int16_t v);
void hudi_thrift_write_i32(hudi_thrift_writer *w, int32_t v);
void hudi_thrift_write_i64(hudi_thrift_writer *w, int64_t v);
void hudi_thrift_write_double(hudi_thrift_writer *w, double v);
void hudi_thrift_write_binary(hudi_thrift_writer *w, hudi_slice v);
void hudi_thrift_write_bool_elem(hudi_thrift_writer *w, bool v); /* 1 / 2, like Java Thrift */

/* Field + value in one call. */
void hudi_thrift_write_field_bool(hudi_thrift_writer *w, int16_t id, bool v);
void hudi_thrift_write_field_i8(hudi_thrift_writer *w, int16_t id, int8_t v);
void hudi_thrift_write_field_i16(hudi_thrift_writer *w, int16_t id, int16_t v);
void hudi_thrift_write_field_i32(hudi_thrift_writer *w, int16_t id, int32_t v);
void hudi_thrift_write_field_i64(hudi_thrift_writer *w, int16_t id, int64_t v);
void hudi_thrift_write_field_binary(hudi_thrift_writer *w, int16_t id, hudi_slice v);

#endif
