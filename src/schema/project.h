/* project.h - reading a file written under an older schema as the table's current schema
 * (docs/formats/schema-evolution.md §4): which of the file's columns hold each query column,
 * at every depth, and the conversions on the way.
 *
 * Columns are matched by name: either the query's own names (schema on write: Hudi resolves
 * base-file columns by name) or, with schema on read, the names the query columns had when the
 * file was written (hudi_ischema_file_names of schema/internal_schema.h; "" = the file does not
 * have the column). A query column the file lacks reads as null; a column present with another
 * type is read with the file's type and converted (columnar/convert.h); struct fields, list
 * elements and map values are resolved and converted the same way, recursively, so a file
 * whose struct lacks a field, names it differently or stores it narrower reads right. */
#ifndef HUDI_SCHEMA_PROJECT_H
#define HUDI_SCHEMA_PROJECT_H

#include "columnar/columnar.h"

typedef struct hudi_projection hudi_projection;

/* A projection of `file` (a STRUCT: the file's physical schema, as the Parquet reader gives it)
 * onto `query` (a STRUCT). `names` is NULL (match by query names) or a tree of query's shape
 * whose names are the file-side names (hudi_ischema_file_names). EINVAL naming `file_path` and
 * the column when a present column cannot become the query's type (hudi_type_can_convert, or
 * struct vs primitive): the file does not belong to the table as it is. `lenient`: values
 * that do not convert read as null instead of failing the read. */
int hudi_projection_new(hudi_projection **out, const hudi_field *file, const hudi_field *query,
                        const hudi_field *names, bool lenient, const char *file_path,
                        hudi_error *err);
void hudi_projection_free(hudi_projection *p); /* NULL-safe */

/* The top-level file column (index into file's children) that holds query column `i`, or -1
 * when the file lacks it (all null). */
int32_t hudi_projection_source(const hudi_projection *p, int32_t i);
/* Whether query column `i` is read as it is stored (same type at every depth, same names
 * below it): its statistics, bloom filters and predicates apply to the file column as they
 * are. False when anything under it is converted, renamed into place or filled with nulls. */
bool hudi_projection_exact(const hudi_projection *p, int32_t i);

/* Builds query column `i` from `src`, the array of file column hudi_projection_source(p, i) as
 * read (NULL when the source is -1; then `rows` null values): `*out` is `src` itself when exact
 * (re-pointed at the query field; `*moved` = true, the caller gives up src), else a new array.
 * `query_field` is the query's child i (the field the result points at). A non-exact column
 * reuses src's parts too (struct validity, list offsets, unchanged children), so `*moved` is
 * true whenever src was taken over: always for a non-NULL src past the argument checks, failures
 * included (src is then freed here). */
int hudi_projection_column(const hudi_projection *p, int32_t i, hudi_array *src, int64_t rows,
                           const hudi_field *query_field, hudi_array **out, bool *moved,
                           hudi_error *err);

#endif
