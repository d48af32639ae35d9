/* avro.h - Avro schemas, binary datums and object container files (Avro 1.x spec), as Hudi
 * uses them: timeline instant files (container files holding one record) and, later, MOR log
 * data blocks (a run of binary records of a schema given in the block header).
 *
 * Schemas are parsed by libavro (Debian's avro-c); this module is the only one that includes
 * <avro.h>. Datums are decoded and encoded here into a plain value tree (hudi_avro_value) so
 * that every length, count and depth read from a file is checked before it is used.
 *
 * Invariant: decoded values live in a caller's hudi_arena; record field names point into the
 * schema, so the schema must outlive the values. */
#ifndef HUDI_AVRO_H
#define HUDI_AVRO_H

#include "base/base.h"

/** A parsed Avro schema (wraps libavro's avro_schema_t). Immutable after parsing. */
typedef struct hudi_avro_schema hudi_avro_schema;

/** Parses schema JSON. ECORRUPT with libavro's message when it is not a valid schema. */
int hudi_avro_schema_parse(hudi_avro_schema **out, hudi_slice json, hudi_error *err);
void hudi_avro_schema_free(hudi_avro_schema *s); /* NULL-safe */
/** The JSON text the schema was parsed from (NUL-terminated, owned by the schema). */
const char *hudi_avro_schema_json(const hudi_avro_schema *s);
/** Full name of a named top-level schema ("org.apache.hudi.avro.model.HoodieCommitMetadata"),
 *  or the type name ("string", "array"...). */
const char *hudi_avro_schema_name(const hudi_avro_schema *s);

typedef enum hudi_avro_type {
    HUDI_AVRO_NULL = 0,
    HUDI_AVRO_BOOLEAN,
    HUDI_AVRO_INT,
    HUDI_AVRO_LONG,
    HUDI_AVRO_FLOAT,
    HUDI_AVRO_DOUBLE,
    HUDI_AVRO_BYTES,
    HUDI_AVRO_STRING,
    HUDI_AVRO_FIXED,
    HUDI_AVRO_ENUM,
    HUDI_AVRO_ARRAY,
    HUDI_AVRO_MAP,
    HUDI_AVRO_RECORD,
} hudi_avro_type;

/** One decoded datum. A union decodes to the value of its branch, with `branch` set to the
 *  branch index (-1 for values not inside a union). */
typedef struct hudi_avro_value hudi_avro_value;
struct hudi_avro_value {
    hudi_avro_type type;
    int32_t branch;
    union {
        bool b;    /* BOOLEAN */
        int64_t i; /* INT, LONG; ENUM: symbol index */
        double d;  /* FLOAT, DOUBLE */
    } v;
    hudi_slice bytes; /* BYTES, STRING, FIXED: the data (NUL-terminated copy); ENUM: symbol */
    size_t count;     /* ARRAY items, MAP entries, RECORD fields */
    hudi_avro_value *items;
    hudi_slice *keys; /* MAP: entry keys; RECORD: field names (borrowed from the schema) */
};

/** Limits applied while decoding, so a hostile file cannot exhaust memory or stack. */
#define HUDI_AVRO_MAX_DEPTH 64

/** Decodes `count` consecutive binary datums of `schema` from `data` into out[0..count),
 *  allocating in `arena`. `*consumed` (may be NULL) receives the bytes used. ECORRUPT for
 *  truncated or malformed input. This is the entry point for MOR log data blocks. */
int hudi_avro_decode(hudi_avro_value *out, size_t count, const hudi_avro_schema *schema,
                     hudi_slice data, size_t *consumed, hudi_arena *arena, hudi_error *err);

/** Appends the binary encoding of `v` under `schema`. Union branches: v->branch when >= 0,
 *  else the first branch whose type matches v->type. EINVAL when `v` does not fit. */
int hudi_avro_encode(hudi_buf *out, const hudi_avro_schema *schema, const hudi_avro_value *v,
                     hudi_error *err);

/** Appends `v` as an Avro long: a zigzag varint (1 to 10 bytes). */
void hudi_avro_put_long(hudi_buf *b, int64_t v);

/** A decoded object container file. */
typedef struct hudi_avro_container {
    hudi_avro_schema *schema; /* the writer schema from the header (owned) */
    hudi_avro_value *records; /* in arena */
    size_t count;
    hudi_arena arena;
} hudi_avro_container;

#define HUDI_AVRO_CONTAINER_INIT                                                                   \
    { NULL, NULL, 0, HUDI_ARENA_INIT }

/** True when `file` starts with the container magic "Obj\x01". */
bool hudi_avro_is_container(hudi_slice file);
/** Reads a whole container file (codecs: null and deflate). ECORRUPT for malformed files,
 *  EUNSUPPORTED for other codecs. `out` is left empty on failure. */
int hudi_avro_container_read(hudi_avro_container *out, hudi_slice file, hudi_error *err);
void hudi_avro_container_dispose(hudi_avro_container *c);

/** Writes a container file as Hudi does: header metadata holding only avro.schema (the
 *  schema's original JSON text; null codec), `sync` (NULL = random), one block with all
 *  records. */
int hudi_avro_container_write(hudi_buf *out, const hudi_avro_schema *schema,
                              const hudi_avro_value *records, size_t count, const uint8_t sync[16],
                              hudi_error *err);

/** Appends `v` as plain JSON (not Avro's JSON encoding): unions unwrapped, maps and records
 *  as objects, bytes/fixed as strings of U+0000..U+00FF, enums as symbols, NaN/Inf as null. */
int hudi_avro_value_to_json(hudi_buf *out, const hudi_avro_value *v, hudi_error *err);
/** Reads a container holding exactly one record and appends that record as plain JSON. */
int hudi_avro_container_to_json(hudi_buf *out, hudi_slice file, hudi_error *err);

#endif
