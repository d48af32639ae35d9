/**
 * @file hudi_json.h
 * @brief Arrow record batches as JSON Lines and back, in hudic's documented value rendering
 *        (docs/formats/rendering.md: one object per row, keys in schema order; dates,
 *        timestamps and decimals as strings, binary as base64, and so on).
 *
 * The writer renders into an internal buffer and hands it to the caller's `write` callback in
 * large pieces (about 1 MiB) and on hudi_json_writer_flush, so rendering millions of rows
 * costs no per-row call.
 * @code
 * hudi_json_writer *jw = NULL;
 * hudi_json_writer_new(&jw, &schema, write_to_stdout, NULL, &err);
 * hudi_json_writer_write(jw, &array, 0, array.length, &err);   // per batch
 * hudi_json_writer_flush(jw, &err);
 * hudi_json_writer_free(jw);
 * @endcode
 */
#ifndef HUDI_PUBLIC_JSON_H
#define HUDI_PUBLIC_JSON_H

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

typedef struct hudi_json_writer hudi_json_writer;

/** Receives rendered text; returns 0, or a negative HUDI_E* code to stop the writer (the
 *  writer then returns that code; the callback may fill `err` through its payload). */
typedef int (*hudi_json_write_fn)(void *payload, const char *data, size_t len);

/** A JSON Lines writer for record batches of `schema` (an Arrow struct schema, borrowed: it
 *  must stay valid until hudi_json_writer_free). HUDI_EUNSUPPORTED names a column whose Arrow type
 * hudic cannot render. */
HUDI_API int hudi_json_writer_new(hudi_json_writer **out, const struct ArrowSchema *schema,
                                  hudi_json_write_fn write, void *payload, hudi_error *err);

/** Renders rows [offset, offset + length) of `array` (a struct array of the writer's schema;
 *  borrowed), one line per row ending in '\n'. */
HUDI_API int hudi_json_writer_write(hudi_json_writer *jw, const struct ArrowArray *array,
                                    int64_t offset, int64_t length, hudi_error *err);

/** Hands everything rendered so far to the callback. */
HUDI_API int hudi_json_writer_flush(hudi_json_writer *jw, hudi_error *err);

/** Frees the writer without flushing. NULL does nothing. */
HUDI_API void hudi_json_writer_free(hudi_json_writer *jw);

/* ---- reading ------------------------------------------------------------------------------- */

/** Supplies input bytes: fills buf[0..cap) and sets *got (0 at the end of the input). Returns 0
 *  or a negative HUDI_E* code (with `err` filled). */
typedef int (*hudi_json_read_fn)(void *payload, void *buf, size_t cap, size_t *got,
                                 hudi_error *err);

/** Options of a JSON Lines reader. */
typedef struct hudi_json_read_options {
    int version;                /**< HUDI_JSON_READ_OPTIONS_VERSION */
    int64_t batch_rows;         /**< rows per batch; 0 = 8192 */
    bool ignore_unknown_fields; /**< skip keys that are not columns (default: an error) */
} hudi_json_read_options;
#define HUDI_JSON_READ_OPTIONS_VERSION 1
#define HUDI_JSON_READ_OPTIONS_INIT                                                                \
    { HUDI_JSON_READ_OPTIONS_VERSION, 0, false }

/** An Arrow C stream of the JSON Lines that `read` supplies, one object per line, parsed into
 *  record batches of `schema` (an Arrow struct schema, borrowed for the call) with the value
 *  syntax of the rendering (the inverse of hudi_json_writer). `name` (e.g. the file name) starts
 *  error messages, which also give the line. `read` and `payload` must stay valid until the
 *  stream is released. */
HUDI_API int hudi_json_reader_to_arrow(const struct ArrowSchema *schema, hudi_json_read_fn read,
                                       void *payload, const char *name,
                                       const hudi_json_read_options *opts,
                                       struct ArrowArrayStream *out, hudi_error *err);

#ifdef __cplusplus
}
#endif
#endif
