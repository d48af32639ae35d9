/* session.h - a SQL session: the warehouse's catalog, the current database, the session
 * configuration (SET), and the running statement's cancel flag; the state behind the public
 * hudi_session (include/hudi/hudi_sql.h). Statement executors (ddl.c, show.c, call.c, dml.c,
 * query.c) share this contract: each fills a hudi_sql_result. */
#ifndef HUDI_SQL_SESSION_H
#define HUDI_SQL_SESSION_H

#include "catalog/catalog.h"
#include "hudi/hudi_sql.h"
#include "hudi/hudi_table.h"
#include "sql/engine.h"
#include "table/tbl.h"

typedef struct hudi_sql_session {
    hudi_fs *fs;           /* owned: the local file system */
    hudi_catalog *catalog; /* owned */
    char *database;        /* current database (lower case) */
    char **conf;           /* SET values: key, value, ... (owned strings), in set order */
    int32_t n_conf, cap_conf;
    atomic_int cancel;       /* hudi_session_cancel sets it; cleared when a statement starts */
    hudi_progress progress;  /* the running statement's (hudi_session_progress) */
    char error_context[512]; /* the failing statement's line and a caret, or "" */
    int32_t error_line, error_col;
} hudi_sql_session;

/* Opens a session on the warehouse folder (created when missing) in database "default". */
int hudi_sql_session_open(hudi_sql_session **out, const char *warehouse, hudi_error *err);
void hudi_sql_session_close(hudi_sql_session *s); /* NULL-safe */
/* Makes `db` (folded to lower case) the current database; the caller checks it exists. */
int hudi_sql_session_use(hudi_sql_session *s, const char *db, hudi_error *err);
/* The session time zone (spark.sql.session.timeZone) as a fixed offset in minutes, and its
 * name; region ids with daylight-saving rules are HUDI_EUNSUPPORTED. */
int hudi_sql_session_zone(const hudi_sql_session *s, int32_t *offset_minutes, const char **name,
                          hudi_error *err);

typedef struct hudi_sql_owned_state {
    void *state;
    void (*free)(void *state);
} hudi_sql_owned_state;

/* The outcome of one statement. Executors set kind, statement and rows_affected, and `plan`
 * when the statement returns rows (queries, SHOW, DESCRIBE, CALL, EXPLAIN); the public
 * layer streams the plan's batches. */
typedef struct hudi_sql_result {
    hudi_statement_kind kind;
    const char *statement; /* static text: "SELECT", "CREATE TABLE", ... */
    int64_t rows_affected; /* -1 when not a write */
    hudi_sql_plan *plan;   /* NULL: no rows */
    hudi_arena arena;      /* the statement's arena (the plan lives here) */
    hudi_sql_ctx ctx;
    hudi_vec owned_arrays;  /* hudi_array * to free with the result (constants) */
    hudi_vec owned_batches; /* hudi_batch * to free with the result */
    hudi_vec owned_tables;  /* hudi_table * opened for the statement */
    hudi_vec owned_states;  /* {void *state; void (*free)(void *)} pairs of function states */
} hudi_sql_result;

/* A fresh result for a statement of session `s` (its context points at the session). */
void hudi_sql_result_init(hudi_sql_result *r, hudi_sql_session *s);
/* Frees everything the result owns (function states first, then arrays, batches, tables, the
 * arena). Operators built over its plan must be freed before. */
void hudi_sql_result_dispose(hudi_sql_result *r);

/* Registers heap objects to be freed with the result (0 or HUDI_ENOMEM; on failure the object
 * is freed at once). */
int hudi_sql_result_own_array(hudi_sql_result *r, hudi_array *a, hudi_error *err);
int hudi_sql_result_own_batch(hudi_sql_result *r, hudi_batch *b, hudi_error *err);
int hudi_sql_result_own_table(hudi_sql_result *r, hudi_table *t, hudi_error *err);
int hudi_sql_result_own_state(hudi_sql_result *r, void *state, void (*free_fn)(void *),
                              hudi_error *err);

/* The result a context belongs to (the context is embedded in it). */
hudi_sql_result *hudi_sql_result_of(hudi_sql_ctx *ctx);

/* The session value of `key` (SET), or NULL. Keys are case-sensitive, as in Spark. */
const char *hudi_sql_conf_get(const hudi_sql_session *s, const char *key);
/* The first of: the session value, the table property `key` of `t` (may be NULL), `dflt`. */
const char *hudi_sql_conf_for(const hudi_sql_session *s, const hudi_catalog_table *t,
                              const char *key, const char *dflt);
int hudi_sql_conf_set(hudi_sql_session *s, const char *key, const char *value, hudi_error *err);
void hudi_sql_conf_unset(hudi_sql_session *s, const char *key);
void hudi_sql_conf_reset(hudi_sql_session *s); /* RESET: every SET value dropped */
/* Writer settings for a statement on table `e`: its hoodie.* catalog properties, then every
 * hoodie.* session value (SET), as key, value, ..., NULL in r's arena (NULL when out of
 * memory). Table properties of the table itself are in its hoodie.properties. */
const char *const *hudi_sql_write_props(hudi_sql_result *r, const hudi_sql_session *s,
                                        const hudi_catalog_table *e);

/* Resolves a table name as written: `t`, `db`.`t`, hudi.`/path` or parquet.`/path` (a path
 * entry is synthesised, not registered). HUDI_ENOTFOUND "Table or view not found: db.t" at
 * the name's position otherwise. */
int hudi_sql_resolve_table(hudi_sql_session *s, const hudi_sql_name *name, hudi_catalog_table *out,
                           hudi_error *err);

/* Rows of a result as one batch: a BATCHES plan over `schema` holding `b` (ownership moves to
 * the result). Used by SHOW, DESCRIBE, CALL and EXPLAIN. */
int hudi_sql_plan_rows(hudi_sql_result *r, const hudi_field *schema, hudi_batch *b,
                       hudi_error *err);
/* A STRUCT field in the result's arena with `n` nullable children named names[i] of
 * types[i] (HUDI_TYPE_STRING, HUDI_TYPE_INT64, ...; timestamps micros utc). */
int hudi_sql_schema_make(hudi_sql_result *r, hudi_field *out, int32_t n, const char *const *names,
                         const hudi_type_id *types, hudi_error *err);

/* run.c: executes a parsed statement of session `s` into `r` (hudi_sql_result_init'ed). */
int hudi_sql_execute_stmt(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                          hudi_error *err);
int64_t hudi_sql_now_micros(void);
/* "512m", "2g", "1048576": bytes (hudic.memory.limit). */
int hudi_sql_parse_bytes(const char *text, int64_t *out, hudi_error *err);

/* ---- statement executors --------------------------------------------------------------- */

/* query.c: SELECT/VALUES/TABLE and EXPLAIN; binds and plans a query for other statements. */
int hudi_sql_exec_query(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                        hudi_error *err);
/* Binds and plans `q` (a SELECT, VALUES, set operation) into *out. */
int hudi_sql_plan_query(hudi_sql_session *s, hudi_sql_result *r, const hudi_sql_query *q,
                        hudi_sql_plan **out, hudi_error *err);
/* dml.c: INSERT, UPDATE, DELETE, MERGE; also the write of CTAS. */
int hudi_sql_exec_dml(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                      hudi_error *err);
/* Writes the rows of `rows` (a plan over the table's data columns, in any order of names)
 * into the Hudi table at `entry` with `op`; sets r->rows_affected. */
int hudi_sql_write_rows(hudi_sql_session *s, hudi_sql_result *r, const hudi_catalog_table *entry,
                        hudi_sql_plan *rows, hudi_write_operation op, hudi_error *err);
/* ddl.c, show.c, call.c: everything else (CREATE/DROP/ALTER/TRUNCATE TABLE, databases, USE,
 * SHOW, DESCRIBE, CALL, CREATE CATALOG, CREATE/DROP INDEX). */
int hudi_sql_exec_ddl(hudi_sql_session *s, const hudi_sql_stmt *st, hudi_sql_result *r,
                      hudi_error *err);

#endif
