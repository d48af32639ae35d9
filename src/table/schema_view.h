/* schema_view.h - which schema a table, a query and each of its files have
 * (docs/formats/schema-evolution.md §1, docs/formats/internal-schema.md §5).
 *
 * The table schema as of an instant is Hudi's (TableSchemaResolver): the "schema" of the
 * commit metadata of the latest completed commit, deltacommit or replacecommit at or before it
 * whose operation can change the schema (not cluster, compact, index, log_compact) and whose
 * "schema" is not empty; else hoodie.table.create.schema; else none (the caller falls back to a
 * data file's footer). The meta fields are put in front, also when the table does not populate
 * them (Hudi's resolver always adds them; its files have the columns, null).
 *
 * With schema on read (the table has an InternalSchema: a completed commit carries
 * "latest_schema", or .hoodie/.schema has a history file of a completed instant) the query's
 * InternalSchema is the "latest_schema" of that same commit, and every data file is read
 * through the InternalSchema it was written with: the "latest_schema" of the completed instant
 * that wrote it when that is in the active timeline, else the history's entry for that version
 * (exact or the newest older one), else its commit's "schema" with fresh ids. hudic reads a
 * table with an InternalSchema by column id whether or not the reader asked for schema on read
 * (Hudi would read renamed columns as null: never right). */
#ifndef HUDI_TABLE_SCHEMA_VIEW_H
#define HUDI_TABLE_SCHEMA_VIEW_H

#include "schema/internal_schema.h"
#include "table/tbl.h"

typedef struct hudi_schema_view hudi_schema_view;

/* The schemas of `t` as of `as_of` (NULL or "" = the latest completed instant). Reads commit
 * metadata and the history file as needed (the timeline as loaded in `t`). */
int hudi_schema_view_open(hudi_schema_view **out, hudi_table *t, const char *as_of,
                          hudi_error *err);
void hudi_schema_view_free(hudi_schema_view *v); /* NULL-safe */

/* The table schema (a STRUCT named by the record full name, meta fields in front), or NULL
 * when the table records none (no commit with a schema, no create schema). Owned by the view. */
const hudi_field *hudi_schema_view_table(const hudi_schema_view *v);
/* The instant whose commit metadata gave the table schema, or NULL (create schema / none). */
const char *hudi_schema_view_instant(const hudi_schema_view *v);

/* The query's InternalSchema, or NULL when the table has none (schema on write only). */
const hudi_ischema *hudi_schema_view_ischema(const hudi_schema_view *v);
/* The InternalSchema a data file written by `instant` was written with (cached per instant;
 * owned by the view). Only when hudi_schema_view_ischema is not NULL. */
int hudi_schema_view_file(const hudi_ischema **out, hudi_schema_view *v, const char *instant,
                          hudi_error *err);

/* The current schema history (.hoodie/.schema: the newest history file whose instant is a
 * completed commit), empty when there is none. */
int hudi_schema_history_load(hudi_ischema_history *out, hudi_table *t, hudi_error *err);
/* Persists history `h` for the commit `instant`, as Hudi does before completing it: deletes the
 * history files of instants that never completed, then writes
 * .hoodie/.schema/<instant>.schemacommit.requested and .inflight (empty) and <instant>.schemacommit
 * (the history JSON). A crash leaves files of an uncompleted instant, which readers ignore. */
int hudi_schema_history_save(hudi_table *t, const char *instant, const hudi_ischema_history *h,
                             hudi_error *err);

#endif
