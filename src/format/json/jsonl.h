/* jsonl.h - JSON Lines input: one JSON object per line, converted to columnar batches of a given
 * schema. The accepted value forms are the inverse of docs/formats/rendering.md, so the output
 * of `hudic parquet cat` / `hudic table cat` reads back into the same values:
 *
 *   BOOL            true / false
 *   INT*, UINT*     a JSON integer within the type's range
 *   FLOAT, DOUBLE   a JSON number, or "NaN", "Infinity", "-Infinity"
 *   DECIMAL(p, s)   a string or a number, exact at scale s and within precision p
 *   DATE            "YYYY-MM-DD" (expanded years "+010000-01-01") or an integer (days)
 *   TIME            "HH:MM:SS[.f]" or an integer in the column's unit
 *   TIMESTAMP       ISO 8601 "YYYY-MM-DD[THH:MM[:SS[.f]]][Z|+HH:MM]" or an integer in the unit
 *   STRING          a string (escapes decoded; must be valid UTF-8)
 *   BINARY, FIXED   standard base64 text; FIXED_BINARY(16) with the UUID hint also takes
 *                   canonical UUID text
 *   STRUCT          an object; absent keys are null
 *   LIST            an array
 *   MAP             an array of {"key": k, "value": v} objects, or an object {"k": v, ...}
 *                   (keys converted from their text to the key type)
 *   any nullable    null
 *
 * Errors name the line and the field path: "input.jsonl: line 7: field a.b[2]: 'x' is not an
 * integer". The parser is a schema-driven recursive descent over the bytes (no DOM): nothing is
 * allocated per value beyond the arrays' geometric growth and one scratch buffer for escaped
 * strings. Memory is bounded by one batch plus the longest line. */
#ifndef HUDI_FORMAT_JSONL_H
#define HUDI_FORMAT_JSONL_H

#include "columnar/columnar.h"

typedef struct hudi_jsonl_options {
    int version;                /* HUDI_JSONL_OPTIONS_VERSION */
    int64_t batch_rows;         /* rows per batch; 0 = 8192 */
    bool ignore_unknown_fields; /* default false: a key the schema lacks is an error */
    int64_t max_line_bytes;     /* longer lines are an error; 0 = 64 MiB */
} hudi_jsonl_options;

#define HUDI_JSONL_OPTIONS_VERSION 1
#define HUDI_JSONL_OPTIONS_INIT                                                                    \
    { HUDI_JSONL_OPTIONS_VERSION, 0, false, 0 }

/* The byte source of a reader: fills buf[0, cap) with up to cap bytes, *got = 0 at the end. */
typedef int (*hudi_jsonl_read_fn)(void *payload, void *buf, size_t cap, size_t *got,
                                  hudi_error *err);

typedef struct hudi_jsonl_reader hudi_jsonl_reader;

/* A reader of `schema` (a STRUCT, borrowed: it must outlive the reader) over `read`.
 * `source` names the input in errors (copied; may be NULL). `opts` may be NULL. */
int hudi_jsonl_reader_new(hudi_jsonl_reader **out, const hudi_field *schema,
                          hudi_jsonl_read_fn read, void *payload, const char *source,
                          const hudi_jsonl_options *opts, hudi_error *err);
/* The next batch of up to batch_rows rows, or *out = NULL at the end. The batch belongs to the
 * reader and stays valid until the next call. Blank lines are skipped. */
int hudi_jsonl_reader_next(hudi_jsonl_reader *r, hudi_batch **out, hudi_error *err);
/* Moves the last batch out of the reader (the caller frees it); the reader makes a new one. */
hudi_batch *hudi_jsonl_reader_take_batch(hudi_jsonl_reader *r);
/* Lines consumed so far. */
int64_t hudi_jsonl_reader_lines(const hudi_jsonl_reader *r);
void hudi_jsonl_reader_free(hudi_jsonl_reader *r); /* NULL-safe */

/* Parses one line (one JSON object, surrounding white space allowed) and appends it as a row
 * to `batch` (whose schema gives the columns). On failure the batch is unchanged and the error
 * names `line_no` and the field. */
int hudi_jsonl_parse_row(hudi_batch *batch, const char *text, size_t len, int64_t line_no,
                         const hudi_jsonl_options *opts, hudi_error *err);

#endif
