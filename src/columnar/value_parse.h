/* value_parse.h - text to typed values: the inverse of render.h (docs/formats/rendering.md).
 * Shared by the JSON Lines reader (format/json) and the scan predicate parser (read/predicate).
 *
 * Every parser takes (pointer, length) text that need not be NUL-terminated, writes *out only
 * on success, and returns HUDI_PARSE_OK or one of the negative HUDI_PARSE_* reasons so callers
 * can word their own error messages (naming a line, a field or a column). Nothing allocates
 * except the hex/base64 decoders, which append to a caller's hudi_buf.
 *
 * Invariant: a value is accepted only when it is exact in the target type - no silent
 * rounding of decimals, timestamps or integers. */
#ifndef HUDI_COLUMNAR_VALUE_PARSE_H
#define HUDI_COLUMNAR_VALUE_PARSE_H

#include "columnar/columnar.h"

enum {
    HUDI_PARSE_OK = 0,
    HUDI_PARSE_SYNTAX = -1,    /* not a value of the expected form */
    HUDI_PARSE_PRECISION = -2, /* more precise than the type (fraction digits, sub-unit time) */
    HUDI_PARSE_RANGE = -3,     /* well-formed but out of the type's range */
};

/* "-123" (optional sign, decimal digits only). */
int hudi_parse_i64(const char *s, size_t n, int64_t *out);
/* "123" (optional '+', no '-'). */
int hudi_parse_u64(const char *s, size_t n, uint64_t *out);
/* An integer for an INT8..INT64 / UINT8..UINT64 field, range-checked; UINT64 values keep their
 * bits in the int64. HUDI_PARSE_SYNTAX for non-integer types. */
int hudi_parse_int_for(const hudi_field *f, const char *s, size_t n, int64_t *out);
/* A decimal floating-point number (strtod syntax, '.' whatever the locale), or the rendering's
 * "NaN", "Infinity", "-Infinity" (also "inf", "-inf", "nan", any case). */
int hudi_parse_double(const char *s, size_t n, double *out);
/* As hudi_parse_double, rounded once, directly to float (strtof): a decimal text that names a
 * float reads back as exactly that float. */
int hudi_parse_float32(const char *s, size_t n, float *out);
/* d rounded to the nearest IEEE half (ties to even) and returned as its bits; overflow gives
 * infinity. hudi_round_to_half gives the same value as a double. */
uint16_t hudi_float_to_half(double d);
double hudi_round_to_half(double d);
/* "-12.340" -> unscaled at `scale` (-1234 at scale 2). Fraction digits beyond `scale` must be
 * zeros (else PRECISION); with precision in 1..38 the value must fit it (else RANGE); an
 * exponent ("1.5e3") is accepted for JSON numbers. */
int hudi_parse_decimal(const char *s, size_t n, int32_t precision, int32_t scale, __int128 *out);
/* "YYYY-MM-DD", also ISO 8601 expanded years ("+010000-01-01", "-000001-12-31"). */
int hudi_parse_date(const char *s, size_t n, int64_t *days);
/* "[-]HH:MM[:SS[.f{1,9}]]" -> the time in `unit` (hudi_time_unit). Hours may exceed 23 and a
 * leading '-' negates, as the rendering of out-of-day values does. */
int hudi_parse_time(const char *s, size_t n, int unit, int64_t *out);
/* "DATE[(T| )HH:MM[:SS[.f{1,9}]]][Z|(+|-)HH:MM]" -> `unit` since the epoch. Without an offset
 * the wall clock is taken as is (UTC-adjusted columns: as UTC); an offset converts to UTC. */
int hudi_parse_timestamp(const char *s, size_t n, int unit, int64_t *out);
/* Hex digits (dashes skipped, for UUIDs) appended to `out` as bytes. */
int hudi_parse_hex(const char *s, size_t n, hudi_buf *out);
/* Standard base64 (RFC 4648, '=' padding optional) appended to `out`. */
int hudi_parse_base64(const char *s, size_t n, hudi_buf *out);
/* Canonical 8-4-4-4-12 UUID text (any case) -> 16 bytes in order. */
int hudi_parse_uuid(const char *s, size_t n, uint8_t out[16]);

#endif
