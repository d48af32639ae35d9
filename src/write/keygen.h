/* keygen.h - Hudi key generators (docs/formats/keys.md): record keys and partition paths
 * for whole batches, rendered the way Hudi's Java key generators render Avro values.
 *
 * Columnar: each key/partition field (a dotted path through structs) is rendered for all rows
 * of a batch at once, then the per-row strings are assembled and appended to STRING arrays.
 *
 * Value rendering (Java String.valueOf of the Avro value after Hudi's logical-type conversion):
 *   boolean true/false; integers decimal; float/double as Java Float/Double.toString (shortest
 *   round-trip digits, "1.0", "1.0E10", "1.0E-5", "NaN", "Infinity"); decimal as
 *   BigDecimal.toString (plain, or "1.23E-8" when the adjusted exponent is below -6); date as
 *   yyyy-MM-dd; timestamps as the raw long in the column's unit, or with
 *   consistent_logical_timestamp as java.sql.Timestamp.toString in UTC
 *   ("2024-01-02 03:04:05.123"; the JVM zone is assumed to be UTC); strings as is.
 *   Binary, fixed, nested and other types are EUNSUPPORTED as key fields. */
#ifndef HUDI_WRITE_KEYGEN_H
#define HUDI_WRITE_KEYGEN_H

#include "columnar/columnar.h"

#define HUDI_DEFAULT_PARTITION_PATH "__HIVE_DEFAULT_PARTITION__"
#define HUDI_NULL_RECORD_KEY_PLACEHOLDER "__null__"
#define HUDI_EMPTY_RECORD_KEY_PLACEHOLDER "__empty__"

typedef enum hudi_keygen_type {
    HUDI_KEYGEN_SIMPLE = 0,     /* org.apache.hudi.keygen.SimpleKeyGenerator, "SIMPLE" */
    HUDI_KEYGEN_COMPLEX,        /* ComplexKeyGenerator, "COMPLEX" */
    HUDI_KEYGEN_NONPARTITIONED, /* NonpartitionedKeyGenerator, "NON_PARTITION" */
    HUDI_KEYGEN_TIMESTAMP,      /* TimestampBasedKeyGenerator, "TIMESTAMP" */
    HUDI_KEYGEN_CUSTOM,         /* CustomKeyGenerator, "CUSTOM" */
} hudi_keygen_type;

/* hoodie.keygen.timebased.timestamp.type */
typedef enum hudi_keygen_ts_type {
    HUDI_TS_UNIX_TIMESTAMP = 0, /* seconds */
    HUDI_TS_EPOCHMILLISECONDS,
    HUDI_TS_EPOCHMICROSECONDS,
    HUDI_TS_SCALAR, /* in scalar_unit */
    HUDI_TS_DATE_STRING,
} hudi_keygen_ts_type;

/* hoodie.keygen.timebased.timestamp.scalar.time.unit (java.util.concurrent.TimeUnit) */
typedef enum hudi_keygen_scalar_unit {
    HUDI_SCALAR_SECONDS = 0,
    HUDI_SCALAR_NANOSECONDS,
    HUDI_SCALAR_MICROSECONDS,
    HUDI_SCALAR_MILLISECONDS,
    HUDI_SCALAR_MINUTES,
    HUDI_SCALAR_HOURS,
    HUDI_SCALAR_DAYS,
} hudi_keygen_scalar_unit;

/* TimestampBasedKeyGenerator settings (prefix hoodie.keygen.timebased.). Date patterns are
 * Joda/Java patterns; supported letters: y M d H h m s S a Z (plus 'quoted' literals). Time
 * zones: UTC, GMT, Z and fixed offsets (+08:00, -0530, GMT+8, UTC-03:00); named zones with
 * daylight saving are EUNSUPPORTED. */
typedef struct hudi_keygen_ts_options {
    hudi_keygen_ts_type type;
    hudi_keygen_scalar_unit scalar_unit;
    const char *input_dateformat;  /* DATE_STRING: one or more patterns */
    const char *input_delimiter;   /* input.dateformat.list.delimiter.regex (a literal); "," */
    const char *output_dateformat; /* required */
    const char *timezone;          /* "timezone": both zones; NULL = use the two below */
    const char *input_timezone;    /* NULL = UTC; a zone in the value wins when parsing */
    const char *output_timezone;   /* NULL = UTC */
} hudi_keygen_ts_options;

typedef struct hudi_keygen_options {
    int version; /* HUDI_KEYGEN_OPTIONS_VERSION */
    hudi_keygen_type type;
    const char *record_key_fields;     /* "a" or "a,b.c" (hoodie.table.recordkey.fields); NULL:
                                        * generated keys, partition paths only (keys.md §9) */
    const char *partition_fields;      /* "p" / "p,q"; CUSTOM: "p:SIMPLE,t:TIMESTAMP"; "" = none */
    bool hive_style;                   /* hoodie.datasource.write.hive_style_partitioning */
    bool url_encode;                   /* hoodie.datasource.write.partitionpath.urlencode */
    bool consistent_logical_timestamp; /* ...keygenerator.consistent.logical.timestamp.enabled */
    const char *default_partition; /* NULL = "__HIVE_DEFAULT_PARTITION__" (old tables: "default") */
    hudi_keygen_ts_options ts;
} hudi_keygen_options;

#define HUDI_KEYGEN_OPTIONS_VERSION 1
#define HUDI_KEYGEN_OPTIONS_INIT                                                                   \
    {                                                                                              \
        HUDI_KEYGEN_OPTIONS_VERSION, HUDI_KEYGEN_SIMPLE, NULL, "", false, false, false, NULL, {    \
            HUDI_TS_UNIX_TIMESTAMP, HUDI_SCALAR_SECONDS, NULL, ",", NULL, NULL, NULL, NULL         \
        }                                                                                          \
    }

typedef struct hudi_keygen hudi_keygen;

/** Resolves the key and partition fields against `schema` (a STRUCT: the batch schema) and
 *  validates the options. EINVAL naming the field for a missing field, a field path through a
 *  non-struct, a bad option or pattern; EUNSUPPORTED for a key field type that has no Hudi
 *  rendering or a named time zone. The keygen copies what it needs from the options. */
int hudi_keygen_new(hudi_keygen **out, const hudi_keygen_options *opts, const hudi_field *schema,
                    hudi_error *err);
void hudi_keygen_free(hudi_keygen *kg); /* NULL-safe */

/** Appends one record key per row of `b` (whose schema has the shape given to new) to `out`, a
 *  STRING array. EINVAL naming the row and field for a null or empty key (simple) or a complex
 *  key whose fields are all null/empty; `out` keeps the rows appended before the error. */
int hudi_keygen_record_keys(hudi_keygen *kg, const hudi_batch *b, hudi_array *out, hudi_error *err);
/** Appends one partition path per row ("" for non-partitioned tables). EINVAL naming the row
 *  for an unparseable DATE_STRING value. */
int hudi_keygen_partition_paths(hudi_keygen *kg, const hudi_batch *b, hudi_array *out,
                                hudi_error *err);

/** Whether record keys or partition paths read top-level column `col` of the batch schema
 *  given to new (a caller rendering a row range can copy just those columns). */
bool hudi_keygen_uses_column(const hudi_keygen *kg, int32_t col);

/** Parses a key generator class name (org.apache.hudi.keygen.*KeyGenerator, with or without
 *  the package, also the Spark SQL Sql/Avro variants) or type name (SIMPLE, COMPLEX,
 *  NON_PARTITION, TIMESTAMP, CUSTOM). EINVAL otherwise. */
int hudi_keygen_type_parse(hudi_keygen_type *out, const char *name, hudi_error *err);

/** Hive's escapePathName as Hudi uses it (keys.md §9): appends `s` with the escaped characters as
 *  %XX (uppercase hex). */
void hudi_partition_escape(hudi_buf *out, const char *s, size_t len);

/** Java Double.toString / Float.toString of `v` (shortest round-trip digits). */
void hudi_java_double_str(hudi_buf *out, double v);
void hudi_java_float_str(hudi_buf *out, float v);

#endif
