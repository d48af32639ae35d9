/* schema.h - Hudi table schemas: hudi_field trees <-> the Avro schema JSON Hudi stores
 * (commit extraMetadata "schema", hoodie.table.create.schema, parquet.avro.schema, log block
 * headers), Hudi's meta fields, and the mapping from a Parquet file schema to a table schema.
 * docs/formats/avro-schema.md.
 *
 * Conventions of the hudi_field trees produced and accepted here:
 *   - the root is a non-null STRUCT named by the Avro record's FULL name
 *     ("hoodie.<table>.<table>_record"), as parquet-avro names the Parquet message;
 *   - nullable <=> Avro union of "null" and T (either order; written per hudi_avro_style);
 *   - LIST has one child "element"; MAP has one non-null STRUCT child "key_value" with
 *     "key" (non-null STRING: Avro map keys are strings) and "value";
 *   - field comment <=> Avro "doc" (an empty doc "" is kept: the meta fields carry one);
 *   - DECIMAL: byte_width = the Avro fixed size (0 when the decimal was on "bytes"; written back
 *     as a fixed of the minimal size, which is what Hudi writes).
 * Named types are written in Spark/Hudi's naming (avro-schema.md §4): a nested record is named
 * after its field with the parent record's full name as namespace; a decimal is fixed "fixed" in
 * namespace "<parent record full name>.<field>". */
#ifndef HUDI_SCHEMA_H
#define HUDI_SCHEMA_H

#include "columnar/columnar.h"

/* ---- Avro JSON ---------------------------------------------------------------------------- */

/** Parses an Avro record schema (JSON text, `len` bytes) into `out` (disposed by the caller with
 *  hudi_field_dispose; left zeroed on failure). Types: null, boolean, int, long, float, double,
 *  bytes, string; record -> STRUCT, enum -> STRING (hint ENUM), fixed -> FIXED_BINARY, array ->
 *  LIST, map -> MAP; logical types decimal (fixed/bytes), date, time-millis/micros,
 *  timestamp-millis/micros/nanos, local-timestamp-millis/micros/nanos, uuid (string, fixed 16),
 *  duration (fixed 12); unknown logical types are ignored (as Avro does). A union with one
 *  non-null branch is that branch (nullable when "null" is a branch); a union with several is a
 *  nullable STRUCT of nullable "member0".."memberN" (parquet-avro/Spark). Named types may be
 *  referenced by name after their definition.
 *  ECORRUPT naming the field for malformed JSON or schemas; EUNSUPPORTED for recursive types
 *  and decimals wider than 38 digits. */
int hudi_schema_parse_avro(hudi_field *out, const char *json, size_t len, hudi_error *err);

/** How nullable fields are written. Both occur in real tables [bytes]: */
typedef enum hudi_avro_style {
    /** ["null", T] and "default": null - Hudi's AvroConversionUtils: commit metadata "schema",
     *  parquet.avro.schema, log block headers. */
    HUDI_AVRO_STYLE_HUDI = 0,
    /** [T, "null"] and no default - Spark's SchemaConverters as called by Spark SQL's CREATE
     *  TABLE: hoodie.table.create.schema. */
    HUDI_AVRO_STYLE_SPARK = 1,
} hudi_avro_style;

/** Appends the compact Avro JSON of STRUCT `root` to `out`, byte-identical to what Hudi (Avro's
 *  Schema.toString) writes for a table schema in the given style: key order
 *  type/name/namespace/doc/fields for records, name/type/doc/default for fields. The record
 *  name and namespace come from root->name split at its last '.'. EINVAL naming the field for
 *  types Avro cannot hold (int8/16, unsigned, float16, time nanos, non-string map keys:
 *  convert with hudi_schema_from_parquet first); `out` is then left as it was. */
int hudi_schema_write_avro(hudi_buf *out, const hudi_field *root, hudi_avro_style style,
                           hudi_error *err);

/** Appends `s` as a JSON string the way Jackson and Avro's Schema.toString write it: quotes,
 *  backslash and the control characters escaped (\b \t \n \f \r, others \u00XX), the rest
 *  (UTF-8 included) as is. */
void hudi_schema_put_json_string(hudi_buf *b, const char *s);

/** Appends Hudi's record full name "hoodie.<table>.<table>_record" (avro-schema.md §4). */
void hudi_schema_record_fullname(hudi_buf *out, const char *table_name);

/** Minimal bytes of a two's complement fixed holding `precision` decimal digits (1..38):
 *  Spark/Avro's minBytesForPrecision. */
int32_t hudi_schema_decimal_bytes(int32_t precision);

/* ---- meta fields (avro-schema.md §2) -------------------------------------------------------- */

#define HUDI_META_FIELD_COUNT 5
/** _hoodie_commit_time, _hoodie_commit_seqno, _hoodie_record_key, _hoodie_partition_path,
 *  _hoodie_file_name, in file order. */
extern const char *const hudi_meta_field_names[HUDI_META_FIELD_COUNT];
#define HUDI_META_OPERATION_FIELD "_hoodie_operation" /* optional sixth (CDC) */

enum {
    HUDI_META_COMMIT_TIME = 0,
    HUDI_META_COMMIT_SEQNO = 1,
    HUDI_META_RECORD_KEY = 2,
    HUDI_META_PARTITION_PATH = 3,
    HUDI_META_FILE_NAME = 4,
};

/** True for the five meta field names and _hoodie_operation. */
bool hudi_is_meta_field(const char *name);
/** True when the first five children of `root` are the meta fields in order. */
bool hudi_schema_has_meta_fields(const hudi_field *root);
/** `out` = `root` with the five meta fields (nullable STRING, doc "") in front; meta fields
 *  already present anywhere in `root` are dropped first, so the call is idempotent. */
int hudi_schema_add_meta_fields(hudi_field *out, const hudi_field *root, hudi_error *err);
/** `out` = `root` without the meta fields (and _hoodie_operation). */
int hudi_schema_remove_meta_fields(hudi_field *out, const hudi_field *root, hudi_error *err);

/* ---- from other schemas ------------------------------------------------------------------- */

/** The table schema Hudi (through Spark) derives from a Parquet file schema (the Parquet
 *  reader's hudi_field): int8/int16/uint8/uint16 -> int, uint32 -> long, uint64 ->
 *  decimal(20,0), float16 -> float, INT96 and nanosecond timestamps -> timestamp micros (INT96)
 *  / long (nanos, Spark's nanosAsLong), JSON/BSON/enum hints dropped (string / bytes),
 *  field ids cleared, list element "element", map entries "key_value". When `table_name` is
 *  non-NULL the root is renamed to the table's record full name. EUNSUPPORTED naming the field
 *  for a map whose key is not a string (Avro maps have string keys). */
int hudi_schema_from_parquet(hudi_field *out, const hudi_field *parquet_root,
                             const char *table_name, hudi_error *err);

/** A copy of a table schema shaped the way parquet-avro writes it (AvroWriteSupport with the
 *  default old list structure): list elements become non-null, because parquet-avro's two-level
 *  `repeated <T> array` drops the element's ["null", T]. Writing it with
 *  pq_schema_write_options {two_level_lists = true, decimal_as_flba = true} (the writer's
 *  legacy_list_format + decimal_as_fixed) gives parquet-avro's schema elements. */
int hudi_schema_parquet_avro(hudi_field *out, const hudi_field *root, hudi_error *err);

#endif
