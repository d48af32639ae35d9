/* internal_schema_int.h - helpers internal_schema.c shares with schema_change.c (not for other
 * layers). docs/formats/internal-schema.md. */
#ifndef HUDI_SCHEMA_INTERNAL_SCHEMA_INT_H
#define HUDI_SCHEMA_INTERNAL_SCHEMA_INT_H

#include "schema/internal_schema.h"

/* `out` = `src` converted to a model type without ids (Hudi's Avro converter rules), named
 * `name`, nullable as src. */
HUDI_INTERNAL int hudi_ischema_convert_type(hudi_field *out, const hudi_field *src,
                                            const char *name, hudi_error *err);
/* Gives the new column `f` id *next and its nested ids after it (Hudi's refreshNewId). */
HUDI_INTERNAL void hudi_ischema_assign_new(hudi_field *f, int32_t *next);
/* Appends the JSON name of f's type ("int", "decimal(10, 2)", "record"...); false if none. */
HUDI_INTERNAL bool hudi_ischema_type_text(hudi_buf *b, const hudi_field *f);
/* Parses a primitive name as the JSON holds it (any case); false if it is none. */
HUDI_INTERNAL bool hudi_ischema_parse_primitive(const char *t, hudi_field *f);
/* The child of f (struct, list or map) whose path segment is name[0..n), or NULL. */
HUDI_INTERNAL const hudi_field *hudi_ischema_child(const hudi_field *f, const char *name, size_t n);

#endif
