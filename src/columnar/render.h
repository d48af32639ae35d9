/* render.h - values as JSON text: the product's documented output format
 * (docs/formats/rendering.md), also used by SQL output and test diagnostics.
 *
 * Every function appends to a hudi_buf and relies on its sticky failure flag; nothing here
 * allocates except the buffer's own geometric growth, so rendering millions of rows costs no
 * per-value allocation. */
#ifndef HUDI_COLUMNAR_RENDER_H
#define HUDI_COLUMNAR_RENDER_H

#include "columnar/columnar.h"

/* Appends row `row` of `a` as one JSON value. Returns 0, HUDI_ENOMEM if `out` failed (now or
 * earlier), or HUDI_EINVAL if row is outside [0, a->length). */
int hudi_render_json_value(hudi_buf *out, const hudi_array *a, int64_t row);
/* Appends row `row` of `b` as {"col":value,...} with the keys in schema order. */
int hudi_render_json_row(hudi_buf *out, const hudi_batch *b, int64_t row);

/* Building blocks for other renderers (SQL table output, CSV). Each appends plain text, without
 * JSON quotes unless it says so. */
void hudi_render_i64(hudi_buf *out, int64_t v);
void hudi_render_u64(hudi_buf *out, uint64_t v);
void hudi_render_double(hudi_buf *out, double v); /* shortest round-trip; nan, inf, -inf */
void hudi_render_float(hudi_buf *out, float v);   /* shortest round-trip as float */
/* 16 bytes, little-endian two's complement unscaled value; exactly `scale` fraction digits. */
void hudi_render_decimal128(hudi_buf *out, const uint8_t value[16], int32_t scale);
void hudi_render_date(hudi_buf *out, int64_t days);                /* YYYY-MM-DD */
void hudi_render_time(hudi_buf *out, int64_t v, hudi_time_unit u); /* HH:MM:SS.fff... */
void hudi_render_timestamp(hudi_buf *out, int64_t v, hudi_time_unit u, bool utc);
void hudi_render_base64(hudi_buf *out, const uint8_t *p, size_t n);
void hudi_render_uuid(hudi_buf *out, const uint8_t p[16]);
/* A JSON string literal with quotes; invalid UTF-8 bytes become U+FFFD. */
void hudi_render_json_string(hudi_buf *out, const uint8_t *s, size_t n);

#endif
