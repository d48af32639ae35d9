/* arrow_c.h - the Arrow C Data Interface and C Stream Interface
 * (https://arrow.apache.org/docs/format/CDataInterface.html, CStreamInterface.html):
 * hudic's exporters and importers (the ABI structs live in include/hudi/hudi_arrow.h).
 *
 * Ownership: exported structs own everything they point to until their release callback runs;
 * the consumer must call release exactly once (or move the struct and mark the source
 * released by setting release = NULL). */
#ifndef HUDI_COLUMNAR_ARROW_C_H
#define HUDI_COLUMNAR_ARROW_C_H

#include "columnar/columnar.h"
#include "hudi/hudi_arrow.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Exports `field` (and its children) as an ArrowSchema. On failure `out` is untouched
 *  (release == NULL is never written over a live struct). HUDI_EUNSUPPORTED for a type with no
 *  Arrow equivalent, HUDI_ENOMEM. Format strings: see arrow_c.c. */
int hudi_arrow_export_schema(struct ArrowSchema *out, const hudi_field *field, hudi_error *err);

/** Exports `a` as an ArrowArray by moving its buffers: on success `a` is left empty (length 0,
 *  no buffers, capacity 0; still valid to reuse or free) and `out` owns the data. On failure
 *  (HUDI_EINVAL from hudi_array_validate, HUDI_ENOMEM) `a` is unchanged and `out` untouched. */
int hudi_arrow_export_array(struct ArrowArray *out, hudi_array *a, hudi_error *err);

/** Exports a batch as a struct ArrowArray (no nulls, one child per column) by moving the
 *  columns' buffers, as hudi_arrow_export_array does; on success the batch is left with zero
 *  rows and empty columns, and the caller still frees it. Pair it with
 *  hudi_arrow_export_schema(batch->schema). */
int hudi_arrow_export_batch(struct ArrowArray *out, hudi_batch *batch, hudi_error *err);

/** Producer callback for a stream: sets *out to a batch the stream then owns (it exports and
 *  frees it), or to NULL at the end of the stream. Returns 0 or a negative HUDI_E* code. */
typedef int (*hudi_arrow_next_fn)(void *payload, hudi_batch **out, hudi_error *err);

/** Builds an ArrowArrayStream over `next`. The stream keeps a deep copy of `schema` (a STRUCT
 *  field; the batches' own schema pointers may be different but must describe the same shape).
 *  When the consumer releases the stream, `free_payload(payload)` runs (if non-NULL). On failure
 *  nothing is taken: the caller still owns `payload`. */
int hudi_arrow_stream_new(struct ArrowArrayStream *out, const hudi_field *schema,
                          hudi_arrow_next_fn next, void (*free_payload)(void *payload),
                          void *payload, hudi_error *err);

/* ---- import ------------------------------------------------------------------------------ */

/** Converts an ArrowSchema (borrowed; not released) into `out`, a field tree the caller
 *  disposes with hudi_field_dispose; `out` is zeroed on failure. Supported formats: those the
 *  exporter writes, plus large strings/binaries/lists (U, Z, +L; narrowed to 32-bit offsets on
 *  import) and timestamps with any time zone (UTC instants). HUDI_EUNSUPPORTED names the column
 *  for dictionaries, unions, views, seconds units, decimal256 and the like. */
int hudi_arrow_import_schema(hudi_field *out, const struct ArrowSchema *schema, hudi_error *err);

/** Copies `array` (borrowed; not released) into a new hudi_array of `field`, which must come
 *  from hudi_arrow_import_schema(`schema`) and outlive the array. `schema` tells 64-bit offset
 *  layouts apart (may be NULL when none are used). Offsets of every node are honoured.
 *  HUDI_EINVAL for malformed arrays (missing buffers, decreasing offsets, nulls in a
 *  non-nullable column), HUDI_ENOMEM (also for more than 2 GiB of bytes in one column). */
int hudi_arrow_import_array(hudi_array **out, const struct ArrowArray *array,
                            const struct ArrowSchema *schema, const hudi_field *field,
                            hudi_error *err);

/** Copies a struct ArrowArray (a record batch: no null rows) into a new batch of `field` (a
 *  STRUCT from hudi_arrow_import_schema; borrowed by the batch). */
int hudi_arrow_import_batch(hudi_batch **out, const struct ArrowArray *array,
                            const struct ArrowSchema *schema, const hudi_field *field,
                            hudi_error *err);

#ifdef __cplusplus
}
#endif
#endif
