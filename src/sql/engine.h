/* engine.h - the SQL engine's inner contracts: bound expressions, the function registry,
 * plans, operators and the session state they run in (docs/SQL.md describes the dialect,
 * docs/ARCHITECTURE.md the path of a statement).
 *
 * A statement goes: text -> parser (sql.h) -> AST (ast.h) -> binder (bind.c: names resolved,
 * types checked, implicit casts inserted) -> plan (hudi_sql_plan tree; planner.c pushes
 * projections and predicates into scans) -> operators (hudi_sql_oper, pulled batch by batch) ->
 * the caller (the public hudi_session API, or a write sink calling the write layer).
 *
 * Types are hudi_field trees (columnar.h): Spark's types map to them one to one
 * (BOOLEAN=BOOL, TINYINT=INT8, SMALLINT=INT16, INT=INT32, BIGINT=INT64, FLOAT, DOUBLE,
 * DECIMAL(p,s)=DECIMAL, STRING, BINARY, DATE, TIMESTAMP=TIMESTAMP micros utc,
 * TIMESTAMP_NTZ=TIMESTAMP micros !utc, ARRAY=LIST, MAP, STRUCT; NULL's type is HUDI_TYPE_NULL).
 *
 * Memory: every plan node, bound expression and field of a statement lives in the
 * statement's arena (hudi_sql_ctx.arena). Arrays and batches are heap objects (columnar.h)
 * owned by whoever the comment says. */
#ifndef HUDI_SQL_ENGINE_H
#define HUDI_SQL_ENGINE_H

#include "columnar/columnar.h"
#include "catalog/catalog.h"
#include "format/parquet/parquet.h"
#include "hudi/hudi_table.h"
#include "sql/ast.h"

#include <stdatomic.h>

/* ---- evaluation context --------------------------------------------------------------- */

/* What evaluating expressions and running operators may need from the session. */
typedef struct hudi_sql_ctx {
    hudi_arena *arena;         /* the statement's arena */
    const atomic_int *cancel;  /* non-zero: stop with HUDI_ECANCELED at the next batch */
    hudi_progress *progress;   /* scans and writes advance it (may be NULL) */
    int32_t tz_offset_minutes; /* session time zone as a fixed offset (UTC = 0); see
                                * tz_name for the zone as the user set it */
    const char *tz_name;       /* "UTC", "+08:00", ... */
    int64_t now_micros;        /* current_timestamp() of the statement (fixed per statement) */
    int64_t memory_limit;      /* bytes; 0 = none (SET hudic.memory.limit) */
    int64_t memory_used;       /* bytes held by blocking operators (hash tables, sorts) */
    int64_t batch_rows;        /* rows per batch operators aim for (default 8192) */
    int32_t threads;           /* threads of table scans (SET hudic.threads, 0 resolved to the
                                * default); 0 = unset: the read layer's (hudi_reader_set_threads) */
    void *session;             /* hudi_sql_session *, for statement execution */
} hudi_sql_ctx;

/* Fails with HUDI_ECANCELED "statement canceled" when the session's cancel flag is set. */
int hudi_sql_check_cancel(const hudi_sql_ctx *ctx, hudi_error *err);
/* Accounts `bytes` more (or fewer, when negative) held by an operator; fails with
 * HUDI_ENOMEM "query needs more than hudic.memory.limit (N bytes)" past the limit. */
int hudi_sql_mem_charge(hudi_sql_ctx *ctx, int64_t bytes, hudi_error *err);

/* ---- bound expressions ---------------------------------------------------------------- */

typedef enum hudi_sql_bx_kind {
    HUDI_SQL_BX_COLUMN, /* column `column` of the input batch */
    HUDI_SQL_BX_CONST,  /* `value`: a 1-row array of `type` (a NULL literal: one null row) */
    HUDI_SQL_BX_CALL,   /* scalar function `fn` over args (operators are functions too:
                         * "+", "=", "and", "not", "is_null", "in", "like", "case", "cast") */
    HUDI_SQL_BX_AGGREF, /* over an AGGREGATE's output: its column `column` (the group
                         * columns come first, so aggregate k is column n_group + k);
                         * evaluated like COLUMN */
} hudi_sql_bx_kind;

typedef struct hudi_sql_func hudi_sql_func;
typedef struct hudi_sql_bexpr hudi_sql_bexpr;

struct hudi_sql_bexpr {
    hudi_sql_bx_kind kind;
    hudi_field type;         /* result type (arena-owned names; never disposed) */
    int32_t column;          /* COLUMN, AGGREF */
    hudi_array *value;       /* CONST: 1 row, heap-owned by the statement (freed with it) */
    const hudi_sql_func *fn; /* CALL */
    int32_t n_args;
    hudi_sql_bexpr **args;
    void *fn_state;   /* CALL: what the function's bind step prepared (a compiled
                       * regex, a parsed datetime pattern); arena or statement owned */
    hudi_sql_pos pos; /* where it came from, for errors */
    const char *text; /* the expression as written (for column names like Spark's) */
};

/* A value of an evaluation: an array of `nrows` rows, or a constant (is_const) whose row 0
 * stands for every row. `owned` says whether the holder must free `array`. */
typedef struct hudi_sql_datum {
    hudi_array *array;
    bool is_const;
    bool owned;
} hudi_sql_datum;

void hudi_sql_datum_dispose(hudi_sql_datum *d); /* frees the array when owned */

/* Evaluates `e` over `in` (its columns are the input columns). Returns 0 with *out set, or an
 * error naming the expression. A COLUMN is returned borrowed (owned = false), a CONST as a
 * borrowed constant. */
int hudi_sql_eval(hudi_sql_ctx *ctx, const hudi_sql_bexpr *e, const hudi_batch *in,
                  hudi_sql_datum *out, hudi_error *err);
/* Evaluates `e` into a full array of in->num_rows rows that the caller owns (a constant is
 * broadcast, a column copied). */
int hudi_sql_eval_array(hudi_sql_ctx *ctx, const hudi_sql_bexpr *e, const hudi_batch *in,
                        hudi_array **out, hudi_error *err);
/* Evaluates a BOOLEAN predicate into a selection: sel[i] = 1 where it is true (false and null
 * are 0). Returns the number of selected rows or a negative error. `sel` has in->num_rows
 * bytes. */
int64_t hudi_sql_eval_select(hudi_sql_ctx *ctx, const hudi_sql_bexpr *e, const hudi_batch *in,
                             uint8_t *sel, hudi_error *err);

/* ---- the function registry (functions.c, cast.c, datetime.c, ...) ---------------------- */

/* A call being bound: the binder fills `args` (bound, with their types) and calls the
 * function's `bind`, which checks arity and types, and sets `arg_types[i]` to the type each
 * argument must be cast to (the binder inserts the casts, Spark's implicit coercion of
 * docs/SQL.md "Types and casts") and `result` to the result type. `state` may be set to
 * whatever `eval` needs that is fixed per call site (a compiled constant pattern). */
typedef struct hudi_sql_bind_call {
    hudi_sql_ctx *ctx;
    const char *name; /* as written, lower-cased */
    int32_t n_args;
    hudi_sql_bexpr **args;
    hudi_field *arg_types; /* n_args entries, preset to the argument types */
    hudi_field result;
    void *state;
    hudi_sql_pos pos;
} hudi_sql_bind_call;

/* Evaluates a call over `nrows` rows: args are full arrays or constants (datum.is_const),
 * already of the types bind asked for. Sets *out to a new array of `result` type and nrows
 * rows (owned by the caller). */
typedef int (*hudi_sql_fn_eval)(hudi_sql_ctx *ctx, const hudi_sql_bexpr *call,
                                const hudi_sql_datum *args, int64_t nrows, hudi_array **out,
                                hudi_error *err);

typedef enum hudi_sql_func_kind {
    HUDI_SQL_FN_SCALAR,
    HUDI_SQL_FN_AGGREGATE, /* evaluated by the aggregate operator (aggregate.c) */
} hudi_sql_func_kind;

struct hudi_sql_func {
    const char *name; /* lower case; operators by their symbol ("+", "=", "and") */
    hudi_sql_func_kind kind;
    int8_t min_args, max_args; /* max -1: any number */
    int (*bind)(hudi_sql_bind_call *call, hudi_error *err);
    hudi_sql_fn_eval eval;
    void (*free_state)(void *state); /* NULL when state needs no freeing */
    const char *usage;               /* "substring(str, pos[, len]) - ..." for docs and help */
};

/* The function named `name` (case-insensitive), or NULL. Aliases (substr, lcase, ucase,
 * dayofmonth, nvl, ...) resolve to their function. */
const hudi_sql_func *hudi_sql_func_lookup(const char *name);
/* Every registered function in name order (SHOW FUNCTIONS, completion, docs). */
const hudi_sql_func *const *hudi_sql_func_all(int32_t *count);

/* Binds an operator or function call over already-bound args (used by the binder for
 * operators and by rewrites such as IN lists and BETWEEN): looks `name` up, runs its bind,
 * inserts the casts and returns the CALL node in *out. HUDI_ESQL naming the function and
 * position on a type error. */
int hudi_sql_bind_fn(hudi_sql_ctx *ctx, const char *name, hudi_sql_bexpr **args, int32_t n_args,
                     hudi_sql_pos pos, hudi_sql_bexpr **out, hudi_error *err);
/* Wraps `e` in a cast to `to` (none when the type already equals it). `try_cast`: TRY_CAST
 * (failures are null; plain CAST is lenient too in non-ANSI Spark, so both give null). */
int hudi_sql_bind_cast(hudi_sql_ctx *ctx, hudi_sql_bexpr *e, const hudi_field *to,
                       hudi_sql_bexpr **out, hudi_error *err);
/* The common type of two types for UNION, CASE, COALESCE, IN, VALUES (Spark's widening:
 * numeric widening, numeric + string = string, date + timestamp = timestamp). HUDI_ESQL
 * when there is none. */
int hudi_sql_common_type(hudi_arena *arena, const hudi_field *a, const hudi_field *b,
                         hudi_field *out, hudi_error *err);
/* Whether two types are the same (name and nullability ignored). */
bool hudi_sql_type_equal(const hudi_field *a, const hudi_field *b);
/* Spark's name of a type: "int", "bigint", "decimal(10,2)", "array<string>",
 * "struct<a:int,b:string>", "timestamp", "timestamp_ntz". */
void hudi_sql_type_spark_name(hudi_buf *out, const hudi_field *t);
/* A field of Spark SQL type `t` (from the parser) named `name`, arena-owned. */
int hudi_sql_type_from_ast(hudi_arena *arena, const hudi_sql_type *t, const char *name,
                           hudi_field *out, hudi_error *err);
/* Arena copy of a field tree (names, comments and children in the arena). */
int hudi_sql_field_copy(hudi_arena *arena, hudi_field *dst, const hudi_field *src);

/* Casts a whole array (CAST semantics of docs/SQL.md, null on failure) to `to`: a new array. */
int hudi_sql_cast_array(hudi_sql_ctx *ctx, const hudi_array *in, const hudi_field *to,
                        hudi_array **out, hudi_error *err);
/* Appends row `row` of `a` as Spark renders the value when cast to STRING (CAST(x AS STRING),
 * and spark-sql's output: 1.0E10, 2024-01-01 10:00:00.123, [1,2], {"a":1}), with the
 * session zone for timestamps; a null row appends "NULL". */
void hudi_sql_render_value(hudi_buf *out, const hudi_sql_ctx *ctx, const hudi_array *a,
                           int64_t row);

/* ---- aggregates (aggregate.c) ---------------------------------------------------------- */

/* An aggregate call as the binder resolved it: count(*), count(x), count(DISTINCT x),
 * sum, avg, min, max (and what else aggregate.c registers). */
typedef struct hudi_sql_aggcall {
    const hudi_sql_func *fn; /* kind AGGREGATE */
    bool distinct;
    bool star; /* count(*) */
    int32_t n_args;
    hudi_sql_bexpr **args;  /* over the aggregate's input */
    hudi_sql_bexpr *filter; /* FILTER (WHERE ...) or NULL */
    hudi_field type;        /* result type */
} hudi_sql_aggcall;

/* The aggregate functions (count, sum, avg, min, max, ...: aggregate.c), which
 * hudi_sql_func_lookup finds too. Their bind sets the result type (sum(int) = bigint,
 * avg = double, sum(decimal(p,s)) = decimal(min(38,p+10),s), avg(decimal(p,s)) =
 * decimal(min(38,p+4),min(38,s+4)), min/max = the argument's); eval is NULL. */
const hudi_sql_func *const *hudi_sql_aggregate_funcs(int32_t *count);

/* ---- plans ----------------------------------------------------------------------------- */

typedef enum hudi_sql_plan_kind {
    HUDI_SQL_P_SCAN,      /* a Hudi or Parquet table (scan.c) */
    HUDI_SQL_P_VALUES,    /* constant rows: `rows` of bound constant-foldable exprs */
    HUDI_SQL_P_BATCHES,   /* precomputed batches (SHOW, DESCRIBE, CALL results) */
    HUDI_SQL_P_FILTER,    /* child, `cond` */
    HUDI_SQL_P_PROJECT,   /* child, `exprs` (output column i = exprs[i]) */
    HUDI_SQL_P_AGGREGATE, /* child, `group` exprs then `aggs`: output = group cols, agg cols */
    HUDI_SQL_P_SORT,      /* child, `keys`; limit >= 0: top-N */
    HUDI_SQL_P_LIMIT,     /* child, limit, offset */
    HUDI_SQL_P_DISTINCT,  /* child: distinct rows */
    HUDI_SQL_P_JOIN,      /* left, right, join kind, equi keys, residual `cond` */
    HUDI_SQL_P_SETOP,     /* left, right, setop, all */
} hudi_sql_plan_kind;

typedef struct hudi_sql_sort_key {
    hudi_sql_bexpr *expr;
    bool desc;
    bool nulls_first; /* Spark: NULLS FIRST for ASC, NULLS LAST for DESC by default */
} hudi_sql_sort_key;

/* A conjunct pushed into a scan: `column` (an index into the scan's table_schema) op a
 * constant already of the column's type; IS [NOT] NULL has no constant. The scan may use it to
 * skip partitions, files, row groups and pages, and must still return only matching rows.
 * HUDI_SQL_PUSH_IN is `column` IN the rows of `value` (two or more distinct non-null values,
 * ascending): the scan uses it only to skip (partitions none of the values matches; files
 * whose record-key range and bloom filter hold none of them, when the column is the record
 * key) and does not filter rows by it; the planner pushes the list's bounds (>= its first
 * value, <= its last) next to it and keeps the filter above the scan. */
#define HUDI_SQL_PUSH_IN 100
typedef struct hudi_sql_pushdown {
    int32_t column;
    int op;            /* hudi_cmp_op (format/parquet/parquet.h) or HUDI_SQL_PUSH_IN */
    hudi_array *value; /* 1 row (IN: n rows); NULL for IS [NOT] NULL; statement-owned */
    const char *text;  /* the conjunct as written, for EXPLAIN */
} hudi_sql_pushdown;

/* What a SCAN reads (scan.c). The binder fills table, entry, table_schema and the time
 * travel; the planner fills columns and pushdown. */
typedef struct hudi_sql_scan_spec {
    const char *display_name;  /* db.table or the path, for EXPLAIN and errors */
    hudi_catalog_table *entry; /* the catalog entry (result-owned) */
    hudi_table *table;         /* the opened Hudi table (result-owned); NULL for Parquet */
    hudi_field table_schema;   /* STRUCT: every column the table offers (meta columns first
                                * for Hudi tables, partition columns of Parquet tables last) */
    int32_t *columns;          /* the output columns: indices into table_schema */
    int32_t n_columns;
    hudi_sql_pushdown *pushdown;
    int32_t n_pushdown;
    const char *as_of_instant; /* time travel (an instant "yyyyMMddHHmmssSSS"), or NULL */
    const char *begin_instant, *end_instant; /* incremental (hudi_table_changes), or NULL */
    bool read_optimized;
    /* Filled by the scan for EXPLAIN ANALYZE-like reporting and tests: base files of the
     * query, files opened (footer read), files left out by partition values (never opened),
     * row groups skipped by statistics, rows decoded (before exact filtering). */
    int64_t files_total, files_read, files_pruned, row_groups_skipped, rows_read;
    /* A top-N's boundary (plan.c) on table column `dynamic_column` (an output column), applied
     * to base files without log files; NULL = none. Its counters say what it skipped. */
    hudi_pq_dynfilter *dynamic;
    int32_t dynamic_column;
} hudi_sql_scan_spec;

/* Resolves an instant for TIMESTAMP AS OF: an instant string ("20240101123045123"), a date
 * ("2024-01-01") or a timestamp ("2024-01-01 12:30:45[.123]"), turned into instant digits as
 * text the way Hudi 0.15 does (no time-zone conversion: instants are the writer's wall clock;
 * missing millis are 999, a date is its midnight); refused at or after the first pending
 * commit; the instant of the latest completed commit at or before it, else the instant itself
 * (the table as of then is empty). The instant lives in ctx->arena. */
int hudi_sql_scan_as_of(hudi_sql_ctx *ctx, hudi_table *t, const char *text,
                        const char **out_instant, hudi_error *err);
/* Fills `spec->table_schema` (and opens the table) for a catalog entry: a Hudi table's full
 * schema as of `as_of` (meta columns included), or a Parquet table's declared or discovered
 * columns plus partition columns. */
int hudi_sql_scan_prepare(hudi_sql_ctx *ctx, hudi_sql_scan_spec *spec, hudi_error *err);
/* `in` (a Hudi table's STRUCT) with its top-level partition columns (`partition_fields`,
 * comma separated; NULL or "" = none) moved after the other columns, in that order: the column
 * order of the table in Spark's catalog, which SQL shows. `out` is a new tree. */
int hudi_sql_partition_columns_last(hudi_field *out, const hudi_field *in,
                                    const char *partition_fields, hudi_error *err);
typedef struct hudi_sql_plan hudi_sql_plan;
struct hudi_sql_plan {
    hudi_sql_plan_kind kind;
    hudi_field schema;           /* STRUCT of the output columns (arena-owned) */
    hudi_sql_plan *left, *right; /* child (left) and join/setop right side */
    /* SCAN */
    hudi_sql_scan_spec *scan;
    /* VALUES: n_rows rows of schema.n_children exprs each (row-major) */
    int64_t n_rows;
    hudi_sql_bexpr **rows;
    /* BATCHES: heap batches over `schema`, freed with the statement */
    hudi_batch **batches;
    int32_t n_batches;
    /* FILTER, JOIN residual */
    hudi_sql_bexpr *cond;
    /* PROJECT */
    int32_t n_exprs;
    hudi_sql_bexpr **exprs;
    /* AGGREGATE */
    int32_t n_group;
    hudi_sql_bexpr **group;
    int32_t n_aggs;
    hudi_sql_aggcall **aggs;
    /* SORT */
    int32_t n_keys;
    hudi_sql_sort_key *keys;
    /* SORT (top-N), LIMIT */
    int64_t limit; /* -1 = none */
    int64_t offset;
    /* SORT (top-N) whose first key is a plain column of a scan below it (through projections
     * and filters only): the boundary it shares with that scan (scan spec `dynamic`), reset
     * when the sort opens; NULL = none (docs/SQL.md "Top-N dynamic filter"). */
    hudi_pq_dynfilter *dynamic;
    /* JOIN: n_keys pairs, left_keys over the left input, right_keys over the right */
    hudi_sql_join_kind join;
    hudi_sql_bexpr **left_keys, **right_keys; /* n_keys entries each (JOIN reuses n_keys) */
    /* SETOP */
    hudi_sql_setop setop;
    bool all;
};

/* Appends a scan's line of EXPLAIN (scan.c): the table, columns read, pushed predicates, and
 * the partitions and files read and skipped with the reason; continuation lines are indented
 * for plan depth `depth`. For a prepared and planned scan, before it runs: "Scan hudi|parquet
 * <display_name> [columns]", then one fact per line: location, time travel or incremental
 * range (or the snapshot's instant), pushed filters, the partitions pruned with the predicate
 * that pruned each, the files skipped by Parquet statistics (every row group excluded: footers
 * are read, no data) counted per partition, and the totals: files pruned, skipped and to read,
 * row groups skipped. No file names (they hold random ids), so the text is stable across runs
 * but for the snapshot instant; lists stop after 20 lines. No trailing newline; a failure (an
 * unreadable footer) shows as a line "(error: ...)". */
void hudi_sql_scan_explain(hudi_buf *out, const hudi_sql_scan_spec *spec, int depth);

/* Renders a plan as the EXPLAIN text (one node per line, indented), scans with their pruning. */
void hudi_sql_plan_explain(hudi_buf *out, const hudi_sql_plan *p);

/* ---- operators (exec_*.c) -------------------------------------------------------------- */

/* A running plan node: pull batches with next until *out = NULL. The batch belongs to the
 * operator and stays valid until the next call to next or free. Its schema is the plan's. */
typedef struct hudi_sql_oper hudi_sql_oper;
struct hudi_sql_oper {
    const hudi_sql_plan *plan;
    hudi_sql_ctx *ctx;
    int (*next)(hudi_sql_oper *op, hudi_batch **out, hudi_error *err);
    void (*free)(hudi_sql_oper *op);
};

/* Builds the operator tree for `p` (nothing runs until the first next). */
int hudi_sql_op_open(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                     hudi_error *err);
static inline int hudi_sql_op_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    return op->next(op, out, err);
}
void hudi_sql_op_free(hudi_sql_oper *op); /* NULL-safe, frees children */

/* The scan operator of a SCAN plan (scan.c); hudi_sql_op_open calls it. */
int hudi_sql_scan_open(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_error *err);

/* Runs `p` to the end and concatenates its rows into one heap batch over p->schema (for
 * subqueries, write sinks, small results). Charges memory. */
int hudi_sql_collect(hudi_sql_ctx *ctx, const hudi_sql_plan *p, hudi_batch **out, hudi_error *err);

/* Row kernels shared by the operators (kernels.c). */
/* Hashes rows of the key arrays (all of `nrows` rows, constants broadcast) into `hashes`;
 * nulls hash alike, so GROUP BY and DISTINCT put them in one group. */
void hudi_sql_hash_rows(const hudi_sql_datum *keys, int32_t n_keys, int64_t nrows,
                        uint64_t *hashes);
/* Compares row i of a with row j of b (same type): <0, 0, >0; nulls are equal to each other
 * and ordered by nulls_first. NaN is equal to NaN and larger than every number (Spark). */
int hudi_sql_compare_rows(const hudi_array *a, int64_t i, const hudi_array *b, int64_t j,
                          bool nulls_first);
/* A new batch of `in`'s schema holding the rows listed in `rows` (in that order). */
int hudi_sql_take(const hudi_batch *in, const int64_t *rows, int64_t n, hudi_batch **out,
                  hudi_error *err);
/* Appends all rows of `src` to `dst` (same schema). */
int hudi_sql_batch_append(hudi_batch *dst, const hudi_batch *src, hudi_error *err);

#endif
