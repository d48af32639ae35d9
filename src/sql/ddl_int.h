/* ddl_int.h - what ddl.c, show.c and call.c share: the SHOW/DESCRIBE and CALL executors that
 * hudi_sql_exec_ddl dispatches to, result-row building, and the name and partition helpers
 * (docs/SQL.md "Statements"). */
#ifndef HUDI_SQL_DDL_INT_H
#define HUDI_SQL_DDL_INT_H

#include "sql/session.h"

/* show.c: SHOW ... and DESCRIBE ... */
int hudi_sql_exec_show(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                       hudi_error *err);
int hudi_sql_exec_describe(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                           hudi_error *err);
/* ddl_alter.c: ALTER TABLE ... ADD COLUMNS / ALTER|CHANGE COLUMN / DROP COLUMNS / RENAME
 * COLUMN on the table of entry `e`; `statement` names the statement in errors. */
int hudi_sql_alter_columns(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_stmt *st,
                           const hudi_catalog_table *e, const char *statement, hudi_error *err);
/* call.c: CALL procedure(...) */
int hudi_sql_exec_call(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                       hudi_error *err);

/* ---- result rows ------------------------------------------------------------------------ */

/* A result built row by row: begin with the column names and types, set cells, end each row,
 * finish (which hands the batch to the result as a BATCHES plan). The first failure sticks in
 * rc; every call after it does nothing. */
typedef struct hudi_sql_rows {
    hudi_sql_result *r;
    hudi_field *schema; /* in the result's arena */
    hudi_batch *b;
    int32_t filled; /* cells set in the current row (bit per column, up to 32) */
    int rc;
} hudi_sql_rows;

int hudi_sql_rows_begin(hudi_sql_rows *w, hudi_sql_result *r, int32_t n, const char *const *names,
                        const hudi_type_id *types, hudi_error *err);
void hudi_sql_rows_str(hudi_sql_rows *w, int32_t col, const char *s); /* NULL: a null cell */
void hudi_sql_rows_strn(hudi_sql_rows *w, int32_t col, const char *s, size_t len);
void hudi_sql_rows_i64(hudi_sql_rows *w, int32_t col, int64_t v); /* INT64 or INT32 column */
void hudi_sql_rows_bool(hudi_sql_rows *w, int32_t col, bool v);
void hudi_sql_rows_null(hudi_sql_rows *w, int32_t col);
void hudi_sql_rows_end(hudi_sql_rows *w); /* cells not set are null */
int hudi_sql_rows_finish(hudi_sql_rows *w, hudi_error *err);
void hudi_sql_rows_abort(hudi_sql_rows *w);

/* ---- names, literals, tables ------------------------------------------------------------ */

/* `[catalog.][db.]name` as written, split (arena strings, folded to lower case); db is the
 * session's current database when not given. HUDI_ESQL for more than three parts. */
int hudi_sql_split_name(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_name *n,
                        const char **db, const char **name, hudi_error *err);
/* A constant's text (arena): strings decoded, numbers as written, booleans "true"/"false";
 * NULL for a NULL literal. HUDI_ESQL naming `what` when `e` is not a constant. */
int hudi_sql_const_text(hudi_sql_result *r, const hudi_sql_expr *e, const char *what,
                        const char **out, hudi_error *err);
/* Opens the Hudi table of a catalog entry (owned by the result). HUDI_EINVAL for a Parquet
 * table ("<statement> needs a Hudi table: db.t is USING parquet"). */
int hudi_sql_open_entry(hudi_sql_session *s, hudi_sql_result *r, const hudi_catalog_table *e,
                        const char *statement, hudi_table **out, hudi_error *err);
/* The partition paths of `t` that match `spec` (k = v pairs; a partial spec matches every
 * partition with those values), as Hudi builds them (hive style "k=v" segments or values only,
 * URL-encoded when the table says so): arena strings in *out, sorted. A spec naming a column
 * that is not a partition field is HUDI_ESQL. */
int hudi_sql_match_partitions(hudi_sql_session *s, hudi_sql_result *r, hudi_table *t,
                              const hudi_sql_partspec *spec, const char ***out, int32_t *n,
                              hudi_error *err);
/* Spark's SHOW TABLES/DATABASES pattern: '|' separates alternatives, '*' is any run of
 * characters, matching is case-insensitive and whole-name. */
bool hudi_sql_like_pattern(const char *pattern, const char *name);

#endif
