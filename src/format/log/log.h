/* log.h - Hudi log files, the delta files of merge-on-read file groups (docs/formats/log-file.md).
 *
 * A log file is a run of blocks. Each block is "#HUDI#", a size, a format version, a block type,
 * a header (a small int-keyed string map), the content, a footer map and a trailing length.
 * Data blocks carry full records (Avro binary datums, or a whole Parquet file) of the writer
 * schema named in their header; delete blocks carry record keys with ordering values; command
 * blocks roll back the blocks of an earlier instant.
 *
 * This module splits bytes into blocks and decodes their contents into columnar batches and
 * key lists. Which blocks apply (completed instants, rollbacks, the query instant) and how
 * records merge with base files is the read layer's business (read/mor.h).
 *
 * Invariant: every hudi_slice of a hudi_log_block points into the file bytes given to
 * hudi_log_scan, which must outlive the blocks; decoded batches and delete lists own copies of
 * their bytes. Nothing read from a file is trusted - every length is checked against the bytes
 * that remain. */
#ifndef HUDI_LOG_H
#define HUDI_LOG_H

#include "base/base.h"
#include "columnar/columnar.h"
#include "format/avro/avro.h"

/** Block types: the int32 ordinal stored in the block (docs/formats/log-file.md §2). */
typedef enum hudi_log_block_type {
    HUDI_LOG_COMMAND_BLOCK = 0,
    HUDI_LOG_DELETE_BLOCK = 1,
    HUDI_LOG_CORRUPT_BLOCK = 2, /* never stored: bytes the scan could not frame */
    HUDI_LOG_AVRO_DATA_BLOCK = 3,
    HUDI_LOG_HFILE_DATA_BLOCK = 4,
    HUDI_LOG_PARQUET_DATA_BLOCK = 5,
    HUDI_LOG_CDC_DATA_BLOCK = 6,
} hudi_log_block_type;

/** Header and footer map keys (ordinals). */
typedef enum hudi_log_meta_key {
    HUDI_LOG_INSTANT_TIME = 0,
    HUDI_LOG_TARGET_INSTANT_TIME = 1,
    HUDI_LOG_SCHEMA = 2,
    HUDI_LOG_COMMAND_BLOCK_TYPE = 3,
    HUDI_LOG_COMPACTED_BLOCK_TIMES = 4,
    HUDI_LOG_RECORD_POSITIONS = 5,
    HUDI_LOG_BLOCK_IDENTIFIER = 6,
    HUDI_LOG_IS_PARTIAL = 7,
    HUDI_LOG_BASE_FILE_INSTANT_TIME_OF_RECORD_POSITIONS = 8,
    HUDI_LOG_META_KEYS = 9,
} hudi_log_meta_key;

/** One block of a log file. Slices point into the scanned file bytes; a header entry that is
 *  absent has header[k].data == NULL. */
typedef struct hudi_log_block {
    hudi_log_block_type type;
    int32_t format_version; /* log format version: 1 (0 = legacy, content only) */
    int64_t offset;         /* of the block's first byte (its magic) in the file */
    int64_t length;         /* bytes of the whole block, magic and trailer included */
    hudi_slice header[HUDI_LOG_META_KEYS];
    hudi_slice footer[HUDI_LOG_META_KEYS];
    hudi_slice content; /* data: records; CORRUPT: the unframed bytes */
} hudi_log_block;

/** The blocks of one log file, in file order. */
typedef struct hudi_log_blocks {
    hudi_log_block *blocks;
    size_t count;
    size_t corrupt; /* how many of them are HUDI_LOG_CORRUPT_BLOCK */
} hudi_log_blocks;

#define HUDI_LOG_BLOCKS_INIT                                                                       \
    { NULL, 0, 0 }

/** Splits a whole log file into blocks, as Hudi's log reader frames them: a block whose size
 *  runs past the end, whose trailing length disagrees, or that is not followed by a magic or
 *  the end of the file is corrupt, and the bytes up to the next magic become one CORRUPT
 *  block (Hudi skips those, so do readers). Bytes that do not start with a magic (junk at the
 *  start of the file, or fewer than 6 trailing bytes) also become a CORRUPT block. Fails only
 *  for ENOMEM, EUNSUPPORTED for a legacy block (log format version 0), or ECORRUPT naming
 *  `name` and the offset for a block that passed the framing check but has an unknown block
 *  type or header key, or whose header, content and footer do not fill it exactly (Hudi's
 *  reader throws on those too); corrupt framing is not an error. */
int hudi_log_scan(hudi_log_blocks *out, hudi_slice file, const char *name, hudi_error *err);
void hudi_log_blocks_dispose(hudi_log_blocks *b); /* leaves it empty; NULL-safe */

/** Decodes an AVRO_DATA_BLOCK (or CDC block) into a new batch of `fields` (a STRUCT field: the
 *  columnar form of the block's writer schema `writer`, as the schema layer converts the
 *  header's SCHEMA; the batch borrows `fields`, which must outlive it). ECORRUPT naming `name`,
 *  the block offset and the record for truncated or malformed records, EUNSUPPORTED for block
 *  content versions other than 3 (older Hudi releases), EINVAL when `fields` is not the
 *  columnar form of `writer` (docs/formats/log-file.md §4.2). The batch holds copies of
 *  the values: it does not point into the file bytes. */
int hudi_log_avro_block_read(hudi_batch **out, const hudi_log_block *b,
                             const hudi_avro_schema *writer, const hudi_field *fields,
                             const char *name, hudi_error *err);

/** The ordering value of a delete (HoodieDeleteRecord.orderingVal): the wrapper branch and
 *  its value. Integer 0 (kind INT, i == 0) means "no ordering value" to Hudi. */
typedef enum hudi_log_ordering_kind {
    HUDI_LOG_ORDER_NULL = 0,
    HUDI_LOG_ORDER_BOOLEAN,
    HUDI_LOG_ORDER_INT,
    HUDI_LOG_ORDER_LONG,
    HUDI_LOG_ORDER_FLOAT,
    HUDI_LOG_ORDER_DOUBLE,
    HUDI_LOG_ORDER_BYTES,
    HUDI_LOG_ORDER_STRING,
    HUDI_LOG_ORDER_DATE,      /* days since the epoch, in i */
    HUDI_LOG_ORDER_DECIMAL,   /* unscaled big-endian bytes of decimal(30,15), in bytes */
    HUDI_LOG_ORDER_TIME,      /* micros, in i */
    HUDI_LOG_ORDER_TIMESTAMP, /* micros, in i */
} hudi_log_ordering_kind;

typedef struct hudi_log_ordering {
    hudi_log_ordering_kind kind;
    int64_t i;        /* BOOLEAN (0/1), INT, LONG, DATE, TIME, TIMESTAMP */
    double d;         /* FLOAT, DOUBLE */
    hudi_slice bytes; /* BYTES, STRING, DECIMAL (copied into the delete list's arena) */
} hudi_log_ordering;

typedef struct hudi_log_delete {
    hudi_slice record_key;     /* data NULL when the key is null */
    hudi_slice partition_path; /* data NULL when null */
    hudi_log_ordering ordering;
} hudi_log_delete;

typedef struct hudi_log_deletes {
    hudi_log_delete *items;
    size_t count;
    hudi_arena arena; /* owns items and their bytes */
} hudi_log_deletes;

#define HUDI_LOG_DELETES_INIT                                                                      \
    { NULL, 0, HUDI_ARENA_INIT }

/** Decodes a DELETE_BLOCK (content version 3: an Avro HoodieDeleteRecordList). EUNSUPPORTED
 *  for versions 1 and 2 (Java/Kryo serialised, written only by old Hudi releases), ECORRUPT
 *  naming `name` and the block offset for malformed content. */
int hudi_log_delete_block_read(hudi_log_deletes *out, const hudi_log_block *b, const char *name,
                               hudi_error *err);
void hudi_log_deletes_dispose(hudi_log_deletes *d); /* NULL-safe */

/** Compares two ordering values as Java's Comparable does for same-class values: *cmp < 0,
 *  0, > 0 (strings in UTF-16 code-unit order, bytes as signed bytes, decimals by value, floats
 *  with -0.0 < 0.0 and NaN last). False (cmp untouched) when the kinds differ or both are
 *  NULL, so the values are not comparable. */
bool hudi_log_ordering_cmp(const hudi_log_ordering *a, const hudi_log_ordering *b, int *cmp);

/* ---- writing (merge-on-read writes) ------------------------------------------------------ */

/** Appends one complete block (format version 1) to `out`: magic, sizes, `type`, the header
 *  entries of `header` whose data is non-NULL (in key order), `content`, an empty footer. */
int hudi_log_block_write(hudi_buf *out, hudi_log_block_type type,
                         const hudi_slice header[HUDI_LOG_META_KEYS], hudi_slice content,
                         hudi_error *err);

/** Appends an AVRO_DATA_BLOCK's content (version 3, the records of `batch` as Avro binary
 *  datums of `writer`, whose columnar form is batch->schema) to `out`. */
int hudi_log_avro_block_encode(hudi_buf *out, const hudi_batch *batch,
                               const hudi_avro_schema *writer, hudi_error *err);

/** Appends a DELETE_BLOCK's content (version 3) for `count` deletes to `out`. */
int hudi_log_delete_block_encode(hudi_buf *out, const hudi_log_delete *deletes, size_t count,
                                 hudi_error *err);

#endif
