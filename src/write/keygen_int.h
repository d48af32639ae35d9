/* keygen_int.h - internals shared by keygen.c and keygen_format.c: Java-compatible rendering of
 * values, and the Joda-pattern subset used by the timestamp key generator. */
#ifndef HUDI_WRITE_KEYGEN_INT_H
#define HUDI_WRITE_KEYGEN_INT_H

#include "write/keygen.h"

/* LocalDate.toString of an epoch day. */
void hudi_kg_put_date(hudi_buf *out, int64_t days);
/* java.sql.Timestamp.toString of epoch millis, in UTC. */
void hudi_kg_put_sql_timestamp(hudi_buf *out, int64_t ms);
/* BigDecimal.toString of a 128-bit unscaled value and a scale. */
void hudi_kg_put_decimal(hudi_buf *out, __int128 unscaled, int32_t scale);

/* A fixed offset from UTC, in minutes. EUNSUPPORTED for named zones. */
int hudi_kg_parse_zone(int32_t *offset_min, const char *zone, hudi_error *err);

/* Checks that every letter of a Joda pattern is supported (EINVAL/EUNSUPPORTED naming it). */
int hudi_kg_pattern_check(const char *pattern, hudi_error *err);
/* Formats epoch millis in the zone `offset_min` with a Joda pattern. */
void hudi_kg_pattern_format(hudi_buf *out, const char *pattern, int64_t ms, int32_t offset_min);
/* Parses `s` fully with a Joda pattern; a zone in the text (pattern Z) overrides
 * `default_offset_min`. Returns false when the text does not match. */
bool hudi_kg_pattern_parse(const char *pattern, const char *s, size_t len,
                           int32_t default_offset_min, int64_t *ms);

#endif
