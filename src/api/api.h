/* api.h - internals of the public API layer (include/hudi): the handle structs and helpers the
 * CLI shares. Nothing here is exported; the public functions are declared in include/hudi. */
#ifndef HUDI_API_INT_H
#define HUDI_API_INT_H

#include "hudi/hudi_json.h"
#include "hudi/hudi_parquet.h"
#include "format/parquet/meta.h"
#include "hudi/hudi_table.h"
#include "read/read.h"
#include "write/write.h"

/* A public Parquet file: the internal file on a local file system of its own, and the schema
 * element index of each leaf (RowGroup.columns[i] belongs to leaf_elements[i]). */
struct hudi_parquet_file {
    hudi_fs *fs;
    hudi_pq_file *f;
    int32_t n_leaves;
    int32_t *leaf_elements;
};

/* Prefixes "path: " to the message in `err` unless it already names `path`; returns err's code. */
int hudi_api_name_path(hudi_error *err, const char *path);

/* Text of a statistics value of leaf element `e` (may be NULL) with physical type `physical`
 * (parquet_text.c). */
void hudi_api_stat_text(hudi_buf *b, const pq_schema_element *e, int32_t physical, hudi_slice v);

/* The data columns of the table now (without meta columns): the schema of the newest base
 * file, else the create schema (hoodie.table.create.schema). A STRUCT the caller disposes. */
int hudi_api_data_schema(hudi_field *out, hudi_table *t, hudi_error *err);

/* The engine's session behind a public SQL session (sql.c). */
struct hudi_sql_session;
struct hudi_session;
struct hudi_sql_session *hudi_api_sql_session(const struct hudi_session *h);

#endif
