/**
 * @file hudi_sql.h
 * @brief SQL sessions: run Spark SQL statements (with Hudi's extensions and the Flink DDL forms,
 *        docs/SQL.md) against the tables of a warehouse folder, results as Arrow C streams.
 *
 * A session holds the catalog of a warehouse (databases are folders, managed tables live in
 * <warehouse>/<db>/<table>, external tables are registered by LOCATION), the current database
 * and the session configuration (SET). Statements run one at a time per session; a session may
 * be used from one thread at a time, except hudi_session_cancel, which any thread (or a signal
 * handler) may call.
 *
 * @code
 *   hudi_session *s; hudi_result *r; size_t used;
 *   hudi_session_open(&s, "/data/warehouse", NULL, &err);
 *   hudi_session_execute(s, sql, strlen(sql), &used, &r, &err);
 *   if (hudi_result_has_rows(r)) hudi_result_stream(r, &stream, &err);  // then read batches
 *   hudi_result_free(r); hudi_session_close(s);
 * @endcode
 */
#ifndef HUDI_PUBLIC_SQL_H
#define HUDI_PUBLIC_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hudi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowSchema;
struct ArrowArray;
struct ArrowArrayStream;

typedef struct hudi_session hudi_session;
typedef struct hudi_result hudi_result;

typedef struct hudi_session_options {
    int version;             /**< HUDI_SESSION_OPTIONS_VERSION */
    const char *database;    /**< the current database to start in; NULL = "default" */
    const char *const *conf; /**< session settings: key, value, ..., NULL (as SET k=v); may
                                  be NULL */
} hudi_session_options;

#define HUDI_SESSION_OPTIONS_VERSION 1
#define HUDI_SESSION_OPTIONS_INIT                                                                  \
    { HUDI_SESSION_OPTIONS_VERSION, NULL, NULL }

/** Opens a session on the warehouse folder `warehouse` (created, with the database "default",
 *  when missing). `opts` may be NULL. */
HUDI_API int hudi_session_open(hudi_session **out, const char *warehouse,
                               const hudi_session_options *opts, hudi_error *err);
/** Closes the session. NULL-safe. Results must be freed first. */
HUDI_API void hudi_session_close(hudi_session *s);

/** Sets a session configuration value, as `SET key=value` does. */
HUDI_API int hudi_session_set(hudi_session *s, const char *key, const char *value, hudi_error *err);
/** The session value of `key`, or NULL when not set. Valid until the next call that sets it. */
HUDI_API const char *hudi_session_get(const hudi_session *s, const char *key);
/** The current database. */
HUDI_API const char *hudi_session_database(const hudi_session *s);

/** What a statement was. */
typedef enum hudi_statement_kind {
    HUDI_STMT_QUERY = 0, /**< SELECT, VALUES, TABLE: rows */
    HUDI_STMT_DDL = 1,   /**< CREATE, DROP, ALTER, TRUNCATE, USE: no rows */
    HUDI_STMT_DML = 2,   /**< INSERT, UPDATE, DELETE, MERGE, CTAS: rows_affected */
    HUDI_STMT_SHOW = 3,  /**< SHOW, DESCRIBE, EXPLAIN: rows */
    HUDI_STMT_SET = 4,   /**< SET, RESET: rows for `SET` and `SET key` */
    HUDI_STMT_CALL = 5,  /**< CALL procedure: rows */
} hudi_statement_kind;

/** Runs the first statement of `sql[0, len)` (statements end at a `;` outside quotes and
 *  comments). `*consumed` is set to the bytes used, through the `;`, so a script runs by
 *  calling again on the rest. `*out` is the result, or NULL when only blanks and comments
 *  were left (then *consumed == len). A query's rows are computed while its stream is read.
 *
 *  Errors are one line: "line L, column C: <what>" for syntax and binding errors;
 *  hudi_session_error_context then shows the offending line with a caret. A failed statement
 *  leaves tables and catalog as they were. *consumed is set on errors too, so a caller can go
 *  on with the next statement. */
HUDI_API int hudi_session_execute(hudi_session *s, const char *sql, size_t len, size_t *consumed,
                                  hudi_result **out, hudi_error *err);

/** After a failed hudi_session_execute: two lines (the statement's line holding the error,
 *  and a caret under its column), or "" when the error has no position. */
HUDI_API const char *hudi_session_error_context(const hudi_session *s);

/** Stops the running statement of `s` at its next batch (HUDI_ECANCELED); a write is rolled
 *  back. Callable from any thread and from a signal handler. */
HUDI_API void hudi_session_cancel(hudi_session *s);

/** What the running statement is doing (hudi_session_progress). */
typedef enum hudi_progress_phase {
    HUDI_PROGRESS_NONE = 0,  /**< nothing to report (planning, joining, a DDL statement) */
    HUDI_PROGRESS_SCAN = 1,  /**< reading tables: done/total count base files */
    HUDI_PROGRESS_WRITE = 2, /**< writing a commit: done/total count file groups */
} hudi_progress_phase;

typedef struct hudi_statement_progress {
    hudi_progress_phase phase;
    int64_t done, total; /**< units of the phase finished or started, of those it will take */
    int64_t rows;        /**< scan: rows decoded so far; write: rows of the write */
} hudi_statement_progress;

/** The progress of the statement running in `s` (hudi_session_execute, or reading its
 *  result's stream); once it ended, its final counts until the next statement starts (all zero
 *  before the first). Callable from any thread. */
HUDI_API void hudi_session_progress(const hudi_session *s, hudi_statement_progress *out);

HUDI_API hudi_statement_kind hudi_result_kind(const hudi_result *r);
/** The statement's name: "SELECT", "CREATE TABLE", "INSERT", ... */
HUDI_API const char *hudi_result_statement(const hudi_result *r);
/** Rows written, updated or deleted by DML; -1 for other statements. */
HUDI_API int64_t hudi_result_rows_affected(const hudi_result *r);
/** Whether the statement returns rows (hudi_result_stream). */
HUDI_API bool hudi_result_has_rows(const hudi_result *r);
/** Moves the rows into an Arrow C stream (once per result); the stream must be released
 *  before the result is freed. A query runs as the stream is read; an error in the middle
 *  comes from get_next, its message from get_last_error. */
HUDI_API int hudi_result_stream(hudi_result *r, struct ArrowArrayStream *out, hudi_error *err);
/** NULL-safe. */
HUDI_API void hudi_result_free(hudi_result *r);

/** Receives one value of hudi_session_render: its text `text[0, len)` (NUL-terminated, valid
 *  during the call) and whether it is NULL (the text is then "NULL"). Returns 0, or a negative
 *  HUDI_E* code that stops the rendering (hudi_session_render returns it). */
typedef int (*hudi_render_fn)(void *payload, int64_t row, int32_t column, const char *text,
                              size_t len, bool is_null);

/** Renders rows [offset, offset + length) of `batch` (a struct array of a result stream, with
 *  its `schema`; both borrowed) as spark-sql prints values (docs/SQL.md "Output"): NULL,
 *  1.0E10, 12.50, 2024-01-01 10:00:00.123, [1,2], {"a":1}... calling `cell` once per value,
 *  row by row and left to right within a row. Timestamps use the session's time zone
 *  (`spark.sql.session.timeZone`). The batch is converted once per call: render a batch in
 *  one call (or in large slices), not value by value. */
HUDI_API int hudi_session_render(const hudi_session *s, const struct ArrowSchema *schema,
                                 const struct ArrowArray *batch, int64_t offset, int64_t length,
                                 hudi_render_fn cell, void *payload, hudi_error *err);

#ifdef __cplusplus
}
#endif
#endif
