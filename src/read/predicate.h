/* predicate.h - one simple scan predicate parsed from text: "COL OP CONSTANT" or
 * "COL IS [NOT] NULL", its constant converted to the column's type so readers compare it with
 * statistics and values directly. Used by the public scan filter and the CLI's --where.
 *
 * Grammar: COL is a bare name (up to a space or one of = ! < >), "double-quoted" or
 * `back-quoted`; OP is = == != <> < <= > >= or IS [NOT] NULL (any case); CONSTANT is a number,
 * true/false, 'a quoted string' ('' for a quote; also dates, times, timestamps), x'hex' for
 * binary, or a bare word. Invariant: the constant is exact in the column's type or the parse
 * fails with a message - the predicate never silently changes meaning by rounding. */
#ifndef HUDI_READ_PREDICATE_H
#define HUDI_READ_PREDICATE_H

#include "format/parquet/parquet.h"

typedef struct hudi_predicate {
    int32_t column; /* index into the schema's children */
    hudi_cmp_op op;
    hudi_value value; /* in the column's type; value.bytes points into `bytes` */
    hudi_buf bytes;   /* storage of a string/binary constant */
} hudi_predicate;

#define HUDI_PREDICATE_INIT                                                                        \
    { 0, HUDI_CMP_EQ, {0}, HUDI_BUF_INIT }

/* Parses `text` against the top-level columns of `schema` (a STRUCT). HUDI_EINVAL with a
 * one-line message ("unknown column 'x'", "'1.5' is not a valid int32 value") on a problem,
 * HUDI_ENOMEM. `out` must be initialised (HUDI_PREDICATE_INIT); dispose it in every case. */
int hudi_predicate_parse(hudi_predicate *out, const char *text, const hudi_field *schema,
                         hudi_error *err);
/* Converts constant text to a value of field `f`. `quoted`: the text came from '...' (so
 * "null" is a string); `hex`: from x'...' (binary only). Bytes go to `bytes`. */
int hudi_value_parse(hudi_value *out, hudi_buf *bytes, const char *text, bool quoted, bool hex,
                     const hudi_field *f, hudi_error *err);
void hudi_predicate_dispose(hudi_predicate *p);

#endif
