/* cdc.h - change data capture of copy-on-write tables, as Hudi 0.15 does it (docs/formats/cdc.md).
 *
 * A table with hoodie.table.cdc.enabled=true gets, next to every base file that a merge
 * rewrote, a `.cdc` log file of CDC_DATA_BLOCKs whose records say what changed (the write
 * layer's cdc_log.c writes them). A CDC query over the commits in (begin, end] reads those
 * files as they are, and infers the changes of the write stats without one: a new file group
 * (every row inserted), a file group emptied by a delete, and the file groups a replacecommit
 * retired (every row deleted).
 *
 * The rows are Hudi's: op ("i", "u", "d"), ts_ms (the commit instant), before and after - the
 * record images as text in the two forms Spark's CDC relation produces (cdc.md §4): Avro's
 * GenericData.toString for images taken from a CDC log or (OP_KEY_ONLY) a previous base file,
 * and the compact JSON of a Scala HashMap for rows read from a base file. */
#ifndef HUDI_READ_CDC_H
#define HUDI_READ_CDC_H

#include "format/log/log.h"
#include "table/tbl.h"

/* hoodie.table.cdc.supplemental.logging.mode */
typedef enum hudi_cdc_mode {
    HUDI_CDC_OP_KEY_ONLY = 0,
    HUDI_CDC_DATA_BEFORE = 1,
    HUDI_CDC_DATA_BEFORE_AFTER = 2, /* the default */
} hudi_cdc_mode;

const char *hudi_cdc_mode_name(hudi_cdc_mode m);
/* The table's CDC settings: *enabled from hoodie.table.cdc.enabled (default false), *mode from
 * hoodie.table.cdc.supplemental.logging.mode (default DATA_BEFORE_AFTER). EINVAL naming the
 * table for an unknown mode. */
int hudi_cdc_config(const hudi_table *t, bool *enabled, hudi_cdc_mode *mode, hudi_error *err);

/* Appends the image of row `row` of STRUCT array `rec` (fields `f`) as Avro's
 * GenericData.toString writes a record: {"a": 1, "b": "x"}, schema order, null as null. */
void hudi_cdc_render_avro(hudi_buf *out, const hudi_array *rec, int64_t row);
/* Appends row `row` of the columns of `b` as Spark 0.15's CDC relation renders a base file row:
 * compact JSON of a Scala mutable.HashMap (keys in the map's iteration order `order`, from
 * hudi_cdc_json_order), null values left out. */
void hudi_cdc_render_json(hudi_buf *out, const hudi_batch *b, const int32_t *order, int64_t row);
/* The iteration order of a Scala 2.12 mutable.HashMap filled with the `n` names of `st`'s
 * children in order: out[k] = index of the k-th name iterated. */
void hudi_cdc_json_order(const hudi_field *st, int32_t *out);

/* Decodes every CDC_DATA_BLOCK of a `.cdc` log file (bytes `file`, named `name` in errors)
 * into batches of the block's CDC schema (its header SCHEMA); *fields receives the columnar
 * form of the first block's schema (blocks of one file share it). The caller frees the
 * batches (hudi_batch_free) and the array, and disposes *fields. */
int hudi_cdc_log_decode(hudi_batch ***out, size_t *n_out, hudi_field *fields, hudi_slice file,
                        const char *name, hudi_error *err);

/* The CDC rows of the commits in (begin, end] (begin "earliest" = every commit; end NULL = the
 * latest completed commit), in commit order: batches of four STRING columns op, ts_ms, before,
 * after (schema *schema, disposed by the caller). EINVAL "it isn't a CDC hudi table" for a
 * table without hoodie.table.cdc.enabled=true, EUNSUPPORTED for merge-on-read tables. */
typedef struct hudi_cdc_rows {
    hudi_field schema;
    hudi_batch **batches;
    size_t count;
} hudi_cdc_rows;
int hudi_cdc_read(hudi_cdc_rows *out, hudi_table *t, const char *begin, const char *end,
                  hudi_error *err);
void hudi_cdc_rows_dispose(hudi_cdc_rows *r);

#endif
